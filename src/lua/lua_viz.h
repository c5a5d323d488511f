/* lua_viz.h: registration hooks of the picture and export bindings (outlines and meshes,
   cairo rendering), called by luaopen_impact_core with the module table on top. */
#ifndef IMPACT_LUA_VIZ_H
#define IMPACT_LUA_VIZ_H

#include <lua.h>

void imp_lua_open_outline(lua_State *L); /* lua_outline.c: shape_outline, shape_mesh */
void imp_lua_open_canvas(lua_State *L);  /* lua_canvas.c: render_png, read_png, clock */

#endif
