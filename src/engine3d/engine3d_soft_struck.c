/* engine3d_soft_struck.c: the restitution pass's rows (engine3d_soft.c) of each struck pair
   solved as one block, in rounds over the pairs (issue #24 item 8). The pass asks, at every
   point it takes, Newton's law u_N = -e u_N(hit) with the point sticking (u_T = 0) while its
   friction stays in its disc mu sum_N; its Gauss-Seidel sweeps converge a pair's coupled normal
   and friction rows slowly (a box landing on its face: 12 rows on 6 degrees of freedom). Here a
   pair's rows (3 a point, up to STRUCK_POINTS points) are solved at once, a small dense system
   W dx = -(u + target) (W: the rows' coupling), the pairs in turn, a few rounds: block
   Gauss-Seidel. A pair whose solve leaves a point slipping (friction outside its disc) or
   that has more points is taken row by row that round (the pass's own rows). */
#include "engine3d_soft_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <stdio.h>
long dbg_fail[6];
static void dbgp(void) { if (getenv("IMP_STRUCK_STATS")) fprintf(stderr, "ok %ld big %ld factor %ld drop %ld cone %ld letgo %ld\n", dbg_fail[0], dbg_fail[1], dbg_fail[2], dbg_fail[3], dbg_fail[4], dbg_fail[5]); }
__attribute__((constructor)) static void dbgi(void) { atexit(dbgp); }
enum { STRUCK_POINTS = 4, STRUCK_ROWS = 3 * STRUCK_POINTS, STRUCK_W = STRUCK_ROWS * STRUCK_ROWS };

/* a relative regularisation of the diagonal: a face's four points give 12 rows on a body's 6
   degrees of freedom (W singular); the regularised solve and one refinement take a solution
   to about REGULAR^2 of the residual */
static const double REGULAR = 1e-9;

/* W_rs = (m_a^-1 + m_b^-1) d_r . d_s + (r_a x d_r) . I_a^-1 (r_a x d_s) + the same for b,
   d_r row r's direction (point r / 3's frame column r % 3), into W (n x n, n = 3 np).
   O(np^2). */
static void coupling(imp_e3_soft_pt *const *q, int np, const double *Ia, const double *Ib, double *W)
{
    int n = 3 * np;
    double ja[STRUCK_ROWS][3], jb[STRUCK_ROWS][3], ia[STRUCK_ROWS][3], ib[STRUCK_ROWS][3];
    for (int r = 0; r < n; r++) {
        const imp_e3_soft_pt *p = q[r / 3];
        double ca[4], cb[4];
        cross4(p->ra, p->ec[r % 3], ca);
        cross4(p->rb, p->ec[r % 3], cb);
        for (int k = 0; k < 3; k++) {
            ja[r][k] = ca[k];
            jb[r][k] = cb[k];
            ia[r][k] = (ca[0] * Ia[k] + ca[1] * Ia[4 + k]) + ca[2] * Ia[8 + k];
            ib[r][k] = (cb[0] * Ib[k] + cb[1] * Ib[4 + k]) + cb[2] * Ib[8 + k];
        }
    }
    double im = q[0]->ima + q[0]->imb;
    for (int r = 0; r < n; r++) {
        const double *dr = q[r / 3]->ec[r % 3];
        for (int s = 0; s <= r; s++) {
            const double *ds = q[s / 3]->ec[s % 3];
            double w = im * ((dr[0] * ds[0] + dr[1] * ds[1]) + dr[2] * ds[2]);
            w += (ja[r][0] * ia[s][0] + ja[r][1] * ia[s][1]) + ja[r][2] * ia[s][2];
            w += (jb[r][0] * ib[s][0] + jb[r][1] * ib[s][1]) + jb[r][2] * ib[s][2];
            W[r * n + s] = W[s * n + r] = w;
        }
    }
}

/* L L^T = W's rows idx[0 .. m) and columns (n apart), the diagonal raised by REGULAR of
   itself; L's inverse diagonal into dinv. 0, or -1 when a pivot is not positive. O(m^3 / 6). */
