/* engine2d_soft.c: the soft step of the 2D engine (contact_solver = "soft"), after the
   sub-stepping with soft constraints and relaxation of Box2D v3 (E. Catto, "Solver2D",
   2024, its "soft step"); written from the method's description, no code of it.

   One world step of length dt:
   - detection once, at the step's start (engine2d_detect.c, connectors included), or the
     last step's records moved with their bodies while nothing moved enough to need it
     (step_records: the contact cache), or, when some bodies did, the narrow phase again on
     their pairs only, the others' records kept (engine2d_soft_incr.c: the incremental
     detection, in a full detection's order); every body-pair record and every connector row
     becomes a row with its Jacobian J = (jp, jq), its separation C0 (the record's
     distance), its normal velocity v0, effective masses 1 / (J M^-1 J^T) for the normal and
     (contacts with friction) the tangent t = perp(n), prepared once with the anchors of
     the step's start; impulses warm-started from the last step's rows of the same key; the
     rows ordered by body pair and the pairs coloured into blocks (engine2d_soft_blocks.c);
     a cached step after one whose rows came from the same records refreshes those rows and
     blocks in place (refresh_rows: the same results as building them again), or, when no row
     may take the restitution pass, only the blocks' lanes, shaped at the last step's end
     (finish_records, refresh_lanes: the same results again), and the records' state then kept
     at the step's end in lean records of 128 bytes, the full records written out only when
     read (engine2d_soft_lean.c: the same records again);
   - external forces (gravity, applied forces, damping, springs, gravitation) evaluated once;
   - `substeps` sub-steps of h = dt / substeps, each: v += h a; warm start (the impulses
     accumulated so far applied again); `iterations` solve passes with soft rows; x += h v;
     `relax_iterations` passes without the soft bias;
   - after the sub-steps one restitution pass, then positions and velocities written back.

   A row's separation during the step is C = C0 + J dx, dx the bodies' displacement since the
   step began (linear in the angle: exact for the step's small rotations to first order).
   Solve pass, row with accumulated impulse f (>= 0 unless bilateral):
     C > 0 (a gap, "speculative"):  bias = C / h, rigid: the row lets the gap close in h,
                                    no more;
     C <= 0, soft:                  bias = max(C w / (2 z + h w), -push_max),
                                    df = -m s (v + bias) - i f, with w = 2 pi hertz,
                                    a = h w (2 z + h w), s = a / (1 + a), i = 1 / (1 + a)
                                    (the implicit spring-damper of frequency hertz and damping
                                    ratio z over h, as an impulse);
     relax:                         bias = 0 (C <= 0), rigid: df = -m v.
   Contacts use hertz (at most a quarter of the sub-step rate 1 / h; twice that against a
   body that does not move), connectors joint_hertz (the same cap) and their damping ratios.
   A resting contact settles at the overlap where the soft bias balances its load, about
   g / (2 pi hertz)^2 per unit of the weight over the row's effective mass (0.22 mm for a box
   on a box at 35 Hz, the 2D default; 0.3 mm at 30), well below distance_tol. Friction rows
   are rigid, |f_t| <= mu f_n with the contact's current normal impulse. Restitution: a contact approaching faster than
   restitution_threshold at the step's start that carried a normal impulse gets
   df = -m (v + e v0) (clamped f >= 0). Contact forces are the step's impulses over dt.
   Cost: one detection, O(rows + bodies) per pass; no allocation once the arrays are sized. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine2d.h"
#include "engine2d_move.h"
#include "engine2d_soft.h"
#include "engine2d_soft_internal.h"
#include "resize.h"
#include "collide2d_clip.h"
#include "filter.h"
#include "forces.h"
#include "strategy.h"
#include "world_internal.h"

const char *const imp_soft_precision_names[] = {"double", "float", NULL};

void imp_engine2d_soft_free(struct imp_e2_soft *s)
{
    if (s == NULL) {
        return;
    }
    free(s->rows);
    free(s->grp);
    free(s->ord);
    free(s->ord2);
    free(s->loc);
    free(s->cnt);
    free(s->det_pose);
    free(s->touching);
    free(s->moved);
    free(s->old_rec);
    free(s->old_start);
    free(s->old_list);
    free(s->cs);
    free(s->shaped_pose);
    free(s->vel);
    free(s->dpos);
    free(s->acc);
    free(s->wkey);
    free(s->wf);
    free(s->whash);
    free(s->blocks);
    free(s->over);
    free(s->sig);
    free(s->colour_mask);
    free(s->minv);
    free(s->lean);
    free(s->lmeta);
    free(s->lsum);
    free(s->f8);
    free(s->fvel);
    free(s->fdx);
    free(s->fmove);
    free(s);
}

int imp_engine2d_soft(const imp_world *w)
{
    return w->model.def.dim == 2 && w->model.def.engine2d.contact_solver == IMP_SOLVER_SOFT
           && imp_world_strategy_has(w, IMP_STRATEGY_COLLISIONS);
}

static int reserve(struct imp_e2_soft *s, int rows, int slots)
{
    if (rows >= s->row_cap) {  /* (room for one more: never a zero-size block) */
        rows++;
        size_t n = (size_t)rows;
        if (imp_resize(&s->rows, n * sizeof *s->rows) != 0
            || imp_resize(&s->grp, (n + 1) * sizeof *s->grp) != 0
            || imp_resize(&s->ord, n * sizeof *s->ord) != 0
            || imp_resize(&s->ord2, n * sizeof *s->ord2) != 0
            || imp_resize(&s->loc, n * sizeof *s->loc) != 0
            || imp_resize(&s->touching, n) != 0) {
            return -1;
        }
        s->row_cap = rows;
    }
    if (slots > s->slot_cap) {
        if (imp_resize(&s->cnt, ((size_t)slots + 1) * sizeof *s->cnt) != 0
            || imp_resize(&s->moved, (size_t)slots) != 0) {
            return -1;
        }
        double **arr[6] = {&s->vel, &s->dpos, &s->acc, &s->det_pose, &s->cs, &s->shaped_pose};
        for (int k = 0; k < 6; k++) {
            double *p = realloc(*arr[k], SOFT_SV * (size_t)slots * sizeof *p);
            if (p == NULL) {
                return -1;
            }
            memset(p, 0, SOFT_SV * (size_t)slots * sizeof *p);  /* (the pads stay 0) */
            *arr[k] = p;
        }
        s->slot_cap = slots;
    }
    return 0;
}

/* ---- warm starts: an open-addressing table of the last step's keys (2^k >= 2 n slots) */

static size_t hash_slot(unsigned long long key, size_t mask) { return (size_t)(key ^ (key >> 31)) & mask; }

