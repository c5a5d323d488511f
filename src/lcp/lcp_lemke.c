/* lcp_lemke.c: Lemke's complementary pivoting method for the LCP w = M z + q, z >= 0,
   w >= 0, z.w = 0 with any square M (C. E. Lemke, "Bimatrix equilibrium points and
   mathematical programming", Management Science 11, 1965; R. W. Cottle, J.-S. Pang,
   R. E. Stone, "The Linear Complementarity Problem", 1992/2009, section 4.4; K. G. Murty,
   "Linear Complementarity, Linear and Nonlinear Programming", 1988, chapter 2).

   It is the fallback for problems outside Baraff's method's class: A not symmetric PSD
   (games, nonsymmetric textbook matrices). It needs no friction rows and no bilateral rows.

   The augmented system  w - M z - d z0 = q  (covering vector d > 0) starts from the basis
   of all w with z0 raised just enough to make every w >= 0; the row that limited z0 leaves.
   Then, repeatedly, the complement of the variable that just left enters the basis and the
   minimum ratio test picks the variable that leaves. The basis stays almost complementary
   (only the pair of the entering variable is missing) until z0 leaves: a solution. If the
   entering column has no positive entry the path ends on a secondary ray: no solution was
   found. For copositive-plus M (PSD, monotone) this proves none exists (Cottle-Pang-Stone
   theorem 4.4.13); here the ray is checked as a Farkas certificate (y >= 0, M^T y <= 0,
   q.y < 0 means no z >= 0 has M z + q >= 0) and reported as infeasible only then. Other
   matrices (games) can end on a ray although a solution exists, so a few other covering
   vectors are tried before the failure is reported.

   Anti-cycling: the lexicographic minimum ratio rule (ties in x_i / c_i are broken by the
   rows of B^-1 divided by c_i, compared column by column; Cottle-Pang-Stone 4.9), which
   keeps every basis lexicographically positive, so no basis repeats and the method ends
   within the finite number of almost complementary bases; z0 leaves first on true ties.
   In floating point the ratio test is Harris-style (see ratio_test): among the rows within
   a small feasibility tolerance of the minimum ratio the largest pivot is taken, and the
   lexicographic rule breaks exact ties with it. The pivot cap (lim->max_pivots) bounds the
   work anyway.

   Storage: the revised form. B^-1 (n x n) and x = B^-1 q are updated by one elimination
   per pivot, the entering column is B^-1 times a column of [I, -M, -d]: O(n^2) per pivot.
   At the end the final basis is refactored (LU with partial pivoting, O(n^3)) and x is
   recomputed from scratch, so the error does not accumulate over pivots. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lcp_internal.h"

/* variables: 0..n-1 are w_i, n..2n-1 are z_j, 2n is z0 */
typedef struct lemke {
    int n;
    const double *M, *q;
    double *Binv, *x, *c, *d, *B, *y;
    int *basis, *where, *ties;
} lemke;

static int lemke_reserve(imp_lcp_workspace *ws, int n)
{
    if (n <= ws->lem_cap) {
        return 0;
    }
    free(ws->lem);
    free(ws->lem_i);
    size_t c = (size_t)n;
    ws->lem = malloc((2 * c * c + 5 * c) * sizeof(double) + 1);
    ws->lem_i = malloc((4 * c + 2) * sizeof(int));
    if (ws->lem == NULL || ws->lem_i == NULL) {
        free(ws->lem);
        free(ws->lem_i);
        ws->lem = NULL;
        ws->lem_i = NULL;
        ws->lem_cap = 0;
        return -1;
    }
    ws->lem_cap = n;
    return 0;
}

/* out = B^-1 times the column of variable v of [I, -M, -d]. O(n^2) (O(n) for a w). The
   column is gathered first (into L->y) so the products run over contiguous rows. */
