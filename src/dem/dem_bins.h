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
   centre) pair with each other only when their balls inflated by the verlet distance v
   overlap, the centres closer than f ra + v + f rb + v (LIGGGHTS' pairs within ra + rb + skin,
   skin = 2 v), not when the cubes overlap; and an update has work to do when a sphere left its
   inflated ball (imp_dem_ball_inside: a move of v in any direction, where the cube allows up
   to sqrt(3) v). Two spheres then cannot come within
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
/* The events of the last update: pairs (a < b) as 2 ints each, sorted; valid until the next. */
const int *imp_dem_bins_begins(const imp_dem_bins *b, int *count);
const int *imp_dem_bins_ends(const imp_dem_bins *b, int *count);
int imp_dem_bins_pair_count(const imp_dem_bins *b);
int imp_dem_bins_has_pair(const imp_dem_bins *b, int a, int c);
/* The inflated boxes (3 numbers per id each) and their count (0 before the first update). */
int imp_dem_bins_inflated(const imp_dem_bins *b, const double **lo, const double **hi);
/* 1 when the grid is in use, 0 when the sweep took over (a test's and a bench's measure) */
int imp_dem_bins_gridded(const imp_dem_bins *b);
/* Balls for imp_dem_bins_update_balls: box i is a ball when tag[i] == ball_tag, about
   centre[3 i ..] with radius scale * radius[i] (a sphere's tight box holds that ball). simd: 1
   lets the grid's scan test four boxes at a time with AVX2 (the caller has checked that the
   processor runs it: the dem law's choice); the same pairs, in the same order, as 0. */
typedef struct imp_dem_balls {
    const double *centre, *radius;
    double scale;
    const int *tag;
    int ball_tag;
    int simd;
} imp_dem_balls;
/* The same as imp_dem_bins_update with balls (above; NULL: none); a change of the tags starts
   again. */
int imp_dem_bins_update_balls(imp_dem_bins *b, int n, const double *lo, const double *hi,
                              const imp_dem_balls *balls);
/* 1 when the last update paired balls by distance (the grid in use, with balls), with the
   balls' centres at that update (3 numbers per id) and reaches R = scale radius + verlet (per
   id; those of the other boxes are not set): the caller's inside test for a ball is then
   imp_dem_ball_inside, else the boxes'. 0 otherwise. */
int imp_dem_bins_balls(const imp_dem_bins *b, const double **centre, const double **reach);

/* A ball's inside test: the sphere about x of radius rho inside the ball about c of radius R
   (a move of at most R - rho); 0 for a NaN. The caller's and the bins' test are this one, so
   they agree to the bit. */
static inline int imp_dem_ball_inside(const double *x, double rho, const double *c, double R)
{
    double t = R - rho, d0 = x[0] - c[0], d1 = x[1] - c[1], d2 = x[2] - c[2];
    return (t >= 0.0) & (d0 * d0 + d1 * d1 + d2 * d2 <= t * t);
}

#endif
