/* test_dem.c: the dem strategy against closed forms: free fall of the damped leapfrog, the
   linear head-on collision (restitution and contact time from the damping), a sphere resting
   on a wall (overlap m g / kn), the interaction lifecycle and the pair map. */
#include "check.h"

#include "dem.h"
#include "scalar.h"
#include "shape3d.h"
#include "world_internal.h"

static imp_world *dem_world(double gz, double dt)
{
    imp_world_def def = imp_world_default_def(3);
    def.strategy = IMP_STRATEGY_DEM;
    def.gravity[0] = def.gravity[1] = 0.0;
    def.gravity[2] = gz;
    def.dt = dt;
    return imp_world_new(&def);
}

static imp_body_id add_sphere(imp_world *w, double r, double rho, double x, double y, double z,
                              double vx)
{
    imp_body_def bd = imp_body_default_def(3);
    bd.shape = imp_shape3d_sphere(r);
    bd.density = rho;
    bd.state[0] = x, bd.state[1] = y, bd.state[2] = z;
    bd.state[IMP_VEL_3D] = vx;
    imp_body_id id = imp_world_add_body(w, &bd);
    imp_shape_release(bd.shape);
    return id;
}

static imp_body_id add_wall(imp_world *w, const double n[3], double x, double y, double z)
{
    imp_body_def bd = imp_body_default_def(3);
    bd.shape = imp_shape3d_wall(n);
    bd.fixed = 1;
    bd.mass = 1.0;
    bd.state[0] = x, bd.state[1] = y, bd.state[2] = z;
    imp_body_id id = imp_world_add_body(w, &bd);
    imp_shape_release(bd.shape);
    return id;
}

/* leapfrog free fall with damping d: z_n = z0 + a dt^2 n (n + 1) / 2, a = -(1 - d) g */
TEST(free_fall_damped)
{
    double dt = 1e-3, g = 9.81, d = 0.2;
    imp_world *w = dem_world(-g, dt);
    CHECK(w != NULL);
    imp_body_id b = add_sphere(w, 0.01, 2600, 0, 0, 1, 0);
    CHECK(b.slot > 0);
    CHECK(imp_dem_sync(w) == IMP_OK);
    w->dem->p.damping = d;
    for (int i = 0; i < 100; i++) {
        CHECK(imp_world_step(w) == IMP_OK);
    }
    const double *y = imp_world_body_state(w, b);
    double a = -(1.0 - d) * g;
    CHECK_NEAR(y[2], 1.0 + a * dt * dt * 100.0 * 101.0 / 2.0, 1e-12);
    CHECK_NEAR(y[IMP_VEL_3D + 2], a * dt * 100.0, 1e-12);
    CHECK_NEAR(w->data.time, 0.1, 1e-15);
    imp_world_free(w);
}

/* Two equal spheres head-on, linear law, damping d: e = sqrt((1 - d) / (1 + d)) and contact
   time (pi / 2) sqrt(m* / kn) (1 / sqrt(1 + d) + 1 / sqrt(1 - d)) (yade.md scenario B). */
static void head_on(double d, double dt, double *e, double *tc, double *dmax)
{
    double R = 0.01, E = 1e7;
    imp_world *w = dem_world(0.0, dt);
    imp_body_id b1 = add_sphere(w, R, 2600, -(R + 0.0005), 0, 0, 0.5);
    imp_body_id b2 = add_sphere(w, R, 2600, R + 0.0005, 0, 0, -0.5);
    imp_dem_sync(w);
    w->dem->p.damping = d;
    w->dem->p.young = E;
    w->dem->built = 0;  /* re-read the young modulus into the particles */
    int in_contact = 0;
    *dmax = 0.0;
    for (int i = 0; i < 200000; i++) {
        imp_world_step(w);
        const double *y1 = imp_world_body_state(w, b1), *y2 = imp_world_body_state(w, b2);
        double un = 2 * R - (y2[0] - y1[0]);
        if (un > 0.0) {
            in_contact++;
            *dmax = un > *dmax ? un : *dmax;
        } else if (in_contact > 0) {
            break;
        }
    }
    const double *y1 = imp_world_body_state(w, b1), *y2 = imp_world_body_state(w, b2);
    *e = (y2[IMP_VEL_3D] - y1[IMP_VEL_3D]) / 1.0;
    *tc = in_contact * dt;
    imp_world_free(w);
}

