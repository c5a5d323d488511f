/* test_collide3d_box.c: the box/box separating-axis path of the 3D narrow phase (collide3d_box.c)
   against hand-worked depths (face on face, edge across edge) and against its defining property
   on random overlapping boxes: its depth is EPA's (the least translation), translating B by
   -distance * normal brings the boxes to touching (the general path then finds distance 0),
   and the witness points lie on the boxes. */
#include <math.h>

#include "check.h"
#include "collide3d.h"
#include "quat.h"
#include "rng.h"
#include "shape3d.h"

static void pose_set(double *p, imp_vec3 x, imp_quat q)
{
    q = imp_q_normalize(q);
    p[0] = x.x, p[1] = x.y, p[2] = x.z, p[3] = q.w, p[4] = q.x, p[5] = q.y, p[6] = q.z;
}

/* the largest |coordinate| / half extent of world point x in the box (size s) at pose p */
static double inside(const double *s, const double *p, const double *x)
{
    imp_quat q = imp_q(p[3], p[4], p[5], p[6]);
    imp_vec3 l = imp_q_unrotate(q, imp_v3(x[0] - p[0], x[1] - p[1], x[2] - p[2]));
    return fmax(fabs(l.x) / (0.5 * s[0]), fmax(fabs(l.y) / (0.5 * s[1]), fabs(l.z) / (0.5 * s[2])));
}

TEST(face_on_face)
{
    imp_shape *a = imp_shape3d_box(2, 2, 2), *b = imp_shape3d_box(1, 1, 1);
    double pa[7], pb[7];
    pose_set(pa, imp_v3(0, 0, 0), imp_q_identity());
    /* B's bottom face 0.01 below A's top face, turned about z: still face on face */
    pose_set(pb, imp_v3(0.2, -0.1, 1.49), imp_q_from_axis_angle(imp_v3(0, 0, 1), 0.3));
    imp_contact3d c;
    CHECK(imp_collide3d(a, pa, b, pb, &c) == IMP_NP_OK);
    CHECK(c.method == IMP_NP_ANALYTIC);
    CHECK_NEAR(c.distance, -0.01, 1e-14);
    CHECK_NEAR(c.normal[2], 1.0, 1e-15);
    /* the witness on A's top face, the one on B 0.01 below it, both in the touching square */
    CHECK_NEAR(c.point_a[2], 1.0, 1e-14);
    CHECK_NEAR(c.point_b[2], 0.99, 1e-14);
    CHECK(inside((const double[]){2, 2, 2}, pa, c.point_a) <= 1.0 + 1e-12);
    CHECK(inside((const double[]){1, 1, 1}, pb, c.point_b) <= 1.0 + 1e-12);
    imp_shape_release(a);
    imp_shape_release(b);
}

TEST(edge_across_edge)
{
    /* unit cubes turned 45 degrees, A about x and B about y: A's top edge runs along x at
       z = sqrt(2)/2, B's bottom edge along y at z_B - sqrt(2)/2; they cross at (0, 0) */
    imp_shape *box = imp_shape3d_box(1, 1, 1);
    double pa[7], pb[7], h = sqrt(0.5), zb = 2 * h - 0.02;
    pose_set(pa, imp_v3(0, 0, 0), imp_q_from_axis_angle(imp_v3(1, 0, 0), 0.25 * 3.14159265358979323846));
    pose_set(pb, imp_v3(0, 0, zb), imp_q_from_axis_angle(imp_v3(0, 1, 0), 0.25 * 3.14159265358979323846));
    imp_contact3d c;
    CHECK(imp_collide3d(box, pa, box, pb, &c) == IMP_NP_OK);
    CHECK(c.method == IMP_NP_ANALYTIC);
    CHECK_NEAR(c.distance, -0.02, 1e-12);
    CHECK_NEAR(c.normal[2], 1.0, 1e-12);
    CHECK_NEAR(c.point_a[0], 0.0, 1e-12);
    CHECK_NEAR(c.point_a[1], 0.0, 1e-12);
    CHECK_NEAR(c.point_a[2], h, 1e-12);
    CHECK_NEAR(c.point_b[2], zb - h, 1e-12);
    imp_shape_release(box);
}

TEST(random_overlaps_against_the_general_path)
{
    imp_rng rng;
    imp_rng_seed(&rng, 2024);
    int checked = 0;
    for (int trial = 0; trial < 400; trial++) {
        double sa[3], sb[3], pa[7], pb[7], x[3];
        for (int i = 0; i < 3; i++) {
            sa[i] = 0.5 + 2.0 * imp_rng_uniform(&rng);
            sb[i] = 0.5 + 2.0 * imp_rng_uniform(&rng);
            x[i] = (imp_rng_uniform(&rng) - 0.5) * 0.9 * (sa[i] + sb[i]);
        }
        imp_quat qa = imp_q(imp_rng_uniform(&rng) - 0.5, imp_rng_uniform(&rng) - 0.5, imp_rng_uniform(&rng) - 0.5,
                            imp_rng_uniform(&rng) - 0.5);
        imp_quat qb = imp_q(imp_rng_uniform(&rng) - 0.5, imp_rng_uniform(&rng) - 0.5, imp_rng_uniform(&rng) - 0.5,
                            imp_rng_uniform(&rng) - 0.5);
        pose_set(pa, imp_v3(0.1, -0.2, 0.3), qa);
        pose_set(pb, imp_v3(0.1 + x[0], -0.2 + x[1], 0.3 + x[2]), qb);
        imp_shape *a = imp_shape3d_box(sa[0], sa[1], sa[2]), *b = imp_shape3d_box(sb[0], sb[1], sb[2]);
        imp_contact3d c, g;
        CHECK(imp_collide3d(a, pa, b, pb, &c) == IMP_NP_OK);
        CHECK(imp_collide3d_general(a, pa, b, pb, &g) != IMP_NP_BADINPUT);
        double s = 3.0 * (sa[0] + sa[1] + sa[2] + sb[0] + sb[1] + sb[2]);
        if (c.method == IMP_NP_ANALYTIC) {
            checked++;
            /* the same depth as EPA's (to its tolerance) */
            CHECK_NEAR(c.distance, g.distance, 1e-8 * s);
            imp_vec3 n = imp_v3_load(c.normal);
            CHECK_NEAR(imp_v3_len(n), 1.0, 1e-12);
            imp_vec3 d = imp_v3_sub(imp_v3_load(c.point_b), imp_v3_load(c.point_a));
            CHECK(imp_v3_len(imp_v3_sub(d, imp_v3_scale(n, c.distance))) <= 1e-12 * s);
            CHECK(inside(sa, pa, c.point_a) <= 1.0 + 1e-9);
            CHECK(inside(sb, pb, c.point_b) <= 1.0 + 1e-9);
            /* B moved by -distance n touches A */
            double moved[7];
            for (int i = 0; i < 7; i++) {
                moved[i] = pb[i] - (i < 3 ? c.distance * c.normal[i] : 0.0);
            }
            imp_contact3d t;
            imp_collide3d_general(a, pa, b, moved, &t);
            CHECK(fabs(t.distance) <= 1e-8 * s);
        } else {
            CHECK(g.distance >= -1e-9 * s);  /* the general path: the cores did not overlap */
        }
        imp_shape_release(a);
        imp_shape_release(b);
    }
    CHECK(checked > 200);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(face_on_face);
    RUN(edge_across_edge);
    RUN(random_overlaps_against_the_general_path);
    return CHECK_END("collide3d_box");
}
