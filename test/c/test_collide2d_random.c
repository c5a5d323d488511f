/* test_collide2d_random.c: the distance query against a separate method (dense boundary
   sampling: the sampled minimum lies between the true distance and the true distance plus
   the sample spacing) over random pairs of every preset, and detection sanity on the same
   pairs (finite values, unit normals, kinds consistent with the tolerances). */
#include "check.h"
#include "collide2d.h"
#include "distance2d.h"
#include "edge2d.h"
#include "polygon2d.h"
#include "scalar.h"

static unsigned long long st = 777;
static double rnd(void)
{
    st = st * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(st >> 11) / 9007199254740992.0;
}

enum { MAXS = 4000 };
static const double H = 0.01;  /* greatest sample spacing along edges */

static int sample(const imp_shape *s, const double *pose, imp_vec2 *out)
{
    const imp_poly2d *g = imp_shape2d_poly(s);
    imp_xf2 x = imp_xf2_from_pose(pose);
    int n = 0;
    for (int i = 0; i < g->nedges; i++) {
        int m = (int)ceil(g->edges[i].length / H);
        for (int k = 0; k < m && n < MAXS; k++) {
            out[n++] = imp_xf2_apply(x, imp_edge2d_point_at(&g->edges[i], (double)k / m));
        }
    }
    return n;
}

/* distance of a world point to the shape's boundary */
static double boundary_distance(const imp_shape *s, const double *pose, imp_vec2 w)
{
    const imp_poly2d *g = imp_shape2d_poly(s);
    imp_vec2 q = imp_xf2_apply_inv(imp_xf2_from_pose(pose), w);
    double best = INFINITY;
    for (int i = 0; i < g->nedges; i++) {
        imp_vec2 c;
        int interior;
        best = imp_min(best, imp_edge2d_closest(&g->edges[i], q, &c, &interior));
    }
    return best;
}

static int inside(const imp_shape *s, const double *pose, imp_vec2 w)
{
    const imp_poly2d *g = imp_shape2d_poly(s);
    return imp_poly2d_contains_centred(g, imp_xf2_apply_inv(imp_xf2_from_pose(pose), w));
}

