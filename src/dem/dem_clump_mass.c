/* dem_clump_mass.c: clumps of spheres (Yade's Clump) as a shape: the member spheres in shape
   coordinates and the mass properties of their union per unit density (volume, centroid,
   inertia about the centroid).

   Overlapping members are counted once: the clump is the union of its spheres with one
   density. Summing the members' inertias (with the parallel-axis theorem) would count the
   overlap twice; Yade instead integrates the union on a grid when members overlap. Here:
     - no two members overlap: the sum of the spheres, exact;
     - members overlap in pairs only (no point inside three members; tested conservatively:
       no three members that overlap pairwise): inclusion-exclusion, the spheres minus the
       lenses of the overlapping pairs, each lens two spherical caps whose moments are
       integrated exactly (3-point Gauss-Legendre on polynomials of degree <= 4), exact to
       rounding; a member inside another counts as that member;
     - otherwise: the spheres (exact) minus the volume counted more than once, integrated on
       lines parallel to z, exactly along each line (the intervals of the members, merged) and
       by the midpoint rule over a 600 x 600 grid of lines covering the boxes of the
       overlapping pairs. Only the overlap carries the grid's error: on two equal spheres one
       radius apart the volume is within 3e-7 and the inertia within 6e-7 of the exact lens
       answer (relative), on three collinear overlapping members within 1e-6 of a separate
       integration (test/c/test_dem_clump.c checks 2e-6 and 1e-5).
   Cost: O(n^2 + pairs n) for the first two cases, O(600^2 n) for the third, once per shape. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dem.h"
#include "quat.h"
#include "scalar.h"

enum { GRID = 600 };

/* moments about a reference point: volume, first moment, second moment tensor (int y y^T) */
typedef struct moments {
    double m0, m1[3], m2[3][3];
} moments;

static void add_ball(moments *M, const double *c, double r, double sign)
{
    double v = sign * 4.0 / 3.0 * IMP_PI * r * r * r;
    M->m0 += v;
    for (int a = 0; a < 3; a++) {
        M->m1[a] += v * c[a];
        for (int b = 0; b < 3; b++) {
            M->m2[a][b] += v * c[a] * c[b] + (a == b ? v * r * r / 5.0 : 0.0);
        }
    }
}

/* The cap {x : (x - c).u >= s, |x - c| <= r}, -r < s < r, times sign. Along the axis the
   slice at z has area pi (r^2 - z^2) and polar moment pi (r^2 - z^2)^2 / 2. */
static void add_cap(moments *M, const double *c, double r, const double *u, double s, double sign)
{
    static const double gx[3] = {-0.7745966692414834, 0.0, 0.7745966692414834};
    static const double gw[3] = {5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0};
    double half = 0.5 * (r - s), mid = 0.5 * (r + s);
    double v = 0.0, z1 = 0.0, z2 = 0.0, x2 = 0.0;
    for (int k = 0; k < 3; k++) {
        double z = mid + half * gx[k], a = IMP_PI * (r - z) * (r + z), w = gw[k] * half;
        v += w * a;
        z1 += w * z * a;
        z2 += w * z * z * a;
        x2 += w * 0.25 * (r - z) * (r + z) * a;   /* int x^2 over the slice: polar / 2 */
    }
    v *= sign, z1 *= sign, z2 *= sign, x2 *= sign;
    M->m0 += v;
    for (int a = 0; a < 3; a++) {
        M->m1[a] += v * c[a] + z1 * u[a];
        for (int b = 0; b < 3; b++) {
            M->m2[a][b] += v * c[a] * c[b] + z1 * (c[a] * u[b] + u[a] * c[b])
                           + x2 * ((a == b ? 1.0 : 0.0) - u[a] * u[b]) + z2 * u[a] * u[b];
        }
    }
}

