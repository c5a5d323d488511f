/* bench_dem.c: the gravity deposition of ../shared/reference/yade.md (scenario A) on impact and
   on Yade, in the same run, one thread each: N polydisperse spheres (integer-arithmetic initial
   state) fall into an open box of 5 infinite walls; linear Cundall-Strack law, E = 1e7,
   ks/kn = 0.3, friction angle 0.5, damping 0.2, dt = 0.5 P-wave step; impact's default dem
   engine list in C (verlet distance 0.1 min radius; DEM_VERLET=-0.5 in the environment for
   Yade's default), Yade's usual engine list with its defaults (bench/yade_deposit.py).

     bench_dem                     N = 1000 and 10000 (20000 steps: settled, packing heights
                                   compared) and N = 50000 (DEM_BENCH_STEPS_50K steps, default
                                   2000: the same steps of the same phase on both, the pile
                                   still falling, so rates only), impact beside Yade
                                   (DEM_BENCH_SIZES=1000,10000 to run only those; at
                                   N = 1000 the two alternate DEM_BENCH_ROUNDS times, default
                                   3, and the fastest run of each is compared)
     bench_dem N STEPS [DAMPING]   impact alone, one run with checkpoints and Yade 2023.02a's
                                   figures from yade.md (N = 1000, 10000 or 50000)
     bench_dem N STEPS DAMPING FROM
                                   impact alone: FROM steps, then STEPS steps measured (CPU
                                   rate, collider runs, contacts), the only ones callgrind
                                   counts when run under valgrind --tool=callgrind
                                   --instr-atstart=no (the contact phase: N = 10000 from 4000);
                                   N = 100000 too (bench_dem_large's 125 x 50 x 16: its falling
                                   phase, e.g. 20 steps from 500)

   Fairness: both start from the same state and run the same number of steps with the same dt,
   so they go through the same phases (free fall, impacts, dense packing); the time is that of
   the steps only (scene building and Yade's start-up excluded), wall and CPU; each size runs
   impact first (in a child process, so its peak RSS is its own), then Yade, back to back.
   OMP_NUM_THREADS=1 for both. Yade is skipped (with a line saying so) when not installed or
   with DEM_BENCH_YADE=0. Time on this 2-core VM: ~1.5 min for impact, ~4-5 min for Yade.

   Checkpoint mode: the free-fall checkpoint (step 500) is exact:
   z = z0 + a dt^2 n (n + 1) / 2, a = -(1 - d) g. */
#define _DEFAULT_SOURCE /* wait4 (bench_child.h) */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../test/c/dem_scene.h"
#include "bench_child.h"
#include "bench_util.h"
#include "bench_window.h"

#ifdef _OPENMP
#include <omp.h>
#endif

typedef struct layout {
    int n, nx, ny, nz;
} layout;

static const layout layouts[] = {{1000, 10, 10, 10}, {10000, 25, 25, 16}, {50000, 50, 50, 20}};
/* bench_dem_large's N = 100,000, for the command line's runs only (a profile of its falling
   phase: bench_dem 100000 STEPS 0.2 FROM); not in the comparison with Yade */
static const layout layout_100k = {100000, 125, 50, 16};

/* Yade 2023.02a, 1 thread, damping 0.2 (yade.md part 3): particle-steps/s overall and in the
   dense-packing segment, peak RSS MB, final mean z, real contacts, coordination */
typedef struct yade_ref {
    int n;
    long steps;
    double pss, pss_last, rss_mb, mean_z, contacts, coord;
} yade_ref;

static const yade_ref yade[] = {{1000, 20000, 2.98e6, 2.24e6, 251, 0.06411, 2241, 4.20},
                                {10000, 20000, 1.54e6, 1.19e6, 299, 0.09630, 22294, 4.31},
                                {50000, 10000, 0.94e6, 0.55e6, 515, 0.12008, 99299, 3.88}};

/* Yade's steps/s per segment (0-500, 500-1k, 1k-2k, 2k-3k, 3k-5k, 5k-7.5k, 7.5k-10k, 10k-15k,
   15k-20k), 1 thread, damping 0.2 (yade.md "Throughput by phase"); 0 = not measured */
