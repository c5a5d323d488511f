/* lua_dem_measure.c: the dem measures and the dt warning for the Lua front
   (lua/impact/dem_measure.lua, lua/impact/dem.lua): core.dem_measure, core.dem_take_dt_warning. */
#include "dem.h"
#include "lua_dem.h"
#include "lua_world.h"

static void push_numbers(lua_State *L, const char *key, const double *v, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushnumber(L, v[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, key);
}

/* core.dem_measure(w): {spheres, sphere_contacts, boundary_contacts, solid_volume, lo, hi,
   stress_sum (9, row-major), fabric (9)} */
static int l_measure(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    if (w->model.def.strategy != IMP_STRATEGY_DEM) {
        return luaL_error(L, "the world's strategy is \"%s\", not \"dem\"",
                          imp_strategy_names[w->model.def.strategy]);
    }
    if (imp_dem_sync(w) != IMP_OK) {
        return luaL_error(L, "%s", imp_world_error(w));
    }
    imp_dem_measures m;
    imp_dem_measure(w->dem, &m);
    lua_createtable(L, 0, 8);
    lua_pushinteger(L, m.spheres);
    lua_setfield(L, -2, "spheres");
    lua_pushinteger(L, m.sphere_contacts);
    lua_setfield(L, -2, "sphere_contacts");
    lua_pushinteger(L, m.boundary_contacts);
    lua_setfield(L, -2, "boundary_contacts");
    lua_pushnumber(L, m.solid_volume);
    lua_setfield(L, -2, "solid_volume");
    push_numbers(L, "lo", m.lo, 3);
    push_numbers(L, "hi", m.hi, 3);
    push_numbers(L, "stress_sum", m.stress_sum, 9);
    push_numbers(L, "fabric", m.fabric, 9);
    push_numbers(L, "stiff", m.stiff, 3);
    return 1;
}

/* core.dem_take_dt_warning(w): nil, or the steps counted since the last call whose contacts
   held a sphere with dt above its P-wave step, the largest ratio and that sphere's body;
   the count restarts */
static int l_take_dt_warning(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    imp_dem *d = w->dem;
    if (d == NULL || d->dt_warn_steps == 0) {
        return 0;
    }
    lua_pushinteger(L, d->dt_warn_steps);
    lua_pushnumber(L, d->dt_warn_ratio);
    int slot = d->dt_warn_slot;
    d->dt_warn_steps = 0;
    d->dt_warn_ratio = 0.0;
    if (slot >= 0 && slot < w->model.nslots) {
        imp_lua_push_body(L, 1, slot);
    } else {
        lua_pushnil(L);
    }
    return 3;
}

void imp_lua_open_dem_measure(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"dem_measure", l_measure},
        {"dem_take_dt_warning", l_take_dt_warning},
        {NULL, NULL}};
    luaL_setfuncs(L, fns, 0);
}
