/* test_manifold3d.c: contact manifolds of posed 3D convex shapes (manifold3d.h) against the
   points worked out from the geometry of each scene: the corners of a resting box, the ends of a
   lying capsule or cylinder, a standing cylinder's cap circle, a polyhedron's face, walls; keys
   stable under small motions and distinct within a manifold; no NaN for degenerate poses. */
#include <math.h>

#include "check.h"
#include "collide3d.h"
#include "manifold3d.h"
#include "quat.h"
#include "rng.h"
#include "scalar.h"
#include "shape3d.h"

#define PI IMP_PI
#define TOL 1e-9

static void pose_set(double *p, imp_vec3 x, imp_quat q)
{
    q = imp_q_normalize(q);
    p[0] = x.x, p[1] = x.y, p[2] = x.z, p[3] = q.w, p[4] = q.x, p[5] = q.y, p[6] = q.z;
}

static imp_quat about(double ax, double ay, double az, double angle)
{
    return imp_q_from_axis_angle(imp_v3_normalize(imp_v3(ax, ay, az)), angle);
}

/* invariants of every manifold: count in range, unit normal, finite points with
   point_b = point_a + distance normal, distances within margin, keys distinct */
static int sane(const imp_manifold3d *m, double margin)
{
    imp_vec3 n = imp_v3_load(m->normal);
    if (m->count < 0 || m->count > IMP_MANIFOLD3D_MAX || !imp_v3_isfinite(n) || fabs(imp_v3_len(n) - 1.0) > 1e-12) {
        fprintf(stderr, "  bad count %d or normal %g %g %g\n", m->count, n.x, n.y, n.z);
        return 0;
    }
    for (int i = 0; i < m->count; i++) {
        const imp_manifold3d_point *p = &m->points[i];
        imp_vec3 pa = imp_v3_load(p->point_a), pb = imp_v3_load(p->point_b);
        if (!imp_v3_isfinite(pa) || !imp_v3_isfinite(pb) || !isfinite(p->distance) ||
            imp_v3_dist(pb, imp_v3_madd(pa, p->distance, n)) > 1e-9 || p->distance > margin + 1e-12) {
            fprintf(stderr, "  point %d inconsistent (distance %g)\n", i, p->distance);
            return 0;
        }
        for (int j = 0; j < i; j++) {
            if (m->points[j].key == p->key) {
                fprintf(stderr, "  points %d and %d share the key %x\n", j, i, p->key);
                return 0;
            }
        }
    }
    return 1;
}

/* every expected point is matched by one manifold point (point_a when on_a, else point_b)
   within TOL, with the expected distance; the count equals k */
static int match(const imp_manifold3d *m, const imp_vec3 *want, int k, int on_a, double dist)
{
    if (m->count != k) {
        fprintf(stderr, "  count %d, expected %d\n", m->count, k);
        for (int i = 0; i < m->count; i++) {
            const double *q = on_a ? m->points[i].point_a : m->points[i].point_b;
            fprintf(stderr, "    %.12g %.12g %.12g  d %.3g\n", q[0], q[1], q[2], m->points[i].distance);
        }
        return 0;
    }
    for (int j = 0; j < k; j++) {
        int found = 0;
        for (int i = 0; i < m->count && !found; i++) {
            imp_vec3 q = imp_v3_load(on_a ? m->points[i].point_a : m->points[i].point_b);
            found = imp_v3_dist(q, want[j]) <= TOL && fabs(m->points[i].distance - dist) <= TOL;
        }
        if (!found) {
            fprintf(stderr, "  no point at %.12g %.12g %.12g (distance %g)\n", want[j].x, want[j].y, want[j].z, dist);
            for (int i = 0; i < m->count; i++) {
                const double *q = on_a ? m->points[i].point_a : m->points[i].point_b;
                fprintf(stderr, "    %.12g %.12g %.12g  d %.3g\n", q[0], q[1], q[2], m->points[i].distance);
            }
            return 0;
        }
    }
    return 1;
}

static int normal_is(const imp_manifold3d *m, imp_vec3 n)
{
    if (imp_v3_dist(imp_v3_load(m->normal), n) > 1e-12) {
        fprintf(stderr, "  normal %.15g %.15g %.15g\n", m->normal[0], m->normal[1], m->normal[2]);
        return 0;
    }
    return 1;
}

/* the corners (z = bottom) of a square of half side h centred at (cx, cy) turned by angle about z */
static void square(double cx, double cy, double h, double angle, double z, imp_vec3 *out)
{
    static const double sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
    for (int i = 0; i < 4; i++) {
        double x = sx[i] * h, y = sy[i] * h;
        out[i] = imp_v3(cx + x * cos(angle) - y * sin(angle), cy + x * sin(angle) + y * cos(angle), z);
    }
}

/* the ground: a 10 x 10 x 1 box whose top face is z = 0 */
static imp_shape *ground(double *pose)
{
    pose_set(pose, imp_v3(0, 0, -0.5), imp_q_identity());
    return imp_shape3d_box(10, 10, 1);
}

/* a unit cube resting on the ground (A the ground, then A the cube): its 4 bottom corners
   (0.2 +- 0.5, -0.1 +- 0.5, 0) at distance 0, normal +z from the ground (-z from the cube) */
