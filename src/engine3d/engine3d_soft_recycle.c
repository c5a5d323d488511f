/* engine3d_soft_recycle.c: the soft step's contact recycling (engine3d_soft_recycle.h). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engine3d_cache.h"
#include "engine3d_material.h"
#include "scalar.h"
#include "engine3d_soft_recycle.h"
#include "engine3d_sleep.h"
#include "manifold3d.h"
#include "prefetch.h"
#include "quat.h"
#include "shape3d.h"
#include "world_internal.h"
#include "resize.h"

/* Box3D's B3_CONTACT_RECYCLE_ANGULAR_DISTANCE: cos^2 of half of 10 degrees */
#define TURN_COS2 0.99240388
/* Box3D's recycle distance, 10 linear slops, in distance_tol (its slop is half of it) */
#define REACH_TOLS 5.0

void imp_e3_swap_arrays(void **a, int *ca, void **b, int *cb)
{
    void *t = *a;
    int c = *ca;
    *a = *b;
    *ca = *cb;
    *b = t;
    *cb = c;
}

/* a box or a convex hull with faces, not swept: its points are its features' */
static int polyhedral(const imp_world *w, int s)
{
    if (s <= 0) {
        return 0;
    }
    const imp_convex3d *c = imp_shape3d_data(w->model.bodies[s].shape);
    return c != NULL && c->sweep == 0.0 && ((c->kind == IMP_S3_CONVEX && c->faces != NULL) || c->kind == IMP_S3_BOX);
}

static imp_quat quat_of(const double *q) { return imp_q(q[0], q[1], q[2], q[3]); }

/* slot s's orientation now, normalised (taken when detection opened) */
static imp_quat orientation(const imp_e3_recycle *rc, int s) { return quat_of(rc->rot + 13 * (size_t)s); }

/* slot s's rotation now, row-major (taken when detection opened) */
static const double *rotation(const imp_e3_recycle *rc, int s) { return rc->rot + 13 * (size_t)s + 4; }

/* m v for the 3 x 3 matrix whose entry (i, k) is m[i * row + k * col]: R v with (3, 1), R^T v with
   (1, 3) for R row-major (the rotation of a normalised q; R^T is the matrix of q's conjugate,
   bit for bit: imp_q_to_mat3's entries of the conjugate are the transpose's). Each row's three
   products summed in order, written out from locals (a loop over the rows reloads m and v
   after each store to out, which might alias them) */
static inline void mul3(const double *m, int row, int col, const double v[3], double out[3])
{
    double v0 = v[0], v1 = v[1], v2 = v[2];
    double o0 = m[0] * v0 + m[col] * v1 + m[2 * col] * v2;
    double o1 = m[row] * v0 + m[row + col] * v1 + m[row + 2 * col] * v2;
    double o2 = m[2 * row] * v0 + m[2 * row + col] * v1 + m[2 * row + 2 * col] * v2;
    out[0] = o0, out[1] = o1, out[2] = o2;
}

static inline void rotate(const double *R, const double v[3], double out[3]) { mul3(R, 3, 1, v, out); }
static inline void unrotate(const double *R, const double v[3], double out[3]) { mul3(R, 1, 3, v, out); }

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static int same_point(const imp_e3_recycled *r, const imp_e3_point *p)
{
    return r->a == p->a && r->b == p->b && r->key == p->key && r->gen_a == p->gen_a && r->gen_b == p->gen_b;
}

/* record r before point p in the points' order (pair, then key) */
static int before(const imp_e3_recycled *r, const imp_e3_point *p)
{
    if (r->a != p->a) {
        return r->a < p->a;
    }
    if (r->b != p->b) {
        return r->b < p->b;
    }
    return r->key < p->key;
}

/* rc->map[k]: the record of e->prev[k], -1 when it has none (sleeping islands take their
   points aside and give them back: the last step's list is not always the records') */
static void map_records(const imp_engine3d *e, imp_e3_recycle *rc)
{
    rc->mapped = 1;
    /* the usual case first: record k is point k's, in order (the merge below would give k
       too: at k it stands at k - 1, passes it as before point k and stops on record k) */
    int k0 = 0, n = e->nprev < rc->nprev ? e->nprev : rc->nprev;
    while (k0 < n && same_point(&rc->prev[k0], &e->prev[k0])
           && (k0 == 0 || before(&rc->prev[k0 - 1], &e->prev[k0]))) {
        rc->map[k0] = k0;
        k0++;
    }
    int r = k0 > 0 ? k0 - 1 : 0;  /* where the merge stands after point k0 - 1 */
    for (int k = k0; k < e->nprev; k++) {
        const imp_e3_point *p = &e->prev[k];
        while (r < rc->nprev && before(&rc->prev[r], p)) {
            r++;
        }
        rc->map[k] = r < rc->nprev && same_point(&rc->prev[r], p) ? r : -1;
    }
}

