/* broadphase2d_grid.c: the uniform-grid pass of the 2D broad phase (see broadphase2d.h).

   Used when the pairs are wanted in ascending order (sort_pairs): then only the set matters,
   and a grid finds it without the sweep's long x runs (a pyramid's rows all overlap in x, so
   the sweep visits about 100 candidates a box there; the grid about 10).
   The cell is the mean largest side of the boxes (then a box covers about 4 cells and a cell
   holds about 4 boxes in a packing; the tests per box, (1 + r)^4 / (2 r^2) for cell / side r,
   are fewest at r = 1). Boxes wider or taller than 8 cells (a ground) are tested against
   every box instead (O(n) each). The grid spans the other boxes' bounds, with the cell grown
   until it has at most 4 n + 64 cells. A box goes into every cell its closed bounds touch;
   a pair is reported in one cell only: the one holding the lower corner of the two boxes'
   intersection, max(lo), whose cell is max(cell(lo)) as the cell index is monotone in x and y.
   So each overlapping pair comes once, as the sweep gives it. O(n + cells + entries + tests). */
#include "broadphase2d.h"
#include "resize.h"

#include <math.h>
#include <stdlib.h>

static int grow(int **buf, int *cap, size_t need)
{
    return need > (size_t)1 << 30 ? -1 : imp_grow(buf, cap, (int)need, sizeof **buf);
}

static int empty(const double *b)
{
    return b[2] < b[0] || b[3] < b[1];
}

