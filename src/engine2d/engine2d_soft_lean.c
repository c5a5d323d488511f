/* engine2d_soft_lean.c: the soft step's lean records. While every cached step reshapes the
   blocks' lanes at its end (SHAPED_LANES), the step's end reads and writes of each record only
   its body-frame points and normal and its world points, normal, distance and velocity: 128
   bytes of a soft_lean instead of the 288 of its imp_rec2d (and nothing of its row). The
   records' other fields (impact point, Jacobian rows, impulse, forces, kind) are functions of
   those, of the poses at the step's end and of the lanes' sums over the step, so they are
   written only when a record is read (imp_e2_soft_lean_sync: the detection, w:contacts(), the
   contact tracking, a step that does not shape the lanes), from the same values by the same
   operations: the records are then those the step's end would have written, bit for bit.
   The moves four records at a time (AVX2) are imp_e2_soft_move4's and shape4's operations in
   the same order (no fused multiply-add), on vectors transposed from the lean records instead
   of gathered from the records' fields. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine2d.h"
#include "engine2d_soft.h"
#include "engine2d_soft_internal.h"
#include "world_internal.h"

/* Record r's impact point, Jacobian rows, velocity, impulse, forces and kind from its lean copy
   lo at the bodies' positions pos (stride doubles a slot) and cosines and sines cs (2 a slot),
   its row's sums fs, ts over a step of dt (flip: its row's): what the step's end writes
   (imp_e2_move_record, imp_e2_jacobian_at, finish_row), the same operations. */
static void lean_record(imp_rec2d *r, const soft_lean *lo, int flip, double fs, double ts, double dt,
                        const double *pos, int stride, const double *cs)
{
    const double *yp = pos + (size_t)r->p * stride, *yq = pos + (size_t)r->q * stride;
    double c = cs[2 * r->q], sn = cs[2 * r->q + 1];
    const double *st = lo->st, *lp = lo->lu + 4;
    double n0 = st[4], n1 = st[5];
    const double pq[2] = {yq[0] + c * lp[0] - sn * lp[1], yq[1] + sn * lp[0] + c * lp[1]};
    const double t[2] = {-n1, n0};
    double slide = t[0] * (st[0] - pq[0]) + t[1] * (st[1] - pq[1]);
    const double pt[2] = {pq[0] + slide * t[0], pq[1] + slide * t[1]};
    const double rp[2] = {pt[0] - yp[0], pt[1] - yp[1]};
    const double rq[2] = {pt[0] - yq[0], pt[1] - yq[1]};
    r->u1[0] = st[0], r->u1[1] = st[1];
    r->u2[0] = st[2], r->u2[1] = st[3];
    r->normal[0] = n0, r->normal[1] = n1;
    r->distance = st[6];
    r->velocity = st[7];
    r->point[0] = pt[0], r->point[1] = pt[1];
    r->jp[0] = n0;
    r->jp[1] = n1;
    r->jp[2] = rp[0] * n1 - rp[1] * n0;
    r->jq[0] = -n0;
    r->jq[1] = -n1;
    r->jq[2] = -(rq[0] * n1 - rq[1] * n0);
    r->impulse = fs;
    r->force = fs / dt;
    r->friction_force = (flip ? -ts : ts) / dt;
    r->kind = IMP_HIT_CONTACT;
}

void imp_e2_soft_lean_sync(imp_world *w, struct imp_e2_soft *s)
{
    if (!s->lean_ahead) {
        return;
    }
    imp_engine2d *e = w->engine2d;
    for (int i = 0; i < s->nrows; i++) {
        int at = s->loc[i];
        const soft_lean *lo = &s->lean[at];
        lean_record(&e->rec[i], lo, s->lmeta[at].flip, s->lsum[2 * at], s->lsum[2 * at + 1], s->lean_dt,
                    s->shaped_pose, SOFT_SV, s->cs);
        s->rows[i].v0 = lo->st[7];
    }
    s->lean_ahead = 0;
}

