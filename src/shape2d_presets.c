/* shape2d_presets.c: the ready-made 2D shapes (ball, block, ngon, rounded block, frame, blocks
   with a convex or concave circular top), each a path description handed to the polygon
   builder. Where symmetry fixes the centroid at the origin it is passed in exactly. */
#include <math.h>
#include <stdlib.h>

#include "polygon2d.h"
#include "scalar.h"

#define TWO_PI (2.0 * IMP_PI)

/* ---- presets ------------------------------------------------------------------------------ */

static imp_path2d_cmd cmd(int op, double x, double y)
{
    imp_path2d_cmd c = {op, x, y, 0.0, 0.0, 0, 0};
    return c;
}

static imp_path2d_cmd arc(double x, double y, double cx, double cy, int outside)
{
    imp_path2d_cmd c = {IMP_PATH_ARC, x, y, cx, cy, outside, 0};
    return c;
}

static const imp_vec2 origin = {0.0, 0.0};

static int positive(double v) { return v > 0.0 && isfinite(v); }

static imp_shape *bad(imp_poly2d_error *err, const char *fmt, double v)
{
    imp_poly2d_fail(err, IMP_POLY_BAD_COMMAND, fmt, v);
    return NULL;
}

imp_shape *imp_shape2d_ball(double radius, double spacing, imp_poly2d_error *err)
{
    if (!positive(radius)) {
        return bad(err, "radius must be a positive finite number, got %g", radius);
    }
    imp_path2d_cmd c[3] = {cmd(IMP_PATH_MOVE, radius, 0.0), arc(radius, 0.0, 0.0, 0.0, 1),
                           cmd(IMP_PATH_CLOSE, 0, 0)};
    imp_shape *s = imp_shape2d_polygon_kind(IMP_POLY_KIND_CIRCLE, c, 3, spacing, &origin, err);
    if (s != NULL) {
        imp_poly2d *g = s->data;
        g->params[0] = radius;
        s->measure = IMP_PI * radius * radius;
        s->inertia.m[2][2] = 0.5 * IMP_PI * pow(radius, 4);
    }
    return s;
}

imp_shape *imp_shape2d_block(double width, double height, imp_poly2d_error *err)
{
    if (!positive(width)) {
        return bad(err, "width must be a positive finite number, got %g", width);
    }
    if (!positive(height)) {
        return bad(err, "height must be a positive finite number, got %g", height);
    }
    double w = 0.5 * width, h = 0.5 * height;
    imp_path2d_cmd c[5] = {cmd(IMP_PATH_MOVE, -w, -h), cmd(IMP_PATH_LINE, w, -h),
                           cmd(IMP_PATH_LINE, w, h), cmd(IMP_PATH_LINE, -w, h),
                           cmd(IMP_PATH_CLOSE, 0, 0)};
    imp_shape *s = imp_shape2d_polygon_kind(IMP_POLY_KIND_RECTANGLE, c, 5, IMP_POLY2D_DEFAULT_SPACING, &origin, err);
    if (s != NULL) {
        imp_poly2d *g = s->data;
        g->params[0] = width;
        g->params[1] = height;
        /* the closed forms, exact to the last bit for the common case */
        s->measure = width * height;
        s->inertia.m[2][2] = width * height * (width * width + height * height) / 12.0;
    }
    return s;
}

imp_shape *imp_shape2d_ngon(int sides, double radius, imp_poly2d_error *err)
{
    if (sides < 3 || sides > 100000) {
        return bad(err, "sides must be an integer from 3 to 100000, got %g", (double)sides);
    }
    if (!positive(radius)) {
        return bad(err, "radius must be a positive finite number, got %g", radius);
    }
    imp_path2d_cmd *c = malloc((size_t)(sides + 1) * sizeof *c);
    if (c == NULL) {
        imp_poly2d_fail(err, IMP_POLY_NO_MEMORY, "out of memory", 0.0);
        return NULL;
    }
    double a0 = -0.5 * IMP_PI - IMP_PI / sides; /* the first edge is the horizontal bottom */
    for (int k = 0; k < sides; k++) {
        double a = a0 + TWO_PI * k / sides;
        c[k] = cmd(k == 0 ? IMP_PATH_MOVE : IMP_PATH_LINE, radius * cos(a), radius * sin(a));
    }
    c[sides] = cmd(IMP_PATH_CLOSE, 0, 0);
    imp_shape *s = imp_shape2d_polygon_kind(IMP_POLY_KIND_POLYGON, c, sides + 1, IMP_POLY2D_DEFAULT_SPACING, &origin, err);
    free(c);
    return s;
}