static int cube_case(double angle, double lift, double margin)
{
    double pg[7], pc[7];
    imp_shape *g = ground(pg), *c = imp_shape3d_box(1, 1, 1);
    pose_set(pc, imp_v3(0.2, -0.1, 0.5 + lift), imp_q_from_axis_angle(imp_v3(0, 0, 1), angle));
    imp_vec3 want[4];
    square(0.2, -0.1, 0.5, angle, 0.0, want);
    imp_manifold3d m;
    int ok = imp_manifold3d_compute(g, pg, c, pc, margin, &m) == IMP_NP_OK && sane(&m, margin) &&
             normal_is(&m, imp_v3(0, 0, 1)) && match(&m, want, 4, 1, lift);
    ok = ok && imp_manifold3d_compute(c, pc, g, pg, margin, &m) == IMP_NP_OK && sane(&m, margin) &&
         normal_is(&m, imp_v3(0, 0, -1)) && match(&m, want, 4, 0, lift);
    imp_shape_release(g);
    imp_shape_release(c);
    return ok;
}

TEST(cube_on_ground)
{
    CHECK(cube_case(0.0, 0.0, 0.01));
    /* margin 0 keeps touching points */
    CHECK(cube_case(0.0, 0.0, 0.0));
    /* turned 45 degrees about z: the corners turn with it, still 4 */
    CHECK(cube_case(PI / 4, 0.0, 0.01));
    CHECK(cube_case(0.3, 0.0, 0.01));
    /* raised by half the margin: the same 4 corners at distance 0.005 (point_a on the ground at z = 0
       when the ground is A; point_b when the cube is A, on the ground too) */
    CHECK(cube_case(0.0, 0.005, 0.01));
    /* penetrating by 1e-3: distances -1e-3 */
    CHECK(cube_case(0.0, -1e-3, 0.01));
    CHECK(cube_case(PI / 4, -1e-3, 0.0));
}

