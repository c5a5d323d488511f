/* shape2d_basic.c: circle and rectangle laminae. Mass properties per unit density:
   circle of radius r:  area pi r^2, polar moment pi r^4 / 2;
   rectangle w x h:     area w h,    polar moment w h (w^2 + h^2) / 12. */
#include "shape2d_basic.h"

#include <math.h>

#include "scalar.h"
#include <stdlib.h>

static void circle_bounds(const imp_shape *s, const double *pose, double lo[3], double hi[3])
{
    imp_shape_bounds_by_radius(s, pose, lo, hi);
}

static void rectangle_bounds(const imp_shape *s, const double *pose, double lo[3], double hi[3])
{
    const double *p = s->data;  /* width, height */
    double c = fabs(cos(pose[2])), sn = fabs(sin(pose[2]));
    double ex = 0.5 * (c * p[0] + sn * p[1]);
    double ey = 0.5 * (sn * p[0] + c * p[1]);
    lo[0] = pose[0] - ex;
    hi[0] = pose[0] + ex;
    lo[1] = pose[1] - ey;
    hi[1] = pose[1] + ey;
    lo[2] = hi[2] = 0.0;
}

static const imp_shape_class circle_class = {"circle", 2, free, circle_bounds};
static const imp_shape_class rectangle_class = {"rectangle", 2, free, rectangle_bounds};

static imp_shape *with_params(const imp_shape_class *cls, double a, double b)
{
    double *p = malloc(2 * sizeof *p);
    if (p == NULL) {
        return NULL;
    }
    p[0] = a;
    p[1] = b;
    return imp_shape_new(cls, p);
}

imp_shape *imp_shape2d_circle(double radius)
{
    imp_shape *s = with_params(&circle_class, radius, 0.0);
    if (s != NULL) {
        s->measure = IMP_PI * radius * radius;
        s->inertia.m[2][2] = 0.5 * IMP_PI * pow(radius, 4);
        s->radius = radius;
    }
    return s;
}

imp_shape *imp_shape2d_rectangle(double width, double height)
{
    imp_shape *s = with_params(&rectangle_class, width, height);
    if (s != NULL) {
        double area = width * height;
        s->measure = area;
        s->inertia.m[2][2] = area * (width * width + height * height) / 12.0;
        s->radius = 0.5 * hypot(width, height);
    }
    return s;
}

const double *imp_shape2d_basic_params(const imp_shape *s)
{
    return (s->cls == &circle_class || s->cls == &rectangle_class) ? s->data : NULL;
}
