/* lcp_split.c: friction as a plain LCP for Lemke's method (Stewart & Trinkle 1996; Anitescu &
   Potra 1997, "Formulating dynamic multi-rigid-body contact problems with friction as
   solvable linear complementarity problems"), the driver's last resort for friction that the
   box steps, the general method and the cone's edges left unsolved (see lcp.h).

   Each static friction row i (normal row k, bound mu_i f_k) becomes three variables
   f_i = p_i - m_i with p_i, m_i >= 0 and a multiplier l_i >= 0:
       w_p = a_i + l_i >= 0  (perp p_i),   w_m = -a_i + l_i >= 0  (perp m_i),
       w_l = mu_i f_k - p_i - m_i >= 0  (perp l_i).
   l_i = 0: a_i = 0 and |f_i| <= mu_i f_k (sticking); l_i > 0: |f_i| = mu_i f_k with a_i = -l_i
   at the upper bound or a_i = +l_i at the lower one (friction opposes the slip): exactly the
   friction row of lcp.h. A bilateral row is split as u = u+ - u- (w = +-a_i >= 0), a sliding
   row is substituted (f_i = -sliding_i mu_i f_k into the normal's column), a unilateral row
   stays. The matrix (its A part is D^T A D with A PSD, the rest a skew coupling plus the
   nonnegative mu block) is copositive, and the problem is feasible whenever the frictionless
   one is (friction 0, l large), which is what lets Lemke's method end on a solution on the
   redundant, degenerate contacts of stacks where the pivoting methods cycle: the lexicographic
   ratio test (lcp_lemke.c) rules cycling out. Size: unilateral + 2 bilateral + 3 friction
   rows, dense; O(N^2) per pivot, about 2-3 N pivots from a cold start. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lcp_internal.h"

enum { V_UNI, V_POS, V_NEG, V_MUL };

/* The split problem's buffers in ws (grown on demand, kept): M (N x N), q, z, the scales and the
   variables' rows, kinds and the index of each original row's first variable. */
static int split_reserve(imp_lcp_workspace *ws, int n, int N)
{
    size_t need = (size_t)N * (size_t)N + 3 * (size_t)N + 1;
    if (need > ws->split_cap) {
        free(ws->split);
        ws->split = malloc(need * sizeof(double));
        ws->split_cap = ws->split != NULL ? need : 0;
        if (ws->split == NULL) return -1;
    }
    /* (rows, kinds, 6 n per row, N more for the warm start's flags) */
    if ((size_t)(3 * N + 6 * n + 1) > ws->split_icap) {
        free(ws->split_i);
        ws->split_i = malloc((size_t)(3 * N + 6 * n + 1) * sizeof(int));
        ws->split_icap = ws->split_i != NULL ? (size_t)(3 * N + 6 * n + 1) : 0;
        if (ws->split_i == NULL) return -1;
    }
    if (ws->split_ws == NULL) {
        ws->split_ws = calloc(1, sizeof *ws->split_ws);
        if (ws->split_ws == NULL) return -1;
    }
    imp_lcp_workspace *in = ws->split_ws;
    if ((size_t)N > in->split_icap) {
        /* (Lemke uses only st and its own buffers of the inner workspace) */
        free(in->st);
        in->st = malloc((size_t)N + 1);
        in->split_icap = in->st != NULL ? (size_t)N : 0;
        if (in->st == NULL) return -1;
    }
    return 0;
}

static int is_fric(const imp_lcp_problem *p, int i)
{
    return p->friction_normal != NULL && p->friction_normal[i] >= 0;
}

static int is_sliding(const imp_lcp_problem *p, int i)
{
    return is_fric(p, i) && p->sliding != NULL && p->sliding[i] != 0;
}

