/* forces.c: uniform gravity, damping, springs and mutual gravitation. */
#include "forces.h"

#include <string.h>

#include "quat.h"
#include "vec2.h"

static const double *body_state(const imp_world *w, const double *y, int slot)
{
    return y + (size_t)slot * (size_t)w->model.stride;
}

/* the 2D body forces added into f (zeroed by the caller): gravity, applied forces and
   torques, damping */
static void add_body_2d(const imp_world *w, const double *y, double *f)
{
    for (int i = 1; i < w->model.nslots; i++) {
        const imp_body *b = &w->model.bodies[i];
        if (!b->active || b->fixed || b->kinematic) {
            continue;
        }
        const double *yi = body_state(w, y, i);
        double cl = b->linear_damping >= 0.0 ? b->linear_damping : w->model.def.linear_damping;
        double ca = b->angular_damping >= 0.0 ? b->angular_damping : w->model.def.angular_damping;
        double *fi = f + 6 * i;
        for (int k = 0; k < 2; k++) {
            fi[k] += b->mass * w->model.def.gravity[k] + b->force[k] - cl * yi[IMP_VEL_2D + k];
        }
        fi[5] += b->torque[2] - ca * yi[5];
    }
}

/* The body forces written into f from nothing (every slot's six: zero where none acts). 2D:
   f zeroed, then add_body_2d. 3D: each body's imp_forces_body_3d (forces.h), the defaults read
   once (an adding loop reloads them after each store to f). O(slots). */
void imp_forces_body_set(const imp_world *w, const double *y, double *f)
{
    int n = w->model.nslots;
    if (w->model.def.dim != 3) {
        memset(f, 0, (size_t)n * 6 * sizeof *f);
        add_body_2d(w, y, f);
        return;
    }
    const imp_forces_defaults d = imp_forces_defaults_of(w);
    memset(f, 0, 6 * sizeof *f);  /* the background's */
    for (int i = 1; i < n; i++) {
        imp_forces_body_3d(&w->model.bodies[i], body_state(w, y, i), &d, f + 6 * i);
    }
}

int imp_forces_undamped_3d(const imp_world *w)
{
    const imp_forces_defaults d = imp_forces_defaults_of(w);
    for (int i = 1; i < w->model.nslots; i++) {
        const imp_body *b = &w->model.bodies[i];
        if (!b->active || b->fixed || b->kinematic) {
            continue;
        }
        double cl = b->linear_damping >= 0.0 ? b->linear_damping : d.dl;
        double ca = b->angular_damping >= 0.0 ? b->angular_damping : d.da;
        if (cl != 0.0 || ca != 0.0) {
            return 0;
        }
    }
    return 1;
}

void imp_point_world(const imp_world *w, const double *y, int slot, const double *p_body,
                     double pos[3], double vel[3])
{
    const double *yi = body_state(w, y, slot);
    if (w->model.def.dim == 2) {
        imp_vec2 r = imp_v2_rotate(imp_v2(p_body[0], p_body[1]), yi[2]);
        imp_vec2 v = imp_v2_add(imp_v2(yi[3], yi[4]), imp_v2_cross_sv(yi[5], r));
        pos[0] = yi[0] + r.x, pos[1] = yi[1] + r.y, pos[2] = 0.0;
        vel[0] = v.x, vel[1] = v.y, vel[2] = 0.0;
        return;
    }
    imp_quat q = imp_q_normalize(imp_q(yi[3], yi[4], yi[5], yi[6]));
    imp_vec3 r = imp_q_rotate(q, imp_v3_load(p_body));
    imp_v3_store(pos, imp_v3_add(imp_v3_load(yi), r));
    imp_v3_store(vel, imp_v3_add(imp_v3_load(yi + IMP_VEL_3D), imp_v3_cross(imp_v3_load(yi + 10), r)));
}

/* Adds force fv at world point p to slot i (no-op for fixed bodies and the background). */
static void add_force_at(const imp_world *w, const double *y, double *f, int i, const double *fv,
                         const double *p)
{
    if (w->model.bodies[i].fixed) {
        return;
    }
    const double *yi = body_state(w, y, i);
    double *fi = f + 6 * i;
    fi[0] += fv[0];
    fi[1] += fv[1];
    fi[2] += fv[2];
    imp_vec3 r = imp_v3(p[0] - yi[0], p[1] - yi[1], w->model.def.dim == 3 ? p[2] - yi[2] : 0.0);
    imp_vec3 tq = imp_v3_cross(r, imp_v3_load(fv));
    fi[3] += tq.x;
    fi[4] += tq.y;
    fi[5] += tq.z;
}

