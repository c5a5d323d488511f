/* lcp_box.c: Coulomb friction with a symmetric PSD A as a fixed point of box-bounded
   problems ("Tresca" steps), each solved exactly by Baraff's pivoting extended to bounds.

   The frictional problem of lcp.h (static rows bounded by mu f_n, sliding rows following
   -sigma mu f_n) makes the effective clamped matrix of Baraff's friction states
   nonsymmetric (Baraff 1994, sections 5-7; lcp_general.c). With many redundant contacts
   (four coincident corner points per box pair in a 2D pyramid, each with a tangent row) that
   matrix is singular in directions the symmetric theory cannot see, and the pivoting cycles
   or stops on a ray. Here the bounds are frozen instead: with c_t = mu_t f_n (f_n from the
   previous iterate) each friction row is a box -c_t <= f_t <= c_t, and the problem

     unilateral  f >= 0,  a >= 0, f a = 0          bilateral  a = 0
     static      f = -c, a >= 0 | -c < f < c, a = 0 | f = c, a <= 0
     sliding     f = -sigma c (fixed)

   is a box-constrained LCP with the symmetric PSD A itself: Dantzig's principal pivoting
   with bounds (as in Baraff's section 4 drive-to-zero / fdirection / maxstep, and ODE's
   Dantzig solver with lo/hi) keeps the clamped block a principal submatrix of A, so every
   PSD fact of lcp_symmetric.c holds: a row joins the clamped set only with a positive Schur
   complement, a redundant row (zero Schur complement) is pushed to a bound or out instead of
   being divided by, and the incremental Cholesky factor (lcp_chol.c) never breaks down. The
   outer iteration (the first with zero friction, then c = mu f_n of the last iterate)
   stops as soon as the iterate passes the Coulomb residual test of imp_lcp_check at the
   requested tolerance: a fixed point is exactly a solution of the frictional problem, and
   termination is checked, never assumed. Each outer iteration is warm-started from the
   previous clamped set (factored afresh, O(m^3), then repaired), so a resting stack needs
   about one full solve plus a few cheap ones. The fixed point is not guaranteed to exist
   for every mu (Baraff 1991: the frictional problem is NP-hard); the iteration cap ends the
   search and the driver falls back to lcp_general.c.

   Cost per pivot O(m^2 + n m) (two triangular solves, Delta a on the rows at a bound);
   about n pivots per full solve: O(n^3). The problem is equilibrated as in lcp_symmetric.c
   (d_i = 1/sqrt(A_ii)). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lcp_chol.h"
#include "lcp_internal.h"

/* Problems of more than IMP_LCP_BOX_LARGE rows (the 210-box pyramid's 2360; the split
   problem stops at 1200) get a cap of 5 n + 1000 pivots instead of 15 n + 1000: there the
   answers took 3.1 to 3.5 n pivots, while the failing solve's outer iteration, though not
   cycling (the friction violation 4.4e-2 -> 1.2e-6 over 99 outer iterations), converged so
   slowly that 63 779 pivots (27 n) left it at 6.4e-7 (1e-8 asked); each of the driver's
   three runs of these steps on such a solve then stops at about a third of the cost. */
#define IMP_LCP_BOX_LARGE 1200

enum { B_UN = 0, B_C = 1, B_LO = 2, B_HI = 3, B_FIX = 4, B_RED = 5 };
enum { K_UNI = 0, K_BIL = 1, K_FRIC = 2, K_SLIDE = 3 };
struct box;

typedef struct box {
    int n;
    const imp_lcp_problem *p;
    double *sc, *fh, *ah, *dfh, *dah, *y, *x, *work, *fprev;
    int *cset, *pos, *nz, nnz;
    int *rep, *next;  /* groups of identical static friction rows (see group_rows) */
    signed char *st;
    imp_chol ch;
    int first_pass;   /* friction bounds zero (the first outer iteration) */
    double ptol, eps_a;
    int max_pivots;
    imp_lcp_info *info;
    const char **msg;
} box;

enum { K_MEMBER = 4 };

