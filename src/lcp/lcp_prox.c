/* lcp_prox.c: a proximal point loop for the frictional LCP of lcp.h with redundant rows, for
   the problems on which Lemke's path on the split problem (lcp_split.c) runs long: the 55-box
   pyramid's 580-row problems, whose cold paths take 14 to 30 N pivots (N about 1160
   variables) or more. Each iteration solves the proximal problem
       LCP(A + rho D, b - rho D f_k)   (D = diag(A); the friction rows as in lcp.h)
   by Lemke's path on its split problem warm-started from the last iterate's basis (its row
   states and split basis bits: short paths, 3 to 400 pivots, after the first), and takes its
   answer as f_{k+1}; rho falls by IMP_PROX_FACTOR an iteration. A + rho D is positive
   definite, so the proximal problem's normal forces are unique where A's are not (the
   redundant rows), and each answer is near the last; as rho falls the iterates' residual on
   A itself, rho |D (f_{k+1} - f_k)| in a, falls with it (the split problem's mu block is
   not monotone, so there is no convergence theorem: with rho fixed the iterates drift
   along the redundant directions). An iterate is taken when it passes imp_lcp_check at
   1e-2 lim->tol on A itself; a sub-problem that fails keeps the iterate before. Cost per
   iteration: the split problem's O(N^2) setup, the start basis' O(N^3) inverse (about 0.5 s
   at N = 1160) and its pivots at O(N^2); at most IMP_PROX_ITERS iterations. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lcp_internal.h"

#define IMP_PROX_RHO0 1e-2
#define IMP_PROX_FACTOR 0.4
#define IMP_PROX_ITERS 40
/* An iterate is taken when it passes the residual test at this fraction of the caller's
   tolerance: at the tolerance itself the residual rho D (f_k - f_{k+1}), spread over the
   redundant rows, left a body of a 28-box pyramid accelerating at more than 1e-8 g (the
   driver's answer in test_lcp_newton, which statics rejects) */
#define IMP_PROX_TIGHTER 1e-2

/* ws->prox: A + rho D, b - rho D f_k, f_k (n^2 + 2 n doubles); ws->prox_b: the last
   iterate's row states and basis bits (2 n bytes). 0, or -1 out of memory. */
static int prox_reserve(imp_lcp_workspace *ws, int n)
{
    size_t need = (size_t)n * (size_t)n + 2 * (size_t)n;
    if (need > ws->prox_cap) {
        free(ws->prox);
        free(ws->prox_b);
        ws->prox = malloc(need * sizeof(double));
        ws->prox_b = malloc(2 * (size_t)n + 1);
        ws->prox_cap = ws->prox != NULL && ws->prox_b != NULL ? need : 0;
        if (ws->prox_cap == 0) return -1;
    }
    return 0;
}

imp_lcp_status imp_lcp_solve_prox(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                  const signed char *warm, const double *warm_f,
                                  imp_lcp_workspace *ws, double *f, imp_lcp_info *info,
                                  const char **msg)
{
    int n = p->n;
    if (prox_reserve(ws, n) != 0) {
        *msg = "out of memory for the proximal point loop";
        return IMP_LCP_NO_MEMORY;
    }
    double *Ar = ws->prox, *br = Ar + (size_t)n * n, *fk = br + n;
    signed char *sk = (signed char *)ws->prox_b;
    unsigned char *bk = ws->prox_b + n;
    int have_states = warm != NULL, have_basis = 0;
    for (int i = 0; i < n; i++) {
        double v = warm_f != NULL ? warm_f[i] : 0.0;
        fk[i] = isfinite(v) ? v : 0.0;
        sk[i] = warm != NULL ? warm[i] : IMP_LCP_STATE_FREE;
        bk[i] = 0;
    }
    imp_lcp_problem q = *p;
    q.A = Ar;
    q.b = br;
    imp_lcp_limits ls = *lim;
    double rho = IMP_PROX_RHO0;
    int pivots = 0;
    imp_lcp_status result = IMP_LCP_NUMERICAL;
    *msg = "the proximal point loop did not reach the tolerance";
    for (int it = 0; it < IMP_PROX_ITERS; it++, rho *= IMP_PROX_FACTOR) {
        memcpy(Ar, p->A, sizeof(double) * (size_t)n * (size_t)n);
        for (int i = 0; i < n; i++) {
            double d = p->A[(size_t)i * n + i];
            Ar[(size_t)i * n + i] += rho * d;
            br[i] = p->b[i] - rho * d * fk[i];
        }
        /* (a cold first path as the driver's cold setting; warm ones short) */
        ls.split_factor = have_states ? IMP_LCP_WARM_FACTOR : IMP_LCP_SPLIT_FACTOR;
        imp_lcp_info li;
        memset(&li, 0, sizeof li);
        const char *m2 = *msg;
        imp_lcp_status st = imp_lcp_solve_split(&q, &ls, 1e-10, 1, have_states ? sk : NULL, fk,
                                                have_basis ? bk : NULL, ws, f, &li, &m2);
        pivots += li.pivots;
        if (st == IMP_LCP_NO_MEMORY) {
            *msg = m2;
            result = st;
            break;
        }
        int finite = st == IMP_LCP_OK;
        for (int i = 0; finite && i < n; i++) finite = isfinite(f[i]);
        if (finite) {
            memcpy(fk, f, sizeof(double) * (size_t)n);
            memcpy(sk, ws->st, (size_t)n);
            memcpy(bk, ws->bas, (size_t)n);
            have_states = 1;
            have_basis = 1;
        }
        if (imp_lcp_check(p, fk, ws->work, IMP_PROX_TIGHTER * lim->tol, info)) {
            result = IMP_LCP_OK;
            *msg = "solved by a proximal point loop (Lemke's method on the split problems of "
                   "A + rho diag(A), rho falling)";
            break;
        }
    }
    memcpy(f, fk, sizeof(double) * (size_t)n);
    memcpy(ws->st, sk, (size_t)n);
    /* (the last basis is the proximal problem's, not A's: not handed on) */
    memset(ws->bas, 0, (size_t)n);
    info->pivots += pivots;
    return result;
}
