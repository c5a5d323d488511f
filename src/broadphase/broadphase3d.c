/* broadphase3d.c: persistent sort-and-sweep with insertion sort (see broadphase3d.h).

   After Yade's InsertionSortCollider (Smilauer et al., Yade documentation, "Insertion sort
   collider"; the method is Baraff's "sweep and prune" with temporal coherence, Baraff 1992,
   Cohen et al. I-COLLIDE 1995).

   Pair bookkeeping within an update: a pair that may begin is inserted with the flag NEW (or
   a pair flagged DEAD earlier in the same update is revived); a pair that may end is flagged
   DEAD (or deleted at once when it was NEW). Each such pair is logged; at the end the NEW ones
   still present are the begins and the DEAD ones are the ends, so a pair that begins and ends
   within one update reports nothing. The overlap test at a swap uses the final boxes of the
   update, so every pair whose status changed is examined against its final status.

   Intervals are open: boxes that only touch do not overlap; at equal values a max end point
   sorts before a min end point, which keeps the swaps consistent with that test. */
#include "box3.h"
#include "broadphase3d.h"
#include "resize.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { F_NONE = 0, F_NEW = 1, F_DEAD = 2 };
#define EMPTY UINT64_MAX

typedef struct ep {
    double v;
    int id;
    int is_max;
} ep;

struct imp_bp3d {
    int n, cap, built;
    double verlet;
    double *lo, *hi; /* inflated boxes, 3 per id */
    int *body;
    uint32_t *cat, *mask;
    ep *ax[3];
    /* pair set: open addressing, linear probing */
    uint64_t *keys;
    unsigned char *flags;
    size_t hcap, hcount;
    /* excluded body pairs, sorted */
    uint64_t *excl;
    int nexcl, cexcl;
    imp_bp3d_filter filter;
    void *user;
    /* logs and events */
    uint64_t *lnew, *ldead;
    int nnew, cnew, ndead, cdead;
    int *begins, *ends;
    int nbegins, cbegins, nends, cends;
    int *active, *apos; /* rebuild sweep; active: the moved boxes in an update */
    int *at;              /* per id and axis: the indices of its min and max end points in ax[k]
                             (at[6 id + 2 k], at[6 id + 2 k + 1]) */
    long swaps;
    int oom;
    int refresh_all; /* imp_bp3d_set_refresh_all */
    double grid;     /* imp_bp3d_set_grid (0: none) */
};

static uint64_t pair_key(int a, int b)
{
    return a < b ? ((uint64_t)(uint32_t)a << 32) | (uint32_t)b : ((uint64_t)(uint32_t)b << 32) | (uint32_t)a;
}

static size_t slot_of(const imp_bp3d *bp, uint64_t key)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & (bp->hcap - 1);
}

/* the slot holding key, or (size_t)-1 */
static size_t find(const imp_bp3d *bp, uint64_t key)
{
    if (bp->hcap == 0) {
        return (size_t)-1;
    }
    for (size_t i = slot_of(bp, key);; i = (i + 1) & (bp->hcap - 1)) {
        if (bp->keys[i] == key) {
            return i;
        }
        if (bp->keys[i] == EMPTY) {
            return (size_t)-1;
        }
    }
}

static int grow_set(imp_bp3d *bp)
{
    /* from 64 slots, not 1024: one pair's set was 9 KB written whole (three pages touched in
       the first step, some 20 us each on a virtual machine); the order of the set's slots is
       never the pairs' (the walks over it sort what they take) */
    size_t ncap = bp->hcap ? 2 * bp->hcap : 64;
    uint64_t *keys = malloc(ncap * sizeof *keys);
    unsigned char *flags = malloc(ncap);
    if (keys == NULL || flags == NULL) {
        free(keys);
        free(flags);
        return -1;
    }
    uint64_t *ok = bp->keys;
    unsigned char *of = bp->flags;
    size_t ocap = bp->hcap;
    for (size_t i = 0; i < ncap; i++) {
        keys[i] = EMPTY;
    }
    bp->keys = keys;
    bp->flags = flags;
    bp->hcap = ncap;
    for (size_t i = 0; i < ocap; i++) {
        if (ok[i] != EMPTY) {
            size_t j = slot_of(bp, ok[i]);
            while (keys[j] != EMPTY) {
                j = (j + 1) & (ncap - 1);
            }
            keys[j] = ok[i];
            flags[j] = of[i];
        }
    }
    free(ok);
    free(of);
    return 0;
}

