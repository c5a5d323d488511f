/* lcp_general_inverse.c: the general method's (lcp_general.c) inverse of the effective clamped
   matrix, kept up to date by O(m^2) updates per change of the clamped set or of a friction
   row's state. */
#include <math.h>
#include <stddef.h>

#include "lcp_general_internal.h"

/* ---- Incremental inverse of the effective clamped matrix ----
   E[r][q] = A(fcl_r, fcl_q) + sum over friction rows t following normal fcl_q of
   fcoef[t] A(fcl_r, t). Between two pivots E changes by a few of: a row/column appended
   (Schur complement, bordered inverse), a row/column removed (the inverse of a principal
   submatrix from the full inverse), a column changed by a multiple of a column of A (a
   friction row starts or stops following its normal: Sherman-Morrison). Each is O(m^2),
   so a pivot costs O(m^2 + n nnz) instead of the O(m^3) of a fresh LU, and a solve
   O(n^3) instead of O(n^4). A tiny Schur complement / denominator, or too many updates
   since the last fresh factor, triggers a fresh LU (O(m^3)); so does a residual check
   (Delta a must vanish on the clamped rows) after each direction. */

static double *einv(const gen *g, int r, int q) { return g->Einv + (size_t)r * g->n + q; }

/* fresh factor: E built from the clamped set and the current dependent coefficients, then
   inverted through an LU with partial pivoting. -1 when E is singular. O(m^3). */
int imp_lcp_gen_fresh_inverse(gen *g)
{
    int m = g->m, n = g->n;
    for (int t = 0; t < n; t++) g->fcoef[t] = 0.0;
    for (int i = 0; i < n; i++) g->fpos[i] = -1;
    for (int r = 0; r < m; r++) {
        g->fcl[r] = g->cl[r];
        g->fpos[g->cl[r]] = r;
    }
    g->fm = m;
    g->updates = 0;
    for (int r = 0; r < m; r++) {
        int i = g->cl[r];
        for (int q = 0; q < m; q++) g->M[(size_t)r * m + q] = A_(g, i, g->cl[q]);
    }
    for (int t = 0; t < n; t++) {
        if (!is_dep(g, t) || g->fpos[normal_of(g, t)] < 0) continue;
        int q = g->fpos[normal_of(g, t)];
        double c = coef(g, t);
        g->fcoef[t] = c;
        for (int r = 0; r < m; r++) g->M[(size_t)r * m + q] += c * A_(g, g->cl[r], t);
    }
    for (int k = 0; k < m; k++) {
        for (int r = 0; r < m; r++) g->u[r] = (r == k) ? 1.0 : 0.0;
        /* factor once (k == 0), then reuse the factor for each unit vector */
        if (k == 0) {
            for (int r = 0; r < m; r++) g->perm[r] = r;
            for (int c = 0; c < m; c++) {
                int pr = c;
                for (int r = c + 1; r < m; r++) {
                    if (fabs(g->M[(size_t)r * m + c]) > fabs(g->M[(size_t)pr * m + c])) pr = r;
                }
                if (!(fabs(g->M[(size_t)pr * m + c]) > 1e-13 * g->scale_A)) return -1;
                if (pr != c) {
                    for (int j = 0; j < m; j++) {
                        double t = g->M[(size_t)c * m + j];
                        g->M[(size_t)c * m + j] = g->M[(size_t)pr * m + j];
                        g->M[(size_t)pr * m + j] = t;
                    }
                    int t = g->perm[c];
                    g->perm[c] = g->perm[pr];
                    g->perm[pr] = t;
                }
                const double *rc = g->M + (size_t)c * m;
                for (int r = c + 1; r < m; r++) {
                    double *rr = g->M + (size_t)r * m;
                    double l = rr[c] / rc[c];
                    rr[c] = l;
                    if (l == 0.0) continue;
                    for (int j = c + 1; j < m; j++) rr[j] -= l * rc[j];
                }
            }
        }
        /* solve L U x = P e_k: v = P e_k, forward, backward */
        for (int r = 0; r < m; r++) g->v[r] = g->u[g->perm[r]];
        for (int r = 0; r < m; r++) {
            const double *rr = g->M + (size_t)r * m;
            double sum = g->v[r];
            for (int j = 0; j < r; j++) sum -= rr[j] * g->v[j];
            g->v[r] = sum;
        }
        for (int r = m - 1; r >= 0; r--) {
            const double *rr = g->M + (size_t)r * m;
            double sum = g->v[r];
            for (int j = r + 1; j < m; j++) sum -= rr[j] * g->v[j];
            g->v[r] = sum / rr[r];
        }
        for (int r = 0; r < m; r++) *einv(g, r, k) = g->v[r];
    }
    return 0;
}

