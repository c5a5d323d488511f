/* engine3d_soft_internal.h: the 3D soft step's rows and state, shared by engine3d_soft.c (the
   step) and engine3d_soft_blocks.c (the rows in coloured blocks and their passes). */
#ifndef IMPACT_ENGINE3D_SOFT_INTERNAL_H
#define IMPACT_ENGINE3D_SOFT_INTERNAL_H

#include <stddef.h>

#include "engine3d.h"
#include "engine3d_soft.h"
#include "engine3d_soft_recycle.h"
#include "quat.h"

/* A block: up to E3B_LANES body pairs of one colour (no two sharing a body that moves), one a
   lane, each with up to E3B_POINTS points solved in turn; the pairs of two moving bodies take
   colours 0 .. E3B_STATIC - 1, the others E3B_STATIC .. E3B_COLOURS - 1 (solved after them:
   the static constraints last, as the rows' order of the step). */
enum { E3B_LANES = 4, E3B_POINTS = 4, E3B_COLOURS = 64, E3B_STATIC = 48 };

/* One contact point's row for the step, in one record (the blocks take theirs from it). The
   frame and the lever arms are the step's start's (fixed over the step). The 3-vectors are 4
   doubles (lane 3: 0): the frame's columns ec = (n, t1, t2). 320 bytes, five cache lines in
   an array aligned to 64 (reserve), the fields grouped by who reads them: the frame and the
   anchors (prepare, the blocks' build, the rows one by one), the masses beside rb (written back
   by the blocks' build as it reads rb), then one line of what the passes' store and the end of
   the step read and write (rn .. s, mu .. pushed: the store, impact_points' walk, finish_points),
   then the step's sums and what is per pair (the sums with the store and finish_points). */
typedef struct imp_e3_soft_pt {
    double ec[3][4];
    double ra[4], rb[4];  /* anchors from the centres at the step's start (fixed) */
    double mn;            /* normal effective mass 1 / (n K n), 0 when nothing moves */
    double mt;            /* the tangent rows' mass: 1 / the tangent block's larger eigenvalue
                             (one number for both: the impulse then lies along the slip, and
                             sliding friction is mu rn against it in every direction) */
    double w1n, w2n;      /* t1 K n, t2 K n: the tangent velocities a normal impulse makes */
    double rn, rt1, rt2;  /* this sub-step's impulses (warm start, then the passes) */
    double s;             /* the separation of the current sub-step */
    double mu;
    double sep;           /* the detected gap */
    double uhit;          /* the normal velocity before the step's first push (an impact's
                             approach, gravity over the step's first sub-steps included; at
                             the step's start its normal velocity u0, which e->pts[src].u0
                             keeps) */
    double pushed;        /* the normal impulse of the step's first push (0 before it: only
                             whether it is 0 is read) */
    /* read once per sub-step or step */
    double sum[3];        /* the step's impulses */
    double e;             /* restitution */
    double ima, imb;      /* inverse masses */
    int a, b;             /* slots (0 and bodies that do not move: no inverse mass) */
    int src;              /* its point in e->pts (the rows are in pass order, below) */
    unsigned char soft_static; /* one side does not move: the stiffer softness */
    unsigned char held;   /* its normal impulse kept by the pass (engine3d_soft_impact.c solved
                             it with its pair's others just before) */
    unsigned char fresh;  /* its feature was not in contact the step before (a new point) */
    unsigned char mixed;  /* (a pair's first row) 1 when its points' frames or friction are not
                             all the same bit for bit (prepare; the blocks then keep one frame a
                             point) */
} imp_e3_soft_pt;

_Static_assert(sizeof(imp_e3_soft_pt) == 320 && offsetof(imp_e3_soft_pt, rn) == 192,
               "imp_e3_soft_pt: five cache lines, rn .. pushed one of them");

