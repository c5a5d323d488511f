/* bench_lcp_engine.c: the exact LCP (contact_solver = "lcp", the default) inside the 2D
   engine on the 55-box pyramid with friction 0.6 (peers-2d.md scene 1 with base 10: unit
   boxes, dt 1/60, the 2D engine's default extra acceleration), where each box pair reports
   coincident contact points and every evaluation is a frictional LCP of 450-800 rows. For
   RK4 (four evaluations per step, more when the engine backs up) and optionally symplectic
   Euler (one): wall ms per step, LCP solves, how many did not report ok (the engine then
   falls back to projected Gauss-Seidel), and the largest tilt; for contact_solver "lcp"
   (Baraff's pivoting) and "coulomb" (coulomb.h's Newton, engine2d_coulomb.c). A few steps
   only: the exact solves are dense.
   Study mode (a fifth argument k > 0, symplectic Euler steps, or RK4 steps when no
   symplectic Euler steps are asked for): after each step the next
   step's contact problem is posed at its state (one more evaluation, which also updates the
   warm starts: a study run is not the plain run) and, when its exact solve fails, taken
   apart (study_problem): coincident contact
   points of different body pairs, the rank of the normal block and of the whole A (the
   bodies' 3 degrees of freedom bound it), the frictionless problem by the symmetric
   method, the frictional one by the box steps and by the general method alone, and the
   frictionless one regularized (A + 1e-8 diag A): the first k such problems; with a sixth
   argument (a path prefix) each is also written to <prefix>.<i> (n, m, A, b, the rows'
   flags, friction normals and mu), which bench/siconos/fc2d_dump_peer.c gives to Siconos'
   2D frictional contact solvers. A negative fifth argument -k dumps instead the engine's
   own first k failing solves of the plain run, with their warm starts (dump_failed). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <impact/lcp.h>

#include "bench_scenes2d.h"
#include "bench_util.h"
#include "engine2d.h"
#include "polygon2d.h"
#include "world_internal.h"


/* rank of the symmetric PSD k x k leading block of A (leading dimension n), equilibrated by
   its diagonal, by pivoted elimination down to pivots of 1e-9 */
static int psd_rank(const double *A, int n, int k)
{
    double *M = malloc(sizeof *M * (size_t)k * (size_t)k);
    char *used = calloc((size_t)k, 1);
    int r = 0;
    if (M == NULL || used == NULL) {
        free(M);
        free(used);
        return -1;
    }
    for (int i = 0; i < k; i++) {
        for (int j = 0; j < k; j++) {
            M[(size_t)i * k + j] = A[(size_t)i * n + j] / sqrt(A[(size_t)i * n + i] * A[(size_t)j * n + j]);
        }
    }
    for (;;) {
        int p = -1;
        double best = 1e-9;
        for (int i = 0; i < k; i++) {
            if (!used[i] && M[(size_t)i * k + i] > best) {
                best = M[(size_t)i * k + i];
                p = i;
            }
        }
        if (p < 0) break;
        used[p] = 1;
        r++;
        for (int i = 0; i < k; i++) {
            if (used[i]) continue;
            double c = M[(size_t)i * k + p] / M[(size_t)p * k + p];
            for (int j = 0; j < k; j++) M[(size_t)i * k + j] -= c * M[(size_t)p * k + j];
        }
    }
    free(M);
    free(used);
    return r;
}

/* one solve of p by method (tolerance 1e-8, pivot tolerance 1e-6 as in the engine); the
   residuals checked against check (the unregularized problem) */
static void study_solve(const char *label, const imp_lcp_problem *p, const imp_lcp_problem *check,
                        imp_lcp_method method, double *f, double *a)
{
    imp_lcp_options o;
    imp_lcp_default_options(&o);
    o.method = method;
    o.tolerance = 1e-8;
    o.pivot_tolerance = p == check ? 1e-6 : 1e-10;
    imp_lcp_info info;
    imp_lcp_status st = imp_lcp_solve(p, &o, NULL, f, a, NULL, &info);
    imp_lcp_info c;
    memset(&c, 0, sizeof c);
    imp_lcp_check(check, f, a, 1e-8, &c);
    printf("    %-34s %-12s %5d pivots, natural residual %.1e, friction %.1e, max f %.1f (%s)\n", label,
           imp_lcp_status_name(st), info.pivots, c.natural_residual / (1.0 + c.scale_f),
           c.max_friction, c.scale_f, info.message);
}

