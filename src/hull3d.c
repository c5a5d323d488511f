/* hull3d.c: quickhull in 3D (Barber, Dobkin, Huhdanpaa, "The Quickhull algorithm for convex
   hulls", ACM TOMS 22(4), 1996).

   Start from a tetrahedron of extreme points; each face keeps the points outside it (in a
   linked list); repeatedly take a face with outside points, its farthest point (the eye), the
   faces the eye sees (flood fill over neighbours), and replace them by a fan of new faces from
   the eye to the horizon, handing the orphaned outside points to the new faces. A point within
   eps of a face's plane counts as not outside, so duplicate, interior and coplanar points are
   dropped. A last pass removes vertices that lie on a flat face or on an edge (they can enter
   when an intermediate hull had them as extreme points) and rebuilds from the corners. */
#include "hull3d.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct face {
    int v[3];
    int nb[3]; /* nb[i]: the face across edge (v[i], v[i+1]) */
    double n[3], d;
    int alive, visible;
    int head; /* first outside point, -1 when none */
} face;

typedef struct qh {
    const double *p;
    int np;
    double eps;
    face *f;
    int nf, cap;
    int *next;     /* next outside point in a face's list */
    int *stack;    /* flood fill */
    int *hor;      /* horizon: (a, b, outer face) triples */
    int *start_of; /* per point: new face whose horizon edge starts there, -1 */
    int *orphans;
} qh;

static double dist(const qh *q, const face *f, int i)
{
    const double *x = q->p + 3 * i;
    return f->n[0] * x[0] + f->n[1] * x[1] + f->n[2] * x[2] - f->d;
}

static int new_face(qh *q, int a, int b, int c)
{
    if (q->nf == q->cap) {
        int cap = q->cap * 2;
        face *f = realloc(q->f, (size_t)cap * sizeof *f);
        if (f == NULL) {
            return -1;
        }
        q->f = f;
        q->cap = cap;
    }
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
    f->alive = 1;
    f->visible = 0;
    f->head = -1;
    return q->nf++;
}

/* gives point i to the face among fs[0..nfs) it is farthest outside of, if any */
static void assign(qh *q, int i, const int *fs, int nfs)
{
    int best = -1;
    double bd = q->eps;
    for (int k = 0; k < nfs; k++) {
        double e = dist(q, &q->f[fs[k]], i);
        if (e > bd) {
            bd = e;
            best = fs[k];
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
    int nst = 0, nhor = 0, norph = 0;
    q->stack[nst++] = f0;
    q->f[f0].visible = 1;
    int nvis = 0;
    int *vis = q->orphans + q->np; /* second half of the orphan buffer holds visible faces */
    while (nst > 0) {
        int fi = q->stack[--nst];
        vis[nvis++] = fi;
        for (int e = 0; e < 3; e++) {
            int g = q->f[fi].nb[e];
            if (q->f[g].visible) {
                continue;
            }
            if (dist(q, &q->f[g], eye) > q->eps) {
                q->f[g].visible = 1;
                q->stack[nst++] = g;
            } else {
                q->hor[3 * nhor] = q->f[fi].v[e];
                q->hor[3 * nhor + 1] = q->f[fi].v[(e + 1) % 3];
                q->hor[3 * nhor + 2] = g;
                nhor++;
            }
        }
    }
    for (int k = 0; k < nvis; k++) {
        face *f = &q->f[vis[k]];
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
            return IMP_HULL_EFAIL; /* horizon not a simple cycle */
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
        int b = f->v[1], a = f->v[0];
        int nxt = q->start_of[b];
        if (nxt < 0) {
            return IMP_HULL_EFAIL;
        }
        f->nb[1] = nxt;         /* edge (b, eye) */
        q->f[nxt].nb[2] = k;    /* its edge (eye, b) */
        (void)a;
    }
    for (int h = 0; h < nhor; h++) {
        q->start_of[q->hor[3 * h]] = -1;
    }
    /* the new face list is contiguous: first .. nf */
    int nnew = q->nf - first;
    for (int k = 0; k < norph; k++) {
        int i = q->orphans[k];
        int best = -1;
        double bd = q->eps;
        for (int m = 0; m < nnew; m++) {
            double e = dist(q, &q->f[first + m], i);
            if (e > bd) {
                bd = e;
                best = first + m;
            }
        }
        if (best >= 0) {
            q->next[i] = q->f[best].head;
            q->f[best].head = i;
        }
    }
    return IMP_HULL_OK;
}

static double pdist2(const double *a, const double *b)
{
    double x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];
    return x * x + y * y + z * z;
}

/* the hull of the points idx[0..m) of p (m >= 4); fills out */
static int hull(const double *p, int np, qh *q, imp_hull3d *out)
{
    /* extent and tolerance */
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
    q->eps = 1e-10 * size + 8.0 * 2.220446049250313e-16 * amax;
    if (!(size > 0.0)) {
        return IMP_HULL_EFLAT;
    }
    /* initial simplex: the farthest pair of axis extremes, the point farthest from their line,
       the point farthest from their plane */
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
    best = q->eps;
    for (int i = 0; i < np; i++) {
        const double w[3] = {p[3 * i] - p[3 * i0], p[3 * i + 1] - p[3 * i0 + 1], p[3 * i + 2] - p[3 * i0 + 2]};
        const double c[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
        double d = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]) / ul;
        if (d > best) {
            best = d;
            i2 = i;
        }
    }
    if (i2 < 0) {
        return IMP_HULL_EFLAT;
    }
    q->nf = 0;
    int tf = new_face(q, i0, i1, i2);
    if (tf < 0) {
        return IMP_HULL_ENOMEM;
    }
    int i3 = -1;
    best = q->eps;
    for (int i = 0; i < np; i++) {
        double d = fabs(dist(q, &q->f[tf], i));
        if (d > best) {
            best = d;
            i3 = i;
        }
    }
    if (i3 < 0) {
        return IMP_HULL_EFLAT;
    }
    if (dist(q, &q->f[tf], i3) > 0.0) { /* orient so that i3 lies below (i0, i1, i2) */
        int t = i1;
        i1 = i2;
        i2 = t;
    }
    q->nf = 0;
    int fs[4];
    fs[0] = new_face(q, i0, i1, i2);
    fs[1] = new_face(q, i0, i3, i1);
    fs[2] = new_face(q, i1, i3, i2);
    fs[3] = new_face(q, i2, i3, i0);
    if (fs[3] < 0) {
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
            assign(q, i, fs, 4);
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
        int st = add_point(q, fi, eye);
        if (st != IMP_HULL_OK) {
            return st;
        }
    }
    /* output: used points in index order */
    int *map = q->start_of; /* reuse: all -1 again here */
    int nt = 0, nv = 0;
    for (int fi = 0; fi < q->nf; fi++) {
        if (q->f[fi].alive) {
            nt++;
            for (int k = 0; k < 3; k++) {
                map[q->f[fi].v[k]] = 1;
            }
        }
    }
    for (int i = 0; i < np; i++) {
        if (map[i] > 0) {
            map[i] = nv++;
        }
    }
    out->vert = malloc((size_t)nv * 3 * sizeof(double));
    out->tri = malloc((size_t)nt * 3 * sizeof(int));
    if (out->vert == NULL || out->tri == NULL) {
        imp_hull3d_free(out);
        return IMP_HULL_ENOMEM;
    }
    for (int i = 0; i < np; i++) {
        if (map[i] >= 0) {
            memcpy(out->vert + 3 * map[i], p + 3 * i, 3 * sizeof(double));
        }
    }
    out->nvert = nv;
    out->ntri = 0;
    for (int fi = 0; fi < q->nf; fi++) {
        if (q->f[fi].alive) {
            for (int k = 0; k < 3; k++) {
                out->tri[3 * out->ntri + k] = map[q->f[fi].v[k]];
            }
            out->ntri++;
        }
    }
    return IMP_HULL_OK;
}

