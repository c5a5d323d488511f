/* broadphase2d.c: coherent sort-and-sweep (see broadphase2d.h). */
#include "broadphase2d.h"

#include <math.h>
#include <stdlib.h>

static int item_cmp(const void *x, const void *y)
{
    const imp_bp2d_item *a = x, *b = y;
    if (a->key != b->key) {
        return a->key < b->key ? -1 : 1;
    }
    return (a->index > b->index) - (a->index < b->index);
}


static int reserve(imp_bp2d *bp, int n)
{
    if (n <= bp->cap) {
        return 0;
    }
    int cap = bp->cap > 0 ? bp->cap : 16;
    while (cap < n) {
        cap *= 2;
    }
    imp_bp2d_item *s = realloc(bp->scratch, (size_t)cap * sizeof *s);
    if (s == NULL) {
        return -1;
    }
    bp->scratch = s;
    double *sorted = realloc(bp->sorted, (size_t)cap * 4 * sizeof *sorted);
    if (sorted == NULL) {
        return -1;
    }
    bp->sorted = sorted;
    bp->cap = cap;
    return 0;
}

static void full_sort(imp_bp2d *bp, const double *boxes, int n)
{
    for (int i = 0; i < n; i++) {
        bp->scratch[i].key = boxes[4 * i];
        bp->scratch[i].index = i;
    }
    qsort(bp->scratch, (size_t)n, sizeof *bp->scratch, item_cmp);
    bp->full_sorts++;
}

/* ties broken by index so the order is a function of the boxes alone */
static int before(const imp_bp2d_item *a, const imp_bp2d_item *b)
{
    return a->key < b->key || (a->key == b->key && a->index < b->index);
}

/* insertion sort of the previous order under the new keys; 0 when it gave up (too many moves) */
static int repair(imp_bp2d *bp, const double *boxes, int n)
{
    long long limit = 8LL * n + 64, moves = 0;
    imp_bp2d_item *o = bp->scratch;
    for (int i = 0; i < n; i++) {
        o[i].key = boxes[4 * o[i].index];
    }
    for (int i = 1; i < n; i++) {
        imp_bp2d_item v = o[i];
        int j = i;
        while (j > 0 && before(&v, &o[j - 1])) {
            o[j] = o[j - 1];
            j--;
            if (++moves > limit) {
                o[j] = v;
                bp->shifts = moves;
                return 0;
            }
        }
        o[j] = v;
    }
    bp->shifts = moves;
    return 1;
}

int imp_bp2d_add_pair(imp_bp2d *bp, int a, int b)
{
    if (bp->npairs == bp->pair_cap) {
        int cap = bp->pair_cap > 0 ? 2 * bp->pair_cap : 64;
        int *p = realloc(bp->pairs, (size_t)cap * 2 * sizeof *p);
        if (p == NULL) {
            return -1;
        }
        bp->pairs = p;
        bp->pair_cap = cap;
    }
    bp->pairs[2 * bp->npairs] = a < b ? a : b;
    bp->pairs[2 * bp->npairs + 1] = a < b ? b : a;
    bp->npairs++;
    return 0;
}

/* bp->pairs (i < j, both below n) in ascending (i, j) order: stable counting passes by j,
   then by i. 0, or -1 out of memory. O(pairs + n). */
static int sort_pairs(imp_bp2d *bp, int n)
{
    int np = bp->npairs;
    size_t need = 2 * (size_t)np + (size_t)n + 1;
    if (need > (size_t)bp->tmp_cap) {
        int *t = realloc(bp->pair_tmp, need * sizeof *t);
        if (t == NULL) {
            return -1;
        }
        bp->pair_tmp = t;
        bp->tmp_cap = (int)need;
    }
    int *tmp = bp->pair_tmp, *cnt = bp->pair_tmp + 2 * (size_t)np;
    for (int pass = 0; pass < 2; pass++) {  /* by the second index, then by the first */
        const int *from = pass == 0 ? bp->pairs : tmp;
        int *to = pass == 0 ? tmp : bp->pairs, at = 1 - pass;
        for (int k = 0; k <= n; k++) {
            cnt[k] = 0;
        }
        for (int k = 0; k < np; k++) {
            cnt[from[2 * k + at] + 1]++;
        }
        for (int k = 0; k < n; k++) {
            cnt[k + 1] += cnt[k];
        }
        for (int k = 0; k < np; k++) {
            int x = cnt[from[2 * k + at]]++;
            to[2 * x] = from[2 * k];
            to[2 * x + 1] = from[2 * k + 1];
        }
    }
    return 0;
}

int imp_bp2d_update(imp_bp2d *bp, const double *boxes, int n, const imp_pairset *exclude)
{
    if (n < 0) {
        n = 0;
    }
    for (int i = 0; i < 4 * n; i++) {
        if (isnan(boxes[i])) {
            return -2;
        }
    }
    if (bp->sort_pairs && n >= 32) {  /* only the set matters: the grid when it applies */
        bp->npairs = 0;
        int g = imp_bp2d_grid(bp, boxes, n, exclude);
        if (g < 0 || (g == 0 && sort_pairs(bp, n) != 0)) {
            return -1;
        }
        if (g == 0) {
            bp->n = -1;  /* the sweep's order was not kept: a full sort at its next use */
            return bp->npairs;
        }
    }
    if (reserve(bp, n) != 0) {
        return -1;
    }
    if (n != bp->n) {
        bp->n = n;
        full_sort(bp, boxes, n);
    } else if (!repair(bp, boxes, n)) {
        full_sort(bp, boxes, n);
    }
    bp->npairs = 0;
    const imp_bp2d_item *o = bp->scratch;
    double *sb = bp->sorted;
    for (int i = 0; i < n; i++) {
        const double *b = boxes + 4 * o[i].index;
        sb[4 * i] = b[0], sb[4 * i + 1] = b[1], sb[4 * i + 2] = b[2], sb[4 * i + 3] = b[3];
    }
    for (int i = 0; i < n; i++) {
        const double *ba = sb + 4 * i;
        if (ba[2] < ba[0] || ba[3] < ba[1]) {
            continue;  /* empty */
        }
        for (int j = i + 1; j < n; j++) {
            const double *bb = sb + 4 * j;
            if (bb[0] > ba[2]) {
                break;
            }
            if (bb[2] < bb[0] || bb[3] < bb[1] || bb[3] < ba[1] || bb[1] > ba[3]) {
                continue;
            }
            int a = o[i].index, b = o[j].index;
            if (exclude != NULL && imp_pairset_contains(exclude, a, b)) {
                continue;
            }
            if (imp_bp2d_add_pair(bp, a, b) != 0) {
                return -1;
            }
        }
    }
    if (bp->sort_pairs && sort_pairs(bp, n) != 0) {
        return -1;
    }
    return bp->npairs;
}

void imp_bp2d_free(imp_bp2d *bp)
{
    free(bp->scratch);
    free(bp->sorted);
    free(bp->pairs);
    free(bp->pair_tmp);
    free(bp->grid_box);
    free(bp->grid_cell);
    imp_bp2d e = IMP_BP2D_EMPTY;
    *bp = e;
}
