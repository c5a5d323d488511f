/* world_access.c: reading an opaque world (impact/world.h): its definition, time, counts,
   stats, profile, events, error and materials; and bringing its state vector up to date
   (imp_world_sync). */
#include "world_internal.h"

const imp_world_def *imp_world_get_def(const imp_world *w) { return &w->model.def; }

int imp_world_dim(const imp_world *w) { return w->model.def.dim; }

double imp_world_time(const imp_world *w) { return w->data.time; }

int imp_world_body_count(const imp_world *w) { return w->model.nbodies; }

int imp_world_slot_count(const imp_world *w) { return w->model.nslots; }

imp_stats imp_world_stats(const imp_world *w) { return w->data.stats; }

const imp_profile *imp_world_profile(const imp_world *w) { return &w->data.profile; }

const imp_event *imp_world_events(const imp_world *w, int *n)
{
    *n = w->data.nevents;
    return w->data.events;
}

void imp_world_set_contact_events(imp_world *w, int on) { w->data.no_contact_events = !on; }

int imp_world_contact_events(const imp_world *w) { return !w->data.no_contact_events; }

const int *imp_world_error_bodies(const imp_world *w, int *n)
{
    *n = w->data.nerror_bodies;
    return w->data.error_bodies;
}

imp_material_table *imp_world_materials(imp_world *w) { return &w->model.materials; }

void imp_world_sync(const imp_world *cw)
{
    if (cw->data.stale == NULL) {
        return;
    }
    imp_world *w = (imp_world *)(void *)cw;  /* the world itself is never const-defined */
    void (*store)(imp_world *) = w->data.stale;
    w->data.stale = NULL;
    store(w);
}