static int bkind(const box *s, int i)
{
    const imp_lcp_problem *p = s->p;
    if (s->rep[i] != i) return K_MEMBER;
    if (p->bilateral != NULL && p->bilateral[i]) return K_BIL;
    if (p->friction_normal != NULL && p->friction_normal[i] >= 0) {
        return (p->sliding != NULL && p->sliding[i] != 0) ? K_SLIDE : K_FRIC;
    }
    return K_UNI;
}

/* A^_ij = d_i A_ij d_j */
static double ah_ij(const box *s, int i, int j) { return s->sc[i] * s->p->A[(size_t)i * s->n + j] * s->sc[j]; }

/* the friction bound c^ of row i in scaled units (0 on the first pass) */
static double cbound(const box *s, int i)
{
    if (s->first_pass) return 0.0;
    double c = 0.0;
    for (int t = i; t >= 0; t = s->next[t]) {
        double fn = s->fprev[s->p->friction_normal[t]];
        if (fn > 0.0) c += s->p->mu[t] * fn;
    }
    return c / s->sc[i];
}

static double lo_of(const box *s, int i)
{
    switch (bkind(s, i)) {
    case K_MEMBER:
    case K_UNI: return 0.0;
    case K_BIL: return -INFINITY;
    default: return -cbound(s, i);
    }
}

static double hi_of(const box *s, int i)
{
    switch (bkind(s, i)) {
    case K_MEMBER: return 0.0;
    case K_UNI:
    case K_BIL: return INFINITY;
    default: return cbound(s, i);
    }
}

/* a^_i = d_i (b_i + sum_j A_ij d_j f^_j) from scratch over the rows with a force. O(n). */
static double arow(const box *s, int i)
{
    const double *row = s->p->A + (size_t)i * s->n;
    double acc = s->p->b[i];
    for (int j = 0; j < s->n; j++) {
        if (s->fh[j] != 0.0) acc += row[j] * s->sc[j] * s->fh[j];
    }
    return s->sc[i] * acc;
}

/* y := L^-1 A^_{C,j}, returns the Schur complement A^_jj - y.y. O(m^2). */
static double schur_of(box *s, int j)
{
    int m = s->ch.m;
    for (int k = 0; k < m; k++) s->y[k] = ah_ij(s, s->cset[k], j);
    imp_chol_forward(&s->ch, s->y);
    double yy = 0.0;
    for (int k = 0; k < m; k++) yy += s->y[k] * s->y[k];
    return ah_ij(s, j, j) - yy;
}

static int c_add(box *s, int j, double schur)
{
    if (imp_lcp_clamp(&s->ch, s->cset, s->pos, j, s->y, schur, s->info) != 0) return -1;
    s->st[j] = B_C;
    s->ah[j] = 0.0;
    return 0;
}

static void c_del(box *s, int j) { imp_lcp_unclamp(&s->ch, s->cset, s->pos, j, s->work, s->info); }

/* rows whose a is tracked in maxstep: at a bound */
static int tracked(const box *s, int j) { return s->st[j] == B_LO || s->st[j] == B_HI; }

/* maxstep candidate: the smallest step, ties to the driven row, then the smallest index */
static void cand(int d, double t, int j, int to, double *best, int *jb, int *jto)
{
    if (t < 0.0) t = 0.0;
    int take = *jb < 0 || t < *best;
    if (!take && t == *best && *jb != d) take = j == d || j < *jb;
    if (take) {
        *best = t;
        *jb = j;
        *jto = to;
    }
}

/* drive_to_zero(d) with bounds: f_d moves toward a_d = 0 (sigma = -sign a_d), the clamped
   rows keep a = 0, the step stops at the first state change (Baraff 1994 section 4 with
   box bounds). */
