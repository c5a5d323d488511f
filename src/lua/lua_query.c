/* lua_query.c: geometric queries on a world: w:distance(a, b), w:ray_cast(from, to [, opts]),
   w:query_box(lo, hi [, opts]), w:query_point(p [, opts]), w:query_tree_builds(); opts.filter
   = {category =, mask =} keeps the bodies Box2D's query filter keeps. The queries' box hierarchy
   (src/query/query_world.h) is kept per world in a weak-keyed registry table, rebuilt lazily
   when the bodies moved. */
#include <string.h>

#include "lua_world.h"
#include "proximity.h"
#include "query_world.h"

#define QUERY_CACHE_MT "impact.QueryCache"
static const char cache_key = 'q';

static int cache_gc(lua_State *L)
{
    imp_query_cache *c = luaL_checkudata(L, 1, QUERY_CACHE_MT);
    imp_query_cache_free(c);
    return 0;
}

/* The cache of the world userdata at index 1 (created on first use). */
static imp_query_cache *world_cache(lua_State *L)
{
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &cache_key) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_newtable(L);
        lua_pushliteral(L, "k");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &cache_key);
    }
    lua_pushvalue(L, 1);
    if (lua_rawget(L, -2) == LUA_TUSERDATA) {
        imp_query_cache *c = lua_touserdata(L, -1);
        lua_pop(L, 2);
        return c;
    }
    lua_pop(L, 1);
    imp_query_cache *c = lua_newuserdatauv(L, sizeof *c, 0);
    imp_query_cache e = IMP_QUERY_CACHE_EMPTY;
    *c = e;
    if (luaL_newmetatable(L, QUERY_CACHE_MT)) {
        lua_pushcfunction(L, cache_gc);
        lua_setfield(L, -2, "__gc");
    }
    lua_setmetatable(L, -2);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
    lua_pop(L, 2);
    return c;
}

/* A point argument of dim finite numbers. */
static void check_point(lua_State *L, int idx, const char *what, int dim, double *out)
{
    if (lua_type(L, idx) != LUA_TTABLE) {
        imp_error(L, what, "argument #%d must be a point {%s} of finite numbers, got %s", idx - 1,
                  dim == 2 ? "x, y" : "x, y, z", imp_describe(L, idx));
    }
    lua_Integer len = luaL_len(L, idx);
    if (len != dim) {
        imp_error(L, what, "argument #%d must have %d numbers in a %dD world, got %d", idx - 1, dim,
                  dim, (int)len);
    }
    imp_check_vector(L, idx, what, dim, out);
}

static void push_hit(lua_State *L, const imp_query_hit *h, int dim)
{
    lua_createtable(L, 0, 4);
    imp_lua_push_body(L, 1, h->slot);
    lua_setfield(L, -2, "body");
    imp_push_vector(L, h->hit.point, dim);
    lua_setfield(L, -2, "point");
    imp_push_vector(L, h->hit.normal, dim);
    lua_setfield(L, -2, "normal");
    lua_pushnumber(L, h->hit.fraction);
    lua_setfield(L, -2, "fraction");
}

/* A query filter, as Box2D's b2QueryFilter: a body is found when (its category & mask) != 0
   and (its mask & category) != 0; on = 0: every body. */
typedef struct {
    int on;
    unsigned category, mask;
} query_filter;

/* option 'filter' = {category =, mask =} of the options table at idx (keys left out: 1 and
   0xFFFF) */
static query_filter read_query_filter(lua_State *L, int idx, const char *what)
{
    static const char *const keys[] = {"category", "mask", NULL};
    query_filter f = {0, 1u, IMP_FILTER_BITS};
    lua_getfield(L, idx, "filter");
    if (!lua_isnil(L, -1)) {
        if (!lua_istable(L, -1)) {
            imp_error(L, what, "option 'filter' must be a table {category =, mask =}, got %s",
                      imp_describe(L, -1));
        }
        imp_opt_check_nested_keys(L, -1, what, "filter", keys);
        f.on = 1;
        f.category = (unsigned)imp_opt_integer(L, -1, what, "filter.category", 1, 0, IMP_FILTER_BITS);
        f.mask = (unsigned)imp_opt_integer(L, -1, what, "filter.mask", IMP_FILTER_BITS, 0, IMP_FILTER_BITS);
    }
    lua_pop(L, 1);
    return f;
}

/* the options table {filter =} of a box or point query at idx (none or nil: no filter) */
static query_filter query_options(lua_State *L, int idx, const char *what, const char *arg)
{
    query_filter f = {0, 1u, IMP_FILTER_BITS};
    if (lua_isnoneornil(L, idx)) {
        return f;
    }
    if (lua_type(L, idx) != LUA_TTABLE) {
        imp_error(L, what, "%s must be an options table {filter = {category =, mask =}}, got %s",
                  arg, imp_describe(L, idx));
    }
    static const char *const keys[] = {"filter", NULL};
    imp_opt_check_keys(L, idx, what, keys);
    return read_query_filter(L, idx, what);
}

