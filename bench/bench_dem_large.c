/* bench_dem_large.c: the gravity deposition of bench_dem.c (yade.md scenario A: integer-arithmetic
   initial state, 5 infinite walls, linear Cundall-Strack law, E = 1e7, ks/kn = 0.3, friction
   angle 0.5, damping 0.2, dt = 0.5 P-wave step) at N = 10,000 (25 x 25 x 16, bench_dem's), 100,000
   (125 x 50 x 16) and 1,000,000 (250 x 250 x 16): the 16 layers of bench_dem's N = 10,000 on a
   wider floor. Each size runs impact with OpenMP over every core, impact on one core, and
   LIGGGHTS on one core (when `liggghts` is installed: ../shared/peers/liggghts/in.deposit, its
   inputs written under $LIGGGHTS_WORK, default /tmp/liggghts_large, as that folder's gen.py
   writes them for N = 1000 and 10,000), each in a process of its own, back to back; it prints
   particle-steps per second (the steps only: scene building and LIGGGHTS' setup excluded), the
   peak resident memory of the process (wait4's ru_maxrss, the figure of /usr/bin/time -v), the
   packing height (mean and max z of the sphere centres), the sphere-sphere contacts of both codes
   (LIGGGHTS' contact/atom counts no wall contact) and, from a sample of both runs every 1000
   steps (impact's taken outside the timed steps; LIGGGHTS' thermo), the rates and the contacts
   per sphere of the phases (falling 0-1000, landing 1000-5000, dense settling 5000 to the end:
   the work per step) and both states every 2000 steps, so that one sees whether both ran the
   same phase. After 20,000 steps it puts both settled heights beside Yade's (10,000: yade.md;
   100,000: 05-dem.md's checkpointed run).

     bench_dem_large                 N = 10,000, the whole deposition (20,000 steps), and
                                     100,000, the falling phase (1000 steps): a few minutes
                                     (make bench, make bench-dem-large)
     DEM_LARGE_SIZES=10000           that size only; DEM_LARGE_SIZES=100000,1000000 those two
                                     (1,000,000 only when asked: some 10 minutes of a loaded
                                     machine and 1.3 GiB)
     DEM_LARGE_STEPS_10K=20000       steps at N = 10,000 (default 20000: the whole deposition)
     DEM_LARGE_STEPS=20000           steps at N = 100,000 (default 1000: the falling phase, the
                                     same work in both codes; 20000: the whole deposition, some
                                     20 CPU minutes for impact's two runs and LIGGGHTS');
                                     DEM_LARGE_STEPS_1M at 1,000,000 (default 1000)
     DEM_LARGE_ROUNDS=2              the one-core runs of both codes that many times, the order
                                     alternating (round 1 impact first, round 2 LIGGGHTS first),
                                     and the ratios of the rounds (median and spread)
     DEM_LARGE_LIGGGHTS=0            impact only
     DEM_LARGE_LIGGGHTS_G=9.81       LIGGGHTS' gravity (default 7.848 = (1 - 0.2) 9.81: below)
     DEM_LARGE_THREADS=1             impact on one core only
     DEM_LARGE_LAW=viscous           the like-for-like comparison instead: impact with
                                     LIGGGHTS' physics (the viscoelastic law, dem_law_viscous.c:
                                     the dashpots of e = 0.8165 of gen.py, tangential while
                                     sticking, Cundall's damping 0) and LIGGGHTS on its own input
                                     (gravity 9.81 in both); DEM_LARGE_LAW=both: Yade's physics
                                     first (the default comparison, below), then the like-for-like
                                     one, and both ratios
     OMP_WAIT_POLICY=active          libgomp's spinning barriers (default here: passive, set
                                     by the bench when the variable is unset)
     bench_dem_large window FROM STEPS
                                     impact alone at N = 10,000 on the law DEM_LARGE_LAW names
                                     (cundall, the default, or viscous), in this process on
                                     OMP_NUM_THREADS: FROM steps, then STEPS steps measured
                                     (CPU rate, collider runs, interactions made and state
                                     hash), the only ones callgrind counts under valgrind
                                     --tool=callgrind --instr-atstart=no (bench_dem's window)

   For the figures of one core on a shared machine: DEM_LARGE_THREADS=1 DEM_LARGE_ROUNDS=2
   taskset -c 1 bench_dem_large (both codes inherit the pinning).

   The scene is bench_dem's; LIGGGHTS' differs by its damping (contact dashpots of the
   restitution Cundall's 0.2 gives a binary collision: ../shared/peers/liggghts/README.md).
   Cundall's damping scales every acceleration by 1 - 0.2 sgn(a v), gravity included, so
   impact's (and Yade's) spheres fall at 0.8 g: LIGGGHTS at 9.81 falls faster, lands earlier
   and by step 3000 is in another phase of the deposition (N = 100,000: 70,387 sphere contacts
   against impact's 9288, mean z 0.107 against 0.145 m). LIGGGHTS therefore runs at 0.8 g here
   unless told otherwise: both free falls are then the same (kinetic energies to 7 digits;
   mean z apart by the leapfrog's half step, 1.6e-5 m at step 1000) until the first landing
   (step 926: a 12 mm sphere of the lowest layer falling 14 mm), and the 1000 falling steps
   compare the same work. After the landings the two damping laws part (at step 3000, N =
   100,000, LIGGGHTS at 0.8 g has 39,205 sphere contacts and mean z 0.120 m), so rates over a
   window past step 1000 compare different work; impact's cloud goes as Yade's (N = 1000,
   step 2000: mean z 0.10215 m in both, LIGGGHTS at 0.8 g 0.0979). With the damping off in
   both codes (impact 0, LIGGGHTS e = 1, both at 9.81) the two give the same mean z within
   1.2e-4 m and sphere contacts within 6 % to step 3000 at N = 10,000: the scenes are the same.
   At 9.81 LIGGGHTS' settled pile is 5-7 % lower than impact's at N = 1000 and 10,000; Yade's
   (bench/yade_deposit.py) matches impact's height within 0.1 % at N = 10,000. */
