/* test_dem_store.c: after each dem step the world's state holds the dem's (dem_sync.c's store,
   by 16-byte non-temporal stores from 8192 particles on: slots on and off a 16-byte boundary),
   and that state is the free flight's closed form. The scene: 9000 spheres 0.1 m apart at
   z = 1 m in a box with a floor (no contact within the steps), each moving along x at its own
   speed and spinning about z, one of them fixed (moved along x at its velocity, as Yade's
   non-dynamic bodies: no gravity, no turn; the store skips it, the kinematic list stores its
   position). Damped free fall from rest along z (Cundall's
   d, dem_step.c): z_n = z_0 - (1 - d) g dt^2 n (n + 1) / 2; no force along x: x_n = x_0 +
   n dt v_x; no torque: the spin is kept and the orientation turns about z by n dt w_z. */
#include "check.h"

#include <math.h>
#include <string.h>

#include "dem_scene.h"

enum { N = 9000, NX = 100, STEPS = 3 };

static double vx_of(int i) { return 0.01 * (i % 17) - 0.05; }
static double wz_of(int i) { return 0.5 * (i % 13) - 3.0; }

TEST(world_state_is_the_free_flight)
{
    imp_world *w = dem_scene_box(NX * 0.1, (N / NX) * 0.1);
    CHECK(w != NULL);
    if (w == NULL) {
        return;
    }
    int first = -1;
    for (int i = 0; i < N; i++) {
        double s[13] = {(i % NX + 0.5) * 0.1, (i / NX + 0.5) * 0.1, 1.0, 1.0, 0.0, 0.0, 0.0,
                        vx_of(i), 0.0, 0.0, 0.0, 0.0, wz_of(i)};
        CHECK(dem_scene_sphere(w, 0.01, 2600.0, s) == 0);
    }
    imp_dem_sync(w);
    imp_dem *d = w->dem;
    d->p.damping = 0.2;
    const int fixed_one = 4321;
    for (int i = 0; i < d->n; i++) {
        first = first < 0 && d->kind[i] == IMP_DEM_SPHERE ? i : first;
    }
    int fixed_slot = d->slot[first + fixed_one];
    w->model.bodies[fixed_slot].fixed = 1;
    w->model.bodies_version++;
    imp_world_set_dt(w, 1e-4);
    const double dt = 1e-4, g = 9.81, damp = 0.2;
    int odd = 0, even = 0;
    for (int n = 1; n <= STEPS; n++) {
        CHECK(imp_world_step(w) == IMP_OK);
        d = w->dem;
        int bad_copy = 0, bad_form = 0;
        for (int i = 0; i < d->n; i++) {
            if (d->kind[i] != IMP_DEM_SPHERE) {
                continue;
            }
            const double *y = w->data.y + (size_t)d->slot[i] * IMP_STRIDE_3D;
            bad_copy += memcmp(y, d->pos + 3 * i, 3 * sizeof *y) != 0
                        || memcmp(y + 3, d->quat + 4 * i, 4 * sizeof *y) != 0
                        || memcmp(y + IMP_VEL_3D, d->vel + 3 * i, 3 * sizeof *y) != 0
                        || memcmp(y + IMP_VEL_3D + 3, d->angvel + 3 * i, 3 * sizeof *y) != 0;
            int k = i - first, moving = d->slot[i] != fixed_slot;
            double x0 = (k % NX + 0.5) * 0.1, m = moving ? n : 0;
            double z = 1.0 - (moving ? (1.0 - damp) * g * dt * dt * n * (n + 1) / 2.0 : 0.0);
            double h = 0.5 * wz_of(k) * m * dt;
            bad_form += fabs(y[0] - (x0 + n * dt * vx_of(k))) > 1e-12 || fabs(y[2] - z) > 1e-12
                        || y[IMP_VEL_3D + 3 + 2] != wz_of(k) || fabs(y[3] - cos(h)) > 1e-12
                        || fabs(y[6] - sin(h)) > 1e-12;
            odd += ((size_t)(const void *)y & 15) != 0;
            even += ((size_t)(const void *)y & 15) == 0;
        }
        CHECK(bad_copy == 0);
        CHECK(bad_form == 0);
    }
    CHECK(odd > 0 && even > 0);  /* both alignments of a slot were stored */
    imp_world_free(w);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(world_state_is_the_free_flight);
    return CHECK_END("dem_store");
}
