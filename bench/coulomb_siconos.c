/* coulomb_siconos.c: Siconos' NSGS and NSN_AC (libsiconos-numerics-dev) on one fc3d .dat
   problem, for bench_coulomb's table (tools/run_bench.sh builds this when Siconos is
   installed and passes it to bench_coulomb in IMPACT_SICONOS_FC3D). Never linked into impact.

   Usage: coulomb_siconos FILE.dat TOL
   Prints one line: "nsgs MS ERROR INFO nsn_ac MS ERROR INFO" (time in ms, wall clock of
   fc3d_driver from r = u = 0; solves under 0.2 s repeated up to 50 times, fastest kept;
   error by Siconos' fc3d_compute_error; NSGS capped at 100000 iterations, NSN_AC at 1000). */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "FrictionContactProblem.h"
#include "Friction_cst.h"
#include "NonSmoothDrivers.h"
#include "SolverOptions.h"
#include "fc3d_compute_error.h"

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s FILE.dat TOL\n", argv[0]);
        return 2;
    }
    double tol = atof(argv[2]);
    FrictionContactProblem *p = frictionContact_new_from_filename(argv[1]);
    if (p == NULL || p->dimension != 3) {
        fprintf(stderr, "%s: not a 3D frictional contact problem\n", argv[1]);
        return 2;
    }
    int n = 3 * p->numberOfContacts;
    double *r = calloc((size_t)n, sizeof(double)), *u = calloc((size_t)n, sizeof(double));
    double qn = 0.0;
    for (int i = 0; i < n; i++) qn += p->q[i] * p->q[i];
    qn = sqrt(qn);
    const int ids[2] = {SICONOS_FRICTION_3D_NSGS, SICONOS_FRICTION_3D_NSN_AC};
    const char *names[2] = {"nsgs", "nsn_ac"};
    for (int s = 0; s < 2; s++) {
        SolverOptions *opt = solver_options_create(ids[s]);
        opt->dparam[SICONOS_DPARAM_TOL] = tol;
        opt->iparam[SICONOS_IPARAM_MAX_ITER] = s == 0 ? 100000 : 1000;
        double best = INFINITY, spent = 0.0;
        int info = 0, reps = 0;
        do {
            memset(r, 0, sizeof(double) * (size_t)n);
            memset(u, 0, sizeof(double) * (size_t)n);
            double t0 = wall();
            info = fc3d_driver(p, r, u, opt);
            double dt = wall() - t0;
            best = fmin(best, dt);
            spent += dt;
            reps++;
        } while (spent < 0.2 && reps < 50);
        double err = 0.0;
        fc3d_compute_error(p, r, u, 1e-300, NULL, qn, &err);
        printf("%s %.3f %.1e %d ", names[s], 1e3 * best, err, info);
        solver_options_delete(opt);
    }
    printf("\n");
    free(r);
    free(u);
    frictionContactProblem_free(p);
    return 0;
}
