/* test_shape3d.c: volumes, centroids and inertia tensors of the 3D shapes against closed forms
   and independent methods (slice quadrature, Monte Carlo with a fixed seed, decompositions). */
#include <math.h>
#include <stdint.h>

#include "check.h"
#include "hull3d.h"
#include "quat.h"
#include "scalar.h"
#include "shape3d.h"

#define PI IMP_PI

/* |I - J| <= tol * scale element-wise */
static int mat_near(const imp_mat3 *a, const imp_mat3 *b, double tol)
{
    double s = 0.0;
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 3; k++) {
            s = fmax(s, fabs(b->m[i][k]));
        }
    }
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 3; k++) {
            if (!(fabs(a->m[i][k] - b->m[i][k]) <= tol * s)) {
                fprintf(stderr, "  inertia[%d][%d] %.17g vs %.17g\n", i, k, a->m[i][k], b->m[i][k]);
                return 0;
            }
        }
    }
    return 1;
}

/* Gauss-Legendre nodes and weights on [-1, 1] by Newton on P_n */
static void gauss_legendre(int n, double *x, double *w)
{
    for (int i = 0; i < n; i++) {
        double z = cos(PI * (i + 0.75) / (n + 0.5)), dp = 0.0;
        for (int it = 0; it < 100; it++) {
            double p0 = 1.0, p1 = z;
            for (int k = 2; k <= n; k++) {
                double p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
                p0 = p1;
                p1 = p2;
            }
            dp = n * (z * p1 - p0) / (z * z - 1.0);
            double dz = p1 / dp;
            z -= dz;
            if (fabs(dz) < 1e-16) {
                break;
            }
        }
        x[i] = z;
        w[i] = 2.0 / ((1.0 - z * z) * dp * dp);
    }
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static double urand(void) /* xorshift64*, fixed seed */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
}

TEST(sphere_and_ellipsoid)
{
    imp_shape *s = imp_shape3d_sphere(0.7);
    double v = 4.0 / 3.0 * PI * 0.343;
    CHECK_CLOSE(s->measure, v, 1e-14, 0);
    imp_mat3 e = imp_m3_diag(0.4 * v * 0.49, 0.4 * v * 0.49, 0.4 * v * 0.49);
    CHECK(mat_near(&s->inertia, &e, 1e-14));
    imp_shape_release(s);
    s = imp_shape3d_ellipsoid(1.0, 2.0, 3.0);
    v = 4.0 / 3.0 * PI * 6.0;
    CHECK_CLOSE(s->measure, v, 1e-14, 0);
    e = imp_m3_diag(v * 13 / 5, v * 10 / 5, v * 5 / 5);
    CHECK(mat_near(&s->inertia, &e, 1e-14));
    imp_shape_release(s);
}

TEST(box_cylinder_cone_capsule_closed_forms)
{
    imp_shape *s = imp_shape3d_box(1.0, 2.0, 3.0);
    imp_mat3 e = imp_m3_diag(6.0 * 13 / 12, 6.0 * 10 / 12, 6.0 * 5 / 12);
    CHECK_CLOSE(s->measure, 6.0, 1e-15, 0);
    CHECK(mat_near(&s->inertia, &e, 1e-14));
    imp_shape_release(s);

    double R = 0.6, L = 1.7;
    s = imp_shape3d_cylinder(R, L, 0.0);
    double m = PI * R * R * L;
    CHECK_CLOSE(s->measure, m, 1e-14, 0);
    e = imp_m3_diag(m * (3 * R * R + L * L) / 12, m * (3 * R * R + L * L) / 12, m * R * R / 2);
    CHECK(mat_near(&s->inertia, &e, 1e-13));
    imp_shape_release(s);

    s = imp_shape3d_cone(R, L, 0.0);
    m = PI * R * R * L / 3.0;
    CHECK_CLOSE(s->measure, m, 1e-14, 0);
    CHECK_NEAR(s->centroid[2], L / 4.0, 1e-15);
    double ixx = 3.0 / 20.0 * m * R * R + 3.0 / 80.0 * m * L * L;
    e = imp_m3_diag(ixx, ixx, 0.3 * m * R * R);
    CHECK(mat_near(&s->inertia, &e, 1e-13));
    imp_shape_release(s);

    /* capsule: cylinder + two hemispheres (centroid 3a/8 from the flat face) */
    double a = 0.4, h = 0.5 * L;
    s = imp_shape3d_capsule(a, L);
    double mc = PI * a * a * L, mh = 2.0 / 3.0 * PI * a * a * a;
    CHECK_CLOSE(s->measure, mc + 2 * mh, 1e-14, 0);
    double izz = mc * a * a / 2 + 2 * 0.4 * mh * a * a;
    ixx = mc * (3 * a * a + L * L) / 12 + 2 * (mh * a * a / 5 + mh * (h * h + 0.75 * a * h + a * a / 5));
    e = imp_m3_diag(ixx, ixx, izz);
    CHECK(mat_near(&s->inertia, &e, 1e-13));
    CHECK_NEAR(s->centroid[2], 0.0, 0);
    imp_shape_release(s);
}

