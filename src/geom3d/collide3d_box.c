/* collide3d_box.c: the separating-axis answer for two boxes whose cores overlap (collide3d.h).

   The cores are boxes (half extents h, axes u = the columns of the rotation). Their Minkowski
   difference is a convex polytope whose facet normals are among the 15 axes: the 3 face axes
   of each box and the 9 cross products of an axis of one with an axis of the other. Along a
   unit axis L the cores overlap by
     o(L) = rA(L) + rB(L) - |t . L|,   r(L) = sum_i h_i |u_i . L|,   t = centre B - centre A,
   and when every o(L) > 0 the penetration depth of the cores is the least o(L): the distance
   from the origin to the difference's boundary is its least support over the facet normals,
   and any other unit direction's support is at least that distance (the inscribed ball), so
   the superset of 15 axes gives it exactly. Cross products shorter than 1e-6 (edges within
   1e-6 rad of parallel) are left out: a face axis then gives the depth to within 1e-6 of the
   boxes' size. Face axes win ties (an edge axis must be deeper by 1e-12 of the size), A's
   before B's. The whole shapes' distance is -(depth + rA + rB) along the same normal (the
   sweeps, collide3d.c).
   Witness points (point_b = point_a + distance n): on a face axis of A, B's core point deepest
   along -n (a vertex; along axes of B within 1e-9 of perpendicular to n, where the deepest
   points form an edge or a face, the coordinate is that of A's centre clamped to B: a point
   of the touching region for stacked boxes) and its projection on A's face; on a face axis of
   B the same with the roles swapped; on an edge axis the closest points of the two edges.
   When the cores do not overlap by more than 1e-9 of their size (apart, or touching within
   rounding) the general path answers (GJK, collide3d.c). */
#include <math.h>

#include "collide3d_box.h"

static imp_vec3 axis(const imp_support3d *s, int i)
{
    return imp_v3(s->rot.m[0][i], s->rot.m[1][i], s->rot.m[2][i]);
}

/* the point of the box (centre c, axes u, half extents h) deepest along d; along axes within
   1e-9 of perpendicular to d the coordinate of p clamped to the box */
static imp_vec3 deepest(imp_vec3 c, const imp_vec3 u[3], const double *h, imp_vec3 d, imp_vec3 p)
{
    imp_vec3 r = c;
    for (int i = 0; i < 3; i++) {
        double s = imp_v3_dot(u[i], d), x;
        if (fabs(s) <= 1e-9) {
            x = imp_v3_dot(imp_v3_sub(p, c), u[i]);
            x = x < -h[i] ? -h[i] : (x > h[i] ? h[i] : x);
        } else {
            x = s > 0.0 ? h[i] : -h[i];
        }
        r = imp_v3_madd(r, x, u[i]);
    }
    return r;
}

/* the centre of the box's edge along axis e extreme along d */
static imp_vec3 edge_centre(imp_vec3 c, const imp_vec3 u[3], const double *h, int e, imp_vec3 d)
{
    imp_vec3 r = c;
    for (int i = 0; i < 3; i++) {
        if (i != e) {
            r = imp_v3_madd(r, imp_v3_dot(u[i], d) >= 0.0 ? h[i] : -h[i], u[i]);
        }
    }
    return r;
}

/* the point of the segment p + s d (|s| <= hp) closest to the line q + t e (unit d, e) */
static imp_vec3 edge_point(imp_vec3 p, imp_vec3 d, double hp, imp_vec3 q, imp_vec3 e)
{
    imp_vec3 r = imp_v3_sub(p, q);
    double b = imp_v3_dot(d, e), c = imp_v3_dot(d, r), f = imp_v3_dot(e, r);
    double den = 1.0 - b * b;  /* unit d, e; > 1e-12 for the axes kept */
    double s = (b * f - c) / den;
    s = s < -hp ? -hp : (s > hp ? hp : s);
    return imp_v3_madd(p, s, d);
}

int imp_collide3d_box_box(const imp_support3d *a, const imp_support3d *b, imp_contact3d *out)
{
    const double *ha = a->c->core, *hb = b->c->core;
    imp_vec3 ua[3] = {axis(a, 0), axis(a, 1), axis(a, 2)}, ub[3] = {axis(b, 0), axis(b, 1), axis(b, 2)};
    imp_vec3 ca = a->origin, cb = b->origin;  /* box cores are centred on their origin */
    imp_vec3 t = imp_v3_sub(cb, ca);
    double size = a->scale + b->scale;
    /* r[i][j] = |uA_i . uB_j|; the radii along the axes from it (Gottschalk's OBB test) */
    double r[3][3];
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            r[i][j] = fabs(imp_v3_dot(ua[i], ub[j]));
        }
    }
    double best = INFINITY;
    int which = -1;  /* 0-2 faces of A, 3-5 faces of B, 6 + 3 i + j edges */
    imp_vec3 nbest = imp_v3(0, 0, 1);
    for (int k = 0; k < 15; k++) {
        imp_vec3 l;
        double rad;
        if (k < 3) {
            l = ua[k];
            rad = ha[k] + hb[0] * r[k][0] + hb[1] * r[k][1] + hb[2] * r[k][2];
        } else if (k < 6) {
            l = ub[k - 3];
            rad = hb[k - 3] + ha[0] * r[0][k - 3] + ha[1] * r[1][k - 3] + ha[2] * r[2][k - 3];
        } else {
            int i = (k - 6) / 3, j = (k - 6) % 3, i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3,
                j2 = (j + 2) % 3;
            l = imp_v3_cross(ua[i], ub[j]);
            double len = imp_v3_len(l);
            if (!(len > 1e-6)) {
                continue;
            }
            /* uA_i1 . (uA_i x uB_j) = -uA_i2 . uB_j, uA_i2 . (...) = uA_i1 . uB_j; alike for B */
            rad = (ha[i1] * r[i2][j] + ha[i2] * r[i1][j] + hb[j1] * r[i][j2] + hb[j2] * r[i][j1]) / len;
            l = imp_v3_scale(l, 1.0 / len);
        }
        double tl = imp_v3_dot(t, l);
        double o = rad - fabs(tl);
        if (!(o > 1e-9 * size)) {
            return 0;  /* apart or touching: the general path */
        }
        if (k < 6 ? o < best : o < best - 1e-12 * size) {
            best = o;
            which = k;
            nbest = tl >= 0.0 ? l : imp_v3_neg(l);
        }
    }
    imp_vec3 n = nbest, pa, pb;
    if (which < 3) {
        pb = deepest(cb, ub, hb, imp_v3_neg(n), ca);
        pa = imp_v3_madd(pb, best, n);
    } else if (which < 6) {
        pa = deepest(ca, ua, ha, n, cb);
        pb = imp_v3_madd(pa, -best, n);
    } else {
        int i = (which - 6) / 3, j = (which - 6) % 3;
        imp_vec3 ea = edge_centre(ca, ua, ha, i, n), eb = edge_centre(cb, ub, hb, j, imp_v3_neg(n));
        pa = edge_point(ea, ua[i], ha[i], eb, ub[j]);
        pb = imp_v3_madd(pa, -best, n);
    }
    double ra = a->sweep, rb = b->sweep;
    imp_v3_store(out->normal, n);
    imp_v3_store(out->point_a, imp_v3_madd(pa, ra, n));
    imp_v3_store(out->point_b, imp_v3_madd(pb, -rb, n));
    out->distance = -(best + ra + rb);
    out->method = IMP_NP_ANALYTIC;
    out->iterations = 0;
    out->status = IMP_NP_OK;
    return 1;
}
