/* test_narrowphase3d.c: distances, normals and points of the 3D narrow phase against answers
   worked out by hand, and the general path (GJK, MPR + EPA) against closed forms on random
   poses (separating-axis depth of boxes, segment distances of capsules). */
#include <math.h>
#include <stdint.h>

#include "check.h"
#include "collide3d.h"
#include "mpr.h"
#include "quat.h"
#include "scalar.h"
#include "shape3d.h"
#include "support3d.h"

#define PI IMP_PI

static void pose_set(double *p, imp_vec3 x, imp_quat q)
{
    q = imp_q_normalize(q);
    p[0] = x.x, p[1] = x.y, p[2] = x.z, p[3] = q.w, p[4] = q.x, p[5] = q.y, p[6] = q.z;
}

/* the result is self-consistent: unit normal, point_b = point_a + distance * normal, finite */
static int consistent(const imp_contact3d *c, double tol)
{
    imp_vec3 n = imp_v3_load(c->normal);
    imp_vec3 d = imp_v3_sub(imp_v3_load(c->point_b), imp_v3_load(c->point_a));
    if (!isfinite(c->distance) || !imp_v3_isfinite(n) || fabs(imp_v3_len(n) - 1.0) > 1e-12) {
        fprintf(stderr, "  bad normal or distance %g (%g %g %g)\n", c->distance, n.x, n.y, n.z);
        return 0;
    }
    if (imp_v3_len(imp_v3_sub(d, imp_v3_scale(n, c->distance))) > tol) {
        fprintf(stderr, "  points inconsistent: |pb - pa - d n| = %g\n",
                imp_v3_len(imp_v3_sub(d, imp_v3_scale(n, c->distance))));
        return 0;
    }
    return 1;
}

typedef int (*collide_fn)(const imp_shape *, const double *, const imp_shape *, const double *,
                          imp_contact3d *);
static const collide_fn paths[2] = {imp_collide3d, imp_collide3d_general};

/* distance and normal of both paths against expected values */
static int expect(const imp_shape *a, const double *pa, const imp_shape *b, const double *pb, double dist,
                  imp_vec3 n, double tol)
{
    for (int k = 0; k < 2; k++) {
        imp_contact3d c;
        int st = paths[k](a, pa, b, pb, &c);
        if (st != IMP_NP_OK || !consistent(&c, 1e-9) || !(fabs(c.distance - dist) <= tol) ||
            !(imp_v3_len(imp_v3_sub(imp_v3_load(c.normal), n)) <= 1e-7)) {
            fprintf(stderr, "  path %d: status %d method %d distance %.15g (expected %.15g) normal %g %g %g\n",
                    k, st, c.method, c.distance, dist, c.normal[0], c.normal[1], c.normal[2]);
            return 0;
        }
    }
    return 1;
}

TEST(sphere_sphere)
{
    imp_shape *a = imp_shape3d_sphere(0.5), *b = imp_shape3d_sphere(0.3);
    double pa[7], pb[7];
    pose_set(pa, imp_v3(1, 2, 3), imp_q_identity());
    pose_set(pb, imp_v3(1 + 0.6, 2 + 0.8, 3), imp_q(0.3, 0.1, 0.2, 0.9));
    CHECK(expect(a, pa, b, pb, 1.0 - 0.8, imp_v3(0.6, 0.8, 0), 1e-12));
    pose_set(pb, imp_v3(1 + 0.3, 2 + 0.4, 3), imp_q_identity());
    CHECK(expect(a, pa, b, pb, 0.5 - 0.8, imp_v3(0.6, 0.8, 0), 1e-12));
    /* concentric: depth r1 + r2, some unit normal, no NaN */
    imp_contact3d c;
    CHECK(imp_collide3d(a, pa, b, pa, &c) == IMP_NP_OK && consistent(&c, 1e-12));
    CHECK_NEAR(c.distance, -0.8, 1e-15);
    CHECK(imp_collide3d_general(a, pa, b, pa, &c) == IMP_NP_OK && consistent(&c, 1e-12));
    CHECK_NEAR(c.distance, -0.8, 1e-12);
    imp_shape_release(a);
    imp_shape_release(b);
}

