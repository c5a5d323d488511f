/* test_shape2d.c: polygons with straight and circular edges against closed forms:
   area, centroid, polar moment (sector, segment, quarter-disc formulas), validation errors,
   edge distances, normals and curvature. */
#include "check.h"
#include "edge2d.h"
#include "polygon2d.h"
#include "scalar.h"
#include "shape2d_basic.h"

#define MOVE(x, y) {IMP_PATH_MOVE, (x), (y), 0, 0, 0, 0}
#define LINE(x, y) {IMP_PATH_LINE, (x), (y), 0, 0, 0, 0}
#define ARC(x, y, cx, cy, out) {IMP_PATH_ARC, (x), (y), (cx), (cy), (out), 0}
#define CLOSE {IMP_PATH_CLOSE, 0, 0, 0, 0, 0, 0}
#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static imp_shape *poly(const imp_path2d_cmd *c, int n)
{
    imp_poly2d_error err;
    imp_shape *s = imp_shape2d_polygon(c, n, 0.3, &err);
    if (s == NULL) {
        fprintf(stderr, "build failed: %s\n", err.message);
    }
    return s;
}

static int fails_with(const imp_path2d_cmd *c, int n, int status)
{
    imp_poly2d_error err;
    imp_shape *s = imp_shape2d_polygon(c, n, 0.3, &err);
    if (s != NULL) {
        imp_shape_release(s);
        fprintf(stderr, "expected status %d, built fine\n", status);
        return 0;
    }
    if (err.status != status) {
        fprintf(stderr, "expected status %d, got %d: %s\n", status, err.status, err.message);
    }
    return err.status == status && err.message[0] != '\0';
}

TEST(circle_off_origin)
{
    double r = 0.7, cx = 3, cy = -2;
    imp_path2d_cmd c[] = {MOVE(cx + r, cy), ARC(cx + r, cy, cx, cy, 1), CLOSE};
    imp_shape *s = poly(c, N(c));
    CHECK(s != NULL);
    CHECK_CLOSE(s->measure, IMP_PI * r * r, 1e-13, 0);
    CHECK_NEAR(s->centroid[0], cx, 1e-12);
    CHECK_NEAR(s->centroid[1], cy, 1e-12);
    CHECK_CLOSE(s->inertia.m[2][2], 0.5 * IMP_PI * pow(r, 4), 1e-12, 0);
    CHECK_CLOSE(s->radius, r, 1e-14, 0);
    imp_shape_release(s);
}

TEST(basic_circle_and_rectangle_keep_their_meaning)
{
    imp_shape *c = imp_shape2d_circle(0.3);
    CHECK(c != NULL);
    CHECK(strcmp(c->cls->name, "circle") == 0);
    CHECK_CLOSE(c->measure, IMP_PI * 0.09, 1e-15, 0);
    CHECK(imp_shape2d_basic_params(c)[0] == 0.3);
    imp_shape *r = imp_shape2d_rectangle(2, 0.5);
    CHECK(r != NULL);
    CHECK(strcmp(r->cls->name, "rectangle") == 0);
    CHECK(r->centroid[0] == 0.0 && r->centroid[1] == 0.0);
    CHECK_CLOSE(r->inertia.m[2][2], 1 * (4 + 0.25) / 12, 1e-15, 0);
    double pose[3] = {1, 1, IMP_PI / 2}, lo[3], hi[3];
    imp_shape_bounds(r, pose, lo, hi);
    CHECK_NEAR(lo[0], 0.75, 1e-15);
    CHECK_NEAR(hi[1], 2, 1e-15);
    CHECK(imp_shape2d_circle(-1) == NULL);
    imp_shape_release(c);
    imp_shape_release(r);
}