static const double yade_seg[3][9] = {{5250, 7016, 5175, 7444, 5233, 3353, 2733, 2570, 2240},
                                      {346, 441, 274, 333, 310, 215, 142, 118, 119},
                                      {26, 37, 25, 28, 30, 19, 11, 0, 0}};

static double cpu_now(void) { return (double)clock() / CLOCKS_PER_SEC; }

static imp_world *build(const layout *L, double damping)
{
    double verlet = getenv("DEM_VERLET") ? atof(getenv("DEM_VERLET")) : -0.1;
    return dem_scene_deposit(L->n, L->nx, L->ny, damping, verlet);
}

typedef struct measure {
    double ke, mean_z, max_z, ov_ss, ov_sw, unbalanced, coord;
    int n_ss, n_sw;
} measure;

static measure measure_now(const imp_world *w)
{
    const imp_dem *d = w->dem;
    measure m;
    memset(&m, 0, sizeof m);
    imp_dem_energy e = imp_dem_energy_now(d, w->model.def.dt);
    m.ke = e.kinetic;
    int ns = 0;
    for (int i = 0; i < d->n; i++) {
        if (d->kind[i] == IMP_DEM_SPHERE) {
            m.mean_z += d->pos[3 * i + 2];
            m.max_z = fmax(m.max_z, d->pos[3 * i + 2]);
            ns++;
        }
    }
    m.mean_z /= ns;
    for (int k = 0; k < d->ninter; k++) {
        const imp_dem_inter *I = &d->inter[k];
        if (!I->real) {
            continue;
        }
        if (d->kind[I->a] != IMP_DEM_SPHERE) {
            m.n_sw++;
            m.ov_sw = fmax(m.ov_sw, I->un);
        } else {
            m.n_ss++;
            m.ov_ss = fmax(m.ov_ss, I->un);
        }
    }
    m.coord = (2.0 * m.n_ss + m.n_sw) / ns;
    m.unbalanced = imp_dem_unbalanced_force(d, w->model.def.gravity);
    return m;
}

