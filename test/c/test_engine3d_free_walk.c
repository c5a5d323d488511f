/* test_engine3d_free_walk.c: the soft step's sub-step walk (imp_e3_free_velocities_padded,
   engine3d_step.c) in a world without damping may keep the bodies' own forces of the step's
   start (own 2) and read the velocities from the padded copy (from_padded) instead of taking
   the forces again at the state's velocities (own 1). Expected from the force law (forces.h):
   with damping 0 a body's force is m g + F and its torque T whatever its finite velocity, so
   both walks give the same free velocities to the bit; a velocity that is not finite fails
   both walks naming the same body with the same numbers (the kept forces are not its forces
   then: the walk takes them before naming it). A ball (I = k 1) and a 1 x 2 x 3 box (the
   general spin) with spin; gravity 9.81. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "engine3d.h"
#include "forces.h"
#include "soft3d_world.h"
#include "world_internal.h"
#include <impact/shape.h>
#include <impact/world.h>

static imp_world *scene(void)
{
    imp_world *w = soft3d_world(9.81);
    if (w == NULL) {
        return NULL;
    }
    for (int i = 0; i < 2; i++) {
        imp_body_def bd = imp_body_default_def(3);
        bd.shape = i == 0 ? imp_shape3d_sphere(0.5) : imp_shape3d_box(1, 2, 3);
        bd.density = 1.0;
        bd.state[0] = 5.0 * i, bd.state[2] = 10.0;
        bd.state[3] = 0.8, bd.state[4] = 0.6;  /* (a unit orientation, turned about x) */
        bd.state[7] = 1.0 + i, bd.state[10] = 0.3, bd.state[11] = -0.7 * i, bd.state[12] = 2.0;
        imp_world_add_body(w, &bd);
        imp_shape_release(bd.shape);
    }
    return w;
}

/* slots 1 and 2's state velocities = (their velocities + dv) padded into pv (8 a slot) */
static void velocities(imp_world *w, double dv, double *pv)
{
    memset(pv, 0, 8 * (size_t)w->model.nslots * sizeof *pv);
    for (int s = 1; s < w->model.nslots; s++) {
        double *u = w->data.y + (size_t)s * IMP_STRIDE_3D + IMP_VEL_3D;
        for (int k = 0; k < 6; k++) {
            u[k] += dv * (k + 1);
            pv[8 * s + k + (k >= 3)] = u[k];
        }
    }
}

/* the walk with forces taken at the state (own 1) and with the step start's kept, the
   velocities from the padded copy (own 2); the free velocities, status and error of each */
static void walks(imp_world *w, double dv, int bad, imp_status st[2], double *vel[2], char why[2][400])
{
    imp_engine3d *e = w->engine3d;
    int n = w->model.nslots;
    double f0[6 * 8], f[6 * 8], pv[8 * 8], pad[8 * 8];
    imp_world_forces(w, w->data.time, w->data.y, f0);  /* (the step start's) */
    velocities(w, dv, pv);
    if (bad) {
        double inf = INFINITY;
        w->data.y[(size_t)bad * IMP_STRIDE_3D + IMP_VEL_3D + 1] = inf, pv[8 * bad + 1] = inf;
    }
    for (int k = 0; k < 2; k++) {
        memcpy(f, f0, sizeof f);
        memcpy(pad, pv, sizeof pad);
        st[k] = imp_e3_free_velocities_padded(w, e, f, k == 0 ? 1 : 2, 0.25 / 60.0, NULL, pad, 0, k, why[k], 400);
        memcpy(vel[k], e->vel, 6 * (size_t)n * sizeof(double));
    }
}

TEST(kept_forces_give_the_same_free_velocities)
{
    imp_world *w = scene();
    CHECK(w != NULL);
    CHECK(imp_world_step(w) == IMP_OK);  /* (the engine and its arrays made) */
    CHECK(w->model.nslots <= 8 && imp_forces_undamped_3d(w));
    double v0[6 * 8], v1[6 * 8], *vel[2] = {v0, v1};
    imp_status st[2];
    char why[2][400];
    walks(w, 0.125, 0, st, vel, why);
    CHECK(st[0] == IMP_OK && st[1] == IMP_OK);
    CHECK(memcmp(v0, v1, 6 * (size_t)w->model.nslots * sizeof *v0) == 0);
    CHECK(v0[6 + 2] != w->data.y[IMP_STRIDE_3D + IMP_VEL_3D + 2]);  /* (gravity acted) */
    imp_world_free(w);
}

TEST(a_velocity_not_finite_is_named_with_the_same_numbers)
{
    imp_world *w = scene();
    CHECK(w != NULL);
    CHECK(imp_world_step(w) == IMP_OK);
    for (int bad = 1; bad <= 2; bad++) {
        double v0[6 * 8], v1[6 * 8], *vel[2] = {v0, v1};
        imp_status st[2];
        char why[2][400];
        walks(w, 0.0, bad, st, vel, why);
        CHECK(st[0] == IMP_ERR_NONFINITE && st[1] == IMP_ERR_NONFINITE);
        CHECK(strcmp(why[0], why[1]) == 0);
        CHECK(strstr(why[0], "nan") != NULL);  /* (0 inf: the damping's product at inf) */
        CHECK(w->data.nerror_bodies == 1 && w->data.error_bodies[0] == bad);
        CHECK(memcmp(v0 + 6 * bad, v1 + 6 * bad, 6 * sizeof *v0) == 0);
        w->data.y[(size_t)bad * IMP_STRIDE_3D + IMP_VEL_3D + 1] = 0.0;
    }
    imp_world_free(w);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(kept_forces_give_the_same_free_velocities);
    RUN(a_velocity_not_finite_is_named_with_the_same_numbers);
    return CHECK_END("engine3d_free_walk");
}
