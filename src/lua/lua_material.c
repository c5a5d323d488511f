/* lua_material.c: the bridge between the Lua palette (lua/impact/material.lua, kept in the
   Lua registry) and a world's material table; contact events and current contacts. */
#include <string.h>

#include "lua_engine3d.h"
#include "lua_world.h"

#define REGISTRY_KEY "impact.materials"

/* core.material_registry(tbl): the palette table {materials =, pairs =, version =} */
static int l_material_registry(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, REGISTRY_KEY);
    return 0;
}

/* pushes registry[field] (a table) */
static void push_registry_table(lua_State *L, const char *field)
{
    lua_getfield(L, LUA_REGISTRYINDEX, REGISTRY_KEY);
    if (!lua_istable(L, -1)) {
        imp_raise(L, "the material palette is not loaded (require \"impact\")");
    }
    lua_getfield(L, -1, field);
    lua_remove(L, -2);
}

static lua_Integer registry_version(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, REGISTRY_KEY);
    lua_Integer v = -1;
    if (lua_istable(L, -1)) {
        lua_getfield(L, -1, "version");
        v = lua_tointeger(L, -1);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return v;
}

static double field_number(lua_State *L, int idx, const char *k, double def)
{
    lua_getfield(L, idx, k);
    double v = lua_isnumber(L, -1) ? lua_tonumber(L, -1) : def;
    lua_pop(L, 1);
    return v;
}

/* Looks up every pair of the world's materials in the palette. */
static void resolve_pairs(lua_State *L, world_ud *u)
{
    imp_material_table *t = &u->w->model.materials;
    push_registry_table(L, "pairs");
    for (int i = 0; i < t->n; i++) {
        for (int j = i; j < t->n; j++) {
            const char *a = t->items[i].name, *b = t->items[j].name;
            if (strcmp(a, b) > 0) {
                const char *s = a;
                a = b;
                b = s;
            }
            lua_pushfstring(L, "%s|%s", a, b);
            lua_gettable(L, -2);
            imp_pair_material pm;
            memset(&pm, 0, sizeof pm);
            if (lua_istable(L, -1)) {
                int e = lua_gettop(L);
                pm.defined = 1;
                pm.cor = field_number(L, e, "cor", 0.0);
                pm.mu_k = field_number(L, e, "mu_k", 0.0);
                pm.mu_r = field_number(L, e, "mu_r", 0.0);
                pm.vsmall = field_number(L, e, "vsmall", 0.01);
                pm.wsmall = field_number(L, e, "wsmall", 0.01);
            }
            lua_pop(L, 1);
            imp_materials_set_pair(t, i, j, &pm);
        }
    }
    lua_pop(L, 1);
    u->material_version = registry_version(L);
}

int imp_lua_world_material(lua_State *L, int world_idx, int name_idx, const char *what,
                           double *density)
{
    world_ud *u = luaL_checkudata(L, world_idx, IMP_WORLD_MT);
    const char *name = lua_tostring(L, name_idx);
    push_registry_table(L, "materials");
    lua_getfield(L, -1, name);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        int materials = lua_gettop(L);
        lua_newtable(L);
        int names = lua_gettop(L);
        lua_Integer n = 0;
        lua_pushnil(L);
        while (lua_next(L, materials) != 0) {
            lua_pop(L, 1);
            lua_pushvalue(L, -1);
            lua_rawseti(L, names, ++n);
        }
        lua_getglobal(L, "table");
        lua_getfield(L, -1, "sort");
        lua_pushvalue(L, names);
        lua_call(L, 1, 0);
        lua_getfield(L, -1, "concat");
        lua_pushvalue(L, names);
        lua_pushliteral(L, ", ");
        lua_call(L, 2, 1);
        return imp_error(L, what, "unknown material \"%s\" (known: %s)", name, lua_tostring(L, -1));
    }
    int m = lua_gettop(L);
    double E = field_number(L, m, "E", 0.0), nu = field_number(L, m, "nu", 0.0);
    *density = field_number(L, m, "density", 1.0);
    lua_pop(L, 2);
    int index = imp_materials_put(&u->w->model.materials, name, E, nu, *density);
    if (index < 0) {
        return imp_raise(L, "%s: out of memory", what);
    }
    resolve_pairs(L, u);
    return index;
}

void imp_lua_world_sync_materials(lua_State *L, int world_idx)
{
    world_ud *u = luaL_checkudata(L, world_idx, IMP_WORLD_MT);
    if (u->w->model.materials.n > 0 && registry_version(L) != u->material_version) {
        resolve_pairs(L, u);
    }
}

static void push_event_kind(lua_State *L, imp_event_kind k)
{
    lua_pushstring(L, k == IMP_EVENT_CONTACT_BEGIN ? "contact_begin"
                      : k == IMP_EVENT_COLLISION   ? "collision"
                      : k == IMP_EVENT_SLEEP       ? "sleep"  /* sleeping (islands.h) */
                      : k == IMP_EVENT_WAKE        ? "wake"
                                                   : "contact_end");
}

