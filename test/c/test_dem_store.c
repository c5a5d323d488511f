/* test_dem_store.c: the dem's lazy store (dem_sync.c). After a step the world is stale: its
   state vector is written when read (imp_world_sync, by 16-byte non-temporal stores from 8192
   particles on: slots on and off a 16-byte boundary), and then holds the dem's state byte for
   byte, which is the free flight's closed form, after one step or several unread ones. A step
   that fails past Newton (a non-finite state) after unread good steps leaves the world with the
   last good step's state, byte for byte that of a world read after every step, and the next
   step goes on from it. The scene: 9000 spheres 0.1 m apart at z = 1 m in a box with a floor
   (no contact within the steps), each moving along x at its own speed and spinning about z, one
   of them fixed (moved along x at its velocity, as Yade's non-dynamic bodies: no gravity, no
   turn; the store skips it, the kinematic list stores its position). Damped free fall from rest
   along z (Cundall's d, dem_step.c): z_n = z_0 - (1 - d) g dt^2 n (n + 1) / 2; no force along
   x: x_n = x_0 + n dt v_x; no torque: the spin is kept and the orientation turns about z by
   n dt w_z. The same without spins (the still groups of eight whose spins and orientations
   Newton leaves shared by its two sets, dem.h's spin_same), one sphere given a torque for a
   step: a step failing after that still leaves the world as the reference's. */
#include "check.h"

#include <math.h>
#include <string.h>

#include "dem_newton.h"
#include "dem_scene.h"

enum { N = 9000, NX = 100, STEPS = 3 };

static double vx_of(int i) { return 0.01 * (i % 17) - 0.05; }
static int spinning = 1;  /* 0: every sphere starts without spin */
static double wz_of(int i) { return spinning ? 0.5 * (i % 13) - 3.0 : 0.0; }

/* The scene (dt = 1e-4 s, damping 0.2); *first: the first sphere's particle index, *fixed_slot:
   the fixed one's body slot. */
static imp_world *scene(int *first, int *fixed_slot)
{
    imp_world *w = dem_scene_box(NX * 0.1, (N / NX) * 0.1);
    if (w == NULL) {
        return NULL;
    }
    for (int i = 0; i < N; i++) {
        double s[13] = {(i % NX + 0.5) * 0.1, (i / NX + 0.5) * 0.1, 1.0, 1.0, 0.0, 0.0, 0.0,
                        vx_of(i), 0.0, 0.0, 0.0, 0.0, wz_of(i)};
        if (dem_scene_sphere(w, 0.01, 2600.0, s) != 0) {
            imp_world_free(w);
            return NULL;
        }
    }
    imp_dem_sync(w);
    imp_dem *d = w->dem;
    d->p.damping = 0.2;
    *first = -1;
    for (int i = 0; i < d->n; i++) {
        *first = *first < 0 && d->kind[i] == IMP_DEM_SPHERE ? i : *first;
    }
    *fixed_slot = d->slot[*first + 4321];
    w->model.bodies[*fixed_slot].fixed = 1;
    w->model.bodies_version++;
    imp_world_set_dt(w, 1e-4);
    return w;
}

/* After n steps from the start: the world's state (synced) equals the dem's byte for byte and
   the closed form. Counts the slots on and off a 16-byte boundary into *odd and *even. */
static void check_state(imp_world *w, int first, int fixed_slot, int n, int *odd, int *even)
{
    const double dt = 1e-4, g = 9.81, damp = 0.2;
    imp_world_sync(w);
    CHECK(w->data.stale == NULL);
    const imp_dem *d = w->dem;
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
        *odd += ((size_t)(const void *)y & 15) != 0;
        *even += ((size_t)(const void *)y & 15) == 0;
    }
    CHECK(bad_copy == 0);
    CHECK(bad_form == 0);
}

/* Read after each of the first steps, then after STEPS unread ones: stale in between, and the
   state after the sync is the closed form's at the last step. */
TEST(world_state_is_the_free_flight)
{
    int first, fixed_slot, odd = 0, even = 0;
    imp_world *w = scene(&first, &fixed_slot);
    CHECK(w != NULL);
    if (w == NULL) {
        return;
    }
    for (int n = 1; n <= 2; n++) {
        CHECK(imp_world_step(w) == IMP_OK);
        CHECK(w->data.stale != NULL);  /* nothing written yet */
        check_state(w, first, fixed_slot, n, &odd, &even);
    }
    for (int n = 3; n <= 2 + STEPS; n++) {
        CHECK(imp_world_step(w) == IMP_OK);
    }
    check_state(w, first, fixed_slot, 2 + STEPS, &odd, &even);
    CHECK(odd > 0 && even > 0);  /* both alignments of a slot were stored */
    imp_world_free(w);
}

/* A step made to fail past Newton (one sphere's inverse mass made infinite in the dem's copy:
   0 x inf = NaN acceleration) after STEPS unread good steps: the error is the non-finite
   state's, the world holds the last good step's state byte for byte (a second world, read
   after every step, is the reference) and its time; the next step (the dem rebuilt from the
   world's state) goes on as the reference's. */
