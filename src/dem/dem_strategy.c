/* dem_strategy.c: the "dem" strategy's table (strategy.h): the default engine list over one
   world step. It keeps its own copy of the state (dem.h); after a good step the world's state
   vector is marked stale and written when something reads it (imp_dem_step_good, the world's
   imp_world_sync); a failing step leaves it as the last good step left it (Newton writes into
   a second set of arrays), so the shell neither saves nor rolls back the world's state.
   Stages: reset_forces, collide, interactions, newton. */
#include <math.h>
#include <stdio.h>

#include "dem.h"
#include "dem_domain.h"
#include "strategy.h"
#include "world_internal.h"

static imp_status advance(imp_world *w, double t1, char *why, size_t why_len)
{
    (void)t1, (void)why, (void)why_len;  /* the errors go to the world's message */
    imp_status st = imp_dem_sync(w);
    if (st == IMP_OK && w->dem->domain != NULL) {
        st = imp_dem_domain_step(w);  /* several ranks: the ghosts from their owners */
    }
    if (st != IMP_OK) {
        return st;
    }
    imp_dem *d = w->dem;
    imp_profile *p = &w->data.profile;
    double t = imp_profile_now();
    imp_dem_reset_forces(d);
    if (imp_dem_add_world_forces(d, w) != 0) {
        return IMP_ERR_INVALID;
    }
    t = imp_profile_add(p, IMP_STAGE_RESET_FORCES, t);
    int failed = imp_dem_collide(d) != 0;
    t = imp_profile_add(p, IMP_STAGE_COLLIDE, t);
    failed = failed || imp_dem_interactions(d, w->model.def.dt) != 0;
    t = imp_profile_add(p, IMP_STAGE_INTERACTIONS, t);
    if (failed) {
        snprintf(w->data.error, sizeof w->data.error, "dem strategy: %s", d->error);
        return IMP_ERR_NOMEM;
    }
    int fast = imp_dem_check_dt(d, w->model.def.dt, w->data.error, sizeof w->data.error);
    if (fast >= 0) {  /* before Newton: the bodies keep their state */
        w->data.nerror_bodies = 1;
        w->data.error_bodies[0] = d->slot[fast];
        return IMP_ERR_INVALID;
    }
    t = imp_profile_now();
    imp_dem_newton(d, w->model.def.gravity, w->model.def.dt);
    imp_profile_add(p, IMP_STAGE_NEWTON, t);
    int bad = imp_dem_first_nonfinite(d);
    if (bad >= 0) {
        snprintf(w->data.error, sizeof w->data.error, "dem strategy: the state became non-finite at "
                 "step %ld (t = %.17g); is dt below the P-wave estimate?", w->data.stats.steps + 1,
                 w->data.time);
        w->data.nerror_bodies = 1;
        w->data.error_bodies[0] = d->slot[bad];
        imp_dem_step_failed(w);  /* the world keeps the last good state */
        return IMP_ERR_NONFINITE;
    }
    imp_dem_step_good(w);  /* the particles' state into the world's when read (lazy) */
    w->data.stats.substeps++;  /* the shell commits the time and the step count */
    d->iter++;
    return IMP_OK;
}

static imp_status create(imp_world *w)
{
    if (w->dem == NULL && (w->dem = imp_dem_new()) == NULL) {
        snprintf(w->data.error, sizeof w->data.error, "dem strategy: out of memory");
        return IMP_ERR_NOMEM;
    }
    return IMP_OK;
}

static void destroy(imp_world *w)
{
    imp_dem_free(w->dem);
    w->dem = NULL;
}

const imp_strategy_ops imp_strategy_dem = {
    .name = "dem",
    .dims = IMP_DIM3,
    .flags = IMP_STRATEGY_OWN_STATE | IMP_STRATEGY_DIMS_AT_STEP  /* imp_dem_sync says so */
             | IMP_STRATEGY_NO_KINEMATIC,
    .create = create,
    .destroy = destroy,
    .advance = advance,
};
