/* broadphase2d.h: sort-and-sweep broad phase over axis-aligned boxes (Baraff 1992, "Dynamic
   simulation of non-penetrating rigid bodies", ch. 7: coherent sort of interval end points).

   The order of bodies by their boxes' lower x is kept between updates and repaired by
   insertion sort, near O(n) when bodies move a little per step (a full O(n log n) sort on the
   first update, after a size change, or when the insertion sort has to move too much).
   The sweep then visits, for each body, the bodies starting before it ends in x, and tests y:
   O(n + k) for k overlapping x intervals (for n bodies spread uniformly over a square, k grows
   like n^1.5). Candidate pairs (i < j) go into bp->pairs in sweep order, which depends on the
   boxes alone (ties in x are broken by index), so it is deterministic; set sort_pairs for
   ascending (i, j) order at an O(k + n) cost (two counting passes); with it (and 32 boxes or
   more) the pairs come from a uniform grid instead of the sweep (the same set: see
   broadphase2d_grid.c), about 10 candidates a box in a packing where the sweep's x runs visit
   100 (a pyramid's rows all overlap in x).
   No allocation per update once sized for the body count and the pair count. */
#ifndef IMPACT_BROADPHASE2D_H
#define IMPACT_BROADPHASE2D_H

#include "pairset.h"

typedef struct imp_bp2d_item {
    double key;
    int index;
} imp_bp2d_item;

typedef struct imp_bp2d {
    int n;              /* bodies at the last update */
    int cap;            /* sized for */
    imp_bp2d_item *scratch; /* (lower x, body index), ascending: the persistent order */
    double *sorted;     /* the boxes gathered in that order, 4 per body, for a sequential sweep */
    int *pairs;         /* 2 * npairs ids: pairs[2k] < pairs[2k + 1] */
    int npairs, pair_cap;
    long long shifts;   /* insertion-sort moves at the last update (statistics) */
    int full_sorts;     /* how many full sorts were needed so far */
    int sort_pairs;     /* option: list pairs in ascending order */
    int *pair_tmp;      /* sort_pairs' scratch: 2 * pair_cap pairs' ids, then n + 1 counts */
    int tmp_cap;        /* ints it holds */
    int *grid_box;      /* the grid's scratch (broadphase2d_grid.c): 4 cell bounds per box, */
    int grid_box_cap;   /* then the big boxes */
    int *grid_cell;     /* the cells' ends, then the boxes listed by cell */
    int grid_cell_cap;
} imp_bp2d;

#define IMP_BP2D_EMPTY {0, 0, NULL, NULL, NULL, 0, 0, 0, 0, 0, NULL, 0, NULL, 0, NULL, 0}

/* Updates with n boxes, boxes[4 i .. 4 i + 3] = {lo_x, lo_y, hi_x, hi_y} of body i (touching
   boxes overlap; a box with lo > hi on an axis is empty and never paired). Pairs listed in
   exclude (may be NULL) are left out. Returns the number of pairs, -1 when out of memory,
   -2 when a box holds a NaN. */
int imp_bp2d_update(imp_bp2d *bp, const double *boxes, int n, const imp_pairset *exclude);
void imp_bp2d_free(imp_bp2d *bp);

/* The parts (internal): the pairs of overlapping boxes by a uniform grid, appended to
   bp->pairs in no set order (broadphase2d_grid.c): 0, 1 when the grid does not apply (fewer
   than two boxes, non-finite bounds; the sweep then), -1 out of memory; one pair appended. */
int imp_bp2d_grid(imp_bp2d *bp, const double *boxes, int n, const imp_pairset *exclude);
int imp_bp2d_add_pair(imp_bp2d *bp, int a, int b);

#endif
