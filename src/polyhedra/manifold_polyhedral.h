/* manifold_polyhedral.h: the contact manifold (manifold3d.h) of two convex polyhedra (polyhedron.h:
   polyhedra, unsmoothed hulls, unsmoothed boxes) from their volumetric intersection, as Solfec
   derives contacts (/work/shared/reference/solfec.md sections 2, 4.1 and 5), for pairs whose
   both shapes are polyhedral.

   1. The intersection (polytope_intersect.h) and the contact (contact_polyhedral.h): its normal n
      (the per-polygon area^2-weighted average of the intersection's faces, out of A into B) is the
      manifold's normal.
   2. Candidate points: the vertices of the contact patch, i.e. of the intersection's polygons
      lying on A's surface and facing along n (their face's normal . n >= 0.1) or on B's surface
      facing against it (shared coplanar faces excluded); each carries a share of its polygons'
      areas (a polygon's area split evenly among its vertices). A vertex v on A's surface pairs
      with the point of B's surface below it along -n (the ray v - s n leaves B at s = s*, through
      a face of B with normal . (-n) >= 0.1: the side walls through v, nearly along the ray, do
      not stop it): point_a = v, point_b = v - s* n, distance = -s*; a vertex on B's surface pairs
      with A's surface above it. Distances above 0 (a vertex of the eps-thick slab Solfec's swelling gives
      touching bodies, at most eps outside) are reported as 0.
   3. Sparsification (contact_sparsify.h, Solfec's rule with threshold 0.01, minarea 0, mindist =
      the intersection's eps) on the candidates' projections onto the contact plane, each
      candidate's object being its first patch polygon and two polygons being adjacent when they
      share a vertex: a sliver's vertex (less than 1% of an adjacent polygon vertex's share) and
      duplicates above one another (the two layers of a slab) drop.
   4. The survivors are reduced to at most IMP_MANIFOLD3D_MAX as the other shapes' manifolds
      (manifold3d_reduce.h).
   Keys: 0xE0000000 | the three lowest indices of the face planes through the vertex (A's faces
   0..nfa-1, B's nfa..; within 2 eps + 1e-9 of the scale), 9 bits each when nfa + nfb <= 511,
   else a hash of them (then made distinct within the manifold): the same vertex keeps its key
   while the bodies move a little. No patch vertex (containment): one point at the contact point
   with the contact's gap, key 0xC0000000.
   Separated by more than eps (no volumetric contact) or a rejected intersection: the general
   manifold (imp_manifold3d_compute) within the margin answers instead. */
#ifndef IMPACT_MANIFOLD_POLYHEDRAL_H
#define IMPACT_MANIFOLD_POLYHEDRAL_H

#include "manifold3d.h"
#include "polytope_intersect.h"

/* the most candidate vertices considered (later ones, in the intersection's order, are ignored) */
#define IMP_POLY_MANIFOLD_CAND 128

/* The manifold of the polyhedra a and b (poses {x, y, z, qw, qx, qy, qz} of the centroids); eps
   <= 0: the default 1e-6 of the summed bounding radii; margin >= 0 for the fallback. Returns the
   polyhedral status: IMP_PC_CONTACT (the volumetric manifold), IMP_PC_SEPARATED or
   IMP_PC_REJECTED (the general manifold answered), IMP_PC_BADINPUT (not polyhedra: count 0,
   out->status IMP_NP_BADINPUT) or IMP_PC_ENOMEM (count 0). out->status is the narrow phase's
   IMP_NP_* (IMP_NP_OK for the volumetric manifold). No allocation once w has grown. */
int imp_poly_manifold(const imp_shape *a, const double *pose_a, const imp_shape *b, const double *pose_b,
                      double eps, double margin, imp_poly_work *w, imp_manifold3d *out);

#endif
