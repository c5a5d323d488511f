/* lua_dem.c: the dem strategy's engines and queries for the Lua front (lua/impact/dem.lua).
   The engines take their parameters as plain numbers (the Lua engine objects validated them
   when built), so a step of a Lua engine list costs a few C calls and no table parsing. */
#include <math.h>
#include <string.h>
#include <time.h>

#include "dem.h"
#include "lua_dem.h"
#include "lua_world.h"

/* the world at 1 and its dem state, rebuilt if bodies changed (raises on unsupported bodies);
   edits of body states are picked up by core.dem_sync, which the stepper calls at the start of
   a step and after each Lua engine */
static imp_dem *dem_of(lua_State *L, imp_world **wp, int edits)
{
    imp_world *w = imp_lua_check_world(L, 1);
    if (w->model.def.strategy != IMP_STRATEGY_DEM) {
        imp_raise(L, "the world's strategy is \"%s\", not \"dem\"",
                   imp_strategy_names[w->model.def.strategy]);
    }
    imp_world_sync(w);  /* the state vector up to date before anything compares with it */
    if ((edits ? imp_dem_sync(w) : imp_dem_sync_bodies(w)) != IMP_OK) {
        imp_raise(L, "%s", imp_world_error(w));
    }
    if (wp != NULL) {
        *wp = w;
    }
    return w->dem;
}

static imp_dem *check_dem(lua_State *L, imp_world **wp) { return dem_of(L, wp, 1); }
static imp_dem *engine_dem(lua_State *L, imp_world **wp) { return dem_of(L, wp, 0); }

/* young modulus of the bodies without a world material */
static void set_young(imp_world *w, imp_dem *d, double young)
{
    if (young == d->p.young) {
        return;
    }
    d->p.young = young;
    for (int i = 0; i < d->n; i++) {
        if (w->model.bodies[d->slot[i]].material < 0) {
            d->young[i] = young;
        }
    }
}

/* core.dem_sync(w) */
static int l_sync(lua_State *L)
{
    check_dem(L, NULL);
    return 0;
}

/* core.dem_reset_forces(w) */
static int l_reset_forces(lua_State *L)
{
    imp_world *w;
    imp_dem *d = engine_dem(L, &w);
    imp_dem_reset_forces(d);
    imp_lua_loads_begin(L, 1);  /* timed loads' functions run on this thread */
    int st = imp_dem_add_world_forces(d, w);
    imp_lua_loads_end(L, 1);
    const char *load_failure = imp_lua_loads_failure(L, 1);
    if (load_failure != NULL) {
        return imp_raise(L, "%s", load_failure);
    }
    if (st != 0) {
        return imp_raise(L, "%s", imp_world_error(w));
    }
    return 0;
}

/* core.dem_collide(w, verlet, interaction_radius) */
static int l_collide(lua_State *L)
{
    imp_dem *d = engine_dem(L, NULL);
    d->p.verlet = luaL_checknumber(L, 2);
    d->p.interaction_radius = luaL_checknumber(L, 3);
    if (imp_dem_collide(d) != 0) {
        return imp_raise(L, "dem collider: %s", d->error);
    }
    return 0;
}

/* core.dem_configure(w, geometry_bits, law, young, ks_ratio, friction_angle, poisson,
   never_erase, en, rolling, twisting, cohesion_now, cohesion_n, cohesion_s,
   wall_friction_angle, tangential_damping): the interaction loop's functors, also used by the
   default engine list */
