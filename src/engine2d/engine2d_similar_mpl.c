/* engine2d_similar_mpl.c: under conventions = "myphysicslab", its rule for two corner records
   that describe one collision seen from both bodies (its CornerEdgeCollision.similarTo with
   UtilCollision.addCollision, reference note "similar collisions"): corner V of body A against
   edge E of body B, and corner W of B against edge F of A, are one collision when F is one of
   V's two edges and E one of W's, their impact points are closer than the nearness of the
   later one's radii (its UtilEngine.nearness: 2 r sqrt(2 distance_tol / r), r the smaller
   convex radius of the corner's edges and the struck edge, distance_tol when both are
   straight) and their normals are within |cos| >= 0.9; of the two the deeper is kept (the
   earlier one on a tie). Its detection finds the corners of the later body in its list (the
   higher slot here) first.

   A corner near the end of an arc meets a face whose end corner touches the arc: two
   records 0.09 apart with one normal (circle_arc_block at 2.0158 s), which impact's own rule
   (straight edges: within distance_tol) keeps apart; drawn as two, the serial focus could
   strike the other one. O(k^2) for the k results of a pair (a handful).

   At a back-up (imp_engine2d_mpl_drop_similar) its do_backup keeps the records found
   penetrating and adds the static ones through addCollision, which refuses a static record
   similar to a kept one (the kept was detected later): one of the kept corner's records on
   the same pair, on another edge or on a corner (its CornerCornerCollision.similarTo). */
#include <math.h>

#include "collide2d.h"
#include "engine2d.h"
#include "polygon2d.h"
#include "world_internal.h"

/* its radius of curvature of an edge: a straight edge's is infinite, a concave arc's < 0 */
static double edge_radius(const imp_edge2d *e)
{
    return e->kind == IMP_EDGE_ARC ? (e->convex ? e->r : -e->r) : INFINITY;
}

/* its Vertex.getCurvature: the radius of the vertex's edge of smaller |radius| */
static double vertex_radius(const imp_poly2d *g, int v)
{
    const imp_vertex2d *x = &g->vertices[v];
    double r = edge_radius(&g->edges[x->edge_in]), r2 = edge_radius(&g->edges[x->edge_out]);
    return fabs(r2) < fabs(r) ? r2 : r;
}

/* its UtilEngine.nearness */
static double nearness(double r1, double r2, double tol)
{
    double r;
    if (r1 == INFINITY) {
        r = r2 > 0.0 ? r2 : r1;
    } else if (r2 == INFINITY) {
        r = r1 > 0.0 ? r1 : r2;
    } else if (r1 > 0.0 && r2 > 0.0) {
        r = r1 < r2 ? r1 : r2;
    } else {
        r = r1 < 0.0 ? -r1 : -r2;
    }
    return r == INFINITY ? tol : 2.0 * r * sqrt(2.0 * tol / r);
}

static const imp_poly2d *poly_of(const imp_world *w, int slot)
{
    return imp_shape2d_poly(w->model.bodies[slot].shape);
}

static int has_edge(const imp_poly2d *g, int v, int edge)
{
    return g->vertices[v].edge_in == edge || g->vertices[v].edge_out == edge;
}

/* whether the later record c2 is similar to the earlier c1 (mirror corner records) */
static int similar(const imp_world *w, const imp_hit2d *c2, const imp_hit2d *c1, double tol)
{
    if (c1->type != IMP_HIT_VERTEX_EDGE || c2->type != IMP_HIT_VERTEX_EDGE
        || c1->body != c2->normal_body || c1->normal_body != c2->body) {
        return 0;
    }
    const imp_poly2d *g1 = poly_of(w, c1->body), *g2 = poly_of(w, c2->body);
    if (g1 == NULL || g2 == NULL || c1->vertex < 0 || c2->vertex < 0
        || !has_edge(g1, c1->vertex, c2->normal_edge) || !has_edge(g2, c2->vertex, c1->normal_edge)) {
        return 0;
    }
    double r2 = c2->normal_curvature == 0.0 ? INFINITY : 1.0 / c2->normal_curvature;
    double near = nearness(vertex_radius(g2, c2->vertex), r2, tol);
    double dx = c1->point[0] - c2->point[0], dy = c1->point[1] - c2->point[1];
    double dot = c1->normal[0] * c2->normal[0] + c1->normal[1] * c2->normal[1];
    return dx * dx + dy * dy <= near * near && fabs(dot) >= 0.9;
}

