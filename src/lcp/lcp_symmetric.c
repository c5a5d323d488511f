/* lcp_symmetric.c: Baraff's pivoting method for the frictionless LCP with a symmetric PSD
   matrix (D. Baraff, "Fast Contact Force Computation for Nonpenetrating Rigid Bodies",
   SIGGRAPH 1994, sections 3-4; it is Dantzig's principal pivoting method).

   Rows are processed one at a time (bilateral rows first, then unilateral rows in index
   order; the bilateral rows again in a rank-revealing order when they turn out dependent
   or ill-conditioned, see bilateral_pivoted). A processed row is either clamped (C: a = 0, f >= 0 or free) or not clamped
   (NC: f = 0, a >= 0). drive_to_zero(d) raises f_d while keeping a_C = 0 (fdirection: solve
   A_CC x = -A_Cd with the incremental Cholesky factor) and takes the largest step that keeps
   every processed row valid (maxstep); the row that limits the step changes set, until d
   itself reaches a_d = 0 and joins C.

   Why it works for PSD A (see also the proof sketches in the project's lcp.md, section 3.2):
   A_CC stays positive definite, because a row only joins C with a positive Schur complement
   (Delta a_d > 0 for d; Delta a_j < 0 for an NC row j implies the same). When the Schur
   complement of d is zero (d is a redundant contact), Delta a = 0 everywhere and the step is
   limited by a clamped row whose force decreases: that row leaves C ("redundant contacts
   are pushed out"), and nothing is divided by zero. With no limit at all the problem is
   infeasible (Farkas). Ties are broken by the smallest index; the pivot cap ends cycling.

   The problem is equilibrated first: with d_i = 1/sqrt(A_ii), the scaled problem
   A^ = D A D (unit diagonal, |A^_ij| <= 1), b^ = D b, f = D f^ is the same LCP, so the
   thresholds below are relative and mass ratios of 1e6 do not matter.

   Cost per step: O(m^2) for the two triangular solves, O(m (hi - lo)) for the change of a
   on the NC rows (an axpy over m rows of A restricted to the NC index range), where m is
   the clamped set size. About n steps: O(n^2 m) = O(n^3) per solve. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "lcp_chol.h"
#include "lcp_internal.h"

enum { S_UN = 0, S_C = 1, S_NC = 2, S_RED = 3 };

typedef struct sym {
    int n;
    const double *A, *b;
    const unsigned char *bil;
    double *sc, *fh, *ah, *dfh, *dah, *y, *x, *t, *work;
    int *rlo, *rhi;
    int *cset, *pos, *nc, *red;
    int nnc, nred, nc_lo, nc_hi;
    int nun, *un;     /* greedy order: unprocessed unilateral rows, a maintained on them */
    signed char *st;
    imp_chol ch;
    double ptol, eps_a;
    double eps_red;   /* a dependent bilateral row this close to satisfied is redundant */
    int inconsistent; /* a dependent bilateral row kept a larger residual (reported at the end) */
    double bil_pivot; /* the smallest Schur complement with which a bilateral row was clamped */
    int max_pivots;
    imp_lcp_info *info;
    const char **msg;
} sym;

static int is_bil(const sym *s, int i) { return s->bil != NULL && s->bil[i] != 0; }

/* A^_dd: 1 for a positive diagonal, 0 for a zero row */
static double ahat_diag(const sym *s, int d) { return s->A[(size_t)d * s->n + d] > 0.0 ? 1.0 : 0.0; }

/* out[k] = A^_{C_k, j}, k < m: row j of A gathered at the clamped columns. O(m). */
static void gather_col(const sym *s, int j, double *out)
{
    const double *row = s->A + (size_t)j * s->n;
    double sj = s->sc[j];
    for (int k = 0; k < s->ch.m; k++) {
        int c = s->cset[k];
        out[k] = s->sc[c] * row[c] * sj;
    }
}

/* a^_d from scratch: b^_d + sum over rows with a force. O(m). When tol is not NULL it
   receives the rounding level of that sum (a value of a^_d within it is zero). */
