/* dem.c: the dem strategy's state: creation, defaults and release (the interaction map is in
   dem_map.c, the particles fed from the world's bodies in dem_sync.c, the scene-wide queries
   in dem_query.c). */
#include "dem.h"
#include "dem_domain.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int imp_dem_simd_mode(atomic_int *mode, int (*available)(void))
{
    int m = atomic_load_explicit(mode, memory_order_relaxed);
    if (m < 0) {
        const char *env = getenv("IMPACT_DEM_SIMD");
        m = available() && !(env != NULL && strcmp(env, "0") == 0);
        atomic_store_explicit(mode, m, memory_order_relaxed);
    }
    return m;
}

imp_dem_params imp_dem_default_params(void)
{
    imp_dem_params p;
    memset(&p, 0, sizeof p);
    p.damping = 0.2;
    p.verlet = -0.1;
    p.interaction_radius = 1.0;
    p.geometry = IMP_DEM_GEOM_SPHERE_SPHERE | IMP_DEM_GEOM_WALL_SPHERE | IMP_DEM_GEOM_FACET_SPHERE;
    p.law = IMP_DEM_LAW_LINEAR;
    p.never_erase = 0;
    p.young = 1e9;          /* Yade's FrictMat defaults */
    p.ks_ratio = 0.25;
    p.friction_angle = 0.5;
    p.poisson = 0.3;
    p.en = 1.0;
    p.tangential_damping = 1;
    p.wall_friction_angle = -1.0;  /* walls and facets: the friction angle of the spheres */
    return p;
}

imp_dem *imp_dem_new(void)
{
    imp_dem *d = calloc(1, sizeof *d);
    if (d != NULL) {
        d->p = imp_dem_default_params();
        d->travel = INFINITY;  /* no anchor yet */
    }
    return d;
}

static void free_particles(imp_dem *d)
{
    free(d->slot);
    free(d->kind);
    free(d->fixed);
    free(d->pos);
    free(d->vel);
    free(d->angvel);
    free(d->quat);
    free(d->pos_prev);
    free(d->vel_prev);
    free(d->angvel_prev);
    free(d->quat_prev);
    free(d->spin_same);
    free(d->force_mark);
    free(d->force);
    free(d->torque);
    free(d->radius);
    free(d->wall_n);
    free(d->facet);
    free(d->facet_v);
    free(d->clump_of);
    free(d->member);
    free(d->moff);
    free(d->inv_mass);
    free(d->inv_inertia);
    free(d->mass);
    free(d->young);
    free(d->lo);
    free(d->hi);
    free(d->xr);
    free(d->kin);
}

void imp_dem_free(imp_dem *d)
{
    if (d == NULL) {
        return;
    }
    free_particles(d);
    imp_dem_cell_free(d);
    free(d->slot_to_particle);
    free(d->clumps);
    free(d->inter_mem);
    free(d->hot);
    free(d->hot_dirty);
    free(d->scratch);
    free(d->done);
    free(d->order);
    free(d->sorted);
    free(d->vw);
    free(d->map);
    free(d->sort_buf);
    free(d->pend);
    imp_dem_bins_free(d->bp);
    imp_dem_domain_free(d->domain);
    free(d);
}
