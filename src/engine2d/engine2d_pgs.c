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

#include "engine2d.h"
#include "world_internal.h"

const char *const imp_contact_solver_names[] = {"lcp", "pgs", "coulomb", "soft", NULL};

static int movable(const imp_world *w, int s) { return s != 0 && !w->model.bodies[s].fixed; }

/* A row packed for the sweeps. Every row of engine2d.h has J_p = (n, r_p x n) and
   J_q = -(n, r_q x n) with rp = J_p[2], rq = J_q[2]: the row keeps them and b already divided
   by A_ii (so f_new = f - (b + J acc) / A_ii is one subtraction: the sweep is bound by the
   latency of this chain), the six weights M^-1 J^T that move the bodies' acc (zero for a
   fixed body), mu (friction rows) and the two slots. 104 bytes. */
typedef struct pgs_row {
    double c[4];   /* n0, n1, rp, rq over A_ii */
    double b;      /* b over A_ii */
    double w[6];   /* imp n0, imp n1, iip rp, -imq n0, -imq n1, iiq rq */
    double mu;
    int p, q;
} pgs_row;

/* kinds of a packed row: >= 0 friction (the packed index of its normal row), these, or
   ROW_SLIDING - index for a sliding friction row pinned at -sliding mu f_n */
enum { ROW_UNILATERAL = -1, ROW_BILATERAL = -2, ROW_DEAD = -3, ROW_SLIDING = -4 };

typedef struct pgs_run {
    double height;  /* of the run's first contact point along "up" */
    int first, count;  /* in the list of normal rows */
    int idx;           /* the run's place in detection order */
} pgs_run;

/* the rows' room serves as the runs' sort scratch */
_Static_assert(sizeof(pgs_run) <= sizeof(pgs_row), "a packed row holds a run");

/* The last sorted order, kept at the head of e->pgs_rows (a realloc keeps it in place): the
   number of runs (-1: none), then per run in detection order its bodies and row count, and
   the detection-order index of the run sorted into that place. When the next solve has the
   same runs (the contact set did not change) the order is reused instead of sorted again;
   the heights moved by a tiny fraction of a box since, so the order stays "from the top". */
enum { CACHE_HEAD = 2 };  /* ints before the entries (keeps the rows 8-byte aligned) */

/* x before y: higher first, then by position in the list (a total order: deterministic) */
static int run_before(const pgs_run *x, const pgs_run *y)
{
    if (x->height != y->height) {
        return x->height > y->height;
    }
    return x->first < y->first;
}

/* Merge sort by run_before, bottom up, through tmp (n entries): O(n log n), no allocation
   (glibc's qsort allocates a merge buffer at every call). run_before is a strict total order
   (ties broken by first), so the order is the one any correct sort gives (the heapsort used
   before, at about three times the instructions). Short blocks are sorted by insertion
   first. */
enum { SORT_BLOCK = 8 };

static void sort_runs(pgs_run *a, int n, pgs_run *tmp)
{
    for (int s = 0; s < n; s += SORT_BLOCK) {
        int e = s + SORT_BLOCK < n ? s + SORT_BLOCK : n;
        for (int i = s + 1; i < e; i++) {
            pgs_run x = a[i];
            int j = i;
            while (j > s && run_before(&x, &a[j - 1])) {
                a[j] = a[j - 1];
                j--;
            }
            a[j] = x;
        }
    }
    pgs_run *from = a, *to = tmp;
    for (int width = SORT_BLOCK; width < n; width *= 2) {
        for (int lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n;
            int hi = lo + 2 * width < n ? lo + 2 * width : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                /* the left one unless the right comes strictly before it */
                to[k++] = run_before(&from[j], &from[i]) ? from[j++] : from[i++];
            }
            while (i < mid) {
                to[k++] = from[i++];
            }
            while (j < hi) {
                to[k++] = from[j++];
            }
        }
        pgs_run *t = from;
        from = to;
        to = t;
    }
    if (from != a) {
        memcpy(a, from, (size_t)n * sizeof *a);
    }
}

