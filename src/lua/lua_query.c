/* lua_query.c: geometric queries between the bodies of a world: w:distance(a, b). */
#include "lua_world.h"
#include "proximity.h"

/* World:distance(a, b): the signed distance between two bodies (negative when they
   penetrate), the unit normal from a towards b, the closest (or deepest) point of each. */
static int l_distance(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    imp_body_id a = imp_lua_check_body_of(L, 2, w, "World:distance", "argument #1");
    imp_body_id b = imp_lua_check_body_of(L, 3, w, "World:distance", "argument #2");
    const imp_body *ba = imp_world_body(w, a), *bb = imp_world_body(w, b);
    if (ba->shape == NULL || bb->shape == NULL) {
        return imp_raise(L, "World:distance: both bodies need a shape");
    }
    if (a.slot == b.slot) {
        return imp_raise(L, "World:distance: the two bodies must be different");
    }
    imp_proximity p;
    if (imp_proximity_query(ba->shape, imp_world_body_state_read(w, a), bb->shape,
                            imp_world_body_state_read(w, b), &p) != 0) {
        return imp_raise(L, "World:distance: no distance between a %s and a %s",
                          ba->shape->cls->name, bb->shape->cls->name);
    }
    int dim = w->model.def.dim;
    lua_pushnumber(L, p.distance);
    imp_push_vector(L, p.normal, dim);
    imp_push_vector(L, p.point_a, dim);
    imp_push_vector(L, p.point_b, dim);
    return 4;
}

const luaL_Reg imp_lua_query_methods[] = {{"distance", l_distance}, {NULL, NULL}};