static void column(const lemke *L, int v, double *out)
{
    int n = L->n;
    if (v < n) {
        for (int i = 0; i < n; i++) out[i] = L->Binv[(size_t)i * n + v];
        return;
    }
    double *col = L->y;
    for (int k = 0; k < n; k++) col[k] = v < 2 * n ? -L->M[(size_t)k * n + (v - n)] : -L->d[k];
    for (int i = 0; i < n; i++) {
        const double *bi = L->Binv + (size_t)i * n;
        double s = 0.0;
        for (int k = 0; k < n; k++) s += bi[k] * col[k];
        out[i] = s;
    }
}

/* pivot on row r with entering variable v (its column L->c): B^-1 and x updated. O(n^2). */
static void pivot(lemke *L, int r, int v)
{
    int n = L->n;
    double *br = L->Binv + (size_t)r * n;
    double inv = 1.0 / L->c[r];
    for (int k = 0; k < n; k++) br[k] *= inv;
    L->x[r] *= inv;
    for (int i = 0; i < n; i++) {
        double ci = L->c[i];
        if (i == r || ci == 0.0) continue;
        double *bi = L->Binv + (size_t)i * n;
        for (int k = 0; k < n; k++) bi[k] -= ci * br[k];
        L->x[i] -= ci * L->x[r];
    }
    L->where[L->basis[r]] = -1;
    L->basis[r] = v;
    L->where[v] = r;
}

/* lexicographic minimum among the nt rows in L->ties: the rows of B^-1 / c_i, column by
   column, until one row is left. Entries that should be equal (mostly exact zeros) carry
   rounding noise, so values closer than 1e-11 times the largest entry of the tied rows
   count as equal; still tied only through rounding: the smallest basic variable index,
   deterministic. O(nt n). */
static int lexico_min(const lemke *L, int nt)
{
    int n = L->n;
    double mag = 0.0;
    for (int k = 0; k < nt; k++) {
        int i = L->ties[k];
        const double *bi = L->Binv + (size_t)i * n;
        for (int col = 0; col < n; col++) mag = fmax(mag, fabs(bi[col] / L->c[i]));
    }
    double eps = 1e-11 * mag;
    for (int col = 0; col < n && nt > 1; col++) {
        double m = INFINITY;
        for (int k = 0; k < nt; k++) {
            int i = L->ties[k];
            m = fmin(m, L->Binv[(size_t)i * n + col] / L->c[i]);
        }
        int kept = 0;
        for (int k = 0; k < nt; k++) {
            int i = L->ties[k];
            if (L->Binv[(size_t)i * n + col] / L->c[i] <= m + eps) L->ties[kept++] = i;
        }
        nt = kept;
    }
    int r = L->ties[0];
    for (int k = 1; k < nt; k++) {
        if (L->basis[L->ties[k]] < L->basis[r]) r = L->ties[k];
    }
    return r;
}

/* The leaving row for entering column c (rows with c_i > ctol), a Harris-style ratio test
   (P. M. J. Harris, "Pivot selection methods of the Devex LP code", Math. Programming 5,
   1973), with t_i = max(x_i, 0) / c_i and delta = 1e-13 max|x|:
   1. theta = min_i (max(x_i, 0) (1 + 1e-11) + delta) / c_i: any row with t_i <= theta may
      leave, since then every basic x_j stays >= -(1e-11 x_j + delta) after the step;
   2. z0 leaves only on a true tie, t_z0 <= min t (1 + 1e-11) + delta / max|c| (the step
      then moves no basic variable below -delta; the rule before, a slack delta / c_z0,
      let z0 leave with a row's variable at -1e-2 max|x| when c_z0 was near ctol);
   3. else the row with the largest c_i within theta (the most stable pivot), and the rows
      whose t ties with its t (up to 1e-11 relative and delta / c_p) by the lexicographic
      rule (anti-cycling on degenerate ties).
   -1: no positive entry (a ray). O(n) (O(nt n) on ties). */
