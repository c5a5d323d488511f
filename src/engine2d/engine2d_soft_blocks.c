/* engine2d_soft_blocks.c: the soft step's rows in coloured blocks (engine2d_soft_internal.h).

   Graph colouring: the body pairs (groups of rows) are given colours so that no two pairs of
   one colour share a body that moves (bodies that do not move, fixed or kinematic, are only
   read); each pair takes the lowest colour free at both its bodies (a 64-bit mask per body).
   Within a colour the pairs are independent, so they are solved four at a time, one per lane
   of an AVX2 register, with the operations of the portable code in the same order (no fused
   multiply-add; IEEE addition, multiplication and comparisons are exact to the same bits
   packed or not): the AVX2 path and the portable path give the same results bit for bit, and
   the order of the solve is the colours' order either way. Pairs with more than two points,
   connector rows, and pairs left without a colour are solved after the blocks, one by one.
   The order is fixed by the rows' order: deterministic. With IMPACT_E2_THREADS > 1 (OpenMP)
   each colour's blocks are split among the threads, the colours in order between barriers:
   the same results bit for bit. A cached step refills the same blocks (their geometry and
   impulses) without colouring again. Cost: O(rows + slots) to colour and fill; a pass is
   O(rows). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "engine2d_soft_internal.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define IMP_E2_HAVE_AVX2 1
#include "avx2.h"
#endif

enum { NCOLOURS = SOFT_COLOURS };

int imp_e2_soft_simd_available(void)
{
#if defined(IMP_E2_HAVE_AVX2)
    const char *env = getenv("IMPACT_E2_SIMD");
    if (env != NULL && strcmp(env, "0") == 0) {
        return 0;
    }
    return imp_avx2_supported();
#else
    return 0;
#endif
}

static int moves(double m, double i) { return m != 0.0 || i != 0.0; }

/* the empty lane l of block b: slot 0, no mass, no rows */
static void empty_lane(soft_block *b, int l)
{
    b->p[l] = b->q[l] = 0;
    b->n0[l] = b->n1[l] = b->mu[l] = 0.0;
    for (int k = 0; k < 2; k++) {
        b->rpn[k][l] = b->rqn[k][l] = b->rpt[k][l] = b->rqt[k][l] = 0.0;
        b->mass_n[k][l] = b->mass_t[k][l] = b->c0[k][l] = 0.0;
        b->fn[k][l] = b->ft[k][l] = b->fn_max[k][l] = b->fn_sum[k][l] = b->ft_sum[k][l] = 0.0;
        b->row[k][l] = -1;
    }
}

/* row k of lane l from soft_row o (NULL: a row that does nothing, all 0) */
static void fill_row(soft_block *b, int l, int k, const soft_row *o, int index)
{
    static const soft_row none;
    if (o == NULL) {
        o = &none;
        index = -1;
    }
    b->rpn[k][l] = o->rpn;
    b->rqn[k][l] = o->rqn;
    b->rpt[k][l] = o->rpt;
    b->rqt[k][l] = o->rqt;
    b->mass_n[k][l] = o->mass_n;
    b->mass_t[k][l] = o->mass_t;
    b->c0[k][l] = o->c0;
    b->fn[k][l] = o->fn;
    b->ft[k][l] = o->ft;
    b->fn_max[k][l] = o->fn_max;
    b->fn_sum[k][l] = o->fn_sum;
    b->ft_sum[k][l] = o->ft_sum;
    b->row[k][l] = index;
    int bit = 1 << (4 * k + l);
    b->fz = (b->fz & ~bit) | (o->mu == 0.0 ? bit : 0);
}

/* lane l's normal, friction, softness and rows from rows k0 and k1 (-1: none) of one pair */
void imp_e2_soft_fill_lane(const struct imp_e2_soft *s, soft_block *b, int l, int k0, int k1)
{
    const soft_row *o = &s->rows[k0];
    b->n0[l] = o->n0;
    b->n1[l] = o->n1;
    b->mu[l] = o->mu;
    b->st = (b->st & ~(1 << l)) | (o->soft == SOFT_STATIC) << l;
    fill_row(b, l, 0, o, k0);
    fill_row(b, l, 1, k1 >= 0 ? &s->rows[k1] : NULL, k1);
    int at = 8 * (int)(b - s->blocks) + l;
    s->loc[k0] = at;
    if (k1 >= 0) {
        s->loc[k1] = at + 4;
    }
}