static double dist3(const double *a, const double *b)
{
    const double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* subtracts the intersection of balls i and j (which overlap) */
static void sub_lens(moments *M, const double *ci, double ri, const double *cj, double rj)
{
    double d = dist3(ci, cj);
    if (d <= fabs(ri - rj)) {  /* one inside the other: the smaller one */
        if (ri <= rj) {
            add_ball(M, ci, ri, -1.0);
        } else {
            add_ball(M, cj, rj, -1.0);
        }
        return;
    }
    double u[3] = {(cj[0] - ci[0]) / d, (cj[1] - ci[1]) / d, (cj[2] - ci[2]) / d};
    double nu[3] = {-u[0], -u[1], -u[2]};
    double a = (d * d + ri * ri - rj * rj) / (2.0 * d);  /* the plane's distance from ci */
    add_cap(M, ci, ri, u, a, -1.0);
    add_cap(M, cj, rj, nu, d - a, -1.0);
}

static int overlap(const double *c, const double *r, int i, int j)
{
    return dist3(c + 3 * i, c + 3 * j) < r[i] + r[j];
}

typedef struct interval {
    double z0, z1;
} interval;

/* int over the union minus int over the sum, along lines parallel to z, midpoint rule over
   the (x, y) box of the overlaps. rel: centres relative to the reference point. */
static int grid_correction(moments *M, const double *rel, const double *r, int n)
{
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
            if (!overlap(rel, r, i, j)) {
                continue;
            }
            for (int a = 0; a < 2; a++) {
                double l = fmax(rel[3 * i + a] - r[i], rel[3 * j + a] - r[j]);
                double h = fmin(rel[3 * i + a] + r[i], rel[3 * j + a] + r[j]);
                lo[a] = fmin(lo[a], l);
                hi[a] = fmax(hi[a], h);
            }
        }
    }
    if (!(hi[0] > lo[0] && hi[1] > lo[1])) {
        return 0;
    }
    interval *iv = malloc((size_t)n * sizeof *iv);
    if (iv == NULL) {
        return -1;
    }
    double hx = (hi[0] - lo[0]) / GRID, hy = (hi[1] - lo[1]) / GRID, area = hx * hy;
    double d0 = 0.0, dx = 0.0, dy = 0.0, dz = 0.0, dxx = 0.0, dxy = 0.0, dxz = 0.0, dyy = 0.0,
           dyz = 0.0, dzz = 0.0;
    for (int gx = 0; gx < GRID; gx++) {
        double x = lo[0] + (gx + 0.5) * hx;
        for (int gy = 0; gy < GRID; gy++) {
            double y = lo[1] + (gy + 0.5) * hy;
            int k = 0;
            double s0 = 0.0, s1 = 0.0, s2 = 0.0;  /* sum over the members' intervals */
            for (int i = 0; i < n; i++) {
                double ex = x - rel[3 * i], ey = y - rel[3 * i + 1];
                double h2 = r[i] * r[i] - ex * ex - ey * ey;
                if (h2 <= 0.0) {
                    continue;
                }
                double h = sqrt(h2), zc = rel[3 * i + 2];
                s0 += 2.0 * h;
                s1 += 2.0 * h * zc;
                s2 += 2.0 * h * zc * zc + 2.0 * h * h2 / 3.0;
                /* insertion by start: n is small and most lines meet few members */
                int p = k++;
                while (p > 0 && iv[p - 1].z0 > zc - h) {
                    iv[p] = iv[p - 1];
                    p--;
                }
                iv[p].z0 = zc - h;
                iv[p].z1 = zc + h;
            }
            if (k < 2) {
                continue;
            }
            double u0 = 0.0, u1 = 0.0, u2 = 0.0;  /* over the merged intervals */
            double a = iv[0].z0, b = iv[0].z1;
            for (int p = 1; p <= k; p++) {
                if (p < k && iv[p].z0 <= b) {
                    b = fmax(b, iv[p].z1);
                    continue;
                }
                double l = b - a;
                u0 += l;
                u1 += l * (a + b) * 0.5;
                u2 += l * (a * a + a * b + b * b) / 3.0;
                if (p < k) {
                    a = iv[p].z0;
                    b = iv[p].z1;
                }
            }
            double e0 = u0 - s0, e1 = u1 - s1, e2 = u2 - s2;  /* <= 0: counted twice */
            d0 += e0;
            dx += x * e0;
            dy += y * e0;
            dz += e1;
            dxx += x * x * e0;
            dxy += x * y * e0;
            dxz += x * e1;
            dyy += y * y * e0;
            dyz += y * e1;
            dzz += e2;
        }
    }
    free(iv);
    M->m0 += area * d0;
    M->m1[0] += area * dx;
    M->m1[1] += area * dy;
    M->m1[2] += area * dz;
    double m2[3][3] = {{dxx, dxy, dxz}, {dxy, dyy, dyz}, {dxz, dyz, dzz}};
    for (int a = 0; a < 3; a++) {
        for (int b = 0; b < 3; b++) {
            M->m2[a][b] += area * m2[a][b];
        }
    }
    return 0;
}

/* some three members overlap pairwise (then a point may lie in all three) */
static int has_triple(const double *c, const double *r, int n)
{
    for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
            if (!overlap(c, r, i, j)) {
                continue;
            }
            for (int k = j + 1; k < n; k++) {
                if (overlap(c, r, i, k) && overlap(c, r, j, k)) {
                    return 1;
                }
            }
        }
    }
    return 0;
}