/* The record of e->prev[k] (rc->map[k], written), -1 when none: record k in the usual case,
   taken point by point as detection asks (a walk of the whole list beforehand read a line of
   memory a point); the first point that is not maps them all (map_records). Record k is the
   merge's answer when it is point k's and record k - 1 is before point k (the records are in
   the points' order: the merge passes the ones before and stops on k). */
static inline int record_of(const imp_engine3d *e, imp_e3_recycle *rc, int k)
{
    if (!rc->mapped) {
        const imp_e3_point *p = &e->prev[k];
        if (k < rc->nprev && same_point(&rc->prev[k], p) && (k == 0 || before(&rc->prev[k - 1], p))) {
            return rc->map[k] = k;
        }
        map_records(e, rc);
    }
    return rc->map[k];
}

/* Whether every point of the pair's run [j, pend) of e->prev has a record (rc->map written):
   record_of's usual case for the run at once (within it a record before point k is point
   k - 1's: the same pair, a smaller key) */
static int records_of_run(const imp_engine3d *e, imp_e3_recycle *rc, int j, int pend)
{
    if (!rc->mapped && pend <= rc->nprev && record_of(e, rc, j) == j) {
        int k = j + 1;
        while (k < pend && same_point(&rc->prev[k], &e->prev[k]) && rc->prev[k - 1].key < e->prev[k].key) {
            rc->map[k] = k;
            k++;
        }
        if (k == pend) {
            return 1;
        }
    }
    for (int k = j; k < pend; k++) {
        if (record_of(e, rc, k) < 0) {
            return 0;
        }
    }
    return 1;
}

/* Whether the pair (a, b) of polyhedra, its manifold computed at pose r (its records'), now
   at orientations qa, qb (normalised), may keep it: neither turned by 10 degrees or more
   since, and the relative pose moved by less than the reach: |change of x_b - x_a in a's
   frame| + 2 |sin(turn / 2)| R < reach (R the larger bounding radius of the moving ones;
   Box3D's bound). */
static int fits(const imp_world *w, const imp_e3_recycle *rc, int a, int b, const imp_e3_recycled_pose *r,
                imp_quat qa, imp_quat qb, double reach)
{
    const double *ya = w->data.y + (size_t)a * IMP_STRIDE_3D, *yb = w->data.y + (size_t)b * IMP_STRIDE_3D;
    imp_quat qa0 = quat_of(r->qa), qb0 = quat_of(r->qb), rel0 = quat_of(r->rel);
    double ca = qa.w * qa0.w + qa.x * qa0.x + qa.y * qa0.y + qa.z * qa0.z;
    double cb = qb.w * qb0.w + qb.x * qb0.x + qb.y * qb0.y + qb.z * qb0.z;
    if (!(ca * ca > TURN_COS2 && cb * cb > TURN_COS2)) {
        return 0;
    }
    double d[3], p[3];
    const double *p0 = r->d0;
    for (int k = 0; k < 3; k++) {
        d[k] = yb[k] - ya[k];
    }
    unrotate(rotation(rc, a), d, p);
    double dist = sqrt((p[0] - p0[0]) * (p[0] - p0[0]) + (p[1] - p0[1]) * (p[1] - p0[1])
                       + (p[2] - p0[2]) * (p[2] - p0[2]));
    imp_quat qr = imp_q_mul(rel0, imp_q_mul(imp_q_conj(qa), qb));
    double chord = 2.0 * sqrt(qr.x * qr.x + qr.y * qr.y + qr.z * qr.z), rad = 0.0;
    const imp_body *ba = &w->model.bodies[a], *bb = &w->model.bodies[b];
    if (!ba->fixed) {
        rad = ba->shape->radius;
    }
    if (!bb->fixed) {
        double rb = bb->shape->radius;
        rad = rb > rad ? rb : rad;  /* fmax's (radii are not NaN; signed zeros give the same product) */
    }
    return dist + chord * rad < reach;
}

/* the pose of point p's pair computed now (its manifold's: the bodies' orientations, their
   relative orientation and the centres' offset), once for the pair's points; ta, tb: R_a^T,
   R_b^T then, for their anchors (record_point) */
