/* raycast3d.c: segments against posed 3D convex shapes and walls, and point containment
   (raycast.h). */
#include "raycast.h"

#include <math.h>

#include "gjk.h"
#include "polyhedron.h"
#include "quat.h"

enum { CA_MAX_STEPS = 10000, GJK_MAX_ITER = 100 };

static void store_hit(imp_ray_hit *hit, double f, imp_vec3 p, imp_vec3 n)
{
    hit->fraction = f;
    imp_v3_store(hit->point, p);
    imp_v3_store(hit->normal, imp_v3_normalize(n));
}

/* A point as a support mapping: the core of a sphere (a point) with no sweep. */
static const imp_convex3d point_core = {IMP_S3_SPHERE, {0, 0, 0}, 0.0, {0, 0, 0}, 1.0, 0, NULL,
                                        0, NULL, NULL};

static double clampd(double v, double lo, double hi) { return v < lo ? lo : (v > hi ? hi : v); }

/* The closest point to (rho, z) of the segment a-b in a half-plane, and its squared distance. */
static double seg_closest(double r, double z, double ar, double az, double br, double bz,
                          double *cr, double *cz)
{
    double dr = br - ar, dz = bz - az, l2 = dr * dr + dz * dz;
    double t = l2 > 0.0 ? clampd(((r - ar) * dr + (z - az) * dz) / l2, 0.0, 1.0) : 0.0;
    *cr = ar + t * dr, *cz = az + t * dz;
    return (r - *cr) * (r - *cr) + (z - *cz) * (z - *cz);
}

/* The closest point of the core to q (shape coordinates), in closed form for boxes, capsules,
   cylinders and cones; 0 for the other kinds. */
static int core_closest(const imp_convex3d *c, imp_vec3 q, imp_vec3 *out)
{
    switch (c->kind) {
    case IMP_S3_BOX:
        *out = imp_v3(clampd(q.x, -c->core[0], c->core[0]), clampd(q.y, -c->core[1], c->core[1]),
                      clampd(q.z, -c->core[2], c->core[2]));
        return 1;
    case IMP_S3_CAPSULE:
        *out = imp_v3(0.0, 0.0, clampd(q.z, -c->core[2], c->core[2]));
        return 1;
    case IMP_S3_CYLINDER: {
        double rho = hypot(q.x, q.y), s = rho > c->core[0] ? c->core[0] / rho : 1.0;
        *out = imp_v3(q.x * s, q.y * s, clampd(q.z, -c->core[1], c->core[1]));
        return 1;
    }
    case IMP_S3_CONE: {
        double rb = c->core[0], zb = c->core[1], za = c->core[2];
        double rho = hypot(q.x, q.y), cr = rho, cz = q.z;
        /* inside the section: above the base and below the side line */
        double side = (rho - rb) * (za - zb) + (q.z - zb) * rb; /* > 0 outside the side */
        if (q.z < zb || side > 0.0) {
            double r1, z1, r2, z2;
            double d1 = seg_closest(rho, q.z, 0.0, zb, rb, zb, &r1, &z1);
            double d2 = seg_closest(rho, q.z, rb, zb, 0.0, za, &r2, &z2);
            cr = d1 <= d2 ? r1 : r2, cz = d1 <= d2 ? z1 : z2;
        }
        double s = rho > 0.0 ? cr / rho : 0.0;
        *out = imp_v3(q.x * s, q.y * s, cz);
        return 1;
    }
    default:
        return 0;
    }
}

/* Distance from x to the shape (core distance minus sweep, a lower bound when it comes from
   GJK; <= 0 inside). Returns 1 when x is in the core, else 0. */
