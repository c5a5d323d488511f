/* engine3d_soft_blocks.c: the 3D soft step's rows in coloured blocks (engine3d_soft_internal.h).

   Graph colouring: the body pairs (each pair's points) are given colours so that no two pairs
   of one colour share a body that moves (a body that does not move is only read); each pair
   takes the lowest colour free at its moving bodies (a 64-bit mask per body), the pairs of two
   moving bodies among the first E3B_STATIC colours, the others among the rest, so that the
   constraints against still bodies come last in a pass (the step's order before the blocks).
   Within a colour the pairs are independent: four at a time, one a lane of an AVX2 register,
   each lane's points in turn, with the portable code's operations in the same order (the
   passes' fused multiply-adds are C's fma() there, the others plain products and sums; IEEE
   operations give the same bits packed or not): the AVX2 path and the portable one agree bit
   for bit. Where the processor has AVX-512F, two blocks of a colour go in one 512-bit register,
   eight lanes (the same operations lane by lane: the same bits; imp_e3_soft_blocks_wide;
   IMPACT_E3_SIMD=2 keeps the AVX2 path, 0 the portable one). The two widths' pass kernels
   are one text, engine3d_soft_lanes.h, included once a width. Pairs of more than E3B_POINTS
   points, and pairs left without a colour, are solved one by one after their colours' blocks
   (engine3d_soft.c's rows). The order follows the rows' order: deterministic. The blocks
   hold the step's fixed data but the gap (anchors, frame, friction, masses, the bodies'
   inverse inertias, once a lane rather than gathered a pass) in floats, rounded to nearest
   as they are made, the same on every path; the passes load them as doubles (exact) and
   compute in double. Cost: O(rows + slots) to colour and fill, a pass O(rows). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engine3d_soft_internal.h"
#include "engine3d_sweep.h"
#include "resize.h"

#if defined(IMP_E3_HAVE_AVX2)
#include "avx2.h"
/* this file's kernels also take fused multiply-adds (the passes' chains: one rounding and one
   instruction where a product and a sum were two); blocks_run takes them only where the
   processor has FMA as well as AVX2 */
#undef AVX2
#define AVX2 __attribute__((target("avx2,fma")))
#endif

void imp_e3_soft_blocks_free(struct imp_e3_soft *s)
{
    free(s->blocks);
    free(s->bsum);
    free(s->bhit);
    free(s->xframes);
    free(s->pair_first);
    free(s->pair_col);
    free(s->over);
    free(s->colour_mask);
    free(s->held);
    free(s->cand);
    free(s->cand_rest);
    free(s->cand_ready);
    free(s->kc);
}

int imp_e3_soft_pairs_reserve(struct imp_e3_soft *s, int n)
{
    if (n + 1 > s->pair_cap) {  /* three arrays of one capacity */
        int cap = n + 1 + (n + 1) / 2 + 16;
        if (imp_resize(&s->pair_first, (size_t)cap * sizeof *s->pair_first) != 0
            || imp_resize(&s->pair_col, (size_t)cap * sizeof *s->pair_col) != 0
            || imp_resize(&s->over, (size_t)cap * sizeof *s->over) != 0) {
            return -1;
        }
        s->pair_cap = cap;
    }
    return 0;
}

/* the colour of pair g (-1: none free, or too many points), its moving bodies' masks taken */
static int colour(struct imp_e3_soft *s, int g)
{
    int c0 = s->pair_first[g], c1 = s->pair_first[g + 1];
    const imp_e3_soft_pt *q = &s->pts[c0];
    int ma = s->mv[q->a], mb = s->mv[q->b];
    unsigned long long *mask = s->colour_mask;
    unsigned long long range = ma && mb ? (1ULL << E3B_STATIC) - 1 : ~((1ULL << E3B_STATIC) - 1);
    unsigned long long used = (ma ? mask[q->a] : 0) | (mb ? mask[q->b] : 0), free_ = ~used & range;
    if (c1 - c0 > E3B_POINTS || free_ == 0) {
        return -1;
    }
    int c = __builtin_ctzll(free_);
    if (ma) {
        mask[q->a] |= 1ULL << c;
    }
    if (mb) {
        mask[q->b] |= 1ULL << c;
    }
    return c;
}

/* the frame of point k of block b's lanes (xframes: the per-point frames, s->xframes) */
static inline const imp_e3_block_frame *frame_of(const imp_e3_block_frame *xframes, const imp_e3_block *b, int k)
{
    return imp_e3_block_frame_of(xframes, b, k);
}

static inline imp_e3_block_frame *frame_at(imp_e3_block_frame *xframes, imp_e3_block *b, int k)
{
    return b->xf < 0 || k == 0 ? &b->f : &xframes[b->xf + k - 1];
}

/* whether pair g's points share their frame and friction, bit for bit (prepare's test) */
static int pair_shares_frame(const struct imp_e3_soft *s, int g) { return !s->pts[s->pair_first[g]].mixed; }

/* One side's part of a point's mass matrix K (its inverse inertia I, row-major, its anchor r,
   the frame n, t, u): m[0..5] += (n, n), (t, t), (u, u), (t, u), (t, n), (u, n) of
   (r x .)^T I (r x .) (K is symmetric). A side that does not move adds nothing (its I is 0). */
static inline void side_mass(const double I[9], const double r[3], const double n[3], const double t[3],
                             const double u[3], double m[6])
{
    double j0x = r[1] * n[2] - r[2] * n[1], j0y = r[2] * n[0] - r[0] * n[2], j0z = r[0] * n[1] - r[1] * n[0];
    double j1x = r[1] * t[2] - r[2] * t[1], j1y = r[2] * t[0] - r[0] * t[2], j1z = r[0] * t[1] - r[1] * t[0];
    double j2x = r[1] * u[2] - r[2] * u[1], j2y = r[2] * u[0] - r[0] * u[2], j2z = r[0] * u[1] - r[1] * u[0];
    double i0x = I[0] * j0x + I[1] * j0y + I[2] * j0z, i0y = I[3] * j0x + I[4] * j0y + I[5] * j0z,
           i0z = I[6] * j0x + I[7] * j0y + I[8] * j0z;
    double i1x = I[0] * j1x + I[1] * j1y + I[2] * j1z, i1y = I[3] * j1x + I[4] * j1y + I[5] * j1z,
           i1z = I[6] * j1x + I[7] * j1y + I[8] * j1z;
    double i2x = I[0] * j2x + I[1] * j2y + I[2] * j2z, i2y = I[3] * j2x + I[4] * j2y + I[5] * j2z,
           i2z = I[6] * j2x + I[7] * j2y + I[8] * j2z;
    m[0] += j0x * i0x + j0y * i0y + j0z * i0z;
    m[1] += j1x * i1x + j1y * i1y + j1z * i1z;
    m[2] += j2x * i2x + j2y * i2y + j2z * i2z;
    m[3] += j1x * i2x + j1y * i2y + j1z * i2z;
    m[4] += j1x * i0x + j1y * i0y + j1z * i0z;
    m[5] += j2x * i0x + j2y * i0y + j2z * i0z;
}

/* the point's masses from m (kn, k11, k22, k12, w1n, w2n): the normal mass 1 / kn, the
   tangent rows' 1 / the tangent block's larger eigenvalue (0 when nothing moves) */
static inline void masses_from(const double m[6], double *mn, double *mt, double *w1n, double *w2n)
{
    double kn = m[0], k11 = m[1], k22 = m[2], k12 = m[3];
    *mn = kn > 0.0 ? 1.0 / kn : 0.0;
    *w1n = m[4];
    *w2n = m[5];
    double lmax = 0.5 * (k11 + k22) + sqrt(0.25 * (k11 - k22) * (k11 - k22) + k12 * k12);
    *mt = lmax > 0.0 && kn > 0.0 ? 1.0 / lmax : 0.0;
}

/* point q's masses (a pair solved one by one) */
static void row_masses(const struct imp_e3_soft *s, imp_e3_soft_pt *q)
{
    double lin = q->ima + q->imb, m[6] = {lin, lin, lin, 0.0, 0.0, 0.0}, I[9];
    const int side[2] = {q->a, q->b};
    const double *r[2] = {q->ra, q->rb};
    for (int k = 0; k < 2; k++) {
        if (s->mv[side[k]]) {
            const double *c = s->si + 12 * (size_t)side[k];
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    I[3 * i + j] = c[4 * j + i];
                }
            }
            side_mass(I, r[k], q->ec[0], q->ec[1], q->ec[2], m);
        }
    }
    masses_from(m, &q->mn, &q->mt, &q->w1n, &q->w2n);
}

/* the lanes' inverse inertias (s->si) rounded to float into block b, then the masses of its
   points from them, lane by lane (the AVX2 kernel's operations), rounded to float */
static void block_masses_portable(imp_e3_block *b, const imp_e3_block_frame *xframes, const double *si)
{
    for (int l = 0; l < E3B_LANES; l++) {
        for (int j = 0; j < 3; j++) {
            for (int i = 0; i < 3; i++) {
                b->ia[j][i][l] = (float)si[12 * (size_t)b->a[l] + 4 * j + i];
                b->ib[j][i][l] = (float)si[12 * (size_t)b->b[l] + 4 * j + i];
            }
        }
    }
    for (int k = 0; k < b->np; k++) {
        imp_e3_block_pt *p = &b->p[k];
        const imp_e3_block_frame *f = frame_of(xframes, b, k);
        for (int l = 0; l < E3B_LANES; l++) {
            double lin = b->ima[l] + b->imb[l], m[6] = {lin, lin, lin, 0.0, 0.0, 0.0};
            double Ia[9], Ib[9], ra[3], rb[3], n[3], t[3], u[3];
            for (int i = 0; i < 9; i++) {  /* row-major: Ia[3 r + c] = I_a[r][c] */
                Ia[i] = b->ia[i % 3][i / 3][l];
                Ib[i] = b->ib[i % 3][i / 3][l];
            }
            for (int i = 0; i < 3; i++) {
                ra[i] = p->ra[i][l], rb[i] = p->rb[i][l], n[i] = f->n[i][l], t[i] = f->t1[i][l], u[i] = f->t2[i][l];
            }
            side_mass(Ia, ra, n, t, u, m);
            side_mass(Ib, rb, n, t, u, m);
            double mn, mt, w1n, w2n;
            masses_from(m, &mn, &mt, &w1n, &w2n);
            p->mn[l] = (float)mn, p->mt[l] = (float)mt, p->w1n[l] = (float)w1n, p->w2n[l] = (float)w2n;
        }
    }
}

/* block b with its lanes empty (slot 0, no mass, no points) */
static void empty_block(imp_e3_block *b)
{
    memset(b->ima, 0, sizeof b->ima);
    memset(b->imb, 0, sizeof b->imb);
    memset(b->br, 0, sizeof b->br);
    memset(b->ms, 0, sizeof b->ms);
    memset(b->is, 0, sizeof b->is);
    memset(&b->f, 0, sizeof b->f);
    memset(b->cnt, 0, sizeof b->cnt);
    memset(b->a, 0, sizeof b->a);
    memset(b->b, 0, sizeof b->b);
    memset(b->row, -1, sizeof b->row);
    b->amove = b->bmove = 0;
    b->np = 0;
    memset(b->pushed, 0, sizeof b->pushed);
    b->xf = -1;
}

/* the points k < b->np of the lanes that have fewer: rows of zeros (they change nothing) */
static void pad_block(imp_e3_block *b, imp_e3_block_hit *h)
{
    for (int k = 0; k < b->np; k++) {
        imp_e3_block_pt *p = &b->p[k];
        for (int l = 0; l < E3B_LANES; l++) {
            if (b->row[k][l] >= 0) {
                continue;
            }
            for (int i = 0; i < 3; i++) {
                p->ra[i][l] = p->rb[i][l] = 0.0;
            }
            p->mn[l] = p->mt[l] = p->w1n[l] = p->w2n[l] = p->sep[l] = 0.0;
            p->s[l] = p->rn[l] = p->rt1[l] = p->rt2[l] = h->uhit[k][l] = h->pushed[k][l] = 0.0;
        }
    }
}

/* lane l of block b from pair g: its bodies, masses, softness and points' count (its first
   point's row in row[0][l]; the points are fill_points' or fill_points_avx2's) */
