/* dem_bins.c: the dem collider's binned broad phase (see dem_bins.h).

   Why the grid finds every pair: a cell's side h is at least the largest extent of the boxes
   binned, so two such boxes that overlap have min corners less than h apart on every axis
   (la < hb <= lb + h and the reverse), hence cells at most one apart (the cell index is
   computed with h enlarged by a millionth, which covers its rounding, and clamped to the grid,
   which keeps indices at most one apart). The pairs of an update are made box by box in id
   order, each box a with the boxes b > a about it, sorted: the list of pairs comes sorted, and
   one merge with the last update's gives the begins and the ends in order. */
#include "box3.h"
#include "dem_bins.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "broadphase3d.h"
#include "pairset.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(IMPACT_NO_SIMD)
#define HAVE_SCAN_AVX2 1
#include "avx2.h"
#else
#define HAVE_SCAN_AVX2 0
#endif

/* PAD: the boxes' and balls' arrays (box, qb) have room for 3 numbers past each coordinate's
   last box, NaN there (make_grid), so that the four-box scan reads four boxes from any q <= the
   last and compares false in the lanes past it */
enum { MAX_BIG = 32, XSPLIT = 4, PAD = 3 };

struct imp_dem_bins {
    double verlet;
    int n, cap, built;
    size_t stride;        /* cap + PAD: the distance between two coordinates' arrays in box, qb */
    double *lo, *hi;      /* the inflated boxes, 3 numbers per id */
    imp_bp3d *sweep;      /* non-NULL: the sweep took over (the grid suits the scene badly) */
    int handed;           /* the last update handed over to the sweep: its events are here */
    uint64_t *cur, *nxt;  /* the pairs of the last update and of this one, sorted (a << 32 | b) */
    size_t ncur, nnxt, ccur, cnxt;
    uint64_t *raw;        /* this update's pairs as found */
    size_t nraw, craw;
    int *begins, *ends;   /* events, 2 ints each */
    size_t nbegins, nends, cbegins, cends;
    /* the grid (per update): a box's cell (-1: large), the cells' first entries, the ids and
       the boxes in cell order, the large boxes, the pairs' offsets by first box (n + 1) */
    int *cell, *start, *ids, *big, *off;
    double *box;          /* the boxes in cell order, by coordinate: lo x, y, z, hi x, y, z
                             (6 arrays of stride numbers) */
    unsigned char *ball;  /* 1: a ball (dem_bins.h), by id */
    double *bc, *br;      /* the balls' centres (3 per id) and reaches at the last update */
    double *qb;           /* the balls in cell order: x, y, z, reach (4 arrays of stride; reach
                             -1: not a ball) */
    int balls;            /* the last update's pairs of balls are by distance */
    int simd;             /* this update's scan four boxes at a time (imp_dem_balls.simd) */
    size_t cstart;
    int nbig, d[3];
    double org[3], inv[3], h; /* the grid's corner, 1 / its cells' sides, the largest extent */
};

imp_dem_bins *imp_dem_bins_new(double verlet)
{
    imp_dem_bins *b = calloc(1, sizeof *b);
    if (b != NULL) {
        b->verlet = verlet > 0.0 ? verlet : 0.0;
    }
    return b;
}

void imp_dem_bins_free(imp_dem_bins *b)
{
    if (b == NULL) {
        return;
    }
    imp_bp3d_free(b->sweep);
    free(b->lo), free(b->hi), free(b->cur), free(b->nxt), free(b->begins), free(b->ends);
    free(b->cell), free(b->start), free(b->ids), free(b->big), free(b->off), free(b->box);
    free(b->raw), free(b->ball), free(b->bc), free(b->br), free(b->qb);
    free(b);
}

