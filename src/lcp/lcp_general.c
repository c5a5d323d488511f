/* lcp_general.c: the general pivoting method: Baraff's drive-to-zero with Coulomb friction
   (D. Baraff, "Fast Contact Force Computation for Nonpenetrating Rigid Bodies", SIGGRAPH
   1994, sections 5-7) and for nonsymmetric matrices.

   Row kinds: unilateral (normal), bilateral, static friction (bounded by mu times the
   force of its normal row), sliding friction (dynamic: f_t = -sigma mu f_n along the known
   slip direction sigma; it is not an unknown: its effect is folded into the normal's column,
   Baraff section 5, which makes the system nonsymmetric).

   States of a static friction row (Baraff section 6): clamped (a = 0, |f| < mu f_n), at the
   upper bound (f = mu f_n tracking its normal, a <= 0), at the lower bound (f = -mu f_n,
   a >= 0). A row at a bound is a dependent variable: Delta f_t = +-mu Delta f_n, which
   couples it to the normal's column. With a zero normal force the friction force is zero
   and its a is free (state FREE); when the normal joins the clamped set the friction row is
   processed again.

   maxstep gets the extra limits of section 6: a clamped friction row reaching a bound
   moves to that bound; a row at a bound whose a reaches zero becomes clamped.

   The clamped system (its matrix changes with both the clamped set and the bound states) is
   solved with an inverse kept up to date by O(m^2) updates per set or state change (see
   lcp_general_inverse.c): O(n^2) per step, O(n^3) per solve. The reference path
   (limits.general_refactor) rebuilds and LU-factors it at every step instead: O(m^3) per
   step, O(n^4) per solve. There is no termination guarantee with friction (deciding whether
   consistent static friction forces exist is NP-hard, Baraff 1991), so the pivot cap ends
   the search and the status says so. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lcp_general_internal.h"

static int g_frozen_skip(const gen *g, int j) { return g->frozen[j] == g->drive_id; }

static void c_add(gen *g, int j)
{
    g->pos[j] = g->m;
    g->cl[g->m++] = j;
    g->st[j] = IMP_LCP_STATE_CLAMPED;
    g->info->additions++;
    if (g->m > g->info->max_clamped) g->info->max_clamped = g->m;
}

static void c_del(gen *g, int j)
{
    int k = g->pos[j];
    for (int q = k; q + 1 < g->m; q++) {
        g->cl[q] = g->cl[q + 1];
        g->pos[g->cl[q]] = q;
    }
    g->m--;
    g->pos[j] = -1;
    g->info->removals++;
}

/* Direction for driving d with Delta f_d = sigma: Delta f on C keeps a_C fixed, dependents
   follow their normals; then Delta a = A Delta f on every row. Returns -1 when the clamped
   system is singular. */