static void warm_fetch(const struct imp_e2_soft *s, unsigned long long key, double *fn, double *ft)
{
    *fn = 0.0, *ft = 0.0;
    if (s->whash_size == 0) {
        return;
    }
    size_t mask = s->whash_size - 1;
    for (size_t h = hash_slot(key, mask);; h = (h + 1) & mask) {
        int k = s->whash[h];
        if (k == 0) {
            return;
        }
        if (s->wkey[k - 1] == key) {
            *fn = s->wf[2 * (k - 1)];
            *ft = s->wf[2 * (k - 1) + 1];
            return;
        }
    }
}

static int warm_store(struct imp_e2_soft *s)
{
    int n = s->nrows;
    size_t size = 16;
    while (size < 2 * (size_t)n) {
        size *= 2;
    }
    if (n > s->warm_cap) {
        unsigned long long *k = realloc(s->wkey, (size_t)n * sizeof *k);
        if (k == NULL) {
            return -1;
        }
        s->wkey = k;
        double *f = realloc(s->wf, 2 * (size_t)n * sizeof *f);
        if (f == NULL) {
            return -1;
        }
        s->wf = f;
        s->warm_cap = n;
    }
    if (size > s->whash_size) {
        int *h = realloc(s->whash, size * sizeof *h);
        if (h == NULL) {
            return -1;
        }
        s->whash = h;
        s->whash_size = size;
    }
    size_t mask = s->whash_size - 1;
    memset(s->whash, 0, s->whash_size * sizeof *s->whash);
    int unique = 1;
    for (int i = 0; i < n; i++) {
        const soft_row *r = &s->rows[i];
        unsigned long long key = r->key;
        s->wkey[i] = key;
        s->wf[2 * i] = r->fn;
        s->wf[2 * i + 1] = r->ft;
        size_t h = hash_slot(key, mask);
        while (s->whash[h] != 0) {
            unique &= s->wkey[s->whash[h] - 1] != key;
            h = (h + 1) & mask;
        }
        s->whash[h] = i + 1;
    }
    s->nwarm = n;
    s->keys_unique = unique;
    s->warm_stale = 0;
    return 0;
}

/* ---- soft coefficients */

static softness make_soft(double hertz, double zeta, double h)
{
    softness s = {0.0, 1.0, 0.0};
    if (!(hertz > 0.0)) {
        return s;
    }
    double omega = 2.0 * 3.14159265358979323846 * hertz;
    double a1 = 2.0 * zeta + h * omega, a2 = h * omega * a1, a3 = 1.0 / (1.0 + a2);
    s.bias_rate = omega / a1;
    s.mass_scale = a2 * a3;
    s.impulse_scale = a3;
    return s;
}

/* ---- rows */

/* The records' order for the rows: the first n of e->rec by body pair (lower slot, then
   higher), stable (two counting passes, O(n + slots)), so that a pair's rows are consecutive. */
static void order_records(const imp_world *w, struct imp_e2_soft *s, int n)
{
    const imp_engine2d *e = w->engine2d;
    int ns = w->model.nslots, *cnt = s->cnt, *tmp = s->ord2, *ord = s->ord;
    for (int pass = 0; pass < 2; pass++) {  /* by the higher slot, then by the lower */
        const int *from = pass == 0 ? NULL : tmp;
        int *to = pass == 0 ? tmp : ord;
        memset(cnt, 0, ((size_t)ns + 1) * sizeof *cnt);
        for (int j = 0; j < n; j++) {
            const imp_rec2d *r = &e->rec[from != NULL ? from[j] : j];
            int key = pass == 0 ? (r->p > r->q ? r->p : r->q) : (r->p < r->q ? r->p : r->q);
            cnt[key + 1]++;
        }
        for (int k = 0; k < ns; k++) {
            cnt[k + 1] += cnt[k];
        }
        for (int j = 0; j < n; j++) {
            int i = from != NULL ? from[j] : j;
            const imp_rec2d *r = &e->rec[i];
            int key = pass == 0 ? (r->p > r->q ? r->p : r->q) : (r->p < r->q ? r->p : r->q);
            to[cnt[key]++] = i;
        }
    }
}

/* After a detection: the body-pair records e->rec[0 .. s->nbody) put in order_records' order,
   the connectors' records after them as they were. order_records then keeps every record in
   place (a stable order of records already in it), so the rows, their pairs and their order
   are those the detection's order gave, and the rows read their records, and the step's end
   moves them (finish_records), in memory order instead of one body pair here, the next far
   away. The soft step's detections list the broad phase's pairs in ascending order
   (step_records), each pair's records together, so the records come in that order already:
   they stay where they are. Otherwise they go to the incremental detection's spare buffer
   (s->old_rec: the cached records it read are no longer needed), which then swaps with
   e->rec. w:contacts() lists the records in this order. 0, or -1 out of memory.
   O(records + slots). */
static int sort_records(imp_world *w, struct imp_e2_soft *s)
{
    imp_engine2d *e = w->engine2d;
    int n = e->nrec, nb = s->nbody, lo0 = 0, hi0 = 0, sorted = 1;
    for (int j = 0; j < nb && sorted; j++) {
        const imp_rec2d *r = &e->rec[j];
        int lo = r->p < r->q ? r->p : r->q, hi = r->p < r->q ? r->q : r->p;
        sorted = lo > lo0 || (lo == lo0 && hi >= hi0);
        lo0 = lo, hi0 = hi;
    }
    if (sorted) {
        return 0;
    }
    if (n > s->old_cap) {
        imp_rec2d *r = realloc(s->old_rec, (size_t)n * sizeof *r);
        if (r == NULL) {
            return -1;
        }
        s->old_rec = r;
        s->old_cap = n;
    }
    order_records(w, s, nb);
    imp_rec2d *to = s->old_rec;
    for (int j = 0; j < nb; j++) {
        to[j] = e->rec[s->ord[j]];
    }
    if (n > nb) {
        memcpy(to + nb, e->rec + nb, (size_t)(n - nb) * sizeof *to);
    }
    s->old_rec = e->rec;
    e->rec = to;
    int cap = e->rec_cap;
    e->rec_cap = s->old_cap;
    s->old_cap = cap;
    return 0;
}

/* Row o's warm start checked (imp_e2_soft_row_shape done): 0 when the row cannot carry it.
   Returns 1 when the row may take the restitution pass (a contact with e > 0). */
static int row_warm_check(soft_row *o)
{
    double fn = o->fn, ft = o->ft;
    if (o->mass_n == 0.0 || !isfinite(fn) || !isfinite(ft)) {
        fn = ft = 0.0;
    }
    if (o->mu == 0.0) {
        ft = 0.0;
    }
    o->fn = fn, o->ft = ft;
    return o->type == ROW_CONTACT && o->e > 0.0;
}

