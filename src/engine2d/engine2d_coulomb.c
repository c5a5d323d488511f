/* engine2d_coulomb.c: the 2D engine's frictional contact rows solved by the exact Coulomb
   solver of impact/coulomb.h (semismooth Newton on the Alart-Curnier function, the true cone,
   robust to coincident points and redundant rows), where Baraff's pivoting gives up.

   A 2D contact is the 3D problem with one tangent: each unilateral normal row i becomes the
   block (N, T, T2), T its friction row (or a decoupled row when it has none: mu = 0), T2 a
   decoupled row (its W row and column zero but a unit diagonal, q = 0). A decoupled row's
   force is 0 in every solution: sticking asks u_T2 = r_T2 = 0, sliding u_T2 = -lambda r_T2,
   so r_T2 (1 + lambda) = 0. The one-tangent cone |r_T| <= mu r_N with u_T = 0 inside and
   u_T <= 0 at +mu r_N (>= 0 at -mu r_N) is the engine's friction row (lcp.h's static friction
   rows), so the two problems have the same solutions. Bilateral rows stay bilateral. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <impact/coulomb.h>

#include "engine2d.h"
#include "world_internal.h"
#include "resize.h"

struct imp_e2_coulomb {
    imp_coulomb_workspace *ws;
    int cap_rows;   /* rows of the 3-row problem the arrays hold */
    long cap_nnz;
    int *map;       /* engine row -> problem row (cap_rows, engine rows <= problem rows) */
    int *src;       /* problem row -> engine row, or -1 (decoupled) */
    int *row_ptr, *col;
    double *val, *q, *mu, *r, *u, *warm;
    unsigned char *bil;
    /* W's factors J M^-1 J^T (coulomb.h's dof-space path): 3 dofs per movable body, then
       one of unit inverse mass per decoupled row (its J row a unit there), so W = J M^-1 J^T
       holds exactly */
    int *dof, dof_cap;          /* slot -> first dof, or -1 */
    int *jrp, *jcol, *mrp, *mcol;
    double *jval, *mval;
    int jcap;                   /* rows (6 J entries each; 1 M^-1 entry per dof, <= rows + 3 slots) */
};

void imp_engine2d_coulomb_free(struct imp_e2_coulomb *c)
{
    if (c == NULL) {
        return;
    }
    imp_coulomb_workspace_destroy(c->ws);
    free(c->map);
    free(c->src);
    free(c->row_ptr);
    free(c->col);
    free(c->val);
    free(c->q);
    free(c->mu);
    free(c->r);
    free(c->u);
    free(c->warm);
    free(c->bil);
    free(c->dof);
    free(c->jrp);
    free(c->jcol);
    free(c->mrp);
    free(c->mcol);
    free(c->jval);
    free(c->mval);
    free(c);
}

static int grow(void **p, size_t count, size_t size)
{
    return imp_resize(p, (count > 0 ? count : 1) * size);
}

static int reserve_factors(struct imp_e2_coulomb *c, int rows, int nslots)
{
    if (nslots > c->dof_cap) {
        if (grow((void **)&c->dof, (size_t)nslots, sizeof(int))) {
            return -1;
        }
        c->dof_cap = nslots;
    }
    int k = rows + 3 * nslots + 1;
    if (k > c->jcap) {
        size_t z = (size_t)k;
        if (grow((void **)&c->jrp, z + 1, sizeof(int)) || grow((void **)&c->jcol, 6 * z, sizeof(int))
            || grow((void **)&c->jval, 6 * z, sizeof(double)) || grow((void **)&c->mrp, z + 1, sizeof(int))
            || grow((void **)&c->mcol, z, sizeof(int)) || grow((void **)&c->mval, z, sizeof(double))) {
            return -1;
        }
        c->jcap = k;
    }
    return 0;
}

/* J and M^-1 of the problem's rows into c (after map/src are set); the dof count */
static int build_factors(imp_world *w, struct imp_e2_coulomb *c, int rows)
{
    const imp_engine2d *e = w->engine2d;
    int nd = 0;
    for (int b = 0; b < w->model.nslots; b++) {
        c->dof[b] = -1;
        const imp_body *bd = &w->model.bodies[b];
        if (b != 0 && !bd->fixed) {
            c->dof[b] = nd;
            c->mrp[nd] = nd;
            c->mcol[nd] = nd;
            c->mval[nd++] = bd->inv_mass;
            c->mrp[nd] = nd;
            c->mcol[nd] = nd;
            c->mval[nd++] = bd->inv_mass;
            c->mrp[nd] = nd;
            c->mcol[nd] = nd;
            c->mval[nd++] = bd->inv_inertia.m[2][2];
        }
    }
    int k = 0;
    for (int r = 0; r < rows; r++) {
        c->jrp[r] = k;
        int s = c->src[r];
        if (s < 0) {
            c->jcol[k] = nd;
            c->jval[k++] = 1.0;
            c->mrp[nd] = nd;
            c->mcol[nd] = nd;
            c->mval[nd++] = 1.0;
            continue;
        }
        const imp_rec2d *rc = &e->rec[s];
        const int sl[2] = {rc->p, rc->q};
        const double *jr[2] = {rc->jp, rc->jq};
        for (int u = 0; u < 2; u++) {  /* (as imp_engine2d_build_A: a body twice counts once) */
            int d0 = sl[u] > 0 ? c->dof[sl[u]] : -1;
            if (d0 < 0 || (u == 1 && sl[1] == sl[0])) {
                continue;
            }
            for (int x = 0; x < 3; x++) {
                if (jr[u][x] != 0.0) {
                    c->jcol[k] = d0 + x;
                    c->jval[k++] = jr[u][x];
                }
            }
        }
    }
    c->jrp[rows] = k;
    c->mrp[nd] = nd;
    return nd;
}