static int insert(imp_bp3d *bp, uint64_t key, unsigned char flag)
{
    if (2 * (bp->hcount + 1) > bp->hcap && grow_set(bp) != 0) {
        return -1;
    }
    size_t i = slot_of(bp, key);
    while (bp->keys[i] != EMPTY) {
        i = (i + 1) & (bp->hcap - 1);
    }
    bp->keys[i] = key;
    bp->flags[i] = flag;
    bp->hcount++;
    return 0;
}

/* deletion with backward shift (no tombstones) */
static void erase_slot(imp_bp3d *bp, size_t i)
{
    size_t mask = bp->hcap - 1;
    for (size_t j = (i + 1) & mask; bp->keys[j] != EMPTY; j = (j + 1) & mask) {
        size_t h = slot_of(bp, bp->keys[j]);
        /* move j back to i when its home h is not cyclically in (i, j] */
        if (((j - h) & mask) >= ((j - i) & mask)) {
            bp->keys[i] = bp->keys[j];
            bp->flags[i] = bp->flags[j];
            i = j;
        }
    }
    bp->keys[i] = EMPTY;
    bp->hcount--;
}

static int push(uint64_t **arr, int *n, int *cap, uint64_t v)
{
    if (imp_grow(arr, cap, *n + 1, sizeof **arr) != 0) {
        return -1;
    }
    (*arr)[(*n)++] = v;
    return 0;
}

static int push_pair(int **arr, int *n, int *cap, uint64_t key)
{
    if (imp_grow(arr, cap, *n + 1, 2 * sizeof **arr) != 0) {
        return -1;  /* two ints a pair */
    }
    (*arr)[2 * *n] = (int)(key >> 32);
    (*arr)[2 * *n + 1] = (int)(key & 0xffffffffu);
    (*n)++;
    return 0;
}

static inline int overlap(const imp_bp3d *bp, int a, int b)
{
    return imp_box3_cross(bp->lo + 3 * a, bp->hi + 3 * a, bp->lo + 3 * b, bp->hi + 3 * b);
}

static int excluded_bodies(const imp_bp3d *bp, int ba, int bb)
{
    uint64_t k = pair_key(ba, bb);
    int lo = 0, hi = bp->nexcl;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (bp->excl[mid] < k) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < bp->nexcl && bp->excl[lo] == k;
}

static int allowed(const imp_bp3d *bp, int a, int b)
{
    if (bp->body[a] == bp->body[b]) {
        return 0;
    }
    if (!(bp->cat[a] & bp->mask[b]) || !(bp->cat[b] & bp->mask[a])) {
        return 0;
    }
    if (bp->nexcl > 0 && excluded_bodies(bp, bp->body[a], bp->body[b])) {
        return 0;
    }
    return bp->filter == NULL || bp->filter(bp->user, a < b ? a : b, a < b ? b : a);
}

/* the pair of a != b, whose boxes overlap, begins (or stays, when it was ending) */
static void begin_pair(imp_bp3d *bp, int a, int b)
{
    uint64_t key = pair_key(a, b);
    size_t i = find(bp, key);
    if (i != (size_t)-1) {
        if (bp->flags[i] == F_DEAD && allowed(bp, a, b)) {
            bp->flags[i] = F_NONE; /* ended and began again within the update, or kept by a rebuild */
        }
        return;
    }
    if (!allowed(bp, a, b)) {
        return;
    }
    if (insert(bp, key, F_NEW) != 0 || push(&bp->lnew, &bp->nnew, &bp->cnew, key) != 0) {
        bp->oom = 1;
    }
}

/* a swap where a min end point passes below a max one: the pair may begin. Most such swaps
   (the sorts' coherent motions) are of boxes apart on another axis: tested here, inline, the
   pair set and the call only for overlapping boxes */
static inline __attribute__((always_inline)) void may_begin(imp_bp3d *bp, int a, int b)
{
    if (a != b && overlap(bp, a, b)) {
        begin_pair(bp, a, b);
    }
}

