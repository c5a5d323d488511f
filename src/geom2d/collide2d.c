/* collide2d.c: narrow phase between two posed polygons (see collide2d.h for the rules).
   Edge/edge tests run in body a's centred frame; vertex/edge tests in the normal body's frame.
   No allocation: results go to the caller's array. */
#include "collide2d.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "collide2d_tree.h"
#include "edge2d.h"
#include "polygon2d.h"
#include "scalar.h"
#include "xform2d.h"

/* angular slack of span tests (radians): an arc ending exactly where it touches (a rounded
   corner meeting a flat face) must not flicker with rounding */
#define SPAN_SLACK 1e-9

typedef struct ctx {
    double tol, vtol;
    int keep_separating;
    int corner_overlap;  /* imp_detect2d_params */
    imp_hit2d *out;
    int cap, n;
    int unlimited;     /* penetration queries: no depth limits on arc/arc penetrations */
    /* set by edge_pass: both polygons and b's frame in a's, for the containment checks */
    const imp_poly2d *ga, *gb;
    imp_xf2 rel;
    double tiny;
} ctx;

/* A point (a's centred frame) inside both bodies: the middle of a penetrating edge/edge pair
   must be, else the circles overlap somewhere the polygons do not (a ball in a doughnut's hole
   is inside the outer circle). Penetrations shallower than tiny pass (boundary rounding). */
static int in_both(const ctx *c, imp_vec2 q, imp_vec2 qp, double d)
{
    if (d >= -c->tiny) {
        return 1;
    }
    imp_vec2 m = imp_v2_scale(imp_v2_add(q, qp), 0.5);
    return imp_poly2d_contains_centred(c->ga, m) &&
           imp_poly2d_contains_centred(c->gb, imp_xf2_apply_inv(c->rel, m));
}

static imp_vec2 point_velocity(const imp_body2d *b, imp_vec2 w)
{
    imp_vec2 r = imp_v2(w.x - b->pose[0], w.y - b->pose[1]);
    return imp_v2_add(imp_v2(b->velocity[0], b->velocity[1]), imp_v2_cross_sv(b->velocity[2], r));
}

static imp_hit2d blank_hit(const imp_body2d *P, const imp_body2d *N, int type)
{
    imp_hit2d h;
    h.body = P->id;
    h.normal_body = N->id;
    h.kind = IMP_HIT_COLLISION;
    h.type = type;
    h.vertex = h.edge = h.normal_edge = h.normal_vertex = -1;
    h.decorated = h.swept = 0;
    h.cone_margin = 0.0;
    h.curvature = h.normal_curvature = 0.0;
    h.distance = h.normal_velocity = 0.0;
    h.point[0] = h.point[1] = h.point_primary[0] = h.point_primary[1] = 0.0;
    h.normal[0] = h.normal[1] = 0.0;
    return h;
}

/* Completes h from frame-local geometry, classifies it and stores it; 0 when dropped. */
static int emit(ctx *c, const imp_body2d *P, const imp_body2d *N, imp_xf2 frame, imp_hit2d *h,
                imp_vec2 q, imp_vec2 qp, imp_vec2 n, double d, int swept)
{
    imp_vec2 wq = imp_xf2_apply(frame, q), wqp = imp_xf2_apply(frame, qp), wn = imp_xf2_rot(frame, n);
    double vn = imp_v2_dot(imp_v2_sub(point_velocity(P, wq), point_velocity(N, wq)), wn);
    int kind;
    if (swept || d < 0.0) {
        kind = IMP_HIT_COLLISION;
    } else if (d > c->tol) {
        return 0;
    } else if (vn > c->vtol) {
        if (!c->keep_separating) {
            return 0;
        }
        kind = IMP_HIT_SEPARATING;
    } else {
        kind = vn < -c->vtol ? IMP_HIT_IMMINENT : IMP_HIT_CONTACT;
    }
    h->kind = kind;
    h->swept = swept;
    h->point[0] = wq.x, h->point[1] = wq.y;
    h->point_primary[0] = wqp.x, h->point_primary[1] = wqp.y;
    h->normal[0] = wn.x, h->normal[1] = wn.y;
    h->distance = d;
    h->normal_velocity = vn;
    if (c->n < c->cap) {
        c->out[c->n] = *h;
    }
    c->n++;
    return 1;
}

/* ---- edge/edge ----------------------------------------------------------------------------- */

/* convex arc e of P against straight edge l of N */
static void arc_line(ctx *c, const imp_body2d *P, int ei, const imp_edge2d *e, const imp_body2d *N,
                     int li, const imp_edge2d *l, imp_xf2 frame)
{
    double dc = imp_v2_dot(imp_v2_sub(e->c, l->a), l->n);
    if (!(dc > 0.0)) {
        return;  /* the centre must stay outside the line */
    }
    double d = dc - e->r;
    if (d > c->tol) {
        return;
    }
    imp_vec2 u = imp_v2_neg(l->n);
    if (!imp_edge2d_in_span(e, u, SPAN_SLACK)) {
        return;
    }
    imp_vec2 deep = imp_v2_madd(e->c, e->r, u);
    double s = imp_v2_dot(imp_v2_sub(deep, l->a), l->t);
    if (s < 0.0 || s > l->length) {
        return;
    }
    imp_vec2 foot = imp_v2_madd(l->a, s, l->t);
    if (!in_both(c, foot, deep, d)) {
        return;
    }
    imp_hit2d h = blank_hit(P, N, IMP_HIT_EDGE_EDGE);
    h.edge = ei;
    h.normal_edge = li;
    h.curvature = 1.0 / e->r;
    emit(c, P, N, frame, &h, foot, deep, l->n, d, 0);
}

/* convex arcs: e of N, f of P */
static void convex_convex(ctx *c, const imp_body2d *N, int ei, const imp_edge2d *e,
                          const imp_body2d *P, int fi, const imp_edge2d *f, imp_xf2 frame)
{
    imp_vec2 D = imp_v2_sub(f->c, e->c);
    double dist = imp_v2_len(D);
    imp_vec2 u;
    if (dist > 0.0) {
        u = imp_v2_scale(D, 1.0 / dist);
    } else if (c->unlimited) {
        u = imp_v2(1.0, 0.0);  /* concentric: every direction is as deep */
    } else {
        return;
    }
    if (!imp_edge2d_in_span(e, u, SPAN_SLACK) || !imp_edge2d_in_span(f, imp_v2_neg(u), SPAN_SLACK)) {
        return;
    }
    double d = dist - e->r - f->r;
    if (d > c->tol || (!c->unlimited && -d > imp_max(e->depth, f->depth))) {
        return;
    }
    imp_vec2 q = imp_v2_madd(e->c, e->r, u), qp = imp_v2_madd(f->c, -f->r, u);
    /* (myPhysicsLab's CircleCircle has no such check: a ball gone wholly inside a disk in a
       trial step is its edge/edge collision, its estimate the one the search takes) */
    if (!c->corner_overlap && !in_both(c, q, qp, d)) {
        return;
    }
    imp_hit2d h = blank_hit(P, N, IMP_HIT_EDGE_EDGE);
    h.edge = fi;
    h.normal_edge = ei;
    h.curvature = 1.0 / f->r;
    h.normal_curvature = 1.0 / e->r;
    emit(c, P, N, frame, &h, q, qp, u, d, 0);
}

