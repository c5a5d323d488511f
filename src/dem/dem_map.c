/* dem_map.c: the interaction container of the dem strategy: a dense array of interactions and
   an open-addressing map keyed by the unordered pair of particles; adding a potential
   interaction, finding, erasing and requesting erasure. */
#include "dem.h"
#include "resize.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* the array is aligned to 64 bytes and a record is three whole cache lines, so the law's 96
   bytes at its start take two lines in every record. It grows by realloc with 64 bytes to spare
   (realloc extends in place or moves pages, so the old and new arrays are not both held as
   with an aligned allocation and a copy: the peak memory of a growing pile), the records moved
   within the block when the new block's alignment differs. */
_Static_assert(sizeof(imp_dem_inter) == 192, "dem.h: an interaction is 192 bytes");

static size_t pair_hash(int a, int b)
{
    unsigned lo = (unsigned)(a < b ? a : b), hi = (unsigned)(a < b ? b : a);
    unsigned long long k = ((unsigned long long)lo << 32) | hi;
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k;
}

static int same_pair(const imp_dem_inter *I, int a, int b)
{
    return (I->a == a && I->b == b) || (I->a == b && I->b == a);
}

/* the map slot holding the pair, or the empty slot where it would go */
static size_t map_probe(const imp_dem *d, int a, int b)
{
    size_t mask = (size_t)d->map_cap - 1, h = pair_hash(a, b) & mask;
    while (d->map[h] != 0 && !same_pair(&d->inter[d->map[h] - 1], a, b)) {
        h = (h + 1) & mask;
    }
    return h;
}

/* Clears the map and enters every interaction again (after the map grew or the interactions
   were renumbered); not the holes (imp_dem_erase_hole: the map grew in the collider's run) */
void imp_dem_map_rebuild(imp_dem *d)
{
    if (d->map_cap == 0) {
        return;
    }
    memset(d->map, 0, (size_t)d->map_cap * sizeof *d->map);
    for (int i = 0; i < d->ninter; i++) {
        if (d->hot[3 * i] >= 0) {
            d->map[map_probe(d, d->inter[i].a, d->inter[i].b)] = i + 1;
        }
    }
}

void imp_dem_map_renumber(imp_dem *d, const int *pos)
{
    int *map = d->map;
    for (int h = 0; h < d->map_cap; h++) {
        map[h] = map[h] != 0 ? pos[map[h] - 1] + 1 : 0;
    }
}

static int map_grow(imp_dem *d)
{
    int cap = d->map_cap ? 2 * d->map_cap : 1024;
    int *m = calloc((size_t)cap, sizeof *m);
    if (m == NULL) {
        return -1;
    }
    free(d->map);
    d->map = m;
    d->map_cap = cap;
    imp_dem_map_rebuild(d);
    return 0;
}

int imp_dem_find(const imp_dem *d, int a, int b)
{
    if (d->map_cap == 0) {
        return -1;
    }
    return d->map[map_probe(d, a, b)] - 1;
}

