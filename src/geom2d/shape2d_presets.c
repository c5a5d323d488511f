/* shape2d_presets.c: the ready-made 2D shapes (ball, block, ngon, rounded block, frame, blocks
   with a convex or concave circular top), each a path description handed to the polygon
   builder. Where symmetry fixes the centroid at the origin it is passed in exactly. */
#include <math.h>
#include <stdio.h>
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

/* every size is a length in [IMP_POLY2D_LENGTH_MIN, IMP_POLY2D_LENGTH_MAX] (false for NaN) */
static int length(double v) { return v >= IMP_POLY2D_LENGTH_MIN && v <= IMP_POLY2D_LENGTH_MAX; }

static imp_shape *bad(imp_poly2d_error *err, const char *fmt, double v)
{
    imp_poly2d_fail(err, IMP_POLY_BAD_SIZE, fmt, v);
    return NULL;
}

/* "<name> must be a length in [1e-60, 1e+60], got <v>" */
static imp_shape *bad_length(imp_poly2d_error *err, const char *name, double v)
{
    if (err != NULL) {
        err->status = IMP_POLY_BAD_SIZE;
        snprintf(err->message, sizeof err->message, "%s must be a length in [%g, %g], got %g", name,
                 IMP_POLY2D_LENGTH_MIN, IMP_POLY2D_LENGTH_MAX, v);
    }
    return NULL;
}

static imp_shape *bad2(imp_poly2d_error *err, const char *fmt, double a, double b)
{
    if (err != NULL) {
        err->status = IMP_POLY_BAD_SIZE;
        snprintf(err->message, sizeof err->message, fmt, a, b);
    }
    return NULL;
}

/* The builder takes edges shorter than about 1e-9 of the shape's size for zero length (its
   tolerance): a size must be more than MIN_RATIO times the largest. */
#define MIN_RATIO 2e-9

static int apart(imp_poly2d_error *err, const char *small_name, double small, const char *big_name,
                 double big)
{
    if (small > MIN_RATIO * big) {
        return 0;
    }
    if (err != NULL) {
        err->status = IMP_POLY_BAD_SIZE;
        snprintf(err->message, sizeof err->message, "%s (%g) must be more than %g times %s (%g): "
                 "shorter edges count as zero length", small_name, small, MIN_RATIO, big_name, big);
    }
    return 1;
}

/* A preset's sizes that pass the checks above can still give an outline the builder finds
   degenerate (a hole or a cap thinner than its tolerance, about 1e-9 of the largest size,
   which includes an arc's radius): say so, with the builder's finding. */
static imp_shape *outline(imp_shape *s, imp_poly2d_error *err)
{
    if (s == NULL && err != NULL && err->status != IMP_POLY_NO_MEMORY &&
        err->status != IMP_POLY_BAD_SIZE && err->status != IMP_POLY_OK) {
        char inner[84];
        snprintf(inner, sizeof inner, "%.80s", err->message);
        snprintf(err->message, sizeof err->message, "these sizes give a degenerate outline (%s): "
                 "too thin for the largest size, radii included (edges under 1e-9 of it, areas "
                 "under 1e-12 of its square count as none)", inner);
        err->status = IMP_POLY_BAD_SIZE;
    }
    return s;
}

/* the closed-form mass properties of the basic presets must be usable numbers too */
static imp_shape *checked(imp_shape *s, imp_poly2d_error *err)
{
    if (s != NULL && !imp_poly2d_mass_ok(s->measure, s->inertia.m[2][2])) {
        if (err != NULL) {
            err->status = IMP_POLY_BAD_SIZE;
            snprintf(err->message, sizeof err->message, "the shape's area (%g) and polar moment "
                     "of area (%g) must be positive finite normal numbers", s->measure,
                     s->inertia.m[2][2]);
        }
        imp_shape_release(s);
        return NULL;
    }
    return s;
}

