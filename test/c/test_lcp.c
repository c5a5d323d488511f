/* test_lcp.c: the contact LCP solver (src/lcp/lcp.h) over the case categories T1-T19 of the
   project's lcp.md section 4.2, checking the invariants of section 4.1 with a recomputed
   from scratch here (not the solver's own residuals), tolerances relative to the scale
   (s_A = max|A|, s_b = max|b|, s_f = max|f|). Where A is singular, a (unique for PSD A) and
   the net wrench J^T f are compared, never f. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include <impact/lcp.h>
#include "lcp_chol.h"
#include "lcp_gen.h"

#define G 9.81

/* ---- independent invariant check (section 4.1): lcp_gen.h's gen_check ---- */
typedef gen_verdict verdict;

static verdict verify(const imp_lcp_problem *p, const double *f, double tau)
{
    return gen_check(p->n, p->A, p->b, p->bilateral, p->friction_normal, f, tau);
}

static const char *method_name(imp_lcp_method m)
{
    return m == IMP_LCP_SYMMETRIC ? "symmetric" : m == IMP_LCP_LEMKE ? "lemke" : "general";
}


static imp_lcp_status solve(const imp_lcp_problem *p, double *f, double *a, imp_lcp_info *info)
{
    return imp_lcp_solve(p, NULL, NULL, f, a, NULL, info);
}

/* ---- T1 trivial: A diagonal PD, b of mixed signs: f_i = max(0, -b_i / A_ii) ---- */
TEST(t1_diagonal)
{
    int n = 30;
    double *A = gen_vec(n * n), *b = gen_vec(n), *f = gen_vec(n), *a = gen_vec(n);
    gen_rng r;
    gen_seed(&r, 7);
    for (int i = 0; i < n; i++) {
        A[i * n + i] = 0.5 + 3 * gen_uniform(&r);
        b[i] = gen_uniform(&r) - 0.5;
    }
    imp_lcp_problem p = {n, A, b, NULL, NULL, NULL, NULL};
    imp_lcp_info info;
    CHECK(solve(&p, f, a, &info) == IMP_LCP_OK);
    for (int i = 0; i < n; i++) CHECK_NEAR(f[i], fmax(0.0, -b[i] / A[i * n + i]), 1e-15);
    CHECK(verify(&p, f, 1e-12).ok);
    free(A), free(b), free(f), free(a);
}

/* the force scale of a problem: sum |b_i| / A_ii, by hand; rows without a positive diagonal
   do not count */
TEST(force_scale)
{
    double A[9] = {2, 1, 0, 1, 4, 0, 0, 0, 0}, b[3] = {-1, 8, 5};
    imp_lcp_problem p = {3, A, b, NULL, NULL, NULL, NULL};
    CHECK_NEAR(imp_lcp_force_scale(&p), 0.5 + 2.0, 1e-15);
}

/* ---- T2 tiny closed forms ---- */
TEST(t2_tiny)
{
    double A1 = 2.0, f, a;
    imp_lcp_info info;
    double bs[3] = {-3.0, 3.0, 0.0}, fx[3] = {1.5, 0.0, 0.0}, ax[3] = {0.0, 3.0, 0.0};
    for (int k = 0; k < 3; k++) {
        imp_lcp_problem p = {1, &A1, &bs[k], NULL, NULL, NULL, NULL};
        CHECK(solve(&p, &f, &a, &info) == IMP_LCP_OK);
        CHECK_NEAR(f, fx[k], 1e-15);
        CHECK_NEAR(a, ax[k], 1e-15);
    }
    /* 2x2: A = [[2,1],[1,2]], b = (-5,-6): both active, f = -A^-1 b = (4/3, 7/3) */
    double A[4] = {2, 1, 1, 2}, b[2] = {-5, -6}, f2[2], a2[2];
    imp_lcp_problem p = {2, A, b, NULL, NULL, NULL, NULL};
    CHECK(solve(&p, f2, a2, &info) == IMP_LCP_OK);
    CHECK_NEAR(f2[0], 4.0 / 3.0, 1e-14);
    CHECK_NEAR(f2[1], 7.0 / 3.0, 1e-14);
    /* one active: b = (-2, 5): f = (1, 0), a = (0, 6) */
    b[0] = -2, b[1] = 5;
    CHECK(solve(&p, f2, a2, &info) == IMP_LCP_OK);
    CHECK_NEAR(f2[0], 1.0, 1e-15);
    CHECK_NEAR(f2[1], 0.0, 1e-15);
    CHECK_NEAR(a2[1], 6.0, 1e-14);
    /* n = 0 */
    imp_lcp_problem p0 = {0, NULL, NULL, NULL, NULL, NULL, NULL};
    CHECK(solve(&p0, NULL, NULL, &info) == IMP_LCP_OK);
}

/* A = J J^T / m + delta I with J n x m, m >= n: PD; planted f*, a* (unique) */
static void random_pd(int n, unsigned long long seed, double delta, double *A, double *b,
                      double *fs, double *as)
{
    int m = n + 3;
    gen_rng r;
    gen_seed(&r, seed);
    double *J = gen_vec(n * m);
    for (int k = 0; k < n * m; k++) J[k] = gen_normal(&r);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < m; k++) s += J[i * m + k] * J[j * m + k];
            A[i * n + j] = s / m + (i == j ? delta : 0.0);
        }
    for (int i = 0; i < n; i++) {
        double u = gen_uniform(&r);
        fs[i] = u < 0.5 ? gen_uniform(&r) + 0.1 : 0.0;
        as[i] = u < 0.5 ? 0.0 : gen_uniform(&r) + 0.1;
    }
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[i * n + j] * fs[j];
        b[i] = as[i] - s;
    }
    free(J);
}

/* ---- T3 random PD, n = 2..50, 100 seeds each size class: f = f* ---- */
TEST(t3_random_pd)
{
    for (int seed = 1; seed <= 100; seed++) {
        int n = 2 + (seed * 7) % 49;
        double *A = gen_vec(n * n), *b = gen_vec(n), *fs = gen_vec(n), *as = gen_vec(n), *f = gen_vec(n), *a = gen_vec(n);
        random_pd(n, (unsigned long long)seed, 0.01, A, b, fs, as);
        imp_lcp_problem p = {n, A, b, NULL, NULL, NULL, NULL};
        imp_lcp_info info;
        CHECK(solve(&p, f, a, &info) == IMP_LCP_OK);
        verdict v = verify(&p, f, 1e-9);
        CHECK(v.ok);
        for (int i = 0; i < n; i++) CHECK_NEAR(f[i], fs[i], 1e-8 * v.sf);
        free(A), free(b), free(fs), free(as), free(f), free(a);
    }
}

/* ---- T4/T5 random PSD of rank r < n with 20% degenerate rows: a = a*, J^T f = J^T f* ---- */
static void psd_case(int n, int r, unsigned long long seed, double tau)
{
    double *A = gen_vec(n * n), *b = gen_vec(n), *fs = gen_vec(n), *as = gen_vec(n), *f = gen_vec(n), *a = gen_vec(n);
    double *J = gen_vec(n * r);
    gen_randpsd(n, r, seed, A, b, fs, as, J);
    imp_lcp_problem p = {n, A, b, NULL, NULL, NULL, NULL};
    imp_lcp_info info;
    imp_lcp_status st = solve(&p, f, a, &info);
    CHECK(st == IMP_LCP_OK);
    verdict v = verify(&p, f, tau);
    CHECK(v.ok);
    for (int i = 0; i < n; i++) CHECK_NEAR(a[i], as[i], tau * v.sa);
    /* ||J^T (f - f*)||^2 = r (f - f*)^T A (f - f*) = 0 for every solution */
    double sw = 0;
    for (int k = 0; k < r; k++) {
        double w = 0, ws = 0;
        for (int i = 0; i < n; i++) w += J[i * r + k] * f[i], ws += J[i * r + k] * fs[i];
        sw = fmax(sw, fabs(ws));
        CHECK_NEAR(w, ws, 1e-7 * (1 + sw));
    }
    free(A), free(b), free(fs), free(as), free(f), free(a), free(J);
}

TEST(t4_random_psd_rank_deficient)
{
    for (int seed = 1; seed <= 30; seed++) {
        int n = 4 + seed * 3;
        psd_case(n, n / 2, (unsigned long long)seed, 1e-9);
        psd_case(n, n - 1, (unsigned long long)seed + 100, 1e-9);
        psd_case(n, 1, (unsigned long long)seed + 200, 1e-9);
    }
    psd_case(300, 150, 5, 1e-9);
}

TEST(t5_degenerate_b)
{
    /* b = 0: f = 0 is the solution, with no pivot; b >= 0 likewise */
    int n = 40;
    double *A = gen_vec(n * n), *b = gen_vec(n), *f = gen_vec(n), *a = gen_vec(n);
    gen_randpsd(n, 10, 3, A, b, NULL, NULL, NULL);
    for (int i = 0; i < n; i++) b[i] = 0.0;
    imp_lcp_problem p = {n, A, b, NULL, NULL, NULL, NULL};
    imp_lcp_info info;
    CHECK(solve(&p, f, a, &info) == IMP_LCP_OK);
    CHECK(info.pivots == 0);
    for (int i = 0; i < n; i++) CHECK(f[i] == 0.0 && a[i] == 0.0);
    /* T15 separating: b > 0 */
    for (int i = 0; i < n; i++) b[i] = 1.0 + i;
    CHECK(solve(&p, f, a, &info) == IMP_LCP_OK);
    CHECK(info.pivots == 0);
    for (int i = 0; i < n; i++) CHECK(f[i] == 0.0 && a[i] == b[i]);
    free(A), free(b), free(f), free(a);
}

