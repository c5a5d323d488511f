/* lcp_general_internal.h: what the general pivoting method (lcp_general.c) and its incremental
   inverse of the effective clamped matrix (lcp_general_inverse.c) share: the solver's state
   and its row accessors. Not part of the public API. */
#ifndef IMPACT_LCP_GENERAL_INTERNAL_H
#define IMPACT_LCP_GENERAL_INTERNAL_H

#include "lcp_internal.h"

enum { K_UNI = 0, K_BIL = 1, K_FRIC = 2, K_SLIDE = 3 };
#define S_UN ((signed char)-1)

typedef struct gen {
    int n;
    const imp_lcp_problem *p;
    double *f, *a, *df, *da, *M, *rhs, *work;
    int *cl, *pos, *perm, *nz;
    int m, nnz;
    int *frozen, drive_id, drive_d;   /* rows excluded from maxstep in the current drive (anti-cycling) */
    /* the incremental factor (see "Incremental inverse" below): Einv (ld n) is the inverse
       of the effective clamped matrix over the rows fcl[0..fm-1], whose columns include
       fcoef[t] times column t for every friction row t following a factored normal */
    int incremental;
    double *Einv, *fcoef, *u, *v, *w2;
    int *fcl, *fpos, fm, updates;
    signed char *st;
    double scale_A, eps_a, thr;
    int max_pivots;
    double tol, *acheck;  /* the acceptance test and its scratch (early exit, see drive) */
    int converged;        /* the iterate passed imp_lcp_check: the solve ends */
    imp_lcp_info *info;
    const char **msg;
} gen;

static inline int kind(const gen *g, int i)
{
    const imp_lcp_problem *p = g->p;
    if (p->bilateral != NULL && p->bilateral[i]) return K_BIL;
    if (p->friction_normal != NULL && p->friction_normal[i] >= 0) {
        return (p->sliding != NULL && p->sliding[i] != 0) ? K_SLIDE : K_FRIC;
    }
    return K_UNI;
}

static inline int normal_of(const gen *g, int i) { return g->p->friction_normal[i]; }
static inline double mu_of(const gen *g, int i) { return g->p->mu[i]; }

/* f_t = coef * f_n for a dependent friction row, 0 when t is not dependent */
static inline double coef(const gen *g, int t)
{
    switch (g->st[t]) {
    case IMP_LCP_STATE_LOWER: return -mu_of(g, t);
    case IMP_LCP_STATE_UPPER: return mu_of(g, t);
    case IMP_LCP_STATE_SLIDING: return -(double)g->p->sliding[t] * mu_of(g, t);
    default: return 0.0;
    }
}

static inline int is_dep(const gen *g, int t)
{
    return g->st[t] == IMP_LCP_STATE_LOWER || g->st[t] == IMP_LCP_STATE_UPPER ||
           g->st[t] == IMP_LCP_STATE_SLIDING;
}

static inline double A_(const gen *g, int i, int j) { return g->p->A[(size_t)i * g->n + j]; }

/* The incremental inverse (lcp_general_inverse.c). */
/* fresh factor: E built from the clamped set and the current dependent coefficients, then
   inverted through an LU with partial pivoting. -1 when E is singular. O(m^3). */
int imp_lcp_gen_fresh_inverse(gen *g);
/* brings Einv up to the current clamped set and dependent states. -1: E is singular. */
int imp_lcp_gen_sync_inverse(gen *g);
/* Delta f on the clamped rows for rhs (in cl order, overwritten): x = Einv rhs, mapped from
   the factored order. O(m^2). */
void imp_lcp_gen_inv_apply(gen *g);

#endif
