/* dem_step.c: the force resetter, Yade's NewtonIntegrator (leapfrog with gravity and Cundall's
   non-viscous damping) and the default engine list of one dem step.

   Leapfrog (velocities at half steps): v(t + dt/2) = v(t - dt/2) + dt a(t), x(t + dt) = x(t) +
   dt v(t + dt/2). Cundall's damping (Cundall & Strack 1979; Yade's NewtonIntegrator) scales each
   acceleration component by 1 - d sign(a_k (v_k + dt a_k / 2)): the force is reduced while it
   accelerates the body and increased while it brakes it, independent of the velocity's size.
   As in Yade, gravity is damped too (free fall at (1 - d) g). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "dem.h"
#include "quat.h"
#include "world.h"

void imp_dem_reset_forces(imp_dem *d)
{
    memset(d->force, 0, (size_t)d->n * 3 * sizeof *d->force);
    memset(d->torque, 0, (size_t)d->n * 3 * sizeof *d->torque);
}

/* The rotation quaternion {cos h, sin h w / |w|} of a turn by |w| dt, h = |w| dt / 2. For the
   small angles of DEM steps (h < 0.01) Taylor series in h^2 (terms to h^8: below 1e-17
   relative), which need no square root; libm otherwise. */
static void turn(double w2, double dt, double *c, double *k)
{
    double h2 = 0.25 * w2 * dt * dt;
    if (h2 < 1e-4) {
        /* multiplications by the constants' reciprocals (folded at compile time): divisions
           would cost as much as the rest of the integrator */
        *c = 1.0 - h2 * 0.5 * (1.0 - h2 * (1.0 / 12.0) * (1.0 - h2 * (1.0 / 30.0) * (1.0 - h2 * (1.0 / 56.0))));
        *k = 0.5 * dt * (1.0 - h2 * (1.0 / 6.0) * (1.0 - h2 * (1.0 / 20.0) * (1.0 - h2 * (1.0 / 42.0))));
    } else {
        double wl = sqrt(w2);
        *c = cos(0.5 * wl * dt);
        *k = sin(0.5 * wl * dt) / wl;
    }
}

/* O(n). Also books the work of gravity and the energy taken by the damping, both with the
   mean of the old and new velocities, so kinetic energy changes by exactly the work of all
   forces over the step. a (1 - d sgn(a x)) is written a - d |a| sgn(x): no branch on signs. */
void imp_dem_newton(imp_dem *d, const double gravity[3], double dt)
{
    const double damp = d->p.damping, hdt = 0.5 * dt;
    const int track = d->p.track_energy;
    double wg = 0.0, wd = 0.0;
    const int n = d->n;
    /* per particle, independent: parallel under OpenMP, except when booking energy (a sum
       whose rounding would depend on the threads) */
#ifdef _OPENMP
    _Pragma("omp parallel for if (!track) reduction(+ : wg, wd) schedule(static)")
#endif
    for (int i = 0; i < n; i++) {
        if (d->fixed[i] || d->clump_of[i] >= 0) {  /* clump members move with their clump */
            continue;
        }
        double *v = d->vel + 3 * i, *x = d->pos + 3 * i, *om = d->angvel + 3 * i;
        const double *f = d->force + 3 * i, *t = d->torque + 3 * i;
        double im = d->inv_mass[i], ii = d->inv_inertia[i];
        double ad[3], ald[3], a[3], al[3];
        for (int k = 0; k < 3; k++) {
            a[k] = f[k] * im + gravity[k];
            double xs = v[k] + hdt * a[k];
            ad[k] = a[k] - damp * fabs(a[k]) * (double)((xs > 0.0) - (xs < 0.0));
            /* rotation of a sphere: isotropic inertia, so dw/dt = T / I */
            al[k] = t[k] * ii;
            double ws = om[k] + hdt * al[k];
            ald[k] = al[k] - damp * fabs(al[k]) * (double)((ws > 0.0) - (ws < 0.0));
        }
        if (track) {
            double m = d->mass[i], inertia = 1.0 / ii;
            for (int k = 0; k < 3; k++) {
                double vm = v[k] + hdt * ad[k], wm = om[k] + hdt * ald[k];
                wg += m * gravity[k] * vm * dt;
                wd -= (m * (ad[k] - a[k]) * vm + inertia * (ald[k] - al[k]) * wm) * dt;
            }
        }
        for (int k = 0; k < 3; k++) {
            v[k] += dt * ad[k];
            x[k] += dt * v[k];
            om[k] += dt * ald[k];
        }
        /* orientation: q <- rotation(w dt) q, renormalized by one Newton step of 1/sqrt
           (the product of unit quaternions drifts from unit length by rounding only) */
        double w2 = om[0] * om[0] + om[1] * om[1] + om[2] * om[2];
        if (w2 > 0.0) {
            double ch, k;
            turn(w2, dt, &ch, &k);
            imp_quat r = imp_q(ch, k * om[0], k * om[1], k * om[2]);
            double *q = d->quat + 4 * i;
            imp_quat u = imp_q_mul(r, imp_q(q[0], q[1], q[2], q[3]));
            double nq = 1.5 - 0.5 * (u.w * u.w + u.x * u.x + u.y * u.y + u.z * u.z);
            q[0] = u.w * nq, q[1] = u.x * nq, q[2] = u.y * nq, q[3] = u.z * nq;
        }
    }
    imp_dem_clump_newton(d, gravity, dt, &wg, &wd);
    d->energy.gravity_work += wg;
    d->energy.damping += wd;
}

void imp_dem_finish_step(imp_world *w)
{
    w->steps_since_base++;
    w->time = w->time_base + (double)w->steps_since_base * w->def.dt;
    w->stats.steps++;
    w->stats.substeps++;
    if (w->dem != NULL) {
        w->dem->iter++;
    }
}

static double now_seconds(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

imp_status imp_dem_world_step(imp_world *w)
{
    double start = now_seconds();
    w->nerror_bodies = 0;
    w->nevents = 0;
    imp_status st = imp_dem_sync(w);
    if (st != IMP_OK) {
        return st;
    }
    imp_dem *d = w->dem;
    imp_dem_reset_forces(d);
    if (imp_dem_collide(d) != 0 || imp_dem_interactions(d, w->def.dt) != 0) {
        snprintf(w->error, sizeof w->error, "dem strategy: %s", d->error);
        return IMP_ERR_NOMEM;
    }
    imp_dem_newton(d, w->def.gravity, w->def.dt);
    for (int i = 0; i < 3 * d->n; i++) {
        if (!isfinite(d->pos[i]) || !isfinite(d->vel[i])) {
            snprintf(w->error, sizeof w->error, "dem strategy: the state became non-finite at "
                     "step %ld (t = %.17g); is dt below the P-wave estimate?", w->stats.steps + 1,
                     w->time);
            w->nerror_bodies = 1;
            w->error_bodies[0] = d->slot[i / 3];
            d->built = 0;  /* reload the last stored (finite) state at the next step */
            return IMP_ERR_NONFINITE;
        }
    }
    imp_dem_store(w);
    imp_dem_finish_step(w);
    w->stats.step_seconds += now_seconds() - start;
    return IMP_OK;
}
