/* world_step.c: one step of a world: save the last good state, integrate over dt with the
   chosen method, keep quaternions unit, check the new state, or roll back and say why. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "dem.h"
#include "integrate_fixed.h"
#include "ode_gsl.h"
#include "quat.h"
#include "world.h"

static void rhs(void *ctx, double t, const double *y, double *dydt)
{
    imp_world_derivative(ctx, t, y, dydt);
}

static size_t state_size(const imp_world *w) { return (size_t)w->nslots * (size_t)w->stride; }

void imp_world_normalize_orientations(const imp_world *w, double *y)
{
    if (w->def.dim != 3) {
        return;
    }
    for (int i = 1; i < w->nslots; i++) {
        double *q = y + (size_t)i * IMP_STRIDE_3D + 3;
        if (!w->bodies[i].active) {
            continue;
        }
        imp_quat u = imp_q_normalize(imp_q(q[0], q[1], q[2], q[3]));
        q[0] = u.w, q[1] = u.x, q[2] = u.y, q[3] = u.z;
    }
}

/* multistep methods keep a history: only renormalize when the drift matters, then restart */
static void after_substep(imp_world *w)
{
    if (w->def.integrator.kind != IMP_MSBDF) {
        imp_world_normalize_orientations(w, w->y);
        return;
    }
    if (w->def.dim != 3) {
        return;
    }
    for (int i = 1; i < w->nslots; i++) {
        const double *q = w->y + (size_t)i * IMP_STRIDE_3D + 3;
        if (w->bodies[i].active && fabs(imp_q_norm(imp_q(q[0], q[1], q[2], q[3])) - 1.0) > 1e-9) {
            imp_world_normalize_orientations(w, w->y);
            imp_ode_reset(w->ode);
            return;
        }
    }
}

/* Names the bodies whose state or derivative is not finite at y; when none, the body with
   the largest acceleration. */
static void blame_bodies(imp_world *w, const double *y)
{
    int s = w->stride;
    double *d = w->work;  /* free after a failed step */
    imp_world_derivative(w, w->time, y, d);
    w->nerror_bodies = 0;
    int worst = -1;
    double worst_a = -1.0;
    int vo = w->def.dim == 2 ? IMP_VEL_2D : IMP_VEL_3D;
    for (int i = 1; i < w->nslots; i++) {
        if (!w->bodies[i].active) {
            continue;
        }
        int bad = 0;
        double a = 0.0;
        for (int k = 0; k < s; k++) {
            double yk = y[(size_t)i * (size_t)s + (size_t)k];
            double dk = d[(size_t)i * (size_t)s + (size_t)k];
            bad |= !isfinite(yk) || !isfinite(dk);
            if (k >= vo) {
                a += dk * dk;
            }
        }
        if (bad && w->nerror_bodies < 8) {
            w->error_bodies[w->nerror_bodies++] = i;
        }
        if (!bad && a > worst_a) {
            worst_a = a;
            worst = i;
        }
    }
    if (w->nerror_bodies == 0 && worst > 0) {
        w->error_bodies[w->nerror_bodies++] = worst;
    }
}

static imp_status fail(imp_world *w, imp_status st, const double *bad_state, const char *why)
{
    if (w->nerror_bodies == 0) {  /* unless the failing stage named them already */
        blame_bodies(w, bad_state);
    }
    memcpy(w->y, w->y_saved, state_size(w) * sizeof *w->y);
    memcpy(w->y_end, w->y, state_size(w) * sizeof *w->y);
    if (w->ode != NULL) {
        imp_ode_reset(w->ode);
    }
    if (w->compliant != NULL) {
        imp_compliant_restore(w->compliant);
    }
    w->nevents = 0;
    w->stats.failures++;
    snprintf(w->error, sizeof w->error,
             "step %ld from t = %.17g failed (integrator %s): %s; the world keeps its state at "
             "t = %.17g",
             w->stats.steps + 1, w->time, imp_integrator_names[w->def.integrator.kind], why, w->time);
    return st;
}