/* ---- T6 redundant duplicates: the same contact listed twice ---- */
TEST(t6_duplicates)
{
    /* a PD 3x3 problem with row/column 0 duplicated as row 3 */
    int n0 = 3, n = 4;
    double A0[9], b0[3], fs[3], as[3];
    random_pd(n0, 11, 0.1, A0, b0, fs, as);
    fs[0] = 0.7; /* make row 0 active in the planted answer */
    as[0] = 0.0;
    for (int i = 0; i < n0; i++) {
        double s = 0;
        for (int j = 0; j < n0; j++) s += A0[i * n0 + j] * fs[j];
        b0[i] = as[i] - s;
    }
    int map[4] = {0, 1, 2, 0};
    double A[16], b[4], f[4], a[4];
    for (int i = 0; i < n; i++) {
        b[i] = b0[map[i]];
        for (int j = 0; j < n; j++) A[i * n + j] = A0[map[i] * n0 + map[j]];
    }
    imp_lcp_problem p = {n, A, b, NULL, NULL, NULL, NULL};
    imp_lcp_info info;
    CHECK(solve(&p, f, a, &info) == IMP_LCP_OK);
    CHECK(verify(&p, f, 1e-12).ok);
    CHECK_NEAR(f[0] + f[3], fs[0], 1e-12);
    CHECK_NEAR(f[1], fs[1], 1e-12);
    CHECK_NEAR(f[2], fs[2], 1e-12);
    for (int i = 0; i < n; i++) CHECK_NEAR(a[i], as[map[i]], 1e-12);
}

/* ---- T7 box on the ground in 3D (4 corners, rank 3) ---- */
TEST(t7_box3d)
{
    gen_sys s;
    gen_stack3d(&s, 1, NULL);
    double f[4], a[4], w[6];
    imp_lcp_problem p = {4, s.A, s.b, NULL, NULL, NULL, NULL};
    imp_lcp_info info;
    CHECK(solve(&p, f, a, &info) == IMP_LCP_OK);
    CHECK(verify(&p, f, 1e-12).ok);
    for (int i = 0; i < 4; i++) CHECK_NEAR(a[i], 0.0, 1e-12);
    CHECK_NEAR(f[0] + f[1] + f[2] + f[3], G, 1e-12);
    gen_sys_wrench(&s, f, w); /* J^T f balances gravity: force G up, no torque */
    for (int c = 0; c < 6; c++) CHECK_NEAR(w[c] + s.fext[c], 0.0, 1e-12);
    gen_sys_free(&s);
}

/* ---- T8 box on the ground in 2D: 2 corners (PD), then a redundant mid-edge contact ---- */
TEST(t8_box2d)
{
    gen_sys s;
    gen_stack2d(&s, 1, NULL);
    double f[3], a[3];
    imp_lcp_problem p = {2, s.A, s.b, NULL, NULL, NULL, NULL};
    imp_lcp_info info;
    CHECK(solve(&p, f, a, &info) == IMP_LCP_OK);
    CHECK_NEAR(f[0], G / 2, 1e-13);
    CHECK_NEAR(f[1], G / 2, 1e-13);
    /* third contact at x = 0 (J row (0, 1, 0)): A rank 2 of 3 */
    double A3[9], b3[3];
    double J[3][3] = {{0, 1, -0.5}, {0, 1, 0.5}, {0, 1, 0.0}}, minv[3] = {1, 1, 6.0};
    for (int i = 0; i < 3; i++) {
        b3[i] = J[i][1] * minv[1] * (-G);
        for (int j = 0; j < 3; j++) {
            A3[i * 3 + j] = 0;
            for (int c = 0; c < 3; c++) A3[i * 3 + j] += J[i][c] * minv[c] * J[j][c];
        }
    }
    imp_lcp_problem p3 = {3, A3, b3, NULL, NULL, NULL, NULL};
    CHECK(solve(&p3, f, a, &info) == IMP_LCP_OK);
    CHECK(verify(&p3, f, 1e-12).ok);
    for (int i = 0; i < 3; i++) CHECK_NEAR(a[i], 0.0, 1e-12);
    CHECK_NEAR(f[0] + f[1] + f[2], G, 1e-12);
    CHECK_NEAR(-0.5 * f[0] + 0.5 * f[1], 0.0, 1e-12); /* torque balance */
    gen_sys_free(&s);
}

/* ---- T9 2D stacks: contacts under box k carry (N - k) m g / 2 each (unique) ---- */
static void stack2d_case(int N, const double *masses, double rel)
{
    gen_sys s;
    gen_stack2d(&s, N, masses);
    double *f = gen_vec(s.n), *a = gen_vec(s.n);
    imp_lcp_problem p = {s.n, s.A, s.b, NULL, NULL, NULL, NULL};
    imp_lcp_info info;
    CHECK(solve(&p, f, a, &info) == IMP_LCP_OK);
    CHECK(verify(&p, f, 1e-9).ok);
    double above = 0;
    double sf = 0;
    for (int k = 0; k < N; k++) sf += (masses ? masses[k] : 1.0) * G / 2;
    for (int k = N - 1; k >= 0; k--) {
        above += masses ? masses[k] : 1.0;
        CHECK_NEAR(f[2 * k], above * G / 2, rel * sf);
        CHECK_NEAR(f[2 * k + 1], above * G / 2, rel * sf);
    }
    free(f), free(a);
    gen_sys_free(&s);
}

TEST(t9_stack2d)
{
    for (int N = 1; N <= 20; N++) stack2d_case(N, NULL, 1e-12);
    stack2d_case(200, NULL, 1e-10);
    stack2d_case(1000, NULL, 1e-9);
}

/* ---- T10 3D stacks (A singular, b = 0 rows): a = 0 and each box's wrench balances ---- */
/* wtol: the wrench balance tolerance relative to the largest force (1e-9; with 1e6 mass
   ratios the condition number of A is ~1e12 and 1e-8 is what double precision gives) */
static void stack3d_case(int N, const double *masses, double wtol)
{
    gen_sys s;
    gen_stack3d(&s, N, masses);
    double *f = gen_vec(s.n), *a = gen_vec(s.n), *w = gen_vec(6 * N);
    imp_lcp_problem p = {s.n, s.A, s.b, NULL, NULL, NULL, NULL};
    imp_lcp_info info;
    CHECK(solve(&p, f, a, &info) == IMP_LCP_OK);
    verdict v = verify(&p, f, 1e-9);
    CHECK(v.ok);
    for (int i = 0; i < s.n; i++) CHECK_NEAR(a[i], 0.0, 1e-9 * v.sa);
    gen_sys_wrench(&s, f, w);
    double total = 0;
    for (int k = N - 1; k >= 0; k--) {
        double m = masses ? masses[k] : 1.0;
        total += m * G;
        for (int c = 0; c < 6; c++) CHECK_NEAR(w[6 * k + c] + s.fext[6 * k + c], 0.0, wtol * v.sf);
        /* the interface under box k carries the weight of everything above */
        double sum = f[4 * k] + f[4 * k + 1] + f[4 * k + 2] + f[4 * k + 3];
        CHECK_NEAR(sum, total, wtol * v.sf);
    }
    free(f), free(a), free(w);
    gen_sys_free(&s);
}

TEST(t10_stack3d)
{
    for (int N = 1; N <= 12; N++) stack3d_case(N, NULL, 1e-9); /* Siconos Lemke fails from N = 8 */
    stack3d_case(50, NULL, 1e-9);
    stack3d_case(500, NULL, 1e-9); /* n = 2000 */
}

/* ---- T11 2D brick wall: rows of boxes offset by half a box, each upper box resting on
   two below (2 contacts on each), so A is singular; a = 0 and every box is in balance ---- */
TEST(t11_brick_wall)
{
    int rows = 6, per = 6; /* row r has per boxes (even r) or per - 1 (odd r) */
    int nb = 0, idx[6][6];
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < per - (r & 1); c++) idx[r][c] = nb++;
    int nc = 2 * per; /* ground contacts, then 2 per overlapping pair of boxes */
    for (int r = 1; r < rows; r++)
        for (int c = 0; c < per - (r & 1); c++)
            for (int lc = 0; lc < per - ((r - 1) & 1); lc++) {
                double xu = c + 0.5 + ((r & 1) ? 0.5 : 0.0), xl = lc + 0.5 + (((r - 1) & 1) ? 0.5 : 0.0);
                if (fmin(xu + 0.5, xl + 0.5) - fmax(xu - 0.5, xl - 0.5) >= 0.25) nc += 2;
            }
    gen_sys s;
    gen_sys_alloc(&s, nc, nb, 3);
    int i = 0;
    for (int k = 0; k < nb; k++) {
        s.minv[3 * k] = s.minv[3 * k + 1] = 1.0;
        s.minv[3 * k + 2] = 6.0;
        s.fext[3 * k + 1] = -G;
    }
    /* contact at world x between upper box u (centre xu) and lower box l (centre xl) */