static void fill_lane(const struct imp_e3_soft *s, imp_e3_block *b, int l, int g, const imp_e3_softness *soft,
                      const imp_e3_softness *stiff)
{
    int c0 = s->pair_first[g], c1 = s->pair_first[g + 1];
    const imp_e3_soft_pt *q0 = &s->pts[c0];
    const imp_e3_softness *f = q0->soft_static ? stiff : soft;
    b->a[l] = q0->a;
    b->b[l] = q0->b;
    b->ima[l] = q0->ima;
    b->imb[l] = q0->imb;
    b->amove |= s->mv[q0->a] << l;
    b->bmove |= s->mv[q0->b] << l;
    b->br[l] = f->bias_rate, b->ms[l] = f->mass_scale, b->is[l] = f->impulse_scale;
    b->cnt[l] = c1 - c0;
    b->row[0][l] = c0;
}

/* block b's points from its lanes' rows (fill_lane), lane by lane; the step's sums 0, as
   prepare made the rows' (imp_e3_soft_blocks: not read from the rows, whose line of the sums
   the build then reads at a pair's first point only) */
static void fill_points(const struct imp_e3_soft *s, imp_e3_block *b, imp_e3_block_sum *bs, imp_e3_block_hit *h)
{
    memset(bs->sum, 0, (size_t)b->np * sizeof bs->sum[0]);
    for (int l = 0; l < E3B_LANES; l++) {
        int c0 = b->row[0][l];
        for (int k = 0; k < b->cnt[l]; k++) {
            const imp_e3_soft_pt *q = &s->pts[c0 + k];
            imp_e3_block_pt *p = &b->p[k];
            b->row[k][l] = c0 + k;
            if (k == 0 || b->xf >= 0) {
                imp_e3_block_frame *fr = frame_at(s->xframes, b, k);
                for (int i = 0; i < 3; i++) {
                    fr->n[i][l] = (float)q->ec[0][i];
                    fr->t1[i][l] = (float)q->ec[1][i];
                    fr->t2[i][l] = (float)q->ec[2][i];
                }
                fr->mu[l] = (float)q->mu;
            }
            for (int i = 0; i < 3; i++) {
                p->ra[i][l] = (float)q->ra[i];
                p->rb[i][l] = (float)q->rb[i];
            }
            p->sep[l] = q->sep, p->s[l] = q->s;
            p->rn[l] = q->rn, p->rt1[l] = q->rt1, p->rt2[l] = q->rt2;
            h->uhit[k][l] = q->uhit, h->pushed[k][l] = q->pushed;
            b->pushed[k] |= (unsigned char)((q->pushed != 0.0) << l);
        }
    }
}

static void block_build(struct imp_e3_soft *s, imp_e3_block *b, imp_e3_block_sum *bs, imp_e3_block_hit *h,
                        int simd);

int imp_e3_soft_blocks_reserve(struct imp_e3_soft *s, int nb)
{
    if (nb > s->block_cap) {  /* 64-aligned (imp_e3_block); every block made again by the build: not copied */
        int cap = s->block_cap < 4 ? 8 : 2 * s->block_cap;
        cap = cap < nb ? nb : cap;
        free(s->blocks);
        s->blocks = aligned_alloc(64, (size_t)cap * sizeof *s->blocks);
        s->block_cap = s->blocks != NULL ? cap : 0;
        if (s->blocks == NULL) {
            return -1;
        }
    }
    if (imp_grow(&s->bsum, &s->sum_cap, nb, sizeof *s->bsum) != 0
        || imp_grow(&s->bhit, &s->hit_cap, nb, sizeof *s->bhit) != 0) {
        return -1;
    }
    return 0;
}

int imp_e3_soft_blocks(struct imp_e3_soft *s, int n, int nslots, const imp_e3_softness *soft,
                       const imp_e3_softness *stiff, int simd)
{
    (void)n;  /* (the pairs' runs: prepare's s->pair_first) */
    if (imp_grow(&s->colour_mask, &s->mask_cap, nslots, sizeof *s->colour_mask) != 0) {
        return -1;
    }
    memset(s->colour_mask, 0, (size_t)nslots * sizeof *s->colour_mask);
    int count[E3B_COLOURS] = {0};
    s->nover = 0;
    for (int g = 0; g < s->npairs; g++) {  /* the moving pairs' overflow first */
        int c = s->pair_col[g] = colour(s, g);
        if (c >= 0) {
            count[c]++;
        } else if (s->mv[s->pts[s->pair_first[g]].a] && s->mv[s->pts[s->pair_first[g]].b]) {
            s->over[s->nover++] = g;
        }
    }
    s->nover_dyn = s->nover;
    for (int g = 0; g < s->npairs; g++) {
        const imp_e3_soft_pt *q = &s->pts[s->pair_first[g]];
        if (s->pair_col[g] < 0 && !(s->mv[q->a] && s->mv[q->b])) {
            s->over[s->nover++] = g;
        }
    }
    int fill[E3B_COLOURS], nb = 0;
    for (int c = 0; c < E3B_COLOURS; c++) {
        s->colour_first[c] = nb;
        fill[c] = 0;
        nb += (count[c] + E3B_LANES - 1) / E3B_LANES;
    }
    s->colour_first[E3B_COLOURS] = nb;
    /* the blocks as many as the colours need (at most the pairs): not npairs + E3B_COLOURS,
       whose 2288 bytes a block were 148 KB for one pair (a mapping of its own, h-box1) */
    if (imp_e3_soft_blocks_reserve(s, nb) != 0) {
        return -1;
    }
    for (int b = 0; b < nb; b++) {
        empty_block(&s->blocks[b]);
    }
    /* the blocks whose pairs' points do not all share a frame: one a point (s->xframes) */
    for (int g = 0; g < s->npairs; g++) {
        int c = s->pair_col[g];
        if (c >= 0) {
            imp_e3_block *b = &s->blocks[s->colour_first[c] + fill[c]++ / E3B_LANES];
            int np = s->pair_first[g + 1] - s->pair_first[g];
            b->np = np > b->np ? np : b->np;
            if (!pair_shares_frame(s, g)) {
                b->xf = 0;
            }
        }
    }
    int nx = 0;
    for (int bi = 0; bi < nb; bi++) {
        imp_e3_block *b = &s->blocks[bi];
        if (b->xf >= 0) {
            b->xf = nx;
            nx += b->np - 1;
        }
    }
    if (nx > 0) {
        if (imp_grow(&s->xframes, &s->xframe_cap, nx, sizeof *s->xframes) != 0) {
            return -1;
        }
        memset(s->xframes, 0, (size_t)nx * sizeof *s->xframes);
    }
    for (int c = 0; c < E3B_COLOURS; c++) {
        fill[c] = 0;
    }
    for (int g = 0; g < s->npairs; g++) {
        int c = s->pair_col[g];
        if (c >= 0) {
            int at = fill[c]++;
            fill_lane(s, &s->blocks[s->colour_first[c] + at / E3B_LANES], at % E3B_LANES, g, soft, stiff);
        }
    }
    for (int bi = 0; bi < nb; bi++) {
        block_build(s, &s->blocks[bi], &s->bsum[bi], &s->bhit[bi], simd);
    }
    for (int i = 0; i < s->nover; i++) {
        int g = s->over[i];
        for (int c = s->pair_first[g]; c < s->pair_first[g + 1]; c++) {
            row_masses(s, &s->pts[c]);
        }
    }
    s->nblocks = nb;
    return 0;
}

/* The passes' arithmetic, each rounded once as the AVX2 kernels' fused operations are
   (fmadd, fnmadd, fmsub): a b + c, c - a b, a b - c; then a dot product ((x0 y0) + x1 y1) +
   x2 y2 and a cross product a x b (a_1 b_2 - a_2 b_1, ...) made of them. */
static inline double fm(double a, double b, double c) { return fma(a, b, c); }
static inline double fnm(double a, double b, double c) { return fma(-a, b, c); }
static inline double fms(double a, double b, double c) { return fma(a, b, -c); }
static inline double dot3(const double x[3], const double y[3]) { return fm(x[2], y[2], fm(x[1], y[1], x[0] * y[0])); }
static inline void cross3(const double a[3], const double b[3], double c[3])
{
    c[0] = fms(a[1], b[2], a[2] * b[1]);
    c[1] = fms(a[2], b[0], a[0] * b[2]);
    c[2] = fms(a[0], b[1], a[1] * b[0]);
}

/* I^-1 x, I^-1 given by its padded columns (ia[4 j + i] = I[i][j]) */
static inline void turn3(const double *ia, const double x[3], double y[3])
{
#pragma GCC unroll 4
    for (int i = 0; i < 3; i++) {
        y[i] = fm(ia[8 + i], x[2], fm(ia[4 + i], x[1], ia[i] * x[0]));
    }
}

/* lane l's bodies kicked by the impulse P on b (-P on a) with moments xa = r_a x P, xb = r_b x P:
   v += m^-1 P, w += I^-1 x (engine3d_soft_lanes.h's kick) */
static void lane_kick(const imp_e3_block *b, int l, const double P[3], const double xa[3], const double xb[3],
                      const double *ia, const double *ib, double *va, double *vb)
{
    double A[3], B[3];
    turn3(ia, xa, A);
    turn3(ib, xb, B);
#pragma GCC unroll 4
    for (int i = 0; i < 3; i++) {
        va[i] = fnm(b->ima[l], P[i], va[i]);
        vb[i] = fm(b->imb[l], P[i], vb[i]);
        va[3 + i] = va[3 + i] - A[i];
        vb[3 + i] = vb[3 + i] + B[i];
    }
}

static void lane_apply_impulse(const imp_e3_block *b, const imp_e3_block_pt *p, int l, const double P[3],
                               const double *ia, const double *ib, double *va, double *vb)
{
    double xa[3], xb[3];
    const double ra[3] = {p->ra[0][l], p->ra[1][l], p->ra[2][l]}, rb[3] = {p->rb[0][l], p->rb[1][l], p->rb[2][l]};
    cross3(ra, P, xa);
    cross3(rb, P, xb);
    lane_kick(b, l, P, xa, xb, ia, ib, va, vb);
}

/* the impulse P = dn n + d1 t1 + d2 t2 of lane l's point p (frame f); a point the lane does
   not have (k >= cnt[l]: a row of zeros) applies P = +0 */
static void lane_apply(const imp_e3_block *b, const imp_e3_block_pt *p, const imp_e3_block_frame *f, int k, int l,
                       const double *ia, const double *ib, double dn, double d1, double d2, double *va, double *vb)
{
    double P[3];
#pragma GCC unroll 4
    for (int i = 0; i < 3; i++) {
        P[i] = k < b->cnt[l] ? fm(d2, f->t2[i][l], fm(d1, f->t1[i][l], dn * f->n[i][l])) : 0.0;
    }
    lane_apply_impulse(b, p, l, P, ia, ib, va, vb);
}

/* the velocity of b relative to a at the point (anchors ra, rb; v, w each side's velocities),
   d = ((v_b - v_a) + w_b x r_b) - w_a x r_a (the AVX2 kernels' relative4, lane by lane) */
static inline void lane_relative(const double *va, const double *wa, const double *vb, const double *wb,
                                 const double ra[3], const double rb[3], double d[3])
{
    const double cb[3] = {wb[1] * rb[2] - wb[2] * rb[1], wb[2] * rb[0] - wb[0] * rb[2], wb[0] * rb[1] - wb[1] * rb[0]};
    const double ca[3] = {wa[1] * ra[2] - wa[2] * ra[1], wa[2] * ra[0] - wa[0] * ra[2], wa[0] * ra[1] - wa[1] * ra[0]};
#pragma GCC unroll 4
    for (int i = 0; i < 3; i++) {
        d[i] = ((vb[i] - va[i]) + cb[i]) - ca[i];
    }
}

/* lane_relative with the passes' fused products (engine3d_soft_lanes.h's point, a relax pass) */
static inline void lane_relative_f(const double *va, const double *wa, const double *vb, const double *wb,
                                   const double ra[3], const double rb[3], double d[3])
{
    double ca[3], cb[3];
    cross3(wb, rb, cb);
    cross3(wa, ra, ca);
#pragma GCC unroll 4
    for (int i = 0; i < 3; i++) {
        d[i] = ((vb[i] - va[i]) + cb[i]) - ca[i];
    }
}