struct imp_e3_soft {
    imp_e3_soft_pt *pts;
    int cap;
    double *pose0;        /* 7 per slot: position and orientation at the step's start */
    double *delta;        /* 8 per slot (one cache line): displacement since then (x, y, z, 0)
                             and the rotation since as a quaternion (w, x, y, z), whose matrix
                             the readers take by imp_q_to_mat3's operations (imp_e3_delta_expand,
                             the passes' rotation) */
    double *force;        /* the bodies' forces and torques (6 per slot, imp_world_forces) */
    double *sv;           /* 8 per slot: v (x, y, z, 0) and w (x, y, z, 0), the passes' copy of
                             e->vel */
    double *si;           /* 12 per slot: the world inverse inertia's columns (lane 3: 0) */
    unsigned char *mv;    /* per slot: whether it moves this step (prepare) */
    unsigned char *dq;    /* per slot: whether delta's rotation was taken at its orientation as
                             it is (integrate_positions; 0 at the step's start) */
    int *still;           /* per point (cap): prepare's list of the points with a still side */
    int *took;            /* per point (cap): the points the restitution pass takes, in order
                             (impact_points), ntook of them */
    int ntook;
    int *srcs;            /* per row (cap): its point in e->pts (the row's src, apart: the
                             step's last store reads it without the row's last line) */
    /* The step's end done by its last store (imp_e3_soft_finish_row): while fin_pts is set
       (e->pts, from the sub-steps to finish_points, engine3d_soft.c), the store gives each
       block row of a pair none of whose points pushed fast (pushed_fast below) its point's
       impulses, warm start and impact (e->pts[src], rc's fcur) as finish_points would, and
       leaves the row unwritten (nothing reads it after the store: impact_points passes over
       such a pair, whose rows then hold prepare's pushed 0, as it would over the stored
       rows, and the restitution pass takes none of its points); the others' rows it stores
       and lists in late (cap), for finish_points after the restitution pass */
    imp_e3_point *fin_pts;
    double fin_vtol, fin_inv_hs;
    int fin_gather;
    long fin_collisions;
    int *late;
    int nlate;
    double *rs;           /* 3 per point (cap): the restitution pass's rn and u_N before it,
                             and the point's group (its root slot) */
    double *gs;           /* 3 per slot: its groups' sums (energy added: A, B; allowed) */
    double *ke;           /* per slot: the kinetic energy of its free motion over the step */
    int *uf;              /* per slot: the restitution pass's groups (union-find) */
    int slot_cap;
    imp_e3_recycle rc;    /* the pairs' manifolds held over steps (engine3d_soft_recycle.h) */
    /* the coloured blocks (engine3d_soft_blocks.c) */
    struct imp_e3_block *blocks;
    struct imp_e3_block_sum *bsum; /* per block (sum_cap) */
    struct imp_e3_block_hit *bhit; /* per block (hit_cap) */
    struct imp_e3_block_frame *xframes; /* the per-point frames of the blocks whose pairs'
                                       points do not share one (xframe_cap) */
    int nblocks, block_cap, sum_cap, hit_cap, xframe_cap;
    int colour_first[E3B_COLOURS + 1]; /* the blocks of colour c: colour_first[c] .. [c + 1] - 1 */
    int *pair_first;      /* the pairs' first points in pts, then n (pair_cap; prepare's, as
                             it writes the rows: no walk of the rows to find them) */
    int *pair_col;        /* per pair: its colour, -1: solved one by one */
    int *over;            /* the pairs solved one by one: the moving ones, then from nover_dyn
                             the others */
    int npairs, nover, nover_dyn, pair_cap;
    int *held;            /* the lanes (4 block + lane) and pairs (-1 - pair) whose normal rows
                             the next pass keeps (engine3d_soft_impact.c) */
    int nheld, held_cap;
    int *cand;            /* the step's candidates for those (the same coding), listed once a
                             step by imp_e3_soft_impact_list */
    unsigned char *cand_rest; /* per candidate: why it is listed (engine3d_soft_impact.c: 0 its
                             impulse, 1 a resting manifold that appears, solved whether or not it
                             has an impact, 2 an approach faster than the threshold) */
    unsigned char *cand_ready; /* per candidate: 1 once its coupling is in kc this step */
    struct imp_e3_impact_cand *kc; /* per candidate: its coupling and factors (engine3d_soft_impact.c) */
    int ncand, cand_cap, cand_rest_cap, cand_ready_cap, kc_cap;
    int cand_first;       /* 1 from the list to the end of the step's first impact pass */
    unsigned long long *colour_mask; /* per slot: the colours taken */
    int mask_cap;
    /* the step's last relax pass (when it stores the rows): whether a row pushed at an
       approach faster than impact_threshold (uhit < -impact_threshold, pushed > 0), taken as it
       stores them (pushed_known 1) for the restitution pass's first question */
    double impact_threshold;
    int pushed_fast, pushed_known;
    /* the last step's residual, computed when asked (imp_e3_soft_error): 1 / hs, and the step
       it belongs to (e->stats.steps after it) */
    int error_pending;
    long error_step;
    double error_inv_hs;
};