static int direction_once(gen *g, int d, double sigma, int fresh)
{
    int m = g->m, n = g->n;
    for (int r = 0; r < m; r++) g->rhs[r] = -sigma * A_(g, g->cl[r], d);
    for (int t = 0; t < n; t++) {
        if (!is_dep(g, t) || normal_of(g, t) != d) continue;
        double c = coef(g, t);
        for (int r = 0; r < m; r++) g->rhs[r] -= sigma * c * A_(g, g->cl[r], t);
    }
    if (g->incremental) {
        if (m > 0) {
            if (fresh ? imp_lcp_gen_fresh_inverse(g) != 0 : imp_lcp_gen_sync_inverse(g) != 0) return -1;
            imp_lcp_gen_inv_apply(g);
        }
    } else {
        /* the reference path: the effective matrix built and LU-factored from scratch */
        for (int r = 0; r < m; r++) {
            int i = g->cl[r];
            for (int q = 0; q < m; q++) g->M[(size_t)r * m + q] = A_(g, i, g->cl[q]);
        }
        for (int t = 0; t < n; t++) {
            if (!is_dep(g, t)) continue;
            int nn = normal_of(g, t);
            if (nn != d && g->pos[nn] >= 0) {
                int q = g->pos[nn];
                double c = coef(g, t);
                for (int r = 0; r < m; r++) g->M[(size_t)r * m + q] += c * A_(g, g->cl[r], t);
            }
        }
        if (m > 0 && imp_lcp_lu_solve(g->M, m, g->rhs, 1e-13 * g->scale_A) != 0) {
            return -1;
        }
    }
    for (int i = 0; i < n; i++) g->df[i] = 0.0;
    for (int r = 0; r < m; r++) g->df[g->cl[r]] = g->rhs[r];
    g->df[d] = sigma;
    g->nnz = 0;
    for (int t = 0; t < n; t++) {
        if (is_dep(g, t)) {
            int nn = normal_of(g, t);
            g->df[t] = coef(g, t) * g->df[nn];
        }
        if (g->df[t] != 0.0) g->nz[g->nnz++] = t;
    }
    if (g->incremental && m > 0) {
        /* one step of iterative refinement: the residual of the clamped equations is
           Delta a on the clamped rows; solve for the correction with the same inverse.
           O(m nnz + m^2); it keeps the updated inverse as accurate as a fresh LU. */
        for (int r = 0; r < m; r++) {
            const double *row = g->p->A + (size_t)g->cl[r] * n;
            double sum = 0.0;
            for (int q = 0; q < g->nnz; q++) sum += row[g->nz[q]] * g->df[g->nz[q]];
            g->rhs[r] = -sum;
        }
        imp_lcp_gen_inv_apply(g);
        for (int r = 0; r < m; r++) g->df[g->cl[r]] += g->rhs[r];
        g->nnz = 0;
        for (int t = 0; t < n; t++) {
            if (is_dep(g, t)) g->df[t] = coef(g, t) * g->df[normal_of(g, t)];
            if (g->df[t] != 0.0) g->nz[g->nnz++] = t;
        }
    }
    for (int i = 0; i < n; i++) {
        double sum = 0.0;
        const double *row = g->p->A + (size_t)i * n;
        for (int q = 0; q < g->nnz; q++) sum += row[g->nz[q]] * g->df[g->nz[q]];
        g->da[i] = sum;
    }
    return 0;
}

static int direction(gen *g, int d, double sigma)
{
    if (direction_once(g, d, sigma, 0) != 0) return -1;
    if (!g->incremental || g->m == 0) return 0;
    /* residual check of the updated inverse: Delta a must vanish on the clamped rows */
    double dmax = 0.0, res = 0.0;
    for (int q = 0; q < g->nnz; q++) dmax = fmax(dmax, fabs(g->df[g->nz[q]]));
    for (int r = 0; r < g->m; r++) res = fmax(res, fabs(g->da[g->cl[r]]));
    if (res <= 1e-11 * g->scale_A * (1.0 + dmax) || g->updates == 0) return 0;
    return direction_once(g, d, sigma, 1);
}

static int g_frozen_skip(const gen *g, int j);

static void candidate_g(const gen *g, double s, int j, int to, double *best, int *jbest, int *jto)
{
    if (g_frozen_skip(g, j)) return;
    if (s < 0.0) s = 0.0;
    /* Steps equal up to rounding are ties: degenerate stick/slip vertices (a friction row
       reaching its bound exactly when the driven row reaches a = 0) tie in exact
       arithmetic, and rounding must not decide them, or the pivot path would depend on
       how the clamped system is solved. The driven row wins a tie (it ends the drive),
       then the smallest index; the step taken is the smallest of the tie. */
    double tie = *jbest < 0 ? 0.0 : 1e-11 * fmax(s, *best);
    int take;
    if (*jbest < 0 || s < *best - tie) {
        take = 1;
    } else if (s > *best + tie) {
        take = 0;
    } else if (j == *jbest) {
        take = s < *best;
    } else if (j == g->drive_d || *jbest == g->drive_d) {
        take = j == g->drive_d;
    } else {
        take = j < *jbest;
    }
    if (take) {
        *jbest = j;
        *jto = to;
    }
    if (s < *best) *best = s;
}

/* f_t := v keeping a = A f + b (column t of A). O(n). */
static void set_force(gen *g, int t, double v)
{
    double d = v - g->f[t];
    if (d != 0.0) {
        for (int i = 0; i < g->n; i++) g->a[i] += A_(g, i, t) * d;
    }
    g->f[t] = v;
}

/* friction rows of normal nn: set to FREE with f = 0 (the normal carries no force; clamped
   ones leave C) or back to unprocessed (the normal joined C: they are processed again) */
static void reset_friction_of(gen *g, int nn, signed char to)
{
    if (g->p->friction_normal == NULL) return;
    for (int t = 0; t < g->n; t++) {
        if (kind(g, t) != K_FRIC || normal_of(g, t) != nn) continue;
        if (g->st[t] == IMP_LCP_STATE_CLAMPED) {
            if (to != IMP_LCP_STATE_FREE) continue;
            c_del(g, t);
        }
        g->st[t] = to;
        set_force(g, t, 0.0);
    }
}

