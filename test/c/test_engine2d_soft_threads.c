/* The 2D soft step's coloured blocks on threads (engine2d_soft_blocks.c, IMPACT_E2_THREADS):
   a pyramid of 820 boxes (enough blocks for the passes to run on the threads) stepped on one
   thread and on two gives the same state bit for bit, step after step; and the AVX2 blocks
   the same as the portable ones. */
#include "check.h"
#include "engine2d.h"
#include "engine2d_soft_internal.h"
#include "polygon2d.h"
#include "shape2d_basic.h"
#include "world_internal.h"

enum { BASE = 40, STEPS = 4 };

static imp_world *pyramid(void)
{
    imp_world_def def = imp_world_default_def(2);
    def.strategy = IMP_STRATEGY_CONTACT;
    def.dt = 1.0 / 60.0;
    def.gravity[1] = -10.0;
    def.engine2d.contact_solver = IMP_SOLVER_SOFT;
    def.engine2d.substeps = 4;
    def.engine2d.time_stepping = IMP_STEPPING_SYMPLECTIC_EULER;
    imp_world *w = imp_world_new(&def);
    imp_poly2d_error err;
    for (int i = -1; i < BASE; i++) {
        for (int j = i < 0 ? 0 : i; j < (i < 0 ? 1 : BASE); j++) {
            imp_body_def d = imp_body_default_def(2);
            d.shape = i < 0 ? imp_shape2d_block(200, 2, &err) : imp_shape2d_block(1, 1, &err);
            d.fixed = i < 0;
            d.density = 1.0;
            d.friction = 0.6;
            d.elasticity = 0.0;
            d.state[0] = i < 0 ? 0.0 : 0.5 * (i + 1) + (j - i) - 0.5 * BASE;
            d.state[1] = i < 0 ? -1.0 : 0.5 * (2 * i + 1);
            d.state[2] = i < 0 ? 0.0 : 1e-4 * ((i * 7 + j * 3) % 5 - 2);  /* (not quite at rest) */
            imp_world_add_body(w, &d);
            imp_shape_release(d.shape);
        }
    }
    return w;
}

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
