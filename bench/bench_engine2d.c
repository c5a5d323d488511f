/* bench_engine2d.c: the 2D engine (contact strategy) on the scenes of issue 5:
   - piles of 10 and 20 random blocks dropped into a pit (myPhysicsLab's pile_10/pile_20
     scenes: dt 0.025, RK4, exact LCP): wall time per simulated second, and the speed-up over
     myPhysicsLab's measured 23.5 s wall for 12 s of the 20-block pile on this kind of machine
     (../shared/reference/myphysicslab.md, section 2). Each pile runs 3 times (identical
     results: a fresh world each time) and the median wall time is reported, with the fastest,
     because a shared VM's figures vary by +-20 % from run to run;
   - pyramids of 210 and 1275 boxes with friction 0.6 (../shared/reference/peers-2d.md,
     scene 1: dt 1/60, 600 steps, touching boxes): ms/step and whether they stand (max angle
     < 0.1 rad, |top dy| < 1 m, KE(10 s) < 1 J), solved by projected Gauss-Seidel with the
     "velocity" extra acceleration (the distance term would push the exactly touching boxes
     apart to the half gap): once with RK4 (four solves per step), then with
     time_stepping = "symplectic_euler" (one) beside Box2D 2.4.1 run by the peers' program in
     the same run (../shared/peers/box2d-chipmunk: make there, needs libbox2d-dev).
   Box2D 2.4.1 in that reference ran the 210-box pyramid at 0.364 ms/step and 1275 boxes at
   2.92 ms/step on this VM (compare only figures of one run).
   Then (issue 18 item 3) the same pyramids under contact_solver = "soft" (4 sub-steps, Box2D
   v3's defaults) beside Box2D v3 (../shared/peers/box2d-v3, 4 sub-steps, 1 thread, no
   sleeping), alternating runs: user CPU per step (ours: the process's CPU clock over the
   steps; the peer's: its whole run's user CPU over its steps) and the boxes that moved more
   than 10 cm. `bench_engine2d soft` runs only that comparison, `bench_engine2d soft BASE
   STEPS` one soft pyramid (profiling); IMPACT_SOFT_HERTZ sets another contact hertz,
   IMPACT_SOFT_PRECISION=float the soft step's float passes (soft.precision = "float");
   IMPACT_E2_DETECT_CHECK=1 compares every incremental detection with a full one. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench_scenes2d.h"
#include "bench_util.h"
#include "engine2d.h"
#include "engine2d_soft.h"
#include "polygon2d.h"
#include "world_internal.h"

/* the pit of examples/block_pile.lua and n blocks from the world's generator */
static double pile(int n, double until, long *collisions, double *energy_drift)
{
    imp_world_def def = imp_world_default_def(2);
    def.strategy = IMP_STRATEGY_CONTACT;
    def.dt = 0.025;
    def.gravity[1] = -10.0;
    def.seed = 5;
    imp_world *w = imp_world_new(&def);
    bench_add_block(w, 12, 1, 0, -4.5, 0, 1, 1, 1, 0);
    bench_add_block(w, 1, 10, -6.5, 0, 0, 1, 1, 1, 0);
    bench_add_block(w, 1, 10, 6.5, 0, 0, 1, 1, 1, 0);
    bench_add_block(w, 6, 0.6, -3.2, -3.2, -0.5, 1, 1, 1, 0);
    bench_add_block(w, 6, 0.6, 3.2, -3.2, 0.5, 1, 1, 1, 0);
    for (int i = 0; i < n; i++) {
        double wd = 0.5 + imp_rng_uniform(&w->data.rng), ht = 0.5 + imp_rng_uniform(&w->data.rng);
        double angle = imp_rng_uniform(&w->data.rng) * 6.28;
        bench_add_block(w, wd, ht, -4 + (i % 5) * 2, -1 + 2 * (i / 5), angle, 0, 1, 0.8, 0);
    }
    double t0 = bench_now();
    int steps = (int)(until / def.dt + 0.5);
    for (int s = 0; s < steps; s++) {
        if (imp_world_step(w) != IMP_OK) {
            printf("  pile of %d failed: %s\n", n, imp_world_error(w));
            break;
        }
    }
    double wall = bench_now() - t0;
    *collisions = w->engine2d->stats.collisions;
    double e0 = imp_world_energy(w).total;
    for (int s = 0; s < 40; s++) {  /* one more second: the pile is at rest */
        imp_world_step(w);
    }
    *energy_drift = imp_world_energy(w).total - e0;
    imp_world_free(w);
    return wall;
}

