/* compliant_patch.c: the contact patch of a flat pair and its area (see compliant_patch.h). */
#include "compliant_patch.h"

#include <math.h>
#include <string.h>

#include "polyhedron.h"
#include "shape3d.h"

static const double pi = 3.14159265358979323846;

static double tri_area(const double *p, const double *q, const double *r, double n[3])
{
    const double u[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
    const double v[3] = {r[0] - p[0], r[1] - p[1], r[2] - p[2]};
    n[0] = u[1] * v[2] - u[2] * v[1];
    n[1] = u[2] * v[0] - u[0] * v[2];
    n[2] = u[0] * v[1] - u[1] * v[0];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (len > 0.0) {
        for (int k = 0; k < 3; k++) {
            n[k] /= len;
        }
    }
    return 0.5 * len;
}

/* the largest planar face of a hull: its faces when it has them, else its triangles grouped by
   normal (within 1e-9) */
static double hull_face_area(const imp_convex3d *c)
{
    double best = 0.0;
    if (c->faces != NULL) {
        const imp_polyfaces *f = c->faces;
        for (int i = 0; i < f->nface; i++) {
            double area = 0.0, n[3];
            const int *v = f->vidx + f->first[i];
            int m = f->first[i + 1] - f->first[i];
            for (int j = 1; j + 1 < m; j++) {
                area += tri_area(c->vert + 3 * v[0], c->vert + 3 * v[j], c->vert + 3 * v[j + 1], n);
            }
            best = fmax(best, area);
        }
        return best;
    }
    for (int t = 0; t < c->ntri; t++) {
        double nt[3], area = 0.0;
        const int *a = c->tri + 3 * t;
        tri_area(c->vert + 3 * a[0], c->vert + 3 * a[1], c->vert + 3 * a[2], nt);
        for (int s = 0; s < c->ntri; s++) {
            double ns[3];
            const int *b = c->tri + 3 * s;
            double as = tri_area(c->vert + 3 * b[0], c->vert + 3 * b[1], c->vert + 3 * b[2], ns);
            if (nt[0] * ns[0] + nt[1] * ns[1] + nt[2] * ns[2] > 1.0 - 1e-9) {
                area += as;
            }
        }
        best = fmax(best, area);
    }
    return best;
}

double imp_compliant_flat_area(const imp_shape *s)
{
    const imp_convex3d *c = imp_shape3d_data(s);
    double area = 0.0;
    if (c != NULL) {
        switch (c->kind) {
        case IMP_S3_WALL: return INFINITY;
        case IMP_S3_BOX:  /* the flat part of each face is the core's face */
            area = 4.0 * fmax(c->core[0] * c->core[1], fmax(c->core[0] * c->core[2], c->core[1] * c->core[2]));
            break;
        case IMP_S3_CONVEX: area = hull_face_area(c); break;
        case IMP_S3_CYLINDER:
        case IMP_S3_CONE: area = pi * c->params[0] * c->params[0]; break;
        case IMP_S3_CAPSULE: area = pi * c->params[0] * c->params[0]; break;
        case IMP_S3_ELLIPSOID: {
            double x = c->params[0], y = c->params[1], z = c->params[2];
            double lo = fmin(x, fmin(y, z));
            area = pi * x * y * z / lo;
            break;
        }
        default: break;
        }
    }
    if (!(area > 0.0) && isfinite(s->radius)) {  /* a degenerate core: a disc of half the radius */
        area = pi * 0.25 * s->radius * s->radius;
    }
    return area;
}

int imp_compliant_patch_normal_in_b(const imp_shape *b, const imp_manifold3d *m)
{
    const imp_convex3d *cb = imp_shape3d_data(b);
    if (cb != NULL && cb->kind == IMP_S3_WALL) {
        return 1;
    }
    unsigned key = m->count > 0 ? m->points[0].key : 0u;
    return (key >> 30) == 0u && ((key >> 29) & 1u) != 0u;
}

int imp_compliant_patch_material(const imp_manifold3d *m)
{
    for (int i = 0; i < m->count; i++) {
        unsigned key = m->points[i].key, kind = key >> 30;
        if (!(kind == 1u || (kind == 0u && (key & 0x3FFFu) < 64u))) {
            return 0;
        }
    }
    return 1;
}

double imp_compliant_patch_weight(const imp_manifold3d *m, const imp_proximity *g, double floor)
{
    double deepest = 0.0;
    for (int i = 0; i < m->count; i++) {
        if (m->points[i].key >> 30 != 0u) {
            return 1.0;  /* a wall's vertices, a segment pair, the narrow phase's own point */
        }
        deepest = fmax(deepest, -m->points[i].distance);
    }
    if (m->count == 0) {
        return 0.0;
    }
    double band = fmax(-g->distance, floor);
    double x = (deepest - fmax(-g->distance, 0.0) - 1e-3 * band) / ((1.0 - 1e-3) * band);
    if (!(x > 0.0)) {
        return 1.0;
    }
    if (!(x < 1.0)) {
        return 0.0;
    }
    return 1.0 - x * x * (3.0 - 2.0 * x);
}

void imp_compliant_patch(const imp_shape *a, const double *pose_a, const imp_shape *b, const double *pose_b,
                         double margin, imp_manifold3d *out)
{
    imp_manifold3d_compute(a, pose_a, b, pose_b, margin, out);
    if (out->status != IMP_NP_OK && out->status != IMP_NP_MAXITER) {
        out->count = 0;
    }
}
