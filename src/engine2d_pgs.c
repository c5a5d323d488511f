/* engine2d_pgs.c: projected Gauss-Seidel for the 2D engine's contact and impulse LCPs, for
   scenes too large for the exact pivoting solver (lcp.h is O(n^3) per solve and dense).

   The rows are those of engine2d.h: a = A f + b, A = J M^-1 J^T. Each body keeps
   acc_B = M_B^-1 sum_i J_iB^T f_i (3 numbers), so a row's a_i = J_ip acc_p + J_iq acc_q + b_i
   costs O(1) and a sweep O(n) (the "sequential impulses" form of Gauss-Seidel; Erleben,
   "Velocity-based shock propagation for multibody dynamics animation", ACM TOG 2007, and
   Catto, "Iterative Dynamics with Temporal Coherence", GDC 2005). Row i is updated as
   f_i <- project(f_i - a_i / A_ii): unilateral rows onto f >= 0, bilateral rows free,
   friction rows onto [-mu f_n, mu f_n] with the current normal force (sliding rows set to
   -sign mu f_n). Warm starts come from the last solve's forces of the same feature pairs,
   matched by key (the same row index first, then a hash table). */
#include <stdlib.h>
#include <string.h>

#include "world.h"

const char *const imp_contact_solver_names[] = {"lcp", "pgs", NULL};

static int movable(const imp_world *w, int s) { return s != 0 && !w->bodies[s].fixed; }

/* a row packed for the sweeps: Jacobians, M^-1 J^T (zero for fixed bodies, whose acc then
   stays zero), the bodies' offsets in acc, 1 / A_ii */
typedef struct pgs_row {
    double jp[3], jq[3], wp[3], wq[3];
    int op, oq;
    double inv_diag;
} pgs_row;

int imp_engine2d_pgs(imp_world *w, const imp_rec2d *rec, int n, const double *b,
                     const unsigned char *bilateral, const int *fric_normal, const double *mu,
                     const signed char *sliding, int iterations, double *f)
{
    imp_engine2d *e = w->engine2d;
    if (e->pgs_acc_cap < w->nslots) {
        double *p = realloc(e->pgs_acc, 3 * (size_t)w->nslots * sizeof *p);
        if (p == NULL) {
            return -1;
        }
        e->pgs_acc = p;
        e->pgs_acc_cap = w->nslots;
    }
    if (e->pgs_row_cap < n) {
        void *p = realloc(e->pgs_rows, (size_t)n * sizeof(pgs_row));
        if (p == NULL) {
            return -1;
        }
        e->pgs_rows = p;
        e->pgs_row_cap = n;
    }
    pgs_row *rows = e->pgs_rows;
    double *acc = e->pgs_acc;
    memset(acc, 0, 3 * (size_t)w->nslots * sizeof *acc);
    for (int i = 0; i < n; i++) {
        const imp_rec2d *r = &rec[i];
        pgs_row *o = &rows[i];
        const int s[2] = {r->p, r->q};
        const double *j[2] = {r->jp, r->jq};
        double *jo[2] = {o->jp, o->jq}, *wo[2] = {o->wp, o->wq};
        double d = 0.0;
        for (int u = 0; u < 2; u++) {
            const imp_body *bd = &w->bodies[s[u]];
            int mv = movable(w, s[u]) && !(u == 1 && s[1] == s[0]);
            double im = mv ? bd->inv_mass : 0.0, ii = mv ? bd->inv_inertia.m[2][2] : 0.0;
            for (int k = 0; k < 3; k++) {
                jo[u][k] = j[u][k];
            }
            wo[u][0] = im * j[u][0];
            wo[u][1] = im * j[u][1];
            wo[u][2] = ii * j[u][2];
            d += j[u][0] * wo[u][0] + j[u][1] * wo[u][1] + j[u][2] * wo[u][2];
        }
        o->op = 3 * r->p;
        o->oq = 3 * r->q;
        o->inv_diag = d > 1e-300 ? 1.0 / d : 0.0;
        if (o->inv_diag == 0.0 || !isfinite(f[i])) {
            f[i] = 0.0;
        }
        if (f[i] != 0.0) {
            double *ap = acc + o->op, *aq = acc + o->oq;
            for (int k = 0; k < 3; k++) {
                ap[k] += o->wp[k] * f[i];
                aq[k] += o->wq[k] * f[i];
            }
        }
    }
    for (int it = 0; it < iterations; it++) {
        double change = 0.0, scale = 0.0;
        for (int i = 0; i < n; i++) {
            const pgs_row *o = &rows[i];
            double *ap = acc + o->op, *aq = acc + o->oq;
            double a = b[i] + o->jp[0] * ap[0] + o->jp[1] * ap[1] + o->jp[2] * ap[2]
                       + o->jq[0] * aq[0] + o->jq[1] * aq[1] + o->jq[2] * aq[2];
            double fi = f[i] - a * o->inv_diag;
            int fn = fric_normal != NULL ? fric_normal[i] : -1;
            if (fn >= 0) {
                double lim = mu[i] * f[fn];
                if (sliding != NULL && sliding[i] != 0) {
                    fi = -(double)sliding[i] * lim;
                } else {
                    fi = fi > lim ? lim : fi < -lim ? -lim : fi;
                }
            } else if (!bilateral[i] && fi < 0.0) {
                fi = 0.0;
            }
            if (o->inv_diag == 0.0) {
                fi = 0.0;
            }
            double df = fi - f[i];
            if (df != 0.0) {
                for (int k = 0; k < 3; k++) {
                    ap[k] += o->wp[k] * df;
                    aq[k] += o->wq[k] * df;
                }
                f[i] = fi;
            }
            double adf = fabs(df), afi = fabs(fi);
            change = adf > change ? adf : change;
            scale = afi > scale ? afi : scale;
        }
        if (change <= 1e-7 * (1.0 + scale)) {  /* converged well below the force's size */
            break;
        }
    }
    for (int i = 0; i < n; i++) {
        if (!isfinite(f[i])) {
            return -1;
        }
    }
    return 0;
}

