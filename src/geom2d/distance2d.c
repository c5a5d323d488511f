/* distance2d.c: signed distance between posed 2D shapes (see distance2d.h). Works in a's
   centred frame; b's edges are moved in once per use. */
#include "distance2d.h"

#include <math.h>
#include <stddef.h>

#include "collide2d.h"
#include "collide2d_tree.h"
#include "edge2d.h"
#include "polygon2d.h"
#include "scalar.h"
#include "xform2d.h"

/* the query box of a's edge tree for b's edge eb: a's edges whose discs are further from eb's
   than max(best, 0) (with the tree's slack) have gap > 0 and gap >= best in the loop below */
static void gap_box(const imp_poly2d *ga, const imp_edge2d *eb, double best, double box[4])
{
    double reach = eb->br + imp_edge2d_tree_slack(ga, eb->bc, eb->br) + imp_max(best, 0.0);
    box[0] = eb->bc.x - reach, box[1] = eb->bc.y - reach;
    box[2] = eb->bc.x + reach, box[3] = eb->bc.y + reach;
}

/* The plain loop over every pair (b's edges outer, a's inner), pairs whose bounding circles
   are further apart than the best so far skipped: 1 when some edges cross (at the first
   crossing pair found, when stop is 1), else the closest distance and points (pa != NULL).
   a's edge tree skips, in bulk, only pairs the loop skips (gap_box); the others come in the
   loop's order. */
static int gap_loop(const imp_poly2d *ga, const imp_poly2d *gb, imp_xf2 rel, double *best,
                    imp_vec2 *pa, imp_vec2 *pb)
{
    for (int j = 0; j < gb->nedges; j++) {
        imp_edge2d eb = imp_edge2d_transform(&gb->edges[j], rel);
        double box[4];
        gap_box(ga, &eb, pa != NULL ? *best : 0.0, box); /* without pa: only crossings count */
        imp_edge2d_iter it;
        imp_edge2d_iter_init(&it, ga);
        int first, last;
        while (imp_edge2d_iter_next(&it, box, &first, &last)) {
            for (int i = first; i < last; i++) {
                const imp_edge2d *ea = &ga->edges[i];
                double gap = imp_v2_dist(ea->bc, eb.bc) - ea->br - eb.br;
                if (gap > 0.0 && gap >= *best) {
                    continue;
                }
                imp_vec2 pts[2], qa, qb;
                if (gap <= 0.0 && imp_edge2d_intersect(ea, &eb, 0.0, pts) != 0) {
                    return 1;
                }
                if (pa != NULL) {
                    double d = imp_edge2d_edge_distance(ea, &eb, &qa, &qb);
                    if (d < *best) {
                        *best = d;
                        *pa = qa;
                        *pb = qb;
                    }
                }
            }
            gap_box(ga, &eb, pa != NULL ? *best : 0.0, box);
        }
    }
    return 0;
}

/* Branch and bound for the closest pair of edges (no crossing): the least distance, ties to
   the first pair in the plain loop's order (b's edge j, then a's edge i). */
typedef struct gap_q {
    const imp_poly2d *ga, *gb;
    imp_xf2 rel;
    double slack;
    double best;
    int bj, bi;
    imp_vec2 pa, pb;
} gap_q;

/* distance between the boxes {lo_x, lo_y, hi_x, hi_y} */
static double box_gap(const double *p, const double *q)
{
    double dx = imp_max(imp_max(p[0] - q[2], q[0] - p[2]), 0.0);
    double dy = imp_max(imp_max(p[1] - q[3], q[1] - p[3]), 0.0);
    return sqrt(dx * dx + dy * dy);
}

static void node_box(const imp_edge2d_node *nd, double box[4])
{
    box[0] = nd->lo[0], box[1] = nd->lo[1], box[2] = nd->hi[0], box[3] = nd->hi[1];
}

/* a's edges (tree node k, or all when a has no tree) against b's edge j (eb, its disc's box) */
static void gap_a(gap_q *q, int k, int j, const imp_edge2d *eb, const double *ebox)
{
    int first = 0, last = q->ga->nedges;
    if (q->ga->tree != NULL) {
        const imp_edge2d_node *nd = &q->ga->tree[k];
        double box[4];
        node_box(nd, box);
        if (box_gap(box, ebox) - q->slack > q->best) {
            return;
        }
        if (nd->left >= 0) {
            double l[4], r[4];
            node_box(&q->ga->tree[nd->left], l);
            node_box(&q->ga->tree[nd->right], r);
            int right_first = box_gap(r, ebox) < box_gap(l, ebox);
            gap_a(q, right_first ? nd->right : nd->left, j, eb, ebox);
            gap_a(q, right_first ? nd->left : nd->right, j, eb, ebox);
            return;
        }
        first = nd->first, last = nd->first + nd->count;
    }
    for (int i = first; i < last; i++) {
        imp_vec2 qa, qb;
        double d = imp_edge2d_edge_distance(&q->ga->edges[i], eb, &qa, &qb);
        if (d < q->best || (d == q->best && (j < q->bj || (j == q->bj && i < q->bi)))) {
            q->best = d;
            q->bj = j, q->bi = i;
            q->pa = qa, q->pb = qb;
        }
    }
}

