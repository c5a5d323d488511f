/* engine3d_detect.c: the 3D engine's detection: broad phase over the colliding bodies (each
   one's box grown by its margin, kept there BP_FAT larger: a box is sorted again only when it
   leaves its fat copy, and a pair stays listed while the fat boxes overlap), of the listed
   pairs those whose grown boxes overlap now, each one's contact manifold (recycled or skipped
   when its bodies barely moved relative to each other: engine3d_cache.h), and the match of its
   points with the last step's (warm starts and contact events). O(n + moved boxes' swaps) for
   the broad phase, O(events) to keep its pair list (engine3d_pairlist.h), O(pairs) narrow phase,
   O(p) to match the points (they come sorted by pair and key). No allocation once the arrays
   have grown to the scene. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "box3.h"
#include "collide3d.h"
#include "engine3d.h"
#include "engine3d_joints.h"
#include "islands.h"
#include "scalar.h"
#include "engine3d_cache.h"
#include "engine3d_material.h"
#include "engine3d_soft.h"
#include "engine3d_soft_recycle.h"
#include "filter.h"
#include "manifold3d.h"
#include "manifold3d_box.h"
#include "contact_polyhedral.h"
#include "manifold_polyhedral.h"
#include "polyhedron.h"
#include "prefetch.h"
#include "shape3d.h"
#include "world_internal.h"
#include "resize.h"

/* How much larger than a body's margin-grown box the broad phase keeps it (m): a box is sorted
   again only when its grown box leaves this fat copy, and a pair stays listed while the fat
   boxes overlap (the grown-box test keeps the narrow phase's pairs those of the grown boxes, so
   the results do not depend on it). With the list kept by events (engine3d_pairlist.h) what a
   larger margin costs is the grown-box test of the listed pairs. Callgrind, soft step, whole
   run, M instructions at 0 / 0.025 / 0.05 / 0.075 / 0.1 / 0.2 m: pile of 1000 (200 steps)
   2 745.5 / 2 738.3 / 2 729.8 / 2 728.8 / 2 730.7 / 2 741.6 (broad phase 141.6 at 0, 107.9 at
   0.05, 74.3 at 0.2; the test 13.2, 22.5, 46.2); pyramid3d 10 (60 steps) 1 352.8 / - /
   1 349.8 / - / 1 349.9 / 1 350.2 (10-development, h-fat3d). 0.05: within 1 M of the best on
   the pile, and the smallest such margin (the pairs it adds grow with it over small bodies). */
#define BP_FAT 0.05
/* The grid the fat copies' bounds are rounded out to (imp_bp3d_set_grid: a power of two, at most
   a third of BP_FAT): bodies lined up on an axis share their end points there, so a box sorted
   again is not swapped past every one of them. A one-cube-thick wall of 1275 and 5050 cubes
   (bench_engine3d pyramid2d 50 and 100: every cube's y bounds within rounding of the others')
   settled each moved box across them, 78 instructions per contact point a step at 50 (10-
   development, h-scale3d). */
#define BP_GRID (1.0 / 64.0)

static int is_colliding(const imp_body *b)
{
    return b->active && b->collide && b->shape != NULL && imp_shape3d_data(b->shape) != NULL;
}

static double shape_scale(const imp_shape *s);

/* (Re)makes the broad phase when bodies were added or removed: ids in slot order, and each
   one's shape scale (a body's shape is set when it is added and a shape does not change). */