static int ratio_test(const lemke *L, double ctol)
{
    int n = L->n, nt = 0, p = -1, z = -1;
    double best = INFINITY, theta = INFINITY, xmax = 0.0, cmax = 0.0;
    for (int i = 0; i < n; i++) {
        xmax = fmax(xmax, fabs(L->x[i]));
        cmax = fmax(cmax, fabs(L->c[i]));
    }
    double delta = 1e-13 * xmax;
    for (int i = 0; i < n; i++) {
        if (L->c[i] <= ctol) continue;
        double xi = fmax(L->x[i], 0.0);
        best = fmin(best, xi / L->c[i]);
        theta = fmin(theta, (xi * (1.0 + 1e-11) + delta) / L->c[i]);
    }
    if (best == INFINITY) return -1;
    for (int i = 0; i < n; i++) {
        double ci = L->c[i];
        if (ci <= ctol || fmax(L->x[i], 0.0) / ci > theta) continue;
        if (L->basis[i] == 2 * n) z = i;
        if (p < 0 || ci > L->c[p]) p = i;
    }
    if (z >= 0 && fmax(L->x[z], 0.0) / L->c[z] <= best * (1.0 + 1e-11) + delta / cmax) return z;
    double lim = fmin(theta, fmax(L->x[p], 0.0) / L->c[p] * (1.0 + 1e-11) + delta / L->c[p]);
    for (int i = 0; i < n; i++) {
        double ci = L->c[i];
        if (ci > ctol && fmax(L->x[i], 0.0) / ci <= lim) L->ties[nt++] = i;
    }
    return nt <= 1 ? p : lexico_min(L, nt);
}

/* recomputes x from the final basis by a fresh LU (partial pivoting) of B; 0 on success.
   O(n^3). */
static int refactor(lemke *L)
{
    int n = L->n;
    double *B = L->B, *y = L->y;
    for (int r = 0; r < n; r++) {
        int v = L->basis[r];
        for (int i = 0; i < n; i++) {
            double e;
            if (v < n) e = (i == v) ? 1.0 : 0.0;
            else if (v < 2 * n) e = -L->M[(size_t)i * n + (v - n)];
            else e = -L->d[i];
            B[(size_t)i * n + r] = e;
        }
    }
    for (int i = 0; i < n; i++) y[i] = L->q[i];
    double scale = 0.0;
    for (size_t k = 0; k < (size_t)n * n; k++) scale = fmax(scale, fabs(B[k]));
    if (imp_lcp_lu_solve(B, n, y, 1e-14 * scale) != 0) return -1;
    memcpy(L->x, y, sizeof(double) * (size_t)n);
    return 0;
}

/* When the final basis is too ill-conditioned to refactor (redundant contacts), the updated x
   carries the rounding of every pivot: two steps of iterative refinement with the updated
   B^-1, x += B^-1 (q - B x), bring B x back to q. O(n^2) each. */
static void refine(lemke *L)
{
    int n = L->n;
    for (int it = 0; it < 2; it++) {
        double *r = L->y, *cx = L->c;
        for (int i = 0; i < n; i++) r[i] = L->q[i];
        for (int k = 0; k < n; k++) {
            int v = L->basis[k];
            double xk = L->x[k];
            if (v < n) r[v] -= xk;
            else if (v < 2 * n) {
                for (int i = 0; i < n; i++) r[i] += L->M[(size_t)i * n + (v - n)] * xk;
            } else {
                for (int i = 0; i < n; i++) r[i] += L->d[i] * xk;
            }
        }
        for (int i = 0; i < n; i++) {
            const double *bi = L->Binv + (size_t)i * n;
            double s = 0.0;
            for (int k = 0; k < n; k++) s += bi[k] * r[k];
            cx[i] = s;
        }
        for (int i = 0; i < n; i++) L->x[i] += cx[i];
    }
}

/* covering vector number k (deterministic): all ones, then increasing and decreasing
   weights, then ones with one heavy row */
static void covering(double *d, int n, int k)
{
    for (int i = 0; i < n; i++) {
        if (k == 0) d[i] = 1.0;
        else if (k == 1) d[i] = 1.0 + i;
        else if (k == 2) d[i] = (double)(n - i);
        else d[i] = (i == (k - 3) % n) ? (double)n : 1.0;
    }
}

