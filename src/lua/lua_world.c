/* lua_world.c: the impact.World userdata: construction from an options table, properties,
   adding and removing bodies, stepping, energies and statistics. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine3d_joints.h"
#include "islands.h"
#include "lua_world.h"
#include "polygon2d.h"

static world_ud *to_world_ud(lua_State *L, int idx)
{
    return luaL_checkudata(L, idx, IMP_WORLD_MT);
}

int imp_lua_world_open(const world_ud *u) { return u->w != NULL && !u->closed; }

imp_world *imp_lua_check_world(lua_State *L, int idx)
{
    world_ud *u = to_world_ud(L, idx);
    if (!imp_lua_world_open(u)) {
        imp_raise(L, "the world is closed");
    }
    return u->w;
}

/* ---- re-entrancy guard (see lua_world.h) --------------------------------------------------- */

static int l_world_close(lua_State *L);

static void free_world(world_ud *u)
{
    u->closed = 1;
    imp_world_free(u->w);
    u->w = NULL;
}

/* The world userdata reached from argument 1 when it is of the kind `on`, pushed (it anchors
   the world for the whole call); NULL, nothing pushed, otherwise. */
static world_ud *guarded_world(lua_State *L, int on)
{
    static const char *const mts[] = {IMP_WORLD_MT, IMP_BODY_MT, IMP_SPRING_MT, IMP_LOAD_MT};
    if (luaL_testudata(L, 1, mts[on]) == NULL) {
        return NULL;
    }
    if (on == IMP_ON_WORLD) {
        lua_pushvalue(L, 1);
    } else {
        lua_getiuservalue(L, 1, 1);  /* BODY_UV_WORLD, and a spring's or a load's world */
    }
    return lua_touserdata(L, -1);
}

/* Raises the error on top again. f ran in a frame of its own, called from C, so its argument
   errors read "bad argument #2 to '?' (...)"; raised again from this frame (the one Lua
   called), they name the method and count its arguments as before. */
static int reraise(lua_State *L)
{
    static const char head[] = "bad argument #", name[] = " to '?' (";
    const char *m = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    if (m == NULL || strncmp(m, head, sizeof head - 1) != 0) {
        return lua_error(L);
    }
    char *end;
    long arg = strtol(m + sizeof head - 1, &end, 10);
    size_t rest = strlen(end);
    if (end == m + sizeof head - 1 || arg < 1 || arg > 1000 || strncmp(end, name, sizeof name - 1) != 0
        || end[rest - 1] != ')') {
        return lua_error(L);
    }
    const char *extra = lua_pushlstring(L, end + sizeof name - 1, rest - (sizeof name - 1) - 1);
    return luaL_argerror(L, (int)arg, extra);
}

/* f == NULL: the function is the first upvalue of the running closure (l_guarded) */
static int guarded(lua_State *L, int n, lua_CFunction f, int on, const char *what, int mode)
{
    static const char *const closed[] = {"the world is closed", "this body's world is closed",
                                         "this spring's world is closed",
                                         "this load's world is closed"};
    world_ud *u = guarded_world(L, on);
    if (f == NULL) {
        f = lua_tocfunction(L, lua_upvalueindex(1));  /* a C function without upvalues */
    }
    if (u == NULL) {  /* not ours: the function raises its own type error, from this frame */
        lua_settop(L, n);
        return f(L);
    }
    int base = lua_gettop(L);
    if (!imp_lua_world_open(u)) {
        return imp_raise(L, "%s", closed[on]);
    }
    if (mode == IMP_EXCLUSIVE && u->busy > 0) {
        return imp_raise(L, "%s: the world is in use by %s, which ran the code making this call "
                             "(a metamethod or a finalizer); a world cannot be changed from there",
                          what, u->running);
    }
    luaL_checkstack(L, n + 2, what);
    lua_pushcfunction(L, f);
    for (int i = 1; i <= n; i++) {
        lua_pushvalue(L, i);
    }
    if (u->busy++ == 0) {
        u->running = what;
    }
    int status = lua_pcall(L, n, LUA_MULTRET, 0);
    if (--u->busy == 0) {
        u->running = NULL;
        if (u->closed) {
            free_world(u);
        }
    }
    if (u->closed) {
        return imp_raise(L, "the world was closed while %s was running", what);
    }
    if (status != LUA_OK) {
        return reraise(L);
    }
    return lua_gettop(L) - base;
}

int imp_lua_guarded_call(lua_State *L, int n, lua_CFunction f, int on, const char *what, int mode)
{
    return guarded(L, n, f, on, what, mode);
}

/* upvalues: the function (a C function without upvalues), its name, on * 2 + mode */
static int l_guarded(lua_State *L)
{
    int flags = (int)lua_tointeger(L, lua_upvalueindex(3));
    return guarded(L, lua_gettop(L), NULL, flags >> 1, lua_tostring(L, lua_upvalueindex(2)),
                   flags & 1);
}

/* pushes the function at idx wrapped */
static void push_guarded(lua_State *L, int idx, const char *name, int on, int mode)
{
    idx = lua_absindex(L, idx);
    lua_pushvalue(L, idx);
    lua_pushstring(L, name);
    lua_pushinteger(L, on * 2 + mode);
    lua_pushcclosure(L, l_guarded, 3);
}

void imp_lua_set_guarded(lua_State *L, const luaL_Reg *l, const char *prefix, int on, int mode)
{
    for (; l->name != NULL; l++) {
        lua_pushcfunction(L, l->func);
        const char *name = lua_pushfstring(L, "%s%s", prefix, l->name);
        push_guarded(L, -2, name, on, mode);
        lua_setfield(L, -4, l->name);
        lua_pop(L, 2);
    }
}

/* the methods left bare: close (it must run on a closed or busy world) and _contact_events (a
   flag, no Lua called; a no-op on a closed world: lua_material.c) */
static int unguarded(lua_CFunction f)
{
    return f == l_world_close || f == imp_lua_event_flag_methods[0].func;
}

