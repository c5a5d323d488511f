/* lua_dem_state.c: the dem state as Lua data, for impact.dem.save / impact.dem.load: the
   particles (shape, mass, material, exact state), the interactions with their history in
   their order, the pending erasures, time, iteration and parameters. The sweep is not saved:
   exporting restarts it in the saved world too, so both continue from the same state. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dem.h"
#include "lua_dem.h"
#include "lua_world.h"
#include "shape3d.h"

static imp_dem *synced(lua_State *L, imp_world **wp)
{
    imp_world *w = imp_lua_check_world(L, 1);
    if (w->model.def.strategy != IMP_STRATEGY_DEM) {
        imp_raise(L, "impact.dem: the world's strategy is \"%s\", not \"dem\" (impact.world3d "
                   "{strategy = \"dem\"})", imp_strategy_names[w->model.def.strategy]);
    }
    imp_world_sync(w);  /* export and import read and write the state vector */
    if (imp_dem_sync(w) != IMP_OK) {
        imp_raise(L, "impact.dem: %s", imp_world_error(w));
    }
    *wp = w;
    return w->dem;
}

/* core.dem_export(w) */
static int l_export(lua_State *L)
{
    imp_world *w;
    imp_dem *d = synced(L, &w);
    lua_createtable(L, 0, 16);
    imp_lua_set_number(L, "time_base", w->data.time_base);
    imp_lua_set_integer(L, "steps_since_base", w->data.steps_since_base);
    imp_lua_set_integer(L, "steps", w->data.stats.steps);
    imp_lua_set_number(L, "dt", w->model.def.dt);
    imp_lua_set_vector(L, "gravity", w->model.def.gravity, 3);
    imp_lua_set_integer(L, "iter", d->iter);
    imp_lua_set_integer(L, "collider_runs", d->collider_runs);
    double en[4] = {d->energy.gravity_work, d->energy.damping, d->energy.plastic,
                    d->energy.viscous};
    imp_lua_set_vector(L, "energy", en, 4);
    double pr[12] = {d->p.damping, d->p.verlet, d->p.interaction_radius, d->p.geometry,
                     d->p.law, d->p.never_erase, d->p.young, d->p.ks_ratio,
                     d->p.friction_angle, d->p.poisson, d->p.track_energy, d->p.en};
    imp_lua_set_vector(L, "params", pr, 12);
    lua_createtable(L, d->n, 0);
    int nb = 0;
    for (int i = 0; i < d->n; i++) {
        const imp_body *b = &w->model.bodies[d->slot[i]];
        const imp_convex3d *c = imp_shape3d_data(b->shape);
        if (d->member[i] > 0) {
            continue;  /* one entry per body: a clump's is its first member's */
        }
        lua_createtable(L, 0, 8);
        imp_lua_set_integer(L, "kind", d->clump_of[i] >= 0 ? IMP_DEM_SAVED_CLUMP : d->kind[i]);
        imp_lua_set_integer(L, "slot", d->slot[i]);
        lua_pushboolean(L, d->fixed[i]);
        lua_setfield(L, -2, "fixed");
        imp_lua_set_number(L, "mass", b->mass);
        imp_lua_set_vector(L, "inertia", &b->inertia.m[0][0], 9);
        imp_lua_set_vector(L, "inv_inertia", &b->inv_inertia.m[0][0], 9);
        imp_lua_set_number(L, "inv_mass", b->inv_mass);
        if (d->clump_of[i] >= 0) {  /* members (shape coordinates) and L */
            const double *cen, *rad;
            int n = imp_dem_clump_members(b->shape, &cen, &rad, NULL);
            lua_createtable(L, 4 * n, 0);
            for (int m = 0; m < n; m++) {
                for (int k = 0; k < 4; k++) {
                    lua_pushnumber(L, k < 3 ? cen[3 * m + k] : rad[m]);
                    lua_rawseti(L, -2, 4 * m + k + 1);
                }
            }
            lua_setfield(L, -2, "spheres");
            imp_lua_set_vector(L, "angular_momentum", d->clumps[d->clump_of[i]].L, 3);
        } else if (d->kind[i] == IMP_DEM_SPHERE) {
            imp_lua_set_number(L, "radius", d->radius[i]);
        } else if (d->kind[i] == IMP_DEM_WALL) {
            imp_lua_set_vector(L, "normal", c->core, 3);
        } else {
            imp_lua_set_vector(L, "vertices", c->vert, 9);
        }
        if (b->material >= 0) {
            lua_pushstring(L, w->model.materials.items[b->material].name);
            lua_setfield(L, -2, "material");
        }
        imp_lua_set_vector(L, "state", w->data.y + (size_t)d->slot[i] * IMP_STRIDE_3D, IMP_STRIDE_3D);
        lua_rawseti(L, -2, ++nb);
    }
    lua_setfield(L, -2, "particles");
    lua_createtable(L, d->ninter, 0);
    for (int k = 0; k < d->ninter; k++) {
        const imp_dem_inter *I = &d->inter[k];
        /* the viscoelastic law's kept dashpot force: 0 when not kept (dem.h: visc_stale) */
        const int stale = d->p.law == IMP_DEM_LAW_VISCOUS && d->visc_stale;
        double v[19] = {I->a, I->b, I->real, I->pending, I->un, I->n[0], I->n[1], I->n[2],
                        I->kn, I->ks, I->mu, stale ? 0.0 : I->kn0, stale ? 0.0 : I->ks0, I->fn,
                        I->fs[0], I->fs[1], I->fs[2], (double)I->created, I->cn0};
        imp_push_vector(L, v, 19);
        lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "interactions");
    /* the moments, bonds and periodic shifts of the interactions, 10 numbers each: the rolling
       moment, the twisting moment, bonded, the normal and shear adhesion, the cell shift */
    lua_createtable(L, 10 * d->ninter, 0);
    for (int k = 0; k < d->ninter; k++) {
        const imp_dem_inter *I = &d->inter[k];
        double v[10] = {I->mr[0], I->mr[1], I->mr[2], I->mt, I->bonded, I->adh_n, I->adh_s,
                        I->cell[0], I->cell[1], I->cell[2]};
        for (int j = 0; j < 10; j++) {
            lua_pushnumber(L, v[j]);
            lua_rawseti(L, -2, 10 * k + j + 1);
        }
    }
    lua_setfield(L, -2, "moments");
    double extra[3] = {d->p.twisting, d->p.wall_friction_angle, d->p.tangential_damping};
    imp_lua_set_vector(L, "params2", extra, 3);
    if (d->cell.on) {  /* the periodic cell: H, H0 and the velocity gradient */
        double cell[27];
        memcpy(cell, d->cell.h, sizeof d->cell.h);
        memcpy(cell + 9, d->cell.h0, sizeof d->cell.h0);
        memcpy(cell + 18, d->cell.L, sizeof d->cell.L);
        imp_lua_set_vector(L, "cell", cell, 27);
    }
    lua_createtable(L, 2 * d->pend_n, 0);
    for (int e = 0; e < 2 * d->pend_n; e++) {
        lua_pushinteger(L, d->pend[e]);
        lua_rawseti(L, -2, e + 1);
    }
    lua_setfield(L, -2, "pending");
    lua_pushboolean(L, d->pend_scan);
    lua_setfield(L, -2, "pend_scan");
    /* restart the sweep here too: the loaded world starts from a fresh one (and so the
       periodic collider's next run: its Verlet skip starts again) */
    imp_dem_bins_free(d->bp);
    d->bp = NULL;
    d->cell.anchor_n = 0;
    return 1;
}

