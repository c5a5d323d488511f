/* lcp_coulomb_internal.h: the workspace and the pieces of the Coulomb solver (impact/coulomb.h)
   shared by its files. Not part of the public API. */
#ifndef IMPACT_LCP_COULOMB_INTERNAL_H
#define IMPACT_LCP_COULOMB_INTERNAL_H

#include <stddef.h>

#include <impact/coulomb.h>

struct imp_coulomb_workspace {
    int cap;            /* rows the vectors hold */
    int nc, nb;         /* contacts and bilateral rows of the current problem */
    int *crow;          /* contact c: rows crow[3c], crow[3c+1], crow[3c+2] (N, T1, T2) */
    int *brow;          /* bilateral rows */
    int *pos;           /* reduced Newton index of a row, or -1 (eliminated) */
    int *lrow, *ext;    /* LU: last row reaching each column, right extent of each row */
    int *node_of;       /* row -> node (contact c: c; bilateral row b: nc + b) */
    int *order;         /* nodes in reverse Cuthill-McKee order (the Newton system's order) */
    int *qbuf, *deg;    /* ordering scratch */
    signed char *kind;  /* per contact: 0 open, 1 sticking, 2 sliding */
    double *rho;        /* per row: the Alart-Curnier scaling */
    double *wdiag;      /* per contact: the 3x3 diagonal block of W (row-major); per
                           bilateral row its diagonal entry (at 9 nc + k) */
    double *ja, *jb;    /* per contact: dPhi/dr and dPhi/du (3x3 row-major each) */
    double *phi, *dr, *rt, *ut, *rbest, *ubest, *rhs;
    double *H;          /* the reduced Newton matrix, hcap x hcap, grown on first use */
    size_t hcap;
    /* the dof-space Newton path (lcp_coulomb_body.c) */
    double *dwi, *gb;   /* per contact Dw^-1 and Dw^-1 B (3x3 row-major); per bilateral row
                           one value each (at 9 nc + k) */
    int bcap;           /* dofs the following hold */
    double *bz, *bw, *bs; /* dof vectors */
    int *bmark, *blist, *blrow, *bext, *bfirst, *bmap, *bdofs; /* dof scratch */
    int path;           /* 0: either path; 1: the rows' path only; 2: the dof-space path
                           whenever factors are given (test hook) */
    int body_steps, rows_steps; /* Newton directions of the last solve by each path */
};

/* u = W r + q */
void imp_coulomb_matvec(const imp_coulomb_csr *W, const double *q, const double *r, double *u);
/* row i of W times r */
double imp_coulomb_row_dot(const imp_coulomb_csr *W, int i, const double *r);
/* entry (i, j) of W (0 when absent) */
double imp_coulomb_entry(const imp_coulomb_csr *W, int i, int j);

/* The Alart-Curnier function of one contact (lcp_coulomb_ac.c): phi (3) at (r, u) with the
   scalings rn (normal) and rt (tangent), and when A and B are not NULL a generalized
   Jacobian dPhi/dr = A, dPhi/du = B (3x3 row-major). Returns the contact's state: 0 open
   (Phi = r, A = I, B = 0), 1 sticking, 2 sliding. */
int imp_coulomb_ac(const double r[3], const double u[3], double mu, double rn, double rt,
                   double phi[3], double *A, double *B);

/* Siconos' per-contact error term |r - P_K(r - u - mu|u_T| e_N)|^2 */
double imp_coulomb_local_error2(const double r[3], const double u[3], double mu);

/* Projection on the cone {|x_T| <= mu x_N} */
void imp_coulomb_project_cone(double x[3], double mu);

/* The exact solution of a single contact u = W r + q (W 3x3 row-major): r holds the
   starting guess and receives the answer (lcp_coulomb_local.c). */
void imp_coulomb_local_solve(const double W[9], const double q[3], double mu, double r[3]);

/* One nonsmooth Gauss-Seidel sweep over the contacts and bilateral rows (in row order of
   their first row), updating r in place. */
void imp_coulomb_sweep(const imp_coulomb_problem *p, imp_coulomb_workspace *ws, double *r);

/* Newton direction at the point where the caller evaluated imp_coulomb_phi (with jac = 1,
   into ws->phi): dr receives the step. delta >= 0 regularizes (W + delta diag(1/rho) in the
   Jacobian). Returns 0, or -1 when the linear solve failed. */
int imp_coulomb_newton_direction(const imp_coulomb_problem *p, imp_coulomb_workspace *ws, double delta);
/* Phi at (r, u) into phi; Jacobian blocks into ws->ja / jb when jac; returns 1/2 |Phi|^2 */
double imp_coulomb_phi(const imp_coulomb_problem *p, imp_coulomb_workspace *ws, const double *r,
                       const double *u, double *phi, int jac);

/* The Newton direction in dof space (lcp_coulomb_body.c), for p->factors: the same system
   as imp_coulomb_newton_direction (rows pos[i] >= 0 active, m of them; ws->phi, ja, jb
   evaluated), solved through Woodbury's identity on the dofs the active rows touch;
   ws->dr receives the step. Returns 0, or -1 when a diagonal block of the Jacobian or the
   dof system is (nearly) singular, or when the active rows touch m dofs or more (unless
   ws->path is 2): the caller then takes the rows' path. Needs
   imp_coulomb_body_reserve(ws, ndof) and room for ndof^2 doubles in ws->H. */
int imp_coulomb_body_direction(const imp_coulomb_problem *p, imp_coulomb_workspace *ws, double delta, int m);
/* Grows the dof scratch of ws to ndof: 0, or -1 without memory. */
int imp_coulomb_body_reserve(imp_coulomb_workspace *ws, int ndof);
void imp_coulomb_body_free(imp_coulomb_workspace *ws);

/* Test hook: the Newton direction of p at r with the regularization delta, by the rows'
   path (path 1) or by the dof-space path whenever p->factors is set, whatever the sizes
   (path 2); dr (n) receives it. Returns 1 when the dof-space path produced it, 0 when the
   rows' path did, -1 on bad input, no memory or a failed solve. */
int imp_coulomb_test_direction(const imp_coulomb_problem *p, const double *r, double delta, int path,
                               double *dr);

/* LU with partial pivoting of H (m x m row-major, overwritten), solving H x = b in place,
   within the envelope: lrow[k] is the last row with a nonzero in column k at or below the
   diagonal (nondecreasing in k) and ext[i] the last column of row i (grown by the fill;
   overwritten). Pivots below tiny are replaced by +-tiny (a static pivot: the rank-deficient
   directions get a bounded step). Returns 0, or -1 for a non-finite answer. */
int imp_coulomb_lu_solve(double *H, int m, const int *lrow, int *ext, double *b, double tiny);

/* Orders the nodes (contacts, then bilateral rows) by reverse Cuthill-McKee on the block
   graph of W, into ws->order (fills ws->node_of). */
void imp_coulomb_order(const imp_coulomb_problem *p, imp_coulomb_workspace *ws);

#endif
