/* shape3d_basic.c: the 3D convex shapes (except the hull, shape3d_hull.c): construction, exact
   mass properties, core support functions and tight bounds.

   Mass properties per unit density (derivations of the smoothed ones in shape3d_mass.c):
   sphere radius r:        V = 4/3 pi r^3, I = 2/5 V r^2 about every axis;
   ellipsoid a, b, c:      V = 4/3 pi a b c, Ixx = V (b^2 + c^2) / 5 and cyclic;
   box a x b x c:          V = a b c, Ixx = V (b^2 + c^2) / 12 and cyclic (rounded: by pieces);
   cylinder, capsule, cone: solids of revolution, by pieces of the half-section. */
#include "shape3d.h"

#include <math.h>
#include <stdlib.h>

#include "quat.h"
#include "scalar.h"
#include "shape3d_basic.h"
#include "shape3d_mass.h"

static void convex_destroy(void *p)
{
    imp_convex3d *c = p;
    if (c != NULL) {
        free(c->vert);
        free(c->tri);
        free(c->faces);
        free(c);
    }
}

/* a box's bounds along the world axis whose direction in shape coordinates is (d0, d1, d2) (a
   row of R): bounds_rot's, from locals (cen: the centroid, k: the half extents, sw: the sweep;
   stores to lo and hi might alias them) */
static inline void box_axis(double d0, double d1, double d2, const double cen3[3], const double k[3], double sw,
                            double x, double *lo, double *hi)
{
    double cen = d0 * cen3[0] + d1 * cen3[1] + d2 * cen3[2];
    double up = fabs(d0) * k[0] + fabs(d1) * k[1] + fabs(d2) * k[2];
    *hi = x + up - cen + sw;
    *lo = x + -up - cen - sw;
}

/* AABB at a pose: the support of the shape along +-each world axis, i.e. along the rows of
   R written in shape coordinates. Exact for every kind. A box's core support along d is the
   corner (sign(d_k) h_k), so d . p = |d_0| h_0 + |d_1| h_1 + |d_2| h_2 (each product the same
   number, the sum in the same order; a zero d_k gives a zero either way and a row of R is
   never all zeros) and along -d it is the same sum: written out, the same bits. bounds_rot:
   with R (row-major) made already (the 3D engine's detection has its bodies' poses). */
static void bounds_rot(const imp_convex3d *c, const imp_shape *s, const double *pose, const double *r,
                       double lo[3], double hi[3])
{
    if (c->kind == IMP_S3_BOX) {  /* the loop's box case written out: the same operations, in
                                     straight code (a body's boxes each step of the 3D engine) */
        const double cen[3] = {s->centroid[0], s->centroid[1], s->centroid[2]};
        const double k[3] = {c->core[0], c->core[1], c->core[2]};
        double sw = c->sweep, x0 = pose[0], x1 = pose[1], x2 = pose[2];
        double r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3], r4 = r[4], r5 = r[5], r6 = r[6], r7 = r[7], r8 = r[8];
        box_axis(r0, r1, r2, cen, k, sw, x0, &lo[0], &hi[0]);
        box_axis(r3, r4, r5, cen, k, sw, x1, &lo[1], &hi[1]);
        box_axis(r6, r7, r8, cen, k, sw, x2, &lo[2], &hi[2]);
        return;
    }
    for (int i = 0; i < 3; i++) {
        double d[3] = {r[3 * i], r[3 * i + 1], r[3 * i + 2]}, p[3];
        double cen = d[0] * s->centroid[0] + d[1] * s->centroid[1] + d[2] * s->centroid[2];
        imp_shape3d_core_support(c, d, p);
        double up = d[0] * p[0] + d[1] * p[1] + d[2] * p[2];
        d[0] = -d[0], d[1] = -d[1], d[2] = -d[2];
        imp_shape3d_core_support(c, d, p);
        double down = -(d[0] * p[0] + d[1] * p[1] + d[2] * p[2]);
        hi[i] = pose[i] + up - cen + c->sweep;
        lo[i] = pose[i] + down - cen - c->sweep;
    }
}

