/* engine2d_soft_f8.c: the soft step's warm starts and solve and relax passes over the coloured
   blocks (engine2d_soft_internal.h) computed in float, eight lanes at once.

   Once a step (imp_e2_soft_f8_pack), two blocks of one colour (or one, the colour's last) are
   copied into an 8-lane float block (soft_f8: their rows' geometry, masses, softness bits and
   impulses rounded to float); the bodies' velocities and displacements are held in float during
   the passes (s->fvel, s->fdx: 4 floats a slot, rounded from s->vel and s->dpos by
   imp_e2_soft_f8_in, written back to the slots that move in a block by imp_e2_soft_f8_out), and
   after the sub-steps the impulses, their sums and largest values go back into the blocks as
   doubles (imp_e2_soft_f8_unpack). The blocks of one colour share no moving body, so the two
   blocks' lanes are as independent as each block's; the passes' order is the colours' order.
   The AVX2 path (one __m256 per quantity) and the portable one (lane by lane) make the same
   float operations in the same order (no fused multiply-add: -ffp-contract=off; IEEE float
   addition, multiplication, comparisons and conversions give the same bits packed or not), so
   both give the same results bit for bit, and so do any number of threads (each colour's
   float blocks split among them, the colours between barriers). Cost: O(blocks) to pack and
   unpack, O(slots) to convert the velocities, O(rows) a pass; no allocation once sized. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine2d_soft_internal.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define IMP_E2_HAVE_AVX2 1
#include "avx2.h"
#endif

/* ---- packing */

/* the blocks' fields a float block holds, four doubles each */
#define F8_FIELDS(X)                                                                                      \
    X(n0) X(n1) X(mu) X(rpn[0]) X(rpn[1]) X(rqn[0]) X(rqn[1]) X(rpt[0]) X(rpt[1]) X(rqt[0]) X(rqt[1])      \
    X(mass_n[0]) X(mass_n[1]) X(mass_t[0]) X(mass_t[1]) X(c0[0]) X(c0[1]) F8_SOLVED(X)
/* of them, those the passes change */
#define F8_SOLVED(X)                                                                                      \
    X(fn[0]) X(fn[1]) X(ft[0]) X(ft[1]) X(fn_max[0]) X(fn_max[1]) X(fn_sum[0]) X(fn_sum[1]) X(ft_sum[0]) X(ft_sum[1])

/* block b's four doubles of each field rounded to float into lanes o .. o + 3 */
static void pack_fields(soft_f8 *f, int o, const soft_block *b)
{
#define CVT(fl)                                                                                           \
    for (int l = 0; l < SOFT_LANES; l++) {                                                                \
        f->fl[o + l] = (float)b->fl[l];                                                                   \
    }
    F8_FIELDS(CVT)
#undef CVT
}
static void unpack_fields(const soft_f8 *f, int o, soft_block *b)
{
#define CVT(fl)                                                                                           \
    for (int l = 0; l < SOFT_LANES; l++) {                                                                \
        b->fl[l] = f->fl[o + l];                                                                          \
    }
    F8_SOLVED(CVT)
#undef CVT
}

#if defined(IMP_E2_HAVE_AVX2)
static AVX2 void pack_fields_avx2(soft_f8 *f, int o, const soft_block *b)
{
#define CVT(fl) _mm_storeu_ps(f->fl + o, _mm256_cvtpd_ps(_mm256_loadu_pd(b->fl)));
    F8_FIELDS(CVT)
#undef CVT
}
static AVX2 void unpack_fields_avx2(const soft_f8 *f, int o, soft_block *b)
{
#define CVT(fl) _mm256_storeu_pd(b->fl, _mm256_cvtps_pd(_mm_loadu_ps(f->fl + o)));
    F8_SOLVED(CVT)
#undef CVT
}
#endif

/* lanes 4 h .. 4 h + 3 of f from block b (NULL: lanes that do nothing); check: the warm
   starts checked as imp_e2_soft_lanes_warm_check does (a row of mass 0 or whose impulses are
   not finite starts from 0, a row without friction from no tangent impulse) */