/* b's node box moved into a's frame */
static void moved_box(const gap_q *q, const imp_edge2d_node *nd, double box[4])
{
    imp_vec2 c = imp_xf2_apply(q->rel, imp_v2(0.5 * (nd->lo[0] + nd->hi[0]), 0.5 * (nd->lo[1] + nd->hi[1])));
    double hx = 0.5 * (nd->hi[0] - nd->lo[0]), hy = 0.5 * (nd->hi[1] - nd->lo[1]);
    double ex = fabs(q->rel.c) * hx + fabs(q->rel.s) * hy, ey = fabs(q->rel.s) * hx + fabs(q->rel.c) * hy;
    box[0] = c.x - ex, box[1] = c.y - ey, box[2] = c.x + ex, box[3] = c.y + ey;
}

static void gap_b(gap_q *q, int k)
{
    int first = 0, last = q->gb->nedges;
    if (q->gb->tree != NULL) {
        const imp_edge2d_node *nd = &q->gb->tree[k];
        if (q->ga->tree != NULL) {
            double box[4], abox[4];
            moved_box(q, nd, box);
            node_box(&q->ga->tree[0], abox);
            if (box_gap(box, abox) - q->slack > q->best) {
                return;
            }
        }
        if (nd->left >= 0) {
            gap_b(q, nd->left);
            gap_b(q, nd->right);
            return;
        }
        first = nd->first, last = nd->first + nd->count;
    }
    for (int j = first; j < last; j++) {
        imp_edge2d eb = imp_edge2d_transform(&q->gb->edges[j], q->rel);
        const double ebox[4] = {eb.bc.x - eb.br, eb.bc.y - eb.br, eb.bc.x + eb.br, eb.bc.y + eb.br};
        gap_a(q, 0, j, &eb, ebox);
    }
}

/* an oriented box (collide2d_tree.h) moved by x: centre, unit axis u (v its left normal),
   half extents */
typedef struct obox {
    imp_vec2 c, u;
    double h[2];
} obox;

static obox node_obox(const imp_edge2d_node *nd, imp_xf2 x)
{
    obox o = {imp_xf2_apply(x, imp_v2(nd->oc[0], nd->oc[1])), imp_xf2_rot(x, imp_v2(nd->ou[0], nd->ou[1])),
              {nd->oh[0], nd->oh[1]}};
    return o;
}

/* separation of two oriented boxes along the unit axis w */
static double obox_sep(const obox *a, const obox *b, imp_vec2 w)
{
    double ca = imp_v2_dot(a->c, w), cb = imp_v2_dot(b->c, w);
    double ha = a->h[0] * fabs(imp_v2_dot(a->u, w)) + a->h[1] * fabs(imp_v2_cross(a->u, w));
    double hb = b->h[0] * fabs(imp_v2_dot(b->u, w)) + b->h[1] * fabs(imp_v2_cross(b->u, w));
    return imp_max(imp_max(cb - hb - (ca + ha), ca - ha - (cb + hb)), 0.0);
}

/* a lower bound of the distance between two oriented boxes: their separation along each of
   their axes and along the line of their centres (projections do not lengthen distances) */
static double obox_gap(const obox *a, const obox *b)
{
    double s = imp_max(obox_sep(a, b, a->u), obox_sep(a, b, imp_v2_perp(a->u)));
    s = imp_max(s, imp_max(obox_sep(a, b, b->u), obox_sep(a, b, imp_v2_perp(b->u))));
    imp_vec2 w = imp_v2_sub(b->c, a->c);
    double lw = sqrt(w.x * w.x + w.y * w.y);
    return lw > 0.0 ? imp_max(s, obox_sep(a, b, imp_v2_scale(w, 1.0 / lw))) : s;
}

/* node ka of a's tree against node kb of b's (both trees): pairs of nodes further apart than
   the best (with slack) are skipped, the bigger node is split, the nearer child first */
