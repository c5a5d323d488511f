/* test_manifold_polyhedral.c: contact manifolds of convex polyhedra from their volumetric
   intersection (manifold_polyhedral.h) against the geometry of each scene: two cubes face to face
   give the corners of their shared face's overlap, a tetrahedron's corner in a cube its apex at
   the depth of the corner; keys persist; separated pairs fall back to the general manifold. */
#include <math.h>

#include "check.h"
#include "contact_polyhedral.h"
#include "manifold_polyhedral.h"
#include "quat.h"
#include "scalar.h"
#include "shape3d.h"

#define PI IMP_PI

static void pose_set(double *p, imp_vec3 x, imp_quat q)
{
    q = imp_q_normalize(q);
    p[0] = x.x, p[1] = x.y, p[2] = x.z, p[3] = q.w, p[4] = q.x, p[5] = q.y, p[6] = q.z;
}

/* unit normal, finite points with point_b = point_a + distance normal, keys distinct */
static int sane(const imp_manifold3d *m)
{
    imp_vec3 n = imp_v3_load(m->normal);
    if (m->count < 0 || m->count > IMP_MANIFOLD3D_MAX || fabs(imp_v3_len(n) - 1.0) > 1e-12) {
        fprintf(stderr, "  count %d normal %g %g %g\n", m->count, n.x, n.y, n.z);
        return 0;
    }
    for (int i = 0; i < m->count; i++) {
        const imp_manifold3d_point *p = &m->points[i];
        imp_vec3 pa = imp_v3_load(p->point_a), pb = imp_v3_load(p->point_b);
        if (!imp_v3_isfinite(pa) || !isfinite(p->distance) || imp_v3_dist(pb, imp_v3_madd(pa, p->distance, n)) > 1e-9) {
            fprintf(stderr, "  point %d inconsistent\n", i);
            return 0;
        }
        for (int j = 0; j < i; j++) {
            if (m->points[j].key == p->key) {
                fprintf(stderr, "  keys %d and %d equal\n", j, i);
                return 0;
            }
        }
    }
    return 1;
}

/* every expected point is point_a (on_a) or point_b of one manifold point within tol, with the
   expected distance; the count is k */
static int match(const imp_manifold3d *m, const imp_vec3 *want, int k, int on_a, double dist, double tol)
{
    int ok = m->count == k;
    for (int j = 0; j < k && ok; j++) {
        int found = 0;
        for (int i = 0; i < m->count && !found; i++) {
            imp_vec3 q = imp_v3_load(on_a ? m->points[i].point_a : m->points[i].point_b);
            found = imp_v3_dist(q, want[j]) <= tol && fabs(m->points[i].distance - dist) <= tol;
        }
        ok = found;
    }
    if (!ok) {
        fprintf(stderr, "  expected %d points at distance %g; got %d:\n", k, dist, m->count);
        for (int i = 0; i < m->count; i++) {
            const double *q = on_a ? m->points[i].point_a : m->points[i].point_b;
            fprintf(stderr, "    %.12g %.12g %.12g  d %.6g\n", q[0], q[1], q[2], m->points[i].distance);
        }
    }
    return ok;
}

static imp_shape *hull_cube(void)
{
    const double v[24] = {-.5, -.5, -.5, .5, -.5, -.5, .5, .5, -.5, -.5, .5, -.5,
                          -.5, -.5, .5,  .5, -.5, .5,  .5, .5, .5,  -.5, .5, .5};
    return imp_shape3d_convex(v, 8, 0.0, NULL);
}

