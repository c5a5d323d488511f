/* test_engine3d_cache.c: contact recycling (engine3d_cache.h) against the manifold it stands for.
   - A cube resting on a slab (corners against the slab's top face: the exact case): after a
     small relative motion the rebuilt points have the keys, distances and incident points of
     the manifold computed afresh, to round-off; under a rigid motion of the pair they are the
     stored points carried along.
   - The rule: a translation of B by more than 0.01 distance_tol, a turn that moves B's points
     by more than that, or a margin out of its band, and the manifold is recomputed.
   - A pair apart by its gap g is skipped only while the motion D < g - margin: the manifold
     computed afresh is then empty. */
#include <math.h>

#include "check.h"
#include "engine3d_cache.h"
#include "quat.h"
#include "rng.h"
#include "shape3d.h"

#define TOL 0.01    /* distance_tol */
#define MARGIN 0.01

static void pose_set(double *p, imp_vec3 x, imp_quat q)
{
    q = imp_q_normalize(q);
    p[0] = x.x, p[1] = x.y, p[2] = x.z, p[3] = q.w, p[4] = q.x, p[5] = q.y, p[6] = q.z;
}

/* the pose p moved by the rigid motion (rotation q about the origin, then translation t) */
static void carry(const double *p, imp_quat q, imp_vec3 t, double *out)
{
    imp_vec3 x = imp_v3_add(imp_q_rotate(q, imp_v3(p[0], p[1], p[2])), t);
    pose_set(out, x, imp_q_mul(q, imp_q(p[3], p[4], p[5], p[6])));
}

static const imp_manifold3d_point *with_key(const imp_manifold3d *m, unsigned key)
{
    for (int k = 0; k < m->count; k++) {
        if (m->points[k].key == key) {
            return &m->points[k];
        }
    }
    return NULL;
}

typedef struct scene {
    imp_shape *slab, *cube;
    double pa[7], pb[7];
    imp_e3_cached c;
} scene;

/* the cube 2e-4 into the slab's top face, turned by 0.3 rad about z; its manifold stored */
static int scene_make(scene *s)
{
    s->slab = imp_shape3d_box(4, 4, 1);
    s->cube = imp_shape3d_box(1, 1, 1);
    pose_set(s->pa, imp_v3(0, 0, -0.5), imp_q_identity());
    pose_set(s->pb, imp_v3(0.3, -0.2, 0.5 - 2e-4), imp_q_from_axis_angle(imp_v3(0, 0, 1), 0.3));
    imp_manifold3d m;
    if (imp_manifold3d_compute(s->slab, s->pa, s->cube, s->pb, MARGIN, &m) != IMP_NP_OK || m.count != 4) {
        return 0;
    }
    imp_e3_pose ea, eb;
    imp_e3_pose_of(s->pa, &ea);
    imp_e3_pose_of(s->pb, &eb);
    imp_e3_cache_store(&s->c, 1, 2, 0, 0, &m, imp_e3_manifold_ref(&m, s->slab, s->cube), &ea, &eb, MARGIN);
    return s->c.ref == 0;  /* the slab's face is the reference */
}

static void scene_free(scene *s)
{
    imp_shape_release(s->slab);
    imp_shape_release(s->cube);
}

static int fits(const scene *s, const double *pa, const double *pb, double margin)
{
    imp_e3_pose ea, eb;
    imp_e3_pose_of(pa, &ea);
    imp_e3_pose_of(pb, &eb);
    return imp_e3_cache_fits(&s->c, 1, 2, 0, 0, &ea, &eb, s->slab->radius, s->cube->radius, 1.0, margin, TOL);
}

/* the rebuilt points at (pa, pb) are those of the manifold computed there (tol: distances and
   incident points) */