#define CONTACT(u, xu, l, xl, x)                                                    \
    do {                                                                            \
        s.body[2 * i] = (u);                                                        \
        s.jac[(2 * i) * 3 + 1] = 1.0;                                               \
        s.jac[(2 * i) * 3 + 2] = (x) - (xu);                                        \
        if ((l) >= 0) {                                                             \
            s.body[2 * i + 1] = (l);                                                \
            s.jac[(2 * i + 1) * 3 + 1] = -1.0;                                      \
            s.jac[(2 * i + 1) * 3 + 2] = -((x) - (xl));                             \
        }                                                                           \
        i++;                                                                        \
    } while (0)
    for (int c = 0; c < per; c++) {
        CONTACT(idx[0][c], c + 0.5, -1, 0.0, c + 0.0);
        CONTACT(idx[0][c], c + 0.5, -1, 0.0, c + 1.0);
    }
    for (int r = 1; r < rows; r++) {
        double off = (r & 1) ? 0.5 : 0.0;
        for (int c = 0; c < per - (r & 1); c++) {
            double xu = c + 0.5 + off;
            int u = idx[r][c];
            /* lower boxes overlapped: those whose span meets [xu-0.5, xu+0.5] */
            for (int lc = 0; lc < per - ((r - 1) & 1); lc++) {
                double xl = lc + 0.5 + ((r - 1) & 1 ? 0.5 : 0.0);
                double x0 = fmax(xu - 0.5, xl - 0.5), x1 = fmin(xu + 0.5, xl + 0.5);
                if (x1 - x0 < 0.25) continue;
                CONTACT(u, xu, idx[r - 1][lc], xl, x0);
                CONTACT(u, xu, idx[r - 1][lc], xl, x1);
            }
        }
    }
#undef CONTACT
    CHECK(i == nc);
    gen_sys_form(&s);
    double *f = gen_vec(nc), *a = gen_vec(nc), *w = gen_vec(3 * nb);
    imp_lcp_problem p = {nc, s.A, s.b, NULL, NULL, NULL, NULL};
    imp_lcp_info info;
    CHECK(solve(&p, f, a, &info) == IMP_LCP_OK);
    verdict v = verify(&p, f, 1e-9);
    CHECK(v.ok);
    for (int q = 0; q < nc; q++) CHECK_NEAR(a[q], 0.0, 1e-9 * v.sa);
    gen_sys_wrench(&s, f, w);
    for (int q = 0; q < 3 * nb; q++) CHECK_NEAR(w[q] + s.fext[q], 0.0, 1e-9 * nb * G);
    free(f), free(a), free(w);
    gen_sys_free(&s);
}

/* ---- T12/T13 bilateral rows: a hanging chain of N unit masses (1D, vertical links):
   link k (above mass k, k = 0 at the pivot) carries (N - k) m g ---- */
static void chain(int N, int duplicate, int ground, double *A, double *b, unsigned char *bil,
                  int *n_out)
{
    /* dof: heights of masses 0..N-1; link k: row = v_k - v_{k-1} (k = 0: v_0) */
    int n = N + (duplicate ? 1 : 0) + (ground ? 1 : 0);
    double *J = gen_vec(n * N);
    for (int k = 0; k < N; k++) {
        J[k * N + k] = 1.0;
        if (k > 0) J[k * N + k - 1] = -1.0;
        bil[k] = 1;
    }
    int row = N;
    if (duplicate) { /* the same joint as link N-1, listed twice */
        J[row * N + N - 1] = 1.0;
        if (N > 1) J[row * N + N - 2] = -1.0;
        bil[row++] = 1;
    }
    if (ground) { /* the last mass also touches a support from below */
        J[row * N + N - 1] = 1.0;
        bil[row++] = 0;
    }
    for (int i = 0; i < n; i++) {
        b[i] = 0;
        for (int c = 0; c < N; c++) b[i] += J[i * N + c] * (-G);
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int c = 0; c < N; c++) s += J[i * N + c] * J[j * N + c];
            A[i * n + j] = s;
        }
    }
    *n_out = n;
    free(J);
}

TEST(t12_bilateral_chain)
{
    int N = 10, n;
    double A[144], b[12], f[12], a[12];
    unsigned char bil[12];
    chain(N, 0, 0, A, b, bil, &n);
    imp_lcp_problem p = {n, A, b, bil, NULL, NULL, NULL};
    imp_lcp_info info;
    CHECK(solve(&p, f, a, &info) == IMP_LCP_OK);
    for (int k = 0; k < N; k++) CHECK_NEAR(f[k], (N - k) * G, 1e-11);
    for (int k = 0; k < N; k++) CHECK_NEAR(a[k], 0.0, 1e-11);
    /* mixed: the chain also resting on a support (redundant with the links): a = 0 and the
       net force on every mass is zero */
    chain(N, 0, 1, A, b, bil, &n);
    imp_lcp_problem q = {n, A, b, bil, NULL, NULL, NULL};
    CHECK(solve(&q, f, a, &info) == IMP_LCP_OK);
    CHECK(verify(&q, f, 1e-12).ok);
    for (int k = 0; k < n; k++) CHECK_NEAR(a[k], 0.0, 1e-11);
    for (int k = 0; k < N; k++) {
        double net = f[k] - (k + 1 < N ? f[k + 1] : 0.0) - G + (k == N - 1 ? f[N] : 0.0);
        CHECK_NEAR(net, 0.0, 1e-11);
    }
}

TEST(t13_bilateral_redundant)
{
    int N = 6, n;
    double A[64], b[8], f[8], a[8];
    unsigned char bil[8];
    chain(N, 1, 0, A, b, bil, &n);
    imp_lcp_problem p = {n, A, b, bil, NULL, NULL, NULL};
    imp_lcp_info info;
    CHECK(solve(&p, f, a, &info) == IMP_LCP_OK);
    for (int k = 0; k < n; k++) CHECK_NEAR(a[k], 0.0, 1e-11);
    for (int k = 0; k < N - 1; k++) CHECK_NEAR(f[k], (N - k) * G, 1e-11);
    CHECK_NEAR(f[N - 1] + f[N], G, 1e-11); /* the pair shares the last link's load */
    /* duplicate joints whose targets differ by round-off (1e-12 of b): redundant, solved,
       the duplicate's residual within the tolerance (a weld's four rows of rank 3 in the 2D
       engine, spec/myphysicslab_pile_spec.lua) */
    double b_dup = b[N];
    b[N] += 1e-12 * G;
    CHECK(solve(&p, f, a, &info) == IMP_LCP_OK);
    for (int k = 0; k < n; k++) CHECK(fabs(a[k]) <= 1e-9 * G);
    CHECK_NEAR(f[N - 1] + f[N], G, 1e-9);
    b[N] = b_dup;
    /* inconsistent duplicate joints (different b): infeasible, reported */
    b[N] += 1.0;
    CHECK(solve(&p, f, a, &info) == IMP_LCP_INFEASIBLE);
}

/* ---- T13b a weld's four rows (rank 3) beside a contact: the impulse problems of
   spec/myphysicslab_pile_spec.lua's pile_config_1_test with the pins in the world's frame
   (rows 1-4: the two pins' x and y rows; row 0: a contact approaching at b). (1) at 4.196 s
   the y row left dependent keeps a residual of 2.5e-10 (round-off in the targets): the solve
   gave up before the contact row; (2) at 4.55 s the two x rows nearly coincide (the line
   between the pins horizontal): clamped in index order they gave impulses of 2.3e7 that
   cancel. The answer must stop the contact (a_0 >= 0, f_0 >= 0, f_0 a_0 = 0), leave the
   joints' velocities at zero but for that round-off, and hold impulses of the problem's
   scale (|b| / A_ii ~ 0.06) ---- */
/* a contact (row 0) beside a weld's four joint rows: the status honest (a dependent row's
   residual is reported), the contact struck (f_0 > strike) and stopped (a_0 >= 0, f_0 a_0 =
   0), the joints' velocities zero but for round-off, impulses of the problem's scale */
static void weld_beside_contact(const double *A, const double *b, double strike)
{
    const unsigned char bil[5] = {0, 1, 1, 1, 1};
    imp_lcp_problem p = {5, A, b, bil, NULL, NULL, NULL};
    imp_lcp_info info;
    double f[5], a[5];
    imp_lcp_status st = solve(&p, f, a, &info);
    CHECK(st == IMP_LCP_OK || st == IMP_LCP_INFEASIBLE);
    double fmax = 0.0;
    for (int i = 0; i < 5; i++) {
        a[i] = b[i];
        for (int j = 0; j < 5; j++) a[i] += A[i * 5 + j] * f[j];
        if (fabs(f[i]) > fmax) fmax = fabs(f[i]);
    }
    CHECK(f[0] >= 0.0 && a[0] >= -1e-15 && fabs(f[0] * a[0]) <= 1e-15);
    CHECK(f[0] > strike);
    for (int i = 1; i < 5; i++) CHECK(fabs(a[i]) <= 1e-9);
    CHECK(fmax <= 1.0);
}

