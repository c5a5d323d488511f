/* hull3d.c: quickhull in 3D (Barber, Dobkin, Huhdanpaa, "The Quickhull algorithm for convex
   hulls", ACM TOMS 22(4), 1996), with the visibility of a point from a face decided by the exact
   orientation predicate (predicates.c, after Shewchuk 1997).

   Start from a tetrahedron of extreme points; each face keeps the points outside it (in a
   linked list); repeatedly take a face with outside points, its farthest point (the eye), the
   faces the eye sees (flood fill over neighbours: orient3d strictly positive), and replace them
   by a fan of new faces from the eye to the horizon, handing the orphaned outside points to the
   new faces. Because visibility is exact, the visible faces around any vertex are a contiguous
   run (a hemisphere cuts the convex cycle of the normals there in one arc), so the horizon is a
   simple cycle and no new face is degenerate (the eye is strictly above the visible face on
   each horizon edge, hence off the edge's line): the surface stays closed and convex whatever
   the ties. The farthest-point choice uses floating-point distances (it only orders the work).
   With a tolerance (shape construction), a point also needs to be more than the tolerance
   outside a face to be kept; imp_hull3d_build then removes vertices left on flat faces or edges
   (they can enter when an intermediate hull had them as extreme points) by a rebuild from the
   corners. */
#include "hull3d.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predicates.h"
#include "resize.h"

typedef struct face {
    int v[3];
    int nb[3]; /* nb[i]: the face across edge (v[i], v[i+1]) */
    double n[3], d;
    double tol; /* |dist - true signed distance| <= tol (see sees()); INFINITY: always exact */
    int alive, visible;
    int head; /* first outside point, -1 when none */
    int out;  /* index in the output */
} face;

typedef struct qh {
    const double *p;
    int np;
    double eps; /* > 0: the tolerance; 0: exact */
    double r;   /* a bound on the points' Euclidean norms */
    imp_hull3d_work *w;
    face *f;
    int nf, cap;
    int *next;     /* next outside point in a face's list */
    int *stack;    /* flood fill */
    int *hor;      /* horizon: (a, b, outer face) triples */
    int *start_of; /* per point: new face whose horizon edge starts there, -1 */
    int *orphans;
    int *vis;
    int mcap; /* entries of stack and vis, triples of hor */
} qh;

void imp_hull3d_work_free(imp_hull3d_work *w)
{
    free(w->faces);
    free(w->ibuf);
    free(w->dbuf);
    memset(w, 0, sizeof *w);
}

static double dist(const qh *q, const face *f, int i)
{
    const double *x = q->p + 3 * i;
    return f->n[0] * x[0] + f->n[1] * x[1] + f->n[2] * x[2] - f->d;
}

/* exact: 1 when point i is strictly above face f's plane (orient3d > 0). The rounded distance
   decides when it is farther than f->tol from 0, a bound on its error (see new_face); the exact
   predicate otherwise. */
static int sees(const qh *q, const face *f, int i)
{
    double e = dist(q, f, i);
    if (e > f->tol) {
        return 1;
    }
    if (e < -f->tol) {
        return 0;
    }
    return imp_orient3d(q->p + 3 * f->v[0], q->p + 3 * f->v[1], q->p + 3 * f->v[2], q->p + 3 * i) > 0.0;
}

static int new_face(qh *q, int a, int b, int c)
{
    if (imp_grow(&q->f, &q->cap, q->nf + 1, sizeof *q->f) != 0) {
        return -1;
    }
    q->w->faces = q->f;  /* the workspace keeps the grown array */
    q->w->face_cap = (size_t)q->cap;
    face *f = &q->f[q->nf];
    const double *pa = q->p + 3 * a, *pb = q->p + 3 * b, *pc = q->p + 3 * c;
    const double u[3] = {pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]};
    const double w[3] = {pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]};
    double n[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
    double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (l > 0.0) {
        n[0] /= l, n[1] /= l, n[2] /= l;
    }
    f->v[0] = a, f->v[1] = b, f->v[2] = c;
    f->nb[0] = f->nb[1] = f->nb[2] = -1;
    f->n[0] = n[0], f->n[1] = n[1], f->n[2] = n[2];
    f->d = n[0] * pa[0] + n[1] * pa[1] + n[2] * pa[2];
    /* The error of dist (unit roundoff E = 2^-53, |points| <= R, cond = |u| |w| / |u x w|):
       the rounded differences and cross product give |N_c - N| <= about 5.1 E |u| |w|, so the
       unit normal is off by at most 10.2 E cond + 3 E (normalisation); over |p - a| <= 2R that
       is 20.4 E cond R + 6 E R; the dot products n.p and n.a and the final difference add at
       most 7.2 E R: in all below 36 E (cond + 1) R. The filter uses 128 E (cond + 1) R (cond
       itself rounded; a sliver with cond > 1e12 is always decided exactly). */
    double uw = sqrt((u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]));
    double cond = l > 0.0 ? uw / l : INFINITY;
    f->tol = cond < 1e12 ? 128.0 * 1.1102230246251565e-16 * (cond + 1.0) * q->r : INFINITY;
    f->alive = 1;
    f->visible = 0;
    f->head = -1;
    f->out = -1;
    return q->nf++;
}