static double ahat_row_tol(const sym *s, int d, double *tol)
{
    const double *row = s->A + (size_t)d * s->n;
    double acc = 0.0, mag = fabs(s->b[d]);
    for (int k = 0; k < s->ch.m; k++) {
        int c = s->cset[k];
        double v = row[c] * s->sc[c] * s->fh[c];
        acc += v;
        mag += fabs(v);
    }
    for (int k = 0; k < s->nred; k++) {
        int c = s->red[k];
        double v = row[c] * s->sc[c] * s->fh[c];
        acc += v;
        mag += fabs(v);
    }
    if (tol != NULL) *tol = s->eps_a + 1e-13 * s->sc[d] * mag;
    return s->sc[d] * (s->b[d] + acc);
}

static double ahat_row(const sym *s, int d) { return ahat_row_tol(s, d, NULL); }

static void nc_add(sym *s, int j)
{
    s->st[j] = S_NC;
    s->pos[j] = s->nnc;
    s->nc[s->nnc++] = j;
    if (j < s->nc_lo) s->nc_lo = j;
    if (j > s->nc_hi) s->nc_hi = j;
}

static void nc_del(sym *s, int j)
{
    int p = s->pos[j], last = s->nc[--s->nnc];
    s->nc[p] = last;
    s->pos[last] = p;
    s->pos[j] = -1;
}

static int c_add(sym *s, int j, const double *y, double schur)
{
    if (imp_lcp_clamp(&s->ch, s->cset, s->pos, j, y, schur, s->info) != 0) {
        return -1;
    }
    s->st[j] = S_C;
    return 0;
}

static void c_del(sym *s, int j) { imp_lcp_unclamp(&s->ch, s->cset, s->pos, j, s->work, s->info); }

/* t[j] += w0 r0[j] + w1 r1[j] + w2 r2[j] + w3 r3[j], j < len. Unrolled by two with
   restrict pointers so that the compiler's basic-block vectorizer uses SIMD at -O2. */
static void axpy4(double *restrict t, const double *restrict r0, const double *restrict r1,
                  const double *restrict r2, const double *restrict r3, double w0, double w1,
                  double w2, double w3, int len)
{
    int j = 0;
    for (; j + 2 <= len; j += 2) {
        double t0 = t[j] + ((w0 * r0[j] + w1 * r1[j]) + (w2 * r2[j] + w3 * r3[j]));
        double t1 = t[j + 1] + ((w0 * r0[j + 1] + w1 * r1[j + 1]) + (w2 * r2[j + 1] + w3 * r3[j + 1]));
        t[j] = t0;
        t[j + 1] = t1;
    }
    for (; j < len; j++) {
        t[j] += (w0 * r0[j] + w1 * r1[j]) + (w2 * r2[j] + w3 * r3[j]);
    }
}

static void axpy1(double *restrict t, const double *restrict r0, double w0, int len)
{
    int j = 0;
    for (; j + 2 <= len; j += 2) {
        double t0 = t[j] + w0 * r0[j], t1 = t[j + 1] + w0 * r0[j + 1];
        t[j] = t0;
        t[j + 1] = t1;
    }
    for (; j < len; j++) {
        t[j] += w0 * r0[j];
    }
}

static int imin4(int a, int b, int c, int d)
{
    int x = a < b ? a : b, y = c < d ? c : d;
    return x < y ? x : y;
}

/* t[lo..hi] = sum_k w_k A[C_k, lo..hi] + wd A[d, lo..hi] (rows of the symmetric A), then
   dah_j = sc_j t_j on the rows whose a is tracked. Four rows at a time so that t is loaded
   and stored once per four rows. O(m (hi - lo)). */
