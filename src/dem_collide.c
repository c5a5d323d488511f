/* dem_collide.c: the collider engine: boxes of the particles into impact's sweep-and-prune
   (broadphase3d.h, Yade's InsertionSortCollider with a verlet distance), then the collider's
   part of the interaction lifecycle (Yade's "Sanitizing contact logic"):
     1. erase the interactions whose erase was requested, unless their boxes still overlap (they
        stay potential: a sweep only reports pairs whose boxes begin to overlap, so erasing them
        would lose the pair until the boxes separate and meet again);
     2. update the sweep;
     3. pairs whose boxes stopped overlapping: erase the potential interactions (a real one is
        never erased by the collider: only its law ends it);
     4. pairs whose boxes began to overlap: create potential interactions.
   Cost: O(n + swaps + pairs changed) per run, plus O(pending). */
#include <math.h>
#include <stdio.h>

#include "dem.h"

static double verlet_distance(const imp_dem *d)
{
    if (d->p.verlet >= 0.0) {
        return d->p.verlet;
    }
    double rmin = INFINITY;
    for (int i = 0; i < d->n; i++) {
        if (d->kind[i] == IMP_DEM_SPHERE && d->radius[i] < rmin) {
            rmin = d->radius[i];
        }
    }
    return isfinite(rmin) ? -d->p.verlet * rmin : 0.0;
}

/* A sphere's box is its centre +- f r (f: the interaction-radius factor). A wall is the
   half-space behind it: bounded on one axis when its normal is along an axis, else all space. */
static void boxes(imp_dem *d)
{
    double f = d->p.interaction_radius;
    for (int i = 0; i < d->n; i++) {
        double *lo = d->lo + 3 * i, *hi = d->hi + 3 * i;
        const double *x = d->pos + 3 * i;
        if (d->kind[i] == IMP_DEM_SPHERE) {
            double r = f * d->radius[i];
            for (int k = 0; k < 3; k++) {
                lo[k] = x[k] - r;
                hi[k] = x[k] + r;
            }
            continue;
        }
        if (d->kind[i] == IMP_DEM_FACET) {  /* the triangle's box */
            const double *v = d->facet_v + 9 * d->facet[i];
            for (int k = 0; k < 3; k++) {
                lo[k] = fmin(v[k], fmin(v[3 + k], v[6 + k]));
                hi[k] = fmax(v[k], fmax(v[3 + k], v[6 + k]));
            }
            continue;
        }
        const double *n = d->wall_n + 3 * i;
        for (int k = 0; k < 3; k++) {
            lo[k] = -INFINITY;
            hi[k] = INFINITY;
        }
        for (int k = 0; k < 3; k++) {
            int j = (k + 1) % 3, l = (k + 2) % 3;
            if (n[j] == 0.0 && n[l] == 0.0) {
                if (n[k] > 0.0) {
                    hi[k] = x[k];
                } else {
                    lo[k] = x[k];
                }
            }
        }
    }
}

/* a pending interaction: erased, or kept potential while the boxes still overlap */
static void settle_pending(imp_dem *d, int k, int have_sweep)
{
    imp_dem_inter *I = &d->inter[k];
    int a = I->a < I->b ? I->a : I->b, b = I->a < I->b ? I->b : I->a;
    if (have_sweep && imp_bp3d_has_pair(d->bp, a, b)) {
        I->pending = 0;  /* stays potential */
        d->npending--;
    } else {
        imp_dem_erase(d, k);
    }
}

int imp_dem_collide(imp_dem *d)
{
    double v = verlet_distance(d);
    if (d->bp != NULL && v != d->bp_verlet) {
        imp_bp3d_free(d->bp);
        d->bp = NULL;
    }
    if (d->bp == NULL) {
        if ((d->bp = imp_bp3d_new(v)) == NULL) {
            snprintf(d->error, sizeof d->error, "out of memory in the collider");
            return -1;
        }
        d->bp_verlet = v;
    }
    /* 1. pending erasures: from the list of requested pairs (O(requests)), or by a scan of
       every interaction when the list is incomplete; backwards, since erasing moves the last
       interaction into k */
    int have_sweep = imp_bp3d_pair_count(d->bp) > 0;
    if (d->pend_scan) {
        for (int k = d->ninter - 1; k >= 0; k--) {
            if (d->inter[k].pending) {
                settle_pending(d, k, have_sweep);
            }
        }
        d->pend_scan = 0;
    } else {
        for (int e = 0; e < d->pend_n; e++) {
            int k = imp_dem_find(d, d->pend[2 * e], d->pend[2 * e + 1]);
            if (k >= 0 && d->inter[k].pending) {
                settle_pending(d, k, have_sweep);
            }
        }
    }
    d->pend_n = 0;
    /* 2. the sweep */
    boxes(d);
    if (imp_bp3d_update(d->bp, d->n, d->lo, d->hi) != 0) {
        snprintf(d->error, sizeof d->error, "the collider failed (out of memory or a NaN box)");
        return -1;
    }
    d->collider_runs++;
    /* 3. ended pairs */
    int count = 0;
    const int *ends = imp_bp3d_ends(d->bp, &count);
    for (int e = 0; e < count; e++) {
        int k = imp_dem_find(d, ends[2 * e], ends[2 * e + 1]);
        if (k >= 0 && !d->inter[k].real) {
            imp_dem_erase(d, k);
        }
    }
    /* 4. begun pairs */
    const int *begins = imp_bp3d_begins(d->bp, &count);
    for (int e = 0; e < count; e++) {
        int a = begins[2 * e], b = begins[2 * e + 1];
        if ((d->kind[a] != IMP_DEM_SPHERE && d->kind[b] != IMP_DEM_SPHERE)
            || imp_dem_same_clump(d, a, b)) {
            continue;  /* walls and facets do not interact, nor members of one clump */
        }
        if (imp_dem_find(d, a, b) < 0 && imp_dem_add_potential(d, a, b) < 0) {
            snprintf(d->error, sizeof d->error, "out of memory for the interactions");
            return -1;
        }
    }
    return 0;
}