void imp_lua_guard_table(lua_State *L, const char *prefix, const char *name_prefix, int on)
{
    int t = lua_gettop(L);
    size_t np = strlen(name_prefix);
    lua_pushnil(L);
    while (lua_next(L, t) != 0) {
        lua_CFunction f = lua_tocfunction(L, -1);
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        int upvalues = f != NULL && lua_getupvalue(L, -1, 1) != NULL;
        if (upvalues) {
            lua_pop(L, 1);  /* a closure: left as it is (the guard calls bare C functions) */
        }
        if (f != NULL && !upvalues && f != l_guarded && !unguarded(f) && k != NULL
            && strncmp(k, name_prefix, np) == 0) {
            const char *name = lua_pushfstring(L, "%s%s", prefix, k);
            push_guarded(L, -2, name, on, IMP_EXCLUSIVE);
            lua_pushvalue(L, -4);
            lua_insert(L, -2);
            lua_rawset(L, t);  /* an existing key: allowed during the traversal */
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
}

/* ---- options ---------------------------------------------------------------------------- */

static int push_option(lua_State *L, int idx, const char *key)
{
    if (lua_getfield(L, idx, key) == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    return 1;
}

/* Whether the options table at idx sets key. */
static int option_given(lua_State *L, int idx, const char *key)
{
    if (!push_option(L, idx, key)) {
        return 0;
    }
    lua_pop(L, 1);
    return 1;
}

/* The 3D engine steps at velocity level (time_stepping = "symplectic_euler", the 3D default,
   engine3d.h) or with the world's integrator and force-level contact ("ode", engine3d_ode.h,
   where extra_accel and extra_accel_dt mean what they mean in 2D). joint_small_impacts is
   refused: 3D joints are rows of every step's contact problem (engine3d_joints.h). The extra acceleration's options are refused at velocity
   level, where they have no meaning. */
static void check_engine3d_options(lua_State *L, int idx, const char *what, imp_engine2d_def *d)
{
    if (push_option(L, idx, "joint_small_impacts")) {
        imp_error(L, what, "option 'joint_small_impacts' (got %s) acts on joints of 2D worlds; 3D "
                  "joints are held in every step's contact problem, under \"impulse\" too: leave it out",
                  imp_describe(L, -1));
    }
    if (d->time_stepping == IMP_STEPPING_ODE && push_option(L, idx, "substeps")) {
        imp_error(L, what, "option 'substeps' (got %s) cuts the velocity-level steps "
                  "(time_stepping = \"symplectic_euler\"); under time_stepping = \"ode\" the integrator "
                  "steps and backs up on its own: leave it out", imp_describe(L, -1));
    }
    static const char *const ode_only[] = {"extra_accel", "extra_accel_dt", NULL};
    for (int i = 0; ode_only[i] != NULL && d->time_stepping != IMP_STEPPING_ODE; i++) {
        if (push_option(L, idx, ode_only[i])) {
            imp_error(L, what, "option '%s' (got %s) belongs to the force-level contact inside the "
                      "integrator (time_stepping = \"ode\"); this world steps at velocity level "
                      "(time_stepping = \"symplectic_euler\", the 3D default): give time_stepping = "
                      "\"ode\" or leave it out", ode_only[i], imp_describe(L, -1));
        }
    }
    d->contact_points = imp_opt_enum(L, idx, what, "contact_points", imp_contact_points_names,
                                     d->contact_points);
    d->substeps = (int)imp_opt_integer(L, idx, what, "substeps", d->substeps, 1, 1000);
}

/* An integrator given to a world that steps by its own scheme would do nothing: the 3D
   engine's velocity-level steps (time_stepping other than "ode") and the dem's leapfrog. */
static void check_integrator_used(lua_State *L, const imp_world_def *def, const char *what,
                                  const char *name)
{
    unsigned flags = imp_strategy_ops_of(def->strategy, def->dim)->flags;
    if ((flags & IMP_STRATEGY_OWN_STATE) != 0) {
        imp_error(L, what, "%s would not be used: the dem strategy steps by its own leapfrog "
                  "(dem.newton, Yade's NewtonIntegrator): leave it out", name);
    }
    if (def->dim == 2 && (flags & IMP_STRATEGY_COLLISIONS) != 0
        && def->engine2d.time_stepping != IMP_STEPPING_ODE) {
        imp_error(L, what, "%s would not be used: time_stepping = \"symplectic_euler\" (and the "
                  "soft step) steps by semi-implicit Euler; give time_stepping = \"ode\" to step "
                  "with an integrator, or leave it out", name);
    }
    if ((flags & IMP_STRATEGY_OWN_STEPPING) != 0 && def->dim == 3
        && def->engine2d.time_stepping != IMP_STEPPING_ODE) {
        imp_error(L, what, "%s would not be used: the 3D engine's velocity-level steps "
                  "(time_stepping = \"symplectic_euler\", the 3D default) have their own scheme; "
                  "give time_stepping = \"ode\" to step with an integrator, or leave it out", name);
    }
}

static void read_integrator(lua_State *L, int idx, const char *what, imp_integrator_def *d)
{
    static const char *const keys[] = {"method", "rtol", "atol", "hmax", "h0", "max_substeps", NULL};
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) == LUA_TSTRING) {
        lua_createtable(L, 0, 1);
        lua_pushvalue(L, idx);
        lua_setfield(L, -2, "method");
        idx = lua_gettop(L);
    } else if (!lua_istable(L, idx)) {
        imp_error(L, what, "option 'integrator' must be a method name or a table {method = ..., "
                           "rtol = ..., atol = ...}, got %s", imp_describe(L, idx));
    }
    imp_opt_check_nested_keys(L, idx, what, "integrator", keys);
    d->kind = (imp_integrator_kind)imp_opt_enum(L, idx, what, "integrator.method", imp_integrator_names, d->kind);
    d->rtol = imp_opt_number(L, idx, what, "integrator.rtol", d->rtol, IMP_NONNEGATIVE, NULL);
    d->atol = imp_opt_number(L, idx, what, "integrator.atol", d->atol, IMP_NONNEGATIVE, NULL);
    if (d->rtol == 0.0 && d->atol == 0.0) {
        imp_error(L, what, "options 'integrator.rtol' and 'integrator.atol' cannot both be 0");
    }
    d->hmax = imp_opt_number(L, idx, what, "integrator.hmax", d->hmax, IMP_NONNEGATIVE, NULL);
    d->h0 = imp_opt_number(L, idx, what, "integrator.h0", d->h0, IMP_NONNEGATIVE, NULL);
    d->max_substeps = (long)imp_opt_integer(L, idx, what, "integrator.max_substeps", d->max_substeps, 1,
                                            1000000000);
}

static void read_damping(lua_State *L, int idx, const char *what, double *lin, double *ang)
{
    static const char *const keys[] = {"linear", "angular", NULL};
    if (!lua_istable(L, idx)) {
        imp_error(L, what, "option 'damping' must be a table {linear = c, angular = c}, got %s",
                  imp_describe(L, idx));
    }
    imp_opt_check_nested_keys(L, idx, what, "damping", keys);
    *lin = imp_opt_number(L, idx, what, "damping.linear", *lin < 0 ? 0.0 : *lin, IMP_NONNEGATIVE, NULL);
    *ang = imp_opt_number(L, idx, what, "damping.angular", *ang < 0 ? 0.0 : *ang, IMP_NONNEGATIVE, NULL);
}

static void read_gravitation(lua_State *L, int idx, const char *what, imp_world_def *d)
{
    static const char *const keys[] = {"G", "softening", NULL};
    if (!lua_istable(L, idx)) {
        imp_error(L, what, "option 'gravitation' must be a table {G = ..., softening = 0}, got %s",
                  imp_describe(L, idx));
    }
    imp_opt_check_nested_keys(L, idx, what, "gravitation", keys);
    d->gravitation_g = imp_opt_number(L, idx, what, "gravitation.G", 0.0, IMP_NONNEGATIVE, NULL);
    d->gravitation_softening = imp_opt_number(L, idx, what, "gravitation.softening", 0.0, IMP_NONNEGATIVE, NULL);
}

static void read_compliant(lua_State *L, int idx, const char *what, imp_compliant_def *d)
{
    static const char *const keys[] = {"nz_max", "z_eps", "k_red", "d_max", "cor_min",
                                       "event_tol", "damping", "verlet", NULL};
    static const char *const dampings[] = {"calibrated", "flores", NULL};
    if (!lua_istable(L, idx)) {
        imp_error(L, what, "option 'compliant' must be a table {nz_max =, z_eps =, k_red =, "
                           "d_max =, cor_min =, event_tol =, damping =, verlet =}, got %s", imp_describe(L, idx));
    }
    imp_opt_check_nested_keys(L, idx, what, "compliant", keys);
    d->nz_max = (int)imp_opt_integer(L, idx, what, "compliant.nz_max", d->nz_max, 1, 1000000);
    d->z_eps = imp_opt_number(L, idx, what, "compliant.z_eps", d->z_eps, IMP_POSITIVE, NULL);
    d->k_red = imp_opt_number(L, idx, what, "compliant.k_red", d->k_red, IMP_POSITIVE, NULL);
    d->d_max = imp_opt_number(L, idx, what, "compliant.d_max", d->d_max, IMP_POSITIVE, NULL);
    d->cor_min = imp_opt_number(L, idx, what, "compliant.cor_min", d->cor_min, IMP_POSITIVE, NULL);
    if (d->cor_min >= 1.0) {
        imp_error(L, what, "option 'compliant.cor_min' must be below 1, got %s", imp_push_g(L, d->cor_min));
    }
    d->event_tol = imp_opt_number(L, idx, what, "compliant.event_tol", d->event_tol, IMP_POSITIVE, NULL);
    d->damping = imp_opt_enum(L, idx, what, "compliant.damping", dampings, d->damping);
    d->verlet = imp_opt_number(L, idx, what, "compliant.verlet", d->verlet, IMP_NONNEGATIVE, NULL);
}

/* Sleeping (islands.h): sleep = true, sleep_time, sleep_linear, sleep_angular; only where the
   engine honours it (the impulse and contact strategies, 2D and 3D, either time stepping). */
static void read_sleep(lua_State *L, int idx, const char *what, imp_world_def *d)
{
    d->sleep = imp_opt_boolean(L, idx, what, "sleep", 0);
    d->sleep_time = imp_opt_number(L, idx, what, "sleep_time", d->sleep_time, IMP_NONNEGATIVE, NULL);
    d->sleep_linear = imp_opt_number(L, idx, what, "sleep_linear", d->sleep_linear, IMP_NONNEGATIVE, NULL);
    d->sleep_angular = imp_opt_number(L, idx, what, "sleep_angular", d->sleep_angular, IMP_NONNEGATIVE, NULL);
    if (d->sleep && d->strategy != IMP_STRATEGY_IMPULSE && d->strategy != IMP_STRATEGY_CONTACT) {
        imp_error(L, what, "option 'sleep' (got true) puts islands at rest to sleep under the "
                  "\"impulse\" and \"contact\" strategies; this world's strategy \"%s\" cannot "
                  "honour it: leave it out or give sleep = false", imp_strategy_names[d->strategy]);
    }
    if (d->dim == 3 && d->engine2d.soft.precision != IMP_SOFT_DOUBLE) {
        imp_error(L, what, "option 'soft.precision' (got \"%s\") is for the 2D soft step; the 3D one "
                  "solves in double: leave it out", imp_soft_precision_names[d->engine2d.soft.precision]);
    }
    if (d->sleep && d->dim == 2 && d->engine2d.contact_solver == IMP_SOLVER_SOFT) {
        imp_error(L, what, "option 'sleep' (got true) is not honoured by the 2D soft step yet "
                  "(contact_solver = \"soft\"): leave it out, or give another contact_solver");
    }
}

/* core.world_new(dim, options) */
static int l_world_new(lua_State *L)
{
    static const char *const keys[] = {"gravity", "strategy", "dt", "integrator", "damping",
                                       "gravitation", "seed", "compliant",
                                       /* engine2d (impulse and contact strategies) */
                                       "collision_handling", "distance_tol", "velocity_tol",
                                       "collision_accuracy", "extra_accel", "extra_accel_dt",
                                       "max_backups", "joint_small_impacts", "contact_solver",
                                       "pgs_iterations", "time_stepping", "contact_points", "substeps", "soft",
                                       "conventions",
                                       /* sleeping (islands.h) */
                                       "sleep", "sleep_time", "sleep_linear", "sleep_angular",
                                       /* read by lua/impact/polyhedra.lua (3D) */
                                       "polyhedra", NULL};
    int dim = (int)luaL_checkinteger(L, 1);
    luaL_argcheck(L, dim == 2 || dim == 3, 1, "dimension must be 2 or 3");
    const char *what = dim == 2 ? "impact.world2d" : "impact.world3d";
    if (lua_isnoneornil(L, 2)) {
        lua_settop(L, 1);
        lua_newtable(L);
    }
    if (!lua_istable(L, 2)) {
        return imp_error(L, what, "options must be a table, got %s", imp_describe(L, 2));
    }
    imp_opt_check_keys(L, 2, what, keys);
    imp_world_def def = imp_world_default_def(dim);
    imp_opt_vector(L, 2, what, "gravity", dim, def.gravity);
    /* the strategy with the integrator it needs by default (the options may change it) */
    imp_world_def_set_strategy(
        &def, (imp_strategy)imp_opt_enum(L, 2, what, "strategy", imp_strategy_names, 0));
    def.dt = imp_opt_number(L, 2, what, "dt", def.dt, IMP_POSITIVE, NULL);
    if (push_option(L, 2, "integrator")) {
        read_integrator(L, -1, what, &def.integrator);
        lua_settop(L, 2);
    }
    if (push_option(L, 2, "compliant")) {
        read_compliant(L, -1, what, &def.compliant);
        lua_pop(L, 1);
    }
    if (push_option(L, 2, "damping")) {
        read_damping(L, -1, what, &def.linear_damping, &def.angular_damping);
        lua_pop(L, 1);
    }
    if (push_option(L, 2, "gravitation")) {
        read_gravitation(L, -1, what, &def);
        lua_pop(L, 1);
    }
    def.seed = (unsigned long long)imp_opt_integer(L, 2, what, "seed", 1, 0, LUA_MAXINTEGER);
    imp_lua_read_engine2d(L, 2, what, &def.engine2d);
    if (def.engine2d.conventions != IMP_CONVENTIONS_IMPACT
        && (dim != 2 || (imp_strategy_ops_of(def.strategy, dim)->flags & IMP_STRATEGY_COLLISIONS) == 0
            || def.engine2d.contact_solver == IMP_SOLVER_SOFT)) {
        return imp_error(L, what, "option 'conventions' (got \"%s\") changes the 2D collision "
                         "advance of the \"impulse\" and \"contact\" strategies (not the soft "
                         "step); this world (%dD, strategy \"%s\"%s) cannot honour it: leave it out "
                         "or give \"impact\"", imp_conventions_names[def.engine2d.conventions], dim,
                         imp_strategy_names[def.strategy],
                         def.engine2d.contact_solver == IMP_SOLVER_SOFT ? ", contact_solver \"soft\"" : "");
    }
    if (!imp_strategy_supports(def.strategy, dim) ||  /* the strategy's table says */
        (imp_strategy_ops_of(def.strategy, dim)->dims & (1u << dim)) == 0) {  /* dem: 3D only */
        return imp_error(L, what, "strategy \"%s\" is for %s worlds", imp_strategy_names[def.strategy],
                         imp_strategy_dims_name(def.strategy));
    }
    if (dim == 3 && (imp_strategy_ops_of(def.strategy, 3)->flags & IMP_STRATEGY_COLLISIONS) != 0) {
        check_engine3d_options(L, 2, what, &def.engine2d);
    } else {
        if (dim == 3 && option_given(L, 2, "joint_small_impacts")) {
            return imp_error(L, what, "option 'joint_small_impacts' acts on the joints of 2D worlds "
                             "(strategies \"impulse\" and \"contact\"); this world is 3D: leave it out");
        }
        if (dim == 2 && def.engine2d.contact_solver == IMP_SOLVER_SOFT) {  /* the soft step's sub-steps */
            def.engine2d.substeps = (int)imp_opt_integer(L, 2, what, "substeps", def.engine2d.substeps, 1, 1000);
        }
        static const char *const only3d[] = {"substeps", "contact_points", NULL};
        for (int i = dim == 2 && def.engine2d.contact_solver == IMP_SOLVER_SOFT; only3d[i] != NULL; i++) {
            if (option_given(L, 2, only3d[i])) {
                return imp_error(L, what, "option '%s' belongs to the 3D impulse and contact "
                                 "strategies (this world: %dD, strategy \"%s\")", only3d[i], dim,
                                 imp_strategy_names[def.strategy]);
            }
        }
    }
    if (option_given(L, 2, "integrator")) {
        check_integrator_used(L, &def, what, "option 'integrator'");
    }
    read_sleep(L, 2, what, &def);
    world_ud *u = lua_newuserdatauv(L, sizeof *u, WORLD_NUV);
    memset(u, 0, sizeof *u);
    u->material_version = -1;
    luaL_setmetatable(L, IMP_WORLD_MT);
    lua_newtable(L);
    lua_setiuservalue(L, -2, WORLD_UV_BODIES);
    lua_newtable(L);
    lua_setiuservalue(L, -2, WORLD_UV_SPRINGS);
    u->w = imp_world_new(&def);
    if (u->w == NULL) {
        return imp_raise(L, "%s: out of memory", what);
    }
    imp_world_set_contact_events(u->w, 0);  /* (on while a handler wants them: world.lua) */
    imp_body_id bg = imp_world_background(u->w);
    imp_lua_new_body(L, lua_gettop(L), bg, 0, 0, 0);
    lua_pop(L, 1);  /* the background's userdata, now held by the world */
    return 1;
}

/* w:close() (also __close): frees the world now, or when the methods running on it return */
static int l_world_close(lua_State *L)
{
    world_ud *u = to_world_ud(L, 1);
    u->closed = 1;
    if (u->busy == 0) {
        free_world(u);
    }
    return 0;
}

/* __gc: nothing can run on the world any more (a busy count left only by lua_close) */
static int l_world_gc(lua_State *L)
{
    free_world(to_world_ud(L, 1));
    return 0;
}

/* ---- bodies ------------------------------------------------------------------------------ */

static void read_inertia(lua_State *L, int idx, const char *what, int dim, imp_body_def *d)
{
    idx = lua_absindex(L, idx);
    d->has_inertia = 1;
    if (dim == 2 || lua_type(L, idx) == LUA_TNUMBER) {
        double v = lua_tonumber(L, idx);
        if (lua_type(L, idx) != LUA_TNUMBER || !(v > 0.0) || !isfinite(v)) {
            imp_error(L, what, "option 'inertia' must be a positive finite number%s, got %s",
                      dim == 3 ? " (or {Ixx, Iyy, Izz} or a 3x3 table)" : "", imp_describe(L, idx));
        }
        d->inertia = imp_m3_diag(v, v, v);
        return;
    }
    if (!lua_istable(L, idx)) {
        imp_error(L, what, "option 'inertia' must be {Ixx, Iyy, Izz} or a 3x3 table, got %s",
                  imp_describe(L, idx));
    }
    lua_geti(L, idx, 1);
    int nested = lua_istable(L, -1);
    lua_pop(L, 1);
    if (!nested) {
        double v[3];
        imp_to_vector(L, idx, what, "option 'inertia'", 3, v);
        d->inertia = imp_m3_diag(v[0], v[1], v[2]);
        return;
    }
    if (luaL_len(L, idx) != 3) {
        imp_error(L, what, "option 'inertia' must be a 3x3 table");
    }
    for (int i = 0; i < 3; i++) {
        lua_geti(L, idx, i + 1);
        imp_to_vector(L, -1, what, "each row of option 'inertia'", 3, d->inertia.m[i]);
        lua_pop(L, 1);
    }
}

/* whether the value at idx can be called (a function, or a value whose metatable has __call) */
static int callable(lua_State *L, int idx)
{
    if (lua_isfunction(L, idx)) {
        return 1;
    }
    int ok = luaL_getmetafield(L, idx, "__call") != LUA_TNIL;
    if (ok) {
        lua_pop(L, 1);
    }
    return ok;
}

/* World:add_body{shape =, mass =, density =, ...} */
static int l_add_body(lua_State *L)
{
    static const char *const keys2[] = {"shape", "mass", "density", "inertia", "position",
                                        "angle", "velocity", "spin", "fixed", "name", "damping",
                                        "data", "material", "collide", "elasticity", "friction",
                                        "kinematic", "motion", "filter", "center_of_mass", "sleep",
                                        NULL};
    static const char *const keys3[] = {"shape", "mass", "density", "inertia", "position",
                                        "orientation", "velocity", "angular_velocity", "fixed",
                                        "name", "damping", "data", "material", "collide",
                                        "elasticity", "friction", "kinematic", "motion", "filter",
                                        "sleep", NULL};
    const char *what = "World:add_body";
    imp_world *w = imp_lua_check_world(L, 1);
    int dim = w->model.def.dim;
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    imp_opt_check_keys(L, 2, what, dim == 2 ? keys2 : keys3);
    imp_body_def d = imp_body_default_def(dim);
    int shape_idx = 0;
    if (push_option(L, 2, "shape")) {
        d.shape = imp_lua_test_shape(L, -1);
        if (d.shape == NULL) {
            return imp_error(L, what, "option 'shape' must be a shape (impact.shape%dd.*), got %s",
                             dim, imp_describe(L, -1));
        }
        if (d.shape->dim != dim) {
            return imp_error(L, what, "option 'shape' is a %dD %s; a %dD world needs a %dD shape",
                             d.shape->dim, d.shape->cls->name, dim, dim);
        }
        shape_idx = lua_gettop(L);
    }
    if (dim == 2 && option_given(L, 2, "center_of_mass")) {
        /* the body's own copy of its shape, whose reference point is the centre of mass */
        if (d.shape == NULL) {
            return imp_error(L, what, "option 'center_of_mass' is a point in the shape's "
                             "coordinates: give the body a 'shape'");
        }
        double c[2] = {0.0, 0.0};
        imp_opt_vector(L, 2, what, "center_of_mass", 2, c);
        /* through impact.core's shape2d_recentred as loaded (World:save's shape records see
           the copy there: impact.world_file_shapes) */
        lua_getglobal(L, "package");
        lua_getfield(L, -1, "loaded");
        lua_getfield(L, -1, "impact.core");
        if (lua_istable(L, -1)) {
            lua_getfield(L, -1, "shape2d_recentred");
        } else {
            lua_pushnil(L);
        }
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            lua_pushcfunction(L, imp_lua_shape2d_recentred);
        }
        lua_replace(L, -4);
        lua_settop(L, lua_gettop(L) - 2);
        lua_pushvalue(L, shape_idx);
        lua_pushnumber(L, c[0]);
        lua_pushnumber(L, c[1]);
        lua_call(L, 3, 1);
        d.shape = imp_lua_test_shape(L, -1);
        if (d.shape == NULL) {
            return imp_error(L, what, "option 'center_of_mass': no shape was made");
        }
        shape_idx = lua_gettop(L);
    }
    int has_mass, has_density;
    d.mass = imp_opt_number(L, 2, what, "mass", 0.0, IMP_POSITIVE, &has_mass);
    d.density = imp_opt_number(L, 2, what, "density", 1.0, IMP_POSITIVE, &has_density);
    if (has_mass && has_density) {
        return imp_error(L, what, "give either 'mass' or 'density', not both");
    }
    d.fixed = imp_opt_boolean(L, 2, what, "fixed", 0);
    d.collide = imp_opt_boolean(L, 2, what, "collide", 1);
    d.no_sleep = !imp_opt_boolean(L, 2, what, "sleep", 1);  /* islands.h */
    int motion_idx = 0;
    if (push_option(L, 2, "motion")) {
        if (!callable(L, -1)) {
            return imp_error(L, what, "option 'motion' must be a function of time, got %s",
                             imp_describe(L, -1));
        }
        motion_idx = lua_gettop(L);
        if (option_given(L, 2, "kinematic") && !imp_opt_boolean(L, 2, what, "kinematic", 1)) {
            return imp_error(L, what, "option 'motion' moves a kinematic body: leave out "
                             "kinematic = false");
        }
    }
    d.kinematic = motion_idx != 0 || imp_opt_boolean(L, 2, what, "kinematic", 0);
    if (d.kinematic) {
        if (d.fixed) {
            return imp_error(L, what, "a body is fixed or kinematic, not both (give one of "
                             "fixed = true, kinematic = true)");
        }
        static const char *const massive[] = {"mass", "inertia", NULL};
        for (int i = 0; massive[i] != NULL; i++) {
            if (option_given(L, 2, massive[i])) {
                return imp_error(L, what, "a kinematic body has infinite mass: option '%s' does "
                                 "not apply to it (leave it out)", massive[i]);
            }
        }
        if (imp_world_strategy_has(w, IMP_STRATEGY_NO_KINEMATIC)) {
            return imp_error(L, what, "the %s strategy does not move kinematic bodies (use "
                             "impulse, contact or compliant, or fixed = true)",
                             imp_strategy_names[w->model.def.strategy]);
        }
    }
    if (push_option(L, 2, "filter")) {
        d.has_filter = 1;
        imp_lua_read_filter(L, -1, what, "option 'filter'", &d.category, &d.mask, &d.group);
        lua_pop(L, 1);
    }
    int has_elasticity, has_friction;
    {  /* the impulse and contact strategies (engine2d in 2D, engine3d in 3D) */
        d.elasticity = imp_opt_number(L, 2, what, "elasticity", 1.0, IMP_NONNEGATIVE, &has_elasticity);
        if (d.elasticity > 1.0) {
            return imp_error(L, what, "option 'elasticity' must be in [0, 1], got %s",
                             imp_push_g(L, d.elasticity));
        }
        d.friction = imp_opt_number(L, 2, what, "friction", 0.0, IMP_NONNEGATIVE, &has_friction);
    }
    if (imp_opt_string(L, 2, what, "material") != NULL) {
        lua_getfield(L, 2, "material");
        double material_density;
        d.material = imp_lua_world_material(L, 1, lua_gettop(L), what, &material_density);
        lua_pop(L, 1);
        if (!has_mass && !has_density) {
            d.density = material_density;
        }
        /* the material's contact pair with itself gives what elasticity and friction leave out
           (its cor and mu_k), so a steel body is not elastic and frictionless under impulse
           and contact */
        const imp_pair_material *self = imp_materials_pair(&w->model.materials, d.material, d.material);
        if (self != NULL && self->defined) {
            d.elasticity = has_elasticity ? d.elasticity : self->cor;
            d.friction = has_friction ? d.friction : self->mu_k;
        }
    }
    if (push_option(L, 2, "inertia")) {
        read_inertia(L, -1, what, dim, &d);
        lua_pop(L, 1);
    }
    if (d.shape == NULL && !d.fixed && !d.kinematic && (!has_mass || !d.has_inertia)) {
        return imp_error(L, what, "a body needs a 'shape', or both 'mass' and 'inertia'");
    }
    if (!d.fixed && d.shape != NULL && strcmp(d.shape->cls->name, "wall") == 0) {
        return imp_error(L, what, "a wall (impact.shape3d.wall) is an infinite half-space: its body must "
                         "be fixed (fixed = true)");
    }
    double mass = has_mass ? d.mass : d.shape != NULL ? d.density * d.shape->measure : 1.0;
    if (!d.fixed && !d.kinematic && !(mass > 0.0 && isfinite(mass) && isfinite(1.0 / mass))) {
        if (has_mass) {
            return imp_error(L, what, "option 'mass' must be a positive finite number whose inverse "
                             "is finite, got %s", imp_push_g(L, mass));
        }
        char buf[200];
        snprintf(buf, sizeof buf, "a density of %g (%s) times the shape's %s (%g) gives a mass of "
                 "%g", d.density, has_density ? "option 'density'" : "of option 'material'",
                 dim == 2 ? "area" : "volume", d.shape->measure, mass);
        return imp_error(L, what, "%s; the mass must be a positive finite number whose inverse is "
                         "finite", buf);
    }
    int vo = dim == 2 ? IMP_VEL_2D : IMP_VEL_3D;
    imp_opt_vector(L, 2, what, "position", dim, d.state);
    imp_opt_vector(L, 2, what, "velocity", dim, d.state + vo);
    if (dim == 2) {
        d.state[2] = imp_opt_number(L, 2, what, "angle", 0.0, IMP_ANY, NULL);
        d.state[5] = imp_opt_number(L, 2, what, "spin", 0.0, IMP_ANY, NULL);
    } else {
        if (imp_opt_vector(L, 2, what, "orientation", 4, d.state + 3)) {
            double n2 = 0.0;
            for (int i = 3; i < 7; i++) {
                n2 += d.state[i] * d.state[i];
            }
            if (!(n2 > 0.0)) {
                return imp_error(L, what, "option 'orientation' must be a nonzero quaternion "
                                          "{w, x, y, z}");
            }
        }
        imp_opt_vector(L, 2, what, "angular_velocity", 3, d.state + 10);
    }
    if (motion_idx != 0) {
        static const char *const placed[] = {"position", "angle", "orientation", "velocity",
                                             "spin", "angular_velocity", NULL};
        for (int i = 0; placed[i] != NULL; i++) {
            if (option_given(L, 2, placed[i])) {
                return imp_error(L, what, "option 'motion' gives the body's pose and velocity: "
                                 "leave out '%s'", placed[i]);
            }
        }
        double pose[7];
        imp_lua_motion_pose(L, motion_idx, w->data.time, dim, what, "(being added)", d.state, pose);
        memcpy(d.state, pose, (size_t)(dim == 2 ? 3 : 7) * sizeof *pose);
    }
    if (d.fixed) {
        for (int i = vo; i < w->model.stride; i++) {
            if (d.state[i] != 0.0) {
                return imp_error(L, what, "a fixed body cannot have a velocity or spin");
            }
        }
    }
    if (push_option(L, 2, "damping")) {
        read_damping(L, -1, what, &d.linear_damping, &d.angular_damping);
        lua_pop(L, 1);
    }
    int name_idx = 0;
    if (imp_opt_string(L, 2, what, "name") != NULL) {
        lua_getfield(L, 2, "name");
        name_idx = lua_gettop(L);
    }
    int data_idx = 0;
    if (push_option(L, 2, "data")) {
        data_idx = lua_gettop(L);
    }
    imp_body_id id = imp_world_add_body(w, &d);
    if (id.slot < 0) {
        char given[240] = "";
        if (d.has_inertia && dim == 2) {
            snprintf(given, sizeof given, "option 'inertia' = %g: ", d.inertia.m[2][2]);
        } else if (d.has_inertia) {
            const imp_mat3 *m = &d.inertia;
            snprintf(given, sizeof given, "option 'inertia' = {{%g, %g, %g}, {%g, %g, %g}, "
                     "{%g, %g, %g}}: ", m->m[0][0], m->m[0][1], m->m[0][2], m->m[1][0],
                     m->m[1][1], m->m[1][2], m->m[2][0], m->m[2][1], m->m[2][2]);
        } else if (d.shape != NULL && !d.fixed) {
            snprintf(given, sizeof given, "the shape's inertia at a mass of %g: ", mass);
        }
        return imp_error(L, what, "%s%s", given, imp_world_error(w));
    }
    imp_lua_new_body(L, 1, id, name_idx, data_idx, shape_idx);
    if (motion_idx != 0) {
        imp_lua_set_motion(L, 1, id.slot, motion_idx);
    }
    return 1;
}

