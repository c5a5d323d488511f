/* proximity.c: distances and contact manifolds between posed shapes, on top of the 2D and 3D
   geometry modules. */
#include "proximity.h"

#include <string.h>

#include "collide2d.h"
#include "collide3d.h"
#include "distance2d.h"
#include "quat.h"
#include "shape2d_basic.h"
#include "shape3d.h"

int imp_shape_ball_radius(const imp_shape *s, double *radius)
{
    if (s->dim == 2) {
        const double *p = imp_shape2d_basic_params(s);
        if (p != NULL && strcmp(s->cls->name, "circle") == 0) {
            *radius = p[0];
            return 1;
        }
        return 0;
    }
    const imp_convex3d *c = imp_shape3d_data(s);
    if (c != NULL && c->kind == IMP_S3_SPHERE) {
        *radius = c->params[0];
        return 1;
    }
    return 0;
}

int imp_proximity_supported(const imp_shape *a, const imp_shape *b)
{
    if (a->dim != b->dim) {
        return 0;
    }
    if (a->dim == 2) {
        return 1;  /* every 2D shape is a polygon of polygon2d.h */
    }
    const imp_convex3d *ca = imp_shape3d_data(a), *cb = imp_shape3d_data(b);
    return ca != NULL && cb != NULL && !(ca->kind == IMP_S3_WALL && cb->kind == IMP_S3_WALL);
}

int imp_proximity_query(const imp_shape *a, const double *pose_a, const imp_shape *b,
                        const double *pose_b, imp_proximity *out)
{
    if (!imp_proximity_supported(a, b)) {
        return -1;
    }
    memset(out, 0, sizeof *out);
    if (a->dim == 2) {
        imp_distance2d d;
        if (imp_collide2d_distance(a, pose_a, b, pose_b, &d) != 0) {
            return -1;
        }
        out->distance = d.distance;
        for (int k = 0; k < 2; k++) {
            out->normal[k] = d.normal[k];
            out->point_a[k] = d.point_a[k];
            out->point_b[k] = d.point_b[k];
        }
        return 0;
    }
    imp_contact3d c;
    int st = imp_collide3d(a, pose_a, b, pose_b, &c);
    if (st != IMP_NP_OK && st != IMP_NP_MAXITER) {
        return -1;
    }
    out->distance = c.distance;
    memcpy(out->normal, c.normal, sizeof out->normal);
    memcpy(out->point_a, c.point_a, sizeof out->point_a);
    memcpy(out->point_b, c.point_b, sizeof out->point_b);
    return 0;
}

static int single_point(const imp_proximity *q, imp_cpoint *out)
{
    if (!(q->distance < 0.0)) {
        return 0;
    }
    out->depth = -q->distance;
    memcpy(out->normal, q->normal, sizeof out->normal);
    memcpy(out->point_a, q->point_a, sizeof out->point_a);
    memcpy(out->point_b, q->point_b, sizeof out->point_b);
    return 1;
}

/* 2D: every penetrating feature pair (decorated vertices excluded: they are for fast
   collisions only) */
static int manifold2d(const imp_shape *a, const double *pa, const imp_shape *b, const double *pb,
                      const imp_proximity *q, imp_cpoint *out)
{
    imp_hit2d hits[IMP_MANIFOLD_MAX];
    int n = imp_collide2d_penetrations(a, pa, b, pb, hits, IMP_MANIFOLD_MAX);
    if (n <= 0 || n > IMP_MANIFOLD_MAX) {
        return single_point(q, out);
    }
    int m = 0;
    for (int i = 0; i < n; i++) {
        const imp_hit2d *h = &hits[i];
        if (h->decorated || !(h->distance < 0.0)) {
            continue;
        }
        imp_cpoint *c = &out[m++];
        memset(c, 0, sizeof *c);
        c->depth = -h->distance;
        /* normals point out of the normal body; ids: 0 is a, 1 is b */
        double s = h->normal_body == 0 ? 1.0 : -1.0;
        const double *on_a = h->normal_body == 0 ? h->point : h->point_primary;
        const double *on_b = h->normal_body == 0 ? h->point_primary : h->point;
        for (int k = 0; k < 2; k++) {
            c->normal[k] = s * h->normal[k];
            c->point_a[k] = on_a[k];
            c->point_b[k] = on_b[k];
        }
    }
    return m > 0 ? m : single_point(q, out);
}

/* Signed distance from world point p to the core of a box or wall shape, with the outward
   normal and the closest core point (world). */
