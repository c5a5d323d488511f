/* test_dem_clump.c: mass properties of clumps of spheres against answers found independently:
   closed forms for separate spheres and for the lens of two overlapping spheres, and a 1D
   integration over slices for collinear members (whose union is a solid of revolution). */
#include "check.h"

#include "dem.h"
#include "scalar.h"

static double ball(double r) { return 4.0 / 3.0 * IMP_PI * r * r * r; }

/* two separate spheres on the x axis: sum with the parallel-axis theorem */
TEST(separate_pair)
{
    double c[6] = {1.0, 2.0, 3.0, 4.0, 2.0, 3.0}, r[2] = {1.0, 0.5};
    imp_dem_mass m;
    CHECK(imp_dem_clump_mass(c, r, 2, IMP_DEM_MASS_AUTO, &m) == 0);
    CHECK(m.method == IMP_DEM_MASS_EXACT);
    double v1 = ball(1.0), v2 = ball(0.5), v = v1 + v2;
    double gx = (v1 * 1.0 + v2 * 4.0) / v;
    CHECK_CLOSE(m.volume, v, 1e-15, 0);
    CHECK_CLOSE(m.centroid[0], gx, 1e-15, 0);
    CHECK_CLOSE(m.centroid[1], 2.0, 1e-15, 0);
    double d1 = 1.0 - gx, d2 = 4.0 - gx;
    double ixx = 0.4 * (v1 * 1.0 + v2 * 0.25);
    double iyy = ixx + v1 * d1 * d1 + v2 * d2 * d2;
    CHECK_CLOSE(m.inertia.m[0][0], ixx, 1e-14, 0);
    CHECK_CLOSE(m.inertia.m[1][1], iyy, 1e-14, 0);
    CHECK_CLOSE(m.inertia.m[2][2], iyy, 1e-14, 0);
    CHECK_NEAR(m.inertia.m[0][1], 0.0, 1e-14);
}

/* the lens of two spheres (r1, r2, centres d apart): V = pi (r1 + r2 - d)^2 (d^2 + 2 d r2 -
   3 r2^2 + 2 d r1 + 6 r1 r2 - 3 r1^2) / (12 d) */
static double lens_volume(double r1, double r2, double d)
{
    double t = r1 + r2 - d;
    return IMP_PI * t * t * (d * d + 2 * d * r2 - 3 * r2 * r2 + 2 * d * r1 + 6 * r1 * r2 - 3 * r1 * r1)
           / (12 * d);
}

/* Solid of revolution about x: slices of radius rho(x) = max_i sqrt(r_i^2 - (x - c_i)^2).
   Volume, x centroid and the two moments about the centroid by composite Simpson on pieces
   between the breakpoints (sphere ends and circle crossings) with the variable change
   x = a + (b - a) (1 - cos t) / 2 near ends, fine enough for 1e-9 here. */
typedef struct rev {
    double v, gx, ixx, iyy;
} rev;

static double rho2(const double *cx, const double *r, int n, double x)
{
    double best = 0.0;
    for (int i = 0; i < n; i++) {
        double h = r[i] * r[i] - (x - cx[i]) * (x - cx[i]);
        best = h > best ? h : best;
    }
    return best;
}

static rev revolve(const double *cx, const double *r, int n)
{
    double br[64];
    int nb = 0;
    for (int i = 0; i < n; i++) {
        br[nb++] = cx[i] - r[i];
        br[nb++] = cx[i] + r[i];
        for (int j = i + 1; j < n; j++) {  /* where the two circles' slices are equal */
            double d = cx[j] - cx[i];
            if (d != 0.0) {
                br[nb++] = cx[i] + (d * d + r[i] * r[i] - r[j] * r[j]) / (2 * d);
            }
        }
    }
    for (int i = 1; i < nb; i++) {  /* sort */
        for (int j = i; j > 0 && br[j - 1] > br[j]; j--) {
            double t = br[j];
            br[j] = br[j - 1];
            br[j - 1] = t;
        }
    }
    double m0 = 0, m1 = 0, m2 = 0, p4 = 0;
    for (int k = 0; k + 1 < nb; k++) {
        double a = br[k], b = br[k + 1];
        if (!(b > a)) {
            continue;
        }
        int steps = 20000;
        for (int s = 0; s <= steps; s++) {
            /* x = a + (b - a)(1 - cos t)/2, t in [0, pi]: clusters points at both ends */
            double t = IMP_PI * s / steps, x = a + (b - a) * 0.5 * (1 - cos(t));
            double jac = (b - a) * 0.5 * sin(t) * IMP_PI / steps;
            double w = (s == 0 || s == steps) ? 1.0 : (s % 2 ? 4.0 : 2.0);
            double q = rho2(cx, r, n, x), area = IMP_PI * q;
            m0 += w * jac * area / 3;
            m1 += w * jac * area * x / 3;
            m2 += w * jac * area * x * x / 3;
            p4 += w * jac * IMP_PI * q * q / 2 / 3;  /* polar moment of the slice */
        }
    }
    rev o;
    o.v = m0;
    o.gx = m1 / m0;
    o.ixx = p4;
    o.iyy = p4 / 2 + (m2 - m0 * o.gx * o.gx);
    return o;
}

/* two overlapping spheres: exact lenses (against the closed-form lens volume and the slice
   integration), and the grid method against them (the accuracy stated in dem_clump_mass.c) */