static void record_pose(const imp_world *w, const imp_e3_point *p, imp_e3_recycled_pose *r, imp_mat3 *ta,
                        imp_mat3 *tb)
{
    const double *ya = w->data.y + (size_t)p->a * IMP_STRIDE_3D, *yb = w->data.y + (size_t)p->b * IMP_STRIDE_3D;
    imp_quat qa = imp_q_normalize(quat_of(ya + 3)), qb = imp_q_normalize(quat_of(yb + 3));
    r->qa[0] = qa.w, r->qa[1] = qa.x, r->qa[2] = qa.y, r->qa[3] = qa.z;
    r->qb[0] = qb.w, r->qb[1] = qb.x, r->qb[2] = qb.y, r->qb[3] = qb.z;
    double d0[3];
    for (int k = 0; k < 3; k++) {
        d0[k] = yb[k] - ya[k];
    }
    /* fits' constants of this pose, computed once here (they were at each step the pair was
       tested, from the centres and orientations: the same operations) */
    imp_quat rel = imp_q_conj(imp_q_mul(imp_q_conj(qa), qb));
    r->rel[0] = rel.w, r->rel[1] = rel.x, r->rel[2] = rel.y, r->rel[3] = rel.z;
    *ta = imp_q_to_mat3(qa), *tb = imp_q_to_mat3(qb);  /* R^T: conj(q)'s matrix, bit for bit */
    unrotate(&ta->m[0][0], d0, r->d0);
}

/* the record of point p computed now (the gap's base, its anchors in the bodies' frames by
   ta, tb of its pair's pose, record_pose's, at index pose; its impulses f, 3 doubles, none yet) */
static void record_point(const imp_world *w, const imp_e3_point *p, const imp_mat3 *ta, const imp_mat3 *tb,
                         int pose, imp_e3_recycled *r, double *f)
{
    const double *ya = w->data.y + (size_t)p->a * IMP_STRIDE_3D, *yb = w->data.y + (size_t)p->b * IMP_STRIDE_3D;
    r->a = p->a, r->b = p->b, r->key = p->key, r->gen_a = p->gen_a, r->gen_b = p->gen_b;
    r->pose = pose;
    double o[3];
    for (int k = 0; k < 3; k++) {
        o[k] = (yb[k] + p->rb[k]) - (ya[k] + p->ra[k]);
    }
    r->base = p->distance - dot3(p->normal, o);
    unrotate(&ta->m[0][0], p->ra, r->la);  /* the anchors in the bodies' frames, R^T r */
    unrotate(&tb->m[0][0], p->rb, r->lb);
    f[0] = f[1] = f[2] = 0.0;
}

_Static_assert(offsetof(imp_e3_point, t1) == offsetof(imp_e3_point, normal) + 3 * sizeof(double)
                   && offsetof(imp_e3_point, t2) == offsetof(imp_e3_point, t1) + 3 * sizeof(double)
                   && offsetof(imp_e3_point, rb) == offsetof(imp_e3_point, ra) + 3 * sizeof(double),
               "engine3d.h: a point's normal, t1 and t2 follow one another, and ra and rb (recycle_point's copies)");
/* the held test's in-place hold touches a point's first 208 bytes only, but mu, e and bias
   (engine3d.h's layout) */
_Static_assert(offsetof(imp_e3_point, pb) + 3 * sizeof(double) == 208 && offsetof(imp_e3_point, mu) >= 208
                   && offsetof(imp_e3_point, ra) >= 208 && sizeof(imp_e3_point) == 304,
               "engine3d.h: the held test's fields first");

/* a held point's world points pa, pb and gap at the current poses (recycle_point's) */
typedef struct held_at {
    double pa[3], pb[3], distance;
} held_at;

static inline held_at held_point(const double *ya, const double *yb, const imp_e3_point *o, const imp_e3_recycled *r,
                                 const double *ra, const double *rb)
{
    double ma[3], mb[3], o3[3];
    held_at h;
    rotate(ra, r->la, ma);
    rotate(rb, r->lb, mb);
    h.pa[0] = ya[0] + ma[0], h.pa[1] = ya[1] + ma[1], h.pa[2] = ya[2] + ma[2];  /* (written out) */
    h.pb[0] = yb[0] + mb[0], h.pb[1] = yb[1] + mb[1], h.pb[2] = yb[2] + mb[2];
    o3[0] = h.pb[0] - h.pa[0], o3[1] = h.pb[1] - h.pa[1], o3[2] = h.pb[2] - h.pa[2];
    h.distance = r->base + dot3(o->normal, o3);
    return h;
}

/* what a held point p takes of this step (held_point's h, the pair's material): the fields its
   last step's copy o does not give it (recycle_point's; all of them when p is o, in place) */
static inline void held_update(const held_at *h, double mu, double el, imp_e3_point *p)
{
    p->going = 0;
    p->distance = h->distance;
    p->fresh = 0;
    p->mu = mu;  /* the pair's material as it is now */
    p->e = el;
    p->bias = 0.0;
    memcpy(p->pa, h->pa, sizeof p->pa);
    memcpy(p->pb, h->pb, sizeof p->pb);
}

/* point o of the last step, kept: its gap and world points at the current poses (ya, yb: its
   bodies' states, ra, rb: their rotations now, row-major, which turn its record's anchors in
   the bodies' frames). Written field by field, only what the point keeps (a whole-struct copy
   of its 304 bytes compiled to a string move that took a third of the held pairs' test): what
   it keeps of o, then held_update's; its warm start r: warm_from. Not written:
   u0, ustar, rimp, handled and active, which the soft step's prepare_row writes for every
   point before anything reads them (the soft step is the one that holds pairs) */