static int overlap(const double *a, const double *b)
{
    return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

/* the pair's test after the boxes overlap: the exclusions, then the list */
static int report(imp_bp2d *bp, int a, int b, const imp_pairset *exclude)
{
    if (exclude != NULL && imp_pairset_contains(exclude, a, b)) {
        return 0;
    }
    return imp_bp2d_add_pair(bp, a, b);
}

/* each gridded box's cells: counted into at[cell] (list NULL), or listed at at[cell]++ */
static void cell_pass(const int *range, int n, int gx, int *at, int *list)
{
    for (int i = 0; i < n; i++) {
        const int *r = range + 4 * i;
        if (r[0] < 0) {
            continue;
        }
        for (int y = r[1]; y <= r[3]; y++) {
            for (int x = r[0]; x <= r[2]; x++) {
                int *c = &at[(size_t)y * gx + x];
                if (list == NULL) {
                    (*c)++;
                } else {
                    list[(*c)++] = i;
                }
            }
        }
    }
}

int imp_bp2d_grid(imp_bp2d *bp, const double *boxes, int n, const imp_pairset *exclude)
{
    /* the cell: the mean largest side of the finite non-empty boxes */
    double side = 0.0;
    int count = 0;
    for (int i = 0; i < n; i++) {
        const double *b = boxes + 4 * i;
        if (!empty(b)) {
            double w = b[2] - b[0], h = b[3] - b[1];
            side += w > h ? w : h;
            count++;
        }
    }
    if (count < 2 || !isfinite(side) || !(side > 0.0)) {
        return 1;  /* the sweep */
    }
    double cell = side / count, big = 8.0 * cell;
    if (grow(&bp->grid_box, &bp->grid_box_cap, 5 * (size_t)n + 1) != 0) {
        return -1;
    }
    int *range = bp->grid_box, *bigs = bp->grid_box + 4 * (size_t)n, nbig = 0;
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (int i = 0; i < n; i++) {
        const double *b = boxes + 4 * i;
        range[4 * i] = -1;  /* not in the grid (empty or big) */
        if (empty(b)) {
            continue;
        }
        if (b[2] - b[0] > big || b[3] - b[1] > big) {
            bigs[nbig++] = i;
            continue;
        }
        range[4 * i] = 0;
        x0 = b[0] < x0 ? b[0] : x0, y0 = b[1] < y0 ? b[1] : y0;
        x1 = b[2] > x1 ? b[2] : x1, y1 = b[3] > y1 ? b[3] : y1;
    }
    double fx = 1.0, fy = 1.0, inv = 1.0 / cell, limit = 4.0 * n + 64;
    if (x1 >= x0) {
        fx = floor((x1 - x0) * inv) + 1.0, fy = floor((y1 - y0) * inv) + 1.0;
        if (!isfinite(fx * fy)) {
            return 1;
        }
        for (int k = 0; k < 16 && fx * fy > limit; k++) {  /* a sparse scene: larger cells */
            inv *= sqrt(limit / (fx * fy)) * 0.999;
            fx = floor((x1 - x0) * inv) + 1.0, fy = floor((y1 - y0) * inv) + 1.0;
        }
    }
    int gx = (int)fx, gy = (int)fy;
    if (fx * fy > limit || gx < 1 || gy < 1) {
        return 1;
    }
    size_t ncell = (size_t)gx * (size_t)gy, entries = 0;
    for (int i = 0; i < n; i++) {
        if (range[4 * i] < 0) {
            continue;
        }
        const double *b = boxes + 4 * i;
        int cx0 = (int)((b[0] - x0) * inv), cy0 = (int)((b[1] - y0) * inv);
        int cx1 = (int)((b[2] - x0) * inv), cy1 = (int)((b[3] - y0) * inv);
        cx1 = cx1 < gx ? cx1 : gx - 1, cy1 = cy1 < gy ? cy1 : gy - 1;
        cx0 = cx0 < cx1 ? cx0 : cx1, cy0 = cy0 < cy1 ? cy0 : cy1;
        range[4 * i] = cx0, range[4 * i + 1] = cy0, range[4 * i + 2] = cx1, range[4 * i + 3] = cy1;
        entries += (size_t)(cx1 - cx0 + 1) * (size_t)(cy1 - cy0 + 1);
    }
    if (grow(&bp->grid_cell, &bp->grid_cell_cap, ncell + 1 + entries) != 0) {
        return -1;
    }
    /* counting sort of (cell, box) by cell, boxes ascending within a cell */
    int *start = bp->grid_cell, *list = bp->grid_cell + ncell + 1;
    for (size_t c = 0; c <= ncell; c++) {
        start[c] = 0;
    }
    cell_pass(range, n, gx, start + 1, NULL);
    for (size_t c = 0; c < ncell; c++) {
        start[c + 1] += start[c];
    }
    cell_pass(range, n, gx, start, list);
    /* start[c] is now cell c's end; cell c begins at start[c - 1] (0 for c = 0) */
    for (int y = 0; y < gy; y++) {
        for (int x = 0; x < gx; x++) {
            size_t c = (size_t)y * gx + x;
            int lo = c > 0 ? start[c - 1] : 0, hi = start[c];
            for (int s = lo; s < hi; s++) {
                int a = list[s];
                const int *ra = range + 4 * a;
                const double *ba = boxes + 4 * a;
                for (int t = s + 1; t < hi; t++) {
                    int b = list[t];
                    const int *rb = range + 4 * b;
                    if ((ra[0] > rb[0] ? ra[0] : rb[0]) != x || (ra[1] > rb[1] ? ra[1] : rb[1]) != y
                        || !overlap(ba, boxes + 4 * b)) {
                        continue;
                    }
                    if (report(bp, a, b, exclude) != 0) {
                        return -1;
                    }
                }
            }
        }
    }
    /* the big boxes against every other non-empty box, each pair once */
    for (int k = 0; k < nbig; k++) {
        int a = bigs[k];
        for (int b = 0; b < n; b++) {
            int b_big = range[4 * b] < 0 && !empty(boxes + 4 * b);
            if (b == a || empty(boxes + 4 * b) || (b_big && b < a)
                || !overlap(boxes + 4 * a, boxes + 4 * b)) {
                continue;
            }
            if (report(bp, a, b, exclude) != 0) {
                return -1;
            }
        }
    }
    return 0;
}