TEST(head_on_linear_restitution)
{
    double R = 0.01, E = 1e7, rho = 2600;
    double m = 4.0 / 3.0 * IMP_PI * R * R * R * rho, ms = m / 2, kn = E * R;
    double pwave = R / sqrt(E / rho);
    for (int k = 0; k < 3; k++) {
        double d = k == 0 ? 0.0 : (k == 1 ? 0.2 : 0.5);
        double e, tc, dmax;
        head_on(d, 0.01 * pwave, &e, &tc, &dmax);
        double e_th = sqrt((1 - d) / (1 + d));
        double tc_th = 0.5 * IMP_PI * sqrt(ms / kn) * (1 / sqrt(1 + d) + 1 / sqrt(1 - d));
        CHECK_NEAR(e, e_th, 2e-3 * e_th);
        CHECK_NEAR(tc, tc_th, 0.01 * pwave * 1.01);  /* quantised to dt */
        CHECK_NEAR(dmax, 1.0 * sqrt(ms / (kn * (1 + d))), 2e-3 * dmax);
    }
}

/* A sphere settles on the floor: overlap m g / kn with kn = E r (wall/sphere). */
TEST(rest_on_wall)
{
    double r = 0.01, rho = 2600, E = 1e7, g = 9.81;
    double pwave = r / sqrt(E / rho);
    imp_world *w = dem_world(-g, 0.2 * pwave);
    double up[3] = {0, 0, 1};
    add_wall(w, up, 0, 0, 0);
    imp_body_id b = add_sphere(w, r, rho, 0.3, -0.2, r, 0);
    imp_dem_sync(w);
    w->dem->p.young = E;
    w->dem->p.damping = 0.3;
    w->dem->built = 0;
    for (int i = 0; i < 20000; i++) {
        CHECK(imp_world_step(w) == IMP_OK);
    }
    double m = 4.0 / 3.0 * IMP_PI * r * r * r * rho;
    const double *y = imp_world_body_state(w, b);
    CHECK_NEAR(r - y[2], m * g / (E * r), 1e-3 * m * g / (E * r));
    CHECK(imp_dem_real_count(w->dem) == 1);
    imp_world_free(w);
}

/* Lifecycle: potential when the boxes overlap, real on contact, erase requested at separation,
   potential again while the boxes overlap, erased once they part. */
TEST(lifecycle)
{
    imp_world *w = dem_world(0.0, 1e-5);
    imp_body_id b1 = add_sphere(w, 0.01, 2600, 0, 0, 0, 0);
    imp_body_id b2 = add_sphere(w, 0.01, 2600, 0.0203, 0, 0, -0.3);  /* gap 0.3 mm */
    (void)b1;
    CHECK(imp_dem_sync(w) == IMP_OK);
    w->dem->p.verlet = 0.001;
    w->dem->p.damping = 0.0;
    CHECK(imp_world_step(w) == IMP_OK);
    imp_dem *d = w->dem;
    CHECK(d->ninter == 1);
    CHECK(d->inter[0].real == 0);  /* boxes (grown by the verlet distance) overlap; no contact */
    int became_real = 0, erased_pending = 0;
    for (int i = 0; i < 2000 && !erased_pending; i++) {
        CHECK(imp_world_step(w) == IMP_OK);
        if (d->ninter == 1 && d->inter[0].real) {
            became_real = 1;
        }
        if (became_real && d->ninter == 1 && d->inter[0].pending) {
            erased_pending = 1;
        }
    }
    CHECK(became_real && erased_pending);
    CHECK(d->inter[0].fn == 0.0 && d->inter[0].kn == 0.0);  /* history lost */
    CHECK(imp_world_step(w) == IMP_OK);  /* boxes still overlap: kept, potential */
    CHECK(d->ninter == 1 && !d->inter[0].real && !d->inter[0].pending);
    for (int i = 0; i < 2000 && d->ninter > 0; i++) {
        CHECK(imp_world_step(w) == IMP_OK);
    }
    CHECK(d->ninter == 0);  /* the boxes parted: erased */
    const double *y = imp_world_body_state(w, b2);
    CHECK(y[IMP_VEL_3D] > 0.0);
    imp_world_free(w);
}

