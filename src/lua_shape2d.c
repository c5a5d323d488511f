/* lua_shape2d.c: constructors of 2D shapes (impact.shape2d.* in the Lua front). */
#include "lua_util.h"
#include "shape2d_basic.h"

static int l_ball(lua_State *L)
{
    static const char *const keys[] = {"radius", NULL};
    const char *what = "impact.shape2d.ball";
    luaL_checktype(L, 1, LUA_TTABLE);
    imp_opt_check_keys(L, 1, what, keys);
    double r = imp_opt_number(L, 1, what, "radius", 0.5, IMP_POSITIVE, NULL);
    imp_lua_push_shape(L, imp_shape2d_circle(r));
    return 1;
}

static int l_block(lua_State *L)
{
    static const char *const keys[] = {"width", "height", NULL};
    const char *what = "impact.shape2d.block";
    luaL_checktype(L, 1, LUA_TTABLE);
    imp_opt_check_keys(L, 1, what, keys);
    double w = imp_opt_number(L, 1, what, "width", 1.0, IMP_POSITIVE, NULL);
    double h = imp_opt_number(L, 1, what, "height", 1.0, IMP_POSITIVE, NULL);
    imp_lua_push_shape(L, imp_shape2d_rectangle(w, h));
    return 1;
}

void imp_lua_open_shape2d(lua_State *L)
{
    static const luaL_Reg fns[] = {{"shape2d_ball", l_ball}, {"shape2d_block", l_block}, {NULL, NULL}};
    luaL_setfuncs(L, fns, 0);
}
