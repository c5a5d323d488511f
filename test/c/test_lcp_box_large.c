/* test_lcp_box_large.c: the box steps' cap for large problems (src/lcp/lcp_box.c: above
   IMP_LCP_BOX_LARGE rows 5 n + 1000 pivots instead of 15 n + 1000), turned on here for
   lcp_gen.h's small 2D pyramids and stacks through the workspace's box_large_rows. Every
   answer the steps call solved is checked from A f + b by Coulomb's conditions (and, for
   the pyramids, by statics: lcp_pyr.h's pyr_ok, with pushes below mu g the boxes can stay
   at rest), never against the program's own output; a run that fails stops within the
   cap with its reason. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include <impact/lcp.h>
#include "lcp_gen.h"
#include "lcp_pyr.h"
#include "lcp_internal.h"

/* the box steps alone on A + eps diag(A), the 2D engine's tolerances, the large problems'
   cap above `large_rows` rows */
static imp_lcp_status box(const pyr *y, double eps, int large_rows, double *f, imp_lcp_info *info,
                          const char **msg)
{
    int n = y->n;
    double *Ar = malloc(sizeof(double) * (size_t)n * (size_t)n);
    memcpy(Ar, y->s.A, sizeof(double) * (size_t)n * (size_t)n);
    for (int i = 0; i < n; i++) Ar[(size_t)i * n + i] *= 1.0 + eps;
    imp_lcp_problem q = y->p;
    q.A = Ar;
    imp_lcp_limits lim;
    imp_lcp_limits_default(&lim, n);
    lim.tol = 1e-8;
    lim.ptol = eps > 0.0 ? 1e-3 * eps : 1e-6;
    imp_lcp_workspace *ws = imp_lcp_workspace_create(n);
    ws->box_large_rows = large_rows;
    memset(info, 0, sizeof *info);
    *msg = "";
    imp_lcp_status st = imp_lcp_solve_box(&q, &lim, NULL, NULL, ws, f, info, msg);
    imp_lcp_workspace_destroy(ws);
    free(Ar);
    return st;
}

/* Pyramids of 4 to 7 boxes' base (136 to 448 rows) pushed by +-0.1 g, the cap on: the
   regularized steps answer each, and each answer is a static equilibrium meeting Coulomb's
   conditions on A itself */
TEST(large_cap_answers_are_exact)
{
    for (int base = 4; base <= 7 && !check_current_failed; base++) {
        pyr y;
        pyr_make(&y, base, 1.0, NULL);
        imp_lcp_info info;
        const char *msg;
        imp_lcp_status st = box(&y, 1e-10, 1, y.f, &info, &msg);
        if (st != IMP_LCP_OK) CHECK_FAIL_AT("base %d: %s (%s)", base, imp_lcp_status_name(st), msg);
        else if (!pyr_ok(&y, y.f)) CHECK_FAIL_AT("base %d: not Coulomb's static answer", base);
        if (getenv("LCP_VERBOSE"))
            printf("base %d (%d rows): %s, %d pivots\n", base, y.n, imp_lcp_status_name(st), info.pivots);
        pyr_free(&y);
    }
}

/* Random 2D stacks of 1 to 12 boxes with sideways pushes up to 1 g and random mu (sticking
   and sliding), the cap on: an answer called solved meets Coulomb's conditions from
   A f + b, and a failure ends within 5 n + 1000 pivots with its reason */
TEST(large_cap_bounds_a_failure)
{
    gen_rng g;
    gen_seed(&g, 77);
    int ok = 0, failed = 0;
    for (int trial = 0; trial < 120 && !check_current_failed; trial++) {
        int N = 1 + trial % 12, n = 4 * N;
        double push[12], mu_value = 0.1 + gen_uniform(&g);
        for (int k = 0; k < N; k++) push[k] = (gen_uniform(&g) - 0.5) * 2 * 9.81 * (trial % 2 ? 1.0 : 0.3);
        int fn[48];
        double mu[48], f[48];
        gen_sys s;
        gen_stack2d_friction(&s, N, mu_value, push, fn, mu);
        imp_lcp_problem p = {n, s.A, s.b, NULL, fn, mu, NULL};
        imp_lcp_limits lim;
        imp_lcp_limits_default(&lim, n);
        imp_lcp_workspace *ws = imp_lcp_workspace_create(n);
        ws->box_large_rows = 1;
        imp_lcp_info info;
        memset(&info, 0, sizeof info);
        const char *msg = "";
        imp_lcp_status st = imp_lcp_solve_box(&p, &lim, NULL, NULL, ws, f, &info, &msg);
        imp_lcp_workspace_destroy(ws);
        if (st == IMP_LCP_OK) {
            ok++;
            CHECK(gen_coulomb_ok(n, s.A, s.b, fn, mu, f, 1e-9));
        } else {
            failed++;
            CHECK(st == IMP_LCP_PIVOT_LIMIT);
            CHECK(info.pivots <= 5 * n + 1000);
            CHECK(msg != NULL && msg[0] != '\0');
        }
        gen_sys_free(&s);
    }
    if (getenv("LCP_VERBOSE")) printf("random stacks, the cap on: %d solved, %d failed\n", ok, failed);
    CHECK(ok > 0);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(large_cap_answers_are_exact);
    RUN(large_cap_bounds_a_failure);
    return CHECK_END("lcp_box_large");
}