/* length, unit direction from point 1 to point 2, and rate of change of the length */
static double spring_geometry(const imp_world *w, const double *y, const imp_spring *sp,
                              double p1[3], double p2[3], double u[3], double *rate)
{
    double v1[3], v2[3];
    imp_point_world(w, y, sp->def.body1.slot, sp->def.point1, p1, v1);
    imp_point_world(w, y, sp->def.body2.slot, sp->def.point2, p2, v2);
    imp_vec3 d = imp_v3_sub(imp_v3_load(p2), imp_v3_load(p1));
    double len = imp_v3_len(d);
    imp_vec3 dir = len > 0.0 ? imp_v3_scale(d, 1.0 / len) : imp_v3_zero();
    imp_v3_store(u, dir);
    *rate = imp_v3_dot(dir, imp_v3_sub(imp_v3_load(v2), imp_v3_load(v1)));
    return len;
}

void imp_forces_springs(const imp_world *w, const double *y, double *f)
{
    for (int i = 0; i < w->model.nsprings; i++) {
        const imp_spring *sp = &w->model.springs[i];
        if (!sp->active) {
            continue;
        }
        double p1[3], p2[3], u[3], rate;
        double len = spring_geometry(w, y, sp, p1, p2, u, &rate);
        /* tension > 0 pulls the ends together; at zero length the direction is undefined and
           the force is zero */
        double tension = sp->def.stiffness * (len - sp->def.rest_length) + sp->def.damping * rate;
        double f1[3] = {tension * u[0], tension * u[1], tension * u[2]};
        double f2[3] = {-f1[0], -f1[1], -f1[2]};
        add_force_at(w, y, f, sp->def.body1.slot, f1, p1);
        add_force_at(w, y, f, sp->def.body2.slot, f2, p2);
    }
}

/* Mutual gravitation over every pair of bodies with mass (not both fixed): adds the forces into
   f when f != NULL and returns the potential energy -G m_i m_j / sqrt(r^2 + eps^2). O(n^2). */
static double gravitation(const imp_world *w, const double *y, double *f)
{
    double g = w->model.def.gravitation_g;
    if (g == 0.0) {
        return 0.0;
    }
    double eps2 = w->model.def.gravitation_softening * w->model.def.gravitation_softening;
    int dim = w->model.def.dim;
    double energy = 0.0;
    for (int i = 1; i < w->model.nslots; i++) {
        const imp_body *bi = &w->model.bodies[i];
        if (!bi->active || !(bi->mass > 0.0)) {
            continue;
        }
        const double *yi = body_state(w, y, i);
        for (int j = i + 1; j < w->model.nslots; j++) {
            const imp_body *bj = &w->model.bodies[j];
            if (!bj->active || !(bj->mass > 0.0) || (bi->fixed && bj->fixed)) {
                continue;
            }
            const double *yj = body_state(w, y, j);
            double d[3] = {0, 0, 0};
            double r2 = eps2;
            for (int k = 0; k < dim; k++) {
                d[k] = yj[k] - yi[k];
                r2 += d[k] * d[k];
            }
            if (!(r2 > 0.0)) {
                continue;  /* coincident centres without softening: no defined direction */
            }
            double gm = g * bi->mass * bj->mass;
            energy -= gm / sqrt(r2);
            if (f == NULL) {
                continue;
            }
            double s = gm / (r2 * sqrt(r2));
            for (int k = 0; k < dim; k++) {
                if (!bi->fixed) {
                    f[6 * i + k] += s * d[k];
                }
                if (!bj->fixed) {
                    f[6 * j + k] -= s * d[k];
                }
            }
        }
    }
    return energy;
}

void imp_forces_gravitation(const imp_world *w, const double *y, double *f)
{
    gravitation(w, y, f);
}

double imp_potential_gravity(const imp_world *w, const double *y)
{
    double e = 0.0;
    for (int i = 1; i < w->model.nslots; i++) {
        const imp_body *b = &w->model.bodies[i];
        if (!b->active || b->fixed || b->kinematic) {
            continue;
        }
        const double *yi = body_state(w, y, i);
        for (int k = 0; k < w->model.def.dim; k++) {
            e -= b->mass * w->model.def.gravity[k] * yi[k];
        }
    }
    return e;
}

double imp_potential_springs(const imp_world *w, const double *y)
{
    double e = 0.0;
    for (int i = 0; i < w->model.nsprings; i++) {
        const imp_spring *sp = &w->model.springs[i];
        if (!sp->active) {
            continue;
        }
        double p1[3], p2[3], u[3], rate;
        double stretch = spring_geometry(w, y, sp, p1, p2, u, &rate) - sp->def.rest_length;
        e += 0.5 * sp->def.stiffness * stretch * stretch;
    }
    return e;
}

double imp_potential_gravitation(const imp_world *w, const double *y)
{
    return gravitation(w, y, NULL);
}
