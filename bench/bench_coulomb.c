/* bench_coulomb.c: the 3D Coulomb contact solver (src/lcp/lcp_coulomb.h) on Siconos' frictional
   contact test problems (the .dat files of ../shared/data/fclib, Siconos' text format), per
   problem: contacts, time, error (Siconos' fc3d_compute_error), status, Newton iterations
   and Gauss-Seidel sweeps. tools/run_bench.sh prints Siconos' NSGS and NSN_AC beside it
   (bench/coulomb_siconos.c) when libsiconos-numerics-dev is installed.

   Usage: bench_coulomb [DIR (default ../shared/data/fclib)] [tol (default 1e-8)] [names...]
   Time: wall clock of imp_coulomb_solve with a prepared workspace (the CSR matrix is built
   once); solves under 0.2 s are repeated (at most 50 runs) and the fastest run is kept.
   With IMPACT_SICONOS_FC3D set to the built bench/coulomb_siconos.c, each line also shows
   Siconos' NSGS and NSN_AC on the same file at the same tolerance (their own reader and
   sparse-block matrix), and the totals compare the three.

   The .dat format (Siconos' frictionContact_printInFile): dimension (3), number of contacts,
   then the matrix (NumericsMatrix): storage 0 = dense: size0 size1, again size0 size1, then
   the entries column by column; storage 1 = sparse block (SBM): size0 size1, number of blocks,
   block rows, block columns, the cumulative block sizes of rows and of columns, the sizes of
   the row-pointer and column-index arrays, both arrays, then each block's number and its
   entries column by column; then q (3 nc) and mu (nc). */
#define _POSIX_C_SOURCE 200809L /* popen, clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include <impact/coulomb.h>

typedef struct fc3d {
    int nc, n, nnz;
    int *ti, *tj; /* 0-based triplets */
    double *tv, *q, *mu;
} fc3d;

static int rd_int(FILE *f, int *v)
{
    double d;
    if (fscanf(f, "%lf", &d) != 1) return -1;
    *v = (int)d;
    return 0;
}

static int rd_dbl(FILE *f, double *v)
{
    return fscanf(f, "%lf", v) == 1 ? 0 : -1;
}

static void push(fc3d *P, int *cap, int i, int j, double v)
{
    if (v == 0.0) return;
    if (P->nnz == *cap) {
        *cap = *cap ? 2 * *cap : 1024;
        P->ti = realloc(P->ti, (size_t)*cap * sizeof(int));
        P->tj = realloc(P->tj, (size_t)*cap * sizeof(int));
        P->tv = realloc(P->tv, (size_t)*cap * sizeof(double));
        if (!P->ti || !P->tj || !P->tv) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
    }
    P->ti[P->nnz] = i;
    P->tj[P->nnz] = j;
    P->tv[P->nnz] = v;
    P->nnz++;
}

static int read_fc3d(const char *path, fc3d *P)
{
    memset(P, 0, sizeof *P);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    int dim, storage, s0, s1, cap = 0;
    if (rd_int(f, &dim) || dim != 3 || rd_int(f, &P->nc) || rd_int(f, &storage) || rd_int(f, &s0) ||
        rd_int(f, &s1) || s0 != 3 * P->nc || s1 != s0)
        goto bad;
    P->n = s0;
    if (storage == 0) {
        int a, b;
        if (rd_int(f, &a) || rd_int(f, &b) || a != s0 || b != s1) goto bad;
        for (int i = 0; i < s0; i++) {
            for (int j = 0; j < s1; j++) {
                double v;
                if (rd_dbl(f, &v)) goto bad;
                push(P, &cap, j, i, v); /* written column by column */
            }
        }
    } else if (storage == 1) {
        int nb, br, bc, f1, f2;
        if (rd_int(f, &nb) || rd_int(f, &br) || rd_int(f, &bc)) goto bad;
        int *rs = malloc(sizeof(int) * (size_t)(br + bc + 2));
        int *cs = rs + br + 1;
        rs[0] = cs[0] = 0;
        for (int k = 1; k <= br; k++) if (rd_int(f, &rs[k])) goto bad;
        for (int k = 1; k <= bc; k++) if (rd_int(f, &cs[k])) goto bad;
        if (rd_int(f, &f1) || rd_int(f, &f2) || f2 != nb) goto bad;
        int *i1 = malloc(sizeof(int) * (size_t)(f1 + f2));
        int *i2 = i1 + f1;
        for (int k = 0; k < f1; k++) if (rd_int(f, &i1[k])) goto bad;
        for (int k = 0; k < f2; k++) if (rd_int(f, &i2[k])) goto bad;
        for (int bi = 0; bi + 1 < f1; bi++) {
            for (int k = i1[bi]; k < i1[bi + 1]; k++) {
                int bj = i2[k];
                int tag;
                if (rd_int(f, &tag)) goto bad; /* the block's number */
                int r0 = rs[bi], nr = rs[bi + 1] - rs[bi], c0 = cs[bj], ncl = cs[bj + 1] - cs[bj];
                for (int jj = 0; jj < ncl; jj++) {
                    for (int ii = 0; ii < nr; ii++) {
                        double v;
                        if (rd_dbl(f, &v)) goto bad;
                        push(P, &cap, r0 + ii, c0 + jj, v);
                    }
                }
            }
        }
        free(i1);
        free(rs);
    } else {
        goto bad;
    }
    P->q = malloc(sizeof(double) * (size_t)P->n);
    P->mu = malloc(sizeof(double) * (size_t)P->nc);
    for (int i = 0; i < P->n; i++) if (rd_dbl(f, &P->q[i])) goto bad;
    for (int c = 0; c < P->nc; c++) if (rd_dbl(f, &P->mu[c])) goto bad;
    fclose(f);
    return 0;
bad:
    fclose(f);
    return -2;
}