static void may_end(imp_bp3d *bp, int a, int b)
{
    if (a == b) {
        return;
    }
    /* most end points that pass each other belong to boxes that were not a pair: look that
       up first (one probe), the overlap test only for pairs */
    uint64_t key = pair_key(a, b);
    size_t i = find(bp, key);
    if (i == (size_t)-1 || overlap(bp, a, b)) {
        return;
    }
    if (bp->flags[i] == F_NEW) {
        erase_slot(bp, i); /* began and ended within the update */
    } else if (bp->flags[i] == F_NONE) {
        bp->flags[i] = F_DEAD;
        if (push(&bp->ldead, &bp->ndead, &bp->cdead, key) != 0) {
            bp->oom = 1;
        }
    }
}

static int less(const ep *x, const ep *y)
{
    return x->v < y->v || (x->v == y->v && x->is_max && !y->is_max);
}

/* x rounded down (up: -x's rounded down, negated) to a multiple of q, inv_q = 1 / q (exact for
   a power of two: the product and the quotient exact); beyond 2^52 grid steps (every double
   there a whole number of them) or infinite or NaN, x itself. No libm call (floor is one at
   this build's x86-64 baseline): the moved boxes of a falling pile take this 6 times each */
static inline double grid_down(double x, double q, double inv_q)
{
    double t = x * inv_q;
    if (!(fabs(t) < 4503599627370496.0)) {
        return x;
    }
    double r = (double)(long long)t;  /* toward zero: one down for a negative fraction */
    r = (r > t ? r - 1.0 : r) * q;
    return r <= x ? r : r - q;        /* (q not a power of two: kept below x all the same) */
}

/* the inflated copy of the tight bounds lo, hi of one axis into sl, sh: grown by the verlet
   distance, then out to the grid's multiples when there is one (imp_bp3d_set_grid) */
static inline void inflate_axis(const imp_bp3d *bp, double lo, double hi, double *sl, double *sh)
{
    double d = bp->verlet, q = bp->grid;
    *sl = lo - d;
    *sh = hi + d;
    if (q > 0.0) {
        double inv_q = 1.0 / q;
        *sl = grid_down(*sl, q, inv_q);
        *sh = -grid_down(-*sh, q, inv_q);
    }
}

/* the inflated copy of the tight bounds lo, hi (3 each) into sl, sh */
static void inflate(const imp_bp3d *bp, const double *lo, const double *hi, double *sl, double *sh)
{
    for (int k = 0; k < 3; k++) {
        inflate_axis(bp, lo[k], hi[k], sl + k, sh + k);
    }
}

static void refresh_values(imp_bp3d *bp, int k)
{
    ep *a = bp->ax[k];
    for (int i = 0; i < 2 * bp->n; i++) {
        a[i].v = a[i].is_max ? bp->hi[3 * a[i].id + k] : bp->lo[3 * a[i].id + k];
    }
}

/* Moves end point i of axis k to its place after its value changed (Bullet's sweep-and-prune
   updates one handle at a time the same way: every other end point is in order, so insertion
   by swaps with its neighbours restores the order), O(1 + swaps). Every swap of a min and a
   max is a possible change of their boxes' overlap: a min passing below a max (or a max above
   a min) may begin a pair, the reverse may end one. The end points' indices follow. */
static void settle(imp_bp3d *bp, int k, int i)
{
    ep *a = bp->ax[k];
    int m = 2 * bp->n;
    ep e = a[i];
    long swaps = 0;
    while (i > 0 && less(&e, &a[i - 1])) { /* down */
        const ep *o = &a[i - 1];
        if (!e.is_max && o->is_max) {
            may_begin(bp, e.id, o->id);
        } else if (e.is_max && !o->is_max) {
            may_end(bp, e.id, o->id);
        }
        a[i] = *o;
        bp->at[6 * o->id + 2 * k + o->is_max] = i;
        i--;
        swaps++;
    }
    while (i + 1 < m && less(&a[i + 1], &e)) { /* up */
        const ep *o = &a[i + 1];
        if (!e.is_max && o->is_max) {
            may_end(bp, e.id, o->id);
        } else if (e.is_max && !o->is_max) {
            may_begin(bp, e.id, o->id);
        }
        a[i] = *o;
        bp->at[6 * o->id + 2 * k + o->is_max] = i;
        i++;
        swaps++;
    }
    a[i] = e;
    bp->at[6 * e.id + 2 * k + e.is_max] = i;
    bp->swaps += swaps;
}

/* insertion sort of one axis, O(m + swaps), the end points' indices following; every swap of
   a min and a max is a possible change of their boxes' overlap. An end point the sort does not
   move keeps its index (the axis and bp->at agree before an update), so only the moved ones
   write theirs */
