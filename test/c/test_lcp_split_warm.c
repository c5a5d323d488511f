/* test_lcp_split_warm.c: Lemke's path on the split friction problem started from a previous
   answer's basis (lcp_split.c with a basis, lcp_lemke.c imp_lcp_solve_lemke_from), as the
   2D engine's next step poses it: the same contacts, the loads changed. Checked on a 2D
   pyramid of 21 boxes (324 rows, coincident contact points: A singular, redundant rows)
   whose boxes are pushed past mu g so that some slip: every answer by the Coulomb conditions
   from A f + b (gen_coulomb_ok, independent of the solver) and by statics (the ground
   carries the boxes' weights); the warm path's length against the cold path's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include <impact/lcp.h>
#include "lcp_gen.h"
#include "lcp_internal.h"

typedef struct solved {
    imp_lcp_status st;
    int pivots, coulomb;
    double ground;
} solved;

/* the base-6 pyramid pushed by push_g g (alternating in sign, box k's push times 1 + dk k);
   the split problem solved from the basis bytes warm (NULL: cold), its final basis into
   basis */
static solved pyramid(double push_g, double dk, const unsigned char *warm, unsigned char *basis)
{
    const int base = 6, nb = base * (base + 1) / 2;
    gen_sys s;
    int cap = 2 * (2 * base + 10 * nb);
    int *fn = malloc(sizeof(int) * (size_t)cap);
    double *mu = malloc(sizeof(double) * (size_t)cap);
    double push[21];
    for (int k = 0; k < nb; k++) push[k] = push_g * 9.81 * (k % 2 ? -1.0 : 1.0) * (1.0 + dk * k);
    int n = gen_pyramid2d_friction(&s, base, 0.6, push, fn, mu);
    imp_lcp_problem p = {n, s.A, s.b, NULL, fn, mu, NULL};
    double *f = gen_vec(n);
    signed char *states = calloc((size_t)n, 1);
    imp_lcp_workspace *ws = imp_lcp_workspace_create(n);
    imp_lcp_limits lim;
    imp_lcp_limits_default(&lim, n);
    lim.split_factor = 10;
    imp_lcp_info info;
    memset(&info, 0, sizeof info);
    const char *msg = "";
    solved r = {IMP_LCP_NO_MEMORY, 0, 0, 0.0};
    if (ws != NULL && states != NULL) {
        /* (the basis bytes carry the places: the states only fill rows without one) */
        r.st = imp_lcp_solve_split(&p, &lim, 1e-10, 1, warm != NULL ? states : NULL, NULL, warm,
                                   ws, f, &info, &msg);
        memcpy(basis, ws->bas, (size_t)n);
    }
    r.pivots = info.pivots;
    r.coulomb = gen_coulomb_ok(n, s.A, s.b, fn, mu, f, 1e-8);
    for (int i = 0; i < n; i += 2) {
        if (s.body[2 * i + 1] < 0) r.ground += f[i]; /* a ground contact's normal is +y */
    }
    imp_lcp_workspace_destroy(ws);
    gen_sys_free(&s);
    free(states);
    free(f);
    free(fn);
    free(mu);
    return r;
}

static unsigned char basis[1024], basis2[1024];

/* the same problem again from its own answer's basis: that basis is the answer, found by a
   few pivots at most (rounding in the degenerate rows), the physics unchanged */
TEST(the_answer_basis_is_the_answer_again)
{
    solved cold = pyramid(0.9, 0.0, NULL, basis);
    CHECK(cold.st == IMP_LCP_OK && cold.coulomb);
    int set = 0;
    for (int i = 0; i < 324; i++) set += (basis[i] & 8) != 0;
    CHECK(set == 324); /* every row of a Lemke answer has its basis byte */
    solved warm = pyramid(0.9, 0.0, basis, basis2);
    if (warm.st != IMP_LCP_OK) CHECK_FAIL_AT("warm: %s", imp_lcp_status_name(warm.st));
    CHECK(warm.st == IMP_LCP_OK && warm.coulomb);
    CHECK_CLOSE(warm.ground, 9.81 * 21, 1e-8, 0.0);
    CHECK(warm.pivots <= 10);
}

/* the pushes changed by up to 10 % (box k by k/2 %): the warm path repairs the old basis
   in a small fraction of the cold path's pivots, with an answer that passes the same checks */
TEST(a_changed_load_is_repaired_in_few_pivots)
{
    solved cold = pyramid(0.9, 0.0, NULL, basis);
    CHECK(cold.st == IMP_LCP_OK);
    solved fresh = pyramid(0.9, 0.005, NULL, basis2);
    solved warm = pyramid(0.9, 0.005, basis, basis2);
    if (warm.st != IMP_LCP_OK) CHECK_FAIL_AT("warm: %s", imp_lcp_status_name(warm.st));
    CHECK(warm.st == IMP_LCP_OK && warm.coulomb);
    CHECK_CLOSE(warm.ground, 9.81 * 21, 1e-8, 0.0);
    printf("    cold %d pivots, warm %d pivots\n", fresh.pivots, warm.pivots);
    CHECK(warm.pivots * 5 < fresh.pivots);
}

/* a basis byte of 0 on every row: the cold start's basis (every w basic) from the states,
   which are all free here: the warm path is then the cold path's problem and still ends
   on an answer */
TEST(an_empty_basis_still_solves)
{
    memset(basis, 0, sizeof basis);
    solved warm = pyramid(0.9, 0.0, basis, basis2);
    CHECK(warm.st == IMP_LCP_OK && warm.coulomb);
    CHECK_CLOSE(warm.ground, 9.81 * 21, 1e-8, 0.0);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(the_answer_basis_is_the_answer_again);
    RUN(a_changed_load_is_repaired_in_few_pivots);
    RUN(an_empty_basis_still_solves);
    return CHECK_END("lcp_split_warm");
}