static void nc_direction(sym *s, int d, double wd)
{
    if (s->nnc == 0 && s->nun == 0) {
        return;
    }
    int lo = s->nc_lo, hi = s->nc_hi, m = s->ch.m, n = s->n;
    if (s->nun > 0) {
        lo = 0;
        hi = n - 1;
    }
    memset(s->t + lo, 0, sizeof(double) * (size_t)(hi - lo + 1));
    /* each row of A only over its nonzero envelope (narrow for stacks and chains) */
    int a0 = s->rlo[d] > lo ? s->rlo[d] : lo, a1 = s->rhi[d] < hi ? s->rhi[d] : hi;
    if (a0 <= a1) axpy1(s->t + a0, s->A + (size_t)d * n + a0, wd, a1 - a0 + 1);
    int k = 0;
    for (; k + 4 <= m; k += 4) {
        int c0 = s->cset[k], c1 = s->cset[k + 1], c2 = s->cset[k + 2], c3 = s->cset[k + 3];
        int e0 = imin4(s->rlo[c0], s->rlo[c1], s->rlo[c2], s->rlo[c3]);
        int e1 = -imin4(-s->rhi[c0], -s->rhi[c1], -s->rhi[c2], -s->rhi[c3]);
        if (e0 < lo) e0 = lo;
        if (e1 > hi) e1 = hi;
        if (e0 > e1) continue;
        axpy4(s->t + e0, s->A + (size_t)c0 * n + e0, s->A + (size_t)c1 * n + e0,
              s->A + (size_t)c2 * n + e0, s->A + (size_t)c3 * n + e0, s->sc[c0] * s->dfh[c0],
              s->sc[c1] * s->dfh[c1], s->sc[c2] * s->dfh[c2], s->sc[c3] * s->dfh[c3], e1 - e0 + 1);
    }
    for (; k < m; k++) {
        int c0 = s->cset[k];
        int e0 = s->rlo[c0] > lo ? s->rlo[c0] : lo, e1 = s->rhi[c0] < hi ? s->rhi[c0] : hi;
        if (e0 <= e1) axpy1(s->t + e0, s->A + (size_t)c0 * n + e0, s->sc[c0] * s->dfh[c0], e1 - e0 + 1);
    }
    for (int q = 0; q < s->nnc; q++) {
        int j = s->nc[q];
        s->dah[j] = s->sc[j] * s->t[j];
    }
    for (int q = 0; q < s->nun; q++) {
        int j = s->un[q];
        s->dah[j] = s->sc[j] * s->t[j];
    }
}