/* the normal row's angular directions of lane l's point: ja = r_a x n, jb = r_b x n,
   na = I_a^-1 ja, nb = I_b^-1 jb (ia, ib: the inverse inertias' columns; engine3d_soft_lanes.h's
   point, a solve pass) */
static void lane_normal_dirs(const double ra[3], const double rb[3], const double n[3], const double *ia,
                             const double *ib, double ja[3], double jb[3], double na[3], double nb[3])
{
    cross3(ra, n, ja);
    cross3(rb, n, jb);
    turn3(ia, ja, na);
    turn3(ib, jb, nb);
}

/* Point k of lane l of block b, the portable way: the operations of the AVX2 kernel below in
   the same order. */
static void lane_point(imp_e3_block *b, const imp_e3_block_frame *f, int k, int l, const double *ia, const double *ib,
                       double *va, double *vb, const double *da, const double *db, double hs, double inv_hs,
                       double push_max, int use_bias, imp_e3_block_sum *bs, imp_e3_block_hit *h)
{
    imp_e3_block_pt *p = &b->p[k];
    const double ra[3] = {p->ra[0][l], p->ra[1][l], p->ra[2][l]}, rb[3] = {p->rb[0][l], p->rb[1][l], p->rb[2][l]};
    const double n[3] = {f->n[0][l], f->n[1][l], f->n[2][l]}, t1[3] = {f->t1[0][l], f->t1[1][l], f->t1[2][l]};
    const double t2[3] = {f->t2[0][l], f->t2[1][l], f->t2[2][l]};
    double vn, u1, u2, na[3] = {0.0, 0.0, 0.0}, nb[3] = {0.0, 0.0, 0.0};
    if (use_bias) {  /* the normal row alone (engine3d_soft_lanes.h's point) */
        double ja[3], jb[3];
        lane_normal_dirs(ra, rb, n, ia, ib, ja, jb, na, nb);
        const double dv[3] = {vb[0] - va[0], vb[1] - va[1], vb[2] - va[2]};
        vn = (dot3(dv, n) + dot3(jb, vb + 3)) - dot3(ja, va + 3);
        u1 = u2 = 0.0;
    } else {
        double d[3];
        lane_relative_f(va, va + 3, vb, vb + 3, ra, rb, d);
        vn = dot3(d, n);
        u1 = dot3(d, t1);
        u2 = dot3(d, t2);
    }
    double s;
    if (use_bias) {  /* engine3d_soft_lanes.h's sep: the lane's normal turned back by each side's rotation */
        double ga[3], gb[3], x[3];
#pragma GCC unroll 4
        for (int j = 0; j < 3; j++) {
            ga[j] = dot3(da + 3 + 3 * j, n) - n[j];
            gb[j] = dot3(db + 3 + 3 * j, n) - n[j];
            x[j] = db[j] - da[j];
        }
        s = p->sep[l] + (dot3(x, n) + (dot3(gb, rb) - dot3(ga, ra)));
    } else {
        s = fm(hs, vn, p->s[l]);
    }
    p->s[l] = s;
    double bias = 0.0, ms = 1.0, is = 0.0;
    if (s > 0.0) {
        bias = s * inv_hs;
    } else if (use_bias) {
        bias = b->br[l] * s;
        bias = bias > -push_max ? bias : -push_max;
        ms = b->ms[l];
        is = b->is[l];
    }
    double r0 = p->rn[l];
    double rn = fnm(is, r0, fnm(p->mn[l] * ms, vn + bias, r0));
    rn = rn > 0.0 ? rn : 0.0;
    double dn = rn - r0;
    if (!(b->pushed[k] >> l & 1) && rn > 0.0) {  /* its first push of the step */
        h->uhit[k][l] = vn < h->uhit[k][l] ? vn : h->uhit[k][l];
        h->pushed[k][l] = rn;
        b->pushed[k] |= (unsigned char)(1u << l);
    }
    p->rn[l] = rn;
    if (use_bias) {  /* a solve pass: the normal row only (friction in the relax passes, as Box3D) */
        double dl = k < b->cnt[l] ? dn : 0.0;
#pragma GCC unroll 4
        for (int i = 0; i < 3; i++) {
            double P = dl * n[i];
            va[i] = fnm(b->ima[l], P, va[i]);
            vb[i] = fm(b->imb[l], P, vb[i]);
            va[3 + i] = fnm(dl, na[i], va[3 + i]);
            vb[3 + i] = fm(dl, nb[i], vb[3 + i]);
        }
        return;
    }
    u1 = fm(p->w1n[l], dn, u1);
    u2 = fm(p->w2n[l], dn, u2);
    double q1 = p->rt1[l], q2 = p->rt2[l];
    double r1 = fnm(p->mt[l], u1, q1), r2 = fnm(p->mt[l], u2, q2);
    double lim = f->mu[l] * rn, len2 = fm(r2, r2, r1 * r1);
    if (len2 > lim * lim) {
        double sc = lim / sqrt(len2);
        r1 = r1 * sc;
        r2 = r2 * sc;
    }
    p->rt1[l] = r1;
    p->rt2[l] = r2;
    if (bs != NULL) {  /* the last pass of the sub-step: its impulses added to the step's sums */
        bs->sum[k][0][l] += rn;
        bs->sum[k][1][l] += r1;
        bs->sum[k][2][l] += r2;
    }
    lane_apply(b, p, f, k, l, ia, ib, dn, r1 - q1, r2 - q2, va, vb);
}

/* a slot's (v, w) from the padded velocities and its motion since the step began (dx, then
   the rotation's columns) from delta */
static void gather(const struct imp_e3_soft *s, int slot, double v[6], double d[12])
{
    const double *p = s->sv + 8 * (size_t)slot;
    double m[16];
    imp_e3_delta_expand(s->delta + 8 * (size_t)slot, m);
#pragma GCC unroll 4
    for (int i = 0; i < 3; i++) {
        v[i] = p[i];
        v[3 + i] = p[4 + i];
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) {
            d[3 * j + i] = m[4 * j + i];
        }
    }
}

static void scatter(struct imp_e3_soft *s, int slot, const double v[6])
{
    double *p = s->sv + 8 * (size_t)slot;
#pragma GCC unroll 4
    for (int i = 0; i < 3; i++) {
        p[i] = v[i];
        p[4 + i] = v[3 + i];
    }
}

/* The warm start of lane l: its points' impulses P_k = (rn n + rt1 t1) + rt2 t2 summed, P and
   the moments r_a x P_k, r_b x P_k, then applied once (engine3d_soft_lanes.h's warm); a point the
   lane does not have adds +0. The sum is the points' impulses applied one by one, rounded once:
   the inverse inertia's product once a lane, and no chain from point to point. */
static void lane_warm(const struct imp_e3_soft *s, const imp_e3_block *b, int l, const double *ia, const double *ib,
                      double *va, double *vb)
{
    double P[3] = {0.0, 0.0, 0.0}, xa[3] = {0.0, 0.0, 0.0}, xb[3] = {0.0, 0.0, 0.0};
    for (int k = 0; k < b->np; k++) {
        const imp_e3_block_pt *p = &b->p[k];
        const imp_e3_block_frame *f = frame_of(s->xframes, b, k);
        double Q[3];
#pragma GCC unroll 4
        for (int i = 0; i < 3; i++) {
            Q[i] = k < b->cnt[l] ? fm(p->rt2[l], f->t2[i][l], fm(p->rt1[l], f->t1[i][l], p->rn[l] * f->n[i][l])) : 0.0;
        }
        const double ra[3] = {p->ra[0][l], p->ra[1][l], p->ra[2][l]}, rb[3] = {p->rb[0][l], p->rb[1][l], p->rb[2][l]};
        double ca[3], cb[3];
        cross3(ra, Q, ca);
        cross3(rb, Q, cb);
#pragma GCC unroll 4
        for (int i = 0; i < 3; i++) {
            xa[i] = xa[i] + ca[i];
            xb[i] = xb[i] + cb[i];
            P[i] = P[i] + Q[i];
        }
    }
    lane_kick(b, l, P, xa, xb, ia, ib, va, vb);
}

/* block b the portable way: each lane's points (warm: the warm start, else a pass) */
static void block_portable(struct imp_e3_soft *s, imp_e3_block *b, imp_e3_block_sum *bs, double hs, double inv_hs,
                           double push_max, int use_bias, int warm)
{
    imp_e3_block_hit *h = &s->bhit[b - s->blocks];
    for (int l = 0; l < E3B_LANES; l++) {
        double va[6], vb[6], da[12], db[12];
        gather(s, b->a[l], va, da);
        gather(s, b->b[l], vb, db);
        double ia[12], ib[12];  /* the block's inverse inertias, padded columns as s->si's */
        for (int j = 0; j < 3; j++) {
            for (int i = 0; i < 3; i++) {
                ia[4 * j + i] = b->ia[j][i][l], ib[4 * j + i] = b->ib[j][i][l];
            }
            ia[4 * j + 3] = ib[4 * j + 3] = 0.0;
        }
        if (warm) {
            lane_warm(s, b, l, ia, ib, va, vb);
        }
        for (int k = 0; k < b->np && !warm; k++) {
            lane_point(b, frame_of(s->xframes, b, k), k, l, ia, ib, va, vb, da, db, hs, inv_hs, push_max, use_bias,
                       bs, h);
        }
        if (b->amove >> l & 1) {
            scatter(s, b->a[l], va);
        }
        if (b->bmove >> l & 1) {
            scatter(s, b->b[l], vb);
        }
    }
}

/* imp_e3_block_impact_lanes's question for lane l, the portable way: u_N as lane_point's vn */
static int lane_impact(const struct imp_e3_soft *s, const imp_e3_block *b, int l, double threshold)
{
    int np = (int)b->cnt[l];
    const imp_e3_block_hit *h = &s->bhit[b - s->blocks];
    for (int k = 0; k < np; k++) {
        if (h->uhit[k][l] < -threshold) {
            return 1;
        }
    }
    const double *va = s->sv + 8 * (size_t)b->a[l], *vb = s->sv + 8 * (size_t)b->b[l];
    for (int k = 0; k < np; k++) {
        const imp_e3_block_pt *p = &b->p[k];
        if (!(p->rn[l] > threshold * p->mn[l])) {
            continue;
        }
        const imp_e3_block_frame *f = frame_of(s->xframes, b, k);
        const double ra[3] = {p->ra[0][l], p->ra[1][l], p->ra[2][l]};
        const double rb[3] = {p->rb[0][l], p->rb[1][l], p->rb[2][l]};
        double d[3];
        lane_relative(va, va + 4, vb, vb + 4, ra, rb, d);
        double un = (d[0] * f->n[0][l] + d[1] * f->n[1][l]) + d[2] * f->n[2][l];
        if (fabs(un) > threshold) {
            return 1;
        }
    }
    return 0;
}

void imp_e3_soft_residual_terms(double vn, double u1, double u2, double s, double rn, double rt1, double rt2,
                                double mu, double inv_hs, double acc[3])
{
    const double r[3] = {rn, rt1, rt2};
    const double u[3] = {vn + (s > 0.0 ? s : 0.0) * inv_hs, u1, u2};
    double x[3], pk[3];
    double ut = sqrt(u[1] * u[1] + u[2] * u[2]);
    x[0] = (r[0] - u[0]) - mu * ut;
    x[1] = r[1] - u[1];
    x[2] = r[2] - u[2];
    double t = sqrt(x[1] * x[1] + x[2] * x[2]);  /* the projection on the cone */
    if (t <= mu * x[0]) {
        pk[0] = x[0], pk[1] = x[1], pk[2] = x[2];
    } else if (mu * t <= -x[0]) {
        pk[0] = pk[1] = pk[2] = 0.0;
    } else {
        double nn = (x[0] + mu * t) / (1.0 + mu * mu);
        pk[0] = nn, pk[1] = ((mu * nn) * x[1]) / t, pk[2] = ((mu * nn) * x[2]) / t;
    }
    for (int k = 0; k < 3; k++) {
        acc[0] += (r[k] - pk[k]) * (r[k] - pk[k]);
        acc[1] += r[k] * r[k];
        acc[2] += u[k] * u[k];
    }
}