/* The readers below check types and ranges themselves (impact.dem.load checks the whole
   scene first, with better messages; these keep a direct call from crashing). */
static double num_at(lua_State *L, int t, int i)
{
    if (!lua_istable(L, t)) {
        imp_raise(L, "impact.dem.load: a list expected, got %s", luaL_typename(L, t));
    }
    lua_rawgeti(L, t, i);
    double v = lua_tonumber(L, -1);
    lua_pop(L, 1);
    return v;
}

/* an integer in [lo, hi] (longs within +-1e18: exact as doubles and in range) */
#define IMP_LONG_BOUND 1000000000000000000L
static long int_of(lua_State *L, double v, long lo, long hi)
{
    if (!(v >= (double)lo && v <= (double)hi) || v != floor(v)) {
        char buf[128];
        snprintf(buf, sizeof buf, "an integer in [%ld, %ld] expected, got %g", lo, hi, v);
        imp_raise(L, "impact.dem.load: %s", buf);
    }
    return (long)v;
}

static double field(lua_State *L, int t, const char *k)
{
    lua_getfield(L, t, k);
    double v = lua_tonumber(L, -1);
    lua_pop(L, 1);
    return v;
}

/* t[k] onto the stack; raises unless it is a table */
static void sub_table(lua_State *L, int t, const char *k)
{
    lua_getfield(L, t, k);
    if (!lua_istable(L, -1)) {
        imp_raise(L, "impact.dem.load: field '%s' must be a table, got %s", k,
                   luaL_typename(L, -1));
    }
}

