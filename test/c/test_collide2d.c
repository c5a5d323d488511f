/* test_collide2d.c: distances, normals and detection results between posed polygons against
   hand-worked geometry, each scene also turned rigidly by several angles (answers rotate with
   it, distances do not). */
#include "check.h"
#include "collide2d.h"
#include "distance2d.h"
#include "polygon2d.h"
#include "scalar.h"
#include "shape2d_basic.h"
#include "xform2d.h"

/* a scene turned by phi about the origin: a pose and a vector */
static void turn_pose(double phi, double x, double y, double a, double pose[3])
{
    pose[0] = cos(phi) * x - sin(phi) * y;
    pose[1] = sin(phi) * x + cos(phi) * y;
    pose[2] = a + phi;
}

static imp_vec2 turn(double phi, double x, double y) { return imp_v2_rotate(imp_v2(x, y), phi); }

static int check_distance(const imp_shape *a, const double *pa, const imp_shape *b, const double *pb,
                          double d, imp_vec2 n, double tol)
{
    imp_distance2d r;
    if (imp_collide2d_distance(a, pa, b, pb, &r) != 0) {
        return 0;
    }
    int ok = fabs(r.distance - d) <= tol && fabs(r.normal[0] - n.x) <= tol &&
             fabs(r.normal[1] - n.y) <= tol;
    /* the points are the distance apart along the normal (gap or depth) */
    double sep = (r.point_b[0] - r.point_a[0]) * r.normal[0] + (r.point_b[1] - r.point_a[1]) * r.normal[1];
    ok = ok && fabs(sep - r.distance) <= tol;
    if (!ok) {
        fprintf(stderr, "distance %.17g (want %.17g), normal (%g, %g) (want (%g, %g)), sep %g\n",
                r.distance, d, r.normal[0], r.normal[1], n.x, n.y, sep);
    }
    return ok;
}

TEST(ball_ball_distance)
{
    imp_shape *a = imp_shape2d_circle(0.5), *b = imp_shape2d_circle(0.25);
    for (int k = 0; k < 7; k++) {
        double phi = 0.9 * k, pa[3], pb[3];
        turn_pose(phi, 1, 2, 0.3 * k, pa);
        turn_pose(phi, 1 + 0.6, 2 + 0.8, -0.2 * k, pb); /* centres 1 apart */
        CHECK(check_distance(a, pa, b, pb, 0.25, turn(phi, 0.6, 0.8), 1e-12));
        turn_pose(phi, 1 + 0.3, 2 + 0.4, 0.1, pb);       /* 0.5 apart: 0.25 deep */
        CHECK(check_distance(a, pa, b, pb, -0.25, turn(phi, 0.6, 0.8), 1e-12));
    }
    /* concentric: the depth is the sum of the radii, no NaN */
    double p0[3] = {0, 0, 0};
    imp_distance2d r;
    CHECK(imp_collide2d_distance(a, p0, b, p0, &r) == 0);
    CHECK_NEAR(r.distance, -0.75, 1e-15);
    CHECK(isfinite(r.normal[0]) && isfinite(r.normal[1]));
    imp_shape_release(a);
    imp_shape_release(b);
}

TEST(block_block_distance)
{
    imp_shape *a = imp_shape2d_rectangle(2, 1), *b = imp_shape2d_rectangle(1, 1);
    for (int k = 0; k < 7; k++) {
        double phi = 0.7 * k - 1, pa[3], pb[3];
        turn_pose(phi, 0, 0, 0, pa);
        /* b turned 45 degrees, its lowest corner 0.1 above a's top face */
        double h = sqrt(0.5);
        turn_pose(phi, 0.3, 0.5 + 0.1 + h, IMP_PI / 4, pb);
        CHECK(check_distance(a, pa, b, pb, 0.1, turn(phi, 0, 1), 1e-12));
        /* corner to corner: b axis-aligned, offset diagonally by (0.3, 0.4) beyond a's corner */
        turn_pose(phi, 1 + 0.5 + 0.3, 0.5 + 0.5 + 0.4, 0, pb);
        CHECK(check_distance(a, pa, b, pb, 0.5, turn(phi, 0.6, 0.8), 1e-12));
        /* b's corner 0.05 into a's top face */
        turn_pose(phi, 0.3, 0.5 - 0.05 + h, IMP_PI / 4, pb);
        CHECK(check_distance(a, pa, b, pb, -0.05, turn(phi, 0, 1), 1e-12));
    }
    imp_shape_release(a);
    imp_shape_release(b);
}