/* room for n boxes; 0 or -1 */
static int reserve(imp_dem_bins *b, int n)
{
    if (n <= b->cap && b->off != NULL) {
        return 0;
    }
    size_t c = n > 0 ? (size_t)n : 1;  /* 0 boxes: still arrays (off has n + 1 entries) */
    double *lo = realloc(b->lo, 3 * c * sizeof *lo);
    if (lo != NULL) b->lo = lo;
    double *hi = realloc(b->hi, 3 * c * sizeof *hi);
    if (hi != NULL) b->hi = hi;
    double *box = realloc(b->box, 6 * (c + PAD) * sizeof *box);
    if (box != NULL) b->box = box;
    int *cell = realloc(b->cell, c * sizeof *cell);
    if (cell != NULL) b->cell = cell;
    int *ids = realloc(b->ids, c * sizeof *ids);
    if (ids != NULL) b->ids = ids;
    int *big = realloc(b->big, c * sizeof *big);
    if (big != NULL) b->big = big;
    int *off = realloc(b->off, (c + 1) * sizeof *off);
    if (off != NULL) b->off = off;
    unsigned char *ball = realloc(b->ball, c);
    if (ball != NULL) b->ball = ball;
    double *bc = realloc(b->bc, 3 * c * sizeof *bc);
    if (bc != NULL) b->bc = bc;
    double *br = realloc(b->br, c * sizeof *br);
    if (br != NULL) b->br = br;
    double *qb = realloc(b->qb, 4 * (c + PAD) * sizeof *qb);
    if (qb != NULL) b->qb = qb;
    if (!(lo && hi && box && cell && ids && big && off && ball && bc && br && qb)) {
        return -1;
    }
    b->cap = (int)c;
    b->stride = c + PAD;
    return 0;
}

/* a with room for m entries of size bytes, its capacity *c doubling: a, a larger copy, or NULL
   when out of memory (a is then kept) */
static void *grow(void *a, size_t *c, size_t m, size_t size)
{
    if (m <= *c && a != NULL) {
        return a;
    }
    size_t nc = *c ? *c : 1024;
    while (nc < m) {
        nc *= 2;
    }
    void *p = realloc(a, nc * size);
    if (p != NULL) {
        *c = nc;
    }
    return p;
}

/* two inflated balls overlap: centres closer than the sum of their reaches (dem_bins.h) */
static inline int balls_meet(double ax, double ay, double az, double ra, double bx, double by,
                             double bz, double rb)
{
    double d0 = ax - bx, d1 = ay - by, d2 = az - bz, s = ra + rb;
    return d0 * d0 + d1 * d1 + d2 * d2 < s * s;
}

/* boxes a and c of the last update pair: their inflated boxes overlap and, both balls, so do
   their balls */
static int meets(const imp_dem_bins *b, int a, int c)
{
    const double *la = b->lo + 3 * a, *ha = b->hi + 3 * a, *lc = b->lo + 3 * c, *hc = b->hi + 3 * c;
    const double *ca = b->bc + 3 * a, *cc = b->bc + 3 * c;
    return imp_box3_cross(la, ha, lc, hc)
           && !(b->balls && b->ball[a] && b->ball[c]
                && !balls_meet(ca[0], ca[1], ca[2], b->br[a], cc[0], cc[1], cc[2], b->br[c]));
}

/* the cell index along an axis of a bound v (monotone in v, clamped to 0 .. d - 1) */
static inline int cell_index(double v, double org, double inv, int d)
{
    double t = (v - org) * inv;
    return t >= 0.0 ? (t < d ? (int)t : d - 1) : 0;  /* t < d: also false for a NaN */
}

/* a box's largest extent (infinite or NaN when a bound is infinite) */
static inline double extent(const double *l, const double *u)
{
    double e0 = u[0] - l[0], e1 = u[1] - l[1], e2 = u[2] - l[2];
    double e = e0 > e1 ? e0 : e1;
    return isnan(e0) || isnan(e1) ? NAN : (e > e2 || isnan(e2) ? (isnan(e2) ? NAN : e) : e2);
}

/* The grid of the inflated boxes: 0, 1 when it suits them badly (more than MAX_BIG large
   boxes, far more cells than boxes, crowded cells, no extent), -1 when out of memory. */