/* concave arc e of N holding convex arc f of P */
static void concave_convex(ctx *c, const imp_body2d *N, int ei, const imp_edge2d *e,
                           const imp_body2d *P, int fi, const imp_edge2d *f, imp_xf2 frame)
{
    if (!(e->r > f->r)) {
        return;
    }
    imp_vec2 D = imp_v2_sub(f->c, e->c);
    double dist = imp_v2_len(D);
    imp_vec2 u = dist > 0.0 ? imp_v2_scale(D, 1.0 / dist)
                            : imp_v2_normalize(imp_v2_sub(imp_edge2d_point_at(e, 0.5), e->c));
    if (!imp_edge2d_in_span(e, u, SPAN_SLACK) || !imp_edge2d_in_span(f, u, SPAN_SLACK)) {
        return;
    }
    double d = e->r - f->r - dist;
    if (d > c->tol || (!c->unlimited && -d > f->depth)) {
        return;
    }
    imp_vec2 q = imp_v2_madd(e->c, e->r, u), qp = imp_v2_madd(f->c, f->r, u);
    if (!in_both(c, q, qp, d)) {
        return;
    }
    imp_hit2d h = blank_hit(P, N, IMP_HIT_EDGE_EDGE);
    h.edge = fi;
    h.normal_edge = ei;
    h.curvature = 1.0 / f->r;
    h.normal_curvature = -1.0 / e->r;
    emit(c, P, N, frame, &h, q, qp, imp_v2_neg(u), d, 0);
}

static void edge_pass(ctx *c, const imp_body2d *A, const imp_poly2d *ga, imp_xf2 xa,
                      const imp_body2d *B, const imp_poly2d *gb, imp_xf2 xb)
{
    imp_xf2 rel = imp_xf2_relative(xa, xb);
    c->ga = ga;
    c->gb = gb;
    c->rel = rel;
    c->tiny = 1e-9 * (ga->radius + gb->radius);
    for (int j = 0; j < gb->nedges; j++) {
        if (gb->edges[j].flags & IMP_EDGE_NO_COLLIDE) {
            continue;
        }
        int bline = gb->edges[j].kind == IMP_EDGE_LINE; /* straight/straight: vertex tests */
        if (bline && ga->narcs == 0) {
            continue;
        }
        imp_edge2d eb = imp_edge2d_transform(&gb->edges[j], rel);
        /* a's edges whose discs may come within tol of eb's (edge tree; in order) */
        double reach = eb.br + c->tol + imp_edge2d_tree_slack(ga, eb.bc, eb.br + c->tol);
        const double box[4] = {eb.bc.x - reach, eb.bc.y - reach, eb.bc.x + reach, eb.bc.y + reach};
        imp_edge2d_iter it;
        imp_edge2d_iter_init(&it, ga);
        int first, last;
        while (imp_edge2d_iter_next(&it, box, &first, &last)) {
            for (int i = first; i < last; i++) {
                const imp_edge2d *ea = &ga->edges[i];
                if ((ea->flags & IMP_EDGE_NO_COLLIDE) || (bline && ea->kind == IMP_EDGE_LINE)) {
                    continue;
                }
                if (imp_v2_dist(ea->bc, eb.bc) > ea->br + eb.br + c->tol) {
                    continue;
                }
                if (ea->kind == IMP_EDGE_ARC && eb.kind == IMP_EDGE_LINE) {
                    if (ea->convex) {
                        arc_line(c, A, i, ea, B, j, &eb, xa);
                    }
                } else if (ea->kind == IMP_EDGE_LINE) {
                    if (eb.convex) {
                        arc_line(c, B, j, &eb, A, i, ea, xa);
                    }
                } else if (ea->convex && eb.convex) {
                    convex_convex(c, A, i, ea, B, j, &eb, xa);
                } else if (!ea->convex && eb.convex) {
                    concave_convex(c, A, i, ea, B, j, &eb, xa);
                } else if (ea->convex && !eb.convex) {
                    concave_convex(c, B, j, &eb, A, i, ea, xa);
                }
            }
        }
    }
}

/* ---- vertex/edge --------------------------------------------------------------------------- */

/* an edge/edge result already stored between edge pe of P and edge ne of N */
static int has_edge_edge(const ctx *c, const imp_body2d *P, int pe1, int pe2, const imp_body2d *N,
                         int ne)
{
    int m = c->n < c->cap ? c->n : c->cap;
    for (int k = 0; k < m; k++) {
        const imp_hit2d *h = &c->out[k];
        if (h->type != IMP_HIT_EDGE_EDGE) {
            continue;
        }
        if (h->body == P->id && h->normal_body == N->id && h->normal_edge == ne &&
            (h->edge == pe1 || h->edge == pe2)) {
            return 1;
        }
        if (h->body == N->id && h->normal_body == P->id && h->edge == ne &&
            (h->normal_edge == pe1 || h->normal_edge == pe2)) {
            return 1;
        }
    }
    return 0;
}

/* the same two corners already paired, seen from the other body */
static int has_vertex_vertex(const ctx *c, const imp_body2d *P, int pv, const imp_body2d *N, int nv)
{
    int m = c->n < c->cap ? c->n : c->cap;
    for (int k = 0; k < m; k++) {
        const imp_hit2d *h = &c->out[k];
        if (h->type == IMP_HIT_VERTEX_VERTEX && h->body == P->id && h->normal_body == N->id &&
            h->vertex == pv && h->normal_vertex == nv) {
            return 1;
        }
    }
    return 0;
}

static int collides(const imp_edge2d *e) { return !(e->flags & IMP_EDGE_NO_COLLIDE); }

