/* mat3.h: 3x3 matrices (row-major, m[row][col]). Part of impact's math layer. */
#ifndef IMPACT_MAT3_H
#define IMPACT_MAT3_H

#include <impact/types.h>

#include "vec3.h"

static inline imp_mat3 imp_m3_zero(void)
{
    imp_mat3 r = {{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
    return r;
}
static inline imp_mat3 imp_m3_diag(double a, double b, double c)
{
    imp_mat3 r = {{{a, 0, 0}, {0, b, 0}, {0, 0, c}}};
    return r;
}
static inline imp_mat3 imp_m3_identity(void) { return imp_m3_diag(1.0, 1.0, 1.0); }
static inline imp_vec3 imp_m3_mulv(const imp_mat3 *a, imp_vec3 v)
{
    return imp_v3(a->m[0][0] * v.x + a->m[0][1] * v.y + a->m[0][2] * v.z,
                  a->m[1][0] * v.x + a->m[1][1] * v.y + a->m[1][2] * v.z,
                  a->m[2][0] * v.x + a->m[2][1] * v.y + a->m[2][2] * v.z);
}
/* a^T v */
static inline imp_vec3 imp_m3_tmulv(const imp_mat3 *a, imp_vec3 v)
{
    return imp_v3(a->m[0][0] * v.x + a->m[1][0] * v.y + a->m[2][0] * v.z,
                  a->m[0][1] * v.x + a->m[1][1] * v.y + a->m[2][1] * v.z,
                  a->m[0][2] * v.x + a->m[1][2] * v.y + a->m[2][2] * v.z);
}
/* the matrix of v x (.) */
static inline imp_mat3 imp_m3_skew(imp_vec3 v)
{
    imp_mat3 r = {{{0, -v.z, v.y}, {v.z, 0, -v.x}, {-v.y, v.x, 0}}};
    return r;
}

imp_mat3 imp_m3_mul(const imp_mat3 *a, const imp_mat3 *b);
imp_mat3 imp_m3_transpose(const imp_mat3 *a);
imp_mat3 imp_m3_add(const imp_mat3 *a, const imp_mat3 *b);
imp_mat3 imp_m3_scale(const imp_mat3 *a, double s);
double imp_m3_det(const imp_mat3 *a);
/* Inverse of a; returns 0 and leaves *out untouched when |det| <= tiny * scale^3. */
int imp_m3_inverse(const imp_mat3 *a, imp_mat3 *out);
/* R A R^T: a tensor given in a rotated frame expressed in the parent frame. */
imp_mat3 imp_m3_rotate_tensor(const imp_mat3 *r, const imp_mat3 *a);
/* Eigen-decomposition of a symmetric matrix by cyclic Jacobi rotations: a = V diag(e) V^T,
   eigenvalues ascending, columns of V orthonormal and right-handed. */
void imp_m3_sym_eigen(const imp_mat3 *a, double e[3], imp_mat3 *v);
/* Parallel-axis (Steiner) term for mass m displaced by d: m (|d|^2 I - d d^T). */
imp_mat3 imp_m3_steiner(double m, imp_vec3 d);
int imp_m3_isfinite(const imp_mat3 *a);

#endif
