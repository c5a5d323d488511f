/* islands.c: islands of bodies and their sleep (islands.h). */
#include "islands.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "world_internal.h"

void imp_islands_free(imp_islands *s)
{
    if (s == NULL) {
        return;
    }
    free(s->parent);
    free(s->island);
    free(s->gen);
    free(s->rest);
    free(s->owed);
    free(s->asked);
    free(s);
}

int imp_islands_on(const imp_world *w) { return w->model.def.sleep != 0; }

int imp_islands_asleep(const imp_world *w, int slot) { return imp_islands_asleep_in(w->islands, slot); }

/* a body that moves: not the background, not fixed */
static int moving(const imp_world *w, int s)
{
    return s > 0 && s < w->model.nslots && w->model.bodies[s].active && !w->model.bodies[s].fixed;
}

int imp_islands_resting_pair(const imp_world *w, int a, int b)
{
    const imp_islands *s = w->islands;
    if (s == NULL || s->nsleeping == 0) {
        return 0;
    }
    int sa = imp_islands_asleep_in(s, a), sb = imp_islands_asleep_in(s, b);
    return (sa || sb) && (sa || !moving(w, a)) && (sb || !moving(w, b));
}

static int grow(imp_islands *s, int cap, const imp_world *w)
{
    int *parent = realloc(s->parent, (size_t)cap * sizeof *parent);
    if (parent != NULL) {
        s->parent = parent;
    }
    int *island = realloc(s->island, (size_t)cap * sizeof *island);
    if (island != NULL) {
        s->island = island;
    }
    unsigned *gen = realloc(s->gen, (size_t)cap * sizeof *gen);
    if (gen != NULL) {
        s->gen = gen;
    }
    double *rest = realloc(s->rest, (size_t)cap * sizeof *rest);
    if (rest != NULL) {
        s->rest = rest;
    }
    unsigned char *owed = realloc(s->owed, (size_t)cap * sizeof *owed);
    if (owed != NULL) {
        s->owed = owed;
    }
    unsigned char *asked = realloc(s->asked, (size_t)cap * sizeof *asked);
    if (asked != NULL) {
        s->asked = asked;
    }
    if (parent == NULL || island == NULL || gen == NULL || rest == NULL || owed == NULL || asked == NULL) {
        return -1;  /* the arrays grown so far stay valid; cap is unchanged */
    }
    for (int i = s->cap; i < cap; i++) {
        s->parent[i] = i;
        s->island[i] = -1;
        s->gen[i] = w->model.bodies[i].generation;
        s->rest[i] = 0.0;
        s->owed[i] = 0;
        s->asked[i] = 0;
    }
    s->cap = cap;
    return 0;
}

void imp_islands_wake(imp_world *w, int slot)
{
    imp_islands *s = w->islands;
    if (s == NULL || slot < 0 || slot >= s->cap) {
        return;
    }
    s->rest[slot] = 0.0;
    int id = s->island[slot];
    if (id < 0) {
        return;
    }
    for (int i = 0; i < s->cap; i++) {
        if (s->island[i] == id) {
            s->island[i] = -1;
            s->rest[i] = 0.0;
            s->nsleeping--;
            s->woke++;
            s->owed[i] = 1;
            s->nowed++;
        }
    }
    s->nsleeping_islands--;
}

void imp_islands_rhs(void *ctx, double t, const double *y, double *dydt)
{
    imp_world *w = ctx;
    imp_world_rhs(ctx, t, y, dydt);
    const imp_islands *s = w->islands;
    size_t n = (size_t)w->model.stride;
    for (int i = 0; s != NULL && i < s->cap && i < w->model.nslots; i++) {
        if (s->island[i] >= 0) {
            memset(dydt + (size_t)i * n, 0, n * sizeof *dydt);
        }
    }
}

void imp_islands_wake_all(imp_world *w)
{
    imp_islands *s = w->islands;
    for (int i = 0; s != NULL && i < s->cap && s->nsleeping > 0; i++) {
        imp_islands_wake(w, i);
    }
}

/* a sleep or wake event of slot i at time t (island: its name) */
static void push(imp_world *w, imp_event_kind kind, int i, double t, int island)
{
    imp_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.time = t;
    ev.body1 = i;
    ev.body2 = 0;
    if (i < w->model.nslots) {
        const double *y = w->data.y + (size_t)i * (size_t)w->model.stride;
        ev.point[0] = y[0];
        ev.point[1] = y[1];
        ev.point[2] = w->model.def.dim == 3 ? y[2] : 0.0;
    }
    ev.value = island;
    imp_world_push_event(w, &ev);
}