/* gives point i to the face among first .. first + nfs it is farthest outside of, if any (the
   farthest by rounded distance among the faces it is exactly outside of: a face is only
   tested exactly when its distance would beat the best so far) */
static void assign(qh *q, int i, int first, int nfs)
{
    int best = -1;
    double bd = q->eps > 0.0 ? q->eps : -INFINITY;
    const double *x = q->p + 3 * i;
    for (int k = first; k < first + nfs; k++) {
        const face *f = &q->f[k];
        double e = f->n[0] * x[0] + f->n[1] * x[1] + f->n[2] * x[2] - f->d;
        if (!(e > bd)) {
            continue;
        }
        if (e > f->tol ||
            (!(e < -f->tol) && imp_orient3d(q->p + 3 * f->v[0], q->p + 3 * f->v[1], q->p + 3 * f->v[2], x) > 0.0)) {
            bd = e;
            best = k;
        }
    }
    if (best >= 0) {
        q->next[i] = q->f[best].head;
        q->f[best].head = i;
    }
}

static int edge_index(const face *f, int a, int b)
{
    for (int i = 0; i < 3; i++) {
        if (f->v[i] == a && f->v[(i + 1) % 3] == b) {
            return i;
        }
    }
    return -1;
}

/* adds the eye point seen from face f0; 0 on success */
static int add_point(qh *q, int f0, int eye)
{
    int nst = 0, nhor = 0, norph = 0, nvis = 0, pushed = 1;
    q->stack[nst++] = f0;
    q->f[f0].visible = 1;
    while (nst > 0) {
        int fi = q->stack[--nst];
        q->vis[nvis++] = fi;
        for (int e = 0; e < 3; e++) {
            int g = q->f[fi].nb[e];
            if (q->f[g].visible) {
                continue;
            }
            if (sees(q, &q->f[g], eye)) {
                if (pushed++ >= q->mcap) {
                    return IMP_HULL_EFAIL; /* more visible faces than a closed hull has: cannot
                                              happen within the predicates' range */
                }
                q->f[g].visible = 1;
                q->stack[nst++] = g;
            } else {
                if (nhor >= q->mcap) {
                    return IMP_HULL_EFAIL;
                }
                q->hor[3 * nhor] = q->f[fi].v[e];
                q->hor[3 * nhor + 1] = q->f[fi].v[(e + 1) % 3];
                q->hor[3 * nhor + 2] = g;
                nhor++;
            }
        }
    }
    for (int k = 0; k < nvis; k++) {
        face *f = &q->f[q->vis[k]];
        f->alive = 0;
        for (int i = f->head; i >= 0; i = q->next[i]) {
            if (i != eye) {
                q->orphans[norph++] = i;
            }
        }
        f->head = -1;
    }
    int first = q->nf;
    for (int h = 0; h < nhor; h++) {
        int a = q->hor[3 * h], b = q->hor[3 * h + 1], g = q->hor[3 * h + 2];
        if (q->start_of[a] >= 0) {
            return IMP_HULL_EFAIL; /* horizon not a simple cycle (cannot happen: exact visibility) */
        }
        int nfi = new_face(q, a, b, eye);
        if (nfi < 0) {
            return IMP_HULL_ENOMEM;
        }
        q->start_of[a] = nfi;
        q->f[nfi].nb[0] = g;
        int eg = edge_index(&q->f[g], b, a);
        if (eg < 0) {
            return IMP_HULL_EFAIL;
        }
        q->f[g].nb[eg] = nfi;
    }
    for (int k = first; k < q->nf; k++) {
        face *f = &q->f[k];
        int nxt = q->start_of[f->v[1]];
        if (nxt < 0) {
            return IMP_HULL_EFAIL;
        }
        f->nb[1] = nxt;      /* edge (b, eye) */
        q->f[nxt].nb[2] = k; /* its edge (eye, b) */
    }
    for (int h = 0; h < nhor; h++) {
        q->start_of[q->hor[3 * h]] = -1;
    }
    for (int k = 0; k < norph; k++) { /* the new faces are contiguous: first .. nf */
        assign(q, q->orphans[k], first, q->nf - first);
    }
    return IMP_HULL_OK;
}