static void convex_bounds(const imp_shape *s, const double *pose, double lo[3], double hi[3])
{
    imp_mat3 r = imp_q_to_mat3(imp_q_normalize(imp_q(pose[3], pose[4], pose[5], pose[6])));
    bounds_rot(s->data, s, pose, &r.m[0][0], lo, hi);  /* (m[3][3]: its rows in a row) */
}

static void wall_bounds(const imp_shape *s, const double *pose, double lo[3], double hi[3])
{
    const imp_convex3d *c = s->data;
    imp_vec3 n = imp_q_rotate(imp_q_normalize(imp_q(pose[3], pose[4], pose[5], pose[6])),
                              imp_v3_load(c->core));
    const double nn[3] = {n.x, n.y, n.z};
    for (int i = 0; i < 3; i++) {
        lo[i] = -INFINITY;
        hi[i] = INFINITY;
    }
    /* an axis-aligned wall is bounded along its normal */
    for (int i = 0; i < 3; i++) {
        if (nn[i] == 1.0) {
            hi[i] = pose[i];
        } else if (nn[i] == -1.0) {
            lo[i] = pose[i];
        }
    }
}

static const imp_shape_class classes[IMP_S3_KINDS] = {
    {"sphere", 3, convex_destroy, convex_bounds},    {"ellipsoid", 3, convex_destroy, convex_bounds},
    {"box", 3, convex_destroy, convex_bounds},       {"cylinder", 3, convex_destroy, convex_bounds},
    {"capsule", 3, convex_destroy, convex_bounds},   {"cone", 3, convex_destroy, convex_bounds},
    {"convex", 3, convex_destroy, convex_bounds},    {"wall", 3, convex_destroy, wall_bounds},
};

const imp_convex3d *imp_shape3d_data(const imp_shape *s)
{
    if (s != NULL) {
        for (int k = 0; k < IMP_S3_KINDS; k++) {
            if (s->cls == &classes[k]) {
                return s->data;
            }
        }
    }
    return NULL;
}

int imp_shape3d_bounds_rot(const imp_shape *s, const double *pose, const double *r, double lo[3], double hi[3])
{
    const imp_convex3d *c = imp_shape3d_data(s);
    if (c == NULL || c->kind == IMP_S3_WALL) {
        return 0;
    }
    bounds_rot(c, s, pose, r, lo, hi);
    return 1;
}

const double *imp_shape3d_basic_params(const imp_shape *s)
{
    const imp_convex3d *c = imp_shape3d_data(s);
    return (c != NULL && (c->kind == IMP_S3_SPHERE || c->kind == IMP_S3_BOX)) ? c->params : NULL;
}

imp_shape *imp_shape3d_alloc(int kind, imp_convex3d **data)
{
    imp_convex3d *c = calloc(1, sizeof *c);
    if (c == NULL) {
        return NULL;
    }
    c->kind = kind;
    *data = c;
    return imp_shape_new(&classes[kind], c);
}

static double cone_inradius(double radius, double length)
{
    return radius * length / (radius + sqrt(radius * radius + length * length));
}

const char *imp_shape3d_check_smoothing(int kind, const double *p, double r)
{
    if (!(r >= 0.0) || !isfinite(r)) {
        return "must be a finite number >= 0";
    }
    switch (kind) {
    case IMP_S3_BOX:
        return r <= 0.5 * imp_min(p[0], imp_min(p[1], p[2])) ? NULL
                                                              : "must be at most half the smallest size";
    case IMP_S3_CYLINDER:
        return r <= imp_min(p[0], 0.5 * p[1]) ? NULL
                                              : "must be at most the radius and half the length";
    case IMP_S3_CONE:
        return r <= cone_inradius(p[0], p[1])
                   ? NULL
                   : "must be at most the inradius R L / (R + sqrt(R^2 + L^2)) of the cone section";
    default:
        return NULL;
    }
}