/* smoothing as large as allowed collapses the core to a point or a segment: closed forms */
TEST(smoothed_limits_are_spheres_and_capsules)
{
    double r = 0.5;
    imp_shape *s = imp_shape3d_box_smoothed(1.0, 1.0, 1.0, r);
    double v = 4.0 / 3.0 * PI * r * r * r, i = 0.4 * v * r * r;
    imp_mat3 e = imp_m3_diag(i, i, i);
    CHECK_CLOSE(s->measure, v, 1e-13, 0);
    CHECK(mat_near(&s->inertia, &e, 1e-13));
    imp_shape_release(s);
    s = imp_shape3d_cylinder(r, 2 * r, r);
    CHECK_CLOSE(s->measure, v, 1e-13, 0);
    CHECK(mat_near(&s->inertia, &e, 1e-13));
    imp_shape_release(s);
    /* a cone rounded with its inradius is a ball of that radius centred at height r */
    double R = 0.8, L = 1.5, rin = R * L / (R + sqrt(R * R + L * L));
    s = imp_shape3d_cone(R, L, rin);
    v = 4.0 / 3.0 * PI * rin * rin * rin;
    i = 0.4 * v * rin * rin;
    e = imp_m3_diag(i, i, i);
    CHECK_CLOSE(s->measure, v, 1e-13, 0);
    CHECK_NEAR(s->centroid[2], rin, 1e-13);
    CHECK(mat_near(&s->inertia, &e, 1e-12));
    imp_shape_release(s);
    /* cylinder with smoothing = radius is a capsule of the shorter segment */
    s = imp_shape3d_cylinder(0.3, 2.0, 0.3);
    imp_shape *c = imp_shape3d_capsule(0.3, 1.4);
    CHECK_CLOSE(s->measure, c->measure, 1e-13, 0);
    CHECK(mat_near(&s->inertia, &c->inertia, 1e-13));
    imp_shape_release(s);
    imp_shape_release(c);
}

/* rounded cylinder by slices: radius R on |z| <= h, rc + sqrt(r^2 - w^2) on the caps
   (w = r sin(phi) keeps the integrand smooth); Gauss-Legendre, 40 nodes per piece */
TEST(smoothed_cylinder_by_slices)
{
    double R = 0.6, L = 1.7, r = 0.15, rc = R - r, h = 0.5 * L - r;
    double gx[40], gw[40];
    gauss_legendre(40, gx, gw);
    double v = 0, z2 = 0, r2 = 0;
    for (int g = 0; g < 40; g++) {
        /* middle: z in [-h, h] */
        double z = h * gx[g], w = h * gw[g];
        v += w * PI * R * R;
        z2 += w * PI * R * R * z * z;
        r2 += w * PI * R * R * R * R / 2;
        /* both caps: z = +-(h + r sin(phi)), phi in [0, pi/2] */
        double phi = PI / 4 * (gx[g] + 1), wp = PI / 4 * gw[g];
        double zz = h + r * sin(phi), dz = r * cos(phi), rho = rc + r * cos(phi);
        v += 2 * wp * dz * PI * rho * rho;
        z2 += 2 * wp * dz * PI * rho * rho * zz * zz;
        r2 += 2 * wp * dz * PI * rho * rho * rho * rho / 2;
    }
    imp_shape *s = imp_shape3d_cylinder(R, L, r);
    CHECK_CLOSE(s->measure, v, 1e-13, 0);
    imp_mat3 e = imp_m3_diag(r2 / 2 + z2, r2 / 2 + z2, r2);
    CHECK(mat_near(&s->inertia, &e, 1e-13));
    imp_shape_release(s);
}

