/* test_lcp_lemke.c: Lemke's method (src/lcp/lcp_lemke.c), reached as method IMP_LCP_LEMKE and as
   the automatic fallback for matrices that are not symmetric PSD. References: planted
   solutions (unique for P-matrices), an independent enumeration of complementary bases for
   small problems, Farkas certificates worked out by hand, and agreement of a (unique for
   PSD A) with Baraff's method. The invariants are recomputed here from A f + b. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include <impact/lcp.h>
#include "lcp_gen.h"


/* 1 when f >= 0, a = A f + b >= 0 and f.a = 0 at tau relative to scale */
static int valid(int n, const double *A, const double *b, const double *f, double tau)
{
    return gen_check(n, A, b, NULL, NULL, f, tau).ok;
}

static imp_lcp_status lemke(int n, const double *A, const double *b, double *f, double *a,
                            imp_lcp_info *info, int max_pivots)
{
    imp_lcp_problem p = {n, A, b, NULL, NULL, NULL, NULL};
    imp_lcp_options o;
    imp_lcp_default_options(&o);
    o.method = IMP_LCP_LEMKE;
    o.max_pivots = max_pivots;
    return imp_lcp_solve(&p, &o, NULL, f, a, NULL, info);
}

/* Nonsymmetric positive definite M = S + K (S = J J^T / m + 0.1 I, K skew): a P-matrix, so
   the planted solution is the only one. 20-50% of the rows are degenerate (f = a = 0),
   which makes ties in the ratio test: the lexicographic rule must not cycle. */
static void planted_pd(int n, gen_rng *g, double *A, double *b, double *fs, double frac_degenerate)
{
    int m = n + 2;
    double *J = gen_vec(n * m);
    for (int k = 0; k < n * m; k++) J[k] = gen_normal(g);
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            double s = 0;
            for (int k = 0; k < m; k++) s += J[i * m + k] * J[j * m + k];
            s /= m;
            double kk = i == j ? 0.0 : gen_normal(g);
            A[i * n + j] = s + kk + (i == j ? 0.1 : 0.0);
            A[j * n + i] = s - kk + (i == j ? 0.1 : 0.0);
        }
    for (int i = 0; i < n; i++) {
        double u = gen_uniform(g), as;
        if (u < frac_degenerate) {
            fs[i] = 0.0;
            as = 0.0;
        } else if (u < frac_degenerate + (1 - frac_degenerate) / 2) {
            fs[i] = 0.1 + gen_uniform(g);
            as = 0.0;
        } else {
            fs[i] = 0.0;
            as = 0.1 + gen_uniform(g);
        }
        b[i] = as;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) b[i] -= A[i * n + j] * fs[j];
    free(J);
}

TEST(random_nonsymmetric_pd_planted)
{
    gen_rng g;
    gen_seed(&g, 77);
    for (int trial = 0; trial < 150; trial++) {
        int n = 2 + trial % 60;
        double frac = trial % 3 == 0 ? 0.5 : 0.2;
        double *A = gen_vec(n * n), *b = gen_vec(n), *fs = gen_vec(n), *f = gen_vec(n), *a = gen_vec(n);
        planted_pd(n, &g, A, b, fs, frac);
        imp_lcp_info info;
        CHECK(lemke(n, A, b, f, a, &info, 0) == IMP_LCP_OK);
        CHECK(info.method == IMP_LCP_LEMKE);
        CHECK(valid(n, A, b, f, 1e-9));
        for (int i = 0; i < n; i++) CHECK_NEAR(f[i], fs[i], 1e-9 * (1 + fabs(fs[i])) * n);
        /* auto picks Lemke for a nonsymmetric matrix without bilateral rows */
        imp_lcp_problem p = {n, A, b, NULL, NULL, NULL, NULL};
        CHECK(imp_lcp_solve(&p, NULL, NULL, f, a, NULL, &info) == IMP_LCP_OK);
        CHECK(info.method == IMP_LCP_LEMKE);
        free(A), free(b), free(fs), free(f), free(a);
        if (check_current_failed) return;
    }
}

/* Lemke on a symmetric PSD rank-deficient problem: a is unique, so it must match the planted
   a and Baraff's method's a. */