TEST(ball_block_distance)
{
    imp_shape *a = imp_shape2d_rectangle(2, 1), *b = imp_shape2d_circle(0.3);
    for (int k = 0; k < 7; k++) {
        double phi = 0.8 * k, pa[3], pb[3];
        turn_pose(phi, 0, 0, 0, pa);
        turn_pose(phi, -0.4, 0.5 + 0.3 + 0.02, 1.0, pb);
        CHECK(check_distance(a, pa, b, pb, 0.02, turn(phi, 0, 1), 1e-12));
        turn_pose(phi, 1 + 0.3, 0.5 + 0.4, 0, pb); /* near the corner: 0.5 from it */
        CHECK(check_distance(a, pa, b, pb, 0.2, turn(phi, 0.6, 0.8), 1e-12));
        turn_pose(phi, 0.1, 0.5 + 0.3 - 0.07, 0, pb);
        CHECK(check_distance(a, pa, b, pb, -0.07, turn(phi, 0, 1), 1e-12));
    }
    imp_shape_release(a);
    imp_shape_release(b);
}

TEST(arc_distances)
{
    double w = 1.2, h = 0.8, R = 0.9;
    imp_shape *cv = imp_shape2d_arc_top_block(w, h, R, 1, 0.3, NULL);
    imp_shape *cc = imp_shape2d_arc_top_block(w, h, R, 0, 0.3, NULL);
    imp_shape *ball = imp_shape2d_circle(0.2), *slab = imp_shape2d_rectangle(3, 0.5);
    CHECK(cv != NULL && cc != NULL);
    double k = sqrt(R * R - 0.25 * w * w);
    double ycv = cv->centroid[1], ycc = cc->centroid[1];
    for (int i = 0; i < 6; i++) {
        double phi = 1.1 * i, pa[3], pb[3];
        /* convex top (apex at h - k + R in shape coordinates) under a slab: arc/straight */
        turn_pose(phi, 0, 0, 0, pa);
        double apex = h - k + R - ycv;
        turn_pose(phi, 0.2, apex + 0.03 + 0.25, 0, pb);
        CHECK(check_distance(cv, pa, slab, pb, 0.03, turn(phi, 0, 1), 1e-12));
        turn_pose(phi, 0.2, apex - 0.01 + 0.25, 0, pb);
        CHECK(check_distance(cv, pa, slab, pb, -0.01, turn(phi, 0, 1), 1e-12));
        /* two convex tops facing: arc/arc convex */
        turn_pose(phi, 0, 2 * apex + 0.04, IMP_PI, pb);
        CHECK(check_distance(cv, pa, cv, pb, 0.04, turn(phi, 0, 1), 1e-12));
        /* ball in the concave dip: centre of the arc at h + k */
        double cy = h + k - ycc;
        turn_pose(phi, 0, cy - (R - 0.2) + 0.006, 0.4, pb);
        CHECK(check_distance(cc, pa, ball, pb, 0.006, turn(phi, 0, 1), 1e-12));
        turn_pose(phi, 0, cy - (R - 0.2) - 0.004, 0.4, pb);
        CHECK(check_distance(cc, pa, ball, pb, -0.004, turn(phi, 0, 1), 1e-12));
        /* ball off centre in the dip: along the line from the arc centre */
        double ang = -IMP_PI / 2 + 0.2;
        double rr = R - 0.2 - 0.01;
        turn_pose(phi, rr * cos(ang), cy + rr * sin(ang), 0, pb);
        CHECK(check_distance(cc, pa, ball, pb, 0.01, turn(phi, -cos(ang), -sin(ang)), 1e-12));
    }
    imp_shape_release(cv);
    imp_shape_release(cc);
    imp_shape_release(ball);
    imp_shape_release(slab);
}

static imp_body2d body(const imp_shape *s, int id, double x, double y, double a)
{
    imp_body2d b = {s, id, {x, y, a}, {x, y, a}, 0, {0, 0, 0}};
    return b;
}

static const imp_detect2d_params tol = {0.01, 0.5, 0, 0};

