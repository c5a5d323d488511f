/* test_collide2d_cache.c: detection with each body's transforms computed once per pass
   (imp_collide2d_prepare, imp_collide2d_batch_xf) gives bit-identical results to detection
   that recomputes them per pair; the helpers that replace hypot by squared distances in the
   pruning tests give the same answers as hypot; the boxes from cached transforms bound the
   shapes exactly. */
#include "check.h"
#include "collide2d_batch.h"
#include "edge2d.h"
#include "polygon2d.h"
#include "scalar.h"

static unsigned long long st = 977;
static double rnd(void)
{
    st = st * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(st >> 11) / 9007199254740992.0;
}

enum { NS = 7, NB = 90, CAP = 8192 };

static void make_shapes(imp_shape *s[NS])
{
    s[0] = imp_shape2d_ball(0.3, 0.3, NULL);
    s[1] = imp_shape2d_block(0.6, 0.4, NULL);
    s[2] = imp_shape2d_arc_top_block(0.8, 0.5, 0.5, 1, 0.3, NULL);
    s[3] = imp_shape2d_arc_top_block(0.8, 0.5, 0.6, 0, 0.3, NULL);
    s[4] = imp_shape2d_frame(1.6, 1.2, 0.2, NULL);
    s[5] = imp_shape2d_ngon(6, 0.35, NULL);
    s[6] = imp_shape2d_rounded_block(0.7, 0.5, 0.15, 0.3, NULL);
}

/* a dense scene (many touching and penetrating pairs), several steps, swept and static */
TEST(cached_batch_is_bit_identical)
{
    imp_shape *shapes[NS];
    make_shapes(shapes);
    static imp_body2d b[NB];
    static imp_body2d_xf xf[NB];
    static double vel[NB][3], boxes[4 * NB], boxes_ref[4 * NB];
    static imp_hit2d out[CAP], ref[CAP];
    unsigned char still[NB];
    for (int i = 0; i < NB; i++) {
        imp_body2d x = {shapes[i % NS], 10 + i, {5 * rnd(), 5 * rnd(), 6.28 * rnd() - 3.14},
                        {0, 0, 0}, 0, {0, 0, 0}};
        b[i] = x;
        for (int k = 0; k < 3; k++) {
            vel[i][k] = 4.0 * (rnd() - 0.5);
        }
        still[i] = i % 11 == 0;
    }
    imp_pairset ex = IMP_PAIRSET_EMPTY;
    CHECK(imp_pairset_add(&ex, 10, 11) == 1);
    imp_bp2d bp = IMP_BP2D_EMPTY, bp_ref = IMP_BP2D_EMPTY;
    imp_detect2d_params p = {0.05, 0.5, 0, 0};
    long long seen = 0, swept = 0;
    for (int step = 0; step < 12; step++) {
        for (int i = 0; i < NB; i++) {
            for (int k = 0; k < 3; k++) {
                b[i].prev_pose[k] = b[i].pose[k];
                b[i].velocity[k] = vel[i][k];
                if (!still[i]) {
                    b[i].pose[k] += 0.04 * vel[i][k];
                }
            }
            /* some bodies without a previous pose (as after a back-up), some steps static */
            b[i].has_prev = step % 3 != 0 && (i + step) % 5 != 0;
        }
        int n = imp_collide2d_batch_xf(b, NB, still, &bp, &ex, &p, boxes, xf, out, CAP);
        int m = imp_collide2d_batch(b, NB, still, &bp_ref, &ex, &p, boxes_ref, ref, CAP);
        CHECK(n >= 0 && n <= CAP && n == m);
        CHECK(memcmp(boxes, boxes_ref, sizeof boxes) == 0);
        for (int k = 0; k < n; k++) {
            CHECK(memcmp(&out[k], &ref[k], sizeof out[k]) == 0);
            swept += out[k].swept;
        }
        /* the transforms the batch left are the poses' */
        for (int i = 0; i < NB; i++) {
            CHECK(xf[i].now.c == cos(b[i].pose[2]) && xf[i].now.s == sin(b[i].pose[2]));
            CHECK(xf[i].now.p.x == b[i].pose[0] && xf[i].now.p.y == b[i].pose[1]);
            const double *pp = b[i].has_prev ? b[i].prev_pose : b[i].pose;
            CHECK(xf[i].prev.c == cos(pp[2]) && xf[i].prev.s == sin(pp[2]));
        }
        /* pair by pair too, and too small an array still counts */
        for (int i = 0; i + 1 < NB; i += 2) {
            imp_hit2d h1[64], h2[64];
            int r1 = imp_collide2d_detect_xf(&b[i], &xf[i], &b[i + 1], &xf[i + 1], &p, h1, 64);
            int r2 = imp_collide2d_detect(&b[i], &b[i + 1], &p, h2, 64);
            CHECK(r1 == r2 && r1 <= 64);
            CHECK(r1 <= 0 || memcmp(h1, h2, (size_t)r1 * sizeof h1[0]) == 0);
        }
        seen += n;
    }
    CHECK(seen > 200);
    CHECK(swept > 10);
    imp_bp2d_free(&bp);
    imp_bp2d_free(&bp_ref);
    imp_pairset_free(&ex);
    for (int i = 0; i < NS; i++) {
        imp_shape_release(shapes[i]);
    }
}