/* drive_to_zero(d): Baraff 1994, section 4 (fdirection, maxstep). */
static imp_lcp_status drive(sym *s, int d)
{
    int bil = is_bil(s, d);
    for (;;) {
        if (s->info->pivots >= s->max_pivots) {
            *s->msg = "pivot limit reached (cycling or too hard a problem)";
            return IMP_LCP_PIVOT_LIMIT;
        }
        double sign = (bil && s->ah[d] > 0.0) ? -1.0 : 1.0;
        int m = s->ch.m;
        /* fdirection: x = -A_CC^-1 A_Cd, Schur complement S = A_dd - A_dC A_CC^-1 A_Cd */
        gather_col(s, d, s->y);
        imp_chol_forward(&s->ch, s->y);
        double yy = 0.0;
        for (int k = 0; k < m; k++) yy += s->y[k] * s->y[k];
        double schur = ahat_diag(s, d) - yy;
        for (int k = 0; k < m; k++) s->x[k] = -s->y[k];
        imp_chol_backward(&s->ch, s->x);
        double xmax = 0.0, x1 = 0.0;
        for (int k = 0; k < m; k++) {
            double v = sign * s->x[k];
            s->dfh[s->cset[k]] = v;
            x1 += fabs(v);
            if (fabs(v) > xmax) xmax = fabs(v);
        }
        nc_direction(s, d, sign * s->sc[d]);
        if (schur < -s->ptol * (1.0 + x1)) {
            *s->msg = "negative Schur complement: A is not positive semidefinite";
            return IMP_LCP_OUTSIDE_CLASS;
        }
        /* maxstep: the smallest step at which a processed row or d changes state; ties go
           to the smallest index (anti-cycling) */
        double best = INFINITY;
        int jbest = -1;
        double fthr = 1e-12 * (1.0 + xmax), athr = 1e-12 * (1.0 + x1);
        int d_moves = schur > s->ptol;
        if (d_moves) {
            double sd = -s->ah[d] / (sign * schur);
            best = sd > 0.0 ? sd : 0.0;
            jbest = d;
        } else if (bil && fabs(s->ah[d]) <= s->eps_red) {
            /* a bilateral row dependent on the clamped rows and satisfied within the
               tolerance (imp_lcp_check judges the residual it leaves) */
            s->st[d] = S_RED;
            s->red[s->nred++] = d;
            return IMP_LCP_OK;
        }
        for (int k = 0; k < m; k++) {
            int i = s->cset[k];
            double df = s->dfh[i];
            if (df < -fthr && !is_bil(s, i)) {
                double si = (s->fh[i] > 0.0 ? s->fh[i] : 0.0) / -df;
                if (si < best || (si == best && i < jbest)) {
                    best = si;
                    jbest = i;
                }
            }
        }
        for (int q = 0; q < s->nnc; q++) {
            int j = s->nc[q];
            double da = s->dah[j];
            if (da < -athr) {
                double sj = (s->ah[j] > 0.0 ? s->ah[j] : 0.0) / -da;
                if (sj < best || (sj == best && j < jbest)) {
                    best = sj;
                    jbest = j;
                }
            }
        }
        if (jbest < 0 && bil && !d_moves) {
            /* dependent on the clamped rows with a residual no step can change: it keeps it
               (f_d = 0) and the other rows are still solved, so that the answer is complete
               and its residuals say how far from consistent the rows are (a weld's four
               rows of rank 3 whose targets disagree by 2e-10 beside a contact, whose own
               row would otherwise be left unsolved); the solve then reports "inconsistent" */
            s->st[d] = S_RED;
            s->red[s->nred++] = d;
            s->inconsistent = 1;
            return IMP_LCP_OK;
        }
        if (jbest < 0) {
            *s->msg = bil ? "inconsistent bilateral rows: no solution"
                          : "unbounded ray: the problem is infeasible";
            return IMP_LCP_INFEASIBLE;
        }
        /* step */
        double step = best;
        for (int k = 0; k < m; k++) {
            int i = s->cset[k];
            s->fh[i] += step * s->dfh[i];
        }
        s->fh[d] += step * sign;
        for (int q = 0; q < s->nnc; q++) {
            int j = s->nc[q];
            s->ah[j] += step * s->dah[j];
        }
        for (int q = 0; q < s->nun; q++) {
            int j = s->un[q];
            s->ah[j] += step * s->dah[j];
        }
        s->ah[d] += step * sign * (d_moves ? schur : 0.0);
        s->info->pivots++;
        if (jbest == d) {
            s->ah[d] = 0.0;
            if (bil && schur < s->bil_pivot) s->bil_pivot = schur;
            if (c_add(s, d, s->y, schur) != 0) {
                *s->msg = "clamped set larger than the workspace";
                return IMP_LCP_NUMERICAL;
            }
            return IMP_LCP_OK;
        }
        if (s->st[jbest] == S_C) {
            /* its force reached zero: it leaves C (a redundant contact is pushed out here) */
            c_del(s, jbest);
            s->fh[jbest] = 0.0;
            s->ah[jbest] = 0.0;
            nc_add(s, jbest);
        } else {
            /* its acceleration reached zero: it joins C */
            nc_del(s, jbest);
            s->ah[jbest] = 0.0;
            gather_col(s, jbest, s->y);
            imp_chol_forward(&s->ch, s->y);
            double yj = 0.0;
            for (int k = 0; k < s->ch.m; k++) yj += s->y[k] * s->y[k];
            double sj = ahat_diag(s, jbest) - yj;
            if (!(sj > s->ptol) || c_add(s, jbest, s->y, sj) != 0) {
                *s->msg = "a row joining the clamped set is numerically dependent on it";
                return IMP_LCP_NUMERICAL;
            }
        }
    }
}

