/* bench_sleep3d.c: what sleeping saves (src/core/islands.h): the "pile N" scene of
   bench3d_scenes.h (N unit cubes dropped into an open box; 1000 by default) in a world with
   sleep on, stepped until it settles, then the CPU per step of the settled pile asleep, and of
   the same pile woken (every body woken as b:wake() does: the same poses, each island awake
   for sleep_time before it may sleep again, longer than the measured steps).

   Settling: the drop stacks the cubes in columns up to 28 high; undamped they topple, spill
   over the walls and the pile (one island of some 800 cubes) keeps a few cubes above the
   thresholds for thousands of steps. So the world has damping (SETTLE_DAMPING N s/m, the same
   rate on the rotations), under which the pile comes to rest in some 600 steps: settled once
   95 % of the cubes inside the container sleep for sleep_time (or after --settle steps). Both
   figures are taken with that damping, on the same poses.

     bench_sleep3d [N] [--solver lcp|pgs] [--settle S] [--steps K]

   The world is bench_engine3d's (strategy "contact", symplectic Euler, dt = 1/60, friction
   0.6, elasticity 0, pgs) but with the engine's default pgs_iterations (50: with
   bench_engine3d's 10 sweeps the tall pile never holds still, its columns sinking through the
   unconverged contacts at tenths of a m/s, so nothing below 0.05 m/s could sleep) and with
   sleep = true and the default
   sleep_time (0.5 s), sleep_linear (0.05 m/s) and sleep_angular (2 deg/s). ms_per_step is user
   CPU (clock()) over K steps (20 by default: below sleep_time's 30 steps), so the figure holds
   on a loaded machine; ratio = asleep / awake. unchanged=1 says no sleeping body moved (its
   pose bit for bit) over the asleep steps. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <impact/shape.h>
#include <impact/world.h>

#include "bench3d_impact.h"
#include "bench3d_scenes.h"
#include "islands.h"
#include "world_internal.h"

static imp_world *make_world(const b3_scene *s, int solver, imp_body_id *dyn)
{
    imp_world_def def = imp_world_default_def(3);
    def.dt = B3_DT;
    def.gravity[0] = def.gravity[1] = 0.0;
    def.gravity[2] = -B3_G;
    def.strategy = IMP_STRATEGY_CONTACT;
    def.engine2d.time_stepping = IMP_STEPPING_SYMPLECTIC_EULER;
    def.engine2d.contact_solver = solver;
    def.sleep = 1;
    imp_world *w = imp_world_new(&def);
    if (w == NULL) {
        return NULL;
    }
    if (b3_add_boxes(w, s, dyn, "bench_sleep3d") != 0) {
        imp_world_free(w);
        return NULL;
    }
    return w;
}

/* user CPU (ms) per step over k steps; -1 when a step fails */
static double cpu_per_step(imp_world *w, int k)
{
    clock_t c0 = clock();
    for (int i = 0; i < k; i++) {
        if (imp_world_step(w) != IMP_OK) {
            fprintf(stderr, "bench_sleep3d: %s\n", imp_world_error(w));
            return -1.0;
        }
    }
    return 1e3 * (double)(clock() - c0) / CLOCKS_PER_SEC / k;
}

/* N s/m on the unit cubes while they settle */
#define SETTLE_DAMPING 2.0

static int sleeping(const imp_world *w) { return w->islands != NULL ? w->islands->nsleeping : 0; }

