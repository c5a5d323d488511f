/* shape.c: reference counting and dispatch for the generic shape. */
#include "shape.h"

#include <math.h>
#include <stdlib.h>

imp_shape *imp_shape_new(const imp_shape_class *cls, void *data)
{
    imp_shape *s = calloc(1, sizeof *s);
    if (s == NULL) {
        if (cls->destroy != NULL) {
            cls->destroy(data);
        }
        return NULL;
    }
    s->cls = cls;
    s->refcount = 1;
    s->dim = cls->dim;
    s->inertia = imp_m3_zero();
    s->data = data;
    return s;
}

void imp_shape_retain(imp_shape *s) { s->refcount++; }

int imp_shape_dim(const imp_shape *s) { return s->dim; }

double imp_shape_measure(const imp_shape *s) { return s->measure; }

void imp_shape_release(imp_shape *s)
{
    if (s == NULL || --s->refcount > 0) {
        return;
    }
    if (s->cls->destroy != NULL) {
        s->cls->destroy(s->data);
    }
    free(s);
}

void imp_shape_bounds(const imp_shape *s, const double *pose, double lo[3], double hi[3])
{
    s->cls->bounds(s, pose, lo, hi);
}

void imp_shape_bounds_by_radius(const imp_shape *s, const double *pose, double lo[3], double hi[3])
{
    for (int i = 0; i < 3; i++) {
        double c = i < s->dim ? pose[i] : 0.0;
        double r = i < s->dim ? s->radius : 0.0;
        lo[i] = c - r;
        hi[i] = c + r;
    }
}

/* a positive finite number whose inverse is finite */
static int invertible(double v) { return v > 0.0 && isfinite(v) && isfinite(1.0 / v); }

const char *imp_shape_check_mass(const imp_shape *s)
{
    if (!invertible(s->measure)) {
        return s->dim == 2 ? "area" : "volume";
    }
    if (s->dim == 2) {
        return invertible(s->inertia.m[2][2]) ? NULL : "inertia";
    }
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            if (!isfinite(s->inertia.m[i][j]) || (i == j && !invertible(s->inertia.m[i][i]))) {
                return "inertia";
            }
        }
    }
    return NULL;
}
