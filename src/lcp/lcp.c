/* lcp.c: the LCP driver: workspace, input checks, choice of method, residual checks and
   the honest status (see lcp.h). */
#include <impact/lcp.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lcp_internal.h"

static void ws_free_buffers(imp_lcp_workspace *ws)
{
    free(ws->big);
    free(ws->sc);
    free(ws->cset);
    free(ws->st);
    free(ws->lem);
    free(ws->lem_i);
    free(ws->ginv);
    free(ws->stick);
    free(ws->stick_pair);
    free(ws->split);
    free(ws->split_i);
    free(ws->reg);
    free(ws->newt);
    free(ws->newt_i);
    free(ws->prox);
    free(ws->prox_b);
    ws->prox = NULL;
    ws->prox_b = NULL;
    ws->prox_cap = 0;
    ws->newt = NULL;
    ws->newt_i = NULL;
    ws->newt_cap = ws->newt_icap = 0;
    ws->reg = NULL;
    ws->reg_cap = 0;
    if (ws->split_ws != NULL) {
        ws_free_buffers(ws->split_ws);
        free(ws->split_ws);
    }
    ws->split = NULL;
    ws->split_i = NULL;
    ws->split_ws = NULL;
    ws->split_cap = ws->split_icap = 0;
    ws->stick = NULL;
    ws->stick_pair = NULL;
    ws->stick_cap = 0;
    ws->ginv = NULL;
    ws->ginv_cap = 0;
    ws->lem = NULL;
    ws->lem_i = NULL;
    ws->lem_cap = 0;
    ws->big = ws->sc = NULL;
    ws->cset = NULL;
    ws->st = NULL;
    ws->cap = 0;
}

imp_status imp_lcp_workspace_reserve(imp_lcp_workspace *ws, int n)
{
    if (n <= ws->cap) {
        return IMP_OK;
    }
    ws_free_buffers(ws);
    size_t c = (size_t)n;
    ws->big = malloc(c * c * sizeof(double) + 1);
    ws->sc = malloc(11 * c * sizeof(double) + 1);     /* sc fh ah dfh dah y x t work(2) spare */
    ws->cset = malloc(8 * c * sizeof(int) + 1);       /* cset pos list list2 un first rlo rhi */
    ws->st = malloc(2 * c + 1);
    if (ws->big == NULL || ws->sc == NULL || ws->cset == NULL || ws->st == NULL) {
        ws_free_buffers(ws);
        return IMP_ERR_NOMEM;
    }
    ws->bas = (unsigned char *)ws->st + c;
    ws->fh = ws->sc + c;
    ws->ah = ws->fh + c;
    ws->dfh = ws->ah + c;
    ws->dah = ws->dfh + c;
    ws->y = ws->dah + c;
    ws->x = ws->y + c;
    ws->t = ws->x + c;
    ws->work = ws->t + c;
    ws->pos = ws->cset + c;
    ws->list = ws->pos + c;
    ws->list2 = ws->list + c;
    ws->un = ws->list2 + c;
    ws->first = ws->un + c;
    ws->rlo = ws->first + c;
    ws->rhi = ws->rlo + c;
    ws->cap = n;
    return IMP_OK;
}

imp_lcp_workspace *imp_lcp_workspace_create(int n_max)
{
    imp_lcp_workspace *ws = calloc(1, sizeof *ws);
    if (ws == NULL) {
        return NULL;
    }
    if (imp_lcp_workspace_reserve(ws, n_max > 0 ? n_max : 1) != 0) {
        free(ws);
        return NULL;
    }
    return ws;
}

void imp_lcp_workspace_destroy(imp_lcp_workspace *ws)
{
    if (ws != NULL) {
        ws_free_buffers(ws);
        free(ws);
    }
}

void imp_lcp_default_options(imp_lcp_options *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->method = IMP_LCP_AUTO;
    opts->tolerance = 1e-9;
    opts->pivot_tolerance = 1e-11;
}

const char *imp_lcp_status_name(imp_lcp_status s)
{
    switch (s) {
    case IMP_LCP_OK: return "ok";
    case IMP_LCP_INFEASIBLE: return "infeasible";
    case IMP_LCP_PIVOT_LIMIT: return "pivot_limit";
    case IMP_LCP_NUMERICAL: return "numerical";
    case IMP_LCP_OUTSIDE_CLASS: return "outside_class";
    case IMP_LCP_BAD_INPUT: return "bad_input";
    case IMP_LCP_NO_MEMORY: return "no_memory";
    }
    return "unknown";
}

static int is_friction(const imp_lcp_problem *p, int i)
{
    return p->friction_normal != NULL && p->friction_normal[i] >= 0;
}