/* the residual's sums over block b, lane by lane into lane[3][4] */
static void block_residual_portable(const struct imp_e3_soft *s, const imp_e3_block *b, double inv_hs,
                                    double lane[3][4])
{
    for (int l = 0; l < E3B_LANES; l++) {
        double va[6], vb[6], da[12], db[12];
        gather(s, b->a[l], va, da);
        gather(s, b->b[l], vb, db);
        for (int k = 0; k < b->np; k++) {
            const imp_e3_block_pt *p = &b->p[k];
            const imp_e3_block_frame *f = frame_of(s->xframes, b, k);
            if (p->mn[l] == 0.0) {
                continue;
            }
            const double ra[3] = {p->ra[0][l], p->ra[1][l], p->ra[2][l]};
            const double rb[3] = {p->rb[0][l], p->rb[1][l], p->rb[2][l]};
            const double cb[3] = {vb[4] * rb[2] - vb[5] * rb[1], vb[5] * rb[0] - vb[3] * rb[2],
                                  vb[3] * rb[1] - vb[4] * rb[0]};
            const double ca[3] = {va[4] * ra[2] - va[5] * ra[1], va[5] * ra[0] - va[3] * ra[2],
                                  va[3] * ra[1] - va[4] * ra[0]};
            double d[3], acc[3] = {lane[0][l], lane[1][l], lane[2][l]};
            for (int i = 0; i < 3; i++) {
                d[i] = ((vb[i] - va[i]) + cb[i]) - ca[i];
            }
            double vn = (d[0] * f->n[0][l] + d[1] * f->n[1][l]) + d[2] * f->n[2][l];
            double u1 = (d[0] * f->t1[0][l] + d[1] * f->t1[1][l]) + d[2] * f->t1[2][l];
            double u2 = (d[0] * f->t2[0][l] + d[1] * f->t2[1][l]) + d[2] * f->t2[2][l];
            imp_e3_soft_residual_terms(vn, u1, u2, p->s[l], p->rn[l], p->rt1[l], p->rt2[l], f->mu[l], inv_hs, acc);
            lane[0][l] = acc[0], lane[1][l] = acc[1], lane[2][l] = acc[2];
        }
    }
}

#if defined(IMP_E3_HAVE_AVX2)
/* rows r0..r3 (one a lane) into columns x, y, z, w (each a component of the four lanes) */
static inline AVX2 void transpose(v4 r0, v4 r1, v4 r2, v4 r3, v4 *x, v4 *y, v4 *z, v4 *w)
{
    v4 t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
    v4 t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
    *x = _mm256_permute2f128_pd(t0, t2, 0x20);
    *y = _mm256_permute2f128_pd(t1, t3, 0x20);
    *z = _mm256_permute2f128_pd(t0, t2, 0x31);
    *w = _mm256_permute2f128_pd(t1, t3, 0x31);
}

/* the 4 doubles at offset off of each lane's slot (stride per slot) as components x, y, z, w */
static inline AVX2 void gather4(const double *base, const int *slot, size_t stride, int off, v4 c[4])
{
    transpose(_mm256_loadu_pd(base + stride * (size_t)slot[0] + off),
              _mm256_loadu_pd(base + stride * (size_t)slot[1] + off),
              _mm256_loadu_pd(base + stride * (size_t)slot[2] + off),
              _mm256_loadu_pd(base + stride * (size_t)slot[3] + off), &c[0], &c[1], &c[2], &c[3]);
}

/* components c back into the padded velocities at offset off of the lanes whose bit is set */
static inline AVX2 void scatter4(double *sv, const int *slot, int moving, int off, const v4 c[4])
{
    v4 r[4];
    transpose(c[0], c[1], c[2], c[3], &r[0], &r[1], &r[2], &r[3]);
#pragma GCC unroll 4
    for (int l = 0; l < E3B_LANES; l++) {
        if (moving >> l & 1) {
            _mm256_storeu_pd(sv + 8 * (size_t)slot[l] + off, r[l]);
        }
    }
}

static inline AVX2 v4 ld(const double *p) { return _mm256_loadu_pd(p); }
/* four floats as four doubles (exact), and four doubles stored rounded to floats */
static inline AVX2 v4 ldf(const float *p) { return _mm256_cvtps_pd(_mm_loadu_ps(p)); }
static inline AVX2 __m128 stf(float *p, v4 x)
{
    __m128 f = _mm256_cvtpd_ps(x);
    _mm_storeu_ps(p, f);
    return f;
}
static inline AVX2 v4 sel(v4 m, v4 yes, v4 no) { return _mm256_blendv_pd(no, yes, m); }
/* the passes' fused operations (fm, fnm, fms above, four lanes at once) */
static inline AVX2 v4 fm4(v4 a, v4 b, v4 c) { return _mm256_fmadd_pd(a, b, c); }
static inline AVX2 v4 fnm4(v4 a, v4 b, v4 c) { return _mm256_fnmadd_pd(a, b, c); }
static inline AVX2 v4 fms4(v4 a, v4 b, v4 c) { return _mm256_fmsub_pd(a, b, c); }

/* the velocity of b relative to a at the point (anchors ra, rb), d = ((v_b - v_a) + w_b x r_b)
   - w_a x r_a, the four lanes at once (lane_point's d) */
static inline AVX2 __attribute__((always_inline)) void relative4(const v4 va[3], const v4 wa[3], const v4 vb[3],
                                                                  const v4 wb[3], const v4 ra[3], const v4 rb[3],
                                                                  v4 d[3])
{
    v4 cb[3] = {sub(mul(wb[1], rb[2]), mul(wb[2], rb[1])), sub(mul(wb[2], rb[0]), mul(wb[0], rb[2])),
                sub(mul(wb[0], rb[1]), mul(wb[1], rb[0]))};
    v4 ca[3] = {sub(mul(wa[1], ra[2]), mul(wa[2], ra[1])), sub(mul(wa[2], ra[0]), mul(wa[0], ra[2])),
                sub(mul(wa[0], ra[1]), mul(wa[1], ra[0]))};
#pragma GCC unroll 4
    for (int i = 0; i < 3; i++) {
        d[i] = sub(add(sub(vb[i], va[i]), cb[i]), ca[i]);
    }
}

/* block_masses_portable with AVX2, the four lanes at once */
static inline AVX2 void side_mass4(double (*I)[4], float (*r)[4], const v4 n[3], const v4 t[3],
                                   const v4 u[3], v4 m[6])
{
    v4 rx = ldf(r[0]), ry = ldf(r[1]), rz = ldf(r[2]);
    v4 j0x = sub(mul(ry, n[2]), mul(rz, n[1])), j0y = sub(mul(rz, n[0]), mul(rx, n[2])),
       j0z = sub(mul(rx, n[1]), mul(ry, n[0]));
    v4 j1x = sub(mul(ry, t[2]), mul(rz, t[1])), j1y = sub(mul(rz, t[0]), mul(rx, t[2])),
       j1z = sub(mul(rx, t[1]), mul(ry, t[0]));
    v4 j2x = sub(mul(ry, u[2]), mul(rz, u[1])), j2y = sub(mul(rz, u[0]), mul(rx, u[2])),
       j2z = sub(mul(rx, u[1]), mul(ry, u[0]));
    v4 i0[3], i1[3], i2[3];
#pragma GCC unroll 4
    for (int i = 0; i < 3; i++) {
        v4 a = ld(I[3 * i]), b = ld(I[3 * i + 1]), c = ld(I[3 * i + 2]);
        i0[i] = add(add(mul(a, j0x), mul(b, j0y)), mul(c, j0z));
        i1[i] = add(add(mul(a, j1x), mul(b, j1y)), mul(c, j1z));
        i2[i] = add(add(mul(a, j2x), mul(b, j2y)), mul(c, j2z));
    }
    m[0] = add(m[0], add(add(mul(j0x, i0[0]), mul(j0y, i0[1])), mul(j0z, i0[2])));
    m[1] = add(m[1], add(add(mul(j1x, i1[0]), mul(j1y, i1[1])), mul(j1z, i1[2])));
    m[2] = add(m[2], add(add(mul(j2x, i2[0]), mul(j2y, i2[1])), mul(j2z, i2[2])));
    m[3] = add(m[3], add(add(mul(j1x, i2[0]), mul(j1y, i2[1])), mul(j1z, i2[2])));
    m[4] = add(m[4], add(add(mul(j1x, i0[0]), mul(j1y, i0[1])), mul(j1z, i0[2])));
    m[5] = add(m[5], add(add(mul(j2x, i0[0]), mul(j2y, i0[1])), mul(j2z, i0[2])));
}

/* the lanes whose point k exists (k < cnt), all bits set in each */
static inline AVX2 v4 lanes_with(const imp_e3_block *b, int k)
{
    __m256i cnt = _mm256_loadu_si256((const __m256i *)(const void *)b->cnt);
    return _mm256_castsi256_pd(_mm256_cmpgt_epi64(cnt, _mm256_set1_epi64x(k)));
}

/* (the rows' fields that rows4 and the stores below take four at a time, in this order) */
_Static_assert(offsetof(imp_e3_soft_pt, rt1) == offsetof(imp_e3_soft_pt, rn) + sizeof(double)
                   && offsetof(imp_e3_soft_pt, rt2) == offsetof(imp_e3_soft_pt, rn) + 2 * sizeof(double)
                   && offsetof(imp_e3_soft_pt, s) == offsetof(imp_e3_soft_pt, rn) + 3 * sizeof(double)
                   && offsetof(imp_e3_soft_pt, sep) == offsetof(imp_e3_soft_pt, mu) + sizeof(double)
                   && offsetof(imp_e3_soft_pt, uhit) == offsetof(imp_e3_soft_pt, mu) + 2 * sizeof(double)
                   && offsetof(imp_e3_soft_pt, pushed) == offsetof(imp_e3_soft_pt, mu) + 3 * sizeof(double)
                   && offsetof(imp_e3_soft_pt, mt) == offsetof(imp_e3_soft_pt, mn) + sizeof(double)
                   && offsetof(imp_e3_soft_pt, w1n) == offsetof(imp_e3_soft_pt, mn) + 2 * sizeof(double)
                   && offsetof(imp_e3_soft_pt, w2n) == offsetof(imp_e3_soft_pt, mn) + 3 * sizeof(double),
               "imp_e3_soft_pt's fields read and written four at a time");

/* the 4 doubles at offset off of each lane's row (the record none where the lane has no point k) as
   components x, y, z, w: the rows' fields in the blocks' order */
static inline AVX2 void rows4(const imp_e3_soft_pt *const q[4], size_t off, v4 c[4])
{
    transpose(ld((const double *)(const void *)((const char *)q[0] + off)),
              ld((const double *)(const void *)((const char *)q[1] + off)),
              ld((const double *)(const void *)((const char *)q[2] + off)),
              ld((const double *)(const void *)((const char *)q[3] + off)), &c[0], &c[1], &c[2], &c[3]);
}

/* fill_points and pad_block with AVX2: point k of the four lanes at once, a lane without one
   taking a row of zeros (the same values in the same places, the fixed data rounded to float
   as fill_points' casts round it; the empty rows' sums 0) */
