/* engine3d_sweep_avx2.c: the 3D engine's projected Gauss-Seidel sweep (engine3d_sweep.h)
   with AVX2 (no FMA). A row's 3-vectors are one register each (x, y, z, 0): the relative
   velocity d = (v_b + w_b x r_b) - (v_a + w_a x r_a), its frame components u = E^T d, the
   impulse P = E dr and the bodies' changes m^-1 P and I^-1 (r x P) are lane-wise products and
   sums, cross products by lane rotations. Each lane does exactly the operations of the
   portable sweep (engine3d_solve.c: sweep_run and run_apply) in the same order, and IEEE
   addition and multiplication are correctly rounded whether scalar or packed, so the results
   are bit-identical; the per-row scalar part (the normal impulse, the friction pair and its
   projection on the disc) is the portable code's. A run's two bodies stay in registers for
   the run. Compiled for AVX2 through the target attribute and chosen at run time
   (engine3d_solve.c), so the library still runs on processors without it. */
#include "engine3d_sweep.h"

#if defined(IMP_E3_HAVE_AVX2)

#include <math.h>

#include "avx2.h"

int imp_e3_avx2_supported(void) { return imp_avx2_supported(); }
static inline AVX2 v4 yzx(v4 a) { return _mm256_permute4x64_pd(a, 0xC9); }  /* (y, z, x, w) */
static inline AVX2 v4 zxy(v4 a) { return _mm256_permute4x64_pd(a, 0xD2); }  /* (z, x, y, w) */
static inline AVX2 v4 lane(v4 a, int i)
{
    switch (i) {
    case 0: return _mm256_permute4x64_pd(a, 0x00);
    case 1: return _mm256_permute4x64_pd(a, 0x55);
    default: return _mm256_permute4x64_pd(a, 0xAA);
    }
}

/* v + w x r, lane-wise as (v_x + w_y r_z) - w_z r_y, ... */
static inline AVX2 v4 point_velocity(v4 v, v4 w, v4 r)
{
    return sub(add(v, mul(yzx(w), zxy(r))), mul(zxy(w), yzx(r)));
}

/* r x P, lane-wise as r_y P_z - r_z P_y, ... */
static inline AVX2 v4 cross(v4 r, v4 P) { return sub(mul(yzx(r), zxy(P)), mul(zxy(r), yzx(P))); }

/* I^-1 t with the columns c0, c1, c2 of I^-1: (c0 t_x + c1 t_y) + c2 t_z */
static inline AVX2 v4 inertia_times(const v4 *c, v4 t)
{
    return add(add(mul(c[0], lane(t, 0)), mul(c[1], lane(t, 1))), mul(c[2], lane(t, 2)));
}

/* (p[0], p[1], p[2], 0) without reading p[3]; and back, writing p[0 .. 2] only (plain loads
   and stores: the masked ones are slow on some processors) */
static inline AVX2 v4 load3(const double *p)
{
    return _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(p)), _mm_load_sd(p + 2), 1);
}

static inline AVX2 void store3(double *p, v4 x)
{
    _mm_storeu_pd(p, _mm256_castpd256_pd128(x));
    _mm_store_sd(p + 2, _mm256_extractf128_pd(x, 1));
}