static imp_lcp_status drive(box *s, int d)
{
    int n = s->n;
    for (;;) {
        if (s->info->pivots >= s->max_pivots) {
            *s->msg = "pivot limit reached in the box-bounded friction steps";
            return IMP_LCP_PIVOT_LIMIT;
        }
        double sigma = s->ah[d] < 0.0 ? 1.0 : -1.0;
        int m = s->ch.m;
        double schur = schur_of(s, d);
        for (int k = 0; k < m; k++) s->x[k] = -s->y[k];
        imp_chol_backward(&s->ch, s->x);
        double xmax = 1.0;
        s->nnz = 0;
        for (int k = 0; k < m; k++) {
            int i = s->cset[k];
            s->dfh[i] = sigma * s->x[k];
            xmax = fmax(xmax, fabs(s->dfh[i]));
            s->nz[s->nnz++] = i;
        }
        s->dfh[d] = sigma;
        s->nz[s->nnz++] = d;
        if (schur < -1e-6 * xmax) {
            *s->msg = "negative Schur complement: A is not positive semidefinite";
            return IMP_LCP_OUTSIDE_CLASS;
        }
        for (int j = 0; j < n; j++) {
            if (!tracked(s, j)) continue;
            double sum = 0.0;
            for (int q = 0; q < s->nnz; q++) sum += ah_ij(s, j, s->nz[q]) * s->dfh[s->nz[q]];
            s->dah[j] = sum;
        }
        double thr = 1e-12 * xmax; /* |Delta f| and |Delta a| below this are zero */
        double best = INFINITY;
        int jb = -1, jto = B_C;
        int d_moves = schur > s->ptol;
        if (d_moves) cand(d, -s->ah[d] / (sigma * schur), d, B_C, &best, &jb, &jto);
        double lim = sigma > 0.0 ? hi_of(s, d) - s->fh[d] : s->fh[d] - lo_of(s, d);
        if (isfinite(lim)) cand(d, lim, d, sigma > 0.0 ? B_HI : B_LO, &best, &jb, &jto);
        for (int k = 0; k < m; k++) {
            int i = s->cset[k];
            double df = s->dfh[i];
            if (df < -thr) {
                double lo = lo_of(s, i);
                if (isfinite(lo)) cand(d, (s->fh[i] - lo) / -df, i, B_LO, &best, &jb, &jto);
            } else if (df > thr) {
                double hi = hi_of(s, i);
                if (isfinite(hi)) cand(d, (hi - s->fh[i]) / df, i, B_HI, &best, &jb, &jto);
            }
        }
        for (int j = 0; j < n; j++) {
            if (s->st[j] == B_LO && s->dah[j] < -thr) {
                cand(d, fmax(s->ah[j], 0.0) / -s->dah[j], j, B_C, &best, &jb, &jto);
            } else if (s->st[j] == B_HI && s->dah[j] > thr) {
                cand(d, fmax(-s->ah[j], 0.0) / s->dah[j], j, B_C, &best, &jb, &jto);
            }
        }
        if (jb < 0) {
            *s->msg = "no limiting index in a box-bounded friction step";
            return IMP_LCP_OUTSIDE_CLASS;
        }
        for (int q = 0; q < s->nnz; q++) s->fh[s->nz[q]] += best * s->dfh[s->nz[q]];
        for (int j = 0; j < n; j++) {
            if (tracked(s, j)) s->ah[j] += best * s->dah[j];
        }
        s->ah[d] += best * sigma * (d_moves ? schur : 0.0);
        s->info->pivots++;
        if (jb == d) {
            if (jto == B_C) {
                if (c_add(s, d, schur) != 0) {
                    *s->msg = "clamped set larger than the workspace";
                    return IMP_LCP_NUMERICAL;
                }
            } else {
                s->fh[d] = jto == B_HI ? hi_of(s, d) : lo_of(s, d);
                s->st[d] = (signed char)jto;
            }
            return IMP_LCP_OK;
        }
        if (s->st[jb] == B_C) {
            /* a clamped force reached a bound: it stays there (a redundant row leaves here) */
            c_del(s, jb);
            s->fh[jb] = jto == B_HI ? hi_of(s, jb) : lo_of(s, jb);
            s->st[jb] = (signed char)jto;
            s->ah[jb] = arow(s, jb);
        } else {
            /* a row at a bound whose a reached zero joins C */
            double sj = schur_of(s, jb);
            if (!(sj > s->ptol)) {
                /* dependent on C in floating point (exact duplicates): a = 0 here, its force
                   stays; the sweeps re-check it */
                s->st[jb] = B_RED;
                s->ah[jb] = 0.0;
            } else if (c_add(s, jb, sj) != 0) {
                *s->msg = "clamped set larger than the workspace";
                return IMP_LCP_NUMERICAL;
            }
        }
    }
}