/* a box of size 2 x 4 x 6 turned by q; the sphere centre given in the box's frame */
static void sphere_box_case(const imp_shape *box, const double *pb, imp_vec3 local, double r, double dist,
                            imp_vec3 nlocal, int *ok)
{
    imp_quat q = imp_q(pb[3], pb[4], pb[5], pb[6]);
    imp_shape *s = imp_shape3d_sphere(r);
    double ps[7];
    pose_set(ps, imp_v3_add(imp_v3_load(pb), imp_q_rotate(q, local)), imp_q(0.5, 0.5, -0.5, 0.5));
    /* normal from the sphere (A) to the box (B) is minus the outward box normal */
    imp_vec3 n = imp_v3_neg(imp_q_rotate(q, nlocal));
    *ok = expect(s, ps, box, pb, dist, n, 1e-9) && expect(box, pb, s, ps, dist, imp_v3_neg(n), 1e-9);
    imp_shape_release(s);
}

TEST(sphere_box_face_edge_corner)
{
    imp_shape *box = imp_shape3d_box(2, 4, 6);
    double pb[7];
    pose_set(pb, imp_v3(0.5, -1, 2), imp_q(0.8, 0.3, -0.4, 0.2));
    int ok;
    double r = 0.2;
    /* face region: 0.5 outside the +x face */
    sphere_box_case(box, pb, imp_v3(1.5, 0.3, -0.2), r, 0.5 - r, imp_v3(1, 0, 0), &ok);
    CHECK(ok);
    /* edge region: (0.3, 0.4) beyond the +x +y edge */
    sphere_box_case(box, pb, imp_v3(1.3, 2.4, 0.5), r, 0.5 - r, imp_v3(0.6, 0.8, 0), &ok);
    CHECK(ok);
    /* corner region: (0.1, 0.2, 0.2) beyond the corner, distance 0.3 */
    sphere_box_case(box, pb, imp_v3(1.1, 2.2, 3.2), r, 0.3 - r, imp_v3(1.0 / 3, 2.0 / 3, 2.0 / 3), &ok);
    CHECK(ok);
    /* penetrating: centre 0.1 outside the face with r = 0.3 */
    sphere_box_case(box, pb, imp_v3(0.2, 2.1, 0.5), 0.3, 0.1 - 0.3, imp_v3(0, 1, 0), &ok);
    CHECK(ok);
    /* centre inside, 0.25 below the -z face: depth 0.25 + r */
    sphere_box_case(box, pb, imp_v3(0.1, -0.3, -2.75), 0.3, -0.55, imp_v3(0, 0, -1), &ok);
    CHECK(ok);
    /* penetrating the edge region: 0.1 from the edge, r = 0.3 */
    sphere_box_case(box, pb, imp_v3(1.06, 2.08, -1.0), 0.3, 0.1 - 0.3, imp_v3(0.6, 0.8, 0), &ok);
    CHECK(ok);
    /* sphere at the box centre: the nearest face is +-x at 1: depth 1 + r */
    imp_shape *s = imp_shape3d_sphere(0.3);
    imp_contact3d c;
    CHECK(imp_collide3d(s, pb, box, pb, &c) == IMP_NP_OK && consistent(&c, 1e-12));
    CHECK_NEAR(c.distance, -1.3, 1e-12);
    CHECK(imp_collide3d_general(s, pb, box, pb, &c) == IMP_NP_OK && consistent(&c, 1e-9));
    CHECK_NEAR(c.distance, -1.3, 1e-9);
    imp_shape_release(s);
    imp_shape_release(box);
}