#define _DEFAULT_SOURCE /* wait4 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../test/c/dem_scene.h"
#include "bench_child.h"
#include "bench_util.h"
#include "bench_window.h"

#ifdef _OPENMP
#include <omp.h>
#endif

#define D_GRID DEM_SCENE_D
#define RHO DEM_SCENE_RHO
#define YOUNG DEM_SCENE_YOUNG
#define KS_RATIO DEM_SCENE_KS_RATIO
#define FRICTION DEM_SCENE_FRICTION
#define DAMPING 0.2
#define PI_ 3.14159265358979323846

typedef struct layout {
    int n, nx, ny, nz;
} layout;

static const layout layouts[] = {
    {10000, 25, 25, 16}, {100000, 125, 50, 16}, {1000000, 250, 250, 16}};

/* Yade 2023.02a's settled packing height (mean z of the sphere centres after 20,000 steps, one
   thread, damping 0.2): ../shared/reference/yade.md for 10,000, 05-dem.md's checkpointed run
   (session 15) for 100,000 */
static double yade_mean_z(int n) { return n == 10000 ? 0.09630 : n == 100000 ? 0.095920 : 0.0; }

/* the phases of the deposition by step: the free fall (no contact but the first landings at its
   end), the landing of the layers, the dense pile settling */
#define FALL_END 1000
#define LAND_END 5000
#define SAMPLE_EVERY 1000
#define MAX_SAMPLES 128 /* the samples kept (steps past 127,000: not sampled) */

/* the normal restitution of LIGGGHTS' dashpots (gen.py): Cundall's damping's in a binary
   collision, sqrt((1 - 0.2) / (1 + 0.2)) = 0.8165 */
static double restitution(void) { return sqrt((1 - DAMPING) / (1 + DAMPING)); }

/* 1: impact runs LIGGGHTS' physics (the like-for-like comparison, DEM_LARGE_LAW) */
static int law_viscous;

static imp_world *build(const layout *L)
{
    imp_world *w = dem_scene_deposit(L->n, L->nx, L->ny, law_viscous ? 0.0 : DAMPING, -0.1);
    if (w != NULL && law_viscous) {
        w->dem->p.law = IMP_DEM_LAW_VISCOUS;
        w->dem->p.en = restitution();
        w->dem->p.tangential_damping = 1;
    }
    return w;
}

/* one run's figures (a child process writes them to a pipe) */
typedef struct result {
    int ok;
    long steps;
    double wall, cpu;      /* s, the steps only */
    double build_wall;     /* s, building the scene (impact) or LIGGGHTS' whole run */
    double mean_z, max_z;  /* sphere centres at the end, m */
    long contacts, contacts_sw; /* real sphere-sphere and sphere-wall contacts (LIGGGHTS: -1) */
    double peak_mib;       /* the process's peak RSS (filled by the parent from wait4) */
    unsigned long long hash;
    /* the state every SAMPLE_EVERY steps (step 0 first): time of the steps so far (LIGGGHTS:
       its thermo's cpu column, the loop's wall time), mean z, sphere-sphere contacts,
       translational kinetic energy (LIGGGHTS' thermo ke: the spins not counted) */
    int nsamples;
    long s_step[MAX_SAMPLES];
    double s_wall[MAX_SAMPLES], s_cpu[MAX_SAMPLES], s_mean_z[MAX_SAMPLES], s_ke[MAX_SAMPLES];
    long s_contacts[MAX_SAMPLES];
} result;