/* whether rows i and j of A (and their columns) and of b are the same up to rounding */
static int same_rows(const imp_lcp_problem *p, int i, int j, double ta, double tb)
{
    int n = p->n;
    const double *A = p->A;
    if (fabs(p->b[i] - p->b[j]) > tb || fabs(A[(size_t)i * n + i] - A[(size_t)j * n + j]) > ta)
        return 0;
    for (int k = 0; k < n; k++) {
        if (fabs(A[(size_t)i * n + k] - A[(size_t)j * n + k]) > ta) return 0;
        if (fabs(A[(size_t)k * n + i] - A[(size_t)k * n + j]) > ta) return 0;
    }
    return 1;
}

/* Duplicate rows: rep[i] = the first row of i's group, cnt[rep] = the group's size. Two
   unilateral rows are duplicates when their rows and columns of A are the same up to rounding
   and their b within tb (a contact point found twice, as the 2D engine reports the ends of a
   box on a box); two static friction rows when the same holds and mu is equal (the two
   corners of a box on the ground share their tangent row: their b, which should be equal,
   differ by rounding). A unilateral row bounding a sliding row is never merged. A group is
   solved as one row with the mean b (an error of at most tb / 2 in each member's a) and its
   force shared: equally for normal rows, in proportion to the members' normal forces for
   friction rows (the sum bounded by the sum of mu f_n keeps each member within its own).
   O(n^2) row comparisons, most rejected at the diagonal. */
static void find_duplicates(const imp_lcp_problem *p, double ta, double tb, int *rep, int *cnt,
                            int *keep)
{
    int n = p->n;
    for (int i = 0; i < n; i++) {
        rep[i] = i;
        cnt[i] = 1;
        keep[i] = p->bilateral != NULL && p->bilateral[i];
    }
    for (int i = 0; i < n; i++) {
        if (is_sliding(p, i)) keep[i] = keep[p->friction_normal[i]] = 1;
    }
    for (int i = 0; i < n; i++) {
        if (rep[i] != i || keep[i]) continue;
        for (int j = i + 1; j < n; j++) {
            if (rep[j] != j || keep[j] || is_fric(p, i) != is_fric(p, j)) continue;
            if (is_fric(p, i) && p->mu[i] != p->mu[j]) continue;
            if (!same_rows(p, i, j, ta, tb)) continue;
            rep[j] = i;
            cnt[i]++;
        }
    }
}

/* The warm start's basis (see imp_lcp_solve_split): sel[v] = 1 for the variables whose z is
   basic in the pattern of row states warm, warm_f the forces' signs (may be NULL). A
   unilateral row clamped: its force; a bilateral row: the part of its force's sign; a static
   friction row inside its bounds on a clamped normal: the part of its force's sign (the
   multiplier 0); at its upper (lower) bound, the positive (negative) part and the
   multiplier, also on a free normal (whose multiplier's small diagonal makes the parts
   eps l, not 0, at the end of Lemke's path). A row with a basis byte wb[i] (lcp.h basis,
   wb may be NULL) takes its variables' places from it. O(n). */
static void warm_basis(const imp_lcp_problem *p, const signed char *warm, const double *warm_f,
                       const unsigned char *wb, const int *rep, const int *first,
                       const int *neg, const int *mul, int N, unsigned char *sel)
{
    memset(sel, 0, (size_t)N);
    for (int i = 0; i < p->n; i++) {
        if (rep[i] != i || is_sliding(p, i)) continue;
        int bil = p->bilateral != NULL && p->bilateral[i];
        if (wb != NULL && (wb[i] & 8)) {
            /* the basis itself (lcp.h basis bits) */
            sel[first[i]] = (unsigned char)(wb[i] & 1);
            if (is_fric(p, i) || bil) sel[neg[i]] = (unsigned char)((wb[i] >> 1) & 1);
            if (is_fric(p, i)) sel[mul[i]] = (unsigned char)((wb[i] >> 2) & 1);
            continue;
        }
        int negative = warm_f != NULL && warm_f[i] < 0.0;
        if (!is_fric(p, i)) {
            if (warm[i] == IMP_LCP_STATE_CLAMPED) sel[bil && negative ? neg[i] : first[i]] = 1;
            continue;
        }
        if (warm[i] == IMP_LCP_STATE_CLAMPED && warm[p->friction_normal[i]] == IMP_LCP_STATE_CLAMPED) {
            sel[negative ? neg[i] : first[i]] = 1;
        } else if (warm[i] == IMP_LCP_STATE_UPPER || warm[i] == IMP_LCP_STATE_LOWER) {
            sel[warm[i] == IMP_LCP_STATE_UPPER ? first[i] : neg[i]] = 1;
            sel[mul[i]] = 1;
        }
    }
}