/* A rotated cube of half size h standing on a corner or an edge: its highest point */
TEST(box_box_face_edge_corner_smoothed)
{
    double rs[3] = {0.0, 0.05, 0.2};
    for (int i = 0; i < 3; i++) {
        double r = rs[i];
        imp_shape *a = imp_shape3d_box_smoothed(2, 2, 2, r), *b = imp_shape3d_box_smoothed(2, 2, 2, r);
        imp_shape *flat = imp_shape3d_box_smoothed(3, 3, 1, r);
        double pa[7], pb[7];
        /* face to face, B turned about z: the same distance for every smoothing */
        pose_set(pa, imp_v3(0, 0, 0), imp_q_identity());
        pose_set(pb, imp_v3(0.3, -0.2, 2.25), imp_q_from_axis_angle(imp_v3(0, 0, 1), 0.4));
        CHECK(expect(a, pa, b, pb, 0.25, imp_v3(0, 0, 1), 1e-9));
        pose_set(pb, imp_v3(0.3, -0.2, 1.9), imp_q_from_axis_angle(imp_v3(0, 0, 1), 0.4));
        CHECK(expect(a, pa, b, pb, -0.1, imp_v3(0, 0, 1), 1e-9));
        /* edge to edge: A turned 45 deg about x (top edge along x), B 45 deg about y (bottom
           edge along y); each reaches sqrt(2) (1 - r) + r from its centre */
        double e = sqrt(2.0) * (1.0 - r) + r;
        pose_set(pa, imp_v3(0, 0, 0), imp_q_from_axis_angle(imp_v3(1, 0, 0), PI / 4));
        pose_set(pb, imp_v3(0, 0, 2 * e + 0.3), imp_q_from_axis_angle(imp_v3(0, 1, 0), PI / 4));
        CHECK(expect(a, pa, b, pb, 0.3, imp_v3(0, 0, 1), 1e-9));
        pose_set(pb, imp_v3(0, 0, 2 * e - 0.05), imp_q_from_axis_angle(imp_v3(0, 1, 0), PI / 4));
        CHECK(expect(a, pa, b, pb, -0.05, imp_v3(0, 0, 1), 1e-9));
        /* corner to face: A with its diagonal along z reaches sqrt(3) (1 - r) + r */
        double cz = sqrt(3.0) * (1.0 - r) + r;
        imp_quat qc = imp_q_mul(imp_q_from_axis_angle(imp_v3(1, -1, 0), acos(1.0 / sqrt(3.0))), imp_q_identity());
        pose_set(pa, imp_v3(0, 0, 0), qc);
        pose_set(pb, imp_v3(0.05, 0.02, cz + 0.5 + 0.2), imp_q_identity());
        CHECK(expect(a, pa, flat, pb, 0.2, imp_v3(0, 0, 1), 1e-9));
        pose_set(pb, imp_v3(0.05, 0.02, cz + 0.5 - 0.04), imp_q_identity());
        CHECK(expect(a, pa, flat, pb, -0.04, imp_v3(0, 0, 1), 1e-9));
        imp_shape_release(a);
        imp_shape_release(b);
        imp_shape_release(flat);
    }
}

TEST(capsule_capsule)
{
    imp_shape *a = imp_shape3d_capsule(0.2, 2.0), *b = imp_shape3d_capsule(0.1, 1.0);
    double pa[7], pb[7];
    /* crossing at right angles, 0.5 apart along x */
    pose_set(pa, imp_v3(0, 0, 0), imp_q_identity());
    pose_set(pb, imp_v3(0.5, 0.1, 0.2), imp_q_from_axis_angle(imp_v3(1, 0, 0), PI / 2));
    CHECK(expect(a, pa, b, pb, 0.5 - 0.3, imp_v3(1, 0, 0), 1e-9));
    pose_set(pb, imp_v3(0.25, 0.1, 0.2), imp_q_from_axis_angle(imp_v3(1, 0, 0), PI / 2));
    CHECK(expect(a, pa, b, pb, 0.25 - 0.3, imp_v3(1, 0, 0), 1e-9));
    /* end to end along the axis: gap between the hemispheres */
    pose_set(pb, imp_v3(0, 0, 1.0 + 0.5 + 0.7), imp_q_identity());
    CHECK(expect(a, pa, b, pb, 0.7 - 0.3, imp_v3(0, 0, 1), 1e-9));
    /* parallel side by side */
    pose_set(pb, imp_v3(0.28, 0, 0.3), imp_q_identity());
    CHECK(expect(a, pa, b, pb, 0.28 - 0.3, imp_v3(1, 0, 0), 1e-9));
    /* axes intersecting: depth r1 + r2, normal along d1 x d2 */
    pose_set(pb, imp_v3(0, 0, 0.1), imp_q_from_axis_angle(imp_v3(1, 0, 0), PI / 2));
    imp_contact3d c;
    CHECK(imp_collide3d(a, pa, b, pb, &c) == IMP_NP_OK && consistent(&c, 1e-12));
    CHECK_NEAR(c.distance, -0.3, 1e-12);
    CHECK_NEAR(fabs(c.normal[0]), 1.0, 1e-12);
    CHECK(imp_collide3d_general(a, pa, b, pb, &c) == IMP_NP_OK && consistent(&c, 1e-9));
    CHECK_NEAR(c.distance, -0.3, 1e-9);
    /* coaxial, overlapping */
    pose_set(pb, imp_v3(0, 0, 0.3), imp_q_identity());
    CHECK(imp_collide3d(a, pa, b, pb, &c) == IMP_NP_OK && consistent(&c, 1e-12));
    CHECK_NEAR(c.distance, -0.3, 1e-12);
    CHECK(imp_collide3d_general(a, pa, b, pb, &c) == IMP_NP_OK && consistent(&c, 1e-9));
    CHECK_NEAR(c.distance, -0.3, 1e-9);
    imp_shape_release(a);
    imp_shape_release(b);
}

