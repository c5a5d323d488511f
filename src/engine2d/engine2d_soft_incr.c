/* engine2d_soft_incr.c: the soft step's incremental detection. When some bodies moved beyond
   the contact cache's limit since their last detection, only the pairs holding one of them
   go through the narrow phase again; every other pair keeps its cached records (moved with
   its bodies at the last step's end), in the order a full detection gives
   (imp_engine2d_detect_moved). */
#include <stdlib.h>
#include <string.h>

#include "engine2d.h"
#include "engine2d_soft.h"
#include "engine2d_soft_internal.h"
#include "world_internal.h"
#include "resize.h"

/* 1 when records a and b are of the same body pair (either way round). */
static int same_pair(const imp_rec2d *a, const imp_rec2d *b)
{
    return (a->p == b->p && a->q == b->q) || (a->p == b->q && a->q == b->p);
}

static int reserve_old(struct imp_e2_soft *s, int nold, int nslots)
{
    if (imp_grow(&s->old_list, &s->old_list_cap, nold, 2 * sizeof *s->old_list) != 0) {
        return -1;  /* two ints an entry */
    }
    if (nslots + 1 > s->old_slots) {
        int *st = realloc(s->old_start, ((size_t)nslots + 1) * sizeof *st);
        if (st == NULL) {
            return -1;
        }
        s->old_start = st;
        s->old_slots = nslots + 1;
    }
    return 0;
}

int imp_e2_soft_redetect(imp_world *w, struct imp_e2_soft *s, const double *y)
{
    imp_engine2d *e = w->engine2d;
    int ns = w->model.nslots, nold = s->nbody;
    if (reserve_old(s, nold > 0 ? nold : 1, ns) != 0) {
        return -1;
    }
    /* the cached records stay where they are, the detection fills the other buffer */
    imp_rec2d *cached = e->rec;
    int cached_cap = e->rec_cap;
    e->rec = s->old_rec;
    e->rec_cap = s->old_cap;
    s->old_rec = cached;
    s->old_cap = cached_cap;
    /* the runs (a body pair's consecutive records: first, length) listed by their smaller slot */
    int *start = s->old_start, *list = s->old_list;
    memset(start, 0, ((size_t)ns + 1) * sizeof *start);
    for (int k = 0; k < nold; k++) {
        const imp_rec2d *r = &s->old_rec[k];
        if (k == 0 || !same_pair(r, r - 1)) {
            start[(r->p < r->q ? r->p : r->q) + 1]++;
        }
    }
    for (int i = 0; i < ns; i++) {
        start[i + 1] += start[i];
    }
    for (int k = 0; k < nold; k++) {  /* (start[lo] advances; restored below) */
        const imp_rec2d *r = &s->old_rec[k];
        if (k == 0 || !same_pair(r, r - 1)) {
            int m = 1;
            while (k + m < nold && same_pair(&s->old_rec[k + m], r)) {
                m++;
            }
            int x = start[r->p < r->q ? r->p : r->q]++;
            list[2 * x] = k;
            list[2 * x + 1] = m;
        }
    }
    for (int i = ns; i > 0; i--) {
        start[i] = start[i - 1];
    }
    start[0] = 0;
    return imp_engine2d_detect_moved(w, y, s->moved, s->old_rec, start, list);
}