TEST(random_pairs)
{
    imp_path2d_cmd ring[6] = {{IMP_PATH_MOVE, 0.9, 0, 0, 0, 0, 0}, {IMP_PATH_ARC, 0.9, 0, 0, 0, 1, 0},
                              {IMP_PATH_CLOSE, 0, 0, 0, 0, 0, 0}, {IMP_PATH_MOVE, 0.6, 0, 0, 0, 0, 0},
                              {IMP_PATH_ARC, 0.6, 0, 0, 0, 0, 0}, {IMP_PATH_CLOSE, 0, 0, 0, 0, 0, 0}};
    imp_shape *shapes[8] = {
        imp_shape2d_ball(0.4, 0.3, NULL),
        imp_shape2d_block(1, 0.6, NULL),
        imp_shape2d_ngon(5, 0.5, NULL),
        imp_shape2d_rounded_block(1, 0.6, 0.2, 0.3, NULL),
        imp_shape2d_arc_top_block(0.8, 0.5, 0.5, 1, 0.3, NULL),
        imp_shape2d_arc_top_block(0.8, 0.5, 0.6, 0, 0.3, NULL),
        imp_shape2d_frame(1.6, 1.2, 0.2, NULL),
        imp_shape2d_polygon(ring, 6, 0.3, NULL),
    };
    for (int i = 0; i < 8; i++) {
        CHECK(shapes[i] != NULL);
    }
    static imp_vec2 sa[MAXS], sb[MAXS];
    imp_detect2d_params tol = {0.01, 0.5, 0, 0};
    int separated = 0, overlapping = 0, exact = 0, convex_checked = 0;
    for (int trial = 0; trial < 400; trial++) {
        const imp_shape *a = shapes[trial % 8], *b = shapes[(trial / 8) % 8];
        double pa[3] = {0, 0, 2 * IMP_PI * rnd()};
        double pb[3] = {2.4 * rnd() - 1.2, 2.4 * rnd() - 1.2, 2 * IMP_PI * rnd()};
        imp_distance2d r;
        CHECK(imp_collide2d_distance(a, pa, b, pb, &r) == 0);
        CHECK(isfinite(r.distance) && isfinite(r.normal[0]) && isfinite(r.normal[1]));
        CHECK_NEAR(hypot(r.normal[0], r.normal[1]), 1, 1e-12);
        int na = sample(a, pa, sa), nb = sample(b, pb, sb);
        double dmin = INFINITY;
        for (int i = 0; i < na; i++) {
            for (int j = 0; j < nb; j++) {
                dmin = imp_min(dmin, imp_v2_dist(sa[i], sb[j]));
            }
        }
        imp_vec2 wa = imp_v2(r.point_a[0], r.point_a[1]), wb = imp_v2(r.point_b[0], r.point_b[1]);
        if (r.distance > 0) {
            separated++;
            CHECK(r.exact);
            /* sampled minimum in [d, d + H] */
            CHECK(dmin >= r.distance - 1e-9);
            CHECK(dmin <= r.distance + H + 1e-9);
            CHECK_NEAR(boundary_distance(a, pa, wa), 0, 1e-9);
            CHECK_NEAR(boundary_distance(b, pb, wb), 0, 1e-9);
            CHECK_NEAR(imp_v2_dist(wa, wb), r.distance, 1e-9);
            CHECK(!inside(a, pa, sb[0]) && !inside(b, pb, sa[0]));
        } else {
            overlapping++;
            exact += r.exact;
            /* the boundaries cross (sampled gap within the spacing) or one holds the other */
            CHECK(dmin <= H || inside(a, pa, sb[0]) || inside(b, pb, sa[0]));
            /* moving b by the depth along the normal separates the samples' projections or at
               least leaves no sample of b inside a (a separate check of the translation) */
            double m = -r.distance + 1e-7;
            double pb2[3] = {pb[0] + m * r.normal[0], pb[1] + m * r.normal[1], pb[2]};
            imp_distance2d r2;
            CHECK(imp_collide2d_distance(a, pa, b, pb2, &r2) == 0);
            CHECK(r2.distance > 0);
            if (imp_shape2d_poly(a)->convex && imp_shape2d_poly(b)->convex) {
                /* minimum translation distance by brute force over 7200 directions of the
                   sampled boundaries: min over n of the overlap of the projections */
                CHECK(r.exact);
                int nb2 = sample(b, pb, sb);
                double mtd = INFINITY;
                for (int k = 0; k < 7200; k++) {
                    double t = 2 * IMP_PI * k / 7200, cx = cos(t), sy = sin(t);
                    double ahi = -INFINITY, blo = INFINITY;
                    for (int i = 0; i < na; i++) {
                        ahi = imp_max(ahi, sa[i].x * cx + sa[i].y * sy);
                    }
                    for (int j = 0; j < nb2; j++) {
                        blo = imp_min(blo, sb[j].x * cx + sb[j].y * sy);
                    }
                    mtd = imp_min(mtd, ahi - blo);
                }
                CHECK_NEAR(-r.distance, mtd, 2e-3);
                convex_checked++;
            }
        }
        /* detection on the same pair, moving, with previous poses */
        imp_body2d A = {a, 1, {pa[0], pa[1], pa[2]}, {pa[0], pa[1], pa[2]}, 1, {0, 0, 0}};
        imp_body2d B = {b, 2, {pb[0], pb[1], pb[2]},
                        {pb[0] + 0.05 * (rnd() - 0.5), pb[1] + 0.05 * (rnd() - 0.5), pb[2] + 0.1 * (rnd() - 0.5)},
                        1, {rnd() - 0.5, rnd() - 0.5, rnd() - 0.5}};
        imp_hit2d hits[128];
        int n = imp_collide2d_detect(&A, &B, &tol, hits, 128);
        CHECK(n >= 0 && n <= 128);
        for (int i = 0; i < n; i++) {
            const imp_hit2d *h = &hits[i];
            CHECK(isfinite(h->distance) && isfinite(h->normal_velocity) && isfinite(h->point[0]) &&
                  isfinite(h->point[1]));
            CHECK_NEAR(hypot(h->normal[0], h->normal[1]), 1, 1e-12);
            CHECK(h->kind == IMP_HIT_COLLISION || h->distance <= tol.distance_tol);
            CHECK(h->kind != IMP_HIT_CONTACT || fabs(h->normal_velocity) <= tol.velocity_tol);
            CHECK(h->kind != IMP_HIT_IMMINENT || h->normal_velocity < -tol.velocity_tol);
            CHECK((h->body == 1 && h->normal_body == 2) || (h->body == 2 && h->normal_body == 1));
        }
        if (r.distance > tol.distance_tol + 0.2) {
            CHECK(n == 0 || hits[0].swept);  /* far apart: at most swept results */
        }
    }
    CHECK(separated > 50 && overlapping > 50);
    printf("random pairs: %d separated, %d overlapping (%d exact, %d convex pairs checked against "
           "a brute-force minimum translation)\n", separated, overlapping, exact, convex_checked);
    for (int i = 0; i < 8; i++) {
        imp_shape_release(shapes[i]);
    }
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(random_pairs);
    return CHECK_END("collide2d_random");
}
