/* compliant_strategy.c: the "compliant" strategy's table (strategy.h): forces from
   penetrations inside every evaluation (compliant_contacts.c), event location over the step
   (compliant_step.c). Stages: integrate, pairs, locate, events. */
#include <string.h>

#include "compliant.h"
#include "strategy.h"
#include "world_internal.h"

static imp_status create(imp_world *w)
{
    if (w->compliant == NULL && (w->compliant = imp_compliant_new(&w->model.def.compliant)) == NULL) {
        return IMP_ERR_NOMEM;
    }
    return IMP_OK;
}

static imp_status advance(imp_world *w, double t1, char *why, size_t why_len)
{
    size_t n = (size_t)w->model.nslots * (size_t)w->model.stride;
    if (w->compliant != NULL && w->compliant->initialized
        && memcmp(w->scratch.y_end, w->data.y, n * sizeof *w->data.y) != 0) {
        imp_compliant_invalidate(w->compliant);  /* the state was edited */
    }
    return imp_compliant_advance(w, t1, why, why_len);
}

static void forces(imp_world *w, const double *y, double *f)
{
    if (w->compliant != NULL) {
        imp_compliant_forces(w, y, f);
    }
}

static void restore(imp_world *w)
{
    if (w->compliant != NULL) {
        imp_compliant_restore(w->compliant);
    }
}

static void invalidate(imp_world *w)
{
    if (w->compliant != NULL) {
        imp_compliant_invalidate(w->compliant);
    }
}

static void destroy(imp_world *w)
{
    imp_compliant_free(w->compliant);
    w->compliant = NULL;
}

static void stats(const imp_world *w, void (*put)(void *ctx, const char *name, double v, int count),
                  void *ctx)
{
    const imp_compliant *c = w->compliant;
    put(ctx, "events", c ? (double)c->stats.events : 0.0, 1);
    put(ctx, "contacts", c && c->initialized ? c->ncontact : 0.0, 1);
    put(ctx, "contacts_begun", c ? (double)c->stats.contacts_begun : 0.0, 1);
    put(ctx, "contacts_ended", c ? (double)c->stats.contacts_ended : 0.0, 1);
    put(ctx, "overlaps", c ? (double)c->stats.overlaps : 0.0, 1);
    put(ctx, "location_steps", c ? (double)c->stats.location_steps : 0.0, 1);
    put(ctx, "candidate_pairs", c && c->bp ? c->npairs : 0.0, 1);
}

const imp_strategy_ops imp_strategy_compliant = {
    .name = "compliant",
    .dims = IMP_DIM2 | IMP_DIM3,
    .flags = IMP_STRATEGY_ADAPTIVE,
    .create = create,
    .destroy = destroy,
    .advance = advance,
    .forces = forces,
    .restore = restore,
    .invalidate = invalidate,
    .stats = stats,
};