/* One point of each lane of a block, structure of arrays (lane l of each field: the lane's
   point; a lane with fewer points has rows of zeros here and its impulse masked to +0 in the
   passes, so that it changes nothing). Only what the passes read or write: the frame is the
   pair's (imp_e3_block_frame), the step's sums are apart (imp_e3_block_sum), and so is the
   first push (imp_e3_block_hit: the passes ask the block's pushed bits and write there only at
   a row's first push of the step). The data fixed for the step but the gap (anchors, masses)
   in floats, fewer bytes for the passes to read (issue #24 item 8): the rows' values rounded
   to nearest as the blocks are made, the masses computed from the rounded anchors, frame and
   inverse inertias, then rounded, and written back so into the rows (the impact pass's); every
   path rounds the same way and reads the same floats. The gap sep stays a double: its rounding
   would be an error of position the soft rows push against every step (a box at rest on the
   ground: 4e-11 m/s against 1e-14). The impulses and separations, which the passes change, in
   doubles. 320 bytes, five cache lines (the blocks 64-aligned, imp_e3_block): the anchors and
   the impulses first, the three lines the warm start reads, then the masses and separations. */
typedef struct imp_e3_block_pt {
    float ra[3][4], rb[3][4];
    double rn[4], rt1[4], rt2[4];
    float mn[4], mt[4], w1n[4], w2n[4];
    double sep[4], s[4];
} imp_e3_block_pt;

/* The contact frame (n, t1, t2) and friction of each lane's points, in floats (the rows'
   values rounded to nearest: imp_e3_block_pt): one for all the points of a block whose
   every pair's points share theirs (a manifold's points do: detection gives them one normal
   and one pair of tangents), else one per point (the block's first in the block, the others
   in s->xframes). */
typedef struct imp_e3_block_frame {
    float n[3][4], t1[3][4], t2[3][4], mu[4];
} imp_e3_block_frame;

/* the step's impulses of a block's points (read once per sub-step, not by the passes) */
typedef struct imp_e3_block_sum {
    double sum[E3B_POINTS][3][4];
} imp_e3_block_sum;

/* a block's points' first push of the step (the rows' uhit and pushed, imp_e3_soft_pt), apart
   from the block points: a pass reads and writes them only at a row's first push of the step
   (the block's pushed bits tell which rows pushed), once a row a step, not at every pass */
typedef struct imp_e3_block_hit {
    double uhit[E3B_POINTS][4], pushed[E3B_POINTS][4];
} imp_e3_block_hit;

