/* filter.h: collision filtering as Box2D and LOVE do it (a body's category and mask bits and its
   group, body.h), the pairs excluded by imp_world_set_no_collide, and the one predicate every
   strategy's broad phase asks before it keeps a pair: imp_filter_pair. */
#ifndef IMPACT_FILTER_H
#define IMPACT_FILTER_H

#include "world_internal.h"

/* Whether the body moves under forces and contacts (neither fixed nor kinematic). */
static inline int imp_body_free(const imp_body *b) { return !b->fixed && !b->kinematic; }

/* The filters alone: same non-zero group decides (positive: collide, negative: never), else
   both categories must meet the other's mask. */
static inline int imp_filter_pass(const imp_body *a, const imp_body *b)
{
    if (a->group != 0 && a->group == b->group) {
        return a->group > 0;
    }
    return (a->category & b->mask) != 0 && (b->category & a->mask) != 0;
}

/* Whether the no_collide list holds the pair of slots (binary search). */
int imp_filter_excluded(const imp_world *w, int a, int b);

/* Whether the filters of slots a and b pass and no_collide does not exclude them. */
static inline int imp_filter_allows(const imp_world *w, int a, int b)
{
    if (!imp_filter_pass(&w->model.bodies[a], &w->model.bodies[b])) {
        return 0;
    }
    return w->model.nno_collide == 0 || !imp_filter_excluded(w, a, b);
}

/* Whether slots a and b may touch: at least one moves freely (fixed and kinematic bodies do
   not meet each other) and imp_filter_allows. */
static inline int imp_filter_pair(const imp_world *w, int a, int b)
{
    if (!imp_body_free(&w->model.bodies[a]) && !imp_body_free(&w->model.bodies[b])) {
        return 0;
    }
    return imp_filter_allows(w, a, b);
}

/* Forgets the no_collide pairs holding slot s (its body was removed). */
void imp_filter_forget_slot(imp_world *w, int s);

/* The step's shell: kinematic bodies with a target get the velocity that reaches it over dt
   (before the advance; written to the state and to the state the last step left, so the
   strategies do not take it for an edit, unless the integrator is multistep: msbdf), and are
   put exactly on it after a good advance. */
void imp_kinematic_drive(imp_world *w, double dt);
void imp_kinematic_land(imp_world *w);

#endif
