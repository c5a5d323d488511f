/* bench_polyhedra.c: volumetric intersections (polytope_intersect.c) and contacts
   (contact_polyhedral.c) per second for box/box and for convex hulls of 20-50 faces, over
   random relative poses with the centres within about one size (most pairs overlap). Any
   argument also lists the poses whose contact was rejected (for debugging). */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"
#include "contact_polyhedral.h"
#include "polyhedron.h"
#include "quat.h"
#include "rng.h"
#include "shape3d.h"

enum { NPOSE = 1024 };
static double poses[NPOSE][2][7];

static void make_poses(imp_rng *r, double spread)
{
    for (int i = 0; i < NPOSE; i++) {
        for (int k = 0; k < 2; k++) {
            imp_quat q = imp_q_normalize(imp_q(2 * imp_rng_uniform(r) - 1, 2 * imp_rng_uniform(r) - 1,
                                               2 * imp_rng_uniform(r) - 1, 2 * imp_rng_uniform(r) - 1));
            double *p = poses[i][k];
            for (int c = 0; c < 3; c++) {
                p[c] = k == 0 ? 0.0 : spread * (2 * imp_rng_uniform(r) - 1);
            }
            p[3] = q.w, p[4] = q.x, p[5] = q.y, p[6] = q.z;
        }
    }
}

/* a hull of n random points on the unit sphere */
static imp_shape *random_hull(imp_rng *r, int n)
{
    double *pts = malloc((size_t)n * 3 * sizeof(double));
    if (pts == NULL) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        double z = 2 * imp_rng_uniform(r) - 1, t = 2 * 3.141592653589793 * imp_rng_uniform(r), s = sqrt(1 - z * z);
        pts[3 * i] = s * cos(t), pts[3 * i + 1] = s * sin(t), pts[3 * i + 2] = z;
    }
    int st;
    imp_shape *h = imp_shape3d_convex(pts, n, 0.0, &st);
    free(pts);
    return h;
}

static void bench(const char *name, const imp_shape *a, const imp_shape *b, imp_poly_work *w)
{
    int reps = 0, contacts = 0, rejected = 0, nv = 0, nf = 0;
    imp_polytope_sizes(a, &nv, &nf);
    int fa = nf;
    imp_polytope_sizes(b, &nv, &nf);
    double t0 = bench_now(), t = 0.0, vol = 0.0;
    do {
        for (int i = 0; i < NPOSE; i++) {
            imp_poly_intersection s;
            imp_poly_contact c;
            int st = imp_polyhedra_contact(a, poses[i][0], b, poses[i][1], 0.0, w, &s, &c);
            contacts += st == IMP_PC_CONTACT;
            rejected += st == IMP_PC_REJECTED;
            vol += s.volume;
        }
        reps++;
        t = bench_now() - t0;
    } while (t < 0.5);
    double n = (double)reps * NPOSE;
    printf("%-26s faces %3d + %3d: %9.0f contacts/s (%.2f us each; %.0f%% in contact, %d rejected; "
           "mean volume %.4g)\n",
           name, fa, nf, n / t, 1e6 * t / n, 100.0 * contacts / n, rejected, vol / n);
}

int main(int argc, char **argv)
{
    int diag = argc > 1;
    (void)argv;
    imp_rng r;
    imp_rng_seed(&r, 20261121);
    imp_poly_work w = {0};
    imp_shape *box = imp_shape3d_box(1, 1, 1);
    make_poses(&r, 0.8);
    bench("box/box", box, box, &w);
    int sizes[3] = {12, 20, 27}; /* points on a sphere: about 2n - 4 faces */
    for (int k = 0; k < 3; k++) {
        imp_shape *h = random_hull(&r, sizes[k]);
        if (h == NULL) {
            return 1;
        }
        char name[64];
        snprintf(name, sizeof name, "hull/hull (%d points)", sizes[k]);
        make_poses(&r, 1.2);
        if (diag) {
            for (int i = 0; i < NPOSE; i++) {
                imp_poly_intersection s;
                imp_poly_contact c;
                int st = imp_polyhedra_contact(h, poses[i][0], h, poses[i][1], 0.0, &w, &s, &c);
                if (st == IMP_PC_REJECTED) {
                    printf("pose %d: intersection status %d, distance %g volume %g\n", i, s.status, s.distance, s.volume);
                }
            }
        }
        bench(name, h, h, &w);
        imp_shape_release(h);
    }
    imp_poly_work_free(&w);
    imp_shape_release(box);
    printf("peak memory %.1f MiB\n", bench_peak_mib());
    return 0;
}
