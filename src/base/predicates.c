/* predicates.c: adaptive exact orientation (see predicates.h; Shewchuk 1997 for the method:
   error-free transformations, expansions, and the error bound of the filter). Own code.

   Error-free transformations (round to nearest, no overflow; the build uses
   -ffp-contract=off, so no multiply-add is fused behind our back):
   - two_sum (Knuth): x = fl(a + b) and y with a + b = x + y exactly;
   - two_product (Dekker, with Veltkamp's split of a double into two 26-bit halves):
     x = fl(a b) and y with a b = x + y exactly.
   An expansion is an array of doubles, non-overlapping and increasing in magnitude, whose
   exact sum is the value; grow() adds one double to it exactly (Shewchuk's Grow-Expansion,
   dropping zero components), so the last component carries the sign of the whole. */
#include "predicates.h"

#include <math.h>

static void two_sum(double a, double b, double *x, double *y)
{
    double s = a + b, bv = s - a, av = s - bv;
    *x = s;
    *y = (a - av) + (b - bv);
}

static void split(double a, double *hi, double *lo)
{
    double c = 134217729.0 * a; /* 2^27 + 1 */
    double big = c - a;
    *hi = c - big;
    *lo = a - *hi;
}

static void two_product(double a, double b, double *x, double *y)
{
    double p = a * b, ah, al, bh, bl;
    split(a, &ah, &al);
    split(b, &bh, &bl);
    double e1 = p - ah * bh, e2 = e1 - al * bh, e3 = e2 - ah * bl;
    *x = p;
    *y = al * bl - e3;
}

/* e (n components) += b exactly; returns the new length (at most n + 1) */
static int grow(double *e, int n, double b)
{
    double q = b;
    int m = 0;
    for (int i = 0; i < n; i++) {
        double h;
        two_sum(q, e[i], &q, &h);
        if (h != 0.0) {
            e[m++] = h;
        }
    }
    if (q != 0.0) {
        e[m++] = q;
    }
    return m;
}

/* the value of an expansion, rounded: summed from the smallest component, so it has the sign
   of the largest (the others sum to less than it in magnitude) */
static double estimate(const double *e, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        s += e[i];
    }
    return s;
}

static void two_diff(double a, double b, double *x, double *y)
{
    double s = a - b, bv = a - s, av = s + bv;
    *x = s;
    *y = (a - av) + (bv - b);
}

/* e += x * y * z exactly (up to four doubles; nothing when a factor is 0); the new length */
static int add_triple(double *e, int n, double x, double y, double z)
{
    if (x == 0.0 || y == 0.0 || z == 0.0) {
        return n;
    }
    double h, l, h1, h0, l1, l0;
    two_product(x, y, &h, &l);
    two_product(h, z, &h1, &h0);
    n = grow(e, n, h0);
    n = grow(e, n, h1);
    if (l != 0.0) {
        two_product(l, z, &l1, &l0);
        n = grow(e, n, l0);
        n = grow(e, n, l1);
    }
    return n;
}

/* e += det[p; q; r] (rows) exactly: six triple products */
static int add_det3(double *e, int n, const double *p, const double *q, const double *r)
{
    n = add_triple(e, n, p[0], q[1], r[2]);
    n = add_triple(e, n, -p[0], q[2], r[1]);
    n = add_triple(e, n, -p[1], q[0], r[2]);
    n = add_triple(e, n, p[1], q[2], r[0]);
    n = add_triple(e, n, p[2], q[0], r[1]);
    return add_triple(e, n, -p[2], q[1], r[0]);
}

static double det3(const double *p, const double *q, const double *r)
{
    return p[0] * (q[1] * r[2] - q[2] * r[1]) + p[1] * (q[2] * r[0] - q[0] * r[2]) + p[2] * (q[0] * r[1] - q[1] * r[0]);
}

static int is_zero3(const double *v) { return v[0] == 0.0 && v[1] == 0.0 && v[2] == 0.0; }

#define EPS 1.1102230246251565e-16 /* 2^-53: half an ulp of 1, the unit roundoff */

/* det[p; q; r] in double-double: each triple product x y z as q + lo with two error-free
   products (x y = p + pe, p z = q + qe, lo = qe + pe z: off by at most about 3 EPS^2 |x y z|),
   the q summed error-free (two_sum) and the errors with the lo in plain floating point (off by
   at most about 16 EPS^2 perm, perm = sum of |x y z|). *hi + *lo is within 20 EPS^2 perm of
   the determinant. */
