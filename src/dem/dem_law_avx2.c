/* dem_law_avx2.c: the interaction loop's common case four interactions at a time with AVX2
   (no FMA): real sphere/sphere or wall/sphere interactions under the linear law (Cundall &
   Strack 1979, see dem_law.c) or the viscoelastic law (its dashpots, dem_law_viscous.c: the
   masks of the sticking lanes and of the normal's largest component do its branches) whose
   overlap is not negative. Each lane does exactly the
   operations of the portable law (dem_law.c: geometry() and law()) in the same order, and
   IEEE addition, multiplication, division and square root are correctly rounded whether
   scalar or packed, so the results are bit-identical (test/c/test_dem_law_simd.c).

   Data movement: positions and radii come from the packed copy d->xr (one 32-byte run per
   particle), the other particles' vectors (3 doubles each) are gathered with two 16-byte
   loads and a scalar per group of two lanes; the interaction's state is read and written in place,
   as the 4-double runs {un, n}, {kn, ks, mu, ...} and {fn, fs} of imp_dem_inter, transposed
   4 x 4 into one vector per field; while d->derived holds (dem_law.c: derived_update), kn, ks
   and mu are made from the particles' radii and Young moduli (vw's seventh number) as physics()
   made them, so the law reads only {un, n} and {fn, fs}, the record's first cache line. So
   does the viscoelastic law, making the dashpots' coefficient cn0 too (from kn and the
   particles' masses, vw's eighth number: imp_dem_packed_mass); it reads and writes the second
   line, {kn0, ks0} (the tangential dashpot's kept force), only while the energy is booked, its
   losses (the row's, read only then) made only then; without d->derived, {kn, ks, mu, kn0}
   and {ks0, cn0} are read from the record. Compiled for AVX2 through the target attribute and chosen
   at run time (dem_law.c), so the library still runs on processors without it. */
#include "dem_law.h"

#if defined(IMP_DEM_HAVE_AVX2)

#include <stddef.h>
#include <stdint.h>

#include "avx2.h"

/* the in-place runs this file reads and writes as 4 doubles */
_Static_assert(offsetof(imp_dem_inter, n) == offsetof(imp_dem_inter, un) + sizeof(double),
               "imp_dem_inter: {un, n[3]} must be consecutive");
_Static_assert(offsetof(imp_dem_inter, ks) == offsetof(imp_dem_inter, kn) + sizeof(double)
                   && offsetof(imp_dem_inter, mu) == offsetof(imp_dem_inter, ks) + sizeof(double)
                   && offsetof(imp_dem_inter, kn0) == offsetof(imp_dem_inter, mu) + sizeof(double),
               "imp_dem_inter: {kn, ks, mu, kn0} must be consecutive");
_Static_assert(offsetof(imp_dem_inter, fs) == offsetof(imp_dem_inter, fn) + sizeof(double),
               "imp_dem_inter: {fn, fs[3]} must be consecutive");
_Static_assert(offsetof(imp_dem_inter, cn0) == offsetof(imp_dem_inter, ks0) + sizeof(double)
                   && offsetof(imp_dem_inter, ks0) == offsetof(imp_dem_inter, kn0) + sizeof(double),
               "imp_dem_inter: {kn0, ks0, cn0} must be consecutive");

_Static_assert(IMP_DEM_SPHERE == 0, "imp_dem_reach_avx2 ors the kinds of four particles");

int imp_dem_law_avx2_supported(void) { return imp_avx2_supported(); }

/* 4 x 4 transpose: rows r[i] become columns (its own inverse) */
static inline AVX2 void transpose(v4 *r0, v4 *r1, v4 *r2, v4 *r3)
{
    v4 t0 = _mm256_unpacklo_pd(*r0, *r1), t1 = _mm256_unpackhi_pd(*r0, *r1);
    v4 t2 = _mm256_unpacklo_pd(*r2, *r3), t3 = _mm256_unpackhi_pd(*r2, *r3);
    *r0 = _mm256_permute2f128_pd(t0, t2, 0x20);
    *r1 = _mm256_permute2f128_pd(t1, t3, 0x20);
    *r2 = _mm256_permute2f128_pd(t0, t2, 0x31);
    *r3 = _mm256_permute2f128_pd(t1, t3, 0x31);
}

/* components of the 3-vectors base + 3 i for the four particle indices i[] */
static inline AVX2 void gather3(const double *base, const int *i, v4 *x, v4 *y, v4 *z)
{
    const double *p0 = base + 3 * (size_t)i[0], *p1 = base + 3 * (size_t)i[1];
    const double *p2 = base + 3 * (size_t)i[2], *p3 = base + 3 * (size_t)i[3];
    v4 a = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(p0)), _mm_loadu_pd(p2), 1);
    v4 b = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(p1)), _mm_loadu_pd(p3), 1);
    *x = _mm256_unpacklo_pd(a, b);
    *y = _mm256_unpackhi_pd(a, b);
    *z = _mm256_set_pd(p3[2], p2[2], p1[2], p0[2]);
}

