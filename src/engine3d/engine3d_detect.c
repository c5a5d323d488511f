/* engine3d_detect.c: the 3D engine's detection: broad phase over the colliding bodies, each
   near pair's contact manifold, and the match of its points with the last step's (warm starts
   and contact events). O(n + swaps) for the broad phase, O(pairs) narrow phase, O(p log p) to
   sort the points. No allocation once the arrays have grown to the scene. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collide3d.h"
#include "engine3d.h"
#include "manifold3d.h"
#include "contact_polyhedral.h"
#include "manifold_polyhedral.h"
#include "polyhedron.h"
#include "shape3d.h"
#include "world_internal.h"

static int grow(void **p, int *cap, int need, size_t size)
{
    if (need <= *cap) {
        return 0;
    }
    int c = *cap > 0 ? *cap : 64;
    while (c < need) {
        c *= 2;
    }
    void *q = realloc(*p, (size_t)c * size);
    if (q == NULL) {
        return -1;
    }
    *p = q;
    *cap = c;
    return 0;
}

static int is_colliding(const imp_body *b)
{
    return b->active && b->collide && b->shape != NULL && imp_shape3d_data(b->shape) != NULL;
}

/* (Re)makes the broad phase when bodies were added or removed: ids in slot order. */
static imp_status rebuild_bp(imp_world *w, imp_engine3d *e)
{
    int n = 0;
    for (int i = 0; i < w->model.nslots; i++) {
        n += is_colliding(&w->model.bodies[i]);
    }
    int cap = e->nbp;
    if (grow((void **)&e->bp_slot, &cap, n > 0 ? n : 1, sizeof *e->bp_slot) != 0) {
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
    n = 0;
    for (int i = 0; i < w->model.nslots; i++) {
        if (is_colliding(&w->model.bodies[i])) {
            e->bp_slot[n++] = i;
        }
    }
    e->nbp = n;
    imp_bp3d_free(e->bp);
    e->bp = imp_bp3d_new(0.0);
    if (e->bp == NULL) {
        return IMP_ERR_NOMEM;
    }
    if (imp_bp3d_reserve(e->bp, n) != 0) {
        return IMP_ERR_NOMEM;
    }
    for (int k = 0; k < n; k++) {
        imp_bp3d_set_body(e->bp, k, e->bp_slot[k]);
    }
    e->npairs_bp = 0;  /* every pair begins again */
    e->bodies_version = w->model.bodies_version;
    e->bp_built = 1;
    return IMP_OK;
}

static double speed_bound(const imp_body *b, const double *y)
{
    if (b->fixed) {
        return 0.0;
    }
    const double *v = y + IMP_VEL_3D;
    double lin = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    double ang = sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
    double rad = isfinite(b->shape->radius) ? b->shape->radius : 0.0;
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

static int cmp_point(const void *x, const void *y)
{
    const imp_e3_point *p = x, *q = y;
    if (p->a != q->a) {
        return p->a < q->a ? -1 : 1;
    }
    if (p->b != q->b) {
        return p->b < q->b ? -1 : 1;
    }
    return p->key < q->key ? -1 : (p->key > q->key ? 1 : 0);
}

static const imp_e3_point *find_prev(const imp_engine3d *e, const imp_e3_point *want)
{
    int a = want->a, b = want->b;
    unsigned key = want->key;
    int lo = 0, hi = e->nprev - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        const imp_e3_point *p = &e->prev[mid];
        int c = p->a != a ? (p->a < a ? -1 : 1)
              : p->b != b ? (p->b < b ? -1 : 1)
              : p->key != key ? (p->key < key ? -1 : 1) : 0;
        if (c == 0) {
            return p->gen_a == want->gen_a && p->gen_b == want->gen_b ? p : NULL;
        }
        if (c < 0) {
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return NULL;
}

static void pair_material(const imp_world *w, const imp_engine3d *e, int a, int b, double *mu, double *el)
{
    (void)e;
    const imp_e3_pair_override *o = imp_engine3d_pair(w, a, b);
    if (o != NULL) {
        *mu = o->friction;
        *el = o->elasticity;
        return;
    }
    const imp_body *ba = &w->model.bodies[a], *bb = &w->model.bodies[b];
    *mu = fmin(ba->friction, bb->friction);
    *el = fmin(ba->elasticity, bb->elasticity);
}

/* A convex polyhedron with planar faces (polyhedra, unsmoothed hulls and boxes). */
static int polyhedral(const imp_shape *s)
{
    const imp_convex3d *c = imp_shape3d_data(s);
    return c != NULL && c->sweep == 0.0
           && ((c->kind == IMP_S3_CONVEX && c->faces != NULL) || c->kind == IMP_S3_BOX);
}

/* Appends the manifold of the pair (a, b) within margin. */
static imp_status narrow(imp_world *w, imp_engine3d *e, int a, int b, double margin)
{
    const imp_body *ba = &w->model.bodies[a], *bb = &w->model.bodies[b];
    const double *ya = w->data.y + (size_t)a * IMP_STRIDE_3D, *yb = w->data.y + (size_t)b * IMP_STRIDE_3D;
    imp_manifold3d m;
    if (w->model.def.engine2d.contact_points == IMP_POINTS_VOLUMETRIC && polyhedral(ba->shape)
        && polyhedral(bb->shape)) {
        if (imp_poly_manifold(ba->shape, ya, bb->shape, yb, 0.0, margin, &e->poly, &m) == IMP_PC_ENOMEM) {
            return IMP_ERR_NOMEM;
        }
    } else {
        imp_manifold3d_compute(ba->shape, ya, bb->shape, yb, margin, &m);
    }
    if (m.count == 0 || (m.status != IMP_NP_OK && m.status != IMP_NP_MAXITER)) {
        return IMP_OK;
    }
    if (grow((void **)&e->pts, &e->pts_cap, e->npts + m.count, sizeof *e->pts) != 0) {
        return IMP_ERR_NOMEM;
    }
    double mu, el;
    pair_material(w, e, a, b, &mu, &el);
    for (int k = 0; k < m.count; k++) {
        const imp_manifold3d_point *mp = &m.points[k];
        if (!isfinite(mp->distance) || !isfinite(mp->point_a[0] + mp->point_a[1] + mp->point_a[2])
            || !isfinite(mp->point_b[0] + mp->point_b[1] + mp->point_b[2])) {
            continue;  /* coordinates beyond the doubles' range: no contact to hold */
        }
        imp_e3_point *p = &e->pts[e->npts++];  /* (grown for m.count above) */
        memset(p, 0, sizeof *p);
        p->a = a;
        p->b = b;
        p->gen_a = ba->generation;
        p->gen_b = bb->generation;
        p->key = mp->key;
        memcpy(p->normal, m.normal, sizeof p->normal);
        tangents(p->normal, p->t1, p->t2);
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

static int cmp_pair(const void *x, const void *y)
{
    const int *p = x, *q = y;
    if (p[0] != q[0]) {
        return p[0] < q[0] ? -1 : 1;
    }
    return p[1] < q[1] ? -1 : (p[1] > q[1] ? 1 : 0);
}

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
        imp_shape_bounds(b->shape, y, e->lo + 3 * k, e->hi + 3 * k);
        double grow_by = tol + h * speed_bound(b, y);
        for (int i = 0; i < 3; i++) {
            e->lo[3 * k + i] -= grow_by;
            e->hi[3 * k + i] += grow_by;
        }
    }
    e->npts = 0;
    if (e->nbp > 0 && imp_bp3d_update(e->bp, e->nbp, e->lo, e->hi) != 0) {
        return IMP_ERR_NOMEM;
    }
    int npairs = e->nbp > 0 ? imp_bp3d_pair_count(e->bp) : 0;
    if (grow((void **)&e->pair_list, &e->pair_cap, npairs > 0 ? npairs : 1, 2 * sizeof *e->pair_list) != 0) {
        return IMP_ERR_NOMEM;
    }
    /* the broad phase's pairs, kept sorted here from its begin and end events */
    npairs = e->npairs_bp;
    int nb = 0, ne = 0;
    const int *begins = e->nbp > 0 ? imp_bp3d_begins(e->bp, &nb) : NULL;
    const int *ends = e->nbp > 0 ? imp_bp3d_ends(e->bp, &ne) : NULL;
    if (ne > 0) {
        int m = 0;
        for (int i = 0; i < npairs; i++) {
            int gone = 0;
            for (int j = 0; j < ne && !gone; j++) {
                gone = ends[2 * j] == e->pair_list[2 * i] && ends[2 * j + 1] == e->pair_list[2 * i + 1];
            }
            if (!gone) {
                e->pair_list[2 * m] = e->pair_list[2 * i];
                e->pair_list[2 * m + 1] = e->pair_list[2 * i + 1];
                m++;
            }
        }
        npairs = m;
    }
    if (nb > 0) {  /* (npairs + nb > 1 here: sorted below) */
        if (grow((void **)&e->pair_list, &e->pair_cap, npairs + nb, 2 * sizeof *e->pair_list) != 0) {
            return IMP_ERR_NOMEM;
        }
        for (int j = 0; j < nb; j++) {
            e->pair_list[2 * npairs] = begins[2 * j];
            e->pair_list[2 * npairs + 1] = begins[2 * j + 1];
            npairs++;
        }
        qsort(e->pair_list, (size_t)npairs, 2 * sizeof *e->pair_list, cmp_pair);
    }
    e->npairs_bp = npairs;
    for (int i = 0; i < npairs; i++) {
        int sa = e->bp_slot[e->pair_list[2 * i]], sb = e->bp_slot[e->pair_list[2 * i + 1]];
        if (sa > sb) {
            int t = sa;
            sa = sb;
            sb = t;
        }
        const imp_body *ba = &w->model.bodies[sa], *bb = &w->model.bodies[sb];
        if (ba->fixed && bb->fixed) {
            continue;
        }
        const double *ya = w->data.y + (size_t)sa * IMP_STRIDE_3D, *yb = w->data.y + (size_t)sb * IMP_STRIDE_3D;
        double margin = tol + h * (speed_bound(ba, ya) + speed_bound(bb, yb));
        imp_status st = narrow(w, e, sa, sb, margin);
        if (st != IMP_OK) {
            return st;
        }
    }
    if (e->npts > 1) {
        qsort(e->pts, (size_t)e->npts, sizeof *e->pts, cmp_point);
    }
    /* warm starts: the last impulse of the same feature, its friction re-expressed in the
       new tangents */
    double pen = 0.0;
    int pairs = 0;
    for (int i = 0; i < e->npts; i++) {
        imp_e3_point *p = &e->pts[i];
        if (i == 0 || p->a != p[-1].a || p->b != p[-1].b) {
            pairs++;
        }
        pen = fmax(pen, -p->distance);
        const imp_e3_point *o = find_prev(e, p);
        if (o == NULL) {
            continue;
        }
        p->fresh = 0;
        p->acc = o->acc;
        p->acc_u0 = o->acc_u0;
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