TEST(rotated_rectangle_by_path)
{
    double w = 3, h = 1.25, a = 0.4, ox = -1, oy = 5;
    double cs = cos(a), sn = sin(a);
    double px[4] = {-w / 2, w / 2, w / 2, -w / 2}, py[4] = {-h / 2, -h / 2, h / 2, h / 2};
    imp_path2d_cmd c[5];
    for (int i = 0; i < 4; i++) {
        imp_path2d_cmd k = {i == 0 ? IMP_PATH_MOVE : IMP_PATH_LINE, ox + cs * px[i] - sn * py[i],
                            oy + sn * px[i] + cs * py[i], 0, 0, 0, 0};
        c[i] = k;
    }
    c[4] = (imp_path2d_cmd)CLOSE;
    imp_shape *s = poly(c, 5);
    CHECK(s != NULL);
    CHECK_CLOSE(s->measure, w * h, 1e-13, 0);
    CHECK_NEAR(s->centroid[0], ox, 1e-12);
    CHECK_NEAR(s->centroid[1], oy, 1e-12);
    CHECK_CLOSE(s->inertia.m[2][2], w * h * (w * w + h * h) / 12, 1e-12, 0);
    imp_shape_release(s);
}

TEST(scale_invariant_tolerances)
{
    /* a unit triangle far from the origin and a micro triangle both build, with their areas */
    imp_path2d_cmd far[] = {MOVE(1e6, 1e6), LINE(1e6 + 1, 1e6), LINE(1e6 + 1, 1e6 + 1), CLOSE};
    imp_shape *s = poly(far, N(far));
    CHECK(s != NULL);
    CHECK_CLOSE(s->measure, 0.5, 1e-9, 0);
    CHECK_NEAR(s->centroid[0], 1e6 + 2.0 / 3, 1e-9);
    CHECK_CLOSE(s->inertia.m[2][2], 0.5 * (1 + 1 + 2) / 36 * 1, 1e-6, 0); /* legs 1, 1: A (a^2 + b^2 + c^2) / 36 */
    imp_shape_release(s);
    imp_path2d_cmd micro[] = {MOVE(0, 0), LINE(1e-6, 0), LINE(1e-6, 1e-6), CLOSE};
    s = poly(micro, N(micro));
    CHECK(s != NULL);
    CHECK_CLOSE(s->measure, 0.5e-12, 1e-12, 0);
    imp_shape_release(s);
}

TEST(ngon_triangle_formula)
{
    for (int n = 3; n <= 12; n++) {
        double R = 1.3;
        imp_shape *s = imp_shape2d_ngon(n, R, NULL);
        CHECK(s != NULL);
        /* n isosceles triangles about the centre: area R^2 sin(2pi/n)/2 each,
           polar moment about the apex A (|P1|^2 + |P2|^2 + P1.P2) / 6 */
        double t = 0.5 * R * R * sin(2 * IMP_PI / n);
        CHECK_CLOSE(s->measure, n * t, 1e-12, 0);
        CHECK_CLOSE(s->inertia.m[2][2], n * t * R * R * (2 + cos(2 * IMP_PI / n)) / 6, 1e-12, 0);
        CHECK_CLOSE(s->radius, R, 1e-14, 0);
        imp_shape_release(s);
    }
}

TEST(frame_and_doughnut)
{
    double W = 4, H = 3, t = 0.25, w = W - 2 * t, h = H - 2 * t;
    imp_shape *f = imp_shape2d_frame(W, H, t, NULL);
    CHECK(f != NULL);
    CHECK_CLOSE(f->measure, W * H - w * h, 1e-13, 0);
    CHECK_CLOSE(f->inertia.m[2][2], (W * H * (W * W + H * H) - w * h * (w * w + h * h)) / 12, 1e-12, 0);
    CHECK(imp_shape2d_contains(f, imp_v2(0, 0)) == 0);
    CHECK(imp_shape2d_contains(f, imp_v2(W / 2 - t / 2, 0)) == 1);
    imp_shape_release(f);
    double R = 2, r = 1.5;
    imp_path2d_cmd c[] = {MOVE(R, 0), ARC(R, 0, 0, 0, 1), CLOSE, MOVE(r, 0), ARC(r, 0, 0, 0, 0), CLOSE};
    imp_shape *d = poly(c, N(c));
    CHECK(d != NULL);
    CHECK_CLOSE(d->measure, IMP_PI * (R * R - r * r), 1e-13, 0);
    CHECK_CLOSE(d->inertia.m[2][2], IMP_PI * (pow(R, 4) - pow(r, 4)) / 2, 1e-12, 0);
    CHECK_NEAR(d->centroid[0], 0, 1e-14);
    imp_shape_release(d);
}