/* velocities, angular velocities and (e != NULL) Young moduli and masses m (negative when
   fixed: imp_dem_packed_mass) of the four particles i[] from the packed copy d->vw */
static inline AVX2 void gather_vw(const double *vw, const int *i, v4 *v0, v4 *v1, v4 *v2,
                                  v4 *w0, v4 *w1, v4 *w2, v4 *e, v4 *m)
{
    const double *p0 = vw + 8 * (size_t)i[0], *p1 = vw + 8 * (size_t)i[1];
    const double *p2 = vw + 8 * (size_t)i[2], *p3 = vw + 8 * (size_t)i[3];
    *v0 = _mm256_load_pd(p0);
    *v1 = _mm256_load_pd(p1);
    *v2 = _mm256_load_pd(p2);
    *w0 = _mm256_load_pd(p3);
    transpose(v0, v1, v2, w0);
    if (e != NULL) {
        v4 u0 = _mm256_load_pd(p0 + 4), u1 = _mm256_load_pd(p1 + 4);
        v4 u2 = _mm256_load_pd(p2 + 4), u3 = _mm256_load_pd(p3 + 4);
        transpose(&u0, &u1, &u2, &u3);
        *w1 = u0, *w2 = u1, *e = u2, *m = u3;
        return;
    }
    v4 a = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_load_pd(p0 + 4)), _mm_load_pd(p2 + 4), 1);
    v4 b = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_load_pd(p1 + 4)), _mm_load_pd(p3 + 4), 1);
    *w1 = _mm256_unpacklo_pd(a, b);
    *w2 = _mm256_unpackhi_pd(a, b);
}

/* out[i] = base + size (k[i] - k0) for four indices k[i] >= k0 (pointers to the four
   lanes' interactions or rows, computed together) */
static inline AVX2 void lane_ptrs(const int *k, int k0, uintptr_t base, size_t size, void **out)
{
    __m256i v = _mm256_cvtepi32_epi64(
        _mm_sub_epi32(_mm_loadu_si128((const __m128i *)k), _mm_set1_epi32(k0)));
    v = _mm256_add_epi64(_mm256_mul_epu32(v, _mm256_set1_epi64x((long long)size)),
                         _mm256_set1_epi64x((long long)base));
    _mm256_storeu_si256((__m256i *)out, v);
}

/* the 4-double runs base + 4 i for the four particle indices i[], as field vectors */
static inline AVX2 void gather4(const double *base, const int *i, v4 *x, v4 *y, v4 *z, v4 *w)
{
    *x = _mm256_loadu_pd(base + 4 * (size_t)i[0]);
    *y = _mm256_loadu_pd(base + 4 * (size_t)i[1]);
    *z = _mm256_loadu_pd(base + 4 * (size_t)i[2]);
    *w = _mm256_loadu_pd(base + 4 * (size_t)i[3]);
    transpose(x, y, z, w);
}

/* the runs of imp_dem_inter read and written as 4 doubles: {un, n}, {kn, ks, mu, kn0}, {fn, fs} */
enum { RUN_UN = 0, RUN_KN = 1, RUN_FN = 2 };
static inline double *run(imp_dem_inter *I, int which)
{
    return which == RUN_UN ? &I->un : (which == RUN_KN ? &I->kn : &I->fn);
}

/* a run of the four interactions I[] as field vectors */
static inline AVX2 void load_run(imp_dem_inter *const *I, int which, v4 *f0, v4 *f1, v4 *f2, v4 *f3)
{
    *f0 = _mm256_loadu_pd(run(I[0], which));
    *f1 = _mm256_loadu_pd(run(I[1], which));
    *f2 = _mm256_loadu_pd(run(I[2], which));
    *f3 = _mm256_loadu_pd(run(I[3], which));
    transpose(f0, f1, f2, f3);
}

static inline AVX2 void store_run(imp_dem_inter *const *I, int which, v4 f0, v4 f1, v4 f2, v4 f3)
{
    transpose(&f0, &f1, &f2, &f3);
    _mm256_storeu_pd(run(I[0], which), f0);
    _mm256_storeu_pd(run(I[1], which), f1);
    _mm256_storeu_pd(run(I[2], which), f2);
    _mm256_storeu_pd(run(I[3], which), f3);
}

/* the viscoelastic law's pairs of doubles {kn0, ks0} (PAIR_KN0) and {ks0, cn0} (PAIR_KS0) */
enum { PAIR_KN0 = 0, PAIR_KS0 = 1 };
static inline double *pair(imp_dem_inter *I, int which) { return which == PAIR_KN0 ? &I->kn0 : &I->ks0; }

