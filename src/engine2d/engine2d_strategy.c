/* engine2d_strategy.c: the tables (strategy.h) of the 2D engine's strategies, "impulse"
   (collisions by impulses) and "contact" (collisions plus contact forces from an LCP inside
   every evaluation). Both step with the collision advance (engine2d_step.c).
   Stages: integrate (contact_solve inside it), detect, collisions, contacts, joints. */
#include "engine2d.h"
#include "strategy.h"
#include "world_internal.h"

static void contact_forces(imp_world *w, const double *y, double *f)
{
    if (w->engine2d != NULL) {
        double t = imp_profile_now();
        imp_engine2d_contact_forces(w, y, f);  /* failures flagged in engine2d->force_error */
        imp_profile_add(&w->data.profile, IMP_STAGE_CONTACT_SOLVE, t);
    }
}

static imp_status create(imp_world *w)
{
    return imp_engine2d_get(w) != NULL ? IMP_OK : IMP_ERR_NOMEM;
}

static void destroy(imp_world *w)  /* the state both strategies share */
{
    imp_engine2d_free(w->engine2d);
    w->engine2d = NULL;
}

static void stats(const imp_world *w, void (*put)(void *ctx, const char *name, double v, int count),
                  void *ctx)
{
    imp_engine2d_stats z = {0};
    const imp_engine2d_stats *s = w->engine2d != NULL ? &w->engine2d->stats : &z;
    put(ctx, "collisions", (double)s->collisions, 1);
    put(ctx, "impulse_solves", (double)s->impulse_solves, 1);
    put(ctx, "backups", (double)s->backups, 1);
    put(ctx, "binary_searches", (double)s->binary_searches, 1);
    put(ctx, "ode_steps", (double)s->steps, 1);
    put(ctx, "lcp_solves", (double)s->lcp_solves, 1);
    put(ctx, "lcp_failures", (double)s->lcp_failures, 1);
    put(ctx, "max_contact_rows", (double)s->max_contacts, 1);
    put(ctx, "pgs_sweeps", (double)s->pgs_sweeps, 1);
    put(ctx, "lcp_residual", s->lcp_residual, 0);
    put(ctx, "coulomb_solves", (double)s->coulomb_solves, 1);
    put(ctx, "coulomb_failures", (double)s->coulomb_failures, 1);
    put(ctx, "max_contact_force", w->engine2d != NULL ? w->engine2d->max_force : 0.0, 0);
}

const imp_strategy_ops imp_strategy_impulse = {
    .name = "impulse",
    .dims = IMP_DIM2,
    .flags = IMP_STRATEGY_COLLISIONS,
    .create = create,
    .destroy = destroy,
    .advance = imp_engine2d_advance,
    .stats = stats,
};

const imp_strategy_ops imp_strategy_contact = {
    .name = "contact",
    .dims = IMP_DIM2,
    .flags = IMP_STRATEGY_COLLISIONS | IMP_STRATEGY_CONTACT_FORCES,
    .create = create,
    .destroy = destroy,
    .advance = imp_engine2d_advance,
    .forces = contact_forces,
    .stats = stats,
};
