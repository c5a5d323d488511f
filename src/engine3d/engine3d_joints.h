/* engine3d_joints.h: joints, ropes and rods of the 3D engine (engine3d.h) as rows of its
   velocity-level contact problem, for the "impulse" and "contact" strategies under
   time_stepping = "symplectic_euler"; under "ode" the same rows at acceleration level
   (engine3d_joints_ode.c).

   A joint holds body1 to body2 (the base: the background by default) by scalar rows, each a
   velocity Jacobian J (linear and angular parts per body) with u = J v, an impulse lambda and
   bounds:
     equality rows     u + b = 0, lambda free          (the joint's geometry, rods)
     unilateral rows   u + b >= 0, lambda >= 0, complementary  (limits, ropes)
     motor rows        u = speed while |lambda| <= max_force dt
   A unilateral row's b is its gap over the step when open (as a contact's speculative bound:
   a slack rope or a limit not reached may close within the step, no more); a motor's is
   -speed. Below 1 is the base (body2) and 2 the follower (body1); p = x + R p_body the anchors,
   a = R axis, (b, c) two perpendiculars to the axis carried by the base, b' the copy of b
   carried by the follower. The rows of a kind, at the step's start state x0:
     ball     p2 - p1 = 0 along x, y, z                                  (3 rows)
     hinge    ball, a2 . b1 = 0, a2 . c1 = 0                             (5 rows)
     slider   (p2 - p1) . b1 = 0, (p2 - p1) . c1 = 0, a2 . b1 = 0, a2 . c1 = 0, b2' . c1 = 0
     fixed    ball, a2 . b1 = 0, a2 . c1 = 0, b2' . c1 = 0               (6 rows)
     rod      |p2 - p1| = length;   rope   |p2 - p1| <= length
   Their Jacobians are the exact time derivatives of these functions, e.g. d/dt (a2 . b1) =
   (w2 - w1) . (a2 x b1). The hinge's angle is atan2((b1 x b2') . a1, b1 . b2') in (-pi, pi],
   the slider's travel a1 . (p2 - p1): body1's relative to body2; limits bound them, a motor
   drives their rate.

   Each row's curvature along the step at the state's velocities v0, C(x0 + h v0) - C(x0) -
   h J v0 (second order in h), is added to b (over h): the step then ends on the constraint
   instead of leaving it along the tangent, and the velocity turns with the constraint and
   keeps its length (no energy drawn off by the projection each step).

   Order in the solve: the warm starts (the last step's impulses, scaled by the step's length)
   are applied, then each Gauss-Seidel sweep of "pgs" goes over the joints' rows after the
   contacts (per joint: motor, limits, then the equality rows), with the contacts' stopping
   test. Under "lcp" / "coulomb" the rows join the exact problem (coulomb.h): equality rows as
   bilateral rows, unilateral rows as frictionless contacts (mu = 0, their two tangent rows
   decoupled), a motor as a bilateral row; a motor whose impulse then exceeds max_force dt is
   held at that bound and the problem solved again (a few rounds at most).
   Drift: after the velocity solve, pseudo-velocities (positions only, as the contacts' split
   impulse: no kinetic energy is added) correct BETA of each equality row's error (and of a
   violated limit or rope) per step.
   Serial impacts (collision_handling "serial" / "hybrid") are solved without the joints; the
   step's last (simultaneous) solve then holds them. Bodies a joint joins do not collide. */
#ifndef IMPACT_ENGINE3D_JOINTS_H
#define IMPACT_ENGINE3D_JOINTS_H

#include <stddef.h>

#include "engine3d.h"

struct imp_world;

typedef enum imp_joint3d_kind {
    IMP_J3_BALL = 0,
    IMP_J3_HINGE,
    IMP_J3_SLIDER,
    IMP_J3_FIXED,
    IMP_J3_ROPE,
    IMP_J3_ROD
} imp_joint3d_kind;

extern const char *const imp_joint3d_kind_names[]; /* "ball", ..., "rod", NULL */

/* What a joint is, as given (imp_e3_joint_add checks it). */
typedef struct imp_joint3d_def {
    imp_joint3d_kind kind;
    int body1, body2;         /* slots (body2 may be 0: the background) */
    double point1[3], point2[3]; /* anchors in the bodies' frames (from their centres) */
    double axis[3];           /* hinge, slider: unit, world frame at creation; others: ignored */
    double length;            /* rope, rod: > 0 */
    int has_limits;
    double lo, hi;            /* hinge: angle (rad, within [-pi, pi]); slider: travel (m) */
    int has_motor;
    double speed, max_force;  /* rad/s or m/s; N m or N (>= 0) */
} imp_joint3d_def;