static void pack_half(const struct imp_e2_soft *s, soft_f8 *f, int h, const soft_block *b, int check)
{
    int o = SOFT_LANES * h;
    if (b == NULL) {
        static const soft_block none;  /* (all 0: slot 0, no mass) */
        pack_fields(f, o, &none);
        for (int l = o; l < o + SOFT_LANES; l++) {
            f->mp[l] = f->ip[l] = f->mq[l] = f->iq[l] = 0.0f;
            f->p[l] = f->q[l] = 0;
        }
        return;
    }
#if defined(IMP_E2_HAVE_AVX2)
    if (s->simd) {
        pack_fields_avx2(f, o, b);
    } else
#endif
    {
        pack_fields(f, o, b);
    }
    if (check) {
        for (int j = 0; j < 2 * SOFT_LANES; j++) {
            int k = j / SOFT_LANES, l = j % SOFT_LANES;
            int ok = soft_block_warm_ok(b, j);
            f->fn[k][o + l] = ok ? f->fn[k][o + l] : 0.0f;
            f->ft[k][o + l] = ok && !(b->fz >> j & 1) ? f->ft[k][o + l] : 0.0f;
        }
    }
    const double *minv = s->minv;
    for (int l = 0; l < SOFT_LANES; l++) {
        const double *mp = minv + SOFT_SV * b->p[l], *mq = minv + SOFT_SV * b->q[l];
        f->mp[o + l] = (float)mp[0];
        f->ip[o + l] = (float)mp[1];
        f->mq[o + l] = (float)mq[0];
        f->iq[o + l] = (float)mq[1];
        f->p[o + l] = b->p[l];
        f->q[o + l] = b->q[l];
    }
    f->pm |= b->pm << o;
    f->qm |= b->qm << o;
    f->st |= b->st << o;
}

int imp_e2_soft_f8_pack(struct imp_e2_soft *s, int ns, int check)
{
    int need = s->nblocks / 2 + SOFT_COLOURS;
    if (need > s->f8_cap) {
        free(s->f8);
        s->f8 = aligned_alloc(64, (size_t)need * sizeof *s->f8);
        if (s->f8 == NULL) {
            s->f8_cap = 0;
            return -1;
        }
        s->f8_cap = need;
    }
    if (ns > s->fslot_cap) {
        float *a = realloc(s->fvel, SOFT_SV * (size_t)ns * sizeof *a);
        if (a == NULL) {
            return -1;
        }
        s->fvel = a;
        a = realloc(s->fdx, SOFT_SV * (size_t)ns * sizeof *a);
        if (a == NULL) {
            return -1;
        }
        s->fdx = a;
        int *m = realloc(s->fmove, (size_t)ns * sizeof *m);
        if (m == NULL) {
            return -1;
        }
        s->fmove = m;
        s->fslot_cap = ns;
    }
    int nf = 0;
    for (int c = 0; c < s->ncolours; c++) {
        s->f8_first[c] = nf;
        for (int bi = s->colour_first[c]; bi < s->colour_first[c + 1]; bi += 2, nf++) {
            soft_f8 *f = &s->f8[nf];
            f->pm = f->qm = f->st = 0;
            f->b = bi;
            f->nb = bi + 1 < s->colour_first[c + 1] ? 2 : 1;
            pack_half(s, f, 0, &s->blocks[bi], check);
            pack_half(s, f, 1, f->nb == 2 ? &s->blocks[bi + 1] : NULL, check);
        }
    }
    s->f8_first[s->ncolours] = nf;
    s->nf8 = nf;
    /* the slots that move in a block (s->minv: their mass or inertia not 0), whose velocities
       the passes write */
    int nm = 0;
    s->fns = ns;
    for (int i = 1; i < ns; i++) {
        if (s->minv[SOFT_SV * i] != 0.0 || s->minv[SOFT_SV * i + 1] != 0.0) {
            s->fmove[nm++] = i;
        }
    }
    s->nfmove = nm;
    return 0;
}

void imp_e2_soft_f8_unpack(struct imp_e2_soft *s)
{
    for (int i = 0; i < s->nf8; i++) {
        const soft_f8 *f = &s->f8[i];
        for (int h = 0; h < f->nb; h++) {
#if defined(IMP_E2_HAVE_AVX2)
            if (s->simd) {
                unpack_fields_avx2(f, SOFT_LANES * h, &s->blocks[f->b + h]);
                continue;
            }
#endif
            unpack_fields(f, SOFT_LANES * h, &s->blocks[f->b + h]);
        }
    }
}

