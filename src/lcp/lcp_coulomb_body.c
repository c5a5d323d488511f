/* lcp_coulomb_body.c: the Newton direction of the Coulomb solver in dof space, for a W
   given by its factors W = J Minv J^T (impact/coulomb.h, imp_coulomb_factors).

   The rows' system (lcp_coulomb_newton.c) on the active rows (sticking and sliding
   contacts, bilateral rows; open contacts' steps -phi known and moved to the right-hand
   side) is H dr = b with
     H = A + B (W + delta D) = Dw + B J Minv J^T,   Dw = A + delta B D,
   A, B the Alart-Curnier blocks (3x3 per contact; bilateral row k: A = 0, B = rho_k),
   D = diag(1 / rho): Dw is block diagonal (sticking: delta I; sliding: lower block
   triangular, det = delta det(I - (1 - delta) P) with |P| < 1; bilateral: delta), and
     b = -phi_active + B_active J_active Minv J_open^T phi_open.
   When every block of Dw is invertible, Woodbury's identity (with U = B J Minv, V^T = J)
   gives
     dr = Dw^-1 b - Dw^-1 B J w,   w = Minv z,   (I + J^T Dw^-1 B J Minv) z = J^T Dw^-1 b
   (check: H dr = b + B J Minv (J^T Dw^-1 b - (I + J^T Dw^-1 B J Minv) z) = b), an ndof x
   ndof system instead of the m x m one: for stacked boxes (4 points per face pair, W of
   rank <= ndof << m) this is the cheap side. Its matrix is formed row by row of J
   (J^T G J Minv, G = Dw^-1 B, from each row's sparse J_l Minv), equilibrated by powers of
   2 per row and solved by imp_coulomb_lu_solve within its envelope in the caller's dof
   order. det(I + J^T Dw^-1 B J Minv) = det(H) / det(Dw): it is singular exactly when H is.

   When to give up (the caller then solves the rows' system for this iteration):
   - a block of Dw not invertible, or with |Dw_c^-1| max(1, |B_c| |W_cc|) > 1e13 (infinity
     norms; B W is about 1 with rho's scaling): the block is then as small as the pivots
     the rows' path replaces by its static pivot (1e-13 of the largest entry), a choice
     (bounding the step along the null space of W) that it makes, not this path. Above
     that, Woodbury's subtraction Dw^-1 (b - B J w) loses about eps |Dw^-1| |B W| of the
     step, as much as the rows' LU of H (condition about |B W| / delta when W is
     rank-deficient) loses there: the two directions agree to about 3e-15 / delta
     (relative) on the test scenes. In the driver delta = lam * error >= the tolerance
     (1e-10 by default), far from the limit;
   - a pivot of the equilibrated dof system below 1e-12 (H nearly singular: the rows'
     path and its static pivot handle it as before). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lcp_coulomb_internal.h"

#define DW_LIMIT 1e13
#define PIVOT_MIN 1e-12

void imp_coulomb_body_free(imp_coulomb_workspace *ws)
{
    free(ws->bz);
    free(ws->bw);
    free(ws->bs);
    free(ws->bmark);
    free(ws->blist);
    free(ws->blrow);
    free(ws->bext);
    free(ws->bfirst);
    free(ws->bmap);
    free(ws->bdofs);
    ws->bz = ws->bw = ws->bs = NULL;
    ws->bmark = ws->blist = ws->blrow = ws->bext = ws->bfirst = ws->bmap = ws->bdofs = NULL;
    ws->bcap = 0;
}

int imp_coulomb_body_reserve(imp_coulomb_workspace *ws, int ndof)
{
    if (ndof <= ws->bcap && ws->bz != NULL) return 0;
    imp_coulomb_body_free(ws);
    size_t N = ndof > 0 ? (size_t)ndof : 1;
    ws->bz = malloc(N * sizeof(double));
    ws->bw = malloc(N * sizeof(double));
    ws->bs = calloc(N, sizeof(double));
    ws->bmark = calloc(N, sizeof(int));
    ws->blist = malloc(N * sizeof(int));
    ws->blrow = malloc(N * sizeof(int));
    ws->bext = malloc(N * sizeof(int));
    ws->bfirst = malloc(N * sizeof(int));
    ws->bmap = malloc(N * sizeof(int));
    ws->bdofs = malloc(N * sizeof(int));
    if (!ws->bz || !ws->bw || !ws->bs || !ws->bmark || !ws->blist || !ws->blrow || !ws->bext || !ws->bfirst ||
        !ws->bmap || !ws->bdofs) {
        imp_coulomb_body_free(ws);
        return -1;
    }
    ws->bcap = ndof;
    return 0;
}

static double norm_inf3(const double *M)
{
    double m = 0.0;
    for (int a = 0; a < 3; a++) m = fmax(m, fabs(M[3 * a]) + fabs(M[3 * a + 1]) + fabs(M[3 * a + 2]));
    return m;
}

/* the inverse of a 3x3 matrix by cofactors: 0, or -1 when singular */
static int inv3(const double *M, double *X)
{
    double c00 = M[4] * M[8] - M[5] * M[7], c01 = M[5] * M[6] - M[3] * M[8], c02 = M[3] * M[7] - M[4] * M[6];
    double det = M[0] * c00 + M[1] * c01 + M[2] * c02;
    if (!(det != 0.0) || !isfinite(det)) return -1;
    double id = 1.0 / det;
    X[0] = c00 * id;
    X[1] = (M[2] * M[7] - M[1] * M[8]) * id;
    X[2] = (M[1] * M[5] - M[2] * M[4]) * id;
    X[3] = c01 * id;
    X[4] = (M[0] * M[8] - M[2] * M[6]) * id;
    X[5] = (M[2] * M[3] - M[0] * M[5]) * id;
    X[6] = c02 * id;
    X[7] = (M[1] * M[6] - M[0] * M[7]) * id;
    X[8] = (M[0] * M[4] - M[1] * M[3]) * id;
    for (int k = 0; k < 9; k++) {
        if (!isfinite(X[k])) return -1;
    }
    return 0;
}

