/* engine3d_solve.c: the 3D engine's velocity-level contact problem (engine3d.h, step 3).

   Point c between bodies a (sign -1) and b (sign +1): E = [n t1 t2] (columns), on each side
   A = r x E (the columns r x n, r x t1, r x t2) and IA = I^-1 A (world inverse inertia).
   The velocity of b relative to a at c in the contact frame is
       u_c = sum over its sides k of s_k (E^T v_k + A_k^T w_k),
   an impulse r_c (in the frame) changes body k by dv = s_k m^-1 E r_c, dw = s_k IA_k r_c, so
       W_cd = sum over the bodies k the points share of s_ck s_dk (m_k^-1 E_c^T E_d + A_ck^T IA_dk).
   Fixed bodies carry nothing (m^-1 = 0, I^-1 = 0) and link no points.
   "lcp": W in compressed rows, solved by the exact Coulomb solver (lcp_coulomb.h: Newton on
   the Alart-Curnier function, Gauss-Seidel fallback) from the warm start. Cost: the rows'
   assembly O(sum over bodies of points^2), the solve that of lcp_coulomb.
   "pgs": no matrix; sweeps over the points, each solving its normal row then its tangent
   pair against the current velocities and projecting the friction onto the disc
   |r_T| <= mu r_N (circular: isotropic), applied at once to the two bodies. O(points) per
   sweep, pgs_iterations sweeps at most (fewer when no impulse changes by more than 1e-7 of
   the largest). The sweep runs with AVX2 when the processor has it (engine3d_sweep_avx2.c,
   bit-identical to the portable sweep here). Both deterministic: fixed orders, no threads. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine3d.h"
#include "engine3d_sweep.h"
#include "engine3d_joints.h"
#include "resize.h"
#include "world_internal.h"

enum { JAC = 54 };

/* The exact solver's settings per step: Siconos' error at most TOLERANCE, or the best answer
   after MAX_NEWTON Newton iterations and MAX_SWEEPS fallback sweeps (counted in the stats as
   a solve failure); PRESWEEPS matrix-free sweeps first, for its warm start. */
#define TOLERANCE 1e-10
#define MAX_NEWTON 100
#define MAX_SWEEPS 500
#define PRESWEEPS 10
/* The sweeps stop early once no impulse changed by more than this fraction of the largest in
   a sweep (the 2D engine's PGS stops at 1e-7 too). */
#define SWEEP_TOLERANCE 1e-7
/* Above this many rows the Newton systems (LU inside the envelope of W, about rows x
   bandwidth^2 per iteration) cost more than a step should: such problems are solved by the
   sweeps of "pgs" (counted in the stats as exact_skipped). */
#define EXACT_MAX_ROWS 4096  /* per point: side a then side b, each E (9), A (9), IA (9) row-major 3x3 */

/* the sweeps' max without a libm call (operands are finite or the comparison keeps a) */
static inline double larger(double a, double b) { return b > a ? b : a; }
static inline double max0(double a) { return a > 0.0 ? a : 0.0; }

static double *jac(const imp_engine3d *e, int c, int side) { return e->jac + (size_t)c * JAC + 27 * side; }

/* m[i][j] = column j, component i */
static void cross_cols(const double r[3], const double *E, double *A)
{
    for (int j = 0; j < 3; j++) {
        double x = E[0 * 3 + j], y = E[1 * 3 + j], z = E[2 * 3 + j];
        A[0 * 3 + j] = r[1] * z - r[2] * y;
        A[1 * 3 + j] = r[2] * x - r[0] * z;
        A[2 * 3 + j] = r[0] * y - r[1] * x;
    }
}

static void mul33(const double *M, const double *X, double *out)
{
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            out[i * 3 + j] = M[i * 3] * X[j] + M[i * 3 + 1] * X[3 + j] + M[i * 3 + 2] * X[6 + j];
        }
    }
}

/* out += s * (im * Ec^T Ed + Ac^T IAd) */
static void add_block(double s, double im, const double *jc, const double *jd, double *out)
{
    const double *Ec = jc, *Ac = jc + 9, *Ed = jd, *IAd = jd + 18;
    for (int i = 0; i < 3; i++) {
        const double e0 = Ec[i], e1 = Ec[3 + i], e2 = Ec[6 + i];
        const double a0 = Ac[i], a1 = Ac[3 + i], a2 = Ac[6 + i];
        for (int j = 0; j < 3; j++) {
            double lin = e0 * Ed[j] + e1 * Ed[3 + j] + e2 * Ed[6 + j];
            double ang = a0 * IAd[j] + a1 * IAd[3 + j] + a2 * IAd[6 + j];
            out[i * 3 + j] += s * (im * lin + ang);
        }
    }
}

static int dynamic(const imp_world *w, int s) { return s > 0 && !w->model.bodies[s].fixed; }

/* The Jacobian blocks of every active point and the per-body lists. */
static void prepare(imp_world *w, imp_engine3d *e)
{
    for (int s = 0; s < w->model.nslots; s++) {
        e->body_head[s] = -1;
    }
    for (int c = e->npts - 1; c >= 0; c--) {
        const imp_e3_point *p = &e->pts[c];
        if (!p->active) {
            continue;
        }
        for (int side = 0; side < 2; side++) {
            double *J = jac(e, c, side);
            for (int i = 0; i < 3; i++) {
                J[i * 3 + 0] = p->normal[i];
                J[i * 3 + 1] = p->t1[i];
                J[i * 3 + 2] = p->t2[i];
            }
            int s = side == 0 ? p->a : p->b;
            cross_cols(side == 0 ? p->ra : p->rb, J, J + 9);
            mul33(e->inv_iw + 9 * (size_t)s, J + 9, J + 18);
            if (dynamic(w, s)) {  /* push front: lists end up in point order */
                e->pt_next[2 * c + side] = e->body_head[s];
                e->body_head[s] = 2 * c + side;
            }
        }
    }
}

