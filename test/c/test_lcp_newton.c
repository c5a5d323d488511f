/* test_lcp_newton.c: the semismooth Newton finish (src/lcp/lcp_newton.c) on frictional
   problems with redundant rows: lcp_gen.h's 2D pyramids, whose box-on-box contact points
   come in coincident pairs (A singular, the normal forces not unique), with random pushes;
   a box pushed past mu g (friction at its bound); sliding rows; a bilateral row. Every
   answer the method calls solved is checked from A f + b by the Coulomb conditions
   (gen_coulomb_ok, independent of the solver) and, for the pyramids, by statics: with the
   pushes below mu g the boxes can stay at rest, so the ground's vertical forces carry the
   weight, its horizontal ones balance the pushes, and no body accelerates. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include <impact/lcp.h>
#include "engine2d.h"
#include "lcp_gen.h"
#include "lcp_pyr.h"
#include "lcp_internal.h"

static imp_lcp_status newton(const imp_lcp_problem *p, int sweeps, int steps, double *f,
                             imp_lcp_info *info)
{
    imp_lcp_limits lim;
    imp_lcp_limits_default(&lim, p->n);
    lim.tol = 1e-8;
    imp_lcp_workspace *ws = imp_lcp_workspace_create(p->n);
    memset(info, 0, sizeof *info);
    const char *msg = "";
    imp_lcp_status st = imp_lcp_solve_newton(p, &lim, sweeps, steps, ws, f, info, &msg);
    imp_lcp_workspace_destroy(ws);
    return st;
}

/* A pyramid's next problem (the pushes changed by up to 5 %, random) from the last one's
   answer, on 20 random pyramids of 3 to 7 boxes' base (24 to 448 rows): Newton's steps
   finish most of them (19 of 20 within 30 steps; at 10 steps 11 of 20: the redundant rows'
   pieces change with the loads, and each change costs steps) */
TEST(warm_from_the_last_answer_on_random_pyramids)
{
    gen_rng r;
    gen_seed(&r, 18);
    int solved = 0, most = 0;
    for (int t = 0; t < 20; t++) {
        int base = 3 + t % 5, nb = base * (base + 1) / 2;
        double *g0 = malloc(sizeof(double) * (size_t)nb), *g1 = malloc(sizeof(double) * (size_t)nb);
        for (int k = 0; k < nb; k++) {
            g0[k] = 0.4 * (2.0 * gen_uniform(&r) - 1.0);
            g1[k] = g0[k] * (1.0 + 0.05 * (2.0 * gen_uniform(&r) - 1.0));
        }
        pyr y, z;
        pyr_make(&y, base, 1.0, g0);
        pyr_make(&z, base, 1.0, g1);
        imp_lcp_options o;
        imp_engine2d_lcp_options(&o);
        imp_lcp_info info;
        CHECK(imp_lcp_solve(&y.p, &o, NULL, y.f, y.a, y.st, &info) == IMP_LCP_OK);
        CHECK(pyr_ok(&y, y.f));
        memcpy(z.f, y.f, sizeof(double) * (size_t)z.n);
        imp_lcp_status st = newton(&z.p, 0, 30, z.f, &info);
        if (st == IMP_LCP_OK) {
            if (!pyr_ok(&z, z.f)) CHECK_FAIL_AT("pyramid %d: solved but not an answer", t);
            solved++;
            most = info.pivots > most ? info.pivots : most;
        }
        pyr_free(&y);
        pyr_free(&z);
        free(g0);
        free(g1);
        if (check_current_failed) return;
    }
    if (getenv("LCP_VERBOSE")) printf("warm: %d of 20 solved, at most %d steps\n", solved, most);
    CHECK(solved >= 18);
    CHECK(most <= 32);
}

/* From nothing, after 200 projected Gauss-Seidel sweeps: small pyramids (base 2 to 5, 8 to
   120 rows) are finished (12 of 12); any answer called solved passes the checks, and one
   that is not is reported as such with finite forces */