TEST(sector)
{
    double R = 1.7, phi = 2.2;
    imp_path2d_cmd c[] = {MOVE(0, 0), LINE(R, 0), ARC(R * cos(phi), R * sin(phi), 0, 0, 1), CLOSE};
    imp_shape *s = poly(c, N(c));
    CHECK(s != NULL);
    double A = 0.5 * R * R * phi, dc = 4 * R * sin(phi / 2) / (3 * phi);
    CHECK_CLOSE(s->measure, A, 1e-13, 0);
    CHECK_NEAR(s->centroid[0], dc * cos(phi / 2), 1e-12);
    CHECK_NEAR(s->centroid[1], dc * sin(phi / 2), 1e-12);
    /* about the apex R^4 phi / 4, moved to the centroid */
    CHECK_CLOSE(s->inertia.m[2][2], pow(R, 4) * phi / 4 - A * dc * dc, 1e-12, 0);
    imp_shape_release(s);
}

/* circular segment of radius R, half angle al: area, centroid distance from the circle centre,
   polar moment about the circle centre (sector less the triangle) */
static void segment(double R, double al, double *A, double *d, double *J0)
{
    *A = R * R * (al - sin(al) * cos(al));
    *d = 4 * R * pow(sin(al), 3) / (3 * (2 * al - sin(2 * al)));
    double tri = R * R * sin(al) * cos(al);
    *J0 = pow(R, 4) * al / 2 - tri * R * R * (2 + cos(2 * al)) / 6;
}

TEST(arc_top_blocks)
{
    double w = 1.2, h = 0.8, R = 0.9;
    for (int convex = 0; convex <= 1; convex++) {
        imp_shape *s = imp_shape2d_arc_top_block(w, h, R, convex, 0.3, NULL);
        CHECK(s != NULL);
        double al = asin(0.5 * w / R), k = R * cos(al), As, ds, J0;
        segment(R, al, &As, &ds, &J0);
        double Ar = w * h, sg = convex ? 1.0 : -1.0;
        double ys = convex ? h - k + ds : h + k - ds; /* segment centroid */
        double A = Ar + sg * As;
        double y = (Ar * h / 2 + sg * As * ys) / A;
        double J = Ar * (w * w + h * h) / 12 + Ar * pow(h / 2 - y, 2) +
                   sg * ((J0 - As * ds * ds) + As * pow(ys - y, 2));
        CHECK_CLOSE(s->measure, A, 1e-12, 0);
        CHECK_NEAR(s->centroid[0], 0, 1e-13);
        CHECK_NEAR(s->centroid[1], y, 1e-12);
        CHECK_CLOSE(s->inertia.m[2][2], J, 1e-12, 0);
        imp_shape_release(s);
    }
}

TEST(rounded_block)
{
    double w = 2, h = 1, r = 0.3;
    imp_shape *s = imp_shape2d_rounded_block(w, h, r, 0.3, NULL);
    CHECK(s != NULL);
    double Aq = IMP_PI * r * r / 4, dq = 4 * r / (3 * IMP_PI);
    double J = w * h * (w * w + h * h) / 12;
    double qx = w / 2 - r, qy = h / 2 - r;
    /* less four corner squares, plus four quarter discs, all about the origin */
    J -= 4 * (r * r * (r * r / 6) + r * r * (pow(qx + r / 2, 2) + pow(qy + r / 2, 2)));
    J += 4 * ((IMP_PI * pow(r, 4) / 8 - Aq * 2 * dq * dq) + Aq * (pow(qx + dq, 2) + pow(qy + dq, 2)));
    CHECK_CLOSE(s->measure, w * h - (4 - IMP_PI) * r * r, 1e-13, 0);
    CHECK_CLOSE(s->inertia.m[2][2], J, 1e-12, 0);
    imp_shape_release(s);
    imp_shape *st = imp_shape2d_rounded_block(2, 1, 0.5, 0.3, NULL); /* a stadium */
    CHECK(st != NULL);
    CHECK_CLOSE(st->measure, 1 * 1 + IMP_PI * 0.25, 1e-13, 0);
    imp_shape_release(st);
}

