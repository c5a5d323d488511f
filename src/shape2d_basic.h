/* shape2d_basic.h: the first 2D shapes, a circle and a rectangle, centred on the origin of
   their shape coordinates. The general polygon with straight and circular edges comes with the
   2D geometry module. */
#ifndef IMPACT_SHAPE2D_BASIC_H
#define IMPACT_SHAPE2D_BASIC_H

#include "shape.h"

/* NULL when out of memory; the caller validates radius > 0 (finite). */
imp_shape *imp_shape2d_circle(double radius);
/* NULL when out of memory; the caller validates width, height > 0 (finite). */
imp_shape *imp_shape2d_rectangle(double width, double height);
/* The parameters of a circle or rectangle shape (NULL for other kinds). */
const double *imp_shape2d_basic_params(const imp_shape *s);

#endif
