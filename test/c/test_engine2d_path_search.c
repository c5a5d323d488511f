/* test_engine2d_path_search.c: myPhysicsLab's local nearest-point search on a path
   (imp_engine2d_path_search_mpl, conventions = "myphysicslab") against the circle's closed
   forms: the point it finds lies |r - R| from a target at radius r (the nearest point of a
   circle of radius R is on the target's ray; along the normal to 1e-9, along the path to
   its 1e-6 resolution), within that resolution of the exact
   nearest point on the same table, from starts up to a quarter turn away; p is continued
   across the closing point of a closed path; on an open path past its end the straight
   extension. */
#include <math.h>

#include "check.h"
#include "engine2d.h"
#include "engine2d_path_joint.h"
#include "scalar.h"
#include "world_internal.h"

#define R 3.0
#define NS 9000

/* myPhysicsLab's CirclePath table: t from -3 pi / 2 to pi / 2 in NS points (the last, equal
   to the first, dropped on a closed path); a path distance p is at angle pi / 2 + p / R */
static const imp_path2d *circle(imp_world **wp, int closed)
{
    imp_world_def def = imp_world_default_def(2);
    def.strategy = IMP_STRATEGY_CONTACT;
    imp_world *w = imp_world_new(&def);
    static double xy[2 * NS];
    double t0 = -1.5 * IMP_PI, t1 = 0.5 * IMP_PI, dt = (t1 - t0) / (NS - 1), t = t0;
    int n = closed ? NS - 1 : NS / 2;  /* (open: a half circle) */
    for (int i = 0; i < n; i++, t += dt) {
        xy[2 * i] = R * cos(t);
        xy[2 * i + 1] = R * sin(t);
    }
    char why[200];
    int index = imp_engine2d_add_path(w, xy, n, closed, why, sizeof why);
    *wp = w;
    return index < 0 ? NULL : &w->engine2d->paths[index];
}

/* the target at angle a (from the x axis), radius r */
static void target(double a, double r, double *x, double *y)
{
    *x = r * cos(a);
    *y = r * sin(a);
}

TEST(finds_the_circles_nearest_point_from_a_start_away)
{
    imp_world *w;
    const imp_path2d *g = circle(&w, 1);
    CHECK(g != NULL);
    for (int i = 0; i < 40; i++) {
        double a = 0.5 * IMP_PI + 0.15 * (i + 0.37), r = 2.0 + 0.05 * i, x, y;
        target(a, r, &x, &y);
        imp_path2d_point exact, q;
        imp_engine2d_path_nearest(g, x, y, &exact);
        for (int s = -1; s <= 1; s++) {  /* starts a quarter turn before, at, after it */
            double p0 = fmod(exact.p + s * 0.5 * IMP_PI * R + g->length, g->length);
            int k = (int)(p0 / g->length * g->n) % g->n;
            double p = g->p[k];
            imp_engine2d_path_nearest_mpl(g, x, y, &k, &p, &q);
            double pm = fmod(p + 10 * g->length, g->length), dp = fabs(pm - exact.p);
            dp = fmin(dp, g->length - dp);
            CHECK(dp <= 2e-6);
            CHECK(k >= 0 && k <= g->n);
            CHECK_NEAR(hypot(q.x - x, q.y - y), fabs(r - R), 2e-6);  /* (first order in dp) */
            CHECK_NEAR(q.nx * (x - q.x) + q.ny * (y - q.y), R - r, 1e-9);  /* (normal inward) */
        }
    }
    imp_world_free(w);
}

TEST(continues_p_across_the_closing_point)
{
    imp_world *w;
    const imp_path2d *g = circle(&w, 1);
    CHECK(g != NULL);
    /* last found just before the closing point (the top, angle pi / 2), the target 0.02 past
       it: p runs on past the path's length; then back: below it again */
    int k = g->n - 3;
    double p = g->p[k], x, y;
    target(0.5 * IMP_PI + 0.02 / R, R, &x, &y);
    imp_engine2d_path_search_mpl(g, x, y, &k, &p);
    CHECK_NEAR(p, g->length + 0.02, 2e-6);
    target(0.5 * IMP_PI - 0.05 / R, R, &x, &y);
    imp_engine2d_path_search_mpl(g, x, y, &k, &p);
    CHECK_NEAR(p, g->length - 0.05, 2e-6);
    imp_world_free(w);
}

TEST(open_path_past_its_end_takes_the_straight_extension)
{
    imp_world *w;
    const imp_path2d *g = circle(&w, 0);  /* the left half: from the top down to the bottom */
    CHECK(g != NULL);
    double end = g->p[g->n - 1];
    imp_path2d_point q;
    imp_engine2d_path_at(g, end + 0.1, &q);  /* 0.1 on along the end's tangent (+x) */
    CHECK_NEAR(q.x, g->x[g->n - 1] + 0.1 * g->tx[g->n - 1], 1e-12);
    CHECK_NEAR(q.y, g->y[g->n - 1] + 0.1 * g->ty[g->n - 1], 1e-12);
    CHECK(q.k == 0.0);
    imp_engine2d_path_at(g, 0.5 * IMP_PI * R, &q);  /* a quarter turn: the leftmost point */
    CHECK_NEAR(q.x, -R, 1e-9);
    CHECK_NEAR(q.y, 0.0, 1e-6);
    CHECK_NEAR(q.tx, 0.0, 1e-6);
    CHECK_NEAR(q.ty, -1.0, 1e-9);
    CHECK_NEAR(q.k, 1.0 / R, 1e-6);
    imp_world_free(w);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(finds_the_circles_nearest_point_from_a_start_away);
    RUN(continues_p_across_the_closing_point);
    RUN(open_path_past_its_end_takes_the_straight_extension);
    return CHECK_END("engine2d_path_search");
}
