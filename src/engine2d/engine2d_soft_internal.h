/* engine2d_soft_internal.h: the soft step's rows and state, shared by engine2d_soft.c (the
   step) and engine2d_soft_blocks.c (the coloured blocks and their solve passes). */
#ifndef IMPACT_ENGINE2D_SOFT_INTERNAL_H
#define IMPACT_ENGINE2D_SOFT_INTERNAL_H

#include <float.h>
#include <math.h>
#include <stddef.h>

#include <impact/body.h>

#include "engine2d.h"

/* the doubles per slot of the velocities, displacements and accelerations: 3 and a 0, so
   that the blocks move a slot's with one 4-wide load or store */
enum { SOFT_SV = 4 };
/* the most colours (64-bit masks), and the blocks from which a pass runs on OpenMP's threads
   (imp_e2_soft_threads: fewer, and the threads' barriers would cost more than they share) */
enum { SOFT_COLOURS = 64, SOFT_PARALLEL_BLOCKS = 512 };

enum { ROW_CONTACT = 0, ROW_BILATERAL = 1, ROW_UNILATERAL = 2 };
/* a row's softness: contacts between moving bodies, contacts with a body that does not move
   (fixed, kinematic, the background: twice the frequency, as Box2D v3's static softness), and
   connectors */
enum { SOFT_CONTACT = 0, SOFT_STATIC = 1, SOFT_JOINT = 2 };

typedef struct softness {
    double bias_rate, mass_scale, impulse_scale;
} softness;

/* One row (a contact point with its friction, or a connector row). The normal part of J:
   jp = (n, rpn), jq = -(n, rqn); the tangent part (contacts): jp = (t, rpt), jq = -(t, rqt),
   t = (-n1, n0). */
typedef struct soft_row {
    int p, q, type, rec, soft;
    int flip;                 /* the record's p is the row's q (its normal reversed) */
    unsigned long long key;   /* the record's feature key (warm starts) */
    double n0, n1, rpn, rqn, rpt, rqt;
    double mp, ip, mq, iq;    /* inverse masses and inertias (0: fixed or kinematic) */
    double mass_n, mass_t;    /* 1 / (J M^-1 J^T) */
    double c0;                /* separation at the step's start */
    double v0;                /* normal velocity at the step's start */
    double mu, e;
    double fn, ft;            /* accumulated impulses of the sub-step */
    double fn_sum, ft_sum;    /* over the step */
    double fn_max;
} soft_row;

/* The lean record of a body-pair contact (engine2d_soft_lean.c): what the step's end reads
   and writes of its imp_rec2d while the lanes are shaped at every step's end (SHAPED_LANES),
   128 bytes instead of the record's 288; the full record is written from it when read
   (imp_e2_soft_lean_sync). */
typedef struct soft_lean {
    double lu[8];  /* the record's lu1, lu2, lpoint, lnormal (its bodies' frames) */
    double st[8];  /* its u1, u2, normal, distance and velocity at the last step's end */
} soft_lean;
typedef struct soft_lean_meta {
    int p, q;      /* the record's slots */
    int flip;      /* its row's */
    int pad;
    double mu;     /* its friction */
} soft_lean_meta;

