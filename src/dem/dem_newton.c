/* dem_newton.c: the per-particle kernel of the dem strategy's Newton integrator (Yade's
   NewtonIntegrator for spheres: leapfrog with gravity and Cundall's non-viscous damping, the
   orientation advanced by the exact rotation of the step; see dem_step.c for the scheme).

   Two kernels, bit-identical: portable (one particle at a time) and AVX2 (eight particles at a
   time, as two vectors of four: the state's 3- and 4-per-particle arrays transposed in
   registers, then per lane the portable kernel's IEEE operations in its order; no FMA, and
   -ffp-contract=off keeps the compiler from fusing). Fixed particles and clump members in a
   group are computed and their old values blended back (the new state goes into the other set
   of arrays, dem_step.c: every particle's written); the rare large turns are computed by
   the portable code (turn_large) lane by lane; ranges shorter than a group go to the portable
   kernel. A falling group (still, nothing pushed it: fall8) is translated on the state's own
   layout, without transposes, by the same operations on each number. Cost per moving particle
   on this machine's Zen 3 (N = 1000, spinning): portable ~40 ns, AVX2 ~8.3 ns. */
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dem.h"
#include "dem_newton.h"

/* the AVX2 kernel: x86-64 with GCC or Clang (-DIMPACT_NO_SIMD builds the portable one only) */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(IMPACT_NO_SIMD)
#define HAVE_AVX2_KERNEL 1
#else
#define HAVE_AVX2_KERNEL 0
#endif

/* The rotation quaternion {cos h, sin h w / |w|} of a turn by |w| dt, h = |w| dt / 2, for the
   large angles (h^2 >= 1e-4): libm. Out of line: both kernels must call the same code. */
static __attribute__((noinline)) void turn_large(double w2, double dt, double *c, double *k)
{
    double wl = sqrt(w2);
    *c = cos(0.5 * wl * dt);
    *k = sin(0.5 * wl * dt) / wl;
}

/* The same for any angle. For the small angles of DEM steps (h < 0.01) Taylor series in h^2
   (terms to h^8: below 1e-17 relative), which need no square root; libm otherwise. */
static inline void turn(double w2, double dt, double *c, double *k)
{
    double h2 = 0.25 * w2 * dt * dt;
    if (h2 < 1e-4) {
        /* multiplications by the constants' reciprocals (folded at compile time): divisions
           would cost as much as the rest of the integrator */
        *c = 1.0 - h2 * 0.5 * (1.0 - h2 * (1.0 / 12.0) * (1.0 - h2 * (1.0 / 30.0) * (1.0 - h2 * (1.0 / 56.0))));
        *k = 0.5 * dt * (1.0 - h2 * (1.0 / 6.0) * (1.0 - h2 * (1.0 / 20.0) * (1.0 - h2 * (1.0 / 42.0))));
    } else {
        turn_large(w2, dt, c, k);
    }
}

/* Cundall's damping of one component: a (1 - d sgn(a x)), sgn(0) = 0, written
   a - copysign(d |a|, x) (a when x = 0): no branch on signs */
static inline double damped(double a, double x, double damp)
{
    double s = copysign(damp * fabs(a), x);
    return a - (x != 0.0 ? s : 0.0);
}

/* Particle i's state, or only its spin and orientation (all = 0), copied into the other set as
   it is (a particle the kernel does not move, or does not turn). */
static inline void copy_particle(const imp_dem_newton_args *a, int i, int all)
{
    if (all) {
        memcpy(a->pos_out + 3 * i, a->pos + 3 * i, 3 * sizeof *a->pos);
        memcpy(a->vel_out + 3 * i, a->vel + 3 * i, 3 * sizeof *a->vel);
    }
    memcpy(a->angvel_out + 3 * i, a->angvel + 3 * i, 3 * sizeof *a->angvel);
    memcpy(a->quat_out + 4 * i, a->quat + 4 * i, 4 * sizeof *a->quat);
}

/* The force and torque of a particle in a group not written since the reset (a->force_mark) */
static const double unwritten[3] = {0.0, 0.0, 0.0};

/* Whether the force and torque of the particles of group g are to be read (else zero) */
static inline int written(const imp_dem_newton_args *a, int g)
{
    return a->force_mark == NULL || a->force_mark[g];
}

/* One particle at a time. Constants in locals: the stores into the state cannot then force
   the compiler to reload them. */