/* places row d: already valid at its force (a bound, or clamped when a = 0), else driven */
static imp_lcp_status process(box *s, int d)
{
    int k = bkind(s, d);
    if (k == K_MEMBER) {
        s->fh[d] = 0.0; /* its group's representative carries the group's force */
        s->st[d] = B_FIX;
        return IMP_LCP_OK;
    }
    if (k == K_SLIDE || (k == K_FRIC && !(hi_of(s, d) > 0.0))) {
        s->fh[d] = k == K_SLIDE ? -(double)s->p->sliding[d] * cbound(s, d) : 0.0;
        s->st[d] = B_FIX;
        return IMP_LCP_OK;
    }
    double lo = lo_of(s, d), hi = hi_of(s, d);
    s->fh[d] = fmin(fmax(s->fh[d], lo), hi);
    s->ah[d] = arow(s, d);
    double tol = 1e3 * s->eps_a;
    if (s->fh[d] == lo && s->ah[d] >= -tol) {
        s->st[d] = B_LO;
        return IMP_LCP_OK;
    }
    if (s->fh[d] == hi && s->ah[d] <= tol) {
        s->st[d] = B_HI;
        return IMP_LCP_OK;
    }
    if (fabs(s->ah[d]) <= tol) {
        double sch = schur_of(s, d);
        if (sch > s->ptol) return c_add(s, d, sch) == 0 ? IMP_LCP_OK : IMP_LCP_NUMERICAL;
        s->st[d] = B_RED; /* dependent on C, a = 0 already: its force stays */
        return IMP_LCP_OK;
    }
    return drive(s, d);
}

/* 1 when processed row i no longer satisfies its state's condition (a from scratch) */
static int violated(box *s, int i)
{
    double tol = 1e3 * s->eps_a;
    switch (s->st[i]) {
    case B_LO: return s->ah[i] < -tol;
    case B_HI: return s->ah[i] > tol;
    case B_RED: return fabs(s->ah[i]) > tol;
    case B_C: return s->fh[i] < lo_of(s, i) - 1e-12 * fabs(s->fh[i]) ||
                     s->fh[i] > hi_of(s, i) + 1e-12 * fabs(s->fh[i]);
    default: return 0;
    }
}

/* Warm start of an outer iteration: the previous clamped set is factored afresh (rows that
   became dependent are skipped), the other rows sit at their (new) bounds or at zero, the
   clamped forces are solved for, and clamped rows outside their bounds are dropped, the
   worst first, until every clamped force is inside. O(m^3). */
static void warm(box *s)
{
    int n = s->n;
    s->ch.m = 0;
    for (int i = 0; i < n; i++) {
        signed char w = s->st[i];
        s->pos[i] = -1;
        s->st[i] = B_UN;
        if (w == B_HI) s->fh[i] = hi_of(s, i);
        else if (w == B_LO && bkind(s, i) != K_UNI) s->fh[i] = lo_of(s, i);
        else if (w != B_C) s->fh[i] = bkind(s, i) == K_SLIDE ? -(double)s->p->sliding[i] * cbound(s, i) : 0.0;
        if (w == B_C) {
            double sch = schur_of(s, i);
            if (sch > 1e3 * s->ptol) c_add(s, i, sch);
        }
    }
    for (;;) {
        int m = s->ch.m;
        for (int k = 0; k < m; k++) s->fh[s->cset[k]] = 0.0;
        for (int k = 0; k < m; k++) s->x[k] = -arow(s, s->cset[k]);
        imp_chol_forward(&s->ch, s->x);
        imp_chol_backward(&s->ch, s->x);
        int worst = -1;
        double wv = 0.0;
        for (int k = 0; k < m; k++) {
            int i = s->cset[k];
            double v = fmax(lo_of(s, i) - s->x[k], s->x[k] - hi_of(s, i));
            if (v > wv) {
                wv = v;
                worst = i;
            }
        }
        if (worst < 0) {
            for (int k = 0; k < m; k++) s->fh[s->cset[k]] = s->x[k];
            return;
        }
        c_del(s, worst);
        s->st[worst] = B_UN;
    }
}

/* the sign with which dependent row j follows its group's normals in the state pattern:
   f_j = sign * sum over members t of mu_t f_{n_t}; +1 at the upper bound, -1 at the lower,
   -sigma for a sliding row; 0 for rows that do not follow */