/* The study of the engine's last contact problem (see the header). 1 when it failed again. */
static int study_problem(imp_world *w, int index, const char *prefix)
{
    imp_engine2d *e = w->engine2d;
    int m = e->nrec, nf = 0;
    for (int i = 0; i < m; i++) nf += e->rec[i].connector < 0 && e->rec[i].friction > 0.0;
    int n = m + nf;
    /* (as the engine poses it: engine2d_contact.c's rows_problem) */
    const imp_lcp_problem p = {.n = n, .A = e->A, .b = e->b, .bilateral = e->bil,
                               .friction_normal = nf > 0 ? e->fric_normal : NULL,
                               .mu = nf > 0 ? e->mu : NULL};
    double *f = calloc((size_t)n, sizeof *f), *a = calloc((size_t)n, sizeof *a);
    double *Ar = malloc(sizeof *Ar * (size_t)n * (size_t)n);
    if (f == NULL || a == NULL || Ar == NULL) {
        free(f);
        free(a);
        free(Ar);
        return 0;
    }
    imp_lcp_options o;
    imp_engine2d_lcp_options(&o);
    imp_lcp_info info;
    int failed = imp_lcp_solve(&p, &o, NULL, f, a, NULL, &info) != IMP_LCP_OK;
    if (failed) {
        int side = 0, coincident = 0;
        for (int i = 0; i < m; i++) {
            const imp_rec2d *r = &e->rec[i];
            side += fabs(r->normal[0]) > 0.5;
            for (int j = 0; j < i; j++) {
                const imp_rec2d *t = &e->rec[j];
                int same_pair = (r->p == t->p && r->q == t->q) || (r->p == t->q && r->q == t->p);
                coincident += !same_pair && fabs(r->point[0] - t->point[0]) < 1e-6
                              && fabs(r->point[1] - t->point[1]) < 1e-6;
            }
        }
        printf("  problem %d (t = %.4f): %d rows, %d normal (%d with a horizontal normal), %d "
               "friction; %d point pairs of different body pairs coincide; rank of the normal "
               "block %d, of A %d; the whole solve: %s (%s)\n",
               index, w->data.time, n, m, side, nf, coincident, psd_rank(e->A, n, m),
               psd_rank(e->A, n, n), imp_lcp_status_name(info.status), info.message);
        imp_lcp_problem q = p;
        q.n = m;
        q.friction_normal = NULL;
        q.mu = NULL;
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) Ar[(size_t)i * m + j] = e->A[(size_t)i * n + j];
        }
        q.A = Ar;
        study_solve("frictionless, symmetric", &q, &q, IMP_LCP_SYMMETRIC, f, a);
        imp_lcp_problem qr = q;
        double *Areg = malloc(sizeof *Areg * (size_t)m * (size_t)m);
        if (Areg != NULL) {
            memcpy(Areg, Ar, sizeof *Areg * (size_t)m * (size_t)m);
            for (int i = 0; i < m; i++) Areg[(size_t)i * m + i] *= 1.0 + 1e-8;
            qr.A = Areg;
            study_solve("frictionless, regularized 1e-8", &qr, &q, IMP_LCP_SYMMETRIC, f, a);
            free(Areg);
        }
        study_solve("with friction, box steps", &p, &p, IMP_LCP_BOX, f, a);
        study_solve("with friction, general method", &p, &p, IMP_LCP_GENERAL, f, a);
        if (prefix != NULL) {
            char path[512];
            snprintf(path, sizeof path, "%s.%d", prefix, index);
            FILE *fp = fopen(path, "wb");
            if (fp != NULL) {
                fwrite(&n, sizeof n, 1, fp);
                fwrite(&m, sizeof m, 1, fp);
                fwrite(e->A, sizeof *e->A, (size_t)n * (size_t)n, fp);
                fwrite(e->b, sizeof *e->b, (size_t)n, fp);
                fwrite(e->bil, 1, (size_t)n, fp);
                for (int i = 0; nf > 0 && i < n; i++) {
                    fwrite(&e->fric_normal[i], sizeof(int), 1, fp);
                    fwrite(&e->mu[i], sizeof(double), 1, fp);
                }
                fclose(fp);
            }
        }
    }
    free(f);
    free(a);
    free(Ar);
    return failed;
}

