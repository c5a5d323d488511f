/* lcp_newton.c: a semismooth Newton finish for the frictional LCP of lcp.h, for the problems
   on which every pivoting path runs to its cap (the redundant, coincident contacts of large
   stacks: the 55-box pyramid's normal block has rank 163 of 290). It starts from a point
   near the answer (the failed methods' last iterate, then projected Gauss-Seidel sweeps on A)
   and solves the min map
       normal row:     F_i = f_i - max(0, f_i - a_i / A_ii)
       bilateral row:  F_i = a_i / A_ii
       static friction row (normal k, bound h = mu_i max(f_k, 0)):
                       F_i = f_i - clamp(f_i - a_i / A_ii, -h, h)
       sliding row:    F_i = f_i + sliding_i mu_i f_k
   (a = A f + b; F = 0 exactly when f solves the LCP). At f each row is on one piece of F:
   a row whose F is a_i / A_ii (a normal row pressed, a bilateral row, friction inside its
   bounds) asks (A d)_i = -a_i; a normal row left free asks f_i + d_i = 0; a friction row at
   a bound or sliding asks f_i + d_i = s mu_i (f_k + d_k). The last two fix d on their rows
   from the first kind's unknowns y (d = c + P y), so Newton's step is a square system
   K y = r on the pressed rows (K = (A P) scaled by 1 / A_ii): the equality system of the
   guessed active set. On redundant rows K is singular (its rank is the bodies' coordinates),
   so the step is Levenberg-Marquardt's, (K^T K + lambda I) y = K^T r with lambda shrinking
   with |F| (Yamashita and Fukushima 2001: quadratic convergence without a nonsingular
   Jacobian when the solutions form a set, as with redundant contacts), dense Cholesky; a
   backtracking line search on |F|^2 / 2; lambda raised when no step decreases it. An answer
   is returned as IMP_LCP_OK only when imp_lcp_check passes at 1e-2 lim->tol on A itself and
   |F| is at rounding (IMP_NEWTON_FTOL).
   Cost: O(n^2) per sweep and per line-search trial, O(m^3) per Newton step for m pressed
   rows (0.05 to 0.2 s at m = 300 to 400). Buffers in ws, grown on demand and kept. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cholesky.h"
#include "lcp_internal.h"

enum { P_EQ, P_ZERO, P_BOUND };

#define IMP_NEWTON_POLISH 2
/* An iterate is taken when it passes the residual test at this fraction of the caller's
   tolerance: Newton's steps reach the answer of the right pattern to rounding, and one
   that stalls just inside the tolerance (a pyramid's bodies still accelerating at 2e-6
   m/s^2, within 1e-8 of the problem's scale) is on a wrong one */
#define IMP_NEWTON_TIGHTER 1e-2
/* and when its min map is at rounding, |F|_inf <= IMP_NEWTON_FTOL (1 + max|f|) (F in force
   units: a pressed row's a_i / A_ii, a free row's f_i): Newton's steps on the answer's
   pattern converge quadratically, from 1e-10 to 1e-15 relative in one step. The residual
   test alone let through an iterate that stalled at |F| = 1.6e-10 (1 + max|f|) on a
   28-box pyramid (test_lcp_newton's pyramid 19, warm from the longer Lemke path's answer):
   Coulomb's conditions held at 1e-8, but a box still accelerated at 2.3e-8 g, the
   redundant rows hiding it inside the complementarity product's scale */
#define IMP_NEWTON_FTOL 1e-12

typedef struct newton {
    const imp_lcp_problem *p;
    int n;
    double *a, *F, *d, *c, *ac, *ft, *K, *G, *r, *y, *dia, *pass;
    int *piece, *col, *eq;
    signed char *sign;
} newton;

