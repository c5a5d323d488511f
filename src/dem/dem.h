/* dem.h: the dem strategy of a 3D world: Yade-style discrete elements (spheres against
   spheres and infinite walls) stepped by an explicit leapfrog with Cundall's numerical damping.

   The world keeps its bodies; the dem state keeps flat copies of what the hot loops need
   (positions, velocities, forces, radii, masses: structure of arrays, particles in the order
   of the bodies' slots; a clump body gives one sphere particle per member, consecutive) and
   the interactions. It is rebuilt when bodies are
   added or removed, reloaded from the world's state vector when that was edited from outside,
   and written back after each integration, so reading bodies between steps sees the truth.

   One step = the engines, in order (Yade's O.engines):
     imp_dem_reset_forces   ForceResetter
     imp_dem_collide        InsertionSortCollider (its pairs, found by bins: dem_bins.h)
     imp_dem_interactions   InteractionLoop: geometry, physics and law functors per interaction
     imp_dem_newton         NewtonIntegrator (leapfrog, gravity, Cundall damping; clumps as
                            rigid bodies, dem_clump.c)
     imp_dem_finish_step    time += dt, iteration += 1
   the dem strategy's advance (dem_strategy.c) runs that default list (the Lua front can run its own list instead).

   Interaction lifecycle (Yade, "Sanitizing contact logic", seed 001):
     potential: created by the collider when the (enlarged) boxes of two particles begin to
                overlap; no geometry, no physics.
     real:      the geometry functor found the shapes within reach (overlap > -(f-1)(r1+r2) for
                an interaction-radius factor f >= 1); the physics functor then set kn, ks, mu
                once; from then on the geometry is updated every step.
     erase:     the law requests it (linear law: overlap < 0): the interaction is reset to
                potential (history lost) and marked pending; the collider's next run erases the
                pending ones whose boxes no longer overlap and keeps the others potential. The
                collider never erases a real interaction. */
#ifndef IMPACT_DEM_H
#define IMPACT_DEM_H

#include <stdatomic.h>
#include <stddef.h>

#include "dem_bins.h"
#include "mat3.h"
#include "shape.h"
#include <impact/status.h>

struct imp_world;
struct imp_dem_sorted;
struct imp_dem_domain;

enum { IMP_DEM_SPHERE = 0, IMP_DEM_WALL = 1, IMP_DEM_FACET = 2 };
/* a clump's entry in a saved scene (lua_dem_state.c); its members are spheres */
enum { IMP_DEM_SAVED_CLUMP = 3 };
/* the laws: linear (Cundall-Strack), Hertz-Mindlin, linear viscoelastic (dem_law_viscous.c) */
enum { IMP_DEM_LAW_LINEAR = 0, IMP_DEM_LAW_HERTZ = 1, IMP_DEM_LAW_VISCOUS = 2 };
/* geometry functors (bits of imp_dem_params.geometry) */
enum { IMP_DEM_GEOM_SPHERE_SPHERE = 1, IMP_DEM_GEOM_WALL_SPHERE = 2, IMP_DEM_GEOM_FACET_SPHERE = 4 };

typedef struct imp_dem_params {
    double damping;            /* Cundall's numerical damping, 0 <= d < 1 */
    double verlet;             /* collider's verlet distance, m; < 0: that factor of the
                                  smallest radius (default -0.1; Yade's is -0.5) */
    double interaction_radius; /* interaction-radius factor f >= 1 (distant interactions) */
    int geometry;              /* enabled geometry functors (IMP_DEM_GEOM_* bits) */
    int law;                   /* IMP_DEM_LAW_* */
    int never_erase;           /* the law keeps separated contacts (zero force) */
    int track_energy;          /* book gravity work, damping and plastic dissipation (Yade's
                                  O.trackEnergy; off by default: it costs ~20 % of a step) */
    /* material of bodies without a world material, and the frictional constants */
    double young;              /* Pa; a body with a material uses the material's E */
    double ks_ratio;           /* ks / kn (Yade's FrictMat "poisson") */
    double friction_angle;     /* rad, mu = tan(min(phi1, phi2)) */
    double poisson;            /* Hertz-Mindlin: Poisson's ratio */
    double en;                 /* Hertz-Mindlin: normal restitution of the viscous damping
                                  (Tsuji et al. 1992); 1 = none. Viscoelastic: the normal
                                  restitution of its dashpots, 0 < en <= 1 */
    int tangential_damping;    /* viscoelastic: 1 (default) a tangential dashpot acts while the
                                  contact sticks (LIGGGHTS' hooke), 0 none */
    double rolling;            /* rolling resistance eta_r >= 0 (0: none): a rolling moment
                                  limited by eta_r min(ra, rb) fn (dem_law.c) */
    double twisting;           /* twisting resistance eta_t >= 0 (0: none): a twisting moment
                                  about n limited by eta_t min(ra, rb) fn (dem_law.c) */
    int cohesion_now;          /* the interaction loop bonds every interaction it finds real
                                  (Yade's setCohesionNow; linear law), with the adhesions
                                  cohesion_n pi r^2 and cohesion_s pi r^2 (Pa; r the smaller
                                  radius) */
    double cohesion_n, cohesion_s;
    double wall_friction_angle; /* rad; >= 0: the friction angle of walls and facets against
                                  spheres, mu = tan(min(friction_angle, it)) (Yade: the walls'
                                  material); < 0 (default): friction_angle */
} imp_dem_params;

