/* shape2d_basic.h: the basic 2D shapes, a circle and a rectangle centred on the origin of
   their shape coordinates. Both are polygons of polygon2d.h (a circle is one full convex arc,
   a rectangle four straight edges), so every 2D detection routine handles them. */
#ifndef IMPACT_SHAPE2D_BASIC_H
#define IMPACT_SHAPE2D_BASIC_H

#include "shape.h"

/* imp_shape2d_circle and imp_shape2d_rectangle are public: impact/shape.h (included by
   shape.h). */

/* The parameters of a circle {r, 0} or rectangle {w, h} shape (NULL for other kinds). */
const double *imp_shape2d_basic_params(const imp_shape *s);

#endif
