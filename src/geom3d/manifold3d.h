/* manifold3d.h: the contact manifold of two posed 3D convex shapes (placeholder while the
   multi-point version is written: one point from the narrow phase). */
#ifndef IMPACT_MANIFOLD3D_H
#define IMPACT_MANIFOLD3D_H

#include "shape.h"

#define IMP_MANIFOLD3D_MAX 4

typedef struct imp_manifold3d_point {
    double point_a[3], point_b[3];
    double distance;
    unsigned key;
} imp_manifold3d_point;

typedef struct imp_manifold3d {
    int status;
    double normal[3];
    int count;
    imp_manifold3d_point points[IMP_MANIFOLD3D_MAX];
} imp_manifold3d;

int imp_manifold3d_compute(const imp_shape *a, const double *pose_a, const imp_shape *b, const double *pose_b,
                   double margin, imp_manifold3d *out);

#endif