/* One interaction between particles a and b: sphere/sphere with a < b; wall/sphere and
   facet/sphere with a the wall or facet (whatever the indices). Lookup is by the unordered
   pair. */
typedef struct imp_dem_inter {
    /* first the state the linear law reads and writes every step, as the 4-double runs
       {un, n}, {fn, fs}, {kn, ks, mu, kn0} (dem_law_avx2.c), 96 bytes from the start: 192 bytes
       a record and the array aligned to 64 bytes (dem_map.c), so these 96 bytes always sit in
       two cache lines (with 208 bytes a record, one in four took three), and the first 64,
       all the AVX2 law reads while it makes kn, ks and mu (viscoelastic: and cn0) from the
       particles (d->derived), in one (the viscoelastic law's kept kn0, ks0 in the second, read
       and written only while the energy is booked) */
    double un;         /* overlap, m (negative: a gap, distant interaction) */
    double n[3];       /* unit normal from a to b (wall/sphere: from the wall to the sphere) */
    double fn;         /* normal force magnitude, N (repulsive > 0) */
    double fs[3];      /* shear force on b, N (on a: the opposite) */
    double kn, ks, mu; /* physics: normal and shear stiffness (N/m), friction coefficient
                          (Hertz-Mindlin: the current tangent stiffnesses) */
    double kn0, ks0;   /* Hertz-Mindlin: fn = kn0 un^1.5, ks = ks0 un^0.5; viscoelastic: the
                          tangential dashpot force of the last step, two of its components
                          (dem_law_viscous.c), kept only while the energy is booked (its only
                          reader: d->visc_stale) */
    double cn0;        /* Hertz-Mindlin: normal damping coefficient c = cn0 un^0.25;
                          viscoelastic: the dashpots' coefficient cn = ct */
    double mr[3];      /* rolling resistance: the rolling moment on b (on a: the opposite) */
    double mt;         /* twisting resistance: the twisting moment on b along n (on a: -mt n) */
    double adh_n, adh_s; /* a cohesive bond's normal and shear adhesion (N), while bonded */
    long created;      /* iteration at which it became real */
    int a, b;          /* particle indices (see above) */
    int cell[3];       /* periodic cell (dem_cell.c): the shift S of b's image, which sits at
                          x_b + H S relative to a (Yade's cellDist); 0 without a cell */
    unsigned char real;    /* 1: geometry and physics exist */
    unsigned char pending; /* 1: erase requested; the collider decides at its next run */
    unsigned char bonded;  /* 1: an intact cohesive bond (Yade's CohFrictPhys, imp_dem_bond_all) */
    unsigned char seen;    /* periodic collider: 1 once its current run found the pair (cleared
                              at the end of each run) */
} imp_dem_inter;

/* A clump (Yade's Clump): a rigid body whose shape is a union of spheres (dem_clump*.c). Its
   members are sphere particles first .. first + count - 1 (consecutive), which collide like
   spheres (never with each other); the clump sums their forces and torques about its centre
   of mass and moves them with it. State as in the world: position (centre of mass),
   orientation, velocity and angular velocity (world frame) at the leapfrog's half step; plus
   the angular momentum L (world frame) of that half step, which the integrator advances. */
