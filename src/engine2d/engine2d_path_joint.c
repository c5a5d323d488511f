/* engine2d_path_joint.c: path joints (engine2d_path_joint.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine2d.h"
#include "engine2d_move.h"
#include "engine2d_path_joint.h"
#include "world_internal.h"
#include "resize.h"

/* the index of table point i (wrapped on a closed path, clamped on an open one) */
static int wrap(const imp_path2d *g, int i)
{
    if (g->closed) {
        return ((i % g->n) + g->n) % g->n;
    }
    return i < 0 ? 0 : i >= g->n ? g->n - 1 : i;
}

/* path distance from point i to point j = i + 1 (the closing chord's on a closed path) */
static double seg_len(const imp_path2d *g, int i)
{
    int j = wrap(g, i + 1);
    return j > i ? g->p[j] - g->p[i] : g->length - g->p[i];
}

/* the three-point derivative at point i of the values v (p-spacing uneven: Lagrange's
   three-point formula, one-sided at an open path's ends) */
static double deriv3(const imp_path2d *g, const double *v, int i)
{
    int a, m = 1;  /* the three points a, a + 1, a + 2; m: which one i is */
    if (g->closed) {
        a = i - 1;
    } else if (i == 0) {
        a = 0;
        m = 0;
    } else if (i == g->n - 1) {
        a = g->n - 3;
        m = 2;
    } else {
        a = i - 1;
    }
    int i0 = wrap(g, a), i1 = wrap(g, a + 1), i2 = wrap(g, a + 2);
    /* distances relative to point a (continued across the closing point) */
    double x0 = 0.0, x1 = seg_len(g, a), x2 = x1 + seg_len(g, a + 1);
    if (!g->closed) {
        x1 = g->p[i1] - g->p[i0];
        x2 = g->p[i2] - g->p[i0];
    }
    double xj = m == 0 ? x0 : m == 1 ? x1 : x2;
    return v[i0] * (2 * xj - x1 - x2) / ((x0 - x1) * (x0 - x2))
           + v[i1] * (2 * xj - x0 - x2) / ((x1 - x0) * (x1 - x2))
           + v[i2] * (2 * xj - x0 - x1) / ((x2 - x0) * (x2 - x1));
}

int imp_engine2d_add_path(imp_world *w, const double *xy, int n, int closed, char *why,
                          size_t why_size)
{
    imp_engine2d *e = imp_engine2d_get(w);
    if (e == NULL) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    if (n < 3) {
        snprintf(why, why_size, "a path needs at least 3 points, got %d", n);
        return -1;
    }
    for (int i = 0; i < 2 * n; i++) {
        if (!isfinite(xy[i])) {
            snprintf(why, why_size, "point %d of the path is not finite", i / 2 + 1);
            return -1;
        }
    }
    for (int i = 0; i < n; i++) {
        int j = i + 1 < n ? i + 1 : 0;
        if ((j > 0 || closed) && xy[2 * i] == xy[2 * j] && xy[2 * i + 1] == xy[2 * j + 1]) {
            snprintf(why, why_size, "points %d and %d of the path are equal (a closed path does "
                     "not repeat its first point)", i + 1, j + 1);
            return -1;
        }
    }
    if (imp_grow(&e->paths, &e->path_cap, e->npaths + 1, sizeof *e->paths) != 0) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    imp_path2d *g = &e->paths[e->npaths];
    double *mem = malloc((size_t)n * 8 * sizeof *mem);
    if (mem == NULL) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    g->n = n;
    g->closed = closed != 0;
    g->x = mem;
    g->y = mem + n;
    g->p = mem + 2 * n;
    g->tx = mem + 3 * n;
    g->ty = mem + 4 * n;
    g->k = mem + 5 * n;
    double *nx = mem + 6 * n, *ny = mem + 7 * n;  /* (scratch: the normals) */
    g->p[0] = 0.0;
    for (int i = 0; i < n; i++) {
        g->x[i] = xy[2 * i];
        g->y[i] = xy[2 * i + 1];
        if (i > 0) {
            g->p[i] = g->p[i - 1] + hypot(g->x[i] - g->x[i - 1], g->y[i] - g->y[i - 1]);
        }
    }
    g->length = g->p[n - 1] + (g->closed ? hypot(g->x[0] - g->x[n - 1], g->y[0] - g->y[n - 1]) : 0.0);
    for (int i = 0; i < n; i++) {
        double dx = deriv3(g, g->x, i), dy = deriv3(g, g->y, i), l = hypot(dx, dy);
        g->tx[i] = dx / l;
        g->ty[i] = dy / l;
        nx[i] = -g->ty[i];
        ny[i] = g->tx[i];
    }
    for (int i = 0; i < n; i++) {  /* dn/dp = -k t */
        g->k[i] = -(deriv3(g, nx, i) * g->tx[i] + deriv3(g, ny, i) * g->ty[i]);
    }
    e->npaths++;
    return e->npaths - 1;
}

