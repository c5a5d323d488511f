/* test_dem_newton_simd.c: the dem Newton kernel's two implementations (dem_newton.c: portable
   and AVX2) give the same bits on the same particles (fixed ones, clump members, zero, small and
   large spins, exact zeros in the damping's sign, NaN and infinite input, energy booking on and
   off, ranges not aligned to the vector groups, whole groups of eight without spin or torque
   and such groups broken by one lane; every particle of a range written into the other set,
   those not moved copied; groups whose forces and torques are marked unwritten, whatever their
   bytes, as groups whose forces and torques are zero); and both follow the closed forms of a damped
   free fall and a torque-free spin. Without AVX2 only the portable kernel runs (said so). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "dem_newton.h"
#include "rng.h"

enum { NMAX = 301 };

typedef struct state {
    int n;
    unsigned char fixed[NMAX];
    int clump_of[NMAX];
    double pos[3 * NMAX], vel[3 * NMAX], angvel[3 * NMAX], quat[4 * NMAX];
    /* the kernel's output set (dem_step.c swaps the two; here copied back after each call) */
    _Alignas(16) double pos_out[3 * NMAX];  /* 16-byte aligned: the non-temporal stores' */
    _Alignas(16) double vel_out[3 * NMAX];
    _Alignas(16) double angvel_out[3 * NMAX];
    _Alignas(16) double quat_out[4 * NMAX];
    double force[3 * NMAX], torque[3 * NMAX], inv_mass[NMAX], inv_inertia[NMAX], mass[NMAX];
} state;

static int nt_mode;  /* the kernel's non-temporal stores (args .nt) */
static const unsigned char *mark_mode;  /* the groups' force marks (args .force_mark) */

static imp_dem_newton_args args_of(state *s, double dt, double damp, int track)
{
    imp_dem_newton_args a = {
        .fixed = s->fixed, .clump_of = s->clump_of, .pos = s->pos, .vel = s->vel,
        .angvel = s->angvel, .quat = s->quat, .pos_out = s->pos_out, .vel_out = s->vel_out,
        .angvel_out = s->angvel_out, .quat_out = s->quat_out, .force = s->force, .torque = s->torque,
        .inv_mass = s->inv_mass, .inv_inertia = s->inv_inertia, .mass = s->mass,
        .g = {0.0, 0.0, -9.81}, .dt = dt, .hdt = 0.5 * dt, .damp = damp, .track = track,
        .nt = nt_mode, .force_mark = mark_mode};
    return a;
}

/* The kernel over [i0, i1) into the output set, first filled with NaN bits there (every
   particle of the range must be written, moved or copied), then the new state copied back. */
static int newton_range(state *s, const imp_dem_newton_args *a, int i0, int i1, double *wg,
                        double *wd)
{
    double *out[4] = {s->pos_out, s->vel_out, s->angvel_out, s->quat_out};
    double *in[4] = {s->pos, s->vel, s->angvel, s->quat};
    const size_t width[4] = {3, 3, 3, 4};
    for (int k = 0; k < 4; k++) {
        memset(out[k] + width[k] * (size_t)i0, 0xff, width[k] * (size_t)(i1 - i0) * sizeof(double));
    }
    double v2 = 0.0;
    int bad = imp_dem_newton_range(a, i0, i1, wg, wd, &v2);
    for (int k = 0; k < 4; k++) {
        memcpy(in[k] + width[k] * (size_t)i0, out[k] + width[k] * (size_t)i0,
               width[k] * (size_t)(i1 - i0) * sizeof(double));
    }
    return bad;
}

/* The new state (the *_out arrays) made the state, as imp_dem_swap_sets would */
static void swap_out(state *s)
{
    memcpy(s->pos, s->pos_out, sizeof s->pos);
    memcpy(s->vel, s->vel_out, sizeof s->vel);
    memcpy(s->angvel, s->angvel_out, sizeof s->angvel);
    memcpy(s->quat, s->quat_out, sizeof s->quat);
}

static double sym(imp_rng *r) { return 2.0 * imp_rng_uniform(r) - 1.0; }

/* A varied population: a few fixed particles and a whole group of eight of them, a clump of
   13 members (groups of eight partly moving: the portable kernel's), about every
   5th without spin or torque, every 7th spinning fast (the turn's libm branch), the others
   slow; some components exactly 0 or -0 (the damping's sgn(0) = 0); with nonfinite, NaN and
   infinities in a few (without: energy sums that stay finite, so their rounding is compared). */