TEST(cubes_face_to_face)
{
    /* A: unit cube at the origin (top face z = 0.5); B: unit cube at (0.2, 0.1, 1 - d), d = 1e-3:
       the overlap is the slab z in [0.5 - d, 0.5] over x in [-0.3, 0.5], y in [-0.4, 0.5]. Its
       normal (contact_polyhedral: the sum of S^2 n over its faces on A minus over its faces on B)
       is (2 sx^2, 2 sy^2, 2 S^2) normalised, with the side walls sx = 0.9 d = 0.9e-3 (the x walls
       span y in [-0.4, 0.5]), sy = 0.8 d = 0.8e-3 and the top and bottom S = 0.8 x 0.9 = 0.72: tilted
       by about 1.6e-6 from +z. The 4 corners of that rectangle: point_a on A's top face
       (z = 0.5), point_b on B's bottom (z = 0.5 - d), distance -d (along the tilted normal: within
       1e-6 of the size). Both a box and a hull cube, both orders. */
    double d = 1e-3, pa[7], pb[7];
    imp_shape *box = imp_shape3d_box(1, 1, 1), *hull = hull_cube();
    CHECK(hull != NULL);
    pose_set(pa, imp_v3(0, 0, 0), imp_q_identity());
    pose_set(pb, imp_v3(0.2, 0.1, 1 - d), imp_q_identity());
    imp_vec3 top[4] = {imp_v3(-0.3, -0.4, 0.5), imp_v3(0.5, -0.4, 0.5), imp_v3(0.5, 0.5, 0.5), imp_v3(-0.3, 0.5, 0.5)};
    imp_vec3 bottom[4];
    for (int i = 0; i < 4; i++) {
        bottom[i] = imp_v3(top[i].x, top[i].y, 0.5 - d);
    }
    imp_vec3 nz = imp_v3_normalize(imp_v3(2 * 0.9e-3 * 0.9e-3, 2 * 0.8e-3 * 0.8e-3, 2 * 0.72 * 0.72));
    imp_poly_work w = {0};
    imp_manifold3d m;
    const imp_shape *sa[2] = {box, hull};
    for (int k = 0; k < 4; k++) {
        const imp_shape *a = sa[k % 2], *b = sa[k / 2];
        CHECK(imp_poly_manifold(a, pa, b, pb, 0.0, 0.01, &w, &m) == IMP_PC_CONTACT && sane(&m));
        CHECK(imp_v3_dist(imp_v3_load(m.normal), nz) <= 1e-9);
        CHECK(match(&m, top, 4, 1, -d, 1e-6) && match(&m, bottom, 4, 0, -d, 1e-6));
        /* B first: the normal flips, the points swap roles */
        CHECK(imp_poly_manifold(b, pb, a, pa, 0.0, 0.01, &w, &m) == IMP_PC_CONTACT && sane(&m));
        CHECK(imp_v3_dist(imp_v3_load(m.normal), imp_v3_neg(nz)) <= 1e-9);
        CHECK(match(&m, bottom, 4, 1, -d, 1e-6) && match(&m, top, 4, 0, -d, 1e-6));
    }
    /* exactly touching: Solfec's swelling gives a slab 2 eps thick (eps = 1e-6 of the summed
       bounding radii, about 1.7e-6); the 4 corners at distance 0 within that */
    pose_set(pb, imp_v3(0.2, 0.1, 1), imp_q_identity());
    CHECK(imp_poly_manifold(box, pa, box, pb, 0.0, 0.01, &w, &m) == IMP_PC_CONTACT && sane(&m));
    CHECK(imp_v3_dist(imp_v3_load(m.normal), imp_v3(0, 0, 1)) <= 1e-5);
    CHECK(match(&m, top, 4, 1, 0.0, 4e-6));
    imp_poly_work_free(&w);
    imp_shape_release(box);
    imp_shape_release(hull);
}

TEST(tetrahedron_corner_in_cube)
{
    /* tetrahedron with its apex at the origin and its base triangle at z = 1 (corners (1, 0),
       (-1/2, +-sqrt(3)/2)): its centroid is 3/4 up. Posed so that the apex is d = 0.02 below the
       unit cube's top face (z = 0.5) at (0.1, -0.1): the intersection is the corner cut off by
       that face, a small tetrahedron whose faces on the tetrahedron (B) are symmetric about the
       vertical, so the normal is +z; the apex is the deepest point, distance -d, point_b at the
       apex and point_a on the face above it; the three cut corners (on the face, scaled by d)
       are at distance 0. */
    const double v[12] = {0, 0, 0, 1, 0, 1, -0.5, sqrt(3.0) / 2, 1, -0.5, -sqrt(3.0) / 2, 1};
    double d = 0.02, pa[7], pb[7];
    imp_shape *cube = imp_shape3d_box(1, 1, 1), *tet = imp_shape3d_convex(v, 4, 0.0, NULL);
    CHECK(tet != NULL);
    pose_set(pa, imp_v3(0, 0, 0), imp_q_identity());
    pose_set(pb, imp_v3(0.1, -0.1, 0.5 - d + 0.75), imp_q_identity());
    imp_poly_work w = {0};
    imp_manifold3d m;
    CHECK(imp_poly_manifold(cube, pa, tet, pb, 0.0, 0.01, &w, &m) == IMP_PC_CONTACT && sane(&m));
    CHECK(imp_v3_dist(imp_v3_load(m.normal), imp_v3(0, 0, 1)) <= 1e-9);
    imp_vec3 apex_b = imp_v3(0.1, -0.1, 0.5 - d);
    imp_vec3 cut[3] = {imp_v3(0.1 + d, -0.1, 0.5), imp_v3(0.1 - d / 2, -0.1 + d * sqrt(3.0) / 2, 0.5),
                       imp_v3(0.1 - d / 2, -0.1 - d * sqrt(3.0) / 2, 0.5)};
    CHECK(m.count == 4);
    int apex = 0, cuts = 0;
    for (int i = 0; i < m.count; i++) {
        imp_vec3 qa = imp_v3_load(m.points[i].point_a), qb = imp_v3_load(m.points[i].point_b);
        if (imp_v3_dist(qb, apex_b) <= 1e-9) {
            apex++;
            CHECK_NEAR(m.points[i].distance, -d, 1e-9);
            CHECK(imp_v3_dist(qa, imp_v3(0.1, -0.1, 0.5)) <= 1e-9);
        }
        for (int j = 0; j < 3; j++) {
            if (imp_v3_dist(qa, cut[j]) <= 4e-6) {
                cuts++;
                CHECK_NEAR(m.points[i].distance, 0.0, 4e-6);
            }
        }
    }
    CHECK(apex == 1 && cuts == 3);
    /* the tetrahedron first: the normal is -z, the apex is point_a */
    CHECK(imp_poly_manifold(tet, pb, cube, pa, 0.0, 0.01, &w, &m) == IMP_PC_CONTACT && sane(&m));
    CHECK(imp_v3_dist(imp_v3_load(m.normal), imp_v3(0, 0, -1)) <= 1e-9);
    CHECK(m.count == 4);
    int found = 0;
    for (int i = 0; i < m.count; i++) {
        found += imp_v3_dist(imp_v3_load(m.points[i].point_a), apex_b) <= 1e-9 &&
                 fabs(m.points[i].distance + d) <= 1e-9;
    }
    CHECK(found == 1);
    imp_poly_work_free(&w);
    imp_shape_release(cube);
    imp_shape_release(tet);
}