static double pdist2(const double *a, const double *b)
{
    double x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];
    return x * x + y * y + z * z;
}

/* the initial tetrahedron (i[0..3], i[3] below the face (i0, i1, i2)); 0 or IMP_HULL_EFLAT */
static int simplex(qh *q, double rtol, int *idx)
{
    const double *p = q->p;
    int np = q->np;
    double lo[3], hi[3];
    int ext[6];
    for (int k = 0; k < 3; k++) {
        lo[k] = hi[k] = p[k];
        ext[2 * k] = ext[2 * k + 1] = 0;
    }
    for (int i = 1; i < np; i++) {
        for (int k = 0; k < 3; k++) {
            if (p[3 * i + k] < lo[k]) {
                lo[k] = p[3 * i + k];
                ext[2 * k] = i;
            }
            if (p[3 * i + k] > hi[k]) {
                hi[k] = p[3 * i + k];
                ext[2 * k + 1] = i;
            }
        }
    }
    double size = sqrt(pdist2(lo, hi)), amax = 0.0;
    for (int k = 0; k < 3; k++) {
        amax = fmax(amax, fmax(fabs(lo[k]), fabs(hi[k])));
    }
    q->eps = rtol > 0.0 ? rtol * size + 8.0 * 2.220446049250313e-16 * amax : 0.0;
    q->r = 2.0 * amax; /* >= sqrt(3) amax >= every point's norm */
    if (!(size > 0.0)) {
        return IMP_HULL_EFLAT;
    }
    /* the farthest pair of axis extremes, the point farthest from their line, the point
       farthest from their plane (floating point: only a choice; the exact test follows) */
    int i0 = ext[0], i1 = ext[1];
    double best = -1.0;
    for (int a = 0; a < 6; a++) {
        for (int b = a + 1; b < 6; b++) {
            double d = pdist2(p + 3 * ext[a], p + 3 * ext[b]);
            if (d > best) {
                best = d;
                i0 = ext[a], i1 = ext[b];
            }
        }
    }
    const double u[3] = {p[3 * i1] - p[3 * i0], p[3 * i1 + 1] - p[3 * i0 + 1], p[3 * i1 + 2] - p[3 * i0 + 2]};
    double ul = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    if (!(ul > q->eps)) {
        return IMP_HULL_EFLAT;
    }
    int i2 = -1;
    best = -1.0;
    for (int i = 0; i < np; i++) { /* by |u x w|^2: the distance from the line times |u|, squared */
        const double w[3] = {p[3 * i] - p[3 * i0], p[3 * i + 1] - p[3 * i0 + 1], p[3 * i + 2] - p[3 * i0 + 2]};
        const double c[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
        double d = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
        if (d > best) {
            best = d;
            i2 = i;
        }
    }
    if (i2 < 0 || !(sqrt(best) / ul > q->eps)) {
        return IMP_HULL_EFLAT;
    }
    const double *a = p + 3 * i0, *b = p + 3 * i1, *c = p + 3 * i2;
    const double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    double nl = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    int i3 = -1;
    best = -1.0;
    for (int i = 0; i < np && nl > 0.0; i++) {
        double d = fabs(n[0] * (p[3 * i] - a[0]) + n[1] * (p[3 * i + 1] - a[1]) + n[2] * (p[3 * i + 2] - a[2]));
        if (d > best) {
            best = d;
            i3 = i;
        }
    }
    best /= nl;
    if (i3 < 0 || (q->eps > 0.0 && !(best > q->eps))) {
        return IMP_HULL_EFLAT;
    }
    double o = imp_orient3d(a, b, c, p + 3 * i3);
    if (o == 0.0) {
        for (int i = 0; i < np && o == 0.0; i++) { /* the rounded choice was flat: any other */
            o = imp_orient3d(a, b, c, p + 3 * i);
            i3 = i;
        }
        if (o == 0.0) {
            return IMP_HULL_EFLAT;
        }
    }
    if (o > 0.0) { /* orient so that i3 lies below (i0, i1, i2) */
        int t = i1;
        i1 = i2;
        i2 = t;
    }
    idx[0] = i0, idx[1] = i1, idx[2] = i2, idx[3] = i3;
    return IMP_HULL_OK;
}

static int run(qh *q, double rtol, imp_hull3d *out)
{
    int np = q->np, idx[4];
    int st = simplex(q, rtol, idx);
    if (st != IMP_HULL_OK) {
        return st;
    }
    int i0 = idx[0], i1 = idx[1], i2 = idx[2], i3 = idx[3];
    q->nf = 0;
    new_face(q, i0, i1, i2);
    new_face(q, i0, i3, i1);
    new_face(q, i1, i3, i2);
    if (new_face(q, i2, i3, i0) < 0) {
        return IMP_HULL_ENOMEM;
    }
    for (int a = 0; a < 4; a++) { /* link the tetrahedron */
        for (int e = 0; e < 3; e++) {
            int va = q->f[a].v[e], vb = q->f[a].v[(e + 1) % 3];
            for (int b = 0; b < 4; b++) {
                if (b != a && edge_index(&q->f[b], vb, va) >= 0) {
                    q->f[a].nb[e] = b;
                }
            }
        }
    }
    for (int i = 0; i < np; i++) {
        if (i != i0 && i != i1 && i != i2 && i != i3) {
            assign(q, i, 0, 4);
        }
    }
    /* process faces in creation order: deterministic */
    for (int fi = 0; fi < q->nf; fi++) {
        if (!q->f[fi].alive || q->f[fi].head < 0) {
            continue;
        }
        int eye = q->f[fi].head;
        double bd = dist(q, &q->f[fi], eye);
        for (int i = q->next[eye]; i >= 0; i = q->next[i]) {
            double e = dist(q, &q->f[fi], i);
            if (e > bd || (e == bd && i < eye)) {
                bd = e;
                eye = i;
            }
        }
        st = add_point(q, fi, eye);
        if (st != IMP_HULL_OK) {
            return st;
        }
    }
    /* output: used points in index order, alive faces in creation order */
    int *map = q->start_of; /* all -1 again here */
    int nt = 0, nv = 0;
    for (int fi = 0; fi < q->nf; fi++) {
        if (q->f[fi].alive) {
            if (nt >= q->mcap) {
                return IMP_HULL_EFAIL; /* not a sphere: cannot happen within the range */
            }
            q->f[fi].out = nt++;
            for (int k = 0; k < 3; k++) {
                map[q->f[fi].v[k]] = 1;
            }
        }
    }
    for (int i = 0; i < np; i++) {
        if (map[i] > 0) {
            map[i] = nv;
            out->src[nv] = i;
            memcpy(out->vert + 3 * nv, q->p + 3 * i, 3 * sizeof(double));
            nv++;
        }
    }
    out->nvert = nv;
    out->ntri = nt;
    for (int fi = 0; fi < q->nf; fi++) {
        const face *f = &q->f[fi];
        if (f->alive) {
            for (int k = 0; k < 3; k++) {
                out->tri[3 * f->out + k] = map[f->v[k]];
                out->nb[3 * f->out + k] = q->f[f->nb[k]].out;
            }
            double *pl = out->plane + 5 * f->out;
            pl[0] = f->n[0], pl[1] = f->n[1], pl[2] = f->n[2], pl[3] = f->d, pl[4] = f->tol;
        }
    }
    return IMP_HULL_OK;
}

int imp_hull3d_compute(const double *pts, int n, double rtol, imp_hull3d_work *w, imp_hull3d *out)
{
    memset(out, 0, sizeof *out);
    if (pts == NULL || n < 4 || !(rtol >= 0.0)) {
        return IMP_HULL_EBADARG;
    }
    for (int i = 0; i < 3 * n; i++) {
        if (!isfinite(pts[i])) {
            return IMP_HULL_EBADARG;
        }
    }
    /* int scratch: next, start_of, orphans, src (n each); stack, vis (2n + 8 each: at most the
       live faces); horizon, tri, nb (3 (2n + 8) each); doubles: vert (3n), plane (5 (2n + 8)) */
    size_t m = (size_t)2 * n + 8, ni = (size_t)4 * n + 2 * m + 9 * m, nd = (size_t)3 * n + 5 * m;
    if (ni > w->icap) {
        int *b = realloc(w->ibuf, ni * sizeof(int));
        if (b == NULL) {
            return IMP_HULL_ENOMEM;
        }
        w->ibuf = b;
        w->icap = ni;
    }
    if (nd > w->dcap) {
        double *b = realloc(w->dbuf, nd * sizeof(double));
        if (b == NULL) {
            return IMP_HULL_ENOMEM;
        }
        w->dbuf = b;
        w->dcap = nd;
    }
    /* faces created over the whole run, dead ones included: about 4n in practice (O(n) expected
       for quickhull, O(n^2) at worst); 8n + 16 up front, so that growing inside a run (new_face
       doubles the array) is rare */
    size_t fcap = (size_t)8 * n + 16;
    if (w->face_cap < fcap) {
        face *f = realloc(w->faces, fcap * sizeof(face));
        if (f == NULL) {
            return IMP_HULL_ENOMEM;
        }
        w->faces = f;
        w->face_cap = fcap;
    }
    qh q;
    memset(&q, 0, sizeof q);
    q.p = pts;
    q.np = n;
    q.w = w;
    q.f = w->faces;
    q.cap = (int)w->face_cap;
    q.mcap = (int)m;
    int *ip = w->ibuf;
    q.next = ip, ip += n;
    q.start_of = ip, ip += n;
    q.orphans = ip, ip += n;
    out->src = ip, ip += n;
    q.stack = ip, ip += m;
    q.vis = ip, ip += m;
    q.hor = ip, ip += 3 * m;
    out->tri = ip, ip += 3 * m;
    out->nb = ip;
    out->vert = w->dbuf;
    out->plane = w->dbuf + 3 * n;
    for (int i = 0; i < n; i++) {
        q.next[i] = -1;
        q.start_of[i] = -1;
    }
    int st = run(&q, rtol, out);
    if (st != IMP_HULL_OK) {
        memset(out, 0, sizeof *out);
    }
    return st;
}

/* 1 when vertex v of h has incident triangles on at least 3 distinct planes (a corner; planes
   whose unit normals agree within 1e-9 count as one) */
static int is_corner(const imp_hull3d *h, int v)
{
    double ns[3][3];
    int nn = 0;
    for (int t = 0; t < h->ntri && nn < 3; t++) {
        const int *tr = h->tri + 3 * t;
        if (tr[0] != v && tr[1] != v && tr[2] != v) {
            continue;
        }
        const double *a = h->vert + 3 * tr[0], *b = h->vert + 3 * tr[1], *c = h->vert + 3 * tr[2];
        const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        const double w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        double n[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
        double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (!(l > 0.0)) {
            continue;
        }
        n[0] /= l, n[1] /= l, n[2] /= l;
        int seen = 0;
        for (int k = 0; k < nn; k++) {
            if (pdist2(n, ns[k]) < 1e-18) {
                seen = 1;
            }
        }
        if (!seen) {
            memcpy(ns[nn++], n, sizeof n);
        }
    }
    return nn >= 3;
}

/* copies the vertices and triangles of h into malloc'ed arrays */
static int copy_out(const imp_hull3d *h, imp_hull3d *out)
{
    memset(out, 0, sizeof *out);
    out->vert = malloc((size_t)h->nvert * 3 * sizeof(double));
    out->tri = malloc((size_t)h->ntri * 3 * sizeof(int));
    if (out->vert == NULL || out->tri == NULL) {
        imp_hull3d_free(out);
        return IMP_HULL_ENOMEM;
    }
    memcpy(out->vert, h->vert, (size_t)h->nvert * 3 * sizeof(double));
    memcpy(out->tri, h->tri, (size_t)h->ntri * 3 * sizeof(int));
    out->nvert = h->nvert;
    out->ntri = h->ntri;
    return IMP_HULL_OK;
}

int imp_hull3d_build(const double *pts, int n, imp_hull3d *out)
{
    memset(out, 0, sizeof *out);
    imp_hull3d_work w;
    memset(&w, 0, sizeof w);
    imp_hull3d h;
    int st = imp_hull3d_compute(pts, n, 1e-10, &w, &h);
    if (st == IMP_HULL_OK) {
        int keep = 0;
        for (int v = 0; v < h.nvert; v++) {
            keep += is_corner(&h, v);
        }
        if (keep == h.nvert) {
            st = copy_out(&h, out);
        } else if (keep < 4) {
            st = IMP_HULL_EFLAT;
        } else { /* drop vertices on flat faces or edges, then rebuild from the corners */
            double *corners = malloc((size_t)keep * 3 * sizeof(double));
            if (corners == NULL) {
                st = IMP_HULL_ENOMEM;
            } else {
                int k = 0;
                for (int v = 0; v < h.nvert; v++) {
                    if (is_corner(&h, v)) {
                        memcpy(corners + 3 * k++, h.vert + 3 * v, 3 * sizeof(double));
                    }
                }
                st = imp_hull3d_compute(corners, keep, 1e-10, &w, &h);
                if (st == IMP_HULL_OK) {
                    st = copy_out(&h, out);
                }
                free(corners);
            }
        }
    }
    imp_hull3d_work_free(&w);
    return st;
}

void imp_hull3d_free(imp_hull3d *h)
{
    free(h->vert);
    free(h->tri);
    memset(h, 0, sizeof *h);
}