typedef struct imp_e3_block {
    _Alignas(64) imp_e3_block_pt p[E3B_POINTS]; /* (aligned: 2048 bytes a block, s->blocks from
                                       aligned_alloc; each point on a cache line's start) */
    imp_e3_block_frame f;           /* the lanes' frames (of point 0 when xf >= 0) */
    float ia[3][3][4], ib[3][3][4]; /* the lanes' bodies' world inverse inertias, ia[j][i] = I_a[i][j]
                                       (s->si rounded to float; fixed for the step) */
    double ima[4], imb[4];
    double br[4], ms[4], is[4];     /* the lanes' softness (a side that does not move: stiffer) */
    long long cnt[4];               /* the lanes' points (point k of lane l exists when k < cnt[l]) */
    int a[4], b[4];                 /* slots (0 in an empty lane) */
    int row[E3B_POINTS][4];         /* the point in s->pts (-1: none) */
    int amove, bmove;               /* bit l: lane l's a (b) moves */
    int np;                         /* the most points of its lanes */
    unsigned char pushed[E3B_POINTS]; /* bit l: lane l's point k pushed this step (its pushed in
                                       s->bhit is not 0) */
    int xf;                         /* -1: one frame for the block's points; else points 1 .. np - 1
                                       take s->xframes[xf .. xf + np - 2] */
} imp_e3_block;

_Static_assert(sizeof(imp_e3_block_pt) == 320 && offsetof(imp_e3_block_pt, mn) == 192
                   && sizeof(imp_e3_block) % 64 == 0,
               "imp_e3_block_pt: five cache lines, the warm start's three first");

/* s->pair_first, pair_col and over sized for n rows (their pairs at most n); 0 or -1 */
int imp_e3_soft_pairs_reserve(struct imp_e3_soft *s, int n);
/* The rows of s->pts[0 .. n) (in pass order, each pair's points consecutive, the pairs' runs
   in s->pair_first[0 .. npairs], as prepare lists them: engine3d_soft.c) coloured by pair
   and laid out in blocks, each lane with its softness (soft: between moving bodies, stiff:
   against one that does not move); the rows' impulses taken as the blocks', the step's sums
   as prepare leaves them, 0 (the rows' sums are not read: call it before a pass); every row's
   masses (mn, mt, w1n, w2n) computed, the blocks' four lanes at once (AVX2 when simd, the
   same bits either way). 0, or -1 out of memory. O(rows + slots). */
int imp_e3_soft_blocks(struct imp_e3_soft *s, int n, int nslots, const imp_e3_softness *soft,
                       const imp_e3_softness *stiff, int simd);
/* The blocks' arrays for nb blocks at least: s->blocks 64-aligned (imp_e3_block's lines;
   rebuilt whole by every imp_e3_soft_blocks, so not copied when it grows), s->bsum and s->bhit.
   Both imp_e3_soft_blocks and the bodies' reserve (imp_e3_soft_reserve) size them here: an
   array grown any other way loses the alignment. 0, or -1 out of memory. */
int imp_e3_soft_blocks_reserve(struct imp_e3_soft *s, int nb);
/* Whether the passes take two blocks of a colour at once in the AVX-512 registers, eight lanes
   (engine3d_soft_blocks.c; the same results bit for bit as the AVX2 and portable paths): when
   the AVX2 path is on (simd), the processor has AVX-512F and FMA, and IMPACT_E3_SIMD is not 0
   (portable) or 2 (AVX2 only) in the environment. set: 0 forbids it, 1 asks for it (taken
   when the processor has it), -1 leaves the choice; returns 1 when it is taken. */
int imp_e3_soft_blocks_wide(int set);
/* The warm start: each block row's impulse applied to its bodies (s->sv), then the pairs
   solved one by one (the portable rows). */
void imp_e3_soft_blocks_warm(struct imp_e3_soft *s, int simd);
/* One pass: the blocks of the moving pairs' colours, the moving pairs solved one by one, the
   other colours' blocks, the other pairs one by one (use_bias: solve, else relax). sum (a relax
   pass's, the sub-step's last): 1, each row's impulses, once solved, added to the step's sums,
   as imp_e3_soft_blocks_sum after the pass would (no walk of the blocks of its own); 2 (the
   step's last pass), that and each block's rows then back into s->pts, as
   imp_e3_soft_blocks_store after the pass would, and s->pushed_fast taken over the rows
   (pushed_known set). The AVX2 path (simd, eight lanes with AVX-512 where
   imp_e3_soft_blocks_wide) and the portable one give the same results bit for bit. */
