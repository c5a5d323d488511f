/* dem_order.c: the interactions kept in the order of their particles. The interaction loop
   reads both particles' packed copies and adds to both particles' forces, in interaction order;
   in creation order (the collider's runs append, an erasure moves the last interaction into the
   hole) a dense pile's interactions read the particles at random. Sorted by their first particle
   and then their second, the loop reads the first particles in increasing order and the second
   ones a little ahead of them (neighbours of a particle in a lattice-built scene are a few rows
   or layers away). The order is a function of the set of pairs alone (a pair is one (a, b) with
   dem_map.c's orientation), so it does not depend on the threads.

   A collider run changes a few per cent of the pairs: it leaves its erased interactions as holes
   and appends the new ones, and imp_dem_order_merge drops the holes (forwards, a memmove a run
   of records between two holes) and merges the new ones in (sorted by insertion, then
   backwards, a memmove a run of old records between two new ones), the map renumbered in one
   pass over its slots: the order the whole sort gives, without its two counting passes, its
   reads of the records in permutation order and the map's rebuild. The whole sort stays for
   an order made otherwise (a run that skipped the sweep erases by moving the last record). */
#include "dem.h"

#include "resize.h"

#include <string.h>

/* 1 when pair p comes after pair q (hot copies: a, then b) */
static inline int after(const int *p, const int *q)
{
    return p[0] > q[0] || (p[0] == q[0] && p[1] > q[1]);
}

