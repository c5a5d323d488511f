/* test_manifold3d_box.c: the box/box manifold by separating axes (manifold3d_box.c) against
   closed forms (a cube resting on a slab at a known depth or gap: its four corners at that
   distance; a gap beyond the margin: no point, the gap given) and against the general path
   (imp_manifold3d_compute) on thousands of random boxes resting on, pressed into or hovering
   over a face of another, either way round: the same points (by key), normal and distances to
   1e-9 of the size; the pairs it leaves to the general path are edge-on-edge contacts there. */
#include <math.h>

#include "check.h"
#include "collide3d.h"
#include "manifold3d.h"
#include "manifold3d_box.h"
#include "quat.h"
#include "rng.h"
#include "shape3d.h"

static void pose_set(double *p, imp_vec3 x, imp_quat q)
{
    q = imp_q_normalize(q);
    p[0] = x.x, p[1] = x.y, p[2] = x.z, p[3] = q.w, p[4] = q.x, p[5] = q.y, p[6] = q.z;
}

/* the box manifold of shapes a, b at poses pa, pb; returns imp_manifold3d_box's answer */
static int box_manifold(const imp_shape *a, const double *pa, const imp_shape *b, const double *pb, double margin,
                        imp_manifold3d *m, double *gap)
{
    imp_support3d sa, sb;
    imp_support3d_init(&sa, a, pa);
    imp_support3d_init(&sb, b, pb);
    return imp_manifold3d_box(&sa, &sb, margin, m, gap);
}

TEST(cube_on_slab_closed_form)
{
    imp_shape *slab = imp_shape3d_box(4, 4, 1), *cube = imp_shape3d_box(1, 1, 1);
    CHECK(imp_manifold3d_is_plain_box(slab) && imp_manifold3d_is_plain_box(cube));
    double pa[7], pb[7], gap;
    const double depth[3] = {0.003, -0.01, -1e-7}; /* pressed 3 mm in; 1 cm above; touching */
    for (int k = 0; k < 3; k++) {
        double yaw = 0.3, z = 0.5 + 0.5 - depth[k];
        pose_set(pa, imp_v3(0, 0, 0), imp_q_identity());
        pose_set(pb, imp_v3(0.4, -0.2, z), imp_q_from_axis_angle(imp_v3(0, 0, 1), yaw));
        imp_manifold3d m;
        CHECK(box_manifold(slab, pa, cube, pb, 0.02, &m, &gap) == 1);
        CHECK(m.count == 4);
        CHECK_NEAR(m.normal[2], 1.0, 1e-15);
        CHECK_NEAR(gap, -depth[k], 1e-14);
        for (int i = 0; i < 4; i++) {
            const imp_manifold3d_point *p = &m.points[i];
            CHECK_NEAR(p->distance, -depth[k], 1e-14);
            CHECK_NEAR(p->point_a[2], 0.5, 1e-14);           /* on the slab's top */
            CHECK_NEAR(p->point_b[2], 0.5 - depth[k], 1e-14); /* the cube's corner */
            /* a corner of the cube: at half the diagonal from its axis, at 45 degrees to its sides */
            double dx = p->point_b[0] - 0.4, dy = p->point_b[1] + 0.2;
            CHECK_NEAR(hypot(dx, dy), sqrt(0.5), 1e-14);
            CHECK_NEAR(fabs(cos(yaw) * dx + sin(yaw) * dy), 0.5, 1e-14);
            for (int j = 0; j < i; j++) {
                CHECK(m.points[j].key != p->key);
            }
        }
    }
    /* 5 cm above with a 2 cm margin: no point, the gap */
    pose_set(pb, imp_v3(0.4, -0.2, 1.05), imp_q_identity());
    imp_manifold3d m;
    CHECK(box_manifold(slab, pa, cube, pb, 0.02, &m, &gap) == 1);
    CHECK(m.count == 0);
    CHECK_NEAR(gap, 0.05, 1e-14);
    imp_shape_release(slab);
    imp_shape_release(cube);
}

TEST(edge_on_edge_is_left_to_the_general_path)
{
    imp_shape *box = imp_shape3d_box(1, 1, 1);
    double pa[7], pb[7], h = sqrt(0.5), gap;
    pose_set(pa, imp_v3(0, 0, 0), imp_q_from_axis_angle(imp_v3(1, 0, 0), 0.25 * 3.14159265358979323846));
    pose_set(pb, imp_v3(0, 0, 2 * h - 0.02), imp_q_from_axis_angle(imp_v3(0, 1, 0), 0.25 * 3.14159265358979323846));
    imp_manifold3d m;
    CHECK(box_manifold(box, pa, box, pb, 0.02, &m, &gap) == 0);
    CHECK_NEAR(gap, -0.02, 1e-12);
    imp_shape_release(box);
}

