/* compliant_law.h: the elastic-dissipative contact law of Modia3D's collision handling, as
   its documentation states it (seed 002; Flores et al. 2011 for the damping; Otter et al.
   2005 for the regularized friction):

     f_n  = k_red max(0, c_res c_geo delta^n_geo (1 + d ddelta))       normal force on body 2
     f_t  = -mu_k f_n e_t,reg                                         sliding friction on body 2
     tau  = -mu_r mu_r,geo f_n e_w,reg                                rolling torque on body 2

   delta > 0 is the penetration, ddelta its rate of increase. Where Modia3D's code departs from
   these documents (no clamp, exponent 1.5 for every pair, a step-function cor, d_max 2000, the
   MPR distance scaling) impact follows the documents. */
#ifndef IMPACT_COMPLIANT_LAW_H
#define IMPACT_COMPLIANT_LAW_H

/* The constants of one contact episode, fixed when the contact begins. */
typedef struct imp_contact_law {
    double c_res;     /* N/m^2: 1 / (1/c1 + 1/c2), c_i = E_i / (1 - nu_i^2) */
    double c_geo;     /* Hertz geometry factor */
    double n_geo;     /* exponent of delta */
    double mu_r_geo;  /* m: rolling lever */
    double k_red;     /* elastic contact reduction factor (multiplies the stiffness) */
    double d;         /* s/m: damping coefficient d(cor_reg, ddelta-) */
    double cor_reg;   /* regularized coefficient of restitution */
    double mu_k, mu_r, vsmall, wsmall;
} imp_contact_law;

/* The geometry kinds of the law's table: a sphere (3D ball or 2D disc) or anything else. */
enum { IMP_LAW_SPHERE = 0, IMP_LAW_OTHER = 1 };

/* reg(v, vsmall): v for v >= vsmall, else v^2/vsmall (1 - v/(3 vsmall)) + vsmall/3; smooth
   to second order at vsmall, minimum vsmall/3 at 0. */
double imp_law_reg(double v, double vsmall);
/* c_res from two (E, nu). */
double imp_law_c_res(double e1, double nu1, double e2, double nu2);
/* c_geo, n_geo, mu_r_geo from the kinds and radii of the two bodies (radius used for spheres). */
void imp_law_geometry(int kind1, double r1, int kind2, double r2, double *c_geo, double *n_geo,
                      double *mu_r_geo);
/* The flat factors of a patch (compliant_patch.h): Boussinesq's rigid flat punch of radius
   a = sqrt(area / pi) on an elastic half-space, F = 2 a E* delta: c_geo = 2 a (m), n_geo = 1,
   mu_r_geo = a (the rolling lever: the patch's radius). */
void imp_law_flat_geometry(double area, double *c_geo, double *n_geo, double *mu_r_geo);
/* cor_reg = cor_lim + (cor_min - cor_lim) exp(ln(0.01) |v| / vsmall), cor_lim = max(cor_min, cor) */
double imp_law_cor_reg(double cor, double cor_min, double ddelta_minus, double vsmall);
/* d = min(d_max, 8 (1 - cor_reg) / (5 cor_reg reg(|ddelta-|, vsmall))) */
double imp_law_damping(double cor_reg, double ddelta_minus, double vsmall, double d_max);
/* The restitution of one free normal impact under the law f = K delta^n (1 + d ddelta),
   clamped at 0, as a function of chi = d times the impact speed (it depends on nothing else:
   scale delta by the impact speed times the contact time). Found by integrating the
   dimensionless impact; decreasing from 1 at chi = 0 towards 0. */
double imp_law_restitution(double chi, double n);
/* The chi giving restitution e (0 < e <= 1) for exponent n (1 or 1.5), from a table of
   imp_law_restitution built once (log-spaced chi in [1e-4, 100], about 0.1 s) and inverted
   by interpolation, relative accuracy about 1e-5 in e; beyond chi = 100, e = 1/chi. */
double imp_law_chi_for(double e, double n);
/* The damping coefficient that makes the law's restitution exactly cor_reg:
   min(d_max, chi(cor_reg) / reg(|ddelta-|, vsmall)). */
double imp_law_damping_calibrated(double cor_reg, double n_geo, double ddelta_minus,
                                  double vsmall, double d_max);

/* The normal force magnitude for penetration delta and penetration rate ddelta (>= 0). */
double imp_law_normal_force(const imp_contact_law *law, double delta, double ddelta);

/* The onset ramp of a patch point's penetration u (measured from the contact's onset,
   compliant_patch.h) over the half-width h > 0: 0 for u <= -h, u for u >= h, and in between
   2h x^3 (1 - x/2), x = (u + h) / (2h): its first two derivatives are continuous (the law's
   kink at the onset, a jump of the force's slope that an adaptive integrator crosses only with
   tiny steps, becomes a ramp whose second derivative is continuous), and it is exact beyond h. */
double imp_law_onset_ramp(double u, double h);
/* The integral of imp_law_onset_ramp from -h to u: the elastic energy per unit stiffness. */
double imp_law_onset_ramp_energy(double u, double h);

#endif
