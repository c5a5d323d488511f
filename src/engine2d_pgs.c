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

/* a row packed for the sweeps (128 bytes, two cache lines): Jacobians, M^-1 J^T (zero for
   fixed bodies, whose acc then stays zero), b, 1 / A_ii, the bodies' offsets in acc, the
   row's kind and, for friction rows, mu and the packed index of the normal row */
typedef struct pgs_row {
    double jp[3], jq[3], wp[3], wq[3];
    double b, inv_diag, mu;
    int op, oq;
} pgs_row;

enum { ROW_UNILATERAL = -1, ROW_BILATERAL = -2 };

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
    if (e->pgs_row_cap < n + 1) {
        /* rows, then per packed row: its force, its source row, its kind (ROW_* or the packed
           index of its normal row), and the packed index of each source row (later the
           groups' starts, n + 1 of them) */
        int cap = n + 1;
        size_t each = sizeof(pgs_row) + sizeof(double) + 3 * sizeof(int);
        void *p = realloc(e->pgs_rows, (size_t)cap * each);
        if (p == NULL) {
            return -1;
        }
        e->pgs_rows = p;
        e->pgs_row_cap = cap;
    }
    pgs_row *rows = e->pgs_rows;
    double *fp = (double *)(rows + e->pgs_row_cap);
    int *src = (int *)(fp + e->pgs_row_cap), *kind = src + e->pgs_row_cap, *pos = kind + e->pgs_row_cap;
    double *acc = e->pgs_acc;
    memset(acc, 0, 3 * (size_t)w->nslots * sizeof *acc);
    /* order: each normal row followed by its friction rows (Gauss-Seidel then bounds the
       friction by the normal force just updated), other rows in their order; O(n) */
    int np = 0;
    for (int i = 0; i < n; i++) {
        pos[i] = -1;
    }
    for (int i = 0; i < n; i++) {
        if (fric_normal != NULL && fric_normal[i] >= 0) {
            continue;
        }
        pos[i] = np;
        src[np++] = i;
    }
    if (fric_normal != NULL) {
        /* insert the friction rows after their normals: count per normal, then place */
        int total = np;
        np = 0;
        int *cnt = kind;  /* scratch: friction rows per packed normal */
        for (int k = 0; k < total; k++) {
            cnt[k] = 0;
        }
        for (int i = 0; i < n; i++) {
            if (fric_normal[i] >= 0) {
                cnt[pos[fric_normal[i]]]++;
            }
        }
        /* new packed index of each normal row: prefix sums */
        int at = 0;
        for (int k = 0; k < total; k++) {
            int c = cnt[k];
            cnt[k] = at;
            at += 1 + c;
        }
        for (int k = 0; k < total; k++) {
            pos[src[k]] = cnt[k];
        }
        memset(kind, 0, (size_t)at * sizeof *kind);  /* now: 1 marks a placed friction row */
        for (int i = 0; i < n; i++) {  /* normal rows to their new places */
            if (fric_normal[i] < 0) {
                src[pos[i]] = i;
            }
        }
        for (int i = 0; i < n; i++) {  /* friction rows right after, in their order */
            if (fric_normal[i] >= 0) {
                int k = pos[fric_normal[i]] + 1;
                while (kind[k] == 1) {
                    k++;
                }
                kind[k] = 1;
                src[k] = i;
                pos[i] = k;
            }
        }
        np = at;
    }
    for (int k = 0; k < np; k++) {
        int i = src[k];
        const imp_rec2d *r = &rec[i];
        pgs_row *o = &rows[k];
        const int s[2] = {r->p, r->q};
        const double *j[2] = {r->jp, r->jq};
        double *jo[2] = {o->jp, o->jq}, *wo[2] = {o->wp, o->wq};
        double d = 0.0;
        for (int u = 0; u < 2; u++) {
            const imp_body *bd = &w->bodies[s[u]];
            int mv = movable(w, s[u]) && !(u == 1 && s[1] == s[0]);
            double im = mv ? bd->inv_mass : 0.0, ii = mv ? bd->inv_inertia.m[2][2] : 0.0;
            for (int c = 0; c < 3; c++) {
                jo[u][c] = j[u][c];
            }
            wo[u][0] = im * j[u][0];
            wo[u][1] = im * j[u][1];
            wo[u][2] = ii * j[u][2];
            d += j[u][0] * wo[u][0] + j[u][1] * wo[u][1] + j[u][2] * wo[u][2];
        }
        o->op = 3 * r->p;
        o->oq = 3 * r->q;
        o->inv_diag = d > 1e-300 ? 1.0 / d : 0.0;
        o->b = b[i];
        int fn = fric_normal != NULL ? fric_normal[i] : -1;
        if (fn >= 0) {
            kind[k] = pos[fn];
            /* a sliding row is pinned at -sliding mu f_n: bounds [lo, hi] both at it */
            o->mu = mu[i];
            if (sliding != NULL && sliding[i] != 0) {
                o->mu = -(double)sliding[i] * mu[i];
                kind[k] = -3 - pos[fn];  /* pinned, normal at -3 - kind */
            }
        } else {
            kind[k] = bilateral[i] ? ROW_BILATERAL : ROW_UNILATERAL;
            o->mu = 0.0;
        }
        double fi = f[i];
        if (o->inv_diag == 0.0 || !isfinite(fi)) {
            fi = 0.0;
        }
        fp[k] = fi;
        if (fi != 0.0) {
            double *ap = acc + o->op, *aq = acc + o->oq;
            for (int c = 0; c < 3; c++) {
                ap[c] += o->wp[c] * fi;
                aq[c] += o->wq[c] * fi;
            }
        }
    }
    /* groups: runs of rows between the same two bodies (a contact's points and their
       friction), swept with the bodies' acc in registers and stored once (the chain from
       one row to the next then does not go through memory) */
    int *grp = pos, ng = 0;  /* pos is free once the rows are packed */
    for (int k = 0; k < np; k++) {
        if (k == 0 || rows[k].op != rows[k - 1].op || rows[k].oq != rows[k - 1].oq) {
            grp[ng++] = k;
        }
    }
    grp[ng] = np;
    for (int it = 0; it < iterations; it++) {
        double change = 0.0, scale = 0.0;
        for (int g = 0; g < ng; g++) {
            int k0 = grp[g], k1 = grp[g + 1];
            double *ap = acc + rows[k0].op, *aq = acc + rows[k0].oq;
            int same = ap == aq;
            double p0 = ap[0], p1 = ap[1], p2 = ap[2], q0 = aq[0], q1 = aq[1], q2 = aq[2];
            for (int k = k0; k < k1; k++) {
                const pgs_row *o = &rows[k];
                if (same) {
                    q0 = p0, q1 = p1, q2 = p2;
                }
                /* summed as a tree: the sweep is bound by the latency of this chain */
                double a = (o->b + ((o->jp[0] * p0 + o->jp[1] * p1) + o->jp[2] * p2))
                           + ((o->jq[0] * q0 + o->jq[1] * q1) + o->jq[2] * q2);
                double f0 = fp[k];
                double fi = f0 - a * o->inv_diag;
                int kd = kind[k];
                if (kd >= 0) {  /* friction: |f| <= mu f_n */
                    double lim = o->mu * fp[kd];
                    fi = fi > lim ? lim : fi < -lim ? -lim : fi;
                } else if (kd == ROW_UNILATERAL) {
                    fi = fi < 0.0 ? 0.0 : fi;
                } else if (kd <= -3) {  /* sliding: pinned at -sliding mu f_n */
                    fi = o->mu * fp[-3 - kd];
                }
                if (o->inv_diag == 0.0) {
                    fi = 0.0;
                }
                double df = fi - f0;
                if (df != 0.0) {
                    p0 += o->wp[0] * df;
                    p1 += o->wp[1] * df;
                    p2 += o->wp[2] * df;
                    q0 += o->wq[0] * df;
                    q1 += o->wq[1] * df;
                    q2 += o->wq[2] * df;
                    fp[k] = fi;
                }
                double adf = fabs(df), afi = fabs(fi);
                change = adf > change ? adf : change;
                scale = afi > scale ? afi : scale;
            }
            if (!same) {
                aq[0] = q0, aq[1] = q1, aq[2] = q2;
            }
            ap[0] = p0, ap[1] = p1, ap[2] = p2;
        }
        if (change <= 1e-7 * (1.0 + scale)) {  /* converged well below the force's size */
            break;
        }
    }
    for (int k = 0; k < np; k++) {
        if (!isfinite(fp[k])) {
            return -1;
        }
        f[src[k]] = fp[k];
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
