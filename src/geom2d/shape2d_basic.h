/* shape2d_basic.h: the basic 2D shapes, a circle and a rectangle centred on the origin of
   their shape coordinates. Both are polygons of polygon2d.h (a circle is one full convex arc,
   a rectangle four straight edges), so every 2D detection routine handles them. */
#ifndef IMPACT_SHAPE2D_BASIC_H
#define IMPACT_SHAPE2D_BASIC_H

#include "shape.h"

/* NULL when out of memory or when radius is not a positive finite number. Decorated vertices
   at the default spacing (IMP_POLY2D_DEFAULT_SPACING). */
imp_shape *imp_shape2d_circle(double radius);
/* NULL when out of memory or when width, height are not positive finite numbers. */
imp_shape *imp_shape2d_rectangle(double width, double height);
/* The parameters of a circle {r, 0} or rectangle {w, h} shape (NULL for other kinds). */
const double *imp_shape2d_basic_params(const imp_shape *s);

#endif
