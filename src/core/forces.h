/* forces.h: the force laws of a world. Each adds, per body slot, force[3] and torque[3]
   (world frame) into f (6 numbers a slot) for the state y, and has a potential energy. */
#ifndef IMPACT_FORCES_H
#define IMPACT_FORCES_H

#include "world_internal.h"

/* uniform gravity, applied forces and torques, linear and angular damping, written into f
   (every slot's six: zero where none acts): the first of the laws, the others add to it */
void imp_forces_body_set(const imp_world *w, const double *y, double *f);
/* springs between body points: F = (k (L - L0) + c dL/dt) along the spring */
void imp_forces_springs(const imp_world *w, const double *y, double *f);
/* mutual gravitation G m_i m_j / (r^2 + eps^2) between every pair of bodies with mass */
void imp_forces_gravitation(const imp_world *w, const double *y, double *f);

/* the loads (loads.c): their forces and torques at the state y */
void imp_forces_loads(const imp_world *w, double t, const double *y, double *f);
/* load i's force and torque at time t (timed loads: from the world's load function; NaN
   forces when it failed) */
void imp_load_values(const imp_world *w, int i, double t, double force[3], double torque[3]);
/* a removed body's loads go with it (world.c) */
void imp_loads_forget_body(imp_world *w, int slot);

double imp_potential_gravity(const imp_world *w, const double *y);
double imp_potential_springs(const imp_world *w, const double *y);
double imp_potential_gravitation(const imp_world *w, const double *y);

/* World position and velocity of a point given in a body's frame. */
void imp_point_world(const imp_world *w, const double *y, int slot, const double *p_body,
                     double pos[3], double vel[3]);

#endif