/* An edge of the strictly convex straight-edged polygon g whose line p lies beyond by more
   than far, trying edge first (-1: none; *most is then the largest signed distance of p to
   the edges' lines): then p is farther than far from g (so outside it, and no edge is within
   far). */
static int beyond_line(const imp_poly2d *g, imp_vec2 p, double far, int first, double *most)
{
    double m = -INFINITY;
    if (first >= 0) {
        m = imp_v2_dot(imp_v2_sub(p, g->edges[first].a), g->edges[first].n);
        if (m > far) {
            return first;
        }
    }
    /* the loop over the other edges in order (through the edge tree for large g) */
    return imp_edge2d_tree_beyond(g, p, far, first, m, most);
}

/* slack of the corner tests (cosines of unit vectors, about 0.06 degrees): a corner flush
   with a face, tilted by round-off or a solver's drift, bears it; one whose edge runs into
   the face (cosine -1 for aligned boxes) does not */
#define CONE_SLACK IMP_COLLIDE2D_CONE_SLACK
/* a corner bears a face worse than this (the cosine of its edge with the face's normal) when
   its edge runs into the face, as two equal boxes meeting head-on, aligned */
#define UNBORNE 0.5
/* a corner touches a corner (vertex/vertex contact) within this fraction of distance_tol */
#define VERTEX_VERTEX_REACH 0.6
/* corners closer than this fraction of distance_tol coincide (touch_tests) */
#define CORNER_TIE 1e-3

/* A corner of g (its vertex v, rel: g's centred frame in the frame of the test) and, once
   asked for by corner_dirs, the two directions along g's boundary leaving it, turned by rel
   (computed only for the few corners whose contact feature is in doubt). */
typedef struct corner {
    const imp_poly2d *g;
    const imp_vertex2d *v;
    imp_xf2 rel;
    int have;
    imp_vec2 dirs[2];
} corner;

static const imp_vec2 *corner_dirs(corner *k)
{
    if (!k->have) {
        k->dirs[0] = imp_xf2_rot(k->rel, imp_edge2d_tangent_at(&k->g->edges[k->v->edge_out], 0.0));
        k->dirs[1] = imp_xf2_rot(k->rel,
                                 imp_v2_neg(imp_edge2d_tangent_at(&k->g->edges[k->v->edge_in], 1.0)));
        k->have = 1;
    }
    return k->dirs;
}

/* How well a corner bears a contact normal n: the smaller cosine of its two directions
   (corner_dirs) with side * n. >= 0 when the body's material near the corner lies on the side
   side * n of a line through it. A contact with normal n (out of N toward P) at P's corner
   needs side +1 for P's corner (and -1 for a corner of N): n in the intersection of N's
   normal cone and the opposite of P's, where the contact normal of two touching convex
   corners lies. */
static double bearing(corner *k, imp_vec2 n, double side)
{
    const imp_vec2 *dirs = corner_dirs(k);
    return fmin(side * imp_v2_dot(dirs[0], n), side * imp_v2_dot(dirs[1], n));
}

static int bears(corner *k, imp_vec2 n, double side)
{
    return bearing(k, n, side) >= -CONE_SLACK;
}

/* Whether P's corner k, at distance d (>= -margin) from a face of N with normal n, is the
   part of P that meets that face: not when one of its edges runs into the face's side of
   the line (beyond CONE_SLACK) far enough to cross the line before its own end (it dips by
   more than d over its length: a box overhanging a block's end at the height of its top has
   its bottom edge running into the block's side face, 0.001 away, right at the corner). A
   tilted box landing on a face near the face's end keeps its higher corner: its bottom edge
   dips by less than that corner's gap. */
static int meets(corner *k, imp_vec2 n, double d)
{
    const imp_vec2 *dirs = corner_dirs(k);
    const double len[2] = {k->g->edges[k->v->edge_out].length, k->g->edges[k->v->edge_in].length};
    for (int j = 0; j < 2; j++) {
        double c = imp_v2_dot(dirs[j], n);
        if (c < -CONE_SLACK && -c * len[j] > d) {
            return 0;
        }
    }
    return 1;
}

/* Static tests of P's convex corner i (at p, N's centred frame; outside N or inside it by no
   more than margin) against N's edges within distance_tol:
   - an edge whose closest point to p is inside it: a contact at the foot, distance the
     signed distance to the edge's line or circle (round-off within the margin is 0);
   - the corner on an end point of an edge (within CORNER_TIE distance_tol: corner on corner,
     or on the joint of two edges): the end point's two edges both reach it, so the tie is
     decided by the corners' shapes, not by the tiny offset between them: an edge counts
     when P's material at the corner lies outside its line (meets). Equal boxes exactly
     aligned thus meet by the faces that are flush (one contact per coinciding corner pair,
     its mirror from the other body merged by drop_duplicates), never by the side faces that
     merely continue each other;
   - else a vertex/vertex contact with the nearest corner of N (the normal along the line of
     the corners), when that line is a normal both corners can bear.
   O(E) per corner. */
