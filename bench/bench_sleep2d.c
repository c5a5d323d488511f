/* bench_sleep2d.c: what sleeping saves in 2D worlds (src/core/islands.h,
   src/engine2d/engine2d_sleep.c): a pyramid of unit boxes (base B, B (B + 1) / 2 boxes; 20 by
   default: 210) standing on a fixed floor, the contact strategy with projected Gauss-Seidel and
   the "velocity" extra acceleration (bench_engine2d's pyramid world: dt = 1/60, g = 10,
   friction 0.6, elasticity 0) with sleep = true, stepped until every box sleeps (the pyramid
   is one island: it sleeps whole once all its boxes stayed under the thresholds for
   sleep_time), then the CPU per step of the pyramid asleep, and of the same pyramid woken (its
   island woken as b:wake() does: the same poses, awake for sleep_time before it may sleep
   again, longer than the measured steps).

     bench_sleep2d [B] [--ode] [--settle S] [--steps K]

   --ode: time_stepping = "ode" (RK4, four contact solves per step) instead of
   "symplectic_euler" (one). ms_per_step is user CPU (clock()) over K steps (20 by default:
   below sleep_time's 30 steps), so the figure holds on a loaded machine; ratio = asleep /
   awake. unchanged=1 says no sleeping box moved (its pose bit for bit) over the asleep steps. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_scenes2d.h"
#include "islands.h"
#include "world_internal.h"

static imp_world *make_world(int base, int ode, int *slots)
{
    imp_world_def def = imp_world_default_def(2);
    def.strategy = IMP_STRATEGY_CONTACT;
    def.dt = 1.0 / 60.0;
    def.gravity[1] = -10.0;
    def.engine2d.contact_solver = IMP_SOLVER_PGS;
    def.engine2d.extra_accel = IMP_EXTRA_VELOCITY;
    def.engine2d.time_stepping = ode ? IMP_STEPPING_ODE : IMP_STEPPING_SYMPLECTIC_EULER;
    def.sleep = 1;
    imp_world *w = imp_world_new(&def);
    if (w == NULL || bench_add_block(w, 200, 2, 0, -1, 0, 1, 1, 0, 0.6).slot < 0) {
        return NULL;
    }
    int k = 0;
    for (int row = 0; row < base; row++) {  /* row r: base - r boxes, centred, touching */
        for (int i = 0; i < base - row; i++) {
            double x = (i - 0.5 * (base - row - 1)) * 1.0, y = 0.5 + row;
            int s = bench_add_block(w, 1, 1, x, y, 0, 0, 1, 0, 0.6).slot;
            if (s < 0) {
                return NULL;
            }
            slots[k++] = s;
        }
    }
    return w;
}

/* user CPU (ms) per step over k steps; -1 when a step fails */
static double cpu_per_step(imp_world *w, int k)
{
    clock_t c0 = clock();
    for (int i = 0; i < k; i++) {
        if (imp_world_step(w) != IMP_OK) {
            fprintf(stderr, "bench_sleep2d: %s\n", imp_world_error(w));
            return -1.0;
        }
    }
    return 1e3 * (double)(clock() - c0) / CLOCKS_PER_SEC / k;
}

static int sleeping(const imp_world *w) { return w->islands != NULL ? w->islands->nsleeping : 0; }

int main(int argc, char **argv)
{
    int base = 20, settle = 3000, k = 20, ode = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--ode") == 0) {
            ode = 1;
        } else if ((strcmp(a, "--settle") == 0 || strcmp(a, "--steps") == 0) && v != NULL) {
            int x = atoi(v);
            if (x < 1) {
                fprintf(stderr, "bench_sleep2d: %s '%s': expected a whole number >= 1\n", a, v);
                return 2;
            }
            *(a[3] == 'e' ? &settle : &k) = x;
            i++;
        } else if (atoi(a) > 0) {
            base = atoi(a);
        } else {
            fprintf(stderr, "usage: bench_sleep2d [B] [--ode] [--settle S] [--steps K]\n");
            return 2;
        }
    }
    int n = base * (base + 1) / 2;
    int *slots = malloc((size_t)n * sizeof *slots);
    double *before = malloc((size_t)n * 3 * sizeof *before);
    imp_world *w = slots != NULL && before != NULL ? make_world(base, ode, slots) : NULL;
    if (w == NULL) {
        fprintf(stderr, "bench_sleep2d: out of memory\n");
        return 1;
    }
    int steps = 0;
    clock_t c0 = clock();
    while (steps < settle && sleeping(w) < n) {
        if (imp_world_step(w) != IMP_OK) {
            fprintf(stderr, "bench_sleep2d: %s\n", imp_world_error(w));
            return 1;
        }
        steps++;
    }
    double settle_s = (double)(clock() - c0) / CLOCKS_PER_SEC;
    int asleep = sleeping(w);
    for (int i = 0; i < n; i++) {
        memcpy(before + 3 * i, w->data.y + (size_t)slots[i] * IMP_STRIDE_2D, 3 * sizeof *before);
    }
    double ms_asleep = cpu_per_step(w, k);
    int unchanged = 1;
    for (int i = 0; i < n; i++) {
        unchanged &= memcmp(before + 3 * i, w->data.y + (size_t)slots[i] * IMP_STRIDE_2D, 3 * sizeof *before) == 0;
    }
    imp_islands_wake(w, slots[0]);
    double ms_awake = cpu_per_step(w, k);
    int awake_after = n - sleeping(w);
    double top = w->data.y[(size_t)slots[n - 1] * IMP_STRIDE_2D + 1];
    printf("bench_sleep2d: scene=pyramid base=%d bodies=%d time_stepping=%s settle_steps=%d settle_cpu_s=%.2f "
           "asleep=%d ms_per_step_asleep=%.3f ms_per_step_awake=%.3f ratio=%.3f unchanged=%d awake_after=%d "
           "top_drop=%.3g steps=%d\n",
           base, n, ode ? "ode" : "symplectic_euler", steps, settle_s, asleep, ms_asleep, ms_awake,
           ms_awake > 0.0 ? ms_asleep / ms_awake : 0.0, unchanged, awake_after, (0.5 + base - 1) - top, k);
    free(before);
    free(slots);
    imp_world_free(w);
    return 0;
}