static int make_grid(imp_dem_bins *b)
{
    const int n = b->n;
    const double *lo = b->lo, *hi = b->hi;
    double mean = 0.0, h = 0.0;
    double org[3] = {INFINITY, INFINITY, INFINITY}, top[3] = {-INFINITY, -INFINITY, -INFINITY};
    int cnt = 0;
    for (int i = 0; i < n; i++) {
        const double *l = lo + 3 * i, *u = hi + 3 * i;
        double e = extent(l, u);
        if (isfinite(e)) {
            mean += e;
            cnt++;
        }
    }
    mean = cnt > 0 ? mean / cnt : 0.0;
    int nbig = 0;
    for (int i = 0; i < n; i++) {
        const double *l = lo + 3 * i, *u = hi + 3 * i;
        double e = extent(l, u);
        if (isfinite(e) && e <= 8.0 * mean) {  /* finite bounds: a finite extent */
            h = e > h ? e : h;  /* NaN-free here: no fmin, fmax calls */
            for (int k = 0; k < 3; k++) {
                org[k] = l[k] < org[k] ? l[k] : org[k];
                top[k] = l[k] > top[k] ? l[k] : top[k];
            }
            b->cell[i] = 0;
        } else {
            if (nbig == MAX_BIG) {
                return 1;
            }
            b->big[nbig++] = i;
            b->cell[i] = -1;
        }
    }
    b->nbig = nbig;
    const int nsmall = n - nbig;
    if (nsmall == 0) {
        b->d[0] = b->d[1] = b->d[2] = 0;
        return 0;
    }
    if (!(h > 0.0)) {
        return 1;
    }
    /* cells of side h (enlarged by a millionth) in y and z, h / XSPLIT in x: a row of cells
       along x is one range in memory, and the part of it a box can meet is narrower */
    const double inv = 1.0 / (h * (1.0 + 1e-6));
    b->inv[0] = XSPLIT * inv, b->inv[1] = b->inv[2] = inv, b->h = h;
    double cells = 1.0;
    for (int k = 0; k < 3; k++) {
        double dk = floor((top[k] - org[k]) * b->inv[k]) + 1.0;
        cells *= dk;
        if (!(cells <= 4.0 * XSPLIT * nsmall + 4096.0)) {
            return 1;
        }
        b->d[k] = (int)dk;
        b->org[k] = org[k];
    }
    size_t ncells = (size_t)cells;
    int *start = grow(b->start, &b->cstart, ncells + 1, sizeof *start);
    if (start == NULL) {
        return -1;
    }
    b->start = start;
    for (size_t c = 0; c <= ncells; c++) {
        start[c] = 0;
    }
    const int d0 = b->d[0], d1 = b->d[1], d2 = b->d[2];
    for (int i = 0; i < n; i++) {
        if (b->cell[i] < 0) {
            continue;
        }
        const double *l = lo + 3 * i;
        int x = cell_index(l[0], org[0], b->inv[0], d0), y = cell_index(l[1], org[1], inv, d1);
        int z = cell_index(l[2], org[2], inv, d2);
        int c = (z * d1 + y) * d0 + x;
        b->cell[i] = c;
        start[c + 1]++;
    }
    /* counting sort (stable: ids ascending in a cell); crowded cells make the sweep better */
    double crowd = 0.0;
    for (size_t c = 0; c < ncells; c++) {
        crowd += (double)start[c + 1] * start[c + 1];
        start[c + 1] += start[c];
    }
    if (crowd > 4.0 * nsmall + 4096.0) {
        return 1;
    }
    for (int i = 0; i < n; i++) {
        int c = b->cell[i];
        if (c >= 0) {
            int q = start[c]++;
            b->ids[q] = i;
            double *bx = b->box + q, *qb = b->qb + q;
            const size_t m = b->stride;
            if (b->balls && b->ball[i]) {
                qb[0] = b->bc[3 * i], qb[m] = b->bc[3 * i + 1], qb[2 * m] = b->bc[3 * i + 2];
                qb[3 * m] = b->br[i];
            } else {
                qb[3 * m] = -1.0;
            }
            bx[0] = lo[3 * i], bx[m] = lo[3 * i + 1], bx[2 * m] = lo[3 * i + 2];
            bx[3 * m] = hi[3 * i], bx[4 * m] = hi[3 * i + 1], bx[5 * m] = hi[3 * i + 2];
        }
    }
    for (size_t c = ncells; c > 0; c--) {  /* start[c] was moved to the end of cell c */
        start[c] = start[c - 1];
    }
    start[0] = 0;
    const size_t m = b->stride;  /* the padding after each coordinate's boxes (PAD) */
    for (size_t q = (size_t)nsmall; q < (size_t)nsmall + PAD; q++) {
        for (size_t k = 0; k < 6; k++) {
            b->box[k * m + q] = NAN;
        }
        for (size_t k = 0; k < 4; k++) {
            b->qb[k * m + q] = NAN;
        }
    }
    return 0;
}