static int reserve(struct imp_e2_coulomb *c, int rows, long nnz)
{
    if (rows > c->cap_rows) {
        size_t k = (size_t)rows;
        if (grow((void **)&c->map, k, sizeof(int)) || grow((void **)&c->src, k, sizeof(int))
            || grow((void **)&c->row_ptr, k + 1, sizeof(int)) || grow((void **)&c->q, k, sizeof(double))
            || grow((void **)&c->mu, k, sizeof(double)) || grow((void **)&c->r, k, sizeof(double))
            || grow((void **)&c->u, k, sizeof(double)) || grow((void **)&c->warm, k, sizeof(double))
            || grow((void **)&c->bil, k, 1)) {
            return -1;
        }
        c->cap_rows = rows;
    }
    if (nnz > c->cap_nnz) {
        if (grow((void **)&c->col, (size_t)nnz, sizeof(int)) || grow((void **)&c->val, (size_t)nnz, sizeof(double))) {
            return -1;
        }
        c->cap_nnz = nnz;
    }
    if (c->ws == NULL) {
        c->ws = imp_coulomb_workspace_create(rows);
        if (c->ws == NULL) {
            return -1;
        }
    } else if (imp_coulomb_workspace_reserve(c->ws, rows) != IMP_OK) {
        return -1;
    }
    return 0;
}

int imp_engine2d_coulomb(struct imp_world *w, int n, int m, double *f, const double *warm,
                         imp_e2_coulomb_info *out)
{
    imp_engine2d *e = w->engine2d;
    if (e->coulomb == NULL) {
        e->coulomb = calloc(1, sizeof *e->coulomb);
        if (e->coulomb == NULL) {
            return -1;
        }
    }
    struct imp_e2_coulomb *c = e->coulomb;
    /* rows of the problem: a bilateral row is one, a unilateral normal row three */
    int rows = 0;
    for (int i = 0; i < m; i++) {
        rows += e->bil[i] ? 1 : 3;
    }
    long nnz = 0;
    const double *A = e->A;
    for (int i = 0; i < n; i++) {
        const double *Ai = A + (size_t)i * (size_t)n;
        for (int k = 0; k < n; k++) {
            nnz += Ai[k] != 0.0;
        }
    }
    nnz += rows;  /* the decoupled rows' diagonals */
    if (reserve(c, rows > n ? rows : n, nnz) != 0) {
        return -1;
    }
    int p = 0, nc = 0;
    for (int i = 0; i < m; i++) {
        c->map[i] = p;
        c->src[p] = i;
        if (e->bil[i]) {
            c->bil[p++] = 1;
            continue;
        }
        c->mu[nc++] = 0.0;
        c->bil[p] = c->bil[p + 1] = c->bil[p + 2] = 0;
        c->src[p + 1] = c->src[p + 2] = -1;
        p += 3;
    }
    for (int i = m; i < n; i++) {  /* friction rows: the normal's first tangent */
        int k = e->fric_normal[i];
        c->map[i] = c->map[k] + 1;
        c->src[c->map[k] + 1] = i;
    }
    nc = 0;
    for (int i = 0; i < m; i++) {
        if (!e->bil[i]) {
            int t = c->src[c->map[i] + 1];
            c->mu[nc++] = t >= 0 ? e->mu[t] : 0.0;
        }
    }
    long k = 0;
    for (int r = 0; r < rows; r++) {
        c->row_ptr[r] = (int)k;
        int s = c->src[r];
        if (s < 0) {
            c->col[k] = r;
            c->val[k++] = 1.0;
            c->q[r] = 0.0;
            c->warm[r] = 0.0;
            continue;
        }
        const double *As = A + (size_t)s * (size_t)n;
        for (int j = 0; j < n; j++) {
            if (As[j] != 0.0) {
                c->col[k] = c->map[j];
                c->val[k++] = As[j];
            }
        }
        c->q[r] = e->b[s];
        c->warm[r] = warm != NULL ? warm[s] : 0.0;
    }
    c->row_ptr[rows] = (int)k;
    if (reserve_factors(c, rows, w->model.nslots) != 0) {
        return -1;
    }
    int nd = build_factors(w, c, rows);
    imp_coulomb_factors fac = {.ndof = nd,
                               .J = {.n = rows, .row_ptr = c->jrp, .col = c->jcol, .val = c->jval},
                               .Minv = {.n = nd, .row_ptr = c->mrp, .col = c->mcol, .val = c->mval}};
    imp_coulomb_problem prob = {.W = {.n = rows, .row_ptr = c->row_ptr, .col = c->col, .val = c->val},
                                .q = c->q, .mu = c->mu, .bilateral = c->bil,
                                .factors = out->no_factors ? NULL : &fac};
    imp_coulomb_options opt;
    imp_coulomb_default_options(&opt);
    opt.max_iterations = out->max_iterations;
    opt.max_sweeps = out->max_sweeps;
    opt.tolerance = out->tolerance > 0.0 ? out->tolerance : 1e-10;
    opt.warm_start = warm != NULL ? c->warm : NULL;
    imp_coulomb_info info;
    imp_coulomb_status st = imp_coulomb_solve(&prob, &opt, c->ws, c->r, c->u, &info);
    if (st == IMP_COULOMB_BAD_INPUT || st == IMP_COULOMB_NO_MEMORY) {
        return -1;
    }
    for (int i = 0; i < n; i++) {
        f[i] = c->r[c->map[i]];
    }
    out->ok = st == IMP_COULOMB_OK;
    out->error = info.error;
    out->iterations = info.iterations;
    out->sweeps = info.sweeps;
    return 0;
}
