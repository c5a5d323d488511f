/* lcp_coulomb_lu.c: the dense LU solve of the Coulomb solver's Newton systems: Gaussian
   elimination with partial pivoting (Golub & Van Loan, algorithm 3.4.1), rows kept
   contiguous so the update loop runs over memory in order, zero multipliers skipped (the
   Newton matrices are sparse until fill-in), and a static pivot: a pivot below tiny (in
   magnitude) is replaced by +-tiny, so a rank-deficient system (redundant contacts) gives a
   bounded step instead of a breakdown; the line search judges the step. */
#include <math.h>
#include <stddef.h>

#include "lcp_coulomb_internal.h"

int imp_coulomb_lu_solve(double *H, int m, int *perm, double *b, double tiny)
{
    (void)perm;
    for (int k = 0; k < m; k++) {
        int pr = k;
        double best = fabs(H[(size_t)k * m + k]);
        for (int i = k + 1; i < m; i++) {
            double v = fabs(H[(size_t)i * m + k]);
            if (v > best) {
                best = v;
                pr = i;
            }
        }
        if (pr != k) {
            double *a = H + (size_t)k * m, *c = H + (size_t)pr * m;
            for (int j = k; j < m; j++) {
                double t = a[j];
                a[j] = c[j];
                c[j] = t;
            }
            double t = b[k];
            b[k] = b[pr];
            b[pr] = t;
        }
        double *restrict rk = H + (size_t)k * m;
        if (!(fabs(rk[k]) > tiny)) rk[k] = rk[k] < 0.0 ? -tiny : tiny;
        double piv = rk[k];
        for (int i = k + 1; i < m; i++) {
            double *restrict ri = H + (size_t)i * m;
            if (ri[k] == 0.0) continue;
            double l = ri[k] / piv;
            ri[k] = l;
            for (int j = k + 1; j < m; j++) ri[j] -= l * rk[j];
            b[i] -= l * b[k];
        }
    }
    for (int i = m - 1; i >= 0; i--) {
        const double *ri = H + (size_t)i * m;
        double s = b[i];
        for (int j = i + 1; j < m; j++) s -= ri[j] * b[j];
        b[i] = s / ri[i];
    }
    for (int i = 0; i < m; i++) {
        if (!isfinite(b[i])) return -1;
    }
    return 0;
}
