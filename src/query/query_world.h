/* query_world.h: the world's geometric queries: the first (or every) body a segment hits,
   the bodies whose bounding boxes overlap a box, the bodies containing a point; 2D and 3D,
   whatever the strategy.

   The queries run on their own box hierarchy (query_tree.h) over the bodies' tight bounds,
   because no strategy's broad phase keeps a tree (the 2D engine's and the 3D ones are
   sort-and-sweep lists, DEM's a grid of its own): the cache rebuilds it lazily, at the first
   query after the bodies moved or changed (the world's time, steps, bodies_version or
   state_version differ from the stamps of the last build), in O(n log^2 n); a query on an
   unchanged world reuses it: a segment costs O(log n) per body whose box it crosses plus the
   shape tests of those bodies, a box O(log n + k), a point O(log n + k) box tests plus k
   containment tests. Shapeless bodies (the background) are never found; bodies whose shape
   has no ray or containment test are found by query_box only. Results are deterministic:
   hits sorted by fraction then slot, body lists by slot. */
#ifndef IMPACT_QUERY_WORLD_H
#define IMPACT_QUERY_WORLD_H

#include "query_tree.h"
#include "raycast.h"
#include "world_internal.h"

typedef struct imp_query_hit {
    int slot;
    imp_ray_hit hit;
} imp_query_hit;

typedef struct imp_query_cache {
    imp_query_tree tree;
    int valid;
    unsigned bodies_version, state_version;
    double time;
    long steps;
    int nslots;
    long builds;          /* how many times the tree was built (diagnostics) */
    imp_query_hit *hits;  /* results, owned here, valid until the next query */
    int nhits, hit_cap;
    int *slots;
    int nslots_out, slot_cap;
} imp_query_cache;

#define IMP_QUERY_CACHE_EMPTY {IMP_QUERY_TREE_EMPTY, 0, 0, 0, 0.0, 0, 0, 0, NULL, 0, 0, NULL, 0, 0}

void imp_query_cache_free(imp_query_cache *c);

/* The segment from -> to (dim numbers each, finite, from != to): all = 0 keeps the first hit
   only. Fills c->hits (sorted by fraction, then slot) and returns their count, or -1 when out
   of memory. */
int imp_query_ray(imp_query_cache *c, const imp_world *w, const double *from, const double *to,
                  int all);
/* Bodies whose tight bounding boxes overlap [lo, hi] (lo <= hi, dim numbers): c->slots,
   ascending; returns the count or -1 when out of memory. */
int imp_query_box(imp_query_cache *c, const imp_world *w, const double *lo, const double *hi);
/* Bodies whose material contains p: c->slots, ascending; count or -1. */
int imp_query_point(imp_query_cache *c, const imp_world *w, const double *p);

#endif
