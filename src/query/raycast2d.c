/* raycast2d.c: segments against 2D polygons with straight and circular edges (raycast.h). */
#include "raycast.h"

#include <math.h>
#include <stddef.h>

#include "edge2d.h"
#include "polygon2d.h"

int imp_raycast2d(const imp_shape *s, const double *pose, const double from[2], const double to[2],
                  imp_ray_hit *hit)
{
    const imp_poly2d *g = imp_shape2d_poly(s);
    if (g == NULL) {
        return -1;
    }
    imp_xf2 x = imp_xf2_from_pose(pose);
    imp_vec2 w0 = imp_v2(from[0], from[1]), w1 = imp_v2(to[0], to[1]);
    imp_vec2 p0 = imp_xf2_apply_inv(x, w0), p1 = imp_xf2_apply_inv(x, w1);
    if (imp_poly2d_contains_centred(g, p0)) {
        imp_vec2 d = imp_v2_sub(w1, w0);
        double l = imp_v2_len(d);
        hit->fraction = 0.0;
        hit->point[0] = from[0], hit->point[1] = from[1], hit->point[2] = 0.0;
        hit->normal[0] = -d.x / l, hit->normal[1] = -d.y / l, hit->normal[2] = 0.0;
        return 1;
    }
    double best = INFINITY;
    imp_vec2 bq = p0;
    int be = -1;
    for (int i = 0; i < g->nedges; i++) {
        double f;
        imp_vec2 q;
        if (imp_edge2d_segment_hit(&g->edges[i], p0, p1, &f, &q) && f < best) {
            best = f, bq = q, be = i;
        }
    }
    if (be < 0) {
        return 0;
    }
    imp_vec2 n = imp_xf2_rot(x, imp_edge2d_normal_at(&g->edges[be], bq));
    imp_vec2 q = imp_v2_add(w0, imp_v2_scale(imp_v2_sub(w1, w0), best));
    hit->fraction = best;
    hit->point[0] = q.x, hit->point[1] = q.y, hit->point[2] = 0.0;
    hit->normal[0] = n.x, hit->normal[1] = n.y, hit->normal[2] = 0.0;
    return 1;
}

int imp_contains2d(const imp_shape *s, const double *pose, const double p[2])
{
    const imp_poly2d *g = imp_shape2d_poly(s);
    if (g == NULL) {
        return -1;
    }
    imp_vec2 q = imp_xf2_apply_inv(imp_xf2_from_pose(pose), imp_v2(p[0], p[1]));
    return imp_poly2d_contains_centred(g, q) ? 1 : 0;
}
