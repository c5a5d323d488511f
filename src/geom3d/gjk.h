/* gjk.h: distance between two convex sets given by support mappings (GJK). */
#ifndef IMPACT_GJK_H
#define IMPACT_GJK_H

#include "support3d.h"

enum { IMP_GJK_SEPARATED = 0, IMP_GJK_OVERLAP = 1, IMP_GJK_MAXITER = 2 };

typedef struct imp_gjk_result {
    int status;
    double distance;   /* >= 0: |a - b| of the points; when OVERLAP it is below tol_overlap, or
                          the size of a stall that could not prove separation */
    imp_vec3 pa, pb;   /* closest points (world); a common point when overlapping */
    int iterations;
} imp_gjk_result;

/* Distance between the sets of m (cores or whole shapes). Stops when the duality gap
   |v| - v.w/|v| is below tol (absolute), or reports overlap when |v| <= tol_overlap or the
   simplex encloses the origin; at most max_iter support calls. O(iterations). */
void imp_gjk(const imp_mink3d *m, double tol, double tol_overlap, int max_iter, imp_gjk_result *out);

#endif
