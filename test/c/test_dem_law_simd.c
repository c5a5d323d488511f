/* test_dem_law_simd.c: the interaction loop's AVX2 path (dem_law_avx2.c) against its portable
   path (dem_law.c): the same scene stepped twice, once on each, must give the same bits in
   every particle's position, velocity, angular velocity, force and torque, in every
   interaction's state, and in the energy bookkeeping. The scenes mix what the AVX2 path does
   (real sphere/sphere and wall/sphere contacts, sliding in some lanes of a group of four and
   not in others) with what it gives back to the portable path (fresh contacts, gaps under
   never_erase and distant interactions, facets, Hertz-Mindlin), so both the groups it keeps
   and the groups it returns are exercised. On a processor without AVX2 both runs take the
   portable path (the test then only checks that the switch is harmless). And the blocks' sorts
   kept between steps (dem_law.c: run_block, compared with the hot copy only in blocks marked
   dirty) against sorts made afresh at every step: the same bits. */
#include "check.h"

#include <stdint.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "dem.h"
#include "dem_law.h"
#include "shape3d.h"
#include "world_internal.h"

typedef struct scene_opts {
    int law, never_erase, facet, threads;
    double interaction_radius, friction_angle;
    int periodic;  /* no walls nor gravity: a sheared periodic cell (dem_cell.c) */
    int untracked;  /* the energy not booked (the losses not made) */
    int no_tangential_damping;  /* viscoelastic: without the tangential dashpot */
    int fixed_every;  /* > 0: every fixed_every-th sphere fixed (the reduced mass's cases) */
} scene_opts;

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static double uniform(uint32_t *s, double lo, double hi)
{
    return lo + (hi - lo) * (double)lcg(s) / 16777216.0;
}

static void add_fixed(imp_world *w, imp_shape *s, double x, double y, double z)
{
    imp_body_def bd = imp_body_default_def(3);
    bd.shape = s;
    bd.fixed = 1;
    bd.mass = 1.0;
    bd.state[0] = x, bd.state[1] = y, bd.state[2] = z;
    imp_world_add_body(w, &bd);
    imp_shape_release(s);
}

/* 6 x 6 x 8 spheres of radii 4..6 mm with random velocities and spins falling into a box of
   four walls and a tilted floor (and a facet across a corner), dt half the P-wave step */
static imp_world *scene(const scene_opts *o)
{
    imp_world_def def = imp_world_default_def(3);
    def.strategy = IMP_STRATEGY_DEM;
    def.gravity[0] = def.gravity[1] = 0.0;
    def.gravity[2] = o->periodic ? 0.0 : -9.81;
    imp_world *w = imp_world_new(&def);
    if (w == NULL) {
        return NULL;
    }
    const double L = 0.065;
    const double walls[5][6] = {{0.2, 0.1, 1, 0, 0, 0}, {1, 0, 0, 0, 0, 0}, {-1, 0, 0, L, 0, 0},
                                {0, 1, 0, 0, 0, 0}, {0, -1, 0, 0, L, 0}};
    for (int k = 0; k < 5 && !o->periodic; k++) {
        add_fixed(w, imp_shape3d_wall(walls[k]), walls[k][3], walls[k][4], walls[k][5]);
    }
    if (o->facet) {  /* across the corner x = y = 0, a little above the floor */
        const double v[9] = {-0.02, -0.01, 0.0, 0.04, -0.01, 0.0, -0.02, 0.04, 0.0};
        add_fixed(w, imp_dem_facet_shape(v), 0.0, 0.0, 0.012);
    }
    uint32_t seed = 12345u;
    for (int i = 0; i < 288; i++) {
        int ix = i % 6, iy = (i / 6) % 6, iz = i / 36;
        imp_body_def bd = imp_body_default_def(3);
        bd.shape = imp_shape3d_sphere(uniform(&seed, 0.004, 0.006));
        bd.density = 2600.0;
        bd.fixed = o->fixed_every > 0 && i % o->fixed_every == 3;
        bd.state[0] = 0.006 + ix * 0.0105 + uniform(&seed, -0.0005, 0.0005);
        bd.state[1] = 0.006 + iy * 0.0105 + uniform(&seed, -0.0005, 0.0005);
        bd.state[2] = (o->periodic ? 0.006 : 0.02) + iz * 0.0105;
        for (int k = 0; k < 3; k++) {
            bd.state[IMP_VEL_3D + k] = uniform(&seed, -0.3, 0.3);
            bd.state[IMP_VEL_3D + 3 + k] = uniform(&seed, -40.0, 40.0);
            if (bd.fixed) {
                bd.state[IMP_VEL_3D + k] = bd.state[IMP_VEL_3D + 3 + k] = 0.0;
            }
        }
        imp_world_add_body(w, &bd);
        imp_shape_release(bd.shape);
    }
    if (imp_dem_sync(w) != IMP_OK) {
        imp_world_free(w);
        return NULL;
    }
    imp_dem *d = w->dem;
    d->p.young = 1e7;
    d->p.ks_ratio = 0.3;
    d->p.friction_angle = o->friction_angle;
    d->p.damping = 0.1;
    d->p.law = o->law;
    d->p.never_erase = o->never_erase;
    d->p.interaction_radius = o->interaction_radius;
    d->p.track_energy = !o->untracked;
    d->p.tangential_damping = !o->no_tangential_damping;
    d->p.en = 0.6;
    d->built = 0;
    if (imp_dem_sync(w) != IMP_OK) {
        imp_world_free(w);
        return NULL;
    }
    if (o->periodic) {  /* the lattice's cell, sheared in x along y */
        const double h[9] = {0.063, 0, 0, 0, 0.063, 0, 0, 0, 0.084};
        const double grad[9] = {0, 20.0, 0, 0, 0, 0, 0, 0, -2.0};
        if (imp_dem_cell_set(d, h, grad) != 0) {
            imp_world_free(w);
            return NULL;
        }
    }
    imp_world_set_dt(w, 0.5 * imp_dem_p_wave_dt(d));
    return w;
}