imp_shape *imp_shape2d_ball(double radius, double spacing, imp_poly2d_error *err)
{
    if (!length(radius)) {
        return bad_length(err, "radius", radius);
    }
    imp_path2d_cmd c[3] = {cmd(IMP_PATH_MOVE, radius, 0.0), arc(radius, 0.0, 0.0, 0.0, 1),
                           cmd(IMP_PATH_CLOSE, 0, 0)};
    imp_shape *s = outline(imp_shape2d_polygon_kind(IMP_POLY_KIND_CIRCLE, c, 3, spacing, &origin, err), err);
    if (s != NULL) {
        imp_poly2d *g = s->data;
        g->params[0] = radius;
        s->measure = IMP_PI * radius * radius;
        s->inertia.m[2][2] = 0.5 * IMP_PI * pow(radius, 4);
    }
    return checked(s, err);
}

imp_shape *imp_shape2d_block(double width, double height, imp_poly2d_error *err)
{
    if (!length(width)) {
        return bad_length(err, "width", width);
    }
    if (!length(height)) {
        return bad_length(err, "height", height);
    }
    if (apart(err, "width", width, "height", height) || apart(err, "height", height, "width", width)) {
        return NULL;
    }
    double w = 0.5 * width, h = 0.5 * height;
    imp_path2d_cmd c[5] = {cmd(IMP_PATH_MOVE, -w, -h), cmd(IMP_PATH_LINE, w, -h),
                           cmd(IMP_PATH_LINE, w, h), cmd(IMP_PATH_LINE, -w, h),
                           cmd(IMP_PATH_CLOSE, 0, 0)};
    imp_shape *s = outline(imp_shape2d_polygon_kind(IMP_POLY_KIND_RECTANGLE, c, 5,
                                                    IMP_POLY2D_DEFAULT_SPACING, &origin, err), err);
    if (s != NULL) {
        imp_poly2d *g = s->data;
        g->params[0] = width;
        g->params[1] = height;
        /* the closed forms, exact to the last bit for the common case */
        s->measure = width * height;
        s->inertia.m[2][2] = width * height * (width * width + height * height) / 12.0;
    }
    return checked(s, err);
}

