/* collide3d.c: narrow-phase dispatch for 3D convex shapes.

   Every shape is a core swept by a sphere (shape3d.h), so the signed distance is
     dist(cores) - rA - rB        when the cores are disjoint (GJK on the cores: exact, also
                                  for shallow penetration of smoothed shapes),
     -(depth(cores) + rA + rB)    when they overlap (MPR + EPA on the cores); if the cores'
                                  difference is flat (spheres, capsules, fully rounded boxes:
                                  its affine span has rank < 3) its depth is 0 along its normal.
   The table collide[kind][kind] gives closed forms for the common pairs. */
#include "collide3d.h"

#include <math.h>
#include <string.h>

#include "collide3d_box.h"
#include "gjk.h"
#include "mpr.h"
#include "shape3d.h"
#include "support3d.h"

#define GJK_MAX_ITER 128
#define MPR_MAX_ITER 128
#define EPA_MAX_ITER 590

typedef void (*pair_fn)(const imp_support3d *a, const imp_support3d *b, imp_contact3d *out);

static void finish(imp_contact3d *out, imp_vec3 n, imp_vec3 pa, imp_vec3 pb, double dist, int method)
{
    imp_v3_store(out->normal, n);
    imp_v3_store(out->point_a, pa);
    imp_v3_store(out->point_b, pb);
    out->distance = dist;
    out->method = method;
}

/* a unit vector perpendicular to v (deterministic) */
static imp_vec3 perpendicular(imp_vec3 v)
{
    imp_vec3 ax = fabs(v.x) <= fabs(v.y) && fabs(v.x) <= fabs(v.z) ? imp_v3(1, 0, 0)
                  : (fabs(v.y) <= fabs(v.z) ? imp_v3(0, 1, 0) : imp_v3(0, 0, 1));
    return imp_v3_normalize(imp_v3_cross(v, ax));
}

/* Normal for cores that meet where their difference has no volume: unit, perpendicular to all
   span directions, oriented along the centre offset. dirs: n unit vectors (n <= 4); *rank
   gets the rank of their span (the normal is meaningful when it is below 3). */
static imp_vec3 flat_normal(const imp_vec3 *dirs, int n, imp_vec3 offset, int *rank_out)
{
    imp_vec3 basis[3];
    int rank = 0;
    for (int i = 0; i < n && rank < 3; i++) { /* Gram-Schmidt */
        imp_vec3 u = dirs[i];
        for (int k = 0; k < rank; k++) {
            u = imp_v3_madd(u, -imp_v3_dot(u, basis[k]), basis[k]);
        }
        double l = imp_v3_len(u);
        if (l > 1e-9) {
            basis[rank++] = imp_v3_scale(u, 1.0 / l);
        }
    }
    *rank_out = rank;
    imp_vec3 nrm;
    if (rank == 2) {
        nrm = imp_v3_normalize(imp_v3_cross(basis[0], basis[1]));
    } else {
        imp_vec3 u = offset;
        for (int k = 0; k < rank; k++) {
            u = imp_v3_madd(u, -imp_v3_dot(u, basis[k]), basis[k]);
        }
        double l = imp_v3_len(u), ol = imp_v3_len(offset);
        if (l > 1e-12 * (ol > 0.0 ? ol : 1.0) && l > 0.0) {
            return imp_v3_scale(u, 1.0 / l);
        }
        nrm = rank == 1 ? perpendicular(basis[0]) : imp_v3(0, 0, 1);
    }
    return imp_v3_dot(nrm, offset) < 0.0 ? imp_v3_neg(nrm) : nrm;
}

/* ---- analytic pairs ---- */

/* the core segment of a sphere (a point) or capsule in world coordinates */
static void segment(const imp_support3d *s, imp_vec3 *p, imp_vec3 *q)
{
    imp_vec3 ax = imp_v3(s->rot.m[0][2], s->rot.m[1][2], s->rot.m[2][2]);
    double h = s->c->kind == IMP_S3_CAPSULE ? s->c->core[2] : 0.0;
    *p = imp_v3_madd(s->origin, -h, ax);
    *q = imp_v3_madd(s->origin, h, ax);
}

