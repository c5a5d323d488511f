/* proximity.h: signed distance between two posed shapes (2D polygons or 3D convex shapes),
   with the normal and the closest (or deepest) point on each, and the contact points of a
   penetrating pair (its manifold). The compliant strategy and w:distance use it.

   The distance comes from the geometry modules: imp_collide2d_distance (distance2d.h) in 2D,
   imp_collide3d (collide3d.h: analytic pairs, else GJK, MPR and EPA) in 3D. One deepest point
   is not enough where faces lie on faces: the point jumps between corners and a force law
   applied there jumps with it. The manifold gives every penetrating feature instead: in 2D
   each penetrating vertex, arc or edge feature (imp_collide2d_penetrations); in 3D, for
   box-like bodies against boxes and walls, each penetrating corner of the core; otherwise the
   single deepest point. The sum of a force law over the manifold is continuous in the state. */
#ifndef IMPACT_PROXIMITY_H
#define IMPACT_PROXIMITY_H

#include "shape.h"

typedef struct imp_proximity {
    double distance;   /* > 0 apart, < 0 penetrating (depth = -distance) */
    double normal[3];  /* unit, from A towards B */
    double point_a[3]; /* on A, world frame */
    double point_b[3]; /* on B, world frame */
} imp_proximity;

/* One contact point of a manifold. */
typedef struct imp_cpoint {
    double depth;      /* > 0 */
    double normal[3];  /* unit, from A towards B */
    double point_a[3]; /* on A's surface */
    double point_b[3]; /* B's deepest point */
} imp_cpoint;

enum { IMP_MANIFOLD_MAX = 24 };

/* Fills out; returns 0, or -1 when the pair has no method (different dimensions, shapes that
   are not 2D polygons or 3D convex shapes, wall against wall). */
int imp_proximity_query(const imp_shape *a, const double *pose_a, const imp_shape *b,
                        const double *pose_b, imp_proximity *out);
/* Whether the pair has a method (cheap; checked once per pair). */
int imp_proximity_supported(const imp_shape *a, const imp_shape *b);
/* The contact points of a pair whose query gave q (q->distance < 0); returns how many were
   written (at most IMP_MANIFOLD_MAX). */
int imp_proximity_manifold(const imp_shape *a, const double *pose_a, const imp_shape *b,
                           const double *pose_b, const imp_proximity *q, imp_cpoint *out);
/* 1 and the radius for a ball (3D sphere or 2D circle), else 0. */
int imp_shape_ball_radius(const imp_shape *s, double *radius);

#endif