static int same_as_fresh(const scene *s, const double *pa, const double *pb, double tol)
{
    imp_e3_pose ea, eb;
    imp_e3_pose_of(pa, &ea);
    imp_e3_pose_of(pb, &eb);
    imp_manifold3d r, f;
    imp_e3_cache_points(&s->c, &ea, &eb, MARGIN, &r);
    imp_manifold3d_compute(s->slab, pa, s->cube, pb, MARGIN, &f);
    if (r.count != f.count) {
        fprintf(stderr, "  %d points rebuilt, %d computed\n", r.count, f.count);
        return 0;
    }
    for (int i = 0; i < 3; i++) {
        if (!(fabs(r.normal[i] - f.normal[i]) <= tol)) {
            return 0;
        }
    }
    for (int k = 0; k < r.count; k++) {
        const imp_manifold3d_point *p = &r.points[k], *q = with_key(&f, p->key);
        if (q == NULL || !(fabs(p->distance - q->distance) <= tol)) {
            fprintf(stderr, "  key %u: %s\n", p->key, q == NULL ? "not computed" : "distance differs");
            return 0;
        }
        for (int i = 0; i < 3; i++) {
            if (!(fabs(p->point_b[i] - q->point_b[i]) <= tol) || !(fabs(p->point_a[i] - q->point_a[i]) <= tol)) {
                fprintf(stderr, "  key %u: points differ\n", p->key);
                return 0;
            }
        }
    }
    return 1;
}

TEST(small_motions_rebuild_the_fresh_manifold)
{
    scene s;
    CHECK(scene_make(&s));
    imp_rng rng;
    imp_rng_seed(&rng, 7);
    for (int trial = 0; trial < 200; trial++) {
        /* B turned by up to 4e-5 rad about its centre and moved by up to 3e-5 per axis */
        imp_vec3 axis = imp_v3(imp_rng_uniform(&rng) - 0.5, imp_rng_uniform(&rng) - 0.5, imp_rng_uniform(&rng) - 0.5);
        imp_quat q = imp_q_from_axis_angle(axis, 4e-5 * imp_rng_uniform(&rng));
        double pb[7];
        imp_vec3 x = imp_v3(s.pb[0] + 6e-5 * (imp_rng_uniform(&rng) - 0.5), s.pb[1] + 6e-5 * (imp_rng_uniform(&rng) - 0.5),
                            s.pb[2] + 6e-5 * (imp_rng_uniform(&rng) - 0.5));
        pose_set(pb, x, imp_q_mul(q, imp_q(s.pb[3], s.pb[4], s.pb[5], s.pb[6])));
        /* D <= sqrt(3) 3e-5 + 4e-5 sqrt(3) / 2 < 1e-4 = 0.01 distance_tol */
        CHECK(fits(&s, s.pa, pb, MARGIN));
        /* corners against a face: distances exact, the slab's points the corners' projections */
        CHECK(same_as_fresh(&s, s.pa, pb, 1e-12));
    }
    scene_free(&s);
}

TEST(a_rigid_motion_of_the_pair_carries_the_points)
{
    scene s;
    CHECK(scene_make(&s));
    imp_quat q = imp_q_from_axis_angle(imp_v3(1, 2, 3), 2.0);
    imp_vec3 t = imp_v3(5, -7, 11);
    double pa[7], pb[7];
    carry(s.pa, q, t, pa);
    carry(s.pb, q, t, pb);
    CHECK(fits(&s, pa, pb, MARGIN));
    CHECK(same_as_fresh(&s, pa, pb, 1e-12));
    scene_free(&s);
}

