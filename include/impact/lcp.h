/* impact/lcp.h: the contact linear complementarity problem (LCP), solved by Baraff's pivoting
   method (D. Baraff, "Fast Contact Force Computation for Nonpenetrating Rigid Bodies",
   SIGGRAPH 1994), independent of bodies.

   Find f with a = A f + b such that, row by row:
     unilateral (contact) rows:  f_i >= 0, a_i >= 0, f_i a_i = 0
     bilateral (joint) rows:     f_i free, a_i = 0
     static friction rows:       -mu_i f_n <= f_i <= mu_i f_n (n = the row's normal row) and
                                 a_i = 0 inside the bounds, a_i >= 0 at the lower bound,
                                 a_i <= 0 at the upper bound (friction opposes the slip)
     sliding friction rows:      f_i = -sliding_i mu_i f_n (dynamic friction along a known
                                 slip direction sliding_i = +1 or -1); a_i is free
   The same problem gives contact forces (a = accelerations) and collision impulses
   (a = post-impact velocities + e v-, b = (1 + e) v-), with A = J M^-1 J^T.

   Storage: A is dense n x n ROW-MAJOR, A[i*n + j] (for the symmetric A of contact problems
   row- and column-major are the same). All arrays belong to the caller.

   Three methods, chosen automatically (imp_lcp_options.method):
   - symmetric (no friction rows, A symmetric, meant for PSD A, possibly singular): Baraff's
     drive-to-zero / fdirection / maxstep with bilateral rows first and an incremental Cholesky
     factor of the clamped block, updated by one row and column per set change. A whole
     solve costs O(n^2 m) flops (m = size of the clamped set), i.e. O(n^3); no per-set-change
     refactorization. Redundant rows (A_CC would become singular) are never admitted: their
     Schur complement is zero, so the step pushes them out instead of dividing by zero.
   - general (friction rows or nonsymmetric A): the same pivoting with Baraff's friction
     states (clamped, at a bound tracking its normal force, sliding), solving the clamped
     system with an inverse updated by O(m^2) bordering / deletion / Sherman-Morrison steps
     at each set or bound-state change (a fresh LU when an update is ill-conditioned):
     O(n^2) per pivot, O(n^3) per solve (opts.general_refactor = 1 restores the O(n^4)
     refactor-at-every-pivot reference). No termination guarantee exists for friction (Baraff 1991 shows the
     consistency question is NP-hard), so it relies on the pivot cap and reports failures.
   - box (friction with a symmetric PSD A, static or sliding rows; src/lcp/lcp_box.c): the
     friction bounds are frozen at mu times the normal forces of the previous iterate (the
     mean of the last two), each bounded problem is solved exactly by the pivoting with bounds
     (the clamped block stays a principal submatrix of A, so redundant contacts are pushed
     out as in the symmetric method), until the iterate passes the Coulomb residual test.
     Auto uses it first for such problems and falls back to the general method when it finds
     no fixed point; info.method then says IMP_LCP_GENERAL (the friction family). When both
     fail, auto tries last the friction cone's edges (2D: static rows, one per normal row;
     src/lcp/lcp_stick.c): f_n = c+ + c-, f_t = mu (c+ - c-), c >= 0, a symmetric PSD
     problem without friction rows for the symmetric method, whose answer is Coulomb's when
     every contact sticks or separates, and is taken only when it passes the residual test.
     Friction still unsolved then with a symmetric A goes to the box steps on the regularized
     A + 1e-10 diag(A) (positive definite: the normal forces of each step are unique, where
     the redundant rows of stacks, A singular, let the steps on A wander between normal
     splits), warm-started from opts.warm_start and opts.warm_forces and taken only when the
     answer passes the residual test on A itself; problems of more than 300 such rows go
     there first (the other methods mostly fail on them at a high cost).
     Friction still unsolved then (auto, any A, n <= 300) goes to Lemke's method on Stewart and
     Trinkle's split problem (src/lcp/lcp_split.c: f_t = p - m, p, m >= 0, with a multiplier
     row mu f_n - p - m >= 0; duplicate rows merged; a tiny multiplier diagonal), which
     ends on redundant, degenerate contacts where the pivoting above cycles; its answer is
     taken only when it passes the residual test (info.method then says IMP_LCP_LEMKE).
     Above 300 rows (up to 1200, symmetric A) the split problem comes right after the
     regularized box steps: Lemke's path started from the box steps' last pattern as a
     basis (2 N + 1000 pivots), then cold on A itself (a path of up to 10 N + 1000 pivots
     over its N variables), then cold on the regularized A (cold paths of 5 to 20 s at 580
     rows). A caller that gives the basis of an earlier answer of that path (warm_basis,
     the basis output of the last step's solve by row) gets that basis tried first, before
     the box steps: its inverse once (O(N^3)), then a few pivots when the contacts kept
     their pattern (0.56 s and 22 pivots against 5.3 s cold at 580 rows).
     Above 300 frictional rows with a symmetric A a semismooth Newton finish (src/lcp/
     lcp_newton.c: Levenberg-Marquardt steps on the min map, each O(m^3) for m pressed rows)
     runs first from opts.warm_forces (6 steps) and last, after every other method failed,
     from their last iterate after 200 projected Gauss-Seidel sweeps on A (30 steps); its
     answer is taken only when it passes the residual test at 1e-2 of the tolerance
     (info.method then says IMP_LCP_GENERAL).
   Every returned status is honest: IMP_LCP_OK means the residual checks of
   imp_lcp_info passed at opts.tolerance relative to the problem's scale (s_f = max|f|,
   s_a = max|b| + max|A| s_f: f >= -tol s_f, a >= -tol s_a, |f a| <= tol s_f s_a, bilateral
   |a| <= tol s_a). IMP_LCP_INFEASIBLE is only returned with a proof (a ray of the symmetric
   PSD method with no limit, a Lemke ray that checks as a Farkas certificate, or an
   exhaustive enumeration over nonsingular bases); otherwise a ray is reported as
   IMP_LCP_OUTSIDE_CLASS, since it proves nothing for a matrix outside the method's class.

   3D friction: give two tangent rows per contact, each bounded by mu f_n (Baraff's
   component-wise bounds: a four-sided pyramid aligned with the tangent axes; use mu / sqrt(2)
   for a pyramid inscribed in the cone). A sliding contact gets one tangent row along its slip
   direction with sliding = +-1. */
