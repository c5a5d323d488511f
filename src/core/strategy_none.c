/* strategy_none.c: the "none" strategy: bodies pass through each other; the world's equations
   of motion (dynamics.c) are integrated over the step by the chosen method, a fixed-step one
   (integrate_fixed.c) or an adaptive GSL one (ode_gsl.c).
   Stages: integrate. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "integrate_fixed.h"
#include "ode_gsl.h"
#include "quat.h"
#include "strategy.h"
#include "world_internal.h"

/* multistep methods keep a history: only renormalize when the drift matters, then restart */
static void after_substep(void *ctx)
{
    imp_world *w = ctx;
    if (w->model.def.integrator.kind != IMP_MSBDF) {
        imp_world_normalize_orientations(w, w->data.y);
        return;
    }
    if (w->model.def.dim != 3) {
        return;
    }
    for (int i = 1; i < w->model.nslots; i++) {
        const double *q = w->data.y + (size_t)i * IMP_STRIDE_3D + 3;
        if (w->model.bodies[i].active && fabs(imp_q_norm(imp_q(q[0], q[1], q[2], q[3])) - 1.0) > 1e-9) {
            imp_world_normalize_orientations(w, w->data.y);
            imp_ode_reset(w->scratch.ode);
            return;
        }
    }
}

static imp_status advance(imp_world *w, double t1, char *why, size_t why_len)
{
    size_t n = (size_t)w->model.nslots * (size_t)w->model.stride;
    double t0 = w->data.time;
    imp_integrator_kind kind = w->model.def.integrator.kind;
    double start = imp_profile_now();
    if (kind >= IMP_RKF45) {
        if (w->scratch.ode != NULL && imp_ode_dim(w->scratch.ode) != n) {
            imp_ode_free(w->scratch.ode);
            w->scratch.ode = NULL;
        } else if (w->scratch.ode != NULL && memcmp(w->scratch.y_end, w->data.y, n * sizeof *w->data.y) != 0) {
            imp_ode_reset(w->scratch.ode);  /* the state was edited since the last step */
        }
        if (w->scratch.ode == NULL && (w->scratch.ode = imp_world_ode_new(w, n)) == NULL) {
            snprintf(why, why_len, "out of memory for the %s integrator", imp_integrator_names[kind]);
            return IMP_ERR_NOMEM;
        }
        double t = t0;
        int st = imp_ode_advance(w->scratch.ode, &t, t1, w->data.y, after_substep, why, why_len);
        if (st != 0 && !imp_ode_nonfinite(st)) {
            /* too many or too short steps: the body that limits the step size (a non-finite
               state or force is named by the shell, from the state itself) */
            int culprits[2];
            w->data.nerror_bodies = imp_ode_culprits(w->scratch.ode, w->data.y, culprits);
            for (int k = 0; k < w->data.nerror_bodies; k++) {
                w->data.error_bodies[k] = culprits[k];
            }
        }
        imp_profile_add(&w->data.profile, IMP_STAGE_INTEGRATE, start);
        return st != 0 ? IMP_ERR_SOLVER : IMP_OK;
    }
    imp_fixed_step(kind, imp_world_rhs, w, t0, t1 - t0, w->data.y, n, w->scratch.work);
    imp_world_normalize_orientations(w, w->data.y);
    w->data.stats.substeps++;
    imp_profile_add(&w->data.profile, IMP_STAGE_INTEGRATE, start);
    return IMP_OK;
}

const imp_strategy_ops imp_strategy_none = {
    .name = "none",
    .dims = IMP_DIM2 | IMP_DIM3,
    .advance = advance,
};
