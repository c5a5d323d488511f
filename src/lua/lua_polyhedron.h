/* lua_polyhedron.h: impact.core functions for convex polyhedra (lua_polyhedron.c). */
#ifndef IMPACT_LUA_POLYHEDRON_H
#define IMPACT_LUA_POLYHEDRON_H

#include <lua.h>

/* Registers shape3d_polyhedron, shape3d_faces and shape3d_intersection in the table on top. */
void imp_lua_open_polyhedron(lua_State *L);

#endif
