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

/* The constructors (imp_shape3d_sphere, ... imp_shape3d_wall) are public: impact/shape.h
   (included by shape.h). The callers (the Lua binding) validate sizes first;
   imp_shape3d_check_* say what is wrong (NULL = fine). */

/* NULL when fine, else a message naming what is wrong. */
const char *imp_shape3d_check_smoothing(int kind, const double *params, double r);

/* The convex data of a 3D shape built here; NULL for other shapes. */
const imp_convex3d *imp_shape3d_data(const imp_shape *s);
/* The parameters of a sphere {r} or box {sx, sy, sz} (NULL for other kinds). */
/* The AABB of a 3D convex shape (not a wall) at pose (x, y, z, quaternion) whose rotation r
   (row-major 3x3, from the pose's normalised quaternion by imp_q_to_mat3) is known: the same
   numbers as imp_shape_bounds, without making r again; 0 (nothing written) for another shape */
int imp_shape3d_bounds_rot(const imp_shape *s, const double *pose, const double *r, double lo[3], double hi[3]);
const double *imp_shape3d_basic_params(const imp_shape *s);

/* Support point of the CORE in shape coordinates along direction d (any length; a zero d
   gives some point of the core). Walls have no support point (do not call). */
void imp_shape3d_core_support(const imp_convex3d *c, const double d[3], double out[3]);

/* Internal (for the shape3d_*.c files): a new shape of the kind with zeroed data (freed with
   the shape); NULL when out of memory. */
imp_shape *imp_shape3d_alloc(int kind, imp_convex3d **data);

#endif