/* its order of a body's vertices: a full circle's (its Shapes.makeBall) starts at the angle pi
   and runs counterclockwise, impact's at theta0: the rank of vertex v in its list */
static double vertex_rank(const imp_poly2d *g, int v)
{
    if (g->nedges == 1 && g->edges[0].kind == IMP_EDGE_ARC) {
        imp_vec2 d = imp_v2_sub(g->vertices[v].p, g->edges[0].c);
        double a = atan2(d.y, d.x) - 3.14159265358979323846;
        while (a < 0.0) a += 6.28318530717958647692;
        while (a >= 6.28318530717958647692) a -= 6.28318530717958647692;
        return a;
    }
    return v;
}

/* a swept corner record of a polygon */
static int swept_corner(const imp_hit2d *h)
{
    return h->type == IMP_HIT_VERTEX_EDGE && h->swept && h->vertex >= 0;
}

/* Two swept corner records of one body on one edge of the other (a ball's mid-arc corners
   crossing a disk together) are one collision when the later one's edge is one of the earlier
   one's and their points are within the later one's nearness, normals |cos| >= 0.9: its
   addCollision keeps the deeper (the earlier on a tie), taking the corners in its vertex
   order. A swept corner and an edge/edge record holding both its edges, by the same rule.
   O(k^3) at worst for the k swept corner records of a detection (its order found by scans);
   under conventions = "myphysicslab" only. */
static int same_body_corners(const imp_world *w, imp_hit2d *h, int m, double tol)
{
    /* a swept corner record against an edge/edge record of the pair holding both its edges
       (found before it: its edge tests come first) */
    for (int i = 0; i < m; i++) {
        if (!swept_corner(&h[i])) {
            continue;
        }
        const imp_poly2d *g = poly_of(w, h[i].body);
        for (int j = 0; j < m && g != NULL && h[i].kind != -1; j++) {
            const imp_hit2d *e = &h[j];
            if (e->kind == -1 || e->type != IMP_HIT_EDGE_EDGE) {
                continue;
            }
            int vedge, nedge;  /* the edge record's edge on the corner's body, on the other */
            if (e->body == h[i].body && e->normal_body == h[i].normal_body) {
                vedge = e->edge, nedge = e->normal_edge;
            } else if (e->body == h[i].normal_body && e->normal_body == h[i].body) {
                vedge = e->normal_edge, nedge = e->edge;
            } else {
                continue;
            }
            if (nedge != h[i].normal_edge || !has_edge(g, h[i].vertex, vedge)) {
                continue;
            }
            double r2 = h[i].normal_curvature == 0.0 ? INFINITY : 1.0 / h[i].normal_curvature;
            double near = nearness(vertex_radius(g, h[i].vertex), r2, tol);
            double dx = e->point[0] - h[i].point[0], dy = e->point[1] - h[i].point[1];
            double dot = e->normal[0] * h[i].normal[0] + e->normal[1] * h[i].normal[1];
            if (dx * dx + dy * dy <= near * near && fabs(dot) >= 0.9) {
                if (h[i].distance < e->distance) {
                    h[j].kind = -1;
                } else {
                    h[i].kind = -1;
                }
            }
        }
    }
    /* then the corners one by one in its order (rank, then index), each against those of the
       same body and edge taken before it and still kept */
    double last_rank = -INFINITY;
    int last_i = -1;
    for (;;) {
        int i = -1;
        double ri = INFINITY;
        for (int k = 0; k < m; k++) {
            if (!swept_corner(&h[k])) {
                continue;
            }
            double rk = vertex_rank(poly_of(w, h[k].body), h[k].vertex);
            int after = rk > last_rank || (rk == last_rank && k > last_i);
            if (after && (rk < ri || (rk == ri && i < 0))) {
                i = k;
                ri = rk;
            }
        }
        if (i < 0) {
            break;
        }
        last_rank = ri;
        last_i = i;
        if (h[i].kind == -1) {
            continue;
        }
        const imp_poly2d *g = poly_of(w, h[i].body);
        const imp_vertex2d *x2 = &g->vertices[h[i].vertex];
        double r2 = h[i].normal_curvature == 0.0 ? INFINITY : 1.0 / h[i].normal_curvature;
        double near = nearness(vertex_radius(g, h[i].vertex), r2, tol);
        int refused = 0;
        for (int j = 0; j < m; j++) {
            if (j == i || !swept_corner(&h[j]) || h[j].kind == -1 || h[j].body != h[i].body
                || h[j].normal_body != h[i].normal_body || h[j].normal_edge != h[i].normal_edge) {
                continue;
            }
            double rj = vertex_rank(g, h[j].vertex);
            if (!(rj < ri || (rj == ri && j < i)) || !has_edge(g, h[j].vertex, x2->edge_in)) {
                continue;  /* (not taken before it, or not its edge) */
            }
            double dx = h[j].point[0] - h[i].point[0], dy = h[j].point[1] - h[i].point[1];
            double dot = h[j].normal[0] * h[i].normal[0] + h[j].normal[1] * h[i].normal[1];
            if (dx * dx + dy * dy <= near * near && fabs(dot) >= 0.9) {
                if (h[i].distance < h[j].distance) {
                    h[j].kind = -1;
                } else {
                    refused = 1;
                }
            }
        }
        if (refused) {
            h[i].kind = -1;
        }
    }
    int out = 0;
    for (int i = 0; i < m; i++) {
        if (h[i].kind != -1) {
            h[out++] = h[i];
        }
    }
    return out;
}

