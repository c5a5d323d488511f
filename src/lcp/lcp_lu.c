/* lcp_lu.c: the dense LU solve shared by the LCP methods: Gaussian elimination with partial
   pivoting (Golub & Van Loan, "Matrix Computations", algorithm 3.4.1) applied to the
   right-hand side as it goes. Used for the reference path and final re-solves of
   lcp_general.c, Lemke's final refactorization (lcp_lemke.c) and the exact re-solve of a
   stable friction state in lcp_box.c. */
#include <math.h>

#include "lcp_internal.h"

int imp_lcp_lu_solve(double *M, int m, double *rhs, double tol)
{
    for (int k = 0; k < m; k++) {
        int pr = k;
        double best = fabs(M[(size_t)k * m + k]);
        for (int i = k + 1; i < m; i++) {
            double v = fabs(M[(size_t)i * m + k]);
            if (v > best) {
                best = v;
                pr = i;
            }
        }
        if (!(best > tol)) {
            return -1;
        }
        if (pr != k) {
            for (int j = 0; j < m; j++) {
                double t = M[(size_t)k * m + j];
                M[(size_t)k * m + j] = M[(size_t)pr * m + j];
                M[(size_t)pr * m + j] = t;
            }
            double t = rhs[k];
            rhs[k] = rhs[pr];
            rhs[pr] = t;
        }
        const double *rk = M + (size_t)k * m;
        for (int i = k + 1; i < m; i++) {
            double *ri = M + (size_t)i * m;
            double l = ri[k] / rk[k];
            if (l == 0.0) continue;
            for (int j = k + 1; j < m; j++) ri[j] -= l * rk[j];
            rhs[i] -= l * rhs[k];
        }
    }
    for (int i = m - 1; i >= 0; i--) {
        const double *ri = M + (size_t)i * m;
        double s = rhs[i];
        for (int j = i + 1; j < m; j++) s -= ri[j] * rhs[j];
        rhs[i] = s / ri[i];
    }
    for (int i = 0; i < m; i++) {
        if (!isfinite(rhs[i])) return -1;
    }
    return 0;
}
