/* compliant_step.c: advancing a compliant world by one world step with a GSL adaptive
   integrator, locating the instants where contacts begin and end.

   After each accepted internal step the zero-crossing functions are checked (the actions
   after a completed step). When one changed sign, the first crossing is located by bisection
   in time: each trial point is reached by re-integrating from the step's start with a second
   stepper at the same tolerance, and the bracket keeps its right end, where the crossing has
   happened. The state there becomes the event state; the event actions rebuild the contact
   dictionaries and the main stepper restarts with a small step. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compliant_internal.h"

static int ensure_buffers(imp_world *w, size_t n)
{
    imp_compliant *c = w->compliant;
    if ((size_t)c->state_capacity >= n && c->main != NULL && imp_ode_dim(c->main) == n) {
        return 1;
    }
    imp_ode_free(c->main);
    imp_ode_free(c->locate);
    c->main = imp_world_ode_new(w, n);
    c->locate = imp_world_ode_new(w, n);
    if (c->main == NULL || c->locate == NULL) {
        return 0;
    }
    if ((size_t)c->state_capacity < n) {
        double *a = realloc(c->y_start, n * sizeof *a);
        if (a == NULL) {
            return 0;
        }
        c->y_start = a;
        double *b = realloc(c->y_try, n * sizeof *b);
        if (b == NULL) {
            return 0;
        }
        c->y_try = b;
        double *d = realloc(c->y_hi, n * sizeof *d);
        if (d == NULL) {
            return 0;
        }
        c->y_hi = d;
        c->state_capacity = (int)n;
    }
    c->initialized = 0;
    return 1;
}

/* Event location may re-integrate at most LOCATE_BUDGET times max_substeps internal steps in
   one world step (each location bisects about 30 times). */
enum { LOCATE_BUDGET = 10 };

static void add_named(imp_world *w, int slot)
{
    for (int k = 0; k < w->data.nerror_bodies; k++) {
        if (w->data.error_bodies[k] == slot) {
            return;
        }
    }
    if (w->data.nerror_bodies < 8) {
        w->data.error_bodies[w->data.nerror_bodies++] = slot;
    }
}

/* Names the bodies that limit the step size of stepper o (state y) and the bodies the first
   of them is in contact with (the stiff contact) as the error's bodies. A non-finite state or
   force is named by world_step.c from the state instead. */
static void name_culprits(imp_world *w, const imp_ode *o, const double *y)
{
    const imp_compliant *c = w->compliant;
    int slots[2];
    int n = imp_ode_culprits(o, y, slots);
    w->data.nerror_bodies = 0;
    for (int k = 0; k < n; k++) {
        add_named(w, slots[k]);
    }
    for (int k = 0; n > 0 && k < c->ncontact; k++) {
        const imp_cpair *p = &c->pairs[c->contact[k].pair];
        if (p->a == slots[0] || p->b == slots[0]) {
            add_named(w, p->a == slots[0] ? p->b : p->a);
        }
    }
}

/* The compliant law is meant for small penetrations (Hertz: much smaller than the bodies).
   A pair found deeper than DEEP_FRACTION of the smaller body's bounding radius at an event
   instant without history (the start, or after the state was edited) was placed overlapping:
   its contact would grind through ever shorter steps (a force of E times the overlap, its
   direction flipping where two overlaps are equal), so the step refuses it and names both
   bodies. Contacts that begin at located events are about 2 z_eps deep. */
#define DEEP_FRACTION 0.1

static imp_status check_overlaps(imp_world *w, double t, char *why, size_t why_len)
{
    const imp_compliant *c = w->compliant;
    for (int k = 0; k < c->ncontact; k++) {
        const imp_centry *e = &c->contact[k];
        const imp_cpair *p = &c->pairs[e->pair];
        double ra = w->model.bodies[p->a].shape->radius, rb = w->model.bodies[p->b].shape->radius;
        double size = fmin(isfinite(ra) ? ra : INFINITY, isfinite(rb) ? rb : INFINITY);
        if (isfinite(size) && -e->distance > DEEP_FRACTION * size) {
            w->data.nerror_bodies = 0;
            add_named(w, p->a);
            add_named(w, p->b);
            snprintf(why, why_len, "bodies #%d and #%d overlap by %g m at t = %.17g, more than "
                                   "a tenth of the smaller one's bounding radius (%g m): the "
                                   "compliant contact law is meant for small penetrations; "
                                   "place them apart or touching", p->a, p->b, -e->distance, t,
                     size);
            return IMP_ERR_INVALID;
        }
    }
    return IMP_OK;
}

/* y at time t_target, re-integrated from (t0, y_start) into y_try */
static int reintegrate(imp_world *w, double t0, double t_target, char *why, size_t why_len)
{
    imp_compliant *c = w->compliant;
    size_t n = (size_t)w->model.nslots * (size_t)w->model.stride;
    memcpy(c->y_try, c->y_start, n * sizeof *c->y_try);
    imp_ode_reset(c->locate);
    imp_ode_begin_step(c->locate);
    imp_ode_set_h(c->locate, t_target - t0);
    double t = t0;
    long steps = 0;
    while (t < t_target) {
        if (++steps > w->model.def.integrator.max_substeps || ++c->step_location_steps > LOCATE_BUDGET
                                                                * w->model.def.integrator.max_substeps) {
            snprintf(why, why_len, "more than %ld internal steps while locating events in one "
                                   "step, at t = %.17g (%d pairs in contact); the contact may be "
                                   "chattering", steps > w->model.def.integrator.max_substeps
                                   ? w->model.def.integrator.max_substeps
                                   : LOCATE_BUDGET * w->model.def.integrator.max_substeps, t,
                     c->ncontact);
            name_culprits(w, c->locate, c->y_try);
            return 0;
        }
        int status = imp_ode_step(c->locate, &t, t_target, c->y_try, why, why_len);
        if (status != 0) {
            if (!imp_ode_nonfinite(status)) {
                name_culprits(w, c->locate, c->y_try);
            }
            return 0;
        }
        imp_world_normalize_orientations(w, c->y_try);
        c->stats.location_steps++;
    }
    return 1;
}