/* a pair of the four interactions I[] as field vectors */
static inline AVX2 void load_pair(imp_dem_inter *const *I, int which, v4 *x, v4 *y)
{
    v4 a = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(pair(I[0], which))),
                                _mm_loadu_pd(pair(I[2], which)), 1);
    v4 b = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(pair(I[1], which))),
                                _mm_loadu_pd(pair(I[3], which)), 1);
    *x = _mm256_unpacklo_pd(a, b);
    *y = _mm256_unpackhi_pd(a, b);
}

/* and back */
static inline AVX2 void store_pair(imp_dem_inter *const *I, int which, v4 x, v4 y)
{
    v4 a = _mm256_unpacklo_pd(x, y), b = _mm256_unpackhi_pd(x, y);
    _mm_storeu_pd(pair(I[0], which), _mm256_castpd256_pd128(a));
    _mm_storeu_pd(pair(I[1], which), _mm256_castpd256_pd128(b));
    _mm_storeu_pd(pair(I[2], which), _mm256_extractf128_pd(a, 1));
    _mm_storeu_pd(pair(I[3], which), _mm256_extractf128_pd(b, 1));
}

static inline AVX2 v4 neg(v4 a) { return _mm256_xor_pd(a, _mm256_set1_pd(-0.0)); }

/* dem_law_viscous.c: largest() lane by lane, as masks: m0 where n's largest component (in
   absolute value, the first of equals) is the first, m1 where it is the second (else the
   third) */
static inline AVX2 void largest4(v4 n0, v4 n1, v4 n2, v4 *m0, v4 *m1)
{
    const v4 sign = _mm256_set1_pd(-0.0);
    const v4 a0 = _mm256_andnot_pd(sign, n0), a1 = _mm256_andnot_pd(sign, n1);
    const v4 a2 = _mm256_andnot_pd(sign, n2);
    *m0 = _mm256_and_pd(_mm256_cmp_pd(a0, a1, _CMP_GE_OQ), _mm256_cmp_pd(a0, a2, _CMP_GE_OQ));
    *m1 = _mm256_andnot_pd(*m0, _mm256_cmp_pd(a1, a2, _CMP_GE_OQ));
}

/* x where m0, else y where m1, else z */
static inline AVX2 v4 pick3(v4 m0, v4 m1, v4 x, v4 y, v4 z)
{
    return _mm256_blendv_pd(_mm256_blendv_pd(z, y, m1), x, m0);
}

/* fields f0..f3 into numbers at of the four rows r[] */
static inline AVX2 void store_rows(double *const *r, int at, v4 f0, v4 f1, v4 f2, v4 f3)
{
    transpose(&f0, &f1, &f2, &f3);
    _mm256_storeu_pd(r[0] + at, f0);
    _mm256_storeu_pd(r[1] + at, f1);
    _mm256_storeu_pd(r[2] + at, f2);
    _mm256_storeu_pd(r[3] + at, f3);
}

/* the geometry of a group of four (pass 1) */
typedef struct quad_geo {
    v4 n0, n1, n2, un, ra, rb;
    v4 vo0, vo1, vo2;  /* periodic cell: the images' affine velocities L H S (else unset) */
    imp_dem_inter *I[4];  /* the lanes' interactions */
    int at;  /* its first index in idx */
} quad_geo;

enum { MAX_QUADS = 64 };

/* Pass 1 over the groups of four: their geometry (the square root and division, whose latency
   then overlaps across groups instead of stalling each group's law), groups outside the common
   case to rest. Returns the count of kept groups in g. */