/* removes factored row/column k (the last one moves into its place). -1: refactor. */
static int inv_remove(gen *g, int k)
{
    int m = g->fm;
    double p = *einv(g, k, k);
    double big = 0.0;
    for (int r = 0; r < m; r++) big = fmax(big, fabs(*einv(g, r, k)));
    if (!(fabs(p) > 1e-12 * big)) return -1;
    for (int r = 0; r < m; r++) {
        if (r == k) continue;
        double l = *einv(g, r, k) / p;
        if (l == 0.0) continue;
        double *er = einv(g, r, 0);
        const double *ek = einv(g, k, 0);
        for (int q = 0; q < m; q++) er[q] -= l * ek[q];
    }
    int last = m - 1;
    if (k != last) {
        for (int q = 0; q < m; q++) *einv(g, k, q) = *einv(g, last, q);
        for (int r = 0; r < m; r++) *einv(g, r, k) = *einv(g, r, last);
    }
    int row = g->fcl[k];
    g->fpos[row] = -1;
    if (k != last) {
        g->fcl[k] = g->fcl[last];
        g->fpos[g->fcl[k]] = k;
    }
    g->fm = last;
    /* friction rows that followed it are no longer part of any column */
    if (g->p->friction_normal != NULL) {
        for (int t = 0; t < g->n; t++) {
            if (g->fcoef[t] != 0.0 && normal_of(g, t) == row) g->fcoef[t] = 0.0;
        }
    }
    return 0;
}

/* column q += u (u over the factored rows): Sherman-Morrison. -1: refactor. */
static int inv_column_update(gen *g, int q)
{
    int m = g->fm;
    /* v = Einv u; the new inverse is Einv - v (row q of Einv) / (1 + v_q) */
    for (int r = 0; r < m; r++) {
        const double *er = einv(g, r, 0);
        double sum = 0.0;
        for (int k = 0; k < m; k++) sum += er[k] * g->u[k];
        g->v[r] = sum;
    }
    double den = 1.0 + g->v[q];
    if (!(fabs(den) > 1e-10 * (1.0 + fabs(g->v[q])))) return -1;
    double *eq = einv(g, q, 0);
    double scale = 1.0 / den;
    for (int r = 0; r < m; r++) {
        if (r == q) continue;
        double l = g->v[r] * scale;
        if (l == 0.0) continue;
        double *er = einv(g, r, 0);
        for (int k = 0; k < m; k++) er[k] -= l * eq[k];
    }
    for (int k = 0; k < m; k++) eq[k] -= g->v[q] * scale * eq[k];
    return 0;
}

/* appends clamped row/column j (its column with the current coefficients of the friction
   rows that follow it): bordered inverse through the Schur complement. -1: refactor. */