/* The Schur complement of row d against the clamped set, A^_dd - |L^-1 A^_Cd|^2, with
   L^-1 A^_Cd left in s->y. O(m^2). */
static double schur_of(sym *s, int d)
{
    gather_col(s, d, s->y);
    imp_chol_forward(&s->ch, s->y);
    double yy = 0.0;
    for (int k = 0; k < s->ch.m; k++) yy += s->y[k] * s->y[k];
    return ahat_diag(s, d) - yy;
}

/* Back to no row processed (the pivot count is kept). O(n). */
static void restart(sym *s)
{
    for (int i = 0; i < s->n; i++) {
        s->fh[i] = s->ah[i] = s->dfh[i] = s->dah[i] = 0.0;
        s->st[i] = S_UN;
        s->pos[i] = -1;
    }
    s->ch.m = 0;
    s->nred = s->nnc = 0;
    s->nc_lo = s->n;
    s->nc_hi = -1;
    s->inconsistent = 0;
    s->bil_pivot = INFINITY;
}

/* The bilateral rows (no row processed yet) in the order of the largest Schur complement
   against the rows clamped so far (ties to the smallest index): a pivoted Cholesky
   factorization of their block, so the rows left dependent are the ones closest to the
   span of the others. O(k) complements of O(m^2) per row taken: O(k^2 m^2) for k rows. */
static imp_lcp_status bilateral_pivoted(sym *s)
{
    for (;;) {
        int dbest = -1;
        double sbest = -INFINITY;
        for (int d = 0; d < s->n; d++) {
            if (!is_bil(s, d) || s->st[d] != S_UN) {
                continue;
            }
            double sd = schur_of(s, d);
            if (sd > sbest) {
                sbest = sd;
                dbest = d;
            }
        }
        if (dbest < 0) {
            return IMP_LCP_OK;
        }
        s->ah[dbest] = ahat_row(s, dbest);
        imp_lcp_status st = drive(s, dbest);
        if (st != IMP_LCP_OK) {
            return st;
        }
    }
}

/* Warm start: factor the previous clamped set (skipping dependent rows), solve for its
   forces, and drop unilateral rows with negative force until all are >= 0. What remains is
   a valid processed set (a_C = 0, f_C >= 0); every other row is processed as usual. */
static void warm_start(sym *s, const signed char *warm)
{
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < s->n; i++) {
            if (warm[i] != IMP_LCP_STATE_CLAMPED || (pass == 0) != (is_bil(s, i) != 0)) {
                continue;
            }
            double sch = schur_of(s, i);
            if (sch > 1e3 * s->ptol) {
                c_add(s, i, s->y, sch);
            }
        }
    }
    for (;;) {
        int m = s->ch.m;
        for (int k = 0; k < m; k++) s->x[k] = -s->sc[s->cset[k]] * s->b[s->cset[k]];
        imp_chol_forward(&s->ch, s->x);
        imp_chol_backward(&s->ch, s->x);
        int worst = -1;
        double wv = 0.0;
        for (int k = 0; k < m; k++) {
            int i = s->cset[k];
            if (!is_bil(s, i) && s->x[k] < wv) {
                wv = s->x[k];
                worst = i;
            }
        }
        if (worst < 0) {
            for (int k = 0; k < m; k++) s->fh[s->cset[k]] = s->x[k];
            return;
        }
        c_del(s, worst);
        s->st[worst] = S_UN;
    }
}