/* y = M x */
static void mul(const imp_coulomb_csr *M, const double *x, double *y)
{
    for (int i = 0; i < M->n; i++) y[i] = imp_coulomb_row_dot(M, i, x);
}

/* the blocks Dw^-1 and G = Dw^-1 B of the active rows: 0, or -1 (one is not usable) */
static int blocks(imp_coulomb_workspace *ws, double delta)
{
    int nc = ws->nc;
    for (int c = 0; c < nc; c++) {
        if (ws->kind[c] == 0) continue;
        const int *rows = ws->crow + 3 * c;
        const double *A = ws->ja + 9 * c, *B = ws->jb + 9 * c;
        double Dw[9], *Di = ws->dwi + 9 * c, *G = ws->gb + 9 * c;
        for (int a = 0; a < 3; a++) {
            for (int l = 0; l < 3; l++) Dw[3 * a + l] = A[3 * a + l] + B[3 * a + l] * delta / ws->rho[rows[l]];
        }
        if (inv3(Dw, Di) != 0) return -1;
        double scale = fmax(1.0, norm_inf3(B) * norm_inf3(ws->wdiag + 9 * c));
        if (!(norm_inf3(Di) * scale <= DW_LIMIT)) return -1;
        for (int a = 0; a < 3; a++) {
            for (int l = 0; l < 3; l++) {
                G[3 * a + l] = Di[3 * a] * B[l] + Di[3 * a + 1] * B[3 + l] + Di[3 * a + 2] * B[6 + l];
            }
        }
    }
    for (int b = 0; b < ws->nb; b++) {
        int k = ws->brow[b];
        if (!(delta > 0.0)) return -1;
        double di = 1.0 / delta;
        if (!(di * fmax(1.0, ws->rho[k] * fabs(ws->wdiag[9 * nc + b])) <= DW_LIMIT)) return -1;
        ws->dwi[9 * nc + b] = di;
        ws->gb[9 * nc + b] = ws->rho[k] * di;
    }
    return 0;
}

/* adds coef * J_l Minv to the dof scratch bs (touched entries listed in blist) */
static int add_jminv(const imp_coulomb_factors *f, imp_coulomb_workspace *ws, int l, double coef, int nl)
{
    const imp_coulomb_csr *J = &f->J, *M = &f->Minv;
    for (int k = J->row_ptr[l]; k < J->row_ptr[l + 1]; k++) {
        int d = J->col[k];
        double v = coef * J->val[k];
        if (v == 0.0) continue;
        for (int e = M->row_ptr[d]; e < M->row_ptr[d + 1]; e++) {
            int j = M->col[e];
            if (!ws->bmark[j]) {
                ws->bmark[j] = 1;
                ws->blist[nl++] = j;
            }
            ws->bs[j] += v * M->val[e];
        }
    }
    return nl;
}

