/* shape3d_basic.h: the first 3D shapes, a sphere and a box, centred on the origin of their
   shape coordinates. Smoothed shapes, cylinders, cones, hulls and the narrow phase come with
   the 3D geometry module. */
#ifndef IMPACT_SHAPE3D_BASIC_H
#define IMPACT_SHAPE3D_BASIC_H

#include "shape.h"

/* NULL when out of memory; the caller validates radius > 0 (finite). */
imp_shape *imp_shape3d_sphere(double radius);
/* Box of edge lengths sx, sy, sz along the shape axes; NULL when out of memory. */
imp_shape *imp_shape3d_box(double sx, double sy, double sz);
/* The parameters of a sphere {r} or box {sx, sy, sz} (NULL for other kinds). */
const double *imp_shape3d_basic_params(const imp_shape *s);

#endif