static inline AVX2 __attribute__((always_inline)) int geometry4(const imp_dem *d, int wall,
                                                                int line2,
                                                                const int *idx, const int *ia_all,
                                                                const int *ib_all, int count,
                                                                quad_geo *g, int *rest, int *nrest)
{
    const v4 zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
    int c = 0;
    for (int q = 0; q + 4 <= count; q += 4) {
        const int *kq = idx + q;
        const int *ia = ia_all + q, *ib = ib_all + q;
        /* dem_law.c: geometry() */
        v4 xa0, xa1, xa2, xa3, xb0, xb1, xb2;
        quad_geo *e = g + c;
        gather4(d->xr, ia, &xa0, &xa1, &xa2, &xa3);
        gather4(d->xr, ib, &xb0, &xb1, &xb2, &e->rb);
        v4 dx0 = sub(xb0, xa0), dx1 = sub(xb1, xa1), dx2 = sub(xb2, xa2);
        if (d->cell.on) {  /* b's image (dem_cell.c), as in dem_law.c: geometry() */
            double o[3][4], vo[3][4];
            for (int i = 0; i < 4; i++) {
                double oi[3], voi[3];
                imp_dem_cell_offset(d, &d->inter[kq[i]], oi, voi);
                for (int k = 0; k < 3; k++) {
                    o[k][i] = oi[k], vo[k][i] = voi[k];
                }
            }
            dx0 = add(dx0, _mm256_loadu_pd(o[0]));
            dx1 = add(dx1, _mm256_loadu_pd(o[1]));
            dx2 = add(dx2, _mm256_loadu_pd(o[2]));
            e->vo0 = _mm256_loadu_pd(vo[0]);
            e->vo1 = _mm256_loadu_pd(vo[1]);
            e->vo2 = _mm256_loadu_pd(vo[2]);
        }
        v4 bad;
        if (!wall) {
            e->ra = xa3;
            v4 d2 = add(add(mul(dx0, dx0), mul(dx1, dx1)), mul(dx2, dx2));
            v4 dist = _mm256_sqrt_pd(d2);
            v4 inv = _mm256_div_pd(one, dist);
            e->n0 = mul(dx0, inv), e->n1 = mul(dx1, inv), e->n2 = mul(dx2, inv);
            e->un = sub(add(e->ra, e->rb), dist);
            bad = _mm256_or_pd(_mm256_cmp_pd(dist, zero, _CMP_NGT_UQ),
                               _mm256_cmp_pd(e->un, zero, _CMP_LT_OQ));
        } else {
            gather3(d->wall_n, ia, &e->n0, &e->n1, &e->n2);
            v4 dist = add(add(mul(e->n0, dx0), mul(e->n1, dx1)), mul(e->n2, dx2));
            e->un = sub(e->rb, dist);
            e->ra = e->rb;
            bad = _mm256_cmp_pd(e->un, zero, _CMP_LT_OQ);
        }
        if (_mm256_movemask_pd(bad) != 0) {  /* a gap or concentric: the portable path */
            for (int i = 0; i < 4; i++) {
                if (i == 0 || kq[i] != kq[i - 1]) {  /* not a copy (the caller's filling) */
                    rest[(*nrest)++] = kq[i];
                }
            }
            continue;
        }
        e->at = q;
        c++;
        /* the lanes' interactions, whose runs (112 bytes from the start of a record aligned to
           64 bytes: 2 cache lines, dem_map.c; the first 64 bytes, one line, when the constants
           are derived and no kept dashpot force is read: line2 0) the law reads and writes
           after this pass: asked for now, so their loads
           from memory overlap this pass's work instead of stalling the law (the settled pile's
           32,000 interactions, 6 MB, are not in the core's caches) */
        lane_ptrs(kq, 0, (uintptr_t)d->inter, sizeof(imp_dem_inter), (void **)e->I);
        for (int i = 0; i < 4; i++) {
            const char *p = (const char *)e->I[i];
            _mm_prefetch(p, _MM_HINT_T0);
            if (line2) {
                _mm_prefetch(p + 64, _MM_HINT_T0);
            }
        }
    }
    return c;
}

/* imp_dem_law_avx2 for one kind of pair: inlined with wall a constant (0 or 1), so that its
   tests fold and ra_spin's x 1.0 on sphere/sphere pairs (exact) is left out, with derived
   a constant: 1 when kn, ks and mu are made from the particles (d->derived, dem.h: the bits
   the record holds), so that only its first 64 bytes, {un, n} and {fn, fs}, are read, and with
   visco a constant: 1 for the viscoelastic law (dem_law_viscous.c: the dashpots, whose cn0 is
   then made too; the kept force kn0, ks0 in the record's second line read and written only
   while the energy is booked) */
