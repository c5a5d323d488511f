/* compliant_pairs.c: the candidate pairs of the compliant strategy, and the checks made when
   the bodies change: every colliding body has a material, every pair of materials that can
   meet has a contact-pair material, every pair of shape kinds that can meet has a distance.
   Candidates come from the sort-and-sweep broad phase (broadphase3d.h) over the colliding
   bodies' boxes grown by a verlet margin; a 2D world uses it with a flat z range. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broadphase3d.h"
#include "compliant_internal.h"
#include "compliant_patch.h"
#include "filter.h"
#include "resize.h"

static int colliding(const imp_body *b) { return b->active && b->shape != NULL && b->collide; }

static long long pair_key(int a, int b) { return ((long long)a << 32) | (long long)b; }

static void name_bodies(imp_world *w, int a, int b)
{
    w->data.nerror_bodies = 0;
    w->data.error_bodies[w->data.nerror_bodies++] = a;
    if (b == a) {  /* a pair within one (material, shape class): name a second body of it */
        const imp_body *r = &w->model.bodies[a];
        b = 0;
        for (int i = a + 1; i < w->model.nslots && b == 0; i++) {
            const imp_body *o = &w->model.bodies[i];
            if (o->active && o->shape != NULL && o->collide && o->material == r->material
                && o->shape->cls == r->shape->cls && o->fixed == r->fixed) {
                b = i;
            }
        }
    }
    if (b > 0) {
        w->data.error_bodies[w->data.nerror_bodies++] = b;
    }
}

/* fixed bodies never meet each other, nor kinematic ones; the filters (filter.h) */
static int not_both_fixed(void *user, int a, int b)
{
    const imp_world *w = user;
    const imp_compliant *c = w->compliant;
    return imp_filter_pair(w, c->bp_slot[a], c->bp_slot[b]);
}

/* The checks, over kinds and materials rather than body pairs: O(bodies * kinds). For each
   moving colliding body i and each colliding body j that is the first of its (material,
   shape class) among the bodies seen, the pair (i, j) must be supported. */
static imp_status check(imp_world *w, char *why, size_t why_len)
{
    for (int i = 1; i < w->model.nslots; i++) {
        const imp_body *b = &w->model.bodies[i];
        if (colliding(b) && b->material < 0) {
            name_bodies(w, i, 0);
            snprintf(why, why_len, "body #%d has no material: the compliant strategy needs one "
                                   "(material = \"steel\", ...) or collide = false", i);
            return IMP_ERR_INVALID;
        }
    }
    /* representatives: the first body of each distinct (material, shape class) */
    enum { MAX_REPS = 256 };
    int reps[MAX_REPS], counts[MAX_REPS], nreps = 0;
    for (int i = 1; i < w->model.nslots; i++) {
        const imp_body *b = &w->model.bodies[i];
        if (!colliding(b)) {
            continue;
        }
        int k = 0;
        for (; k < nreps; k++) {
            const imp_body *r = &w->model.bodies[reps[k]];
            if (r->material == b->material && r->shape->cls == b->shape->cls && r->fixed == b->fixed) {
                break;
            }
        }
        if (k < nreps) {
            counts[k]++;
        } else if (nreps < MAX_REPS) {
            counts[nreps] = 1;
            reps[nreps++] = i;
        }
    }
    for (int x = 0; x < nreps; x++) {
        for (int y = x; y < nreps; y++) {
            const imp_body *bi = &w->model.bodies[reps[x]], *bj = &w->model.bodies[reps[y]];
            if ((bi->fixed && bj->fixed) || (x == y && counts[x] < 2)) {
                continue;  /* fixed bodies never meet; a body never meets itself */
            }
            if (!imp_proximity_supported(bi->shape, bj->shape)) {
                name_bodies(w, reps[x], reps[y]);
                snprintf(why, why_len, "no contact geometry between a %s and a %s",
                         bi->shape->cls->name, bj->shape->cls->name);
                return IMP_ERR_INVALID;
            }
            if (!imp_materials_pair(&w->model.materials, bi->material, bj->material)->defined) {
                name_bodies(w, reps[x], reps[y]);
                snprintf(why, why_len, "no contact pair material for '%s' and '%s' "
                                       "(define it with impact.contact_pair.define)",
                         w->model.materials.items[bi->material].name,
                         w->model.materials.items[bj->material].name);
                return IMP_ERR_INVALID;
            }
        }
    }
    return IMP_OK;
}

