/* vec3.h: 3D vectors, by value. Part of impact's math layer (no dependencies). */
#ifndef IMPACT_VEC3_H
#define IMPACT_VEC3_H

#include <math.h>

typedef struct imp_vec3 {
    double x, y, z;
} imp_vec3;

static inline imp_vec3 imp_v3(double x, double y, double z) { imp_vec3 r = {x, y, z}; return r; }
static inline imp_vec3 imp_v3_zero(void) { return imp_v3(0.0, 0.0, 0.0); }
static inline imp_vec3 imp_v3_add(imp_vec3 a, imp_vec3 b)
{
    return imp_v3(a.x + b.x, a.y + b.y, a.z + b.z);
}
static inline imp_vec3 imp_v3_sub(imp_vec3 a, imp_vec3 b)
{
    return imp_v3(a.x - b.x, a.y - b.y, a.z - b.z);
}
static inline imp_vec3 imp_v3_scale(imp_vec3 a, double s) { return imp_v3(a.x * s, a.y * s, a.z * s); }
static inline imp_vec3 imp_v3_neg(imp_vec3 a) { return imp_v3(-a.x, -a.y, -a.z); }
/* a + s*b */
static inline imp_vec3 imp_v3_madd(imp_vec3 a, double s, imp_vec3 b)
{
    return imp_v3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z);
}
static inline double imp_v3_dot(imp_vec3 a, imp_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline imp_vec3 imp_v3_cross(imp_vec3 a, imp_vec3 b)
{
    return imp_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double imp_v3_len2(imp_vec3 a) { return imp_v3_dot(a, a); }
static inline double imp_v3_len(imp_vec3 a) { return sqrt(imp_v3_dot(a, a)); }
static inline double imp_v3_dist(imp_vec3 a, imp_vec3 b) { return imp_v3_len(imp_v3_sub(a, b)); }
/* unit vector along a; the zero vector stays zero */
static inline imp_vec3 imp_v3_normalize(imp_vec3 a)
{
    double l = imp_v3_len(a);
    return l > 0.0 ? imp_v3_scale(a, 1.0 / l) : a;
}
static inline imp_vec3 imp_v3_mul(imp_vec3 a, imp_vec3 b)  /* component-wise */
{
    return imp_v3(a.x * b.x, a.y * b.y, a.z * b.z);
}
static inline double imp_v3_get(imp_vec3 a, int i) { return i == 0 ? a.x : (i == 1 ? a.y : a.z); }
static inline int imp_v3_isfinite(imp_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }
static inline imp_vec3 imp_v3_load(const double *p) { return imp_v3(p[0], p[1], p[2]); }
static inline void imp_v3_store(double *p, imp_vec3 a) { p[0] = a.x; p[1] = a.y; p[2] = a.z; }

#endif
