/* engine2d_sleep.c: the 2D engine's side of sleeping (islands.h, engine2d_sleep.h): the wake on
   contact after a trial step's detection, the islands built from the pairs touching at a step's
   end and the connectors. */
#include "engine2d_sleep.h"

#include "islands.h"
#include "world_internal.h"

imp_status imp_e2_sleep_begin(imp_world *w)
{
    if (!imp_islands_on(w)) {
        return IMP_OK;
    }
    imp_status st = imp_islands_prepare(w);
    if (st == IMP_OK) {
        w->islands->woke = 0;
    }
    return st;
}

/* a moving body that is awake */
static int awake_moving(const imp_world *w, int s)
{
    return s > 0 && s < w->model.nslots && w->model.bodies[s].active && !w->model.bodies[s].fixed
           && !imp_islands_asleep_in(w->islands, s);
}

/* wakes the sleeping side of the records that link it to an awake moving body and touch or
   approach; how many woke */
static int wake_in(imp_world *w, const imp_rec2d *rec, int n)
{
    double tol = w->model.def.engine2d.distance_tol;
    int woke = 0;
    for (int i = 0; i < n; i++) {
        const imp_rec2d *r = &rec[i];
        int sp = imp_islands_asleep_in(w->islands, r->p), sq = imp_islands_asleep_in(w->islands, r->q);
        if (sp == sq) {
            continue;
        }
        if (!awake_moving(w, sp ? r->q : r->p)) {
            continue;  /* a sleeping body's connector to the background or a fixed body */
        }
        if (r->connector >= 0 || r->kind == IMP_HIT_COLLISION || r->distance < tol || r->velocity < 0.0) {
            imp_islands_wake(w, sp ? r->p : r->q);
            woke++;
        }
    }
    return woke;
}

int imp_e2_sleep_detected(imp_world *w, imp_engine2d *e)
{
    if (!imp_islands_any(w->islands)) {
        return 0;
    }
    int woke = wake_in(w, e->rec, e->nrec);
    if (e->stage_hit) {  /* an abandoned trial step: the records of the stage that stopped it */
        woke += wake_in(w, e->stage_rec, e->nstage_rec);
    }
    if (woke > 0) {
        w->islands->woke = 0;
        e->rec_reusable = 0;
    }
    return woke > 0;
}

void imp_e2_sleep_end(imp_world *w, imp_engine2d *e, double h)
{
    if (!imp_islands_on(w) || w->islands == NULL) {
        return;
    }
    imp_islands_begin(w);
    for (int i = 0; i < e->ntouch; i++) {  /* the pairs touching at the step's end */
        imp_islands_link(w, (int)(e->touch[i].key >> 32), (int)(e->touch[i].key & 0xffffffffu));
    }
    for (int i = 0; i < e->nconn; i++) {
        const imp_connector2d *c = &e->conn[i];
        if (imp_engine2d_connector_alive(w, c)) {
            imp_islands_link(w, c->body1, c->body2);
        }
    }
    int before = w->islands->nsleeping;
    imp_islands_finish(w, h);
    if (w->islands->nsleeping != before) {
        e->rec_reusable = 0;  /* the last records hold pairs that are no longer detected */
    }
}
