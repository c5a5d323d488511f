/* edge2d.c: straight and circular edge geometry (see edge2d.h). All O(1). */
#include "edge2d.h"

#include <math.h>

#include "scalar.h"

#define TWO_PI (2.0 * IMP_PI)

/* angle wrapped into [0, 2 pi) */
static double wrap(double a)
{
    a = fmod(a, TWO_PI);
    if (a < 0.0) {
        a += TWO_PI;
    }
    if (a >= TWO_PI) {
        a = 0.0;
    }
    return a;
}

void imp_edge2d_finish(imp_edge2d *e)
{
    if (e->kind == IMP_EDGE_LINE) {
        imp_vec2 d = imp_v2_sub(e->b, e->a);
        e->length = imp_v2_len(d);
        e->t = e->length > 0.0 ? imp_v2_scale(d, 1.0 / e->length) : imp_v2(1.0, 0.0);
        e->n = imp_v2(e->t.y, -e->t.x);
        e->bc = imp_v2_scale(imp_v2_add(e->a, e->b), 0.5);
        e->br = 0.5 * e->length;
        e->convex = 0;
        e->depth = 0.0;
        return;
    }
    double phi = fabs(e->sweep);
    e->theta0 = atan2(e->a.y - e->c.y, e->a.x - e->c.x);
    e->length = e->r * phi;
    e->convex = e->sweep > 0.0;
    e->t = imp_v2(0.0, 0.0);
    e->n = imp_v2(0.0, 0.0);
    if (phi >= IMP_PI) {
        e->depth = e->r;
        e->bc = e->c;
        e->br = e->r;
    } else {
        /* a minor arc lies inside the circle whose diameter is its chord */
        e->depth = e->r * (1.0 - cos(0.5 * phi));
        e->bc = imp_v2_scale(imp_v2_add(e->a, e->b), 0.5);
        e->br = 0.5 * imp_v2_dist(e->a, e->b);
    }
}

imp_edge2d imp_edge2d_transform(const imp_edge2d *e, imp_xf2 x)
{
    imp_edge2d r = *e;
    r.a = imp_xf2_apply(x, e->a);
    r.b = imp_xf2_apply(x, e->b);
    r.bc = imp_xf2_apply(x, e->bc);
    if (e->kind == IMP_EDGE_LINE) {
        r.t = imp_xf2_rot(x, e->t);
        r.n = imp_xf2_rot(x, e->n);
    } else {
        r.c = imp_xf2_apply(x, e->c);
        r.theta0 = e->theta0 + atan2(x.s, x.c);
    }
    return r;
}

double imp_edge2d_support_distance(const imp_edge2d *e, imp_vec2 p)
{
    if (e->kind == IMP_EDGE_LINE) {
        return imp_v2_dot(imp_v2_sub(p, e->a), e->n);
    }
    double d = imp_v2_dist(p, e->c) - e->r;
    return e->convex ? d : -d;
}

int imp_edge2d_in_span(const imp_edge2d *e, imp_vec2 u, double tol)
{
    if (e->kind == IMP_EDGE_LINE || fabs(e->sweep) >= TWO_PI) {
        return 1;
    }
    double phi = atan2(u.y, u.x);
    double rel = e->sweep > 0.0 ? wrap(phi - e->theta0) : wrap(e->theta0 - phi);
    return rel <= fabs(e->sweep) + tol || rel >= TWO_PI - tol;
}

imp_vec2 imp_edge2d_normal_at(const imp_edge2d *e, imp_vec2 q)
{
    if (e->kind == IMP_EDGE_LINE) {
        return e->n;
    }
    imp_vec2 u = imp_v2_normalize(imp_v2_sub(q, e->c));
    return e->convex ? u : imp_v2_neg(u);
}

double imp_edge2d_curvature(const imp_edge2d *e)
{
    if (e->kind == IMP_EDGE_LINE) {
        return 0.0;
    }
    return e->convex ? 1.0 / e->r : -1.0 / e->r;
}

imp_vec2 imp_edge2d_point_at(const imp_edge2d *e, double u)
{
    if (e->kind == IMP_EDGE_LINE) {
        if (u >= 1.0) {
            return e->b;
        }
        return u <= 0.0 ? e->a : imp_v2_madd(e->a, u * e->length, e->t);
    }
    if (u <= 0.0) {
        return e->a;
    }
    if (u >= 1.0) {
        return e->b;
    }
    double th = e->theta0 + u * e->sweep;
    return imp_v2(e->c.x + e->r * cos(th), e->c.y + e->r * sin(th));
}

