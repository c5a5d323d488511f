/* engine3d_soft.h: the soft step of the 3D engine (contact_solver = "soft", engine2d_def.h's
   imp_soft_def), as Box2D v3 and Box3D step. One step of h in k = substeps sub-steps of
   hs = h / k:
     detect once (engine3d_detect.c, the margin covering the whole step's motion; the points
     matched with the last step's: warm starts, events); the pairs of polyhedra that moved
     little keep their last manifold instead (engine3d_soft_recycle.h, Box3D's contact
     recycling); then per point its frame, lever arms (fixed over the step) and effective masses;
     per sub-step: v += hs M^-1 F (gravity, forces); the warm starts (each point's impulse of
     the last sub-step, the step before's for the first); `iterations` solve passes over the
     points with soft rows (by the pairs' graph colours, four pairs at once: engine3d_soft_
     blocks.c; the pairs of two moving bodies first, those against a body that does not move
     last: Box3D's priority of static constraints); x += hs v;
     `relax_iterations` passes without the soft bias;
     after the sub-steps one restitution pass, then the step's impulses are kept (the sum over
     the sub-steps: w:contacts() gives them over dt) and the last sub-step's (the next step's
     warm starts).
   A point's separation in a sub-step is its detected gap moved by its anchors' relative motion
   since the step began, s = d + n . ((dx_b + R_b r_b - r_b) - (dx_a + R_a r_a - r_a)). Its
   normal row: s > 0, speculative (u_N + s / hs >= 0: the gap may close, no more); s <= 0 in a
   solve pass, the soft row of a spring of stiffness frequency hertz and damping ratio zeta
   over hs (omega = 2 pi hertz, a1 = 2 zeta + hs omega, a2 = hs omega a1: bias rate
   omega / a1, mass scale a2 / (1 + a2), impulse scale 1 / (1 + a2); the push-out speed at
   most push_max; hertz at most a quarter of the sub-step rate, twice it at half the damping
   ratio against a body that does not move, as Box3D's static softness); s <= 0 in a relax
   pass: rigid, u_N >= 0 (a relax pass takes the solve pass's s moved by hs u_N: the
   positions moved by hs v since).
   Friction: a point's two tangent rows together, rigid, with one mass for both (1 / the
   tangent block's larger eigenvalue: the impulse then lies along the slip, so sliding friction
   is mu r_N against the slip in every direction), the impulse projected on the disc
   |r_T| <= mu r_N. Restitution: a point that pushed, first at an approach faster than
   restitution_threshold, gets u_N = -e u_N(hit) (u_N(hit): its normal velocity just before
   that first push; Box3D takes the step's start's, slower by up to g h for a falling body);
   that push is an impact (collision events, w:stats().collisions). Joints
   (engine3d_joints.h's rows, rebuilt at each sub-step's state, a joint's equality rows solved
   as one block) are soft the same way with joint_hertz and joint_damping_ratio (equality rows
   and violated limits), motors rigid. */
#ifndef IMPACT_ENGINE3D_SOFT_H
#define IMPACT_ENGINE3D_SOFT_H

#include <stddef.h>

#include "engine3d.h"

struct imp_world;

/* A soft row's coefficients for a sub-step (Box2D's b2Softness). */
typedef struct imp_e3_softness {
    double bias_rate, mass_scale, impulse_scale;
} imp_e3_softness;

/* The coefficients of a spring of hertz and damping ratio zeta over a sub-step of h (hertz 0:
   rigid, no bias). */
imp_e3_softness imp_e3_make_soft(double hertz, double zeta, double h);

/* The soft step from the world's state to t1 (one step; engine3d_step.c's advance calls it
   after its common start). 0 or a status with why filled. */
imp_status imp_e3_soft_advance(struct imp_world *w, imp_engine3d *e, double t1, char *why, size_t why_len);

void imp_e3_soft_free(struct imp_e3_soft *s);
/* The soft step's state and arrays made for npts points, npairs pairs and slot_cap slots (the
   bodies' creation, engine3d_strategy.c: the first step then makes none of its own); 0, or -1
   out of memory (the step makes what is missing). */
int imp_e3_soft_reserve(imp_engine3d *e, int npts, int npairs, int slot_cap);

/* The solver error of the last step (w:stats().solver_error): under the soft step Siconos'
   residual of its last sub-step, computed when asked (the rows and velocities are kept until
   the next step), else e->stats.last_error. */
double imp_e3_soft_error(const imp_engine3d *e);

/* The soft step's held manifolds (engine3d_soft_recycle.h) for detection, NULL before its
   first step. */
struct imp_e3_recycle *imp_e3_soft_recycle(imp_engine3d *e);

/* The joints under the soft step (engine3d_soft_joints.c): a pass over the armed rows (soft
   bias when use_bias, else rigid), and the rows' impulses kept as the next sub-step's warm
   starts (hs: the sub-step's length), the rows disarmed. */
void imp_e3_soft_joints_pass(const struct imp_world *w, imp_engine3d *e, const imp_e3_softness *soft, double hs,
                             int use_bias);
void imp_e3_soft_joints_store(imp_engine3d *e, double hs);

#endif
