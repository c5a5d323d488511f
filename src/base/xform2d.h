/* xform2d.h: rigid 2D transforms between a body's centred frame and the world.

   A pose is {x, y, angle} with (x, y) the centroid (see shape.h). Geometry of a polygon is
   stored in the "centred frame": shape coordinates minus the centroid, so a centred point q
   is at  p + R(angle) q  in the world. */
#ifndef IMPACT_XFORM2D_H
#define IMPACT_XFORM2D_H

#include "vec2.h"

typedef struct imp_xf2 {
    imp_vec2 p;   /* translation */
    double c, s;  /* cosine and sine of the rotation */
} imp_xf2;

static inline imp_xf2 imp_xf2_from_pose(const double *pose)
{
    imp_xf2 x;
    x.p = imp_v2(pose[0], pose[1]);
    x.c = cos(pose[2]);
    x.s = sin(pose[2]);
    return x;
}

static inline imp_xf2 imp_xf2_identity(void)
{
    imp_xf2 x = {{0.0, 0.0}, 1.0, 0.0};
    return x;
}

static inline imp_vec2 imp_xf2_rot(imp_xf2 x, imp_vec2 v) { return imp_v2_rotate_cs(v, x.c, x.s); }
static inline imp_vec2 imp_xf2_rot_inv(imp_xf2 x, imp_vec2 v) { return imp_v2_rotate_cs(v, x.c, -x.s); }
static inline imp_vec2 imp_xf2_apply(imp_xf2 x, imp_vec2 q) { return imp_v2_add(x.p, imp_xf2_rot(x, q)); }
static inline imp_vec2 imp_xf2_apply_inv(imp_xf2 x, imp_vec2 w)
{
    return imp_xf2_rot_inv(x, imp_v2_sub(w, x.p));
}

/* The transform taking b's frame into a's frame: a^-1 * b. */
static inline imp_xf2 imp_xf2_relative(imp_xf2 a, imp_xf2 b)
{
    imp_xf2 r;
    r.p = imp_xf2_apply_inv(a, b.p);
    r.c = a.c * b.c + a.s * b.s;
    r.s = a.c * b.s - a.s * b.c;
    return r;
}

#endif
