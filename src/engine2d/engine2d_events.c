/* engine2d_events.c: events of the 2D engine: contact_begin and contact_end (the body pairs
   touching, a record closer than distance_tol, at the end of a step, compared with those of
   the step before) and collision (imp_engine2d_push_collision). */
#include <stdlib.h>
#include <string.h>

#include "engine2d.h"
#include "islands.h"
#include "world_internal.h"

static int cmp_touch(const void *a, const void *b)
{
    unsigned long long x = ((const imp_touch2d *)a)->key, y = ((const imp_touch2d *)b)->key;
    return (x > y) - (x < y);
}

/* One stable counting pass of the m entries of from into to by the slot half (hi: the
   lower 32 bits, else the upper) of their keys, each below n; cnt holds n + 1 counts. */
static void count_pass(const imp_touch2d *from, imp_touch2d *to, int m, int n, int *cnt, int hi)
{
    memset(cnt, 0, ((size_t)n + 1) * sizeof *cnt);
    for (int i = 0; i < m; i++) {
        unsigned long long k = from[i].key;
        cnt[(hi ? k & 0xffffffffu : k >> 32) + 1]++;
    }
    for (int k = 0; k < n; k++) {
        cnt[k + 1] += cnt[k];
    }
    for (int i = 0; i < m; i++) {
        unsigned long long k = from[i].key;
        to[cnt[hi ? k & 0xffffffffu : k >> 32]++] = from[i];
    }
}

/* e->touch_new[0 .. m - 1] sorted by key, stable (equal keys keep the records' order): two
   counting passes, O(m + slots), when m is not small beside the slots (nslots, a bound
   checked here), else the library's merge sort (glibc's qsort: stable too, so either gives
   the same order). -1 out of memory. */
static int sort_touch(imp_engine2d *e, int m, int nslots)
{
    unsigned long long top = 0;
    for (int i = 0; i < m && m >= 64; i++) {
        unsigned long long k = e->touch_new[i].key, a = k >> 32, b = k & 0xffffffffu;
        top |= a | b;  /* (an upper bound of the largest slot) */
    }
    if (m < 64 || m < nslots / 4 || top >= (unsigned long long)2 * (unsigned)nslots) {
        qsort(e->touch_new, (size_t)m, sizeof *e->touch_new, cmp_touch);
        return 0;
    }
    if (m > e->touch_tmp_cap) {
        imp_touch2d *t = realloc(e->touch_tmp, (size_t)m * sizeof *t);
        if (t == NULL) {
            return -1;
        }
        e->touch_tmp = t;
        e->touch_tmp_cap = m;
    }
    int n = (int)top + 1;
    if (n + 1 > e->touch_cnt_cap) {
        int *c = realloc(e->touch_cnt, ((size_t)n + 1) * sizeof *c);
        if (c == NULL) {
            return -1;
        }
        e->touch_cnt = c;
        e->touch_cnt_cap = n + 1;
    }
    count_pass(e->touch_new, e->touch_tmp, m, n, e->touch_cnt, 1);
    count_pass(e->touch_tmp, e->touch_new, m, n, e->touch_cnt, 0);
    return 0;
}

static void push(imp_world *w, imp_event_kind kind, double t, const imp_touch2d *c)
{
    imp_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.time = t;
    ev.body1 = (int)(c->key >> 32);
    ev.body2 = (int)(c->key & 0xffffffffu);
    ev.point[0] = c->point[0];
    ev.point[1] = c->point[1];
    ev.normal[0] = c->normal[0];
    ev.normal[1] = c->normal[1];
    ev.value = kind == IMP_EVENT_CONTACT_BEGIN ? c->velocity : 0.0;
    imp_world_push_event(w, &ev);
}