typedef struct imp_dem_clump {
    int slot;              /* the clump body's world slot */
    int first, count;      /* its member particles */
    int fixed;
    double mass, inv_mass, density;
    imp_mat3 inertia, inv_inertia;  /* about the centre of mass, body frame */
    double pos[3], vel[3], angvel[3], quat[4];  /* as last stored in (or loaded from) the world */
    double L[3];
} imp_dem_clump;

/* numbers per interaction in the interaction loop's scratch (dem_law.c) */
enum { IMP_DEM_SCRATCH = 12 };

typedef struct imp_dem_energy {
    double gravity_work;   /* work done by gravity since the energy was reset */
    double damping;        /* dissipated by the numerical damping */
    double plastic;        /* dissipated by Coulomb sliding */
    double viscous;        /* dissipated by the Hertz-Mindlin normal viscous damping and the
                              viscoelastic law's dashpots */
    double elastic;        /* stored in the contact springs now */
    double kinetic;        /* translational + rotational, now (leapfrog mid-step velocities) */
} imp_dem_energy;

/* A periodic cell (Yade's O.cell, dem_cell.c): a parallelepiped whose base vectors are the
   columns of H (hSize), deformed homogeneously by the velocity gradient L: dH/dt = L H. Particles'
   velocities are the total ones, v = v' + L x with v' the fluctuation (what Newton integrates and
   damps); positions are wrapped into the cell after each step. */
typedef struct imp_dem_cell {
    int on;
    double h[9], h0[9], hinv[9]; /* row-major; h0: H when the cell was set (for the strain) */
    double L[9];                 /* row-major, 1/s */
    int *wrap;                   /* 3 per particle: the wraps of the last step (scratch) */
    int wrap_cap;
    int *bin_start, *bin_list;   /* the periodic collider's grid (scratch) */
    int bin_cap, list_cap;
    int run;                     /* collider runs */
    /* the Verlet skip (imp_dem_cell_collide): each particle's fractional coordinates H^-1 x at
       the last run, the cell then, and the reach and Verlet distance it ran with */
    double *anchor_u;
    int anchor_cap, anchor_n;
    double h_run[9], hinv_run[9], reach_run, verlet_run;
} imp_dem_cell;

