/* test_predicates.c: the exact orientation predicate (predicates.c) against exact rational
   arithmetic done here independently: every double is an integer times a power of two, so
   after scaling all coordinates by a common power of two they are integers, and the
   determinant is evaluated with big integers (sign-magnitude, 32-bit limbs). Cases: random
   points, integer grids (exactly coplanar sets included), coplanar dyadic points perturbed by
   one ulp, rounded points on a plane or a line (near-ties of every size), huge and tiny
   coordinates; also the sign rules (swaps negate, translations by exact amounts keep). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "predicates.h"
#include "rng.h"

enum { LIMBS = 48 }; /* 1536 bits: three products of coordinates spanning < 500 bits each */

typedef struct big {
    int neg;
    uint32_t d[LIMBS];
} big;

static int big_cmp_mag(const big *a, const big *b)
{
    for (int i = LIMBS - 1; i >= 0; i--) {
        if (a->d[i] != b->d[i]) {
            return a->d[i] > b->d[i] ? 1 : -1;
        }
    }
    return 0;
}

static int big_is_zero(const big *a)
{
    for (int i = 0; i < LIMBS; i++) {
        if (a->d[i] != 0) {
            return 0;
        }
    }
    return 1;
}

/* r = |a| + |b| or |a| - |b| (|a| >= |b|) */
static void mag_add(const big *a, const big *b, big *r)
{
    uint64_t c = 0;
    for (int i = 0; i < LIMBS; i++) {
        c += (uint64_t)a->d[i] + b->d[i];
        r->d[i] = (uint32_t)c;
        c >>= 32;
    }
}

static void mag_sub(const big *a, const big *b, big *r)
{
    int64_t c = 0;
    for (int i = 0; i < LIMBS; i++) {
        c += (int64_t)a->d[i] - (int64_t)b->d[i];
        r->d[i] = (uint32_t)c;
        c = c < 0 ? -1 : 0;
    }
}

static big big_add(big a, big b)
{
    big r;
    memset(&r, 0, sizeof r);
    if (a.neg == b.neg) {
        mag_add(&a, &b, &r);
        r.neg = a.neg;
    } else if (big_cmp_mag(&a, &b) >= 0) {
        mag_sub(&a, &b, &r);
        r.neg = a.neg;
    } else {
        mag_sub(&b, &a, &r);
        r.neg = b.neg;
    }
    if (big_is_zero(&r)) {
        r.neg = 0;
    }
    return r;
}

static big big_neg(big a)
{
    a.neg = big_is_zero(&a) ? 0 : !a.neg;
    return a;
}

static big big_mul(big a, big b)
{
    big r;
    memset(&r, 0, sizeof r);
    for (int i = 0; i < LIMBS; i++) {
        uint64_t c = 0;
        if (a.d[i] == 0) {
            continue;
        }
        for (int j = 0; i + j < LIMBS; j++) {
            c += (uint64_t)a.d[i] * b.d[j] + r.d[i + j];
            r.d[i + j] = (uint32_t)c;
            c >>= 32;
        }
    }
    r.neg = big_is_zero(&r) ? 0 : a.neg != b.neg;
    return r;
}

/* x * 2^-emin as a big integer (x must be a multiple of 2^emin) */
static big big_from(double x, int emin)
{
    big r;
    memset(&r, 0, sizeof r);
    if (x == 0.0) {
        return r;
    }
    int e;
    double m = frexp(fabs(x), &e); /* |x| = m 2^e, m in [0.5, 1) */
    uint64_t mant = (uint64_t)ldexp(m, 53);
    int shift = e - 53 - emin; /* |x| = mant 2^(e - 53) */
    while (shift < 0 && (mant & 1) == 0) { /* trailing zero bits of the mantissa */
        mant >>= 1;
        shift++;
    }
    if (shift < 0) {
        return r; /* not a multiple: cannot happen with emin the smallest exponent */
    }
    int limb = shift / 32, bit = shift % 32;
    uint64_t lo = mant << bit, hi = bit > 0 ? mant >> (64 - bit) : 0; /* mant 2^bit < 2^85 */
    const uint32_t part[3] = {(uint32_t)lo, (uint32_t)(lo >> 32), (uint32_t)hi};
    for (int k = 0; k < 3 && limb + k < LIMBS; k++) {
        r.d[limb + k] = part[k];
    }
    r.neg = x < 0.0;
    return r;
}

