/* engine3d_soft_recycle.h: the soft step's contact recycling (engine3d_soft.h), as Box3D's
   (physics_world.c's collide task, "contact recycling"): a pair of polyhedra (boxes, convex
   hulls) keeps the manifold it had the step before, its normal, tangents and anchors as they
   were when it was computed, while neither body turned by more than 10 degrees and the pair's
   relative pose moved by less than 5 distance_tol (Box3D's 10 linear slops) since; only the
   points' gaps follow the bodies, s = s_0 + n . ((x_b + R_b l_b) - (x_a + R_a l_a)) with R each
   body's rotation now and l the anchors in the bodies' frames (as Box3D keeps them: one
   rotation a point, not the turn since the manifold's pose; the soft step's rule within a step,
   carried over steps).
   Detection does not compute such a pair's manifold (imp_e3_recycle_hold below): the held
   points are rebuilt at the current poses instead, and kept while one of them is within the
   detection's margin (a pair whose held points are all farther is detected again).

   Why (manual chapter 10, the soft step's pile of 1000): a tall stack of cubes on soft
   contacts leans over when each step's fresh manifold turns its normal with the tilting faces,
   and stands (sways and comes back) when the manifold is held: Box3D's own columns topple the
   same way, at the same rate, when its recycling is switched off.

   It also gives each point the first sub-step's warm start: the impulse of the last sub-step
   of the step before (as Box3D), of the same point (its key), or for a point whose key is new
   that of the nearest vanished point of its pair within distance_tol (a corner on the other
   face's edge changes its key as it crosses it, at the same place). */
#ifndef IMPACT_ENGINE3D_SOFT_RECYCLE_H
#define IMPACT_ENGINE3D_SOFT_RECYCLE_H

#include "engine3d.h"

struct imp_world;

/* A record, in two parts: the pair's (the poses when its manifold was computed: what the
   test whether it may be held reads, once a pair) and the point's (its identity, gap's base
   and anchors: what a held point reads). A held pair's pose is copied once, not once a point
   (imp_e3_recycle_begin), and the held test reads 80 bytes a point and 120 a pair instead of
   200 a point. */
typedef struct imp_e3_recycled_pose {
    double qa[4], qb[4];   /* the bodies' orientations when the manifold was computed */
    double rel[4];         /* the pose's relative orientation, conj(conj(q_a) q_b) ... */
    double d0[3];          /* ... and the centres' offset in a's frame, R_a^T (x_b - x_a) */
} imp_e3_recycled_pose;

/* One point's record, parallel to e->pts at the step's end (e->prev at the next step). */
typedef struct imp_e3_recycled {
    int a, b;              /* the point's identity, checked against e->prev */
    unsigned key, gen_a, gen_b;
    int pose;              /* its pair's pose (rc->pprev / rc->pcur, beside the records) */
    double base;           /* s_0: the gap then less n . ((x_b + r_b) - (x_a + r_a)) */
    double la[3], lb[3];   /* the anchors r_a, r_b then in the bodies' frames, R_a^T r_a, R_b^T r_b */
} imp_e3_recycled;

/* A pair held this step: its slots and its points' run [j, pend) in e->prev; its deepest
   penetration, imp_fmax of -gap over its points in order from -infinity (the step's deepest
   is imp_fmax over the pairs': the same bits as over the points, imp_fmax taking the later of
   equal values and passing over a NaN; imp_e3_recycle_begin reads no held point for it). */
typedef struct imp_e3_held {
    int a, b, j, pend;
    double pen;
} imp_e3_held;

