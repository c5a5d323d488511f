/* dem_facet.c: facets (triangles) for the dem strategy: the shape (a flat convex of three
   points, for fixed bodies) and the facet/sphere geometry: the closest point of the triangle
   to the sphere's centre (Ericson, Real-Time Collision Detection, 2005, 5.1.5), both sides. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dem.h"
#include "shape3d.h"

static void sub(const double *a, const double *b, double *o)
{
    o[0] = a[0] - b[0], o[1] = a[1] - b[1], o[2] = a[2] - b[2];
}

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

imp_shape *imp_dem_facet_shape(const double v[9])
{
    for (int i = 0; i < 9; i++) {
        if (!isfinite(v[i])) {
            return NULL;
        }
    }
    double e1[3], e2[3], n[3];
    sub(v + 3, v, e1);
    sub(v + 6, v, e2);
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    double scale = sqrt(fmax(dot3(e1, e1), dot3(e2, e2)));
    if (!(sqrt(dot3(n, n)) > 1e-12 * scale * scale)) {
        return NULL;  /* degenerate: the points are (nearly) collinear */
    }
    imp_convex3d *c;
    imp_shape *s = imp_shape3d_alloc(IMP_S3_CONVEX, &c);
    if (s == NULL) {
        return NULL;
    }
    c->vert = malloc(9 * sizeof *c->vert);
    if (c->vert == NULL) {
        imp_shape_release(s);
        return NULL;
    }
    memcpy(c->vert, v, 9 * sizeof *v);
    c->nvert = 3;
    c->ntri = 0;
    c->scale = scale;
    double r = 0.0;
    for (int k = 0; k < 3; k++) {
        s->centroid[k] = (v[k] + v[3 + k] + v[6 + k]) / 3.0;
    }
    for (int i = 0; i < 3; i++) {
        double d[3];
        sub(v + 3 * i, s->centroid, d);
        r = fmax(r, sqrt(dot3(d, d)));
    }
    s->measure = 0.0;  /* no volume: only for fixed bodies */
    s->radius = r;
    return s;
}

int imp_dem_is_facet(const imp_shape *s)
{
    const imp_convex3d *c = imp_shape3d_data(s);
    return c != NULL && c->kind == IMP_S3_CONVEX && c->nvert == 3 && c->ntri == 0;
}

/* closest point of triangle abc to p */
static void closest_on_triangle(const double *p, const double *a, const double *b,
                                const double *c, double *out)
{
    double ab[3], ac[3], ap[3], bp[3], cp[3];
    sub(b, a, ab);
    sub(c, a, ac);
    sub(p, a, ap);
    double d1 = dot3(ab, ap), d2 = dot3(ac, ap);
    if (d1 <= 0.0 && d2 <= 0.0) {
        memcpy(out, a, 3 * sizeof *out);
        return;
    }
    sub(p, b, bp);
    double d3 = dot3(ab, bp), d4 = dot3(ac, bp);
    if (d3 >= 0.0 && d4 <= d3) {
        memcpy(out, b, 3 * sizeof *out);
        return;
    }
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
        double t = d1 / (d1 - d3);
        for (int k = 0; k < 3; k++) {
            out[k] = a[k] + t * ab[k];
        }
        return;
    }
    sub(p, c, cp);
    double d5 = dot3(ab, cp), d6 = dot3(ac, cp);
    if (d6 >= 0.0 && d5 <= d6) {
        memcpy(out, c, 3 * sizeof *out);
        return;
    }
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
        double t = d2 / (d2 - d6);
        for (int k = 0; k < 3; k++) {
            out[k] = a[k] + t * ac[k];
        }
        return;
    }
    double va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
        double t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        for (int k = 0; k < 3; k++) {
            out[k] = b[k] + t * (c[k] - b[k]);
        }
        return;
    }
    double den = 1.0 / (va + vb + vc), v = vb * den, w = vc * den;
    for (int k = 0; k < 3; k++) {
        out[k] = a[k] + ab[k] * v + ac[k] * w;
    }
}

int imp_dem_facet_sphere(const double *tri, const double *centre, double r, double reach,
                         const double *prev_n, double *un, double n[3])
{
    double q[3], d[3];
    closest_on_triangle(centre, tri, tri + 3, tri + 6, q);
    sub(centre, q, d);
    double dist2 = dot3(d, d);
    if (reach >= 0.0 && dist2 > reach * reach) {
        return 0;
    }
    double dist = sqrt(dist2);
    if (dist > 0.0) {
        double inv = 1.0 / dist;
        n[0] = d[0] * inv, n[1] = d[1] * inv, n[2] = d[2] * inv;
    } else {  /* the centre on the facet: its normal, on the side of the previous normal */
        double e1[3], e2[3];
        sub(tri + 3, tri, e1);
        sub(tri + 6, tri, e2);
        n[0] = e1[1] * e2[2] - e1[2] * e2[1];
        n[1] = e1[2] * e2[0] - e1[0] * e2[2];
        n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        double l = sqrt(dot3(n, n));
        double sgn = dot3(n, prev_n) < 0.0 ? -1.0 : 1.0;
        for (int k = 0; k < 3; k++) {
            n[k] *= sgn / l;
        }
    }
    *un = r - dist;
    return 1;
}
