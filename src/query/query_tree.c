/* query_tree.c: the static box hierarchy of the world queries (query_tree.h). */
#include "box3.h"
#include "query_tree.h"

#include <math.h>
#include <stdlib.h>

enum { LEAF_SIZE = 4 };

void imp_query_tree_free(imp_query_tree *t)
{
    free(t->id), free(t->lo), free(t->hi), free(t->order), free(t->unbounded), free(t->node);
    free(t->stack);
    imp_query_tree e = IMP_QUERY_TREE_EMPTY;
    *t = e;
}

int imp_query_tree_reserve(imp_query_tree *t, int n)
{
    if (n > t->cap || t->id == NULL) {
        imp_query_tree_free(t);
        size_t m = (size_t)(n > 0 ? n : 1);
        t->id = malloc(m * sizeof *t->id);
        t->lo = malloc(3 * m * sizeof *t->lo);
        t->hi = malloc(3 * m * sizeof *t->hi);
        t->order = malloc(m * sizeof *t->order);
        t->unbounded = malloc(m * sizeof *t->unbounded);
        t->node = malloc(2 * m * sizeof *t->node);
        t->stack = malloc((2 * m + 64) * sizeof *t->stack);
        if (!t->id || !t->lo || !t->hi || !t->order || !t->unbounded || !t->node || !t->stack) {
            imp_query_tree_free(t);
            return -1;
        }
        t->cap = n;
    }
    t->n = t->nbounded = t->nunbounded = t->nnode = 0;
    return 0;
}

void imp_query_tree_add(imp_query_tree *t, int id, const double lo[3], const double hi[3])
{
    int k = t->n++, finite = 1;
    t->id[k] = id;
    for (int a = 0; a < 3; a++) {
        t->lo[3 * k + a] = lo[a], t->hi[3 * k + a] = hi[a];
        finite &= isfinite(lo[a]) && isfinite(hi[a]);
    }
    if (finite) {
        t->order[t->nbounded++] = k;
    } else {
        t->unbounded[t->nunbounded++] = k;
    }
}

/* a box's key along the split axis, its caller id (the tie-break) and its index */
typedef struct key_item {
    double key;
    int id, k;
} key_item;

static int cmp_key(const void *a, const void *b)
{
    const key_item *x = a, *y = b;
    if (x->key != y->key) {
        return x->key < y->key ? -1 : 1;
    }
    return (x->id > y->id) - (x->id < y->id);
}

static int build_node(imp_query_tree *t, int first, int count, key_item *tmp)
{
    int me = t->nnode++;
    imp_qnode *nd = &t->node[me];
    double clo[3] = {INFINITY, INFINITY, INFINITY}, chi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int a = 0; a < 3; a++) {
        nd->lo[a] = INFINITY, nd->hi[a] = -INFINITY;
    }
    for (int i = first; i < first + count; i++) {
        int k = t->order[i];
        for (int a = 0; a < 3; a++) {
            double l = t->lo[3 * k + a], h = t->hi[3 * k + a], c = 0.5 * (l + h);
            nd->lo[a] = fmin(nd->lo[a], l), nd->hi[a] = fmax(nd->hi[a], h);
            clo[a] = fmin(clo[a], c), chi[a] = fmax(chi[a], c);
        }
    }
    nd->first = first, nd->count = count, nd->left = nd->right = -1;
    if (count <= LEAF_SIZE) {
        return me;
    }
    int axis = 0;
    for (int a = 1; a < 3; a++) {
        if (chi[a] - clo[a] > chi[axis] - clo[axis]) {
            axis = a;
        }
    }
    for (int i = 0; i < count; i++) {
        int k = t->order[first + i];
        tmp[i].key = 0.5 * (t->lo[3 * k + axis] + t->hi[3 * k + axis]);
        tmp[i].id = t->id[k], tmp[i].k = k;
    }
    qsort(tmp, (size_t)count, sizeof *tmp, cmp_key);
    for (int i = 0; i < count; i++) {
        t->order[first + i] = tmp[i].k;
    }
    int half = count / 2;
    int l = build_node(t, first, half, tmp);
    int r = build_node(t, first + half, count - half, tmp);
    t->node[me].left = l, t->node[me].right = r;
    return me;
}

