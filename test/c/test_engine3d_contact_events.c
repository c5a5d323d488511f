/* test_engine3d_contact_events.c: a world that builds no contact events
   (imp_world_set_contact_events(w, 0), a Lua world without a contact event handler) steps to
   the same state, bit for bit, as one that builds them, and one that turns them on again gets
   from then on the same events as the one that always built them: contact_begin and
   contact_end compare with the last step's contacts, which are kept either way.
   The scene (the 3D soft step): a unit cube dropped 0.5 m onto a fixed slab, left to rest,
   then thrown up at 3 m/s: it lands (contact_begin, then a collision when the impact's impulses
   are over), rests, leaves the slab (contact_end) and lands again (contact_begin, collision):
   two begins, one end, two collisions (the collision's impulse: spec/engine3d_soft_spec.lua). */
#include <math.h>
#include <string.h>

#include "check.h"
#include "soft3d_world.h"
#include <impact/shape.h>
#include <impact/world.h>

#define G 9.81
#define STEPS 150
#define ON_AT 40    /* the third world turns its events on after this step */
#define KICK_AT 60  /* after this step each cube is thrown up */
#define KICK 3.0

static imp_world *scene(int events, imp_body_id *cube)
{
    imp_world *w = soft3d_world(G);
    if (w == NULL) {
        return NULL;
    }
    imp_world_set_contact_events(w, events);
    const double slab[3] = {0, 0, -0.5}, at[3] = {0, 0, 1.0};
    soft3d_box(w, 12, 1, slab, 0.0, 0.0, 0.4, 1);    /* its top at z = 0 */
    *cube = soft3d_box(w, 1, 1, at, 0.0, 0.0, 0.4, 0);  /* 0.5 m above it */
    return w;
}

/* events a and b the same, field by field (bit for bit) */
static int same_event(const imp_event *a, const imp_event *b)
{
    return a->kind == b->kind && a->body1 == b->body1 && a->body2 == b->body2
           && memcmp(&a->time, &b->time, sizeof a->time) == 0 && memcmp(a->point, b->point, sizeof a->point) == 0
           && memcmp(a->normal, b->normal, sizeof a->normal) == 0 && memcmp(&a->value, &b->value, sizeof a->value) == 0
           && memcmp(&a->impulse, &b->impulse, sizeof a->impulse) == 0;
}

TEST(events_off_give_the_same_state_and_on_again_the_same_events)
{
    imp_body_id cube[3];
    imp_world *w[3] = {scene(1, &cube[0]), scene(0, &cube[1]), scene(0, &cube[2])};
    CHECK(w[0] != NULL && w[1] != NULL && w[2] != NULL);
    CHECK(imp_world_contact_events(w[0]) == 1 && imp_world_contact_events(w[1]) == 0);
    int begins = 0, ends = 0, collisions = 0, after = 0;
    for (int step = 1; step <= STEPS; step++) {
        if (step == ON_AT + 1) {
            imp_world_set_contact_events(w[2], 1);
        }
        if (step == KICK_AT + 1) {
            for (int k = 0; k < 3; k++) {
                imp_world_body_state(w[k], cube[k])[IMP_VEL_3D + 2] = KICK;
            }
        }
        for (int k = 0; k < 3; k++) {
            CHECK(imp_world_step(w[k]) == IMP_OK);
        }
        CHECK(imp_world_state_hash(w[0]) == imp_world_state_hash(w[1]));
        CHECK(imp_world_state_hash(w[0]) == imp_world_state_hash(w[2]));
        int n0, n1, n2;
        const imp_event *e0 = imp_world_events(w[0], &n0);
        (void)imp_world_events(w[1], &n1);
        const imp_event *e2 = imp_world_events(w[2], &n2);
        CHECK(n1 == 0);
        CHECK(step > ON_AT || n2 == 0);
        if (step > ON_AT) {
            CHECK(n2 == n0);
            for (int i = 0; i < n0; i++) {
                CHECK(same_event(&e0[i], &e2[i]));
            }
            after += n0;
        }
        for (int i = 0; i < n0; i++) {
            begins += e0[i].kind == IMP_EVENT_CONTACT_BEGIN;
            ends += e0[i].kind == IMP_EVENT_CONTACT_END;
            collisions += e0[i].kind == IMP_EVENT_COLLISION;
        }
    }
    CHECK(begins == 2 && ends == 1 && collisions == 2);
    CHECK(after == 3);  /* the third world saw the end, the second landing and its collision */
    for (int k = 0; k < 3; k++) {
        imp_world_free(w[k]);
    }
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(events_off_give_the_same_state_and_on_again_the_same_events);
    return CHECK_END("engine3d_contact_events");
}
