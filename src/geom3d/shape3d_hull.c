/* shape3d_hull.c: the convex hull shape (hull3d.c) swept by a sphere of radius r, with exact
   mass properties.

   The Minkowski sum of a convex polytope P and a ball of radius r splits into disjoint pieces
   (the normal fan of P partitions the outside):
   - P itself: a fan of tetrahedra from a reference point c0; a tetrahedron with vertices v_k
     (k = 1..4, s = sum v_k) has  int x x^T dV = V/20 (sum v_k v_k^T + s s^T);
   - a prism on every face F with unit normal n: x = y + t n, y in F, t in [0, r], so
       V = r A,  int x = r int_F y + r^2/2 A n,
       int x x^T = r int_F y y^T + r^2/2 (int_F y n^T + n int_F y^T) + r^3/3 A n n^T,
     with a triangle's int_F y y^T = A/12 (sum v_k v_k^T + s s^T);
   - a wedge on every edge p -> q (length l, unit e, exterior angle beta between the normals a
     and n2 of its faces, b the unit vector with n2 = cos(beta) a + sin(beta) b):
     x = p + s e + d, s in [0, l], d in the circular sector of radius r from a to n2, whose
       S0 = beta r^2 / 2,  S1 = int d = r^3/3 (sin(beta) a + (1 - cos(beta)) b),
       S2 = int d d^T = r^4/4 ((beta/2 + sin(2 beta)/4) a a^T + (beta/2 - sin(2 beta)/4) b b^T
                               + sin(beta)^2 / 2 (a b^T + b a^T));
   - a spherical cone at every vertex v over its normal cone N(v): x = v + t w, w in N(v) on the
     unit sphere, t in [0, r]. Its solid angle is the angular defect 2 pi - (sum of the face
     angles at v); int_N w = 1/2 sum over edges (v, u) of beta_vu (v - u)/|v - u| (divergence
     theorem on the cone: the flat sides are sectors of area beta/2 with normals along the
     edges); and sum over all vertices of int_N w w^T = 4 pi / 3 * Id, so only the total of the
     r^5 terms is needed: 4 pi r^5 / 15 * Id.
   The second moments are summed about c0 (the vertex mean, to limit cancellation), then moved
   to the centroid: I = tr(J) Id - J with J = int (x - c)(x - c)^T. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hull3d.h"
#include "polyhedron.h"
#include "scalar.h"
#include "shape3d.h"

typedef struct acc {
    double v, m[3], j[3][3];
} acc;

static void add_outer(acc *a, double w, const double *x, const double *y)
{
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 3; k++) {
            a->j[i][k] += w * x[i] * y[k];
        }
    }
}

static void sub3(const double *a, const double *b, double *o)
{
    o[0] = a[0] - b[0], o[1] = a[1] - b[1], o[2] = a[2] - b[2];
}
static void cross3(const double *a, const double *b, double *o)
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}
static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static double len3(const double *a) { return sqrt(dot3(a, a)); }

typedef struct dedge {
    int lo, hi, tri, from;
} dedge;

static int cmp_edge(const void *x, const void *y)
{
    const dedge *a = x, *b = y;
    if (a->lo != b->lo) {
        return a->lo < b->lo ? -1 : 1;
    }
    if (a->hi != b->hi) {
        return a->hi < b->hi ? -1 : 1;
    }
    return a->tri < b->tri ? -1 : (a->tri > b->tri);
}

/* volume, first and second moments about the origin of v (local coordinates); 0 on success */
static int hull_moments(const double *v, int nv, const int *tri, int nt, double r, acc *out)
{
    memset(out, 0, sizeof *out);
    double *nrm = malloc((size_t)nt * 3 * sizeof(double));
    double *defect = malloc((size_t)nv * sizeof(double));
    double *mv = calloc((size_t)nv * 3, sizeof(double));
    dedge *edges = malloc((size_t)nt * 3 * sizeof(dedge));
    if (nrm == NULL || defect == NULL || mv == NULL || edges == NULL) {
        free(nrm), free(defect), free(mv), free(edges);
        return 1;
    }
    for (int i = 0; i < nv; i++) {
        defect[i] = 2.0 * IMP_PI;
    }
    for (int t = 0; t < nt; t++) {
        const double *a = v + 3 * tri[3 * t], *b = v + 3 * tri[3 * t + 1], *c = v + 3 * tri[3 * t + 2];
        double ab[3], ac[3], n[3], s[3] = {a[0] + b[0] + c[0], a[1] + b[1] + c[1], a[2] + b[2] + c[2]};
        sub3(b, a, ab);
        sub3(c, a, ac);
        cross3(ab, ac, n);
        double area = 0.5 * len3(n);
        for (int k = 0; k < 3; k++) {
            nrm[3 * t + k] = area > 0.0 ? n[k] / (2.0 * area) : 0.0;
        }
        const double *un = nrm + 3 * t;
        /* tetrahedron (0, a, b, c) */
        double tv = dot3(a, n) / 6.0;
        out->v += tv;
        for (int k = 0; k < 3; k++) {
            out->m[k] += tv * s[k] / 4.0;
        }
        add_outer(out, tv / 20.0, a, a);
        add_outer(out, tv / 20.0, b, b);
        add_outer(out, tv / 20.0, c, c);
        add_outer(out, tv / 20.0, s, s);
        /* prism */
        if (r > 0.0) {
            double fy[3] = {area * s[0] / 3.0, area * s[1] / 3.0, area * s[2] / 3.0};
            out->v += r * area;
            for (int k = 0; k < 3; k++) {
                out->m[k] += r * fy[k] + 0.5 * r * r * area * un[k];
            }
            double w = r * area / 12.0;
            add_outer(out, w, a, a);
            add_outer(out, w, b, b);
            add_outer(out, w, c, c);
            add_outer(out, w, s, s);
            add_outer(out, 0.5 * r * r, fy, un);
            add_outer(out, 0.5 * r * r, un, fy);
            add_outer(out, r * r * r / 3.0 * area, un, un);
        }
        /* face angles at the corners, for the angular defects */
        for (int k = 0; k < 3; k++) {
            const double *p0 = v + 3 * tri[3 * t + k], *p1 = v + 3 * tri[3 * t + (k + 1) % 3],
                         *p2 = v + 3 * tri[3 * t + (k + 2) % 3];
            double e1[3], e2[3], cx[3];
            sub3(p1, p0, e1);
            sub3(p2, p0, e2);
            cross3(e1, e2, cx);
            defect[tri[3 * t + k]] -= atan2(len3(cx), dot3(e1, e2));
            int from = tri[3 * t + k], to = tri[3 * t + (k + 1) % 3];
            dedge *e = &edges[3 * t + k];
            e->lo = from < to ? from : to;
            e->hi = from < to ? to : from;
            e->tri = t;
            e->from = from;
        }
    }
    if (r > 0.0) {
        qsort(edges, (size_t)nt * 3, sizeof *edges, cmp_edge);
        for (int i = 0; i + 1 < 3 * nt; i += 2) {
            const dedge *e1 = &edges[i], *e2 = &edges[i + 1];
            /* e1 is p -> q in its triangle, e2 is q -> p */
            int ip = e1->from, iq = ip == e1->lo ? e1->hi : e1->lo;
            const double *p = v + 3 * ip, *q = v + 3 * iq;
            const double *a = nrm + 3 * e1->tri, *n2 = nrm + 3 * e2->tri;
            double cx[3], e[3];
            cross3(a, n2, cx);
            double beta = atan2(len3(cx), dot3(a, n2));
            if (!(beta > 1e-14)) {
                continue; /* coplanar triangles: no wedge */
            }
            sub3(q, p, e);
            double l = len3(e);
            e[0] /= l, e[1] /= l, e[2] /= l;
            double b[3] = {n2[0] - dot3(a, n2) * a[0], n2[1] - dot3(a, n2) * a[1],
                           n2[2] - dot3(a, n2) * a[2]};
            double bl = len3(b);
            b[0] /= bl, b[1] /= bl, b[2] /= bl;
            double sb = sin(beta), cb = cos(beta), s2b = sin(2.0 * beta);
            double s0 = beta * r * r / 2.0;
            double s1[3];
            for (int k = 0; k < 3; k++) {
                s1[k] = r * r * r / 3.0 * (sb * a[k] + (1.0 - cb) * b[k]);
            }
            double r4 = r * r * r * r / 4.0;
            double l1 = l * l / 2.0, l2 = l * l * l / 3.0, vw = l * s0;
            out->v += vw;
            for (int k = 0; k < 3; k++) {
                out->m[k] += p[k] * vw + e[k] * l1 * s0 + l * s1[k];
            }
            add_outer(out, vw, p, p);
            add_outer(out, l1 * s0, p, e);
            add_outer(out, l1 * s0, e, p);
            add_outer(out, l, p, s1);
            add_outer(out, l, s1, p);
            add_outer(out, l2 * s0, e, e);
            add_outer(out, l1, e, s1);
            add_outer(out, l1, s1, e);
            add_outer(out, l * r4 * (beta / 2.0 + s2b / 4.0), a, a);
            add_outer(out, l * r4 * (beta / 2.0 - s2b / 4.0), b, b);
            add_outer(out, l * r4 * sb * sb / 2.0, a, b);
            add_outer(out, l * r4 * sb * sb / 2.0, b, a);
            /* the edge's share of int_N w at both ends */
            for (int k = 0; k < 3; k++) {
                mv[3 * ip + k] -= 0.5 * beta * e[k];
                mv[3 * iq + k] += 0.5 * beta * e[k];
            }
        }
        double r3 = r * r * r / 3.0, r4 = r * r * r * r / 4.0;
        for (int i = 0; i < nv; i++) {
            const double *p = v + 3 * i, *m = mv + 3 * i;
            double vv = r3 * defect[i];
            out->v += vv;
            for (int k = 0; k < 3; k++) {
                out->m[k] += p[k] * vv + r4 * m[k];
            }
            add_outer(out, vv, p, p);
            add_outer(out, r4, p, m);
            add_outer(out, r4, m, p);
        }
        double g = 4.0 * IMP_PI * r * r * r * r * r / 15.0;
        for (int k = 0; k < 3; k++) {
            out->j[k][k] += g;
        }
    }
    free(nrm), free(defect), free(mv), free(edges);
    return 0;
}