static int factor(const double *W, int n, const int *idx, int m, double *L, double *dinv)
{
    for (int j = 0; j < m; j++) {
        double d = W[idx[j] * n + idx[j]] * (1.0 + REGULAR);
        for (int k = 0; k < j; k++) {
            d -= L[j * STRUCK_ROWS + k] * L[j * STRUCK_ROWS + k];
        }
        if (!(d > 0.0)) {
            return -1;
        }
        dinv[j] = 1.0 / sqrt(d);
        for (int i = j + 1; i < m; i++) {
            double x = W[idx[i] * n + idx[j]];
            for (int k = 0; k < j; k++) {
                x -= L[i * STRUCK_ROWS + k] * L[j * STRUCK_ROWS + k];
            }
            L[i * STRUCK_ROWS + j] = x * dinv[j];
        }
    }
    return 0;
}

/* y = (L L^T)^-1 y (m rows). O(m^2). */
static void substitute(const double *L, const double *dinv, int m, double *y)
{
    for (int i = 0; i < m; i++) {
        double x = y[i];
        for (int k = 0; k < i; k++) {
            x -= L[i * STRUCK_ROWS + k] * y[k];
        }
        y[i] = x * dinv[i];
    }
    for (int i = m - 1; i >= 0; i--) {
        double x = y[i];
        for (int k = i + 1; k < m; k++) {
            x -= L[k * STRUCK_ROWS + i] * y[k];
        }
        y[i] = x * dinv[i];
    }
}

/* A slipping point's friction r (2 tangents) exactly: its tangent velocity u_T = b + T r
   (T: its 2 x 2 tangent block of W, b: u_T less T times the friction it holds) at rest with r
   inside the disc |r| <= lim, else r on the disc's edge against u_T (r = -(T + k I)^-1 b,
   k >= 0 with |r| = lim: Newton on 1 / |r(k)| - 1 / lim, which is convex and increasing).
   O(1). */
static void slip_friction(const double T[3], const double b[2], double lim, double r[2])
{
    double t0 = T[0], t1 = T[1], t2 = T[2];
    double k = 0.0;
    if (!(lim > 0.0)) {
        r[0] = r[1] = 0.0;
        return;
    }
    for (int it = 0; it < 32; it++) {
        double a0 = t0 + k, a2 = t2 + k, det = a0 * a2 - t1 * t1;
        if (!(det > 0.0)) {
            r[0] = r[1] = 0.0;
            return;
        }
        double x0 = -(a2 * b[0] - t1 * b[1]) / det, x1 = -(a0 * b[1] - t1 * b[0]) / det;
        double len = sqrt(x0 * x0 + x1 * x1);
        r[0] = x0;
        r[1] = x1;
        if (len <= lim * (1.0 + 1e-13)) {
            if (k == 0.0 || len >= lim * (1.0 - 1e-13)) {
                return;
            }
        }
        /* d|r|/dk = -(r . (A^-1 r)) / |r| with A = T + k I */
        double y0 = (a2 * x0 - t1 * x1) / det, y1 = (a0 * x1 - t1 * x0) / det;
        double dlen = -(x0 * y0 + x1 * y1) / len;
        /* phi = 1/len - 1/lim, phi' = -dlen / len^2 */
        double phi = 1.0 / len - 1.0 / lim, dphi = -dlen / (len * len);
        double step = -phi / dphi;
        k = k + step > 0.0 ? k + step : 0.5 * k;
    }
    double len = sqrt(r[0] * r[0] + r[1] * r[1]);
    if (len > lim) {
        r[0] *= lim / len;
        r[1] *= lim / len;
    }
}

/* a point's state in a pair's solve: let go (impulses 0), sticking (its three rows solved),
   slipping (its normal row solved, its friction on its disc's edge along dir) */
enum { OFF = 0, STICK = 1, SLIP = 2 };

/* One pair's rows (its np points q, their approaches ap) solved as a block: the changes x of
   their step impulses with W x = -(u + target) on the rows of the points that push, every
   point first sticking; a point whose normal impulse would turn negative let go, a sticking
   point whose friction leaves its disc slipping (its friction then held at the disc's edge as
   that solve gave it, projected, its tangent rows out; scaled onto the disc if a later solve
   shrinks it), and the rest solved again (at most 2 np times). Applied when no point let go approaches. W: the pair's coupling (computed when
   *ready is 0). Returns 1 when solved, with the largest change into *change; else 0 (nothing
   changed). O(np^4). */