int imp_lcp_check(const imp_lcp_problem *p, const double *f, double *a, double tol,
                  imp_lcp_info *info)
{
    int n = p->n;
    double sA = 0.0, sb = 0.0, sf = 0.0;
    for (int i = 0; i < n; i++) {
        const double *row = p->A + (size_t)i * n;
        double s = p->b[i];
        for (int j = 0; j < n; j++) {
            double v = fabs(row[j]);
            s += row[j] * f[j];
            sA = v > sA ? v : sA;
        }
        a[i] = s;
        sb = fmax(sb, fabs(p->b[i]));
        sf = fmax(sf, fabs(f[i]));
    }
    double sa = sb + sA * sf;
    info->scale_f = sf;
    info->scale_a = sa;
    /* floors keep an all-zero problem (f = a = 0) passing and nothing else */
    double tf = tol * sf + DBL_MIN, ta = tol * sa + DBL_MIN;
    double minf = 0.0, mina = 0.0, comp = 0.0, bil = 0.0, fr = 0.0, nat = 0.0;
    int first = 1;
    for (int i = 0; i < n; i++) {
        if (p->bilateral != NULL && p->bilateral[i]) {
            bil = fmax(bil, fabs(a[i]));
        } else if (is_friction(p, i)) {
            double bound = p->mu[i] * f[p->friction_normal[i]];
            double v;
            if (p->sliding != NULL && p->sliding[i] != 0) {
                v = fabs(f[i] + p->sliding[i] * bound) / tf;
            } else {
                /* the least violation over the three friction states, in tolerance units */
                double inside = fmax(fmax(fabs(f[i]) - bound, 0.0) / tf, fabs(a[i]) / ta);
                double upper = fmax(fabs(f[i] - bound) / tf, fmax(a[i], 0.0) / ta);
                double lower = fmax(fabs(f[i] + bound) / tf, fmax(-a[i], 0.0) / ta);
                v = fmin(inside, fmin(upper, lower));
                if (bound < 0.0) v = fmax(v, -bound / tf);
            }
            fr = fmax(fr, v * tol);
        } else {
            if (first) {
                minf = f[i];
                mina = a[i];
                first = 0;
            }
            minf = fmin(minf, f[i]);
            mina = fmin(mina, a[i]);
            comp = fmax(comp, fabs(f[i] * a[i]));
            nat = fmax(nat, fabs(f[i] - fmax(0.0, f[i] - a[i])));
        }
    }
    info->min_f = minf;
    info->min_a = mina;
    info->max_comp = comp;
    info->max_bilateral = bil;
    info->max_friction = fr;
    info->natural_residual = nat;
    int finite = isfinite(minf) && isfinite(mina) && isfinite(comp) && isfinite(bil) && isfinite(fr);
    return finite && minf >= -tf && mina >= -ta && comp <= tol * sf * sa + DBL_MIN && bil <= ta &&
           fr <= tol;
}

static const char *check_input(const imp_lcp_problem *p)
{
    if (p == NULL || p->n < 0) return "problem is NULL or n < 0";
    if (p->n > 0 && (p->A == NULL || p->b == NULL)) return "A or b is NULL";
    size_t nn = (size_t)p->n * p->n;
    for (size_t k = 0; k < nn; k++) {
        if (!isfinite(p->A[k])) return "A has a NaN or infinite entry";
    }
    for (int i = 0; i < p->n; i++) {
        if (!isfinite(p->b[i])) return "b has a NaN or infinite entry";
    }
    if (p->friction_normal != NULL) {
        if (p->mu == NULL) return "friction rows without mu";
        for (int i = 0; i < p->n; i++) {
            int k = p->friction_normal[i];
            if (k < -1 || k >= p->n || k == i) return "friction_normal index out of range";
            if (k < 0) continue;
            if (!(p->mu[i] >= 0.0) || !isfinite(p->mu[i])) return "mu must be a finite number >= 0";
            if (p->friction_normal[k] >= 0 || (p->bilateral != NULL && p->bilateral[k]))
                return "a friction row's normal row must be a unilateral row";
            if (p->bilateral != NULL && p->bilateral[i]) return "a row cannot be both bilateral and friction";
            if (p->sliding != NULL && (p->sliding[i] < -1 || p->sliding[i] > 1))
                return "sliding must be -1, 0 or +1";
        }
    }
    return NULL;
}

/* A is taken as symmetric when each |A_ij - A_ji| is within the rounding of its assembly:
   for A = J M^-1 J^T an entry is a sum of at most n products whose absolute sum is at most
   sqrt(A_ii A_jj) (Cauchy-Schwarz), so two summation orders differ by at most about
   n eps sqrt(A_ii A_jj); the bound taken is 4 n eps sqrt(|A_ii A_jj|), and never less than
   the former 1e-13 max|A|. (KaplasTower's assembled M is off by 7.29e-11 = 1.05e-13
   max|A|: rounding, now accepted; a genuinely nonsymmetric A, e.g. from a skew term, is
   off by far more.) */
static int is_symmetric(const imp_lcp_problem *p)
{
    int n = p->n;
    double sA = 0.0;
    for (size_t k = 0; k < (size_t)n * n; k++) {
        double v = fabs(p->A[k]);
        sA = v > sA ? v : sA;
    }
    double floor_tol = 1e-13 * sA, acc = 4.0 * n * DBL_EPSILON;
    for (int i = 0; i < n; i++) {
        double aii = fabs(p->A[(size_t)i * n + i]);
        for (int j = 0; j < i; j++) {
            double d = fabs(p->A[(size_t)i * n + j] - p->A[(size_t)j * n + i]);
            if (d <= floor_tol) continue;
            if (d > acc * sqrt(aii * fabs(p->A[(size_t)j * n + j]))) return 0;
        }
    }
    return 1;
}

