/* polygon2d.c: building and validating polygons with straight and circular edges; the shape
   class shared by every 2D shape (bounds, containment, body <-> world). */
#include "polygon2d.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collide2d_tree.h"
#include "edge2d.h"
#include "mass2d.h"
#include "scalar.h"
#include "xform2d.h"

#define TWO_PI (2.0 * IMP_PI)

static void poly_destroy(void *data)
{
    imp_poly2d *g = data;
    if (g != NULL) {
        free(g->edges);
        free(g->vertices);
        free(g->path_start);
        free(g->tree);
        free(g);
    }
}

static void poly_bounds(const imp_shape *s, const double *pose, double lo[3], double hi[3]);

static const imp_shape_class polygon_class = {"polygon", 2, poly_destroy, poly_bounds};
static const imp_shape_class circle_class = {"circle", 2, poly_destroy, poly_bounds};
static const imp_shape_class rectangle_class = {"rectangle", 2, poly_destroy, poly_bounds};

const imp_poly2d *imp_shape2d_poly(const imp_shape *s)
{
    if (s == NULL || (s->cls != &polygon_class && s->cls != &circle_class &&
                      s->cls != &rectangle_class)) {
        return NULL;
    }
    return s->data;
}

static void merge(imp_vec2 p, imp_vec2 *l, imp_vec2 *h)
{
    l->x = imp_min(l->x, p.x);
    l->y = imp_min(l->y, p.y);
    h->x = imp_max(h->x, p.x);
    h->y = imp_max(h->y, p.y);
}

/* Exact bounds under the transform x: every edge's extreme points (a straight edge's are its
   end points, moved without copying the edge). O(E). */
static void bounds_xf(const imp_poly2d *g, imp_xf2 x, imp_vec2 *l, imp_vec2 *h)
{
    *l = imp_v2(INFINITY, INFINITY);
    *h = imp_v2(-INFINITY, -INFINITY);
    for (int i = 0; i < g->nedges; i++) {
        const imp_edge2d *e = &g->edges[i];
        if (e->kind == IMP_EDGE_LINE) {
            merge(imp_xf2_apply(x, e->a), l, h);
            const imp_edge2d *next = &g->edges[e->v1];
            if (e->b.x != next->a.x || e->b.y != next->a.y) {
                merge(imp_xf2_apply(x, e->b), l, h);  /* else merged as the next edge's start */
            }
        } else {
            imp_edge2d t = imp_edge2d_transform(e, x);
            imp_edge2d_bounds(&t, l, h);
        }
    }
}

static void poly_bounds(const imp_shape *s, const double *pose, double lo[3], double hi[3])
{
    imp_vec2 l, h;
    bounds_xf(s->data, imp_xf2_from_pose(pose), &l, &h);
    lo[0] = l.x, lo[1] = l.y, lo[2] = 0.0;
    hi[0] = h.x, hi[1] = h.y, hi[2] = 0.0;
}

void imp_poly2d_swept_bounds_xf(const imp_poly2d *g, imp_xf2 now, const imp_xf2 *prev,
                                double margin, double box[4])
{
    imp_vec2 l, h;
    bounds_xf(g, now, &l, &h);
    box[0] = l.x, box[1] = l.y, box[2] = h.x, box[3] = h.y;
    if (prev != NULL) {
        bounds_xf(g, *prev, &l, &h);
        box[0] = imp_min(box[0], l.x);
        box[1] = imp_min(box[1], l.y);
        box[2] = imp_max(box[2], h.x);
        box[3] = imp_max(box[3], h.y);
    }
    box[0] -= margin;
    box[1] -= margin;
    box[2] += margin;
    box[3] += margin;
}

void imp_shape2d_swept_bounds(const imp_shape *s, const double *pose, const double *prev_pose,
                              double margin, double box[4])
{
    const imp_poly2d *g = imp_shape2d_poly(s);
    if (g != NULL) {
        imp_xf2 prev = prev_pose != NULL ? imp_xf2_from_pose(prev_pose) : imp_xf2_identity();
        imp_poly2d_swept_bounds_xf(g, imp_xf2_from_pose(pose), prev_pose != NULL ? &prev : NULL,
                                   margin, box);
        return;
    }
    double lo[3], hi[3];  /* any other 2D shape: its class's bounds */
    imp_shape_bounds(s, pose, lo, hi);
    box[0] = lo[0], box[1] = lo[1], box[2] = hi[0], box[3] = hi[1];
    if (prev_pose != NULL) {
        imp_shape_bounds(s, prev_pose, lo, hi);
        box[0] = imp_min(box[0], lo[0]);
        box[1] = imp_min(box[1], lo[1]);
        box[2] = imp_max(box[2], hi[0]);
        box[3] = imp_max(box[3], hi[1]);
    }
    box[0] -= margin;
    box[1] -= margin;
    box[2] += margin;
    box[3] += margin;
}

