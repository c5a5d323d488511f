/* test_poly_alloc.c: the polyhedral contact query allocates nothing in steady state. This
   binary replaces malloc, calloc, realloc and free by counting wrappers around glibc's own
   (__libc_malloc and friends), so every allocation made by the library during a query is
   counted. After one pass over a set of poses has grown the caller's workspace, further passes
   over the same poses (and over other poses of the same shapes: touching, separated, deep,
   containment with its narrow-phase normal) must make no allocation at all. Under ASan (make
   sanitize) or valgrind (which replaces these very functions) the allocator is theirs, so the
   counting is skipped there and only the queries run. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "check.h"
#include "contact_polyhedral.h"
#include "polyhedron.h"
#include "quat.h"
#include "rng.h"
#include "shape3d.h"

#if defined(__SANITIZE_ADDRESS__)
#define COUNTING 0
static long n_alloc;
#else
#define COUNTING 1
static long n_alloc;
void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t m);
void *__libc_realloc(void *p, size_t n);
void __libc_free(void *p);
void *malloc(size_t n);
void *calloc(size_t n, size_t m);
void *realloc(void *p, size_t n);
void free(void *p);
void *malloc(size_t n)
{
    n_alloc++;
    return __libc_malloc(n);
}
void *calloc(size_t n, size_t m)
{
    n_alloc++;
    return __libc_calloc(n, m);
}
void *realloc(void *p, size_t n)
{
    n_alloc++;
    return __libc_realloc(p, n);
}
void free(void *p) { __libc_free(p); }
#endif

enum { NPOSE = 300 };
static double poses[NPOSE][7];

static void make_poses(imp_rng *r, double spread)
{
    for (int i = 0; i < NPOSE; i++) {
        imp_quat q = imp_q_normalize(imp_q(2 * imp_rng_uniform(r) - 1, 2 * imp_rng_uniform(r) - 1,
                                           2 * imp_rng_uniform(r) - 1, 2 * imp_rng_uniform(r) - 1));
        double *p = poses[i];
        for (int c = 0; c < 3; c++) {
            p[c] = spread * (2 * imp_rng_uniform(r) - 1);
        }
        p[3] = q.w, p[4] = q.x, p[5] = q.y, p[6] = q.z;
    }
    /* special ones: concentric (containment), exactly touching on a face, far apart */
    double special[3][7] = {{0, 0, 0, 1, 0, 0, 0}, {0, 0, 1.0, 1, 0, 0, 0}, {5, 5, 5, 1, 0, 0, 0}};
    memcpy(poses[0], special[0], sizeof special[0]);
    memcpy(poses[1], special[1], sizeof special[1]);
    memcpy(poses[2], special[2], sizeof special[2]);
}

/* one pass: every pose of b against a at the origin; the number of contacts */
static int pass(const imp_shape *a, const imp_shape *b, imp_poly_work *w)
{
    const double pa[7] = {0, 0, 0, 1, 0, 0, 0};
    int contacts = 0;
    for (int i = 0; i < NPOSE; i++) {
        imp_poly_intersection s;
        imp_poly_contact c;
        contacts += imp_polyhedra_contact(a, pa, b, poses[i], 0.0, w, &s, &c) == IMP_PC_CONTACT;
    }
    return contacts;
}

TEST(steady_state_queries_allocate_nothing)
{
    imp_rng r;
    imp_rng_seed(&r, 7);
    double pts[3 * 27];
    for (int i = 0; i < 27; i++) {
        double z = 2 * imp_rng_uniform(&r) - 1, t = 6.283185307179586 * imp_rng_uniform(&r), q = sqrt(1 - z * z);
        pts[3 * i] = q * cos(t), pts[3 * i + 1] = q * sin(t), pts[3 * i + 2] = z;
    }
    imp_shape *box = imp_shape3d_box(1, 1, 1), *small = imp_shape3d_box(0.2, 0.2, 0.2);
    imp_shape *hull = imp_shape3d_convex(pts, 27, 0.0, NULL);
    CHECK(box != NULL && small != NULL && hull != NULL);
    const imp_shape *pairs[4][2] = {{box, box}, {hull, hull}, {box, small}, {hull, box}};
    imp_poly_work w = {0};
    make_poses(&r, 1.0);
    long warm = n_alloc;
    int first[4];
    for (int k = 0; k < 4; k++) { /* warm-up: the workspace grows to the largest query */
        first[k] = pass(pairs[k][0], pairs[k][1], &w);
        CHECK(first[k] > 0);
    }
    /* the hook sees the library's allocations, unless valgrind replaced the allocator, the
       test's own functions included (its default): then only the queries run */
    int counting = COUNTING && n_alloc > warm;
    const char *pre = getenv("LD_PRELOAD");
    CHECK(counting || !COUNTING || (pre != NULL && strstr(pre, "vgpreload") != NULL));
    long before = n_alloc;
    for (int rep = 0; rep < 3; rep++) {
        for (int k = 0; k < 4; k++) {
            CHECK(pass(pairs[k][0], pairs[k][1], &w) == first[k]);
        }
    }
    CHECK(n_alloc == before);
    make_poses(&r, 0.6); /* other poses, same shapes: still nothing */
    for (int k = 0; k < 4; k++) {
        pass(pairs[k][0], pairs[k][1], &w);
    }
    CHECK(n_alloc == before);
    if (!counting) {
        fprintf(stderr, "  (allocation counting skipped: the allocator belongs to ASan or valgrind)\n");
    }
    imp_poly_work_free(&w);
    imp_shape_release(box);
    imp_shape_release(small);
    imp_shape_release(hull);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(steady_state_queries_allocate_nothing);
    return CHECK_END("poly_alloc");
}
