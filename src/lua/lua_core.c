/* lua_core.c: luaopen_impact_core, the entry point of the Lua C module impact.core.
   Each binding file contributes its functions through an imp_lua_open_* hook. */
#include <gsl/gsl_errno.h>

#include "lua_dem.h"
#include "lua_viz.h"
#include "lua_world.h"

LUAMOD_API int luaopen_impact_core(lua_State *L);

/* core.set_library_source(prefix): the source prefix of impact's own Lua files ("@./lua/impact/"),
   whose frames errors skip to point at the user's line (lua_util.h, imp_where) */
static int set_library_source(lua_State *L)
{
    imp_set_library_source(L, luaL_checkstring(L, 1));
    return 0;
}

LUAMOD_API int luaopen_impact_core(lua_State *L)
{
    luaL_checkversion(L);
    /* GSL's default handler aborts the process; every GSL status is checked instead. */
    gsl_set_error_handler_off();
    lua_newtable(L);
    imp_lua_open_shape(L);
    imp_lua_open_world(L);
    imp_lua_open_body(L);
    imp_lua_open_spring(L);
    imp_lua_open_load(L);
    imp_lua_open_material(L);
    imp_lua_open_lcp(L);
    imp_lua_open_dem(L);
    imp_lua_open_world_state(L);
    imp_lua_open_outline(L);
    imp_lua_open_canvas(L);
    /* every C method of World not guarded by its file yet (the dem ones), and the dem engine
       functions of core taking the world first, run under the re-entrancy guard (lua_world.h) */
    lua_getfield(L, -1, "World");
    imp_lua_guard_table(L, "World:", "", IMP_ON_WORLD);
    lua_pop(L, 1);
    imp_lua_guard_table(L, "impact.core.", "dem_", IMP_ON_WORLD);
    lua_pushcfunction(L, set_library_source);
    lua_setfield(L, -2, "set_library_source");
    lua_pushliteral(L, "impact.core");
    lua_setfield(L, -2, "_NAME");
    return 1;
}