/* how far f misses the LCP, in units of the tolerance's scales (imp_lcp_check's tests:
   0 for an exact answer; the larger, the worse) */
static double badness(const imp_lcp_info *info)
{
    double sf = info->scale_f + DBL_MIN, sa = info->scale_a + DBL_MIN;
    double b = fmax(fmax(-info->min_f / sf, -info->min_a / sa), info->max_comp / (sf * sa));
    b = fmax(b, fmax(info->max_bilateral / sa, info->max_friction));
    return isfinite(b) ? fmax(b, 0.0) : INFINITY;
}

static int has_friction(const imp_lcp_problem *p)
{
    if (p->friction_normal == NULL) return 0;
    for (int i = 0; i < p->n; i++) {
        if (p->friction_normal[i] >= 0) return 1;
    }
    return 0;
}

static int has_bilateral(const imp_lcp_problem *p)
{
    if (p->bilateral == NULL) return 0;
    for (int i = 0; i < p->n; i++) {
        if (p->bilateral[i]) return 1;
    }
    return 0;
}

static imp_lcp_status run_method(imp_lcp_method m, const imp_lcp_problem *p,
                                 const imp_lcp_limits *lim, const signed char *warm,
                                 imp_lcp_workspace *ws, double *f, imp_lcp_info *info,
                                 const char **msg)
{
    switch (m) {
    case IMP_LCP_SYMMETRIC: return imp_lcp_solve_symmetric(p, lim, warm, ws, f, info, msg);
    case IMP_LCP_LEMKE: return imp_lcp_solve_lemke(p, lim, ws, f, info, msg);
    case IMP_LCP_BOX: return imp_lcp_solve_box(p, lim, NULL, NULL, ws, f, info, msg);
    default: return imp_lcp_solve_general(p, lim, warm, ws, f, info, msg);
    }
}

/* The regularization of the box steps on redundant rows, relative to A's diagonal: the
   answer's a is off by eps A_ii f_i, within the engine's 1e-8 residual test; the rows'
   Schur complements in the regularized A are then at least eps (scaled), so the steps'
   pivot tolerance goes below it. Problems of more rows than IMP_LCP_REG_FIRST go there
   first. */
#define IMP_LCP_REG_EPS 1e-10
#define IMP_LCP_REG_FIRST 300

/* The box steps (lcp_box.c) on A + eps diag(A), warm-started from warm and warm_f (may be
   NULL), for frictional problems with redundant rows: A is then singular, the normal
   forces of a box step are not unique, and the steps on A wander between vertex splits
   whose friction bounds never settle; on the positive definite regularized A each step's
   forces are unique and vary continuously with the bounds. The answer is taken (IMP_LCP_OK,
   f, ws->st and info filled) only when it passes the residual test on A itself; else a
   failure is returned and f and ws->st hold its last iterate. The regularized A lives in
   ws->reg (n^2 doubles, kept; its n more doubles are the callers' scratch). */
/* ws->reg for n rows: n^2 + n doubles. 0, or -1 out of memory. */
static int reg_reserve(imp_lcp_workspace *ws, int n)
{
    size_t need = (size_t)n * (size_t)n + (size_t)n;
    if (need > ws->reg_cap) {
        free(ws->reg);
        ws->reg = malloc(need * sizeof(double));
        ws->reg_cap = ws->reg != NULL ? need : 0;
    }
    return ws->reg != NULL ? 0 : -1;
}

/* q := p with A + IMP_LCP_REG_EPS diag(A) (in ws->reg). 0, or -1 out of memory. O(n^2). */
static int reg_problem(const imp_lcp_problem *p, imp_lcp_workspace *ws, imp_lcp_problem *q)
{
    int n = p->n;
    if (reg_reserve(ws, n) != 0) return -1;
    memcpy(ws->reg, p->A, (size_t)n * (size_t)n * sizeof(double));
    for (int i = 0; i < n; i++) ws->reg[(size_t)i * n + i] *= 1.0 + IMP_LCP_REG_EPS;
    *q = *p;
    q->A = ws->reg;
    return 0;
}

static imp_lcp_status box_regularized(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                      const signed char *warm, const double *warm_f,
                                      imp_lcp_workspace *ws, double *f, imp_lcp_info *info,
                                      const char **msg)
{
    int n = p->n;
    imp_lcp_problem q;
    if (reg_problem(p, ws, &q) != 0) {
        *msg = "out of memory for the regularized problem";
        return IMP_LCP_NO_MEMORY;
    }
    imp_lcp_limits lr = *lim;
    lr.ptol = 1e-3 * IMP_LCP_REG_EPS;
    imp_lcp_status st = imp_lcp_solve_box(&q, &lr, warm, warm_f, ws, f, info, msg);
    for (int i = 0; i < n; i++) {
        if (!isfinite(f[i])) f[i] = 0.0;
    }
    if (st != IMP_LCP_OK) return st;
    if (!imp_lcp_check(p, f, ws->work, lim->tol, info)) {
        *msg = "the regularized box steps' answer is above the tolerance on A itself";
        return IMP_LCP_NUMERICAL;
    }
    *msg = "solved by the box-bounded steps on A + 1e-10 diag(A) (redundant rows)";
    return IMP_LCP_OK;
}

/* The regularized box steps after the other methods failed: their answer is taken when it
   passes, else f, the row states and info of the answer before are kept. Returns the
   status to report. */
