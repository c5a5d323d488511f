/* lcp_coulomb_local.c: the exact solution of one contact, u = W r + q with W 3x3, and the
   nonsmooth Gauss-Seidel sweep built on it (NSGS: Jean & Moreau's contact by contact
   iteration, with an exact local solver in place of a projection).

   Local problem, in the order tried:
     open       q_N >= 0: r = 0 (then u = q is admissible whatever its tangent part);
     sticking   W r = -q with r_N > 0 and |r_T| <= mu r_N;
     sliding    r = r_N (1, mu cos t, mu sin t) with u_N = 0, so r_N = -q_N / D(t),
                D(t) = W_NN + mu (W_N1 cos t + W_N2 sin t) > 0, and u_T = -lambda d(t),
                lambda >= 0: a root of g(t) = d(t) x u_T(t). First a few local Newton steps
                on the Alart-Curnier function from the current guess (fast when the contact
                slides as it did), then, unless they reached round-off, every sign change of
                g over 64 angles refined by bisection to the last bit; the candidate with the
                least error is kept. */
#include <math.h>
#include <stddef.h>

#include "lcp_coulomb_internal.h"

static const double PI = 3.14159265358979323846;

static void mul3(const double W[9], const double r[3], const double q[3], double u[3])
{
    for (int i = 0; i < 3; i++) u[i] = W[3 * i] * r[0] + W[3 * i + 1] * r[1] + W[3 * i + 2] * r[2] + q[i];
}

/* solves M x = b (3x3) by Cramer's rule; returns -1 when M is (nearly) singular */
static int solve3(const double M[9], const double b[3], double x[3])
{
    double c0 = M[4] * M[8] - M[5] * M[7];
    double c1 = M[5] * M[6] - M[3] * M[8];
    double c2 = M[3] * M[7] - M[4] * M[6];
    double det = M[0] * c0 + M[1] * c1 + M[2] * c2;
    double scale = 0.0;
    for (int k = 0; k < 9; k++) scale = fmax(scale, fabs(M[k]));
    if (!(fabs(det) > 1e-14 * scale * scale * scale)) return -1;
    double inv[9];
    inv[0] = c0;
    inv[3] = c1;
    inv[6] = c2;
    inv[1] = M[2] * M[7] - M[1] * M[8];
    inv[4] = M[0] * M[8] - M[2] * M[6];
    inv[7] = M[1] * M[6] - M[0] * M[7];
    inv[2] = M[1] * M[5] - M[2] * M[4];
    inv[5] = M[2] * M[3] - M[0] * M[5];
    inv[8] = M[0] * M[4] - M[1] * M[3];
    for (int i = 0; i < 3; i++) x[i] = (inv[3 * i] * b[0] + inv[3 * i + 1] * b[1] + inv[3 * i + 2] * b[2]) / det;
    return 0;
}

/* local error, relative to the local scale */
static double lerr(const double W[9], const double q[3], double mu, const double r[3])
{
    double u[3];
    mul3(W, r, q, u);
    double e2 = imp_coulomb_local_error2(r, u, mu);
    double s = 0.0;
    for (int i = 0; i < 3; i++) s = fmax(s, fmax(fabs(q[i]), fmax(fabs(r[i]), fabs(u[i]))));
    return s > 0.0 ? sqrt(e2) / s : sqrt(e2);
}

/* sliding candidate at angle t: returns 0 and fills r, g (d x u_T), h (d . u_T) */
static int slide_at(const double W[9], const double q[3], double mu, double t, double r[3], double *g,
                    double *h)
{
    double c = cos(t), s = sin(t);
    double D = W[0] + mu * (W[1] * c + W[2] * s);
    if (!(D > 0.0)) return -1;
    double rn = -q[0] / D;
    r[0] = rn;
    r[1] = mu * rn * c;
    r[2] = mu * rn * s;
    double u1 = W[3] * r[0] + W[4] * r[1] + W[5] * r[2] + q[1];
    double u2 = W[6] * r[0] + W[7] * r[1] + W[8] * r[2] + q[2];
    *g = c * u2 - s * u1;
    *h = c * u1 + s * u2;
    return 0;
}

static void keep(const double W[9], const double q[3], double mu, const double cand[3], double best[3],
                 double *best_err)
{
    double e = lerr(W, q, mu, cand);
    if (e < *best_err) {
        *best_err = e;
        best[0] = cand[0];
        best[1] = cand[1];
        best[2] = cand[2];
    }
}