int imp_compliant_find_pair(const imp_compliant *c, long long key)
{
    int lo = 0, hi = c->npairs - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (c->pairs[mid].key == key) {
            return mid;
        }
        if (c->pairs[mid].key < key) {
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return -1;
}

static int find_entry(const imp_centry *arr, int n, long long key)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (arr[mid].key == key) {
            return mid;
        }
        if (arr[mid].key < key) {
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return -1;
}

imp_status imp_compliant_build_pairs(imp_world *w, char *why, size_t why_len)
{
    imp_compliant *c = w->compliant;
    imp_status st = check(w, why, why_len);
    if (st != IMP_OK) {
        return st;
    }
    int nb = 0;
    double smallest = INFINITY;
    for (int i = 1; i < w->model.nslots; i++) {
        const imp_body *b = &w->model.bodies[i];
        if (colliding(b)) {
            nb++;
            if (!b->fixed && isfinite(b->shape->radius) && b->shape->radius < smallest) {
                smallest = b->shape->radius;
            }
        }
    }
    if (nb > c->box_cap) {
        int *slots = realloc(c->bp_slot, (size_t)nb * sizeof *slots);
        double *lo = slots ? realloc(c->box_lo, 3 * (size_t)nb * sizeof *lo) : NULL;
        if (slots != NULL) {
            c->bp_slot = slots;
        }
        if (lo != NULL) {
            c->box_lo = lo;
        }
        double *hi = lo ? realloc(c->box_hi, 3 * (size_t)nb * sizeof *hi) : NULL;
        if (hi == NULL) {
            snprintf(why, why_len, "out of memory for %d colliding bodies", nb);
            return IMP_ERR_NOMEM;
        }
        c->box_hi = hi;
        c->box_cap = nb;
    }
    c->nboxes = 0;
    for (int i = 1; i < w->model.nslots; i++) {  /* box ids in slot order: id order is slot order */
        if (colliding(&w->model.bodies[i])) {
            c->bp_slot[c->nboxes++] = i;
        }
    }
    double verlet = c->def.verlet > 0.0 ? c->def.verlet
                  : (isfinite(smallest) ? 0.1 * smallest : 0.01);
    imp_bp3d_free(c->bp);
    c->bp = imp_bp3d_new(verlet);
    if (c->bp == NULL || imp_bp3d_reserve(c->bp, nb) != 0) {
        snprintf(why, why_len, "out of memory for the broad phase");
        return IMP_ERR_NOMEM;
    }
    imp_bp3d_set_filter(c->bp, not_both_fixed, w);
    c->npairs = 0;
    c->ncontact = c->nno_contact = 0;  /* rebuilt by the event actions that follow */
    c->bodies_version = w->model.bodies_version;
    c->filter_version = w->model.filter_version;
    return imp_compliant_update_pairs(w, w->data.y, why, why_len);
}

static int insert_pair(imp_world *w, int a, int b)
{
    imp_compliant *c = w->compliant;
    long long key = pair_key(a, b);
    int lo = 0, hi = c->npairs;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (c->pairs[mid].key < key) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo < c->npairs && c->pairs[lo].key == key) {
        return 1;
    }
    if (imp_grow(&c->pairs, &c->pair_cap, c->npairs + 1, sizeof *c->pairs) != 0) {
        return 0;  /* grows by doubling: rare after the first steps */
    }
    memmove(&c->pairs[lo + 1], &c->pairs[lo], (size_t)(c->npairs - lo) * sizeof *c->pairs);
    imp_cpair *p = &c->pairs[lo];
    p->key = key;
    p->a = a;
    p->b = b;
    p->kind_a = imp_shape_ball_radius(w->model.bodies[a].shape, &p->radius_a) ? IMP_LAW_SPHERE : IMP_LAW_OTHER;
    p->kind_b = imp_shape_ball_radius(w->model.bodies[b].shape, &p->radius_b) ? IMP_LAW_SPHERE : IMP_LAW_OTHER;
    p->patch = w->model.def.dim == 3 && p->kind_a == IMP_LAW_OTHER && p->kind_b == IMP_LAW_OTHER;
    p->area = p->patch ? fmin(imp_compliant_flat_area(w->model.bodies[a].shape),
                              imp_compliant_flat_area(w->model.bodies[b].shape))
                       : 0.0;
    c->npairs++;
    return 1;
}

imp_status imp_compliant_update_pairs(imp_world *w, const double *y, char *why, size_t why_len)
{
    imp_compliant *c = w->compliant;
    for (int i = 0; i < c->nboxes; i++) {
        int slot = c->bp_slot[i];
        imp_shape_bounds(w->model.bodies[slot].shape, y + (size_t)slot * (size_t)w->model.stride,
                         c->box_lo + 3 * i, c->box_hi + 3 * i);
        if (w->model.def.dim == 2) {
            c->box_lo[3 * i + 2] = c->box_hi[3 * i + 2] = 0.0;
        }
    }
    if (imp_bp3d_update(c->bp, c->nboxes, c->box_lo, c->box_hi) != 0) {
        snprintf(why, why_len, "the broad phase failed (out of memory, or a box is not finite)");
        return IMP_ERR_SOLVER;
    }
    int nend, nbegin;
    const int *ends = imp_bp3d_ends(c->bp, &nend);
    const int *begins = imp_bp3d_begins(c->bp, &nbegin);
    if (nend == 0 && nbegin == 0) {
        return IMP_OK;
    }
    for (int e = 0; e < nend; e++) {
        long long key = pair_key(c->bp_slot[ends[2 * e]], c->bp_slot[ends[2 * e + 1]]);
        int i = imp_compliant_find_pair(c, key);
        if (i < 0 || find_entry(c->contact, c->ncontact, key) >= 0) {
            continue;  /* pairs in contact stay until an event ends them */
        }
        memmove(&c->pairs[i], &c->pairs[i + 1], (size_t)(c->npairs - i - 1) * sizeof *c->pairs);
        c->npairs--;
    }
    for (int e = 0; e < nbegin; e++) {
        if (!insert_pair(w, c->bp_slot[begins[2 * e]], c->bp_slot[begins[2 * e + 1]])) {
            snprintf(why, why_len, "out of memory for contact pairs");
            return IMP_ERR_NOMEM;
        }
    }
    /* the indices of the dictionaries' entries moved with the pairs */
    for (int i = 0; i < c->ncontact; i++) {
        c->contact[i].pair = imp_compliant_find_pair(c, c->contact[i].key);
    }
    int kept = 0;
    for (int i = 0; i < c->nno_contact; i++) {
        int p = imp_compliant_find_pair(c, c->no_contact[i].key);
        if (p >= 0) {
            c->no_contact[kept] = c->no_contact[i];
            c->no_contact[kept++].pair = p;
        }
    }
    c->nno_contact = kept;
    return IMP_OK;
}
