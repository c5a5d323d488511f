/* mpr.h: penetration of two overlapping convex sets: Minkowski portal refinement (MPR) finds
   a portal of A - B that the ray from an interior point to the origin crosses, refines it to
   the boundary and gives a tetrahedron holding the origin; EPA then expands that tetrahedron
   to the true (minimum-translation) penetration depth. */
#ifndef IMPACT_MPR_H
#define IMPACT_MPR_H

#include "support3d.h"

enum { IMP_MPR_HIT = 0, IMP_MPR_MISS = 1, IMP_MPR_DEGENERATE = 2, IMP_MPR_MAXITER = 3 };

/* The vertices of a Minkowski-difference simplex with their support points on A and B. */
typedef struct imp_mvert {
    imp_vec3 w, a, b;
} imp_mvert;

typedef struct imp_mpr_result {
    int status;
    double depth;    /* MPR's estimate: distance from the origin to the final portal plane
                        (>= the true depth; equal when the portal lies on the deepest face) */
    imp_vec3 normal; /* unit portal normal, from A towards B */
    imp_vec3 pa, pb; /* barycentric points of the origin's projection on the portal */
    imp_mvert tet[4]; /* interior point and portal: a tetrahedron holding the origin (HIT) */
    int iterations;
} imp_mpr_result;

/* MPR (Snethen, "XenoCollide: complex collision made simple", Game Programming Gems 7, 2008).
   tol: absolute tolerance on the portal's progress; seed_only: stop as soon as the portal
   holds the origin (enough to seed EPA). MAXITER with a portal holding the origin still gives
   a valid estimate and tetrahedron. O(iterations), no allocation. */
void imp_mpr(const imp_mink3d *m, double tol, int max_iter, int seed_only, imp_mpr_result *out);

typedef struct imp_epa_result {
    int status;      /* IMP_MPR_HIT, IMP_MPR_MAXITER (best face so far) or IMP_MPR_DEGENERATE
                        (a flat starting tetrahedron, or no face left: every face saw a
                        non-finite support point, or tol was NaN or negative; then depth 0,
                        normal (0, 0, 1), points 0) */
    double depth;    /* >= 0 */
    imp_vec3 normal; /* from A towards B: moving B by depth * normal separates the sets */
    imp_vec3 pa, pb; /* deepest points (pa - pb = depth * normal) */
    int iterations;
} imp_epa_result;

/* Expanding polytope algorithm (van den Bergen, "Proximity queries and penetration depth
   computation on 3D game objects", GDC 2001) from a tetrahedron holding the origin. Fixed
   capacity (IMP_EPA_MAX_FACES), no allocation; stops when the support along the closest
   face's normal is within tol of the face. */
#define IMP_EPA_MAX_VERTS 600
#define IMP_EPA_MAX_FACES 1200
void imp_epa(const imp_mink3d *m, const imp_mvert tet[4], double tol, int max_iter,
             imp_epa_result *out);

#endif