/* room for m more raw pairs; 0 or -1 */
static int raw_room(imp_dem_bins *b, size_t m)
{
    uint64_t *p = grow(b->raw, &b->craw, b->nraw + m, sizeof *p);
    if (p == NULL) {
        return -1;
    }
    b->raw = p;
    return 0;
}

static inline uint64_t key_of(int a, int c)
{
    return a < c ? (uint64_t)(uint32_t)a << 32 | (uint32_t)c
                 : (uint64_t)(uint32_t)c << 32 | (uint32_t)a;
}

/* the boxes q0 <= q < q1 (in cell order) that overlap la, ha (and, both balls when a's ball
   ca, ra is one (ra >= 0), whose balls meet it): their pairs with a into raw at m (room made by
   the caller); the new m */
static inline __attribute__((always_inline)) size_t scan(const imp_dem_bins *b, int q0, int q1,
                                                         int a, const double *la,
                                                         const double *ha, const double *ca,
                                                         double ra, size_t m)
{
    const size_t c = b->stride;
    const double *bx = b->box, *qb = b->qb;
    const int *ids = b->ids;
    uint64_t *raw = b->raw;
    for (int q = q0; q < q1; q++) {
        if ((bx[q] < ha[0]) & (la[0] < bx[3 * c + q]) & (bx[c + q] < ha[1])
            & (la[1] < bx[4 * c + q]) & (bx[2 * c + q] < ha[2]) & (la[2] < bx[5 * c + q])) {
            const double rq = qb[3 * c + q];
            if (ra >= 0.0 && rq >= 0.0
                && !balls_meet(ca[0], ca[1], ca[2], ra, qb[q], qb[c + q], qb[2 * c + q], rq)) {
                continue;
            }
            raw[m++] = key_of(a, ids[q]);
        }
    }
    return m;
}

/* the cell rows a box of the grid meets beyond its own: (y + 1, z) and (y - 1 .. y + 1,
   z + 1); their number */
static int rows_after(const imp_dem_bins *b, int y, int z, int *row)
{
    const int d1 = b->d[1], d2 = b->d[2];
    int nr = 0;
    if (y + 1 < d1) {
        row[nr++] = z * d1 + y + 1;
    }
    if (z + 1 < d2) {
        for (int yy = y > 0 ? y - 1 : 0; yy <= y + 1 && yy < d1; yy++) {
            row[nr++] = (z + 1) * d1 + yy;
        }
    }
    return nr;
}

/* The large boxes' pairs into raw: with the boxes of the grid in the cells they can meet (a box
   b meets g only when g's lo - h < b's lo < g's hi on every axis), and with each other. */
static int big_pairs(imp_dem_bins *b)
{
    const int d0 = b->d[0], d1 = b->d[1], d2 = b->d[2];
    for (int i = 0; i < b->nbig; i++) {
        const int g = b->big[i];
        const double *lg = b->lo + 3 * g, *hg = b->hi + 3 * g;
        for (int j = i + 1; j < b->nbig; j++) {
            const int o = b->big[j];
            if (meets(b, g, o)) {
                if (raw_room(b, 1) != 0) {
                    return -1;
                }
                b->raw[b->nraw++] = key_of(g, o);
            }
        }
        if (d0 == 0) {
            continue;
        }
        int c0[3], c1[3];
        for (int k = 0; k < 3; k++) {
            c0[k] = cell_index(lg[k] - b->h, b->org[k], b->inv[k], b->d[k]);
            c1[k] = cell_index(hg[k], b->org[k], b->inv[k], b->d[k]);
        }
        for (int z = c0[2]; z <= c1[2]; z++) {
            for (int y = c0[1]; y <= c1[1]; y++) {
                const int row = (z * d1 + y) * d0;
                const int q0 = b->start[row + c0[0]], q1 = b->start[row + c1[0] + 1];
                if (raw_room(b, (size_t)(q1 - q0)) != 0) {
                    return -1;
                }
                b->nraw = scan(b, q0, q1, g, lg, hg, b->bc + 3 * g,
                               b->balls && b->ball[g] ? b->br[g] : -1.0, b->nraw);
            }
        }
        (void)d2;
    }
    return 0;
}