/* bit equality of the two worlds' dem states; the same collider runs (the collider's
   unchanged-boxes test also takes the AVX2 path with the law: dem_collide.c) */
static int same_bits(const imp_dem *a, const imp_dem *b)
{
    size_t v = 3 * (size_t)a->n * sizeof(double);
    if (a->n != b->n || a->ninter != b->ninter || a->collider_runs != b->collider_runs
        || memcmp(a->pos, b->pos, v) != 0
        || memcmp(a->vel, b->vel, v) != 0 || memcmp(a->angvel, b->angvel, v) != 0
        || memcmp(a->force, b->force, v) != 0 || memcmp(a->torque, b->torque, v) != 0
        || memcmp(&a->energy, &b->energy, sizeof a->energy) != 0) {
        return 0;
    }
    return memcmp(a->inter, b->inter, (size_t)a->ninter * sizeof *a->inter) == 0;
}

typedef struct tally {
    int real, sliding, gaps, across;  /* across: real ones with a periodic shift */
    int lines;  /* the most cache lines of 64 bytes that one interaction's law runs (its first
                   96 bytes) span: 2 in an array aligned to 64 bytes with 192-byte records (the
                   AVX2 law reads the first only while d->derived holds) */
} tally;

/* what the scene now holds: real contacts, sliding ones, real ones with a gap */
static tally count(const imp_dem *d)
{
    tally t = {0, 0, 0, 0, 0};
    for (int k = 0; k < d->ninter; k++) {
        const imp_dem_inter *I = &d->inter[k];
        uintptr_t first = (uintptr_t)I / 64, last = ((uintptr_t)I + 95) / 64;
        t.lines = (int)(last - first + 1) > t.lines ? (int)(last - first + 1) : t.lines;
        if (!I->real) {
            continue;
        }
        t.real++;
        t.across += (I->cell[0] | I->cell[1] | I->cell[2]) != 0;
        t.gaps += I->un < 0.0;
        double fs = sqrt(I->fs[0] * I->fs[0] + I->fs[1] * I->fs[1] + I->fs[2] * I->fs[2]);
        t.sliding += I->fn > 0.0 && fs >= I->mu * I->fn * (1.0 - 1e-12);
    }
    return t;
}

/* 1 when every block not marked dirty has a kept sort made from its hot copy as it is now
   (what lets the loop leave out the comparison) */
static int clean_blocks_kept(const imp_dem *d)
{
    for (int b = 0; b * IMP_DEM_BLOCK < d->ninter && b < d->sorted_cap; b++) {
        const imp_dem_sorted *s = &d->sorted[b];
        int k0 = b * IMP_DEM_BLOCK;
        int k1 = k0 + IMP_DEM_BLOCK < d->ninter ? k0 + IMP_DEM_BLOCK : d->ninter;
        if (!d->hot_dirty[b] && s->k1 == k1
            && memcmp(s->hot, d->hot + 3 * k0, 3 * (size_t)(k1 - k0) * sizeof *d->hot) != 0) {
            return 0;
        }
    }
    return 1;
}

