/* engine3d_soft_joints.c: the joints' rows (engine3d_joints_rows.h) under the soft step
   (engine3d_soft.h). The rows are built at each sub-step's state by imp_e3_joints_begin (their
   bias then holds the speculative gap of an open limit or rope over the sub-step and the
   rows' curvature); a pass adds, in a solve pass, the soft spring on the row's error (equality
   rows, and limits or ropes already violated) with joint_hertz and joint_damping_ratio; a relax
   pass and motors are rigid. */
#include <math.h>
#include <string.h>

#include "cholesky.h"
#include "engine3d_joints_rows.h"
#include "engine3d_soft.h"

/* J_i M^-1 J_j^T of two rows of one joint (the same bodies) */
static double coupling(const imp_j3_row *ri, const imp_j3_row *rj)
{
    double k = 0.0;
    if (ri->a >= 0) {
        k += dot(ri->J, rj->MJ) + dot(ri->J + 3, rj->MJ + 3);
    }
    if (ri->b >= 0) {
        k += dot(ri->J + 6, rj->MJ + 6) + dot(ri->J + 9, rj->MJ + 9);
    }
    return k;
}

/* one scalar row (motors, limits, ropes; equality rows whose block is singular) */
static void solve_row(imp_j3_row *r, double *vel, const imp_e3_softness *soft, int use_bias)
{
    double bias = r->bias, ms = 1.0, is = 0.0;
    int springy = r->kind == ROW_EQ || (r->kind == ROW_UNI && r->c < 0.0);
    if (use_bias && springy) {
        bias += soft->bias_rate * r->c;
        ms = soft->mass_scale;
        is = soft->impulse_scale;
    }
    double u = row_velocity(r, vel);
    double l = fmin(fmax(r->lambda - ms * r->meff * (u + bias) - is * r->lambda, r->lo), r->hi);
    double dl = l - r->lambda;
    if (dl != 0.0) {
        row_apply(r, vel, dl);
        r->lambda = l;
    }
}

/* A joint's equality rows (consecutive in the rows) together: their block K = J M^-1 J^T solved
   at once, dl = -ms K^-1 (u + bias) - is lambda (a ball joint's three rows are coupled through
   the body's turn: one by one, a pass would hold it only loosely). */
static void solve_block(imp_j3_row *rows, int n, double *vel, const imp_e3_softness *soft, int use_bias)
{
    double K[SLOTS * SLOTS], x[SLOTS];
    double ms = use_bias ? soft->mass_scale : 1.0, is = use_bias ? soft->impulse_scale : 0.0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i; j++) {
            K[i * SLOTS + j] = K[j * SLOTS + i] = coupling(&rows[i], &rows[j]);
        }
        double bias = rows[i].bias + (use_bias ? soft->bias_rate * rows[i].c : 0.0);
        x[i] = row_velocity(&rows[i], vel) + bias;
    }
    if (imp_cholesky_solve(K, SLOTS, x, n, 1e-12) != 0) {
        for (int i = 0; i < n; i++) {
            solve_row(&rows[i], vel, soft, use_bias);
        }
        return;
    }
    for (int i = 0; i < n; i++) {
        double dl = -ms * x[i] - is * rows[i].lambda;
        if (dl != 0.0) {
            row_apply(&rows[i], vel, dl);
            rows[i].lambda += dl;
        }
    }
}

void imp_e3_soft_joints_pass(const imp_world *w, imp_engine3d *e, const imp_e3_softness *soft, double hs,
                             int use_bias)
{
    (void)w;
    (void)hs;
    struct imp_e3_joints *js = e->joints;
    if (js == NULL || !js->armed) {
        return;
    }
    for (int i = 0; i < js->nrows;) {
        imp_j3_row *r = &js->rows[i];
        if (r->meff == 0.0) {
            i++;
            continue;
        }
        if (r->kind != ROW_EQ) {
            solve_row(r, e->vel, soft, use_bias);
            i++;
            continue;
        }
        int end = i + 1;
        while (end < js->nrows && end - i < SLOTS && js->rows[end].kind == ROW_EQ && js->rows[end].joint == r->joint
               && js->rows[end].meff != 0.0) {
            end++;
        }
        solve_block(r, end - i, e->vel, soft, use_bias);
        i = end;
    }
}

void imp_e3_soft_joints_store(imp_engine3d *e, double hs)
{
    struct imp_e3_joints *js = e->joints;
    if (js == NULL || !js->armed) {
        return;
    }
    js->armed = 0;
    for (int i = 0; i < js->nrows; i++) {  /* the joints with rows: their impulses start again */
        imp_e3_joint *j = &js->j[js->rows[i].joint];
        memset(j->lambda, 0, sizeof j->lambda);
        j->h_last = hs;
    }
    for (int i = 0; i < js->nrows; i++) {
        const imp_j3_row *r = &js->rows[i];
        js->j[r->joint].lambda[r->slot] = r->lambda;
    }
}