#if defined(IMP_E2_HAVE_AVX2)
static AVX2 void add_round_avx2(double *y, const double *x, double a, float *o, size_t n)
{
    __m256d av = _mm256_set1_pd(a);
    for (size_t i = 0; i < n; i += SOFT_SV) {
        __m256d z = _mm256_add_pd(_mm256_loadu_pd(y + i), _mm256_mul_pd(av, _mm256_loadu_pd(x + i)));
        _mm256_storeu_pd(y + i, z);
        _mm_storeu_ps(o + i, _mm256_cvtpd_ps(z));
    }
}
static AVX2 void out_avx2(struct imp_e2_soft *s)
{
    for (int j = 0; j < s->nfmove; j++) {
        size_t i = SOFT_SV * (size_t)s->fmove[j];
        __m256d v = _mm256_loadu_pd(s->vel + i);
        __m256d d = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(s->fvel + i)), _mm256_cvtps_pd(_mm256_cvtpd_ps(v)));
        _mm256_storeu_pd(s->vel + i, _mm256_add_pd(v, d));
    }
}
#endif

/* y += a x over the slots' doubles (as add_scaled), rounded into o */
static void add_round(const struct imp_e2_soft *s, double *y, const double *x, double a, float *o)
{
    size_t n = SOFT_SV * (size_t)s->fns;
#if defined(IMP_E2_HAVE_AVX2)
    if (s->simd) {
        add_round_avx2(y, x, a, o, n);
        return;
    }
#endif
    for (size_t i = 0; i < n; i++) {
        y[i] += a * x[i];
        o[i] = (float)y[i];
    }
}

void imp_e2_soft_f8_kick(struct imp_e2_soft *s, const double *acc, double h) { add_round(s, s->vel, acc, h, s->fvel); }

void imp_e2_soft_f8_drift(struct imp_e2_soft *s, double h)
{
    imp_e2_soft_f8_out(s);
    add_round(s, s->dpos, s->vel, h, s->fdx);
}

void imp_e2_soft_f8_in(struct imp_e2_soft *s, int dx)
{
    const double *a = dx ? s->dpos : s->vel;
    float *o = dx ? s->fdx : s->fvel;
    size_t n = SOFT_SV * (size_t)s->fns;
    for (size_t i = 0; i < n; i++) {
        o[i] = (float)a[i];
    }
}

void imp_e2_soft_f8_out(struct imp_e2_soft *s)
{
#if defined(IMP_E2_HAVE_AVX2)
    if (s->simd) {
        out_avx2(s);
        return;
    }
#endif
    for (int j = 0; j < s->nfmove; j++) {
        size_t i = SOFT_SV * (size_t)s->fmove[j];
        for (int k = 0; k < 3; k++) {
            double v = s->vel[i + k];
            s->vel[i + k] = v + ((double)s->fvel[i + k] - (double)(float)v);
        }
    }
}

/* ---- the portable passes: lane by lane */

typedef struct fsoft {
    float br, ms, is;
} fsoft;

#define SL_T float
#define SL_B soft_f8
#define SL_NAME f
#if defined(IMP_E2_HAVE_AVX2)
#define SL_AVX2 1
#define SL_V __m256
#define SL_LD(p) _mm256_loadu_ps(p)
#define SL_ST(p, x) _mm256_storeu_ps(p, x)
#define SL_SPLAT(x) _mm256_set1_ps(x)
#define SL_ZERO() _mm256_setzero_ps()
#define SL_ADD(a, b) _mm256_add_ps(a, b)
#define SL_SUB(a, b) _mm256_sub_ps(a, b)
#define SL_MUL(a, b) _mm256_mul_ps(a, b)
#define SL_NEG(a) _mm256_xor_ps(a, _mm256_set1_ps(-0.0f))
#define SL_PICK(m, a, b) _mm256_blendv_ps(b, a, m)
#define SL_LT(a, b) _mm256_cmp_ps(a, b, _CMP_LT_OQ)
#define SL_GT(a, b) _mm256_cmp_ps(a, b, _CMP_GT_OQ)
#else
#define SL_AVX2 0
#endif
#include "engine2d_soft_lane.h"

