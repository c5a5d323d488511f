/* collide2d_batch.c: broad phase + narrow phase over arrays of bodies (see collide2d_batch.h). */
#include "collide2d_batch.h"

#include <stddef.h>

#include "polygon2d.h"

int imp_collide2d_batch(const imp_body2d *bodies, int n, const unsigned char *still, imp_bp2d *bp,
                        const imp_pairset *exclude, const imp_detect2d_params *p, double *boxes,
                        imp_hit2d *out, int capacity)
{
    if (n < 0 || (n > 0 && (bodies == NULL || boxes == NULL)) || bp == NULL || p == NULL ||
        !(p->distance_tol > 0.0) || capacity < 0 || (capacity > 0 && out == NULL)) {
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (imp_shape2d_poly(bodies[i].shape) == NULL) {
            return -1;
        }
        imp_shape2d_swept_bounds(bodies[i].shape, bodies[i].pose,
                                 bodies[i].has_prev ? bodies[i].prev_pose : NULL, p->distance_tol,
                                 boxes + 4 * i);
    }
    int np = imp_bp2d_update(bp, boxes, n, NULL);
    if (np < 0) {
        return -1;
    }
    int total = 0;
    for (int k = 0; k < np; k++) {
        int i = bp->pairs[2 * k], j = bp->pairs[2 * k + 1];
        if (still != NULL && still[i] && still[j]) {
            continue;
        }
        if (exclude != NULL && imp_pairset_contains(exclude, bodies[i].id, bodies[j].id)) {
            continue;
        }
        int room = capacity - total;
        int m = imp_collide2d_detect(&bodies[i], &bodies[j], p, room > 0 ? out + total : NULL,
                                     room > 0 ? room : 0);
        if (m < 0) {
            return -1;
        }
        total += m;
    }
    return total;
}
