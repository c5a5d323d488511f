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
    double p = law->n_geo == 1.5 ? delta * sqrt(delta) : pow(delta, law->n_geo);
    double f = law->c_res * law->c_geo * p * (1.0 + law->d * ddelta);
    return f > 0.0 ? law->k_red * f : 0.0;
}