/* the exponent of x's lowest set bit (x != 0) */
static int low_exp(double x)
{
    int e;
    double m = frexp(fabs(x), &e);
    uint64_t mant = (uint64_t)ldexp(m, 53);
    int z = 0;
    while ((mant & 1) == 0) {
        mant >>= 1;
        z++;
    }
    return e - 53 + z;
}

/* the exact sign of det[b - a; c - a; d - a] by big integers */
static int orient_ref(const double *a, const double *b, const double *c, const double *d)
{
    const double *p[4] = {a, b, c, d};
    int emin = 100000;
    for (int i = 0; i < 4; i++) {
        for (int k = 0; k < 3; k++) {
            if (p[i][k] != 0.0 && low_exp(p[i][k]) < emin) {
                emin = low_exp(p[i][k]);
            }
        }
    }
    big v[4][3];
    for (int i = 0; i < 4; i++) {
        for (int k = 0; k < 3; k++) {
            v[i][k] = big_from(p[i][k], emin);
        }
    }
    big u[3][3];
    for (int r = 0; r < 3; r++) {
        for (int k = 0; k < 3; k++) {
            u[r][k] = big_add(v[r + 1][k], big_neg(v[0][k]));
        }
    }
    big m0 = big_add(big_mul(u[1][1], u[2][2]), big_neg(big_mul(u[1][2], u[2][1])));
    big m1 = big_add(big_mul(u[1][2], u[2][0]), big_neg(big_mul(u[1][0], u[2][2])));
    big m2 = big_add(big_mul(u[1][0], u[2][1]), big_neg(big_mul(u[1][1], u[2][0])));
    big det = big_add(big_add(big_mul(u[0][0], m0), big_mul(u[0][1], m1)), big_mul(u[0][2], m2));
    return big_is_zero(&det) ? 0 : (det.neg ? -1 : 1);
}

static int sgn(double x) { return x > 0.0 ? 1 : (x < 0.0 ? -1 : 0); }

static imp_rng rng;
static double urand(void) { return imp_rng_uniform(&rng); }

/* imp_orient3d and imp_orient3d_exact both against the reference; counts the cases */
static int agree(const double *a, const double *b, const double *c, const double *d, int *zeros)
{
    int r = orient_ref(a, b, c, d);
    *zeros += r == 0;
    int s1 = sgn(imp_orient3d(a, b, c, d)), s2 = sgn(imp_orient3d_exact(a, b, c, d));
    if (s1 != r || s2 != r) {
        fprintf(stderr, "  orient3d %d, exact %d, reference %d for\n  (%.17g %.17g %.17g) (%.17g %.17g %.17g)\n"
                        "  (%.17g %.17g %.17g) (%.17g %.17g %.17g)\n",
                s1, s2, r, a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2], d[0], d[1], d[2]);
        return 0;
    }
    return 1;
}

