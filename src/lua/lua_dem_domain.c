/* lua_dem_domain.c: the binding of the dem strategy's domain decomposition (src/dem/dem_domain.h)
   for impact.dem_mpi: core.dem_domain_attach, _stats, _energy, _allreduce, _role, _summary. The
   message layer comes as a light userdata from impact.mpi.dem_comm() (src/mpi/dem_comm.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dem.h"
#include "dem_domain.h"
#include "lua_dem.h"
#include "lua_world.h"
#include "world_internal.h"

static imp_dem *dem_at(lua_State *L, imp_world **wp)
{
    imp_world *w = imp_lua_check_world(L, 1);
    if (w->model.def.strategy != IMP_STRATEGY_DEM) {
        imp_raise(L, "the world's strategy is \"%s\", not \"dem\"",
                  imp_strategy_names[w->model.def.strategy]);
    }
    if (imp_dem_sync(w) != IMP_OK) {
        imp_raise(L, "%s", imp_world_error(w));
    }
    if (wp != NULL) {
        *wp = w;
    }
    return w->dem;
}

static void field(lua_State *L, const char *k, double v)
{
    lua_pushnumber(L, v);
    lua_setfield(L, -2, k);
}

/* core.dem_domain_attach(w, comm, axis, skin): comm from impact.mpi.dem_comm() */
static int l_attach(lua_State *L)
{
    imp_world *w;
    dem_at(L, &w);
    luaL_checktype(L, 2, LUA_TLIGHTUSERDATA);
    const imp_dem_comm *comm = lua_touserdata(L, 2);
    int axis = (int)luaL_checkinteger(L, 3);
    double skin = luaL_checknumber(L, 4);
    if (imp_dem_domain_attach(w, comm, axis, skin) != IMP_OK) {
        imp_raise(L, "%s", imp_world_error(w));
    }
    return 0;
}

/* core.dem_domain_step(w): the Lua engine list's share of a step on several ranks (the C step
   calls it itself): the ghosts from their owners, or an update; nothing on one rank */
static int l_step(lua_State *L)
{
    imp_world *w;
    imp_dem *d = dem_at(L, &w);
    if (d->domain != NULL && imp_dem_domain_step(w) != IMP_OK) {
        imp_raise(L, "%s", imp_world_error(w));
    }
    return 0;
}

/* core.dem_domain_stats(w) -> {rank, size, axis, lo, hi, ghost, skin, owned, ghosts, updates,
   migrated, steps, comm_seconds, domain_seconds, bytes_sent, messages} */
static int l_stats(lua_State *L)
{
    imp_dem_domain_stats s;
    imp_dem_domain_stats_of(dem_at(L, NULL), &s);
    lua_createtable(L, 0, 16);
    field(L, "lo", s.lo), field(L, "hi", s.hi), field(L, "ghost", s.ghost);
    field(L, "skin", s.skin), field(L, "comm_seconds", s.comm_seconds);
    field(L, "domain_seconds", s.domain_seconds), field(L, "bytes_sent", s.bytes_sent);
    const struct { const char *k; long v; } ints[] = {
        {"rank", s.rank}, {"size", s.size}, {"axis", s.axis}, {"owned", s.owned},
        {"ghosts", s.ghosts}, {"updates", s.updates}, {"migrated", s.migrated},
        {"steps", s.steps}, {"messages", s.messages}};
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
        lua_pushinteger(L, ints[k].v);
        lua_setfield(L, -2, ints[k].k);
    }
    return 1;
}

/* core.dem_domain_energy(w) -> this rank's share, the fields of World:dem_energy() */
static int l_energy(lua_State *L)
{
    imp_world *w;
    imp_dem *d = dem_at(L, &w);
    imp_dem_energy e = imp_dem_domain_energy(d, w->model.def.dt);
    lua_createtable(L, 0, 7);
    lua_pushboolean(L, d->p.track_energy);
    lua_setfield(L, -2, "tracked");
    field(L, "gravity_work", e.gravity_work), field(L, "kinetic", e.kinetic);
    field(L, "elastic", e.elastic), field(L, "damping", e.damping);
    field(L, "plastic", e.plastic), field(L, "viscous", e.viscous);
    return 1;
}