#define TO_CLAMP 0
#define TO_FREE 1
#define TO_LOWER 2
#define TO_UPPER 3

static imp_lcp_status drive(gen *g, int d)
{
    int kd = kind(g, d);
    int last_j = -1, last_to = -1;
    g->drive_id++;
    g->drive_d = d;
    for (;;) {
        if (g->info->pivots >= g->max_pivots) {
            *g->msg = "pivot limit reached (cycling, or friction without a consistent solution)";
            return IMP_LCP_PIVOT_LIMIT;
        }
        double sigma = (kd == K_UNI) ? 1.0 : (g->a[d] > 0.0 ? -1.0 : 1.0);
        if (direction(g, d, sigma) != 0) {
            *g->msg = "singular clamped system";
            return IMP_LCP_NUMERICAL;
        }
        double dmax = 0.0;
        for (int q = 0; q < g->nnz; q++) dmax = fmax(dmax, fabs(g->df[g->nz[q]]));
        double fthr = 1e-12 * (1.0 + dmax), athr = 1e-12 * g->scale_A * (1.0 + dmax);
        double best = INFINITY;
        int jbest = -1, jto = TO_CLAMP;
        double dad = g->da[d];
        int d_moves = fabs(dad) > g->thr * (1.0 + dmax);
        if (d_moves && g->a[d] * dad <= 0.0) {
            candidate_g(g, -g->a[d] / dad, d, TO_CLAMP, &best, &jbest, &jto);
        } else if (!d_moves && fabs(g->a[d]) <= g->eps_a && kd != K_UNI) {
            /* a bilateral or friction row dependent on the clamped rows, already at a = 0 */
            g->st[d] = IMP_LCP_STATE_REDUNDANT;
            return IMP_LCP_OK;
        }
        if (kd == K_FRIC) {
            int nn = normal_of(g, d);
            double mu = mu_of(g, d);
            if (sigma > 0.0 && sigma - mu * g->df[nn] > fthr) {
                candidate_g(g, (mu * g->f[nn] - g->f[d]) / (sigma - mu * g->df[nn]), d, TO_UPPER, &best, &jbest, &jto);
            } else if (sigma < 0.0 && -sigma - mu * g->df[nn] > fthr) {
                candidate_g(g, (g->f[d] + mu * g->f[nn]) / (-sigma - mu * g->df[nn]), d, TO_LOWER, &best, &jbest, &jto);
            }
        }
        for (int r = 0; r < g->m; r++) {
            int i = g->cl[r];
            int ki = kind(g, i);
            if (ki == K_UNI && g->df[i] < -fthr) {
                candidate_g(g, g->f[i] / -g->df[i], i, TO_FREE, &best, &jbest, &jto);
            } else if (ki == K_FRIC) {
                int nn = normal_of(g, i);
                double mu = mu_of(g, i);
                double up = mu * g->df[nn] - g->df[i], lo = g->df[i] + mu * g->df[nn];
                if (up < -fthr) candidate_g(g, (mu * g->f[nn] - g->f[i]) / -up, i, TO_UPPER, &best, &jbest, &jto);
                if (lo < -fthr) candidate_g(g, (g->f[i] + mu * g->f[nn]) / -lo, i, TO_LOWER, &best, &jbest, &jto);
            }
        }
        for (int j = 0; j < g->n; j++) {
            if (j == d) continue;
            signed char sj = g->st[j];
            int kj = kind(g, j);
            if (sj == IMP_LCP_STATE_REDUNDANT && kj == K_FRIC) {
                /* an untracked friction row keeps its force; its bounds still move with
                   the normal force, and reaching one makes it follow the normal */
                int nn = normal_of(g, j);
                double mu = mu_of(g, j), dn = mu * g->df[nn];
                if (dn < -fthr) {
                    candidate_g(g, (mu * g->f[nn] - g->f[j]) / -dn, j, TO_UPPER, &best, &jbest, &jto);
                    candidate_g(g, (g->f[j] + mu * g->f[nn]) / -dn, j, TO_LOWER, &best, &jbest, &jto);
                }
                continue;
            }
            if (sj == IMP_LCP_STATE_FREE && kj == K_UNI && g->da[j] < -athr) {
                candidate_g(g, g->a[j] / -g->da[j], j, TO_CLAMP, &best, &jbest, &jto);
            } else if (sj == IMP_LCP_STATE_LOWER && g->da[j] < -athr) {
                candidate_g(g, g->a[j] / -g->da[j], j, TO_CLAMP, &best, &jbest, &jto);
            } else if (sj == IMP_LCP_STATE_UPPER && g->da[j] > athr) {
                candidate_g(g, -g->a[j] / g->da[j], j, TO_CLAMP, &best, &jbest, &jto);
            }
        }
        if (jbest < 0) {
            /* for a general matrix a ray does not prove infeasibility (it does for PSD A) */
            *g->msg = "no limiting index: the problem is infeasible, or A is outside the "
                      "method's class (neither PSD nor a P-matrix)";
            return IMP_LCP_OUTSIDE_CLASS;
        }
        if (!d_moves && jbest == d && jto == TO_CLAMP) {
            *g->msg = "no progress: the driven row does not move";
            return IMP_LCP_OUTSIDE_CLASS;
        }
        /* a friction row flipping between clamped and a bound with zero steps (the
           degenerate vertex where f is at the bound and a = 0) would cycle: it is left
           out of maxstep for the rest of this drive; the final checks judge the result */
        int zero = best <= 1e-14 * (1.0 + fabs(g->f[jbest]));
        if (zero && jbest != d && jbest == last_j &&
            ((jto == TO_CLAMP) != (last_to == TO_CLAMP)) && kind(g, jbest) == K_FRIC) {
            g->frozen[jbest] = g->drive_id;
            last_j = -1;
            continue;
        }
        last_j = zero ? jbest : -1;
        last_to = jto;
        for (int q = 0; q < g->nnz; q++) {
            int i = g->nz[q];
            g->f[i] += best * g->df[i];
        }
        for (int i = 0; i < g->n; i++) g->a[i] += best * g->da[i];
        g->info->pivots++;
        /* past n pivots the path may be cycling around a point that already solves the
           problem: every n/4 pivots the iterate is checked as the driver would (O(n^2),
           a few pivots' worth) and accepted when it passes */
        int every = g->n / 4 > 16 ? g->n / 4 : 16;
        if (g->info->pivots > g->n && g->info->pivots % every == 0) {
            imp_lcp_info chk;
            memset(&chk, 0, sizeof chk);
            if (imp_lcp_check(g->p, g->f, g->acheck, g->tol, &chk)) {
                g->converged = 1;
                return IMP_LCP_OK;
            }
        }
        int j = jbest;
        if (jto == TO_CLAMP) {
            g->a[j] = 0.0;
            if (g->st[j] == IMP_LCP_STATE_LOWER || g->st[j] == IMP_LCP_STATE_UPPER) {
                g->st[j] = S_UN; /* leaves the dependents; c_add sets CLAMPED */
            }
            c_add(g, j);
            if (kind(g, j) == K_UNI) reset_friction_of(g, j, S_UN);
            if (j == d) return IMP_LCP_OK;
        } else if (jto == TO_FREE) {
            c_del(g, j);
            set_force(g, j, 0.0);
            g->st[j] = IMP_LCP_STATE_FREE;
            /* its friction rows now carry no force: clamped ones leave C */
            reset_friction_of(g, j, IMP_LCP_STATE_FREE);
        } else {
            /* a friction row reaches a bound: it follows its normal from now on */
            int nn = normal_of(g, j);
            if (g->st[j] == IMP_LCP_STATE_CLAMPED) c_del(g, j);
            g->st[j] = (signed char)(jto == TO_UPPER ? IMP_LCP_STATE_UPPER : IMP_LCP_STATE_LOWER);
            set_force(g, j, coef(g, j) * g->f[nn]);
            if (j == d) return IMP_LCP_OK;
        }
    }
}