/* the reference itself on cases with known answers */
TEST(reference_on_known_determinants)
{
    double o[3] = {0, 0, 0}, x[3] = {1, 0, 0}, y[3] = {0, 1, 0}, z[3] = {0, 0, 1}, mz[3] = {0, 0, -1};
    CHECK(orient_ref(o, x, y, z) == 1); /* (x cross y) . z = 1 */
    CHECK(orient_ref(o, y, x, z) == -1);
    CHECK(orient_ref(o, x, y, mz) == -1);
    double w[3] = {0.5, 0.25, 0}; /* in the plane z = 0 */
    CHECK(orient_ref(o, x, y, w) == 0);
    CHECK(sgn(imp_orient3d(o, x, y, z)) == 1);
    CHECK(imp_orient3d(o, x, y, w) == 0.0);
    CHECK_NEAR(imp_orient3d(o, x, y, z), 1.0, 0.0);
    double s[5] = {1e300, 1.0, -1e300, 1e-300, -1.0}; /* an exact sum */
    CHECK(imp_sum_sign(s, 5) == 1);
    double t[3] = {0.1, 0.2, -0.30000000000000004}; /* fl(0.1 + 0.2) - that: 0 in doubles */
    int ref = 0;
    {
        /* 0.1 + 0.2 - 0.30000000000000004 with big integers */
        int emin = low_exp(t[0]);
        for (int k = 1; k < 3; k++) {
            emin = low_exp(t[k]) < emin ? low_exp(t[k]) : emin;
        }
        big b = big_add(big_add(big_from(t[0], emin), big_from(t[1], emin)), big_from(t[2], emin));
        ref = big_is_zero(&b) ? 0 : (b.neg ? -1 : 1);
    }
    CHECK(imp_sum_sign(t, 3) == ref);
    CHECK(ref != 0); /* the rounded sum is 0.30000000000000004, the exact one is not */
}

TEST(random_points)
{
    imp_rng_seed(&rng, 1);
    int zeros = 0;
    for (int it = 0; it < 20000; it++) {
        double p[4][3];
        for (int i = 0; i < 4; i++) {
            for (int k = 0; k < 3; k++) {
                p[i][k] = 2 * urand() - 1;
            }
        }
        CHECK(agree(p[0], p[1], p[2], p[3], &zeros));
    }
    CHECK(zeros == 0);
}

/* small integer grids: many exactly coplanar quadruples */
TEST(integer_grid)
{
    imp_rng_seed(&rng, 2);
    int zeros = 0;
    for (int it = 0; it < 20000; it++) {
        double p[4][3];
        for (int i = 0; i < 4; i++) {
            for (int k = 0; k < 3; k++) {
                p[i][k] = (double)imp_rng_below(&rng, 4) - 1.0;
            }
        }
        CHECK(agree(p[0], p[1], p[2], p[3], &zeros));
    }
    CHECK(zeros > 2000);
}

/* d = a + i (b - a) + j (c - a) on a dyadic grid: exactly coplanar (0), then one coordinate of
   one point moved by one ulp either way: the sign as the reference says (0 only when the
   other three are collinear) */
TEST(coplanar_dyadic_and_one_ulp)
{
    imp_rng_seed(&rng, 3);
    int zeros = 0, flips = 0;
    for (int it = 0; it < 20000; it++) {
        double p[4][3];
        int scale = (int)imp_rng_below(&rng, 40) - 20;
        for (int i = 0; i < 3; i++) {
            for (int k = 0; k < 3; k++) {
                p[i][k] = ldexp((double)((int)imp_rng_below(&rng, 2048) - 1024), scale);
            }
        }
        int ii = (int)imp_rng_below(&rng, 9) - 4, jj = (int)imp_rng_below(&rng, 9) - 4;
        for (int k = 0; k < 3; k++) { /* exact: few bits */
            p[3][k] = p[0][k] + ii * (p[1][k] - p[0][k]) + jj * (p[2][k] - p[0][k]);
        }
        CHECK(agree(p[0], p[1], p[2], p[3], &zeros));
        int pi = (int)imp_rng_below(&rng, 4), pk = (int)imp_rng_below(&rng, 3);
        double q[4][3];
        memcpy(q, p, sizeof q);
        double dir = urand() < 0.5 ? -1.0 : 1.0; /* one ulp; a zero moves to 2^(scale - 40),
                                                    not to a subnormal (outside the range) */
        q[pi][pk] = q[pi][pk] != 0.0 ? nextafter(q[pi][pk], dir * INFINITY) : ldexp(dir, scale - 40);
        int z1 = zeros;
        CHECK(agree(q[0], q[1], q[2], q[3], &zeros));
        flips += zeros == z1;
    }
    CHECK(zeros >= 20000); /* every unperturbed quadruple is coplanar */
    CHECK(flips > 15000);  /* and most one-ulp moves leave the plane (some keep a degenerate triangle) */
}