static double follow(const box *s, int j)
{
    int k = bkind(s, j);
    if (k == K_SLIDE) return -(double)s->p->sliding[j];
    if (k == K_FRIC && s->st[j] == B_HI) return 1.0;
    if (k == K_FRIC && s->st[j] == B_LO) return -1.0;
    return 0.0;
}

/* A group's force F (on its representative, unscaled, in f) shared by its members in
   proportion to their bounds mu_t f_{n_t} (equally when all bounds are 0): each member then
   meets its own Coulomb condition, since the rows are identical (same a). O(n). */
static void distribute(const box *s, double *f)
{
    for (int j = 0; j < s->n; j++) {
        if (s->rep[j] != j || s->next[j] < 0) continue;
        double F = f[j], T = 0.0;
        int cnt = 0;
        for (int t = j; t >= 0; t = s->next[t]) {
            T += s->p->mu[t] * fmax(f[s->p->friction_normal[t]], 0.0);
            cnt++;
        }
        for (int t = j; t >= 0; t = s->next[t]) {
            f[t] = T > 0.0 ? F * (s->p->mu[t] * fmax(f[s->p->friction_normal[t]], 0.0) / T) : F / cnt;
        }
    }
}

/* The exact solution of the current state pattern with the Coulomb coupling restored
   (Baraff's friction states, frozen): clamped rows a = 0, rows at a bound and sliding rows
   follow their group's normals, every other row keeps its force. One dense LU of the
   m x m effective system E (E = A_CC plus mu times the columns of the following rows),
   O(m^3 + n m). The candidate (unscaled, shared among group members) goes to out; -1 when
   E is singular. The fixed point iteration only has to find the pattern; this gives the
   forces to rounding. */
static int exact_pattern(const box *s, double *E, double *rhs, double *out, double scale_A)
{
    int m = s->ch.m, n = s->n;
    const double *A = s->p->A;
    const int *fn = s->p->friction_normal;
    for (int j = 0; j < n; j++) out[j] = s->sc[j] * s->fh[j];
    for (int j = 0; j < n; j++) {
        double sg = follow(s, j);
        if (sg == 0.0) continue;
        double fixed = 0.0; /* the part from normals outside C */
        for (int t = j; t >= 0; t = s->next[t]) {
            if (s->pos[fn[t]] < 0) fixed += sg * s->p->mu[t] * out[fn[t]];
        }
        out[j] = fixed;
    }
    for (int r = 0; r < m; r++) {
        int i = s->cset[r];
        const double *row = A + (size_t)i * n;
        double acc = s->p->b[i];
        for (int j = 0; j < n; j++) {
            if (s->pos[j] < 0 && out[j] != 0.0) acc += row[j] * out[j];
        }
        rhs[r] = -acc;
        double *er = E + (size_t)r * m;
        for (int q = 0; q < m; q++) er[q] = row[s->cset[q]];
        for (int j = 0; j < n; j++) {
            double sg = follow(s, j);
            if (sg == 0.0 || row[j] == 0.0) continue;
            for (int t = j; t >= 0; t = s->next[t]) {
                int q = s->pos[fn[t]];
                if (q >= 0) er[q] += sg * s->p->mu[t] * row[j];
            }
        }
    }
    if (m > 0 && imp_lcp_lu_solve(E, m, rhs, 1e-13 * scale_A) != 0) return -1;
    for (int r = 0; r < m; r++) out[s->cset[r]] = rhs[r];
    for (int j = 0; j < n; j++) {
        double sg = follow(s, j);
        if (sg == 0.0) continue;
        for (int t = j; t >= 0; t = s->next[t]) {
            int q = s->pos[fn[t]];
            if (q >= 0) out[j] += sg * s->p->mu[t] * rhs[q];
        }
    }
    distribute(s, out);
    return 0;
}

/* (key, index) ordering for the heap sort below */
static int after(const double *keys, int u, int v)
{
    if (keys[u] != keys[v]) return keys[u] > keys[v];
    return u > v;
}