/* a box of sizes lo + span u (u uniform in [0, 1) each), its sizes in s */
static imp_shape *random_box(imp_rng *rng, double lo, double span, double s[3])
{
    for (int i = 0; i < 3; i++) {
        s[i] = lo + span * imp_rng_uniform(rng);
    }
    return imp_shape3d_box(s[0], s[1], s[2]);
}

/* a random unit vector's rotation by at most tilt about a horizontal axis, then yaw about z */
static imp_quat tilted(imp_rng *rng, double tilt)
{
    double th = 2 * 3.14159265358979323846 * imp_rng_uniform(rng);
    imp_quat q = imp_q_from_axis_angle(imp_v3(cos(th), sin(th), 0), tilt * imp_rng_uniform(rng));
    double yaw = 2 * 3.14159265358979323846 * imp_rng_uniform(rng);
    return imp_q_mul(q, imp_q_from_axis_angle(imp_v3(0, 0, 1), yaw));
}

/* the point of m with key k, or NULL */
static const imp_manifold3d_point *by_key(const imp_manifold3d *m, unsigned k)
{
    for (int i = 0; i < m->count; i++) {
        if (m->points[i].key == k) {
            return &m->points[i];
        }
    }
    return NULL;
}

/* the same points as the general path's (by key) to tol, and the same normal when any */
static int same_points(const imp_manifold3d *f, const imp_manifold3d *g, double tol)
{
    if (f->count != g->count) {
        return 0;
    }
    for (int k = 0; k < 3 && f->count > 0; k++) {
        if (!(fabs(f->normal[k] - g->normal[k]) <= 1e-9)) {
            return 0;
        }
    }
    for (int i = 0; i < f->count; i++) {
        const imp_manifold3d_point *p = &f->points[i], *q = by_key(g, p->key);
        if (q == NULL || !(fabs(p->distance - q->distance) <= tol)) {
            return 0;
        }
        for (int k = 0; k < 3; k++) {
            if (!(fabs(p->point_a[k] - q->point_a[k]) <= tol) || !(fabs(p->point_b[k] - q->point_b[k]) <= tol)) {
                return 0;
            }
        }
    }
    return 1;
}

TEST(random_resting_pairs_against_the_general_path)
{
    imp_rng rng;
    imp_rng_seed(&rng, 77);
    int answered = 0, trials = 3000;
    for (int trial = 0; trial < trials; trial++) {
        double s0[3], s1[3];
        imp_shape *lo = random_box(&rng, 0.5, 2.0, s0), *hi = random_box(&rng, 0.3, 1.0, s1);
        /* hi rests on lo's top face (tilted up to 3 degrees, anywhere over it), pressed in by up to
           2 % of its height or hovering up to 1 %; the pair turned as a whole */
        imp_quat qh = tilted(&rng, 0.05);
        double sup = 0.0; /* hi's lowest point below its centre */
        for (int i = 0; i < 3; i++) {
            imp_vec3 e = imp_v3(0, 0, 0);
            (&e.x)[i] = 0.5 * s1[i];
            sup += fabs(imp_q_rotate(qh, e).z);
        }
        double pen = (imp_rng_uniform(&rng) * 0.03 - 0.01) * s1[2];
        imp_vec3 xh = imp_v3((imp_rng_uniform(&rng) - 0.5) * s0[0], (imp_rng_uniform(&rng) - 0.5) * s0[1],
                             0.5 * s0[2] + sup - pen);
        imp_quat turn = imp_q_normalize(imp_q(imp_rng_uniform(&rng) - 0.5, imp_rng_uniform(&rng) - 0.5,
                                              imp_rng_uniform(&rng) - 0.5, imp_rng_uniform(&rng) - 0.5));
        imp_vec3 c0 = imp_v3(imp_rng_uniform(&rng), imp_rng_uniform(&rng), imp_rng_uniform(&rng));
        double plo[7], phi[7];
        pose_set(plo, c0, turn);
        pose_set(phi, imp_v3_add(c0, imp_q_rotate(turn, xh)), imp_q_mul(turn, qh));
        int swap = trial % 2;
        const imp_shape *a = swap ? hi : lo, *b = swap ? lo : hi;
        const double *pa = swap ? phi : plo, *pb = swap ? plo : phi;
        double margin = 0.02 * s1[2], gap, size = s0[0] + s0[1] + s0[2] + s1[0] + s1[1] + s1[2];
        imp_manifold3d fast, gen;
        int ok = box_manifold(a, pa, b, pb, margin, &fast, &gap);
        imp_manifold3d_compute(a, pa, b, pb, margin, &gen);
        if (!ok) { /* left to the general path: an edge on an edge there too (key kinds 2, 3) */
            CHECK(gen.count > 0 && gen.points[0].key >> 30 >= 2u);
        }
        if (ok) {
            answered++;
            CHECK(fast.count > 0 || gap > margin);
            CHECK(same_points(&fast, &gen, 1e-9 * size));
        }
        imp_shape_release(lo);
        imp_shape_release(hi);
    }
    CHECK(answered >= 0.9 * trials); /* (2868: hi overhanging lo's edge gives edge contacts) */
}

