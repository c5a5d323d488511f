/* forces.h: the force laws of a world. Each adds, per body slot, force[3] and torque[3]
   (world frame) into f (6 numbers a slot) for the state y, and has a potential energy. */
#ifndef IMPACT_FORCES_H
#define IMPACT_FORCES_H

#include "world_internal.h"

/* uniform gravity, applied forces and torques, linear and angular damping, written into f
   (every slot's six: zero where none acts): the first of the laws, the others add to it */
void imp_forces_body_set(const imp_world *w, const double *y, double *f);

/* the world's gravity and default dampings, read once for a walk of the bodies */
typedef struct {
    double g0, g1, g2, dl, da;
} imp_forces_defaults;
static inline imp_forces_defaults imp_forces_defaults_of(const imp_world *w)
{
    const imp_world_def *d = &w->model.def;
    imp_forces_defaults r = {d->gravity[0], d->gravity[1], d->gravity[2], d->linear_damping, d->angular_damping};
    return r;
}
/* 3D body b's six (force, torque) at its state yi, as imp_forces_body_set writes them: zero
   for a body no force acts on (inactive, fixed, kinematic), otherwise each number 0.0 + the
   sum, as zeroing and adding gave (a -0.0 sum gives +0.0) */
static inline void imp_forces_body_3d(const imp_body *b, const double *yi, const imp_forces_defaults *d, double fi[6])
{
    if (!b->active || b->fixed || b->kinematic) {
        fi[0] = fi[1] = fi[2] = fi[3] = fi[4] = fi[5] = 0.0;
        return;
    }
    double cl = b->linear_damping >= 0.0 ? b->linear_damping : d->dl;
    double ca = b->angular_damping >= 0.0 ? b->angular_damping : d->da;
    double m = b->mass;
    double f0 = 0.0 + (m * d->g0 + b->force[0] - cl * yi[IMP_VEL_3D]);
    double f1 = 0.0 + (m * d->g1 + b->force[1] - cl * yi[IMP_VEL_3D + 1]);
    double f2 = 0.0 + (m * d->g2 + b->force[2] - cl * yi[IMP_VEL_3D + 2]);
    double t0 = 0.0 + (b->torque[0] - ca * yi[IMP_VEL_3D + 3]);
    double t1 = 0.0 + (b->torque[1] - ca * yi[IMP_VEL_3D + 4]);
    double t2 = 0.0 + (b->torque[2] - ca * yi[IMP_VEL_3D + 5]);
    fi[0] = f0, fi[1] = f1, fi[2] = f2, fi[3] = t0, fi[4] = t1, fi[5] = t2;
}
/* whether no 3D body that imp_forces_body_3d gives a force has damping (its own or the world's
   default: each 0): each body's six then do not depend on its velocity while it is finite (a
   damping 0 times a finite velocity is a zero, whose sign 0.0 + the sum drops), so a walk of
   sub-steps may keep the six of its first. O(slots). */
int imp_forces_undamped_3d(const imp_world *w);
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