static inline void recycle_point(const double *ya, const double *yb, const imp_e3_point *o, const imp_e3_recycled *r,
                                 double mu, double el, const double *ra, const double *rb, imp_e3_point *p)
{
    held_at h = held_point(ya, yb, o, r, ra, rb);
    p->a = o->a, p->b = o->b, p->key = o->key;
    p->acc = o->acc, p->acc_u0 = o->acc_u0;
    p->gen_a = o->gen_a, p->gen_b = o->gen_b;
    p->was_touching = o->was_touching;
    /* the frame and the anchors (normal, t1, t2 together; ra, rb together: two moves) */
    memcpy(p->normal, o->normal, sizeof p->normal);
    memcpy(p->t1, o->t1, sizeof p->t1);
    memcpy(p->t2, o->t2, sizeof p->t2);
    memcpy(p->ra, o->ra, sizeof p->ra);
    memcpy(p->rb, o->rb, sizeof p->rb);
    held_update(&h, mu, el, p);
}

/* the warm start of point p (its record r_new filled) from the last step's point k of its pair
   (-1: none) and that point's record rk (-1: none) */
static inline void warm_from(const imp_engine3d *e, const imp_e3_recycle *rc, int k, int rk, double hs,
                             double h_last, imp_e3_point *p)
{
    if (k < 0) {
        p->r[0] = p->r[1] = p->r[2] = 0.0;
        return;
    }
    const imp_e3_point *o = &e->prev[k];
    double ft[3], r[3];
    if (rk >= 0) {  /* the last sub-step's */
        const double *f = rc->fprev + 3 * (size_t)rk;
        r[0] = f[0] * hs, r[1] = f[1] * hs, r[2] = f[2] * hs;
    } else {  /* the last step's over its length */
        double s = h_last > 0.0 ? hs / h_last : 0.0;
        for (int i = 0; i < 3; i++) {
            r[i] = o->r[i] * s;
        }
    }
    ft[0] = r[1] * o->t1[0] + r[2] * o->t2[0];  /* (written out) */
    ft[1] = r[1] * o->t1[1] + r[2] * o->t2[1];
    ft[2] = r[1] * o->t1[2] + r[2] * o->t2[2];
    p->r[0] = r[0];
    p->r[1] = dot3(ft, p->t1);
    p->r[2] = dot3(ft, p->t2);
}

/* warm_from for a held point p, o's copy (its record's impulses f): the last sub-step's
   impulses re-expressed in p's tangents, which are o's (the same operations on the same
   values, read from o: p's were just written) */
static inline void warm_held(const imp_e3_point *o, const double *f, double hs, imp_e3_point *p)
{
    double r0 = f[0] * hs, r1 = f[1] * hs, r2 = f[2] * hs, ft[3];
    ft[0] = r1 * o->t1[0] + r2 * o->t2[0];
    ft[1] = r1 * o->t1[1] + r2 * o->t2[1];
    ft[2] = r1 * o->t1[2] + r2 * o->t2[2];
    p->r[0] = r0;
    p->r[1] = dot3(ft, o->t1);
    p->r[2] = dot3(ft, o->t2);
}

/* the last step's point of the pair run [j, pend) for detected point p: the same key, else (a
   new key) the nearest within tol whose key is gone from the run [i, end) of e->pts; -1 */
static int match(const imp_engine3d *e, int i, int end, int j, int pend, const imp_e3_point *p, double tol)
{
    int best = -1;
    double bd = tol * tol;
    for (int k = j; k < pend; k++) {
        const imp_e3_point *o = &e->prev[k];
        if (o->key == p->key) {
            return k;
        }
    }
    for (int k = j; k < pend; k++) {
        const imp_e3_point *o = &e->prev[k];
        int kept = 0;
        for (int m = i; m < end; m++) {
            kept |= e->pts[m].key == o->key;
        }
        double d2 = 0.0;
        for (int c = 0; c < 3; c++) {
            d2 += (o->ra[c] - p->ra[c]) * (o->ra[c] - p->ra[c]);
        }
        if (!kept && d2 <= bd) {
            bd = d2;
            best = k;
        }
    }
    return best;
}

/* *p reallocated to bytes: 0, or -1 without memory (*p left as it was) */
static int resize(void **p, size_t bytes)
{
    void *q = realloc(*p, bytes);
    if (q == NULL) {
        return -1;
    }
    *p = q;
    return 0;
}

/* the per-slot arrays for ns slots. 0, or -1 without memory */
static int reserve_slots(imp_e3_recycle *rc, int ns)
{
    if (ns > rc->slot_cap) {
        size_t n = (size_t)ns;
        if (resize((void **)&rc->rot, n * 13 * sizeof *rc->rot) != 0
            || resize((void **)&rc->posed, n * sizeof *rc->posed) != 0
            || resize((void **)&rc->poly, n * sizeof *rc->poly) != 0) {
            return -1;
        }
        rc->slot_cap = ns;
    }
    return 0;
}