/* the wake events owed, at time t (bodies still there) */
static void flush(imp_world *w, double t)
{
    imp_islands *s = w->islands;
    for (int i = 0; i < s->cap && s->nowed > 0; i++) {
        if (s->owed[i]) {
            s->owed[i] = 0;
            s->nowed--;
            if (i < w->model.nslots && w->model.bodies[i].active && w->model.bodies[i].generation == s->gen[i]) {
                push(w, IMP_EVENT_WAKE, i, t, -1);
            }
        }
    }
}

/* whether sleeping slot i was edited since the last step (islands.h) */
static int edited(const imp_world *w, const imp_islands *s, int i)
{
    if (i >= w->model.nslots) {
        return 1;  /* removed: its trailing slot is gone */
    }
    const imp_body *b = &w->model.bodies[i];
    if (!b->active || b->fixed || b->generation != s->gen[i] || b->no_sleep || b->nloads > 0) {
        return 1;
    }
    for (int k = 0; k < 3; k++) {
        if (b->force[k] != 0.0 || b->torque[k] != 0.0) {
            return 1;
        }
    }
    size_t n = (size_t)w->model.stride;
    return memcmp(w->data.y + (size_t)i * n, w->scratch.y_end + (size_t)i * n, n * sizeof *w->data.y) != 0;
}

/* the islands' state, made and sized with the world's slots; NULL without memory */
static imp_islands *ensure(imp_world *w)
{
    imp_islands *s = w->islands;
    if (s == NULL) {
        s = calloc(1, sizeof *s);
        if (s == NULL) {
            return NULL;
        }
        s->filter_version = w->model.filter_version;
        w->islands = s;
    }
    if (s->cap < w->model.nslots && grow(s, w->model.capacity, w) != 0) {
        return NULL;
    }
    return s;
}

imp_status imp_islands_ask_sleep(imp_world *w, int slot)
{
    if (!imp_islands_on(w)) {
        return IMP_ERR_INVALID;
    }
    imp_islands *s = ensure(w);
    if (s == NULL) {
        return IMP_ERR_NOMEM;
    }
    if (slot > 0 && slot < w->model.nslots && w->model.bodies[slot].active && !w->model.bodies[slot].fixed) {
        s->asked[slot] = 1;
    }
    return IMP_OK;
}

imp_status imp_islands_prepare(imp_world *w)
{
    if (!imp_islands_on(w)) {
        return IMP_OK;
    }
    imp_islands *s = ensure(w);
    if (s == NULL) {
        return IMP_ERR_NOMEM;
    }
    int all = s->filter_version != w->model.filter_version;  /* a filter changed: pairs may too */
    for (int i = 0; i < s->cap && s->nsleeping > 0; i++) {
        if (s->island[i] >= 0 && (all || edited(w, s, i))) {
            imp_islands_wake(w, i);
        }
    }
    s->filter_version = w->model.filter_version;
    flush(w, w->data.time);
    for (int i = 0; i < w->model.nslots; i++) {  /* a body new in its slot starts awake, at 0 */
        if (s->gen[i] != w->model.bodies[i].generation) {
            s->gen[i] = w->model.bodies[i].generation;
            s->rest[i] = 0.0;
        }
    }
    return IMP_OK;
}