/* Orders the rows. Normal rows come in runs between the same two bodies (a contact's
   points); the runs are sorted by height along -gravity, highest first (without gravity
   they keep their order), so the order does not depend on how detection listed the pairs
   and is the same from one step to the next. Measured on the pyramids of
   bench_engine2d.c with one warm-started solve per step (symplectic_euler, 20 sweeps): the
   1275-box pyramid stands from its touching start in this order, while in detection order,
   bottom-up, or with every other sweep reversed its top rows fall for several steps until
   the pushes have travelled up, and collide. Each normal row is followed by its friction
   rows (Gauss-Seidel then bounds a friction row by the normal force just updated). Writes
   the source row of each packed row into src, the packed index of each row into pos, and
   uses mark (np entries), runs and tmp (n entries each) as scratch. Returns np = n.
   O(n log n). */
static int order_rows(const imp_world *w, const imp_rec2d *rec, int n, const int *fric_normal,
                      int *src, int *pos, int *mark, pgs_run *runs, pgs_run *tmp, int *cache)
{
    int np = 0;
    for (int i = 0; i < n; i++) {
        pos[i] = -1;
        if (fric_normal == NULL || fric_normal[i] < 0) {
            src[np++] = i;
        }
    }
    double gx = w->model.def.gravity[0], gy = w->model.def.gravity[1];
    if (gx != 0.0 || gy != 0.0) {
        int nr = 0;
        for (int k = 0; k < np; k++) {
            const imp_rec2d *r = &rec[src[k]];
            if (k > 0 && r->p == rec[src[k - 1]].p && r->q == rec[src[k - 1]].q) {
                runs[nr - 1].count++;
                continue;
            }
            runs[nr].height = -(gx * r->point[0] + gy * r->point[1]);
            runs[nr].first = k;
            runs[nr].count = 1;
            runs[nr].idx = nr;
            nr++;
        }
        int *ent = cache + CACHE_HEAD, hit = cache[0] == nr;
        for (int g = 0; g < nr && hit; g++) {
            const imp_rec2d *r = &rec[src[runs[g].first]];
            hit = ent[4 * g] == r->p && ent[4 * g + 1] == r->q && ent[4 * g + 2] == runs[g].count;
        }
        int at = 0;
        if (hit) {
            for (int k = 0; k < nr; k++) {
                const pgs_run *u = &runs[ent[4 * k + 3]];
                for (int c = 0; c < u->count; c++) {
                    mark[at++] = src[u->first + c];
                }
            }
        } else {
            for (int g = 0; g < nr; g++) {
                const imp_rec2d *r = &rec[src[runs[g].first]];
                ent[4 * g] = r->p;
                ent[4 * g + 1] = r->q;
                ent[4 * g + 2] = runs[g].count;
            }
            sort_runs(runs, nr, tmp);
            for (int k = 0; k < nr; k++) {
                ent[4 * k + 3] = runs[k].idx;
                for (int c = 0; c < runs[k].count; c++) {
                    mark[at++] = src[runs[k].first + c];
                }
            }
            cache[0] = nr;
        }
        memcpy(src, mark, (size_t)np * sizeof *src);
    }
    for (int k = 0; k < np; k++) {
        pos[src[k]] = k;
    }
    if (fric_normal == NULL) {
        return np;
    }
    int total = np, *cnt = mark;  /* first: friction rows per packed normal */
    memset(cnt, 0, (size_t)total * sizeof *cnt);
    for (int i = 0; i < n; i++) {
        if (fric_normal[i] >= 0) {
            cnt[pos[fric_normal[i]]]++;
        }
    }
    int at = 0;  /* the normal rows' new packed indices: prefix sums */
    for (int k = 0; k < total; k++) {
        int c = cnt[k];
        cnt[k] = at;
        at += 1 + c;
    }
    for (int k = 0; k < total; k++) {
        pos[src[k]] = cnt[k];
    }
    memset(mark, 0, (size_t)at * sizeof *mark);
    for (int i = 0; i < n; i++) {
        if (fric_normal[i] < 0) {
            src[pos[i]] = i;
        }
    }
    for (int i = 0; i < n; i++) {  /* friction rows right after their normal, in order */
        if (fric_normal[i] >= 0) {
            int k = pos[fric_normal[i]] + 1;
            while (mark[k]) {
                k++;
            }
            mark[k] = 1;
            src[k] = i;
            pos[i] = k;
        }
    }
    return at;
}

