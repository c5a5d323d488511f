/* bench_collide2d.c: narrow-phase proximity tests per second (ball/ball, block/block,
   arc/arc, with previous poses so the swept vertex tests run too) and the sort-and-sweep broad
   phase update time for 1000 and 10000 moving bodies. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "broadphase2d.h"
#include "collide2d_batch.h"
#include "collide2d.h"
#include "distance2d.h"
#include "polygon2d.h"
#include "scalar.h"

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static unsigned long long state = 42;
static double rnd(void)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(state >> 11) / 9007199254740992.0;
}

enum { NPAIRS = 1024 };

/* pairs placed near touching (gap in [-0.01, 0.02] along a random direction, by the distance
   query), random angles, small motion since the previous pose */
static void bench_pairs(const char *name, const imp_shape *a, const imp_shape *b)
{
    static imp_body2d A[NPAIRS], B[NPAIRS];
    imp_detect2d_params p = {0.01, 0.5, 0, 0};
    for (int i = 0; i < NPAIRS; i++) {
        double th = 2 * IMP_PI * rnd();
        imp_body2d x = {a, 0, {0, 0, 2 * IMP_PI * rnd()}, {0, 0, 0}, 1, {0, 0, 0}};
        imp_body2d y = {b, 1, {0, 0, 2 * IMP_PI * rnd()}, {0, 0, 0}, 1, {0, 0, 0}};
        double dist = a->radius + b->radius, want = -0.01 + 0.03 * rnd();
        /* slide b along th until the signed distance is the wanted gap (a few secant steps) */
        for (int it = 0; it < 30; it++) {
            y.pose[0] = dist * cos(th);
            y.pose[1] = dist * sin(th);
            imp_distance2d r;
            imp_collide2d_distance(a, x.pose, b, y.pose, &r);
            if (fabs(r.distance - want) < 1e-6) {
                break;
            }
            dist -= r.distance - want;
        }
        for (int k = 0; k < 3; k++) {
            x.prev_pose[k] = x.pose[k];
            y.prev_pose[k] = y.pose[k] - 0.005 * (k < 2 ? cos(th + k * IMP_PI / 2) : 0.1);
        }
        y.velocity[0] = -0.2 * cos(th);
        y.velocity[1] = -0.2 * sin(th);
        A[i] = x;
        B[i] = y;
    }
    imp_hit2d hits[256];
    long long found = 0;
    int reps = 0;
    double t0 = now(), t;
    do {
        for (int i = 0; i < NPAIRS; i++) {
            found += imp_collide2d_detect(&A[i], &B[i], &p, hits, 256);
        }
        reps++;
        t = now() - t0;
    } while (t < 1.0);
    double rate = reps * (double)NPAIRS / t;
    printf("collide2d %-14s detect (near contact, swept): %10.0f tests/s  %6.2f us/test  "
           "(%.2f results/test)\n", name, rate, 1e6 / rate, (double)found / (reps * (double)NPAIRS));
    reps = 0;
    t0 = now();
    do {
        for (int i = 0; i < NPAIRS; i++) {
            imp_distance2d r;
            imp_collide2d_distance(A[i].shape, A[i].pose, B[i].shape, B[i].pose, &r);
        }
        reps++;
        t = now() - t0;
    } while (t < 0.5);
    rate = reps * (double)NPAIRS / t;
    printf("collide2d %-14s distance query:               %10.0f tests/s  %6.2f us/test\n", name,
           rate, 1e6 / rate);
}

static void bench_broadphase(int n)
{
    double *box = malloc((size_t)n * 4 * sizeof *box), *pos = malloc((size_t)n * 4 * sizeof *pos);
    if (box == NULL || pos == NULL) {
        free(box);
        free(pos);
        return;
    }
    /* unit-ish boxes at a density of about one body per 4 square units */
    double side = sqrt(4.0 * n);
    for (int i = 0; i < n; i++) {
        pos[4 * i] = side * rnd();
        pos[4 * i + 1] = side * rnd();
        pos[4 * i + 2] = 0.02 * (rnd() - 0.5);  /* per-step displacement */
        pos[4 * i + 3] = 0.02 * (rnd() - 0.5);
    }
    imp_bp2d bp = IMP_BP2D_EMPTY;
    int steps = n > 5000 ? 200 : 1000;
    long long pairs = 0;
    double t_first = 0.0, t_sum = 0.0;
    for (int s = 0; s <= steps; s++) {
        for (int i = 0; i < n; i++) {
            pos[4 * i] += pos[4 * i + 2];
            pos[4 * i + 1] += pos[4 * i + 3];
            double h = 0.5 + 0.1 * (i % 5);
            box[4 * i] = pos[4 * i] - h;
            box[4 * i + 1] = pos[4 * i + 1] - h;
            box[4 * i + 2] = pos[4 * i] + h;
            box[4 * i + 3] = pos[4 * i + 1] + h;
        }
        double t0 = now();
        int m = imp_bp2d_update(&bp, box, n, NULL);
        double dt = now() - t0;
        if (s == 0) {
            t_first = dt;
        } else {
            t_sum += dt;
            pairs += m;
        }
    }
    printf("broadphase2d %5d bodies: first update (full sort) %8.1f us, then %8.1f us/update "
           "(%.0f candidate pairs/step, %d full sorts)\n", n, 1e6 * t_first, 1e6 * t_sum / steps,
           (double)pairs / steps, bp.full_sorts);
    imp_bp2d_free(&bp);
    free(box);
    free(pos);
}