static inline AVX2 __attribute__((always_inline)) int law4(const imp_dem *d, const int wall,
                                                           const int derived, const int visco,
                                                           const int *idx,
                                                           const int *ia0, const int *ib0,
                                                           int count, double dt, double *rows,
                                                           int k0, int *rest)
{
    int nrest = 0;
    const v4 zero = _mm256_setzero_pd(), half = _mm256_set1_pd(0.5), two = _mm256_set1_pd(2.0);
    const v4 vdt = _mm256_set1_pd(dt), hdt = _mm256_set1_pd(0.5 * dt);
    /* ra_spin of dem_law.c: walls do not spin */
    const v4 spin_a = _mm256_set1_pd(wall ? 0.0 : 1.0);
    const int track = d->p.track_energy;
    const v4 mhalf = _mm256_set1_pd(-0.5);
    /* the viscoelastic law's tangential dashpot: on (all ones, then the sticking lanes) or off */
    const v4 tdamp = visco && d->p.tangential_damping ? _mm256_castsi256_pd(_mm256_set1_epi64x(-1))
                                                      : zero;
    /* dem_law.c: physics() */
    const v4 ks_ratio = _mm256_set1_pd(d->p.ks_ratio), mu_c = _mm256_set1_pd(d->derived_mu[wall]);
    const v4 xi2 = _mm256_set1_pd(d->derived_xi2);  /* imp_dem_viscous_physics's 2 xi */
    /* the record's second line: read for kn, ks, mu (and cn0) when not derived, for the kept
       dashpot force while the energy is booked */
    const int line2 = !derived || (visco && track);
    quad_geo g[MAX_QUADS];
    for (int q0 = 0; q0 < count; q0 += 4 * MAX_QUADS) {
        int len = count - q0 < 4 * MAX_QUADS ? count - q0 : 4 * MAX_QUADS;
        const int *ia_all = ia0 + q0, *ib_all = ib0 + q0;
        int nq = geometry4(d, wall, line2, idx + q0, ia_all, ib_all, len, g, rest, &nrest);
        for (int j = 0; j < nq; j++) {
            const quad_geo *e = g + j;
            const int *kq = idx + q0 + e->at, *ia = ia_all + e->at, *ib = ib_all + e->at;
            imp_dem_inter *const *I = e->I;
            double *r[4];  /* the rows */
            lane_ptrs(kq, k0, (uintptr_t)rows, IMP_DEM_ROW * sizeof(double), (void **)r);
            const v4 n0 = e->n0, n1 = e->n1, n2 = e->n2, un = e->un, ra = e->ra, rb = e->rb;
            /* the law (dem_law.c: law()) */
            v4 un_old, o0, o1, o2, kn, ks, mu, kn0 = zero, fn_old, s0, s1, s2;
            load_run(I, RUN_UN, &un_old, &o0, &o1, &o2);
            load_run(I, RUN_FN, &fn_old, &s0, &s1, &s2);
            (void)un_old, (void)fn_old;
            v4 wa0, wa1, wa2, wb0, wb1, wb2, va0, va1, va2, vb0, vb1, vb2, ea, eb, ma, mb;
            gather_vw(d->vw, ia, &va0, &va1, &va2, &wa0, &wa1, &wa2, derived ? &ea : NULL, &ma);
            gather_vw(d->vw, ib, &vb0, &vb1, &vb2, &wb0, &wb1, &wb2, derived ? &eb : NULL, &mb);
            v4 ks0 = zero, cn0 = zero;  /* the viscoelastic law's (else unused) */
            if (derived) {  /* dem_law.c: derived_kn(), then physics()'s ks and mu */
                kn = _mm256_div_pd(mul(mul(mul(mul(two, ea), ra), eb), rb),
                                   add(mul(ea, ra), mul(eb, rb)));
                ks = mul(ks_ratio, kn);
                mu = mu_c;
                if (visco) {  /* imp_dem_viscous_physics's cn0 of reduced_mass (dem_law.c) */
                    const v4 pa = _mm256_andnot_pd(_mm256_set1_pd(-0.0), ma);
                    const v4 pb = _mm256_andnot_pd(_mm256_set1_pd(-0.0), mb);
                    /* a fixed (sign bit set): the other's mass; else pa pb / (pa + pb) */
                    v4 ms = _mm256_div_pd(mul(pa, pb), add(pa, pb));
                    ms = _mm256_blendv_pd(_mm256_blendv_pd(ms, pa, mb), pb, ma);
                    cn0 = mul(xi2, _mm256_sqrt_pd(mul(kn, ms)));
                    if (track) {  /* the kept force (the record's second line) */
                        load_pair(I, PAIR_KN0, &kn0, &ks0);
                    }
                }
            } else {
                load_run(I, RUN_KN, &kn, &ks, &mu, &kn0);
                if (visco) {
                    load_pair(I, PAIR_KS0, &ks0, &cn0);
                }
            }
            (void)ma, (void)mb;
            if (wall) {  /* x 0 (x 1 for spheres: exact, left out) */
                wa0 = mul(spin_a, wa0), wa1 = mul(spin_a, wa1), wa2 = mul(spin_a, wa2);
            }
            v4 x0 = sub(mul(o1, n2), mul(o2, n1));
            v4 x1 = sub(mul(o2, n0), mul(o0, n2));
            v4 x2 = sub(mul(o0, n1), mul(o1, n0));
            v4 c0 = sub(mul(s1, x2), mul(s2, x1));
            v4 c1 = sub(mul(s2, x0), mul(s0, x2));
            v4 c2 = sub(mul(s0, x1), mul(s1, x0));
            s0 = sub(s0, c0), s1 = sub(s1, c1), s2 = sub(s2, c2);
            v4 spin = mul(hdt, add(add(add(mul(n0, wa0), mul(n1, wa1)), mul(n2, wa2)),
                                   add(add(mul(n0, wb0), mul(n1, wb1)), mul(n2, wb2))));
            x0 = mul(spin, n0), x1 = mul(spin, n1), x2 = mul(spin, n2);
            c0 = sub(mul(s1, x2), mul(s2, x1));
            c1 = sub(mul(s2, x0), mul(s0, x2));
            c2 = sub(mul(s0, x1), mul(s1, x0));
            s0 = sub(s0, c0), s1 = sub(s1, c1), s2 = sub(s2, c2);
            const v4 p0 = s0, p1 = s1, p2 = s2;
            const v4 hun = mul(half, un);
            const v4 la = sub(ra, hun), lb = sub(rb, hun);
            v4 m0 = add(mul(la, wa0), mul(lb, wb0));
            v4 m1 = add(mul(la, wa1), mul(lb, wb1));
            v4 m2 = add(mul(la, wa2), mul(lb, wb2));
            v4 vr0 = sub(sub(vb0, va0), sub(mul(m1, n2), mul(m2, n1)));
            v4 vr1 = sub(sub(vb1, va1), sub(mul(m2, n0), mul(m0, n2)));
            v4 vr2 = sub(sub(vb2, va2), sub(mul(m0, n1), mul(m1, n0)));
            if (d->cell.on) {  /* the image moves with the cell */
                vr0 = add(vr0, e->vo0), vr1 = add(vr1, e->vo1), vr2 = add(vr2, e->vo2);
            }
            v4 vn = add(add(mul(vr0, n0), mul(vr1, n1)), mul(vr2, n2));
            v4 fn = mul(kn, un);
            /* the viscous loss (the row's: read only when booked, so made only then) */
            v4 viscous = zero;
            if (visco) {  /* dem_law_viscous.c: imp_dem_viscous_normal (never fresh here) */
                const v4 fd = mul(neg(cn0), vn);
                if (track) {  /* its last force: 0 after a gap */
                    const v4 last = _mm256_andnot_pd(_mm256_cmp_pd(un_old, zero, _CMP_LT_OQ),
                                                     sub(fn_old, mul(kn, un_old)));
                    viscous = add(zero, mul(mul(mul(mhalf, add(last, fd)), vn), vdt));
                }
                fn = add(fn, fd);
            }
            /* the tangential relative velocity (trial's and the tangential dashpot's) */
            const v4 vt0 = sub(vr0, mul(vn, n0)), vt1 = sub(vr1, mul(vn, n1));
            const v4 vt2 = sub(vr2, mul(vn, n2));
            v4 kdt = mul(ks, vdt);
            s0 = sub(s0, mul(kdt, vt0));
            s1 = sub(s1, mul(kdt, vt1));
            s2 = sub(s2, mul(kdt, vt2));
            v4 sn = add(add(mul(s0, n0), mul(s1, n1)), mul(s2, n2));
            s0 = sub(s0, mul(sn, n0)), s1 = sub(s1, mul(sn, n1)), s2 = sub(s2, mul(sn, n2));
            v4 fs2 = add(add(mul(s0, s0), mul(s1, s1)), mul(s2, s2));
            v4 cap = mul(mu, _mm256_and_pd(_mm256_cmp_pd(fn, zero, _CMP_GT_OQ), fn));
            v4 slide = _mm256_cmp_pd(fs2, mul(cap, cap), _CMP_GT_OQ);
            v4 ft0 = zero, ft1 = zero, ft2 = zero;
            if (visco) {  /* dem_law_viscous.c: imp_dem_viscous_tangential */
                const v4 stick = _mm256_andnot_pd(slide, tdamp), c = neg(cn0);
                ft0 = _mm256_and_pd(stick, mul(c, vt0));
                ft1 = _mm256_and_pd(stick, mul(c, vt1));
                ft2 = _mm256_and_pd(stick, mul(c, vt2));
                if (track) {  /* the last force (imp_dem_viscous_shear, the record's normal) */
                    v4 j0, j1;
                    largest4(o0, o1, o2, &j0, &j1);
                    const v4 oj = pick3(j0, j1, o0, o1, o2), oj1 = pick3(j0, j1, o1, o2, o0);
                    const v4 oj2 = pick3(j0, j1, o2, o0, o1);
                    const v4 fj = _mm256_and_pd(
                        _mm256_cmp_pd(oj, zero, _CMP_NEQ_UQ),
                        _mm256_div_pd(neg(add(mul(kn0, oj1), mul(ks0, oj2))), oj));
                    const v4 l0 = pick3(j0, j1, fj, ks0, kn0), l1 = pick3(j0, j1, kn0, fj, ks0);
                    const v4 l2 = pick3(j0, j1, ks0, kn0, fj);
                    viscous = add(viscous,
                                  mul(mul(mhalf, add(add(mul(add(l0, ft0), vr0),
                                                         mul(add(l1, ft1), vr1)),
                                                     mul(add(l2, ft2), vr2))),
                                      vdt));
                    /* this one kept for the next (the book's only: dem.h, visc_stale): two
                       components, n's largest left */
                    largest4(n0, n1, n2, &j0, &j1);
                    kn0 = pick3(j0, j1, ft1, ft2, ft0);
                    ks0 = pick3(j0, j1, ft2, ft0, ft1);
                }
            }
            v4 plastic = zero;
            if (_mm256_movemask_pd(slide) != 0) {  /* Coulomb: slide (only those lanes) */
                v4 l = _mm256_sqrt_pd(fs2), scale = _mm256_div_pd(cap, l);
                if (track) {  /* the loss is read only when booked (two divisions) */
                    v4 pdot = add(add(mul(p0, s0), mul(p1, s1)), mul(p2, s2));
                    v4 pl = _mm256_div_pd(mul(sub(l, cap), add(cap, _mm256_div_pd(pdot, l))),
                                          mul(two, ks));
                    plastic = _mm256_and_pd(
                        _mm256_and_pd(slide, _mm256_cmp_pd(ks, zero, _CMP_GT_OQ)), pl);
                }
                s0 = _mm256_blendv_pd(s0, mul(s0, scale), slide);
                s1 = _mm256_blendv_pd(s1, mul(s1, scale), slide);
                s2 = _mm256_blendv_pd(s2, mul(s2, scale), slide);
            }
            store_run(I, RUN_UN, un, n0, n1, n2);
            store_run(I, RUN_FN, fn, s0, s1, s2);
            if (visco) {  /* the record keeps the spring's force, the row has the dashpot's too */
                if (track) {  /* and the dashpot's, for the book only (dem.h: visc_stale) */
                    store_pair(I, PAIR_KN0, kn0, ks0);
                }
                s0 = add(s0, ft0), s1 = add(s1, ft1), s2 = add(s2, ft2);
            }
            /* the row: force on b, the torques' terms, the losses */
            v4 f0 = add(mul(fn, n0), s0), f1 = add(mul(fn, n1), s1), f2 = add(mul(fn, n2), s2);
            v4 t0 = sub(mul(n1, s2), mul(n2, s1));
            v4 t1 = sub(mul(n2, s0), mul(n0, s2));
            v4 t2 = sub(mul(n0, s1), mul(n1, s0));
            store_rows(r, 0, f0, f1, f2, mul(la, t0));
            store_rows(r, 4, mul(la, t1), mul(la, t2), mul(lb, t0), mul(lb, t1));
            /* the particles' offsets 3 a, 3 b as two uint32_t per lane (imp_dem_row_ab) */
            __m128i a3 = _mm_loadu_si128((const __m128i *)ia);
            __m128i b3 = _mm_loadu_si128((const __m128i *)ib);
            a3 = _mm_add_epi32(a3, _mm_add_epi32(a3, a3));
            b3 = _mm_add_epi32(b3, _mm_add_epi32(b3, b3));
            v4 ab = _mm256_castsi256_pd(
                _mm256_set_m128i(_mm_unpackhi_epi32(a3, b3), _mm_unpacklo_epi32(a3, b3)));
            store_rows(r, 8, mul(lb, t2), plastic, viscous, ab);
        }
    }
    return nrest;
}

