/* lua_shape3d.c: constructors of 3D shapes and the 3D distance query (impact.shape3d.* in the
   Lua front). */
#include <stdio.h>
#include <stdlib.h>

#include "collide3d.h"
#include "lua_polyhedron.h"
#include "lua_util.h"
#include "shape3d.h"

/* the 'smoothing' option of a box, cylinder, cone or convex hull */
static double opt_smoothing(lua_State *L, const char *what, int kind, const double *params)
{
    double r = imp_opt_number(L, 1, what, "smoothing", 0.0, IMP_NONNEGATIVE, NULL);
    const char *msg = imp_shape3d_check_smoothing(kind, params, r);
    if (msg != NULL) {
        lua_pushnumber(L, r);
        imp_error(L, what, "option 'smoothing' %s, got %s", msg, imp_describe(L, -1));
    }
    return r;
}

static int l_sphere(lua_State *L)
{
    static const char *const keys[] = {"radius", NULL};
    const char *what = "impact.shape3d.sphere";
    luaL_checktype(L, 1, LUA_TTABLE);
    imp_opt_check_keys(L, 1, what, keys);
    double r = imp_opt_number(L, 1, what, "radius", 0.5, IMP_POSITIVE, NULL);
    char given[160];
    snprintf(given, sizeof given, "radius = %g", r);
    imp_lua_push_solid_shape(L, imp_shape3d_sphere(r), what, given);
    return 1;
}

/* a positive 3-vector option, or a single positive number for all three */
static void opt_triple(lua_State *L, const char *what, const char *key, double def, double *out)
{
    out[0] = out[1] = out[2] = def;
    lua_getfield(L, 1, key);
    int t = lua_type(L, -1);
    lua_pop(L, 1);
    if (t == LUA_TNUMBER) {
        out[0] = out[1] = out[2] = imp_opt_number(L, 1, what, key, def, IMP_POSITIVE, NULL);
    } else {
        imp_opt_vector(L, 1, what, key, 3, out);
    }
    for (int i = 0; i < 3; i++) {
        if (!(out[i] > 0.0)) {
            lua_pushnumber(L, out[i]);
            imp_error(L, what, "option '%s' must be positive, element %d is %s", key, i + 1,
                      imp_describe(L, -1));
        }
    }
}

static int l_box(lua_State *L)
{
    static const char *const keys[] = {"size", "smoothing", NULL};
    const char *what = "impact.shape3d.box";
    double size[3];
    luaL_checktype(L, 1, LUA_TTABLE);
    imp_opt_check_keys(L, 1, what, keys);
    opt_triple(L, what, "size", 1.0, size);
    double r = opt_smoothing(L, what, IMP_S3_BOX, size);
    char given[160];
    snprintf(given, sizeof given, "size = {%g, %g, %g}, smoothing = %g", size[0], size[1],
             size[2], r);
    imp_lua_push_solid_shape(L, imp_shape3d_box_smoothed(size[0], size[1], size[2], r), what, given);
    return 1;
}

static int l_ellipsoid(lua_State *L)
{
    static const char *const keys[] = {"radii", NULL};
    const char *what = "impact.shape3d.ellipsoid";
    double radii[3];
    luaL_checktype(L, 1, LUA_TTABLE);
    imp_opt_check_keys(L, 1, what, keys);
    opt_triple(L, what, "radii", 0.5, radii);
    char given[160];
    snprintf(given, sizeof given, "radii = {%g, %g, %g}", radii[0], radii[1], radii[2]);
    imp_lua_push_solid_shape(L, imp_shape3d_ellipsoid(radii[0], radii[1], radii[2]), what, given);
    return 1;
}

static int l_capsule(lua_State *L)
{
    static const char *const keys[] = {"radius", "length", NULL};
    const char *what = "impact.shape3d.capsule";
    luaL_checktype(L, 1, LUA_TTABLE);
    imp_opt_check_keys(L, 1, what, keys);
    double rad = imp_opt_number(L, 1, what, "radius", 0.5, IMP_POSITIVE, NULL);
    double len = imp_opt_number(L, 1, what, "length", 1.0, IMP_NONNEGATIVE, NULL);
    char given[160];
    snprintf(given, sizeof given, "radius = %g, length = %g", rad, len);
    imp_lua_push_solid_shape(L, imp_shape3d_capsule(rad, len), what, given);
    return 1;
}

