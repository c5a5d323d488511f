/* engine3d_accel.c: the contact forces of the 3D engine's force-level ("ode") stepping
   (engine3d_ode.h), computed at every evaluation of the equations of motion: Baraff 1994
   ("Fast contact force computation for nonpenetrating rigid bodies") in 3D with Coulomb
   friction on the true, circular cone (isotropic).

   Contacts: the points of a detection at the evaluated state with gap d <= distance_tol (and
   d > -distance_tol) moving along the normal slower than velocity_tol. Point c between bodies
   a (sign -1) and b (sign +1), frame E = [n t1 t2], lever arms r_a, r_b:
     the relative acceleration in the frame  a_c = W r + q,   W = J M^-1 J^T (3 x 3 blocks
       W_cd = sum over shared moving bodies k of s_ck s_dk (m_k^-1 E_c^T E_d + A_ck^T I_k^-1 A_dk),
       A = r x E), r the contact forces (normal, t1, t2) on b (a gets the opposite);
     q = E^T (A_b - A_a) + terms, A_k = a_k + alpha_k x r_k the acceleration of body k's point
       without contact forces (a = F / m, alpha = I^-1 (tau - w x I w), the world's forces),
       normal: + 2 (w_a x n) . (v_b(p) - v_a(p)) (the normal turning with a; the centripetal
       terms of the points are left out: exact for a sphere on a face, where the contact
       point is no material point; for a vertex on a rotating face they are small and the
       extra acceleration's distance term absorbs them),
       plus the extra acceleration (the 2D engine's, h = extra_accel_dt or dt; d* = distance_tol
       / 2): "velocity" u_N / h, "velocity_and_distance" (2 u_N h + d - d*) / h^2 (the
       "_joints" forms mean the same for the contacts: the 3D joints under "ode" are held by
       engine3d_joints_ode.c, drift damped over the same h);
       tangents: + u_T / h: the friction aims at stopping the slip within h when the cone
       allows, else it slides on the cone's edge against the slip (dynamic friction
       -mu f_N along it), as the 2D engine's friction rows do.
   The problem is Siconos' frictional contact problem on accelerations: r in the cone,
   a_N >= 0, r_N a_N = 0, |r_T| < mu r_N => a_T = 0, else r_T = -mu r_N a_T / |a_T|
   (coulomb.h), solved exactly ("lcp") or by its Gauss-Seidel sweeps with pgs_iterations
   sweeps ("pgs"), warm-started from the last step's forces of the same features.
   Cost per evaluation: a detection, O(points^2) to find the coupled pairs, the solve. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine3d.h"
#include "engine3d_ode.h"
#include "quat.h"
#include "resize.h"
#include "world_internal.h"

enum { SIDE = 27, JACS = 54 };

#define TOLERANCE 1e-10
#define MAX_NEWTON 100
#define MAX_SWEEPS 500

static int moving(const imp_world *w, int s) { return s > 0 && w->model.bodies[s].active && !w->model.bodies[s].fixed; }

/* W's entries: room for n in col and val */
static int reserve_nnz(imp_e3_ode *o, size_t n)
{
    if (n <= o->nnz_cap) {
        return 0;
    }
    size_t c = o->nnz_cap > 0 ? o->nnz_cap : 64;
    while (c < n) {
        c *= 2;
    }
    if (imp_resize(&o->col, c * sizeof *o->col) != 0 || imp_resize(&o->val, c * sizeof *o->val) != 0) {
        return -1;
    }
    o->nnz_cap = c;
    return 0;
}

static int reserve_rows(imp_e3_ode *o, int m)
{
    if (m <= o->rows_cap) {
        return 0;
    }
    int cap = o->rows_cap > 0 ? o->rows_cap : 16;
    while (cap < m) {
        cap *= 2;
    }
    size_t n = (size_t)cap, nd = 3 * n * sizeof(double);
    if (imp_resize(&o->act, n * sizeof *o->act) != 0 || imp_resize(&o->q, nd) != 0 || imp_resize(&o->mu, nd) != 0
        || imp_resize(&o->r, nd) != 0 || imp_resize(&o->u, nd) != 0 || imp_resize(&o->warm, nd) != 0
        || imp_resize(&o->jac, n * JACS * sizeof *o->jac) != 0
        || imp_resize(&o->row_ptr, (3 * n + 1) * sizeof *o->row_ptr) != 0) {
        return -1;
    }
    o->rows_cap = cap;
    return 0;
}