/* The dump of the engine's own failing solves (study < 0): each exact solve that did not
   report ok, the first -study of them, written to <prefix>.<i> as the study mode writes its
   problems, followed by the warm starts the engine gave (the int 0x314d5257, then the row
   states, n bytes, 0 for none; the forces, n doubles; the split basis, n bytes), which
   bench_lcp_dump replays. */
typedef struct dumper {
    imp_world *w;
    const char *prefix;
    int left, done;
} dumper;

static void dump_failed(void *ctx, const imp_lcp_problem *p, const imp_lcp_options *o)
{
    dumper *d = ctx;
    if (d->left <= 0 || d->prefix == NULL) return;
    d->left--;
    int n = p->n, m = 0;
    for (int i = 0; i < n; i++) m += p->friction_normal == NULL || p->friction_normal[i] < 0;
    char path[512];
    snprintf(path, sizeof path, "%s.%d", d->prefix, d->done);
    printf("  failed solve %d at t = %.4f: %d rows, %d normal, written to %s\n", d->done,
           d->w->data.time, n, m, path);
    d->done++;
    FILE *fp = fopen(path, "wb");
    if (fp == NULL) return;
    fwrite(&n, sizeof n, 1, fp);
    fwrite(&m, sizeof m, 1, fp);
    fwrite(p->A, sizeof *p->A, (size_t)n * (size_t)n, fp);
    fwrite(p->b, sizeof *p->b, (size_t)n, fp);
    for (int i = 0; i < n; i++) {
        unsigned char c = p->bilateral != NULL && p->bilateral[i];
        fwrite(&c, 1, 1, fp);
    }
    for (int i = 0; i < n; i++) {
        int k = p->friction_normal != NULL ? p->friction_normal[i] : -1;
        double mu = p->mu != NULL ? p->mu[i] : 0.0;
        fwrite(&k, sizeof(int), 1, fp);
        fwrite(&mu, sizeof(double), 1, fp);
    }
    int magic = 0x314d5257;
    fwrite(&magic, sizeof magic, 1, fp);
    for (int i = 0; i < n; i++) {
        signed char c = o->warm_start != NULL ? o->warm_start[i] : 0;
        double v = o->warm_forces != NULL ? o->warm_forces[i] : 0.0;
        unsigned char bb = o->warm_basis != NULL ? o->warm_basis[i] : 0;
        fwrite(&c, 1, 1, fp);
        fwrite(&v, sizeof v, 1, fp);
        fwrite(&bb, 1, 1, fp);
    }
    fclose(fp);
    fflush(stdout);
}