/* Row o's geometry, masses and coefficients from its record r at state y (o's bodies, flip
   and type set), its warm start fn, ft checked (0 when the row cannot carry them), its sums 0;
   row_warm_check's result. */
static int row_geometry(soft_row *o, const imp_rec2d *r, const double *y)
{
    imp_e2_soft_row_shape(o, r, y);
    return row_warm_check(o);
}

/* Builds the rows from e->rec at state y, in order_records' order, each turned so that
   p < q (a record with p > q has its normal reversed and its sides swapped: the same row,
   its tangent impulse of the opposite sign); sorted: sort_records has just put the records
   in that order (with no connector's among them, it is theirs: not computed again).
   O(records + slots). */
static void prepare_rows(imp_world *w, struct imp_e2_soft *s, const double *y, int sorted)
{
    imp_engine2d *e = w->engine2d;
    int k = 0, ng = 0, elastic = 0;
    if (sorted && e->nrec == s->nbody) {
        for (int j = 0; j < e->nrec; j++) {
            s->ord[j] = j;
        }
    } else {
        order_records(w, s, e->nrec);
    }
    for (int j = 0; j < e->nrec; j++) {
        int i = s->ord[j];
        const imp_rec2d *r = &e->rec[i];
        soft_row *o = &s->rows[k++];
        int flip = r->p > r->q;
        o->flip = flip;
        o->p = flip ? r->q : r->p;
        o->q = flip ? r->p : r->q;
        o->rec = i;
        o->key = r->key;
        o->type = r->connector < 0 ? ROW_CONTACT : r->bilateral ? ROW_BILATERAL : ROW_UNILATERAL;
        const imp_body *bp = &w->model.bodies[o->p], *bq = &w->model.bodies[o->q];
        int fp = o->p != 0 && imp_body_free(bp), fq = o->q != 0 && imp_body_free(bq) && o->q != o->p;
        o->mp = fp ? bp->inv_mass : 0.0;
        o->ip = fp ? bp->inv_inertia.m[2][2] : 0.0;
        o->mq = fq ? bq->inv_mass : 0.0;
        o->iq = fq ? bq->inv_inertia.m[2][2] : 0.0;
        o->soft = o->type != ROW_CONTACT ? SOFT_JOINT : !fp || !fq ? SOFT_STATIC : SOFT_CONTACT;
        warm_fetch(s, r->key, &o->fn, &o->ft);  /* (stored turned as now: the key fixes p, q) */
        elastic |= row_geometry(o, r, y);
        if (k == 1 || o->p != o[-1].p || o->q != o[-1].q) {
            s->grp[ng++] = k - 1;
        }
    }
    s->nrows = k;
    s->elastic = elastic;
    s->grp[ng] = k;
    s->ngrp = ng;
}

/* The rows again from the same records, moved (a cached step after a step whose rows came
   from them alone, their keys distinct): the same order, pairs and bodies; each row
   warm-starts from its own last impulses, as the table would give it. The blocks' rows lane
   by lane, each lane filled while its rows are at hand (s->sf set), then the others' rows.
   shaped: the rows' geometry was already computed from these records at this state at the
   last step's end (finish_records), only their warm starts are checked. O(rows). */
static void refresh_rows(imp_world *w, struct imp_e2_soft *s, const double *y, int shaped)
{
    const imp_rec2d *rec = w->engine2d->rec;
    int elastic = 0;
    for (int bi = 0; bi < s->nblocks; bi++) {
        soft_block *b = &s->blocks[bi];
        for (int l = 0; l < SOFT_LANES; l++) {
            int k0 = b->row[0][l], k1 = b->row[1][l];
            if (k0 < 0) {
                continue;
            }
            for (int k = k0; k >= 0; k = k == k0 ? k1 : -1) {
                if (shaped) {
                    elastic |= row_warm_check(&s->rows[k]);
                } else {
                    elastic |= row_geometry(&s->rows[k], &rec[s->rows[k].rec], y);
                }
            }
            imp_e2_soft_fill_lane(s, b, l, k0, k1);
        }
    }
    for (int g = 0; g < s->nover; g++) {
        for (int i = s->grp[s->over[g]]; i < s->grp[s->over[g] + 1]; i++) {
            if (shaped) {
                elastic |= row_warm_check(&s->rows[i]);
            } else {
                elastic |= row_geometry(&s->rows[i], &rec[s->rows[i].rec], y);
            }
        }
    }
    s->elastic = elastic;
}

/* As refresh_rows after the blocks' rows were shaped into their lanes at these poses at the
   last step's end (SHAPED_LANES): the lanes' warm starts checked in place (check; else left to
   imp_e2_soft_f8_pack, which checks them as it reads them), the other rows' in the rows.
   O(rows). */
static void refresh_lanes(struct imp_e2_soft *s, int check)
{
    int elastic = 0;
    if (check) {
        imp_e2_soft_lanes_warm_check(s);
    }
    for (int g = 0; g < s->nover; g++) {
        for (int i = s->grp[s->over[g]]; i < s->grp[s->over[g] + 1]; i++) {
            elastic |= row_warm_check(&s->rows[i]);
        }
    }
    s->elastic = elastic;
}

/* applies the impulses fn (normal) and ft (tangent) of row o to the velocities */
static inline void apply(const soft_row *o, double *v, double fn, double ft)
{
    double *vp = v + SOFT_SV * o->p, *vq = v + SOFT_SV * o->q;
    double px = o->n0 * fn - o->n1 * ft, py = o->n1 * fn + o->n0 * ft;
    vp[0] += o->mp * px;
    vp[1] += o->mp * py;
    vp[2] += o->ip * (o->rpn * fn + o->rpt * ft);
    vq[0] -= o->mq * px;
    vq[1] -= o->mq * py;
    vq[2] -= o->iq * (o->rqn * fn + o->rqt * ft);
}

/* y += a x over n slots of SOFT_SV doubles (a slot's four at once: vectorized) */
static void add_scaled(double *restrict y, const double *restrict x, double a, int n)
{
    for (int i = 0; i < n; i++) {
        double *yi = y + SOFT_SV * i;
        const double *xi = x + SOFT_SV * i;
        yi[0] += a * xi[0];
        yi[1] += a * xi[1];
        yi[2] += a * xi[2];
        yi[3] += a * xi[3];
    }
}

/* the accumulated impulses applied again: the blocks' rows (fp: in float), then the others' */
static void warm_start(struct imp_e2_soft *s, int fp)
{
    if (fp) {
        imp_e2_soft_f8_warm(s);
    } else {
        imp_e2_soft_blocks_warm(s);
    }
    if (s->nover == 0) {
        return;
    }
    if (fp) {
        imp_e2_soft_f8_out(s);  /* (the others in double on s->vel) */
    }
    for (int g = 0; g < s->nover; g++) {
        for (int i = s->grp[s->over[g]]; i < s->grp[s->over[g] + 1]; i++) {
            const soft_row *o = &s->rows[i];
            if (o->fn != 0.0 || o->ft != 0.0) {
                apply(o, s->vel, o->fn, o->ft);
            }
        }
    }
    if (fp) {
        imp_e2_soft_f8_in(s, 0);
    }
}