/* cylinder and cone: a radius, a length along the shape's z axis, a smoothing radius */
static int radius_length_shape(lua_State *L, const char *what, int kind,
                               imp_shape *(*make)(double, double, double))
{
    static const char *const keys[] = {"radius", "length", "smoothing", NULL};
    luaL_checktype(L, 1, LUA_TTABLE);
    imp_opt_check_keys(L, 1, what, keys);
    double p[2];
    p[0] = imp_opt_number(L, 1, what, "radius", 0.5, IMP_POSITIVE, NULL);
    p[1] = imp_opt_number(L, 1, what, "length", 1.0, IMP_POSITIVE, NULL);
    double r = opt_smoothing(L, what, kind, p);
    char given[160];
    snprintf(given, sizeof given, "radius = %g, length = %g, smoothing = %g", p[0], p[1], r);
    imp_lua_push_solid_shape(L, make(p[0], p[1], r), what, given);
    return 1;
}

static int l_cylinder(lua_State *L)
{
    return radius_length_shape(L, "impact.shape3d.cylinder", IMP_S3_CYLINDER, imp_shape3d_cylinder);
}

static int l_cone(lua_State *L)
{
    return radius_length_shape(L, "impact.shape3d.cone", IMP_S3_CONE, imp_shape3d_cone);
}

static int l_convex(lua_State *L)
{
    static const char *const keys[] = {"points", "smoothing", NULL};
    const char *what = "impact.shape3d.convex";
    luaL_checktype(L, 1, LUA_TTABLE);
    imp_opt_check_keys(L, 1, what, keys);
    double r = imp_opt_number(L, 1, what, "smoothing", 0.0, IMP_NONNEGATIVE, NULL);
    if (lua_getfield(L, 1, "points") != LUA_TTABLE) {
        imp_error(L, what, "option 'points' must be an array of at least 4 points {x, y, z}, got %s",
                  imp_describe(L, -1));
    }
    lua_Integer n = luaL_len(L, -1);
    if (n < 4 || n > 1000000) {
        imp_error(L, what, "option 'points' must hold from 4 to 1000000 points, got %I", (LUAI_UACINT)n);
    }
    double *pts = lua_newuserdatauv(L, (size_t)n * 3 * sizeof(double), 0); /* freed by the GC */
    for (lua_Integer i = 0; i < n; i++) {
        lua_geti(L, -2, i + 1);
        lua_pushfstring(L, "points[%I]", (LUAI_UACINT)(i + 1));
        imp_to_vector(L, -2, what, lua_tostring(L, -1), 3, pts + 3 * i);
        lua_pop(L, 2);
    }
    int st;
    imp_shape *s = imp_shape3d_convex(pts, (int)n, r, &st);
    if (s == NULL && st == IMP_S3_EFLAT) {
        imp_error(L, what, "the points span no volume (they are coincident, collinear or coplanar)");
    } else if (s == NULL && st == IMP_S3_EBADARG) {
        imp_error(L, what, "the points must be finite");
    }
    imp_lua_push_solid_shape(L, s, what, "option 'points'");
    return 1;
}

static int l_wall(lua_State *L)
{
    static const char *const keys[] = {"normal", NULL};
    const char *what = "impact.shape3d.wall";
    double n[3] = {0.0, 0.0, 1.0};
    luaL_checktype(L, 1, LUA_TTABLE);
    imp_opt_check_keys(L, 1, what, keys);
    imp_opt_vector(L, 1, what, "normal", 3, n);
    if (!(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] > 0.0)) {
        imp_error(L, what, "option 'normal' must be a nonzero vector {x, y, z}");
    }
    imp_lua_push_shape(L, imp_shape3d_wall(n));
    return 1;
}

static const imp_convex3d *check_shape3d(lua_State *L, int idx, const char *what, const char *name)
{
    imp_shape *s = imp_lua_test_shape(L, idx);
    const imp_convex3d *c = s != NULL ? imp_shape3d_data(s) : NULL;
    if (c == NULL) {
        imp_error(L, what, "%s must be a 3D shape (impact.shape3d.*), got %s", name,
                  s != NULL ? s->cls->name : imp_describe(L, idx));
    }
    return c;
}