int imp_e2_soft_blocks(struct imp_e2_soft *s, int nslots)
{
    int ng = s->ngrp;
    if (ng + 1 > s->block_cap) {  /* at most one block per group, plus one per colour */
        int cap = ng + 1 + NCOLOURS;
        soft_block *b = realloc(s->blocks, (size_t)cap * sizeof *b);
        if (b == NULL) {
            return -1;
        }
        s->blocks = b;
        int *o = realloc(s->over, (size_t)cap * sizeof *o);
        if (o == NULL) {
            return -1;
        }
        s->over = o;
        int *g = realloc(s->sig, 3 * (size_t)cap * sizeof *g);
        if (g == NULL) {
            return -1;
        }
        s->sig = g;
        s->block_cap = cap;
    }
    if (nslots + 1 > s->mask_cap) {  /* (grown only: no allocation in a step once sized) */
        unsigned long long *m = realloc(s->colour_mask, ((size_t)nslots + 1) * sizeof *m);
        if (m == NULL) {
            return -1;
        }
        s->colour_mask = m;
        double *mi = realloc(s->minv, SOFT_SV * ((size_t)nslots + 1) * sizeof *mi);
        if (mi == NULL) {
            return -1;
        }
        s->minv = mi;
        s->mask_cap = nslots + 1;
    }
    unsigned long long *mask = s->colour_mask;
    memset(mask, 0, ((size_t)nslots + 1) * sizeof *mask);
    double *minv = s->minv;
    memset(minv, 0, SOFT_SV * ((size_t)nslots + 1) * sizeof *minv);
    int *col = s->ord;  /* (free once the rows are built: row_cap >= groups) */
    int count[NCOLOURS] = {0};
    s->nover = 0;
    for (int i = 0; i < s->nrows; i++) {
        s->loc[i] = -1;  /* (the blocks' rows set by imp_e2_soft_fill_lane) */
    }
    for (int g = 0; g < ng; g++) {
        int k0 = s->grp[g], k1 = s->grp[g + 1];
        const soft_row *o = &s->rows[k0];
        col[g] = -1;
        /* (p != q: a lane's masses are its slots' in s->minv; contacts join two bodies) */
        int fits = k1 - k0 <= 2 && o->type == ROW_CONTACT && (k1 - k0 == 1 || s->rows[k0 + 1].type == ROW_CONTACT) &&
                   o->p != o->q;
        int mp = moves(o->mp, o->ip), mq = moves(o->mq, o->iq);
        unsigned long long used = (mp ? mask[o->p] : 0) | (mq ? mask[o->q] : 0);
        if (!fits || used == ~0ULL) {
            s->over[s->nover++] = g;
            continue;
        }
        int c = __builtin_ctzll(~used);
        unsigned long long bit = 1ULL << c;
        if (mp) {
            mask[o->p] |= bit;
        }
        if (mq) {
            mask[o->q] |= bit;
        }
        col[g] = c;
        count[c]++;
    }
    int *first = s->colour_first, fill[NCOLOURS], nb = 0;
    for (int c = 0; c < NCOLOURS; c++) {
        first[c] = nb;
        fill[c] = 0;
        nb += (count[c] + SOFT_LANES - 1) / SOFT_LANES;
    }
    first[NCOLOURS] = nb;
    s->ncolours = NCOLOURS;
    for (int b = 0; b < nb; b++) {
        for (int l = 0; l < SOFT_LANES; l++) {
            empty_lane(&s->blocks[b], l);
        }
        s->blocks[b].pm = s->blocks[b].qm = s->blocks[b].st = s->blocks[b].fz = 0;
    }
    for (int g = 0; g < ng; g++) {
        int c = col[g];
        if (c < 0) {
            continue;
        }
        int at = fill[c]++;
        soft_block *b = &s->blocks[first[c] + at / SOFT_LANES];
        int l = at % SOFT_LANES, k0 = s->grp[g], k1 = s->grp[g + 1];
        const soft_row *o = &s->rows[k0];
        b->p[l] = o->p;
        b->q[l] = o->q;
        /* (a body's rows hold the same inverse mass and inertia where it moves) */
        if (moves(o->mp, o->ip)) {
            b->pm |= 1 << l;
            minv[SOFT_SV * o->p] = o->mp, minv[SOFT_SV * o->p + 1] = o->ip;
        }
        if (moves(o->mq, o->iq)) {
            b->qm |= 1 << l;
            minv[SOFT_SV * o->q] = o->mq, minv[SOFT_SV * o->q + 1] = o->iq;
        }
        imp_e2_soft_fill_lane(s, b, l, k0, k1 - k0 == 2 ? k0 + 1 : -1);
    }
    s->nblocks = nb;
    for (int g = 0; g < ng; g++) {  /* the groups coloured: imp_e2_soft_blocks_keep */
        s->sig[3 * g] = s->grp[g + 1];
        s->sig[3 * g + 1] = s->rows[s->grp[g]].p;
        s->sig[3 * g + 2] = s->rows[s->grp[g]].q;
    }
    s->nsig = ng;
    return 0;
}