void imp_coulomb_local_solve(const double W[9], const double q[3], double mu, double r[3])
{
    if (q[0] >= 0.0) {
        r[0] = r[1] = r[2] = 0.0;
        return;
    }
    double best[3] = {0.0, 0.0, 0.0};
    double best_err = lerr(W, q, mu, best);
    const double exact = 1e-15;
    /* sticking */
    double x[3], mq[3] = {-q[0], -q[1], -q[2]};
    if (solve3(W, mq, x) == 0 && x[0] > 0.0) {
        if (sqrt(x[1] * x[1] + x[2] * x[2]) <= mu * x[0]) {
            keep(W, q, mu, x, best, &best_err);
            if (best_err <= exact) goto done;
        }
    }
    if (mu == 0.0) {
        if (W[0] > 0.0) {
            double c[3] = {-q[0] / W[0], 0.0, 0.0};
            keep(W, q, mu, c, best, &best_err);
        }
        goto done;
    }
    /* local Newton on the Alart-Curnier function from the guess (or the cone's projection
       of the sticking answer) */
    {
        double z[3] = {r[0], r[1], r[2]};
        if (!(z[0] > 0.0)) {
            z[0] = x[0] > 0.0 ? x[0] : -q[0] / fmax(W[0], 1e-300);
            z[1] = z[2] = 0.0;
        }
        double rn = W[0] > 0.0 ? 1.0 / W[0] : 1.0;
        double tt = W[4] + W[8];
        double rt = tt > 0.0 ? 2.0 / tt : rn;
        for (int it = 0; it < 12; it++) {
            double u[3], phi[3], A[9], B[9], J[9], d[3];
            mul3(W, z, q, u);
            imp_coulomb_ac(z, u, mu, rn, rt, phi, A, B);
            double m0 = phi[0] * phi[0] + phi[1] * phi[1] + phi[2] * phi[2];
            if (m0 == 0.0) break;
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    J[3 * i + j] = A[3 * i + j] + B[3 * i] * W[j] + B[3 * i + 1] * W[3 + j] + B[3 * i + 2] * W[6 + j];
                }
            }
            double mphi[3] = {-phi[0], -phi[1], -phi[2]};
            if (solve3(J, mphi, d) != 0) break;
            double t = 1.0, zt[3];
            int ok = 0;
            for (int ls = 0; ls < 20; ls++) {
                for (int i = 0; i < 3; i++) zt[i] = z[i] + t * d[i];
                double ut[3], pt[3];
                mul3(W, zt, q, ut);
                imp_coulomb_ac(zt, ut, mu, rn, rt, pt, NULL, NULL);
                double m1 = pt[0] * pt[0] + pt[1] * pt[1] + pt[2] * pt[2];
                if (m1 <= (1.0 - 1e-4 * t) * m0) {
                    ok = 1;
                    break;
                }
                t *= 0.5;
            }
            if (!ok) break;
            z[0] = zt[0];
            z[1] = zt[1];
            z[2] = zt[2];
        }
        keep(W, q, mu, z, best, &best_err);
        if (best_err <= exact) goto done;
    }
    /* sliding: every root of g over the circle */
    {
        enum { NS = 64 };
        double tprev = 0.0, gprev = 0.0, hprev = 0.0, c[3];
        int vprev = slide_at(W, q, mu, 0.0, c, &gprev, &hprev) == 0;
        for (int k = 1; k <= NS; k++) {
            double t = 2.0 * PI * k / NS, g, h;
            int v = slide_at(W, q, mu, t, c, &g, &h) == 0;
            if (v && vprev && ((g <= 0.0) != (gprev <= 0.0)) && (h < 0.0 || hprev < 0.0)) {
                double a = tprev, b = t, ga = gprev;
                for (int it = 0; it < 60; it++) {
                    double mid = 0.5 * (a + b), gm, hm;
                    if (mid <= a || mid >= b) break;
                    if (slide_at(W, q, mu, mid, c, &gm, &hm) != 0) break;
                    if ((gm <= 0.0) == (ga <= 0.0)) {
                        a = mid;
                        ga = gm;
                    } else {
                        b = mid;
                    }
                }
                double gm, hm;
                if (slide_at(W, q, mu, 0.5 * (a + b), c, &gm, &hm) == 0 && hm <= 0.0) {
                    keep(W, q, mu, c, best, &best_err);
                }
            }
            tprev = t;
            gprev = g;
            hprev = h;
            vprev = v;
        }
    }
done:
    r[0] = best[0];
    r[1] = best[1];
    r[2] = best[2];
}

void imp_coulomb_sweep(const imp_coulomb_problem *p, imp_coulomb_workspace *ws, double *r)
{
    const imp_coulomb_csr *W = &p->W;
    for (int c = 0; c < ws->nc; c++) {
        const int *rows = ws->crow + 3 * c;
        const double *Wc = ws->wdiag + 9 * c;
        double qc[3], rc[3];
        for (int i = 0; i < 3; i++) rc[i] = r[rows[i]];
        for (int i = 0; i < 3; i++) {
            qc[i] = imp_coulomb_row_dot(W, rows[i], r) + p->q[rows[i]] -
                    (Wc[3 * i] * rc[0] + Wc[3 * i + 1] * rc[1] + Wc[3 * i + 2] * rc[2]);
        }
        imp_coulomb_local_solve(Wc, qc, p->mu[c], rc);
        for (int i = 0; i < 3; i++) r[rows[i]] = rc[i];
    }
    for (int b = 0; b < ws->nb; b++) {
        int k = ws->brow[b];
        double d = ws->wdiag[9 * ws->nc + b];
        if (!(d > 0.0)) continue;
        double uk = imp_coulomb_row_dot(W, k, r) + p->q[k];
        r[k] -= uk / d;
    }
}
