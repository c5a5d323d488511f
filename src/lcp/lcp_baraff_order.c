/* lcp_baraff_order.c: Baraff 94 ("Fast contact force computation for nonpenetrating rigid
   bodies", sections 4-5) as myPhysicsLab's ComputeForces applies it, written from the
   description in /work/shared/reference/myphysicslab.md and its documented behaviour: the
   rows are treated one at a time, each driven to zero acceleration (drive) while the
   clamped set C keeps zero acceleration and the unclamped set NC zero force; a row whose
   addition would make the clamped matrix singular is deferred to R and treated last.

   Order (its HYBRID policy): at every choice a fresh random order of all n rows is drawn
   (n numbers of the generator); an untreated joint is taken first in that order, else the
   untreated non-joint with the most negative acceleration (the first such in index order),
   else the deferred row with the largest unwanted acceleration above 1e-8 that has not been
   deferred again since the last success. The draws are part of the result: the same
   generator orders serial collision handling (engine2d_impulse.c).

   Tolerances: 1e-10 for zero accelerations and forces, 2e-3 for the smallest pivot of a
   non-singular clamped matrix (elimination with scaled partial pivoting, a column without a
   pivot above 1e-9 rotated to the end), steps above 1e5 or without a limiting row give up
   the row (deferred when it has no force yet), a second zero step by the same row defers it
   (flip-flop), and the whole solve stops when, every row treated, a pattern of the sets and
   the row chosen repeats (loop detection).

   Cost: every step solves the clamped system from scratch, O(c^3); a row takes a few steps,
   so O(n^4) per solve in the worst case, as myPhysicsLab's. */
#include "lcp_baraff_order.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "resize.h"

#define TINY 1e-10       /* zero acceleration or force */
#define SINGULAR 2e-3    /* smallest pivot of a non-singular clamped matrix */
#define PIVOT_ZERO 1e-9  /* a pivot below this is no pivot */

void imp_baraff_free(imp_baraff_ws *ws)
{
    free(ws->a);
    free(ws->da);
    free(ws->df);
    free(ws->acc);
    free(ws->x);
    free(ws->scale);
    free(ws->nrow);
    free(ws->ncol);
    free(ws->perm);
    free(ws->states);
    free(ws->C);
    free(ws->NC);
    free(ws->R);
    free(ws->rerej);
    free(ws->zero);
    free(ws->taken);
    memset(ws, 0, sizeof *ws);
}

static int reserve(imp_baraff_ws *ws, int n)
{
    if (n <= ws->cap) {
        return 0;
    }
    size_t m = (size_t)(n < 16 ? 16 : n), d = sizeof(double), i = sizeof(int);
    double **dbl[5] = {&ws->a, &ws->da, &ws->df, &ws->x, &ws->scale};
    unsigned char **flags[6] = {&ws->C, &ws->NC, &ws->R, &ws->rerej, &ws->zero, &ws->taken};
    for (int k = 0; k < 5; k++) {
        if (imp_resize(dbl[k], m * d) != 0) {
            return -1;
        }
    }
    for (int k = 0; k < 6; k++) {
        if (imp_resize(flags[k], m) != 0) {
            return -1;
        }
    }
    if (imp_resize(&ws->acc, m * (m + 1) * d) != 0 || imp_resize(&ws->nrow, m * i) != 0
        || imp_resize(&ws->ncol, (m + 1) * i) != 0 || imp_resize(&ws->perm, m * i) != 0) {
        return -1;
    }
    ws->cap = (int)m;
    return 0;
}

/* Gaussian elimination of the m x (m + 1) augmented matrix M (row stride m + 1) with scaled
   partial pivoting; a column whose best pivot is below PIVOT_ZERO is rotated to the end
   (at most m - 1 - c times at column c, then elimination stops). nrow receives the row
   order (rows after a zero input row are left 0), x the solution with undetermined
   variables 0. Returns -1, or the row that has no solution (a zero input row, or a left
   over row whose right-hand side exceeds 0.1). O(m^3). */
