/* test_lcp_prox.c: the proximal point loop (src/lcp/lcp_prox.c) on frictional problems with
   redundant rows: lcp_gen.h's 2D pyramids (box-on-box contact points in coincident pairs, A
   singular, the normal forces not unique) with pushes below mu g. Every answer the loop
   calls solved is checked from A f + b by Coulomb's conditions and by statics (lcp_pyr.h's
   pyr_ok: the boxes can stay at rest, so the ground carries the weight, balances the
   pushes, and no body accelerates), never against the program's own output. */
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

static imp_lcp_status prox(const imp_lcp_problem *p, const signed char *warm,
                           const double *warm_f, double *f, signed char *st, imp_lcp_info *info)
{
    imp_lcp_limits lim;
    imp_lcp_limits_default(&lim, p->n);
    lim.tol = 1e-8;
    lim.ptol = 1e-6;
    imp_lcp_workspace *ws = imp_lcp_workspace_create(p->n);
    memset(info, 0, sizeof *info);
    const char *msg = "";
    imp_lcp_status s = imp_lcp_solve_prox(p, &lim, warm, warm_f, ws, f, info, &msg);
    if (st != NULL) memcpy(st, ws->st, (size_t)p->n);
    int basis = 0;
    for (int i = 0; i < p->n; i++) basis += ws->bas[i] != 0;
    imp_lcp_workspace_destroy(ws);
    if (basis > 0) return IMP_LCP_NUMERICAL; /* (the proximal problem's basis handed on) */
    return s;
}

/* From nothing, pyramids of 3 to 6 boxes' base (72 to 324 rows) pushed by up to 0.3 g:
   every one solved, each answer a static equilibrium meeting Coulomb's conditions */
TEST(cold_pyramids_are_answered)
{
    gen_rng r;
    gen_seed(&r, 7);
    for (int base = 3; base <= 6; base++) {
        int nb = base * (base + 1) / 2;
        double *g = malloc(sizeof(double) * (size_t)nb);
        for (int k = 0; k < nb; k++) g[k] = 0.3 * (2.0 * gen_uniform(&r) - 1.0);
        pyr y;
        pyr_make(&y, base, 1.0, g);
        imp_lcp_info info;
        imp_lcp_status st = prox(&y.p, NULL, NULL, y.f, y.st, &info);
        if (st != IMP_LCP_OK) CHECK_FAIL_AT("base %d: %s", base, imp_lcp_status_name(st));
        else if (!pyr_ok(&y, y.f)) CHECK_FAIL_AT("base %d: solved but not an answer", base);
        if (getenv("LCP_VERBOSE")) printf("base %d (%d rows): %d pivots\n", base, y.n, info.pivots);
        pyr_free(&y);
        free(g);
        if (check_current_failed) return;
    }
}

/* The 28-box pyramid (448 rows) solved, then its next problem (pushes changed by 2 %) from
   that answer's states and forces: solved again, in fewer pivots than cold */
TEST(warm_from_the_last_answer)
{
    int nb = 28;
    double g0[28], g1[28];
    for (int k = 0; k < nb; k++) {
        g0[k] = 0.2 * (k % 3 ? -1.0 : 1.0);
        g1[k] = 1.02 * g0[k];
    }
    pyr y, z, c;
    pyr_make(&y, 7, 1.0, g0);
    pyr_make(&z, 7, 1.0, g1);
    pyr_make(&c, 7, 1.0, g1);
    imp_lcp_info info, cold;
    CHECK(prox(&y.p, NULL, NULL, y.f, y.st, &info) == IMP_LCP_OK);
    CHECK(pyr_ok(&y, y.f));
    CHECK(prox(&z.p, y.st, y.f, z.f, z.st, &info) == IMP_LCP_OK);
    CHECK(pyr_ok(&z, z.f));
    CHECK(prox(&c.p, NULL, NULL, c.f, c.st, &cold) == IMP_LCP_OK);
    CHECK(pyr_ok(&c, c.f));
    if (getenv("LCP_VERBOSE")) printf("warm %d pivots, cold %d\n", info.pivots, cold.pivots);
    CHECK(info.pivots < cold.pivots);
    pyr_free(&y);
    pyr_free(&z);
    pyr_free(&c);
}

/* A unit box pushed by 8 N > mu m g (static friction rows, the LCP decides): the loop's
   answer slides, friction at its bound mu m g = 0.5 * 9.81, the ground carrying the weight */
TEST(box_pushed_past_friction)
{
    gen_sys s;
    int fn[4];
    double mu[4], f[4] = {0.0, 0.0, 0.0, 0.0};
    gen_box_on_ground(&s, 8.0, fn, mu);
    imp_lcp_problem p = {4, s.A, s.b, NULL, fn, mu, NULL};
    imp_lcp_info info;
    CHECK(prox(&p, NULL, NULL, f, NULL, &info) == IMP_LCP_OK);
    CHECK_NEAR(f[0] + f[2], 9.81, 1e-7);
    CHECK_NEAR(f[1] + f[3], 0.5 * 9.81, 1e-7);
    CHECK(gen_coulomb_ok(4, s.A, s.b, fn, mu, f, 1e-8));
    gen_sys_free(&s);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(cold_pyramids_are_answered);
    RUN(warm_from_the_last_answer);
    RUN(box_pushed_past_friction);
    return CHECK_END("lcp_prox");
}
