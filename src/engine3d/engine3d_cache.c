/* engine3d_cache.c: contact recycling (engine3d_cache.h): a pair's manifold kept in its bodies'
   frames, the test that it may be reused, and its points rebuilt at the current poses. */
#include <math.h>
#include <string.h>

#include "engine3d_cache.h"
#include "scalar.h"
#include "quat.h"
#include "shape3d.h"

/* the thresholds of engine3d_cache.h */
#define MOVE_OF_TOL 0.01     /* D <= 0.01 distance_tol */
#define MOVE_OF_SCALE 1e-3   /* D <= 1e-3 of the smaller shape's scale */
#define CHORD_MAX 2e-3       /* 2 sin(theta / 2): theta <= about 1e-3 rad */
#define MARGIN_BAND 0.25     /* |margin - margin0| <= 0.25 distance_tol */

/* manifold3d.h's keys: bits 30-31 the kind, bit 29 (clipped points) the reference is B */
#define KEY_KIND(k) ((k) >> 30)
#define KIND_CLIP 0u
#define KIND_WALL 1u

void imp_e3_pose_of(const double *y, imp_e3_pose *out)
{
    imp_quat q = imp_q_normalize(imp_q(y[3], y[4], y[5], y[6]));
    imp_mat3 r = imp_q_to_mat3(q);
    for (int i = 0; i < 3; i++) {
        out->x[i] = y[i];
        for (int j = 0; j < 3; j++) {
            out->r[3 * i + j] = r.m[i][j];
        }
    }
    out->q[0] = q.w;
    out->q[1] = q.x;
    out->q[2] = q.y;
    out->q[3] = q.z;
}

/* R v and R^T v (inline: the recycled points call them per point) */
static inline void rot(const double *r, const double v[3], double out[3])
{
    out[0] = r[0] * v[0] + r[1] * v[1] + r[2] * v[2];
    out[1] = r[3] * v[0] + r[4] * v[1] + r[5] * v[2];
    out[2] = r[6] * v[0] + r[7] * v[1] + r[8] * v[2];
}

static inline void rot_t(const double *r, const double v[3], double out[3])
{
    out[0] = r[0] * v[0] + r[3] * v[1] + r[6] * v[2];
    out[1] = r[1] * v[0] + r[4] * v[1] + r[7] * v[2];
    out[2] = r[2] * v[0] + r[5] * v[1] + r[8] * v[2];
}

/* x_B - x_A in A's frame, x_A - x_B in B's frame, q_A* q_B */
static void relative(const imp_e3_pose *pa, const imp_e3_pose *pb, double dab[3], double dba[3], double q[4])
{
    const double d[3] = {pb->x[0] - pa->x[0], pb->x[1] - pa->x[1], pb->x[2] - pa->x[2]};
    const double md[3] = {-d[0], -d[1], -d[2]};
    rot_t(pa->r, d, dab);
    rot_t(pb->r, md, dba);
    imp_quat r = imp_q_mul(imp_q_conj(imp_q(pa->q[0], pa->q[1], pa->q[2], pa->q[3])),
                           imp_q(pb->q[0], pb->q[1], pb->q[2], pb->q[3]));
    q[0] = r.w;
    q[1] = r.x;
    q[2] = r.y;
    q[3] = r.z;
}

int imp_e3_manifold_ref(const imp_manifold3d *m, const imp_shape *a, const imp_shape *b)
{
    unsigned k = m->points[0].key;
    if (KEY_KIND(k) == KIND_CLIP) {
        return (int)((k >> 29) & 1u);
    }
    if (KEY_KIND(k) == KIND_WALL) {
        const imp_convex3d *cb = imp_shape3d_data(b);
        (void)a;
        return cb != NULL && cb->kind == IMP_S3_WALL;
    }
    return 0;
}

void imp_e3_cache_store(imp_e3_cached *c, int sa, int sb, unsigned gen_a, unsigned gen_b,
                        const imp_manifold3d *m, int ref, const imp_e3_pose *pa, const imp_e3_pose *pb,
                        double margin)
{
    c->sa = sa;
    c->sb = sb;
    c->gen_a = gen_a;
    c->gen_b = gen_b;
    c->ref = ref;
    c->margin = margin;
    relative(pa, pb, c->dab, c->dba, c->qrel);
    rot_t(ref ? pb->r : pa->r, m->normal, c->normal);
    c->count = m->count;
    c->gap = -1.0;
    for (int k = 0; k < m->count; k++) {
        const imp_manifold3d_point *p = &m->points[k];
        const double da[3] = {p->point_a[0] - pa->x[0], p->point_a[1] - pa->x[1], p->point_a[2] - pa->x[2]};
        const double db[3] = {p->point_b[0] - pb->x[0], p->point_b[1] - pb->x[1], p->point_b[2] - pb->x[2]};
        c->key[k] = p->key;
        rot_t(pa->r, da, c->la[k]);
        rot_t(pb->r, db, c->lb[k]);
    }
}

static double norm3(const double v[3]) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

