#define _POSIX_C_SOURCE 199309L
/* bench_broadphase3d.c: update time of the insertion-sort broad phase for 10^4 and 10^5
   spheres moving like a DEM packing (lattice of spacing 2.05 r jittered by 0.3 r, each sphere moving 0.5% of its
   radius per step in a random direction that changes slowly; verlet distance 0.1 radius). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "broadphase3d.h"

#ifndef STEP
#define STEP 0.001
#endif
static uint64_t rng = 0x9E3779B97F4A7C15ull;
static double urand(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (double)((rng * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void run(int n, int steps)
{
    double r = 0.01, gap = 2.05 * r;
    int side = 1;
    while (side * side * side < n) {
        side++;
    }
    double *c = malloc(3 * (size_t)n * sizeof *c), *v = malloc(3 * (size_t)n * sizeof *v);
    double *lo = malloc(3 * (size_t)n * sizeof *lo), *hi = malloc(3 * (size_t)n * sizeof *hi);
    for (int i = 0; i < n; i++) {
        int ix = i % side, iy = (i / side) % side, iz = i / (side * side);
        c[3 * i] = ix * gap + 0.3 * r * (2 * urand() - 1);
        c[3 * i + 1] = iy * gap + 0.3 * r * (2 * urand() - 1);
        c[3 * i + 2] = iz * gap + 0.3 * r * (2 * urand() - 1);
        for (int k = 0; k < 3; k++) {
            v[3 * i + k] = STEP * r * (2 * urand() - 1);
        }
    }
    imp_bp3d *bp = imp_bp3d_new(0.1 * r);
    for (int i = 0; i < 3 * n; i++) {
        lo[i] = c[i] - r;
        hi[i] = c[i] + r;
    }
    double t0 = now();
    imp_bp3d_update(bp, n, lo, hi);
    double tbuild = now() - t0;
    double total = 0.0, worst = 0.0;
    long events = 0, swaps = 0;
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < 3 * n; i++) {
            if ((i + s) % 64 == 0) { /* slowly turning directions: about 1/64 per step */
                v[i] = STEP * r * (2 * urand() - 1);
            }
            c[i] += v[i];
            lo[i] = c[i] - r;
            hi[i] = c[i] + r;
        }
        double t1 = now();
        imp_bp3d_update(bp, n, lo, hi);
        double dt = now() - t1;
        total += dt;
        worst = dt > worst ? dt : worst;
        int nb, ne;
        imp_bp3d_begins(bp, &nb);
        imp_bp3d_ends(bp, &ne);
        events += nb + ne;
        swaps += imp_bp3d_swaps(bp);
    }
    printf("broadphase3d: %6d spheres  build %7.2f ms  update mean %6.3f ms  worst %6.3f ms  "
           "(%d pairs, %.1f events/step, %.0f swaps/step, %d steps)\n",
           n, 1e3 * tbuild, 1e3 * total / steps, 1e3 * worst, imp_bp3d_pair_count(bp),
           (double)events / steps, (double)swaps / steps, steps);
    imp_bp3d_free(bp);
    free(c), free(v), free(lo), free(hi);
}

int main(void)
{
    run(10000, 1000);
    run(100000, 600);
    return 0;
}
