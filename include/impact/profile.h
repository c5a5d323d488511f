/* impact/profile.h: named, timed stages of a world step (as Box2D v3's b2Profile): the seconds each
   stage took in the last step and in all steps so far, read by w:stats().profile.
   Timing never changes results: a monotonic clock read at each stage's start and end, no
   decision depends on it. A stage not run by the world's strategy stays 0. Stages may nest:
   "step" holds the whole step; the 2D engine's "contact_solve" runs inside "integrate". */
#ifndef IMPACT_PUBLIC_PROFILE_H
#define IMPACT_PUBLIC_PROFILE_H

typedef enum imp_stage {
    IMP_STAGE_STEP = 0,      /* the whole step, shell included */
    IMP_STAGE_INTEGRATE,     /* the ODE steps (none, compliant, impulse, contact) */
    IMP_STAGE_DETECT,        /* 2D engine: collision detection (broad and narrow phase) */
    IMP_STAGE_COLLISIONS,    /* 2D engine: collision impulses (back-ups and accepted steps) */
    IMP_STAGE_CONTACT_SOLVE, /* 2D engine, contact: the contact-force LCPs (inside integrate) */
    IMP_STAGE_CONTACTS,      /* 2D engine: contact tracking (begin/end events) */
    IMP_STAGE_JOINTS,        /* 2D engine: small impacts on joints */
    IMP_STAGE_PAIRS,         /* compliant: the broad phase update after each internal step */
    IMP_STAGE_LOCATE,        /* compliant: locating a zero crossing */
    IMP_STAGE_EVENTS,        /* compliant: the actions at an event */
    IMP_STAGE_RESET_FORCES,  /* dem: the force resetter */
    IMP_STAGE_COLLIDE,       /* dem: the collider (broad and narrow phase) */
    IMP_STAGE_INTERACTIONS,  /* dem: the interaction loop (contact laws) */
    IMP_STAGE_NEWTON,        /* dem: Newton's integrator */
    IMP_STAGE_COUNT
} imp_stage;

extern const char *const imp_stage_names[]; /* indexed by imp_stage, NULL-ended */

typedef struct imp_profile {
    double last[IMP_STAGE_COUNT];   /* s: the last step (failed or not) */
    double total[IMP_STAGE_COUNT];  /* s: every step since the world was made */
} imp_profile;

#endif