static double cpu_now(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* a sample of impact's state (after `step` steps, in wall and cpu seconds of steps): mean z,
   sphere-sphere contacts (overlap > 0, as LIGGGHTS' contact/atom counts them), translational
   kinetic energy (the leapfrog's half-step velocities) */
static void sample(const imp_dem *d, result *r, long step, double wall, double cpu)
{
    if (r->nsamples >= MAX_SAMPLES) {
        return;
    }
    double z = 0.0, ke = 0.0;
    int ns = 0;
    for (int i = 0; i < d->n; i++) {
        if (d->kind[i] == IMP_DEM_SPHERE) {
            const double *v = d->vel + 3 * i;
            z += d->pos[3 * i + 2];
            ke += 0.5 * d->mass[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            ns++;
        }
    }
    long c = 0;
    for (int k = 0; k < d->ninter; k++) {
        const imp_dem_inter *I = &d->inter[k];
        c += I->real && I->un > 0.0 && d->kind[I->a] == IMP_DEM_SPHERE;
    }
    int j = r->nsamples++;
    r->s_step[j] = step, r->s_wall[j] = wall, r->s_cpu[j] = cpu;
    r->s_mean_z[j] = z / (ns > 0 ? ns : 1), r->s_ke[j] = ke, r->s_contacts[j] = c;
}

static result run_impact(const layout *L, long steps, int threads)
{
    result r;
    memset(&r, 0, sizeof r);
#ifdef _OPENMP
    omp_set_num_threads(threads);
#else
    (void)threads;
#endif
    double t0 = bench_now();
    imp_world *w = build(L);
    if (w == NULL) {
        return r;
    }
    r.build_wall = bench_now() - t0;
    double wall = 0.0, cpu = 0.0;
    for (long k = 0;; k++) {
        if (k % SAMPLE_EVERY == 0 || k == steps) {
            sample(w->dem, &r, k, wall, cpu);
        }
        if (k == steps) {
            break;
        }
        double t1 = bench_now(), c1 = cpu_now();
        long todo = SAMPLE_EVERY - k % SAMPLE_EVERY;
        todo = todo < steps - k ? todo : steps - k;
        for (long j = 0; j < todo; j++) {
            if (imp_world_step(w) != IMP_OK) {
                fprintf(stderr, "bench_dem_large: %s\n", imp_world_error(w));
                imp_world_free(w);
                return r;
            }
        }
        wall += bench_now() - t1;
        cpu += cpu_now() - c1;
        k += todo - 1;
    }
    r.wall = wall;
    r.cpu = cpu;
    r.steps = steps;
    const imp_dem *d = w->dem;
    int ns = 0;
    for (int i = 0; i < d->n; i++) {
        if (d->kind[i] == IMP_DEM_SPHERE) {
            r.mean_z += d->pos[3 * i + 2];
            r.max_z = fmax(r.max_z, d->pos[3 * i + 2]);
            ns++;
        }
    }
    r.mean_z /= ns > 0 ? ns : 1;
    for (int k = 0; k < d->ninter; k++) {
        const imp_dem_inter *I = &d->inter[k];
        if (I->real) {
            d->kind[I->a] == IMP_DEM_SPHERE ? r.contacts++ : r.contacts_sw++;
        }
    }
    r.hash = imp_world_state_hash(w);
    r.ok = 1;
    imp_world_free(w);
    return r;
}

/* the window mode (the header): FROM steps, then STEPS measured, the only ones callgrind counts */
static int window(long from, long steps)
{
    imp_world *w = build(&layouts[0]);
    if (w == NULL) {
        fprintf(stderr, "bench_dem_large: could not build N = %d\n", layouts[0].n);
        return 1;
    }
    bench_window_start at;
    double cpu;
    int rc = bench_window_run(w, from, steps, &at, &cpu);
    const imp_dem *d = w->dem;
    if (rc != 0) {
        fprintf(stderr, "bench_dem_large: %s\n", imp_world_error(w));
    } else {
        printf("window N = %d, %s law, steps %ld to %ld: %.3e particle-steps per CPU second, "
               "collider runs %ld, real interactions %d to %d (all %d to %d), state hash "
               "%016llx\n", layouts[0].n, law_viscous ? "viscous" : "cundall", from,
               from + steps, layouts[0].n * (double)steps / cpu, d->collider_runs - at.collider_runs,
               at.real, imp_dem_real_count(d), at.all, d->ninter, imp_world_state_hash(w));
    }
    imp_world_free(w);
    return rc;
}

/* impact in a child process: its own peak RSS */
typedef struct impact_args {
    const layout *L;
    long steps;
    int threads;
} impact_args;

static void impact_in_child(const void *ctx, void *out)
{
    const impact_args *a = ctx;
    *(result *)out = run_impact(a->L, a->steps, a->threads);
}

static result impact_child(const layout *L, long steps, int threads)
{
    result r;
    memset(&r, 0, sizeof r);
    impact_args a = {L, steps, threads};
    struct rusage ru;
    if (bench_in_child(impact_in_child, &a, &r, sizeof r, &ru) == 0) {
        return r;
    }
    r.peak_mib = ru.ru_maxrss / 1024.0;
    return r;
}

/* ---- LIGGGHTS ------------------------------------------------------------------------------ */

static double mass_of(double r) { return 4.0 / 3.0 * PI_ * r * r * r * RHO; }

static double rclass(int c) { return 0.008 + 0.004 * c / 100.0; }

/* kn, kt, gamma of a type pair (1: the walls, 2 + c: radius class c), as gen.py: Yade's kn, the
   dashpot of the restitution Cundall's damping gives a binary collision */
static void pair(int ti, int tj, double out[3])
{
    int a = ti < tj ? ti : tj, b = ti < tj ? tj : ti;
    double kn, meff;
    if (a == 1 && b == 1) {
        kn = YOUNG * 0.01, meff = mass_of(0.01);
    } else if (a == 1) {
        double r = rclass(b - 2);
        kn = YOUNG * r, meff = mass_of(r);
    } else {
        double ra = rclass(a - 2), rb = rclass(b - 2);
        kn = 2 * YOUNG * ra * YOUNG * rb / (YOUNG * ra + YOUNG * rb);
        meff = mass_of(ra) * mass_of(rb) / (mass_of(ra) + mass_of(rb));
    }
    double e = restitution(), le = log(e);
    double xi = -le / sqrt(le * le + PI_ * PI_);
    out[0] = kn, out[1] = KS_RATIO * kn, out[2] = 2 * xi * sqrt(kn / meff);
}

static int write_inputs(const char *dir, const layout *L)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/props.liggghts", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        return 0;
    }
    const int nt = 102;
    static const char *names[4] = {"kn", "kt", "gamman", "gammat"};
    for (int k = 0; k < 4; k++) {
        fprintf(f, "fix m%d all property/global %s peratomtypepair %d", k + 1, names[k], nt);
        for (int i = 1; i <= nt; i++) {
            for (int j = 1; j <= nt; j++) {
                double v[3];
                pair(i, j, v);
                fprintf(f, " %.12g", v[k < 3 ? k : 2]);
            }
        }
        fputc('\n', f);
    }
    fprintf(f, "fix m5 all property/global coefficientFriction peratomtypepair %d", nt);
    for (int k = 0; k < nt * nt; k++) {
        fprintf(f, " %.12g", tan(FRICTION));
    }
    fputc('\n', f);
    fclose(f);
    snprintf(path, sizeof path, "%s/data_%d.data", dir, L->n);
    f = fopen(path, "w");
    if (f == NULL) {
        return 0;
    }
    double lx = L->nx * D_GRID, ly = L->ny * D_GRID;
    fprintf(f, "impact bench_dem_large deposition N = %d (%dx%dx%d)\n\n%d atoms\n%d atom types\n\n",
            L->n, L->nx, L->ny, L->nz, L->n, nt);
    fprintf(f, "%.6f %.6f xlo xhi\n%.6f %.6f ylo yhi\n%.6f %.6f zlo zhi\n\nAtoms\n\n", -0.002,
            lx + 0.002, -0.002, ly + 0.002, -0.002, (L->nz + 1) * D_GRID + 0.02);
    for (int i = 0; i < L->n; i++) {
        double p[13];
        dem_scene_initial(L->nx, L->ny, i, p);
        fprintf(f, "%d %d %.17g %.17g %.17g %.17g %.17g\n", i + 1, (i * 37) % 101 + 2,
                2 * dem_scene_radius(i), RHO, p[0], p[1], p[2]);
    }
    fclose(f);
    return 1;
}

/* the peers' in.deposit: $IMPACT_PEERS/liggghts (default ../shared/peers), or ../../../shared/
   peers from build/bench */
static int find_input(const char *argv0, char *out, size_t size)
{
    const char *peers = getenv("IMPACT_PEERS");
    snprintf(out, size, "%s/liggghts/in.deposit", peers != NULL ? peers : "../shared/peers");
    if (access(out, R_OK) == 0) {
        return 1;
    }
    const char *slash = strrchr(argv0, '/');
    int dir = slash != NULL ? (int)(slash - argv0) : 1;
    snprintf(out, size, "%.*s/../../../shared/peers/liggghts/in.deposit", dir,
             slash != NULL ? argv0 : ".");
    return access(out, R_OK) == 0;
}

/* the user CPU time (s) of process pid so far (/proc/pid/stat's utime); -1 when unknown */
static double proc_utime(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return -1.0;
    }
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = '\0';
    const char *p = strrchr(buf, ')');
    unsigned long ut = 0;
    if (p == NULL || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu", &ut) != 1) {
        return -1.0;
    }
    return (double)ut / (double)sysconf(_SC_CLK_TCK);
}

/* The complete thermo rows (7 numbers after a "Step" line) LIGGGHTS' log holds so far; with r,
   they become r's samples, and its last row and "Loop time of T on 1 procs for S steps" its
   figures (the thermo columns: step atoms ke c_zmean c_zmax c_cnsum cpu). */
static int read_thermo(const char *log_path, result *r)
{
    FILE *f = fopen(log_path, "r");
    if (f == NULL) {
        return 0;
    }
    char line[1024];
    double last[7] = {0};
    int in_thermo = 0, rows = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        double v[7];
        const char *t = line + strspn(line, " \t");
        if (strncmp(t, "Step ", 5) == 0) {
            in_thermo = 1;
        } else if (strncmp(t, "Loop time of ", 13) == 0) {
            in_thermo = 0;
            if (r != NULL) {
                r->wall = atof(t + 13);
            }
        } else if (in_thermo && strchr(line, '\n') != NULL
                   && sscanf(line, "%lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3],
                             &v[4], &v[5], &v[6]) == 7) {
            rows++;
            memcpy(last, v, sizeof last);
            if (r != NULL && r->nsamples < MAX_SAMPLES) {
                int j = r->nsamples++;
                r->s_step[j] = (long)v[0], r->s_wall[j] = v[6], r->s_cpu[j] = 0.0;
                r->s_mean_z[j] = v[3], r->s_ke[j] = v[2], r->s_contacts[j] = (long)(v[5] / 2);
            }
        }
    }
    fclose(f);
    if (r != NULL) {
        r->steps = (long)last[0];
        r->mean_z = last[3], r->max_z = last[4];
        r->contacts = (long)(last[5] / 2); /* contact/atom counts each sphere-sphere pair twice */
    }
    return rows;
}