TEST(invalid_paths)
{
    imp_path2d_cmd open[] = {MOVE(0, 0), LINE(1, 0), LINE(1, 1)};
    CHECK(fails_with(open, N(open), IMP_POLY_OPEN_PATH));
    imp_path2d_cmd open2[] = {MOVE(0, 0), LINE(1, 0), LINE(1, 1), MOVE(3, 3)};
    CHECK(fails_with(open2, N(open2), IMP_POLY_OPEN_PATH));
    imp_path2d_cmd zero[] = {MOVE(0, 0), LINE(1, 0), LINE(1, 0), LINE(1, 1), CLOSE};
    CHECK(fails_with(zero, N(zero), IMP_POLY_ZERO_EDGE));
    imp_path2d_cmd bow[] = {MOVE(0, 0), LINE(1, 1), LINE(1, 0), LINE(0, 1), CLOSE};
    CHECK(fails_with(bow, N(bow), IMP_POLY_CROSSING));
    imp_path2d_cmd off[] = {MOVE(0, 0), LINE(1, 0), ARC(0, 1.1, 0, 0, 1), CLOSE};
    CHECK(fails_with(off, N(off), IMP_POLY_ARC_OFF_CIRCLE));
    imp_path2d_cmd cw[] = {MOVE(0, 0), LINE(0, 1), LINE(1, 1), LINE(1, 0), CLOSE};
    CHECK(fails_with(cw, N(cw), IMP_POLY_ORIENTATION));
    imp_path2d_cmd hole_ccw[] = {MOVE(-2, -2), LINE(2, -2), LINE(2, 2), LINE(-2, 2), CLOSE,
                                 MOVE(-1, -1), LINE(1, -1), LINE(1, 1), LINE(-1, 1), CLOSE};
    CHECK(fails_with(hole_ccw, N(hole_ccw), IMP_POLY_ORIENTATION));
    imp_path2d_cmd back[] = {MOVE(0, 0), LINE(1, 0), CLOSE};
    CHECK(fails_with(back, N(back), IMP_POLY_CROSSING));
    imp_path2d_cmd crossing_paths[] = {MOVE(0, 0), LINE(2, 0), LINE(2, 2), LINE(0, 2), CLOSE,
                                       MOVE(1, 1), LINE(3, 1), LINE(3, 3), LINE(1, 3), CLOSE};
    CHECK(fails_with(crossing_paths, N(crossing_paths), IMP_POLY_CROSSING));
    /* an arc bulging through the opposite edge */
    imp_path2d_cmd arc_cross[] = {MOVE(0, 0), LINE(1, 0), LINE(1, 0.2), ARC(0, 0.2, 0.5, 0.2, 0), CLOSE};
    CHECK(fails_with(arc_cross, N(arc_cross), IMP_POLY_CROSSING));
    imp_path2d_cmd before[] = {LINE(1, 0)};
    CHECK(fails_with(before, N(before), IMP_POLY_BAD_COMMAND));
    CHECK(fails_with(NULL, 0, IMP_POLY_ZERO_AREA));
    imp_path2d_cmd nan[] = {MOVE(NAN, 0), LINE(1, 0), LINE(1, 1), CLOSE};
    CHECK(fails_with(nan, N(nan), IMP_POLY_BAD_COMMAND));
}