/* points of a plane with non-dyadic coefficients, rounded: near-ties of all sizes; and points
   rounded onto a line (then every quadruple is nearly degenerate) */
TEST(rounded_plane_and_line)
{
    imp_rng_seed(&rng, 4);
    int zeros = 0;
    for (int it = 0; it < 20000; it++) {
        double o[3], u[3], v[3], p[4][3];
        for (int k = 0; k < 3; k++) {
            o[k] = 10 * urand() - 5, u[k] = urand() - 0.5, v[k] = urand() - 0.5;
        }
        int line = it % 4 == 0;
        for (int i = 0; i < 4; i++) {
            double s = 3 * urand() - 1.5, t = line ? 0.0 : 3 * urand() - 1.5;
            for (int k = 0; k < 3; k++) {
                p[i][k] = o[k] + s * u[k] + t * v[k];
            }
        }
        CHECK(agree(p[0], p[1], p[2], p[3], &zeros));
    }
}

/* huge and tiny coordinates over the stated range (1e-57 to 1e99), mixed magnitudes */
TEST(extreme_magnitudes)
{
    imp_rng_seed(&rng, 5);
    int zeros = 0;
    for (int it = 0; it < 5000; it++) {
        double p[4][3];
        int e = (int)imp_rng_below(&rng, 520) - 190; /* 2^-190 (6e-58) .. 2^332 (9e99) */
        for (int i = 0; i < 4; i++) {
            for (int k = 0; k < 3; k++) {
                p[i][k] = ldexp(2 * urand() - 1, e + (int)imp_rng_below(&rng, 3));
            }
        }
        if (it % 2 == 0) { /* nearly coplanar: d rounded onto the plane of a, b, c */
            double s = urand(), t = urand();
            for (int k = 0; k < 3; k++) {
                p[3][k] = p[0][k] + s * (p[1][k] - p[0][k]) + t * (p[2][k] - p[0][k]);
            }
        }
        CHECK(agree(p[0], p[1], p[2], p[3], &zeros));
    }
}

/* swapping two points negates the sign; translating all four by an exact dyadic amount that
   keeps the coordinates exact keeps it */
TEST(sign_rules)
{
    imp_rng_seed(&rng, 6);
    for (int it = 0; it < 5000; it++) {
        double p[4][3], q[4][3];
        for (int i = 0; i < 4; i++) {
            for (int k = 0; k < 3; k++) {
                p[i][k] = ldexp((double)((int)imp_rng_below(&rng, 1 << 20)), -20) + (i == 3 ? 1e-17 * urand() : 0.0);
            }
        }
        int s = sgn(imp_orient3d(p[0], p[1], p[2], p[3]));
        CHECK(sgn(imp_orient3d(p[1], p[0], p[2], p[3])) == -s);
        CHECK(sgn(imp_orient3d(p[0], p[1], p[3], p[2])) == -s);
        CHECK(sgn(imp_orient3d(p[1], p[2], p[0], p[3])) == s);
        CHECK(sgn(imp_orient3d(p[3], p[1], p[2], p[0])) == -s);
        double sh = ldexp((double)((int)imp_rng_below(&rng, 64) - 32), -4);
        for (int i = 0; i < 4; i++) {
            for (int k = 0; k < 3; k++) {
                q[i][k] = p[i][k] + sh;
            }
        }
        int zeros = 0;
        CHECK(agree(q[0], q[1], q[2], q[3], &zeros));
    }
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(reference_on_known_determinants);
    RUN(random_points);
    RUN(integer_grid);
    RUN(coplanar_dyadic_and_one_ulp);
    RUN(rounded_plane_and_line);
    RUN(extreme_magnitudes);
    RUN(sign_rules);
    return CHECK_END("predicates");
}
