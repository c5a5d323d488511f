/* test_hull3d.c: the exact hull (hull3d.c, rtol = 0) on inputs full of ties: integer grids
   (many exactly coplanar and collinear points), points rounded onto planes and lines, and
   duplicates. Checked with the exact predicate and exact integer facts, not with the hull's own
   numbers: every input point on or below every triangle (orient3d <= 0), every triangle
   spanning a plane, the neighbour links consistent (each edge shared by exactly two triangles
   with opposite directions), Euler's V - E + F = 2, every corner of the grid's box a vertex,
   the volume (signed tetrahedra, exact in doubles for small integers) the box's. Also: the
   workspace reused gives bit-identical results and stops growing. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "hull3d.h"
#include "predicates.h"
#include "rng.h"

static imp_rng rng;

/* 1 when h is a valid closed convex hull of the n points p (exact checks) */
static int valid_hull(const double *p, int n, const imp_hull3d *h)
{
    for (int v = 0; v < h->nvert; v++) {
        if (h->src[v] < 0 || h->src[v] >= n || memcmp(h->vert + 3 * v, p + 3 * h->src[v], 3 * sizeof(double)) != 0) {
            fprintf(stderr, "  vertex %d does not match its input point\n", v);
            return 0;
        }
    }
    for (int t = 0; t < h->ntri; t++) {
        const int *tr = h->tri + 3 * t;
        const double *a = h->vert + 3 * tr[0], *b = h->vert + 3 * tr[1], *c = h->vert + 3 * tr[2];
        int below = 0;
        for (int i = 0; i < n; i++) {
            double o = imp_orient3d(a, b, c, p + 3 * i);
            if (o > 0.0) {
                fprintf(stderr, "  point %d above triangle %d\n", i, t);
                return 0;
            }
            below += o < 0.0;
        }
        if (below == 0) {
            fprintf(stderr, "  triangle %d spans no plane\n", t);
            return 0;
        }
        for (int k = 0; k < 3; k++) {
            int u = h->nb[3 * t + k];
            if (u < 0 || u >= h->ntri) {
                return 0;
            }
            int found = 0; /* the edge (tr[k], tr[k+1]) appears reversed in u, which links back */
            for (int j = 0; j < 3; j++) {
                if (h->tri[3 * u + j] == tr[(k + 1) % 3] && h->tri[3 * u + (j + 1) % 3] == tr[k] && h->nb[3 * u + j] == t) {
                    found = 1;
                }
            }
            if (!found) {
                fprintf(stderr, "  triangle %d edge %d: neighbour %d does not match\n", t, k, u);
                return 0;
            }
        }
    }
    if (h->nvert - 3 * h->ntri / 2 + h->ntri != 2) {
        fprintf(stderr, "  Euler: V %d, F %d\n", h->nvert, h->ntri);
        return 0;
    }
    return 1;
}

static double volume(const imp_hull3d *h)
{
    double v = 0.0;
    for (int t = 0; t < h->ntri; t++) {
        const double *a = h->vert + 3 * h->tri[3 * t], *b = h->vert + 3 * h->tri[3 * t + 1],
                     *c = h->vert + 3 * h->tri[3 * t + 2];
        v += a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
    }
    return v / 6.0;
}

static int has_point(const imp_hull3d *h, double x, double y, double z)
{
    for (int v = 0; v < h->nvert; v++) {
        if (h->vert[3 * v] == x && h->vert[3 * v + 1] == y && h->vert[3 * v + 2] == z) {
            return 1;
        }
    }
    return 0;
}

/* all points of an a x b x c integer grid, shuffled: the hull is the box */
TEST(integer_grid_box)
{
    enum { A = 5, B = 4, C = 3, N = A * B * C };
    double p[3 * N];
    imp_rng_seed(&rng, 1);
    imp_hull3d_work w = {0};
    for (int rep = 0; rep < 20; rep++) {
        int k = 0;
        for (int i = 0; i < A; i++) {
            for (int j = 0; j < B; j++) {
                for (int l = 0; l < C; l++) {
                    p[3 * k] = i, p[3 * k + 1] = j, p[3 * k + 2] = l;
                    k++;
                }
            }
        }
        for (int i = N - 1; i > 0 && rep > 0; i--) { /* shuffle (the first one in order) */
            int j = (int)imp_rng_below(&rng, (uint64_t)i + 1);
            for (int c = 0; c < 3; c++) {
                double t = p[3 * i + c];
                p[3 * i + c] = p[3 * j + c];
                p[3 * j + c] = t;
            }
        }
        imp_hull3d h;
        CHECK(imp_hull3d_compute(p, N, 0.0, &w, &h) == IMP_HULL_OK);
        CHECK(valid_hull(p, N, &h));
        CHECK(volume(&h) == (double)((A - 1) * (B - 1) * (C - 1)));
        for (int c = 0; c < 8; c++) {
            CHECK(has_point(&h, (c & 1) ? A - 1 : 0, (c & 2) ? B - 1 : 0, (c & 4) ? C - 1 : 0));
        }
    }
    imp_hull3d_work_free(&w);
}