AVX2 int imp_dem_law_avx2(const imp_dem *d, int wall, const int *idx, const int *ia0,
                          const int *ib0, int count, double dt, double *rows, int k0, int *rest)
{
    if (d->p.law == IMP_DEM_LAW_VISCOUS) {
        if (d->derived > 0) {
            return wall ? law4(d, 1, 1, 1, idx, ia0, ib0, count, dt, rows, k0, rest)
                        : law4(d, 0, 1, 1, idx, ia0, ib0, count, dt, rows, k0, rest);
        }
        return wall ? law4(d, 1, 0, 1, idx, ia0, ib0, count, dt, rows, k0, rest)
                    : law4(d, 0, 0, 1, idx, ia0, ib0, count, dt, rows, k0, rest);
    }
    if (d->derived > 0) {
        return wall ? law4(d, 1, 1, 0, idx, ia0, ib0, count, dt, rows, k0, rest)
                    : law4(d, 0, 1, 0, idx, ia0, ib0, count, dt, rows, k0, rest);
    }
    return wall ? law4(d, 1, 0, 0, idx, ia0, ib0, count, dt, rows, k0, rest)
                : law4(d, 0, 0, 0, idx, ia0, ib0, count, dt, rows, k0, rest);
}

AVX2 void imp_dem_class_masks_avx2(const int *hot, int len, int css, int cws, uint64_t *mr,
                                   uint64_t *mss, uint64_t *mws)
{
    /* the classes hot[3 j + 2] of eight entries from three 8-int loads: 2, 5 of the first, 8,
       11, 14 of the second, 17, 20, 23 of the third */
    const __m256i i0 = _mm256_setr_epi32(2, 5, 0, 0, 0, 0, 0, 0);
    const __m256i i1 = _mm256_setr_epi32(0, 0, 0, 3, 6, 0, 0, 0);
    const __m256i i2 = _mm256_setr_epi32(0, 0, 0, 0, 0, 1, 4, 7);
    const __m256i zero = _mm256_setzero_si256();
    const __m256i vss = _mm256_set1_epi32(css), vws = _mm256_set1_epi32(cws);
    int j = 0;
    for (int w = 0; 64 * w < len; w++) {
        mr[w] = mss[w] = mws[w] = 0;
    }
    for (; j + 8 <= len; j += 8) {
        const int *h = hot + 3 * j;
        __m256i c = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)h), i0);
        c = _mm256_blend_epi32(c, _mm256_permutevar8x32_epi32(
                                      _mm256_loadu_si256((const __m256i *)(h + 8)), i1), 0x1C);
        c = _mm256_blend_epi32(c, _mm256_permutevar8x32_epi32(
                                      _mm256_loadu_si256((const __m256i *)(h + 16)), i2), 0xE0);
        const unsigned z = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(c, zero)));
        const unsigned s = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(c, vss)));
        const unsigned t = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(c, vws)));
        mr[j >> 6] |= (uint64_t)(~z & 255u) << (j & 63);
        mss[j >> 6] |= (uint64_t)s << (j & 63);
        mws[j >> 6] |= (uint64_t)t << (j & 63);
    }
    for (; j < len; j++) {
        const int c = hot[3 * j + 2];
        mr[j >> 6] |= (uint64_t)(c != 0) << (j & 63);
        mss[j >> 6] |= (uint64_t)(c == css) << (j & 63);
        mws[j >> 6] |= (uint64_t)(c == cws) << (j & 63);
    }
}