static void touch_tests(ctx *c, const imp_body2d *N, const imp_poly2d *gn, imp_xf2 xn,
                        const imp_body2d *P, int i, imp_vec2 p, corner *pc, double margin)
{
    double reach_tol = c->tol > margin ? c->tol : margin;
    /* corners closer than this coincide: the direction between them (round-off, or the
       drift of a resting stack under PGS) does not decide the contact normal */
    double rho = c->tol * CORNER_TIE > margin ? c->tol * CORNER_TIE : margin, r2 = rho * rho;
    int near_edge = 0, bv = -1;
    double bvd = INFINITY;
    imp_vec2 bvq = p;
    /* the edges whose discs may come within reach_tol of p (edge tree; in order) */
    double far = reach_tol + imp_edge2d_tree_slack(gn, p, reach_tol);
    const double box[4] = {p.x - far, p.y - far, p.x + far, p.y + far};
    imp_edge2d_iter it;
    imp_edge2d_iter_init(&it, gn);
    int first, last;
    while (imp_edge2d_iter_next(&it, box, &first, &last)) {
        for (int k = first; k < last; k++) {
            const imp_edge2d *e = &gn->edges[k];
            /* bounding-circle pruning on squared lengths (no hypot in the hot loop) */
            double reach = e->br + reach_tol;
            if (!collides(e) || imp_v2_len2(imp_v2_sub(p, e->bc)) > reach * reach) {
                continue;
            }
            imp_vec2 q;
            int interior;
            double dist = imp_edge2d_closest_within(e, p, reach_tol, &q, &interior);
            if (dist > reach_tol) {
                continue;
            }
            int at_a = dist <= rho && imp_v2_len2(imp_v2_sub(p, e->a)) <= r2;
            if (at_a || (dist <= rho && imp_v2_len2(imp_v2_sub(p, e->b)) <= r2)) {
                imp_vec2 end = at_a ? e->a : e->b;
                imp_vec2 n = imp_edge2d_normal_at(e, end);
                near_edge = 1;  /* no vertex/vertex contact for a corner on a corner */
                double d = imp_edge2d_support_distance(e, p);
                if (meets(pc, n, d > 0.0 ? d : 0.0)) {
                    imp_hit2d h = blank_hit(P, N, IMP_HIT_VERTEX_EDGE);
                    h.vertex = i;
                    h.normal_edge = k;
                    h.normal_curvature = imp_edge2d_curvature(e);
                    emit(c, P, N, xn, &h, end, p, n, d > 0.0 || c->corner_overlap ? d : 0.0, 0);
                }
                continue;
            }
            if (dist > c->tol) {
                continue;
            }
            if (interior) {
                double d = imp_edge2d_support_distance(e, p);
                imp_vec2 n = imp_edge2d_normal_at(e, q);
                /* touching (within the margin), or near the edge's end (within distance_tol of
                   N's corner, where N's two faces compete): only a face the corner meets. A
                   corner on the line of a face its own edge runs into (aligned boxes
                   overlapping), or hanging beside N's side face at the height of N's top (a box
                   overhanging a block's end), does not meet that face. */
                double t2 = c->tol * c->tol;
                int doubt = d <= margin || imp_v2_len2(imp_v2_sub(q, e->a)) <= t2 ||
                            imp_v2_len2(imp_v2_sub(q, e->b)) <= t2;
                if (d >= -margin && (!doubt || c->corner_overlap || meets(pc, n, d > 0.0 ? d : 0.0))) {
                    near_edge = 1;
                    imp_hit2d h = blank_hit(P, N, IMP_HIT_VERTEX_EDGE);
                    h.vertex = i;
                    h.normal_edge = k;
                    h.normal_curvature = imp_edge2d_curvature(e);
                    emit(c, P, N, xn, &h, q, p, n, d > 0.0 ? d : 0.0, 0);
                }
            } else {
                int vi = (q.x == e->a.x && q.y == e->a.y) ? e->v0 : e->v1;
                if (gn->vertices[vi].corner && dist < bvd) {
                    bvd = dist;
                    bv = vi;
                    bvq = q;
                }
            }
        }
    }
    /* myPhysicsLab's rule: corners touch corner to corner only within 0.6 distance_tol; two
       corners farther apart pass each other (a shuttle's end corner sliding past a groove's
       corner with 0.007 of clearance, 0.009 apart on the diagonal: a contact there would
       stop it dead) or meet as a corner on an edge once closer */
    if (near_edge || bv < 0 || !(bvd > margin) || bvd > VERTEX_VERTEX_REACH * c->tol
        || has_vertex_vertex(c, N, bv, P, i)) {
        return;
    }
    imp_vec2 n = imp_v2_scale(imp_v2_sub(p, bvq), 1.0 / bvd);
    /* the line of the corners must be a normal both can bear (P on its far side, N on its
       near side); otherwise one corner faces an edge of the other body, whose vertex/edge
       contact (found from that body) is the touching feature pair */
    corner nc = {gn, &gn->vertices[bv], imp_xf2_identity(), 0, {{0, 0}, {0, 0}}};
    if (!bears(pc, n, 1.0) || !bears(&nc, n, -1.0)) {
        return;
    }
    imp_hit2d h = blank_hit(P, N, IMP_HIT_VERTEX_VERTEX);
    h.vertex = i;
    h.normal_vertex = bv;
    h.cone_margin = fmin(bearing(pc, n, 1.0), bearing(&nc, n, -1.0));
    emit(c, P, N, xn, &h, bvq, p, n, bvd, 0);
}

/* Length of the part of the segment a -> b inside the strictly convex straight-edged polygon
   g (clipping by every edge's line, Cyrus and Beck 1978); *ends_inside = 1 when b is inside
   (closed). O(E). */
static double chord_inside(const imp_poly2d *g, imp_vec2 a, imp_vec2 b, int *ends_inside)
{
    *ends_inside = 0;
    imp_vec2 D = imp_v2_sub(b, a);
    double lo = 0.0, hi = 1.0;
    if (g->tree != NULL) {
        /* the loop below stops early only when the answer is 0 (lo > hi, or a parallel edge
           outside), where *ends_inside does not matter (a chord within the margin grazes);
           otherwise lo and hi are the greatest and least over every edge: the edge tree
           finds those values without the edges that cannot change them */
        if (imp_edge2d_tree_clip(g, a, b, &lo, &hi)) {
            return 0.0;
        }
        *ends_inside = hi >= 1.0 && lo <= 1.0;
        return hi > lo ? (hi - lo) * imp_v2_len(D) : 0.0;
    }
    for (int k = 0; k < g->nedges && lo <= hi; k++) {
        const imp_edge2d *e = &g->edges[k];
        double f = imp_v2_dot(imp_v2_sub(a, e->a), e->n), dn = imp_v2_dot(D, e->n);
        if (dn == 0.0) {
            if (f > 0.0) {
                return 0.0;
            }
        } else if (dn < 0.0) {
            lo = fmax(lo, -f / dn);
        } else {
            hi = fmin(hi, -f / dn);
        }
    }
    *ends_inside = hi >= 1.0 && lo <= 1.0;
    return hi > lo ? (hi - lo) * imp_v2_len(D) : 0.0;
}

/* Vertices of P against edges of N, in N's centred frame. Returns 1 when, statically, every
   vertex of a straight-edged P lies beyond one edge line of a convex straight-edged N by more
   than distance_tol: P (inside the hull of its vertices) is then that far from N, and the
   pass with the roles swapped can find nothing either (a separating axis). */
