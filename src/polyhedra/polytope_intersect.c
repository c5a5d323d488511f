/* polytope_intersect.c: the intersection of two convex polyhedra through the hull of the duals
   of their face planes (see polytope_intersect.h for the method and its tolerances). */
#include "polytope_intersect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gjk.h"
#include "hull3d.h"
#include "polyhedron.h"
#include "predicates.h"
#include "support3d.h"

void imp_poly_work_free(imp_poly_work *w)
{
    free(w->d);
    free(w->i);
    imp_hull3d_work_free(&w->hull);
    memset(w, 0, sizeof *w);
}

static int reserve(imp_poly_work *w, size_t nd, size_t ni)
{
    if (nd > w->dcap) {
        double *d = realloc(w->d, nd * sizeof(double));
        if (d == NULL) {
            return 0;
        }
        w->d = d;
        w->dcap = nd;
    }
    if (ni > w->icap) {
        int *i = realloc(w->i, ni * sizeof(int));
        if (i == NULL) {
            return 0;
        }
        w->i = i;
        w->icap = ni;
    }
    return 1;
}

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* the planes of both bodies, in one array (4 doubles each): A's na first, then B's nb */
typedef struct planes {
    const double *pa;
    int na, nb;
} planes;

static const double *plane_k(const planes *p, int k) { return p->pa + 4 * k; }

/* the values s_k = d_k + e - n_k.x of the planes at x; their minimum */
static double slacks(const planes *p, double e, const double *x, double *s)
{
    double lo = INFINITY;
    const double *pl = p->pa;
    for (int k = 0; k < p->na + p->nb; k++, pl += 4) {
        s[k] = pl[3] + e - (pl[0] * x[0] + pl[1] * x[1] + pl[2] * x[2]);
        lo = s[k] < lo ? s[k] : lo;
    }
    return lo;
}

/* min over the faces of the distance of x inside them (< 0 outside) */
static double minh_planes(const planes *p, const double *x)
{
    double f = INFINITY;
    for (int k = 0; k < p->na + p->nb; k++) {
        const double *pl = plane_k(p, k);
        double v = pl[3] - dot3(pl, x);
        f = v < f ? v : f;
    }
    return f;
}

/* Moves x (within eps of both solids) to the analytic centre of the planes swollen by eps:
   the minimiser of -sum log(d_k + eps - n_k.x), by damped Newton steps (step 1 / (1 + lambda),
   lambda the Newton decrement, and at most 0.9 of the way to the nearest plane; Nesterov and
   Nemirovski's self-concordance analysis makes this converge from any strictly feasible
   start). Unlike a max-min (Chebyshev) centre it is unique and centred along every direction,
   also when the overlap is a thin slab whose thickness caps the distance to all planes: a
   touching contact's point then lies inside the patch, not on its rim. When x is not strictly
   inside the swollen planes (GJK rounding) the centring swells them a little more. O(m) per
   step, at most 40 steps. */
