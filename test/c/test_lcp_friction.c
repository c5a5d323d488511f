/* test_lcp_friction.c: the general (friction) method's incremental inverse of the clamped
   system (src/lcp_friction.c) against its reference path, which rebuilds and LU-factors the
   system at every pivot (opts.general_refactor = 1): the same pivot sequence (status,
   pivot and set-change counts) and the same forces to rounding, on 2D box stacks with
   Coulomb friction, random sideways pushes and random mu (sticking, sliding and failing
   cases alike). The invariants of the friction rows are checked from A f + b here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lcp.h"
#include "lcp_gen.h"

#define G 9.81

typedef struct run { imp_lcp_status st; imp_lcp_info info; double *f, *a; } run;

static void solve_with(const imp_lcp_problem *p, int refactor, run *r)
{
    imp_lcp_options o;
    imp_lcp_default_options(&o);
    o.general_refactor = refactor;
    r->f = calloc((size_t)p->n, sizeof(double));
    r->a = calloc((size_t)p->n, sizeof(double));
    r->st = imp_lcp_solve(p, &o, NULL, r->f, r->a, NULL, &r->info);
}

/* Coulomb conditions of a solution, a recomputed: normals complementary; friction inside
   the bound with a = 0, or at a bound with a opposing it */
static int coulomb_ok(const imp_lcp_problem *p, const double *f, double tol)
{
    int n = p->n;
    double sf = 0, sa = 0, sA = 0;
    for (int i = 0; i < n; i++) {
        sf = fmax(sf, fabs(f[i]));
        sa = fmax(sa, fabs(p->b[i]));
        for (int j = 0; j < n; j++) sA = fmax(sA, fabs(p->A[(size_t)i * n + j]));
    }
    sa += sA * sf;
    double tf = tol * sf, ta = tol * sa;
    for (int i = 0; i < n; i++) {
        double a = p->b[i];
        for (int j = 0; j < n; j++) a += p->A[(size_t)i * n + j] * f[j];
        if (p->friction_normal[i] < 0) {
            if (f[i] < -tf || a < -ta || fabs(f[i] * a) > tf * sa) return 0;
        } else {
            double bound = p->mu[i] * f[p->friction_normal[i]];
            if (fabs(f[i]) > bound + tf) return 0;
            if (fabs(f[i]) < bound - tf && fabs(a) > ta) return 0;
            if (f[i] >= bound - tf && bound > tf && a > ta) return 0;
            if (f[i] <= -bound + tf && bound > tf && a < -ta) return 0;
        }
    }
    return 1;
}

TEST(incremental_matches_refactor)
{
    gen_rng g;
    gen_seed(&g, 2025);
    int same_ok = 0, same_fail = 0, diverged = 0, inc_only = 0, ref_only = 0;
    for (int trial = 0; trial < 120; trial++) {
        int N = 1 + trial % 12, n = 4 * N;
        double push[12], mu_value = 0.1 + gen_uniform(&g);
        for (int k = 0; k < N; k++) push[k] = (gen_uniform(&g) - 0.5) * 2 * G * (trial % 2 ? 1.0 : 0.3);
        int *fn = malloc(sizeof(int) * (size_t)n);
        double *mu = malloc(sizeof(double) * (size_t)n);
        gen_sys s;
        gen_stack2d_friction(&s, N, mu_value, push, fn, mu);
        imp_lcp_problem p = {n, s.A, s.b, NULL, fn, mu, NULL};
        run inc, ref;
        solve_with(&p, 0, &inc);
        solve_with(&p, 1, &ref);
        CHECK(inc.info.method == IMP_LCP_GENERAL);
        if (inc.st == IMP_LCP_OK) CHECK(coulomb_ok(&p, inc.f, 1e-9));
        if (ref.st == IMP_LCP_OK) CHECK(coulomb_ok(&p, ref.f, 1e-9));
        if (inc.st == IMP_LCP_OK && ref.st == IMP_LCP_OK) {
            /* A is singular (4 rows per box, 3 dofs: the split of the tangential force
               between an interface's two corners is statically indeterminate), so compare
               a and the net wrench J^T f on each box, never f */
            double sf = 0, dev_a = 0, dev_w = 0, w1[36], w2[36];
            for (int i = 0; i < n; i++) sf = fmax(sf, fabs(ref.f[i]));
            for (int i = 0; i < n; i++) dev_a = fmax(dev_a, fabs(inc.a[i] - ref.a[i]));
            gen_sys_wrench(&s, inc.f, w1);
            gen_sys_wrench(&s, ref.f, w2);
            for (int k = 0; k < 3 * N; k++) dev_w = fmax(dev_w, fabs(w1[k] - w2[k]));
            if (dev_a <= 1e-9 * (1 + sf) && dev_w <= 1e-9 * (1 + sf)) same_ok++;
            else diverged++;
        } else if (inc.st == ref.st) {
            same_fail++;
        } else {
            /* rounding differs between the two factorizations, and degenerate stick/slip
               vertices turn that into a different pivot path */
            if (inc.st == IMP_LCP_OK) inc_only++;
            if (ref.st == IMP_LCP_OK) ref_only++;
        }
        free(inc.f), free(inc.a), free(ref.f), free(ref.a), free(fn), free(mu);
        gen_sys_free(&s);
        if (check_current_failed) return;
    }
    if (getenv("LCP_VERBOSE"))
        printf("incremental vs refactor: both ok and the same a, J^T f: %d; both ok, different: %d; "
               "both failed: %d; only incremental ok: %d; only refactor ok: %d\n",
               same_ok, diverged, same_fail, inc_only, ref_only);
    CHECK(diverged == 0);                 /* both ok: always the same a and J^T f */
    CHECK(same_ok >= 100);                /* today 105 of 120; 15 fail alike on both paths */
    CHECK(inc_only + ref_only <= 3);      /* rounding-level path changes stay rare (0 today) */
}

/* A taller sticking stack (alternating pushes 0.2 g, mu = 0.5): the net horizontal force
   on the ground is the sum of the pushes and the vertical one the total weight (statics of
   the whole stack, worked out by hand), on both paths. */
TEST(tall_stack_statics)
{
    int N = 40, n = 4 * N;
    int *fn = malloc(sizeof(int) * (size_t)n);
    double *mu = malloc(sizeof(double) * (size_t)n);
    gen_sys s;
    gen_stack2d_friction(&s, N, 0.5, NULL, fn, mu);
    imp_lcp_problem p = {n, s.A, s.b, NULL, fn, mu, NULL};
    run inc, ref;
    solve_with(&p, 0, &inc);
    solve_with(&p, 1, &ref);
    CHECK(inc.st == IMP_LCP_OK && ref.st == IMP_LCP_OK);
    CHECK(inc.info.pivots == ref.info.pivots);
    CHECK(coulomb_ok(&p, inc.f, 1e-9));
    double push = 0;
    for (int k = 0; k < N; k++) push += 0.2 * G * (k % 2 ? -1.0 : 1.0);
    /* ground rows 0..3: normals 0, 2 and tangents 1, 3; the ground pushes back */
    CHECK_NEAR(inc.f[0] + inc.f[2], N * G, 1e-9 * N * G);
    CHECK_NEAR(inc.f[1] + inc.f[3], -push, 1e-9 * N * G);
    for (int i = 0; i < n; i++) CHECK_NEAR(inc.f[i], ref.f[i], 1e-9 * N * G);
    free(inc.f), free(inc.a), free(ref.f), free(ref.a), free(fn), free(mu);
    gen_sys_free(&s);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(incremental_matches_refactor);
    RUN(tall_stack_statics);
    return CHECK_END("lcp_friction");
}