/* slot s's orientation (normalised) and rotation at state y, as imp_e3_pose_of takes them */
static void rotation_at(const double *y, double *o)
{
    imp_quat q = imp_q_normalize(quat_of(y + 3));
    imp_mat3 r = imp_q_to_mat3(q);
    o[0] = q.w, o[1] = q.x, o[2] = q.y, o[3] = q.z;
    memcpy(o + 4, r.m, sizeof r.m);
}

const double *imp_e3_recycle_rotations(const imp_world *w, imp_e3_recycle *rc)
{
    int ns = w->model.nslots;
    if (reserve_slots(rc, ns) != 0) {
        return NULL;
    }
    for (int s = 0; s < ns; s++) {
        rotation_at(w->data.y + (size_t)s * IMP_STRIDE_3D, rc->rot + 13 * (size_t)s);
    }
    return rc->rot;
}

int imp_e3_recycle_open(const imp_world *w, const imp_engine3d *e, imp_e3_recycle *rc)
{
    int ns = w->model.nslots;
    if (imp_grow(&rc->map, &rc->map_cap, e->nprev, sizeof *rc->map) != 0 || reserve_slots(rc, ns) != 0) {
        return -1;
    }
    rc->mapped = 0;  /* (record_of) */
    /* the slots' rotations: taken already when e->rot_y is rc's (imp_e3_recycle_rotations);
       else the broad phase's bodies' from detection's poses, taken at y just before (the same
       operations), the others' (posed[s] left 0) here */
    int taken = e->rot_y == rc->rot;
    for (int s = 0; s < ns && !taken; s++) {
        rc->posed[s] = 0;
    }
    for (int k = 0; k < e->nbp && !taken; k++) {
        int s = e->bp_slot[k];
        double *o = rc->rot + 13 * (size_t)s;
        memcpy(o, e->pose[k].q, 4 * sizeof *o);
        memcpy(o + 4, e->pose[k].r, 9 * sizeof *o);
        rc->posed[s] = 1;
    }
    for (int s = 0; s < ns; s++) {
        if (!taken && !rc->posed[s]) {
            rotation_at(w->data.y + (size_t)s * IMP_STRIDE_3D, rc->rot + 13 * (size_t)s);
        }
        rc->poly[s] = (unsigned char)polyhedral(w, s);
    }
    rc->nheld = 0;
    rc->next = 0;
    rc->ahead = 0;
    /* held points in place (imp_e3_recycle_hold) in the soft step's detection (its rotations:
       e->rot_y), which the step's end follows (imp_engine3d_finish), when no island sleeps (a
       waking one would put its points back into e->prev and detect again) and the step's events
       read no point of e->prev that is: none built, or the last step's pair states are e->prev's
       (the events read them, and a held pair's points only for its contact_end: its event point
       is kept, rc->oldc); and no load is active (a Lua one may read the world's contacts,
       e->prev, in the middle of the step: none are in place then) */
    rc->inplace = 0;
    rc->inplace_ev = !w->data.no_contact_events;
    rc->inplace_ok = taken && !e->aliased && !imp_e3_sleep_any(w) && !imp_world_loaded(w)
                     && (!rc->inplace_ev || (e->ev_valid && e->ev_list == e->prev && e->ev_nprev == e->nprev));
    return 0;
}

/* the points of e->prev up to PREFETCH_AHEAD after the run the held test looked up (the next
   pairs', detection asking in the pairs' order), and their records, are asked of the cache
   once each: the test reads each point's first 208 bytes and its record's, and a standing pyramid
   has every pair held, so the walk through both arrays (megabytes) waited on memory */
enum { PREFETCH_AHEAD = 4 };

static inline int min_int(int x, int y) { return x < y ? x : y; }

/* point o's pair before the pair (a, b) in the points' order */
static inline int pair_before(const imp_e3_point *o, int a, int b) { return o->a < a || (o->a == a && o->b < b); }

/* Whether the held pair's run [j, pend) of e->prev is updated in place: its points' place in
   the step's list is theirs in the last one (every point before is such), and the last step's
   pair states (e->ev_pairs) name it at the same place (the events read them for it, not its
   points, and its event point is kept for its contact_end) */
static int in_place(const imp_engine3d *e, const imp_e3_recycle *rc, int j, int pend)
{
    int h = rc->nheld;
    return rc->inplace_ok && rc->inplace == e->npts && j == e->npts && pend - j <= IMP_MANIFOLD3D_MAX
           && (!rc->inplace_ev || (h < e->nev_pairs && e->ev_pairs[h].j == j && e->ev_pairs[h].end == pend));
}