static int eliminate(double *M, int m, double *x, int *nrow, int *ncol, double *scale)
{
    const int w = m + 1;
    for (int i = 0; i < m; i++) {
        nrow[i] = i;
        ncol[i] = i;
        scale[i] = 0.0;
        for (int j = 0; j < m; j++) {
            if (fabs(M[i * w + j]) > scale[i]) {
                scale[i] = fabs(M[i * w + j]);
            }
        }
        if (scale[i] < TINY) {
            return i;
        }
    }
    ncol[m] = m;
    int r = 0;
    for (int c = 0, stop = 0; c < m && !stop; c++) {
        for (int swaps = 0;;) {
            int p = r;
            double best = fabs(M[nrow[p] * w + ncol[c]]) / scale[nrow[p]];
            for (int j = r + 1; j < m; j++) {
                double v = fabs(M[nrow[j] * w + ncol[c]]) / scale[nrow[j]];
                if (v > best) {
                    best = v;
                    p = j;
                }
            }
            if (fabs(M[nrow[p] * w + ncol[c]]) < PIVOT_ZERO) {
                if (swaps >= m - 1 - c) {
                    stop = 1;
                    break;
                }
                int first = ncol[c];
                for (int j = c; j < m - 1; j++) {
                    ncol[j] = ncol[j + 1];
                }
                ncol[m - 1] = first;
                swaps++;
                continue;
            }
            int t = nrow[r];
            nrow[r] = nrow[p];
            nrow[p] = t;
            const double *pr = M + (size_t)nrow[r] * (size_t)w;
            for (int j = r + 1; j < m; j++) {
                double *rj = M + (size_t)nrow[j] * (size_t)w;
                double f = rj[ncol[c]] / pr[ncol[c]];
                for (int k = 0; k <= m; k++) {
                    rj[ncol[k]] -= f * pr[ncol[k]];
                }
            }
            r++;
            break;
        }
    }
    r--;
    for (int i = r + 1; i < m; i++) {
        if (fabs(M[nrow[i] * w + m]) > 0.1) {
            return nrow[i];
        }
    }
    for (int c = m - 1, last = m; r >= 0;) {
        const double *row = M + (size_t)nrow[r] * (size_t)w;
        int left = -1;
        for (int k = c; k >= r; k--) {
            if (fabs(row[ncol[k]]) > PIVOT_ZERO) {
                left = k;
            }
        }
        if (left != -1) {
            c = left;
        }
        if (fabs(row[ncol[c]]) < PIVOT_ZERO) {
            r--;
            continue;
        }
        for (int j = c + 1; j < last; j++) {
            x[ncol[j]] = 0.0;
        }
        last = c;
        double sum = 0.0;
        for (int j = c + 1; j < m; j++) {
            sum += row[ncol[j]] * x[ncol[j]];
        }
        x[ncol[c]] = (row[m] - sum) / row[ncol[c]];
        c--;
        r--;
    }
    return -1;
}

typedef struct solve_ctx {
    imp_baraff_ws *ws;
    int n;
    const double *A;
    const unsigned char *joint;
    double *f, *a, step;
} solve_ctx;

/* The clamped matrix with rows extra1, extra2 (-1: none) added, eliminated: whether its
   smallest pivot (the eliminated diagonal read in column order) is below SINGULAR. */
static int would_be_singular(solve_ctx *s, int extra1, int extra2)
{
    imp_baraff_ws *ws = s->ws;
    int n = s->n, m = 0;
    for (int i = 0; i < n; i++) {
        m += ws->C[i] || i == extra1 || i == extra2;
    }
    const int w = m + 1;
    for (int i = 0, p = 0; i < n; i++) {
        if (!(ws->C[i] || i == extra1 || i == extra2)) {
            continue;
        }
        for (int j = 0, q = 0; j < n; j++) {
            if (ws->C[j] || j == extra1 || j == extra2) {
                ws->acc[p * w + q++] = s->A[(size_t)i * (size_t)n + (size_t)j];
            }
        }
        ws->acc[p * w + m] = 1.0;
        ws->x[p] = 0.0;
        ws->nrow[p] = 0;
        p++;
    }
    (void)eliminate(ws->acc, m, ws->x, ws->nrow, ws->ncol, ws->scale);
    double least = INFINITY;
    for (int i = 0; i < m; i++) {
        double v = fabs(ws->acc[ws->nrow[i] * w + i]);
        if (v < least) {
            least = v;
        }
    }
    return least < SINGULAR;
}

/* The direction of a unit force at d with the clamped rows kept at zero acceleration:
   df (df[d] = 1, A_CC df_C = -A_Cd) and da = A df. 0, or 1 when the system has no
   solution. */
static int direction(solve_ctx *s, int d)
{
    imp_baraff_ws *ws = s->ws;
    int n = s->n, m = 0;
    for (int i = 0; i < n; i++) {
        ws->df[i] = 0.0;
        m += ws->C[i];
    }
    ws->df[d] = 1.0;
    if (m > 0) {
        const int w = m + 1;
        for (int i = 0, p = 0; i < n; i++) {
            if (!ws->C[i]) {
                continue;
            }
            for (int j = 0, q = 0; j < n; j++) {
                if (ws->C[j]) {
                    ws->acc[p * w + q++] = s->A[(size_t)i * (size_t)n + (size_t)j];
                }
            }
            ws->acc[p * w + m] = -s->A[(size_t)i * (size_t)n + (size_t)d];
            ws->x[p] = 0.0;
            ws->nrow[p] = 0;
            p++;
        }
        if (eliminate(ws->acc, m, ws->x, ws->nrow, ws->ncol, ws->scale) != -1) {
            return 1;
        }
        for (int i = 0, p = 0; i < n; i++) {
            if (ws->C[i]) {
                ws->df[i] = ws->x[p++];
            }
        }
    }
    for (int i = 0; i < n; i++) {
        double v = 0.0;
        for (int j = 0; j < n; j++) {
            v += s->A[(size_t)i * (size_t)n + (size_t)j] * ws->df[j];
        }
        ws->da[i] = v;
    }
    return 0;
}