/* The ranges (in cell order) of the boxes the grid's box q, in the row of cells own, meets
   after it: the boxes after it in its own row of cells along x, then those of the rows after it
   (rows_after, row[0..nr-1]), in the part of each row it can meet (lo - h < b's lo < hi along
   x): q0[k] <= q < q1[k], k < nr + 1 */
static inline __attribute__((always_inline)) void box_ranges(const imp_dem_bins *b, int q,
                                                             int own, const int *row, int nr,
                                                             int *q0, int *q1)
{
    const size_t cap = b->stride;
    const int d0 = b->d[0], *start = b->start;
    const int x0 = cell_index(b->box[q] - b->h, b->org[0], b->inv[0], d0);
    const int x1 = cell_index(b->box[3 * cap + q], b->org[0], b->inv[0], d0) + 1;
    q0[0] = q + 1, q1[0] = start[own + x1];
    for (int r = 0; r < nr; r++) {
        q0[r + 1] = start[row[r] * d0 + x0], q1[r + 1] = start[row[r] * d0 + x1];
    }
}

/* the pairs of the grid's boxes s <= q < e (one row of cells, own) with the boxes they meet
   after them (box_ranges) into raw at m (room made by the caller); the new m */
static size_t row_pairs(const imp_dem_bins *b, int s, int e, int own, const int *row, int nr,
                        size_t m)
{
    const size_t cap = b->stride;
    for (int q = s; q < e; q++) {
        const double la[3] = {b->box[q], b->box[cap + q], b->box[2 * cap + q]};
        const double ha[3] = {b->box[3 * cap + q], b->box[4 * cap + q], b->box[5 * cap + q]};
        const double ca[3] = {b->qb[q], b->qb[cap + q], b->qb[2 * cap + q]};
        int q0[5], q1[5];
        box_ranges(b, q, own, row, nr, q0, q1);
        for (int k = 0; k <= nr; k++) {
            m = scan(b, q0[k], q1[k], b->ids[q], la, ha, ca, b->qb[3 * cap + q], m);
        }
    }
    return m;
}

#if HAVE_SCAN_AVX2
/* row_pairs with each range tested four boxes at a time: the boxes' bounds and balls stored by
   coordinate, the same ordered comparisons and for two balls the same differences, squares and
   sums in the same order (balls_meet), so the same pairs, pushed in the same order; the lanes
   past a range's end are left out (and past the last box read the padding, NaN: PAD) */
