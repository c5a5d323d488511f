/* bench_scenes2d.h: building blocks of the 2D engine benchmarks (bench_engine2d.c,
   bench_lcp_engine.c). */
#ifndef IMPACT_BENCH_SCENES2D_H
#define IMPACT_BENCH_SCENES2D_H

#include "polygon2d.h"
#include "world_internal.h"

/* a wd x ht block at (x, y, angle) with the given density, elasticity and friction */
static inline imp_body_id bench_add_block(imp_world *w, double wd, double ht, double x, double y,
                                          double angle, int fixed, double density,
                                          double elasticity, double friction)
{
    imp_poly2d_error err;
    imp_body_def d = imp_body_default_def(2);
    d.shape = imp_shape2d_block(wd, ht, &err);
    d.density = density;
    d.fixed = fixed;
    d.state[0] = x;
    d.state[1] = y;
    d.state[2] = angle;
    d.elasticity = elasticity;
    d.friction = friction;
    imp_body_id id = imp_world_add_body(w, &d);
    imp_shape_release(d.shape);
    return id;
}

#endif