typedef struct pyramid_result {
    double ms;    /* mean wall ms per step */
    double cpu_ms; /* mean user CPU ms per step */
    int stands;
    int moved;    /* boxes more than 10 cm from their start at the end */
    double max_disp;
} pyramid_result;

/* CPU seconds of this process (who = RUSAGE_SELF: its clock, fine-grained) or user CPU
   seconds of its waited-for children */
static double user_cpu(int who)
{
    if (who == RUSAGE_SELF) {
        struct timespec ts;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    }
    struct rusage u;
    getrusage(who, &u);
    return (double)u.ru_utime.tv_sec + 1e-6 * (double)u.ru_utime.tv_usec;
}

/* the solver of the next pyramid: PGS (the default) or the soft step (4 sub-steps) */
static int g_solver = IMP_SOLVER_PGS;

/* The pyramid of ../shared/reference/peers-2d.md, scene 1, under the contact strategy with
   PGS (iterations sweeps), the "velocity" extra acceleration (a distance term would push the
   exactly touching boxes apart to the half gap) and the given time stepping. Prints one line
   when verbose. */
static pyramid_result pyramid(int base, int steps, int iterations, imp_integrator_kind method,
                              imp_time_stepping stepping, int verbose)
{
    imp_world_def def = imp_world_default_def(2);
    def.integrator.kind = method;
    def.strategy = IMP_STRATEGY_CONTACT;
    def.dt = 1.0 / 60.0;
    def.gravity[1] = -10.0;
    def.engine2d.contact_solver = g_solver;
    def.engine2d.pgs_iterations = iterations;
    if (g_solver == IMP_SOLVER_SOFT) {  /* Box2D v3's defaults (engine2d_def.h) */
        def.engine2d.substeps = 4;
        stepping = IMP_STEPPING_SYMPLECTIC_EULER;
        const char *hz = getenv("IMPACT_SOFT_HERTZ");  /* (a study: another contact hertz) */
        if (hz != NULL && atof(hz) > 0.0) {
            def.engine2d.soft.hertz = atof(hz);
        }
        const char *pr = getenv("IMPACT_SOFT_PRECISION");  /* soft.precision: "float" (the
                                                               default) or "double" */
        if (pr != NULL && strcmp(pr, "double") == 0) {
            def.engine2d.soft.precision = IMP_SOFT_DOUBLE;
        } else if (pr != NULL && strcmp(pr, "float") == 0) {
            def.engine2d.soft.precision = IMP_SOFT_FLOAT;
        }
    }
    def.engine2d.extra_accel = IMP_EXTRA_VELOCITY;
    def.engine2d.collision_handling = IMP_HANDLING_SIMULTANEOUS;
    def.engine2d.time_stepping = stepping;
    imp_world *w = imp_world_new(&def);
    bench_add_block(w, 200, 2, 0, -1, 0, 1, 1, 0, 0.6);
    int nb = base * (base + 1) / 2;
    double *start = malloc(2 * (size_t)nb * sizeof *start);
    int *slot = malloc((size_t)nb * sizeof *slot);
    int k = 0;
    const double h = 0.5;
    for (int i = 0; i < base; i++) {
        for (int j = i; j < base; j++) {
            double x = (i + 1) * h + 2 * (j - i) * h - h * base, y = (2 * i + 1) * h;
            slot[k] = bench_add_block(w, 1, 1, x, y, 0, 0, 1, 0, 0.6).slot;
            start[2 * k] = x;
            start[2 * k + 1] = y;
            k++;
        }
    }
    double ke[3] = {NAN, NAN, NAN}, total = 0.0, cpu = 0.0;
    int done = 0;
    for (int s = 1; s <= steps; s++) {
        double t0 = bench_now(), c0 = user_cpu(RUSAGE_SELF);
        imp_status st = imp_world_step(w);
        total += bench_now() - t0;
        cpu += user_cpu(RUSAGE_SELF) - c0;
        if (st != IMP_OK) {
            printf("  pyramid %d: step %d failed: %s\n", nb, s, imp_world_error(w));
            break;
        }
        done = s;
        if (s == 60 || s == 300 || s == 600) {
            imp_energy e = imp_world_energy(w);
            ke[s == 60 ? 0 : s == 300 ? 1 : 2] = e.kinetic + e.rotational;
        }
        if (s == steps && steps != 60 && steps != 300 && steps != 600) {
            imp_energy e = imp_world_energy(w);
            ke[2] = e.kinetic + e.rotational;
        }
    }
    double maxdx = 0.0, maxang = 0.0, maxdisp = 0.0;
    int moved = 0;
    for (int i = 0; i < nb; i++) {
        const double *y = w->data.y + (size_t)slot[i] * IMP_STRIDE_2D;
        maxdx = fmax(maxdx, fabs(y[0] - start[2 * i]));
        maxang = fmax(maxang, fabs(y[2]));
        double disp = hypot(y[0] - start[2 * i], y[1] - start[2 * i + 1]);
        maxdisp = fmax(maxdisp, disp);
        moved += disp > 0.1;
    }
    const double *top = w->data.y + (size_t)slot[nb - 1] * IMP_STRIDE_2D;
    double dy = top[1] - start[2 * nb - 1];
    pyramid_result res;
    res.stands = done == steps && maxang < 0.1 && fabs(dy) < 1.0 && (steps < 600 || ke[2] < 1.0);
    res.ms = 1e3 * total / (done > 0 ? done : 1);
    res.cpu_ms = 1e3 * cpu / (done > 0 ? done : 1);
    res.moved = moved;
    res.max_disp = maxdisp;
    if (verbose && g_solver == IMP_SOLVER_SOFT) {
        printf("  pyramid base %d (%d boxes), soft step (%d sub-steps): %.3f ms/step user CPU "
               "(%.3f wall) over %d steps; max displacement %.3f m, %d boxes moved > 10 cm, "
               "max angle %.2e rad, KE 1 s / 5 s / 10 s %.1e / %.1e / %.1e J, %ld rows, %ld steps "
               "detecting: %s (state hash %016llx)\n",
               base, nb, w->model.def.engine2d.substeps, res.cpu_ms, res.ms, done, maxdisp,
               moved, maxang, ke[0], ke[1], ke[2], w->engine2d->stats.max_contacts,
               imp_engine2d_soft_detections(w),
               res.stands ? (steps < 600 ? "standing so far" : "stands") : "does not stand",
               imp_world_state_hash(w));
        long chk[4];
        double chk_dist;
        imp_engine2d_soft_check_stats(w, chk, &chk_dist);
        if (chk[0] > 0) {  /* (IMPACT_E2_DETECT_CHECK=1) */
            printf("  incremental detection checked against a full one at %ld steps: pair order "
                   "differing %ld, moved pairs' records differing %ld, kept pairs' keys differing "
                   "%ld, kept records' largest distance difference %.3g m\n",
                   chk[0], chk[1], chk[2], chk[3], chk_dist);
        }
    } else if (verbose) {
        printf("  pyramid base %d (%d boxes), %s, PGS %d sweeps: %.3f ms/step over %d steps; "
               "max|dx| %.2e m, max angle %.2e rad, top dy %+.2e m, KE 1 s / 5 s / 10 s "
               "%.1e / %.1e / %.1e J; largest contact problem %ld rows, %.1f sweeps per step: %s "
               "(state hash %016llx)\n",
               base, nb,
               stepping == IMP_STEPPING_SYMPLECTIC_EULER ? imp_time_stepping_names[stepping]
                                                         : imp_integrator_names[method],
               iterations, res.ms, done, maxdx, maxang, dy, ke[0], ke[1], ke[2],
               w->engine2d->stats.max_contacts,
               (double)w->engine2d->stats.pgs_sweeps / (done > 0 ? done : 1),
               res.stands ? (steps < 600 ? "standing so far" : "stands") : "does not stand",
               imp_world_state_hash(w));
    }
    free(start);
    free(slot);
    imp_world_free(w);
    return res;
}