enum { L_SOLVED, L_RAY, L_CAP };

/* the simplest certificates, y = e_i: a row with q_i < 0 and no positive entry can never
   have w_i >= 0. Leaves the row in L->y. O(n^2). */
static int row_certificate(lemke *L)
{
    int n = L->n;
    for (int i = 0; i < n; i++) {
        if (!(L->q[i] < 0.0)) continue;
        int ok = 1;
        for (int j = 0; j < n && ok; j++) ok = L->M[(size_t)i * n + j] <= 0.0;
        if (ok) {
            for (int j = 0; j < n; j++) L->y[j] = (j == i) ? 1.0 : 0.0;
            return 1;
        }
    }
    return 0;
}

/* Last resort for small n (n <= IMP_LEMKE_ENUM_MAX): every complementary basis {z_S, w_not S}
   in order of growing S, solved by LU; the first with x >= 0 is a solution. Returns 1 with
   the basis and x in L, 0 when none is feasible; *singular counts the bases skipped as
   singular. If none was skipped and none is feasible, no solution exists (a solution with
   support S is the basic solution of the basis of S when that basis is nonsingular).
   O(2^n n^3). */
#define IMP_LEMKE_ENUM_MAX 10
static int enumerate(lemke *L, int *singular)
{
    int n = L->n;
    double qs = 0.0;
    for (int i = 0; i < n; i++) qs = fmax(qs, fabs(L->q[i]));
    *singular = 0;
    for (int size = 0; size <= n; size++) {
        for (unsigned mask = 0; mask < (1u << n); mask++) {
            int cnt = 0;
            for (int i = 0; i < n; i++) cnt += (int)((mask >> i) & 1u);
            if (cnt != size) continue;
            for (int i = 0; i < n; i++) L->basis[i] = ((mask >> i) & 1u) ? n + i : i;
            if (refactor(L) != 0) {
                (*singular)++;
                continue;
            }
            int ok = 1;
            for (int i = 0; i < n && ok; i++) ok = L->x[i] >= -1e-12 * qs;
            if (ok) return 1;
        }
    }
    return 0;
}

/* The path from z0's entry on row r (the basic variable there leaves; its complement enters
   next): complementary pivots by the ratio test until z0 leaves (L_SOLVED), the entering
   column has no positive entry (L_RAY; y receives the ray's z part) or the cap. */
static int walk(lemke *L, int r, int max_pivots, imp_lcp_info *info)
{
    int n = L->n;
    column(L, 2 * n, L->c);
    int leaving = L->basis[r];
    pivot(L, r, 2 * n);
    info->pivots++;
    int entering = leaving < n ? leaving + n : leaving - n;
    for (;;) {
        if (info->pivots >= max_pivots) return L_CAP;
        column(L, entering, L->c);
        double cmax = 0.0;
        for (int i = 0; i < n; i++) cmax = fmax(cmax, fabs(L->c[i]));
        r = ratio_test(L, 1e-11 * cmax);
        if (r < 0) {
            /* the ray: entering = 1, basic variables -c; keep its z part */
            for (int j = 0; j < n; j++) L->y[j] = 0.0;
            if (entering >= n && entering < 2 * n) L->y[entering - n] = 1.0;
            for (int i = 0; i < n; i++) {
                int v = L->basis[i];
                if (v >= n && v < 2 * n) L->y[v - n] = -L->c[i];
            }
            return L_RAY;
        }
        leaving = L->basis[r];
        /* the step is the ratio test's max(x_r, 0) / c_r: a leaving x_r below 0 (drift, or
           a Harris step) is set to 0 first, else the entering variable would take x_r / c_r
           < 0, unbounded as c_r nears ctol (traced on a dumped 580-row problem: x_r = -458,
           c_r = 9.5e-11, max|x| from 5e3 to 5e12). The answer is recomputed from the final
           basis (refactor), so this changes the path only. */
        if (L->x[r] < 0.0) L->x[r] = 0.0;
        pivot(L, r, entering);
        info->pivots++;
        if (leaving == 2 * n) return L_SOLVED;
        entering = leaving < n ? leaving + n : leaving - n;
    }
}