static int vertex_pass(ctx *c, const imp_body2d *N, const imp_poly2d *gn, const imp_body2d_xf *tn,
                       const imp_body2d *P, const imp_poly2d *gp, const imp_body2d_xf *tp,
                       int statics_only)
{
    imp_xf2 xn = tn->now;
    imp_xf2 rel = imp_xf2_relative(xn, tp->now);
    int swept = !statics_only && (N->has_prev || P->has_prev);
    imp_xf2 rel_old = rel;
    if (swept) {
        rel_old = imp_xf2_relative(tn->prev, tp->prev);
    }
    /* every point of P stays within its radius of the segment between its old and new centre */
    if (imp_edge2d_beyond_segment(imp_v2(0, 0), rel_old.p, rel.p,
                                  gn->radius + gp->radius + c->tol) &&
        !c->unlimited) {
        return 0;
    }
    /* a quick exact rejection of the static tests for strictly convex straight-edged N: a
       vertex beyond an edge's line by more than tol (plus a margin far above rounding) meets
       nothing, as the containment test and the edge loop below would find (O(E) dot products
       instead) */
    int lines = gn->lines_convex && !c->unlimited;
    double margin = 1e-9 * (gn->radius + c->tol), far = c->tol + margin;
    int separated = lines && !swept && gp->narcs == 0 && gp->nvertices > 0, sep_line = -1;
    for (int i = 0; i < gp->nvertices; i++) {
        const imp_vertex2d *v = &gp->vertices[i];
        imp_vec2 p = imp_xf2_apply(rel, v->p);
        int checked = separated, beyond = -1;
        double most = 0.0;
        if (separated) {  /* every vertex, also those skipped below */
            beyond = beyond_line(gn, p, far, sep_line, &most);
            if (beyond < 0 || (sep_line >= 0 && beyond != sep_line)) {
                separated = 0;
            }
            sep_line = beyond;
        }
        if (!collides(&gp->edges[v->edge_in]) && !collides(&gp->edges[v->edge_out])) {
            continue;
        }
        int yields = v->decorated || !v->corner;
        if (swept) {
            imp_vec2 po = imp_xf2_apply(rel_old, v->p);
            if ((po.x != p.x || po.y != p.y) &&
                !imp_edge2d_beyond_segment(imp_v2(0, 0), po, p, gn->radius)) {
                double best_s = 2.0;
                int best_e = -1;
                imp_vec2 best_q = p;
                /* the edges whose discs may meet the path's box (edge tree; in order) */
                double sl = imp_edge2d_tree_slack(gn, p, fabs(po.x) + fabs(po.y));
                const double box[4] = {fmin(po.x, p.x) - sl, fmin(po.y, p.y) - sl,
                                       fmax(po.x, p.x) + sl, fmax(po.y, p.y) + sl};
                imp_edge2d_iter it;
                imp_edge2d_iter_init(&it, gn);
                int first, last;
                while (imp_edge2d_iter_next(&it, box, &first, &last)) {
                    for (int k = first; k < last; k++) {
                        const imp_edge2d *e = &gn->edges[k];
                        if (!collides(e) ||
                            imp_edge2d_beyond_segment(e->bc, po, p, e->br * (1.0 + 1e-12))) {
                            continue;
                        }
                        double s;
                        imp_vec2 q;
                        if (imp_edge2d_segment_hit(e, po, p, &s, &q) && s < best_s) {
                            best_s = s;
                            best_e = k;
                            best_q = q;
                        }
                    }
                }
                if (best_e >= 0) {
                    /* (myPhysicsLab's mid-arc corners do not yield to an edge/edge record:
                       its addCollision keeps the deeper of similar ones, engine2d_similar_mpl.c) */
                    if (yields && !c->corner_overlap
                        && has_edge_edge(c, P, v->edge_in, v->edge_out, N, best_e)) {
                        continue;
                    }
                    const imp_edge2d *e = &gn->edges[best_e];
                    double d = imp_edge2d_support_distance(e, p);
                    /* myPhysicsLab's makeCollision: the distance to the edge's line (circle)
                       where the corner is now, also when it went through and out (a disk's
                       corner across a small ball): then no collision, its static tests */
                    int mpl_out = c->corner_overlap && d >= 0.0;
                    if (d >= 0.0 && !mpl_out) {
                        d = -imp_v2_dist(p, best_q);  /* went through: depth along its path */
                    }
                    /* a corner whose path ends on the surface (within the margin: round-off
                       of a vertex resting on it) touches it, and a path that runs inside a
                       convex N for no more than the margin (a corner leaving a coinciding
                       corner along a side line, tilted by round-off) grazes it: the static
                       tests below decide which edge, and by its velocity whether it is a
                       contact or imminent. A corner that entered a convex N through one of
                       N's corners (within CORNER_TIE distance_tol) and stays inside, or only
                       cut through that corner's tip, is also left to the static tests: which
                       of the two faces it crossed first is a tie of round-off, the face it
                       penetrates is decided by its shape (or the other body's corner inside
                       it is the penetrating feature). */
                    int graze = 0, ends_in = 0;
                    if (gn->lines_convex && (yields || d < -margin)) {
                        double rho = fmax(c->tol * CORNER_TIE, margin), r2 = rho * rho;
                        double chord = chord_inside(gn, po, p, &ends_in);
                        graze = chord <= margin ||
                                (!yields && (ends_in || chord <= 2.0 * rho) &&
                                 (imp_v2_len2(imp_v2_sub(best_q, e->a)) <= r2 ||
                                  imp_v2_len2(imp_v2_sub(best_q, e->b)) <= r2));
                    }
                    if ((yields || d < -margin) && !graze) {
                        imp_hit2d h = blank_hit(P, N, IMP_HIT_VERTEX_EDGE);
                        h.vertex = i;
                        h.normal_edge = best_e;
                        h.decorated = v->decorated;
                        h.normal_curvature = imp_edge2d_curvature(e);
                        emit(c, P, N, xn, &h, best_q, p, imp_edge2d_normal_at(e, best_q), d, !mpl_out);
                        continue;
                    }
                }
            }
        }
        if (yields || imp_v2_len2(p) > (gn->radius + c->tol) * (gn->radius + c->tol) ||
            (lines && (checked ? beyond : beyond_line(gn, p, far, -1, &most)) >= 0)) {
            continue;
        }
        /* strictly convex N: outside an edge's line by more than the margin (far above
           rounding) is outside, as the crossing-number test finds; a corner within the
           margin of the boundary is tested as inside (closed) first */
        int inside = lines ? most <= margin : imp_poly2d_contains_centred(gn, p);
        corner pc = {gp, v, rel, 0, {{0, 0}, {0, 0}}};
        if (inside) {
            /* the penetrated face: the nearest edge, unless the corner does not bear it and
               another face no deeper than the nearest by distance_tol (depth = -signed
               distance to the edge's line or circle, the foot on the edge) is one it bears:
               then the least deep of those. Within the contact band the depths do not decide
               between two faces meeting at a corner of N, the corner's shape does: a corner
               of a box sunk into an aligned box lies on (or a little nearer to) the other's
               side face, but penetrates its top face, the face its own edges run along. */
            double best = INFINITY;
            imp_vec2 bq = p;
            int be = imp_edge2d_tree_nearest(gn, p, &best, &bq);
            double score = be >= 0 && best <= c->tol
                               ? bearing(&pc, imp_edge2d_normal_at(&gn->edges[be], bq), 1.0)
                               : 0.0;
            if (score < -CONE_SLACK) {
                /* the least deep face it bears, else the one it bears best; when no face
                   within distance_tol of the nearest is one it bears, the least deep face
                   it bears at any depth: a box's corner on the line of another's top face
                   with its material below that line (equal boxes meeting head-on, aligned,
                   one's corners running along the other's top and bottom lines) is not
                   touching the top face but sunk through the side face */
                double limit = best + c->tol, found = INFINITY, top = score;
                int bk = -1, sk = -1;
                imp_vec2 bkq = p, skq = p;
                double sdepth = 0.0;
                /* (the second pass only for a corner whose edge runs into the nearest face,
                   bearing it worse than UNBORNE: a corner resting on a face tilted a little
                   beyond CONE_SLACK, as in a settling pyramid, keeps that face) */
                int passes = score < -UNBORNE ? 2 : 1;
                for (int pass = 0; pass < passes && bk < 0 && sk < 0; pass++) {
                    /* strictly convex straight-edged N: every depth is at least -most (the
                       same products as most's), so the faces that pass the tests below lie
                       within max(limit, most, 0) + margin of p: the edge tree skips the
                       others (in order); else every edge */
                    double box[4] = {-INFINITY, -INFINITY, INFINITY, INFINITY};
                    if (pass == 1) {
                        limit = INFINITY;
                    } else if (lines) {
                        double reach = fmax(fmax(limit, most), 0.0) + margin;
                        reach += 2.0 * imp_edge2d_tree_slack(gn, p, reach);
                        box[0] = p.x - reach, box[1] = p.y - reach;
                        box[2] = p.x + reach, box[3] = p.y + reach;
                    }
                    imp_edge2d_iter it;
                    imp_edge2d_iter_init(&it, gn);
                    int first, last;
                    while (imp_edge2d_iter_next(&it, box, &first, &last)) {
                        for (int k = first; k < last; k++) {
                            const imp_edge2d *e = &gn->edges[k];
                            if (k == be || !collides(e)) {
                                continue;
                            }
                            imp_vec2 q;
                            int interior;
                            double d = imp_edge2d_closest(e, p, &q, &interior);
                            double depth = -imp_edge2d_support_distance(e, p);
                            if (depth > limit || d - fabs(depth) > margin) {
                                continue;
                            }
                            double sc = bearing(&pc, imp_edge2d_normal_at(e, q), 1.0);
                            if (sc >= -CONE_SLACK && depth < found) {
                                found = depth;
                                bk = k;
                                bkq = q;
                            }
                            if (pass == 0 && sc > top) {
                                top = sc;
                                sk = k;
                                skq = q;
                                sdepth = depth;
                            }
                        }
                    }
                }
                if (bk < 0 && sk >= 0) {
                    bk = sk;
                    bkq = skq;
                    found = sdepth;
                }
                if (bk >= 0) {
                    be = bk;
                    bq = bkq;
                    best = found > 0.0 ? found : 0.0;
                }
            }
            if (be < 0) {
                continue;
            }
            if (best > margin) {
                imp_hit2d h = blank_hit(P, N, IMP_HIT_VERTEX_EDGE);
                h.vertex = i;
                h.normal_edge = be;
                h.normal_curvature = imp_edge2d_curvature(&gn->edges[be]);
                emit(c, P, N, xn, &h, bq, p, imp_edge2d_normal_at(&gn->edges[be], bq), -best, 0);
                continue;
            }
            /* within the margin of the boundary: touching */
        }
        touch_tests(c, N, gn, xn, P, i, p, &pc, margin);
    }
    return separated;
}