/* A peer on the same pyramid, in this run: one run of the peer's program (Box2D 2.4.1:
   ../shared/peers/box2d-chipmunk/bench_box2d.cpp; Box2D v3: ../shared/peers/box2d-v3, which
   tools/run_bench.sh builds into build/peers and names in the environment variable env), its
   mean ms/step; NAN when it is not there. */
static double peer_cpu_ms = NAN;  /* the last peer run's user CPU per step */
static int peer_moved = -1;        /* and its boxes moved more than 10 cm */

static double peer_pyramid(const char *env, const char *fallback, int base)
{
    peer_cpu_ms = NAN;
    peer_moved = -1;
    const char *path = getenv(env);
    if (path == NULL) {
        path = fallback;
    }
    if (access(path, X_OK) != 0 || strchr(path, '\'') != NULL) {
        return NAN;
    }
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s' pyramid %d 1 2>/dev/null", path, base);
    FILE *p = popen(cmd, "r");
    if (p == NULL) {
        return NAN;
    }
    char line[2048];
    double ms = NAN, c0 = user_cpu(RUSAGE_CHILDREN);
    int steps = 600;
    while (fgets(line, sizeof line, p) != NULL) {
        const char *m = strstr(line, "ms_mean=");
        if (m != NULL) {
            ms = strtod(m + 8, NULL);
        }
        if ((m = strstr(line, "moved_gt_10cm=")) != NULL) {
            peer_moved = atoi(m + 14);
        }
        if ((m = strstr(line, " steps=")) != NULL) {
            steps = atoi(m + 7);
        }
    }
    if (pclose(p) != 0) {
        return NAN;
    }
    /* the whole run's user CPU (the scene's setup is a small part of it) */
    peer_cpu_ms = 1e3 * (user_cpu(RUSAGE_CHILDREN) - c0) / (steps > 0 ? steps : 1);
    return ms;
}