static int l_remove_body(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    imp_body_id id = imp_lua_check_body_of(L, 2, w, "World:remove_body", "argument #1");
    if (id.slot == 0) {
        return imp_raise(L, "World:remove_body: the background cannot be removed");
    }
    imp_world_remove_body(w, id);
    imp_lua_set_motion(L, 1, id.slot, 0);
    lua_getiuservalue(L, 1, WORLD_UV_BODIES);
    lua_pushnil(L);
    lua_rawseti(L, -2, id.slot);
    /* springs attached to the body were removed with it */
    lua_getiuservalue(L, 1, WORLD_UV_SPRINGS);
    for (int i = 0; i < w->model.nsprings; i++) {
        if (!w->model.springs[i].active) {
            lua_pushnil(L);
            lua_rawseti(L, -2, i);
        }
    }
    return 0;
}

/* World:bodies(): the bodies in slot order (the background not included) */
static int l_bodies(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    lua_createtable(L, w->model.nbodies, 0);
    int k = 0;
    for (int i = 1; i < w->model.nslots; i++) {
        if (w->model.bodies[i].active) {
            imp_lua_push_body(L, 1, i);
            lua_rawseti(L, -2, ++k);
        }
    }
    return 1;
}

/* ---- stepping ---------------------------------------------------------------------------- */