/* 1 when the hot copies' pairs of k = 0..m-1 increase */
static int in_order(const int *hot, int m)
{
    for (int k = 1; k < m; k++) {
        const int *p = hot + 3 * (k - 1), *q = hot + 3 * k;
        if (after(p, q)) {
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

/* the hot blocks of the interactions first .. m - 1 marked for the law's check */
static void blocks_dirty(imp_dem *d, int first, int m)
{
    if (first < m) {
        memset(d->hot_dirty + first / IMP_DEM_HOT_BLOCK, 1,
               (size_t)(m - 1) / IMP_DEM_HOT_BLOCK - (size_t)first / IMP_DEM_HOT_BLOCK + 1);
    }
}

/* Drops the holes of [0, m) (hot a = -1), keeping the order; the live count. The map and the
   hot blocks from the first hole on are made again. */
static int drop_holes(imp_dem *d, int m)
{
    imp_dem_inter *inter = d->inter;
    int *hot = d->hot;
    int w = 0, first = m;
    for (int k = 0; k < m; k++) {
        if (hot[3 * k] < 0) {
            first = w < first ? w : first;
            continue;
        }
        if (w != k) {
            inter[w] = inter[k];
            memcpy(hot + 3 * w, hot + 3 * k, 3 * sizeof *hot);
        }
        w++;
    }
    d->ninter = w;
    blocks_dirty(d, first, w);
    if (first < m) {
        imp_dem_map_rebuild(d);
    }
    return w;
}

/* [0, m0) in order once its holes are left out: 1; its holes' count into *holes, the first
   one's place into *first (m0: none) */
static int prefix_in_order(const int *hot, int m0, int *holes, int *first)
{
    int h = 0, ok = 1;
    *first = m0;
    const int *last = NULL;
    for (int k = 0; k < m0; k++) {
        const int *q = hot + 3 * k;
        if (q[0] < 0) {
            *first = h++ == 0 ? k : *first;
            continue;
        }
        ok &= last == NULL || !after(last, q);
        last = q;
    }
    *holes = h;
    return ok;
}

/* the place in the merged order of place x after the holes' drop (x < 0: a hole's) */
static inline int merged_place(int x, const int *fin) { return x >= 0 ? fin[x] : x; }

int imp_dem_order_merge(imp_dem *d, int m0)
{
    const int m = d->ninter;
    int *hot = d->hot;
    int holes = 0, fh = m0, t = 0;
    const int ordered = prefix_in_order(hot, m0, &holes, &fh);
    for (int k = m0; k < m; k++) {
        t += hot[3 * k] >= 0;
    }
    const int mf = m - holes - (m - m0 - t);  /* the live ones */
    if (!ordered || t > mf / 4 + 64 || t < m - m0) {
        /* an order to make again, or many new ones (or holes among them): the holes dropped,
           then the whole sort */
        const int moved = drop_holes(d, m) < m;
        const int r = imp_dem_order_interactions(d);
        return r < 0 ? -1 : (r || moved);
    }
    if (holes == 0 && t == 0) {
        return 0;
    }
    const size_t rec = sizeof *d->inter;
    size_t need = (size_t)t * (1 + 3 + rec / sizeof(int)) + 2 * (size_t)m + 1;
    if (need > (size_t)d->sort_cap) {
        size_t cap = need + need / 4;
        if (imp_resize(&d->sort_buf, cap * sizeof *d->sort_buf) != 0) {
            (void)drop_holes(d, m);  /* no holes left behind, whatever else fails */
            return -1;
        }
        d->sort_cap = (int)cap;
    }
    /* pos[k]: where record k goes; fin: where the old ones' places after the holes' drop go;
       idx: the new ones by key (insertion: they come nearly in order, the collider's begins
       sorted by their smaller particle), their hot copies th and records tr out of the way */
    int *pos = d->sort_buf, *fin = pos + m, *idx = fin + m, *th = idx + t;
    unsigned char *tr = (unsigned char *)(void *)(th + 3 * t);
    for (int j = 0; j < t; j++) {
        const int v = m0 + j, *hv = hot + 3 * v;
        int i = j - 1;
        for (; i >= 0 && after(hot + 3 * idx[i], hv); i--) {
            idx[i + 1] = idx[i];
        }
        idx[i + 1] = v;
    }
    imp_dem_inter *inter = d->inter;
    for (int j = 0; j < t; j++) {
        memcpy(th + 3 * j, hot + 3 * idx[j], 3 * sizeof *th);
        memcpy(tr + (size_t)j * rec, &inter[idx[j]], rec);
    }
    /* 1. the holes dropped, forwards, the live runs between them moved down (one memmove a
       run) */
    for (int k = 0; k < fh; k++) {
        pos[k] = k;
    }
    int p = fh;
    for (int k = fh; k < m0;) {
        if (hot[3 * k] < 0) {
            pos[k++] = -1;
            continue;
        }
        int e = k + 1;
        while (e < m0 && hot[3 * e] >= 0) {
            e++;
        }
        const int len = e - k;
        memmove(&inter[p], &inter[k], (size_t)len * rec);
        memmove(hot + 3 * p, hot + 3 * k, 3 * (size_t)len * sizeof *hot);
        for (int q = 0; q < len; q++) {
            pos[k + q] = p + q;
        }
        p += len, k = e;
    }
    /* 2. the new ones merged in, backwards: the old ones in runs moved up by the new ones
       before them (one memmove a run); those below the lowest new one stay */
    int i = p - 1, w = mf - 1;
    for (int j = t - 1; j >= 0;) {
        if (i < 0 || !after(hot + 3 * i, th + 3 * j)) {
            memcpy(&inter[w], tr + (size_t)j * rec, rec);
            memcpy(hot + 3 * w, th + 3 * j, 3 * sizeof *hot);
            pos[idx[j]] = w--;
            j--;
            continue;
        }
        int e = i;  /* the run e..i: after the next new one */
        while (e > 0 && after(hot + 3 * (e - 1), th + 3 * j)) {
            e--;
        }
        const int len = i - e + 1, to = w - len + 1;
        memmove(&inter[to], &inter[e], (size_t)len * rec);
        memmove(hot + 3 * to, hot + 3 * e, 3 * (size_t)len * sizeof *hot);
        for (int q = 0; q < len; q++) {
            fin[e + q] = to + q;
        }
        w -= len, i = e - 1;
    }
    for (int q = 0; q <= i; q++) {
        fin[q] = q;
    }
    for (int k = 0; k < m0; k++) {  /* the holes' (-1) are never read: they left the map */
        pos[k] = merged_place(pos[k], fin);
    }
    const int first = fh < w + 1 ? fh : w + 1;  /* the lowest place written */
    d->ninter = mf;
    blocks_dirty(d, first, mf);
    imp_dem_map_renumber(d, pos);
    return 1;
}