AVX2 int imp_dem_diff_avx2(const int *x, const int *y, int n, int *at, int max)
{
    int c = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i e = _mm256_cmpeq_epi32(_mm256_loadu_si256((const __m256i *)(x + i)),
                                       _mm256_loadu_si256((const __m256i *)(y + i)));
        unsigned m = ~(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(e)) & 255u;
        while (m != 0) {  /* rare */
            if (c == max) {
                return max + 1;
            }
            at[c++] = i + __builtin_ctz(m);
            m &= m - 1;
        }
    }
    for (; i < n; i++) {
        if (x[i] != y[i]) {
            if (c == max) {
                return max + 1;
            }
            at[c++] = i;
        }
    }
    return c;
}

AVX2 void imp_dem_pack_avx2(const imp_dem *d, double *xr, double *vw, int i0, int i1)
{
    const double *pos = d->pos, *radius = d->radius, *vel = d->vel, *angvel = d->angvel;
    const double *young = d->young;
    /* 4-double loads at 3 i read 3 i + 3: the last particle by the portable code */
    for (int i = i0; i < i1 && i + 1 < d->n; i++) {
        const size_t i3 = 3 * (size_t)i;
        _mm256_storeu_pd(xr + 4 * (size_t)i, _mm256_blend_pd(_mm256_loadu_pd(pos + i3),
                                                             _mm256_broadcast_sd(radius + i), 8));
        if (vw != NULL) {
            double *o = vw + 8 * (size_t)i;
            _mm256_store_pd(o, _mm256_blend_pd(_mm256_loadu_pd(vel + i3),
                                               _mm256_broadcast_sd(angvel + i3), 8));
            /* {wy, wz, young, the mass, negative when fixed} */
            _mm256_store_pd(o + 4, _mm256_blend_pd(
                                       _mm256_castpd128_pd256(_mm_loadu_pd(angvel + i3 + 1)),
                                       _mm256_set_pd(imp_dem_packed_mass(d, i), young[i], 0.0,
                                                     0.0), 12));
        }
    }
}