void imp_engine2d_soft_sync(imp_world *w, int drop)
{
    struct imp_e2_soft *s = w->engine2d != NULL ? w->engine2d->soft : NULL;
    if (s != NULL) {
        imp_e2_soft_lean_sync(w, s);
        s->lean_on &= !drop;
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
#include "engine2d_soft_move4.h"

int imp_e2_soft_lean_enter(imp_world *w, struct imp_e2_soft *s)
{
    const imp_engine2d *e = w->engine2d;
    int n = s->nrows;
    s->lean_on = s->lean_ahead = 0;
    int slots = 8 * s->nblocks;
    if (!s->simd || s->nover != 0 || n != e->nrec || n == 0 || n > s->row_cap) {
        return 0;
    }
    for (int i = 0; i < n; i++) {
        const soft_row *o = &s->rows[i];
        const imp_rec2d *r = &e->rec[i];
        if (o->rec != i || o->type != ROW_CONTACT || s->loc[i] < 0 || r->curved || r->connector >= 0) {
            return 0;
        }
    }
    if (slots > s->lean_cap) {
        int cap = slots + slots / 4;
        soft_lean *lean = NULL;
        soft_lean_meta *meta = malloc((size_t)cap * sizeof *meta);
        double *sum = malloc(3 * (size_t)cap * sizeof *sum);
        if (meta == NULL || sum == NULL || posix_memalign((void **)&lean, 64, (size_t)cap * sizeof *lean) != 0) {
            free(meta);
            free(sum);
            return 0;
        }
        free(s->lean);
        free(s->lmeta);
        free(s->lsum);
        s->lean = lean, s->lmeta = meta, s->lsum = sum, s->lv0 = sum + 2 * (size_t)cap;
        s->lean_cap = cap;
    }
    for (int at = 0; at < slots; at++) {  /* (in the blocks' order: lane l of row k of block b at 8 b + 4 k + l) */
        const soft_block *b = &s->blocks[at >> 3];
        int k = at >> 2 & 1, i = b->row[k][at & 3];
        for (int l = 0; l < 4 && i < 0; l++) {  /* (a lane without a row: a copy of one, its results unused) */
            i = b->row[k][l];
        }
        if (i < 0) {
            continue;
        }
        const imp_rec2d *r = &e->rec[i];
        soft_lean *lo = &s->lean[at];
        memcpy(lo->lu, r->lu1, 2 * sizeof *lo->lu);
        memcpy(lo->lu + 2, r->lu2, 2 * sizeof *lo->lu);
        memcpy(lo->lu + 4, r->lpoint, 2 * sizeof *lo->lu);
        memcpy(lo->lu + 6, r->lnormal, 2 * sizeof *lo->lu);
        memcpy(lo->st, r->u1, 2 * sizeof *lo->st);
        memcpy(lo->st + 2, r->u2, 2 * sizeof *lo->st);
        memcpy(lo->st + 4, r->normal, 2 * sizeof *lo->st);
        lo->st[6] = r->distance;
        lo->st[7] = r->velocity;
        s->lmeta[at] = (soft_lean_meta){.p = r->p, .q = r->q, .flip = s->rows[i].flip, .mu = r->friction};
    }
    s->lean_on = 1;
    return 1;
}

/* the 4 x 4 doubles at a[0] .. a[3] (4 each) transposed: c[j] holds the j-th of each */
static inline AVX2 void transpose4(const double *const *a, v4 *c)
{
    v4 r0 = _mm256_loadu_pd(a[0]), r1 = _mm256_loadu_pd(a[1]), r2 = _mm256_loadu_pd(a[2]),
       r3 = _mm256_loadu_pd(a[3]);
    v4 t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
    v4 t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
    c[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
    c[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    c[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
    c[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}

/* c[0] .. c[3] stored transposed: a[l] gets lane l of each */
static inline AVX2 void store4(double *const *a, const v4 *c)
{
    v4 t0 = _mm256_unpacklo_pd(c[0], c[1]), t1 = _mm256_unpackhi_pd(c[0], c[1]);
    v4 t2 = _mm256_unpacklo_pd(c[2], c[3]), t3 = _mm256_unpackhi_pd(c[2], c[3]);
    _mm256_storeu_pd(a[0], _mm256_permute2f128_pd(t0, t2, 0x20));
    _mm256_storeu_pd(a[1], _mm256_permute2f128_pd(t1, t3, 0x20));
    _mm256_storeu_pd(a[2], _mm256_permute2f128_pd(t0, t2, 0x31));
    _mm256_storeu_pd(a[3], _mm256_permute2f128_pd(t1, t3, 0x31));
}

/* Rows at idx[0 .. 3] of the lean records (their slots' positions and velocities at y,
   cosines and sines cs) moved and shaped: their lean state stored, their shapes in sh, their
   distances in dist. */
static AVX2 void lean_move4(struct imp_e2_soft *s, const double *y, const double *cs, const int *idx, soft_shape4 *sh,
                            v4 *dist, v4 *mu)
{
    soft_lean *lo[4] = {&s->lean[idx[0]], &s->lean[idx[1]], &s->lean[idx[2]], &s->lean[idx[3]]};
    const soft_lean_meta *me[4] = {&s->lmeta[idx[0]], &s->lmeta[idx[1]], &s->lmeta[idx[2]], &s->lmeta[idx[3]]};
    int sp_[4], sq_[4], op[4], oq[4];
    for (int l = 0; l < 4; l++) {
        sp_[l] = me[l]->p, sq_[l] = me[l]->q;
        op[l] = me[l]->flip ? sq_[l] : sp_[l];
        oq[l] = me[l]->flip ? sp_[l] : sq_[l];
    }
    v4 lu[8], st[8];
    const double *a[4] = {lo[0]->lu, lo[1]->lu, lo[2]->lu, lo[3]->lu};
    transpose4(a, lu);
    const double *a2[4] = {lo[0]->lu + 4, lo[1]->lu + 4, lo[2]->lu + 4, lo[3]->lu + 4};
    transpose4(a2, lu + 4);
    const double *a3[4] = {lo[0]->st, lo[1]->st, lo[2]->st, lo[3]->st};
    transpose4(a3, st);
    const double *a4[4] = {lo[0]->st + 4, lo[1]->st + 4, lo[2]->st + 4, lo[3]->st + 4};
    transpose4(a4, st + 4);
    soft_moved4 m;
    imp_e2_soft_move4_lanes(y, cs, sp_, sq_, st, lu, &m);
    const v4 out0[4] = {m.u1[0], m.u1[1], m.u2[0], m.u2[1]}, out1[4] = {m.n[0], m.n[1], m.dist, m.vel};
    double *b3[4] = {lo[0]->st, lo[1]->st, lo[2]->st, lo[3]->st};
    store4(b3, out0);
    double *b4[4] = {lo[0]->st + 4, lo[1]->st + 4, lo[2]->st + 4, lo[3]->st + 4};
    store4(b4, out1);
    /* the rows' masses their slots' in s->minv (as the blocks take them) */
    v4 flip = _mm256_castsi256_pd(_mm256_set_epi64x(-(long long)(me[3]->flip != 0), -(long long)(me[2]->flip != 0),
                                                    -(long long)(me[1]->flip != 0), -(long long)(me[0]->flip != 0)));
    *mu = _mm256_set_pd(me[3]->mu, me[2]->mu, me[1]->mu, me[0]->mu);
    imp_e2_soft_shape4_lanes(&m, flip, imp_e2_slot_field(s->minv, op, SOFT_SV, 0),
                             imp_e2_slot_field(s->minv, op, SOFT_SV, 1), imp_e2_slot_field(s->minv, oq, SOFT_SV, 0),
                             imp_e2_slot_field(s->minv, oq, SOFT_SV, 1), *mu, sh);
    *dist = m.dist;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* v's lanes where m is set stored at a, the others left */
static inline AVX2 void put(double *a, v4 m, v4 v) { _mm256_storeu_pd(a, imp_e2_pick(m, v, _mm256_loadu_pd(a))); }

/* Block by block, row k of its four lanes at once: the lean records (kept in the blocks'
   order) and the lanes read and written in memory order; the impacts' events pushed after, in
   the rows' order. */
AVX2 int imp_e2_soft_lean_end(imp_world *w, struct imp_e2_soft *s, double dt, double t1)
{
    imp_engine2d *e = w->engine2d;
    double vtol = w->model.def.engine2d.velocity_tol, tol = w->model.def.engine2d.distance_tol;
    const double *y = w->data.y;
    int touch = 0, nev = 0, *ev = s->ord;
    double max_force = e->max_force;
    const v4 zero = _mm256_setzero_pd();
    for (int bi = 0; bi < s->nblocks; bi++) {
        soft_block *b = &s->blocks[bi];
        for (int k = 0; k < 2; k++) {
            int live = 0, base = 8 * bi + 4 * k;
            for (int l = 0; l < 4; l++) {
                live |= (b->row[k][l] >= 0) << l;
            }
            if (live == 0) {
                continue;
            }
            int idx[4] = {base, base + 1, base + 2, base + 3};  /* (a lane without a row: a copy) */
            double v0[4];
            for (int l = 0; l < 4; l++) {
                v0[l] = s->lean[base + l].st[7];
            }
            soft_shape4 sh;
            v4 dist, mu;
            lean_move4(s, y, s->cs, idx, &sh, &dist, &mu);
            v4 m = _mm256_castsi256_pd(_mm256_set_epi64x(-(long long)(live >> 3 & 1), -(long long)(live >> 2 & 1),
                                                         -(long long)(live >> 1 & 1), -(long long)(live & 1)));
            double *sum = s->lsum + 2 * (size_t)base, c0[4];
            v4 fs = _mm256_loadu_pd(b->fn_sum[k]), ts = _mm256_loadu_pd(b->ft_sum[k]);
            v4 lo = _mm256_unpacklo_pd(fs, ts), hi = _mm256_unpackhi_pd(fs, ts);  /* (fs0 ts0 fs2 ts2), (fs1 ts1 fs3 ts3) */
            _mm256_storeu_pd(sum, _mm256_permute2f128_pd(lo, hi, 0x20));
            _mm256_storeu_pd(sum + 4, _mm256_permute2f128_pd(lo, hi, 0x31));
            _mm256_storeu_pd(c0, dist);
            /* imp_e2_soft_lane_shape, the four lanes at once */
            if (k == 0) {
                put(b->n0, m, sh.n0);
                put(b->n1, m, sh.n1);
                put(b->mu, m, mu);
            }
            put(b->rpn[k], m, sh.rpn);
            put(b->rqn[k], m, sh.rqn);
            put(b->rpt[k], m, sh.rpt);
            put(b->rqt[k], m, sh.rqt);
            put(b->mass_n[k], m, sh.mass_n);
            put(b->mass_t[k], m, sh.mass_t);
            put(b->c0[k], m, dist);
            put(b->fn_max[k], m, zero);
            put(b->fn_sum[k], m, zero);
            put(b->ft_sum[k], m, zero);
            int fz = _mm256_movemask_pd(_mm256_cmp_pd(mu, zero, _CMP_EQ_OQ)) & live;
            b->fz = (b->fz & ~(live << 4 * k)) | fz << 4 * k;
            for (int l = 0; l < 4; l++) {
                int i = b->row[k][l];
                if (i < 0) {
                    continue;
                }
                double f = fabs(s->lsum[2 * (base + l)] / dt);
                if (f > max_force) {
                    max_force = f;
                }
                unsigned char t = c0[l] < tol;
                touch |= t != s->touching[i];
                s->touching[i] = t;
                if (v0[l] < -vtol && s->lsum[2 * (base + l)] > 1e-4) {  /* an impact: pushed below */
                    ev[nev++] = i;
                    s->lv0[base + l] = v0[l];
                }
            }
        }
    }
    if (nev > 1) {
        qsort(ev, (size_t)nev, sizeof *ev, cmp_int);
    }
    for (int j = 0; j < nev; j++) {  /* (in the rows' order, with their records written now) */
        int i = ev[j], at = s->loc[i];
        imp_rec2d *r = &e->rec[i];
        lean_record(r, &s->lean[at], s->lmeta[at].flip, s->lsum[2 * at], s->lsum[2 * at + 1], dt, y, IMP_STRIDE_2D,
                    s->cs);
        imp_engine2d_push_collision(w, t1, r, s->lv0[at], s->lsum[2 * at]);
    }
    e->max_force = max_force;
    s->lean_dt = dt;
    s->lean_ahead = 1;
    return touch;
}
#else
int imp_e2_soft_lean_enter(imp_world *w, struct imp_e2_soft *s)
{
    (void)w;
    s->lean_on = s->lean_ahead = 0;
    return 0;
}

int imp_e2_soft_lean_end(imp_world *w, struct imp_e2_soft *s, double dt, double t1)
{
    (void)w, (void)s, (void)dt, (void)t1;
    return 0;  /* (not reached: imp_e2_soft_lean_enter never turns them on) */
}
#endif
