/* rng.c: xoshiro256** (Blackman & Vigna, "Scrambled linear pseudorandom number generators",
   2018), seeded by splitmix64 so that any 64-bit seed, 0 included, gives a good state. */
#include "rng.h"

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void imp_rng_seed(imp_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) {
        r->s[i] = splitmix64(&x);
    }
}

uint64_t imp_rng_next(imp_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double imp_rng_uniform(imp_rng *r) { return (double)(imp_rng_next(r) >> 11) * 0x1.0p-53; }

uint64_t imp_rng_below(imp_rng *r, uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;  /* reject the incomplete last block */
    uint64_t x;
    do {
        x = imp_rng_next(r);
    } while (x >= limit);
    return x % n;
}