static int newton_reserve(imp_lcp_workspace *ws, int n)
{
    size_t c = (size_t)n, need = 2 * c * c + 11 * c + 1;
    if (need > ws->newt_cap) {
        free(ws->newt);
        ws->newt = malloc(need * sizeof(double));
        ws->newt_cap = ws->newt != NULL ? need : 0;
        if (ws->newt == NULL) return -1;
    }
    if (3 * c + 1 > ws->newt_icap) {
        free(ws->newt_i);
        ws->newt_i = malloc((3 * c + 1) * sizeof(int));
        ws->newt_icap = ws->newt_i != NULL ? 3 * c + 1 : 0;
        if (ws->newt_i == NULL) return -1;
    }
    return 0;
}

static int fric_row(const imp_lcp_problem *p, int i)
{
    return p->friction_normal != NULL && p->friction_normal[i] >= 0;
}

static int bil_row(const imp_lcp_problem *p, int i)
{
    return p->bilateral != NULL && p->bilateral[i];
}

static int sliding_of(const imp_lcp_problem *p, int i)
{
    return p->sliding != NULL ? p->sliding[i] : 0;
}

/* a = A f + b. O(n^2). */
static void residual_a(const imp_lcp_problem *p, const double *f, double *a)
{
    int n = p->n;
    for (int i = 0; i < n; i++) {
        const double *row = p->A + (size_t)i * n;
        double s = p->b[i];
        for (int j = 0; j < n; j++) s += row[j] * f[j];
        a[i] = s;
    }
}

/* F of f (a given) and each row's piece and sign; returns |F|^2 / 2. O(n). */
static double min_map(const newton *N, const double *f, const double *a, double *F, int *piece,
                      signed char *sign)
{
    const imp_lcp_problem *p = N->p;
    double theta = 0.0;
    for (int i = 0; i < N->n; i++) {
        double g = a[i] / N->dia[i], u = f[i] - g, v;
        int pc = P_EQ, s = 0;
        if (bil_row(p, i)) {
            v = g;
        } else if (!fric_row(p, i)) {
            if (u > 0.0) {
                v = g;
            } else {
                v = f[i];
                pc = P_ZERO;
            }
        } else {
            int k = p->friction_normal[i];
            double h = p->mu[i] * fmax(f[k], 0.0);
            if (sliding_of(p, i) != 0) {
                s = -sliding_of(p, i);
                v = f[i] - s * p->mu[i] * f[k];
                pc = P_BOUND;
            } else if (u >= h && u > 0.0) {
                v = f[i] - h;
                pc = P_BOUND;
                s = 1;
            } else if (u <= -h && u < 0.0) {
                v = f[i] + h;
                pc = P_BOUND;
                s = -1;
            } else {
                v = g;
            }
        }
        F[i] = v;
        theta += 0.5 * v * v;
        if (piece != NULL) {
            piece[i] = pc;
            sign[i] = (signed char)s;
        }
    }
    return theta;
}

/* Projected Gauss-Seidel sweeps on A in row order (friction bounds from the current normal
   forces), f updated in place. O(n^2) a sweep. */
static void pgs_sweeps(const imp_lcp_problem *p, const double *dia, int sweeps, double *f)
{
    int n = p->n;
    for (int s = 0; s < sweeps; s++) {
        for (int i = 0; i < n; i++) {
            const double *row = p->A + (size_t)i * n;
            double ai = p->b[i];
            for (int j = 0; j < n; j++) ai += row[j] * f[j];
            double v = f[i] - ai / dia[i];
            if (fric_row(p, i)) {
                int k = p->friction_normal[i];
                double h = p->mu[i] * fmax(f[k], 0.0);
                v = sliding_of(p, i) != 0 ? -sliding_of(p, i) * h : fmin(fmax(v, -h), h);
            } else if (!bil_row(p, i)) {
                v = fmax(v, 0.0);
            }
            f[i] = v;
        }
    }
}

/* The Newton direction d at f (a, F and the pieces set) with the LM parameter lambda
   (relative to K^T K's largest diagonal). 0, or -1 when the system could not be solved.
   O(n m + m^3). */