/* World:_step([n]) (wrapped by World:step in lua/impact/world.lua): n steps of dt (default 1). Raises on failure with the time and bodies;
   the world then keeps the state it had before the failed step. */
static int l_step(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    lua_Integer n = luaL_optinteger(L, 2, 1);
    luaL_argcheck(L, n >= 0, 2, "the number of steps must be >= 0");
    imp_lua_world_sync_materials(L, 1);
    lua_settop(L, 2);
    for (lua_Integer i = 0; i < n; i++) {
        imp_lua_drive_motions(L, 1);
        imp_lua_loads_begin(L, 1);  /* the timed loads' functions run on this thread */
        imp_status st = imp_world_step(w);
        imp_lua_loads_end(L, 1);
        if (st != IMP_OK) {
            imp_world_sync(w);
            const char *load_failure = imp_lua_loads_failure(L, 1);
            luaL_Buffer b;
            imp_where(L);
            luaL_buffinit(L, &b);
            luaL_addstring(&b, "World:step: ");
            luaL_addstring(&b, load_failure != NULL ? load_failure : imp_world_error(w));
            for (int k = 0; k < w->data.nerror_bodies; k++) {
                luaL_addstring(&b, k == 0 ? "; bodies involved: " : ", ");
                imp_lua_body_label(L, 1, w->data.error_bodies[k]);
                luaL_addvalue(&b);
            }
            luaL_pushresult(&b);
            lua_concat(L, 2);
            return lua_error(L);
        }
    }
    imp_world_sync(w);  /* Lua between steps (handlers, getters, recorders) sees an up to date
                           state vector: a dem world's is stored here, not after each step */
    return 0;
}