TEST(cube_on_cube)
{
    /* two unit cubes face to face (a stack): the 4 corners of the shared square z = 0.5 */
    imp_shape *a = imp_shape3d_box(1, 1, 1), *b = imp_shape3d_box(1, 1, 1);
    double pa[7], pb[7];
    pose_set(pa, imp_v3(0, 0, 0), imp_q_identity());
    pose_set(pb, imp_v3(0, 0, 1), imp_q_identity());
    imp_vec3 want[4];
    square(0, 0, 0.5, 0.0, 0.5, want);
    imp_manifold3d m;
    CHECK(imp_manifold3d_compute(a, pa, b, pb, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(normal_is(&m, imp_v3(0, 0, 1)) && match(&m, want, 4, 1, 0.0));
    /* the top one shifted by (0.3, 0.2) and turned 45 degrees: the overlap of the squares is an
       octagon-like polygon; reduced to 4 points, all on z = 0.5 inside both squares */
    pose_set(pb, imp_v3(0.3, 0.2, 1), imp_q_from_axis_angle(imp_v3(0, 0, 1), PI / 4));
    CHECK(imp_manifold3d_compute(a, pa, b, pb, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01) && m.count == 4);
    for (int i = 0; i < 4; i++) {
        imp_vec3 p = imp_v3_load(m.points[i].point_a);
        imp_vec3 l = imp_q_unrotate(imp_q_from_axis_angle(imp_v3(0, 0, 1), PI / 4), imp_v3(p.x - 0.3, p.y - 0.2, 0));
        CHECK_NEAR(p.z, 0.5, TOL);
        CHECK(fabs(p.x) <= 0.5 + TOL && fabs(p.y) <= 0.5 + TOL);
        CHECK(fabs(l.x) <= 0.5 + TOL && fabs(l.y) <= 0.5 + TOL);
        CHECK_NEAR(m.points[i].distance, 0.0, TOL);
    }
    imp_shape_release(a);
    imp_shape_release(b);
}

TEST(cube_tilted_on_edge)
{
    /* tilted by t = 10 deg about x: corner (y, z) goes to (y cos t - z sin t, y sin t + z cos t);
       the lowest edge (y = z = -0.5) is at z = -0.5 (sin t + cos t) below the centre, so a centre
       at 0.5 (sin t + cos t) puts it on the ground at y = -0.5 cos t + 0.5 sin t: 2 points
       (+-0.5, that y, 0); the other bottom corners are sin t = 0.17 up, beyond the margin */
    double t = 10.0 * PI / 180.0, pg[7], pc[7];
    imp_shape *g = ground(pg), *c = imp_shape3d_box(1, 1, 1);
    pose_set(pc, imp_v3(0, 0, 0.5 * (sin(t) + cos(t))), imp_q_from_axis_angle(imp_v3(1, 0, 0), t));
    double y = -0.5 * cos(t) + 0.5 * sin(t);
    imp_vec3 want[2] = {imp_v3(-0.5, y, 0), imp_v3(0.5, y, 0)};
    imp_manifold3d m;
    CHECK(imp_manifold3d_compute(g, pg, c, pc, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(normal_is(&m, imp_v3(0, 0, 1)) && match(&m, want, 2, 1, 0.0));
    CHECK(imp_manifold3d_compute(c, pc, g, pg, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(normal_is(&m, imp_v3(0, 0, -1)) && match(&m, want, 2, 0, 0.0));
    /* a large margin (0.2 > sin t = 0.174) takes the whole bottom face: the raised corners at
       (+-0.5, y + cos t, sin t) are at distance sin t */
    CHECK(imp_manifold3d_compute(g, pg, c, pc, 0.2, &m) == IMP_NP_OK && sane(&m, 0.2) && m.count == 4);
    int raised = 0;
    for (int i = 0; i < 4; i++) {
        raised += fabs(m.points[i].distance - sin(t)) <= TOL;
    }
    CHECK(raised == 2);
    imp_shape_release(g);
    imp_shape_release(c);
}

TEST(cube_straddling_edge)
{
    /* a unit cube centred at x = 4.9 on the ground whose edge is x = 5: the bottom face overlaps
       the ground on x in [4.4, 5]: the 4 points (4.4, +-0.5, 0), (5, +-0.5, 0) */
    double pg[7], pc[7];
    imp_shape *g = ground(pg), *c = imp_shape3d_box(1, 1, 1);
    pose_set(pc, imp_v3(4.9, 0, 0.5), imp_q_identity());
    imp_vec3 want[4] = {imp_v3(4.4, -0.5, 0), imp_v3(4.4, 0.5, 0), imp_v3(5, -0.5, 0), imp_v3(5, 0.5, 0)};
    imp_manifold3d m;
    CHECK(imp_manifold3d_compute(g, pg, c, pc, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(normal_is(&m, imp_v3(0, 0, 1)) && match(&m, want, 4, 1, 0.0));
    CHECK(imp_manifold3d_compute(c, pc, g, pg, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(normal_is(&m, imp_v3(0, 0, -1)) && match(&m, want, 4, 0, 0.0));
    /* also over a corner (x = 5, y = 5): turned 45 deg, centred at (5, 5): the overlap is the
       quarter of the diamond |x - 5| + |y - 5| <= 0.707 with x, y <= 5: a triangle with corners
       (5, 5), (5 - 0.707, 5), (5, 5 - 0.707) */
    double h = sqrt(0.5);
    pose_set(pc, imp_v3(5, 5, 0.5), imp_q_from_axis_angle(imp_v3(0, 0, 1), PI / 4));
    imp_vec3 tri[3] = {imp_v3(5, 5, 0), imp_v3(5 - h, 5, 0), imp_v3(5, 5 - h, 0)};
    CHECK(imp_manifold3d_compute(g, pg, c, pc, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(match(&m, tri, 3, 1, 0.0));
    imp_shape_release(g);
    imp_shape_release(c);
}

TEST(sphere_on_box)
{
    /* sphere of radius 0.5 centred 0.5 + 0.003 above the top face at (0.3, 0.2): one point, gap 0.003,
       on the box at (0.3, 0.2, 0), on the sphere at (0.3, 0.2, 0.003) */
    double pg[7], ps[7];
    imp_shape *g = ground(pg), *s = imp_shape3d_sphere(0.5);
    pose_set(ps, imp_v3(0.3, 0.2, 0.503), imp_q(0.3, 0.1, 0.2, 0.9));
    imp_manifold3d m;
    CHECK(imp_manifold3d_compute(g, pg, s, ps, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    imp_vec3 on_box = imp_v3(0.3, 0.2, 0), on_sphere = imp_v3(0.3, 0.2, 0.003);
    CHECK(normal_is(&m, imp_v3(0, 0, 1)) && match(&m, &on_box, 1, 1, 0.003) && match(&m, &on_sphere, 1, 0, 0.003));
    CHECK(imp_manifold3d_compute(s, ps, g, pg, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(normal_is(&m, imp_v3(0, 0, -1)) && match(&m, &on_sphere, 1, 1, 0.003) && match(&m, &on_box, 1, 0, 0.003));
    /* beyond the margin: no point */
    CHECK(imp_manifold3d_compute(g, pg, s, ps, 0.002, &m) == IMP_NP_OK && m.count == 0);
    imp_shape_release(g);
    imp_shape_release(s);
}

TEST(capsule_flat)
{
    /* capsule of radius 0.2 and segment length 1, turned onto the x axis, centre 0.2 up: its
       segment's ends (+-0.5, 0) touch at (+-0.5, 0, 0): 2 points at distance 0 */
    double pg[7], pc[7];
    imp_shape *g = ground(pg), *c = imp_shape3d_capsule(0.2, 1.0);
    pose_set(pc, imp_v3(0, 0, 0.2), imp_q_from_axis_angle(imp_v3(0, 1, 0), PI / 2));
    imp_vec3 want[2] = {imp_v3(-0.5, 0, 0), imp_v3(0.5, 0, 0)};
    imp_manifold3d m;
    CHECK(imp_manifold3d_compute(g, pg, c, pc, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(normal_is(&m, imp_v3(0, 0, 1)) && match(&m, want, 2, 1, 0.0));
    CHECK(imp_manifold3d_compute(c, pc, g, pg, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(match(&m, want, 2, 0, 0.0));
    /* two parallel capsules side by side along x, 0.4 + 0.001 apart, the second shifted by 0.6:
       the overlap of the segments is x in [0.1, 0.5]: 2 points at distance 0.001 */
    imp_shape *d = imp_shape3d_capsule(0.2, 1.0);
    double pd[7];
    pose_set(pd, imp_v3(0.6, 0.401, 0.2), imp_q_from_axis_angle(imp_v3(0, 1, 0), PI / 2));
    imp_vec3 on_c[2] = {imp_v3(0.1, 0.2, 0.2), imp_v3(0.5, 0.2, 0.2)};
    CHECK(imp_manifold3d_compute(c, pc, d, pd, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(normal_is(&m, imp_v3(0, 1, 0)) && match(&m, on_c, 2, 1, 0.001));
    /* crossed at right angles: one point */
    pose_set(pd, imp_v3(0, 0.2, 0.601), imp_q_from_axis_angle(imp_v3(1, 0, 0), PI / 2));
    CHECK(imp_manifold3d_compute(c, pc, d, pd, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01) && m.count == 1);
    CHECK_NEAR(m.points[0].distance, 0.001, TOL);
    imp_shape_release(g);
    imp_shape_release(c);
    imp_shape_release(d);
}

TEST(cylinder_standing_and_lying)
{
    /* cylinder R = 0.5, L = 1 standing on its cap (centre z = 0.5): 4 points on the cap circle
       x^2 + y^2 = 0.25 at z = 0, distance 0, spanning a square (the 8-gon reduced to 4) */
    double pg[7], pc[7];
    imp_shape *g = ground(pg), *c = imp_shape3d_cylinder(0.5, 1.0, 0.0);
    pose_set(pc, imp_v3(1, 1, 0.5), imp_q_identity());
    imp_manifold3d m;
    CHECK(imp_manifold3d_compute(g, pg, c, pc, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01) && m.count == 4);
    CHECK(normal_is(&m, imp_v3(0, 0, 1)));
    imp_vec3 mid = imp_v3_zero();
    for (int i = 0; i < 4; i++) {
        imp_vec3 p = imp_v3_load(m.points[i].point_b);
        CHECK_NEAR(hypot(p.x - 1, p.y - 1), 0.5, TOL);
        CHECK_NEAR(p.z, 0.0, TOL);
        CHECK_NEAR(m.points[i].distance, 0.0, TOL);
        mid = imp_v3_add(mid, imp_v3_scale(p, 0.25));
    }
    /* a square inscribed in the circle: its corners average to the centre */
    CHECK(imp_v3_dist(mid, imp_v3(1, 1, 0)) <= TOL);
    /* lying on its side (axis along y, centre 0.5 up): the line x = 1, y in [0.5, 1.5], z = 0 */
    pose_set(pc, imp_v3(1, 1, 0.5), imp_q_from_axis_angle(imp_v3(1, 0, 0), PI / 2));
    imp_vec3 want[2] = {imp_v3(1, 0.5, 0), imp_v3(1, 1.5, 0)};
    CHECK(imp_manifold3d_compute(g, pg, c, pc, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(match(&m, want, 2, 1, 0.0));
    CHECK(imp_manifold3d_compute(c, pc, g, pg, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(match(&m, want, 2, 0, 0.0));
    /* standing, tilted by 0.02 rad about x and lowered so that the lowest rim point touches:
       the exact rim point is the deepest (distance 0), no point is deeper */
    double t = 0.02;
    pose_set(pc, imp_v3(0, 0, 0.5 * cos(t) + 0.5 * sin(t)), imp_q_from_axis_angle(imp_v3(1, 0, 0), t));
    CHECK(imp_manifold3d_compute(g, pg, c, pc, 0.05, &m) == IMP_NP_OK && sane(&m, 0.05) && m.count >= 3);
    double lo = INFINITY;
    for (int i = 0; i < m.count; i++) {
        lo = imp_min(lo, m.points[i].distance);
    }
    CHECK_NEAR(lo, 0.0, TOL);
    imp_shape_release(g);
    imp_shape_release(c);
}

TEST(cylinder_caps)
{
    /* two cylinders R = 0.5, L = 1 stacked cap to cap (the lower one's top at z = 0.5): the
       8-gons coincide, reduced to 4 points, all on the circle of radius 0.5 at z = 0.5, distance
       0; the upper one turned by 22.5 deg: the 8-gons' overlap (a 16-gon) reduced to 4 points,
       all within the circle, at z = 0.5 */
    imp_shape *c = imp_shape3d_cylinder(0.5, 1.0, 0.0), *box = imp_shape3d_box(0.6, 0.6, 0.6);
    double pa[7], pb[7];
    pose_set(pa, imp_v3(0, 0, 0), imp_q_identity());
    imp_manifold3d m;
    for (int k = 0; k < 2; k++) {
        pose_set(pb, imp_v3(0, 0, 1), imp_q_from_axis_angle(imp_v3(0, 0, 1), k * PI / 8));
        CHECK(imp_manifold3d_compute(c, pa, c, pb, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01) && m.count == 4);
        CHECK(normal_is(&m, imp_v3(0, 0, 1)));
        for (int i = 0; i < 4; i++) {
            imp_vec3 p = imp_v3_load(m.points[i].point_a);
            double r = hypot(p.x, p.y);
            CHECK(k == 0 ? fabs(r - 0.5) <= TOL : r <= 0.5 + TOL);
            CHECK_NEAR(p.z, 0.5, TOL);
            CHECK_NEAR(m.points[i].distance, 0.0, TOL);
        }
    }
    /* a 0.6 cube standing on the cap: its corners (+-0.3, +-0.3) are 0.424 from the axis,
       inside the 8-gon (inradius 0.5 cos 22.5 deg = 0.462): the 4 corners at z = 0.5 */
    pose_set(pb, imp_v3(0, 0, 0.8), imp_q_identity());
    imp_vec3 want[4];
    square(0, 0, 0.3, 0.0, 0.5, want);
    CHECK(imp_manifold3d_compute(c, pa, box, pb, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(normal_is(&m, imp_v3(0, 0, 1)) && match(&m, want, 4, 1, 0.0));
    CHECK(imp_manifold3d_compute(box, pb, c, pa, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(normal_is(&m, imp_v3(0, 0, -1)) && match(&m, want, 4, 0, 0.0));
    imp_shape_release(c);
    imp_shape_release(box);
}

TEST(cone_on_base)
{
    /* cone R = 0.5, L = 1: the centroid is L/4 above the base, so a pose z = 0.25 puts the base on
       the ground: 4 points on the circle of radius 0.5 at z = 0, distance 0 */
    double pg[7], pc[7];
    imp_shape *g = ground(pg), *c = imp_shape3d_cone(0.5, 1.0, 0.0);
    pose_set(pc, imp_v3(-1, 2, 0.25), imp_q_from_axis_angle(imp_v3(0, 0, 1), 0.4));
    imp_manifold3d m;
    CHECK(imp_manifold3d_compute(c, pc, g, pg, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01) && m.count == 4);
    CHECK(normal_is(&m, imp_v3(0, 0, -1)));
    for (int i = 0; i < 4; i++) {
        imp_vec3 p = imp_v3_load(m.points[i].point_a);
        CHECK_NEAR(hypot(p.x + 1, p.y - 2), 0.5, TOL);
        CHECK_NEAR(p.z, 0.0, TOL);
        CHECK_NEAR(m.points[i].distance, 0.0, TOL);
    }
    /* on its slant side: the half-angle a = atan(R / L); turning by pi/2 + a about x takes the
       rim point (0, -R) and the apex to the same lowest height (z' = y sin + z cos with the
       centroid L/4 above the base: -R cos a + (L/4) sin a = -(3L/4) sin a): 2 points */
    double a = atan(0.5), tilt = PI / 2 + a;
    imp_quat q = imp_q_from_axis_angle(imp_v3(1, 0, 0), tilt);
    imp_vec3 rim = imp_q_rotate(q, imp_v3(0, -0.5, -0.25)), apex = imp_q_rotate(q, imp_v3(0, 0, 0.75));
    /* both at the same height: put them on z = 0 */
    CHECK_NEAR(rim.z, apex.z, 1e-12);
    pose_set(pc, imp_v3(0, 0, -rim.z), q);
    imp_vec3 want[2] = {imp_v3(rim.x, rim.y, 0), imp_v3(apex.x, apex.y, 0)};
    CHECK(imp_manifold3d_compute(g, pg, c, pc, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(match(&m, want, 2, 1, 0.0));
    imp_shape_release(g);
    imp_shape_release(c);
}

TEST(hull_face_down)
{
    /* the octahedron |x| + |y| + |z| <= 1 turned so that its face towards (-1, -1, -1) faces
       down; that face is 1/sqrt 3 from the centre: centre at z = 1/sqrt 3 puts it on the ground:
       3 points at its rotated corners (-1, 0, 0), (0, -1, 0), (0, 0, -1) */
    const double v[18] = {1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1};
    double pg[7], ph[7];
    imp_shape *g = ground(pg);
    for (int smooth = 0; smooth < 2; smooth++) {
        double r = smooth ? 0.05 : 0.0;
        imp_shape *h = imp_shape3d_convex(v, 6, r, NULL);
        CHECK(h != NULL);
        imp_vec3 u = imp_v3_normalize(imp_v3(-1, -1, -1)), down = imp_v3(0, 0, -1);
        imp_quat q = imp_q_from_axis_angle(imp_v3_normalize(imp_v3_cross(u, down)), acos(imp_v3_dot(u, down)));
        imp_vec3 centre = imp_v3(0.5, 0, 1 / sqrt(3.0) + r);
        pose_set(ph, centre, q);
        imp_vec3 want[3];
        const imp_vec3 corner[3] = {imp_v3(-1, 0, 0), imp_v3(0, -1, 0), imp_v3(0, 0, -1)};
        for (int i = 0; i < 3; i++) {
            want[i] = imp_v3_add(centre, imp_q_rotate(q, corner[i]));
            want[i].z -= r; /* the smoothed hull's flat face is the core face moved down by r */
            CHECK_NEAR(want[i].z, 0.0, 1e-12);
        }
        imp_manifold3d m;
        CHECK(imp_manifold3d_compute(g, pg, h, ph, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
        CHECK(normal_is(&m, imp_v3(0, 0, 1)) && match(&m, want, 3, 1, 0.0));
        CHECK(imp_manifold3d_compute(h, ph, g, pg, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
        CHECK(match(&m, want, 3, 0, 0.0));
        imp_shape_release(h);
    }
    imp_shape_release(g);
}

TEST(smoothed_box_gap)
{
    /* a 1 x 1 x 1 box rounded with r = 0.1 has a flat bottom of half side 0.5 - 0.1 = 0.4; raised
       by 0.004 it has the 4 points (+-0.4, +-0.4) at distance 0.004 (the true gap) */
    double pg[7], pc[7];
    imp_shape *g = ground(pg), *c = imp_shape3d_box_smoothed(1, 1, 1, 0.1);
    pose_set(pc, imp_v3(0, 0, 0.504), imp_q_identity());
    imp_vec3 want[4];
    square(0, 0, 0.4, 0.0, 0.0, want);
    imp_manifold3d m;
    CHECK(imp_manifold3d_compute(g, pg, c, pc, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(match(&m, want, 4, 1, 0.004));
    /* two rounded boxes face to face: the overlap of both flat squares, gap 0.004 */
    imp_shape *d = imp_shape3d_box_smoothed(1, 1, 1, 0.1);
    double pd[7];
    pose_set(pd, imp_v3(0, 0, 1.508), imp_q_identity());
    square(0, 0, 0.4, 0.0, 1.004, want);
    CHECK(imp_manifold3d_compute(c, pc, d, pd, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(normal_is(&m, imp_v3(0, 0, 1)) && match(&m, want, 4, 1, 0.004));
    imp_shape_release(g);
    imp_shape_release(c);
    imp_shape_release(d);
}

TEST(walls)
{
    /* the wall z <= 0 (normal +z) at the origin; a unit cube turned 30 deg about z resting on it:
       its 4 bottom corners at distance 0; normal -z from the cube (A) to the wall, +z from the
       wall (A) */
    const double up[3] = {0, 0, 1};
    imp_shape *w = imp_shape3d_wall(up), *c = imp_shape3d_box(1, 1, 1);
    double pw[7], pc[7];
    pose_set(pw, imp_v3(0, 0, 0), imp_q_identity());
    pose_set(pc, imp_v3(3, -2, 0.5 - 1e-3), imp_q_from_axis_angle(imp_v3(0, 0, 1), PI / 6));
    imp_vec3 want[4];
    square(3, -2, 0.5, PI / 6, -1e-3, want);
    imp_manifold3d m;
    CHECK(imp_manifold3d_compute(c, pc, w, pw, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(normal_is(&m, imp_v3(0, 0, -1)) && match(&m, want, 4, 1, -1e-3));
    CHECK(imp_manifold3d_compute(w, pw, c, pc, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(normal_is(&m, imp_v3(0, 0, 1)) && match(&m, want, 4, 0, -1e-3));
    /* a wall x <= 1 facing +x placed at x = 1 (pose), a capsule lying along y against it: 2 points */
    const double ex[3] = {1, 0, 0};
    imp_shape *wx = imp_shape3d_wall(ex), *cap = imp_shape3d_capsule(0.2, 1.0);
    pose_set(pw, imp_v3(1, 0, 0), imp_q_identity());
    pose_set(pc, imp_v3(1.205, 0, 0), imp_q_from_axis_angle(imp_v3(1, 0, 0), PI / 2));
    imp_vec3 two[2] = {imp_v3(1.005, -0.5, 0), imp_v3(1.005, 0.5, 0)};
    CHECK(imp_manifold3d_compute(cap, pc, wx, pw, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(normal_is(&m, imp_v3(-1, 0, 0)) && match(&m, two, 2, 1, 0.005));
    /* a sphere: 1 point; beyond the margin: none */
    imp_shape *s = imp_shape3d_sphere(0.3);
    pose_set(pc, imp_v3(1.302, 0.4, 0.1), imp_q_identity());
    CHECK(imp_manifold3d_compute(wx, pw, s, pc, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01) && m.count == 1);
    CHECK_NEAR(m.points[0].distance, 0.002, 1e-12);
    CHECK(imp_manifold3d_compute(wx, pw, s, pc, 0.001, &m) == IMP_NP_OK && m.count == 0);
    /* two walls: unsupported, no point */
    CHECK(imp_manifold3d_compute(w, pw, wx, pw, 0.01, &m) == IMP_NP_UNSUPPORTED && m.count == 0);
    imp_shape_release(w);
    imp_shape_release(wx);
    imp_shape_release(c);
    imp_shape_release(cap);
    imp_shape_release(s);
}

TEST(edge_on_edge)
{
    /* two unit cubes turned 45 deg about x, one above the other by sqrt 2 + 1e-3 (exactly
       touching, the faces' normals would be as valid as +z): their edges along x face each other
       on the line y = 0, z = sqrt(2)/2; B shifted by 0.3 along x: the overlap x in [-0.2, 0.5]
       gives 2 points at distance 1e-3 */
    imp_shape *a = imp_shape3d_box(1, 1, 1), *b = imp_shape3d_box(1, 1, 1);
    double pa[7], pb[7], h = sqrt(0.5);
    imp_quat q = imp_q_from_axis_angle(imp_v3(1, 0, 0), PI / 4);
    pose_set(pa, imp_v3(0, 0, 0), q);
    pose_set(pb, imp_v3(0.3, 0, 2 * h + 1e-3), q);
    imp_vec3 want[2] = {imp_v3(-0.2, 0, h), imp_v3(0.5, 0, h)};
    imp_manifold3d m;
    CHECK(imp_manifold3d_compute(a, pa, b, pb, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(normal_is(&m, imp_v3(0, 0, 1)) && match(&m, want, 2, 1, 1e-3));
    /* crossed: B turned 45 deg about y instead: one point (0, 0, sqrt(2)/2) */
    pose_set(pb, imp_v3(0, 0, 2 * h + 1e-3), imp_q_from_axis_angle(imp_v3(0, 1, 0), PI / 4));
    imp_vec3 one = imp_v3(0, 0, h);
    CHECK(imp_manifold3d_compute(a, pa, b, pb, 0.01, &m) == IMP_NP_OK && sane(&m, 0.01));
    CHECK(match(&m, &one, 1, 1, 1e-3));
    imp_shape_release(a);
    imp_shape_release(b);
}

/* the keys of m are those of r (same set; the order may differ) */
static int same_keys(const imp_manifold3d *m, const imp_manifold3d *r)
{
    if (m->count != r->count) {
        fprintf(stderr, "  counts %d vs %d\n", m->count, r->count);
        return 0;
    }
    for (int i = 0; i < m->count; i++) {
        int found = 0;
        for (int j = 0; j < r->count; j++) {
            found |= m->points[i].key == r->points[j].key;
        }
        if (!found) {
            fprintf(stderr, "  key %x is new\n", m->points[i].key);
            return 0;
        }
    }
    return 1;
}

/* a's manifold with b before and after b moves by 1e-4 along (1, 2, -0.5)/|.| (the z part
   towards a) and turns by 1e-3 rad about (0.3, -0.2, 1): the same keys */
static int keys_stable(const imp_shape *a, const double *pa, const imp_shape *b, const double *pb, double margin,
                       int count)
{
    imp_manifold3d m0, m1;
    double pm[7];
    imp_quat q = imp_q_mul(about(0.3, -0.2, 1, 1e-3), imp_q(pb[3], pb[4], pb[5], pb[6]));
    pose_set(pm, imp_v3_madd(imp_v3_load(pb), 1e-4, imp_v3_normalize(imp_v3(1, 2, -0.5))), q);
    int ok = imp_manifold3d_compute(a, pa, b, pb, margin, &m0) == IMP_NP_OK && sane(&m0, margin) &&
             m0.count == count && imp_manifold3d_compute(a, pa, b, pm, margin, &m1) == IMP_NP_OK &&
             sane(&m1, margin) && same_keys(&m1, &m0);
    /* the other order too */
    ok = ok && imp_manifold3d_compute(b, pb, a, pa, margin, &m0) == IMP_NP_OK && sane(&m0, margin) &&
         m0.count == count && imp_manifold3d_compute(b, pm, a, pa, margin, &m1) == IMP_NP_OK &&
         sane(&m1, margin) && same_keys(&m1, &m0);
    return ok;
}

TEST(keys_persist)
{
    double pg[7], p[7], pw[7];
    imp_shape *g = ground(pg);
    pose_set(pw, imp_v3_zero(), imp_q_identity()); /* the wall z <= 0 */
    imp_shape *cube = imp_shape3d_box(1, 1, 1), *cyl = imp_shape3d_cylinder(0.5, 1, 0);
    imp_shape *cap = imp_shape3d_capsule(0.2, 1), *cone = imp_shape3d_cone(0.5, 1, 0);
    imp_shape *rbox = imp_shape3d_box_smoothed(1, 1, 1, 0.1);
    const double up[3] = {0, 0, 1};
    imp_shape *w = imp_shape3d_wall(up);
    pose_set(p, imp_v3(0.2, 0.1, 0.5), imp_q_from_axis_angle(imp_v3(0, 0, 1), 0.3));
    CHECK(keys_stable(g, pg, cube, p, 0.01, 4));
    CHECK(keys_stable(w, pw, cube, p, 0.01, 4));
    pose_set(p, imp_v3(0.2, 0.1, 0.5 + 0.003), imp_q_identity());
    CHECK(keys_stable(g, pg, rbox, p, 0.01, 4));
    pose_set(p, imp_v3(4.9, 0, 0.5), imp_q_identity());
    CHECK(keys_stable(g, pg, cube, p, 0.01, 4));
    /* a cube on a cube (a stack), shifted by (0.1, 0.05): the overlap is a rectangle; after the
       turn by 1e-3 rad its corners move by < 1e-3 of the size (the clipping tolerance), so they
       keep their keys */
    double pc[7];
    pose_set(pc, imp_v3(0.3, 0.15, -0.5 + 1e-3), imp_q_from_axis_angle(imp_v3(0, 0, 1), 0.3));
    pose_set(p, imp_v3(0.2, 0.1, 0.5), imp_q_from_axis_angle(imp_v3(0, 0, 1), 0.3));
    CHECK(keys_stable(cube, pc, cube, p, 0.01, 4));
    pose_set(p, imp_v3(1, 1, 0.5), imp_q_from_axis_angle(imp_v3(0, 0, 1), 0.2));
    CHECK(keys_stable(g, pg, cyl, p, 0.01, 4));
    CHECK(keys_stable(w, pw, cyl, p, 0.01, 4));
    pose_set(p, imp_v3(1, 1, 0.5), imp_q_from_axis_angle(imp_v3(1, 0, 0), PI / 2));
    CHECK(keys_stable(g, pg, cyl, p, 0.01, 2));
    pose_set(p, imp_v3(0, 0, 0.2), imp_q_from_axis_angle(imp_v3(0, 1, 0), PI / 2));
    CHECK(keys_stable(g, pg, cap, p, 0.01, 2));
    CHECK(keys_stable(w, pw, cap, p, 0.01, 2));
    pose_set(p, imp_v3(0, 0, 0.25), imp_q_identity());
    CHECK(keys_stable(g, pg, cone, p, 0.01, 4));
    imp_shape_release(g);
    imp_shape_release(w);
    imp_shape_release(cube);
    imp_shape_release(cyl);
    imp_shape_release(cap);
    imp_shape_release(cone);
    imp_shape_release(rbox);
}

TEST(degenerate_poses)
{
    /* coincident centres, exactly touching edges and corners, zero-size cores: finite results,
       at least one point (they overlap or touch) */
    imp_shape *s[8];
    s[0] = imp_shape3d_box(1, 1, 1);
    s[1] = imp_shape3d_sphere(0.5);
    s[2] = imp_shape3d_cylinder(0.5, 1, 0.5); /* fully rounded rim: the cap's core is a point */
    s[3] = imp_shape3d_capsule(0.3, 0.0);
    s[4] = imp_shape3d_box_smoothed(1, 1, 1, 0.5); /* a sphere-like box: the core is a point */
    s[5] = imp_shape3d_cone(0.5, 1, 0.1);
    s[6] = imp_shape3d_ellipsoid(0.5, 0.3, 0.2);
    const double v[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    s[7] = imp_shape3d_convex(v, 4, 0.0, NULL);
    double p0[7], p1[7];
    pose_set(p0, imp_v3(0.1, 0.2, 0.3), imp_q(0.9, 0.1, 0.3, -0.2));
    imp_manifold3d m;
    for (int i = 0; i < 8; i++) {
        for (int j = 0; j < 8; j++) {
            CHECK(imp_manifold3d_compute(s[i], p0, s[j], p0, 0.0, &m) <= IMP_NP_MAXITER && sane(&m, 0.0));
            CHECK(m.count >= 1);
        }
    }
    /* unit cubes corner to corner and edge to edge, exactly touching */
    pose_set(p0, imp_v3(0, 0, 0), imp_q_identity());
    pose_set(p1, imp_v3(1, 1, 1), imp_q_identity());
    CHECK(imp_manifold3d_compute(s[0], p0, s[0], p1, 0.0, &m) <= IMP_NP_MAXITER && sane(&m, 0.0) && m.count >= 1);
    pose_set(p1, imp_v3(1, 1, 0), imp_q_identity());
    CHECK(imp_manifold3d_compute(s[0], p0, s[0], p1, 0.0, &m) <= IMP_NP_MAXITER && sane(&m, 0.0) && m.count >= 1);
    /* bad input: a NaN pose */
    p1[0] = NAN;
    CHECK(imp_manifold3d_compute(s[0], p0, s[0], p1, 0.0, &m) == IMP_NP_BADINPUT && m.count == 0);
    for (int i = 0; i < 8; i++) {
        imp_shape_release(s[i]);
    }
}

/* random pairs of every kind at random poses near contact: the invariants hold, and every
   point's distance is at least the support gap along the normal (no point deeper than the
   shapes' overlap along n) */
TEST(random_pairs)
{
    imp_rng rng;
    imp_rng_seed(&rng, 7);
    const double v[24] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0.2, 0.3, 1, 1, 1, 0.1, 1, 0.5, 0.5, -0.4};
    imp_shape *s[9] = {imp_shape3d_box(1, 0.6, 0.4), imp_shape3d_sphere(0.4), imp_shape3d_cylinder(0.4, 0.9, 0.05),
                       imp_shape3d_capsule(0.2, 0.7), imp_shape3d_cone(0.4, 0.8, 0.0),
                       imp_shape3d_ellipsoid(0.5, 0.3, 0.2), imp_shape3d_convex(v, 8, 0.0, NULL),
                       imp_shape3d_convex(v, 8, 0.05, NULL), imp_shape3d_box_smoothed(0.8, 0.8, 0.5, 0.1)};
    for (int it = 0; it < 3000; it++) {
        int i = (int)imp_rng_below(&rng, 9), j = (int)imp_rng_below(&rng, 9);
        double pa[7], pb[7];
        imp_vec3 d = imp_v3(imp_rng_uniform(&rng) - 0.5, imp_rng_uniform(&rng) - 0.5, imp_rng_uniform(&rng) - 0.5);
        pose_set(pa, imp_v3_zero(), imp_q(imp_rng_uniform(&rng) - 0.5, imp_rng_uniform(&rng) - 0.5,
                                           imp_rng_uniform(&rng) - 0.5, imp_rng_uniform(&rng) - 0.5));
        pose_set(pb, imp_v3_scale(d, 1.6), imp_q(imp_rng_uniform(&rng) - 0.5, imp_rng_uniform(&rng) - 0.5,
                                                   imp_rng_uniform(&rng) - 0.5, imp_rng_uniform(&rng) - 0.5));
        imp_manifold3d m;
        imp_contact3d c;
        int st = imp_manifold3d_compute(s[i], pa, s[j], pb, 0.05, &m);
        imp_collide3d(s[i], pa, s[j], pb, &c);
        CHECK(st <= IMP_NP_MAXITER && sane(&m, 0.05));
        CHECK((m.count > 0) == (c.distance <= 0.05));
        for (int k = 0; k < m.count; k++) {
            /* no point is deeper than the narrow phase's depth beyond the tolerance of the
               reference face's choice (10% of it plus 2e-3 of the summed scales, < 2e-3 * 2.6) */
            CHECK(m.points[k].distance >= c.distance - 0.1 * fabs(c.distance) - 6e-3);
        }
    }
    for (int i = 0; i < 9; i++) {
        imp_shape_release(s[i]);
    }
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(cube_on_ground);
    RUN(cube_on_cube);
    RUN(cube_tilted_on_edge);
    RUN(cube_straddling_edge);
    RUN(sphere_on_box);
    RUN(capsule_flat);
    RUN(cylinder_standing_and_lying);
    RUN(cylinder_caps);
    RUN(cone_on_base);
    RUN(hull_face_down);
    RUN(smoothed_box_gap);
    RUN(walls);
    RUN(edge_on_edge);
    RUN(keys_persist);
    RUN(degenerate_poses);
    RUN(random_pairs);
    return CHECK_END("manifold3d");
}
