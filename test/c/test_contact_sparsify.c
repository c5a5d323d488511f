/* test_contact_sparsify.c: Solfec's contact sparsification rules on hand-made contact sets, and
   the independence of the result from the order of the contacts. */
#include <string.h>

#include "check.h"
#include "contact_sparsify.h"
#include "rng.h"

/* objects o1, o2 of a body are adjacent when |o1 - o2| == 1 (a chain of pieces) */
static int chain_adjacent(void *ud, int body, int o1, int o2)
{
    (void)ud, (void)body;
    return o1 - o2 == 1 || o2 - o1 == 1;
}

static imp_sparse_contact mk(double x, double area, int b0, int o0, int b1, int o1, int is_new)
{
    imp_sparse_contact c;
    memset(&c, 0, sizeof c);
    c.point[0] = x;
    c.area = area;
    c.body[0] = b0, c.object[0] = o0, c.body[1] = b1, c.object[1] = o1;
    c.is_new = is_new;
    return c;
}

/* same content (field by field: struct padding is not compared) */
static int same(const imp_sparse_contact *a, const imp_sparse_contact *b)
{
    return a->point[0] == b->point[0] && a->point[1] == b->point[1] && a->point[2] == b->point[2] &&
           a->area == b->area && a->body[0] == b->body[0] && a->body[1] == b->body[1] &&
           a->object[0] == b->object[0] && a->object[1] == b->object[1] && a->is_new == b->is_new;
}

static const imp_sparsify_opts defaults = {0.01, 0.0, 1e-6};

TEST(minarea_removes_only_new_contacts)
{
    imp_sparse_contact c[3] = {mk(0, 0.5, 0, 0, 1, 0, 1), mk(5, 2.0, 0, 0, 1, 1, 1), mk(9, 0.5, 0, 1, 1, 5, 0)};
    imp_sparsify_opts o = defaults;
    o.minarea = 1.0;
    unsigned char keep[3];
    CHECK(imp_contact_sparsify(c, 3, 2, &o, NULL, NULL, keep) == IMP_SPARSIFY_OK);
    CHECK(keep[0] == 0 && keep[1] == 1 && keep[2] == 1);
}

TEST(small_contact_next_to_a_large_one_on_adjacent_objects)
{
    /* a large contact between objects (0, 0), a small one between (0, 1): adjacent on body 1 only
       (Solfec compares only the master objects: this is the quirk fixed here) */
    imp_sparse_contact c[2] = {mk(0, 1.0, 0, 0, 1, 0, 1), mk(0.5, 0.005, 0, 0, 1, 1, 1)};
    unsigned char keep[2];
    CHECK(imp_contact_sparsify(c, 2, 2, &defaults, chain_adjacent, NULL, keep) == IMP_SPARSIFY_OK);
    CHECK(keep[0] == 1 && keep[1] == 0);
    /* the same in the flipped orientation of the bodies */
    c[1] = mk(0.5, 0.005, 1, 1, 0, 0, 1);
    CHECK(imp_contact_sparsify(c, 2, 2, &defaults, chain_adjacent, NULL, keep) == IMP_SPARSIFY_OK);
    CHECK(keep[0] == 1 && keep[1] == 0);
    /* not adjacent (objects 0 and 3): kept */
    c[1] = mk(0.5, 0.005, 0, 0, 1, 3, 1);
    CHECK(imp_contact_sparsify(c, 2, 2, &defaults, chain_adjacent, NULL, keep) == IMP_SPARSIFY_OK);
    CHECK(keep[0] == 1 && keep[1] == 1);
    /* above the threshold: kept */
    c[1] = mk(0.5, 0.02, 0, 0, 1, 1, 1);
    CHECK(imp_contact_sparsify(c, 2, 2, &defaults, chain_adjacent, NULL, keep) == IMP_SPARSIFY_OK);
    CHECK(keep[0] == 1 && keep[1] == 1);
    /* another pair of bodies: kept */
    c[1] = mk(0.5, 0.005, 0, 0, 2, 1, 1);
    CHECK(imp_contact_sparsify(c, 2, 3, &defaults, chain_adjacent, NULL, keep) == IMP_SPARSIFY_OK);
    CHECK(keep[0] == 1 && keep[1] == 1);
}

