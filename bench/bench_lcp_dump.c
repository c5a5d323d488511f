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
   Usage: bench_lcp_dump [-d delta (1e-3)] file... */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <impact/lcp.h>

#include "bench_util.h"
#include "engine2d.h"

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

int main(int argc, char **argv)
{
    double delta = 1e-3;
    int k = 1;
    if (argc > 2 && strcmp(argv[1], "-d") == 0) {
        delta = atof(argv[2]);
        k = 3;
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
        if (d.wst != NULL) {
            /* the engine's own solve: its warm starts as given */
            solve("engine", &p, d.wst, d.wf, d.wbas, ws, f, a, state, basis);
            memset(f, 0, sizeof *f * (size_t)n);
        }
        if (solve("cold", &p, NULL, NULL, NULL, ws, f, a, state, basis)) {
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
