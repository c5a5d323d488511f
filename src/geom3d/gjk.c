/* gjk.c: Gilbert-Johnson-Keerthi distance (Gilbert, Johnson, Keerthi, IEEE J. Robotics and
   Automation 4(2), 1988), with the closest point of each simplex found by Voronoi-region tests
   (projections and signed areas, after Montanari et al. 2017) instead of Johnson's
   sub-algorithm, and van den Bergen's duality-gap stopping rule
   (|v|^2 - v.w <= tol |v|, "A fast and robust GJK implementation", JGT 1999). */
#include "gjk.h"

#include <math.h>

typedef struct simplex {
    imp_vec3 w[4], a[4], b[4];
    double l[4]; /* barycentric coordinates of the closest point */
    int n;
} simplex;

static void keep(simplex *s, const int *idx, const double *lam, int n)
{
    simplex t = *s;
    for (int i = 0; i < n; i++) {
        s->w[i] = t.w[idx[i]];
        s->a[i] = t.a[idx[i]];
        s->b[i] = t.b[idx[i]];
        s->l[i] = lam[i];
    }
    s->n = n;
}

/* closest point of segment (i0, i1) of s to the origin */
static double segment(const simplex *s, int i0, int i1, int *idx, double *lam, int *n)
{
    imp_vec3 a = s->w[i0], ab = imp_v3_sub(s->w[i1], a);
    double den = imp_v3_len2(ab), t = den > 0.0 ? -imp_v3_dot(a, ab) / den : 0.0;
    if (t <= 0.0) {
        idx[0] = i0, lam[0] = 1.0, *n = 1;
        return imp_v3_len2(a);
    }
    if (t >= 1.0) {
        idx[0] = i1, lam[0] = 1.0, *n = 1;
        return imp_v3_len2(s->w[i1]);
    }
    idx[0] = i0, idx[1] = i1, lam[0] = 1.0 - t, lam[1] = t, *n = 2;
    return imp_v3_len2(imp_v3_madd(a, t, ab));
}

/* closest point of triangle (i0, i1, i2) of s to the origin: the projection of the origin on
   the plane with barycentric coordinates from signed areas in the coordinate plane where the
   triangle is largest (Montanari, Petrinic, Barbieri, "Improving the GJK algorithm for faster
   and more reliable distance queries between convex objects", ACM TOG 36(3), 2017), which
   stays accurate for the thin triangles GJK builds on curved surfaces; else the best edge. */
static double triangle(const simplex *s, int i0, int i1, int i2, int *idx, double *lam, int *n)
{
    imp_vec3 a = s->w[i0], b = s->w[i1], c = s->w[i2];
    imp_vec3 nn = imp_v3_cross(imp_v3_sub(b, a), imp_v3_sub(c, a));
    double nl2 = imp_v3_len2(nn);
    if (nl2 > 0.0) {
        imp_vec3 p = imp_v3_scale(nn, imp_v3_dot(a, nn) / nl2);
        int k = fabs(nn.x) >= fabs(nn.y) && fabs(nn.x) >= fabs(nn.z) ? 0 : (fabs(nn.y) >= fabs(nn.z) ? 1 : 2);
        int u = (k + 1) % 3, v = (k + 2) % 3;
        double pu = imp_v3_get(p, u), pv = imp_v3_get(p, v);
        double au = imp_v3_get(a, u) - pu, av = imp_v3_get(a, v) - pv;
        double bu = imp_v3_get(b, u) - pu, bv = imp_v3_get(b, v) - pv;
        double cu = imp_v3_get(c, u) - pu, cv = imp_v3_get(c, v) - pv;
        double c0 = bu * cv - bv * cu, c1 = cu * av - cv * au, c2 = au * bv - av * bu;
        double tot = c0 + c1 + c2;
        if (tot != 0.0 && c0 * tot > 0.0 && c1 * tot > 0.0 && c2 * tot > 0.0) {
            idx[0] = i0, idx[1] = i1, idx[2] = i2;
            lam[0] = c0 / tot, lam[1] = c1 / tot, lam[2] = c2 / tot, *n = 3;
            return imp_v3_len2(p);
        }
    }
    /* the closest point is on the boundary: best of the three edges, copied to the outputs
       as it is found (*n stays 0 only if no edge distance compares below INFINITY) */
    const int e[3][2] = {{i0, i1}, {i1, i2}, {i2, i0}};
    double best = INFINITY;
    *n = 0;
    for (int k = 0; k < 3; k++) {
        int ei[2], en;
        double el[2];
        double d2 = segment(s, e[k][0], e[k][1], ei, el, &en);
        if (d2 < best) {
            best = d2;
            *n = en;
            for (int q = 0; q < en; q++) {
                idx[q] = ei[q], lam[q] = el[q];
            }
        }
    }
    return best;
}

/* reduces s to the smallest sub-simplex holding its closest point to the origin; returns 1
   when the origin is inside the tetrahedron */