/* core.dem_import(w, t): after the bodies were added in the saved order */
static int l_import(lua_State *L)
{
    imp_world *w;
    imp_dem *d = synced(L, &w);
    luaL_checktype(L, 2, LUA_TTABLE);
    sub_table(L, 2, "particles");
    int pt = lua_gettop(L);
    int nbodies = d->n;
    for (int c = 0; c < d->nclumps; c++) {
        nbodies -= d->clumps[c].count - 1;
    }
    if ((int)luaL_len(L, pt) != nbodies) {
        return imp_raise(L, "impact.dem.load: %d bodies saved, %d in the world",
                          (int)luaL_len(L, pt), nbodies);
    }
    for (int i = 0, e = 0; i < d->n; i++) {  /* exact states (add_body may renormalize) */
        if (d->member[i] > 0) {
            continue;
        }
        lua_rawgeti(L, pt, ++e);
        if (!lua_istable(L, -1)) {
            return imp_raise(L, "impact.dem.load: particle %d must be a table", e);
        }
        sub_table(L, lua_gettop(L), "state");
        double *y = w->data.y + (size_t)d->slot[i] * IMP_STRIDE_3D;
        w->data.state_version++;  /* an edit: the dem reloads its copy */
        for (int k = 0; k < IMP_STRIDE_3D; k++) {
            y[k] = num_at(L, -1, k + 1);
        }
        lua_pop(L, 1);
        /* the exact mass properties (recomputing them from a density may round differently) */
        imp_body *b = &w->model.bodies[d->slot[i]];
        b->mass = field(L, -1, "mass");
        b->inv_mass = field(L, -1, "inv_mass");
        sub_table(L, lua_gettop(L), "inertia");
        sub_table(L, lua_gettop(L) - 1, "inv_inertia");
        for (int k = 0; k < 9; k++) {
            b->inertia.m[k / 3][k % 3] = num_at(L, -2, k + 1);
            b->inv_inertia.m[k / 3][k % 3] = num_at(L, -1, k + 1);
        }
        lua_pop(L, 3);
    }
    lua_settop(L, 2);
    d->built = 0;  /* particles (and clumps) again from the exact masses and states */
    if (imp_dem_sync(w) != IMP_OK) {
        return imp_raise(L, "%s", imp_world_error(w));
    }
    /* the clumps' angular momenta as they were (recomputing them from the angular velocity
       rounds differently) */
    sub_table(L, 2, "particles");
    for (int c = 0, e = 0, i = 0; i < d->n; i++) {
        if (d->member[i] > 0) {
            continue;
        }
        e++;
        if (d->clump_of[i] < 0) {
            continue;
        }
        lua_rawgeti(L, -1, e);
        if (!lua_istable(L, -1)) {
            return imp_raise(L, "impact.dem.load: particle %d must be a table", e);
        }
        lua_getfield(L, -1, "angular_momentum");
        if (lua_istable(L, -1)) {
            for (int k = 0; k < 3; k++) {
                d->clumps[c].L[k] = num_at(L, -1, k + 1);
            }
        }
        lua_pop(L, 2);
        c++;
    }
    lua_pop(L, 1);
    w->data.time_base = field(L, 2, "time_base");
    w->data.steps_since_base = int_of(L, field(L, 2, "steps_since_base"), 0, IMP_LONG_BOUND);
    w->data.time = w->data.time_base + (double)w->data.steps_since_base * w->model.def.dt;
    w->data.stats.steps = int_of(L, field(L, 2, "steps"), 0, IMP_LONG_BOUND);
    d->iter = int_of(L, field(L, 2, "iter"), 0, IMP_LONG_BOUND);
    d->collider_runs = int_of(L, field(L, 2, "collider_runs"), 0, IMP_LONG_BOUND);
    sub_table(L, 2, "energy");
    d->energy.gravity_work = num_at(L, -1, 1);
    d->energy.damping = num_at(L, -1, 2);
    d->energy.plastic = num_at(L, -1, 3);
    d->energy.viscous = num_at(L, -1, 4);  /* 0 in scenes saved before it was booked */
    lua_pop(L, 1);
    sub_table(L, 2, "params");
    d->p.damping = num_at(L, -1, 1);
    d->p.verlet = num_at(L, -1, 2);
    d->p.interaction_radius = num_at(L, -1, 3);
    d->p.geometry = (int)int_of(L, num_at(L, -1, 4), 0, 7);
    d->p.law = (int)int_of(L, num_at(L, -1, 5), 0, 2);
    d->p.never_erase = (int)int_of(L, num_at(L, -1, 6), 0, 1);
    double young = num_at(L, -1, 7);
    d->p.ks_ratio = num_at(L, -1, 8);
    d->p.friction_angle = num_at(L, -1, 9);
    d->p.poisson = num_at(L, -1, 10);
    d->p.track_energy = (int)int_of(L, num_at(L, -1, 11), 0, 1);
    d->p.en = num_at(L, -1, 12);
    lua_pop(L, 1);
    d->p.young = young;
    for (int i = 0; i < d->n; i++) {
        if (w->model.bodies[d->slot[i]].material < 0) {
            d->young[i] = young;
        }
    }
    /* the periodic cell (before the interactions: setting it clears their shifts); the
       bodies' velocities are the saved total ones, so it is set with a zero gradient, which
       changes none of them, and then given its own */
    imp_dem_cell_clear(d);
    lua_getfield(L, 2, "cell");
    if (lua_istable(L, -1)) {
        double cell[27], zero[9] = {0};
        for (int k = 0; k < 27; k++) {
            cell[k] = num_at(L, -1, k + 1);
        }
        if (imp_dem_cell_set(d, cell, zero) != 0) {
            return imp_raise(L, "impact.dem.load: state.cell: %s", d->error);
        }
        memcpy(d->cell.h0, cell + 9, sizeof d->cell.h0);
        memcpy(d->cell.L, cell + 18, sizeof d->cell.L);
    }
    lua_pop(L, 1);
    /* interactions, in their order (their constants as saved: the law checks them against
       the particles' again, dem_law.c) */
    d->derived = 0;
    d->visc_stale = 0;  /* the saved kept forces are current or 0 */
    while (d->ninter > 0) {
        imp_dem_erase(d, d->ninter - 1);
    }
    d->npending = 0;
    sub_table(L, 2, "interactions");
    int it = lua_gettop(L);
    int m = (int)int_of(L, (double)luaL_len(L, it), 0, INT_MAX / 4);
    for (int k = 0; k < m; k++) {
        lua_rawgeti(L, it, k + 1);
        int a = (int)int_of(L, num_at(L, -1, 1), 0, d->n - 1);
        int b = (int)int_of(L, num_at(L, -1, 2), 0, d->n - 1);
        if (a < 0 || b < 0 || a >= d->n || b >= d->n || a == b
            || imp_dem_add_potential(d, a, b) != k) {
            return imp_raise(L, "impact.dem.load: bad interaction %d", k + 1);
        }
        imp_dem_inter *I = &d->inter[k];
        I->a = a, I->b = b;  /* as saved (add_potential orders the same way) */
        I->real = (int)int_of(L, num_at(L, -1, 3), 0, 1);
        I->pending = (int)int_of(L, num_at(L, -1, 4), 0, 1);
        I->un = num_at(L, -1, 5);
        for (int j = 0; j < 3; j++) {
            I->n[j] = num_at(L, -1, 6 + j);
            I->fs[j] = num_at(L, -1, 15 + j);
        }
        I->kn = num_at(L, -1, 9);
        I->ks = num_at(L, -1, 10);
        I->mu = num_at(L, -1, 11);
        I->kn0 = num_at(L, -1, 12);
        I->ks0 = num_at(L, -1, 13);
        I->fn = num_at(L, -1, 14);
        I->created = int_of(L, num_at(L, -1, 18), -IMP_LONG_BOUND, IMP_LONG_BOUND);
        I->cn0 = num_at(L, -1, 19);
        d->hot[3 * k] = a, d->hot[3 * k + 1] = b, d->hot[3 * k + 2] = I->real ? imp_dem_hot_class(d, a) : 0;
        imp_dem_hot_touch(d, k);
        d->npending += I->pending;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    /* moments, bonds and cell shifts (absent from scenes saved before they existed) */
    lua_getfield(L, 2, "moments");
    if (lua_istable(L, -1)) {
        for (int k = 0; k < m; k++) {
            imp_dem_inter *I = &d->inter[k];
            for (int j = 0; j < 3; j++) {
                I->mr[j] = num_at(L, -1, 10 * k + j + 1);
                I->cell[j] = (int)int_of(L, num_at(L, -1, 10 * k + j + 8), -INT_MAX / 2, INT_MAX / 2);
            }
            I->mt = num_at(L, -1, 10 * k + 4);
            I->bonded = num_at(L, -1, 10 * k + 5) != 0.0;
            I->adh_n = num_at(L, -1, 10 * k + 6);
            I->adh_s = num_at(L, -1, 10 * k + 7);
        }
    }
    lua_pop(L, 1);
    d->nbonds = imp_dem_bond_count(d);
    lua_getfield(L, 2, "params2");
    d->p.twisting = lua_istable(L, -1) ? num_at(L, -1, 1) : 0.0;
    d->p.wall_friction_angle = lua_istable(L, -1) ? num_at(L, -1, 2) : -1.0;
    /* the viscoelastic law's tangential dashpot (1 in scenes saved before it) */
    d->p.tangential_damping = 1;
    if (lua_istable(L, -1)) {
        lua_rawgeti(L, -1, 3);
        if (!lua_isnil(L, -1)) {
            d->p.tangential_damping = (int)int_of(L, lua_tonumber(L, -1), 0, 1);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    sub_table(L, 2, "pending");
    int np = (int)int_of(L, (double)luaL_len(L, -1), 0, INT_MAX / 4) / 2;
    d->pend_n = 0;
    for (int e = 0; e < np; e++) {
        int k = imp_dem_find(d, (int)int_of(L, num_at(L, -1, 2 * e + 1), 0, d->n - 1),
                             (int)int_of(L, num_at(L, -1, 2 * e + 2), 0, d->n - 1));
        if (k >= 0 && d->inter[k].pending) {
            d->inter[k].pending = 0;  /* re-requested below, in the saved order */
            d->npending--;
            imp_dem_request_erase(d, k);
        }
    }
    lua_pop(L, 1);
    lua_getfield(L, 2, "pend_scan");
    d->pend_scan = lua_toboolean(L, -1) || d->npending != d->pend_n;
    lua_pop(L, 1);
    imp_dem_bins_free(d->bp);
    d->bp = NULL;
    d->cell.anchor_n = 0;
    return 0;
}

void imp_lua_open_dem_state(lua_State *L)
{
    static const luaL_Reg fns[] = {{"dem_export", l_export}, {"dem_import", l_import}, {NULL, NULL}};
    luaL_setfuncs(L, fns, 0);
}