static int run(const layout *L, long steps, double damping)
{
    double rss0 = bench_peak_mib();
    imp_world *w = build(L, damping);
    if (w == NULL) {
        fprintf(stderr, "bench_dem: could not build N = %d\n", L->n);
        return 1;
    }
    double dt = w->model.def.dt;
    printf("deposition N = %d (%dx%dx%d), damping %.2f, dt = %.15g s, %ld steps\n", L->n, L->nx,
           L->ny, L->nz, damping, dt, steps);
    static const long marks[] = {500, 1000, 2000, 3000, 5000, 7500, 10000, 15000, 20000};
    double wall = 0.0, cpu = 0.0, seg_pss_last = 0.0;
    int lk = L->n == 1000 ? 0 : (L->n == 10000 ? 1 : 2);
    long done = 0;
    double z0 = 0.0;
    for (int i = 0; i < L->n; i++) {
        z0 += ((i / (L->nx * L->ny)) + 1.0) * 0.026;
    }
    z0 /= L->n;
    for (int k = 0; k < 9 && done < steps; k++) {
        long to = marks[k] < steps ? marks[k] : steps;
        double t0 = bench_now(), c0 = cpu_now();
        for (; done < to; done++) {
            if (imp_world_step(w) != IMP_OK) {
                fprintf(stderr, "bench_dem: %s\n", imp_world_error(w));
                imp_world_free(w);
                return 1;
            }
        }
        double seg = bench_now() - t0, cseg = cpu_now() - c0;
        wall += seg;
        cpu += cseg;
        long nseg = to - (k > 0 ? (marks[k - 1] < steps ? marks[k - 1] : steps) : 0);
        seg_pss_last = L->n * (double)nseg / seg;
        measure m = measure_now(w);
        double ys = damping == 0.2 && to == marks[k] ? yade_seg[lk][k] : 0.0;
        printf("  step %6ld: %7.0f steps/s (CPU %7.0f; Yade %5.0f: x%.1f) | KE %.4e J, mean z "
               "%.5f, max z %.4f, contacts %d (%d+%d), coord %.2f, max overlap s-s %.2e s-w "
               "%.2e, unbalanced %.3f\n",
               to, nseg / seg, nseg / cseg, ys, ys > 0 ? nseg / seg / ys : 0.0, m.ke, m.mean_z,
               m.max_z, m.n_ss + m.n_sw, m.n_ss, m.n_sw, m.coord, m.ov_ss, m.ov_sw,
               m.unbalanced);
        if (to == 500) {
            double a = -(1.0 - damping) * 9.81;
            printf("    free-fall check: mean z %.11f, leapfrog closed form %.11f (Yade: %s)\n",
                   m.mean_z, z0 + a * dt * dt * 500.0 * 501.0 / 2.0,
                   damping == 0.2 && L->n == 1000 ? "0.13891087808" : "see yade.md");
        }
    }
    measure m = measure_now(w);
    double pss = L->n * (double)steps / wall;
    printf("  total: %.2f s wall, %.2f s CPU, %.0f steps/s, "
           "%.3e particle-steps/s (per CPU second %.3e), peak RSS %.1f MiB (%.1f before "
           "building), collider runs %ld, interactions %d (real %d)\n",
           wall, cpu, steps / wall, pss, L->n * (double)steps / cpu, bench_peak_mib(), rss0, w->dem->collider_runs, w->dem->ninter,
           imp_dem_real_count(w->dem));
    printf("  state hash %016llx (equal runs, equal hashes; also across thread counts)\n",
           imp_world_state_hash(w));
    for (size_t k = 0; k < sizeof yade / sizeof yade[0]; k++) {
        if (yade[k].n == L->n && damping == 0.2) {
            printf("  Yade 2023.02a (yade.md, 1 thread, %ld steps): %.3e particle-steps/s overall, "
                   "%.3e in the dense packing; peak RSS %.0f MB; final mean z %.5f, contacts "
                   "%.0f, coord %.2f\n",
                   yade[k].steps, yade[k].pss, yade[k].pss_last, yade[k].rss_mb, yade[k].mean_z,
                   yade[k].contacts, yade[k].coord);
            if (steps >= yade[k].steps) {
                printf("  speed ratio impact / Yade (wall): %.2f overall, %.2f in the dense "
                       "packing\n", pss / yade[k].pss, seg_pss_last / yade[k].pss_last);
            } else {
                printf("  (shorter run than Yade's: compare the segments above)\n");
            }
            if (steps >= yade[k].steps) {
                printf("  final mean z vs Yade: %+.2f %%\n",
                       100.0 * (m.mean_z - yade[k].mean_z) / yade[k].mean_z);
            }
        }
    }
    imp_world_free(w);
    return 0;
}

/* STEPS steps after FROM, alone under callgrind's instrumentation (when its header is there) */
static int phase(const layout *L, long from, long steps, double damping)
{
    imp_world *w = build(L, damping);
    if (w == NULL) {
        fprintf(stderr, "bench_dem: could not build N = %d\n", L->n);
        return 1;
    }
    bench_window_start at;
    double cpu;
    int rc = bench_window_run(w, from, steps, &at, &cpu);
    const imp_dem *d = w->dem;
    if (rc != 0) {
        fprintf(stderr, "bench_dem: %s\n", imp_world_error(w));
    } else {
        printf("deposition N = %d, steps %ld to %ld: %.3e particle-steps per CPU second, "
               "collider runs %ld, real interactions %d to %d (all %d), state hash %016llx\n",
               L->n, from, from + steps, L->n * (double)steps / cpu, d->collider_runs - at.collider_runs,
               at.real, imp_dem_real_count(d), d->ninter, imp_world_state_hash(w));
    }
    imp_world_free(w);
    return rc;
}

/* ---- impact beside Yade ------------------------------------------------------------------- */

/* this process's VmRSS or VmHWM, kB (-1 when /proc is not there) */
static long status_kb(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL) {
        return -1;
    }
    char line[256];
    long v = -1;
    size_t len = strlen(field);
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, field, len) == 0 && line[len] == ':') {
            v = atol(line + len + 1);
            break;
        }
    }
    fclose(f);
    return v;
}