static void cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* The accelerations of the moving bodies without contact forces, at state y with forces f. */
static void free_accelerations(const imp_world *w, const imp_engine3d *e, imp_e3_ode *o, const double *y,
                               const double *f)
{
    for (int s = 0; s < w->model.nslots; s++) {
        double *a = o->acc + 6 * (size_t)s;
        memset(a, 0, 6 * sizeof *a);
        if (!moving(w, s)) {
            continue;
        }
        const imp_body *b = &w->model.bodies[s];
        const double *ys = y + (size_t)s * IMP_STRIDE_3D, *fs = f + 6 * (size_t)s;
        for (int k = 0; k < 3; k++) {
            a[k] = fs[k] * b->inv_mass;
        }
        imp_mat3 R = imp_q_to_mat3(imp_q_normalize(imp_q(ys[3], ys[4], ys[5], ys[6])));
        imp_vec3 om = imp_v3_load(ys + IMP_VEL_3D + 3);
        imp_vec3 lw = imp_m3_mulv(&R, imp_m3_mulv(&b->inertia, imp_m3_tmulv(&R, om)));
        imp_vec3 tq = imp_v3_sub(imp_v3_load(fs + 3), imp_v3_cross(om, lw));
        const double *iw = e->inv_iw + 9 * (size_t)s;
        const double t[3] = {tq.x, tq.y, tq.z};
        for (int i = 0; i < 3; i++) {
            a[3 + i] = iw[3 * i] * t[0] + iw[3 * i + 1] * t[1] + iw[3 * i + 2] * t[2];
        }
    }
}

/* the acceleration of body s's material point at lever arm r, without the centripetal term */
static void point_accel(const imp_world *w, const imp_e3_ode *o, int s, const double r[3], double out[3])
{
    if (!moving(w, s)) {
        out[0] = out[1] = out[2] = 0.0;
        return;
    }
    const double *a = o->acc + 6 * (size_t)s;
    cross(a + 3, r, out);
    for (int k = 0; k < 3; k++) {
        out[k] += a[k];
    }
}

static const double *velocity_of(const imp_world *w, const double *y, int s)
{
    return moving(w, s) ? y + (size_t)s * IMP_STRIDE_3D + IMP_VEL_3D : NULL;
}

/* q of point p (its frame velocities u at y) */
static void q_of(const imp_world *w, const imp_e3_ode *o, const imp_e3_point *p, const double *y,
                 const double u[3], double q[3])
{
    const imp_engine2d_def *d = &w->model.def.engine2d;
    double aa[3], ab[3], da[3];
    point_accel(w, o, p->a, p->ra, aa);
    point_accel(w, o, p->b, p->rb, ab);
    for (int k = 0; k < 3; k++) {
        da[k] = ab[k] - aa[k];
    }
    const double *E[3] = {p->normal, p->t1, p->t2};
    for (int i = 0; i < 3; i++) {
        q[i] = E[i][0] * da[0] + E[i][1] * da[1] + E[i][2] * da[2];
    }
    const double *va = velocity_of(w, y, p->a);
    if (va != NULL) {  /* the normal turns with a: 2 ndot . (v_b(p) - v_a(p)) */
        const double *vb = velocity_of(w, y, p->b);
        double ndot[3], wa[3], wb[3], dv[3];
        cross(va + 3, p->normal, ndot);
        cross(va + 3, p->ra, wa);
        if (vb != NULL) {
            cross(vb + 3, p->rb, wb);
        }
        for (int k = 0; k < 3; k++) {
            dv[k] = (vb != NULL ? vb[k] + wb[k] : 0.0) - va[k] - wa[k];
        }
        q[0] += 2.0 * (ndot[0] * dv[0] + ndot[1] * dv[1] + ndot[2] * dv[2]);
    }
    double h = d->extra_accel_dt > 0.0 ? d->extra_accel_dt : w->model.def.dt;
    imp_extra_accel pol = d->extra_accel;
    if (pol == IMP_EXTRA_VELOCITY || pol == IMP_EXTRA_VELOCITY_JOINTS) {
        q[0] += u[0] / h;
    } else if (pol != IMP_EXTRA_NONE) {
        q[0] += (2.0 * u[0] * h + (p->distance - 0.5 * d->distance_tol)) / (h * h);
    }
    q[1] += u[1] / h;
    q[2] += u[2] / h;
}