imp_lcp_status imp_lcp_solve_split(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                   double eps, int scale, const signed char *warm,
                                   const double *warm_f, const unsigned char *warm_bas,
                                   imp_lcp_workspace *ws, double *f, imp_lcp_info *info,
                                   const char **msg)
{
    int n = p->n, N = 0;
    /* (the variables' count is bounded first, without the duplicates) */
    for (int i = 0; i < n; i++) {
        f[i] = 0.0;
        int bil = p->bilateral != NULL && p->bilateral[i];
        N += is_sliding(p, i) ? 0 : is_fric(p, i) ? 3 : bil ? 2 : 1;
    }
    if (split_reserve(ws, n, N) != 0) {
        *msg = "out of memory for the split friction problem";
        return IMP_LCP_NO_MEMORY;
    }
    double amax = 0.0, bmax = 0.0;
    for (size_t k = 0; k < (size_t)n * n; k++) amax = fmax(amax, fabs(p->A[k]));
    for (int i = 0; i < n; i++) bmax = fmax(bmax, fabs(p->b[i]));
    /* b's of duplicates within half the tolerance on a times max|b| (a's scale is at least
       that): each member's a is then off by at most a quarter of the tolerance */
    double tb = 0.5 * lim->tol * bmax;
    int *rep = ws->split_i + 2 * N + 3 * n, *cnt = rep + n, *keep = cnt + n;
    find_duplicates(p, 1e-12 * amax, tb, rep, cnt, keep);
    N = 0;
    for (int i = 0; i < n; i++) {
        int bil = p->bilateral != NULL && p->bilateral[i];
        if (rep[i] == i) N += is_sliding(p, i) ? 0 : is_fric(p, i) ? 3 : bil ? 2 : 1;
    }
    double *M = ws->split, *q = M + (size_t)N * N, *z = q + N;
    int *row = ws->split_i, *kind = row + N, *first = kind + N;
    /* the variables by kind: unilateral and positive parts, negative parts, multipliers
       (each group in row order; Lemke's lexicographic rule sees this order) */
    int v = 0;
    for (int pass = 0; pass < 3; pass++) {
        for (int i = 0; i < n; i++) {
            int bil = p->bilateral != NULL && p->bilateral[i];
            if (rep[i] != i || is_sliding(p, i) || (pass > 0 && !is_fric(p, i) && !bil)) continue;
            if (pass == 2 && !is_fric(p, i)) continue;
            if (pass == 0) first[i] = v;
            row[v] = i;
            kind[v++] = pass == 0 ? (is_fric(p, i) || bil ? V_POS : V_UNI)
                                  : pass == 1 ? V_NEG : V_MUL;
        }
    }
    /* each split row's negative part and multiplier */
    int *neg = first + n, *mul = neg + n;
    for (int r = 0; r < N; r++) {
        if (kind[r] == V_NEG) neg[row[r]] = r;
        if (kind[r] == V_MUL) mul[row[r]] = r;
    }
    /* the multipliers' diagonal: without it a contact whose normal force reaches 0 lets its
       multiplier grow without bound (w_p, w_m only grow: a secondary ray of Lemke's path
       that proves nothing); with it |f_i| may exceed mu f_n by eps_l l_i, eps_l = eps /
       max|A| (the driver tries a few eps and checks each answer on the problem itself) */
    double eps_l = eps / (amax + DBL_MIN);
    /* M = E^T A T + C, q = E^T b: T maps the variables to f (a sliding row follows its
       normal's variable), E picks each variable's row of a with its sign, C couples the
       multipliers */
    for (int r = 0; r < N; r++) {
        double *mr = M + (size_t)r * N;
        if (kind[r] == V_MUL) {
            int i = row[r];
            memset(mr, 0, sizeof(double) * (size_t)N);
            for (int k = 0; k < n; k++) {
                /* the members' bounds mu f_n, each normal row's force its group's share */
                if (rep[k] != i) continue;
                int nk = rep[p->friction_normal[k]];
                mr[first[nk]] += p->mu[k] / cnt[nk];
            }
            mr[first[i]] = mr[neg[i]] = -1.0;
            mr[r] = eps_l;
            q[r] = 0.0;
            continue;
        }
        int i = row[r];
        double s = kind[r] == V_NEG ? -1.0 : 1.0;
        const double *ai = p->A + (size_t)i * n;
        for (int c = 0; c < N; c++) {
            int j = row[c];
            double e = 0.0;
            if (kind[c] == V_UNI || kind[c] == V_POS) {
                e = ai[j];
            } else if (kind[c] == V_NEG) {
                e = -ai[j];
            }
            mr[c] = s * e;
        }
        for (int k = 0; k < n; k++) {
            /* a sliding row's force -sliding mu f_n, on its normal's variable */
            if (is_sliding(p, k))
                mr[first[p->friction_normal[k]]] -= s * p->sliding[k] * p->mu[k] * ai[k];
        }
        if (kind[r] != V_UNI && is_fric(p, i)) mr[mul[i]] = 1.0;
    }
    /* q: each group's mean b, signed */
    for (int r = 0; r < N; r++) {
        if (kind[r] != V_NEG) q[r] = 0.0;
    }
    for (int i = 0; i < n; i++) {
        if (is_sliding(p, i)) continue;
        int r = rep[i];
        q[first[r]] += p->b[i] / cnt[r];
    }
    for (int r = 0; r < N; r++) {
        if (kind[r] == V_NEG) q[r] = -q[first[row[r]]];
    }
    /* scaled, w' = D w = (D M D) z' + D q with z = D z' (the same complementarity): each
       force variable by 1 / sqrt(A_ii) of its row, a multiplier by sqrt(A_ii), so the
       entries Lemke's tolerances compare are of one size (scale 0: D = I) */
    double *D = z + N;
    for (int r = 0; r < N; r++) {
        double d = p->A[(size_t)row[r] * n + row[r]];
        d = d > 0.0 ? sqrt(d) : 1.0;
        D[r] = !scale ? 1.0 : kind[r] == V_MUL ? d : 1.0 / d;
    }
    for (int r = 0; r < N; r++) {
        double *mr = M + (size_t)r * N;
        for (int c = 0; c < N; c++) mr[c] *= D[r] * D[c];
        q[r] *= D[r];
    }
    imp_lcp_problem sp;
    memset(&sp, 0, sizeof sp);
    sp.n = N;
    sp.A = M;
    sp.b = q;
    imp_lcp_limits sl = *lim;
    /* (a cold start takes 2-3 N; on the 55-box pyramid's redundant contacts up to 10 N) */
    sl.max_pivots = (lim->split_factor > 0 ? lim->split_factor : 5) * N + 1000;
    imp_lcp_info li;
    memset(&li, 0, sizeof li);
    imp_lcp_status st;
    if (warm != NULL) {
        unsigned char *sel = (unsigned char *)(keep + n); /* (after the lists) */
        warm_basis(p, warm, warm_f, warm_bas, rep, first, neg, mul, N, sel);
        st = imp_lcp_solve_lemke_from(&sp, sel, &sl, ws->split_ws, z, &li, msg);
    } else {
        st = imp_lcp_solve_lemke(&sp, &sl, ws->split_ws, z, &li, msg);
    }
    info->pivots += li.pivots;
    for (int r = 0; r < N; r++) z[r] *= D[r];
    info->clamped = 0;
    /* the row states from the final basis (Lemke's: CLAMPED for a basic z) when Lemke
       solved the problem, so that a basic variable at 0 (degenerate) keeps its place in a
       warm start's basis; else from the values */
    const signed char *basic = st == IMP_LCP_OK ? ws->split_ws->st : NULL;
    /* normal and bilateral rows (a group's force shared equally), then friction rows (in
       proportion to the members' normal forces), then sliding rows */
    for (int pass = 0; pass < 3; pass++) {
        for (int i = 0; i < n; i++) {
            int r = rep[i], x = first[r];
            signed char s;
            if (pass != (is_sliding(p, i) ? 2 : is_fric(p, i) ? 1 : 0)) continue;
            if (pass == 2) {
                f[i] = -p->sliding[i] * p->mu[i] * f[p->friction_normal[i]];
                s = IMP_LCP_STATE_SLIDING;
            } else if (pass == 1) {
                double total = 0.0;
                for (int k = 0; k < n; k++) {
                    if (rep[k] == r) total += f[p->friction_normal[k]];
                }
                double ft = z[x] - z[neg[r]], share = f[p->friction_normal[i]];
                f[i] = total > 0.0 ? ft * (share / total) : 0.0;
                /* (the multipliers' diagonal lets |f| pass mu f_n by eps_l l: cut back) */
                double bound = p->mu[i] * share;
                f[i] = f[i] > bound ? bound : f[i] < -bound ? -bound : f[i];
                s = z[mul[r]] > 0.0 ? (ft > 0.0 ? IMP_LCP_STATE_UPPER : IMP_LCP_STATE_LOWER)
                                    : IMP_LCP_STATE_CLAMPED;
                if (basic != NULL) {
                    /* (the basis itself: a warm start rebuilds it from these states) */
                    int bp = basic[x] == IMP_LCP_STATE_CLAMPED;
                    int bm = basic[neg[r]] == IMP_LCP_STATE_CLAMPED;
                    if (basic[mul[r]] == IMP_LCP_STATE_CLAMPED)
                        s = bp != bm ? (bp ? IMP_LCP_STATE_UPPER : IMP_LCP_STATE_LOWER)
                                     : (ft > 0.0 ? IMP_LCP_STATE_UPPER : IMP_LCP_STATE_LOWER);
                    else
                        s = bp || bm ? IMP_LCP_STATE_CLAMPED : IMP_LCP_STATE_FREE;
                }
            } else if (p->bilateral != NULL && p->bilateral[i]) {
                f[i] = z[x] - z[neg[r]];
                s = IMP_LCP_STATE_CLAMPED;
            } else {
                f[i] = z[x] / cnt[r];
                s = z[x] > 0.0 ? IMP_LCP_STATE_CLAMPED : IMP_LCP_STATE_FREE;
                if (basic != NULL)
                    s = basic[x] == IMP_LCP_STATE_CLAMPED ? IMP_LCP_STATE_CLAMPED
                                                          : IMP_LCP_STATE_FREE;
            }
            ws->st[i] = s;
            info->clamped += s == IMP_LCP_STATE_CLAMPED;
            /* the basis bits (lcp.h basis) of the row's group */
            ws->bas[i] = 0;
            if (basic != NULL && pass < 2) {
                int bil = p->bilateral != NULL && p->bilateral[i];
                ws->bas[i] = (unsigned char)(8 | (basic[x] == IMP_LCP_STATE_CLAMPED));
                if (pass == 1 || bil) ws->bas[i] |= (unsigned char)(2 * (basic[neg[r]] == IMP_LCP_STATE_CLAMPED));
                if (pass == 1) ws->bas[i] |= (unsigned char)(4 * (basic[mul[r]] == IMP_LCP_STATE_CLAMPED));
            }
        }
    }
    if (info->clamped > info->max_clamped) info->max_clamped = info->clamped;
    return st;
}