/* one side's figures */
typedef struct result {
    int ok;
    long steps, last_steps;
    double wall, cpu, last_wall, last_cpu; /* s: all steps, the last quarter */
    double hwm_mb, start_mb;               /* peak RSS, RSS before building the scene */
    double mean_z, max_z;                  /* sphere centres at the end, m */
    long contacts;
    unsigned long long hash;
} result;

/* impact's run, in this (child) process */
static result run_impact(const layout *L, long steps, double damping)
{
    result r;
    memset(&r, 0, sizeof r);
#ifdef _OPENMP
    omp_set_num_threads(1);  /* one core, as Yade's -j1 */
#endif
    r.start_mb = status_kb("VmRSS") / 1024.0;
    imp_world *w = build(L, damping);
    if (w == NULL) {
        return r;
    }
    long first = steps - steps / 4;
    double t0 = bench_now(), c0 = cpu_now(), t1 = t0, c1 = c0;
    for (long k = 0; k < steps; k++) {
        if (k == first) {
            t1 = bench_now(), c1 = cpu_now();
        }
        if (imp_world_step(w) != IMP_OK) {
            fprintf(stderr, "bench_dem: %s\n", imp_world_error(w));
            imp_world_free(w);
            return r;
        }
    }
    double t2 = bench_now(), c2 = cpu_now();
    measure m = measure_now(w);
    r.ok = 1;
    r.steps = steps;
    r.last_steps = steps - first;
    r.wall = t2 - t0, r.cpu = c2 - c0;
    r.last_wall = t2 - t1, r.last_cpu = c2 - c1;
    long hwm = status_kb("VmHWM");
    r.hwm_mb = hwm > 0 ? hwm / 1024.0 : bench_peak_mib();
    r.mean_z = m.mean_z, r.max_z = m.max_z;
    r.contacts = m.n_ss + m.n_sw;
    r.hash = imp_world_state_hash(w);
    imp_world_free(w);
    return r;
}

/* impact's run in a child process (its own peak RSS), the result through a pipe */
typedef struct impact_args {
    const layout *L;
    long steps;
    double damping;
} impact_args;

static void impact_in_child(const void *ctx, void *out)
{
    const impact_args *a = ctx;
    *(result *)out = run_impact(a->L, a->steps, a->damping);
}

static result run_impact_child(const layout *L, long steps, double damping)
{
    result r;
    memset(&r, 0, sizeof r);
    impact_args a = {L, steps, damping};
    if (bench_in_child(impact_in_child, &a, &r, sizeof r, NULL) == 0) {
        return run_impact(L, steps, damping);
    }
    return r;
}

/* value of key=... in a YADE_RESULT line (NAN when absent) */
static double field(const char *line, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *p = strstr(line, pat);
    return p != NULL ? atof(p + strlen(pat)) : NAN;
}

/* the Yade script: DEM_BENCH_YADE_SCRIPT, bench/ from the current directory (make bench runs
   from the top), or ../../bench/ from the binary (build/bench/bench_dem) */
static int yade_script(const char *argv0, char *out, size_t size)
{
    const char *env = getenv("DEM_BENCH_YADE_SCRIPT");
    if (env != NULL) {
        snprintf(out, size, "%s", env);
        return access(out, R_OK) == 0;
    }
    snprintf(out, size, "bench/yade_deposit.py");
    if (access(out, R_OK) == 0) {
        return 1;
    }
    const char *slash = strrchr(argv0, '/');
    int dir = slash != NULL ? (int)(slash - argv0) : 1;
    snprintf(out, size, "%.*s/../../bench/yade_deposit.py", dir, slash != NULL ? argv0 : ".");
    return access(out, R_OK) == 0;
}

