/* impact/coulomb.h: 3D contact with exact Coulomb friction (the true, circular cone), the
   "reduced" frictional contact problem of Siconos (FrictionContactProblem), with optional
   bilateral (joint) rows. Independent of bodies: rows and a matrix.

   Problem. W (n x n, sparse), q (n). The rows that are not bilateral, in increasing order,
   form the contacts, three rows each (normal N, tangents T1, T2); contact c has friction
   coefficient mu[c] >= 0. Find r with u = W r + q such that
     contact c:   r_c in K = {|r_T| <= mu r_N}, u_N >= 0, r_N u_N = 0, and
                  |r_T| < mu r_N => u_T = 0 (sticking),
                  |r_T| = mu r_N => u_T = -lambda r_T, lambda >= 0 (sliding: the friction
                  opposes the slip, on the edge of the cone);
                  equivalently (De Saxce) r in K, u + mu |u_T| e_N in K*, orthogonal to r;
     bilateral row k:   r_k free, u_k = 0.

   Error: Siconos' fc3d_compute_error, sqrt(sum_c |r_c - P_K(r_c - u_c - mu|u_T| e_N)|^2
   + sum_bilateral u_k^2) / max(|q|, |r|, |u|) (2-norms; not divided when that is <= eps).

   Method (driver lcp_coulomb.c, Newton step lcp_coulomb_newton.c, Alart-Curnier function
   lcp_coulomb_ac.c): a semismooth (generalized) Newton method on the Alart-Curnier function
   (Alart & Curnier 1991; Christensen, Klarbring, Pang & Stromberg 1998) with a per-contact
   scaling rho from the diagonal blocks of W, a Levenberg-Marquardt regularization of the
   Jacobian for rank-deficient W, a non-monotone Armijo line search on the merit
   1/2 |Phi|^2, restarts from the best iterate with another rho when it stalls, and a
   fallback to nonsmooth Gauss-Seidel sweeps with exact local 3x3 solves
   (lcp_coulomb_local.c), whose answer warm-starts Newton again. The Newton system is solved
   on the rows that are not trivially determined (open contacts are eliminated), in reverse
   Cuthill-McKee order (lcp_coulomb_order.c), by an LU with partial pivoting inside the
   envelope and a tiny static pivot (lcp_coulomb_lu.c); W is kept in compressed rows
   (lcp_coulomb_sparse.c). Every returned r is the best iterate found (least error); the
   status says whether it reached the tolerance. Caps: Newton iterations, sweeps, and an
   optional time limit (processor time; off by default: results are then deterministic). */
#ifndef IMPACT_PUBLIC_COULOMB_H
#define IMPACT_PUBLIC_COULOMB_H

#include <impact/status.h>

/* Newton systems of more rows than this (sticking and sliding contacts' rows plus bilateral
   rows) are not formed (their dense storage would take m^2 doubles: 134 MB here); the solve
   then goes on with the Gauss-Seidel sweeps alone. */
#define IMP_COULOMB_NEWTON_MAX_ROWS 4096

typedef enum imp_coulomb_status {
    IMP_COULOMB_OK = 0,          /* error <= tolerance */
    IMP_COULOMB_MAX_ITER = 1,    /* iteration or sweep cap reached: the best answer found */
    IMP_COULOMB_TIME_LIMIT = 2,  /* opts.max_time reached: the best answer found */
    IMP_COULOMB_BAD_INPUT = 3,   /* sizes, NaN/inf, mu < 0, rows not a multiple of 3 */
    IMP_COULOMB_NO_MEMORY = 4
} imp_coulomb_status;

typedef enum imp_coulomb_method {
    IMP_COULOMB_AUTO = 0,   /* Newton with the Gauss-Seidel fallback */
    IMP_COULOMB_NEWTON = 1, /* Newton (Alart-Curnier) only */
    IMP_COULOMB_NSGS = 2    /* nonsmooth Gauss-Seidel only */
} imp_coulomb_method;

/* W in compressed sparse rows (0-based): row i has entries col[k], val[k] for k in
   row_ptr[i] .. row_ptr[i+1]-1 (columns need not be sorted; no duplicates). */
typedef struct imp_coulomb_csr {
    int n;
    const int *row_ptr;  /* n + 1 */
    const int *col;
    const double *val;
} imp_coulomb_csr;

