/* distance2d.c: signed distance between posed 2D shapes (see distance2d.h). Works in a's
   centred frame; b's edges are moved in once per use. */
#include "distance2d.h"

#include <math.h>
#include <stddef.h>

#include "collide2d.h"
#include "edge2d.h"
#include "polygon2d.h"
#include "scalar.h"
#include "xform2d.h"

/* closest distance between the edge sets when no edges cross; *crossing = 1 when some do.
   Edge pairs whose bounding circles are further apart than the best so far are skipped. */
static double edge_gap(const imp_poly2d *ga, const imp_poly2d *gb, imp_xf2 rel, int stop_on_cross,
                       int *crossing, imp_vec2 *pa, imp_vec2 *pb)
{
    double best = INFINITY;
    *crossing = 0;
    for (int j = 0; j < gb->nedges; j++) {
        imp_edge2d eb = imp_edge2d_transform(&gb->edges[j], rel);
        for (int i = 0; i < ga->nedges; i++) {
            const imp_edge2d *ea = &ga->edges[i];
            double gap = imp_v2_dist(ea->bc, eb.bc) - ea->br - eb.br;
            if (gap > 0.0 && gap >= best) {
                continue;
            }
            imp_vec2 pts[2], qa, qb;
            if (gap <= 0.0 && imp_edge2d_intersect(ea, &eb, 0.0, pts) != 0) {
                *crossing = 1;
                if (stop_on_cross) {
                    return 0.0;
                }
                continue;
            }
            if (pa != NULL) {
                double d = imp_edge2d_edge_distance(ea, &eb, &qa, &qb);
                if (d < best) {
                    best = d;
                    *pa = qa;
                    *pb = qb;
                }
            }
        }
    }
    return best;
}

static int contained(const imp_poly2d *ga, const imp_poly2d *gb, imp_xf2 rel)
{
    return imp_poly2d_contains_centred(ga, imp_xf2_apply(rel, gb->vertices[0].p)) ||
           imp_poly2d_contains_centred(gb, imp_xf2_apply_inv(rel, ga->vertices[0].p));
}

/* disjoint once b is moved by shift (a's frame) */
static int separated_after(const imp_poly2d *ga, const imp_poly2d *gb, imp_xf2 rel, imp_vec2 shift)
{
    rel.p = imp_v2_add(rel.p, shift);
    int crossing;
    edge_gap(ga, gb, rel, 1, &crossing, NULL, NULL);
    return !crossing && !contained(ga, gb, rel);
}

/* min and max of x . n over the polygon's edges (moved by x), with the extreme points */
static void project(const imp_poly2d *g, imp_xf2 x, imp_vec2 n, double *lo, double *hi,
                    imp_vec2 *plo, imp_vec2 *phi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < g->nedges; i++) {
        imp_edge2d e = imp_edge2d_transform(&g->edges[i], x);
        imp_vec2 cand[4];
        int m = 0;
        cand[m++] = e.a;
        cand[m++] = e.b;
        if (e.kind == IMP_EDGE_ARC) {
            if (imp_edge2d_in_span(&e, n, 0.0)) {
                cand[m++] = imp_v2_madd(e.c, e.r, n);
            }
            if (imp_edge2d_in_span(&e, imp_v2_neg(n), 0.0)) {
                cand[m++] = imp_v2_madd(e.c, -e.r, n);
            }
        }
        for (int k = 0; k < m; k++) {
            double s = imp_v2_dot(cand[k], n);
            if (s < *lo) {
                *lo = s;
                *plo = cand[k];
            }
            if (s > *hi) {
                *hi = s;
                *phi = cand[k];
            }
        }
    }
}

typedef struct sat {
    double depth;
    imp_vec2 n, pa, pb;
} sat;

static void try_axis(sat *best, const imp_poly2d *ga, const imp_poly2d *gb, imp_xf2 rel, imp_vec2 n)
{
    double l = imp_v2_len(n);
    if (!(l > 0.0)) {
        return;
    }
    n = imp_v2_scale(n, 1.0 / l);
    double alo, ahi, blo, bhi;
    imp_vec2 palo, pahi, pblo, pbhi;
    project(ga, imp_xf2_identity(), n, &alo, &ahi, &palo, &pahi);
    project(gb, rel, n, &blo, &bhi, &pblo, &pbhi);
    double up = ahi - blo, down = bhi - alo; /* move b along +n or -n */
    if (up < best->depth) {
        best->depth = up;
        best->n = n;
        best->pa = pahi;
        best->pb = pblo;
    }
    if (down < best->depth) {
        best->depth = down;
        best->n = imp_v2_neg(n);
        best->pa = palo;
        best->pb = pbhi;
    }
}

/* Separating axes: straight-edge normals, arc centre -> other vertex, arc centre -> other arc
   centre (the normals of the Minkowski difference of convex arc polygons), and the line of
   centroids. Cost O((Ea + Eb + arcs x vertices) (Ea + Eb)). */