/* The sweeps' forms (no Jacobian blocks: the point's frame and lever arms and the bodies'
   world inverse inertia, a third of the memory per point): u = E^T (v_b + w_b x r_b - v_a -
   w_a x r_a); an impulse dr moves b by (m^-1 P, I^-1 (r_b x P)) with P = E dr, and a by the
   opposite. */
static inline void pt_rel_velocity(const imp_engine3d *e, const imp_e3_point *p, double u[3])
{
    imp_e3_frame_velocity(p->a > 0 ? e->vel + 6 * (size_t)p->a : NULL, e->vel + 6 * (size_t)p->b,
                          p->normal, p->t1, p->t2, p->ra, p->rb, u);
}

/* vel += M^-1 J^T dr for a point in the frame (n, t1, t2) with lever arms ra, rb between the
   slots a and b (-1: a side that does not move) of inverse masses ima, imb */
__attribute__((always_inline))  /* the position pass must not pay a call per point */
static inline void frame_apply(imp_engine3d *e, const double n[3], const double t1[3], const double t2[3],
                               const double ra[3], const double rb[3], int a, int b, double ima,
                               double imb, const double dr[3])
{
    double P[3];
    for (int k = 0; k < 3; k++) {
        P[k] = n[k] * dr[0] + t1[k] * dr[1] + t2[k] * dr[2];
    }
    for (int side = 0; side < 2; side++) {
        int s = side == 0 ? a : b;
        if (s < 0) {
            continue;
        }
        const double *r = side == 0 ? ra : rb, *I = e->inv_iw + 9 * (size_t)s;
        double sg = side == 0 ? -1.0 : 1.0, im = sg * (side == 0 ? ima : imb);
        const double t[3] = {sg * (r[1] * P[2] - r[2] * P[1]), sg * (r[2] * P[0] - r[0] * P[2]),
                             sg * (r[0] * P[1] - r[1] * P[0])};
        double *v = e->vel + 6 * (size_t)s;
        for (int k = 0; k < 3; k++) {
            v[k] += im * P[k];
            v[3 + k] += I[3 * k] * t[0] + I[3 * k + 1] * t[1] + I[3 * k + 2] * t[2];
        }
    }
}

static inline void pt_apply(const imp_world *w, imp_engine3d *e, const imp_e3_point *p, const double dr[3])
{
    int a = dynamic(w, p->a) ? p->a : -1, b = dynamic(w, p->b) ? p->b : -1;
    frame_apply(e, p->normal, p->t1, p->t2, p->ra, p->rb, a, b,
                a >= 0 ? w->model.bodies[a].inv_mass : 0.0, b >= 0 ? w->model.bodies[b].inv_mass : 0.0, dr);
}

/* The entries of W_cc = sum over the point's moving bodies of m^-1 I + (r x E)^T I^-1 (r x E)
   that the sweeps use: W[0] (nn), W[3] (t1 n), W[6] (t2 n), W[4] (t1 t1), W[5] (t1 t2), W[8]
   (t2 t2), row-major; each summed side a then side b, m^-1 first on the diagonal. */
static inline void cross3(const double r[3], const double c[3], double out[3])
{
    out[0] = r[1] * c[2] - r[2] * c[1];
    out[1] = r[2] * c[0] - r[0] * c[2];
    out[2] = r[0] * c[1] - r[1] * c[0];
}

static inline void mul3(const double *I, const double a[3], double out[3])
{
    out[0] = I[0] * a[0] + I[1] * a[1] + I[2] * a[2];
    out[1] = I[3] * a[0] + I[4] * a[1] + I[5] * a[2];
    out[2] = I[6] * a[0] + I[7] * a[1] + I[8] * a[2];
}

static inline double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void pt_diag_block(const imp_world *w, const imp_engine3d *e, const imp_e3_point *p, double W[9])
{
    W[0] = W[3] = W[6] = W[4] = W[5] = W[8] = 0.0;
    for (int side = 0; side < 2; side++) {
        int s = side == 0 ? p->a : p->b;
        if (!dynamic(w, s)) {
            continue;
        }
        const double *r = side == 0 ? p->ra : p->rb, *I = e->inv_iw + 9 * (size_t)s;
        double a0[3], a1[3], a2[3], i0[3], i1[3], i2[3];  /* r x E_j, I^-1 (r x E_j) */
        cross3(r, p->normal, a0);
        cross3(r, p->t1, a1);
        cross3(r, p->t2, a2);
        mul3(I, a0, i0);
        mul3(I, a1, i1);
        mul3(I, a2, i2);
        double im = w->model.bodies[s].inv_mass;
        W[0] += im;
        W[0] += dot3(a0, i0);
        W[3] += dot3(a1, i0);
        W[6] += dot3(a2, i0);
        W[4] += im;
        W[4] += dot3(a1, i1);
        W[5] += dot3(a1, i2);
        W[8] += im;
        W[8] += dot3(a2, i2);
    }
}