/* ---- duplicates ----------------------------------------------------------------------------- */

static int vertex_based(const imp_hit2d *h)
{
    return !h->swept && (h->type == IMP_HIT_VERTEX_EDGE || h->type == IMP_HIT_VERTEX_VERTEX);
}

/* Two static vertex results describing one touching point: seen from each body (two faces
   meeting end to end), or a vertex/vertex result next to a vertex/edge one; or two swept
   results of one crossing seen from each body. Same rule as
   myPhysicsLab's "similar collision" test for straight edges: impact points within
   distance_tol, normals (oriented alike) within |cos| >= 0.9. */
static int duplicates(const imp_hit2d *a, const imp_hit2d *b, double tol)
{
    int same = a->body == b->body && a->normal_body == b->normal_body;
    int mirror = a->body == b->normal_body && a->normal_body == b->body;
    if (a->swept && b->swept && a->type == IMP_HIT_VERTEX_EDGE && b->type == IMP_HIT_VERTEX_EDGE) {
        /* one crossing seen from both bodies (a corner through a coinciding corner): the same
           point with opposite normals; two rows of one constraint would make the LCP
           singular */
        same = 0;
    } else if (!vertex_based(a) || !vertex_based(b)) {
        return 0;
    }
    if (!same && !mirror) {
        return 0;
    }
    if (same && a->type == IMP_HIT_VERTEX_EDGE && b->type == IMP_HIT_VERTEX_EDGE &&
        a->vertex != b->vertex) {
        return 0;  /* two corners of one body: distinct contacts (one corner on the smooth
                      joint of two edges meets both with one normal: one contact) */
    }
    double dx = a->point[0] - b->point[0], dy = a->point[1] - b->point[1];
    double dot = a->normal[0] * b->normal[0] + a->normal[1] * b->normal[1];
    return dx * dx + dy * dy <= tol * tol && (mirror ? -dot : dot) >= 0.9;
}

/* Many results (large polygons overlapping): the kept results' impact points in a hash grid
   of cells a little wider than tol, so that a result meets only the kept results near it
   (duplicates are within tol: in the 3 x 3 cells about its own); the first duplicate in the
   kept order is the one with the least position among those, as in the plain loop below.
   -1 (nothing changed) when the grid cannot be allocated or the coordinates are too large
   for cell numbers. */
enum { DEDUP_GRID_MIN = 64 };

typedef struct dedup_cell {
    int64_t x, y;
    int head; /* first kept position in the cell, -1: empty slot */
} dedup_cell;

static int64_t dedup_coord(double v, double inv) { return (int64_t)floor(v * inv); }