/* The table: warm_key / warm_f hold the last solve's rows in their order (rows usually come
   back in the same order, so row i is tried first), then an open-addressing hash table of
   2^k >= 2 n slots (indices + 1, 0 = empty) in warm_hash. O(n) to store, O(1) to fetch. */
static size_t hash_slot(unsigned long long key, size_t mask) { return (size_t)(key ^ (key >> 29)) & mask; }

void imp_engine2d_warm_fetch(const imp_engine2d *e, const imp_rec2d *rec, int n, double *f)
{
    size_t mask = e->warm_hash_size - 1;
    for (int i = 0; i < n; i++) {
        unsigned long long key = rec[i].key;
        f[i] = 0.0;
        if (i < e->nwarm && e->warm_key[i] == key) {
            f[i] = e->warm_f[i];
            continue;
        }
        if (e->warm_hash_size == 0) {
            continue;
        }
        for (size_t h = hash_slot(key, mask);; h = (h + 1) & mask) {
            int k = e->warm_hash[h];
            if (k == 0) {
                break;
            }
            if (e->warm_key[k - 1] == key) {
                f[i] = e->warm_f[k - 1];
                break;
            }
        }
    }
}

int imp_engine2d_warm_store(imp_engine2d *e, const imp_rec2d *rec, int n, const double *f)
{
    size_t size = 16;
    while (size < 2 * (size_t)n) {
        size *= 2;
    }
    if (n > e->warm_cap) {
        unsigned long long *k = realloc(e->warm_key, (size_t)n * sizeof *k);
        if (k == NULL) {
            return -1;
        }
        e->warm_key = k;
        double *v = realloc(e->warm_f, (size_t)n * sizeof *v);
        if (v == NULL) {
            return -1;
        }
        e->warm_f = v;
        e->warm_cap = n;
    }
    if (size > e->warm_hash_size) {
        int *hsh = realloc(e->warm_hash, size * sizeof *hsh);
        if (hsh == NULL) {
            return -1;
        }
        e->warm_hash = hsh;
        e->warm_hash_size = size;
    }
    size_t mask = e->warm_hash_size - 1;
    memset(e->warm_hash, 0, e->warm_hash_size * sizeof *e->warm_hash);
    for (int i = 0; i < n; i++) {
        e->warm_key[i] = rec[i].key;
        e->warm_f[i] = f[i];
        size_t h = hash_slot(rec[i].key, mask);
        while (e->warm_hash[h] != 0) {
            h = (h + 1) & mask;
        }
        e->warm_hash[h] = i + 1;
    }
    e->nwarm = n;
    return 0;
}
