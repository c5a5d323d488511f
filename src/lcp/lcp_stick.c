/* lcp_stick.c: frictional problems whose contacts stick, solved through the edges of the
   friction cone (2D, one static friction row per normal row).

   A contact with normal row i and friction row k bounded by mu f_i carries forces in the
   cone |f_k| <= mu f_i, whose two edges are g+ = (1, mu) and g- = (1, -mu) in (f_i, f_k):
   f_i = c+ + c-, f_k = mu (c+ - c-), c+- >= 0. In these coordinates, f = G c, the problem
   a' = G^T A G c + G^T b, c >= 0, a' >= 0, c a' = 0 is a symmetric PSD LCP without friction
   rows (a'+- = a_i +- mu a_k), which lcp_symmetric.c solves with redundant rows pushed out
   (a 2D pyramid's rows outnumber its bodies' degrees of freedom 3 to 1). Its answer is
   Coulomb's wherever a contact sticks (c+ > 0 and c- > 0: a_i = a_k = 0, |f_k| < mu f_i)
   or separates (c = 0: a_i >= mu |a_k|, f = 0), but a contact on one edge that slips has
   a_i = mu |a_k| > 0 where Coulomb asks a_i = 0 (the associated law's dilatancy): the
   driver takes the answer only when imp_lcp_check passes on the original problem, so this
   solves exactly the problems whose contacts stick or separate, the resting stacks and
   pyramids where the box steps wander between the many normal-force splits (the split is
   not unique; the clamped set of the box steps never settles on one that keeps every
   friction force inside its bound).

   Rows keep their places: g+ sits at the normal row, g- at the friction row; other rows
   (bilateral, frictionless contacts) are unchanged. Cost: G^T A G in O(n^2) (G has at most
   two entries per column), the symmetric method's O(n^3). */
#include <stdlib.h>
#include <string.h>

#include "lcp_internal.h"

/* column v of G: up to two (row, value) entries; partner[v] >= 0 for a cone pair */
static int gcol(const imp_lcp_problem *p, const int *partner, int v, int *r, double *g)
{
    int k = partner[v];
    if (k < 0) {
        r[0] = v;
        g[0] = 1.0;
        return 1;
    }
    int fr = p->friction_normal[v] >= 0 ? v : k; /* the friction row of the pair */
    int nr = fr == v ? k : v;
    double mu = p->mu[fr];
    r[0] = nr;
    g[0] = 1.0;
    r[1] = fr;
    g[1] = fr == v ? -mu : mu; /* c+ at the normal row, c- at the friction row */
    return 2;
}

imp_lcp_status imp_lcp_solve_stick(const imp_lcp_problem *p, const imp_lcp_limits *lim,
                                   imp_lcp_workspace *ws, double *f, imp_lcp_info *info,
                                   const char **msg)
{
    int n = p->n;
    size_t nn = (size_t)n * (size_t)n;
    if (ws->stick_cap < n) {
        free(ws->stick);
        free(ws->stick_pair);
        ws->stick = malloc(sizeof(double) * (2 * nn + 2 * (size_t)n) + 1);
        ws->stick_pair = malloc(sizeof(int) * (size_t)n + 1);
        ws->stick_cap = ws->stick != NULL && ws->stick_pair != NULL ? n : 0;
        if (ws->stick_cap == 0) {
            *msg = "out of memory for the cone-edge problem";
            return IMP_LCP_NO_MEMORY;
        }
    }
    double *T = ws->stick, *Ag = T + nn, *bg = Ag + nn, *c = bg + n;
    int *partner = ws->stick_pair;
    for (int i = 0; i < n; i++) partner[i] = -1;
    for (int k = 0; k < n; k++) {
        int i = p->friction_normal[k];
        if (i < 0) continue;
        if ((p->sliding != NULL && p->sliding[k] != 0) || partner[i] >= 0) {
            *msg = "the cone-edge solve takes static rows, one friction row per normal row";
            return IMP_LCP_OUTSIDE_CLASS;
        }
        partner[i] = k;
        partner[k] = i;
    }
    /* T = A G (column by column), then Ag = G^T T (row by row), bg = G^T b */
    for (int v = 0; v < n; v++) {
        int r[2];
        double g[2];
        int cnt = gcol(p, partner, v, r, g);
        for (int x = 0; x < n; x++) {
            double s = 0.0;
            for (int q = 0; q < cnt; q++) s += p->A[(size_t)x * n + r[q]] * g[q];
            T[(size_t)x * n + v] = s;
        }
    }
    for (int u = 0; u < n; u++) {
        int r[2];
        double g[2];
        int cnt = gcol(p, partner, u, r, g);
        double sb = 0.0;
        for (int q = 0; q < cnt; q++) sb += g[q] * p->b[r[q]];
        bg[u] = sb;
        for (int v = 0; v < n; v++) {
            double s = 0.0;
            for (int q = 0; q < cnt; q++) s += g[q] * T[(size_t)r[q] * n + v];
            Ag[(size_t)u * n + v] = s;
        }
    }
    /* exact symmetry (the two products round differently) */
    for (int u = 0; u < n; u++) {
        for (int v = 0; v < u; v++) {
            double s = 0.5 * (Ag[(size_t)u * n + v] + Ag[(size_t)v * n + u]);
            Ag[(size_t)u * n + v] = Ag[(size_t)v * n + u] = s;
        }
    }
    imp_lcp_problem q;
    memset(&q, 0, sizeof q);
    q.n = n;
    q.A = Ag;
    q.b = bg;
    q.bilateral = p->bilateral;
    imp_lcp_status st = imp_lcp_solve_symmetric(&q, lim, NULL, ws, c, info, msg);
    for (int v = 0; v < n; v++) f[v] = 0.0;
    for (int v = 0; v < n; v++) {
        int r[2];
        double g[2];
        int cnt = gcol(p, partner, v, r, g);
        for (int x = 0; x < cnt; x++) f[r[x]] += g[x] * c[v];
    }
    /* the states of the original rows: a friction row inside its bound is clamped, at a
       bound (one edge) upper or lower */
    for (int v = 0; v < n; v++) {
        int k = partner[v];
        if (k < 0 || p->friction_normal[v] >= 0) continue;
        int up = c[v] > 0.0, lo = c[k] > 0.0;
        ws->st[v] = (signed char)(up || lo ? IMP_LCP_STATE_CLAMPED : IMP_LCP_STATE_FREE);
        ws->st[k] = (signed char)(up && lo ? IMP_LCP_STATE_CLAMPED
                                  : up ? IMP_LCP_STATE_UPPER : lo ? IMP_LCP_STATE_LOWER
                                  : IMP_LCP_STATE_FREE);
    }
    return st;
}