static void det3_dd(const double *p, const double *q, const double *r, double *hi, double *lo)
{
    double ph[3], pl[3], qh[3], ql[3], rh[3], rl[3]; /* each coordinate split once */
    for (int k = 0; k < 3; k++) {
        split(p[k], &ph[k], &pl[k]);
        split(q[k], &qh[k], &ql[k]);
        split(r[k], &rh[k], &rl[k]);
    }
    /* the six terms: sign, and the coordinate index in p, q, r */
    static const int ip[6] = {0, 0, 1, 1, 2, 2}, iq[6] = {1, 2, 0, 2, 0, 1}, ir[6] = {2, 1, 2, 0, 1, 0};
    static const double sg[6] = {1, -1, -1, 1, 1, -1};
    double s = 0.0, l = 0.0;
    for (int i = 0; i < 6; i++) {
        int a = ip[i], b = iq[i], c = ir[i];
        double pr = p[a] * q[b]; /* Dekker's product with the halves already split */
        double pe = pl[a] * ql[b] - (((pr - ph[a] * qh[b]) - pl[a] * qh[b]) - ph[a] * ql[b]);
        double prh, prl;
        split(pr, &prh, &prl);
        double qq = pr * r[c];
        double qe = prl * rl[c] - (((qq - prh * rh[c]) - prl * rh[c]) - prh * rl[c]);
        double e, t = sg[i] * qq;
        two_sum(s, t, &s, &e);
        l += e + sg[i] * (qe + pe * r[c]);
    }
    *hi = s;
    *lo = l;
}

/* The rows u = b - a, v = c - a, w = d - a are split exactly into rounded heads and tails
   (two_diff: |tail| <= EPS |head|); det[u; v; w] is multilinear, so it is the sum of the
   determinants of the eight choices of head or tail per row.
   Stage B: the heads' determinant in double-double plus the three first-order tail
   determinants in floating point; what is neglected (the second- and third-order tail terms,
   below 3.1 EPS^2 perm) and the rounding (below about 20 EPS^2 perm for the heads and 15 EPS^2
   perm for the first-order terms, perm: the permanent of the heads' absolute values) stay
   below 40 EPS^2 perm; the test uses 256 EPS^2 perm plus 4 EPS of the result (a margin of six).
   This settles every case but near-exact ties (|det| below about 1e-29 perm).
   Stage D: all eight determinants exactly, as one expansion. exact = 1 skips stage B. */
static double orient3d_adapt(const double *a, const double *b, const double *c, const double *d, int exact)
{
    double h[3][3], t[3][3];
    const double *row[3] = {b, c, d};
    for (int r = 0; r < 3; r++) {
        for (int k = 0; k < 3; k++) {
            two_diff(row[r][k], a[k], &h[r][k], &t[r][k]);
        }
    }
    if (!exact) {
        double perm = fabs(h[0][0]) * (fabs(h[1][1] * h[2][2]) + fabs(h[1][2] * h[2][1])) +
                      fabs(h[0][1]) * (fabs(h[1][2] * h[2][0]) + fabs(h[1][0] * h[2][2])) +
                      fabs(h[0][2]) * (fabs(h[1][0] * h[2][1]) + fabs(h[1][1] * h[2][0]));
        double hi, lo;
        det3_dd(h[0], h[1], h[2], &hi, &lo);
        double t1 = det3(t[0], h[1], h[2]) + det3(h[0], t[1], h[2]) + det3(h[0], h[1], t[2]);
        double det = hi + (lo + t1);
        double bound = 256.0 * EPS * EPS * perm + 4.0 * EPS * fabs(det);
        if (det > bound || -det > bound) {
            return det;
        }
    }
    double e[200];
    int n = 0;
    for (int mask = 0; mask < 8; mask++) { /* stage D */
        const double *p = (mask & 1) ? t[0] : h[0], *q = (mask & 2) ? t[1] : h[1], *r = (mask & 4) ? t[2] : h[2];
        if (((mask & 1) && is_zero3(p)) || ((mask & 2) && is_zero3(q)) || ((mask & 4) && is_zero3(r))) {
            continue;
        }
        n = add_det3(e, n, p, q, r);
    }
    return estimate(e, n);
}

double imp_orient3d_exact(const double *a, const double *b, const double *c, const double *d)
{
    return orient3d_adapt(a, b, c, d, 1);
}

double imp_orient3d(const double *a, const double *b, const double *c, const double *d)
{
    double ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2];
    double vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
    double wx = d[0] - a[0], wy = d[1] - a[1], wz = d[2] - a[2];
    double p1 = vy * wz, p2 = vz * wy, p3 = vz * wx, p4 = vx * wz, p5 = vx * wy, p6 = vy * wx;
    double det = ux * (p1 - p2) + uy * (p3 - p4) + uz * (p5 - p6);
    double perm = fabs(ux) * (fabs(p1) + fabs(p2)) + fabs(uy) * (fabs(p3) + fabs(p4)) +
                  fabs(uz) * (fabs(p5) + fabs(p6));
    /* Stage A. Shewchuk's bound for this evaluation order is (7 + 56 EPS) EPS perm (the
       differences rounded once each, the products and sums once each); 8 EPS leaves a margin.
       A tiny permanent (underflow would void the bounds) goes to the exact stage. */
    double bound = 8.0 * EPS * perm;
    if ((det > bound || -det > bound) && perm > 1e-250) {
        return det;
    }
    return orient3d_adapt(a, b, c, d, !(perm > 1e-250));
}

int imp_sum_sign(const double *x, int n)
{
    double e[257];
    int m = 0;
    for (int i = 0; i < n && i < 256; i++) {
        m = grow(e, m, x[i]);
    }
    if (m == 0) {
        return 0;
    }
    return e[m - 1] > 0.0 ? 1 : -1;
}