/* derived_bits' changes between steps, made in both worlds: at step change_mu the friction
   angle raised (the old contacts keep their mu: the AVX2 law cannot make it then); at step
   change_kn one real interaction's kn doubled as a load could write it (the check finds it);
   derived_steps[1 + d->derived]: w[0]'s steps in each state of d->derived (dem.h) */
static int change_mu, change_kn, derived_steps[3];
/* viscoelastic: at step change_en the restitution changed under the contacts (their cn0 kept),
   at track_off and track_on the energy book switched off and on (the kept dashpot forces,
   dem.h: visc_stale) */
static int change_en, track_off, track_on;

static void change(imp_world *w, int s)
{
    imp_dem *d = w->dem;
    if (s == change_en) {
        d->p.en = 0.4;
    }
    if (s == track_off) {
        d->p.track_energy = 0;
    }
    if (s == track_on) {
        d->p.track_energy = 1;
    }
    if (s == change_mu) {
        d->p.friction_angle += 0.3;
    }
    if (s == change_kn) {
        int k = d->ninter / 3;
        for (; k < d->ninter && !d->inter[k].real; k++) {
        }
        if (k < d->ninter) {
            d->inter[k].kn *= 2.0;
            d->derived = 0;
        }
    }
}

/* steps both worlds (w[0] AVX2 when available, w[1] portable), comparing bits every 50 steps;
   returns the step of the first difference, or -1; accumulates the tallies seen. fresh: both
   on the same path instead, w[1] with its blocks' kept sorts dropped before every step (every
   block sorted afresh), an erase requested from outside the loop every 25 steps in both (a
   hot copy written between steps), bits and w[0]'s clean blocks checked at every step */
static int compare_runs(const scene_opts *o, int steps, int fresh, tally *seen)
{
#ifdef _OPENMP
    omp_set_num_threads(o->threads);  /* 2: the AVX2 path in the blocks run in parallel */
#endif
    imp_world *w[2] = {scene(o), scene(o)};
    int bad = -2;
    if (w[0] != NULL && w[1] != NULL) {
        bad = -1;
        for (int s = 1; s <= steps && bad < 0; s++) {
            for (int b = 0; fresh && b < w[1]->dem->sorted_cap; b++) {
                w[1]->dem->sorted[b].k1 = -1;  /* invalid: sorted again */
            }
            for (int i = 0; i < 2 && fresh && s % 25 == 0; i++) {
                imp_dem *d = w[i]->dem;
                int k = d->ninter / 2;
                for (; k < d->ninter && !d->inter[k].real; k++) {
                }
                if (k < d->ninter) {
                    imp_dem_request_erase(d, k);
                }
            }
            for (int i = 0; i < 2; i++) {
                change(w[i], s);
                imp_dem_law_set_simd(fresh || i == 0);
                if (imp_world_step(w[i]) != IMP_OK) {
                    bad = s;
                }
            }
            derived_steps[1 + w[0]->dem->derived]++;
            if (fresh || s % 50 == 0 || s == steps) {
                bad = bad < 0 && !same_bits(w[0]->dem, w[1]->dem) ? s : bad;
                bad = bad < 0 && fresh && !clean_blocks_kept(w[0]->dem) ? s : bad;
                tally t = count(w[0]->dem);
                seen->real = t.real > seen->real ? t.real : seen->real;
                seen->sliding = t.sliding > seen->sliding ? t.sliding : seen->sliding;
                seen->gaps = t.gaps > seen->gaps ? t.gaps : seen->gaps;
                seen->across = t.across > seen->across ? t.across : seen->across;
                seen->lines = t.lines > seen->lines ? t.lines : seen->lines;
            }
        }
    }
    imp_world_free(w[0]);
    imp_world_free(w[1]);
    imp_dem_law_set_simd(1);
#ifdef _OPENMP
    omp_set_num_threads(1);
#endif
    return bad;
}

/* the kept sorts: contacts made and ended by the laws (gaps, a facet: the portable path's
   fresh contacts), pairs made and erased by the collider, erases requested from outside */
