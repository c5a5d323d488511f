/* The world core used from C, without Lua: lifecycle, handles, mass properties, stepping,
   rollback on failure. */
#include "check.h"
#include "scalar.h"
#include "shape2d_basic.h"
#include "shape3d_basic.h"
#include "world_internal.h"

static imp_body_id add_ball(imp_world *w, double r, double mass, double x, double y)
{
    imp_body_def d = imp_body_default_def(2);
    d.shape = imp_shape2d_circle(r);
    d.mass = mass;
    d.state[0] = x;
    d.state[1] = y;
    imp_body_id id = imp_world_add_body(w, &d);
    imp_shape_release(d.shape);
    return id;
}

TEST(projectile_is_exact_with_rk4)
{
    imp_world_def def = imp_world_default_def(2);
    def.gravity[1] = -9.81;
    def.dt = 0.02;
    imp_world *w = imp_world_new(&def);
    CHECK(w != NULL);
    imp_body_def d = imp_body_default_def(2);
    d.shape = imp_shape2d_rectangle(1.0, 2.0);
    d.density = 3.0;
    d.state[1] = 10.0;
    d.state[IMP_VEL_2D] = 2.0;
    imp_body_id id = imp_world_add_body(w, &d);
    imp_shape_release(d.shape); /* the body holds its own reference */
    CHECK(id.slot == 1);
    CHECK_NEAR(imp_world_body(w, id)->mass, 6.0, 1e-15);
    CHECK_NEAR(imp_world_body(w, id)->inertia.m[2][2], 6.0 * 5.0 / 12.0, 1e-15);
    for (int i = 0; i < 100; i++) {
        CHECK(imp_world_step(w) == IMP_OK);
    }
    const double *y = imp_world_body_state(w, id);
    CHECK_NEAR(w->data.time, 2.0, 1e-15);
    CHECK_NEAR(y[0], 4.0, 1e-12);
    CHECK_NEAR(y[1], 10.0 - 0.5 * 9.81 * 4.0, 1e-12);
    imp_world_free(w);
}

TEST(handles_detect_removed_bodies)
{
    imp_world_def def = imp_world_default_def(2);
    imp_world *w = imp_world_new(&def);
    imp_body_id a = add_ball(w, 0.5, 1.0, 0, 0);
    imp_body_id b = add_ball(w, 0.5, 1.0, 2, 0);
    CHECK(imp_world_remove_body(w, a) == IMP_OK);
    CHECK(imp_world_body(w, a) == NULL);
    CHECK(imp_world_remove_body(w, a) == IMP_ERR_STALE);
    imp_body_id c = add_ball(w, 0.5, 1.0, 4, 0);
    CHECK(c.slot == a.slot && c.generation != a.generation);
    CHECK(imp_world_body(w, a) == NULL && imp_world_body(w, c) != NULL);
    CHECK(imp_world_remove_body(w, imp_world_background(w)) == IMP_ERR_INVALID);
    CHECK(w->model.nbodies == 2 && imp_world_body(w, b) != NULL);
    /* removing the last body shrinks the slots; the slot, reused, keeps a new generation */
    imp_body_id last = add_ball(w, 0.5, 1.0, 6, 0);
    CHECK(imp_world_remove_body(w, last) == IMP_OK);
    imp_body_id again = add_ball(w, 0.5, 1.0, 8, 0);
    CHECK(again.slot == last.slot);
    CHECK(imp_world_body(w, last) == NULL && imp_world_body(w, again) != NULL);
    imp_world_free(w);
}

/* a freed slot is reused lowest first, whatever the order of removal and the slots added
   since; with no freed slot an add takes a new slot at the end */