static AVX2 void fill_points_avx2(const struct imp_e3_soft *s, imp_e3_block *b, imp_e3_block_sum *bs,
                                  imp_e3_block_hit *h)
{
    static const imp_e3_soft_pt none;
    int c0[4];
    for (int l = 0; l < E3B_LANES; l++) {
        c0[l] = b->row[0][l];
    }
    for (int k = 0; k < b->np; k++) {
        const imp_e3_soft_pt *q[4];
        for (int l = 0; l < E3B_LANES; l++) {
            int have = k < b->cnt[l];
            b->row[k][l] = have ? c0[l] + k : -1;
            q[l] = have ? &s->pts[c0[l] + k] : &none;
        }
        imp_e3_block_pt *p = &b->p[k];
        v4 c[4];
        rows4(q, offsetof(imp_e3_soft_pt, ra), c);
        stf(p->ra[0], c[0]), stf(p->ra[1], c[1]), stf(p->ra[2], c[2]);
        rows4(q, offsetof(imp_e3_soft_pt, rb), c);
        stf(p->rb[0], c[0]), stf(p->rb[1], c[1]), stf(p->rb[2], c[2]);
        const v4 zero = _mm256_setzero_pd();  /* the sums prepare's 0 (fill_points) */
        _mm256_storeu_pd(bs->sum[k][0], zero), _mm256_storeu_pd(bs->sum[k][1], zero);
        _mm256_storeu_pd(bs->sum[k][2], zero);
        rows4(q, offsetof(imp_e3_soft_pt, rn), c);  /* (rn, rt1, rt2, s) */
        _mm256_storeu_pd(p->rn, c[0]), _mm256_storeu_pd(p->rt1, c[1]), _mm256_storeu_pd(p->rt2, c[2]);
        _mm256_storeu_pd(p->s, c[3]);
        rows4(q, offsetof(imp_e3_soft_pt, mu), c);  /* (mu, sep, uhit, pushed) */
        _mm256_storeu_pd(p->sep, c[1]), _mm256_storeu_pd(h->uhit[k], c[2]), _mm256_storeu_pd(h->pushed[k], c[3]);
        b->pushed[k] = (unsigned char)_mm256_movemask_pd(_mm256_cmp_pd(c[3], _mm256_setzero_pd(), _CMP_NEQ_UQ));
        if (k == 0 || b->xf >= 0) {
            imp_e3_block_frame *fr = frame_at(s->xframes, b, k);
            stf(fr->mu, c[0]);
            rows4(q, offsetof(imp_e3_soft_pt, ec[0]), c);
            stf(fr->n[0], c[0]), stf(fr->n[1], c[1]), stf(fr->n[2], c[2]);
            rows4(q, offsetof(imp_e3_soft_pt, ec[1]), c);
            stf(fr->t1[0], c[0]), stf(fr->t1[1], c[1]), stf(fr->t1[2], c[2]);
            rows4(q, offsetof(imp_e3_soft_pt, ec[2]), c);
            stf(fr->t2[0], c[0]), stf(fr->t2[1], c[1]), stf(fr->t2[2], c[2]);
        }
    }
}

/* block_masses_portable with AVX2, the four lanes at once, the lanes' inverse inertias and
   the masses rounded to float (the empty rows' masses 0), and the masses back into the rows
   (masses_back) */
static AVX2 void block_masses_avx2(struct imp_e3_soft *s, imp_e3_block *b)
{
    const imp_e3_block_frame *xframes = s->xframes;
    double ia[9][4], ib[9][4];  /* the lanes' world inverse inertias, row-major */
#pragma GCC unroll 4
    for (int j = 0; j < 3; j++) {
        v4 ca[4], cb[4];
        gather4(s->si, b->a, 12, 4 * j, ca);
        gather4(s->si, b->b, 12, 4 * j, cb);
#pragma GCC unroll 4
        for (int i = 0; i < 3; i++) {  /* rounded to float: the block's, the masses' */
            _mm256_storeu_pd(ia[3 * i + j], _mm256_cvtps_pd(stf(b->ia[j][i], ca[i])));
            _mm256_storeu_pd(ib[3 * i + j], _mm256_cvtps_pd(stf(b->ib[j][i], cb[i])));
        }
    }
    const v4 zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
    v4 lin = add(ld(b->ima), ld(b->imb));
    for (int k = 0; k < b->np; k++) {
        imp_e3_block_pt *p = &b->p[k];
        const imp_e3_block_frame *f = frame_of(xframes, b, k);
        v4 n[3], t[3], u[3], m[6] = {lin, lin, lin, zero, zero, zero};
#pragma GCC unroll 4
        for (int i = 0; i < 3; i++) {
            n[i] = ldf(f->n[i]), t[i] = ldf(f->t1[i]), u[i] = ldf(f->t2[i]);
        }
        side_mass4(ia, p->ra, n, t, u, m);
        side_mass4(ib, p->rb, n, t, u, m);
        v4 kn = m[0], k11 = m[1], k22 = m[2], k12 = m[3], dk = sub(k11, k22);
        v4 kpos = _mm256_cmp_pd(kn, zero, _CMP_GT_OQ), have = lanes_with(b, k);
        v4 lmax = add(mul(_mm256_set1_pd(0.5), add(k11, k22)),
                      _mm256_sqrt_pd(add(mul(mul(_mm256_set1_pd(0.25), dk), dk), mul(k12, k12))));
        v4 ok = _mm256_and_pd(_mm256_cmp_pd(lmax, zero, _CMP_GT_OQ), kpos);
        v4 c[4] = {_mm256_and_pd(have, sel(kpos, _mm256_div_pd(one, kn), zero)),
                   _mm256_and_pd(have, sel(ok, _mm256_div_pd(one, lmax), zero)), _mm256_and_pd(have, m[4]),
                   _mm256_and_pd(have, m[5])};
        /* rounded to float, the rows' the same values */
        c[0] = _mm256_cvtps_pd(stf(p->mn, c[0])), c[1] = _mm256_cvtps_pd(stf(p->mt, c[1]));
        c[2] = _mm256_cvtps_pd(stf(p->w1n, c[2])), c[3] = _mm256_cvtps_pd(stf(p->w2n, c[3]));
        v4 r[4];  /* (mn, mt, w1n, w2n) of each lane: its row's, in that order */
        transpose(c[0], c[1], c[2], c[3], &r[0], &r[1], &r[2], &r[3]);
#pragma GCC unroll 4
        for (int l = 0; l < E3B_LANES; l++) {
            if (b->row[k][l] >= 0) {
                _mm256_storeu_pd(&s->pts[b->row[k][l]].mn, r[l]);
            }
        }
    }
}

/* imp_e3_soft_finish_row with AVX2 for one lane's point: r its (rn, rt1, rt2, s), m its
   (sum, 0), hm its (uhit, pushed), inv its 1 / hs broadcast (the same products, stored three
   doubles at a time: imp_e3_recycle_force's record and the point's r) */
static inline AVX2 void finish_lane(struct imp_e3_soft *s, int src, v4 r, v4 m, __m128d hm, v4 inv)
{
    v4 f = _mm256_mul_pd(r, inv);
    double *fc = s->rc.fcur + 3 * (size_t)src;
    _mm_storeu_pd(fc, _mm256_castpd256_pd128(f));
    _mm_store_sd(fc + 2, _mm256_extractf128_pd(f, 1));
    imp_e3_point *p = &s->fin_pts[src];
    _mm_storeu_pd(p->r, _mm256_castpd256_pd128(m));
    _mm_store_sd(&p->r[2], _mm256_extractf128_pd(m, 1));
    double uhit = _mm_cvtsd_f64(hm), pushed = _mm_cvtsd_f64(_mm_unpackhi_pd(hm, hm)), r0 = _mm256_cvtsd_f64(m);
    int impact = uhit < -s->fin_vtol && pushed > 0.0 && r0 > 0.0;
    s->fin_collisions += impact;
    imp_e3_gather_impact(p, s->fin_gather, impact, uhit, r0);
}

/* store_rows with AVX2: point k of the four lanes at once; whether one pushed fast */
static AVX2 int store_rows_avx2(struct imp_e3_soft *s, const imp_e3_block *b, const imp_e3_block_sum *bs,
                                const imp_e3_block_hit *h)
{
    const v4 zero = _mm256_setzero_pd(), thr = _mm256_set1_pd(-s->impact_threshold);
    v4 fast = zero;
    for (int k = 0; k < b->np; k++) {
        v4 uh = ld(h->uhit[k]), mx = ld(h->pushed[k]);
        fast = _mm256_or_pd(fast, _mm256_and_pd(lanes_with(b, k), _mm256_and_pd(_mm256_cmp_pd(uh, thr, _CMP_LT_OQ),
                                                                              _mm256_cmp_pd(mx, zero, _CMP_GT_OQ))));
    }
    unsigned lanes = (unsigned)_mm256_movemask_pd(fast), keep = s->fin_pts != NULL ? lanes : 0xfu;
    const v4 inv = _mm256_set1_pd(s->fin_inv_hs);
    for (int k = 0; k < b->np; k++) {
        const imp_e3_block_pt *p = &b->p[k];
        v4 uh = ld(h->uhit[k]), mx = ld(h->pushed[k]);
        v4 r[4], m[4], h0 = _mm256_unpacklo_pd(uh, mx), h1 = _mm256_unpackhi_pd(uh, mx);
        __m128d hm[4] = {_mm256_castpd256_pd128(h0), _mm256_castpd256_pd128(h1), _mm256_extractf128_pd(h0, 1),
                         _mm256_extractf128_pd(h1, 1)};  /* (uhit, pushed) of each lane */
        transpose(ld(p->rn), ld(p->rt1), ld(p->rt2), ld(p->s), &r[0], &r[1], &r[2], &r[3]);
        transpose(ld(bs->sum[k][0]), ld(bs->sum[k][1]), ld(bs->sum[k][2]), zero, &m[0], &m[1], &m[2], &m[3]);
#pragma GCC unroll 4
        for (int l = 0; l < E3B_LANES; l++) {
            int row = b->row[k][l];
            if (row < 0) {
                continue;
            }
            if (!(keep >> l & 1)) {  /* the step's end: the point finished, the row not written */
                finish_lane(s, s->srcs[row], r[l], m[l], hm[l], inv);
                continue;
            }
            imp_e3_soft_pt *q = &s->pts[row];
            _mm256_storeu_pd(&q->rn, r[l]);  /* rn, rt1, rt2, s */
            _mm_storeu_pd(&q->uhit, hm[l]);
            _mm_storeu_pd(q->sum, _mm256_castpd256_pd128(m[l]));
            _mm_store_sd(&q->sum[2], _mm256_extractf128_pd(m[l], 1));
            if (s->fin_pts != NULL) {
                s->late[s->nlate++] = row;
            }
        }
    }
    return lanes != 0;
}

/* block_residual_portable with AVX2 (the lanes whose mn is 0 add 0) */
static AVX2 void block_residual_avx2(const struct imp_e3_soft *s, const imp_e3_block *b, double inv_hs,
                                     double lane[3][4])
{
    v4 va[4], wa[4], vb[4], wb[4];
    gather4(s->sv, b->a, 8, 0, va);
    gather4(s->sv, b->a, 8, 4, wa);
    gather4(s->sv, b->b, 8, 0, vb);
    gather4(s->sv, b->b, 8, 4, wb);
    const v4 zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
    v4 num = ld(lane[0]), r2 = ld(lane[1]), u2s = ld(lane[2]);
    for (int k = 0; k < b->np; k++) {
        const imp_e3_block_pt *p = &b->p[k];
        const imp_e3_block_frame *f = frame_of(s->xframes, b, k);
        v4 ra[3], rb[3], d[3];
#pragma GCC unroll 4
        for (int i = 0; i < 3; i++) {
            ra[i] = ldf(p->ra[i]), rb[i] = ldf(p->rb[i]);
        }
        v4 cb[3] = {sub(mul(wb[1], rb[2]), mul(wb[2], rb[1])), sub(mul(wb[2], rb[0]), mul(wb[0], rb[2])),
                    sub(mul(wb[0], rb[1]), mul(wb[1], rb[0]))};
        v4 ca[3] = {sub(mul(wa[1], ra[2]), mul(wa[2], ra[1])), sub(mul(wa[2], ra[0]), mul(wa[0], ra[2])),
                    sub(mul(wa[0], ra[1]), mul(wa[1], ra[0]))};
#pragma GCC unroll 4
        for (int i = 0; i < 3; i++) {
            d[i] = sub(add(sub(vb[i], va[i]), cb[i]), ca[i]);
        }
        v4 vn = add(add(mul(d[0], ldf(f->n[0])), mul(d[1], ldf(f->n[1]))), mul(d[2], ldf(f->n[2])));
        v4 u1 = add(add(mul(d[0], ldf(f->t1[0])), mul(d[1], ldf(f->t1[1]))), mul(d[2], ldf(f->t1[2])));
        v4 u2 = add(add(mul(d[0], ldf(f->t2[0])), mul(d[1], ldf(f->t2[1]))), mul(d[2], ldf(f->t2[2])));
        v4 sv = ld(p->s), mu = ldf(f->mu), rn = ld(p->rn), rt1 = ld(p->rt1), rt2 = ld(p->rt2);
        v4 u0 = add(vn, mul(sel(_mm256_cmp_pd(sv, zero, _CMP_GT_OQ), sv, zero), _mm256_set1_pd(inv_hs)));
        v4 ut = _mm256_sqrt_pd(add(mul(u1, u1), mul(u2, u2)));
        v4 x0 = sub(sub(rn, u0), mul(mu, ut)), x1 = sub(rt1, u1), x2 = sub(rt2, u2);
        v4 t = _mm256_sqrt_pd(add(mul(x1, x1), mul(x2, x2)));
        v4 inside = _mm256_cmp_pd(t, mul(mu, x0), _CMP_LE_OQ);
        v4 apex = _mm256_cmp_pd(mul(mu, t), sub(zero, x0), _CMP_LE_OQ);
        v4 nn = _mm256_div_pd(add(x0, mul(mu, t)), add(one, mul(mu, mu)));
        v4 p0 = sel(inside, x0, sel(apex, zero, nn));
        v4 p1 = sel(inside, x1, sel(apex, zero, _mm256_div_pd(mul(mul(mu, nn), x1), t)));
        v4 p2 = sel(inside, x2, sel(apex, zero, _mm256_div_pd(mul(mul(mu, nn), x2), t)));
        v4 live = _mm256_cmp_pd(ldf(p->mn), zero, _CMP_NEQ_UQ);
        v4 e0 = sub(rn, p0), e1 = sub(rt1, p1), e2 = sub(rt2, p2);
        num = sel(live, add(add(add(num, mul(e0, e0)), mul(e1, e1)), mul(e2, e2)), num);
        r2 = sel(live, add(add(add(r2, mul(rn, rn)), mul(rt1, rt1)), mul(rt2, rt2)), r2);
        u2s = sel(live, add(add(add(u2s, mul(u0, u0)), mul(u1, u1)), mul(u2, u2)), u2s);
    }
    _mm256_storeu_pd(lane[0], num);
    _mm256_storeu_pd(lane[1], r2);
    _mm256_storeu_pd(lane[2], u2s);
}

