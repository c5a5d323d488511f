/* engine3d_material.h: a 3D body pair's friction and restitution, inline for the held-pair
   test (engine3d_soft_recycle.c), which asks once a held pair a step: a call cost about 55
   instructions a pair, the answer a dozen. */
#ifndef IMPACT_ENGINE3D_MATERIAL_H
#define IMPACT_ENGINE3D_MATERIAL_H

#include "engine3d.h"
#include "scalar.h"
#include "world_internal.h"

/* imp_engine3d_pair_material (engine3d.h): the pair's override, else the lesser of its
   bodies' friction and elasticity (the override looked up only when there are some) */
static inline void imp_e3_pair_material(const imp_world *w, int a, int b, double *mu, double *el)
{
    const imp_engine3d *e = w->engine3d;
    const imp_e3_pair_override *o = e != NULL && e->npairs > 0 ? imp_engine3d_pair(w, a, b) : NULL;
    if (o != NULL) {
        *mu = o->friction;
        *el = o->elasticity;
        return;
    }
    const imp_body *ba = &w->model.bodies[a], *bb = &w->model.bodies[b];
    *mu = imp_fmin(ba->friction, bb->friction);
    *el = imp_fmin(ba->elasticity, bb->elasticity);
}

#endif