static void gap_pair(gap_q *q, int ka, int kb)
{
    const imp_edge2d_node *na = &q->ga->tree[ka], *nb = &q->gb->tree[kb];
    obox oa = node_obox(na, imp_xf2_identity()), ob = node_obox(nb, q->rel);
    if (obox_gap(&oa, &ob) - q->slack > q->best) {
        return;
    }
    if (na->left < 0 && nb->left < 0) {
        for (int j = nb->first; j < nb->first + nb->count; j++) {
            imp_edge2d eb = imp_edge2d_transform(&q->gb->edges[j], q->rel);
            for (int i = na->first; i < na->first + na->count; i++) {
                imp_vec2 qa, qb;
                double d = imp_edge2d_edge_distance(&q->ga->edges[i], &eb, &qa, &qb);
                if (d < q->best || (d == q->best && (j < q->bj || (j == q->bj && i < q->bi)))) {
                    q->best = d;
                    q->bj = j, q->bi = i;
                    q->pa = qa, q->pb = qb;
                }
            }
        }
        return;
    }
    int split_a = nb->left < 0 || (na->left >= 0 && na->count >= nb->count);
    const imp_edge2d_node *n = split_a ? na : nb;
    int c0 = n->left, c1 = n->right;
    obox o0 = split_a ? node_obox(&q->ga->tree[c0], imp_xf2_identity()) : node_obox(&q->gb->tree[c0], q->rel);
    obox o1 = split_a ? node_obox(&q->ga->tree[c1], imp_xf2_identity()) : node_obox(&q->gb->tree[c1], q->rel);
    const obox *other = split_a ? &ob : &oa;
    if (obox_gap(&o1, other) < obox_gap(&o0, other)) {
        c0 = n->right, c1 = n->left;
    }
    gap_pair(q, split_a ? c0 : ka, split_a ? kb : c0);
    gap_pair(q, split_a ? c1 : ka, split_a ? kb : c1);
}

/* closest distance between the edge sets when no edges cross; *crossing = 1 when some do
   (then 0 is returned and pa, pb are left as they are). The answer is the plain loop's
   (gap_loop), found by branch and bound: the loop takes the first closest pair, unless that
   pair's bounding-circle gap, rounded, exceeds its distance (then the loop may have skipped
   it, and it runs as such). */
static double edge_gap(const imp_poly2d *ga, const imp_poly2d *gb, imp_xf2 rel, int *crossing,
                       imp_vec2 *pa, imp_vec2 *pb)
{
    double best = INFINITY;
    if (ga->tree == NULL && gb->tree == NULL) {  /* small polygons: the plain loop at once */
        *crossing = gap_loop(ga, gb, rel, &best, pa, pb);
        return *crossing ? 0.0 : best;
    }
    *crossing = gap_loop(ga, gb, rel, &best, NULL, NULL);
    if (*crossing || pa == NULL) {
        return *crossing ? 0.0 : best;
    }
    gap_q q = {ga, gb, rel, IMP_EDGE_TREE_SLACK * (ga->radius + gb->radius + fabs(rel.p.x) + fabs(rel.p.y)),
               INFINITY, -1, -1, imp_v2(0, 0), imp_v2(0, 0)};
    if (ga->tree != NULL && gb->tree != NULL) {
        gap_pair(&q, 0, 0);
    } else {
        gap_b(&q, 0);
    }
    if (q.bj >= 0) {
        imp_edge2d eb = imp_edge2d_transform(&gb->edges[q.bj], rel);
        const imp_edge2d *ea = &ga->edges[q.bi];
        double gap = imp_v2_dist(ea->bc, eb.bc) - ea->br - eb.br;
        if (!(gap > 0.0 && gap > q.best)) {
            *pa = q.pa;
            *pb = q.pb;
            return q.best;
        }
    }
    gap_loop(ga, gb, rel, &best, pa, pb);
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
    edge_gap(ga, gb, rel, &crossing, NULL, NULL);
    return !crossing && !contained(ga, gb, rel);
}

/* The points of edge e that can be extreme along n: its end points, and for an arc the points
   of its circle along n and -n where they lie within its span. Returns their count (2..4). */
static int extreme_candidates(const imp_edge2d *e, imp_vec2 n, imp_vec2 cand[4])
{
    int m = 0;
    cand[m++] = e->a;
    cand[m++] = e->b;
    if (e->kind == IMP_EDGE_ARC) {
        if (imp_edge2d_in_span(e, n, 0.0)) {
            cand[m++] = imp_v2_madd(e->c, e->r, n);
        }
        if (imp_edge2d_in_span(e, imp_v2_neg(n), 0.0)) {
            cand[m++] = imp_v2_madd(e->c, -e->r, n);
        }
    }
    return m;
}

