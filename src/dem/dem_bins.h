/* dem_bins.h: the dem collider's broad phase: the pairs of overlapping inflated boxes, found by
   binning (LIGGGHTS' neighbour bins) instead of the sort-and-sweep of broadphase3d.h.

   The same pairs and the same events as broadphase3d.h's sweep with imp_bp3d_set_refresh_all
   on and no exclusions (the dem's use of it): each box is inflated by the verlet distance; an
   update in which some box left its inflated copy inflates every box again about its tight box;
   the pairs are those whose inflated boxes overlap (open intervals: boxes that only touch do
   not); the begins and the ends of an update come sorted by (a, b), a < b. So the dem's
   interactions are made and erased in the same order as with the sweep, bit for bit.

   How: at each update with work to do, the boxes are counting-sorted into a uniform grid whose
   cell is the largest extent of the ordinary boxes (each by its min corner: O(n), no binary
   search), and every box meets the boxes of the 27 cells about its own; boxes much larger than
   the others (walls: unbounded) meet every box. The new pairs, sorted, are merged with the old
   ones for the events: O(n + pairs) an update, against the sweep's O(n + swaps), where a
   settling pile's layers pass each other's end points along the vertical at every update.
   A scene the grid suits badly (more than 32 large boxes, as a mesh of facets; boxes spread
   over far more cells than there are boxes; crowded cells) goes to the sweep for good, with the
   same pairs and events.

   Balls (imp_dem_bins_update_balls): boxes tagged as balls (a sphere's: a cube f r about its
   centre) pair with each other only when the balls their inflated boxes hold overlap, the
   centres closer than the sum of the inflated half-sides (f ra + v + f rb + v: LIGGGHTS' pairs
   within ra + rb + skin, skin = 2 v), not when the cubes overlap; and an update has work to do
   when a ball's sphere left the ball of its inflated box (imp_dem_ball_inside: a move of v in
   any direction, where the cube allows up to sqrt(3) v). Two spheres then cannot come within
   f (ra + rb) of each other between updates unless they were paired: their centres moved at
   most v - (f r - f r_run) each. Any other pair (a wall, a facet) stays a box pair. The sweep,
   when it takes over, has box pairs only (a superset: its first events add the rest). */
#ifndef IMPACT_DEM_BINS_H
#define IMPACT_DEM_BINS_H

typedef struct imp_dem_bins imp_dem_bins;

/* With the verlet distance (>= 0; a negative one is 0); NULL when out of memory. */
imp_dem_bins *imp_dem_bins_new(double verlet);
void imp_dem_bins_free(imp_dem_bins *b);
/* Updates with n tight boxes lo[3n], hi[3n] (a different n than the last update's, or the
   first update, starts again: every pair begins, the old ones end). Returns 0, or -1 when out
   of memory or a bound is NaN (the next update then starts again). */
int imp_dem_bins_update(imp_dem_bins *b, int n, const double *lo, const double *hi);
/* The same with the boxes i whose tag[i] == ball_tag as balls (above); a change of the tags
   starts again. */
int imp_dem_bins_update_balls(imp_dem_bins *b, int n, const double *lo, const double *hi,
                              const int *tag, int ball_tag);
/* 1 when the last update paired balls by distance (the grid in use, with tags): the inside test
   the caller must use for the balls is then imp_dem_ball_inside, else the boxes' */
int imp_dem_bins_balls(const imp_dem_bins *b);

/* A ball's inside test: the sphere of tight box l, h (a cube: its centre (l + h) / 2, its
   radius (h - l) / 2 along x) inside the ball of its inflated box sl, sh (the same from sl, sh);
   0 for a NaN. The caller's and the bins' test are this one, so they agree to the bit. */
static inline int imp_dem_ball_inside(const double *l, const double *h, const double *sl,
                                      const double *sh)
{
    double d0 = 0.5 * (l[0] + h[0]) - 0.5 * (sl[0] + sh[0]);
    double d1 = 0.5 * (l[1] + h[1]) - 0.5 * (sl[1] + sh[1]);
    double d2 = 0.5 * (l[2] + h[2]) - 0.5 * (sl[2] + sh[2]);
    double t = 0.5 * (sh[0] - sl[0]) - 0.5 * (h[0] - l[0]);
    return (t >= 0.0) & (d0 * d0 + d1 * d1 + d2 * d2 <= t * t);
}
/* The events of the last update: pairs (a < b) as 2 ints each, sorted; valid until the next. */
const int *imp_dem_bins_begins(const imp_dem_bins *b, int *count);
const int *imp_dem_bins_ends(const imp_dem_bins *b, int *count);
int imp_dem_bins_pair_count(const imp_dem_bins *b);
int imp_dem_bins_has_pair(const imp_dem_bins *b, int a, int c);
/* The inflated boxes (3 numbers per id each) and their count (0 before the first update). */
int imp_dem_bins_inflated(const imp_dem_bins *b, const double **lo, const double **hi);
/* 1 when the grid is in use, 0 when the sweep took over (a test's and a bench's measure) */
int imp_dem_bins_gridded(const imp_dem_bins *b);

#endif
