/* profile.c: the step profile's clock and bookkeeping (profile.h). */
#define _POSIX_C_SOURCE 200809L

#include "profile.h"

#include <string.h>
#include <time.h>

const char *const imp_stage_names[] = {"step", "integrate", "detect", "collisions",
                                       "contact_solve", "contacts", "joints", "pairs",
                                       "locate", "events", "reset_forces", "collide",
                                       "interactions", "newton", NULL};

double imp_profile_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double imp_profile_add(imp_profile *p, imp_stage s, double start)
{
    double now = imp_profile_now();
    p->last[s] += now - start;
    return now;
}

void imp_profile_begin(imp_profile *p) { memset(p->last, 0, sizeof p->last); }

void imp_profile_end(imp_profile *p)
{
    for (int s = 0; s < IMP_STAGE_COUNT; s++) {
        p->total[s] += p->last[s];
    }
}