static void fill(state *s, int n, uint64_t seed, int nonfinite)
{
    imp_rng r;
    imp_rng_seed(&r, seed);
    memset(s, 0, sizeof *s);
    s->n = n;
    for (int i = 0; i < n; i++) {
        s->fixed[i] = (unsigned char)(i == 3 || (i >= 72 && i < 80) || i == 101 || i == 200);
        s->clump_of[i] = i >= 40 && i < 53 ? 0 : -1;
        double m = 0.01 + 0.01 * imp_rng_uniform(&r);
        s->mass[i] = m;
        s->inv_mass[i] = 1.0 / m;
        s->inv_inertia[i] = 1.0 / (0.4 * m * 1e-4);
        double spin = i % 7 == 0 ? 3e3 : 10.0;
        double qn = 0.0;
        for (int k = 0; k < 4; k++) {
            s->quat[4 * i + k] = sym(&r);
            qn += s->quat[4 * i + k] * s->quat[4 * i + k];
        }
        for (int k = 0; k < 4; k++) {
            s->quat[4 * i + k] /= sqrt(qn);
        }
        for (int k = 0; k < 3; k++) {
            s->pos[3 * i + k] = sym(&r);
            s->vel[3 * i + k] = sym(&r);
            s->force[3 * i + k] = 0.1 * sym(&r);
            s->angvel[3 * i + k] = i % 5 == 1 ? 0.0 : spin * sym(&r);
            s->torque[3 * i + k] = i % 5 == 1 ? 0.0 : 1e-6 * sym(&r);
        }
        if (i % 11 == 2) {  /* x and y: no force, no velocity: the damping's x is 0 */
            s->force[3 * i] = s->vel[3 * i] = 0.0;
            s->force[3 * i + 1] = -0.0, s->vel[3 * i + 1] = -0.0;
            s->torque[3 * i + 2] = s->angvel[3 * i + 2] = 0.0;
        }
    }
    if (!nonfinite) {
        return;
    }
    const double nan = NAN, inf = INFINITY;
    s->force[3 * 17 + 1] = nan;
    s->vel[3 * 23] = inf;
    s->quat[4 * 29 + 2] = nan;
    s->angvel[3 * 31 + 1] = nan;
    s->torque[3 * 33] = -inf;
    s->pos[3 * 60 + 2] = -nan;
    s->angvel[3 * 61] = inf;
}

/* one step of particles [i0, i1) in the given pieces (as the chunks of imp_dem_newton) */
static int run(state *s, int simd, const int *cuts, int ncuts, int track, double e[2])
{
    imp_dem_newton_set_simd(simd);
    imp_dem_newton_args a = args_of(s, 1e-3, 0.2, track);
    int bad = 0;
    e[0] = e[1] = 0.0;
    for (int c = 0; c + 1 < ncuts; c++) {
        bad += newton_range(s, &a, cuts[c], cuts[c + 1], &e[0], &e[1]);
    }
    return bad;
}

