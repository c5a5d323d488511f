/* test_dem_bins.c: the dem collider's binned broad phase (dem_bins.h) against brute force: after
   every update its pairs are exactly the pairs of overlapping inflated boxes (open intervals),
   its begins and ends are the new pairs less the old and the old less the new, sorted, and an
   update in which no box left its inflated copy changes nothing. Random moving spheres' boxes
   with unbounded walls among them, touching and flat boxes, a NaN, a change of the box count,
   and the scenes the grid suits badly (a box flown far away, many large boxes), where the sweep
   takes over with the same pairs. With balls (imp_dem_bins_update_balls), two spheres pair only
   when the balls of radius r + verlet about their centres at the update overlap, and an update
   has work to do when a sphere moved more than the verlet distance from its centre there. The
   same with the scan four boxes at a time (imp_dem_balls.simd, when the processor has AVX2),
   and on a lattice whose neighbours' balls touch exactly (no pair) the same pairs and events
   on both paths. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dem_bins.h"

enum { MAXN = 700, MAXP = MAXN * MAXN / 2 };

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static double urand(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (double)((rng * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
}

static double lo[3 * MAXN], hi[3 * MAXN], ilo[3 * MAXN], ihi[3 * MAXN];
static uint64_t old_set[MAXP], new_set[MAXP];
static int nold;
/* the ball mode: the spheres' centres and radii (r < 0: a wall), their centres at the last
   update with work; the tags given to the bins (0 a sphere, 1 a wall) */
static int balls;
static double x[3 * MAXN], r[MAXN], xrun[3 * MAXN];
static int tag[MAXN];
/* the scan four boxes at a time (imp_dem_balls.simd) */
static int simd;

/* 1 when this processor runs AVX2 (the scan's four-box path) */
static int have_avx2(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
#else
    return 0;
#endif
}

/* the brute-force pairs of the inflated boxes (of the balls r + verlet about the centres at the
   update for two spheres in the ball mode), sorted (a << 32 | b) */
static int brute(int n, const double *l, const double *h, double verlet, uint64_t *out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
            int ov = 1;
            for (int d = 0; d < 3; d++) {
                ov &= l[3 * i + d] < h[3 * j + d] && l[3 * j + d] < h[3 * i + d];
            }
            if (balls && r[i] >= 0.0 && r[j] >= 0.0) {
                double dx = xrun[3 * i] - xrun[3 * j], dy = xrun[3 * i + 1] - xrun[3 * j + 1];
                double dz = xrun[3 * i + 2] - xrun[3 * j + 2];
                ov &= sqrt(dx * dx + dy * dy + dz * dz) < r[i] + r[j] + 2.0 * verlet;
            }
            if (ov) {
                out[k++] = (uint64_t)i << 32 | (uint64_t)j;
            }
        }
    }
    return k;
}

/* events equal to the set differences, in order */
static int events_match(const int *ev, int count, const uint64_t *a, int na, const uint64_t *b,
                        int nb)
{
    int k = 0, j = 0;
    for (int i = 0; i < na; i++) {  /* a less b */
        while (j < nb && b[j] < a[i]) {
            j++;
        }
        if (j < nb && b[j] == a[i]) {
            continue;
        }
        if (k >= count || (uint64_t)ev[2 * k] << 32 != (a[i] & 0xffffffff00000000ull)
            || (uint64_t)(uint32_t)ev[2 * k + 1] != (a[i] & 0xffffffffu)) {
            return 0;
        }
        k++;
    }
    return k == count;
}