/* One pass over the rows k0 .. k1 - 1 of one body pair: use_bias 1 for a solve pass (soft
   rows), 0 for a relax pass; the pair's velocities and displacements stay in registers. */
void imp_e2_soft_group_pass(struct imp_e2_soft *s, int k0, int k1, double inv_h, int use_bias,
                            double push_max)
{
    double *v = s->vel;
    const double *dx = s->dpos;
    int sp = s->rows[k0].p, sq = s->rows[k0].q;
    double *vp = v + SOFT_SV * sp, *vq = v + SOFT_SV * sq;
    double p0 = vp[0], p1 = vp[1], p2 = vp[2], q0 = vq[0], q1 = vq[1], q2 = vq[2];
    const double *xp = dx + SOFT_SV * sp, *xq = dx + SOFT_SV * sq;
    double dx0 = xp[0] - xq[0], dx1 = xp[1] - xq[1], xp2 = xp[2], xq2 = xq[2];
    for (int i = k0; i < k1; i++) {
        soft_row *o = &s->rows[i];
        double n0 = o->n0, n1 = o->n1, rpn = o->rpn, rqn = o->rqn;
        double vn = n0 * (p0 - q0) + n1 * (p1 - q1) + rpn * p2 - rqn * q2;
        double c = o->c0 + n0 * dx0 + n1 * dx1 + rpn * xp2 - rqn * xq2;
        double bias = 0.0, ms = 1.0, is = 0.0;
        if (c > 0.0 && o->type != ROW_BILATERAL) {
            bias = c * inv_h;  /* speculative: the gap may close within h, no more */
        } else if (use_bias) {
            const softness *sf = &s->sf[o->soft];
            bias = sf->bias_rate * c;
            if (o->type != ROW_BILATERAL && bias < -push_max) {
                bias = -push_max;
            }
            ms = sf->mass_scale;
            is = sf->impulse_scale;
        }
        double f0 = o->fn;
        double f = f0 - o->mass_n * ms * (vn + bias) - is * f0;
        if (o->type != ROW_BILATERAL && f < 0.0) {
            f = 0.0;
        }
        double df = f - f0;
        o->fn = f;
        o->fn_max = f > o->fn_max ? f : o->fn_max;
        double mp = o->mp, mq = o->mq, ip = o->ip, iq = o->iq;
        p0 += mp * n0 * df;
        p1 += mp * n1 * df;
        p2 += ip * rpn * df;
        q0 -= mq * n0 * df;
        q1 -= mq * n1 * df;
        q2 -= iq * rqn * df;
        if (o->mu > 0.0) {  /* rigid friction, with the velocities after the normal impulse */
            double rpt = o->rpt, rqt = o->rqt;
            double vt = -n1 * (p0 - q0) + n0 * (p1 - q1) + rpt * p2 - rqt * q2;
            double lim = o->mu * f, t0 = o->ft;
            double t = t0 - o->mass_t * vt;
            t = t > lim ? lim : t < -lim ? -lim : t;
            double dt = t - t0;
            o->ft = t;
            p0 -= mp * n1 * dt;
            p1 += mp * n0 * dt;
            p2 += ip * rpt * dt;
            q0 += mq * n1 * dt;
            q1 -= mq * n0 * dt;
            q2 -= iq * rqt * dt;
        }
    }
    if (s->rows[k0].mq != 0.0 || s->rows[k0].iq != 0.0) {  /* (bodies that do not move: not written) */
        vq[0] = q0, vq[1] = q1, vq[2] = q2;
    }
    if (s->rows[k0].mp != 0.0 || s->rows[k0].ip != 0.0) {
        vp[0] = p0, vp[1] = p1, vp[2] = p2;
    }
}

/* the restitution pass after the sub-steps (none when no row is a contact with e > 0: its
   rows are not read again) */
static void restitution(struct imp_e2_soft *s, double threshold)
{
    if (!s->elastic) {
        return;
    }
    for (int i = 0; i < s->nrows; i++) {
        soft_row *o = &s->rows[i];
        if (o->type != ROW_CONTACT || !(o->e > 0.0) || !(o->v0 < -threshold) || !(o->fn_max > 0.0)) {
            continue;
        }
        const double *vp = s->vel + SOFT_SV * o->p, *vq = s->vel + SOFT_SV * o->q;
        double vn = o->n0 * (vp[0] - vq[0]) + o->n1 * (vp[1] - vq[1]) + o->rpn * vp[2] - o->rqn * vq[2];
        double f0 = o->fn, f = f0 - o->mass_n * (vn + o->e * o->v0);
        f = f < 0.0 ? 0.0 : f;
        o->fn = f;
        o->fn_sum += f - f0;
        apply(o, s->vel, f - f0, 0.0);
    }
}

static void name_slot(imp_world *w, int a, int b)
{
    w->data.nerror_bodies = 0;
    if (a > 0) {
        w->data.error_bodies[w->data.nerror_bodies++] = a;
    }
    if (b > 0 && b != a) {
        w->data.error_bodies[w->data.nerror_bodies++] = b;
    }
}

static void angles_cs(const imp_world *w, struct imp_e2_soft *s, const double *y);
static inline void move_record(const imp_world *w, const struct imp_e2_soft *s, const double *y, imp_rec2d *r);
static void finish_row(imp_world *w, const struct imp_e2_soft *s, const soft_row *o, imp_rec2d *r, double dt,
                       double fn_sum, double ft_sum);
static int slots_beyond(const imp_world *w, const struct imp_e2_soft *s, const double *y, unsigned char *moved);

/* The records after the step, moved with their bodies to its end (for w:contacts() and the
   contact cache): forces, distances and velocities at its end, collision events for the
   impacts. When every row is one body-pair record and no body moved beyond the cache's limit
   (the next step is likely to reuse these rows: refresh_rows), each row is shaped from its
   record as soon as the record is moved and its impulses read (one pass over the records and
   rows instead of two), at the poses kept in s->shaped_pose; s->shaped says so. Returns -1
   when the records' touching states were not taken (touch_changed takes them), else whether
   one of them changed (touch_changed's loop, done in the same pass). */