imp_vec2 imp_edge2d_tangent_at(const imp_edge2d *e, double u)
{
    if (e->kind == IMP_EDGE_LINE) {
        return e->t;
    }
    double th = e->theta0 + u * e->sweep;
    imp_vec2 t = imp_v2(-sin(th), cos(th));
    return e->sweep > 0.0 ? t : imp_v2_neg(t);
}

double imp_edge2d_closest(const imp_edge2d *e, imp_vec2 p, imp_vec2 *q, int *interior)
{
    if (e->kind == IMP_EDGE_LINE) {
        double s = imp_v2_dot(imp_v2_sub(p, e->a), e->t);
        *interior = s > 0.0 && s < e->length;
        *q = s <= 0.0 ? e->a : (s >= e->length ? e->b : imp_v2_madd(e->a, s, e->t));
        return imp_v2_dist(p, *q);
    }
    imp_vec2 v = imp_v2_sub(p, e->c);
    double l = imp_v2_len(v);
    if (!(l > 0.0)) {
        /* at the centre every point of the arc is equally near: take its middle */
        *q = imp_edge2d_point_at(e, 0.5);
        *interior = 1;
        return e->r;
    }
    if (imp_edge2d_in_span(e, v, 0.0)) {
        *q = imp_v2_madd(e->c, e->r / l, v);
        *interior = 1;
        return fabs(l - e->r);
    }
    double da = imp_v2_dist(p, e->a), db = imp_v2_dist(p, e->b);
    *interior = 0;
    *q = da <= db ? e->a : e->b;
    return da <= db ? da : db;
}

double imp_edge2d_signed_distance(const imp_edge2d *e, imp_vec2 p)
{
    imp_vec2 q;
    int interior;
    double d = imp_edge2d_closest(e, p, &q, &interior);
    return imp_v2_dot(imp_v2_sub(p, q), imp_edge2d_normal_at(e, q)) < 0.0 ? -d : d;
}

int imp_edge2d_segment_hit(const imp_edge2d *e, imp_vec2 p0, imp_vec2 p1, double *s, imp_vec2 *q)
{
    imp_vec2 d = imp_v2_sub(p1, p0);
    if (e->kind == IMP_EDGE_LINE) {
        if (!(imp_v2_dot(d, e->n) < 0.0)) {
            return 0;  /* parallel or leaving */
        }
        imp_vec2 E = imp_v2_sub(e->b, e->a), w = imp_v2_sub(e->a, p0);
        double den = imp_v2_cross(d, E);
        if (den == 0.0) {
            return 0;
        }
        double ss = imp_v2_cross(w, E) / den, u = imp_v2_cross(w, d) / den;
        const double slack = 1e-14;
        if (ss < -slack || ss > 1.0 + slack || u < -slack || u > 1.0 + slack) {
            return 0;
        }
        *s = imp_clamp(ss, 0.0, 1.0);
        *q = imp_v2_madd(e->a, imp_clamp(u, 0.0, 1.0), E);
        return 1;
    }
    imp_vec2 f = imp_v2_sub(p0, e->c);
    double A = imp_v2_dot(d, d), B = imp_v2_dot(f, d), C = imp_v2_dot(f, f) - e->r * e->r;
    if (!(A > 0.0)) {
        return 0;
    }
    double disc = B * B - A * C;
    if (disc < 0.0) {
        return 0;
    }
    double sq = sqrt(disc);
    const double roots[2] = {(-B - sq) / A, (-B + sq) / A};
    for (int i = 0; i < 2; i++) {
        double ss = roots[i];
        if (ss < 0.0 || ss > 1.0) {
            continue;
        }
        imp_vec2 pt = imp_v2_madd(p0, ss, d);
        imp_vec2 u = imp_v2_sub(pt, e->c);
        if (!imp_edge2d_in_span(e, u, 1e-14)) {
            continue;
        }
        double inward = imp_v2_dot(d, u);
        if (e->convex ? inward < 0.0 : inward > 0.0) {
            *s = ss;
            *q = imp_v2_madd(e->c, e->r / imp_v2_len(u), u);
            return 1;
        }
    }
    return 0;
}

/* ---- intersections (validation) ----------------------------------------------------------- */

