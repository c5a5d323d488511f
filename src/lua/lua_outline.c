/* lua_outline.c: shape outlines (2D) and surface meshes (3D) for Lua, from outline.h.

   core.shape_outline(shape) -> { {"move", x, y}, {"line", x, y},
                                  {"arc", cx, cy, r, a0, a1}, {"close"}, ... }
   core.shape_mesh(shape)    -> "point", radius
                              | "surface", { vertices = {{x, y, z}, ...}, faces = {{i, j, k, l}, ...} }
   Coordinates are shape coordinates; mesh indices are 1-based. A kind with no outline or mesh
   raises an error naming it. */
#include <stdlib.h>

#include "lua_util.h"
#include "lua_viz.h"
#include "outline.h"

static void push_numbers(lua_State *L, const char *op, const double *v, int n)
{
    lua_createtable(L, n + 1, 0);
    lua_pushstring(L, op);
    lua_rawseti(L, -2, 1);
    for (int i = 0; i < n; i++) {
        lua_pushnumber(L, v[i]);
        lua_rawseti(L, -2, i + 2);
    }
}

static int l_shape_outline(lua_State *L)
{
    imp_shape *s = imp_lua_check_shape(L, 1);
    int n = imp_shape2d_outline(s, NULL, 0);
    if (n < 0) {
        return imp_raise(L, "impact.core.shape_outline: no outline for a %dD %s shape", s->dim,
                          s->cls->name);
    }
    imp_path_cmd *cmds = lua_newuserdatauv(L, (size_t)n * sizeof *cmds, 0);
    imp_shape2d_outline(s, cmds, n);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        const imp_path_cmd *c = &cmds[i];
        double v[5];
        switch (c->op) {
        case IMP_PATH_MOVE:
        case IMP_PATH_LINE:
            v[0] = c->x, v[1] = c->y;
            push_numbers(L, c->op == IMP_PATH_MOVE ? "move" : "line", v, 2);
            break;
        case IMP_PATH_ARC:
            v[0] = c->cx, v[1] = c->cy, v[2] = c->r, v[3] = c->a0, v[4] = c->a1;
            push_numbers(L, "arc", v, 5);
            break;
        default:
            push_numbers(L, "close", v, 0);
            break;
        }
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int l_shape_mesh(lua_State *L)
{
    imp_shape *s = imp_lua_check_shape(L, 1);
    imp_mesh m = {0, 0, 0, NULL, NULL, NULL, 0.0};
    imp_mesh_kind kind = imp_shape3d_mesh(s, &m);
    if (kind == IMP_MESH_NONE) {
        return imp_raise(L, "impact.core.shape_mesh: no mesh for a %dD %s shape", s->dim,
                          s->cls->name);
    }
    if (kind == IMP_MESH_POINT) {
        lua_pushliteral(L, "point");
        lua_pushnumber(L, m.radius);
        return 2;
    }
    /* buffers owned by Lua userdata, so an error while building the tables cannot leak */
    m.verts = lua_newuserdatauv(L, (size_t)m.nverts * 3 * sizeof(double), 0);
    m.face_sizes = lua_newuserdatauv(L, (size_t)(m.nfaces + m.nindices) * sizeof(int), 0);
    m.indices = m.face_sizes + m.nfaces;
    imp_shape3d_mesh(s, &m);
    lua_pushliteral(L, "surface");
    lua_createtable(L, 0, 2);
    lua_createtable(L, m.nverts, 0);
    for (int i = 0; i < m.nverts; i++) {
        imp_push_vector(L, m.verts + 3 * i, 3);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "vertices");
    lua_createtable(L, m.nfaces, 0);
    for (int f = 0, k = 0; f < m.nfaces; f++) {
        lua_createtable(L, m.face_sizes[f], 0);
        for (int j = 0; j < m.face_sizes[f]; j++, k++) {
            lua_pushinteger(L, m.indices[k] + 1);
            lua_rawseti(L, -2, j + 1);
        }
        lua_rawseti(L, -2, f + 1);
    }
    lua_setfield(L, -2, "faces");
    return 2;
}

void imp_lua_open_outline(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"shape_outline", l_shape_outline}, {"shape_mesh", l_shape_mesh}, {NULL, NULL}};
    luaL_setfuncs(L, fns, 0);
}