/* lane l's masses: p's mass and inertia, q's */
static void lane_mass(const soft_f8 *f, int l, float *m)
{
    m[0] = f->mp[l], m[1] = f->ip[l], m[2] = f->mq[l], m[3] = f->iq[l];
}

static void warm_portable(struct imp_e2_soft *s, int f0, int f1)
{
    float *vel = s->fvel;
    for (int fi = f0; fi < f1; fi++) {
        const soft_f8 *f = &s->f8[fi];
        for (int l = 0; l < SOFT_F8; l++) {
            const float *vp = vel + SOFT_SV * f->p[l], *vq = vel + SOFT_SV * f->q[l];
            float v[6] = {vp[0], vp[1], vp[2], vq[0], vq[1], vq[2]}, m[4];
            lane_mass(f, l, m);
            lane_warm_f(f, l, v, m);
            lane_store_f(f, l, vel, v);
        }
    }
}

static void pass_portable(struct imp_e2_soft *s, int f0, int f1, float inv_h, int use_bias, float push_max,
                          int sum, const fsoft *sf)
{
    int track = s->elastic;
    float *vel = s->fvel;
    const float *dx = s->fdx;
    for (int fi = f0; fi < f1; fi++) {
        soft_f8 *f = &s->f8[fi];
        for (int l = 0; l < SOFT_F8; l++) {
            const float *vp = vel + SOFT_SV * f->p[l], *vq = vel + SOFT_SV * f->q[l];
            const float *xp = dx + SOFT_SV * f->p[l], *xq = dx + SOFT_SV * f->q[l];
            float v[6] = {vp[0], vp[1], vp[2], vq[0], vq[1], vq[2]};
            const float x[4] = {xp[0] - xq[0], xp[1] - xq[1], xp[2], xq[2]};
            const fsoft *so = &sf[f->st >> l & 1];
            float m[4];
            lane_mass(f, l, m);
            lane_row_f(f, l, 0, v, x, m, so->br, so->ms, so->is, inv_h, use_bias, push_max, sum, track);
            lane_row_f(f, l, 1, v, x, m, so->br, so->ms, so->is, inv_h, use_bias, push_max, sum, track);
            lane_store_f(f, l, vel, v);
        }
    }
}

/* ---- the AVX2 passes: eight lanes in one __m256 */

#if defined(IMP_E2_HAVE_AVX2)
typedef __m256 v8;
static inline AVX2 v8 ld8(const float *p) { return _mm256_loadu_ps(p); }
static inline AVX2 v8 set8(float x) { return _mm256_set1_ps(x); }
static inline AVX2 v8 sub8(v8 a, v8 b) { return _mm256_sub_ps(a, b); }
/* a where m is set, else b */
static inline AVX2 v8 pick8(v8 m, v8 a, v8 b) { return _mm256_blendv_ps(b, a, m); }

/* the 3 values of the eight slots' (base: SOFT_SV floats a slot) as out[0 .. 2]: a 4-float
   load a slot, slots l and l + 4 in one register's halves, transposed within the halves */
static inline __attribute__((always_inline)) AVX2 v8 slot2(const float *base, const int *slot, int i)
{
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(base + SOFT_SV * (size_t)slot[i])),
                                _mm_loadu_ps(base + SOFT_SV * (size_t)slot[i + 4]), 1);
}
static inline __attribute__((always_inline)) AVX2 void gather8(const float *base, const int *slot, v8 *out)
{
    v8 a0 = slot2(base, slot, 0), a1 = slot2(base, slot, 1), a2 = slot2(base, slot, 2), a3 = slot2(base, slot, 3);
    v8 t0 = _mm256_unpacklo_ps(a0, a1), t1 = _mm256_unpackhi_ps(a0, a1);
    v8 t2 = _mm256_unpacklo_ps(a2, a3), t3 = _mm256_unpackhi_ps(a2, a3);
    out[0] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    out[1] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    out[2] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
}

/* the lanes' velocities back, q's then p's, of the bodies that move: transposed, one 4-float
   store a slot (its pad 0) */