static void sort_axis(imp_bp3d *bp, int k)
{
    ep *a = bp->ax[k];
    int *at = bp->at + 2 * k;
    int m = 2 * bp->n;
    long swaps = 0;
    for (int i = 1; i < m; i++) {
        ep e = a[i];
        int j = i - 1;
        if (!less(&e, &a[j])) {
            continue;
        }
        do {
            if (!e.is_max && a[j].is_max) {
                may_begin(bp, e.id, a[j].id);
            } else if (e.is_max && !a[j].is_max) {
                may_end(bp, e.id, a[j].id);
            }
            a[j + 1] = a[j];
            at[6 * a[j + 1].id + a[j + 1].is_max] = j + 1;
            j--;
            swaps++;
        } while (j >= 0 && less(&e, &a[j]));
        a[j + 1] = e;
        at[6 * e.id + e.is_max] = j + 1;
    }
    bp->swaps += swaps;
}

/* the new inflated box of id into the three axes: the end point on the side of the motion
   first, so the min does not pass its own max. A box of zero extent on an axis (lo == hi: a
   flat facet, or a coordinate so large that x + r == x) sorts its max before its min, which
   can block the first end point at the other one; settling the first again once the other is
   in place finishes it (otherwise a no-op: it is already in place) */
static void settle_box(imp_bp3d *bp, int id)
{
    for (int k = 0; k < 3; k++) {
        int imin = bp->at[6 * id + 2 * k], imax = bp->at[6 * id + 2 * k + 1];
        ep *a = bp->ax[k];
        double lo = bp->lo[3 * id + k], hi = bp->hi[3 * id + k];
        if (lo == a[imin].v && hi == a[imax].v) {
            continue;  /* an axis the box did not leave (in place already) */
        }
        int down = lo < a[imin].v;
        a[imin].v = lo;
        a[imax].v = hi;
        if (down) {
            settle(bp, k, imin);
            settle(bp, k, bp->at[6 * id + 2 * k + 1]);
            settle(bp, k, bp->at[6 * id + 2 * k]);
        } else {
            settle(bp, k, imax);
            settle(bp, k, bp->at[6 * id + 2 * k]);
            settle(bp, k, bp->at[6 * id + 2 * k + 1]);
        }
    }
}

static void start_events(imp_bp3d *bp)
{
    bp->nnew = bp->ndead = bp->nbegins = bp->nends = 0;
    bp->swaps = 0;
    bp->oom = 0;
}

static int cmp_pair(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : (a > b);
}

/* heapsort of m keys in place: O(m log m), no allocation (unlike qsort, which may allocate) */
static void sort_keys(uint64_t *k, int m)
{
    for (int start = m / 2 - 1, end = m; end > 1;) {
        int root;
        if (start >= 0) {
            root = start--;
        } else {
            uint64_t t = k[0];
            k[0] = k[--end];
            k[end] = t;
            root = 0;
        }
        for (int child; (child = 2 * root + 1) < end; root = child) {
            if (child + 1 < end && k[child] < k[child + 1]) {
                child++;
            }
            if (k[root] >= k[child]) {
                break;
            }
            uint64_t t = k[root];
            k[root] = k[child];
            k[child] = t;
        }
    }
}

/* the begins and ends of the update, in pair order (whatever order the swaps met them in) */
static void finish_events(imp_bp3d *bp)
{
    sort_keys(bp->lnew, bp->nnew);
    sort_keys(bp->ldead, bp->ndead);
    for (int k = 0; k < bp->nnew; k++) {
        size_t i = find(bp, bp->lnew[k]);
        if (i != (size_t)-1 && bp->flags[i] == F_NEW) {
            bp->flags[i] = F_NONE;
            if (push_pair(&bp->begins, &bp->nbegins, &bp->cbegins, bp->lnew[k]) != 0) {
                bp->oom = 1;
            }
        }
    }
    for (int k = 0; k < bp->ndead; k++) {
        size_t i = find(bp, bp->ldead[k]);
        if (i != (size_t)-1 && bp->flags[i] == F_DEAD) {
            erase_slot(bp, i);
            if (push_pair(&bp->ends, &bp->nends, &bp->cends, bp->ldead[k]) != 0) {
                bp->oom = 1;
            }
        }
    }
}

void imp_bp3d_set_refresh_all(imp_bp3d *bp, int on) { bp->refresh_all = on != 0; }

