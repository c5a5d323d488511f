/* bench_narrowphase3d.c: narrow-phase queries per second by shape pair (random poses with
   centres within about one shape size, so roughly half of them penetrate). */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "collide3d.h"
#include "quat.h"
#include "shape3d.h"

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static double urand(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (double)((rng * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
}
static double srand1(void) { return 2.0 * urand() - 1.0; }

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

enum { NPOSE = 1024 };
static double poses[NPOSE][2][7];

typedef int (*query_fn)(const imp_shape *, const double *, const imp_shape *, const double *, imp_contact3d *);

static void bench(const char *name, imp_shape *a, imp_shape *b, double spread, query_fn fn)
{
    for (int i = 0; i < NPOSE; i++) {
        for (int k = 0; k < 2; k++) {
            imp_quat q = imp_q_normalize(imp_q(srand1(), srand1(), srand1(), srand1()));
            double *p = poses[i][k];
            p[0] = spread * srand1(), p[1] = spread * srand1(), p[2] = spread * srand1();
            p[3] = q.w, p[4] = q.x, p[5] = q.y, p[6] = q.z;
        }
    }
    long n = 0, iters = 0, pen = 0;
    double t0 = now(), t;
    do {
        for (int i = 0; i < NPOSE; i++) {
            imp_contact3d c;
            fn(a, poses[i][0], b, poses[i][1], &c);
            iters += c.iterations;
            pen += c.distance < 0.0;
        }
        n += NPOSE;
        t = now() - t0;
    } while (t < 0.25);
    printf("narrowphase3d: %-34s %10.0f queries/s  %6.1f support iterations/query  %3.0f%% penetrating\n", name,
           (double)n / t, (double)iters / (double)n, 100.0 * (double)pen / (double)n);
    imp_shape_release(a);
    imp_shape_release(b);
}

static imp_shape *hull(int n, double r)
{
    double p[3 * 64];
    for (int i = 0; i < n; i++) { /* points on an ellipsoid */
        double z = srand1(), t = 6.283185307179586 * urand(), q = sqrt(1.0 - z * z);
        p[3 * i] = 0.5 * q * cos(t), p[3 * i + 1] = 0.4 * q * sin(t), p[3 * i + 2] = 0.3 * z;
    }
    return imp_shape3d_convex(p, n, r, NULL);
}

int main(void)
{
    double w[3] = {0, 0, 1};
    bench("sphere/sphere (analytic)", imp_shape3d_sphere(0.5), imp_shape3d_sphere(0.4), 0.8, imp_collide3d);
    bench("sphere/box (analytic)", imp_shape3d_sphere(0.3), imp_shape3d_box(1, 0.8, 0.6), 0.8, imp_collide3d);
    bench("capsule/capsule (analytic)", imp_shape3d_capsule(0.2, 1), imp_shape3d_capsule(0.3, 0.5), 0.5,
          imp_collide3d);
    bench("cylinder/wall (analytic)", imp_shape3d_cylinder(0.3, 1, 0.05), imp_shape3d_wall(w), 0.8, imp_collide3d);
    bench("sphere/box (general path)", imp_shape3d_sphere(0.3), imp_shape3d_box(1, 0.8, 0.6), 0.5,
          imp_collide3d_general);
    bench("box/box", imp_shape3d_box(1, 0.8, 0.6), imp_shape3d_box(0.7, 0.5, 0.9), 0.8, imp_collide3d);
    bench("smoothed box/smoothed box (r=0.05)", imp_shape3d_box_smoothed(1, 0.8, 0.6, 0.05),
          imp_shape3d_box_smoothed(0.7, 0.5, 0.9, 0.05), 0.8, imp_collide3d);
    bench("cylinder/cylinder (r=0.05)", imp_shape3d_cylinder(0.3, 1, 0.05), imp_shape3d_cylinder(0.4, 0.6, 0.05),
          0.8, imp_collide3d);
    bench("ellipsoid/ellipsoid", imp_shape3d_ellipsoid(0.5, 0.3, 0.2), imp_shape3d_ellipsoid(0.4, 0.4, 0.2), 0.4,
          imp_collide3d);
    bench("cone/box", imp_shape3d_cone(0.4, 0.8, 0.0), imp_shape3d_box(1, 0.8, 0.6), 0.8, imp_collide3d);
    bench("convex 32 pts/convex 32 pts", hull(32, 0.0), hull(32, 0.0), 0.7, imp_collide3d);
    bench("convex 32 pts r=0.02/box", hull(32, 0.02), imp_shape3d_box(1, 0.8, 0.6), 0.7, imp_collide3d);
    bench("MPR estimate only: box/box", imp_shape3d_box(1, 0.8, 0.6), imp_shape3d_box(0.7, 0.5, 0.9), 0.5,
          imp_collide3d_mpr);
    bench("MPR estimate only: ellipsoid/ellipsoid", imp_shape3d_ellipsoid(0.5, 0.3, 0.2),
          imp_shape3d_ellipsoid(0.4, 0.4, 0.2), 0.7, imp_collide3d_mpr);
    return 0;
}