AVX2 int imp_dem_reach_avx2(const imp_dem *d, const int *idx, const int *ia0, const int *ib0,
                            int count, double f, int *in, int *rest, int *nrest)
{
    const v4 vf = _mm256_set1_pd(f);
    int nin = 0;
    for (int q = 0; q + 4 <= count; q += 4) {
        const int *kq = idx + q;
        const int *ia = ia0 + q, *ib = ib0 + q;
        v4 xa0, xa1, xa2, ra, xb0, xb1, xb2, rb;
        if ((d->kind[ia[0]] | d->kind[ia[1]] | d->kind[ia[2]] | d->kind[ia[3]]) != IMP_DEM_SPHERE) {
            for (int i = 0; i < 4; i++) {  /* a wall or facet: the portable test */
                rest[(*nrest)++] = kq[i];
            }
            continue;
        }
        gather4(d->xr, ia, &xa0, &xa1, &xa2, &ra);
        gather4(d->xr, ib, &xb0, &xb1, &xb2, &rb);
        v4 dx0 = sub(xb0, xa0), dx1 = sub(xb1, xa1), dx2 = sub(xb2, xa2);
        v4 d2 = add(add(mul(dx0, dx0), mul(dx1, dx1)), mul(dx2, dx2));
        v4 reach = mul(vf, add(ra, rb));
        int within = ~_mm256_movemask_pd(_mm256_cmp_pd(d2, mul(reach, reach), _CMP_GT_OQ)) & 15;
        while (within != 0) {  /* rare */
            int i = __builtin_ctz((unsigned)within);
            in[nin++] = kq[i];
            within &= within - 1;
        }
    }
    for (int q = count & ~3; q < count; q++) {
        rest[(*nrest)++] = idx[q];
    }
    return nin;
}

#else
typedef int imp_dem_law_avx2_unused; /* ISO C: a translation unit is not empty */
#endif
