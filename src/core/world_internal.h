/* world_internal.h: the definition of a world (users see it opaque: impact/world.h) and the
   functions the core and the strategies share. Not installed. */
#ifndef IMPACT_WORLD_INTERNAL_H
#define IMPACT_WORLD_INTERNAL_H

#include <stddef.h>

#include <impact/world.h>

#include "profile.h"
#include "lcg.h"
#include "rng.h"
#include "shape.h"
#include "strategy.h"

typedef struct imp_ode imp_ode; /* the adaptive integrator's GSL objects (ode_gsl.c) */

/* A world is its model, its data and its scratch, kept apart as MuJoCo keeps mjModel and
   mjData: the model says what the world is made of, the data what it is doing now, the
   scratch holds working arrays of no meaning between steps. */

/* The model: the options, the bodies' and springs' descriptions, the materials. Written only
   between steps, by the world's functions (world.c: add and remove bodies and springs, set the
   integrator, dt or strategy) and the binding's edits of a body's description; a step reads it
   and never writes it. */
typedef struct imp_world_model {
    imp_world_def def;
    int stride;              /* state numbers per body */
    imp_body *bodies;        /* slots; [0] is the background */
    int nslots;              /* slots in use (active or freed), >= 1 */
    int free_from;           /* every slot in [1, free_from) is active: the search for a freed
                                slot starts there (world.c; O(1) amortized adds) */
    int capacity;            /* slots allocated (bodies, data.y and the scratch arrays) */
    int nbodies;             /* active bodies, the background not counted */
    imp_spring *springs;
    int nsprings, spring_capacity;
    imp_load *loads;         /* loads.c */
    int nloads, load_capacity;
    imp_load_fn load_fn;     /* timed loads' values (imp_world_set_load_fn) */
    void *load_ctx;
    imp_material_table materials;
    unsigned bodies_version; /* changes when bodies are added or removed */
    /* pairs of slots that never collide (imp_world_set_no_collide): keys (min << 32) | max,
       ascending (filter.c) */
    unsigned long long *no_collide;
    int nno_collide, no_collide_cap;
    unsigned filter_version; /* changes when a filter or the no_collide pairs change: strategies
                                that keep pairs between steps drop the filtered ones then */
    int nkinematic;          /* active kinematic bodies */
} imp_world_model;

/* The data: what changes as the world runs. Written by the step (world_step.c's shell and the
   strategy's advance) and, between steps, by edits of the state (which bump state_version). */
typedef struct imp_world_data {
    double *y;               /* nslots * stride numbers, capacity * stride allocated */
    double time;             /* = time_base + steps_since_base * dt */
    double time_base;
    long steps_since_base;
    imp_rng rng;
    imp_lcg lcg;             /* myPhysicsLab's generator, drawn only under its conventions
                                (engine2d_impulse.c, engine2d_contact.c) */
    imp_stats stats;
    imp_profile profile;     /* seconds per named stage of the last and of all steps */
    unsigned state_version;  /* changes when the state may have been edited between steps
                                (imp_world_body_state; writers of y outside a step bump it):
                                the dem strategy reloads its copy only then */
    imp_event *events;       /* what happened during the last step */
    int nevents, event_capacity;
    int no_contact_events;   /* 1: no one wants contact events (imp_world_set_contact_events) */
    int error_bodies[8];     /* slots named by the last error */
    int nerror_bodies;
    int applied;             /* some body may hold a force or torque of Body:apply_force /
                                apply_torque for the next step (imp_world_clear_applied) */
    void (*stale)(struct imp_world *w);  /* non-NULL: y is behind the strategy's own copy of
                                the state (the dem's lazy store), and this writes it; called
                                once by imp_world_sync, the only way to clear it */
    char error[512];
} imp_world_data;

/* The scratch: sized with the model's capacity between steps (no allocation inside a step),
   written by the step and by the integrators it calls; nothing outside a step relies on its
   contents but y_end (the state the last step left, to detect edits). */
typedef struct imp_world_scratch {
    double *y_saved;         /* the last good state */
    double *y_end;           /* the state at the end of the last step (detects edits) */
    double *work;            /* fixed-step integrators: 5 state vectors */
    double *force;           /* per slot: force[3], torque[3] accumulated in an evaluation */
    imp_ode *ode;            /* adaptive integrators; rebuilt between steps when sizes change */
    double rhs_time;         /* the time of the equations of motion's current evaluation */
} imp_world_scratch;

struct imp_world {
    imp_world_model model;
    imp_world_data data;
    imp_world_scratch scratch;
    /* the strategies' own model, data and scratch (each strategy's header), NULL until used;
       written by the strategy's hooks only */
    struct imp_compliant *compliant;  /* compliant.h */
    struct imp_dem *dem;              /* dem.h */
    struct imp_engine2d *engine2d;    /* engine2d.h: the 2D engine's state and connectors */
    struct imp_engine3d *engine3d;    /* engine3d.h: the 3D engine's state */
    struct imp_islands *islands;      /* islands.h: sleeping, NULL until a step with sleep on */
};

/* Time derivative of the whole state at (t, y): the equations of motion. */
void imp_world_derivative(imp_world *w, double t, const double *y, double *dydt);
/* Its forces alone: each slot's force and torque (6, world frame) at (t, y) into f (nslots x
   6), as imp_world_derivative takes them (one right-hand side evaluation in the stats). */
void imp_world_forces(imp_world *w, double t, const double *y, double *f);
/* Whether imp_world_forces's laws after the bodies' own (imp_forces_body_set) add nothing: no
   active spring or load, no mutual gravitation (the strategy's forces aside: its caller knows
   them); and the record imp_world_forces keeps of an evaluation at t, for a caller that took
   the bodies' own forces itself (the 3D soft step's sub-steps). */
int imp_world_forces_body_only(const imp_world *w);
/* Whether the world has an active load (a function the step calls; a Lua one may read the
   world mid-step). */
int imp_world_loaded(const imp_world *w);
void imp_world_forces_taken(imp_world *w, double t);
/* The same as an imp_rhs_fn (ctx: the world), for the integrators. */
void imp_world_rhs(void *ctx, double t, const double *y, double *dydt);
/* The adaptive integrator (ode_gsl.h) over the world's equations of motion, its settings
   and stats, for a state of n numbers; NULL when out of memory. */
imp_ode *imp_world_ode_new(imp_world *w, size_t n);

/* Keeps every 3D body's quaternion in y unit. */
void imp_world_normalize_orientations(const imp_world *w, double *y);

/* Zeroes the forces and torques Body:apply_force / apply_torque held for the step that just
   ended (world_step.c; the dem's own step end, dem_step.c). */
void imp_world_clear_applied(imp_world *w);

/* Brings the state vector y up to date when a strategy left it stale (data.stale): every reader
   or writer of y outside a step calls it first (the world's getters and setters in src/core, the
   binding's direct readers, the end of World:_step). O(1) when not stale, else the strategy's
   store (the dem's: O(particles)). const: y is the world's cache of its state, written through
   a pointer the world holds. */
void imp_world_sync(const imp_world *w);

/* Appends an event to the queue of the current step; 0 when out of memory. */
int imp_world_push_event(imp_world *w, const imp_event *e);

#endif
