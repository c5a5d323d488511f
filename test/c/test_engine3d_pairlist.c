/* test_engine3d_pairlist.c: the detection's pair list (engine3d_pairlist.h) against a plain
   matrix of pairs under random begin and end events: the walk gives the pairs in (a, b) order,
   each pair keeps its entry until it ends, ended entries come back in the ends' order, and the
   runs' moves and the pool's packing lose nothing. */
#include <stdint.h>

#include "check.h"
#include "engine3d_pairlist.h"

enum { N = 60, ROUNDS = 400 };

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static unsigned urand(unsigned m)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (unsigned)((rng * 2685821657736338717ull) >> 33) % m;
}

static int listed[N][N]; /* 0, or the pair's entry + 2 (entry -1: 1) */

/* the list walked in order equals the matrix, row by row */
static int same(const imp_e3_pairlist *pl)
{
    int count = 0;
    for (int a = 0; a < N; a++) {
        const imp_e3_run *r = &pl->run[a];
        const imp_e3_link *l = pl->pool + r->start;
        int k = 0;
        for (int b = a + 1; b < N; b++) {
            if (listed[a][b] == 0) {
                continue;
            }
            if (k >= r->count || l[k].b != b || l[k].entry != listed[a][b] - 2) {
                return 0;
            }
            k++;
            count++;
        }
        if (k != r->count || r->count > r->room) {
            return 0;
        }
    }
    return count == pl->npairs;
}

TEST(random_events_keep_the_order_and_the_entries)
{
    imp_e3_pairlist pl = {0};
    CHECK(imp_e3_pairlist_reset(&pl, N) == 0);
    static int begins[2 * N * N], ends[2 * N * N], freed[N * N], want[N * N];
    int next_entry = 0;
    for (int round = 0; round < ROUNDS; round++) {
        int nb = 0, ne = 0, nwant = 0;
        /* a few rows change much (a wall's), the rest a little */
        for (int a = 0; a < N; a++) {
            for (int b = a + 1; b < N; b++) {
                unsigned odds = a < 2 ? 4 : 40;
                if (urand(odds) != 0) {
                    continue;
                }
                if (listed[a][b]) {
                    ends[2 * ne] = a, ends[2 * ne + 1] = b, ne++;
                    if (listed[a][b] >= 2) {
                        want[nwant++] = listed[a][b] - 2;
                    }
                    listed[a][b] = 0;
                } else {
                    begins[2 * nb] = a, begins[2 * nb + 1] = b, nb++;
                    listed[a][b] = 1;
                }
            }
        }
        /* an end of a pair not listed, and a begin of one listed, are passed over */
        if (round % 7 == 3 && ne < N * N - 1) {
            int a = N - 2, b = N - 1;
            if (listed[a][b] == 0) {
                ends[2 * ne] = a, ends[2 * ne + 1] = b, ne++;
            }
        }
        int nfreed = imp_e3_pairlist_end(&pl, ends, ne, freed);
        CHECK(nfreed == nwant);
        for (int k = 0; k < nfreed; k++) {
            CHECK(freed[k] == want[k]);
        }
        CHECK(imp_e3_pairlist_begin(&pl, begins, nb) == 0);
        if (nb > 0) {
            CHECK(imp_e3_pairlist_begin(&pl, begins, 1) == 0); /* listed already */
        }
        CHECK(same(&pl));
        /* the caller gives some pairs an entry (the narrow phase's cache) */
        for (int a = 0; a < N; a++) {
            imp_e3_run *r = &pl.run[a];
            for (int k = 0; k < r->count; k++) {
                imp_e3_link *l = &pl.pool[r->start + k];
                if (l->entry < 0 && urand(2) == 0) {
                    l->entry = next_entry++;
                    listed[a][l->b] = l->entry + 2;
                }
            }
        }
        CHECK(same(&pl));
    }
    CHECK(pl.used <= pl.pool_cap);
    CHECK(imp_e3_pairlist_reset(&pl, N) == 0);
    CHECK(pl.npairs == 0 && pl.run[N - 1].count == 0);
    imp_e3_pairlist_free(&pl);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(random_events_keep_the_order_and_the_entries);
    return CHECK_END("engine3d_pairlist");
}
