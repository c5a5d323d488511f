/* world_step.c: the one shell of every strategy's step (strategy.h): save the last good
   state, call the strategy's advance over dt, check the new state, commit the time, the stats
   and the profile, or roll back (the strategy's restore) and say when and which bodies. */
#include <stdio.h>
#include <string.h>

#include "ode_gsl.h"
#include "quat.h"
#include "strategy.h"
#include "world_internal.h"

imp_ode *imp_world_ode_new(imp_world *w, size_t n)
{
    imp_ode_sys sys = {.rhs = imp_world_rhs, .ctx = w, .def = &w->def.integrator,
                       .dt = &w->def.dt, .stride = (size_t)w->stride,
                       .substeps = &w->stats.substeps, .rejected = &w->stats.rejected};
    return imp_ode_new(&sys, n);
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
    const imp_strategy_ops *ops = imp_world_strategy(w);
    if (ops->restore != NULL) {
        ops->restore(w);
    }
    w->nevents = 0;
    w->stats.failures++;
    snprintf(w->error, sizeof w->error,
             "step %ld from t = %.17g failed (integrator %s): %s; the world keeps its state at "
             "t = %.17g",
             w->stats.steps + 1, w->time, imp_integrator_names[w->def.integrator.kind], why, w->time);
    return st;
}

imp_status imp_world_step(imp_world *w)
{
    const imp_strategy_ops *ops = imp_world_strategy(w);
    int own = (ops->flags & IMP_STRATEGY_OWN_STATE) != 0;
    imp_profile_begin(&w->profile);
    double start = imp_profile_now();
    size_t n = state_size(w);
    double t0 = w->time;
    double t1 = w->time_base + (double)(w->steps_since_base + 1) * w->def.dt;
    w->nerror_bodies = 0;
    w->nevents = 0;
    if (!own && (!(t1 > t0) || !isfinite(t1))) {  /* a dt below the time's resolution, or huge */
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
    if (!own) {
        memcpy(w->y_saved, w->y, n * sizeof *w->y);
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
            imp_profile_add(&w->profile, IMP_STAGE_STEP, start);
            imp_profile_end(&w->profile);
            return st;
        }
        st = fail(w, st, w->y, why);
        imp_profile_add(&w->profile, IMP_STAGE_STEP, start);
        imp_profile_end(&w->profile);
        return st;
    }
    for (size_t i = 0; !own && i < n; i++) {
        if (!isfinite(w->y[i])) {
            st = fail(w, IMP_ERR_NONFINITE, w->y, "the state became non-finite");
            imp_profile_add(&w->profile, IMP_STAGE_STEP, start);
            imp_profile_end(&w->profile);
            return st;
        }
    }
    if (!own) {  /* (dem reads no applied forces) */
        for (int i = 0; i < w->nslots; i++) {  /* applied forces last one step */
            memset(w->bodies[i].force, 0, sizeof w->bodies[i].force);
            memset(w->bodies[i].torque, 0, sizeof w->bodies[i].torque);
        }
        memcpy(w->y_end, w->y, n * sizeof *w->y);
    }
    w->steps_since_base++;
    w->time = t1;
    w->stats.steps++;
    imp_profile_add(&w->profile, IMP_STAGE_STEP, start);
    imp_profile_end(&w->profile);
    w->stats.step_seconds += w->profile.last[IMP_STAGE_STEP];
    return IMP_OK;
}
