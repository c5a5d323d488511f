/* lcp_coulomb.c: the driver of the 3D Coulomb contact solver (impact/coulomb.h): input checks,
   workspace, scaling, and the alternation of semismooth Newton (lcp_coulomb_newton.c) and
   nonsmooth Gauss-Seidel (lcp_coulomb_local.c) phases, keeping the best iterate.

   Newton phase: at r, Phi and a generalized Jacobian; the step dr; a non-monotone Armijo
   line search (Grippo, Lampariello & Lucidi 1986) on theta = 1/2 |Phi|^2 against the largest
   of the last 5 values, steps halved down to 2^-20. The Jacobian is regularized by
   delta = min(1, lam * error) (lcp_coulomb_newton.c), lam adapted as in Levenberg-Marquardt:
   divided by 4 (down to 1) after a full step, multiplied by 4 after a step cut below 0.1, by
   16 when the line search fails (the step is then computed again). This is what solves the
   rank-deficient problems (redundant contacts of stacked boxes, where the plain Newton step
   is dominated by the null space of W) and the 1000:1 stacks. The phase ends on
   convergence, on a failed line search with delta already at 1, or when theta has not
   fallen by 4 in 15 iterations.
   After a stall: back to the best iterate with the next rho (times 10, 0.1, 100, 0.01, 1, ...:
   the merit's valleys move with rho; RockPile_tob1 converges after one such switch), and
   Gauss-Seidel sweeps (10, 20, 40, ... per fallback) until the error stops decreasing or
   reaches the tolerance; Newton goes on from their answer when it is better.
   Iterates beyond 1e6 times the load scale are a drift to infinity (never kept).
   Rho: per contact from the diagonal block, rho_N = 1 / W_NN, rho_T = 2 / (W_T1T1 + W_T2T2)
   (Siconos' NSN_AC uses the same kind of block-diagonal choice); bilateral rows 1 / W_kk.
   With W's factors J Minv J^T (p->factors), each Newton direction is computed in dof space
   when the active rows touch fewer dofs than there are rows (lcp_coulomb_body.c); the rest
   (line search, error, sweeps) uses W as without them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef COULOMB_TRACE
#include <stdio.h>
#define TRACE(...) fprintf(stderr, __VA_ARGS__)
#else
#define TRACE(...) ((void)0)
#endif

#include "lcp_coulomb_internal.h"

void imp_coulomb_default_options(imp_coulomb_options *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->method = IMP_COULOMB_AUTO;
    opts->tolerance = 1e-10;
    opts->max_iterations = 200;
    opts->max_sweeps = 2000;
}

const char *imp_coulomb_status_name(imp_coulomb_status s)
{
    switch (s) {
    case IMP_COULOMB_OK: return "ok";
    case IMP_COULOMB_MAX_ITER: return "max_iterations";
    case IMP_COULOMB_TIME_LIMIT: return "time_limit";
    case IMP_COULOMB_BAD_INPUT: return "bad_input";
    case IMP_COULOMB_NO_MEMORY: return "no_memory";
    }
    return "unknown";
}

imp_coulomb_workspace *imp_coulomb_workspace_create(int n)
{
    imp_coulomb_workspace *ws = calloc(1, sizeof *ws);
    if (ws == NULL) return NULL;
    if (imp_coulomb_workspace_reserve(ws, n > 0 ? n : 1) != 0) {
        imp_coulomb_workspace_destroy(ws);
        return NULL;
    }
    return ws;
}

#define FREE(x) (free(x), (x) = NULL)
static void free_vectors(imp_coulomb_workspace *ws)
{
    FREE(ws->crow);
    FREE(ws->brow);
    FREE(ws->pos);
    FREE(ws->lrow);
    FREE(ws->ext);
    FREE(ws->node_of);
    FREE(ws->order);
    FREE(ws->qbuf);
    FREE(ws->deg);
    FREE(ws->kind);
    FREE(ws->rho);
    FREE(ws->wdiag);
    FREE(ws->ja);
    FREE(ws->jb);
    FREE(ws->phi);
    FREE(ws->dr);
    FREE(ws->rt);
    FREE(ws->ut);
    FREE(ws->rbest);
    FREE(ws->ubest);
    FREE(ws->rhs);
    FREE(ws->dwi);
    FREE(ws->gb);
}

void imp_coulomb_workspace_destroy(imp_coulomb_workspace *ws)
{
    if (ws == NULL) return;
    free_vectors(ws);
    imp_coulomb_body_free(ws);
    free(ws->H);
    free(ws);
}

imp_status imp_coulomb_workspace_reserve(imp_coulomb_workspace *ws, int n)
{
    if (n <= ws->cap) return IMP_OK;
    free_vectors(ws);
    size_t N = (size_t)n;
    ws->crow = malloc(N * sizeof(int));
    ws->brow = malloc(N * sizeof(int));
    ws->pos = malloc(N * sizeof(int));
    ws->lrow = malloc(N * sizeof(int));
    ws->ext = malloc(N * sizeof(int));
    ws->node_of = malloc(N * sizeof(int));
    ws->order = malloc(N * sizeof(int));
    ws->qbuf = malloc(N * sizeof(int));
    ws->deg = malloc(N * sizeof(int));
    ws->kind = malloc(N);
    ws->rho = malloc(N * sizeof(double));
    ws->wdiag = malloc(9 * N * sizeof(double) + sizeof(double));
    ws->ja = malloc(3 * N * sizeof(double) + sizeof(double));
    ws->jb = malloc(3 * N * sizeof(double) + sizeof(double));
    ws->phi = malloc(N * sizeof(double));
    ws->dr = malloc(N * sizeof(double));
    ws->rt = malloc(N * sizeof(double));
    ws->ut = malloc(N * sizeof(double));
    ws->rbest = malloc(N * sizeof(double));
    ws->ubest = malloc(N * sizeof(double));
    ws->rhs = malloc(N * sizeof(double));
    ws->dwi = malloc(3 * N * sizeof(double) + sizeof(double));
    ws->gb = malloc(3 * N * sizeof(double) + sizeof(double));
    if (!ws->dwi || !ws->gb ||
        !ws->crow || !ws->brow || !ws->pos || !ws->lrow || !ws->ext || !ws->node_of || !ws->order || !ws->qbuf || !ws->deg || !ws->kind || !ws->rho || !ws->wdiag || !ws->ja ||
        !ws->jb || !ws->phi || !ws->dr || !ws->rt || !ws->ut || !ws->rbest || !ws->ubest || !ws->rhs) {
        free_vectors(ws);
        ws->cap = 0;
        return IMP_ERR_NOMEM;
    }
    ws->cap = n;
    return IMP_OK;
}

static int grow_h(imp_coulomb_workspace *ws, int m)
{
    size_t need = (size_t)m * (size_t)m;
    if (need <= ws->hcap) return 0;
    double *h = realloc(ws->H, need * sizeof(double));
    if (h == NULL) return -1;
    ws->H = h;
    ws->hcap = need;
    return 0;
}

double imp_coulomb_error(const imp_coulomb_problem *p, const double *r, double *u)
{
    const imp_coulomb_csr *W = &p->W;
    int n = W->n;
    imp_coulomb_matvec(W, p->q, r, u);
    double e2 = 0.0, nq = 0.0, nr = 0.0, nu = 0.0;
    int c = 0;
    for (int i = 0; i < n; i++) {
        nq += p->q[i] * p->q[i];
        nr += r[i] * r[i];
        nu += u[i] * u[i];
    }
    int rows[3], k = 0;
    for (int i = 0; i < n; i++) {
        if (p->bilateral != NULL && p->bilateral[i]) {
            e2 += u[i] * u[i];
            continue;
        }
        rows[k++] = i;
        if (k < 3) continue;
        double rc[3] = {r[rows[0]], r[rows[1]], r[rows[2]]}, uc[3] = {u[rows[0]], u[rows[1]], u[rows[2]]};
        e2 += imp_coulomb_local_error2(rc, uc, p->mu[c++]);
        k = 0;
    }
    double s = fmax(sqrt(nq), fmax(sqrt(nr), sqrt(nu)));
    double e = sqrt(e2);
    return s > 2.220446049250313e-16 ? e / s : e;
}

/* the error with the workspace's contact list (no row search); infinite when max|r|
   exceeds r_cap (see imp_coulomb_solve: an iterate drifting to infinity along the null
   space of W has a relative error that falls for no good reason) */
