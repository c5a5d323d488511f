/* impact/body.h: the model of a rigid body (what does not change while the world runs).
   Its state (position, orientation, velocities) lives in the world's state vector. */
#ifndef IMPACT_PUBLIC_BODY_H
#define IMPACT_PUBLIC_BODY_H

#include <impact/shape.h>
#include <impact/types.h>

/* Layout of one body's state in the world's state vector:
     2D: x, y, angle, vx, vy, spin                                  (6 numbers)
     3D: x, y, z, qw, qx, qy, qz, vx, vy, vz, wx, wy, wz            (13 numbers)
   Positions are those of the centre of mass; angular velocities are in the world frame. */
enum {
    IMP_STRIDE_2D = 6,
    IMP_STRIDE_3D = 13,
    IMP_VEL_2D = 3,  /* offset of the velocity in a 2D body's state */
    IMP_VEL_3D = 7   /* offset of the velocity in a 3D body's state */
};

typedef struct imp_body {
    unsigned generation;  /* bumped when the slot is freed: stale handles are detected */
    int active;           /* the slot holds a body */
    int fixed;            /* does not move; infinite mass for every purpose but gravitation */
    double mass;          /* kg (also set for fixed bodies, for gravitation) */
    double inv_mass;      /* 0 for fixed bodies */
    imp_mat3 inertia;     /* about the centre of mass, body frame (2D: m[2][2] only) */
    imp_mat3 inv_inertia; /* 0 for fixed bodies */
    imp_shape *shape;     /* retained; NULL for a shapeless body (the background) */
    double force[3];      /* applied force, world frame, kept for the next step: add to it
                             with imp_body_apply_force, which marks it to be cleared after
                             that step (a direct write is not cleared) */
    double torque[3];     /* applied torque, world frame (2D: [2]); imp_body_apply_torque */
    double linear_damping;  /* N s/m; negative: the world's */
    double angular_damping; /* N m s; negative: the world's */
    int material;           /* index in the world's material table, -1 for none */
    int collide;            /* takes part in contact */
    double elasticity;      /* engine2d: coefficient of restitution */
    double friction;        /* engine2d: Coulomb friction coefficient */
    /* kinematic: moved by its velocity, or towards a target pose (imp_body_set_target), with
       infinite mass for every purpose (forces, gravity and contacts leave it as it is); not
       fixed (fixed is 0), inv_mass and inv_inertia are 0 */
    int kinematic;
    int has_target;         /* kinematic: target holds the pose to reach at the next step's end */
    double target[7];       /* 2D: x, y, angle; 3D: x, y, z, qw, qx, qy, qz */
    /* collision filter (Box2D's and LOVE's): two bodies of the same non-zero group collide
       when the group is positive and never when it is negative; otherwise they collide when
       (category_a & mask_b) != 0 and (category_b & mask_a) != 0. 16 bits each. */
    unsigned category;      /* default 0x0001 */
    unsigned mask;          /* default 0xFFFF */
    int group;              /* -32768 .. 32767, default 0 */
    int no_sleep;           /* never sleeps and keeps its island awake (islands.h) */
    int nloads;             /* its active loads (loads.c): a loaded body does not sleep */
} imp_body;

/* The collision filter's bits (category and mask) and its group's range. */
enum {
    IMP_FILTER_BITS = 0xFFFF,
    IMP_FILTER_GROUP_MIN = -32768,
    IMP_FILTER_GROUP_MAX = 32767
};

#endif
