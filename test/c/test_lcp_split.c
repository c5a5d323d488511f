/* test_lcp_split.c: friction as Stewart and Trinkle's split LCP for Lemke's method
   (src/lcp/lcp_split.c, the driver's last resort). Checked on 2D pyramids whose contact
   points come in coincident pairs (lcp_gen.h: A singular, redundant rows), pushed so that
   some boxes must slip (the cone's edges then lift them, the associated law, and the box
   steps and Baraff's friction states find no answer): every answer taken is checked by the
   Coulomb conditions from A f + b (gen_coulomb_ok, independent of the solver), the ground
   carries the boxes' weights (the normal forces along y over the ground rows, by hand from
   the generator's layout), and a box pushed past mu g is at its friction bound. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include <impact/lcp.h>
#include "lcp_gen.h"
#include "lcp_internal.h"

/* the driver's split problem above 300 rows: on A itself with a longer path */
static int split_factor;

static imp_lcp_status split(const imp_lcp_problem *p, double eps, double *f)
{
    imp_lcp_workspace *ws = imp_lcp_workspace_create(p->n);
    imp_lcp_limits lim;
    imp_lcp_limits_default(&lim, p->n);
    lim.split_factor = split_factor;
    imp_lcp_info info;
    memset(&info, 0, sizeof info);
    const char *msg = "";
    imp_lcp_status st = ws != NULL ? imp_lcp_solve_split(p, &lim, eps, 1, NULL, NULL, NULL, ws, f, &info, &msg)
                                   : IMP_LCP_NO_MEMORY;
    imp_lcp_workspace_destroy(ws);
    return st;
}

/* the pyramid of the given base with every box pushed by push_g g, alternating in sign */
static void pyramid(int base, double push_g, int direct)
{
    gen_sys s;
    int nb = base * (base + 1) / 2;
    int cap = 2 * (2 * base + 10 * nb);
    int *fn = malloc(sizeof(int) * (size_t)cap);
    double *mu = malloc(sizeof(double) * (size_t)cap);
    double *push = malloc(sizeof(double) * (size_t)nb);
    for (int k = 0; k < nb; k++) push[k] = push_g * 9.81 * (k % 2 ? -1.0 : 1.0);
    int n = gen_pyramid2d_friction(&s, base, 0.6, push, fn, mu);
    imp_lcp_problem p = {n, s.A, s.b, NULL, fn, mu, NULL};
    double *f = gen_vec(n), *a = gen_vec(n);
    imp_lcp_info info;
    memset(&info, 0, sizeof info);
    imp_lcp_status st = direct ? split(&p, 1e-9, f) : imp_lcp_solve(&p, NULL, NULL, f, a, NULL, &info);
    int coulomb = gen_coulomb_ok(n, s.A, s.b, fn, mu, f, 1e-8);
    double ground = 0.0;
    for (int i = 0; i < n; i += 2) {
        if (s.body[2 * i + 1] < 0) ground += f[i]; /* a ground contact's normal is +y */
    }
    gen_sys_free(&s);
    free(f);
    free(a);
    free(fn);
    free(mu);
    free(push);
    if (st != IMP_LCP_OK) CHECK_FAIL_AT("base %d push %g: %s (%s)", base, push_g,
                                        imp_lcp_status_name(st), direct ? "split" : info.message);
    CHECK(st == IMP_LCP_OK);
    CHECK(coulomb);
    /* the boxes' vertical accelerations cannot all vanish when some slip, but no box leaves
       the ground or its supports: the ground carries the weight */
    CHECK_CLOSE(ground, 9.81 * nb, 1e-8, 0.0);
}

TEST(split_solves_a_resting_pyramid) { pyramid(4, 0.1, 1); }
TEST(split_solves_a_slipping_pyramid) { pyramid(4, 0.9, 1); }
TEST(auto_solves_slipping_pyramids) { pyramid(3, 0.9, 0); pyramid(4, 0.7, 0); }

/* 324 rows (the driver poses problems above 300 rows on A itself with a path of up to
   10 N + 1000 pivots): the same physics checks */
TEST(split_solves_a_large_slipping_pyramid)
{
    split_factor = 10;
    pyramid(6, 0.9, 1);
    split_factor = 0;
}

TEST(slipping_box_is_at_its_bound)
{
    gen_sys s;
    int fn[4];
    double mu[4], f[4];
    gen_box_on_ground(&s, 8.0, fn, mu); /* 8 > 0.5 g: it slips */
    imp_lcp_problem p = {.n = 4, .A = s.A, .b = s.b, .friction_normal = fn, .mu = mu};
    imp_lcp_status st = split(&p, 1e-9, f);
    int coulomb = gen_coulomb_ok(4, s.A, s.b, fn, mu, f, 1e-8);
    gen_sys_free(&s);
    CHECK(st == IMP_LCP_OK && coulomb);
    /* sliding at the bound against the push (the tangent is (-n_y, n_x) = -x), the weight
       carried */
    CHECK_NEAR(f[1] + f[3], 0.5 * (f[0] + f[2]), 1e-8);
    CHECK_NEAR(f[0] + f[2], 9.81, 1e-8);
}

/* sliding rows are substituted (f_t = -sliding mu f_n): the box sliding along +x (its
   friction row's direction is -x, so sliding = -1 there) gets the same normal forces */
TEST(sliding_rows_follow_their_normals)
{
    gen_sys s;
    int fn[4];
    double mu[4], f[4];
    signed char sliding[4] = {0, -1, 0, -1};
    gen_box_on_ground(&s, 8.0, fn, mu);
    imp_lcp_problem p = {.n = 4, .A = s.A, .b = s.b, .friction_normal = fn, .mu = mu,
                         .sliding = sliding};
    imp_lcp_status st = split(&p, 1e-9, f);
    gen_sys_free(&s);
    CHECK(st == IMP_LCP_OK);
    CHECK_NEAR(f[1], 0.5 * f[0], 1e-12);
    CHECK_NEAR(f[3], 0.5 * f[2], 1e-12);
    CHECK_NEAR(f[0] + f[2], 9.81, 1e-8);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(split_solves_a_resting_pyramid);
    RUN(split_solves_a_slipping_pyramid);
    RUN(auto_solves_slipping_pyramids);
    RUN(split_solves_a_large_slipping_pyramid);
    RUN(slipping_box_is_at_its_bound);
    RUN(sliding_rows_follow_their_normals);
    return CHECK_END("lcp_split");
}