struct imp_e2_soft {
    soft_row *rows;
    int nrows, row_cap;
    int *grp;                 /* the first row of each body pair's run, then nrows */
    int ngrp;
    int *ord, *ord2;          /* the records' order (row_cap each) */
    int *loc;                 /* row_cap: each row's place in the blocks, 8 b + 4 k + l (block b,
                                 its row k of lane l), -1 for a row solved outside them */
    int *cnt;                 /* counting sort: nslots + 1 */
    double *vel, *dpos, *acc; /* SOFT_SV per slot: x, y, angle, 0 */
    int slot_cap;
    unsigned long long *wkey; /* warm starts: the last step's rows by key */
    double *wf;               /* 2 per key: normal, tangent */
    int nwarm, warm_cap;
    int *whash;
    size_t whash_size;
    int keys_unique;          /* the stored keys are distinct (row i warm-starts row i) */
    int warm_stale;           /* the table is older than the rows (filled before the next
                                 full build) */
    int layout_ok;            /* the rows and blocks came from the body-pair records alone
                                 (no connector rows) at the last step, which succeeded: a
                                 cached step refreshes them in place */
    int stepped;              /* e->rec holds the last step's records */
    int elastic;              /* some row may take the restitution pass (a contact with e > 0),
                                 as prepare_rows or refresh_rows last saw them */
    int shaped;               /* the records moved at the last step's end (finish_records) were
                                 shaped, at the poses in shaped_pose: 1 into their rows, 2 the
                                 blocks' rows into their lanes (SHAPED_LANES: the rows then
                                 keep their record, bodies, masses, flip and v0 only) */
    int rows_stale;           /* the blocks' rows' impulses are in the blocks only (their
                                 store into the rows left out: imp_e2_soft_blocks_store gives
                                 them when the rows are read again) */
    double *shaped_pose;      /* SOFT_SV per slot: x, y, angle */
    /* the contact cache: the body-pair records of the last full detection (e->rec[0..nbody)),
       localized, moved with the bodies at every step's end; reused while no body's points moved
       more than CACHE_MOVE from where they were at that detection (engine2d_soft.c) and
       nothing else changed */
    double *det_pose;         /* SOFT_SV per slot: the pose at the body's last detection, then
                                 its shape's bounding radius (the moved test's lever) */
    double *cs;               /* 2 per slot: cos, sin of the angles (relocation) */
    int nbody;                /* body-pair records (the connectors' follow) */
    unsigned char *touching;  /* row_cap: each record closer than distance_tol at the last step */
    int cache_ok;
    unsigned det_bodies_version, det_filter_version, det_conn_version, end_state_version;
    int det_nslots;
    long full_detections, cached_steps, partial_detections;
    long blocks_kept;         /* detecting steps that kept the last step's colours and blocks */
    /* the incremental detection (engine2d_soft_incr.c): the bodies moved beyond the cache's
       limit (per slot), the cached records (the buffer e->rec swaps with) and their runs by
       smaller slot */
    unsigned char *moved;
    struct imp_rec2d *old_rec;
    int *old_start, *old_list;
    int old_cap, old_list_cap, old_slots;
    int check_on;             /* IMPACT_E2_DETECT_CHECK=1 (engine2d_soft_check.c) */
    long check[4];            /* its counts: checked steps, pair orders differing, records of
                                 moved bodies' pairs differing, kept pairs' keys differing */
    double check_max_dist;    /* the largest distance difference of a kept record */
    unsigned bodies_version;
    int nslots;
    /* the coloured blocks (engine2d_soft_blocks.c) */
    struct soft_block *blocks;
    int nblocks, block_cap;
    int *over;                /* groups solved one by one after the blocks (their first rows) */
    int nover;
    int *sig;                 /* the coloured groups: 3 each, the end of its rows, its p and q */
    int nsig;
    unsigned long long *colour_mask; /* per slot: colours taken */
    double *minv;             /* SOFT_SV per slot: the inverse mass and inertia of a body that
                                 moves (as its rows hold them; 0 otherwise, slot 0 among
                                 them), read by the blocks beside the velocities (mask_cap
                                 slots; set by imp_e2_soft_blocks) */
    int mask_cap;
    int simd;                 /* the blocks' AVX2 path is in use */
    int threads;              /* the threads the blocks may run on (imp_e2_soft_threads) */
    int colour_first[SOFT_COLOURS + 1]; /* the blocks of colour c: colour_first[c] .. [c + 1] - 1 */
    int ncolours;
    softness sf[3];           /* the step's softness by SOFT_* */
    /* the lean records (engine2d_soft_lean.c): row i's record is e->rec[i], its lean copy
       lean[loc[i]] (in the blocks' order), with lmeta[loc[i]], its sums over the last step
       lsum[2 loc[i]], lsum[2 loc[i] + 1]; s->ord lists the impacts of a step's end */
    soft_lean *lean;
    soft_lean_meta *lmeta;
    double *lsum;
    double *lv0;              /* (in lsum's block) an impact's row's v0, for its event */
    int lean_cap;
    int lean_on;              /* lean[0 .. nrows) hold the records' state (the rows, blocks and
                                 layout those of imp_e2_soft_lean_enter) */
    int lean_ahead;           /* the records are behind them (written at the last step's end
                                 into the lean records only, at shaped_pose, with s->cs) */
    double lean_dt;           /* that step's length */
    /* the passes in float (engine2d_soft_f8.c): the blocks two by two as 8-lane float blocks,
       the first of colour c f8_first[c]; the velocities and displacements in float (SOFT_SV
       floats a slot, fns slots); the slots that move in a block (fmove[0 .. nfmove)) */
    struct soft_f8 *f8;
    int nf8, f8_cap;
    int f8_first[SOFT_COLOURS + 1];
    float *fvel, *fdx;
    int *fmove;
    int nfmove, fns, fslot_cap;
};