imp_shape *imp_shape2d_rounded_block(double width, double height, double corner_radius,
                                     double spacing, imp_poly2d_error *err)
{
    if (!positive(width)) {
        return bad(err, "width must be a positive finite number, got %g", width);
    }
    if (!positive(height)) {
        return bad(err, "height must be a positive finite number, got %g", height);
    }
    if (!positive(corner_radius) || corner_radius > 0.5 * imp_min(width, height)) {
        return bad(err, "corner_radius must be in (0, min(width, height) / 2], got %g", corner_radius);
    }
    double w = 0.5 * width, h = 0.5 * height, r = corner_radius;
    imp_path2d_cmd c[10];
    int n = 0;
    c[n++] = cmd(IMP_PATH_MOVE, -w + r, -h);
    if (w - r > -w + r) {
        c[n++] = cmd(IMP_PATH_LINE, w - r, -h);
    }
    c[n++] = arc(w, -h + r, w - r, -h + r, 1);
    if (h - r > -h + r) {
        c[n++] = cmd(IMP_PATH_LINE, w, h - r);
    }
    c[n++] = arc(w - r, h, w - r, h - r, 1);
    if (w - r > -w + r) {
        c[n++] = cmd(IMP_PATH_LINE, -w + r, h);
    }
    c[n++] = arc(-w, h - r, -w + r, h - r, 1);
    if (h - r > -h + r) {
        c[n++] = cmd(IMP_PATH_LINE, -w, -h + r);
    }
    c[n++] = arc(-w + r, -h, -w + r, -h + r, 1);
    c[n++] = cmd(IMP_PATH_CLOSE, 0, 0);
    return imp_shape2d_polygon_kind(IMP_POLY_KIND_POLYGON, c, n, spacing, &origin, err);
}

imp_shape *imp_shape2d_frame(double outer_width, double outer_height, double thickness,
                             imp_poly2d_error *err)
{
    if (!positive(outer_width)) {
        return bad(err, "outer_width must be a positive finite number, got %g", outer_width);
    }
    if (!positive(outer_height)) {
        return bad(err, "outer_height must be a positive finite number, got %g", outer_height);
    }
    if (!positive(thickness) || !(thickness < 0.5 * imp_min(outer_width, outer_height))) {
        return bad(err, "thickness must be in (0, min(outer_width, outer_height) / 2), got %g",
                   thickness);
    }
    double w = 0.5 * outer_width, h = 0.5 * outer_height, iw = w - thickness, ih = h - thickness;
    imp_path2d_cmd c[10] = {
        cmd(IMP_PATH_MOVE, -w, -h),  cmd(IMP_PATH_LINE, w, -h),   cmd(IMP_PATH_LINE, w, h),
        cmd(IMP_PATH_LINE, -w, h),   cmd(IMP_PATH_CLOSE, 0, 0),
        /* the hole runs clockwise */
        cmd(IMP_PATH_MOVE, -iw, -ih), cmd(IMP_PATH_LINE, -iw, ih), cmd(IMP_PATH_LINE, iw, ih),
        cmd(IMP_PATH_LINE, iw, -ih), cmd(IMP_PATH_CLOSE, 0, 0)};
    return imp_shape2d_polygon_kind(IMP_POLY_KIND_POLYGON, c, 10, IMP_POLY2D_DEFAULT_SPACING, &origin, err);
}

imp_shape *imp_shape2d_arc_top_block(double width, double height, double radius, int convex,
                                     double spacing, imp_poly2d_error *err)
{
    if (!positive(width)) {
        return bad(err, "width must be a positive finite number, got %g", width);
    }
    if (!positive(height)) {
        return bad(err, "height must be a positive finite number, got %g", height);
    }
    double w = 0.5 * width;
    if (!positive(radius) || radius < w) {
        return bad(err, "radius must be at least width / 2, got %g", radius);
    }
    double k = sqrt(radius * radius - w * w); /* centre below (convex) or above (concave) */
    double sag = radius - k;
    if (!convex && !(sag < height)) {
        return bad(err, "the concave top (depth %g) must be shallower than the height", sag);
    }
    double cy = convex ? height - k : height + k;
    imp_path2d_cmd c[5] = {cmd(IMP_PATH_MOVE, -w, 0.0), cmd(IMP_PATH_LINE, w, 0.0),
                           cmd(IMP_PATH_LINE, w, height), arc(-w, height, 0.0, cy, convex),
                           cmd(IMP_PATH_CLOSE, 0, 0)};
    return imp_shape2d_polygon_kind(IMP_POLY_KIND_POLYGON, c, 5, spacing, NULL, err);
}
