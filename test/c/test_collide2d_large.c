/* test_collide2d_large.c: the edge tree of large polygons (collide2d_tree.h) changes no result:
   detection, penetrations, distance and containment of random pairs of large polygons (regular
   polygons, stars, outlines of arcs and lines with holes) and small ones, posed near touching,
   overlapping, flush or sweeping, compare bit for bit (memcmp) with the plain loops (the same
   shapes with their trees taken away); and two overlapping 100000-gons are detected and
   measured in bounded time (RUN_SLOW). */
#include <string.h>
#include <time.h>

#include "check.h"
#include "collide2d.h"
#include "collide2d_tree.h"
#include "distance2d.h"
#include "polygon2d.h"
#include "scalar.h"

static unsigned long long st = 4242;
static double rnd(void)
{
    st = st * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(st >> 11) / 9007199254740992.0;
}

/* 2k points alternately at radius r1 and r2 */
static imp_shape *star(int k, double r1, double r2)
{
    imp_path2d_cmd *c = calloc((size_t)(2 * k + 1), sizeof *c);
    for (int i = 0; i < 2 * k; i++) {
        double a = IMP_PI * i / k, r = (i & 1) ? r2 : r1;
        c[i].op = i ? IMP_PATH_LINE : IMP_PATH_MOVE;
        c[i].x = r * cos(a);
        c[i].y = r * sin(a);
    }
    c[2 * k].op = IMP_PATH_CLOSE;
    imp_shape *s = imp_shape2d_polygon(c, 2 * k + 1, 0.3, NULL);
    free(c);
    return s;
}

/* n points on a circle joined by lines and arcs (convex on the circle, or concave), with a
   polygonal hole when hole is 1 */
static imp_shape *wavy(int n, double r, int concave, int hole)
{
    imp_path2d_cmd *c = calloc((size_t)(2 * n + 4), sizeof *c);
    int m = 0;
    for (int i = 0; i <= n; i++) {
        double a = 2 * IMP_PI * i / n, am = 2 * IMP_PI * (i - 0.5) / n;
        imp_path2d_cmd *x = &c[m++];
        x->x = i == n ? c[0].x : r * cos(a);
        x->y = i == n ? c[0].y : r * sin(a);
        if (i == 0) {
            x->op = IMP_PATH_MOVE;
        } else if (i % 3 == 0) {
            x->op = IMP_PATH_LINE;
        } else if (i % 3 == 1 || !concave) {
            x->op = IMP_PATH_ARC;
            x->outside = 1;
        } else {
            x->op = IMP_PATH_ARC;
            x->cx = 3 * r * cos(am);
            x->cy = 3 * r * sin(am);
        }
    }
    c[m++].op = IMP_PATH_CLOSE;
    if (hole) {
        int h = n / 2;
        for (int i = 0; i < h; i++) {
            double a = -2 * IMP_PI * i / h;
            imp_path2d_cmd *x = &c[m++];
            x->op = i ? IMP_PATH_LINE : IMP_PATH_MOVE;
            x->x = 0.5 * r * cos(a);
            x->y = 0.5 * r * sin(a);
        }
        c[m++].op = IMP_PATH_CLOSE;
    }
    imp_shape *s = imp_shape2d_polygon(c, m, 0.05 * r, NULL);
    free(c);
    return s;
}

enum { NSHAPES = 16, CAP = 4096 };

/* the polygon's tree, taken away (NULL) or put back */
static void set_tree(const imp_shape *s, imp_edge2d_node *t)
{
    ((imp_poly2d *)imp_shape2d_poly(s))->tree = t;
}

typedef struct outcome {
    int nd, np, nc;
    imp_hit2d det[CAP], pen[CAP];
    imp_distance2d dist;
} outcome;

static void run_pair(const imp_body2d *a, const imp_body2d *b, outcome *o)
{
    imp_detect2d_params p = {0.01, 0.5, 0, 0};
    memset(o, 0, sizeof *o);
    o->nd = imp_collide2d_detect(a, b, &p, o->det, CAP);
    o->np = imp_collide2d_penetrations(a->shape, a->pose, b->shape, b->pose, o->pen, CAP);
    imp_collide2d_distance(a->shape, a->pose, b->shape, b->pose, &o->dist);
    o->nc = 0;
    for (int k = 0; k < 16; k++) {
        double r = imp_shape2d_poly(a->shape)->radius;
        imp_vec2 q = imp_v2((rnd() - 0.5) * 2.4 * r, (rnd() - 0.5) * 2.4 * r);
        o->nc = 2 * o->nc + imp_poly2d_contains_centred(imp_shape2d_poly(a->shape), q);
    }
}

static outcome with_tree, plain;

