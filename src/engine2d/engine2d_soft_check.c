/* engine2d_soft_check.c: a debug mode of the soft step's incremental detection
   (IMPACT_E2_DETECT_CHECK=1, read once): after every incremental detection a full one runs at
   the same state and the two record lists are compared (imp_engine2d_soft_check_stats); the
   step goes on with the incremental records. Costs a full detection per detecting step. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine2d.h"
#include "engine2d_soft.h"
#include "engine2d_soft_internal.h"
#include "world_internal.h"

int imp_e2_soft_check_wanted(void)
{
    const char *env = getenv("IMPACT_E2_DETECT_CHECK");
    return env != NULL && strcmp(env, "1") == 0;
}

static int pair_lo(const imp_rec2d *r) { return r->p < r->q ? r->p : r->q; }
static int pair_hi(const imp_rec2d *r) { return r->p < r->q ? r->q : r->p; }

/* whether records a and b are equal bit for bit in what the detection gives */
static int same_record(const imp_rec2d *a, const imp_rec2d *b)
{
    return a->p == b->p && a->q == b->q && a->key == b->key && a->kind == b->kind
           && memcmp(a->normal, b->normal, sizeof a->normal) == 0
           && memcmp(a->point, b->point, sizeof a->point) == 0
           && memcmp(&a->distance, &b->distance, sizeof a->distance) == 0;
}

int imp_e2_soft_check(imp_world *w, struct imp_e2_soft *s, const double *y)
{
    imp_engine2d *e = w->engine2d;
    int n = e->nrec, nb = 0;
    while (nb < n && e->rec[nb].connector < 0) {
        nb++;
    }
    imp_rec2d *part = malloc((size_t)(nb > 0 ? nb : 1) * sizeof *part);  /* (debug only) */
    if (part == NULL) {
        return -1;
    }
    memcpy(part, e->rec, (size_t)nb * sizeof *part);
    int nf = imp_engine2d_detect(w, y, 0);
    if (nf < 0) {
        free(part);
        return -1;
    }
    int fb = 0;
    while (fb < nf && e->rec[fb].connector < 0) {
        fb++;
    }
    long *st = s->check;  /* steps, order, moved_diff, kept_key, kept_dist (1e-12) */
    st[0]++;
    /* the pairs' order: each list's sequence of pairs (a run per pair) */
    int i = 0, j = 0, order_ok = 1;
    while (i < nb || j < fb) {
        if (i >= nb || j >= fb || pair_lo(&part[i]) != pair_lo(&e->rec[j])
            || pair_hi(&part[i]) != pair_hi(&e->rec[j])) {
            order_ok = 0;
            break;
        }
        int lo = pair_lo(&part[i]), hi = pair_hi(&part[i]);
        int i1 = i, j1 = j;
        while (i1 < nb && pair_lo(&part[i1]) == lo && pair_hi(&part[i1]) == hi) {
            i1++;
        }
        while (j1 < fb && pair_lo(&e->rec[j1]) == lo && pair_hi(&e->rec[j1]) == hi) {
            j1++;
        }
        int moved = s->moved[lo] || s->moved[hi];
        int keys_same = i1 - i == j1 - j;
        for (int k = 0; keys_same && k < i1 - i; k++) {
            keys_same = part[i + k].key == e->rec[j + k].key;
        }
        for (int k = 0; moved && k < i1 - i; k++) {
            st[2] += k >= j1 - j || !same_record(&part[i + k], &e->rec[j + k]);
        }
        if (moved) {
            st[2] += i1 - i != j1 - j;
        } else if (!keys_same) {
            st[3]++;
        } else {
            for (int k = 0; k < i1 - i; k++) {
                double dd = fabs(part[i + k].distance - e->rec[j + k].distance);
                s->check_max_dist = dd > s->check_max_dist ? dd : s->check_max_dist;
            }
        }
        i = i1, j = j1;
    }
    st[1] += !order_ok;
    /* the step goes on with the incremental records */
    if (imp_engine2d_reserve_records(e, nb) != 0) {
        free(part);
        return -1;
    }
    memcpy(e->rec, part, (size_t)nb * sizeof *part);
    free(part);
    e->nrec = nb;
    return imp_engine2d_connector_records(w, y) != 0 ? -1 : e->nrec;
}

void imp_engine2d_soft_check_stats(const imp_world *w, long out[4], double *max_distance)
{
    const struct imp_e2_soft *s = w->engine2d != NULL ? w->engine2d->soft : NULL;
    for (int k = 0; k < 4; k++) {
        out[k] = s != NULL ? s->check[k] : 0;
    }
    *max_distance = s != NULL ? s->check_max_dist : 0.0;
}