int imp_e2_soft_blocks_keep(struct imp_e2_soft *s)
{
    if (s->nsig != s->ngrp) {
        return 0;
    }
    for (int g = 0; g < s->ngrp; g++) {
        const soft_row *o = &s->rows[s->grp[g]];
        if (s->sig[3 * g] != s->grp[g + 1] || s->sig[3 * g + 1] != o->p || s->sig[3 * g + 2] != o->q) {
            return 0;
        }
    }
    for (int bi = 0; bi < s->nblocks; bi++) {
        soft_block *b = &s->blocks[bi];
        for (int l = 0; l < SOFT_LANES; l++) {
            if (b->row[0][l] >= 0) {
                imp_e2_soft_fill_lane(s, b, l, b->row[0][l], b->row[1][l]);
            }
        }
    }
    return 1;
}

/* the inverse masses of lane l as its rows hold them: p's and q's mass and inertia (s->minv
   holds 0 for a body that does not move, slot 0 among them; p != q) */
static void lane_mass(const struct imp_e2_soft *s, const soft_block *b, int l, double *m)
{
    const double *mp = s->minv + SOFT_SV * b->p[l], *mq = s->minv + SOFT_SV * b->q[l];
    m[0] = mp[0], m[1] = mp[1], m[2] = mq[0], m[3] = mq[1];
}

#define SL_T double
#define SL_B soft_block
#define SL_NAME d
#if defined(IMP_E2_HAVE_AVX2)
#define SL_AVX2 1
#define SL_V v4
#define SL_LD(p) _mm256_loadu_pd(p)
#define SL_ST(p, x) _mm256_storeu_pd(p, x)
#define SL_SPLAT(x) _mm256_set1_pd(x)
#define SL_ZERO() _mm256_setzero_pd()
#define SL_ADD(a, b) _mm256_add_pd(a, b)
#define SL_SUB(a, b) _mm256_sub_pd(a, b)
#define SL_MUL(a, b) _mm256_mul_pd(a, b)
#define SL_NEG(a) _mm256_xor_pd(a, _mm256_set1_pd(-0.0))
#define SL_PICK(m, a, b) _mm256_blendv_pd(b, a, m)
#define SL_LT(a, b) _mm256_cmp_pd(a, b, _CMP_LT_OQ)
#define SL_GT(a, b) _mm256_cmp_pd(a, b, _CMP_GT_OQ)
#else
#define SL_AVX2 0
#endif
#include "engine2d_soft_lane.h"