static int reserve(imp_engine3d *e, int n)
{
    if (n <= e->rows_cap) {
        return 0;
    }
    int cap = e->rows_cap > 0 ? e->rows_cap : 96;
    while (cap < n) {
        cap *= 2;
    }
    size_t nd = (size_t)cap * sizeof(double);
    if (imp_resize(&e->q, nd) != 0 || imp_resize(&e->mu, nd) != 0 || imp_resize(&e->r, nd) != 0
        || imp_resize(&e->u, nd) != 0 || imp_resize(&e->warm, nd) != 0
        || imp_resize(&e->row_ptr, (size_t)(cap + 1) * sizeof *e->row_ptr) != 0) {
        return -1;
    }
    e->rows_cap = cap;
    return 0;
}

/* A point of the split impulse's position pass (imp_engine3d_push_apart): its frame and lever
   arms, target normal pseudo-velocity, W_nn, pseudo-impulse, the slots whose pseudo-velocities
   it reads (va: -1 for the background) and moves (a, b: -1 for a side that does not move) and
   their 1/m. */
struct imp_e3_push {
    double n[3], t1[3], t2[3], ra[3], rb[3];
    double target, wnn, lambda, ima, imb;
    int va, vb, a, b;
};

static int reserve_points(imp_engine3d *e, int n)
{
    if (n <= e->pts_arrays_cap) {
        return 0;
    }
    size_t need = (size_t)n, ni = need * sizeof(int);
    if (imp_resize(&e->push, need * sizeof *e->push) != 0 || imp_resize(&e->jac, need * JAC * sizeof *e->jac) != 0
        || imp_resize(&e->mark, ni) != 0 || imp_resize(&e->act, ni) != 0 || imp_resize(&e->rowof, ni) != 0
        || imp_resize(&e->nbr, ni) != 0 || imp_resize(&e->pt_next, 2 * ni) != 0) {
        return -1;
    }
    e->pts_arrays_cap = n;
    return 0;
}

static int reserve_nnz(imp_engine3d *e, size_t nnz)
{
    if (nnz <= e->nnz_cap) {
        return 0;
    }
    size_t cap = e->nnz_cap > 0 ? e->nnz_cap : 1024;
    while (cap < nnz) {
        cap *= 2;
    }
    if (imp_resize(&e->col, cap * sizeof *e->col) != 0 || imp_resize(&e->val, cap * sizeof *e->val) != 0) {
        return -1;
    }
    e->nnz_cap = cap;
    return 0;
}

/* The points sharing a moving body with point c (c included), in e->nbr; their count. */
static int neighbours(const imp_world *w, imp_engine3d *e, int c, int stamp)
{
    const imp_e3_point *p = &e->pts[c];
    int count = 0;
    for (int side = 0; side < 2; side++) {
        int s = side == 0 ? p->a : p->b;
        if (!dynamic(w, s)) {
            continue;
        }
        for (int it = e->body_head[s]; it >= 0; it = e->pt_next[it]) {
            int d = it / 2;
            if (e->mark[d] != stamp) {
                e->mark[d] = stamp;
                e->nbr[count++] = d;
            }
        }
    }
    return count;
}

/* W_cd: the sum over the moving bodies c and d share */
static void coupling(const imp_world *w, const imp_engine3d *e, int c, int d, double *blk)
{
    const imp_e3_point *p = &e->pts[c], *q = &e->pts[d];
    memset(blk, 0, 9 * sizeof *blk);
    for (int cs = 0; cs < 2; cs++) {
        int sc = cs == 0 ? p->a : p->b;
        if (!dynamic(w, sc)) {
            continue;
        }
        for (int ds = 0; ds < 2; ds++) {
            if ((ds == 0 ? q->a : q->b) == sc) {
                double sg = (cs == 0 ? -1.0 : 1.0) * (ds == 0 ? -1.0 : 1.0);
                add_block(sg, w->model.bodies[sc].inv_mass, jac(e, c, cs), jac(e, d, ds), blk);
            }
        }
    }
}

static imp_status solve_pgs(imp_world *w, imp_engine3d *e, int nact, const int *act, int sweeps, int warmup);

static int grow_ints(int **p, size_t n) { return imp_resize(p, (n > 0 ? n : 1) * sizeof **p); }

static int grow_doubles(double **p, size_t n) { return imp_resize(p, (n > 0 ? n : 1) * sizeof **p); }

/* W's factors for the exact solver (W = J Minv J^T; its Newton steps then work on the moving
   bodies' 6 dofs each where the rows outnumber them, as redundant flat contacts make them):
   J's rows are the active points' Jacobian rows (12 entries at most: 6 per moving body),
   Minv the moving bodies' 1/m and world inverse inertia. 0, or -1 without memory. */
