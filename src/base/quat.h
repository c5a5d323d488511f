/* quat.h: unit quaternions {w, x, y, z} for 3D orientation. Part of impact's math layer.
   A body's orientation q maps body-frame vectors to the world frame: v_world = q v_body q*. */
#ifndef IMPACT_QUAT_H
#define IMPACT_QUAT_H

#include "mat3.h"
#include "vec3.h"

typedef struct imp_quat {
    double w, x, y, z;
} imp_quat;

static inline imp_quat imp_q(double w, double x, double y, double z)
{
    imp_quat r = {w, x, y, z};
    return r;
}
static inline imp_quat imp_q_identity(void) { return imp_q(1.0, 0.0, 0.0, 0.0); }
static inline imp_quat imp_q_mul(imp_quat a, imp_quat b)
{
    return imp_q(a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                 a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                 a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                 a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w);
}
static inline imp_quat imp_q_conj(imp_quat a) { return imp_q(a.w, -a.x, -a.y, -a.z); }
static inline double imp_q_norm(imp_quat a)
{
    return sqrt(a.w * a.w + a.x * a.x + a.y * a.y + a.z * a.z);
}
/* a / |a|; the zero quaternion becomes the identity */
static inline imp_quat imp_q_normalize(imp_quat a)
{
    double n = imp_q_norm(a);
    if (!(n > 0.0)) {
        return imp_q_identity();
    }
    double s = 1.0 / n;
    return imp_q(a.w * s, a.x * s, a.y * s, a.z * s);
}
/* q v q* for a unit q */
static inline imp_vec3 imp_q_rotate(imp_quat q, imp_vec3 v)
{
    imp_vec3 u = imp_v3(q.x, q.y, q.z);
    imp_vec3 t = imp_v3_scale(imp_v3_cross(u, v), 2.0);
    return imp_v3_add(imp_v3_add(v, imp_v3_scale(t, q.w)), imp_v3_cross(u, t));
}
/* q* v q for a unit q (world to body) */
static inline imp_vec3 imp_q_unrotate(imp_quat q, imp_vec3 v) { return imp_q_rotate(imp_q_conj(q), v); }
static inline imp_quat imp_q_from_axis_angle(imp_vec3 axis, double angle)
{
    imp_vec3 n = imp_v3_normalize(axis);
    double s = sin(0.5 * angle);
    return imp_q(cos(0.5 * angle), n.x * s, n.y * s, n.z * s);
}
/* rotation matrix of a unit quaternion */
static inline imp_mat3 imp_q_to_mat3(imp_quat q)
{
    double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    double xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    double wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    imp_mat3 r = {{{1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy)},
                   {2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx)},
                   {2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy)}}};
    return r;
}
/* time derivative of q under world-frame angular velocity w: 0.5 (0, w) q */
static inline imp_quat imp_q_derivative(imp_quat q, imp_vec3 w)
{
    imp_quat r = imp_q_mul(imp_q(0.0, w.x, w.y, w.z), q);
    return imp_q(0.5 * r.w, 0.5 * r.x, 0.5 * r.y, 0.5 * r.z);
}
static inline int imp_q_isfinite(imp_quat q)
{
    return isfinite(q.w) && isfinite(q.x) && isfinite(q.y) && isfinite(q.z);
}

imp_quat imp_q_from_mat3(const imp_mat3 *r);

#endif
