/* dem_law_sort.c: the interaction loop's sort of each block of interactions by class
   (potential; real sphere/sphere and wall/sphere ones for the AVX2 law; the other real ones),
   kept between steps and patched in place when a block changes in a few places (dem_law.c
   runs the laws over the sorted lists; dem_law.h declares these). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dem.h"
#include "dem_law.h"

enum { BLOCK = IMP_DEM_BLOCK };

/* the indices base + j of the set bits j of m, in increasing order, to out; returns their count */
static inline int bits_to_list(uint64_t m, int base, int *out)
{
    int n = 0;
    while (m != 0) {
        out[n++] = base + __builtin_ctzll(m);
        m &= m - 1;
    }
    return n;
}

/* a mask of the n lowest bits (all 64 when n >= 64) */
static inline uint64_t low_bits(int n) { return n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1; }

/* The sort of block k0..k1-1 (see run_block) into s: bit masks of the classes (one pass
   without branches: the classes alternate unpredictably), then the lists from the masks.
   O(BLOCK). */
void imp_dem_sort_block(const int *hot, int k0, int k1, int css, int cws, int simd,
                       imp_dem_sorted *s)
{
    _Static_assert(BLOCK % 64 == 0, "sort_block: 64 interactions per mask");
    uint64_t mr[BLOCK / 64], mss[BLOCK / 64], mws[BLOCK / 64];
    const int len = k1 - k0;
#ifdef IMP_DEM_HAVE_AVX2
    if (simd) {
        imp_dem_class_masks_avx2(hot + 3 * k0, len, css, cws, mr, mss, mws);
    }
#endif
    for (int w = 0; w < BLOCK / 64 && !simd; w++) {
        uint64_t r = 0, ss = 0, ws = 0;
        const int *h = hot + 3 * (k0 + 64 * w) + 2;
        const int end = len - 64 * w < 64 ? len - 64 * w : 64;
        for (int j = 0; j < end; j++) {
            const int c = h[3 * j];
            r |= (uint64_t)(c != 0) << j;
            ss |= (uint64_t)(c == css) << j;
            ws |= (uint64_t)(c == cws) << j;
        }
        mr[w] = r, mss[w] = ss, mws[w] = ws;
    }
    int nr = 0, np = 0, nslow = 0, nss = 0, nws = 0;
    memset(s->done, 0, (size_t)len);
    for (int w = 0; w < BLOCK / 64 && 64 * w < len; w++) {
        const int base = k0 + 64 * w;
        const uint64_t valid = low_bits(len - 64 * w);
        int n = bits_to_list(mr[w], base, s->real + nr);
        for (int j = 0; j < n; j++) {
            s->done[s->real[nr + j] - k0] = 1;  /* DONE_FORCE; the portable law overwrites it */
        }
        nr += n;
        np += bits_to_list(~mr[w] & valid, base, s->pot + np);
        nss += bits_to_list(mss[w], base, s->fss + nss);
        nws += bits_to_list(mws[w], base, s->fws + nws);
        nslow += bits_to_list(mr[w] & ~mss[w] & ~mws[w], base, s->slow + nslow);
    }
    /* a last incomplete group of four is filled with copies of its last interaction: a copy
       does the same arithmetic on the same data and writes the same results */
    for (int q = nss; nss > 0 && (q & 3) != 0; q++) {
        s->fss[q] = s->fss[nss - 1];
    }
    for (int q = nws; nws > 0 && (q & 3) != 0; q++) {
        s->fws[q] = s->fws[nws - 1];
    }
    for (int j = 0; j < np; j++) {
        s->pot_a[j] = hot[3 * s->pot[j]], s->pot_b[j] = hot[3 * s->pot[j] + 1];
    }
    for (int j = 0; j < ((nss + 3) & ~3); j++) {
        s->ss_a[j] = hot[3 * s->fss[j]], s->ss_b[j] = hot[3 * s->fss[j] + 1];
    }
    for (int j = 0; j < ((nws + 3) & ~3); j++) {
        s->ws_a[j] = hot[3 * s->fws[j]], s->ws_b[j] = hot[3 * s->fws[j] + 1];
    }
    memcpy(s->hot, hot + 3 * k0, 3 * (size_t)len * sizeof *hot);
    s->k1 = k1, s->css = css, s->cws = cws;
    s->nr = nr, s->np = np, s->nss = nss, s->nws = nws, s->nslow = nslow;
}

/* k into the increasing list l[0..n-1] (and a, b at the same place of la, lb when not NULL);
   returns the new count. O(n). */
static int list_insert(int *l, int *la, int *lb, int n, int k, int a, int b)
{
    int i = n;
    while (i > 0 && l[i - 1] > k) {
        i--;
    }
    memmove(l + i + 1, l + i, (size_t)(n - i) * sizeof *l);
    l[i] = k;
    if (la != NULL) {
        memmove(la + i + 1, la + i, (size_t)(n - i) * sizeof *la);
        memmove(lb + i + 1, lb + i, (size_t)(n - i) * sizeof *lb);
        la[i] = a, lb[i] = b;
    }
    return n + 1;
}

