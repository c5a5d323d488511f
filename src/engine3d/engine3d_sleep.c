/* engine3d_sleep.c: the 3D engine's side of sleeping (islands.h, engine3d_sleep.h): the
   contacts of sleeping islands kept aside and given back on waking, the wake on contact after
   a detection, the islands built from the step's touching contacts and joints. */
#include <stdlib.h>
#include <string.h>

#include "engine3d.h"
#include "engine3d_joints.h"
#include "engine3d_sleep.h"
#include "islands.h"
#include "world_internal.h"

static int reserve(imp_e3_point **p, int *cap, int need)
{
    if (need <= *cap) {
        return 0;
    }
    int c = *cap > 0 ? *cap : 64;
    while (c < need) {
        c *= 2;
    }
    imp_e3_point *q = realloc(*p, (size_t)c * sizeof *q);
    if (q == NULL) {
        return -1;
    }
    *p = q;
    *cap = c;
    return 0;
}

/* the kept points of islands that woke go back to the last step's list (warm starts, and no
   contact_begin for contacts that held all along) */
static imp_status give_back(const imp_world *w, imp_engine3d *e)
{
    int back = 0;
    for (int i = 0; i < e->nslept; i++) {
        back += !imp_islands_asleep(w, e->slept[i].a) && !imp_islands_asleep(w, e->slept[i].b);
    }
    if (back == 0) {
        return IMP_OK;
    }
    if (reserve(&e->prev, &e->prev_cap, e->nprev + back) != 0) {
        return IMP_ERR_NOMEM;
    }
    e->ev_valid = 0;  /* (e->prev changes: the events' pair states are not its) */
    int m = 0;
    for (int i = 0; i < e->nslept; i++) {
        const imp_e3_point *p = &e->slept[i];
        if (!imp_islands_asleep(w, p->a) && !imp_islands_asleep(w, p->b)) {
            e->prev[e->nprev++] = *p;
        } else {
            e->slept[m++] = *p;
        }
    }
    e->nslept = m;
    qsort(e->prev, (size_t)e->nprev, sizeof *e->prev, imp_e3_point_cmp);
    return IMP_OK;
}

imp_status imp_e3_sleep_begin(imp_world *w, imp_engine3d *e)
{
    if (!imp_islands_on(w)) {
        return IMP_OK;
    }
    imp_status st = imp_islands_prepare(w);
    if (st != IMP_OK) {
        return st;
    }
    if (w->islands->woke > 0) {
        w->islands->woke = 0;
        return give_back(w, e);
    }
    return IMP_OK;
}

int imp_e3_sleep_any(const imp_world *w) { return w->islands != NULL && w->islands->nsleeping > 0; }

imp_status imp_e3_sleep_detected(imp_world *w, imp_engine3d *e, int *woke)
{
    *woke = 0;
    if (!imp_e3_sleep_any(w)) {
        return IMP_OK;
    }
    double tol = w->model.def.engine2d.distance_tol;
    for (int c = 0; c < e->npts; c++) {
        const imp_e3_point *p = &e->pts[c];
        int sa = imp_islands_asleep(w, p->a), sb = imp_islands_asleep(w, p->b);
        if (sa == sb) {
            continue;  /* both awake (both asleep: never detected) */
        }
        /* the awake side comes within contact distance or approaches (its free motion) */
        double u[3];
        imp_e3_frame_velocity(e->vel + 6 * (size_t)p->a, e->vel + 6 * (size_t)p->b, p->normal, p->t1, p->t2,
                              p->ra, p->rb, u);
        if (p->distance <= tol || u[0] < 0.0) {
            imp_islands_wake(w, sa ? p->a : p->b);
            *woke = 1;
        }
    }
    if (*woke) {
        w->islands->woke = 0;
        return give_back(w, e);  /* the caller detects again, the woken bodies moving */
    }
    int m = 0;  /* the points of a sleeping body left: its pair stays apart this step */
    for (int c = 0; c < e->npts; c++) {
        if (!imp_islands_asleep(w, e->pts[c].a) && !imp_islands_asleep(w, e->pts[c].b)) {
            e->pts[m++] = e->pts[c];
        }
    }
    e->npts = m;
    e->stats.points = m;
    return IMP_OK;
}

/* a point touches as events say (engine3d_step.c): within distance_tol or pushing */
static int touches(const imp_world *w, const imp_e3_point *p)
{
    return p->distance <= w->model.def.engine2d.distance_tol || p->r[0] > 0.0;
}

imp_status imp_e3_sleep_end(imp_world *w, imp_engine3d *e, double h)
{
    if (!imp_islands_on(w) || w->islands == NULL) {
        return IMP_OK;
    }
    imp_islands_begin(w);
    for (int c = 0; c < e->nprev; c++) {  /* the step's points (the last ones now) */
        if (touches(w, &e->prev[c])) {
            imp_islands_link(w, e->prev[c].a, e->prev[c].b);
        }
    }
    int nj = imp_e3_joint_count(w);
    for (int i = 0; i < nj; i++) {
        unsigned gen;
        int alive;
        const imp_joint3d_def *d = imp_e3_joint_def(w, i, &gen, &alive);
        if (d != NULL && alive) {
            imp_islands_link(w, d->body1, d->body2);
        }
    }
    int before = w->islands->nsleeping;
    imp_islands_finish(w, h);
    if (w->islands->nsleeping == before) {
        return IMP_OK;
    }
    /* the islands that fell asleep keep their points aside */
    int keep = 0;
    for (int c = 0; c < e->nprev; c++) {
        keep += imp_islands_asleep(w, e->prev[c].a) || imp_islands_asleep(w, e->prev[c].b);
    }
    if (reserve(&e->slept, &e->slept_cap, e->nslept + keep) != 0) {
        return IMP_ERR_NOMEM;
    }
    int m = 0;
    for (int c = 0; c < e->nprev; c++) {
        const imp_e3_point *p = &e->prev[c];
        if (imp_islands_asleep(w, p->a) || imp_islands_asleep(w, p->b)) {
            e->slept[e->nslept++] = *p;
        } else {
            e->prev[m++] = *p;
        }
    }
    if (m != e->nprev) {
        e->ev_valid = 0;  /* (some taken aside: the events' pair states are not e->prev's) */
    }
    e->nprev = m;
    return IMP_OK;
}