static int newton_portable(const imp_dem_newton_args *a, int i0, int i1, double *wgp, double *wdp,
                           double *v2p)
{
    const double damp = a->damp, hdt = a->hdt, dt = a->dt;
    const double g[3] = {a->g[0], a->g[1], a->g[2]};
    const int track = a->track;
    const unsigned char *fixed = a->fixed;
    const int *clump_of = a->clump_of;
    const double *vel = a->vel, *pos = a->pos, *angvel = a->angvel, *quat = a->quat;
    double *vel_out = a->vel_out, *pos_out = a->pos_out, *angvel_out = a->angvel_out;
    double *quat_out = a->quat_out;
    const double *force = a->force, *torque = a->torque, *inv_mass = a->inv_mass;
    const double *inv_inertia = a->inv_inertia, *mass = a->mass;
    double wg = *wgp, wd = *wdp, v2max = *v2p;
    int bad = 0;
    for (int i = i0; i < i1; i++) {
        if (fixed[i] || clump_of[i] >= 0) {  /* clump members move with their clump */
            copy_particle(a, i, 1);
            continue;
        }
        const double *v = vel + 3 * i, *x = pos + 3 * i, *om = angvel + 3 * i;
        double *vo = vel_out + 3 * i, *xo = pos_out + 3 * i, *qo = quat_out + 4 * i;
        const int wr = written(a, i >> 3);
        const double *f = wr ? force + 3 * i : unwritten, *t = wr ? torque + 3 * i : unwritten;
        double im = inv_mass[i], ii = inv_inertia[i];
        /* rotation of a sphere: isotropic inertia, so dw/dt = T / I */
        double a0 = f[0] * im + g[0], a1 = f[1] * im + g[1], a2 = f[2] * im + g[2];
        double l0 = t[0] * ii, l1 = t[1] * ii, l2 = t[2] * ii;
        double ad0 = damped(a0, v[0] + hdt * a0, damp), ad1 = damped(a1, v[1] + hdt * a1, damp);
        double ad2 = damped(a2, v[2] + hdt * a2, damp);
        double ld0 = damped(l0, om[0] + hdt * l0, damp), ld1 = damped(l1, om[1] + hdt * l1, damp);
        double ld2 = damped(l2, om[2] + hdt * l2, damp);
        if (track) {
            const double ad[3] = {ad0, ad1, ad2}, ald[3] = {ld0, ld1, ld2};
            const double ac[3] = {a0, a1, a2}, al[3] = {l0, l1, l2};
            double m = mass[i], inertia = 1.0 / ii;
            for (int k = 0; k < 3; k++) {
                double vm = v[k] + hdt * ad[k], wm = om[k] + hdt * ald[k];
                wg += m * g[k] * vm * dt;
                wd -= (m * (ad[k] - ac[k]) * vm + inertia * (ald[k] - al[k]) * wm) * dt;
            }
        }
        double v0 = v[0] + dt * ad0, v1 = v[1] + dt * ad1, v2 = v[2] + dt * ad2;
        vo[0] = v0, vo[1] = v1, vo[2] = v2;
        double vv = v0 * v0 + v1 * v1 + v2 * v2;
        v2max = vv > v2max ? vv : v2max;
        xo[0] = x[0] + dt * v0, xo[1] = x[1] + dt * v1, xo[2] = x[2] + dt * v2;
        const double w[3] = {om[0] + dt * ld0, om[1] + dt * ld1, om[2] + dt * ld2};
        memcpy(angvel_out + 3 * i, w, sizeof w);
        /* orientation: q <- rotation(w dt) q, renormalized by one Newton step of 1/sqrt
           (the product of unit quaternions drifts from unit length by rounding only) */
        double w2 = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
        /* NaN and infinities survive the sum (a finite overflow only costs a full scan); w2
           overflowing would make the orientation NaN */
        bad += !isfinite(xo[0] + xo[1] + xo[2] + v0 + v1 + v2 + w2);
        const double *q = quat + 4 * i;
        if (!(w2 > 0.0)) {
            memcpy(qo, q, 4 * sizeof *q);
        } else {
            double ch, k;
            turn(w2, dt, &ch, &k);
            double rx = k * w[0], ry = k * w[1], rz = k * w[2];
            double qw = q[0], qx = q[1], qy = q[2], qz = q[3];
            /* the product r q (quat.h's imp_q_mul, spelled out) */
            double uw = ch * qw - rx * qx - ry * qy - rz * qz;
            double ux = ch * qx + rx * qw + ry * qz - rz * qy;
            double uy = ch * qy - rx * qz + ry * qw + rz * qx;
            double uz = ch * qz + rx * qy - ry * qx + rz * qw;
            double nq = 1.5 - 0.5 * (uw * uw + ux * ux + uy * uy + uz * uz);
            qo[0] = uw * nq, qo[1] = ux * nq, qo[2] = uy * nq, qo[3] = uz * nq;
        }
    }
    *wgp = wg;
    *wdp = wd;
    *v2p = v2max;
    return bad;
}

/* The flags of a->same for the groups of particles i0 .. i1 - 1 cleared (the portable kernel
   writes their spins and orientations into the other set). */
static void forget(const imp_dem_newton_args *a, int i0, int i1)
{
    if (a->same != NULL && i1 > i0) {
        memset(a->same + (i0 >> 3), 0, (size_t)((i1 - 1) >> 3) - (size_t)(i0 >> 3) + 1);
    }
}

#if HAVE_AVX2_KERNEL
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))
typedef __m256d v4;

/* Four particles' 3-vectors (12 consecutive doubles, in r0, r1, r2) to one vector per
   component. */
AVX2 static inline void tr3(v4 r0, v4 r1, v4 r2, v4 *x, v4 *y, v4 *z)
{
    /* r0 = a0 a1 | a2 b0, r1 = b1 b2 | c0 c1, r2 = c2 d0 | d1 d2 */
    v4 s0 = _mm256_permute2f128_pd(r0, r1, 0x30);  /* a0 a1 | c0 c1 */
    v4 s1 = _mm256_permute2f128_pd(r0, r2, 0x21);  /* a2 b0 | c2 d0 */
    v4 s2 = _mm256_permute2f128_pd(r1, r2, 0x30);  /* b1 b2 | d1 d2 */
    *x = _mm256_shuffle_pd(s0, s1, 0xa);
    *y = _mm256_shuffle_pd(s0, s2, 0x5);
    *z = _mm256_shuffle_pd(s1, s2, 0xa);
}

