/* engine2d_contact_mpl.c: the contact forces' solve under conventions = "myphysicslab", as
   its ContactSim.evaluate makes it: the rows, in its order of the records
   (imp_engine2d_mpl_pair_before), split into groups linked through movable bodies (its
   subsetCollisions1: the first row left, then passes over the rows left in their order
   taking those that touch a body of the group, until a pass adds none), each
   group solved alone, in that order, by its ordered solver (lcp_baraff_order.c) with the
   world's myPhysicsLab generator (a group of m >= 2 rows draws m numbers at every row it
   treats). An answer the solver gave up on is taken when it meets its acceptance 1e-4.
   Cost: O(n^3) at worst for the groups (a pass over the rows left per row added, each
   checking membership linearly; small groups in its scenes), plus the solves. */
#include <math.h>

#include "engine2d.h"
#include "world_internal.h"

static int movable(const imp_world *w, int slot) { return slot != 0 && !w->model.bodies[slot].fixed; }

static int has(const int *list, int m, int v)
{
    for (int k = 0; k < m; k++) {
        if (list[k] == v) {
            return 1;
        }
    }
    return 0;
}

int imp_engine2d_contact_solve_mpl(imp_world *w, int n)
{
    imp_engine2d *e = w->engine2d;
    if (imp_engine2d_reserve_lcp(e, 2 * n) != 0) {
        return -1;
    }
    /* scratch: left (rows not yet solved, in order), rows (the group), bodies (its movable
       bodies, at most 2 n), the group's b, f, a and flags */
    int *left = e->perm, *rows = e->rows, *bodies = e->fric_normal;
    double *bs = e->vel, *fs = e->jsum, *as = e->e, *As = e->Asub;
    unsigned char *sbil = e->bil + n;
    int nleft = n;
    for (int i = 0; i < n; i++) {  /* its order of the records (insertion sort, stable) */
        int k = i;
        for (; k > 0 && imp_engine2d_mpl_pair_before(&e->rec[i], &e->rec[left[k - 1]]); k--) {
            left[k] = left[k - 1];
        }
        left[k] = i;
    }
    while (nleft > 0) {
        int m = 0, nb = 0;
        rows[m++] = left[0];
        const imp_rec2d *r0 = &e->rec[left[0]];
        if (movable(w, r0->p)) {
            bodies[nb++] = r0->p;
        }
        if (movable(w, r0->q) && !has(bodies, nb, r0->q)) {
            bodies[nb++] = r0->q;
        }
        for (int grew = 1; grew;) {
            grew = 0;
            for (int k = 1; k < nleft; k++) {
                int i = left[k];
                if (has(rows, m, i)) {
                    continue;
                }
                const imp_rec2d *r = &e->rec[i];
                int other = has(bodies, nb, r->p) ? r->q : has(bodies, nb, r->q) ? r->p : -1;
                if (other < 0) {
                    continue;
                }
                rows[m++] = i;
                grew = 1;
                if (movable(w, other) && !has(bodies, nb, other)) {
                    bodies[nb++] = other;
                }
            }
        }
        imp_engine2d_sub_matrix(e->A, n, rows, m, As);
        for (int u = 0; u < m; u++) {
            int i = rows[u];
            bs[u] = e->b[i];
            sbil[u] = e->bil[i];
        }
        if (imp_engine2d_baraff_solve(w, m, As, bs, sbil, fs, as) != 0) {
            return -1;  /* its "compute_forces failed" */
        }
        for (int u = 0; u < m; u++) {
            e->f[rows[u]] = fs[u];
        }
        int kept = 0;  /* the rows left, in order */
        for (int k = 0; k < nleft; k++) {
            if (!has(rows, m, left[k])) {
                left[kept++] = left[k];
            }
        }
        nleft = kept;
    }
    return 0;
}
