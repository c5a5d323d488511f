/* lua_filter.c: collision filters of bodies (Box2D's and LOVE's category, mask and group) and
   the pairs excluded by Body:no_collide, over the world's filter.c. */
#include "lua_world.h"

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

/* Body:no_collide(other): the two never collide, whatever their filters */
int imp_lua_body_no_collide(lua_State *L) { return set_pair(L, "Body:no_collide", 1); }

/* Body:collide_with(other): undoes no_collide (their filters decide again) */
int imp_lua_body_collide_with(lua_State *L) { return set_pair(L, "Body:collide_with", 0); }

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