static int direction(newton *N, const double *f, double lambda)
{
    const imp_lcp_problem *p = N->p;
    int n = N->n, m = 0;
    for (int i = 0; i < n; i++) {
        N->col[i] = -1;
        if (N->piece[i] == P_EQ) {
            N->col[i] = m;
            N->eq[m++] = i;
        }
    }
    /* d = c + P y: the constant part (normal rows first: a bound row follows its normal) */
    for (int i = 0; i < n; i++) N->c[i] = N->piece[i] == P_ZERO ? -f[i] : 0.0;
    for (int i = 0; i < n; i++) {
        if (N->piece[i] != P_BOUND) continue;
        int k = p->friction_normal[i];
        N->c[i] = N->sign[i] * p->mu[i] * (f[k] + N->c[k]) - f[i];
    }
    /* r = -(a + A c) / A_ii and K = (A P) / A_ii on the pressed rows */
    for (int e = 0; e < m; e++) {
        int i = N->eq[e];
        const double *row = p->A + (size_t)i * n;
        double s = N->a[i];
        for (int j = 0; j < n; j++) s += row[j] * N->c[j];
        N->r[e] = -s / N->dia[i];
        double *ke = N->K + (size_t)e * m;
        for (int q = 0; q < m; q++) ke[q] = row[N->eq[q]];
        for (int j = 0; j < n; j++) {
            if (N->piece[j] != P_BOUND) continue;
            int k = p->friction_normal[j];
            if (N->col[k] >= 0) ke[N->col[k]] += N->sign[j] * p->mu[j] * row[j];
        }
        for (int q = 0; q < m; q++) ke[q] /= N->dia[i];
    }
    /* G = K^T K + lambda max diag I (its lower triangle: the solve reads no more), y = K^T r */
    for (int q = 0; q < m; q++) {
        double *gq = N->G + (size_t)q * m;
        memset(gq, 0, sizeof(double) * (size_t)(q + 1));
        N->y[q] = 0.0;
    }
    for (int e = 0; e < m; e++) {
        const double *ke = N->K + (size_t)e * m;
        double re = N->r[e];
        for (int q = 0; q < m; q++) {
            double kq = ke[q];
            if (kq == 0.0) continue;
            double *gq = N->G + (size_t)q * m;
            for (int l = 0; l <= q; l++) gq[l] += kq * ke[l];
            N->y[q] += kq * re;
        }
    }
    double gmax = 0.0;
    for (int q = 0; q < m; q++) gmax = fmax(gmax, N->G[(size_t)q * m + q]);
    for (int q = 0; q < m; q++) N->G[(size_t)q * m + q] += lambda * gmax + DBL_MIN;
    if (m > 0 && imp_cholesky_solve(N->G, m, N->y, m, 0.0) != 0) return -1;
    for (int i = 0; i < n; i++) N->d[i] = N->piece[i] == P_EQ ? N->y[N->col[i]] : N->c[i];
    for (int i = 0; i < n; i++) {
        if (N->piece[i] != P_BOUND) continue;
        int k = p->friction_normal[i];
        N->d[i] = N->sign[i] * p->mu[i] * (f[k] + N->d[k]) - f[i];
    }
    for (int i = 0; i < n; i++) {
        if (!isfinite(N->d[i])) return -1;
    }
    return 0;
}

