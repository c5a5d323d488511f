/* lua_load.c: loads, forces and torques held on a body from step to step and evaluated at
   every stage of the integrator (loads.c):
   w:add_load{body =, force =, torque =, point =, frame = "world" | "body"} -> Load;
   w:remove_load(load), w:loads(). A Load reads body, force, torque, point, frame, and takes
   new force, torque, point and frame between steps. force and torque may be functions of
   time (a timed load): the core calls back (hook below) at each evaluation of the forces, on
   the thread that steps the world, each call under lua_pcall; a function that fails or
   returns what is not a force fails the step (the world keeps its last good state) and the
   step's error gives its message. */
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

/* the functions' table of the world at world_idx, made when missing, pushed */
static int push_fns(lua_State *L, int world_idx)
{
    if (lua_getiuservalue(L, world_idx, WORLD_UV_LOADS) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setiuservalue(L, world_idx, WORLD_UV_LOADS);
    }
    return lua_gettop(L);
}

/* the result at idx of a load's function as n numbers into out; an error message or NULL */
static const char *result(lua_State *L, int idx, int n, double *out)
{
    if (n == 1) {
        if (lua_type(L, idx) != LUA_TNUMBER || !isfinite(lua_tonumber(L, idx))) {
            return "a finite number";
        }
        out[0] = lua_tonumber(L, idx);
        return NULL;
    }
    if (!lua_istable(L, idx) || luaL_len(L, idx) != n) {
        return n == 2 ? "an array of 2 finite numbers" : "an array of 3 finite numbers";
    }
    for (int k = 0; k < n; k++) {
        lua_geti(L, idx, k + 1);
        int ok = lua_type(L, -1) == LUA_TNUMBER && isfinite(lua_tonumber(L, -1));
        out[k] = lua_tonumber(L, -1);
        lua_pop(L, 1);
        if (!ok) {
            return n == 2 ? "an array of 2 finite numbers" : "an array of 3 finite numbers";
        }
    }
    return NULL;
}

/* imp_load_fn: the load's functions at t (world_ud *ctx) */
static int hook(void *ctx, int index, double t, double force[3], double torque[3])
{
    world_ud *u = ctx;
    lua_State *L = u->load_L;
    if (u->load_failed) {
        return 1;
    }
    if (L == NULL) {  /* (every stepping entry begins with imp_lua_loads_begin) */
        snprintf(u->load_error, sizeof u->load_error, "a load's function was called outside a step");
        u->load_failed = 1;
        return 1;
    }
    int top = lua_gettop(L), dim = u->w->model.def.dim;
    lua_rawgeti(L, u->load_fns, index + 1);
    static const char *const names[] = {"force", "torque"};
    for (int j = 0; j < 2; j++) {
        if (!lua_istable(L, top + 1) || lua_rawgeti(L, top + 1, j + 1) != LUA_TFUNCTION) {
            lua_settop(L, top + 1);
            continue;
        }
        lua_pushnumber(L, t);
        const char *bad = NULL;
        if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
            bad = lua_tostring(L, -1) != NULL ? lua_tostring(L, -1) : "an error that is not a string";
        } else {
            int n = j == 1 && dim == 2 ? 1 : dim;
            double v[3] = {0.0, 0.0, 0.0};
            const char *want = result(L, top + 2, n, v);
            if (want != NULL) {
                bad = lua_pushfstring(L, "it must return %s, got %s", want, imp_describe(L, top + 2));
            } else if (j == 0) {
                memcpy(force, v, sizeof v);
            } else if (dim == 2) {
                torque[2] = v[0];
            } else {
                memcpy(torque, v, sizeof v);
            }
        }
        if (bad != NULL) {
            snprintf(u->load_error, sizeof u->load_error, "the %s function of load #%d failed at "
                     "t = %.17g: %s", names[j], index + 1, t, bad);
            u->load_failed = 1;
            lua_settop(L, top);
            return 1;
        }
        lua_settop(L, top + 1);
    }
    lua_settop(L, top);
    return 0;
}

void imp_lua_loads_begin(lua_State *L, int world_idx)
{
    world_idx = lua_absindex(L, world_idx);
    world_ud *u = luaL_checkudata(L, world_idx, IMP_WORLD_MT);
    u->load_failed = 0;
    u->load_error[0] = '\0';
    u->load_L = L;
    u->load_fns = push_fns(L, world_idx);
}

