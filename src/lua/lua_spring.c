/* lua_spring.c: springs between points of two bodies (or a body and the background):
   w:add_spring{body1 =, point1 =, body2 =, point2 =, rest_length =, stiffness =, damping =}.
   Points are in each body's frame (centre of mass at the origin); for the background, in the
   world frame. The tension is k (L - L0) + c dL/dt along the line between the points. */
#include <string.h>

#include "forces.h"
#include "lua_world.h"

static imp_spring *check_spring(lua_State *L, int idx, imp_world **w)
{
    spring_ud *u = luaL_checkudata(L, idx, IMP_SPRING_MT);
    lua_getiuservalue(L, idx, 1);
    world_ud *wu = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (!imp_lua_world_open(wu)) {
        imp_raise(L, "this spring's world is closed");
    }
    imp_spring *sp = imp_world_spring(wu->w, u->id);
    if (sp == NULL) {
        imp_raise(L, "this spring was removed from its world");
    }
    *w = wu->w;
    return sp;
}

int imp_lua_world_add_spring(lua_State *L)
{
    static const char *const keys[] = {"body1", "point1", "body2", "point2", "rest_length",
                                       "stiffness", "damping", NULL};
    const char *what = "World:add_spring";
    imp_world *w = imp_lua_check_world(L, 1);
    imp_world_sync(w);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    imp_opt_check_keys(L, 2, what, keys);
    imp_spring_def d;
    memset(&d, 0, sizeof d);
    lua_getfield(L, 2, "body1");
    d.body1 = imp_lua_check_body_of(L, 3, w, what, "option 'body1'");
    lua_getfield(L, 2, "body2");
    d.body2 = imp_lua_check_body_of(L, 4, w, what, "option 'body2'");
    if (d.body1.slot == d.body2.slot) {
        return imp_error(L, what, "options 'body1' and 'body2' must be different bodies");
    }
    imp_opt_vector(L, 2, what, "point1", w->model.def.dim, d.point1);
    imp_opt_vector(L, 2, what, "point2", w->model.def.dim, d.point2);
    d.stiffness = imp_opt_number(L, 2, what, "stiffness", 0.0, IMP_NONNEGATIVE, NULL);
    d.damping = imp_opt_number(L, 2, what, "damping", 0.0, IMP_NONNEGATIVE, NULL);
    int has_rest;
    d.rest_length = imp_opt_number(L, 2, what, "rest_length", 0.0, IMP_NONNEGATIVE, &has_rest);
    if (!has_rest) {  /* default: the current distance, so the spring starts relaxed */
        double p1[3], p2[3], v[3];
        imp_point_world(w, w->data.y, d.body1.slot, d.point1, p1, v);
        imp_point_world(w, w->data.y, d.body2.slot, d.point2, p2, v);
        d.rest_length = sqrt((p2[0] - p1[0]) * (p2[0] - p1[0]) + (p2[1] - p1[1]) * (p2[1] - p1[1])
                             + (p2[2] - p1[2]) * (p2[2] - p1[2]));
        if (!isfinite(d.rest_length)) {
            return imp_error(L, what, "the distance between the points is not finite (%s); give "
                             "'rest_length' or points closer together", imp_push_g(L, d.rest_length));
        }
    }
    imp_spring_id id = imp_world_add_spring(w, &d);
    if (id.index < 0) {
        return imp_error(L, what, "%s", imp_world_error(w));
    }
    spring_ud *u = lua_newuserdatauv(L, sizeof *u, 1);
    u->id = id;
    luaL_setmetatable(L, IMP_SPRING_MT);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    lua_getiuservalue(L, 1, WORLD_UV_SPRINGS);
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, id.index);
    lua_pop(L, 1);
    return 1;
}

int imp_lua_world_remove_spring(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    imp_world *sw;
    check_spring(L, 2, &sw);
    if (sw != w) {
        return imp_raise(L, "World:remove_spring: the spring belongs to another world");
    }
    spring_ud *u = lua_touserdata(L, 2);
    imp_world_remove_spring(w, u->id);
    lua_getiuservalue(L, 1, WORLD_UV_SPRINGS);
    lua_pushnil(L);
    lua_rawseti(L, -2, u->id.index);
    return 0;
}

static int l_spring_index(lua_State *L)
{
    imp_world *w;
    imp_spring *sp = check_spring(L, 1, &w);
    const char *k = luaL_checkstring(L, 2);
    double p1[3], p2[3], v1[3], v2[3];
    imp_world_sync(w);
    imp_point_world(w, w->data.y, sp->def.body1.slot, sp->def.point1, p1, v1);
    imp_point_world(w, w->data.y, sp->def.body2.slot, sp->def.point2, p2, v2);
    double len = sqrt((p2[0] - p1[0]) * (p2[0] - p1[0]) + (p2[1] - p1[1]) * (p2[1] - p1[1])
                      + (p2[2] - p1[2]) * (p2[2] - p1[2]));
    if (strcmp(k, "rest_length") == 0) {
        lua_pushnumber(L, sp->def.rest_length);
    } else if (strcmp(k, "stiffness") == 0) {
        lua_pushnumber(L, sp->def.stiffness);
    } else if (strcmp(k, "damping") == 0) {
        lua_pushnumber(L, sp->def.damping);
    } else if (strcmp(k, "length") == 0) {
        lua_pushnumber(L, len);
    } else if (strcmp(k, "energy") == 0) {
        double s = len - sp->def.rest_length;
        lua_pushnumber(L, 0.5 * sp->def.stiffness * s * s);
    } else if (strcmp(k, "body1") == 0 || strcmp(k, "body2") == 0) {
        lua_getiuservalue(L, 1, 1);
        imp_lua_push_body(L, lua_gettop(L), k[4] == '1' ? sp->def.body1.slot : sp->def.body2.slot);
    } else if (strcmp(k, "point1") == 0 || strcmp(k, "point2") == 0) {
        imp_push_vector(L, k[5] == '1' ? p1 : p2, w->model.def.dim);
    } else {
        return 0;
    }
    return 1;
}

static int l_spring_newindex(lua_State *L)
{
    imp_world *w;
    imp_spring *sp = check_spring(L, 1, &w);
    const char *k = luaL_checkstring(L, 2);
    double v = lua_tonumber(L, 3);
    double *field = strcmp(k, "rest_length") == 0 ? &sp->def.rest_length
                  : strcmp(k, "stiffness") == 0   ? &sp->def.stiffness
                  : strcmp(k, "damping") == 0     ? &sp->def.damping
                                                  : NULL;
    if (field == NULL) {
        return imp_raise(L, "Spring: '%s' cannot be set (settable: rest_length, stiffness, "
                             "damping)", k);
    }
    if (lua_type(L, 3) != LUA_TNUMBER || !(v >= 0.0) || !isfinite(v)) {
        return imp_raise(L, "Spring.%s must be a finite number >= 0, got %s", k, imp_describe(L, 3));
    }
    *field = v;
    return 0;
}

void imp_lua_open_spring(lua_State *L)
{
    static const luaL_Reg reading[] = {{"__index", l_spring_index}, {NULL, NULL}};
    static const luaL_Reg changing[] = {{"__newindex", l_spring_newindex}, {NULL, NULL}};
    if (luaL_newmetatable(L, IMP_SPRING_MT)) {
        imp_lua_set_guarded(L, reading, "Spring.", IMP_ON_SPRING, IMP_SHARED);
        imp_lua_set_guarded(L, changing, "Spring.", IMP_ON_SPRING, IMP_EXCLUSIVE);
    }
    lua_pop(L, 1);
}