static imp_status rebuild_bp(imp_world *w, imp_engine3d *e)
{
    int n = 0;
    for (int i = 0; i < w->model.nslots; i++) {
        n += is_colliding(&w->model.bodies[i]);
    }
    int cap = e->nbp;
    if (imp_grow(&e->bp_slot, &cap, n > 0 ? n : 1, sizeof *e->bp_slot) != 0) {
        return IMP_ERR_NOMEM;
    }
    double *lo = realloc(e->lo, (size_t)(n > 0 ? n : 1) * 3 * sizeof *lo);
    if (lo == NULL) {
        return IMP_ERR_NOMEM;
    }
    e->lo = lo;
    double *hi = realloc(e->hi, (size_t)(n > 0 ? n : 1) * 3 * sizeof *hi);
    if (hi == NULL) {
        return IMP_ERR_NOMEM;
    }
    e->hi = hi;
    imp_e3_pose *pose = realloc(e->pose, (size_t)(n > 0 ? n : 1) * sizeof *pose);
    if (pose == NULL) {
        return IMP_ERR_NOMEM;
    }
    e->pose = pose;
    double *speed = realloc(e->speed, (size_t)(n > 0 ? n : 1) * sizeof *speed);
    if (speed == NULL) {
        return IMP_ERR_NOMEM;
    }
    e->speed = speed;
    double *scale = realloc(e->scale, (size_t)(n > 0 ? n : 1) * sizeof *scale);
    if (scale == NULL) {
        return IMP_ERR_NOMEM;
    }
    e->scale = scale;
    n = 0;
    for (int i = 0; i < w->model.nslots; i++) {
        if (is_colliding(&w->model.bodies[i])) {
            e->scale[n] = shape_scale(w->model.bodies[i].shape);
            e->bp_slot[n++] = i;
        }
    }
    e->nbp = n;
    imp_bp3d_free(e->bp);
    e->bp = imp_bp3d_new(BP_FAT);
    if (e->bp == NULL) {
        return IMP_ERR_NOMEM;
    }
    imp_bp3d_set_grid(e->bp, BP_GRID);
    if (imp_bp3d_reserve(e->bp, n) != 0) {
        return IMP_ERR_NOMEM;
    }
    for (int k = 0; k < n; k++) {
        imp_bp3d_set_body(e->bp, k, e->bp_slot[k]);
    }
    if (imp_e3_pairlist_reset(&e->plist, n) != 0) {  /* every pair begins again, with no cached manifold */
        return IMP_ERR_NOMEM;
    }
    e->ncache = 0;
    e->nfree = 0;
    e->bodies_version = w->model.bodies_version;
    e->bp_built = 1;
    return IMP_OK;
}

/* a bound on the speed of a free body's points at velocity v (6 doubles: linear, angular), rad:
   its shape's radius (0 when infinite) */
static inline double speed_bound(double rad, const double *v)
{
    double lin = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    double ang = sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
    return lin + ang * rad;
}

/* The tangents of a unit normal: t1 along the axis least aligned with n, made orthogonal. */
static void tangents(const double n[3], double t1[3], double t2[3])
{
    double ax = fabs(n[0]), ay = fabs(n[1]), az = fabs(n[2]);
    double a[3] = {0.0, 0.0, 0.0};
    if (ax <= ay && ax <= az) {
        a[0] = 1.0;
    } else if (ay <= az) {
        a[1] = 1.0;
    } else {
        a[2] = 1.0;
    }
    double d = a[0] * n[0] + a[1] * n[1] + a[2] * n[2];
    const double t[3] = {a[0] - d * n[0], a[1] - d * n[1], a[2] - d * n[2]};
    double l = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
    for (int k = 0; k < 3; k++) {
        t1[k] = t[k] / l;
    }
    t2[0] = n[1] * t1[2] - n[2] * t1[1];
    t2[1] = n[2] * t1[0] - n[0] * t1[2];
    t2[2] = n[0] * t1[1] - n[1] * t1[0];
}

/* the order of imp_e3_point_cmp, inline for the per-point loops */
static inline int point_cmp(const imp_e3_point *p, const imp_e3_point *q)
{
    if (p->a != q->a) {
        return p->a < q->a ? -1 : 1;
    }
    if (p->b != q->b) {
        return p->b < q->b ? -1 : 1;
    }
    return p->key < q->key ? -1 : (p->key > q->key ? 1 : 0);
}

int imp_e3_point_cmp(const void *x, const void *y) { return point_cmp(x, y); }

/* the soft step's held pair whose run starts at point p (rc->held, in the points' order but for
   a sort: then some are not found, and merged as detected ones), NULL when p's pair is not held;
   *h: the list's cursor */
static const imp_e3_held *skip_held(const imp_e3_recycle *rc, int *h, const imp_e3_point *p)
{
    if (rc == NULL) {
        return NULL;
    }
    while (*h < rc->nheld && (rc->held[*h].a < p->a || (rc->held[*h].a == p->a && rc->held[*h].b < p->b))) {
        ++*h;
    }
    const imp_e3_held *hp = *h < rc->nheld ? &rc->held[*h] : NULL;
    return hp != NULL && hp->a == p->a && hp->b == p->b ? hp : NULL;
}

void imp_engine3d_pair_material(const imp_world *w, int a, int b, double *mu, double *el)
{
    imp_e3_pair_material(w, a, b, mu, el);
}