/* The same from memory. */
AVX2 static inline void load3(const double *p, v4 *x, v4 *y, v4 *z)
{
    tr3(_mm256_loadu_pd(p), _mm256_loadu_pd(p + 4), _mm256_loadu_pd(p + 8), x, y, z);
}

/* Four doubles into the other set: with nt (a constant in each of the kernel's copies), by two
   16-byte non-temporal stores (p 16-byte aligned: newton_avx2 checks), which write the lines
   without reading them first (the other set is not in the caches at large N). */
AVX2 static inline void put4(double *p, v4 x, int nt)
{
    if (nt) {
        _mm_stream_pd(p, _mm256_castpd256_pd128(x));
        _mm_stream_pd(p + 2, _mm256_extractf128_pd(x, 1));
    } else {
        _mm256_storeu_pd(p, x);
    }
}

/* The inverse of load3. */
AVX2 static inline void store3(double *p, v4 x, v4 y, v4 z, int nt)
{
    v4 s0 = _mm256_shuffle_pd(x, y, 0x0);  /* a0 a1 | c0 c1 */
    v4 s1 = _mm256_shuffle_pd(z, x, 0xa);  /* a2 b0 | c2 d0 */
    v4 s2 = _mm256_shuffle_pd(y, z, 0xf);  /* b1 b2 | d1 d2 */
    put4(p, _mm256_permute2f128_pd(s0, s1, 0x20), nt);
    put4(p + 4, _mm256_permute2f128_pd(s2, s0, 0x30), nt);
    put4(p + 8, _mm256_permute2f128_pd(s1, s2, 0x31), nt);
}

/* Four quaternions (16 consecutive doubles) to one vector per component, and back. */
AVX2 static inline void load4(const double *p, v4 *w, v4 *x, v4 *y, v4 *z)
{
    v4 r0 = _mm256_loadu_pd(p), r1 = _mm256_loadu_pd(p + 4);
    v4 r2 = _mm256_loadu_pd(p + 8), r3 = _mm256_loadu_pd(p + 12);
    v4 t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
    v4 t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
    *w = _mm256_permute2f128_pd(t0, t2, 0x20);
    *y = _mm256_permute2f128_pd(t0, t2, 0x31);
    *x = _mm256_permute2f128_pd(t1, t3, 0x20);
    *z = _mm256_permute2f128_pd(t1, t3, 0x31);
}

AVX2 static inline void store4(double *p, v4 w, v4 x, v4 y, v4 z, int nt)
{
    v4 t0 = _mm256_unpacklo_pd(w, x), t1 = _mm256_unpackhi_pd(w, x);
    v4 t2 = _mm256_unpacklo_pd(y, z), t3 = _mm256_unpackhi_pd(y, z);
    put4(p, _mm256_permute2f128_pd(t0, t2, 0x20), nt);
    put4(p + 4, _mm256_permute2f128_pd(t1, t3, 0x20), nt);
    put4(p + 8, _mm256_permute2f128_pd(t0, t2, 0x31), nt);
    put4(p + 12, _mm256_permute2f128_pd(t1, t3, 0x31), nt);
}

/* Eight particles: two groups of four, side by side. Each operation below is made on both
   halves at once, so the two halves' dependency chains (the turn's polynomial, the product,
   the renormalisation: ~130 cycles of latency per group) overlap. */
typedef struct v8 {
    v4 h[2];
} v8;

#define V8_OP(name, expr)                                         \
    AVX2 static inline v8 name(v8 a, v8 b)                        \
    {                                                             \
        v8 r = {{expr(a.h[0], b.h[0]), expr(a.h[1], b.h[1])}};    \
        return r;                                                 \
    }
V8_OP(add, _mm256_add_pd)
V8_OP(sub, _mm256_sub_pd)
V8_OP(mul, _mm256_mul_pd)
V8_OP(vdiv, _mm256_div_pd)
V8_OP(vand, _mm256_and_pd)
V8_OP(vandnot, _mm256_andnot_pd)
V8_OP(vor, _mm256_or_pd)
V8_OP(vmax, _mm256_max_pd)
#define V8_CMP(a, b, pred) \
    ((v8){{_mm256_cmp_pd((a).h[0], (b).h[0], pred), _mm256_cmp_pd((a).h[1], (b).h[1], pred)}})
