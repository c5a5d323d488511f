/* compliant_internal.h: the steps of the compliant strategy shared by compliant_contacts.c
   (bookkeeping) and compliant_step.c (integration with event location). */
#ifndef IMPACT_COMPLIANT_INTERNAL_H
#define IMPACT_COMPLIANT_INTERNAL_H

#include <stddef.h>

#include "compliant.h"
#include "ode_gsl.h"
#include "world_internal.h"

/* (Re)builds the candidate pairs; fails on a body without material, a pair of shapes with no
   contact geometry, or a pair of materials with no contact pair material. */
imp_status imp_compliant_build_pairs(imp_world *w, char *why, size_t why_len);
/* Brings the candidate pairs up to date with the bodies' boxes at y (after each accepted
   step); pairs in contact are kept. Fails only when out of memory. */
imp_status imp_compliant_update_pairs(imp_world *w, const double *y, char *why, size_t why_len);
/* The index of the pair with that key, or -1. */
int imp_compliant_find_pair(const imp_compliant *c, long long key);
/* Seed 000's actions at an event instant: rebuild the dictionaries from the distances at
   (t, y), start or continue episodes, queue contact_begin / contact_end events. located = 0
   at an instant without history (the start, or after an edit): a pair found penetrating there
   begins with the approach speed its stored elastic energy stands for (so an initial overlap
   pushes the bodies apart with the pair's restitution), and the contact_begin of one deeper
   than a hundredth of the smaller bounding radius carries the depth as a warning (overlap). */
imp_status imp_compliant_event_actions(imp_world *w, const double *y, double t, int located,
                                       char *why, size_t why_len);
/* Takes the patches of the patch pairs in contact at y (after an accepted step with no
   crossing; the event actions take them themselves). */
void imp_compliant_freeze_patches(imp_world *w, const double *y);
/* The actions after a completed step; returns 1 when a zero crossing happened. */
int imp_compliant_step_actions(imp_world *w, const double *y);
/* Whether a zero crossing happened at y, with the dictionaries left as they are. */
int imp_compliant_crossed(const imp_world *w, const double *y);

#endif
