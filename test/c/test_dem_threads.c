/* test_dem_threads.c: the dem step with 1 and 2 OpenMP threads gives the same bits when the
   particles are many enough (8192+) for the force reset, the collider's boxes and its
   unchanged-boxes test, and the store into the world to run over the threads too (dem_step.c,
   dem_collide.c, dem_sync.c). The scene: 24 x 24 x 16 spheres in a box of five walls, close
   enough that the bottom layer lands on the floor and the layers touch within the run, every
   world state compared bit for bit (the store) along with the dem copy's forces and torques
   as their readers see them (the reset: the same "written" marks, the same bits where written) and the collider's runs (the boxes: the sweep runs on the same steps). Without
   OpenMP both runs are the same run. The box and the spheres are made by dem_scene.h, the
   benches' scene. */
#include "check.h"

#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "dem_scene.h"

enum { NX = 24, NY = 24, NZ = 16, STEPS = 16 };

static imp_world *scene(void)
{
    const double D = 0.02;
    imp_world *w = dem_scene_box(NX * D, NY * D);
    if (w == NULL) {
        return NULL;
    }
    for (int i = 0; i < NX * NY * NZ; i++) {
        int ix = i % NX, iy = (i / NX) % NY, iz = i / (NX * NY);
        double r = 0.0099 + 0.0002 * ((i * 37) % 11) / 10.0; /* gaps and overlaps: 0.2 mm */
        double s[13] = {(ix + 0.5) * D, (iy + 0.5) * D,
                        (iz + 0.5) * D - 0.0001 * (i % 3), /* some on the floor, some above */
                        1.0, 0.0, 0.0, 0.0,
                        0.2 * ((i * 53) % 7 - 3), 0.0, 0.0, /* sideways: sweeps along x */
                        0.0, 0.0, 5.0 * ((i * 71) % 5 - 2)}; /* spins about z */
        if (dem_scene_sphere(w, r, 2600.0, s) != 0) {
            imp_world_free(w);
            return NULL;
        }
    }
    if (imp_dem_sync(w) != IMP_OK) {
        imp_world_free(w);
        return NULL;
    }
    w->dem->p.verlet = -0.01; /* a thin verlet distance: the collider runs often */
    imp_world_set_dt(w, 0.5 * imp_dem_p_wave_dt(w->dem));
    return w;
}

/* the forces and torques as their readers see them (imp_dem_force_written): the same marks,
   and the same bits where a group was written; an unwritten group's numbers are stale and
   read by no one (dem.h), so they are not compared */
static int same_forces(const imp_dem *a, const imp_dem *b)
{
    if (a->n != b->n) {
        return 0;
    }
    for (int i = 0; i < a->n; i++) {
        int wa = imp_dem_force_written(a, i) != 0, wb = imp_dem_force_written(b, i) != 0;
        if (wa != wb) {
            return 0;
        }
        if (wa && (memcmp(a->force + 3 * (size_t)i, b->force + 3 * (size_t)i, 3 * sizeof(double)) != 0
                   || memcmp(a->torque + 3 * (size_t)i, b->torque + 3 * (size_t)i, 3 * sizeof(double)) != 0)) {
            return 0;
        }
    }
    return 1;
}

static void set_threads(int n)
{
#ifdef _OPENMP
    omp_set_num_threads(n);
#else
    (void)n;
#endif
}

TEST(one_and_two_threads_same_bits)
{
    imp_world *w[2] = {scene(), scene()};
    CHECK(w[0] != NULL && w[1] != NULL);
    if (w[0] == NULL || w[1] == NULL) {
        imp_world_free(w[0]);
        imp_world_free(w[1]);
        return;
    }
    CHECK(w[0]->dem->n >= 8192); /* the parallel paths' threshold */
    size_t ny = (size_t)w[0]->model.nslots * IMP_STRIDE_3D;
    int same = 1;
    for (int s = 0; s < STEPS && same; s++) {
        for (int k = 0; k < 2; k++) {
            set_threads(k + 1);
            CHECK(imp_world_step(w[k]) == IMP_OK);
        }
        const imp_dem *a = w[0]->dem, *b = w[1]->dem;
        same = memcmp(w[0]->data.y, w[1]->data.y, ny * sizeof(double)) == 0 && same_forces(a, b)
               && a->collider_runs == b->collider_runs && a->ninter == b->ninter;
    }
    set_threads(1);
    CHECK(same);
    CHECK(w[0]->dem->collider_runs >= 2); /* the sweep ran again within the run */
    CHECK(imp_dem_real_count(w[0]->dem) > NX * NY); /* contacts: floor and between layers */
    CHECK(imp_world_state_hash(w[0]) == imp_world_state_hash(w[1]));
    imp_world_free(w[0]);
    imp_world_free(w[1]);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(one_and_two_threads_same_bits);
    return CHECK_END("dem_threads");
}
