/* shape2d_basic.c: circle and rectangle laminae, built as polygons. Mass properties per unit
   density: circle of radius r: area pi r^2, polar moment pi r^4 / 2; rectangle w x h: area w h,
   polar moment w h (w^2 + h^2) / 12 (set from these closed forms by the presets). */
#include "shape2d_basic.h"

#include <string.h>

#include "polygon2d.h"

imp_shape *imp_shape2d_circle(double radius)
{
    return imp_shape2d_ball(radius, IMP_POLY2D_DEFAULT_SPACING, NULL);
}

imp_shape *imp_shape2d_rectangle(double width, double height)
{
    return imp_shape2d_block(width, height, NULL);
}

const double *imp_shape2d_basic_params(const imp_shape *s)
{
    const imp_poly2d *g = imp_shape2d_poly(s);
    if (g == NULL || (strcmp(s->cls->name, "circle") != 0 && strcmp(s->cls->name, "rectangle") != 0)) {
        return NULL;
    }
    return g->params;
}
