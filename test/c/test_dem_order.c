/* test_dem_order.c: the interactions kept in the order of their pairs (dem_order.c). In a small
   deposition (300 spheres on a 5 x 5 grid in a box, 5000 steps: the cloud lands and piles up),
   after every collider run the interactions are in increasing (a, b), each pair once, the map
   finds each at its place and the hot copies are the records' pairs and classes. An order
   scrambled by hand is restored with every record's contents following its pair. And the
   order changes the sums' rounding only: the pile's mean height falls as in a run whose
   interactions are scrambled before every interaction loop (the same physics summed in another
   order), within 1 % of the fall (rounding differences grow in a granular flow: 0.2 % here).
   The collider's merge (holes dropped, new ones merged in) gives the same order. */
#include "check.h"

#include "dem_scene.h"

enum { N = 300, NX = 5, NY = 5, STEPS = 5000 };

/* the order, the map and the hot copies of d's interactions */
static int consistent(const imp_dem *d)
{
    for (int k = 0; k < d->ninter; k++) {
        const imp_dem_inter *I = &d->inter[k];
        const int *h = d->hot + 3 * k;
        if (h[0] != I->a || h[1] != I->b || h[2] != (I->real ? imp_dem_hot_class(d, I->a) : 0)
            || imp_dem_find(d, I->a, I->b) != k || imp_dem_find(d, I->b, I->a) != k) {
            return 0;
        }
        if (k > 0) {
            const imp_dem_inter *P = &d->inter[k - 1];
            if (P->a > I->a || (P->a == I->a && P->b >= I->b)) {
                return 0;
            }
        }
    }
    return 1;
}

/* a reversible scramble of the interactions: a pseudo-random exchange of records (with their
   hot copies), the map rebuilt */
static void scramble(imp_dem *d, unsigned seed)
{
    if (d->ninter < 2) {
        return;
    }
    for (int k = d->ninter - 1; k > 0; k--) {
        seed = seed * 1103515245u + 12345u;
        int j = (int)((seed >> 8) % (unsigned)(k + 1));
        imp_dem_inter t = d->inter[k];
        d->inter[k] = d->inter[j];
        d->inter[j] = t;
        int h[3];
        memcpy(h, d->hot + 3 * k, sizeof h);
        memcpy(d->hot + 3 * k, d->hot + 3 * j, sizeof h);
        memcpy(d->hot + 3 * j, h, sizeof h);
    }
    memset(d->hot_dirty, 1, (size_t)d->inter_cap / IMP_DEM_HOT_BLOCK + 1);
    imp_dem_map_rebuild(d);
}

static double mean_z(const imp_dem *d)
{
    double s = 0.0;
    int c = 0;
    for (int i = 0; i < d->n; i++) {
        if (d->kind[i] == IMP_DEM_SPHERE) {
            s += d->pos[3 * i + 2];
            c++;
        }
    }
    return s / c;
}

TEST(ordered_after_every_run)
{
    imp_world *w = dem_scene_deposit(N, NX, NY, 0.2, -0.1);
    imp_world *b = dem_scene_deposit(N, NX, NY, 0.2, -0.1);
    CHECK(w != NULL && b != NULL);
    imp_dem *d = w->dem;
    const double z0 = mean_z(d);
    long runs = d->collider_runs;
    int checked = 0, max_real = 0;
    for (int s = 0; s < STEPS; s++) {
        CHECK(imp_world_step(w) == IMP_OK);
        if (d->collider_runs != runs) {
            runs = d->collider_runs;
            CHECK(consistent(d));
            checked++;
        }
        int real = imp_dem_real_count(d);
        max_real = real > max_real ? real : max_real;
        /* b: its interactions in another order at every step (after the collider's sort, the
           scramble holds until the next run) */
        scramble(b->dem, 11u + (unsigned)s);
        CHECK(imp_world_step(b) == IMP_OK);
    }
    printf("collider runs checked %d, most real interactions %d, interactions %d\n", checked,
           max_real, d->ninter);
    CHECK(checked > 100);
    CHECK(max_real > 150);  /* a pile: many contacts were made, erased, moved */
    /* the same physics in another order */
    const double za = mean_z(d), zb = mean_z(b->dem);
    printf("mean z: from %.6f to %.9f (in order) and %.9f (scrambled)\n", z0, za, zb);
    CHECK(za < z0 - 0.05);  /* the cloud fell onto the floor */
    CHECK_NEAR(za, zb, 0.01 * (z0 - za));  /* chaos: 0.2 % of the fall in 5000 steps */
    /* scrambled by hand: restored, each record's contents with its pair */
    int m = d->ninter;
    double *un = malloc((size_t)m * sizeof *un), *fs = malloc((size_t)m * sizeof *fs);
    CHECK(un != NULL && fs != NULL);
    for (int k = 0; k < m; k++) {
        un[k] = d->inter[k].un, fs[k] = d->inter[k].fs[1];
    }
    scramble(d, 7u);
    CHECK(!consistent(d));
    CHECK(imp_dem_order_interactions(d) == 1);
    CHECK(consistent(d));
    CHECK(d->ninter == m);
    int same = 1;
    for (int k = 0; k < m; k++) {
        same &= un[k] == d->inter[k].un && fs[k] == d->inter[k].fs[1];
    }
    free(un);
    free(fs);
    CHECK(same);
    CHECK(imp_dem_order_interactions(d) == 0);  /* in order: nothing moves */
    CHECK(imp_world_step(w) == IMP_OK);
    imp_world_free(w);
    imp_world_free(b);
}

