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
   matched by key (binary search over the sorted keys). */
#include <stdlib.h>
#include <string.h>

#include "world.h"

const char *const imp_contact_solver_names[] = {"lcp", "pgs", NULL};

static int movable(const imp_world *w, int s) { return s != 0 && !w->bodies[s].fixed; }

static double row_diag(const imp_world *w, const imp_rec2d *r)
{
    double d = 0.0;
    const int s[2] = {r->p, r->q};
    const double *j[2] = {r->jp, r->jq};
    for (int u = 0; u < 2; u++) {
        if (!movable(w, s[u])) {
            continue;
        }
        const imp_body *b = &w->bodies[s[u]];
        d += b->inv_mass * (j[u][0] * j[u][0] + j[u][1] * j[u][1])
             + b->inv_inertia.m[2][2] * j[u][2] * j[u][2];
    }
    if (r->p == r->q) {
        d = 0.0;
    }
    return d;
}

static void push(const imp_world *w, double *acc, const imp_rec2d *r, double df)
{
    const int s[2] = {r->p, r->q};
    const double *j[2] = {r->jp, r->jq};
    for (int u = 0; u < 2; u++) {
        if (!movable(w, s[u])) {
            continue;
        }
        const imp_body *b = &w->bodies[s[u]];
        double *a = acc + 3 * s[u];
        a[0] += b->inv_mass * j[u][0] * df;
        a[1] += b->inv_mass * j[u][1] * df;
        a[2] += b->inv_inertia.m[2][2] * j[u][2] * df;
    }
}

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
    double *acc = e->pgs_acc;
    memset(acc, 0, 3 * (size_t)w->nslots * sizeof *acc);
    double *diag = e->e;  /* n numbers of scratch (reserved with the LCP arrays) */
    for (int i = 0; i < n; i++) {
        diag[i] = row_diag(w, &rec[i]);
        if (!(diag[i] > 1e-300) || !isfinite(f[i])) {
            f[i] = 0.0;
        }
        if (f[i] != 0.0) {
            push(w, acc, &rec[i], f[i]);
        }
    }
    for (int it = 0; it < iterations; it++) {
        double change = 0.0, scale = 0.0;
        for (int i = 0; i < n; i++) {
            if (!(diag[i] > 1e-300)) {
                continue;
            }
            const imp_rec2d *r = &rec[i];
            const double *ap = acc + 3 * r->p, *aq = acc + 3 * r->q;
            double a = b[i];
            if (movable(w, r->p)) {
                a += r->jp[0] * ap[0] + r->jp[1] * ap[1] + r->jp[2] * ap[2];
            }
            if (movable(w, r->q)) {
                a += r->jq[0] * aq[0] + r->jq[1] * aq[1] + r->jq[2] * aq[2];
            }
            double fi = f[i] - a / diag[i];
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
            double df = fi - f[i];
            if (df != 0.0) {
                push(w, acc, r, df);
                f[i] = fi;
            }
            change = fmax(change, fabs(df));
            scale = fmax(scale, fabs(fi));
        }
        if (change <= 1e-10 * (1.0 + scale)) {
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

void imp_engine2d_warm_fetch(const imp_engine2d *e, const imp_rec2d *rec, int n, double *f)
{
    for (int i = 0; i < n; i++) {
        f[i] = 0.0;
        int lo = 0, hi = e->nwarm - 1;
        while (lo <= hi) {
            int mid = (lo + hi) / 2;
            if (e->warm_key[mid] == rec[i].key) {
                f[i] = e->warm_f[mid];
                break;
            }
            if (e->warm_key[mid] < rec[i].key) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
    }
}

int imp_engine2d_warm_store(imp_engine2d *e, const imp_rec2d *rec, int n, const double *f)
{
    if (n > e->warm_cap) {
        /* keys, then n indices, in one array of 2 n */
        unsigned long long *k = realloc(e->warm_key, (size_t)n * 2 * sizeof *k);
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
    unsigned long long *key = e->warm_key, *idx = e->warm_key + e->warm_cap;
    for (int i = 0; i < n; i++) {
        key[i] = rec[i].key;
        idx[i] = (unsigned long long)i;
    }
    /* Shell sort of (key, index) by key: no allocation, about O(n^1.3) */
    for (int gap = n / 2; gap > 0; gap /= 2) {
        for (int i = gap; i < n; i++) {
            unsigned long long ki = key[i], ii = idx[i];
            int j = i;
            while (j >= gap && key[j - gap] > ki) {
                key[j] = key[j - gap];
                idx[j] = idx[j - gap];
                j -= gap;
            }
            key[j] = ki;
            idx[j] = ii;
        }
    }
    for (int i = 0; i < n; i++) {
        e->warm_f[i] = f[idx[i]];
    }
    e->nwarm = n;
    return 0;
}
