/* energy.c: energies and momenta of bodies and worlds; body point transforms and impulses. */
#include <math.h>
#include <string.h>

#include "forces.h"
#include "quat.h"
#include "vec2.h"
#include "world_internal.h"

static const double *state_of(const imp_world *w, int slot)
{
    imp_world_sync(w);
    return w->data.y + (size_t)slot * (size_t)w->model.stride;
}

static imp_quat orientation_of(const double *yi)
{
    return imp_q_normalize(imp_q(yi[3], yi[4], yi[5], yi[6]));
}

imp_mat3 imp_body_world_inertia(const imp_world *w, imp_body_id id)
{
    const imp_body *b = &w->model.bodies[id.slot];
    if (w->model.def.dim == 2) {
        return b->inertia;
    }
    imp_mat3 r = imp_q_to_mat3(orientation_of(state_of(w, id.slot)));
    return imp_m3_rotate_tensor(&r, &b->inertia);
}

double imp_body_kinetic_energy(const imp_world *w, imp_body_id id)
{
    const imp_body *b = &w->model.bodies[id.slot];
    if (b->fixed || b->kinematic) {
        return 0.0;
    }
    const double *v = state_of(w, id.slot) + (w->model.def.dim == 2 ? IMP_VEL_2D : IMP_VEL_3D);
    double v2 = 0.0;
    for (int k = 0; k < w->model.def.dim; k++) {
        v2 += v[k] * v[k];
    }
    return 0.5 * b->mass * v2;
}

double imp_body_rotational_energy(const imp_world *w, imp_body_id id)
{
    const imp_body *b = &w->model.bodies[id.slot];
    if (b->fixed || b->kinematic) {
        return 0.0;
    }
    const double *yi = state_of(w, id.slot);
    if (w->model.def.dim == 2) {
        return 0.5 * b->inertia.m[2][2] * yi[5] * yi[5];
    }
    /* in the body frame: 1/2 w_b . I w_b */
    imp_vec3 wb = imp_q_unrotate(orientation_of(yi), imp_v3_load(yi + 10));
    return 0.5 * imp_v3_dot(wb, imp_m3_mulv(&b->inertia, wb));
}

void imp_body_momentum(const imp_world *w, imp_body_id id, double p[3])
{
    const imp_body *b = &w->model.bodies[id.slot];
    const double *v = state_of(w, id.slot) + (w->model.def.dim == 2 ? IMP_VEL_2D : IMP_VEL_3D);
    for (int k = 0; k < 3; k++) {
        p[k] = (!b->fixed && !b->kinematic && k < w->model.def.dim) ? b->mass * v[k] : 0.0;
    }
}

void imp_body_angular_momentum(const imp_world *w, imp_body_id id, double l[3])
{
    const imp_body *b = &w->model.bodies[id.slot];
    l[0] = l[1] = l[2] = 0.0;
    if (b->fixed || b->kinematic) {
        return;
    }
    const double *yi = state_of(w, id.slot);
    if (w->model.def.dim == 2) {
        l[2] = b->mass * (yi[0] * yi[4] - yi[1] * yi[3]) + b->inertia.m[2][2] * yi[5];
        return;
    }
    /* x cross m v + R I R^T w, with the spin part computed in the body frame */
    imp_quat q = orientation_of(yi);
    imp_vec3 orbital = imp_v3_scale(imp_v3_cross(imp_v3_load(yi), imp_v3_load(yi + IMP_VEL_3D)), b->mass);
    imp_vec3 wb = imp_q_unrotate(q, imp_v3_load(yi + 10));
    imp_vec3 spin = imp_q_rotate(q, imp_m3_mulv(&b->inertia, wb));
    imp_v3_store(l, imp_v3_add(orbital, spin));
}

imp_energy imp_world_energy(const imp_world *w)
{
    imp_energy e = {0, 0, 0, 0};
    imp_world_sync(w);
    for (int i = 1; i < w->model.nslots; i++) {
        if (!w->model.bodies[i].active) {
            continue;
        }
        imp_body_id id = {i, w->model.bodies[i].generation};
        e.kinetic += imp_body_kinetic_energy(w, id);
        e.rotational += imp_body_rotational_energy(w, id);
    }
    e.potential = imp_potential_gravity(w, w->data.y) + imp_potential_springs(w, w->data.y)
                + imp_potential_gravitation(w, w->data.y);
    e.total = e.kinetic + e.rotational + e.potential;
    return e;
}

void imp_world_momentum(const imp_world *w, double p[3])
{
    p[0] = p[1] = p[2] = 0.0;
    for (int i = 1; i < w->model.nslots; i++) {
        if (!w->model.bodies[i].active) {
            continue;
        }
        imp_body_id id = {i, w->model.bodies[i].generation};
        double pi[3];
        imp_body_momentum(w, id, pi);
        p[0] += pi[0], p[1] += pi[1], p[2] += pi[2];
    }
}

void imp_world_angular_momentum(const imp_world *w, double l[3])
{
    l[0] = l[1] = l[2] = 0.0;
    for (int i = 1; i < w->model.nslots; i++) {
        if (!w->model.bodies[i].active) {
            continue;
        }
        imp_body_id id = {i, w->model.bodies[i].generation};
        double li[3];
        imp_body_angular_momentum(w, id, li);
        l[0] += li[0], l[1] += li[1], l[2] += li[2];
    }
}