TEST(freed_slots_are_reused_lowest_first)
{
    imp_world_def def = imp_world_default_def(2);
    imp_world *w = imp_world_new(&def);
    imp_body_id id[9];
    for (int i = 1; i <= 8; i++) {
        id[i] = add_ball(w, 0.5, 1.0, 2.0 * i, 0);
        CHECK(id[i].slot == i);
    }
    CHECK(imp_world_remove_body(w, id[6]) == IMP_OK);
    CHECK(imp_world_remove_body(w, id[2]) == IMP_OK);
    CHECK(imp_world_remove_body(w, id[4]) == IMP_OK);
    CHECK(add_ball(w, 0.5, 1.0, 0, 5).slot == 2);
    CHECK(imp_world_remove_body(w, id[3]) == IMP_OK);
    int want[] = {3, 4, 6, 9, 10};
    for (int k = 0; k < 5; k++) {
        CHECK(add_ball(w, 0.5, 1.0, 2.0 * k, 10).slot == want[k]);
    }
    /* trailing freed slots are dropped: the next add takes the lowest of them again */
    CHECK(imp_world_remove_body(w, id[7]) == IMP_OK);
    CHECK(w->model.nslots == 11);
    CHECK(add_ball(w, 0.5, 1.0, 0, 20).slot == 7);
    CHECK(add_ball(w, 0.5, 1.0, 2, 20).slot == 11);
    CHECK(w->model.nbodies == 11);
    imp_world_free(w);
}

TEST(invalid_bodies_are_refused_with_a_reason)
{
    imp_world_def def = imp_world_default_def(3);
    imp_world *w = imp_world_new(&def);
    imp_body_def d = imp_body_default_def(3);
    d.shape = imp_shape2d_circle(1.0);
    CHECK(imp_world_add_body(w, &d).slot == -1);
    CHECK(strstr(imp_world_error(w), "2D shape") != NULL);
    imp_shape_release(d.shape);
    d = imp_body_default_def(3);
    d.mass = 1.0;
    CHECK(imp_world_add_body(w, &d).slot == -1); /* no shape, no inertia */
    d.has_inertia = 1;
    d.inertia = imp_m3_diag(1, 1, 3);
    CHECK(imp_world_add_body(w, &d).slot == -1);
    CHECK(strstr(imp_world_error(w), "not physical") != NULL);
    d.inertia = imp_m3_diag(1, 1, 1.5);
    d.state[0] = NAN;
    CHECK(imp_world_add_body(w, &d).slot == -1);
    d.state[0] = 0.0;
    d.state[3] = 0.0; /* zero quaternion */
    CHECK(imp_world_add_body(w, &d).slot == -1);
    d.state[3] = 2.0; /* normalized on entry */
    imp_body_id id = imp_world_add_body(w, &d);
    CHECK(id.slot == 1);
    CHECK_NEAR(imp_world_body_state(w, id)[3], 1.0, 0.0);
    imp_world_free(w);
    imp_world_def bad = imp_world_default_def(2);
    bad.dt = -1.0;
    CHECK(imp_world_new(&bad) == NULL);
    bad = imp_world_default_def(4);
    CHECK(imp_world_new(&bad) == NULL);
}

TEST(failed_step_keeps_last_good_state)
{
    /* a spring far too stiff for RK4 at this step: the state blows up */
    imp_world_def def = imp_world_default_def(2);
    def.gravity[1] = 0.0;
    def.dt = 0.1;
    imp_world *w = imp_world_new(&def);
    imp_body_id b = add_ball(w, 0.1, 1e-3, 1.0, 0.0);
    imp_spring_def s = {b, imp_world_background(w), {0, 0, 0}, {0, 0, 0}, 0.0, 1e6, 0.0};
    CHECK(imp_world_add_spring(w, &s).index == 0);
    imp_status st = IMP_OK;
    double last_x = 0.0;
    int steps = 0;
    while (st == IMP_OK && steps < 10000) {
        last_x = imp_world_body_state(w, b)[0];
        st = imp_world_step(w);
        steps++;
    }
    CHECK(st == IMP_ERR_NONFINITE);
    CHECK(imp_world_body_state(w, b)[0] == last_x);
    CHECK(isfinite(last_x));
    CHECK(w->data.nerror_bodies == 1 && w->data.error_bodies[0] == b.slot);
    CHECK(strstr(imp_world_error(w), "non-finite") != NULL);
    imp_world_free(w);
}

