/* dem_query.c: the dem strategy's scene-wide queries: the P-wave time step and the check of dt
   against it, the count of real interactions, Yade's unbalanced force, the energies. */
#include "dem.h"
#include "dem_law.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scalar.h"
#include "world_internal.h"

/* the P-wave step of particle i when it is a free sphere, else +inf */
static double p_wave_of(const imp_dem *d, int i)
{
    if (d->kind[i] != IMP_DEM_SPHERE || d->fixed[i]) {
        return INFINITY;  /* fixed spheres do not vibrate */
    }
    double r = d->radius[i];
    double rho = d->clump_of[i] >= 0 ? d->clumps[d->clump_of[i]].density
                                     : d->mass[i] / (4.0 / 3.0 * IMP_PI * r * r * r);
    return r / sqrt(d->young[i] / rho);
}

double imp_dem_p_wave_dt(const imp_dem *d)
{
    double best = INFINITY;
    for (int i = 0; i < d->n; i++) {
        double dt = p_wave_of(d, i);
        best = dt < best ? dt : best;
    }
    return isfinite(best) ? best : 0.0;
}

int imp_dem_check_dt(imp_dem *d, double dt, char *msg, size_t len)
{
    /* O(n) only after a rebuild or a change of the default modulus, else the cached value */
    if (!d->pwave_ok || d->pwave_young != d->p.young) {
        d->pwave_dt = imp_dem_p_wave_dt(d);
        d->pwave_young = d->p.young;
        d->pwave_ok = 1;
    }
    double est = d->pwave_dt;
    if (!(est > 0.0) || dt <= est) {
        return -1;  /* no free sphere, or within the P-wave step of all of them */
    }
    double worst = 0.0;
    int worst_i = -1;
    for (int k = 0; k < d->ninter; k++) {
        const imp_dem_inter *I = &d->inter[k];
        if (!I->real) {
            continue;
        }
        for (int j = 0; j < 2; j++) {
            int i = j == 0 ? I->a : I->b;
            double own = p_wave_of(d, i);
            if (dt > IMP_DEM_DT_FACTOR * own) {
                snprintf(msg, len, "dt = %g s is %.3g times the P-wave estimate %g s of a sphere "
                         "in contact (above %g times it the contacts are unstable: the state "
                         "would become non-finite or meaningless); use dt <= %g s, e.g. w.dt = "
                         "0.5 * w:p_wave_dt() (= %g s)", dt, dt / own, own, IMP_DEM_DT_FACTOR,
                         IMP_DEM_DT_FACTOR * own, 0.5 * est);
                return i;
            }
            if (dt > own && dt / own > worst) {
                worst = dt / own;
                worst_i = i;
            }
        }
    }
    if (worst_i >= 0) {
        d->dt_warn_steps++;
        if (worst > d->dt_warn_ratio) {
            d->dt_warn_ratio = worst;
            d->dt_warn_slot = d->slot[worst_i];
        }
    }
    return -1;
}

int imp_dem_real_count(const imp_dem *d)
{
    int c = 0;
    for (int k = 0; k < d->ninter; k++) {
        c += d->inter[k].real;
    }
    return c;
}

double imp_dem_unbalanced_force(const imp_dem *d, const double gravity[3])
{
    double sum_body = 0.0, sum_contact = 0.0;
    int nb = 0, nc = 0;
    for (int i = 0; i < d->n; i++) {
        if (d->fixed[i] || d->clump_of[i] >= 0) {
            continue;
        }
        double f[3];
        const double *fi = imp_dem_force_written(d, i) ? d->force + 3 * i : NULL;  /* else 0 */
        for (int k = 0; k < 3; k++) {
            f[k] = (fi != NULL ? fi[k] : 0.0) + d->mass[i] * gravity[k];
        }
        sum_body += sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
        nb++;
    }
    for (int c = 0; c < d->nclumps; c++) {  /* a clump: the sum over its members */
        const imp_dem_clump *C = &d->clumps[c];
        if (C->fixed) {
            continue;
        }
        double f[3], t[3];
        imp_dem_clump_wrench(d, c, f, t);
        for (int k = 0; k < 3; k++) {
            f[k] += C->mass * gravity[k];
        }
        sum_body += sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
        nb++;
    }
    for (int k = 0; k < d->ninter; k++) {
        const imp_dem_inter *I = &d->inter[k];
        if (!I->real) {
            continue;
        }
        double f[3];
        for (int j = 0; j < 3; j++) {
            f[j] = I->fn * I->n[j] + I->fs[j];
        }
        sum_contact += sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
        nc++;
    }
    if (nb == 0 || nc == 0 || !(sum_contact > 0.0)) {
        return NAN;
    }
    return (sum_body / nb) / (sum_contact / nc);
}