/* A cylinder tilted by t about x above the plane z = 0: its lowest point is
   (H - r) cos t + (R - r) sin t + r below its centre. The plane is a wall and, on the general
   path, the top face of a large box. */
TEST(cylinder_plane_tilts)
{
    double R = 0.4, L = 1.2, H = 0.6;
    imp_shape *wall = imp_shape3d_wall(NULL), *slab = imp_shape3d_box(40, 40, 2);
    double pw[7], ps[7];
    pose_set(pw, imp_v3(0, 0, 0), imp_q_identity());
    pose_set(ps, imp_v3(0, 0, -1), imp_q_identity());
    for (int k = 0; k < 2; k++) {
        double r = k ? 0.1 : 0.0;
        imp_shape *cyl = imp_shape3d_cylinder(R, L, r);
        for (int i = 0; i <= 6; i++) {
            double t = i * PI / 12 + 0.013;
            double low = (H - r) * fabs(cos(t)) + (R - r) * sin(t) + r;
            double pc[7];
            for (int pen = 0; pen < 2; pen++) {
                double gap = pen ? -0.07 : 0.15;
                pose_set(pc, imp_v3(0.3, -0.1, low + gap), imp_q_from_axis_angle(imp_v3(1, 0, 0), t));
                imp_contact3d c;
                CHECK(imp_collide3d(cyl, pc, wall, pw, &c) == IMP_NP_OK && consistent(&c, 1e-12));
                CHECK_NEAR(c.distance, gap, 1e-12);
                CHECK_NEAR(c.normal[2], -1.0, 1e-12);
                CHECK(imp_collide3d(wall, pw, cyl, pc, &c) == IMP_NP_OK && consistent(&c, 1e-12));
                CHECK_NEAR(c.distance, gap, 1e-12);
                CHECK_NEAR(c.point_a[2], 0.0, 1e-12);
                CHECK(expect(slab, ps, cyl, pc, gap, imp_v3(0, 0, 1), 1e-9));
            }
        }
        imp_shape_release(cyl);
    }
    imp_shape *sph = imp_shape3d_sphere(0.5);
    double pc[7];
    pose_set(pc, imp_v3(2, 3, 0.4), imp_q_identity());
    imp_contact3d c;
    CHECK(imp_collide3d(sph, pc, wall, pw, &c) == IMP_NP_OK);
    CHECK_NEAR(c.distance, -0.1, 1e-15);
    CHECK(imp_collide3d(wall, pw, wall, pw, &c) == IMP_NP_UNSUPPORTED);
    imp_shape_release(sph);
    imp_shape_release(wall);
    imp_shape_release(slab);
}