/* the 4-lane operations engine3d_soft_lanes.h takes (one block a register; the second block's
   arguments unread: its kernels are called with the block twice) */
#define KERN4 static inline AVX2 __attribute__((always_inline))
typedef v4 m4;  /* a lane mask: all ones or all zeros a lane */
KERN4 v4 add4(v4 a, v4 b) { return _mm256_add_pd(a, b); }
KERN4 v4 sub4(v4 a, v4 b) { return _mm256_sub_pd(a, b); }
KERN4 v4 mul4(v4 a, v4 b) { return _mm256_mul_pd(a, b); }
KERN4 v4 div4(v4 a, v4 b) { return _mm256_div_pd(a, b); }
KERN4 v4 max4(v4 a, v4 b) { return _mm256_max_pd(a, b); }
KERN4 v4 min4(v4 a, v4 b) { return _mm256_min_pd(a, b); }
KERN4 v4 sqrt4(v4 a) { return _mm256_sqrt_pd(a); }
KERN4 v4 zero4(void) { return _mm256_setzero_pd(); }
KERN4 v4 set4(double x) { return _mm256_set1_pd(x); }
KERN4 v4 ld4(const double *lo, const double *hi) { (void)hi; return _mm256_loadu_pd(lo); }
KERN4 void st4(double *lo, double *hi, v4 x) { (void)hi; _mm256_storeu_pd(lo, x); }
KERN4 v4 ldf4(const float *lo, const float *hi) { (void)hi; return ldf(lo); }
KERN4 m4 gt4(v4 a, v4 b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
KERN4 m4 eq4(v4 a, v4 b) { return _mm256_cmp_pd(a, b, _CMP_EQ_OQ); }
KERN4 m4 both4(m4 a, m4 b) { return _mm256_and_pd(a, b); }
KERN4 v4 sel4(m4 m, v4 yes, v4 no) { return _mm256_blendv_pd(no, yes, m); }
KERN4 v4 keep4(m4 m, v4 x) { return _mm256_and_pd(x, m); }
KERN4 int any4(m4 m) { return _mm256_movemask_pd(m) != 0; }
KERN4 int bits4(m4 m) { return _mm256_movemask_pd(m); }
KERN4 m4 lanes4(int m0, int m1)
{
    (void)m1;
    const __m256i bit = _mm256_set_epi64x(8, 4, 2, 1);
    return _mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x(m0), bit), bit));
}
/* the lanes with point k (k < cnt) */
KERN4 m4 live4(const long long *c0, const long long *c1, int k)
{
    (void)c1;
    return _mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_loadu_si256((const __m256i *)(const void *)c0),
                                                  _mm256_set1_epi64x(k)));
}
/* one block: its warm start's loop runs to its points, every lane has point k */
KERN4 v4 add_has4(v4 x, v4 y, int h0, int h1) { (void)h0, (void)h1; return _mm256_add_pd(x, y); }
KERN4 int moving4(int m0, int m1) { (void)m1; return m0; }
KERN4 void gather_lanes4(const double *base, const int *s0, const int *s1, size_t stride, int off, v4 c[4])
{
    (void)s1;
    gather4(base, s0, stride, off, c);
}
KERN4 void scatter_lanes4(double *sv, const int *s0, const int *s1, int moving, int off, const v4 c[4])
{
    (void)s1;
    scatter4(sv, s0, moving, off, c);
}

#define LW 4
#include "engine3d_soft_lanes.h"  /* point4, warm4, begin4, end4, block4 ... */
#undef LW

/* block b with AVX2, the four lanes at once (block_portable's operations) */
static inline AVX2 __attribute__((always_inline)) void block_avx2_body(struct imp_e3_soft *s, imp_e3_block *b,
                                                                        imp_e3_block_sum *bs, double hs,
                                                                        double inv_hs, double push_max,
                                                                        int use_bias)
{
    block4 g;
    begin4(s, b, b, &g, use_bias);
    for (int k = 0; k < b->np; k++) {
        point4(s, b, b, bs, bs, k, &g, hs, inv_hs, push_max, use_bias);
    }
    end4(s, b, b, &g);
}

/* two blocks of one colour (no moving body in both) taken together, point k of one then point
   k of the other: each block's operations are block_avx2_body's in its order, so the results
   are the same bit for bit, while the processor overlaps the two blocks' chains of dependent
   operations (a point's velocities wait on the point before it in its block) */
static inline AVX2 __attribute__((always_inline)) void block_avx2_body2(struct imp_e3_soft *s, imp_e3_block *b0,
                                                                         imp_e3_block *b1, imp_e3_block_sum *bs0,
                                                                         imp_e3_block_sum *bs1, double hs,
                                                                         double inv_hs, double push_max, int use_bias)
{
    block4 g0, g1;
    begin4(s, b0, b0, &g0, use_bias);
    begin4(s, b1, b1, &g1, use_bias);
    int np = b0->np > b1->np ? b0->np : b1->np;
    for (int k = 0; k < np; k++) {
        if (k < b0->np) {
            point4(s, b0, b0, bs0, bs0, k, &g0, hs, inv_hs, push_max, use_bias);
        }
        if (k < b1->np) {
            point4(s, b1, b1, bs1, bs1, k, &g1, hs, inv_hs, push_max, use_bias);
        }
    }
    end4(s, b0, b0, &g0);
    end4(s, b1, b1, &g1);
}

/* block b0, or b0 and b1 together (b1 not NULL); bs0, bs1: their sums when the pass adds its
   impulses to them (NULL: it does not) */
static inline AVX2 __attribute__((always_inline)) void block_avx2_one_or_two(struct imp_e3_soft *s,
                                                                              imp_e3_block *b0, imp_e3_block *b1,
                                                                              imp_e3_block_sum *bs0,
                                                                              imp_e3_block_sum *bs1, double hs,
                                                                              double inv_hs, double push_max,
                                                                              int use_bias)
{
    if (b1 == NULL) {
        block_avx2_body(s, b0, bs0, hs, inv_hs, push_max, use_bias);
    } else {
        block_avx2_body2(s, b0, b1, bs0, bs1, hs, inv_hs, push_max, use_bias);
    }
}

/* lane_impact's question for the four lanes at once (point4's u_N, the same operations) */
static AVX2 unsigned block_impact_lanes_avx2(const struct imp_e3_soft *s, const imp_e3_block *b, double threshold)
{
    v4 va[4], wa[4], vb[4], wb[4];
    gather4(s->sv, b->a, 8, 0, va);
    gather4(s->sv, b->a, 8, 4, wa);
    gather4(s->sv, b->b, 8, 0, vb);
    gather4(s->sv, b->b, 8, 4, wb);
    const v4 thr = _mm256_set1_pd(threshold), nthr = _mm256_set1_pd(-threshold);
    const v4 magnitude = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
    const __m256i cnt = _mm256_loadu_si256((const __m256i *)(const void *)b->cnt);
    v4 yes = _mm256_setzero_pd();
    for (int k = 0; k < b->np; k++) {
        const imp_e3_block_pt *p = &b->p[k];
        const imp_e3_block_frame *f = frame_of(s->xframes, b, k);
        v4 live = _mm256_castsi256_pd(_mm256_cmpgt_epi64(cnt, _mm256_set1_epi64x(k)));
        v4 ra[3], rb[3];
#pragma GCC unroll 4
        for (int i = 0; i < 3; i++) {
            ra[i] = ldf(p->ra[i]), rb[i] = ldf(p->rb[i]);
        }
        v4 d[3];
        relative4(va, wa, vb, wb, ra, rb, d);
        v4 vn = add(add(mul(d[0], ldf(f->n[0])), mul(d[1], ldf(f->n[1]))), mul(d[2], ldf(f->n[2])));
        v4 hit = _mm256_cmp_pd(ld(s->bhit[b - s->blocks].uhit[k]), nthr, _CMP_LT_OQ);
        v4 held = _mm256_cmp_pd(ld(p->rn), mul(thr, ldf(p->mn)), _CMP_GT_OQ);
        v4 fast = _mm256_cmp_pd(_mm256_and_pd(vn, magnitude), thr, _CMP_GT_OQ);
        yes = _mm256_or_pd(yes, _mm256_and_pd(live, _mm256_or_pd(hit, _mm256_and_pd(held, fast))));
    }
    return (unsigned)_mm256_movemask_pd(yes);
}

/* the four kinds of pass, each compiled for its own (use_bias, warm, sums) */
static AVX2 void block_avx2_warm(struct imp_e3_soft *s, imp_e3_block *b0, imp_e3_block *b1)
{
    warm4(s, b0, b0);
    if (b1 != NULL) {
        warm4(s, b1, b1);
    }
}

static AVX2 void block_avx2_solve(struct imp_e3_soft *s, imp_e3_block *b0, imp_e3_block *b1, double hs,
                                  double inv_hs, double push_max)
{
    block_avx2_one_or_two(s, b0, b1, NULL, NULL, hs, inv_hs, push_max, 1);
}

static AVX2 void block_avx2_relax(struct imp_e3_soft *s, imp_e3_block *b0, imp_e3_block *b1, double hs,
                                  double inv_hs, double push_max)
{
    block_avx2_one_or_two(s, b0, b1, NULL, NULL, hs, inv_hs, push_max, 0);
}

static AVX2 void block_avx2_relax_sum(struct imp_e3_soft *s, imp_e3_block *b0, imp_e3_block *b1,
                                      imp_e3_block_sum *bs0, imp_e3_block_sum *bs1, double hs, double inv_hs,
                                      double push_max)
{
    block_avx2_one_or_two(s, b0, b1, bs0, bs1, hs, inv_hs, push_max, 0);
}

/* The AVX-512 passes (blocks_run, when the processor has AVX-512F and the wide path is on,
   imp_e3_soft_blocks_wide): two blocks of one colour in one 512-bit register, the first's
   four lanes low and the second's high, eight pairs at once. The kernels are the AVX2 ones
   (engine3d_soft_lanes.h) eight lanes wide: the same operations in every lane (the compare
   masks and masked moves select the same values as the AVX2 blends and ands), the AVX2 and
   portable paths' results bit for bit. The velocities are gathered and scattered two blocks
   at once (gather_lanes8, scatter_lanes8: gather4's and scatter4's rows, two to a register);
   where one block has more points than the other, the longer one's last points are point4's. */