/* A convex polyhedron with planar faces (polyhedra, unsmoothed hulls and boxes). */
static int polyhedral(const imp_shape *s)
{
    const imp_convex3d *c = imp_shape3d_data(s);
    return c != NULL && c->sweep == 0.0
           && ((c->kind == IMP_S3_CONVEX && c->faces != NULL) || c->kind == IMP_S3_BOX);
}

/* A free entry of the manifold cache (its index), -1 without memory. */
static int cache_alloc(imp_engine3d *e)
{
    if (e->nfree > 0) {
        return e->cache_free[--e->nfree];
    }
    if (imp_grow(&e->cache, &e->cache_cap, e->ncache + 1, sizeof *e->cache) != 0) {
        return -1;
    }
    /* (the free list can take every entry back) */
    if (imp_grow(&e->cache_free, &e->free_cap, e->cache_cap, sizeof *e->cache_free) != 0) {
        return -1;
    }
    e->cache[e->ncache].count = 0;
    e->cache[e->ncache].gap = -1.0;
    return e->ncache++;
}

static void cache_release(imp_engine3d *e, int entry)
{
    if (entry >= 0) {
        e->cache_free[e->nfree++] = entry;
    }
}

/* a shape's scale, a wall's (or a shape with none's) infinite: a pair's is the smaller of its
   two, walls aside */
static double shape_scale(const imp_shape *s)
{
    const imp_convex3d *c = imp_shape3d_data(s);
    return c == NULL || c->kind == IMP_S3_WALL ? INFINITY : c->scale;
}

static int usable(const imp_manifold3d *m)
{
    if (m->count == 0 || (m->status != IMP_NP_OK && m->status != IMP_NP_MAXITER)) {
        return 0;
    }
    for (int k = 0; k < m->count; k++) {
        const imp_manifold3d_point *mp = &m->points[k];
        if (!isfinite(mp->distance) || !isfinite(mp->point_a[0] + mp->point_a[1] + mp->point_a[2])
            || !isfinite(mp->point_b[0] + mp->point_b[1] + mp->point_b[2])) {
            return 0;
        }
    }
    return 1;
}

/* Two plain boxes under the soft step: their manifold by separating axes (manifold3d_box.h),
   kept in the pair's cache entry (its gap when apart: a lower bound, as the cache needs);
   IMP_ERR_INVALID when the general path must answer (an edge on an edge). */
static imp_status box_manifold(imp_engine3d *e, const imp_body *ba, const imp_body *bb, int a, int b,
                               const double *ya, const double *yb, const imp_e3_pose *pa, const imp_e3_pose *pb,
                               double margin, int *entry, imp_manifold3d *m)
{
    imp_support3d sa, sb;
    double gap;
    imp_support3d_init(&sa, ba->shape, ya);
    imp_support3d_init(&sb, bb->shape, yb);
    e->stats.manifolds++;
    if (!imp_manifold3d_box(&sa, &sb, margin, m, &gap)) {
        return IMP_ERR_INVALID;
    }
    if (*entry < 0 && (*entry = cache_alloc(e)) < 0) {
        return IMP_ERR_NOMEM;
    }
    if (m->count == 0) {
        imp_e3_cache_store_gap(&e->cache[*entry], a, b, ba->generation, bb->generation, gap, pa, pb);
        return IMP_OK;
    }
    imp_e3_cache_store(&e->cache[*entry], a, b, ba->generation, bb->generation, m,
                       imp_e3_manifold_ref(m, ba->shape, bb->shape), pa, pb, margin);
    return IMP_OK;
}

/* The manifold of the pair (a, b) (broad-phase ids ia, ib) within margin: recycled from the
   pair's cache entry *entry when it fits (engine3d_cache.h), else computed and kept there. */