static int finish_records(imp_world *w, struct imp_e2_soft *s, double dt, double t1)
{
    imp_engine2d *e = w->engine2d;
    double vtol = w->model.def.engine2d.velocity_tol, tol = w->model.def.engine2d.distance_tol;
    const double *y = w->data.y;
    int fused = s->nrows == e->nrec && e->nrec == s->nbody;
    int shape = fused && !slots_beyond(w, s, y, NULL), touch = 0;
    /* the blocks' rows shaped into their lanes (their impulses read there): no restitution
       pass read the rows, and none will at the next step (the records' coefficients stay) */
    int lanes = shape && !s->elastic && e->npairs == 0;
    int four = s->simd && e->npairs == 0;
    if (s->lean_on && lanes && four) {  /* from and into the lean records alone */
        angles_cs(w, s, y);
        touch = imp_e2_soft_lean_end(w, s, dt, t1);
        s->shaped = SHAPED_LANES;
        for (int i = 0; i < w->model.nslots; i++) {
            memcpy(s->shaped_pose + SOFT_SV * i, y + (size_t)i * IMP_STRIDE_2D, 3 * sizeof *y);
        }
        return touch;
    }
    imp_e2_soft_lean_sync(w, s);  /* (at the last step's poses and s->cs) */
    s->lean_on = 0;
    angles_cs(w, s, y);
    if (s->rows_stale && !lanes) {
        imp_e2_soft_blocks_store(s);
        s->rows_stale = 0;
    }
    if (!fused) {
        for (int i = 0; i < s->nbody && i < e->nrec; i++) {
            move_record(w, s, y, &e->rec[i]);
        }
        for (int i = 0; i < s->nrows; i++) {
            const soft_row *o = &s->rows[i];
            imp_rec2d *r = &e->rec[o->rec];
            finish_row(w, s, o, r, dt, o->fn_sum, o->ft_sum);
            if (o->type == ROW_CONTACT && o->v0 < -vtol && o->fn_sum > 1e-4) {
                imp_engine2d_push_collision(w, t1, r, o->v0, o->fn_sum);  /* an impact (resting
                                                                           contacts stay quiet) */
            }
        }
        s->shaped = 0;
        return -1;
    }
    /* every row a body pair's contact row, of record rows[i].rec: four rows at a time, their
       impulses taken, their records moved (and the rows shaped: with lanes, a block's row into
       sh, then its lane), then their events */
    for (int i0 = 0; i0 < s->nrows; i0 += 4) {
        int n = s->nrows - i0 < 4 ? s->nrows - i0 : 4, straight = four && n == 4;
        soft_row *o[4], *to[4], sh[4];
        imp_rec2d *r[4];
        double v0[4], fsum[4];
        int at[4];
        for (int k = 0; k < n; k++) {
            o[k] = to[k] = &s->rows[i0 + k];
            r[k] = &e->rec[o[k]->rec];
            v0[k] = o[k]->v0;
            at[k] = lanes ? s->loc[i0 + k] : -1;
            double fs, ts;
            if (at[k] < 0) {
                fs = o[k]->fn_sum, ts = o[k]->ft_sum;
            } else {  /* (the row's sums not read: they are the lane's) */
                const soft_block *b = &s->blocks[at[k] >> 3];
                fs = b->fn_sum[at[k] >> 2 & 1][at[k] & 3];
                ts = b->ft_sum[at[k] >> 2 & 1][at[k] & 3];
                sh[k].p = o[k]->p, sh[k].q = o[k]->q, sh[k].type = o[k]->type, sh[k].flip = o[k]->flip;
                sh[k].mp = o[k]->mp, sh[k].ip = o[k]->ip, sh[k].mq = o[k]->mq, sh[k].iq = o[k]->iq;
                to[k] = &sh[k];
            }
            fsum[k] = fs;
            finish_row(w, s, o[k], r[k], dt, fs, ts);
            straight &= !r[k]->curved && r[k]->connector < 0;
        }
        if (straight) {
            imp_e2_soft_move4(y, s->cs, r, shape ? to : NULL);
        } else {
            for (int k = 0; k < n; k++) {
                move_record(w, s, y, r[k]);
                if (shape) {
                    imp_e2_soft_row_shape(to[k], r[k], y);
                }
            }
        }
        for (int k = 0; k < n; k++) {
            if (at[k] >= 0) {
                imp_e2_soft_lane_shape(&s->blocks[at[k] >> 3], at[k] >> 2 & 1, at[k] & 3, &sh[k]);
                o[k]->v0 = sh[k].v0;
            }
            unsigned char t = r[k]->distance < tol;
            touch |= t != s->touching[o[k]->rec];
            s->touching[o[k]->rec] = t;
            if (v0[k] < -vtol && fsum[k] > 1e-4) {
                imp_engine2d_push_collision(w, t1, r[k], v0[k], fsum[k]);
            }
        }
    }
    s->shaped = !shape ? 0 : lanes ? SHAPED_LANES : SHAPED_ROWS;
    for (int i = 0; shape && i < w->model.nslots; i++) {
        memcpy(s->shaped_pose + SOFT_SV * i, y + (size_t)i * IMP_STRIDE_2D, 3 * sizeof *y);
    }
    if (lanes && four) {  /* (the next step's end from the lean records, if it shapes lanes) */
        imp_e2_soft_lean_enter(w, s);
    }
    return touch;
}

/* row o's impulses over the step into its record r (its force and friction force; a connector
   row's gap and rate moved linearly, the same scalars whether the row was turned or not) */
static void finish_row(imp_world *w, const struct imp_e2_soft *s, const soft_row *o, imp_rec2d *r, double dt,
                       double fn_sum, double ft_sum)
{
    imp_engine2d *e = w->engine2d;
    if (o->type != ROW_CONTACT) {
        const double *xp = s->dpos + SOFT_SV * o->p, *xq = s->dpos + SOFT_SV * o->q;
        const double *vp = s->vel + SOFT_SV * o->p, *vq = s->vel + SOFT_SV * o->q;
        r->distance = o->c0 + o->n0 * (xp[0] - xq[0]) + o->n1 * (xp[1] - xq[1]) + o->rpn * xp[2]
                      - o->rqn * xq[2];
        r->velocity = o->n0 * (vp[0] - vq[0]) + o->n1 * (vp[1] - vq[1]) + o->rpn * vp[2] - o->rqn * vq[2];
    }
    r->impulse = fn_sum;
    r->force = fn_sum / dt;
    r->friction_force = (o->flip ? -ft_sum : ft_sum) / dt;
    if (fabs(r->force) > e->max_force) {
        e->max_force = fabs(r->force);
    }
    if (o->type == ROW_CONTACT) {
        r->kind = IMP_HIT_CONTACT;
    }
}