static int point_distance(const imp_support3d *sp, imp_vec3 x, double *dist)
{
    imp_vec3 c;
    if (core_closest(sp->c, imp_m3_tmulv(&sp->rot, imp_v3_sub(x, sp->origin)), &c)) {
        double l = imp_v3_len(imp_v3_sub(imp_m3_tmulv(&sp->rot, imp_v3_sub(x, sp->origin)), c));
        *dist = l - sp->sweep;
        return !(l > 0.0);
    }
    imp_support3d pt;
    pt.c = &point_core;
    pt.rot = imp_m3_identity();
    pt.origin = x, pt.centre = x;
    pt.sweep = 0.0, pt.scale = sp->scale;
    imp_mink3d m = {sp, &pt, 0};
    imp_gjk_result r;
    double tol = 1e-13 * sp->scale;
    imp_gjk(&m, tol, tol, GJK_MAX_ITER, &r);
    double l = imp_v3_len(imp_v3_sub(x, r.pa));
    if (r.status == IMP_GJK_OVERLAP || !(l > tol)) {
        *dist = -sp->sweep;
        return 1;
    }
    *dist = l - tol - sp->sweep; /* |v| bounds the distance from above; the gap below */
    return 0;
}

/* The outward unit normal (world) at the surface point p of the shape. */
static imp_vec3 surface_normal(const imp_support3d *sp, imp_vec3 p)
{
    const imp_convex3d *c = sp->c;
    imp_vec3 q = imp_m3_tmulv(&sp->rot, imp_v3_sub(p, sp->origin)), n = imp_v3(0, 0, 1), k;
    if (c->kind == IMP_S3_ELLIPSOID && c->sweep == 0.0) {
        n = imp_v3(q.x / (c->core[0] * c->core[0]), q.y / (c->core[1] * c->core[1]),
                   q.z / (c->core[2] * c->core[2]));
    } else if (c->sweep > 0.0 && core_closest(c, q, &k)) {
        n = imp_v3_sub(q, k);
    } else if (c->kind == IMP_S3_CYLINDER) {
        double rho = hypot(q.x, q.y);
        n = rho - c->core[0] > fabs(q.z) - c->core[1] ? imp_v3(q.x, q.y, 0.0)
                                                       : imp_v3(0.0, 0.0, q.z > 0.0 ? 1.0 : -1.0);
    } else if (c->kind == IMP_S3_CONE) {
        double rb = c->core[0], zb = c->core[1], za = c->core[2], h = za - zb;
        double rho = hypot(q.x, q.y), l = hypot(h, rb);
        double side = ((rho - rb) * h + (q.z - zb) * rb) / l;
        if (side > zb - q.z && rho > 0.0) {
            n = imp_v3(q.x / rho * h / l, q.y / rho * h / l, rb / l);
        } else {
            n = imp_v3(0.0, 0.0, -1.0);
        }
    } else {
        /* a smoothed hull: its core is a polytope, where GJK ends exactly; the normal points
           from the core's closest point, a sweep away */
        imp_support3d pt;
        pt.c = &point_core;
        pt.rot = imp_m3_identity();
        pt.origin = p, pt.centre = p;
        pt.sweep = 0.0, pt.scale = sp->scale;
        imp_mink3d m = {sp, &pt, 0};
        imp_gjk_result r;
        imp_gjk(&m, 1e-13 * sp->scale, 1e-13 * sp->scale, GJK_MAX_ITER, &r);
        return imp_v3_normalize(imp_v3_sub(p, r.pa));
    }
    return imp_v3_normalize(imp_m3_mulv(&sp->rot, n));
}

/* Clips the local segment a + f d against the half-spaces n.x <= off (nplanes of them, 4
   numbers each); 1 with the entering fraction and plane, 0 when it misses, 2 when a lies inside. */
static int clip_planes(const double *plane, int nplanes, imp_vec3 a, imp_vec3 d, double *f_in,
                       int *which)
{
    double tin = 0.0, tout = 1.0;
    int entered = -1;
    for (int k = 0; k < nplanes; k++) {
        imp_vec3 n = imp_v3_load(plane + 4 * k);
        double num = plane[4 * k + 3] - imp_v3_dot(n, a), den = imp_v3_dot(n, d);
        if (den == 0.0) {
            if (num < 0.0) {
                return 0;
            }
            continue;
        }
        double t = num / den;
        if (den < 0.0) {
            if (t > tin) {
                tin = t, entered = k;
            }
        } else if (t < tout) {
            tout = t;
        }
        if (tin > tout) {
            return 0;
        }
    }
    if (entered < 0) {
        return 2;
    }
    *f_in = tin, *which = entered;
    return 1;
}