static AVX2 size_t row_pairs_avx2(const imp_dem_bins *b, int s, int e, int own, const int *row,
                                  int nr, size_t m)
{
    const size_t c = b->stride;
    const double *bx = b->box, *qb = b->qb;
    const int *ids = b->ids;
    uint64_t *raw = b->raw;
    const v4 zero = _mm256_setzero_pd();
    for (int q = s; q < e; q++) {
        const v4 l0 = _mm256_set1_pd(bx[q]), l1 = _mm256_set1_pd(bx[c + q]);
        const v4 l2 = _mm256_set1_pd(bx[2 * c + q]), h0 = _mm256_set1_pd(bx[3 * c + q]);
        const v4 h1 = _mm256_set1_pd(bx[4 * c + q]), h2 = _mm256_set1_pd(bx[5 * c + q]);
        const v4 c0 = _mm256_set1_pd(qb[q]), c1 = _mm256_set1_pd(qb[c + q]);
        const v4 c2 = _mm256_set1_pd(qb[2 * c + q]), vr = _mm256_set1_pd(qb[3 * c + q]);
        const int a = ids[q], aball = qb[3 * c + q] >= 0.0;
        int q0[5], q1[5];
        box_ranges(b, q, own, row, nr, q0, q1);
        for (int k = 0; k <= nr; k++) {
            for (int p = q0[k]; p < q1[k]; p += 4) {
                const v4 in = _mm256_and_pd(
                    _mm256_and_pd(
                        _mm256_and_pd(_mm256_cmp_pd(_mm256_loadu_pd(bx + p), h0, _CMP_LT_OQ),
                                      _mm256_cmp_pd(l0, _mm256_loadu_pd(bx + 3 * c + p), _CMP_LT_OQ)),
                        _mm256_and_pd(_mm256_cmp_pd(_mm256_loadu_pd(bx + c + p), h1, _CMP_LT_OQ),
                                      _mm256_cmp_pd(l1, _mm256_loadu_pd(bx + 4 * c + p), _CMP_LT_OQ))),
                    _mm256_and_pd(_mm256_cmp_pd(_mm256_loadu_pd(bx + 2 * c + p), h2, _CMP_LT_OQ),
                                  _mm256_cmp_pd(l2, _mm256_loadu_pd(bx + 5 * c + p), _CMP_LT_OQ)));
                const int left = q1[k] - p;
                int mask = _mm256_movemask_pd(in) & (left >= 4 ? 0xf : (1 << left) - 1);
                if (mask != 0 && aball) {  /* both balls and apart: no pair */
                    const v4 rq = _mm256_loadu_pd(qb + 3 * c + p);
                    const v4 d0 = sub(c0, _mm256_loadu_pd(qb + p));
                    const v4 d1 = sub(c1, _mm256_loadu_pd(qb + c + p));
                    const v4 d2 = sub(c2, _mm256_loadu_pd(qb + 2 * c + p)), sr = add(vr, rq);
                    const v4 dd = add(add(mul(d0, d0), mul(d1, d1)), mul(d2, d2));
                    mask &= ~_mm256_movemask_pd(
                        _mm256_and_pd(_mm256_cmp_pd(rq, zero, _CMP_GE_OQ),
                                      _mm256_cmp_pd(dd, mul(sr, sr), _CMP_NLT_UQ)));
                }
                while (mask != 0) {
                    const int j = __builtin_ctz((unsigned)mask);
                    mask &= mask - 1;
                    raw[m++] = key_of(a, ids[p + j]);
                }
            }
        }
    }
    return m;
}
#endif

/* The pairs, each met once, unsorted into raw: the grid's boxes row of cells by row
   (row_pairs), the large boxes by big_pairs. 0 or -1. */
static int grid_pairs(imp_dem_bins *b)
{
    const int d0 = b->d[0], d1 = b->d[1], d2 = b->d[2];
    const int *start = b->start;
    b->nraw = 0;
    for (int z = 0; z < d2; z++) {
        for (int y = 0; y < d1; y++) {
            const int own = (z * d1 + y) * d0, s = start[own], e = start[own + d0];
            if (s == e) {
                continue;
            }
            int row[4];
            const int nr = rows_after(b, y, z, row);
            size_t most = (size_t)(e - s);
            for (int r = 0; r < nr; r++) {
                most += (size_t)(start[(row[r] + 1) * d0] - start[row[r] * d0]);
            }
            if (raw_room(b, (size_t)(e - s) * most) != 0) {
                return -1;
            }
#if HAVE_SCAN_AVX2
            if (b->simd) {
                b->nraw = row_pairs_avx2(b, s, e, own, row, nr, b->nraw);
                continue;
            }
#endif
            b->nraw = row_pairs(b, s, e, own, row, nr, b->nraw);
        }
    }
    return big_pairs(b);
}

/* raw's pairs sorted into nxt: a counting sort by their first box, then each box's few pairs by
   insertion; O(n + pairs). 0 or -1. */