void imp_body_to_world(const imp_world *w, imp_body_id id, const double *p_body, double *p_world)
{
    double p[3] = {p_body[0], p_body[1], w->model.def.dim == 3 ? p_body[2] : 0.0}, pos[3], vel[3];
    imp_world_sync(w);
    imp_point_world(w, w->data.y, id.slot, p, pos, vel);
    for (int k = 0; k < w->model.def.dim; k++) {
        p_world[k] = pos[k];
    }
}

void imp_body_to_body(const imp_world *w, imp_body_id id, const double *p_world, double *p_body)
{
    const double *yi = state_of(w, id.slot);
    if (w->model.def.dim == 2) {
        imp_vec2 r = imp_v2_rotate(imp_v2(p_world[0] - yi[0], p_world[1] - yi[1]), -yi[2]);
        p_body[0] = r.x, p_body[1] = r.y;
        return;
    }
    imp_vec3 r = imp_q_unrotate(orientation_of(yi), imp_v3_sub(imp_v3_load(p_world), imp_v3_load(yi)));
    imp_v3_store(p_body, r);
}

void imp_body_point_velocity(const imp_world *w, imp_body_id id, const double *p_world, double *v)
{
    const double *yi = state_of(w, id.slot);
    if (w->model.def.dim == 2) {
        imp_vec2 r = imp_v2(p_world[0] - yi[0], p_world[1] - yi[1]);
        imp_vec2 u = imp_v2_add(imp_v2(yi[3], yi[4]), imp_v2_cross_sv(yi[5], r));
        v[0] = u.x, v[1] = u.y;
        return;
    }
    imp_vec3 r = imp_v3_sub(imp_v3_load(p_world), imp_v3_load(yi));
    imp_v3_store(v, imp_v3_add(imp_v3_load(yi + IMP_VEL_3D), imp_v3_cross(imp_v3_load(yi + 10), r)));
}

imp_status imp_body_apply_impulse(imp_world *w, imp_body_id id, const double *j, const double *at)
{
    imp_body *b = &w->model.bodies[id.slot];
    if (b->fixed || b->kinematic) {
        return IMP_OK;
    }
    imp_world_sync(w);
    double *yi = w->data.y + (size_t)id.slot * (size_t)w->model.stride;
    double v[6];  /* the new velocities, kept only when finite */
    int first, n;
    if (w->model.def.dim == 2) {
        first = 3, n = 3;
        v[0] = yi[3] + j[0] * b->inv_mass;
        v[1] = yi[4] + j[1] * b->inv_mass;
        v[2] = yi[5];
        if (at != NULL) {
            const double r[2] = {at[0] - yi[0], at[1] - yi[1]};
            v[2] += (r[0] * j[1] - r[1] * j[0]) * b->inv_inertia.m[2][2];
        }
    } else {
        first = IMP_VEL_3D, n = 6;  /* velocity, then angular velocity (yi + 10) */
        for (int k = 0; k < 3; k++) {
            v[k] = yi[IMP_VEL_3D + k] + j[k] * b->inv_mass;
            v[3 + k] = yi[IMP_VEL_3D + 3 + k];
        }
        if (at != NULL) {
            imp_quat q = orientation_of(yi);
            imp_vec3 dl = imp_v3_cross(imp_v3_sub(imp_v3_load(at), imp_v3_load(yi)), imp_v3_load(j));
            /* dw = R I^-1 R^T dL */
            imp_vec3 dw = imp_q_rotate(q, imp_m3_mulv(&b->inv_inertia, imp_q_unrotate(q, dl)));
            imp_v3_store(v + 3, imp_v3_add(imp_v3_load(v + 3), dw));
        }
    }
    for (int k = 0; k < n; k++) {
        if (!isfinite(v[k])) {
            return IMP_ERR_NONFINITE;
        }
    }
    memcpy(yi + first, v, (size_t)n * sizeof *v);
    return IMP_OK;
}

void imp_body_apply_force(imp_world *w, imp_body_id id, const double *f, const double *at)
{
    imp_body *b = &w->model.bodies[id.slot];
    const double *yi = state_of(w, id.slot);
    int dim = w->model.def.dim;
    w->data.applied = 1;
    for (int k = 0; k < dim; k++) {
        b->force[k] += f[k];
    }
    if (at == NULL) {
        return;
    }
    if (dim == 2) {
        b->torque[2] += (at[0] - yi[0]) * f[1] - (at[1] - yi[1]) * f[0];
        return;
    }
    imp_vec3 t = imp_v3_cross(imp_v3_sub(imp_v3_load(at), imp_v3_load(yi)), imp_v3_load(f));
    b->torque[0] += t.x, b->torque[1] += t.y, b->torque[2] += t.z;
}

void imp_body_apply_torque(imp_world *w, imp_body_id id, const double *t)
{
    imp_body *b = &w->model.bodies[id.slot];
    w->data.applied = 1;
    if (w->model.def.dim == 2) {
        b->torque[2] += t[0];
        return;
    }
    b->torque[0] += t[0], b->torque[1] += t[1], b->torque[2] += t[2];
}
