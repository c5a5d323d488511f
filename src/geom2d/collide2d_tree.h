/* collide2d_tree.h: a static bounding-volume hierarchy over a polygon's edges, built once with
   the polygon (polygon2d.c) for polygons of more than IMP_EDGE_TREE_MIN edges, so that the
   narrow phase (collide2d.c), the distance query (distance2d.c) and point containment do not
   test every edge of a large polygon.

   The tree splits the edge index range in halves (edges are stored path by path, so a range
   is a chain of adjacent edges: compact boxes for ordinary outlines). A node's box bounds the
   bounding discs (bc, br) of its edges, and for straight edges a bound of their lines' signed
   distances (for the searches of the nearest line). Leaves hold at most IMP_EDGE_TREE_LEAF edges.

   Bit-identical results: the queries reproduce the plain loops over every edge exactly. A node
   is skipped only when each of its edges provably fails the loop's own per-edge test (or
   provably cannot change the loop's result), with a relative slack of IMP_EDGE_TREE_SLACK
   (1e-9 of the lengths involved: millions of times the rounding of those tests), and the
   edges that remain are visited in increasing index order (in-order traversal), or, for
   minimum and maximum searches, the ties are broken by the lowest index as the loop's strict
   comparisons do. */
#ifndef IMPACT_COLLIDE2D_TREE_H
#define IMPACT_COLLIDE2D_TREE_H

#include "polygon2d.h"

#define IMP_EDGE_TREE_MIN 32
#define IMP_EDGE_TREE_LEAF 8
#define IMP_EDGE_TREE_SLACK 1e-9

typedef struct imp_edge2d_node {
    double lo[2], hi[2]; /* box of the edges' bounding discs */
    /* when every edge is straight (lines 1), with r = first: the line values
       (p - a_k) . n_k = (p - a_r) . n_k - (a_k - a_r) . n_k are bounded by the normals' largest
       angle beta from n_r (cosb, sinb) and emin = min (a_k - a_r) . n_k (beyond_bound) */
    double cosb, sinb, emin;
    /* an oriented box about the chain of edges: centre oc, axes ou (along the chain's chord)
       and its left normal, half extents oh; it holds the straight edges' end points and the
       arcs' bounding discs (thin for a chain of a smooth outline, unlike the box lo, hi) */
    double oc[2], ou[2], oh[2];
    int lines;
    int first, count;    /* edges [first, first + count) */
    int left, right;     /* child nodes, -1 for a leaf */
} imp_edge2d_node;

/* Builds the tree of g's edges (g->edges, g->nedges final) into g->tree (NULL, and 0 returned,
   for polygons of at most IMP_EDGE_TREE_MIN edges); -1 when out of memory. O(E log E). */
int imp_edge2d_tree_build(imp_poly2d *g);

/* In-order iteration over the leaf ranges of g whose box meets the query box q = {lo_x, lo_y,
   hi_x, hi_y} (read again at every node, so the caller may shrink it as it goes; infinite
   bounds allowed). Without a tree the whole edge range comes once. */
typedef struct imp_edge2d_iter {
    const imp_poly2d *g;
    int sp;
    int stack[64];
} imp_edge2d_iter;

void imp_edge2d_iter_init(imp_edge2d_iter *it, const imp_poly2d *g);
/* next range [*first, *last): 1, or 0 at the end */
int imp_edge2d_iter_next(imp_edge2d_iter *it, const double q[4], int *first, int *last);

/* the slack for queries near the point p of g's frame: IMP_EDGE_TREE_SLACK (g's radius + |p|
   + extra) */
double imp_edge2d_tree_slack(const imp_poly2d *g, imp_vec2 p, double extra);

/* The loop "for every edge k that collides (no IMP_EDGE_NO_COLLIDE): d = imp_edge2d_closest(
   edge k, p, &q, &interior); if (d < *best) keep k, q, *best = d": returns the kept edge (-1:
   none; *best and *q then unchanged). */
int imp_edge2d_tree_nearest(const imp_poly2d *g, imp_vec2 p, double *best, imp_vec2 *q);

/* For straight-edged g: the first edge k != first (in index order) with
   (p - a_k) . n_k > far, or -1 with *most = the largest of those values over k != first and
   the value start (the loop "m = start; for k != first: d = ...; if (d > far) return k;
   m = d > m ? d : m"). */
int imp_edge2d_tree_beyond(const imp_poly2d *g, imp_vec2 p, double far, int first, double start,
                           double *most);

/* For g (with a tree) of straight edges, every edge k against the segment a -> b, D = b - a:
   f = (a - a_k) . n_k, dn = D . n_k; lo = fmax(lo, -f / dn) for dn < 0, hi = fmin(hi, -f / dn)
   for dn > 0 (the final values do not depend on the order); returns 1 when some edge has
   dn == 0 and f > 0. Only edges whose line has the point at lo (or hi) beyond it can change
   them: the others are skipped. */
int imp_edge2d_tree_clip(const imp_poly2d *g, imp_vec2 a, imp_vec2 b, double *lo, double *hi);

#endif
