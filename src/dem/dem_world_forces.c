/* dem_world_forces.c: the world's forces on dem bodies, added once the force resetter has
   zeroed the particles' forces (Yade's ForceContainer: the forces and torques a script adds
   for one step, O.forces.addF / addT, are Body:apply_force / apply_torque; its permanent ones,
   setPermF / setPermT, are the loads of loads.c). A sphere takes them as they are; a clump
   through its first member, with the torque that makes the clump's sum come out about its
   centre of mass. Springs join bodies, which the dem's particles do not model: a world with
   one refuses to step (its interactions are the dem's contact laws and cohesive bonds). Ghost
   particles (several ranks) take them too, and their Newton step skips them. O(bodies +
   loads) in a step after Body:apply_force or apply_torque (the world's applied flag),
   O(springs + loads) otherwise. */
#include <stdio.h>

#include "dem.h"
#include "forces.h"
#include "quat.h"
#include "world_internal.h"

/* the rotation of body slot's particle i (its clump's for a member) and the lever from that
   particle to where a force acts at body point p */
static imp_vec3 lever(const imp_dem *d, int i, const double *p, imp_quat *q)
{
    int c = d->clump_of[i];
    const double *qs = c >= 0 ? d->clumps[c].quat : d->quat + 4 * i;
    *q = imp_q_normalize(imp_q(qs[0], qs[1], qs[2], qs[3]));
    imp_vec3 r = imp_q_rotate(*q, imp_v3_load(p));
    if (c >= 0) {  /* from the member to the clump's centre of mass, then to the point */
        r = imp_v3_sub(r, imp_v3_sub(imp_v3_load(d->pos + 3 * i), imp_v3_load(d->clumps[c].pos)));
    }
    return r;
}

static void add(imp_dem *d, int i, imp_vec3 f, imp_vec3 t)
{
    imp_dem_force_touch(d, i);
    double *fi = d->force + 3 * i, *ti = d->torque + 3 * i;
    fi[0] += f.x, fi[1] += f.y, fi[2] += f.z;
    ti[0] += t.x, ti[1] += t.y, ti[2] += t.z;
}

static int particle_of(const imp_dem *d, int slot)
{
    return slot < d->nslot_map ? d->slot_to_particle[slot] : -1;
}

int imp_dem_add_world_forces(imp_dem *d, imp_world *w)
{
    for (int k = 0; k < w->model.nsprings; k++) {
        if (w->model.springs[k].active) {
            snprintf(w->data.error, sizeof w->data.error, "dem strategy: the world has a spring, "
                     "which the dem does not model (its bodies interact through its contact laws "
                     "and cohesive bonds): remove it (World:remove_spring) or use another strategy");
            w->data.nerror_bodies = 2;
            w->data.error_bodies[0] = w->model.springs[k].def.body1.slot;
            w->data.error_bodies[1] = w->model.springs[k].def.body2.slot;
            return -1;
        }
    }
    static const double centre[3] = {0.0, 0.0, 0.0};
    for (int s = 1; w->data.applied && s < w->model.nslots; s++) {
        const imp_body *b = &w->model.bodies[s];
        int i = particle_of(d, s);
        if (!b->active || i < 0) {
            continue;
        }
        imp_vec3 f = imp_v3_load(b->force), t = imp_v3_load(b->torque);
        if (f.x == 0.0 && f.y == 0.0 && f.z == 0.0 && t.x == 0.0 && t.y == 0.0 && t.z == 0.0) {
            continue;
        }
        imp_quat q;
        imp_vec3 r = lever(d, i, centre, &q);  /* apply_force's point is already in its torque */
        add(d, i, f, imp_v3_add(t, imp_v3_cross(r, f)));
    }
    for (int k = 0; k < w->model.nloads; k++) {
        const imp_load *l = &w->model.loads[k];
        int i = l->active ? particle_of(d, l->def.body.slot) : -1;
        if (i < 0) {
            continue;
        }
        imp_quat q;
        imp_vec3 r = lever(d, i, l->def.point, &q);
        double fv[3], tv[3];
        imp_load_values(w, k, w->data.time, fv, tv);
        imp_vec3 f = imp_v3_load(fv), t = imp_v3_load(tv);
        if (l->def.body_frame) {
            f = imp_q_rotate(q, f);
            t = imp_q_rotate(q, t);
        }
        add(d, i, f, imp_v3_add(t, imp_v3_cross(r, f)));
    }
    return 0;
}