void imp_bp3d_set_grid(imp_bp3d *bp, double q) { bp->grid = q > 0.0 && isfinite(q) ? q : 0.0; }

imp_bp3d *imp_bp3d_new(double verlet)
{
    imp_bp3d *bp = calloc(1, sizeof *bp);
    if (bp != NULL) {
        bp->verlet = verlet > 0.0 ? verlet : 0.0;
    }
    return bp;
}

void imp_bp3d_free(imp_bp3d *bp)
{
    if (bp == NULL) {
        return;
    }
    free(bp->lo), free(bp->hi), free(bp->body), free(bp->cat), free(bp->mask);
    for (int k = 0; k < 3; k++) {
        free(bp->ax[k]);
    }
    free(bp->keys), free(bp->flags), free(bp->excl), free(bp->lnew), free(bp->ldead);
    free(bp->begins), free(bp->ends), free(bp->active), free(bp->apos);
    free(bp->at);
    free(bp);
}

int imp_bp3d_reserve(imp_bp3d *bp, int n)
{
    if (n < 0) {
        return -1;
    }
    if (n > bp->cap) {
        size_t c = (size_t)n;
        double *lo = realloc(bp->lo, 3 * c * sizeof *lo);
        if (lo != NULL) bp->lo = lo;
        double *hi = realloc(bp->hi, 3 * c * sizeof *hi);
        if (hi != NULL) bp->hi = hi;
        int *body = realloc(bp->body, c * sizeof *body);
        if (body != NULL) bp->body = body;
        uint32_t *cat = realloc(bp->cat, c * sizeof *cat);
        if (cat != NULL) bp->cat = cat;
        uint32_t *mask = realloc(bp->mask, c * sizeof *mask);
        if (mask != NULL) bp->mask = mask;
        int *active = realloc(bp->active, c * sizeof *active);
        if (active != NULL) bp->active = active;
        int *apos = realloc(bp->apos, c * sizeof *apos);
        if (apos != NULL) bp->apos = apos;
        int *at = realloc(bp->at, 6 * c * sizeof *at);
        if (at != NULL) bp->at = at;
        int ok = lo && hi && body && cat && mask && active && apos && at;
        for (int k = 0; k < 3; k++) {
            ep *a = realloc(bp->ax[k], 2 * c * sizeof *a);
            if (a != NULL) {
                bp->ax[k] = a;
            }
            ok = ok && a != NULL;
        }
        if (!ok) {
            return -1;
        }
        for (int i = bp->cap; i < n; i++) {
            bp->body[i] = i;
            bp->cat[i] = 1u;
            bp->mask[i] = 0xffffffffu;
        }
        bp->cap = n;
    }
    return 0;
}

int imp_bp3d_set_body(imp_bp3d *bp, int id, int body)
{
    if (id < 0 || id >= bp->cap) {
        return -1;
    }
    bp->body[id] = body;
    return 0;
}

int imp_bp3d_set_groups(imp_bp3d *bp, int id, uint32_t category, uint32_t mask)
{
    if (id < 0 || id >= bp->cap) {
        return -1;
    }
    bp->cat[id] = category;
    bp->mask[id] = mask;
    return 0;
}

int imp_bp3d_exclude_bodies(imp_bp3d *bp, int a, int b)
{
    uint64_t k = pair_key(a, b);
    if (excluded_bodies(bp, a, b)) {
        return 0;
    }
    if (push(&bp->excl, &bp->nexcl, &bp->cexcl, k) != 0) {
        return -1;
    }
    for (int i = bp->nexcl - 1; i > 0 && bp->excl[i - 1] > bp->excl[i]; i--) {
        uint64_t t = bp->excl[i];
        bp->excl[i] = bp->excl[i - 1];
        bp->excl[i - 1] = t;
    }
    return 0;
}

void imp_bp3d_include_bodies(imp_bp3d *bp, int a, int b)
{
    uint64_t k = pair_key(a, b);
    for (int i = 0; i < bp->nexcl; i++) {
        if (bp->excl[i] == k) {
            memmove(bp->excl + i, bp->excl + i + 1, (size_t)(bp->nexcl - i - 1) * sizeof *bp->excl);
            bp->nexcl--;
            return;
        }
    }
}

void imp_bp3d_set_filter(imp_bp3d *bp, imp_bp3d_filter fn, void *user)
{
    bp->filter = fn;
    bp->user = user;
}