static int l_configure(lua_State *L)
{
    imp_world *w;
    imp_dem *d = engine_dem(L, &w);
    d->p.geometry = (int)luaL_checkinteger(L, 2);
    d->p.law = (int)luaL_checkinteger(L, 3);
    set_young(w, d, luaL_checknumber(L, 4));
    d->p.ks_ratio = luaL_checknumber(L, 5);
    d->p.friction_angle = luaL_checknumber(L, 6);
    d->p.poisson = luaL_checknumber(L, 7);
    d->p.never_erase = lua_toboolean(L, 8);
    d->p.en = luaL_optnumber(L, 9, 1.0);
    d->p.rolling = luaL_optnumber(L, 10, 0.0);
    d->p.twisting = luaL_optnumber(L, 11, 0.0);
    d->p.cohesion_now = lua_toboolean(L, 12);
    d->p.cohesion_n = luaL_optnumber(L, 13, 0.0);
    d->p.cohesion_s = luaL_optnumber(L, 14, 0.0);
    d->p.wall_friction_angle = luaL_optnumber(L, 15, -1.0);
    d->p.tangential_damping = lua_isnone(L, 16) || lua_toboolean(L, 16);
    return 0;
}

/* core.dem_bond_all(w, normal_cohesion, shear_cohesion): bonds every real interaction;
   returns the count of bonds made */
static int l_bond_all(lua_State *L)
{
    imp_dem *d = check_dem(L, NULL);
    int made = imp_dem_bond_all(d, luaL_checknumber(L, 2), luaL_checknumber(L, 3));
    if (made < 0) {
        return imp_raise(L, "%s", d->error);
    }
    lua_pushinteger(L, made);
    return 1;
}

/* core.dem_set_velocity(w, body, vx, vy, vz): the velocity a fixed body (wall, facet, fixed
   sphere) moves with from the next step on (Yade's non-dynamic bodies with a state.vel) */
static int l_set_velocity(lua_State *L)
{
    imp_world *w;
    check_dem(L, &w);
    imp_body_id b = imp_lua_check_body_of(L, 2, w, "World:set_velocity", "body");
    double v[3];
    for (int k = 0; k < 3; k++) {
        v[k] = luaL_checknumber(L, 3 + k);
        if (!isfinite(v[k])) {
            return imp_raise(L, "World:set_velocity: the velocity must be finite, got component "
                                "%d = %f", k + 1, v[k]);
        }
    }
    const imp_body *body = imp_world_body(w, b);
    if (!body->fixed) {
        return imp_raise(L, "World:set_velocity: the body is free (set b.velocity); only fixed "
                            "bodies are moved with a prescribed velocity");
    }
    if (imp_dem_clump_members(body->shape, NULL, NULL, NULL) > 0) {
        return imp_raise(L, "World:set_velocity: a fixed clump cannot move");
    }
    double *y = imp_world_body_state(w, b);  /* counts as an edit */
    memcpy(y + IMP_VEL_3D, v, sizeof v);
    return 0;
}

/* core.dem_bond_count(w): the intact bonds */
static int l_bond_count(lua_State *L)
{
    lua_pushinteger(L, imp_dem_bond_count(check_dem(L, NULL)));
    return 1;
}

/* core.dem_force_on(w, body): fx, fy, fz, tx, ty, tz and the sum of kn over the body's
   contacts, from the last interaction loop (a clump: its members summed, torques about each
   member's centre) */
static int l_force_on(lua_State *L)
{
    imp_world *w;
    imp_dem *d = check_dem(L, &w);
    imp_body_id b = imp_lua_check_body_of(L, 2, w, "World:force_on", "body");
    int p = b.slot < d->nslot_map ? d->slot_to_particle[b.slot] : -1;
    double f[3] = {0.0, 0.0, 0.0}, t[3] = {0.0, 0.0, 0.0}, kn = 0.0;
    int count = p < 0 ? 0 : (d->clump_of[p] >= 0 ? d->clumps[d->clump_of[p]].count : 1);
    for (int m = 0; m < count; m++) {
        double fm[3], tm[3], km;
        imp_dem_particle_load(d, p + m, fm, tm, &km);
        for (int k = 0; k < 3; k++) {
            f[k] += fm[k];
            t[k] += tm[k];
        }
        kn += km;
    }
    for (int k = 0; k < 3; k++) {
        lua_pushnumber(L, f[k]);
    }
    for (int k = 0; k < 3; k++) {
        lua_pushnumber(L, t[k]);
    }
    lua_pushnumber(L, kn);
    return 7;
}