static int solve_pair(struct imp_e3_soft *sf, imp_e3_soft_pt *const *q, const double *ap, int np, double *W,
                      unsigned char *ready, double *change)
{
    int n = 3 * np;
    imp_e3_soft_pt *q0 = q[0];
    double *va = sf->sv + 8 * (size_t)q0->a, *vb = sf->sv + 8 * (size_t)q0->b;
    const double *Ia = sf->si + 12 * (size_t)q0->a, *Ib = sf->si + 12 * (size_t)q0->b;
    if (!*ready) {
        coupling(q, np, Ia, Ib, W);
        *ready = 1;
    }
    double c[STRUCK_ROWS], x[STRUCK_ROWS];
    int st[STRUCK_POINTS];
    for (int i = 0; i < np; i++) {
        double u[4];
        velocity(va, vb, q[i], u);
        c[3 * i] = -(u[0] + q[i]->e * ap[i]);
        c[3 * i + 1] = -u[1];
        c[3 * i + 2] = -u[2];
        st[i] = STICK;
    }
    for (int round = 0;; round++) {
        double L[STRUCK_W], dinv[STRUCK_ROWS], y[STRUCK_ROWS], z[STRUCK_ROWS];
        int idx[STRUCK_ROWS], on[STRUCK_ROWS], m = 0;
        for (int r = 0; r < n; r++) {  /* the rows solved, and the others' fixed changes */
            int i = r / 3, k = r % 3;
            const imp_e3_soft_pt *p = q[i];
            on[r] = st[i] == STICK || (st[i] == SLIP && k == 0);
            if (on[r]) {
                idx[m++] = r;
            }
            x[r] = st[i] == OFF ? -p->sum[k] : 0.0;  /* (a slipping point's friction held) */
        }
        for (int a = 0; a < m; a++) {
            double rhs = c[idx[a]];
            for (int s = 0; s < n; s++) {
                rhs -= on[s] ? 0.0 : W[idx[a] * n + s] * x[s];
            }
            y[a] = z[a] = rhs;
        }
        if (m > 0) {
            if (factor(W, n, idx, m, L, dinv) != 0) {
                return 0;
            }
            substitute(L, dinv, m, y);
            for (int a = 0; a < m; a++) {  /* one refinement on the unregularised rows */
                double r = z[a];
                for (int b = 0; b < m; b++) {
                    r -= W[idx[a] * n + idx[b]] * y[b];
                }
                z[a] = r;
            }
            substitute(L, dinv, m, z);
        }
        for (int a = 0; a < m; a++) {
            /* (idx[a], y[a] and z[a] were set above for every a < m) */
            // cppcheck-suppress uninitvar
            x[idx[a]] = y[a] + z[a];
        }
        int moved = 0;
        for (int i = 0; i < np; i++) {
            const imp_e3_soft_pt *p = q[i];
            if (st[i] == OFF) {
                continue;
            }
            double sn = p->sum[0] + x[3 * i];
            if (sn < 0.0) {
                st[i] = OFF;
                moved = 1;
                continue;
            }
            if (st[i] == SLIP) {  /* its friction as held (then its own row, below) */
                continue;
            }
            double r1 = p->sum[1] + x[3 * i + 1], r2 = p->sum[2] + x[3 * i + 2], len2 = r1 * r1 + r2 * r2;
            double lim = p->mu * sn;
            if (len2 > lim * lim) {
                st[i] = SLIP;
                moved = 1;
            }
        }
        if (!moved) {
            break;
        }
        if (round == 2 * np) {
            return 0;
        }
    }
    for (int i = 0; i < np; i++) {
        if (st[i] != OFF) {
            continue;
        }
        double g = -c[3 * i];  /* let go: it must not approach */
        for (int s = 0; s < n; s++) {
            g += W[3 * i * n + s] * x[s];
        }
        if (g < -1e-9 * (fabs(c[3 * i]) + 1.0)) {
            return 0;
        }
    }
    double big = 0.0;
    for (int i = 0; i < np; i++) {
        imp_e3_soft_pt *p = q[i];
        double dn = x[3 * i], d1 = x[3 * i + 1], d2 = x[3 * i + 2];
        p->sum[0] += dn;
        p->sum[1] += d1;
        p->sum[2] += d2;
        p->rn = fmax(p->rn + dn, 0.0);  /* the next step's warm start (as the pass's rows) */
        p->rt1 += d1;
        p->rt2 += d2;
        apply(va, vb, Ia, Ib, p, dn, d1, d2);
        if (st[i] == SLIP) {  /* its friction row as the pass's: on the disc mu sum_N */
            double u[4], r[2];
            velocity(va, vb, p, u);
            int t = 3 * i + 1;
            double T[3] = {W[t * n + t], W[t * n + t + 1], W[(t + 1) * n + t + 1]};
            double bt[2] = {u[1] - (T[0] * p->sum[1] + T[1] * p->sum[2]), u[2] - (T[1] * p->sum[1] + T[2] * p->sum[2])};
            slip_friction(T, bt, p->mu * p->sum[0], r);
            double r1 = r[0], r2 = r[1];
            d1 = r1 - p->sum[1];
            d2 = r2 - p->sum[2];
            p->sum[1] = r1;
            p->sum[2] = r2;
            p->rt1 += d1;
            p->rt2 += d2;
            apply(va, vb, Ia, Ib, p, 0.0, d1, d2);
            d1 = x[3 * i + 1] + d1;
            d2 = x[3 * i + 2] + d2;
        }
        double a = fabs(dn) > fabs(d1) ? fabs(dn) : fabs(d1);
        a = a > fabs(d2) ? a : fabs(d2);
        big = a > big ? a : big;
    }
    *change = big;
    return 1;
}

