/* impact/types.h: the small value types the public API shares. */
#ifndef IMPACT_PUBLIC_TYPES_H
#define IMPACT_PUBLIC_TYPES_H

/* A 3x3 matrix, row-major (m[row][col]): inertia tensors, rotations. */
typedef struct imp_mat3 {
    double m[3][3];
} imp_mat3;

#endif
