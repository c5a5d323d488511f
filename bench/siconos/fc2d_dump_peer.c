/* fc2d_dump_peer.c: Siconos numerics' 2D frictional contact solvers (fc2d_driver: Lemke on
   its LCP form, NSGS) on the contact problems bench_lcp_engine's study mode dumps (the 2D
   engine's frictional LCP at a failing step: n, m, A, b, bilateral flags, friction normals
   and mu), for comparison with impact's solves of the same files. Each normal row k with
   its friction row becomes Siconos contact k (rows normal, tangent); Siconos' cone |r_t| <=
   mu r_n with r_t opposing u_t is the same Coulomb law. Built by hand (peer only; the core
   library never links it):
     cc -O2 -std=c11 -I/usr/include/siconos -I/usr/include/siconos/numerics \
        bench/siconos/fc2d_dump_peer.c -o build/bench/fc2d_dump_peer -lsiconos_numerics -lm
   Usage: fc2d_dump_peer solver file...   (solver: lemke, nsgs or enum) */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench_util.h"
#include "FrictionContactProblem.h"
#include "Friction_cst.h"
#include "NonSmoothDrivers.h"
#include "NumericsMatrix.h"
#include "SolverOptions.h"
#include "fc2d_compute_error.h"

static int run(const char *path, const char *solver)
{
    FILE *fp = fopen(path, "rb");
    int n = 0, m = 0;
    if (fp == NULL || fread(&n, sizeof n, 1, fp) != 1 || fread(&m, sizeof m, 1, fp) != 1) {
        fprintf(stderr, "%s: cannot read\n", path);
        if (fp != NULL) fclose(fp);
        return 1;
    }
    double *A = malloc(sizeof *A * (size_t)n * n), *b = malloc(sizeof *b * (size_t)n);
    unsigned char *bil = malloc((size_t)n);
    int *fn = malloc(sizeof *fn * (size_t)n);
    double *mu = malloc(sizeof *mu * (size_t)n);
    int okr = fread(A, sizeof *A, (size_t)n * n, fp) == (size_t)n * n
              && fread(b, sizeof *b, (size_t)n, fp) == (size_t)n && fread(bil, 1, (size_t)n, fp) == (size_t)n;
    for (int i = 0; okr && i < n; i++) {
        okr = fread(&fn[i], sizeof(int), 1, fp) == 1 && fread(&mu[i], sizeof(double), 1, fp) == 1;
    }
    fclose(fp);
    if (!okr || n != 2 * m) {
        fprintf(stderr, "%s: not a problem of m normal rows each with one friction row\n", path);
        return 1;
    }
    int *row_of = malloc(sizeof *row_of * (size_t)n); /* Siconos row -> our row */
    double *mus = malloc(sizeof *mus * (size_t)m);
    for (int k = 0; k < m; k++) {
        row_of[2 * k] = k;
        row_of[2 * k + 1] = -1;
    }
    for (int t = m; t < n; t++) {
        if (fn[t] < 0 || fn[t] >= m || bil[fn[t]]) {
            fprintf(stderr, "%s: row %d is not a friction row of a unilateral normal\n", path, t);
            return 1;
        }
        row_of[2 * fn[t] + 1] = t;
        mus[fn[t]] = mu[t];
    }
    double *W = malloc(sizeof *W * (size_t)n * n), *q = malloc(sizeof *q * (size_t)n);
    for (int i = 0; i < n; i++) {
        q[i] = b[row_of[i]];
        for (int j = 0; j < n; j++) W[(size_t)j * n + i] = A[(size_t)row_of[i] * n + row_of[j]]; /* column-major */
    }
    FrictionContactProblem *pb = frictionContactProblem_new();
    pb->dimension = 2;
    pb->numberOfContacts = m;
    pb->M = NM_create_from_data(NM_DENSE, n, n, W);
    pb->q = q;
    pb->mu = mus;
    int id = strcmp(solver, "nsgs") == 0 ? SICONOS_FRICTION_2D_NSGS
             : strcmp(solver, "enum") == 0 ? SICONOS_FRICTION_2D_ENUM : SICONOS_FRICTION_2D_LEMKE;
    SolverOptions *opt = solver_options_create(id);
    opt->dparam[SICONOS_DPARAM_TOL] = 1e-8;
    if (id == SICONOS_FRICTION_2D_NSGS) opt->iparam[SICONOS_IPARAM_MAX_ITER] = 100000;
    double *r = calloc((size_t)n, sizeof *r), *u = calloc((size_t)n, sizeof *u);
    double t0 = bench_cpu();
    int info = fc2d_driver(pb, r, u, opt);
    double t = bench_cpu() - t0;
    /* the residuals as impact measures them (lcp.c's imp_lcp_check): u = W r + q */
    double sf = 0.0, nat = 0.0, fric = 0.0, err = 0.0;
    for (int i = 0; i < n; i++) sf = fmax(sf, fabs(r[i]));
    for (int k = 0; k < m; k++) {
        double rn = r[2 * k], rt = r[2 * k + 1], un = 0.0, ut = 0.0;
        for (int j = 0; j < n; j++) {
            un += A[(size_t)row_of[2 * k] * n + row_of[j]] * r[j];
            ut += A[(size_t)row_of[2 * k + 1] * n + row_of[j]] * r[j];
        }
        un += q[2 * k];
        ut += q[2 * k + 1];
        nat = fmax(nat, fabs(rn - fmax(0.0, rn - un)));
        double c = mus[k] * rn;
        /* the Coulomb projection's residual: rt - proj_[-c,c](rt - ut) */
        double pr = fmin(fmax(rt - ut, -fmax(c, 0.0)), fmax(c, 0.0));
        fric = fmax(fric, fabs(rt - pr));
    }
    fc2d_compute_error(pb, r, u, 1e-8, 1.0, &err);
    printf("  siconos %-5s %s: %d contacts, info %d, cpu %.3f s, iterations %d, natural residual %.1e "
           "(relative %.1e), friction %.1e, Siconos error %.1e, max r %.2f\n",
           solver, path, m, info, t, opt->iparam[SICONOS_IPARAM_ITER_DONE], nat, nat / (1.0 + sf),
           fric / (1.0 + sf), err, sf);
    fflush(stdout);
    solver_options_delete(opt);
    free(r);
    free(u);
    free(A);
    free(b);
    free(bil);
    free(fn);
    free(mu);
    free(row_of);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: fc2d_dump_peer lemke|nsgs|enum file...\n");
        return 2;
    }
    int bad = 0;
    for (int i = 2; i < argc; i++) bad |= run(argv[i], argv[1]);
    return bad;
}