/* core.dem_domain_allreduce(w, {numbers}, max) -> a new list: the sums (or maxima) over the
   ranks; the same list on one rank */
static int l_allreduce(lua_State *L)
{
    enum { MAXN = 64 };
    double v[MAXN];
    imp_dem *d = dem_at(L, NULL);
    luaL_checktype(L, 2, LUA_TTABLE);
    int op = lua_toboolean(L, 3) ? IMP_DEM_COMM_MAX : IMP_DEM_COMM_SUM;
    lua_Integer n = luaL_len(L, 2);
    if (n < 0 || n > MAXN) {
        imp_raise(L, "at most %d numbers at once, got %d", MAXN, (int)n);
    }
    for (int k = 0; k < (int)n; k++) {
        lua_geti(L, 2, k + 1);
        if (!lua_isnumber(L, -1)) {
            imp_raise(L, "entry %d is not a number", k + 1);
        }
        v[k] = lua_tonumber(L, -1);
        lua_pop(L, 1);
    }
    if (imp_dem_domain_allreduce(d, v, (int)n, op) != 0) {
        imp_raise(L, "the reduction over the ranks failed");
    }
    lua_createtable(L, (int)n, 0);
    for (int k = 0; k < (int)n; k++) {
        lua_pushnumber(L, v[k]);
        lua_seti(L, -2, k + 1);
    }
    return 1;
}

/* core.dem_domain_role(w, body) -> "owned", "ghost", "away" or "shared" */
static int l_role(lua_State *L)
{
    imp_world *w;
    imp_dem *d = dem_at(L, &w);
    imp_body_id id = imp_lua_check_body_of(L, 2, w, "body", NULL);
    static const char *const names[] = {"away", "owned", "ghost", "shared"};
    int role = imp_dem_domain_role(d, id.slot);
    if (d->domain == NULL && imp_dem_domain_present(NULL, id.slot)) {
        int i = id.slot < d->nslot_map ? d->slot_to_particle[id.slot] : -1;
        role = i >= 0 && d->kind[i] == IMP_DEM_SPHERE && !d->fixed[i] ? IMP_DEM_OWNED : IMP_DEM_SHARED;
    }
    lua_pushstring(L, names[role]);
    return 1;
}

/* core.dem_domain_summary(w) -> {count, z_sum, top, mass, mz_sum} over this rank's owned free
   spheres: their number, the sum of their centres' z, the highest z + r, the sum of their masses
   and of m z */
static int l_summary(lua_State *L)
{
    imp_dem *d = dem_at(L, NULL);
    double zsum = 0.0, top = -INFINITY, mass = 0.0, mz = 0.0;
    long count = 0;
    for (int i = 0; i < d->n; i++) {
        int s = d->slot[i];
        int owned = d->domain != NULL ? imp_dem_domain_role(d, s) == IMP_DEM_OWNED
                                      : d->kind[i] == IMP_DEM_SPHERE && !d->fixed[i] && d->clump_of[i] < 0;
        if (!owned) {
            continue;
        }
        count++;
        zsum += d->pos[3 * i + 2];
        top = fmax(top, d->pos[3 * i + 2] + d->radius[i]);
        mass += d->mass[i];
        mz += d->mass[i] * d->pos[3 * i + 2];
    }
    lua_createtable(L, 0, 4);
    lua_pushinteger(L, count);
    lua_setfield(L, -2, "count");
    field(L, "z_sum", zsum), field(L, "top", top), field(L, "mass", mass), field(L, "mz_sum", mz);
    return 1;
}

static void list_field(lua_State *L, const char *k, const double *v, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushnumber(L, v[i]);
        lua_seti(L, -2, i + 1);
    }
    lua_setfield(L, -2, k);
}

/* core.dem_domain_export(w) -> {axis, size, rank, skin, ghost, bounds, roles (a string, one
   byte per world slot), refs, updates, migrated, steps}, or nil when not decomposed */
