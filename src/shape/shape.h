/* shape.h: the generic shape every body carries, 2D or 3D: its definition, for the geometry
   modules (users see it opaque: impact/shape.h, with retain, release and the constructors).

   A shape is immutable once built and reference-counted: bodies and Lua handles retain it.
   Each kind of shape (circle, polygon with arcs, sphere, smoothed box, ...) supplies an
   imp_shape_class and fills the mass properties when it is built. The geometry modules
   (shape2d_*.c, shape3d_*.c) own the kinds; this file knows none of them.

   Frames: a shape is given in its own "shape coordinates". A body places the shape so that
   the shape's centroid is at the body's position (its centre of mass): a point p of the
   shape is at  position + R (p - centroid)  in the world. */
#ifndef IMPACT_SHAPE_H
#define IMPACT_SHAPE_H

#include <impact/shape.h>

#include "mat3.h"

/* A pose in the layout of a body's state: 2D {x, y, angle}; 3D {x, y, z, qw, qx, qy, qz}.
   The position is that of the centroid. */
typedef void (*imp_shape_bounds_fn)(const struct imp_shape *s, const double *pose, double lo[3],
                                    double hi[3]);

typedef struct imp_shape_class {
    const char *name;             /* "circle", "rectangle", "polygon", "sphere", "box", ... */
    int dim;                      /* 2 or 3 */
    void (*destroy)(void *data);  /* frees data; may be NULL */
    imp_shape_bounds_fn bounds;   /* axis-aligned bounds at a pose */
} imp_shape_class;

struct imp_shape {
    const imp_shape_class *cls;
    int refcount;
    int dim;
    double measure;       /* area (2D) or volume (3D), > 0 */
    double centroid[3];   /* in shape coordinates (z = 0 in 2D) */
    imp_mat3 inertia;     /* per unit density, about the centroid, shape axes; 2D: only m[2][2],
                             the polar moment of the lamina, is used */
    double radius;        /* bounding radius about the centroid */
    void *data;           /* kind-specific; owned by the shape */
};

/* A new shape with refcount 1; NULL when out of memory (data is then destroyed). */
imp_shape *imp_shape_new(const imp_shape_class *cls, void *data);
void imp_shape_bounds(const imp_shape *s, const double *pose, double lo[3], double hi[3]);

/* Bounds of a disc/ball of the shape's bounding radius around the pose's position: a valid,
   if loose, bounds function for any kind. */
void imp_shape_bounds_by_radius(const imp_shape *s, const double *pose, double lo[3], double hi[3]);

/* NULL when the shape's area or volume and its inertia per unit density are positive finite
   numbers with finite inverses (what a body of it needs); else which of "area", "volume" or
   "inertia" is not (a size too large or too small for doubles). */
const char *imp_shape_check_mass(const imp_shape *s);
#endif