TEST(overlapping_pair)
{
    double c[6] = {0.0, 0.0, 0.0, 1.5, 0.0, 0.0}, r[2] = {1.0, 0.8};
    imp_dem_mass m, g;
    CHECK(imp_dem_clump_mass(c, r, 2, IMP_DEM_MASS_AUTO, &m) == 0);
    CHECK(m.method == IMP_DEM_MASS_LENSES);
    CHECK_CLOSE(m.volume, ball(1.0) + ball(0.8) - lens_volume(1.0, 0.8, 1.5), 1e-14, 0);
    double cx[2] = {0.0, 1.5};
    rev o = revolve(cx, r, 2);
    CHECK_CLOSE(m.volume, o.v, 1e-9, 0);
    CHECK_CLOSE(m.centroid[0], o.gx, 1e-9, 0);
    CHECK_CLOSE(m.inertia.m[0][0], o.ixx, 1e-9, 0);
    CHECK_CLOSE(m.inertia.m[1][1], o.iyy, 1e-9, 0);
    CHECK_CLOSE(m.inertia.m[2][2], o.iyy, 1e-9, 0);
    /* the same pair, rotated off the axes: invariants (trace, volume) */
    double c2[6] = {0.3, -0.2, 0.1, 0.3 + 1.5 * 0.6, -0.2 + 1.5 * 0.8, 0.1}, tr;
    CHECK(imp_dem_clump_mass(c2, r, 2, IMP_DEM_MASS_AUTO, &g) == 0);
    tr = g.inertia.m[0][0] + g.inertia.m[1][1] + g.inertia.m[2][2];
    CHECK_CLOSE(g.volume, m.volume, 1e-14, 0);
    CHECK_CLOSE(tr, o.ixx + 2 * o.iyy, 1e-9, 0);
    /* the grid on the same pair */
    CHECK(imp_dem_clump_mass(c, r, 2, IMP_DEM_MASS_GRID, &g) == 0);
    CHECK(g.method == IMP_DEM_MASS_GRID);
    CHECK_CLOSE(g.volume, m.volume, 2e-6, 0);
    CHECK_CLOSE(g.centroid[0], m.centroid[0], 2e-6, 0);
    CHECK_CLOSE(g.inertia.m[0][0], m.inertia.m[0][0], 1e-5, 0);
    CHECK_CLOSE(g.inertia.m[1][1], m.inertia.m[1][1], 1e-5, 0);
    CHECK_NEAR(g.inertia.m[0][1], 0.0, 1e-5 * m.inertia.m[1][1]);
    /* two equal spheres one radius apart */
    double e[6] = {0.0, 0.0, 0.0, 1.0, 0.0, 0.0}, re[2] = {1.0, 1.0};
    CHECK(imp_dem_clump_mass(e, re, 2, IMP_DEM_MASS_AUTO, &m) == 0);
    CHECK(imp_dem_clump_mass(e, re, 2, IMP_DEM_MASS_GRID, &g) == 0);
    CHECK_CLOSE(m.volume, 2 * ball(1.0) - lens_volume(1.0, 1.0, 1.0), 1e-14, 0);
    CHECK_CLOSE(g.volume, m.volume, 2e-6, 0);
    CHECK_CLOSE(g.inertia.m[0][0], m.inertia.m[0][0], 1e-5, 0);
    CHECK_CLOSE(g.inertia.m[1][1], m.inertia.m[1][1], 1e-5, 0);
}

/* a member inside another: the union is the big one; the same member twice: one member */
TEST(contained_and_duplicate)
{
    double c[6] = {0.0, 0.0, 0.0, 0.2, 0.1, 0.0}, r[2] = {1.0, 0.5};
    imp_dem_mass m;
    CHECK(imp_dem_clump_mass(c, r, 2, IMP_DEM_MASS_AUTO, &m) == 0);
    CHECK_CLOSE(m.volume, ball(1.0), 1e-14, 0);
    CHECK_NEAR(m.centroid[0], 0.0, 1e-14);
    CHECK_CLOSE(m.inertia.m[1][1], 0.4 * ball(1.0), 1e-14, 0);
    double d[6] = {1.0, 1.0, 1.0, 1.0, 1.0, 1.0}, rr[2] = {0.5, 0.5};
    CHECK(imp_dem_clump_mass(d, rr, 2, IMP_DEM_MASS_AUTO, &m) == 0);
    CHECK_CLOSE(m.volume, ball(0.5), 1e-14, 0);
    CHECK_CLOSE(m.centroid[2], 1.0, 1e-15, 0);
    CHECK(imp_dem_clump_shape(d, rr, 0) == NULL);
    double bad[1] = {-1.0};
    CHECK(imp_dem_clump_shape(d, bad, 1) == NULL);
}

/* three collinear members that all overlap (a point lies in all three): the grid, against
   the slice integration of the solid of revolution */
TEST(triple_overlap_grid)
{
    double c[9] = {0.0, 0.0, 0.0, 0.7, 0.0, 0.0, 1.3, 0.0, 0.0}, r[3] = {1.0, 0.7, 0.9};
    imp_dem_mass m;
    CHECK(imp_dem_clump_mass(c, r, 3, IMP_DEM_MASS_AUTO, &m) == 0);
    CHECK(m.method == IMP_DEM_MASS_GRID);
    double cx[3] = {0.0, 0.7, 1.3};
    rev o = revolve(cx, r, 3);
    CHECK_CLOSE(m.volume, o.v, 2e-6, 0);
    CHECK_CLOSE(m.centroid[0], o.gx, 2e-6, 0);
    CHECK_CLOSE(m.inertia.m[0][0], o.ixx, 1e-5, 0);
    CHECK_CLOSE(m.inertia.m[1][1], o.iyy, 1e-5, 0);
    CHECK_CLOSE(m.inertia.m[2][2], o.iyy, 1e-5, 0);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(separate_pair);
    RUN(overlapping_pair);
    RUN(contained_and_duplicate);
    RUN(triple_overlap_grid);
    return CHECK_END("dem_clump");
}