static int factors(const imp_world *w, imp_engine3d *e, int nact)
{
    int ns = w->model.nslots, n = 3 * nact, nd = 0;
    if (e->fac_slots < ns) {
        if (grow_ints(&e->dof, (size_t)ns) != 0) {
            return -1;
        }
        e->fac_slots = ns;
    }
    for (int s = 0; s < ns; s++) {
        e->dof[s] = dynamic(w, s) && w->model.bodies[s].active ? nd : -1;
        nd += e->dof[s] >= 0 ? 6 : 0;
    }
    if (e->fac_rows < n) {
        if (grow_ints(&e->fj_rp, (size_t)n + 1) != 0 || grow_ints(&e->fj_col, 12 * (size_t)n) != 0
            || grow_doubles(&e->fj_val, 12 * (size_t)n) != 0) {
            return -1;
        }
        e->fac_rows = n;
    }
    if (e->fac_dofs < nd) {
        if (grow_ints(&e->fm_rp, (size_t)nd + 1) != 0 || grow_ints(&e->fm_col, 3 * (size_t)nd) != 0
            || grow_doubles(&e->fm_val, 3 * (size_t)nd) != 0) {
            return -1;
        }
        e->fac_dofs = nd;
    }
    int k = 0;
    for (int i = 0; i < nact; i++) {
        const imp_e3_point *p = &e->pts[e->act[i]];
        for (int j = 0; j < 3; j++) {
            e->fj_rp[3 * i + j] = k;
            for (int side = 0; side < 2; side++) {
                int s = side == 0 ? p->a : p->b;
                if (e->dof[s] < 0) {
                    continue;
                }
                const double *J = jac(e, e->act[i], side);
                double sg = side == 0 ? -1.0 : 1.0;
                for (int c = 0; c < 3; c++) {  /* linear: +-E's column j; angular: +-A's */
                    e->fj_col[k] = e->dof[s] + c;
                    e->fj_val[k++] = sg * J[c * 3 + j];
                }
                for (int c = 0; c < 3; c++) {
                    e->fj_col[k] = e->dof[s] + 3 + c;
                    e->fj_val[k++] = sg * J[9 + c * 3 + j];
                }
            }
        }
    }
    e->fj_rp[n] = k;
    imp_e3_minv_csr(w, e, e->dof, ns, nd, e->fm_rp, e->fm_col, e->fm_val);
    e->fac.ndof = nd;
    e->fac.J = (imp_coulomb_csr){.n = n, .row_ptr = e->fj_rp, .col = e->fj_col, .val = e->fj_val};
    e->fac.Minv = (imp_coulomb_csr){.n = nd, .row_ptr = e->fm_rp, .col = e->fm_col, .val = e->fm_val};
    return 0;
}

void imp_e3_minv_csr(const imp_world *w, const imp_engine3d *e, const int *dof, int ns, int nd,
                     int *rp, int *col, double *val)
{
    int k = 0;
    for (int s = 0; s < ns; s++) {
        int d = dof[s];
        if (d < 0) {
            continue;
        }
        for (int c = 0; c < 3; c++) {  /* 1/m on the linear dofs */
            rp[d + c] = k;
            col[k] = d + c;
            val[k++] = w->model.bodies[s].inv_mass;
        }
        for (int r = 0; r < 3; r++) {  /* the world inverse inertia on the angular ones */
            rp[d + 3 + r] = k;
            for (int c = 0; c < 3; c++) {
                col[k] = d + 3 + c;
                val[k++] = e->inv_iw[9 * (size_t)s + 3 * r + c];
            }
        }
    }
    rp[nd] = k;
}

static imp_status solve_exact(imp_world *w, imp_engine3d *e, int nact, char *why, size_t why_len)
{
    /* a few sweeps improve the warm start (Newton then needs a few iterations where it
       needed tens from the last step's impulses); the velocities are put back */
    size_t nv = 6 * (size_t)w->model.nslots;
    memcpy(e->vel_save, e->vel, nv * sizeof *e->vel);
    solve_pgs(w, e, nact, e->act, PRESWEEPS, 1);
    memcpy(e->vel, e->vel_save, nv * sizeof *e->vel);
    const int *act = e->act;
    int n = 3 * nact;
    if (reserve(e, n > 0 ? n : 1) != 0) {  /* (none: joints alone) */
        return IMP_ERR_NOMEM;
    }
    for (int c = 0; c < e->npts; c++) {
        e->rowof[c] = -1;
        e->mark[c] = -1;
    }
    for (int i = 0; i < nact; i++) {
        e->rowof[act[i]] = i;
    }
    size_t k = 0;
    double blk[9];
    for (int i = 0; i < nact; i++) {
        int c = act[i];
        int count = neighbours(w, e, c, i);
        if (reserve_nnz(e, k + 9 * (size_t)count) != 0) {
            return IMP_ERR_NOMEM;
        }
        for (int r = 0; r < 3; r++) {
            e->row_ptr[3 * i + r] = (int)(k + (size_t)r * 3 * (size_t)count);
        }
        for (int j = 0; j < count; j++) {
            int d = e->nbr[j];
            coupling(w, e, c, d, blk);
            for (int r = 0; r < 3; r++) {
                for (int m = 0; m < 3; m++) {
                    size_t idx = k + (size_t)r * 3 * (size_t)count + (size_t)j * 3 + (size_t)m;
                    e->col[idx] = 3 * e->rowof[d] + m;
                    e->val[idx] = blk[r * 3 + m];
                }
            }
        }
        k += 9 * (size_t)count;
    }
    e->row_ptr[n] = (int)k;
    for (int i = 0; i < nact; i++) {
        int c = act[i];
        double u[3];
        pt_rel_velocity(e, &e->pts[c], u);
        e->q[3 * i] = u[0] + e->pts[c].bias;
        e->q[3 * i + 1] = u[1];
        e->q[3 * i + 2] = u[2];
        e->mu[i] = e->pts[c].mu;
        memcpy(e->warm + 3 * i, e->pts[c].r, 3 * sizeof(double));
    }
    if (e->ws == NULL && (e->ws = imp_coulomb_workspace_create(n)) == NULL) {
        return IMP_ERR_NOMEM;
    }
    if (!imp_e3_joints_armed(e) && factors(w, e, nact) != 0) {  /* (joints: W alone) */
        return IMP_ERR_NOMEM;
    }
    imp_coulomb_problem prob = {.W = {.n = n, .row_ptr = e->row_ptr, .col = e->col, .val = e->val},
                                .q = e->q, .mu = e->mu, .bilateral = NULL, .factors = &e->fac};
    imp_coulomb_options opt;
    imp_coulomb_default_options(&opt);
    opt.tolerance = TOLERANCE;
    opt.warm_start = e->warm;
    opt.max_iterations = MAX_NEWTON;
    opt.max_sweeps = MAX_SWEEPS;
    imp_coulomb_info info;
    imp_coulomb_status st = imp_e3_joints_armed(e)  /* joints: their rows join the problem */
                                ? imp_e3_joints_solve_exact(w, e, nact, &prob, &opt, &info)
                                : imp_coulomb_solve(&prob, &opt, e->ws, e->r, e->u, &info);
    e->stats.solves++;
    e->stats.sweeps += info.sweeps;
    e->stats.newton_iterations += info.iterations;
    e->stats.last_error = info.error;
    if (st == IMP_COULOMB_NO_MEMORY) {
        return IMP_ERR_NOMEM;
    }
    if (st == IMP_COULOMB_BAD_INPUT) {
        snprintf(why, why_len, "the contact problem of %d points%s is not valid (%s)", nact,
                 imp_e3_joints_armed(e) ? " and the joints' rows" : "", info.message);
        e->failed_a = nact > 0 ? e->pts[act[0]].a : -1;  /* (none: joints alone) */
        e->failed_b = nact > 0 ? e->pts[act[0]].b : -1;
        return IMP_ERR_SOLVER;
    }
    if (st != IMP_COULOMB_OK) {
        e->stats.solve_failures++;
    }
    for (int i = 0; i < nact; i++) {
        int c = act[i];
        memcpy(e->pts[c].r, e->r + 3 * i, 3 * sizeof(double));
        pt_apply(w, e, &e->pts[c], e->r + 3 * i);
    }
    return IMP_OK;
}