imp_dem_energy imp_dem_energy_now(const imp_dem *d, double dt)
{
    imp_dem_energy e = d->energy;
    e.kinetic = 0.0;
    e.elastic = 0.0;
    for (int c = 0; c < d->nclumps; c++) {  /* 1/2 m v^2 + 1/2 w.L, both of the half step */
        const imp_dem_clump *C = &d->clumps[c];
        if (C->fixed) {
            continue;
        }
        const double *v = C->vel, *om = C->angvel;
        e.kinetic += 0.5 * C->mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        e.kinetic += 0.5 * (om[0] * C->L[0] + om[1] * C->L[1] + om[2] * C->L[2]);
    }
    for (int i = 0; i < d->n; i++) {
        if (d->fixed[i] || d->clump_of[i] >= 0) {
            continue;
        }
        const double *v = d->vel + 3 * i, *om = d->angvel + 3 * i;
        e.kinetic += 0.5 * d->mass[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        e.kinetic += 0.5 / d->inv_inertia[i] * (om[0] * om[0] + om[1] * om[1] + om[2] * om[2]);
    }
    e.elastic = imp_dem_springs_energy(d, NULL, dt);
    return e;
}

/* The springs as the last interaction loop left them (time t), moved on to t + dt/2, where the
   kinetic energy (leapfrog velocities) and the books are: minus the work their forces F do over
   the first half of the step just integrated, F . vr dt / 2, vr the relative velocity of the
   contact points (as in dem_law.c). Without it the sum would be off by that work, which is of
   order dt while contacts are loaded and moving. Each term is multiplied by the pair's share
   (1 without weights: the same bits), and added in the same order either way, so one rank
   decomposed books what no decomposition books. */
double imp_dem_springs_energy(const imp_dem *d, const double *weight, double dt)
{
    double elastic = 0.0, half_work = 0.0;
    for (int k = 0; k < d->ninter; k++) {
        const imp_dem_inter *I = &d->inter[k];
        if (!I->real || I->un <= 0.0) {
            continue;
        }
        const double wk = weight != NULL ? imp_dem_pair_weight(weight, I->a, I->b) : 1.0;
        double fs2 = I->fs[0] * I->fs[0] + I->fs[1] * I->fs[1] + I->fs[2] * I->fs[2];
        if (d->p.law == IMP_DEM_LAW_HERTZ) {  /* int kn0 u^1.5 du = 2/5 kn0 un^2.5 */
            elastic += wk * (0.4 * I->kn0 * I->un * I->un * sqrt(I->un));
        } else {
            elastic += wk * (0.5 * I->kn * I->un * I->un);
        }
        if (I->ks > 0.0) {
            elastic += wk * (0.5 * fs2 / I->ks);
        }
        int a = I->a, b = I->b;
        const double *n = I->n, *va = d->vel + 3 * a, *vb = d->vel + 3 * b;
        const double *wa = d->angvel + 3 * a, *wb = d->angvel + 3 * b;
        double lb = d->radius[b] - 0.5 * I->un;
        double la = d->kind[a] == IMP_DEM_SPHERE ? d->radius[a] - 0.5 * I->un : 0.0;
        double m[3], vr[3];
        for (int j = 0; j < 3; j++) {
            m[j] = la * wa[j] + lb * wb[j];
        }
        vr[0] = vb[0] - va[0] - (m[1] * n[2] - m[2] * n[1]);
        vr[1] = vb[1] - va[1] - (m[2] * n[0] - m[0] * n[2]);
        vr[2] = vb[2] - va[2] - (m[0] * n[1] - m[1] * n[0]);
        const int visco = d->p.law == IMP_DEM_LAW_VISCOUS;
        double ft[3] = {0.0, 0.0, 0.0};
        if (visco) {  /* with its tangential dashpot's force */
            imp_dem_viscous_shear(I, ft);
        }
        for (int j = 0; j < 3; j++) {
            const double fs = visco ? I->fs[j] + ft[j] : I->fs[j];
            half_work += wk * ((I->fn * n[j] + fs) * vr[j]);
        }
    }
    return elastic - 0.5 * dt * half_work;
}
