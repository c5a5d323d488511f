/* shape3d_basic.c: sphere and box solids. Mass properties per unit density:
   sphere of radius r:  volume 4/3 pi r^3, inertia (2/5) V r^2 about every axis;
   box a x b x c:       volume a b c, Ixx = V (b^2 + c^2) / 12 and cyclic. */
#include "shape3d_basic.h"

#include <math.h>
#include <stdlib.h>

#include "quat.h"
#include "scalar.h"

static void sphere_bounds(const imp_shape *s, const double *pose, double lo[3], double hi[3])
{
    imp_shape_bounds_by_radius(s, pose, lo, hi);
}

static void box_bounds(const imp_shape *s, const double *pose, double lo[3], double hi[3])
{
    const double *p = s->data;
    imp_mat3 r = imp_q_to_mat3(imp_q_normalize(imp_q(pose[3], pose[4], pose[5], pose[6])));
    for (int i = 0; i < 3; i++) {
        double e = 0.5 * (fabs(r.m[i][0]) * p[0] + fabs(r.m[i][1]) * p[1] + fabs(r.m[i][2]) * p[2]);
        lo[i] = pose[i] - e;
        hi[i] = pose[i] + e;
    }
}

static const imp_shape_class sphere_class = {"sphere", 3, free, sphere_bounds};
static const imp_shape_class box_class = {"box", 3, free, box_bounds};

imp_shape *imp_shape3d_sphere(double radius)
{
    double *p = malloc(sizeof *p);
    if (p == NULL) {
        return NULL;
    }
    p[0] = radius;
    imp_shape *s = imp_shape_new(&sphere_class, p);
    if (s != NULL) {
        double v = 4.0 / 3.0 * IMP_PI * radius * radius * radius;
        double i = 0.4 * v * radius * radius;
        s->measure = v;
        s->inertia = imp_m3_diag(i, i, i);
        s->radius = radius;
    }
    return s;
}

imp_shape *imp_shape3d_box(double sx, double sy, double sz)
{
    double *p = malloc(3 * sizeof *p);
    if (p == NULL) {
        return NULL;
    }
    p[0] = sx;
    p[1] = sy;
    p[2] = sz;
    imp_shape *s = imp_shape_new(&box_class, p);
    if (s != NULL) {
        double v = sx * sy * sz;
        s->measure = v;
        s->inertia = imp_m3_diag(v * (sy * sy + sz * sz) / 12.0, v * (sx * sx + sz * sz) / 12.0,
                                 v * (sx * sx + sy * sy) / 12.0);
        s->radius = 0.5 * sqrt(sx * sx + sy * sy + sz * sz);
    }
    return s;
}

const double *imp_shape3d_basic_params(const imp_shape *s)
{
    return (s->cls == &sphere_class || s->cls == &box_class) ? s->data : NULL;
}