static void sift(const double *keys, int *order, int r, int end)
{
    while (2 * r + 1 < end) {
        int c = 2 * r + 1;
        if (c + 1 < end && after(keys, order[c + 1], order[c])) c++;
        if (!after(keys, order[c], order[r])) return;
        int t = order[c];
        order[c] = order[r];
        order[r] = t;
        r = c;
    }
}

/* Groups of identical static friction rows (the same row of A and the same b, to 1e-12 of
   the scale): tangent rows of contact points on one straight interface (2D) have the same
   Jacobian, so only their sum matters and the group's force is bounded by the sum of the
   members' mu f_n. The representative carries it during the solve;
   distribute() shares it at the end. Candidates are sorted by a fixed random projection of
   their rows (heap sort on keys, ties by index), then compared within runs of equal keys:
   O(n^2 + n log n) with few comparisons. keys, order: n scratch each. */
static void group_rows(box *s, double *keys, int *order, double scale_A)
{
    int n = s->n, nc = 0;
    const imp_lcp_problem *p = s->p;
    for (int i = 0; i < n; i++) {
        s->rep[i] = i;
        s->next[i] = -1;
    }
    if (p->friction_normal == NULL) return;
    for (int i = 0; i < n; i++) {
        if (bkind(s, i) != K_FRIC) continue;
        const double *row = p->A + (size_t)i * n;
        double h = p->b[i] * 0.7548776662466927;
        for (int j = 0; j < n; j++) {
            if (row[j] != 0.0) h += row[j] * (1.0 + (double)((unsigned)(j * 2654435761u) >> 8) / 16777216.0);
        }
        keys[i] = h;
        order[nc++] = i;
    }
    /* heap sort of order[0..nc) by (key, index) */
    for (int r = nc / 2 - 1; r >= 0; r--) sift(keys, order, r, nc);
    for (int end = nc - 1; end > 0; end--) {
        int t = order[0];
        order[0] = order[end];
        order[end] = t;
        sift(keys, order, 0, end);
    }
    double sb = 0.0;
    for (int i = 0; i < n; i++) sb = fmax(sb, fabs(p->b[i]));
    double ta = 1e-12 * scale_A, tb = 1e-12 * (sb > 0.0 ? sb : 1.0);
    for (int x = 0; x < nc; x++) {
        int i = order[x];
        if (s->rep[i] != i || s->next[i] >= 0) continue; /* already in a group */
        /* the first in sorted order represents the group (deterministic) */
        int last = i;
        for (int y = x + 1; y < nc; y++) {
            int j = order[y];
            if (fabs(keys[j] - keys[i]) > 1e3 * (ta + tb) * (double)n) break;
            if (s->rep[j] != j || s->next[j] >= 0 || fabs(p->b[j] - p->b[i]) > tb) continue;
            const double *ri = p->A + (size_t)i * n, *rj = p->A + (size_t)j * n;
            int same = 1;
            for (int k = 0; k < n && same; k++) same = fabs(ri[k] - rj[k]) <= ta;
            if (!same) continue;
            s->next[last] = j;
            s->rep[j] = i;
            last = j;
        }
    }
}

/* one box-bounded solve from the current states: rows in order (bilateral first), then
   sweeps that re-process rows whose condition drifted. */
static imp_lcp_status inner(box *s)
{
    int n = s->n;
    imp_lcp_status st = IMP_LCP_OK;
    for (int sweep = 0; sweep < 8; sweep++) {
        for (int pass = 0; pass < 2 && st == IMP_LCP_OK; pass++) {
            for (int d = 0; d < n && st == IMP_LCP_OK; d++) {
                if (s->st[d] == B_UN && (pass == 0) == (bkind(s, d) == K_BIL)) st = process(s, d);
            }
        }
        if (st != IMP_LCP_OK) return st;
        /* two steps of iterative refinement of the clamped forces, then a from scratch */
        for (int round = 0; round < 2 && s->ch.m > 0; round++) {
            int m = s->ch.m;
            for (int k = 0; k < m; k++) s->x[k] = -arow(s, s->cset[k]);
            imp_chol_forward(&s->ch, s->x);
            imp_chol_backward(&s->ch, s->x);
            for (int k = 0; k < m; k++) s->fh[s->cset[k]] += s->x[k];
        }
        int again = 0;
        for (int i = 0; i < n; i++) {
            if (s->st[i] == B_C) continue;
            s->ah[i] = arow(s, i);
        }
        for (int i = 0; i < n; i++) {
            if (violated(s, i)) {
                if (s->st[i] == B_C) {
                    c_del(s, i);
                    s->fh[i] = fmin(fmax(s->fh[i], lo_of(s, i)), hi_of(s, i));
                }
                s->st[i] = B_UN;
                again = 1;
            }
        }
        if (!again) return IMP_LCP_OK;
    }
    *s->msg = "no consistent set after 8 sweeps of a box-bounded friction step";
    return IMP_LCP_PIVOT_LIMIT;
}

