/* collide2d_tree.c: the edge tree of large polygons and its queries (see collide2d_tree.h). */
#include "collide2d_tree.h"

#include <math.h>
#include <stdlib.h>

#include "edge2d.h"
#include "scalar.h"

static int node_count(int n)
{
    return n <= IMP_EDGE_TREE_LEAF ? 1 : 1 + node_count(n / 2) + node_count(n - n / 2);
}

static int build_node(imp_poly2d *g, imp_edge2d_node *nodes, int *used, int first, int count)
{
    int k = (*used)++;
    imp_edge2d_node *nd = &nodes[k];
    nd->first = first;
    nd->count = count;
    nd->left = nd->right = -1;
    if (count > IMP_EDGE_TREE_LEAF) {
        int half = count / 2;
        int l = build_node(g, nodes, used, first, half);
        int r = build_node(g, nodes, used, first + half, count - half);
        nd = &nodes[k];
        nd->left = l;
        nd->right = r;
        for (int a = 0; a < 2; a++) {
            nd->lo[a] = imp_min(nodes[l].lo[a], nodes[r].lo[a]);
            nd->hi[a] = imp_max(nodes[l].hi[a], nodes[r].hi[a]);
        }
    } else {
        nd->lo[0] = nd->lo[1] = INFINITY;
        nd->hi[0] = nd->hi[1] = -INFINITY;
        for (int i = first; i < first + count; i++) {
            const imp_edge2d *e = &g->edges[i];
            const double c[2] = {e->bc.x, e->bc.y};
            for (int a = 0; a < 2; a++) {
                nd->lo[a] = imp_min(nd->lo[a], c[a] - e->br);
                nd->hi[a] = imp_max(nd->hi[a], c[a] + e->br);
            }
        }
    }
    /* the line bound, from the node's own edges (O(count) per node: O(E log E) in all) */
    const imp_edge2d *r = &g->edges[first];
    nd->lines = 1;
    double spread = 0.0;
    nd->emin = INFINITY;
    for (int i = first; i < first + count; i++) {
        const imp_edge2d *e = &g->edges[i];
        if (e->kind != IMP_EDGE_LINE) {
            nd->lines = 0;
            break;
        }
        spread = imp_max(spread, imp_v2_len(imp_v2_sub(e->n, r->n)));
        nd->emin = imp_min(nd->emin, imp_v2_dot(imp_v2_sub(e->a, r->a), e->n));
    }
    /* the oriented box along the chord of the chain */
    imp_vec2 u = imp_v2_sub(g->edges[first + count - 1].b, r->a);
    double lu = imp_v2_len(u);
    u = lu > 0.0 ? imp_v2_scale(u, 1.0 / lu) : imp_v2(1.0, 0.0);
    imp_vec2 v = imp_v2_perp(u);
    double ulo = INFINITY, uhi = -INFINITY, vlo = INFINITY, vhi = -INFINITY;
    for (int i = first; i < first + count; i++) {
        const imp_edge2d *e = &g->edges[i];
        imp_vec2 pts[2] = {e->a, e->b};
        double pad = 0.0;
        int np = 2;
        if (e->kind != IMP_EDGE_LINE) {
            pts[0] = e->bc;
            pad = e->br;
            np = 1;
        }
        for (int j = 0; j < np; j++) {
            double pu = imp_v2_dot(pts[j], u), pv = imp_v2_dot(pts[j], v);
            ulo = imp_min(ulo, pu - pad), uhi = imp_max(uhi, pu + pad);
            vlo = imp_min(vlo, pv - pad), vhi = imp_max(vhi, pv + pad);
        }
    }
    double cu = 0.5 * (ulo + uhi), cv = 0.5 * (vlo + vhi);
    nd->oc[0] = cu * u.x + cv * v.x, nd->oc[1] = cu * u.y + cv * v.y;
    nd->ou[0] = u.x, nd->ou[1] = u.y;
    nd->oh[0] = 0.5 * (uhi - ulo), nd->oh[1] = 0.5 * (vhi - vlo);
    /* the normals' angle from n_r (chord spread = 2 sin(beta / 2)) */
    double beta = 2.0 * asin(imp_min(0.5 * spread, 1.0));
    nd->cosb = cos(beta);
    nd->sinb = sin(beta);
    return k;
}

