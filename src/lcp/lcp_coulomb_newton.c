/* lcp_coulomb_newton.c: the Alart-Curnier function of the whole problem and the semismooth
   Newton direction (impact/coulomb.h).

   With u = W r + q and Phi(r) = Phi_AC(r, W r + q), a generalized Jacobian is H = A + B W
   (A, B block diagonal: 3x3 per contact, from imp_coulomb_ac; bilateral row k: Phi_k =
   rho_k u_k). The rows of open contacts are those of the identity (Phi = r), so their step is
   dr = -r, known beforehand: it is moved to the right-hand side and only the other rows
   (sticking and sliding contacts, bilateral rows) enter the system, in the reverse
   Cuthill-McKee order of lcp_coulomb_order.c, which is solved by imp_coulomb_lu_solve
   within its envelope.

   Regularization (Levenberg-Marquardt style, as a proximal term): W is replaced by
   W + eta D in the Jacobian only, D = diag(1 / rho) (the diagonal scale of W) and eta = delta
   chosen by the driver in proportion to the current error, so rank-deficient W (redundant
   contacts) gives a bounded, well-defined step and the convergence near a solution stays
   fast (the perturbation vanishes with the error).

   When the caller gives W's factors J Minv J^T and the system has more rows than dofs,
   the same system is solved in dof space instead (lcp_coulomb_body.c). */
#include <math.h>
#include <stddef.h>
#include <string.h>
#ifdef COULOMB_TRACE
#include <stdio.h>
#endif

#include "lcp_coulomb_internal.h"

double imp_coulomb_phi(const imp_coulomb_problem *p, imp_coulomb_workspace *ws, const double *r,
                       const double *u, double *phi, int jac)
{
    double m = 0.0;
    for (int c = 0; c < ws->nc; c++) {
        const int *rows = ws->crow + 3 * c;
        double rc[3], uc[3], pc[3];
        for (int i = 0; i < 3; i++) {
            rc[i] = r[rows[i]];
            uc[i] = u[rows[i]];
        }
        int kind = imp_coulomb_ac(rc, uc, p->mu[c], ws->rho[rows[0]], ws->rho[rows[1]], pc,
                                  jac ? ws->ja + 9 * c : NULL, jac ? ws->jb + 9 * c : NULL);
        if (jac) ws->kind[c] = (signed char)kind;
        for (int i = 0; i < 3; i++) {
            phi[rows[i]] = pc[i];
            m += pc[i] * pc[i];
        }
    }
    for (int b = 0; b < ws->nb; b++) {
        int k = ws->brow[b];
        phi[k] = ws->rho[k] * u[k];
        m += phi[k] * phi[k];
    }
    return 0.5 * m;
}

/* adds v at column j of the reduced row hrow, or moves it to the right-hand side when row j
   is eliminated (its step is -phi_j) */
static inline void add(const imp_coulomb_workspace *ws, double *hrow, double *rhs, int j, double v)
{
    int pj = ws->pos[j];
    if (pj >= 0) {
        hrow[pj] += v;
    } else {
        *rhs += v * ws->phi[j];
    }
}

static void add_wrow(const imp_coulomb_problem *p, const imp_coulomb_workspace *ws, double *hrow,
                     double *rhs, int row, double coef)
{
    const imp_coulomb_csr *W = &p->W;
    for (int k = W->row_ptr[row]; k < W->row_ptr[row + 1]; k++) add(ws, hrow, rhs, W->col[k], coef * W->val[k]);
}

