/* hull3d.h: convex hull of a 3D point set (quickhull with exact orientation predicates). */
#ifndef IMPACT_HULL3D_H
#define IMPACT_HULL3D_H

#include <stddef.h>

/* A closed triangulated convex surface, triangles counter-clockwise seen from outside. */
typedef struct imp_hull3d {
    int nvert;
    double *vert; /* 3 per vertex */
    int *src;     /* per vertex: its index in the input points (NULL from imp_hull3d_build) */
    int ntri;
    int *tri;     /* 3 vertex indices per triangle */
    int *nb;      /* 3 per triangle: nb[3t + k] is the triangle across the edge
                     (tri[3t + k], tri[3t + (k + 1) % 3]) (NULL from imp_hull3d_build) */
    double *plane; /* 5 per triangle: the rounded unit normal n, offset d and a bound tol on
                      the error of n.p - d as a signed distance of a point p of norm at most
                      max(|input|): |n.p - d| > tol decides the side of p exactly as orient3d
                      would (NULL from imp_hull3d_build) */
} imp_hull3d;

enum { IMP_HULL_OK = 0, IMP_HULL_ENOMEM = 1, IMP_HULL_EFLAT = 2, IMP_HULL_EBADARG = 3,
       IMP_HULL_EFAIL = 4 };

/* Scratch space of imp_hull3d_compute, reused across calls (grown when a call needs more,
   never shrunk): zero-initialise, free with imp_hull3d_work_free. */
typedef struct imp_hull3d_work {
    void *faces;
    size_t face_cap;
    int *ibuf;
    size_t icap;
    double *dbuf;
    size_t dcap;
} imp_hull3d_work;
void imp_hull3d_work_free(imp_hull3d_work *w);

/* The hull of n points (3n doubles), its arrays in the workspace (valid until the next call
   with w; do not free them). Visibility of a point from a face is decided by the exact sign of
   orient3d (predicates.h), so the result is always a consistent closed convex surface.
   rtol = 0: exact hull; a point is outside a face only when orient3d is strictly positive, so
   points on the hull's boundary do not enter unless an intermediate hull had them as extreme
   points (then the output may hold exactly coplanar neighbouring triangles and vertices that
   lie on a face or an edge of the hull: every vertex is on the hull, none is inside it).
   rtol > 0: a point within rtol times the points' extent (plus rounding) of a face's plane is
   not outside it (drops near-duplicate and near-coplanar points).
   IMP_HULL_EFLAT when the points span no volume (exactly, or within the tolerance),
   IMP_HULL_EBADARG for n < 4 or non-finite coordinates, IMP_HULL_ENOMEM. The exactness holds
   for coordinates that are 0 or of magnitude between 1e-57 and 1e99 (predicates.h); outside
   that range the result can also be IMP_HULL_EFAIL (never an invalid access).
   O(n log n) expected, O(n^2) worst case; allocates only when w must grow. */
int imp_hull3d_compute(const double *pts, int n, double rtol, imp_hull3d_work *w, imp_hull3d *out);

/* The hull of n points as a shape's hull: near-duplicate, interior and near-coplanar points
   dropped (rtol 1e-10), then vertices that lie on a flat face or an edge removed (a rebuild
   from the corners): every vertex is a corner. vert and tri are malloc'ed (src and nb are
   NULL); the caller frees with imp_hull3d_free or takes ownership of vert and tri. Allocates. */
int imp_hull3d_build(const double *pts, int n, imp_hull3d *out);
void imp_hull3d_free(imp_hull3d *h);

#endif
