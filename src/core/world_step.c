/* world_step.c: the one shell of every strategy's step (strategy.h): save the last good
   state, call the strategy's advance over dt, check the new state, commit the time, the stats
   and the profile, or roll back (the strategy's restore) and say when and which bodies. */
#include <stdio.h>
#include <string.h>

#include "filter.h"
#include "ode_gsl.h"
#include "quat.h"
#include "strategy.h"
#include "world_internal.h"

imp_ode *imp_world_ode_new(imp_world *w, size_t n)
{
    imp_ode_sys sys = {.rhs = imp_world_rhs, .ctx = w, .def = &w->model.def.integrator,
                       .dt = &w->model.def.dt, .stride = (size_t)w->model.stride,
                       .substeps = &w->data.stats.substeps, .rejected = &w->data.stats.rejected};
    return imp_ode_new(&sys, n);
}

static size_t state_size(const imp_world *w) { return (size_t)w->model.nslots * (size_t)w->model.stride; }

void imp_world_normalize_orientations(const imp_world *w, double *y)
{
    if (w->model.def.dim != 3) {
        return;
    }
    for (int i = 1; i < w->model.nslots; i++) {
        double *q = y + (size_t)i * IMP_STRIDE_3D + 3;
        if (!w->model.bodies[i].active) {
            continue;
        }
        imp_quat u = imp_q_normalize(imp_q(q[0], q[1], q[2], q[3]));
        q[0] = u.w, q[1] = u.x, q[2] = u.y, q[3] = u.z;
    }
}

/* Names the bodies whose state or derivative is not finite at y; when none, the body with
   the largest acceleration. */