/* A processed row whose condition no longer holds (possible with friction and with
   redundant rows, which are not tracked): 1 when it must be processed again. */
static int violated(const gen *g, int i)
{
    double tol = 1e3 * g->eps_a;
    switch (g->st[i]) {
    case IMP_LCP_STATE_FREE:
        return kind(g, i) == K_UNI ? g->a[i] < -tol : g->f[normal_of(g, i)] > 0.0;
    case IMP_LCP_STATE_LOWER: return g->a[i] < -tol;
    case IMP_LCP_STATE_UPPER: return g->a[i] > tol;
    case IMP_LCP_STATE_REDUNDANT: return fabs(g->a[i]) > tol;
    default: return 0;
    }
}

/* Warm start (Baraff's states of an earlier solve, copied to wst): the clamped rows form the
   clamped set, friction rows at a bound follow their clamped normal; the clamped system is
   solved once (a fresh factor, O(m^3)) and the rows whose force then breaks its state
   (a unilateral force < 0, a clamped friction force beyond mu f_n) are dropped, the worst
   first, until all hold; a = A f + b is then refreshed (O(n^2)) and every other row is
   processed as usual. Returns 1 when a start was kept, 0 when it was given up (a singular
   clamped system; the state is back to the cold start). */
static int warm_start(gen *g, const int *wst)
{
    int n = g->n;
    for (int i = 0; i < n; i++) {
        int k = kind(g, i);
        if (wst[i] != IMP_LCP_STATE_CLAMPED || k == K_SLIDE) continue;
        if (k == K_FRIC && wst[normal_of(g, i)] != IMP_LCP_STATE_CLAMPED) continue;
        c_add(g, i);
    }
    for (int i = 0; i < n; i++) {
        int k = kind(g, i);
        if (k == K_FRIC && (wst[i] == IMP_LCP_STATE_UPPER || wst[i] == IMP_LCP_STATE_LOWER) &&
            g->pos[normal_of(g, i)] >= 0) {
            g->st[i] = (signed char)wst[i];
        }
    }
    for (int round = 0; round <= n; round++) {
        int m = g->m;
        if (m == 0) break;
        if (imp_lcp_gen_fresh_inverse(g) != 0) {
            /* give up: back to the cold start */
            for (int i = 0; i < n; i++) {
                g->pos[i] = -1;
                g->f[i] = 0.0;
                g->st[i] = kind(g, i) == K_SLIDE ? IMP_LCP_STATE_SLIDING : S_UN;
            }
            g->m = 0;
            g->fm = 0;
            return 0;
        }
        for (int r = 0; r < m; r++) g->rhs[r] = -g->p->b[g->cl[r]];
        imp_lcp_gen_inv_apply(g);
        for (int i = 0; i < n; i++) g->f[i] = 0.0;
        for (int r = 0; r < m; r++) g->f[g->cl[r]] = g->rhs[r];
        for (int t = 0; t < n; t++) {
            if (is_dep(g, t) && g->pos[normal_of(g, t)] >= 0) g->f[t] = coef(g, t) * g->f[normal_of(g, t)];
        }
        int worst = -1;
        double wv = 0.0;
        for (int r = 0; r < m; r++) {
            int i = g->cl[r], k = kind(g, i);
            double v = 0.0;
            if (k == K_UNI) v = -g->f[i];
            else if (k == K_FRIC) v = fabs(g->f[i]) - mu_of(g, i) * g->f[normal_of(g, i)];
            if (v > wv) {
                wv = v;
                worst = i;
            }
        }
        if (worst < 0) break;
        c_del(g, worst);
        g->st[worst] = S_UN;
        g->f[worst] = 0.0;
        if (kind(g, worst) == K_UNI && g->p->friction_normal != NULL) {
            for (int t = 0; t < n; t++) {
                if (kind(g, t) != K_FRIC || normal_of(g, t) != worst) continue;
                if (g->st[t] == IMP_LCP_STATE_CLAMPED) c_del(g, t);
                g->st[t] = S_UN;
                g->f[t] = 0.0;
            }
        }
    }
    for (int i = 0; i < n; i++) {
        double sum = g->p->b[i];
        const double *row = g->p->A + (size_t)i * n;
        for (int j = 0; j < n; j++) sum += row[j] * g->f[j];
        g->a[i] = sum;
    }
    return 1;
}