/* k out of the increasing list l[0..n-1] (and la, lb); returns the new count. O(n). */
static int list_remove(int *l, int *la, int *lb, int n, int k)
{
    int i = 0;
    while (i < n && l[i] != k) {
        i++;
    }
    if (i == n) {
        return n;
    }
    memmove(l + i, l + i + 1, (size_t)(n - i - 1) * sizeof *l);
    if (la != NULL) {
        memmove(la + i, la + i + 1, (size_t)(n - i - 1) * sizeof *la);
        memmove(lb + i, lb + i + 1, (size_t)(n - i - 1) * sizeof *lb);
    }
    return n - 1;
}

/* the list of s holding interactions of class c, its parallel arrays and its count */
static int *class_list(imp_dem_sorted *s, int c, int **la, int **lb, int **count)
{
    if (c == 0) {
        *la = s->pot_a, *lb = s->pot_b, *count = &s->np;
        return s->pot;
    }
    if (c == s->css) {
        *la = s->ss_a, *lb = s->ss_b, *count = &s->nss;
        return s->fss;
    }
    if (c == s->cws) {
        *la = s->ws_a, *lb = s->ws_b, *count = &s->nws;
        return s->fws;
    }
    *la = *lb = NULL, *count = &s->nslow;
    return s->slow;
}

/* the padding of a list for the AVX2 law (sort_block) */
static void pad4(int *l, int *la, int *lb, int n)
{
    for (int q = n; n > 0 && (q & 3) != 0; q++) {
        l[q] = l[n - 1], la[q] = la[n - 1], lb[q] = lb[n - 1];
    }
}

/* The cached sort s of block k0..s->k1-1 brought up to date in place when its hot copy differs
   from the block's in a few classes only (a contact made or ended: the common change, ~1.4 per
   changed block in a deposition); 0 when it cannot (the caller sorts again). O(BLOCK). */
enum { UPDATE_MAX = 8 };
int imp_dem_update_sorted(const int *hot, int k0, int simd, imp_dem_sorted *s)
{
    const int *h = hot + 3 * k0;
    const int len = s->k1 - k0;
    int at[UPDATE_MAX], n = 0;
#ifdef IMP_DEM_HAVE_AVX2
    if (simd) {  /* the differing ints, then their entries */
        n = imp_dem_diff_avx2(s->hot, h, 3 * len, at, UPDATE_MAX);
        if (n > UPDATE_MAX) {
            return 0;
        }
        for (int i = 0; i < n; i++) {
            if (at[i] % 3 != 2) {
                return 0;  /* another pair: sort again */
            }
            at[i] /= 3;
        }
    }
#endif
    for (int j = 0; j < len && !simd; j++) {
        const int *o = s->hot + 3 * j, *x = h + 3 * j;
        if (((o[0] ^ x[0]) | (o[1] ^ x[1])) != 0) {
            return 0;  /* another pair: sort again */
        }
        if (o[2] != x[2]) {
            if (n == UPDATE_MAX) {
                return 0;
            }
            at[n++] = j;
        }
    }
    for (int i = 0; i < n; i++) {
        const int j = at[i], k = k0 + j, c0 = s->hot[3 * j + 2], c1 = h[3 * j + 2];
        const int a = h[3 * j], b = h[3 * j + 1];
        if ((c0 != 0) != (c1 != 0)) {
            s->nr = c1 != 0 ? list_insert(s->real, NULL, NULL, s->nr, k, 0, 0)
                            : list_remove(s->real, NULL, NULL, s->nr, k);
            s->done[j] = (unsigned char)(c1 != 0);
        }
        int *la, *lb, *count;
        int *l0 = class_list(s, c0, &la, &lb, &count);
        int *l1 = class_list(s, c1, &la, &lb, &count);
        if (l0 != l1) {
            l0 = class_list(s, c0, &la, &lb, &count);
            *count = list_remove(l0, la, lb, *count, k);
            l1 = class_list(s, c1, &la, &lb, &count);
            *count = list_insert(l1, la, lb, *count, k, a, b);
        }
        s->hot[3 * j + 2] = c1;
    }
    pad4(s->fss, s->ss_a, s->ss_b, s->nss);
    pad4(s->fws, s->ws_a, s->ws_b, s->nws);
    return 1;
}

/* The blocks' sorts kept between steps (d->sorted, grown when the blocks outnumber it; NULL
   when out of memory: then each block sorts into its caller's space). */
imp_dem_sorted *imp_dem_sorted_cache(imp_dem *d, int nblocks)
{
    if (nblocks > d->sorted_cap) {
        int cap = nblocks + nblocks / 2 + 1;
        imp_dem_sorted *p = realloc(d->sorted, (size_t)cap * sizeof *p);
        if (p == NULL) {
            return NULL;
        }
        for (int i = d->sorted_cap; i < cap; i++) {
            p[i].k1 = -1;  /* invalid */
        }
        d->sorted = p;
        d->sorted_cap = cap;
    }
    return d->sorted;
}