void imp_lua_loads_end(lua_State *L, int world_idx)
{
    world_ud *u = luaL_checkudata(L, world_idx, IMP_WORLD_MT);
    if (u->load_L == L && u->load_fns > 0) {
        lua_settop(L, u->load_fns - 1);
    }
    u->load_L = NULL;
    u->load_fns = 0;
}

const char *imp_lua_loads_failure(lua_State *L, int world_idx)
{
    world_ud *u = luaL_checkudata(L, world_idx, IMP_WORLD_MT);
    return u->load_failed ? u->load_error : NULL;
}

/* the functions of load index (force at [1], torque at [2]) from the values at fidx, tidx
   (0: keep); sets the load's timed flag */
static void set_fns(lua_State *L, int world_idx, imp_world *w, int index, int fidx, int tidx)
{
    int fns = push_fns(L, world_idx);
    if (lua_rawgeti(L, fns, index + 1) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 2, 0);
        lua_pushvalue(L, -1);
        lua_rawseti(L, fns, index + 1);
    }
    int e = lua_gettop(L);
    int idx[2] = {fidx, tidx};
    for (int j = 0; j < 2; j++) {
        if (idx[j] > 0) {
            if (lua_isfunction(L, idx[j])) {
                lua_pushvalue(L, idx[j]);
            } else {
                lua_pushnil(L);
            }
            lua_rawseti(L, e, j + 1);
        }
    }
    int timed = lua_rawgeti(L, e, 1) == LUA_TFUNCTION;
    timed |= lua_rawgeti(L, e, 2) == LUA_TFUNCTION;
    w->model.loads[index].def.timed = timed;
    if (timed) {
        imp_world_set_load_fn(w, hook, lua_touserdata(L, world_idx));
    }
    lua_settop(L, fns - 1);
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
    lua_getfield(L, 2, "force");  /* 4 */
    int has_force = !lua_isnil(L, 4);
    if (has_force && !lua_isfunction(L, 4)) {
        imp_opt_vector(L, 2, what, "force", dim, d.force);
    }
    lua_getfield(L, 2, "torque");  /* 5 */
    int has_torque = !lua_isnil(L, 5);
    if (has_torque && !lua_isfunction(L, 5)) {
        to_torque(L, 5, what, "option 'torque'", dim, d.torque);
    }
    if (!has_force && !has_torque) {
        return imp_error(L, what, "give option 'force' or 'torque' (or both)");
    }
    imp_opt_vector(L, 2, what, "point", dim, d.point);
    d.body_frame = imp_opt_enum(L, 2, what, "frame", frames, 0);
    imp_load_id id = imp_world_add_load(w, &d);
    if (id.index < 0) {
        return imp_error(L, what, "%s", imp_world_error(w));
    }
    set_fns(L, 1, w, id.index, 4, 5);
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
    lua_pushnil(L);  /* 3: drop its functions */
    set_fns(L, 1, w, u->id.index, 3, 3);
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
    int fn = strcmp(k, "force") == 0 ? 1 : strcmp(k, "torque") == 0 ? 2 : 0;
    if (fn > 0 && l->def.timed) {  /* a function of time, when it is one */
        lua_getiuservalue(L, 1, 1);
        push_fns(L, lua_gettop(L));
        load_ud *u = lua_touserdata(L, 1);
        if (lua_rawgeti(L, -1, u->id.index + 1) == LUA_TTABLE
            && lua_rawgeti(L, -1, fn) == LUA_TFUNCTION) {
            return 1;
        }
        lua_settop(L, 2);
    }
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
    int fn = strcmp(k, "force") == 0 ? 1 : strcmp(k, "torque") == 0 ? 2 : 0;
    if (fn > 0) {  /* a function of time, or a value (which ends the function) */
        lua_settop(L, 3);
        lua_getiuservalue(L, 1, 1);  /* 4: the world */
        load_ud *u = lua_touserdata(L, 1);
        if (lua_isfunction(L, 3)) {
            set_fns(L, 4, w, u->id.index, fn == 1 ? 3 : 0, fn == 2 ? 3 : 0);
            imp_islands_wake(w, l->def.body.slot);
            return 0;
        }
        if (fn == 1) {
            imp_to_vector(L, 3, "Load", "field 'force'", dim, v);
            memcpy(l->def.force, v, sizeof v);
        } else {
            to_torque(L, 3, "Load", "field 'torque'", dim, v);
            memcpy(l->def.torque, v, sizeof v);
        }
        lua_pushnil(L);  /* 5 */
        set_fns(L, 4, w, u->id.index, fn == 1 ? 5 : 0, fn == 2 ? 5 : 0);
        imp_islands_wake(w, l->def.body.slot);
        return 0;
    }
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