void imp_e3_soft_blocks_pass(struct imp_e3_soft *s, const imp_e3_softness *soft, const imp_e3_softness *stiff,
                             double hs, double push_max, int use_bias, int sum, int simd);
/* The sub-step's impulses added to the step's sums (blocks and the other pairs): when no
   relax pass added them. */
void imp_e3_soft_blocks_sum(struct imp_e3_soft *s);
/* The blocks' rows back into s->pts (impulses, separations, sums, the first push): when no
   relax pass stored them (sum 2 above). */
void imp_e3_soft_blocks_store(struct imp_e3_soft *s);
void imp_e3_soft_blocks_free(struct imp_e3_soft *s);
/* The residual's sums (num, r2, u2: engine3d_soft.c's residual) over the blocks' rows added to
   acc, each lane's in the blocks' order and the lanes' then added in order (AVX2 when simd, the
   same bits either way). */
void imp_e3_soft_blocks_residual(const struct imp_e3_soft *s, double inv_hs, int simd, double acc[3]);
/* One point's terms of the residual from its relative velocity (u_N, u_T1, u_T2), its
   separation s, impulses and friction, added to acc (num, r2, u2). */
void imp_e3_soft_residual_terms(double vn, double u1, double u2, double s, double rn, double rt1, double rt2,
                                double mu, double inv_hs, double acc[3]);

/* the step's end of one point (finish_points', engine3d_soft.c, or the last store's,
   fin_pts above): its last sub-step's impulses (rn, rt1, rt2) over its length into its
   record's warm start, the step's (sum) into the point, and an impact (it pushed, first at an
   approach faster than velocity_tol) counted and gathered for the collision events */
static inline void imp_e3_soft_finish_row(struct imp_e3_soft *s, int src, double rn, double rt1, double rt2,
                                          double s0, double s1, double s2, double uhit, double pushed)
{
    const double f[3] = {rn * s->fin_inv_hs, rt1 * s->fin_inv_hs, rt2 * s->fin_inv_hs};
    imp_e3_recycle_force(&s->rc, src, f);
    imp_e3_point *p = &s->fin_pts[src];
    p->r[0] = s0, p->r[1] = s1, p->r[2] = s2;
    int impact = uhit < -s->fin_vtol && pushed > 0.0 && p->r[0] > 0.0;
    s->fin_collisions += impact;
    imp_e3_gather_impact(p, s->fin_gather, impact, uhit, p->r[0]);
}

/* One point's rows the portable way (engine3d_soft.c; the pairs solved one by one) */
void imp_e3_soft_row(struct imp_e3_soft *s, imp_e3_soft_pt *q, const imp_e3_softness *soft,
                     const imp_e3_softness *stiff, double hs, double push_max, int use_bias);
void imp_e3_soft_row_warm(struct imp_e3_soft *s, const imp_e3_soft_pt *q);

/* Once a step, after imp_e3_soft_blocks (engine3d_soft_impact.c): the pairs of 2 to 8 points
   the passes' impact solve visits this step, those with a point approaching faster than
   threshold at the step's start (uhit = u0) or warm started with an impulse that moves it
   faster (rn > threshold mn: the step after an impact); and the resting manifolds that appear
   this step (all their points new, one touching or closing within h at its free velocity at the step's
   end, vel: 6 per slot), solved as a block through the step whatever their speed, so that
   a body set down flat takes its corners' impulses together (no tilt). O(pairs). */