/* ---- energies, momenta, statistics -------------------------------------------------------- */

static int l_energy(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    imp_energy e = imp_world_energy(w);
    lua_createtable(L, 0, 4);
    lua_pushnumber(L, e.kinetic);
    lua_setfield(L, -2, "kinetic");
    lua_pushnumber(L, e.rotational);
    lua_setfield(L, -2, "rotational");
    lua_pushnumber(L, e.potential);
    lua_setfield(L, -2, "potential");
    lua_pushnumber(L, e.total);
    lua_setfield(L, -2, "total");
    return 1;
}

static int l_momentum(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    double p[3];
    imp_world_momentum(w, p);
    imp_push_vector(L, p, w->model.def.dim);
    return 1;
}

static int l_angular_momentum(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    double l[3];
    imp_world_angular_momentum(w, l);
    if (w->model.def.dim == 2) {
        lua_pushnumber(L, l[2]);
    } else {
        imp_push_vector(L, l, 3);
    }
    return 1;
}

static void put_stat(void *ctx, const char *name, double v, int count)
{
    lua_State *L = ctx;
    if (count) {
        lua_pushinteger(L, (lua_Integer)v);
    } else {
        lua_pushnumber(L, v);
    }
    lua_setfield(L, -2, name);
}

static int l_stats(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    const imp_stats *s = &w->data.stats;
    int nsprings = 0, nloads = 0;
    for (int i = 0; i < w->model.nsprings; i++) {
        nsprings += w->model.springs[i].active;
    }
    for (int i = 0; i < w->model.nloads; i++) {
        nloads += w->model.loads[i].active;
    }
    lua_createtable(L, 0, 10);
    imp_lua_set_integer(L, "steps", s->steps);
    imp_lua_set_integer(L, "substeps", s->substeps);
    imp_lua_set_integer(L, "rejected_substeps", s->rejected);
    imp_lua_set_integer(L, "rhs_evaluations", s->rhs_evaluations);
    imp_lua_set_integer(L, "failures", s->failures);
    imp_lua_set_integer(L, "bodies", w->model.nbodies);
    imp_lua_set_integer(L, "springs", nsprings);
    imp_lua_set_integer(L, "loads", nloads);
    imp_lua_set_integer(L, "sleeping", w->islands != NULL ? w->islands->nsleeping : 0);  /* islands.h */
    imp_lua_set_integer(L, "islands", w->islands != NULL ? w->islands->nislands : 0);
    lua_pushnumber(L, s->step_seconds);
    lua_setfield(L, -2, "step_seconds");
    lua_pushnumber(L, w->data.time);
    lua_setfield(L, -2, "time");
    /* every strategy's counters (0 for those not used yet), through the registry */
    void (*done[IMP_STRATEGY_COUNT])(const imp_world *, void (*)(void *, const char *, double, int),
                                     void *);
    for (int i = 0; i < IMP_STRATEGY_COUNT; i++) {
        const imp_strategy_ops *o = imp_strategy_ops_of(i, w->model.def.dim);
        int seen = o->stats == NULL;
        for (int k = 0; k < i && !seen; k++) {
            seen = done[k] == o->stats;  /* impulse and contact share theirs */
        }
        done[i] = o->stats;
        if (!seen) {
            o->stats(w, put_stat, L);
        }
    }
    /* profile = {last = {stage = s, ...}, total = {...}}: seconds per named stage (profile.h) */
    lua_createtable(L, 0, 2);
    for (int k = 0; k < 2; k++) {
        const double *v = k == 0 ? w->data.profile.last : w->data.profile.total;
        lua_createtable(L, 0, IMP_STAGE_COUNT);
        for (int i = 0; i < IMP_STAGE_COUNT; i++) {
            lua_pushnumber(L, v[i]);
            lua_setfield(L, -2, imp_stage_names[i]);
        }
        lua_setfield(L, -2, k == 0 ? "last" : "total");
    }
    lua_setfield(L, -2, "profile");
    return 1;
}

