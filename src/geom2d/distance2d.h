/* distance2d.h: signed distance between two posed 2D shapes (polygons of polygon2d.h). */
#ifndef IMPACT_DISTANCE2D_H
#define IMPACT_DISTANCE2D_H

#include "shape.h"

typedef struct imp_distance2d {
    double distance;   /* signed: > 0 gap, < 0 penetration depth */
    double normal[2];  /* unit, world, pointing from a toward b */
    double point_a[2]; /* nearest (or deepest) point of a, world */
    double point_b[2]; /* nearest (or deepest) point of b, world */
    int exact;         /* 1: a gap (always exact), the minimum translation distance of two
                          convex shapes, or a feature's own depth (vertex into edge, arc into
                          line or arc) checked to separate the shapes; 0: a separating-axis
                          bound on a non-convex pair (may exceed the true minimum) */
} imp_distance2d;

/* Separated: the exact closest distance and points (min over edge pairs: O(Ea Eb) for small
   polygons, branch and bound over the edge trees of large ones, the same answer).
   Cost for large straight-edged polygons about O((Ea + Eb) log E); arcs add
   O(arcs x vertices) separating axes below.
   Overlapping: minus the smallest translation of b along a unit normal, among candidates,
   that separates the shapes. Candidates are the depths of penetrating features
   (imp_collide2d_penetrations) and separating axes (straight-edge normals, and the directions
   from arc centres to the other shape's vertices and arc centres: the normals of the
   Minkowski difference, so the answer is the exact minimum translation for convex shapes).
   A candidate is accepted after checking that moving b by it leaves no crossing edges and no
   containment. Returns 0, or -1 for a shape that is not a 2D polygon or a non-finite pose. No NaN for touching,
   containing or concentric shapes. */
int imp_collide2d_distance(const imp_shape *a, const double *pose_a, const imp_shape *b,
                           const double *pose_b, imp_distance2d *out);

#endif