/* the collider's merge (imp_dem_order_merge): a pile's interactions in order, some erased as
   holes and new ones added after them, in a few rounds: after the merge the holes are gone, the
   new ones in their places (consistent: in order, the map and the hot copies right), and each
   old record's contents follow its pair; an order scrambled before the holes are made is sorted
   again (the whole sort) */
TEST(merge_drops_holes_and_merges)
{
    imp_world *w = dem_scene_deposit(N, NX, NY, 0.2, -0.1);
    CHECK(w != NULL);
    imp_dem *d = w->dem;
    for (int s = 0; s < 2000; s++) {
        CHECK(imp_world_step(w) == IMP_OK);
    }
    CHECK(consistent(d) && d->ninter > 200);
    unsigned seed = 5u;
    for (int round = 0; round < 8; round++) {
        if (round == 6) {
            scramble(d, 3u);  /* not in order: the merge sorts them all */
        }
        const int m = d->ninter;
        int *pa = malloc((size_t)m * 2 * sizeof *pa);
        double *un = malloc((size_t)m * sizeof *un);
        CHECK(pa != NULL && un != NULL);
        for (int k = 0; k < m; k++) {
            d->inter[k].un = 1.0 + k + 1000.0 * round;  /* a mark of the record */
            pa[2 * k] = d->inter[k].a, pa[2 * k + 1] = d->inter[k].b, un[k] = d->inter[k].un;
        }
        int erased = 0, added = 0;
        for (int k = 0; k < m; k++) {
            seed = seed * 1103515245u + 12345u;
            if ((seed >> 16) % 7 == 0 || (round == 3 && k < 40)) {  /* round 3: a run at the start */
                imp_dem_erase_hole(d, k);
                pa[2 * k] = -1;
                erased++;
            }
        }
        const int m0 = d->ninter;
        for (int tries = 0; tries < 400 && added < 30 + 10 * round; tries++) {
            seed = seed * 1103515245u + 12345u;
            int a = (int)((seed >> 8) % (unsigned)d->n);
            seed = seed * 1103515245u + 12345u;
            int b = (int)((seed >> 8) % (unsigned)d->n);
            if (a != b && d->kind[a] == IMP_DEM_SPHERE && d->kind[b] == IMP_DEM_SPHERE
                && imp_dem_find(d, a, b) < 0) {
                CHECK(imp_dem_add_potential(d, a, b) >= 0);
                added++;
            }
        }
        CHECK(imp_dem_order_merge(d, m0) >= 0);
        CHECK(d->ninter == m - erased + added);
        CHECK(consistent(d));
        int same = 1;
        for (int k = 0; k < m; k++) {
            if (pa[2 * k] >= 0) {
                int j = imp_dem_find(d, pa[2 * k], pa[2 * k + 1]);
                same &= j >= 0 && d->inter[j].un == un[k];
            }
        }
        CHECK(same);
        free(pa);
        free(un);
    }
    CHECK(imp_dem_order_merge(d, d->ninter) == 0);  /* no holes, nothing new: nothing moves */
    imp_world_free(w);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(ordered_after_every_run);
    RUN(merge_drops_holes_and_merges);
    return CHECK_END("dem_order");
}