static imp_status pair_manifold(imp_world *w, imp_engine3d *e, int a, int b, int ia, int ib, double margin,
                                int *entry, imp_manifold3d *m)
{
    const imp_body *ba = &w->model.bodies[a], *bb = &w->model.bodies[b];
    const imp_e3_pose *pa = &e->pose[ia], *pb = &e->pose[ib];
    double tol = w->model.def.engine2d.distance_tol;
    if (w->model.def.engine2d.contact_points == IMP_POINTS_VOLUMETRIC && polyhedral(ba->shape)
        && polyhedral(bb->shape)) {
        const double *ya = w->data.y + (size_t)a * IMP_STRIDE_3D, *yb = w->data.y + (size_t)b * IMP_STRIDE_3D;
        e->stats.manifolds++;
        if (imp_poly_manifold(ba->shape, ya, bb->shape, yb, 0.0, margin, &e->poly, m) == IMP_PC_ENOMEM) {
            return IMP_ERR_NOMEM;
        }
        return IMP_OK;
    }
    double rad_a = ba->shape->radius, rad_b = bb->shape->radius, scale = imp_fmin(e->scale[ia], e->scale[ib]);
    const imp_e3_cached *c = *entry >= 0 ? &e->cache[*entry] : NULL;
    if (c != NULL && c->count > 0
        && imp_e3_cache_fits(c, a, b, ba->generation, bb->generation, pa, pb, rad_a, rad_b, scale, margin, tol)) {
        imp_e3_cache_points(c, pa, pb, margin, m);
        e->stats.recycled++;
        return IMP_OK;
    }
    if (c != NULL && c->count == 0
        && imp_e3_cache_apart(c, a, b, ba->generation, bb->generation, pa, pb, rad_a, rad_b, scale, margin)) {
        m->status = IMP_NP_OK;
        m->count = 0;
        e->stats.apart++;
        return IMP_OK;
    }
    const double *ya = w->data.y + (size_t)a * IMP_STRIDE_3D, *yb = w->data.y + (size_t)b * IMP_STRIDE_3D;
    if (w->model.def.engine2d.contact_solver == IMP_SOLVER_SOFT && imp_manifold3d_is_plain_box(ba->shape)
        && imp_manifold3d_is_plain_box(bb->shape)) {
        imp_status bs = box_manifold(e, ba, bb, a, b, ya, yb, pa, pb, margin, entry, m);
        if (bs != IMP_ERR_INVALID) {
            return bs;
        }
    }
    if (c == NULL || c->count == 0) {
        /* apart the last time (or new): the narrow phase first, its gap kept when beyond the
           margin (the manifold would have no point: manifold3d.h) */
        imp_contact3d nc;
        int ns = imp_collide3d(ba->shape, ya, bb->shape, yb, &nc);
        e->stats.manifolds++;
        if ((ns == IMP_NP_OK || ns == IMP_NP_MAXITER) && nc.distance > margin && isfinite(nc.distance)) {
            if (*entry < 0 && (*entry = cache_alloc(e)) < 0) {
                return IMP_ERR_NOMEM;
            }
            imp_e3_cache_store_gap(&e->cache[*entry], a, b, ba->generation, bb->generation, nc.distance, pa, pb);
            m->status = ns;
            m->count = 0;
            return IMP_OK;
        }
    }
    imp_manifold3d_compute(ba->shape, ya, bb->shape, yb, margin, m);
    e->stats.manifolds++;
    if (!usable(m)) {
        if (*entry >= 0) {
            e->cache[*entry].count = 0;
            e->cache[*entry].gap = -1.0;
        }
        return IMP_OK;
    }
    if (*entry < 0 && (*entry = cache_alloc(e)) < 0) {
        return IMP_ERR_NOMEM;
    }
    imp_e3_cache_store(&e->cache[*entry], a, b, ba->generation, bb->generation, m,
                       imp_e3_manifold_ref(m, ba->shape, bb->shape), pa, pb, margin);
    return IMP_OK;
}

/* Appends the manifold of the pair (a, b) (broad-phase ids ia, ib) within margin, its points
   in key order. */
