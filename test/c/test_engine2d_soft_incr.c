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
#include "polygon2d.h"
#include "shape2d_basic.h"
#include "world_internal.h"

enum { BASE = 14, STEPS = 240 };

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
            d.shape = i < 0 ? imp_shape2d_block(100, 2, &err) : imp_shape2d_block(1, 1, &err);
            d.fixed = i < 0;
            d.density = 1.0;
            d.friction = 0.6;
            d.elasticity = 0.0;
            d.state[0] = i < 0 ? 0.0 : 0.5 * (i + 1) + (j - i) - 0.5 * BASE;
            d.state[1] = i < 0 ? -1.0 : 0.5 * (2 * i + 1);
            d.state[2] = i < 0 ? 0.0 : 1e-3 * ((i * 7 + j * 3) % 5 - 2);  /* (not at rest) */
            imp_world_add_body(w, &d);
            imp_shape_release(d.shape);
        }
    }
    return w;
}

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