/* imp_e3_recycle_hold's points of the run [j, pend) written over themselves in e->prev (in
   place: the same values recycle_point and warm_held give a copy), once the pair is known to
   be held (its gaps first); its event point before kept (rc->oldc). 1 held, 0 not, -1 */
static int hold_in_place(const imp_world *w, imp_engine3d *e, imp_e3_recycle *rc, int j, int pend, double mu,
                         double el, const double *ra, const double *rb, double margin)
{
    int n = pend - j, h = rc->nheld;
    if (rc->inplace_ev && imp_grow(&rc->oldc, &rc->oldc_cap, h + 1, 3 * sizeof *rc->oldc) != 0) {
        return -1;
    }
    imp_e3_point *p = &e->prev[j];
    const int *map = rc->map;
    const double *ya = w->data.y + (size_t)p->a * IMP_STRIDE_3D, *yb = w->data.y + (size_t)p->b * IMP_STRIDE_3D;
    held_at at[IMP_MANIFOLD3D_MAX];
    double gap = INFINITY, pen = -INFINITY;
    for (int k = 0; k < n; k++) {
        at[k] = held_point(ya, yb, &p[k], &rc->prev[map[j + k]], ra, rb);
        double d = at[k].distance;
        gap = d < gap ? d : gap;  /* (imp_e3_recycle_hold's) */
        pen = imp_fmax(pen, -d);
    }
    if (!(gap <= margin)) {
        return 0;  /* apart as held: detected again (its points untouched) */
    }
    if (rc->inplace_ev) {
        imp_e3_event_point(p, n, rc->oldc + 3 * (size_t)h);
    }
    for (int k = 0; k < n; k++) {
        held_update(&at[k], mu, el, &p[k]);
        warm_held(&p[k], rc->fprev + 3 * (size_t)map[j + k], rc->hs, &p[k]);
    }
    e->prev_dirty = 1;
    e->npts += n;
    rc->inplace = e->npts;
    rc->held[rc->nheld++] = (imp_e3_held){p->a, p->b, j, pend, pen};
    return 1;
}

void imp_e3_recycle_settle(imp_engine3d *e, imp_e3_recycle *rc)
{
    int n = rc->inplace;
    rc->inplace = 0;
    if (n == 0) {
        return;
    }
    e->ev_point = rc->oldc;
    e->nev_point = 0;
    while (rc->inplace_ev && e->nev_point < rc->nheld && rc->held[e->nev_point].pend <= n) {
        e->nev_point++;  /* (the held pairs in place: the first, in order) */
    }
    if (n == e->npts) {  /* all: the step's list is e->prev's array */
        e->spare = e->pts;
        e->spare_cap = e->pts_cap;
        e->pts = e->prev;
        e->pts_cap = e->prev_cap;
        e->aliased = 1;
    } else {  /* (e->pts grown for the points after them) */
        memcpy(e->pts, e->prev, (size_t)n * sizeof *e->pts);
    }
}

