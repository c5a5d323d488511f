/* lcp_cone.c: the polyhedral friction cone for 3D contacts (k tangent directions per
   contact, each a friction row of the LCP bounded by mu_row f_n; see lcp.h).

   With the k directions d_j at angles j pi / k in the tangent plane and each friction force
   f_j in [-h, h], the set of reachable friction forces sum_j f_j d_j is the Minkowski sum of
   k segments of length 2h, a zonotope: a regular 2k-gon whose edges are parallel to the d_j.
   Its support function is h sum_j |d_j . u|, which ranges over [h cot(pi/2k), h / sin(pi/2k)]
   (its inradius and circumradius). Coulomb's law asks for the disc of radius mu f_n, so
     circumscribed: h = mu f_n tan(pi/2k): inradius mu f_n, the friction limit in any
                    direction lies in [mu f_n, mu f_n / cos(pi/2k)]; exact in the directions
                    perpendicular to an edge (for even k, along every d_j);
     inscribed:     h = mu f_n sin(pi/2k): circumradius mu f_n, the limit lies in
                    [mu f_n cos(pi/2k), mu f_n]; exact at the vertices.
   Sliding on a polyhedral cone follows maximal dissipation over the polygon (each f_j at
   -h sign(d_j . slip)), which is what the friction rows' bound states produce. (The
   construction is the usual polyhedral approximation of the Coulomb cone, e.g. Stewart &
   Trinkle 1996, written here for Baraff's bounded friction rows.) */
#include <impact/lcp.h>

#include <math.h>

#include "scalar.h"

int imp_lcp_cone(int k, int inscribed, double *dirs, double *mu_factor, double *max_error)
{
    if (k < 2 || k > IMP_LCP_CONE_MAX) {
        return -1;
    }
    double half = IMP_PI / (2.0 * k);
    for (int j = 0; dirs != NULL && j < k; j++) {
        /* the direction at pi/2 (even k) exactly (0, 1): cos(pi/2) rounds to 6.1e-17 */
        double phi = j * IMP_PI / k;
        dirs[2 * j] = 2 * j == k ? 0.0 : cos(phi);
        dirs[2 * j + 1] = 2 * j == k ? 1.0 : sin(phi);
    }
    /* k = 2: tan(pi/4) = 1 exactly (it rounds to 0.99999999999999989), so the pyramid's
       friction rows are exactly the tangent rows with bound mu */
    if (mu_factor != NULL) *mu_factor = inscribed ? sin(half) : k == 2 ? 1.0 : tan(half);
    if (max_error != NULL) *max_error = inscribed ? 1.0 - cos(half) : 1.0 / cos(half) - 1.0;
    return 0;
}