/* Adds a joint at the world's current state; its index (>= 0), or -1 with why filled. */
int imp_e3_joint_add(struct imp_world *w, const imp_joint3d_def *d, char *why, size_t why_len);
/* Removes joint i of generation gen: IMP_OK, or IMP_ERR_STALE. */
imp_status imp_e3_joint_remove(struct imp_world *w, int i, unsigned gen);
/* Joints in the world's list (alive or not) and the one at i: its definition, its generation;
   NULL for a free index. alive: both bodies still the ones it was made with. */
int imp_e3_joint_count(const struct imp_world *w);
const imp_joint3d_def *imp_e3_joint_def(const struct imp_world *w, int i, unsigned *gen, int *alive);
/* Joints alive (counted for the strategy's switch). */
int imp_e3_joints_alive(const struct imp_world *w);

/* 1 when a joint joins the slots a and b: their contacts are left out (detection), as in 2D. */
int imp_e3_joints_exclude(const struct imp_world *w, imp_engine3d *e, int a, int b);

/* How far joint i is from holding at the world's state: *linear the anchors' error (m: ball,
   hinge, fixed |p2 - p1|, slider its distance off the axis, rope max(0, |p2 - p1| - length),
   rod ||p2 - p1| - length|), *distance |p2 - p1|, *angular the misalignment (rad: hinge, slider,
   fixed; 0 otherwise), *position the hinge's angle or the slider's travel (0 otherwise). */
void imp_e3_joint_error(const struct imp_world *w, int i, double *linear, double *distance, double *angular,
                        double *position);

/* The step's hooks (engine3d_step.c, engine3d_solve.c). begin: the rows at the world's state
   for a step of h, after the inverse inertias (0 joints: nothing; 0 or IMP_ERR_NOMEM); the rows
   then take part in the solves until push. */
imp_status imp_e3_joints_begin(struct imp_world *w, imp_engine3d *e, double h);
int imp_e3_joints_armed(const imp_engine3d *e);
/* Drops the rows (a step that failed between begin and push leaves them armed). */
void imp_e3_joints_disarm(imp_engine3d *e);
/* pgs: the warm starts into e->vel, then one sweep over the rows (change, largest: the sweep's
   largest impulse change and impulse, as the contacts' sweeps). */
void imp_e3_joints_warm(const struct imp_world *w, imp_engine3d *e);
void imp_e3_joints_sweep(const struct imp_world *w, imp_engine3d *e, double *change, double *largest);
/* The exact path: the contacts' problem (3 nact rows, in e's arrays) with the joints' rows,
   solved; the contacts' impulses in e->r, the joints' applied to e->vel. */
imp_coulomb_status imp_e3_joints_solve_exact(struct imp_world *w, imp_engine3d *e, int nact,
                                             const imp_coulomb_problem *contacts,
                                             const imp_coulomb_options *opt, imp_coulomb_info *info);
/* After the solve: the position correction into e->pvel (added to the contacts'), the
   impulses kept as the next step's warm starts; disarms. */
void imp_e3_joints_push(struct imp_world *w, imp_engine3d *e, double h);

/* The force-level ("ode") stepping (engine3d_joints_ode.c). reserve: room for every joint's
   rows, none armed (0 or IMP_ERR_NOMEM). rows_at: appends joint i's rows at the state y (e->inv_iw
   the inverse inertias at y; h the step of a unilateral or motor row's bias; impulses 0) and
   writes their functions' values at y's poses moved by -eps (cm) and +eps (cp) at y's velocities
   (SLOTS numbers each); the rows' count, 0 for a joint that is not alive or rests asleep, -1 (no
   rows) when the moved poses give another count. */
imp_status imp_e3_joints_ode_reserve(struct imp_world *w, imp_engine3d *e);
int imp_e3_joint_rows_at(struct imp_world *w, imp_engine3d *e, int i, const double *y, double eps, double h,
                         double *cm, double *cp);

/* The joints' forces at the evaluated state y added to the accelerations in dydt (the world's
   derivative there, 13 per slot), engine3d_joints_ode.c: 0 or IMP_ERR_NOMEM. */
imp_status imp_e3_joints_ode_accel(struct imp_world *w, imp_engine3d *e, const double *y, double *dydt);

void imp_e3_joints_free(struct imp_e3_joints *j);

#endif
