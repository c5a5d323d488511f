/* dem_domain.h: the dem strategy over several processes (ranks): a spatial domain decomposition
   in slabs along one axis, the bookkeeping of owned and ghost particles, their messages packed
   and unpacked (dem_domain.c). The messages themselves go through a table of functions
   (dem_comm.h) that the MPI module fills; the core has no MPI in it.

   Design (doc/manual/05-dem.md, "Several ranks"):
   - Slabs along one axis (the longest extent of the free spheres by default), cut at the
     quantiles of the free spheres' coordinates when the scene is decomposed, then fixed: the same
     scene on the same number of ranks is cut the same way, so reruns are bit-identical.
   - A rank holds its owned free spheres, the ghosts (copies of its neighbours' free spheres within
     the ghost width g = 2 f r_max + skin + verlet of its slab) and every shared body (walls,
     facets, fixed spheres: on every rank). Its dem state holds only those; the world keeps every
     body, the others' states stale ("away").
   - Every pair is computed on every rank that holds both (pairs across a slab boundary twice,
     once by each owner): no force goes back to ghosts, one message per neighbour and step, and
     each owned sphere's force is summed by its own rank in the order of the one-rank code.
     Ghosts are not integrated; at the start of each step their position and velocities (9
     numbers) come from their owners.
   - Ownership and the ghost lists are redone (an "update": particles migrate, ghosts come and
     go) at the start of a step when some owned sphere has moved more than skin / 2 along the
     axis since the last update (the ranks agree by a maximum over all of them), so no pair within
     reach is ever missing.
   - Energies: a ghost's motion is booked by its owner; an interaction's losses and springs
     count 1/2 on each of the two ranks holding it across a boundary (weights per particle). */
#ifndef IMPACT_DEM_DOMAIN_H
#define IMPACT_DEM_DOMAIN_H

#include "dem.h"
#include "dem_comm.h"

struct imp_world;
typedef struct imp_dem_domain imp_dem_domain;

/* a world slot's role on this rank */
enum { IMP_DEM_AWAY = 0, IMP_DEM_OWNED = 1, IMP_DEM_GHOST = 2, IMP_DEM_SHARED = 3 };

typedef struct imp_dem_domain_stats {
    int rank, size, axis;
    double lo, hi;          /* this rank's slab along the axis (-inf, +inf at the ends) */
    double ghost, skin;     /* the ghost width and the skin, m */
    int owned, ghosts;      /* free spheres owned here, ghosts held here */
    long updates;           /* updates since the decomposition (the first included) */
    long migrated;          /* spheres that became owned here by an update */
    long steps;             /* steps since the decomposition */
    double comm_seconds;    /* wall time in the message layer (waiting included) */
    double domain_seconds;  /* wall time of the decomposition's own work (packing, updates,
                               their rebuilds), comm_seconds excluded */
    double bytes_sent;
    long messages;          /* messages sent (sendrecv calls with a destination) */
} imp_dem_domain_stats;

/* Decomposes the world's dem scene over comm's ranks (every rank holding the whole scene, built
   by the same script): axis 0, 1, 2 or -1 (the longest extent of the free spheres); skin >= 0 m,
   or < 0 for the largest free sphere radius. IMP_OK, or an error with the message in the world
   (clumps, a periodic cell, slabs thinner than twice the ghost width, already decomposed). */
imp_status imp_dem_domain_attach(struct imp_world *w, const imp_dem_comm *comm, int axis,
                                 double skin);
/* At the start of each step (after imp_dem_sync): an update when needed, else the ghosts'
   exchange. IMP_OK, or an error in the world's message. */
imp_status imp_dem_domain_step(struct imp_world *w);
void imp_dem_domain_free(imp_dem_domain *m);
/* A decomposition as saved with a scene (impact.dem_mpi.save: one file per rank), to continue it
   bit-identically: the cuts, this rank's roles per world slot, the axis coordinates of the last
   update per particle of the dem state (refs) and the counters. */
typedef struct imp_dem_domain_saved {
    int axis, size, rank;
    double skin, ghost;
    const double *bounds;         /* size + 1 */
    const unsigned char *roles;   /* nroles = the world's slots */
    int nroles;
    const double *refs;           /* nrefs = the dem state's particles */
    int nrefs;
    long updates, migrated, steps;
} imp_dem_domain_saved;
/* The saved decomposition of this rank (pointers into the live one: valid until the next step). */
int imp_dem_domain_saved_of(const imp_dem *d, imp_dem_domain_saved *out);
/* all = 1: every body of the world in the dem state (for dem.save, which writes the particles;
   no step until all = 0); all = 0: back to this rank's part, as it was (every rank at once). */
imp_status imp_dem_domain_expose(struct imp_world *w, int all);
/* Decomposes a loaded scene as saved (every rank at once, the same number of ranks); IMP_OK or
   an error in the world's message. */
imp_status imp_dem_domain_restore(struct imp_world *w, const imp_dem_comm *comm,
                                  const imp_dem_domain_saved *s);
/* Whether world slot s takes part in this rank's dem state (1 without a decomposition). */
int imp_dem_domain_present(const imp_dem_domain *m, int s);
/* Whether the roles changed since the dem state was built (it must be rebuilt). */
int imp_dem_domain_dirty(const imp_dem_domain *m);
/* The role of world slot s (IMP_DEM_SHARED without a decomposition). */
int imp_dem_domain_role(const imp_dem *d, int s);
void imp_dem_domain_stats_of(const imp_dem *d, imp_dem_domain_stats *out);
/* This rank's share of the energies (imp_dem_energy_now's quantities): kinetic of the owned
   spheres, springs weighted as above, the books as kept (already shares). */
imp_dem_energy imp_dem_domain_energy(const imp_dem *d, double dt);
/* v[0..n-1] reduced over the ranks in place (IMP_DEM_COMM_SUM or _MAX); 0, or -1 (no
   decomposition: v unchanged, 0 returned as on one rank). */
int imp_dem_domain_allreduce(const imp_dem *d, double *v, int n, int op);

#endif