static int same_state(const state *a, const state *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

static int has_avx2(void)
{
    imp_dem_newton_set_simd(1);
    int on = imp_dem_newton_simd();
    imp_dem_newton_set_simd(0);
    return on;
}

static state s_port, s_simd;

/* 5 steps of both kernels from the same state, over the given pieces: equal bits everywhere
   (state, non-finite count, energies) */
static int compare_paths(const int *cuts, int ncuts, int track, uint64_t seed, int nonfinite)
{
    fill(&s_port, NMAX, seed, nonfinite);
    s_simd = s_port;
    for (int step = 0; step < 5; step++) {
        double ep[2], es[2];
        int bp = run(&s_port, 0, cuts, ncuts, track, ep);
        int bs = run(&s_simd, 1, cuts, ncuts, track, es);
        if (bp != bs || memcmp(ep, es, sizeof ep) != 0 || !same_state(&s_port, &s_simd)) {
            fprintf(stderr, "seed %d step %d: bad %d vs %d, energies %.17g %.17g vs %.17g %.17g\n",
                    (int)seed, step, bp, bs, ep[0], ep[1], es[0], es[1]);
            return 0;
        }
    }
    return 1;
}

TEST(same_bits_whole_range)
{
    if (!has_avx2()) {
        printf("test_dem_newton_simd: no AVX2 kernel (CPU or build): the portable one only\n");
        return;
    }
    const int cuts[] = {0, NMAX};
    CHECK(compare_paths(cuts, 2, 0, 1, 1));
    CHECK(compare_paths(cuts, 2, 1, 2, 1));
    CHECK(compare_paths(cuts, 2, 1, 3, 0));
}

TEST(same_bits_chunks)
{
    if (!has_avx2()) {
        return;
    }
    /* imp_dem_newton's chunks of 128, and pieces starting off the groups of eight */
    const int chunks[] = {0, 128, 256, NMAX};
    const int odd[] = {0, 3, 21, 22, 150, 157, NMAX};
    CHECK(compare_paths(chunks, 4, 0, 3, 1));
    CHECK(compare_paths(odd, 7, 0, 4, 1));
    CHECK(compare_paths(odd, 7, 1, 5, 0));
}

/* The non-finite count: the moving particles whose position, velocity or spin (its square,
   which turns the orientation) became non-finite (the NaN force of 17, the infinite velocity
   of 23, the NaN spin of 31, the infinite torque of 33, the NaN position of 60, the infinite
   spin of 61), worked out from the input, not from the kernel. Fixed particles and clump members are left alone. */
TEST(nonfinite_count_and_skipped)
{
    for (int simd = 0; simd <= 1; simd++) {
        fill(&s_port, NMAX, 7, 1);
        state before = s_port;
        const int cuts[] = {0, NMAX};
        double e[2];
        int bad = run(&s_port, simd, cuts, 2, 0, e);
        CHECK(bad == 6);
        for (int i = 0; i < NMAX; i++) {
            if (before.fixed[i] || before.clump_of[i] >= 0) {
                CHECK(memcmp(s_port.pos + 3 * i, before.pos + 3 * i, 3 * sizeof(double)) == 0);
                CHECK(memcmp(s_port.quat + 4 * i, before.quat + 4 * i, 4 * sizeof(double)) == 0);
                CHECK(memcmp(s_port.vel + 3 * i, before.vel + 3 * i, 3 * sizeof(double)) == 0);
            }
        }
        /* no spin: the orientation is kept bit for bit */
        CHECK(memcmp(s_port.quat + 4 * 1, before.quat + 4 * 1, 4 * sizeof(double)) == 0);
    }
}

/* Whole groups of eight without spin (every bit 0) or torque (0 or -0), the falling cloud's
   case, which the AVX2 kernel integrates without the rotation: the same bits as the portable
   kernel, the spin's bits still 0 and the orientation unchanged after each step; and groups
   that one lane breaks (a spin of -0, a torque of 1e-300, a NaN torque, an infinite inverse
   inertia with no torque, a fixed particle), which must take the whole path. */
static void make_quiet(state *s)
{
    for (int i = 0; i < s->n; i++) {
        for (int k = 0; k < 3; k++) {
            s->angvel[3 * i + k] = 0.0;
            s->torque[3 * i + k] = i % 3 == 0 ? -0.0 : 0.0;
        }
    }
    s->angvel[3 * 9 + 1] = -0.0;       /* group 8..15 */
    s->torque[3 * 18 + 2] = 1e-300;    /* group 16..23 */
    s->torque[3 * 26] = NAN;           /* group 24..31 */
    s->inv_inertia[36] = INFINITY;     /* group 32..39: 0 x inf is NaN */
    s->fixed[60] = 1;                  /* group 56..63 */
}

TEST(quiet_groups_same_bits)
{
    if (!has_avx2()) {
        return;
    }
    const int whole[] = {0, NMAX}, odd[] = {0, 3, 21, 22, 150, 157, NMAX};
    for (int track = 0; track <= 1; track++) {
        for (int piece = 0; piece < 2; piece++) {
            fill(&s_port, NMAX, 11 + (uint64_t)track, 0);
            make_quiet(&s_port);
            s_simd = s_port;
            state before = s_port;
            for (int step = 0; step < 5; step++) {
                double ep[2], es[2];
                int bp = run(&s_port, 0, piece ? odd : whole, piece ? 7 : 2, track, ep);
                int bs = run(&s_simd, 1, piece ? odd : whole, piece ? 7 : 2, track, es);
                CHECK(bp == bs && memcmp(ep, es, sizeof ep) == 0);
                CHECK(same_state(&s_port, &s_simd));
            }
            /* particle 100 (group 96..103: quiet) still without spin, its orientation kept */
            CHECK(memcmp(s_simd.angvel + 3 * 100, before.angvel + 3 * 100, 3 * sizeof(double)) == 0);
            CHECK(memcmp(s_simd.quat + 4 * 100, before.quat + 4 * 100, 4 * sizeof(double)) == 0);
        }
    }
}

/* Groups marked unwritten (args .force_mark 0: the dem's groups no interaction wrote since the
   reset) with NaN, infinite and non-zero bytes in their forces and torques give, with either
   kernel, the bits of the same state with those forces and torques +0 and no marks: every other
   group of three unwritten, quiet groups (no spin, no torque) among them and not. */
TEST(unwritten_groups_same_bits)
{
    static state s_ref;
    enum { NG = NMAX / 8 + 1 };
    unsigned char mark[NG];
    for (int g = 0; g < NG; g++) {
        mark[g] = (unsigned char)(g % 3 != 1);
    }
    const int whole[] = {0, NMAX}, odd[] = {0, 3, 21, 22, 150, 157, NMAX};
    for (int c = 0; c < 8; c++) {
        const int simd = c & 1, track = c >> 1 & 1, piece = c >> 2;
        fill(&s_ref, NMAX, 31 + (uint64_t)c, 0);
        if (c & 2) {
            make_quiet(&s_ref);
        }
        s_port = s_ref;
        for (int i = 0; i < NMAX; i++) {
            for (int k = 0; k < 3 && !mark[i >> 3]; k++) {
                s_ref.force[3 * i + k] = s_ref.torque[3 * i + k] = 0.0;
                s_port.force[3 * i + k] = k == 0 ? NAN : k == 1 ? -INFINITY : 1.0;
                s_port.torque[3 * i + k] = k == 0 ? 1e300 : NAN;
            }
        }
        for (int step = 0; step < 3; step++) {
            double e0[2], e1[2];
            mark_mode = NULL;
            int b0 = run(&s_ref, simd, piece ? odd : whole, piece ? 7 : 2, track, e0);
            mark_mode = mark;
            int b1 = run(&s_port, simd, piece ? odd : whole, piece ? 7 : 2, track, e1);
            mark_mode = NULL;
            CHECK(b0 == b1 && memcmp(e0, e1, sizeof e0) == 0);
            CHECK(memcmp(s_ref.pos, s_port.pos, sizeof s_ref.pos) == 0);
            CHECK(memcmp(s_ref.vel, s_port.vel, sizeof s_ref.vel) == 0);
            CHECK(memcmp(s_ref.angvel, s_port.angvel, sizeof s_ref.angvel) == 0);
            CHECK(memcmp(s_ref.quat, s_port.quat, sizeof s_ref.quat) == 0);
        }
    }
}

/* Damped free fall from rest: a = (1 - d) g every step (velocity and gravity agree in sign),
   v_n = n dt (1 - d) g, z_n = z_0 + dt^2 (1 - d) g n (n + 1) / 2. A torque-free spin w turns
   the orientation by |w| n dt about w: q_n = {cos(h), sin(h) w/|w|} q_0, h = |w| n dt / 2, for
   a slow spin (the Taylor branch) and a fast one (libm). */
TEST(closed_forms)
{
    const double dt = 1e-3, d = 0.2, g = -9.81;
    const double spins[2] = {7.0, 900.0};  /* h = |w| dt / 2: 3.5e-3 and 0.45 per step */
    for (int simd = 0; simd <= 1; simd++) {
        memset(&s_port, 0, sizeof s_port);
        s_port.n = 16;
        for (int i = 0; i < 16; i++) {
            s_port.clump_of[i] = -1;
            s_port.mass[i] = s_port.inv_mass[i] = s_port.inv_inertia[i] = 1.0;
            s_port.quat[4 * i] = 1.0;
            s_port.angvel[3 * i + i % 3] = spins[i % 2];
        }
        imp_dem_newton_set_simd(simd);
        imp_dem_newton_args a = args_of(&s_port, dt, d, 0);
        const int steps = 1000;
        double wg = 0.0, wd = 0.0;
        for (int n = 0; n < steps; n++) {
            CHECK(newton_range(&s_port, &a, 0, 16, &wg, &wd) == 0);
        }
        for (int i = 0; i < 16; i++) {
            double n = steps, ad = (1.0 - d) * g;
            CHECK_NEAR(s_port.vel[3 * i + 2], n * dt * ad, 1e-11);
            CHECK_NEAR(s_port.pos[3 * i + 2], dt * dt * ad * n * (n + 1) / 2, 1e-11);
            double h = 0.5 * spins[i % 2] * n * dt;
            double want[4] = {cos(h), 0.0, 0.0, 0.0};
            want[1 + i % 3] = sin(h);
            for (int k = 0; k < 4; k++) {
                CHECK_NEAR(s_port.quat[4 * i + k], want[k], 1e-12);
            }
        }
    }
}

/* The AVX2 kernel writing the other set by non-temporal stores (large n, dem_step.c) gives the
   bits of its ordinary stores (ranges from even and odd starts: the latter fall back to them). */
TEST(nontemporal_same_bits)
{
    const int cuts[] = {0, 128, 256, 301}, odd[] = {0, 5, 133, 301};
    for (int c = 0; c < 2; c++) {
        fill(&s_port, NMAX, 77 + (uint64_t)c, c);
        s_simd = s_port;
        for (int step = 0; step < 3; step++) {
            double e0[2], e1[2];
            nt_mode = 0;
            int b0 = run(&s_port, 1, c ? odd : cuts, 4, 0, e0);
            nt_mode = 1;
            int b1 = run(&s_simd, 1, c ? odd : cuts, 4, 0, e1);
            nt_mode = 0;
            CHECK(b0 == b1 && memcmp(e0, e1, sizeof e0) == 0 && same_state(&s_port, &s_simd));
        }
    }
}

/* Falling groups (no spin, no torque, forces marked unwritten: the AVX2 kernel's translation on
   the state's own layout, fall8) give the portable kernel's bits and non-finite count, with
   gravity with a -0 component or not, with the groups' spin_same flags or not, whole and odd
   ranges: among them an infinite inverse mass (0 x inf is NaN), -0 and +0 ones, positions
   whose sum of six overflows (counted), a NaN velocity, an infinite position, a velocity whose
   square overflows; a written group in every four. */
TEST(falling_groups_same_bits)
{
    if (!has_avx2()) {
        return;
    }
    enum { NG = NMAX / 8 + 1 };
    unsigned char mark[NG], same[NG];
    for (int g = 0; g < NG; g++) {
        mark[g] = (unsigned char)(g % 4 == 3);
    }
    const int whole[] = {0, NMAX}, odd[] = {0, 3, 21, 22, 150, 157, NMAX};
    for (int c = 0; c < 8; c++) {
        const int negzero = c & 1, flags = c >> 1 & 1, piece = c >> 2;
        fill(&s_port, NMAX, 51 + (uint64_t)c, 0);
        make_quiet(&s_port);
        s_port.inv_mass[66] = INFINITY;
        s_port.inv_mass[90] = -0.0;
        s_port.inv_mass[97] = 0.0;
        s_port.pos[3 * 105] = s_port.pos[3 * 105 + 1] = 1.5e308;
        s_port.vel[3 * 113 + 2] = NAN;
        s_port.pos[3 * 121] = -INFINITY;
        s_port.vel[3 * 130] = 1e200;
        for (int i = 0; i < NMAX; i++) {
            for (int k = 0; k < 3 && !mark[i >> 3]; k++) {
                s_port.force[3 * i + k] = k == 0 ? NAN : 1.0;
                s_port.torque[3 * i + k] = k == 1 ? -INFINITY : 1e300;
            }
        }
        s_simd = s_port;
        memset(same, 0, sizeof same);
        const int *cuts = piece ? odd : whole, ncuts = piece ? 7 : 2;
        for (int step = 0; step < 4; step++) {
            int bad[2] = {0, 0};
            double v2[2] = {0.0, 0.0};
            for (int k = 0; k < 2; k++) {
                state *st = k ? &s_simd : &s_port;
                imp_dem_newton_set_simd(k);
                imp_dem_newton_args a = args_of(st, 1e-3, 0.2, 0);
                a.force_mark = mark;
                a.g[0] = negzero ? -0.0 : 0.0;
                a.same = k && flags ? same : NULL;
                for (int j = 0; j + 1 < ncuts; j++) {
                    double wg = 0.0, wd = 0.0, v2j = 0.0;
                    bad[k] += imp_dem_newton_range(&a, cuts[j], cuts[j + 1], &wg, &wd, &v2j);
                    v2[k] = v2j > v2[k] ? v2j : v2[k];
                }
                swap_out(st);
            }
            CHECK(bad[0] == bad[1]);
            CHECK(memcmp(&v2[0], &v2[1], sizeof v2[0]) == 0);
            CHECK(same_state(&s_port, &s_simd));
        }
        CHECK(s_port.vel[3 * 113 + 2] != s_port.vel[3 * 113 + 2]);  /* the NaN went through */
    }
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(same_bits_whole_range);
    RUN(same_bits_chunks);
    RUN(nonfinite_count_and_skipped);
    RUN(closed_forms);
    RUN(quiet_groups_same_bits);
    RUN(nontemporal_same_bits);
    RUN(unwritten_groups_same_bits);
    RUN(falling_groups_same_bits);
    imp_dem_newton_set_simd(1);
    return CHECK_END("dem_newton_simd");
}