static imp_status narrow(imp_world *w, imp_engine3d *e, int a, int b, int ia, int ib, double margin, int *entry)
{
    const imp_body *ba = &w->model.bodies[a], *bb = &w->model.bodies[b];
    imp_manifold3d m;
    imp_status st = pair_manifold(w, e, a, b, ia, ib, margin, entry, &m);
    if (st != IMP_OK) {
        return st;
    }
    if (m.count == 0 || (m.status != IMP_NP_OK && m.status != IMP_NP_MAXITER)) {
        return IMP_OK;
    }
    if (imp_grow(&e->pts, &e->pts_cap, e->npts + m.count, sizeof *e->pts) != 0) {
        return IMP_ERR_NOMEM;
    }
    double mu, el;
    imp_e3_pair_material(w, a, b, &mu, &el);
    const double *ya = w->data.y + (size_t)a * IMP_STRIDE_3D, *yb = w->data.y + (size_t)b * IMP_STRIDE_3D;
    int first = e->npts;
    double t1[3], t2[3];  /* the points share the normal */
    tangents(m.normal, t1, t2);
    for (int k = 0; k < m.count; k++) {
        const imp_manifold3d_point *mp = &m.points[k];
        if (!isfinite(mp->distance) || !isfinite(mp->point_a[0] + mp->point_a[1] + mp->point_a[2])
            || !isfinite(mp->point_b[0] + mp->point_b[1] + mp->point_b[2])) {
            continue;  /* coordinates beyond the doubles' range: no contact to hold */
        }
        /* in key order among the pair's points (insertion) */
        int at = e->npts++;  /* (grown for m.count above) */
        while (at > first && e->pts[at - 1].key > mp->key) {
            e->pts[at] = e->pts[at - 1];
            at--;
        }
        imp_e3_point *p = &e->pts[at];
        memset(p, 0, sizeof *p);
        p->a = a;
        p->b = b;
        p->gen_a = ba->generation;
        p->gen_b = bb->generation;
        p->key = mp->key;
        memcpy(p->normal, m.normal, sizeof p->normal);
        memcpy(p->t1, t1, sizeof t1);
        memcpy(p->t2, t2, sizeof t2);
        memcpy(p->pa, mp->point_a, sizeof p->pa);
        memcpy(p->pb, mp->point_b, sizeof p->pb);
        for (int i = 0; i < 3; i++) {
            p->ra[i] = p->pa[i] - ya[i];
            p->rb[i] = p->pb[i] - yb[i];
        }
        p->distance = mp->distance;
        p->mu = mu;
        p->e = el;
        p->fresh = 1;
    }
    return IMP_OK;
}

/* The broad phase's pairs kept from its begin and end events (engine3d_pairlist.h: O(events)),
   the ended pairs' cache entries released in the pairs' order. */
static imp_status update_pairs(imp_engine3d *e)
{
    int nb = 0, ne = 0;
    const int *begins = e->nbp > 0 ? imp_bp3d_begins(e->bp, &nb) : NULL;
    const int *ends = e->nbp > 0 ? imp_bp3d_ends(e->bp, &ne) : NULL;
    if (ne > 0) {
        if (imp_grow(&e->freed, &e->freed_cap, ne, sizeof *e->freed) != 0) {
            return IMP_ERR_NOMEM;
        }
        int nfreed = imp_e3_pairlist_end(&e->plist, ends, ne, e->freed);
        for (int k = 0; k < nfreed; k++) {
            cache_release(e, e->freed[k]);
        }
    }
    if (nb > 0 && imp_e3_pairlist_begin(&e->plist, begins, nb) != 0) {
        return IMP_ERR_NOMEM;
    }
    return IMP_OK;
}

/* The listed pairs whose grown boxes touch into e->near (in (a, b) order), their number, -1
   out of memory. A pair whose boxes do not (apart by more than the margin: the boxes are grown
   by each body's part of it) has no point: its cache entry goes, as when it leaves the list. */
static int near_pairs(imp_engine3d *e)
{
    imp_e3_pairlist *pl = &e->plist;
    if (imp_grow(&e->near, &e->near_cap, pl->npairs > 0 ? pl->npairs : 1, 2 * sizeof *e->near) != 0) {
        return -1;
    }
    int m = 0;
    for (int ia = 0; ia < pl->n; ia++) {
        const imp_e3_run *r = &pl->run[ia];
        if (r->count == 0) {
            continue;
        }
        const double *la = e->lo + 3 * ia, *ha = e->hi + 3 * ia;
        imp_e3_link *l = pl->pool + r->start;
        for (int k = 0; k < r->count; k++) {
            int ib = l[k].b;
            if (!imp_box3_touch(la, ha, e->lo + 3 * ib, e->hi + 3 * ib)) {
                cache_release(e, l[k].entry);
                l[k].entry = -1;
                continue;
            }
            e->near[2 * m] = ia;
            e->near[2 * m + 1] = r->start + k;
            m++;
        }
    }
    return m;
}

/* Whether the pair (sa, sb)'s cache entry says it was found apart (its first fields, which
   imp_e3_cache_apart reads first: no point, a positive gap, the pair's slots and generations):
   then the last step has no point of the pair, and the soft step's held test is not asked (it
   would look the pair's points up and find none). The entry is written apart only by a
   detection that found no point (pair_manifold: box_manifold's and the narrow phase's gaps),
   and a pair has points in the last step only from a detection that found some (written in
   the entry: a count, or a gap of -1 when not usable) or from the held test, which asks for
   points; an entry that leaves the pair is -1 in its link (near_pairs, update_pairs), and a
   rebuild (bodies changed, a state imported: invalidate) empties them all. */
