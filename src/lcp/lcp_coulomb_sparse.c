/* lcp_coulomb_sparse.c: the compressed-row matrix of the Coulomb solver (impact/coulomb.h):
   building it from dense rows or triplets, products with it. */
#include <stddef.h>

#include "lcp_coulomb_internal.h"

void imp_coulomb_matvec(const imp_coulomb_csr *W, const double *q, const double *r, double *u)
{
    for (int i = 0; i < W->n; i++) {
        double s = 0.0;
        for (int k = W->row_ptr[i]; k < W->row_ptr[i + 1]; k++) s += W->val[k] * r[W->col[k]];
        u[i] = s + q[i];
    }
}

double imp_coulomb_row_dot(const imp_coulomb_csr *W, int i, const double *r)
{
    double s = 0.0;
    for (int k = W->row_ptr[i]; k < W->row_ptr[i + 1]; k++) s += W->val[k] * r[W->col[k]];
    return s;
}

double imp_coulomb_entry(const imp_coulomb_csr *W, int i, int j)
{
    for (int k = W->row_ptr[i]; k < W->row_ptr[i + 1]; k++) {
        if (W->col[k] == j) return W->val[k];
    }
    return 0.0;
}

int imp_coulomb_csr_from_dense(int n, const double *A, int *row_ptr, int *col, double *val)
{
    int nnz = 0;
    for (int i = 0; i < n; i++) {
        if (row_ptr != NULL) row_ptr[i] = nnz;
        for (int j = 0; j < n; j++) {
            double v = A[(size_t)i * n + j];
            if (v == 0.0) continue;
            if (col != NULL) {
                col[nnz] = j;
                val[nnz] = v;
            }
            nnz++;
        }
    }
    if (row_ptr != NULL) row_ptr[n] = nnz;
    return nnz;
}

int imp_coulomb_csr_from_triplets(int n, int nnz, const int *ti, const int *tj, const double *tv,
                                  int *work, int *row_ptr, int *col, double *val)
{
    for (int e = 0; e < nnz; e++) {
        if (ti[e] < 0 || ti[e] >= n || tj[e] < 0 || tj[e] >= n) return -1;
    }
    /* count per row, then place in input order */
    for (int i = 0; i <= n; i++) row_ptr[i] = 0;
    for (int e = 0; e < nnz; e++) row_ptr[ti[e] + 1]++;
    for (int i = 0; i < n; i++) row_ptr[i + 1] += row_ptr[i];
    for (int i = 0; i < n; i++) work[i] = row_ptr[i];
    for (int e = 0; e < nnz; e++) {
        int k = work[ti[e]]++;
        col[k] = tj[e];
        val[k] = tv[e];
    }
    /* merge duplicates (work[j] = where column j sits in the current row, or -1) and drop
       zeros, compacting in place */
    for (int j = 0; j < n; j++) work[j] = -1;
    int out = 0;
    for (int i = 0; i < n; i++) {
        int start = out, b = row_ptr[i], e = row_ptr[i + 1];
        for (int k = b; k < e; k++) {
            int j = col[k];
            if (work[j] >= start) {
                val[work[j]] += val[k];
            } else {
                work[j] = out;
                col[out] = j;
                val[out] = val[k];
                out++;
            }
        }
        int w = start;
        for (int k = start; k < out; k++) {
            work[col[k]] = -1;
            if (val[k] != 0.0) {
                col[w] = col[k];
                val[w] = val[k];
                w++;
            }
        }
        out = w;
        row_ptr[i] = start;
    }
    row_ptr[n] = out;
    return out;
}
