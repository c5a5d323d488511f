/* dem_filter.c: the world's collision filters (category, mask, group, no_collide: filter.h)
   in the dem's collider. Particles carry their body's slot (a clump's members its slot);
   walls, facets and fixed spheres take part as their bodies' filters say. */
#include "dem.h"
#include "filter.h"

int imp_dem_filter_allows(const imp_dem *d, int a, int b)
{
    return d->world == NULL || imp_filter_allows(d->world, d->slot[a], d->slot[b]);
}

void imp_dem_filter_update(imp_dem *d)
{
    if (d->world == NULL || d->filter_version == d->world->model.filter_version) {
        return;
    }
    d->filter_version = d->world->model.filter_version;
    for (int k = d->ninter - 1; k >= 0; k--) {  /* backwards: erasing moves the last into k */
        if (!imp_dem_filter_allows(d, d->inter[k].a, d->inter[k].b)) {
            imp_dem_erase(d, k);
        }
    }
    /* a fresh sweep: pairs the filters now allow begin again (the kept interactions are met
       by their begin events, as after a rebuild) */
    imp_dem_bins_free(d->bp);
    d->bp = NULL;
    d->boxes_stale = 1;
}
