/* proximity.h: signed distance between two posed shapes, with the normal and the closest
   (or deepest) point on each. Used by the compliant strategy; the pair functions are found
   once per pair of shapes (imp_proximity_find) and then called in the hot loop.

   Analytic pairs: 2D circle/circle, circle/rectangle, rectangle/rectangle; 3D sphere/sphere,
   sphere/box. Other pairs report no method (general convex pairs come from the 3D narrow
   phase). */
#ifndef IMPACT_PROXIMITY_H
#define IMPACT_PROXIMITY_H

#include "shape.h"

typedef struct imp_proximity {
    double distance;   /* > 0 apart, < 0 penetrating (depth = -distance) */
    double normal[3];  /* unit, from A towards B */
    double point_a[3]; /* on A, world frame */
    double point_b[3]; /* on B, world frame */
} imp_proximity;

typedef void (*imp_proximity_fn)(const imp_shape *a, const double *pose_a, const imp_shape *b,
                                 const double *pose_b, imp_proximity *out);

/* The function for the pair (a, b), or NULL when there is none. *swap is set when the function
   expects (b, a): the caller then swaps the arguments and flips the result
   (imp_proximity_flip). */
imp_proximity_fn imp_proximity_find(const imp_shape *a, const imp_shape *b, int *swap);
void imp_proximity_flip(imp_proximity *p);
/* Convenience: find, call, flip. Returns 0, or -1 when the pair has no method. */
int imp_proximity_query(const imp_shape *a, const double *pose_a, const imp_shape *b,
                        const double *pose_b, imp_proximity *out);
/* 1 and the radius for a ball (3D sphere or 2D circle), else 0. */
int imp_shape_ball_radius(const imp_shape *s, double *radius);

#endif