static double now_seconds(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int adaptive(imp_integrator_kind k) { return k >= IMP_RKF45; }

imp_status imp_world_step(imp_world *w)
{
    if (w->def.strategy == IMP_STRATEGY_DEM) {  /* its own explicit integrator (dem.h) */
        return imp_dem_world_step(w);
    }
    double start = now_seconds();
    size_t n = state_size(w);
    double t0 = w->time;
    double t1 = w->time_base + (double)(w->steps_since_base + 1) * w->def.dt;
    imp_integrator_kind kind = w->def.integrator.kind;
    w->nerror_bodies = 0;
    w->nevents = 0;
    if (!(t1 > t0) || !isfinite(t1)) {  /* a dt below the resolution of the time, or huge */
        w->stats.failures++;
        snprintf(w->error, sizeof w->error,
                 "step %ld from t = %.17g failed: dt = %g %s; the world keeps its state at "
                 "t = %.17g", w->stats.steps + 1, w->time, w->def.dt,
                 isfinite(t1) ? "does not advance the time (below its resolution there): use a "
                                "larger dt"
                              : "makes the end of the step non-finite",
                 w->time);
        return IMP_ERR_INVALID;
    }
    memcpy(w->y_saved, w->y, n * sizeof *w->y);
    if (w->def.strategy == IMP_STRATEGY_COMPLIANT) {
        char why[400];
        if (w->compliant != NULL && memcmp(w->y_end, w->y, n * sizeof *w->y) != 0) {
            imp_compliant_invalidate(w->compliant);  /* the state was edited */
        }
        imp_status st = imp_compliant_advance(w, t1, why, sizeof why);
        if (st != IMP_OK) {
            return fail(w, st, w->y, why);
        }
    } else if (w->def.strategy == IMP_STRATEGY_IMPULSE || w->def.strategy == IMP_STRATEGY_CONTACT) {
        char why[400];  /* engine2d.h: the collision advance */
        imp_status st = imp_engine2d_advance(w, t1, why, sizeof why);
        if (st != IMP_OK) {
            return fail(w, st, w->y, why);
        }
    } else if (adaptive(kind)) {
        if (w->ode != NULL && imp_ode_dim(w->ode) != n) {
            imp_ode_free(w->ode);
            w->ode = NULL;
        } else if (w->ode != NULL && memcmp(w->y_end, w->y, n * sizeof *w->y) != 0) {
            imp_ode_reset(w->ode);  /* the state was edited since the last step */
        }
        if (w->ode == NULL && (w->ode = imp_ode_new(w, n)) == NULL) {
            snprintf(w->error, sizeof w->error, "out of memory for the %s integrator",
                     imp_integrator_names[kind]);
            return IMP_ERR_NOMEM;
        }
        double t = t0;
        char why[256];
        if (imp_ode_advance(w->ode, &t, t1, w->y, after_substep, why, sizeof why) != 0) {
            return fail(w, IMP_ERR_SOLVER, w->y, why);
        }
    } else {
        imp_fixed_step(kind, rhs, w, t0, t1 - t0, w->y, n, w->work);
        imp_world_normalize_orientations(w, w->y);
        w->stats.substeps++;
    }
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(w->y[i])) {
            return fail(w, IMP_ERR_NONFINITE, w->y, "the state became non-finite");
        }
    }
    for (int i = 0; i < w->nslots; i++) {  /* applied forces last one step */
        memset(w->bodies[i].force, 0, sizeof w->bodies[i].force);
        memset(w->bodies[i].torque, 0, sizeof w->bodies[i].torque);
    }
    memcpy(w->y_end, w->y, n * sizeof *w->y);
    w->steps_since_base++;
    w->time = t1;
    w->stats.steps++;
    w->stats.step_seconds += now_seconds() - start;
    return IMP_OK;
}