TEST(from_gauss_seidel_sweeps)
{
    gen_rng r;
    gen_seed(&r, 2);
    int solved = 0;
    for (int t = 0; t < 12; t++) {
        int base = 2 + t % 4, nb = base * (base + 1) / 2;
        double *g = malloc(sizeof(double) * (size_t)nb);
        for (int k = 0; k < nb; k++) g[k] = 0.4 * (2.0 * gen_uniform(&r) - 1.0);
        pyr y;
        pyr_make(&y, base, 1.0, g);
        imp_lcp_info info;
        imp_lcp_status st = newton(&y.p, 200, 30, y.f, &info);
        for (int i = 0; i < y.n; i++) CHECK(isfinite(y.f[i]));
        if (st == IMP_LCP_OK) {
            if (!pyr_ok(&y, y.f)) CHECK_FAIL_AT("pyramid %d: solved but not an answer", t);
            solved++;
        } else {
            CHECK(st == IMP_LCP_NUMERICAL);
        }
        pyr_free(&y);
        free(g);
        if (check_current_failed) return;
    }
    if (getenv("LCP_VERBOSE")) printf("from PGS: %d of 12 solved\n", solved);
    CHECK(solved >= 10);
}

/* A unit box pushed by P = 8 N > mu m g = 4.905 N: it slides, the friction at its bound
   opposing the push, the ground carrying the weight; as static rows (the LCP decides) and
   as sliding rows (the friction follows the normals). a_x = (P - mu g) / m. */
TEST(box_pushed_past_friction_slides)
{
    for (int sliding = 0; sliding < 2; sliding++) {
        gen_sys s;
        int fn[4];
        double mu[4], f[4] = {0.0, 0.0, 0.0, 0.0};
        signed char sl[4] = {0, -1, 0, -1};
        gen_box_on_ground(&s, 8.0, fn, mu);
        imp_lcp_problem p = {4, s.A, s.b, NULL, fn, mu, sliding ? sl : NULL};
        imp_lcp_info info;
        imp_lcp_status st = newton(&p, 0, 20, f, &info);
        CHECK(st == IMP_LCP_OK);
        CHECK_NEAR(f[0] + f[2], 9.81, 1e-9);
        /* the tangent (-1, 0): a positive tangential force pushes the box to -x */
        CHECK_NEAR(f[1] + f[3], 0.5 * 9.81, 1e-9);
        double acc[3];
        double wr[3];
        gen_sys_wrench(&s, f, wr);
        for (int k = 0; k < 3; k++) acc[k] = s.minv[k] * (s.fext[k] + wr[k]);
        CHECK_NEAR(acc[0], 8.0 - 0.5 * 9.81, 1e-9);
        CHECK_NEAR(acc[1], 0.0, 1e-9);
        CHECK_NEAR(acc[2], 0.0, 1e-9);
        if (!sliding) CHECK(gen_coulomb_ok(4, s.A, s.b, fn, mu, f, 1e-8));
        gen_sys_free(&s);
    }
}

/* Through the driver: a 28-box pyramid (448 rows: beyond 300, where the Newton finish is
   tried first from the caller's forces) solved again with its pushes changed by 1 %: the
   Newton finish answers in a few steps, warm-started, and its answer passes the checks */
TEST(driver_takes_the_warm_newton_answer)
{
    int nb = 28;
    double g0[28], g1[28];
    for (int k = 0; k < nb; k++) {
        g0[k] = 0.1 * (k % 2 ? -1.0 : 1.0);
        g1[k] = 1.01 * g0[k];
    }
    pyr y, z;
    pyr_make(&y, 7, 1.0, g0);
    pyr_make(&z, 7, 1.0, g1);
    imp_lcp_options o;
    imp_engine2d_lcp_options(&o);
    imp_lcp_info info;
    CHECK(imp_lcp_solve(&y.p, &o, NULL, y.f, y.a, y.st, &info) == IMP_LCP_OK);
    o.warm_start = y.st;
    o.warm_forces = y.f;
    imp_lcp_status st = imp_lcp_solve(&z.p, &o, NULL, z.f, z.a, z.st, &info);
    if (st != IMP_LCP_OK) CHECK_FAIL_AT("%s (%s)", imp_lcp_status_name(st), info.message);
    CHECK(strstr(info.message, "Newton") != NULL);
    CHECK(info.warm_started == 1);
    CHECK(info.pivots <= 8);
    CHECK(pyr_ok(&z, z.f));
    pyr_free(&y);
    pyr_free(&z);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(warm_from_the_last_answer_on_random_pyramids);
    RUN(from_gauss_seidel_sweeps);
    RUN(box_pushed_past_friction_slides);
    RUN(driver_takes_the_warm_newton_answer);
    return CHECK_END("lcp_newton");
}
