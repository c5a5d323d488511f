/* engine3d_strategy.c: the tables (strategy.h) of the 3D engine's strategies, "impulse" and
   "contact" in 3D worlds (engine3d.h), its state's life and its per-pair materials. */
#include <stdlib.h>
#include <string.h>

#include "engine3d.h"
#include "engine3d_cache.h"
#include "engine3d_joints.h"
#include "engine3d_ode.h"
#include "engine3d_soft.h"
#include "strategy.h"
#include "world_internal.h"
#include "resize.h"

const char *const imp_contact_points_names[] = {"clipping", "volumetric", NULL};

imp_engine3d *imp_engine3d_get(imp_world *w)
{
    if (w->engine3d == NULL) {
        w->engine3d = calloc(1, sizeof *w->engine3d);
    }
    return w->engine3d;
}

void imp_engine3d_free(imp_engine3d *e)
{
    if (e == NULL) {
        return;
    }
    imp_bp3d_free(e->bp);
    imp_e3_pairlist_free(&e->plist);
    imp_coulomb_workspace_destroy(e->ws);
    imp_poly_work_free(&e->poly);
    imp_e3_ode_free(e->ode);
    imp_e3_joints_free(e->joints);
    imp_e3_soft_free(e->soft);
    if (e->aliased) {  /* (a step's held points in e->prev's array: e->pts's own is spare) */
        e->pts = e->spare;
    }
    void *arrays[] = {e->bp_slot, e->lo, e->hi, e->near, e->pts, e->prev, e->inv_iw, e->vel, e->vel_save, e->pvel,
                      e->body_head, e->pt_next, e->q, e->mu, e->r, e->u, e->warm, e->row_ptr,
                      e->col, e->val, e->mark, e->act, e->rowof, e->nbr, e->jac, e->rows, e->pairs, e->dof,
                      e->fj_rp, e->fj_col, e->fj_val, e->fm_rp, e->fm_col, e->fm_val,
                      e->freed, e->cache, e->cache_free, e->pose,
                      e->speed, e->scale, e->dpose, e->travel, e->push, e->slept, e->iso,
                      e->ev_pairs, e->ev_next};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
        free(arrays[i]);
    }
    free(e);
}

int imp_engine3d_reserve_slots(imp_engine3d *e, int slots)
{
    if (slots <= e->slot_cap) {
        return 0;
    }
    int cap = e->slot_cap > 0 ? e->slot_cap : 16;
    while (cap < slots) {
        cap *= 2;
    }
    double *iw = realloc(e->inv_iw, (size_t)cap * 9 * sizeof *iw);
    if (iw == NULL) {
        return -1;
    }
    e->inv_iw = iw;
    double *v = realloc(e->vel, (size_t)cap * 6 * sizeof *v);
    if (v == NULL) {
        return -1;
    }
    e->vel = v;
    v = realloc(e->vel_save, (size_t)cap * 6 * sizeof *v);
    if (v == NULL) {
        return -1;
    }
    e->vel_save = v;
    v = realloc(e->pvel, (size_t)cap * 6 * sizeof *v);
    if (v == NULL) {
        return -1;
    }
    e->pvel = v;
    int *h = realloc(e->body_head, (size_t)cap * sizeof *h);
    if (h == NULL) {
        return -1;
    }
    e->body_head = h;
    unsigned char *iso = realloc(e->iso, (size_t)cap * sizeof *iso);
    if (iso == NULL) {
        return -1;
    }
    e->iso = iso;
    e->slot_cap = cap;
    return 0;
}