TEST(kept_sorts_bits)
{
    scene_opts o = {IMP_DEM_LAW_LINEAR, 0, 1, 1, 1.3, 0.5, 0, 0, 0, 0};
    tally seen = {0, 0, 0, 0, 0};
    CHECK(compare_runs(&o, 400, 1, &seen) == -1);
    CHECK(seen.real > 200);
    o.threads = 2;
    CHECK(compare_runs(&o, 150, 1, &seen) == -1);
}

/* the switch: on when the processor has AVX2, off when forced */
TEST(simd_switch)
{
#if defined(IMP_DEM_HAVE_AVX2)
    int have = imp_dem_law_avx2_supported();
#else
    int have = 0;
#endif
    CHECK(imp_dem_law_set_simd(0) == 0);
    CHECK(imp_dem_law_simd() == 0);
    CHECK(imp_dem_law_set_simd(1) == have);
    CHECK(imp_dem_law_simd() == have);
}

/* linear law, walls and spheres, sliding and sticking contacts: the common case */
TEST(linear_bits)
{
    scene_opts o = {IMP_DEM_LAW_LINEAR, 0, 0, 1, 1.0, 0.3, 0, 0, 0, 0};
    tally seen = {0, 0, 0, 0, 0};
    CHECK(compare_runs(&o, 600, 0, &seen) == -1);
    CHECK(seen.real > 100);     /* the groups of four were there ... */
    CHECK(seen.sliding > 10);   /* ... with sliding lanes */
    CHECK(seen.lines == 2);     /* each one's law runs in two cache lines */
}

/* never_erase and distant interactions (f = 1.3): real contacts with gaps (given back to
   the portable path), and a facet */
TEST(gaps_facet_bits)
{
    scene_opts o = {IMP_DEM_LAW_LINEAR, 1, 1, 1, 1.3, 0.5, 0, 0, 0, 0};
    tally seen = {0, 0, 0, 0, 0};
    CHECK(compare_runs(&o, 600, 0, &seen) == -1);
    CHECK(seen.real > 200);
    CHECK(seen.gaps > 10);
}

/* the same with two threads (blocks in parallel, the serial pass after them) */
TEST(linear_bits_two_threads)
{
    scene_opts o = {IMP_DEM_LAW_LINEAR, 0, 0, 2, 1.0, 0.3, 0, 0, 0, 0};
    tally seen = {0, 0, 0, 0, 0};
    CHECK(compare_runs(&o, 200, 0, &seen) == -1);
    CHECK(seen.real > 50);
}

/* the AVX2 law's kn, ks and mu made from the particles (d->derived, dem_law.c): the records'
   bits while the check finds them so (polydisperse spheres: kn differs pair by pair), the
   records read after the friction angle changed under the old contacts, and after a record's
   kn was written from outside; made again once the collider's runs find every record so
   (the contacts with the old mu gone) */
TEST(derived_bits)
{
    scene_opts o = {IMP_DEM_LAW_LINEAR, 0, 0, 1, 1.0, 0.3, 0, 0, 0, 0};
    tally seen = {0, 0, 0, 0, 0};
    memset(derived_steps, 0, sizeof derived_steps);
    CHECK(compare_runs(&o, 300, 0, &seen) == -1);
    CHECK(seen.real > 100);
#if defined(IMP_DEM_HAVE_AVX2)
    const int have = imp_dem_law_avx2_supported();
#else
    const int have = 0;
#endif
    CHECK(!have || (derived_steps[2] == 300 && derived_steps[0] == 0));
    change_kn = 150;  /* a record written: not derived until that contact is gone */
    memset(derived_steps, 0, sizeof derived_steps);
    CHECK(compare_runs(&o, 600, 0, &seen) == -1);
    CHECK(!have || (derived_steps[0] > 0 && derived_steps[2] > 149));
    change_kn = 0;
    change_mu = 200;  /* the friction raised under the contacts */
    memset(derived_steps, 0, sizeof derived_steps);
    CHECK(compare_runs(&o, 400, 0, &seen) == -1);
    /* not derived from step 200 until the contacts made before it are gone, then again */
    CHECK(!have || (derived_steps[0] > 0 && derived_steps[2] > 199));
    o.threads = 2;
    CHECK(compare_runs(&o, 300, 0, &seen) == -1);
    change_mu = 0;
}