/* A projection query: the least and greatest values with their points and sequence numbers
   (4 edge + candidate: the plain loop's order, whose strict comparisons keep the first). */
typedef struct proj_q {
    const imp_poly2d *g;
    imp_xf2 x;
    imp_vec2 n, m; /* the axis; m: the axis in g's own frame */
    double t, slack;
    double lo, hi;
    imp_vec2 plo, phi;
    int slo, shi;
} proj_q;

static void proj_edge(proj_q *q, int i)
{
    /* an edge whose values (bounded before moving it: its end points, or its disc) can
       neither reach the greatest nor the least value so far changes nothing */
    const imp_edge2d *g = &q->g->edges[i];
    double vlo, vhi;
    if (g->kind == IMP_EDGE_LINE) {
        double va = imp_v2_dot(g->a, q->m), vb = imp_v2_dot(g->b, q->m);
        vlo = imp_min(va, vb), vhi = imp_max(va, vb);
    } else {
        double vc = imp_v2_dot(g->bc, q->m);
        vlo = vc - g->br, vhi = vc + g->br;
    }
    if (q->t + vhi + q->slack < q->hi && q->t + vlo - q->slack > q->lo) {
        return;
    }
    imp_edge2d e = imp_edge2d_transform(g, q->x);
    imp_vec2 n = q->n, cand[4];
    int m = extreme_candidates(&e, n, cand);
    for (int k = 0; k < m; k++) {
        double s = imp_v2_dot(cand[k], n);
        int seq = 4 * i + k;
        if (s < q->lo || (s == q->lo && seq < q->slo)) {
            q->lo = s;
            q->plo = cand[k];
            q->slo = seq;
        }
        if (s > q->hi || (s == q->hi && seq < q->shi)) {
            q->hi = s;
            q->phi = cand[k];
            q->shi = seq;
        }
    }
}

/* the range of x . n over a node's oriented box moved by x */
static void proj_bounds(const proj_q *q, const imp_edge2d_node *nd, double *lo, double *hi)
{
    double c = q->t + nd->oc[0] * q->m.x + nd->oc[1] * q->m.y;
    double mu = nd->ou[0] * q->m.x + nd->ou[1] * q->m.y, mv = nd->ou[0] * q->m.y - nd->ou[1] * q->m.x;
    double h = nd->oh[0] * fabs(mu) + nd->oh[1] * fabs(mv);
    *lo = c - h - q->slack;
    *hi = c + h + q->slack;
}

/* the greatest (up = 1) or least value: the more promising child first; a node whose bound
   cannot reach the value found so far (ties included) is skipped */
static void proj_node(proj_q *q, int k, int up)
{
    const imp_edge2d_node *nd = &q->g->tree[k];
    double lo, hi;
    proj_bounds(q, nd, &lo, &hi);
    if (up ? hi < q->hi : lo > q->lo) {
        return;
    }
    if (nd->left >= 0) {
        double la, ha, lb, hb;
        proj_bounds(q, &q->g->tree[nd->left], &la, &ha);
        proj_bounds(q, &q->g->tree[nd->right], &lb, &hb);
        int right_first = up ? hb > ha : lb < la;
        proj_node(q, right_first ? nd->right : nd->left, up);
        proj_node(q, right_first ? nd->left : nd->right, up);
        return;
    }
    for (int i = nd->first; i < nd->first + nd->count; i++) {
        proj_edge(q, i);
    }
}

/* min and max of x . n over the polygon's edges (moved by x), with the extreme points */
static void project(const imp_poly2d *g, imp_xf2 x, imp_vec2 n, double *lo, double *hi,
                    imp_vec2 *plo, imp_vec2 *phi)
{
    if (g->tree != NULL) {
        proj_q q = {g, x, n, imp_xf2_rot_inv(x, n), imp_v2_dot(x.p, n),
                    IMP_EDGE_TREE_SLACK * (3.0 * g->radius + fabs(x.p.x) + fabs(x.p.y)),
                    INFINITY, -INFINITY, imp_v2(0, 0), imp_v2(0, 0), 0, 0};
        proj_node(&q, 0, 1);
        proj_node(&q, 0, 0);
        *lo = q.lo, *hi = q.hi, *plo = q.plo, *phi = q.phi;
        return;
    }
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < g->nedges; i++) {
        imp_edge2d e = imp_edge2d_transform(&g->edges[i], x);
        imp_vec2 cand[4];
        int m = extreme_candidates(&e, n, cand);
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
    double gap = edge_gap(ga, gb, rel, &crossing, &pa, &pb);
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