static int find_pair(const imp_engine3d *e, int a, int b)
{
    int lo = 0, hi = e->npairs - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        const imp_e3_pair_override *p = &e->pairs[mid];
        int c = p->a != a ? (p->a < a ? -1 : 1) : (p->b != b ? (p->b < b ? -1 : 1) : 0);
        if (c == 0) {
            return mid;
        }
        if (c < 0) {
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return -(lo + 1);
}

int imp_engine3d_set_pair(imp_world *w, int a, int b, double friction, double elasticity)
{
    imp_engine3d *e = imp_engine3d_get(w);
    if (e == NULL) {
        return -1;
    }
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    int at = find_pair(e, a, b);
    if (at < 0) {
        at = -at - 1;
        if (imp_grow(&e->pairs, &e->pairs_cap, e->npairs + 1, sizeof *e->pairs) != 0) {
            return -1;
        }
        memmove(e->pairs + at + 1, e->pairs + at, (size_t)(e->npairs - at) * sizeof *e->pairs);
        e->npairs++;
    }
    e->pairs[at] = (imp_e3_pair_override){a, b, w->model.bodies[a].generation, w->model.bodies[b].generation,
                                          friction, elasticity};
    return 0;
}

const imp_e3_pair_override *imp_engine3d_pair(const imp_world *w, int a, int b)
{
    const imp_engine3d *e = w->engine3d;
    if (e == NULL || e->npairs == 0) {
        return NULL;
    }
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    int at = find_pair(e, a, b);
    if (at < 0 || e->pairs[at].gen_a != w->model.bodies[a].generation
        || e->pairs[at].gen_b != w->model.bodies[b].generation) {
        return NULL;
    }
    return &e->pairs[at];
}

static imp_status create(imp_world *w)
{
    return imp_engine3d_get(w) != NULL ? IMP_OK : IMP_ERR_NOMEM;
}

/* The points and pairs a slot the arrays are sized for as bodies are added: a box resting on
   another, four points and one pair (the step grows them when it needs more). */
enum { RESERVE_POINTS = 4 };

/* the engine and its arrays made as the bodies are added, as Box3D makes its own in
   b3CreateWorld and b3CreateBody, instead of in the first step (whose first touch of their
   heap pages, some 15 to 25 us a page on this project's virtual machine, was most of a one-box
   scene's first step beyond Box3D's: h-first3d): the per-slot arrays at the world's capacity,
   the points' and pairs' at RESERVE_POINTS and one a slot, the soft step's when it is the
   solver (imp_e3_soft_reserve). No failure reported: advance makes what is missing. */
static void reserve(imp_world *w)
{
    imp_engine3d *e = imp_engine3d_get(w);
    int ns = w->model.nslots, np = RESERVE_POINTS * ns;
    if (e == NULL || imp_engine3d_reserve_slots(e, w->model.capacity) != 0
        || imp_grow(&e->pts, &e->pts_cap, np, sizeof *e->pts) != 0
        || imp_grow(&e->prev, &e->prev_cap, np, sizeof *e->prev) != 0
        || imp_grow(&e->cache, &e->cache_cap, ns, sizeof *e->cache) != 0
        || imp_grow(&e->cache_free, &e->free_cap, e->cache_cap, sizeof *e->cache_free) != 0) {
        return;
    }
    if (w->model.def.engine2d.contact_solver == IMP_SOLVER_SOFT) {
        imp_e3_soft_reserve(e, np, ns, w->model.capacity);
    }
}

static void destroy(imp_world *w)
{
    imp_engine3d_free(w->engine3d);
    w->engine3d = NULL;
}

static void invalidate(imp_world *w)
{
    if (w->engine3d != NULL) {
        w->engine3d->nprev = 0;
        w->engine3d->ev_valid = 0;
        w->engine3d->bp_built = 0;
    }
}

/* time_stepping "ode": the world's integrator with force-level contact (engine3d_ode.h);
   else the velocity-level steps (engine3d_step.c) */
static imp_status advance(imp_world *w, double t1, char *why, size_t why_len)
{
    if (w->model.def.engine2d.time_stepping == IMP_STEPPING_ODE) {
        return imp_engine3d_ode_advance(w, t1, why, why_len);
    }
    return imp_engine3d_advance(w, t1, why, why_len);
}

static void stats(const imp_world *w, void (*put)(void *ctx, const char *name, double v, int count), void *ctx)
{
    imp_engine3d_stats z = {0};
    const imp_engine3d_stats *s = w->engine3d != NULL ? &w->engine3d->stats : &z;
    put(ctx, "collisions", (double)s->collisions, 1);
    put(ctx, "backups", (double)s->backups, 1);
    put(ctx, "contact_solves", (double)s->solves, 1);
    put(ctx, "solve_failures", (double)s->solve_failures, 1);
    put(ctx, "sweeps", (double)s->sweeps, 1);
    put(ctx, "exact_skipped", (double)s->exact_skipped, 1);
    put(ctx, "newton_iterations", (double)s->newton_iterations, 1);
    put(ctx, "contact_points", (double)s->points, 1);
    put(ctx, "contact_pairs", (double)s->pairs, 1);
    put(ctx, "max_contact_points", (double)s->max_points, 1);
    put(ctx, "solver_error", w->engine3d != NULL ? imp_e3_soft_error(w->engine3d) : s->last_error, 0);
    put(ctx, "max_penetration", s->max_penetration, 0);
    put(ctx, "manifolds", (double)s->manifolds, 1);
    put(ctx, "manifolds_recycled", (double)s->recycled, 1);
    put(ctx, "pairs_apart", (double)s->apart, 1);
    if (w->model.def.engine2d.time_stepping == IMP_STEPPING_ODE) {  /* the force-level stepping's */
        imp_e3_ode zo = {0};
        const imp_e3_ode *o = w->engine3d != NULL && w->engine3d->ode != NULL ? w->engine3d->ode : &zo;
        put(ctx, "ode_steps", (double)o->ode_steps, 1);
        put(ctx, "binary_searches", (double)o->binary_searches, 1);
        put(ctx, "force_solves", (double)o->force_solves, 1);
        put(ctx, "force_solve_failures", (double)o->force_failures, 1);
    }
}

const imp_strategy_ops imp_strategy_impulse3d = {
    .name = "impulse",
    .dims = IMP_DIM3,
    .flags = IMP_STRATEGY_COLLISIONS | IMP_STRATEGY_OWN_STEPPING,
    .create = create,
    .reserve = reserve,
    .destroy = destroy,
    .advance = advance,
    .restore = imp_engine3d_restore,
    .invalidate = invalidate,
    .stats = stats,
};

const imp_strategy_ops imp_strategy_contact3d = {
    .name = "contact",
    .dims = IMP_DIM3,
    .flags = IMP_STRATEGY_COLLISIONS | IMP_STRATEGY_CONTACT_FORCES | IMP_STRATEGY_OWN_STEPPING,
    .create = create,
    .reserve = reserve,
    .destroy = destroy,
    .advance = advance,
    .forces = imp_engine3d_ode_forces,  /* only inside the "ode" advance's integrator */
    .restore = imp_engine3d_restore,
    .invalidate = invalidate,
    .stats = stats,
};
