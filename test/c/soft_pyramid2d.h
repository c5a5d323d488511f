/* soft_pyramid2d.h: the 2D soft step's test scene, a pyramid of unit boxes (base boxes at the
   bottom row, friction 0.6) on a fixed ground of width ground_w, each box turned by tilt times
   one of -2 .. 2 (not quite at rest); dt 1/60, 4 sub-steps. */
#ifndef IMPACT_TEST_SOFT_PYRAMID2D_H
#define IMPACT_TEST_SOFT_PYRAMID2D_H

#include "engine2d.h"
#include "polygon2d.h"
#include "shape2d_basic.h"
#include "world_internal.h"

static imp_world *soft_pyramid2d(int base, double ground_w, double tilt)
{
    imp_world_def def = imp_world_default_def(2);
    def.strategy = IMP_STRATEGY_CONTACT;
    def.dt = 1.0 / 60.0;
    def.gravity[1] = -10.0;
    def.engine2d.contact_solver = IMP_SOLVER_SOFT;
    def.engine2d.substeps = 4;
    def.engine2d.time_stepping = IMP_STEPPING_SYMPLECTIC_EULER;
    imp_world *w = imp_world_new(&def);
    imp_poly2d_error err;
    for (int i = -1; i < base; i++) {
        for (int j = i < 0 ? 0 : i; j < (i < 0 ? 1 : base); j++) {
            imp_body_def d = imp_body_default_def(2);
            d.shape = i < 0 ? imp_shape2d_block(ground_w, 2, &err) : imp_shape2d_block(1, 1, &err);
            d.fixed = i < 0;
            d.density = 1.0;
            d.friction = 0.6;
            d.elasticity = 0.0;
            d.state[0] = i < 0 ? 0.0 : 0.5 * (i + 1) + (j - i) - 0.5 * base;
            d.state[1] = i < 0 ? -1.0 : 0.5 * (2 * i + 1);
            d.state[2] = i < 0 ? 0.0 : tilt * ((i * 7 + j * 3) % 5 - 2);
            imp_world_add_body(w, &d);
            imp_shape_release(d.shape);
        }
    }
    return w;
}

#endif
