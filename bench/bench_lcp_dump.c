/* bench_lcp_dump.c: impact's LCP driver on the contact problems bench_lcp_engine's study
   mode dumps (n, m, A, b, bilateral flags, friction normals and mu; the files
   bench/siconos/fc2d_dump_peer.c gives to Siconos), with the 2D engine's options (tolerance
   1e-8, pivot tolerance 1e-6): each file solved cold (no warm start), then, when that
   solve passed, solved again warm-started from its own answer's row states, forces and
   split basis (lcp.h basis) with b changed by a relative amount delta sin(b_i) (the next
   step's problem of a resting stack: the same contacts, the loads moved a little). Per solve: status, pivots, user CPU, the natural
   residual relative to 1 + max f, the friction violation and the driver's message. A file
   from bench_lcp_engine's dump of the engine's failing solves (with the warm starts the
   engine gave) is first solved as the engine did ("engine"), then cold.
   With -p, instead, each path of the driver alone on the problem as the engine posed it
   (its warm starts, the engine's tolerance 1e-8 and pivot tolerance 1e-6, the driver's
   caps): the Newton finish from the warm forces (8 steps), the box steps on A + 1e-10
   diag(A) warm and cold, the box steps on A warm, the general method from their pattern,
   the cone's edges, the last Newton finish (200 sweeps, 30 steps); per path: status,
   pivots, user CPU, ms per pivot, the largest clamped set and the residuals on A.
   Usage: bench_lcp_dump [-d delta (1e-3)] file...   bench_lcp_dump -p file... */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <impact/lcp.h>

#include "bench_util.h"
#include "engine2d.h"
#include "lcp_internal.h"

typedef struct dump {
    int n, m;
    double *A, *b, *mu;
    unsigned char *bil;
    int *fn;
    /* the engine's warm starts (bench_lcp_engine's dump of its failing solves), or NULL */
    signed char *wst;
    double *wf;
    unsigned char *wbas;
} dump;

static void dump_free(dump *d)
{
    free(d->A);
    free(d->b);
    free(d->mu);
    free(d->bil);
    free(d->fn);
    free(d->wst);
    free(d->wf);
    free(d->wbas);
}

static int dump_read(const char *path, dump *d)
{
    memset(d, 0, sizeof *d);
    FILE *fp = fopen(path, "rb");
    if (fp == NULL || fread(&d->n, sizeof d->n, 1, fp) != 1 || fread(&d->m, sizeof d->m, 1, fp) != 1
        || d->n <= 0 || d->n > 100000) {
        if (fp != NULL) fclose(fp);
        return -1;
    }
    size_t n = (size_t)d->n;
    d->A = malloc(sizeof *d->A * n * n);
    d->b = malloc(sizeof *d->b * n);
    d->mu = malloc(sizeof *d->mu * n);
    d->bil = malloc(n);
    d->fn = malloc(sizeof *d->fn * n);
    int ok = d->A != NULL && d->b != NULL && d->mu != NULL && d->bil != NULL && d->fn != NULL
             && fread(d->A, sizeof *d->A, n * n, fp) == n * n && fread(d->b, sizeof *d->b, n, fp) == n
             && fread(d->bil, 1, n, fp) == n;
    for (size_t i = 0; ok && i < n; i++) {
        ok = fread(&d->fn[i], sizeof(int), 1, fp) == 1 && fread(&d->mu[i], sizeof(double), 1, fp) == 1;
    }
    int magic = 0;
    if (ok && fread(&magic, sizeof magic, 1, fp) == 1 && magic == 0x314d5257) {
        d->wst = malloc(n);
        d->wf = malloc(sizeof *d->wf * n);
        d->wbas = malloc(n);
        ok = d->wst != NULL && d->wf != NULL && d->wbas != NULL;
        for (size_t i = 0; ok && i < n; i++) {
            ok = fread(&d->wst[i], 1, 1, fp) == 1 && fread(&d->wf[i], sizeof(double), 1, fp) == 1
                 && fread(&d->wbas[i], 1, 1, fp) == 1;
        }
    }
    fclose(fp);
    if (!ok) {
        dump_free(d);
        return -1;
    }
    return 0;
}

/* one solve as the engine does it; returns 1 when it passed */
static int solve(const char *label, const imp_lcp_problem *p, const signed char *warm,
                 const double *warm_f, const unsigned char *warm_basis, imp_lcp_workspace *ws,
                 double *f, double *a, signed char *state, unsigned char *basis)
{
    imp_lcp_options o;
    imp_engine2d_lcp_options(&o);
    o.warm_start = warm;
    o.warm_forces = warm_f;
    o.warm_basis = warm_basis;
    o.basis = basis;
    imp_lcp_info info;
    double t0 = bench_cpu();
    imp_lcp_status st = imp_lcp_solve(p, &o, ws, f, a, state, &info);
    double cpu = bench_cpu() - t0;
    printf("  %-6s %-12s %6d pivots %7.2f s CPU, natural residual %.1e, friction %.1e (%s)\n",
           label, imp_lcp_status_name(st), info.pivots, cpu,
           info.natural_residual / (1.0 + info.scale_f), info.max_friction, info.message);
    fflush(stdout);
    return st == IMP_LCP_OK;
}