/* the viscoelastic law's constants made from the particles (d->derived): kn, ks, mu and the
   dashpots' cn0 (its reduced mass: some spheres fixed, the walls fixed), the same bits as the
   portable law's records from the first step on, booked or not; the restitution changed under
   the contacts: the records read until those contacts are gone; the energy book switched off
   (the kept dashpot forces not written) and on again (zeroed, then kept) on both paths */
TEST(viscous_derived_bits)
{
    scene_opts o = {IMP_DEM_LAW_VISCOUS, 0, 0, 1, 1.0, 0.3, 0, 0, 0, 9};
    tally seen = {0, 0, 0, 0, 0};
#if defined(IMP_DEM_HAVE_AVX2)
    const int have = imp_dem_law_avx2_supported();
#else
    const int have = 0;
#endif
    memset(derived_steps, 0, sizeof derived_steps);
    CHECK(compare_runs(&o, 300, 0, &seen) == -1);
    CHECK(seen.real > 100);
    CHECK(!have || (derived_steps[2] == 300 && derived_steps[0] == 0));
    o.untracked = 1;
    memset(derived_steps, 0, sizeof derived_steps);
    CHECK(compare_runs(&o, 300, 0, &seen) == -1);
    CHECK(!have || derived_steps[2] == 300);
    o.untracked = 0;
    change_en = 100;
    memset(derived_steps, 0, sizeof derived_steps);
    CHECK(compare_runs(&o, 400, 0, &seen) == -1);
    /* derived before step 100, then the records (the contacts outlast the run) */
    CHECK(!have || (derived_steps[0] > 0 && derived_steps[2] == 99));
    change_en = 0;
    track_off = 100, track_on = 180;
    memset(derived_steps, 0, sizeof derived_steps);
    CHECK(compare_runs(&o, 300, 0, &seen) == -1);
    CHECK(!have || derived_steps[2] == 300);
    o.threads = 2;
    CHECK(compare_runs(&o, 300, 0, &seen) == -1);
    track_off = track_on = 0;
}

/* Hertz-Mindlin with viscous damping: all on the portable path, the switch changes nothing */
TEST(hertz_bits)
{
    scene_opts o = {IMP_DEM_LAW_HERTZ, 0, 1, 1, 1.0, 0.3, 0, 0, 0, 0};
    tally seen = {0, 0, 0, 0, 0};
    CHECK(compare_runs(&o, 400, 0, &seen) == -1);
    CHECK(seen.real > 100);
}

/* the groups of four of w's real sphere/sphere and wall/sphere interactions that
   imp_dem_law_avx2 keeps (does not give back to the portable law) when called on them now, to
   kept[0], and their count, to kept[1]; -1 without AVX2 */
static void avx2_kept(imp_world *w, int kept[2])
{
    kept[0] = kept[1] = -1;
#if defined(IMP_DEM_HAVE_AVX2)
    imp_dem *d = w->dem;
    if (!imp_dem_law_avx2_supported()) {
        return;
    }
    const size_t m = (size_t)d->ninter + 4;
    int *idx = malloc(4 * m * sizeof *idx);
    double *rows = malloc(IMP_DEM_ROW * m * sizeof *rows);
    if (idx != NULL && rows != NULL) {
        int *ia = idx + m, *ib = ia + m, *rest = ib + m;
        kept[0] = kept[1] = 0;
        for (int wall = 0; wall < 2; wall++) {
            const int cls = IMP_DEM_HOT_REAL + (wall ? IMP_DEM_WALL : IMP_DEM_SPHERE);
            int c = 0;
            for (int k = 0; k < d->ninter; k++) {
                if (d->hot[3 * k + 2] == cls) {
                    idx[c] = k, ia[c] = d->hot[3 * k], ib[c] = d->hot[3 * k + 1];
                    c++;
                }
            }
            c &= ~3;
            const double dt = 0.5 * imp_dem_p_wave_dt(d);
            kept[0] += c / 4 - imp_dem_law_avx2(d, wall, idx, ia, ib, c, dt, rows, 0, rest);
            kept[1] += c / 4;
        }
    }
    free(idx);
    free(rows);
#else
    (void)w;
#endif
}

/* the viscoelastic law (dem_law_viscous.c) on the AVX2 law's lanes against the portable law:
   the same bits, with the energy booked (the dashpots' losses) and not, without the
   tangential dashpot, with two threads; with never_erase, distant interactions and a facet
   (gaps: the dashpots' state cleared, a contact closing again after a gap on the lanes) */