typedef struct imp_dem {
    imp_dem_params p;
    imp_dem_cell cell;
    /* particles, n of them */
    int n, cap;
    int *slot;             /* world slot of each particle */
    int *kind;             /* IMP_DEM_SPHERE or IMP_DEM_WALL */
    unsigned char *fixed;
    double *pos, *vel, *angvel, *quat; /* 3, 3, 3, 4 per particle */
    /* the other set: Newton reads the state above and writes the new one here, then swaps the
       two (imp_dem_newton), so until the step is known good the state it started from is here
       (imp_dem_step_failed swaps back) */
    double *pos_prev, *vel_prev, *angvel_prev, *quat_prev;
    unsigned char *spin_same; /* per group of 8 particles (8 g .. 8 g + 7; cap / 8 + 1): 1 when
                                 Newton found the group still (dem_newton.c) and nothing wrote
                                 its spins or orientations since: the two sets hold the same
                                 bytes there, the spins all bits 0, the inverse inertias finite;
                                 cleared by every load (dem_sync.c) */
    double *force, *torque;            /* 3, 3 per particle */
    double *radius;        /* spheres; walls 0 */
    double *wall_n;        /* 3 per particle: a wall's outward unit normal (world frame) */
    int *clump_of;         /* per particle: its clump's index, -1 for none */
    int *member;           /* per particle: its index among its clump's members (else 0) */
    double *moff;          /* 3 per particle: a member's centre - the clump's centroid (body
                              frame) */
    int *facet;            /* per particle: index of a facet's vertices in facet_v, else -1 */
    double *facet_v;       /* 9 per facet: its vertices in the world frame */
    int nfacets;
    double *inv_mass, *inv_inertia, *mass;
    double *young;         /* per particle */
    double *lo, *hi;       /* collider boxes, 3 per particle */
    double *xr;            /* 4 per particle: position and radius (the interaction loop's
                              packed copy, made at its start) */
    double *vw;            /* 8 per particle: velocity, angular velocity and Young modulus
                              {vx, vy, vz, wx, wy, wz, young, 0} (the AVX2 law's packed copy,
                              made with xr; 64-byte aligned: one cache line per particle) */
    int vw_cap;
    int *slot_to_particle; /* nslots entries, -1 for none (a clump: its first member) */
    imp_dem_clump *clumps;
    int nclumps, clump_cap;
    double clump_dt;       /* the step the clumps' L belong to (L is recomputed when it changes:
                              the half step it refers to moved) */
    int nslot_map;
    /* interactions: dense array plus an open-addressing map from the pair to the index */
    imp_dem_inter *inter;  /* 64-byte aligned, inside inter_mem (dem_map.c) */
    void *inter_mem;       /* the allocation holding it (64 bytes more than the records) */
    int *hot;              /* per interaction {a, b, class}: a compact copy the interaction loop
                              scans, so potential ones out of reach cost 12 bytes, not a struct;
                              class 0 for a potential one, else imp_dem_hot_class (non-zero) */
    int ninter, inter_cap;
    double *scratch;       /* per interaction: the interaction loop's results (a row of dem_law.h) */
    unsigned char *done;   /* per interaction: what the loop's serial pass has to do */
    int *order;            /* per interaction: the serial pass's list (dem_law.c) */
    struct imp_dem_sorted *sorted; /* per block of the interaction loop: its sort by class,
                                      kept between steps while the block's hot copy is the same
                                      (dem_law.c) */
    int sorted_cap;
    unsigned char *hot_dirty; /* per block of IMP_DEM_HOT_BLOCK interactions (inter_cap /
                                 IMP_DEM_HOT_BLOCK + 1 of them, with hot): 1 when its hot copy
                                 may have changed since the interaction loop last checked its
                                 sort, which compares the hot copy of those blocks only
                                 (imp_dem_hot_touch marks every write of hot) */
    unsigned char *force_mark; /* per group of 8 particles (8 g .. 8 g + 7; cap / 8 + 1): 1
                                  when the group's forces and torques were written since the
                                  last reset, 0 when they are all zero (their bytes then left as
                                  they were: read them by imp_dem_force_written). The reset
                                  clears the marks; a writer calls imp_dem_force_touch first,
                                  which zeroes an unmarked group and marks it, and with many
                                  interactions the loop's pack zeroes and marks every unmarked
                                  group before the loop writes (dem_step.c) */
    int npending;          /* interactions whose erase was requested */
    int *pend;             /* their pairs (2 ints each; may hold stale pairs, checked) */
    int pend_n, pend_cap;
    int pend_scan;         /* the list is incomplete: the collider scans every interaction */
    int *map;              /* map_cap entries: index + 1, 0 = empty */
    int map_cap;
    int *sort_buf;         /* imp_dem_order_interactions' scratch (sort_cap ints) */
    int sort_cap;
    imp_dem_bins *bp;      /* the collider's broad phase (dem_bins.h) */
    double bp_verlet;      /* the verlet distance the broad phase was made with */
    int boxes_stale;       /* the collider must make every box (set by a rebuild or a reload) */
    double box_f, box_rmin; /* the interaction-radius factor and smallest radius of the boxes
                              last made */
    /* the collider's travel bound (dem_collide.c): when the bins pair balls, the last inside
       test that passed (the anchor) found every sphere able to move slack and stay inside
       its ball, the farthest centre at xreach from the origin; travel bounds how far any
       sphere moved since (Newton adds each step's, dem_step.c); INFINITY: no bound (from
       each run of the collider until the next anchor) */
    double travel, slack, xreach;
    /* collision filters (dem_filter.c): the world, set by each sync; the world's
       filter_version the interactions were last checked against */
    const struct imp_world *world;
    unsigned filter_version;
    /* bookkeeping */
    unsigned bodies_version;
    unsigned state_version; /* the world's state_version the copy was last checked against */
    int built;
    long iter;
    long collider_runs;
    int newton_bad;        /* particles the last imp_dem_newton left non-finite */
    imp_dem_energy energy;
    /* steps whose real interactions held a free sphere with dt above its own P-wave step
       (imp_dem_check_dt), since the count was last taken; the largest dt / step ratio among
       them and that sphere's body (world slot) */
    int nbonds;            /* intact cohesive bonds (never below the true count: the AVX2 law
                              is off while it is not 0) */
    int nkin;              /* fixed particles that move with a prescribed velocity */
    int *kin;              /* their indices (kin_cap entries) */
    int kin_cap;
    long dt_warn_steps;
    double dt_warn_ratio;
    int dt_warn_slot;
    /* several ranks (dem_domain.h): NULL on one; Newton's mask (fixed or ghost) and the
       particles' shares of an interaction's energy (imp_dem_pair_weight), NULL without */
    struct imp_dem_domain *domain;
    const unsigned char *newton_skip;
    const double *pair_w;
    /* the P-wave estimate cached by imp_dem_check_dt: valid while pwave_ok (cleared by a
       rebuild, the only writer of the particles' radii, masses, kinds and clump densities)
       and the default Young modulus is still pwave_young (its setters write d->young) */
    int pwave_ok;
    double pwave_young, pwave_dt;
    /* the AVX2 law's constants made from the particles (dem_law.c: derived_update): 1 when
       every real linear or viscoelastic interaction's kn, ks and mu (viscoelastic: and cn0) are
       the bits physics() makes now of its particles' young, radii (masses, fixed) and of the
       params (derived_p: p.young, ks_ratio, friction_angle, wall_friction_angle, law and the
       viscoelastic law's en when checked), so that law need not read them; 0 not known (checked at the next interaction loop; a rebuild and a load set it);
       -1 not so (checked again after the collider's next run, derived_runs) */
    int derived;
    long derived_runs;
    double derived_p[6];
    double derived_mu[2];  /* mu of the sphere/sphere and of the wall/sphere interactions */
    double derived_xi2;    /* viscoelastic: 2 xi (dem_law_viscous.c), cn0 = 2 xi sqrt(kn m*) */
    /* viscoelastic: the interactions' kn0, ks0, the tangential dashpot force of their last
       step (dem_law_viscous.c), are read by the energy book only, so kept only while it is on:
       1 after an interaction loop without it (they may be stale; the next loop with it zeroes
       them first, dem_law.c: as a new contact's), else 0 */
    int visc_stale;
    char error[256];
} imp_dem;

