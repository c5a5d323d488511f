/* proximity.c: analytic signed distances between pairs of simple shapes. */
#include "proximity.h"

#include <string.h>

#include "quat.h"
#include "shape2d_basic.h"
#include "shape3d_basic.h"
#include "vec2.h"

enum { K_NONE, K_CIRCLE, K_RECT, K_SPHERE, K_BOX };

static int kind_of(const imp_shape *s)
{
    const char *n = s->cls->name;
    if (s->dim == 2 && imp_shape2d_basic_params(s) != NULL) {
        return strcmp(n, "circle") == 0 ? K_CIRCLE : K_RECT;
    }
    if (s->dim == 3 && imp_shape3d_basic_params(s) != NULL) {
        return strcmp(n, "sphere") == 0 ? K_SPHERE : K_BOX;
    }
    return K_NONE;
}

int imp_shape_ball_radius(const imp_shape *s, double *radius)
{
    int k = kind_of(s);
    if (k == K_CIRCLE || k == K_SPHERE) {
        *radius = k == K_CIRCLE ? imp_shape2d_basic_params(s)[0] : imp_shape3d_basic_params(s)[0];
        return 1;
    }
    return 0;
}

void imp_proximity_flip(imp_proximity *p)
{
    for (int k = 0; k < 3; k++) {
        double t = p->point_a[k];
        p->point_a[k] = p->point_b[k];
        p->point_b[k] = t;
        p->normal[k] = -p->normal[k];
    }
}

/* two balls (2D or 3D: dim numbers of position) */
static void balls(int dim, const double *ca, double ra, const double *cb, double rb, imp_proximity *o)
{
    double d[3] = {0, 0, 0}, len2 = 0.0;
    for (int k = 0; k < dim; k++) {
        d[k] = cb[k] - ca[k];
        len2 += d[k] * d[k];
    }
    double len = sqrt(len2);
    double n[3] = {1.0, 0.0, 0.0};  /* coincident centres: any direction; +x, deterministic */
    if (len > 0.0) {
        for (int k = 0; k < dim; k++) {
            n[k] = d[k] / len;
        }
    }
    o->distance = len - ra - rb;
    for (int k = 0; k < 3; k++) {
        double a = k < dim ? ca[k] : 0.0, b = k < dim ? cb[k] : 0.0;
        o->normal[k] = k < dim ? n[k] : 0.0;
        o->point_a[k] = a + ra * o->normal[k];
        o->point_b[k] = b - rb * o->normal[k];
    }
}

static void circle_circle(const imp_shape *a, const double *pa, const imp_shape *b, const double *pb,
                          imp_proximity *o)
{
    balls(2, pa, imp_shape2d_basic_params(a)[0], pb, imp_shape2d_basic_params(b)[0], o);
}

static void sphere_sphere(const imp_shape *a, const double *pa, const imp_shape *b, const double *pb,
                          imp_proximity *o)
{
    balls(3, pa, imp_shape3d_basic_params(a)[0], pb, imp_shape3d_basic_params(b)[0], o);
}

/* A box (half extents e, n = 2 or 3 axes, local point p of the ball centre): the closest point q
   of the box and the outward unit normal m at q towards p (local frame); returns the signed
   distance from p to the box surface (negative inside). */
static double box_point(int n, const double *e, const double *p, double *q, double *m)
{
    int inside = 1;
    double d2 = 0.0;
    for (int k = 0; k < n; k++) {
        q[k] = p[k] < -e[k] ? -e[k] : (p[k] > e[k] ? e[k] : p[k]);
        inside &= q[k] == p[k];
        d2 += (p[k] - q[k]) * (p[k] - q[k]);
    }
    if (!inside) {
        double d = sqrt(d2);
        for (int k = 0; k < n; k++) {
            m[k] = (p[k] - q[k]) / d;
        }
        return d;
    }
    /* inside: the nearest face (lowest axis first on ties) */
    int best = 0;
    double best_gap = e[0] - fabs(p[0]);
    for (int k = 1; k < n; k++) {
        double gap = e[k] - fabs(p[k]);
        if (gap < best_gap) {
            best_gap = gap;
            best = k;
        }
    }
    for (int k = 0; k < n; k++) {
        m[k] = 0.0;
    }
    double s = p[best] < 0.0 ? -1.0 : 1.0;
    m[best] = s;
    q[best] = s * e[best];
    return -best_gap;
}