#ifndef IMPACT_PUBLIC_LCP_H
#define IMPACT_PUBLIC_LCP_H

#include <stddef.h>

#include <impact/status.h>

typedef enum imp_lcp_status {
    IMP_LCP_OK = 0,
    IMP_LCP_INFEASIBLE = 1,      /* a ray with no limit was found: no solution exists */
    IMP_LCP_PIVOT_LIMIT = 2,     /* opts.max_pivots reached (cycling or a hard problem) */
    IMP_LCP_NUMERICAL = 3,       /* breakdown (tiny pivot) or final residuals above tolerance */
    IMP_LCP_OUTSIDE_CLASS = 4,   /* A is not PSD (symmetric method) / no progress possible */
    IMP_LCP_BAD_INPUT = 5,       /* n < 0, NULL arrays, NaN/inf, bad friction indices */
    IMP_LCP_NO_MEMORY = 6
} imp_lcp_status;

typedef enum imp_lcp_method {
    IMP_LCP_AUTO = 0,      /* symmetric when possible, else general */
    IMP_LCP_SYMMETRIC = 1, /* refuse (IMP_LCP_BAD_INPUT) when A is not symmetric or has friction */
    IMP_LCP_GENERAL = 2,
    IMP_LCP_LEMKE = 3,     /* Lemke's complementary pivoting: no friction, no bilateral rows */
    IMP_LCP_BOX = 4        /* friction with a symmetric PSD A: fixed point of box-bounded
                              problems, each solved by pivoting with bounds (lcp_box.c) */
} imp_lcp_method;

