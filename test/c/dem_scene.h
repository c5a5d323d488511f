/* dem_scene.h: the dem deposition scene, one copy for the benches (bench/bench_dem.c,
   bench/bench_dem_large.c) and the threads test (test/c/test_dem_threads.c): a 3D dem world
   with gravity -9.81 along z, an open box of five infinite walls (the floor z = 0 and the
   sides x = 0, x = lx, y = 0, y = ly), and the deposition of ../shared/reference/yade.md
   (scenario A): N polydisperse spheres on an nx x ny grid of spacing DEM_SCENE_D, integer-
   arithmetic radii and jitter, linear Cundall-Strack law, E = 1e7, ks/kn = 0.3, friction angle
   0.5, dt = 0.5 P-wave step. */
#ifndef IMPACT_TEST_DEM_SCENE_H
#define IMPACT_TEST_DEM_SCENE_H

#include <string.h>

#include "dem.h"
#include "shape3d.h"
#include "world_internal.h"

#define DEM_SCENE_D 0.026     /* grid spacing, m */
#define DEM_SCENE_RHO 2600.0  /* sphere density, kg/m^3 */
#define DEM_SCENE_YOUNG 1e7
#define DEM_SCENE_KS_RATIO 0.3
#define DEM_SCENE_FRICTION 0.5

/* A dem world with gravity along -z and the five walls of a box lx x ly; NULL when out of
   memory. */
static inline imp_world *dem_scene_box(double lx, double ly)
{
    imp_world_def def = imp_world_default_def(3);
    def.strategy = IMP_STRATEGY_DEM;
    def.gravity[0] = def.gravity[1] = 0.0;
    def.gravity[2] = -9.81;
    imp_world *w = imp_world_new(&def);
    if (w == NULL) {
        return NULL;
    }
    const double walls[5][6] = {{0, 0, 1, 0, 0, 0}, {1, 0, 0, 0, 0, 0}, {-1, 0, 0, lx, 0, 0},
                                {0, 1, 0, 0, 0, 0}, {0, -1, 0, 0, ly, 0}};
    for (int k = 0; k < 5; k++) {
        imp_body_def bd = imp_body_default_def(3);
        bd.shape = imp_shape3d_wall(walls[k]);
        bd.fixed = 1;
        bd.mass = 1.0;
        memcpy(bd.state, walls[k] + 3, 3 * sizeof(double));
        imp_world_add_body(w, &bd);
        imp_shape_release(bd.shape);
    }
    return w;
}

/* Adds a sphere of radius r and density rho with the 13 numbers of state (position,
   orientation, velocity, angular velocity; NULL: at rest at the origin); 0, or -1 when out of
   memory. */
static inline int dem_scene_sphere(imp_world *w, double r, double rho, const double *state)
{
    imp_body_def bd = imp_body_default_def(3);
    bd.shape = imp_shape3d_sphere(r);
    bd.density = rho;
    if (state != NULL) {
        memcpy(bd.state, state, 13 * sizeof(double));
    }
    int slot = imp_world_add_body(w, &bd).slot;
    imp_shape_release(bd.shape);
    return slot < 0 ? -1 : 0;
}

/* The deposition's sphere i: radius 8 to 12 mm and its initial state (at rest, 13 numbers) on
   the grid of nx x ny per layer. */
static inline double dem_scene_radius(int i) { return 0.008 + 0.004 * ((i * 37) % 101) / 100.0; }

static inline void dem_scene_initial(int nx, int ny, int i, double state[13])
{
    int ix = i % nx, iy = (i / nx) % ny, iz = i / (nx * ny);
    memset(state, 0, 13 * sizeof(double));
    state[0] = (ix + 0.5) * DEM_SCENE_D + 0.0008 * (((i * 53) % 17) - 8) / 8.0;
    state[1] = (iy + 0.5) * DEM_SCENE_D + 0.0008 * (((i * 71) % 19) - 9) / 9.0;
    state[2] = (iz + 1.0) * DEM_SCENE_D;
    state[3] = 1.0; /* the identity orientation */
}

/* The deposition of n spheres on an nx x ny grid with Cundall damping and the collider's
   verlet distance (dem.h); NULL when out of memory. */
static inline imp_world *dem_scene_deposit(int n, int nx, int ny, double damping, double verlet)
{
    imp_world *w = dem_scene_box(nx * DEM_SCENE_D, ny * DEM_SCENE_D);
    if (w == NULL) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        double s[13];
        dem_scene_initial(nx, ny, i, s);
        if (dem_scene_sphere(w, dem_scene_radius(i), DEM_SCENE_RHO, s) != 0) {
            imp_world_free(w);
            return NULL;
        }
    }
    if (imp_dem_sync(w) != IMP_OK) {
        imp_world_free(w);
        return NULL;
    }
    imp_dem *d = w->dem;
    d->p.young = DEM_SCENE_YOUNG;
    d->p.ks_ratio = DEM_SCENE_KS_RATIO;
    d->p.friction_angle = DEM_SCENE_FRICTION;
    d->p.damping = damping;
    d->p.verlet = verlet;
    d->built = 0; /* re-read the young modulus */
    if (imp_dem_sync(w) != IMP_OK) {
        imp_world_free(w);
        return NULL;
    }
    imp_world_set_dt(w, 0.5 * imp_dem_p_wave_dt(d));
    return w;
}

#endif
