/* dynamics.c: the equations of motion of a world: forces (uniform gravity, applied forces,
   damping, springs, mutual gravitation) and the rigid-body accelerations.

   2D: m a = F, I alpha = tau.
   3D: m a = F; Euler's equations in the body frame, I w_b' = tau_b - w_b x (I w_b), with
   w_b = R^T w, tau_b = R^T tau; the world-frame derivative is then w' = R w_b' (the
   rotating-frame term w x w vanishes); q' = 1/2 (0, w) q.
   Cost: O(bodies + springs) per evaluation, plus O(n^2) pairs for mutual gravitation. */
#include <string.h>

#include "forces.h"
#include "quat.h"
#include "strategy.h"
#include "world_internal.h"

void imp_world_rhs(void *ctx, double t, const double *y, double *dydt)
{
    imp_world_derivative(ctx, t, y, dydt);
}

void imp_world_forces(imp_world *w, double t, const double *y, double *f)
{
    w->scratch.rhs_time = t;  /* (the 2D contact strategy's stages, engine2d_step.c) */
    imp_forces_body_set(w, y, f);  /* (every slot's six written: no zeroing first) */
    imp_forces_springs(w, y, f);
    imp_forces_gravitation(w, y, f);
    imp_forces_loads(w, t, y, f);
    const imp_strategy_ops *ops = imp_world_strategy(w);
    if (ops->forces != NULL) {  /* the strategy's contact forces (compliant, contact) */
        ops->forces(w, y, f);
    }
    w->data.stats.rhs_evaluations++;
}

int imp_world_forces_body_only(const imp_world *w)
{
    if (w->model.def.gravitation_g != 0.0) {
        return 0;
    }
    for (int i = 0; i < w->model.nsprings; i++) {
        if (w->model.springs[i].active) {
            return 0;
        }
    }
    return !imp_world_loaded(w);
}

int imp_world_loaded(const imp_world *w)
{
    for (int i = 0; i < w->model.nloads; i++) {
        if (w->model.loads[i].active) {
            return 1;
        }
    }
    return 0;
}

void imp_world_forces_taken(imp_world *w, double t)
{
    w->scratch.rhs_time = t;
    w->data.stats.rhs_evaluations++;
}

void imp_world_derivative(imp_world *w, double t, const double *y, double *dydt)
{
    int n = w->model.nslots, s = w->model.stride, dim = w->model.def.dim;
    int vo = dim == 2 ? IMP_VEL_2D : IMP_VEL_3D;
    double *f = w->scratch.force;
    imp_world_forces(w, t, y, f);
    for (int i = 0; i < n; i++) {
        const imp_body *b = &w->model.bodies[i];
        const double *yi = y + (size_t)i * (size_t)s;
        double *di = dydt + (size_t)i * (size_t)s;
        if (!b->active || b->fixed) {
            memset(di, 0, (size_t)s * sizeof *di);
            continue;
        }
        const double *fi = f + 6 * i;
        if (dim == 2) {
            di[0] = yi[3];
            di[1] = yi[4];
            di[2] = yi[5];
            di[3] = fi[0] * b->inv_mass;
            di[4] = fi[1] * b->inv_mass;
            di[5] = fi[5] * b->inv_inertia.m[2][2];
            continue;
        }
        imp_quat q = imp_q(yi[3], yi[4], yi[5], yi[6]);
        imp_vec3 om = imp_v3_load(yi + 10);
        di[0] = yi[vo];
        di[1] = yi[vo + 1];
        di[2] = yi[vo + 2];
        imp_quat dq = imp_q_derivative(q, om);
        di[3] = dq.w, di[4] = dq.x, di[5] = dq.y, di[6] = dq.z;
        di[7] = fi[0] * b->inv_mass;
        di[8] = fi[1] * b->inv_mass;
        di[9] = fi[2] * b->inv_mass;
        imp_mat3 r = imp_q_to_mat3(imp_q_normalize(q));
        imp_vec3 wb = imp_m3_tmulv(&r, om);
        imp_vec3 tb = imp_m3_tmulv(&r, imp_v3_load(fi + 3));
        imp_vec3 lb = imp_m3_mulv(&b->inertia, wb);
        imp_vec3 dwb = imp_m3_mulv(&b->inv_inertia, imp_v3_sub(tb, imp_v3_cross(wb, lb)));
        imp_v3_store(di + 10, imp_m3_mulv(&r, dwb));
    }
}