TEST(agrees_with_baraff_on_psd)
{
    int n = 60;
    double *A = gen_vec(n * n), *b = gen_vec(n), *as = gen_vec(n), *f = gen_vec(n), *a = gen_vec(n), *a2 = gen_vec(n);
    gen_randpsd(n, 30, 5, A, b, NULL, as, NULL);
    imp_lcp_info info;
    CHECK(lemke(n, A, b, f, a, &info, 0) == IMP_LCP_OK);
    CHECK(valid(n, A, b, f, 1e-9));
    imp_lcp_problem p = {n, A, b, NULL, NULL, NULL, NULL};
    CHECK(imp_lcp_solve(&p, NULL, NULL, f, a2, NULL, &info) == IMP_LCP_OK);
    CHECK(info.method == IMP_LCP_SYMMETRIC);
    for (int i = 0; i < n; i++) {
        CHECK_NEAR(a[i], as[i], 1e-9);
        CHECK_NEAR(a[i], a2[i], 1e-9);
    }
    free(A), free(b), free(as), free(f), free(a), free(a2);
}

/* Closed forms: a 1x1 problem (f = -b/A); b >= 0 needs no pivot (f = 0); an upper
   triangular P-matrix solved by back substitution. */
TEST(closed_forms)
{
    double f[8], a[8];
    imp_lcp_info info;
    double A1[1] = {2}, b1[1] = {-3};
    CHECK(lemke(1, A1, b1, f, a, &info, 0) == IMP_LCP_OK);
    CHECK_NEAR(f[0], 1.5, 1e-15);
    double b0[2] = {1, 0}, A0[4] = {0, -1, 5, 0};
    CHECK(lemke(2, A0, b0, f, a, &info, 0) == IMP_LCP_OK);
    CHECK(f[0] == 0.0 && f[1] == 0.0 && info.pivots == 0);
    /* upper triangular with unit diagonal (a P-matrix): back substitution of the LCP,
       f_i = max(0, -(b_i + sum_{j>i} M_ij f_j)), is the unique solution */
    int n = 7;
    double M[49], q[7], fs[7];
    for (int i = 0; i < n; i++) {
        q[i] = (i % 2 ? 1.0 : -1.0) * (1 + i);
        for (int j = 0; j < n; j++) M[i * n + j] = j == i ? 1.0 : j > i ? 2.0 : 0.0;
    }
    for (int i = n - 1; i >= 0; i--) {
        double s = q[i];
        for (int j = i + 1; j < n; j++) s += M[i * n + j] * fs[j];
        fs[i] = s < 0 ? -s : 0.0;
    }
    CHECK(lemke(n, M, q, f, a, &info, 0) == IMP_LCP_OK);
    for (int i = 0; i < n; i++) CHECK_NEAR(f[i], fs[i], 1e-12);
}

/* A near tie between z0 and a row with a large entry (worked out by hand): after z0 enters
   on row 0 (x = (2.005e-11, 1 + 2.005e-11)), z_0 enters with the column (2e-11, 1 - 2e-11):
   row 1's ratio is about 1 and z0's row's 1.0025, within 1e-13 max|x| / c_0 of it but not
   within 1e-13 max|x| / max|c|. Taking z0's row there (z0 wins ties) would end the path on
   f = (1.0025, 0) with a_1 = -0.0025; the answer is f = (1 + 5e-14, 5e-14): a_1 = 0 gives
   f_1 = f_0 - 1 and a_0 = 0 gives f_0 (1 + 2e-11) = 1 + 2.005e-11. */
TEST(near_tie_with_z0_is_not_a_tie)
{
    double f[2], a[2];
    imp_lcp_info info;
    double A[4] = {2e-11, 1, -1, 1}, b[2] = {-2.005e-11, 1};
    CHECK(lemke(2, A, b, f, a, &info, 0) == IMP_LCP_OK);
    CHECK(valid(2, A, b, f, 1e-12));
    CHECK_NEAR(f[0], 1.0, 1e-12);
    CHECK_NEAR(f[1], 0.0, 1e-12);
}

/* Infeasible problems: A = [[1,-1],[-1,1]] (PSD), b = (-1,-1): y = (1,1) has A^T y = 0 and
   b.y = -2 < 0 (Farkas), so no f >= 0 has A f + b >= 0; Lemke's ray proves it. And a row
   with b_0 < 0 and no positive entry (a_0 = -f_1 - 1 can never be >= 0). */
TEST(infeasible_reported)
{
    double f[3], a[3];
    imp_lcp_info info;
    double A[4] = {1, -1, -1, 1}, b[2] = {-1, -1};
    CHECK(lemke(2, A, b, f, a, &info, 0) == IMP_LCP_INFEASIBLE);
    CHECK(strstr(info.message, "Farkas") != NULL);
    double B[9] = {0, -1, 0, 1, 2, 0, 0, 0, 1}, c[3] = {-1, -1, 2};
    CHECK(lemke(3, B, c, f, a, &info, 0) == IMP_LCP_INFEASIBLE);
    for (int i = 0; i < 3; i++) CHECK(isfinite(f[i]) && isfinite(a[i]));
}