static void analytic_centre(const planes *p, double eps, double *x, double *s)
{
    int m = p->na + p->nb;
    double e = eps, lo = slacks(p, e, x, s);
    if (!(lo >= 0.5 * eps)) {
        e += 0.5 * eps - lo;
    }
    for (int it = 0; it < 40; it++) {
        lo = slacks(p, e, x, s);
        if (!(lo > 0.0)) {
            return;
        }
        double g0 = 0, g1 = 0, g2 = 0, h00 = 0, h01 = 0, h02 = 0, h11 = 0, h12 = 0, h22 = 0;
        const double *n = p->pa;
        for (int k = 0; k < m; k++, n += 4) { /* the Hessian is symmetric: 6 entries */
            double w = 1.0 / s[k], ww = w * w;
            double a0 = ww * n[0], a1 = ww * n[1], a2 = ww * n[2];
            g0 += w * n[0], g1 += w * n[1], g2 += w * n[2];
            h00 += a0 * n[0], h01 += a0 * n[1], h02 += a0 * n[2];
            h11 += a1 * n[1], h12 += a1 * n[2], h22 += a2 * n[2];
        }
        double g[3] = {g0, g1, g2};
        imp_mat3 h = {{{h00, h01, h02}, {h01, h11, h12}, {h02, h12, h22}}};
        imp_mat3 hi;
        if (!imp_m3_inverse(&h, &hi)) {
            return;
        }
        double d[3];
        for (int i = 0; i < 3; i++) {
            d[i] = -(hi.m[i][0] * g[0] + hi.m[i][1] * g[1] + hi.m[i][2] * g[2]);
        }
        double lam2 = -dot3(g, d);
        if (!(lam2 > 1e-10)) {
            return;
        }
        double step = 1.0 / (1.0 + sqrt(lam2)), amax = INFINITY;
        for (int k = 0; k < m; k++) {
            double nd = dot3(plane_k(p, k), d);
            if (nd > 0.0 && s[k] < amax * nd) {
                amax = s[k] / nd;
            }
        }
        step = fmin(step, 0.9 * amax);
        for (int i = 0; i < 3; i++) {
            x[i] += step * d[i];
        }
    }
}

/* The affine rounding of the dual (Dikin's ellipsoid): L, the lower Cholesky factor of
   H = sum n_k n_k^T / s_k^2 at x (s_k the slacks of the planes swollen by eps, at least eps).
   In the coordinates x' = L^T (x - centre) the ellipsoid (x - c)^T H (x - c) <= 1, which lies
   inside the swollen intersection, is the unit ball: the planes' distances are all >= about 1
   and the dual points y' = L^-1 n / h are of one scale, also for a slab 2 eps thick (without it
   the duals of a touching pair are 1 / eps long and the hull's relative tolerance swallows the
   side faces). The polytope's combinatorics are unchanged by an affine map. Identity when H is
   not positive definite. */
