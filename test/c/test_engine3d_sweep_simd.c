/* test_engine3d_sweep_simd.c: the 3D engine's AVX2 sweep (engine3d_sweep_avx2.c) does, lane
   by lane, the portable sweep's operations in the same order, so a world stepped with either
   ends bit for bit in the same state (IEEE addition and multiplication are correctly rounded,
   scalar or packed). Scenes: a tilted stack of cubes on a slab beside a falling cube and a
   spinning cube against a fixed wall (fixed sides on a and on b, runs of 1 to 4 points,
   sliding and sticking friction), under the contact strategy's PGS in 1 and 4 sub-steps and
   under the exact solver (its warm-up sweeps take the same path), and under the soft step
   (engine3d_soft.c's AVX2 kernels, chosen by the same switch); then the switch itself.
   On a processor without AVX2 both runs take the portable sweep. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "engine3d_sweep.h"
#include <impact/shape.h>
#include <impact/world.h>

static imp_body_id add_box(imp_world *w, double sx, double sy, double sz, const double pos[3], double angle,
                           const double vel[6], int fixed)
{
    imp_body_def bd = imp_body_default_def(3);
    bd.shape = imp_shape3d_box(sx, sy, sz);
    bd.density = 800.0;
    bd.fixed = fixed;
    bd.friction = 0.4;
    bd.elasticity = 0.0;
    memcpy(bd.state, pos, 3 * sizeof(double));
    /* a turn by angle about (1, 2, 3) / |.| */
    double ax[3] = {1, 2, 3}, l = sqrt(14.0), s = sin(0.5 * angle);
    bd.state[3] = cos(0.5 * angle);
    for (int k = 0; k < 3; k++) {
        bd.state[4 + k] = s * ax[k] / l;
        bd.state[7 + k] = vel != NULL ? vel[k] : 0.0;
        bd.state[10 + k] = vel != NULL ? vel[3 + k] : 0.0;
    }
    imp_body_id id = imp_world_add_body(w, &bd);
    imp_shape_release(bd.shape);
    return id;
}

/* the scene's state hash after steps steps (0 when the world could not be made or a step
   failed) */
static unsigned long long run(int solver, int substeps, int steps)
{
    imp_world_def def = imp_world_default_def(3);
    def.dt = 1.0 / 60.0;
    def.gravity[0] = def.gravity[1] = 0.0;
    def.gravity[2] = -9.81;
    def.strategy = IMP_STRATEGY_CONTACT;
    def.engine2d.time_stepping = IMP_STEPPING_SYMPLECTIC_EULER;
    def.engine2d.contact_solver = solver;
    def.engine2d.pgs_iterations = 10;
    def.engine2d.substeps = substeps;
    imp_world *w = imp_world_new(&def);
    if (w == NULL) {
        return 0;
    }
    const double slab[3] = {0, 0, -0.5}, wall[3] = {2.5, 0, 1.0};
    add_box(w, 8, 8, 1, slab, 0.0, NULL, 1);
    for (int i = 0; i < 4; i++) {
        double p[3] = {0.05 * i, 0.03 * i, 0.5 + i - 0.001};
        add_box(w, 1, 1, 1, p, 0.02 * i, NULL, 0);
    }
    const double fall[3] = {-2, 0, 1.2}, fv[6] = {0.5, 0.2, 0, 1, 2, 0.5};
    add_box(w, 0.6, 0.8, 0.5, fall, 0.4, fv, 0);
    const double spin[3] = {1.6, 0.5, 0.3}, sv[6] = {2, 0, 0, 0, 0, 5};
    add_box(w, 0.6, 0.6, 0.6, spin, 0.0, sv, 0);
    add_box(w, 0.5, 6, 2, wall, 0.0, NULL, 1);  /* fixed, added after the cubes: b is fixed */
    unsigned long long h = imp_world_state_hash(w) | 1ULL;
    for (int i = 0; i < steps && h != 0; i++) {
        h = imp_world_step(w) == IMP_OK ? imp_world_state_hash(w) | 1ULL : 0;
    }
    imp_world_free(w);
    return h;
}

static int have_avx2(void)
{
#if defined(IMP_E3_HAVE_AVX2)
    return imp_e3_avx2_supported();
#else
    return 0;
#endif
}

static void same_both_ways(int solver, int substeps, int steps)
{
    imp_e3_sweep_simd(0);
    unsigned long long portable = run(solver, substeps, steps);
    imp_e3_sweep_simd(1);
    unsigned long long simd = run(solver, substeps, steps);
    imp_e3_sweep_simd(-1);
    CHECK(portable != 0);
    CHECK(simd == portable);
}

TEST(pgs_one_substep) { same_both_ways(IMP_SOLVER_PGS, 1, 90); }
TEST(pgs_four_substeps) { same_both_ways(IMP_SOLVER_PGS, 4, 90); }
TEST(lcp_warmup_sweeps) { same_both_ways(IMP_SOLVER_LCP, 1, 40); }
TEST(soft_step) { same_both_ways(IMP_SOLVER_SOFT, 4, 90); }

TEST(switch_follows_the_processor)
{
    CHECK(imp_e3_sweep_simd(0) == 0);
    CHECK(imp_e3_sweep_simd(1) == have_avx2());
    CHECK(imp_e3_sweep_simd(-1) == have_avx2());
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(pgs_one_substep);
    RUN(pgs_four_substeps);
    RUN(lcp_warmup_sweeps);
    RUN(soft_step);
    RUN(switch_follows_the_processor);
    return CHECK_END("engine3d_sweep_simd");
}
