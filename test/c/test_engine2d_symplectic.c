/* The 2D engine's semi-implicit Euler time stepping (engine2d_symplectic.c) from C: the
   scheme's closed forms without contact (free fall, spin), fixed bodies unmoved, the option
   ignored outside the impulse and contact strategies, and one block resting on the ground
   held at its gap by contact forces equal to its weight. */
#include "check.h"
#include "engine2d.h"
#include "engine2d_symplectic.h"
#include "polygon2d.h"
#include "shape2d_basic.h"
#include "world_internal.h"

static imp_world *world(imp_strategy strategy, double dt)
{
    imp_world_def def = imp_world_default_def(2);
    def.strategy = strategy;
    def.dt = dt;
    def.gravity[1] = -10.0;
    def.engine2d.time_stepping = IMP_STEPPING_SYMPLECTIC_EULER;
    return imp_world_new(&def);
}

static imp_body_id add_box(imp_world *w, double wd, double ht, double x, double y, int fixed)
{
    imp_poly2d_error err;
    imp_body_def d = imp_body_default_def(2);
    d.shape = imp_shape2d_block(wd, ht, &err);
    d.density = 1.0;
    d.fixed = fixed;
    d.state[0] = x;
    d.state[1] = y;
    d.elasticity = 0.0;
    imp_body_id id = imp_world_add_body(w, &d);
    imp_shape_release(d.shape);
    return id;
}

/* v_n = v0 - g n h exactly; x_n = x0 + v0 n h - g h^2 n (n + 1) / 2 (the position moves with
   the new velocity); the angle grows by w h per step exactly */
TEST(free_motion_closed_forms)
{
    double h = 0.01;
    imp_world *w = world(IMP_STRATEGY_IMPULSE, h);
    CHECK(w != NULL);
    imp_body_id b = add_box(w, 1, 1, 0, 100, 0);
    imp_body_id f = add_box(w, 1, 1, 50, 0, 1);
    double *y = w->data.y + (size_t)b.slot * IMP_STRIDE_2D;
    y[3] = 2.0;
    y[4] = 3.0;
    y[5] = 0.7;
    CHECK(imp_engine2d_symplectic(w));
    int n = 57;
    for (int i = 0; i < n; i++) {
        CHECK(imp_world_step(w) == IMP_OK);
    }
    const double *s = imp_world_body_state(w, b);
    CHECK_NEAR(s[3], 2.0, 1e-15);
    CHECK_NEAR(s[4], 3.0 - 10.0 * n * h, 1e-12);
    CHECK_NEAR(s[0], 2.0 * n * h, 1e-12);
    CHECK_NEAR(s[1], 100.0 + 3.0 * n * h - 10.0 * h * h * n * (n + 1) / 2.0, 1e-11);
    CHECK_NEAR(s[2], 0.7 * n * h, 1e-12);
    const double *sf = imp_world_body_state(w, f);
    CHECK(sf[0] == 50.0 && sf[1] == 0.0 && sf[2] == 0.0);
    imp_world_free(w);
}

/* the option belongs to the impulse and contact strategies: "none" keeps the world's RK4,
   exact for a projectile */
TEST(other_strategies_keep_their_integrator)
{
    imp_world *w = world(IMP_STRATEGY_NONE, 0.02);
    CHECK(!imp_engine2d_symplectic(w));
    imp_body_id b = add_box(w, 1, 1, 0, 10, 0);
    for (int i = 0; i < 100; i++) {
        CHECK(imp_world_step(w) == IMP_OK);
    }
    CHECK_NEAR(imp_world_body_state(w, b)[1], 10.0 - 0.5 * 10.0 * 4.0, 1e-12);
    imp_world_free(w);
}

/* a 2 x 1 block of mass 2 at the half gap on a fixed ground, exact LCP: after a second the
   contact forces add up to m g and the block has not moved */
TEST(block_resting_on_ground)
{
    imp_world *w = world(IMP_STRATEGY_CONTACT, 1.0 / 60.0);
    add_box(w, 10, 1, 0, -0.5, 1);
    double gap = 0.5 * w->model.def.engine2d.distance_tol;
    imp_body_id b = add_box(w, 2, 1, 0.25, 0.5 + gap, 0);
    for (int i = 0; i < 60; i++) {
        CHECK(imp_world_step(w) == IMP_OK);
    }
    const double *s = imp_world_body_state(w, b);
    CHECK_NEAR(s[1], 0.5 + gap, 1e-12);
    CHECK_NEAR(s[4], 0.0, 1e-12);
    double dydt[3 * IMP_STRIDE_2D];  /* ground, block and the background slot 0 */
    CHECK(w->model.nslots == 3);
    CHECK(imp_engine2d_evaluate(w, dydt) == 0);
    double total = 0.0;
    for (int i = 0; i < w->engine2d->nrec; i++) {
        total += w->engine2d->rec[i].force;
    }
    CHECK_NEAR(total, 2.0 * 10.0, 1e-9 * 20.0);
    CHECK_NEAR(dydt[2 * IMP_STRIDE_2D + 4], 0.0, 1e-9);
    CHECK(w->engine2d->stats.collisions == 0);
    imp_world_free(w);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(free_motion_closed_forms);
    RUN(other_strategies_keep_their_integrator);
    RUN(block_resting_on_ground);
    return CHECK_END("engine2d_symplectic");
}