static int fail(imp_poly2d_error *err, int status, const char *fmt, ...)
{
    if (err != NULL) {
        va_list ap;
        va_start(ap, fmt);
        err->status = status;
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return status;
}

/* ---- containment -------------------------------------------------------------------------- */

/* crossings of the ray {y = q.y, x > q.x} with edge e, half-open in y */
static int ray_crossings(const imp_edge2d *e, imp_vec2 q)
{
    if (e->kind == IMP_EDGE_LINE) {
        if ((e->a.y > q.y) == (e->b.y > q.y)) {
            return 0;
        }
        double x = e->a.x + (q.y - e->a.y) * (e->b.x - e->a.x) / (e->b.y - e->a.y);
        return x > q.x;
    }
    /* split the arc into y-monotone pieces at its top and bottom points */
    double dy = q.y - e->c.y;
    if (fabs(dy) > e->r) {
        return 0;
    }
    double cuts[4] = {0.0, 0.0, 0.0, 1.0};
    int nc = 1;
    double phi = fabs(e->sweep);
    for (int k = 0; k <= 1; k++) {
        double ext = 0.5 * IMP_PI + k * IMP_PI; /* angles where sin is extreme */
        double rel = e->sweep > 0.0 ? ext - e->theta0 : e->theta0 - ext;
        rel = fmod(rel, TWO_PI);
        if (rel < 0.0) {
            rel += TWO_PI;
        }
        if (rel > 0.0 && rel < phi && nc < 3) {
            cuts[nc++] = rel / phi;
        }
    }
    if (nc == 3 && cuts[1] > cuts[2]) {
        double t = cuts[1];
        cuts[1] = cuts[2];
        cuts[2] = t;
    }
    cuts[nc] = 1.0;
    int count = 0;
    for (int i = 0; i < nc; i++) {
        imp_vec2 p0 = imp_edge2d_point_at(e, cuts[i]), p1 = imp_edge2d_point_at(e, cuts[i + 1]);
        if ((p0.y > q.y) == (p1.y > q.y)) {
            continue;
        }
        /* the piece is monotone: its x at height q.y is on the side of its middle point */
        imp_vec2 pm = imp_edge2d_point_at(e, 0.5 * (cuts[i] + cuts[i + 1]));
        double w = sqrt(imp_max(e->r * e->r - dy * dy, 0.0));
        double x = pm.x >= e->c.x ? e->c.x + w : e->c.x - w;
        count += x > q.x;
    }
    return count;
}

static int path_contains(const imp_edge2d *edges, int first, int last, imp_vec2 q)
{
    int n = 0;
    for (int i = first; i < last; i++) {
        n += ray_crossings(&edges[i], q);
    }
    return n & 1;
}

/* The parity of the ray's crossings: an edge can only be crossed when its bounding disc
   reaches the height q.y and right of q.x (its crossing points lie on it), so the edge tree
   skips the others (the count's parity does not depend on the order). */
int imp_poly2d_contains_centred(const imp_poly2d *g, imp_vec2 q)
{
    double slack = imp_edge2d_tree_slack(g, q, 0.0);
    const double box[4] = {q.x - slack, q.y - slack, INFINITY, q.y + slack};
    imp_edge2d_iter it;
    imp_edge2d_iter_init(&it, g);
    int n = 0, first, last;
    while (imp_edge2d_iter_next(&it, box, &first, &last)) {
        for (int i = first; i < last; i++) {
            n += ray_crossings(&g->edges[i], q);
        }
    }
    return n & 1;
}

int imp_shape2d_contains(const imp_shape *s, imp_vec2 p)
{
    const imp_poly2d *g = imp_shape2d_poly(s);
    if (g == NULL) {
        return 0;
    }
    imp_vec2 q = imp_v2_sub(p, g->centroid);
    /* on the boundary: an edge at distance 0, whose bounding disc holds q (edge tree) */
    double slack = imp_edge2d_tree_slack(g, q, 0.0);
    const double box[4] = {q.x - slack, q.y - slack, q.x + slack, q.y + slack};
    imp_edge2d_iter it;
    imp_edge2d_iter_init(&it, g);
    int first, last;
    while (imp_edge2d_iter_next(&it, box, &first, &last)) {
        for (int i = first; i < last; i++) {
            imp_vec2 c;
            int interior;
            if (imp_edge2d_closest(&g->edges[i], q, &c, &interior) == 0.0) {
                return 1;
            }
        }
    }
    return imp_poly2d_contains_centred(g, q);
}

imp_vec2 imp_shape2d_to_world(const imp_shape *s, const double *pose, imp_vec2 p)
{
    imp_vec2 c = imp_v2(s->centroid[0], s->centroid[1]);
    return imp_xf2_apply(imp_xf2_from_pose(pose), imp_v2_sub(p, c));
}

imp_vec2 imp_shape2d_to_body(const imp_shape *s, const double *pose, imp_vec2 w)
{
    imp_vec2 c = imp_v2(s->centroid[0], s->centroid[1]);
    return imp_v2_add(imp_xf2_apply_inv(imp_xf2_from_pose(pose), w), c);
}

/* ---- building ----------------------------------------------------------------------------- */

static const char *edge_word(const imp_edge2d *e) { return e->kind == IMP_EDGE_LINE ? "straight" : "arc"; }

/* Reads the commands into edges (user coordinates). Returns a status. */
static int parse(const imp_path2d_cmd *cmds, int ncmds, double tol, imp_edge2d *edges, int *nedges,
                 int *path_start, int *npaths, imp_poly2d_error *err)
{
    int in_path = 0, ne = 0, np = 0;
    imp_vec2 start = {0, 0}, cur = {0, 0};
    for (int k = 0; k < ncmds; k++) {
        const imp_path2d_cmd *c = &cmds[k];
        if (!isfinite(c->x) || !isfinite(c->y) ||
            (c->op == IMP_PATH_ARC && (!isfinite(c->cx) || !isfinite(c->cy)))) {
            return fail(err, IMP_POLY_BAD_COMMAND, "command %d: coordinates must be finite numbers",
                        k + 1);
        }
        imp_vec2 p = imp_v2(c->x, c->y);
        switch (c->op) {
        case IMP_PATH_MOVE:
            if (in_path) {
                return fail(err, IMP_POLY_OPEN_PATH,
                            "path %d is open: close() it before starting another path", np);
            }
            in_path = 1;
            path_start[np++] = ne;
            start = cur = p;
            break;
        case IMP_PATH_LINE:
        case IMP_PATH_ARC: {
            const char *name = c->op == IMP_PATH_LINE ? "line_to" : "arc_to";
            if (!in_path) {
                return fail(err, IMP_POLY_BAD_COMMAND, "command %d: %s needs a current point: "
                            "call move_to first", k + 1, name);
            }
            imp_edge2d *e = &edges[ne];
            *e = (imp_edge2d){0};
            e->path = np - 1;
            e->flags = c->flags;
            e->a = cur;
            e->b = p;
            int edge_no = ne - path_start[np - 1] + 1;
            double len = imp_v2_dist(cur, p);
            if (c->op == IMP_PATH_LINE) {
                if (len <= tol) {
                    return fail(err, IMP_POLY_ZERO_EDGE, "path %d, edge %d: straight edge of zero "
                                "length at (%g, %g)", np, edge_no, p.x, p.y);
                }
                e->kind = IMP_EDGE_LINE;
            } else {
                imp_vec2 cc = imp_v2(c->cx, c->cy);
                double ra = imp_v2_dist(cur, cc), rb = imp_v2_dist(p, cc);
                if (ra <= tol) {
                    return fail(err, IMP_POLY_ZERO_EDGE, "path %d, edge %d: arc of zero radius "
                                "(its centre is its start point)", np, edge_no);
                }
                if (fabs(ra - rb) > tol) {
                    return fail(err, IMP_POLY_ARC_OFF_CIRCLE, "path %d, edge %d: arc end points "
                                "are not on one circle about the centre (%g, %g): distances %.17g "
                                "and %.17g", np, edge_no, cc.x, cc.y, ra, rb);
                }
                e->kind = IMP_EDGE_ARC;
                e->c = cc;
                e->r = 0.5 * (ra + rb);
                if (len <= tol) {
                    e->b = cur;  /* a full circle */
                    e->sweep = c->outside ? TWO_PI : -TWO_PI;
                } else {
                    double ta = atan2(cur.y - cc.y, cur.x - cc.x);
                    double tb = atan2(p.y - cc.y, p.x - cc.x);
                    double d = c->outside ? tb - ta : ta - tb;
                    d = fmod(d, TWO_PI);
                    if (d <= 0.0) {
                        d += TWO_PI;
                    }
                    e->sweep = c->outside ? d : -d;
                }
            }
            imp_edge2d_finish(e);
            ne++;
            cur = e->b;
            break;
        }
        case IMP_PATH_CLOSE:
            if (!in_path) {
                return fail(err, IMP_POLY_BAD_COMMAND, "command %d: close() without an open path",
                            k + 1);
            }
            if (imp_v2_dist(cur, start) > tol) {
                imp_edge2d *e = &edges[ne];
                *e = (imp_edge2d){0};
                e->kind = IMP_EDGE_LINE;
                e->path = np - 1;
                e->flags = c->flags;
                e->a = cur;
                e->b = start;
                imp_edge2d_finish(e);
                ne++;
            } else if (ne > path_start[np - 1]) {
                edges[ne - 1].b = start;  /* snap the last end point onto the start */
                imp_edge2d_finish(&edges[ne - 1]);
            }
            if (ne == path_start[np - 1]) {
                return fail(err, IMP_POLY_OPEN_PATH, "path %d has no edges", np);
            }
            in_path = 0;
            break;
        default:
            return fail(err, IMP_POLY_BAD_COMMAND, "command %d: unknown operation %d", k + 1, c->op);
        }
    }
    if (in_path) {
        return fail(err, IMP_POLY_OPEN_PATH, "path %d is open: end it with close()", np);
    }
    if (np == 0) {
        return fail(err, IMP_POLY_ZERO_AREA, "no paths: draw at least one closed path");
    }
    path_start[np] = ne;
    *nedges = ne;
    *npaths = np;
    return IMP_POLY_OK;
}

static int previous_edge(const int *path_start, const imp_edge2d *edges, int i)
{
    int p = edges[i].path;
    return i == path_start[p] ? path_start[p + 1] - 1 : i - 1;
}

/* 1 when the path doubles back on itself at the start vertex of edge i */
static int doubles_back(const int *path_start, const imp_edge2d *edges, int i)
{
    int pi = previous_edge(path_start, edges, i);
    imp_vec2 tin = imp_edge2d_tangent_at(&edges[pi], 1.0), tout = imp_edge2d_tangent_at(&edges[i], 0.0);
    return pi != i && imp_v2_dot(tin, tout) < 0.0 && fabs(imp_v2_cross(tin, tout)) <= 1e-9;
}

/* Whether edges i < j cross, touch or overlap other than at the shared end point joining
   them in their path; fills err (may be NULL) and returns the status. */
static int pair_check(const imp_edge2d *edges, int i, int j, const int *path_start, double tol,
                      imp_poly2d_error *err)
{
    const imp_edge2d *e = &edges[i], *f = &edges[j];
    imp_vec2 pts[2];
    int n = imp_edge2d_intersect(e, f, tol, pts);
    int ei = i - path_start[e->path] + 1, fj = j - path_start[f->path] + 1;
    if (n < 0) {
        return fail(err, IMP_POLY_CROSSING, "path %d edge %d (%s) and path %d edge %d (%s) "
                    "overlap", e->path + 1, ei, edge_word(e), f->path + 1, fj, edge_word(f));
    }
    for (int k = 0; k < n; k++) {
        /* meeting at a shared end point is how a path is joined */
        int shared = 0;
        if (e->path == f->path) {
            int first = path_start[e->path], last = path_start[e->path + 1] - 1;
            if (j == i + 1 && imp_v2_dist(pts[k], e->b) <= 2.0 * tol) {
                shared = 1;
            }
            if (i == first && j == last && imp_v2_dist(pts[k], e->a) <= 2.0 * tol) {
                shared = 1;
            }
        }
        if (!shared) {
            const char *what = e->path == f->path ? "path crosses or touches itself"
                                                  : "paths cross or touch";
            return fail(err, IMP_POLY_CROSSING, "%s: path %d edge %d (%s) meets path %d "
                        "edge %d (%s) at (%g, %g)", what, e->path + 1, ei, edge_word(e),
                        f->path + 1, fj, edge_word(f), pts[k].x, pts[k].y);
        }
    }
    return IMP_POLY_OK;
}

typedef struct edge_box {
    double lo, hi;  /* x interval */
    int i;
} edge_box;

static int box_order(const void *pa, const void *pb)
{
    const edge_box *a = pa, *b = pb;
    if (a->lo != b->lo) {
        return a->lo < b->lo ? -1 : 1;
    }
    return (a->i > b->i) - (a->i < b->i);
}

/* Crossing, touching and doubling back. Reports the first fault in the order of a test of
   every edge i (its start vertex, then every later edge j > i), but tests only the pairs
   whose bounding circles, grown by 4 tol (the tests accept points within about 3 tol of an
   edge), overlap: a sweep over their x intervals sorted, O(E log E + K) for K overlapping
   intervals (O(E^2) at worst, e.g. many long parallel edges). */
static int check_crossings(const imp_edge2d *edges, int ne, const int *path_start, double tol,
                           imp_poly2d_error *err)
{
    int best_i = ne, best_j = ne;  /* the first fault: (i, -1) doubling back, (i, j) a pair */
    for (int i = 0; i < ne; i++) {
        if (doubles_back(path_start, edges, i)) {
            best_i = i, best_j = -1;
            break;
        }
    }
    edge_box *box = malloc((size_t)ne * sizeof *box);
    double *ylo = malloc((size_t)ne * sizeof *ylo), *yhi = malloc((size_t)ne * sizeof *yhi);
    if (box == NULL || ylo == NULL || yhi == NULL) {
        free(box);
        free(ylo);
        free(yhi);
        return fail(err, IMP_POLY_NO_MEMORY, "out of memory");
    }
    for (int i = 0; i < ne; i++) {
        const imp_edge2d *e = &edges[i];
        double grow = e->br + 4.0 * tol + 1e-12 * (fabs(e->bc.x) + fabs(e->bc.y) + e->br);
        box[i] = (edge_box){e->bc.x - grow, e->bc.x + grow, i};
        ylo[i] = e->bc.y - grow;
        yhi[i] = e->bc.y + grow;
    }
    qsort(box, (size_t)ne, sizeof *box, box_order);
    for (int a = 0; a < ne; a++) {
        for (int b = a + 1; b < ne && box[b].lo <= box[a].hi; b++) {
            int i = box[a].i < box[b].i ? box[a].i : box[b].i;
            int j = box[a].i < box[b].i ? box[b].i : box[a].i;
            if (i > best_i || (i == best_i && j > best_j) || ylo[j] > yhi[i] || ylo[i] > yhi[j]) {
                continue;
            }
            if (pair_check(edges, i, j, path_start, tol, NULL) != IMP_POLY_OK) {
                best_i = i, best_j = j;
            }
        }
    }
    free(box);
    free(ylo);
    free(yhi);
    if (best_i == ne) {
        return IMP_POLY_OK;
    }
    if (best_j < 0) {
        const imp_edge2d *e = &edges[best_i];
        return fail(err, IMP_POLY_CROSSING, "path %d doubles back on itself at (%g, %g)",
                    e->path + 1, e->a.x, e->a.y);
    }
    return pair_check(edges, best_i, best_j, path_start, tol, err);
}

/* The former O(E^2) test, kept to check the sweep against (POLY2D_CHECK_SWEEP builds). */
#ifdef POLY2D_CHECK_SWEEP
static int check_crossings_all(const imp_edge2d *edges, int ne, const int *path_start, double tol,
                               imp_poly2d_error *err)
{
    for (int i = 0; i < ne; i++) {
        if (doubles_back(path_start, edges, i)) {
            return fail(err, IMP_POLY_CROSSING, "path %d doubles back on itself at (%g, %g)",
                        edges[i].path + 1, edges[i].a.x, edges[i].a.y);
        }
        for (int j = i + 1; j < ne; j++) {
            int st = pair_check(edges, i, j, path_start, tol, err);
            if (st != IMP_POLY_OK) {
                return st;
            }
        }
    }
    return IMP_POLY_OK;
}

static int check_crossings_checked(const imp_edge2d *edges, int ne, const int *path_start,
                                   double tol, imp_poly2d_error *err)
{
    imp_poly2d_error e1 = {0, ""}, e2 = {0, ""};
    int s1 = check_crossings(edges, ne, path_start, tol, &e1);
    int s2 = check_crossings_all(edges, ne, path_start, tol, &e2);
    if (s1 != s2 || strcmp(e1.message, e2.message) != 0) {
        fprintf(stderr, "SWEEP MISMATCH: '%s' vs '%s'\n", e1.message, e2.message);
        abort();
    }
    return fail(err, s1, "%s", e1.message);
}
#define check_crossings check_crossings_checked
#endif

/* How many pieces the decorated vertices cut an arc into: one every spacing along it, and at
   least one every 45 degrees; but at most IMP_POLY2D_ARC_PIECES per full turn, so the count
   is bounded by the arc's angle alone whatever its size or the spacing (each piece's chord
   then strays from the arc by at most r (1 - cos(pi / IMP_POLY2D_ARC_PIECES)), 4.7e-6 r).
   Arcs short enough for the spacing to stay under that cap (every arc of a radius below
   about 48 at the default spacing 0.3) get exactly the count they always had. 1 .. 1024. */
static int arc_pieces(const imp_edge2d *e, double spacing)
{
    double turn = fabs(e->sweep);
    double by_angle = ceil(turn / (0.25 * IMP_PI));
    double cap = ceil(turn * (IMP_POLY2D_ARC_PIECES / TWO_PI) - 1e-6); /* 256 for a quarter turn */
    double by_length = ceil(e->length / spacing);
    if (!(by_length <= cap)) {  /* also NaN */
        by_length = cap;
    }
    double k = imp_max(by_angle, by_length);
    if (!(k >= 1.0)) {
        k = 1.0;
    }
    return k < IMP_POLY2D_ARC_PIECES ? (int)k : IMP_POLY2D_ARC_PIECES;
}

/* centre: the centroid when known exactly by symmetry (NULL: computed) */
static imp_shape *build(const imp_shape_class *cls, const imp_path2d_cmd *cmds, int ncmds,
                        double spacing, const imp_vec2 *centre, imp_poly2d_error *err)
{
    if (err != NULL) {
        err->status = IMP_POLY_OK;
        err->message[0] = '\0';
    }
    if (!(spacing >= IMP_POLY2D_LENGTH_MIN && spacing <= IMP_POLY2D_LENGTH_MAX)) {
        fail(err, IMP_POLY_BAD_SIZE, "spacing must be a length in [%g, %g], got %g",
             IMP_POLY2D_LENGTH_MIN, IMP_POLY2D_LENGTH_MAX, spacing);
        return NULL;
    }
    if (cmds == NULL || ncmds <= 0) {
        fail(err, IMP_POLY_ZERO_AREA, "no paths: draw at least one closed path");
        return NULL;
    }
    /* length scale for tolerances: the extent of the points and the arcs' radii, plus a floor
       for the rounding of large coordinates */
    double lox = INFINITY, loy = INFINITY, hix = -INFINITY, hiy = -INFINITY, ext = 0.0, mag = 0.0;
    imp_vec2 cur = {0.0, 0.0};
    for (int k = 0; k < ncmds; k++) {
        const imp_path2d_cmd *c = &cmds[k];
        if (c->op == IMP_PATH_CLOSE || !isfinite(c->x) || !isfinite(c->y)) {
            continue;
        }
        lox = imp_min(lox, c->x), hix = imp_max(hix, c->x);
        loy = imp_min(loy, c->y), hiy = imp_max(hiy, c->y);
        mag = imp_max(mag, imp_max(fabs(c->x), fabs(c->y)));
        if (c->op == IMP_PATH_ARC && isfinite(c->cx) && isfinite(c->cy)) {
            ext = imp_max(ext, imp_v2_dist(cur, imp_v2(c->cx, c->cy)));
        }
        cur = imp_v2(c->x, c->y);
    }
    if (hix >= lox) {
        ext = imp_max(ext, imp_max(hix - lox, hiy - loy));
    }
    if (mag > IMP_POLY2D_LENGTH_MAX || ext > IMP_POLY2D_LENGTH_MAX) {
        fail(err, IMP_POLY_BAD_SIZE, "coordinates and arc radii must be at most %g in size, got %g",
             IMP_POLY2D_LENGTH_MAX, imp_max(mag, ext));
        return NULL;
    }
    if (ext > 0.0 && ext < IMP_POLY2D_LENGTH_MIN) {
        fail(err, IMP_POLY_BAD_SIZE, "the shape spans %g: shapes must span at least %g", ext,
             IMP_POLY2D_LENGTH_MIN);
        return NULL;
    }
    double L = ext > 0.0 ? ext : 1.0;
    double tol = 1e-9 * L + 1e-13 * mag;

    imp_edge2d *edges = malloc(((size_t)ncmds + 1) * sizeof *edges);
    int *path_start = malloc(((size_t)ncmds + 2) * sizeof *path_start);
    imp_poly2d *g = calloc(1, sizeof *g);
    if (edges == NULL || path_start == NULL || g == NULL) {
        free(edges);
        free(path_start);
        free(g);
        fail(err, IMP_POLY_NO_MEMORY, "out of memory");
        return NULL;
    }
    g->edges = edges;
    g->path_start = path_start;
    int ne = 0, np = 0;
    if (parse(cmds, ncmds, tol, edges, &ne, path_start, &np, err) != IMP_POLY_OK ||
        check_crossings(edges, ne, path_start, tol, err) != IMP_POLY_OK) {
        poly_destroy(g);
        return NULL;
    }
    g->nedges = ne;
    g->npaths = np;
    if (np > IMP_POLY2D_MAX_PATHS) {
        fail(err, IMP_POLY_TOO_BIG, "too many paths: %d (at most %d)", np, IMP_POLY2D_MAX_PATHS);
        poly_destroy(g);
        return NULL;
    }
    /* each path's box (arcs: their whole circle), grown by tol: a point outside it is outside
       the path, which the nesting test below then need not walk */
    double *pbox = malloc((size_t)np * 4 * sizeof *pbox);
    if (pbox == NULL) {
        fail(err, IMP_POLY_NO_MEMORY, "out of memory");
        poly_destroy(g);
        return NULL;
    }
    for (int p = 0; p < np; p++) {
        double *b = pbox + 4 * p;
        b[0] = b[1] = INFINITY;
        b[2] = b[3] = -INFINITY;
        for (int i = path_start[p]; i < path_start[p + 1]; i++) {
            const imp_edge2d *e = &edges[i];
            double r = e->kind == IMP_EDGE_ARC ? e->r : 0.0;
            imp_vec2 c = e->kind == IMP_EDGE_ARC ? e->c : e->a;
            b[0] = imp_min(b[0], c.x - r), b[1] = imp_min(b[1], c.y - r);
            b[2] = imp_max(b[2], c.x + r), b[3] = imp_max(b[3], c.y + r);
            b[0] = imp_min(b[0], e->b.x), b[1] = imp_min(b[1], e->b.y);
            b[2] = imp_max(b[2], e->b.x), b[3] = imp_max(b[3], e->b.y);
        }
        b[0] -= tol, b[1] -= tol, b[2] += tol, b[3] += tol;
    }

    /* areas per path, orientation against nesting */
    imp_vec2 ref = edges[0].a;
    imp_mass2d total = {0, 0, 0, 0};
    for (int p = 0; p < np; p++) {
        imp_mass2d m = {0, 0, 0, 0}, ms = {0, 0, 0, 0};
        for (int i = path_start[p]; i < path_start[p + 1]; i++) {
            imp_mass2d_add_edge(&m, &edges[i], ref);
            imp_mass2d_add_edge_stable(&ms, &edges[i], ref);
        }
        /* the closed forms, unless shallow arcs of a large radius made them cancel: then the
           sums free of that (equal to rounding otherwise) */
        if (!(fabs(m.area - ms.area) <= 1e-9 * fabs(ms.area)) ||
            !(fabs(m.j - ms.j) <= 1e-9 * fabs(ms.j))) {
            m = ms;
        }
        if (fabs(m.area) <= 1e-12 * L * L) {
            fail(err, IMP_POLY_ZERO_AREA, "path %d encloses no area", p + 1);
            free(pbox);
            poly_destroy(g);
            return NULL;
        }
        imp_vec2 q = imp_edge2d_point_at(&edges[path_start[p]], 0.5);
        int depth = 0;
        for (int o = 0; o < np; o++) {
            const double *b = pbox + 4 * o;
            if (o != p && q.x >= b[0] && q.y >= b[1] && q.x <= b[2] && q.y <= b[3]) {
                depth += path_contains(edges, path_start[o], path_start[o + 1], q);
            }
        }
        int hole = depth & 1;
        if (hole ? m.area > 0.0 : m.area < 0.0) {
            fail(err, IMP_POLY_ORIENTATION, "path %d is %s and runs %s; %s must run %s (the "
                 "material stays on the left of every path)", p + 1,
                 hole ? "a hole" : "an outer boundary", m.area > 0.0 ? "counter-clockwise" : "clockwise",
                 hole ? "holes" : "outer boundaries", hole ? "clockwise" : "counter-clockwise");
            free(pbox);
            poly_destroy(g);
            return NULL;
        }
        total.area += m.area;
        total.sx += m.sx;
        total.sy += m.sy;
        total.j += m.j;
    }
    free(pbox);
    if (!(total.area > 1e-12 * L * L)) {
        fail(err, IMP_POLY_ZERO_AREA, "the polygon encloses no area");
        poly_destroy(g);
        return NULL;
    }
    imp_vec2 cr = imp_v2(total.sx / total.area, total.sy / total.area);
    if (centre != NULL) {
        cr = imp_v2_sub(*centre, ref);
    }
    g->centroid = imp_v2_add(ref, cr);
    /* \int |p - c|^2 = J - 2 c.S + A |c|^2 (p, c relative to ref) */
    double polar = total.j - 2.0 * (cr.x * total.sx + cr.y * total.sy) + total.area * imp_v2_dot(cr, cr);
    if (!imp_poly2d_mass_ok(total.area, polar)) {
        fail(err, IMP_POLY_BAD_SIZE, "the shape's area (%g) and polar moment of area (%g) must "
             "be positive finite normal numbers (size %g)", total.area, polar, L);
        poly_destroy(g);
        return NULL;
    }

    /* centred geometry; end-point vertices, one per edge start */
    size_t ndec = 0;
    for (int i = 0; i < ne; i++) {
        imp_edge2d *e = &edges[i];
        e->a = imp_v2_sub(e->a, g->centroid);
        e->b = imp_v2_sub(e->b, g->centroid);
        e->c = imp_v2_sub(e->c, g->centroid);
        imp_edge2d_finish(e);
        if (e->kind == IMP_EDGE_ARC) {
            ndec += (size_t)arc_pieces(e, spacing) - 1;
            g->narcs++;
        }
    }
    if ((size_t)ne + ndec > IMP_POLY2D_MAX_VERTICES) {
        fail(err, IMP_POLY_TOO_BIG, "too many vertices: %zu end points and decorated vertices "
             "along arcs (at most %d); use fewer edges or arcs", (size_t)ne + ndec,
             IMP_POLY2D_MAX_VERTICES);
        poly_destroy(g);
        return NULL;
    }
    g->vertices = malloc(((size_t)ne + ndec) * sizeof *g->vertices);
    if (g->vertices == NULL) {
        fail(err, IMP_POLY_NO_MEMORY, "out of memory");
        poly_destroy(g);
        return NULL;
    }
    double radius = 0.0;
    g->convex = np == 1;
    for (int i = 0; i < ne; i++) {
        imp_edge2d *e = &edges[i];
        int pi = previous_edge(path_start, edges, i);
        e->v0 = i;
        e->v1 = (i + 1 == path_start[e->path + 1]) ? path_start[e->path] : i + 1;
        imp_vertex2d *v = &g->vertices[i];
        v->p = e->a;
        v->edge_in = pi;
        v->edge_out = i;
        v->decorated = 0;
        imp_vec2 tin = imp_edge2d_tangent_at(&edges[pi], 1.0), tout = imp_edge2d_tangent_at(e, 0.0);
        double turn = imp_v2_cross(tin, tout);
        v->corner = turn > 1e-9;
        if (turn < -1e-9 || (e->kind == IMP_EDGE_ARC && !e->convex)) {
            g->convex = 0;
        }
        radius = imp_max(radius, imp_v2_len(e->a));
        if (e->kind == IMP_EDGE_ARC) {
            double lc = imp_v2_len(e->c);
            if (lc == 0.0 || imp_edge2d_in_span(e, e->c, 0.0)) {
                radius = imp_max(radius, lc + e->r);
            }
        }
    }
    int nv = ne;
    for (int i = 0; i < ne; i++) {
        imp_edge2d *e = &edges[i];
        if (e->kind != IMP_EDGE_ARC) {
            continue;
        }
        int k = arc_pieces(e, spacing);
        for (int j = 1; j < k; j++) {
            imp_vertex2d *v = &g->vertices[nv++];
            v->p = imp_edge2d_point_at(e, (double)j / k);
            v->edge_in = v->edge_out = i;
            v->corner = 0;
            v->decorated = 1;
        }
    }
    g->nvertices = nv;
    g->nends = ne;
    g->lines_convex = np == 1 && g->narcs == 0;
    for (int i = 0; i < ne; i++) {
        g->lines_convex = g->lines_convex && g->vertices[i].corner;
    }
    g->radius = radius;
    g->spacing = spacing;
    if (imp_edge2d_tree_build(g) != 0) {
        fail(err, IMP_POLY_NO_MEMORY, "out of memory");
        poly_destroy(g);
        return NULL;
    }

    imp_shape *s = imp_shape_new(cls, g);
    if (s == NULL) {
        fail(err, IMP_POLY_NO_MEMORY, "out of memory");
        return NULL;
    }
    s->measure = total.area;
    s->centroid[0] = g->centroid.x;
    s->centroid[1] = g->centroid.y;
    s->inertia.m[2][2] = polar;
    s->radius = radius;
    return s;
}

imp_shape *imp_shape2d_polygon(const imp_path2d_cmd *cmds, int ncmds, double spacing,
                               imp_poly2d_error *err)
{
    return build(&polygon_class, cmds, ncmds, spacing, NULL, err);
}

imp_shape *imp_shape2d_polygon_kind(int kind, const imp_path2d_cmd *cmds, int ncmds, double spacing,
                                    const imp_vec2 *centroid, imp_poly2d_error *err)
{
    const imp_shape_class *cls = kind == IMP_POLY_KIND_CIRCLE      ? &circle_class
                                 : kind == IMP_POLY_KIND_RECTANGLE ? &rectangle_class
                                                                   : &polygon_class;
    return build(cls, cmds, ncmds, spacing, centroid, err);
}

imp_shape *imp_shape2d_recentred(const imp_shape *s, double cx, double cy, imp_poly2d_error *err)
{
    if (err != NULL) {
        err->status = IMP_POLY_OK;
        err->message[0] = '\0';
    }
    const imp_poly2d *g0 = imp_shape2d_poly(s);
    if (g0 == NULL) {
        fail(err, IMP_POLY_BAD_COMMAND, "not a 2D shape");
        return NULL;
    }
    if (!isfinite(cx) || !isfinite(cy) || fabs(cx) > IMP_POLY2D_LENGTH_MAX || fabs(cy) > IMP_POLY2D_LENGTH_MAX) {
        fail(err, IMP_POLY_BAD_SIZE, "the reference point's coordinates must be finite and at most "
             "%g in size", IMP_POLY2D_LENGTH_MAX);
        return NULL;
    }
    /* centred coordinates move by d: a point q of the old frame is q + d in the new one */
    imp_vec2 d = imp_v2_sub(g0->centroid, imp_v2(cx, cy));
    imp_poly2d *g = calloc(1, sizeof *g);
    if (g == NULL) {
        fail(err, IMP_POLY_NO_MEMORY, "out of memory");
        return NULL;
    }
    *g = *g0;
    g->tree = NULL;
    g->ntree = 0;
    g->edges = malloc((size_t)g0->nedges * sizeof *g->edges);
    g->vertices = malloc((size_t)g0->nvertices * sizeof *g->vertices);
    g->path_start = malloc(((size_t)g0->npaths + 1) * sizeof *g->path_start);
    if (g->edges == NULL || g->vertices == NULL || g->path_start == NULL) {
        poly_destroy(g);
        fail(err, IMP_POLY_NO_MEMORY, "out of memory");
        return NULL;
    }
    memcpy(g->edges, g0->edges, (size_t)g0->nedges * sizeof *g->edges);
    memcpy(g->vertices, g0->vertices, (size_t)g0->nvertices * sizeof *g->vertices);
    memcpy(g->path_start, g0->path_start, ((size_t)g0->npaths + 1) * sizeof *g->path_start);
    g->centroid = imp_v2(cx, cy);
    double radius = 0.0;
    for (int i = 0; i < g->nedges; i++) {
        imp_edge2d *e = &g->edges[i];
        e->a = imp_v2_add(e->a, d);
        e->b = imp_v2_add(e->b, d);
        e->c = imp_v2_add(e->c, d);
        e->bc = imp_v2_add(e->bc, d);
        radius = imp_max(radius, imp_v2_len(e->a));
        if (e->kind == IMP_EDGE_ARC) {
            double lc = imp_v2_len(e->c);
            if (lc == 0.0 || imp_edge2d_in_span(e, e->c, 0.0)) {
                radius = imp_max(radius, lc + e->r);
            }
        }
    }
    for (int i = 0; i < g->nvertices; i++) {
        g->vertices[i].p = imp_v2_add(g->vertices[i].p, d);
    }
    g->radius = radius;
    if (imp_edge2d_tree_build(g) != 0) {
        poly_destroy(g);
        fail(err, IMP_POLY_NO_MEMORY, "out of memory");
        return NULL;
    }
    imp_shape *r = imp_shape_new(s->cls, g);
    if (r == NULL) {
        fail(err, IMP_POLY_NO_MEMORY, "out of memory");
        return NULL;
    }
    r->measure = s->measure;
    r->centroid[0] = cx;
    r->centroid[1] = cy;
    r->inertia = s->inertia;
    r->radius = radius;
    return r;
}

int imp_poly2d_mass_ok(double area, double polar)
{
    return area >= DBL_MIN && area <= DBL_MAX && polar >= DBL_MIN && polar <= DBL_MAX;
}

int imp_poly2d_fail(imp_poly2d_error *err, int status, const char *fmt, double value)
{
    return fail(err, status, fmt, value);
}

