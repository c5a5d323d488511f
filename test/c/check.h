/* check.h: impact's tiny C unit-test harness (one test binary per test_*.c file).

   TEST(name) { ... CHECK(cond); CHECK_NEAR(a, b, tol); ... }
   int main(int argc, char **argv) { CHECK_BEGIN(argc, argv); RUN(name); RUN_SLOW(other);
                                      return CHECK_END("math"); }

   A failing CHECK prints the expression with file and line and ends that test. The binary
   prints "<suite>: N passed, N failed" last and exits 1 when anything failed. An argument
   filters tests by substring; RUN_SLOW tests run only when IMPACT_SLOW=1. */
#ifndef IMPACT_CHECK_H
#define IMPACT_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_passed_count, check_failed_count, check_current_failed;
static const char *check_filter;

#define TEST(name) static void name(void)

#define CHECK_FAIL_AT(...)                                     \
    do {                                                       \
        fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);        \
        fprintf(stderr, __VA_ARGS__);                          \
        fputc('\n', stderr);                                   \
        check_current_failed = 1;                              \
    } while (0)

#define CHECK(cond)                                            \
    do {                                                       \
        if (!(cond)) {                                         \
            CHECK_FAIL_AT("CHECK(%s) failed", #cond);          \
            return;                                            \
        }                                                      \
    } while (0)

/* |a - b| <= tol, NaN never passes */
#define CHECK_NEAR(a, b, tol)                                                            \
    do {                                                                                 \
        double check_a_ = (a), check_b_ = (b), check_t_ = (tol);                         \
        if (!(fabs(check_a_ - check_b_) <= check_t_)) {                                  \
            CHECK_FAIL_AT("CHECK_NEAR(%s, %s, %s): %.17g vs %.17g (diff %.3g)", #a, #b, \
                          #tol, check_a_, check_b_, fabs(check_a_ - check_b_));          \
            return;                                                                      \
        }                                                                                \
    } while (0)

/* |a - b| <= rtol * max(|a|, |b|) + atol */
#define CHECK_CLOSE(a, b, rtol, atol)                                                        \
    do {                                                                                     \
        double check_a_ = (a), check_b_ = (b);                                               \
        double check_s_ = fabs(check_a_) > fabs(check_b_) ? fabs(check_a_) : fabs(check_b_); \
        if (!(fabs(check_a_ - check_b_) <= (rtol) * check_s_ + (atol))) {                    \
            CHECK_FAIL_AT("CHECK_CLOSE(%s, %s): %.17g vs %.17g (diff %.3g)", #a, #b,         \
                          check_a_, check_b_, fabs(check_a_ - check_b_));                    \
            return;                                                                          \
        }                                                                                    \
    } while (0)

static void check_run(const char *name, void (*fn)(void), int slow)
{
    if (check_filter != NULL && strstr(name, check_filter) == NULL) {
        return;
    }
    if (slow) {
        const char *env = getenv("IMPACT_SLOW");
        if (env == NULL || strcmp(env, "1") != 0) {
            return;
        }
    }
    check_current_failed = 0;
    fn();
    if (check_current_failed) {
        check_failed_count++;
        printf("FAIL %s\n", name);
    } else {
        check_passed_count++;
    }
}

#define CHECK_BEGIN(argc, argv) (check_filter = (argc) > 1 ? (argv)[1] : NULL)
#define RUN(name) check_run(#name, name, 0)
#define RUN_SLOW(name) check_run(#name, name, 1)

static inline int check_end(const char *suite)
{
    printf("%s: %d passed, %d failed\n", suite, check_passed_count, check_failed_count);
    return check_failed_count > 0 ? 1 : 0;
}
#define CHECK_END(suite) check_end(suite)

#endif