void imp_engine2d_push_collision(imp_world *w, double t, const imp_rec2d *r, double velocity,
                                 double impulse)
{
    w->engine2d->stats.collisions++;
    imp_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = IMP_EVENT_COLLISION;
    ev.time = t;
    int flip = r->q > r->p;  /* body1 < body2, normal from body1 toward body2 */
    ev.body1 = flip ? r->p : r->q;
    ev.body2 = flip ? r->q : r->p;
    ev.point[0] = r->point[0];
    ev.point[1] = r->point[1];
    ev.normal[0] = flip ? -r->normal[0] : r->normal[0];
    ev.normal[1] = flip ? -r->normal[1] : r->normal[1];
    ev.value = velocity;
    ev.impulse = impulse;
    imp_world_push_event(w, &ev);
}

int imp_engine2d_track_contacts(imp_world *w, double t)
{
    imp_engine2d *e = w->engine2d;
    if (e->touch_bodies_version != w->model.bodies_version) {
        e->ntouch = 0;  /* bodies came or went: start over without events for stale slots */
        e->touch_bodies_version = w->model.bodies_version;
    }
    int n = e->nrec;
    int need = n + (imp_islands_any(w->islands) ? e->ntouch : 0);  /* (sleeping: below) */
    if (need > e->touch_cap) {
        imp_touch2d *a = realloc(e->touch, (size_t)need * sizeof *a);
        if (a == NULL) {
            return -1;
        }
        e->touch = a;
        imp_touch2d *b = realloc(e->touch_new, (size_t)need * sizeof *b);
        if (b == NULL) {
            return -1;
        }
        e->touch_new = b;
        e->touch_cap = need;
    }
    int m = 0;
    for (int i = 0; i < n; i++) {
        const imp_rec2d *r = &e->rec[i];
        if (r->connector >= 0 || !(r->distance < w->model.def.engine2d.distance_tol)) {
            continue;
        }
        int flip = r->q > r->p;
        unsigned long long lo = (unsigned)(flip ? r->p : r->q), hi = (unsigned)(flip ? r->q : r->p);
        imp_touch2d *c = &e->touch_new[m++];
        c->key = lo << 32 | hi;
        c->point[0] = r->point[0];
        c->point[1] = r->point[1];
        c->normal[0] = flip ? -r->normal[0] : r->normal[0];
        c->normal[1] = flip ? -r->normal[1] : r->normal[1];
        c->velocity = r->velocity;
    }
    for (int i = 0; i < e->ntouch && imp_islands_any(w->islands); i++) {
        /* sleeping (islands.h): the pairs of a sleeping body are not detected; they touch still */
        int a = (int)(e->touch[i].key >> 32), b = (int)(e->touch[i].key & 0xffffffffu);
        if (imp_islands_resting_pair(w, a, b)) {
            e->touch_new[m++] = e->touch[i];
        }
    }
    if (m > 1 && sort_touch(e, m, w->model.nslots) != 0) {
        return -1;
    }
    int u = 0;  /* unique keys: the most approaching record of each pair (the first in the
                   records' order among equals: the sort is stable) */
    for (int i = 0; i < m; i++) {
        if (u > 0 && e->touch_new[u - 1].key == e->touch_new[i].key) {
            if (e->touch_new[i].velocity < e->touch_new[u - 1].velocity) {
                e->touch_new[u - 1] = e->touch_new[i];
            }
            continue;
        }
        e->touch_new[u++] = e->touch_new[i];
    }
    int i = 0, j = 0;
    while (i < e->ntouch || j < u) {
        if (j >= u || (i < e->ntouch && e->touch[i].key < e->touch_new[j].key)) {
            push(w, IMP_EVENT_CONTACT_END, t, &e->touch[i++]);
        } else if (i >= e->ntouch || e->touch_new[j].key < e->touch[i].key) {
            push(w, IMP_EVENT_CONTACT_BEGIN, t, &e->touch_new[j++]);
        } else {
            i++;
            j++;
        }
    }
    imp_touch2d *tmp = e->touch;
    e->touch = e->touch_new;
    e->touch_new = tmp;
    e->ntouch = u;
    return 0;
}