TEST(t13b_weld_beside_contact)
{
    static const double A1[25] = {
        7.2090487433791344, -0.075347040034591695, -2.1451941187503172, 0.18918434289194341, -0.25058662403874266,
        -0.075347040034591695, 4.923242981737558, -0.0076178710061347576, 4.8645253964733985, -0.42816070267901807,
        -2.1451941187503172, -0.0076178710061347576, 4.9275821007706933, -0.44400228683743381, 1.8021412701932689,
        0.18918434289194341, 4.8645253964733985, -0.44400228683743381, 4.9275821007706924, 0.0076178710061352017,
        -0.25058662403874266, -0.42816070267901807, 1.8021412701932689, 0.0076178710061352017, 4.9232429817375571};
    static const double b1[5] = {-0.015687948087938622, 0, -6.9388939039072284e-18, -2.7755575615628914e-17,
                                 -2.4604572264157187e-10};
    static const double A2[25] = {
        7.623836025972043, 0.37091816613028172, -1.989416507898123, 0.36760117548575533, -0.36610196729191768,
        0.37091816613028172, 4.9254449049138564, -0.0079207259614009207, 4.9253992466568732, 0.014427091102642509,
        -1.989416507898123, -0.0079207259614009207, 4.9253801775943957, -0.001414493055773014, 1.7412674200097946,
        0.36760117548575533, 4.9253992466568732, -0.001414493055773014, 4.9253801775943948, 0.0079207259614002545,
        -0.36610196729191768, 0.014427091102642509, 1.7412674200097946, 0.0079207259614002545, 4.9254449049138556};
    static const double b2[5] = {-0.44568373263653338, 3.4006913347817136e-08, -4.3512874048252936e-06,
                                 3.3782154504335971e-08, -4.3512874212392472e-06};
    weld_beside_contact(A1, b1, 1e-3);
    weld_beside_contact(A2, b2, 1e-3);
}

/* ---- T13c the weld's two x rows nearly coincident (its pins one above the other) beside a
   contact: in index order the pair's Schur complement 4e-11 made the next joint row's -4e-6
   (round-off times |x| = 3e5), refused as "not positive semidefinite"; the rank-revealing
   order leaves out the nearly dependent row. From pile_config_1_test (pins in the world's
   frame, its DampingLaw's rotational damping 0.05 x 0.15) at 5.797 s ---- */
TEST(t13c_weld_pair_coincident)
{
    static const double A[25] = {
        7.1263863023981351, -2.7187251011300573, -0.36172401737810134, -2.7187465715479826, 2.7182406529428809,
        -2.7187251011300573, 4.9254126516856465, -0.0079207920784380992, 4.9254125410993925, 0.0079429888311161045,
        -0.36172401737810134, -0.0079207920784380992, 4.9254124308226057, -0.0078985953272997511, 1.7412541255672747,
        -2.7187465715479826, 4.9254125410993925, -0.0078985953272997511, 4.9254124308226057, 0.0079207920784380992,
        2.7182406529428809, 0.0079429888311161045, 1.7412541255672747, 0.0079207920784380992, 4.9254126516856456};
    static const double b[5] = {-0.001946197618130663, 4.416364057227215e-14, -2.8771277964652299e-10, 4.4168018038543561e-14, -2.8771230246204182e-10};
    weld_beside_contact(A, b, 1e-6);  /* |b_0| / A_00 = 2.7e-4 */
}

/* ---- T14 infeasible problems are reported ---- */
TEST(t14_infeasible)
{
    double A[4] = {1, -1, -1, 1}, b[2] = {-1, -1}, f[2], a[2];
    imp_lcp_problem p = {2, A, b, NULL, NULL, NULL, NULL};
    imp_lcp_info info;
    CHECK(solve(&p, f, a, &info) == IMP_LCP_INFEASIBLE);
    CHECK(info.message != NULL);
    CHECK(isfinite(f[0]) && isfinite(f[1]));
    /* a zero row with b < 0 */
    double Z[4] = {0, 0, 0, 1}, bz[2] = {-1, -1};
    imp_lcp_problem pz = {2, Z, bz, NULL, NULL, NULL, NULL};
    CHECK(solve(&pz, f, a, &info) == IMP_LCP_INFEASIBLE);
}

/* ---- T16 scaling: mass ratios 1:1e6 in a stack ---- */
TEST(t16_mass_ratio)
{
    double masses[12];
    /* kappa(A) ~ 1e12 here: the residual invariants hold at 1e-9 (verify), the forces
       against the closed form at 1e-8 of the largest force (lcp.md allows 1e-6) */
    for (int k = 0; k < 12; k++) masses[k] = (k & 1) ? 1e-6 : 1.0;
    stack2d_case(12, masses, 1e-8);
    for (int k = 0; k < 12; k++) masses[k] = (k & 1) ? 1e6 : 1.0;
    stack2d_case(12, masses, 1e-8);
    stack3d_case(12, masses, 1e-8);
    /* b scaled by alpha scales f by alpha (PD case) */
    int n = 20;
    double *A = gen_vec(n * n), *b = gen_vec(n), *fs = gen_vec(n), *as = gen_vec(n), *f = gen_vec(n), *f2 = gen_vec(n), *a = gen_vec(n);
    random_pd(n, 99, 0.01, A, b, fs, as);
    imp_lcp_problem p = {n, A, b, NULL, NULL, NULL, NULL};
    imp_lcp_info info;
    CHECK(solve(&p, f, a, &info) == IMP_LCP_OK);
    for (int i = 0; i < n; i++) b[i] *= 1e-7;
    CHECK(solve(&p, f2, a, &info) == IMP_LCP_OK);
    for (int i = 0; i < n; i++) CHECK_NEAR(f2[i], 1e-7 * f[i], 1e-16);
    free(A), free(b), free(fs), free(as), free(f), free(f2), free(a);
}

/* ---- T17 collision impulses: b = (1 + e) v- ---- */
TEST(t17_impulses)
{
    /* single contact of a unit ball with the ground: A = 1/m, j = -(1+e) v- / A */
    double m = 2.0, A1 = 1.0 / m, vm = -3.0, f, a;
    imp_lcp_info info;
    for (int k = 0; k <= 2; k++) {
        double e = 0.5 * k, b = (1 + e) * vm;
        imp_lcp_problem p = {1, &A1, &b, NULL, NULL, NULL, NULL};
        CHECK(solve(&p, &f, &a, &info) == IMP_LCP_OK);
        CHECK_NEAR(f, -(1 + e) * vm / A1, 1e-14);
        CHECK_NEAR(a - e * vm, -e * vm, 1e-14); /* v+ = A j + v- = -e v- */
    }
    /* Newton's cradle row: ball 0 moving at v into 4 touching balls; contacts i between
       balls i and i+1, v- = v_{i+1} - v_i. Check momentum, the LCP and no energy gain. */
    int nb = 5, n = 4;
    double v[5] = {1.0, 0, 0, 0, 0}, A[16] = {0}, b[4], j[4], ap[4];
    for (int i = 0; i < n; i++) {
        A[i * n + i] = 2.0; /* unit masses */
        if (i > 0) A[i * n + i - 1] = A[(i - 1) * n + i] = -1.0;
    }
    for (int ek = 0; ek <= 2; ek++) {
        double e = 0.5 * ek;
        for (int i = 0; i < n; i++) b[i] = (1 + e) * (v[i + 1] - v[i]);
        imp_lcp_problem p = {n, A, b, NULL, NULL, NULL, NULL};
        CHECK(solve(&p, j, ap, &info) == IMP_LCP_OK);
        CHECK(verify(&p, j, 1e-12).ok);
        double vp[5], mom = 0, e0 = 0, e1 = 0;
        for (int q = 0; q < nb; q++) {
            vp[q] = v[q] - (q < n ? j[q] : 0) + (q > 0 ? j[q - 1] : 0);
            mom += vp[q] - v[q];
            e0 += 0.5 * v[q] * v[q];
            e1 += 0.5 * vp[q] * vp[q];
        }
        CHECK_NEAR(mom, 0.0, 1e-14);
        CHECK(e1 <= e0 + 1e-12);
        for (int i = 0; i < n; i++) CHECK(vp[i + 1] - vp[i] >= -e * (v[i + 1] - v[i]) - 1e-12);
    }
}

