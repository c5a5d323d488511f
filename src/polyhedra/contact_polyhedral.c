/* contact_polyhedral.c: contact point, normal, area, gap and surface pair of two convex
   polyhedra from their intersection (see contact_polyhedral.h). O(size of the intersection +
   vertices of both), plus one GJK call when the gap needs its second stage. */
#include "contact_polyhedral.h"

#include <math.h>
#include <string.h>

#include "collide3d.h"
#include "gjk.h"
#include "support3d.h"

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* max signed plane distance of p (> 0 outside); the nearest plane (smallest |distance|) */
static double outside(const imp_poly_view *v, const double *p, int *nearest)
{
    double worst = -INFINITY, best = INFINITY;
    for (int f = 0; f < v->nf; f++) {
        const double *pl = v->plane + 4 * f;
        double s = dot3(pl, p) - pl[3];
        worst = fmax(worst, s);
        if (fabs(s) < best) {
            best = fabs(s);
            *nearest = f;
        }
    }
    return worst;
}

static double support_max(const imp_poly_view *v, const double *n)
{
    double m = -INFINITY;
    for (int i = 0; i < v->nv; i++) {
        m = fmax(m, dot3(n, v->vert + 3 * i));
    }
    return m;
}

int imp_poly_contact_from(const imp_shape *a, const double *pose_a, const imp_shape *b, const double *pose_b,
                          const imp_poly_intersection *s, imp_poly_contact *out)
{
    memset(out, 0, sizeof *out);
    out->distance = s->distance;
    out->volume = s->volume;
    double eps = s->eps, scale = s->scale;
    double sum_a = 0.0, p[3] = {0, 0, 0};
    for (int t = 0; t < s->ntri; t++) {
        const double *v0 = s->vert + 3 * s->tri[3 * t], *v1 = s->vert + 3 * s->tri[3 * t + 1],
                     *v2 = s->vert + 3 * s->tri[3 * t + 2];
        const double u[3] = {v1[0] - v0[0], v1[1] - v0[1], v1[2] - v0[2]};
        const double w[3] = {v2[0] - v0[0], v2[1] - v0[1], v2[2] - v0[2]};
        double c[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
        double at = 0.5 * sqrt(dot3(c, c));
        sum_a += at;
        for (int k = 0; k < 3; k++) {
            p[k] += at * (v0[k] + v1[k] + v2[k]) / 3.0;
        }
    }
    double n[3] = {0, 0, 0}, wsum = 0.0;
    for (int f = 0; f < s->npoly; f++) {
        if (s->poly_shared[f] >= 0) {
            continue; /* on both surfaces: no direction from A into B (and no order dependence) */
        }
        const imp_poly_view *v = s->poly_body[f] == 0 ? &s->a : &s->b;
        const double *pl = v->plane + 4 * s->poly_face[f];
        double wgt = s->poly_area[f] * s->poly_area[f], sg = s->poly_body[f] == 0 ? wgt : -wgt;
        wsum += wgt;
        for (int k = 0; k < 3; k++) {
            n[k] += sg * pl[k];
        }
    }
    if (!(sum_a > 0.0)) {
        out->status = IMP_PC_REJECTED;
        return out->status;
    }
    for (int k = 0; k < 3; k++) {
        out->point[k] = p[k] / sum_a;
    }
    out->area = 0.5 * sum_a;
    double nl = sqrt(dot3(n, n));
    if (nl > 1e-6 * wsum) {
        for (int k = 0; k < 3; k++) {
            out->normal[k] = n[k] / nl;
        }
    } else { /* containment: no dominant pair of faces */
        imp_contact3d c;
        imp_collide3d_general(a, pose_a, b, pose_b, &c);
        memcpy(out->normal, c.normal, sizeof out->normal);
        out->normal_fallback = 1;
    }
    /* gap, stage 1: minus the thickness of the intersection along n */
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < s->nvert; i++) {
        double q = dot3(out->normal, s->vert + 3 * i);
        lo = fmin(lo, q);
        hi = fmax(hi, q);
    }
    double g0 = lo - hi;
    if (g0 < -eps) { /* stage 2: separate by 2 delta along n, measure with GJK */
        double delta = -g0, qa[7], qb[7];
        memcpy(qa, pose_a, sizeof qa);
        memcpy(qb, pose_b, sizeof qb);
        for (int k = 0; k < 3; k++) {
            qa[k] -= delta * out->normal[k];
            qb[k] += delta * out->normal[k];
        }
        imp_support3d sa, sb;
        imp_support3d_init(&sa, a, qa);
        imp_support3d_init(&sb, b, qb);
        imp_mink3d mk = {&sa, &sb, 1};
        imp_gjk_result g;
        imp_gjk(&mk, 1e-11 * scale, 1e-12 * scale, 128, &g);
        if (g.status != IMP_GJK_OVERLAP && g.distance > 0.0) {
            out->gap = fmin(g.distance - 2.0 * delta, 0.0);
        } else { /* still overlapping (containment): the exact overlap along n */
            double neg[3] = {-out->normal[0], -out->normal[1], -out->normal[2]};
            out->gap = fmin(-support_max(&s->b, neg) - support_max(&s->a, out->normal), 0.0);
        }
    } else {
        out->gap = 0.0;
    }
    if (out->gap > -eps) {
        out->gap = 0.0; /* touching within eps (the swelling makes smaller overlaps unresolvable) */
    }
    /* sanity checks and the surface pair */
    int fa = 0, fb = 0;
    double oa = outside(&s->a, out->point, &fa), ob = outside(&s->b, out->point, &fb);
    out->surface_a = s->a.surface[fa];
    out->surface_b = s->b.surface[fb];
    double tol = eps + 1e-9 * scale;
    double sum = out->point[0] + out->point[1] + out->point[2] + out->normal[0] + out->normal[1] + out->normal[2] +
                 out->area + out->gap;
    if (!(oa <= tol && ob <= tol) || !isfinite(sum) || !(out->area > 0.0)) {
        out->status = IMP_PC_REJECTED;
        return out->status;
    }
    out->status = IMP_PC_CONTACT;
    return out->status;
}

int imp_polyhedra_contact(const imp_shape *a, const double *pose_a, const imp_shape *b, const double *pose_b,
                          double eps, imp_poly_work *w, imp_poly_intersection *isect, imp_poly_contact *out)
{
    imp_poly_intersection local;
    if (isect == NULL) {
        isect = &local;
    }
    int st = imp_polytope_intersect(a, pose_a, b, pose_b, eps, w, isect);
    if (st != IMP_PI_OK) {
        memset(out, 0, sizeof *out);
        out->distance = isect->distance;
        out->status = st == IMP_PI_SEPARATED ? IMP_PC_SEPARATED
                      : st == IMP_PI_BADINPUT ? IMP_PC_BADINPUT
                      : st == IMP_PI_ENOMEM   ? IMP_PC_ENOMEM
                                              : IMP_PC_REJECTED;
        return out->status;
    }
    return imp_poly_contact_from(a, pose_a, b, pose_b, isect, out);
}