static void blame_bodies(imp_world *w, const double *y)
{
    int s = w->model.stride;
    double *d = w->scratch.work;  /* free after a failed step */
    imp_world_derivative(w, w->data.time, y, d);
    w->data.nerror_bodies = 0;
    int worst = -1;
    double worst_a = -1.0;
    int vo = w->model.def.dim == 2 ? IMP_VEL_2D : IMP_VEL_3D;
    for (int i = 1; i < w->model.nslots; i++) {
        if (!w->model.bodies[i].active) {
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
        if (bad && w->data.nerror_bodies < 8) {
            w->data.error_bodies[w->data.nerror_bodies++] = i;
        }
        if (!bad && a > worst_a) {
            worst_a = a;
            worst = i;
        }
    }
    if (w->data.nerror_bodies == 0 && worst > 0) {
        w->data.error_bodies[w->data.nerror_bodies++] = worst;
    }
}

static imp_status fail(imp_world *w, imp_status st, const double *bad_state, const char *why)
{
    if (w->data.nerror_bodies == 0) {  /* unless the failing stage named them already */
        blame_bodies(w, bad_state);
    }
    memcpy(w->data.y, w->scratch.y_saved, state_size(w) * sizeof *w->data.y);
    memcpy(w->scratch.y_end, w->data.y, state_size(w) * sizeof *w->data.y);
    if (w->scratch.ode != NULL) {
        imp_ode_reset(w->scratch.ode);
    }
    const imp_strategy_ops *ops = imp_world_strategy(w);
    if (ops->restore != NULL) {
        ops->restore(w);
    }
    w->data.nevents = 0;
    w->data.stats.failures++;
    char how[64] = "";
    if ((ops->flags & IMP_STRATEGY_OWN_STEPPING) == 0 || w->model.def.engine2d.time_stepping == IMP_STEPPING_ODE) {
        /* (the 3D engine steps by its own scheme unless time_stepping = "ode") */
        snprintf(how, sizeof how, " (integrator %s)", imp_integrator_names[w->model.def.integrator.kind]);
    }
    snprintf(w->data.error, sizeof w->data.error,
             "step %ld from t = %.17g failed%s: %s; the world keeps its state at t = %.17g",
             w->data.stats.steps + 1, w->data.time, how, why, w->data.time);
    return st;
}

void imp_world_clear_applied(imp_world *w)
{
    if (!w->data.applied) {  /* (no O(bodies) pass over zeros at every step: dem at 1e6) */
        return;
    }
    w->data.applied = 0;
    for (int i = 0; i < w->model.nslots; i++) {
        memset(w->model.bodies[i].force, 0, sizeof w->model.bodies[i].force);
        memset(w->model.bodies[i].torque, 0, sizeof w->model.bodies[i].torque);
    }
}

imp_status imp_world_step(imp_world *w)
{
    const imp_strategy_ops *ops = imp_world_strategy(w);
    int own = (ops->flags & IMP_STRATEGY_OWN_STATE) != 0;
    imp_profile_begin(&w->data.profile);
    double start = imp_profile_now();
    size_t n = state_size(w);
    double t0 = w->data.time;
    double t1 = w->data.time_base + (double)(w->data.steps_since_base + 1) * w->model.def.dt;
    w->data.nerror_bodies = 0;
    w->data.nevents = 0;
    if (!own && (!(t1 > t0) || !isfinite(t1))) {  /* a dt below the time's resolution, or huge */
        w->data.stats.failures++;
        snprintf(w->data.error, sizeof w->data.error,
                 "step %ld from t = %.17g failed: dt = %g %s; the world keeps its state at "
                 "t = %.17g", w->data.stats.steps + 1, w->data.time, w->model.def.dt,
                 isfinite(t1) ? "does not advance the time (below its resolution there): use a "
                                "larger dt"
                              : "makes the end of the step non-finite",
                 w->data.time);
        return IMP_ERR_INVALID;
    }
    if (w->model.nkinematic > 0 && (ops->flags & IMP_STRATEGY_NO_KINEMATIC) != 0) {
        w->data.stats.failures++;
        snprintf(w->data.error, sizeof w->data.error,
                 "step %ld from t = %.17g failed: the %s strategy does not move kinematic bodies "
                 "(the world has %d); use impulse, contact or compliant, or make them fixed; the "
                 "world keeps its state at t = %.17g", w->data.stats.steps + 1, w->data.time,
                 ops->name, w->model.nkinematic, w->data.time);
        return IMP_ERR_INVALID;
    }
    imp_kinematic_drive(w, t1 - t0);
    if (!own) {
        memcpy(w->scratch.y_saved, w->data.y, n * sizeof *w->data.y);
    }
    char why[400];
    imp_status st = IMP_OK;
    if (ops->create != NULL && (st = ops->create(w)) != IMP_OK) {
        snprintf(why, sizeof why, "out of memory for the %s strategy", ops->name);
    } else {
        st = ops->advance(w, t1, why, sizeof why);
    }
    if (st != IMP_OK) {
        if (own) {  /* the strategy kept its state and wrote the error itself */
            imp_profile_add(&w->data.profile, IMP_STAGE_STEP, start);
            imp_profile_end(&w->data.profile);
            return st;
        }
        st = fail(w, st, w->data.y, why);
        imp_profile_add(&w->data.profile, IMP_STAGE_STEP, start);
        imp_profile_end(&w->data.profile);
        return st;
    }
    for (size_t i = 0; !own && i < n; i++) {
        if (!isfinite(w->data.y[i])) {
            st = fail(w, IMP_ERR_NONFINITE, w->data.y, "the state became non-finite");
            imp_profile_add(&w->data.profile, IMP_STAGE_STEP, start);
            imp_profile_end(&w->data.profile);
            return st;
        }
    }
    imp_kinematic_land(w);
    imp_world_clear_applied(w);
    if (!own) {
        memcpy(w->scratch.y_end, w->data.y, n * sizeof *w->data.y);
    }
    w->data.steps_since_base++;
    w->data.time = t1;
    w->data.stats.steps++;
    imp_profile_add(&w->data.profile, IMP_STAGE_STEP, start);
    imp_profile_end(&w->data.profile);
    w->data.stats.step_seconds += w->data.profile.last[IMP_STAGE_STEP];
    return IMP_OK;
}
