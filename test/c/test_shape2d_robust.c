/* test_shape2d_robust.c: issue #15 for 2D shapes: arc vertex counts bounded by the arc's
   angle whatever its size or the spacing, sizes out of range refused with their value, mass
   properties of shallow arcs free of cancellation, the sweep of the crossing test. */
#include <float.h>

#include "check.h"
#include "edge2d.h"
#include "mass2d.h"
#include "polygon2d.h"
#include "scalar.h"

#define MOVE(x, y) {IMP_PATH_MOVE, (x), (y), 0, 0, 0, 0}
#define LINE(x, y) {IMP_PATH_LINE, (x), (y), 0, 0, 0, 0}
#define ARC(x, y, cx, cy, out) {IMP_PATH_ARC, (x), (y), (cx), (cy), (out), 0}
#define CLOSE {IMP_PATH_CLOSE, 0, 0, 0, 0, 0, 0}
#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* a ball of radius 1e12 (before: 2e13 decorated vertices, "out of memory"), a rounded block
   whose arcs overflowed an int count (heap overflow), a denormal spacing (infinite count) */
TEST(arc_vertex_counts_bounded)
{
    imp_poly2d_error err;
    imp_shape *b = imp_shape2d_ball(1e12, IMP_POLY2D_DEFAULT_SPACING, &err);
    CHECK(b != NULL);
    const imp_poly2d *g = imp_shape2d_poly(b);
    CHECK(g->nvertices == IMP_POLY2D_ARC_PIECES);
    CHECK_CLOSE(b->measure, IMP_PI * 1e24, 1e-15, 0);
    imp_shape_release(b);
    imp_shape *r = imp_shape2d_rounded_block(9e11, 2.7e11, 8e10, IMP_POLY2D_DEFAULT_SPACING, &err);
    CHECK(r != NULL);
    g = imp_shape2d_poly(r);
    CHECK(g->nvertices == 8 + 4 * (IMP_POLY2D_ARC_PIECES / 4 - 1));
    imp_shape_release(r);
    r = imp_shape2d_rounded_block(1, 1, 0.1, 1e-320, &err);
    CHECK(r == NULL && err.status == IMP_POLY_BAD_SIZE);
    CHECK(strstr(err.message, "spacing must be a length in [1e-60, 1e+60], got 9.99989e-321"));
    r = imp_shape2d_rounded_block(1, 1, 0.1, 1e-50, &err);
    CHECK(r != NULL);
    g = imp_shape2d_poly(r);
    CHECK(g->nvertices == 8 + 4 * (IMP_POLY2D_ARC_PIECES / 4 - 1));
    imp_shape_release(r);
    /* ordinary sizes keep one vertex every spacing along the arc */
    b = imp_shape2d_ball(40, 0.3, &err);
    g = imp_shape2d_poly(b);
    CHECK(g->nvertices == (int)ceil(2 * IMP_PI * 40 / 0.3));
    imp_shape_release(b);
}

TEST(sizes_out_of_range)
{
    imp_poly2d_error err;
    const double bad[] = {0.0, -1.0, NAN, INFINITY, 1e-320, 1e-61, 1e61, DBL_MAX};
    for (int i = 0; i < N(bad); i++) {
        CHECK(imp_shape2d_ball(bad[i], 0.3, &err) == NULL);
        CHECK(err.status == IMP_POLY_BAD_SIZE && strstr(err.message, "radius must be a length in"));
        CHECK(imp_shape2d_block(1, bad[i], &err) == NULL);
        CHECK(err.status == IMP_POLY_BAD_SIZE && strstr(err.message, "height must be a length in"));
        CHECK(imp_shape2d_ngon(5, bad[i], &err) == NULL);
        CHECK(imp_shape2d_rounded_block(1, 1, bad[i], 0.3, &err) == NULL);
        CHECK(strstr(err.message, "corner_radius"));
        CHECK(imp_shape2d_frame(bad[i], 1, 0.1, &err) == NULL);
        CHECK(strstr(err.message, "outer_width"));
        CHECK(imp_shape2d_arc_top_block(1, 1, bad[i], 1, 0.3, &err) == NULL);
        CHECK(strstr(err.message, "radius"));
    }
    /* the extremes of the range build, with finite positive mass properties */
    imp_shape *s = imp_shape2d_ball(1e60, 0.3, &err);
    CHECK(s != NULL && isfinite(s->inertia.m[2][2]));
    imp_shape_release(s);
    s = imp_shape2d_block(1e-60, 1e-60, &err);
    CHECK(s != NULL && s->inertia.m[2][2] > 0.0);
    imp_shape_release(s);
    /* a path beyond the range */
    const imp_path2d_cmd big[] = {MOVE(0, 0), LINE(1e61, 0), LINE(0, 1e61), CLOSE};
    CHECK(imp_shape2d_polygon(big, N(big), 0.3, &err) == NULL);
    CHECK(err.status == IMP_POLY_BAD_SIZE && strstr(err.message, "at most 1e+60"));
    const imp_path2d_cmd tiny[] = {MOVE(0, 0), LINE(1e-70, 0), LINE(0, 1e-70), CLOSE};
    CHECK(imp_shape2d_polygon(tiny, N(tiny), 0.3, &err) == NULL);
    CHECK(err.status == IMP_POLY_BAD_SIZE && strstr(err.message, "spans 1e-70"));
}