void imp_shape3d_core_support(const imp_convex3d *c, const double d[3], double out[3])
{
    switch (c->kind) {
    case IMP_S3_ELLIPSOID: {
        double a = c->core[0], b = c->core[1], cc = c->core[2];
        double n = sqrt(a * a * d[0] * d[0] + b * b * d[1] * d[1] + cc * cc * d[2] * d[2]);
        if (n > 0.0) {
            out[0] = a * a * d[0] / n;
            out[1] = b * b * d[1] / n;
            out[2] = cc * cc * d[2] / n;
        } else {
            out[0] = out[1] = out[2] = 0.0; /* zero direction: the centre, a core point */
        }
        return;
    }
    case IMP_S3_BOX:
        for (int i = 0; i < 3; i++) {
            out[i] = d[i] > 0.0 ? c->core[i] : (d[i] < 0.0 ? -c->core[i] : 0.0);
        }
        return;
    case IMP_S3_CYLINDER: {
        double q = sqrt(d[0] * d[0] + d[1] * d[1]);
        out[0] = q > 0.0 ? c->core[0] * d[0] / q : 0.0;
        out[1] = q > 0.0 ? c->core[0] * d[1] / q : 0.0;
        out[2] = d[2] > 0.0 ? c->core[1] : (d[2] < 0.0 ? -c->core[1] : 0.0);
        return;
    }
    case IMP_S3_CAPSULE:
        out[0] = out[1] = 0.0;
        out[2] = d[2] > 0.0 ? c->core[2] : (d[2] < 0.0 ? -c->core[2] : 0.0);
        return;
    case IMP_S3_CONE: {
        double q = sqrt(d[0] * d[0] + d[1] * d[1]);
        double rim = d[2] * c->core[1] + c->core[0] * q, apex = d[2] * c->core[2];
        if (apex >= rim) {
            out[0] = out[1] = 0.0;
            out[2] = c->core[2];
        } else {
            out[0] = q > 0.0 ? c->core[0] * d[0] / q : 0.0;
            out[1] = q > 0.0 ? c->core[0] * d[1] / q : 0.0;
            out[2] = c->core[1];
        }
        return;
    }
    case IMP_S3_CONVEX: { /* linear scan, O(n); the first maximum wins (deterministic) */
        const double *v = c->vert;
        int best = 0;
        double bd = d[0] * v[0] + d[1] * v[1] + d[2] * v[2];
        for (int i = 1; i < c->nvert; i++) {
            double e = d[0] * v[3 * i] + d[1] * v[3 * i + 1] + d[2] * v[3 * i + 2];
            if (e > bd) {
                bd = e;
                best = i;
            }
        }
        out[0] = v[3 * best], out[1] = v[3 * best + 1], out[2] = v[3 * best + 2];
        return;
    }
    default: /* sphere (a point core); a wall has no support point */
        out[0] = out[1] = out[2] = 0.0;
        return;
    }
}

/* The public constructors refuse sizes that are not positive finite numbers (NULL). */
static int sizes_ok(const double *v, int n)
{
    for (int i = 0; i < n; i++) {
        if (!(v[i] > 0.0) || !isfinite(v[i])) {
            return 0;
        }
    }
    return 1;
}

imp_shape *imp_shape3d_sphere(double radius)
{
    if (!sizes_ok(&radius, 1)) {
        return NULL;
    }
    imp_convex3d *c;
    imp_shape *s = imp_shape3d_alloc(IMP_S3_SPHERE, &c);
    if (s != NULL) {
        double v = 4.0 / 3.0 * IMP_PI * radius * radius * radius;
        double i = 0.4 * v * radius * radius;
        c->params[0] = radius;
        c->sweep = radius;
        c->scale = radius;
        s->measure = v;
        s->inertia = imp_m3_diag(i, i, i);
        s->radius = radius;
    }
    return s;
}

