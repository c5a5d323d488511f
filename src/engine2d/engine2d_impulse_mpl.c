/* engine2d_impulse_mpl.c: collision impulses under conventions = "myphysicslab", as its
   ImpulseSim.handleCollisions finds them (reference note, "ImpulseSim.handleCollisions"):
   the same LCP as engine2d_impulse.c (a = A j + b, b = (1 + e) v), solved by its ordered
   solver (lcp_baraff_order.c) with the world's myPhysicsLab generator, which also draws the
   serial focus:
   - simultaneous: one solve over all records (contacts and joints e = 0);
   - serial, hybrid: repeat { a fresh random order of all n records (n draws); the focus is
     the first approaching faster than small (joints: |v| > small); its sub-problem (the
     focus, the joints reached through movable bodies, under hybrid the approaching records
     sharing a body) in record order, b = (1 + e) v, joints e = 0 } until no focus, small
     doubling every 20 n passes; then the last pass, always: one solve over all records with
     b = v (its draws count even when nothing approaches).
   An answer the solver gave up on is taken when it meets its acceptance 1e-4.
   Cost: O(n^2) per pass plus the solves (O(m^4) worst case for m rows). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine2d.h"
#include "lcp_baraff_order.h"
#include "world_internal.h"

/* conventions = "myphysicslab": its order of the records found at a state (engine2d.h):
   the connectors' first, the later connector first (its ContactSim.findCollisions adds each
   connector's record at the front of the list, Array.unshift, after the body pairs') */
int imp_engine2d_mpl_pair_before(const imp_rec2d *a, const imp_rec2d *b)
{
    if ((a->connector >= 0) != (b->connector >= 0)) {
        return a->connector >= 0;
    }
    if (a->connector >= 0) {
        return a->connector > b->connector;
    }
    int alo = a->p < a->q ? a->p : a->q, ahi = a->p < a->q ? a->q : a->p;
    int blo = b->p < b->q ? b->p : b->q, bhi = b->p < b->q ? b->q : b->p;
    if (alo != blo || ahi != bhi) {
        return alo != blo ? alo < blo : ahi < bhi;
    }
    /* within a pair: the vertices of the later body on the earlier's edges, then the
       earlier's on the later's, then the edge/edge records (its Polygon.checkCollision);
       the vertices in their order, each against the edges in theirs (its
       UtilCollision.checkVertexes over the vertices, testCollisionVertex over the edges) */
    int ak = a->curved ? 2 : a->p > a->q ? 0 : 1, bk = b->curved ? 2 : b->p > b->q ? 0 : 1;
    if (ak != bk || ak == 2) {
        return ak < bk;
    }
    return a->feature[0] != b->feature[0] ? a->feature[0] < b->feature[0]
                                          : a->feature[1] < b->feature[1];
}

imp_baraff_ws *imp_engine2d_baraff_ws(imp_engine2d *e)
{
    if (e->baraff == NULL) {
        e->baraff = calloc(1, sizeof *e->baraff);
    }
    return e->baraff;
}

int imp_engine2d_baraff_solve(imp_world *w, int m, const double *As, const double *b,
                              const unsigned char *sbil, double *f, double *a)
{
    imp_engine2d *e = w->engine2d;
    imp_baraff_ws *ws = imp_engine2d_baraff_ws(e);
    if (ws == NULL) {
        return -1;
    }
    e->stats.lcp_solves++;
    int st = imp_lcp_baraff_order(ws, m, As, b, sbil, &w->data.lcg, f, a);
    if (st < 0) {
        return -1;
    }
    if (st > 0) {
        e->stats.lcp_failures++;
        if (!imp_baraff_acceptable(m, f, a, sbil, 1e-4)) {
            return -1;
        }
    }
    return 0;
}

int imp_engine2d_impulses_mpl(imp_world *w, const imp_rec2d *rec, int n, const double *A,
                              double *vel, const unsigned char *bil, const unsigned char *elastic,
                              imp_collision_handling mode, double *jsum)
{
    imp_engine2d *e = w->engine2d;
    double *b = e->b, *f = e->f, *As = e->Asub;
    int *rows = e->rows, *perm = e->perm;
    unsigned char *sbil = e->bil + n;  /* (bil is e->bil) its second half: scratch */
    if (mode == IMP_HANDLING_SIMULTANEOUS) {
        for (int i = 0; i < n; i++) {
            double el = (elastic != NULL && elastic[i] && !bil[i]) ? rec[i].elasticity : 0.0;
            b[i] = (1.0 + el) * vel[i];
        }
        if (imp_engine2d_baraff_solve(w, n, A, b, bil, jsum, e->a) != 0) {
            imp_engine2d_note_failure(w, rec, NULL, n);
            return -1;
        }
    } else {
        double small = 1e-5;
        long pass = 0, panic = 20L * n;
        int focus;
        do {
            if (++pass > panic) {
                small *= 2.0;  /* its "panic": accept slower approaches */
                panic += 20L * n;
            }
            imp_lcg_random_ints(&w->data.lcg, n, perm, sbil);
            focus = pass <= 100000 ? imp_engine2d_first_approaching(perm, n, bil, vel, small) : -1;
            int m = n;
            if (focus < 0) {
                for (int i = 0; i < n; i++) {
                    rows[i] = i;
                }
            } else {
                m = imp_engine2d_impulse_subset(w, rec, n, focus, vel, small,
                                                mode == IMP_HANDLING_HYBRID, rows);
                for (int u = 1; u < m; u++) {  /* record order (insertion sort, m small) */
                    int r = rows[u], v = u;
                    for (; v > 0 && rows[v - 1] > r; v--) {
                        rows[v] = rows[v - 1];
                    }
                    rows[v] = r;
                }
            }
            imp_engine2d_sub_matrix(A, n, rows, m, As);
            for (int u = 0; u < m; u++) {
                int i = rows[u];
                double el = (focus < 0 || bil[i]) ? 0.0 : rec[i].elasticity;
                b[u] = (1.0 + el) * vel[i];
                sbil[u] = bil[i];
            }
            if (imp_engine2d_baraff_solve(w, m, As, b, sbil, f, e->a) != 0) {
                imp_engine2d_note_failure(w, rec, rows, m);
                return -1;
            }
            for (int u = 0; u < m; u++) {
                jsum[rows[u]] += f[u];
            }
            for (int k = 0; k < n; k++) {
                double v = vel[k];
                for (int u = 0; u < m; u++) {
                    v += A[(size_t)k * (size_t)n + (size_t)rows[u]] * f[u];
                }
                vel[k] = v;
            }
        } while (focus >= 0);
    }
    for (int i = 0; i < n; i++) {
        if (!bil[i] && jsum[i] < 0.0) {
            if (jsum[i] < -1e-12) {
                imp_engine2d_note_failure(w, rec, NULL, n);
                return -1;  /* a pulling impulse: its "negative impulse is impossible" */
            }
            jsum[i] = 0.0;
        }
    }
    return 0;
}