static void blocks_warm_portable(struct imp_e2_soft *s, int b0, int b1)
{
    double *vel = s->vel;
    for (int bi = b0; bi < b1; bi++) {
        const soft_block *b = &s->blocks[bi];
        for (int l = 0; l < SOFT_LANES; l++) {
            double *vp = vel + SOFT_SV * b->p[l], *vq = vel + SOFT_SV * b->q[l];
            double v[6] = {vp[0], vp[1], vp[2], vq[0], vq[1], vq[2]};
            double m[4];
            lane_mass(s, b, l, m);
            lane_warm_d(b, l, v, m);
            lane_store_d(b, l, vel, v);
        }
    }
}

static void blocks_pass_portable(struct imp_e2_soft *s, int b0, int b1, double inv_h, int use_bias,
                                 double push_max, int sum)
{
    int track = s->elastic;
    double *vel = s->vel;
    const double *dx = s->dpos;
    for (int bi = b0; bi < b1; bi++) {
        soft_block *b = &s->blocks[bi];
        for (int l = 0; l < SOFT_LANES; l++) {
            double *vp = vel + SOFT_SV * b->p[l], *vq = vel + SOFT_SV * b->q[l];
            const double *xp = dx + SOFT_SV * b->p[l], *xq = dx + SOFT_SV * b->q[l];
            double v[6] = {vp[0], vp[1], vp[2], vq[0], vq[1], vq[2]};
            const double x[4] = {xp[0] - xq[0], xp[1] - xq[1], xp[2], xq[2]};
            double m[4];
            lane_mass(s, b, l, m);
            const softness *sf = &s->sf[b->st >> l & 1 ? SOFT_STATIC : SOFT_CONTACT];
            lane_row_d(b, l, 0, v, x, m, sf->bias_rate, sf->mass_scale, sf->impulse_scale, inv_h, use_bias,
                       push_max, sum, track);
            lane_row_d(b, l, 1, v, x, m, sf->bias_rate, sf->mass_scale, sf->impulse_scale, inv_h, use_bias,
                       push_max, sum, track);
            lane_store_d(b, l, vel, v);
        }
    }
}

#if defined(IMP_E2_HAVE_AVX2)
static inline AVX2 v4 ld(const double *p) { return _mm256_loadu_pd(p); }
static inline AVX2 v4 splat(double x) { return _mm256_set1_pd(x); }
/* a where m is set, else b */
static inline AVX2 v4 pick(v4 m, v4 a, v4 b) { return _mm256_blendv_pd(b, a, m); }
/* the 3 values of the four slots' (base: SOFT_SV per slot) as out[0..2]: a 4-wide load per
   slot (as its 4-wide store: store-to-load forwarding), transposed */