static int run(const double *p, int np, imp_hull3d *out)
{
    qh q;
    memset(&q, 0, sizeof q);
    q.p = p;
    q.np = np;
    q.cap = 64;
    q.f = malloc((size_t)q.cap * sizeof *q.f);
    q.next = malloc((size_t)np * sizeof(int));
    q.stack = malloc((size_t)(2 * np + 8) * 2 * sizeof(int));
    q.hor = malloc((size_t)(2 * np + 8) * 3 * sizeof(int));
    q.start_of = malloc((size_t)np * sizeof(int));
    q.orphans = malloc((size_t)(np + 2 * np + 8) * 2 * sizeof(int));
    int st = IMP_HULL_ENOMEM;
    if (q.f != NULL && q.next != NULL && q.stack != NULL && q.hor != NULL && q.start_of != NULL &&
        q.orphans != NULL) {
        for (int i = 0; i < np; i++) {
            q.next[i] = -1;
            q.start_of[i] = -1;
        }
        st = hull(p, np, &q, out);
    }
    free(q.f);
    free(q.next);
    free(q.stack);
    free(q.hor);
    free(q.start_of);
    free(q.orphans);
    return st;
}

/* 1 when vertex v of h has incident triangles on at least 3 distinct planes (a corner) */
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

int imp_hull3d_build(const double *pts, int n, imp_hull3d *out)
{
    memset(out, 0, sizeof *out);
    if (pts == NULL || n < 4) {
        return IMP_HULL_EBADARG;
    }
    for (int i = 0; i < 3 * n; i++) {
        if (!isfinite(pts[i])) {
            return IMP_HULL_EBADARG;
        }
    }
    int st = run(pts, n, out);
    if (st != IMP_HULL_OK) {
        return st;
    }
    /* drop vertices on flat faces or edges, then rebuild from the corners */
    int keep = 0;
    for (int v = 0; v < out->nvert; v++) {
        keep += is_corner(out, v);
    }
    if (keep == out->nvert) {
        return IMP_HULL_OK;
    }
    double *corners = malloc((size_t)keep * 3 * sizeof(double));
    if (corners == NULL) {
        imp_hull3d_free(out);
        return IMP_HULL_ENOMEM;
    }
    int k = 0;
    for (int v = 0; v < out->nvert; v++) {
        if (is_corner(out, v)) {
            memcpy(corners + 3 * k++, out->vert + 3 * v, 3 * sizeof(double));
        }
    }
    imp_hull3d_free(out);
    st = keep >= 4 ? run(corners, keep, out) : IMP_HULL_EFLAT;
    free(corners);
    return st;
}

void imp_hull3d_free(imp_hull3d *h)
{
    free(h->vert);
    free(h->tri);
    h->vert = NULL;
    h->tri = NULL;
    h->nvert = h->ntri = 0;
}