int imp_engine2d_similar_mpl(const imp_world *w, imp_hit2d *h, int m)
{
    double tol = w->model.def.engine2d.distance_tol;
    for (int s = 0; s < m;) {
        /* the run of one pair's results */
        int lo = h[s].body < h[s].normal_body ? h[s].body : h[s].normal_body;
        int hi = h[s].body ^ h[s].normal_body ^ lo, e = s + 1;
        while (e < m && ((h[e].body == lo && h[e].normal_body == hi)
                         || (h[e].body == hi && h[e].normal_body == lo))) {
            e++;
        }
        for (int i = s; i < e; i++) {
            for (int j = s; j < e; j++) {
                if (j == i || h[i].body == h[j].body) {
                    continue;
                }
                /* its order: the higher slot's corners were found first */
                const imp_hit2d *c1 = h[i].body > h[j].body ? &h[i] : &h[j];
                const imp_hit2d *c2 = c1 == &h[i] ? &h[j] : &h[i];
                /* the later one replaces the earlier only when deeper */
                if (similar(w, c2, c1, tol) && (&h[i] == c2) != (c2->distance < c1->distance)) {
                    h[i].kind = -1;  /* dropped (kind is not read by similar) */
                    break;
                }
            }
        }
        s = e;
    }
    int out = 0;
    for (int i = 0; i < m; i++) {
        if (h[i].kind != -1) {
            h[out++] = h[i];
        }
    }
    return same_body_corners(w, h, out, tol);
}

/* the same world point (one vertex of a body, placed by two computations) */
static int same_point(const double *a, const double *b)
{
    double tol = 1e-9 * (1.0 + fabs(a[0]) + fabs(a[1]));
    return fabs(a[0] - b[0]) <= tol && fabs(a[1] - b[1]) <= tol;
}

/* whether the static record s is one of the kept record k's corner (k: a corner on an edge) */
static int of_kept_corner(const imp_rec2d *s, const imp_rec2d *k)
{
    if (s->connector >= 0 || s->key == k->key
        || !((s->p == k->p && s->q == k->q) || (s->p == k->q && s->q == k->p))) {
        return 0;
    }
    int corner_corner = s->corners || (!s->vertex && !s->curved);
    if (s->p == k->p && (s->vertex || corner_corner) && same_point(s->u1, k->u1)) {
        return 1;  /* the kept corner on another edge, or on a corner */
    }
    return corner_corner && s->q == k->p && same_point(s->u2, k->u1);  /* a corner on it */
}

int imp_engine2d_mpl_drop_similar(imp_engine2d *e, int nstatic)
{
    int out = 0;
    for (int i = 0; i < nstatic; i++) {  /* (out <= i: the kept records are not yet moved) */
        int drop = 0;
        for (int k = nstatic; k < e->nrec && !drop; k++) {
            drop = e->rec[k].vertex && of_kept_corner(&e->rec[i], &e->rec[k]);
        }
        if (!drop) {
            e->rec[out++] = e->rec[i];
        }
    }
    int left = out;  /* the static records left */
    for (int k = nstatic; k < e->nrec; k++) {
        e->rec[out++] = e->rec[k];
    }
    e->nrec = out;
    return left;
}