/* Yade's run of the same deposition (one thread); r.ok = 0 when it failed */
static result run_yade(const char *script, const layout *L, long steps, double damping,
                       char *version, size_t vsize)
{
    result r;
    memset(&r, 0, sizeof r);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "OMP_NUM_THREADS=1 yade -n -x -j1 '%s' %d %.17g %ld 2>&1", script,
             L->n, damping, steps);
    fflush(stdout);
    FILE *p = popen(cmd, "r");
    if (p == NULL) {
        return r;
    }
    char line[4096];
    while (fgets(line, sizeof line, p) != NULL) {
        if (strncmp(line, "YADE_RESULT ", 12) != 0) {
            continue;
        }
        const char *v = strstr(line, " version=");
        if (v != NULL) {
            snprintf(version, vsize, "%.*s", (int)strcspn(v + 9, " \n"), v + 9);
        }
        r.steps = (long)field(line, "steps");
        r.last_steps = (long)field(line, "last_steps");
        r.wall = field(line, "wall"), r.cpu = field(line, "cpu");
        r.last_wall = field(line, "last_wall"), r.last_cpu = field(line, "last_cpu");
        r.hwm_mb = field(line, "hwm_kb") / 1024.0;
        r.start_mb = field(line, "rss_start_kb") / 1024.0;
        r.mean_z = field(line, "mean_z"), r.max_z = field(line, "max_z");
        r.contacts = (long)field(line, "contacts");
        r.ok = r.steps == steps && r.wall > 0.0 && r.cpu > 0.0 && isfinite(r.mean_z);
    }
    pclose(p);
    return r;
}

static void print_side(const char *name, const result *r, int n)
{
    printf("  %-6s %8.2f s wall %8.2f s CPU: %.3e particle-steps/s (wall), %.3e (CPU); last "
           "quarter (%ld steps%s) %.3e (wall), %.3e (CPU)\n", name, r->wall, r->cpu,
           n * (double)r->steps / r->wall, n * (double)r->steps / r->cpu, r->last_steps,
           r->steps >= 20000 ? ": the dense packing" : "", n * (double)r->last_steps / r->last_wall,
           n * (double)r->last_steps / r->last_cpu);
    printf("  %-6s peak RSS %.1f MiB (%.1f MiB before the scene, growth %.1f MiB); final mean "
           "z %.5f m, max z %.4f m, contacts %ld\n", "", r->hwm_mb, r->start_mb,
           r->hwm_mb - r->start_mb, r->mean_z, r->max_z, r->contacts);
}

/* one size: impact, then Yade, then the comparison */
static int compare(const layout *L, long steps, double damping, const char *script,
                   const char *why_not, int rounds)
{
    printf("\ndeposition N = %d (%dx%dx%d), damping %.2f, %ld steps of dt = 0.5 P-wave step, one "
           "thread each\n", L->n, L->nx, L->ny, L->nz, damping, steps);
    /* rounds > 1: impact and Yade alternate, so a slow spell of this shared machine hits both;
       each round's ratio, then the fastest run of each side */
    result us = {0}, y = {0};
    char version[64] = "?";
    int have_yade = 0;
    for (int r = 0; r < rounds; r++) {
        result u = run_impact_child(L, steps, damping);
        if (!u.ok) {
            fprintf(stderr, "bench_dem: impact's run of N = %d failed\n", L->n);
            return 1;
        }
        us = r == 0 || u.wall < us.wall ? u : us;
        if (script == NULL) {
            break;
        }
        result yr = run_yade(script, L, steps, damping, version, sizeof version);
        if (!yr.ok) {
            printf("  Yade: the run failed (yade -n -x -j1 %s %d %.2f %ld)\n", script, L->n,
                   damping, steps);
            continue;
        }
        y = !have_yade || yr.wall < y.wall ? yr : y;
        have_yade = 1;
        if (rounds > 1) {
            printf("  round %d: impact %.3f s, Yade %.3f s wall: %.2fx\n", r + 1, u.wall, yr.wall,
                   yr.wall / u.wall);
        }
    }
    print_side("impact", &us, L->n);
    if (script == NULL) {
        printf("  Yade: not run (%s): no comparison\n", why_not);
        return 0;
    }
    if (!have_yade) {
        printf("  Yade: no run succeeded: no comparison\n");
        return 0;
    }
    print_side("Yade", &y, L->n);
    printf("  impact / Yade (Yade %s, same run%s): %.2fx particle-steps/s (wall), %.2fx (CPU); "
           "last quarter %.2fx (wall), %.2fx (CPU); target 5x\n", version,
           rounds > 1 ? ", fastest of each side's runs" : "", y.wall / us.wall, y.cpu / us.cpu,
           y.last_wall / us.last_wall, y.last_cpu / us.last_cpu);
    printf("  peak RSS: impact %.1f MiB, Yade %.1f MiB (growth for the scene: %.1f vs %.1f MiB)\n",
           us.hwm_mb, y.hwm_mb, us.hwm_mb - us.start_mb, y.hwm_mb - y.start_mb);
    if (steps >= 20000) {
        double rel = 100.0 * (us.mean_z - y.mean_z) / y.mean_z;
        printf("  packing height (mean sphere centre z, settled): impact %.5f m, Yade %.5f m: "
               "%+.2f %% (target within 2 %%: %s); max z %.4f vs %.4f m\n", us.mean_z, y.mean_z,
               rel, fabs(rel) <= 2.0 ? "met" : "NOT met", us.max_z, y.max_z);
    } else {
        printf("  packing height: not compared after %ld steps (the pile is still settling; "
               "mean z impact %.5f m, Yade %.5f m)\n", steps, us.mean_z, y.mean_z);
    }
    return 0;
}