static int l_export(lua_State *L)
{
    imp_dem_domain_saved s;
    if (imp_dem_domain_saved_of(dem_at(L, NULL), &s) != 0) {
        lua_pushnil(L);
        return 1;
    }
    lua_createtable(L, 0, 11);
    const struct { const char *k; long v; } ints[] = {
        {"axis", s.axis}, {"size", s.size}, {"rank", s.rank}, {"updates", s.updates},
        {"migrated", s.migrated}, {"steps", s.steps}};
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
        lua_pushinteger(L, ints[k].v);
        lua_setfield(L, -2, ints[k].k);
    }
    field(L, "skin", s.skin), field(L, "ghost", s.ghost);
    list_field(L, "bounds", s.bounds, s.size + 1);
    list_field(L, "refs", s.refs, s.nrefs);
    lua_pushlstring(L, (const char *)s.roles, (size_t)s.nroles);
    lua_setfield(L, -2, "roles");
    return 1;
}

static double *numbers(lua_State *L, int t, const char *k, int *n)
{
    lua_getfield(L, t, k);
    luaL_checktype(L, -1, LUA_TTABLE);
    lua_Integer len = luaL_len(L, -1);
    if (len < 0 || len > 1 << 28) {
        imp_raise(L, "the saved decomposition's %s has a bad length", k);
    }
    double *v = lua_newuserdatauv(L, (size_t)(len > 0 ? len : 1) * sizeof *v, 0);
    for (lua_Integer i = 0; i < len; i++) {
        lua_geti(L, -2, i + 1);
        v[i] = lua_tonumber(L, -1);
        lua_pop(L, 1);
    }
    *n = (int)len;
    return v;  /* the userdata stays on the stack until the call returns */
}

static long integer_at(lua_State *L, int t, const char *k)
{
    lua_getfield(L, t, k);
    lua_Integer v = lua_tointeger(L, -1);
    lua_pop(L, 1);
    return (long)v;
}

/* core.dem_domain_expose(w, all): see imp_dem_domain_expose */
static int l_expose(lua_State *L)
{
    imp_world *w;
    dem_at(L, &w);
    if (imp_dem_domain_expose(w, lua_toboolean(L, 2)) != IMP_OK) {
        imp_raise(L, "%s", imp_world_error(w));
    }
    return 0;
}

/* core.dem_domain_restore(w, comm, saved): saved as core.dem_domain_export gave it */
static int l_restore(lua_State *L)
{
    imp_world *w;
    dem_at(L, &w);
    luaL_checktype(L, 2, LUA_TLIGHTUSERDATA);
    luaL_checktype(L, 3, LUA_TTABLE);
    imp_dem_domain_saved s;
    memset(&s, 0, sizeof s);
    s.axis = (int)integer_at(L, 3, "axis");
    s.size = (int)integer_at(L, 3, "size");
    s.rank = (int)integer_at(L, 3, "rank");
    s.updates = integer_at(L, 3, "updates");
    s.migrated = integer_at(L, 3, "migrated");
    s.steps = integer_at(L, 3, "steps");
    lua_getfield(L, 3, "skin");
    s.skin = lua_tonumber(L, -1);
    lua_getfield(L, 3, "ghost");
    s.ghost = lua_tonumber(L, -1);
    lua_pop(L, 2);
    int nb = 0;
    s.bounds = numbers(L, 3, "bounds", &nb);
    if (s.size < 1 || nb != s.size + 1) {
        imp_raise(L, "the saved decomposition's bounds do not match its size");
    }
    s.refs = numbers(L, 3, "refs", &s.nrefs);
    lua_getfield(L, 3, "roles");
    size_t nr = 0;
    s.roles = (const unsigned char *)luaL_checklstring(L, -1, &nr);
    s.nroles = (int)nr;
    if (imp_dem_domain_restore(w, lua_touserdata(L, 2), &s) != IMP_OK) {
        imp_raise(L, "%s", imp_world_error(w));
    }
    return 0;
}

void imp_lua_open_dem_domain(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"dem_domain_attach", l_attach},       {"dem_domain_stats", l_stats},
        {"dem_domain_energy", l_energy},       {"dem_domain_allreduce", l_allreduce},
        {"dem_domain_role", l_role},           {"dem_domain_summary", l_summary},
        {"dem_domain_step", l_step},           {"dem_domain_export", l_export},
        {"dem_domain_restore", l_restore},     {"dem_domain_expose", l_expose},
        {NULL, NULL}};
    luaL_setfuncs(L, fns, 0);
}
