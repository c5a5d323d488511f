/* polyhedron.h: convex polyhedra as 3D shapes with planar faces: the validated constructor from
   vertices and faces, the faces of a convex hull, and the posed (world) view of a polyhedron's
   vertices and face planes used by the volumetric intersection (polytope_intersect.h).

   A polyhedron is a 3D shape of kind IMP_S3_CONVEX with no smoothing (so the distance query,
   bounds and mass properties of shape3d work unchanged) whose imp_convex3d.faces holds its
   planar faces. An unsmoothed box is used as a polyhedron too (its 6 faces, 8 corners). */
#ifndef IMPACT_POLYHEDRON_H
#define IMPACT_POLYHEDRON_H

#include <stddef.h>

#include "shape3d.h"

typedef struct imp_polyfaces {
    int nface;
    double *plane; /* 4 per face, shape coordinates: unit outward normal n and offset d; the
                      solid is n.x <= d for every face */
    int *surface;  /* per face: its surface id (the face's number from 1 unless the user gave ids;
                      an unsmoothed box's faces -x, +x, -y, +y, -z, +z are 1..6) */
    int *first;    /* nface + 1 offsets into vidx */
    int *vidx;     /* the face's vertex indices (imp_convex3d.vert), counter-clockwise seen from
                      outside */
} imp_polyfaces;

/* The planar faces of an unsmoothed hull (c->vert, c->tri): coplanar neighbouring triangles
   (within 1e-9 of the shape's scale) are merged; faces are numbered (from 1) by their first triangle.
   One allocation (free() it); NULL when out of memory or when the triangles are not a closed
   surface. O(ntri log ntri). */
imp_polyfaces *imp_polyfaces_from_hull(const imp_convex3d *c);

enum { IMP_POLY_OK = 0, IMP_POLY_EBADARG = 1, IMP_POLY_ENOMEM = 2 };

/* A convex polyhedron from nv vertices (3 nv doubles) and nf faces: face f has face_size[f]
   vertex indices (0-based) in face_idx, concatenated, counter-clockwise seen from outside;
   surface (may be NULL) gives each face's surface id. The input is checked: at least 4
   vertices and 4 faces, finite coordinates, indices in range and distinct within a face, every
   vertex used, each edge shared by exactly two faces with opposite directions (closed and
   consistently oriented), V - E + F = 2, planar faces (within 1e-9 of the size), convex faces
   with no straight angles, no two neighbouring faces in one plane, every vertex behind every
   face's plane (convex), and outward faces (positive volume). On failure returns NULL, sets
   *status and writes a message naming the face or vertex (1-based) into msg. O(nf nv) for the
   convexity check plus the hull of the vertices. */
imp_shape *imp_polyhedron_new(const double *vert, int nv, const int *face_size, const int *face_idx,
                              int nf, const int *surface, int *status, char *msg, size_t msglen);

/* The polyhedral faces of a shape: its faces for an unsmoothed hull or polyhedron, NULL for
   every other shape (boxes are handled by imp_polytope_pose directly). */
const imp_polyfaces *imp_polyhedron_faces(const imp_shape *s);

/* Sizes of the posed view of s: 1 and *nv, *nf when s is a polyhedron, an unsmoothed hull or an
   unsmoothed box; 0 otherwise. */
int imp_polytope_sizes(const imp_shape *s, int *nv, int *nf);

/* The posed view of s at pose {x, y, z, qw, qx, qy, qz} (centroid position): world vertices
   (3 per vertex), world face planes (4 per face: unit n, d with n.x <= d inside) and surface
   ids, into caller arrays of the sizes above. O(nv + nf), no allocation. */
void imp_polytope_pose(const imp_shape *s, const double *pose, double *vert, double *plane, int *surface);

#endif
