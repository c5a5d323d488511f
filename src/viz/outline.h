/* outline.h: what a shape looks like, for pictures and exports (no Lua, no cairo).

   2D: the outline of a shape as a path of move / line / arc / close commands in shape
   coordinates, so arcs stay arcs in SVG and PNG. 3D: a surface mesh (vertices and polygonal
   faces), or "a point with a radius" for kinds that viewers draw as spheres.

   One function per dimension dispatches on the shape kind: a new kind (the 2D polygon with
   straight and circular edges, cylinders, hulls, ...) is added by one branch in
   imp_shape2d_outline (outline.c) or imp_shape3d_mesh (mesh3d.c). */
#ifndef IMPACT_OUTLINE_H
#define IMPACT_OUTLINE_H

#include "shape.h"
#include <impact/status.h>

typedef enum imp_path_op {
    IMP_PATH_MOVE = 0,  /* start a sub-path at (x, y) */
    IMP_PATH_LINE,      /* straight edge to (x, y) */
    IMP_PATH_ARC,       /* circular edge about (cx, cy) of radius r from angle a0 to a1
                           (radians; counter-clockwise when a1 > a0, clockwise when a1 < a0);
                           the current point is the arc's start; (x, y) is its end */
    IMP_PATH_CLOSE      /* back to the sub-path's start */
} imp_path_op;

typedef struct imp_path_cmd {
    imp_path_op op;
    double x, y;              /* end point (MOVE, LINE, ARC) */
    double cx, cy, r, a0, a1; /* ARC only */
} imp_path_cmd;

/* Writes at most cap commands of the outline of the 2D shape s into out (which may be NULL
   when cap is 0) and returns how many the whole outline needs, so a caller can size its
   buffer by calling with cap 0. Returns -1 for a kind with no outline (not 2D, or unknown). */
int imp_shape2d_outline(const imp_shape *s, imp_path_cmd *out, int cap);

typedef enum imp_mesh_kind {
    IMP_MESH_NONE = -1,  /* not a 3D shape, or a kind with no mesh yet */
    IMP_MESH_POINT = 0,  /* drawn as a point with a radius (a sphere): *radius is set */
    IMP_MESH_SURFACE = 1 /* a polygonal surface mesh */
} imp_mesh_kind;

typedef struct imp_mesh {
    int nverts, nfaces, nindices;  /* sizes: always set */
    double *verts;                 /* 3 * nverts, shape coordinates (caller's buffer or NULL) */
    int *face_sizes;               /* nfaces (caller's buffer or NULL) */
    int *indices;                  /* nindices, 0-based, each face counter-clockwise seen from
                                      outside (caller's buffer or NULL) */
    double radius;                 /* IMP_MESH_POINT: the radius */
} imp_mesh;

/* Fills the sizes of m (and, when m's buffers are not NULL, the mesh: the caller allocates
   them from the sizes of a first call with NULL buffers) and says what kind of mesh it is. */
imp_mesh_kind imp_shape3d_mesh(const imp_shape *s, imp_mesh *m);

#endif