imp_lcp_status imp_lcp_solve_newton(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                    int sweeps, int max_steps, imp_lcp_workspace *ws,
                                    double *f, imp_lcp_info *info, const char **msg)
{
    int n = p->n;
    if (newton_reserve(ws, n) != 0) {
        *msg = "out of memory for the Newton finish";
        return IMP_LCP_NO_MEMORY;
    }
    newton N;
    N.p = p;
    N.n = n;
    double *w = ws->newt;
    N.K = w;
    N.G = w + (size_t)n * n;
    N.a = N.G + (size_t)n * n;
    N.F = N.a + n;
    N.d = N.F + n;
    N.c = N.d + n;
    N.ac = N.c + n;
    N.ft = N.ac + n;
    N.r = N.ft + n;
    N.y = N.r + n;
    N.dia = N.y + n;
    N.piece = ws->newt_i;
    N.col = N.piece + n;
    N.eq = N.col + n;
    N.pass = N.dia + n;
    N.sign = (signed char *)(N.pass + n); /* (n bytes in the last spare run of n doubles) */
    for (int i = 0; i < n; i++) {
        double dd = p->A[(size_t)i * n + i];
        N.dia[i] = dd > 0.0 ? dd : 1.0;
        if (!isfinite(f[i])) f[i] = 0.0;
    }
    pgs_sweeps(p, N.dia, sweeps, f);
    residual_a(p, f, N.a);
    double theta = min_map(&N, f, N.a, N.F, N.piece, N.sign);
    /* once f passes, up to IMP_NEWTON_POLISH more steps (quadratic near the answer: the
       rows' residuals then go well below the tolerance, as a pivoting answer's do); the
       last passing iterate is returned */
    int steps = 0, passed = 0;
    for (; steps < max_steps + passed; steps++) {
        double fmaxv = 0.0, Fmax = 0.0;
        for (int i = 0; i < n; i++) {
            fmaxv = fmax(fmaxv, fabs(f[i]));
            Fmax = fmax(Fmax, fabs(N.F[i]));
        }
        if (Fmax <= IMP_NEWTON_FTOL * (1.0 + fmaxv)
            && imp_lcp_check(p, f, N.ac, IMP_NEWTON_TIGHTER * lim->tol, info)) {
            memcpy(N.pass, f, sizeof(double) * (size_t)n);
            if (++passed > IMP_NEWTON_POLISH) break;
        } else if (passed) {
            break;
        }
        if (passed && Fmax <= 1e-13 * (1.0 + fmaxv)) break;
        /* Levenberg-Marquardt's parameter with the relative size of F (at least 1e-13:
           rounding), raised a hundredfold when no step along the direction decreases
           |F|^2 */
        double mu_lm = fmin(fmax(Fmax / (1.0 + fmaxv), 1e-13), 1e-2);
        int taken = 0;
        for (int tries = 0; tries < 4 && !taken; tries++, mu_lm *= 100.0) {
            if (direction(&N, f, mu_lm) != 0) continue;
            for (double t = 1.0; t > 1e-3 && !taken; t *= 0.5) {
                for (int i = 0; i < n; i++) N.ft[i] = f[i] + t * N.d[i];
                residual_a(p, N.ft, N.ac);
                double th = min_map(&N, N.ft, N.ac, N.r, NULL, NULL);
                if (th <= (1.0 - 1e-4 * t) * theta) {
                    memcpy(f, N.ft, sizeof(double) * (size_t)n);
                    memcpy(N.a, N.ac, sizeof(double) * (size_t)n);
                    theta = min_map(&N, f, N.a, N.F, N.piece, N.sign);
                    taken = 1;
                }
            }
        }
        if (!taken) break;
    }
    info->pivots += steps;
    int status = passed;
    if (passed) {
        memcpy(f, N.pass, sizeof(double) * (size_t)n);
        residual_a(p, f, N.a);
        min_map(&N, f, N.a, N.F, N.piece, N.sign);
    }
    imp_lcp_check(p, f, N.ac, lim->tol, info);
    /* the row states of the pieces (lcp.h states) */
    for (int i = 0; i < n; i++) {
        signed char s = IMP_LCP_STATE_CLAMPED;
        if (N.piece[i] == P_ZERO) s = IMP_LCP_STATE_FREE;
        if (N.piece[i] == P_BOUND)
            s = sliding_of(p, i) != 0 ? IMP_LCP_STATE_SLIDING
                : N.sign[i] > 0 ? IMP_LCP_STATE_UPPER : IMP_LCP_STATE_LOWER;
        ws->st[i] = s;
    }
    if (!status) {
        *msg = "the Newton finish did not reach the tolerance";
        return IMP_LCP_NUMERICAL;
    }
    *msg = "solved by the semismooth Newton finish (min map, Levenberg-Marquardt steps)";
    return IMP_LCP_OK;
}