int imp_edge2d_tree_build(imp_poly2d *g)
{
    g->tree = NULL;
    g->ntree = 0;
    if (g->nedges <= IMP_EDGE_TREE_MIN) {
        return 0;
    }
    int n = node_count(g->nedges);
    imp_edge2d_node *nodes = malloc((size_t)n * sizeof *nodes);
    if (nodes == NULL) {
        return -1;
    }
    int used = 0;
    build_node(g, nodes, &used, 0, g->nedges);
    g->tree = nodes;
    g->ntree = used;
    return 0;
}

void imp_edge2d_iter_init(imp_edge2d_iter *it, const imp_poly2d *g)
{
    it->g = g;
    it->sp = 0;
    it->stack[it->sp++] = g->tree != NULL ? 0 : -1;
}

int imp_edge2d_iter_next(imp_edge2d_iter *it, const double q[4], int *first, int *last)
{
    const imp_edge2d_node *nodes = it->g->tree;
    while (it->sp > 0) {
        int k = it->stack[--it->sp];
        if (k < 0) {  /* no tree: every edge */
            *first = 0;
            *last = it->g->nedges;
            return *last > 0;
        }
        const imp_edge2d_node *nd = &nodes[k];
        if (nd->lo[0] > q[2] || nd->hi[0] < q[0] || nd->lo[1] > q[3] || nd->hi[1] < q[1]) {
            continue;
        }
        if (nd->left < 0) {
            *first = nd->first;
            *last = nd->first + nd->count;
            return 1;
        }
        it->stack[it->sp++] = nd->right;
        it->stack[it->sp++] = nd->left;
    }
    return 0;
}

double imp_edge2d_tree_slack(const imp_poly2d *g, imp_vec2 p, double extra)
{
    return IMP_EDGE_TREE_SLACK * (g->radius + fabs(p.x) + fabs(p.y) + fabs(extra));
}

/* ---- nearest edge ---------------------------------------------------------------------------- */

typedef struct nearest_q {
    const imp_poly2d *g;
    imp_vec2 p, q;
    double best, slack;
    int be;
} nearest_q;

static double beyond_bound(const imp_poly2d *g, const imp_edge2d_node *nd, imp_vec2 p);

/* a lower bound of the distances from p to the node's edges: the distance to its box, and for
   straight edges also minus the bound of the signed distances to their lines (a distance to a
   segment is at least the magnitude of the one to its line) */
static double box_dist(const imp_poly2d *g, const imp_edge2d_node *nd, imp_vec2 p)
{
    double dx = imp_max(imp_max(nd->lo[0] - p.x, p.x - nd->hi[0]), 0.0);
    double dy = imp_max(imp_max(nd->lo[1] - p.y, p.y - nd->hi[1]), 0.0);
    double d = sqrt(dx * dx + dy * dy);
    return nd->lines ? imp_max(d, -beyond_bound(g, nd, p)) : d;
}

/* imp_edge2d_closest's distance from p to e and its closest point *q, or +INFINITY (q not set)
   when that distance certainly exceeds best: for a straight edge, a squared distance above
   best^2 by a relative 1e-12 (far above the rounding of either side and of hypot) needs no
   hypot. The same distance and point otherwise, bit for bit (the sums of edge2d.c). */
