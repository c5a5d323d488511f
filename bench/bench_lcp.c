/* bench_lcp.c: time per solve of the contact LCP solver (Baraff's pivoting method with an
   incremental Cholesky factor, src/lcp/lcp_symmetric.c) on random PSD problems of rank n/2 and on
   2D / 3D box stacks, for n = 100 ... 2000, with the log-log slope of time against n.

   Usage: bench_lcp [max_n]   (default 2000)
   Each line: problem, n, median wall time of the repeats, pivots, set changes, largest
   clamped set, residuals (min f, min a, max |f a|) and ||a - a*||_inf against the planted
   answer (a is unique for PSD A). The same generators (test/c/lcp_gen.h) feed the Siconos
   peer program bench/siconos/siconos_peer.c, so the figures are comparable.
   Then the friction (general) method on a 2D stack with Coulomb friction (n = 4N rows),
   with its incremental inverse ("fric-inc") and with the reference that refactors the
   clamped system at every pivot ("fric-ref", O(n^4); only up to n = 400), and the default
   (auto: the box-bounded steps of lcp_box.c, "fric-box") on the same problems.
   Last: 2D pyramids of unit boxes with friction 0.6 whose contact points come in
   coincident pairs, as the 2D engine reports them (lcp_gen.h gen_pyramid2d_friction;
   base 10 is the engine's 55-box pyramid), auto against the general method alone. */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../test/c/lcp_gen.h"
#include <impact/lcp.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

typedef struct row { int n; double t; } row;

/* solves (A, b) `reps` times, prints one line, returns the median time */
static double run(const char *name, int n, const double *A, const double *b, const double *astar,
                  imp_lcp_workspace *ws, int reps)
{
    imp_lcp_problem p = {n, A, b, NULL, NULL, NULL, NULL};
    double *f = malloc(sizeof(double) * (size_t)n), *a = malloc(sizeof(double) * (size_t)n);
    double times[16];
    imp_lcp_info info;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        imp_lcp_solve(&p, NULL, ws, f, a, NULL, &info);
        times[r] = now() - t0;
    }
    qsort(times, (size_t)reps, sizeof(double), cmp_double);
    double dev = 0.0;
    for (int i = 0; i < n && astar; i++) dev = fmax(dev, fabs(a[i] - astar[i]));
    printf("%-9s n=%-5d %10.3f ms  %-11s pivots=%-5d +%d/-%d max|C|=%-5d min_f=%9.1e "
           "min_a=%9.1e max|fa|=%8.1e |a-a*|=%8.1e\n",
           name, n, 1e3 * times[reps / 2], imp_lcp_status_name(info.status), info.pivots,
           info.additions, info.removals, info.max_clamped, info.min_f, info.min_a,
           info.max_comp, dev);
    fflush(stdout);
    free(f);
    free(a);
    return times[reps / 2];
}

/* a frictional problem with the general method, incremental (refactor = 0) or refactoring
   at every pivot (refactor = 1) */
static double run_friction(const char *name, const imp_lcp_problem *p, int refactor,
                           imp_lcp_method method, imp_lcp_workspace *ws, int reps)
{
    int n = p->n;
    double *f = malloc(sizeof(double) * (size_t)n), *a = malloc(sizeof(double) * (size_t)n);
    double times[16];
    imp_lcp_options o;
    imp_lcp_default_options(&o);
    o.general_refactor = refactor;
    o.method = method;
    imp_lcp_info info;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        imp_lcp_solve(p, &o, ws, f, a, NULL, &info);
        times[r] = now() - t0;
    }
    qsort(times, (size_t)reps, sizeof(double), cmp_double);
    printf("%-9s n=%-5d %10.3f ms  %-11s pivots=%-5d +%d/-%d max|C|=%-5d min_f=%9.1e "
           "min_a=%9.1e max_friction=%8.1e\n",
           name, n, 1e3 * times[reps / 2], imp_lcp_status_name(info.status), info.pivots,
           info.additions, info.removals, info.max_clamped, info.min_f, info.min_a, info.max_friction);
    fflush(stdout);
    free(f);
    free(a);
    return times[reps / 2];
}

static void slope(const char *name, const row *rows, int k)
{
    /* least-squares slope of log t against log n */
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < k; i++) {
        double x = log((double)rows[i].n), y = log(rows[i].t);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    double s = (k * sxy - sx * sy) / (k * sxx - sx * sx);
    printf("%-9s log-log slope of time against n: %.2f (over %d sizes)\n\n", name, s, k);
}