/* the squared-distance pruning answers exactly as hypot does, also at the boundary */
TEST(beyond_segment_matches_hypot)
{
    int near = 0;
    for (int t = 0; t < 200000; t++) {
        imp_vec2 a = imp_v2(4 * rnd() - 2, 4 * rnd() - 2), b = imp_v2(4 * rnd() - 2, 4 * rnd() - 2);
        if (t % 7 == 0) {
            b = a;  /* a point segment */
        }
        imp_vec2 p = imp_v2(4 * rnd() - 2, 4 * rnd() - 2);
        /* the reference: closest point by the clamped projection, distance by hypot */
        imp_vec2 d = imp_v2_sub(b, a);
        double l2 = imp_v2_dot(d, d);
        double s = l2 > 0.0 ? imp_clamp(imp_v2_dot(imp_v2_sub(p, a), d) / l2, 0.0, 1.0) : 0.0;
        double dist = hypot(p.x - (a.x + s * d.x), p.y - (a.y + s * d.y));
        /* radii at, just around and far from the distance */
        double r;
        switch (t % 5) {
        case 0: r = dist; break;
        case 1: r = nextafter(dist, 0.0); break;
        case 2: r = nextafter(dist, INFINITY); break;
        case 3: r = dist * (1.0 + 1e-10 * (rnd() - 0.5)); break;
        default: r = 3 * rnd(); break;
        }
        near += t % 5 != 4;
        CHECK(imp_edge2d_beyond_segment(p, a, b, r) == (dist > r));
    }
    CHECK(imp_edge2d_beyond_segment(imp_v2(0, 0), imp_v2(0, 0), imp_v2(0, 0), 0.0) == 0);
    CHECK(imp_edge2d_beyond_segment(imp_v2(1e-200, 0), imp_v2(0, 0), imp_v2(0, 0), 0.0) == 1);
    CHECK(near > 100000);
}

/* closest_within: imp_edge2d_closest's answer up to tol, INFINITY only beyond it */
TEST(closest_within_matches_closest)
{
    imp_shape *shapes[NS];
    make_shapes(shapes);
    int finite = 0, far = 0;
    for (int si = 0; si < NS; si++) {
        const imp_poly2d *g = imp_shape2d_poly(shapes[si]);
        for (int k = 0; k < g->nedges; k++) {
            const imp_edge2d *e = &g->edges[k];
            for (int t = 0; t < 4000; t++) {
                imp_vec2 p = imp_v2(2 * rnd() - 1, 2 * rnd() - 1);
                imp_vec2 q1, q2 = imp_v2(NAN, NAN);
                int i1, i2 = -1;
                double d1 = imp_edge2d_closest(e, p, &q1, &i1);
                double tol = t % 3 == 0 ? d1 : (t % 3 == 1 ? nextafter(d1, 0.0) : 0.5 * rnd());
                double d2 = imp_edge2d_closest_within(e, p, tol, &q2, &i2);
                if (isinf(d2)) {
                    CHECK(d1 > tol);
                    far++;
                } else {
                    CHECK(d2 == d1 && q2.x == q1.x && q2.y == q1.y && i2 == i1);
                    finite++;
                }
            }
        }
    }
    CHECK(finite > 1000 && far > 1000);
    for (int i = 0; i < NS; i++) {
        imp_shape_release(shapes[i]);
    }
}

/* boxes from cached transforms: a block's box is its rotated corners' (worked out here), a
   ball's is its centre +- radius, and every shape's box holds its whole boundary tightly */