static void rect_circle(const imp_shape *a, const double *pa, const imp_shape *b, const double *pb,
                        imp_proximity *o)
{
    const double *wh = imp_shape2d_basic_params(a);
    double e[2] = {0.5 * wh[0], 0.5 * wh[1]}, r = imp_shape2d_basic_params(b)[0];
    double c = cos(pa[2]), s = sin(pa[2]);
    imp_vec2 local = imp_v2_rotate_cs(imp_v2(pb[0] - pa[0], pb[1] - pa[1]), c, -s);
    double p[2] = {local.x, local.y}, q[2], m[2];
    double d = box_point(2, e, p, q, m);
    imp_vec2 n = imp_v2_rotate_cs(imp_v2(m[0], m[1]), c, s);
    imp_vec2 qa = imp_v2_add(imp_v2(pa[0], pa[1]), imp_v2_rotate_cs(imp_v2(q[0], q[1]), c, s));
    o->distance = d - r;
    o->normal[0] = n.x, o->normal[1] = n.y, o->normal[2] = 0.0;
    o->point_a[0] = qa.x, o->point_a[1] = qa.y, o->point_a[2] = 0.0;
    o->point_b[0] = pb[0] - r * n.x, o->point_b[1] = pb[1] - r * n.y, o->point_b[2] = 0.0;
}

static void box_sphere(const imp_shape *a, const double *pa, const imp_shape *b, const double *pb,
                       imp_proximity *o)
{
    const double *sz = imp_shape3d_basic_params(a);
    double e[3] = {0.5 * sz[0], 0.5 * sz[1], 0.5 * sz[2]}, r = imp_shape3d_basic_params(b)[0];
    imp_quat qa = imp_q_normalize(imp_q(pa[3], pa[4], pa[5], pa[6]));
    imp_vec3 local = imp_q_unrotate(qa, imp_v3_sub(imp_v3_load(pb), imp_v3_load(pa)));
    double p[3] = {local.x, local.y, local.z}, q[3], m[3];
    double d = box_point(3, e, p, q, m);
    imp_vec3 n = imp_q_rotate(qa, imp_v3_load(m));
    imp_vec3 ca = imp_v3_add(imp_v3_load(pa), imp_q_rotate(qa, imp_v3_load(q)));
    o->distance = d - r;
    imp_v3_store(o->normal, n);
    imp_v3_store(o->point_a, ca);
    imp_v3_store(o->point_b, imp_v3_madd(imp_v3_load(pb), -r, n));
}

/* corners of a posed rectangle, counter-clockwise */
static void rect_corners(const double *wh, const double *pose, imp_vec2 v[4])
{
    double c = cos(pose[2]), s = sin(pose[2]);
    const double sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
    for (int i = 0; i < 4; i++) {
        imp_vec2 l = imp_v2(0.5 * wh[0] * sx[i], 0.5 * wh[1] * sy[i]);
        v[i] = imp_v2_add(imp_v2(pose[0], pose[1]), imp_v2_rotate_cs(l, c, s));
    }
}

static imp_vec2 closest_on_segment(imp_vec2 p, imp_vec2 a, imp_vec2 b)
{
    imp_vec2 ab = imp_v2_sub(b, a);
    double t = imp_v2_dot(imp_v2_sub(p, a), ab) / imp_v2_dot(ab, ab);
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    return imp_v2_madd(a, t, ab);
}

/* Two rectangles by the separating-axis theorem. Penetrating: the axis of least overlap gives
   the normal and depth; the point is the deepest corner of the other rectangle (one point per
   pair). Apart: the exact distance, the least corner-to-edge distance. */
