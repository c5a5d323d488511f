/* lcp_internal.h: the workspace shared by the two LCP methods (lcp_symmetric.c, symmetric;
   lcp_general.c, general) and the driver (lcp.c). Not part of the public API. */
#ifndef IMPACT_LCP_INTERNAL_H
#define IMPACT_LCP_INTERNAL_H

#include <impact/lcp.h>
#include "lcp_chol.h"

struct imp_lcp_workspace {
    int cap;          /* rows the buffers hold */
    double *big;      /* cap*cap: the Cholesky factor (symmetric) or the LU matrix (general) */
    double *sc;       /* row scales d_i = 1/sqrt(A_ii) */
    double *fh, *ah;  /* scaled f and a */
    double *dfh, *dah;/* directions */
    double *y, *x, *t, *work; /* solves, products; work holds 2*cap */
    int *cset;        /* clamped rows in factor order */
    int *pos;         /* position in cset or -1 */
    int *list;        /* general scratch (NC list, LU permutation) */
    int *list2;
    int *un, *first;  /* unprocessed rows (greedy order); Cholesky profile */
    int *rlo, *rhi;   /* row envelopes of A: first and last nonzero column */
    signed char *st;  /* per-row state */
    unsigned char *bas; /* per-row split basis bits (lcp.h basis), in st's allocation */
    double *lem;      /* Lemke's B^-1, B and vectors (lcp_lemke.c), grown on first use */
    int *lem_i;
    int lem_cap;
    double *ginv;     /* the general method's inverse of the clamped system (lcp_general.c) */
    int ginv_cap;
    double *stick;    /* the cone-edge problem (lcp_stick.c): 2 cap^2 + 2 cap doubles */
    int *stick_pair;  /* its pairs of rows: cap */
    int stick_cap;
    double *split;    /* the split friction problem (lcp_split.c): M, q, z */
    size_t split_cap; /* doubles in split */
    int *split_i;     /* its variables' rows and kinds, each row's first variable */
    size_t split_icap;/* ints in split_i (in split_ws: bytes in st) */
    struct imp_lcp_workspace *split_ws; /* Lemke's workspace for it */
    double *reg;      /* the regularized box problem (lcp.c): A + eps diag(A), kept f, a */
    size_t reg_cap;   /* doubles in reg */
    double *newt;     /* the Newton finish (lcp_newton.c): 2 n^2 + 11 n doubles */
    size_t newt_cap;
    int *newt_i;      /* its pieces and columns: 3 n ints */
    size_t newt_icap;
    double *prox;     /* the proximal point loop (lcp_prox.c): n^2 + 2 n doubles */
    unsigned char *prox_b; /* its iterate's row states and basis bits: 2 n bytes */
    size_t prox_cap;
    int box_large_rows; /* the box steps' rule for large problems (lcp_box.c) applies above
                           this many rows; 0 (the workspace's calloc): IMP_LCP_BOX_LARGE */
};

/* The clamped set's changes for the Cholesky methods (lcp_symmetric.c, lcp_box.c): the row into
   or out of the factor (imp_chol_add_row, imp_chol_remove_row), counted in info (additions,
   removals, the largest set). imp_lcp_clamp returns 0, or -1 (nothing changed). */
static inline int imp_lcp_clamp(imp_chol *ch, int *cset, int *pos, int row, const double *y,
                                double schur, imp_lcp_info *info)
{
    if (imp_chol_add_row(ch, cset, pos, row, y, schur) != 0) {
        return -1;
    }
    info->additions++;
    if (ch->m > info->max_clamped) {
        info->max_clamped = ch->m;
    }
    return 0;
}

static inline void imp_lcp_unclamp(imp_chol *ch, int *cset, int *pos, int row, double *work,
                                   imp_lcp_info *info)
{
    imp_chol_remove_row(ch, cset, pos, row, work);
    info->removals++;
}

/* Limits shared by both methods, filled by the driver. */
typedef struct imp_lcp_limits {
    int max_pivots;
    double tol;       /* acceptance */
    double ptol;      /* pivot (Schur complement) tolerance, relative */
    imp_lcp_order order;
    int general_refactor; /* general method: fresh LU at every pivot (reference path) */
    int split_factor; /* Lemke's cap on the split friction problem of N variables (lcp_split.c):
                         split_factor N + 1000 pivots; 0: 5 */
} imp_lcp_limits;

/* The driver's default limits for n rows (tests calling a method directly). */
static inline void imp_lcp_limits_default(imp_lcp_limits *lim, int n)
{
    lim->max_pivots = 50 * n + 1000;
    lim->tol = 1e-9;
    lim->ptol = 1e-11;
    lim->order = IMP_LCP_ORDER_GREEDY;
    lim->general_refactor = 0;
    lim->split_factor = 0;
}

/* Each method fills f (the solution), info->pivots/additions/removals/max_clamped/clamped
   and state, and returns a status other than IMP_LCP_OK only on a failure it detected
   itself; the driver then checks the residuals. */
imp_lcp_status imp_lcp_solve_symmetric(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                       const signed char *warm, imp_lcp_workspace *ws,
                                       double *f, imp_lcp_info *info, const char **msg);