#define AVX512 __attribute__((target("avx2,fma,avx512f")))
#define INL __attribute__((always_inline))
#define KERN8 static inline AVX512 INL

typedef __m512d v8;
typedef __mmask8 m8;  /* bits 0-3: the first block's lanes, 4-7: the second's */

KERN8 v8 join(v4 lo, v4 hi) { return _mm512_insertf64x4(_mm512_castpd256_pd512(lo), hi, 1); }
/* lanes 0-3 from lo, 4-7 from hi (each four doubles) */
KERN8 v8 ld8(const double *lo, const double *hi) { return join(ld(lo), ld(hi)); }
KERN8 v8 ldf8(const float *lo, const float *hi)
{
    return _mm512_cvtps_pd(_mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(lo)), _mm_loadu_ps(hi), 1));
}
KERN8 void st8(double *lo, double *hi, v8 x)
{
    _mm256_storeu_pd(lo, _mm512_castpd512_pd256(x));
    _mm256_storeu_pd(hi, _mm512_extractf64x4_pd(x, 1));
}
KERN8 v8 add8(v8 a, v8 b) { return _mm512_add_pd(a, b); }
KERN8 v8 sub8(v8 a, v8 b) { return _mm512_sub_pd(a, b); }
KERN8 v8 mul8(v8 a, v8 b) { return _mm512_mul_pd(a, b); }
KERN8 v8 div8(v8 a, v8 b) { return _mm512_div_pd(a, b); }
KERN8 v8 max8(v8 a, v8 b) { return _mm512_max_pd(a, b); }
KERN8 v8 min8(v8 a, v8 b) { return _mm512_min_pd(a, b); }
KERN8 v8 sqrt8(v8 a) { return _mm512_sqrt_pd(a); }
KERN8 v8 zero8(void) { return _mm512_setzero_pd(); }
KERN8 v8 set8(double x) { return _mm512_set1_pd(x); }
KERN8 v8 fm8(v8 a, v8 b, v8 c) { return _mm512_fmadd_pd(a, b, c); }
KERN8 v8 fnm8(v8 a, v8 b, v8 c) { return _mm512_fnmadd_pd(a, b, c); }
KERN8 v8 fms8(v8 a, v8 b, v8 c) { return _mm512_fmsub_pd(a, b, c); }
KERN8 m8 gt8(v8 a, v8 b) { return _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ); }
KERN8 m8 eq8(v8 a, v8 b) { return _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ); }
KERN8 m8 both8(m8 a, m8 b) { return a & b; }
KERN8 v8 sel8(m8 m, v8 yes, v8 no) { return _mm512_mask_blend_pd(m, no, yes); }
KERN8 v8 keep8(m8 m, v8 x) { return _mm512_maskz_mov_pd(m, x); }
KERN8 int any8(m8 m) { return m != 0; }
KERN8 int bits8(m8 m) { return m; }
KERN8 m8 lanes8(int m0, int m1) { return (m8)(m0 | m1 << 4); }
KERN8 m8 live8(const long long *c0, const long long *c1, int k)
{
    __m512i cnt = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(const void *)c0)),
                                     _mm256_loadu_si256((const __m256i *)(const void *)c1), 1);
    return _mm512_cmpgt_epi64_mask(cnt, _mm512_set1_epi64(k));
}
/* x + y in the lanes of the blocks that have point k (h0: the first, h1: the second) */
KERN8 v8 add_has8(v8 x, v8 y, int h0, int h1)
{
    return _mm512_mask_add_pd(x, (m8)((h0 ? 0x0f : 0) | (h1 ? 0xf0 : 0)), x, y);
}
KERN8 int moving8(int m0, int m1) { return m0 | m1 << 4; }

/* the 4 doubles at offset off of the slots of b0's lanes and b1's (stride per slot) as
   components x, y, z, w of the eight lanes (gather4's, two blocks at once): each register
   two rows (lane l of b0, lane l of b1), then unpacked and permuted (moves only) */
static inline AVX512 INL void gather_lanes8(const double *base, const int *s0, const int *s1, size_t stride, int off,
                                      v8 c[4])
{
    v8 z[4];
#pragma GCC unroll 4
    for (int l = 0; l < 4; l++) {
        z[l] = ld8(base + stride * (size_t)s0[l] + off, base + stride * (size_t)s1[l] + off);
    }
    const __m512i lo = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0), hi = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    v8 t0 = _mm512_unpacklo_pd(z[0], z[1]), t1 = _mm512_unpackhi_pd(z[0], z[1]);
    v8 t2 = _mm512_unpacklo_pd(z[2], z[3]), t3 = _mm512_unpackhi_pd(z[2], z[3]);
    c[0] = _mm512_permutex2var_pd(t0, lo, t2);
    c[1] = _mm512_permutex2var_pd(t1, lo, t3);
    c[2] = _mm512_permutex2var_pd(t0, hi, t2);
    c[3] = _mm512_permutex2var_pd(t1, hi, t3);
}

/* components c back into the padded velocities at offset off of the lanes whose bit is set
   (bits 0-3: b0's lanes, 4-7: b1's; scatter4's, two blocks at once) */
static inline AVX512 INL void scatter_lanes8(double *sv, const int *s0, const int *s1, int moving, int off,
                                             const v8 c[4])
{
    const __m512i lo = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0), hi = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    v8 u0 = _mm512_unpacklo_pd(c[0], c[1]), u1 = _mm512_unpackhi_pd(c[0], c[1]);
    v8 u2 = _mm512_unpacklo_pd(c[2], c[3]), u3 = _mm512_unpackhi_pd(c[2], c[3]);
    v8 r[4] = {_mm512_permutex2var_pd(u0, lo, u2), _mm512_permutex2var_pd(u1, lo, u3),
               _mm512_permutex2var_pd(u0, hi, u2), _mm512_permutex2var_pd(u1, hi, u3)};
#pragma GCC unroll 4
    for (int l = 0; l < 4; l++) {  /* r[l]: lane l of b0 low, of b1 high */
        if (moving >> l & 1) {
            _mm256_storeu_pd(sv + 8 * (size_t)s0[l] + off, _mm512_castpd512_pd256(r[l]));
        }
        if (moving >> (4 + l) & 1) {
            _mm256_storeu_pd(sv + 8 * (size_t)s1[l] + off, _mm512_extractf64x4_pd(r[l], 1));
        }
    }
}

#define LW 8
#include "engine3d_soft_lanes.h"  /* point8, warm8, begin8, end8, block8 ... */
#undef LW

static inline AVX512 INL v4 half(v8 x, int h) { return h ? _mm512_extractf64x4_pd(x, 1) : _mm512_castpd512_pd256(x); }

/* the block of half h (0: lanes 0-3) as block4 (for point4: the points only one block has) */
static inline AVX512 INL void split8(const block8 *G, int h, block4 *g, int use_bias)
{
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        g->va[i] = half(G->va[i], h), g->wa[i] = half(G->wa[i], h);
        g->vb[i] = half(G->vb[i], h), g->wb[i] = half(G->wb[i], h);
    }
#pragma GCC unroll 4
    for (int i = 0; i < 3; i++) {
#pragma GCC unroll 4
        for (int j = 0; j < 3; j++) {
            g->ia[j][i] = half(G->ia[j][i], h), g->ib[j][i] = half(G->ib[j][i], h);
        }
    }
    if (use_bias) {
        for (int j = 0; j < 4; j++) {
            for (int i = 0; i < 4; i++) {
                g->da[j][i] = half(G->da[j][i], h), g->db[j][i] = half(G->db[j][i], h);
            }
        }
        for (int i = 0; i < 3; i++) {
            g->ga[i] = half(G->ga[i], h), g->gb[i] = half(G->gb[i], h);
        }
        g->gc = half(G->gc, h);
    }
}

/* g0's and g1's velocities back into G */
static inline AVX512 INL void join8(const block4 *g0, const block4 *g1, block8 *G)
{
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        G->va[i] = join(g0->va[i], g1->va[i]), G->wa[i] = join(g0->wa[i], g1->wa[i]);
        G->vb[i] = join(g0->vb[i], g1->vb[i]), G->wb[i] = join(g0->wb[i], g1->wb[i]);
    }
}

/* blocks b0 and b1 of one colour together, eight lanes (block_avx2_body2's results); bs0,
   bs1: their sums (NULL when the pass adds none) */
static inline AVX512 INL void block_avx512_body(struct imp_e3_soft *s, imp_e3_block *b0, imp_e3_block *b1,
                                                imp_e3_block_sum *bs0, imp_e3_block_sum *bs1, double hs,
                                                double inv_hs, double push_max, int use_bias)
{
    block8 G;
    begin8(s, b0, b1, &G, use_bias);
    int both = b0->np < b1->np ? b0->np : b1->np;
    for (int k = 0; k < both; k++) {
        point8(s, b0, b1, bs0, bs1, k, &G, hs, inv_hs, push_max, use_bias);
    }
    if (b0->np != b1->np) {  /* the longer block's last points, four lanes */
        block4 g0, g1;
        split8(&G, 0, &g0, use_bias);
        split8(&G, 1, &g1, use_bias);
        for (int k = both; k < b0->np; k++) {
            point4(s, b0, b0, bs0, bs0, k, &g0, hs, inv_hs, push_max, use_bias);
        }
        for (int k = both; k < b1->np; k++) {
            point4(s, b1, b1, bs1, bs1, k, &g1, hs, inv_hs, push_max, use_bias);
        }
        join8(&g0, &g1, &G);
    }
    end8(s, b0, b1, &G);
}

/* the warm start of blocks b0 and b1 (warm4's operations, eight lanes) */
static AVX512 void block_avx512_warm(struct imp_e3_soft *s, imp_e3_block *b0, imp_e3_block *b1)
{
    warm8(s, b0, b1);
}

/* the kinds of pass, each compiled for its own (use_bias, sums) */
static AVX512 void block_avx512_solve(struct imp_e3_soft *s, imp_e3_block *b0, imp_e3_block *b1, double hs,
                                      double inv_hs, double push_max)
{
    block_avx512_body(s, b0, b1, NULL, NULL, hs, inv_hs, push_max, 1);
}

static AVX512 void block_avx512_relax(struct imp_e3_soft *s, imp_e3_block *b0, imp_e3_block *b1, double hs,
                                      double inv_hs, double push_max)
{
    block_avx512_body(s, b0, b1, NULL, NULL, hs, inv_hs, push_max, 0);
}

static AVX512 void block_avx512_relax_sum(struct imp_e3_soft *s, imp_e3_block *b0, imp_e3_block *b1,
                                          imp_e3_block_sum *bs0, imp_e3_block_sum *bs1, double hs, double inv_hs,
                                          double push_max)
{
    block_avx512_body(s, b0, b1, bs0, bs1, hs, inv_hs, push_max, 0);
}

/* block b0, or b0 and b1 of one colour together (b1 not NULL); bs0, bs1 as
   block_avx2_one_or_two's (a relax pass's only); wide (b1 not NULL): the two in one
   512-bit register, eight lanes */
static void block_simd(struct imp_e3_soft *s, imp_e3_block *b0, imp_e3_block *b1, imp_e3_block_sum *bs0,
                       imp_e3_block_sum *bs1, double hs, double inv_hs, double push_max, int use_bias, int warm,
                       int wide)
{
    if (wide) {
        if (warm) {
            block_avx512_warm(s, b0, b1);
        } else if (use_bias) {
            block_avx512_solve(s, b0, b1, hs, inv_hs, push_max);
        } else if (bs0 != NULL) {
            block_avx512_relax_sum(s, b0, b1, bs0, bs1, hs, inv_hs, push_max);
        } else {
            block_avx512_relax(s, b0, b1, hs, inv_hs, push_max);
        }
    } else if (warm) {
        block_avx2_warm(s, b0, b1);
    } else if (use_bias) {
        block_avx2_solve(s, b0, b1, hs, inv_hs, push_max);
    } else if (bs0 != NULL) {
        block_avx2_relax_sum(s, b0, b1, bs0, bs1, hs, inv_hs, push_max);
    } else {
        block_avx2_relax(s, b0, b1, hs, inv_hs, push_max);
    }
}

