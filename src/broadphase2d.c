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

static int pair_cmp(const void *x, const void *y)
{
    const int *a = x, *b = y;
    if (a[0] != b[0]) {
        return a[0] < b[0] ? -1 : 1;
    }
    return (a[1] > b[1]) - (a[1] < b[1]);
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
    int *order = realloc(bp->order, (size_t)cap * sizeof *order);
    if (order == NULL) {
        return -1;
    }
    bp->order = order;
    imp_bp2d_item *s = realloc(bp->scratch, (size_t)cap * sizeof *s);
    if (s == NULL) {
        return -1;
    }
    bp->scratch = s;
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
    for (int i = 0; i < n; i++) {
        bp->order[i] = bp->scratch[i].index;
    }
    bp->full_sorts++;
}

/* ties broken by index so the order is a function of the boxes alone */
static int before(const double *boxes, int a, int b)
{
    double ka = boxes[4 * a], kb = boxes[4 * b];
    return ka < kb || (ka == kb && a < b);
}

/* insertion sort of the previous order under the new keys; 0 when it gave up (too many moves) */
static int repair(imp_bp2d *bp, const double *boxes, int n)
{
    long long limit = 8LL * n + 64, moves = 0;
    int *o = bp->order;
    for (int i = 1; i < n; i++) {
        int v = o[i], j = i;
        while (j > 0 && before(boxes, v, o[j - 1])) {
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

static int add_pair(imp_bp2d *bp, int a, int b)
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
    const int *o = bp->order;
    for (int i = 0; i < n; i++) {
        int a = o[i];
        const double *ba = boxes + 4 * a;
        if (ba[2] < ba[0] || ba[3] < ba[1]) {
            continue;  /* empty */
        }
        for (int j = i + 1; j < n; j++) {
            int b = o[j];
            const double *bb = boxes + 4 * b;
            if (bb[0] > ba[2]) {
                break;
            }
            if (bb[2] < bb[0] || bb[3] < bb[1] || bb[3] < ba[1] || bb[1] > ba[3]) {
                continue;
            }
            if (exclude != NULL && imp_pairset_contains(exclude, a, b)) {
                continue;
            }
            if (add_pair(bp, a, b) != 0) {
                return -1;
            }
        }
    }
    qsort(bp->pairs, (size_t)bp->npairs, 2 * sizeof *bp->pairs, pair_cmp);
    return bp->npairs;
}

void imp_bp2d_free(imp_bp2d *bp)
{
    free(bp->order);
    free(bp->scratch);
    free(bp->pairs);
    imp_bp2d e = IMP_BP2D_EMPTY;
    *bp = e;
}