TEST(tree_changes_nothing)
{
    imp_shape *sh[NSHAPES];
    int n = 0;
    sh[n++] = imp_shape2d_ngon(33, 1.0, NULL);
    sh[n++] = imp_shape2d_ngon(64, 0.7, NULL);
    sh[n++] = imp_shape2d_ngon(200, 1.3, NULL);
    sh[n++] = imp_shape2d_ngon(500, 1.0, NULL);
    sh[n++] = imp_shape2d_block(1.0, 0.5, NULL);
    sh[n++] = imp_shape2d_ball(0.5, 0.05, NULL);
    sh[n++] = imp_shape2d_rounded_block(1.0, 0.6, 0.2, 0.1, NULL);
    sh[n++] = imp_shape2d_frame(2.0, 1.5, 0.2, NULL);
    sh[n++] = imp_shape2d_ngon(5, 0.6, NULL);
    sh[n++] = star(40, 1.0, 0.8);
    sh[n++] = star(100, 1.2, 1.1);
    sh[n++] = wavy(60, 1.0, 0, 0);
    sh[n++] = wavy(99, 0.8, 1, 0);
    sh[n++] = wavy(72, 1.0, 1, 1);
    sh[n++] = wavy(90, 1.5, 0, 1);
    sh[n++] = imp_shape2d_ngon(34, 0.9, NULL);
    for (int i = 0; i < n; i++) {
        CHECK(sh[i] != NULL);
    }
    CHECK(imp_shape2d_poly(sh[3])->tree != NULL && imp_shape2d_poly(sh[4])->tree == NULL);
    int pairs = 0, hits = 0;
    for (int t = 0; t < 100; t++) {
        int ia = (int)(rnd() * n), ib = (int)(rnd() * n), mode = (int)(rnd() * 4);
        double ra = imp_shape2d_poly(sh[ia])->radius, rb = imp_shape2d_poly(sh[ib])->radius;
        double th = 2 * IMP_PI * rnd(), d = (ra + rb) * (mode == 0 ? 1.2 * rnd() : 0.7 + 0.4 * rnd());
        imp_body2d a = {sh[ia], 1, {rnd() - 0.5, rnd() - 0.5, 2 * IMP_PI * rnd()}, {0, 0, 0}, rnd() < 0.7,
                        {rnd() - 0.5, rnd() - 0.5, rnd() - 0.5}};
        imp_body2d b = {sh[ib], 2, {a.pose[0] + d * cos(th), a.pose[1] + d * sin(th), 2 * IMP_PI * rnd()},
                        {0, 0, 0}, rnd() < 0.5, {rnd() - 0.5, rnd() - 0.5, rnd() - 0.5}};
        if (mode == 3) { /* flush: the same shape stacked on itself, along the distance's normal */
            ib = ia;
            b.shape = sh[ia];
            a.pose[0] = a.pose[1] = a.pose[2] = 0.0;
            b.pose[0] = 0.0, b.pose[1] = 2.0 * ra, b.pose[2] = IMP_PI / 2 * (int)(rnd() * 4);
            imp_distance2d r;
            imp_collide2d_distance(a.shape, a.pose, b.shape, b.pose, &r);
            b.pose[1] -= r.distance * (rnd() < 0.5 ? 1.0 : 1.0 + 1e-3 * (rnd() - 0.5));
        }
        for (int k = 0; k < 3; k++) {
            a.prev_pose[k] = a.pose[k] - 0.02 * a.velocity[k];
            b.prev_pose[k] = b.pose[k] - 0.02 * b.velocity[k] * (mode == 2 ? 20 : 1);
        }
        unsigned long long seed = st;
        run_pair(&a, &b, &with_tree);
        imp_edge2d_node *ta = imp_shape2d_poly(a.shape)->tree, *tb = imp_shape2d_poly(b.shape)->tree;
        set_tree(a.shape, NULL);
        set_tree(b.shape, NULL);
        st = seed;
        run_pair(&a, &b, &plain);
        set_tree(a.shape, ta);
        set_tree(b.shape, tb);
        CHECK(with_tree.nd == plain.nd && with_tree.np == plain.np && with_tree.nc == plain.nc);
        CHECK(with_tree.nd <= CAP && with_tree.np <= CAP);
        CHECK(memcmp(with_tree.det, plain.det, (size_t)plain.nd * sizeof plain.det[0]) == 0);
        CHECK(memcmp(with_tree.pen, plain.pen, (size_t)plain.np * sizeof plain.pen[0]) == 0);
        CHECK(memcmp(&with_tree.dist, &plain.dist, sizeof plain.dist) == 0);
        pairs++;
        hits += plain.nd;
    }
    CHECK(pairs == 100 && hits > 100);
    for (int i = 0; i < n; i++) {
        imp_shape_release(sh[i]);
    }
}

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* was about a minute for detection and two for the distance */
TEST(huge_polygons_in_bounded_time)
{
    imp_shape *s = imp_shape2d_ngon(100000, 1.0, NULL);
    CHECK(s != NULL);
    imp_body2d a = {s, 1, {0, 0, 0}, {0, 0, 0}, 0, {0, 0, 0}};
    imp_body2d b = {s, 2, {0.5, 0.3, 0.1}, {0.49, 0.3, 0.1}, 1, {0.1, 0, 0}};
    imp_detect2d_params p = {0.01, 0.5, 0, 0};
    double t0 = now();
    int n = imp_collide2d_detect(&a, &b, &p, NULL, 0);
    imp_hit2d *h = malloc((size_t)n * sizeof *h);
    CHECK(h != NULL);
    CHECK(imp_collide2d_detect(&a, &b, &p, h, n) > 1000);
    imp_distance2d d;
    CHECK(imp_collide2d_distance(s, a.pose, s, b.pose, &d) == 0);
    CHECK(d.distance < -1.0 && d.exact == 1);
    double apart[3] = {2.5, 0.3, 0.1};
    CHECK(imp_collide2d_distance(s, a.pose, s, apart, &d) == 0);
    CHECK(d.distance > 0.5 && d.distance < 0.6);
    CHECK(now() - t0 < 60.0);
    free(h);
    imp_shape_release(s);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(tree_changes_nothing);
    RUN_SLOW(huge_polygons_in_bounded_time);
    return CHECK_END("collide2d_large");
}