AVX2 static inline v8 splat(double a)
{
    v8 r = {{_mm256_set1_pd(a), _mm256_set1_pd(a)}};
    return r;
}
AVX2 static inline int mask8(v8 a)
{
    return _mm256_movemask_pd(a.h[0]) | _mm256_movemask_pd(a.h[1]) << 4;
}
AVX2 static inline v8 blend8(v8 a, v8 b, v8 m)
{
    v8 r = {{_mm256_blendv_pd(a.h[0], b.h[0], m.h[0]), _mm256_blendv_pd(a.h[1], b.h[1], m.h[1])}};
    return r;
}
AVX2 static inline v8 load8(const double *p)
{
    v8 r = {{_mm256_loadu_pd(p), _mm256_loadu_pd(p + 4)}};
    return r;
}
AVX2 static inline void store8(double *p, v8 a)
{
    _mm256_storeu_pd(p, a.h[0]);
    _mm256_storeu_pd(p + 4, a.h[1]);
}
AVX2 static inline void load3x8(const double *p, v8 *x, v8 *y, v8 *z)
{
    load3(p, &x->h[0], &y->h[0], &z->h[0]);
    load3(p + 12, &x->h[1], &y->h[1], &z->h[1]);
}
AVX2 static inline void store3x8(double *p, v8 x, v8 y, v8 z, int nt)
{
    store3(p, x.h[0], y.h[0], z.h[0], nt);
    store3(p + 12, x.h[1], y.h[1], z.h[1], nt);
}
AVX2 static inline void load4x8(const double *p, v8 *w, v8 *x, v8 *y, v8 *z)
{
    load4(p, &w->h[0], &x->h[0], &y->h[0], &z->h[0]);
    load4(p + 16, &w->h[1], &x->h[1], &y->h[1], &z->h[1]);
}
AVX2 static inline void store4x8(double *p, v8 w, v8 x, v8 y, v8 z, int nt)
{
    store4(p, w.h[0], x.h[0], y.h[0], z.h[0], nt);
    store4(p + 16, w.h[1], x.h[1], y.h[1], z.h[1], nt);
}

/* Eight particles' k numbers each, copied from one set to the other. */
AVX2 static inline void copy8(double *out, const double *in, int k, int nt)
{
    for (int j = 0; j < 2 * k; j++) {
        put4(out + 4 * j, _mm256_loadu_pd(in + 4 * j), nt);
    }
}

/* damped() per lane: a - (x != 0 ? copysign(d |a|, x) : 0); != is true for NaN, as in C */
AVX2 static inline v8 damped8(v8 a, v8 x, v8 damp)
{
    const v8 sign = splat(-0.0);
    v8 m = mul(damp, vandnot(sign, a));
    v8 s = vor(vandnot(sign, m), vand(sign, x));
    v8 nz = V8_CMP(x, splat(0.0), _CMP_NEQ_UQ);
    return sub(a, vand(nz, s));
}

/* How many of the lanes of moving (bit j: lane j) have a sum that is not finite. */
AVX2 static inline int nonfinite8(v8 sum, int moving)
{
    v8 fin = V8_CMP(vandnot(splat(-0.0), sum), splat(INFINITY), _CMP_LT_OQ);
    int finite = mask8(fin) | (~moving & 0xff);
    return finite == 0xff ? 0 : 8 - __builtin_popcount((unsigned)finite);
}

/* The step's constants in vectors, made once per range: the stores into the state could alias
   *a, so read from it in the loop they would be reloaded every group. */
typedef struct consts8 {
    v8 dt, hdt, damp, g0, g1, g2, half_dt;
} consts8;

/* Particles i .. i + 7, those of the bits of moving (bit j: particle i + j) integrated, the
   others kept bit for bit (their lanes computed, then the old values blended back); returns how
   many were left non-finite. moving = 0xff (a constant at the call) compiles without blends.
   still (a constant at the call; with moving = 0xff and no energy booking only): the eight are
   still (still8), so only their translation is made: the spin's and the orientation's work
   would leave their bits as they are, and the non-finite test's sum leaves out its last term,
   w2 = +0, which changes no sum's finiteness. still = 2: the same, and the other set holds these
   spins and orientations already (a->same), so they are not copied either. wr = 0: the group's
   forces and torques are zero (a->force_mark), not read: the same +0 in the registers. */