TEST(fast_ball_caught_by_thin_wall)
{
    imp_shape *wall = imp_shape2d_rectangle(0.01, 2), *ball = imp_shape2d_circle(0.1);
    for (int k = 0; k < 5; k++) {
        double phi = 0.6 * k;
        imp_body2d w = body(wall, 7, 0, 0, 0), b = body(ball, 9, 0, 0, 0);
        turn_pose(phi, 0, 0, 0, w.pose);
        turn_pose(phi, 0, 0, 0, w.prev_pose);
        /* 1000 m/s for one 0.025 s step: from 5 m before the wall to 20 m beyond it */
        turn_pose(phi, -5, 0.3, 0, b.prev_pose);
        turn_pose(phi, 20, 0.3, 0, b.pose);
        imp_vec2 v = turn(phi, 1000, 0);
        b.velocity[0] = v.x, b.velocity[1] = v.y;
        b.has_prev = w.has_prev = 1;
        imp_hit2d hits[64];
        int n = imp_collide2d_detect(&w, &b, &tol, hits, 64);
        CHECK(n >= 1 && n <= 64);
        int found = 0;
        for (int i = 0; i < n; i++) {
            CHECK(hits[i].kind == IMP_HIT_COLLISION);
            CHECK(hits[i].swept);
            imp_vec2 nn = imp_v2(hits[i].normal[0], hits[i].normal[1]);
            imp_vec2 ball_side = turn(phi, -1, 0);
            double sg = hits[i].normal_body == 7 ? 1.0 : -1.0; /* out of the wall toward the ball */
            CHECK_NEAR(sg * imp_v2_dot(nn, ball_side), 1, 1e-9);
            CHECK(hits[i].normal_velocity < 0);
            found += hits[i].normal_body == 7;
        }
        CHECK(found >= 1);
        /* without the previous poses nothing is seen: the ball is far beyond */
        b.has_prev = w.has_prev = 0;
        CHECK(imp_collide2d_detect(&w, &b, &tol, hits, 64) == 0);
    }
    imp_shape_release(wall);
    imp_shape_release(ball);
}

TEST(contact_kinds_block_on_floor)
{
    imp_shape *floor = imp_shape2d_rectangle(10, 1), *blk = imp_shape2d_rectangle(1, 1);
    for (int k = 0; k < 4; k++) {
        double phi = 1.3 * k;
        imp_body2d f = body(floor, 1, 0, 0, 0), b = body(blk, 2, 0, 0, 0);
        turn_pose(phi, 0, -0.5, 0, f.pose);
        turn_pose(phi, 0.2, 0.5 + 0.004, 0, b.pose);
        imp_hit2d hits[16];
        int n = imp_collide2d_detect(&f, &b, &tol, hits, 16);
        CHECK(n == 2);
        for (int i = 0; i < n; i++) {
            CHECK(hits[i].kind == IMP_HIT_CONTACT);
            CHECK(hits[i].type == IMP_HIT_VERTEX_EDGE);
            CHECK(hits[i].body == 2 && hits[i].normal_body == 1);
            CHECK_NEAR(hits[i].distance, 0.004, 1e-12);
            imp_vec2 up = turn(phi, 0, 1);
            CHECK_NEAR(hits[i].normal[0], up.x, 1e-12);
            CHECK_NEAR(hits[i].normal[1], up.y, 1e-12);
        }
        imp_vec2 v = turn(phi, 0.3, -1);  /* approaching at 1 m/s: imminent */
        b.velocity[0] = v.x, b.velocity[1] = v.y;
        n = imp_collide2d_detect(&f, &b, &tol, hits, 16);
        CHECK(n == 2 && hits[0].kind == IMP_HIT_IMMINENT);
        CHECK_NEAR(hits[0].normal_velocity, -1, 1e-12);
        v = turn(phi, 0, 1);  /* separating */
        b.velocity[0] = v.x, b.velocity[1] = v.y;
        CHECK(imp_collide2d_detect(&f, &b, &tol, hits, 16) == 0);
        turn_pose(phi, 0.2, 0.5 - 0.002, 0, b.pose); /* penetrating */
        n = imp_collide2d_detect(&f, &b, &tol, hits, 16);
        CHECK(n == 2 && hits[0].kind == IMP_HIT_COLLISION);
        CHECK_NEAR(hits[0].distance, -0.002, 1e-12);
        /* a spinning block: the normal velocity includes w x r */
        turn_pose(phi, 0.2, 0.5 + 0.004, 0, b.pose);
        b.velocity[0] = b.velocity[1] = 0;
        b.velocity[2] = 0.4;  /* corners at x = +-0.5 from the centre move by -+0.2 vertically */
        n = imp_collide2d_detect(&f, &b, &tol, hits, 16);
        CHECK(n == 2);
        CHECK_NEAR(fabs(hits[0].normal_velocity), 0.2, 1e-12);
        CHECK_NEAR(hits[0].normal_velocity + hits[1].normal_velocity, 0, 1e-12);
        /* too far: nothing */
        turn_pose(phi, 0.2, 0.5 + 0.02, 0, b.pose);
        CHECK(imp_collide2d_detect(&f, &b, &tol, hits, 16) == 0);
    }
    imp_shape_release(floor);
    imp_shape_release(blk);
}

