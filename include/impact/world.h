/* impact/world.h: a world of rigid bodies in 2D or 3D, its options, forces and time stepping.

     imp_world_def def = imp_world_default_def(2);
     imp_world *w = imp_world_new(&def);
     imp_body_def bd = imp_body_default_def(2);
     bd.shape = imp_shape2d_circle(0.5); bd.density = 1; bd.state[1] = 3;
     imp_body_id b = imp_world_add_body(w, &bd);
     imp_shape_release(bd.shape);
     for (int i = 0; i < 100; i++) if (imp_world_step(w) != IMP_OK) puts(imp_world_error(w));
     imp_world_free(w);

   Bodies are named by handles {slot, generation}; slot 0 is the fixed background. The world
   is opaque: its definition, time, counts, stats, profile, events and error are read through
   the functions below. Errors: functions that can fail return imp_status, and
   imp_world_error says what went wrong, when, and which bodies (imp_world_error_bodies). */
#ifndef IMPACT_PUBLIC_WORLD_H
#define IMPACT_PUBLIC_WORLD_H

#include <stddef.h>

#include <impact/body.h>
#include <impact/compliant_def.h>
#include <impact/engine2d_def.h>
#include <impact/events.h>
#include <impact/integrator.h>
#include <impact/material.h>
#include <impact/profile.h>
#include <impact/status.h>
#include <impact/types.h>

typedef enum imp_strategy {
    IMP_STRATEGY_NONE = 0,   /* bodies pass through each other */
    IMP_STRATEGY_COMPLIANT,  /* elastic-dissipative contact forces, events located (compliant.h) */
    IMP_STRATEGY_DEM,        /* 3D discrete elements, leapfrog + Cundall damping (dem.h) */
    /* engine2d.h in 2D worlds, engine3d.h in 3D worlds */
    IMP_STRATEGY_IMPULSE,    /* collisions by impulses */
    IMP_STRATEGY_CONTACT,    /* collisions plus contact forces */
    IMP_STRATEGY_COUNT
} imp_strategy;

extern const char *const imp_strategy_names[];

typedef struct imp_world_def {
    int dim;                 /* 2 or 3 */
    double gravity[3];       /* m/s^2, uniform */
    double dt;               /* s, the world step */
    imp_integrator_def integrator;
    imp_strategy strategy;
    double linear_damping;   /* N s/m: force -c v on every body */
    double angular_damping;  /* N m s: torque -c w on every body */
    double gravitation_g;    /* G of mutual gravitation (0: none), m^3 / (kg s^2) */
    double gravitation_softening; /* m: the 1/r^2 law uses sqrt(r^2 + eps^2) */
    unsigned long long seed;
    imp_compliant_def compliant;  /* settings of the compliant strategy */
    imp_engine2d_def engine2d;    /* settings of the impulse and contact strategies */
    /* sleeping (src/core/islands.h; the 3D impulse and contact strategies at velocity level):
       islands of touching or joined bodies at rest fall asleep, wake on contact or an edit */
    int sleep;               /* 0: off (the default: every result as without it) */
    double sleep_time;       /* s an island stays below the thresholds before it sleeps (0.5) */
    double sleep_linear;     /* m/s: a body's speed threshold (0.05) */
    double sleep_angular;    /* rad/s: a body's angular speed threshold (2 deg/s) */
} imp_world_def;

typedef struct imp_body_def {
    imp_shape *shape;        /* retained by the body; may be NULL when mass and inertia given */
    double mass;             /* kg; 0 = from density and shape */
    double density;          /* kg/m^2 (2D) or kg/m^3 (3D); used when mass is 0 */
    int has_inertia;         /* inertia given explicitly (body frame, about the centre) */
    imp_mat3 inertia;
    int fixed;
    double state[IMP_STRIDE_3D]; /* initial state in the body layout (see body.h) */
    double linear_damping;   /* negative: the world's */
    double angular_damping;  /* negative: the world's */
    int material;            /* index in the world's material table, -1 for none */
    int collide;             /* takes part in contact (default 1) */
    double elasticity;       /* impulse/contact strategies: coefficient of restitution (1) */
    double friction;         /* contact strategy: Coulomb coefficient (0) */
    int kinematic;           /* moved by its velocity, infinite mass (body.h); not with fixed */
    int has_filter;          /* 0: the default filter (category 1, mask 0xFFFF, group 0) */
    unsigned category, mask; /* with has_filter: 16 bits each (body.h) */
    int group;               /* with has_filter: -32768 .. 32767 */
    int no_sleep;            /* 1: never sleeps and keeps its island awake (default 0) */
} imp_body_def;

typedef struct imp_body_id {
    int slot;
    unsigned generation;
} imp_body_id;

typedef struct imp_spring_def {
    imp_body_id body1, body2;
    double point1[3], point2[3]; /* body frame (the background's frame is the world's) */
    double rest_length;          /* m */
    double stiffness;            /* N/m */
    double damping;              /* N s/m, along the spring */
} imp_spring_def;