TEST(degenerate_inputs_give_no_nan)
{
    imp_shape *box = imp_shape3d_box(1, 1, 1), *big = imp_shape3d_box(4, 4, 4);
    imp_shape *cyl = imp_shape3d_cylinder(0.5, 1.0, 0.1), *el = imp_shape3d_ellipsoid(0.3, 0.4, 0.5);
    double p[7];
    pose_set(p, imp_v3(1, 1, 1), imp_q(0.9, 0.1, 0.2, 0.3));
    imp_contact3d c;
    /* concentric identical boxes: depth 1 (half size + half size) */
    CHECK(imp_collide3d(box, p, box, p, &c) == IMP_NP_OK && consistent(&c, 1e-9));
    CHECK_NEAR(c.distance, -1.0, 1e-9);
    /* a box inside a bigger one, concentric: depth 2 + 0.5 */
    CHECK(imp_collide3d(box, p, big, p, &c) == IMP_NP_OK && consistent(&c, 1e-9));
    CHECK_NEAR(c.distance, -2.5, 1e-9);
    CHECK(imp_collide3d(cyl, p, el, p, &c) == IMP_NP_OK && consistent(&c, 1e-9));
    CHECK(c.distance < 0.0);
    /* touching face to face exactly */
    double q[7];
    pose_set(q, imp_v3(1, 1, 1), imp_q_identity());
    double q2[7] = {2, 1.2, 1.1, 1, 0, 0, 0};
    CHECK(imp_collide3d(box, q, box, q2, &c) == IMP_NP_OK && consistent(&c, 1e-9));
    CHECK_NEAR(c.distance, 0.0, 1e-12);
    CHECK_NEAR(c.normal[0], 1.0, 1e-9);
    /* bad input */
    double bad[7] = {0, 0, NAN, 1, 0, 0, 0};
    CHECK(imp_collide3d(box, bad, box, q, &c) == IMP_NP_BADINPUT);
    CHECK(c.distance == 0.0);
    imp_shape_release(box);
    imp_shape_release(big);
    imp_shape_release(cyl);
    imp_shape_release(el);
}

/* MPR's own estimate is the true depth where its portal lies on the contact face (a sphere
   sunk 1e-3 into a box top at several offsets from the centre): no rescaling (Modia3D
   returns the depth divided by the largest coordinate of its first portal, modia3d.md 1b) */
TEST(mpr_depth_is_not_rescaled)
{
    imp_shape *box = imp_shape3d_box(4, 3, 1), *s = imp_shape3d_sphere(0.5);
    double pb[7], ps[7];
    pose_set(pb, imp_v3(0.3, -0.2, 0.1), imp_q_identity());
    for (int i = 0; i < 5; i++) {
        double off = 0.35 * i;
        pose_set(ps, imp_v3(0.3 + off, -0.2 + 0.5 * off, 0.1 + 0.5 + 0.5 - 1e-3), imp_q_identity());
        imp_contact3d c;
        int st = imp_collide3d_mpr(box, pb, s, ps, &c);
        CHECK(st == IMP_NP_OK || st == IMP_NP_MAXITER);
        CHECK_NEAR(c.distance, -1e-3, 1e-6);
        CHECK_NEAR(c.normal[2], 1.0, 1e-3);
        CHECK(imp_collide3d_general(box, pb, s, ps, &c) == IMP_NP_OK);
        CHECK_NEAR(c.distance, -1e-3, 1e-12);
    }
    imp_shape_release(box);
    imp_shape_release(s);
}

/* EPA whose polytope loses every face in one expansion (each face "sees" the new support
   point: a NaN support point, or a tolerance that is NaN or so negative that faces below the
   point count as visible) has no closest face left: it must say DEGENERATE and leave its
   defaults, never index the face array at -1 (UBSan) or report a zero normal as MAXITER. */
static int epa_fails_cleanly(const imp_mink3d *m, const imp_mvert tet[4], double tol)
{
    imp_epa_result r;
    imp_epa(m, tet, tol, 590, &r);
    if (r.status != IMP_MPR_DEGENERATE || r.depth != 0.0 || r.normal.x != 0.0 || r.normal.y != 0.0 ||
        r.normal.z != 1.0 || !imp_v3_isfinite(r.pa) || !imp_v3_isfinite(r.pb)) {
        fprintf(stderr, "  tol %g: status %d depth %g normal %g %g %g\n", tol, r.status, r.depth, r.normal.x,
                r.normal.y, r.normal.z);
        return 0;
    }
    return 1;
}

TEST(epa_without_faces_is_degenerate)
{
    imp_shape *box = imp_shape3d_box(0.01, 0.01, 0.01);
    double p0[7] = {0, 0, 0, 1, 0, 0, 0}, p1[7] = {0.003, 0.002, 0.001, 1, 0, 0, 0};
    imp_support3d sa, sb;
    imp_support3d_init(&sa, box, p0);
    imp_support3d_init(&sb, box, p1);
    imp_mink3d m = {&sa, &sb, 0};
    imp_mpr_result mr;
    imp_mpr(&m, 1e-12, 128, 1, &mr);
    CHECK(mr.status == IMP_MPR_HIT);
    /* A - B fits in a ball of radius 0.01 sqrt(3) < 0.1 * 1: with tol = -1 every face is
       within 0.1 |tol| of the support point, so all are removed and none is added */
    CHECK(epa_fails_cleanly(&m, mr.tet, -1.0));
    CHECK(epa_fails_cleanly(&m, mr.tet, NAN));
    /* a NaN position of B: every support point is NaN and every comparison false */
    double pn[7] = {NAN, 0, 0, 1, 0, 0, 0};
    imp_support3d_init(&sb, box, pn);
    CHECK(epa_fails_cleanly(&m, mr.tet, 1e-12));
    imp_shape_release(box);
}