static int l_state_hash(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    char buf[17];
    snprintf(buf, sizeof buf, "%016llx", imp_world_state_hash(w));
    lua_pushstring(L, buf);
    return 1;
}

/* World:random(): uniform in [0, 1); random(n): integer in [1, n]; random(m, n): in [m, n] */
static int l_random(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    int nargs = lua_gettop(L) - 1;
    if (nargs == 0) {
        lua_pushnumber(L, imp_rng_uniform(&w->data.rng));
        return 1;
    }
    lua_Integer lo = 1, hi;
    if (nargs == 1) {
        hi = luaL_checkinteger(L, 2);
    } else {
        lo = luaL_checkinteger(L, 2);
        hi = luaL_checkinteger(L, 3);
    }
    luaL_argcheck(L, lo <= hi, nargs == 1 ? 2 : 3, "interval is empty");
    lua_Unsigned span = (lua_Unsigned)hi - (lua_Unsigned)lo + 1u;
    lua_Unsigned r = span == 0 ? (lua_Unsigned)imp_rng_next(&w->data.rng)
                               : (lua_Unsigned)imp_rng_below(&w->data.rng, span);
    lua_pushinteger(L, (lua_Integer)((lua_Unsigned)lo + r));
    return 1;
}

/* ---- properties -------------------------------------------------------------------------- */