/* Per-row state, reported after a solve and accepted as a warm start. */
enum {
    IMP_LCP_STATE_FREE = 0,      /* f = 0 (unilateral: a >= 0), or friction at 0 with f_n = 0 */
    IMP_LCP_STATE_CLAMPED = 1,   /* a = 0 (unilateral f >= 0, bilateral, friction inside) */
    IMP_LCP_STATE_LOWER = 2,     /* friction at its lower bound -mu f_n */
    IMP_LCP_STATE_UPPER = 3,     /* friction at its upper bound +mu f_n */
    IMP_LCP_STATE_SLIDING = 4,   /* sliding friction row (f follows its normal) */
    IMP_LCP_STATE_REDUNDANT = 5  /* bilateral/friction row dependent on clamped rows: f = 0 */
};

typedef struct imp_lcp_problem {
    int n;
    const double *A;                 /* n*n, row-major */
    const double *b;                 /* n */
    const unsigned char *bilateral;  /* n flags (nonzero = bilateral) or NULL (none) */
    /* Friction (all NULL when there is none). friction_normal[i] is the normal row bounding
       friction row i, or -1 for a row that is not a friction row. The normal row must be
       unilateral. mu[i] >= 0 for friction rows. sliding[i] (may be NULL = all static):
       0 static, +1 / -1 sliding with the relative tangential velocity along +/- row i. */
    const int *friction_normal;
    const double *mu;
    const signed char *sliding;
} imp_lcp_problem;

/* Which unprocessed row drive_to_zero takes next (Baraff allows any row with a_d < 0). */
typedef enum imp_lcp_order {
    IMP_LCP_ORDER_GREEDY = 0, /* most negative a first: fewest pivots on dense problems; a is
                                 kept up to date on every unprocessed row */
    IMP_LCP_ORDER_INDEX = 1   /* increasing row index (the caller's order) */
} imp_lcp_order;

typedef struct imp_lcp_options {
    imp_lcp_method method;
    imp_lcp_order order;       /* symmetric method only */
    int max_pivots;            /* <= 0: default 50 n + 1000 */
    double tolerance;          /* acceptance, relative to scale; <= 0: 1e-9 */
    double pivot_tolerance;    /* relative size below which a Schur complement is zero; <= 0: 1e-11 */
    /* n states from a previous solve (imp_lcp_solve's state output), or NULL. Symmetric
       and general methods (the box method starts afresh; auto's fallback from it to the
       general method starts from the box steps' last states instead): the previous clamped
       set is factored (with the friction rows at a bound following their normals), rows
       whose force breaks their state are dropped, and the pivoting goes on from there; an
       unchanged problem then needs no pivot. */
    const signed char *warm_start;
    /* General method only: nonzero rebuilds and LU-factors the clamped system at every
       pivot (O(m^3) per pivot, O(n^4) per solve; the reference the incremental inverse is
       tested against). 0 (default): the inverse is updated, O(m^2) per set change. */
    int general_refactor;
    /* n forces of a previous solve (imp_lcp_solve's f), or NULL; with warm_start, the box
       steps on redundant frictional problems (see auto above) start from that pattern with
       the friction bounds of these normal forces instead of from zero friction. */
    const double *warm_forces;
    /* n bytes each, or NULL. basis receives, per row, the final basis of Lemke's method on
       the split friction problem (auto above 300 rows, see the method list) when that path
       gave the answer: 8 (set) + 1 (the row's force, or its friction's positive part,
       basic) + 2 (negative part basic) + 4 (multiplier basic); 0 for the rows of answers
       found otherwise. warm_basis: a previous solve's basis, by row (0: none): the split
       problem's Lemke path then starts from it (its inverse formed once, O(N^3) for N split
       variables, then a few pivots when the contacts did not change) before the cold paths;
       rows without one take their basis from warm_start's states. */
    const unsigned char *warm_basis;
    unsigned char *basis;
} imp_lcp_options;

typedef struct imp_lcp_info {
    imp_lcp_status status;
    const char *message;       /* static string saying what happened */
    imp_lcp_method method;     /* the method that ran */
    int pivots;                /* steps taken (each step is one fdirection + maxstep) */
    int additions, removals;   /* set changes of the clamped set */
    int max_clamped;           /* largest clamped set (size of the factorized block) */
    int clamped;               /* final clamped set size */
    int warm_started;          /* 1 when the warm start set was used */
    /* residuals of the returned f, with a recomputed as A f + b */
    double min_f;              /* min f over unilateral rows (0 when none) */
    double min_a;              /* min a over unilateral rows (0 when none) */
    double max_comp;           /* max |f_i a_i| over unilateral rows */
    double max_bilateral;      /* max |a_i| over bilateral rows */
    double max_friction;       /* max violation of a friction row's bound or sign condition */
    double natural_residual;   /* max |f - max(0, f - a)| over unilateral rows */
    double scale_f, scale_a;   /* the scales the tolerance was applied to: max|f|, max|b|+max|A|max|f| */
} imp_lcp_info;