/* core.dem_interaction_loop(w) with the configured functors */
static int l_interaction_loop(lua_State *L)
{
    imp_world *w;
    imp_dem *d = engine_dem(L, &w);
    if (imp_dem_interactions(d, w->model.def.dt) != 0) {
        return imp_raise(L, "dem interaction loop: %s", d->error);
    }
    char msg[512];
    int fast = imp_dem_check_dt(d, w->model.def.dt, msg, sizeof msg);
    if (fast >= 0) {  /* before Newton: the bodies keep their state */
        imp_where(L);
        lua_pushfstring(L, "dem interaction loop: %s; bodies involved: ", msg);
        imp_lua_body_label(L, 1, d->slot[fast]);
        lua_concat(L, 3);
        return lua_error(L);
    }
    return 0;
}

/* core.dem_newton(w, damping, track_energy): integrates and writes the state back to the
   world's bodies */
static int l_newton(lua_State *L)
{
    imp_world *w;
    imp_dem *d = engine_dem(L, &w);
    d->p.damping = luaL_checknumber(L, 2);
    d->p.track_energy = lua_toboolean(L, 3);
    imp_dem_newton(d, w->model.def.gravity, w->model.def.dt);
    if (imp_dem_first_nonfinite(d) >= 0) {
        imp_dem_step_failed(w);  /* the last good state back, and in the world */
        return imp_raise(L, "dem newton: the state became non-finite at t = %f; is dt "
                             "below the P-wave estimate (w:p_wave_dt())?", w->data.time);
    }
    imp_dem_store(w);
    return 0;
}

/* core.dem_finish_step(w): time += dt, iteration += 1 */
static int l_finish_step(lua_State *L)
{
    imp_world *w;
    engine_dem(L, &w);
    imp_dem_finish_step(w);
    return 0;
}

/* core.dem_wall_clock(): seconds (wall time, for "every" runners) */
static int l_wall_clock(lua_State *L)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    lua_pushnumber(L, (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec);
    return 1;
}

/* core.dem_facet(v1, v2, v3): a triangle shape (for fixed bodies; position = its centroid) */
static int l_facet(lua_State *L)
{
    double v[9];
    for (int i = 0; i < 3; i++) {
        imp_check_vector(L, i + 1, "impact.dem.facet", 3, v + 3 * i);
    }
    imp_shape *s = imp_dem_facet_shape(v);
    if (s == NULL) {
        return imp_error(L, "impact.dem.facet", "the vertices must span a triangle (they are "
                         "collinear or not finite)");
    }
    imp_lua_push_shape(L, s);
    return 1;
}

/* core.dem_clump(centres, radii): a clump shape from a flat list of centres {x1, y1, z1, x2,
   ...} (shape coordinates) and the radii (checked in lua/impact/dem.lua) */
static int l_clump(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_Integer n = luaL_len(L, 2);
    if (n < 1 || n > 1000000 || luaL_len(L, 1) != 3 * n) {
        return imp_error(L, "impact.dem.clump", "give 1 to 1000000 spheres, each with a centre");
    }
    /* scratch owned by Lua, so an error cannot leak it */
    double *c = lua_newuserdatauv(L, (size_t)n * 4 * sizeof *c, 0), *r = c + 3 * n;
    for (lua_Integer i = 0; i < 4 * n; i++) {
        lua_rawgeti(L, i < 3 * n ? 1 : 2, i < 3 * n ? i + 1 : i - 3 * n + 1);
        c[i] = lua_tonumber(L, -1);
        lua_pop(L, 1);
    }
    imp_shape *sh = imp_dem_clump_shape(c, r, (int)n);
    if (sh == NULL) {
        return imp_error(L, "impact.dem.clump", "the spheres need finite centres and radii > 0");
    }
    imp_lua_push_shape(L, sh);
    return 1;
}

/* core.dem_clump_members(shape): the members' centres (shape coordinates, a list of points),
   radii, the shape's centroid and how its mass properties were found; nothing when the
   shape is not a clump */
