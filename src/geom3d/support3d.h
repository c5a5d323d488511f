/* support3d.h: support mappings of posed 3D convex shapes in world coordinates, and of the
   Minkowski difference of two of them (the common currency of GJK, MPR and EPA). */
#ifndef IMPACT_SUPPORT3D_H
#define IMPACT_SUPPORT3D_H

#include "mat3.h"
#include "shape3d.h"
#include "vec3.h"

typedef struct imp_support3d {
    const imp_convex3d *c;
    imp_mat3 rot;    /* shape axes -> world */
    imp_vec3 origin; /* world position of the shape-coordinate origin: pos - R centroid */
    imp_vec3 centre; /* world position of a (relative-)interior point of the core */
    double sweep;
    double scale;
} imp_support3d;

/* pose = {x, y, z, qw, qx, qy, qz} of the centroid; the quaternion is normalized here. */
void imp_support3d_init(imp_support3d *s, const imp_shape *shape, const double *pose);
/* The point of the core farthest along world direction d (d need not be unit). */
imp_vec3 imp_support3d_core(const imp_support3d *s, imp_vec3 d);
/* The same for the whole shape (core + sweep d/|d|). */
imp_vec3 imp_support3d_full(const imp_support3d *s, imp_vec3 d);

/* The affine span of the core: dim 0 (a point), 1 (a segment along dir[0]), 2 (a flat piece
   spanned by dir[0], dir[1]) or 3; the dir are unit world vectors. */
int imp_support3d_core_span(const imp_support3d *s, imp_vec3 dir[2]);

/* Minkowski difference A - B of the cores (full = 0) or of the whole shapes (full = 1). */
typedef struct imp_mink3d {
    const imp_support3d *a, *b;
    int full;
} imp_mink3d;

/* w = sA(d) - sB(-d); pa, pb the two support points */
static inline imp_vec3 imp_mink3d_support(const imp_mink3d *m, imp_vec3 d, imp_vec3 *pa, imp_vec3 *pb)
{
    if (m->full) {
        *pa = imp_support3d_full(m->a, d);
        *pb = imp_support3d_full(m->b, imp_v3_neg(d));
    } else {
        *pa = imp_support3d_core(m->a, d);
        *pb = imp_support3d_core(m->b, imp_v3_neg(d));
    }
    return imp_v3_sub(*pa, *pb);
}

#endif