/* the stable arc integrals equal the closed forms to rounding for ordinary arcs */
TEST(stable_mass_matches_closed_form)
{
    for (int k = 1; k <= 40; k++) {
        double sweep = (k % 2 ? 1.0 : -1.0) * k / 40.0, r = 0.3 + 0.1 * k;
        imp_edge2d e = {0};
        e.kind = IMP_EDGE_ARC;
        e.c = imp_v2(0.2, -0.4);
        e.r = r;
        e.a = imp_v2_add(e.c, imp_v2(r * cos(0.3 * k), r * sin(0.3 * k)));
        e.b = imp_v2_add(e.c, imp_v2(r * cos(0.3 * k + sweep), r * sin(0.3 * k + sweep)));
        e.sweep = sweep;
        imp_edge2d_finish(&e);
        imp_vec2 ref = imp_v2(0.1, 0.7);
        imp_mass2d m = {0, 0, 0, 0}, ms = {0, 0, 0, 0};
        imp_mass2d_add_edge(&m, &e, ref);
        imp_mass2d_add_edge_stable(&ms, &e, ref);
        double scale = r * r + imp_v2_dot(e.c, e.c);
        CHECK_NEAR(ms.area, m.area, 1e-14 * scale);
        CHECK_NEAR(ms.sx, m.sx, 1e-14 * scale * r);
        CHECK_NEAR(ms.sy, m.sy, 1e-14 * scale * r);
        CHECK_NEAR(ms.j, m.j, 1e-14 * scale * scale);
    }
}

/* a slab under a very shallow arc: before, a negative polar moment */
TEST(shallow_arc_top)
{
    imp_poly2d_error err;
    double w = 286.20367483886736, h = 0.0069848436985629836, R = 919034.6865140415;
    imp_shape *s = imp_shape2d_arc_top_block(w, h, R, 1, 0.3, &err);
    CHECK(s != NULL);
    /* segment of half-chord c = w / 2 and sagitta f ~ c^2 / (2 R): area ~ 4/3 c f (parabola) */
    double c = 0.5 * w, f = R - sqrt(R * R - c * c);
    double seg = 4.0 / 3.0 * c * f;
    CHECK_CLOSE(s->measure, w * h + seg, 1e-6, 0);
    /* polar moment about the centroid: the slab's and the parabolic cap's, to O(f / c) */
    double polar = s->inertia.m[2][2];
    CHECK(polar > 0.0);
    CHECK_CLOSE(polar, w * h * w * w / 12.0 + seg * c * c / 5.0, 1e-3, 0);
    imp_shape_release(s);
}

/* the crossing test by sweep reports the first fault in edge order */
TEST(crossing_sweep)
{
    imp_poly2d_error err;
    /* a bow tie: edge 1 meets edge 3 */
    const imp_path2d_cmd bow[] = {MOVE(0, 0), LINE(1, 1), LINE(1, 0), LINE(0, 1), CLOSE};
    CHECK(imp_shape2d_polygon(bow, N(bow), 0.3, &err) == NULL);
    CHECK(err.status == IMP_POLY_CROSSING);
    CHECK(strstr(err.message, "path 1 edge 1 (straight) meets path 1 edge 3 (straight)"));
    /* many edges: a 20000-gon in well under a second, and a dent that crosses far along */
    int n = 20000;
    imp_path2d_cmd *c = malloc((size_t)(n + 1) * sizeof *c);
    CHECK(c != NULL);
    for (int k = 0; k < n; k++) {
        double a = 2.0 * IMP_PI * k / n;
        c[k] = (imp_path2d_cmd){k == 0 ? IMP_PATH_MOVE : IMP_PATH_LINE, cos(a), sin(a), 0, 0, 0, 0};
    }
    c[n] = (imp_path2d_cmd){IMP_PATH_CLOSE, 0, 0, 0, 0, 0, 0};
    imp_shape *s = imp_shape2d_polygon(c, n + 1, 0.3, &err);
    CHECK(s != NULL);
    CHECK(imp_shape2d_poly(s)->nedges == n);
    imp_shape_release(s);
    c[n / 2].x = 2.0; /* vertex n/2 + 1 pulled out across the far side: edges cross */
    c[n / 2].y = 0.0;
    s = imp_shape2d_polygon(c, n + 1, 0.3, &err);
    free(c);
    CHECK(s == NULL && err.status == IMP_POLY_CROSSING);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(arc_vertex_counts_bounded);
    RUN(sizes_out_of_range);
    RUN(stable_mass_matches_closed_form);
    RUN(shallow_arc_top);
    RUN(crossing_sweep);
    return CHECK_END("shape2d_robust");
}
