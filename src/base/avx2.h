/* avx2.h: what the AVX2 kernels share (engine3d_sweep_avx2.c, dem_law_avx2.c): the target
   attribute that compiles one function for AVX2 in a file built for the baseline, the 4-double
   vector and its arithmetic, and the processor check made before choosing a kernel. Include it
   only where the compiler has AVX2 (the kernels' IMP_*_HAVE_AVX2 guards). */
#ifndef IMPACT_AVX2_H
#define IMPACT_AVX2_H

#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

typedef __m256d v4;

static inline AVX2 v4 add(v4 a, v4 b) { return _mm256_add_pd(a, b); }
static inline AVX2 v4 sub(v4 a, v4 b) { return _mm256_sub_pd(a, b); }
static inline AVX2 v4 mul(v4 a, v4 b) { return _mm256_mul_pd(a, b); }

/* 1 when this processor runs AVX2 instructions */
static inline int imp_avx2_supported(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
}

#endif
