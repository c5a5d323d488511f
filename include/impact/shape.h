/* impact/shape.h: the shapes bodies carry, 2D and 3D.

   A shape is immutable once built and reference-counted: a body retains the shape it is
   given, so a caller releases its own reference once the bodies are made:

     imp_shape *s = imp_shape3d_sphere(0.5);
     bd.shape = s; imp_world_add_body(w, &bd);
     imp_shape_release(s);

   Constructors return NULL when out of memory or when an argument is not accepted (sizes
   must be positive finite numbers). */
#ifndef IMPACT_PUBLIC_SHAPE_H
#define IMPACT_PUBLIC_SHAPE_H

typedef struct imp_shape imp_shape;

void imp_shape_retain(imp_shape *s);
/* Drops one reference; frees the shape at zero. NULL is accepted. */
void imp_shape_release(imp_shape *s);
/* 2 or 3. */
int imp_shape_dim(const imp_shape *s);
/* Area (2D) or volume (3D). */
double imp_shape_measure(const imp_shape *s);

/* ---- 2D (centred on the origin of their shape coordinates) ---- */

/* NULL when out of memory or when radius is not a positive finite number. Decorated vertices
   at the default spacing (IMP_POLY2D_DEFAULT_SPACING). */
imp_shape *imp_shape2d_circle(double radius);
/* NULL when out of memory or when width, height are not positive finite numbers. */
imp_shape *imp_shape2d_rectangle(double width, double height);

/* ---- 3D convex shapes (sphere-swept cores; see src/geom3d/shape3d.h) ---- */

/* Status codes of the convex hull's constructor (detail of a NULL result). */
enum { IMP_S3_OK = 0, IMP_S3_EBADARG = 1, IMP_S3_ENOMEM = 2, IMP_S3_EFLAT = 3 };

imp_shape *imp_shape3d_sphere(double radius);
imp_shape *imp_shape3d_box(double sx, double sy, double sz);
/* A box of outer size sx x sy x sz whose edges and corners are rounded with radius r,
   0 <= r <= min(s)/2. */
imp_shape *imp_shape3d_box_smoothed(double sx, double sy, double sz, double r);
imp_shape *imp_shape3d_ellipsoid(double a, double b, double c);
/* Cylinder of radius R and length L along z, edges rounded with r <= min(R, L/2). */
imp_shape *imp_shape3d_cylinder(double radius, double length, double r);
/* Capsule: the segment z in [-L/2, L/2] swept by a sphere of the radius (total length L + 2 radius). */
imp_shape *imp_shape3d_capsule(double radius, double length);
/* Cone of base radius R at z = 0 and apex at z = L; rounded with r below the inradius
   R L / (R + sqrt(R^2 + L^2)) of its axial section, inscribed in the sharp cone. */
imp_shape *imp_shape3d_cone(double radius, double length, double r);
/* Convex hull of n points (3n doubles) swept by a sphere of radius r >= 0; *status (may be
   NULL) gets IMP_S3_EFLAT when the points span no volume, IMP_S3_ENOMEM, IMP_S3_EBADARG. */
imp_shape *imp_shape3d_convex(const double *points, int n, double r, int *status);
/* The half-space n.x <= 0 of shape coordinates: a wall through the body's position with the
   outward unit normal n (normalized here; NULL for +z). Volume, inertia and bounding radius are
   infinite: a wall only makes sense on a fixed body. NULL for a zero or non-finite normal. */
imp_shape *imp_shape3d_wall(const double *normal);

#endif
