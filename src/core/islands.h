/* islands.h: sleeping, as Box2D v3 has it (its ideas, written anew), for the 2D and 3D impulse
   and contact strategies: at velocity level (time_stepping = "symplectic_euler") and under the
   collision advance (time_stepping = "ode"), where a sleeping body is held: its derivative is 0
   (imp_islands_rhs) and the detection skips its pairs with sleeping or fixed bodies.

   An island is a set of moving bodies (not fixed, not the background) linked by touching
   contacts, joints or springs: found after each step by union-find over those pairs, each
   island named by its smallest slot (deterministic). A fixed body joins no island: two piles
   on one ground are two islands.

   Each moving body accumulates the time it has stayed below the world's thresholds (speed
   under sleep_linear and angular speed under sleep_angular); over the threshold, a body with
   no_sleep, or a kinematic body following a target, it restarts from 0. An island whose least
   time reaches sleep_time falls asleep whole: its velocities are set to 0, its bodies are
   neither integrated nor detected against each other or fixed bodies, and its contacts are
   kept aside (the engine's) for its waking.

   A sleeping island wakes whole when an awake body comes within contact distance of one of its
   bodies or approaches it (the engine's detection), when one of its bodies is edited between
   steps (pose or velocity: its state differs from the last step's end; an applied force,
   torque or impulse; a removed body; a filter change anywhere), when a joint or spring is added
   to or removed from one of its bodies, or through imp_islands_wake (Lua b:wake()).

   Events (events.h): IMP_EVENT_SLEEP for each body falling asleep at the end of the step,
   IMP_EVENT_WAKE for each body that woke during the step or between it and the last one (in
   slot order, in the step's queue).

   With sleep off (the default) nothing here runs and every result is as it was. */
#ifndef IMPACT_ISLANDS_H
#define IMPACT_ISLANDS_H

#include <stddef.h>

#include <impact/status.h>

struct imp_world;

typedef struct imp_islands {
    int cap;                /* slots the arrays hold */
    int *parent;            /* union-find over slots: the scratch of one build */
    int *island;            /* per slot: its island's name while asleep, -1 awake */
    unsigned *gen;          /* per slot: the generation of the body the entries are about */
    double *rest;           /* per slot: seconds below the thresholds */
    int nsleeping;          /* sleeping bodies */
    int nsleeping_islands;  /* sleeping islands */
    int nislands;           /* islands at the last build, asleep or awake */
    int woke;               /* bodies woke since the engine last cleared it */
    unsigned char *owed;    /* per slot: a wake event owed (the body woke since the last flush) */
    unsigned char *asked;   /* per slot: 1 asked to sleep (imp_islands_ask_sleep); in a build,
                               a root's 2 says a body of its island never sleeps */
    int nowed;
    unsigned filter_version;
} imp_islands;

void imp_islands_free(imp_islands *s);

/* Whether the world sleeps (its option sleep). */
int imp_islands_on(const struct imp_world *w);

/* At the start of a step: sizes the arrays with the world's slots (0 or IMP_ERR_NOMEM) and
   wakes the islands whose bodies were edited since the last step (see above). */
imp_status imp_islands_prepare(struct imp_world *w);

/* 1 when slot s sleeps. */
static inline int imp_islands_asleep_in(const imp_islands *s, int slot)
{
    return s != NULL && s->nsleeping > 0 && slot < s->cap && s->island[slot] >= 0;
}
int imp_islands_asleep(const struct imp_world *w, int slot);
/* 1 when neither a nor b moves this step and one of them sleeps: their contact is left alone. */
int imp_islands_resting_pair(const struct imp_world *w, int a, int b);

/* Wakes the island of slot s (its rest time restarts from 0); nothing when it is awake or out
   of range. */
void imp_islands_wake(struct imp_world *w, int slot);
/* Puts the island of slot s to sleep at the end of the next step, at rest or not (Box2D's
   b2Body_SetAwake(false), LOVE's setAwake(false)), unless a body of it has no_sleep; nothing
   for a fixed body. 0, IMP_ERR_INVALID when the world does not sleep, or IMP_ERR_NOMEM. */
imp_status imp_islands_ask_sleep(struct imp_world *w, int slot);
/* World:save and impact.load: a slot's state (its island's name while asleep or -1, its
   seconds at rest, whether it was asked to sleep); 0 when the world has no island state yet
   (then -1, 0, 0). */
int imp_islands_slot_state(const struct imp_world *w, int slot, int *island, double *rest, int *asked);
/* The world-wide count of islands at the last build (w:stats().islands). */
int imp_islands_count(const struct imp_world *w);
/* Restores slot s's state (after the bodies are in place); 0, IMP_ERR_NOMEM, or IMP_ERR_INVALID
   for a slot out of range. imp_islands_restored then recounts the sleeping bodies and islands
   and takes nislands as the last build's count. */
imp_status imp_islands_restore_slot(struct imp_world *w, int slot, int island, double rest, int asked);
imp_status imp_islands_restored(struct imp_world *w, int nislands);
/* The world's equations of motion (imp_world_rhs) with the derivative of every sleeping body
   set to 0: the right-hand side the "ode" steppers integrate while some body sleeps, so a
   sleeping body's state stays bit for bit. ctx: the world. */
void imp_islands_rhs(void *ctx, double t, const double *y, double *dydt);
/* 1 when some body sleeps. */
static inline int imp_islands_any(const imp_islands *s) { return s != NULL && s->nsleeping > 0; }

/* Wakes every island (a change of strategy). */
void imp_islands_wake_all(struct imp_world *w);

/* After a step of h: begin, link each pair that touches or is joined (either may be fixed or
   the background: no link then), finish (links the springs, updates the rest times, puts the
   islands at rest to sleep). */
void imp_islands_begin(struct imp_world *w);
void imp_islands_link(struct imp_world *w, int a, int b);
void imp_islands_finish(struct imp_world *w, double h);

#endif