/* The share of an interaction's energy booked on this rank: per particle 1 owned, 0 ghost, 2
   shared (walls, facets, fixed spheres: on every rank, the other particle decides). */
static inline double imp_dem_pair_weight(const double *w, int a, int b)
{
    return w[a] == 2.0 ? w[b] : (w[b] == 2.0 ? w[a] : 0.5 * (w[a] + w[b]));
}

imp_dem_params imp_dem_default_params(void);
imp_dem *imp_dem_new(void);
void imp_dem_free(imp_dem *d);

/* The world's dem state (created on first use); NULL when out of memory. Brings it in step
   with the world: rebuilt when bodies changed, reloaded when the state was edited. Returns
   IMP_OK, or an error (unsupported shape, a moving wall) with the message in w->data.error. */
imp_status imp_dem_sync(struct imp_world *w);
/* The same without looking for edits (O(1) unless bodies were added or removed): for engines
   run within a step after imp_dem_sync. */
imp_status imp_dem_sync_bodies(struct imp_world *w);
/* Writes positions, orientations and velocities back into the world's state vector (all of
   them now; the world is no longer stale). O(n). */
void imp_dem_store(struct imp_world *w);
/* After a good step: the lazy store. The clumps' state is written now; the other particles'
   when something reads the world (the world marked stale: imp_world_sync calls the store).
   With several ranks or a periodic cell, everything now (imp_dem_store). O(clumps). */
void imp_dem_step_good(struct imp_world *w);
/* After a step that failed past Newton (a non-finite state): the state Newton started from
   back in place and written into the world, and the dem state rebuilt at the next step from
   the world's (d->built = 0), as for any failure. O(n). */
void imp_dem_step_failed(struct imp_world *w);
/* Swaps the state's two sets of arrays (pos, vel, angvel, quat and their *_prev). O(1). */
void imp_dem_swap_sets(imp_dem *d);

/* The engines (call imp_dem_sync first). The reset makes every force and torque zero by
   clearing the groups' marks (d->force_mark; a group's numbers are zeroed when something first
   writes one of them, or by the interaction loop's pack with many interactions). O(n / 8). */
void imp_dem_reset_forces(imp_dem *d);
/* Zeroes the forces and torques of group g (particles 8 g .. 8 g + 7 below d->n) and marks it
   (imp_dem_force_touch's rare case, out of line). */
void imp_dem_force_group_zero(imp_dem *d, int g);
/* The same for the unmarked groups among g0 .. g1 - 1 (their runs zeroed by one memset each):
   the interaction loop's pack, with many interactions, over its chunks of particles. */
void imp_dem_force_groups_zero(imp_dem *d, int g0, int g1);
/* The world's applied forces and loads on the particles (dem_world_forces.c), after the reset;
   -1 with the world's error set when the world has what the dem cannot honour (a spring). */