static void rounding(const planes *p, double eps, const double *x, double *s, double l[3][3])
{
    double h[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    slacks(p, eps, x, s);
    for (int k = 0; k < p->na + p->nb; k++) {
        const double *n = plane_k(p, k);
        double w = 1.0 / (s[k] > eps ? s[k] : eps), ww = w * w;
        for (int i = 0; i < 3; i++) { /* symmetric: the lower triangle, mirrored below */
            double a = ww * n[i];
            for (int j = 0; j <= i; j++) {
                h[i][j] += a * n[j];
            }
        }
    }
    h[0][1] = h[1][0], h[0][2] = h[2][0], h[1][2] = h[2][1];
    memset(l, 0, 9 * sizeof(double));
    for (int j = 0; j < 3; j++) {
        double d = h[j][j];
        for (int k = 0; k < j; k++) {
            d -= l[j][k] * l[j][k];
        }
        if (!(d > 1e-300) || !isfinite(d)) {
            memset(l, 0, 9 * sizeof(double));
            l[0][0] = l[1][1] = l[2][2] = 1.0;
            return;
        }
        l[j][j] = sqrt(d);
        for (int i = j + 1; i < 3; i++) {
            double v = h[i][j];
            for (int k = 0; k < j; k++) {
                v -= l[i][k] * l[j][k];
            }
            l[i][j] = v / l[j][j];
        }
    }
}

/* z = L^-1 b (forward substitution) */
static void lower_solve(double l[3][3], const double *b, double *z)
{
    z[0] = b[0] / l[0][0];
    z[1] = (b[1] - l[1][0] * z[0]) / l[1][1];
    z[2] = (b[2] - l[2][0] * z[0] - l[2][1] * z[1]) / l[2][2];
}

/* w = L^-T b (back substitution) */
static void upper_solve(double l[3][3], const double *b, double *w)
{
    w[2] = b[2] / l[2][2];
    w[1] = (b[1] - l[2][1] * w[2]) / l[1][1];
    w[0] = (b[0] - l[1][0] * w[1] - l[2][0] * w[2]) / l[0][0];
}

static int uf_find(int *p, int i)
{
    while (p[i] != i) {
        p[i] = p[p[i]];
        i = p[i];
    }
    return i;
}

/* The vertex of the intersection dual to each facet of the hull (a set of exactly coplanar
   triangles, grouped by uf: the root is the smallest triangle), relative to the interior point,
   copied to every triangle of the facet (xt, 3 per triangle). The facet's plane is taken
   through three of its dual points chosen by a rule on the point set alone (not on how the
   hull triangulated it): p0 the one of the smallest plane index, p1 the farthest from p0, p2
   the farthest from the line p0 p1 (ties to the smaller plane index; a lone triangle: p0 and
   the other two in its cyclic order); with m = (p1 - p0) x (p2 - p0), the vertex is
   m / (m . p0) (the same for either sign of m), mapped back from the rounded coordinates. fac: scratch of 2 nt + 1 + 2 nh ints. O(nt). 0 when a facet is flat
   or its plane passes through the origin (cannot happen with the origin strictly inside). */
static int facet_vertices(const imp_hull3d *hl, const int *hmap, int *uf, double l[3][3], int *fac, double *xt)
{
    int nt = hl->ntri, nh = hl->nvert;
    int *first = fac, *list = fac + nt + 1, *stamp = fac + 2 * nt + 1, *pts = stamp + nh;
    for (int t = 0; t <= nt; t++) {
        first[t] = 0;
    }
    for (int t = 0; t < nt; t++) {
        first[uf_find(uf, t) + 1]++;
    }
    for (int t = 0; t < nt; t++) {
        first[t + 1] += first[t];
    }
    for (int t = 0; t < nt; t++) { /* stable: a facet's triangles in increasing order */
        int r = uf_find(uf, t);
        list[first[r]++] = t;
    }
    for (int t = nt; t > 0; t--) {
        first[t] = first[t - 1];
    }
    first[0] = 0;
    for (int v = 0; v < nh; v++) {
        stamp[v] = -1;
    }
    for (int r = 0; r < nt; r++) {
        if (uf[r] != r) {
            continue;
        }
        if (first[r + 1] - first[r] == 1) { /* a lone triangle (the common case): its points
                                                from the one of the smallest plane index on */
            const int *tr = hl->tri + 3 * r;
            int k0 = hmap[tr[0]] < hmap[tr[1]] ? (hmap[tr[0]] < hmap[tr[2]] ? 0 : 2) : (hmap[tr[1]] < hmap[tr[2]] ? 1 : 2);
            const double *p0 = hl->vert + 3 * tr[k0], *p1 = hl->vert + 3 * tr[(k0 + 1) % 3],
                         *p2 = hl->vert + 3 * tr[(k0 + 2) % 3];
            const double u[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
            const double v[3] = {p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]};
            const double mm[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
            double c = dot3(mm, p0);
            if (!(c != 0.0)) {
                return 0;
            }
            double xr[3] = {mm[0] / c, mm[1] / c, mm[2] / c};
            upper_solve(l, xr, xt + 3 * r);
            continue;
        }
        int n = 0;
        for (int j = first[r]; j < first[r + 1]; j++) {
            for (int k = 0; k < 3; k++) {
                int v = hl->tri[3 * list[j] + k];
                if (stamp[v] != r) {
                    stamp[v] = r;
                    pts[n++] = v;
                }
            }
        }
        int i0 = pts[0];
        for (int i = 1; i < n; i++) {
            if (hmap[pts[i]] < hmap[i0]) {
                i0 = pts[i];
            }
        }
        const double *p0 = hl->vert + 3 * i0;
        int i1 = -1;
        double best = -1.0;
        for (int i = 0; i < n; i++) {
            const double *p = hl->vert + 3 * pts[i];
            double d[3] = {p[0] - p0[0], p[1] - p0[1], p[2] - p0[2]}, q = dot3(d, d);
            if (q > best || (q == best && hmap[pts[i]] < hmap[i1])) {
                best = q;
                i1 = pts[i];
            }
        }
        const double *p1 = hl->vert + 3 * i1;
        const double u[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
        double mbest[3] = {0, 0, 0};
        int i2 = -1;
        best = -1.0;
        for (int i = 0; i < n; i++) {
            const double *p = hl->vert + 3 * pts[i];
            const double v[3] = {p[0] - p0[0], p[1] - p0[1], p[2] - p0[2]};
            const double c[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
            double q = dot3(c, c);
            if (q > best || (q == best && hmap[pts[i]] < hmap[i2])) {
                best = q;
                i2 = pts[i];
                memcpy(mbest, c, sizeof c);
            }
        }
        double c = dot3(mbest, p0);
        if (!(best > 0.0) || c == 0.0) {
            return 0;
        }
        double xr[3] = {mbest[0] / c, mbest[1] / c, mbest[2] / c};
        upper_solve(l, xr, xt + 3 * r);
        for (int j = first[r]; j < first[r + 1]; j++) {
            memcpy(xt + 3 * list[j], xt + 3 * r, 3 * sizeof(double));
        }
    }
    return 1;
}

/* Same-orientation coplanar faces: face k of B repeats face i of A when their unit normals
   agree within 1e-9 per component and their offsets within 1e-9 of the scale (a tolerance:
   the posed planes are rounded, so such ties are never exact). Such a face of B is left out of
   the dual (dup_of[nfa + k] = i, else -1), so the intersection's face there is A's, marked
   shared (shared_a[i] = k, the first such k; else -1); i is the smallest matching face of A,
   so the answer does not depend on the order of B's faces. O(nfa nfb) comparisons, almost all
   rejected at the first (a predictable branch: faster here than sorting, measured). */
static void coplanar_faces(const double *pa, int nfa, const double *pb, int nfb, double scale, int *dup_of,
                           int *shared_a)
{
    for (int i = 0; i < nfa; i++) {
        shared_a[i] = -1;
        dup_of[i] = -1;
    }
    for (int k = 0; k < nfb; k++) {
        const double *p = pb + 4 * k;
        int dup = -1;
        for (int i = 0; i < nfa && dup < 0; i++) {
            const double *q = pa + 4 * i;
            if (fabs(p[0] - q[0]) <= 1e-9 && fabs(p[1] - q[1]) <= 1e-9 && fabs(p[2] - q[2]) <= 1e-9 &&
                fabs(p[3] - q[3]) <= 1e-9 * scale) {
                dup = i;
            }
        }
        dup_of[nfa + k] = dup;
        if (dup >= 0 && shared_a[dup] < 0) {
            shared_a[dup] = k;
        }
    }
}

static int finish_status(imp_poly_intersection *out, int st)
{
    out->status = st;
    return st;
}

int imp_polytope_intersect(const imp_shape *a, const double *pose_a, const imp_shape *b, const double *pose_b,
                           double eps, imp_poly_work *w, imp_poly_intersection *out)
{
    memset(out, 0, sizeof *out);
    int nva, nfa, nvb, nfb;
    if (!imp_polytope_sizes(a, &nva, &nfa) || !imp_polytope_sizes(b, &nvb, &nfb)) {
        return finish_status(out, IMP_PI_BADINPUT);
    }
    for (int k = 0; k < 7; k++) {
        if (!isfinite(pose_a[k]) || !isfinite(pose_b[k])) {
            return finish_status(out, IMP_PI_BADINPUT);
        }
    }
    double scale = a->radius + b->radius;
    if (!(eps > 0.0)) {
        eps = 1e-6 * scale;
    }
    out->eps = eps;
    out->scale = scale;
    int m = nfa + nfb, tmax = 2 * m;
    size_t nd = (size_t)3 * (nva + nvb) + (size_t)4 * m + (size_t)3 * m + (size_t)3 * m + (size_t)3 * tmax +
                (size_t)3 * tmax + (size_t)m;
    /* surfaces, keep, hmap, inc, uf + vid, start, chain, body + face, vidx, tri, tri_poly, first,
       facet scratch (fac: 2 tmax + 1 + 2 m), shared, shared_a, dup_of */
    size_t ni = (size_t)m + (size_t)m + (size_t)(m + 1) + (size_t)9 * tmax + (size_t)2 * tmax + (size_t)(m + 1) +
                (size_t)3 * tmax + (size_t)2 * m + (size_t)3 * tmax + (size_t)9 * tmax + (size_t)3 * tmax +
                (size_t)(m + 1) + (size_t)(2 * tmax + 1 + 2 * m) + (size_t)3 * m;
    if (!reserve(w, nd, ni)) {
        return finish_status(out, IMP_PI_ENOMEM);
    }
    double *dp = w->d;
    int *ip = w->i;
    out->a.nv = nva, out->a.nf = nfa, out->b.nv = nvb, out->b.nf = nfb;
    out->a.vert = dp, dp += 3 * nva;
    out->b.vert = dp, dp += 3 * nvb;
    out->a.plane = dp, dp += 4 * nfa;
    out->b.plane = dp, dp += 4 * nfb;
    double *h = dp;
    dp += m;
    double *ab = dp; /* centring scratch */
    dp += 2 * m;
    double *y = dp;
    dp += 3 * m;
    double *xt = dp; /* dual vertex of each hull triangle (relative to the interior point) */
    dp += 3 * tmax;
    out->vert = dp, dp += 3 * tmax;
    out->poly_area = dp, dp += m;
    out->a.surface = ip, ip += nfa;
    out->b.surface = ip, ip += nfb;
    int *keep = ip; /* plane index of each dual point given to the hull */
    ip += m;
    int *hmap = ip; /* hull vertex -> plane index */
    ip += m + 1;
    int *inc = ip; /* per hull vertex: its (triangle, next, prev) entries */
    ip += 9 * tmax;
    int *uf = ip, *vid = ip + tmax;
    ip += 2 * tmax;
    int *start = ip; /* CSR offsets of inc */
    ip += m + 1;
    int *chain = ip; /* triangle cycle of one hull vertex */
    ip += 3 * tmax;
    out->poly_body = ip, ip += m;
    out->poly_face = ip, ip += m;
    out->poly_vidx = ip, ip += 3 * tmax;
    out->tri = ip, ip += 9 * tmax; /* at most 3 T fan triangles */
    out->tri_poly = ip, ip += 3 * tmax;
    out->poly_first = ip, ip += m + 1;
    out->poly_shared = ip, ip += m;
    int *shared_a = ip; /* per face of A: the face of B in the same plane, or -1 */
    ip += m;
    int *dup_of = ip; /* per plane: the face of A it repeats (B's only), or -1 */
    ip += m;
    int *fac = ip; /* facet scratch (facet_vertices) */

    imp_polytope_pose(a, pose_a, out->a.vert, out->a.plane, out->a.surface);
    imp_polytope_pose(b, pose_b, out->b.vert, out->b.plane, out->b.surface);
    memcpy(out->a.centroid, pose_a, 3 * sizeof(double));
    memcpy(out->b.centroid, pose_b, 3 * sizeof(double));

    /* 1. GJK */
    imp_support3d sa, sb;
    imp_support3d_init(&sa, a, pose_a);
    imp_support3d_init(&sb, b, pose_b);
    imp_mink3d mk = {&sa, &sb, 1};
    imp_gjk_result g;
    imp_gjk(&mk, 1e-11 * scale, 1e-12 * scale, 128, &g);
    imp_v3_store(out->point_a, g.pa);
    imp_v3_store(out->point_b, g.pb);
    out->distance = g.status == IMP_GJK_OVERLAP ? 0.0 : g.distance;
    if (out->distance > eps) {
        return finish_status(out, IMP_PI_SEPARATED);
    }
    double x[3];
    imp_v3_store(x, imp_v3_scale(imp_v3_add(g.pa, g.pb), 0.5));

    /* 2. push inward */
    planes pl = {out->a.plane, nfa, nfb}; /* out->b.plane follows out->a.plane */
    analytic_centre(&pl, eps, x, ab);
    memcpy(out->interior, x, sizeof x);

    coplanar_faces(out->a.plane, nfa, out->b.plane, nfb, scale, dup_of, shared_a);

    imp_hull3d hull;
    int st = IMP_PI_OK;
    double tolv = 1e-9 * scale;
    for (int pass = 0;; pass++) {
        int swollen = 0;
        st = IMP_PI_OK;
        double lr[3][3];
        rounding(&pl, eps, x, ab, lr);
        /* 3. dual points; B's copies of A's planes dropped (the face is A's, marked shared) */
        int ny = 0;
        for (int k = 0; k < m; k++) {
            const double *p = plane_k(&pl, k);
            if (dup_of[k] >= 0) {
                continue;
            }
            double hk = p[3] - dot3(p, x);
            if (hk < eps) {
                hk = eps;
                swollen = 1;
            }
            h[k] = hk;
            lower_solve(lr, p, y + 3 * ny);
            for (int c = 0; c < 3; c++) {
                y[3 * ny + c] /= hk;
            }
            keep[ny++] = k;
        }

        /* 4. hull of the duals (exact) and its polar */
        int hs = imp_hull3d_compute(y, ny, 0.0, &w->hull, &hull);
        if (hs != IMP_HULL_OK) {
            st = hs == IMP_HULL_ENOMEM ? IMP_PI_ENOMEM : IMP_PI_DEGENERATE;
            goto done;
        }
        int nh = hull.nvert, nt = hull.ntri;
        if (nh > m || nt > tmax) {
            st = IMP_PI_DEGENERATE;
            goto done;
        }
        for (int v = 0; v < nh; v++) {
            hmap[v] = keep[hull.src[v]];
        }
        static const double origin[3] = {0.0, 0.0, 0.0};
        for (int t = 0; t < nt; t++) {
            const int *tr = hull.tri + 3 * t;
            /* the origin strictly inside the dual hull (exact; the hull's rounded plane decides
               when its error bound allows): a bounded intersection */
            const double *hp = hull.plane + 5 * t;
            if (!(-hp[3] < -hp[4]) &&
                !(imp_orient3d(hull.vert + 3 * tr[0], hull.vert + 3 * tr[1], hull.vert + 3 * tr[2], origin) < 0.0)) {
                st = IMP_PI_DEGENERATE;
                goto done;
            }
            uf[t] = t;
        }
        /* facets: neighbouring triangles exactly coplanar (orient3d = 0) are one facet, hence
           one vertex of the intersection (more than three planes through it) */
        for (int t = 0; t < nt; t++) {
            const int *tr = hull.tri + 3 * t;
            for (int k = 0; k < 3; k++) {
                int t2 = hull.nb[3 * t + k];
                if (t2 <= t) {
                    continue;
                }
                const int *u2 = hull.tri + 3 * t2;
                int opp = u2[0];
                for (int j = 0; j < 3; j++) {
                    if (u2[j] != tr[k] && u2[j] != tr[(k + 1) % 3]) {
                        opp = u2[j];
                    }
                }
                const double *hp = hull.plane + 5 * t, *q = hull.vert + 3 * opp;
                double e = hp[0] * q[0] + hp[1] * q[1] + hp[2] * q[2] - hp[3];
                if (!(e > hp[4] || e < -hp[4]) &&
                    imp_orient3d(hull.vert + 3 * tr[0], hull.vert + 3 * tr[1], hull.vert + 3 * tr[2], q) == 0.0) {
                    int r1 = uf_find(uf, t), r2 = uf_find(uf, t2);
                    if (r1 != r2) {
                        uf[r1 > r2 ? r1 : r2] = r1 < r2 ? r1 : r2;
                    }
                }
            }
        }
        if (!facet_vertices(&hull, hmap, uf, lr, fac, xt)) {
            st = IMP_PI_DEGENERATE;
            goto done;
        }
        /* incidence lists: for triangle (k, a, b) at hull vertex k, the entry (t, a, b) */
        for (int v = 0; v <= nh; v++) {
            start[v] = 0;
        }
        for (int t = 0; t < 3 * nt; t++) {
            start[hull.tri[t] + 1]++;
        }
        for (int v = 0; v < nh; v++) {
            start[v + 1] += start[v];
        }
        {
            int *fill = chain; /* temporary cursor per vertex */
            for (int v = 0; v < nh; v++) {
                fill[v] = start[v];
            }
            for (int t = 0; t < nt; t++) {
                for (int k = 0; k < 3; k++) {
                    int v = hull.tri[3 * t + k], e = fill[v]++;
                    inc[3 * e] = t;
                    inc[3 * e + 1] = hull.tri[3 * t + (k + 1) % 3];
                    inc[3 * e + 2] = hull.tri[3 * t + (k + 2) % 3];
                }
            }
        }
        /* order each vertex's triangles into a cycle (in place); then merge dual vertices closer
           than tolv (a cosmetic step: it removes edges shorter than 1e-9 of the scale) */
        for (int v = 0; v < nh; v++) {
            int s0 = start[v], deg = start[v + 1] - s0;
            for (int i = 0; i + 1 < deg; i++) {
                int want = inc[3 * (s0 + i) + 2], found = -1;
                for (int j = i + 1; j < deg && found < 0; j++) {
                    if (inc[3 * (s0 + j) + 1] == want) {
                        found = j;
                    }
                }
                if (found < 0) {
                    st = IMP_PI_DEGENERATE; /* an open fan: not a closed hull */
                    goto done;
                }
                for (int c = 0; c < 3; c++) {
                    int tmp = inc[3 * (s0 + i + 1) + c];
                    inc[3 * (s0 + i + 1) + c] = inc[3 * (s0 + found) + c];
                    inc[3 * (s0 + found) + c] = tmp;
                }
            }
            for (int i = 0; i < deg; i++) {
                int t1 = inc[3 * (s0 + i)], t2 = inc[3 * (s0 + (i + 1) % deg)];
                double dx = xt[3 * t1] - xt[3 * t2], dy = xt[3 * t1 + 1] - xt[3 * t2 + 1],
                       dz = xt[3 * t1 + 2] - xt[3 * t2 + 2];
                if (dx * dx + dy * dy + dz * dz <= tolv * tolv) {
                    int r1 = uf_find(uf, t1), r2 = uf_find(uf, t2);
                    if (r1 != r2) {
                        uf[r1 > r2 ? r1 : r2] = r1 < r2 ? r1 : r2;
                    }
                }
            }
        }
        /* vertices: one per merged group, numbered by its smallest triangle */
        int nv = 0;
        for (int t = 0; t < nt; t++) {
            int r = uf_find(uf, t);
            if (r == t) {
                vid[t] = nv;
                for (int k = 0; k < 3; k++) {
                    out->vert[3 * nv + k] = xt[3 * t + k] + x[k];
                }
                nv++;
            } else {
                vid[t] = vid[r];
            }
        }
        out->nvert = nv;
        /* faces: one per hull vertex, in hull-vertex order */
        int np = 0, nidx = 0, ntri = 0;
        double vol = 0.0, cen[3] = {0, 0, 0};
        out->poly_first[0] = 0;
        for (int v = 0; v < nh; v++) {
            int s0 = start[v], deg = start[v + 1] - s0, n = 0;
            int *dst = out->poly_vidx + nidx;
            for (int i = 0; i < deg; i++) {
                int id = vid[inc[3 * (s0 + i)]];
                if (n == 0 || dst[n - 1] != id) {
                    dst[n++] = id;
                }
            }
            while (n > 1 && dst[n - 1] == dst[0]) {
                n--;
            }
            if (n < 3) {
                continue;
            }
            int k = hmap[v];
            const double *pk = plane_k(&pl, k);
            /* orient counter-clockwise about the face's outward normal */
            double nw[3] = {0, 0, 0};
            for (int i = 0; i < n; i++) {
                const double *p = out->vert + 3 * dst[i], *q = out->vert + 3 * dst[(i + 1) % n];
                nw[0] += (p[1] - q[1]) * (p[2] + q[2]);
                nw[1] += (p[2] - q[2]) * (p[0] + q[0]);
                nw[2] += (p[0] - q[0]) * (p[1] + q[1]);
            }
            if (dot3(nw, pk) < 0.0) {
                for (int i = 0, j = n - 1; i < j; i++, j--) {
                    int tmp = dst[i];
                    dst[i] = dst[j];
                    dst[j] = tmp;
                }
            }
            out->poly_body[np] = k < nfa ? 0 : 1;
            out->poly_face[np] = k < nfa ? k : k - nfa;
            out->poly_shared[np] = k < nfa ? shared_a[k] : -1;
            out->poly_area[np] = 0.5 * fabs(dot3(nw, pk));
            for (int i = 1; i + 1 < n; i++) {
                int *tr = out->tri + 3 * ntri;
                tr[0] = dst[0], tr[1] = dst[i], tr[2] = dst[i + 1];
                out->tri_poly[ntri++] = np;
                /* signed tetrahedron from the interior point */
                double p0[3], p1[3], p2[3];
                for (int c = 0; c < 3; c++) {
                    p0[c] = out->vert[3 * tr[0] + c] - x[c];
                    p1[c] = out->vert[3 * tr[1] + c] - x[c];
                    p2[c] = out->vert[3 * tr[2] + c] - x[c];
                }
                double cr[3] = {p1[1] * p2[2] - p1[2] * p2[1], p1[2] * p2[0] - p1[0] * p2[2],
                                p1[0] * p2[1] - p1[1] * p2[0]};
                double tv = dot3(p0, cr) / 6.0;
                vol += tv;
                for (int c = 0; c < 3; c++) {
                    cen[c] += tv * (p0[c] + p1[c] + p2[c]) / 4.0;
                }
            }
            nidx += n;
            out->poly_first[++np] = nidx;
        }
        out->npoly = np;
        out->ntri = ntri;
        out->volume = vol;
        for (int c = 0; c < 3; c++) {
            out->centroid[c] = vol > 0.0 ? x[c] + cen[c] / vol : x[c];
        }
        /* 5. sanity: enough triangles, finite, inside the box of both bodies (inflated by 2 eps) */
        if (ntri < 4 || !(vol > 0.0) || !isfinite(vol)) {
            st = IMP_PI_DEGENERATE;
            goto done;
        }
        double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (int body = 0; body < 2; body++) { /* Solfec's box: around both bodies */
            const imp_poly_view *pv = body == 0 ? &out->a : &out->b;
            for (int i = 0; i < pv->nv; i++) {
                for (int c = 0; c < 3; c++) {
                    lo[c] = fmin(lo[c], pv->vert[3 * i + c]);
                    hi[c] = fmax(hi[c], pv->vert[3 * i + c]);
                }
            }
        }
        double slack = 2.0 * eps + 1e-9 * scale;
        for (int i = 0; i < nv; i++) {
            for (int c = 0; c < 3; c++) {
                double q = out->vert[3 * i + c];
                if (!(q >= lo[c] - slack && q <= hi[c] + slack)) {
                    st = IMP_PI_DEGENERATE;
                    goto done;
                }
            }
        }
        /* Planes swollen at x (x within eps of a face: GJK points lie on the boundary and the
           push can stall at a vertex) inflate the result by up to eps; when the centroid of
           this first answer is deeper, the intersection is recomputed from it. */
        if (pass == 0 && swollen && minh_planes(&pl, out->centroid) > eps) {
            memcpy(x, out->centroid, sizeof x);
            memcpy(out->interior, x, sizeof x);
            continue;
        }
        break;
    }
done:
    if (st != IMP_PI_OK) {
        out->nvert = out->npoly = out->ntri = 0;
        out->volume = 0.0;
    }
    return finish_status(out, st);
}