/* the foot of (x, y) on segment i (its chord): the parameter u (unclamped) and the squared
   distance to the clamped foot */
static double foot(const imp_path2d *g, int i, double x, double y, double *u)
{
    int j = wrap(g, i + 1);
    double ax = g->x[i], ay = g->y[i], dx = g->x[j] - ax, dy = g->y[j] - ay;
    double t = ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy);
    *u = t;
    double c = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    double fx = ax + c * dx - x, fy = ay + c * dy - y;
    return fx * fx + fy * fy;
}

/* the cubic Hermite of segment i (its ends' positions and tangents, the tangents scaled by
   the segment's length h): position, first and second derivatives in u at u */
static void hermite(const imp_path2d *g, int i, double u, double h, double *pos, double *d1,
                    double *d2)
{
    int j = wrap(g, i + 1);
    double u2 = u * u, u3 = u2 * u;
    double h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
    double d00 = 6 * u2 - 6 * u, d10 = 3 * u2 - 4 * u + 1, d01 = -6 * u2 + 6 * u, d11 = 3 * u2 - 2 * u;
    double e00 = 12 * u - 6, e10 = 6 * u - 4, e01 = -12 * u + 6, e11 = 6 * u - 2;
    const double px[4] = {g->x[i], h * g->tx[i], g->x[j], h * g->tx[j]};
    const double py[4] = {g->y[i], h * g->ty[i], g->y[j], h * g->ty[j]};
    pos[0] = h00 * px[0] + h10 * px[1] + h01 * px[2] + h11 * px[3];
    pos[1] = h00 * py[0] + h10 * py[1] + h01 * py[2] + h11 * py[3];
    d1[0] = d00 * px[0] + d10 * px[1] + d01 * px[2] + d11 * px[3];
    d1[1] = d00 * py[0] + d10 * py[1] + d01 * py[2] + d11 * py[3];
    d2[0] = e00 * px[0] + e10 * px[1] + e01 * px[2] + e11 * px[3];
    d2[1] = e00 * py[0] + e10 * py[1] + e01 * py[2] + e11 * py[3];
}

/* q: the point of segment i (length h) at u (the Hermite's position and tangent, the
   table's curvature interpolated linearly) */
static void fill_point(const imp_path2d *g, int i, double u, double h, imp_path2d_point *q)
{
    int j = wrap(g, i + 1);
    double pos[2], d1[2], d2[2];
    hermite(g, i, u, h, pos, d1, d2);
    double l = hypot(d1[0], d1[1]);
    q->x = pos[0];
    q->y = pos[1];
    q->tx = d1[0] / l;
    q->ty = d1[1] / l;
    q->nx = -q->ty;
    q->ny = q->tx;
    q->k = (1 - u) * g->k[i] + u * g->k[j];
    q->p = g->p[i] + u * h;
}

/* q: the point s past an open path's end point e along its tangent (myPhysicsLab's linear
   extension: no curvature) */
static void extension(const imp_path2d *g, int e, double s, imp_path2d_point *q)
{
    q->x = g->x[e] + s * g->tx[e];
    q->y = g->y[e] + s * g->ty[e];
    q->tx = g->tx[e];
    q->ty = g->ty[e];
    q->nx = -q->ty;
    q->ny = q->tx;
    q->k = 0.0;
    q->p = g->p[e] + s;
}

/* the point of segment i nearest to (x, y), from the chord's foot u: Newton's method on
   (H(u) - X) . H'(u) = 0 (three steps, u kept in [0, 1]); the tangent is the Hermite's, the
   curvature the table's interpolated linearly */
static void on_segment(const imp_path2d *g, int i, double u, double x, double y,
                       imp_path2d_point *q)
{
    double h = seg_len(g, i), pos[2], d1[2], d2[2];
    for (int it = 0; it < 3; it++) {
        hermite(g, i, u, h, pos, d1, d2);
        double rx = pos[0] - x, ry = pos[1] - y;
        double f = rx * d1[0] + ry * d1[1];
        double df = d1[0] * d1[0] + d1[1] * d1[1] + rx * d2[0] + ry * d2[1];
        if (!(df > 0.0)) {
            break;
        }
        u -= f / df;
        u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
    }
    fill_point(g, i, u, h, q);
}

/* the table point nearest to (x, y) (the first of equals) */
static int nearest_index(const imp_path2d *g, double x, double y)
{
    int best = 0;
    double bd = INFINITY;
    for (int i = 0; i < g->n; i++) {
        double dx = x - g->x[i], dy = y - g->y[i], d = dx * dx + dy * dy;
        if (d < bd) {
            bd = d;
            best = i;
        }
    }
    return best;
}

