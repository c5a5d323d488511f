/* engine3d_sleep.h: sleeping in the 3D engine's velocity-level steps (islands.h): hooks of
   engine3d_step.c. A sleeping body is neither integrated nor detected against another sleeping
   or fixed body (engine3d_detect.c), its free velocity is 0 and it has no joint rows; its
   island's points wait in e->slept until it wakes. */
#ifndef IMPACT_ENGINE3D_SLEEP_H
#define IMPACT_ENGINE3D_SLEEP_H

#include "engine3d.h"

/* At the start of a step: the islands edited since the last step wake, and the points of those
   that woke go back to e->prev (0 or IMP_ERR_NOMEM). */
imp_status imp_e3_sleep_begin(struct imp_world *w, imp_engine3d *e);
/* 1 when some body sleeps. */
int imp_e3_sleep_any(const struct imp_world *w);
/* After a detection with e->vel the free velocities: wakes the islands an awake body touches or
   approaches (*woke = 1: detect again, the free velocities taken again), else drops the points
   of sleeping bodies. 0 or IMP_ERR_NOMEM. */
imp_status imp_e3_sleep_detected(struct imp_world *w, imp_engine3d *e, int *woke);
/* After a step of h: the islands of its touching points and joints, the rest times, the
   islands at rest put to sleep, their points set aside. 0 or IMP_ERR_NOMEM. */
imp_status imp_e3_sleep_end(struct imp_world *w, imp_engine3d *e, double h);

#endif