static int ray_polytope(const imp_convex3d *c, const imp_support3d *sp, imp_vec3 w0, imp_vec3 wd,
                        imp_ray_hit *hit)
{
    imp_vec3 a = imp_m3_tmulv(&sp->rot, imp_v3_sub(w0, sp->origin));
    imp_vec3 d = imp_m3_tmulv(&sp->rot, wd);
    double box[24];
    const double *plane = box;
    int np = 6;
    if (c->kind == IMP_S3_BOX) {
        for (int k = 0; k < 6; k++) {
            double *p = box + 4 * k;
            p[0] = p[1] = p[2] = 0.0;
            p[k / 2] = (k % 2) ? 1.0 : -1.0;
            p[3] = c->core[k / 2];
        }
    } else {
        const imp_polyfaces *pf = c->faces;
        plane = pf->plane, np = pf->nface;
    }
    double f;
    int which;
    int r = clip_planes(plane, np, a, d, &f, &which);
    if (r == 0) {
        return 0;
    }
    if (r == 2) {
        store_hit(hit, 0.0, w0, imp_v3_neg(wd));
        return 1;
    }
    store_hit(hit, f, imp_v3_madd(w0, f, wd), imp_m3_mulv(&sp->rot, imp_v3_load(plane + 4 * which)));
    return 1;
}

static int ray_sphere(const imp_support3d *sp, imp_vec3 w0, imp_vec3 wd, imp_ray_hit *hit)
{
    double r = sp->sweep;
    imp_vec3 m = imp_v3_sub(w0, sp->origin);
    double a = imp_v3_dot(wd, wd), b = imp_v3_dot(m, wd), c = imp_v3_dot(m, m) - r * r;
    if (c <= 0.0) {
        store_hit(hit, 0.0, w0, imp_v3_neg(wd));
        return 1;
    }
    double disc = b * b - a * c;
    if (b >= 0.0 || disc < 0.0) {
        return 0;
    }
    double f = c / (-b + sqrt(disc)); /* the smaller root, without cancellation */
    if (f > 1.0) {
        return 0;
    }
    imp_vec3 p = imp_v3_madd(w0, f, wd);
    store_hit(hit, f, p, imp_v3_sub(p, sp->origin));
    return 1;
}

/* An ellipsoid: in coordinates scaled by its semi-axes it is the unit ball. */
static int ray_ellipsoid(const imp_convex3d *c, const imp_support3d *sp, imp_vec3 w0, imp_vec3 wd,
                         imp_ray_hit *hit)
{
    imp_vec3 a = imp_m3_tmulv(&sp->rot, imp_v3_sub(w0, sp->origin));
    imp_vec3 d = imp_m3_tmulv(&sp->rot, wd);
    imp_vec3 inv = imp_v3(1.0 / c->core[0], 1.0 / c->core[1], 1.0 / c->core[2]);
    imp_vec3 m = imp_v3_mul(a, inv), e = imp_v3_mul(d, inv);
    double qa = imp_v3_dot(e, e), qb = imp_v3_dot(m, e), qc = imp_v3_dot(m, m) - 1.0;
    if (qc <= 0.0) {
        store_hit(hit, 0.0, w0, imp_v3_neg(wd));
        return 1;
    }
    double disc = qb * qb - qa * qc;
    if (qb >= 0.0 || disc < 0.0) {
        return 0;
    }
    double f = qc / (-qb + sqrt(disc));
    if (f > 1.0) {
        return 0;
    }
    imp_vec3 q = imp_v3_madd(a, f, d); /* the gradient of the quadric there */
    imp_vec3 n = imp_v3_mul(imp_v3_mul(q, inv), inv);
    store_hit(hit, f, imp_v3_madd(w0, f, wd), imp_m3_mulv(&sp->rot, n));
    return 1;
}

