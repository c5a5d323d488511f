/* shape3d_mass.h: exact mass properties of the smoothed solids (sphere-swept cores).
   Helpers for shape3d_basic.c and shape3d_hull.c; see shape3d_mass.c for the derivations. */
#ifndef IMPACT_SHAPE3D_MASS_H
#define IMPACT_SHAPE3D_MASS_H

#include "shape.h"

/* Moments of a solid of revolution about the z axis, accumulated from pieces of its meridian
   half-section (rho >= 0, z): v = int dV, z1 = int z dV, z2 = int z^2 dV, r2 = int rho^2 dV. */
typedef struct imp_rev_moments {
    double v, z1, z2, r2;
} imp_rev_moments;

/* A convex polygon of the half-section, n (rho, z) pairs in either orientation. */
void imp_rev_add_polygon(imp_rev_moments *m, const double *pts, int n);
/* The circular sector centred at (crho, cz), radius r, polar angles t0 <= t1 (from +rho). */
void imp_rev_add_sector(imp_rev_moments *m, double crho, double cz, double r, double t0, double t1);
/* Fills s->measure, s->centroid = (0, 0, z1/v) and the diagonal inertia about the centroid. */
void imp_rev_finish(const imp_rev_moments *m, imp_shape *s);

/* The box of half extents a (a core, each >= 0) swept by a ball of radius r: volume and the
   second moments j[i] = int x_i^2 dV about its centre. */
void imp_box_moments(const double a[3], double r, double *vol, double j[3]);

#endif