/* The Jacobian blocks of the active point p: per side E, A = r x E, IA = I^-1 A. */
static void point_blocks(const imp_engine3d *e, const imp_e3_point *p, double *J)
{
    for (int side = 0; side < 2; side++) {
        double *E = J + SIDE * side, *A = E + 9, *IA = E + 18;
        const double *r = side == 0 ? p->ra : p->rb;
        const double *cols[3] = {p->normal, p->t1, p->t2};
        for (int c = 0; c < 3; c++) {
            double x[3];
            cross(r, cols[c], x);
            for (int i = 0; i < 3; i++) {
                E[3 * i + c] = cols[c][i];
                A[3 * i + c] = x[i];
            }
        }
        const double *iw = e->inv_iw + 9 * (size_t)(side == 0 ? p->a : p->b);
        for (int i = 0; i < 3; i++) {
            for (int c = 0; c < 3; c++) {
                IA[3 * i + c] = iw[3 * i] * A[c] + iw[3 * i + 1] * A[3 + c] + iw[3 * i + 2] * A[6 + c];
            }
        }
    }
}

/* blk += s (im X^T Y + Z^T V) for 3 x 3 column blocks (X, Y: E; Z: A; V: IA) */
static void add_block(double s, double im, const double *Ei, const double *Ai, const double *Ej,
                      const double *IAj, double *blk)
{
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) {
            double ee = 0.0, ai = 0.0;
            for (int k = 0; k < 3; k++) {
                ee += Ei[3 * k + r] * Ej[3 * k + c];
                ai += Ai[3 * k + r] * IAj[3 * k + c];
            }
            blk[3 * r + c] += s * (im * ee + ai);
        }
    }
}

/* whether points p and q share a moving body (W couples them) */
static int shares(const imp_world *w, const imp_e3_point *p, const imp_e3_point *q)
{
    return ((p->a == q->a || p->a == q->b) && moving(w, p->a)) || ((p->b == q->a || p->b == q->b) && moving(w, p->b));
}

/* W's block of active points i, j (3 x 3, row-major) */
static void coupling(const imp_world *w, const imp_engine3d *e, const imp_e3_ode *o, int i, int j, double *blk)
{
    const imp_e3_point *p = &e->pts[o->act[i]], *q = &e->pts[o->act[j]];
    const int sp[2] = {p->a, p->b}, sq[2] = {q->a, q->b};
    memset(blk, 0, 9 * sizeof *blk);
    for (int x = 0; x < 2; x++) {
        for (int y = 0; y < 2; y++) {
            if (sp[x] != sq[y] || !moving(w, sp[x])) {
                continue;
            }
            const double *Ji = o->jac + (size_t)i * JACS + SIDE * x, *Jj = o->jac + (size_t)j * JACS + SIDE * y;
            double s = (x == 0 ? -1.0 : 1.0) * (y == 0 ? -1.0 : 1.0);
            add_block(s, w->model.bodies[sp[x]].inv_mass, Ji, Ji + 9, Jj, Jj + 18, blk);
        }
    }
}

static void apply_force(const imp_world *w, const imp_e3_point *p, const double r[3], double *f)
{
    double F[3], tq[3];
    for (int k = 0; k < 3; k++) {
        F[k] = r[0] * p->normal[k] + r[1] * p->t1[k] + r[2] * p->t2[k];
    }
    if (moving(w, p->b)) {
        double *fb = f + 6 * (size_t)p->b;
        cross(p->rb, F, tq);
        for (int k = 0; k < 3; k++) {
            fb[k] += F[k];
            fb[3 + k] += tq[k];
        }
    }
    if (moving(w, p->a)) {
        double *fa = f + 6 * (size_t)p->a;
        cross(p->ra, F, tq);
        for (int k = 0; k < 3; k++) {
            fa[k] -= F[k];
            fa[3 + k] -= tq[k];
        }
    }
}

static void fail(imp_e3_ode *o, int a, int b)
{
    if (!o->force_error) {
        o->err_a = a;
        o->err_b = b;
    }
    o->force_error = 1;
}

static int grow_ints(int **p, int *cap, int n)
{
    if (n <= *cap) {
        return 0;
    }
    if (imp_resize(p, (size_t)n * sizeof **p) != 0) {
        return -1;
    }
    *cap = n;
    return 0;
}