/* one run of LIGGGHTS on the inputs in dir (one process, one thread): whether it succeeded, its
   user CPU time (s) and its peak RSS (MiB, wait4's ru_maxrss); with row_cpu, the user CPU time
   of the process when each thermo row appeared in its log (the log is flushed at each row;
   polled every 20 ms, so each is late by up to 20 ms plus a clock tick), *nrows of them */
static int exec_liggghts(const char *dir, const layout *L, long steps, double gravity,
                         const char *log_path, double *cpu, double *peak, double *row_cpu,
                         int *nrows)
{
    char n[32], nx[32], ny[32], st[32], g[32], th[32], dump[1200];
    snprintf(th, sizeof th, "%d", SAMPLE_EVERY);
    snprintf(g, sizeof g, "%.17g", gravity);
    snprintf(n, sizeof n, "%d", L->n);
    snprintf(nx, sizeof nx, "%d", L->nx);
    snprintf(ny, sizeof ny, "%d", L->ny);
    snprintf(st, sizeof st, "%ld", steps);
    snprintf(dump, sizeof dump, "%s/final_%d.dump", dir, L->n);
    remove(log_path); /* the last run's rows are not this one's */
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        return 0;
    }
    if (pid == 0) {
        if (chdir(dir) != 0) {
            _exit(127);
        }
        setenv("OMP_NUM_THREADS", "1", 1);
        execlp("liggghts", "liggghts", "-in", "in.deposit", "-var", "N", n, "-var", "NX", nx,
               "-var", "NY", ny, "-var", "STEPS", st, "-var", "G", g, "-var", "DUMP", dump, "-var", "THERMO", th,
               "-log", log_path, "-screen", "none", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    while (row_cpu != NULL && wait4(pid, &status, WNOHANG, &ru) == 0) {
        double u = proc_utime(pid);
        int k = read_thermo(log_path, NULL);
        while (*nrows < k && *nrows < MAX_SAMPLES) {
            row_cpu[(*nrows)++] = u;
        }
        struct timespec ts = {0, 20000000L};
        nanosleep(&ts, NULL);
    }
    if (row_cpu == NULL) {
        wait4(pid, &status, 0, &ru);
    }
    remove(dump);
    *cpu = ru.ru_utime.tv_sec + 1e-6 * ru.ru_utime.tv_usec;
    *peak = ru.ru_maxrss / 1024.0;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* the peers' in.deposit with its gravity 9.81 made the variable G, its thermo period 2000 the
   variable THERMO and its thermo rows flushed (the only changes) */
static int copy_input(const char *input, const char *dir)
{
    char cmd[2600];
    snprintf(cmd, sizeof cmd,
             "rm -f '%s/in.deposit' && sed -e 's/^\\(fix  *gravi  *all  *gravity\\)  *9\\.81 /"
             "\\1 ${G} /' -e 's/^thermo  *2000 *$/thermo ${THERMO}/' "
             "-e 's/^\\(thermo_modify .*\\)$/\\1 flush yes/' '%s' > '%s/in.deposit' && "
             "grep -q '^fix  *gravi  *all  *gravity \\${G} ' '%s/in.deposit' && "
             "grep -q '^thermo \\${THERMO}$' '%s/in.deposit' && "
             "grep -q '^thermo_modify .* flush yes$' '%s/in.deposit'", dir, input, dir, dir, dir, dir);
    return system(cmd) == 0;
}

static result run_liggghts(const char *input, const char *dir, const layout *L, long steps,
                           double gravity)
{
    result r;
    memset(&r, 0, sizeof r);
    r.contacts_sw = -1;
    if (!copy_input(input, dir)) {
        fprintf(stderr, "bench_dem_large: %s: no line 'fix gravi all gravity 9.81 ...' or "
                "'thermo 2000' to set\n", input);
        return r;
    }
    if (!write_inputs(dir, L)) {
        return r;
    }
    char log_path[1200];
    snprintf(log_path, sizeof log_path, "%s/log_%d.lammps", dir, L->n);
    /* the setup alone (0 steps), for the CPU time of the steps: the user CPU of the full run
       less the setup's */
    double setup_cpu = 0.0, full_cpu = 0.0, rss = 0.0;
    if (!exec_liggghts(dir, L, 0, gravity, log_path, &setup_cpu, &rss, NULL, NULL)) {
        return r;
    }
    double t0 = bench_now();
    double row_cpu[MAX_SAMPLES];
    int nrows = 0;
    int ok = exec_liggghts(dir, L, steps, gravity, log_path, &full_cpu, &rss, row_cpu, &nrows);
    r.build_wall = bench_now() - t0;
    r.peak_mib = rss;
    r.cpu = full_cpu - setup_cpu;
    if (!ok) {
        return r;
    }
    read_thermo(log_path, &r);
    r.ok = r.steps == steps && r.wall > 0.0;
    /* the samples' CPU times from the polling, from the row of step 0 (after the setup) */
    for (int j = 0; j < r.nsamples && nrows == r.nsamples && row_cpu[0] >= 0.0; j++) {
        r.s_cpu[j] = row_cpu[j] - row_cpu[0];
    }
    return r;
}

static void show(const char *name, const result *r, int n)
{
    char cpu[96] = ""; /* LIGGGHTS reports its loop's wall time only */
    if (r->cpu > 0.0) {
        snprintf(cpu, sizeof cpu, " (CPU %.1f s: %.3e)", r->cpu, n * (double)r->steps / r->cpu);
    }
    char sw[80] = ""; /* LIGGGHTS' contact/atom: sphere-sphere only */
    if (r->contacts_sw >= 0) {
        snprintf(sw, sizeof sw, " (+%ld with walls), state hash %016llx", r->contacts_sw, r->hash);
    }
    printf("  %-22s %8.1f s: %.3e particle-steps/s (wall)%s; peak RSS %7.1f MiB; mean z %.5f "
           "m, max z %.4f m, sphere contacts %ld%s\n", name, r->wall,
           n * (double)r->steps / r->wall, cpu, r->peak_mib, r->mean_z, r->max_z, r->contacts, sw);
}

/* show(), or that the run failed (where: the folder of its inputs and log, "" for none);
   whether it succeeded */
static int shown(const char *name, const result *r, int n, const char *where)
{
    if (!r->ok) {
        printf("  %s: the run failed%s%s%s\n", name, *where ? " (inputs and log in " : "", where,
               *where ? ")" : "");
        return 0;
    }
    show(name, r, n);
    return 1;
}

static double env_double(const char *name, double dflt)
{
    const char *v = getenv(name);
    double x = v != NULL ? atof(v) : 0.0;
    return x > 0.0 ? x : dflt;
}

static long env_long(const char *name, long dflt)
{
    const char *v = getenv(name);
    long x = v != NULL ? atol(v) : 0;
    return x > 0 ? x : dflt;
}

static int listed(const char *list, int n)
{
    char name[32];
    snprintf(name, sizeof name, "%d", n);
    size_t len = strlen(name);
    for (const char *p = list; *p != '\0';) {
        const char *end = strchr(p, ',');
        size_t k = end != NULL ? (size_t)(end - p) : strlen(p);
        if (k == len && strncmp(p, name, len) == 0) {
            return 1;
        }
        p += k + (end != NULL);
    }
    return 0;
}

/* the sample of r at step k (-1: none) */
static int sample_at(const result *r, long k)
{
    for (int j = 0; j < r->nsamples; j++) {
        if (r->s_step[j] == k) {
            return j;
        }
    }
    return -1;
}

/* r's rate over steps from..to (particle-steps per wall second; *cpu: per CPU second, 0 when
   not known) and its mean sphere-sphere contacts per sphere over the samples in (from, to]; 0
   when the run has no samples there */
static double phase_rate(const result *r, int n, long from, long to, double *cpu, double *cpp)
{
    int a = sample_at(r, from), b = sample_at(r, to);
    *cpu = 0.0, *cpp = 0.0;
    if (a < 0 || b < 0 || b <= a) {
        return 0.0;
    }
    double sum = 0.0;
    for (int j = a + 1; j <= b; j++) {
        sum += (double)r->s_contacts[j] / n;
    }
    *cpp = sum / (b - a);
    double ps = (double)n * (double)(to - from), dc = r->s_cpu[b] - r->s_cpu[a];
    *cpu = dc > 0.0 ? ps / dc : 0.0;
    double dw = r->s_wall[b] - r->s_wall[a];
    return dw > 0.0 ? ps / dw : 0.0;
}

/* the phases side by side: rates, contacts per sphere (the work per step), the ratio */
static void show_phases(const result *one, const result *lig, int n, long steps)
{
    static const char *names[4] = {"falling", "landing", "dense settling", "whole run"};
    const long from[4] = {0, FALL_END, LAND_END, 0};
    const long to[4] = {FALL_END, LAND_END, steps, steps};
    printf("  by phase, one core (particle-steps per wall and per CPU second: impact's clock(), "
           "LIGGGHTS' thermo cpu column and its /proc utime polled; sphere contacts per sphere, "
           "mean of the samples):\n");
    for (int k = 0; k < 4; k++) {
        if (to[k] > steps || to[k] <= from[k]) {
            continue;
        }
        double ic, icpp, lc = 0.0, lcpp = 0.0;
        double iw = phase_rate(one, n, from[k], to[k], &ic, &icpp);
        double lw = lig != NULL ? phase_rate(lig, n, from[k], to[k], &lc, &lcpp) : 0.0;
        printf("    %-14s %5ld-%-5ld impact %.3e (CPU %.3e), %.2f contacts/sphere", names[k],
               from[k], to[k], iw, ic, icpp);
        if (lw > 0.0 && lc > 0.0 && ic > 0.0) {
            printf(" | LIGGGHTS %.3e (CPU %.3e), %.2f contacts/sphere | CPU %.2fx (wall %.2fx)",
                   lw, lc, lcpp, ic / lc, iw / lw);
        } else if (lw > 0.0) {
            printf(" | LIGGGHTS %.3e, %.2f contacts/sphere | wall %.2fx", lw, lcpp, iw / lw);
        }
        printf("\n");
    }
}

/* the two runs' states side by side every 2000 steps: the phases' agreement */
static void show_trajectories(const result *one, const result *lig)
{
    printf("  the same phase? step: impact mean z (m), sphere contacts, KE (J, translational) | "
           "LIGGGHTS the same\n");
    for (int j = 0; j < one->nsamples; j++) {
        long k = one->s_step[j];
        if (k % 2000 != 0 && j != one->nsamples - 1) {
            continue;
        }
        int l = sample_at(lig, k);
        printf("    %6ld: %.5f %7ld %.4e", k, one->s_mean_z[j], one->s_contacts[j], one->s_ke[j]);
        if (l >= 0) {
            printf(" | %.5f %7ld %.4e", lig->s_mean_z[l], lig->s_contacts[l], lig->s_ke[l]);
        }
        printf("\n");
    }
}

static void show_yade(const char *name, const result *r, int n)
{
    double y = yade_mean_z(n);
    if (y > 0.0 && r->steps >= 20000) {
        double dev = 100.0 * (r->mean_z - y) / y;
        printf("  settled height beside Yade 2023.02a (mean z %.5f m): %s %.5f m, %+.2f %% (%s 2 "
               "%%)\n", y, name, r->mean_z, dev, fabs(dev) <= 2.0 ? "within" : "NOT within");
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* the rounds' ratios: each, their median and spread */
static void show_rounds(const char *what, const double *x, int m)
{
    double s[16];
    printf("  %s, %d round%s:", what, m, m > 1 ? "s" : "");
    for (int k = 0; k < m; k++) {
        printf(" %.2fx", x[k]);
        s[k] = x[k];
    }
    qsort(s, (size_t)m, sizeof s[0], cmp_double);
    double med = m % 2 ? s[m / 2] : 0.5 * (s[m / 2 - 1] + s[m / 2]);
    printf(" (median %.2fx, spread %.2f-%.2fx; target 3x)\n", med, s[0], s[m - 1]);
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "window") == 0) {
        const char *lw = getenv("DEM_LARGE_LAW");
        law_viscous = lw != NULL && strcmp(lw, "viscous") == 0;
        if (lw != NULL && !law_viscous && strcmp(lw, "cundall") != 0) {
            fprintf(stderr, "bench_dem_large window: DEM_LARGE_LAW must be cundall or viscous, "
                            "got '%s'\n", lw);
            return 2;
        }
        long from = atol(argv[2]), steps = atol(argv[3]);
        if (from < 0 || steps <= 0) {
            fprintf(stderr, "bench_dem_large window: FROM >= 0 and STEPS > 0, got %s %s\n",
                    argv[2], argv[3]);
            return 2;
        }
        return window(from, steps);
    }
    if (getenv("OMP_WAIT_POLICY") == NULL) {
        /* libgomp reads it when the process starts: set, then run again. Its default spins at
           every barrier, which on a machine shared with other jobs burns the threads' time
           while the thread waited for is not running (at N = 10,000, 2 threads under a load
           of 9 on 2 cores: 24 s of CPU against 1 s passive) */
        setenv("OMP_WAIT_POLICY", "passive", 1);
        execv("/proc/self/exe", argv);
    }
    int cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
    cores = cores > 0 ? cores : 1;
    const char *sizes = getenv("DEM_LARGE_SIZES") ? getenv("DEM_LARGE_SIZES") : "10000,100000";
    /* LIGGGHTS at impact's free fall: Cundall's damping 0.2 takes 0.2 of gravity in flight */
    double lig_g = env_double("DEM_LARGE_LIGGGHTS_G", (1.0 - DAMPING) * 9.81);
    /* the comparisons: 0 Yade's physics, 1 like for like (DEM_LARGE_LAW) */
    const char *law = getenv("DEM_LARGE_LAW");
    int mode_first = 0, mode_last = 0;
    if (law != NULL && strcmp(law, "viscous") == 0) {
        mode_first = mode_last = 1;
    } else if (law != NULL && strcmp(law, "both") == 0) {
        mode_last = 1;
    } else if (law != NULL && *law != '\0' && strcmp(law, "cundall") != 0) {
        fprintf(stderr, "bench_dem_large: DEM_LARGE_LAW must be cundall, viscous or both, got "
                        "%s\n", law);
        return 2;
    }
    const char *lg = getenv("DEM_LARGE_LIGGGHTS");
    const char *th = getenv("DEM_LARGE_THREADS");
    int one_only = th != NULL && strcmp(th, "1") == 0;
    int rounds = (int)env_long("DEM_LARGE_ROUNDS", 1);
    rounds = rounds < 16 ? rounds : 16;
    char input[1200];
    const char *why_not = NULL;
    if (lg != NULL && strcmp(lg, "0") == 0) {
        why_not = "DEM_LARGE_LIGGGHTS=0";
    } else if (system("command -v liggghts > /dev/null 2>&1") != 0) {
        why_not = "LIGGGHTS is not installed: apt-get install liggghts";
    } else if (!find_input(argv[0], input, sizeof input)) {
        why_not = "../shared/peers/liggghts/in.deposit not found (IMPACT_PEERS)";
    }
    const char *work = getenv("LIGGGHTS_WORK") ? getenv("LIGGGHTS_WORK") : "/tmp/liggghts_large";
    if (why_not == NULL) {
        mkdir(work, 0777);
    }
    const char *policy = getenv("OMP_WAIT_POLICY");
    printf("gravity deposition at large N (bench_dem's scene, 16 layers), %d cores, "
           "OMP_WAIT_POLICY=%s\n", cores, policy != NULL ? policy : "(unset: libgomp spins)");
    int rc = 0;
    for (size_t k = 0; k < sizeof layouts / sizeof layouts[0]; k++) {
        const layout *L = &layouts[k];
        if (sizes != NULL && !listed(sizes, L->n)) {
            continue;
        }
        long steps = L->n == 10000     ? env_long("DEM_LARGE_STEPS_10K", 20000)
                     : L->n == 100000 ? env_long("DEM_LARGE_STEPS", 1000)
                                      : env_long("DEM_LARGE_STEPS_1M", 1000);
        double dt = 0.5 * 0.008 / sqrt(YOUNG / RHO);
        printf("\ndeposition N = %d (%dx%dx%d, floor %.2f x %.2f m), %ld steps of dt = %.6g s "
               "(%.3f s)%s\n", L->n, L->nx, L->ny, L->nz, L->nx * D_GRID, L->ny * D_GRID, steps,
               dt, steps * dt,
               steps >= 20000 ? ": the whole deposition, the pile settles"
               : steps <= 1000 ? ": the falling phase, the same work in both codes"
                               : ": past the first landings, the codes' phases part");
        for (int mode = mode_first; mode <= mode_last; mode++) {
            law_viscous = mode;
            const double g = mode ? 9.81 : lig_g; /* LIGGGHTS' gravity */
            if (mode) {
                printf("  like for like: impact runs LIGGGHTS' physics (the viscoelastic law, e = "
                       "%.4f, the tangential dashpot while sticking, Cundall's damping 0), both "
                       "at g 9.81\n", restitution());
            } else {
                printf("  Yade's physics in impact (Cundall-Strack, Cundall's damping 0.2), "
                       "LIGGGHTS its dashpots at g %.4g\n", g);
            }
            result all = {0}, one = {0}, lig = {0};
            if (!one_only && cores > 1) {
                all = impact_child(L, steps, cores);
                char name[64];
                snprintf(name, sizeof name, "impact, %d threads", cores);
                if (!shown(name, &all, L->n, "")) {
                    rc = 1;
                    continue;
                }
            }
            double rw[16], rcpu[16];
            int nr = 0, first = 1, failed = 0;
            for (int round = 0; round < rounds && !failed; round++) {
                /* the rounds alternate which code runs first */
                for (int turn = 0; turn < 2 && !failed; turn++) {
                    int lig_turn = (turn == 1) == (round % 2 == 0);
                    if (!lig_turn) {
                        /* the scene's building is not timed with the steps (O(N):
                           imp_world_add_body's search for a freed slot is O(1) amortized) */
                        one = impact_child(L, steps, 1);
                        if (!shown("impact, 1 thread", &one, L->n, "")) {
                            rc = 1, failed = 1;
                            continue;
                        }
                        if (first) {
                            printf("  (impact built the scene in %.1f s)\n", one.build_wall);
                        }
                        if (all.ok && all.hash != one.hash) {
                            printf("  state hashes DIFFER across thread counts: %016llx vs "
                                   "%016llx\n", all.hash, one.hash);
                            rc = 1;
                        }
                    } else if (why_not == NULL) {
                        lig = run_liggghts(input, work, L, steps, g);
                        char lname[64];
                        snprintf(lname, sizeof lname, "LIGGGHTS 3.8, g %.4g", g);
                        failed = !shown(lname, &lig, L->n, work);
                    }
                }
                if (failed) {
                    continue;
                }
                if (why_not == NULL) {
                    rw[nr] = lig.wall / one.wall;
                    rcpu[nr] = lig.cpu > 0.0 && one.cpu > 0.0 ? lig.cpu / one.cpu : 0.0;
                    nr++;
                }
                if (first) {
                    first = 0;
                    if (!mode) {
                        show_yade("impact", &one, L->n);
                    }
                    if (why_not != NULL) {
                        printf("  LIGGGHTS: not run (%s): no comparison\n", why_not);
                        show_phases(&one, NULL, L->n, steps);
                        continue;
                    }
                    show_yade("LIGGGHTS", &lig, L->n);
                    char both[64] = "";
                    if (all.ok) {
                        snprintf(both, sizeof both, ", %d threads %.2fx", cores,
                                 lig.wall / all.wall);
                    }
                    printf("  impact / LIGGGHTS (particle-steps/s, wall): one core %.2fx%s (target "
                           "3x on one core); peak RSS %.1f vs %.1f MiB\n", rw[0], both,
                           one.peak_mib, lig.peak_mib);
                    printf("  final mean z impact %+.2f %% against LIGGGHTS, sphere contacts %ld "
                           "against %ld\n", 100.0 * (one.mean_z - lig.mean_z) / lig.mean_z,
                           one.contacts, lig.contacts);
                    show_phases(&one, &lig, L->n, steps);
                    show_trajectories(&one, &lig);
                } else if (why_not == NULL) {
                    show_phases(&one, &lig, L->n, steps); /* the same work: the rates move */
                }
            }
            if (nr > 0) {
                const char *what = mode ? "like for like" : "Yade's physics";
                char line[160];
                snprintf(line, sizeof line, "%s: impact / LIGGGHTS, one core, particle-steps per "
                         "wall second", what);
                show_rounds(line, rw, nr);
                if (rcpu[0] > 0.0) { /* the figure to read on a loaded machine */
                    snprintf(line, sizeof line, "%s: impact / LIGGGHTS, one core, particle-steps "
                             "per CPU second", what);
                    show_rounds(line, rcpu, nr);
                }
            }
        }
    }
    return rc;
}
