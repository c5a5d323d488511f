/* test_broadphase2d.c: the sort-and-sweep broad phase against the all-pairs test, over many
   coherent steps and after jumps; the non-collide pair set. */
#include "broadphase2d.h"
#include "check.h"
#include "pairset.h"

static unsigned long long lcg_state = 12345;
static double rnd(void)  /* uniform in [0, 1), deterministic */
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(lcg_state >> 11) / 9007199254740992.0;
}

/* all-pairs reference: pairs (i < j) in ascending order */
static int brute(const double *b, int n, const imp_pairset *ex, int *out)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
            const double *p = b + 4 * i, *q = b + 4 * j;
            if (p[2] < p[0] || p[3] < p[1] || q[2] < q[0] || q[3] < q[1]) {
                continue;
            }
            if (p[0] <= q[2] && q[0] <= p[2] && p[1] <= q[3] && q[1] <= p[3] &&
                !(ex != NULL && imp_pairset_contains(ex, i, j))) {
                out[2 * m] = i;
                out[2 * m + 1] = j;
                m++;
            }
        }
    }
    return m;
}

TEST(matches_all_pairs_over_steps)
{
    enum { N = 300 };
    static double box[4 * N], pos[2 * N], vel[2 * N], size[N];
    static int ref[N * N];
    imp_pairset ex = IMP_PAIRSET_EMPTY;
    for (int i = 0; i < 40; i++) {
        CHECK(imp_pairset_add(&ex, (int)(rnd() * N), (int)(rnd() * N)) >= 0);
    }
    for (int i = 0; i < N; i++) {
        pos[2 * i] = 20 * rnd();
        pos[2 * i + 1] = 20 * rnd();
        vel[2 * i] = rnd() - 0.5;
        vel[2 * i + 1] = rnd() - 0.5;
        size[i] = 0.2 + 0.8 * rnd();
    }
    imp_bp2d bp = IMP_BP2D_EMPTY, unsorted = IMP_BP2D_EMPTY;
    bp.sort_pairs = 1;
    for (int step = 0; step < 60; step++) {
        for (int i = 0; i < N; i++) {
            pos[2 * i] += 0.1 * vel[2 * i];
            pos[2 * i + 1] += 0.1 * vel[2 * i + 1];
            if (step == 30 && i % 7 == 0) {
                pos[2 * i] = 20 * rnd();  /* a jump: the insertion sort must cope */
            }
            box[4 * i] = pos[2 * i] - size[i];
            box[4 * i + 1] = pos[2 * i + 1] - size[i];
            box[4 * i + 2] = pos[2 * i] + size[i];
            box[4 * i + 3] = pos[2 * i + 1] + size[i];
        }
        if (step == 10) {
            box[4 * 5 + 2] = box[4 * 5] - 1; /* an empty box */
        }
        int m = imp_bp2d_update(&bp, box, N, step % 2 ? &ex : NULL);
        int r = brute(box, N, step % 2 ? &ex : NULL, ref);
        CHECK(m == r);
        CHECK(memcmp(bp.pairs, ref, (size_t)(2 * m) * sizeof(int)) == 0);
        /* without sorting: the same set, each pair once with i < j */
        CHECK(imp_bp2d_update(&unsorted, box, N, step % 2 ? &ex : NULL) == m);
        static unsigned char seen[N][N];
        memset(seen, 0, sizeof seen);
        for (int k = 0; k < m; k++) {
            int i = unsorted.pairs[2 * k], j = unsorted.pairs[2 * k + 1];
            CHECK(i < j && !seen[i][j]);
            seen[i][j] = 1;
        }
        for (int k = 0; k < m; k++) {
            CHECK(seen[ref[2 * k]][ref[2 * k + 1]]);
        }
        if (step > 0 && step != 30) {
            CHECK(bp.shifts < 8LL * N);  /* coherent motion: insertion sort, not a full sort */
        }
    }
    CHECK(bp.full_sorts <= 2);
    /* touching boxes overlap; NaN is refused */
    double two[8] = {0, 0, 1, 1, 1, 1, 2, 2};
    CHECK(imp_bp2d_update(&bp, two, 2, NULL) == 1);
    two[0] = NAN;
    CHECK(imp_bp2d_update(&bp, two, 2, NULL) == -2);
    CHECK(imp_bp2d_update(&bp, two, 0, NULL) == 0);
    imp_bp2d_free(&bp);
    imp_bp2d_free(&unsorted);
    imp_pairset_free(&ex);
}

TEST(pairset_basics)
{
    imp_pairset s = IMP_PAIRSET_EMPTY;
    CHECK(imp_pairset_add(&s, 3, 1) == 1);
    CHECK(imp_pairset_add(&s, 1, 3) == 0);
    CHECK(imp_pairset_contains(&s, 1, 3) && imp_pairset_contains(&s, 3, 1));
    CHECK(!imp_pairset_contains(&s, 1, 2));
    for (int i = 0; i < 100; i++) {
        CHECK(imp_pairset_add(&s, i, 1000 - i) == 1);
    }
    CHECK(s.n == 101);
    for (int i = 1; i < s.n; i++) {
        CHECK(s.keys[i - 1] < s.keys[i]);
    }
    CHECK(imp_pairset_remove(&s, 1000, 0) == 1);
    CHECK(imp_pairset_remove(&s, 1000, 0) == 0);
    CHECK(imp_pairset_remove_body(&s, 1) == 2);  /* (1, 3) and (1, 999) */
    CHECK(!imp_pairset_contains(&s, 3, 1));
    CHECK(imp_pairset_add(&s, -1, 2) == -1);
    imp_pairset_free(&s);
    CHECK(!imp_pairset_contains(&s, 2, 5));
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(matches_all_pairs_over_steps);
    RUN(pairset_basics);
    return CHECK_END("broadphase2d");
}
