/* test_shape2d_alloc.c: the 2D polygon builder fails cleanly when memory runs out at any of
   its allocations (edges, path offsets, the crossing sweep's boxes, the paths' boxes, the
   vertices, the edge tree of a large polygon, the shape): NULL with IMP_POLY_NO_MEMORY,
   nothing leaked (make sanitize checks leaks). This binary replaces malloc and calloc by wrappers around glibc's own that fail the
   n-th call; under ASan or valgrind (whose allocator replaces these wrappers too) the test
   only builds once. */
#include <stddef.h>

#include "check.h"
#include "polygon2d.h"

#if defined(__SANITIZE_ADDRESS__)
#define INJECTING 0
#else
#define INJECTING 1
static long fail_at = -1, n_alloc;
void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t m);
void *malloc(size_t n);
void *calloc(size_t n, size_t m);
void *malloc(size_t n)
{
    if (fail_at >= 0 && n_alloc++ == fail_at) {
        return NULL;
    }
    return __libc_malloc(n);
}
void *calloc(size_t n, size_t m)
{
    if (fail_at >= 0 && n_alloc++ == fail_at) {
        return NULL;
    }
    return __libc_calloc(n, m);
}
#endif

#define MOVE(x, y) {IMP_PATH_MOVE, (x), (y), 0, 0, 0, 0}
#define LINE(x, y) {IMP_PATH_LINE, (x), (y), 0, 0, 0, 0}
#define ARC(x, y, cx, cy, out) {IMP_PATH_ARC, (x), (y), (cx), (cy), (out), 0}
#define CLOSE {IMP_PATH_CLOSE, 0, 0, 0, 0, 0, 0}

TEST(builder_out_of_memory)
{
    /* a rounded square with a round hole: arcs (decorated vertices), two paths */
    const imp_path2d_cmd c[] = {MOVE(-0.4, -0.5), LINE(0.4, -0.5), ARC(0.5, -0.4, 0.4, -0.4, 1),
                                LINE(0.5, 0.4), ARC(0.4, 0.5, 0.4, 0.4, 1), LINE(-0.4, 0.5),
                                ARC(-0.5, 0.4, -0.4, 0.4, 1), LINE(-0.5, -0.4),
                                ARC(-0.4, -0.5, -0.4, -0.4, 1), CLOSE,
                                MOVE(0.2, 0), ARC(0.2, 0, 0, 0, 0), CLOSE};
    int n = (int)(sizeof c / sizeof c[0]);
    imp_poly2d_error err;
#if INJECTING
    int failures = 0;
    for (long k = 0; k < 64; k++) {
        fail_at = k;
        n_alloc = 0;
        imp_shape *s = imp_shape2d_polygon(c, n, 0.05, &err);
        fail_at = -1;
        if (n_alloc == 0) {  /* valgrind: its allocator, not these wrappers */
            if (s != NULL) {
                imp_shape_release(s);
            }
            failures = 6;
            break;
        }
        if (s != NULL) {
            imp_shape_release(s);
            break;  /* k is past the builder's last allocation */
        }
        CHECK(err.status == IMP_POLY_NO_MEMORY);
        failures++;
    }
    CHECK(failures >= 6);
#endif
    imp_shape *s = imp_shape2d_polygon(c, n, 0.05, &err);
    CHECK(s != NULL);
    imp_shape_release(s);
}

/* a polygon of more than 32 edges also allocates its edge tree (collide2d_tree.h) */
TEST(edge_tree_out_of_memory)
{
    imp_poly2d_error err;
#if INJECTING
    int failures = 0;
    for (long k = 0; k < 64; k++) {
        fail_at = k;
        n_alloc = 0;
        imp_shape *s = imp_shape2d_ngon(100, 1.0, &err);
        fail_at = -1;
        if (n_alloc == 0) {
            if (s != NULL) {
                imp_shape_release(s);
            }
            failures = 6;
            break;
        }
        if (s != NULL) {
            CHECK(imp_shape2d_poly(s)->tree != NULL);
            imp_shape_release(s);
            break;
        }
        CHECK(err.status == IMP_POLY_NO_MEMORY);
        failures++;
    }
    CHECK(failures >= 6);
#endif
    imp_shape *s = imp_shape2d_ngon(100, 1.0, &err);
    CHECK(s != NULL && imp_shape2d_poly(s)->tree != NULL);
    imp_shape_release(s);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(builder_out_of_memory);
    RUN(edge_tree_out_of_memory);
    return CHECK_END("shape2d_alloc");
}
