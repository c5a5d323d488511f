/* test_lcp_reg.c: frictional problems with redundant rows through the box steps on the
   regularized A + 1e-10 diag(A) (src/lcp/lcp.c, box_regularized), warm-started from an
   earlier solve's row states and forces (imp_lcp_options.warm_start, warm_forces): the 2D
   pyramid of lcp_gen.h whose contact points come in coincident pairs (A singular, the
   normal forces not unique). Every answer is checked from A f + b by the Coulomb conditions
   (gen_coulomb_ok, independent of the solver) and by statics: with the pushes below mu g
   every box can stay at rest, so a sticking answer carries the boxes' weights and pushes
   (the ground's vertical forces add up to the weight, its horizontal ones to minus the
   pushes) with no body acceleration M^-1 (F_ext + J^T f). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include <impact/lcp.h>
#include "engine2d.h"
#include "lcp_gen.h"
#include "lcp_pyr.h"

/* the 2D engine's options (tolerance 1e-8, pivot tolerance 1e-6) and the warm start */
static imp_lcp_status pyr_solve(pyr *y, const signed char *warm, const double *warm_f,
                                imp_lcp_info *info)
{
    imp_lcp_options o;
    imp_engine2d_lcp_options(&o);
    o.warm_start = warm;
    o.warm_forces = warm_f;
    return imp_lcp_solve(&y->p, &o, NULL, y->f, y->a, y->st, info);
}

/* Coulomb's conditions and statics of y's answer (see the header) */
static void pyr_check(const pyr *y, const char *what)
{
    if (!gen_coulomb_ok(y->n, y->s.A, y->s.b, y->fn, y->mu, y->f, 1e-8))
        CHECK_FAIL_AT("%s: Coulomb conditions", what);
    double dy, dx, acc;
    pyr_statics(y, y->f, &dy, &dx, &acc);
    CHECK_NEAR(dy, 0.0, 1e-8 * 9.81 * y->nb);
    CHECK_NEAR(dx, 0.0, 1e-8 * 9.81 * y->nb);
    CHECK(acc <= 1e-8 * 9.81);
}

/* a 28-box pyramid: 448 rows, more than 300, so the regularized steps go first (the
   55-box one, 940 rows, is bench_lcp's pyr-box) */
#define BASE 7
TEST(redundant_pyramid_solved_regularized)
{
    pyr y;
    pyr_make(&y, BASE, 1.0, NULL);
    imp_lcp_info info;
    imp_lcp_status st = pyr_solve(&y, NULL, NULL, &info);
    if (st != IMP_LCP_OK) CHECK_FAIL_AT("%s (%s)", imp_lcp_status_name(st), info.message);
    CHECK(info.method == IMP_LCP_BOX);
    CHECK(info.warm_started == 0);
    pyr_check(&y, "cold");
    pyr_free(&y);
}

/* The pushes changed by 2 %: started from the first answer's states and forces the solve
   takes fewer pivots than from nothing, and its answer is as exact */
TEST(warm_start_from_an_earlier_answer)
{
    pyr y, z;
    pyr_make(&y, BASE, 1.0, NULL);
    pyr_make(&z, BASE, 1.02, NULL);
    imp_lcp_info i0, cold, warm;
    CHECK(pyr_solve(&y, NULL, NULL, &i0) == IMP_LCP_OK);
    CHECK(pyr_solve(&z, NULL, NULL, &cold) == IMP_LCP_OK);
    memset(z.f, 0, sizeof(double) * (size_t)z.n);
    imp_lcp_status st = pyr_solve(&z, y.st, y.f, &warm);
    if (st != IMP_LCP_OK) CHECK_FAIL_AT("warm: %s (%s)", imp_lcp_status_name(st), warm.message);
    CHECK(warm.warm_started == 1);
    if (!(warm.pivots < cold.pivots))
        CHECK_FAIL_AT("warm start: %d pivots, cold %d", warm.pivots, cold.pivots);
    pyr_check(&z, "warm");
    if (getenv("LCP_VERBOSE"))
        printf("pyramid of base %d: cold %d pivots, warm %d\n", BASE, cold.pivots, warm.pivots);
    pyr_free(&y);
    pyr_free(&z);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(redundant_pyramid_solved_regularized);
    RUN(warm_start_from_an_earlier_answer);
    return CHECK_END("lcp_reg");
}