typedef struct imp_spring {
    imp_spring_def def;
    int active;
    unsigned generation;
} imp_spring;

typedef struct imp_spring_id {
    int index;
    unsigned generation;
} imp_spring_id;

/* A load: a force and a torque held on a body from step to step and evaluated at every stage
   of the integrator (loads.c), as myPhysicsLab's force laws and Yade's permanent forces. The
   force acts at point (body frame, from the centre of mass); with body_frame the force and
   torque turn with the body (a thruster), else they keep their world directions. */
typedef struct imp_load_def {
    imp_body_id body;
    double force[3];             /* N (2D: [0], [1]) */
    double torque[3];            /* N m (2D: [2]) */
    double point[3];             /* body frame */
    int body_frame;              /* 1: force and torque in the body's frame; 0: the world's */
    int timed;                   /* 1: the world's load function gives them at each evaluation */
} imp_load_def;

typedef struct imp_load {
    imp_load_def def;
    int active;
    unsigned generation;
} imp_load;

typedef struct imp_load_id {
    int index;
    unsigned generation;
} imp_load_id;

typedef struct imp_energy {
    double kinetic;      /* translational, 1/2 m v^2 */
    double rotational;   /* 1/2 w . I w */
    double potential;    /* uniform gravity, gravitation, springs */
    double total;
} imp_energy;

typedef struct imp_stats {
    long steps;          /* world steps taken */
    long substeps;       /* internal integrator steps (adaptive methods; = steps otherwise) */
    long rejected;       /* internal steps rejected by the error control */
    long rhs_evaluations;
    long failures;       /* steps that failed and were undone */
    double step_seconds; /* wall time spent in steps */
} imp_stats;

typedef struct imp_world imp_world;

imp_world_def imp_world_default_def(int dim);
/* Gives def the strategy s, and the integration method it needs by default (the compliant
   strategy: an adaptive one, RK8PD); set other integrator options after. */
void imp_world_def_set_strategy(imp_world_def *def, imp_strategy s);
imp_body_def imp_body_default_def(int dim);
/* IMP_OK when def is accepted, else IMP_ERR_INVALID with a message in why (may be NULL)
   naming the option, its value and what is accepted. */
imp_status imp_world_check_def(const imp_world_def *def, char *why, size_t why_len);
/* NULL when out of memory or def invalid (imp_world_check_def says why). */
imp_world *imp_world_new(const imp_world_def *def);
void imp_world_free(imp_world *w);

/* Adds a body; on failure returns slot -1 and imp_world_error says why (mass <= 0, no shape
   and no inertia, non-finite state, shape of the other dimension, ...). */
imp_body_id imp_world_add_body(imp_world *w, const imp_body_def *def);
imp_status imp_world_remove_body(imp_world *w, imp_body_id id);
/* The body, or NULL for a stale or invalid handle. The background (slot 0) is valid. */
imp_body *imp_world_body(imp_world *w, imp_body_id id);
/* The body's state (stride numbers) to edit, or NULL for a stale handle; counts as an edit
   (bumps state_version). */
double *imp_world_body_state(imp_world *w, imp_body_id id);
/* The same to read only (no edit counted). */
const double *imp_world_body_state_read(const imp_world *w, imp_body_id id);
imp_body_id imp_world_background(const imp_world *w);

imp_spring_id imp_world_add_spring(imp_world *w, const imp_spring_def *def);
imp_status imp_world_remove_spring(imp_world *w, imp_spring_id id);
imp_spring *imp_world_spring(imp_world *w, imp_spring_id id);

/* Loads (loads.c): IMP_ERR_INVALID for a body of another world, the background, a fixed
   body, or values not finite; IMP_ERR_NOMEM. A removed body's loads go with it. */
imp_load_id imp_world_add_load(imp_world *w, const imp_load_def *def);
imp_status imp_world_remove_load(imp_world *w, imp_load_id id);
/* The load to read or edit between steps, or NULL for a stale handle. */
imp_load *imp_world_load(imp_world *w, imp_load_id id);
/* The function that gives a timed load's force and torque at time t (its frame's; they come
   in holding the load's def values), called at every evaluation of the forces; it returns 0,
   or nonzero when it failed: the load's force is then NaN, so the step fails and the world
   keeps its last good state. */
typedef int (*imp_load_fn)(void *ctx, int index, double t, double force[3], double torque[3]);
void imp_world_set_load_fn(imp_world *w, imp_load_fn fn, void *ctx);

/* Collision filtering (filter.c). A body's filter: IMP_ERR_INVALID (nothing changed) when a
   value is out of range (category and mask in 0 .. 0xFFFF, group in -32768 .. 32767). */
imp_status imp_body_set_filter(imp_world *w, imp_body_id id, unsigned category, unsigned mask,
                               int group);
/* Whether bodies a and b never collide whatever their filters (no_collide = 1) or collide as
   their filters say (no_collide = 0); IMP_ERR_NOMEM, IMP_ERR_STALE. */