TEST(bounds_from_transforms)
{
    imp_poly2d_error err;
    imp_shape *blk = imp_shape2d_block(2.0, 1.0, &err);
    const imp_poly2d *g = imp_shape2d_poly(blk);
    for (int t = 0; t < 100; t++) {
        double pose[3] = {4 * rnd() - 2, 4 * rnd() - 2, 7 * rnd() - 3.5}, box[4];
        imp_xf2 x = imp_xf2_from_pose(pose);
        imp_poly2d_swept_bounds_xf(g, x, NULL, 0.0, box);
        double c = cos(pose[2]), s = sin(pose[2]), lo[2] = {INFINITY, INFINITY},
               hi[2] = {-INFINITY, -INFINITY};
        const double cx[4] = {-1, 1, 1, -1}, cy[4] = {-0.5, -0.5, 0.5, 0.5};
        for (int k = 0; k < 4; k++) {
            double wx = pose[0] + c * cx[k] - s * cy[k], wy = pose[1] + s * cx[k] + c * cy[k];
            lo[0] = fmin(lo[0], wx), lo[1] = fmin(lo[1], wy);
            hi[0] = fmax(hi[0], wx), hi[1] = fmax(hi[1], wy);
        }
        CHECK_NEAR(box[0], lo[0], 1e-14);
        CHECK_NEAR(box[1], lo[1], 1e-14);
        CHECK_NEAR(box[2], hi[0], 1e-14);
        CHECK_NEAR(box[3], hi[1], 1e-14);
    }
    imp_shape_release(blk);
    imp_shape *ball = imp_shape2d_ball(0.7, 0.3, &err);
    double pose[3] = {1.5, -2.0, 0.4}, prev[3] = {1.0, -2.5, 2.0}, box[4];
    imp_xf2 xn = imp_xf2_from_pose(pose), xp = imp_xf2_from_pose(prev);
    imp_poly2d_swept_bounds_xf(imp_shape2d_poly(ball), xn, &xp, 0.01, box);
    CHECK_NEAR(box[0], 1.0 - 0.71, 1e-12);
    CHECK_NEAR(box[1], -2.5 - 0.71, 1e-12);
    CHECK_NEAR(box[2], 1.5 + 0.71, 1e-12);
    CHECK_NEAR(box[3], -2.0 + 0.71, 1e-12);
    imp_shape_release(ball);
    imp_shape *shapes[NS];
    make_shapes(shapes);
    for (int si = 0; si < NS; si++) {
        const imp_poly2d *gs = imp_shape2d_poly(shapes[si]);
        double ps[3] = {rnd(), rnd(), 6 * rnd()}, bx[4], ref[4];
        imp_xf2 x = imp_xf2_from_pose(ps);
        imp_poly2d_swept_bounds_xf(gs, x, NULL, 0.0, bx);
        imp_shape2d_swept_bounds(shapes[si], ps, NULL, 0.0, ref);
        CHECK(memcmp(bx, ref, sizeof bx) == 0);
        /* sampled boundary: inside the box, and reaching it within the sampling's sagitta */
        double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
        for (int k = 0; k < gs->nedges; k++) {
            for (int u = 0; u <= 2000; u++) {
                imp_vec2 w = imp_xf2_apply(x, imp_edge2d_point_at(&gs->edges[k], u / 2000.0));
                CHECK(w.x >= bx[0] - 1e-12 && w.x <= bx[2] + 1e-12);
                CHECK(w.y >= bx[1] - 1e-12 && w.y <= bx[3] + 1e-12);
                lo[0] = fmin(lo[0], w.x), lo[1] = fmin(lo[1], w.y);
                hi[0] = fmax(hi[0], w.x), hi[1] = fmax(hi[1], w.y);
            }
        }
        CHECK_NEAR(lo[0], bx[0], 1e-5);
        CHECK_NEAR(lo[1], bx[1], 1e-5);
        CHECK_NEAR(hi[0], bx[2], 1e-5);
        CHECK_NEAR(hi[1], bx[3], 1e-5);
    }
    for (int i = 0; i < NS; i++) {
        imp_shape_release(shapes[i]);
    }
}