TEST(line_edge_distances)
{
    imp_edge2d e = {0};
    e.kind = IMP_EDGE_LINE;
    e.a = imp_v2(0, 0);
    e.b = imp_v2(2, 0);
    imp_edge2d_finish(&e);
    /* material on the left (above): outside is below */
    CHECK_NEAR(imp_edge2d_support_distance(&e, imp_v2(1, -0.5)), 0.5, 1e-15);
    CHECK_NEAR(imp_edge2d_support_distance(&e, imp_v2(1, 0.25)), -0.25, 1e-15);
    CHECK_NEAR(imp_edge2d_normal_at(&e, imp_v2(1, 0)).y, -1, 0);
    CHECK(imp_edge2d_curvature(&e) == 0.0);
    for (int k = 0; k < 8; k++) {
        double a = 0.7 * k;
        imp_xf2 x = {{0.3, -1.1}, cos(a), sin(a)};
        imp_edge2d f = imp_edge2d_transform(&e, x);
        CHECK_NEAR(imp_edge2d_signed_distance(&f, imp_xf2_apply(x, imp_v2(0.5, -0.3))), 0.3, 1e-14);
        CHECK_NEAR(imp_edge2d_signed_distance(&f, imp_xf2_apply(x, imp_v2(1.5, 0.2))), -0.2, 1e-14);
        CHECK_NEAR(imp_edge2d_signed_distance(&f, imp_xf2_apply(x, imp_v2(3, -0.5))), hypot(1, 0.5), 1e-14);
    }
}

TEST(arc_edge_distances)
{
    for (int convex = 0; convex <= 1; convex++) {
        imp_edge2d e = {0};
        e.kind = IMP_EDGE_ARC;
        e.c = imp_v2(0, 0);
        e.r = 2;
        e.a = convex ? imp_v2(2, 0) : imp_v2(0, 2);
        e.b = convex ? imp_v2(0, 2) : imp_v2(2, 0);
        e.sweep = convex ? IMP_PI / 2 : -IMP_PI / 2;
        imp_edge2d_finish(&e);
        CHECK(e.convex == convex);
        double sg = convex ? 1 : -1;
        CHECK_NEAR(imp_edge2d_curvature(&e), sg * 0.5, 1e-15);
        CHECK_NEAR(e.length, IMP_PI, 1e-14);
        for (int k = 0; k < 8; k++) {
            double a = 0.9 * k - 2;
            imp_xf2 x = {{-0.4, 2.5}, cos(a), sin(a)};
            imp_edge2d f = imp_edge2d_transform(&e, x);
            imp_vec2 u = imp_v2(cos(0.6), sin(0.6));
            /* outside the circle: outside of a convex arc, inside the material of a concave one */
            imp_vec2 p_out = imp_xf2_apply(x, imp_v2_scale(u, 2.5));
            imp_vec2 p_in = imp_xf2_apply(x, imp_v2_scale(u, 1.75));
            CHECK_NEAR(imp_edge2d_signed_distance(&f, p_out), sg * 0.5, 1e-14);
            CHECK_NEAR(imp_edge2d_signed_distance(&f, p_in), -sg * 0.25, 1e-14);
            CHECK_NEAR(imp_edge2d_support_distance(&f, p_out), sg * 0.5, 1e-14);
            imp_vec2 n = imp_edge2d_normal_at(&f, imp_xf2_apply(x, imp_v2_scale(u, 2)));
            imp_vec2 un = imp_xf2_rot(x, u);
            CHECK_NEAR(n.x, sg * un.x, 1e-14);
            CHECK_NEAR(n.y, sg * un.y, 1e-14);
            /* beyond the span: nearest end point */
            imp_vec2 p = imp_xf2_apply(x, imp_v2(3, -1));
            CHECK_NEAR(fabs(imp_edge2d_signed_distance(&f, p)), hypot(1, 1), 1e-14);
        }
    }
}

TEST(segment_hits)
{
    imp_shape *b = imp_shape2d_circle(1);
    const imp_poly2d *g = imp_shape2d_poly(b);
    double s;
    imp_vec2 q;
    CHECK(imp_edge2d_segment_hit(&g->edges[0], imp_v2(-3, 0.6), imp_v2(3, 0.6), &s, &q) == 1);
    CHECK_NEAR(q.x, -0.8, 1e-14);
    CHECK_NEAR(s, 2.2 / 6, 1e-14);
    /* leaving only: no inward crossing */
    CHECK(imp_edge2d_segment_hit(&g->edges[0], imp_v2(0, 0), imp_v2(3, 0.6), &s, &q) == 0);
    imp_shape_release(b);
}