/* broad + narrow phase over n mixed bodies in a box at about half packing density, with
   each body's transforms computed per pair (imp_collide2d_batch) or once per body and step
   (cached: imp_collide2d_batch_xf, as the 2D engine runs it) */
static void bench_batch(int n, imp_shape *const *shapes, int cached)
{
    imp_body2d *b = malloc((size_t)n * sizeof *b);
    double *boxes = malloc((size_t)n * 4 * sizeof *boxes);
    imp_body2d_xf *xf = malloc((size_t)n * sizeof *xf);
    int cap = 16 * n;
    imp_hit2d *out = malloc((size_t)cap * sizeof *out);
    if (b == NULL || boxes == NULL || xf == NULL || out == NULL) {
        free(b);
        free(boxes);
        free(xf);
        free(out);
        return;
    }
    state = 4242;  /* the same scene for both variants */
    double side = sqrt(2.0 * n);
    for (int i = 0; i < n; i++) {
        imp_body2d x = {shapes[i % 3], i, {side * rnd(), side * rnd(), 6.28 * rnd()}, {0, 0, 0}, 1,
                        {rnd() - 0.5, rnd() - 0.5, rnd() - 0.5}};
        b[i] = x;
    }
    imp_bp2d bp = IMP_BP2D_EMPTY;
    imp_detect2d_params p = {0.01, 0.5, 0, 0};
    int steps = 100;
    long long hits = 0;
    double t = 0.0;
    for (int s = 0; s <= steps; s++) {
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < 3; k++) {
                b[i].prev_pose[k] = b[i].pose[k];
                b[i].pose[k] += 0.025 * b[i].velocity[k];
            }
        }
        double t0 = now();
        int m = cached ? imp_collide2d_batch_xf(b, n, NULL, &bp, NULL, &p, boxes, xf, out, cap)
                       : imp_collide2d_batch(b, n, NULL, &bp, NULL, &p, boxes, out, cap);
        if (s > 0) {
            t += now() - t0;
            hits += m;
        }
    }
    printf("collide2d batch %5d bodies (balls, blocks, arc tops; half packed), %s: %8.1f us/step "
           "(%.0f results/step)\n", n, cached ? "transforms once per body" : "transforms per pair",
           1e6 * t / steps, (double)hits / steps);
    imp_bp2d_free(&bp);
    free(b);
    free(boxes);
    free(xf);
    free(out);
}

int main(void)
{
    imp_shape *ball = imp_shape2d_ball(0.5, IMP_POLY2D_DEFAULT_SPACING, NULL);
    imp_shape *blk = imp_shape2d_block(1.0, 0.6, NULL);
    imp_shape *arc = imp_shape2d_arc_top_block(1.0, 0.5, 0.6, 1, IMP_POLY2D_DEFAULT_SPACING, NULL);
    imp_shape *cave = imp_shape2d_arc_top_block(1.0, 0.5, 0.6, 0, IMP_POLY2D_DEFAULT_SPACING, NULL);
    if (ball == NULL || blk == NULL || arc == NULL || cave == NULL) {
        return 1;
    }
    bench_pairs("ball/ball", ball, ball);
    bench_pairs("block/block", blk, blk);
    bench_pairs("arc/arc", arc, arc);
    bench_pairs("concave/ball", cave, ball);
    bench_broadphase(1000);
    bench_broadphase(10000);
    imp_shape *mix[3] = {ball, blk, arc};
    bench_batch(1000, mix, 0);
    bench_batch(1000, mix, 1);
    imp_shape_release(ball);
    imp_shape_release(blk);
    imp_shape_release(arc);
    imp_shape_release(cave);
    return 0;
}
