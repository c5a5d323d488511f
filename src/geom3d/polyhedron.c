/* polyhedron.c: convex polyhedra with planar faces (see polyhedron.h): the validated
   constructor, the faces of a hull, and the posed view (world vertices and face planes). */
#include "polyhedron.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quat.h"

typedef struct dedge {
    int from, to, face;
} dedge;

static int cmp_dedge(const void *x, const void *y)
{
    const dedge *a = x, *b = y;
    if (a->from != b->from) {
        return a->from < b->from ? -1 : 1;
    }
    if (a->to != b->to) {
        return a->to < b->to ? -1 : 1;
    }
    return a->face < b->face ? -1 : (a->face > b->face);
}

static int cmp_face_from(const void *x, const void *y)
{
    const dedge *a = x, *b = y;
    if (a->face != b->face) {
        return a->face < b->face ? -1 : 1;
    }
    return a->from < b->from ? -1 : (a->from > b->from);
}

/* the index in the sorted array e[0..n) of the directed edge (from, to), -1 when absent */
static int find_dedge(const dedge *e, int n, int from, int to)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (e[mid].from == from && e[mid].to == to) {
            return mid;
        }
        if (e[mid].from < from || (e[mid].from == from && e[mid].to < to)) {
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return -1;
}

static const double *vtx(const double *v, int i) { return v + 3 * i; }

/* Newell's normal (twice the vector area) of the polygon idx[0..n) of v */
static void newell(const double *v, const int *idx, int n, double out[3])
{
    out[0] = out[1] = out[2] = 0.0;
    for (int i = 0; i < n; i++) {
        const double *p = vtx(v, idx[i]), *q = vtx(v, idx[(i + 1) % n]);
        out[0] += (p[1] - q[1]) * (p[2] + q[2]);
        out[1] += (p[2] - q[2]) * (p[0] + q[0]);
        out[2] += (p[0] - q[0]) * (p[1] + q[1]);
    }
}

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* one block holding the struct and its arrays */
static imp_polyfaces *alloc_faces(int nface, int nidx)
{
    size_t sz = sizeof(imp_polyfaces) + (size_t)nface * 4 * sizeof(double) +
                ((size_t)nface * 2 + 1 + (size_t)nidx) * sizeof(int);
    imp_polyfaces *f = malloc(sz);
    if (f == NULL) {
        return NULL;
    }
    f->nface = nface;
    f->plane = (double *)(f + 1);
    /* the ints follow the doubles in the block (int alignment divides double alignment) */
    // cppcheck-suppress invalidPointerCast
    f->surface = (int *)(f->plane + 4 * nface);
    f->first = f->surface + nface;
    f->vidx = f->first + nface + 1;
    return f;
}

static int uf_find(int *p, int i)
{
    while (p[i] != i) {
        p[i] = p[p[i]];
        i = p[i];
    }
    return i;
}

