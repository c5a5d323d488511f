/* Islands and sleeping (src/core/islands.h) from C: the union-find's islands and their names,
   the rest-time rule, waking by edits, and a box at rest on the ground asleep under the 3D
   engine with its pose unchanged bit for bit. */
#include "check.h"
#include "islands.h"
#include "shape3d_basic.h"
#include "world_internal.h"

/* a 3D contact world with sleep on, no gravity unless given */
static imp_world *sleeping_world(double gz)
{
    imp_world_def def = imp_world_default_def(3);
    def.gravity[2] = gz;
    def.dt = 0.01;
    def.strategy = IMP_STRATEGY_CONTACT;
    def.sleep = 1;
    return imp_world_new(&def);
}

static imp_body_id add_box(imp_world *w, double x, double z, int fixed)
{
    imp_body_def d = imp_body_default_def(3);
    d.shape = fixed ? imp_shape3d_box(20.0, 20.0, 1.0) : imp_shape3d_box(1.0, 1.0, 1.0);
    d.mass = 1.0;
    d.fixed = fixed;
    d.friction = 0.5;
    d.elasticity = 0.0;
    d.state[0] = x;
    d.state[2] = z;
    imp_body_id id = imp_world_add_body(w, &d);
    imp_shape_release(d.shape);
    return id;
}

TEST(islands_are_named_by_their_smallest_slot)
{
    /* six bodies at rest, far apart: links 5-2, 2-4 and 3-6 make the islands {1}, {2, 4, 5},
       {3, 6}; a link to the background (slot 0) joins nothing */
    imp_world *w = sleeping_world(0.0);
    CHECK(w != NULL);
    for (int i = 0; i < 6; i++) {
        CHECK(add_box(w, 10.0 * i, 0.0, 0).slot == i + 1);
    }
    CHECK(imp_islands_prepare(w) == IMP_OK);
    imp_islands *s = w->islands;
    imp_islands_begin(w);
    imp_islands_link(w, 5, 2);
    imp_islands_link(w, 2, 4);
    imp_islands_link(w, 3, 6);
    imp_islands_link(w, 0, 1);
    imp_islands_finish(w, 0.25);  /* below sleep_time: all awake */
    CHECK(s->nsleeping == 0);
    CHECK(s->nislands == 3);
    imp_islands_begin(w);
    imp_islands_link(w, 5, 2);
    imp_islands_link(w, 2, 4);
    imp_islands_link(w, 3, 6);
    imp_islands_finish(w, 0.25);  /* 0.5 s at rest: asleep */
    CHECK(s->nsleeping == 6);
    CHECK(s->nsleeping_islands == 3);
    CHECK(s->nislands == 3);
    const int name[7] = {-1, 1, 2, 3, 2, 2, 3};
    for (int i = 0; i <= 6; i++) {
        CHECK(s->island[i] == name[i]);
    }
    /* waking one body wakes its island only */
    imp_islands_wake(w, 4);
    CHECK(!imp_islands_asleep(w, 2) && !imp_islands_asleep(w, 4) && !imp_islands_asleep(w, 5));
    CHECK(imp_islands_asleep(w, 1) && imp_islands_asleep(w, 3) && imp_islands_asleep(w, 6));
    CHECK(s->nsleeping == 3 && s->nsleeping_islands == 2);
    imp_world_free(w);
}

TEST(a_moving_body_or_no_sleep_keeps_its_island_awake)
{
    imp_world *w = sleeping_world(0.0);
    CHECK(w != NULL);
    imp_body_id a = add_box(w, 0.0, 0.0, 0), b = add_box(w, 5.0, 0.0, 0), c = add_box(w, 10.0, 0.0, 0);
    imp_world_body_state(w, b)[IMP_VEL_3D] = 0.05;  /* at the threshold: not under it */
    imp_world_body(w, c)->no_sleep = 1;
    CHECK(imp_islands_prepare(w) == IMP_OK);
    imp_islands_begin(w);
    imp_islands_link(w, a.slot, b.slot);
    imp_islands_finish(w, 1.0);
    CHECK(w->islands->nsleeping == 0);
    CHECK(w->islands->nislands == 2);
    imp_world_body_state(w, b)[IMP_VEL_3D] = 0.049;
    imp_islands_begin(w);
    imp_islands_link(w, a.slot, b.slot);
    imp_islands_finish(w, 1.0);
    CHECK(imp_islands_asleep(w, a.slot) && imp_islands_asleep(w, b.slot) && !imp_islands_asleep(w, c.slot));
    CHECK(imp_world_body_state(w, b)[IMP_VEL_3D] == 0.0);  /* asleep: at rest */
    imp_world_free(w);
}

TEST(a_resting_box_sleeps_and_stays_put_until_pushed)
{
    imp_world *w = sleeping_world(-9.81);
    CHECK(w != NULL);
    add_box(w, 0.0, -0.5, 1);
    imp_body_id b = add_box(w, 0.0, 0.5, 0);
    int n = 0;
    while (!imp_islands_asleep(w, b.slot) && n < 100) {
        CHECK(imp_world_step(w) == IMP_OK);
        n++;
    }
    CHECK(n >= 50 && n <= 51);  /* 0.5 s of 0.01 s steps, one more with the sum's rounding */
    double pose[IMP_STRIDE_3D];
    memcpy(pose, imp_world_body_state_read(w, b), sizeof pose);
    for (int i = 0; i < 100; i++) {
        CHECK(imp_world_step(w) == IMP_OK);
    }
    CHECK(memcmp(pose, imp_world_body_state_read(w, b), sizeof pose) == 0);
    double f[3] = {3.0, 0.0, 0.0};  /* under mu m g = 4.9 N: it sticks, but it wakes */
    imp_body_apply_force(w, b, f, NULL);
    CHECK(imp_world_step(w) == IMP_OK);
    CHECK(!imp_islands_asleep(w, b.slot));
    imp_world_free(w);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(islands_are_named_by_their_smallest_slot);
    RUN(a_moving_body_or_no_sleep_keeps_its_island_awake);
    RUN(a_resting_box_sleeps_and_stays_put_until_pushed);
    return CHECK_END("islands");
}