/* ---- invariance: a permutation of the rows gives the permuted a; warm start ---- */
TEST(permutation_and_warm_start)
{
    int n = 60, r = 30;
    double *A = gen_vec(n * n), *b = gen_vec(n), *as = gen_vec(n), *f = gen_vec(n), *a = gen_vec(n);
    double *P = gen_vec(n * n), *pb = gen_vec(n), *pf = gen_vec(n), *pa = gen_vec(n);
    gen_randpsd(n, r, 42, A, b, NULL, as, NULL);
    int *perm = malloc(sizeof(int) * n);
    gen_rng g;
    gen_seed(&g, 5);
    for (int i = 0; i < n; i++) perm[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int k = (int)(gen_uniform(&g) * (i + 1));
        int t = perm[i];
        perm[i] = perm[k];
        perm[k] = t;
    }
    for (int i = 0; i < n; i++) {
        pb[i] = b[perm[i]];
        for (int j = 0; j < n; j++) P[i * n + j] = A[perm[i] * n + perm[j]];
    }
    imp_lcp_problem p = {n, A, b, NULL, NULL, NULL, NULL}, q = {n, P, pb, NULL, NULL, NULL, NULL};
    imp_lcp_info info;
    signed char *state = malloc((size_t)n);
    CHECK(imp_lcp_solve(&p, NULL, NULL, f, a, state, &info) == IMP_LCP_OK);
    CHECK(solve(&q, pf, pa, &info) == IMP_LCP_OK);
    for (int i = 0; i < n; i++) CHECK_NEAR(pa[i], a[perm[i]], 1e-10);
    /* warm start from the final state: no pivot is needed */
    imp_lcp_options o;
    imp_lcp_default_options(&o);
    o.warm_start = state;
    imp_lcp_workspace *ws = imp_lcp_workspace_create(n);
    CHECK(imp_lcp_solve(&p, &o, ws, pf, pa, NULL, &info) == IMP_LCP_OK);
    CHECK(info.warm_started == 1);
    CHECK(info.pivots == 0);
    for (int i = 0; i < n; i++) CHECK_NEAR(pa[i], as[i], 1e-10);
    /* a warm start from a perturbed problem's state still solves this one */
    for (int i = 0; i < n; i++) b[i] += 0.05 * sin(i);
    CHECK(imp_lcp_solve(&p, &o, ws, pf, pa, NULL, &info) == IMP_LCP_OK);
    CHECK(verify(&p, pf, 1e-9).ok);
    imp_lcp_workspace_destroy(ws);
    free(A), free(b), free(as), free(f), free(a), free(P), free(pb), free(pf), free(pa), free(perm), free(state);
}

/* ---- status: pivot cap, bad input ---- */
TEST(status_and_bad_input)
{
    gen_sys s;
    gen_stack2d(&s, 10, NULL);
    double f[20], a[20];
    imp_lcp_problem p = {20, s.A, s.b, NULL, NULL, NULL, NULL};
    imp_lcp_options o;
    imp_lcp_default_options(&o);
    o.max_pivots = 5;
    imp_lcp_info info;
    CHECK(imp_lcp_solve(&p, &o, NULL, f, a, NULL, &info) == IMP_LCP_PIVOT_LIMIT);
    CHECK(info.pivots == 5);
    for (int i = 0; i < 20; i++) CHECK(isfinite(f[i]) && isfinite(a[i]));
    s.A[3] = NAN;
    CHECK(solve(&p, f, a, &info) == IMP_LCP_BAD_INPUT);
    CHECK(strstr(info.message, "NaN") != NULL);
    gen_sys_free(&s);
    double A[4] = {1, 0, 0, 1}, b[2] = {-1, 0}, mu[2] = {0, 0.5};
    int fn[2] = {-1, 5};
    imp_lcp_problem q = {2, A, b, NULL, fn, mu, NULL};
    CHECK(solve(&q, f, a, &info) == IMP_LCP_BAD_INPUT);
    /* symmetric but not PSD (|A_12| > sqrt(A_11 A_22), or a zero diagonal with a nonzero
       row): outside Baraff's method's class, not "infeasible" (both have solutions) */
    double N2[4] = {1, 2, 2, 1}, bn[2] = {-1, -1}, Z2[4] = {0, 1, 1, 0};
    imp_lcp_problem r = {2, N2, bn, NULL, NULL, NULL, NULL}, rz = {2, Z2, bn, NULL, NULL, NULL, NULL};
    imp_lcp_default_options(&o);
    o.method = IMP_LCP_SYMMETRIC;
    CHECK(imp_lcp_solve(&r, &o, NULL, f, a, NULL, &info) == IMP_LCP_OUTSIDE_CLASS);
    CHECK(imp_lcp_solve(&rz, &o, NULL, f, a, NULL, &info) == IMP_LCP_OUTSIDE_CLASS);
    /* auto falls back to Lemke's method, which solves both; by hand: f1 = f2 = 1/3 gives
       a = 3 f1 - 1 = 0 (the other basic solutions (1, 0), (0, 1) too: a = (0, 1) >= 0, so
       only a valid solution is checked); [[0,1],[1,0]]: a = (f2 - 1, f1 - 1) = 0 at (1, 1) */
    CHECK(solve(&r, f, a, &info) == IMP_LCP_OK);
    CHECK(info.method == IMP_LCP_LEMKE);
    CHECK(verify(&r, f, 1e-12).ok);
    CHECK(solve(&rz, f, a, &info) == IMP_LCP_OK);
    CHECK(info.method == IMP_LCP_LEMKE);
    CHECK_NEAR(f[0], 1.0, 1e-15);
    CHECK_NEAR(f[1], 1.0, 1e-15);
}

/* ---- the two methods agree (the general method is an independent dense-LU path) ---- */
TEST(methods_agree)
{
    int n = 80;
    double *A = gen_vec(n * n), *b = gen_vec(n), *as = gen_vec(n), *f = gen_vec(n), *a = gen_vec(n);
    gen_randpsd(n, 40, 8, A, b, NULL, as, NULL);
    imp_lcp_problem p = {n, A, b, NULL, NULL, NULL, NULL};
    imp_lcp_options o;
    imp_lcp_default_options(&o);
    o.method = IMP_LCP_GENERAL;
    imp_lcp_info info;
    CHECK(imp_lcp_solve(&p, &o, NULL, f, a, NULL, &info) == IMP_LCP_OK);
    CHECK(info.method == IMP_LCP_GENERAL);
    for (int i = 0; i < n; i++) CHECK_NEAR(a[i], as[i], 1e-9);
    o.order = IMP_LCP_ORDER_INDEX;
    o.method = IMP_LCP_SYMMETRIC;
    CHECK(imp_lcp_solve(&p, &o, NULL, f, a, NULL, &info) == IMP_LCP_OK);
    for (int i = 0; i < n; i++) CHECK_NEAR(a[i], as[i], 1e-9);
    free(A), free(b), free(as), free(f), free(a);
}

/* ---- the incremental Cholesky factor: after appends and removals L L^T equals the
   remaining block of a PD matrix ---- */
TEST(chol_updates)
{
    int n = 12;
    double A[144], b[12], fs[12], as[12], L[144], y[12], work[24];
    int first[12], idx[12], m = 0;
    random_pd(n, 3, 0.5, A, b, fs, as);
    imp_chol c = {L, first, n, 0};
    gen_rng g;
    gen_seed(&g, 1);
    int in[12] = {0};
    for (int step = 0; step < 60; step++) {
        int j = (int)(gen_uniform(&g) * n);
        if (!in[j]) {
            for (int k = 0; k < m; k++) y[k] = A[idx[k] * n + j];
            imp_chol_forward(&c, y);
            double s = A[j * n + j];
            for (int k = 0; k < m; k++) s -= y[k] * y[k];
            CHECK(imp_chol_append(&c, y, s) == 0);
            idx[m++] = j;
            in[j] = 1;
        } else {
            int k = 0;
            while (idx[k] != j) k++;
            imp_chol_remove(&c, k, work);
            for (int q = k; q + 1 < m; q++) idx[q] = idx[q + 1];
            m--;
            in[j] = 0;
        }
        CHECK(c.m == m);
        for (int r = 0; r < m; r++)
            for (int q = 0; q <= r; q++) {
                double s = 0;
                for (int k = 0; k <= q; k++) {
                    double lr = k >= first[r] ? L[r * n + k] : 0.0, lq = k >= first[q] ? L[q * n + k] : 0.0;
                    s += lr * lq;
                }
                CHECK_NEAR(s, A[idx[r] * n + idx[q]], 1e-12);
            }
    }
}


/* ---- T19 friction (Baraff 1994 sections 5-7) ---- */

/* A unit block on a slope of angle theta in the slope's frame (x along the slope, uphill
   positive; y (2D) / z (3D) normal), contacts at the bottom corners; per contact a normal
   row then its tangent row(s) bounded by mu times the normal. push = extra force along +x at
   the centre of mass. sliding = 0 (static friction) or -1 / +1 (already sliding along -x /
   +x: dynamic friction, 2D and 3D along x only). */
typedef struct slope {
    gen_sys s;
    int fn[12];
    double mu[12];
    signed char sl[12];
} slope;