/* The projection of x = (x_N, x_T) on the cone |x_T| <= mu x_N. */
static void project_cone(const double x[3], double mu, double out[3])
{
    double t = sqrt(x[1] * x[1] + x[2] * x[2]);
    if (t <= mu * x[0]) {
        out[0] = x[0], out[1] = x[1], out[2] = x[2];
    } else if (mu * t <= -x[0]) {
        out[0] = out[1] = out[2] = 0.0;
    } else {
        double n = (x[0] + mu * t) / (1.0 + mu * mu);
        out[0] = n;
        out[1] = mu * n * x[1] / t;
        out[2] = mu * n * x[2] / t;
    }
}

/* Siconos' error of the sweeps' answer (lcp_coulomb.h's measure), matrix-free: u = J v1 + b
   from the velocities, sqrt(sum |r - P_K(r - u - mu |u_T| e_N)|^2) / max(|q|, |r|, |u|). */
static double sweeps_error(const imp_engine3d *e, int nact, const int *act, double q2)
{
    double num = 0.0, r2 = 0.0, u2 = 0.0;
    for (int i = 0; i < nact; i++) {
        const imp_e3_point *p = &e->pts[act[i]];
        double u[3], x[3], pk[3];
        pt_rel_velocity(e, p, u);
        u[0] += p->bias;
        double ut = sqrt(u[1] * u[1] + u[2] * u[2]);
        x[0] = p->r[0] - u[0] - p->mu * ut;
        x[1] = p->r[1] - u[1];
        x[2] = p->r[2] - u[2];
        project_cone(x, p->mu, pk);
        for (int k = 0; k < 3; k++) {
            num += (p->r[k] - pk[k]) * (p->r[k] - pk[k]);
            r2 += p->r[k] * p->r[k];
            u2 += u[k] * u[k];
        }
    }
    double den = sqrt(fmax(q2, fmax(r2, u2)));
    return den > 1e-300 ? sqrt(num) / den : sqrt(num);
}

/* the rows' runs: each pair's first row holds how many rows the pair has */
static void mark_runs(struct imp_e3_row *rows, int n)
{
    for (int i = 0; i < n;) {
        int end = i + 1;
        while (end < n && rows[end].a == rows[i].a && rows[end].b == rows[i].b) {
            rows[end++].run = 0;
        }
        rows[i].run = end - i;
        i = end;
    }
}

/* The rows of the active points act. With e->rows_keep (the same points as the last solve,
   moved with their bodies within the step) the diagonal blocks stay those of the step's first
   sub-step: they only scale each row's correction (the sweeps' fixed point, u_N + b_N = 0 or
   r_N = 0 and the friction law, uses the current lever arms and inertia), as Box2D v3 keeps
   its effective masses over a step's sub-steps. */
static inline int rows_kept(const imp_engine3d *e, int nact) { return e->rows_keep && e->rows_n == nact; }

/* the kept rows from..to-1: what changed since the last solve (lever arms, warm starts, b_N) */
static void refresh_rows(imp_engine3d *e, const int *act, int from, int to)
{
    for (int i = from; i < to; i++) {
        const imp_e3_point *p = &e->pts[act[i]];
        struct imp_e3_row *q = &e->rows[i];
        memcpy(q->ra, p->ra, 3 * sizeof(double));
        memcpy(q->rb, p->rb, 3 * sizeof(double));
        memcpy(q->r, p->r, sizeof q->r);
        q->bias = p->bias;
    }
}

