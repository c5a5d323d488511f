/* cholesky.h: the solve of a dense symmetric positive definite system by Cholesky. */
#ifndef IMPACT_CHOLESKY_H
#define IMPACT_CHOLESKY_H

/* x = K^-1 x (n unknowns) by K = L L^T: K's rows lie stride doubles apart; only its lower
   triangle is read, and overwritten by L. Returns 0, or -1 when a pivot is not positive or
   not above min_pivot times K's diagonal entry (min_pivot 0: any positive pivot; the
   engines pass 1e-12 to refuse dependent rows); K is then partly factored. O(n^3 / 3). */
int imp_cholesky_solve(double *K, int stride, double *x, int n, double min_pivot);
/* imp_cholesky_solve's two halves, the same operations: K = L L^T in K's lower triangle (0, or
   -1 as above), then x = K^-1 x from that factor L (which it does not change), so that one
   factor serves several right-hand sides. O(n^3 / 3), O(n^2). */
int imp_cholesky_factor(double *K, int stride, int n, double min_pivot);
void imp_cholesky_back(const double *L, int stride, double *x, int n);

#endif