static int cmp_ep(const void *x, const void *y)
{
    const ep *a = x, *b = y;
    if (less(a, b)) {
        return -1;
    }
    if (less(b, a)) {
        return 1;
    }
    return a->id < b->id ? -1 : (a->id > b->id);
}

typedef struct cell_entry {
    uint64_t key;
    int id;
} cell_entry;

static int cmp_cell(const void *x, const void *y)
{
    const cell_entry *a = x, *b = y;
    if (a->key != b->key) {
        return a->key < b->key ? -1 : 1;
    }
    return a->id < b->id ? -1 : (a->id > b->id);
}

/* first entry with key >= k */
static int lower_bound(const cell_entry *c, int n, uint64_t k)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (c[mid].key < k) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* Initial pairs by a uniform grid whose cell size h is the largest extent of the ordinary
   boxes: such a box can only meet boxes whose min corner lies in the 27 cells around its own
   min corner's cell. Boxes much larger than the mean (or unbounded, like walls) are tested
   against every box. O(n log n + n * big). Returns -1 (the caller sweeps instead) when out of
   memory or when the scene spans too many cells. */
static int grid_pairs(imp_bp3d *bp)
{
    int n = bp->n, nsmall = 0, nbig = 0;
    double mean = 0.0, h = 0.0, org[3] = {INFINITY, INFINITY, INFINITY}, top[3] = {-INFINITY, -INFINITY, -INFINITY};
    int cnt = 0;
    for (int i = 0; i < n; i++) {
        double e = 0.0;
        for (int k = 0; k < 3; k++) {
            e = fmax(e, bp->hi[3 * i + k] - bp->lo[3 * i + k]);
        }
        if (isfinite(e)) {
            mean += e;
            cnt++;
        }
    }
    mean = cnt > 0 ? mean / cnt : 0.0;
    cell_entry *cells = malloc((size_t)n * sizeof *cells);
    int *big = malloc((size_t)n * sizeof *big);
    if (cells == NULL || big == NULL || !(mean > 0.0)) {
        free(cells);
        free(big);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        double e = 0.0;
        int fin = 1;
        for (int k = 0; k < 3; k++) {
            e = fmax(e, bp->hi[3 * i + k] - bp->lo[3 * i + k]);
            fin &= isfinite(bp->lo[3 * i + k]) && isfinite(bp->hi[3 * i + k]);
        }
        if (fin && e <= 8.0 * mean) {
            h = fmax(h, e);
            for (int k = 0; k < 3; k++) {
                org[k] = fmin(org[k], bp->lo[3 * i + k]);
                top[k] = fmax(top[k], bp->lo[3 * i + k]);
            }
            cells[nsmall++].id = i;
        } else {
            big[nbig++] = i;
        }
    }
    for (int k = 0; k < 3 && nsmall > 0; k++) {
        if (!(h > 0.0) || (top[k] - org[k]) / h > 1048576.0) {
            free(cells);
            free(big);
            return -1;
        }
    }
    for (int m = 0; m < nsmall; m++) {
        const double *l = bp->lo + 3 * cells[m].id;
        uint64_t key = 0;
        for (int k = 0; k < 3; k++) {
            key = (key << 21) | (uint64_t)((l[k] - org[k]) / h + 1.0); /* +1: room for the -1 neighbour */
        }
        cells[m].key = key;
    }
    qsort(cells, (size_t)nsmall, sizeof *cells, cmp_cell);
    for (int m = 0; m < nsmall; m++) {
        int id = cells[m].id;
        uint64_t key = cells[m].key;
        uint64_t cx = key >> 42, cy = (key >> 21) & 0x1fffff, cz = key & 0x1fffff;
        for (uint64_t x = cx - 1; x <= cx + 1; x++) {
            for (uint64_t y = cy - 1; y <= cy + 1; y++) {
                for (uint64_t z = cz - 1; z <= cz + 1; z++) {
                    uint64_t nk = (x << 42) | (y << 21) | z;
                    for (int q = lower_bound(cells, nsmall, nk); q < nsmall && cells[q].key == nk; q++) {
                        if (cells[q].id > id) {
                            may_begin(bp, id, cells[q].id);
                        }
                    }
                }
            }
        }
    }
    for (int b = 0; b < nbig; b++) {
        for (int j = 0; j < n; j++) {
            if (j != big[b]) {
                may_begin(bp, big[b], j); /* a pair of two big boxes is met twice: harmless */
            }
        }
    }
    free(cells);
    free(big);
    return 0;
}