static void run(int base, int steps, imp_time_stepping stepping, int solver, int study,
                const char *prefix)
{
    imp_world_def def = imp_world_default_def(2);
    def.integrator.kind = IMP_RK4;
    def.strategy = IMP_STRATEGY_CONTACT;
    def.dt = 1.0 / 60.0;
    def.gravity[1] = -10.0;
    def.engine2d.time_stepping = stepping;
    def.engine2d.contact_solver = solver;
    imp_world *w = imp_world_new(&def);
    bench_add_block(w, 200, 2, 0, -1, 0, 1, 1, 0, 0.6);
    const double h = 0.5;
    int nb = base * (base + 1) / 2;
    for (int i = 0; i < base; i++) {
        for (int j = i; j < base; j++) {
            bench_add_block(w, 1, 1, (i + 1) * h + 2 * (j - i) * h - h * base, (2 * i + 1) * h, 0, 0, 1,
                            0, 0.6);
        }
    }
    dumper dd = {w, prefix, -study, 0};
    if (study < 0) {
        imp_engine2d *e = imp_engine2d_get(w);
        if (e != NULL) {
            e->lcp_failed = dump_failed;
            e->lcp_failed_ctx = &dd;
        }
        study = 0;
    }
    double t0 = bench_now();
    double c0 = bench_cpu();
    int done = 0;
    int studied = 0;
    double *dydt = study > 0 ? calloc((size_t)w->model.nslots * IMP_STRIDE_2D, sizeof *dydt) : NULL;
    for (int s = 0; s < steps; s++) {
        if (imp_world_step(w) != IMP_OK) {
            printf("  step %d failed: %s\n", s + 1, imp_world_error(w));
            break;
        }
        done++;
        if (studied < study) {
            /* the step's arrays are gone (its end detected again): pose the next step's
               problem at this state, as the step would (this changes the warm starts, so
               a study run is not the plain run) */
            long again = w->engine2d->stats.lcp_failures;
            if (dydt != NULL && imp_engine2d_evaluate(w, dydt) == 0
                && w->engine2d->stats.lcp_failures > again) {
                studied += study_problem(w, studied, prefix);
            }
        }
    }
    double wall = bench_now() - t0, cpu = bench_cpu() - c0;
    free(dydt);
    double maxang = 0.0;
    for (int k = 1; k <= nb; k++) maxang = fmax(maxang, fabs(w->data.y[(size_t)k * IMP_STRIDE_2D + 2]));
    const imp_engine2d_stats *st = &w->engine2d->stats;
    long fallbacks = solver == IMP_SOLVER_COULOMB ? st->coulomb_failures
                     : st->lcp_failures - st->coulomb_solves + st->coulomb_failures;
    printf("  pyramid base %d (%d boxes), %s, contact_solver %s: %.1f ms/step over %d steps (%.1f "
           "ms per solve); %ld solves, %ld pivoting not ok, %ld to the Coulomb solver, %ld of "
           "them not ok, %ld to PGS; largest problem %ld rows; largest complementarity residual "
           "%.1e (relative); max angle %.1e rad; %.1f s user CPU\n",
           base, nb, stepping == IMP_STEPPING_SYMPLECTIC_EULER ? "symplectic_euler" : "rk4",
           imp_contact_solver_names[solver], 1e3 * wall / (done > 0 ? done : 1), done,
           1e3 * wall / (st->lcp_solves > 0 ? (double)st->lcp_solves : 1.0), st->lcp_solves,
           solver == IMP_SOLVER_COULOMB ? 0 : st->lcp_failures, st->coulomb_solves,
           st->coulomb_failures, fallbacks, st->max_contacts, st->lcp_residual, maxang, cpu);
    fflush(stdout);
    imp_world_free(w);
}

/* usage: bench_lcp_engine [rk4 steps (1)] [symplectic Euler steps (0)] [solver: lcp,
   coulomb, pgs or both (lcp and coulomb; both)] [base (10)] [problems to study (0)] [dump path prefix] */
int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : 1, se = argc > 2 ? atoi(argv[2]) : 0;
    const char *which = argc > 3 ? argv[3] : "both";
    int base = argc > 4 ? atoi(argv[4]) : 10;
    int study = argc > 5 ? atoi(argv[5]) : 0;
    const char *prefix = argc > 6 ? argv[6] : NULL;
    printf("bench_lcp_engine: the exact frictional LCP in the 2D engine\n");
    for (int solver = IMP_SOLVER_LCP; solver <= IMP_SOLVER_COULOMB; solver++) {
        /* (PGS, the reference for the time per step, only when asked by name) */
        if ((solver == IMP_SOLVER_PGS && strcmp(which, "pgs") != 0) || (strcmp(which, "both") != 0
                                         && strcmp(which, imp_contact_solver_names[solver]) != 0)) {
            continue;
        }
        /* (the study takes the RK4 run's problems when there is no symplectic run) */
        if (steps > 0) run(base, steps, IMP_STEPPING_ODE, solver, se > 0 ? 0 : study, prefix);
        if (se > 0) run(base, se, IMP_STEPPING_SYMPLECTIC_EULER, solver, study, prefix);
    }
    return 0;
}