static void push_integrator(lua_State *L, const imp_integrator_def *d)
{
    lua_createtable(L, 0, 6);
    lua_pushstring(L, imp_integrator_names[d->kind]);
    lua_setfield(L, -2, "method");
    lua_pushnumber(L, d->rtol);
    lua_setfield(L, -2, "rtol");
    lua_pushnumber(L, d->atol);
    lua_setfield(L, -2, "atol");
    lua_pushnumber(L, d->hmax);
    lua_setfield(L, -2, "hmax");
    lua_pushnumber(L, d->h0);
    lua_setfield(L, -2, "h0");
    lua_pushinteger(L, d->max_substeps);
    lua_setfield(L, -2, "max_substeps");
}

/* ---- properties: a name-to-function table (sorted by name, binary search) ---------- */

typedef struct {
    const char *name;
    int plain;  /* get pushes a number without allocating: it runs no Lua code, needs no guard */
    void (*get)(lua_State *L, imp_world *w);  /* pushes the value */
    /* sets it from the value at 3 ({name = value} at 4, so the option readers name the key) */
    void (*set)(lua_State *L, imp_world *w, const char *what);
} world_prop;

static void get_background(lua_State *L, imp_world *w)
{
    (void)w;
    imp_lua_push_body(L, 1, 0);
}

static void get_damping(lua_State *L, imp_world *w)
{
    lua_createtable(L, 0, 2);
    lua_pushnumber(L, w->model.def.linear_damping);
    lua_setfield(L, -2, "linear");
    lua_pushnumber(L, w->model.def.angular_damping);
    lua_setfield(L, -2, "angular");
}

static void get_dim(lua_State *L, imp_world *w) { lua_pushinteger(L, w->model.def.dim); }
static void get_sleep(lua_State *L, imp_world *w) { lua_pushboolean(L, w->model.def.sleep); }
static void get_dt(lua_State *L, imp_world *w) { lua_pushnumber(L, w->model.def.dt); }

static void get_gravitation(lua_State *L, imp_world *w)
{
    lua_createtable(L, 0, 2);
    lua_pushnumber(L, w->model.def.gravitation_g);
    lua_setfield(L, -2, "G");
    lua_pushnumber(L, w->model.def.gravitation_softening);
    lua_setfield(L, -2, "softening");
}

static void get_gravity(lua_State *L, imp_world *w) { imp_push_vector(L, w->model.def.gravity, w->model.def.dim); }
static void get_integrator(lua_State *L, imp_world *w) { push_integrator(L, &w->model.def.integrator); }
static void get_seed(lua_State *L, imp_world *w) { lua_pushinteger(L, (lua_Integer)w->model.def.seed); }
static void get_steps(lua_State *L, imp_world *w) { lua_pushinteger(L, w->data.stats.steps); }

static void get_strategy(lua_State *L, imp_world *w)
{
    lua_pushstring(L, imp_strategy_names[w->model.def.strategy]);
}

static void get_time(lua_State *L, imp_world *w) { lua_pushnumber(L, w->data.time); }

static void set_damping(lua_State *L, imp_world *w, const char *what)
{
    double lin = w->model.def.linear_damping, ang = w->model.def.angular_damping;
    read_damping(L, 3, what, &lin, &ang);
    w->model.def.linear_damping = lin;
    w->model.def.angular_damping = ang;
}

static void set_dt(lua_State *L, imp_world *w, const char *what)
{
    imp_world_set_dt(w, imp_opt_number(L, 4, what, "dt", 0.0, IMP_POSITIVE, NULL));
}

static void set_gravitation(lua_State *L, imp_world *w, const char *what)
{
    imp_world_def d = w->model.def;
    read_gravitation(L, 3, what, &d);
    w->model.def.gravitation_g = d.gravitation_g;
    w->model.def.gravitation_softening = d.gravitation_softening;
}

static void set_gravity(lua_State *L, imp_world *w, const char *what)
{
    double g[3] = {0, 0, 0};
    imp_opt_vector(L, 4, what, "gravity", w->model.def.dim, g);
    memcpy(w->model.def.gravity, g, sizeof g);
}

static void set_integrator(lua_State *L, imp_world *w, const char *what)
{
    imp_integrator_def d = w->model.def.integrator;
    check_integrator_used(L, &w->model.def, what, "an integrator");
    read_integrator(L, 3, what, &d);
    imp_world_set_integrator(w, &d);
}

/* the world's connectors (bilateral: joints and rods only; 3D joints hold under impulse
   too, so they count only when not) */
static int active_connectors(const imp_world *w, int bilateral)
{
    int n = w->model.def.dim == 3 && !bilateral ? imp_e3_joints_alive(w) : 0;
    for (int i = 0; w->engine2d != NULL && i < w->engine2d->nconn; i++) {
        const imp_connector2d *c = &w->engine2d->conn[i];
        n += c->active != 0 && (!bilateral || c->kind != IMP_ROPE);
    }
    return n;
}

static void set_strategy(lua_State *L, imp_world *w, const char *what)
{
    imp_strategy s = (imp_strategy)imp_opt_enum(L, 4, what, "strategy", imp_strategy_names, 0);
    if ((imp_strategy_ops_of(s, w->model.def.dim)->dims & (1u << w->model.def.dim)) == 0) {
        imp_error(L, what, "strategy \"%s\" is for %s worlds (this world is %dD)", imp_strategy_names[s],
                  imp_strategy_dims_name(s), w->model.def.dim);
    }
    unsigned flags = imp_strategy_ops_of(s, w->model.def.dim)->flags;
    if (active_connectors(w, 0) > 0 && (flags & IMP_STRATEGY_COLLISIONS) == 0) {
        imp_error(L, what, "this world has joints, ropes or rods, which strategy \"%s\" would ignore "
                  "(they act under \"contact\" and \"impulse\"): remove them first",
                  imp_strategy_names[s]);
    }
    if (active_connectors(w, 1) > 0 && (flags & IMP_STRATEGY_CONTACT_FORCES) == 0
        && !w->model.def.engine2d.joint_small_impacts) {
        imp_error(L, what, "this world has joints or rods, which strategy \"%s\" would ignore with "
                  "joint_small_impacts = false (it holds them only by small impacts after each "
                  "step): remove them first, or create the world with joint_small_impacts = true",
                  imp_strategy_names[s]);
    }
    if (imp_world_set_strategy(w, s) != IMP_OK) {
        imp_error(L, what, "%s", imp_world_error(w));
    }
}

