/* bench_world.c: cost of the world step without contact: free rigid bodies (O(n) per step),
   mutual gravitation (O(n^2) pairs per evaluation), and a spring chain under an adaptive
   integrator. Prints time per step, throughput, the log-log slope and peak memory. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>

#include "bench_util.h"
#include "shape2d_basic.h"
#include "shape3d_basic.h"
#include "world_internal.h"

/* n spinning boxes falling under gravity, RK4; returns seconds per step */
static double free_bodies(int n, int steps)
{
    imp_world_def def = imp_world_default_def(3);
    imp_world *w = imp_world_new(&def);
    imp_shape *box = imp_shape3d_box(0.1, 0.2, 0.3);
    imp_rng rng;
    imp_rng_seed(&rng, 1);
    for (int i = 0; i < n; i++) {
        imp_body_def d = imp_body_default_def(3);
        d.shape = box;
        d.density = 1000.0;
        for (int k = 0; k < 3; k++) {
            d.state[k] = 10.0 * imp_rng_uniform(&rng);
            d.state[10 + k] = 5.0 * (imp_rng_uniform(&rng) - 0.5);
        }
        imp_world_add_body(w, &d);
    }
    imp_shape_release(box);
    imp_world_step(w); /* warm up */
    double t0 = bench_now();
    for (int s = 0; s < steps; s++) {
        imp_world_step(w);
    }
    double dt = (bench_now() - t0) / steps;
    imp_world_free(w);
    return dt;
}

/* n discs under mutual gravitation (2D, RK4); returns seconds per step */
static double gravitation(int n, int steps)
{
    imp_world_def def = imp_world_default_def(2);
    def.gravity[1] = 0.0;
    def.gravitation_g = 1.0;
    def.gravitation_softening = 0.05;
    def.dt = 1e-3;
    imp_world *w = imp_world_new(&def);
    imp_shape *disc = imp_shape2d_circle(0.01);
    imp_rng rng;
    imp_rng_seed(&rng, 2);
    for (int i = 0; i < n; i++) {
        imp_body_def d = imp_body_default_def(2);
        d.shape = disc;
        d.mass = 1.0 / n;
        d.state[0] = imp_rng_uniform(&rng);
        d.state[1] = imp_rng_uniform(&rng);
        imp_world_add_body(w, &d);
    }
    imp_shape_release(disc);
    imp_world_step(w);
    double t0 = bench_now();
    for (int s = 0; s < steps; s++) {
        imp_world_step(w);
    }
    double dt = (bench_now() - t0) / steps;
    imp_world_free(w);
    return dt;
}

/* a hanging chain of n discs joined by springs, rk8pd at rtol 1e-8 */
static void spring_chain(int n, double sim_seconds)
{
    imp_world_def def = imp_world_default_def(2);
    def.integrator.kind = IMP_RK8PD;
    def.dt = 0.01;
    imp_world *w = imp_world_new(&def);
    imp_shape *disc = imp_shape2d_circle(0.02);
    imp_body_id prev = imp_world_background(w);
    for (int i = 0; i < n; i++) {
        imp_body_def d = imp_body_default_def(2);
        d.shape = disc;
        d.mass = 0.1;
        d.state[0] = 0.1 * (i + 1);
        imp_body_id id = imp_world_add_body(w, &d);
        imp_spring_def s = {prev, id, {0, 0, 0}, {0, 0, 0}, 0.1, 500.0, 0.05};
        if (i == 0) {
            s.point1[0] = 0.0;
        }
        imp_world_add_spring(w, &s);
        prev = id;
    }
    imp_shape_release(disc);
    int steps = (int)(sim_seconds / def.dt + 0.5);
    double t0 = bench_now();
    for (int s = 0; s < steps; s++) {
        if (imp_world_step(w) != IMP_OK) {
            printf("  spring chain failed: %s\n", imp_world_error(w));
            break;
        }
    }
    double wall = bench_now() - t0;
    printf("  spring chain, %d discs, rk8pd rtol 1e-8: %.3f s wall for %.1f s simulated "
           "(%.3f ms/step, %ld substeps, %ld rhs evaluations)\n",
           n, wall, sim_seconds, 1e3 * wall / steps, w->data.stats.substeps, w->data.stats.rhs_evaluations);
    imp_world_free(w);
}

int main(void)
{
    printf("world step without contact (impact, this machine)\n");
    const int sizes[] = {100, 1000, 10000, 100000};
    double ns[4], ts[4];
    for (int i = 0; i < 4; i++) {
        int steps = sizes[i] >= 100000 ? 20 : (sizes[i] >= 10000 ? 100 : 1000);
        ts[i] = free_bodies(sizes[i], steps);
        ns[i] = sizes[i];
        printf("  free 3D boxes, RK4: n = %6d  %9.4f ms/step  %7.2f M body-steps/s\n", sizes[i],
               1e3 * ts[i], sizes[i] / ts[i] / 1e6);
    }
    printf("  log-log slope of time per step against n: %.2f (O(n) expected: 1)\n",
           bench_slope(ns, ts, 4));
    const int gsizes[] = {50, 100, 200, 400};
    for (int i = 0; i < 4; i++) {
        ts[i] = gravitation(gsizes[i], gsizes[i] >= 400 ? 20 : 100);
        ns[i] = gsizes[i];
        double pairs = 4.0 * gsizes[i] * (gsizes[i] - 1) / 2.0;  /* 4 evaluations per step */
        printf("  mutual gravitation, RK4: n = %4d  %8.3f ms/step  %6.1f M pair-evaluations/s\n",
               gsizes[i], 1e3 * ts[i], pairs / ts[i] / 1e6);
    }
    printf("  log-log slope of time per step against n: %.2f (O(n^2) expected: 2)\n",
           bench_slope(ns, ts, 4));
    spring_chain(100, 5.0);
    printf("  peak memory: %.1f MiB\n", bench_peak_mib());
    return 0;
}