struct imp_world;

/* Row o's geometry, masses and coefficients from its record r at state y (o's bodies, flip
   and type set), its sums 0; its impulses fn, ft left as they are (engine2d_soft.c: row_warm_check); engine2d_soft_move.c does the same four
   rows at a time. */
static inline __attribute__((always_inline)) void imp_e2_soft_row_shape(soft_row *o, const struct imp_rec2d *r,
                                                                        const double *y)
{
    /* (in locals: the stores to o cannot alias what is read) */
    int flip = o->flip;
    double sg = flip ? -1.0 : 1.0;
    double n0 = sg * r->normal[0], n1 = sg * r->normal[1];
    /* J's angular parts: jp = (n, rpn), jq = -(n, rqn); turned, p's part is -jq's */
    double rpn = flip ? r->jq[2] : r->jp[2];
    double rqn = flip ? -r->jp[2] : -r->jq[2];
    double mp = o->mp, mq = o->mq, ip = o->ip, iq = o->iq;
    double kn = (mp + mq) * (n0 * n0 + n1 * n1) + ip * rpn * rpn + iq * rqn * rqn;
    double mass_n = kn > 0.0 ? 1.0 / kn : 0.0;
    int contact = o->type == ROW_CONTACT;
    double mu = contact ? r->friction : 0.0;
    double rpt = 0.0, rqt = 0.0, mass_t = 0.0;
    if (mu > 0.0) {
        const double *yp = y + (size_t)o->p * IMP_STRIDE_2D, *yq = y + (size_t)o->q * IMP_STRIDE_2D;
        const double rp[2] = {r->point[0] - yp[0], r->point[1] - yp[1]};
        const double rq[2] = {r->point[0] - yq[0], r->point[1] - yq[1]};
        double t0 = -n1, t1 = n0;
        rpt = rp[0] * t1 - rp[1] * t0;
        rqt = rq[0] * t1 - rq[1] * t0;
        double kt = (mp + mq) + ip * rpt * rpt + iq * rqt * rqt;
        mass_t = kt > 0.0 ? 1.0 / kt : 0.0;
    }
    o->n0 = n0, o->n1 = n1, o->rpn = rpn, o->rqn = rqn;
    o->mass_n = mass_n;
    o->c0 = r->distance;
    o->v0 = r->velocity;
    o->mu = mu;
    o->e = contact ? r->elasticity : 0.0;
    o->rpt = rpt, o->rqt = rqt, o->mass_t = mass_t;
    o->fn_sum = o->ft_sum = o->fn_max = 0.0;
}

