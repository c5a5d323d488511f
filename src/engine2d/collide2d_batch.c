/* collide2d_batch.c: broad phase + narrow phase over arrays of bodies (see collide2d_batch.h). */
#include "collide2d_batch.h"

#include <stddef.h>

#include "collide2d_clip.h"
#include "polygon2d.h"

int imp_collide2d_batch_boxes(const imp_body2d *bodies, int n, imp_bp2d *bp,
                              const imp_detect2d_params *p, double *boxes, imp_body2d_xf *xf)
{
    if (n < 0 || (n > 0 && (bodies == NULL || boxes == NULL)) || bp == NULL || p == NULL ||
        !(p->distance_tol > 0.0)) {
        return -1;
    }
    for (int i = 0; i < n; i++) {
        const imp_body2d *b = &bodies[i];
        const imp_poly2d *g = imp_shape2d_poly(b->shape);
        if (g == NULL) {
            return -1;
        }
        if (xf != NULL) {
            /* one transform and check per body and pass, shared by its box and all its pairs
               (an invalid body makes its pairs' detection fail, as without xf) */
            imp_collide2d_prepare(b, &xf[i]);
            imp_collide2d_clip_prepare(b, &xf[i]);
            imp_poly2d_swept_bounds_xf(g, xf[i].now, b->has_prev ? &xf[i].prev : NULL,
                                       p->distance_tol, boxes + 4 * i);
        } else {
            imp_shape2d_swept_bounds(b->shape, b->pose, b->has_prev ? b->prev_pose : NULL,
                                     p->distance_tol, boxes + 4 * i);
        }
    }
    int np = imp_bp2d_update(bp, boxes, n, NULL);
    return np < 0 ? -1 : np;
}

int imp_collide2d_batch_skip(const imp_body2d *bodies, int i, int j, const unsigned char *still,
                             const imp_pairset *exclude, imp_collide2d_keep keep, const void *ctx)
{
    if (still != NULL && still[i] && still[j]) {
        return 1;
    }
    if (exclude != NULL && imp_pairset_contains(exclude, bodies[i].id, bodies[j].id)) {
        return 1;
    }
    return keep != NULL && !keep(ctx, bodies[i].id, bodies[j].id);
}

int imp_collide2d_batch_pair(const imp_body2d *bodies, const imp_body2d_xf *xf, int clip,
                             const imp_detect2d_params *p, int i, int j, imp_hit2d *out, int capacity)
{
    return xf == NULL ? imp_collide2d_detect(&bodies[i], &bodies[j], p, out, capacity)
           : clip     ? imp_collide2d_clip_xf_simd(&bodies[i], &xf[i], &bodies[j], &xf[j], p, clip == 2, out, capacity)
                      : imp_collide2d_detect_xf(&bodies[i], &xf[i], &bodies[j], &xf[j], p, out, capacity);
}

int imp_collide2d_batch_keep(const imp_body2d *bodies, int n, const unsigned char *still,
                             imp_bp2d *bp, const imp_pairset *exclude, imp_collide2d_keep keep,
                             const void *ctx, const imp_detect2d_params *p, double *boxes,
                             imp_body2d_xf *xf, int clip, imp_hit2d *out, int capacity)
{
    if (capacity < 0 || (capacity > 0 && out == NULL)) {
        return -1;
    }
    int np = imp_collide2d_batch_boxes(bodies, n, bp, p, boxes, xf);
    if (np < 0) {
        return -1;
    }
    int total = 0;
    for (int k = 0; k < np; k++) {
        int i = bp->pairs[2 * k], j = bp->pairs[2 * k + 1];
        if (imp_collide2d_batch_skip(bodies, i, j, still, exclude, keep, ctx)) {
            continue;
        }
        int room = capacity - total;
        int m = imp_collide2d_batch_pair(bodies, xf, clip, p, i, j, room > 0 ? out + total : NULL,
                                         room > 0 ? room : 0);
        if (m < 0) {
            return -1;
        }
        total += m;
    }
    return total;
}

int imp_collide2d_batch_xf(const imp_body2d *bodies, int n, const unsigned char *still,
                           imp_bp2d *bp, const imp_pairset *exclude, const imp_detect2d_params *p,
                           double *boxes, imp_body2d_xf *xf, imp_hit2d *out, int capacity)
{
    return imp_collide2d_batch_keep(bodies, n, still, bp, exclude, NULL, NULL, p, boxes, xf, 0, out,
                                    capacity);
}

int imp_collide2d_batch(const imp_body2d *bodies, int n, const unsigned char *still, imp_bp2d *bp,
                        const imp_pairset *exclude, const imp_detect2d_params *p, double *boxes,
                        imp_hit2d *out, int capacity)
{
    return imp_collide2d_batch_xf(bodies, n, still, bp, exclude, p, boxes, NULL, out, capacity);
}
