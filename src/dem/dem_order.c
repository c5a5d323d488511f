/* dem_order.c: the interactions kept in the order of their particles. The interaction loop
   reads both particles' packed copies and adds to both particles' forces, in interaction order;
   in creation order (the collider's runs append, an erasure moves the last interaction into the
   hole) a dense pile's interactions read the particles at random. Sorted by their first particle
   and then their second, the loop reads the first particles in increasing order and the second
   ones a little ahead of them (neighbours of a particle in a lattice-built scene are a few rows
   or layers away). The order is a function of the set of pairs alone (a pair is one (a, b) with
   dem_map.c's orientation), so it does not depend on the threads. */
#include "dem.h"

#include "resize.h"

#include <string.h>

/* 1 when the hot copies' pairs of k = 0..m-1 increase */
static int in_order(const int *hot, int m)
{
    for (int k = 1; k < m; k++) {
        const int *p = hot + 3 * (k - 1), *q = hot + 3 * k;
        if (p[0] > q[0] || (p[0] == q[0] && p[1] > q[1])) {
            return 0;
        }
    }
    return 1;
}

/* stable counting sort of the indices in[0..m-1] by the key hot[3 in[j] + which] (0 <= key < n)
   into out; count has n + 1 entries */
static void counting_pass(const int *hot, int which, const int *in, int *out, int m, int n,
                          int *count)
{
    memset(count, 0, ((size_t)n + 1) * sizeof *count);
    for (int j = 0; j < m; j++) {
        count[hot[3 * in[j] + which] + 1]++;
    }
    for (int i = 0; i < n; i++) {
        count[i + 1] += count[i];
    }
    for (int j = 0; j < m; j++) {
        out[count[hot[3 * in[j] + which]]++] = in[j];
    }
}

int imp_dem_order_interactions(imp_dem *d)
{
    const int m = d->ninter, n = d->n;
    if (m < 2 || in_order(d->hot, m)) {
        return 0;
    }
    /* src[j]: the interaction that goes to place j (an LSD radix sort: by b, then stably by
       a); O(m + n) */
    size_t need = 2 * (size_t)m + (size_t)n + 1;
    if (need > (size_t)d->sort_cap) {
        size_t cap = need + need / 4;
        if (imp_resize(&d->sort_buf, cap * sizeof *d->sort_buf) != 0) {
            return -1;
        }
        d->sort_cap = (int)cap;
    }
    int *src = d->sort_buf, *tmp = src + m, *count = tmp + m;
    for (int k = 0; k < m; k++) {
        src[k] = k;
    }
    counting_pass(d->hot, 1, src, tmp, m, n, count);
    counting_pass(d->hot, 0, tmp, src, m, n, count);
    /* the records and their hot copies moved in place along the permutation's cycles: each
       record is read once and written once; a place done is marked src = -1 */
    imp_dem_inter *inter = d->inter;
    int *hot = d->hot;
    for (int i = 0; i < m; i++) {
        if (src[i] < 0 || src[i] == i) {
            continue;
        }
        const imp_dem_inter keep = inter[i];
        int keep_hot[3] = {hot[3 * i], hot[3 * i + 1], hot[3 * i + 2]};
        int j = i;
        for (;;) {
            int s = src[j];
            src[j] = -1;
            if (s == i) {
                inter[j] = keep;
                memcpy(hot + 3 * j, keep_hot, sizeof keep_hot);
                break;
            }
            inter[j] = inter[s];
            memcpy(hot + 3 * j, hot + 3 * s, 3 * sizeof *hot);
            j = s;
        }
    }
    memset(d->hot_dirty, 1, (size_t)(m - 1) / IMP_DEM_HOT_BLOCK + 1);
    imp_dem_map_rebuild(d);
    return 1;
}