static inline __attribute__((always_inline)) AVX2 void store_lane(float *vel, const int *slot, int mask, int l, __m128 x)
{
    if (mask >> l & 1) {
        _mm_storeu_ps(vel + SOFT_SV * (size_t)slot[l], x);
    }
}
static inline __attribute__((always_inline)) AVX2 void scatter_side(const int *slot, int mask, float *vel, const v8 *u)
{
    const v8 zero = _mm256_setzero_ps();
    v8 t0 = _mm256_unpacklo_ps(u[0], u[1]), t1 = _mm256_unpackhi_ps(u[0], u[1]);
    v8 t2 = _mm256_unpacklo_ps(u[2], zero), t3 = _mm256_unpackhi_ps(u[2], zero);
    v8 r0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0)), r1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    v8 r2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0)), r3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    store_lane(vel, slot, mask, 0, _mm256_castps256_ps128(r0));
    store_lane(vel, slot, mask, 1, _mm256_castps256_ps128(r1));
    store_lane(vel, slot, mask, 2, _mm256_castps256_ps128(r2));
    store_lane(vel, slot, mask, 3, _mm256_castps256_ps128(r3));
    store_lane(vel, slot, mask, 4, _mm256_extractf128_ps(r0, 1));
    store_lane(vel, slot, mask, 5, _mm256_extractf128_ps(r1, 1));
    store_lane(vel, slot, mask, 6, _mm256_extractf128_ps(r2, 1));
    store_lane(vel, slot, mask, 7, _mm256_extractf128_ps(r3, 1));
}
static inline __attribute__((always_inline)) AVX2 void scatter8(const soft_f8 *f, float *vel, const v8 *v)
{
    scatter_side(f->q, f->qm, vel, v + 3);
    scatter_side(f->p, f->pm, vel, v);
}

/* the lanes whose bit is set in bits (0 .. 255) all ones, the others 0 */
static inline AVX2 v8 lanes8(int bits)
{
    __m256i one = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    __m256i b = _mm256_and_si256(_mm256_set1_epi32(bits), one);
    return _mm256_castsi256_ps(_mm256_cmpeq_epi32(b, one));
}

static inline __attribute__((always_inline)) AVX2 void pass8(struct imp_e2_soft *s, int f0, int f1, float inv_h_s,
                                                             int use_bias, float push_max_s, int sum, int track,
                                                             const fsoft *sf)
{
    float *vel = s->fvel;
    const float *dx = s->fdx;
    v8 inv_h = set8(inv_h_s), push_max = set8(push_max_s);
    const v8 sc[3] = {set8(sf[0].br), set8(sf[0].ms), set8(sf[0].is)};
    const v8 ss[3] = {set8(sf[1].br), set8(sf[1].ms), set8(sf[1].is)};
    for (int fi = f0; fi < f1; fi++) {
        soft_f8 *f = &s->f8[fi];
        v8 v[6], x[4], xp[3], xq[3];
        gather8(dx, f->p, xp);
        gather8(dx, f->q, xq);
        x[0] = sub8(xp[0], xq[0]);
        x[1] = sub8(xp[1], xq[1]);
        x[2] = xp[2];
        x[3] = xq[2];
        v8 c0 = block_gap_f(f, 0, x), c1 = block_gap_f(f, 1, x);
        gather8(vel, f->p, v);
        gather8(vel, f->q, v + 3);
        const v8 m[4] = {ld8(f->mp), ld8(f->ip), ld8(f->mq), ld8(f->iq)};
        v8 st = lanes8(f->st);
        const v8 so[3] = {pick8(st, ss[0], sc[0]), pick8(st, ss[1], sc[1]), pick8(st, ss[2], sc[2])};
        block_row_f(f, 0, v, c0, m, so, inv_h, use_bias, push_max, sum, track);
        block_row_f(f, 1, v, c1, m, so, inv_h, use_bias, push_max, sum, track);
        scatter8(f, vel, v);
    }
}