TEST(decorated_vertices_spacing)
{
    imp_shape *b = imp_shape2d_ball(1, 0.1, NULL);
    const imp_poly2d *g = imp_shape2d_poly(b);
    int k = (int)ceil(2 * IMP_PI / 0.1);
    CHECK(g->nvertices == 1 + (k - 1));
    CHECK(g->vertices[0].corner == 0);
    for (int i = 1; i < g->nvertices; i++) {
        CHECK(g->vertices[i].decorated);
        CHECK_NEAR(imp_v2_len(g->vertices[i].p), 1, 1e-15);
        CHECK_NEAR(imp_v2_dist(g->vertices[i].p, g->vertices[i - 1].p), 2 * sin(IMP_PI / k), 1e-14);
    }
    imp_shape_release(b);
    imp_shape *r = imp_shape2d_rectangle(1, 2);
    g = imp_shape2d_poly(r);
    CHECK(g->nvertices == 4);
    for (int i = 0; i < 4; i++) {
        CHECK(g->vertices[i].corner == 1);
    }
    imp_shape_release(r);
}

TEST(transforms_and_bounds)
{
    imp_shape *s = imp_shape2d_arc_top_block(1, 1, 0.5, 1, 0.3, NULL);  /* half-disc top */
    CHECK(s != NULL);
    double pose[3] = {2, 3, IMP_PI / 2};
    imp_vec2 p = imp_v2(0.5, 0);
    imp_vec2 w = imp_shape2d_to_world(s, pose, p);
    imp_vec2 back = imp_shape2d_to_body(s, pose, w);
    CHECK_NEAR(back.x, p.x, 1e-15);
    CHECK_NEAR(back.y, p.y, 1e-15);
    /* (0.5, 0) - centroid rotated by 90 degrees */
    CHECK_NEAR(w.x, 2 - (0 - s->centroid[1]), 1e-15);
    CHECK_NEAR(w.y, 3 + 0.5, 1e-15);
    double lo[3], hi[3];
    imp_shape_bounds(s, pose, lo, hi);
    /* the shape spans y in [0, 1.5] in shape coordinates; rotated it spans x */
    CHECK_NEAR(lo[0], 2 - (1.5 - s->centroid[1]), 1e-14);
    CHECK_NEAR(hi[0], 2 + s->centroid[1], 1e-14);
    CHECK_NEAR(hi[1] - lo[1], 1, 1e-14);
    double box[4], prev[3] = {-1, 3, 0};
    imp_shape2d_swept_bounds(s, pose, prev, 0.01, box);
    /* at prev the shape spans x in [-1.5, -0.5], y from 3 - centroid_y to 3 + 1.5 - centroid_y */
    CHECK_NEAR(box[0], -1.5 - 0.01, 1e-14);
    CHECK_NEAR(box[1], imp_min(lo[1], 3 - s->centroid[1]) - 0.01, 1e-14);
    CHECK_NEAR(box[2], hi[0] + 0.01, 1e-14);
    CHECK_NEAR(box[3], imp_max(hi[1], 4.5 - s->centroid[1]) + 0.01, 1e-14);
    imp_shape_release(s);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(circle_off_origin);
    RUN(basic_circle_and_rectangle_keep_their_meaning);
    RUN(rotated_rectangle_by_path);
    RUN(scale_invariant_tolerances);
    RUN(ngon_triangle_formula);
    RUN(frame_and_doughnut);
    RUN(sector);
    RUN(arc_top_blocks);
    RUN(rounded_block);
    RUN(invalid_paths);
    RUN(line_edge_distances);
    RUN(arc_edge_distances);
    RUN(segment_hits);
    RUN(decorated_vertices_spacing);
    RUN(transforms_and_bounds);
    return CHECK_END("shape2d");
}