imp_polyfaces *imp_polyfaces_from_hull(const imp_convex3d *c)
{
    int nt = c->ntri;
    const double *v = c->vert;
    if (nt < 4) {
        return NULL;
    }
    dedge *e = malloc((size_t)nt * 3 * sizeof *e);
    int *par = malloc((size_t)nt * 3 * sizeof(int)); /* union-find, then face of tri, then order */
    double *tn = malloc((size_t)nt * 3 * sizeof(double));
    dedge *be = NULL; /* boundary edges of the faces */
    imp_polyfaces *out = NULL;
    if (e == NULL || par == NULL || tn == NULL) {
        goto done;
    }
    double tol = 1e-9 * c->scale;
    for (int t = 0; t < nt; t++) {
        const int *tr = c->tri + 3 * t;
        newell(v, tr, 3, tn + 3 * t);
        par[t] = t;
        for (int k = 0; k < 3; k++) {
            e[3 * t + k].from = tr[k];
            e[3 * t + k].to = tr[(k + 1) % 3];
            e[3 * t + k].face = t;
        }
    }
    qsort(e, (size_t)nt * 3, sizeof *e, cmp_dedge);
    for (int i = 0; i < 3 * nt; i++) {
        int j = find_dedge(e, 3 * nt, e[i].to, e[i].from);
        if (j < 0) {
            goto done; /* not closed */
        }
        int t1 = e[i].face, t2 = e[j].face;
        const double *n1 = tn + 3 * t1, *p = vtx(v, c->tri[3 * t1]);
        double l1 = sqrt(dot3(n1, n1));
        int far = -1;
        for (int k = 0; k < 3; k++) {
            int w = c->tri[3 * t2 + k];
            if (w != e[i].from && w != e[i].to) {
                far = w;
            }
        }
        const double *q = vtx(v, far);
        double dq[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
        if (l1 > 0.0 && fabs(dot3(n1, dq)) <= tol * l1 && dot3(n1, tn + 3 * t2) > 0.0) {
            int a = uf_find(par, t1), b = uf_find(par, t2);
            if (a != b) {
                par[a > b ? a : b] = a < b ? a : b; /* the smaller triangle index is the root */
            }
        }
    }
    /* faces numbered by their first triangle; face of tri in par[nt + t] */
    int *fof = par + nt, *cnt = par + 2 * nt;
    int nf = 0, nb = 0;
    for (int t = 0; t < nt; t++) {
        int r = uf_find(par, t);
        fof[t] = r == t ? nf++ : fof[r];
    }
    for (int f = 0; f < nf; f++) {
        cnt[f] = 0;
    }
    for (int i = 0; i < 3 * nt; i++) { /* boundary edges: their twin lies in another face */
        int j = find_dedge(e, 3 * nt, e[i].to, e[i].from);
        if (fof[e[j].face] != fof[e[i].face]) {
            cnt[fof[e[i].face]]++;
            nb++;
        }
    }
    out = alloc_faces(nf, nb);
    if (out == NULL) {
        goto done;
    }
    out->first[0] = 0;
    for (int f = 0; f < nf; f++) {
        out->first[f + 1] = out->first[f] + cnt[f];
        out->surface[f] = f + 1;
        double *pl = out->plane + 4 * f;
        pl[0] = pl[1] = pl[2] = pl[3] = 0.0;
    }
    for (int t = 0; t < nt; t++) {
        double *pl = out->plane + 4 * fof[t];
        for (int k = 0; k < 3; k++) {
            pl[k] += tn[3 * t + k];
        }
    }
    for (int f = 0; f < nf; f++) {
        double *pl = out->plane + 4 * f, l = sqrt(dot3(pl, pl));
        pl[0] /= l, pl[1] /= l, pl[2] /= l;
    }
    /* each face's boundary: its boundary edges sorted by (face, from), chained from -> to by
       binary search within the face's range: O(ntri log ntri) */
    be = malloc((size_t)(nb > 0 ? nb : 1) * sizeof *be);
    if (be == NULL) {
        free(out);
        out = NULL;
        goto done;
    }
    for (int i = 0, k = 0; i < 3 * nt; i++) {
        int j = find_dedge(e, 3 * nt, e[i].to, e[i].from);
        if (fof[e[j].face] != fof[e[i].face]) {
            be[k].face = fof[e[i].face], be[k].from = e[i].from, be[k].to = e[i].to;
            k++;
        }
    }
    qsort(be, (size_t)nb, sizeof *be, cmp_face_from);
    for (int f = 0; f < nf; f++) {
        int lo = out->first[f], hi = out->first[f + 1], n = 0, *dst = out->vidx + lo;
        int cur = lo;
        while (n < hi - lo) {
            dst[n++] = be[cur].from;
            int want = be[cur].to, l = lo, h = hi - 1, nxt = -1;
            while (l <= h) {
                int mid = (l + h) / 2;
                if (be[mid].from == want) {
                    nxt = mid;
                    break;
                }
                if (be[mid].from < want) {
                    l = mid + 1;
                } else {
                    h = mid - 1;
                }
            }
            if (nxt < 0 || (nxt == lo && n < hi - lo)) {
                free(out); /* not a simple boundary cycle */
                out = NULL;
                goto done;
            }
            cur = nxt;
        }
        double *pl = out->plane + 4 * f, d = 0.0;
        for (int k = 0; k < n; k++) {
            d += dot3(pl, vtx(v, dst[k]));
        }
        pl[3] = d / n;
    }
done:
    free(e);
    free(be);
    free(par);
    free(tn);
    return out;
}

/* sets *status and writes the message (printf format and its arguments) into msg */
static imp_shape *fail(int *status, int code, char *msg, size_t len, const char *fmt, ...)
{
    *status = code;
    if (msg != NULL && len > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, len, fmt, ap);
        va_end(ap);
    }
    return NULL;
}