TEST(ball_on_floor_edge_edge_wins_over_decorated)
{
    imp_shape *floor = imp_shape2d_rectangle(10, 1), *ball = imp_shape2d_ball(0.5, 0.05, NULL);
    imp_body2d f = body(floor, 1, 0, -0.5, 0), b = body(ball, 2, 0.123, 0.5 - 0.003, 0.1);
    b.prev_pose[0] = 0.123, b.prev_pose[1] = 0.5 + 0.004, b.prev_pose[2] = 0.1;
    b.has_prev = 1;
    b.velocity[1] = -0.28;
    imp_hit2d hits[64];
    int n = imp_collide2d_detect(&f, &b, &tol, hits, 64);
    int ee = 0;
    for (int i = 0; i < n; i++) {
        CHECK(!hits[i].decorated);
        ee += hits[i].type == IMP_HIT_EDGE_EDGE;
    }
    CHECK(ee == 1);
    CHECK(hits[0].type == IMP_HIT_EDGE_EDGE);
    CHECK_NEAR(hits[0].distance, -0.003, 1e-12);
    CHECK_NEAR(hits[0].point[0], 0.123, 1e-12);
    CHECK_NEAR(hits[0].point[1], 0, 1e-12);
    CHECK_NEAR(hits[0].normal_velocity, -0.28, 1e-12);
    CHECK_NEAR(hits[0].curvature, 2, 1e-12);
    /* resting within the tolerance: one contact */
    b.pose[1] = 0.5 + 0.005;
    b.has_prev = 0;
    b.velocity[1] = 0;
    n = imp_collide2d_detect(&f, &b, &tol, hits, 64);
    CHECK(n == 1 && hits[0].kind == IMP_HIT_CONTACT && hits[0].type == IMP_HIT_EDGE_EDGE);
    imp_shape_release(floor);
    imp_shape_release(ball);
}

TEST(no_collide_edges_and_capacity)
{
    imp_path2d_cmd c[] = {{IMP_PATH_MOVE, -1, -0.5, 0, 0, 0, 0}, {IMP_PATH_LINE, 1, -0.5, 0, 0, 0, 0},
                          {IMP_PATH_LINE, 1, 0.5, 0, 0, 0, 0},
                          {IMP_PATH_LINE, -1, 0.5, 0, 0, 0, IMP_EDGE_NO_COLLIDE},
                          {IMP_PATH_CLOSE, 0, 0, 0, 0, 0, 0}};
    imp_poly2d_error err;
    imp_shape *s = imp_shape2d_polygon(c, 5, 0.3, &err);
    imp_shape *blk = imp_shape2d_rectangle(0.4, 0.4);
    CHECK(s != NULL);
    imp_body2d a = body(s, 1, 0, 0, 0), b = body(blk, 2, 0, 0.5 + 0.2 + 0.005, 0);
    imp_hit2d hits[4];
    CHECK(imp_collide2d_detect(&a, &b, &tol, hits, 4) == 0);  /* the top edge is ignored */
    a.pose[2] = IMP_PI; /* now the bottom (colliding) edge faces up */
    CHECK(imp_collide2d_detect(&a, &b, &tol, hits, 4) == 2);
    CHECK(imp_collide2d_detect(&a, &b, &tol, hits, 1) == 2);  /* count beyond capacity */
    CHECK(imp_collide2d_detect(&a, &b, &tol, NULL, 0) == 2);
    imp_detect2d_params bad = {0, 0.5, 0, 0};
    CHECK(imp_collide2d_detect(&a, &b, &bad, hits, 4) == -1);
    b.pose[1] = NAN;
    CHECK(imp_collide2d_detect(&a, &b, &tol, hits, 4) == -1);
    imp_distance2d r;
    CHECK(imp_collide2d_distance(s, a.pose, blk, b.pose, &r) == -1);
    imp_shape_release(s);
    imp_shape_release(blk);
}