imp_lcp_status imp_lcp_solve_symmetric(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                       const signed char *warm, imp_lcp_workspace *ws,
                                       double *f, imp_lcp_info *info, const char **msg)
{
    sym s;
    memset(&s, 0, sizeof s);
    int n = p->n;
    s.n = n;
    s.A = p->A;
    s.b = p->b;
    s.bil = p->bilateral;
    s.sc = ws->sc;
    s.fh = ws->fh;
    s.ah = ws->ah;
    s.dfh = ws->dfh;
    s.dah = ws->dah;
    s.y = ws->y;
    s.x = ws->x;
    s.t = ws->t;
    s.work = ws->work;
    s.cset = ws->cset;
    s.pos = ws->pos;
    s.nc = ws->list;
    s.red = ws->list2;
    s.st = ws->st;
    s.ch.L = ws->big;
    s.ch.first = ws->first;
    s.rlo = ws->rlo;
    s.rhi = ws->rhi;
    s.ch.ld = ws->cap;
    s.ch.m = 0;
    s.ptol = lim->ptol;
    s.max_pivots = lim->max_pivots;
    s.info = info;
    s.msg = msg;
    s.nc_lo = n;
    s.nc_hi = -1;
    s.bil_pivot = INFINITY;

    double sb = 0.0;
    for (int i = 0; i < n; i++) {
        double aii = p->A[(size_t)i * n + i];
        if (aii < 0.0) {
            *msg = "negative diagonal entry: A is not positive semidefinite";
            return IMP_LCP_OUTSIDE_CLASS;
        }
        s.sc[i] = aii > 0.0 ? 1.0 / sqrt(aii) : 1.0;
        double bh = fabs(s.sc[i] * p->b[i]);
        if (bh > sb) sb = bh;
        s.fh[i] = s.ah[i] = s.dfh[i] = s.dah[i] = 0.0;
        s.st[i] = S_UN;
        s.pos[i] = -1;
        const double *row = p->A + (size_t)i * n;
        int lo = 0, hi = n - 1;
        while (lo < n && row[lo] == 0.0) lo++;
        while (hi > lo && row[hi] == 0.0) hi--;
        s.rlo[i] = lo;
        s.rhi[i] = lo < n ? hi : -1;
    }
    s.eps_a = 1e-13 * sb;
    /* the residual a dependent bilateral row may keep: round-off in the joints' velocities
       (a weld's four rows, rank 3, whose targets disagree by 1e-12) must not make the rows
       "inconsistent"; the acceptance test bounds it by tol times the problem's scale */
    s.eps_red = fmax(s.eps_a, lim->tol * sb);
    /* a PSD matrix has |A_ij| <= sqrt(A_ii A_jj) (so a zero diagonal means a zero row);
       without PSD the "no limit means infeasible" argument fails, so refuse honestly */
    for (int i = 0; i < n; i++) {
        const double *row = p->A + (size_t)i * n;
        for (int j = 0; j < i; j++) {
            double aij = row[j] * s.sc[i] * s.sc[j];
            if (aij * aij > 1.0 + 1e-10 || (aij != 0.0 && (ahat_diag(&s, i) == 0.0 || ahat_diag(&s, j) == 0.0))) {
                *msg = "A is not positive semidefinite (|A_ij| > sqrt(A_ii A_jj))";
                return IMP_LCP_OUTSIDE_CLASS;
            }
        }
    }

    imp_lcp_status st = IMP_LCP_OK;
    if (warm != NULL) {
        warm_start(&s, warm);
        info->warm_started = 1;
    }
    /* bilateral rows first; they never leave C */
    const char *msg0 = *msg;
    for (int d = 0; d < n && st == IMP_LCP_OK; d++) {
        if (is_bil(&s, d) && s.st[d] == S_UN) {
            s.ah[d] = ahat_row(&s, d);
            st = drive(&s, d);
        }
    }
    int unreliable = s.bil_pivot < DBL_EPSILON / s.ptol;
    if (warm == NULL && ((st == IMP_LCP_OK && (s.nred > 0 || unreliable))
                         || (st == IMP_LCP_OUTSIDE_CLASS && unreliable))) {
        /* dependent bilateral rows, or rows whose dependence index order cannot see: which
           rows are clamped and which left redundant is a choice, and index order may clamp
           two nearly coincident rows (a weld's two pins, whose x rows nearly agree when
           the line between them is horizontal: Schur complement 1e-6) and then a third
           that is dependent on them, the round-off of its Schur complement (u / 1e-6, above
           ptol) taken for independence, or leave it dependent with its inconsistency
           amplified by that condition: impulses of 1e7 that cancel. A clamped Schur
           complement below u / ptol is the sign that the later dependence tests were not
           reliable. Again in the order of the largest Schur complement (a pivoted,
           rank-revealing Cholesky factorization): the row left out is the one nearest the
           span of the others. Problems whose bilateral rows are independent and well
           conditioned never come here (their answer is unchanged). Index order can also
           stop outright: after a nearly coincident pair (Schur complement 4e-11, a weld's
           two x rows when its pins are one above the other) the next row's complement came
           out -4e-6 (the pair's round-off times |x| = 3e5) and was refused as "not positive
           semidefinite"; that refusal is no proof after such a pivot, so the pivoted order
           is taken there too */
        *msg = msg0;
        restart(&s);
        st = bilateral_pivoted(&s);
    }
    if (lim->order == IMP_LCP_ORDER_GREEDY) {
        s.un = ws->un;
        for (int d = 0; d < n; d++) {
            if (!is_bil(&s, d) && s.st[d] == S_UN) {
                s.ah[d] = ahat_row(&s, d);
                s.un[s.nun++] = d;
            }
        }
        while (st == IMP_LCP_OK && s.nun > 0) {
            int qb = 0; /* most negative a; ties to the smallest index */
            for (int q = 1; q < s.nun; q++) {
                int i = s.un[q], ib = s.un[qb];
                double ai = s.ah[i], ab = s.ah[ib];
                if (ai < ab || (ai == ab && i < ib)) qb = q;
            }
            int d = s.un[qb];
            if (s.ah[d] >= -s.eps_a) {
                break; /* every remaining row is valid with f = 0 */
            }
            s.un[qb] = s.un[--s.nun];
            double tol;
            s.ah[d] = ahat_row_tol(&s, d, &tol); /* fresh: the tracked value drifts */
            if (s.ah[d] >= -tol) {
                nc_add(&s, d);
            } else {
                st = drive(&s, d);
            }
        }
        for (int q = 0; q < s.nun && st == IMP_LCP_OK; q++) {
            s.st[s.un[q]] = S_UN; /* put in NC below, after a fresh a */
        }
        s.nun = 0;
    }
    for (int d = 0; d < n && st == IMP_LCP_OK; d++) {
        if (is_bil(&s, d) || s.st[d] != S_UN) {
            continue;
        }
        double tol;
        double ad = ahat_row_tol(&s, d, &tol);
        s.ah[d] = ad;
        if (ad >= -tol) {
            nc_add(&s, d);
        } else {
            st = drive(&s, d);
        }
    }
    /* two steps of iterative refinement on the clamped rows: r = a_C from scratch,
       f_C -= A_CC^-1 r (O(m^2) each); they remove the drift of the incremental updates */
    for (int round = 0; round < 2 && st == IMP_LCP_OK && s.ch.m > 0; round++) {
        int m = s.ch.m;
        for (int k = 0; k < m; k++) {
            int i = s.cset[k];
            s.x[k] = -ahat_row(&s, i);
        }
        imp_chol_forward(&s.ch, s.x);
        imp_chol_backward(&s.ch, s.x);
        for (int k = 0; k < m; k++) {
            int i = s.cset[k];
            s.fh[i] += s.x[k];
            if (!is_bil(&s, i) && s.fh[i] < 0.0) s.fh[i] = 0.0;
        }
    }
    for (int i = 0; i < n; i++) {
        f[i] = s.sc[i] * s.fh[i];
        /* the states in the public numbering (st is read back by the driver) */
        s.st[i] = (signed char)(s.st[i] == S_C     ? IMP_LCP_STATE_CLAMPED
                                : s.st[i] == S_RED ? IMP_LCP_STATE_REDUNDANT
                                                   : IMP_LCP_STATE_FREE);
    }
    info->clamped = s.ch.m;
    if (st == IMP_LCP_OK && s.inconsistent) {
        *msg = "inconsistent bilateral rows: no solution (a dependent row keeps its residual; "
               "the other rows are solved)";
        st = IMP_LCP_INFEASIBLE;
    }
    return st;
}