static int pack_rows(const imp_world *w, imp_engine3d *e, int nact, const int *act)
{
    if (rows_kept(e, nact)) {
        refresh_rows(e, act, 0, nact);
        return 0;
    }
    e->rows_n = nact;
    if (e->rows_cap_pgs < nact) {
        struct imp_e3_row *rw = realloc(e->rows, (size_t)(nact > 0 ? nact : 1) * sizeof *rw);
        if (rw == NULL) {
            return -1;
        }
        e->rows = rw;
        e->rows_cap_pgs = nact;
    }
    for (int i = 0; i < nact; i++) {
        const imp_e3_point *p = &e->pts[act[i]];
        struct imp_e3_row *q = &e->rows[i];
        double W[9];
        pt_diag_block(w, e, p, W);
        for (int k = 0; k < 3; k++) {
            q->n[k] = p->normal[k];
            q->t1[k] = p->t1[k];
            q->t2[k] = p->t2[k];
            q->ra[k] = p->ra[k];
            q->rb[k] = p->rb[k];
        }
        double *erow[3] = {q->e0, q->e1, q->e2};
        for (int k = 0; k < 3; k++) {
            erow[k][0] = p->normal[k];
            erow[k][1] = p->t1[k];
            erow[k][2] = p->t2[k];
            erow[k][3] = 0.0;
        }
        q->n[3] = q->t1[3] = q->t2[3] = q->ra[3] = q->rb[3] = 0.0;
        memcpy(q->r, p->r, sizeof q->r);
        q->bias = p->bias;
        q->mu = p->mu;
        q->wnn = W[0];
        q->inv_nn = W[0] > 0.0 ? 1.0 / W[0] : 0.0;
        q->w1n = W[3];
        q->w2n = W[6];
        double det = W[4] * W[8] - W[5] * W[5];
        q->x11 = det > 0.0 ? W[8] / det : 0.0;
        q->x12 = det > 0.0 ? -W[5] / det : 0.0;
        q->x22 = det > 0.0 ? W[4] / det : 0.0;
        q->a = dynamic(w, p->a) ? p->a : -1;
        q->b = dynamic(w, p->b) ? p->b : -1;
        q->ima = q->a >= 0 ? w->model.bodies[p->a].inv_mass : 0.0;
        q->imb = q->b >= 0 ? w->model.bodies[p->b].inv_mass : 0.0;
    }
    mark_runs(e->rows, nact);
    return 0;
}

static inline void row_velocity(const imp_engine3d *e, const struct imp_e3_row *q, double u[3])
{
    imp_e3_frame_velocity(q->a >= 0 ? e->vel + 6 * (size_t)q->a : NULL,
                          q->b >= 0 ? e->vel + 6 * (size_t)q->b : NULL, q->n, q->t1, q->t2, q->ra, q->rb, u);
}

/* vel += M^-1 J^T dr for row q between the bodies of velocities va, vb and world inverse
   inertia Ia, Ib (frame_apply's arithmetic, in the same order); a side that does not move is
   left alone */
__attribute__((always_inline))  /* the sweep must not pay a call per row */
static inline void run_apply(double *restrict va, double *restrict vb, const double *Ia, const double *Ib,
                             int a_moves, int b_moves, const struct imp_e3_row *q, double dr0, double dr1,
                             double dr2)
{
    const double *ra = q->ra, *rb = q->rb;
    double P0 = q->n[0] * dr0 + q->t1[0] * dr1 + q->t2[0] * dr2;
    double P1 = q->n[1] * dr0 + q->t1[1] * dr1 + q->t2[1] * dr2;
    double P2 = q->n[2] * dr0 + q->t1[2] * dr1 + q->t2[2] * dr2;
    if (a_moves) {
        double im = -1.0 * q->ima;
        double t0 = -1.0 * (ra[1] * P2 - ra[2] * P1), t1 = -1.0 * (ra[2] * P0 - ra[0] * P2),
               t2 = -1.0 * (ra[0] * P1 - ra[1] * P0);
        va[0] += im * P0;
        va[3] += Ia[0] * t0 + Ia[1] * t1 + Ia[2] * t2;
        va[1] += im * P1;
        va[4] += Ia[3] * t0 + Ia[4] * t1 + Ia[5] * t2;
        va[2] += im * P2;
        va[5] += Ia[6] * t0 + Ia[7] * t1 + Ia[8] * t2;
    }
    if (b_moves) {
        double im = q->imb;
        double t0 = rb[1] * P2 - rb[2] * P1, t1 = rb[2] * P0 - rb[0] * P2, t2 = rb[0] * P1 - rb[1] * P0;
        vb[0] += im * P0;
        vb[3] += Ib[0] * t0 + Ib[1] * t1 + Ib[2] * t2;
        vb[1] += im * P1;
        vb[4] += Ib[3] * t0 + Ib[4] * t1 + Ib[5] * t2;
        vb[2] += im * P2;
        vb[5] += Ib[6] * t0 + Ib[7] * t1 + Ib[8] * t2;
    }
}

/* The warm start of the n rows of one body pair: each row's impulse applied (row_apply) */
static void warm_run(imp_engine3d *e, const struct imp_e3_row *rows, int n)
{
    int a = rows[0].a, b = rows[0].b;
    if (a < 0 && b < 0) {
        return;
    }
    double *va = a >= 0 ? e->vel + 6 * (size_t)a : NULL, *vb = b >= 0 ? e->vel + 6 * (size_t)b : NULL;
    const double *Ia = a >= 0 ? e->inv_iw + 9 * (size_t)a : NULL, *Ib = b >= 0 ? e->inv_iw + 9 * (size_t)b : NULL;
    for (int i = 0; i < n; i++) {
        const struct imp_e3_row *q = &rows[i];
        run_apply(va, vb, Ia, Ib, a >= 0, b >= 0, q, q->r[0], q->r[1], q->r[2]);
    }
}