static int solve(simplex *s)
{
    int idx[4], n;
    double lam[4];
    if (s->n == 1) {
        s->l[0] = 1.0;
        return 0;
    }
    if (s->n == 2) {
        segment(s, 0, 1, idx, lam, &n);
        keep(s, idx, lam, n);
        return 0;
    }
    if (s->n == 3) {
        triangle(s, 0, 1, 2, idx, lam, &n);
        keep(s, idx, lam, n);
        return 0;
    }
    /* tetrahedron: faces whose plane separates the origin from the opposite vertex */
    static const int face[4][4] = {{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {1, 3, 2, 0}};
    double best = INFINITY;
    int bidx[3] = {0, 0, 0}, bn = 0, outside = 0;
    double blam[3] = {1.0, 0.0, 0.0};
    /* a nearly flat tetrahedron cannot be trusted to hold the origin: use its faces */
    double e2 = 0.0;
    for (int i = 0; i < 4; i++) {
        for (int k = i + 1; k < 4; k++) {
            e2 = fmax(e2, imp_v3_len2(imp_v3_sub(s->w[i], s->w[k])));
        }
    }
    double vol6 = imp_v3_dot(imp_v3_sub(s->w[1], s->w[0]),
                             imp_v3_cross(imp_v3_sub(s->w[2], s->w[0]), imp_v3_sub(s->w[3], s->w[0])));
    int flat = !(fabs(vol6) > 1e-9 * e2 * sqrt(e2));
    for (int f = 0; f < 4; f++) {
        imp_vec3 a = s->w[face[f][0]], b = s->w[face[f][1]], c = s->w[face[f][2]], d = s->w[face[f][3]];
        imp_vec3 nn = imp_v3_cross(imp_v3_sub(b, a), imp_v3_sub(c, a));
        double so = -imp_v3_dot(nn, a), sd = imp_v3_dot(nn, imp_v3_sub(d, a));
        if (flat || (so * sd <= 0.0 && !(so == 0.0 && sd != 0.0))) {
            outside = 1;
            int fi[3];
            double fl[3];
            int fn;
            double d2 = triangle(s, face[f][0], face[f][1], face[f][2], fi, fl, &fn);
            if (d2 < best) {
                best = d2;
                bn = fn;
                for (int k = 0; k < fn; k++) {
                    bidx[k] = fi[k], blam[k] = fl[k];
                }
            }
        }
    }
    if (!outside) { /* barycentric coordinates of the origin by signed volumes */
        imp_vec3 a = s->w[0], b = s->w[1], c = s->w[2], d = s->w[3];
        double vol = imp_v3_dot(imp_v3_sub(b, a), imp_v3_cross(imp_v3_sub(c, a), imp_v3_sub(d, a)));
        double l1 = imp_v3_dot(imp_v3_neg(a), imp_v3_cross(imp_v3_sub(c, a), imp_v3_sub(d, a))) / vol;
        double l2 = imp_v3_dot(imp_v3_sub(b, a), imp_v3_cross(imp_v3_neg(a), imp_v3_sub(d, a))) / vol;
        double l3 = imp_v3_dot(imp_v3_sub(b, a), imp_v3_cross(imp_v3_sub(c, a), imp_v3_neg(a))) / vol;
        s->l[0] = 1.0 - l1 - l2 - l3, s->l[1] = l1, s->l[2] = l2, s->l[3] = l3;
        return 1;
    }
    keep(s, bidx, blam, bn);
    return 0;
}

static void points(const simplex *s, imp_vec3 *pa, imp_vec3 *pb, imp_vec3 *v)
{
    *pa = *pb = imp_v3_zero();
    for (int i = 0; i < s->n; i++) {
        *pa = imp_v3_madd(*pa, s->l[i], s->a[i]);
        *pb = imp_v3_madd(*pb, s->l[i], s->b[i]);
    }
    *v = imp_v3_sub(*pa, *pb);
}

void imp_gjk(const imp_mink3d *m, double tol, double tol_overlap, int max_iter, imp_gjk_result *out)
{
    simplex s;
    /* start from the difference of the interior points: a point of A - B */
    s.n = 1;
    s.a[0] = m->a->centre;
    s.b[0] = m->b->centre;
    s.w[0] = imp_v3_sub(s.a[0], s.b[0]);
    s.l[0] = 1.0;
    imp_vec3 v = s.w[0];
    int it;
    out->status = IMP_GJK_MAXITER;
    for (it = 0; it < max_iter; it++) {
        double vv = imp_v3_len2(v);
        if (vv <= tol_overlap * tol_overlap) {
            out->status = IMP_GJK_OVERLAP;
            break;
        }
        imp_vec3 pa, pb, w = imp_mink3d_support(m, imp_v3_neg(v), &pa, &pb);
        if (vv - imp_v3_dot(v, w) <= tol * sqrt(vv)) {
            out->status = IMP_GJK_SEPARATED;
            break;
        }
        int dup = 0;
        for (int i = 0; i < s.n; i++) {
            dup |= imp_v3_len2(imp_v3_sub(w, s.w[i])) <= 1e-30 * (1.0 + imp_v3_len2(w));
        }
        /* a stall (repeated support point, no decrease of |v|) proves separation only when
           the plane normal to v through w separates: v.w > 0; else hand over as overlap */
        double lower = imp_v3_dot(v, w);
        if (dup) {
            out->status = lower > 0.0 ? IMP_GJK_SEPARATED : IMP_GJK_OVERLAP;
            break;
        }
        simplex prev = s;
        s.w[s.n] = w, s.a[s.n] = pa, s.b[s.n] = pb;
        s.n++;
        if (solve(&s)) {
            out->status = IMP_GJK_OVERLAP;
            break;
        }
        imp_vec3 qa, qb, nv;
        points(&s, &qa, &qb, &nv);
        if (imp_v3_len2(nv) >= vv) { /* no progress: rounding floor reached */
            s = prev;
            out->status = lower > 0.0 ? IMP_GJK_SEPARATED : IMP_GJK_OVERLAP;
            break;
        }
        v = nv;
    }
    points(&s, &out->pa, &out->pb, &v);
    out->distance = imp_v3_len(v); /* an upper bound; small or 0 when overlapping */
    out->iterations = it + 1;
}