static inline int found_apart(const imp_world *w, const imp_engine3d *e, int entry, int sa, int sb)
{
    if (entry < 0) {
        return 0;
    }
    const imp_e3_cached *c = &e->cache[entry];
    return c->count == 0 && c->gap > 0.0 && c->sa == sa && c->sb == sb
           && c->gen_a == w->model.bodies[sa].generation && c->gen_b == w->model.bodies[sb].generation;
}

/* pairs ahead of the pair loop whose cache entries' first fields (the pose and gap they were
   kept at: what the recycled and apart tests read first) are asked of the cache: the entries
   are scattered (a free list) and the loop waited on each pair's (c->count's load: two thirds
   of detection's own samples on the falling pile of 1000) */
enum { CACHE_AHEAD = 8 };

imp_status imp_engine3d_detect(imp_world *w, imp_engine3d *e, double h)
{
    if (!e->bp_built || e->bodies_version != w->model.bodies_version) {
        imp_status st = rebuild_bp(w, e);
        if (st != IMP_OK) {
            return st;
        }
    }
    double tol = w->model.def.engine2d.distance_tol;
    for (int k = 0; k < e->nbp; k++) {
        int s = e->bp_slot[k];
        const imp_body *b = &w->model.bodies[s];
        const double *y = w->data.y + (size_t)s * IMP_STRIDE_3D;
        if (e->rot_y != NULL) {  /* (taken at y already: the same operations) */
            const double *o = e->rot_y + 13 * (size_t)s;
            memcpy(e->pose[k].x, y, sizeof e->pose[k].x);
            memcpy(e->pose[k].q, o, sizeof e->pose[k].q);
            memcpy(e->pose[k].r, o + 4, sizeof e->pose[k].r);
        } else {
            imp_e3_pose_of(y, &e->pose[k]);
        }
        if (!imp_shape3d_bounds_rot(b->shape, y, e->pose[k].r, e->lo + 3 * k, e->hi + 3 * k)) {
            imp_shape_bounds(b->shape, y, e->lo + 3 * k, e->hi + 3 * k);  /* (a wall) */
        }
        double rad = isfinite(b->shape->radius) ? b->shape->radius : 0.0;  /* (a fixed body's 0) */
        e->speed[k] = b->fixed ? 0.0 : speed_bound(rad, y + IMP_VEL_3D);
        if (e->span_bound && !b->fixed) {  /* the velocity is linear in time over the span:
                                              its norm is largest at one end (read in place:
                                              a state's copy was made for it) */
            e->speed[k] = imp_fmax(e->speed[k], speed_bound(rad, e->vel + 6 * (size_t)s));
        }
        if (e->once) {  /* the step's later sub-steps reuse these points while it stays within */
            e->travel[3 * (size_t)s] = h * e->speed[k];
        }
        double grow_by = tol + h * e->speed[k];
        for (int i = 0; i < 3; i++) {
            e->lo[3 * k + i] -= grow_by;
            e->hi[3 * k + i] += grow_by;
        }
    }
    e->npts = 0;
    if (e->nbp > 0 && imp_bp3d_update(e->bp, e->nbp, e->lo, e->hi) != 0) {
        return IMP_ERR_NOMEM;
    }
    imp_status st = update_pairs(e);
    if (st != IMP_OK) {
        return st;
    }
    /* the soft step holds a pair's last manifold while its bodies barely moved: not detected
       (engine3d_soft_recycle.h) */
    imp_e3_recycle *rc = w->model.def.engine2d.contact_solver == IMP_SOLVER_SOFT ? imp_e3_soft_recycle(e) : NULL;
    if (rc != NULL && imp_e3_recycle_open(w, e, rc) != 0) {
        return IMP_ERR_NOMEM;
    }
    int npairs = near_pairs(e);
    if (npairs < 0) {
        return IMP_ERR_NOMEM;
    }
    imp_e3_link *pool = e->plist.pool;
    for (int i = 0; i < npairs; i++) {
        if (i + CACHE_AHEAD < npairs) {
            int ahead = pool[e->near[2 * (i + CACHE_AHEAD) + 1]].entry;
            if (ahead >= 0) {
                imp_prefetch_bytes(&e->cache[ahead], offsetof(imp_e3_cached, key), 0);
            }
        }
        imp_e3_link *link = &pool[e->near[2 * i + 1]];
        int ia = e->near[2 * i], ib = link->b;  /* ia < ib: slots in order */
        int sa = e->bp_slot[ia], sb = e->bp_slot[ib];
        if (!imp_filter_pair(w, sa, sb) || imp_e3_joints_exclude(w, e, sa, sb)
            || imp_islands_resting_pair(w, sa, sb)) {  /* (sleeping: islands.h) */
            /* fixed or kinematic pairs, filters (filter.h); joined bodies: no contact */
            continue;
        }
        double margin = tol + h * (e->speed[ia] + e->speed[ib]);
        int held = 0;
        if (rc != NULL && !found_apart(w, e, link->entry, sa, sb)) {
            held = imp_e3_recycle_hold(w, e, rc, sa, sb, margin);
        }
        if (held != 0) {
            if (held < 0) {
                return IMP_ERR_NOMEM;
            }
            continue;
        }
        st = narrow(w, e, sa, sb, ia, ib, margin, &link->entry);
        if (st != IMP_OK) {
            return st;
        }
    }
    if (rc != NULL) {  /* the held points updated in place become e->pts's (engine3d_soft_recycle.h) */
        imp_e3_recycle_settle(e, rc);
    }
    /* the pairs came in (a, b) order, each pair's points in key order: sorted already (the
       sort stays for safety). When every point is a pair's the soft step held, in order, the
       held list tells so without reading the points (a line of memory a point) */
    int all_held = rc != NULL && imp_e3_recycle_all_held(rc, e->npts);
    for (int i = 1; i < e->npts && !all_held; i++) {
        if (point_cmp(&e->pts[i - 1], &e->pts[i]) > 0) {
            qsort(e->pts, (size_t)e->npts, sizeof *e->pts, imp_e3_point_cmp);
            break;
        }
    }
    /* warm starts: the last impulse of the same feature, its friction re-expressed in the
       new tangents (not for the soft step: its recycling writes every point's, after) */
    double pen = 0.0;
    int pairs = all_held ? rc->nheld : 0, j = 0, held_at = 0;  /* (all held: each passed over) */
    for (int i = 0; i < e->npts && !all_held; i++) {
        imp_e3_point *p = &e->pts[i];
        if (i == 0 || p->a != p[-1].a || p->b != p[-1].b) {
            pairs++;
            /* a pair the soft step held: its points are the last step's already (fresh 0, acc
               and acc_u0 theirs, imp_e3_recycle_hold) and the recycling takes the
               penetration; passed over whole, the merge resuming after its run */
            const imp_e3_held *hp = skip_held(rc, &held_at, p);
            if (hp != NULL) {
                i += hp->pend - hp->j - 1;
                j = j > hp->pend ? j : hp->pend;
                continue;
            }
        }
        pen = -p->distance > pen ? -p->distance : pen;
        while (j < e->nprev && point_cmp(&e->prev[j], p) < 0) {  /* both sorted: a merge */
            j++;
        }
        if (j == e->nprev || point_cmp(&e->prev[j], p) != 0 || e->prev[j].gen_a != p->gen_a
            || e->prev[j].gen_b != p->gen_b) {
            continue;
        }
        const imp_e3_point *o = &e->prev[j];
        p->fresh = 0;
        p->acc = o->acc;
        p->acc_u0 = o->acc_u0;
        if (rc != NULL) {  /* the soft step's warm starts are the recycling's (imp_e3_recycle_begin) */
            continue;
        }
        double ft[3];
        for (int k = 0; k < 3; k++) {
            ft[k] = o->r[1] * o->t1[k] + o->r[2] * o->t2[k];
        }
        p->r[0] = o->r[0];
        p->r[1] = ft[0] * p->t1[0] + ft[1] * p->t1[1] + ft[2] * p->t1[2];
        p->r[2] = ft[0] * p->t2[0] + ft[1] * p->t2[1] + ft[2] * p->t2[2];
    }
    e->stats.points = e->npts;
    e->stats.pairs = pairs;
    e->stats.max_penetration = pen;
    if (e->npts > e->stats.max_points) {
        e->stats.max_points = e->npts;
    }
    return IMP_OK;
}
