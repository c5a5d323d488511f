/* lua_motion.c: kinematic bodies moved by a Lua function of time (option 'motion'): before
   each step the function gives the pose at the step's end, which the step reaches with the
   secant velocity (imp_body_set_target: the velocity is the pose's difference over dt, so
   contacts see the motion's average velocity over the step). */
#include <string.h>

#include "lua_world.h"
#include "quat.h"

/* the value at idx (a result of the motion function) as n numbers into out */
static void numbers(lua_State *L, int idx, const char *what, const char *label, const char *name,
                    int lo, int hi, double *out, int *got)
{
    if (!lua_istable(L, idx)) {
        imp_error(L, what, "the motion function of body %s must return %s, got %s", label, name,
                  imp_describe(L, idx));
    }
    lua_Integer len = luaL_len(L, idx);
    if (len < lo || len > hi) {
        imp_error(L, what, "the motion function of body %s must return %s, got a table of %I "
                  "numbers", label, name, (LUAI_UACINT)len);
    }
    for (int i = 0; i < (int)len; i++) {
        lua_geti(L, idx, i + 1);
        int ok = lua_type(L, -1) == LUA_TNUMBER;
        out[i] = lua_tonumber(L, -1);
        if (!ok || !isfinite(out[i])) {
            imp_error(L, what, "the motion function of body %s must return %s; item %d is %s",
                      label, name, i + 1, imp_describe(L, -1));
        }
        lua_pop(L, 1);
    }
    *got = (int)len;
}

void imp_lua_motion_pose(lua_State *L, int fn_idx, double t, int dim, const char *what,
                         const char *label, const double *current, double *pose)
{
    int top = lua_gettop(L);
    lua_pushvalue(L, fn_idx);
    lua_pushnumber(L, t);
    if (lua_pcall(L, 1, 2, 0) != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        imp_error(L, what, "the motion function of body %s failed at t = %f: %s", label, t,
                  msg != NULL ? msg : imp_describe(L, -1));
    }
    int n = dim == 2 ? 3 : 7, got;
    memcpy(pose, current, (size_t)n * sizeof *pose);
    if (dim == 2) {
        numbers(L, top + 1, what, label, "{x, y} or {x, y, angle}", 2, 3, pose, &got);
    } else {
        numbers(L, top + 1, what, label, "a position {x, y, z} (and an orientation {w, x, y, z})",
                3, 3, pose, &got);
        if (!lua_isnil(L, top + 2)) {
            numbers(L, top + 2, what, label, "an orientation {w, x, y, z} as its second result",
                    4, 4, pose + 3, &got);
            imp_quat q = imp_q(pose[3], pose[4], pose[5], pose[6]);
            double norm = imp_q_norm(q);
            if (!(norm > 0.0) || !isfinite(norm)) {
                imp_error(L, what, "the motion function of body %s must return a nonzero "
                          "orientation quaternion", label);
            }
            q = imp_q_normalize(q);
            pose[3] = q.w, pose[4] = q.x, pose[5] = q.y, pose[6] = q.z;
        }
    }
    lua_settop(L, top);
}

void imp_lua_set_motion(lua_State *L, int world_idx, int slot, int fn_idx)
{
    lua_getiuservalue(L, world_idx, WORLD_UV_MOTIONS);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setiuservalue(L, world_idx, WORLD_UV_MOTIONS);
    }
    if (fn_idx > 0) {
        lua_pushvalue(L, fn_idx);
    } else {
        lua_pushnil(L);
    }
    lua_rawseti(L, -2, slot);
    lua_pop(L, 1);
}

void imp_lua_drive_motions(lua_State *L, int world_idx)
{
    world_idx = lua_absindex(L, world_idx);
    imp_world *w = imp_lua_check_world(L, world_idx);
    if (w->model.nkinematic == 0) {
        return;
    }
    if (lua_getiuservalue(L, world_idx, WORLD_UV_MOTIONS) != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    int motions = lua_gettop(L);
    double t1 = w->data.time_base + (double)(w->data.steps_since_base + 1) * w->model.def.dt;
    for (int s = 1; s < w->model.nslots; s++) {
        const imp_body *b = &w->model.bodies[s];
        if (!b->active || !b->kinematic) {
            continue;
        }
        if (lua_rawgeti(L, motions, s) == LUA_TNIL) {
            lua_pop(L, 1);
            continue;
        }
        int fn = lua_gettop(L);
        const char *label = imp_lua_body_label(L, world_idx, s);
        imp_body_id id = {s, b->generation};
        double pose[7];
        imp_lua_motion_pose(L, fn, t1, w->model.def.dim, "World:step", label,
                            imp_world_body_state_read(w, id), pose);
        if (w->model.bodies[s].active && w->model.bodies[s].generation == id.generation
            && imp_body_set_target(w, id, pose) != IMP_OK) {
            imp_error(L, "World:step", "body %s: %s", label, imp_world_error(w));
        }
        lua_settop(L, motions);
    }
    lua_pop(L, 1);
}