static double closest_unless_beyond(const imp_edge2d *e, imp_vec2 p, double best, imp_vec2 *q)
{
    if (e->kind == IMP_EDGE_LINE) {
        double s = imp_v2_dot(imp_v2_sub(p, e->a), e->t);
        imp_vec2 c = s <= 0.0 ? e->a : (s >= e->length ? e->b : imp_v2_madd(e->a, s, e->t));
        imp_vec2 d = imp_v2_sub(p, c);
        /* best^2 normal (no underflow): the bound holds */
        if (best > 1e-100 && d.x * d.x + d.y * d.y > best * best * (1.0 + 1e-12)) {
            return INFINITY;
        }
        *q = c;
        return imp_v2_dist(p, c);
    }
    int interior;
    return imp_edge2d_closest(e, p, q, &interior);
}

static void nearest_node(nearest_q *s, int k)
{
    const imp_edge2d_node *nd = &s->g->tree[k];
    if (box_dist(s->g, nd, s->p) - s->slack > s->best) {
        return;  /* every edge's distance exceeds the best: none replaces it, ties included */
    }
    if (nd->left >= 0) {
        int a = nd->left, b = nd->right;
        if (box_dist(s->g, &s->g->tree[b], s->p) < box_dist(s->g, &s->g->tree[a], s->p)) {
            a = nd->right, b = nd->left;
        }
        nearest_node(s, a);
        nearest_node(s, b);
        return;
    }
    for (int k2 = nd->first; k2 < nd->first + nd->count; k2++) {
        const imp_edge2d *e = &s->g->edges[k2];
        if (e->flags & IMP_EDGE_NO_COLLIDE) {
            continue;
        }
        imp_vec2 q;
        double d = closest_unless_beyond(e, s->p, s->best, &q);
        /* the loop's strict d < best keeps the lowest index among equal distances */
        if (d < s->best || (d == s->best && s->be >= 0 && k2 < s->be)) {
            s->best = d;
            s->be = k2;
            s->q = q;
        }
    }
}

int imp_edge2d_tree_nearest(const imp_poly2d *g, imp_vec2 p, double *best, imp_vec2 *q)
{
    if (g->tree == NULL) {
        int be = -1;
        for (int k = 0; k < g->nedges; k++) {
            if (g->edges[k].flags & IMP_EDGE_NO_COLLIDE) {
                continue;
            }
            imp_vec2 qq;
            double d = closest_unless_beyond(&g->edges[k], p, *best, &qq);
            if (d < *best) {
                *best = d;
                be = k;
                *q = qq;
            }
        }
        return be;
    }
    nearest_q s = {g, p, *q, *best, imp_edge2d_tree_slack(g, p, 0.0), -1};
    nearest_node(&s, 0);
    if (s.be >= 0) {
        *best = s.best;
        *q = s.q;
    }
    return s.be;
}

/* ---- beyond a straight edge's line ---------------------------------------------------------- */

/* an upper bound of (p - a_k) . n_k over the node's edges (all straight): w = p - a_r,
   (p - a_k) . n_k = w . n_k - (a_k - a_r) . n_k, and the greatest w . n over the normals n within
   the angle beta of n_r is |w| when w is within beta of n_r, else |w| cos(angle - beta) */
static double beyond_bound(const imp_poly2d *g, const imp_edge2d_node *nd, imp_vec2 p)
{
    const imp_edge2d *r = &g->edges[nd->first];
    imp_vec2 w = imp_v2_sub(p, r->a);
    double wn = imp_v2_dot(w, r->n), wt = fabs(imp_v2_cross(w, r->n));
    double lw = sqrt(w.x * w.x + w.y * w.y);
    double top = wn >= lw * nd->cosb ? lw : wn * nd->cosb + wt * nd->sinb;
    return top - nd->emin;
}

static double line_value(const imp_edge2d *e, imp_vec2 p)
{
    return imp_v2_dot(imp_v2_sub(p, e->a), e->n);
}

typedef struct beyond_q {
    const imp_poly2d *g;
    imp_vec2 p;
    double far, slack, m;
    int first;
} beyond_q;