static inline __attribute__((always_inline)) AVX2 void gather3(const double *base, const int *slot, v4 *out)
{
    v4 a0 = ld(base + SOFT_SV * slot[0]), a1 = ld(base + SOFT_SV * slot[1]);
    v4 a2 = ld(base + SOFT_SV * slot[2]), a3 = ld(base + SOFT_SV * slot[3]);
    v4 t0 = _mm256_unpacklo_pd(a0, a1), t1 = _mm256_unpackhi_pd(a0, a1);
    v4 t2 = _mm256_unpacklo_pd(a2, a3), t3 = _mm256_unpackhi_pd(a2, a3);
    out[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
    out[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    out[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
}

/* the lanes whose bit is set in bits (0 .. 15) all ones, the others 0 */
static const long long lane_bits[16][4] = {
    {0, 0, 0, 0},   {-1, 0, 0, 0},   {0, -1, 0, 0},   {-1, -1, 0, 0},   {0, 0, -1, 0},   {-1, 0, -1, 0},
    {0, -1, -1, 0}, {-1, -1, -1, 0}, {0, 0, 0, -1},   {-1, 0, 0, -1},   {0, -1, 0, -1},  {-1, -1, 0, -1},
    {0, 0, -1, -1}, {-1, 0, -1, -1}, {0, -1, -1, -1}, {-1, -1, -1, -1},
};
static inline AVX2 v4 lanes(int bits) { return _mm256_castsi256_pd(_mm256_loadu_si256((const __m256i *)lane_bits[bits])); }

/* the lanes' inverse masses as lane_mass: m[0 .. 3] p's mass and inertia, q's */
static inline __attribute__((always_inline)) AVX2 void gather_mass(const struct imp_e2_soft *s, const soft_block *b, v4 *m)
{
    for (int side = 0; side < 2; side++) {
        const int *slot = side ? b->q : b->p;
        const double *mi = s->minv;
        __m128d a0 = _mm_loadu_pd(mi + SOFT_SV * slot[0]), a1 = _mm_loadu_pd(mi + SOFT_SV * slot[1]);
        __m128d a2 = _mm_loadu_pd(mi + SOFT_SV * slot[2]), a3 = _mm_loadu_pd(mi + SOFT_SV * slot[3]);
        v4 u = _mm256_set_m128d(a2, a0), w = _mm256_set_m128d(a3, a1); /* (m0 i0 m2 i2), (m1 i1 m3 i3) */
        m[2 * side] = _mm256_unpacklo_pd(u, w);
        m[2 * side + 1] = _mm256_unpackhi_pd(u, w);
    }
}

/* the lanes' softness (bias rate, mass and impulse scales): the contact's, or the static one
   where st's bit is set (sf: the contact's, then the static one's, splat) */
static inline __attribute__((always_inline)) AVX2 void block_soft(const soft_block *b, const v4 *sf, v4 *so)
{
    v4 st = lanes(b->st);
    so[0] = pick(st, sf[3], sf[0]);
    so[1] = pick(st, sf[4], sf[1]);
    so[2] = pick(st, sf[5], sf[2]);
}

/* the lanes' velocities: p's then q's */
static inline __attribute__((always_inline)) AVX2 void gather_vel(const soft_block *b, const double *vel, v4 *v)
{
    gather3(vel, b->p, v);
    gather3(vel, b->q, v + 3);
}

/* the lanes' velocities back, q's then p's, of the bodies that move: transposed, one
   4-wide store per slot (its pad 0), the lanes unrolled (the transposed lanes stay in
   registers) */
static inline __attribute__((always_inline)) AVX2 void scatter_vel(const soft_block *b, double *vel, const v4 *v)
{
    const v4 zero = _mm256_setzero_pd();
    v4 lane[2][4];
    for (int side = 0; side < 2; side++) {
        const v4 *u = v + 3 * side;
        v4 t0 = _mm256_unpacklo_pd(u[0], u[1]), t1 = _mm256_unpackhi_pd(u[0], u[1]);
        v4 t2 = _mm256_unpacklo_pd(u[2], zero), t3 = _mm256_unpackhi_pd(u[2], zero);
        lane[side][0] = _mm256_permute2f128_pd(t0, t2, 0x20);
        lane[side][1] = _mm256_permute2f128_pd(t1, t3, 0x20);
        lane[side][2] = _mm256_permute2f128_pd(t0, t2, 0x31);
        lane[side][3] = _mm256_permute2f128_pd(t1, t3, 0x31);
    }
    int pm = b->pm, qm = b->qm;
#pragma GCC unroll 4
    for (int l = 0; l < SOFT_LANES; l++) {
        if (qm >> l & 1) {
            _mm256_storeu_pd(vel + SOFT_SV * (size_t)b->q[l], lane[1][l]);
        }
        if (pm >> l & 1) {
            _mm256_storeu_pd(vel + SOFT_SV * (size_t)b->p[l], lane[0][l]);
        }
    }
}

/* a solve (use_bias) or relax pass over blocks b0 .. b1 - 1 (sum: the impulses added to the
   step's sums; track: each row's largest normal impulse kept, for the restitution pass) */
static inline __attribute__((always_inline)) AVX2 void pass_avx2(struct imp_e2_soft *s, int b0, int b1, double inv_h_s,
                                                                 int use_bias, double push_max_s, int sum, int track)
{
    double *vel = s->vel;
    const double *dx = s->dpos;
    v4 inv_h = splat(inv_h_s), push_max = splat(push_max_s);
    const softness *c = &s->sf[SOFT_CONTACT], *f = &s->sf[SOFT_STATIC];
    const v4 sf[6] = {splat(c->bias_rate), splat(c->mass_scale), splat(c->impulse_scale),
                      splat(f->bias_rate), splat(f->mass_scale), splat(f->impulse_scale)};
    for (int bi = b0; bi < b1; bi++) {
        soft_block *b = &s->blocks[bi];
        v4 v[6], x[4], m[4], xp[3], xq[3];
        /* (the rows' separations first: the displacements are then no longer held) */
        gather3(dx, b->p, xp);
        gather3(dx, b->q, xq);
        x[0] = sub(xp[0], xq[0]);
        x[1] = sub(xp[1], xq[1]);
        x[2] = xp[2];
        x[3] = xq[2];
        v4 c0 = block_gap_d(b, 0, x), c1 = block_gap_d(b, 1, x);
        gather_vel(b, vel, v);
        gather_mass(s, b, m);
        v4 so[3];
        block_soft(b, sf, so);
        block_row_d(b, 0, v, c0, m, so, inv_h, use_bias, push_max, sum, track);
        block_row_d(b, 1, v, c1, m, so, inv_h, use_bias, push_max, sum, track);
        scatter_vel(b, vel, v);
    }
}

/* pass_avx2 compiled for each pass the step makes (its flags constant): the solve, the relax
   and the last relax pass of a sub-step (sum), each with and without track */
static AVX2 void blocks_pass_avx2(struct imp_e2_soft *s, int b0, int b1, double inv_h, int use_bias,
                                  double push_max, int sum)
{
    int track = s->elastic;
    if (use_bias) {
        if (sum) {  /* (not made by the step) */
            pass_avx2(s, b0, b1, inv_h, 1, push_max, 1, track);
        } else if (track) {
            pass_avx2(s, b0, b1, inv_h, 1, push_max, 0, 1);
        } else {
            pass_avx2(s, b0, b1, inv_h, 1, push_max, 0, 0);
        }
    } else if (sum) {
        if (track) {
            pass_avx2(s, b0, b1, inv_h, 0, push_max, 1, 1);
        } else {
            pass_avx2(s, b0, b1, inv_h, 0, push_max, 1, 0);
        }
    } else if (track) {
        pass_avx2(s, b0, b1, inv_h, 0, push_max, 0, 1);
    } else {
        pass_avx2(s, b0, b1, inv_h, 0, push_max, 0, 0);
    }
}

/* lane_warm over the four lanes at once */
static AVX2 void blocks_warm_avx2(struct imp_e2_soft *s, int b0, int b1)
{
    double *vel = s->vel;
    for (int bi = b0; bi < b1; bi++) {
        const soft_block *b = &s->blocks[bi];
        v4 v[6], m[4];
        gather_vel(b, vel, v);
        gather_mass(s, b, m);
        block_warm_d(b, v, m);
        scatter_vel(b, vel, v);
    }
}
#endif

typedef struct blocks_args {
    int warm;  /* 1: the warm start; 0 a pass; 2 a pass adding the impulses to the step's sums */
    int use_bias;
    double inv_h, push_max;
} blocks_args;

/* the blocks b0 .. b1 - 1: a solve or relax pass, or the warm start (ctx: blocks_args) */
static void run_range(struct imp_e2_soft *s, const void *ctx, int b0, int b1)
{
    const blocks_args *a = ctx;
    int warm = a->warm, use_bias = a->use_bias;
    double inv_h = a->inv_h, push_max = a->push_max;
#if defined(IMP_E2_HAVE_AVX2)
    if (s->simd) {
        if (warm == 1) {
            blocks_warm_avx2(s, b0, b1);
        } else {
            blocks_pass_avx2(s, b0, b1, inv_h, use_bias, push_max, warm == 2);
        }
        return;
    }
#endif
    if (warm == 1) {
        blocks_warm_portable(s, b0, b1);
    } else {
        blocks_pass_portable(s, b0, b1, inv_h, use_bias, push_max, warm == 2);
    }
}

int imp_e2_soft_threads_wanted(void)
{
#ifdef _OPENMP
    const char *env = getenv("IMPACT_E2_THREADS");
    int t = env != NULL ? atoi(env) : 1;
    return t < 1 ? 1 : t > 64 ? 64 : t;
#else
    return 1;
#endif
}

int imp_e2_soft_threads(const struct imp_e2_soft *s)
{
#ifdef _OPENMP
    if (s->threads > 1 && s->nblocks >= SOFT_PARALLEL_BLOCKS && !omp_in_parallel()) {
        return s->threads;
    }
#endif
    return 1;
}

void imp_e2_soft_colours_run(struct imp_e2_soft *s, const int *first, int n, imp_e2_soft_range_fn fn,
                             const void *ctx)
{
    int nt = imp_e2_soft_threads(s);
    if (nt <= 1) {
        fn(s, ctx, 0, n);
        return;
    }
#ifdef _OPENMP
#pragma omp parallel num_threads(nt)
    {
        int t = omp_get_thread_num(), nth = omp_get_num_threads();
        for (int c = 0; c < s->ncolours; c++) {
            int b0 = first[c], len = first[c + 1] - b0;
            if (len == 0) {  /* (the same for every thread: no barrier) */
                continue;
            }
            fn(s, ctx, b0 + (int)((long)len * t / nth), b0 + (int)((long)len * (t + 1) / nth));
#pragma omp barrier
        }
    }
#else
    (void)first;
#endif
}

void imp_e2_soft_blocks_pass(struct imp_e2_soft *s, double h, int use_bias, double push_max, int sum)
{
    double inv_h = 1.0 / h;
    const blocks_args a = {sum ? 2 : 0, use_bias, inv_h, push_max};
    imp_e2_soft_colours_run(s, s->colour_first, s->nblocks, run_range, &a);
    for (int i = 0; i < s->nover; i++) {
        int g = s->over[i];
        imp_e2_soft_group_pass(s, s->grp[g], s->grp[g + 1], inv_h, use_bias, push_max);
    }
}

void imp_e2_soft_blocks_warm(struct imp_e2_soft *s)
{
    const blocks_args a = {1, 0, 0.0, 0.0};
    imp_e2_soft_colours_run(s, s->colour_first, s->nblocks, run_range, &a);
}

void imp_e2_soft_blocks_sum(struct imp_e2_soft *s)
{
    for (int bi = 0; bi < s->nblocks; bi++) {
        soft_block *b = &s->blocks[bi];
        for (int k = 0; k < 2; k++) {
            for (int l = 0; l < SOFT_LANES; l++) {
                b->fn_sum[k][l] += b->fn[k][l];
                b->ft_sum[k][l] += b->ft[k][l];
            }
        }
    }
}

void imp_e2_soft_lanes_warm_check(struct imp_e2_soft *s)
{
    for (int bi = 0; bi < s->nblocks; bi++) {
        soft_block *b = &s->blocks[bi];
        /* (the 8 rows, 4 k + l, as one array, as imp_e2_soft_fill_lane gives them) */
        double *fn = &b->fn[0][0], *ft = &b->ft[0][0];
        for (int j = 0; j < 2 * SOFT_LANES; j++) {
            int ok = soft_block_warm_ok(b, j);
            fn[j] = ok ? fn[j] : 0.0;
            ft[j] = ok && !(b->fz >> j & 1) ? ft[j] : 0.0;
        }
    }
}

void imp_e2_soft_blocks_store(struct imp_e2_soft *s)
{
    for (int bi = 0; bi < s->nblocks; bi++) {
        const soft_block *b = &s->blocks[bi];
        for (int l = 0; l < SOFT_LANES; l++) {
            for (int k = 0; k < 2; k++) {
                int r = b->row[k][l];
                if (r >= 0) {
                    soft_row *o = &s->rows[r];
                    o->fn = b->fn[k][l];
                    o->ft = b->ft[k][l];
                    o->fn_max = b->fn_max[k][l];
                    o->fn_sum = b->fn_sum[k][l];
                    o->ft_sum = b->ft_sum[k][l];
                }
            }
        }
    }
}
