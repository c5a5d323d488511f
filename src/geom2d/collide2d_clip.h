/* collide2d_clip.h: a cheaper narrow phase for two strictly convex straight-edged polygons
   at rest poses (boxes), by separating axes and clipping, as Box2D's polygon manifold
   (written from the method's description: the reference face of greatest separation, the
   incident edge of the other body most opposed to it, clipped to the reference face's side
   lines; no code of it). The general path (collide2d.c) serves every other case. */
#ifndef IMPACT_COLLIDE2D_CLIP_H
#define IMPACT_COLLIDE2D_CLIP_H

#include "collide2d.h"

/* Like imp_collide2d_detect_xf (the same arguments, results and return values) for bodies
   without previous poses whose shapes are strictly convex polygons of straight edges that
   all collide; for any other pair, imp_collide2d_detect_xf itself. At most two results, each
   a vertex/edge result as the general path makes them (kind, normal velocity, the point on
   the normal body and the primary's vertex): an incident vertex of one body within
   distance_tol of the reference face of the other (its normal), or, where the incident
   edge is clipped at an end of the reference face, that end's vertex against the incident
   edge (the incident edge's normal). On resting boxes the points agree with the general
   path's (test_collide2d_clip.c); the features may differ where both paths have a choice
   (coinciding corners). O(Va Eb + Vb Ea), no allocation. */
int imp_collide2d_clip_xf(const imp_body2d *a, const imp_body2d_xf *ta, const imp_body2d *b,
                          const imp_body2d_xf *tb, const imp_detect2d_params *p, imp_hit2d *out,
                          int capacity);
/* imp_collide2d_clip_xf, its separating axes taken four edges at a time with AVX2 when simd
   is set (only where imp_collide2d_clip_avx2() is 1): the same results bit for bit. */
int imp_collide2d_clip_xf_simd(const imp_body2d *a, const imp_body2d_xf *ta, const imp_body2d *b,
                               const imp_body2d_xf *tb, const imp_detect2d_params *p, int simd,
                               imp_hit2d *out, int capacity);
/* After imp_collide2d_prepare on the same body: whether the clipping path applies to it and
   its vertices at x->now (see imp_body2d_xf), once per body and detection instead of per
   pair; the results are the same bit for bit. O(vertices). */
void imp_collide2d_clip_prepare(const imp_body2d *b, imp_body2d_xf *x);
/* 1 when this build and processor run imp_collide2d_clip_xf_simd's AVX2 path */
int imp_collide2d_clip_avx2(void);

#endif
