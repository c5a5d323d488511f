/* The 2D soft step's coloured blocks on threads (engine2d_soft_blocks.c, IMPACT_E2_THREADS):
   a pyramid of 820 boxes (enough blocks for the passes to run on the threads) stepped on one
   thread and on two gives the same state bit for bit, step after step; and the AVX2 blocks
   the same as the portable ones, in double and in float (soft.precision); and the records moved four at a time (AVX2,
   engine2d_soft_move.c) with their rows shaped the same as one by one
   (imp_engine2d_move_record, imp_e2_soft_row_shape). */
#include <math.h>
#include <string.h>

#include "check.h"
#include "engine2d.h"
#include "engine2d_soft_internal.h"
#include "soft_pyramid2d.h"
#include "world_internal.h"

enum { BASE = 40, STEPS = 4 };

static imp_world *pyramid(void) { return soft_pyramid2d(BASE, 200.0, 1e-4); }

/* precision: soft.precision of both (the float passes, engine2d_soft_f8.c) */
static int run_both(int simd_b, int threads_b, imp_soft_precision precision)
{
    imp_world *a = pyramid(), *b = pyramid();
    if (a == NULL || b == NULL) {
        return 0;
    }
    a->model.def.engine2d.soft.precision = b->model.def.engine2d.soft.precision = precision;
    int same = 1;
    for (int s = 0; s < STEPS && same; s++) {
        if (imp_world_step(a) != IMP_OK || imp_world_step(b) != IMP_OK) {
            same = 0;
            break;
        }
        struct imp_e2_soft *sa = a->engine2d->soft, *sb = b->engine2d->soft;
        sa->threads = 1;  /* (from the second step on: the first built the blocks) */
        sb->threads = threads_b;
        sb->simd = simd_b && sb->simd;
        if (s > 0 && threads_b > 1 && imp_e2_soft_threads(sb) != threads_b) {
            fprintf(stderr, "the passes ran on %d threads (%d blocks)\n", imp_e2_soft_threads(sb), sb->nblocks);
            same = 0;
        }
        size_t n = (size_t)a->model.nslots * IMP_STRIDE_2D * sizeof *a->data.y;
        same = same && memcmp(a->data.y, b->data.y, n) == 0;
    }
    imp_world_free(a);
    imp_world_free(b);
    return same;
}

TEST(two_threads_give_one_threads_results)
{
#ifdef _OPENMP
    CHECK(run_both(1, 2, IMP_SOFT_DOUBLE));
    CHECK(run_both(1, 2, IMP_SOFT_FLOAT));
#endif
}

TEST(portable_blocks_give_the_avx2_results)
{
    CHECK(run_both(0, 1, IMP_SOFT_DOUBLE));
    CHECK(run_both(0, 1, IMP_SOFT_FLOAT));
}

/* the float passes run: the state differs from the double passes' */
TEST(float_passes_run)
{
    imp_world *a = pyramid(), *b = pyramid();
    CHECK(a != NULL && b != NULL);
    if (a == NULL || b == NULL) {
        return;
    }
    a->model.def.engine2d.soft.precision = IMP_SOFT_DOUBLE;
    b->model.def.engine2d.soft.precision = IMP_SOFT_FLOAT;
    for (int s = 0; s < STEPS; s++) {
        CHECK(imp_world_step(a) == IMP_OK && imp_world_step(b) == IMP_OK);
    }
    size_t n = (size_t)a->model.nslots * IMP_STRIDE_2D * sizeof *a->data.y;
    CHECK(memcmp(a->data.y, b->data.y, n) != 0);
    imp_world_free(a);
    imp_world_free(b);
}

/* a double in [-a, a) from the generator x */
static double uniform(unsigned long long *x, double a)
{
    *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
    return a * ((double)(*x >> 11) / 9007199254740992.0 * 2.0 - 1.0);
}

TEST(records_moved_four_at_once_as_one_by_one)
{
    if (!imp_e2_soft_simd_available()) {
        return;
    }
    enum { SLOTS = 6, TRIALS = 500 };
    unsigned long long x = 12345;
    double y[SLOTS * IMP_STRIDE_2D], cs[2 * SLOTS];
    int same = 1;
    for (int trial = 0; trial < TRIALS && same; trial++) {
        for (int i = 0; i < SLOTS * IMP_STRIDE_2D; i++) {
            y[i] = uniform(&x, 10.0);
        }
        for (int i = 0; i < SLOTS; i++) {
            cs[2 * i] = cos(y[i * IMP_STRIDE_2D + 2]);
            cs[2 * i + 1] = sin(y[i * IMP_STRIDE_2D + 2]);
        }
        imp_rec2d a[4], b[4];
        imp_rec2d *pa[4] = {&a[0], &a[1], &a[2], &a[3]};
        for (int l = 0; l < 4; l++) {
            memset(&a[l], 0, sizeof a[l]);
            a[l].connector = -1;
            a[l].p = (int)((uniform(&x, 1.0) + 1.0) * 0.5 * SLOTS);
            a[l].q = (a[l].p + 1 + (int)((uniform(&x, 1.0) + 1.0) * 0.5 * (SLOTS - 1))) % SLOTS;
            double *f[] = {a[l].u1, a[l].u2, a[l].point, a[l].normal, a[l].lu1, a[l].lu2, a[l].lpoint, a[l].lnormal};
            for (int k = 0; k < 8; k++) {
                f[k][0] = uniform(&x, 5.0);
                f[k][1] = uniform(&x, 5.0);
            }
            a[l].distance = uniform(&x, 0.1);
            a[l].velocity = uniform(&x, 1.0);
        }
        soft_row oa[4], ob[4];
        soft_row *poa[4] = {&oa[0], &oa[1], &oa[2], &oa[3]};
        for (int l = 0; l < 4; l++) {  /* contact rows of the records, turned or not */
            memset(&oa[l], 0, sizeof oa[l]);
            oa[l].flip = uniform(&x, 1.0) < 0.0;
            oa[l].p = oa[l].flip ? a[l].q : a[l].p;
            oa[l].q = oa[l].flip ? a[l].p : a[l].q;
            oa[l].type = ROW_CONTACT;
            oa[l].mp = uniform(&x, 1.0) < -0.5 ? 0.0 : 1.0 + uniform(&x, 0.5);
            oa[l].ip = oa[l].mp == 0.0 ? 0.0 : 1.0 + uniform(&x, 0.5);
            oa[l].mq = 1.0 + uniform(&x, 0.5);
            oa[l].iq = 1.0 + uniform(&x, 0.5);
            oa[l].fn = oa[l].fn_sum = oa[l].fn_max = uniform(&x, 1.0);
            a[l].friction = uniform(&x, 1.0) < -0.5 ? 0.0 : 0.6;
            a[l].elasticity = 0.5;
        }
        memcpy(b, a, sizeof a);
        memcpy(ob, oa, sizeof oa);
        imp_e2_soft_move4(y, cs, pa, trial % 2 ? poa : NULL);
        for (int l = 0; l < 4; l++) {
            imp_engine2d_move_record(y, cs, &b[l]);
            if (trial % 2) {
                imp_e2_soft_row_shape(&ob[l], &b[l], y);
            }
        }
        same = memcmp(a, b, sizeof a) == 0 && memcmp(oa, ob, sizeof oa) == 0;
    }
    CHECK(same);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(two_threads_give_one_threads_results);
    RUN(portable_blocks_give_the_avx2_results);
    RUN(float_passes_run);
    RUN(records_moved_four_at_once_as_one_by_one);
    return CHECK_END("engine2d_soft_threads");
}
