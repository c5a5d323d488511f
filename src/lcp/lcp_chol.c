/* lcp_chol.c: incremental Cholesky factor of the clamped block (see lcp_chol.h). The loops
   are written over contiguous rows (dot products with four accumulators, axpy updates) so
   that the compiler can keep them in registers; the order of operations is fixed, so the
   results are deterministic. */
#include "lcp_chol.h"

#include <math.h>
#include <string.h>

/* sum_k a[k] b[k], k < len, with four partial sums (fixed order) */
static double dot(const double *a, const double *b, int len)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    int k = 0;
    for (; k + 4 <= len; k += 4) {
        s0 += a[k] * b[k];
        s1 += a[k + 1] * b[k + 1];
        s2 += a[k + 2] * b[k + 2];
        s3 += a[k + 3] * b[k + 3];
    }
    for (; k < len; k++) {
        s0 += a[k] * b[k];
    }
    return (s0 + s1) + (s2 + s3);
}

void imp_chol_forward(const imp_chol *c, double *y)
{
    int z = 0; /* leading zeros of y stay zero */
    while (z < c->m && y[z] == 0.0) z++;
    for (int i = z; i < c->m; i++) {
        const double *row = c->L + (size_t)i * c->ld;
        int s = c->first[i] > z ? c->first[i] : z;
        y[i] = (y[i] - dot(row + s, y + s, i - s)) / row[i];
    }
}

/* x[k] -= r[k] xi, k < len (restrict + unrolled by two: SIMD at -O2) */
static void axpy_neg(double *restrict x, const double *restrict r, double xi, int len)
{
    int k = 0;
    for (; k + 2 <= len; k += 2) {
        double x0 = x[k] - r[k] * xi, x1 = x[k + 1] - r[k + 1] * xi;
        x[k] = x0;
        x[k + 1] = x1;
    }
    for (; k < len; k++) {
        x[k] -= r[k] * xi;
    }
}

void imp_chol_backward(const imp_chol *c, double *x)
{
    /* column-oriented: x_i is final once rows below are done; then eliminate it from the
       entries above with row i of L (contiguous) */
    for (int i = c->m - 1; i >= 0; i--) {
        const double *row = c->L + (size_t)i * c->ld;
        double xi = x[i] / row[i];
        x[i] = xi;
        int s = c->first[i];
        axpy_neg(x + s, row + s, xi, i - s);
    }
}

int imp_chol_append(imp_chol *c, const double *y, double s)
{
    if (!(s > 0.0) || c->m >= c->ld) {
        return -1;
    }
    double *row = c->L + (size_t)c->m * c->ld;
    int f = 0;
    while (f < c->m && y[f] == 0.0) f++;
    memcpy(row + f, y + f, (size_t)(c->m - f) * sizeof *row);
    row[c->m] = sqrt(s);
    c->first[c->m] = f;
    c->m++;
    return 0;
}

void imp_chol_remove(imp_chol *c, int k, double *work)
{
    /* Deleting row/column k leaves, for the rows below, the trailing block L22 and the
       column x = L[k+1.., k]: the new trailing factor must satisfy L22' L22'^T = L22 L22^T
       + x x^T, a rank-one update done by Givens-like rotations. Row by row: rotation j
       (cs[j], sn[j]) is fixed when row j's diagonal is reached and applied to later rows in
       order, so every access is along a row. Row i is written shifted into row i-1. */
    int m = c->m, ld = c->ld;
    double *cs = work, *sn = work + m;
    for (int i = k + 1; i < m; i++) {
        const double *src = c->L + (size_t)i * ld;
        double *dst = c->L + (size_t)(i - 1) * ld;
        int fi = c->first[i];
        /* a row with no entry in column k is not touched by the rotations before its
           profile starts: it just shifts */
        double xi = fi <= k ? src[k] : 0.0;
        int j0 = fi <= k ? k + 1 : fi;
        if (fi < k) {
            memcpy(dst + fi, src + fi, (size_t)(k - fi) * sizeof *dst);
        }
        c->first[i - 1] = fi <= k ? fi : fi - 1;
        for (int j = j0; j < i; j++) {
            double lij = (src[j] + sn[j] * xi) / cs[j];
            xi = cs[j] * xi - sn[j] * lij;
            dst[j - 1] = lij;
        }
        double lii = src[i];
        double r = sqrt(lii * lii + xi * xi);
        cs[i] = r / lii;
        sn[i] = xi / lii;
        dst[i - 1] = r;
    }
    c->m = m - 1;
}

int imp_chol_add_row(imp_chol *c, int *cset, int *pos, int row, const double *y, double s)
{
    if (imp_chol_append(c, y, s) != 0) {
        return -1;
    }
    cset[c->m - 1] = row;
    pos[row] = c->m - 1;
    return 0;
}

void imp_chol_remove_row(imp_chol *c, int *cset, int *pos, int row, double *work)
{
    int k = pos[row];
    imp_chol_remove(c, k, work);
    for (int q = k; q < c->m; q++) {
        cset[q] = cset[q + 1];
        pos[cset[q]] = q;
    }
    pos[row] = -1;
}