imp_shape *imp_shape3d_ellipsoid(double a, double b, double cc)
{
    if (!sizes_ok((const double[3]){a, b, cc}, 3)) {
        return NULL;
    }
    imp_convex3d *c;
    imp_shape *s = imp_shape3d_alloc(IMP_S3_ELLIPSOID, &c);
    if (s != NULL) {
        double v = 4.0 / 3.0 * IMP_PI * a * b * cc;
        c->params[0] = c->core[0] = a;
        c->params[1] = c->core[1] = b;
        c->params[2] = c->core[2] = cc;
        c->scale = imp_max(a, imp_max(b, cc));
        s->measure = v;
        s->inertia = imp_m3_diag(v * (b * b + cc * cc) / 5.0, v * (a * a + cc * cc) / 5.0,
                                 v * (a * a + b * b) / 5.0);
        s->radius = c->scale;
    }
    return s;
}

imp_shape *imp_shape3d_box_smoothed(double sx, double sy, double sz, double r)
{
    if (!sizes_ok((const double[3]){sx, sy, sz}, 3)
        || imp_shape3d_check_smoothing(IMP_S3_BOX, (const double[3]){sx, sy, sz}, r) != NULL) {
        return NULL;
    }
    imp_convex3d *c;
    imp_shape *s = imp_shape3d_alloc(IMP_S3_BOX, &c);
    if (s != NULL) {
        double v, j[3];
        c->params[0] = sx, c->params[1] = sy, c->params[2] = sz;
        c->sweep = r;
        c->core[0] = imp_max(0.0, 0.5 * sx - r);
        c->core[1] = imp_max(0.0, 0.5 * sy - r);
        c->core[2] = imp_max(0.0, 0.5 * sz - r);
        imp_box_moments(c->core, r, &v, j);
        s->measure = v;
        s->inertia = imp_m3_diag(j[1] + j[2], j[0] + j[2], j[0] + j[1]);
        s->radius = imp_v3_len(imp_v3_load(c->core)) + r;
        c->scale = s->radius;
    }
    return s;
}

imp_shape *imp_shape3d_box(double sx, double sy, double sz)
{
    return imp_shape3d_box_smoothed(sx, sy, sz, 0.0);
}

imp_shape *imp_shape3d_cylinder(double radius, double length, double r)
{
    if (!sizes_ok((const double[2]){radius, length}, 2)
        || imp_shape3d_check_smoothing(IMP_S3_CYLINDER, (const double[2]){radius, length}, r) != NULL) {
        return NULL;
    }
    imp_convex3d *c;
    imp_shape *s = imp_shape3d_alloc(IMP_S3_CYLINDER, &c);
    if (s != NULL) {
        double rc = imp_max(0.0, radius - r), h = imp_max(0.0, 0.5 * length - r), hh = 0.5 * length;
        imp_rev_moments m = {0, 0, 0, 0};
        double body[8] = {0, -h, radius, -h, radius, h, 0, h};
        double top[8] = {0, h, rc, h, rc, hh, 0, hh};
        double bot[8] = {0, -hh, rc, -hh, rc, -h, 0, -h};
        c->params[0] = radius, c->params[1] = length;
        c->sweep = r;
        c->core[0] = rc, c->core[1] = h;
        imp_rev_add_polygon(&m, body, 4);
        imp_rev_add_polygon(&m, top, 4);
        imp_rev_add_polygon(&m, bot, 4);
        imp_rev_add_sector(&m, rc, h, r, 0.0, 0.5 * IMP_PI);
        imp_rev_add_sector(&m, rc, -h, r, -0.5 * IMP_PI, 0.0);
        imp_rev_finish(&m, s);
        s->centroid[2] = 0.0; /* symmetric: exactly zero */
        s->radius = sqrt(rc * rc + h * h) + r;
        c->scale = s->radius;
    }
    return s;
}