/* one update's checks against brute force; 1 when all hold */
static int check_update(imp_dem_bins *b, int n, double verlet, int moved)
{
    for (int i = 0; i < n; i++) {
        tag[i] = r[i] < 0.0;
    }
    const imp_dem_balls with = {x, r, 1.0, tag, 0, simd};
    if (imp_dem_bins_update_balls(b, n, lo, hi, balls ? &with : NULL) != 0) {
        return 0;
    }
    if (balls && moved) {
        memcpy(xrun, x, 3 * (size_t)n * sizeof *x);
    }
    const double *bl, *bh;
    if (imp_dem_bins_inflated(b, &bl, &bh) != n) {
        return 0;
    }
    if (moved) {  /* every box inflated again about its tight box */
        for (int i = 0; i < 3 * n; i++) {
            ilo[i] = lo[i] - verlet;
            ihi[i] = hi[i] + verlet;
        }
    }
    if (memcmp(bl, ilo, 3 * (size_t)n * sizeof *bl) != 0
        || memcmp(bh, ihi, 3 * (size_t)n * sizeof *bh) != 0) {
        return 0;
    }
    int nnew = brute(n, ilo, ihi, verlet, new_set), nb, ne;
    const int *begins = imp_dem_bins_begins(b, &nb), *ends = imp_dem_bins_ends(b, &ne);
    if (imp_dem_bins_pair_count(b) != nnew || !events_match(begins, nb, new_set, nnew, old_set, nold)
        || !events_match(ends, ne, old_set, nold, new_set, nnew)) {
        return 0;
    }
    for (int t = 0; t < 50; t++) {  /* membership, pairs and not */
        int i = (int)(urand() * n), j = (int)(urand() * n);
        uint64_t key = i < j ? (uint64_t)i << 32 | (uint64_t)j : (uint64_t)j << 32 | (uint64_t)i;
        int in = 0;
        for (int k = 0; k < nnew; k++) {
            in |= new_set[k] == key;
        }
        if (i != j && imp_dem_bins_has_pair(b, i, j) != in) {
            return 0;
        }
    }
    memcpy(old_set, new_set, (size_t)nnew * sizeof *new_set);
    nold = nnew;
    return 1;
}

/* n boxes: the first nwalls unbounded half-spaces (a floor and side walls), then spheres of
   radius 0.5 to 1 in a cube of side s */
static void scene(int n, int nwalls, double s, double *xs, double *rs)
{
    for (int i = 0; i < n; i++) {
        for (int d = 0; d < 3; d++) {
            xs[3 * i + d] = urand() * s;
        }
        rs[i] = 0.5 + 0.5 * urand();
    }
    for (int i = 0; i < nwalls; i++) {
        rs[i] = -1.0;  /* a wall: the half-space below xs[3 i + i % 3] on axis i % 3 */
    }
}

static void boxes_of(int n, const double *xs, const double *rs)
{
    for (int i = 0; i < n; i++) {
        for (int d = 0; d < 3; d++) {
            if (rs[i] < 0.0) {
                lo[3 * i + d] = -INFINITY;
                hi[3 * i + d] = d == i % 3 ? xs[3 * i + d] : INFINITY;
            } else {
                lo[3 * i + d] = xs[3 * i + d] - rs[i];
                hi[3 * i + d] = xs[3 * i + d] + rs[i];
            }
        }
    }
}

/* whether some tight box left its inflated copy (in the ball mode, some sphere moved farther
   than the verlet distance from its centre at the last update with work) */
static int moved_out(int n, double verlet)
{
    int moved = 0;
    for (int i = 0; i < 3 * n; i++) {
        moved |= !(lo[i] >= ilo[i] && hi[i] <= ihi[i]);
    }
    for (int i = 0; balls && i < n; i++) {
        double dx = x[3 * i] - xrun[3 * i], dy = x[3 * i + 1] - xrun[3 * i + 1];
        double dz = x[3 * i + 2] - xrun[3 * i + 2];
        moved |= r[i] >= 0.0 && !(sqrt(dx * dx + dy * dy + dz * dz) <= verlet);
    }
    return moved;
}

/* random motion over many updates: a settling cloud (everything falls, jiggles) */
static int run(imp_dem_bins *b, int n, int nwalls, double s, double verlet, int steps, double v)
{
    nold = 0;
    scene(n, nwalls, s, x, r);
    boxes_of(n, x, r);
    if (!check_update(b, n, verlet, 1)) {
        return 0;
    }
    for (int t = 0; t < steps; t++) {
        for (int i = nwalls; i < n; i++) {
            for (int d = 0; d < 3; d++) {
                x[3 * i + d] += v * (urand() - 0.5) - (d == 2 ? 0.3 * v : 0.0);
            }
        }
        boxes_of(n, x, r);
        if (!check_update(b, n, verlet, moved_out(n, verlet))) {
            return 0;
        }
    }
    return 1;
}

TEST(bins_match_brute_force)
{
    imp_dem_bins *b = imp_dem_bins_new(0.1);
    CHECK(b != NULL);
    CHECK(run(b, 600, 3, 14.0, 0.1, 40, 0.15));
    CHECK(imp_dem_bins_gridded(b));
    imp_dem_bins_free(b);
    /* no verlet distance, a dense cloud (many pairs), no walls */
    b = imp_dem_bins_new(-1.0);
    CHECK(b != NULL);
    CHECK(run(b, 500, 0, 8.0, 0.0, 10, 0.2));
    CHECK(imp_dem_bins_gridded(b));
    imp_dem_bins_free(b);
}

