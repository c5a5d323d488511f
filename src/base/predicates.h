/* predicates.h: exact geometric predicates on double coordinates, adaptive in the manner of
   J. R. Shewchuk, "Adaptive precision floating-point arithmetic and fast robust geometric
   predicates", Discrete & Computational Geometry 18(3), 305-363, 1997: the determinant is first
   evaluated in floating point and its sign accepted when it exceeds a proven bound on the
   rounding error; otherwise it is evaluated exactly with floating-point expansions (sums of
   non-overlapping doubles). The sign returned is always the sign of the exact determinant of
   the given doubles as long as no product underflows or overflows: coordinates that are 0 or
   of magnitude between 1e-57 and 1e99 are safe (tested against big-integer arithmetic).
   Outside that range the sign may be wrong (never a crash). Written for impact (own code). */
#ifndef IMPACT_PREDICATES_H
#define IMPACT_PREDICATES_H

/* The orientation of d relative to the plane through a, b, c: the determinant
   det[b - a; c - a; d - a] = ((b - a) x (c - a)) . (d - a). Positive when d lies on the side
   the normal of the counter-clockwise triangle (a, b, c) points to ("above"), negative below,
   exactly 0 when the four points are coplanar. The magnitude is an approximation (exact in
   sign). O(1); the exact stage costs about 100 floating-point additions. */
double imp_orient3d(const double *a, const double *b, const double *c, const double *d);

/* The same determinant evaluated exactly, skipping the filter (for tests). */
double imp_orient3d_exact(const double *a, const double *b, const double *c, const double *d);

/* The sign (-1, 0, 1) of the exact sum of n doubles (n <= 256), for tests and callers that
   need an exact sum's sign. */
int imp_sum_sign(const double *x, int n);

#endif