imp_shape *imp_shape3d_capsule(double radius, double length)
{
    if (!sizes_ok(&radius, 1) || !(length >= 0.0) || !isfinite(length)) {
        return NULL;
    }
    imp_convex3d *c;
    imp_shape *s = imp_shape3d_alloc(IMP_S3_CAPSULE, &c);
    if (s != NULL) {
        double h = 0.5 * length;
        imp_rev_moments m = {0, 0, 0, 0};
        double body[8] = {0, -h, radius, -h, radius, h, 0, h};
        c->params[0] = radius, c->params[1] = length;
        c->sweep = radius;
        c->core[2] = h;
        imp_rev_add_polygon(&m, body, 4);
        imp_rev_add_sector(&m, 0.0, h, radius, 0.0, 0.5 * IMP_PI);
        imp_rev_add_sector(&m, 0.0, -h, radius, -0.5 * IMP_PI, 0.0);
        imp_rev_finish(&m, s);
        s->centroid[2] = 0.0;
        s->radius = h + radius;
        c->scale = s->radius;
    }
    return s;
}

/* The rounded cone is inscribed in the sharp cone (base radius R at z = 0, apex at z = L,
   slant s = sqrt(R^2 + L^2)): its core is the sharp cone offset inwards by r, with the base
   lifted to z = r, the apex lowered to L - r s / R and base radius R - r (R + s) / L (the same
   half-angle). Half-section pieces: the core triangle, the strip [0, Rc] x [0, r] below the
   base, the strip of width r outside the slant edge, and the sectors at the rim (from the
   base normal -z to the slant normal n = (L, R) / s) and at the apex (from n to +z). */
imp_shape *imp_shape3d_cone(double radius, double length, double r)
{
    if (!sizes_ok((const double[2]){radius, length}, 2)
        || imp_shape3d_check_smoothing(IMP_S3_CONE, (const double[2]){radius, length}, r) != NULL) {
        return NULL;
    }
    imp_convex3d *c;
    imp_shape *s = imp_shape3d_alloc(IMP_S3_CONE, &c);
    if (s != NULL) {
        double sl = sqrt(radius * radius + length * length);
        double zb = r, za = imp_max(zb, length - r * sl / radius);
        double rc = imp_max(0.0, radius - r * (radius + sl) / length);
        double nr = length / sl, nz = radius / sl, phi = atan2(radius, length);
        imp_rev_moments m = {0, 0, 0, 0};
        double triangle[6] = {0, zb, rc, zb, 0, za};
        c->params[0] = radius, c->params[1] = length;
        c->sweep = r;
        c->core[0] = rc, c->core[1] = zb, c->core[2] = za;
        imp_rev_add_polygon(&m, triangle, 3);
        if (r > 0.0) {
            double below[8] = {0, 0, rc, 0, rc, zb, 0, zb};
            double strip[8] = {rc, zb, rc + r * nr, zb + r * nz, r * nr, za + r * nz, 0, za};
            imp_rev_add_polygon(&m, below, 4);
            imp_rev_add_polygon(&m, strip, 4);
        }
        imp_rev_add_sector(&m, rc, zb, r, -0.5 * IMP_PI, phi);
        imp_rev_add_sector(&m, 0.0, za, r, phi, 0.5 * IMP_PI);
        imp_rev_finish(&m, s);
        double zc = s->centroid[2];
        s->radius = imp_max(fabs(za - zc), sqrt(rc * rc + (zb - zc) * (zb - zc))) + r;
        c->scale = s->radius;
    }
    return s;
}

imp_shape *imp_shape3d_wall(const double *normal)
{
    imp_vec3 n = normal != NULL ? imp_v3_load(normal) : imp_v3(0, 0, 1);
    double l = imp_v3_len(n);
    if (!(l > 0.0) || !isfinite(l)) {
        return NULL;
    }
    imp_convex3d *c;
    imp_shape *s = imp_shape3d_alloc(IMP_S3_WALL, &c);
    if (s != NULL) {
        imp_v3_store(c->core, imp_v3_scale(n, 1.0 / l));
        c->scale = 1.0;
        s->measure = INFINITY;
        s->inertia = imp_m3_diag(INFINITY, INFINITY, INFINITY);
        s->radius = INFINITY;
    }
    return s;
}
