/* engine3d_joints_ode.c: the 3D joints (engine3d_joints.h) under the force-level stepping
   (time_stepping = "ode", engine3d_ode.h): at each evaluation of the equations of motion the
   joints' rows, those of the velocity-level step at the evaluated state, act as constraint
   forces on the accelerations (Baraff's "Linear-time dynamics using Lagrange multipliers",
   1996, in its simplest dense-free form):

     J a + (J' v) + (2 h J v + C) / h^2 = 0       equality rows (a free force lambda)

   a = a_free + M^-1 J^T lambda, a_free the accelerations of the evaluation (the world's forces
   and the contacts' forces), J' v the rows' curvature along the motion, and the last term the
   2D engine's joint extra acceleration (velocity_and_distance_joints, h = extra_accel_dt or
   dt): a drift of C is damped critically over h instead of growing. J' v is the second
   difference of the row's function along the motion at the state's velocities (the poses moved
   by -eps and +eps at constant v and w, along which a = 0): (C(-eps) - 2 C + C(eps)) / eps^2,
   exact up to O(eps^2) and rounding. A limit or a rope (unilateral rows: lambda >= 0) acts
   once closed (gap <= 0, or closing within h); a motor asks J a = (speed - J v) / h, its force
   within max_force.
   Solved by projected Gauss-Seidel sweeps on the accelerations (each row's lambda against the
   others', M^-1 J^T lambda applied as it changes), until no lambda changes by more than 1e-13
   of the largest. The joint forces come after the contact forces of the same evaluation (a
   contact holding a joined body sees the joint's force at the next evaluation). The
   collision impulses of the collision advance (engine3d_ode.c) leave the joints out: their
   velocity error is then taken away by the rows' extra acceleration. */
#include <math.h>
#include <string.h>

#include "engine3d_joints_rows.h"
#include "islands.h"
#include "quat.h"

#define EPS 1e-4        /* s: the central difference's step along the motion */
#define MAX_SWEEPS 4000
#define STOP 1e-13

/* e->inv_iw: the world inverse inertias at y of the moving, awake slots (0 for the others) */
static void inverse_inertia_at(const imp_world *w, imp_engine3d *e, const double *y)
{
    for (int s = 0; s < w->model.nslots; s++) {
        double *out = e->inv_iw + 9 * (size_t)s;
        const imp_body *b = &w->model.bodies[s];
        if (s == 0 || !b->active || b->fixed || imp_islands_asleep_in(w->islands, s)) {
            memset(out, 0, 9 * sizeof *out);
            continue;
        }
        const double *q = y + (size_t)s * IMP_STRIDE_3D + 3;
        imp_mat3 R = imp_q_to_mat3(imp_q_normalize(imp_q(q[0], q[1], q[2], q[3])));
        imp_mat3 I = imp_m3_rotate_tensor(&R, &b->inv_inertia);
        for (int i = 0; i < 3; i++) {
            for (int k = 0; k < 3; k++) {
                out[3 * i + k] = I.m[i][k];
            }
        }
    }
}

/* J v of row r at the velocities of y */
static double rate(const imp_j3_row *r, const double *y)
{
    double u = 0.0;
    for (int side = 0; side < 2; side++) {
        int s = side == 0 ? r->a : r->b;
        if (s >= 0) {
            const double *v = y + (size_t)s * IMP_STRIDE_3D + IMP_VEL_3D;
            u += dot(r->J + 6 * side, v) + dot(r->J + 6 * side + 3, v + 3);
        }
    }
    return u;
}

imp_status imp_e3_joints_ode_accel(imp_world *w, imp_engine3d *e, const double *y, double *dydt)
{
    struct imp_e3_joints *js = e->joints;
    if (js == NULL || imp_e3_joints_alive(w) == 0) {
        return IMP_OK;
    }
    if (imp_e3_joints_ode_reserve(w, e) != IMP_OK) {
        return IMP_ERR_NOMEM;
    }
    inverse_inertia_at(w, e, y);
    const imp_engine2d_def *def = &w->model.def.engine2d;
    double h = def->extra_accel_dt > 0.0 ? def->extra_accel_dt : w->model.def.dt;
    for (int i = 0; i < js->n; i++) {
        double cm[SLOTS], cp[SLOTS];
        int n0 = js->nrows;
        int n = imp_e3_joint_rows_at(w, e, i, y, EPS, h, cm, cp);
        const imp_joint3d_def *d = &js->j[i].d;
        for (int k = 0; k < n; k++) {
            imp_j3_row *r = &js->rows[n0 + k];
            double dm = r->c - cm[k], dp = cp[k] - r->c;
            if (d->kind == IMP_J3_HINGE && (r->slot == 1 || r->slot == 2)) {  /* an angle: the turn */
                dm = remainder(dm, 2.0 * 3.14159265358979323846);
                dp = remainder(dp, 2.0 * 3.14159265358979323846);
            }
            double jdv = (dp - dm) / (EPS * EPS), u = rate(r, y);
            r->lambda = 0.0;
            if (r->kind == ROW_MOTOR) {
                r->bias = (u - d->speed) / h;
                r->lo = -d->max_force;
                r->hi = d->max_force;
            } else {
                r->bias = jdv + (2.0 * h * u + r->c) / (h * h);
                if (r->kind == ROW_UNI && r->c + h * u > 0.0) {
                    r->meff = 0.0;  /* open, and not closing within h */
                }
            }
        }
    }
    if (js->nrows == 0) {
        return IMP_OK;
    }
    /* the accelerations of the moving slots, 6 each, in e->vel (scratch here) */
    double *acc = e->vel;
    for (int s = 0; s < w->model.nslots; s++) {
        const double *di = dydt + (size_t)s * IMP_STRIDE_3D + IMP_VEL_3D;
        memcpy(acc + 6 * (size_t)s, di, 6 * sizeof *acc);
    }
    for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
        double change = 0.0, largest = 0.0;
        for (int k = 0; k < js->nrows; k++) {
            imp_j3_row *r = &js->rows[k];
            if (r->meff == 0.0) {
                continue;
            }
            double l = fmin(fmax(r->lambda - r->meff * (row_velocity(r, acc) + r->bias), r->lo), r->hi);
            double dl = l - r->lambda;
            if (dl != 0.0) {
                row_apply(r, acc, dl);
                r->lambda = l;
            }
            change = fmax(change, fabs(dl));
            largest = fmax(largest, fabs(l));
        }
        if (change <= STOP * largest) {
            break;
        }
    }
    for (int k = 0; k < js->nrows; k++) {  /* the moving slots the rows reach */
        const imp_j3_row *r = &js->rows[k];
        const int sl[2] = {r->a, r->b};
        for (int side = 0; side < 2; side++) {
            if (sl[side] >= 0) {
                memcpy(dydt + (size_t)sl[side] * IMP_STRIDE_3D + IMP_VEL_3D, acc + 6 * (size_t)sl[side],
                       6 * sizeof *acc);
            }
        }
    }
    js->nrows = 0;
    return IMP_OK;
}