/* closest points of segments p1 q1 and p2 q2 (Ericson, RTCD 5.1.9) */
static void closest_segments(imp_vec3 p1, imp_vec3 q1, imp_vec3 p2, imp_vec3 q2, imp_vec3 *c1, imp_vec3 *c2)
{
    imp_vec3 d1 = imp_v3_sub(q1, p1), d2 = imp_v3_sub(q2, p2), r = imp_v3_sub(p1, p2);
    double a = imp_v3_len2(d1), e = imp_v3_len2(d2), f = imp_v3_dot(d2, r), s, t;
    if (a <= 0.0 && e <= 0.0) {
        s = t = 0.0;
    } else if (a <= 0.0) {
        s = 0.0;
        t = fmin(fmax(f / e, 0.0), 1.0);
    } else {
        double c = imp_v3_dot(d1, r);
        if (e <= 0.0) {
            t = 0.0;
            s = fmin(fmax(-c / a, 0.0), 1.0);
        } else {
            double b = imp_v3_dot(d1, d2), den = a * e - b * b;
            s = den > 1e-14 * a * e ? fmin(fmax((b * f - c * e) / den, 0.0), 1.0) : 0.0;
            t = (b * s + f) / e;
            if (t < 0.0) {
                t = 0.0;
                s = fmin(fmax(-c / a, 0.0), 1.0);
            } else if (t > 1.0) {
                t = 1.0;
                s = fmin(fmax((b - c) / a, 0.0), 1.0);
            }
        }
    }
    *c1 = imp_v3_madd(p1, s, d1);
    *c2 = imp_v3_madd(p2, t, d2);
}

/* sphere/sphere, sphere/capsule, capsule/capsule: segments swept by spheres */
static void pair_segments(const imp_support3d *a, const imp_support3d *b, imp_contact3d *out)
{
    imp_vec3 p1, q1, p2, q2, c1, c2;
    segment(a, &p1, &q1);
    segment(b, &p2, &q2);
    closest_segments(p1, q1, p2, q2, &c1, &c2);
    imp_vec3 diff = imp_v3_sub(c2, c1), n;
    double d = imp_v3_len(diff);
    if (d > 1e-14 * (a->scale + b->scale)) {
        n = imp_v3_scale(diff, 1.0 / d);
    } else { /* the segments meet: their difference is flat, depth rA + rB */
        imp_vec3 dirs[2];
        int k = 0;
        if (imp_v3_len2(imp_v3_sub(q1, p1)) > 0.0) {
            dirs[k++] = imp_v3_normalize(imp_v3_sub(q1, p1));
        }
        if (imp_v3_len2(imp_v3_sub(q2, p2)) > 0.0) {
            dirs[k++] = imp_v3_normalize(imp_v3_sub(q2, p2));
        }
        int rank;
        n = flat_normal(dirs, k, imp_v3_sub(b->origin, a->origin), &rank);
        d = 0.0;
    }
    finish(out, n, imp_v3_madd(c1, a->sweep, n), imp_v3_madd(c2, -b->sweep, n), d - a->sweep - b->sweep,
           IMP_NP_ANALYTIC);
}