/* C += J_i^T (sum_l g_l J_{rows l} Minv) for one active row i (C = ws->H, nt x nt on the
   dofs the active rows touch, numbered by bmap; a column outside multiplies z = 0 there)
   and bz += J_i^T (Dw^-1 b)_i */
static void add_row(const imp_coulomb_factors *f, imp_coulomb_workspace *ws, int i, const int *rows,
                    const double *g, int cnt, int nt)
{
    const imp_coulomb_csr *J = &f->J;
    const int *map = ws->bmap;
    int nl = 0;
    for (int l = 0; l < cnt; l++) {
        if (g[l] != 0.0) nl = add_jminv(f, ws, rows[l], g[l], nl);
    }
    for (int k = J->row_ptr[i]; k < J->row_ptr[i + 1]; k++) {
        double ja = J->val[k];
        if (ja == 0.0) continue;
        int a = map[J->col[k]];
        double *ca = ws->H + (size_t)a * (size_t)nt;
        for (int t = 0; t < nl; t++) {
            int j = ws->blist[t];
            if (map[j] >= 0) ca[map[j]] += ja * ws->bs[j];
        }
        ws->bz[a] += ja * ws->dr[i];
    }
    for (int t = 0; t < nl; t++) {
        ws->bs[ws->blist[t]] = 0.0;
        ws->bmark[ws->blist[t]] = 0;
    }
}

/* LU solve of the dof system C z = bz (C = ws->H, nd x nd): rows equilibrated by powers of
   2, the envelope in the given order; 0, or -1 for a pivot below PIVOT_MIN */
static int solve_dofs(imp_coulomb_workspace *ws, int nd)
{
    double *C = ws->H;
    int *first = ws->bfirst, *lrow = ws->blrow, *ext = ws->bext;
    for (int i = 0; i < nd; i++) {
        double *ci = C + (size_t)i * nd, mx = 0.0;
        int f = 0, e = nd - 1;
        while (f < i && ci[f] == 0.0) f++;
        while (e > i && ci[e] == 0.0) e--;
        for (int j = f; j <= e; j++) mx = fmax(mx, fabs(ci[j]));
        if (!(mx > 0.0) || !isfinite(mx)) return -1;
        int ex;
        (void)frexp(mx, &ex);
        double s = ldexp(1.0, -ex);
        for (int j = f; j <= e; j++) ci[j] *= s;
        ws->bz[i] *= s;
        first[i] = f;
        ext[i] = e;
        lrow[i] = i;
    }
    for (int i = 0; i < nd; i++) {
        if (lrow[first[i]] < i) lrow[first[i]] = i;
    }
    for (int k = 1; k < nd; k++) {
        if (lrow[k] < lrow[k - 1]) lrow[k] = lrow[k - 1];
    }
    if (imp_coulomb_lu_solve(C, nd, lrow, ext, ws->bz, PIVOT_MIN) != 0) return -1;
    for (int k = 0; k < nd; k++) {
        if (!(fabs(C[(size_t)k * nd + k]) > PIVOT_MIN)) return -1;
    }
    return 0;
}

