/* shape3d_mass.c: exact volumes, centroids and inertia tensors of sphere-swept solids.

   Solids of revolution (cylinder, capsule, cone, rounded or not). The Minkowski sum of a solid
   of revolution and a ball is the solid of revolution of the 2D offset of its meridian section,
   so each solid is described by pieces of its half-section (rho >= 0): convex polygons and
   circular sectors (the offset of a convex polygon = polygon + a strip on every edge + a sector
   at every vertex between the normals of its two edges). With dV = 2 pi rho drho dz:
     V = 2 pi  int rho,  int z dV = 2 pi int rho z,  int z^2 dV = 2 pi int rho z^2,
     int rho^2 dV = 2 pi int rho^3                       (integrals over the half-section),
   and by axial symmetry Ixx = Iyy = 1/2 int rho^2 dV + int z^2 dV, Izz = int rho^2 dV (about
   the origin, then moved to the centroid with Steiner's rule along z).
   Polygon integrals: Green's theorem, int int rho^k z^m = oint rho^(k+1) z^m / (k+1) dz, each
   edge integrand a polynomial of degree <= 4 in the edge parameter, integrated exactly by
   3-point Gauss-Legendre. Sector integrals: polar coordinates about the centre,
   rho = c + t cos(th), z = c' + t sin(th), expanded in powers of t with the closed-form
   antiderivatives of cos^a sin^b (a + b <= 3) given in trig().

   Rounded box (box of half extents a_i swept by a ball of radius r). Split the solid by which
   coordinates lie outside the core range: for each subset S of the axes (k = |S|) the piece is
   prod_{i not in S} [-a_i, a_i] times the 2^k orthant pieces of a k-ball of radius r placed at
   the corners +-a_i of S; the orthant pieces together form a whole k-ball B_k. Hence
     measure(piece) = prod_{i not in S} 2 a_i * |B_k|,  |B_1| = 2r, |B_2| = pi r^2, |B_3| = 4/3 pi r^3
     int x_j^2 over piece, j not in S: (2 a_j^3 / 3) prod_{i not in S, i != j} 2 a_i * |B_k|
     int x_j^2 over piece, j in S:     prod_{i not in S} 2 a_i * (a_j^2 |B_k| + 2 a_j P_k + Q_k)
   where P_k = int_{B_k} |u_j| (r^2, 4 r^3 / 3, pi r^4 / 2) and Q_k = int_{B_k} u_j^2
   (2 r^3 / 3, pi r^4 / 4, 4 pi r^5 / 15) for k = 1, 2, 3. */
#include "shape3d_mass.h"

#include <math.h>

#include "scalar.h"

/* the integral of cos^a sin^b from t0 to t1, a + b <= 3 */
static double trig(int a, int b, double t0, double t1)
{
    double s0 = sin(t0), s1 = sin(t1), c0 = cos(t0), c1 = cos(t1);
    switch (a * 4 + b) {
    case 0: return t1 - t0;                                             /* 1 */
    case 4: return s1 - s0;                                             /* cos */
    case 1: return c0 - c1;                                             /* sin */
    case 5: return 0.5 * (s1 * s1 - s0 * s0);                           /* cos sin */
    case 8: return 0.5 * (t1 - t0) + 0.25 * (sin(2 * t1) - sin(2 * t0)); /* cos^2 */
    case 2: return 0.5 * (t1 - t0) - 0.25 * (sin(2 * t1) - sin(2 * t0)); /* sin^2 */
    case 6: return (s1 * s1 * s1 - s0 * s0 * s0) / 3.0;                 /* cos sin^2 */
    case 12: return (s1 - s1 * s1 * s1 / 3.0) - (s0 - s0 * s0 * s0 / 3.0); /* cos^3 */
    default: return 0.0;                                                /* not used */
    }
}

void imp_rev_add_sector(imp_rev_moments *m, double cr, double cz, double r, double t0, double t1)
{
    if (!(r > 0.0) || !(t1 > t0)) {
        return;
    }
    double r2 = r * r / 2.0, r3 = r * r * r / 3.0, r4 = r * r * r * r / 4.0,
           r5 = r * r * r * r * r / 5.0;
    double i00 = trig(0, 0, t0, t1), i10 = trig(1, 0, t0, t1), i01 = trig(0, 1, t0, t1);
    double i11 = trig(1, 1, t0, t1), i20 = trig(2, 0, t0, t1), i02 = trig(0, 2, t0, t1);
    double i12 = trig(1, 2, t0, t1), i30 = trig(3, 0, t0, t1);
    /* int int rho, rho z, rho z^2, rho^3 with rho = cr + t c, z = cz + t s, dA = t dt dth */
    double a_rho = cr * r2 * i00 + r3 * i10;
    double a_rz = cr * cz * r2 * i00 + cr * r3 * i01 + cz * r3 * i10 + r4 * i11;
    double a_rzz = cr * (cz * cz * r2 * i00 + 2 * cz * r3 * i01 + r4 * i02) +
                   (cz * cz * r3 * i10 + 2 * cz * r4 * i11 + r5 * i12);
    double a_r3 = cr * cr * cr * r2 * i00 + 3 * cr * cr * r3 * i10 + 3 * cr * r4 * i20 + r5 * i30;
    m->v += 2 * IMP_PI * a_rho;
    m->z1 += 2 * IMP_PI * a_rz;
    m->z2 += 2 * IMP_PI * a_rzz;
    m->r2 += 2 * IMP_PI * a_r3;
}