/* one Lemke path with covering vector L->d; on a ray, y receives the ray's z part */
static int path(lemke *L, int max_pivots, imp_lcp_info *info)
{
    int n = L->n;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < n; k++) L->Binv[(size_t)i * n + k] = (i == k) ? 1.0 : 0.0;
        L->x[i] = L->q[i];
        L->basis[i] = i;
        L->where[i] = i;
        L->where[n + i] = -1;
    }
    L->where[2 * n] = -1;
    /* z0 enters at max_i -q_i / d_i; that row's w leaves. On ties the largest index keeps
       the basis lexicographically positive: after the pivot a tied row i has the B^-1 row
       e_i - (d_i / d_r) e_r, whose first nonzero is +1 only when i < r. */
    double best = -INFINITY;
    int r = -1;
    for (int i = 0; i < n; i++) {
        double t = -L->q[i] / L->d[i];
        if (t >= best) {
            best = t;
            r = i;
        }
    }
    return walk(L, r, max_pivots, info);
}

/* B^-1 in place by Gauss-Jordan elimination with row pivoting (B: n x n row-major; perm: n
   ints). -1 when a pivot is not above tol. O(n^3). */
static int invert(double *B, int n, int *perm, double tol)
{
    for (int k = 0; k < n; k++) {
        int p = k;
        for (int i = k + 1; i < n; i++) {
            if (fabs(B[(size_t)i * n + k]) > fabs(B[(size_t)p * n + k])) p = i;
        }
        if (!(fabs(B[(size_t)p * n + k]) > tol)) return -1;
        perm[k] = p;
        if (p != k) {
            double *bp = B + (size_t)p * n, *bk = B + (size_t)k * n;
            for (int j = 0; j < n; j++) {
                double t = bp[j];
                bp[j] = bk[j];
                bk[j] = t;
            }
        }
        double *bk = B + (size_t)k * n;
        double inv = 1.0 / bk[k];
        bk[k] = 1.0;
        for (int j = 0; j < n; j++) bk[j] *= inv;
        for (int i = 0; i < n; i++) {
            double *bi = B + (size_t)i * n;
            double c = bi[k];
            if (i == k || c == 0.0) continue;
            bi[k] = 0.0;
            for (int j = 0; j < n; j++) bi[j] -= c * bk[j];
        }
    }
    for (int k = n - 1; k >= 0; k--) {
        int p = perm[k];
        if (p == k) continue;
        for (int i = 0; i < n; i++) {
            double *bi = B + (size_t)i * n;
            double t = bi[k];
            bi[k] = bi[p];
            bi[p] = t;
        }
    }
    return 0;
}

/* Lemke's path from the complementary basis of sel (z_j basic where sel[j], else w_j; row j
   of the basis holds pair j): B^-1 by Gauss-Jordan, O(n^3); x = B^-1 q. When x >= 0 (up to
   rounding, 1e-12 max|x|) that basis is the answer with no pivot; else the covering vector
   d = B e (so that z0's column in the basis is -e) starts the path as the cold start does
   from the identity, and the path goes on as usual (the lexicographic rule on the rows of
   B^-1, which are not lexicographically positive at this start: no anti-cycling proof,
   the pivot cap bounds the work). L_CAP also when the warm basis is singular. */