static imp_lcp_status regularized_after(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                        const imp_lcp_options *opts, imp_lcp_workspace *ws,
                                        double *f, double *a, imp_lcp_info *info,
                                        imp_lcp_status st, const char **msg)
{
    int n = p->n;
    for (int i = 0; i < n; i++) {
        if (!isfinite(f[i])) f[i] = 0.0;
    }
    imp_lcp_info before = *info;
    const char *msg_before = *msg;
    memcpy(a, f, (size_t)n * sizeof(double));
    if (reg_reserve(ws, n) != 0) return st;
    signed char *st_keep = (signed char *)(ws->reg + (size_t)n * (size_t)n);
    memcpy(st_keep, ws->st, (size_t)n);
    imp_lcp_status sr = box_regularized(p, lim, opts->warm_start, opts->warm_forces, ws, f,
                                        info, msg);
    if (sr == IMP_LCP_OK) {
        info->pivots += before.pivots;
        info->method = IMP_LCP_BOX;
        return IMP_LCP_OK;
    }
    int pivots = info->pivots;
    *info = before;
    info->pivots += pivots;
    *msg = msg_before;
    memcpy(f, a, (size_t)n * sizeof(double));
    memcpy(ws->st, st_keep, (size_t)n);
    return st;
}

/* The largest problem given to the split friction problem: about 2 n rows, dense, a cold
   Lemke path of 2 to 3 N pivots at O(N^2) each (tenths of a second at n = 140, half a minute at n = 580
   for the four settings tried, where the answer was taken once in three). */
#define IMP_LCP_SPLIT_MAX 300

/* Above IMP_LCP_SPLIT_MAX and up to this many rows with a symmetric A, the split problem
   is posed with one setting (scaled, 1e-10 on the multipliers) on A itself, with a longer
   path (IMP_LCP_SPLIT_FACTOR N + 1000 pivots), then on the regularized A + IMP_LCP_REG_EPS
   diag(A) (5 N + 1000): on the 55-box pyramid's 580 rows (1160 variables) cold Lemke paths
   of 3500 to 11 000 pivots, 5 to 20 s; the answer then warm-starts the next solves' box
   steps (through the caller's row states and forces). Of six problems dumped from the
   pyramid's symplectic Euler run that the regularized A alone left unsolved, A itself
   solved two (3515 and 11 163 pivots); in the engine (bench_lcp_engine, 3 RK4 steps) the
   solves left to PGS went from 14 of 64 to 7 of 52. */
#define IMP_LCP_SPLIT_REG_MAX 1200

/* Friction every other method left unsolved, as Stewart and Trinkle's split problem for
   Lemke's method (lcp_split.c): on A itself with four settings up to IMP_LCP_SPLIT_MAX
   rows; beyond, Lemke's path warm-started first (lcp_lemke_warm.c) from the caller's row
   states (the last step's, by row key) and then from the pattern the failed methods left
   (ws->st with f: the box steps' last iterate), each with a path of up to
   IMP_LCP_WARM_FACTOR N + 1000 pivots, then cold on A itself, then cold on the regularized
   A. An answer is taken when it passes the residual test on A; else f, the row states and
   info of the answer before are kept. Returns the status to report. */

/* whether the caller gave a split basis (lcp.h warm_basis) for some row */
static int has_basis(const imp_lcp_options *opts, int n)
{
    if (opts->warm_basis == NULL) return 0;
    for (int i = 0; i < n; i++) {
        if (opts->warm_basis[i] & 8) return 1;
    }
    return 0;
}