static int l_clump_members(lua_State *L)
{
    static const char *const methods[] = {"", "exact", "lenses", "grid"};
    const imp_shape *sh = imp_lua_check_shape(L, 1);
    const double *c, *r;
    int method;
    int n = imp_dem_clump_members(sh, &c, &r, &method);
    if (n == 0) {
        return 0;
    }
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        imp_push_vector(L, c + 3 * i, 3);
        lua_rawseti(L, -2, i + 1);
    }
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushnumber(L, r[i]);
        lua_rawseti(L, -2, i + 1);
    }
    imp_push_vector(L, sh->centroid, 3);
    lua_pushstring(L, methods[method]);
    return 4;
}

/* The field w.engines of worlds (Yade's O.engines), over the world's own __index and
   __newindex (lua_world.c). __index's first upvalue stays the methods table, as
   imp_lua_open_world expects when the core is opened again.
   __index upvalues: methods, the world's __index, the getter fn(w).
   __newindex upvalues: the world's __newindex, the setter fn(w, list). */
static int l_world_index_engines(lua_State *L)
{
    const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    lua_pushvalue(L, lua_upvalueindex(k != NULL && strcmp(k, "engines") == 0 ? 3 : 2));
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_call(L, 2, 1);
    return 1;
}

static int l_world_newindex_engines(lua_State *L)
{
    const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    int field = k != NULL && strcmp(k, "engines") == 0;
    lua_pushvalue(L, lua_upvalueindex(field ? 2 : 1));
    lua_pushvalue(L, 1);
    if (field) {
        lua_pushvalue(L, 3);
        lua_call(L, 2, 0);
    } else {
        lua_pushvalue(L, 2);
        lua_pushvalue(L, 3);
        lua_call(L, 3, 0);
    }
    return 0;
}

/* core.dem_world_engines_field(getter, setter): installs (or, when the module is loaded
   again, re-points) the field */
static int l_world_engines_field(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    luaL_getmetatable(L, IMP_WORLD_MT);                 /* 3 */
    lua_getfield(L, 3, "__index");                      /* 4 */
    if (lua_tocfunction(L, 4) == l_world_index_engines) {
        lua_getupvalue(L, 4, 2);
        lua_replace(L, 4);                              /* the world's own __index */
    }
    lua_getfield(L, 3, "__newindex");                   /* 5 */
    if (lua_tocfunction(L, 5) == l_world_newindex_engines) {
        lua_getupvalue(L, 5, 1);
        lua_replace(L, 5);
    }
    lua_getupvalue(L, 4, 1);                            /* the methods table */
    lua_pushvalue(L, 4);
    lua_pushvalue(L, 1);
    lua_pushcclosure(L, l_world_index_engines, 3);
    lua_setfield(L, 3, "__index");
    lua_pushvalue(L, 5);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, l_world_newindex_engines, 2);
    lua_setfield(L, 3, "__newindex");
    return 0;
}

