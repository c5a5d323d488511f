/* lua_shape.c: the impact.Shape userdata shared by every shape kind, 2D and 3D. */
#include <stdio.h>
#include <string.h>

#include "lua_util.h"
#include "quat.h"

typedef struct shape_ud {
    imp_shape *shape;
} shape_ud;

void imp_lua_push_shape(lua_State *L, imp_shape *s)
{
    if (s == NULL) {
        imp_raise(L, "out of memory building a shape");
    }
    shape_ud *u = lua_newuserdatauv(L, sizeof *u, 0);
    u->shape = NULL;
    luaL_setmetatable(L, IMP_SHAPE_MT);
    u->shape = s;
}

void imp_lua_push_solid_shape(lua_State *L, imp_shape *s, const char *what, const char *given)
{
    const char *bad = s != NULL ? imp_shape_check_mass(s) : NULL;
    if (bad == NULL) {
        imp_lua_push_shape(L, s);
        return;
    }
    char got[160], a[32], b[32], c[32];
    if (bad[0] != 'i') {
        snprintf(got, sizeof got, "%s of %s", bad, imp_format_g(a, sizeof a, s->measure));
    } else if (s->dim == 2) {
        snprintf(got, sizeof got, "polar inertia per unit density of %s",
                 imp_format_g(a, sizeof a, s->inertia.m[2][2]));
    } else {
        snprintf(got, sizeof got, "inertia per unit density of diagonal {%s, %s, %s}",
                 imp_format_g(a, sizeof a, s->inertia.m[0][0]),
                 imp_format_g(b, sizeof b, s->inertia.m[1][1]),
                 imp_format_g(c, sizeof c, s->inertia.m[2][2]));
    }
    int dim = s->dim;
    imp_shape_release(s);
    imp_error(L, what, "%s gives a shape with %s %s; its %s and inertia must be positive finite "
              "numbers with finite inverses (keep lengths roughly between 1e-60 and 1e60)",
              given, bad[0] == 'i' ? "an" : "a", got, dim == 2 ? "area" : "volume");
}

imp_shape *imp_lua_test_shape(lua_State *L, int idx)
{
    shape_ud *u = luaL_testudata(L, idx, IMP_SHAPE_MT);
    return u != NULL ? u->shape : NULL;
}

imp_shape *imp_lua_check_shape(lua_State *L, int idx)
{
    shape_ud *u = luaL_checkudata(L, idx, IMP_SHAPE_MT);
    return u->shape;
}

void imp_opt_pose(lua_State *L, int idx, const char *what, int dim, double *pose)
{
    static const char *const keys2[] = {"position", "angle", NULL};
    static const char *const keys3[] = {"position", "orientation", NULL};
    idx = lua_absindex(L, idx);
    for (int i = 0; i < 7; i++) {
        pose[i] = 0.0;
    }
    if (dim == 3) {
        pose[3] = 1.0;
    }
    imp_opt_check_keys(L, idx, what, dim == 2 ? keys2 : keys3);
    imp_opt_vector(L, idx, what, "position", dim, pose);
    if (dim == 2) {
        pose[2] = imp_opt_number(L, idx, what, "angle", 0.0, IMP_ANY, NULL);
    } else if (imp_opt_vector(L, idx, what, "orientation", 4, pose + 3)) {
        imp_quat q = imp_q(pose[3], pose[4], pose[5], pose[6]);
        if (!(imp_q_norm(q) > 0.0)) {
            imp_error(L, what, "option 'orientation' must be a nonzero quaternion {w, x, y, z}");
        }
        q = imp_q_normalize(q);
        pose[3] = q.w, pose[4] = q.x, pose[5] = q.y, pose[6] = q.z;
    }
}

static int shape_gc(lua_State *L)
{
    shape_ud *u = luaL_checkudata(L, 1, IMP_SHAPE_MT);
    imp_shape_release(u->shape);
    u->shape = NULL;
    return 0;
}