static int path_from(lemke *L, const unsigned char *sel, int max_pivots, imp_lcp_info *info)
{
    int n = L->n;
    for (int j = 0; j < 2 * n + 1; j++) L->where[j] = -1;
    for (int r = 0; r < n; r++) {
        L->basis[r] = sel[r] ? n + r : r;
        L->where[L->basis[r]] = r;
    }
    double *B = L->Binv;
    double scale = 0.0;
    for (int i = 0; i < n; i++) {
        for (int r = 0; r < n; r++) {
            double e = sel[r] ? -L->M[(size_t)i * n + r] : (i == r ? 1.0 : 0.0);
            B[(size_t)i * n + r] = e;
            scale = fmax(scale, fabs(e));
        }
    }
    /* d = B e, from B before it is inverted */
    for (int i = 0; i < n; i++) {
        const double *bi = B + (size_t)i * n;
        double s = 0.0;
        for (int r = 0; r < n; r++) s += bi[r];
        L->d[i] = s;
    }
    if (invert(B, n, L->ties, 1e-14 * scale) != 0) return L_CAP;
    double xmax = 0.0, xmin = 0.0;
    for (int i = 0; i < n; i++) {
        const double *bi = B + (size_t)i * n;
        double s = 0.0;
        for (int k = 0; k < n; k++) s += bi[k] * L->q[k];
        L->x[i] = s;
        xmax = fmax(xmax, fabs(s));
        xmin = fmin(xmin, s);
    }
    if (xmin >= -1e-12 * xmax) return L_SOLVED;
    /* z0 enters at max_i -x_i (z0's column is -e); the largest index on ties */
    int r = -1;
    double best = -INFINITY;
    for (int i = 0; i < n; i++) {
        if (-L->x[i] >= best) {
            best = -L->x[i];
            r = i;
        }
    }
    return walk(L, r, max_pivots, info);
}

/* y >= 0, M^T y <= 0 and q.y < 0 (relative to scale): no z >= 0 has M z + q >= 0 */
static int farkas(const lemke *L)
{
    int n = L->n;
    double ym = 0.0, sm = 0.0, qy = 0.0, sq = 0.0;
    for (int i = 0; i < n; i++) {
        if (L->y[i] < 0.0) return 0;
        ym = fmax(ym, L->y[i]);
        qy += L->q[i] * L->y[i];
        sq = fmax(sq, fabs(L->q[i]));
    }
    for (size_t k = 0; k < (size_t)n * n; k++) sm = fmax(sm, fabs(L->M[k]));
    if (!(qy < -1e-9 * sq * ym)) return 0;
    for (int j = 0; j < n; j++) {
        double s = 0.0;
        for (int i = 0; i < n; i++) s += L->M[(size_t)i * n + j] * L->y[i];
        if (s > 1e-12 * sm * ym * n) return 0;
    }
    return 1;
}

/* the answer of L's final basis into f and ws->st (CLAMPED for a basic z) */
static void answer(const lemke *L, imp_lcp_workspace *ws, double *f, imp_lcp_info *info)
{
    int n = L->n, clamped = 0;
    for (int r = 0; r < n; r++) {
        int v = L->basis[r];
        if (v >= n && v < 2 * n) {
            f[v - n] = L->x[r] > 0.0 ? L->x[r] : 0.0;
            ws->st[v - n] = IMP_LCP_STATE_CLAMPED;
            clamped++;
        }
    }
    info->clamped = clamped;
    info->max_clamped = clamped;
}

static void lemke_setup(lemke *L, const imp_lcp_problem *p, imp_lcp_workspace *ws)
{
    size_t c = (size_t)p->n;
    L->n = p->n;
    L->M = p->A;
    L->q = p->b;
    L->Binv = ws->lem;
    L->B = L->Binv + c * c;
    L->x = L->B + c * c;
    L->c = L->x + c;
    L->d = L->c + c;
    L->y = L->d + c;
    L->basis = ws->lem_i;
    L->where = L->basis + c;
    L->ties = L->where + 2 * c + 1;
}