int imp_coulomb_newton_direction(const imp_coulomb_problem *p, imp_coulomb_workspace *ws, double delta)
{
    int n = p->W.n, m = 0;
    for (int i = 0; i < n; i++) ws->pos[i] = -1;
    /* the rows of the nodes in reverse Cuthill-McKee order (open contacts left out) */
    for (int k = 0; k < ws->nc + ws->nb; k++) {
        int v = ws->order[k];
        if (v < ws->nc) {
            if (ws->kind[v] == 0) continue;
            for (int i = 0; i < 3; i++) ws->pos[ws->crow[3 * v + i]] = m++;
        } else {
            ws->pos[ws->brow[v - ws->nc]] = m++;
        }
    }
    size_t need = (size_t)m * (size_t)m;
    if (need > ws->hcap) return -2; /* the driver grows H */
    /* W given by its factors: the dof-space system (lcp_coulomb_body.c) when the active
       rows touch fewer dofs than there are rows (then it fits H) and no block of it is
       (nearly) singular; the driver reserved the dof scratch */
    const imp_coulomb_factors *fac = p->factors;
    int body = fac != NULL && m > 0 && ws->path != 1 && ws->bz != NULL && fac->ndof <= ws->bcap;
    if (body && imp_coulomb_body_direction(p, ws, delta, m) == 0) {
        ws->body_steps++;
        return 0;
    }
    ws->rows_steps++;
    double *H = ws->H;
    memset(H, 0, need * sizeof(double));
    double hmax = 0.0;
    for (int c = 0; c < ws->nc; c++) {
        if (ws->kind[c] == 0) continue;
        const int *rows = ws->crow + 3 * c;
        const double *A = ws->ja + 9 * c, *B = ws->jb + 9 * c;
        for (int a = 0; a < 3; a++) {
            int k = ws->pos[rows[a]];
            double *hrow = H + (size_t)k * m, rhs = -ws->phi[rows[a]];
            for (int l = 0; l < 3; l++) {
                if (A[3 * a + l] != 0.0) add(ws, hrow, &rhs, rows[l], A[3 * a + l]);
            }
            for (int l = 0; l < 3; l++) {
                if (B[3 * a + l] == 0.0) continue;
                add_wrow(p, ws, hrow, &rhs, rows[l], B[3 * a + l]);
                if (delta > 0.0) add(ws, hrow, &rhs, rows[l], B[3 * a + l] * delta / ws->rho[rows[l]]);
            }
            ws->rhs[k] = rhs;
        }
    }
    for (int b = 0; b < ws->nb; b++) {
        int row = ws->brow[b], k = ws->pos[row];
        double rhs = -ws->phi[row];
        add_wrow(p, ws, H + (size_t)k * m, &rhs, row, ws->rho[row]);
        H[(size_t)k * m + k] += delta;
        ws->rhs[k] = rhs;
    }
    /* the envelope: first and last nonzero column of each row (the diagonal included),
       then the last row reaching each column */
    int *first = ws->qbuf, *lrow = ws->lrow, *ext = ws->ext;
    for (int i = 0; i < m; i++) {
        const double *hr = H + (size_t)i * m;
        int f = 0, e = m - 1;
        while (f < i && hr[f] == 0.0) f++;
        while (e > i && hr[e] == 0.0) e--;
        first[i] = f;
        ext[i] = e;
        lrow[i] = i;
        for (int j = f; j <= e; j++) hmax = fmax(hmax, fabs(hr[j]));
    }
    for (int i = 0; i < m; i++) {
        if (lrow[first[i]] < i) lrow[first[i]] = i;
    }
    for (int k = 1; k < m; k++) {
        if (lrow[k] < lrow[k - 1]) lrow[k] = lrow[k - 1];
    }
#ifdef COULOMB_TRACE
    {
        double sl = 0, su = 0;
        for (int k = 0; k < m; k++) { sl += lrow[k] - k; su += ext[k] - k; }
        fprintf(stderr, "envelope m %d mean lower %.1f mean upper %.1f\n", m, sl / (m ? m : 1), su / (m ? m : 1));
    }
#endif
    if (m > 0 && imp_coulomb_lu_solve(H, m, lrow, ext, ws->rhs, 1e-13 * (hmax > 0.0 ? hmax : 1.0)) != 0) {
        return -1;
    }
    for (int i = 0; i < n; i++) {
        int k = ws->pos[i];
        ws->dr[i] = k >= 0 ? ws->rhs[k] : -ws->phi[i];
    }
    return 0;
}