static double core_distance(const imp_convex3d *c, const double *pose, const double *p,
                            double n[3], double q[3])
{
    imp_quat r = imp_q_normalize(imp_q(pose[3], pose[4], pose[5], pose[6]));
    imp_vec3 local = imp_q_unrotate(r, imp_v3_sub(imp_v3_load(p), imp_v3_load(pose)));
    if (c->kind == IMP_S3_WALL) {
        imp_vec3 m = imp_v3_load(c->core);
        double d = imp_v3_dot(m, local);
        imp_v3_store(n, imp_q_rotate(r, m));
        imp_v3_store(q, imp_v3_madd(imp_v3_load(p), -d, imp_v3_load(n)));
        return d;
    }
    double e[3] = {c->core[0], c->core[1], c->core[2]}, l[3] = {local.x, local.y, local.z};
    double cl[3], m[3];
    int inside = 1;
    double d2 = 0.0;
    for (int k = 0; k < 3; k++) {
        cl[k] = l[k] < -e[k] ? -e[k] : (l[k] > e[k] ? e[k] : l[k]);
        inside &= cl[k] == l[k];
        d2 += (l[k] - cl[k]) * (l[k] - cl[k]);
    }
    double d;
    if (!inside) {
        d = sqrt(d2);
        for (int k = 0; k < 3; k++) {
            m[k] = (l[k] - cl[k]) / d;
        }
    } else {  /* inside the core: the nearest face, lowest axis on ties */
        int best = 0;
        for (int k = 1; k < 3; k++) {
            if (e[k] - fabs(l[k]) < e[best] - fabs(l[best])) {
                best = k;
            }
        }
        d = -(e[best] - fabs(l[best]));
        m[0] = m[1] = m[2] = 0.0;
        m[best] = l[best] < 0.0 ? -1.0 : 1.0;
        cl[best] = m[best] * e[best];
    }
    imp_v3_store(n, imp_q_rotate(r, imp_v3_load(m)));
    imp_v3_store(q, imp_v3_add(imp_v3_load(pose), imp_q_rotate(r, imp_v3_load(cl))));
    return d;
}

/* the 8 core corners of a box shape, world */
static void box_corners(const imp_convex3d *c, const double *pose, double v[8][3])
{
    imp_quat r = imp_q_normalize(imp_q(pose[3], pose[4], pose[5], pose[6]));
    for (int i = 0; i < 8; i++) {
        imp_vec3 l = imp_v3((i & 1) ? c->core[0] : -c->core[0], (i & 2) ? c->core[1] : -c->core[1],
                            (i & 4) ? c->core[2] : -c->core[2]);
        imp_v3_store(v[i], imp_v3_add(imp_v3_load(pose), imp_q_rotate(r, l)));
    }
}

/* corners of box `vb` (sweep rv) that penetrate shape `s` (box or wall, sweep rs): contact
   points with the normal from s to the corner; flip = 1 when s is B */
static int corners_into(const imp_convex3d *s, const double *ps, const imp_convex3d *vbox,
                        const double *pv, int flip, imp_cpoint *out, int m)
{
    double v[8][3];
    box_corners(vbox, pv, v);
    double reach = s->sweep + vbox->sweep;
    for (int i = 0; i < 8 && m < IMP_MANIFOLD_MAX; i++) {
        double n[3], q[3];
        double d = core_distance(s, ps, v[i], n, q) - reach;
        if (!(d < 0.0)) {
            continue;
        }
        imp_cpoint *c = &out[m++];
        c->depth = -d;
        double on_s[3], on_v[3];
        for (int k = 0; k < 3; k++) {
            on_s[k] = q[k] + s->sweep * n[k];
            on_v[k] = v[i][k] - vbox->sweep * n[k];
        }
        for (int k = 0; k < 3; k++) {
            c->normal[k] = flip ? -n[k] : n[k];
            c->point_a[k] = flip ? on_v[k] : on_s[k];
            c->point_b[k] = flip ? on_s[k] : on_v[k];
        }
    }
    return m;
}

static int manifold3d(const imp_shape *a, const double *pa, const imp_shape *b, const double *pb,
                      const imp_proximity *q, imp_cpoint *out)
{
    const imp_convex3d *ca = imp_shape3d_data(a), *cb = imp_shape3d_data(b);
    int a_flat = ca->kind == IMP_S3_BOX || ca->kind == IMP_S3_WALL;
    int b_flat = cb->kind == IMP_S3_BOX || cb->kind == IMP_S3_WALL;
    if (!a_flat || !b_flat) {
        return single_point(q, out);
    }
    int m = 0;
    if (cb->kind == IMP_S3_BOX) {
        m = corners_into(ca, pa, cb, pb, 0, out, m);
    }
    if (ca->kind == IMP_S3_BOX) {
        m = corners_into(cb, pb, ca, pa, 1, out, m);
    }
    return m > 0 ? m : single_point(q, out);  /* edge on edge: the deepest point */
}

int imp_proximity_manifold(const imp_shape *a, const double *pose_a, const imp_shape *b,
                           const double *pose_b, const imp_proximity *q, imp_cpoint *out)
{
    if (a->dim == 2) {
        return manifold2d(a, pose_a, b, pose_b, q, out);
    }
    return manifold3d(a, pose_a, b, pose_b, q, out);
}