TEST(concave_arc_holds_ball_contact)
{
    imp_shape *cc = imp_shape2d_arc_top_block(1.2, 0.8, 0.9, 0, 0.3, NULL), *ball = imp_shape2d_circle(0.2);
    double k = sqrt(0.81 - 0.36), cy = 0.8 + k - cc->centroid[1];
    imp_body2d a = body(cc, 1, 0, 0, 0), b = body(ball, 2, 0, cy - 0.7 + 0.005, 0);
    imp_hit2d hits[8];
    int n = imp_collide2d_detect(&a, &b, &tol, hits, 8);
    CHECK(n == 1);
    CHECK(hits[0].type == IMP_HIT_EDGE_EDGE && hits[0].kind == IMP_HIT_CONTACT);
    CHECK(hits[0].normal_body == 1);
    CHECK_NEAR(hits[0].distance, 0.005, 1e-12);
    CHECK_NEAR(hits[0].normal[1], 1, 1e-12);
    CHECK_NEAR(hits[0].normal_curvature, -1 / 0.9, 1e-12);
    imp_shape_release(cc);
    imp_shape_release(ball);
}

TEST(separated_shapes_are_rejected_early)
{
    imp_shape *a = imp_shape2d_circle(1);
    imp_body2d x = body(a, 1, 0, 0, 0), y = body(a, 2, 5, 0, 0);
    imp_hit2d hits[4];
    CHECK(imp_collide2d_detect(&x, &y, &tol, hits, 4) == 0);
    imp_distance2d r;
    CHECK(imp_collide2d_distance(a, x.pose, a, y.pose, &r) == 0);
    CHECK_NEAR(r.distance, 3, 1e-12);
    imp_shape_release(a);
}

TEST(crossing_bars_estimate)
{
    /* a plus sign: no corner inside the other bar; separating axes give the depth */
    imp_shape *a = imp_shape2d_rectangle(4, 0.2), *b = imp_shape2d_rectangle(0.2, 4);
    double pa[3] = {0, 0, 0}, pb[3] = {0.05, 0, 0};
    imp_distance2d r;
    CHECK(imp_collide2d_distance(a, pa, b, pb, &r) == 0);
    CHECK(r.exact == 1);  /* two convex shapes: the separating axes give the exact minimum */
    /* b spans x in [-0.05, 0.15], a in [-2, 2]: b leaves a by moving +x by 2.05 (moving
       along y takes 2.1) */
    CHECK_NEAR(r.distance, -2.05, 1e-12);
    CHECK_NEAR(r.normal[0], 1, 1e-12);
    imp_shape_release(a);
    imp_shape_release(b);
}

TEST(corner_in_concave_dip)
{
    double w = 1.2, h = 0.8, R = 0.9;
    imp_shape *cc = imp_shape2d_arc_top_block(w, h, R, 0, 0.3, NULL), *sq = imp_shape2d_rectangle(0.2, 0.2);
    double k = sqrt(R * R - w * w / 4), cy = h + k - cc->centroid[1], dip = cy - R;
    double half_diag = sqrt(0.02);
    for (int i = 0; i < 5; i++) {
        double phi = 1.3 * i, pa[3], pb[3];
        turn_pose(phi, 0, 0, 0, pa);
        turn_pose(phi, 0, dip + 0.004 + half_diag, IMP_PI / 4, pb);
        CHECK(check_distance(cc, pa, sq, pb, 0.004, turn(phi, 0, 1), 1e-12));
        turn_pose(phi, 0, dip - 0.003 + half_diag, IMP_PI / 4, pb);
        CHECK(check_distance(cc, pa, sq, pb, -0.003, turn(phi, 0, 1), 1e-12));
        /* off the axis: the corner at angle t below the arc centre, 0.005 from the arc */
        double t = -IMP_PI / 2 + 0.3, rr = R - 0.005;
        turn_pose(phi, rr * cos(t), cy + rr * sin(t) + half_diag, IMP_PI / 4, pb);
        CHECK(check_distance(cc, pa, sq, pb, 0.005, turn(phi, -cos(t), -sin(t)), 1e-12));
        imp_body2d A = body(cc, 1, pa[0], pa[1], pa[2]), B = body(sq, 2, pb[0], pb[1], pb[2]);
        imp_hit2d hits[8];
        int n = imp_collide2d_detect(&A, &B, &tol, hits, 8);
        CHECK(n == 1);
        CHECK(hits[0].type == IMP_HIT_VERTEX_EDGE && hits[0].kind == IMP_HIT_CONTACT);
        CHECK(hits[0].normal_edge == 2 && hits[0].normal_body == 1);
        CHECK_NEAR(hits[0].distance, 0.005, 1e-12);
        CHECK_NEAR(hits[0].normal_curvature, -1 / R, 1e-12);
    }
    imp_shape_release(cc);
    imp_shape_release(sq);
}

