/* lua_dem_cell.c: the periodic cell for the Lua front (lua/impact/dem_cell.lua):
   core.dem_set_cell(w, h[9], L[9]), core.dem_clear_cell(w), core.dem_cell(w). Matrices are
   row-major arrays of 9 numbers; the front checks the user's input. */
#include "dem.h"
#include "lua_dem.h"
#include "lua_world.h"

static imp_dem *dem_of(lua_State *L, imp_world *w)
{
    if (w->model.def.strategy != IMP_STRATEGY_DEM) {
        luaL_error(L, "the world's strategy is \"%s\", not \"dem\"",
                   imp_strategy_names[w->model.def.strategy]);
    }
    if (imp_dem_sync(w) != IMP_OK) {
        luaL_error(L, "%s", imp_world_error(w));
    }
    return w->dem;
}

static void nine(lua_State *L, int arg, double *m)
{
    luaL_checktype(L, arg, LUA_TTABLE);
    for (int k = 0; k < 9; k++) {
        lua_rawgeti(L, arg, k + 1);
        m[k] = luaL_checknumber(L, -1);
        lua_pop(L, 1);
    }
}

static void push_nine(lua_State *L, const char *key, const double *m)
{
    lua_createtable(L, 9, 0);
    for (int k = 0; k < 9; k++) {
        lua_pushnumber(L, m[k]);
        lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, key);
}

static int l_set_cell(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    double h[9], vg[9];
    nine(L, 2, h);
    nine(L, 3, vg);
    imp_dem *d = dem_of(L, w);
    if (imp_dem_cell_set(d, h, vg) != 0) {
        return luaL_error(L, "%s", d->error);
    }
    imp_dem_store(w);  /* the velocities took the change of the affine field */
    return 0;
}

static int l_clear_cell(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    imp_dem_cell_clear(dem_of(L, w));
    return 0;
}

/* nil without a cell, else {h, h0, vel_grad} */
static int l_cell(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    imp_dem *d = dem_of(L, w);
    if (!d->cell.on) {
        return 0;
    }
    lua_createtable(L, 0, 3);
    push_nine(L, "h", d->cell.h);
    push_nine(L, "h0", d->cell.h0);
    push_nine(L, "vel_grad", d->cell.L);
    return 1;
}

void imp_lua_open_dem_cell(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"dem_set_cell", l_set_cell},
        {"dem_clear_cell", l_clear_cell},
        {"dem_cell", l_cell},
        {NULL, NULL}};
    luaL_setfuncs(L, fns, 0);
}