static void push_interaction(lua_State *L, const imp_dem *d, const imp_dem_inter *I, int index)
{
    lua_createtable(L, 0, 12);
    lua_pushinteger(L, index + 1);
    lua_setfield(L, -2, "id");
    imp_lua_push_body(L, 1, d->slot[I->a]);
    lua_setfield(L, -2, "body1");
    imp_lua_push_body(L, 1, d->slot[I->b]);
    lua_setfield(L, -2, "body2");
    if (d->clump_of[I->a] >= 0) {  /* which member of a clump (1-based, as in b:members()) */
        lua_pushinteger(L, d->member[I->a] + 1);
        lua_setfield(L, -2, "member1");
    }
    if (d->clump_of[I->b] >= 0) {
        lua_pushinteger(L, d->member[I->b] + 1);
        lua_setfield(L, -2, "member2");
    }
    lua_pushboolean(L, I->real);
    lua_setfield(L, -2, "real");
    lua_pushboolean(L, I->pending);
    lua_setfield(L, -2, "pending");
    if (!I->real) {
        return;
    }
    imp_lua_set_number(L, "overlap", I->un);
    imp_push_vector(L, I->n, 3);
    lua_setfield(L, -2, "normal");
    double fn[3] = {I->fn * I->n[0], I->fn * I->n[1], I->fn * I->n[2]};
    imp_push_vector(L, fn, 3);
    lua_setfield(L, -2, "normal_force");
    imp_push_vector(L, I->fs, 3);
    lua_setfield(L, -2, "shear_force");
    imp_lua_set_number(L, "kn", I->kn);
    imp_lua_set_number(L, "ks", I->ks);
    imp_lua_set_number(L, "mu", I->mu);
    lua_pushinteger(L, I->created);
    lua_setfield(L, -2, "created");
    lua_pushboolean(L, I->bonded);
    lua_setfield(L, -2, "bonded");
    double mt[3] = {I->mt * I->n[0], I->mt * I->n[1], I->mt * I->n[2]};
    imp_push_vector(L, mt, 3);
    lua_setfield(L, -2, "twisting_moment");
    imp_push_vector(L, I->mr, 3);
    lua_setfield(L, -2, "rolling_moment");
    if (d->cell.on) {  /* the periodic shift of body2's image (Yade's cellDist) */
        lua_createtable(L, 3, 0);
        for (int k = 0; k < 3; k++) {
            lua_pushinteger(L, I->cell[k]);
            lua_rawseti(L, -2, k + 1);
        }
        lua_setfield(L, -2, "cell_shift");
    }
}

/* World:interactions([{all = false}]): the real interactions (all = true: potential ones
   too), each {id, body1, body2, member1, member2, real, pending, overlap, normal,
   normal_force, shear_force, kn, ks, mu, created} (member1/2 for clump bodies; the last ones
   for real interactions); force on body2, normal from body1 to body2. */
static int l_interactions(lua_State *L)
{
    static const char *const keys[] = {"all", NULL};
    imp_dem *d = check_dem(L, NULL);
    int all = 0;
    if (!lua_isnoneornil(L, 2)) {
        if (!lua_istable(L, 2)) {
            return imp_error(L, "World:interactions", "options must be a table, got %s",
                             imp_describe(L, 2));
        }
        imp_opt_check_keys(L, 2, "World:interactions", keys);
        all = imp_opt_boolean(L, 2, "World:interactions", "all", 0);
    }
    lua_createtable(L, all ? d->ninter : imp_dem_real_count(d), 0);
    int m = 0;
    for (int k = 0; k < d->ninter; k++) {
        if (all || d->inter[k].real) {
            push_interaction(L, d, &d->inter[k], k);
            lua_rawseti(L, -2, ++m);
        }
    }
    return 1;
}

/* World:erase_interaction(b1, b2): requests the erase (Yade's O.interactions.erase); true
   when there was an interaction */
static int l_erase_interaction(lua_State *L)
{
    imp_world *w;
    imp_dem *d = check_dem(L, &w);
    imp_body_id a = imp_lua_check_body_of(L, 2, w, "World:erase_interaction", "body1");
    imp_body_id b = imp_lua_check_body_of(L, 3, w, "World:erase_interaction", "body2");
    int pa = a.slot < d->nslot_map ? d->slot_to_particle[a.slot] : -1;
    int pb = b.slot < d->nslot_map ? d->slot_to_particle[b.slot] : -1;
    if (pa < 0 || pb < 0) {
        lua_pushboolean(L, 0);
        return 1;
    }
    /* a clump: every interaction between the two bodies' members */
    int na = d->clump_of[pa] >= 0 ? d->clumps[d->clump_of[pa]].count : 1;
    int nb = d->clump_of[pb] >= 0 ? d->clumps[d->clump_of[pb]].count : 1;
    int any = 0;
    for (int i = 0; i < na; i++) {
        for (int j = 0; j < nb; j++) {
            int k = imp_dem_find(d, pa + i, pb + j);
            if (k >= 0) {
                imp_dem_request_erase(d, k);
                any = 1;
            }
        }
    }
    lua_pushboolean(L, any);
    return 1;
}