static void rect_rect(const imp_shape *a, const double *pa, const imp_shape *b, const double *pb,
                      imp_proximity *o)
{
    imp_vec2 va[4], vb[4];
    rect_corners(imp_shape2d_basic_params(a), pa, va);
    rect_corners(imp_shape2d_basic_params(b), pb, vb);
    imp_vec2 axes[4] = {imp_v2(cos(pa[2]), sin(pa[2])), imp_v2(-sin(pa[2]), cos(pa[2])),
                        imp_v2(cos(pb[2]), sin(pb[2])), imp_v2(-sin(pb[2]), cos(pb[2]))};
    imp_vec2 ab = imp_v2(pb[0] - pa[0], pb[1] - pa[1]);
    double best = -INFINITY;
    imp_vec2 best_n = imp_v2(1, 0);
    int separated = 0;
    for (int i = 0; i < 4; i++) {
        imp_vec2 n = imp_v2_dot(axes[i], ab) < 0.0 ? imp_v2_neg(axes[i]) : axes[i];
        double max_a = -INFINITY, min_b = INFINITY;
        for (int k = 0; k < 4; k++) {
            max_a = fmax(max_a, imp_v2_dot(va[k], n));
            min_b = fmin(min_b, imp_v2_dot(vb[k], n));
        }
        double gap = min_b - max_a;  /* > 0: separated along n */
        separated |= gap > 0.0;
        if (gap > best) {
            best = gap;
            best_n = n;
        }
    }
    if (separated) {
        double dmin = INFINITY;
        imp_vec2 qa = va[0], qb = vb[0];
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++) {
                imp_vec2 c1 = closest_on_segment(va[i], vb[j], vb[(j + 1) % 4]);
                double d1 = imp_v2_dist(va[i], c1);
                if (d1 < dmin) {
                    dmin = d1, qa = va[i], qb = c1;
                }
                imp_vec2 c2 = closest_on_segment(vb[i], va[j], va[(j + 1) % 4]);
                double d2 = imp_v2_dist(vb[i], c2);
                if (d2 < dmin) {
                    dmin = d2, qa = c2, qb = vb[i];
                }
            }
        }
        imp_vec2 n = imp_v2_normalize(imp_v2_sub(qb, qa));
        o->distance = dmin;
        o->normal[0] = n.x, o->normal[1] = n.y;
        o->point_a[0] = qa.x, o->point_a[1] = qa.y;
        o->point_b[0] = qb.x, o->point_b[1] = qb.y;
        o->normal[2] = o->point_a[2] = o->point_b[2] = 0.0;
        return;
    }
    /* deepest corner of B along -n (first on ties) */
    int deep = 0;
    for (int k = 1; k < 4; k++) {
        if (imp_v2_dot(vb[k], best_n) < imp_v2_dot(vb[deep], best_n)) {
            deep = k;
        }
    }
    imp_vec2 qb = vb[deep], qa = imp_v2_madd(qb, -best, best_n);
    o->distance = best;
    o->normal[0] = best_n.x, o->normal[1] = best_n.y;
    o->point_a[0] = qa.x, o->point_a[1] = qa.y;
    o->point_b[0] = qb.x, o->point_b[1] = qb.y;
    o->normal[2] = o->point_a[2] = o->point_b[2] = 0.0;
}

imp_proximity_fn imp_proximity_find(const imp_shape *a, const imp_shape *b, int *swap)
{
    int ka = kind_of(a), kb = kind_of(b);
    *swap = 0;
    if (ka == K_NONE || kb == K_NONE || a->dim != b->dim) {
        return NULL;
    }
    if (ka == K_CIRCLE && kb == K_CIRCLE) {
        return circle_circle;
    }
    if (ka == K_SPHERE && kb == K_SPHERE) {
        return sphere_sphere;
    }
    if (ka == K_RECT && kb == K_RECT) {
        return rect_rect;
    }
    if ((ka == K_RECT && kb == K_CIRCLE) || (ka == K_CIRCLE && kb == K_RECT)) {
        *swap = ka == K_CIRCLE;
        return rect_circle;
    }
    if ((ka == K_BOX && kb == K_SPHERE) || (ka == K_SPHERE && kb == K_BOX)) {
        *swap = ka == K_SPHERE;
        return box_sphere;
    }
    return NULL;
}

int imp_proximity_query(const imp_shape *a, const double *pose_a, const imp_shape *b,
                        const double *pose_b, imp_proximity *out)
{
    int swap;
    imp_proximity_fn fn = imp_proximity_find(a, b, &swap);
    if (fn == NULL) {
        return -1;
    }
    if (swap) {
        fn(b, pose_b, a, pose_a, out);
        imp_proximity_flip(out);
    } else {
        fn(a, pose_a, b, pose_b, out);
    }
    return 0;
}