static int passes(const imp_world *w, const query_filter *f, int slot)
{
    const imp_body *b = &w->model.bodies[slot];
    return !f->on || ((b->category & f->mask) != 0 && (b->mask & f->category) != 0);
}

/* World:ray_cast(from, to [, {all = true, filter = {category =, mask =}}]) */
static int l_ray_cast(lua_State *L)
{
    const char *what = "World:ray_cast";
    imp_world *w = imp_lua_check_world(L, 1);
    int dim = w->model.def.dim, all = 0;
    double from[3], to[3];
    check_point(L, 2, what, dim, from);
    check_point(L, 3, what, dim, to);
    query_filter f = {0, 1u, IMP_FILTER_BITS};
    if (!lua_isnoneornil(L, 4)) {
        if (lua_type(L, 4) != LUA_TTABLE) {
            return imp_error(L, what, "argument #3 must be an options table {all = boolean, "
                             "filter = {category =, mask =}}, got %s", imp_describe(L, 4));
        }
        static const char *const keys[] = {"all", "filter", NULL};
        imp_opt_check_keys(L, 4, what, keys);
        all = imp_opt_boolean(L, 4, what, "all", 0);
        f = read_query_filter(L, 4, what);
    }
    int same = 1;
    for (int a = 0; a < dim; a++) {
        same &= from[a] == to[a];
    }
    if (same) {
        return imp_error(L, what, "the segment has no length: from and to are the same point");
    }
    imp_query_cache *c = world_cache(L);
    int n = imp_query_ray(c, w, from, to, all || f.on);  /* filtered: the first that passes */
    if (n < 0) {
        return imp_error(L, what, "out of memory");
    }
    int kept = 0;
    for (int i = 0; i < n; i++) {
        if (passes(w, &f, c->hits[i].slot)) {
            c->hits[kept++] = c->hits[i];
        }
    }
    n = kept;
    if (n == 0) {
        if (all) {
            lua_newtable(L);
        } else {
            lua_pushnil(L);
        }
        return 1;
    }
    /* a copy of the results: pushing them may run finalizers that query this world again */
    imp_query_hit *h = lua_newuserdatauv(L, (size_t)n * sizeof *h, 0);
    memcpy(h, c->hits, (size_t)n * sizeof *h);
    if (!all) {
        push_hit(L, &h[0], dim);
        return 1;
    }
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        push_hit(L, &h[i], dim);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int push_slots(lua_State *L, imp_query_cache *c, int n, const imp_world *w,
                      const query_filter *f)
{
    int kept = 0;
    for (int i = 0; i < n; i++) {
        if (passes(w, f, c->slots[i])) {
            c->slots[kept++] = c->slots[i];
        }
    }
    n = kept;
    /* a copy (see l_ray_cast) */
    int *slots = lua_newuserdatauv(L, (size_t)(n > 0 ? n : 1) * sizeof *slots, 0);
    if (n > 0) {
        memcpy(slots, c->slots, (size_t)n * sizeof *slots);
    }
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        imp_lua_push_body(L, 1, slots[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* World:query_box(lo, hi [, {filter =}]) */
static int l_query_box(lua_State *L)
{
    const char *what = "World:query_box";
    imp_world *w = imp_lua_check_world(L, 1);
    int dim = w->model.def.dim;
    double lo[3], hi[3];
    check_point(L, 2, what, dim, lo);
    check_point(L, 3, what, dim, hi);
    query_filter f = query_options(L, 4, what, "argument #3");
    for (int a = 0; a < dim; a++) {
        if (lo[a] > hi[a]) {
            return imp_error(L, what, "lo must not exceed hi: lo[%d] = %s > hi[%d] = %s", a + 1,
                             imp_push_g(L, lo[a]), a + 1, imp_push_g(L, hi[a]));
        }
    }
    imp_query_cache *c = world_cache(L);
    int n = imp_query_box(c, w, lo, hi);
    if (n < 0) {
        return imp_error(L, what, "out of memory");
    }
    return push_slots(L, c, n, w, &f);
}

/* World:query_point(p [, {filter =}]) */
static int l_query_point(lua_State *L)
{
    const char *what = "World:query_point";
    imp_world *w = imp_lua_check_world(L, 1);
    double p[3];
    check_point(L, 2, what, w->model.def.dim, p);
    query_filter f = query_options(L, 3, what, "argument #2");
    imp_query_cache *c = world_cache(L);
    int n = imp_query_point(c, w, p);
    if (n < 0) {
        return imp_error(L, what, "out of memory");
    }
    return push_slots(L, c, n, w, &f);
}

/* World:query_tree_builds(): how many times the queries' box hierarchy was built (diagnostics:
   a second query on an unmoved world does not rebuild it). */
static int l_query_tree_builds(lua_State *L)
{
    imp_lua_check_world(L, 1);
    lua_pushinteger(L, (lua_Integer)world_cache(L)->builds);
    return 1;
}

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

const luaL_Reg imp_lua_query_methods[] = {{"distance", l_distance},
                                          {"ray_cast", l_ray_cast},
                                          {"query_box", l_query_box},
                                          {"query_point", l_query_point},
                                          {"query_tree_builds", l_query_tree_builds},
                                          {NULL, NULL}};