TEST(random_penetrating_pairs_against_the_general_path)
{
    /* boxes of any orientation overlapping by up to 5 % of the smaller one's size: every pair
       the box path answers with points (a face within 8 degrees of the axis of least
       penetration, EPA's normal on the general path) gets the general path's face and points;
       the others (edge on edge) are left to it */
    imp_rng rng;
    imp_rng_seed(&rng, 4242);
    int same_face = 0, trials = 3000;
    for (int trial = 0; trial < trials; trial++) {
        double s0[3], s1[3];
        imp_shape *a = random_box(&rng, 0.3, 1.5, s0), *b = random_box(&rng, 0.3, 1.5, s1);
        double pa[7], pb[7], gap;
        imp_quat qa = imp_q(imp_rng_uniform(&rng) - 0.5, imp_rng_uniform(&rng) - 0.5, imp_rng_uniform(&rng) - 0.5,
                            imp_rng_uniform(&rng) - 0.5);
        imp_quat qb = imp_q(imp_rng_uniform(&rng) - 0.5, imp_rng_uniform(&rng) - 0.5, imp_rng_uniform(&rng) - 0.5,
                            imp_rng_uniform(&rng) - 0.5);
        pose_set(pa, imp_v3(0, 0, 0), qa);
        pose_set(pb, imp_v3(0, 0, 0), qb);
        /* B moved along a random direction until the general path's distance is the target */
        double th = 2 * 3.14159265358979323846 * imp_rng_uniform(&rng), z = 2 * imp_rng_uniform(&rng) - 1;
        imp_vec3 dir = imp_v3(sqrt(1 - z * z) * cos(th), sqrt(1 - z * z) * sin(th), z);
        double target = -0.05 * imp_rng_uniform(&rng) * fmin(fmin(s1[0], s1[1]), s1[2]), lo = 0.0, hi = 4.0;
        imp_contact3d c;
        for (int it = 0; it < 60; it++) {
            double mid = 0.5 * (lo + hi);
            pb[0] = mid * dir.x, pb[1] = mid * dir.y, pb[2] = mid * dir.z;
            imp_collide3d(a, pa, b, pb, &c);
            if (c.distance < target) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        double size = s0[0] + s0[1] + s0[2] + s1[0] + s1[1] + s1[2], margin = 0.01 * size;
        imp_manifold3d fast, gen;
        int ok = box_manifold(a, pa, b, pb, margin, &fast, &gap);
        imp_manifold3d_compute(a, pa, b, pb, margin, &gen);
        CHECK(gap <= c.distance + 1e-9 * size); /* a lower bound of the distance */
        if (ok && fast.count > 0) {
            CHECK(gen.count > 0 && gen.points[0].key >> 21 == fast.points[0].key >> 21); /* the same face */
            CHECK(same_points(&fast, &gen, 1e-9 * size));
            same_face++;
        }
        imp_shape_release(a);
        imp_shape_release(b);
    }
    CHECK(same_face >= trials / 2); /* (1509, the other 1491 edge on edge) */
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(cube_on_slab_closed_form);
    RUN(edge_on_edge_is_left_to_the_general_path);
    RUN(random_resting_pairs_against_the_general_path);
    RUN(random_penetrating_pairs_against_the_general_path);
    return CHECK_END("manifold3d_box");
}
