/* lcg.c: myPhysicsLab's linear congruential generator (see lcg.h). */
#include "lcg.h"

#include <math.h>
#include <string.h>

void imp_lcg_seed(imp_lcg *g, unsigned long long seed) { g->x = (uint32_t)(seed & 0xffffffffULL); }

uint32_t imp_lcg_next(imp_lcg *g)
{
    /* exact in 64 bits: (2^32 - 1) * 1664525 + 1013904223 < 2^53 */
    uint64_t r = (uint64_t)g->x * 1664525u + 1013904223u;
    g->x = (uint32_t)(r & 0xffffffffULL);
    return g->x;
}

int imp_lcg_range(imp_lcg *g, int n)
{
    double under1 = (double)imp_lcg_next(g) / 4294967296.0;  /* exact: a 32-bit number / 2^32 */
    return (int)floor(under1 * (double)n);
}

void imp_lcg_random_ints(imp_lcg *g, int n, int *out, unsigned char *taken)
{
    memset(taken, 0, (size_t)n);
    for (int m = n, c = 0; m > 0; m--, c++) {
        int k = imp_lcg_range(g, m), seen = 0;
        for (int j = 0; j < n; j++) {
            if (taken[j]) {
                continue;
            }
            if (seen++ == k) {
                out[c] = j;
                taken[j] = 1;
                break;
            }
        }
    }
}
