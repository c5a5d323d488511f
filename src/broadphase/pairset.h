/* pairset.h: a sorted set of unordered pairs of body ids (e.g. the world's non-collide pairs).
   Membership by binary search, O(log n); adding and removing shift the array, O(n). */
#ifndef IMPACT_PAIRSET_H
#define IMPACT_PAIRSET_H

#include <stdint.h>

typedef struct imp_pairset {
    uint64_t *keys;  /* (min id << 32) | max id, ascending */
    int n, cap;
} imp_pairset;

/* An empty set: imp_pairset s = IMP_PAIRSET_EMPTY; or zero-initialised. */
#define IMP_PAIRSET_EMPTY {NULL, 0, 0}

/* Ids must be >= 0. Returns 1 when added, 0 when already present, -1 out of memory or bad id. */
int imp_pairset_add(imp_pairset *s, int a, int b);
/* Returns 1 when removed, 0 when absent. */
int imp_pairset_remove(imp_pairset *s, int a, int b);
int imp_pairset_contains(const imp_pairset *s, int a, int b);
/* Removes every pair holding id a; returns how many. O(n). */
int imp_pairset_remove_body(imp_pairset *s, int a);
void imp_pairset_clear(imp_pairset *s);
void imp_pairset_free(imp_pairset *s);

#endif
