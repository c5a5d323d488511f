/* test_lcp_box.c: friction with a symmetric PSD A by box-bounded steps (src/lcp/lcp_box.c), on
   the problems that defeat Baraff's friction states (lcp_general.c): 2D pyramids of boxes
   whose contact points come in coincident pairs, as the 2D engine reports them (A singular,
   many redundant normal and tangent rows), and random frictional stacks. Every accepted
   solution is checked from A f + b by the Coulomb conditions (gen_coulomb_ok, written
   independently of the solver) and, for the pyramid, by statics: with the pushes well below
   mu g every box can stay at rest, and a solution that sticks has zero body accelerations
   M^-1 (F_ext + J^T f) (worked out here from J, never from the solver's a). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include <impact/lcp.h>
#include "lcp_gen.h"

static imp_lcp_status solve_method(const imp_lcp_problem *p, imp_lcp_method m, double *f,
                                   double *a, imp_lcp_info *info)
{
    imp_lcp_options o;
    imp_lcp_default_options(&o);
    o.method = m;
    return imp_lcp_solve(p, &o, NULL, f, a, NULL, info);
}

static void pyramid_case(int base, double mu_value)
{
    gen_sys s;
    int nb = base * (base + 1) / 2;
    int cap = 2 * (2 * base + 10 * nb);
    int *fn = malloc(sizeof(int) * (size_t)cap);
    double *mu = malloc(sizeof(double) * (size_t)cap);
    int n = gen_pyramid2d_friction(&s, base, mu_value, NULL, fn, mu);
    imp_lcp_problem p = {n, s.A, s.b, NULL, fn, mu, NULL};
    double *f = calloc((size_t)n, sizeof(double)), *a = calloc((size_t)n, sizeof(double));
    imp_lcp_info info;
    imp_lcp_status st = solve_method(&p, IMP_LCP_AUTO, f, a, &info);
    if (st != IMP_LCP_OK)
        CHECK_FAIL_AT("pyramid base %d: %s (%s)", base, imp_lcp_status_name(st), info.message);
    if (st == IMP_LCP_OK) {
        if (!gen_coulomb_ok(n, s.A, s.b, fn, mu, f, 1e-9)) CHECK_FAIL_AT("pyramid base %d: Coulomb conditions", base);
        /* statics: the total vertical force on the ground is the weight of all boxes and the
           horizontal one the sum of the pushes (by hand: the ground rows are the first two of
           each bottom box) */
        double fy = 0.0, fx = 0.0, push = 0.0;
        for (int k = 0; k < nb; k++) push += s.fext[3 * k];
        for (int i = 0; i < n; i += 2) {
            if (s.body[2 * i + 1] >= 0) continue; /* not a ground contact */
            fy += f[i];
            fx -= f[i + 1]; /* tangent (-ny, nx) = (-1, 0) for the normal (0, 1) */
        }
        CHECK_NEAR(fy, 9.81 * nb, 1e-8 * nb);
        CHECK_NEAR(fx, -push, 1e-8 * nb);
        /* every box at rest */
        CHECK(gen_max_body_acc(&s, f) <= 1e-8);
    }
    if (getenv("LCP_VERBOSE")) {
        imp_lcp_info gi;
        imp_lcp_status gs = solve_method(&p, IMP_LCP_GENERAL, f, a, &gi);
        printf("pyramid base %d (%d boxes, %d rows): %s, %d pivots; Baraff's friction states "
               "alone: %s (%s), %d pivots\n", base, nb, n, imp_lcp_status_name(st), info.pivots,
               imp_lcp_status_name(gs), gi.message, gi.pivots);
    }
    free(f), free(a), free(fn), free(mu);
    gen_sys_free(&s);
}

TEST(pyramid_coincident_contacts)
{
    pyramid_case(3, 0.6);
    if (check_current_failed) return;
    pyramid_case(6, 0.6);
}

/* the 55-box pyramid of the 2D engine's benchmark (base 10; 940 rows) */
TEST(pyramid_55_boxes)
{
    pyramid_case(10, 0.6);
}

/* Random 2D stacks with sideways pushes and random mu (sticking and sliding), as in
   test_lcp_friction.c: whenever the box method reports ok, the Coulomb conditions hold;
   it solves at least as many as Baraff's friction states do (checked against them). */
TEST(random_frictional_stacks)
{
    gen_rng g;
    gen_seed(&g, 77);
    int box_ok = 0, gen_ok = 0;
    for (int trial = 0; trial < 120; trial++) {
        int N = 1 + trial % 12, n = 4 * N;
        double push[12], mu_value = 0.1 + gen_uniform(&g);
        for (int k = 0; k < N; k++) push[k] = (gen_uniform(&g) - 0.5) * 2 * 9.81 * (trial % 2 ? 1.0 : 0.3);
        int fn[48];
        double mu[48], f[48], a[48];
        gen_sys s;
        gen_stack2d_friction(&s, N, mu_value, push, fn, mu);
        imp_lcp_problem p = {n, s.A, s.b, NULL, fn, mu, NULL};
        imp_lcp_info info;
        if (solve_method(&p, IMP_LCP_BOX, f, a, &info) == IMP_LCP_OK) {
            box_ok++;
            CHECK(info.method == IMP_LCP_BOX);
            CHECK(gen_coulomb_ok(n, s.A, s.b, fn, mu, f, 1e-9));
        }
        if (solve_method(&p, IMP_LCP_GENERAL, f, a, &info) == IMP_LCP_OK) gen_ok++;
        gen_sys_free(&s);
    }
    if (getenv("LCP_VERBOSE")) printf("random stacks: box ok %d, general ok %d of 120\n", box_ok, gen_ok);
    CHECK(box_ok >= gen_ok);
}

/* The method refuses what it cannot take, with a clear status */
TEST(box_bad_input)
{
    double A[4] = {1, 0.5, 0, 1}, b[2] = {-1, 0}, mu[2] = {0, 0.5}, f[2], a[2];
    int fn[2] = {-1, 0};
    imp_lcp_problem p = {2, A, b, NULL, fn, mu, NULL};
    imp_lcp_info info;
    CHECK(solve_method(&p, IMP_LCP_BOX, f, a, &info) == IMP_LCP_BAD_INPUT); /* not symmetric */
    A[1] = 0.0;
    imp_lcp_problem q = {2, A, b, NULL, NULL, NULL, NULL};
    CHECK(solve_method(&q, IMP_LCP_BOX, f, a, &info) == IMP_LCP_BAD_INPUT); /* no friction */
    CHECK(solve_method(&p, IMP_LCP_BOX, f, a, &info) == IMP_LCP_OK);
    CHECK_NEAR(f[0], 1.0, 1e-12);
    CHECK_NEAR(f[1], 0.0, 1e-12);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(pyramid_coincident_contacts);
    RUN_SLOW(pyramid_55_boxes);
    RUN(random_frictional_stacks);
    RUN(box_bad_input);
    return CHECK_END("lcp_box");
}