static const char *const PROBS[] = {"FrictionContact3D_1c", "Rover1041", "NESpheres_10_1",
                                    "OneObject-i1028-138.hdf5", "OneObject-i100000-316.hdf5",
                                    "NESpheres_30_1", "BoxesStack1-i100000-32.hdf5",
                                    "Confeti-ex03-Fc3D-SBM", "Confeti-ex13-Fc3D-SBM",
                                    "Capsules-i101-404", "Capsules-i122-1617", "RockPile_tob1",
                                    "KaplasTower-i1061-4.hdf5", NULL};

static double totals[3];
static int solved[3], have_peer;

static int run_one(const char *dir, const char *name, double tol, const char *dump)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.dat", dir, name);
    fc3d P;
    if (read_fc3d(path, &P) != 0) {
        printf("%-28s cannot read %s\n", name, path);
        return 1;
    }
    int n = P.n;
    int *rp = malloc(sizeof(int) * (size_t)(n + 1)), *col = malloc(sizeof(int) * (size_t)P.nnz + 1);
    int *work = malloc(sizeof(int) * (size_t)n + 1);
    double *val = malloc(sizeof(double) * (size_t)P.nnz + 1);
    double *r = malloc(sizeof(double) * (size_t)n), *u = malloc(sizeof(double) * (size_t)n);
    if (getenv("COULOMB_PERTURB")) { /* experiments: the last bit of every other entry */
        int seed = atoi(getenv("COULOMB_PERTURB"));
        for (int e = 0; e < P.nnz; e++) P.tv[e] *= 1.0 + 0x1p-52 * (double)(((e + seed) % 3) - 1);
    }
    imp_coulomb_csr_from_triplets(n, P.nnz, P.ti, P.tj, P.tv, work, rp, col, val);
    imp_coulomb_problem prob = {{n, rp, col, val}, P.q, P.mu, NULL, NULL};
    imp_coulomb_options o;
    imp_coulomb_default_options(&o);
    o.tolerance = tol;
    if (getenv("COULOMB_MAXIT")) o.max_iterations = atoi(getenv("COULOMB_MAXIT"));
    const char *meth = getenv("COULOMB_METHOD"); /* newton | nsgs (default auto) */
    if (meth && strcmp(meth, "newton") == 0) o.method = IMP_COULOMB_NEWTON;
    if (meth && strcmp(meth, "nsgs") == 0) o.method = IMP_COULOMB_NSGS;
    imp_coulomb_workspace *ws = imp_coulomb_workspace_create(n);
    imp_coulomb_info info;
    double best = 1e300, total = 0.0;
    int runs = 0;
    while (runs < 50 && total < 0.2) {
        double t0 = bench_now();
        imp_coulomb_solve(&prob, &o, ws, r, u, &info);
        double t = bench_now() - t0;
        total += t;
        if (t < best) best = t;
        runs++;
    }
    if (info.status == IMP_COULOMB_BAD_INPUT) printf("%s: %s\n", name, info.message);
    char ours[128];
    snprintf(ours, sizeof ours, "%9.3f %7.1e %-3s", 1e3 * best, info.error,
             info.status == IMP_COULOMB_OK ? "ok" : info.status == IMP_COULOMB_MAX_ITER ? "cap" : "-");
    totals[0] += best;
    solved[0] += info.status == IMP_COULOMB_OK;
    const char *peer = getenv("IMPACT_SICONOS_FC3D");
    char theirs[256] = "";
    if (peer && *peer) {
        char cmd[2048];
        snprintf(cmd, sizeof cmd, "'%s' '%s' %g", peer, path, tol);
        FILE *pp = popen(cmd, "r");
        double ms[2], er[2];
        int inf[2];
        char n1[16], n2[16];
        if (pp && fscanf(pp, "%15s %lf %lf %d %15s %lf %lf %d", n1, &ms[0], &er[0], &inf[0], n2, &ms[1], &er[1], &inf[1]) == 8) {
            snprintf(theirs, sizeof theirs, " | %9.3f %7.1e %-3s | %9.3f %7.1e %-3s", ms[0], er[0],
                     inf[0] == 0 ? "ok" : "no", ms[1], er[1], inf[1] == 0 ? "ok" : "no");
            for (int k = 0; k < 2; k++) {
                totals[k + 1] += 1e-3 * ms[k];
                solved[k + 1] += inf[k] == 0 && er[k] <= tol;
            }
            have_peer = 1;
        } else {
            snprintf(theirs, sizeof theirs, " | Siconos peer failed");
        }
        if (pp) pclose(pp);
    }
    printf("%-27s %4d | %s%s   (it %d, sweeps %d, %s; stick %d slide %d open %d)\n", name, P.nc, ours, theirs,
           info.iterations, info.sweeps, info.method, info.sticking, info.sliding, info.open);
    fflush(stdout);
    if (dump) {
        FILE *f = fopen(dump, "w");
        if (f) {
            for (int i = 0; i < n; i++) fprintf(f, "%.17g\n", r[i]);
            fclose(f);
        }
    }
    imp_coulomb_workspace_destroy(ws);
    free(rp), free(col), free(work), free(val), free(r), free(u);
    free(P.ti), free(P.tj), free(P.tv), free(P.q), free(P.mu);
    return info.status != IMP_COULOMB_OK;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "../shared/data/fclib";
    double tol = argc > 2 ? atof(argv[2]) : 1e-8;
    const char *dump = getenv("COULOMB_DUMP");
    printf("3D Coulomb contact on Siconos' fc3d problems (../shared/data/fclib), tol %g: impact.lcp.coulomb\n"
           "(semismooth Newton on Alart-Curnier + NSGS fallback) beside Siconos 4.4 NSGS and NSN_AC when installed.\n"
           "Times in ms (wall clock, fastest of up to 50 runs within 0.2 s), error = Siconos' fc3d_compute_error,\n"
           "ok = reached tol, cap = iteration caps (best answer returned), no = Siconos info != 0.\n", tol);
    char probe[1024];
    snprintf(probe, sizeof probe, "%s/%s.dat", dir, PROBS[0]);
    FILE *t = fopen(probe, "r");
    if (!t) {
        printf("skipped: %s not found (the problems are kept in ../shared/data/fclib)\n", probe);
        return 0;
    }
    fclose(t);
    const char *peer = getenv("IMPACT_SICONOS_FC3D");
    printf("%-27s %4s | %-23s%s\n", "problem", "nc", "impact ms, error", peer && *peer ? " | Siconos NSGS ms, error  | Siconos NSN_AC ms, error" : "");
    int failed = 0;
    if (argc > 3) {
        for (int k = 3; k < argc; k++) failed += run_one(dir, argv[k], tol, dump);
    } else {
        for (int k = 0; PROBS[k]; k++) failed += run_one(dir, PROBS[k], tol, NULL);
    }
    printf("total: impact %.3f s, %d solved to %g", totals[0], solved[0], tol);
    if (have_peer) printf("; Siconos NSGS %.3f s, %d solved; NSN_AC %.3f s, %d solved", totals[1], solved[1], totals[2], solved[2]);
    printf("\n%d problem(s) not solved to %g by impact\n", failed, tol);
    return 0;
}