/* sphere (a) against a box, smoothed or not (b) */
static void pair_sphere_box(const imp_support3d *a, const imp_support3d *b, imp_contact3d *out)
{
    const double *h = b->c->core;
    imp_vec3 cl = imp_m3_tmulv(&b->rot, imp_v3_sub(a->origin, b->origin));
    double c[3] = {cl.x, cl.y, cl.z}, q[3];
    int inside = 1;
    for (int i = 0; i < 3; i++) {
        q[i] = fmin(fmax(c[i], -h[i]), h[i]);
        inside &= q[i] == c[i];
    }
    double rs = a->sweep + b->sweep;
    if (!inside) {
        imp_vec3 diff = imp_v3(q[0] - c[0], q[1] - c[1], q[2] - c[2]);
        double d = imp_v3_len(diff);
        imp_vec3 n = imp_m3_mulv(&b->rot, imp_v3_scale(diff, 1.0 / d));
        imp_vec3 qw = imp_v3_add(b->origin, imp_m3_mulv(&b->rot, imp_v3_load(q)));
        finish(out, n, imp_v3_madd(a->origin, a->sweep, n), imp_v3_madd(qw, -b->sweep, n), d - rs,
               IMP_NP_ANALYTIC);
        return;
    }
    int k = 0;
    for (int i = 1; i < 3; i++) {
        if (h[i] - fabs(c[i]) < h[k] - fabs(c[k])) {
            k = i;
        }
    }
    double s = c[k] >= 0.0 ? 1.0 : -1.0, depth = h[k] - fabs(c[k]) + rs;
    double nl[3] = {0, 0, 0};
    nl[k] = -s;
    imp_vec3 n = imp_m3_mulv(&b->rot, imp_v3_load(nl));
    q[k] = s * (h[k] + b->sweep);
    imp_vec3 pb = imp_v3_add(b->origin, imp_m3_mulv(&b->rot, imp_v3_load(q)));
    finish(out, n, imp_v3_madd(a->origin, a->sweep, n), pb, -depth, IMP_NP_ANALYTIC);
}

/* any shape (a) against a wall (b): the deepest point of a below the wall's plane */
static void pair_any_wall(const imp_support3d *a, const imp_support3d *b, imp_contact3d *out)
{
    imp_vec3 m = imp_m3_mulv(&b->rot, imp_v3_load(b->c->core));
    imp_vec3 q = imp_support3d_full(a, imp_v3_neg(m));
    double d = imp_v3_dot(m, imp_v3_sub(q, b->origin));
    finish(out, imp_v3_neg(m), q, imp_v3_madd(q, -d, m), d, IMP_NP_ANALYTIC);
}

/* ---- the general path ---- */

static int general(const imp_support3d *a, const imp_support3d *b, imp_contact3d *out)
{
    double scale = a->scale + b->scale, rs = a->sweep + b->sweep;
    imp_mink3d mc = {a, b, 0};
    imp_gjk_result g;
    imp_gjk(&mc, 1e-11 * scale, 1e-12 * scale, GJK_MAX_ITER, &g);
    out->iterations = g.iterations;
    int status = g.status == IMP_GJK_MAXITER ? IMP_NP_MAXITER : IMP_NP_OK;
    if (g.status != IMP_GJK_OVERLAP) {
        imp_vec3 n = imp_v3_normalize(imp_v3_sub(g.pb, g.pa));
        finish(out, n, imp_v3_madd(g.pa, a->sweep, n), imp_v3_madd(g.pb, -b->sweep, n), g.distance - rs,
               IMP_NP_GJK);
        return status;
    }
    imp_vec3 da[2], db[2];
    int ka = imp_support3d_core_span(a, da), kb = imp_support3d_core_span(b, db);
    if (ka < 3 && kb < 3) {
        imp_vec3 dirs[4];
        int k = 0, rank;
        for (int i = 0; i < ka; i++) {
            dirs[k++] = da[i];
        }
        for (int i = 0; i < kb; i++) {
            dirs[k++] = db[i];
        }
        imp_vec3 n = flat_normal(dirs, k, imp_v3_sub(b->centre, a->centre), &rank);
        if (rank < 3) {
            finish(out, n, imp_v3_madd(g.pa, a->sweep, n), imp_v3_madd(g.pb, -b->sweep, n), -rs, IMP_NP_FLAT);
            return status;
        }
    }
    imp_mpr_result mr;
    imp_epa_result er;
    imp_mpr(&mc, 1e-10 * scale, MPR_MAX_ITER, 1, &mr);
    out->iterations += mr.iterations;
    if (mr.status == IMP_MPR_MISS) { /* touching within rounding: GJK's points stand */
        imp_vec3 n = g.distance > 0.0 ? imp_v3_normalize(imp_v3_sub(g.pb, g.pa)) : mr.normal;
        finish(out, n, imp_v3_madd(g.pa, a->sweep, n), imp_v3_madd(g.pb, -b->sweep, n), g.distance - rs,
               IMP_NP_GJK);
        return status;
    }
    if (mr.status == IMP_MPR_HIT) {
        imp_epa(&mc, mr.tet, 1e-10 * scale, EPA_MAX_ITER, &er);
        out->iterations += er.iterations;
        if (er.status != IMP_MPR_DEGENERATE) {
            finish(out, er.normal, imp_v3_madd(er.pa, a->sweep, er.normal),
                   imp_v3_madd(er.pb, -b->sweep, er.normal), -(er.depth + rs), IMP_NP_MPR_EPA);
            return er.status == IMP_MPR_HIT ? status : IMP_NP_MAXITER;
        }
    }
    /* the cores were degenerate for MPR: the whole shapes always have volume */
    imp_mink3d mf = {a, b, 1};
    imp_mpr(&mf, 1e-10 * scale, MPR_MAX_ITER, 1, &mr);
    out->iterations += mr.iterations;
    if (mr.status == IMP_MPR_HIT) {
        imp_epa(&mf, mr.tet, 1e-10 * scale, EPA_MAX_ITER, &er);
        out->iterations += er.iterations;
        if (er.status != IMP_MPR_DEGENERATE) {
            finish(out, er.normal, er.pa, er.pb, -er.depth, IMP_NP_MPR_EPA);
            return er.status == IMP_MPR_HIT ? status : IMP_NP_MAXITER;
        }
    }
    /* last resort (not reached in the tests): the cores meet, depth at least rA + rB */
    imp_vec3 n = imp_v3_normalize(imp_v3_sub(b->centre, a->centre));
    if (!(imp_v3_len2(n) > 0.0)) {
        n = imp_v3(0, 0, 1);
    }
    finish(out, n, imp_v3_madd(g.pa, a->sweep, n), imp_v3_madd(g.pb, -b->sweep, n), -rs, IMP_NP_FLAT);
    return IMP_NP_MAXITER;
}

