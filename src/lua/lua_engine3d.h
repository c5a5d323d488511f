/* lua_engine3d.h: the Lua side of the 3D engine of the impulse and contact strategies
   (engine3d.h), called from the methods shared with 2D worlds (lua_engine2d.c, lua_material.c):
   w:contacts(), w:set_pair{...} and the 3D connectors (lua_joint3d.c). */
#ifndef IMPACT_LUA_ENGINE3D_H
#define IMPACT_LUA_ENGINE3D_H

#include "lua_util.h"
#include "world_internal.h"

/* World:contacts() in a 3D world under impulse / contact: the contact points of the last step. */
int imp_lua_engine3d_contacts(lua_State *L);

/* World:set_pair in a 3D world, after the shared checks: the coefficients of the pair of slots
   (a, b); a coefficient not given (has_* = 0) keeps the pair's value, else the bodies'. */
int imp_lua_engine3d_set_pair(lua_State *L, imp_world *w, int a, int b, int has_f, double friction,
                              int has_e, double elasticity);

/* The connector methods in 3D worlds (lua_joint3d.c, engine3d_joints.h), called by the shared
   methods of lua_engine2d.c: w:add_joint, w:add_rope, w:remove_connector, w:connector_error
   (the world at index 1, its argument at 2). */
int imp_lua_joint3d_add_joint(lua_State *L, imp_world *w);
int imp_lua_joint3d_add_rope(lua_State *L, imp_world *w);
int imp_lua_joint3d_remove(lua_State *L, imp_world *w);
int imp_lua_joint3d_error(lua_State *L, imp_world *w);

#endif