int imp_e3_recycle_hold(const imp_world *w, imp_engine3d *e, imp_e3_recycle *rc, int a, int b, double margin)
{
    const imp_engine2d_def *def = &w->model.def.engine2d;
    if (def->contact_points == IMP_POINTS_VOLUMETRIC) {
        return 0;
    }
    /* the pair's run in e->prev (sorted by pair, then key): its first point is the first
       not before (a, b). From where the last pair's ended when detection asks in the pairs'
       order (it does: a forward walk, each point passed once a detection), else by halves.
       (A walk of every point's a when detection opened, to find each slot's first, read a
       line of memory a point.) */
    int j = rc->next, pend = e->nprev;
    if (j <= pend && (j == 0 || pair_before(&e->prev[j - 1], a, b))) {
        while (j < pend && pair_before(&e->prev[j], a, b)) {
            j++;
        }
        pend = j;  /* (found: no halving) */
    } else {
        j = 0;
    }
    while (j < pend) {
        int mid = j + (pend - j) / 2;
        if (pair_before(&e->prev[mid], a, b)) {
            j = mid + 1;
        } else {
            pend = mid;
        }
    }
    for (pend = j; pend < e->nprev && e->prev[pend].a == a && e->prev[pend].b == b;) {
        pend++;
    }
    rc->next = pend;
    int from = rc->ahead > pend ? rc->ahead : pend, to = min_int(e->nprev, pend + PREFETCH_AHEAD);
    if (from < to) {  /* each point once, as the walk comes near it; its record beside it */
        for (int k = from; k < to; k++) {  /* (the held test's bytes of each, engine3d.h) */
            imp_prefetch_bytes(&e->prev[k], offsetof(imp_e3_point, pb) + sizeof e->prev->pb, 0);
        }
        int rto = min_int(rc->nprev, to);
        if (from < rto) {
            imp_prefetch_bytes(&rc->prev[from], (size_t)(rto - from) * sizeof *rc->prev, 0);
        }
        rc->ahead = to;
    }
    if (pend == j || e->prev[j].gen_a != w->model.bodies[a].generation
        || e->prev[j].gen_b != w->model.bodies[b].generation) {
        return 0;
    }
    if (!records_of_run(e, rc, j, pend)) {
        return 0;
    }
    if (!rc->poly[a] || !rc->poly[b]) {
        return 0;
    }
    /* the pair's pose (one for its points: its first's record's) */
    const imp_e3_recycled_pose *r0 = &rc->pprev[rc->prev[rc->map[j]].pose];
    imp_quat qa = orientation(rc, a), qb = orientation(rc, b);
    if (!fits(w, rc, a, b, r0, qa, qb, REACH_TOLS * def->distance_tol)) {
        return 0;
    }
    if (imp_grow(&rc->held, &rc->held_cap, rc->nheld + 1, sizeof *rc->held) != 0) {
        return -1;
    }
    double mu, el, gap = INFINITY, pen = -INFINITY;
    imp_e3_pair_material(w, a, b, &mu, &el);
    const double *ra = rotation(rc, a), *rb = rotation(rc, b);
    if (in_place(e, rc, j, pend)) {
        return hold_in_place(w, e, rc, j, pend, mu, el, ra, rb, margin);
    }
    if (imp_grow(&e->pts, &e->pts_cap, e->npts + (pend - j), sizeof *e->pts) != 0) {
        return -1;
    }
    imp_e3_point *out = &e->pts[e->npts];
    const double *ya = w->data.y + (size_t)a * IMP_STRIDE_3D, *yb = w->data.y + (size_t)b * IMP_STRIDE_3D;
    double hs = rc->hs;
    /* the arrays in locals: the stores to out might alias rc's and e's fields, which the loop
       read again at each point */
    const imp_e3_point *prev = e->prev;
    const imp_e3_recycled *recs = rc->prev;
    const int *map = rc->map;
    const double *fprev = rc->fprev;
    for (int k = j; k < pend; k++) {
        int rk = map[k];  /* (every point of the run has one: records_of_run) */
        recycle_point(ya, yb, &prev[k], &recs[rk], mu, el, ra, rb, &out[k - j]);
        warm_held(&prev[k], fprev + 3 * (size_t)rk, hs, &out[k - j]);
        double d = out[k - j].distance;
        gap = d < gap ? d : gap;  /* fmin's (gap starts at infinity, a NaN is passed over) */
        pen = imp_fmax(pen, -d);
    }
    if (!(gap <= margin)) {
        return 0;  /* apart as held: detected again */
    }
    e->npts += pend - j;
    rc->held[rc->nheld++] = (imp_e3_held){a, b, j, pend, pen};
    return 1;
}

static int held_cmp(const void *x, const void *y)
{
    const imp_e3_held *p = x, *q = y;
    if (p->a != q->a) {
        return p->a < q->a ? -1 : 1;
    }
    return p->b < q->b ? -1 : p->b > q->b;
}

int imp_e3_recycle_all_held(const imp_e3_recycle *rc, int npts)
{
    int n = 0;
    for (int h = 0; h < rc->nheld; h++) {
        const imp_e3_held *hp = &rc->held[h];
        if (h > 0 && held_cmp(&rc->held[h - 1], hp) >= 0) {
            return 0;
        }
        n += hp->pend - hp->j;
    }
    return n == npts;
}

/* Whether every point of e->pts is a held one at its index in e->prev, with its record at
   that index too (the held pairs, in order, cover e->pts from 0 with their runs in place, and
   each run's records are its points' indices: the map rises, so its ends tell) */
static int all_in_place(const imp_engine3d *e, const imp_e3_recycle *rc)
{
    int at = 0;
    for (int h = 0; h < rc->nheld; h++) {
        const imp_e3_held *hp = &rc->held[h];
        if (hp->j != at || rc->map[hp->j] != hp->j || rc->map[hp->pend - 1] != hp->pend - 1) {
            return 0;
        }
        at = hp->pend;
    }
    return at == e->npts;
}