static double box2d_pyramid(int base)
{
    return peer_pyramid("IMPACT_BOX2D_BENCH", "build/peers/bench_box2d", base);
}

static double box2d_v3_pyramid(int base)
{
    return peer_pyramid("IMPACT_BOX2D_V3_BENCH", "build/peers/bench_box2d_v3", base);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The target of issue 5: the pyramid stands and comes to rest at no more than 3x Box2D
   2.4.1's ms/step measured in the same run. Runs alternate (Box2D, impact) so that both see
   the same load; medians over runs, as in peers-2d.md. */
static void pyramid_vs_box2d(int base, int runs, int sweeps)
{
    double ours[7], theirs[7], v3[7];
    int stands = 1, have_box2d = 1, have_v3 = 1;
    for (int r = 0; r < runs; r++) {
        theirs[r] = box2d_pyramid(base);
        have_box2d &= isfinite(theirs[r]);
        v3[r] = box2d_v3_pyramid(base);
        have_v3 &= isfinite(v3[r]);
        pyramid_result p = pyramid(base, 600, sweeps, IMP_RK4, IMP_STEPPING_SYMPLECTIC_EULER,
                                   r == runs - 1);
        ours[r] = p.ms;
        stands &= p.stands;
    }
    double mo = median(ours, runs);
    if (have_v3) {
        double m3 = median(v3, runs);
        printf("  -> base %d: Box2D v3 (4 sub-steps, 1 thread) %.3f ms/step in the same run "
               "(median of %d runs): impact %.2fx Box2D v3\n", base, m3, runs, mo / m3);
    } else {
        printf("  -> base %d: Box2D v3 not run (make bench builds it from ../shared/peers/box2d-v3; "
               "or set IMPACT_BOX2D_V3_BENCH)\n", base);
    }
    if (!have_box2d) {
        printf("  -> base %d: %.3f ms/step (median of %d runs); Box2D 2.4.1 not run (make bench "
               "builds it from ../shared/peers/box2d-chipmunk when libbox2d-dev is "
               "installed; or set IMPACT_BOX2D_BENCH)\n", base, mo, runs);
        return;
    }
    double mt = median(theirs, runs);
    printf("  -> base %d: impact %.3f ms/step, Box2D 2.4.1 %.3f ms/step in the same run "
           "(medians of %d alternating runs): %.2fx Box2D%s\n",
           base, mo, mt, runs, mo / mt, stands ? "" : " (impact's pyramid did not stand)");
}

/* Issue 18 item 3: the soft step (contact_solver = "soft", 4 sub-steps) beside Box2D v3 (4
   sub-steps, 1 thread) on the same pyramid, alternating runs; user CPU per step (the peer's
   whole run over its steps, ours over the steps alone), medians; and how many boxes moved
   more than 10 cm. */
static void soft_vs_box2d_v3(int base, int runs)
{
    double ours[7], v3[7];
    int moved = -1, v3_moved = -1, stands = 1, have_v3 = 1;
    double disp = 0.0;
    for (int r = 0; r < runs; r++) {
        box2d_v3_pyramid(base);
        v3[r] = peer_cpu_ms;
        v3_moved = peer_moved;
        have_v3 &= isfinite(v3[r]);
        g_solver = IMP_SOLVER_SOFT;
        pyramid_result p = pyramid(base, 600, 1, IMP_RK4, IMP_STEPPING_SYMPLECTIC_EULER, r == runs - 1);
        g_solver = IMP_SOLVER_PGS;
        ours[r] = p.cpu_ms;
        moved = p.moved;
        disp = p.max_disp;
        stands &= p.stands;
    }
    double mo = median(ours, runs);
    if (!have_v3) {
        printf("  -> base %d soft: %.3f ms/step user CPU, %d boxes moved > 10 cm (max %.3f m)%s; "
               "Box2D v3 not run\n", base, mo, moved, disp, stands ? "" : ", did not stand");
        return;
    }
    double m3 = median(v3, runs);
    printf("  -> base %d soft: impact %.3f ms/step, Box2D v3 %.3f ms/step user CPU (medians of %d "
           "alternating runs): %.2fx Box2D v3; boxes moved > 10 cm: impact %d (max %.3f m), "
           "Box2D v3 %d%s\n", base, mo, m3, runs, mo / m3, moved, disp, v3_moved,
           stands ? "" : " (impact's pyramid did not stand)");
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "soft") == 0) {
        /* one soft-step pyramid only (profiling: bench_engine2d soft BASE STEPS) */
        g_solver = IMP_SOLVER_SOFT;
        pyramid(atoi(argv[2]), atoi(argv[3]), 1, IMP_RK4, IMP_STEPPING_SYMPLECTIC_EULER, 1);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "soft") == 0) {  /* the soft step beside Box2D v3 only */
        soft_vs_box2d_v3(20, 3);
        soft_vs_box2d_v3(50, 3);
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "pyramid") == 0) {
        /* one symplectic Euler pyramid only (profiling: bench_engine2d pyramid BASE STEPS) */
        pyramid(atoi(argv[2]), atoi(argv[3]), 20, IMP_RK4, IMP_STEPPING_SYMPLECTIC_EULER, 1);
        return 0;
    }
    printf("bench_engine2d: the 2D engine, contact strategy\n");
    const int sizes[2] = {10, 20};
    const double until[2] = {10.0, 12.0};
    for (int i = 0; i < 2; i++) {
        long coll;
        double drift, walls[3];
        for (int r = 0; r < 3; r++) {
            walls[r] = pile(sizes[i], until[i], &coll, &drift);
        }
        for (int a = 0; a < 3; a++) {  /* sort the three */
            for (int b = a + 1; b < 3; b++) {
                if (walls[b] < walls[a]) {
                    double t = walls[a];
                    walls[a] = walls[b];
                    walls[b] = t;
                }
            }
        }
        double wall = walls[1];
        printf("  pile of %d random blocks in a pit (%d bodies), %.0f s simulated: %.3f s wall "
               "(median of 3 runs, fastest %.3f s), %.4f s per simulated second, %ld collisions, "
               "energy drift at rest %.1e J",
               sizes[i], sizes[i] + 5, until[i], wall, walls[0], wall / until[i], coll, drift);
        if (sizes[i] == 20) {
            printf("; myPhysicsLab 23.5 s: %.0fx faster", 23.5 / wall);
        }
        printf("\n");
    }
    /* the ODE stepping (rk4: four solves per step), then time_stepping = "symplectic_euler"
       (one velocity-level solve per step) beside Box2D */
    pyramid(20, 600, 20, IMP_RK4, IMP_STEPPING_ODE, 1);
    pyramid_vs_box2d(20, 3, 20);
    pyramid_vs_box2d(50, 1, 20);
    soft_vs_box2d_v3(20, 3);
    soft_vs_box2d_v3(50, 3);
    return 0;
}