void imp_e3_soft_impact_list(struct imp_e3_soft *sf, double threshold, const double *vel, double h);
/* Its lists sized for npairs pairs and ncand candidates (imp_e3_soft_reserve); 0 or -1. */
int imp_e3_soft_impact_reserve(struct imp_e3_soft *sf, int npairs, int ncand);
/* Before a pass (engine3d_soft_impact.c): each listed pair of 2 to 8 points with an impact this step
   (a point's approach faster than threshold) has its normal rows solved together, to the
   impulses the pass's rows would converge to, when they all push; the pass then changes
   them by rounding only (issue #24: a body landing flat stays flat). use_bias: before a
   solve pass, else before a relax pass. The pass keeps those rows' normal impulses (their
   friction it solves as before) until imp_e3_soft_impact_release. O(listed pairs x
   points^4). */
void imp_e3_soft_impact_pass(struct imp_e3_soft *sf, const imp_e3_softness *soft, const imp_e3_softness *stiff,
                             double hs, double push_max, double threshold, int use_bias, int simd);
/* The impact pass's first question for each lane of block b (engine3d_soft_blocks.c), as
   bits (bit l: lane l): whether one of its points approached faster than threshold this step
   (uhit < -threshold), or holds an impulse above threshold mn and moves along its normal
   faster than threshold now (|u_N| > threshold, u_N from s->sv as the passes compute it),
   from the block's copies of the rows. The four lanes at once with AVX2 (simd), the same
   answer either way. O(points of the block). */
unsigned imp_e3_block_impact_lanes(const struct imp_e3_soft *s, const imp_e3_block *b, double threshold, int simd);
/* after the pass: the rows the impact pass held take their masses and softness back */
void imp_e3_soft_impact_release(struct imp_e3_soft *sf, const imp_e3_softness *soft, const imp_e3_softness *stiff);

/* The portable rows' arithmetic (engine3d_soft.c's rows, engine3d_soft_impact.c's block of a
   pair's normal rows) */
/* a x b lane by lane as the AVX2 kernel: (a_y b_z - a_z b_y, a_z b_x - a_x b_z, a_x b_y -
   a_y b_x, 0) */
static inline void cross4(const double *a, const double *b, double out[4])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
    out[3] = a[3] * b[3] - a[3] * b[3];
}

/* The velocity of b relative to a at the point in its frame, u = (u_N, u_T1, u_T2, 0), from
   the padded velocities va, vb (8 each): d = ((v_b - v_a) + w_b x r_b) - w_a x r_a, then
   u_k = (d_0 e_k0 + d_1 e_k1) + d_2 e_k2, e_k the frame's column k (n, t1, t2; the blocks'
   order, lane by lane). */
static inline void velocity(const double *va, const double *vb, const imp_e3_soft_pt *q, double u[4])
{
    double ca[4], cb[4], d[4];
    cross4(vb + 4, q->rb, cb);
    cross4(va + 4, q->ra, ca);
    for (int k = 0; k < 4; k++) {
        d[k] = ((vb[k] - va[k]) + cb[k]) - ca[k];
    }
    for (int k = 0; k < 3; k++) {
        u[k] = (d[0] * q->ec[k][0] + d[1] * q->ec[k][1]) + d[2] * q->ec[k][2];
    }
    u[3] = 0.0;
}

/* the impulse P = dn n + d1 t1 + d2 t2 on b at the point, -P on a: v_b += m_b^-1 P,
   w_b += I_b^-1 (r_b x P) (Ib: the inverse inertia's columns), the opposite on a (the AVX2
   kernel's order) */
static inline void apply(double *va, double *vb, const double *Ia, const double *Ib, const imp_e3_soft_pt *q,
                         double dn, double d1, double d2)
{
    double P[4], ca[4], cb[4];
    for (int k = 0; k < 4; k++) {
        double x = dn * q->ec[0][k];
        x = x + d1 * q->ec[1][k];
        P[k] = x + d2 * q->ec[2][k];
    }
    cross4(q->ra, P, ca);
    cross4(q->rb, P, cb);
    for (int k = 0; k < 4; k++) {
        double A = ca[0] * Ia[k];
        A = A + ca[1] * Ia[4 + k];
        A = A + ca[2] * Ia[8 + k];
        double B = cb[0] * Ib[k];
        B = B + cb[1] * Ib[4 + k];
        B = B + cb[2] * Ib[8 + k];
        va[k] = va[k] - q->ima * P[k];
        vb[k] = vb[k] + q->imb * P[k];
        va[4 + k] = va[4 + k] - A;
        vb[4 + k] = vb[4 + k] + B;
    }
}

