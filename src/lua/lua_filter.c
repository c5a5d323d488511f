/* lua_filter.c: collision filters of bodies (Box2D's and LOVE's category, mask and group) and
   the pairs excluded by Body:no_collide, over the world's filter.c. */
#include "engine2d.h"
#include "engine2d_edge_range.h"
#include "lua_world.h"
#include "polygon2d.h"

void imp_lua_read_filter(lua_State *L, int idx, const char *what, const char *name, unsigned *cat,
                         unsigned *mask, int *group)
{
    static const char *const keys[] = {"category", "mask", "group", NULL};
    idx = lua_absindex(L, idx);
    *cat = 1u;
    *mask = IMP_FILTER_BITS;
    *group = 0;
    if (lua_isnil(L, idx)) {
        return;
    }
    if (!lua_istable(L, idx)) {
        imp_error(L, what, "%s must be a table {category =, mask =, group =}, got %s", name,
                  imp_describe(L, idx));
    }
    imp_opt_check_nested_keys(L, idx, what, "filter", keys);
    *cat = (unsigned)imp_opt_integer(L, idx, what, "filter.category", 1, 0, IMP_FILTER_BITS);
    *mask = (unsigned)imp_opt_integer(L, idx, what, "filter.mask", IMP_FILTER_BITS, 0, IMP_FILTER_BITS);
    *group = (int)imp_opt_integer(L, idx, what, "filter.group", 0, IMP_FILTER_GROUP_MIN,
                                  IMP_FILTER_GROUP_MAX);
}

void imp_lua_push_filter(lua_State *L, const imp_body *b)
{
    lua_createtable(L, 0, 3);
    lua_pushinteger(L, (lua_Integer)b->category);
    lua_setfield(L, -2, "category");
    lua_pushinteger(L, (lua_Integer)b->mask);
    lua_setfield(L, -2, "mask");
    lua_pushinteger(L, b->group);
    lua_setfield(L, -2, "group");
}

/* Body:set_filter{category =, mask =, group =} */
int imp_lua_body_set_filter(lua_State *L)
{
    const char *what = "Body:set_filter";
    imp_world *w;
    imp_body_id id = imp_lua_check_body(L, 1, &w);
    if (lua_isnoneornil(L, 2)) {
        return imp_error(L, what, "argument #1 must be a table {category =, mask =, group =}, "
                         "got nothing");
    }
    unsigned cat, mask;
    int group;
    imp_lua_read_filter(L, 2, what, "argument #1", &cat, &mask, &group);
    if (imp_body_set_filter(w, id, cat, mask, group) != IMP_OK) {
        return imp_error(L, what, "%s", imp_world_error(w));
    }
    return 0;
}

/* the other body of a pair method: a live body of the same world, not this one */
static imp_body_id other_body(lua_State *L, imp_world *w, imp_body_id id, const char *what)
{
    imp_body_id o = imp_lua_check_body_of(L, 2, w, what, "argument #1");
    if (o.slot == id.slot) {
        imp_error(L, what, "argument #1 is the body itself (a body never collides with itself)");
    }
    return o;
}

static int set_pair(lua_State *L, const char *what, int no_collide)
{
    imp_world *w;
    imp_body_id id = imp_lua_check_body(L, 1, &w);
    imp_body_id o = other_body(L, w, id, what);
    if (imp_world_set_no_collide(w, id, o, no_collide) != IMP_OK) {
        return imp_error(L, what, "%s", imp_world_error(w));
    }
    return 0;
}

/* Body:no_collide(other, {edges = {first, last}}) (2D): the body ignores the other's edges
   first..last (1-based, inclusive: myPhysicsLab's EdgeRange), the rest of the pair collides */
static int no_collide_edges(lua_State *L, imp_world *w, imp_body_id id, imp_body_id o)
{
    static const char *const keys[] = {"edges", NULL};
    const char *what = "Body:no_collide";
    imp_opt_check_keys(L, 3, what, keys);
    if (w->model.def.dim != 2) {
        return imp_error(L, what, "option 'edges' is for 2D bodies (this world is 3D)");
    }
    const imp_poly2d *g = imp_shape2d_poly(imp_world_body(w, o)->shape);
    if (g == NULL) {
        return imp_error(L, what, "option 'edges': argument #1 has no 2D shape with edges");
    }
    lua_getfield(L, 3, "edges");
    int t = lua_gettop(L);
    if (!lua_istable(L, t) || lua_rawlen(L, t) != 2) {
        return imp_error(L, what, "option 'edges' must be {first, last} (edge indices of argument "
                         "#1, 1 to %d), got %s", g->nedges, imp_describe(L, t));
    }
    lua_Integer e[2];
    for (int k = 0; k < 2; k++) {
        lua_rawgeti(L, t, k + 1);
        int ok = 0;
        e[k] = lua_tointegerx(L, -1, &ok);
        if (!ok || e[k] < 1 || e[k] > g->nedges) {
            return imp_error(L, what, "option 'edges[%d]' must be an integer edge index of "
                             "argument #1, 1 to %d, got %s", k + 1, g->nedges, imp_describe(L, -1));
        }
        lua_pop(L, 1);
    }
    if (e[0] > e[1]) {
        return imp_error(L, what, "option 'edges' must be {first, last} with first <= last, got "
                         "{%d, %d}", (int)e[0], (int)e[1]);
    }
    if (imp_engine2d_add_edge_range(w, id.slot, o.slot, (int)e[0] - 1, (int)e[1] - 1) != 0) {
        return imp_error(L, what, "out of memory");
    }
    return 0;
}

/* Body:no_collide(other[, {edges = {first, last}}]): the two never collide, whatever their
   filters; with edges, only those edges of other are ignored by the body */
int imp_lua_body_no_collide(lua_State *L)
{
    if (lua_isnoneornil(L, 3)) {
        return set_pair(L, "Body:no_collide", 1);
    }
    imp_world *w;
    imp_body_id id = imp_lua_check_body(L, 1, &w);
    imp_body_id o = other_body(L, w, id, "Body:no_collide");
    if (!lua_istable(L, 3)) {
        return imp_error(L, "Body:no_collide", "argument #2 must be a table {edges = {first, "
                         "last}} or nil, got %s", imp_describe(L, 3));
    }
    return no_collide_edges(L, w, id, o);
}

/* Body:collide_with(other): undoes no_collide and its edge ranges between the two, both ways
   (their filters decide again) */
int imp_lua_body_collide_with(lua_State *L)
{
    set_pair(L, "Body:collide_with", 0);
    imp_world *w;
    imp_body_id id = imp_lua_check_body(L, 1, &w);
    if (w->model.def.dim == 2 && w->engine2d != NULL) {
        imp_body_id o = imp_lua_check_body_of(L, 2, w, "Body:collide_with", "argument #1");
        imp_engine2d_clear_edge_ranges(w, id.slot, o.slot);
    }
    return 0;
}

/* Body:should_collide(other): whether the strategies pair the two (both collide, one at least
   moves freely, the filters pass, no no_collide) */
int imp_lua_body_should_collide(lua_State *L)
{
    imp_world *w;
    imp_body_id id = imp_lua_check_body(L, 1, &w);
    imp_body_id o = other_body(L, w, id, "Body:should_collide");
    const imp_body *a = imp_world_body(w, id), *b = imp_world_body(w, o);
    lua_pushboolean(L, a->collide && b->collide && imp_world_should_collide(w, id, o));
    return 1;
}
