/* lcp_coulomb_lu.c: the LU solve of the Coulomb solver's Newton systems: Gaussian
   elimination with partial pivoting (Golub & Van Loan, algorithm 3.4.1) in dense row-major
   storage, restricted to the envelope of the matrix. With the unknowns in reverse
   Cuthill-McKee order (lcp_coulomb_order.c), column k has nonzeros only down to row
   lrow[k] and row i only up to column ext[i]: the pivot search and the elimination stay in
   rows k..lrow[k] and columns up to the pivot row's extent, which partial pivoting and the
   fill can only carry to rows already inside that range (a row updated at step k has a
   nonzero in column k, so it lies above lrow[k] <= lrow[k'] for every later k'). The cost is
   then about m b^2 for an envelope of width b instead of m^3 / 3. Zero multipliers are
   skipped. A pivot below tiny (in magnitude) is replaced by +-tiny (a static pivot: a
   rank-deficient system, redundant contacts, gives a bounded step; the line search judges
   it). */
#include <math.h>
#include <stddef.h>

#include "lcp_coulomb_internal.h"

int imp_coulomb_lu_solve(double *H, int m, const int *lrow, int *ext, double *b, double tiny)
{
    for (int k = 0; k < m; k++) {
        int last = lrow[k], pr = k;
        double best = fabs(H[(size_t)k * m + k]);
        for (int i = k + 1; i <= last; i++) {
            double v = fabs(H[(size_t)i * m + k]);
            if (v > best) {
                best = v;
                pr = i;
            }
        }
        if (pr != k) {
            double *a = H + (size_t)k * m, *c = H + (size_t)pr * m;
            int e = ext[k] > ext[pr] ? ext[k] : ext[pr];
            for (int j = k; j <= e; j++) {
                double t = a[j];
                a[j] = c[j];
                c[j] = t;
            }
            int t = ext[k];
            ext[k] = ext[pr];
            ext[pr] = t;
            double tb = b[k];
            b[k] = b[pr];
            b[pr] = tb;
        }
        double *restrict rk = H + (size_t)k * m;
        if (!(fabs(rk[k]) > tiny)) rk[k] = rk[k] < 0.0 ? -tiny : tiny;
        double piv = rk[k];
        int ek = ext[k];
        for (int i = k + 1; i <= last; i++) {
            double *restrict ri = H + (size_t)i * m;
            if (ri[k] == 0.0) continue;
            double l = ri[k] / piv;
            ri[k] = l;
            int j = k + 1;
            for (; j + 3 <= ek; j += 4) { /* unrolled: the same operations, more in flight */
                double a0 = ri[j] - l * rk[j], a1 = ri[j + 1] - l * rk[j + 1];
                double a2 = ri[j + 2] - l * rk[j + 2], a3 = ri[j + 3] - l * rk[j + 3];
                ri[j] = a0;
                ri[j + 1] = a1;
                ri[j + 2] = a2;
                ri[j + 3] = a3;
            }
            for (; j <= ek; j++) ri[j] -= l * rk[j];
            if (ext[i] < ek) ext[i] = ek;
            b[i] -= l * b[k];
        }
    }
    for (int i = m - 1; i >= 0; i--) {
        const double *ri = H + (size_t)i * m;
        double s = b[i];
        for (int j = i + 1; j <= ext[i]; j++) s -= ri[j] * b[j];
        b[i] = s / ri[i];
    }
    for (int i = 0; i < m; i++) {
        if (!isfinite(b[i])) return -1;
    }
    return 0;
}