typedef struct imp_lcp_workspace imp_lcp_workspace;

/* A workspace for problems up to n_max rows (grown on demand by imp_lcp_solve; a solve
   does not allocate when the workspace is already big enough). Returns NULL without memory. */
imp_lcp_workspace *imp_lcp_workspace_create(int n_max);
void imp_lcp_workspace_destroy(imp_lcp_workspace *ws);
/* Grows the workspace to n rows: IMP_OK, or IMP_ERR_NOMEM (the workspace is then empty). */
imp_status imp_lcp_workspace_reserve(imp_lcp_workspace *ws, int n);

void imp_lcp_default_options(imp_lcp_options *opts);

/* Solves p. f and a (n each, caller-owned) receive the solution and a = A f + b; state (n,
   may be NULL) receives the final per-row states (for a warm start). opts may be NULL
   (defaults), ws may be NULL (a temporary workspace is allocated). info must not be NULL.
   Returns info->status. On failure f and a hold the last iterate (finite). */
imp_lcp_status imp_lcp_solve(const imp_lcp_problem *p, const imp_lcp_options *opts,
                             imp_lcp_workspace *ws, double *f, double *a, signed char *state,
                             imp_lcp_info *info);

/* Polyhedral friction cone for 3D contacts (src/lcp/lcp_cone.c): k tangent directions per
   contact (2 <= k <= IMP_LCP_CONE_MAX), direction j = cos(j pi/k) t1 + sin(j pi/k) t2 in
   the contact's tangent basis (t1, t2), written to dirs (2k numbers: cos, sin) when dirs is
   not NULL. Give each direction its own friction row (J row = d_j . relative velocity)
   bounded by mu_row = mu_factor * mu times the normal force (friction_normal, mu of
   imp_lcp_problem). The reachable friction forces form a regular 2k-gon:
     inscribed = 0: mu_factor = tan(pi/2k), the polygon contains the Coulomb disc: the
                    friction limit in any direction is in [mu f_n, mu f_n / cos(pi/2k)];
     inscribed = 1: mu_factor = sin(pi/2k), the polygon lies inside the disc: the limit is
                    in [mu f_n cos(pi/2k), mu f_n].
   max_error (may be NULL) receives that relative deviation: 1/cos(pi/2k) - 1 or
   1 - cos(pi/2k) (k = 4: 8.2% / 7.6%; k = 8: 2.0% / 1.9%; k = 16: 0.48%). Returns 0, or
   -1 when k is out of range. k = 2 with inscribed = 0 is the axis-aligned pyramid. */
#define IMP_LCP_CONE_MAX 64
int imp_lcp_cone(int k, int inscribed, double *dirs, double *mu_factor, double *max_error);

/* The force scale the problem itself sets, sum over rows of |b_i| / A_ii (rows with A_ii <= 0
   skipped): each row's own load, all added up, as at the bottom of a stack that carries every
   row. A failed solve's last iterate (imp_lcp_solve returns one) whose residuals look small
   next to its own max|f| is not a solution when max|f| is far above this (a singular clamped
   set can blow f up while staying "relatively" consistent). O(n). */
double imp_lcp_force_scale(const imp_lcp_problem *p);

/* The status as a short name ("ok", "infeasible", ...). */
const char *imp_lcp_status_name(imp_lcp_status s);

/* Residuals of f (a is recomputed as A f + b into a) over the row kinds of p, filling the
   residual fields of info. Returns 1 when they pass tol (relative to scale), else 0. O(n^2). */
int imp_lcp_check(const imp_lcp_problem *p, const double *f, double *a, double tol,
                  imp_lcp_info *info);

#endif
