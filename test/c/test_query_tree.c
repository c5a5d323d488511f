/* test_query_tree.c: the queries' box hierarchy against brute force (box queries and segments
   crossing boxes, unbounded boxes included), and a closest-hit search that lowers fmax. */
#include <math.h>

#include "check.h"
#include "query_tree.h"

static unsigned long long lcg_state = 987654321;
static double rnd(void)  /* uniform in [0, 1), deterministic */
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(lcg_state >> 11) / 9007199254740992.0;
}

enum { N = 500 };
static double lo[3 * N], hi[3 * N];
static int seen[N + 1];

static int mark(void *user, int id)
{
    (void)user;
    seen[id]++;
    return 0;
}

static void mark_seg(void *user, int id, double *fmax)
{
    (void)user, (void)fmax;
    seen[id]++;
}

/* the entry fraction of the segment into box k, or INFINITY */
static double entry(int k, const double *o, const double *d)
{
    double tin = 0.0, tout = 1.0;
    for (int a = 0; a < 3; a++) {
        if (d[a] == 0.0) {
            if (o[a] < lo[3 * k + a] || o[a] > hi[3 * k + a]) {
                return INFINITY;
            }
            continue;
        }
        double t0 = (lo[3 * k + a] - o[a]) / d[a], t1 = (hi[3 * k + a] - o[a]) / d[a];
        tin = fmax(tin, fmin(t0, t1)), tout = fmin(tout, fmax(t0, t1));
    }
    return tin <= tout ? tin : INFINITY;
}

static void closest(void *user, int id, double *fmax)
{
    double *best = user;  /* {fraction, id} of the nearest box entered so far */
    double f = entry(id, best + 2, best + 5);
    if (f < best[0] || (f == best[0] && id < best[1])) {
        best[0] = f, best[1] = id;
    }
    *fmax = fmin(*fmax, best[0]);
}

TEST(matches_brute_force)
{
    imp_query_tree t = IMP_QUERY_TREE_EMPTY;
    CHECK(imp_query_tree_reserve(&t, N) == 0);
    for (int k = 0; k < N; k++) {
        for (int a = 0; a < 3; a++) {
            double c = 100 * rnd(), h = 0.1 + 3 * rnd();
            lo[3 * k + a] = c - h, hi[3 * k + a] = c + h;
        }
        if (k % 97 == 0) {  /* a wall-like box: unbounded below in z */
            lo[3 * k + 2] = -INFINITY;
        }
        imp_query_tree_add(&t, k, lo + 3 * k, hi + 3 * k);
    }
    imp_query_tree_build(&t);
    for (int q = 0; q < 200; q++) {
        double ql[3], qh[3], o[3], d[3];
        for (int a = 0; a < 3; a++) {
            ql[a] = 100 * rnd(), qh[a] = ql[a] + 10 * rnd();
            o[a] = 100 * rnd(), d[a] = 60 * rnd() - 30;
        }
        if (q % 10 == 0) {
            d[q % 3] = 0.0;  /* axis-parallel segments */
        }
        for (int k = 0; k < N; k++) {
            seen[k] = 0;
        }
        CHECK(imp_query_tree_box(&t, ql, qh, mark, NULL) == 0);
        for (int k = 0; k < N; k++) {
            int in = 1;
            for (int a = 0; a < 3; a++) {
                in &= lo[3 * k + a] <= qh[a] && ql[a] <= hi[3 * k + a];
            }
            CHECK(seen[k] == in);
        }
        for (int k = 0; k < N; k++) {
            seen[k] = 0;
        }
        imp_query_tree_segment(&t, o, d, 1.0, mark_seg, NULL);
        double want = INFINITY;
        int want_id = -1;
        for (int k = 0; k < N; k++) {
            double f = entry(k, o, d);
            CHECK(seen[k] == (f <= 1.0));
            if (f < want) {
                want = f, want_id = k;
            }
        }
        double best[8] = {INFINITY, -1, o[0], o[1], o[2], d[0], d[1], d[2]};
        imp_query_tree_segment(&t, o, d, 1.0, closest, best);
        CHECK((int)best[1] == want_id);
    }
    imp_query_tree_free(&t);
}

TEST(empty_and_one)
{
    imp_query_tree t = IMP_QUERY_TREE_EMPTY;
    double l[3] = {0, 0, 0}, h[3] = {1, 1, 1}, o[3] = {-1, 0.5, 0.5}, d[3] = {3, 0, 0};
    CHECK(imp_query_tree_reserve(&t, 0) == 0);
    imp_query_tree_build(&t);
    CHECK(imp_query_tree_box(&t, l, h, mark, NULL) == 0);
    CHECK(imp_query_tree_reserve(&t, 1) == 0);
    imp_query_tree_add(&t, 7, l, h);
    imp_query_tree_build(&t);
    seen[7] = 0;
    imp_query_tree_segment(&t, o, d, 1.0, mark_seg, NULL);
    CHECK(seen[7] == 1);
    imp_query_tree_free(&t);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(matches_brute_force);
    RUN(empty_and_one);
    return CHECK_END("query_tree");
}