void imp_query_tree_build(imp_query_tree *t)
{
    t->nnode = 0;
    if (t->nbounded == 0) {
        return;
    }
    key_item *tmp = malloc((size_t)t->nbounded * sizeof *tmp);
    if (tmp == NULL) { /* degrade to one leaf per box list: still correct, linear */
        imp_qnode *nd = &t->node[t->nnode++];
        for (int a = 0; a < 3; a++) {
            nd->lo[a] = -INFINITY, nd->hi[a] = INFINITY;
        }
        nd->first = 0, nd->count = t->nbounded, nd->left = nd->right = -1;
        return;
    }
    build_node(t, 0, t->nbounded, tmp);
    free(tmp);
}

int imp_query_tree_box(const imp_query_tree *t, const double lo[3], const double hi[3],
                       int (*fn)(void *user, int id), void *user)
{
    for (int i = 0; i < t->nunbounded; i++) {
        int k = t->unbounded[i];
        if (imp_box3_touch(t->lo + 3 * k, t->hi + 3 * k, lo, hi) && fn(user, t->id[k])) {
            return 1;
        }
    }
    if (t->nnode == 0) {
        return 0;
    }
    int sp = 0;
    t->stack[sp++] = 0;
    while (sp > 0) {
        const imp_qnode *nd = &t->node[t->stack[--sp]];
        if (!imp_box3_touch(nd->lo, nd->hi, lo, hi)) {
            continue;
        }
        if (nd->left < 0) {
            for (int i = nd->first; i < nd->first + nd->count; i++) {
                int k = t->order[i];
                if (imp_box3_touch(t->lo + 3 * k, t->hi + 3 * k, lo, hi) && fn(user, t->id[k])) {
                    return 1;
                }
            }
        } else {
            t->stack[sp++] = nd->right;
            t->stack[sp++] = nd->left;
        }
    }
    return 0;
}

/* The entry fraction of the segment into the box (slab test), or INFINITY when it misses
   within [0, fmax]. Infinite bounds work (walls). */
static double slab(const double *lo, const double *hi, const double *o, const double *d, double fmax)
{
    double tin = 0.0, tout = fmax;
    for (int a = 0; a < 3; a++) {
        if (d[a] == 0.0) {
            if (o[a] < lo[a] || o[a] > hi[a]) {
                return INFINITY;
            }
            continue;
        }
        double t0 = (lo[a] - o[a]) / d[a], t1 = (hi[a] - o[a]) / d[a];
        if (t0 > t1) {
            double s = t0;
            t0 = t1, t1 = s;
        }
        tin = t0 > tin ? t0 : tin;
        tout = t1 < tout ? t1 : tout;
        if (!(tin <= tout)) {
            return INFINITY;
        }
    }
    return tin;
}

void imp_query_tree_segment(const imp_query_tree *t, const double from[3], const double d[3],
                            double fmax, void (*fn)(void *user, int id, double *fmax), void *user)
{
    for (int i = 0; i < t->nunbounded; i++) {
        int k = t->unbounded[i];
        if (slab(t->lo + 3 * k, t->hi + 3 * k, from, d, fmax) <= fmax) {
            fn(user, t->id[k], &fmax);
        }
    }
    if (t->nnode == 0) {
        return;
    }
    int sp = 0;
    t->stack[sp++] = 0;
    while (sp > 0) {
        const imp_qnode *nd = &t->node[t->stack[--sp]];
        if (!(slab(nd->lo, nd->hi, from, d, fmax) <= fmax)) {
            continue;
        }
        if (nd->left < 0) {
            for (int i = nd->first; i < nd->first + nd->count; i++) {
                int k = t->order[i];
                if (slab(t->lo + 3 * k, t->hi + 3 * k, from, d, fmax) <= fmax) {
                    fn(user, t->id[k], &fmax);
                }
            }
            continue;
        }
        double fl = slab(t->node[nd->left].lo, t->node[nd->left].hi, from, d, fmax);
        double fr = slab(t->node[nd->right].lo, t->node[nd->right].hi, from, d, fmax);
        /* push the farther first so the nearer is visited first */
        if (fl <= fr) {
            if (fr <= fmax) t->stack[sp++] = nd->right;
            if (fl <= fmax) t->stack[sp++] = nd->left;
        } else {
            if (fl <= fmax) t->stack[sp++] = nd->left;
            if (fr <= fmax) t->stack[sp++] = nd->right;
        }
    }
}
