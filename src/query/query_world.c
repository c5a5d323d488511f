/* query_world.c: ray casts and box and point queries on a world (query_world.h). */
#include "query_world.h"
#include "resize.h"

#include <stdlib.h>
#include <string.h>

void imp_query_cache_free(imp_query_cache *c)
{
    imp_query_tree_free(&c->tree);
    free(c->hits), free(c->slots);
    imp_query_cache e = IMP_QUERY_CACHE_EMPTY;
    *c = e;
}

static const double *pose_of(const imp_world *w, int slot)
{
    imp_world_sync(w);
    return w->data.y + (size_t)slot * (size_t)w->model.stride;
}

static int refresh(imp_query_cache *c, const imp_world *w)
{
    if (c->valid && c->bodies_version == w->model.bodies_version &&
        c->state_version == w->data.state_version && c->time == w->data.time &&
        c->steps == w->data.steps_since_base && c->nslots == w->model.nslots) {
        return 0;
    }
    c->valid = 0;
    if (imp_query_tree_reserve(&c->tree, w->model.nslots) != 0) {
        return -1;
    }
    int dim = w->model.def.dim;
    for (int s = 0; s < w->model.nslots; s++) {
        const imp_body *b = &w->model.bodies[s];
        if (!b->active || b->shape == NULL) {
            continue;
        }
        double lo[3], hi[3];
        imp_shape_bounds(b->shape, pose_of(w, s), lo, hi);
        if (dim == 2) {
            lo[2] = hi[2] = 0.0;
        }
        imp_query_tree_add(&c->tree, s, lo, hi);
    }
    imp_query_tree_build(&c->tree);
    c->bodies_version = w->model.bodies_version;
    c->state_version = w->data.state_version;
    c->time = w->data.time;
    c->steps = w->data.steps_since_base;
    c->nslots = w->model.nslots;
    c->valid = 1;
    c->builds++;
    return 0;
}

typedef struct ray_ctx {
    imp_query_cache *c;
    const imp_world *w;
    double from[3], to[3];
    int all, failed;
} ray_ctx;

static int push_hit(imp_query_cache *c, int slot, const imp_ray_hit *h)
{
    if (imp_grow(&c->hits, &c->hit_cap, c->nhits + 1, sizeof *c->hits) != 0) {
        return -1;
    }
    c->hits[c->nhits].slot = slot;
    c->hits[c->nhits].hit = *h;
    c->nhits++;
    return 0;
}

static void on_box(void *user, int slot, double *fmax)
{
    ray_ctx *r = user;
    const imp_body *b = &r->w->model.bodies[slot];
    imp_ray_hit h;
    int got = r->w->model.def.dim == 2 ? imp_raycast2d(b->shape, pose_of(r->w, slot), r->from, r->to, &h)
                                       : imp_raycast3d(b->shape, pose_of(r->w, slot), r->from, r->to, &h);
    if (got != 1 || h.fraction > *fmax) {
        return;
    }
    if (r->all) {
        r->failed |= push_hit(r->c, slot, &h) != 0;
        return;
    }
    /* keep the nearest; equal fractions: the lower slot */
    if (r->c->nhits == 0) {
        r->failed |= push_hit(r->c, slot, &h) != 0;
    } else if (h.fraction < r->c->hits[0].hit.fraction ||
               (h.fraction == r->c->hits[0].hit.fraction && slot < r->c->hits[0].slot)) {
        r->c->hits[0].slot = slot, r->c->hits[0].hit = h;
    }
    *fmax = r->c->hits[0].hit.fraction;
}

static int cmp_hit(const void *a, const void *b)
{
    const imp_query_hit *x = a, *y = b;
    if (x->hit.fraction != y->hit.fraction) {
        return x->hit.fraction < y->hit.fraction ? -1 : 1;
    }
    return (x->slot > y->slot) - (x->slot < y->slot);
}

int imp_query_ray(imp_query_cache *c, const imp_world *w, const double *from, const double *to,
                  int all)
{
    c->nhits = 0;
    if (refresh(c, w) != 0) {
        return -1;
    }
    int dim = w->model.def.dim;
    ray_ctx r;
    memset(&r, 0, sizeof r);
    r.c = c, r.w = w, r.all = all;
    double d[3] = {0, 0, 0};
    for (int a = 0; a < dim; a++) {
        r.from[a] = from[a], r.to[a] = to[a], d[a] = to[a] - from[a];
    }
    imp_query_tree_segment(&c->tree, r.from, d, 1.0, on_box, &r);
    if (r.failed) {
        return -1;
    }
    if (c->nhits > 1) {
        qsort(c->hits, (size_t)c->nhits, sizeof *c->hits, cmp_hit);
    }
    return c->nhits;
}

static int push_slot(imp_query_cache *c, int slot)
{
    if (imp_grow(&c->slots, &c->slot_cap, c->nslots_out + 1, sizeof *c->slots) != 0) {
        return -1;
    }
    c->slots[c->nslots_out++] = slot;
    return 0;
}

static int on_slot(void *user, int slot)
{
    return push_slot(user, slot) != 0;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int box_query(imp_query_cache *c, const imp_world *w, const double *lo, const double *hi)
{
    c->nslots_out = 0;
    if (refresh(c, w) != 0) {
        return -1;
    }
    double l[3] = {0, 0, 0}, h[3] = {0, 0, 0};
    for (int a = 0; a < w->model.def.dim; a++) {
        l[a] = lo[a], h[a] = hi[a];
    }
    if (imp_query_tree_box(&c->tree, l, h, on_slot, c)) {
        return -1;
    }
    if (c->nslots_out > 1) {
        qsort(c->slots, (size_t)c->nslots_out, sizeof *c->slots, cmp_int);
    }
    return c->nslots_out;
}

int imp_query_box(imp_query_cache *c, const imp_world *w, const double *lo, const double *hi)
{
    return box_query(c, w, lo, hi);
}

int imp_query_point(imp_query_cache *c, const imp_world *w, const double *p)
{
    int n = box_query(c, w, p, p);
    if (n < 0) {
        return -1;
    }
    int dim = w->model.def.dim, kept = 0;
    for (int i = 0; i < n; i++) {
        int s = c->slots[i];
        const imp_body *b = &w->model.bodies[s];
        int in = dim == 2 ? imp_contains2d(b->shape, pose_of(w, s), p)
                          : imp_contains3d(b->shape, pose_of(w, s), p);
        if (in == 1) {
            c->slots[kept++] = s;
        }
    }
    c->nslots_out = kept;
    return kept;
}
