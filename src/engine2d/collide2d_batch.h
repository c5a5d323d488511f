/* collide2d_batch.h: broad phase plus narrow phase over a set of posed 2D bodies, with no
   world state: flat arrays in, results out. */
#ifndef IMPACT_COLLIDE2D_BATCH_H
#define IMPACT_COLLIDE2D_BATCH_H

#include "broadphase2d.h"
#include "collide2d.h"
#include "pairset.h"

/* Detects among n bodies. Boxes (written to boxes, 4 n doubles, caller-owned) are each body's
   bounds at its pose and, when it has one, its previous pose, grown by distance_tol; the
   persistent broad phase bp (caller-owned, reused between steps) gives the candidate pairs;
   pairs whose ids are in exclude (may be NULL) and pairs of two bodies flagged in still (may
   be NULL; e.g. fixed bodies) are skipped; imp_collide2d_detect runs on the rest, in the broad
   phase's (deterministic) order. Returns the total number of results: more than capacity means
   out was too small (call again with room for that many; the count is then an upper bound,
   see imp_collide2d_detect), -1 on bad input or out of memory.
   Cost: O(n + k) broad phase for k overlapping boxes, then the narrow phase of each pair. */
int imp_collide2d_batch(const imp_body2d *bodies, int n, const unsigned char *still, imp_bp2d *bp,
                        const imp_pairset *exclude, const imp_detect2d_params *p, double *boxes,
                        imp_hit2d *out, int capacity);

/* The same with a caller-owned scratch xf of n transforms (NULL: none): each body's
   transforms are computed once (imp_collide2d_prepare) and shared by its box and every pair
   it is in, instead of twice per pair. Results identical, bit for bit, to imp_collide2d_batch;
   on return xf holds the bodies' transforms. */
int imp_collide2d_batch_xf(const imp_body2d *bodies, int n, const unsigned char *still,
                           imp_bp2d *bp, const imp_pairset *exclude, const imp_detect2d_params *p,
                           double *boxes, imp_body2d_xf *xf, imp_hit2d *out, int capacity);

/* Whether the pair of bodies with ids a and b (imp_body2d.id) is kept (a filter; ctx is the
   caller's). */
typedef int (*imp_collide2d_keep)(const void *ctx, int a, int b);

/* The same with a filter asked about every candidate pair left after still and exclude (keep
   NULL: none), before its narrow phase; clip (with xf) 1: pairs of strictly convex
   straight-edged polygons by imp_collide2d_clip_xf (collide2d_clip.h; the soft step; 2: the
   same with its AVX2 path, imp_collide2d_clip_xf_simd, the same results), 0:
   every pair by the general path. */
int imp_collide2d_batch_keep(const imp_body2d *bodies, int n, const unsigned char *still,
                             imp_bp2d *bp, const imp_pairset *exclude, imp_collide2d_keep keep,
                             const void *ctx, const imp_detect2d_params *p, double *boxes,
                             imp_body2d_xf *xf, int clip, imp_hit2d *out, int capacity);

/* The parts of imp_collide2d_batch_keep, for a caller that runs the narrow phase on some pairs
   only (the soft step's incremental detection): the bodies' boxes (and transforms xf, may be
   NULL) and the broad phase's update, returning its number of pairs (bp->pairs, indices into
   bodies, in the broad phase's order) or -1; whether the pair of bodies i and j is skipped
   (still, exclude, keep as above); the narrow phase of one pair into out (as
   imp_collide2d_detect: its count, more than capacity when out was too small, -1 on error). */
int imp_collide2d_batch_boxes(const imp_body2d *bodies, int n, imp_bp2d *bp,
                              const imp_detect2d_params *p, double *boxes, imp_body2d_xf *xf);
int imp_collide2d_batch_skip(const imp_body2d *bodies, int i, int j, const unsigned char *still,
                             const imp_pairset *exclude, imp_collide2d_keep keep, const void *ctx);
int imp_collide2d_batch_pair(const imp_body2d *bodies, const imp_body2d_xf *xf, int clip,
                             const imp_detect2d_params *p, int i, int j, imp_hit2d *out, int capacity);

#endif