/* the first edge (in order) beyond far: visits the nodes that may hold one, left to right */
static int beyond_first(const beyond_q *s, int k)
{
    const imp_edge2d_node *nd = &s->g->tree[k];
    if (beyond_bound(s->g, nd, s->p) + s->slack <= s->far) {
        return -1;
    }
    if (nd->left >= 0) {
        int r = beyond_first(s, nd->left);
        return r >= 0 ? r : beyond_first(s, nd->right);
    }
    for (int i = nd->first; i < nd->first + nd->count; i++) {
        if (i != s->first && line_value(&s->g->edges[i], s->p) > s->far) {
            return i;
        }
    }
    return -1;
}

/* the largest value (no edge beyond far): the best-bounded child first */
static void beyond_max(beyond_q *s, int k)
{
    const imp_edge2d_node *nd = &s->g->tree[k];
    if (beyond_bound(s->g, nd, s->p) + s->slack < s->m) {
        return;
    }
    if (nd->left >= 0) {
        int a = nd->left, b = nd->right;
        if (beyond_bound(s->g, &s->g->tree[b], s->p) > beyond_bound(s->g, &s->g->tree[a], s->p)) {
            a = nd->right, b = nd->left;
        }
        beyond_max(s, a);
        beyond_max(s, b);
        return;
    }
    for (int i = nd->first; i < nd->first + nd->count; i++) {
        if (i != s->first) {
            double d = line_value(&s->g->edges[i], s->p);
            s->m = d > s->m ? d : s->m;
        }
    }
}

int imp_edge2d_tree_beyond(const imp_poly2d *g, imp_vec2 p, double far, int first, double start,
                           double *most)
{
    if (g->tree == NULL) {
        double m = start;
        for (int k = 0; k < g->nedges; k++) {
            if (k == first) {
                continue;
            }
            double d = line_value(&g->edges[k], p);
            if (d > far) {
                return k;
            }
            m = d > m ? d : m;
        }
        *most = m;
        return -1;
    }
    beyond_q s = {g, p, far, imp_edge2d_tree_slack(g, p, far), start, first};
    int k = beyond_first(&s, 0);
    if (k >= 0) {
        return k;
    }
    beyond_max(&s, 0);
    *most = s.m;
    return -1;
}

/* ---- clipping a segment by a convex polygon's lines --------------------------------------- */

typedef struct clip_q {
    const imp_poly2d *g;
    imp_vec2 a, d;
    double lo, hi, slack;
    int parallel_out;
} clip_q;

/* which 0: edges that may raise lo (the point at lo beyond their line), 1: lower hi */
static void clip_node(clip_q *s, int k, int which)
{
    const imp_edge2d_node *nd = &s->g->tree[k];
    imp_vec2 x = imp_v2_madd(s->a, which ? s->hi : s->lo, s->d);
    if (nd->lines && beyond_bound(s->g, nd, x) + s->slack <= 0.0) {
        return;
    }
    if (nd->left >= 0) {
        clip_node(s, nd->left, which);
        clip_node(s, nd->right, which);
        return;
    }
    for (int i = nd->first; i < nd->first + nd->count; i++) {
        const imp_edge2d *e = &s->g->edges[i];
        double f = imp_v2_dot(imp_v2_sub(s->a, e->a), e->n), dn = imp_v2_dot(s->d, e->n);
        if (dn == 0.0) {
            s->parallel_out |= f > 0.0;
        } else if (dn < 0.0) {
            s->lo = fmax(s->lo, -f / dn);
        } else {
            s->hi = fmin(s->hi, -f / dn);
        }
    }
}

int imp_edge2d_tree_clip(const imp_poly2d *g, imp_vec2 a, imp_vec2 b, double *lo, double *hi)
{
    clip_q s = {g, a, imp_v2_sub(b, a), *lo, *hi,
                IMP_EDGE_TREE_SLACK * (g->radius + fabs(a.x) + fabs(a.y) + fabs(b.x) + fabs(b.y)), 0};
    clip_node(&s, 0, 0);
    clip_node(&s, 0, 1);
    *lo = s.lo;
    *hi = s.hi;
    return s.parallel_out;
}