static int sort_pairs(imp_dem_bins *b)
{
    const int n = b->n;
    const size_t m = b->nraw;
    int *off = b->off;
    uint64_t *p = grow(b->nxt, &b->cnxt, m, sizeof *p);
    if (p == NULL) {
        return -1;
    }
    b->nxt = p;
    for (int i = 0; i <= n; i++) {
        off[i] = 0;
    }
    for (size_t k = 0; k < m; k++) {
        off[(b->raw[k] >> 32) + 1]++;
    }
    for (int i = 0; i < n; i++) {
        off[i + 1] += off[i];
    }
    for (size_t k = 0; k < m; k++) {
        p[off[b->raw[k] >> 32]++] = b->raw[k];
    }
    /* off[i] is now the end of box i's pairs */
    for (int i = 0, s = 0; i < n; s = off[i++]) {
        for (int k = s + 1; k < off[i]; k++) {
            uint64_t v = p[k];
            int j = k - 1;
            for (; j >= s && p[j] > v; j--) {
                p[j + 1] = p[j];
            }
            p[j + 1] = v;
        }
    }
    b->nnxt = m;
    return 0;
}

static int push_event(int **arr, size_t *cnt, size_t *cap, uint64_t key)
{
    int *p = grow(*arr, cap, 2 * (*cnt + 1), sizeof *p);
    if (p == NULL) {
        return -1;
    }
    *arr = p;
    (*arr)[2 * *cnt] = (int)(key >> 32);
    (*arr)[2 * *cnt + 1] = (int)(key & 0xffffffffu);
    (*cnt)++;
    return 0;
}

/* the events: nxt against cur (both sorted), then nxt becomes cur; 0 or -1 */
static int diff(imp_dem_bins *b)
{
    size_t i = 0, j = 0;
    const uint64_t *o = b->cur, *p = b->nxt;
    while (i < b->ncur || j < b->nnxt) {
        if (j == b->nnxt || (i < b->ncur && o[i] < p[j])) {
            if (push_event(&b->ends, &b->nends, &b->cends, o[i++]) != 0) {
                return -1;
            }
        } else if (i == b->ncur || p[j] < o[i]) {
            if (push_event(&b->begins, &b->nbegins, &b->cbegins, p[j++]) != 0) {
                return -1;
            }
        } else {
            i++, j++;
        }
    }
    uint64_t *t = b->cur;
    size_t tc = b->ccur;
    b->cur = b->nxt, b->ccur = b->cnxt, b->ncur = b->nnxt;
    b->nxt = t, b->cnxt = tc, b->nnxt = 0;
    return 0;
}

/* The sweep takes over: made on the tight boxes, its pairs merged with the grid's last ones for
   this update's events (a query that allocates: once). 0 or -1. */
static int to_sweep(imp_dem_bins *b, int n, const double *lo, const double *hi)
{
    if ((b->sweep = imp_bp3d_new(b->verlet)) == NULL) {
        return -1;
    }
    imp_bp3d_set_refresh_all(b->sweep, 1);
    if (imp_bp3d_update(b->sweep, n, lo, hi) != 0) {
        return -1;
    }
    int count = imp_bp3d_pair_count(b->sweep);
    int *pairs = malloc((size_t)(count > 0 ? count : 1) * 2 * sizeof *pairs);
    uint64_t *p = grow(b->nxt, &b->cnxt, (size_t)count, sizeof *p);
    if (pairs == NULL || p == NULL) {
        free(pairs);
        return -1;
    }
    b->nxt = p;
    count = imp_bp3d_pairs(b->sweep, pairs, count);
    for (int k = 0; k < count; k++) {  /* sorted by a then b: key order */
        b->nxt[k] = (uint64_t)(uint32_t)pairs[2 * k] << 32 | (uint32_t)pairs[2 * k + 1];
    }
    free(pairs);
    b->nnxt = count > 0 ? (size_t)count : 0;
    b->handed = 1;
    return diff(b);
}

int imp_dem_bins_update(imp_dem_bins *b, int n, const double *lo, const double *hi)
{
    return imp_dem_bins_update_balls(b, n, lo, hi, NULL);
}