/* World:_events(): the events of the last step, as tables */
static int l_events(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    lua_createtable(L, w->data.nevents, 0);
    for (int i = 0; i < w->data.nevents; i++) {
        const imp_event *e = &w->data.events[i];
        lua_createtable(L, 0, 8);
        push_event_kind(L, e->kind);
        lua_setfield(L, -2, "kind");
        lua_pushnumber(L, e->time);
        lua_setfield(L, -2, "time");
        imp_lua_push_body(L, 1, e->body1);
        lua_setfield(L, -2, "body1");
        imp_lua_push_body(L, 1, e->body2);
        lua_setfield(L, -2, "body2");
        imp_push_vector(L, e->point, w->model.def.dim);
        lua_setfield(L, -2, "point");
        imp_push_vector(L, e->normal, w->model.def.dim);
        lua_setfield(L, -2, "normal");
        if (e->kind == IMP_EVENT_CONTACT_BEGIN || e->kind == IMP_EVENT_COLLISION) {
            lua_pushnumber(L, e->value);
            lua_setfield(L, -2, "normal_velocity");
        }
        if (e->kind == IMP_EVENT_CONTACT_BEGIN && e->overlap > 0.0) {  /* compliant: a warning */
            lua_pushnumber(L, e->overlap);
            lua_setfield(L, -2, "overlap");
        }
        if (e->kind == IMP_EVENT_COLLISION) {  /* engine2d */
            lua_pushnumber(L, e->impulse);
            lua_setfield(L, -2, "impulse");
        }
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* World:contacts(): the pairs in contact now, with point, normal, distance and normal force */
static int l_contacts(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    imp_world_sync(w);
    if (imp_world_strategy_has(w, IMP_STRATEGY_COLLISIONS)) {
        return w->model.def.dim == 3 ? imp_lua_engine3d_contacts(L)  /* lua_engine3d.c */
                               : imp_lua_engine2d_contacts(L); /* lua_engine2d.c */
    }
    const imp_compliant *c = w->compliant;
    int n = (w->model.def.strategy == IMP_STRATEGY_COMPLIANT && c != NULL && c->initialized) ? c->ncontact : 0;
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        const imp_centry *e = &c->contact[i];
        const imp_cpair *p = &c->pairs[e->pair];
        imp_proximity g;
        imp_proximity_query(w->model.bodies[p->a].shape, w->data.y + (size_t)p->a * (size_t)w->model.stride,
                            w->model.bodies[p->b].shape, w->data.y + (size_t)p->b * (size_t)w->model.stride, &g);
        double mid[3];
        for (int k = 0; k < 3; k++) {
            mid[k] = 0.5 * (g.point_a[k] + g.point_b[k]);
        }
        lua_createtable(L, 0, 7);
        imp_lua_push_body(L, 1, p->a);
        lua_setfield(L, -2, "body1");
        imp_lua_push_body(L, 1, p->b);
        lua_setfield(L, -2, "body2");
        imp_push_vector(L, mid, w->model.def.dim);
        lua_setfield(L, -2, "point");
        imp_push_vector(L, g.normal, w->model.def.dim);
        lua_setfield(L, -2, "normal");
        lua_pushnumber(L, g.distance);
        lua_setfield(L, -2, "distance");
        lua_pushnumber(L, imp_compliant_entry_force(w, w->data.y, e));
        lua_setfield(L, -2, "force");
        lua_pushnumber(L, e->ddelta_minus);
        lua_setfield(L, -2, "normal_velocity");
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

void imp_lua_open_material(lua_State *L)
{
    lua_pushcfunction(L, l_material_registry);
    lua_setfield(L, -2, "material_registry");
}

/* World:_contact_events(on): whether the steps build contact events (world.lua's World:on and
   World:off turn them on while a contact_begin, contact_end or collision handler is there;
   a new world has them off, imp_world_set_contact_events). Not guarded: it sets a flag and
   calls no Lua, so it may run while a method of the world runs (the step reads the flag at its
   end); on a closed world it does nothing (a closed world builds no events) */
static int l_contact_events(lua_State *L)
{
    world_ud *u = luaL_checkudata(L, 1, IMP_WORLD_MT);
    luaL_checktype(L, 2, LUA_TBOOLEAN);
    if (imp_lua_world_open(u)) {
        imp_world_set_contact_events(u->w, lua_toboolean(L, 2));
    }
    return 0;
}

const luaL_Reg imp_lua_contact_methods[] = {{"_events", l_events}, {"contacts", l_contacts}, {NULL, NULL}};
const luaL_Reg imp_lua_event_flag_methods[] = {{"_contact_events", l_contact_events}, {NULL, NULL}};
