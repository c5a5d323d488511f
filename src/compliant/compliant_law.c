/* compliant_law.c: the formulas of the compliant contact law (see compliant_law.h). */
#include "compliant_law.h"

#include <math.h>

double imp_law_reg(double v, double vsmall)
{
    if (v >= vsmall) {
        return v;
    }
    return v * v / vsmall * (1.0 - v / (3.0 * vsmall)) + vsmall / 3.0;
}

double imp_law_c_res(double e1, double nu1, double e2, double nu2)
{
    double c1 = e1 / (1.0 - nu1 * nu1), c2 = e2 / (1.0 - nu2 * nu2);
    return 1.0 / (1.0 / c1 + 1.0 / c2);
}

void imp_law_geometry(int kind1, double r1, int kind2, double r2, double *c_geo, double *n_geo,
                      double *mu_r_geo)
{
    if (kind1 == IMP_LAW_SPHERE && kind2 == IMP_LAW_SPHERE) {
        double r = 1.0 / (1.0 / r1 + 1.0 / r2);
        *c_geo = 4.0 / 3.0 * sqrt(r);
        *n_geo = 1.5;
        *mu_r_geo = r;
    } else if (kind1 == IMP_LAW_SPHERE || kind2 == IMP_LAW_SPHERE) {
        double r = kind1 == IMP_LAW_SPHERE ? r1 : r2;
        *c_geo = 4.0 / 3.0 * sqrt(r);
        *n_geo = 1.5;
        *mu_r_geo = r;
    } else {
        *c_geo = 1.0;
        *n_geo = 1.0;
        *mu_r_geo = 1.0;
    }
}

void imp_law_flat_geometry(double area, double *c_geo, double *n_geo, double *mu_r_geo)
{
    double a = sqrt(area / 3.14159265358979323846);
    *c_geo = 2.0 * a;
    *n_geo = 1.0;
    *mu_r_geo = a;
}

double imp_law_cor_reg(double cor, double cor_min, double ddelta_minus, double vsmall)
{
    double cor_lim = cor > cor_min ? cor : cor_min;
    return cor_lim + (cor_min - cor_lim) * exp(log(0.01) * fabs(ddelta_minus) / vsmall);
}

double imp_law_damping(double cor_reg, double ddelta_minus, double vsmall, double d_max)
{
    double d = 8.0 * (1.0 - cor_reg) / (5.0 * cor_reg * imp_law_reg(fabs(ddelta_minus), vsmall));
    return d < d_max ? d : d_max;
}

double imp_law_normal_force(const imp_contact_law *law, double delta, double ddelta)
{
    if (!(delta > 0.0)) {
        return 0.0;
    }
    double p = law->n_geo == 1.5 ? delta * sqrt(delta) : law->n_geo == 1.0 ? delta : pow(delta, law->n_geo);
    double f = law->c_res * law->c_geo * p * (1.0 + law->d * ddelta);
    return f > 0.0 ? law->k_red * f : 0.0;
}

double imp_law_onset_ramp(double u, double h)
{
    if (!(u > -h)) {
        return 0.0;
    }
    if (!(u < h)) {
        return u;
    }
    double x = (u + h) / (2.0 * h);
    return 2.0 * h * x * x * x * (1.0 - 0.5 * x);
}

double imp_law_onset_ramp_energy(double u, double h)
{
    if (!(u > -h)) {
        return 0.0;
    }
    if (!(u < h)) {
        return 0.6 * h * h + 0.5 * (u * u - h * h);
    }
    double x = (u + h) / (2.0 * h), x4 = x * x * x * x;
    return 4.0 * h * h * x4 * (0.25 - 0.1 * x);
}

/* dimensionless impact: x'' = -x^n (1 + chi x'), x(0) = 0, x'(0) = 1, the force clamped at 0;
   RK4 with a step small against the contact time (about 3.2 for n = 1.5, pi for n = 1) */
static double restitution_acc(double x, double v, double chi, double n)
{
    if (!(x > 0.0)) {
        return 0.0;
    }
    double f = (n == 1.5 ? x * sqrt(x) : n == 1.0 ? x : pow(x, n)) * (1.0 + chi * v);
    return f > 0.0 ? -f : 0.0;
}

double imp_law_restitution(double chi, double n)
{
    const double h = 2e-3;
    double x = 0.0, v = 1.0;
    for (int i = 0; i < 2000000; i++) {
        double k1x = v, k1v = restitution_acc(x, v, chi, n);
        double k2x = v + 0.5 * h * k1v, k2v = restitution_acc(x + 0.5 * h * k1x, v + 0.5 * h * k1v, chi, n);
        double k3x = v + 0.5 * h * k2v, k3v = restitution_acc(x + 0.5 * h * k2x, v + 0.5 * h * k2v, chi, n);
        double k4x = v + h * k3v, k4v = restitution_acc(x + h * k3x, v + h * k3v, chi, n);
        double xn = x + h / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x);
        double vn = v + h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
        if (vn < 0.0 && (xn <= 0.0 || restitution_acc(xn, vn, chi, n) == 0.0)) {
            /* separating with no force left: the speed no longer changes */
            return -vn;
        }
        x = xn;
        v = vn;
    }
    return 0.0;  /* still in contact after a very long time: an inelastic end */
}

enum { CHI_TABLE = 601 };

typedef struct chi_table {
    int built;
    double n;
    double e[CHI_TABLE];       /* restitution at chi_k, decreasing */
    double log_chi[CHI_TABLE];
} chi_table;

static chi_table tables[2];  /* n = 1.5 and n = 1; built once, deterministic */

static const chi_table *table_for(double n)
{
    chi_table *t = &tables[n == 1.5 ? 0 : 1];
    if (!t->built) {
        t->n = n;
        for (int k = 0; k < CHI_TABLE; k++) {
            t->log_chi[k] = log(1e-4) + (log(1e2) - log(1e-4)) * k / (CHI_TABLE - 1);
            t->e[k] = imp_law_restitution(exp(t->log_chi[k]), n);
        }
        t->built = 1;
    }
    return t;
}

double imp_law_chi_for(double e, double n)
{
    const chi_table *t = table_for(n);
    if (e >= t->e[0]) {  /* beyond the table's first point: G is nearly linear there */
        return exp(t->log_chi[0]) * (1.0 - e) / (1.0 - t->e[0]);
    }
    if (e <= t->e[CHI_TABLE - 1]) {
        /* chi >= 100: the clamp ends the contact when the separation speed reaches 1/chi, so
           e = 1/chi (within 2e-4 relative at chi = 100, less beyond) */
        return 1.0 / e;
    }
    int lo = 0, hi = CHI_TABLE - 1;  /* e[lo] > e >= e[hi] */
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (t->e[mid] > e) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    double f = (t->e[lo] - e) / (t->e[lo] - t->e[hi]);
    return exp(t->log_chi[lo] + f * (t->log_chi[hi] - t->log_chi[lo]));
}

double imp_law_damping_calibrated(double cor_reg, double n_geo, double ddelta_minus,
                                  double vsmall, double d_max)
{
    double d = imp_law_chi_for(cor_reg, n_geo) / imp_law_reg(fabs(ddelta_minus), vsmall);
    return d < d_max ? d : d_max;
}