static int ray_wall(const imp_convex3d *c, const imp_support3d *sp, imp_vec3 w0, imp_vec3 w1,
                    imp_vec3 wd, imp_ray_hit *hit)
{
    imp_vec3 n = imp_m3_mulv(&sp->rot, imp_v3_load(c->core));
    double s0 = imp_v3_dot(n, imp_v3_sub(w0, sp->origin)), s1 = imp_v3_dot(n, imp_v3_sub(w1, sp->origin));
    if (s0 <= 0.0) {
        store_hit(hit, 0.0, w0, imp_v3_neg(wd));
        return 1;
    }
    if (s1 > 0.0) {
        return 0;
    }
    double f = s0 / (s0 - s1);
    store_hit(hit, f, imp_v3_madd(w0, f, wd), n);
    return 1;
}

/* Conservative advancement: each step moves along the segment by (a lower bound of) the
   distance to the shape, so it never passes the surface. */
static int ray_general(const imp_support3d *sp, imp_vec3 w0, imp_vec3 wd, imp_ray_hit *hit)
{
    double len = imp_v3_len(wd), eps = 1e-10 * sp->scale, f = 0.0, prev = INFINITY;
    for (int it = 0; it < CA_MAX_STEPS; it++) {
        imp_vec3 x = imp_v3_madd(w0, f, wd);
        double dist;
        int inside = point_distance(sp, x, &dist);
        if (it == 0 && (inside || dist <= 0.0)) {
            store_hit(hit, 0.0, w0, imp_v3_neg(wd));
            return 1;
        }
        if (inside || dist <= eps) {
            store_hit(hit, f, x, surface_normal(sp, x));
            return 1;
        }
        if (!(dist < prev)) {
            return 0; /* the distance no longer decreases along the segment: it is convex in f */
        }
        prev = dist;
        f += dist / len;
        if (f > 1.0) {
            return 0;
        }
    }
    return 0;
}

int imp_raycast3d(const imp_shape *s, const double *pose, const double from[3], const double to[3],
                  imp_ray_hit *hit)
{
    const imp_convex3d *c = imp_shape3d_data(s);
    if (c == NULL) {
        return -1;
    }
    imp_support3d sp;
    imp_support3d_init(&sp, s, pose);
    imp_vec3 w0 = imp_v3_load(from), w1 = imp_v3_load(to), wd = imp_v3_sub(w1, w0);
    if (c->kind == IMP_S3_WALL) {
        return ray_wall(c, &sp, w0, w1, wd, hit);
    }
    if (c->kind == IMP_S3_SPHERE) {
        return ray_sphere(&sp, w0, wd, hit);
    }
    if (c->kind == IMP_S3_ELLIPSOID && c->sweep == 0.0) {
        return ray_ellipsoid(c, &sp, w0, wd, hit);
    }
    if ((c->kind == IMP_S3_BOX && c->sweep == 0.0) || (c->kind == IMP_S3_CONVEX && c->faces != NULL)) {
        return ray_polytope(c, &sp, w0, wd, hit);
    }
    return ray_general(&sp, w0, wd, hit);
}

int imp_contains3d(const imp_shape *s, const double *pose, const double p[3])
{
    const imp_convex3d *c = imp_shape3d_data(s);
    if (c == NULL) {
        return -1;
    }
    imp_support3d sp;
    imp_support3d_init(&sp, s, pose);
    imp_vec3 x = imp_v3_load(p);
    if (c->kind == IMP_S3_WALL) {
        imp_vec3 n = imp_m3_mulv(&sp.rot, imp_v3_load(c->core));
        return imp_v3_dot(n, imp_v3_sub(x, sp.origin)) <= 0.0;
    }
    if (c->kind == IMP_S3_SPHERE) {
        return imp_v3_dist(x, sp.origin) <= sp.sweep;
    }
    double dist;
    return point_distance(&sp, x, &dist) || dist <= 0.0;
}
