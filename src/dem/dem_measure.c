/* dem_measure.c: the bulk measures of a dem packing (Yade's getStress, avgNumInteractions,
   fabricTensor, porosity): one pass over the real interactions and one over the particles.

   Love-Weber stress: sigma = (1 / V) sum over particles p and their contacts c of
   f_c (x) (x_c - x_p), f_c the force on p at contact point x_c. For a sphere pair a, b with
   the force f on b the two terms add up to -f (x) (x_b - x_a) (the branch vector); for a wall
   or facet against sphere b only b is a particle: f (x) (x_c - x_b), x_c - x_b = -(r_b - un / 2) n.
   Tension is positive (Yade's sign): a compressed packing has negative diagonal terms. */
#include <math.h>
#include <string.h>

#include "dem.h"
#include "scalar.h"

void imp_dem_measure(const imp_dem *d, imp_dem_measures *out)
{
    memset(out, 0, sizeof *out);
    for (int k = 0; k < 3; k++) {
        out->lo[k] = INFINITY;
        out->hi[k] = -INFINITY;
    }
    for (int i = 0; i < d->n; i++) {
        if (d->kind[i] != IMP_DEM_SPHERE) {
            continue;
        }
        double r = d->radius[i];
        out->spheres++;
        out->solid_volume += 4.0 / 3.0 * IMP_PI * r * r * r;
        for (int k = 0; k < 3; k++) {
            double lo = d->pos[3 * i + k] - r, hi = d->pos[3 * i + k] + r;
            out->lo[k] = lo < out->lo[k] ? lo : out->lo[k];
            out->hi[k] = hi > out->hi[k] ? hi : out->hi[k];
        }
    }
    for (int k = 0; k < d->ninter; k++) {
        const imp_dem_inter *I = &d->inter[k];
        if (!I->real || (I->un < 0.0 && !I->bonded)) {
            continue;  /* potential, or distant (a gap) without a bond: not a contact */
        }
        const double *n = I->n;
        double f[3], l[3];
        for (int j = 0; j < 3; j++) {
            f[j] = I->fn * n[j] + I->fs[j];
        }
        if (d->kind[I->a] == IMP_DEM_SPHERE) {
            out->sphere_contacts++;
            double o[3] = {0.0, 0.0, 0.0};
            if (d->cell.on) {  /* the branch vector to b's image */
                imp_dem_cell_offset(d, I, o, NULL);
            }
            for (int j = 0; j < 3; j++) {
                l[j] = -(d->pos[3 * I->b + j] + o[j] - d->pos[3 * I->a + j]);
            }
            for (int a = 0; a < 3; a++) {
                for (int b = 0; b < 3; b++) {
                    out->fabric[3 * a + b] += n[a] * n[b];
                }
            }
            for (int a = 0; a < 3; a++) {
                out->stiff[a] += I->kn * (l[a] * n[a]) * (l[a] * n[a]);
            }
        } else {
            out->boundary_contacts++;
            double arm = d->radius[I->b] - 0.5 * I->un;
            for (int j = 0; j < 3; j++) {
                l[j] = -arm * n[j];
            }
        }
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 3; b++) {
                out->stress_sum[3 * a + b] += f[a] * l[b];
            }
        }
    }
    if (out->sphere_contacts > 0) {
        for (int j = 0; j < 9; j++) {
            out->fabric[j] /= out->sphere_contacts;
        }
    }
}