TEST(gyroscopic_torque_free_box_conserves_invariants)
{
    imp_world_def def = imp_world_default_def(3);
    def.gravity[2] = 0.0;
    def.integrator.kind = IMP_RK8PD;
    def.integrator.rtol = 1e-12;
    def.integrator.atol = 1e-14;
    imp_world *w = imp_world_new(&def);
    imp_body_def d = imp_body_default_def(3);
    d.shape = imp_shape3d_box(1, 2, 3);
    d.mass = 2.0;
    d.state[10] = 0.3, d.state[11] = 1.5, d.state[12] = -0.2;
    imp_body_id id = imp_world_add_body(w, &d);
    imp_shape_release(d.shape);
    imp_energy e0 = imp_world_energy(w);
    double l0[3], l1[3];
    imp_world_angular_momentum(w, l0);
    for (int i = 0; i < 1000; i++) {
        CHECK(imp_world_step(w) == IMP_OK);
    }
    imp_world_angular_momentum(w, l1);
    for (int k = 0; k < 3; k++) {
        CHECK_NEAR(l1[k], l0[k], 1e-10);
    }
    CHECK_CLOSE(imp_world_energy(w).total, e0.total, 1e-11, 0.0);
    const double *y = imp_world_body_state(w, id);
    CHECK_NEAR(y[3] * y[3] + y[4] * y[4] + y[5] * y[5] + y[6] * y[6], 1.0, 1e-14);
    imp_world_free(w);
}

TEST(impulse_changes_momentum_and_spin)
{
    imp_world_def def = imp_world_default_def(2);
    imp_world *w = imp_world_new(&def);
    imp_body_id b = add_ball(w, 1.0, 2.0, 0.0, 0.0);
    double j[2] = {0.0, 4.0}, at[2] = {1.0, 0.0};
    CHECK(imp_body_apply_impulse(w, b, j, at) == IMP_OK);
    const double *y = imp_world_body_state(w, b);
    CHECK_NEAR(y[4], 2.0, 1e-15);                  /* j / m */
    CHECK_NEAR(y[5], 4.0 / (0.5 * 2.0), 1e-15);    /* (r x j) / I, I = m r^2 / 2 */
    double v[2], p[2] = {1.0, 0.0};
    imp_body_point_velocity(w, b, p, v);
    CHECK_NEAR(v[1], 2.0 + 4.0, 1e-15);
    imp_world_free(w);
}

TEST(rng_is_reproducible_and_uniform)
{
    imp_rng a, b;
    imp_rng_seed(&a, 5);
    imp_rng_seed(&b, 5);
    double sum = 0.0;
    for (int i = 0; i < 100000; i++) {
        double x = imp_rng_uniform(&a);
        CHECK(x == imp_rng_uniform(&b));
        CHECK(x >= 0.0 && x < 1.0);
        sum += x;
    }
    /* the mean of 1e5 uniforms has standard deviation 1 / sqrt(12e5) ~ 9e-4 */
    CHECK_NEAR(sum / 100000.0, 0.5, 5e-3);
    for (int i = 0; i < 1000; i++) {
        CHECK(imp_rng_below(&a, 7) < 7);
    }
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(projectile_is_exact_with_rk4);
    RUN(handles_detect_removed_bodies);
    RUN(freed_slots_are_reused_lowest_first);
    RUN(invalid_bodies_are_refused_with_a_reason);
    RUN(failed_step_keeps_last_good_state);
    RUN(gyroscopic_torque_free_box_conserves_invariants);
    RUN(impulse_changes_momentum_and_spin);
    RUN(rng_is_reproducible_and_uniform);
    return CHECK_END("world");
}