/* ---- random poses ---- */

static uint64_t rng = 0x243F6A8885A308D3ull;
static double urand(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (double)((rng * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
}
static double srand1(void) { return 2.0 * urand() - 1.0; }
static imp_quat rquat(void) { return imp_q_normalize(imp_q(srand1(), srand1(), srand1(), srand1())); }

/* separating-axis depth of two boxes (centre, rotation, half extents): the minimum overlap of
   the projections on the 15 candidate axes; > 0 when they overlap (then it is the exact
   penetration depth of the two polytopes) */
static double sat_depth(imp_vec3 ca, const imp_mat3 *ra, const double *ha, imp_vec3 cb, const imp_mat3 *rb,
                        const double *hb)
{
    imp_vec3 ax[15];
    int n = 0;
    for (int i = 0; i < 3; i++) {
        ax[n++] = imp_v3(ra->m[0][i], ra->m[1][i], ra->m[2][i]);
    }
    for (int i = 0; i < 3; i++) {
        ax[n++] = imp_v3(rb->m[0][i], rb->m[1][i], rb->m[2][i]);
    }
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            imp_vec3 c = imp_v3_cross(ax[i], ax[3 + j]);
            if (imp_v3_len(c) > 1e-6) {
                ax[n++] = imp_v3_normalize(c);
            }
        }
    }
    double best = INFINITY;
    for (int k = 0; k < n; k++) {
        double pa = 0, pb = 0;
        for (int i = 0; i < 3; i++) {
            pa += ha[i] * fabs(imp_v3_dot(ax[k], ax[i]));
            pb += hb[i] * fabs(imp_v3_dot(ax[k], ax[3 + i]));
        }
        best = fmin(best, pa + pb - fabs(imp_v3_dot(ax[k], imp_v3_sub(cb, ca))));
    }
    return best;
}

static long random_count(void)
{
    const char *e = getenv("IMPACT_SLOW");
    return (e != NULL && strcmp(e, "1") == 0) ? 100000 : 10000;
}

/* boxes (sharp or rounded) in random poses: the general path (GJK / MPR + EPA) against the
   separating-axis depth of their cores plus the radii, whenever the cores overlap */
TEST(random_box_box_depth_vs_sat)
{
    long n = random_count(), checked = 0;
    for (long it = 0; it < n; it++) {
        double ha[3], hb[3], r1 = urand() < 0.5 ? 0.0 : 0.1 * urand(), r2 = urand() < 0.5 ? 0.0 : 0.1 * urand();
        for (int i = 0; i < 3; i++) {
            ha[i] = 0.2 + urand(), hb[i] = 0.2 + urand();
        }
        imp_shape *a = imp_shape3d_box_smoothed(2 * (ha[0] + r1), 2 * (ha[1] + r1), 2 * (ha[2] + r1), r1);
        imp_shape *b = imp_shape3d_box_smoothed(2 * (hb[0] + r2), 2 * (hb[1] + r2), 2 * (hb[2] + r2), r2);
        imp_quat qa = rquat(), qb = rquat();
        imp_vec3 ca = imp_v3(srand1(), srand1(), srand1()), cb = imp_v3(srand1(), srand1(), srand1());
        double pa[7], pb[7];
        pose_set(pa, ca, qa);
        pose_set(pb, cb, qb);
        imp_mat3 ra = imp_q_to_mat3(imp_q_normalize(qa)), rb = imp_q_to_mat3(imp_q_normalize(qb));
        double sat = sat_depth(ca, &ra, ha, cb, &rb, hb);
        imp_contact3d c;
        int st = imp_collide3d_general(a, pa, b, pb, &c);
        imp_shape_release(a);
        imp_shape_release(b);
        if (st != IMP_NP_OK) {
            fprintf(stderr, "  status %d method %d iterations %d distance %g sat %g\n", st, c.method, c.iterations,
                    c.distance, sat);
        }
        CHECK(st == IMP_NP_OK);
        CHECK(consistent(&c, 1e-9));
        if (sat > 1e-6) {
            CHECK_NEAR(c.distance, -(sat + r1 + r2), 1e-9);
            checked++;
        }
    }
    CHECK(checked > n / 2);
}