static dedup_cell *dedup_slot(dedup_cell *t, size_t mask, int64_t x, int64_t y)
{
    uint64_t k = (uint64_t)x * 0x9E3779B97F4A7C15ULL ^ (uint64_t)y * 0xC2B2AE3D27D4EB4FULL;
    size_t i = (size_t)(k ^ (k >> 29)) & mask;
    while (t[i].head != -1 && (t[i].x != x || t[i].y != y)) {
        i = (i + 1) & mask;
    }
    return &t[i];
}

static int drop_duplicates_grid(imp_hit2d *h, int n, double tol)
{
    double inv = 1.0 / (tol * (1.0 + 1e-6));
    for (int i = 0; i < n; i++) {
        if (!(fabs(h[i].point[0] * inv) < 1e15 && fabs(h[i].point[1] * inv) < 1e15)) {
            return -1;
        }
    }
    size_t size = 1;
    while (size < 2 * (size_t)n) {
        size *= 2;
    }
    dedup_cell *t = malloc(size * sizeof *t);
    int *next = malloc((size_t)n * sizeof *next);
    if (t == NULL || next == NULL) {
        free(t);
        free(next);
        return -1;
    }
    for (size_t k = 0; k < size; k++) {
        t[k].head = -1;
    }
    int m = 0;
    for (int i = 0; i < n; i++) {
        int64_t cx = dedup_coord(h[i].point[0], inv), cy = dedup_coord(h[i].point[1], inv);
        int found = -1;
        for (int64_t dx = -1; dx <= 1; dx++) {
            for (int64_t dy = -1; dy <= 1; dy++) {
                for (int j = dedup_slot(t, size - 1, cx + dx, cy + dy)->head; j >= 0; j = next[j]) {
                    if ((found < 0 || j < found) && duplicates(&h[j], &h[i], tol)) {
                        found = j;
                    }
                }
            }
        }
        if (found < 0) {
            h[m] = h[i];
            dedup_cell *c = dedup_slot(t, size - 1, cx, cy);
            if (c->head == -1) {
                c->x = cx, c->y = cy;
                c->head = -2;
            }
            next[m] = c->head == -2 ? -1 : c->head;
            c->head = m++;
            continue;
        }
        if (h[found].type == IMP_HIT_VERTEX_VERTEX && h[i].type == IMP_HIT_VERTEX_EDGE) {
            /* the vertex/edge result replaces it: move it to its new cell */
            dedup_cell *c = dedup_slot(t, size - 1, dedup_coord(h[found].point[0], inv),
                                       dedup_coord(h[found].point[1], inv));
            int *link = &c->head;
            while (*link != found) {
                link = &next[*link];
            }
            *link = next[found];
            if (c->head == -1) {
                c->head = -2; /* emptied: the slot stays taken (probe chains go on through it) */
            }
            h[found] = h[i];
            c = dedup_slot(t, size - 1, cx, cy);
            if (c->head == -1) {
                c->x = cx, c->y = cy;
                c->head = -2;
            }
            next[found] = c->head == -2 ? -1 : c->head;
            c->head = found;
        }
    }
    free(t);
    free(next);
    return m;
}

/* Drops duplicates in place, keeping vertex/edge over vertex/vertex, else the first found.
   O(m^2) in the results of the pair (a handful); through a hash grid (drop_duplicates_grid,
   the same answer) for more than DEDUP_GRID_MIN. Returns the new count. */
static int drop_duplicates(imp_hit2d *h, int n, double tol)
{
    if (n > DEDUP_GRID_MIN) {
        int m = drop_duplicates_grid(h, n, tol);
        if (m >= 0) {
            return m;
        }
    }
    int m = 0;
    for (int i = 0; i < n; i++) {
        int keep = 1;
        for (int j = 0; j < m; j++) {
            if (!duplicates(&h[j], &h[i], tol)) {
                continue;
            }
            if (h[j].type == IMP_HIT_VERTEX_VERTEX && h[i].type == IMP_HIT_VERTEX_EDGE) {
                h[j] = h[i];  /* the vertex/edge result replaces it */
            }
            keep = 0;
            break;
        }
        if (keep) {
            h[m++] = h[i];
        }
    }
    return m;
}

/* myPhysicsLab's nearness of two contact points on edges of radii r1, r2 (signed: < 0 concave,
   0 for a straight edge here): points closer than it describe one contact. Straight against
   straight (or against a concave arc): tol; otherwise 2 r sqrt(2 tol / r) with r the smaller
   convex radius, else the concave one (the distance along the curve at which the gap between
   them reaches tol). */
static double nearness(double k1, double k2, double tol)
{
    double r;
    if (k1 == 0.0) {
        r = k2 > 0.0 ? 1.0 / k2 : 0.0;
    } else if (k2 == 0.0) {
        r = k1 > 0.0 ? 1.0 / k1 : 0.0;
    } else if (k1 > 0.0 && k2 > 0.0) {
        r = 1.0 / (k1 > k2 ? k1 : k2);
    } else {
        r = -1.0 / (k1 < 0.0 ? k1 : k2);
    }
    return r > 0.0 ? 2.0 * r * sqrt(2.0 * tol / r) : tol;
}

/* Whether edge (body id, edge index) is one of the edges of vertex result v: its vertex's two
   edges on its primary body, or its normal edge on its normal body. */
static int vertex_has_edge(const imp_hit2d *v, const imp_poly2d *pv, int body, int edge)
{
    if (body == v->normal_body && edge == v->normal_edge) {
        return 1;
    }
    if (body != v->body || v->vertex < 0 || v->vertex >= pv->nvertices) {
        return 0;
    }
    const imp_vertex2d *x = &pv->vertices[v->vertex];
    return edge == x->edge_in || edge == x->edge_out;
}

/* An edge/edge result and a static vertex/edge result of the same two bodies describing one
   contact, by myPhysicsLab's rule (EdgeEdgeCollision.similarTo): both edges of the edge
   result belong to the vertex result (the vertex's own edges or its normal edge), the points
   are within nearness of each other and the normals within |cos| >= 0.9. A convex arc resting
   on a face near the face's end then has one contact, not a second one at the corner whose
   normal differs (its force would do work). */