int imp_dem_bins_update_balls(imp_dem_bins *b, int n, const double *lo, const double *hi,
                              const imp_dem_balls *bl)
{
    b->nbegins = b->nends = 0;
    b->handed = 0;
    if (n < 0) {
        return -1;
    }
    if (b->sweep != NULL) {
        return imp_bp3d_update(b->sweep, n, lo, hi);
    }
    const double d = b->verlet;
    const int balls = bl != NULL;
    b->simd = balls && bl->simd;
    if (!b->built || n != b->n || balls != b->balls) {
        for (int i = 0; i < 3 * n; i++) {
            if (isnan(lo[i]) || isnan(hi[i])) {
                return -1;
            }
        }
        if (reserve(b, n) != 0) {
            return -1;
        }
        b->n = n;
    } else {
        /* nothing to do while every box lies inside its inflated copy, every ball inside its
           ball, and no tag changed; up to the first that left (negated tests: a NaN bound
           counts as having left, and fails the update below) */
        int moved = 0;
        for (int i = 0; i < n && !moved; i++) {
            const double *l = lo + 3 * i, *h = hi + 3 * i, *sl = b->lo + 3 * i, *sh = b->hi + 3 * i;
            const int ball = balls && bl->tag[i] == bl->ball_tag;
            const int inside =
                ball ? imp_dem_ball_inside(bl->centre + 3 * i, bl->scale * bl->radius[i],
                                           b->bc + 3 * i, b->br[i])
                     : (l[0] >= sl[0]) & (l[1] >= sl[1]) & (l[2] >= sl[2]) & (h[0] <= sh[0])
                           & (h[1] <= sh[1]) & (h[2] <= sh[2]);
            moved = (inside == 0) | (ball != b->ball[i]);
        }
        if (!moved) {
            return 0;
        }
    }
    int bad = 0;
    for (int i = 0; i < 3 * n; i++) {  /* every box inflated again; a NaN bound fails */
        b->lo[i] = lo[i] - d;
        b->hi[i] = hi[i] + d;
        bad |= isnan(lo[i]) | isnan(hi[i]);
    }
    if (bad) {
        b->built = 0;
        return -1;
    }
    b->balls = balls;
    for (int i = 0; i < n; i++) {
        b->ball[i] = balls && bl->tag[i] == bl->ball_tag;
        if (b->ball[i]) {
            memcpy(b->bc + 3 * i, bl->centre + 3 * i, 3 * sizeof *b->bc);
            b->br[i] = bl->scale * bl->radius[i] + d;
        }
    }
    b->built = 1;
    int g = make_grid(b);
    if (g < 0) {
        return -1;
    }
    if (g > 0) {
        return to_sweep(b, n, lo, hi);
    }
    if (grid_pairs(b) != 0 || sort_pairs(b) != 0) {
        return -1;
    }
    return diff(b);
}

const int *imp_dem_bins_begins(const imp_dem_bins *b, int *count)
{
    if (b->sweep != NULL && !b->handed) {
        return imp_bp3d_begins(b->sweep, count);
    }
    *count = (int)b->nbegins;
    return b->begins;
}

const int *imp_dem_bins_ends(const imp_dem_bins *b, int *count)
{
    if (b->sweep != NULL && !b->handed) {
        return imp_bp3d_ends(b->sweep, count);
    }
    *count = (int)b->nends;
    return b->ends;
}

int imp_dem_bins_pair_count(const imp_dem_bins *b)
{
    return b->sweep != NULL ? imp_bp3d_pair_count(b->sweep) : (int)b->ncur;
}

int imp_dem_bins_has_pair(const imp_dem_bins *b, int a, int c)
{
    if (b->sweep != NULL) {
        return imp_bp3d_has_pair(b->sweep, a, c);
    }
    if (b->built && a != c && a >= 0 && c >= 0 && a < b->n && c < b->n) {
        /* the pairs are those of the inflated boxes (and balls), unchanged since they were
           found */
        return meets(b, a, c);
    }
    const imp_pairset view = {b->cur, (int)b->ncur, (int)b->ccur};  /* the same keys, sorted */
    return imp_pairset_contains(&view, a, c);
}

int imp_dem_bins_inflated(const imp_dem_bins *b, const double **lo, const double **hi)
{
    if (b->sweep != NULL) {
        return imp_bp3d_inflated(b->sweep, lo, hi);
    }
    *lo = b->lo;
    *hi = b->hi;
    return b->built ? b->n : 0;
}

int imp_dem_bins_gridded(const imp_dem_bins *b) { return b->sweep == NULL; }

int imp_dem_bins_balls(const imp_dem_bins *b, const double **centre, const double **reach)
{
    *centre = b->bc;
    *reach = b->br;
    return b->sweep == NULL && b->built && b->balls;
}
