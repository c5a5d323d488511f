/* lua_load.c: loads, forces and torques held on a body from step to step and evaluated at
   every stage of the integrator (loads.c):
   w:add_load{body =, force =, torque =, point =, frame = "world" | "body"} -> Load;
   w:remove_load(load), w:loads(). A Load reads body, force, torque, point, frame, and takes
   new force, torque, point and frame between steps. */
#include <math.h>
#include <string.h>

#include "forces.h"
#include "islands.h"
#include "lua_world.h"

static const char *const frames[] = {"world", "body", NULL};

typedef struct load_ud {
    imp_load_id id;
} load_ud;

static imp_load *check_load(lua_State *L, int idx, imp_world **w)
{
    load_ud *u = luaL_checkudata(L, idx, IMP_LOAD_MT);
    lua_getiuservalue(L, idx, 1);
    world_ud *wu = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (!imp_lua_world_open(wu)) {
        imp_raise(L, "this load's world is closed");
    }
    imp_load *l = imp_world_load(wu->w, u->id);
    if (l == NULL) {
        imp_raise(L, "this load was removed from its world (or its body was)");
    }
    *w = wu->w;
    return l;
}

static void push_load(lua_State *L, int world_idx, imp_load_id id)
{
    load_ud *u = lua_newuserdatauv(L, sizeof *u, 1);
    u->id = id;
    luaL_setmetatable(L, IMP_LOAD_MT);
    lua_pushvalue(L, world_idx);
    lua_setiuservalue(L, -2, 1);
}

/* the torque option or value at idx: a number in 2D (about z), 3 numbers in 3D */
static void to_torque(lua_State *L, int idx, const char *what, const char *name, int dim,
                      double t[3])
{
    t[0] = t[1] = t[2] = 0.0;
    if (dim == 3) {
        imp_to_vector(L, idx, what, name, 3, t);
        return;
    }
    if (lua_type(L, idx) != LUA_TNUMBER || !isfinite(lua_tonumber(L, idx))) {
        imp_raise(L, "%s: %s must be a finite number (a 2D torque, about z), got %s", what, name,
                  imp_describe(L, idx));
    }
    t[2] = lua_tonumber(L, idx);
}

int imp_lua_world_add_load(lua_State *L)
{
    static const char *const keys[] = {"body", "force", "torque", "point", "frame", NULL};
    const char *what = "World:add_load";
    imp_world *w = imp_lua_check_world(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    imp_opt_check_keys(L, 2, what, keys);
    int dim = w->model.def.dim;
    imp_load_def d;
    memset(&d, 0, sizeof d);
    lua_getfield(L, 2, "body");
    d.body = imp_lua_check_body_of(L, 3, w, what, "option 'body'");
    if (d.body.slot == 0 || w->model.bodies[d.body.slot].fixed) {
        return imp_error(L, what, "option 'body' must be a body that moves (not fixed, not the "
                         "background), got %s", imp_lua_body_label(L, 1, d.body.slot));
    }
    int has_force = imp_opt_vector(L, 2, what, "force", dim, d.force);
    lua_getfield(L, 2, "torque");
    int has_torque = !lua_isnil(L, -1);
    if (has_torque) {
        to_torque(L, lua_gettop(L), what, "option 'torque'", dim, d.torque);
    }
    lua_pop(L, 1);
    if (!has_force && !has_torque) {
        return imp_error(L, what, "give option 'force' or 'torque' (or both)");
    }
    imp_opt_vector(L, 2, what, "point", dim, d.point);
    d.body_frame = imp_opt_enum(L, 2, what, "frame", frames, 0);
    imp_load_id id = imp_world_add_load(w, &d);
    if (id.index < 0) {
        return imp_error(L, what, "%s", imp_world_error(w));
    }
    push_load(L, 1, id);
    return 1;
}

int imp_lua_world_remove_load(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    imp_world *lw;
    check_load(L, 2, &lw);
    if (lw != w) {
        return imp_raise(L, "World:remove_load: the load belongs to another world");
    }
    load_ud *u = lua_touserdata(L, 2);
    imp_world_remove_load(w, u->id);
    return 0;
}

/* World:loads(): the active loads, in the order they were made (freed entries reused) */
int imp_lua_world_loads(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    lua_newtable(L);
    int n = 0;
    for (int i = 0; i < w->model.nloads; i++) {
        const imp_load *l = &w->model.loads[i];
        if (l->active) {
            imp_load_id id = {i, l->generation};
            push_load(L, 1, id);
            lua_rawseti(L, -2, ++n);
        }
    }
    return 1;
}

static int l_load_index(lua_State *L)
{
    imp_world *w;
    imp_load *l = check_load(L, 1, &w);
    const char *k = luaL_checkstring(L, 2);
    int dim = w->model.def.dim;
    if (strcmp(k, "force") == 0) {
        imp_push_vector(L, l->def.force, dim);
    } else if (strcmp(k, "torque") == 0) {
        if (dim == 2) {
            lua_pushnumber(L, l->def.torque[2]);
        } else {
            imp_push_vector(L, l->def.torque, 3);
        }
    } else if (strcmp(k, "point") == 0) {
        imp_push_vector(L, l->def.point, dim);
    } else if (strcmp(k, "frame") == 0) {
        lua_pushstring(L, frames[l->def.body_frame]);
    } else if (strcmp(k, "body") == 0) {
        lua_getiuservalue(L, 1, 1);
        imp_lua_push_body(L, lua_gettop(L), l->def.body.slot);
    } else {
        return 0;
    }
    return 1;
}

static int l_load_newindex(lua_State *L)
{
    imp_world *w;
    imp_load *l = check_load(L, 1, &w);
    const char *k = luaL_checkstring(L, 2);
    int dim = w->model.def.dim;
    double v[3] = {0.0, 0.0, 0.0};  /* read whole before any is stored */
    if (strcmp(k, "force") == 0) {
        imp_to_vector(L, 3, "Load", "field 'force'", dim, v);
        memcpy(l->def.force, v, sizeof v);
    } else if (strcmp(k, "torque") == 0) {
        to_torque(L, 3, "Load", "field 'torque'", dim, v);
        memcpy(l->def.torque, v, sizeof v);
    } else if (strcmp(k, "point") == 0) {
        imp_to_vector(L, 3, "Load", "field 'point'", dim, v);
        memcpy(l->def.point, v, sizeof v);
    } else if (strcmp(k, "frame") == 0) {
        const char *s = lua_tostring(L, 3);
        if (lua_type(L, 3) != LUA_TSTRING || (strcmp(s, "world") != 0 && strcmp(s, "body") != 0)) {
            return imp_raise(L, "Load.frame must be \"world\" or \"body\", got %s",
                             imp_describe(L, 3));
        }
        l->def.body_frame = strcmp(s, "body") == 0;
    } else {
        return imp_raise(L, "Load: '%s' cannot be set (settable: force, torque, point, frame)", k);
    }
    imp_islands_wake(w, l->def.body.slot);
    return 0;
}

void imp_lua_open_load(lua_State *L)
{
    static const luaL_Reg reading[] = {{"__index", l_load_index}, {NULL, NULL}};
    static const luaL_Reg changing[] = {{"__newindex", l_load_newindex}, {NULL, NULL}};
    if (luaL_newmetatable(L, IMP_LOAD_MT)) {
        imp_lua_set_guarded(L, reading, "Load.", IMP_ON_LOAD, IMP_SHARED);
        imp_lua_set_guarded(L, changing, "Load.", IMP_ON_LOAD, IMP_EXCLUSIVE);
    }
    lua_pop(L, 1);
}
