/* profile.h: the clock of the named, timed stages of a world step (impact/profile.h holds
   the stages and the profile a world fills). */
#ifndef IMPACT_PROFILE_H
#define IMPACT_PROFILE_H

#include <impact/profile.h>

/* Seconds of a monotonic clock (only differences mean anything). */
double imp_profile_now(void);

/* Adds the time since start to stage s of the current step; returns the time now (the start
   of the next stage). */
double imp_profile_add(imp_profile *p, imp_stage s, double start);

/* Starts a step: zeroes last. */
void imp_profile_begin(imp_profile *p);
/* Ends a step: adds last to total. */
void imp_profile_end(imp_profile *p);

#endif