/* capsules and spheres in random poses: the general path against the closed form */
TEST(random_capsule_sphere_general_vs_analytic)
{
    long n = random_count();
    for (long it = 0; it < n; it++) {
        imp_shape *a = urand() < 0.3 ? imp_shape3d_sphere(0.1 + 0.5 * urand())
                                     : imp_shape3d_capsule(0.1 + 0.5 * urand(), 2 * urand());
        imp_shape *b = urand() < 0.3 ? imp_shape3d_sphere(0.1 + 0.5 * urand())
                                     : imp_shape3d_capsule(0.1 + 0.5 * urand(), 2 * urand());
        double pa[7], pb[7];
        pose_set(pa, imp_v3(srand1(), srand1(), srand1()), rquat());
        pose_set(pb, imp_v3(srand1(), srand1(), srand1()), rquat());
        imp_contact3d c1, c2;
        CHECK(imp_collide3d(a, pa, b, pb, &c1) == IMP_NP_OK && c1.method == IMP_NP_ANALYTIC);
        CHECK(imp_collide3d_general(a, pa, b, pb, &c2) == IMP_NP_OK);
        CHECK(consistent(&c1, 1e-12) && consistent(&c2, 1e-9));
        CHECK_NEAR(c1.distance, c2.distance, 1e-9);
        imp_shape_release(a);
        imp_shape_release(b);
    }
}

/* a sphere and a rotated box (sharp or rounded) in random poses: analytic against general */
TEST(random_sphere_box_general_vs_analytic)
{
    long n = random_count();
    for (long it = 0; it < n; it++) {
        double s[3] = {0.3 + urand(), 0.3 + urand(), 0.3 + urand()};
        double r = urand() < 0.5 ? 0.0 : 0.1 * urand();
        imp_shape *a = imp_shape3d_sphere(0.05 + 0.5 * urand());
        imp_shape *b = imp_shape3d_box_smoothed(s[0], s[1], s[2], r);
        double pa[7], pb[7];
        pose_set(pa, imp_v3(srand1(), srand1(), srand1()), rquat());
        pose_set(pb, imp_v3(srand1(), srand1(), srand1()), rquat());
        imp_contact3d c1, c2;
        CHECK(imp_collide3d(a, pa, b, pb, &c1) == IMP_NP_OK && c1.method == IMP_NP_ANALYTIC);
        CHECK(imp_collide3d_general(a, pa, b, pb, &c2) == IMP_NP_OK);
        CHECK(consistent(&c1, 1e-12) && consistent(&c2, 1e-9));
        CHECK_NEAR(c1.distance, c2.distance, 1e-9);
        imp_shape_release(a);
        imp_shape_release(b);
    }
}

static imp_shape *random_shape(void)
{
    int k = (int)(urand() * 7);
    double a = 0.2 + 0.6 * urand(), b = 0.2 + 0.6 * urand(), c = 0.2 + 0.6 * urand();
    switch (k) {
    case 0: return imp_shape3d_sphere(a);
    case 1: return imp_shape3d_ellipsoid(a, b, c);
    case 2: return imp_shape3d_box_smoothed(a, b, c, urand() < 0.5 ? 0.0 : 0.2 * fmin(a, fmin(b, c)));
    case 3: return imp_shape3d_cylinder(a, b, urand() < 0.5 ? 0.0 : 0.2 * fmin(a, b / 2));
    case 4: return imp_shape3d_capsule(a, b);
    case 5: return imp_shape3d_cone(a, b, urand() < 0.5 ? 0.0 : 0.1 * fmin(a, b));
    default: {
        double p[3 * 12];
        for (int i = 0; i < 36; i++) {
            p[i] = 0.5 * srand1();
        }
        return imp_shape3d_convex(p, 12, urand() < 0.5 ? 0.0 : 0.05, NULL);
    }
    }
}

