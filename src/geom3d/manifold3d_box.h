/* manifold3d_box.h: the contact manifold of two plain boxes (no rounding) by their separating
   axes, without the general narrow phase (manifold3d_box.c; the 3D engine's soft step uses it).

   Method. In A's frame (C = A's axes . B's axes, t = B's centre - A's centre) the separation of
   the cores along each of the 15 axes (A's 3 faces, B's 3 faces, the 9 edge cross products
   longer than 1e-6) is s(L) = |t . L| - rA(L) - rB(L); d = the largest is the boxes' signed
   distance when they overlap (the least penetration) and a lower bound of it when apart (exact
   when a face's prism holds the closest points). d > margin: no point. Otherwise the reference
   face follows manifold3d.h's rule with d and the axis of d for the narrow phase's distance
   and normal (EPA's least translation is that axis when the boxes overlap): each box's face
   most aligned with the axis is a candidate when within about 8 degrees of it (at exact
   touching, |d| <= 1e-6 s, each box's face of the largest separation), valid when its
   separation is within 0.1 |d| + 2e-3 s of d; A's stays unless B's is larger by
   0.05 |d| + 1e-3 s (s the sum of the scales). The incident face is the other box's face most
   anti-parallel to the reference normal (box faces as manifold3d_feature.c's, so the keys are
   the general path's); it is clipped in the reference box's frame (whose side planes are its
   axes: manifold3d_clip.h, the same tolerance), the points within margin kept and reduced to
   IMP_MANIFOLD3D_MAX as manifold3d.h's step 5. No valid face (an edge on an edge), or no point
   left after clipping: the caller takes the general path (imp_manifold3d_compute). */
#ifndef IMPACT_MANIFOLD3D_BOX_H
#define IMPACT_MANIFOLD3D_BOX_H

#include "manifold3d.h"
#include "support3d.h"

/* 1 when a and b (posed supports of plain boxes: kind IMP_S3_BOX, sweep 0) are answered: out
   filled (status IMP_NP_OK; count 0 when d > margin) and *gap = d (a lower bound of the
   distance); 0 when the general path must answer. Deterministic, no allocation. */
int imp_manifold3d_box(const imp_support3d *a, const imp_support3d *b, double margin, imp_manifold3d *out,
                       double *gap);

/* 1 when the shape is a plain box (the kind imp_manifold3d_box takes) */
int imp_manifold3d_is_plain_box(const imp_shape *s);

#endif