/* squared distance from p to the triangle abc (Ericson's Voronoi-region walk), for the
   Monte Carlo membership tests */
static double seg_d2(const double *p, const double *a, const double *b)
{
    double ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, ap[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
    double t = (ab[0] * ap[0] + ab[1] * ap[1] + ab[2] * ap[2]) / (ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2]);
    t = imp_clamp(t, 0.0, 1.0);
    double d[3] = {ap[0] - t * ab[0], ap[1] - t * ab[1], ap[2] - t * ab[2]};
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

/* distance from p to a convex polytope given by its triangles (outward); 0 inside */
static double poly_dist(const double *p, const double *v, const int *tri, int nt)
{
    int inside = 1;
    double best = INFINITY;
    for (int t = 0; t < nt; t++) {
        const double *a = v + 3 * tri[3 * t], *b = v + 3 * tri[3 * t + 1], *c = v + 3 * tri[3 * t + 2];
        imp_vec3 n = imp_v3_cross(imp_v3_sub(imp_v3_load(b), imp_v3_load(a)),
                                  imp_v3_sub(imp_v3_load(c), imp_v3_load(a)));
        n = imp_v3_normalize(n);
        double sd = imp_v3_dot(n, imp_v3_sub(imp_v3_load(p), imp_v3_load(a)));
        if (sd > 0) {
            inside = 0;
        }
        /* projection inside the triangle? */
        imp_vec3 q = imp_v3_madd(imp_v3_load(p), -sd, n);
        imp_vec3 A = imp_v3_load(a), B = imp_v3_load(b), C = imp_v3_load(c);
        double s1 = imp_v3_dot(imp_v3_cross(imp_v3_sub(B, A), imp_v3_sub(q, A)), n);
        double s2 = imp_v3_dot(imp_v3_cross(imp_v3_sub(C, B), imp_v3_sub(q, B)), n);
        double s3 = imp_v3_dot(imp_v3_cross(imp_v3_sub(A, C), imp_v3_sub(q, C)), n);
        double d2 = (s1 >= 0 && s2 >= 0 && s3 >= 0)
                        ? sd * sd
                        : fmin(seg_d2(p, a, b), fmin(seg_d2(p, b, c), seg_d2(p, c, a)));
        best = fmin(best, d2);
    }
    return inside ? 0.0 : sqrt(best);
}

/* Monte Carlo over the bounding box: volume, centroid and second moments of {x : in(x)}.
   With N samples the relative error of the volume is about sqrt((1-f)/(f N)) (f the filled
   fraction); the checks allow 5 standard errors. */
typedef int (*inside_fn)(const double *x, const void *ctx);
static void monte_carlo(inside_fn in, const void *ctx, const double lo[3], const double hi[3], long n,
                        double *vol, double c[3], double j[3][3])
{
    double box = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
    double m1[3] = {0, 0, 0}, m2[3][3] = {{0}};
    long k = 0;
    for (long i = 0; i < n; i++) {
        double x[3];
        for (int d = 0; d < 3; d++) {
            x[d] = lo[d] + (hi[d] - lo[d]) * urand();
        }
        if (in(x, ctx)) {
            k++;
            for (int a = 0; a < 3; a++) {
                m1[a] += x[a];
                for (int b = 0; b < 3; b++) {
                    m2[a][b] += x[a] * x[b];
                }
            }
        }
    }
    *vol = box * (double)k / (double)n;
    for (int a = 0; a < 3; a++) {
        c[a] = m1[a] / (double)k;
    }
    for (int a = 0; a < 3; a++) {
        for (int b = 0; b < 3; b++) {
            j[a][b] = *vol * (m2[a][b] / (double)k - c[a] * c[b]);
        }
    }
}

typedef struct cone_ctx {
    double rc, zb, za, r;
} cone_ctx;

/* distance from (rho, z) to the core triangle (0, zb), (rc, zb), (0, za) of a rounded cone */
static int in_cone(const double *x, const void *p)
{
    const cone_ctx *c = p;
    double v[9] = {0, 0, c->zb, c->rc, 0, c->zb, 0, 0, c->za};
    double rho = sqrt(x[0] * x[0] + x[1] * x[1]), q[3] = {rho, 0, x[2]};
    double d2 = fmin(seg_d2(q, v, v + 3), fmin(seg_d2(q, v + 3, v + 6), seg_d2(q, v + 6, v)));
    int inside = x[2] >= c->zb && x[2] <= c->za && rho <= c->rc * (c->za - x[2]) / (c->za - c->zb);
    return inside || d2 <= c->r * c->r;
}

static int mc_matches(const imp_shape *s, double vol, const double c[3], double j[3][3], double relv,
                      double tolc, double relj)
{
    if (!(fabs(s->measure - vol) <= relv * vol)) {
        fprintf(stderr, "  MC volume %.8g vs %.8g\n", vol, s->measure);
        return 0;
    }
    for (int a = 0; a < 3; a++) {
        if (!(fabs(s->centroid[a] - c[a]) <= tolc)) {
            fprintf(stderr, "  MC centroid[%d] %.8g vs %.8g\n", a, c[a], s->centroid[a]);
            return 0;
        }
    }
    double tr = j[0][0] + j[1][1] + j[2][2];
    imp_mat3 e;
    for (int a = 0; a < 3; a++) {
        for (int b = 0; b < 3; b++) {
            e.m[a][b] = (a == b ? tr : 0.0) - j[a][b];
        }
    }
    return mat_near(&s->inertia, &e, relj);
}

TEST(smoothed_cone_monte_carlo)
{
    double R = 0.8, L = 1.5, r = 0.12, sl = sqrt(R * R + L * L);
    cone_ctx c = {R - r * (R + sl) / L, r, L - r * sl / R, r};
    double lo[3] = {-R, -R, 0}, hi[3] = {R, R, L}, vol, cen[3], j[3][3];
    rng_state = 12345;
    monte_carlo(in_cone, &c, lo, hi, 2000000, &vol, cen, j);
    imp_shape *s = imp_shape3d_cone(R, L, r);
    /* f ~ 0.26, N = 2e6: sigma_V/V ~ 1.2e-3 */
    CHECK(mc_matches(s, vol, cen, j, 6e-3, 4e-3, 1e-2));
    /* and it is inside the sharp cone: smaller volume, lower... */
    CHECK(s->measure < PI * R * R * L / 3.0);
    imp_shape_release(s);
}

typedef struct poly_ctx {
    const imp_convex3d *c;
} poly_ctx;
static int in_hull(const double *x, const void *p)
{
    const imp_convex3d *c = ((const poly_ctx *)p)->c;
    return poly_dist(x, c->vert, c->tri, c->ntri) <= c->sweep;
}

TEST(hull_of_cube_with_interior_duplicate_coplanar_points)
{
    double pts[3 * 64];
    int n = 0;
    for (int i = 0; i < 8; i++) { /* corners of [-0.5, 0.5] x [-1, 1] x [-1.5, 1.5], twice */
        for (int rep = 0; rep < 2; rep++) {
            pts[n++] = (i & 1) ? 0.5 : -0.5;
            pts[n++] = (i & 2) ? 1.0 : -1.0;
            pts[n++] = (i & 4) ? 1.5 : -1.5;
        }
    }
    double extra[][3] = {{0, 0, 0}, {0.1, -0.2, 0.3}, {0.5, 0, 0},   {0, 1, 0},    {0, 0, -1.5},
                         {0.5, 1, 0}, {-0.5, 0, 1.5}, {0.2, 0.3, 1.5}, {0, -1, -1.5}, {0.25, 0.5, 0.75}};
    for (int k = 0; k < 10; k++) {
        pts[n++] = extra[k][0], pts[n++] = extra[k][1], pts[n++] = extra[k][2];
    }
    int st;
    imp_shape *s = imp_shape3d_convex(pts, n / 3, 0.0, &st);
    CHECK(s != NULL && st == IMP_S3_OK);
    const imp_convex3d *c = imp_shape3d_data(s);
    CHECK(c->nvert == 8);
    CHECK(c->ntri == 12);
    CHECK_CLOSE(s->measure, 6.0, 1e-14, 0);
    for (int k = 0; k < 3; k++) {
        CHECK_NEAR(s->centroid[k], 0.0, 1e-15);
    }
    imp_mat3 e = imp_m3_diag(6.0 * 13 / 12, 6.0 * 10 / 12, 6.0 * 5 / 12);
    CHECK(mat_near(&s->inertia, &e, 1e-13));
    imp_shape_release(s);
}

/* the hull of a rotated, shifted box: R I R^T about the shifted centre (a full tensor) */
TEST(hull_of_rotated_box_has_rotated_tensor)
{
    imp_quat q = imp_q_normalize(imp_q(0.9, 0.2, -0.3, 0.4));
    imp_mat3 rot = imp_q_to_mat3(q);
    double pts[24], shift[3] = {1.0, -2.0, 0.5};
    for (int i = 0; i < 8; i++) {
        imp_vec3 p = imp_v3((i & 1) ? 0.3 : -0.3, (i & 2) ? 0.7 : -0.7, (i & 4) ? 1.1 : -1.1);
        p = imp_m3_mulv(&rot, p);
        pts[3 * i] = p.x + shift[0], pts[3 * i + 1] = p.y + shift[1], pts[3 * i + 2] = p.z + shift[2];
    }
    for (double r = 0.0; r <= 0.2; r += 0.1) {
        imp_shape *s = imp_shape3d_convex(pts, 8, r, NULL);
        imp_shape *b = imp_shape3d_box_smoothed(0.6 + 2 * r, 1.4 + 2 * r, 2.2 + 2 * r, r);
        CHECK(s != NULL && b != NULL);
        CHECK_CLOSE(s->measure, b->measure, 1e-13, 0);
        for (int k = 0; k < 3; k++) {
            CHECK_NEAR(s->centroid[k], shift[k], 1e-13);
        }
        imp_mat3 e = imp_m3_rotate_tensor(&rot, &b->inertia);
        CHECK(mat_near(&s->inertia, &e, 1e-12));
        imp_shape_release(s);
        imp_shape_release(b);
    }
}

TEST(smoothed_tetrahedron_monte_carlo)
{
    double pts[12] = {0, 0, 0, 1.0, 0.1, 0, 0.2, 0.8, 0.1, 0.3, 0.2, 0.9};
    imp_shape *s = imp_shape3d_convex(pts, 4, 0.15, NULL);
    CHECK(s != NULL);
    poly_ctx ctx = {imp_shape3d_data(s)};
    double lo[3] = {-0.15, -0.15, -0.15}, hi[3] = {1.15, 0.95, 1.05}, vol, cen[3], j[3][3];
    rng_state = 777;
    monte_carlo(in_hull, &ctx, lo, hi, 1000000, &vol, cen, j);
    CHECK(mc_matches(s, vol, cen, j, 6e-3, 3e-3, 1.2e-2));
    /* an unsmoothed tetrahedron: V = |det| / 6, centroid the vertex mean */
    imp_shape *t = imp_shape3d_convex(pts, 4, 0.0, NULL);
    imp_vec3 a = imp_v3(1.0, 0.1, 0), b = imp_v3(0.2, 0.8, 0.1), c = imp_v3(0.3, 0.2, 0.9);
    CHECK_CLOSE(t->measure, fabs(imp_v3_dot(a, imp_v3_cross(b, c))) / 6.0, 1e-14, 0);
    CHECK_NEAR(t->centroid[0], 1.5 / 4, 1e-15);
    CHECK_NEAR(t->centroid[2], 1.0 / 4, 1e-15);
    imp_shape_release(t);
    imp_shape_release(s);
}

TEST(smoothed_box_equals_smoothed_hull_of_its_core)
{
    double a[3] = {0.4, 0.25, 0.6}, r = 0.07, pts[24];
    for (int i = 0; i < 8; i++) {
        pts[3 * i] = (i & 1) ? a[0] : -a[0];
        pts[3 * i + 1] = (i & 2) ? a[1] : -a[1];
        pts[3 * i + 2] = (i & 4) ? a[2] : -a[2];
    }
    imp_shape *h = imp_shape3d_convex(pts, 8, r, NULL);
    imp_shape *b = imp_shape3d_box_smoothed(2 * (a[0] + r), 2 * (a[1] + r), 2 * (a[2] + r), r);
    CHECK_CLOSE(h->measure, b->measure, 1e-13, 0);
    CHECK(mat_near(&h->inertia, &b->inertia, 1e-13));
    /* and against the box's own sum: V = core + slabs + quarter cylinders + octants */
    double v = 8 * a[0] * a[1] * a[2] + 2 * r * 4 * (a[0] * a[1] + a[1] * a[2] + a[0] * a[2]) +
               PI * r * r * 2 * (a[0] + a[1] + a[2]) + 4.0 / 3.0 * PI * r * r * r;
    CHECK_CLOSE(b->measure, v, 1e-14, 0);
    imp_shape_release(h);
    imp_shape_release(b);
}

/* a 6 x 6 x 6 grid of points: most are coplanar with a face or collinear with an edge; the
   hull keeps the 8 corners, and with smoothing it is the rounded box of the outer size */
TEST(hull_of_a_point_grid)
{
    static double p[3 * 216];
    int n = 0;
    for (int i = 0; i < 6; i++) {
        for (int j = 0; j < 6; j++) {
            for (int k = 0; k < 6; k++) {
                p[3 * n] = 0.2 * i, p[3 * n + 1] = 0.2 * j, p[3 * n + 2] = 0.2 * k;
                n++;
            }
        }
    }
    imp_shape *s = imp_shape3d_convex(p, n, 0.1, NULL);
    imp_shape *b = imp_shape3d_box_smoothed(1.2, 1.2, 1.2, 0.1);
    CHECK(s != NULL && imp_shape3d_data(s)->nvert == 8 && imp_shape3d_data(s)->ntri == 12);
    CHECK_CLOSE(s->measure, b->measure, 1e-13, 0);
    CHECK(mat_near(&s->inertia, &b->inertia, 1e-12));
    for (int k = 0; k < 3; k++) {
        CHECK_NEAR(s->centroid[k], 0.5, 1e-14);
    }
    imp_shape_release(s);
    imp_shape_release(b);
}

TEST(hull_rejects_flat_and_bad_input)
{
    double flat[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0.5, 0.5, 0};
    int st = -1;
    CHECK(imp_shape3d_convex(flat, 5, 0.1, &st) == NULL && st == IMP_S3_EFLAT);
    double same[12] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    CHECK(imp_shape3d_convex(same, 4, 0.0, &st) == NULL && st == IMP_S3_EFLAT);
    double line[12] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
    CHECK(imp_shape3d_convex(line, 4, 0.0, &st) == NULL && st == IMP_S3_EFLAT);
    CHECK(imp_shape3d_convex(line, 3, 0.0, &st) == NULL && st == IMP_S3_EBADARG);
    double nan4[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, NAN};
    CHECK(imp_shape3d_convex(nan4, 4, 0.0, &st) == NULL && st == IMP_S3_EBADARG);
}

/* many random points on a sphere: every input point is a hull vertex or inside; Euler's
   formula V - E + F = 2 with E = 3F/2; volume below the ball's */
TEST(hull_of_random_sphere_points)
{
    enum { N = 500 };
    static double pts[3 * N];
    rng_state = 99;
    for (int i = 0; i < N; i++) {
        double z = 2 * urand() - 1, t = 2 * PI * urand(), q = sqrt(1 - z * z);
        pts[3 * i] = q * cos(t), pts[3 * i + 1] = q * sin(t), pts[3 * i + 2] = z;
    }
    imp_hull3d h;
    CHECK(imp_hull3d_build(pts, N, &h) == IMP_HULL_OK);
    CHECK(h.nvert == N);
    CHECK(h.nvert - 3 * h.ntri / 2 + h.ntri == 2);
    /* every point is on or inside every face plane */
    for (int t = 0; t < h.ntri; t++) {
        imp_vec3 a = imp_v3_load(h.vert + 3 * h.tri[3 * t]), b = imp_v3_load(h.vert + 3 * h.tri[3 * t + 1]),
                 c = imp_v3_load(h.vert + 3 * h.tri[3 * t + 2]);
        imp_vec3 n = imp_v3_normalize(imp_v3_cross(imp_v3_sub(b, a), imp_v3_sub(c, a)));
        for (int i = 0; i < N; i++) {
            CHECK(imp_v3_dot(n, imp_v3_sub(imp_v3_load(pts + 3 * i), a)) <= 1e-12);
        }
    }
    imp_hull3d_free(&h);
}

TEST(bounds_are_tight)
{
    /* a cylinder lying along x: bounds [-L/2, L/2] x [-R, R] x [-R, R] */
    imp_shape *s = imp_shape3d_cylinder(0.5, 2.0, 0.1);
    double pose[7] = {1, 2, 3, cos(PI / 4), 0, sin(PI / 4), 0}, lo[3], hi[3];
    imp_shape_bounds(s, pose, lo, hi);
    CHECK_NEAR(lo[0], 0.0, 1e-15);
    CHECK_NEAR(hi[0], 2.0, 1e-15);
    CHECK_NEAR(lo[1], 1.5, 1e-15);
    CHECK_NEAR(hi[2], 3.5, 1e-15);
    imp_shape_release(s);
    /* a cone: the centroid is at the pose; base at -zc, apex at L - zc along the axis */
    s = imp_shape3d_cone(0.5, 2.0, 0.0);
    double p0[7] = {0, 0, 0, 1, 0, 0, 0};
    imp_shape_bounds(s, p0, lo, hi);
    CHECK_NEAR(lo[2], -0.5, 1e-15);
    CHECK_NEAR(hi[2], 1.5, 1e-15);
    CHECK_NEAR(hi[0], 0.5, 1e-15);
    imp_shape_release(s);
}

/* A box's bounds at any pose are its corners' extremes (plus the smoothing radius), and the
   same bits as the support rule they are written out from (shape3d_basic.c): the support of
   its core along each world axis, d . p with p the corner sign(d) h, down along -d. Turns at
   random, an axis-aligned pose (rows of R with zeros), a rounded box and one whose core is a
   point (r half its sizes). */
TEST(box_bounds_are_the_corners_bit_for_bit)
{
    const double sizes[3][4] = {{1.0, 2.0, 3.0, 0.0}, {0.6, 1.4, 2.2, 0.1}, {1.0, 1.0, 1.0, 0.5}};
    for (int k = 0; k < 3; k++) {
        const double *z = sizes[k];
        imp_shape *s = z[3] > 0.0 ? imp_shape3d_box_smoothed(z[0], z[1], z[2], z[3]) : imp_shape3d_box(z[0], z[1], z[2]);
        const imp_convex3d *c = imp_shape3d_data(s);
        for (int t = 0; t < 200; t++) {
            double q[4] = {1, 0, 0, 0}, pose[7], lo[3], hi[3];
            if (t > 0) {
                for (int i = 0; i < 4; i++) {
                    q[i] = 2 * urand() - 1;
                }
            }
            pose[0] = 4 * urand() - 2, pose[1] = 4 * urand() - 2, pose[2] = 4 * urand() - 2;
            for (int i = 0; i < 4; i++) {
                pose[3 + i] = q[i];
            }
            imp_shape_bounds(s, pose, lo, hi);
            imp_mat3 r = imp_q_to_mat3(imp_q_normalize(imp_q(q[0], q[1], q[2], q[3])));
            for (int i = 0; i < 3; i++) {
                double d[3] = {r.m[i][0], r.m[i][1], r.m[i][2]}, p[3], cmax = -INFINITY, cmin = INFINITY;
                imp_shape3d_core_support(c, d, p);
                double up = d[0] * p[0] + d[1] * p[1] + d[2] * p[2];
                double nd[3] = {-d[0], -d[1], -d[2]};
                imp_shape3d_core_support(c, nd, p);
                double down = -(nd[0] * p[0] + nd[1] * p[1] + nd[2] * p[2]);
                CHECK(hi[i] == pose[i] + up - 0.0 + c->sweep);
                CHECK(lo[i] == pose[i] + down - 0.0 - c->sweep);
                for (int m = 0; m < 8; m++) {  /* the whole box's corners, rounded ones by r */
                    double x = 0.0;
                    for (int j = 0; j < 3; j++) {
                        x += d[j] * ((m >> j & 1) ? 0.5 : -0.5) * z[j];
                    }
                    cmax = fmax(cmax, x);
                    cmin = fmin(cmin, x);
                }
                /* a rounded box lies inside its corners' box, by at most (sqrt 3 - 1) r */
                double slack = (sqrt(3.0) - 1.0) * z[3];
                CHECK(hi[i] - pose[i] <= cmax + 1e-12 && hi[i] - pose[i] >= cmax - slack - 1e-12);
                CHECK(lo[i] - pose[i] >= cmin - 1e-12 && lo[i] - pose[i] <= cmin + slack + 1e-12);
            }
        }
        imp_shape_release(s);
    }
}

/* The bounds from a rotation made already (imp_shape3d_bounds_rot, the 3D detection's) are the
   bits of imp_shape_bounds at the same pose for every convex kind, and hold the shape: every
   support point (the core's along u plus the sweep along u, turned and placed) lies inside
   them. A wall is not answered (0, nothing written). */
TEST(bounds_from_a_known_rotation_hold_the_shape_bit_for_bit)
{
    const double pts[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 2, 0}, {0, 0, 3}};
    int status = 0;
    imp_shape *shapes[8] = {imp_shape3d_sphere(0.5), imp_shape3d_box(1.0, 2.0, 3.0),
                            imp_shape3d_box_smoothed(0.6, 1.4, 2.2, 0.1), imp_shape3d_ellipsoid(0.5, 1.0, 1.5),
                            imp_shape3d_cylinder(0.5, 2.0, 0.1), imp_shape3d_capsule(0.3, 1.5),
                            imp_shape3d_cone(0.5, 1.5, 0.05), imp_shape3d_convex(&pts[0][0], 4, 0.05, &status)};
    for (int k = 0; k < 8; k++) {
        imp_shape *s = shapes[k];
        CHECK(s != NULL);
        const imp_convex3d *c = imp_shape3d_data(s);
        for (int t = 0; t < 100; t++) {
            double pose[7] = {4 * urand() - 2, 4 * urand() - 2, 4 * urand() - 2, 1, 0, 0, 0};
            for (int i = 3; i < 7 && t > 0; i++) {
                pose[i] = 2 * urand() - 1;
            }
            imp_mat3 m = imp_q_to_mat3(imp_q_normalize(imp_q(pose[3], pose[4], pose[5], pose[6])));
            const double r[9] = {m.m[0][0], m.m[0][1], m.m[0][2], m.m[1][0], m.m[1][1],
                                 m.m[1][2], m.m[2][0], m.m[2][1], m.m[2][2]};
            double lo[3], hi[3], lo2[3], hi2[3];
            imp_shape_bounds(s, pose, lo, hi);
            CHECK(imp_shape3d_bounds_rot(s, pose, r, lo2, hi2) == 1);
            for (int i = 0; i < 3; i++) {
                CHECK(lo2[i] == lo[i] && hi2[i] == hi[i]);
            }
            for (int n = 0; n < 20; n++) {
                double u[3] = {2 * urand() - 1, 2 * urand() - 1, 2 * urand() - 1}, p[3];
                double len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
                imp_shape3d_core_support(c, u, p);
                for (int j = 0; j < 3; j++) {
                    p[j] += c->sweep * u[j] / len - s->centroid[j];
                }
                for (int i = 0; i < 3; i++) {
                    double x = pose[i] + r[3 * i] * p[0] + r[3 * i + 1] * p[1] + r[3 * i + 2] * p[2];
                    CHECK(x >= lo[i] - 1e-12 && x <= hi[i] + 1e-12);
                }
            }
        }
        imp_shape_release(s);
    }
    const double n[3] = {0, 0, 1}, pose[7] = {0, 0, 0, 1, 0, 0, 0}, r[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    imp_shape *wall = imp_shape3d_wall(n);
    double lo[3] = {7, 7, 7}, hi[3] = {7, 7, 7};
    CHECK(imp_shape3d_bounds_rot(wall, pose, r, lo, hi) == 0);
    CHECK(lo[0] == 7 && lo[2] == 7 && hi[0] == 7 && hi[2] == 7);
    imp_shape_release(wall);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(sphere_and_ellipsoid);
    RUN(box_cylinder_cone_capsule_closed_forms);
    RUN(smoothed_limits_are_spheres_and_capsules);
    RUN(smoothed_cylinder_by_slices);
    RUN(smoothed_cone_monte_carlo);
    RUN(hull_of_cube_with_interior_duplicate_coplanar_points);
    RUN(hull_of_rotated_box_has_rotated_tensor);
    RUN(smoothed_tetrahedron_monte_carlo);
    RUN(smoothed_box_equals_smoothed_hull_of_its_core);
    RUN(hull_of_a_point_grid);
    RUN(hull_rejects_flat_and_bad_input);
    RUN(hull_of_random_sphere_points);
    RUN(bounds_are_tight);
    RUN(box_bounds_are_the_corners_bit_for_bit);
    RUN(bounds_from_a_known_rotation_hold_the_shape_bit_for_bit);
    return CHECK_END("shape3d");
}