int imp_coulomb_body_direction(const imp_coulomb_problem *p, imp_coulomb_workspace *ws, double delta, int m)
{
    const imp_coulomb_factors *f = p->factors;
    const imp_coulomb_csr *J = &f->J;
    int nd = f->ndof, nc = ws->nc;
    /* the dofs the active rows touch, in the caller's order (the others' rows of the dof
       system are those of I with a zero right-hand side: z = 0 there) */
    int *map = ws->bmap, nt = 0;
    for (int d = 0; d < nd; d++) map[d] = -1;
    for (int c = 0; c < nc; c++) {
        if (ws->kind[c] == 0) continue;
        for (int a = 0; a < 3; a++) {
            int i = ws->crow[3 * c + a];
            for (int k = J->row_ptr[i]; k < J->row_ptr[i + 1]; k++) map[J->col[k]] = -2;
        }
    }
    for (int bi = 0; bi < ws->nb; bi++) {
        int i = ws->brow[bi];
        for (int k = J->row_ptr[i]; k < J->row_ptr[i + 1]; k++) map[J->col[k]] = -2;
    }
    for (int d = 0; d < nd; d++) {
        if (map[d] == -2) {
            map[d] = nt;
            ws->bdofs[nt++] = d;
        }
    }
    if (nt >= m && ws->path != 2) return -1; /* no gain: the rows' path */
    if (blocks(ws, delta) != 0) return -1;
    /* the open contacts' part of the right-hand side: t = Minv J_open^T phi_open */
    double *y = ws->bz, *t = ws->bw;
    int any_open = 0;
    memset(y, 0, (size_t)nd * sizeof(double));
    for (int c = 0; c < nc; c++) {
        if (ws->kind[c] != 0) continue;
        for (int a = 0; a < 3; a++) {
            int i = ws->crow[3 * c + a];
            double ph = ws->phi[i];
            if (ph == 0.0) continue;
            any_open = 1;
            for (int k = J->row_ptr[i]; k < J->row_ptr[i + 1]; k++) y[J->col[k]] += J->val[k] * ph;
        }
    }
    if (any_open) mul(&f->Minv, y, t);
    /* db = Dw^-1 b into dr (active rows), -phi for the open ones */
    for (int c = 0; c < nc; c++) {
        const int *rows = ws->crow + 3 * c;
        if (ws->kind[c] == 0) {
            for (int a = 0; a < 3; a++) ws->dr[rows[a]] = -ws->phi[rows[a]];
            continue;
        }
        const double *B = ws->jb + 9 * c, *Di = ws->dwi + 9 * c;
        double v[3] = {0.0, 0.0, 0.0}, b[3];
        if (any_open) {
            for (int a = 0; a < 3; a++) v[a] = imp_coulomb_row_dot(J, rows[a], t);
        }
        for (int a = 0; a < 3; a++) b[a] = -ws->phi[rows[a]] + B[3 * a] * v[0] + B[3 * a + 1] * v[1] + B[3 * a + 2] * v[2];
        for (int a = 0; a < 3; a++) ws->dr[rows[a]] = Di[3 * a] * b[0] + Di[3 * a + 1] * b[1] + Di[3 * a + 2] * b[2];
    }
    for (int bi = 0; bi < ws->nb; bi++) {
        int k = ws->brow[bi];
        double v = any_open ? imp_coulomb_row_dot(J, k, t) : 0.0;
        ws->dr[k] = ws->dwi[9 * nc + bi] * (-ws->phi[k] + ws->rho[k] * v);
    }
    /* C = I + J^T G J Minv and its right-hand side J^T Dw^-1 b */
    memset(ws->H, 0, (size_t)nt * (size_t)nt * sizeof(double));
    memset(ws->bz, 0, (size_t)nt * sizeof(double));
    for (int c = 0; c < nc; c++) {
        if (ws->kind[c] == 0) continue;
        const int *rows = ws->crow + 3 * c;
        for (int a = 0; a < 3; a++) add_row(f, ws, rows[a], rows, ws->gb + 9 * c + 3 * a, 3, nt);
    }
    for (int bi = 0; bi < ws->nb; bi++) {
        int k = ws->brow[bi];
        add_row(f, ws, k, &k, ws->gb + 9 * nc + bi, 1, nt);
    }
    for (int d = 0; d < nt; d++) ws->H[(size_t)d * nt + d] += 1.0;
    if (solve_dofs(ws, nt) != 0) return -1;
    /* w = Minv z on the touched dofs (all the active rows read); dr = Dw^-1 b - G J w */
    double *w = ws->bw;
    const imp_coulomb_csr *M = &f->Minv;
    for (int t2 = 0; t2 < nt; t2++) {
        int d = ws->bdofs[t2];
        double x = 0.0;
        for (int k = M->row_ptr[d]; k < M->row_ptr[d + 1]; k++) {
            int j = map[M->col[k]];
            if (j >= 0) x += M->val[k] * ws->bz[j];
        }
        w[d] = x;
    }
    for (int c = 0; c < nc; c++) {
        if (ws->kind[c] == 0) continue;
        const int *rows = ws->crow + 3 * c;
        const double *G = ws->gb + 9 * c;
        double v[3];
        for (int a = 0; a < 3; a++) v[a] = imp_coulomb_row_dot(J, rows[a], w);
        for (int a = 0; a < 3; a++) ws->dr[rows[a]] -= G[3 * a] * v[0] + G[3 * a + 1] * v[1] + G[3 * a + 2] * v[2];
    }
    for (int bi = 0; bi < ws->nb; bi++) {
        int k = ws->brow[bi];
        ws->dr[k] -= ws->gb[9 * nc + bi] * imp_coulomb_row_dot(J, k, w);
    }
    for (int i = 0; i < p->W.n; i++) {
        if (!isfinite(ws->dr[i])) return -1;
    }
    return 0;
}