typedef struct imp_e3_recycle {
    imp_e3_recycled *prev, *cur;
    int nprev, ncur, prev_cap, cur_cap;
    imp_e3_recycled_pose *pprev, *pcur; /* the pairs' poses of prev's and cur's records */
    int npcur, pprev_cap, pcur_cap;
    /* 3 per record, beside them (the step's end writes them alone, the next step's warm starts
       read them alone): the last sub-step's impulses over its length (normal, t1, t2) */
    double *fprev, *fcur;
    int fprev_cap, fcur_cap;
    double hs;             /* the step's sub-step length, set before detection (the held
                              points' warm starts, imp_e3_recycle_hold) */
    imp_e3_held *held;     /* the pairs detection held (imp_e3_recycle_hold) */
    int next;              /* e->prev's point after the run hold looked up last */
    int nheld, held_cap;
    int *map;              /* e->prev's records (-1: none), those asked for (record_of) ... */
    int mapped;            /* ... or all (1) */
    int map_cap;
    /* per slot, taken when detection opens: the orientation (w, x, y, z, normalised) and its
       rotation matrix (row-major) */
    double *rot;           /* 13 per slot: q, then R */
    unsigned char *posed;  /* 1: its rotation taken from detection's poses (imp_e3_recycle_open) */
    unsigned char *poly;   /* 1: a polyhedron whose manifolds may be held (the header's rule) */
    int slot_cap;
    int ahead;             /* e->prev's points before it are asked of the cache already, within
                              one detection (imp_e3_recycle_hold's prefetch) */
    /* the held points updated in place (imp_e3_recycle_hold): allowed this detection, and
       e->prev's first points that are (held, at their index, in the step's list) */
    int inplace_ok, inplace;
    int inplace_ev;        /* the step builds contact events (rc->oldc kept, e->ev_pairs checked) */
    double *oldc;          /* 3 per held pair in place: its event point before (imp_e3_event_point) */
    int oldc_cap;
    int same;              /* 1 from imp_e3_recycle_begin to imp_e3_recycle_end when every record
                              of the step is the last step's at the same index: rc->prev's 0 ..
                              ncur - 1 are the step's records (rc->cur, rc->pcur unwritten) */
} imp_e3_recycle;

/* Each slot's orientation (normalised) and rotation at w->data.y in rc->rot (13 per slot: q,
   then R row-major; imp_e3_pose_of's operations), for the step's stages at that state to share
   (detection's poses and free velocities, the inverse inertias, the first sub-step's free
   velocities); rc->rot, or NULL without memory. O(slots). */
const double *imp_e3_recycle_rotations(const struct imp_world *w, imp_e3_recycle *rc);

/* Detection's start (each time it runs): the last step's points matched with their records,
   each slot's orientation and rotation taken, no pair held yet. 0, or -1 without memory. */
int imp_e3_recycle_open(const struct imp_world *w, const imp_engine3d *e, imp_e3_recycle *rc);

/* Detection's question for the pair of slots (a, b), a < b, within margin: when it qualifies
   (the header's rule), its held points at the current poses, with their first sub-step's warm
   starts (over rc->hs), are appended to e->pts (in key order) and 1 is returned; 0 when the pair must be detected; -1 without memory. */
int imp_e3_recycle_hold(const struct imp_world *w, imp_engine3d *e, imp_e3_recycle *rc, int a, int b,
                        double margin);

/* Detection's pairs asked (after imp_e3_recycle_hold's last): the held points updated in place
   in e->prev's array become the step's (e->pts): when they are all of them, e->pts is that
   array until the step's end (e->aliased, imp_engine3d_finish); else they are copied to e->pts's
   first places. Either way their last step's copies are gone (e->prev_dirty, the restore's) and
   their pairs' event points before are e->ev_point's. */
void imp_e3_recycle_settle(imp_engine3d *e, imp_e3_recycle *rc);

/* 1 when detection's npts points are all the held pairs' (their runs, appended in the order
   they were held) and the held pairs are in increasing (a, b) order: e->pts is then sorted
   (each run is e->prev's, in key order), which this tells from rc->held alone (24 bytes a
   pair), without reading the points. */
int imp_e3_recycle_all_held(const imp_e3_recycle *rc, int npts);

/* After the step's detection: the held pairs take their records back, the others' points get
   new ones (e->pts kept in place, in order), every detected point's r its first sub-step's warm
   start (over rc->hs; h_last: the last step's length, for points without a record). 0, or -1
   without memory. */
int imp_e3_recycle_begin(const struct imp_world *w, imp_engine3d *e, imp_e3_recycle *rc, double h_last);

/* The step's end: point i (of e->pts) held f (its last sub-step's impulses over that
   sub-step's length), given for every point of the step (the soft step's finish_points: so
   imp_e3_recycle_begin copies no held point's impulses from the last step's, which this
   overwrote before anything read them); then the records become the next step's. */
void imp_e3_recycle_force(imp_e3_recycle *rc, int i, const double f[3]);
void imp_e3_recycle_end(imp_e3_recycle *rc);

void imp_e3_recycle_free(imp_e3_recycle *rc);

/* exchanges two arrays with their capacities */
void imp_e3_swap_arrays(void **a, int *ca, void **b, int *cb);

#endif
