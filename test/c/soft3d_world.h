/* soft3d_world.h: the C tests' 3D worlds under the soft step (contact strategy, contact_solver
   "soft", dt 1/60 s, gravity g down z) and their boxes. */
#ifndef IMPACT_TEST_SOFT3D_WORLD_H
#define IMPACT_TEST_SOFT3D_WORLD_H

#include <math.h>

#include <impact/shape.h>
#include <impact/world.h>

/* a 3D soft world with gravity (0, 0, -g); NULL when it cannot be made */
static inline imp_world *soft3d_world(double g)
{
    imp_world_def def = imp_world_default_def(3);
    def.dt = 1.0 / 60.0;
    def.gravity[0] = def.gravity[1] = 0.0;
    def.gravity[2] = -g;
    def.strategy = IMP_STRATEGY_CONTACT;
    def.engine2d.contact_solver = IMP_SOLVER_SOFT;
    return imp_world_new(&def);
}

/* a box size x size x thick of density 1, friction mu, no elasticity, centred at pos, turned by
   turn about z, moving at vx along x; fixed or not */
static inline imp_body_id soft3d_box(imp_world *w, double size, double thick, const double pos[3],
                                     double vx, double turn, double mu, int fixed)
{
    imp_body_def bd = imp_body_default_def(3);
    bd.shape = imp_shape3d_box(size, size, thick);
    bd.density = 1.0;
    bd.fixed = fixed;
    bd.friction = mu;
    bd.elasticity = 0.0;
    bd.state[0] = pos[0], bd.state[1] = pos[1], bd.state[2] = pos[2];
    bd.state[3] = cos(turn / 2.0);  /* (the unit quaternion of the turn about z) */
    bd.state[6] = sin(turn / 2.0);
    bd.state[7] = vx;
    imp_body_id id = imp_world_add_body(w, &bd);
    imp_shape_release(bd.shape);
    return id;
}

#endif
