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
            CHECK(unsorted.shifts < 8LL * N);  /* coherent motion: insertion sort, not a full sort */
        }
    }
    CHECK(unsorted.full_sorts <= 2);
    CHECK(bp.full_sorts == 0);  /* sorted pairs: the grid every step, never the sweep */
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

/* The grid (sort_pairs, 32 boxes or more) against all pairs where its cells matter: a pyramid
   of touching unit boxes (pairs through cell borders, each reported once), big boxes (a
   ground, two overlapping walls), a box far away (larger cells), an empty box, and a box with
   an infinite side (the sweep then). */
TEST(grid_matches_all_pairs_in_packings)
{
    enum { BASE = 12, N = BASE * (BASE + 1) / 2 + 6 };
    static double box[4 * N];
    static int ref[N * N];
    imp_bp2d bp = IMP_BP2D_EMPTY;
    bp.sort_pairs = 1;
    for (int variant = 0; variant < 5; variant++) {
        int n = 0;
        for (int row = 0; row < BASE; row++) {
            for (int k = 0; k < BASE - row; k++, n++) {
                double x = 0.5 * row + k, y = row, grow = variant == 1 ? 0.01 * rnd() : 0.0;
                box[4 * n] = x - grow, box[4 * n + 1] = y - grow;
                box[4 * n + 2] = x + 1 + grow, box[4 * n + 3] = y + 1 + grow;
            }
        }
        double extra[6][4] = {{-20, -1, 40, 0}, {-3, -1, -2, 30}, {-2.5, 5, -1.5, 40},
                              {1e6, 1e6, 1e6 + 1, 1e6 + 1}, {3, 3, 2, 4}, {5, 5, 6, 6}};
        if (variant == 2) {
            extra[3][0] = extra[3][1] = 30, extra[3][2] = extra[3][3] = 31;  /* nothing far */
        }
        if (variant == 3) {
            extra[3][0] = 30, extra[3][2] = 31;  /* far in y only: one column, larger cells */
        }
        if (variant == 4) {
            extra[5][2] = INFINITY;
        }
        for (int k = 0; k < 6; k++, n++) {
            for (int c = 0; c < 4; c++) {
                box[4 * n + c] = extra[k][c];
            }
        }
        int m = imp_bp2d_update(&bp, box, n, NULL);
        int r = brute(box, n, NULL, ref);
        CHECK(m == r);
        CHECK(m > 0 && memcmp(bp.pairs, ref, (size_t)(2 * m) * sizeof(int)) == 0);
        CHECK(bp.full_sorts == (variant == 4));  /* the grid, but for the infinite side */
    }
    imp_bp2d_free(&bp);
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
    RUN(grid_matches_all_pairs_in_packings);
    RUN(pairset_basics);
    return CHECK_END("broadphase2d");
}