TEST(separated_fallback_and_keys)
{
    /* 0.004 apart (more than eps): the volumetric path finds nothing and the general manifold
       gives the 4 corners at distance 0.004 within the margin 0.01, none within 0.001 */
    double pa[7], pb[7];
    imp_shape *box = imp_shape3d_box(1, 1, 1);
    pose_set(pa, imp_v3(0, 0, 0), imp_q_identity());
    pose_set(pb, imp_v3(0.2, 0.1, 1.004), imp_q_identity());
    imp_poly_work w = {0};
    imp_manifold3d m, m2;
    CHECK(imp_poly_manifold(box, pa, box, pb, 0.0, 0.01, &w, &m) == IMP_PC_SEPARATED && sane(&m) && m.count == 4);
    for (int i = 0; i < 4; i++) {
        CHECK_NEAR(m.points[i].distance, 0.004, 1e-9);
    }
    CHECK(imp_poly_manifold(box, pa, box, pb, 0.0, 0.001, &w, &m) == IMP_PC_SEPARATED && m.count == 0);
    /* penetrating by 2e-3, then moved by 1e-4 and turned by 1e-3 rad about z: the same keys */
    pose_set(pb, imp_v3(0.2, 0.1, 1 - 2e-3), imp_q_from_axis_angle(imp_v3(0, 0, 1), 0.0));
    CHECK(imp_poly_manifold(box, pa, box, pb, 0.0, 0.01, &w, &m) == IMP_PC_CONTACT && sane(&m) && m.count == 4);
    pose_set(pb, imp_v3(0.2 + 1e-4, 0.1, 1 - 2e-3), imp_q_from_axis_angle(imp_v3(0, 0, 1), 1e-3));
    CHECK(imp_poly_manifold(box, pa, box, pb, 0.0, 0.01, &w, &m2) == IMP_PC_CONTACT && sane(&m2) && m2.count == 4);
    for (int i = 0; i < 4; i++) {
        int found = 0;
        for (int j = 0; j < 4; j++) {
            found |= m.points[i].key == m2.points[j].key;
        }
        CHECK(found);
    }
    /* not polyhedra: a sphere */
    imp_shape *s = imp_shape3d_sphere(0.5);
    CHECK(imp_poly_manifold(box, pa, s, pb, 0.0, 0.01, &w, &m) == IMP_PC_BADINPUT && m.count == 0);
    imp_shape_release(s);
    imp_poly_work_free(&w);
    imp_shape_release(box);
}

TEST(tilted_cube_wedge)
{
    /* a unit cube tilted by t = 0.01 rad about x, its lowest edge d = 1e-3 into the cube below:
       the intersection is a wedge; every point lies within the wedge's depth (0 >= distance >=
       -d, up to the tilt of the normal) and the deepest reaches about d */
    double t = 0.01, d = 1e-3, pa[7], pb[7];
    imp_shape *box = imp_shape3d_box(1, 1, 1);
    pose_set(pa, imp_v3(0, 0, 0), imp_q_identity());
    pose_set(pb, imp_v3(0, 0, 0.5 + 0.5 * (sin(t) + cos(t)) - d), imp_q_from_axis_angle(imp_v3(1, 0, 0), t));
    imp_poly_work w = {0};
    imp_manifold3d m;
    CHECK(imp_poly_manifold(box, pa, box, pb, 0.0, 0.01, &w, &m) == IMP_PC_CONTACT && sane(&m));
    CHECK(m.count >= 3);
    double lo = 0.0;
    for (int i = 0; i < m.count; i++) {
        CHECK(m.points[i].distance <= 1e-12 && m.points[i].distance >= -d * 1.01);
        lo = fmin(lo, m.points[i].distance);
    }
    CHECK(lo <= -0.99 * d);
    imp_poly_work_free(&w);
    imp_shape_release(box);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(cubes_face_to_face);
    RUN(tetrahedron_corner_in_cube);
    RUN(separated_fallback_and_keys);
    RUN(tilted_cube_wedge);
    return CHECK_END("manifold_polyhedral");
}