static double error_ws(const imp_coulomb_problem *p, const imp_coulomb_workspace *ws, const double *r,
                       double *u, double r_cap)
{
    int n = p->W.n;
    imp_coulomb_matvec(&p->W, p->q, r, u);
    double e2 = 0.0, nq = 0.0, nr = 0.0, nu = 0.0;
    for (int i = 0; i < n; i++) {
        if (!(fabs(r[i]) <= r_cap)) return INFINITY;
    }
    for (int i = 0; i < n; i++) {
        nq += p->q[i] * p->q[i];
        nr += r[i] * r[i];
        nu += u[i] * u[i];
    }
    for (int c = 0; c < ws->nc; c++) {
        const int *rows = ws->crow + 3 * c;
        double rc[3] = {r[rows[0]], r[rows[1]], r[rows[2]]}, uc[3] = {u[rows[0]], u[rows[1]], u[rows[2]]};
        e2 += imp_coulomb_local_error2(rc, uc, p->mu[c]);
    }
    for (int b = 0; b < ws->nb; b++) e2 += u[ws->brow[b]] * u[ws->brow[b]];
    double s = fmax(sqrt(nq), fmax(sqrt(nr), sqrt(nu)));
    double e = sqrt(e2);
    return s > 2.220446049250313e-16 ? e / s : e;
}