static int edge_vertex_similar(const imp_hit2d *e, const imp_hit2d *v, const imp_body2d *a,
                               const imp_poly2d *ga, const imp_poly2d *gb, double tol)
{
    if (e->type != IMP_HIT_EDGE_EDGE || v->type != IMP_HIT_VERTEX_EDGE || v->swept || v->decorated) {
        return 0;
    }
    if (!((e->body == v->body && e->normal_body == v->normal_body)
          || (e->body == v->normal_body && e->normal_body == v->body))) {
        return 0;
    }
    const imp_poly2d *pv = v->body == a->id ? ga : gb;
    if (!vertex_has_edge(v, pv, e->body, e->edge) || !vertex_has_edge(v, pv, e->normal_body, e->normal_edge)) {
        return 0;
    }
    double near = nearness(e->curvature, e->normal_curvature, tol);
    double dx = e->point[0] - v->point[0], dy = e->point[1] - v->point[1];
    double dot = e->normal[0] * v->normal[0] + e->normal[1] * v->normal[1];
    return dx * dx + dy * dy <= near * near && fabs(dot) >= 0.9;
}

/* Drops, of each similar edge/edge and vertex/edge pair, the one farther apart (the greater
   distance; the edge result on a tie). Returns the new count. O(m^2) in the pair's results,
   run only when both kinds are present. */
static int drop_similar_edge_vertex(imp_hit2d *h, int n, const imp_body2d *a, const imp_poly2d *ga,
                                    const imp_poly2d *gb, double tol)
{
    int edges = 0;
    for (int i = 0; i < n; i++) {
        edges += h[i].type == IMP_HIT_EDGE_EDGE;
    }
    if (edges == 0 || edges == n) {
        return n;
    }
    int m = 0;
    for (int i = 0; i < n; i++) {
        int keep = 1;
        for (int j = 0; j < n && keep; j++) {
            if (j == i) {
                continue;
            }
            const imp_hit2d *e = h[i].type == IMP_HIT_EDGE_EDGE ? &h[i] : &h[j];
            const imp_hit2d *v = e == &h[i] ? &h[j] : &h[i];
            if (edge_vertex_similar(e, v, a, ga, gb, tol)) {
                /* h[i] goes when it is the farther of the two (the vertex result on a tie) */
                keep = h[i].distance < h[j].distance
                       || (h[i].distance == h[j].distance && h[i].type == IMP_HIT_EDGE_EDGE);
            }
        }
        if (keep) {
            h[m++] = h[i];
        }
    }
    return m;
}

int imp_collide2d_prepare(const imp_body2d *b, imp_body2d_xf *x)
{
    x->poly = imp_shape2d_poly(b->shape);
    x->valid = x->poly != NULL;
    for (int k = 0; k < 3; k++) {
        if (!isfinite(b->pose[k]) || !isfinite(b->velocity[k]) ||
            (b->has_prev && !isfinite(b->prev_pose[k]))) {
            x->valid = 0;
        }
    }
    x->now = imp_xf2_from_pose(b->pose);
    x->prev = b->has_prev ? imp_xf2_from_pose(b->prev_pose) : x->now;
    x->clip = -1;
    x->nv = 0;
    return x->valid ? 0 : -1;
}

int imp_collide2d_detect(const imp_body2d *a, const imp_body2d *b, const imp_detect2d_params *p,
                         imp_hit2d *out, int capacity)
{
    imp_body2d_xf xa, xb;
    if (imp_collide2d_prepare(a, &xa) != 0 || imp_collide2d_prepare(b, &xb) != 0) {
        return -1;
    }
    return imp_collide2d_detect_xf(a, &xa, b, &xb, p, out, capacity);
}

int imp_collide2d_detect_xf(const imp_body2d *a, const imp_body2d_xf *ta, const imp_body2d *b,
                            const imp_body2d_xf *tb, const imp_detect2d_params *p, imp_hit2d *out,
                            int capacity)
{
    if (!ta->valid || !tb->valid || p == NULL || !(p->distance_tol > 0.0) ||
        !(p->velocity_tol >= 0.0) || capacity < 0 || (capacity > 0 && out == NULL)) {
        return -1;
    }
    const imp_poly2d *ga = ta->poly, *gb = tb->poly;
    ctx c = {.tol = p->distance_tol, .vtol = p->velocity_tol,
             .keep_separating = p->keep_separating, .corner_overlap = p->corner_overlap,
             .out = out, .cap = capacity};
    /* bounding circles over the step (the centre of b relative to a, old and new) */
    imp_vec2 cb = imp_xf2_relative(ta->now, tb->now).p, cbo = cb;
    if (a->has_prev || b->has_prev) {
        cbo = imp_xf2_relative(ta->prev, tb->prev).p;
    }
    if (imp_edge2d_beyond_segment(imp_v2(0, 0), cbo, cb, ga->radius + gb->radius + c.tol)) {
        return 0;
    }
    if (ga->narcs > 0 || gb->narcs > 0) {
        edge_pass(&c, a, ga, ta->now, b, gb, tb->now);
    }
    if (!vertex_pass(&c, a, ga, ta, b, gb, tb, 0)) {
        vertex_pass(&c, b, gb, tb, a, ga, ta, 0);
    }
    if (c.n <= c.cap) {
        c.n = drop_duplicates(out, c.n, c.tol);
        c.n = drop_similar_edge_vertex(out, c.n, a, ga, gb, c.tol);
    }
    return c.n;
}

int imp_collide2d_penetrations(const imp_shape *a, const double *pose_a, const imp_shape *b,
                               const double *pose_b, imp_hit2d *out, int capacity)
{
    const imp_poly2d *ga = imp_shape2d_poly(a), *gb = imp_shape2d_poly(b);
    if (ga == NULL || gb == NULL || capacity < 0 || (capacity > 0 && out == NULL)) {
        return -1;
    }
    for (int k = 0; k < 3; k++) {
        if (!isfinite(pose_a[k]) || !isfinite(pose_b[k])) {
            return -1;
        }
    }
    imp_body2d A = {a, 0, {pose_a[0], pose_a[1], pose_a[2]}, {0, 0, 0}, 0, {0, 0, 0}};
    imp_body2d B = {b, 1, {pose_b[0], pose_b[1], pose_b[2]}, {0, 0, 0}, 0, {0, 0, 0}};
    /* tolerance 0: only touching or penetrating features; no depth limits */
    ctx c = {.tol = 0.0, .vtol = INFINITY, .out = out, .cap = capacity, .unlimited = 1};
    imp_body2d_xf xa, xb;
    imp_collide2d_prepare(&A, &xa);
    imp_collide2d_prepare(&B, &xb);
    edge_pass(&c, &A, ga, xa.now, &B, gb, xb.now);
    vertex_pass(&c, &A, ga, &xa, &B, gb, &xb, 1);
    vertex_pass(&c, &B, gb, &xb, &A, ga, &xa, 1);
    return c.n;
}