int imp_engine2d_pgs(imp_world *w, const imp_rec2d *rec, int n, const double *b,
                     const unsigned char *bilateral, const int *fric_normal, const double *mu,
                     const signed char *sliding, int iterations, double *f)
{
    imp_engine2d *e = w->engine2d;
    if (e->pgs_acc_cap < w->model.nslots) {
        /* acc (3 per slot), then inverse mass and inertia (2 per slot) */
        double *p = realloc(e->pgs_acc, 5 * (size_t)w->model.nslots * sizeof *p);
        if (p == NULL) {
            return -1;
        }
        e->pgs_acc = p;
        e->pgs_acc_cap = w->model.nslots;
    }
    int fresh = 0;
    if (e->pgs_row_cap < n + 1) {
        /* rows, then per packed row: its force, its source row, its kind (ROW_*, or the
           packed index of its normal row; sliding rows -3 - that index), and the packed index
           of each source row (later the groups' starts, up to n + 1 of them); the runs of
           order_rows */
        int cap = n + 1;
        fresh = e->pgs_rows == NULL;
        size_t each = sizeof(pgs_row) + sizeof(double) + 3 * sizeof(int) + sizeof(pgs_run)
                      + 4 * sizeof(int);
        void *p = realloc(e->pgs_rows, CACHE_HEAD * sizeof(int) + (size_t)cap * each);
        if (p == NULL) {
            return -1;
        }
        e->pgs_rows = p;
        e->pgs_row_cap = cap;
    }
    int *cache = e->pgs_rows;
    if (fresh) {
        cache[0] = -1;  /* no sorted order kept yet */
    }
    pgs_row *rows = (pgs_row *)(cache + CACHE_HEAD + 4 * (size_t)e->pgs_row_cap);
    double *fp = (double *)(rows + e->pgs_row_cap);
    pgs_run *runs = (pgs_run *)(fp + e->pgs_row_cap);
    int *src = (int *)(runs + e->pgs_row_cap), *kind = src + e->pgs_row_cap, *pos = kind + e->pgs_row_cap;
    double *acc = e->pgs_acc, *inv = acc + 3 * (size_t)e->pgs_acc_cap;
    memset(acc, 0, 3 * (size_t)w->model.nslots * sizeof *acc);
    for (int s = 0; s < w->model.nslots; s++) {
        int mv = movable(w, s);
        inv[2 * s] = mv ? w->model.bodies[s].inv_mass : 0.0;
        inv[2 * s + 1] = mv ? w->model.bodies[s].inv_inertia.m[2][2] : 0.0;
    }
    /* the rows' room (not filled yet) is the sort's scratch */
    int np = order_rows(w, rec, n, fric_normal, src, pos, kind, runs, (pgs_run *)rows, cache);
    for (int k = 0; k < np; k++) {
        int i = src[k];
        const imp_rec2d *r = &rec[i];
        pgs_row *o = &rows[k];
        o->p = r->p;
        o->q = r->q;
        /* a row between a body and itself acts once (the q side weighs nothing) */
        double imp = inv[2 * r->p], iip = inv[2 * r->p + 1];
        double imq = r->q == r->p ? 0.0 : inv[2 * r->q], iiq = r->q == r->p ? 0.0 : inv[2 * r->q + 1];
        double n0 = r->jp[0], n1 = r->jp[1], rp = r->jp[2], rq = r->jq[2];
        double d = (imp + imq) * (n0 * n0 + n1 * n1) + iip * rp * rp + iiq * rq * rq;
        double id = d > 1e-300 ? 1.0 / d : 0.0;
        o->c[0] = n0 * id;
        o->c[1] = n1 * id;
        o->c[2] = rp * id;
        o->c[3] = rq * id;
        o->b = b[i] * id;
        o->w[0] = imp * n0;
        o->w[1] = imp * n1;
        o->w[2] = iip * rp;
        o->w[3] = -imq * n0;
        o->w[4] = -imq * n1;
        o->w[5] = iiq * rq;
        int fn = fric_normal != NULL ? fric_normal[i] : -1;
        o->mu = 0.0;
        if (fn >= 0) {
            kind[k] = pos[fn];
            o->mu = mu[i];
            if (sliding != NULL && sliding[i] != 0) {  /* pinned at -sliding mu f_n */
                o->mu = -(double)sliding[i] * mu[i];
                kind[k] = ROW_SLIDING - pos[fn];
            }
        } else {
            kind[k] = bilateral[i] ? ROW_BILATERAL : ROW_UNILATERAL;
        }
        double fi = f[i];
        if (id == 0.0 || !isfinite(fi)) {
            fi = 0.0;
        }
        if (id == 0.0) {
            kind[k] = ROW_DEAD;  /* moves nothing: its force stays 0 */
        }
        fp[k] = fi;
        if (fi != 0.0) {
            double *ap = acc + 3 * r->p, *aq = acc + 3 * r->q;
            for (int c = 0; c < 3; c++) {
                ap[c] += o->w[c] * fi;
                aq[c] += o->w[3 + c] * fi;
            }
        }
    }
    /* groups: runs of rows between the same two bodies (a contact's points and their
       friction), swept with the bodies' acc in registers and stored once (the chain from
       one row to the next then does not go through memory) */
    int *grp = pos, ng = 0;  /* pos is free once the rows are packed */
    for (int k = 0; k < np; k++) {
        if (k == 0 || rows[k].p != rows[k - 1].p || rows[k].q != rows[k - 1].q) {
            grp[ng++] = k;
        }
    }
    grp[ng] = np;
    for (int it = 0; it < iterations; it++) {
        double change = 0.0, scale = 0.0;
        e->stats.pgs_sweeps++;
        for (int g = 0; g < ng; g++) {
            int k0 = grp[g], k1 = grp[g + 1], sp = rows[k0].p, sq = rows[k0].q, same = sp == sq;
            double *ap = acc + 3 * sp, *aq = acc + 3 * sq;
            double p0 = ap[0], p1 = ap[1], p2 = ap[2], q0 = aq[0], q1 = aq[1], q2 = aq[2];
            for (int k = k0; k < k1; k++) {
                const pgs_row *o = &rows[k];
                int kd = kind[k];
                if (kd >= 0 && fp[kd] == 0.0 && fp[k] == 0.0) {
                    continue;  /* friction of a contact without force stays 0 */
                }
                if (same) {
                    q0 = p0, q1 = p1, q2 = p2;
                }
                /* f - (b + J_p acc_p + J_q acc_q) / A_ii, summed as a tree */
                double f0 = fp[k];
                double fi = f0 - ((o->b + (o->c[0] * (p0 - q0) + o->c[1] * (p1 - q1)))
                                  + (o->c[2] * p2 + o->c[3] * q2));
                if (kd >= 0) {  /* friction: |f| <= mu f_n */
                    double lim = o->mu * fp[kd];
                    fi = fi > lim ? lim : fi < -lim ? -lim : fi;
                } else if (kd == ROW_UNILATERAL) {
                    fi = fi < 0.0 ? 0.0 : fi;
                } else if (kd == ROW_DEAD) {
                    fi = 0.0;
                } else if (kd <= ROW_SLIDING) {  /* pinned at -sliding mu f_n */
                    fi = o->mu * fp[ROW_SLIDING - kd];
                }
                double df = fi - f0;
                if (df != 0.0) {
                    p0 += o->w[0] * df;
                    p1 += o->w[1] * df;
                    p2 += o->w[2] * df;
                    q0 += o->w[3] * df;
                    q1 += o->w[4] * df;
                    q2 += o->w[5] * df;
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

/* one keyed table (pointers into the engine: the pivoting's row states or PGS forces, and
   the exact solves' forces) */
typedef struct warm_table {
    unsigned long long **key;
    double **f;
    int *n, *cap;
    int **hash;
    size_t *hash_size;
} warm_table;

static void table_fetch(const warm_table *e, const imp_rec2d *rec, int n, double *f)
{
    size_t mask = *e->hash_size - 1;
    for (int i = 0; i < n; i++) {
        unsigned long long key = rec[i].key;
        f[i] = 0.0;
        if (i < *e->n && (*e->key)[i] == key) {
            f[i] = (*e->f)[i];
            continue;
        }
        if (*e->hash_size == 0) {
            continue;
        }
        for (size_t h = hash_slot(key, mask);; h = (h + 1) & mask) {
            int k = (*e->hash)[h];
            if (k == 0) {
                break;
            }
            if ((*e->key)[k - 1] == key) {
                f[i] = (*e->f)[k - 1];
                break;
            }
        }
    }
}

static int table_store(warm_table *e, const imp_rec2d *rec, int n, const double *f)
{
    size_t size = 16;
    while (size < 2 * (size_t)n) {
        size *= 2;
    }
    if (n > *e->cap) {
        unsigned long long *k = realloc(*e->key, (size_t)n * sizeof *k);
        if (k == NULL) {
            return -1;
        }
        *e->key = k;
        double *v = realloc(*e->f, (size_t)n * sizeof *v);
        if (v == NULL) {
            return -1;
        }
        *e->f = v;
        *e->cap = n;
    }
    if (size > *e->hash_size) {
        int *hsh = realloc(*e->hash, size * sizeof *hsh);
        if (hsh == NULL) {
            return -1;
        }
        *e->hash = hsh;
        *e->hash_size = size;
    }
    size_t mask = *e->hash_size - 1;
    memset(*e->hash, 0, *e->hash_size * sizeof **e->hash);
    for (int i = 0; i < n; i++) {
        (*e->key)[i] = rec[i].key;
        (*e->f)[i] = f[i];
        size_t h = hash_slot(rec[i].key, mask);
        while ((*e->hash)[h] != 0) {
            h = (h + 1) & mask;
        }
        (*e->hash)[h] = i + 1;
    }
    *e->n = n;
    return 0;
}

void imp_engine2d_warm_fetch(const imp_engine2d *e, const imp_rec2d *rec, int n, double *f)
{
    imp_engine2d *x = (imp_engine2d *)e;  /* (the table is only read) */
    warm_table t = {&x->warm_key, &x->warm_f, &x->nwarm, &x->warm_cap, &x->warm_hash, &x->warm_hash_size};
    table_fetch(&t, rec, n, f);
}

int imp_engine2d_warm_store(imp_engine2d *e, const imp_rec2d *rec, int n, const double *f)
{
    warm_table t = {&e->warm_key, &e->warm_f, &e->nwarm, &e->warm_cap, &e->warm_hash, &e->warm_hash_size};
    return table_store(&t, rec, n, f);
}

void imp_engine2d_fwarm_fetch(const imp_engine2d *e, const imp_rec2d *rec, int n, double *f)
{
    imp_engine2d *x = (imp_engine2d *)e;
    warm_table t = {&x->fwarm_key, &x->fwarm_f, &x->nfwarm, &x->fwarm_cap, &x->fwarm_hash, &x->fwarm_hash_size};
    table_fetch(&t, rec, n, f);
}

int imp_engine2d_fwarm_store(imp_engine2d *e, const imp_rec2d *rec, int n, const double *f)
{
    warm_table t = {&e->fwarm_key, &e->fwarm_f, &e->nfwarm, &e->fwarm_cap, &e->fwarm_hash, &e->fwarm_hash_size};
    return table_store(&t, rec, n, f);
}