static void slope_build(slope *q, int dim, double theta, double mu, double push, int sliding)
{
    gen_sys *s = &q->s;
    int nc = dim == 2 ? 2 : 4, per = dim == 2 ? 2 : 3, dof = dim == 2 ? 3 : 6;
    gen_sys_alloc(s, nc * per, 1, dof);
    double m = 1.0;
    if (dim == 2) {
        s->minv[0] = s->minv[1] = 1.0;
        s->minv[2] = 1.0 / (m * 2.0 / 12.0);
        s->fext[0] = -m * G * sin(theta) + push;
        s->fext[1] = -m * G * cos(theta);
    } else {
        for (int c = 0; c < 3; c++) s->minv[c] = 1.0, s->minv[3 + c] = 1.0 / (m * 2.0 / 12.0);
        s->fext[0] = -m * G * sin(theta) + push;
        s->fext[2] = -m * G * cos(theta);
    }
    for (int c = 0; c < nc; c++) {
        int i = per * c;
        for (int k = 0; k < per; k++) s->body[2 * (i + k)] = 0;
        double *jn = s->jac + (size_t)(2 * i) * dof, *jt = s->jac + (size_t)(2 * (i + 1)) * dof;
        if (dim == 2) {
            double rx = c ? 0.5 : -0.5, ry = -0.5;
            jn[1] = 1, jn[2] = rx;  /* vy + w rx */
            jt[0] = 1, jt[2] = -ry; /* vx - w ry */
        } else {
            double rx = (c & 1) ? 0.5 : -0.5, ry = (c & 2) ? 0.5 : -0.5, rz = -0.5;
            double *ju = s->jac + (size_t)(2 * (i + 2)) * dof;
            jn[2] = 1, jn[3] = ry, jn[4] = -rx;  /* vz + wx ry - wy rx */
            jt[0] = 1, jt[4] = rz, jt[5] = -ry;  /* vx + wy rz - wz ry */
            ju[1] = 1, ju[3] = -rz, ju[5] = rx;  /* vy + wz rx - wx rz */
        }
        q->fn[i] = -1;
        for (int k = 1; k < per; k++) {
            q->fn[i + k] = i;
            q->mu[i + k] = mu;
            q->sl[i + k] = (signed char)(k == 1 ? sliding : 0);
        }
        q->mu[i] = 0;
        q->sl[i] = 0;
    }
    if (sliding != 0 && dim == 3) /* a sliding contact has no second (static) tangent row */
        for (int c = 0; c < nc; c++) q->mu[per * c + 2] = mu;
    gen_sys_form(s);
}

/* body acceleration M^-1 (F + J^T f) */
static void body_acc(const gen_sys *s, const double *f, double *acc)
{
    double w[6];
    gen_sys_wrench(s, f, w);
    for (int c = 0; c < s->dof; c++) acc[c] = s->minv[c] * (s->fext[c] + w[c]);
}

static void slope_case(int dim, double theta, double mu, double push, int sliding)
{
    slope q;
    memset(&q, 0, sizeof q);
    slope_build(&q, dim, theta, mu, push, sliding);
    int n = q.s.n, per = dim == 2 ? 2 : 3;
    double f[12], a[12], acc[6];
    imp_lcp_problem p = {n, q.s.A, q.s.b, NULL, q.fn, q.mu, q.sl};
    imp_lcp_info info;
    imp_lcp_status st = solve(&p, f, a, &info);
    if (st != IMP_LCP_OK) CHECK_FAIL_AT("dim %d theta %g mu %g: %s (%s)", dim, theta, mu, imp_lcp_status_name(st), info.message);
    CHECK(st == IMP_LCP_OK);
    CHECK(info.method == IMP_LCP_BOX); /* auto: the box steps solve it, and info.method says so (#23) */
    body_acc(&q.s, f, acc);
    double fx = push - G * sin(theta), fnormal = G * cos(theta); /* m = 1 */
    double sum_n = 0, sum_t = 0;
    for (int c = 0; c < n / per; c++) {
        double fnc = f[per * c], ftc = f[per * c + 1];
        sum_n += fnc;
        sum_t += ftc;
        CHECK(fnc >= -1e-12);
        CHECK(fabs(ftc) <= mu * fnc + 1e-12); /* inside the friction bound */
        CHECK_NEAR(a[per * c], 0.0, 1e-10);  /* normal contacts stay closed */
        if (per == 3) CHECK(fabs(f[per * c + 2]) <= mu * fnc + 1e-12);
    }
    CHECK_NEAR(sum_n, fnormal, 1e-10);
    /* the expected tangential motion: stick when the needed friction is within mu f_n
       (and not already sliding), else slide against kinetic friction mu f_n */
    int sticks = sliding == 0 && fabs(fx) <= mu * fnormal;
    double ax_expect = sticks ? 0.0 : fx - (sliding ? sliding : (fx > 0 ? 1 : -1)) * mu * fnormal;
    CHECK_NEAR(acc[0], ax_expect, 1e-10);
    for (int c = 1; c < q.s.dof; c++) CHECK_NEAR(acc[c], 0.0, 1e-10); /* no lift, no tipping */
    if (sticks) {
        CHECK_NEAR(sum_t, -fx, 1e-10);
        for (int i = 0; i < n; i++) CHECK_NEAR(a[i], 0.0, 1e-10);
    } else {
        CHECK_NEAR(fabs(sum_t), mu * fnormal, 1e-10);
        if (sliding == 0) /* starting to slip: the slip opposes the friction force */
            for (int c = 0; c < n / per; c++) CHECK(a[per * c + 1] * sum_t <= 1e-12);
    }
    CHECK(info.max_friction <= 1e-9);
    gen_sys_free(&q.s);
}

TEST(t19_friction_slope_2d)
{
    double mu = 0.5, crit = atan(mu); /* tan(theta) = mu */
    double thetas[] = {0.0, 0.2, crit - 0.01, crit + 0.01, 0.6, 0.7};
    for (int k = 0; k < 6; k++) slope_case(2, thetas[k], mu, 0.0, 0);
    /* pushed sideways on flat ground: sticks below mu m g, slides above */
    slope_case(2, 0.0, 0.4, 0.3 * G, 0);
    slope_case(2, 0.0, 0.4, 0.5 * G, 0);
    slope_case(2, 0.0, 0.4, -0.5 * G, 0);
    /* dynamic friction: already sliding downhill (-x), below and above tan theta = mu */
    slope_case(2, 0.3, mu, 0.0, -1);
    slope_case(2, 0.6, mu, 0.0, -1);
    slope_case(2, 0.3, mu, 0.0, +1); /* sliding uphill: friction and gravity both decelerate */
}

TEST(t19_friction_slope_3d)
{
    double mu = 0.5, crit = atan(mu);
    double thetas[] = {0.0, 0.2, crit - 0.01, crit + 0.01, 0.6};
    for (int k = 0; k < 5; k++) slope_case(3, thetas[k], mu, 0.0, 0);
    slope_case(3, 0.3, mu, 0.0, -1);
    slope_case(3, 0.6, mu, 0.0, -1);
}


/* ---- small random PSD problems against brute-force enumeration (an independent method):
   A = J J^T (rank r <= n, rows sometimes duplicated), b with zeros; every support S with
   A_SS positive definite is tried; a feasible problem has such a basic solution, and then
   a is unique, so ours must match it; with none the problem is infeasible and ours must
   report a failure. ---- */
static int chol_solve_small(int k, const double *M, double *x)
{
    double L[64] = {0};
    for (int i = 0; i < k; i++)
        for (int j = 0; j <= i; j++) {
            double s = M[i * k + j];
            for (int q = 0; q < j; q++) s -= L[i * 8 + q] * L[j * 8 + q];
            if (i == j) {
                if (s <= 1e-9 * (1 + fabs(M[i * k + i]))) return -1;
                L[i * 8 + i] = sqrt(s);
            } else {
                L[i * 8 + j] = s / L[j * 8 + j];
            }
        }
    for (int i = 0; i < k; i++) {
        for (int q = 0; q < i; q++) x[i] -= L[i * 8 + q] * x[q];
        x[i] /= L[i * 8 + i];
    }
    for (int i = k - 1; i >= 0; i--) {
        for (int q = i + 1; q < k; q++) x[i] -= L[q * 8 + i] * x[q];
        x[i] /= L[i * 8 + i];
    }
    return 0;
}

static int enumerate(int n, const double *A, const double *b, double *astar)
{
    for (int mask = 0; mask < (1 << n); mask++) {
        int idx[8], k = 0;
        for (int i = 0; i < n; i++)
            if (mask & (1 << i)) idx[k++] = i;
        double M[64], x[8], f[8] = {0};
        for (int i = 0; i < k; i++) {
            x[i] = -b[idx[i]];
            for (int j = 0; j < k; j++) M[i * k + j] = A[idx[i] * n + idx[j]];
        }
        if (k > 0 && chol_solve_small(k, M, x) != 0) continue;
        int ok = 1;
        for (int i = 0; i < k; i++) {
            f[idx[i]] = x[i];
            if (x[i] < -1e-10) ok = 0;
        }
        for (int i = 0; i < n && ok; i++) {
            double a = b[i];
            for (int j = 0; j < n; j++) a += A[i * n + j] * f[j];
            astar[i] = a;
            if (a < -1e-10) ok = 0;
        }
        if (ok) return 1;
    }
    return 0;
}

