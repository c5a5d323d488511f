/* vec2.h: 2D vectors, by value. Part of impact's math layer (no dependencies). */
#ifndef IMPACT_VEC2_H
#define IMPACT_VEC2_H

#include <math.h>

typedef struct imp_vec2 {
    double x, y;
} imp_vec2;

static inline imp_vec2 imp_v2(double x, double y) { imp_vec2 r = {x, y}; return r; }
static inline imp_vec2 imp_v2_add(imp_vec2 a, imp_vec2 b) { return imp_v2(a.x + b.x, a.y + b.y); }
static inline imp_vec2 imp_v2_sub(imp_vec2 a, imp_vec2 b) { return imp_v2(a.x - b.x, a.y - b.y); }
static inline imp_vec2 imp_v2_scale(imp_vec2 a, double s) { return imp_v2(a.x * s, a.y * s); }
static inline imp_vec2 imp_v2_neg(imp_vec2 a) { return imp_v2(-a.x, -a.y); }
/* a + s*b */
static inline imp_vec2 imp_v2_madd(imp_vec2 a, double s, imp_vec2 b)
{
    return imp_v2(a.x + s * b.x, a.y + s * b.y);
}
static inline double imp_v2_dot(imp_vec2 a, imp_vec2 b) { return a.x * b.x + a.y * b.y; }
/* z component of the 3D cross product of (a, 0) and (b, 0) */
static inline double imp_v2_cross(imp_vec2 a, imp_vec2 b) { return a.x * b.y - a.y * b.x; }
/* w x r for a scalar angular velocity w (about z) */
static inline imp_vec2 imp_v2_cross_sv(double w, imp_vec2 r) { return imp_v2(-w * r.y, w * r.x); }
/* a rotated by +90 degrees */
static inline imp_vec2 imp_v2_perp(imp_vec2 a) { return imp_v2(-a.y, a.x); }
static inline double imp_v2_len2(imp_vec2 a) { return a.x * a.x + a.y * a.y; }
static inline double imp_v2_len(imp_vec2 a) { return hypot(a.x, a.y); }
static inline double imp_v2_dist(imp_vec2 a, imp_vec2 b) { return imp_v2_len(imp_v2_sub(a, b)); }
/* unit vector along a; the zero vector stays zero */
static inline imp_vec2 imp_v2_normalize(imp_vec2 a)
{
    double l = imp_v2_len(a);
    return l > 0.0 ? imp_v2_scale(a, 1.0 / l) : a;
}
/* a rotated counter-clockwise by the angle whose cosine and sine are c and s */
static inline imp_vec2 imp_v2_rotate_cs(imp_vec2 a, double c, double s)
{
    return imp_v2(c * a.x - s * a.y, s * a.x + c * a.y);
}
static inline imp_vec2 imp_v2_rotate(imp_vec2 a, double angle)
{
    return imp_v2_rotate_cs(a, cos(angle), sin(angle));
}
static inline int imp_v2_isfinite(imp_vec2 a) { return isfinite(a.x) && isfinite(a.y); }

#endif
