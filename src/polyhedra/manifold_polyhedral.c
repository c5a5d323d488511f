/* manifold_polyhedral.c: the contact manifold of two convex polyhedra from their volumetric
   intersection (manifold_polyhedral.h). */
#include "manifold_polyhedral.h"

#include <math.h>
#include <string.h>

#include "contact_polyhedral.h"
#include "contact_sparsify.h"
#include "manifold3d_reduce.h"
#include "vec3.h"

#define CAND IMP_POLY_MANIFOLD_CAND

typedef struct cand {
    int vert;    /* the intersection's vertex */
    int poly;    /* its first patch polygon */
    int body;    /* 0: on A's surface, 1: on B's */
    double area; /* its share of the patch polygons' areas */
} cand;

/* the s at which the ray v + s u leaves the posed polyhedron through a face it meets at less
   than about 84 degrees (0 when none) */
static double exit_along(const imp_poly_view *p, imp_vec3 v, imp_vec3 u)
{
    double best = INFINITY;
    for (int f = 0; f < p->nf; f++) {
        imp_vec3 m = imp_v3_load(p->plane + 4 * f);
        double mu = imp_v3_dot(m, u);
        if (mu >= 0.1) { /* faces nearly along the ray (side walls through v) do not bound it */
            best = fmin(best, (p->plane[4 * f + 3] - imp_v3_dot(m, v)) / mu);
        }
    }
    return isfinite(best) ? best : 0.0;
}

/* two patch polygons share a vertex (the sparsification's adjacency) */
static int share_vertex(void *ud, int body, int o1, int o2)
{
    const imp_poly_intersection *s = ud;
    (void)body;
    for (int i = s->poly_first[o1]; i < s->poly_first[o1 + 1]; i++) {
        for (int j = s->poly_first[o2]; j < s->poly_first[o2 + 1]; j++) {
            if (s->poly_vidx[i] == s->poly_vidx[j]) {
                return 1;
            }
        }
    }
    return 0;
}

/* the patch's vertices with their area shares; returns their number */
static int patch(const imp_poly_intersection *s, imp_vec3 n, cand *c)
{
    int nc = 0;
    for (int f = 0; f < s->npoly; f++) {
        if (s->poly_shared[f] >= 0) {
            continue;
        }
        int body = s->poly_body[f];
        const imp_poly_view *v = body == 0 ? &s->a : &s->b;
        double cs = imp_v3_dot(imp_v3_load(v->plane + 4 * s->poly_face[f]), n);
        if (!(body == 0 ? cs >= 0.1 : cs <= -0.1)) {
            continue;
        }
        int k = s->poly_first[f + 1] - s->poly_first[f];
        double share = k > 0 ? s->poly_area[f] / k : 0.0;
        for (int i = s->poly_first[f]; i < s->poly_first[f + 1]; i++) {
            int vi = s->poly_vidx[i], j = 0;
            while (j < nc && c[j].vert != vi) {
                j++;
            }
            if (j < nc) {
                c[j].area += share;
            } else if (nc < CAND) {
                c[nc++] = (cand){vi, f, body, share};
            }
        }
    }
    return nc;
}

/* the key of vertex p: the three lowest indices of the face planes through it */
static unsigned vertex_key(const imp_poly_intersection *s, imp_vec3 p, double tol)
{
    unsigned id[3] = {511u, 511u, 511u};
    int m = 0, nfa = s->a.nf, total = s->a.nf + s->b.nf;
    for (int g = 0; g < total && m < 3; g++) {
        const double *pl = g < nfa ? s->a.plane + 4 * g : s->b.plane + 4 * (g - nfa);
        if (fabs(imp_v3_dot(imp_v3_load(pl), p) - pl[3]) <= tol) {
            id[m++] = (unsigned)g;
        }
    }
    if (total <= 511) {
        return 0xE0000000u | id[0] | id[1] << 9 | id[2] << 18;
    }
    unsigned h = 2166136261u;
    for (int k = 0; k < 3; k++) {
        h = (h ^ id[k]) * 16777619u;
    }
    return 0xE0000000u | (h & 0x1FFFFFFFu);
}