TEST(small_psd_vs_enumeration)
{
    gen_rng g;
    gen_seed(&g, 2024);
    int feasible = 0, infeasible = 0;
    for (int trial = 0; trial < 600; trial++) {
        int n = 1 + (int)(gen_uniform(&g) * 7), r = 1 + (int)(gen_uniform(&g) * n);
        double J[64], A[64], b[8], f[8], a[8], as[8];
        for (int i = 0; i < n; i++) {
            int dup = i > 0 && gen_uniform(&g) < 0.2; /* the same contact listed twice */
            for (int c = 0; c < r; c++) J[i * 8 + c] = dup ? J[(i - 1) * 8 + c] : gen_normal(&g);
            double u = gen_uniform(&g);
            b[i] = u < 0.25 ? 0.0 : gen_normal(&g);
        }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int c = 0; c < r; c++) s += J[i * 8 + c] * J[j * 8 + c];
                A[i * n + j] = s;
            }
        imp_lcp_problem p = {n, A, b, NULL, NULL, NULL, NULL};
        imp_lcp_info info;
        imp_lcp_status st = solve(&p, f, a, &info);
        if (enumerate(n, A, b, as)) {
            feasible++;
            if (st != IMP_LCP_OK) CHECK_FAIL_AT("trial %d (n %d rank %d): %s", trial, n, r, info.message);
            CHECK(st == IMP_LCP_OK);
            verdict v = verify(&p, f, 1e-9);
            CHECK(v.ok);
            for (int i = 0; i < n; i++) CHECK_NEAR(a[i], as[i], 1e-8 * (1 + v.sa));
        } else {
            infeasible++;
            if (st == IMP_LCP_OK) CHECK_FAIL_AT("trial %d: infeasible by enumeration, solver says ok", trial);
            CHECK(st == IMP_LCP_INFEASIBLE);
        }
    }
    CHECK(feasible > 100 && infeasible > 50);
}

/* ---- random frictional problems: several 2D blocks on the ground and on each other,
   pushed sideways; whatever the status, ok must mean every row's condition holds
   (checked here, independently) ---- */
TEST(friction_random_honest)
{
    gen_rng g;
    gen_seed(&g, 77);
    int solved = 0;
    for (int trial = 0; trial < 60; trial++) {
        int N = 1 + trial % 4; /* boxes stacked, 2 contacts per interface */
        int nrow = 4 * N;
        gen_sys s;
        gen_sys_alloc(&s, nrow, N, 3);
        int fn[16];
        double mu[16];
        for (int k = 0; k < N; k++) {
            s.minv[3 * k] = s.minv[3 * k + 1] = 1.0;
            s.minv[3 * k + 2] = 6.0;
            s.fext[3 * k] = (gen_uniform(&g) - 0.5) * 2 * G;
            s.fext[3 * k + 1] = -G;
            for (int c = 0; c < 2; c++) {
                double rx = c ? 0.5 : -0.5, ry = -0.5;
                int in = 4 * k + 2 * c, it = in + 1;
                s.body[2 * in] = s.body[2 * it] = k;
                s.jac[(2 * in) * 3 + 1] = 1, s.jac[(2 * in) * 3 + 2] = rx;
                s.jac[(2 * it) * 3 + 0] = 1, s.jac[(2 * it) * 3 + 2] = -ry;
                if (k > 0) { /* the box below: contact point at its top, r = (rx, +0.5) */
                    s.body[2 * in + 1] = s.body[2 * it + 1] = k - 1;
                    s.jac[(2 * in + 1) * 3 + 1] = -1, s.jac[(2 * in + 1) * 3 + 2] = -rx;
                    s.jac[(2 * it + 1) * 3 + 0] = -1, s.jac[(2 * it + 1) * 3 + 2] = 0.5;
                }
                fn[in] = -1, mu[in] = 0;
                fn[it] = in, mu[it] = 0.1 + gen_uniform(&g);
            }
        }
        gen_sys_form(&s);
        double f[16], a[16];
        imp_lcp_problem p = {nrow, s.A, s.b, NULL, fn, mu, NULL};
        imp_lcp_info info;
        imp_lcp_status st = solve(&p, f, a, &info);
        if (getenv("LCP_VERBOSE"))
            printf("friction trial %d N=%d: %s (%s) pivots=%d\n", trial, N, imp_lcp_status_name(st),
                   info.message, info.pivots);
        for (int i = 0; i < nrow; i++) CHECK(isfinite(f[i]) && isfinite(a[i]));
        if (st == IMP_LCP_OK) {
            solved++;
            double sf = 0, sa = 0;
            for (int i = 0; i < nrow; i++) sf = fmax(sf, fabs(f[i])), sa = fmax(sa, fabs(s.b[i]));
            sa += 20 * sf; /* max |A_ij| <= 1 + 6 * 0.5 * 2 here */
            double tf = 1e-9 * sf, ta = 1e-9 * sa;
            for (int i = 0; i < nrow; i++) {
                if (fn[i] < 0) {
                    CHECK(f[i] >= -tf && a[i] >= -ta && fabs(f[i] * a[i]) <= tf * sa);
                } else {
                    double bound = mu[i] * f[fn[i]];
                    CHECK(fabs(f[i]) <= bound + tf);
                    if (fabs(f[i]) < bound - tf) CHECK(fabs(a[i]) <= ta);       /* inside: stick */
                    else if (f[i] > 0) CHECK(a[i] <= ta);                      /* at +bound */
                    else if (f[i] < 0) CHECK(a[i] >= -ta);                     /* at -bound */
                }
            }
        }
        gen_sys_free(&s);
    }
    /* no termination guarantee exists with friction: today 58 of the 60 solve and the other
       2 (4-box stacks with degenerate stick/slip vertices) report a failure quickly */
    CHECK(solved >= 55);
}

/* ---- T18 the Siconos data files (column-major dense and sparse-block formats) ---- */
typedef struct dat { int n; double *A, *b; } dat;

static int read_dat(const char *path, dat *d)
{
    FILE *fp = fopen(path, "r");
    if (!fp) return -1;
    int n, st, s0, s1, ok = 1;
    ok &= fscanf(fp, "%d %d %d %d", &n, &st, &s0, &s1) == 4;
    d->n = n;
    d->A = gen_vec(n * n);
    d->b = gen_vec(n);
    if (ok && st == 0) {
        int r0, r1;
        ok &= fscanf(fp, "%d %d", &r0, &r1) == 2;
        for (int k = 0; ok && k < s0 * s1; k++) {
            double v;
            ok &= fscanf(fp, "%lf", &v) == 1;
            d->A[(k % s0) * n + k / s0] = v; /* column-major: value k is M[k % s0][k / s0] */
        }
    } else if (ok && st == 1) {
        int nbb, bn0, bn1, f1, f2;
        ok &= fscanf(fp, "%d", &nbb) == 1;
        ok &= fscanf(fp, "%d %d", &bn0, &bn1) == 2;
        int bs0[64], bs1[64], i1[65], i2[256];
        for (int k = 0; ok && k < bn0; k++) ok &= fscanf(fp, "%d", &bs0[k]) == 1;
        for (int k = 0; ok && k < bn1; k++) ok &= fscanf(fp, "%d", &bs1[k]) == 1;
        ok &= fscanf(fp, "%d %d", &f1, &f2) == 2;
        for (int k = 0; ok && k < f1; k++) ok &= fscanf(fp, "%d", &i1[k]) == 1;
        for (int k = 0; ok && k < f2; k++) ok &= fscanf(fp, "%d", &i2[k]) == 1;
        for (int r = 0; ok && r + 1 < f1; r++)
            for (int k = i1[r]; ok && k < i1[r + 1]; k++) {
                int num, c = i2[k];
                ok &= fscanf(fp, "%d", &num) == 1;
                int r0 = r ? bs0[r - 1] : 0, nr = bs0[r] - r0;
                int c0 = c ? bs1[c - 1] : 0, ncol = bs1[c] - c0;
                for (int e = 0; ok && e < nr * ncol; e++) {
                    double v;
                    ok &= fscanf(fp, "%lf", &v) == 1;
                    d->A[(r0 + e % nr) * n + c0 + e / nr] = v;
                }
            }
    } else {
        ok = 0;
    }
    for (int i = 0; ok && i < n; i++) ok &= fscanf(fp, "%lf", &d->b[i]) == 1;
    fclose(fp);
    return ok ? 0 : -1;
}

static int read_solution(const char *path, double *z, int n)
{
    FILE *fp = fopen(path, "r");
    if (!fp) return -1;
    int ok = 1;
    for (int i = 0; ok && i < n; i++) ok &= fscanf(fp, "%lf", &z[i]) == 1;
    fclose(fp);
    return ok ? 0 : -1;
}

/* Independent check for the small files: every complementary basis (f_S = -A_SS^-1 b_S by
   Gaussian elimination with partial pivoting, f = 0 off S) is tried and the distinct valid
   solutions are collected (up to `max` of them, into sols, n each). Returns their number;
   *singular counts the singular principal blocks skipped. O(2^n n^3). */
static int enumerate_general(int n, const double *A, const double *b, double *sols, int max, int *singular)
{
    int count = 0;
    *singular = 0;
    for (int mask = 0; mask < (1 << n); mask++) {
        double f[16];
        if (gen_support_solve(n, A, b, mask, 1e-12, f) != 0) {
            (*singular)++;
            continue;
        }
        int ok = 1;
        for (int i = 0; i < n; i++)
            if (f[i] < -1e-12) ok = 0;
        for (int i = 0; i < n && ok; i++) {
            double a = b[i];
            for (int j = 0; j < n; j++) a += A[i * n + j] * f[j];
            if (a < -1e-12) ok = 0;
        }
        if (!ok) continue;
        int dup = 0;
        for (int s2 = 0; s2 < count && s2 < max && !dup; s2++) {
            double d = 0;
            for (int i = 0; i < n; i++) d = fmax(d, fabs(sols[s2 * n + i] - f[i]));
            dup = d < 1e-12;
        }
        if (dup) continue;
        if (count < max) memcpy(sols + count * n, f, sizeof(double) * (size_t)n);
        count++;
    }
    return count;
}