/* a compressed-row matrix with cols columns: 0, or what is wrong (1 .. 3) */
static int check_csr(const imp_coulomb_csr *A, int cols)
{
    if (A->n > 0 && (A->row_ptr == NULL || A->row_ptr[0] != 0 || A->col == NULL || A->val == NULL)) return 1;
    for (int i = 0; i < A->n; i++) {
        if (A->row_ptr[i + 1] < A->row_ptr[i]) return 1;
        for (int k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            if (A->col[k] < 0 || A->col[k] >= cols) return 2;
            if (!isfinite(A->val[k])) return 3;
        }
    }
    return 0;
}

/* W's factors: sizes and entries (not W == J Minv J^T, which the caller guarantees) */
static const char *check_factors(const imp_coulomb_problem *p)
{
    static const char *msg[2][4] = {
        {NULL, "factors.J: row_ptr, col and val are required, row_ptr[0] = 0 and nondecreasing",
         "factors.J has a column index out of range (0 .. ndof-1)", "factors.J has a NaN or infinite entry"},
        {NULL, "factors.Minv: row_ptr, col and val are required, row_ptr[0] = 0 and nondecreasing",
         "factors.Minv has a column index out of range (0 .. ndof-1)", "factors.Minv has a NaN or infinite entry"}};
    const imp_coulomb_factors *f = p->factors;
    if (f == NULL) return NULL;
    if (f->ndof < 0) return "factors.ndof must be >= 0";
    if (f->J.n != p->W.n) return "factors.J.n must equal W.n (one row of J per row of W)";
    if (f->Minv.n != f->ndof) return "factors.Minv.n must equal factors.ndof";
    int k = check_csr(&f->J, f->ndof);
    if (k != 0) return msg[0][k];
    k = check_csr(&f->Minv, f->ndof);
    return k != 0 ? msg[1][k] : NULL;
}

static const char *check_input(const imp_coulomb_problem *p, int *nc_out)
{
    const imp_coulomb_csr *W = &p->W;
    int n = W->n;
    if (n < 0) return "n must be >= 0";
    if (n == 0) {
        *nc_out = 0;
        return NULL;
    }
    if (W->row_ptr == NULL || p->q == NULL) return "W and q are required";
    if (W->row_ptr[0] != 0) return "W.row_ptr[0] must be 0";
    for (int i = 0; i < n; i++) {
        if (W->row_ptr[i + 1] < W->row_ptr[i]) return "W.row_ptr must not decrease";
        for (int k = W->row_ptr[i]; k < W->row_ptr[i + 1]; k++) {
            if (W->col[k] < 0 || W->col[k] >= n) return "W has a column index out of range";
            if (!isfinite(W->val[k])) return "W has a NaN or infinite entry";
        }
        if (!isfinite(p->q[i])) return "q has a NaN or infinite entry";
    }
    int nn = 0;
    for (int i = 0; i < n; i++) nn += (p->bilateral == NULL || !p->bilateral[i]);
    if (nn % 3 != 0) return "the contact (non-bilateral) rows must come three per contact";
    if (nn > 0 && p->mu == NULL) return "mu is required";
    for (int c = 0; c < nn / 3; c++) {
        if (!(p->mu[c] >= 0.0) || !isfinite(p->mu[c])) return "mu must be finite and >= 0";
    }
    *nc_out = nn / 3;
    return check_factors(p);
}

