/* impact/events.h: what happened during a step, queued in C and handed to Lua after the step, so
   Lua never re-enters a half-finished step. */
#ifndef IMPACT_PUBLIC_EVENTS_H
#define IMPACT_PUBLIC_EVENTS_H

typedef enum imp_event_kind {
    IMP_EVENT_CONTACT_BEGIN = 0,
    IMP_EVENT_CONTACT_END = 1,
    IMP_EVENT_COLLISION = 2,  /* engine2d: an impulse at a collision (value: the normal
                                 velocity before it, impulse: its size) */
    IMP_EVENT_SLEEP = 3,      /* sleeping (islands.h): body1 fell asleep (body2 0, point its
                                 position, value its island's name: the island's smallest slot) */
    IMP_EVENT_WAKE = 4        /* body1 woke (the same fields) */
} imp_event_kind;

typedef struct imp_event {
    imp_event_kind kind;
    double time;
    int body1, body2;   /* slots, body1 < body2 */
    double point[3];    /* world: midway between the two bodies' contact points */
    double normal[3];   /* unit, from body1 towards body2 */
    double value;       /* contact_begin: the penetration rate at the start (m/s) */
    double impulse;     /* collision: the impulse (N s) along the normal */
    double overlap;     /* contact_begin (compliant): the depth (m) of a pair found deeply
                           interpenetrated where no contact was located (the start, or after an
                           edit), deeper than a hundredth of the smaller bounding radius: a
                           warning; 0 otherwise */
} imp_event;

#endif