TEST(viscous_bits)
{
    scene_opts o = {IMP_DEM_LAW_VISCOUS, 0, 0, 1, 1.0, 0.3, 0, 0, 0, 0};
    tally seen = {0, 0, 0, 0, 0};
    CHECK(compare_runs(&o, 400, 0, &seen) == -1);
    CHECK(seen.real > 100);
    CHECK(seen.sliding > 10);
    o.untracked = 1;
    CHECK(compare_runs(&o, 300, 0, &seen) == -1);
    o.untracked = 0;
    o.no_tangential_damping = 1;
    CHECK(compare_runs(&o, 300, 0, &seen) == -1);
    o.no_tangential_damping = 0;
    o.threads = 2;
    CHECK(compare_runs(&o, 200, 0, &seen) == -1);
    scene_opts g = {IMP_DEM_LAW_VISCOUS, 1, 1, 1, 1.3, 0.5, 0, 0, 0, 0};
    CHECK(compare_runs(&g, 400, 0, &seen) == -1);
    CHECK(seen.gaps > 10);
    scene_opts p = {IMP_DEM_LAW_VISCOUS, 0, 0, 1, 1.0, 0.3, 1, 0, 0, 0};  /* a sheared cell */
    CHECK(compare_runs(&p, 300, 0, &seen) == -1);
    /* the lanes take the law: after 100 steps, every group of four of the scene's real
       contacts (60, most on the walls; a gap would give its group back) */
    imp_world *w = scene(&o);
    CHECK(w != NULL);
    for (int s = 1; w != NULL && s <= 100; s++) {
        CHECK(imp_world_step(w) == IMP_OK);
    }
    int kept[2] = {-1, -1};
    if (w != NULL) {
        avx2_kept(w, kept);
    }
    CHECK(kept[0] == -1 || (kept[0] == kept[1] && kept[1] >= 10));
    imp_world_free(w);
}

/* a sheared periodic cell: the images' offsets and affine velocities in both laws */
TEST(periodic_bits)
{
    scene_opts o = {IMP_DEM_LAW_LINEAR, 0, 0, 1, 1.0, 0.3, 1, 0, 0, 0};
    tally seen = {0, 0, 0, 0, 0};
    CHECK(compare_runs(&o, 400, 0, &seen) == -1);
    CHECK(seen.real > 100);
    CHECK(seen.across > 20);
    CHECK(seen.lines == 2);
}

/* the AVX2 class masks of the sort (dem_law.c: sort_block) against their definition, on hot
   copies of random classes and lengths (whole words of 64, groups of 8 and a tail) */
TEST(class_masks)
{
#if defined(IMP_DEM_HAVE_AVX2)
    if (!imp_dem_law_avx2_supported()) {
        return;
    }
    uint32_t seed = 7;
    int hot[3 * 128];
    const int lens[] = {128, 127, 64, 63, 9, 8, 1};
    for (int t = 0; t < 200; t++) {
        int len = lens[t % 7];
        for (int j = 0; j < 3 * len; j++) {
            hot[j] = (int)(lcg(&seed) % 4);
        }
        int css = t % 3 == 0 ? -1 : 1, cws = t % 5 == 0 ? -1 : 2;
        uint64_t mr[2], mss[2], mws[2];
        imp_dem_class_masks_avx2(hot, len, css, cws, mr, mss, mws);
        int bad = 0;
        for (int j = 0; j < len; j++) {
            int c = hot[3 * j + 2];
            bad += (int)((mr[j >> 6] >> (j & 63)) & 1) != (c != 0);
            bad += (int)((mss[j >> 6] >> (j & 63)) & 1) != (c == css);
            bad += (int)((mws[j >> 6] >> (j & 63)) & 1) != (c == cws);
        }
        for (int j = len; j < 64 * ((len + 63) / 64); j++) {  /* no bits past the end */
            bad += (int)(((mr[j >> 6] | mss[j >> 6] | mws[j >> 6]) >> (j & 63)) & 1);
        }
        CHECK(bad == 0);
    }
#endif
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(simd_switch);
    RUN(class_masks);
    RUN(linear_bits);
    RUN(derived_bits);
    RUN(gaps_facet_bits);
    RUN(hertz_bits);
    RUN(viscous_bits);
    RUN(viscous_derived_bits);
    RUN(linear_bits_two_threads);
    RUN(periodic_bits);
    RUN(kept_sorts_bits);
    return CHECK_END("dem_law_simd");
}
