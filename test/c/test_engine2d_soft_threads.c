/* The 2D soft step's coloured blocks on threads (engine2d_soft_blocks.c, IMPACT_E2_THREADS):
   a pyramid of 820 boxes (enough blocks for the passes to run on the threads) stepped on one
   thread and on two gives the same state bit for bit, step after step; and the AVX2 blocks
   the same as the portable ones. */
#include "check.h"
#include "engine2d.h"
#include "engine2d_soft_internal.h"
#include "soft_pyramid2d.h"
#include "world_internal.h"

enum { BASE = 40, STEPS = 4 };

static imp_world *pyramid(void) { return soft_pyramid2d(BASE, 200.0, 1e-4); }

static int run_both(int simd_b, int threads_b)
{
    imp_world *a = pyramid(), *b = pyramid();
    if (a == NULL || b == NULL) {
        return 0;
    }
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
    CHECK(run_both(1, 2));
#endif
}

TEST(portable_blocks_give_the_avx2_results)
{
    CHECK(run_both(0, 1));
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(two_threads_give_one_threads_results);
    RUN(portable_blocks_give_the_avx2_results);
    return CHECK_END("engine2d_soft_threads");
}