/* The largest step along (df, da) before a row other than d changes between C and NC, or
   d reaches zero acceleration, into s->step; returns the row that limits it (-1: none).
   Joints never limit (their force is free) unless driven themselves or unclamped. */
static int max_step(solve_ctx *s, int d)
{
    imp_baraff_ws *ws = s->ws;
    const unsigned char *joint = s->joint;
    double *f = s->f, *a = s->a, *df = ws->df, *da = ws->da;
    double st = joint[d] && a[d] > 0.0 ? -INFINITY : INFINITY;
    int j = -1;
    if (joint[d] || da[d] > 0.0) {
        j = d;
        st = -a[d] / da[d];
    }
    double sign = st > 0.0 ? 1.0 : -1.0;
    for (int i = 0; i < s->n; i++) {
        if (!joint[i] && ws->C[i] && df[i] * sign < -1e-14) {
            double sp = -f[i] / df[i];
            if (sp * sign < 0.0) {
                sp = 0.0;  /* a force gone slightly negative: a zero step unclamps it */
            }
            if (sp * sign < st * sign) {
                st = sp;
                j = i;
            }
        }
    }
    for (int i = 0; i < s->n; i++) {
        if (ws->NC[i] && ((!joint[i] && da[i] * sign < -1e-14) || (joint[i] && fabs(da[i] * sign) > 1e-14))) {
            double sp = -a[i] / da[i];
            if (sp * sign < 0.0) {
                sp = 0.0;
            }
            if (sp * sign < st * sign) {
                st = sp;
                j = i;
            }
        }
    }
    s->step = st;
    return j;
}

static void defer(imp_baraff_ws *ws, int j)
{
    ws->C[j] = 0;
    ws->NC[j] = 0;
    ws->R[j] = 1;
}

/* Drives row d to zero acceleration (joints) or to a >= 0 with complementarity. Returns -1
   done (d in C or NC), a row to defer (>= 0), or -2 given up. */
static int drive(solve_ctx *s, int d)
{
    imp_baraff_ws *ws = s->ws;
    const unsigned char *joint = s->joint;
    double *f = s->f, *a = s->a;
    int n = s->n;
    if ((!joint[d] && a[d] >= -TINY) || (joint[d] && fabs(a[d]) <= TINY)) {
        ws->NC[d] = 1;
        return -1;
    }
    if (would_be_singular(s, d, -1) && !ws->R[d]) {
        return d;
    }
    for (int i = 0; i < n; i++) {
        ws->da[i] = 0.0;
        ws->df[i] = 0.0;
        ws->zero[i] = 0;
    }
    double tol = TINY;
    long steps = 0;
    while ((!joint[d] && a[d] < -tol) || (joint[d] && fabs(a[d]) > tol)) {
        if (direction(s, d) != 0) {
            return -2;
        }
        int j = max_step(s, d);
        if (j < 0 || fabs(s->step) > 1e5) {
            if (fabs(f[d]) < TINY) {
                return d;
            }
            if (fabs(a[d]) < 1e-5) {
                tol = 1.1 * fabs(a[d]);
                continue;
            }
            return -2;
        }
        if (fabs(s->step) < 1e-12) {
            if (ws->zero[j]) {
                defer(ws, j);  /* flip-flop: a second zero step by the same row */
            }
            ws->zero[j] = 1;
        }
        for (int i = 0; i < n; i++) {
            f[i] += s->step * ws->df[i];
            a[i] += s->step * ws->da[i];
        }
        if (++steps > 1000L * n) {
            return -2;
        }
        if (ws->NC[j] && would_be_singular(s, d, j) && !ws->R[j]) {
            defer(ws, j);
            continue;
        }
        if (ws->C[j]) {
            if (fabs(a[j]) > TINY) {
                if (fabs(f[j]) > 10.0 * TINY) {
                    return -2;
                }
                defer(ws, j);  /* drifted: treat it again later */
            } else {
                ws->C[j] = 0;
                ws->NC[j] = 1;
            }
        } else if (ws->NC[j]) {
            if (fabs(f[j]) > TINY) {
                defer(ws, j);
            } else {
                ws->C[j] = 1;
                ws->NC[j] = 0;
            }
        }
    }
    ws->C[d] = fabs(f[d]) > TINY;
    ws->NC[d] = !ws->C[d];
    return -1;
}

