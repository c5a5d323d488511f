/* The 2D soft step's incremental detection (engine2d_soft_incr.c): on a settling pyramid of
   boxes, every detection of the moved bodies' pairs is compared with a full detection at the
   same state (engine2d_soft_check.c). The records come in the full detection's order (the
   same body pairs, in the same sequence); the pairs holding a moved body get the full
   detection's records bit for bit (the same narrow phase at the same poses); the kept pairs'
   records, moved rigidly with their bodies, differ in distance by less than the bodies'
   motion since their detection allows (each body less than twice the cache's limit, 2 % of
   distance_tol, from where that pair was last detected). The check changes nothing: the
   states with and without it are equal bit for bit. */
#include "check.h"
#include "engine2d.h"
#include "engine2d_soft.h"
#include "engine2d_soft_internal.h"
#include "soft_pyramid2d.h"
#include "world_internal.h"

enum { BASE = 14, STEPS = 240 };

static imp_world *pyramid(void) { return soft_pyramid2d(BASE, 100.0, 1e-3); }

TEST(incremental_detection_matches_a_full_one)
{
    imp_world *a = pyramid(), *b = pyramid();
    CHECK(a != NULL && b != NULL);
    if (a == NULL || b == NULL) {
        return;
    }
    int same = 1;
    for (int s = 0; s < STEPS; s++) {
        CHECK(imp_world_step(a) == IMP_OK && imp_world_step(b) == IMP_OK);
        b->engine2d->soft->check_on = 1;  /* (from the second step: the first built it) */
        size_t n = (size_t)a->model.nslots * IMP_STRIDE_2D * sizeof *a->data.y;
        same = same && memcmp(a->data.y, b->data.y, n) == 0;
    }
    long c[4];
    double dmax;
    imp_engine2d_soft_check_stats(b, c, &dmax);
    const struct imp_e2_soft *sa = a->engine2d->soft;
    printf("  %ld incremental detections checked (%ld full, %ld cached steps), kept pairs with "
           "other keys %ld, largest distance difference %.3g m\n",
           c[0], sa->full_detections, sa->cached_steps, c[3], dmax);
    CHECK(same);
    CHECK(c[0] > 0);
    CHECK(c[1] == 0);
    CHECK(c[2] == 0);
    CHECK(dmax < 2.0 * 2.0 * 0.02 * a->model.def.engine2d.distance_tol);
    imp_world_free(a);
    imp_world_free(b);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(incremental_detection_matches_a_full_one);
    return CHECK_END("engine2d_soft_incr");
}
