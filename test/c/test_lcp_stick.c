/* test_lcp_stick.c: static 2D friction through the friction cone's edges (src/lcp/lcp_stick.c,
   the driver's last resort after the box steps and the general method). Its answer solves
   the Coulomb problem when every contact sticks or separates: checked on 2D pyramids whose
   contact points come in coincident pairs (lcp_gen.h, A singular, three rows per degree of
   freedom) by the Coulomb conditions (gen_coulomb_ok, independent of the solver) and by
   statics (every box at rest: M^-1 (F_ext + J^T f) = 0, so the contact forces carry the
   weights and the pushes). A box pushed harder than mu g slips: there the cone-edge answer
   lifts the contact (the associated law) and is not a Coulomb solution, which the check
   must see; the driver then keeps the other methods' answer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include <impact/lcp.h>
#include "lcp_gen.h"
#include "lcp_internal.h"

static imp_lcp_status stick(const imp_lcp_problem *p, double *f)
{
    imp_lcp_workspace *ws = imp_lcp_workspace_create(p->n);
    imp_lcp_limits lim;
    imp_lcp_limits_default(&lim, p->n);
    imp_lcp_info info;
    memset(&info, 0, sizeof info);
    const char *msg = "";
    imp_lcp_status st = ws != NULL ? imp_lcp_solve_stick(p, &lim, ws, f, &info, &msg) : IMP_LCP_NO_MEMORY;
    imp_lcp_workspace_destroy(ws);
    return st;
}

static void pyramid(int base)
{
    gen_sys s;
    int cap = 2 * (2 * base + 10 * base * (base + 1) / 2);
    int *fn = malloc(sizeof(int) * (size_t)cap);
    double *mu = malloc(sizeof(double) * (size_t)cap);
    int n = gen_pyramid2d_friction(&s, base, 0.6, NULL, fn, mu);
    double *f = gen_vec(n);
    imp_lcp_problem p;
    memset(&p, 0, sizeof p);
    p.n = n;
    p.A = s.A;
    p.b = s.b;
    p.friction_normal = fn;
    p.mu = mu;
    imp_lcp_status st = stick(&p, f);
    int coulomb = gen_coulomb_ok(n, s.A, s.b, fn, mu, f, 1e-8);
    double acc = gen_max_body_acc(&s, f);
    double weight = 0.0; /* the vertical forces the contacts carry: the boxes' weights */
    double *w = malloc(sizeof(double) * 3 * (size_t)s.nb);
    gen_sys_wrench(&s, f, w);
    for (int k = 0; k < s.nb; k++) weight += w[3 * k + 1];
    free(w);
    int nb = s.nb;
    gen_sys_free(&s);
    free(f);
    free(fn);
    free(mu);
    CHECK(st == IMP_LCP_OK);
    CHECK(coulomb);
    CHECK(acc <= 1e-8 * 9.81);
    CHECK_CLOSE(weight, 9.81 * nb, 1e-10, 0.0);
}

TEST(pyramid_sticks_exactly) { pyramid(4); }
TEST(pyramid_55_boxes_sticks_exactly) { pyramid(10); }


static imp_lcp_problem box_problem(const gen_sys *s, const int *fn, const double *mu)
{
    imp_lcp_problem p = {.n = 4, .A = s->A, .b = s->b, .friction_normal = fn, .mu = mu};
    return p;
}

TEST(slipping_box_is_not_taken)
{
    gen_sys s;
    int fn[4];
    double mu[4], f[4], a[4];
    gen_box_on_ground(&s, 2.0, fn, mu); /* 2 < 0.5 g: it sticks, pushed by 2 N */
    imp_lcp_problem p = box_problem(&s, fn, mu);
    CHECK(stick(&p, f) == IMP_LCP_OK);
    CHECK(gen_coulomb_ok(4, s.A, s.b, fn, mu, f, 1e-9));
    /* friction holds the push (the tangent is (-n_y, n_x) = -x) */
    CHECK_NEAR(f[1] + f[3], 2.0, 1e-9);
    gen_sys_free(&s);
    gen_box_on_ground(&s, 8.0, fn, mu); /* 8 > 0.5 g: it slips */
    p.A = s.A;
    p.b = s.b;
    CHECK(stick(&p, f) == IMP_LCP_OK);
    int coulomb = gen_coulomb_ok(4, s.A, s.b, fn, mu, f, 1e-9);
    imp_lcp_info info;
    imp_lcp_status st = imp_lcp_solve(&p, NULL, NULL, f, a, NULL, &info);
    int auto_ok = gen_coulomb_ok(4, s.A, s.b, fn, mu, f, 1e-8);
    gen_sys_free(&s);
    CHECK(!coulomb); /* the associated law lifts the slipping box: not Coulomb's answer */
    CHECK(st == IMP_LCP_OK && auto_ok);
    /* Coulomb: sliding at the bound, against the push */
    CHECK_NEAR(f[1] + f[3], 0.5 * (f[0] + f[2]), 1e-9);
    CHECK_NEAR(f[0] + f[2], 9.81, 1e-9);
}

TEST(sliding_rows_are_outside_its_class)
{
    gen_sys s;
    int fn[4];
    double mu[4], f[4];
    signed char sliding[4] = {0, 1, 0, 1};
    gen_box_on_ground(&s, 8.0, fn, mu);
    imp_lcp_problem p = box_problem(&s, fn, mu);
    p.sliding = sliding;
    imp_lcp_status st = stick(&p, f);
    gen_sys_free(&s);
    CHECK(st == IMP_LCP_OUTSIDE_CLASS);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(pyramid_sticks_exactly);
    RUN(pyramid_55_boxes_sticks_exactly);
    RUN(slipping_box_is_not_taken);
    RUN(sliding_rows_are_outside_its_class);
    return CHECK_END("lcp_stick");
}