/* whether the comma-separated list names this size */
static int size_listed(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; *p != '\0';) {
        const char *end = strchr(p, ',');
        size_t n = end != NULL ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, name, len) == 0) {
            return 1;
        }
        p += n + (end != NULL);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3) {
        int n = atoi(argv[1]);
        long steps = atol(argv[2]);
        double damping = argc >= 4 ? atof(argv[3]) : 0.2;
        long from = argc >= 5 ? atol(argv[4]) : -1;
        for (size_t k = 0; k <= sizeof layouts / sizeof layouts[0]; k++) {
            const layout *L = k < sizeof layouts / sizeof layouts[0] ? &layouts[k] : &layout_100k;
            if (L->n == n && steps > 0) {
                return from >= 0 ? phase(L, from, steps, damping) : run(L, steps, damping);
            }
        }
        fprintf(stderr, "usage: bench_dem [N STEPS [DAMPING [FROM]]] with N = 1000, 10000, 50000 "
                        "or 100000\n");
        return 2;
    }
    char path[1024];
    const char *script = NULL, *why_not = NULL;
    const char *env = getenv("DEM_BENCH_YADE");
    if (env != NULL && strcmp(env, "0") == 0) {
        why_not = "DEM_BENCH_YADE=0";
    } else if (system("command -v yade > /dev/null 2>&1") != 0) {
        why_not = "Yade is not installed: apt-get install --no-install-recommends yade";
    } else if (!yade_script(argv[0], path, sizeof path)) {
        why_not = "bench/yade_deposit.py not found: run from the top directory";
    } else {
        script = path;
    }
    /* DEM_BENCH_STEPS (N = 1000, 10000; default 20000) and DEM_BENCH_STEPS_50K (default
       2000) for shorter runs */
    long steps = getenv("DEM_BENCH_STEPS") ? atol(getenv("DEM_BENCH_STEPS")) : 20000;
    long steps50k = getenv("DEM_BENCH_STEPS_50K") ? atol(getenv("DEM_BENCH_STEPS_50K")) : 2000;
    steps = steps > 0 ? steps : 20000;
    steps50k = steps50k > 0 ? steps50k : 2000;
    /* DEM_BENCH_ROUNDS: alternating runs of each side at N = 1000 (default 3; the larger
       sizes run once: Yade takes minutes there) */
    int rounds1k = getenv("DEM_BENCH_ROUNDS") ? atoi(getenv("DEM_BENCH_ROUNDS")) : 3;
    rounds1k = rounds1k > 0 ? rounds1k : 1;
    /* DEM_BENCH_SIZES: the sizes to run, e.g. "1000" or "1000,10000" (default: all three) */
    const char *sizes = getenv("DEM_BENCH_SIZES");
    printf("gravity deposition (yade.md scenario A), impact beside Yade in the same run\n");
    int rc = 0;
    for (size_t k = 0; k < sizeof layouts / sizeof layouts[0]; k++) {
        char name[16];
        snprintf(name, sizeof name, "%d", layouts[k].n);
        if (sizes != NULL && !size_listed(sizes, name)) {
            continue;
        }
        int rounds = layouts[k].n == 1000 ? rounds1k : 1;
        rc |= compare(&layouts[k], layouts[k].n == 50000 ? steps50k : steps, 0.2, script, why_not,
                      rounds);
    }
    return rc;
}