/* sorted by name (strcmp order) */
static const world_prop world_props[] = {
    {"background", 0, get_background, NULL},
    {"damping", 0, get_damping, set_damping},
    {"dim", 1, get_dim, NULL},
    {"dt", 1, get_dt, set_dt},
    {"gravitation", 0, get_gravitation, set_gravitation},
    {"gravity", 0, get_gravity, set_gravity},
    {"integrator", 0, get_integrator, set_integrator},
    {"seed", 1, get_seed, NULL},
    {"sleep", 1, get_sleep, NULL},
    {"steps", 1, get_steps, NULL},
    {"strategy", 0, get_strategy, set_strategy},
    {"time", 1, get_time, NULL},
};

/* Fields of worlds kept by the Lua front (world.lua: w.paused): core.world_fields[k] =
   {get = fn(w), set = fn(w, v)}, also at the registry's "impact.world_fields". Pushes the entry
   and returns 1 when k has one, else pushes nothing and returns 0. */
#define WORLD_FIELDS "impact.world_fields"
static int lua_field(lua_State *L, const char *k)
{
    if (lua_getfield(L, LUA_REGISTRYINDEX, WORLD_FIELDS) != LUA_TTABLE) {
        lua_pop(L, 1);
        return 0;
    }
    if (lua_getfield(L, -1, k) != LUA_TTABLE) {
        lua_pop(L, 2);
        return 0;
    }
    lua_remove(L, -2);
    return 1;
}

/* the entry named k, by binary search; NULL when there is none */
static const world_prop *find_world_prop(const char *k)
{
    size_t lo = 0, hi = sizeof world_props / sizeof world_props[0];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(k, world_props[mid].name);
        if (c == 0) {
            return &world_props[mid];
        }
        if (c < 0) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return NULL;
}

/* the property k of w (under the guard) */
static int world_property(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    const world_prop *p = find_world_prop(lua_tostring(L, 2));
    if (p == NULL) {
        return 0;  /* nil */
    }
    p->get(L, w);
    return 1;
}

static int l_world_index(lua_State *L)
{
    world_ud *u = to_world_ud(L, 1);
    const char *k = luaL_checkstring(L, 2);
    lua_getfield(L, lua_upvalueindex(1), k);  /* methods first */
    if (!lua_isnil(L, -1)) {
        return 1;
    }
    if (!imp_lua_world_open(u)) {
        return imp_raise(L, "the world is closed (reading '%s')", k);
    }
    const world_prop *p = find_world_prop(k);
    if (p != NULL && p->plain) {
        p->get(L, u->w);
        return 1;
    }
    if (p == NULL && lua_field(L, k)) {  /* a field kept by the Lua front: its get(w) */
        lua_getfield(L, -1, "get");
        lua_pushvalue(L, 1);
        lua_call(L, 1, 1);
        return 1;
    }
    const char *what = lua_pushfstring(L, "World.%s", k);
    return imp_lua_guarded_call(L, 2, world_property, IMP_ON_WORLD, what, IMP_SHARED);
}

static int l_world_newindex(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    const char *k = luaL_checkstring(L, 2);
    const world_prop *p = find_world_prop(k);
    if (p == NULL && lua_field(L, k)) {  /* a field kept by the Lua front: its set(w, value) */
        lua_getfield(L, -1, "set");
        lua_pushvalue(L, 1);
        lua_pushvalue(L, 3);
        lua_call(L, 2, 0);
        return 0;
    }
    if (p == NULL || p->set == NULL) {
        return imp_raise(L, "World: '%s' cannot be set (settable: dt, gravity, integrator, "
                             "damping, gravitation, strategy, paused)", k);
    }
    lua_settop(L, 3);
    lua_createtable(L, 0, 1);  /* {k = value} so the option readers name the key */
    lua_pushvalue(L, 3);
    lua_setfield(L, 4, k);
    p->set(L, w, "World");
    return 0;
}

static int l_world_tostring(lua_State *L)
{
    world_ud *u = to_world_ud(L, 1);
    if (!imp_lua_world_open(u)) {
        lua_pushliteral(L, "impact.World(closed)");
    } else {
        lua_pushfstring(L, "impact.World(%dD, %d bodies, t = %f)", u->w->model.def.dim, u->w->model.nbodies,
                        u->w->data.time);
    }
    return 1;
}

static int l_world_len(lua_State *L)
{
    lua_pushinteger(L, imp_lua_check_world(L, 1)->model.nbodies);
    return 1;
}

void imp_lua_open_world(lua_State *L)
{
    /* the methods that change the world, then those that only read it */
    static const luaL_Reg changing[] = {
        {"add_body", l_add_body},
        {"remove_body", l_remove_body},
        {"_step", l_step},
        {"add_spring", imp_lua_world_add_spring},
        {"remove_spring", imp_lua_world_remove_spring},
        {"add_load", imp_lua_world_add_load},
        {"remove_load", imp_lua_world_remove_load},
        {"loads", imp_lua_world_loads},
        {NULL, NULL}};
    static const luaL_Reg reading[] = {
        {"bodies", l_bodies},
        {"energy", l_energy},
        {"momentum", l_momentum},
        {"angular_momentum", l_angular_momentum},
        {"stats", l_stats},
        {"state_hash", l_state_hash},
        {"random", l_random},
        {NULL, NULL}};
    static const luaL_Reg set[] = {{"__newindex", l_world_newindex}, {NULL, NULL}};
    static const luaL_Reg len[] = {{"__len", l_world_len}, {NULL, NULL}};
    if (luaL_newmetatable(L, IMP_WORLD_MT)) {
        lua_pushcfunction(L, l_world_gc);
        lua_setfield(L, -2, "__gc");
        lua_pushcfunction(L, l_world_close);
        lua_setfield(L, -2, "__close");
        lua_pushcfunction(L, l_world_tostring);
        lua_setfield(L, -2, "__tostring");
        imp_lua_set_guarded(L, set, "World.", IMP_ON_WORLD, IMP_EXCLUSIVE);
        imp_lua_set_guarded(L, len, "World.", IMP_ON_WORLD, IMP_SHARED);
        lua_newtable(L);
        imp_lua_set_guarded(L, changing, "World:", IMP_ON_WORLD, IMP_EXCLUSIVE);
        imp_lua_set_guarded(L, reading, "World:", IMP_ON_WORLD, IMP_SHARED);
        lua_pushcfunction(L, l_world_close);
        lua_setfield(L, -2, "close");
        imp_lua_set_guarded(L, imp_lua_contact_methods, "World:", IMP_ON_WORLD, IMP_EXCLUSIVE);
        luaL_setfuncs(L, imp_lua_event_flag_methods, 0);
        imp_lua_set_guarded(L, imp_lua_query_methods, "World:", IMP_ON_WORLD, IMP_SHARED);
        imp_lua_set_guarded(L, imp_lua_engine2d_methods, "World:", IMP_ON_WORLD, IMP_EXCLUSIVE);
        lua_pushvalue(L, -1);
        lua_setfield(L, -4, "World");  /* core.World: the methods, extended by the Lua front */
        lua_pushcclosure(L, l_world_index, 1);
        lua_setfield(L, -2, "__index");
    } else {
        lua_getfield(L, -1, "__index");
        lua_getupvalue(L, -1, 1);
        lua_setfield(L, -4, "World");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    lua_pushcfunction(L, l_world_new);
    lua_setfield(L, -2, "world_new");
    if (lua_getfield(L, LUA_REGISTRYINDEX, WORLD_FIELDS) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, WORLD_FIELDS);
    }
    lua_setfield(L, -2, "world_fields");
}