static imp_lcp_status split_settings(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                     const imp_lcp_options *opts, int k0, int settings,
                                     imp_lcp_workspace *ws, double *f, double *a,
                                     imp_lcp_info *info, imp_lcp_status st, const char **msg)
{
    imp_lcp_problem q = *p;
    /* beyond IMP_LCP_SPLIT_MAX: the two warm starts, one setting on A itself, then one on
       the regularized A */
    int big = p->n > IMP_LCP_SPLIT_MAX;
    int n = p->n;
    signed char *st_keep = (signed char *)ws->list; /* (n ints: free between methods) */
    for (int i = 0; i < n; i++) {
        if (!isfinite(f[i])) f[i] = 0.0;
    }
    imp_lcp_info before = *info;
    memcpy(a, f, (size_t)n * sizeof(double));
    memcpy(st_keep, ws->st, (size_t)n);
    /* the multipliers' regularization and the scaling (lcp_split.c), in the order that
       solved most of the pyramids' problems: an answer's residuals vary with them through
       rounding (the bases of redundant contacts are ill-conditioned), not as a trend */
    static const double eps[] = {1e-10, 1e-8, 1e-9, 1e-7};
    /* big: 0 warm from the caller's basis, 1 warm from the last pattern, 2 cold on A,
       3 cold on the regularized A (settings k0 to settings - 1) */
    int solved = 0;
    for (int k = k0; k < settings && !solved; k++) {
        const char *msg4 = *msg;
        if (big && k == 3 && reg_problem(p, ws, &q) != 0) break;
        imp_lcp_limits ls = *lim;
        const signed char *warm = NULL;
        const double *warm_f = NULL;
        if (big && k == 0) {
            warm = opts->warm_start;
            warm_f = opts->warm_forces;
            if (warm == NULL) continue;
        } else if (big && k == 1) {
            /* (the forces of the pattern are in a, kept above) */
            warm = st_keep;
            warm_f = a;
        }
        ls.split_factor = !big ? 0 : k < 2 ? IMP_LCP_WARM_FACTOR
                                  : k == 2 ? IMP_LCP_SPLIT_FACTOR : 0;
        imp_lcp_status st4 = imp_lcp_solve_split(&q, &ls, big ? eps[0] : eps[k], big || k < 2,
                                                 warm, warm_f, big && k == 0 ? opts->warm_basis : NULL,
                                                 ws, f, info, &msg4);
        if (st4 == IMP_LCP_NO_MEMORY) break;
        int finite = 1;
        for (int i = 0; finite && i < n; i++) finite = isfinite(f[i]);
        solved = finite && st4 == IMP_LCP_OK && imp_lcp_check(p, f, ws->work, lim->tol, info);
        if (solved && warm != NULL) *msg = k == 0 ? "solved by Lemke's method on the split "
            "friction problem (Stewart-Trinkle), warm-started from the given basis"
            : "solved by Lemke's method on the split friction problem (Stewart-Trinkle), "
              "warm-started from the failed methods' last pattern";
    }
    if (solved) {
        info->additions = before.additions;
        info->removals = before.removals;
        info->method = IMP_LCP_LEMKE;
        if (q.A != p->A)
            *msg = "solved by Lemke's method on the split friction problem (Stewart-Trinkle) "
                   "of A + 1e-10 diag(A) after the box steps failed";
        else if (strstr(*msg, "warm-started") == NULL)
            *msg = "solved by Lemke's method on the split friction problem "
                   "(Stewart-Trinkle) after the other methods failed";
        return IMP_LCP_OK;
    }
    int pivots = info->pivots;
    *info = before;
    info->pivots = pivots;
    memcpy(f, a, (size_t)n * sizeof(double));
    memcpy(ws->st, st_keep, (size_t)n);
    memset(ws->bas, 0, (size_t)n);
    return st;
}

/* the settings after the other methods failed (the warm basis was tried before them) */
static imp_lcp_status split_last_resort(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                        const imp_lcp_options *opts, imp_lcp_workspace *ws,
                                        double *f, double *a, imp_lcp_info *info,
                                        imp_lcp_status st, const char **msg)
{
    return split_settings(p, lim, opts, p->n > IMP_LCP_SPLIT_MAX, 4, ws, f, a, info, st, msg);
}

/* The semismooth Newton finish (lcp_newton.c) on problems of more than IMP_LCP_REG_FIRST
   rows: first from the caller's warm forces (the last step's answer by row key; a few
   steps (8: its answer is taken only at rounding, one step past the residual test), each O(m^3) for m pressed rows, where the warm Lemke path or box steps take
   hundreds of pivots), and last, after every other method failed, from their last iterate
   after IMP_LCP_NEWTON_SWEEPS projected Gauss-Seidel sweeps on A. */
#define IMP_LCP_NEWTON_WARM_STEPS 8
#define IMP_LCP_NEWTON_SWEEPS 200
#define IMP_LCP_NEWTON_STEPS 30

/* One of the later methods tried on the driver's behalf (the Newton finish, the proximal
   point loop: try_newton, try_prox): its answer is taken when it reports ok (info->method
   set to method); else f, the row states and info of the answer before are kept (the
   pivots counted on). Returns the status to report. a: n doubles of scratch. */
typedef struct attempt {
    const imp_lcp_problem *p;
    const imp_lcp_limits *lim;
    const double *start;          /* Newton: the start (NULL: f itself) */
    int sweeps, steps;            /* Newton: PGS sweeps first, most steps */
    const imp_lcp_options *opts;  /* the proximal loop: the warm states and forces */
} attempt;

static imp_lcp_status try_newton(const attempt *t, imp_lcp_workspace *ws, double *f,
                                 imp_lcp_info *info, const char **msg)
{
    if (t->start != NULL) memcpy(f, t->start, (size_t)t->p->n * sizeof(double));
    return imp_lcp_solve_newton(t->p, t->lim, t->sweeps, t->steps, ws, f, info, msg);
}

static imp_lcp_status try_prox(const attempt *t, imp_lcp_workspace *ws, double *f,
                               imp_lcp_info *info, const char **msg)
{
    return imp_lcp_solve_prox(t->p, t->lim, t->opts->warm_start, t->opts->warm_forces, ws, f,
                              info, msg);
}

static imp_lcp_status kept_unless_ok(imp_lcp_status (*run)(const attempt *, imp_lcp_workspace *,
                                                           double *, imp_lcp_info *,
                                                           const char **),
                                     const attempt *t, imp_lcp_method method, int warm,
                                     imp_lcp_workspace *ws, double *f, double *a,
                                     imp_lcp_info *info, imp_lcp_status st, const char **msg)
{
    int n = t->p->n;
    for (int i = 0; i < n; i++) {
        if (!isfinite(f[i])) f[i] = 0.0;
    }
    imp_lcp_info before = *info;
    signed char *st_keep = (signed char *)ws->list; /* (n ints: free between methods) */
    memcpy(a, f, (size_t)n * sizeof(double));
    memcpy(st_keep, ws->st, (size_t)n);
    const char *msg_n = *msg;
    imp_lcp_status sn = run(t, ws, f, info, &msg_n);
    /* (info->pivots: before's and the method's) */
    if (sn == IMP_LCP_OK) {
        info->method = method;
        info->warm_started = warm;
        *msg = msg_n;
        return IMP_LCP_OK;
    }
    int pivots = info->pivots;
    *info = before;
    info->pivots = pivots;
    memcpy(f, a, (size_t)n * sizeof(double));
    memcpy(ws->st, st_keep, (size_t)n);
    return st;
}