TEST(bins_touching_and_flat_boxes)
{
    /* boxes on a lattice of spacing 1 with half-width 0.5: neighbours touch, so no pair; then
       0.5 + 2^-40: every neighbour overlaps; and flat boxes (lo == hi on z) */
    imp_dem_bins *b = imp_dem_bins_new(0.0);
    CHECK(b != NULL);
    const int n = 6 * 6 * 6;
    nold = 0;
    for (int pass = 0; pass < 3; pass++) {
        double w = pass == 0 ? 0.5 : 0.5 + 0x1p-40;
        for (int i = 0; i < n; i++) {
            double c[3] = {i % 6, (i / 6) % 6, i / 36};
            for (int d = 0; d < 3; d++) {
                lo[3 * i + d] = c[d] - w;
                hi[3 * i + d] = c[d] + (pass == 2 && d == 2 ? -w : w);
            }
        }
        CHECK(check_update(b, n, 0.0, pass == 0 || moved_out(n, 0.0)));
        CHECK(imp_dem_bins_pair_count(b) == (pass == 0 ? 0 : nold));
    }
    CHECK(imp_dem_bins_gridded(b));
    imp_dem_bins_free(b);
}

TEST(bins_nan_and_new_count)
{
    imp_dem_bins *b = imp_dem_bins_new(0.05);
    CHECK(b != NULL);
    CHECK(run(b, 300, 2, 10.0, 0.05, 5, 0.2));
    double keep = lo[3 * 100];
    lo[3 * 100] = NAN;
    CHECK(imp_dem_bins_update(b, 300, lo, hi) == -1);  /* fails; the next update starts again */
    lo[3 * 100] = keep;
    CHECK(check_update(b, 300, 0.05, 1));
    CHECK(check_update(b, 250, 0.05, 1));  /* fewer boxes: the pairs beyond end */
    CHECK(check_update(b, 300, 0.05, 1));
    imp_dem_bins_free(b);
}

TEST(bins_hand_over_to_the_sweep)
{
    /* a box flown far away: far more cells than boxes; the sweep takes over mid-run */
    imp_dem_bins *b = imp_dem_bins_new(0.1);
    CHECK(b != NULL);
    CHECK(run(b, 400, 3, 12.0, 0.1, 3, 0.2));
    CHECK(imp_dem_bins_gridded(b));
    x[3 * 399] = 1e9;
    boxes_of(400, x, r);
    CHECK(check_update(b, 400, 0.1, 1));
    CHECK(!imp_dem_bins_gridded(b));
    x[3 * 399] = 5.0;
    boxes_of(400, x, r);
    CHECK(check_update(b, 400, 0.1, 1));
    imp_dem_bins_free(b);
    /* more large boxes than the grid takes (40 walls): the sweep from the start */
    b = imp_dem_bins_new(0.1);
    CHECK(b != NULL);
    CHECK(run(b, 400, 40, 12.0, 0.1, 3, 0.2));
    CHECK(!imp_dem_bins_gridded(b));
    imp_dem_bins_free(b);
}

/* the ball mode's cases (bins_balls_match_brute_force, on the path simd chooses); 1 when all
   hold */
static int balls_cases(void)
{
    const double *bc, *br;
    int ok = 1;
    balls = 1;
    imp_dem_bins *b = imp_dem_bins_new(0.1);
    if (b == NULL) {
        return 0;
    }
    ok &= (run(b, 600, 3, 14.0, 0.1, 40, 0.15));
    ok &= (imp_dem_bins_gridded(b) && imp_dem_bins_balls(b, &bc, &br));
    /* fewer pairs than the boxes give: the cube about a sphere holds more than its ball */
    int nballs = imp_dem_bins_pair_count(b);
    imp_dem_bins *c = imp_dem_bins_new(0.1);
    ok &= (c != NULL && imp_dem_bins_update(c, 600, lo, hi) == 0);
    ok &= (nballs < imp_dem_bins_pair_count(c) && !imp_dem_bins_balls(c, &bc, &br));
    imp_dem_bins_free(c);
    imp_dem_bins_free(b);
    b = imp_dem_bins_new(0.05);  /* a NaN, a new count */
    if (b == NULL) {
        return 0;
    }
    ok &= (run(b, 300, 2, 10.0, 0.05, 5, 0.2));
    ok &= (check_update(b, 250, 0.05, 1));
    ok &= (check_update(b, 300, 0.05, 1));
    imp_dem_bins_free(b);
    /* the hand-over: the sweep's box pairs, a superset, from the events of the update */
    b = imp_dem_bins_new(0.1);
    if (b == NULL) {
        return 0;
    }
    ok &= (run(b, 400, 3, 12.0, 0.1, 3, 0.2));
    x[3 * 399] = 1e9;
    boxes_of(400, x, r);
    balls = 0;  /* brute force with boxes from here */
    ok &= (check_update(b, 400, 0.1, 1));
    ok &= (!imp_dem_bins_gridded(b) && !imp_dem_bins_balls(b, &bc, &br));
    imp_dem_bins_free(b);
    balls = 0;
    return ok;
}