/* random small-integer points with duplicates, and points rounded onto a plane plus a few off
   it, and onto a line plus a few off it */
TEST(ties_of_every_kind)
{
    enum { N = 80 };
    double p[3 * N];
    imp_rng_seed(&rng, 2);
    imp_hull3d_work w = {0};
    int ok = 0;
    for (int it = 0; it < 3000; it++) {
        int kind = it % 3;
        double o[3], u[3], v[3];
        for (int k = 0; k < 3; k++) {
            o[k] = imp_rng_uniform(&rng) - 0.5, u[k] = imp_rng_uniform(&rng) - 0.5, v[k] = imp_rng_uniform(&rng) - 0.5;
        }
        for (int i = 0; i < N; i++) {
            double s = 2 * imp_rng_uniform(&rng) - 1, t = 2 * imp_rng_uniform(&rng) - 1;
            for (int k = 0; k < 3; k++) {
                if (kind == 0) {
                    p[3 * i + k] = (double)imp_rng_below(&rng, 3);
                } else {
                    p[3 * i + k] = o[k] + s * u[k] + (kind == 1 ? t * v[k] : 0.0);
                }
            }
            if (kind > 0 && i % 10 == 0) { /* off the plane or the line */
                for (int k = 0; k < 3; k++) {
                    p[3 * i + k] += 0.3 * (imp_rng_uniform(&rng) - 0.5);
                }
            }
        }
        imp_hull3d h;
        int st = imp_hull3d_compute(p, N, 0.0, &w, &h);
        if (st == IMP_HULL_EFLAT) {
            continue; /* the integer points can all lie in a plane */
        }
        CHECK(st == IMP_HULL_OK);
        CHECK(valid_hull(p, N, &h));
        ok++;
    }
    CHECK(ok > 2900);
    imp_hull3d_work_free(&w);
}

/* flat input: exactly coplanar points are EFLAT (exact), however many */
TEST(flat_and_bad_input)
{
    double p[3 * 30];
    for (int i = 0; i < 30; i++) {
        p[3 * i] = i % 5, p[3 * i + 1] = i / 5, p[3 * i + 2] = 0.25 * (i % 5) + 0.5 * (i / 5); /* a plane */
    }
    imp_hull3d_work w = {0};
    imp_hull3d h;
    CHECK(imp_hull3d_compute(p, 30, 0.0, &w, &h) == IMP_HULL_EFLAT);
    p[3 * 7 + 2] = nextafter(p[3 * 7 + 2], 10.0); /* one ulp off the plane: a (thin) solid */
    CHECK(imp_hull3d_compute(p, 30, 0.0, &w, &h) == IMP_HULL_OK);
    CHECK(valid_hull(p, 30, &h));
    CHECK(imp_hull3d_compute(p, 3, 0.0, &w, &h) == IMP_HULL_EBADARG);
    p[4] = NAN;
    CHECK(imp_hull3d_compute(p, 30, 0.0, &w, &h) == IMP_HULL_EBADARG);
    imp_hull3d_work_free(&w);
}

/* the workspace: reused, the same answer bit for bit; it grows to the largest input and stays */
TEST(workspace_reuse)
{
    enum { N = 200 };
    double p[3 * N];
    imp_rng_seed(&rng, 3);
    for (int i = 0; i < N; i++) {
        double z = 2 * imp_rng_uniform(&rng) - 1, t = 6.283185307179586 * imp_rng_uniform(&rng), s = sqrt(1 - z * z);
        p[3 * i] = s * cos(t), p[3 * i + 1] = s * sin(t), p[3 * i + 2] = z;
    }
    imp_hull3d_work w = {0};
    imp_hull3d h;
    CHECK(imp_hull3d_compute(p, N, 0.0, &w, &h) == IMP_HULL_OK);
    CHECK(h.nvert == N);
    int nt = h.ntri;
    static int tri[3 * 2 * N];
    memcpy(tri, h.tri, (size_t)nt * 3 * sizeof(int));
    void *f = w.faces, *ib = w.ibuf, *db = w.dbuf;
    size_t fc = w.face_cap, ic = w.icap, dc = w.dcap;
    for (int rep = 0; rep < 5; rep++) {
        CHECK(imp_hull3d_compute(p, N / 2, 0.0, &w, &h) == IMP_HULL_OK);
        CHECK(imp_hull3d_compute(p, N, 0.0, &w, &h) == IMP_HULL_OK);
        CHECK(h.ntri == nt && memcmp(h.tri, tri, (size_t)nt * 3 * sizeof(int)) == 0);
        CHECK(w.faces == f && w.ibuf == ib && w.dbuf == db && w.face_cap == fc && w.icap == ic && w.dcap == dc);
    }
    imp_hull3d_work_free(&w);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(integer_grid_box);
    RUN(ties_of_every_kind);
    RUN(flat_and_bad_input);
    RUN(workspace_reuse);
    return CHECK_END("hull3d");
}