void imp_engine2d_path_nearest(const imp_path2d *g, double x, double y, imp_path2d_point *q)
{
    int best = nearest_index(g, x, y);
    /* the nearer of the segments before and after the nearest point */
    int s0 = g->closed || best > 0 ? wrap(g, best - 1) : -1;
    int s1 = g->closed || best < g->n - 1 ? best : -1;
    double u0 = 0.0, u1 = 0.0;
    double d0 = s0 >= 0 ? foot(g, s0, x, y, &u0) : INFINITY;
    double d1 = s1 >= 0 ? foot(g, s1, x, y, &u1) : INFINITY;
    int seg = d1 <= d0 ? s1 : s0;
    double u = d1 <= d0 ? u1 : u0;
    if (!g->closed && ((seg == 0 && u < 0.0) || (seg == g->n - 2 && u > 1.0))) {
        /* past an open path's end: its straight extension along the end's tangent, with no
           curvature (myPhysicsLab's linear extension) */
        int e = seg == 0 ? 0 : g->n - 1;
        extension(g, e, (x - g->x[e]) * g->tx[e] + (y - g->y[e]) * g->ty[e], q);
        return;
    }
    on_segment(g, seg, u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u, x, y, q);
}

void imp_engine2d_path_at(const imp_path2d *g, double p, imp_path2d_point *q)
{
    int last = g->n - 1;
    if (!g->closed && (p < 0.0 || p > g->p[last])) {
        int e = p < 0.0 ? 0 : last;
        extension(g, e, p - g->p[e], q);
        return;
    }
    int i = 0, hi = last;  /* the segment holding p: p_i <= p < p_i+1 (or the closing one) */
    if (p >= g->p[last]) {
        i = g->closed ? last : last - 1;
    } else {
        while (hi - i > 1) {
            int mid = i + (hi - i) / 2;
            if (g->p[mid] <= p) {
                i = mid;
            } else {
                hi = mid;
            }
        }
    }
    double h = seg_len(g, i), u = (p - g->p[i]) / h;
    fill_point(g, i, u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u, h, q);
}

static const imp_path2d *path_of(const imp_world *w, const imp_connector2d *c)
{
    return &w->engine2d->paths[c->path];
}

/* the attach point of c at state y and its velocity */
static void attach_point(const double *y, const imp_connector2d *c, double p1[2], double v1[2])
{
    const double *yp = y + (size_t)c->body1 * IMP_STRIDE_2D;
    double cs = cos(yp[2]), sn = sin(yp[2]);
    p1[0] = yp[0] + cs * c->point1[0] - sn * c->point1[1];
    p1[1] = yp[1] + sn * c->point1[0] + cs * c->point1[1];
    imp_e2_point_velocity(yp, p1, v1);
}

/* the point of c's path nearest to p1: under conventions = "myphysicslab" by its local
   search from the one found last (the search state advanced when keep; the first search
   starts at the nearest table point), else the exact nearest point */
static void nearest_of(const imp_world *w, imp_connector2d *c, const double p1[2], int keep,
                       imp_path2d_point *q)
{
    const imp_path2d *g = path_of(w, c);
    if (w->model.def.engine2d.conventions != IMP_CONVENTIONS_MYPHYSICSLAB) {
        imp_engine2d_path_nearest(g, p1[0], p1[1], q);
        return;
    }
    int k = c->near_k;
    double p = c->near_p;
    if (!c->has_near) {
        k = nearest_index(g, p1[0], p1[1]);
        p = g->p[k];
    }
    imp_engine2d_path_nearest_mpl(g, p1[0], p1[1], &k, &p, q);
    if (keep) {
        c->near_k = k;
        c->near_p = p;
        c->has_near = 1;
    }
}

/* a path end's distance from its stop at path distance p (limit - p for an upper limit, p -
   limit for a lower one: negative past it) and the sign of its normal along the path's
   tangent (against the travel stopped) */
static double end_distance(const imp_connector2d *c, double p)
{
    return c->upper ? c->limit - p : p - c->limit;
}

static double end_sign(const imp_connector2d *c)
{
    return c->upper ? -1.0 : 1.0;
}