int imp_dem_add_world_forces(imp_dem *d, struct imp_world *w);
/* Returns 0, or -1 when out of memory (message in d->error). */
int imp_dem_collide(imp_dem *d);
int imp_dem_interactions(imp_dem *d, double dt);
void imp_dem_newton(imp_dem *d, const double gravity[3], double dt);
/* After imp_dem_newton: the first particle with a non-finite position or velocity, or -1. O(1)
   when Newton found none and there are no clumps (whose members it does not integrate), else
   O(n). */
int imp_dem_first_nonfinite(const imp_dem *d);
/* Advances the world's time and iteration by one step. */
void imp_dem_finish_step(struct imp_world *w);

/* Collision filters (dem_filter.c, the world's filter.h): whether particles a and b may
   interact; and, when the world's filters changed since the last call, the erasure of every
   interaction they now forbid (potential or real). */
int imp_dem_filter_allows(const imp_dem *d, int a, int b);
void imp_dem_filter_update(imp_dem *d);

/* Interactions: lookup (index or -1); requestErase (Yade: reset to potential, the collider
   erases it when the boxes no longer overlap). */
int imp_dem_find(const imp_dem *d, int a, int b);
/* Clears the interaction map and enters every interaction again (dem_map.c). */
void imp_dem_map_rebuild(imp_dem *d);
/* The map's indices renumbered: interaction k went to pos[k] (the pairs unchanged). */
void imp_dem_map_renumber(imp_dem *d, const int *pos);
void imp_dem_request_erase(imp_dem *d, int index);
/* Creates a potential interaction (a != b); its index, or -1 when out of memory. */
int imp_dem_add_potential(imp_dem *d, int a, int b);
/* Removes an interaction now (swap with the last: indices after it may change). */
void imp_dem_erase(imp_dem *d, int index);
/* Renumbers the interactions in the order of their pairs (a, then b: dem_order.c), the map
   and the hot copies with them; the collider calls it after each run. 1 when they moved, 0
   when they were in order already, -1 when out of memory (nothing changed). O(interactions +
   particles). */
int imp_dem_order_interactions(imp_dem *d);
/* The collider's run in order (dem_collide.c, dem_order.c): imp_dem_erase_hole removes an
   interaction from the map and leaves its record as a hole (hot a = -1, counted in ninter)
   instead of moving the last one into it; imp_dem_order_merge(d, m0) then drops the holes and
   merges the interactions added at m0.. (after the holes were made) into the others, in the
   order of their pairs: the same order as imp_dem_order_interactions, with the records moved
   once in sequence and no sort of the whole list (it sorts them all when [0, m0) was not in
   order). Its result as imp_dem_order_interactions'. */
void imp_dem_erase_hole(imp_dem *d, int index);
int imp_dem_order_merge(imp_dem *d, int m0);

/* Facets (dem_facet.c): a triangle shape for fixed bodies (vertices v[9] in shape
   coordinates; the centroid is the body's position); NULL when not finite or degenerate. */
imp_shape *imp_dem_facet_shape(const double v[9]);
int imp_dem_is_facet(const imp_shape *s);
/* Facet/sphere geometry: overlap r - distance and the unit normal from the triangle (tri[9],
   world frame) to the centre; 0 when the distance exceeds reach (reach < 0: always 1).
   prev_n orients the normal when the centre lies on the triangle. */
int imp_dem_facet_sphere(const double *tri, const double *centre, double r, double reach,
                         const double *prev_n, double *un, double n[3]);

/* Clumps (dem_clump_mass.c: the shape and its mass properties; dem_clump.c: the motion). */
enum { IMP_DEM_MASS_AUTO = 0, IMP_DEM_MASS_EXACT = 1, IMP_DEM_MASS_LENSES = 2,
       IMP_DEM_MASS_GRID = 3 };
typedef struct imp_dem_mass {
    double volume, centroid[3];
    imp_mat3 inertia;  /* per unit density, about the centroid */
    int method;        /* IMP_DEM_MASS_EXACT (no overlap), _LENSES (pairwise overlaps, exact),
                          _GRID (integrated: see dem_clump_mass.c for the accuracy) */
} imp_dem_mass;
/* Mass properties of the union of n balls (centres c[3n], radii r[n]); method AUTO chooses,
   GRID forces the integration (for tests). 0, or -1 (n < 1, out of memory). */