/* one path's figures: the residuals of f on p itself */
static void path_report(const char *label, const imp_lcp_problem *p, imp_lcp_status st,
                        const imp_lcp_info *info, double cpu, double *f, double *a, const char *msg)
{
    for (int i = 0; i < p->n; i++) {
        if (!isfinite(f[i])) f[i] = 0.0;
    }
    imp_lcp_info c;
    memset(&c, 0, sizeof c);
    int pass = imp_lcp_check(p, f, a, 1e-8, &c);
    printf("  %-13s %-12s %6d pivots %7.2f s CPU %5.2f ms/pivot, clamped <= %4d, natural residual "
           "%.1e, friction %.1e, %s (%s)\n", label, imp_lcp_status_name(st), info->pivots, cpu,
           info->pivots > 0 ? 1e3 * cpu / info->pivots : 0.0, info->max_clamped,
           c.natural_residual / (1.0 + c.scale_f), c.max_friction, pass ? "passes" : "fails", msg);
    fflush(stdout);
}

/* -p: the driver's paths one by one (lcp.c's order for more than 1200 rows) */
static void paths(const dump *d, const imp_lcp_problem *p, imp_lcp_workspace *ws, double *f,
                  double *a, signed char *state)
{
    int n = d->n;
    double *Ar = malloc(sizeof *Ar * (size_t)n * (size_t)n);
    if (Ar == NULL) return;
    memcpy(Ar, d->A, sizeof *Ar * (size_t)n * (size_t)n);
    for (int i = 0; i < n; i++) Ar[(size_t)i * n + i] *= 1.0 + 1e-10;
    imp_lcp_problem q = *p;
    q.A = Ar;
    imp_lcp_limits lim = {50 * n + 1000, 1e-8, 1e-6, IMP_LCP_ORDER_GREEDY, 0, 0};
    imp_lcp_limits lr = lim, lg = lim;
    lr.ptol = 1e-13;
    lg.max_pivots = 2 * n + 500;
    for (int k = 0; k < 7; k++) {
        static const char *names[] = {"newton warm", "box reg warm", "box reg cold", "box A warm",
                                      "general", "cone edges", "newton last"};
        imp_lcp_info info;
        memset(&info, 0, sizeof info);
        const char *msg = "";
        if (k != 4 && k != 6) memset(f, 0, sizeof *f * (size_t)n);
        if (k == 0 && d->wf != NULL) memcpy(f, d->wf, sizeof *f * (size_t)n);
        double t0 = bench_cpu();
        imp_lcp_status st = k == 0 ? imp_lcp_solve_newton(p, &lim, 0, 8, ws, f, &info, &msg)
            : k == 1 ? imp_lcp_solve_box(&q, &lr, d->wst, d->wf, ws, f, &info, &msg)
            : k == 2 ? imp_lcp_solve_box(&q, &lr, NULL, NULL, ws, f, &info, &msg)
            : k == 3 ? imp_lcp_solve_box(p, &lim, d->wst, NULL, ws, f, &info, &msg)
            : k == 4 ? imp_lcp_solve_general(p, &lg, state, ws, f, &info, &msg)
            : k == 5 ? imp_lcp_solve_stick(p, &lim, ws, f, &info, &msg)
                     : imp_lcp_solve_newton(p, &lim, 200, 30, ws, f, &info, &msg);
        double cpu = bench_cpu() - t0;
        if (k == 3) memcpy(state, ws->st, (size_t)n); /* (the general method's start) */
        path_report(names[k], p, st, &info, cpu, f, a, msg);
    }
    free(Ar);
}

int main(int argc, char **argv)
{
    double delta = 1e-3;
    int k = 1, by_path = 0;
    if (argc > 2 && strcmp(argv[1], "-d") == 0) {
        delta = atof(argv[2]);
        k = 3;
    } else if (argc > 1 && strcmp(argv[1], "-p") == 0) {
        by_path = 1;
        k = 2;
    }
    for (; k < argc; k++) {
        dump d;
        if (dump_read(argv[k], &d) != 0) {
            fprintf(stderr, "%s: cannot read a dumped problem\n", argv[k]);
            return 1;
        }
        int n = d.n;
        printf("%s: %d rows, %d normal\n", argv[k], n, d.m);
        imp_lcp_problem p = {.n = n, .A = d.A, .b = d.b, .bilateral = d.bil,
                             .friction_normal = d.fn, .mu = d.mu};
        imp_lcp_workspace *ws = imp_lcp_workspace_create(n);
        double *f = calloc((size_t)n, sizeof *f), *a = calloc((size_t)n, sizeof *a);
        double *f2 = calloc((size_t)n, sizeof *f2), *b2 = calloc((size_t)n, sizeof *b2);
        signed char *state = calloc((size_t)n, 1), *state2 = calloc((size_t)n, 1);
        unsigned char *basis = calloc((size_t)n, 1), *basis2 = calloc((size_t)n, 1);
        if (ws == NULL || f == NULL || a == NULL || f2 == NULL || b2 == NULL || state == NULL
            || state2 == NULL || basis == NULL || basis2 == NULL) {
            return 1;
        }
        if (by_path) {
            paths(&d, &p, ws, f, a, state);
        } else if (d.wst != NULL) {
            /* the engine's own solve: its warm starts as given */
            solve("engine", &p, d.wst, d.wf, d.wbas, ws, f, a, state, basis);
            memset(f, 0, sizeof *f * (size_t)n);
        }
        if (!by_path && solve("cold", &p, NULL, NULL, NULL, ws, f, a, state, basis)) {
            /* the loads moved by delta, by a function of b itself (rows found twice keep
               equal b) */
            for (int i = 0; i < n; i++) b2[i] = d.b[i] * (1.0 + delta * sin(d.b[i]));
            imp_lcp_problem p2 = p;
            p2.b = b2;
            solve("warm", &p2, state, f, basis, ws, f2, a, state2, basis2);
        }
        imp_lcp_workspace_destroy(ws);
        free(f);
        free(a);
        free(f2);
        free(b2);
        free(state);
        free(state2);
        free(basis);
        free(basis2);
        dump_free(&d);
    }
    return 0;
}