static sat sat_min(const imp_poly2d *ga, const imp_poly2d *gb, imp_xf2 rel)
{
    sat best = {INFINITY, {1, 0}, {0, 0}, {0, 0}};
    try_axis(&best, ga, gb, rel, rel.p);
    if (!(best.depth < INFINITY)) {
        try_axis(&best, ga, gb, rel, imp_v2(1, 0));
    }
    for (int i = 0; i < ga->nedges; i++) {
        const imp_edge2d *e = &ga->edges[i];
        if (e->kind == IMP_EDGE_LINE) {
            try_axis(&best, ga, gb, rel, e->n);
            continue;
        }
        for (int v = 0; v < gb->nends; v++) {
            try_axis(&best, ga, gb, rel, imp_v2_sub(imp_xf2_apply(rel, gb->vertices[v].p), e->c));
        }
        for (int j = 0; j < gb->nedges; j++) {
            if (gb->edges[j].kind == IMP_EDGE_ARC) {
                try_axis(&best, ga, gb, rel, imp_v2_sub(imp_xf2_apply(rel, gb->edges[j].c), e->c));
            }
        }
    }
    for (int j = 0; j < gb->nedges; j++) {
        const imp_edge2d *e = &gb->edges[j];
        if (e->kind == IMP_EDGE_LINE) {
            try_axis(&best, ga, gb, rel, imp_xf2_rot(rel, e->n));
            continue;
        }
        imp_vec2 c = imp_xf2_apply(rel, e->c);
        for (int v = 0; v < ga->nends; v++) {
            try_axis(&best, ga, gb, rel, imp_v2_sub(c, ga->vertices[v].p));
        }
    }
    return best;
}

enum { MAX_FEATURES = 64 };

int imp_collide2d_distance(const imp_shape *a, const double *pose_a, const imp_shape *b,
                           const double *pose_b, imp_distance2d *out)
{
    const imp_poly2d *ga = imp_shape2d_poly(a), *gb = imp_shape2d_poly(b);
    if (ga == NULL || gb == NULL) {
        return -1;
    }
    for (int k = 0; k < 3; k++) {
        if (!isfinite(pose_a[k]) || !isfinite(pose_b[k])) {
            return -1;
        }
    }
    imp_xf2 xa = imp_xf2_from_pose(pose_a), xb = imp_xf2_from_pose(pose_b);
    imp_xf2 rel = imp_xf2_relative(xa, xb);
    imp_vec2 pa = imp_v2(0, 0), pb = imp_v2(0, 0), nrm; /* nrm: set on both branches below */
    int crossing;
    double gap = edge_gap(ga, gb, rel, 1, &crossing, &pa, &pb);
    out->exact = 1;
    if (!crossing && !contained(ga, gb, rel) && gap > 0.0) {
        out->distance = gap;
        nrm = imp_v2_scale(imp_v2_sub(pb, pa), 1.0 / gap);
    } else {
        /* overlapping (or touching to the last bit): the smallest checked separating move */
        double slack = 1e-9 * (ga->radius + gb->radius);
        sat s = sat_min(ga, gb, rel);
        out->distance = -s.depth;
        out->exact = ga->convex && gb->convex;
        nrm = s.n, pa = s.pa, pb = s.pb;
        imp_hit2d hits[MAX_FEATURES];
        int n = imp_collide2d_penetrations(a, pose_a, b, pose_b, hits, MAX_FEATURES);
        n = n < MAX_FEATURES ? n : MAX_FEATURES;
        /* features by ascending depth (insertion sort of at most MAX_FEATURES) */
        for (int i = 1; i < n; i++) {
            imp_hit2d h = hits[i];
            int j = i;
            while (j > 0 && hits[j - 1].distance < h.distance) {
                hits[j] = hits[j - 1];
                j--;
            }
            hits[j] = h;
        }
        for (int i = 0; i < n; i++) {
            const imp_hit2d *h = &hits[i];
            double depth = -h->distance;
            if (!(depth < s.depth)) {
                break;
            }
            /* in a's frame, oriented from a toward b */
            imp_vec2 hn = imp_xf2_rot_inv(xa, imp_v2(h->normal[0], h->normal[1]));
            imp_vec2 q = imp_xf2_apply_inv(xa, imp_v2(h->point[0], h->point[1]));
            imp_vec2 qp = imp_xf2_apply_inv(xa, imp_v2(h->point_primary[0], h->point_primary[1]));
            imp_vec2 fa = q, fb = qp;
            if (h->normal_body != 0) {
                hn = imp_v2_neg(hn), fa = qp, fb = q;
            }
            if (separated_after(ga, gb, rel, imp_v2_scale(hn, depth + slack))) {
                out->distance = -depth;
                out->exact = 1;
                nrm = hn, pa = fa, pb = fb;
                break;
            }
        }
    }
    imp_vec2 wa = imp_xf2_apply(xa, pa), wb = imp_xf2_apply(xa, pb), wn = imp_xf2_rot(xa, nrm);
    out->point_a[0] = wa.x, out->point_a[1] = wa.y;
    out->point_b[0] = wb.x, out->point_b[1] = wb.y;
    out->normal[0] = wn.x, out->normal[1] = wn.y;
    return 0;
}