TEST(bins_balls_match_brute_force)
{
    simd = 0;
    CHECK(balls_cases());
    if (have_avx2()) {  /* the scan four boxes at a time: the same pairs */
        simd = 1;
        CHECK(balls_cases());
        simd = 0;
    }
}

/* a lattice of spheres of radius 1 at spacing 3 with verlet 0.5: the neighbours' balls touch
   exactly (centres 3 apart, reaches 1.5: not a pair, open), the diagonal ones do not; one
   sphere moved 0.25 toward its neighbour pairs. Both paths give the brute force's pairs and
   events. */
TEST(bins_simd_touching_balls)
{
    for (int path = 0; path <= have_avx2(); path++) {
        simd = path;
        balls = 1;
        nold = 0;
        const int m = 7, n = m * m * m;
        for (int i = 0; i < n; i++) {
            x[3 * i] = 3.0 * (i % m), x[3 * i + 1] = 3.0 * (i / m % m), x[3 * i + 2] = 3.0 * (i / (m * m));
            r[i] = 1.0;
        }
        imp_dem_bins *b = imp_dem_bins_new(0.5);
        CHECK(b != NULL);
        boxes_of(n, x, r);
        CHECK(check_update(b, n, 0.5, 1));
        CHECK(imp_dem_bins_gridded(b) && imp_dem_bins_pair_count(b) == 0);
        x[3 * 100] += 0.75;  /* out of its ball: an update with work, one pair begins */
        boxes_of(n, x, r);
        CHECK(check_update(b, n, 0.5, moved_out(n, 0.5)));
        CHECK(imp_dem_bins_pair_count(b) == 1);
        imp_dem_bins_free(b);
        balls = 0;
    }
    simd = 0;
}

TEST(ball_inside_test)
{
    /* a sphere of radius 1 whose inflated ball is about the origin with reach 1.1: inside after
       a move of 0.099 in any direction, out after 0.101 along a diagonal (which the box test
       keeps: 0.101 / sqrt(3) on each axis); a grown radius counts against the move */
    const double c[3] = {0.0, 0.0, 0.0};
    for (int k = 0; k < 2; k++) {
        double m = (k == 0 ? 0.099 : 0.101) / sqrt(3.0);
        const double p[3] = {m, m, m};
        CHECK(imp_dem_ball_inside(p, 1.0, c, 1.1) == (k == 0));
    }
    const double p1[3] = {0.0, 0.0, 0.06}, p2[3] = {0.0, 0.0, -0.12}, pn[3] = {NAN, 0.0, 0.0};
    CHECK(imp_dem_ball_inside(c, 1.05, c, 1.1));    /* grown by 0.05, not moved */
    CHECK(!imp_dem_ball_inside(p1, 1.05, c, 1.1));  /* and moved 0.06 */
    CHECK(!imp_dem_ball_inside(p2, 1.0, c, 1.1));   /* moved 0.12 */
    CHECK(!imp_dem_ball_inside(c, 1.2, c, 1.1));    /* grown past the reach */
    CHECK(!imp_dem_ball_inside(pn, 1.0, c, 1.1));
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(bins_match_brute_force);
    RUN(bins_touching_and_flat_boxes);
    RUN(bins_nan_and_new_count);
    RUN(bins_hand_over_to_the_sweep);
    RUN(bins_balls_match_brute_force);
    RUN(bins_simd_touching_balls);
    RUN(ball_inside_test);
    return CHECK_END("dem_bins");
}
