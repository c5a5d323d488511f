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
   same pairs and events. */
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
