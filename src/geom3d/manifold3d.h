/* manifold3d.h: the contact manifold of two posed 3D convex shapes (shape3d.h, walls included):
   up to IMP_MANIFOLD3D_MAX points sharing one normal, with feature keys that persist from step
   to step, for the 3D engine's stacks (a box resting on a face gets its 4 corners).

   Method. The narrow phase (collide3d.h) gives the distance d and a normal n; d > margin gives
   no point. Otherwise (s = the sum of the shapes' scales):
   1. Reference face. The face of A most aligned with +n and the face of B most aligned with -n
      (box and hull faces, cylinder caps and the cone's base, a disc being the regular polygon of
      IMP_FEAT_DISC = 8 vertices inscribed in it), when within about 8 degrees of n, are
      candidates; at exact touching (|d| <= 1e-6 s, where the narrow phase's normal is not
      reliable) so is every face through the witness points. A candidate's separation is the
      support gap of the whole shapes along its outward normal f; it is valid when within
      0.1 |d| + 2e-3 s of d (faces are preferred when nearly as good as the best axis: stable
      points on slightly rocking stacks, as the relative and absolute tolerances of Gregorius's
      box contacts). The first valid candidate (A's before B's) stays unless a later one's
      separation is larger by 0.05 |d| + 1e-3 s, so the choice does not flip while a resting
      pair rocks. The manifold's normal is then f (pointing from A to B).
   2. Incident feature: the other shape's support feature towards the reference face: a box's or
      hull's face most anti-parallel to f; a cylinder's cap or side line, a capsule's segment or a
      cone's base or slant line when within about 6 degrees of flat; else the core's support
      point. It is clipped against the reference polygon's side planes (Sutherland-Hodgman; a
      segment by its parameter range; a vertex up to 1e-3 of the smaller shape's scale outside a
      side is kept as it is, so a box corner flush with the face below keeps its key while it
      wanders), each point is offset by the incident shape's sweep towards the reference, and its
      distance is measured from the reference plane (offset by the reference's sweep) along f.
      The points within margin are kept. For a disc the exact support point is added when it is
      deeper than every polygon vertex.
   3. No reference face (edge on edge, curved on curved) or nothing left after clipping: when
      both supports are straight segments within 1e-3 rad of perpendicular to n and parallel
      within 1e-3 rad, the two ends of their overlap; otherwise the narrow phase's single point.
   4. Walls: the other shape's incident feature towards the wall, every point within margin of
      the plane (no clipping: the wall is unbounded).
   5. More than IMP_MANIFOLD3D_MAX points: coincident points (within 1e-9 s) merge, then the
      deepest is kept (the first in feature order within a quarter of the margin of the deepest,
      so a resting polygon's rocking does not move the choice), then the farthest from it in the
      contact plane, then the one maximising the triangle's area, then the one adding the most
      area (ties, within 1e-3 relative, to the first in feature order).

   Keys (32 bits): bits 30-31 the kind (0 clipped against a reference face, 1 wall, 2 segment
   pair, 3 the single narrow-phase point); for kind 0 bit 29 says the reference is B, bits 21-28
   hold the reference face's index, bits 14-20 the incident feature's index (mod 256 and 128),
   bits 0-13 the point: an incident vertex (its place in the face, < 64), the crossing of incident
   edge i with reference side j (64 + 64 i + j), a reference corner inside the incident face
   (4160 + 64 j + k, j < k), the exact support point of a disc (8256). Equal while the same
   features touch, distinct within a manifold.

   The function is imp_manifold3d_compute (C does not allow it the struct's name). */
#ifndef IMPACT_MANIFOLD3D_H
#define IMPACT_MANIFOLD3D_H

#include "collide3d.h"
#include "shape.h"

/* four points span any contact polygon's area well enough for a rigid body (3 to stand, the 4th
   for symmetry: a box on a face gets its corners) and bound the solver's rows per pair */
#define IMP_MANIFOLD3D_MAX 4

typedef struct imp_manifold3d_point {
    double point_a[3], point_b[3]; /* world: on A's and B's surface; point_b = point_a + distance * normal */
    double distance;               /* signed gap along the normal (< 0: penetration) */
    unsigned key;                  /* feature key: equal for the same point on the next step while the
                                      shapes move a little; distinct within a manifold */
} imp_manifold3d_point;

typedef struct imp_manifold3d {
    int status;          /* the narrow phase's IMP_NP_* (IMP_NP_OK; IMP_NP_MAXITER still gives points) */
    double normal[3];    /* unit, from A to B, shared by the points */
    int count;           /* 0 when the gap exceeds margin (or on bad input) */
    imp_manifold3d_point points[IMP_MANIFOLD3D_MAX];
} imp_manifold3d;

/* Contact points where the shapes a and b (3D convex shapes, poses {x, y, z, qw, qx, qy, qz} of
   their centroids) are within margin (>= 0; a negative or NaN margin counts as 0) of each other.
   Returns out->status (IMP_NP_BADINPUT, IMP_NP_UNSUPPORTED for two walls: count 0).
   Deterministic, no allocation. */
int imp_manifold3d_compute(const imp_shape *a, const double *pose_a, const imp_shape *b, const double *pose_b,
                           double margin, imp_manifold3d *out);

#endif