/* W = J Minv J^T given by its factors, for systems of bodies (J: the rows' velocity
   Jacobian, Minv: the inverse mass matrix). J in compressed rows, J.n = W.n rows, column
   indices in 0 .. ndof-1; Minv in compressed rows, Minv.n = ndof, symmetric positive
   semidefinite (e.g. 6x6 blocks per moving body; fixed bodies have no dofs). The caller
   guarantees W == J Minv J^T (within round-off); W is still required (u = W r + q, the
   error and the Gauss-Seidel sweeps use it). With factors, a Newton iteration whose system
   has more rows than the dofs its rows touch solves it in dof space (lcp_coulomb_body.c:
   Woodbury's identity, a system on those dofs instead of the rows' one), unless a diagonal
   block of the Jacobian is (nearly) singular: that iteration then takes the rows' path.
   Dofs no row touches cost nothing. */
typedef struct imp_coulomb_factors {
    int ndof;
    imp_coulomb_csr J;    /* W.n rows, columns < ndof */
    imp_coulomb_csr Minv; /* ndof rows and columns */
} imp_coulomb_factors;

typedef struct imp_coulomb_problem {
    imp_coulomb_csr W;
    const double *q;                /* n */
    const double *mu;               /* one per contact */
    const unsigned char *bilateral; /* n flags (nonzero = bilateral row) or NULL */
    const imp_coulomb_factors *factors; /* W's factors, or NULL (then W alone) */
} imp_coulomb_problem;

typedef struct imp_coulomb_options {
    imp_coulomb_method method;
    double tolerance;       /* on the error; <= 0: 1e-10 */
    int max_iterations;     /* Newton iterations in all; <= 0: 200 */
    int max_sweeps;         /* Gauss-Seidel sweeps in all; <= 0: 2000 (NSGS alone: 100000) */
    double max_time;        /* seconds of processor time (clock()); <= 0: no limit */
    const double *warm_start; /* n values of r, or NULL (start at r = 0) */
} imp_coulomb_options;

typedef struct imp_coulomb_info {
    imp_coulomb_status status;
    const char *message;    /* static string */
    const char *method;     /* what produced the answer: "newton", "nsgs", "newton+nsgs" */
    int contacts;
    int iterations;         /* Newton iterations */
    int sweeps;             /* Gauss-Seidel sweeps */
    int fallbacks;          /* times Newton stalled and handed over to the sweeps */
    double error;           /* Siconos' error of the returned r */
    int sticking, sliding, open; /* contact classification of the answer */
} imp_coulomb_info;

typedef struct imp_coulomb_workspace imp_coulomb_workspace;

/* A workspace for n rows (grown on demand). The first Newton step of a solve also sizes the
   Newton matrix for all rows (min(n, IMP_COULOMB_NEWTON_MAX_ROWS)^2 doubles) and, with
   factors, the dof-space scratch (10 ndof numbers); from then on, solves of up to those sizes
   allocate nothing. NULL without memory. */
imp_coulomb_workspace *imp_coulomb_workspace_create(int n);
void imp_coulomb_workspace_destroy(imp_coulomb_workspace *ws);
/* Grows the workspace to n rows: IMP_OK, or IMP_ERR_NOMEM. */
imp_status imp_coulomb_workspace_reserve(imp_coulomb_workspace *ws, int n);

void imp_coulomb_default_options(imp_coulomb_options *opts);

/* Solves p: r and u (n each, caller-owned) receive the best answer found and u = W r + q.
   opts may be NULL (defaults); ws may be NULL (a temporary one is allocated). Returns
   info->status; on any status but BAD_INPUT / NO_MEMORY r and u are finite. */
imp_coulomb_status imp_coulomb_solve(const imp_coulomb_problem *p, const imp_coulomb_options *opts,
                                     imp_coulomb_workspace *ws, double *r, double *u,
                                     imp_coulomb_info *info);

/* Siconos' error of r (u = W r + q is written to u). */
double imp_coulomb_error(const imp_coulomb_problem *p, const double *r, double *u);

const char *imp_coulomb_status_name(imp_coulomb_status s);

/* Compressed rows from a dense row-major n x n matrix (zeros dropped; col and val need room
   for the nonzeros: call first with col = NULL to count them) or from nnz 0-based triplets
   (duplicates summed, exact zeros dropped; col and val need room for nnz entries, work for
   n ints). Return the number of entries stored, or -1 for an index out of range. */
int imp_coulomb_csr_from_dense(int n, const double *A, int *row_ptr, int *col, double *val);
int imp_coulomb_csr_from_triplets(int n, int nnz, const int *ti, const int *tj, const double *tv,
                                  int *work, int *row_ptr, int *col, double *val);

#endif