#define IMP_LEMKE_WARM_REFINE 50
imp_lcp_status imp_lcp_solve_lemke_from(const imp_lcp_problem *p, const unsigned char *sel,
                                        const imp_lcp_limits *lim, imp_lcp_workspace *ws,
                                        double *f, imp_lcp_info *info, const char **msg)
{
    int n = p->n;
    for (int i = 0; i < n; i++) {
        f[i] = 0.0;
        ws->st[i] = IMP_LCP_STATE_FREE;
    }
    if (lemke_reserve(ws, n) != 0) {
        *msg = "out of memory for Lemke's tableau";
        return IMP_LCP_NO_MEMORY;
    }
    lemke L;
    lemke_setup(&L, p, ws);
    int outcome = path_from(&L, sel, lim->max_pivots, info);
    if (outcome == L_CAP) {
        *msg = "Lemke's method from the warm basis reached the pivot limit (or the basis is singular)";
        return IMP_LCP_PIVOT_LIMIT;
    }
    if (outcome == L_RAY) {
        *msg = "Lemke's method from the warm basis ended on a ray";
        return IMP_LCP_OUTSIDE_CLASS;
    }
    /* (a short path from the freshly inverted basis: refined, not refactored, O(n^2)
       against O(n^3)) */
    if (info->pivots <= IMP_LEMKE_WARM_REFINE || refactor(&L) != 0) refine(&L);
    *msg = info->pivots == 0 ? "the warm basis is the answer (no pivot)"
                             : "solved by Lemke's method from the warm basis";
    answer(&L, ws, f, info);
    return IMP_LCP_OK;
}

imp_lcp_status imp_lcp_solve_lemke(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                   imp_lcp_workspace *ws, double *f, imp_lcp_info *info,
                                   const char **msg)
{
    int n = p->n;
    for (int i = 0; i < n; i++) {
        f[i] = 0.0;
        ws->st[i] = IMP_LCP_STATE_FREE;
    }
    int trivial = 1;
    for (int i = 0; i < n; i++) {
        if (p->b[i] < 0.0) trivial = 0;
    }
    if (trivial) {
        *msg = "b >= 0: f = 0";
        return IMP_LCP_OK;
    }
    if (lemke_reserve(ws, n) != 0) {
        *msg = "out of memory for Lemke's tableau";
        return IMP_LCP_NO_MEMORY;
    }
    lemke L;
    lemke_setup(&L, p, ws);
    int tries = n + 3 < 8 ? n + 3 : 8;
    int outcome = L_RAY;
    for (int k = 0; k < tries; k++) {
        covering(L.d, n, k);
        outcome = path(&L, lim->max_pivots, info);
        if (outcome != L_RAY) break;
        if (farkas(&L)) {
            *msg = "Lemke's method ended on a ray that is a Farkas certificate (y >= 0, "
                   "A^T y <= 0, b.y < 0): no f >= 0 has A f + b >= 0";
            return IMP_LCP_INFEASIBLE;
        }
    }
    if (outcome == L_CAP) {
        *msg = "Lemke's method reached the pivot limit";
        return IMP_LCP_PIVOT_LIMIT;
    }
    if (outcome == L_RAY) {
        int singular = 0;
        if (row_certificate(&L)) {
            *msg = "infeasible: a row with b_i < 0 and no positive entry in A can never have "
                   "a_i >= 0 (Lemke's method ended on a ray)";
            return IMP_LCP_INFEASIBLE;
        }
        if (n > IMP_LEMKE_ENUM_MAX) {
            *msg = "Lemke's method ended on a secondary ray with every covering vector tried: "
                   "no solution found (none exists if A is copositive-plus)";
            return IMP_LCP_OUTSIDE_CLASS;
        }
        if (!enumerate(&L, &singular)) {
            if (singular == 0) {
                *msg = "infeasible: no complementary basis (all nonsingular) gives a solution";
                return IMP_LCP_INFEASIBLE;
            }
            *msg = "Lemke's method ended on a secondary ray, and no nonsingular complementary "
                   "basis gives a solution (some bases are singular: not a proof)";
            return IMP_LCP_OUTSIDE_CLASS;
        }
        *msg = "solved by enumerating complementary bases (Lemke's method ended on a ray)";
    } else if (refactor(&L) != 0) {
        /* keep the updated x, refined: the driver's residual check judges it */
        refine(&L);
        *msg = "solved by Lemke's method (final basis ill-conditioned, not refactored)";
    } else {
        *msg = "solved by Lemke's method";
    }
    answer(&L, ws, f, info);
    return IMP_LCP_OK;
}