AVX2 static inline __attribute__((always_inline)) int group8(const imp_dem_newton_args *a, const consts8 c, int i, int moving, int still, int wr, int nt, double *wgp, double *wdp, v8 *v2max)
{
    const v8 dt = c.dt, hdt = c.hdt, damp = c.damp, g0 = c.g0, g1 = c.g1, g2 = c.g2;
    const int all = moving == 0xff;
    v8 mv = splat(0.0);
    if (!all) {
        double bits[8];
        for (int j = 0; j < 8; j++) {
            uint64_t b = moving >> j & 1 ? ~(uint64_t)0 : 0;
            memcpy(bits + j, &b, sizeof b);
        }
        mv = load8(bits);
    }
    v8 vx, vy, vz, fx = splat(0.0), fy = fx, fz = fx;
    load3x8(a->vel + 3 * i, &vx, &vy, &vz);
    if (wr) {
        load3x8(a->force + 3 * i, &fx, &fy, &fz);
    }
    v8 im = load8(a->inv_mass + i);
    v8 a0 = add(mul(fx, im), g0), a1 = add(mul(fy, im), g1), a2 = add(mul(fz, im), g2);
    v8 ad0 = damped8(a0, add(vx, mul(hdt, a0)), damp);
    v8 ad1 = damped8(a1, add(vy, mul(hdt, a1)), damp);
    v8 ad2 = damped8(a2, add(vz, mul(hdt, a2)), damp);
    v8 ox = splat(0.0), oy = ox, oz = ox, ii = ox, l0 = ox, l1 = ox, l2 = ox;
    v8 ld0 = ox, ld1 = ox, ld2 = ox;
    if (!still) {  /* the spin */
        v8 tx = splat(0.0), ty = tx, tz = tx;
        load3x8(a->angvel + 3 * i, &ox, &oy, &oz);
        if (wr) {
            load3x8(a->torque + 3 * i, &tx, &ty, &tz);
        }
        ii = load8(a->inv_inertia + i);
        l0 = mul(tx, ii), l1 = mul(ty, ii), l2 = mul(tz, ii);
        ld0 = damped8(l0, add(ox, mul(hdt, l0)), damp);
        ld1 = damped8(l1, add(oy, mul(hdt, l1)), damp);
        ld2 = damped8(l2, add(oz, mul(hdt, l2)), damp);
    }
    if (a->track && !still) {
        /* the terms per lane here, their sums in particle order below */
        v8 m = load8(a->mass + i), inertia = vdiv(splat(1.0), ii);
        const v8 vk[3] = {vx, vy, vz}, ok[3] = {ox, oy, oz}, gk[3] = {g0, g1, g2};
        const v8 adk[3] = {ad0, ad1, ad2}, ak[3] = {a0, a1, a2};
        const v8 ldk[3] = {ld0, ld1, ld2}, lk[3] = {l0, l1, l2};
        double tg[3][8], td[3][8];
        for (int k = 0; k < 3; k++) {
            v8 vm = add(vk[k], mul(hdt, adk[k])), wm = add(ok[k], mul(hdt, ldk[k]));
            store8(tg[k], mul(mul(mul(m, gk[k]), vm), dt));
            v8 lin = mul(mul(m, sub(adk[k], ak[k])), vm);
            v8 rot = mul(mul(inertia, sub(ldk[k], lk[k])), wm);
            store8(td[k], mul(add(lin, rot), dt));
        }
        double wg = *wgp, wd = *wdp;
        for (int j = 0; j < 8; j++) {
            for (int k = 0; k < 3 && moving >> j & 1; k++) {
                wg += tg[k][j];
                wd -= td[k][j];
            }
        }
        *wgp = wg;
        *wdp = wd;
    }
    /* new values; the old ones in the lanes not moving */
#define KEEP(old, new) (all ? (new) : blend8((old), (new), mv))
    vx = KEEP(vx, add(vx, mul(dt, ad0)));
    vy = KEEP(vy, add(vy, mul(dt, ad1)));
    vz = KEEP(vz, add(vz, mul(dt, ad2)));
    store3x8(a->vel_out + 3 * i, vx, vy, vz, nt);
    *v2max = vmax(*v2max, add(add(mul(vx, vx), mul(vy, vy)), mul(vz, vz)));
    v8 xx, xy, xz;
    load3x8(a->pos + 3 * i, &xx, &xy, &xz);
    xx = KEEP(xx, add(xx, mul(dt, vx)));
    xy = KEEP(xy, add(xy, mul(dt, vy)));
    xz = KEEP(xz, add(xz, mul(dt, vz)));
    store3x8(a->pos_out + 3 * i, xx, xy, xz, nt);
    /* the non-finite test's sum (w2 its last term, below) */
    v8 sum = add(add(add(add(add(xx, xy), xz), vx), vy), vz);
    if (still) {  /* spins and orientations as they were (still = 2: in both sets already) */
        if (still == 1) {
            copy8(a->angvel_out + 3 * i, a->angvel + 3 * i, 3, nt);
            copy8(a->quat_out + 4 * i, a->quat + 4 * i, 4, nt);
        }
        return nonfinite8(sum, moving);
    }
    ox = KEEP(ox, add(ox, mul(dt, ld0)));
    oy = KEEP(oy, add(oy, mul(dt, ld1)));
    oz = KEEP(oz, add(oz, mul(dt, ld2)));
#undef KEEP
    store3x8(a->angvel_out + 3 * i, ox, oy, oz, nt);
    /* orientation, as in the portable kernel; lanes without spin keep their quaternion */
    v8 w2 = add(add(mul(ox, ox), mul(oy, oy)), mul(oz, oz));
    int bad = nonfinite8(add(sum, w2), moving);
    v8 spin = V8_CMP(w2, splat(0.0), _CMP_GT_OQ);
    if (!all) {
        spin = vand(spin, mv);
    }
    int spinning = mask8(spin);
    if (spinning == 0) {
        copy8(a->quat_out + 4 * i, a->quat + 4 * i, 4, nt);
        return bad;
    }
    v8 h2 = mul(mul(mul(splat(0.25), w2), dt), dt);
    const v8 one = splat(1.0);
    v8 ch = sub(one, mul(mul(h2, splat(0.5)),
                         sub(one, mul(mul(h2, splat(1.0 / 12.0)),
                                      sub(one, mul(mul(h2, splat(1.0 / 30.0)),
                                                   sub(one, mul(h2, splat(1.0 / 56.0)))))))));
    v8 k = mul(c.half_dt,
               sub(one, mul(mul(h2, splat(1.0 / 6.0)),
                            sub(one, mul(mul(h2, splat(1.0 / 20.0)),
                                         sub(one, mul(h2, splat(1.0 / 42.0))))))));
    int large = spinning & ~mask8(V8_CMP(h2, splat(1e-4), _CMP_LT_OQ));
    if (large) {
        double cw[8], kw[8], ww[8];
        store8(cw, ch);
        store8(kw, k);
        store8(ww, w2);
        for (int j = 0; j < 8; j++) {
            if (large >> j & 1) {
                turn_large(ww[j], a->dt, cw + j, kw + j);
            }
        }
        ch = load8(cw);
        k = load8(kw);
    }
    v8 rx = mul(k, ox), ry = mul(k, oy), rz = mul(k, oz);
    v8 qw, qx, qy, qz;
    load4x8(a->quat + 4 * i, &qw, &qx, &qy, &qz);
    v8 uw = sub(sub(sub(mul(ch, qw), mul(rx, qx)), mul(ry, qy)), mul(rz, qz));
    v8 ux = sub(add(add(mul(ch, qx), mul(rx, qw)), mul(ry, qz)), mul(rz, qy));
    v8 uy = add(add(sub(mul(ch, qy), mul(rx, qz)), mul(ry, qw)), mul(rz, qx));
    v8 uz = add(sub(add(mul(ch, qz), mul(rx, qy)), mul(ry, qx)), mul(rz, qw));
    v8 nn = add(add(add(mul(uw, uw), mul(ux, ux)), mul(uy, uy)), mul(uz, uz));
    v8 nq = sub(splat(1.5), mul(splat(0.5), nn));
    store4x8(a->quat_out + 4 * i, blend8(qw, mul(uw, nq), spin), blend8(qx, mul(ux, nq), spin),
           blend8(qy, mul(uy, nq), spin), blend8(qz, mul(uz, nq), spin), nt);
    return bad;
}