static void general_fn(const imp_support3d *a, const imp_support3d *b, imp_contact3d *out)
{
    out->status = general(a, b, out);
}

/* boxes: the separating axes when the cores overlap (collide3d_box.c), else the general path */
static void pair_box_box(const imp_support3d *a, const imp_support3d *b, imp_contact3d *out)
{
    if (!imp_collide3d_box_box(a, b, out)) {
        general_fn(a, b, out);
    }
}

/* collide[kind of A][kind of B]; NULL = general path. Rows and columns in the order sphere,
   ellipsoid, box, cylinder, capsule, cone, convex, wall. Pairs listed once with A <= B; the
   mirrored ones are answered by swapping (see dispatch). */
#define S pair_segments
#define X pair_sphere_box
#define W pair_any_wall
#define B pair_box_box
static const pair_fn collide[IMP_S3_KINDS][IMP_S3_KINDS] = {
    /*             sph   ell   box   cyl   cap   cone  conv  wall */
    /* sphere */ {S,    NULL, X,    NULL, S,    NULL, NULL, W},
    /* ellips */ {NULL, NULL, NULL, NULL, NULL, NULL, NULL, W},
    /* box    */ {NULL, NULL, B,    NULL, NULL, NULL, NULL, W},
    /* cyl    */ {NULL, NULL, NULL, NULL, NULL, NULL, NULL, W},
    /* capsul */ {NULL, NULL, NULL, NULL, S,    NULL, NULL, W},
    /* cone   */ {NULL, NULL, NULL, NULL, NULL, NULL, NULL, W},
    /* convex */ {NULL, NULL, NULL, NULL, NULL, NULL, NULL, W},
    /* wall   */ {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};
#undef S
#undef X
#undef W
#undef B

static void swap_result(imp_contact3d *out)
{
    double t[3];
    memcpy(t, out->point_a, sizeof t);
    memcpy(out->point_a, out->point_b, sizeof t);
    memcpy(out->point_b, t, sizeof t);
    for (int i = 0; i < 3; i++) {
        out->normal[i] = -out->normal[i];
    }
}

static int prepare(const imp_shape *a, const double *pa, const imp_shape *b, const double *pb,
                   imp_support3d *sa, imp_support3d *sb, imp_contact3d *out)
{
    memset(out, 0, sizeof *out);
    out->normal[2] = 1.0;
    const imp_convex3d *ca = imp_shape3d_data(a), *cb = imp_shape3d_data(b);
    if (ca == NULL || cb == NULL || pa == NULL || pb == NULL) {
        return out->status = IMP_NP_BADINPUT;
    }
    for (int i = 0; i < 7; i++) {
        if (!isfinite(pa[i]) || !isfinite(pb[i])) {
            return out->status = IMP_NP_BADINPUT;
        }
    }
    if (ca->kind == IMP_S3_WALL && cb->kind == IMP_S3_WALL) {
        return out->status = IMP_NP_UNSUPPORTED;
    }
    imp_support3d_init(sa, a, pa);
    imp_support3d_init(sb, b, pb);
    return IMP_NP_OK;
}

int imp_collide3d(const imp_shape *a, const double *pose_a, const imp_shape *b, const double *pose_b,
                  imp_contact3d *out)
{
    imp_support3d sa, sb;
    if (prepare(a, pose_a, b, pose_b, &sa, &sb, out) != IMP_NP_OK) {
        return out->status;
    }
    int ka = sa.c->kind, kb = sb.c->kind;
    if (collide[ka][kb] != NULL) {
        collide[ka][kb](&sa, &sb, out);
    } else if (collide[kb][ka] != NULL) {
        collide[kb][ka](&sb, &sa, out);
        swap_result(out);
    } else {
        general_fn(&sa, &sb, out);
    }
    return out->status;
}

int imp_collide3d_general(const imp_shape *a, const double *pose_a, const imp_shape *b,
                          const double *pose_b, imp_contact3d *out)
{
    imp_support3d sa, sb;
    if (prepare(a, pose_a, b, pose_b, &sa, &sb, out) != IMP_NP_OK) {
        return out->status;
    }
    if (sa.c->kind == IMP_S3_WALL || sb.c->kind == IMP_S3_WALL) {
        return imp_collide3d(a, pose_a, b, pose_b, out); /* a wall has no support point */
    }
    general_fn(&sa, &sb, out);
    return out->status;
}

int imp_collide3d_mpr(const imp_shape *a, const double *pose_a, const imp_shape *b, const double *pose_b,
                      imp_contact3d *out)
{
    imp_support3d sa, sb;
    if (prepare(a, pose_a, b, pose_b, &sa, &sb, out) != IMP_NP_OK) {
        return out->status;
    }
    if (sa.c->kind == IMP_S3_WALL || sb.c->kind == IMP_S3_WALL) {
        return out->status = IMP_NP_UNSUPPORTED;
    }
    imp_mink3d mf = {&sa, &sb, 1};
    imp_mpr_result mr;
    imp_mpr(&mf, 1e-7 * (sa.scale + sb.scale), MPR_MAX_ITER, 0, &mr);
    out->iterations = mr.iterations;
    out->method = IMP_NP_MPR_EPA;
    if (mr.status == IMP_MPR_HIT || mr.status == IMP_MPR_MAXITER) {
        finish(out, mr.normal, mr.pa, mr.pb, -mr.depth, IMP_NP_MPR_EPA);
        return out->status = mr.status == IMP_MPR_HIT ? IMP_NP_OK : IMP_NP_MAXITER;
    }
    out->distance = 0.0; /* separated (or degenerate): MPR gives no distance */
    out->method = IMP_NP_GJK;
    return out->status = mr.status == IMP_MPR_MISS ? IMP_NP_OK : IMP_NP_MAXITER;
}

const char *imp_collide3d_status_message(int status)
{
    switch (status) {
    case IMP_NP_OK: return "ok";
    case IMP_NP_MAXITER: return "iteration limit reached (the result is the best estimate)";
    case IMP_NP_BADINPUT: return "shapes must be 3D convex shapes and poses finite";
    case IMP_NP_UNSUPPORTED: return "the distance between two walls is not defined";
    default: return "unknown status";
    }
}