void imp_rev_add_polygon(imp_rev_moments *m, const double *p, int n)
{
    /* Gauss-Legendre, 3 points on [0, 1]: exact for degree 5 */
    static const double gx[3] = {0.11270166537925831148, 0.5, 0.88729833462074168852};
    static const double gw[3] = {5.0 / 18.0, 8.0 / 18.0, 5.0 / 18.0};
    double a_rho = 0, a_rz = 0, a_rzz = 0, a_r3 = 0, area2 = 0;
    for (int i = 0; i < n; i++) {
        double r0 = p[2 * i], z0 = p[2 * i + 1];
        double r1 = p[2 * ((i + 1) % n)], z1 = p[2 * ((i + 1) % n) + 1];
        double dz = z1 - z0;
        area2 += r0 * z1 - r1 * z0;
        for (int g = 0; g < 3; g++) {
            double rr = r0 + gx[g] * (r1 - r0), zz = z0 + gx[g] * dz, w = gw[g] * dz;
            /* oint rho^(k+1) z^m / (k+1) dz */
            a_rho += w * rr * rr / 2.0;
            a_rz += w * rr * rr / 2.0 * zz;
            a_rzz += w * rr * rr / 2.0 * zz * zz;
            a_r3 += w * rr * rr * rr * rr / 4.0;
        }
    }
    double sgn = area2 < 0.0 ? -1.0 : 1.0; /* clockwise input gives negated integrals */
    m->v += sgn * 2 * IMP_PI * a_rho;
    m->z1 += sgn * 2 * IMP_PI * a_rz;
    m->z2 += sgn * 2 * IMP_PI * a_rzz;
    m->r2 += sgn * 2 * IMP_PI * a_r3;
}

void imp_rev_finish(const imp_rev_moments *m, imp_shape *s)
{
    double zc = m->z1 / m->v;
    double z2c = m->z2 - m->v * zc * zc; /* int (z - zc)^2 dV */
    double ixx = 0.5 * m->r2 + z2c;
    s->measure = m->v;
    s->centroid[0] = 0.0;
    s->centroid[1] = 0.0;
    s->centroid[2] = zc;
    s->inertia = imp_m3_diag(ixx, ixx, m->r2);
}

void imp_box_moments(const double a[3], double r, double *vol, double j[3])
{
    const double ball[4] = {1.0, 2.0 * r, IMP_PI * r * r, 4.0 / 3.0 * IMP_PI * r * r * r};
    const double pk[4] = {0.0, r * r, 4.0 / 3.0 * r * r * r, IMP_PI * r * r * r * r / 2.0};
    const double qk[4] = {0.0, 2.0 / 3.0 * r * r * r, IMP_PI * r * r * r * r / 4.0,
                          4.0 / 15.0 * IMP_PI * r * r * r * r * r};
    double v = 0.0, jj[3] = {0.0, 0.0, 0.0};
    for (int set = 0; set < 8; set++) { /* bit i set: axis i is outside the core range */
        int k = (set & 1) + ((set >> 1) & 1) + ((set >> 2) & 1);
        double prod = 1.0; /* prod over axes not in S of 2 a_i */
        for (int i = 0; i < 3; i++) {
            if (!(set >> i & 1)) {
                prod *= 2.0 * a[i];
            }
        }
        v += prod * ball[k];
        for (int i = 0; i < 3; i++) {
            if (set >> i & 1) {
                jj[i] += prod * (a[i] * a[i] * ball[k] + 2.0 * a[i] * pk[k] + qk[k]);
            } else {
                double others = 1.0;
                for (int l = 0; l < 3; l++) {
                    if (l != i && !(set >> l & 1)) {
                        others *= 2.0 * a[l];
                    }
                }
                jj[i] += 2.0 * a[i] * a[i] * a[i] / 3.0 * others * ball[k];
            }
        }
    }
    *vol = v;
    j[0] = jj[0];
    j[1] = jj[1];
    j[2] = jj[2];
}
