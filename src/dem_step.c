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

/* Cundall's damping of one component: a (1 - d sgn(a x)), sgn(0) = 0 */
static inline double damped(double a, double x, double damp)
{
    double s = copysign(damp * fabs(a), x);
    return a - (x != 0.0 ? s : 0.0);
}

/* O(n). Also books the work of gravity and the energy taken by the damping, both with the
   mean of the old and new velocities, so kinetic energy changes by exactly the work of all
   forces over the step. a (1 - d sgn(a x)) is written a - copysign(d |a|, x) (a when x = 0):
   no branch on signs. Arrays and constants in locals: the stores into the state cannot then
   force the compiler to reload them. */
void imp_dem_newton(imp_dem *d, const double gravity[3], double dt)
{
    const double damp = d->p.damping, hdt = 0.5 * dt;
    const double g[3] = {gravity[0], gravity[1], gravity[2]};
    const int track = d->p.track_energy;
    double wg = 0.0, wd = 0.0;
    int bad = 0;  /* particles left with a non-finite position or velocity */
    const int n = d->n;
    const unsigned char *fixed = d->fixed;
    const int *clump_of = d->clump_of;
    double *vel = d->vel, *pos = d->pos, *angvel = d->angvel, *quat = d->quat;
    const double *force = d->force, *torque = d->torque, *inv_mass = d->inv_mass;
    const double *inv_inertia = d->inv_inertia, *mass = d->mass;
    /* per particle, independent: parallel under OpenMP, except when booking energy (a sum
       whose rounding would depend on the threads) */
#ifdef _OPENMP
    _Pragma("omp parallel for if (!track) reduction(+ : wg, wd, bad) schedule(static)")
#endif
    for (int i = 0; i < n; i++) {
        if (fixed[i] || clump_of[i] >= 0) {  /* clump members move with their clump */
            continue;
        }
        double *v = vel + 3 * i, *x = pos + 3 * i, *om = angvel + 3 * i;
        const double *f = force + 3 * i, *t = torque + 3 * i;
        double im = inv_mass[i], ii = inv_inertia[i];
        /* rotation of a sphere: isotropic inertia, so dw/dt = T / I */
        double a0 = f[0] * im + g[0], a1 = f[1] * im + g[1], a2 = f[2] * im + g[2];
        double l0 = t[0] * ii, l1 = t[1] * ii, l2 = t[2] * ii;
        double ad0 = damped(a0, v[0] + hdt * a0, damp), ad1 = damped(a1, v[1] + hdt * a1, damp);
        double ad2 = damped(a2, v[2] + hdt * a2, damp);
        double ld0 = damped(l0, om[0] + hdt * l0, damp), ld1 = damped(l1, om[1] + hdt * l1, damp);
        double ld2 = damped(l2, om[2] + hdt * l2, damp);
        if (track) {
            const double ad[3] = {ad0, ad1, ad2}, ald[3] = {ld0, ld1, ld2};
            const double a[3] = {a0, a1, a2}, al[3] = {l0, l1, l2};
            double m = mass[i], inertia = 1.0 / ii;
            for (int k = 0; k < 3; k++) {
                double vm = v[k] + hdt * ad[k], wm = om[k] + hdt * ald[k];
                wg += m * g[k] * vm * dt;
                wd -= (m * (ad[k] - a[k]) * vm + inertia * (ald[k] - al[k]) * wm) * dt;
            }
        }
        double v0 = v[0] + dt * ad0, v1 = v[1] + dt * ad1, v2 = v[2] + dt * ad2;
        v[0] = v0, v[1] = v1, v[2] = v2;
        x[0] += dt * v0, x[1] += dt * v1, x[2] += dt * v2;
        /* NaN and infinities survive the sum (a finite overflow only costs a full scan) */
        bad += !isfinite(x[0] + x[1] + x[2] + v0 + v1 + v2);
        const double w[3] = {om[0] + dt * ld0, om[1] + dt * ld1, om[2] + dt * ld2};
        om[0] = w[0], om[1] = w[1], om[2] = w[2];
        /* orientation: q <- rotation(w dt) q, renormalized by one Newton step of 1/sqrt
           (the product of unit quaternions drifts from unit length by rounding only) */
        double w2 = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
        if (w2 > 0.0) {
            double ch, k;
            turn(w2, dt, &ch, &k);
            imp_quat r = imp_q(ch, k * w[0], k * w[1], k * w[2]);
            double *q = quat + 4 * i;
            imp_quat u = imp_q_mul(r, imp_q(q[0], q[1], q[2], q[3]));
            double nq = 1.5 - 0.5 * (u.w * u.w + u.x * u.x + u.y * u.y + u.z * u.z);
            q[0] = u.w * nq, q[1] = u.x * nq, q[2] = u.y * nq, q[3] = u.z * nq;
        }
    }
    imp_dem_clump_newton(d, gravity, dt, &wg, &wd);
    d->energy.gravity_work += wg;
    d->energy.damping += wd;
    d->newton_bad = bad;
}

int imp_dem_first_nonfinite(const imp_dem *d)
{
    if (!d->newton_bad && d->nclumps == 0) {
        return -1;  /* Newton checked every moving particle; fixed ones do not change */
    }
    for (int i = 0; i < 3 * d->n; i++) {
        if (!isfinite(d->pos[i]) || !isfinite(d->vel[i])) {
            return i / 3;
        }
    }
    return -1;
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
    int bad = imp_dem_first_nonfinite(d);
    if (bad >= 0) {
        snprintf(w->error, sizeof w->error, "dem strategy: the state became non-finite at "
                 "step %ld (t = %.17g); is dt below the P-wave estimate?", w->stats.steps + 1,
                 w->time);
        w->nerror_bodies = 1;
        w->error_bodies[0] = d->slot[bad];
        d->built = 0;  /* reload the last stored (finite) state at the next step */
        return IMP_ERR_NONFINITE;
    }
    imp_dem_store(w);
    imp_dem_finish_step(w);
    w->stats.step_seconds += now_seconds() - start;
    return IMP_OK;
}
