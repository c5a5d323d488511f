/* lua_world_state.h: the strategies' caches a saved world keeps (lua_world_state_cache.c),
   written and read by lua_world_state.c (core.world_state_export / _import). */
#ifndef IMPACT_LUA_WORLD_STATE_H
#define IMPACT_LUA_WORLD_STATE_H

#include "lua_util.h"
#include "world_internal.h"

/* Sets field "caches" of the table on top of the stack. */
void imp_lua_state_export_caches(lua_State *L, const imp_world *w);
/* Reads field "caches" of the table at t into w (its bodies, definition and engines already
   read); raises naming the field when one is wrong. */
void imp_lua_state_import_caches(lua_State *L, imp_world *w, int t);

#endif