static double now(void)
{
    return (double)clock() / (double)CLOCKS_PER_SEC;
}

static void classify(const imp_coulomb_problem *p, imp_coulomb_workspace *ws, const double *r, const double *u,
                     imp_coulomb_info *info)
{
    info->open = info->sticking = info->sliding = 0;
    for (int c = 0; c < ws->nc; c++) {
        const int *rows = ws->crow + 3 * c;
        double rc[3] = {r[rows[0]], r[rows[1]], r[rows[2]]}, uc[3] = {u[rows[0]], u[rows[1]], u[rows[2]]};
        double phi[3];
        int k = imp_coulomb_ac(rc, uc, p->mu[c], ws->rho[rows[0]], ws->rho[rows[1]], phi, NULL, NULL);
        if (k == 0) info->open++;
        else if (k == 1) info->sticking++;
        else info->sliding++;
    }
}

/* contacts, bilateral rows, diagonal blocks, scaling, order */
static void setup(const imp_coulomb_problem *p, imp_coulomb_workspace *ws, int nc)
{
    int n = p->W.n;
    ws->nb = 0;
    {
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (p->bilateral != NULL && p->bilateral[i]) ws->brow[ws->nb++] = i;
            else ws->crow[k++] = i;
        }
        ws->nc = nc;
    }
    for (int c = 0; c < nc; c++) {
        const int *rows = ws->crow + 3 * c;
        double *D = ws->wdiag + 9 * c;
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 3; b++) D[3 * a + b] = imp_coulomb_entry(&p->W, rows[a], rows[b]);
        }
        double rn = D[0] > 0.0 ? 1.0 / D[0] : 1.0;
        double tt = D[4] + D[8];
        double rt = tt > 0.0 ? 2.0 / tt : rn;
        ws->rho[rows[0]] = rn;
        ws->rho[rows[1]] = ws->rho[rows[2]] = rt;
    }
    for (int b = 0; b < ws->nb; b++) {
        int k = ws->brow[b];
        double d = imp_coulomb_entry(&p->W, k, k);
        ws->wdiag[9 * nc + b] = d;
        ws->rho[k] = d > 0.0 ? 1.0 / d : 1.0;
    }
    imp_coulomb_order(p, ws);
}

typedef struct run {
    const imp_coulomb_problem *p;
    imp_coulomb_workspace *ws;
    double *r, *u;
    double err, best_err, tol;
    int it_left, sw_left;
    double t_end;
    int timed_out;
    int used_newton, used_nsgs;
    double reg_max, reg_mul, lam, r_cap;
    int stall;
    int rho_k;
    imp_coulomb_info *info;
} run;

static void note(run *R, int by_nsgs)
{
    int n = R->p->W.n;
    if (R->err < R->best_err) {
        R->best_err = R->err;
        memcpy(R->ws->rbest, R->r, (size_t)n * sizeof(double));
        memcpy(R->ws->ubest, R->u, (size_t)n * sizeof(double));
        if (by_nsgs) R->used_nsgs = 1;
        else R->used_newton = 1;
    }
}

static int out_of_time(run *R)
{
    if (R->t_end > 0.0 && now() > R->t_end) R->timed_out = 1;
    return R->timed_out;
}

/* back to the best iterate, with the next scaling rho (times 10, 0.1, 100, 0.01, 1, ...
   of the diagonal choice: the Alart-Curnier merit's valleys move with rho, and a stalled
   Newton often goes through with another one) and the regularization reset */