/* the box steps' state of a row from a public state (imp_lcp_solve's output) */
static signed char from_public(const box *s, int i, signed char w)
{
    int k = bkind(s, i);
    if (k == K_MEMBER) return B_UN;
    if (w == IMP_LCP_STATE_CLAMPED) return B_C;
    if (k == K_FRIC && w == IMP_LCP_STATE_UPPER) return B_HI;
    if (k == K_FRIC && w == IMP_LCP_STATE_LOWER) return B_LO;
    return B_UN;
}

imp_lcp_status imp_lcp_solve_box(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                 const signed char *warm_st, const double *warm_f,
                                 imp_lcp_workspace *ws, double *f, imp_lcp_info *info,
                                 const char **msg)
{
    box s;
    memset(&s, 0, sizeof s);
    int n = p->n;
    s.n = n;
    s.p = p;
    s.sc = ws->sc;
    s.fh = ws->fh;
    s.ah = ws->ah;
    s.dfh = ws->dfh;
    s.dah = ws->dah;
    s.y = ws->y;
    s.x = ws->x;
    s.fprev = ws->t;
    s.work = ws->work;
    s.cset = ws->cset;
    s.pos = ws->pos;
    s.nz = ws->list;
    s.rep = ws->list2;
    s.next = ws->rlo;
    s.st = ws->st;
    s.ch.L = ws->big;
    s.ch.first = ws->first;
    s.ch.ld = ws->cap;
    s.ch.m = 0;
    s.ptol = lim->ptol;
    /* its own share of the cap: the driver falls back to lcp_general.c after a failure */
    int large = n > (ws->box_large_rows > 0 ? ws->box_large_rows : IMP_LCP_BOX_LARGE);
    int cap = (large ? 5 : 15) * n + 1000;
    s.max_pivots = lim->max_pivots < cap ? lim->max_pivots : cap;
    s.info = info;
    s.msg = msg;
    double *acheck = ws->sc + 10 * (size_t)ws->cap; /* the workspace's spare row */
    double sb = 0.0;
    for (int i = 0; i < n; i++) {
        double aii = p->A[(size_t)i * n + i];
        if (aii < 0.0) {
            *msg = "negative diagonal entry: A is not positive semidefinite";
            return IMP_LCP_OUTSIDE_CLASS;
        }
        s.sc[i] = aii > 0.0 ? 1.0 / sqrt(aii) : 1.0;
        sb = fmax(sb, fabs(s.sc[i] * p->b[i]));
        s.fh[i] = s.ah[i] = s.dfh[i] = s.dah[i] = 0.0;
        s.fprev[i] = 0.0;
        s.st[i] = B_UN;
        s.pos[i] = -1;
    }
    s.eps_a = 1e-13 * (sb > 0.0 ? sb : 1.0);
    double scale_A = 0.0;
    for (size_t k = 0; k < (size_t)n * n; k++) scale_A = fmax(scale_A, fabs(p->A[k]));
    /* the effective system of exact_pattern lives in the general method's buffer */
    if (ws->ginv_cap < n) {
        free(ws->ginv);
        ws->ginv = malloc(sizeof(double) * (size_t)n * (size_t)n + 1);
        ws->ginv_cap = ws->ginv != NULL ? n : 0;
    }
    double *E = ws->ginv;
    group_rows(&s, s.dah, ws->rhi, scale_A);
    for (int i = 0; i < n; i++) s.dah[i] = 0.0;
    int warmed = warm_st != NULL && warm_f != NULL;
    if (warmed) {
        /* the earlier solve's pattern and friction bounds (its normal forces, unscaled) */
        for (int i = 0; i < n; i++) {
            s.fprev[i] = isfinite(warm_f[i]) ? warm_f[i] : 0.0;
            s.st[i] = from_public(&s, i, warm_st[i]);
        }
        info->warm_started = 1;
    }
    imp_lcp_status st = IMP_LCP_OK;
    int polished = 0;
    int iters = 4 * (int)sqrt((double)n) + 30;
    int done = 0;
    for (int it = 0; it < iters && st == IMP_LCP_OK && !done; it++) {
        s.first_pass = it == 0 && !warmed;
        if (!s.first_pass) warm(&s);
        st = inner(&s);
        if (st != IMP_LCP_OK) break;
        for (int i = 0; i < n; i++) f[i] = s.sc[i] * s.fh[i];
        distribute(&s, f);
        imp_lcp_info chk;
        memset(&chk, 0, sizeof chk);
        /* the Coulomb conditions with the bounds of this iterate's own normal forces: a
           fixed point (the first, frictionless iterate passes when no friction is needed) */
        done = imp_lcp_check(p, f, acheck, lim->tol, &chk);
        if ((it > 0 || warmed) && E != NULL && exact_pattern(&s, E, s.dah, acheck + 0, scale_A) == 0) {
            /* the pattern's exact forces, taken when they pass the same test */
            double *cand_f = s.dfh;
            memcpy(cand_f, acheck, sizeof(double) * (size_t)n);
            int okc = imp_lcp_check(p, cand_f, acheck, lim->tol, &chk);
            if (okc) {
                for (int i = 0; i < n; i++) {
                    f[i] = cand_f[i];
                    s.fh[i] = cand_f[i] / s.sc[i];
                }
                done = polished = 1;
            }
        }
        /* bounds from the mean of the last two iterates: with redundant contacts the
           normal forces are not unique and undamped updates flip between two vertex
           solutions; the mean settles on a consistent split */
        double w = it > 0 || warmed ? 0.5 : 1.0;
        for (int i = 0; i < n; i++) s.fprev[i] = w * f[i] + (1.0 - w) * s.fprev[i];
    }
    if (done) {
        /* the bounds came from the mean of two iterates that agree to the tolerance: put
           the friction forces exactly within (or at) mu times the final normal forces; the
           driver checks the result again */
        for (int i = 0; i < n; i++) {
            int k = bkind(&s, i);
            if ((k != K_FRIC && k != K_SLIDE) || s.next[i] >= 0) continue; /* not groups */
            double c = p->mu[i] * fmax(s.sc[p->friction_normal[i]] * s.fh[p->friction_normal[i]], 0.0) / s.sc[i];
            if (k == K_SLIDE) s.fh[i] = -(double)p->sliding[i] * c;
            else if (s.st[i] == B_HI) s.fh[i] = c;
            else if (s.st[i] == B_LO) s.fh[i] = -c;
            else s.fh[i] = fmin(fmax(s.fh[i], -c), c);
        }
    }
    if (st == IMP_LCP_OK && !done) {
        st = IMP_LCP_PIVOT_LIMIT;
        *msg = "the box-bounded friction steps did not reach a fixed point";
    }
    for (int i = 0; i < n; i++) f[i] = s.sc[i] * s.fh[i];
    if (!polished) distribute(&s, f);
    for (int i = 0; i < n; i++) {
        int k = bkind(&s, i);
        signed char o;
        switch (s.st[i]) {
        case B_C: o = IMP_LCP_STATE_CLAMPED; break;
        case B_HI: o = IMP_LCP_STATE_UPPER; break;
        case B_LO: o = k == K_UNI ? IMP_LCP_STATE_FREE : IMP_LCP_STATE_LOWER; break;
        case B_RED: o = IMP_LCP_STATE_REDUNDANT; break;
        default: o = k == K_SLIDE ? IMP_LCP_STATE_SLIDING : IMP_LCP_STATE_FREE; break;
        }
        s.st[i] = o;
    }
    for (int i = 0; i < n; i++) {
        if (s.rep[i] != i) s.st[i] = s.st[s.rep[i]]; /* a member shares its group's state */
    }
    info->clamped = s.ch.m;
    return st;
}