/* parameters(shape): the constructor's parameters of a 3D shape as a table */
static int l_parameters(lua_State *L)
{
    const char *what = "impact.shape3d.parameters";
    const imp_convex3d *c = check_shape3d(L, 1, what, "argument #1");
    imp_shape *s = imp_lua_check_shape(L, 1);
    lua_newtable(L);
    lua_pushstring(L, s->cls->name);
    lua_setfield(L, -2, "kind");
    switch (c->kind) {
    case IMP_S3_SPHERE:
        imp_lua_set_number(L, "radius", c->params[0]);
        break;
    case IMP_S3_ELLIPSOID:
        imp_push_vector(L, c->params, 3);
        lua_setfield(L, -2, "radii");
        break;
    case IMP_S3_BOX:
        imp_push_vector(L, c->params, 3);
        lua_setfield(L, -2, "size");
        imp_lua_set_number(L, "smoothing", c->sweep);
        break;
    case IMP_S3_CYLINDER:
    case IMP_S3_CONE:
        imp_lua_set_number(L, "radius", c->params[0]);
        imp_lua_set_number(L, "length", c->params[1]);
        imp_lua_set_number(L, "smoothing", c->sweep);
        break;
    case IMP_S3_CAPSULE:
        imp_lua_set_number(L, "radius", c->params[0]);
        imp_lua_set_number(L, "length", c->params[1]);
        break;
    case IMP_S3_CONVEX:
        lua_createtable(L, c->nvert, 0);
        for (int i = 0; i < c->nvert; i++) {
            imp_push_vector(L, c->vert + 3 * i, 3);
            lua_rawseti(L, -2, i + 1);
        }
        lua_setfield(L, -2, "vertices");
        imp_lua_set_number(L, "smoothing", c->sweep);
        break;
    case IMP_S3_WALL:
        imp_push_vector(L, c->core, 3);
        lua_setfield(L, -2, "normal");
        break;
    default:
        break;
    }
    return 1;
}

/* distance(shape_a, pose_a, shape_b, pose_b) -> distance, normal, point_a, point_b, info */
static int l_distance(lua_State *L)
{
    static const char *const methods[] = {"analytic", "gjk", "mpr_epa", "flat"};
    const char *what = "impact.shape3d.distance";
    check_shape3d(L, 1, what, "argument #1 (shape_a)");
    check_shape3d(L, 3, what, "argument #3 (shape_b)");
    double pa[7], pb[7];
    luaL_checktype(L, 2, LUA_TTABLE);
    luaL_checktype(L, 4, LUA_TTABLE);
    imp_opt_pose(L, 2, what, 3, pa);
    imp_opt_pose(L, 4, what, 3, pb);
    imp_contact3d c;
    int st = imp_collide3d(imp_lua_check_shape(L, 1), pa, imp_lua_check_shape(L, 3), pb, &c);
    if (st == IMP_NP_BADINPUT || st == IMP_NP_UNSUPPORTED) {
        imp_error(L, what, "%s", imp_collide3d_status_message(st));
    }
    lua_pushnumber(L, c.distance);
    imp_push_vector(L, c.normal, 3);
    imp_push_vector(L, c.point_a, 3);
    imp_push_vector(L, c.point_b, 3);
    lua_createtable(L, 0, 3);
    lua_pushstring(L, methods[c.method]);
    lua_setfield(L, -2, "method");
    lua_pushinteger(L, c.iterations);
    lua_setfield(L, -2, "iterations");
    lua_pushboolean(L, st == IMP_NP_OK);
    lua_setfield(L, -2, "converged");
    return 5;
}

void imp_lua_open_shape3d(lua_State *L)
{
    static const luaL_Reg fns[] = {{"shape3d_sphere", l_sphere},
                                   {"shape3d_box", l_box},
                                   {"shape3d_ellipsoid", l_ellipsoid},
                                   {"shape3d_cylinder", l_cylinder},
                                   {"shape3d_capsule", l_capsule},
                                   {"shape3d_cone", l_cone},
                                   {"shape3d_convex", l_convex},
                                   {"shape3d_wall", l_wall},
                                   {"shape3d_parameters", l_parameters},
                                   {"shape3d_distance", l_distance},
                                   {NULL, NULL}};
    luaL_setfuncs(L, fns, 0);
    imp_lua_open_polyhedron(L); /* polyhedra and their intersection (lua_polyhedron.c) */
}
