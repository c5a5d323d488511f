/* engine2d_sleep.h: sleeping in the 2D engine (islands.h), under both time steppings: hooks of
   the collision advance (engine2d_step.c). A sleeping body is held (its derivative 0:
   imp_islands_rhs), its pairs with sleeping or fixed bodies are not detected (it counts as
   still, engine2d_detect.c), its connectors to them give no records (joint2d.c) and its
   touching pairs stay in the contact tracking (engine2d_events.c: no contact_end while it
   sleeps). */
#ifndef IMPACT_ENGINE2D_SLEEP_H
#define IMPACT_ENGINE2D_SLEEP_H

#include "engine2d.h"

/* At the start of a step: the islands edited since the last step wake (0 or IMP_ERR_NOMEM). */
imp_status imp_e2_sleep_begin(struct imp_world *w);
/* After the detection that ends a trial step: wakes the sleeping islands an awake moving body
   touches (gap within distance_tol, a collision or a connector) or approaches in the records;
   1 when some woke (the caller takes the trial step again from its start), else 0. */
int imp_e2_sleep_detected(struct imp_world *w, imp_engine2d *e);
/* After a world step of h: the islands of the pairs touching at its end (e->touch), the
   connectors and springs, the rest times, the islands at rest put to sleep. */
void imp_e2_sleep_end(struct imp_world *w, imp_engine2d *e, double h);

#endif