/* 1 when this processor runs the AVX-512F instructions */
static int avx512_supported(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") != 0;
}
#endif

unsigned imp_e3_block_impact_lanes(const struct imp_e3_soft *s, const imp_e3_block *b, double threshold, int simd)
{
#if defined(IMP_E3_HAVE_AVX2)
    if (simd) {
        return block_impact_lanes_avx2(s, b, threshold);
    }
#else
    (void)simd;
#endif
    unsigned lanes = 0;
    for (int l = 0; l < E3B_LANES; l++) {
        lanes |= (unsigned)lane_impact(s, b, l, threshold) << l;
    }
    return lanes;
}

/* the masses of block b's points written back to their rows in s->pts, its empty rows' set
   to 0 (the portable path; block_masses_avx2 does both as it makes them) */
static void masses_back(struct imp_e3_soft *s, imp_e3_block *b)
{
    for (int k = 0; k < b->np; k++) {
        imp_e3_block_pt *p = &b->p[k];
        for (int l = 0; l < E3B_LANES; l++) {
            if (b->row[k][l] < 0) {
                p->mn[l] = p->mt[l] = p->w1n[l] = p->w2n[l] = 0.0;
            } else {
                imp_e3_soft_pt *q = &s->pts[b->row[k][l]];
                q->mn = p->mn[l], q->mt = p->mt[l], q->w1n = p->w1n[l], q->w2n = p->w2n[l];
            }
        }
    }
}

/* block b's points from its lanes' rows (fill_lane), their masses (its empty rows' 0) and the
   masses back into the rows */
static void block_build(struct imp_e3_soft *s, imp_e3_block *b, imp_e3_block_sum *bs, imp_e3_block_hit *h,
                        int simd)
{
#if defined(IMP_E3_HAVE_AVX2)
    if (simd) {
        fill_points_avx2(s, b, bs, h);
        block_masses_avx2(s, b);
        return;
    }
#else
    (void)simd;
#endif
    fill_points(s, b, bs, h);
    pad_block(b, h);
    block_masses_portable(b, s->xframes, s->si);
    masses_back(s, b);
}

/* whether row q pushed at an approach faster than the threshold (impact_points' question) */
static inline int pushed_fast(const imp_e3_soft_pt *q, double threshold)
{
    return q->uhit < -threshold && q->pushed > 0.0;
}

/* the lanes of block b (bits) one of whose points pushed at an approach faster than the
   threshold (pushed_fast of its rows, from the block's copies) */
static unsigned fast_lanes(const struct imp_e3_soft *s, const imp_e3_block *b, const imp_e3_block_hit *h)
{
    unsigned fast = 0;
    for (int k = 0; k < b->np; k++) {
        for (int l = 0; l < E3B_LANES; l++) {
            fast |= (unsigned)(b->row[k][l] >= 0 && h->uhit[k][l] < -s->impact_threshold && h->pushed[k][l] > 0.0)
                    << l;
        }
    }
    return fast;
}

/* block i's rows back into s->pts (impulses, separations, sums, the first push); whether one
   pushed fast taken into s->pushed_fast. At the step's end (s->fin_pts set,
   engine3d_soft_internal.h) only the rows of the lanes that pushed fast, listed in s->late;
   the others' points finished here (imp_e3_soft_finish_row) */
static void store_rows(struct imp_e3_soft *s, int i)
{
    const imp_e3_block *b = &s->blocks[i];
    const imp_e3_block_sum *bs = &s->bsum[i];
    const imp_e3_block_hit *h = &s->bhit[i];
    unsigned fast = fast_lanes(s, b, h), keep = s->fin_pts != NULL ? fast : 0xfu;
    for (int k = 0; k < b->np; k++) {
        const imp_e3_block_pt *p = &b->p[k];
        for (int l = 0; l < E3B_LANES; l++) {
            int r = b->row[k][l];
            if (r < 0) {
                continue;
            }
            if (!(keep >> l & 1)) {
                imp_e3_soft_finish_row(s, s->srcs[r], p->rn[l], p->rt1[l], p->rt2[l], bs->sum[k][0][l],
                                       bs->sum[k][1][l], bs->sum[k][2][l], h->uhit[k][l], h->pushed[k][l]);
                continue;
            }
            imp_e3_soft_pt *q = &s->pts[r];
            q->s = p->s[l], q->rn = p->rn[l], q->rt1 = p->rt1[l], q->rt2 = p->rt2[l];
            q->uhit = h->uhit[k][l], q->pushed = h->pushed[k][l];
            for (int j = 0; j < 3; j++) {
                q->sum[j] = bs->sum[k][j][l];
            }
            if (s->fin_pts != NULL) {
                s->late[s->nlate++] = r;
            }
        }
    }
    s->pushed_fast |= fast != 0;
}

#if defined(IMP_E3_HAVE_AVX2)
/* 1 when the processor has the fused multiply-add the AVX2 passes take */
static int fma_supported(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("fma") != 0;
}
#endif

int imp_e3_soft_blocks_wide(int set)
{
    static int mode = -1;
#if defined(IMP_E3_HAVE_AVX2)
    if (mode < 0 || set >= 0) {
        int env = imp_e3_simd_env();
        int want = set >= 0 ? set : env != 0 && env != 2;
        mode = want && avx512_supported() && fma_supported();
    }
#else
    (void)set;
    mode = 0;
#endif
    return mode;
}

/* the blocks of colours [c0, c1), from the last colour down (the greedy colouring gives the
   first colours to the pairs of the first slots: a stack of 10 cubes built upwards sways ten
   times as much with the colours taken upwards, spec/engine3d_soft_spec.lua); sum (a relax
   pass's): each row's impulses after it added to the step's sums (s->bsum); store (with sum,
   the step's last pass): each block's rows then back into s->pts while in cache */
static void blocks_run(struct imp_e3_soft *s, int c0, int c1, double hs, double push_max, int use_bias, int warm,
                       int sum, int store, int simd)
{
    /* only the colours that hold blocks walked: the highest (the last c whose colour_first is
       below the range's end; colour_first does not decrease) down to the lowest (below it
       colour_first[c + 1] is the range's start). A walk of all 48 or 16 colours a pass cost
       more than one box's block (h-box1, session 23). */
    int lo = s->colour_first[c0], hi = s->colour_first[c1], top = c0;
    if (lo == hi) {
        return;
    }
    for (int l = c0, r = c1 - 1; l <= r;) {
        int m = (l + r) / 2;
        if (s->colour_first[m] < hi) {
            top = m;
            l = m + 1;
        } else {
            r = m - 1;
        }
    }
    double inv_hs = 1.0 / hs;
#if defined(IMP_E3_HAVE_AVX2)
    int fma_ok = simd && fma_supported(), wide = fma_ok && imp_e3_soft_blocks_wide(-1);
#endif
    for (int c = top; c >= c0 && s->colour_first[c + 1] > lo; c--) {
        for (int i = s->colour_first[c + 1] - 1; i >= s->colour_first[c]; i--) {
            imp_e3_block_sum *bs = sum ? &s->bsum[i] : NULL;
#if defined(IMP_E3_HAVE_AVX2)
            if (simd && fma_ok) {  /* two blocks of the colour at a time (block_avx2_body2) */
                int two = i - 1 >= s->colour_first[c];
                block_simd(s, &s->blocks[i], two ? &s->blocks[i - 1] : NULL, bs, sum && two ? &s->bsum[i - 1] : NULL,
                           hs, inv_hs, push_max, use_bias, warm, two && wide);
                if (store) {
                    s->pushed_fast |= store_rows_avx2(s, &s->blocks[i], &s->bsum[i], &s->bhit[i]);
                    if (two) {
                        s->pushed_fast |= store_rows_avx2(s, &s->blocks[i - 1], &s->bsum[i - 1], &s->bhit[i - 1]);
                    }
                }
                i -= two;
                continue;
            }
#else
            (void)simd;
#endif
            block_portable(s, &s->blocks[i], bs, hs, inv_hs, push_max, use_bias, warm);
            if (store) {
                store_rows(s, i);
            }
        }
    }
}

/* the pairs s->over[g0 .. g1), one by one */
static void over_run(struct imp_e3_soft *s, int g0, int g1, const imp_e3_softness *soft, const imp_e3_softness *stiff,
                     double hs, double push_max, int use_bias, int warm, int sum, int store)
{
    for (int i = g0; i < g1; i++) {
        int g = s->over[i];
        for (int c = s->pair_first[g]; c < s->pair_first[g + 1]; c++) {
            imp_e3_soft_pt *q = &s->pts[c];
            if (warm) {
                imp_e3_soft_row_warm(s, q);
                continue;
            }
            imp_e3_soft_row(s, q, soft, stiff, hs, push_max, use_bias);
            if (sum) {
                q->sum[0] += q->rn;
                q->sum[1] += q->rt1;
                q->sum[2] += q->rt2;
            }
            if (store) {
                s->pushed_fast |= pushed_fast(q, s->impact_threshold);
            }
        }
    }
}

void imp_e3_soft_blocks_warm(struct imp_e3_soft *s, int simd)
{
    blocks_run(s, 0, E3B_STATIC, 1.0, 0.0, 0, 1, 0, 0, simd);
    over_run(s, 0, s->nover_dyn, NULL, NULL, 1.0, 0.0, 0, 1, 0, 0);
    blocks_run(s, E3B_STATIC, E3B_COLOURS, 1.0, 0.0, 0, 1, 0, 0, simd);
    over_run(s, s->nover_dyn, s->nover, NULL, NULL, 1.0, 0.0, 0, 1, 0, 0);
}

void imp_e3_soft_blocks_pass(struct imp_e3_soft *s, const imp_e3_softness *soft, const imp_e3_softness *stiff,
                             double hs, double push_max, int use_bias, int sum, int simd)
{
    int store = sum == 2 && !use_bias;
    sum = sum && !use_bias;
    if (store) {
        s->pushed_fast = 0;
    }
    blocks_run(s, 0, E3B_STATIC, hs, push_max, use_bias, 0, sum, store, simd);
    over_run(s, 0, s->nover_dyn, soft, stiff, hs, push_max, use_bias, 0, sum, store);
    blocks_run(s, E3B_STATIC, E3B_COLOURS, hs, push_max, use_bias, 0, sum, store, simd);
    over_run(s, s->nover_dyn, s->nover, soft, stiff, hs, push_max, use_bias, 0, sum, store);
    s->pushed_known |= store;
}

void imp_e3_soft_blocks_sum(struct imp_e3_soft *s)
{
    for (int i = 0; i < s->nblocks; i++) {
        const imp_e3_block *b = &s->blocks[i];
        imp_e3_block_sum *restrict bs = &s->bsum[i];
        for (int k = 0; k < b->np; k++) {
            const imp_e3_block_pt *restrict p = &b->p[k];
            for (int l = 0; l < E3B_LANES; l++) {
                bs->sum[k][0][l] += p->rn[l];
                bs->sum[k][1][l] += p->rt1[l];
                bs->sum[k][2][l] += p->rt2[l];
            }
        }
    }
    for (int i = 0; i < s->nover; i++) {
        int g = s->over[i];
        for (int c = s->pair_first[g]; c < s->pair_first[g + 1]; c++) {
            imp_e3_soft_pt *q = &s->pts[c];
            q->sum[0] += q->rn;
            q->sum[1] += q->rt1;
            q->sum[2] += q->rt2;
        }
    }
}

void imp_e3_soft_blocks_store(struct imp_e3_soft *s)
{
    for (int i = 0; i < s->nblocks; i++) {
        store_rows(s, i);
    }
}

void imp_e3_soft_blocks_residual(const struct imp_e3_soft *s, double inv_hs, int simd, double acc[3])
{
    double lane[3][4] = {{0.0}};
    for (int i = 0; i < s->nblocks; i++) {
#if defined(IMP_E3_HAVE_AVX2)
        if (simd) {
            block_residual_avx2(s, &s->blocks[i], inv_hs, lane);
            continue;
        }
#else
        (void)simd;
#endif
        block_residual_portable(s, &s->blocks[i], inv_hs, lane);
    }
    for (int j = 0; j < 3; j++) {
        for (int l = 0; l < E3B_LANES; l++) {
            acc[j] += lane[j][l];
        }
    }
}
