/* loads.c: forces and torques held on bodies from step to step (imp_load_def, world.h) and
   evaluated at every stage of the integrator, in the world's directions or turning with the
   body (myPhysicsLab's ConstantForceLaw and thrusters, Yade's permanent forces, Chrono's
   body-frame forces). Storage as the springs': a list with freed entries reused and handles
   checked by generation. Cost: O(loads) per evaluation. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "forces.h"
#include "islands.h"
#include "slots.h"
#include "quat.h"
#include "vec2.h"

static int finite3(const double *v)
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

static imp_load_id fail(imp_world *w, const char *msg)
{
    snprintf(w->data.error, sizeof w->data.error, "%s", msg);
    imp_load_id id = {-1, 0};
    return id;
}

imp_load_id imp_world_add_load(imp_world *w, const imp_load_def *def)
{
    imp_body *b = imp_world_body(w, def->body);
    if (b == NULL || def->body.slot == 0) {
        return fail(w, "a load's body must be a body of this world (not the background)");
    }
    if (b->fixed) {
        return fail(w, "a load on a fixed body would do nothing: load a body that moves");
    }
    if (!finite3(def->force) || !finite3(def->torque) || !finite3(def->point)) {
        return fail(w, "a load's force, torque and point must be finite");
    }
    int index = imp_slots_take((void **)&w->model.loads, &w->model.nloads, &w->model.load_capacity,
                               sizeof(imp_load), offsetof(imp_load, active),
                               offsetof(imp_load, generation));
    if (index < 0) {
        return fail(w, "out of memory");
    }
    imp_load *l = &w->model.loads[index];
    l->def = *def;
    l->active = 1;
    b->nloads++;
    imp_islands_wake(w, def->body.slot);
    imp_load_id id = {index, l->generation};
    return id;
}

imp_load *imp_world_load(imp_world *w, imp_load_id id)
{
    if (id.index < 0 || id.index >= w->model.nloads) {
        return NULL;
    }
    imp_load *l = &w->model.loads[id.index];
    return (l->active && l->generation == id.generation) ? l : NULL;
}

static void drop(imp_world *w, imp_load *l)
{
    w->model.bodies[l->def.body.slot].nloads--;
    l->active = 0;
    l->generation++;
}

imp_status imp_world_remove_load(imp_world *w, imp_load_id id)
{
    imp_load *l = imp_world_load(w, id);
    if (l == NULL) {
        snprintf(w->data.error, sizeof w->data.error, "a stale load handle (its load was removed)");
        return IMP_ERR_STALE;
    }
    imp_islands_wake(w, l->def.body.slot);
    drop(w, l);
    return IMP_OK;
}

void imp_loads_forget_body(imp_world *w, int slot)
{
    for (int i = 0; i < w->model.nloads; i++) {
        imp_load *l = &w->model.loads[i];
        if (l->active && l->def.body.slot == slot) {
            drop(w, l);
        }
    }
}

void imp_world_set_load_fn(imp_world *w, imp_load_fn fn, void *ctx)
{
    w->model.load_fn = fn;
    w->model.load_ctx = ctx;
}

void imp_load_values(const imp_world *w, int i, double t, double force[3], double torque[3])
{
    const imp_load *l = &w->model.loads[i];
    for (int k = 0; k < 3; k++) {
        force[k] = l->def.force[k];
        torque[k] = l->def.torque[k];
    }
    if (l->def.timed && (w->model.load_fn == NULL
                         || w->model.load_fn(w->model.load_ctx, i, t, force, torque) != 0)) {
        force[0] = force[1] = force[2] = NAN;  /* the step fails; the world keeps its state */
    }
}

void imp_forces_loads(const imp_world *w, double t, const double *y, double *f)
{
    int dim = w->model.def.dim, stride = w->model.stride;
    for (int i = 0; i < w->model.nloads; i++) {
        const imp_load *l = &w->model.loads[i];
        int slot = l->def.body.slot;
        const imp_body *b = &w->model.bodies[slot];
        if (!l->active || b->kinematic) {
            continue;
        }
        double force[3], torque[3];
        imp_load_values(w, i, t, force, torque);
        const double *yi = y + (size_t)slot * (size_t)stride;
        double *fi = f + 6 * slot;
        if (dim == 2) {
            imp_vec2 F = imp_v2(force[0], force[1]);
            if (l->def.body_frame) {
                F = imp_v2_rotate(F, yi[2]);
            }
            imp_vec2 r = imp_v2_rotate(imp_v2(l->def.point[0], l->def.point[1]), yi[2]);
            fi[0] += F.x;
            fi[1] += F.y;
            fi[5] += r.x * F.y - r.y * F.x + torque[2];
            continue;
        }
        imp_quat q = imp_q_normalize(imp_q(yi[3], yi[4], yi[5], yi[6]));
        imp_vec3 F = imp_v3_load(force), T = imp_v3_load(torque);
        if (l->def.body_frame) {
            F = imp_q_rotate(q, F);
            T = imp_q_rotate(q, T);
        }
        imp_vec3 tq = imp_v3_add(imp_v3_cross(imp_q_rotate(q, imp_v3_load(l->def.point)), F), T);
        fi[0] += F.x, fi[1] += F.y, fi[2] += F.z;
        fi[3] += tq.x, fi[4] += tq.y, fi[5] += tq.z;
    }
}