/* The Newton finish from start (NULL: from f itself), info->method then IMP_LCP_GENERAL
   (the friction family) */
static imp_lcp_status newton_finish(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                    const double *start, int sweeps, int steps,
                                    imp_lcp_workspace *ws, double *f, double *a,
                                    imp_lcp_info *info, imp_lcp_status st, const char **msg)
{
    attempt t = {p, lim, start, sweeps, steps, NULL};
    return kept_unless_ok(try_newton, &t, IMP_LCP_GENERAL, start != NULL, ws, f, a, info, st,
                          msg);
}

/* The proximal point loop (lcp_prox.c) from the caller's warm states and forces, after the
   regularized box steps failed on a problem of more than IMP_LCP_REG_FIRST rows */
static imp_lcp_status prox_after(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                 const imp_lcp_options *opts, imp_lcp_workspace *ws, double *f,
                                 double *a, imp_lcp_info *info, imp_lcp_status st,
                                 const char **msg)
{
    attempt t = {p, lim, NULL, 0, 0, opts};
    return kept_unless_ok(try_prox, &t, IMP_LCP_LEMKE, opts->warm_start != NULL, ws, f, a,
                          info, st, msg);
}

static int any_nonzero(const double *v, int n)
{
    if (v == NULL) return 0;
    for (int i = 0; i < n; i++) {
        if (v[i] != 0.0) return 1;
    }
    return 0;
}

