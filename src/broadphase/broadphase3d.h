/* broadphase3d.h: sort-and-sweep broad phase over 3D axis-aligned boxes with persistent,
   incrementally sorted end points (Yade's InsertionSortCollider).

   The caller owns the boxes (ids 0..n-1, tight AABBs of its shapes). The broad phase keeps an
   inflated copy of each box (tight box grown by the verlet distance) and refreshes it only when
   the tight box leaves it, on the axes it left (but with imp_bp3d_set_refresh_all), so pairs
   persist while bodies jiggle. Each update re-sorts the end
   points on the three axes by insertion sort (nearly sorted between steps: O(n + swaps)); a min
   end point passing a max end point (or the reverse) is where a pair can begin (or stop)
   overlapping. The pairs whose inflated boxes overlap are kept in a hash set; after an update
   the pairs that began and the pairs that ended are in caller-visible arrays.

   Exclusions (checked when a pair begins): boxes of the same body; pairs of bodies declared
   excluded (joined by a joint); collision groups (category and mask bits: a pair collides when
   (cat_a & mask_b) and (cat_b & mask_a) are both non-zero); and an optional user filter.
   Changing exclusions affects pairs that begin afterwards; imp_bp3d_rebuild re-applies them to
   every pair (reporting the differences as begin/end events).

   No allocation in an update once sized, except when the pair set or the event lists outgrow
   their capacity (they double, so this stops after the first steps). Deterministic: the
   events come in an order fixed by the input. */
#ifndef IMPACT_BROADPHASE3D_H
#define IMPACT_BROADPHASE3D_H

#include <stdint.h>

typedef struct imp_bp3d imp_bp3d;

/* returns non-zero when boxes a and b may collide */
typedef int (*imp_bp3d_filter)(void *user, int a, int b);

/* A broad phase with the given verlet distance (>= 0); NULL when out of memory. */
imp_bp3d *imp_bp3d_new(double verlet);
void imp_bp3d_free(imp_bp3d *bp);

/* Per-box attributes (defaults: body = id, category = 1, mask = all bits). They apply to pairs
   that begin afterwards. Return 0, or -1 when the id is outside the current box count (call
   after the first update, or use imp_bp3d_reserve). */
int imp_bp3d_reserve(imp_bp3d *bp, int n);
int imp_bp3d_set_body(imp_bp3d *bp, int id, int body);
int imp_bp3d_set_groups(imp_bp3d *bp, int id, uint32_t category, uint32_t mask);
/* Pairs of bodies that never collide (e.g. joined by a joint); 0 or -1 (out of memory). */
int imp_bp3d_exclude_bodies(imp_bp3d *bp, int body_a, int body_b);
void imp_bp3d_include_bodies(imp_bp3d *bp, int body_a, int body_b);
void imp_bp3d_set_filter(imp_bp3d *bp, imp_bp3d_filter fn, void *user);

/* on = 1: an update in which some box left its inflated copy inflates every box again about
   its tight box (Yade's InsertionSortCollider, LIGGGHTS' neighbour lists), so the next update
   with work to do comes only when some box moved the verlet distance since this one: fewer
   updates of O(n), each sorting every box (O(n + swaps)). 0 (the default): only the boxes that
   left are inflated again. Either way the pairs are those of overlapping inflated boxes. */
void imp_bp3d_set_refresh_all(imp_bp3d *bp, int on);
/* q > 0 (best a power of two, then exact): each inflated copy's bounds rounded outward to
   multiples of q, so at most q larger on each side than the verlet distance makes them. Boxes
   whose tight bounds lie within one step of the grid then share their end points, and an
   update passes over equal end points without swapping them: where many boxes line up on an
   axis (a one-cube-thick wall: every box's y bounds; a row's z bounds), a box that left its
   copy is settled among them in O(1) rather than across all of them. 0 (the default): none.
   The pairs are those of the larger inflated boxes; set before the first update. */
void imp_bp3d_set_grid(imp_bp3d *bp, double q);
/* Updates with n tight boxes lo[3n], hi[3n] (the same n as before; a different n rebuilds from
   scratch). Returns 0, or -1 when out of memory or a bound is NaN. */
int imp_bp3d_update(imp_bp3d *bp, int n, const double *lo, const double *hi);
/* Re-sorts from scratch and re-applies the exclusions (O(n log n + pairs)). */
int imp_bp3d_rebuild(imp_bp3d *bp);

/* Events of the last update: pairs (a < b) as 2 ints each, sorted by a then b (the 3D
   detection's pair list relies on it); valid until the next update. */
const int *imp_bp3d_begins(const imp_bp3d *bp, int *count);
const int *imp_bp3d_ends(const imp_bp3d *bp, int *count);
/* All current pairs into out (2 ints each, sorted by a then b); returns the number of pairs,
   writing at most max of them (a query: it allocates a temporary; -1 when out of memory). */
int imp_bp3d_pairs(const imp_bp3d *bp, int *out, int max);
int imp_bp3d_pair_count(const imp_bp3d *bp);
int imp_bp3d_has_pair(const imp_bp3d *bp, int a, int b);
/* The inflated box kept for id. */
void imp_bp3d_box(const imp_bp3d *bp, int id, double lo[3], double hi[3]);
/* All inflated boxes (3 numbers per id each) and their count (0 before the first update): a
   caller that can make its tight boxes on the fly tells from them whether an update would do
   anything (it does nothing when every tight box lies inside its inflated copy, NaN-free). */
int imp_bp3d_inflated(const imp_bp3d *bp, const double **lo, const double **hi);
/* End-point swaps of the last update (a measure of its work). */
long imp_bp3d_swaps(const imp_bp3d *bp);

#endif
