/* outline.c: 2D outlines per shape kind (see outline.h). Add a kind by one branch in
   imp_shape2d_outline. */
#include "outline.h"

#include <string.h>

#include "scalar.h"
#include "shape2d_basic.h"

static int put(imp_path_cmd *out, int cap, int n, imp_path_cmd c)
{
    if (n < cap) {
        out[n] = c;
    }
    return n + 1;
}

static imp_path_cmd cmd(imp_path_op op, double x, double y)
{
    imp_path_cmd c = {op, x, y, 0.0, 0.0, 0.0, 0.0, 0.0};
    return c;
}

/* a full circle: move to its rightmost point, one arc of 2 pi, close */
static int circle_outline(const imp_shape *s, imp_path_cmd *out, int cap)
{
    double r = imp_shape2d_basic_params(s)[0];
    double cx = s->centroid[0], cy = s->centroid[1];
    int n = put(out, cap, 0, cmd(IMP_PATH_MOVE, cx + r, cy));
    imp_path_cmd arc = {IMP_PATH_ARC, cx + r, cy, cx, cy, r, 0.0, 2.0 * IMP_PI};
    n = put(out, cap, n, arc);
    return put(out, cap, n, cmd(IMP_PATH_CLOSE, cx + r, cy));
}

/* counter-clockwise from the lower left corner */
static int rectangle_outline(const imp_shape *s, imp_path_cmd *out, int cap)
{
    const double *p = imp_shape2d_basic_params(s);
    double hx = 0.5 * p[0], hy = 0.5 * p[1];
    double cx = s->centroid[0], cy = s->centroid[1];
    int n = put(out, cap, 0, cmd(IMP_PATH_MOVE, cx - hx, cy - hy));
    n = put(out, cap, n, cmd(IMP_PATH_LINE, cx + hx, cy - hy));
    n = put(out, cap, n, cmd(IMP_PATH_LINE, cx + hx, cy + hy));
    n = put(out, cap, n, cmd(IMP_PATH_LINE, cx - hx, cy + hy));
    return put(out, cap, n, cmd(IMP_PATH_CLOSE, cx - hx, cy - hy));
}

int imp_shape2d_outline(const imp_shape *s, imp_path_cmd *out, int cap)
{
    if (s == NULL || s->dim != 2 || cap < 0 || (cap > 0 && out == NULL)) {
        return -1;
    }
    const char *kind = s->cls->name;
    if (imp_shape2d_basic_params(s) != NULL && strcmp(kind, "circle") == 0) {
        return circle_outline(s, out, cap);
    }
    if (imp_shape2d_basic_params(s) != NULL && strcmp(kind, "rectangle") == 0) {
        return rectangle_outline(s, out, cap);
    }
    /* new 2D kinds (e.g. "polygon" with straight and circular edges) go here */
    return -1;
}
