/* siconos_peer.c: Siconos numerics' Lemke and PGS on the same generated problems as
   bench/bench_lcp.c (same generators, test/c/lcp_gen.h, same seeds), for comparison in the
   same run. Links libsiconos_numerics (Debian libsiconos-numerics-dev); built only by
   bench/siconos/run.sh when that library is installed. The core library never links it.

   Usage: siconos_peer [max_n] [solver...]   (default 2000; solvers: lemke pgs)
   Siconos writes w = M z + q with dense M COLUMN-major; our A is symmetric, so the same
   array serves. Problems above 1000 rows are solved once (Lemke at n = 2000 takes seconds). */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "LinearComplementarityProblem.h"
#include "NonSmoothDrivers.h"
#include "NumericsMatrix.h"
#include "SolverOptions.h"
#include "lcp_cst.h"

#include "../../test/c/lcp_gen.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void solve(const char *name, int n, const double *A, const double *b, const char *solver)
{
    LinearComplementarityProblem *lcp = newLCP();
    lcp->size = n;
    double *Acopy = malloc(sizeof(double) * (size_t)n * n);
    memcpy(Acopy, A, sizeof(double) * (size_t)n * n);
    lcp->M = NM_create_from_data(NM_DENSE, n, n, Acopy);
    lcp->q = malloc(sizeof(double) * (size_t)n);
    memcpy(lcp->q, b, sizeof(double) * (size_t)n);
    int id = strcmp(solver, "pgs") == 0 ? SICONOS_LCP_PGS : SICONOS_LCP_LEMKE;
    double *z = calloc((size_t)n, sizeof(double)), *w = calloc((size_t)n, sizeof(double));
    SolverOptions *opt = solver_options_create(id);
    if (id == SICONOS_LCP_LEMKE) opt->iparam[SICONOS_IPARAM_MAX_ITER] = 10 * n + 1000;
    if (id == SICONOS_LCP_PGS) opt->iparam[SICONOS_IPARAM_MAX_ITER] = 2000;
    double t0 = now();
    int info = linearComplementarity_driver(lcp, z, w, opt);
    double t = now() - t0;
    double minz = INFINITY, minw = INFINITY, comp = 0.0;
    for (int i = 0; i < n; i++) {
        double wi = b[i];
        for (int j = 0; j < n; j++) wi += A[(size_t)i * n + j] * z[j];
        minz = fmin(minz, z[i]);
        minw = fmin(minw, wi);
        comp = fmax(comp, fabs(z[i] * wi));
    }
    printf("siconos-%-5s %-9s n=%-5d %10.3f ms  info=%d iter=%-6d min_f=%9.1e min_a=%9.1e max|fa|=%8.1e\n",
           solver, name, n, 1e3 * t, info, opt->iparam[SICONOS_IPARAM_ITER_DONE], minz, minw, comp);
    fflush(stdout);
    solver_options_delete(opt);
    freeLinearComplementarityProblem(lcp);
    free(z);
    free(w);
}

int main(int argc, char **argv)
{
    int max_n = argc > 1 ? atoi(argv[1]) : 2000;
    static const int sizes[] = {100, 200, 500, 1000, 2000};
    const char *solvers[8] = {"lemke", "pgs"};
    int ns = 2;
    if (argc > 2) {
        ns = 0;
        for (int i = 2; i < argc && ns < 8; i++) solvers[ns++] = argv[i];
    }
    for (int k = 0; k < 5 && sizes[k] <= max_n; k++) {
        int n = sizes[k];
        double *A = malloc(sizeof(double) * (size_t)n * n), *b = malloc(sizeof(double) * (size_t)n);
        gen_randpsd(n, n / 2, 1, A, b, NULL, NULL, NULL);
        for (int s = 0; s < ns; s++) solve("randpsd", n, A, b, solvers[s]);
        free(A);
        free(b);
    }
    for (int k = 0; k < 5 && sizes[k] <= max_n; k++) {
        gen_sys sys;
        gen_stack2d(&sys, sizes[k] / 2, NULL);
        for (int s = 0; s < ns; s++) solve("stack2d", sys.n, sys.A, sys.b, solvers[s]);
        gen_sys_free(&sys);
    }
    for (int k = 0; k < 5 && sizes[k] <= max_n; k++) {
        gen_sys sys;
        gen_stack3d(&sys, sizes[k] / 4, NULL);
        for (int s = 0; s < ns; s++) solve("stack3d", sys.n, sys.A, sys.b, solvers[s]);
        gen_sys_free(&sys);
    }
    return 0;
}