/* Whether particles i .. i + 7 are still: every bit of their spins 0, their torques 0 or -0 and
   their inverse inertias finite (a falling cloud's particles, and most of them while only the
   first layers land). group8 would then leave their spins' bits and orientations as they are:
   l = t ii = +-0, damped to itself (its x = w + hdt l is 0), w + dt l = +0 + (+-0) = +0 in
   every rounding to nearest, w2 = 0, no turn. Reads 48 bytes a particle, no transposes (24
   when wr = 0: the torques zero, a->force_mark, not read). */
AVX2 static inline int still8(const imp_dem_newton_args *a, int i, int wr)
{
    const __m256d sign = _mm256_set1_pd(-0.0);
    const double *w = a->angvel + 3 * i, *t = a->torque + 3 * i;
    __m256d acc = _mm256_setzero_pd();
    for (int k = 0; k < 6; k++) {
        acc = _mm256_or_pd(acc, _mm256_loadu_pd(w + 4 * k));
    }
    for (int k = 0; k < 6 && wr; k++) {
        acc = _mm256_or_pd(acc, _mm256_andnot_pd(sign, _mm256_loadu_pd(t + 4 * k)));
    }
    __m256i bits = _mm256_castpd_si256(acc);
    if (!_mm256_testz_si256(bits, bits)) {
        return 0;
    }
    v8 ii = vandnot(splat(-0.0), load8(a->inv_inertia + i));
    return mask8(V8_CMP(ii, splat(INFINITY), _CMP_LT_OQ)) == 0xff;
}

/* still8 for a group whose spins are known to be all bits 0 and whose inverse inertias are
   known to be finite (a->same): its torques 0 or -0. Reads 24 bytes a particle. */
AVX2 static inline int unturned8(const imp_dem_newton_args *a, int i)
{
    const __m256d sign = _mm256_set1_pd(-0.0);
    const double *t = a->torque + 3 * i;
    __m256d acc = _mm256_setzero_pd();
    for (int k = 0; k < 6; k++) {
        acc = _mm256_or_pd(acc, _mm256_andnot_pd(sign, _mm256_loadu_pd(t + 4 * k)));
    }
    __m256i bits = _mm256_castpd_si256(acc);
    return _mm256_testz_si256(bits, bits);
}

/* Which of particles i .. i + 7 move (bit j: particle i + j): not fixed, not a clump member. */
AVX2 static inline int moving8(const imp_dem_newton_args *a, int i)
{
    __m128i f = _mm_loadl_epi64((const __m128i *)(const void *)(a->fixed + i));
    int unfixed = _mm_movemask_epi8(_mm_cmpeq_epi8(f, _mm_setzero_si128())) & 0xff;
    __m256i c = _mm256_loadu_si256((const __m256i *)(const void *)(a->clump_of + i));
    return unfixed & _mm256_movemask_ps(_mm256_castsi256_ps(c));  /* sign bits: clump_of < 0 */
}

/* A falling group's constants: its accelerations and what the damping makes of them, the
   same for every particle of a group nothing pushed (a->force_mark 0: the force +0, times a
   finite inverse mass with its sign bit clear, +0, plus gravity), each as three vectors, the
   patterns of the components in 12 consecutive doubles ({0 1 2 0}, {1 2 0 1}, {2 0 1 2}). */
typedef struct fall8c {
    v4 acc[3], hdta[3], mabs[3];  /* a; hdt a; |damp |a||, damped8's m without its sign */
} fall8c;

AVX2 static fall8c fall_consts(const imp_dem_newton_args *a)
{
    double ac[3], h[3], m[3];
    for (int k = 0; k < 3; k++) {  /* group8's operations on a lane, on the constants */
        v4 ak = _mm256_add_pd(_mm256_setzero_pd(), _mm256_set1_pd(a->g[k]));
        v4 mk = _mm256_mul_pd(_mm256_set1_pd(a->damp), _mm256_andnot_pd(_mm256_set1_pd(-0.0), ak));
        ac[k] = _mm256_cvtsd_f64(ak);
        h[k] = _mm256_cvtsd_f64(_mm256_mul_pd(_mm256_set1_pd(a->hdt), ak));
        m[k] = _mm256_cvtsd_f64(_mm256_andnot_pd(_mm256_set1_pd(-0.0), mk));
    }
    fall8c c;
    for (int p = 0; p < 3; p++) {
        int k0 = p, k1 = (p + 1) % 3, k2 = (p + 2) % 3;
        c.acc[p] = _mm256_setr_pd(ac[k0], ac[k1], ac[k2], ac[k0]);
        c.hdta[p] = _mm256_setr_pd(h[k0], h[k1], h[k2], h[k0]);
        c.mabs[p] = _mm256_setr_pd(m[k0], m[k1], m[k2], m[k0]);
    }
    return c;
}