/* 1 when the rows shaped at the last step's end (finish_records) were shaped at the poses of y */
static int rows_shaped(const imp_world *w, const struct imp_e2_soft *s, const double *y)
{
    for (int i = 0; i < w->model.nslots; i++) {
        if (memcmp(s->shaped_pose + SOFT_SV * i, y + (size_t)i * IMP_STRIDE_2D, 3 * sizeof *y) != 0) {
            return 0;
        }
    }
    return 1;
}

/* How far a point of a body may move from where it was at the body's last detection before
   its contacts are detected again: a fifth of distance_tol. A body whose pose moved by (dx,
   dy, da) moved each point of its shape by at most |dx| + |dy| + r |da| (r: the shape's
   bounding radius about the body's reference point; a chord is shorter than its arc). The
   cached records are exact for their features (vertices, straight edges:
   imp_engine2d_relocate); what the cache can miss is a pair that was not within
   distance_tol when last detected (when the later of its bodies' detections ran), and since
   then each of its bodies moved its points less than twice this limit, so together they
   closed less than 0.8 distance_tol of the gap. (Until 2026-11-27 each of dx, dy and da was
   held below 2 % of distance_tol: 0.91 distance_tol for a lever of 10 m, unbounded beyond,
   and many more detections for bodies of a metre.) */
#define CACHE_MOVE 0.2
/* Once a body moved beyond that, the pairs of every body that moved more than this fraction
   of it are detected again (engine2d_soft_incr.c): those would soon need it anyway, and
   detecting them together saves the steps that would detect them one by one. */
#ifndef CACHE_REDETECT
#define CACHE_REDETECT 0.5
#endif

/* 1 when the cached records serve the state y (see struct imp_e2_soft); 2 when some body
   moved beyond the limit: the pairs of the bodies flagged in s->moved (moved more than
   CACHE_REDETECT of it) are to be detected again; 0 when everything is. O(slots). */
static int cache_valid(const imp_world *w, struct imp_e2_soft *s, const double *y)
{
    const imp_engine2d *e = w->engine2d;
    if (!s->cache_ok || s->det_nslots != w->model.nslots || s->det_bodies_version != w->model.bodies_version
        || s->det_filter_version != w->model.filter_version || s->det_conn_version != e->conn_version
        || s->end_state_version != w->data.state_version) {
        return 0;
    }
    return !slots_beyond(w, s, y, s->moved) ? 1 : 2;
}

/* 1 when some body at y moved beyond the cache's limit from its pose at its last detection;
   moved (if not NULL): each slot flagged when it moved more than CACHE_REDETECT of it. */
static int slots_beyond(const imp_world *w, const struct imp_e2_soft *s, const double *y, unsigned char *moved)
{
    double lim = CACHE_MOVE * w->model.def.engine2d.distance_tol;
    double near = CACHE_REDETECT * lim;
    int beyond = 0;
    if (moved != NULL) {
        moved[0] = 0;
    }
    for (int i = 1; i < w->model.nslots; i++) {
        const double *yi = y + (size_t)i * IMP_STRIDE_2D, *d = s->det_pose + SOFT_SV * i;
        double m = fabs(yi[0] - d[0]) + fabs(yi[1] - d[1]) + d[3] * fabs(yi[2] - d[2]);
        beyond |= !(m < lim);
        if (moved != NULL) {
            moved[i] = (unsigned char)!(m < near);  /* (NaN: moved) */
        }
    }
    return beyond;
}

/* p in the frame of the body at ys (cos c, sin sn of its angle) */
static void to_body(const double *ys, double c, double sn, const double *p, double *out)
{
    double dx = p[0] - ys[0], dy = p[1] - ys[1];
    out[0] = c * dx + sn * dy;
    out[1] = -sn * dx + c * dy;
}

/* imp_engine2d_localize with the bodies' cosines and sines cs (2 per slot) at y */
static void localize(const double *cs, const double *y, imp_rec2d *r)
{
    const double *yp = y + (size_t)r->p * IMP_STRIDE_2D, *yq = y + (size_t)r->q * IMP_STRIDE_2D;
    double cp = cs[2 * r->p], sp = cs[2 * r->p + 1], c = cs[2 * r->q], sn = cs[2 * r->q + 1];
    to_body(yp, cp, sp, r->u1, r->lu1);
    to_body(yq, c, sn, r->u2, r->lu2);
    to_body(yq, c, sn, r->point, r->lpoint);
    r->lnormal[0] = c * r->normal[0] + sn * r->normal[1];
    r->lnormal[1] = -sn * r->normal[0] + c * r->normal[1];
}

/* The records at the step's start (cached as cache_valid gives): the cached body-pair records
   (moved with the bodies at the last step's end) with the connectors' rows at y (1), or a
   detection, full (0) or of the moved bodies' pairs (2), whose new body-pair records are
   localized for the cache. -1 when detection failed. */
static int step_records(imp_world *w, struct imp_e2_soft *s, const double *y, int cached)
{
    imp_engine2d *e = w->engine2d;
    if (cached == 1) {
        e->nrec = s->nbody;
        s->cached_steps++;
        return imp_engine2d_connector_records(w, y);
    }
    s->cache_ok = 0;
    int part = cached == 2;
    /* the broad phase's pairs in ascending order, so the records come in sort_records' order
       (the order of this detection only: the other solvers keep the sweep's) */
    e->bp.sort_pairs = 1;
    int fail = (part ? imp_e2_soft_redetect(w, s, y) : imp_engine2d_detect(w, y, 0)) < 0
               || (part && s->check_on && imp_e2_soft_check(w, s, y) < 0);
    e->bp.sort_pairs = 0;
    if (fail) {
        return -1;
    }
    s->full_detections += !part;
    s->partial_detections += part;
    for (int i = 0; i < w->model.nslots; i++) {
        double a = y[(size_t)i * IMP_STRIDE_2D + 2];
        s->cs[2 * i] = cos(a);
        s->cs[2 * i + 1] = sin(a);
    }
    int nb = 0;
    while (nb < e->nrec && e->rec[nb].connector < 0) {  /* (connectors come last) */
        if (!part || s->moved[e->rec[nb].p] || s->moved[e->rec[nb].q]) {
            localize(s->cs, y, &e->rec[nb]);
        }
        nb++;
    }
    s->nbody = nb;
    for (int i = 0; i < w->model.nslots; i++) {
        if (!part || s->moved[i]) {
            double *d = s->det_pose + SOFT_SV * i;
            memcpy(d, y + (size_t)i * IMP_STRIDE_2D, 3 * sizeof *y);
            if (!part) {  /* (the bodies stay as they are until the next full detection) */
                const imp_shape *sh = w->model.bodies[i].shape;
                d[3] = sh != NULL ? sh->radius : 0.0;
            }
        }
    }
    s->det_nslots = w->model.nslots;
    s->det_bodies_version = w->model.bodies_version;
    s->det_filter_version = w->model.filter_version;
    s->det_conn_version = e->conn_version;
    return 0;
}