int imp_dem_clump_mass(const double *c, const double *r, int n, int method, imp_dem_mass *out);
/* A clump shape of n > 0 member spheres (centres in shape coordinates, radii > 0); NULL when
   the input is not finite or out of memory. */
imp_shape *imp_dem_clump_shape(const double *c, const double *r, int n);
/* The number of members of a clump shape (0: not a clump) and its data (any output may be
   NULL). */
int imp_dem_clump_members(const imp_shape *s, const double **centres, const double **radii,
                          int *method);
/* The clump's state from the world's state vector y (its slot's 13 numbers), L from the
   angular velocity; then its members placed. */
void imp_dem_clump_load(imp_dem *d, int c, const double *y, double dt);
/* Members' positions, velocities and orientations from their clump (dt: the step). */
void imp_dem_clump_place(imp_dem *d, int c, double dt);
/* Newton for the clumps (called by imp_dem_newton): sums the members' forces and torques,
   integrates, places the members. Adds gravity's work and the damping's loss to *wg, *wd. */
void imp_dem_clump_newton(imp_dem *d, const double gravity[3], double dt, double *wg, double *wd);
/* The force and torque (about the centre of mass) the members' interactions put on clump c. */
void imp_dem_clump_wrench(const imp_dem *d, int c, double f[3], double t[3]);
/* The class of a real interaction in its hot copy: IMP_DEM_HOT_REAL + the kind of its first
   particle (sphere, wall or facet; the second is a sphere), so the interaction loop sorts the
   interactions without reading the particles. */
enum { IMP_DEM_HOT_REAL = 1 };
static inline int imp_dem_hot_class(const imp_dem *d, int a) { return IMP_DEM_HOT_REAL + d->kind[a]; }

/* The interaction loop's blocks (dem_law.h: IMP_DEM_BLOCK, the same) and the mark of a write
   to interaction k's hot copy: every writer of d->hot calls it (k < inter_cap) */
enum { IMP_DEM_HOT_BLOCK = 128 };
static inline void imp_dem_hot_touch(imp_dem *d, int k) { d->hot_dirty[k / IMP_DEM_HOT_BLOCK] = 1; }
/* Particle i's force and torque made writable (+=) for this step: its group zeroed and marked
   when it is not marked yet. Every writer of d->force or d->torque calls it first. */
static inline void imp_dem_force_touch(imp_dem *d, int i)
{
    if (!d->force_mark[i >> 3]) {
        imp_dem_force_group_zero(d, i >> 3);
    }
}
/* Whether particle i's force and torque hold what was written since the reset; when not, they
   are zero (whatever d->force and d->torque hold there): every reader outside Newton asks. */
static inline int imp_dem_force_written(const imp_dem *d, int i) { return d->force_mark[i >> 3]; }
/* Whether particles a and b are members of the same clump (they never interact). */
static inline int imp_dem_same_clump(const imp_dem *d, int a, int b)
{
    return d->clump_of[a] >= 0 && d->clump_of[a] == d->clump_of[b];
}

/* The switch of an AVX2 path (dem_law.c, dem_newton.c): *mode is -1 until decided, then 0
   (portable) or 1 (AVX2); decided once from available() and the environment (IMPACT_DEM_SIMD=0
   forces the portable path). Atomic: worlds may step in several threads. */
int imp_dem_simd_mode(atomic_int *mode, int (*available)(void));

/* Yade's PWaveTimeStep: min over spheres of r / sqrt(E / rho). 0 when there are no spheres. */
double imp_dem_p_wave_dt(const imp_dem *d);
/* The largest dt accepted with contacts: IMP_DEM_DT_FACTOR times the P-wave estimate of the
   spheres in them (the linear law is stable up to about twice the estimate for one contact,
   less with several: far above it the state blows up to non-finite values or is nonsense). */
#define IMP_DEM_DT_FACTOR 10.0
/* After the interaction loop: -1 when dt is within IMP_DEM_DT_FACTOR times the P-wave estimate
   of every free sphere in a real interaction, else such a sphere (particle index), with the
   message in msg. A step with dt above the P-wave step of such a sphere (but within the
   factor) is counted in d->dt_warn_* (the warning of the Lua front). The global estimate is
   cached (d->pwave_*): O(1) when dt is within it, else O(interactions); O(n) more after a
   rebuild or a change of the default modulus. */