/* The pivot cap stops the path (an upper triangular P-matrix whose path takes more than 3
   pivots), and method "lemke" rejects bilateral and friction rows. */
TEST(pivot_cap_and_bad_input)
{
    int n = 6;
    double M[36], q[6], f[6], a[6];
    for (int i = 0; i < n; i++) {
        q[i] = -ldexp(1.0, n - i);
        for (int j = 0; j < n; j++) M[i * n + j] = j == i ? 1.0 : j > i ? 2.0 : 0.0;
    }
    imp_lcp_info info;
    CHECK(lemke(n, M, q, f, a, &info, 0) == IMP_LCP_OK);
    CHECK(info.pivots > 3);
    CHECK(lemke(n, M, q, f, a, &info, 3) == IMP_LCP_PIVOT_LIMIT);
    CHECK(info.pivots == 3);
    CHECK(strstr(info.message, "pivot limit") != NULL);
    CHECK(lemke(n, M, q, f, a, &info, 0) == IMP_LCP_OK);
    CHECK(valid(n, M, q, f, 1e-12));
    /* bilateral or friction rows are not Lemke's: a clear error */
    double A[4] = {2, 1, 1, 2}, b[2] = {-1, -1}, mu[2] = {0, 0.5};
    unsigned char bil[2] = {1, 0};
    int fn[2] = {-1, 0};
    imp_lcp_options o;
    imp_lcp_default_options(&o);
    o.method = IMP_LCP_LEMKE;
    imp_lcp_problem pb = {2, A, b, bil, NULL, NULL, NULL}, pf = {2, A, b, NULL, fn, mu, NULL};
    CHECK(imp_lcp_solve(&pb, &o, NULL, f, a, NULL, &info) == IMP_LCP_BAD_INPUT);
    CHECK(strstr(info.message, "Lemke") != NULL);
    CHECK(imp_lcp_solve(&pf, &o, NULL, f, a, NULL, &info) == IMP_LCP_BAD_INPUT);
}

/* Independent enumeration of complementary bases (Gaussian elimination, partial pivoting):
   returns 1 with a valid solution in fs, 0 when none; *singular counts singular blocks. */
static int enumerate(int n, const double *A, const double *b, double *fs, int *singular)
{
    *singular = 0;
    for (int mask = 0; mask < (1 << n); mask++) {
        if (gen_support_solve(n, A, b, mask, 1e-9, fs) != 0) {
            (*singular)++;
            continue;
        }
        if (valid(n, A, b, fs, 1e-10)) return 1;
    }
    return 0;
}

/* Random nonsymmetric matrices with no structure (entries N(0,1), so neither PSD nor P):
   whenever the enumeration finds a solution and every basis is well conditioned, the
   solver (Lemke, then the enumeration fallback for n <= 10) must return a valid one; when
   there is none it must report a failure, never a wrong ok. */
TEST(random_general_vs_enumeration)
{
    gen_rng g;
    gen_seed(&g, 4242);
    int solved = 0, none = 0, lemke_alone = 0;
    for (int trial = 0; trial < 400; trial++) {
        int n = 1 + trial % 6;
        double A[36], b[6], f[6], a[6], fs[6];
        for (int k = 0; k < n * n; k++) A[k] = gen_normal(&g);
        for (int i = 0; i < n; i++) b[i] = gen_uniform(&g) < 0.2 ? 0.0 : gen_normal(&g);
        int singular;
        int has = enumerate(n, A, b, fs, &singular);
        imp_lcp_info info;
        imp_lcp_status st = lemke(n, A, b, f, a, &info, 0);
        if (st == IMP_LCP_OK) CHECK(valid(n, A, b, f, 1e-9));
        if (singular) continue;
        if (has) {
            solved++;
            if (st != IMP_LCP_OK) CHECK_FAIL_AT("trial %d n %d: %s", trial, n, info.message);
            if (strcmp(info.message, "solved by Lemke's method") == 0) lemke_alone++;
        } else {
            none++;
            CHECK(st == IMP_LCP_INFEASIBLE);
        }
        if (check_current_failed) return;
    }
    if (getenv("LCP_VERBOSE"))
        printf("general random: %d solvable (%d by Lemke's path alone), %d without a solution\n", solved,
               lemke_alone, none);
    CHECK(solved > 100 && none > 10);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(random_nonsymmetric_pd_planted);
    RUN(agrees_with_baraff_on_psd);
    RUN(closed_forms);
    RUN(near_tie_with_z0_is_not_a_tie);
    RUN(infeasible_reported);
    RUN(pivot_cap_and_bad_input);
    RUN(random_general_vs_enumeration);
    return CHECK_END("lcp_lemke");
}
