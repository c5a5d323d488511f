/* contact_polyhedral.h: one contact between two posed convex polyhedra from the surface of
   their volumetric intersection (Solfec's goc.c detect_convex_convex; see
   /work/shared/reference/solfec.md section 4.1), with the fixes of its section 9.

   point  = the area-weighted centroid of the whole intersection surface (all its triangles);
   normal = normalise(sum over faces on A of S_f^2 n_f - sum over faces on B of S_f^2 n_f),
            weighted PER POLYGON (S_f = the area of the intersection's face f, n_f the unit
            outward normal of the body's face): unlike Solfec's per-triangle weights it does not
            depend on the triangulation. It points out of A, into B. A face on both surfaces
            (same-orientation coplanar faces of A and B, poly_shared) has weight 0: it gives no
            direction from A into B, and Solfec's rule (the face goes to whichever body the
            hull kept, A on ties) would tilt the normal by O((its area / the main area)^2)
            towards a side that depends on the order of the bodies. When the sum is below
            1e-6 of the sum of the weights (containment: one body's faces enclose the other's)
            the normal is the penetration direction of the narrow phase (collide3d, EPA) instead;
            normal_fallback is then 1;
   area   = half the intersection's surface area;
   gap    = two stages: g0 = min over the intersection's vertices of n.v minus the max (minus
            its thickness along n); when g0 < -eps, A is moved by -delta n and B by +delta n
            (delta = -g0: a relative separation of 2 delta) and gap = min(D - 2 delta, 0) with D
            their GJK distance; if they still overlap, the gap is the exact overlap along n
            (min over B of n.y minus max over A of n.x), never worse than Solfec's -2 delta;
            a gap above -eps (touching or overlapping within eps) is reported as 0;
   surfaces: for each body the surface id of the face plane nearest to the point (smallest
            |signed distance|, ties to the lower index).
   Sanity checks (a failure gives IMP_PC_REJECTED, no contact): the point within eps (+1e-9 of
   the scale) of both solids, all outputs finite, area > 0. */
#ifndef IMPACT_CONTACT_POLYHEDRAL_H
#define IMPACT_CONTACT_POLYHEDRAL_H

#include "polytope_intersect.h"

enum {
    IMP_PC_CONTACT = 0,   /* a contact */
    IMP_PC_SEPARATED = 1, /* no contact: GJK distance > eps (distance holds it) */
    IMP_PC_REJECTED = 2,  /* no contact: the intersection or a sanity check failed */
    IMP_PC_BADINPUT = 3,
    IMP_PC_ENOMEM = 4
};

typedef struct imp_poly_contact {
    int status;
    double point[3], normal[3];
    double area, gap, volume;
    double distance;      /* GJK distance (> eps when separated) */
    int surface_a, surface_b;
    int normal_fallback;  /* 1 when the normal came from the narrow phase (containment) */
} imp_poly_contact;

/* The contact from an intersection already computed (isect->status must be IMP_PI_OK). */
int imp_poly_contact_from(const imp_shape *a, const double *pose_a, const imp_shape *b, const double *pose_b,
                          const imp_poly_intersection *isect, imp_poly_contact *out);

/* Intersection then contact; eps <= 0: the default 1e-6 * (sum of the bounding radii). The
   intersection stays available in *isect (may be NULL). Returns out->status. */
int imp_polyhedra_contact(const imp_shape *a, const double *pose_a, const imp_shape *b, const double *pose_b,
                          double eps, imp_poly_work *w, imp_poly_intersection *isect, imp_poly_contact *out);

#endif
