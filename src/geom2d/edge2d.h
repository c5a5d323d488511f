/* edge2d.h: geometry of one straight or circular edge (see polygon2d.h): signed distances,
   closest points, normals, curvature, crossings with a segment, and rigid transforms.
   Every function works in whatever frame the edge is expressed in. */
#ifndef IMPACT_EDGE2D_H
#define IMPACT_EDGE2D_H

#include "polygon2d.h"
#include "scalar.h"
#include "xform2d.h"

/* Fills the derived fields (t, n, length, r, theta0, sweep, depth, bounding circle) of an
   edge whose kind, a, b, c, convex are set; for an arc, sweep must be set too (its sign is
   the direction of travel about c), r is taken as given. */
void imp_edge2d_finish(imp_edge2d *e);

/* The edge moved by a rigid transform. */
imp_edge2d imp_edge2d_transform(const imp_edge2d *e, imp_xf2 x);

/* Signed distance from p to the edge's supporting line or circle: > 0 on the outside
   (away from the material), < 0 inside. */
double imp_edge2d_support_distance(const imp_edge2d *e, imp_vec2 p);

/* 1 when the direction u (from an arc's centre) lies within the arc's angular span, with an
   angular slack tol (radians). Straight edges: always 1. */
int imp_edge2d_in_span(const imp_edge2d *e, imp_vec2 u, double tol);

/* Outward unit normal at the point q of the edge (q on the edge). */
imp_vec2 imp_edge2d_normal_at(const imp_edge2d *e, imp_vec2 q);

/* Signed curvature: 0 for a straight edge, +1/r convex, -1/r concave. */
double imp_edge2d_curvature(const imp_edge2d *e);

/* Closest point q of the edge to p. Returns the distance |p - q|; *interior = 1 when q is not
   an end point (the foot of p on the line / the radial point lies inside the edge). */
double imp_edge2d_closest(const imp_edge2d *e, imp_vec2 p, imp_vec2 *q, int *interior);


/* 1 when the distance from p to the segment a-b (hypot of p minus the closest point) exceeds
   r >= 0. The squared distance decides outside a relative band of 1e-9 about r^2 (far wider
   than its rounding error of a few ulps), hypot inside it: the same answer as comparing the
   hypot distance, without a hypot per pruning test. O(1). */
static inline int imp_edge2d_beyond_segment(imp_vec2 p, imp_vec2 a, imp_vec2 b, double r)
{
    imp_vec2 d = imp_v2_sub(b, a);
    double l2 = imp_v2_dot(d, d);
    double s = l2 > 0.0 ? imp_clamp(imp_v2_dot(imp_v2_sub(p, a), d) / l2, 0.0, 1.0) : 0.0;
    imp_vec2 e = imp_v2_sub(p, imp_v2_madd(a, s, d));
    double e2 = imp_v2_dot(e, e), r2 = r * r;
    if (e2 > r2 * (1.0 + 1e-9)) {
        return 1;
    }
    if (e2 < r2 * (1.0 - 1e-9)) {
        return 0;
    }
    return imp_v2_len(e) > r;
}

/* Signed distance from p to the edge itself: the distance to the closest point, negative when
   p is on the material side of the edge there (by the outward normal at the closest point). */
double imp_edge2d_signed_distance(const imp_edge2d *e, imp_vec2 p);

/* First crossing of the segment p0 -> p1 with the edge going inward (against the outward
   normal). Returns 1 and the parameter s in [0, 1] and the point, or 0. */
int imp_edge2d_segment_hit(const imp_edge2d *e, imp_vec2 p0, imp_vec2 p1, double *s, imp_vec2 *q);

/* Intersections of two edges, each point within tol of both. Returns the number of points
   written to pts (at most 2), or -1 when the edges overlap along a stretch longer than tol. */
int imp_edge2d_intersect(const imp_edge2d *e, const imp_edge2d *f, double tol, imp_vec2 pts[2]);

/* Point of an edge at fraction u in [0, 1] of its length. */
imp_vec2 imp_edge2d_point_at(const imp_edge2d *e, double u);
/* Unit tangent (direction of travel) at fraction u. */
imp_vec2 imp_edge2d_tangent_at(const imp_edge2d *e, double u);

/* Axis-aligned bounds of the edge, merged into lo/hi. */
void imp_edge2d_bounds(const imp_edge2d *e, imp_vec2 *lo, imp_vec2 *hi);

/* Closest distance between two edges that do not cross (caller checks), with the points.
   Cost O(1). */
double imp_edge2d_edge_distance(const imp_edge2d *e, const imp_edge2d *f, imp_vec2 *pe,
                                imp_vec2 *pf);

/* imp_edge2d_closest for callers that only want distances up to tol >= 0: INFINITY (q and
   interior unset) when the distance surely exceeds tol, else exactly imp_edge2d_closest's
   answer. Straight edges decide by the squared distance outside a 1e-9 relative band (no
   hypot for the far ones). Inline: it runs for every vertex and edge of a close pair. */
static inline double imp_edge2d_closest_within(const imp_edge2d *e, imp_vec2 p, double tol,
                                                imp_vec2 *q, int *interior)
{
    if (e->kind == IMP_EDGE_LINE) {
        /* the closest point as imp_edge2d_closest finds it */
        double s = imp_v2_dot(imp_v2_sub(p, e->a), e->t);
        imp_vec2 c = s <= 0.0 ? e->a : (s >= e->length ? e->b : imp_v2_madd(e->a, s, e->t));
        imp_vec2 d = imp_v2_sub(p, c);
        if (imp_v2_dot(d, d) > tol * tol * (1.0 + 1e-9)) {
            return INFINITY;
        }
        *interior = s > 0.0 && s < e->length;
        *q = c;
        return imp_v2_len(d);
    }
    return imp_edge2d_closest(e, p, q, interior);
}

#endif