static int line_line(const imp_edge2d *e, const imp_edge2d *f, double tol, imp_vec2 pts[2])
{
    imp_vec2 E = imp_v2_sub(e->b, e->a), F = imp_v2_sub(f->b, f->a), w = imp_v2_sub(f->a, e->a);
    double den = imp_v2_cross(E, F);
    if (fabs(den) <= 1e-12 * e->length * f->length) {
        if (fabs(imp_v2_cross(e->t, w)) > tol) {
            return 0;  /* parallel, apart */
        }
        double s0 = imp_v2_dot(w, e->t), s1 = imp_v2_dot(imp_v2_sub(f->b, e->a), e->t);
        double lo = imp_max(imp_min(s0, s1), 0.0), hi = imp_min(imp_max(s0, s1), e->length);
        if (hi - lo > tol) {
            return -1;
        }
        if (hi - lo < -tol) {
            return 0;
        }
        pts[0] = imp_v2_madd(e->a, 0.5 * (lo + hi), e->t);
        return 1;
    }
    double s = imp_v2_cross(w, F) / den, u = imp_v2_cross(w, E) / den;
    double te = tol / e->length, tf = tol / f->length;
    if (s < -te || s > 1.0 + te || u < -tf || u > 1.0 + tf) {
        return 0;
    }
    pts[0] = imp_v2_madd(e->a, s, E);
    return 1;
}

static int line_arc(const imp_edge2d *l, const imp_edge2d *a, double tol, imp_vec2 pts[2])
{
    double sf = imp_v2_dot(imp_v2_sub(a->c, l->a), l->t);
    imp_vec2 foot = imp_v2_madd(l->a, sf, l->t);
    double h = imp_v2_dist(foot, a->c);
    if (h > a->r + tol) {
        return 0;
    }
    double cand[2];
    int nc;
    if (h >= a->r - tol) {
        cand[0] = sf;
        nc = 1;
    } else {
        double w = sqrt(a->r * a->r - h * h);
        cand[0] = sf - w;
        cand[1] = sf + w;
        nc = 2;
    }
    int n = 0;
    for (int i = 0; i < nc; i++) {
        if (cand[i] < -tol || cand[i] > l->length + tol) {
            continue;
        }
        imp_vec2 p = imp_v2_madd(l->a, cand[i], l->t);
        if (imp_edge2d_in_span(a, imp_v2_sub(p, a->c), tol / a->r)) {
            pts[n++] = p;
        }
    }
    return n;
}

/* strictly inside the span, further than tol (length) from the arc's end points */
static int strictly_in(const imp_edge2d *a, imp_vec2 p, double tol)
{
    return imp_edge2d_in_span(a, imp_v2_sub(p, a->c), 0.0) && imp_v2_dist(p, a->a) > tol &&
           imp_v2_dist(p, a->b) > tol;
}

static int arc_arc(const imp_edge2d *e, const imp_edge2d *f, double tol, imp_vec2 pts[2])
{
    imp_vec2 D = imp_v2_sub(f->c, e->c);
    double d = imp_v2_len(D);
    if (d <= tol && fabs(e->r - f->r) <= tol) {
        /* one circle: the arcs overlap unless they only share end points */
        if (strictly_in(e, f->a, tol) || strictly_in(e, f->b, tol) || strictly_in(f, e->a, tol) ||
            strictly_in(f, e->b, tol) || strictly_in(e, imp_edge2d_point_at(f, 0.5), tol) ||
            strictly_in(f, imp_edge2d_point_at(e, 0.5), tol)) {
            return -1;
        }
        int n = 0;
        const imp_vec2 ends[2] = {e->a, e->b};
        for (int i = 0; i < 2; i++) {
            if (imp_v2_dist(ends[i], f->a) <= tol || imp_v2_dist(ends[i], f->b) <= tol) {
                pts[n++] = ends[i];
            }
        }
        return n;
    }
    if (d > e->r + f->r + tol || d < fabs(e->r - f->r) - tol || !(d > 0.0)) {
        return 0;
    }
    imp_vec2 u = imp_v2_scale(D, 1.0 / d);
    double x = (d * d + e->r * e->r - f->r * f->r) / (2.0 * d);
    double h2 = e->r * e->r - x * x;
    imp_vec2 cand[2];
    int nc;
    if (h2 <= tol * tol) {
        cand[0] = imp_v2_madd(e->c, x, u);
        nc = 1;
    } else {
        double h = sqrt(h2);
        imp_vec2 base = imp_v2_madd(e->c, x, u), perp = imp_v2_perp(u);
        cand[0] = imp_v2_madd(base, h, perp);
        cand[1] = imp_v2_madd(base, -h, perp);
        nc = 2;
    }
    int n = 0;
    for (int i = 0; i < nc; i++) {
        if (imp_edge2d_in_span(e, imp_v2_sub(cand[i], e->c), tol / e->r) &&
            imp_edge2d_in_span(f, imp_v2_sub(cand[i], f->c), tol / f->r)) {
            pts[n++] = cand[i];
        }
    }
    return n;
}