/* One sweep over the n rows of one body pair (they share the slots a and b): each row's
   normal then its tangent pair against the current velocities, the friction projected on the
   disc, the change applied at once to both bodies (frame_apply's arithmetic, in the same
   order), the bodies' velocities kept in locals for the run. */
static void sweep_run(imp_engine3d *e, struct imp_e3_row *rows, int n, double *change_io, double *largest_io)
{
    static const double zero9[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    int a = rows[0].a, b = rows[0].b;
    double zero_a[6] = {0, 0, 0, 0, 0, 0}, zero_b[6] = {0, 0, 0, 0, 0, 0};
    double *restrict va = a >= 0 ? e->vel + 6 * (size_t)a : zero_a;
    double *restrict vb = b >= 0 ? e->vel + 6 * (size_t)b : zero_b;
    const double *Ia = a >= 0 ? e->inv_iw + 9 * (size_t)a : zero9;
    const double *Ib = b >= 0 ? e->inv_iw + 9 * (size_t)b : zero9;
    double change = *change_io, largest = *largest_io;
    for (int i = 0; i < n; i++) {
        struct imp_e3_row *q = &rows[i];
        const double *ra = q->ra, *rb = q->rb;
        /* imp_e3_frame_velocity */
        double d0 = vb[0] + vb[4] * rb[2] - vb[5] * rb[1];
        double d1 = vb[1] + vb[5] * rb[0] - vb[3] * rb[2];
        double d2 = vb[2] + vb[3] * rb[1] - vb[4] * rb[0];
        if (a >= 0) {
            d0 -= va[0] + va[4] * ra[2] - va[5] * ra[1];
            d1 -= va[1] + va[5] * ra[0] - va[3] * ra[2];
            d2 -= va[2] + va[3] * ra[1] - va[4] * ra[0];
        }
        double u0 = q->n[0] * d0 + q->n[1] * d1 + q->n[2] * d2;
        double u1 = q->t1[0] * d0 + q->t1[1] * d1 + q->t1[2] * d2;
        double u2 = q->t2[0] * d0 + q->t2[1] * d1 + q->t2[2] * d2;
        double dr[3];
        if (!imp_e3_row_update(q, u0, u1, u2, dr)) {
            continue;
        }
        const double dr0 = dr[0], dr1 = dr[1], dr2 = dr[2];
        run_apply(va, vb, Ia, Ib, a >= 0, b >= 0, q, dr0, dr1, dr2);
        change = larger(change, fabs(dr0) + fabs(dr1) + fabs(dr2));
        largest = larger(largest, q->r[0]);
    }
    *change_io = change;
    *largest_io = largest;
}

/* The sweeps' AVX2 path (engine3d_sweep_avx2.c): bit-identical to the portable one, used when
   the processor has AVX2 and IMPACT_E3_SIMD=0 is not in the environment. set: 0 forces the
   portable path, 1 asks for AVX2 (when available), -1 leaves it; returns the path in use. */
int imp_e3_simd_env(void)
{
    const char *env = getenv("IMPACT_E3_SIMD");
    return env == NULL ? -1 : strcmp(env, "0") == 0 ? 0 : strcmp(env, "2") == 0 ? 2 : -1;
}

int imp_e3_sweep_simd(int set)
{
    static int mode = -1;
#if defined(IMP_E3_HAVE_AVX2)
    if (mode < 0 || set >= 0) {
        int want = set >= 0 ? set : imp_e3_simd_env() != 0;
        mode = want && imp_e3_avx2_supported();
    }
#else
    (void)set;
    mode = 0;
#endif
    return mode;
}

/* warmup: the exact solver's warm-up sweeps (not counted as a solve, no error) */
static imp_status solve_pgs(imp_world *w, imp_engine3d *e, int nact, const int *act, int sweeps, int warmup)
{
    /* |q| (u at v*, for the error), then the warm start */
    int measure = !warmup && !e->skip_error;
    /* kept rows with no |q| to take: each run refreshed then warm-started at once, in one
       pass (the same operations in the same order as a refresh pass then a warm-start pass) */
    int fused = !measure && rows_kept(e, nact);
    if (!fused && pack_rows(w, e, nact, act) != 0) {
        return IMP_ERR_NOMEM;
    }
    struct imp_e3_row *rows = e->rows;
    double q2 = 0.0;
    for (int i = 0; i < nact && measure; i++) {
        double u[3];
        row_velocity(e, &rows[i], u);
        u[0] += rows[i].bias;
        q2 += u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    }
    int done = 0, simd = imp_e3_sweep_simd(-1);
    if (fused) {
        for (int i = 0; i < nact; i += rows[i].run) {
            refresh_rows(e, act, i, i + rows[i].run);
            if (simd) {
#if defined(IMP_E3_HAVE_AVX2)
                imp_e3_warm_avx2(e->vel, e->inv_iw, rows + i, rows[i].run);
#endif
            } else {
                warm_run(e, rows + i, rows[i].run);
            }
        }
    } else if (simd) {
#if defined(IMP_E3_HAVE_AVX2)
        imp_e3_warm_avx2(e->vel, e->inv_iw, rows, nact);
#endif
    } else {
        for (int i = 0; i < nact; i += rows[i].run) {
            warm_run(e, rows + i, rows[i].run);
        }
    }
    int joints = !warmup && imp_e3_joints_armed(e);
    if (joints) {  /* the joints' warm starts (engine3d_joints.h) */
        imp_e3_joints_warm(w, e);
    }
    for (int sw = 0; sw < sweeps && !done; sw++) {
        double change = 0.0, largest = 0.0;
        if (simd) {
#if defined(IMP_E3_HAVE_AVX2)
            imp_e3_sweep_avx2(e->vel, e->inv_iw, rows, nact, &change, &largest);
#endif
        } else {
            for (int i = 0; i < nact; i += rows[i].run) {  /* a pair's points in a row */
                sweep_run(e, rows + i, rows[i].run, &change, &largest);
            }
        }
        if (joints) {  /* the joints' rows, in the same sweep */
            imp_e3_joints_sweep(w, e, &change, &largest);
        }
        e->stats.sweeps += !warmup;
        done = change <= SWEEP_TOLERANCE * largest;
    }
    for (int i = 0; i < nact; i++) {
        memcpy(e->pts[act[i]].r, rows[i].r, 3 * sizeof(double));
    }
    if (!warmup) {
        e->stats.solves++;
        if (measure) {
            e->stats.last_error = sweeps_error(e, nact, act, q2);
        }
    }
    return IMP_OK;
}

imp_status imp_engine3d_solve(imp_world *w, imp_engine3d *e, char *why, size_t why_len)
{
    if (reserve_points(e, e->npts) != 0) {
        return IMP_ERR_NOMEM;
    }
    int nact = 0;
    for (int c = 0; c < e->npts; c++) {
        if (e->pts[c].active) {
            e->act[nact++] = c;
        }
    }
    e->nact = nact;
    if (nact == 0 && !imp_e3_joints_armed(e)) {
        return IMP_OK;
    }
    if (w->model.def.engine2d.contact_solver == IMP_SOLVER_PGS || 3 * nact > EXACT_MAX_ROWS) {
        e->stats.exact_skipped += w->model.def.engine2d.contact_solver != IMP_SOLVER_PGS;
        return solve_pgs(w, e, nact, e->act, w->model.def.engine2d.pgs_iterations, 0);
    }
    prepare(w, e);  /* the Jacobian blocks of W's rows and factors */
    return solve_exact(w, e, nact, why, why_len);
}

/* Split impulse (engine3d.h): pseudo-impulses lambda >= 0 on the normals of the points of the
   last solve that penetrate deeper than slop, by projected Gauss-Seidel on pseudo-velocities
   pv (zero at the start) so that J_N pv >= beta (-d - slop) / h; pv moves the positions of
   this step only, never the velocities, so pushing bodies apart adds no kinetic energy (the
   velocity problem itself only stops the approach: u_N >= 0). O(points) per sweep. */
void imp_engine3d_push_apart(imp_world *w, imp_engine3d *e, double h, double slop, double beta, int sweeps)
{
    memset(e->pvel, 0, 6 * (size_t)w->model.nslots * sizeof *e->pvel);
    /* the points the sweeps work on, in act's order, packed with what they read (one pass over
       the points: the sweeps then stay in these few lines, not in the whole list) */
    int n = 0;
    for (int i = 0; i < e->nact; i++) {
        const imp_e3_point *p = &e->pts[e->act[i]];
        double wnn = e->rows[i].wnn;  /* the rows of the last solve: act's order */
        if (!(p->distance < -slop) || !(wnn > 0.0)) {
            continue;
        }
        struct imp_e3_push *q = &e->push[n++];
        memcpy(q->n, p->normal, sizeof q->n);
        memcpy(q->t1, p->t1, sizeof q->t1);
        memcpy(q->t2, p->t2, sizeof q->t2);
        memcpy(q->ra, p->ra, sizeof q->ra);
        memcpy(q->rb, p->rb, sizeof q->rb);
        q->target = beta * (-p->distance - slop) / h;
        q->wnn = wnn;
        q->lambda = 0.0;
        q->va = p->a > 0 ? p->a : -1;  /* pt_rel_velocity's sides */
        q->vb = p->b;
        q->a = dynamic(w, p->a) ? p->a : -1;  /* pt_apply's */
        q->b = dynamic(w, p->b) ? p->b : -1;
        q->ima = q->a >= 0 ? w->model.bodies[q->a].inv_mass : 0.0;
        q->imb = q->b >= 0 ? w->model.bodies[q->b].inv_mass : 0.0;
    }
    if (n == 0) {
        return;
    }
    double *vel = e->vel;
    e->vel = e->pvel;  /* the velocities and the impulses' changes are the pseudo-velocities */
    for (int sw = 0; sw < sweeps; sw++) {
        double change = 0.0, largest = 0.0;
        for (int k = 0; k < n; k++) {
            struct imp_e3_push *q = &e->push[k];
            double u[3];
            imp_e3_frame_velocity(q->va >= 0 ? e->vel + 6 * (size_t)q->va : NULL, e->vel + 6 * (size_t)q->vb, q->n,
                                  q->t1, q->t2, q->ra, q->rb, u);
            double l = max0(q->lambda + (q->target - u[0]) / q->wnn);
            double dr[3] = {l - q->lambda, 0.0, 0.0};
            q->lambda = l;
            frame_apply(e, q->n, q->t1, q->t2, q->ra, q->rb, q->a, q->b, q->ima, q->imb, dr);
            change = larger(change, fabs(dr[0]));
            largest = larger(largest, l);
        }
        if (change <= 1e-12 * largest) {
            break;
        }
    }
    e->vel = vel;
}