int imp_dem_check_dt(imp_dem *d, double dt, char *msg, size_t len);
/* Yade's unbalancedForce: mean over dynamic particles of |contact force + m g| over the mean
   magnitude of the real interactions' forces; NaN when there are none. */
double imp_dem_unbalanced_force(const imp_dem *d, const double gravity[3]);
/* Energy bookkeeping (elastic and kinetic computed now), all at the leapfrog's half step
   t - dt/2 of the velocities (dt: the step just made): the kinetic energy of the velocities,
   the work and losses booked up to there, the springs' energy moved on to there from the last
   interaction loop (dem.c). The balance gravity_work = kinetic + elastic + damping + plastic
   then holds to O(dt^2) (spec/dem_energy_spec.lua). */
imp_dem_energy imp_dem_energy_now(const imp_dem *d, double dt);
/* The springs' energy of imp_dem_energy_now (moved on to the half step), each interaction's
   share weighted by imp_dem_pair_weight(weight, a, b) when weight is not NULL (dem_domain.c). */
double imp_dem_springs_energy(const imp_dem *d, const double *weight, double dt);
/* The bulk measures (dem_measure.c) over the sphere particles and the contacts (real
   interactions with overlap >= 0). */
typedef struct imp_dem_measures {
    int spheres;              /* sphere particles (clump members included) */
    int sphere_contacts;      /* sphere/sphere contacts */
    int boundary_contacts;    /* wall or facet against a sphere */
    double solid_volume;      /* sum of the spheres' volumes (overlaps counted twice) */
    double lo[3], hi[3];      /* the box of the spheres (Yade's aabbExtrema); inf when none */
    double stress_sum[9];     /* Love-Weber: sum of f (x) (x_c - x_p), row-major; divide by V */
    double fabric[9];         /* mean of n (x) n over the sphere/sphere contacts */
    double stiff[3];          /* sum over the sphere/sphere contacts of kn (l_k n_k)^2 (l the
                                 branch vector): V d(sigma_kk) / d(eps_kk) for an affine strain
                                 along axis k (the stiffness of dem.peri_triax) */
} imp_dem_measures;
void imp_dem_measure(const imp_dem *d, imp_dem_measures *out);
/* Periodic cell (dem_cell.c). Sets the cell to H (row-major, base vectors as columns) and L;
   0, or -1 with the message in d->error (H singular or not finite, L not finite). Only spheres
   (no walls, facets, clumps) may be in a periodic world; the collider checks (and the size of
   the particles against the cell) at each run. */
int imp_dem_cell_set(imp_dem *d, const double h[9], const double L[9]);
void imp_dem_cell_clear(imp_dem *d);
/* The image offset H S of interaction I (zero without a cell) and its affine velocity L H S. */
void imp_dem_cell_offset(const imp_dem *d, const imp_dem_inter *I, double o[3], double vo[3]);
/* The periodic collider (called by imp_dem_collide when the cell is on); 0 or -1 (d->error). */
int imp_dem_cell_collide(imp_dem *d);
/* Newton's periodic parts (imp_dem_newton): before, total velocities to fluctuations and the
   affine displacement dt L x; after, H advanced, positions wrapped, total velocities again. */
void imp_dem_cell_before(imp_dem *d, double dt);
void imp_dem_cell_after(imp_dem *d, double dt);
void imp_dem_cell_free(imp_dem *d);

/* Cohesive bonds (dem_law.c; Yade's CohFrictPhys with setCohesionNow): every real interaction
   gets a bond of normal adhesion cn pi r^2 and shear adhesion cs pi r^2 (cn, cs: the normal
   and shear cohesion, Pa; r the smaller sphere radius); returns the count of bonds made, or -1
   (message in d->error) when the law is not the linear one or a value is negative or not
   finite. A bond holds tension up to the normal adhesion and shear up to the shear adhesion
   plus mu fn, and carries elastic rolling and twisting moments; past either limit it breaks
   for good and the contact is frictional again. */
int imp_dem_bond_all(imp_dem *d, double cn, double cs);
/* The intact bonds (counted). */
int imp_dem_bond_count(const imp_dem *d);
/* The force, torque and the sum of the normal stiffnesses kn of the real interactions that
   act on particle i (a servo's wall stiffness), from the last interaction loop. */
void imp_dem_particle_load(const imp_dem *d, int i, double f[3], double t[3], double *kn_sum);

/* Real interactions (counted), all interactions. */
int imp_dem_real_count(const imp_dem *d);

#endif