/* W = J M^-1 J^T by its factors (coulomb.h) for the m active points; 0 or -1. */
static int factors(const imp_world *w, const imp_engine3d *e, imp_e3_ode *o, int m)
{
    int ns = w->model.nslots, n = 3 * m, nd = 0;
    int cap = o->dof_cap;
    if (grow_ints(&o->dof, &cap, ns) != 0) {
        return -1;
    }
    o->dof_cap = cap;
    for (int s = 0; s < ns; s++) {
        o->dof[s] = moving(w, s) ? nd : -1;
        nd += o->dof[s] >= 0 ? 6 : 0;
    }
    if (o->fj_cap < n) {  /* (a cap of 0 makes grow_ints take exactly the size asked) */
        int c1 = 0, c2 = 0;
        if (imp_resize(&o->fj_val, 12 * (size_t)n * sizeof *o->fj_val) != 0) {
            return -1;
        }
        if (grow_ints(&o->fj_rp, &c1, n + 1) != 0 || grow_ints(&o->fj_col, &c2, 12 * n) != 0) {
            return -1;
        }
        o->fj_cap = n;
    }
    if (o->fm_cap < nd) {
        int c1 = 0, c2 = 0;
        if (imp_resize(&o->fm_val, 3 * (size_t)nd * sizeof *o->fm_val) != 0) {
            return -1;
        }
        if (grow_ints(&o->fm_rp, &c1, nd + 1) != 0 || grow_ints(&o->fm_col, &c2, 3 * nd) != 0) {
            return -1;
        }
        o->fm_cap = nd;
    }
    int k = 0;
    for (int i = 0; i < m; i++) {
        const imp_e3_point *p = &e->pts[o->act[i]];
        for (int j = 0; j < 3; j++) {
            o->fj_rp[3 * i + j] = k;
            for (int side = 0; side < 2; side++) {
                int d = o->dof[side == 0 ? p->a : p->b];
                if (d < 0) {
                    continue;
                }
                const double *J = o->jac + (size_t)i * JACS + SIDE * side;
                double sg = side == 0 ? -1.0 : 1.0;
                for (int c = 0; c < 6; c++) {  /* linear: E's column j; angular: A's */
                    o->fj_col[k] = d + c;
                    o->fj_val[k++] = sg * J[c < 3 ? 3 * c + j : 9 + 3 * (c - 3) + j];
                }
            }
        }
    }
    o->fj_rp[n] = k;
    imp_e3_minv_csr(w, e, o->dof, ns, nd, o->fm_rp, o->fm_col, o->fm_val);
    o->fac.ndof = nd;
    o->fac.J = (imp_coulomb_csr){.n = n, .row_ptr = o->fj_rp, .col = o->fj_col, .val = o->fj_val};
    o->fac.Minv = (imp_coulomb_csr){.n = nd, .row_ptr = o->fm_rp, .col = o->fm_col, .val = o->fm_val};
    return 0;
}

/* Solves the problem of the active points (o->act[0 .. m-1]); 0 or -1. */
static int solve(imp_world *w, imp_engine3d *e, imp_e3_ode *o, int m, double dt)
{
    int n = 3 * m;
    size_t k = 0;
    double blk[9];
    for (int i = 0; i < m; i++) {
        size_t start = k;
        int count = 0;
        const imp_e3_point *p = &e->pts[o->act[i]];
        for (int j = 0; j < m; j++) {
            count += shares(w, p, &e->pts[o->act[j]]);
        }
        if (reserve_nnz(o, k + 9 * (size_t)count) != 0) {
            return -1;
        }
        int at = 0;
        for (int j = 0; j < m; j++) {
            if (!shares(w, p, &e->pts[o->act[j]])) {
                continue;
            }
            coupling(w, e, o, i, j, blk);
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 3; c++) {
                    size_t idx = start + (size_t)r * 3 * (size_t)count + (size_t)at * 3 + (size_t)c;
                    o->col[idx] = 3 * j + c;
                    o->val[idx] = blk[3 * r + c];
                }
            }
            at++;
        }
        for (int r = 0; r < 3; r++) {
            o->row_ptr[3 * i + r] = (int)(start + (size_t)r * 3 * (size_t)count);
        }
        k = start + 9 * (size_t)count;
    }
    o->row_ptr[n] = (int)k;
    for (int i = 0; i < m; i++) {
        const imp_e3_point *p = &e->pts[o->act[i]];
        o->mu[i] = p->mu;
        for (int r = 0; r < 3; r++) {
            o->warm[3 * i + r] = p->r[r] / dt;  /* the last step's forces (r = force dt) */
        }
    }
    if (o->ws == NULL && (o->ws = imp_coulomb_workspace_create(n)) == NULL) {
        return -1;
    }
    if (factors(w, e, o, m) != 0) {
        return -1;
    }
    imp_coulomb_problem prob = {.W = {.n = n, .row_ptr = o->row_ptr, .col = o->col, .val = o->val},
                                .q = o->q, .mu = o->mu, .bilateral = NULL, .factors = &o->fac};
    imp_coulomb_options opt;
    imp_coulomb_default_options(&opt);
    opt.tolerance = TOLERANCE;
    opt.warm_start = o->warm;
    if (w->model.def.engine2d.contact_solver == IMP_SOLVER_PGS) {
        opt.method = IMP_COULOMB_NSGS;
        opt.max_sweeps = w->model.def.engine2d.pgs_iterations;
    } else {
        opt.max_iterations = MAX_NEWTON;
        opt.max_sweeps = MAX_SWEEPS;
    }
    imp_coulomb_info info;
    imp_coulomb_status st = imp_coulomb_solve(&prob, &opt, o->ws, o->r, o->u, &info);
    o->force_solves++;
    e->stats.solves++;
    e->stats.sweeps += info.sweeps;
    e->stats.newton_iterations += info.iterations;
    e->stats.last_error = info.error;
    if (st == IMP_COULOMB_BAD_INPUT || st == IMP_COULOMB_NO_MEMORY) {
        return -1;
    }
    if (st != IMP_COULOMB_OK) {  /* the best answer found is used */
        o->force_failures++;
        e->stats.solve_failures++;
    }
    for (int i = 0; i < n; i++) {
        if (!isfinite(o->r[i])) {
            return -1;
        }
    }
    return 0;
}