int imp_e3_soft_struck_rounds(struct imp_e3_soft *sf, const double *rs, int stride, int rounds,
                              imp_e3_struck_row row, int simd)
{
    const int *took = sf->took;
    int m = sf->ntook, npair = 0;
    if (m == 0 || imp_e3_grow((void **)&sf->struck_first, &sf->struck_first_cap, m + 1, sizeof *sf->struck_first) != 0) {
        return 0;
    }
    for (int i = 0; i < m; npair++) {  /* the pairs: runs of took with the same bodies */
        const imp_e3_soft_pt *p = &sf->pts[took[i]];
        sf->struck_first[npair] = i;
        for (i++; i < m && sf->pts[took[i]].a == p->a && sf->pts[took[i]].b == p->b; i++) {
        }
    }
    sf->struck_first[npair] = m;
    if (imp_e3_grow((void **)&sf->struck_w, &sf->struck_w_cap, STRUCK_W * npair, sizeof *sf->struck_w) != 0
        || imp_e3_grow((void **)&sf->struck_ready, &sf->struck_ready_cap, npair, sizeof *sf->struck_ready) != 0) {
        return 0;
    }
    memset(sf->struck_ready, 0, (size_t)npair);
    int done = 0;
    for (; done < rounds; done++) {
        double change = 0.0, size = 0.0;
        for (int g = 0; g < npair; g++) {
            int f = sf->struck_first[g], np = sf->struck_first[g + 1] - f;
            imp_e3_soft_pt *q[STRUCK_POINTS];
            double ap[STRUCK_POINTS], ch = 0.0;
            int solved = 0;
            if (np > STRUCK_POINTS) dbg_fail[1]++;
            if (np <= STRUCK_POINTS) {
                for (int k = 0; k < np; k++) {
                    q[k] = &sf->pts[took[f + k]];
                    ap[k] = rs[stride * (size_t)took[f + k]];
                }
                solved = solve_pair(sf, q, ap, np, sf->struck_w + STRUCK_W * (size_t)g, &sf->struck_ready[g], &ch);
            }
            for (int k = 0; k < np && !solved; k++) {
                int c = took[f + k];
                double d = row(sf, &sf->pts[c], rs[stride * (size_t)c], simd);
                ch = d > ch ? d : ch;
            }
            change = ch > change ? ch : change;
            for (int k = 0; k < np; k++) {
                double s = sf->pts[took[f + k]].sum[0];
                size = s > size ? s : size;
            }
        }
        if (getenv("IMP_STRUCK_TRACE")) fprintf(stderr, "round %d npair %d m %d rel %.3g\n", done, npair, m, change / size);
        if (!(change > 1e-12 * size)) {
            done++;
            break;
        }
    }
    return done;
}

void imp_e3_soft_struck_free(struct imp_e3_soft *sf)
{
    free(sf->struck_first);
    free(sf->struck_w);
    free(sf->struck_ready);
}