/* every pair of kinds in random poses: MPR's hit/miss agrees with GJK's sign; MPR's depth is
   an upper bound of the true depth; moving B by the reported depth along the normal just
   separates the shapes (checked with GJK) */
TEST(random_all_pairs_mpr_vs_gjk)
{
    long n = random_count(), hits = 0, misses = 0, capped = 0;
    for (long it = 0; it < n; it++) {
        imp_shape *a = random_shape(), *b = random_shape();
        CHECK(a != NULL && b != NULL);
        double pa[7], pb[7];
        pose_set(pa, imp_v3(0.6 * srand1(), 0.6 * srand1(), 0.6 * srand1()), rquat());
        pose_set(pb, imp_v3(0.6 * srand1(), 0.6 * srand1(), 0.6 * srand1()), rquat());
        imp_contact3d g, m;
        int gs = imp_collide3d_general(a, pa, b, pb, &g);
        if (gs != IMP_NP_OK) {
            fprintf(stderr, "  %s/%s: general status %d method %d iterations %d distance %g\n", a->cls->name,
                    b->cls->name, gs, g.method, g.iterations, g.distance);
        }
        CHECK(gs == IMP_NP_OK);
        CHECK(consistent(&g, 1e-9));
        /* MPR alone converges linearly on curved surfaces: an estimate at its iteration cap
           is allowed (and counted) */
        int ms = imp_collide3d_mpr(a, pa, b, pb, &m);
        CHECK(ms == IMP_NP_OK || ms == IMP_NP_MAXITER);
        capped += ms == IMP_NP_MAXITER;
        if (g.distance > 1e-9) {
            CHECK(m.distance == 0.0 && m.method == IMP_NP_GJK); /* MPR: miss */
            misses++;
        } else if (g.distance < -1e-9) {
            CHECK(m.method == IMP_NP_MPR_EPA);                /* MPR: hit */
            if (ms == IMP_NP_OK && !(m.distance <= g.distance + 1e-6)) {
                fprintf(stderr, "  %s/%s: MPR %.12g (status %d, %d it) general %.12g (method %d, %d it)\n", a->cls->name,
                        b->cls->name, m.distance, ms, m.iterations, g.distance, g.method, g.iterations);
            }
            CHECK(ms != IMP_NP_OK || m.distance <= g.distance + 1e-6); /* MPR depth >= true depth */
            CHECK(consistent(&m, 1e-9));
            hits++;
            /* translate B by (depth +- 1e-7) along the normal */
            for (int s = -1; s <= 1; s += 2) {
                double pm[7];
                for (int i = 0; i < 7; i++) {
                    pm[i] = pb[i];
                }
                for (int i = 0; i < 3; i++) {
                    pm[i] += (-g.distance + s * 1e-7) * g.normal[i];
                }
                imp_contact3d t;
                CHECK(imp_collide3d_general(a, pa, b, pm, &t) == IMP_NP_OK);
                if (!(s * t.distance > 0.0 && fabs(t.distance) < 2e-7)) {
                    fprintf(stderr, "  %s/%s after moving by depth %+g: %.3g (depth %.12g method %d it %d)\n",
                            a->cls->name, b->cls->name, s * 1e-7, t.distance, g.distance, g.method, g.iterations);
                }
                CHECK(s * t.distance > 0.0 && fabs(t.distance) < 2e-7);
            }
        }
        imp_shape_release(a);
        imp_shape_release(b);
    }
    printf("MPR vs GJK: %ld pairs, %ld penetrating, %ld separated, MPR at its cap %ld\n", n, hits, misses, capped);
    CHECK(hits > n / 10 && misses > n / 10);
    CHECK(capped < n / 100);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(sphere_sphere);
    RUN(sphere_box_face_edge_corner);
    RUN(box_box_face_edge_corner_smoothed);
    RUN(capsule_capsule);
    RUN(cylinder_plane_tilts);
    RUN(degenerate_inputs_give_no_nan);
    RUN(mpr_depth_is_not_rescaled);
    RUN(epa_without_faces_is_degenerate);
    RUN(random_box_box_depth_vs_sat);
    RUN(random_capsule_sphere_general_vs_analytic);
    RUN(random_sphere_box_general_vs_analytic);
    RUN(random_all_pairs_mpr_vs_gjk);
    return CHECK_END("narrowphase3d");
}
