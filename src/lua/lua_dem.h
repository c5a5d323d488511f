/* lua_dem.h: the dem strategy's Lua binding (lua_dem.c): core.dem_* engine functions and the
   World methods interactions, erase_interaction, p_wave_dt, unbalanced_force, dem_energy,
   dem_stats. */
#ifndef IMPACT_LUA_DEM_H
#define IMPACT_LUA_DEM_H

#include "lua_util.h"

/* Registers into the core table at the top of the stack (after imp_lua_open_world). */
void imp_lua_open_dem(lua_State *L);
/* core.dem_export / core.dem_import (lua_dem_state.c), registered by imp_lua_open_dem. */
void imp_lua_open_dem_state(lua_State *L);
/* core.dem_measure / core.dem_take_dt_warning (lua_dem_measure.c), registered by imp_lua_open_dem. */
void imp_lua_open_dem_measure(lua_State *L);
/* core.dem_set_cell / dem_clear_cell / dem_cell (lua_dem_cell.c), registered by imp_lua_open_dem. */
void imp_lua_open_dem_cell(lua_State *L);
/* core.dem_domain_* (lua_dem_domain.c: several ranks), registered by imp_lua_open_dem. */
void imp_lua_open_dem_domain(lua_State *L);

#endif
