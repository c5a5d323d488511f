/* hull3d.h: convex hull of a 3D point set (quickhull). */
#ifndef IMPACT_HULL3D_H
#define IMPACT_HULL3D_H

/* A closed triangulated convex surface: every vertex is an extreme point (duplicate, interior
   and coplanar input points are dropped); triangles are counter-clockwise seen from outside. */
typedef struct imp_hull3d {
    int nvert;
    double *vert; /* 3 per vertex */
    int ntri;
    int *tri;     /* 3 vertex indices per triangle */
} imp_hull3d;

enum { IMP_HULL_OK = 0, IMP_HULL_ENOMEM = 1, IMP_HULL_EFLAT = 2, IMP_HULL_EBADARG = 3,
       IMP_HULL_EFAIL = 4 };

/* The hull of n points (3n doubles). IMP_HULL_EFLAT when they span no volume (all coincident,
   collinear or coplanar within 1e-10 of their extent), IMP_HULL_EBADARG for n < 4 or
   non-finite coordinates, IMP_HULL_EFAIL when rounding broke the horizon (not seen in
   practice). On success the caller frees with imp_hull3d_free. O(n log n) expected,
   O(n^2) worst case. */
int imp_hull3d_build(const double *pts, int n, imp_hull3d *out);
void imp_hull3d_free(imp_hull3d *h);

#endif