int main(int argc, char **argv)
{
    int n = 1000, settle = 3000, k = 20, solver = IMP_SOLVER_PGS;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--solver") == 0 && v != NULL) {
            solver = strcmp(v, "lcp") == 0 ? IMP_SOLVER_LCP : IMP_SOLVER_PGS;
            i++;
        } else if ((strcmp(a, "--settle") == 0 || strcmp(a, "--steps") == 0) && v != NULL) {
            int x = atoi(v);
            if (x < 1) {
                fprintf(stderr, "bench_sleep3d: %s '%s': expected a whole number >= 1\n", a, v);
                return 2;
            }
            *(a[3] == 'e' ? &settle : &k) = x;
            i++;
        } else if (atoi(a) > 0) {
            n = atoi(a);
        } else {
            fprintf(stderr, "usage: bench_sleep3d [N] [--solver lcp|pgs] [--settle S] [--steps K]\n");
            return 2;
        }
    }
    b3_scene s;
    b3_build(&s, "pile", n);
    imp_body_id *dyn = malloc((size_t)s.ndyn * sizeof *dyn);
    imp_world *w = dyn != NULL ? make_world(&s, solver, dyn) : NULL;
    if (w == NULL) {
        fprintf(stderr, "bench_sleep3d: out of memory\n");
        return 1;
    }
    /* settled: 95 % of the cubes inside the container asleep for sleep_time (a cube that
       escaped over a wall falls for ever, awake) */
    int steps = 0, held = 0;
    w->model.def.linear_damping = SETTLE_DAMPING;
    w->model.def.angular_damping = SETTLE_DAMPING / 6.0;  /* the same rate for a unit cube */
    clock_t c0 = clock();
    while (steps < settle && held < 30) {
        if (imp_world_step(w) != IMP_OK) {
            fprintf(stderr, "bench_sleep3d: %s\n", imp_world_error(w));
            return 1;
        }
        steps++;
        int inside = 0;
        for (int i = 0; i < s.ndyn; i++) {
            const double *y = imp_world_body_state_read(w, dyn[i]);
            inside += fabs(y[0]) < B3_PILE_HALF_INNER && fabs(y[1]) < B3_PILE_HALF_INNER && y[2] > 0.0;
        }
        held = sleeping(w) >= 0.95 * inside ? held + 1 : 0;
        if (steps % 250 == 0) {
            fprintf(stderr, "bench_sleep3d: step %d, %d of %d inside asleep\n", steps, sleeping(w), inside);
        }
    }
    double settle_s = (double)(clock() - c0) / CLOCKS_PER_SEC;
    int asleep = sleeping(w);
    double *before = malloc((size_t)s.ndyn * 7 * sizeof *before);
    unsigned char *was = malloc((size_t)s.ndyn);
    if (before == NULL || was == NULL) {
        return 1;
    }
    for (int i = 0; i < s.ndyn; i++) {
        memcpy(before + 7 * i, imp_world_body_state_read(w, dyn[i]), 7 * sizeof *before);
        was[i] = (unsigned char)imp_islands_asleep(w, dyn[i].slot);
    }
    double ms_asleep = cpu_per_step(w, k);
    int unchanged = 1;
    for (int i = 0; i < s.ndyn; i++) {
        if (was[i] && imp_islands_asleep(w, dyn[i].slot)) {
            unchanged &= memcmp(before + 7 * i, imp_world_body_state_read(w, dyn[i]), 7 * sizeof *before) == 0;
        }
    }
    for (int i = 0; i < s.ndyn; i++) {
        imp_islands_wake(w, dyn[i].slot);
    }
    double ms_awake = cpu_per_step(w, k);
    int awake_after = s.ndyn - sleeping(w);
    printf("bench_sleep3d: scene=pile size=%d bodies=%d solver=%s damping=%g settle_steps=%d settle_cpu_s=%.2f asleep=%d "
           "ms_per_step_asleep=%.3f ms_per_step_awake=%.3f ratio=%.3f unchanged=%d awake_after=%d steps=%d\n",
           n, s.ndyn, solver == IMP_SOLVER_PGS ? "pgs" : "lcp", SETTLE_DAMPING, steps, settle_s, asleep, ms_asleep, ms_awake,
           ms_awake > 0.0 ? ms_asleep / ms_awake : 0.0, unchanged, awake_after, k);
    free(before);
    free(was);
    free(dyn);
    free(s.box);
    imp_world_free(w);
    return 0;
}
