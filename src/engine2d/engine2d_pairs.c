/* engine2d_pairs.c: per-pair friction and elasticity of the 2D engine, overriding the
   smaller of the two bodies' coefficients for one pair of bodies. A sorted array keyed by the
   two slots; entries of removed bodies (older generations) are ignored. */
#include <stdlib.h>
#include <string.h>

#include "engine2d.h"
#include "world_internal.h"
#include "resize.h"

static unsigned long long pair_key(int a, int b)
{
    unsigned long long lo = (unsigned)(a < b ? a : b), hi = (unsigned)(a < b ? b : a);
    return lo << 32 | hi;
}

static int find(const imp_engine2d *e, unsigned long long key, int *at)
{
    int lo = 0, hi = e->npairs - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (e->pairs[mid].key == key) {
            *at = mid;
            return 1;
        }
        if (e->pairs[mid].key < key) {
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    *at = lo;
    return 0;
}

int imp_engine2d_set_pair(imp_world *w, int a, int b, double friction, double elasticity)
{
    imp_engine2d *e = imp_engine2d_get(w);
    if (e == NULL) {
        return -1;
    }
    unsigned long long key = pair_key(a, b);
    int at;
    if (!find(e, key, &at)) {
        if (imp_grow(&e->pairs, &e->pair_cap, e->npairs + 1, sizeof *e->pairs) != 0) {
            return -1;
        }
        memmove(e->pairs + at + 1, e->pairs + at, (size_t)(e->npairs - at) * sizeof *e->pairs);
        e->npairs++;
    }
    imp_pair2d *p = &e->pairs[at];
    p->key = key;
    p->gen_lo = w->model.bodies[a < b ? a : b].generation;
    p->gen_hi = w->model.bodies[a < b ? b : a].generation;
    p->friction = friction;
    p->elasticity = elasticity;
    return 0;
}

const imp_pair2d *imp_engine2d_pair(const imp_world *w, int a, int b)
{
    const imp_engine2d *e = w->engine2d;
    int at;
    if (e == NULL || e->npairs == 0 || !find(e, pair_key(a, b), &at)) {
        return NULL;
    }
    const imp_pair2d *p = &e->pairs[at];
    if (p->gen_lo != w->model.bodies[a < b ? a : b].generation
        || p->gen_hi != w->model.bodies[a < b ? b : a].generation) {
        return NULL;  /* set for bodies since removed */
    }
    return p;
}