/* pass8 compiled for each pass the step makes (its flags constant) */
static AVX2 void pass_avx2(struct imp_e2_soft *s, int f0, int f1, float inv_h, int use_bias, float push_max, int sum,
                           const fsoft *sf)
{
    int track = s->elastic;
    if (use_bias) {
        if (track) {
            pass8(s, f0, f1, inv_h, 1, push_max, sum, 1, sf);
        } else {
            pass8(s, f0, f1, inv_h, 1, push_max, sum, 0, sf);
        }
    } else if (sum) {
        if (track) {
            pass8(s, f0, f1, inv_h, 0, push_max, 1, 1, sf);
        } else {
            pass8(s, f0, f1, inv_h, 0, push_max, 1, 0, sf);
        }
    } else if (track) {
        pass8(s, f0, f1, inv_h, 0, push_max, 0, 1, sf);
    } else {
        pass8(s, f0, f1, inv_h, 0, push_max, 0, 0, sf);
    }
}

static AVX2 void warm_avx2(struct imp_e2_soft *s, int f0, int f1)
{
    float *vel = s->fvel;
    for (int fi = f0; fi < f1; fi++) {
        const soft_f8 *f = &s->f8[fi];
        v8 v[6];
        gather8(vel, f->p, v);
        gather8(vel, f->q, v + 3);
        const v8 m[4] = {ld8(f->mp), ld8(f->ip), ld8(f->mq), ld8(f->iq)};
        block_warm_f(f, v, m);
        scatter8(f, vel, v);
    }
}
#endif

/* ---- running them */

typedef struct pass_args {
    int warm;  /* 1: the warm start; 0 a pass; 2 a pass adding the impulses to the step's sums */
    int use_bias;
    float inv_h, push_max;
    fsoft sf[2];  /* the contact softness, the static one */
} pass_args;

/* the float blocks f0 .. f1 - 1 (ctx: pass_args) */
static void run_range(struct imp_e2_soft *s, const void *ctx, int f0, int f1)
{
    const pass_args *a = ctx;
#if defined(IMP_E2_HAVE_AVX2)
    if (s->simd) {
        if (a->warm == 1) {
            warm_avx2(s, f0, f1);
        } else {
            pass_avx2(s, f0, f1, a->inv_h, a->use_bias, a->push_max, a->warm == 2, a->sf);
        }
        return;
    }
#endif
    if (a->warm == 1) {
        warm_portable(s, f0, f1);
    } else {
        pass_portable(s, f0, f1, a->inv_h, a->use_bias, a->push_max, a->warm == 2, a->sf);
    }
}

static fsoft fsoft_of(const softness *sf)
{
    fsoft o = {(float)sf->bias_rate, (float)sf->mass_scale, (float)sf->impulse_scale};
    return o;
}

/* the groups in s->over, in double on s->vel (the float velocities brought over and back) */
static void over_pass(struct imp_e2_soft *s, double inv_h, int use_bias, double push_max)
{
    if (s->nover == 0) {
        return;
    }
    imp_e2_soft_f8_out(s);
    for (int i = 0; i < s->nover; i++) {
        int g = s->over[i];
        imp_e2_soft_group_pass(s, s->grp[g], s->grp[g + 1], inv_h, use_bias, push_max);
    }
    imp_e2_soft_f8_in(s, 0);
}

void imp_e2_soft_f8_pass(struct imp_e2_soft *s, double h, int use_bias, double push_max, int sum)
{
    double inv_h = 1.0 / h;
    pass_args a = {sum ? 2 : 0, use_bias, (float)inv_h, (float)push_max,
                   {fsoft_of(&s->sf[SOFT_CONTACT]), fsoft_of(&s->sf[SOFT_STATIC])}};
    imp_e2_soft_colours_run(s, s->f8_first, s->nf8, run_range, &a);
    over_pass(s, inv_h, use_bias, push_max);
}

void imp_e2_soft_f8_warm(struct imp_e2_soft *s)
{
    pass_args a = {1, 0, 0.0f, 0.0f, {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}}};
    imp_e2_soft_colours_run(s, s->f8_first, s->nf8, run_range, &a);
}

void imp_e2_soft_f8_sum(struct imp_e2_soft *s)
{
    for (int i = 0; i < s->nf8; i++) {
        soft_f8 *f = &s->f8[i];
        for (int k = 0; k < 2; k++) {
            for (int l = 0; l < SOFT_F8; l++) {
                f->fn_sum[k][l] += f->fn[k][l];
                f->ft_sum[k][l] += f->ft[k][l];
            }
        }
    }
}