static void restart(run *R)
{
    static const double mult[] = {1.0, 10.0, 0.1, 100.0, 0.01};
    int n = R->p->W.n;
    memcpy(R->r, R->ws->rbest, (size_t)n * sizeof(double));
    memcpy(R->u, R->ws->ubest, (size_t)n * sizeof(double));
    R->err = R->best_err;
    R->lam = R->reg_mul;
    int next = (R->rho_k + 1) % 5;
    double f = mult[next] / mult[R->rho_k];
    for (int i = 0; i < n; i++) R->ws->rho[i] *= f;
    R->rho_k = next;
}

/* returns 1 when converged, 0 when stalled, -1 on no memory */
static int newton_phase(run *R)
{
    const imp_coulomb_problem *p = R->p;
    imp_coulomb_workspace *ws = R->ws;
    int n = p->W.n;
    double hist[5];
    int nh = 0;
    double phase_best = INFINITY;
    int since = 0;
    while (R->it_left > 0 && !out_of_time(R)) {
        if (R->err <= R->tol) return 1;
        double theta = imp_coulomb_phi(p, ws, R->r, R->u, ws->phi, 1);
        hist[nh % 5] = theta;
        nh++;
        int m = 0;
        for (int c = 0; c < ws->nc; c++) m += ws->kind[c] != 0 ? 3 : 0;
        m += ws->nb;
        if (m > IMP_COULOMB_NEWTON_MAX_ROWS) {
            /* the dense storage of the Newton matrix would be too large: sweeps only */
            R->it_left = 0;
            return 0;
        }
        /* room for every row at once (up to the limit): a later solve of the same size
           never allocates, whatever its active set */
        int nmax = n < IMP_COULOMB_NEWTON_MAX_ROWS ? n : IMP_COULOMB_NEWTON_MAX_ROWS;
        if (grow_h(ws, nmax) != 0) return -1;
        if (p->factors != NULL && imp_coulomb_body_reserve(ws, p->factors->ndof) != 0) {
            return -1;
        }
        R->it_left--;
        R->info->iterations++;
        double delta = fmin(R->reg_max, R->lam * R->err);
        if (imp_coulomb_newton_direction(p, ws, delta) != 0) return 0;
        double ref = hist[0];
        for (int k = 1; k < (nh < 5 ? nh : 5); k++) ref = fmax(ref, hist[k]);
        double t = 1.0;
        int ok = 0;
        for (int ls = 0; ls <= 20; ls++) {
            for (int i = 0; i < n; i++) ws->rt[i] = R->r[i] + t * ws->dr[i];
            imp_coulomb_matvec(&p->W, p->q, ws->rt, ws->ut);
            double th = imp_coulomb_phi(p, ws, ws->rt, ws->ut, ws->rhs, 0);
            if (isfinite(th) && th <= ref - 2e-4 * t * theta) {
                ok = 1;
                break;
            }
            t *= 0.5;
        }
        if (!ok) {
            TRACE("newton it %d: line search failed (m %d, theta %g, lam %g)\n", R->info->iterations, m, theta, R->lam);
            if (R->lam * R->err < R->reg_max) {
                R->lam *= 16.0;
                continue;
            }
            return 0;
        }
        memcpy(R->r, ws->rt, (size_t)n * sizeof(double));
        R->err = error_ws(p, ws, R->r, R->u, R->r_cap);
        if (t == 1.0) R->lam = fmax(0.25 * R->lam, R->reg_mul);
        else if (t < 0.1) R->lam = fmin(4.0 * R->lam, 1e6);
        TRACE("newton it %d: m %d theta %.3e t %g err %.3e\n", R->info->iterations, m, theta, t, R->err);
        note(R, 0);
        if (R->err <= R->tol) return 1;
        /* progress is judged on the merit (absolute), not on the relative error, which also
           falls when r drifts to infinity along the null space of W */
        if (theta < 0.25 * phase_best) {
            phase_best = theta;
            since = 0;
        } else if (++since >= R->stall) {
            return 0;
        }
    }
    return R->err <= R->tol;
}