/* Whether the eight inverse masses from i are finite with their sign bits clear (times the +0
   of an unpushed group's force they give +0, fall8's premise). */
AVX2 static inline int fall_ok8(const imp_dem_newton_args *a, int i)
{
    v8 im = load8(a->inv_mass + i);
    return mask8(im) == 0 && mask8(V8_CMP(im, splat(INFINITY), _CMP_LT_OQ)) == 0xff;
}

/* group8 for eight still particles, all moving, of a group nothing pushed (wr = 0, fall_ok8):
   the translation only, on the state's own layout (no transposes: every lane's operations are
   group8's on the same numbers, the constants c in the components' patterns), the squares of
   the new velocities transposed for their sums (group8's, into the same lanes of v2max). The
   non-finite count: when every |x| and |v| is below 1e307 (their sum of absolute values per
   lane, NaN and infinities included) no particle's sum of six can overflow, so none is
   counted; else group8's sums, particle by particle (rare). still as group8's (1 or 2). */
AVX2 static inline __attribute__((always_inline)) int fall8(const imp_dem_newton_args *a,
                                                             const fall8c *c, v4 dt, int i,
                                                             int still, int nt, v8 *v2max)
{
    const v4 sign = _mm256_set1_pd(-0.0), zero = _mm256_setzero_pd();
    const double *vp = a->vel + 3 * i, *xp = a->pos + 3 * i;
    double *vo = a->vel_out + 3 * i, *xo = a->pos_out + 3 * i;
    v4 vn[6], xn[6], sum = zero;
    _Pragma("GCC unroll 6")  /* the vectors in registers, the patterns' indices constants */
    for (int j = 0; j < 6; j++) {
        const int p = j % 3;
        v4 v = _mm256_loadu_pd(vp + 4 * j);
        v4 x = _mm256_add_pd(v, c->hdta[p]);  /* damped8 */
        v4 s = _mm256_or_pd(c->mabs[p], _mm256_and_pd(sign, x));
        v4 nz = _mm256_cmp_pd(x, zero, _CMP_NEQ_UQ);
        v4 ad = _mm256_sub_pd(c->acc[p], _mm256_and_pd(nz, s));
        vn[j] = _mm256_add_pd(v, _mm256_mul_pd(dt, ad));
        put4(vo + 4 * j, vn[j], nt);
        xn[j] = _mm256_add_pd(_mm256_loadu_pd(xp + 4 * j), _mm256_mul_pd(dt, vn[j]));
        put4(xo + 4 * j, xn[j], nt);
        sum = _mm256_add_pd(sum, _mm256_andnot_pd(sign, vn[j]));
        sum = _mm256_add_pd(sum, _mm256_andnot_pd(sign, xn[j]));
    }
    _Pragma("GCC unroll 2")
    for (int h = 0; h < 2; h++) {
        v4 sx, sy, sz;
        tr3(_mm256_mul_pd(vn[3 * h], vn[3 * h]), _mm256_mul_pd(vn[3 * h + 1], vn[3 * h + 1]),
            _mm256_mul_pd(vn[3 * h + 2], vn[3 * h + 2]), &sx, &sy, &sz);
        v2max->h[h] = _mm256_max_pd(v2max->h[h], _mm256_add_pd(_mm256_add_pd(sx, sy), sz));
    }
    int bad = 0;
    if (_mm256_movemask_pd(_mm256_cmp_pd(sum, _mm256_set1_pd(1e307), _CMP_NLT_UQ)) != 0) {
        double xs[24], vs[24];
        for (int j = 0; j < 6; j++) {
            _mm256_storeu_pd(xs + 4 * j, xn[j]);
            _mm256_storeu_pd(vs + 4 * j, vn[j]);
        }
        for (int j = 0; j < 8; j++) {
            const double *xj = xs + 3 * j, *vj = vs + 3 * j;
            bad += !isfinite(xj[0] + xj[1] + xj[2] + vj[0] + vj[1] + vj[2]);
        }
    }
    if (still == 1) {
        copy8(a->angvel_out + 3 * i, a->angvel + 3 * i, 3, nt);
        copy8(a->quat_out + 4 * i, a->quat + 4 * i, 4, nt);
    }
    return bad;
}

/* Groups of eight with some particles not moving: out of line, so that the loop over the
   others stays small. */
AVX2 static __attribute__((noinline)) int group8_some(const imp_dem_newton_args *a, const consts8 *c, int i, int moving, int nt, double *wg, double *wd, v8 *v2max)
{
    return group8(a, *c, i, moving, 0, written(a, i >> 3), nt, wg, wd, v2max);
}

/* Groups of eight from i0 (the range's whole groups): all moving, the fast case (still ones
   translated only; with a->same, a still group's flag set, and the spins and orientations of
   one whose flag was already set not written: the other set holds them); some, with blends;
   none, copied; the flag cleared for all but the still. nt: a constant in each copy. Returns
   where the groups end. */