TEST(failing_step_keeps_the_last_good_state)
{
    int first, fixed_slot, first_r, fixed_slot_r, odd = 0, even = 0;
    imp_world *w = scene(&first, &fixed_slot), *r = scene(&first_r, &fixed_slot_r);
    CHECK(w != NULL && r != NULL);
    if (w == NULL || r == NULL) {
        imp_world_free(w);
        imp_world_free(r);
        return;
    }
    for (int n = 1; n <= STEPS; n++) {
        CHECK(imp_world_step(w) == IMP_OK);
        CHECK(imp_world_step(r) == IMP_OK);
        imp_world_sync(r);
    }
    CHECK(w->data.stale != NULL);
    w->dem->inv_mass[first + 17] = INFINITY;
    double t = imp_world_time(w);
    CHECK(imp_world_step(w) == IMP_ERR_NONFINITE);
    CHECK(strstr(imp_world_error(w), "non-finite") != NULL);
    CHECK(w->data.stale == NULL);  /* written by the failure */
    CHECK(imp_world_time(w) == t);
    size_t bytes = (size_t)w->model.nslots * IMP_STRIDE_3D * sizeof(double);
    CHECK(w->model.nslots == r->model.nslots);
    CHECK(memcmp(w->data.y, r->data.y, bytes) == 0);
    check_state(w, first, fixed_slot, STEPS, &odd, &even);
    CHECK(imp_world_step(w) == IMP_OK);  /* rebuilt: the inverse mass the body's again */
    CHECK(imp_world_step(r) == IMP_OK);
    CHECK(imp_world_state_hash(w) == imp_world_state_hash(r));
    check_state(w, first, fixed_slot, STEPS + 1, &odd, &even);
    imp_world_free(w);
    imp_world_free(r);
}

/* Without spins: every group of eight moving spheres is still (group 0 and the fixed sphere's
   not: walls, the fixed one), so Newton shares their spins and orientations between its two sets
   from the first step on (AVX2 kernel); sphere first + 100 is given a torque for step STEPS + 1
   (its group is written again, and spins from then on); step STEPS + 3 fails. The world holds
   the reference's state (read after every step) byte for byte, and the next step goes on as
   the reference's. */
TEST(failing_step_after_shared_spins)
{
    int first, fixed_slot, first_r, fixed_slot_r, odd = 0, even = 0;
    spinning = 0;
    imp_world *w = scene(&first, &fixed_slot), *r = scene(&first_r, &fixed_slot_r);
    CHECK(w != NULL && r != NULL);
    if (w == NULL || r == NULL) {
        imp_world_free(w);
        imp_world_free(r);
        spinning = 1;
        return;
    }
    for (int n = 1; n <= STEPS; n++) {
        CHECK(imp_world_step(w) == IMP_OK);
        CHECK(imp_world_step(r) == IMP_OK);
        imp_world_sync(r);
    }
    check_state(w, first, fixed_slot, STEPS, &odd, &even);
    const imp_dem *d = w->dem;
    int shared = 0;
    for (int g = 0; g < d->n / 8; g++) {
        shared += d->spin_same[g];
    }
    CHECK(shared > 0 || !imp_dem_newton_simd());
    const double torque[3] = {1e-6, -2e-6, 3e-6};
    imp_body_id id = {w->dem->slot[first + 100], 0}, id_r = {r->dem->slot[first_r + 100], 0};
    imp_body_apply_torque(w, id, torque);
    imp_body_apply_torque(r, id_r, torque);
    for (int n = STEPS + 1; n <= STEPS + 2; n++) {
        CHECK(imp_world_step(w) == IMP_OK);
        CHECK(imp_world_step(r) == IMP_OK);
        imp_world_sync(r);
    }
    CHECK(d->angvel[3 * (first + 100)] != 0.0);
    CHECK(w->data.stale != NULL);
    w->dem->inv_mass[first + 17] = INFINITY;
    CHECK(imp_world_step(w) == IMP_ERR_NONFINITE);
    CHECK(w->data.stale == NULL);
    size_t bytes = (size_t)w->model.nslots * IMP_STRIDE_3D * sizeof(double);
    CHECK(w->model.nslots == r->model.nslots);
    CHECK(memcmp(w->data.y, r->data.y, bytes) == 0);
    for (int n = 1; n <= 2; n++) {
        CHECK(imp_world_step(w) == IMP_OK);
        CHECK(imp_world_step(r) == IMP_OK);
        CHECK(imp_world_state_hash(w) == imp_world_state_hash(r));
    }
    imp_world_free(w);
    imp_world_free(r);
    spinning = 1;
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(world_state_is_the_free_flight);
    RUN(failing_step_keeps_the_last_good_state);
    RUN(failing_step_after_shared_spins);
    return CHECK_END("dem_store");
}