/* Lanes of a block: up to 4 body pairs of one colour (no two sharing a body that moves), each
   with up to 2 contact rows (a pair's points), as structure of arrays. A lane with one row has
   a second that does nothing (mass 0); a block with fewer pairs has lanes that do nothing
   (slot 0, mass 0). The lanes' inverse masses are not stored: a lane takes its slots' from
   s->minv (its p and q differ). Nor is their softness: bit l
   of st picks s->sf[SOFT_STATIC] for lane l, else s->sf[SOFT_CONTACT] (a contact row's two
   choices). */
enum { SOFT_LANES = 4 };
typedef struct soft_block {
    double n0[4], n1[4], mu[4];
    double rpn[2][4], rqn[2][4], rpt[2][4], rqt[2][4], mass_n[2][4], mass_t[2][4], c0[2][4];
    double fn[2][4], ft[2][4];
    double fn_max[2][4];                        /* kept by the passes only when s->elastic (the
                                                   restitution pass reads it; 0 otherwise) */
    double fn_sum[2][4], ft_sum[2][4];          /* over the step's sub-steps */
    int p[4], q[4];
    int row[2][4];                              /* the soft_row of each (-1: none) */
    int pm, qm;                                 /* bit l: lane l's p (q) moves */
    int st;                                     /* bit l: lane l's softness is SOFT_STATIC */
    int fz;                                     /* bit 4 k + l: row k of lane l has no friction
                                                   (its mu 0: its warm start's ft is 0) */
} soft_block;

/* Two blocks of one colour as eight float lanes (engine2d_soft_f8.c): lanes 0 .. 3 block b's,
   4 .. 7 block b + 1's (nb 2) or lanes that do nothing (nb 1); the lanes' inverse masses and
   inertias held (mp ip mq iq), the blocks' other fields as there (bits l of pm, qm, st). */
enum { SOFT_F8 = 8 };
typedef struct soft_f8 {
    float n0[8], n1[8], mu[8];
    float mp[8], ip[8], mq[8], iq[8];
    float rpn[2][8], rqn[2][8], rpt[2][8], rqt[2][8], mass_n[2][8], mass_t[2][8], c0[2][8];
    float fn[2][8], ft[2][8];
    float fn_max[2][8], fn_sum[2][8], ft_sum[2][8];
    int p[8], q[8];
    int pm, qm, st;
    int b, nb;
    int pad[3];
} soft_f8;

/* Row j (4 k + l) of block b keeps its warm start: it has a mass (a row that does nothing has
   none: its 0s stay) and finite impulses; its tangent impulse only where it has friction
   (fz bit j clear). */
static inline int soft_block_warm_ok(const soft_block *b, int j)
{
    double n = (&b->fn[0][0])[j], t = (&b->ft[0][0])[j];
    return (&b->mass_n[0][0])[j] != 0.0 && fabs(n) <= DBL_MAX && fabs(t) <= DBL_MAX;  /* (finite) */
}

enum { SHAPED_ROWS = 1, SHAPED_LANES = 2 };

/* Row k of lane l of block b from shaped row t (imp_e2_soft_row_shape's results: the lane's
   normal and friction from its row 0), its sums and largest impulse 0, its impulses kept (a
   cached step's warm start: imp_e2_soft_lanes_warm_check). */
static inline void imp_e2_soft_lane_shape(struct soft_block *b, int k, int l, const soft_row *t)
{
    if (k == 0) {
        b->n0[l] = t->n0;
        b->n1[l] = t->n1;
        b->mu[l] = t->mu;
    }
    b->rpn[k][l] = t->rpn;
    b->rqn[k][l] = t->rqn;
    b->rpt[k][l] = t->rpt;
    b->rqt[k][l] = t->rqt;
    b->mass_n[k][l] = t->mass_n;
    b->mass_t[k][l] = t->mass_t;
    b->c0[k][l] = t->c0;
    b->fn_max[k][l] = b->fn_sum[k][l] = b->ft_sum[k][l] = 0.0;
    int bit = 1 << (4 * k + l);
    b->fz = (b->fz & ~bit) | (t->mu == 0.0 ? bit : 0);
}