void imp_engine3d_ode_forces(imp_world *w, const double *y, double *f)
{
    imp_engine3d *e = w->engine3d;
    imp_e3_ode *o = e != NULL ? e->ode : NULL;
    if (o == NULL || !o->in_step || o->force_error) {
        return;
    }
    double start = imp_profile_now();
    /* the detection and the inverse inertia read the world's state: y for now */
    double *saved = w->data.y;
    w->data.y = (double *)y;
    imp_status st = imp_engine3d_detect(w, e, 0.0);
    if (st == IMP_OK) {
        imp_engine3d_inverse_inertia(w, e);
    }
    w->data.y = saved;
    start = imp_profile_add(&w->data.profile, IMP_STAGE_DETECT, start);
    if (st != IMP_OK) {
        fail(o, 0, 0);
        return;
    }
    if (o->acc_cap < w->model.nslots) {
        double *a = realloc(o->acc, 6 * (size_t)w->model.nslots * sizeof *a);
        if (a == NULL) {
            fail(o, 0, 0);
            return;
        }
        o->acc = a;
        o->acc_cap = w->model.nslots;
    }
    const imp_engine2d_def *d = &w->model.def.engine2d;
    double dt = w->model.def.dt;
    int m = 0;
    for (int c = 0; c < e->npts; c++) {
        imp_e3_point *p = &e->pts[c];
        double u[3];
        imp_e3_frame_velocity(velocity_of(w, y, p->a), velocity_of(w, y, p->b), p->normal, p->t1, p->t2, p->ra,
                              p->rb, u);
        p->u0 = p->ustar = u[0];
        p->rimp = 0.0;
        p->acc = p->acc_u0 = 0.0;
        p->going = 0;
        p->active = p->distance <= d->distance_tol && p->distance > -d->distance_tol
                    && fabs(u[0]) <= d->velocity_tol;
        if (!p->active) {
            p->r[0] = p->r[1] = p->r[2] = 0.0;
            continue;
        }
        if (reserve_rows(o, m + 1) != 0) {
            fail(o, p->a, p->b);
            return;
        }
        o->act[m++] = c;
    }
    if (m == 0) {
        imp_profile_add(&w->data.profile, IMP_STAGE_CONTACT_SOLVE, start);
        return;
    }
    free_accelerations(w, e, o, y, f);
    for (int i = 0; i < m; i++) {
        const imp_e3_point *p = &e->pts[o->act[i]];
        double u[3];
        imp_e3_frame_velocity(velocity_of(w, y, p->a), velocity_of(w, y, p->b), p->normal, p->t1, p->t2, p->ra,
                              p->rb, u);
        q_of(w, o, p, y, u, o->q + 3 * i);
        point_blocks(e, p, o->jac + (size_t)i * JACS);
    }
    int bad = solve(w, e, o, m, dt);
    imp_profile_add(&w->data.profile, IMP_STAGE_CONTACT_SOLVE, start);
    if (bad != 0) {
        fail(o, e->pts[o->act[0]].a, e->pts[o->act[0]].b);
        return;
    }
    for (int i = 0; i < m; i++) {
        imp_e3_point *p = &e->pts[o->act[i]];
        apply_force(w, p, o->r + 3 * i, f);
        for (int k = 0; k < 3; k++) {
            p->r[k] = o->r[3 * i + k] * dt;
        }
    }
}
