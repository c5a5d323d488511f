/* polytope_intersect.h: the volumetric intersection of two posed convex polyhedra by polar
   duality (Muller and Preparata, "Finding the intersection of two convex polyhedra", Theoret.
   Comput. Sci. 7, 1978; as in Solfec's cvi.c, see /work/shared/reference/solfec.md section 2).

   1. GJK on the two vertex sets: separated by more than eps -> no intersection. Otherwise the
      common point (the midpoint of the witness points: within eps of both solids).
   2. The point is moved to the analytic centre of the face planes swollen by eps (damped
      Newton on -sum log(slack)): unique, centred along every direction, inside the contact
      patch also when the overlap is a slab 2 eps thick.
   3. The face planes are moved so that the point is the origin: h_k = d_k - n_k.x, floored at
      eps (Solfec's swelling: bodies touching within eps give a slab 2 eps thick), and dualised to
      y_k = L^-1 n_k / h_k in coordinates rounded by Dikin's ellipsoid at the centre (L the
      Cholesky factor of the barrier's Hessian; an affine map keeps the combinatorics and makes
      the duals of one scale, so thin slabs keep their side faces). When some plane was
      swollen and the centroid of the result lies deeper than eps inside both, the whole is
      recomputed once from that centroid.
      Same-orientation coplanar faces: a face of B whose plane equals one of A's (normals within
      1e-9 per component, offsets within 1e-9 of the length scale: a tolerance, since posed
      planes are rounded and such ties are never exact) is left out of the dual, so the
      intersection's face there is A's (the smallest such face of A), marked shared
      (poly_shared: B's face). The contact (contact_polyhedral.h) gives shared faces no weight
      in the normal: a face on both surfaces says nothing about the direction from A into B,
      and so the normal of a pair with flush faces does not depend on which body comes first.
   4. The exact hull of the y_k (hull3d.c: quickhull whose visibility tests are the exact
      orient3d of predicates.c, so the hull is always closed and convex, whatever the ties).
      Its facets are the maximal sets of neighbouring triangles that are exactly coplanar
      (orient3d = 0): each facet gives one vertex of the intersection (its plane m.y = c gives
      m/c, through three of its points chosen by plane index, so the vertex does not depend on
      how the hull triangulated the facet), each hull vertex one face (the cycle of facets
      around it; a hull vertex on a facet or an edge gives fewer than 3 and no face). The
      origin must be strictly inside the hull (exact test): the intersection is bounded. Then,
      as a cosmetic step, vertices closer than 1e-9 of the length scale are merged (they come
      from near-ties in the input, e.g. four planes through one corner after rounding).
   5. Sanity checks (Solfec's): every vertex within 2 eps of the box around both bodies (this
      catches blow-ups from dual facets nearly through the origin), at least 4 triangles, all
      finite.
   The exact hull removed the earlier soft failures (IMP_PI_DEGENERATE) of exact face-to-face
   contact of a hull with its own mirror image (the side planes of both bodies meet on the
   patch's edges: many near-ties), where the tolerance-based hull put the origin on or outside
   a dual facet or collapsed the result (about 1 in 600 such pairs of 20-point hulls, 1 in 20
   of 8-point hulls in any pose; now none in test_polyhedra.c's 5000).
   Faces are fan-triangulated from their first vertex and tagged with the body (0 = A, 1 = B)
   and the face index in that body. Cost: O(m log m) expected for m = the two face counts
   (the hull), plus O(nv) for GJK, O(m) per centring step (at most 40) and O(nfa nfb) cheap
   comparisons for the coplanar faces. No allocation once
   the caller's imp_poly_work is large enough: all arrays, the hull's included, live in it
   (grown when a query needs more, reused across queries). */
#ifndef IMPACT_POLYTOPE_INTERSECT_H
#define IMPACT_POLYTOPE_INTERSECT_H

#include <stddef.h>

#include "hull3d.h"
#include "shape.h"

enum {
    IMP_PI_OK = 0,         /* an intersection (touching within eps gives a thin slab) */
    IMP_PI_SEPARATED = 1,  /* GJK distance > eps: no intersection */
    IMP_PI_DEGENERATE = 2, /* the dual hull or a sanity check failed: no valid intersection */
    IMP_PI_BADINPUT = 3,   /* a shape is not a polyhedron (polyhedron.h), or a pose is not finite */
    IMP_PI_ENOMEM = 4
};

/* Scratch space reused across queries; zero-initialise, free with imp_poly_work_free. */
typedef struct imp_poly_work {
    double *d;
    int *i;
    size_t dcap, icap;
    imp_hull3d_work hull; /* the dual hull's scratch */
} imp_poly_work;
void imp_poly_work_free(imp_poly_work *w);

typedef struct imp_poly_view { /* a posed polyhedron (world) */
    int nv, nf;
    double *vert, *plane; /* 3 per vertex; 4 per face (unit n, d: n.x <= d inside) */
    int *surface;
    double centroid[3];
} imp_poly_view;

typedef struct imp_poly_intersection {
    int status;
    double eps;          /* the geometric epsilon used */
    double scale;        /* the length scale: the sum of the bounding radii */
    double distance;     /* the GJK distance (0 when overlapping) */
    double point_a[3], point_b[3]; /* GJK witness points */
    double interior[3];  /* the interior point (the dual origin) */
    double volume, centroid[3];
    imp_poly_view a, b;  /* the posed inputs */
    /* the intersection (valid until the next query with the same work) */
    int nvert;
    double *vert;        /* world, 3 per vertex */
    int npoly;
    int *poly_first;     /* npoly + 1 offsets into poly_vidx */
    int *poly_vidx;      /* counter-clockwise seen from outside */
    int *poly_body;      /* 0: on a face of A, 1: on a face of B */
    int *poly_face;      /* the face index in that body */
    int *poly_shared;    /* -1, or (a face of A in the same plane as a face of B, same
                            orientation: on both surfaces) the index of B's face */
    double *poly_area;
    int ntri;
    int *tri;            /* 3 vertex indices per triangle (fans of the polygons) */
    int *tri_poly;       /* the polygon of each triangle */
} imp_poly_intersection;

/* The intersection of the posed polyhedra a and b; eps <= 0 means the default 1e-6 * scale.
   Returns out->status. */
int imp_polytope_intersect(const imp_shape *a, const double *pose_a, const imp_shape *b, const double *pose_b,
                           double eps, imp_poly_work *w, imp_poly_intersection *out);

#endif