/* returns 1 when converged */
static int nsgs_phase(run *R, int sweeps, int until_cap)
{
    const imp_coulomb_problem *p = R->p;
    imp_coulomb_workspace *ws = R->ws;
    double phase_start = R->err;
    int done = 0;
    while (R->sw_left > 0 && !out_of_time(R)) {
        if (R->err <= R->tol) return 1;
        imp_coulomb_sweep(p, ws, R->r);
        R->sw_left--;
        R->info->sweeps++;
        done++;
        R->err = error_ws(p, ws, R->r, R->u, R->r_cap);
        note(R, 1);
        if (R->err <= R->tol) return 1;
        if (!until_cap && done >= sweeps && R->err < phase_start) break;
        if (done % 10 == 0) TRACE("nsgs sweep %d err %.3e\n", R->info->sweeps, R->err);
        if (!until_cap && done >= 4 * sweeps) break;
    }
    return R->err <= R->tol;
}

imp_coulomb_status imp_coulomb_solve(const imp_coulomb_problem *p, const imp_coulomb_options *opts,
                                     imp_coulomb_workspace *ws, double *r, double *u,
                                     imp_coulomb_info *info)
{
    imp_coulomb_options o;
    if (opts == NULL) imp_coulomb_default_options(&o);
    else o = *opts;
    memset(info, 0, sizeof *info);
    info->method = "none";
    int nc = 0;
    const char *bad = p == NULL ? "no problem" : check_input(p, &nc);
    if (bad == NULL && (r == NULL || u == NULL)) bad = "r and u are required";
    if (bad != NULL) {
        info->status = IMP_COULOMB_BAD_INPUT;
        info->message = bad;
        return info->status;
    }
    int n = p->W.n;
    info->contacts = nc;
    if (o.warm_start != NULL) {
        for (int i = 0; i < n; i++) {
            if (!isfinite(o.warm_start[i])) {
                info->status = IMP_COULOMB_BAD_INPUT;
                info->message = "warm_start has a NaN or infinite entry";
                return info->status;
            }
        }
    }
    if (!(o.tolerance > 0.0)) o.tolerance = 1e-10;
    if (o.max_iterations <= 0) o.max_iterations = 200;
    if (o.max_sweeps <= 0) o.max_sweeps = o.method == IMP_COULOMB_NSGS ? 100000 : 2000;
    imp_coulomb_workspace *own = NULL;
    if (ws == NULL) {
        ws = own = imp_coulomb_workspace_create(n);
        if (ws == NULL) goto nomem;
    } else if (imp_coulomb_workspace_reserve(ws, n) != 0) {
        goto nomem;
    }
    setup(p, ws, nc);
    ws->body_steps = ws->rows_steps = 0;
    for (int i = 0; i < n; i++) r[i] = o.warm_start != NULL ? o.warm_start[i] : 0.0;
    run R = {0};
    R.p = p;
    R.ws = ws;
    R.r = r;
    R.u = u;
    R.tol = o.tolerance;
    R.it_left = o.max_iterations;
    R.sw_left = o.max_sweeps;
    R.t_end = o.max_time > 0.0 ? now() + o.max_time : 0.0;
    R.info = info;
    R.reg_max = 1.0;
    R.reg_mul = 1.0;
    R.stall = 15;
    R.lam = R.reg_mul;
    /* the load scale sum |q_i| / W_ii; answers beyond 1e6 times it are taken as a drift to
       infinity (never kept, never converged; the 1000:1 stack of the specs needs 51 times,
       Siconos' problems at most 1) */
    double fs = 0.0;
    for (int c = 0; c < nc; c++) {
        for (int a = 0; a < 3; a++) {
            double d = ws->wdiag[9 * c + 4 * a];
            if (d > 0.0) fs += fabs(p->q[ws->crow[3 * c + a]]) / d;
        }
    }
    for (int b = 0; b < ws->nb; b++) {
        double d = ws->wdiag[9 * nc + b];
        if (d > 0.0) fs += fabs(p->q[ws->brow[b]]) / d;
    }
    R.r_cap = fs > 0.0 && isfinite(fs) ? 1e6 * fs : INFINITY;
    if (o.warm_start != NULL) {
        for (int i = 0; i < n; i++) R.r_cap = fmax(R.r_cap, 10.0 * fabs(r[i]));
    }
    R.err = error_ws(p, ws, r, u, R.r_cap);
    R.best_err = INFINITY;
    note(&R, 0);
    memcpy(ws->rbest, r, (size_t)n * sizeof(double));
    memcpy(ws->ubest, u, (size_t)n * sizeof(double));
    R.used_newton = 0;
    int conv = R.err <= R.tol;
    if (!conv && o.method == IMP_COULOMB_NSGS) {
        (void)nsgs_phase(&R, 0, 1);
    } else if (!conv && o.method == IMP_COULOMB_NEWTON) {
        while (!conv && R.it_left > 0 && !R.timed_out) {
            int k = newton_phase(&R);
            if (k < 0) goto nomem;
            conv = k;
            if (!conv) restart(&R);
        }
    } else if (!conv) {
        int sweeps = 10;
        while (!conv && (R.it_left > 0 || R.sw_left > 0) && !R.timed_out) {
            int k = R.it_left > 0 ? newton_phase(&R) : 0;
            if (k < 0) goto nomem;
            if (k > 0) break;
            if (R.sw_left <= 0) {
                restart(&R);
                continue;
            }
            info->fallbacks++;
            /* the sweeps start from the best iterate; Newton goes on from their answer when
               it is better, else from the best iterate with the next rho */
            double before = R.best_err;
            restart(&R);
            conv = nsgs_phase(&R, sweeps, R.it_left <= 0);
            sweeps = sweeps < 1000 ? 2 * sweeps : sweeps;
            if (!conv && !(R.best_err < before)) restart(&R);
        }
    }
    /* the best iterate */
    memcpy(r, ws->rbest, (size_t)n * sizeof(double));
    info->error = error_ws(p, ws, r, u, INFINITY);
#ifdef COULOMB_TRACE
    {
        double mr = 0.0;
        for (int i = 0; i < n; i++) mr = fmax(mr, fabs(r[i]));
        fprintf(stderr, "max|r| / load scale = %g\n", mr / (R.r_cap / 1e6));
    }
#endif
    classify(p, ws, r, u, info);
    info->method = R.used_newton && R.used_nsgs ? "newton+nsgs"
                   : R.used_nsgs                ? "nsgs"
                   : R.used_newton              ? "newton"
                                                : "start";
    if (info->error <= R.tol) {
        info->status = IMP_COULOMB_OK;
        info->message = "converged";
    } else if (R.timed_out) {
        info->status = IMP_COULOMB_TIME_LIMIT;
        info->message = "time limit reached; the best answer found is returned";
    } else {
        info->status = IMP_COULOMB_MAX_ITER;
        info->message = "iteration limits reached; the best answer found is returned";
    }
    imp_coulomb_workspace_destroy(own);
    return info->status;
nomem:
    imp_coulomb_workspace_destroy(own);
    info->status = IMP_COULOMB_NO_MEMORY;
    info->message = "out of memory";
    return info->status;
}

int imp_coulomb_test_direction(const imp_coulomb_problem *p, const double *r, double delta, int path,
                               double *dr)
{
    int nc = 0;
    if (p == NULL || check_input(p, &nc) != NULL || p->W.n == 0) return -1;
    int n = p->W.n, nd = p->factors != NULL ? p->factors->ndof : 0;
    imp_coulomb_workspace *ws = imp_coulomb_workspace_create(n);
    if (ws == NULL) return -1;
    int ret = -1;
    double *u = malloc((size_t)n * sizeof(double));
    if (u == NULL || grow_h(ws, n > nd ? n : nd) != 0 || imp_coulomb_body_reserve(ws, nd) != 0) goto done;
    setup(p, ws, nc);
    imp_coulomb_matvec(&p->W, p->q, r, u);
    (void)imp_coulomb_phi(p, ws, r, u, ws->phi, 1);
    ws->path = path;
    if (imp_coulomb_newton_direction(p, ws, delta) != 0) goto done;
    memcpy(dr, ws->dr, (size_t)n * sizeof(double));
    ret = ws->body_steps > 0;
done:
    free(u);
    imp_coulomb_workspace_destroy(ws);
    return ret;
}
