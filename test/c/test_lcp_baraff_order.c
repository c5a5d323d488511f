/* test_lcp_baraff_order.c: myPhysicsLab's generator (src/base/lcg.c) and Baraff's ordered
   solver (src/lcp/lcp_baraff_order.c). The generator against the published sequence of this
   LCG (Numerical Recipes' "quick and dirty" generator, multiplier 1664525, increment
   1013904223, modulus 2^32, from 0); the solver against statics (a block resting on two
   corners carries its weight half on each) and, on random problems A = J J^T (redundant rows
   included: rank below n), the LCP conditions worked out here from A f + b, never from the
   solver's a; its draws are n per choice of a row. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lcg.h"
#include "lcp_baraff_order.h"

TEST(lcg_sequence)
{
    imp_lcg g;
    imp_lcg_seed(&g, 0);
    const uint32_t want[4] = {1013904223u, 1196435762u, 3519870697u, 2868466484u};
    for (int k = 0; k < 4; k++) {
        CHECK(imp_lcg_next(&g) == want[k]);
    }
    imp_lcg h;
    imp_lcg_seed(&g, 5);
    imp_lcg_seed(&h, (1ULL << 32) + 5);  /* the seed is taken modulo 2^32 */
    CHECK(imp_lcg_next(&g) == imp_lcg_next(&h));
    /* range: floor(x / 2^32 * n) of the next number */
    imp_lcg_seed(&g, 0);
    CHECK(imp_lcg_range(&g, 10) == (int)floor(1013904223.0 / 4294967296.0 * 10.0));
}

TEST(lcg_random_ints)
{
    imp_lcg g, h;
    imp_lcg_seed(&g, 99999);
    h = g;
    int out[7];
    unsigned char taken[7];
    imp_lcg_random_ints(&g, 7, out, taken);
    int seen[7] = {0};
    for (int k = 0; k < 7; k++) {
        CHECK(out[k] >= 0 && out[k] < 7 && !seen[out[k]]);
        seen[out[k]] = 1;
    }
    for (int k = 0; k < 7; k++) {
        imp_lcg_next(&h);
    }
    CHECK(g.x == h.x);  /* n draws */
    /* the first pick is the range(7) of the first number */
    imp_lcg_seed(&h, 99999);
    CHECK(out[0] == imp_lcg_range(&h, 7));
}

/* A = J J^T of m rows of k columns (row-major), J from the generator */
static void random_psd(imp_lcg *g, int m, int k, double *A)
{
    double J[64];
    for (int i = 0; i < m * k; i++) {
        J[i] = 2.0 * ((double)imp_lcg_next(g) / 4294967296.0) - 1.0;
    }
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < m; j++) {
            double s = 0.0;
            for (int c = 0; c < k; c++) {
                s += J[i * k + c] * J[j * k + c];
            }
            A[i * m + j] = s;
        }
    }
}

TEST(block_on_two_corners)
{
    /* a 1 x 3 block (mass 1, moment (1 + 9) / 12) on its two bottom corners (x = -0.5, 0.5),
       gravity 4: A_ij = 1/m + x_i x_j / I, b = -4; statics: f = 2, 2 */
    double I = 10.0 / 12.0, x[2] = {-0.5, 0.5}, A[4], b[2] = {-4.0, -4.0}, f[2], a[2];
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 2; j++) {
            A[i * 2 + j] = 1.0 + x[i] * x[j] / I;
        }
    }
    unsigned char joint[2] = {0, 0};
    imp_baraff_ws ws;
    memset(&ws, 0, sizeof ws);
    imp_lcg g, h;
    imp_lcg_seed(&g, 99999);
    h = g;
    CHECK(imp_lcp_baraff_order(&ws, 2, A, b, joint, &g, f, a) == 0);
    CHECK_NEAR(f[0], 2.0, 1e-12);
    CHECK_NEAR(f[1], 2.0, 1e-12);
    /* three choices (row, row, none) of two draws each */
    for (int k = 0; k < 6; k++) {
        imp_lcg_next(&h);
    }
    CHECK(g.x == h.x);
    /* one row: closed form, no draw */
    h = g;
    CHECK(imp_lcp_baraff_order(&ws, 1, A, b, joint, &g, f, a) == 0);
    CHECK_NEAR(f[0], 4.0 / A[0], 1e-15);
    CHECK(g.x == h.x);
    imp_baraff_free(&ws);
}

TEST(random_problems)
{
    imp_baraff_ws ws;
    memset(&ws, 0, sizeof ws);
    imp_lcg g, data;
    imp_lcg_seed(&g, 1);
    imp_lcg_seed(&data, 2);
    int solved = 0;
    for (int trial = 0; trial < 400; trial++) {
        int m = 2 + trial % 7, k = 1 + trial % 5;  /* k < m: redundant rows */
        double A[64], b[8], f[8], a[8];
        unsigned char joint[8];
        random_psd(&data, m, k, A);
        for (int i = 0; i < m; i++) {
            b[i] = 2.0 * ((double)imp_lcg_next(&data) / 4294967296.0) - 1.0;
            joint[i] = (unsigned char)(trial % 3 == 0 && i == 0);
        }
        if (k < m) {  /* b in A's column space (a consistent problem): b = A z - s, s >= 0 */
            double z[8];
            for (int i = 0; i < m; i++) {
                z[i] = (double)imp_lcg_next(&data) / 4294967296.0;
            }
            for (int i = 0; i < m; i++) {
                double s = 0.0;
                for (int j = 0; j < m; j++) {
                    s += A[i * m + j] * z[j];
                }
                b[i] = -s + (i % 2 ? 0.3 : 0.0) * (joint[i] ? 0.0 : 1.0);
            }
        }
        int st = imp_lcp_baraff_order(&ws, m, A, b, joint, &g, f, a);
        CHECK(st >= 0);
        if (st != 0) {
            continue;  /* given up: its acceptance decides (checked by the engine) */
        }
        solved++;
        double scale = 1.0;
        for (int i = 0; i < m; i++) {
            scale = fmax(scale, fabs(f[i]) * A[i * m + i]);
        }
        for (int i = 0; i < m; i++) {
            double ai = b[i];
            for (int j = 0; j < m; j++) {
                ai += A[i * m + j] * f[j];
            }
            if (joint[i]) {
                CHECK_NEAR(ai, 0.0, 1e-7 * scale);
            } else {
                CHECK(f[i] >= -1e-9 * scale);
                CHECK(ai >= -1e-7 * scale);
                CHECK(fabs(f[i] * ai) <= 1e-7 * scale * scale);
            }
        }
    }
    CHECK(solved >= 380);
    imp_baraff_free(&ws);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(lcg_sequence);
    RUN(lcg_random_ints);
    RUN(block_on_two_corners);
    RUN(random_problems);
    return CHECK_END("lcp_baraff_order");
}