/* expectation per file (spec/data/lcp/README.md and FORMAT.md): SOLVE = must return ok
   with valid residuals (and the reference z where unique); FAIL = must report a failure
   (no solution exists). Every file now solves or fails as documented: Baraff's method for
   the symmetric PSD ones, Lemke's method (src/lcp/lcp_lemke.c) for the rest. */
enum { SOLVE, FAIL };
typedef struct dcase { const char *name; int expect; int nz; double z[9]; } dcase;

TEST(t18_siconos_files)
{
    static const dcase cases[] = {
        {"lcp_trivial", SOLVE, 9, {1, 1. / 2, 1. / 3, 1. / 4, 1. / 5, 1. / 6, 1. / 7, 1. / 8, 1. / 9}},
        {"lcp_trivial_block", SOLVE, 9, {1, 1. / 2, 1. / 3, 1. / 4, 1. / 5, 1. / 6, 1. / 7, 1. / 8, 1. / 9}},
        {"lcp_deudeu", SOLVE, 2, {4. / 3, 7. / 3}},
        {"lcp_deudeu_block", SOLVE, 2, {4. / 3, 7. / 3}},
        {"lcp_mmc", SOLVE, -1, {0}},            /* symmetric PD; reference in solutions/ */
        {"lcp_CPS_1", SOLVE, 0, {0}},           /* PSD singular: z1 + z2 = 1 checked below */
        {"lcp_CPS_5", SOLVE, 0, {0}},           /* PSD singular, a ray of solutions */
        {"lcp_ortiz", SOLVE, 4, {2. / 3, 0, 1. / 3, 0}},       /* nonsymmetric P-matrix */
        {"lcp_ortiz_block", SOLVE, 4, {2. / 3, 0, 1. / 3, 0}},
        {"lcp_exp_murty", SOLVE, 6, {0, 0, 0, 0, 0, 1}},      /* P-matrix (triangular) */
        {"lcp_exp_murty2", SOLVE, 6, {0, 0, 0, 0, 0, 64}},
        {"lcp_CPS_4", SOLVE, 4, {2, 2, 2, 92}},               /* monotone nonsymmetric */
        {"lcp_CPS_4bis", SOLVE, 4, {3, 3, 0, 83}},
        {"lcp_Pang_isolated_sol_perturbed", FAIL, 0, {0}},    /* no solution */
        {"lcp_CPS_2", SOLVE, 3, {0, 1, 3}},     /* not PSD, zero diagonal; unique */
        {"lcp_CPS_3", SOLVE, 0, {0}},           /* bimatrix game: one of 3 solutions, below */
        {"lcp_Pang_isolated_sol", SOLVE, 3, {1, 0, 0}},       /* isolated, unique */
        {"lcp_inf_sol_perturbed", SOLVE, 0, {0}},             /* a ray of solutions, below */
        {"lcp_enum_fails", SOLVE, -2, {0}},     /* frictional (not PSD), q ~ 1e-9 */
        {"lcp_tobenna", SOLVE, 0, {0}},         /* game matrix, degenerate: not unique */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char path[256];
        snprintf(path, sizeof path, "spec/data/lcp/siconos/%s.dat", cases[c].name);
        dat d;
        if (read_dat(path, &d) != 0) {
            CHECK_FAIL_AT("cannot read %s (run from the repository root)", path);
            return;
        }
        int n = d.n;
        double *f = gen_vec(n), *a = gen_vec(n);
        imp_lcp_problem p = {n, d.A, d.b, NULL, NULL, NULL, NULL};
        imp_lcp_info info;
        imp_lcp_status st = solve(&p, f, a, &info);
        verdict v = verify(&p, f, 1e-9);
        if (getenv("LCP_VERBOSE"))
            printf("%-34s n=%-3d %-12s %-10s pivots=%d valid=%d %s\n", cases[c].name, n,
                   imp_lcp_status_name(st), method_name(info.method), info.pivots, v.ok, info.message);
        if (st == IMP_LCP_OK && !v.ok) CHECK_FAIL_AT("%s: ok status but invalid solution", cases[c].name);
        if (cases[c].expect == SOLVE && st != IMP_LCP_OK)
            CHECK_FAIL_AT("%s: expected a solution, got %s (%s)", cases[c].name, imp_lcp_status_name(st), info.message);
        if (cases[c].expect == FAIL && st == IMP_LCP_OK)
            CHECK_FAIL_AT("%s: expected a failure report", cases[c].name);
        if (st == IMP_LCP_OK) {
            for (int i = 0; i < cases[c].nz; i++) CHECK_NEAR(f[i], cases[c].z[i], 1e-9 * (1 + v.sf));
        }
        if (strcmp(cases[c].name, "lcp_CPS_1") == 0) CHECK_NEAR(f[0] + f[1], 1.0, 1e-14);
        if (strcmp(cases[c].name, "lcp_CPS_5") == 0) CHECK_NEAR(f[1] - f[0], 1.0, 1e-14);
        if (cases[c].nz < 0) {
            /* mmc: unique (PD); enum_fails: the one basic solution enumeration finds */
            double *z = gen_vec(n);
            CHECK(read_solution(cases[c].nz == -1 ? "spec/data/lcp/siconos/solutions/lcp_mmc.z.txt"
                                                  : "spec/data/lcp/siconos/solutions/lcp_enum_fails.z.txt",
                                z, n) == 0);
            for (int i = 0; i < n; i++) CHECK_NEAR(f[i], z[i], 1e-9 * v.sf);
            free(z);
        }
        if (strcmp(cases[c].name, "lcp_CPS_3") == 0) {
            /* the three documented solutions; ours must be one of them */
            static const double s3[3][4] = {{0.1, 0, 0.1, 0}, {0, 1. / 15, 0, 1. / 15},
                                            {1. / 90, 2. / 45, 1. / 90, 2. / 45}};
            double best = INFINITY;
            for (int k = 0; k < 3; k++) {
                double dev = 0;
                for (int i = 0; i < 4; i++) dev = fmax(dev, fabs(f[i] - s3[k][i]));
                best = fmin(best, dev);
            }
            CHECK(best < 1e-12);
        }
        if (strcmp(cases[c].name, "lcp_inf_sol_perturbed") == 0) {
            /* worked out by hand: a_1 = f_0 - 1 >= 0 and a_2 = 1 - f_0 >= 0 force f_0 = 1,
               then f_0 > 0 forces a_0 = f_2 - f_1 - 1e-4 = 0: every (1, t, t + 1e-4), t >= 0,
               is a solution (the README's (1, 0, 1e-4) is the one with t = 0) */
            CHECK_NEAR(f[0], 1.0, 1e-12);
            CHECK_NEAR(f[2] - f[1], 1e-4, 1e-15);
        }
        if (n <= 9 && strcmp(cases[c].name, "lcp_mmc") != 0) {
            /* the documented number of basic solutions, by the independent enumeration */
            double sols[16 * 9];
            int singular;
            int count = enumerate_general(n, d.A, d.b, sols, 16, &singular);
            int want = -1;
            if (strcmp(cases[c].name, "lcp_CPS_2") == 0 || strcmp(cases[c].name, "lcp_Pang_isolated_sol") == 0 ||
                strcmp(cases[c].name, "lcp_enum_fails") == 0)
                want = 1;
            if (strcmp(cases[c].name, "lcp_CPS_3") == 0) want = 3;
            if (strcmp(cases[c].name, "lcp_Pang_isolated_sol_perturbed") == 0) want = 0;
            if (want >= 0 && count != want) CHECK_FAIL_AT("%s: %d basic solutions, documented %d", cases[c].name, count, want);
            if (want == 1) {
                for (int i = 0; i < n; i++) CHECK_NEAR(f[i], sols[i], 1e-9 * (1 + v.sf));
            }
        }
        if (strcmp(cases[c].name, "lcp_Pang_isolated_sol_perturbed") == 0) {
            /* row 0 reads a_0 = -f_1 - f_2 - 1e-4 < 0: a proof, so "infeasible" */
            CHECK(st == IMP_LCP_INFEASIBLE);
        }
        free(f), free(a), free(d.A), free(d.b);
        if (check_current_failed) return;
    }
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(t1_diagonal);
    RUN(force_scale);
    RUN(t2_tiny);
    RUN(t3_random_pd);
    RUN(t4_random_psd_rank_deficient);
    RUN(t5_degenerate_b);
    RUN(t6_duplicates);
    RUN(t7_box3d);
    RUN(t8_box2d);
    RUN(t9_stack2d);
    RUN(t10_stack3d);
    RUN(t11_brick_wall);
    RUN(t12_bilateral_chain);
    RUN(t13_bilateral_redundant);
    RUN(t13b_weld_beside_contact);
    RUN(t13c_weld_pair_coincident);
    RUN(t14_infeasible);
    RUN(t16_mass_ratio);
    RUN(t17_impulses);
    RUN(permutation_and_warm_start);
    RUN(status_and_bad_input);
    RUN(methods_agree);
    RUN(chol_updates);
    RUN(t18_siconos_files);
    RUN(t19_friction_slope_2d);
    RUN(t19_friction_slope_3d);
    RUN(small_psd_vs_enumeration);
    RUN(friction_random_honest);
    return CHECK_END("lcp");
}
