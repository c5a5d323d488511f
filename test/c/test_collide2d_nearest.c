/* test_collide2d_nearest.c: imp_edge2d_tree_nearest is the nearest edge by definition: its
   distance and point are those of imp_edge2d_closest on the first edge (lowest index) of least
   distance, bit for bit, when that distance is below the given best (else nothing changes).
   Points: random, on the blocks' diagonals and corners (ties between two edges), on edges, far
   away and tiny; polygons: a block (no edge tree), a regular 12-gon, a rounded block (arcs), and
   a 400-gon with its edge tree. The nearest edge skips hypot for edges whose squared distance is
   certainly farther than the best: this checks that no result changes. */
#include <string.h>

#include "check.h"
#include "collide2d_tree.h"
#include "edge2d.h"
#include "polygon2d.h"

static unsigned long long st = 777;
static double rnd(void)
{
    st = st * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(st >> 11) / 9007199254740992.0;
}

/* the definition: the first collidable edge of least imp_edge2d_closest distance below best */
static int brute_nearest(const imp_poly2d *g, imp_vec2 p, double *best, imp_vec2 *q)
{
    int be = -1;
    for (int k = 0; k < g->nedges; k++) {
        if (g->edges[k].flags & IMP_EDGE_NO_COLLIDE) {
            continue;
        }
        imp_vec2 qq;
        int interior;
        double d = imp_edge2d_closest(&g->edges[k], p, &qq, &interior);
        if (d < *best) {
            *best = d;
            be = k;
            *q = qq;
        }
    }
    return be;
}

static int same_answer(const imp_poly2d *g, imp_vec2 p, double start)
{
    double b1 = start, b2 = start;
    imp_vec2 q1 = {-7.0, -7.0}, q2 = {-7.0, -7.0};
    int e1 = imp_edge2d_tree_nearest(g, p, &b1, &q1);
    int e2 = brute_nearest(g, p, &b2, &q2);
    return e1 == e2 && memcmp(&b1, &b2, sizeof b1) == 0 && memcmp(&q1, &q2, sizeof q1) == 0;
}

TEST(nearest_edge_by_definition)
{
    imp_shape *sh[4] = {imp_shape2d_block(2.0, 1.0, NULL), imp_shape2d_ngon(12, 1.5, NULL),
                        imp_shape2d_rounded_block(2.0, 1.0, 0.2, 0.1, NULL),
                        imp_shape2d_ngon(400, 3.0, NULL)};
    for (int s = 0; s < 4; s++) {
        CHECK(sh[s] != NULL);
        if (sh[s] == NULL) {
            continue;
        }
        const imp_poly2d *g = imp_shape2d_poly(sh[s]);
        double r = g->radius;
        int bad = 0;
        for (int i = 0; i < 4000; i++) {
            imp_vec2 p;
            int kind = i % 5;
            if (kind == 0) {  /* anywhere near */
                p = imp_v2((rnd() - 0.5) * 3.0 * r, (rnd() - 0.5) * 3.0 * r);
            } else if (kind == 1) {  /* on a line through the centre at 45 degrees: ties */
                double t = (rnd() - 0.5) * 2.0 * r;
                p = imp_v2(t, (i & 8) ? t : -t);
            } else if (kind == 2) {  /* at or beside a vertex */
                const imp_vertex2d *v = &g->vertices[i % g->nvertices];
                double eps = (i & 16) ? 0.0 : 1e-12 * (rnd() - 0.5);
                p = imp_v2(v->p.x + eps, v->p.y - eps);
            } else if (kind == 3) {  /* far away */
                p = imp_v2((rnd() - 0.5) * 1e6, (rnd() - 0.5) * 1e6);
            } else {  /* on an edge's point, tiny offsets */
                const imp_edge2d *e = &g->edges[i % g->nedges];
                imp_vec2 m = imp_edge2d_point_at(e, rnd());
                p = imp_v2(m.x + 1e-200 * (rnd() - 0.5), m.y);
            }
            /* no best yet, and bests around the answer (below it: nothing found) */
            double brute = INFINITY;
            imp_vec2 bq;
            brute_nearest(g, p, &brute, &bq);
            const double starts[5] = {INFINITY, brute * (1.0 + 1e-15), brute,
                                      brute * (1.0 - 1e-13), 1e-150};
            for (int k = 0; k < 5; k++) {
                bad += !same_answer(g, p, starts[k]);
            }
        }
        CHECK(bad == 0);
        imp_shape_release(sh[s]);
    }
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(nearest_edge_by_definition);
    return CHECK_END("collide2d_nearest");
}
