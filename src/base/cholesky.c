/* cholesky.c: see cholesky.h. The factor column by column (L[i][j] = (K[i][j] - sum over
   k < j of L[i][k] L[j][k]) / L[j][j], the sums in k's order), then L y = x and L^T x = y. */
#include "cholesky.h"

#include <math.h>

int imp_cholesky_factor(double *K, int stride, int n, double min_pivot)
{
    for (int j = 0; j < n; j++) {
        double d = K[j * stride + j];
        for (int k = 0; k < j; k++) {
            d -= K[j * stride + k] * K[j * stride + k];
        }
        if (!(d > 0.0) || (min_pivot > 0.0 && !(d > min_pivot * K[j * stride + j]))) {
            return -1;
        }
        d = sqrt(d);
        K[j * stride + j] = d;
        for (int i = j + 1; i < n; i++) {
            double v = K[i * stride + j];
            for (int k = 0; k < j; k++) {
                v -= K[i * stride + k] * K[j * stride + k];
            }
            K[i * stride + j] = v / d;
        }
    }
    return 0;
}

void imp_cholesky_back(const double *L, int stride, double *x, int n)
{
    for (int i = 0; i < n; i++) {  /* L y = x */
        double v = x[i];
        for (int k = 0; k < i; k++) {
            v -= L[i * stride + k] * x[k];
        }
        x[i] = v / L[i * stride + i];
    }
    for (int i = n - 1; i >= 0; i--) {  /* L^T x = y */
        double v = x[i];
        for (int k = i + 1; k < n; k++) {
            v -= L[k * stride + i] * x[k];
        }
        x[i] = v / L[i * stride + i];
    }
}

int imp_cholesky_solve(double *K, int stride, double *x, int n, double min_pivot)
{
    if (imp_cholesky_factor(K, stride, n, min_pivot) != 0) {
        return -1;
    }
    imp_cholesky_back(K, stride, x, n);
    return 0;
}