int imp_e3_recycle_begin(const imp_world *w, imp_engine3d *e, imp_e3_recycle *rc, double h_last)
{
    double hs = rc->hs;
    double tol = w->model.def.engine2d.distance_tol;
    if (imp_grow(&rc->cur, &rc->cur_cap, e->npts, sizeof *rc->cur) != 0
        || imp_grow(&rc->pcur, &rc->pcur_cap, e->npts, sizeof *rc->pcur) != 0
        || imp_grow(&rc->fcur, &rc->fcur_cap, e->npts, 3 * sizeof *rc->fcur) != 0) {
        return -1;
    }
    for (int h = 1; h < rc->nheld; h++) {  /* in the points' order (detection's pairs were) */
        if (held_cmp(&rc->held[h - 1], &rc->held[h]) > 0) {
            qsort(rc->held, (size_t)rc->nheld, sizeof *rc->held, held_cmp);
            break;
        }
    }
    /* in place: each point of e->pts keeps its index (n == c below), only its warm start and
       record are written. When every point is held at its index in e->prev (a standing
       pyramid's, each step), each record is the last step's at the same index: rc->cur is
       not written (same), rc->prev keeps them (imp_e3_recycle_end) */
    int n = 0, j = 0, h = 0, np = 0, same = all_in_place(e, rc);
    double pen = 0.0;  /* the deepest penetration, the points in order (the walk's) */
    if (same) {  /* the held pairs cover e->pts in order: their penetrations, no point read */
        for (h = 0; h < rc->nheld; h++) {
            pen = imp_fmax(pen, rc->held[h].pen);
        }
        n = e->npts;
    }
    for (int i = n; i < e->npts;) {
        const imp_e3_point *p0 = &e->pts[i];
        while (h < rc->nheld && (rc->held[h].a < p0->a || (rc->held[h].a == p0->a && rc->held[h].b < p0->b))) {
            h++;
        }
        if (h < rc->nheld && rc->held[h].a == p0->a && rc->held[h].b == p0->b) {
            const imp_e3_held *hp = &rc->held[h];  /* its points are the run [j, pend) held, */
            int end = i + (hp->pend - hp->j);      /* appended together (hold; the detection's
                                                      merge passes them so too) */
            pen = imp_fmax(pen, hp->pen);          /* (imp_e3_held's) */
            if (!same) {  /* the pair's pose once, the one hold tested (its first's record's) */
                rc->pcur[np] = rc->pprev[rc->prev[rc->map[hp->j]].pose];
                for (int c = i; c < end; c++) {    /* their warm starts written (hold) */
                    rc->cur[n + (c - i)] = rc->prev[rc->map[hp->j + (c - i)]];
                    rc->cur[n + (c - i)].pose = np;
                }
            }
            n += end - i;
            np++;
            i = end;
            continue;
        }
        int end = i;
        while (end < e->npts && e->pts[end].a == p0->a && e->pts[end].b == p0->b) {
            end++;
        }
        while (j < e->nprev && (e->prev[j].a < p0->a || (e->prev[j].a == p0->a && e->prev[j].b < p0->b))) {
            j++;
        }
        int pend = j;
        while (pend < e->nprev && e->prev[pend].a == p0->a && e->prev[pend].b == p0->b) {
            pend++;
        }
        imp_mat3 ta, tb;
        record_pose(w, p0, &rc->pcur[np], &ta, &tb);  /* (the pair's points share it) */
        for (int c = i; c < end; c++, n++) {
            pen = imp_fmax(pen, -e->pts[c].distance);
            record_point(w, &e->pts[c], &ta, &tb, np, &rc->cur[n], rc->fcur + 3 * (size_t)n);
            int k = match(e, i, end, j, pend, &e->pts[c], tol);
            warm_from(e, rc, k, k >= 0 ? record_of(e, rc, k) : -1, hs, h_last, &e->pts[c]);
        }
        np++;
        i = end;
        j = pend;
    }
    rc->nheld = 0;
    rc->npcur = np;
    e->npts = n;
    rc->ncur = n;
    rc->same = same;
    e->stats.points = n;
    e->stats.max_penetration = pen;
    if (n > e->stats.max_points) {
        e->stats.max_points = n;
    }
    return 0;
}

void imp_e3_recycle_force(imp_e3_recycle *rc, int i, const double f[3])
{
    memcpy(rc->fcur + 3 * (size_t)i, f, 3 * sizeof *rc->fcur);
}

void imp_e3_recycle_end(imp_e3_recycle *rc)
{
    if (!rc->same) {  /* (same: the records are rc->prev's 0 .. ncur - 1 already) */
        imp_e3_swap_arrays((void **)&rc->prev, &rc->prev_cap, (void **)&rc->cur, &rc->cur_cap);
        imp_e3_swap_arrays((void **)&rc->pprev, &rc->pprev_cap, (void **)&rc->pcur, &rc->pcur_cap);
    }
    rc->same = 0;
    imp_e3_swap_arrays((void **)&rc->fprev, &rc->fprev_cap, (void **)&rc->fcur, &rc->fcur_cap);
    rc->nprev = rc->ncur;
    rc->ncur = 0;
}

void imp_e3_recycle_free(imp_e3_recycle *rc)
{
    free(rc->prev);
    free(rc->cur);
    free(rc->pprev);
    free(rc->pcur);
    free(rc->fprev);
    free(rc->fcur);
    free(rc->map);
    free(rc->held);
    free(rc->oldc);
    free(rc->rot);
    free(rc->posed);
    free(rc->poly);
    memset(rc, 0, sizeof *rc);
}
