/* lua_engine3d.h: the Lua side of the 3D engine of the impulse and contact strategies
   (engine3d.h), called from the methods shared with 2D worlds (lua_engine2d.c, lua_material.c):
   w:contacts(), w:set_pair{...} and the refusal of the 2D connector methods in 3D worlds. */
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

/* Raises, naming the method `what`, when w is a 3D world: joints, ropes and rods are 2D only. */
void imp_lua_engine3d_no_connectors(lua_State *L, const imp_world *w, const char *what);

#endif