imp_lcp_status imp_lcp_solve_general(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                     const signed char *warm, imp_lcp_workspace *ws, double *f,
                                     imp_lcp_info *info, const char **msg)
{
    gen g;
    memset(&g, 0, sizeof g);
    int n = p->n;
    g.n = n;
    g.p = p;
    g.f = ws->fh;
    g.a = ws->ah;
    g.df = ws->dfh;
    g.da = ws->dah;
    g.M = ws->big;
    g.rhs = ws->y;
    g.work = ws->work;
    g.cl = ws->cset;
    g.pos = ws->pos;
    g.perm = ws->list;
    g.nz = ws->list2;
    g.st = ws->st;
    g.frozen = ws->rlo;
    g.max_pivots = lim->max_pivots;
    g.incremental = !lim->general_refactor;
    if (g.incremental) {
        if (ws->ginv_cap < n) {
            free(ws->ginv);
            ws->ginv = malloc(sizeof(double) * (size_t)n * (size_t)n + 1);
            ws->ginv_cap = ws->ginv != NULL ? n : 0;
        }
        if (ws->ginv == NULL) {
            *msg = "out of memory for the clamped system's inverse";
            return IMP_LCP_NO_MEMORY;
        }
    }
    g.Einv = ws->ginv;
    g.fcl = ws->un;
    g.fpos = ws->first;
    g.fcoef = ws->x;
    g.u = ws->t;
    g.v = ws->work;
    g.w2 = ws->sc;
    g.fm = 0;
    g.updates = 0;
    g.info = info;
    g.msg = msg;
    g.tol = lim->tol;
    g.acheck = ws->sc + 10 * (size_t)ws->cap; /* the workspace's spare row */
    /* the warm states are copied first (the caller may pass the workspace's own states);
       list2 is free until the first direction (g.nz) */
    int *wst = ws->list2;
    if (warm != NULL) {
        for (int i = 0; i < n; i++) wst[i] = warm[i];
    }
    double sb = 0.0;
    for (size_t k = 0; k < (size_t)n * n; k++) g.scale_A = fmax(g.scale_A, fabs(p->A[k]));
    for (int i = 0; i < n; i++) sb = fmax(sb, fabs(p->b[i]));
    g.eps_a = 1e-13 * (sb > 0.0 ? sb : 1.0);
    g.thr = lim->ptol * g.scale_A;
    for (int i = 0; i < n; i++) {
        g.f[i] = 0.0;
        g.a[i] = p->b[i];
        g.pos[i] = -1;
        g.frozen[i] = 0;
        g.fpos[i] = -1;
        g.fcoef[i] = 0.0;
        g.st[i] = kind(&g, i) == K_SLIDE ? IMP_LCP_STATE_SLIDING : S_UN;
    }
    if (warm != NULL && g.incremental) {
        info->warm_started = warm_start(&g, wst);
    }
    imp_lcp_status st = IMP_LCP_OK;
    int settled = 0;
    for (int sweep = 0; sweep < 8 && st == IMP_LCP_OK; sweep++) {
        for (;;) {
            /* next row: unprocessed bilateral rows first, then by index; a friction row
               waits for its normal */
            int d = -1;
            for (int i = 0; i < n && d < 0; i++) {
                if (g.st[i] == S_UN && kind(&g, i) == K_BIL) d = i;
            }
            for (int i = 0; i < n && d < 0; i++) {
                if (g.st[i] != S_UN) continue;
                if (kind(&g, i) == K_FRIC) {
                    signed char sn = g.st[normal_of(&g, i)];
                    if (sn == IMP_LCP_STATE_FREE) {
                        g.st[i] = IMP_LCP_STATE_FREE;
                        continue;
                    }
                    if (sn != IMP_LCP_STATE_CLAMPED) continue;
                }
                d = i;
            }
            if (d < 0) break;
            int kd = kind(&g, d);
            if (kd == K_UNI && g.a[d] >= -g.eps_a) {
                g.st[d] = IMP_LCP_STATE_FREE;
                reset_friction_of(&g, d, IMP_LCP_STATE_FREE);
                continue;
            }
            st = drive(&g, d);
            if (st != IMP_LCP_OK || g.converged) break;
        }
        if (st != IMP_LCP_OK) break;
        if (g.converged) {
            settled = 1;
            break;
        }
        /* refresh a from scratch and re-process rows whose condition drifted */
        int again = 0;
        for (int i = 0; i < n; i++) {
            double s = p->b[i];
            const double *row = p->A + (size_t)i * n;
            for (int j = 0; j < n; j++) s += row[j] * g.f[j];
            g.a[i] = s;
        }
        for (int i = 0; i < n; i++) {
            if (violated(&g, i)) {
                g.st[i] = S_UN; /* processed again from its current force */
                again = 1;
            }
        }
        if (!again) {
            settled = 1;
            break;
        }
    }
    if (st == IMP_LCP_OK && !settled) {
        st = IMP_LCP_PIVOT_LIMIT;
        *msg = "no consistent friction state after 8 sweeps";
    }
    for (int i = 0; i < n; i++) {
        f[i] = g.f[i];
        if (g.st[i] == S_UN) g.st[i] = IMP_LCP_STATE_FREE;
    }
    info->clamped = g.m;
    (void)g.work;
    return st;
}