/* Colours the groups of s (contact pairs of at most 2 rows; the others, connectors and pairs
   with more points, go to s->over) and fills the blocks from the rows, each lane with its
   contact softness (s->sf). 0, or -1 out of memory. O(rows +
   slots). */
int imp_e2_soft_blocks(struct imp_e2_soft *s, int nslots);
/* After imp_e2_soft_blocks on earlier rows: when the rows' groups are those it coloured (the
   same body pairs in the same order with as many rows each; their bodies' masses and the
   rows' types unchanged: the caller's to know), fills the same blocks' lanes from the rows
   (imp_e2_soft_blocks would give them as they are then) and returns 1; else 0. O(rows). */
int imp_e2_soft_blocks_keep(struct imp_e2_soft *s);
/* Lane l of block b from rows k0 and k1 (-1: none) of one body pair: its normal, friction,
   softness (s->sf) and rows (their geometry and impulses; the lane's bodies are set by
   imp_e2_soft_blocks and stay). */
void imp_e2_soft_fill_lane(const struct imp_e2_soft *s, struct soft_block *b, int l, int k0, int k1);
/* One pass over the rows k0 .. k1 - 1 of one body pair (s->sf, push_max), the portable way. */
void imp_e2_soft_group_pass(struct imp_e2_soft *s, int k0, int k1, double inv_h, int use_bias,
                            double push_max);
/* The step's float blocks from the blocks (their impulses and sums too), and the slots that
   move in them, for ns slots; check: the blocks' warm starts checked on the way (as
   imp_e2_soft_lanes_warm_check, which is then not needed). 0, or -1 out of memory.
   O(blocks + slots). */
int imp_e2_soft_f8_pack(struct imp_e2_soft *s, int ns, int check);
/* The float blocks' impulses, sums and largest impulses back into the blocks. O(blocks). */
void imp_e2_soft_f8_unpack(struct imp_e2_soft *s);
/* s->vel (dx 0) or s->dpos (dx 1) rounded into the float velocities (displacements). O(slots). */
void imp_e2_soft_f8_in(struct imp_e2_soft *s, int dx);
/* The float velocities of the slots that move in a block back into s->vel, as the change
   the passes made (v + (fvel - (float)v): a body the passes leave alone keeps its double
   velocity). O(slots). */
void imp_e2_soft_f8_out(struct imp_e2_soft *s);
/* s->vel += h acc (SOFT_SV doubles a slot), then rounded into the float velocities. O(slots). */
void imp_e2_soft_f8_kick(struct imp_e2_soft *s, const double *acc, double h);
/* The float velocities out (imp_e2_soft_f8_out), s->dpos += h s->vel, then rounded into the
   float displacements. O(slots). */
void imp_e2_soft_f8_drift(struct imp_e2_soft *s, double h);
/* imp_e2_soft_blocks_pass, _warm and _sum in float on the float blocks and velocities (after
   imp_e2_soft_f8_pack and _kick; the groups in s->over in double on s->vel, the velocities
   brought over and back); AVX2 when s->simd; the same results bit for bit either way. */
void imp_e2_soft_f8_pass(struct imp_e2_soft *s, double h, int use_bias, double push_max, int sum);
void imp_e2_soft_f8_warm(struct imp_e2_soft *s);
void imp_e2_soft_f8_sum(struct imp_e2_soft *s);
/* One pass over the blocks (use_bias: solve, else relax), then the groups in s->over by
   row_pass; sum: each block row's impulses added to its sums over the step after it (as
   imp_e2_soft_blocks_sum, in the same pass). AVX2 when s->simd; the same results bit for
   bit either way. */
void imp_e2_soft_blocks_pass(struct imp_e2_soft *s, double h, int use_bias, double push_max, int sum);
/* The warm start of the blocks' rows (their impulses applied again), AVX2 when s->simd;
   the same results bit for bit either way. */