int imp_dem_add_potential(imp_dem *d, int a, int b)
{
    if (2 * (d->ninter + 1) > d->map_cap && map_grow(d) != 0) {
        return -1;
    }
    if (d->ninter == d->inter_cap) {
        int cap = d->inter_cap ? 2 * d->inter_cap : 1024;
        size_t off = d->inter_mem != NULL ? (size_t)((char *)d->inter - (char *)d->inter_mem) : 0;
        char *mem = realloc(d->inter_mem, (size_t)cap * sizeof *d->inter + 64);
        if (mem == NULL) {
            return -1;
        }
        size_t aligned = (64 - (size_t)((uintptr_t)mem % 64)) % 64;
        if (aligned != off && d->ninter > 0) {
            memmove(mem + aligned, mem + off, (size_t)d->ninter * sizeof *d->inter);
        }
        d->inter_mem = mem;
        d->inter = (imp_dem_inter *)(void *)(mem + aligned);
        int *h = realloc(d->hot, (size_t)cap * 3 * sizeof *h);
        if (h == NULL) {
            return -1;
        }
        d->hot = h;
        unsigned char *hd = realloc(d->hot_dirty, (size_t)cap / IMP_DEM_HOT_BLOCK + 1);
        if (hd == NULL) {
            return -1;
        }
        memset(hd, 1, (size_t)cap / IMP_DEM_HOT_BLOCK + 1);  /* every block checked once */
        d->hot_dirty = hd;
        double *sc = realloc(d->scratch, (size_t)cap * IMP_DEM_SCRATCH * sizeof *sc);
        if (sc == NULL) {
            return -1;
        }
        d->scratch = sc;
        unsigned char *dn = realloc(d->done, (size_t)cap);
        if (dn == NULL) {
            return -1;
        }
        d->done = dn;
        int *od = realloc(d->order, (size_t)cap * sizeof *od);
        if (od == NULL) {
            return -1;
        }
        d->order = od;
        d->inter_cap = cap;
    }
    /* a wall is always the first of a wall/sphere pair; spheres in index order */
    int kind_a = d->kind[a], kind_b = d->kind[b];
    if (kind_b != IMP_DEM_SPHERE || (kind_a == kind_b && a > b)) {
        int t = a;
        a = b;
        b = t;
    }
    imp_dem_inter *I = &d->inter[d->ninter];
    memset(I, 0, sizeof *I);
    I->a = a;
    I->b = b;
    int *h = d->hot + 3 * d->ninter;
    h[0] = a, h[1] = b, h[2] = 0;
    imp_dem_hot_touch(d, d->ninter);
    d->map[map_probe(d, a, b)] = ++d->ninter;
    return d->ninter - 1;
}

/* removes map slot h, shifting back the entries of its probe run (linear probing deletion) */
static void map_delete(imp_dem *d, size_t h)
{
    size_t mask = (size_t)d->map_cap - 1;
    d->map[h] = 0;
    for (size_t j = (h + 1) & mask; d->map[j] != 0; j = (j + 1) & mask) {
        const imp_dem_inter *I = &d->inter[d->map[j] - 1];
        size_t home = pair_hash(I->a, I->b) & mask;
        /* the entry at j may move to h when h lies cyclically in [home, j) */
        if (((j - home) & mask) >= ((j - h) & mask)) {
            d->map[h] = d->map[j];
            d->map[j] = 0;
            h = j;
        }
    }
}

void imp_dem_erase(imp_dem *d, int index)
{
    imp_dem_inter *I = &d->inter[index];
    d->npending -= I->pending;
    d->nbonds -= I->bonded;
    map_delete(d, map_probe(d, I->a, I->b));
    int last = d->ninter - 1;
    if (index != last) {
        d->inter[index] = d->inter[last];
        memcpy(d->hot + 3 * index, d->hot + 3 * last, 3 * sizeof *d->hot);
        imp_dem_hot_touch(d, index);
        d->map[map_probe(d, d->inter[index].a, d->inter[index].b)] = index + 1;
    }
    d->ninter--;
}

void imp_dem_erase_hole(imp_dem *d, int index)
{
    imp_dem_inter *I = &d->inter[index];
    d->npending -= I->pending;
    d->nbonds -= I->bonded;
    map_delete(d, map_probe(d, I->a, I->b));
    I->pending = 0;
    d->hot[3 * index] = -1;  /* the hole's mark (dem_order.c) */
    imp_dem_hot_touch(d, index);
}

void imp_dem_request_erase(imp_dem *d, int index)
{
    imp_dem_inter *I = &d->inter[index];
    if (!I->pending) {
        (void)imp_grow(&d->pend, &d->pend_cap, d->pend_n + 1, 2 * sizeof *d->pend);  /* a pair */
        if (d->pend_n < d->pend_cap) {
            d->pend[2 * d->pend_n] = I->a;
            d->pend[2 * d->pend_n + 1] = I->b;
            d->pend_n++;
        } else {
            d->pend_scan = 1;  /* out of memory: the collider scans everything */
        }
    }
    d->npending += !I->pending;
    I->real = 0;
    d->hot[3 * index + 2] = 0;
    imp_dem_hot_touch(d, index);
    I->pending = 1;
    I->un = 0.0;
    I->fn = 0.0;
    I->kn = I->ks = I->mu = 0.0;
    I->fs[0] = I->fs[1] = I->fs[2] = 0.0;
    d->nbonds -= I->bonded;  /* a bond erased from outside (World:erase_interaction) */
    I->bonded = 0;
}
