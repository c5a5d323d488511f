#include "manifold3d.h"

#include <string.h>

#include "collide3d.h"

int imp_manifold3d_compute(const imp_shape *a, const double *pose_a, const imp_shape *b, const double *pose_b,
                   double margin, imp_manifold3d *out)
{
    imp_contact3d c;
    memset(out, 0, sizeof *out);
    out->status = imp_collide3d(a, pose_a, b, pose_b, &c);
    if ((c.status != IMP_NP_OK && c.status != IMP_NP_MAXITER) || c.distance > margin) {
        return out->status;
    }
    memcpy(out->normal, c.normal, sizeof out->normal);
    out->count = 1;
    memcpy(out->points[0].point_a, c.point_a, sizeof c.point_a);
    memcpy(out->points[0].point_b, c.point_b, sizeof c.point_b);
    out->points[0].distance = c.distance;
    return out->status;
}
