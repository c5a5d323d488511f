/* strategy.h: the interface every contact strategy implements, and the registry of them
   (strategy_registry.c). The world's step (world_step.c) is one shell for all of them: it
   saves the state, calls the strategy's advance, checks the result and commits the time and
   the stats, or rolls back and calls restore. The core calls a strategy only through its
   table, never by name.

   Adding a strategy: its files (state struct, advance, its table `imp_strategy_xxx`), a value
   of imp_strategy and its name in world.h / world.c, and one line in strategy_registry.c. */
#ifndef IMPACT_STRATEGY_H
#define IMPACT_STRATEGY_H

#include <stddef.h>

#include <impact/status.h>

struct imp_world;

enum {
    IMP_DIM2 = 1 << 2,  /* dims: 2D worlds */
    IMP_DIM3 = 1 << 3   /* dims: 3D worlds */
};

enum {
    /* The 2D engine's collision handling (impulses, back-ups, connectors): bodies' elasticity
       and friction, joints and ropes belong to it. */
    IMP_STRATEGY_COLLISIONS = 1 << 0,
    /* Contact forces from an LCP inside each evaluation (the contact strategy). */
    IMP_STRATEGY_CONTACT_FORCES = 1 << 1,
    /* Keeps its own copy of the state and writes the world's only after a good step, with its
       own error messages (dem): the shell neither saves, checks nor rolls back the state. */
    IMP_STRATEGY_OWN_STATE = 1 << 2,
    /* A world of another dimension may choose it (kept from before the registry): its step
       then fails saying which dimension it needs, instead of the world's creation (dem). */
    IMP_STRATEGY_DIMS_AT_STEP = 1 << 3,
    /* Needs an adaptive integrator: a world definition given this strategy by
       imp_world_def_set_strategy starts with the adaptive default (RK8PD) (compliant). */
    IMP_STRATEGY_ADAPTIVE = 1 << 4,
    /* Steps the state by its own scheme, not with the world's integrator (the 3D engine's
       velocity-level steps): its errors do not name an integrator. */
    IMP_STRATEGY_OWN_STEPPING = 1 << 5,
    /* Cannot move kinematic bodies (dem): a step of a world holding one fails saying so. */
    IMP_STRATEGY_NO_KINEMATIC = 1 << 6
};

typedef struct imp_strategy_ops {
    const char *name;
    unsigned dims;   /* IMP_DIM2 | IMP_DIM3 */
    unsigned flags;  /* IMP_STRATEGY_* above */
    /* Makes the strategy's state if it has none yet (also done by advance); 0 or a status. */
    imp_status (*create)(struct imp_world *w);
    /* Sizes its state for the world's bodies as one is added (imp_world_add_body), so that
       the first step makes no arrays (a world's first step is timed as any other); a failure
       is left to advance, which makes what is missing. NULL: nothing. */
    void (*reserve)(struct imp_world *w);
    /* Frees the strategy's state (the world's free). */
    void (*destroy)(struct imp_world *w);
    /* Advances w->data.y from w->data.time to t1. On failure fills why (or, with
       IMP_STRATEGY_OWN_STATE, the world's error) and may name bodies in w->data.error_bodies. */
    imp_status (*advance)(struct imp_world *w, double t1, char *why, size_t why_len);
    /* Adds its forces at state y into f (6 per slot) inside an ODE evaluation; NULL: none. */
    void (*forces)(struct imp_world *w, const double *y, double *f);
    /* Undoes what a failed step did to the strategy's state (the world's state is the
       shell's); NULL: nothing to undo. */
    void (*restore)(struct imp_world *w);
    /* Forgets what it cached about the state (the strategy was switched); NULL: nothing. */
    void (*invalidate)(struct imp_world *w);
    /* Calls put(ctx, name, value, count) for each of its counters (count: an integer), 0 when
       its state does not exist yet; NULL: none. */
    void (*stats)(const struct imp_world *w,
                  void (*put)(void *ctx, const char *name, double v, int count), void *ctx);
} imp_strategy_ops;

/* The table of strategy s (an imp_strategy value) in worlds of dim dimensions, NULL when
   out of range. */
const imp_strategy_ops *imp_strategy_ops_of(int s, int dim);
/* The table of the world's strategy. */
const imp_strategy_ops *imp_world_strategy(const struct imp_world *w);
/* Whether strategy s exists and runs in dim dimensions (with IMP_STRATEGY_DIMS_AT_STEP:
   whether a world of dim dimensions may choose it). */
int imp_strategy_supports(int s, int dim);
/* The dimensions strategy s runs in, for messages: "2D", "3D", "2D or 3D" ("" when s is out
   of range). */
const char *imp_strategy_dims_name(int s);
/* Whether the world's strategy has the flag. */
int imp_world_strategy_has(const struct imp_world *w, unsigned flag);

/* The tables, each next to its strategy's code. */
extern const imp_strategy_ops imp_strategy_none;       /* strategy_none.c */
extern const imp_strategy_ops imp_strategy_compliant;  /* compliant_strategy.c */
extern const imp_strategy_ops imp_strategy_dem;        /* dem_strategy.c */
extern const imp_strategy_ops imp_strategy_impulse;    /* engine2d_strategy.c */
extern const imp_strategy_ops imp_strategy_contact;    /* engine2d_strategy.c */
extern const imp_strategy_ops imp_strategy_impulse3d;  /* engine3d_strategy.c */
extern const imp_strategy_ops imp_strategy_contact3d;  /* engine3d_strategy.c */

#endif
