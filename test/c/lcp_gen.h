/* lcp_gen.h: LCP problem generators shared by test/c/test_lcp.c and bench/bench_lcp.c
   (header-only, static functions), and the independent checks both LCP tests use
   (residuals of a candidate solution, the basic solution on a given support). Formulas of the project's lcp.md section 1.4:
   - stacks of unit boxes (m = 1, g = 9.81) with A = J M^-1 J^T built from the contact
     Jacobian J (sparse: each row touches at most two bodies), b = J M^-1 F_ext;
   - random PSD problems A = J J^T / r (J n x r Gaussian) with a planted solution
     (40% f > 0 = a, 40% f = 0 < a, 20% degenerate f = a = 0).
   A is dense row-major. Nothing here calls the solver. */
#ifndef IMPACT_LCP_GEN_H
#define IMPACT_LCP_GEN_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scalar.h"

/* ---- deterministic RNG (xorshift64*) ---- */
typedef struct gen_rng { unsigned long long s; } gen_rng;

static inline void gen_seed(gen_rng *r, unsigned long long seed)
{
    r->s = 88172645463325252ULL ^ (seed * 0x9E3779B97F4A7C15ULL);
    if (r->s == 0) r->s = 1;
}

static inline double gen_uniform(gen_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return (double)((r->s * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

static inline double gen_normal(gen_rng *r)
{
    double u = gen_uniform(r) + 1e-300, v = gen_uniform(r);
    return sqrt(-2.0 * log(u)) * cos(2.0 * IMP_PI * v);
}

/* ---- contact systems: rows touching up to two bodies ---- */
typedef struct gen_sys {
    int n, nb, dof;   /* rows, bodies, dof per body (3 in 2D: x y theta; 6 in 3D) */
    int *body;        /* n*2 body indices, -1 = ground */
    double *jac;      /* n*2*dof: row i's Jacobian block for each of its bodies */
    double *minv;     /* nb*dof diagonal inverse mass */
    double *fext;     /* nb*dof external force */
    double *A, *b;    /* n*n row-major, n */
} gen_sys;

static inline void gen_sys_alloc(gen_sys *s, int n, int nb, int dof)
{
    s->n = n;
    s->nb = nb;
    s->dof = dof;
    s->body = malloc(sizeof(int) * 2 * (size_t)n);
    s->jac = calloc((size_t)n * 2 * dof, sizeof(double));
    s->minv = calloc((size_t)nb * dof, sizeof(double));
    s->fext = calloc((size_t)nb * dof, sizeof(double));
    s->A = calloc((size_t)n * n, sizeof(double));
    s->b = calloc((size_t)n, sizeof(double));
    for (int i = 0; i < 2 * n; i++) s->body[i] = -1;
}

static inline void gen_sys_free(gen_sys *s)
{
    free(s->body);
    free(s->jac);
    free(s->minv);
    free(s->fext);
    free(s->A);
    free(s->b);
    memset(s, 0, sizeof *s);
}

/* A = J M^-1 J^T and b = J M^-1 F, using that rows only couple through shared bodies.
   O(sum over bodies of rows(body)^2 dof). */
static inline void gen_sys_form(gen_sys *s)
{
    int n = s->n, dof = s->dof;
    int *cnt = calloc((size_t)s->nb + 1, sizeof(int));
    int *start = calloc((size_t)s->nb + 1, sizeof(int));
    int *list = malloc(sizeof(int) * 2 * (size_t)n + 1);
    int *slot = malloc(sizeof(int) * 2 * (size_t)n + 1);
    for (int i = 0; i < n; i++)
        for (int e = 0; e < 2; e++)
            if (s->body[2 * i + e] >= 0) cnt[s->body[2 * i + e]]++;
    for (int k = 1; k <= s->nb; k++) start[k] = start[k - 1] + cnt[k - 1];
    memset(cnt, 0, sizeof(int) * ((size_t)s->nb + 1));
    for (int i = 0; i < n; i++)
        for (int e = 0; e < 2; e++) {
            int k = s->body[2 * i + e];
            if (k < 0) continue;
            list[start[k] + cnt[k]] = i;
            slot[start[k] + cnt[k]] = e;
            cnt[k]++;
        }
    memset(s->A, 0, sizeof(double) * (size_t)n * n);
    for (int k = 0; k < s->nb; k++) {
        const double *mi = s->minv + (size_t)k * dof;
        for (int p = 0; p < cnt[k]; p++) {
            int i = list[start[k] + p];
            const double *ji = s->jac + ((size_t)2 * i + slot[start[k] + p]) * dof;
            double bi = 0.0;
            for (int c = 0; c < dof; c++) bi += ji[c] * mi[c] * s->fext[(size_t)k * dof + c];
            s->b[i] += bi;
            for (int q = 0; q < cnt[k]; q++) {
                int j = list[start[k] + q];
                const double *jj = s->jac + ((size_t)2 * j + slot[start[k] + q]) * dof;
                double v = 0.0;
                for (int c = 0; c < dof; c++) v += ji[c] * mi[c] * jj[c];
                s->A[(size_t)i * n + j] += v;
            }
        }
    }
    free(cnt);
    free(start);
    free(list);
    free(slot);
}

/* out (nb*dof) = J^T f: the net constraint wrench on each body. */
static inline void gen_sys_wrench(const gen_sys *s, const double *f, double *out)
{
    memset(out, 0, sizeof(double) * (size_t)s->nb * s->dof);
    for (int i = 0; i < s->n; i++)
        for (int e = 0; e < 2; e++) {
            int k = s->body[2 * i + e];
            if (k < 0) continue;
            const double *j = s->jac + ((size_t)2 * i + e) * s->dof;
            for (int c = 0; c < s->dof; c++) out[(size_t)k * s->dof + c] += j[c] * f[i];
        }
}

/* the largest body acceleration |M^-1 (F_ext + J^T f)| over the bodies' dofs */
static inline double gen_max_body_acc(const gen_sys *s, const double *f)
{
    double *w = malloc(sizeof(double) * (size_t)s->dof * (size_t)s->nb);
    gen_sys_wrench(s, f, w);
    double worst = 0.0;
    for (int k = 0; k < s->dof * s->nb; k++) worst = fmax(worst, fabs(s->minv[k] * (s->fext[k] + w[k])));
    free(w);
    return worst;
}

/* 2D stack of N boxes (width w, height 1; box k has mass masses[k] or 1 when masses is
   NULL), 2 bottom-corner contacts per box; row 2k+c is the contact under box k (k = 0 on
   the ground). Dofs (x, y, theta); normal (0, 1): J row = vy + theta_dot * rx. A is PD. */
static inline void gen_stack2d(gen_sys *s, int N, const double *masses)
{
    const double w = 1.0, h = 1.0, g = 9.81;
    gen_sys_alloc(s, 2 * N, N, 3);
    for (int k = 0; k < N; k++) {
        double m = masses ? masses[k] : 1.0, I = m * (w * w + h * h) / 12.0;
        s->minv[3 * k] = s->minv[3 * k + 1] = 1.0 / m;
        s->minv[3 * k + 2] = 1.0 / I;
        s->fext[3 * k + 1] = -m * g;
        for (int c = 0; c < 2; c++) {
            double rx = (c ? 0.5 : -0.5) * w;
            int i = 2 * k + c;
            s->body[2 * i] = k;
            s->jac[(2 * i) * 3 + 1] = 1.0;
            s->jac[(2 * i) * 3 + 2] = rx;
            if (k > 0) {
                s->body[2 * i + 1] = k - 1;
                s->jac[(2 * i + 1) * 3 + 1] = -1.0;
                s->jac[(2 * i + 1) * 3 + 2] = -rx;
            }
        }
    }
    gen_sys_form(s);
}

/* 2D stack of N unit boxes (mass 1) with Coulomb friction: 2 bottom-corner contacts per
   box, each with a normal row 4k+2c and a tangent row 4k+2c+1 (fn[tangent] = normal,
   mu[tangent] = mu; fn = -1 and mu = 0 on normal rows). Box k is pushed sideways by
   push[k] (or by 0.2 g (-1)^k when push is NULL: the stack sticks for mu >= 0.5). */
static inline void gen_stack2d_friction(gen_sys *s, int N, double mu_value, const double *push,
                                        int *fn, double *mu)
{
    const double g = 9.81;
    gen_sys_alloc(s, 4 * N, N, 3);
    for (int k = 0; k < N; k++) {
        s->minv[3 * k] = s->minv[3 * k + 1] = 1.0;
        s->minv[3 * k + 2] = 6.0; /* I = (1 + 1) / 12 */
        s->fext[3 * k] = push ? push[k] : 0.2 * g * (k % 2 ? -1.0 : 1.0);
        s->fext[3 * k + 1] = -g;
        for (int c = 0; c < 2; c++) {
            double rx = c ? 0.5 : -0.5, ry = -0.5;
            int in = 4 * k + 2 * c, it = in + 1;
            s->body[2 * in] = s->body[2 * it] = k;
            /* point velocity v + w x r = (vx - w ry, vy + w rx) */
            s->jac[(2 * in) * 3 + 1] = 1.0, s->jac[(2 * in) * 3 + 2] = rx;
            s->jac[(2 * it) * 3 + 0] = 1.0, s->jac[(2 * it) * 3 + 2] = -ry;
            if (k > 0) { /* the box below: the same point is at r = (rx, +0.5) from it */
                s->body[2 * in + 1] = s->body[2 * it + 1] = k - 1;
                s->jac[(2 * in + 1) * 3 + 1] = -1.0, s->jac[(2 * in + 1) * 3 + 2] = -rx;
                s->jac[(2 * it + 1) * 3 + 0] = -1.0, s->jac[(2 * it + 1) * 3 + 2] = 0.5;
            }
            fn[in] = -1, mu[in] = 0.0;
            fn[it] = in, mu[it] = mu_value;
        }
    }
    gen_sys_form(s);
}

/* One 2D contact row pair (normal row i, tangent row i + 1) at world point (px, py) with
   unit normal (nx, ny) from body q (or the ground, -1) to body p, centres (cp) and (cq):
   J row = v_p(point) . dir - v_q(point) . dir, v(point) = (vx - w ry, vy + w rx). */
static inline void gen_contact2d(gen_sys *s, int i, int p, const double *cp, int q,
                                 const double *cq, double px, double py, double nx, double ny)
{
    for (int r = 0; r < 2; r++) {
        double dx = r ? -ny : nx, dy = r ? nx : ny; /* normal, then tangent (-ny, nx) */
        int row = i + r;
        s->body[2 * row] = p;
        s->body[2 * row + 1] = q;
        double *jp = s->jac + (size_t)(2 * row) * 3, *jq = jp + 3;
        jp[0] = dx, jp[1] = dy, jp[2] = (px - cp[0]) * dy - (py - cp[1]) * dx;
        if (q >= 0) jq[0] = -dx, jq[1] = -dy, jq[2] = -((px - cq[0]) * dy - (py - cq[1]) * dx);
    }
}

/* A 2D pyramid of unit boxes (m = 1, I = 1/6) with `base` boxes in the bottom row, each
   row offset by half a box (peers-2d.md scene 1, the 2D engine's pyramid), friction mu on
   every contact, as the 2D engine's detection reports it: each box-on-box interface (the
   overlap [x, x + 1/2]) has its two end points twice (a corner of each box lies on the
   other's edge), so the rows come in coincident pairs and A is singular (rank at most 3 per
   box); each box on the ground has its two corners; side-by-side boxes touch along their
   vertical edges (two points). push: horizontal force on box k (NULL: alternating
   +-0.1 g). Row pairs (normal, tangent), fn/mu filled; returns the rows (s->n). */
static inline int gen_pyramid2d_friction(gen_sys *s, int base, double mu_value, const double *push,
                                         int *fn, double *mu)
{
    const double g = 9.81, h = 0.5;
    int nb = base * (base + 1) / 2;
    int rows = 2 * (2 * base + 4 * 2 * (nb - base) + 2 * (nb - base));
    gen_sys_alloc(s, rows, nb, 3);
    double *c = malloc(sizeof(double) * 2 * (size_t)nb);
    int *id = malloc(sizeof(int) * (size_t)base * base);
    int k = 0;
    for (int i = 0; i < base; i++) {
        for (int j = i; j < base; j++) {
            c[2 * k] = (i + 1) * h + 2 * (j - i) * h - h * base;
            c[2 * k + 1] = (2 * i + 1) * h;
            id[i * base + j] = k;
            s->minv[3 * k] = s->minv[3 * k + 1] = 1.0;
            s->minv[3 * k + 2] = 6.0;
            s->fext[3 * k] = push ? push[k] : 0.1 * g * (k % 2 ? -1.0 : 1.0);
            s->fext[3 * k + 1] = -g;
            k++;
        }
    }
    int r = 0;
    for (int i = 0; i < base; i++) {
        for (int j = i; j < base; j++) {
            int b0 = id[i * base + j];
            const double *cb = c + 2 * b0;
            if (i == 0) {
                for (int e = 0; e < 2; e++, r += 2)
                    gen_contact2d(s, r, b0, cb, -1, NULL, cb[0] + (e ? h : -h), 0.0, 0.0, 1.0);
            } else {
                /* on the boxes (i-1, j-1) (left) and (i-1, j) (right) */
                for (int side = 0; side < 2; side++) {
                    int q = id[(i - 1) * base + j - 1 + side];
                    double x0 = side ? cb[0] : cb[0] - h, y = cb[1] - h;
                    for (int e = 0; e < 4; e++, r += 2)
                        gen_contact2d(s, r, b0, cb, q, c + 2 * q, x0 + (e & 1) * h, y, 0.0, 1.0);
                }
            }
            if (j > i) { /* touching its left neighbour along x = cb[0] - h */
                int q = id[i * base + j - 1];
                for (int e = 0; e < 2; e++, r += 2)
                    gen_contact2d(s, r, b0, cb, q, c + 2 * q, cb[0] - h, cb[1] + (e ? h : -h), 1.0, 0.0);
            }
        }
    }
    for (int i = 0; i < rows; i += 2) {
        fn[i] = -1, mu[i] = 0.0;
        fn[i + 1] = i, mu[i + 1] = mu_value;
    }
    free(c);
    free(id);
    gen_sys_form(s);
    return rows;
}

/* One unit box (m = 1, I = 1/6) on the ground, two corner contacts, pushed sideways by P:
   rows (normal, friction) per corner, mu 0.5 (fn, mu filled). */
static inline void gen_box_on_ground(gen_sys *s, double P, int *fn, double *mu)
{
    gen_sys_alloc(s, 4, 1, 3);
    const double c[2] = {0.0, 0.5};
    s->minv[0] = s->minv[1] = 1.0;
    s->minv[2] = 6.0;
    s->fext[0] = P;
    s->fext[1] = -9.81;
    gen_contact2d(s, 0, 0, c, -1, NULL, -0.5, 0.0, 0.0, 1.0);
    gen_contact2d(s, 2, 0, c, -1, NULL, 0.5, 0.0, 0.0, 1.0);
    for (int i = 0; i < 4; i += 2) {
        fn[i] = -1, mu[i] = 0.0;
        fn[i + 1] = i, mu[i + 1] = 0.5;
    }
    gen_sys_form(s);
}

/* The Coulomb conditions of a frictional solution (a = A f + b recomputed; sf = max|f|,
   sa = max|b| + max|A| sf): unilateral rows f >= -tau sf, a >= -tau sa, |f a| <= tau sf sa;
   static friction rows |f| <= mu f_n + tau sf, with a = 0 (|a| <= tau sa) strictly inside
   and a opposing the force at a bound (f = mu f_n: a <= tau sa; f = -mu f_n: a >= -tau sa).
   1 when all hold. O(n^2). */
static inline int gen_coulomb_ok(int n, const double *A, const double *b, const int *fn,
                                 const double *mu, const double *f, double tau)
{
    double sf = 0, sa = 0, sA = 0;
    for (int i = 0; i < n; i++) {
        sf = fmax(sf, fabs(f[i]));
        sa = fmax(sa, fabs(b[i]));
        for (int j = 0; j < n; j++) sA = fmax(sA, fabs(A[(size_t)i * n + j]));
    }
    sa += sA * sf;
    double tf = tau * sf, ta = tau * sa;
    for (int i = 0; i < n; i++) {
        double a = b[i];
        for (int j = 0; j < n; j++) a += A[(size_t)i * n + j] * f[j];
        if (!isfinite(a) || !isfinite(f[i])) return 0;
        if (fn[i] < 0) {
            if (f[i] < -tf || a < -ta || fabs(f[i] * a) > tf * sa) return 0;
        } else {
            double bound = mu[i] * f[fn[i]];
            if (fabs(f[i]) > bound + tf) return 0;
            int upper = f[i] >= bound - tf, lower = f[i] <= -bound + tf;
            if (!upper && !lower && fabs(a) > ta) return 0;
            if (upper && !lower && a > ta) return 0;
            if (lower && !upper && a < -ta) return 0;
        }
    }
    return 1;
}

/* 3D stack of N unit cubes, 4 bottom-corner contacts per box (row 4k+c). Dofs
   (vx, vy, vz, wx, wy, wz); normal z: J row = vz + wx ry - wy rx. A has rank 3N. */
static inline void gen_stack3d(gen_sys *s, int N, const double *masses)
{
    const double hx = 0.5, hy = 0.5, g = 9.81;
    gen_sys_alloc(s, 4 * N, N, 6);
    for (int k = 0; k < N; k++) {
        double m = masses ? masses[k] : 1.0, I = m * (1.0 + 1.0) / 12.0;
        for (int c = 0; c < 3; c++) s->minv[6 * k + c] = 1.0 / m;
        for (int c = 3; c < 6; c++) s->minv[6 * k + c] = 1.0 / I;
        s->fext[6 * k + 2] = -m * g;
        for (int c = 0; c < 4; c++) {
            double rx = (c & 1) ? hx : -hx, ry = (c & 2) ? hy : -hy;
            int i = 4 * k + c;
            s->body[2 * i] = k;
            double *j0 = s->jac + (size_t)(2 * i) * 6;
            j0[2] = 1.0;
            j0[3] = ry;
            j0[4] = -rx;
            if (k > 0) {
                s->body[2 * i + 1] = k - 1;
                double *j1 = s->jac + (size_t)(2 * i + 1) * 6;
                j1[2] = -1.0;
                j1[3] = -ry;
                j1[4] = rx;
            }
        }
    }
    gen_sys_form(s);
}

/* Random PSD problem: A = J J^T / r with J (n x r, returned when Jout != NULL, row-major)
   Gaussian; planted fstar/astar (may be NULL). */
static inline void gen_randpsd(int n, int r, unsigned long long seed, double *A, double *b,
                               double *fstar, double *astar, double *Jout)
{
    gen_rng rng;
    gen_seed(&rng, seed);
    double *J = Jout ? Jout : malloc(sizeof(double) * (size_t)n * r);
    double *f = malloc(sizeof(double) * (size_t)n), *as = malloc(sizeof(double) * (size_t)n);
    for (size_t k = 0; k < (size_t)n * r; k++) J[k] = gen_normal(&rng);
    for (int i = 0; i < n; i++) {
        const double *ji = J + (size_t)i * r;
        for (int j = 0; j <= i; j++) {
            const double *jj = J + (size_t)j * r;
            double v = 0.0;
            for (int k = 0; k < r; k++) v += ji[k] * jj[k];
            A[(size_t)i * n + j] = A[(size_t)j * n + i] = v / r;
        }
    }
    for (int i = 0; i < n; i++) {
        double u = gen_uniform(&rng);
        if (u < 0.4) {
            f[i] = gen_uniform(&rng) + 0.1;
            as[i] = 0.0;
        } else if (u < 0.8) {
            f[i] = 0.0;
            as[i] = gen_uniform(&rng) + 0.1;
        } else {
            f[i] = 0.0;
            as[i] = 0.0;
        }
    }
    for (int i = 0; i < n; i++) {
        double v = 0.0;
        for (int j = 0; j < n; j++) v += A[(size_t)i * n + j] * f[j];
        b[i] = as[i] - v;
    }
    if (fstar) memcpy(fstar, f, sizeof(double) * (size_t)n);
    if (astar) memcpy(astar, as, sizeof(double) * (size_t)n);
    if (!Jout) free(J);
    free(f);
    free(as);
}

/* ---- independent checks shared by the LCP tests (they never call the solver) ---- */

/* The residuals of a candidate f, a = A f + b: the worst f < 0, a < 0, |f a| and, on
   bilateral rows, |a|. Friction rows (friction_normal[i] >= 0) are skipped. ok when each
   holds at tau relative to the scales sf = max|f| and sa = max|b| + max|A| sf. O(n^2). */
typedef struct gen_verdict {
    int ok;
    double minf, mina, comp, bil, sf, sa;
} gen_verdict;

static inline gen_verdict gen_check(int n, const double *A, const double *b,
                                    const unsigned char *bilateral, const int *friction_normal,
                                    const double *f, double tau)
{
    gen_verdict v = {1, 0, 0, 0, 0, 0, 0};
    double sA = 0, sb = 0;
    for (int i = 0; i < n; i++) {
        sb = fmax(sb, fabs(b[i]));
        v.sf = fmax(v.sf, fabs(f[i]));
        for (int j = 0; j < n; j++) sA = fmax(sA, fabs(A[(size_t)i * n + j]));
    }
    v.sa = sb + sA * v.sf;
    for (int i = 0; i < n; i++) {
        double a = b[i];
        for (int j = 0; j < n; j++) a += A[(size_t)i * n + j] * f[j];
        if (!isfinite(a) || !isfinite(f[i])) v.ok = 0;
        if (bilateral && bilateral[i]) {
            v.bil = fmax(v.bil, fabs(a));
            if (fabs(a) > tau * v.sa + 1e-300) v.ok = 0;
            continue;
        }
        if (friction_normal && friction_normal[i] >= 0) continue;
        v.minf = fmin(v.minf, f[i]);
        v.mina = fmin(v.mina, a);
        v.comp = fmax(v.comp, fabs(f[i] * a));
        if (f[i] < -tau * v.sf || a < -tau * v.sa || fabs(f[i] * a) > tau * v.sf * v.sa + 1e-300)
            v.ok = 0;
    }
    return v;
}

/* The basic solution on the support `mask` (bit i = row i in the support, n <= 16): solves
   A_SS f_S = -b_S by Gaussian elimination with partial pivoting and sets f = 0 off S.
   Returns 0, or -1 when a pivot falls below pivot_tol (a singular block). O(k^3). This is
   the brute-force enumeration's building block: an independent method to check against. */
static inline int gen_support_solve(int n, const double *A, const double *b, int mask,
                                    double pivot_tol, double *f)
{
    int idx[16], k = 0;
    for (int i = 0; i < n; i++)
        if (mask & (1 << i)) idx[k++] = i;
    double M[256], x[16];
    for (int i = 0; i < k; i++) {
        x[i] = -b[idx[i]];
        for (int j = 0; j < k; j++) M[i * k + j] = A[idx[i] * n + idx[j]];
    }
    for (int c = 0; c < k; c++) {
        int pr = c;
        for (int i = c + 1; i < k; i++)
            if (fabs(M[i * k + c]) > fabs(M[pr * k + c])) pr = i;
        if (fabs(M[pr * k + c]) < pivot_tol) return -1;
        for (int j = 0; j < k; j++) {
            double t = M[c * k + j];
            M[c * k + j] = M[pr * k + j];
            M[pr * k + j] = t;
        }
        double t = x[c];
        x[c] = x[pr];
        x[pr] = t;
        for (int i = c + 1; i < k; i++) {
            double l = M[i * k + c] / M[c * k + c];
            for (int j = c; j < k; j++) M[i * k + j] -= l * M[c * k + j];
            x[i] -= l * x[c];
        }
    }
    for (int i = k - 1; i >= 0; i--) {
        double s = x[i];
        for (int j = i + 1; j < k; j++) s -= M[i * k + j] * x[j];
        x[i] = s / M[i * k + i];
    }
    for (int i = 0; i < n; i++) f[i] = 0.0;
    for (int i = 0; i < k; i++) f[idx[i]] = x[i];
    return 0;
}

static inline double *gen_vec(int n) { return calloc((size_t)(n > 0 ? n : 1), sizeof(double)); }

#endif
