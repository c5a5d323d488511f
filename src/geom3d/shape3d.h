/* shape3d.h: the 3D convex shapes (sphere-swept cores) and their constructors.

   Every 3D convex shape is a convex CORE swept by a sphere of radius `sweep` (Minkowski sum
   core + ball(sweep)); this is Modia3D's smoothing (its rsmall). The support point of the
   whole shape in a direction d is  core_support(d) + sweep d/|d|.

     kind       core (shape coordinates)                         sweep
     sphere     the origin (a point)                             radius
     ellipsoid  the ellipsoid with semi-axes a, b, c             0
     box        box of half extents h_i - r (outer size kept)    smoothing r
     cylinder   cylinder, axis z, radius R - r, half-length H - r  smoothing r
     capsule    segment z in [-L/2, L/2]                         radius
     cone       cone inscribed at distance r in the sharp cone   smoothing r
                (base circle at z = 0, apex at z = L)
     convex     convex hull of the points (grows by r)           smoothing r
     wall       the half-space n.x <= 0 (an infinite plane)      0

   Shape coordinates: sphere, ellipsoid, box, cylinder, capsule are centred on the origin; a
   cone has its base centre at the origin and its axis along +z; a convex hull keeps the
   coordinates of its points. The centroid (shape.h) is filled exactly. */
#ifndef IMPACT_SHAPE3D_H
#define IMPACT_SHAPE3D_H

#include "shape.h"

enum {
    IMP_S3_SPHERE = 0,
    IMP_S3_ELLIPSOID,
    IMP_S3_BOX,
    IMP_S3_CYLINDER,
    IMP_S3_CAPSULE,
    IMP_S3_CONE,
    IMP_S3_CONVEX,
    IMP_S3_WALL,
    IMP_S3_KINDS
};

/* The data of a 3D convex shape (imp_shape.data). */
typedef struct imp_convex3d {
    int kind;
    double params[3];  /* the user's parameters: sphere {r}; box {sx, sy, sz}; ellipsoid
                          {a, b, c}; cylinder {R, L}; capsule {radius, L}; cone {R, L} */
    double sweep;      /* radius of the sweeping sphere (0 when none) */
    double core[3];    /* core dimensions: box half extents; ellipsoid semi-axes;
                          cylinder {radius, half-length}; capsule {0, 0, half-length};
                          cone {base radius, base z, apex z}; wall: unit outward normal */
    double scale;      /* a length of the shape's size, for relative tolerances */
    int nvert;         /* convex: hull vertices (shape coordinates), 3 per vertex */
    double *vert;
    int ntri;          /* convex: hull triangles, outward (counter-clockwise seen from outside) */
    int *tri;
    struct imp_polyfaces *faces; /* convex with no smoothing: its planar faces (polyhedron.h);
                                    one allocation, freed with the shape; NULL otherwise */
} imp_convex3d;

/* Status codes of constructors. */
enum { IMP_S3_OK = 0, IMP_S3_EBADARG = 1, IMP_S3_ENOMEM = 2, IMP_S3_EFLAT = 3 };

/* Constructors: NULL when out of memory or when the arguments are invalid. The callers (the
   Lua binding) validate sizes first; imp_shape3d_check_* say what is wrong (NULL = fine). */
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

/* NULL when fine, else a message naming what is wrong. */
const char *imp_shape3d_check_smoothing(int kind, const double *params, double r);

/* The convex data of a 3D shape built here; NULL for other shapes. */
const imp_convex3d *imp_shape3d_data(const imp_shape *s);
/* The parameters of a sphere {r} or box {sx, sy, sz} (NULL for other kinds). */
const double *imp_shape3d_basic_params(const imp_shape *s);

/* Support point of the CORE in shape coordinates along direction d (any length; a zero d
   gives some point of the core). Walls have no support point (do not call). */
void imp_shape3d_core_support(const imp_convex3d *c, const double d[3], double out[3]);

/* Internal (for the shape3d_*.c files): a new shape of the kind with zeroed data (freed with
   the shape); NULL when out of memory. */
imp_shape *imp_shape3d_alloc(int kind, imp_convex3d **data);

#endif