/* the cosines and sines of the bodies' angles at y in s->cs */
static void angles_cs(const imp_world *w, struct imp_e2_soft *s, const double *y)
{
    for (int i = 0; i < w->model.nslots; i++) {
        double a = y[(size_t)i * IMP_STRIDE_2D + 2];
        s->cs[2 * i] = cos(a);
        s->cs[2 * i + 1] = sin(a);
    }
}

/* Moves body-pair record r with its bodies to the step's end state y (s->cs at y; exact for
   vertices and straight edges: imp_engine2d_relocate), for w:contacts() and the cache. */
static inline __attribute__((always_inline)) void move_record(const imp_world *w, const struct imp_e2_soft *s,
                                                             const double *y, imp_rec2d *r)
{
    if (w->engine2d->npairs == 0) {  /* (the bodies' coefficients do not change: the records' stay) */
        imp_e2_move_record(y, s->cs, r);
    } else {
        imp_engine2d_relocate(w, y, s->cs, r);
    }
}

/* Whether the touching body pairs (engine2d_events.c: records closer than distance_tol) may
   differ from those of the last tracking: always after a full detection; with the cached
   records, only when one of them crossed distance_tol (the same records otherwise: the
   tracking would find the same pairs and queue no event). Keeps each record's state in
   s->touching. taken: finish_records' answer (-1: the states are to be taken here). */
static int touch_changed(const imp_world *w, struct imp_e2_soft *s, int cached, int taken)
{
    const imp_engine2d *e = w->engine2d;
    double tol = w->model.def.engine2d.distance_tol;
    int changed = !cached;
    if (taken >= 0) {
        return changed | taken;
    }
    for (int i = 0; i < s->nbody; i++) {
        unsigned char t = e->rec[i].distance < tol;
        changed |= t != s->touching[i];
        s->touching[i] = t;
    }
    return changed;
}