/* the columns (I[j], I[3 + j], I[6 + j], 0) of the row-major 3 x 3 matrix I */
static inline AVX2 void columns(const double *I, v4 c[3])
{
    /* the rows' fourth lanes are not used */
    v4 r0 = _mm256_loadu_pd(I), r1 = _mm256_loadu_pd(I + 3), r2 = load3(I + 6);
    v4 z = _mm256_setzero_pd();
    v4 t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
    v4 t2 = _mm256_unpacklo_pd(r2, z), t3 = _mm256_unpackhi_pd(r2, z);
    c[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
    c[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    c[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
}

static inline double larger(double a, double b) { return b > a ? b : a; }
static inline double max0(double a) { return a > 0.0 ? a : 0.0; }

static AVX2 void sweep_run(double *vel, const double *inv_iw, struct imp_e3_row *rows, int n, double *change_io,
                           double *largest_io)
{
    const v4 zero = _mm256_setzero_pd(), minus = _mm256_set1_pd(-1.0);
    int a = rows[0].a, b = rows[0].b;
    v4 val = zero, vaw = zero, vbl = zero, vbw = zero, ia[3] = {zero, zero, zero}, ib[3] = {zero, zero, zero};
    if (a >= 0) {
        const double *v = vel + 6 * (size_t)a, *I = inv_iw + 9 * (size_t)a;
        val = load3(v);
        vaw = load3(v + 3);
        columns(I, ia);
    }
    if (b >= 0) {
        const double *v = vel + 6 * (size_t)b, *I = inv_iw + 9 * (size_t)b;
        vbl = load3(v);
        vbw = load3(v + 3);
        columns(I, ib);
    }
    double change = *change_io, largest = *largest_io;
    for (int i = 0; i < n; i++) {
        struct imp_e3_row *q = &rows[i];
        v4 ra = _mm256_loadu_pd(q->ra), rb = _mm256_loadu_pd(q->rb);
        v4 d = point_velocity(vbl, vbw, rb);
        if (a >= 0) {
            d = sub(d, point_velocity(val, vaw, ra));
        }
        v4 u = add(add(mul(_mm256_loadu_pd(q->e0), lane(d, 0)), mul(_mm256_loadu_pd(q->e1), lane(d, 1))),
                   mul(_mm256_loadu_pd(q->e2), lane(d, 2)));
        __m128d ulo = _mm256_castpd256_pd128(u);
        const double uu[3] = {_mm_cvtsd_f64(ulo), _mm_cvtsd_f64(_mm_unpackhi_pd(ulo, ulo)),
                              _mm_cvtsd_f64(_mm256_extractf128_pd(u, 1))};
        const double old0 = q->r[0], old1 = q->r[1], old2 = q->r[2];
        double rn = max0(old0 - (uu[0] + q->bias) * q->inv_nn);
        if (rn == 0.0 && old0 == 0.0 && old1 == 0.0 && old2 == 0.0) {
            continue;
        }
        double dn = rn - old0;
        double ut1 = uu[1] + q->w1n * dn, ut2 = uu[2] + q->w2n * dn;
        double rt1 = old1 - (q->x11 * ut1 + q->x12 * ut2);
        double rt2 = old2 - (q->x12 * ut1 + q->x22 * ut2);
        double lim = q->mu * rn, len = sqrt(rt1 * rt1 + rt2 * rt2);
        if (len > lim) {
            double sc = len > 0.0 ? lim / len : 0.0;
            rt1 *= sc;
            rt2 *= sc;
        }
        const double dr0 = rn - old0, dr1 = rt1 - old1, dr2 = rt2 - old2;
        q->r[0] = rn;
        q->r[1] = rt1;
        q->r[2] = rt2;
        v4 P = add(add(mul(_mm256_loadu_pd(q->n), _mm256_set1_pd(dr0)), mul(_mm256_loadu_pd(q->t1), _mm256_set1_pd(dr1))),
                   mul(_mm256_loadu_pd(q->t2), _mm256_set1_pd(dr2)));
        if (a >= 0) {
            v4 t = mul(minus, cross(ra, P));
            val = add(val, mul(_mm256_set1_pd(-1.0 * q->ima), P));
            vaw = add(vaw, inertia_times(ia, t));
        }
        if (b >= 0) {
            v4 t = cross(rb, P);
            vbl = add(vbl, mul(_mm256_set1_pd(q->imb), P));
            vbw = add(vbw, inertia_times(ib, t));
        }
        change = larger(change, fabs(dr0) + fabs(dr1) + fabs(dr2));
        largest = larger(largest, rn);
    }
    if (a >= 0) {
        store3(vel + 6 * (size_t)a, val);
        store3(vel + 6 * (size_t)a + 3, vaw);
    }
    if (b >= 0) {
        store3(vel + 6 * (size_t)b, vbl);
        store3(vel + 6 * (size_t)b + 3, vbw);
    }
    *change_io = change;
    *largest_io = largest;
}

/* the warm start of one run: each row's impulse r applied as the sweep applies its change */
static AVX2 void warm_run(double *vel, const double *inv_iw, const struct imp_e3_row *rows, int n)
{
    const v4 minus = _mm256_set1_pd(-1.0);
    int a = rows[0].a, b = rows[0].b;
    const v4 zero = _mm256_setzero_pd();
    v4 val = zero, vaw = zero, vbl = zero, vbw = zero, ia[3] = {zero, zero, zero}, ib[3] = {zero, zero, zero};
    if (a >= 0) {
        val = load3(vel + 6 * (size_t)a);
        vaw = load3(vel + 6 * (size_t)a + 3);
        columns(inv_iw + 9 * (size_t)a, ia);
    }
    if (b >= 0) {
        vbl = load3(vel + 6 * (size_t)b);
        vbw = load3(vel + 6 * (size_t)b + 3);
        columns(inv_iw + 9 * (size_t)b, ib);
    }
    for (int i = 0; i < n; i++) {
        const struct imp_e3_row *q = &rows[i];
        v4 P = add(add(mul(_mm256_loadu_pd(q->n), _mm256_set1_pd(q->r[0])),
                       mul(_mm256_loadu_pd(q->t1), _mm256_set1_pd(q->r[1]))),
                   mul(_mm256_loadu_pd(q->t2), _mm256_set1_pd(q->r[2])));
        if (a >= 0) {
            v4 t = mul(minus, cross(_mm256_loadu_pd(q->ra), P));
            val = add(val, mul(_mm256_set1_pd(-1.0 * q->ima), P));
            vaw = add(vaw, inertia_times(ia, t));
        }
        if (b >= 0) {
            v4 t = cross(_mm256_loadu_pd(q->rb), P);
            vbl = add(vbl, mul(_mm256_set1_pd(q->imb), P));
            vbw = add(vbw, inertia_times(ib, t));
        }
    }
    if (a >= 0) {
        store3(vel + 6 * (size_t)a, val);
        store3(vel + 6 * (size_t)a + 3, vaw);
    }
    if (b >= 0) {
        store3(vel + 6 * (size_t)b, vbl);
        store3(vel + 6 * (size_t)b + 3, vbw);
    }
}

AVX2 void imp_e3_warm_avx2(double *vel, const double *inv_iw, const struct imp_e3_row *rows, int n)
{
    for (int i = 0; i < n; i += rows[i].run) {
        warm_run(vel, inv_iw, rows + i, rows[i].run);
    }
}

AVX2 void imp_e3_sweep_avx2(double *vel, const double *inv_iw, struct imp_e3_row *rows, int n, double *change,
                            double *largest)
{
    for (int i = 0; i < n; i += rows[i].run) {
        sweep_run(vel, inv_iw, rows + i, rows[i].run, change, largest);
    }
}

/* The coloured sweep (engine3d_sweep_colour.c): a block's four rows, one per lane. */

/* the 4 x 4 transpose of the rows x[0 .. 3] */
static inline AVX2 void transpose4(v4 x[4])
{
    v4 t0 = _mm256_unpacklo_pd(x[0], x[1]), t1 = _mm256_unpackhi_pd(x[0], x[1]);
    v4 t2 = _mm256_unpacklo_pd(x[2], x[3]), t3 = _mm256_unpackhi_pd(x[2], x[3]);
    x[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
    x[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    x[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
    x[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}

/* the velocities (v, w) of the lanes' bodies p[0 .. 3] (6 doubles each) as 6 vectors */
static inline AVX2 void gather6(const double *const p[4], v4 v[6])
{
    v4 x[4] = {_mm256_loadu_pd(p[0]), _mm256_loadu_pd(p[1]), _mm256_loadu_pd(p[2]), _mm256_loadu_pd(p[3])};
    transpose4(x);
    v[0] = x[0], v[1] = x[1], v[2] = x[2], v[3] = x[3];
    v4 q02 = _mm256_set_m128d(_mm_loadu_pd(p[2] + 4), _mm_loadu_pd(p[0] + 4));
    v4 q13 = _mm256_set_m128d(_mm_loadu_pd(p[3] + 4), _mm_loadu_pd(p[1] + 4));
    v[4] = _mm256_unpacklo_pd(q02, q13);
    v[5] = _mm256_unpackhi_pd(q02, q13);
}

static inline AVX2 void scatter6(double *const p[4], const v4 v[6])
{
    v4 x[4] = {v[0], v[1], v[2], v[3]};
    transpose4(x);
    for (int l = 0; l < 4; l++) {
        _mm256_storeu_pd(p[l], x[l]);
    }
    v4 lo = _mm256_unpacklo_pd(v[4], v[5]), hi = _mm256_unpackhi_pd(v[4], v[5]);
    _mm_storeu_pd(p[0] + 4, _mm256_castpd256_pd128(lo));
    _mm_storeu_pd(p[1] + 4, _mm256_castpd256_pd128(hi));
    _mm_storeu_pd(p[2] + 4, _mm256_extractf128_pd(lo, 1));
    _mm_storeu_pd(p[3] + 4, _mm256_extractf128_pd(hi, 1));
}

#define LD(x) _mm256_loadu_pd(x)

/* out = v + (m^-1 P, I^-1 t) for one side: the lanes' 1/m (signed) im, inertia rows I */
static inline AVX2 void side_update(const v4 v[6], v4 im, const double (*I)[4], const v4 P[3], const v4 t[3], v4 out[6])
{
    for (int c = 0; c < 3; c++) {
        out[c] = add(v[c], mul(im, P[c]));
        out[3 + c] = add(v[3 + c], add(add(mul(LD(I[3 * c]), t[0]), mul(LD(I[3 * c + 1]), t[1])), mul(LD(I[3 * c + 2]), t[2])));
    }
}

static AVX2 void sweep_block(double *vel, struct imp_e3_block *k, double (*sink)[8], v4 *change, v4 *largest)
{
    static const double zero[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    const double *pa[4], *pb[4];
    double *oa[4], *ob[4];
    for (int l = 0; l < 4; l++) {
        int a = k->a[l], b = k->b[l];
        pa[l] = a >= 0 ? vel + 6 * (size_t)a : zero;
        pb[l] = b >= 0 ? vel + 6 * (size_t)b : zero;
        oa[l] = a >= 0 ? vel + 6 * (size_t)a : sink[l];
        ob[l] = b >= 0 ? vel + 6 * (size_t)b : sink[4 + l];
    }
    v4 va[6], vb[6];
    gather6(pa, va);
    gather6(pb, vb);
    const v4 ra0 = LD(k->ra[0]), ra1 = LD(k->ra[1]), ra2 = LD(k->ra[2]);
    const v4 rb0 = LD(k->rb[0]), rb1 = LD(k->rb[1]), rb2 = LD(k->rb[2]);
    v4 d0 = sub(add(vb[0], mul(vb[4], rb2)), mul(vb[5], rb1));
    v4 d1 = sub(add(vb[1], mul(vb[5], rb0)), mul(vb[3], rb2));
    v4 d2 = sub(add(vb[2], mul(vb[3], rb1)), mul(vb[4], rb0));
    d0 = sub(d0, sub(add(va[0], mul(va[4], ra2)), mul(va[5], ra1)));
    d1 = sub(d1, sub(add(va[1], mul(va[5], ra0)), mul(va[3], ra2)));
    d2 = sub(d2, sub(add(va[2], mul(va[3], ra1)), mul(va[4], ra0)));
    v4 u0 = add(add(mul(LD(k->n[0]), d0), mul(LD(k->n[1]), d1)), mul(LD(k->n[2]), d2));
    v4 u1 = add(add(mul(LD(k->t1[0]), d0), mul(LD(k->t1[1]), d1)), mul(LD(k->t1[2]), d2));
    v4 u2 = add(add(mul(LD(k->t2[0]), d0), mul(LD(k->t2[1]), d1)), mul(LD(k->t2[2]), d2));
    const v4 old0 = LD(k->r[0]), old1 = LD(k->r[1]), old2 = LD(k->r[2]);
    const v4 zerov = _mm256_setzero_pd();
    v4 rn = _mm256_max_pd(sub(old0, mul(add(u0, LD(k->bias)), LD(k->inv_nn))), zerov);
    v4 dn = sub(rn, old0);
    v4 ut1 = add(u1, mul(LD(k->w1n), dn)), ut2 = add(u2, mul(LD(k->w2n), dn));
    v4 x12 = LD(k->x12);
    v4 rt1 = sub(old1, add(mul(LD(k->x11), ut1), mul(x12, ut2)));
    v4 rt2 = sub(old2, add(mul(x12, ut1), mul(LD(k->x22), ut2)));
    v4 lim = mul(LD(k->mu), rn), len = _mm256_sqrt_pd(add(mul(rt1, rt1), mul(rt2, rt2)));
    v4 outside = _mm256_cmp_pd(len, lim, _CMP_GT_OQ);
    v4 sc = _mm256_blendv_pd(_mm256_set1_pd(1.0), _mm256_div_pd(lim, _mm256_max_pd(_mm256_set1_pd(1e-300), len)),
                             outside);
    rt1 = mul(rt1, sc);
    rt2 = mul(rt2, sc);
    const v4 dr0 = sub(rn, old0), dr1 = sub(rt1, old1), dr2 = sub(rt2, old2);
    _mm256_storeu_pd(k->r[0], rn);
    _mm256_storeu_pd(k->r[1], rt1);
    _mm256_storeu_pd(k->r[2], rt2);
    v4 P[3];
    for (int c = 0; c < 3; c++) {
        P[c] = add(add(mul(LD(k->n[c]), dr0), mul(LD(k->t1[c]), dr1)), mul(LD(k->t2[c]), dr2));
    }
    const v4 minus = _mm256_set1_pd(-1.0);
    v4 t[3] = {mul(minus, sub(mul(ra1, P[2]), mul(ra2, P[1]))), mul(minus, sub(mul(ra2, P[0]), mul(ra0, P[2]))),
               mul(minus, sub(mul(ra0, P[1]), mul(ra1, P[0])))};
    v4 out[6];
    side_update(va, mul(minus, LD(k->ima)), (const double (*)[4])k->ia, P, t, out);
    scatter6(oa, out);
    t[0] = sub(mul(rb1, P[2]), mul(rb2, P[1]));
    t[1] = sub(mul(rb2, P[0]), mul(rb0, P[2]));
    t[2] = sub(mul(rb0, P[1]), mul(rb1, P[0]));
    side_update(vb, LD(k->imb), (const double (*)[4])k->ib, P, t, out);
    scatter6(ob, out);
    const v4 sign = _mm256_set1_pd(-0.0);
    v4 sum = add(add(_mm256_andnot_pd(sign, dr0), _mm256_andnot_pd(sign, dr1)), _mm256_andnot_pd(sign, dr2));
    *change = _mm256_max_pd(sum, *change);
    *largest = _mm256_max_pd(rn, *largest);
}

AVX2 void imp_e3_blocks_sweep_avx2(double *vel, struct imp_e3_block *blocks, int nblocks, double *change_io,
                                   double *largest_io)
{
    double sink[8][8];
    v4 change = _mm256_setzero_pd(), largest = _mm256_setzero_pd();
    for (int i = 0; i < nblocks; i++) {
        sweep_block(vel, &blocks[i], sink, &change, &largest);
    }
    double c[4], g[4];
    _mm256_storeu_pd(c, change);
    _mm256_storeu_pd(g, largest);
    for (int l = 0; l < 4; l++) {
        *change_io = c[l] > *change_io ? c[l] : *change_io;
        *largest_io = g[l] > *largest_io ? g[l] : *largest_io;
    }
}

#endif
