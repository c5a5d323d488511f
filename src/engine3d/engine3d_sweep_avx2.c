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
        double dr[3];
        if (!imp_e3_row_update(q, uu[0], uu[1], uu[2], dr)) {
            continue;
        }
        const double dr0 = dr[0], dr1 = dr[1], dr2 = dr[2];
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
        largest = larger(largest, q->r[0]);
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

#endif