imp_shape *imp_polyhedron_new(const double *vert, int nv, const int *face_size, const int *face_idx,
                              int nf, const int *surface, int *status, char *msg, size_t msglen)
{
    const int BAD = IMP_POLY_EBADARG;
    if (nv < 4) {
        return fail(status, BAD, msg, msglen, "needs at least 4 vertices, got %d", nv);
    }
    if (nf < 4) {
        return fail(status, BAD, msg, msglen, "needs at least 4 faces, got %d", nf);
    }
    double lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
        lo[k] = hi[k] = vert[k];
    }
    for (int i = 0; i < nv; i++) {
        for (int k = 0; k < 3; k++) {
            double x = vert[3 * i + k];
            if (!isfinite(x)) {
                return fail(status, BAD, msg, msglen, "vertex %d has a non-finite coordinate", i + 1);
            }
            lo[k] = fmin(lo[k], x);
            hi[k] = fmax(hi[k], x);
        }
    }
    double size = sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                       (hi[2] - lo[2]) * (hi[2] - lo[2]));
    double tol = 1e-9 * size;
    int ne2 = 0;
    for (int f = 0; f < nf; f++) {
        if (face_size[f] < 3) {
            return fail(status, BAD, msg, msglen, "face %d has %d vertices (at least 3 needed)", f + 1,
                        face_size[f]);
        }
        ne2 += face_size[f];
    }
    int *used = calloc((size_t)nv, sizeof(int));
    dedge *e = malloc((size_t)ne2 * sizeof *e);
    double *pl = malloc((size_t)nf * 4 * sizeof(double));
    imp_shape *s = NULL;
    if (used == NULL || e == NULL || pl == NULL) {
        *status = IMP_POLY_ENOMEM;
        goto done;
    }
    int at = 0;
    for (int f = 0; f < nf; f++) {
        const int *fi = face_idx + at;
        int n = face_size[f];
        for (int k = 0; k < n; k++) {
            if (fi[k] < 0 || fi[k] >= nv) {
                fail(status, BAD, msg, msglen, "face %d refers to vertex %d, which does not exist", f + 1,
                     fi[k] + 1);
                goto done;
            }
            for (int m = 0; m < k; m++) {
                if (fi[m] == fi[k]) {
                    fail(status, BAD, msg, msglen, "face %d lists vertex %d twice", f + 1, fi[k] + 1);
                    goto done;
                }
            }
            used[fi[k]] = 1;
            e[at + k].from = fi[k];
            e[at + k].to = fi[(k + 1) % n];
            e[at + k].face = f;
        }
        at += n;
    }
    for (int i = 0; i < nv; i++) {
        if (!used[i]) {
            fail(status, BAD, msg, msglen, "vertex %d is in no face", i + 1);
            goto done;
        }
    }
    qsort(e, (size_t)ne2, sizeof *e, cmp_dedge);
    for (int i = 0; i + 1 < ne2; i++) {
        if (e[i].from == e[i + 1].from && e[i].to == e[i + 1].to) {
            fail(status, BAD, msg, msglen,
                 "edge (%d, %d) has the same direction in two faces: every face must be "
                 "counter-clockwise seen from outside",
                 e[i].from + 1, e[i].to + 1);
            goto done;
        }
    }
    for (int i = 0; i < ne2; i++) {
        if (find_dedge(e, ne2, e[i].to, e[i].from) < 0) {
            fail(status, BAD, msg, msglen, "edge (%d, %d) belongs to one face only: the surface is not closed",
                 e[i].from + 1, e[i].to + 1);
            goto done;
        }
    }
    if (nv - ne2 / 2 + nf != 2) {
        fail(status, BAD, msg, msglen,
             "the faces do not bound one simple solid (V - E + F = %d, expected 2)", nv - ne2 / 2 + nf);
        goto done;
    }
    /* planes, planarity, convex faces */
    double vol = 0.0;
    at = 0;
    for (int f = 0; f < nf; f++) {
        const int *fi = face_idx + at;
        int n = face_size[f];
        double *p = pl + 4 * f;
        newell(vert, fi, n, p);
        double l = sqrt(dot3(p, p));
        if (!(l > tol * size)) {
            fail(status, BAD, msg, msglen, "face %d has no area", f + 1);
            goto done;
        }
        vol += dot3(p, vtx(vert, fi[0])) / 6.0; /* (n A) . x / 3, with |p| = 2 A */
        p[0] /= l, p[1] /= l, p[2] /= l;
        double d = 0.0;
        for (int k = 0; k < n; k++) {
            d += dot3(p, vtx(vert, fi[k]));
        }
        p[3] = d / n;
        for (int k = 0; k < n; k++) {
            double off = dot3(p, vtx(vert, fi[k])) - p[3];
            if (fabs(off) > tol) {
                fail(status, BAD, msg, msglen, "face %d is not planar: vertex %d is %g off its plane", f + 1,
                     fi[k] + 1, off);
                goto done;
            }
        }
        at += n;
    }
    if (!(vol > 0.0)) {
        fail(status, BAD, msg, msglen,
             "the faces are clockwise seen from outside (the volume is %g): reverse each face's "
             "vertex order", vol);
        goto done;
    }
    at = 0;
    for (int f = 0; f < nf; f++) {
        const int *fi = face_idx + at;
        int n = face_size[f];
        const double *p = pl + 4 * f;
        for (int k = 0; k < n; k++) {
            const double *a = vtx(vert, fi[(k + n - 1) % n]), *b = vtx(vert, fi[k]), *c = vtx(vert, fi[(k + 1) % n]);
            const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
            const double w[3] = {c[0] - b[0], c[1] - b[1], c[2] - b[2]};
            double x[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
            if (!(dot3(x, p) > tol * size)) {
                fail(status, BAD, msg, msglen, "face %d has a reflex or straight angle at vertex %d", f + 1,
                     fi[k] + 1);
                goto done;
            }
        }
        for (int i = 0; i < nv; i++) {
            double off = dot3(p, vtx(vert, i)) - p[3];
            if (off > tol) {
                *status = BAD;
                if (msg != NULL && msglen > 0) {
                    snprintf(msg, msglen, "vertex %d lies %g outside the plane of face %d: the polyhedron is not convex",
                             i + 1, off, f + 1);
                }
                goto done;
            }
        }
        at += n;
    }
    for (int i = 0; i < ne2; i++) {
        int j = find_dedge(e, ne2, e[i].to, e[i].from);
        int f = e[i].face, g = e[j].face;
        if (f < g && dot3(pl + 4 * f, pl + 4 * g) > 1.0 - 1e-12) {
            fail(status, BAD, msg, msglen, "faces %d and %d share an edge and lie in one plane: merge them",
                 f + 1, g + 1);
            goto done;
        }
    }
    /* the shape: the hull of the vertices (mass properties, support), with the user's faces */
    int st;
    s = imp_shape3d_convex(vert, nv, 0.0, &st);
    if (s == NULL) {
        *status = st == IMP_S3_ENOMEM ? IMP_POLY_ENOMEM : BAD;
        if (st != IMP_S3_ENOMEM && msg != NULL && msglen > 0) {
            snprintf(msg, msglen, "the vertices span no volume");
        }
        goto done;
    }
    imp_convex3d *c = s->data;
    int *map = used; /* user vertex -> hull vertex */
    for (int i = 0; i < nv; i++) {
        map[i] = -1;
        for (int j = 0; j < c->nvert && map[i] < 0; j++) {
            if (memcmp(c->vert + 3 * j, vert + 3 * i, 3 * sizeof(double)) == 0) {
                map[i] = j;
            }
        }
        if (map[i] < 0) {
            imp_shape_release(s);
            s = NULL;
            fail(status, BAD, msg, msglen, "vertex %d is not a corner of the solid", i + 1);
            goto done;
        }
    }
    imp_polyfaces *pf = alloc_faces(nf, ne2);
    if (pf == NULL) {
        imp_shape_release(s);
        s = NULL;
        *status = IMP_POLY_ENOMEM;
        goto done;
    }
    pf->first[0] = 0;
    at = 0;
    for (int f = 0; f < nf; f++) {
        memcpy(pf->plane + 4 * f, pl + 4 * f, 4 * sizeof(double));
        pf->surface[f] = surface != NULL ? surface[f] : f + 1;
        for (int k = 0; k < face_size[f]; k++) {
            pf->vidx[at + k] = map[face_idx[at + k]];
        }
        at += face_size[f];
        pf->first[f + 1] = at;
    }
    free(c->faces);
    c->faces = pf;
    *status = IMP_POLY_OK;
done:
    free(used);
    free(e);
    free(pl);
    return s;
}