AVX2 static inline __attribute__((always_inline)) int groups(const imp_dem_newton_args *a, int i0, int i1, int nt, int *bad, double *wg, double *wd, double *v2p)
{
    const consts8 k8 = {splat(a->dt), splat(a->hdt), splat(a->damp), splat(a->g[0]),
                       splat(a->g[1]), splat(a->g[2]), mul(splat(0.5), splat(a->dt))};
    fall8c fc;  /* made at the first falling group */
    memset(&fc, 0, sizeof fc);
    int have_fc = 0;
    unsigned char *same = a->same;
    v8 v2max = splat(*v2p);
    int i = i0;
    for (; i + 8 <= i1; i += 8) {
        int moving = moving8(a, i);
        int known = same != NULL && same[i >> 3], wr = written(a, i >> 3);
        if (moving == 0xff && !a->track && (known ? !wr || unturned8(a, i) : still8(a, i, wr))) {
            const int fall = !wr && fall_ok8(a, i);
            if (fall && !have_fc) {
                fc = fall_consts(a);
                have_fc = 1;
            }
            if (known) {
                *bad += fall ? fall8(a, &fc, k8.dt.h[0], i, 2, nt, &v2max)
                             : group8(a, k8, i, 0xff, 2, wr, nt, wg, wd, &v2max);
            } else {
                *bad += fall ? fall8(a, &fc, k8.dt.h[0], i, 1, nt, &v2max)
                             : group8(a, k8, i, 0xff, 1, wr, nt, wg, wd, &v2max);
                if (same != NULL) {
                    same[i >> 3] = 1;
                }
            }
            continue;
        }
        if (same != NULL) {
            same[i >> 3] = 0;
        }
        if (moving == 0xff) {
            *bad += group8(a, k8, i, 0xff, 0, wr, nt, wg, wd, &v2max);
        } else if (moving != 0) {
            *bad += group8_some(a, &k8, i, moving, nt, wg, wd, &v2max);
        } else {
            copy8(a->pos_out + 3 * i, a->pos + 3 * i, 3, nt);
            copy8(a->vel_out + 3 * i, a->vel + 3 * i, 3, nt);
            copy8(a->angvel_out + 3 * i, a->angvel + 3 * i, 3, nt);
            copy8(a->quat_out + 4 * i, a->quat + 4 * i, 4, nt);
        }
    }
    double m[8];  /* the largest square of a velocity, over the lanes */
    store8(m, v2max);
    for (int j = 0; j < 8; j++) {
        *v2p = m[j] > *v2p ? m[j] : *v2p;
    }
    return i;
}

/* The groups, then a range's tail (shorter than 8) and a range shorter than 8 by the portable
   kernel (a group over the range's last eight would write the old values of the lanes already
   done into the other set); with marks or flags, a range's head up to a multiple of 8 too. With a->nt, the other set is written by non-temporal stores when
   its arrays and i0 allow 16-byte ones, then fenced (before other threads read it). */
AVX2 static int newton_avx2(const imp_dem_newton_args *a, int i0, int i1, double *wg, double *wd,
                            double *v2)
{
    int bad = 0, i;
    if ((i0 & 7) != 0 && (a->force_mark != NULL || a->same != NULL)) {
        /* up to the next multiple of 8 by the portable kernel: the groups are then the
           marks' and flags' groups (dem_step.c's chunks start there already) */
        i = (i0 | 7) + 1 < i1 ? (i0 | 7) + 1 : i1;
        forget(a, i0, i);
        bad += newton_portable(a, i0, i, wg, wd, v2);
        i0 = i;
    }
    if (i1 - i0 < 8) {
        forget(a, i0, i1);
        return bad + newton_portable(a, i0, i1, wg, wd, v2);
    }
    uintptr_t bases = (uintptr_t)(void *)a->pos_out | (uintptr_t)(void *)a->vel_out
                      | (uintptr_t)(void *)a->angvel_out | (uintptr_t)(void *)a->quat_out;
    if (a->nt && (bases & 15) == 0 && (i0 & 1) == 0) {
        i = groups(a, i0, i1, 1, &bad, wg, wd, v2);
        _mm_sfence();
    } else {
        i = groups(a, i0, i1, 0, &bad, wg, wd, v2);
    }
    if (i < i1) {  /* the same bits as a group's */
        forget(a, i, i1);
        bad += newton_portable(a, i, i1, wg, wd, v2);
    }
    return bad;
}

static int cpu_avx2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}
#else
static int cpu_avx2(void) { return 0; }
#endif

/* -1: not decided yet; 0: portable; 1: AVX2. Atomic: worlds may step in several threads. */
static atomic_int simd_mode = -1;

int imp_dem_newton_simd(void) { return imp_dem_simd_mode(&simd_mode, cpu_avx2); }

void imp_dem_newton_set_simd(int on)
{
    atomic_store_explicit(&simd_mode, on && cpu_avx2(), memory_order_relaxed);
}

int imp_dem_newton_range(const imp_dem_newton_args *a, int i0, int i1, double *wg, double *wd,
                         double *v2)
{
#if HAVE_AVX2_KERNEL
    if (imp_dem_newton_simd()) {
        return newton_avx2(a, i0, i1, wg, wd, v2);
    }
#endif
    forget(a, i0, i1);
    return newton_portable(a, i0, i1, wg, wd, v2);
}