/* the root of i, halving the path */
static int find(int *parent, int i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

void imp_islands_begin(imp_world *w)
{
    imp_islands *s = w->islands;
    if (!imp_islands_on(w) || s == NULL) {
        return;
    }
    for (int i = 0; i < w->model.nslots; i++) {
        s->parent[i] = i;
    }
}

void imp_islands_link(imp_world *w, int a, int b)
{
    imp_islands *s = w->islands;
    if (!imp_islands_on(w) || s == NULL || !moving(w, a) || !moving(w, b)) {
        return;
    }
    int sa = imp_islands_asleep_in(s, a), sb = imp_islands_asleep_in(s, b);
    if (sa != sb) {  /* a sleeping body linked to an awake one wakes (the engines wake it first) */
        imp_islands_wake(w, sa ? a : b);
    }
    int ra = find(s->parent, a), rb = find(s->parent, b);
    if (ra < rb) {  /* the smaller slot is the root: the island's name */
        s->parent[rb] = ra;
    } else if (rb < ra) {
        s->parent[ra] = rb;
    }
}

/* 1 when body i stays below the thresholds (and may sleep) */
static int at_rest(const imp_world *w, int i)
{
    const imp_body *b = &w->model.bodies[i];
    if (b->no_sleep || b->nloads > 0 || (b->kinematic && b->has_target)) {
        return 0;  /* (a loaded body: a small load would let it fall asleep while it speeds up) */
    }
    const imp_world_def *d = &w->model.def;
    const double *y = w->data.y + (size_t)i * (size_t)w->model.stride;
    double lin, ang;
    if (d->dim == 2) {
        const double *v = y + IMP_VEL_2D;
        lin = v[0] * v[0] + v[1] * v[1];
        ang = v[2] * v[2];
    } else {
        const double *v = y + IMP_VEL_3D;
        lin = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        ang = v[3] * v[3] + v[4] * v[4] + v[5] * v[5];
    }
    return lin < d->sleep_linear * d->sleep_linear && ang < d->sleep_angular * d->sleep_angular;
}

void imp_islands_finish(imp_world *w, double h)
{
    imp_islands *s = w->islands;
    if (!imp_islands_on(w) || s == NULL) {
        return;
    }
    for (int i = 0; i < w->model.nsprings; i++) {
        const imp_spring *sp = &w->model.springs[i];
        if (sp->active) {
            imp_islands_link(w, sp->def.body1.slot, sp->def.body2.slot);
        }
    }
    int n = w->model.nslots;
    flush(w, w->data.time);  /* the wakes of this step */
    /* the rest times, then each root's becomes its island's least (as an island's sleep time is
       Box2D's: the least of its bodies'; a root's own time may so be lowered, which can only
       delay its sleep); the parent array then holds each slot's root */
    for (int i = 1; i < n; i++) {
        if (moving(w, i) && s->island[i] < 0) {
            s->rest[i] = at_rest(w, i) ? s->rest[i] + h : 0.0;
        }
    }
    int awake_islands = 0;
    for (int i = 1; i < n; i++) {  /* roots come first: a root is its island's smallest slot */
        if (!moving(w, i) || s->island[i] >= 0) {
            continue;
        }
        int r = find(s->parent, i);
        s->parent[i] = r;
        if (r == i) {
            awake_islands++;
        } else if (s->rest[i] < s->rest[r]) {
            s->rest[r] = s->rest[i];
        }
        if (w->model.bodies[i].no_sleep || w->model.bodies[i].nloads > 0) {  /* asked or not,
                                                                             it stays awake */
            s->asked[r] = 2;
        } else if (s->asked[i] == 1 && s->asked[r] == 0) {
            s->asked[r] = 1;
        }
    }
    int slept = 0;
    for (int i = 1; i < n; i++) {
        if (!moving(w, i) || s->island[i] >= 0) {
            continue;
        }
        int r = s->parent[i];
        if (s->asked[r] != 1 && (s->rest[r] < w->model.def.sleep_time || s->asked[r] == 2)) {
            continue;
        }
        if (r == i) {
            s->nsleeping_islands++;
            slept++;
        }
        s->island[i] = r;
        s->gen[i] = w->model.bodies[i].generation;
        s->nsleeping++;
        push(w, IMP_EVENT_SLEEP, i, w->data.time + h, r);
        int vo = w->model.def.dim == 2 ? IMP_VEL_2D : IMP_VEL_3D, nv = w->model.def.dim == 2 ? 3 : 6;
        memset(w->data.y + (size_t)i * (size_t)w->model.stride + vo, 0, (size_t)nv * sizeof *w->data.y);
    }
    s->nislands = awake_islands - slept + s->nsleeping_islands;
    memset(s->asked, 0, (size_t)n * sizeof *s->asked);
}

int imp_islands_slot_state(const imp_world *w, int slot, int *island, double *rest, int *asked)
{
    const imp_islands *s = w->islands;
    if (s == NULL || slot < 0 || slot >= s->cap) {
        *island = -1;
        *rest = 0.0;
        *asked = 0;
        return 0;
    }
    *island = s->island[slot];
    *rest = s->rest[slot];
    *asked = s->asked[slot] == 1;
    return 1;
}

int imp_islands_count(const imp_world *w) { return w->islands != NULL ? w->islands->nislands : 0; }

imp_status imp_islands_restore_slot(imp_world *w, int slot, int island, double rest, int asked)
{
    if (slot <= 0 || slot >= w->model.nslots || island < -1 || island >= w->model.nslots) {
        return IMP_ERR_INVALID;
    }
    imp_islands *s = ensure(w);
    if (s == NULL) {
        return IMP_ERR_NOMEM;
    }
    s->island[slot] = island;
    s->rest[slot] = rest;
    s->asked[slot] = (unsigned char)(asked != 0);
    s->gen[slot] = w->model.bodies[slot].generation;
    return IMP_OK;
}

imp_status imp_islands_restored(imp_world *w, int nislands)
{
    imp_islands *s = ensure(w);
    if (s == NULL) {
        return IMP_ERR_NOMEM;
    }
    s->nsleeping = s->nsleeping_islands = 0;
    for (int i = 0; i < s->cap; i++) {
        if (s->island[i] >= 0) {
            s->nsleeping++;
            s->nsleeping_islands += s->island[i] == i;  /* an island is named by its smallest slot */
        }
    }
    s->nislands = nislands;
    s->filter_version = w->model.filter_version;
    return IMP_OK;
}