/* World:p_wave_dt(): min over spheres of r / sqrt(E / rho) (Yade's PWaveTimeStep) */
static int l_p_wave_dt(lua_State *L)
{
    lua_pushnumber(L, imp_dem_p_wave_dt(check_dem(L, NULL)));
    return 1;
}

/* World:unbalanced_force(): Yade's unbalancedForce (NaN when there are no contacts) */
static int l_unbalanced_force(lua_State *L)
{
    imp_world *w;
    imp_dem *d = check_dem(L, &w);
    lua_pushnumber(L, imp_dem_unbalanced_force(d, w->model.def.gravity));
    return 1;
}

/* World:dem_energy(): {gravity_work, kinetic, elastic, damping, plastic, viscous, tracked}: the work
   and dissipation booked while dem.newton{track_energy = true} ran; kinetic and elastic now */
static int l_dem_energy(lua_State *L)
{
    imp_world *w;
    imp_dem *d = check_dem(L, &w);
    imp_dem_energy e = imp_dem_energy_now(d, w->model.def.dt);
    lua_createtable(L, 0, 7);
    lua_pushboolean(L, d->p.track_energy);
    lua_setfield(L, -2, "tracked");
    imp_lua_set_number(L, "gravity_work", e.gravity_work);
    imp_lua_set_number(L, "kinetic", e.kinetic);
    imp_lua_set_number(L, "elastic", e.elastic);
    imp_lua_set_number(L, "damping", e.damping);
    imp_lua_set_number(L, "plastic", e.plastic);
    imp_lua_set_number(L, "viscous", e.viscous);
    return 1;
}

/* World:dem_stats(): {iterations, interactions, real, collider_runs, particles, clumps} */
static int l_dem_stats(lua_State *L)
{
    imp_dem *d = check_dem(L, NULL);
    lua_createtable(L, 0, 5);
    lua_pushinteger(L, d->iter);
    lua_setfield(L, -2, "iterations");
    lua_pushinteger(L, d->ninter);
    lua_setfield(L, -2, "interactions");
    lua_pushinteger(L, imp_dem_real_count(d));
    lua_setfield(L, -2, "real");
    lua_pushinteger(L, d->collider_runs);
    lua_setfield(L, -2, "collider_runs");
    lua_pushinteger(L, d->n);
    lua_setfield(L, -2, "particles");
    lua_pushinteger(L, d->nclumps);
    lua_setfield(L, -2, "clumps");
    return 1;
}

void imp_lua_open_dem(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"dem_sync", l_sync},
        {"dem_reset_forces", l_reset_forces},
        {"dem_collide", l_collide},
        {"dem_configure", l_configure},
        {"dem_bond_all", l_bond_all},
        {"dem_bond_count", l_bond_count},
        {"dem_force_on", l_force_on},
        {"dem_set_velocity", l_set_velocity},
        {"dem_interaction_loop", l_interaction_loop},
        {"dem_newton", l_newton},
        {"dem_finish_step", l_finish_step},
        {"dem_wall_clock", l_wall_clock},
        {"dem_facet", l_facet},
        {"dem_clump", l_clump},
        {"dem_clump_members", l_clump_members},
        {"dem_world_engines_field", l_world_engines_field},
        {NULL, NULL}};
    static const luaL_Reg methods[] = {
        {"interactions", l_interactions},
        {"erase_interaction", l_erase_interaction},
        {"p_wave_dt", l_p_wave_dt},
        {"unbalanced_force", l_unbalanced_force},
        {"dem_energy", l_dem_energy},
        {"dem_stats", l_dem_stats},
        {NULL, NULL}};
    luaL_setfuncs(L, fns, 0);
    imp_lua_open_dem_state(L);
    imp_lua_open_dem_measure(L);
    imp_lua_open_dem_cell(L);
    imp_lua_open_dem_domain(L);
    lua_getfield(L, -1, "World");  /* the World methods (imp_lua_open_world ran first) */
    luaL_setfuncs(L, methods, 0);
    lua_pop(L, 1);
}
