/* The 2D soft step's cached steps (engine2d_soft.c: finish_records, refresh_lanes): when no
   row may take the restitution pass, the blocks' rows are shaped into their lanes at the
   step's end and warm-started there at the next cached step, their rows left as they were.
   That is a way of computing, not a model: a settling pyramid stepped so must give, step
   after step and bit for bit, the state and the records' forces of the same pyramid whose
   rows and blocks are built again from its records at every step (the soft step's
   definition: each row shaped from its record, warm-started from the last step's impulse of
   its key), and of one whose rows are shaped again from the records (refresh_rows); and the
   AVX2 step's end (records moved and rows shaped four at a time) must give the portable
   one's records, largest force and collision events (in the same order), bit for bit. The
   AVX2 step's end over the lean records (engine2d_soft_lean.c: the records written only when
   read) is checked the same way: its records, written out every seventh step and at the
   end (imp_engine2d_soft_sync), must be the others' bit for bit. */
#include <string.h>

#include "check.h"
#include "engine2d.h"
#include "engine2d_soft.h"
#include "engine2d_soft_internal.h"
#include "soft_pyramid2d.h"
#include "world_internal.h"

enum { BASE = 14, STEPS = 240 };

/* the records of a and b equal bit for bit, every field (the same records, in the same order;
   with_records: written out from the lean records first, else not compared),
   and their largest force, collisions and events */
static int same_records(imp_world *a, imp_world *b, int with_records)
{
    const imp_engine2d *ea = a->engine2d, *eb = b->engine2d;
    if (ea->nrec != eb->nrec) {
        return 0;
    }
    if (with_records) {
        imp_engine2d_soft_sync(a, 0);
        imp_engine2d_soft_sync(b, 0);
    }
    for (int i = 0; with_records && i < ea->nrec; i++) {
        const imp_rec2d *ra = &ea->rec[i], *rb = &eb->rec[i];
        if (memcmp(ra, rb, sizeof *ra) != 0) {  /* (every field: no padding in imp_rec2d) */
            return 0;
        }
    }
    return ea->max_force == eb->max_force && ea->stats.collisions == eb->stats.collisions
           && a->data.nevents == b->data.nevents
           && memcmp(a->data.events, b->data.events, (size_t)a->data.nevents * sizeof *a->data.events) == 0;
}

/* rebuild 1: b's rows and blocks built again at every step; 0: its rows shaped again from
   the records at every cached step; 2: b on the portable path (IMPACT_E2_SIMD=0: its
   records moved and rows shaped one by one, a's four at a time), both with velocity_tol
   0.02, so that settling rows make collision events (the pyramid stands: 1.2 cm at most).
   Returns 1 when the states,
   records, largest forces and events stayed equal; the steps at whose end a's lanes were
   shaped in *lane_steps, those whose end went through the lean records in *lean_steps. */
static int run(int rebuild, int *lane_steps, int *lean_steps)
{
    imp_world *a = soft_pyramid2d(BASE, 100.0, 1e-3), *b = soft_pyramid2d(BASE, 100.0, 1e-3);
    if (a == NULL || b == NULL) {
        return 0;
    }
    if (rebuild == 2) {  /* (settling rows approaching faster than this: collision events) */
        a->model.def.engine2d.velocity_tol = b->model.def.engine2d.velocity_tol = 0.02;
    }
    int same = 1;
    *lane_steps = *lean_steps = 0;
    for (int s = 0; s < STEPS && same; s++) {
        if (imp_world_step(a) != IMP_OK || imp_world_step(b) != IMP_OK) {
            same = 0;
            break;
        }
        struct imp_e2_soft *sb = b->engine2d->soft;
        if (rebuild == 2) {
            sb->simd = 0;
        } else if (rebuild) {
            sb->layout_ok = 0;
        } else {
            sb->shaped = 0;
        }
        *lane_steps += a->engine2d->soft->shaped == SHAPED_LANES;
        *lean_steps += a->engine2d->soft->lean_ahead;
        size_t n = (size_t)a->model.nslots * IMP_STRIDE_2D * sizeof *a->data.y;
        same = memcmp(a->data.y, b->data.y, n) == 0 && same_records(a, b, s % 7 == 6 || s == STEPS - 1);
        if (!same) {
            fprintf(stderr, "  differing at step %d\n", s + 1);
        }
    }
    if (rebuild == 2) {
        printf("  %ld collision events\n", a->engine2d->stats.collisions);
        same = same && a->engine2d->stats.collisions > 0;
    }
    imp_world_free(a);
    imp_world_free(b);
    return same;
}

TEST(lanes_give_the_rows_built_again)
{
    int lanes = 0, lean = 0;
    CHECK(run(1, &lanes, &lean));
    printf("  %d of %d steps ended with the lanes shaped, %d of them through the lean records\n", lanes,
           STEPS, lean);
    CHECK(lanes > STEPS / 2);
    CHECK(lean > STEPS / 2 || !imp_e2_soft_simd_available());
}

TEST(lanes_give_the_rows_shaped_again)
{
    int lanes = 0, lean = 0;
    CHECK(run(0, &lanes, &lean));
    CHECK(lanes > STEPS / 2);
}

TEST(lanes_four_at_a_time_give_the_portable_path)
{
    int lanes = 0, lean = 0;
    CHECK(run(2, &lanes, &lean));
    CHECK(lanes > STEPS / 2);
    CHECK(lean > STEPS / 2 || !imp_e2_soft_simd_available());
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(lanes_give_the_rows_built_again);
    RUN(lanes_give_the_rows_shaped_again);
    RUN(lanes_four_at_a_time_give_the_portable_path);
    return CHECK_END("engine2d_soft_lanes");
}