TEST(larger_motions_or_margins_recompute)
{
    scene s;
    CHECK(scene_make(&s));
    double pb[7];
    memcpy(pb, s.pb, sizeof pb);
    pb[0] += 0.9e-4;  /* D = 0.9e-4 <= 1e-4 */
    CHECK(fits(&s, s.pa, pb, MARGIN));
    pb[0] = s.pb[0] + 1.1e-4;  /* D = 1.1e-4 */
    CHECK(!fits(&s, s.pa, pb, MARGIN));
    /* B turned about its centre: D = 2 sin(theta / 2) R_B with R_B = sqrt(3) / 2 */
    double rb = s.cube->radius;
    CHECK_NEAR(rb, sqrt(3.0) / 2.0, 1e-12);
    for (int k = 0; k < 2; k++) {
        double theta = 2.0 * asin((k == 0 ? 0.99e-4 : 1.01e-4) / (2.0 * rb));
        imp_quat q = imp_q_mul(imp_q_from_axis_angle(imp_v3(0.3, -1, 0.2), theta), imp_q(s.pb[3], s.pb[4], s.pb[5], s.pb[6]));
        pose_set(pb, imp_v3(s.pb[0], s.pb[1], s.pb[2]), q);
        CHECK(fits(&s, s.pa, pb, MARGIN) == (k == 0));
    }
    /* the margin's band: 0.25 distance_tol */
    CHECK(fits(&s, s.pa, s.pb, MARGIN + 0.24 * TOL));
    CHECK(!fits(&s, s.pa, s.pb, MARGIN + 0.26 * TOL));
    CHECK(!fits(&s, s.pa, s.pb, MARGIN - 0.26 * TOL));
    /* another pair, or a body put in the slot since */
    imp_e3_pose ea, eb;
    imp_e3_pose_of(s.pa, &ea);
    imp_e3_pose_of(s.pb, &eb);
    CHECK(!imp_e3_cache_fits(&s.c, 1, 3, 0, 0, &ea, &eb, s.slab->radius, rb, 1.0, MARGIN, TOL));
    CHECK(!imp_e3_cache_fits(&s.c, 1, 2, 0, 1, &ea, &eb, s.slab->radius, rb, 1.0, MARGIN, TOL));
    scene_free(&s);
}

TEST(a_pair_apart_is_skipped_while_its_gap_exceeds_the_margin)
{
    imp_shape *slab = imp_shape3d_box(4, 4, 1), *cube = imp_shape3d_box(1, 1, 1);
    double pa[7], pb[7];
    pose_set(pa, imp_v3(0, 0, -0.5), imp_q_identity());
    pose_set(pb, imp_v3(0.3, -0.2, 0.55), imp_q_from_axis_angle(imp_v3(1, 1, 0), 0.02));
    imp_contact3d nc;
    CHECK(imp_collide3d(slab, pa, cube, pb, &nc) == IMP_NP_OK && nc.distance > MARGIN);
    imp_e3_pose ea, eb;
    imp_e3_pose_of(pa, &ea);
    imp_e3_pose_of(pb, &eb);
    imp_e3_cached c;
    imp_e3_cache_store_gap(&c, 1, 2, 0, 0, nc.distance, &ea, &eb);
    imp_rng rng;
    imp_rng_seed(&rng, 11);
    int skipped = 0, kept = 0;
    for (int trial = 0; trial < 400; trial++) {
        /* B falls by up to 0.06 and turns by up to 0.05 rad */
        double q[7];
        imp_quat turn = imp_q_from_axis_angle(imp_v3(imp_rng_uniform(&rng) - 0.5, imp_rng_uniform(&rng) - 0.5, 0.3),
                                              0.05 * imp_rng_uniform(&rng));
        pose_set(q, imp_v3(pb[0], pb[1], pb[2] - 0.06 * imp_rng_uniform(&rng)),
                 imp_q_mul(turn, imp_q(pb[3], pb[4], pb[5], pb[6])));
        imp_e3_pose_of(q, &eb);
        if (imp_e3_cache_apart(&c, 1, 2, 0, 0, &ea, &eb, slab->radius, cube->radius, 1.0, MARGIN)) {
            imp_manifold3d m;
            imp_manifold3d_compute(slab, pa, cube, q, MARGIN, &m);
            CHECK(m.count == 0);
            skipped++;
        } else {
            kept++;
        }
    }
    CHECK(skipped > 20 && kept > 20);
    imp_shape_release(slab);
    imp_shape_release(cube);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(small_motions_rebuild_the_fresh_manifold);
    RUN(a_rigid_motion_of_the_pair_carries_the_points);
    RUN(larger_motions_or_margins_recompute);
    RUN(a_pair_apart_is_skipped_while_its_gap_exceeds_the_margin);
    return CHECK_END("engine3d_cache");
}
