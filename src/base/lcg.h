/* lcg.h: myPhysicsLab's random generator (its RandomLCG: a linear congruential generator
   x' = (1664525 x + 1013904223) mod 2^32), drawn only under conventions = "myphysicslab"
   so that the orders it draws (serial collision focus, ComputeForces' treatment order) are
   its own. Deterministic: the state is one 32-bit number. */
#ifndef IMPACT_LCG_H
#define IMPACT_LCG_H

#include <stdint.h>

typedef struct imp_lcg {
    uint32_t x;
} imp_lcg;

/* seed taken modulo 2^32 (its constructor's floor(|seed|) mod m) */
void imp_lcg_seed(imp_lcg *g, unsigned long long seed);
uint32_t imp_lcg_next(imp_lcg *g);
/* an integer in [0, n), n >= 1: floor(x / 2^32 * n) of the next number (no modulo) */
int imp_lcg_range(imp_lcg *g, int n);
/* 0 .. n-1 in a random order into out, n draws: the k-th of the numbers not yet taken,
   k = range(m) for m = n, n-1, ..., 1; taken[n] is scratch. O(n^2). */
void imp_lcg_random_ints(imp_lcg *g, int n, int *out, unsigned char *taken);

#endif