/* a body that is not valid (non-finite numbers) is refused by prepare and by detection */
TEST(prepare_checks_bodies)
{
    imp_shape *blk = imp_shape2d_block(1.0, 1.0, NULL);
    imp_body2d a = {blk, 1, {0, 0, 0}, {0, 0, 0}, 0, {0, 0, 0}};
    imp_body2d b = {blk, 2, {0.5, 0.9, 0.1}, {0.5, 1.2, 0.1}, 1, {0, -1, 0}};
    imp_body2d_xf xa, xb;
    imp_detect2d_params p = {0.01, 0.5, 0, 0};
    imp_hit2d h[16];
    CHECK(imp_collide2d_prepare(&a, &xa) == 0 && xa.valid && xa.poly == imp_shape2d_poly(blk));
    CHECK(imp_collide2d_prepare(&b, &xb) == 0 && xb.valid);
    int n = imp_collide2d_detect_xf(&a, &xa, &b, &xb, &p, h, 16);
    CHECK(n > 0 && n == imp_collide2d_detect(&a, &b, &p, h, 16));
    const double bad[3] = {NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 3; k++) {
        for (int f = 0; f < 3; f++) {
            imp_body2d c = b;
            double *field = f == 0 ? c.pose : (f == 1 ? c.velocity : c.prev_pose);
            field[k] = bad[(k + f) % 3];
            imp_body2d_xf xc;
            CHECK(imp_collide2d_prepare(&c, &xc) == -1 && !xc.valid);
            CHECK(imp_collide2d_detect_xf(&a, &xa, &c, &xc, &p, h, 16) == -1);
            CHECK(imp_collide2d_detect(&c, &a, &p, h, 16) == -1);
        }
    }
    imp_body2d c = b;
    c.has_prev = 0;
    c.prev_pose[0] = NAN;  /* unused without has_prev */
    imp_body2d_xf xc;
    CHECK(imp_collide2d_prepare(&c, &xc) == 0);
    imp_body2d_xf none = xa;
    none.valid = 0;
    CHECK(imp_collide2d_detect_xf(&a, &none, &b, &xb, &p, h, 16) == -1);
    imp_shape_release(blk);
}

/* lines_convex marks the strictly convex straight-edged polygons; for them, the side of every
   edge line (beyond a 1e-9 margin) decides containment as the crossing-number test does */
TEST(strictly_convex_shortcuts)
{
    imp_shape *shapes[NS];
    make_shapes(shapes);
    /* ball, block, convex arc top, concave arc top, frame, hexagon, rounded block */
    const int expect[NS] = {0, 1, 0, 0, 0, 1, 0};
    for (int i = 0; i < NS; i++) {
        CHECK(imp_shape2d_poly(shapes[i])->lines_convex == expect[i]);
    }
    /* a square with a straight-through point on its bottom edge: convex, but not strictly */
    const imp_path2d_cmd sq[] = {{IMP_PATH_MOVE, 0, 0, 0, 0, 0, 0}, {IMP_PATH_LINE, 0.5, 0, 0, 0, 0, 0},
                                 {IMP_PATH_LINE, 1, 0, 0, 0, 0, 0}, {IMP_PATH_LINE, 1, 1, 0, 0, 0, 0},
                                 {IMP_PATH_LINE, 0, 1, 0, 0, 0, 0}, {IMP_PATH_CLOSE, 0, 0, 0, 0, 0, 0}};
    imp_shape *flat = imp_shape2d_polygon(sq, 6, 0.3, NULL);
    CHECK(flat != NULL && imp_shape2d_poly(flat)->lines_convex == 0);
    imp_shape_release(flat);
    long in = 0, out = 0;
    for (int si = 1; si < NS; si += 4) {  /* the block and the hexagon */
        const imp_poly2d *g = imp_shape2d_poly(shapes[si]);
        double margin = 1e-9 * g->radius;
        for (int t = 0; t < 20000; t++) {
            imp_vec2 p = imp_v2(1.2 * g->radius * (2 * rnd() - 1), 1.2 * g->radius * (2 * rnd() - 1));
            if (t % 4 == 0) {  /* on or next to an edge line */
                const imp_edge2d *e = &g->edges[t % g->nedges];
                p = imp_v2_madd(imp_edge2d_point_at(e, rnd()), (rnd() - 0.5) * 4e-9 * g->radius, e->n);
            }
            double most = -INFINITY;
            for (int k = 0; k < g->nedges; k++) {
                most = fmax(most, imp_v2_dot(imp_v2_sub(p, g->edges[k].a), g->edges[k].n));
            }
            if (most < -margin) {
                CHECK(imp_poly2d_contains_centred(g, p) == 1);
                in++;
            } else if (most > margin) {
                CHECK(imp_poly2d_contains_centred(g, p) == 0);
                out++;
            }
        }
    }
    CHECK(in > 5000 && out > 5000);
    for (int i = 0; i < NS; i++) {
        imp_shape_release(shapes[i]);
    }
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(cached_batch_is_bit_identical);
    RUN(beyond_segment_matches_hypot);
    RUN(closest_within_matches_closest);
    RUN(bounds_from_transforms);
    RUN(prepare_checks_bodies);
    RUN(strictly_convex_shortcuts);
    return CHECK_END("collide2d_cache");
}