imp_status imp_compliant_advance(imp_world *w, double t1, char *why, size_t why_len)
{
    if (w->model.def.integrator.kind < IMP_RKF45) {
        snprintf(why, why_len, "the compliant strategy needs an adaptive integrator (rkf45, rkck, "
                               "rk8pd or msbdf), not %s", imp_integrator_names[w->model.def.integrator.kind]);
        return IMP_ERR_INVALID;
    }
    if (w->compliant == NULL && (w->compliant = imp_compliant_new(&w->model.def.compliant)) == NULL) {
        snprintf(why, why_len, "out of memory for the compliant strategy");
        return IMP_ERR_NOMEM;
    }
    imp_compliant *c = w->compliant;
    imp_status st;
    if (c->bp == NULL || c->bodies_version != w->model.bodies_version
        || c->filter_version != w->model.filter_version) {
        if ((st = imp_compliant_build_pairs(w, why, why_len)) != IMP_OK) {
            return st;
        }
        c->initialized = 0;
    }
    size_t n = (size_t)w->model.nslots * (size_t)w->model.stride;
    if (!ensure_buffers(w, n)) {
        snprintf(why, why_len, "out of memory for the compliant integrators");
        return IMP_ERR_NOMEM;
    }
    memcpy(c->last_saved, c->last, (size_t)c->nlast * sizeof *c->last);
    c->nlast_saved = c->nlast;
    double t = w->data.time;
    imp_profile *prof = &w->data.profile;
    double clock;
    if (!c->initialized) {  /* the start, and after edits, is an event instant */
        clock = imp_profile_now();
        st = imp_compliant_event_actions(w, w->data.y, t, 0, why, why_len);
        imp_profile_add(prof, IMP_STAGE_EVENTS, clock);
        if (st != IMP_OK) {
            return st;
        }
        if ((st = check_overlaps(w, t, why, why_len)) != IMP_OK) {
            return st;
        }
        imp_ode_reset(c->main);
        c->initialized = 1;
    }
    imp_ode_begin_step(c->main);
    c->step_location_steps = 0;
    long substeps = 0;
    while (t < t1) {
        double t0 = t;
        if (++substeps > w->model.def.integrator.max_substeps) {
            snprintf(why, why_len, "more than %ld internal steps in one step at t = %.17g (step size "
                                   "%g, %d pairs in contact)%s",
                     w->model.def.integrator.max_substeps, t, imp_ode_get_h(c->main), c->ncontact,
                     c->ncontact > 0 ? "; the contact may be chattering" : "");
            name_culprits(w, c->main, w->data.y);
            return IMP_ERR_SOLVER;
        }
        memcpy(c->y_start, w->data.y, n * sizeof *w->data.y);
        clock = imp_profile_now();
        int status = imp_ode_step(c->main, &t, t1, w->data.y, why, why_len);
        clock = imp_profile_add(prof, IMP_STAGE_INTEGRATE, clock);
        if (status != 0) {
            if (!imp_ode_nonfinite(status)) {
                name_culprits(w, c->main, w->data.y);
            }
            return IMP_ERR_SOLVER;
        }
        imp_world_normalize_orientations(w, w->data.y);
        st = imp_compliant_update_pairs(w, w->data.y, why, why_len);
        clock = imp_profile_add(prof, IMP_STAGE_PAIRS, clock);
        if (st != IMP_OK) {
            return st;
        }
        if (!imp_compliant_step_actions(w, w->data.y)) {
            imp_compliant_freeze_patches(w, w->data.y);  /* the next step's patches */
            continue;
        }
        /* locate the first crossing in (t0, t] */
        double lo = t0, hi = t;
        memcpy(c->y_hi, w->data.y, n * sizeof *w->data.y);
        while (hi - lo > c->def.event_tol) {
            double mid = lo + 0.5 * (hi - lo);
            if (mid <= lo || mid >= hi) {
                break;  /* the bracket is as small as doubles allow */
            }
            if (!reintegrate(w, t0, mid, why, why_len)) {
                return IMP_ERR_SOLVER;
            }
            if (imp_compliant_crossed(w, c->y_try)) {
                hi = mid;
                memcpy(c->y_hi, c->y_try, n * sizeof *w->data.y);
            } else {
                lo = mid;
            }
        }
        t = hi;
        memcpy(w->data.y, c->y_hi, n * sizeof *w->data.y);
        clock = imp_profile_add(prof, IMP_STAGE_LOCATE, clock);
        st = imp_compliant_event_actions(w, w->data.y, t, 1, why, why_len);
        imp_profile_add(prof, IMP_STAGE_EVENTS, clock);
        if (st != IMP_OK) {
            return st;
        }
        c->stats.events++;
        imp_ode_reset(c->main);
        double h = 0.01 * (hi - t0);
        imp_ode_set_h(c->main, h > 1e-12 ? h : 1e-12);
    }
    return IMP_OK;
}

void imp_compliant_restore(imp_compliant *c)
{
    memcpy(c->last, c->last_saved, (size_t)c->nlast_saved * sizeof *c->last);
    c->nlast = c->nlast_saved;
    c->initialized = 0;
}
