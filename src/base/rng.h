/* rng.h: the world's seeded random generator (xoshiro256** seeded through splitmix64).
   Every random choice a world makes comes from it, so a script gives the same numbers run
   after run. */
#ifndef IMPACT_RNG_H
#define IMPACT_RNG_H

#include <stdint.h>

typedef struct imp_rng {
    uint64_t s[4];
} imp_rng;

void imp_rng_seed(imp_rng *r, uint64_t seed);
uint64_t imp_rng_next(imp_rng *r);
/* uniform in [0, 1) with 53 random bits */
double imp_rng_uniform(imp_rng *r);
/* uniform integer in [0, n) for n >= 1, without modulo bias */
uint64_t imp_rng_below(imp_rng *r, uint64_t n);

#endif