TEST(stacked_blocks_and_rounded_block_contacts)
{
    imp_shape *blk = imp_shape2d_rectangle(1, 1);
    imp_shape *rb = imp_shape2d_rounded_block(1, 0.5, 0.1, 0.3, NULL), *floor = imp_shape2d_rectangle(10, 1);
    for (int k = 0; k < 5; k++) {
        double phi = 0.77 * k, pa[3], pb[3];
        /* equal blocks exactly stacked: corner meets corner; one vertex/vertex contact per side */
        turn_pose(phi, 0, 0, 0, pa);
        turn_pose(phi, 0, 1.005, 0, pb);
        imp_body2d A = body(blk, 1, pa[0], pa[1], pa[2]), B = body(blk, 2, pb[0], pb[1], pb[2]);
        imp_hit2d hits[16];
        int n = imp_collide2d_detect(&A, &B, &tol, hits, 16);
        CHECK(n == 2);
        for (int i = 0; i < n; i++) {
            CHECK(hits[i].kind == IMP_HIT_CONTACT);
            CHECK_NEAR(hits[i].distance, 0.005, 1e-12);
        }
        /* one contact at each side (each point on either surface, within the gap of a corner) */
        imp_vec2 left = turn(phi, -0.5, 0.5), right = turn(phi, 0.5, 0.5);
        double dl0 = imp_v2_dist(imp_v2(hits[0].point[0], hits[0].point[1]), left);
        double dr1 = imp_v2_dist(imp_v2(hits[1].point[0], hits[1].point[1]), right);
        double dr0 = imp_v2_dist(imp_v2(hits[0].point[0], hits[0].point[1]), right);
        double dl1 = imp_v2_dist(imp_v2(hits[1].point[0], hits[1].point[1]), left);
        CHECK((dl0 <= 0.0051 && dr1 <= 0.0051) || (dr0 <= 0.0051 && dl1 <= 0.0051));
        /* slightly offset: still one contact per side */
        turn_pose(phi, 1e-6, 1.005, 0, pb);
        B = body(blk, 2, pb[0], pb[1], pb[2]);
        CHECK(imp_collide2d_detect(&A, &B, &tol, hits, 16) == 2);
        /* a rounded block flat on the floor: one arc/straight contact at each rounded corner */
        turn_pose(phi, 0, -0.5, 0, pa);
        turn_pose(phi, 0.3, 0.25 + 0.004, 0, pb);
        imp_body2d F = body(floor, 1, pa[0], pa[1], pa[2]), R = body(rb, 2, pb[0], pb[1], pb[2]);
        n = imp_collide2d_detect(&F, &R, &tol, hits, 16);
        CHECK(n == 2);
        for (int i = 0; i < n; i++) {
            CHECK(hits[i].type == IMP_HIT_EDGE_EDGE && hits[i].kind == IMP_HIT_CONTACT);
            CHECK_NEAR(hits[i].distance, 0.004, 1e-12);
            CHECK_NEAR(hits[i].curvature, 10, 1e-9);
        }
        imp_vec2 mid = imp_v2_scale(imp_v2(hits[0].point[0] + hits[1].point[0],
                                           hits[0].point[1] + hits[1].point[1]), 0.5);
        imp_vec2 want = turn(phi, 0.3, 0);
        CHECK_NEAR(mid.x, want.x, 1e-9);
        CHECK_NEAR(mid.y, want.y, 1e-9);
        CHECK_NEAR(hypot(hits[0].point[0] - hits[1].point[0], hits[0].point[1] - hits[1].point[1]), 0.8, 1e-9);
    }
    imp_shape_release(blk);
    imp_shape_release(rb);
    imp_shape_release(floor);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(ball_ball_distance);
    RUN(block_block_distance);
    RUN(ball_block_distance);
    RUN(arc_distances);
    RUN(fast_ball_caught_by_thin_wall);
    RUN(contact_kinds_block_on_floor);
    RUN(ball_on_floor_edge_edge_wins_over_decorated);
    RUN(no_collide_edges_and_capacity);
    RUN(concave_arc_holds_ball_contact);
    RUN(separated_shapes_are_rejected_early);
    RUN(crossing_bars_estimate);
    RUN(corner_in_concave_dip);
    RUN(stacked_blocks_and_rounded_block_contacts);
    return CHECK_END("collide2d");
}