/* Whether D of engine3d_cache.h since c was stored is within limit (D <= limit, or D < limit
   when strict) with the chord of the rotation at most chord_max: the chord first, then the
   move seen from A, the one seen from B only when needed (D is the smaller of the two) */
static int moved_within(const imp_e3_cached *c, const imp_e3_pose *pa, const imp_e3_pose *pb, double rad_a,
                        double rad_b, double limit, int strict, double chord_max)
{
    imp_quat q = imp_q_mul(imp_q_conj(imp_q(pa->q[0], pa->q[1], pa->q[2], pa->q[3])),
                           imp_q(pb->q[0], pb->q[1], pb->q[2], pb->q[3]));
    /* the rotation since: q0* q, whose vector part has length sin(theta / 2) */
    imp_quat dq = imp_q_mul(imp_q_conj(imp_q(c->qrel[0], c->qrel[1], c->qrel[2], c->qrel[3])), q);
    double chord = 2.0 * sqrt(dq.x * dq.x + dq.y * dq.y + dq.z * dq.z);
    if (!(chord <= chord_max)) {
        return 0;
    }
    const double d[3] = {pb->x[0] - pa->x[0], pb->x[1] - pa->x[1], pb->x[2] - pa->x[2]};
    double dab[3];
    rot_t(pa->r, d, dab);
    const double ea[3] = {dab[0] - c->dab[0], dab[1] - c->dab[1], dab[2] - c->dab[2]};
    double move_a = norm3(ea) + (isfinite(rad_b) ? chord * rad_b : INFINITY);
    if (strict ? move_a < limit : move_a <= limit) {
        return 1;
    }
    const double md[3] = {-d[0], -d[1], -d[2]};
    double dba[3];
    rot_t(pb->r, md, dba);
    const double eb[3] = {dba[0] - c->dba[0], dba[1] - c->dba[1], dba[2] - c->dba[2]};
    double move_b = norm3(eb) + (isfinite(rad_a) ? chord * rad_a : INFINITY);
    return strict ? move_b < limit : move_b <= limit;
}

void imp_e3_cache_store_gap(imp_e3_cached *c, int sa, int sb, unsigned gen_a, unsigned gen_b, double gap,
                            const imp_e3_pose *pa, const imp_e3_pose *pb)
{
    c->sa = sa;
    c->sb = sb;
    c->gen_a = gen_a;
    c->gen_b = gen_b;
    c->count = 0;
    c->gap = gap;
    relative(pa, pb, c->dab, c->dba, c->qrel);
}

int imp_e3_cache_apart(const imp_e3_cached *c, int sa, int sb, unsigned gen_a, unsigned gen_b,
                       const imp_e3_pose *pa, const imp_e3_pose *pb, double rad_a, double rad_b, double scale,
                       double margin)
{
    if (c->count != 0 || !(c->gap > 0.0) || c->sa != sa || c->sb != sb || c->gen_a != gen_a
        || c->gen_b != gen_b) {
        return 0;
    }
    return moved_within(c, pa, pb, rad_a, rad_b, c->gap - margin - 1e-9 * scale, 1, INFINITY);
}

int imp_e3_cache_fits(const imp_e3_cached *c, int sa, int sb, unsigned gen_a, unsigned gen_b,
                      const imp_e3_pose *pa, const imp_e3_pose *pb, double rad_a, double rad_b, double scale,
                      double margin, double tol)
{
    if (c->count == 0 || c->sa != sa || c->sb != sb || c->gen_a != gen_a || c->gen_b != gen_b
        || !(fabs(margin - c->margin) <= MARGIN_BAND * tol)) {
        return 0;
    }
    return moved_within(c, pa, pb, rad_a, rad_b, imp_fmin(MOVE_OF_TOL * tol, MOVE_OF_SCALE * scale), 0, CHORD_MAX);
}

void imp_e3_cache_points(const imp_e3_cached *c, const imp_e3_pose *pa, const imp_e3_pose *pb, double margin,
                         imp_manifold3d *out)
{
    double n[3];
    rot(c->ref ? pb->r : pa->r, c->normal, n);
    out->status = IMP_NP_OK;
    memcpy(out->normal, n, sizeof n);
    out->count = 0;
    for (int k = 0; k < c->count; k++) {
        double wa[3], wb[3];
        rot(pa->r, c->la[k], wa);
        rot(pb->r, c->lb[k], wb);
        for (int i = 0; i < 3; i++) {
            wa[i] += pa->x[i];
            wb[i] += pb->x[i];
        }
        double d = (wb[0] - wa[0]) * n[0] + (wb[1] - wa[1]) * n[1] + (wb[2] - wa[2]) * n[2];
        if (!(d <= margin)) {
            continue;
        }
        imp_manifold3d_point *p = &out->points[out->count++];
        p->key = c->key[k];
        p->distance = d;
        for (int i = 0; i < 3; i++) {  /* the reference point: the incident one's projection */
            if (c->ref) {
                p->point_a[i] = wa[i];
                p->point_b[i] = wa[i] + d * n[i];
            } else {
                p->point_b[i] = wb[i];
                p->point_a[i] = wb[i] - d * n[i];
            }
        }
    }
}
