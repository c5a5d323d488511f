/* lua_shape3d.c: constructors of 3D shapes (impact.shape3d.* in the Lua front). */
#include "lua_util.h"
#include "shape3d_basic.h"

static int l_sphere(lua_State *L)
{
    static const char *const keys[] = {"radius", NULL};
    const char *what = "impact.shape3d.sphere";
    luaL_checktype(L, 1, LUA_TTABLE);
    imp_opt_check_keys(L, 1, what, keys);
    double r = imp_opt_number(L, 1, what, "radius", 0.5, IMP_POSITIVE, NULL);
    imp_lua_push_shape(L, imp_shape3d_sphere(r));
    return 1;
}

static int l_box(lua_State *L)
{
    static const char *const keys[] = {"size", NULL};
    const char *what = "impact.shape3d.box";
    double size[3] = {1.0, 1.0, 1.0};
    luaL_checktype(L, 1, LUA_TTABLE);
    imp_opt_check_keys(L, 1, what, keys);
    lua_getfield(L, 1, "size");
    int t = lua_type(L, -1);
    lua_pop(L, 1);
    if (t == LUA_TNUMBER) {
        size[0] = size[1] = size[2] = imp_opt_number(L, 1, what, "size", 1.0, IMP_POSITIVE, NULL);
    } else {
        imp_opt_vector(L, 1, what, "size", 3, size);
    }
    for (int i = 0; i < 3; i++) {
        if (!(size[i] > 0.0)) {
            lua_pushnumber(L, size[i]);
            imp_error(L, what, "option 'size' must be positive, element %d is %s", i + 1,
                      imp_describe(L, -1));
        }
    }
    imp_lua_push_shape(L, imp_shape3d_box(size[0], size[1], size[2]));
    return 1;
}

void imp_lua_open_shape3d(lua_State *L)
{
    static const luaL_Reg fns[] = {{"shape3d_sphere", l_sphere}, {"shape3d_box", l_box}, {NULL, NULL}};
    luaL_setfuncs(L, fns, 0);
}