/* The pair map under many insertions and erasures agrees with a brute-force scan. */
TEST(pair_map)
{
    imp_dem *d = imp_dem_new();
    CHECK(d != NULL);
    int n = 200;
    d->n = n;
    d->kind = calloc((size_t)n, sizeof *d->kind);
    CHECK(d->kind != NULL);
    unsigned s = 12345;
    for (int it = 0; it < 20000; it++) {
        s = s * 1103515245u + 12345u;
        int a = (int)((s >> 8) % (unsigned)n);
        s = s * 1103515245u + 12345u;
        int b = (int)((s >> 8) % (unsigned)n);
        if (a == b) {
            continue;
        }
        int k = imp_dem_find(d, a, b);
        int brute = -1;
        for (int j = 0; j < d->ninter; j++) {
            if ((d->inter[j].a == a && d->inter[j].b == b) || (d->inter[j].a == b && d->inter[j].b == a)) {
                brute = j;
            }
        }
        CHECK(k == brute);
        if (k >= 0) {
            imp_dem_erase(d, k);
        } else {
            CHECK(imp_dem_add_potential(d, a, b) >= 0);
        }
    }
    for (int j = 0; j < d->ninter; j++) {
        CHECK(imp_dem_find(d, d->inter[j].a, d->inter[j].b) == j);
    }
    imp_dem_free(d);
}

/* Only spheres and fixed walls: anything else is refused with a message. */
TEST(unsupported_shape)
{
    imp_world *w = dem_world(-9.81, 1e-5);
    imp_body_def bd = imp_body_default_def(3);
    bd.shape = imp_shape3d_box(1, 1, 1);
    bd.density = 1;
    imp_world_add_body(w, &bd);
    imp_shape_release(bd.shape);
    CHECK(imp_world_step(w) == IMP_ERR_INVALID);
    CHECK(strstr(imp_world_error(w), "spheres, walls and facets") != NULL);
    imp_world_free(w);
}

/* issue #15: an empty dem world steps (no arrays: no memset of NULL), also after its only body
   was removed; a sphere in contact with dt above IMP_DEM_DT_FACTOR times its P-wave step is an
   error before Newton (the body keeps its state), within it steps as before */
TEST(empty_world_and_dt_bound)
{
    imp_world *w = dem_world(-9.81, 1e-4);
    CHECK(imp_world_step(w) == IMP_OK);
    imp_body_id b = add_sphere(w, 0.01, 2600, 0, 0, 1, 0);
    CHECK(imp_world_step(w) == IMP_OK);
    CHECK(imp_world_remove_body(w, b) == IMP_OK);
    CHECK(imp_world_step(w) == IMP_OK);
    imp_world_free(w);

    double r = 0.01, rho = 2600, E = 1e9;
    double pwave = r / sqrt(E / rho), up[3] = {0, 0, 1};
    for (int k = 0; k < 2; k++) {
        double dt = (k == 0 ? 11.0 : 9.0) * pwave;
        w = dem_world(-9.81, dt);
        add_wall(w, up, 0, 0, 0);
        imp_body_id s = add_sphere(w, r, rho, 0, 0, 0.99 * r, 0);
        imp_status st = imp_world_step(w);
        if (k == 0) {
            CHECK(st == IMP_ERR_INVALID);
            CHECK(strstr(imp_world_error(w), "times the P-wave estimate") != NULL);
            CHECK(w->data.nerror_bodies == 1 && w->data.error_bodies[0] == s.slot);
            CHECK(imp_world_body_state(w, s)[2] == 0.99 * r);
        } else {
            CHECK(st == IMP_OK);
        }
        imp_world_free(w);
    }
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(free_fall_damped);
    RUN(head_on_linear_restitution);
    RUN(rest_on_wall);
    RUN(lifecycle);
    RUN(pair_map);
    RUN(unsupported_shape);
    RUN(empty_world_and_dt_bound);
    return CHECK_END("dem");
}