/* a slot's motion since the step began (m: its 8 in delta) as 16: the displacement (x, y, z,
   0), then the rotation's columns (each x, y, z, 0), imp_q_to_mat3 of the quaternion (the
   step start's (1, 0, 0, 0) gives the identity, +0 off the diagonal) */
static inline void imp_e3_delta_expand(const double *m, double d[16])
{
    imp_mat3 r = imp_q_to_mat3(imp_q(m[4], m[5], m[6], m[7]));
    d[0] = m[0], d[1] = m[1], d[2] = m[2], d[3] = 0.0;
    for (int j = 0; j < 3; j++) {
        d[4 + 4 * j] = r.m[0][j], d[5 + 4 * j] = r.m[1][j], d[6 + 4 * j] = r.m[2][j], d[7 + 4 * j] = 0.0;
    }
}

/* the separation of the point in the sub-step: its anchors moved with their bodies since the
   step began (delta: 8 per slot, imp_e3_delta_expand), s = sep + n . (o_b - o_a), o = ((dx +
   r_0 R_0) + r_1 R_1 + r_2 R_2) - r (R_j: the rotation's columns), the dot product summed
   ((x0 + x1) + x2) + x3; ma, mb: its sides' motions, imp_e3_delta_expand's */
static inline double separation_of(const double ma[16], const double mb[16], const imp_e3_soft_pt *q)
{
    double x[4];
    for (int k = 0; k < 4; k++) {
        double oa = ma[k] + q->ra[0] * ma[4 + k];
        oa = oa + q->ra[1] * ma[8 + k];
        oa = oa + q->ra[2] * ma[12 + k];
        oa = oa - q->ra[k];
        double ob = mb[k] + q->rb[0] * mb[4 + k];
        ob = ob + q->rb[1] * mb[8 + k];
        ob = ob + q->rb[2] * mb[12 + k];
        ob = ob - q->rb[k];
        x[k] = (ob - oa) * q->ec[0][k];
    }
    return q->sep + (((x[0] + x[1]) + x[2]) + x[3]);
}

/* separation_of with its sides' motions taken from delta (8 per slot) */
static inline double separation(const double *delta, const imp_e3_soft_pt *q)
{
    double ma[16], mb[16];
    imp_e3_delta_expand(delta + 8 * (size_t)q->a, ma);
    imp_e3_delta_expand(delta + 8 * (size_t)q->b, mb);
    return separation_of(ma, mb, q);
}

/* A portable normal row's bias and softness at separation s: speculative (s > 0) bias
   s inv_hs (the gap may close, no more), rigid; closed in a solve pass (use_bias), f's soft
   spring (its bias clamped to -push_max); closed in a relax pass, rigid without bias. */
static inline void imp_e3_soft_bias(double s, double inv_hs, int use_bias, const imp_e3_softness *f,
                                    double push_max, double *bias, double *ms, double *is)
{
    *bias = 0.0, *ms = 1.0, *is = 0.0;
    if (s > 0.0) {
        *bias = s * inv_hs;
    } else if (use_bias) {
        double b = f->bias_rate * s;
        *bias = b > -push_max ? b : -push_max;
        *ms = f->mass_scale;
        *is = f->impulse_scale;
    }
}

/* the frame of point k of block b's lanes (xframes: the per-point frames, s->xframes) */
static inline const imp_e3_block_frame *imp_e3_block_frame_of(const imp_e3_block_frame *xframes,
                                                              const imp_e3_block *b, int k)
{
    return b->xf < 0 || k == 0 ? &b->f : &xframes[b->xf + k - 1];
}

#endif
