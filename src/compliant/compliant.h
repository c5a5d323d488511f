/* compliant.h: the compliant strategy (Modia3D): bodies penetrate slightly and the law of
   compliant_law.h pushes them apart; a variable-step GSL integrator advances the state and the
   instants where contacts begin and end are located as zero crossings.

   Contact bookkeeping as in seed 000 (Modia3D's contact detection): pairs are keyed by the
   two body slots; at an event each pair gets the flag contact = distance < -z_eps, kept until
   the next event; the value watched is the distance with hysteresis,
     contact ? distance : distance + 2 z_eps,
   so a contact begins when the distance falls below -2 z_eps and ends when it rises above 0.
   contact (contactDict), last_contact (lastContactDict) and no_contact (noContactDict) are
   arrays sorted by key; the distance set keeps the nz_max smallest keys (contact pairs first).
   More than nz_max pairs in contact is an error. The law's constants are frozen for each
   contact episode (copied from last_contact while a pair stays in contact).

   Flat pairs: a 3D pair of which neither body is a sphere is one contact with a patch of up to
   4 points under the flat-punch law (compliant_patch.h), weighed against the narrow phase's
   point where the face is deeper than the true penetration, with a smooth onset ramp, so the
   right-hand side stays continuous as piles lean and rock; spheres keep Hertz's single point.
   A pair found penetrating at an instant without history (the start, an edit) begins with the
   approach speed of its stored elastic energy; its contact_begin carries a warning (the event's
   overlap) when it is deeper than a hundredth of the smaller bounding radius.

   Cost: the candidate pairs are those whose boxes, grown by a verlet margin, overlap, kept by
   a sort-and-sweep broad phase (broadphase3d.h) updated after each accepted step (O(bodies +
   swaps)); they are visited after each accepted step (O(candidates)); each evaluation of the
   equations of motion visits only the pairs in contact. */
#ifndef IMPACT_COMPLIANT_H
#define IMPACT_COMPLIANT_H

#include <stddef.h>

#include <impact/compliant_def.h>
#include "compliant_law.h"
#include "proximity.h"
#include <impact/status.h>

struct imp_world;


/* A pair of bodies that may touch. */
typedef struct imp_cpair {
    long long key;       /* slot_a << 32 | slot_b, slot_a < slot_b */
    int a, b;
    int kind_a, kind_b;  /* IMP_LAW_SPHERE or IMP_LAW_OTHER */
    double radius_a, radius_b;
    int patch;           /* 3D, neither a sphere: a contact patch (compliant_patch.h) */
    double area;         /* m^2: the patch area of a patch pair (the smaller largest face) */
} imp_cpair;

/* An entry of the contact dictionaries. */
typedef struct imp_centry {
    long long key;
    int pair;            /* index in pairs */
    int contact;         /* the flag fixed at the last event */
    double distance;     /* distanceOrg */
    double dist_h;       /* distance with hysteresis */
    int has_geometry;    /* geom is valid (the bounding boxes overlapped) */
    imp_proximity geom;
    imp_contact_law law; /* contact entries: frozen at the start of the episode */
    /* patch pairs in contact: the patch taken after the last accepted step (or event), as
       material points of each body and the normal in the reference body's frame, so every
       evaluation within a step sees one smooth force (compliant_patch.h) */
    int npatch;
    int normal_in_b;     /* the normal turns with body b (b holds the reference face) */
    double patch_a[4][3], patch_b[4][3], patch_normal[3];
    double ddelta_minus; /* m/s: penetration rate when the episode began */
} imp_centry;

typedef struct imp_compliant_stats {
    long events;          /* event instants located and processed */
    long location_steps;  /* re-integrations made while locating events */
    long contacts_begun, contacts_ended;
    long overlaps;        /* pairs found deeply interpenetrated at an event without history */
} imp_compliant_stats;

typedef struct imp_ode imp_ode;
struct imp_bp3d;

typedef struct imp_compliant {
    imp_compliant_def def;
    imp_cpair *pairs;         /* the candidate pairs, sorted by key */
    int npairs, pair_cap;
    struct imp_bp3d *bp;      /* sort-and-sweep over the colliding bodies' boxes */
    int *bp_slot;             /* box id -> body slot */
    double *box_lo, *box_hi;  /* 3 numbers per box */
    int nboxes, box_cap;
    unsigned bodies_version;  /* of the world when pairs were built */
    unsigned filter_version;  /* of the world when pairs were built (filters changed: rebuilt) */
    imp_centry *contact, *last, *no_contact, *set;
    int ncontact, nlast, nno_contact, nset;
    imp_centry *last_saved;   /* last at the start of the world step, restored on failure */
    int nlast_saved;
    int initialized;
    imp_ode *main;            /* integrators: the step, and event location */
    imp_ode *locate;
    double *y_start, *y_try, *y_hi;
    int state_capacity;
    long step_location_steps; /* internal steps of event location in the current world step */
    imp_compliant_stats stats;
} imp_compliant;

imp_compliant *imp_compliant_new(const imp_compliant_def *def);
void imp_compliant_free(imp_compliant *c);
/* Advances the world to t1 (one world step). On failure the caller restores the state; why
   says what failed. */
imp_status imp_compliant_advance(struct imp_world *w, double t1, char *why, size_t why_len);
/* Adds the contact forces of the pairs in contact at state y into f (6 numbers per slot). */
void imp_compliant_forces(const struct imp_world *w, const double *y, double *f);
/* The normal force of contact entry e at state y (for reporting). */
double imp_compliant_entry_force(const struct imp_world *w, const double *y, const imp_centry *e);
/* After a failed step: back to the episodes at the step's start; the next step begins with an
   event instant. */
void imp_compliant_restore(imp_compliant *c);
/* Forgets the contact state so the next step starts with an event (after edits). */
void imp_compliant_invalidate(imp_compliant *c);

#endif
