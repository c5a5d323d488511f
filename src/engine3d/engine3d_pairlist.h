/* engine3d_pairlist.h: the 3D detection's broad-phase pairs, kept from the broad phase's begin
   and end events in O(events) rather than O(pairs) a step (Box3D and Box2D v3 keep a pair set
   the same way): per broad-phase id a the ids b > a it pairs with, ascending, each with its
   cached manifold (an index into the engine's cache, -1 for none). Walking the ids in order
   and each one's partners in order gives the pairs sorted by (a, b): the canonical order the
   narrow phase needs (the points' order decides the solver's rows).

   The partners of each id lie in one run of a shared pool, with room to spare; an id whose run
   fills up moves to the pool's end with at least twice the room (so the rooms left behind add
   up to less than the runs' own: the pool stays under twice the rooms, which are under twice
   the most partners each id has had since the last reset). An update's events cost O(events
   + partners of the ids they name): one pass over an id's run for all its events. No
   allocation once the arrays have grown to the scene. */
#ifndef IMPACT_ENGINE3D_PAIRLIST_H
#define IMPACT_ENGINE3D_PAIRLIST_H

typedef struct imp_e3_link {
    int b;      /* the partner (> the id whose run holds it) */
    int entry;  /* its cached manifold, -1 */
} imp_e3_link;

typedef struct imp_e3_run {
    int start, count, room;
} imp_e3_run;

typedef struct imp_e3_pairlist {
    imp_e3_run *run;       /* per id */
    int n, run_cap;
    imp_e3_link *pool;
    int used, pool_cap;     /* used: the pool's first free place */
    int npairs;
} imp_e3_pairlist;

/* Empties the list for ids 0..n-1; 0, or -1 out of memory. */
int imp_e3_pairlist_reset(imp_e3_pairlist *pl, int n);
/* Removes the ne pairs of ends (2 ints each, a < b, sorted by a then b: as imp_bp3d_ends gives
   them); each removed pair's entry that is >= 0 goes to freed (room for ne), in the ends'
   order; returns how many. Pairs not listed are passed over. */
int imp_e3_pairlist_end(imp_e3_pairlist *pl, const int *ends, int ne, int *freed);
/* Adds the nb pairs of begins (2 ints each, a < b, sorted), each with entry -1 (a pair listed
   already is kept as it is); 0, or -1 out of memory. */
int imp_e3_pairlist_begin(imp_e3_pairlist *pl, const int *begins, int nb);
void imp_e3_pairlist_free(imp_e3_pairlist *pl);

#endif