imp_status imp_engine2d_soft_advance(imp_world *w, double t1, char *why, size_t why_size)
{
    imp_engine2d *e = imp_engine2d_get(w);
    int ns = w->model.nslots;
    if (e == NULL || (e->soft == NULL && (e->soft = calloc(1, sizeof *e->soft)) == NULL)) {
        snprintf(why, why_size, "out of memory");
        return IMP_ERR_NOMEM;
    }
    if (e->soft->stepped == 0 && e->soft->nblocks == 0) {
        e->soft->simd = imp_e2_soft_simd_available();  /* (chosen once) */
        e->soft->threads = imp_e2_soft_threads_wanted();
        e->soft->check_on = imp_e2_soft_check_wanted();
    }
    struct imp_e2_soft *s = e->soft;
    s->stepped = 0;
    int layout_ok = s->layout_ok, shaped = s->shaped;
    s->layout_ok = s->shaped = 0;  /* (until this step succeeds) */
    const imp_engine2d_def *d = &w->model.def.engine2d;
    const imp_soft_def *sd = &d->soft;
    imp_profile *prof = &w->data.profile;
    double t0 = w->data.time, dt = t1 - t0;
    double *y = w->data.y;
    if (!(dt > 0.0)) {
        return IMP_OK;
    }
    double start = imp_profile_now();
    e->has_prev = 0;
    if (reserve(s, 0, ns) != 0) {
        snprintf(why, why_size, "out of memory");
        return IMP_ERR_NOMEM;
    }
    int cached = cache_valid(w, s, y);
    if (cached != 1) {  /* (the detection reads or replaces the records) */
        imp_e2_soft_lean_sync(w, s);
        s->lean_on = 0;
    }
    if (step_records(w, s, y, cached) < 0) {
        snprintf(why, why_size, "collision detection failed (out of memory or bad shapes) at t = %.17g", t0);
        return IMP_ERR_NOMEM;
    }
    imp_profile_add(prof, IMP_STAGE_DETECT, start);
    start = imp_profile_now();
    if (reserve(s, e->nrec, ns) != 0 || (cached != 1 && sort_records(w, s) != 0)) {
        snprintf(why, why_size, "out of memory");
        return IMP_ERR_NOMEM;
    }
    /* a cached step over the last step's rows refreshes them in place (the same rows,
       pairs and blocks: the results bit for bit those of building them again) */
    int refresh = cached == 1 && layout_ok && s->keys_unique && e->nrec == s->nbody && s->nrows == e->nrec;
    /* the rows or the blocks' lanes shaped at the last step's end at these poses */
    int at_shaped = refresh && shaped != 0 && rows_shaped(w, s, y);
    int lanes = at_shaped && shaped == SHAPED_LANES;
    if (!lanes) {  /* (the rows are built or shaped again from the records) */
        imp_e2_soft_lean_sync(w, s);
        s->lean_on = 0;
    }
    if (s->rows_stale && !lanes) {  /* (the rows read below: their impulses from the blocks) */
        imp_e2_soft_blocks_store(s);
        s->rows_stale = 0;
    }
    if (!refresh) {
        if (s->warm_stale && warm_store(s) != 0) {  /* (the last step's rows, before they go) */
            snprintf(why, why_size, "out of memory");
            return IMP_ERR_NOMEM;
        }
        prepare_rows(w, s, y, cached != 1);
    }
    if (s->nrows > e->stats.max_contacts) {
        e->stats.max_contacts = s->nrows;
    }
    /* the external accelerations, once per step */
    double *f = w->scratch.force;
    imp_forces_body_set(w, y, f);
    imp_forces_springs(w, y, f);
    imp_forces_gravitation(w, y, f);
    imp_forces_loads(w, w->data.time, y, f);
    w->data.stats.rhs_evaluations++;
    double *v = s->vel, *dx = s->dpos, *acc = s->acc;
    for (int i = 0; i < ns; i++) {
        const imp_body *b = &w->model.bodies[i];
        const double *yi = y + (size_t)i * IMP_STRIDE_2D;
        int moves = b->active && !b->fixed && i != 0;
        int free_body = moves && imp_body_free(b);
        for (int k = 0; k < 3; k++) {
            v[SOFT_SV * i + k] = moves ? yi[3 + k] : 0.0;
            dx[SOFT_SV * i + k] = 0.0;
        }
        acc[SOFT_SV * i] = free_body ? f[6 * i] * b->inv_mass : 0.0;
        acc[SOFT_SV * i + 1] = free_body ? f[6 * i + 1] * b->inv_mass : 0.0;
        acc[SOFT_SV * i + 2] = free_body ? f[6 * i + 5] * b->inv_inertia.m[2][2] : 0.0;
    }
    int nsub = d->substeps > 0 ? d->substeps : 1;
    double h = dt / nsub;
    double cap = 0.25 / h;
    double hz = sd->hertz < cap ? sd->hertz : cap;
    s->sf[SOFT_CONTACT] = make_soft(hz, sd->damping_ratio, h);
    s->sf[SOFT_STATIC] = make_soft(2.0 * hz, sd->damping_ratio, h);
    s->sf[SOFT_JOINT] = make_soft(sd->joint_hertz < cap ? sd->joint_hertz : cap, sd->joint_damping_ratio, h);
    /* after an incremental detection (bodies, filters and connectors as they were) of the same
       body pairs as the last step's, whose rows came from body-pair records alone: the same
       colours and blocks, only their lanes filled again */
    int keep = !refresh && cached == 2 && layout_ok && e->nrec == s->nbody;
    if (lanes) {
        refresh_lanes(s, sd->precision != IMP_SOFT_FLOAT);
    } else if (refresh) {
        refresh_rows(w, s, y, at_shaped);
    } else if (keep && imp_e2_soft_blocks_keep(s)) {
        s->blocks_kept++;
    } else if (imp_e2_soft_blocks(s, ns) != 0) {
        snprintf(why, why_size, "out of memory");
        return IMP_ERR_NOMEM;
    }
    /* precision "float": the passes in float (engine2d_soft_f8.c), the blocks packed, the
       velocities and displacements rounded into float for them and the moving bodies' changes
       of velocity brought back */
    int fp = sd->precision == IMP_SOFT_FLOAT;
    if (fp && imp_e2_soft_f8_pack(s, ns, lanes) != 0) {
        snprintf(why, why_size, "out of memory");
        return IMP_ERR_NOMEM;
    }
    if (fp) {
        imp_e2_soft_f8_in(s, 1);
    }
    for (int sub = 0; sub < nsub; sub++) {
        if (fp) {
            imp_e2_soft_f8_kick(s, acc, h);  /* (v += h acc, as add_scaled) */
        } else {
            add_scaled(v, acc, h, ns);
        }
        warm_start(s, fp);
        for (int it = 0; it < sd->iterations; it++) {
            (fp ? imp_e2_soft_f8_pass : imp_e2_soft_blocks_pass)(s, h, 1, sd->push_max, 0);
        }
        if (fp) {
            imp_e2_soft_f8_drift(s, h);  /* (dx += h v, as add_scaled) */
        } else {
            add_scaled(dx, v, h, ns);
        }
        for (int it = 0; it < sd->relax_iterations; it++) {  /* (the last adds the blocks' sums) */
            (fp ? imp_e2_soft_f8_pass : imp_e2_soft_blocks_pass)(s, h, 0, sd->push_max,
                                                                 it == sd->relax_iterations - 1);
        }
        if (fp) {
            imp_e2_soft_f8_out(s);
        }
        if (sd->relax_iterations <= 0) {
            (fp ? imp_e2_soft_f8_sum : imp_e2_soft_blocks_sum)(s);
        }
        for (int g = 0; g < s->nover; g++) {
            for (int i = s->grp[s->over[g]]; i < s->grp[s->over[g] + 1]; i++) {
                s->rows[i].fn_sum += s->rows[i].fn;
                s->rows[i].ft_sum += s->rows[i].ft;
            }
        }
        e->stats.pgs_sweeps += sd->iterations + sd->relax_iterations;
    }
    if (fp) {
        imp_e2_soft_f8_unpack(s);
    }
    if (s->elastic) {  /* (else the rows' impulses are read from the blocks: s->rows_stale) */
        imp_e2_soft_blocks_store(s);
        restitution(s, sd->restitution_threshold);
    } else {
        s->rows_stale = 1;
    }
    for (int i = 1; i < ns; i++) {
        const imp_body *b = &w->model.bodies[i];
        if (!b->active || b->fixed) {
            continue;
        }
        double *yi = y + (size_t)i * IMP_STRIDE_2D;
        for (int k = 0; k < 3; k++) {
            yi[k] += dx[SOFT_SV * i + k];
            yi[3 + k] = v[SOFT_SV * i + k];
        }
        for (int k = 0; k < 6; k++) {
            if (!isfinite(yi[k])) {
                name_slot(w, i, 0);
                snprintf(why, why_size, "the state of body #%d became non-finite near t = %.17g", i, t0);
                return IMP_ERR_NONFINITE;
            }
        }
    }
    imp_profile_add(prof, IMP_STAGE_CONTACT_SOLVE, start);
    if (!refresh && s->rows_stale) {  /* (warm_store reads the rows' impulses) */
        imp_e2_soft_blocks_store(s);
        s->rows_stale = 0;
    }
    if (refresh) {
        s->warm_stale = 1;  /* (the rows, or the blocks, keep the impulses the table would) */
    } else if (warm_store(s) != 0) {
        snprintf(why, why_size, "out of memory");
        return IMP_ERR_NOMEM;
    }
    int taken = finish_records(w, s, dt, t1);
    e->stats.steps++;
    e->stats.lcp_solves++;
    w->data.stats.substeps += nsub;
    start = imp_profile_now();
    if (touch_changed(w, s, cached == 1, taken)
        && (imp_e2_soft_lean_sync(w, s), imp_engine2d_track_contacts(w, t1) != 0)) {
        snprintf(why, why_size, "out of memory");
        return IMP_ERR_NOMEM;
    }
    imp_profile_add(prof, IMP_STAGE_CONTACTS, start);
    s->stepped = 1;
    s->bodies_version = w->model.bodies_version;
    s->nslots = ns;
    s->cache_ok = 1;
    s->layout_ok = e->nrec == s->nbody;
    s->end_state_version = w->data.state_version;
    return IMP_OK;
}

int imp_engine2d_soft_clip(const imp_world *w)
{
    const struct imp_e2_soft *s = w->engine2d != NULL ? w->engine2d->soft : NULL;
    return s != NULL && s->simd && imp_collide2d_clip_avx2() ? 2 : 1;
}

long imp_engine2d_soft_detections(const imp_world *w)
{
    const struct imp_e2_soft *s = w->engine2d != NULL ? w->engine2d->soft : NULL;
    return s != NULL ? s->full_detections + s->partial_detections : 0;
}

int imp_engine2d_soft_contacts(imp_world *w)
{
    imp_engine2d *e = w->engine2d;
    struct imp_e2_soft *s = e->soft;
    if (s != NULL && s->stepped && s->bodies_version == w->model.bodies_version && s->nslots == w->model.nslots) {
        imp_e2_soft_lean_sync(w, s);
        return e->nrec;
    }
    if (s != NULL) {
        s->cache_ok = 0;  /* (e->rec no longer holds the cached records) */
        s->lean_on = s->lean_ahead = 0;
    }
    return imp_engine2d_detect(w, w->data.y, 0);
}