imp_status imp_world_set_no_collide(imp_world *w, imp_body_id a, imp_body_id b, int no_collide);
/* Whether the broad phases pair a and b: at least one of them moves freely (neither fixed nor
   kinematic), their filters let them, and no_collide does not forbid them (collide = 0 and
   shapes are the strategies' business). 0 for a stale handle. */
int imp_world_should_collide(const imp_world *w, imp_body_id a, imp_body_id b);
/* A kinematic body's pose (2D: x, y, angle; 3D: x, y, z, qw, qx, qy, qz) at the end of the
   next step: the step sets its velocity to the secant that reaches it (rotation: the
   quaternion's, about a fixed axis) and ends with the body there. IMP_ERR_INVALID when the
   body is not kinematic or the pose not finite (a zero quaternion). */
imp_status imp_body_set_target(imp_world *w, imp_body_id id, const double *pose);

/* Changes the integrator or the step between steps. */
imp_status imp_world_set_integrator(imp_world *w, const imp_integrator_def *def);
imp_status imp_world_set_dt(imp_world *w, double dt);

/* One step of dt. On failure the state is the one before the step, the error message says
   when and which bodies, and the status is IMP_ERR_SOLVER or IMP_ERR_NONFINITE. */
imp_status imp_world_step(imp_world *w);
const char *imp_world_error(const imp_world *w);

imp_energy imp_world_energy(const imp_world *w);
/* Linear momentum (2D: 2 numbers, 3D: 3). */
void imp_world_momentum(const imp_world *w, double p[3]);
/* Angular momentum about the world origin (2D: the z component in l[2]). */
void imp_world_angular_momentum(const imp_world *w, double l[3]);
/* Per body: kinetic (translational) and rotational energy, momentum, angular momentum about
   the world origin. */
double imp_body_kinetic_energy(const imp_world *w, imp_body_id id);
double imp_body_rotational_energy(const imp_world *w, imp_body_id id);
void imp_body_momentum(const imp_world *w, imp_body_id id, double p[3]);
void imp_body_angular_momentum(const imp_world *w, imp_body_id id, double l[3]);

/* Point transforms and point velocity for a body (vectors of dim numbers). */
void imp_body_to_world(const imp_world *w, imp_body_id id, const double *p_body, double *p_world);
void imp_body_to_body(const imp_world *w, imp_body_id id, const double *p_world, double *p_body);
void imp_body_point_velocity(const imp_world *w, imp_body_id id, const double *p_world, double *v);
/* Inertia tensor about the centre of mass in the world frame (3D; 2D: m[2][2]). */
imp_mat3 imp_body_world_inertia(const imp_world *w, imp_body_id id);

/* Applies an impulse j (N s) at a world point now (NULL: the centre): velocities jump.
   IMP_ERR_NONFINITE, and nothing changed, when the new velocities would not be finite. */
imp_status imp_body_apply_impulse(imp_world *w, imp_body_id id, const double *j, const double *at);
/* Adds a force (N) at a world point (NULL: the centre) held during the next step. */
void imp_body_apply_force(imp_world *w, imp_body_id id, const double *f, const double *at);
void imp_body_apply_torque(imp_world *w, imp_body_id id, const double *t);

/* Switches the strategy between steps. */
imp_status imp_world_set_strategy(imp_world *w, imp_strategy s);

/* 64-bit FNV-1a hash of the bits of the state vector and time: equal runs, equal hashes. */
unsigned long long imp_world_state_hash(const imp_world *w);

/* ---- Reading the world (it is opaque: these are the ways in) ---- */
const imp_world_def *imp_world_get_def(const imp_world *w);
int imp_world_dim(const imp_world *w);
double imp_world_time(const imp_world *w);
/* Active bodies, the background not counted. */
int imp_world_body_count(const imp_world *w);
/* Slots in use (active or freed, the background's included): slot numbers are below it. */
int imp_world_slot_count(const imp_world *w);
imp_stats imp_world_stats(const imp_world *w);
/* Seconds per named stage of the last step and of all steps. */
const imp_profile *imp_world_profile(const imp_world *w);
/* What happened during the last step: *n events (valid until the next step). */
const imp_event *imp_world_events(const imp_world *w, int *n);
/* Whether the steps build contact events (contact_begin, contact_end, collision): on (1) for a
   new world. Off (0), the engines may leave them out (the 3D impulse and contact strategies,
   soft step included, do: their walk of the step's points is skipped and an impact's impulses
   are not gathered), so imp_world_events may then hold none; sleep and wake events come either
   way. Results do not depend on it: the state is the same to the bit. Turned on again, the
   next step's contact_begin and contact_end compare with the last step's contacts as if it had
   been on; a collision is that of an impact begun since. The Lua binding turns it on while the
   world has a contact event handler (World:on). */
void imp_world_set_contact_events(imp_world *w, int on);
int imp_world_contact_events(const imp_world *w);
/* The slots the last error named: *n of them. */
const int *imp_world_error_bodies(const imp_world *w, int *n);
/* The world's materials (imp_materials_put and friends), by index in imp_body_def.material. */
imp_material_table *imp_world_materials(imp_world *w);

#endif