int main(int argc, char **argv)
{
    int max_n = argc > 1 ? atoi(argv[1]) : 2000;
    static const int sizes[] = {100, 200, 500, 1000, 2000};
    imp_lcp_workspace *ws = imp_lcp_workspace_create(max_n);
    row rows[5];
    int k;
    printf("LCP solver (Baraff pivoting, incremental Cholesky): median of repeats\n");

    k = 0;
    for (int s = 0; s < 5 && sizes[s] <= max_n; s++) {
        int n = sizes[s];
        double *A = malloc(sizeof(double) * (size_t)n * n), *b = malloc(sizeof(double) * (size_t)n);
        double *astar = malloc(sizeof(double) * (size_t)n);
        gen_randpsd(n, n / 2, 1, A, b, NULL, astar, NULL);
        rows[k].n = n;
        rows[k++].t = run("randpsd", n, A, b, astar, ws, n >= 2000 ? 3 : 5);
        free(A);
        free(b);
        free(astar);
    }
    slope("randpsd", rows, k);

    k = 0;
    for (int s = 0; s < 5 && sizes[s] <= max_n; s++) {
        gen_sys sys;
        gen_stack2d(&sys, sizes[s] / 2, NULL);
        double *astar = calloc((size_t)sys.n, sizeof(double));
        rows[k].n = sys.n;
        rows[k++].t = run("stack2d", sys.n, sys.A, sys.b, astar, ws, sys.n >= 2000 ? 3 : 5);
        free(astar);
        gen_sys_free(&sys);
    }
    slope("stack2d", rows, k);

    k = 0;
    for (int s = 0; s < 5 && sizes[s] <= max_n; s++) {
        gen_sys sys;
        gen_stack3d(&sys, sizes[s] / 4, NULL);
        double *astar = calloc((size_t)sys.n, sizeof(double));
        rows[k].n = sys.n;
        rows[k++].t = run("stack3d", sys.n, sys.A, sys.b, astar, ws, sys.n >= 2000 ? 3 : 5);
        free(astar);
        gen_sys_free(&sys);
    }
    slope("stack3d", rows, k);

    /* friction (the general method): a 2D stack with Coulomb friction, n = 4N rows, the
       incremental inverse against the reference that refactors at every pivot */
    printf("2D stack with friction (mu 0.5, alternating pushes 0.2 g; general method):\n");
    static const int fsizes[] = {100, 200, 400, 1000};
    row rinc[4], rref[4], rbox[4];
    int kinc = 0, kref = 0, kbox = 0;
    for (int s = 0; s < 4 && fsizes[s] <= max_n; s++) {
        int N = fsizes[s] / 4, n = 4 * N;
        int *fn = malloc(sizeof(int) * (size_t)n);
        double *mu = malloc(sizeof(double) * (size_t)n);
        gen_sys sys;
        gen_stack2d_friction(&sys, N, 0.5, NULL, fn, mu);
        imp_lcp_problem p = {n, sys.A, sys.b, NULL, fn, mu, NULL};
        rinc[kinc].n = n;
        rinc[kinc++].t = run_friction("fric-inc", &p, 0, IMP_LCP_GENERAL, ws, n >= 1000 ? 1 : 3);
        if (n <= 400) {
            rref[kref].n = n;
            rref[kref++].t = run_friction("fric-ref", &p, 1, IMP_LCP_GENERAL, ws, n <= 200 ? 3 : 1);
        }
        rbox[kbox].n = n;
        rbox[kbox++].t = run_friction("fric-box", &p, 0, IMP_LCP_AUTO, ws, n >= 1000 ? 1 : 3);
        free(fn);
        free(mu);
        gen_sys_free(&sys);
    }
    slope("fric-inc", rinc, kinc);
    slope("fric-ref", rref, kref);
    slope("fric-box", rbox, kbox);

    printf("2D pyramids with coincident contact points, friction 0.6, pushes +-0.1 g:\n");
    static const int bases[] = {6, 10, 14};
    for (int s = 0; s < 3; s++) {
        int base = bases[s], nb = base * (base + 1) / 2, cap = 2 * (2 * base + 10 * nb);
        if (cap > max_n && cap > 1000) break;
        int *fn = malloc(sizeof(int) * (size_t)cap);
        double *mu = malloc(sizeof(double) * (size_t)cap);
        gen_sys sys;
        int n = gen_pyramid2d_friction(&sys, base, 0.6, NULL, fn, mu);
        imp_lcp_problem p = {n, sys.A, sys.b, NULL, fn, mu, NULL};
        printf("  base %d (%d boxes):\n", base, nb);
        run_friction("pyr-box", &p, 0, IMP_LCP_AUTO, ws, 3);
        if (base <= 10) run_friction("pyr-gen", &p, 0, IMP_LCP_GENERAL, ws, 1);
        free(fn);
        free(mu);
        gen_sys_free(&sys);
    }
    imp_lcp_workspace_destroy(ws);
    return 0;
}