/* full sort, then all pairs (grid, or a sweep along the axis of largest spread for small n);
   existing pairs not found again end */
static int rebuild(imp_bp3d *bp)
{
    start_events(bp);
    for (size_t i = 0; i < bp->hcap; i++) {
        if (bp->keys[i] != EMPTY) {
            bp->flags[i] = F_DEAD;
            if (push(&bp->ldead, &bp->ndead, &bp->cdead, bp->keys[i]) != 0) {
                return -1;
            }
        }
    }
    int n = bp->n, best = 0;
    double spread[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        ep *a = bp->ax[k];
        double s1 = 0.0, s2 = 0.0;
        int cnt = 0;
        for (int i = 0; i < n; i++) {
            a[2 * i].id = a[2 * i + 1].id = i;
            a[2 * i].is_max = 0;
            a[2 * i + 1].is_max = 1;
            double c = 0.5 * (bp->lo[3 * i + k] + bp->hi[3 * i + k]);
            if (isfinite(c)) {
                s1 += c;
                s2 += c * c;
                cnt++;
            }
        }
        refresh_values(bp, k);
        if (n > 0) {  /* no boxes: no arrays yet (qsort of NULL is undefined) */
            qsort(a, (size_t)(2 * n), sizeof *a, cmp_ep);
        }
        for (int i = 0; i < 2 * n; i++) {
            bp->at[6 * a[i].id + 2 * k + a[i].is_max] = i;
        }
        spread[k] = cnt > 0 ? s2 / cnt - (s1 / cnt) * (s1 / cnt) : 0.0;
        if (spread[k] > spread[best]) {
            best = k;
        }
    }
    if (n < 256 || grid_pairs(bp) != 0) {
        /* sweep: a box meets every box still open when its min end point comes. apos: the
           box's place among the open ones, -1 before its min, -2 after its max. A box of zero
           extent on the axis (lo == hi) comes max first: it meets the open boxes at its min and
           stays closed (no box opening later can overlap it: intervals are open). */
        int nact = 0;
        const ep *a = bp->ax[best];
        for (int i = 0; i < n; i++) {
            bp->apos[i] = -1;
        }
        for (int i = 0; i < 2 * n; i++) {
            int id = a[i].id;
            if (a[i].is_max) {
                int p = bp->apos[id];
                if (p >= 0) {
                    bp->active[p] = bp->active[--nact];
                    bp->apos[bp->active[p]] = p;
                }
                bp->apos[id] = -2;
            } else {
                for (int q = 0; q < nact; q++) {
                    may_begin(bp, id, bp->active[q]);
                }
                if (bp->apos[id] == -1) {
                    bp->apos[id] = nact;
                    bp->active[nact++] = id;
                }
            }
        }
    }
    /* pairs with an id beyond n (boxes removed) were flagged dead and are not found again */
    finish_events(bp);
    bp->built = 1;
    return bp->oom ? -1 : 0;
}

int imp_bp3d_rebuild(imp_bp3d *bp) { return rebuild(bp); }

static int has_nan(int n, const double *lo, const double *hi)
{
    for (int i = 0; i < 3 * n; i++) {
        if (isnan(lo[i]) || isnan(hi[i])) {
            return 1;
        }
    }
    return 0;
}

