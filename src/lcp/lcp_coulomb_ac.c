/* lcp_coulomb_ac.c: the Alart-Curnier function of one contact and its generalized Jacobian
   (P. Alart, A. Curnier, "A mixed formulation for frictional contact problems prone to Newton
   like solution methods", CMAME 92, 1991; the form of Christensen, Klarbring, Pang &
   Stromberg, IJNME 42, 1998), and Siconos' error measure.

     x_N = r_N - rho_N u_N,   y = r_T - rho_T u_T,   R = mu max(0, x_N)
     Phi_N = r_N - max(0, x_N)
     Phi_T = r_T - P_{disc(R)}(y)
   Phi = 0 exactly when r, u satisfy Coulomb's law (any rho_N, rho_T > 0). Three pieces:
     open      x_N <= 0:           Phi = r               (A = I, B = 0)
     sticking  x_N > 0, |y| <= R:  Phi = (rho_N u_N, rho_T u_T)   (A = 0, B = diag(rho))
     sliding   x_N > 0, |y| > R:   Phi_N = rho_N u_N, Phi_T = r_T - R y/|y|, with
               g = y/|y|, P = (I - g g^T) R/|y|:
               dPhi_T/dr_T = I - P, dPhi_T/dr_N = -mu g,
               dPhi_T/du_T = rho_T P, dPhi_T/du_N = mu rho_N g.
   On the boundaries between pieces any of the adjacent pieces is a valid element of the
   generalized Jacobian; the tests pick one deterministically. */
#include <math.h>
#include <stddef.h>

#include "lcp_coulomb_internal.h"

int imp_coulomb_ac(const double r[3], const double u[3], double mu, double rn, double rt,
                   double phi[3], double *A, double *B)
{
    double xn = r[0] - rn * u[0];
    if (A != NULL) {
        for (int k = 0; k < 9; k++) A[k] = B[k] = 0.0;
    }
    if (!(xn > 0.0)) {
        phi[0] = r[0];
        phi[1] = r[1];
        phi[2] = r[2];
        if (A != NULL) A[0] = A[4] = A[8] = 1.0;
        return 0;
    }
    double y1 = r[1] - rt * u[1], y2 = r[2] - rt * u[2];
    double ny = sqrt(y1 * y1 + y2 * y2);
    double R = mu * xn;
    phi[0] = rn * u[0];
    if (A != NULL) B[0] = rn;
    if (ny <= R) {
        phi[1] = rt * u[1];
        phi[2] = rt * u[2];
        if (A != NULL) B[4] = B[8] = rt;
        return 1;
    }
    double g1 = y1 / ny, g2 = y2 / ny, s = R / ny;
    phi[1] = r[1] - R * g1;
    phi[2] = r[2] - R * g2;
    if (A != NULL) {
        double p11 = s * (1.0 - g1 * g1), p12 = -s * g1 * g2, p22 = s * (1.0 - g2 * g2);
        A[3] = -mu * g1;
        A[4] = 1.0 - p11;
        A[5] = -p12;
        A[6] = -mu * g2;
        A[7] = -p12;
        A[8] = 1.0 - p22;
        B[3] = mu * rn * g1;
        B[4] = rt * p11;
        B[5] = rt * p12;
        B[6] = mu * rn * g2;
        B[7] = rt * p12;
        B[8] = rt * p22;
    }
    return 2;
}

void imp_coulomb_project_cone(double x[3], double mu)
{
    double nt = sqrt(x[1] * x[1] + x[2] * x[2]);
    if (mu * nt <= -x[0]) {
        x[0] = x[1] = x[2] = 0.0;
        return;
    }
    if (nt <= mu * x[0]) return;
    double p = (mu * nt + x[0]) / (mu * mu + 1.0);
    x[1] = mu * p * x[1] / nt;
    x[2] = mu * p * x[2] / nt;
    x[0] = p;
}

double imp_coulomb_local_error2(const double r[3], const double u[3], double mu)
{
    double w[3];
    w[0] = r[0] - u[0] - mu * sqrt(u[1] * u[1] + u[2] * u[2]);
    w[1] = r[1] - u[1];
    w[2] = r[2] - u[2];
    imp_coulomb_project_cone(w, mu);
    double d0 = r[0] - w[0], d1 = r[1] - w[1], d2 = r[2] - w[2];
    return d0 * d0 + d1 * d1 + d2 * d2;
}