/* warm: n states of an earlier solve (imp_lcp_solve's state output) or NULL. */
imp_lcp_status imp_lcp_solve_general(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                     const signed char *warm, imp_lcp_workspace *ws, double *f,
                                     imp_lcp_info *info, const char **msg);

/* Solves M x = rhs (M: m x m, row-major, overwritten by its LU factors; x overwrites rhs)
   by Gaussian elimination with partial pivoting (lcp_lu.c). Returns -1 when a pivot's
   magnitude is not above tol or x is not finite. O(m^3). */
int imp_lcp_lu_solve(double *M, int m, double *rhs, double tol);

/* Static 2D friction with a symmetric PSD A through the friction cone's edges, exact when
   every contact sticks or separates (lcp_stick.c). */
imp_lcp_status imp_lcp_solve_stick(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                   imp_lcp_workspace *ws, double *f, imp_lcp_info *info,
                                   const char **msg);

/* Friction with a symmetric PSD A as a fixed point of box-bounded problems (lcp_box.c).
   warm (n row states of imp_lcp_solve's state output) and warm_f (n forces of an earlier
   solve), both or neither: the first step starts from warm's pattern with the friction
   bounds of warm_f's normal forces instead of from zero friction. */
imp_lcp_status imp_lcp_solve_box(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                 const signed char *warm, const double *warm_f,
                                 imp_lcp_workspace *ws, double *f, imp_lcp_info *info,
                                 const char **msg);

/* Lemke's complementary pivoting (lcp_lemke.c) for frictionless problems without
   bilateral rows and any square A. */
imp_lcp_status imp_lcp_solve_lemke(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                   imp_lcp_workspace *ws, double *f, imp_lcp_info *info,
                                   const char **msg);

/* Lemke's method started from the complementary basis of sel (lcp_lemke.c: z_j basic where
   sel[j]; its inverse by Gauss-Jordan, O(n^3), then O(n^2) per pivot); p: no friction, no
   bilateral rows. IMP_LCP_PIVOT_LIMIT also when that basis is singular. */
imp_lcp_status imp_lcp_solve_lemke_from(const imp_lcp_problem *p, const unsigned char *sel,
                                        const imp_lcp_limits *lim, imp_lcp_workspace *ws,
                                        double *f, imp_lcp_info *info, const char **msg);

/* Friction (and bilateral rows) as a plain LCP of unilateral rows for Lemke's method
   (lcp_split.c): Stewart and Trinkle's split of each friction row; eps / max|A| on the
   multipliers' diagonal; scale nonzero: rows and variables equilibrated by A's diagonal.
   warm (n row states, may be NULL) with warm_f (n forces, may be NULL: the signs of
   friction inside its bounds and of bilateral rows) and warm_bas (n basis bytes of lcp.h's
   basis, may be NULL): Lemke's path starts from the basis of that pattern
   (imp_lcp_solve_lemke_from) instead of the cold start. ws->bas receives the final basis
   bits when Lemke's method solved the split problem (else zeros). */
imp_lcp_status imp_lcp_solve_split(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                   double eps, int scale, const signed char *warm,
                                   const double *warm_f, const unsigned char *warm_bas,
                                   imp_lcp_workspace *ws, double *f, imp_lcp_info *info,
                                   const char **msg);

/* split_factor for a cold path on A (lcp.c's setting, the proximal loop's first) and for a
   warm-started one (short: IMP_LCP_WARM_FACTOR N + 1000). (30: the paths on the dumped se55.3
   and se55.4 are 23 N and 14 N long, neither cycling: the basic sets hashed along them never
   repeat; at 10 N + 1000 they were cut) */
#define IMP_LCP_SPLIT_FACTOR 30
#define IMP_LCP_WARM_FACTOR 2

/* The proximal point loop (lcp_prox.c) for friction with redundant rows: Lemke's path on
   the split problems of A + rho diag(A), b - rho diag(A) f_k with rho falling, each started
   from the last iterate's basis; from warm and warm_f (either may be NULL). IMP_LCP_OK when
   an iterate passes imp_lcp_check at lim->tol on A; f and ws->st hold the last iterate
   either way, ws->bas zeros. */
imp_lcp_status imp_lcp_solve_prox(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                  const signed char *warm, const double *warm_f,
                                  imp_lcp_workspace *ws, double *f, imp_lcp_info *info,
                                  const char **msg);

/* The semismooth Newton finish (lcp_newton.c) for friction, bilateral and unilateral rows:
   from f (in: a start, e.g. a failed method's last iterate), sweeps projected Gauss-Seidel
   sweeps on A, then up to max_steps Levenberg-Marquardt steps on the min map with a line
   search. f out: the last iterate; ws->st its row states; info->pivots += the steps, and
   imp_lcp_check's residuals. IMP_LCP_OK only when imp_lcp_check passes at lim->tol. */
imp_lcp_status imp_lcp_solve_newton(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                    int sweeps, int max_steps, imp_lcp_workspace *ws,
                                    double *f, imp_lcp_info *info, const char **msg);

#endif