imp_shape *imp_shape2d_ngon(int sides, double radius, imp_poly2d_error *err)
{
    if (sides < 3 || sides > 100000) {
        return bad(err, "sides must be an integer from 3 to 100000, got %g", (double)sides);
    }
    if (!length(radius)) {
        return bad_length(err, "radius", radius);
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
    imp_shape *s = outline(imp_shape2d_polygon_kind(IMP_POLY_KIND_POLYGON, c, sides + 1,
                                                    IMP_POLY2D_DEFAULT_SPACING, &origin, err), err);
    free(c);
    return s;
}

imp_shape *imp_shape2d_rounded_block(double width, double height, double corner_radius,
                                     double spacing, imp_poly2d_error *err)
{
    if (!length(width)) {
        return bad_length(err, "width", width);
    }
    if (!length(height)) {
        return bad_length(err, "height", height);
    }
    if (!length(corner_radius)) {
        return bad_length(err, "corner_radius", corner_radius);
    }
    if (corner_radius > 0.5 * imp_min(width, height)) {
        return bad2(err, "corner_radius must be at most min(width, height) / 2 = %g, got %g",
                    0.5 * imp_min(width, height), corner_radius);
    }
    double size = imp_max(width, height);
    if (apart(err, "width", width, "height", height) || apart(err, "height", height, "width", width) ||
        apart(err, "corner_radius", corner_radius, "max(width, height)", size)) {
        return NULL;
    }
    double w = 0.5 * width, h = 0.5 * height, r = corner_radius;
    /* a straight side between two corners, unless the corners (nearly) meet: one of the
       builder's zero length is left out, its arc then starting within 1e-9 size of its
       circle */
    double least = MIN_RATIO * size;
    imp_path2d_cmd c[10];
    int n = 0;
    c[n++] = cmd(IMP_PATH_MOVE, -w + r, -h);
    if ((w - r) - (-w + r) > least) {
        c[n++] = cmd(IMP_PATH_LINE, w - r, -h);
    }
    c[n++] = arc(w, -h + r, w - r, -h + r, 1);
    if ((h - r) - (-h + r) > least) {
        c[n++] = cmd(IMP_PATH_LINE, w, h - r);
    }
    c[n++] = arc(w - r, h, w - r, h - r, 1);
    if ((w - r) - (-w + r) > least) {
        c[n++] = cmd(IMP_PATH_LINE, -w + r, h);
    }
    c[n++] = arc(-w, h - r, -w + r, h - r, 1);
    if ((h - r) - (-h + r) > least) {
        c[n++] = cmd(IMP_PATH_LINE, -w, -h + r);
    }
    c[n++] = arc(-w + r, -h, -w + r, -h + r, 1);
    c[n++] = cmd(IMP_PATH_CLOSE, 0, 0);
    return outline(imp_shape2d_polygon_kind(IMP_POLY_KIND_POLYGON, c, n, spacing, &origin, err), err);
}

imp_shape *imp_shape2d_frame(double outer_width, double outer_height, double thickness,
                             imp_poly2d_error *err)
{
    if (!length(outer_width)) {
        return bad_length(err, "outer_width", outer_width);
    }
    if (!length(outer_height)) {
        return bad_length(err, "outer_height", outer_height);
    }
    if (!length(thickness)) {
        return bad_length(err, "thickness", thickness);
    }
    if (!(thickness < 0.5 * imp_min(outer_width, outer_height))) {
        return bad2(err, "thickness must be less than min(outer_width, outer_height) / 2 = %g, "
                    "got %g", 0.5 * imp_min(outer_width, outer_height), thickness);
    }
    double size = imp_max(outer_width, outer_height);
    if (apart(err, "outer_width", outer_width, "outer_height", outer_height) ||
        apart(err, "outer_height", outer_height, "outer_width", outer_width) ||
        apart(err, "thickness", thickness, "max(outer_width, outer_height)", size) ||
        apart(err, "min(outer_width, outer_height) - 2 thickness",
              imp_min(outer_width, outer_height) - 2.0 * thickness, "max(outer_width, outer_height)",
              size)) {
        return NULL;
    }
    double w = 0.5 * outer_width, h = 0.5 * outer_height, iw = w - thickness, ih = h - thickness;
    imp_path2d_cmd c[10] = {
        cmd(IMP_PATH_MOVE, -w, -h),  cmd(IMP_PATH_LINE, w, -h),   cmd(IMP_PATH_LINE, w, h),
        cmd(IMP_PATH_LINE, -w, h),   cmd(IMP_PATH_CLOSE, 0, 0),
        /* the hole runs clockwise */
        cmd(IMP_PATH_MOVE, -iw, -ih), cmd(IMP_PATH_LINE, -iw, ih), cmd(IMP_PATH_LINE, iw, ih),
        cmd(IMP_PATH_LINE, iw, -ih), cmd(IMP_PATH_CLOSE, 0, 0)};
    return outline(imp_shape2d_polygon_kind(IMP_POLY_KIND_POLYGON, c, 10, IMP_POLY2D_DEFAULT_SPACING,
                                            &origin, err), err);
}

imp_shape *imp_shape2d_arc_top_block(double width, double height, double radius, int convex,
                                     double spacing, imp_poly2d_error *err)
{
    if (!length(width)) {
        return bad_length(err, "width", width);
    }
    if (!length(height)) {
        return bad_length(err, "height", height);
    }
    double w = 0.5 * width;
    if (!length(radius)) {
        return bad_length(err, "radius", radius);
    }
    if (radius < w) {
        return bad2(err, "radius must be at least width / 2 = %g, got %g", w, radius);
    }
    double size = imp_max(imp_max(width, height), radius);
    if (apart(err, "width", width, "max(width, height, radius)", size) ||
        apart(err, "height", height, "max(width, height, radius)", size)) {
        return NULL;
    }
    double k = sqrt(radius * radius - w * w); /* centre below (convex) or above (concave) */
    double sag = w * w / (radius + k);        /* radius - k, without cancellation */
    if (!convex && !(sag < height - MIN_RATIO * size)) {
        return bad2(err, "the concave top (depth %g) must be shallower than the height (%g)", sag,
                    height);
    }
    double cy = convex ? height - k : height + k;
    imp_path2d_cmd c[5] = {cmd(IMP_PATH_MOVE, -w, 0.0), cmd(IMP_PATH_LINE, w, 0.0),
                           cmd(IMP_PATH_LINE, w, height), arc(-w, height, 0.0, cy, convex),
                           cmd(IMP_PATH_CLOSE, 0, 0)};
    return outline(imp_shape2d_polygon_kind(IMP_POLY_KIND_POLYGON, c, 5, spacing, NULL, err), err);
}