int imp_engine2d_path_record(imp_world *w, const double *y, imp_connector2d *c, int i)
{
    imp_engine2d *e = w->engine2d;
    double p1[2], v1[2];
    attach_point(y, c, p1, v1);
    const double *yp = y + (size_t)c->body1 * IMP_STRIDE_2D;
    imp_path2d_point q;
    nearest_of(w, c, p1, 1, &q);
    if (imp_engine2d_reserve_records(e, e->nrec + 1) != 0) {
        return -1;
    }
    imp_rec2d *r = &e->rec[e->nrec++];
    memset(r, 0, sizeof *r);
    r->p = c->body1;
    r->q = c->body2;
    r->kind = IMP_REC_JOINT;
    r->bilateral = 1;
    r->connector = i;
    r->curved = 1;
    r->normal[0] = q.nx;
    r->normal[1] = q.ny;
    r->point[0] = r->u2[0] = q.x;
    r->point[1] = r->u2[1] = q.y;
    memcpy(r->u1, p1, sizeof r->u1);
    r->distance = q.nx * (p1[0] - q.x) + q.ny * (p1[1] - q.y);
    imp_engine2d_finish_record(w, y, r);
    r->velocity = q.nx * v1[0] + q.ny * v1[1];
    r->friction = 0.0;
    /* the normal turns along the path: n' = (dn/dp) (v1 . t) = -k (v1 . t) t, so the gap's
       acceleration has n' . v1 = -k (v1 . t)^2 (myPhysicsLab's PathJoint normal_dt) */
    r->path_k = -q.k;
    r->key = imp_engine2d_key(-1, i, 0, 0, 0, 0);
    r->jp[2] = (p1[0] - yp[0]) * q.ny - (p1[1] - yp[1]) * q.nx;
    return 0;
}

int imp_engine2d_path_end_record(imp_world *w, const double *y, imp_connector2d *c, int i)
{
    imp_engine2d *e = w->engine2d;
    double p1[2], v1[2], dtol = w->model.def.engine2d.distance_tol;
    attach_point(y, c, p1, v1);
    imp_path2d_point q;
    nearest_of(w, c, p1, 1, &q);
    double distance = end_distance(c, q.p);
    if (distance >= dtol) {
        return 0;  /* away from its stop */
    }
    if (imp_engine2d_reserve_records(e, e->nrec + 1) != 0) {
        return -1;
    }
    imp_rec2d *r = &e->rec[e->nrec++];
    memset(r, 0, sizeof *r);
    double s = end_sign(c);  /* the normal: the tangent, against the travel stopped */
    r->p = c->body1;
    r->q = c->body2;
    r->kind = IMP_REC_JOINT;
    r->connector = i;
    r->fixed_normal = 1;  /* (its turning with the path is left out, as myPhysicsLab's) */
    r->normal[0] = s * q.tx;
    r->normal[1] = s * q.ty;
    r->point[0] = r->u2[0] = q.x;
    r->point[1] = r->u2[1] = q.y;
    memcpy(r->u1, p1, sizeof r->u1);
    r->distance = distance;
    r->target = 0.5 * dtol;
    imp_engine2d_finish_record(w, y, r);
    r->velocity = r->normal[0] * v1[0] + r->normal[1] * v1[1];
    if (r->velocity < -w->model.def.engine2d.velocity_tol) {
        r->kind = IMP_HIT_IMMINENT;  /* arriving: a collision when it reaches the half gap */
    }
    r->friction = 0.0;
    r->key = imp_engine2d_key(-1, i, 1, 0, 0, 0);
    const double *yp = y + (size_t)r->p * IMP_STRIDE_2D;
    r->jp[2] = (p1[0] - yp[0]) * r->normal[1] - (p1[1] - yp[1]) * r->normal[0];
    return 0;
}

void imp_engine2d_path_end_gap(const imp_world *w, const double *y, imp_connector2d *c,
                               double *d, double *v)
{
    double p1[2], v1[2];
    attach_point(y, c, p1, v1);
    imp_path2d_point q;
    nearest_of(w, c, p1, 1, &q);
    double s = end_sign(c);
    *d = end_distance(c, q.p);
    *v = s * q.tx * v1[0] + s * q.ty * v1[1];
}

int imp_engine2d_is_path_end(const imp_world *w, int connector)
{
    return connector >= 0 && w->engine2d->conn[connector].kind == IMP_PATH_END;
}

double imp_engine2d_path_table_p(const imp_path2d *g, double x, double y)
{
    return g->p[nearest_index(g, x, y)];
}

double imp_engine2d_path_error(const imp_world *w, const double *y, const imp_connector2d *c)
{
    double p1[2], v1[2];
    attach_point(y, c, p1, v1);
    imp_path2d_point q;
    imp_connector2d probe = *c;  /* (a query: the search state is left as it is) */
    nearest_of(w, &probe, p1, 0, &q);
    if (c->kind == IMP_PATH_END) {
        double d = end_distance(c, q.p);
        return d < 0.0 ? -d : 0.0;
    }
    return fabs(q.nx * (p1[0] - q.x) + q.ny * (p1[1] - q.y));
}

void imp_engine2d_free_paths(imp_engine2d *e)
{
    for (int i = 0; i < e->npaths; i++) {
        free(e->paths[i].x);
    }
    free(e->paths);
    e->paths = NULL;
    e->npaths = e->path_cap = 0;
}
