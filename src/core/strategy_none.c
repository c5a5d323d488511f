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

static imp_status advance(imp_world *w, double t1, char *why, size_t why_len)
{
    size_t n = (size_t)w->nslots * (size_t)w->stride;
    double t0 = w->time;
    imp_integrator_kind kind = w->def.integrator.kind;
    double start = imp_profile_now();
    if (kind >= IMP_RKF45) {
        if (w->ode != NULL && imp_ode_dim(w->ode) != n) {
            imp_ode_free(w->ode);
            w->ode = NULL;
        } else if (w->ode != NULL && memcmp(w->y_end, w->y, n * sizeof *w->y) != 0) {
            imp_ode_reset(w->ode);  /* the state was edited since the last step */
        }
        if (w->ode == NULL && (w->ode = imp_world_ode_new(w, n)) == NULL) {
            snprintf(why, why_len, "out of memory for the %s integrator", imp_integrator_names[kind]);
            return IMP_ERR_NOMEM;
        }
        double t = t0;
        int st = imp_ode_advance(w->ode, &t, t1, w->y, after_substep, why, why_len);
        if (st != 0 && !imp_ode_nonfinite(st)) {
            /* too many or too short steps: the body that limits the step size (a non-finite
               state or force is named by the shell, from the state itself) */
            int culprits[2];
            w->nerror_bodies = imp_ode_culprits(w->ode, w->y, culprits);
            for (int k = 0; k < w->nerror_bodies; k++) {
                w->error_bodies[k] = culprits[k];
            }
        }
        imp_profile_add(&w->profile, IMP_STAGE_INTEGRATE, start);
        return st != 0 ? IMP_ERR_SOLVER : IMP_OK;
    }
    imp_fixed_step(kind, imp_world_rhs, w, t0, t1 - t0, w->y, n, w->work);
    imp_world_normalize_orientations(w, w->y);
    w->stats.substeps++;
    imp_profile_add(&w->profile, IMP_STAGE_INTEGRATE, start);
    return IMP_OK;
}

const imp_strategy_ops imp_strategy_none = {
    .name = "none",
    .dims = IMP_DIM2 | IMP_DIM3,
    .advance = advance,
};