static int inv_append(gen *g, int j)
{
    int m = g->fm, n = g->n;
    /* u = column j over the factored rows, v = row j over the factored columns, e = E_jj */
    double e = A_(g, j, j);
    for (int r = 0; r < m; r++) {
        g->u[r] = A_(g, g->fcl[r], j);
        g->v[r] = A_(g, j, g->fcl[r]);
    }
    for (int t = 0; t < n && g->p->friction_normal != NULL; t++) {
        if (g->fcoef[t] != 0.0) {
            g->v[g->fpos[normal_of(g, t)]] += g->fcoef[t] * A_(g, j, t);
        } else if (is_dep(g, t) && normal_of(g, t) == j) {
            double c = coef(g, t);
            for (int r = 0; r < m; r++) g->u[r] += c * A_(g, g->fcl[r], t);
            e += c * A_(g, j, t);
        }
    }
    /* x = Einv u, y^T = v^T Einv, s = e - v.x (stored in the spare row/column m) */
    double *x = g->w2;
    double s = e;
    for (int r = 0; r < m; r++) {
        const double *er = einv(g, r, 0);
        double sum = 0.0;
        for (int k = 0; k < m; k++) sum += er[k] * g->u[k];
        x[r] = sum;
        s -= g->v[r] * sum;
    }
    for (int k = 0; k < m; k++) g->u[k] = 0.0;
    for (int r = 0; r < m; r++) {
        const double *er = einv(g, r, 0);
        double vr = g->v[r];
        if (vr == 0.0) continue;
        for (int k = 0; k < m; k++) g->u[k] += vr * er[k];
    }
    double sc = fabs(e);
    for (int r = 0; r < m; r++) sc = fmax(sc, fabs(g->v[r] * x[r]));
    if (!(fabs(s) > 1e-11 * fmax(sc, 1e-300)) || !(fabs(s) > 1e-13 * g->scale_A)) return -1;
    for (int r = 0; r < m; r++) {
        double *er = einv(g, r, 0);
        double l = x[r] / s;
        if (l != 0.0) {
            for (int k = 0; k < m; k++) er[k] += l * g->u[k];
        }
        er[m] = -l;
    }
    for (int k = 0; k < m; k++) *einv(g, m, k) = -g->u[k] / s;
    *einv(g, m, m) = 1.0 / s;
    g->fcl[m] = j;
    g->fpos[j] = m;
    g->fm = m + 1;
    for (int t = 0; t < n && g->p->friction_normal != NULL; t++) {
        if (g->fcoef[t] == 0.0 && is_dep(g, t) && normal_of(g, t) == j) g->fcoef[t] = coef(g, t);
    }
    return 0;
}

/* brings Einv up to the current clamped set and dependent states. -1: E is singular. */
int imp_lcp_gen_sync_inverse(gen *g)
{
    int n = g->n, ok = g->updates <= 4 * n + 16;
    for (int k = g->fm - 1; k >= 0 && ok; k--) {
        if (g->pos[g->fcl[k]] < 0) {
            ok = inv_remove(g, k) == 0;
            g->updates++;
        }
    }
    for (int t = 0; t < n && ok && g->p->friction_normal != NULL; t++) {
        int nn = normal_of(g, t);
        if (nn < 0) continue;
        double want = g->fpos[nn] >= 0 ? coef(g, t) : 0.0;
        if (want == g->fcoef[t]) continue;
        int q = g->fpos[nn];
        for (int r = 0; r < g->fm; r++) g->u[r] = (want - g->fcoef[t]) * A_(g, g->fcl[r], t);
        ok = inv_column_update(g, q) == 0;
        g->fcoef[t] = want;
        g->updates++;
    }
    for (int r = 0; r < g->m && ok; r++) {
        if (g->fpos[g->cl[r]] < 0) {
            ok = inv_append(g, g->cl[r]) == 0;
            g->updates++;
        }
    }
    if (ok) return 0;
    return imp_lcp_gen_fresh_inverse(g);
}

/* Delta f on the clamped rows for rhs (in cl order, overwritten): x = Einv rhs, mapped from
   the factored order. O(m^2). */
void imp_lcp_gen_inv_apply(gen *g)
{
    int m = g->m;
    double *x = g->w2;
    for (int r = 0; r < m; r++) x[g->fpos[g->cl[r]]] = g->rhs[r];
    for (int r = 0; r < m; r++) {
        const double *er = einv(g, r, 0);
        double sum = 0.0;
        for (int k = 0; k < m; k++) sum += er[k] * x[k];
        g->v[r] = sum;
    }
    for (int r = 0; r < m; r++) g->rhs[r] = g->v[g->fpos[g->cl[r]]];
}