static int shape_tostring(lua_State *L)
{
    imp_shape *s = imp_lua_check_shape(L, 1);
    lua_pushfstring(L, "impact.Shape(%s, %dD)", s->cls->name, s->dim);
    return 1;
}

static int shape_area(lua_State *L)
{
    imp_shape *s = imp_lua_check_shape(L, 1);
    if (s->dim != 2) {
        return imp_raise(L, "area() is for 2D shapes; a %s has volume()", s->cls->name);
    }
    lua_pushnumber(L, s->measure);
    return 1;
}

static int shape_volume(lua_State *L)
{
    imp_shape *s = imp_lua_check_shape(L, 1);
    if (s->dim != 3) {
        return imp_raise(L, "volume() is for 3D shapes; a %s has area()", s->cls->name);
    }
    lua_pushnumber(L, s->measure);
    return 1;
}

static int shape_centroid(lua_State *L)
{
    imp_shape *s = imp_lua_check_shape(L, 1);
    imp_push_vector(L, s->centroid, s->dim);
    return 1;
}

static double check_density(lua_State *L, int idx)
{
    double d = luaL_optnumber(L, idx, 1.0);
    if (!(d > 0.0) || !isfinite(d)) {
        luaL_argerror(L, idx, lua_pushfstring(L, "density must be a positive finite number, got %s",
                                              imp_describe(L, idx)));
    }
    return d;
}

static int shape_mass(lua_State *L)
{
    imp_shape *s = imp_lua_check_shape(L, 1);
    lua_pushnumber(L, check_density(L, 2) * s->measure);
    return 1;
}

static int shape_inertia(lua_State *L)
{
    imp_shape *s = imp_lua_check_shape(L, 1);
    double d = check_density(L, 2);
    if (s->dim == 2) {
        lua_pushnumber(L, d * s->inertia.m[2][2]);
    } else {
        imp_mat3 i = imp_m3_scale(&s->inertia, d);
        imp_push_mat3(L, &i);
    }
    return 1;
}

static int shape_bounds(lua_State *L)
{
    imp_shape *s = imp_lua_check_shape(L, 1);
    double pose[7], lo[3], hi[3];
    imp_opt_pose(L, 2, "Shape:bounds", s->dim, pose);
    imp_shape_bounds(s, pose, lo, hi);
    imp_push_vector(L, lo, s->dim);
    imp_push_vector(L, hi, s->dim);
    return 2;
}

static int shape_bounding_radius(lua_State *L)
{
    lua_pushnumber(L, imp_lua_check_shape(L, 1)->radius);
    return 1;
}

static int shape_index(lua_State *L)
{
    imp_shape *s = imp_lua_check_shape(L, 1);
    const char *k = luaL_checkstring(L, 2);
    if (strcmp(k, "kind") == 0) {
        lua_pushstring(L, s->cls->name);
    } else if (strcmp(k, "dim") == 0) {
        lua_pushinteger(L, s->dim);
    } else {
        lua_getfield(L, lua_upvalueindex(1), k);
    }
    return 1;
}

void imp_lua_open_shape(lua_State *L)
{
    static const luaL_Reg methods[] = {
        {"area", shape_area},       {"volume", shape_volume},   {"centroid", shape_centroid},
        {"mass", shape_mass},       {"inertia", shape_inertia}, {"bounds", shape_bounds},
        {"bounding_radius", shape_bounding_radius},             {NULL, NULL}};
    if (luaL_newmetatable(L, IMP_SHAPE_MT)) {
        lua_pushcfunction(L, shape_gc);
        lua_setfield(L, -2, "__gc");
        lua_pushcfunction(L, shape_tostring);
        lua_setfield(L, -2, "__tostring");
        luaL_newlib(L, methods);
        lua_pushvalue(L, -1);  /* the metatable's field methods: shape2d.lua adds the 2D ones */
        lua_setfield(L, -3, "methods");
        lua_pushcclosure(L, shape_index, 1);
        lua_setfield(L, -2, "__index");
    }
    lua_pop(L, 1);
    imp_lua_open_shape2d(L);
    imp_lua_open_shape3d(L);
}