int imp_dem_clump_mass(const double *c, const double *r, int n, int method, imp_dem_mass *out)
{
    if (n < 1) {
        return -1;
    }
    /* moments about the first centre: no loss of digits far from the origin */
    double *rel = malloc((size_t)n * 3 * sizeof *rel);
    if (rel == NULL) {
        return -1;
    }
    for (int i = 0; i < 3 * n; i++) {
        rel[i] = c[i] - c[i % 3];
    }
    moments M;
    memset(&M, 0, sizeof M);
    for (int i = 0; i < n; i++) {
        add_ball(&M, rel + 3 * i, r[i], 1.0);
    }
    int any = 0;
    for (int i = 0; i < n && !any; i++) {
        for (int j = i + 1; j < n && !any; j++) {
            any = overlap(rel, r, i, j);
        }
    }
    out->method = any ? IMP_DEM_MASS_LENSES : IMP_DEM_MASS_EXACT;
    if (any && (method == IMP_DEM_MASS_GRID || has_triple(rel, r, n))) {
        out->method = IMP_DEM_MASS_GRID;
        if (grid_correction(&M, rel, r, n) != 0) {
            free(rel);
            return -1;
        }
    } else if (any) {
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (overlap(rel, r, i, j)) {
                    sub_lens(&M, rel + 3 * i, r[i], rel + 3 * j, r[j]);
                }
            }
        }
    }
    free(rel);
    const double g[3] = {M.m1[0] / M.m0, M.m1[1] / M.m0, M.m1[2] / M.m0};
    /* second moment about the centroid, then I = tr(S) 1 - S */
    double S[3][3];
    for (int a = 0; a < 3; a++) {
        for (int b = 0; b < 3; b++) {
            S[a][b] = M.m2[a][b] - M.m0 * g[a] * g[b];
        }
    }
    double tr = S[0][0] + S[1][1] + S[2][2];
    out->volume = M.m0;
    for (int a = 0; a < 3; a++) {
        out->centroid[a] = c[a] + g[a];
        for (int b = 0; b < 3; b++) {
            out->inertia.m[a][b] = (a == b ? tr : 0.0) - S[a][b];
        }
    }
    /* symmetric by construction up to rounding: make it exactly so */
    for (int a = 0; a < 3; a++) {
        for (int b = a + 1; b < 3; b++) {
            double m = 0.5 * (out->inertia.m[a][b] + out->inertia.m[b][a]);
            out->inertia.m[a][b] = out->inertia.m[b][a] = m;
        }
    }
    return 0;
}

/* ---- the shape ---------------------------------------------------------------------------- */

typedef struct clump_data {
    int n;
    double *c, *r;  /* centres (3 each, shape coordinates) and radii */
    int method;     /* IMP_DEM_MASS_*: how the mass properties were found */
} clump_data;

static void clump_destroy(void *p)
{
    clump_data *cd = p;
    if (cd != NULL) {
        free(cd->c);
        free(cd->r);
        free(cd);
    }
}

/* the union of the members' boxes at the pose: O(n) */
static void clump_bounds(const imp_shape *s, const double *pose, double lo[3], double hi[3])
{
    const clump_data *cd = s->data;
    imp_quat q = imp_q(pose[3], pose[4], pose[5], pose[6]);
    for (int k = 0; k < 3; k++) {
        lo[k] = INFINITY;
        hi[k] = -INFINITY;
    }
    for (int i = 0; i < cd->n; i++) {
        imp_vec3 p = imp_q_rotate(q, imp_v3(cd->c[3 * i] - s->centroid[0],
                                            cd->c[3 * i + 1] - s->centroid[1],
                                            cd->c[3 * i + 2] - s->centroid[2]));
        const double x[3] = {pose[0] + p.x, pose[1] + p.y, pose[2] + p.z};
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], x[k] - cd->r[i]);
            hi[k] = fmax(hi[k], x[k] + cd->r[i]);
        }
    }
}

static const imp_shape_class clump_class = {"clump", 3, clump_destroy, clump_bounds};

imp_shape *imp_dem_clump_shape(const double *c, const double *r, int n)
{
    if (n < 1) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (!isfinite(c[3 * i]) || !isfinite(c[3 * i + 1]) || !isfinite(c[3 * i + 2])
            || !isfinite(r[i]) || !(r[i] > 0.0)) {
            return NULL;
        }
    }
    clump_data *cd = calloc(1, sizeof *cd);
    if (cd == NULL) {
        return NULL;
    }
    cd->n = n;
    cd->c = malloc((size_t)n * 3 * sizeof *cd->c);
    cd->r = malloc((size_t)n * sizeof *cd->r);
    imp_dem_mass m;
    if (cd->c == NULL || cd->r == NULL || imp_dem_clump_mass(c, r, n, IMP_DEM_MASS_AUTO, &m) != 0
        || !(m.volume > 0.0)) {
        clump_destroy(cd);
        return NULL;
    }
    memcpy(cd->c, c, (size_t)n * 3 * sizeof *c);
    memcpy(cd->r, r, (size_t)n * sizeof *r);
    cd->method = m.method;
    imp_shape *s = imp_shape_new(&clump_class, cd);
    if (s == NULL) {
        return NULL;
    }
    s->measure = m.volume;
    memcpy(s->centroid, m.centroid, sizeof s->centroid);
    s->inertia = m.inertia;
    double rad = 0.0;
    for (int i = 0; i < n; i++) {
        rad = fmax(rad, dist3(c + 3 * i, m.centroid) + r[i]);
    }
    s->radius = rad;
    return s;
}

int imp_dem_clump_members(const imp_shape *s, const double **centres, const double **radii,
                          int *method)
{
    if (s == NULL || s->cls != &clump_class) {
        return 0;
    }
    const clump_data *cd = s->data;
    if (centres != NULL) {
        *centres = cd->c;
    }
    if (radii != NULL) {
        *radii = cd->r;
    }
    if (method != NULL) {
        *method = cd->method;
    }
    return cd->n;
}