int imp_poly_manifold(const imp_shape *a, const double *pose_a, const imp_shape *b, const double *pose_b,
                      double eps, double margin, imp_poly_work *w, imp_manifold3d *out)
{
    imp_poly_intersection s;
    imp_poly_contact pc;
    memset(out, 0, sizeof *out);
    out->normal[2] = 1.0;
    int st = imp_polyhedra_contact(a, pose_a, b, pose_b, eps, w, &s, &pc);
    if (st == IMP_PC_BADINPUT || st == IMP_PC_ENOMEM) {
        out->status = st == IMP_PC_BADINPUT ? IMP_NP_BADINPUT : IMP_NP_OK;
        return st;
    }
    if (st != IMP_PC_CONTACT) {
        imp_manifold3d_compute(a, pose_a, b, pose_b, margin, out);
        return st;
    }
    imp_vec3 n = imp_v3_load(pc.normal), centre = imp_v3_load(pc.point);
    out->status = IMP_NP_OK;
    imp_v3_store(out->normal, n);
    cand c[CAND];
    int nc = patch(&s, n, c);
    if (nc == 0) {
        imp_vec3 p = imp_v3_load(pc.point);
        imp_v3_store(out->points[0].point_a, p);
        imp_v3_store(out->points[0].point_b, imp_v3_madd(p, pc.gap, n));
        out->points[0].distance = pc.gap;
        out->points[0].key = 0xC0000000u;
        out->count = 1;
        return st;
    }
    /* each candidate's pair of surface points; the sparsification's view of it */
    imp_vec3 pa[CAND], pb[CAND];
    double dist[CAND] = {0};
    imp_sparse_contact sc[CAND];
    for (int i = 0; i < nc; i++) {
        imp_vec3 v = imp_v3_load(s.vert + 3 * c[i].vert);
        double t = c[i].body == 0 ? exit_along(&s.b, v, imp_v3_neg(n)) : exit_along(&s.a, v, n);
        t = fmax(t, 0.0); /* a slab vertex up to eps outside the other body: touching */
        if (c[i].body == 0) {
            pa[i] = v, pb[i] = imp_v3_madd(v, -t, n);
        } else {
            pb[i] = v, pa[i] = imp_v3_madd(v, t, n);
        }
        dist[i] = -t;
        imp_vec3 lat = imp_v3_madd(v, -imp_v3_dot(n, imp_v3_sub(v, centre)), n);
        imp_v3_store(sc[i].point, lat);
        sc[i].area = c[i].area;
        sc[i].body[0] = 0, sc[i].body[1] = 1;
        sc[i].object[0] = sc[i].object[1] = c[i].poly;
        sc[i].is_new = 1;
    }
    unsigned char keep[CAND];
    int work[IMP_SPARSIFY_WORK(CAND, 2)];
    imp_sparsify_opts opts = {0.01, 0.0, s.eps};
    if (imp_contact_sparsify_ws(sc, nc, 2, &opts, share_vertex, &s, keep, work) != IMP_SPARSIFY_OK) {
        memset(keep, 1, sizeof keep);
    }
    /* the survivors, reduced */
    int idx[CAND] = {0}, m = 0;
    imp_vec3 qa[CAND];
    double qd[CAND];
    for (int i = 0; i < nc; i++) {
        if (keep[i]) {
            idx[m] = i, qa[m] = pa[i], qd[m] = dist[i];
            m++;
        }
    }
    int sel[IMP_MANIFOLD3D_MAX];
    int k = imp_manifold3d_reduce(qa, qd, m, n, s.scale, margin, sel);
    double ktol = 2.0 * s.eps + 1e-9 * s.scale;
    for (int j = 0; j < k; j++) {
        int i = idx[sel[j]];
        imp_manifold3d_point *o = &out->points[j];
        imp_v3_store(o->point_a, pa[i]);
        imp_v3_store(o->point_b, pb[i]);
        o->distance = dist[i];
        o->key = vertex_key(&s, imp_v3_load(s.vert + 3 * c[i].vert), ktol);
        for (int q = 0; q < j; q++) { /* distinct within the manifold (hash collisions, rounding) */
            if (out->points[q].key == o->key) {
                o->key = 0xE0000000u | ((o->key + 0x9E3779B1u) & 0x1FFFFFFFu);
                q = -1;
            }
        }
    }
    out->count = k;
    return st;
}