TEST(coincident_duplicates_keep_exactly_one_whatever_the_order)
{
    imp_sparse_contact c[2] = {mk(1.0, 0.3, 0, 4, 1, 7, 1), mk(1.0 + 1e-7, 0.3, 0, 9, 1, 2, 1)};
    unsigned char keep[2];
    CHECK(imp_contact_sparsify(c, 2, 2, &defaults, NULL, NULL, keep) == IMP_SPARSIFY_OK);
    CHECK(keep[0] == 1 && keep[1] == 0); /* objects (4, 7) come first */
    imp_sparse_contact r[2] = {c[1], c[0]};
    CHECK(imp_contact_sparsify(r, 2, 2, &defaults, NULL, NULL, keep) == IMP_SPARSIFY_OK);
    CHECK(keep[0] == 0 && keep[1] == 1);
    /* an old duplicate always wins */
    c[0].is_new = 0;
    c[0].object[0] = 99;
    CHECK(imp_contact_sparsify(c, 2, 2, &defaults, NULL, NULL, keep) == IMP_SPARSIFY_OK);
    CHECK(keep[0] == 1 && keep[1] == 0);
    /* apart by more than 2 mindist: both kept */
    c[1].point[0] = 1.0 + 3e-6;
    CHECK(imp_contact_sparsify(c, 2, 2, &defaults, NULL, NULL, keep) == IMP_SPARSIFY_OK);
    CHECK(keep[0] == 1 && keep[1] == 1);
}

TEST(random_sets_are_order_independent)
{
    imp_rng r;
    imp_rng_seed(&r, 7);
    enum { N = 300 };
    imp_sparse_contact c[N], p[N];
    unsigned char k1[N], k2[N];
    int perm[N];
    imp_sparsify_opts o = {0.05, 0.01, 0.02};
    for (int trial = 0; trial < 20; trial++) {
        for (int i = 0; i < N; i++) {
            int b0 = (int)imp_rng_below(&r, 6), b1 = (int)imp_rng_below(&r, 6);
            c[i] = mk(imp_rng_uniform(&r), imp_rng_uniform(&r), b0, (int)imp_rng_below(&r, 4), b1,
                      (int)imp_rng_below(&r, 4), imp_rng_uniform(&r) < 0.8);
            c[i].point[1] = 0.1 * imp_rng_uniform(&r);
            if (i > 0 && imp_rng_uniform(&r) < 0.1) { /* exact duplicates too */
                c[i] = c[i - 1];
            }
            perm[i] = i;
        }
        for (int i = N - 1; i > 0; i--) {
            int j = (int)imp_rng_below(&r, (uint64_t)i + 1), t = perm[i];
            perm[i] = perm[j], perm[j] = t;
        }
        for (int i = 0; i < N; i++) {
            p[i] = c[perm[i]];
        }
        CHECK(imp_contact_sparsify(c, N, 6, &o, chain_adjacent, NULL, k1) == IMP_SPARSIFY_OK);
        CHECK(imp_contact_sparsify(p, N, 6, &o, chain_adjacent, NULL, k2) == IMP_SPARSIFY_OK);
        int removed = 0, kept_dups_differ = 0;
        for (int i = 0; i < N; i++) {
            removed += !k1[perm[i]];
            if (k1[perm[i]] != k2[i]) {
                /* exact duplicates are told apart by position only: the set kept must match */
                kept_dups_differ++;
            }
        }
        int s1 = 0, s2 = 0;
        for (int i = 0; i < N; i++) {
            s1 += k1[i], s2 += k2[i];
        }
        CHECK(s1 == s2);
        /* differences only among exact duplicates (identical content): compare kept contents */
        for (int i = 0; i < N && kept_dups_differ > 0; i++) {
            if (k1[perm[i]] != k2[i]) {
                int twin = 0;
                for (int j = 0; j < N && !twin; j++) {
                    twin = j != perm[i] && same(&c[j], &c[perm[i]]);
                }
                CHECK(twin);
            }
        }
        CHECK(removed > 0 && removed < N);
    }
}

TEST(bad_arguments)
{
    imp_sparse_contact c[1] = {mk(0, 1, 0, 0, 5, 0, 1)};
    unsigned char keep[1];
    CHECK(imp_contact_sparsify(c, 1, 2, &defaults, NULL, NULL, keep) == IMP_SPARSIFY_EBADARG);
    imp_sparsify_opts o = defaults;
    o.threshold = 2.0;
    CHECK(imp_contact_sparsify(c, 1, 6, &o, NULL, NULL, keep) == IMP_SPARSIFY_EBADARG);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(minarea_removes_only_new_contacts);
    RUN(small_contact_next_to_a_large_one_on_adjacent_objects);
    RUN(coincident_duplicates_keep_exactly_one_whatever_the_order);
    RUN(random_sets_are_order_independent);
    RUN(bad_arguments);
    return CHECK_END("contact_sparsify");
}