const imp_polyfaces *imp_polyhedron_faces(const imp_shape *s)
{
    const imp_convex3d *c = imp_shape3d_data(s);
    return (c != NULL && c->kind == IMP_S3_CONVEX && c->sweep == 0.0) ? c->faces : NULL;
}

int imp_polytope_sizes(const imp_shape *s, int *nv, int *nf)
{
    const imp_convex3d *c = imp_shape3d_data(s);
    if (c != NULL && c->kind == IMP_S3_BOX && c->sweep == 0.0) {
        *nv = 8, *nf = 6;
        return 1;
    }
    const imp_polyfaces *f = imp_polyhedron_faces(s);
    if (f == NULL) {
        return 0;
    }
    *nv = c->nvert, *nf = f->nface;
    return 1;
}

void imp_polytope_pose(const imp_shape *s, const double *pose, double *vert, double *plane, int *surface)
{
    const imp_convex3d *c = imp_shape3d_data(s);
    imp_mat3 r = imp_q_to_mat3(imp_q_normalize(imp_q(pose[3], pose[4], pose[5], pose[6])));
    imp_vec3 o = imp_v3_sub(imp_v3_load(pose), imp_m3_mulv(&r, imp_v3_load(s->centroid)));
    if (c->kind == IMP_S3_BOX) { /* faces (surfaces 1..6) -x, +x, -y, +y, -z, +z; corner i: signs from its bits */
        for (int i = 0; i < 8; i++) {
            imp_vec3 p = imp_v3((i & 1) ? c->core[0] : -c->core[0], (i & 2) ? c->core[1] : -c->core[1],
                                (i & 4) ? c->core[2] : -c->core[2]);
            imp_v3_store(vert + 3 * i, imp_v3_add(o, imp_m3_mulv(&r, p)));
        }
        for (int f = 0; f < 6; f++) {
            double n[3] = {0, 0, 0};
            n[f / 2] = (f & 1) ? 1.0 : -1.0;
            imp_vec3 nw = imp_m3_mulv(&r, imp_v3_load(n));
            imp_v3_store(plane + 4 * f, nw);
            plane[4 * f + 3] = c->core[f / 2] + imp_v3_dot(nw, o);
            surface[f] = f + 1;
        }
        return;
    }
    const imp_polyfaces *pf = c->faces;
    for (int i = 0; i < c->nvert; i++) {
        imp_v3_store(vert + 3 * i, imp_v3_add(o, imp_m3_mulv(&r, imp_v3_load(c->vert + 3 * i))));
    }
    for (int f = 0; f < pf->nface; f++) {
        imp_vec3 nw = imp_m3_mulv(&r, imp_v3_load(pf->plane + 4 * f));
        imp_v3_store(plane + 4 * f, nw);
        plane[4 * f + 3] = pf->plane[4 * f + 3] + imp_v3_dot(nw, o);
        surface[f] = pf->surface[f];
    }
}