imp_lcp_status imp_lcp_solve(const imp_lcp_problem *p, const imp_lcp_options *opts,
                             imp_lcp_workspace *ws, double *f, double *a, signed char *state,
                             imp_lcp_info *info)
{
    imp_lcp_options def;
    if (opts == NULL) {
        imp_lcp_default_options(&def);
        opts = &def;
    }
    memset(info, 0, sizeof *info);
    const char *bad = check_input(p);
    if (bad == NULL && p->n > 0 && (f == NULL || a == NULL)) bad = "f or a is NULL";
    if (bad != NULL) {
        info->status = IMP_LCP_BAD_INPUT;
        info->message = bad;
        return info->status;
    }
    int n = p->n;
    imp_lcp_limits lim;
    lim.max_pivots = opts->max_pivots > 0 ? opts->max_pivots : 50 * n + 1000;
    lim.tol = opts->tolerance > 0.0 ? opts->tolerance : 1e-9;
    lim.ptol = opts->pivot_tolerance > 0.0 ? opts->pivot_tolerance : 1e-11;
    lim.order = opts->order;
    lim.general_refactor = opts->general_refactor;
    lim.split_factor = 0;
    int fric = has_friction(p), bil = has_bilateral(p), asym = is_symmetric(p);
    int symm = !fric && asym;
    if (opts->method == IMP_LCP_SYMMETRIC && !symm) {
        info->status = IMP_LCP_BAD_INPUT;
        info->message = "the symmetric method needs a symmetric A and no friction rows";
        return info->status;
    }
    if (opts->method == IMP_LCP_LEMKE && (fric || bil)) {
        info->status = IMP_LCP_BAD_INPUT;
        info->message = "Lemke's method takes no friction rows and no bilateral rows";
        return info->status;
    }
    if (opts->method == IMP_LCP_BOX && (!fric || !asym)) {
        info->status = IMP_LCP_BAD_INPUT;
        info->message = "the box method needs friction rows and a symmetric A";
        return info->status;
    }
    imp_lcp_method m = opts->method;
    if (m != IMP_LCP_SYMMETRIC && m != IMP_LCP_GENERAL && m != IMP_LCP_LEMKE && m != IMP_LCP_BOX) {
        /* auto: Baraff's method for symmetric A (Lemke if it finds A is not PSD); friction
           with a symmetric A by box-bounded steps (the general method if they fail); Lemke
           for a nonsymmetric A without bilateral rows; the general method otherwise */
        m = symm ? IMP_LCP_SYMMETRIC : (fric && asym) ? IMP_LCP_BOX
            : (!fric && !bil) ? IMP_LCP_LEMKE : IMP_LCP_GENERAL;
    }
    int fallback = opts->method != m && !fric && !bil;
    /* info.method says which method produced the answer (under auto with friction: box
       when the box-bounded steps solved it or gave the better of two failed answers, else
       general) */
    info->method = m;
    if (n == 0) {
        info->status = IMP_LCP_OK;
        info->message = "empty problem";
        return IMP_LCP_OK;
    }
    imp_lcp_workspace *own = NULL;
    if (ws == NULL) {
        ws = own = imp_lcp_workspace_create(n);
    } else if (imp_lcp_workspace_reserve(ws, n) != 0) {
        ws = NULL;
    }
    if (ws == NULL) {
        info->status = IMP_LCP_NO_MEMORY;
        info->message = "out of memory for the workspace";
        return info->status;
    }
    const char *msg = "solved";
    memset(ws->bas, 0, (size_t)n);
    int reg = opts->method == IMP_LCP_AUTO && fric && asym;
    int split = opts->method == IMP_LCP_AUTO && fric
                && (n <= IMP_LCP_SPLIT_MAX || (asym && n <= IMP_LCP_SPLIT_REG_MAX));
    imp_lcp_status st;
    if (reg && n > IMP_LCP_REG_FIRST && any_nonzero(opts->warm_forces, n)) {
        /* the last step's forces: Newton's steps from them first */
        memset(ws->st, 0, (size_t)n);
        for (int i = 0; i < n; i++) f[i] = 0.0;
        st = newton_finish(p, &lim, opts->warm_forces, 0, IMP_LCP_NEWTON_WARM_STEPS, ws, f, a,
                           info, IMP_LCP_NUMERICAL, &msg);
        if (st == IMP_LCP_OK) goto verify;
        info->pivots = 0;
        msg = "solved";
    }
    if (reg && n > IMP_LCP_REG_FIRST && n <= IMP_LCP_SPLIT_REG_MAX && has_basis(opts, n)) {
        /* the last step's answer came from Lemke's path on the split problem: that basis
           first (a few pivots when the contacts did not change) */
        memset(ws->st, 0, (size_t)n);
        for (int i = 0; i < n; i++) f[i] = 0.0;
        st = split_settings(p, &lim, opts, 0, 1, ws, f, a, info, IMP_LCP_NUMERICAL, &msg);
        if (st == IMP_LCP_OK) {
            info->method = IMP_LCP_BOX;
            goto verify;
        }
        info->pivots = 0;
    }
    if (reg && n > IMP_LCP_REG_FIRST) {
        reg = 0; /* (tried once) */
        st = box_regularized(p, &lim, opts->warm_start, opts->warm_forces, ws, f, info, &msg);
        if (st != IMP_LCP_OK && st != IMP_LCP_NO_MEMORY
            && (opts->warm_start != NULL || opts->warm_forces != NULL)) {
            /* and cold: the warm start can lead the steps astray (the 55-box pyramid's
               failing solve of its 20-step symplectic Euler run: cold 3086 pivots, 0.26 s;
               from the last step's states and forces every later method failed, 47 s) */
            int pivots = info->pivots;
            info->pivots = 0; /* (the steps count on from it up to their cap) */
            st = box_regularized(p, &lim, NULL, NULL, ws, f, info, &msg);
            info->pivots += pivots;
        }
        if (st != IMP_LCP_OK && st != IMP_LCP_NO_MEMORY && n <= IMP_LCP_SPLIT_REG_MAX) {
            /* the proximal point loop from the last step's answer (short warm Lemke paths),
               then Lemke's method on the split problem, whose path ends where the box steps'
               iteration wanders (the other methods mostly fail on these problems) */
            split = 0;
            st = prox_after(p, &lim, opts, ws, f, a, info, st, &msg);
            if (st != IMP_LCP_OK) st = split_last_resort(p, &lim, opts, ws, f, a, info, st, &msg);
        }
        if (st == IMP_LCP_OK) {
            info->method = IMP_LCP_BOX;
            goto verify;
        }
    }
    st = run_method(m, p, &lim, opts->warm_start, ws, f, info, &msg);
    if (fallback && m == IMP_LCP_SYMMETRIC && st == IMP_LCP_OUTSIDE_CLASS) {
        /* A is symmetric but not PSD: Lemke's method does not need PSD */
        info->method = IMP_LCP_LEMKE;
        st = run_method(IMP_LCP_LEMKE, p, &lim, NULL, ws, f, info, &msg);
    } else if (opts->method != m && m == IMP_LCP_BOX &&
               (st != IMP_LCP_OK || !imp_lcp_check(p, f, a, lim.tol, info))) {
        /* no fixed point of the box-bounded steps: Baraff's friction states */
        const char *msg2 = msg;
        imp_lcp_info keep = *info;
        info->method = IMP_LCP_GENERAL;
        info->pivots = info->additions = info->removals = info->max_clamped = 0;
        /* from the box steps' last state pattern (their clamped set and rows at a bound),
           with a short cap: started there it finishes within a few pivots or, as a rule,
           not at all (cycling on redundant contacts), and the caller has a fallback */
        imp_lcp_limits lim2 = lim;
        if (lim2.max_pivots > 2 * n + 500) lim2.max_pivots = 2 * n + 500;
        /* the box steps' answer, kept in a (the output array, recomputed below) in case
           the general method does worse */
        imp_lcp_status box_st = st != IMP_LCP_OK ? st : IMP_LCP_NUMERICAL;
        for (int i = 0; i < n; i++) {
            if (!isfinite(f[i])) f[i] = 0.0;
        }
        imp_lcp_info box_info = keep;
        imp_lcp_check(p, f, ws->work, lim.tol, &box_info);
        double box_bad = badness(&box_info);
        memcpy(a, f, (size_t)n * sizeof(double));
        imp_lcp_status st2 = run_method(IMP_LCP_GENERAL, p, &lim2, ws->st, ws, f, info, &msg2);
        info->pivots += keep.pivots;
        info->additions += keep.additions;
        info->removals += keep.removals;
        if (keep.max_clamped > info->max_clamped) info->max_clamped = keep.max_clamped;
        st = st2;
        msg = st2 == IMP_LCP_OK ? "solved by the general method after the box-bounded steps failed"
                                : msg2;
        if (st2 != IMP_LCP_OK || !imp_lcp_check(p, f, ws->work, lim.tol, info)) {
            /* both failed: the better answer of the two is returned */
            for (int i = 0; i < n; i++) {
                if (!isfinite(f[i])) f[i] = 0.0;
            }
            imp_lcp_check(p, f, ws->work, lim.tol, info);
            if (box_bad < badness(info)) {
                memcpy(f, a, (size_t)n * sizeof(double));
                info->method = IMP_LCP_BOX;
                st = box_st;
                msg = "the box-bounded steps and the general method both failed; the box steps' "
                      "answer (the better one) is returned";
            }
        }
    } else if (fallback && m == IMP_LCP_LEMKE &&
               (st == IMP_LCP_OUTSIDE_CLASS || st == IMP_LCP_PIVOT_LIMIT)) {
        /* Lemke found no solution and no proof that none exists: Baraff's pivoting with a
           dense LU may still find one; if not, Lemke's reason is reported */
        const char *msg2 = msg;
        imp_lcp_status st2 = run_method(IMP_LCP_GENERAL, p, &lim, NULL, ws, f, info, &msg2);
        if (st2 == IMP_LCP_OK && imp_lcp_check(p, f, a, lim.tol, info)) {
            st = st2;
            msg = "solved by the general method after Lemke's method failed";
            info->method = IMP_LCP_GENERAL;
        }
    }
    if (opts->method == IMP_LCP_AUTO && fric && asym
        && (st != IMP_LCP_OK || !imp_lcp_check(p, f, a, lim.tol, info))) {
        /* friction the box steps and the general method did not solve: through the cone's
           edges (lcp_stick.c), taken when it solves the problem (every contact sticking or
           separating), else the answer before is kept */
        for (int i = 0; i < n; i++) {
            if (!isfinite(f[i])) f[i] = 0.0;
        }
        imp_lcp_info before = *info;
        memcpy(a, f, (size_t)n * sizeof(double));
        const char *msg3 = msg;
        imp_lcp_status st3 = imp_lcp_solve_stick(p, &lim, ws, f, info, &msg3);
        info->pivots += before.pivots;
        info->additions += before.additions;
        info->removals += before.removals;
        if (before.max_clamped > info->max_clamped) info->max_clamped = before.max_clamped;
        int finite = 1;
        for (int i = 0; finite && i < n; i++) finite = isfinite(f[i]);
        int solved = finite && st3 == IMP_LCP_OK && imp_lcp_check(p, f, ws->work, lim.tol, info);
        if (solved) {
            st = IMP_LCP_OK;
            msg = "solved through the friction cone's edges (every contact sticks or separates) "
                  "after the box-bounded steps and the general method failed";
            info->method = IMP_LCP_GENERAL;
        } else {
            memcpy(f, a, (size_t)n * sizeof(double));
            info->method = before.method;
        }
    }
    if (reg && (st != IMP_LCP_OK || !imp_lcp_check(p, f, a, lim.tol, info))) {
        st = regularized_after(p, &lim, opts, ws, f, a, info, st, &msg);
    }
    if (split
        && (st != IMP_LCP_OK || !imp_lcp_check(p, f, a, lim.tol, info))) {
        st = split_last_resort(p, &lim, opts, ws, f, a, info, st, &msg);
    }
    if (opts->method == IMP_LCP_AUTO && fric && asym && n > IMP_LCP_REG_FIRST
        && (st != IMP_LCP_OK || !imp_lcp_check(p, f, a, lim.tol, info))) {
        /* every method failed: the Newton finish from their last iterate */
        st = newton_finish(p, &lim, NULL, IMP_LCP_NEWTON_SWEEPS, IMP_LCP_NEWTON_STEPS, ws, f, a,
                           info, st, &msg);
    }
verify:
    for (int i = 0; i < n; i++) {
        if (!isfinite(f[i])) f[i] = 0.0; /* never leak NaN, even from a failed solve */
    }
    int pass = imp_lcp_check(p, f, a, lim.tol, info);
    if (st == IMP_LCP_OK && !pass) {
        st = IMP_LCP_NUMERICAL;
        msg = "the residuals are above the tolerance";
    }
    if (state != NULL) {
        memcpy(state, ws->st, (size_t)n);
    }
    if (opts->basis != NULL) {
        memcpy(opts->basis, ws->bas, (size_t)n);
    }
    info->status = st;
    info->message = msg;
    imp_lcp_workspace_destroy(own);
    return st;
}

double imp_lcp_force_scale(const imp_lcp_problem *p)
{
    double s = 0.0;
    for (int i = 0; i < p->n; i++) {
        double d = p->A[(size_t)i * (size_t)p->n + (size_t)i];
        if (d > 0.0) {
            s += fabs(p->b[i]) / d;
        }
    }
    return s;
}