/* The next row to treat (module comment), drawing n numbers; -1: none left. */
static int next_row(solve_ctx *s, imp_lcg *g)
{
    imp_baraff_ws *ws = s->ws;
    int n = s->n;
    imp_lcg_random_ints(g, n, ws->perm, ws->taken);
    for (int k = 0; k < n; k++) {
        int i = ws->perm[k];
        if (s->joint[i] && !ws->C[i] && !ws->NC[i] && !ws->R[i]) {
            return i;
        }
    }
    double least = INFINITY;
    int j = -1;
    for (int i = 0; i < n; i++) {
        if (!s->joint[i] && !ws->C[i] && !ws->NC[i] && !ws->R[i] && s->a[i] < least) {
            least = s->a[i];
            j = i;
        }
    }
    if (j >= 0) {
        return j;
    }
    double worst = 0.0;
    for (int i = 0; i < n; i++) {
        if (ws->R[i] && !ws->rerej[i]
            && ((!s->joint[i] && s->a[i] < -worst) || (s->joint[i] && fabs(s->a[i]) > worst))) {
            worst = fabs(s->a[i]);
            j = i;
        }
    }
    return j >= 0 && worst > 100.0 * TINY ? j : -1;
}

/* Once every row is in C, NC or R: whether the pattern of the sets with d has been seen in
   this solve (then it stops); a new pattern is recorded. 0 no, 1 yes, -1 out of memory. */
static int seen_before(solve_ctx *s, int d)
{
    imp_baraff_ws *ws = s->ws;
    int n = s->n;
    for (int i = 0; i < n; i++) {
        if (!ws->C[i] && !ws->NC[i] && !ws->R[i]) {
            return 0;
        }
    }
    const int w = n + 1;
    for (int k = 0; k < ws->nstates; k++) {
        const int *st = ws->states + (size_t)k * (size_t)w;
        int same = st[n] == d;
        for (int i = 0; i < n && same; i++) {
            same = st[i] == (ws->C[i] ? 1 : ws->NC[i] ? 2 : 3);
        }
        if (same) {
            return 1;
        }
    }
    if ((ws->nstates + 1) * w > ws->states_cap) {
        int cap = 2 * (ws->nstates + 1) * w;
        int *p = realloc(ws->states, (size_t)cap * sizeof *p);
        if (p == NULL) {
            return -1;
        }
        ws->states = p;
        ws->states_cap = cap;
    }
    int *st = ws->states + (size_t)ws->nstates * (size_t)w;
    for (int i = 0; i < n; i++) {
        st[i] = ws->C[i] ? 1 : ws->NC[i] ? 2 : 3;
    }
    st[n] = d;
    ws->nstates++;
    return 0;
}

int imp_lcp_baraff_order(imp_baraff_ws *ws, int n, const double *A, const double *b,
                         const unsigned char *joint, imp_lcg *g, double *f, double *a)
{
    if (n <= 0) {
        return 0;
    }
    if (n == 1) {
        f[0] = (joint[0] || b[0] < 0.0) ? -b[0] / A[0] : 0.0;
        a[0] = A[0] * f[0] + b[0];
        return 0;
    }
    if (reserve(ws, n) != 0) {
        return -1;
    }
    solve_ctx s = {ws, n, A, joint, f, a, 0.0};
    for (int i = 0; i < n; i++) {
        f[i] = 0.0;
        a[i] = b[i];
        ws->C[i] = ws->NC[i] = ws->R[i] = ws->rerej[i] = 0;
    }
    ws->nstates = 0;
    for (;;) {
        int d = next_row(&s, g);
        if (d < 0) {
            break;
        }
        if (ws->R[d]) {
            ws->rerej[d] = 1;
        }
        int loop = seen_before(&s, d);
        if (loop < 0) {
            return -1;
        }
        if (loop) {
            break;
        }
        int r = drive(&s, d);
        if (r >= 0) {
            defer(ws, r);
        } else if (r < -1) {
            return 1;
        } else {
            memset(ws->rerej, 0, (size_t)n);
            ws->R[d] = 0;
        }
    }
    return 0;
}

int imp_baraff_acceptable(int n, const double *f, const double *a, const unsigned char *joint,
                          double tol)
{
    for (int i = 0; i < n; i++) {
        if (joint[i] || fabs(f[i]) > TINY ? fabs(a[i]) > tol : a[i] < -tol) {
            return 0;
        }
    }
    return 1;
}