int imp_edge2d_intersect(const imp_edge2d *e, const imp_edge2d *f, double tol, imp_vec2 pts[2])
{
    if (e->kind == IMP_EDGE_LINE && f->kind == IMP_EDGE_LINE) {
        return line_line(e, f, tol, pts);
    }
    if (e->kind == IMP_EDGE_LINE) {
        return line_arc(e, f, tol, pts);
    }
    if (f->kind == IMP_EDGE_LINE) {
        return line_arc(f, e, tol, pts);
    }
    return arc_arc(e, f, tol, pts);
}

void imp_edge2d_bounds(const imp_edge2d *e, imp_vec2 *lo, imp_vec2 *hi)
{
    imp_vec2 pts[6];
    int n = 0;
    pts[n++] = e->a;
    pts[n++] = e->b;
    if (e->kind == IMP_EDGE_ARC) {
        static const double dirs[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
        for (int i = 0; i < 4; i++) {
            imp_vec2 u = imp_v2(dirs[i][0], dirs[i][1]);
            if (imp_edge2d_in_span(e, u, 0.0)) {
                pts[n++] = imp_v2_madd(e->c, e->r, u);
            }
        }
    }
    for (int i = 0; i < n; i++) {
        lo->x = imp_min(lo->x, pts[i].x);
        lo->y = imp_min(lo->y, pts[i].y);
        hi->x = imp_max(hi->x, pts[i].x);
        hi->y = imp_max(hi->y, pts[i].y);
    }
}

/* ---- distance between two edges ----------------------------------------------------------- */

typedef struct best {
    double d;
    imp_vec2 pe, pf;
} best;

static void consider(best *b, imp_vec2 pe, imp_vec2 pf)
{
    double d = imp_v2_dist(pe, pf);
    if (d < b->d) {
        b->d = d;
        b->pe = pe;
        b->pf = pf;
    }
}

/* interior critical pairs of a line l and an arc a: the arc points whose radius is normal to l */
static void line_arc_interior(best *b, const imp_edge2d *l, const imp_edge2d *a, int swap)
{
    for (int sg = -1; sg <= 1; sg += 2) {
        imp_vec2 u = imp_v2_scale(l->n, (double)sg);
        if (!imp_edge2d_in_span(a, u, 0.0)) {
            continue;
        }
        imp_vec2 p = imp_v2_madd(a->c, a->r, u), q;
        int interior;
        imp_edge2d_closest(l, p, &q, &interior);
        if (interior) {
            if (swap) {
                consider(b, p, q);
            } else {
                consider(b, q, p);
            }
        }
    }
}

double imp_edge2d_edge_distance(const imp_edge2d *e, const imp_edge2d *f, imp_vec2 *pe,
                                imp_vec2 *pf)
{
    best b = {INFINITY, e->a, f->a};
    imp_vec2 q;
    int interior;
    imp_edge2d_closest(f, e->a, &q, &interior);
    consider(&b, e->a, q);
    imp_edge2d_closest(f, e->b, &q, &interior);
    consider(&b, e->b, q);
    imp_edge2d_closest(e, f->a, &q, &interior);
    consider(&b, q, f->a);
    imp_edge2d_closest(e, f->b, &q, &interior);
    consider(&b, q, f->b);
    if (e->kind == IMP_EDGE_LINE && f->kind == IMP_EDGE_ARC) {
        line_arc_interior(&b, e, f, 0);
    } else if (e->kind == IMP_EDGE_ARC && f->kind == IMP_EDGE_LINE) {
        line_arc_interior(&b, f, e, 1);
    } else if (e->kind == IMP_EDGE_ARC && f->kind == IMP_EDGE_ARC) {
        imp_vec2 D = imp_v2_sub(f->c, e->c);
        double d = imp_v2_len(D);
        if (d > 0.0) {
            imp_vec2 u = imp_v2_scale(D, 1.0 / d);
            for (int s1 = -1; s1 <= 1; s1 += 2) {
                imp_vec2 u1 = imp_v2_scale(u, (double)s1);
                if (!imp_edge2d_in_span(e, u1, 0.0)) {
                    continue;
                }
                for (int s2 = -1; s2 <= 1; s2 += 2) {
                    imp_vec2 u2 = imp_v2_scale(u, (double)s2);
                    if (imp_edge2d_in_span(f, u2, 0.0)) {
                        consider(&b, imp_v2_madd(e->c, e->r, u1), imp_v2_madd(f->c, f->r, u2));
                    }
                }
            }
        }
    }
    *pe = b.pe;
    *pf = b.pf;
    return b.d;
}