int imp_bp3d_update(imp_bp3d *bp, int n, const double *lo, const double *hi)
{
    if (n < 0) {
        return -1;
    }
    if (!bp->built || n != bp->n) {
        if (has_nan(n, lo, hi) || imp_bp3d_reserve(bp, n) != 0) {
            return -1;
        }
        bp->n = n;
        for (int i = 0; i < n; i++) {
            inflate(bp, lo + 3 * i, hi + 3 * i, bp->lo + 3 * i, bp->hi + 3 * i);
        }
        return rebuild(bp);
    }
    start_events(bp);
    /* refresh only the boxes that left their inflated copy, on the axes they left: one pass,
       no branch per bound. The tests are negated so that a NaN bound counts as having left:
       NaNs can only be among the boxes refreshed, which are checked for them. */
    int moved = 0, bad = 0;
    for (int i = 0; i < n; i++) {
        const double *l = lo + 3 * i, *h = hi + 3 * i;
        double *sl = bp->lo + 3 * i, *sh = bp->hi + 3 * i;
        int inside = (l[0] >= sl[0]) & (l[1] >= sl[1]) & (l[2] >= sl[2]) & (h[0] <= sh[0])
                     & (h[1] <= sh[1]) & (h[2] <= sh[2]);
        int out = !inside;
        if (out) {
            bp->active[moved] = i;
            for (int k = 0; k < 3; k++) {
                bad |= isnan(l[k]) || isnan(h[k]);
            }
            if (bp->refresh_all) {
                inflate(bp, l, h, sl, sh);
            } else {
                /* only the axes it left: on the others its end points keep their values and
                   places (a wall's boxes share their bounds across it on the grid: one
                   inflated again on every axis, its margin's grid step changed with its
                   speed, was sorted past all of them) */
                for (int k = 0; k < 3; k++) {
                    if (!((l[k] >= sl[k]) & (h[k] <= sh[k]))) {
                        inflate_axis(bp, l[k], h[k], sl + k, sh + k);
                    }
                }
            }
            moved++;
        }
    }
    if (bad) {
        bp->built = 0; /* inflated copies partly refreshed: the next update rebuilds */
        return -1;
    }
    if (bp->refresh_all && moved > 0 && moved < n) {
        /* every box inflated again about its tight box (the others were inside their inflated
           copies, so NaN-free) */
        for (int i = 0; i < n; i++) {
            bp->active[i] = i;
            inflate(bp, lo + 3 * i, hi + 3 * i, bp->lo + 3 * i, bp->hi + 3 * i);
        }
        moved = n;
    }
    /* then the moved boxes into the sorted axes: a few one at a time, O(moved + swaps); many
       (a coherent motion, like a falling layer, where one at a time would swap them past each
       other's old end points) by new values and one insertion sort per axis, O(n + swaps) */
    if (8 * moved <= n) {
        for (int j = 0; j < moved; j++) {
            settle_box(bp, bp->active[j]);
        }
    } else {
        for (int j = 0; j < moved; j++) {
            int id = bp->active[j];
            for (int k = 0; k < 3; k++) {
                bp->ax[k][bp->at[6 * id + 2 * k]].v = bp->lo[3 * id + k];
                bp->ax[k][bp->at[6 * id + 2 * k + 1]].v = bp->hi[3 * id + k];
            }
        }
        for (int k = 0; k < 3; k++) {
            sort_axis(bp, k);
        }
    }
    finish_events(bp);
    return bp->oom ? -1 : 0;
}

const int *imp_bp3d_begins(const imp_bp3d *bp, int *count)
{
    *count = bp->nbegins;
    return bp->begins;
}

const int *imp_bp3d_ends(const imp_bp3d *bp, int *count)
{
    *count = bp->nends;
    return bp->ends;
}

int imp_bp3d_pairs(const imp_bp3d *bp, int *out, int max)
{
    int n = (int)bp->hcount;
    uint64_t *tmp = malloc((size_t)(n > 0 ? n : 1) * sizeof *tmp);
    if (tmp == NULL) {
        return -1;
    }
    int k = 0;
    for (size_t i = 0; i < bp->hcap; i++) {
        if (bp->keys[i] != EMPTY) {
            tmp[k++] = bp->keys[i];
        }
    }
    qsort(tmp, (size_t)k, sizeof *tmp, cmp_pair);
    for (int i = 0; i < k && i < max; i++) {
        out[2 * i] = (int)(tmp[i] >> 32);
        out[2 * i + 1] = (int)(tmp[i] & 0xffffffffu);
    }
    free(tmp);
    return k;
}

int imp_bp3d_pair_count(const imp_bp3d *bp) { return (int)bp->hcount; }

int imp_bp3d_has_pair(const imp_bp3d *bp, int a, int b) { return find(bp, pair_key(a, b)) != (size_t)-1; }

void imp_bp3d_box(const imp_bp3d *bp, int id, double lo[3], double hi[3])
{
    for (int k = 0; k < 3; k++) {
        lo[k] = bp->lo[3 * id + k];
        hi[k] = bp->hi[3 * id + k];
    }
}

int imp_bp3d_inflated(const imp_bp3d *bp, const double **lo, const double **hi)
{
    *lo = bp->lo;
    *hi = bp->hi;
    return bp->built ? bp->n : 0;
}

long imp_bp3d_swaps(const imp_bp3d *bp) { return bp->swaps; }