imp_shape *imp_shape3d_convex(const double *points, int n, double r, int *status)
{
    int dummy;
    if (status == NULL) {
        status = &dummy;
    }
    if (!(r >= 0.0) || !isfinite(r)) {
        *status = IMP_S3_EBADARG;
        return NULL;
    }
    imp_hull3d h;
    int st = imp_hull3d_build(points, n, &h);
    if (st != IMP_HULL_OK) {
        *status = st == IMP_HULL_ENOMEM ? IMP_S3_ENOMEM : (st == IMP_HULL_EBADARG ? IMP_S3_EBADARG : IMP_S3_EFLAT);
        return NULL;
    }
    /* local coordinates about the vertex mean */
    double c0[3] = {0, 0, 0};
    for (int i = 0; i < h.nvert; i++) {
        for (int k = 0; k < 3; k++) {
            c0[k] += h.vert[3 * i + k] / h.nvert;
        }
    }
    double *loc = malloc((size_t)h.nvert * 3 * sizeof(double));
    acc a;
    if (loc == NULL) {
        imp_hull3d_free(&h);
        *status = IMP_S3_ENOMEM;
        return NULL;
    }
    for (int i = 0; i < 3 * h.nvert; i++) {
        loc[i] = h.vert[i] - c0[i % 3];
    }
    st = hull_moments(loc, h.nvert, h.tri, h.ntri, r, &a);
    free(loc);
    imp_convex3d *c;
    imp_shape *s = st == 0 ? imp_shape3d_alloc(IMP_S3_CONVEX, &c) : NULL;
    if (s == NULL) {
        imp_hull3d_free(&h);
        *status = IMP_S3_ENOMEM;
        return NULL;
    }
    c->sweep = r;
    c->nvert = h.nvert;
    c->vert = h.vert;
    c->ntri = h.ntri;
    c->tri = h.tri;
    const double cl[3] = {a.m[0] / a.v, a.m[1] / a.v, a.m[2] / a.v};
    double jc[3][3];
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 3; k++) {
            jc[i][k] = 0.5 * (a.j[i][k] + a.j[k][i]) - a.v * cl[i] * cl[k];
        }
    }
    double tr = jc[0][0] + jc[1][1] + jc[2][2];
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 3; k++) {
            s->inertia.m[i][k] = (i == k ? tr : 0.0) - jc[i][k];
        }
        s->centroid[i] = c0[i] + cl[i];
    }
    s->measure = a.v;
    double rad = 0.0;
    for (int i = 0; i < c->nvert; i++) {
        double d[3];
        sub3(c->vert + 3 * i, s->centroid, d);
        rad = fmax(rad, len3(d));
    }
    s->radius = rad + r;
    c->scale = s->radius;
    if (r == 0.0) {
        c->faces = imp_polyfaces_from_hull(c); /* NULL when out of memory: no polyhedral queries */
    }
    *status = IMP_S3_OK;
    return s;
}
