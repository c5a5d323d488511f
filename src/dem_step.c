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

static double sgn(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }

/* O(n). Also books the work of gravity and the energy taken by the damping, both with the
   mean of the old and new velocities, so kinetic energy changes by exactly the work of all
   forces over the step. */
void imp_dem_newton(imp_dem *d, const double gravity[3], double dt)
{
    const double damp = d->p.damping;
    double wg = 0.0, wd = 0.0;
    for (int i = 0; i < d->n; i++) {
        if (d->fixed[i]) {
            continue;
        }
        double *v = d->vel + 3 * i, *x = d->pos + 3 * i, *om = d->angvel + 3 * i;
        const double *f = d->force + 3 * i, *t = d->torque + 3 * i;
        double m = d->mass[i], im = d->inv_mass[i], ii = d->inv_inertia[i];
        for (int k = 0; k < 3; k++) {
            double a = f[k] * im + gravity[k];
            double ad = a * (1.0 - damp * sgn(a * (v[k] + 0.5 * dt * a)));
            double vn = v[k] + dt * ad;
            double vm = 0.5 * (v[k] + vn);
            wg += m * gravity[k] * vm * dt;
            wd -= m * (ad - a) * vm * dt;
            v[k] = vn;
            x[k] += dt * vn;
            /* rotation of a sphere: isotropic inertia, so dw/dt = T / I */
            double al = t[k] * ii;
            double ald = al * (1.0 - damp * sgn(al * (om[k] + 0.5 * dt * al)));
            double wn = om[k] + dt * ald;
            wd -= (ald - al) / ii * 0.5 * (om[k] + wn) * dt;
            om[k] = wn;
        }
        /* orientation: q <- rotation(w dt) q */
        double wl = sqrt(om[0] * om[0] + om[1] * om[1] + om[2] * om[2]);
        if (wl > 0.0) {
            double *q = d->quat + 4 * i;
            imp_quat r = imp_q_from_axis_angle(imp_v3(om[0] / wl, om[1] / wl, om[2] / wl), wl * dt);
            imp_quat u = imp_q_normalize(imp_q_mul(r, imp_q(q[0], q[1], q[2], q[3])));
            q[0] = u.w, q[1] = u.x, q[2] = u.y, q[3] = u.z;
        }
    }
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