void imp_e2_soft_blocks_warm(struct imp_e2_soft *s);
/* The sub-step's impulses added to the blocks' sums over the step. */
void imp_e2_soft_blocks_sum(struct imp_e2_soft *s);
/* The warm starts of the blocks' rows checked in their lanes (as row_warm_check: 0 when the
   row cannot carry them), after the lanes were shaped at the last step's end (SHAPED_LANES).
   O(blocks). */
void imp_e2_soft_lanes_warm_check(struct imp_e2_soft *s);
/* The blocks' impulses and sums back into their rows (after the sub-steps). */
void imp_e2_soft_blocks_store(struct imp_e2_soft *s);
/* The threads asked for by IMPACT_E2_THREADS (default 1; OpenMP builds only), read once. */
int imp_e2_soft_threads_wanted(void);
/* The threads the blocks' passes run on: s->threads when there are at least
   SOFT_PARALLEL_BLOCKS blocks, else 1; the results are the same bit for bit either way. */
int imp_e2_soft_threads(const struct imp_e2_soft *s);
/* A run of consecutive blocks lo .. hi - 1 of one kind (soft_block or soft_f8), ctx the pass's
   arguments. */
typedef void (*imp_e2_soft_range_fn)(struct imp_e2_soft *s, const void *ctx, int lo, int hi);
/* fn over n blocks of one kind, colour c's from first[c], colour by colour; with threads
   (imp_e2_soft_threads), each colour's blocks split into one run of consecutive blocks per
   thread, the colours separated by barriers: the blocks of a colour share no moving body (each
   writes only its own bodies' velocities and reads no other's), so the results are those of
   one thread, bit for bit, whatever the count. */
void imp_e2_soft_colours_run(struct imp_e2_soft *s, const int *first, int n, imp_e2_soft_range_fn fn,
                             const void *ctx);
/* 1 when the AVX2 path can run here (and IMPACT_E2_SIMD=0 is not set). */
int imp_e2_soft_simd_available(void);

/* Moves records r[0 .. 3] (straight-edged body pairs: not curved, no connector) with their
   bodies to y (cs: 2 per slot, the cosines and sines of the angles at y) as
   imp_engine2d_move_record does, four at once (engine2d_soft_move.c: AVX2; only where
   imp_e2_soft_simd_available), the same results bit for bit. */
void imp_e2_soft_move4(const double *y, const double *cs, struct imp_rec2d *const *r, soft_row *const *o);

/* The lean records (engine2d_soft_lean.c). After a step's end that shaped the blocks' rows
   into their lanes (SHAPED_LANES) with its records moved: when every row is a straight-edged
   body-pair contact in the blocks, row i of record i, copies the records into the lean ones
   and returns 1 (s->lean_on), else 0. O(rows). */
int imp_e2_soft_lean_enter(struct imp_world *w, struct imp_e2_soft *s);
/* The step's end of finish_records with the lanes shaped, from and into the lean records (s->cs
   at the step's end state): the same lanes, sums, events and touching states bit for bit, the
   records left behind (s->lean_ahead). Returns whether a touching state changed. O(rows). */
int imp_e2_soft_lean_end(struct imp_world *w, struct imp_e2_soft *s, double dt, double t1);
/* The records (and the rows' v0) brought up to the lean ones when they are behind. O(rows). */
void imp_e2_soft_lean_sync(struct imp_world *w, struct imp_e2_soft *s);

/* The incremental detection at y: the records of the pairs holding a slot in s->moved
   detected again, the others' (e->rec[0 .. s->nbody)) kept (imp_engine2d_detect_moved).
   Returns e->nrec, or -1. */
struct imp_world;
int imp_e2_soft_redetect(struct imp_world *w, struct imp_e2_soft *s, const double *y);
/* IMPACT_E2_DETECT_CHECK=1 asks for the check below (read once). */
int imp_e2_soft_check_wanted(void);
/* After imp_e2_soft_redetect at y: a full detection compared with its records (counted in
   s->check), the incremental records then restored. e->nrec, or -1. */
int imp_e2_soft_check(struct imp_world *w, struct imp_e2_soft *s, const double *y);

#endif
