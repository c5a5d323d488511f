/* lua_engine2d.c: the Lua side of the 2D engine (engine2d.h): the world options of the
   impulse and contact strategies, w:add_joint / w:add_rope / w:add_rod / w:remove_connector,
   w:connectors(), the engine's statistics in w:stats(). */
#include <string.h>

#include "engine2d_path_joint.h"
#include "engine2d_soft.h"
#include "lua_engine3d.h"
#include "lua_world.h"

/* contact_solver = "soft" (engine2d_def.h's imp_soft_def): the step is velocity-level (a
   time_stepping = "ode" given with it is refused), in 4 sub-steps unless substeps says
   otherwise; the option table soft = {...} tunes it and is refused with any other solver. */
static void read_soft(lua_State *L, int idx, const char *what, imp_engine2d_def *d)
{
    static const char *const keys[] = {"hertz", "damping_ratio", "push_max", "joint_hertz",
                                       "joint_damping_ratio", "restitution_threshold",
                                       "iterations", "relax_iterations", "precision", NULL};
    lua_getfield(L, idx, "soft");
    int given = !lua_isnil(L, -1);
    if (d->contact_solver != IMP_SOLVER_SOFT) {
        if (given) {
            imp_error(L, what, "option 'soft' (got %s) tunes contact_solver = \"soft\"; this world has "
                      "contact_solver = \"%s\": give contact_solver = \"soft\" or leave it out",
                      imp_describe(L, -1), imp_contact_solver_names[d->contact_solver]);
        }
        lua_pop(L, 1);
        return;
    }
    if (d->time_stepping == IMP_STEPPING_ODE) {
        lua_getfield(L, idx, "time_stepping");
        if (!lua_isnil(L, -1)) {
            imp_error(L, what, "contact_solver = \"soft\" steps at velocity level; it cannot run "
                      "with time_stepping = \"ode\": leave time_stepping out or give \"symplectic_euler\"");
        }
        lua_pop(L, 1);
        d->time_stepping = IMP_STEPPING_SYMPLECTIC_EULER;
    }
    d->substeps = 4;  /* Box2D v3's and Box3D's default; the substeps option may change it */
    if (!given) {
        lua_pop(L, 1);
        return;
    }
    if (!lua_istable(L, -1)) {
        imp_error(L, what, "option 'soft' must be a table {hertz =, damping_ratio =, push_max =, "
                  "joint_hertz =, joint_damping_ratio =, restitution_threshold =, iterations =, "
                  "relax_iterations =, precision =}, got %s", imp_describe(L, -1));
    }
    int t = lua_gettop(L);
    imp_soft_def *s = &d->soft;
    imp_opt_check_nested_keys(L, t, what, "soft", keys);
    s->hertz = imp_opt_number(L, t, what, "soft.hertz", s->hertz, IMP_POSITIVE, NULL);
    s->damping_ratio = imp_opt_number(L, t, what, "soft.damping_ratio", s->damping_ratio,
                                      IMP_NONNEGATIVE, NULL);
    s->push_max = imp_opt_number(L, t, what, "soft.push_max", s->push_max, IMP_POSITIVE, NULL);
    s->joint_hertz = imp_opt_number(L, t, what, "soft.joint_hertz", s->joint_hertz, IMP_POSITIVE, NULL);
    s->joint_damping_ratio = imp_opt_number(L, t, what, "soft.joint_damping_ratio",
                                            s->joint_damping_ratio, IMP_NONNEGATIVE, NULL);
    s->restitution_threshold = imp_opt_number(L, t, what, "soft.restitution_threshold",
                                              s->restitution_threshold, IMP_NONNEGATIVE, NULL);
    s->iterations = (int)imp_opt_integer(L, t, what, "soft.iterations", s->iterations, 1, 1000);
    s->relax_iterations = (int)imp_opt_integer(L, t, what, "soft.relax_iterations",
                                               s->relax_iterations, 0, 1000);
    s->precision = (imp_soft_precision)imp_opt_enum(L, t, what, "soft.precision", imp_soft_precision_names,
                                                    s->precision);
    lua_pop(L, 1);
}

/* Reads the engine options of the world options table at idx into d. */
void imp_lua_read_engine2d(lua_State *L, int idx, const char *what, imp_engine2d_def *d)
{
    d->collision_handling = (imp_collision_handling)imp_opt_enum(
        L, idx, what, "collision_handling", imp_collision_handling_names, d->collision_handling);
    d->distance_tol = imp_opt_number(L, idx, what, "distance_tol", d->distance_tol, IMP_POSITIVE, NULL);
    d->velocity_tol = imp_opt_number(L, idx, what, "velocity_tol", d->velocity_tol, IMP_POSITIVE, NULL);
    d->collision_accuracy = imp_opt_number(L, idx, what, "collision_accuracy", d->collision_accuracy,
                                           IMP_POSITIVE, NULL);
    if (d->collision_accuracy > 1.0) {
        imp_error(L, what, "option 'collision_accuracy' must be in (0, 1], got %s",
                  imp_push_g(L, d->collision_accuracy));
    }
    d->extra_accel = (imp_extra_accel)imp_opt_enum(L, idx, what, "extra_accel", imp_extra_accel_names,
                                                   d->extra_accel);
    d->extra_accel_dt = imp_opt_number(L, idx, what, "extra_accel_dt", d->extra_accel_dt,
                                       IMP_NONNEGATIVE, NULL);
    d->max_backups = (int)imp_opt_integer(L, idx, what, "max_backups", d->max_backups, 1, 100000);
    d->joint_small_impacts = imp_opt_boolean(L, idx, what, "joint_small_impacts",
                                             d->joint_small_impacts);
    d->contact_solver = imp_opt_enum(L, idx, what, "contact_solver", imp_contact_solver_names,
                                     d->contact_solver);
    d->pgs_iterations = (int)imp_opt_integer(L, idx, what, "pgs_iterations", d->pgs_iterations, 1,
                                             100000);
    d->time_stepping = imp_opt_enum(L, idx, what, "time_stepping", imp_time_stepping_names,
                                    d->time_stepping);
    d->conventions = imp_opt_enum(L, idx, what, "conventions", imp_conventions_names, d->conventions);
    read_soft(L, idx, what, d);
}

/* a connector's kind as w:connectors() names it, by imp_connector2d.kind */
static const char *const connector_kinds[] = {"joint", "rope", "rod", "path", "path_end"};

static void push_connector(lua_State *L, const imp_connector2d *c, int index)
{
    lua_createtable(L, 0, 3);
    lua_pushstring(L, connector_kinds[c->kind]);
    lua_setfield(L, -2, "kind");
    lua_pushinteger(L, index);
    lua_setfield(L, -2, "index");
    lua_pushinteger(L, (lua_Integer)c->generation);
    lua_setfield(L, -2, "generation");
}

static void read_points(lua_State *L, imp_world *w, const char *what, imp_connector2d *c)
{
    imp_body_id b1, b2;
    lua_getfield(L, 2, "body1");
    if (lua_isnil(L, -1)) {
        imp_error(L, what, "option 'body1' is required");
    }
    b1 = imp_lua_check_body_of(L, -1, w, what, "option 'body1'");
    lua_pop(L, 1);
    lua_getfield(L, 2, "body2");
    b2 = lua_isnil(L, -1) ? imp_world_background(w)
                          : imp_lua_check_body_of(L, -1, w, what, "option 'body2'");
    lua_pop(L, 1);
    c->body1 = b1.slot;
    c->body2 = b2.slot;
    double p[3] = {0, 0, 0};
    imp_opt_vector(L, 2, what, "point1", 2, p);
    c->point1[0] = p[0];
    c->point1[1] = p[1];
    p[0] = p[1] = 0.0;
    imp_opt_vector(L, 2, what, "point2", 2, p);
    c->point2[0] = p[0];
    c->point2[1] = p[1];
}

static int add_connector(lua_State *L, imp_world *w, const char *what, imp_connector2d *c)
{
    char why[200];
    int index = imp_engine2d_add_connector(w, c, why, sizeof why);
    if (index < 0) {
        return imp_error(L, what, "%s", why);
    }
    push_connector(L, &w->engine2d->conn[index], index);
    return 1;
}

/* Connectors act only under the strategies that handle collisions (impulse: through the
   collision impulses, and every step with joint_small_impacts; contact: as bilateral rows of
   the contact forces); elsewhere nothing would read them, so adding one is refused. */
static void require_connector_strategy(lua_State *L, const imp_world *w, const char *what,
                                       int bilateral)
{
    if (!imp_world_strategy_has(w, IMP_STRATEGY_COLLISIONS)) {
        imp_error(L, what, "joints, ropes and rods act only under the strategies \"contact\" and "
                  "\"impulse\" (2D worlds); this world's strategy is \"%s\", which would ignore "
                  "them: create the world with strategy = \"contact\"",
                  imp_strategy_names[w->model.def.strategy]);
    }
    /* under impulse a joint or rod is held only by the small impacts after each step: without
       them it would be ignored (a ball on a rod falls away); a rope acts by collisions */
    if (bilateral && !imp_world_strategy_has(w, IMP_STRATEGY_CONTACT_FORCES)
        && !w->model.def.engine2d.joint_small_impacts) {
        imp_error(L, what, "under the strategy \"impulse\" a joint or rod is held only by small "
                  "impacts after each step, and this world has joint_small_impacts = false, so it "
                  "would be ignored: create the world with joint_small_impacts = true, or with "
                  "strategy = \"contact\" (forces that hold it continuously)");
    }
}

/* w:add_joint{body1 =, point1 =, body2 = (background), point2 =, normal = "both",
   frame = "world"} */
static int l_add_joint(lua_State *L)
{
    static const char *const keys[] = {"body1", "point1", "body2", "point2", "normal", "frame", NULL};
    const char *what = "World:add_joint";
    imp_world *w = imp_lua_check_world(L, 1);
    if (w->model.def.dim == 3) {
        return imp_lua_joint3d_add_joint(L, w);
    }
    require_connector_strategy(L, w, what, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    imp_opt_check_keys(L, 2, what, keys);
    imp_connector2d c;
    memset(&c, 0, sizeof c);
    c.kind = IMP_JOINT;
    read_points(L, w, what, &c);
    lua_getfield(L, 2, "normal");
    if (lua_isnil(L, -1) || (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "both") == 0)) {
        c.both = 1;
    } else if (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "x") == 0) {
        c.normal[0] = 1.0;
    } else if (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "y") == 0) {
        c.normal[1] = 1.0;
    } else if (lua_istable(L, -1)) {
        double n[3] = {0, 0, 0};
        imp_to_vector(L, -1, what, "option 'normal'", 2, n);
        double len = hypot(n[0], n[1]);
        if (!(len > 0.0) || !isfinite(len)) {
            return imp_error(L, what, "option 'normal' must be a nonzero finite vector");
        }
        c.normal[0] = n[0] / len;
        c.normal[1] = n[1] / len;
    } else {
        return imp_error(L, what, "option 'normal' must be \"both\", \"x\", \"y\" or a vector "
                                  "{nx, ny}, got %s", imp_describe(L, -1));
    }
    lua_pop(L, 1);
    lua_getfield(L, 2, "frame");
    if (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "body") == 0) {
        /* a pin's two rows along body2's axes, turning with it (myPhysicsLab's CoordType.BODY);
           its rows take the points' relative motion only, as myPhysicsLab's, which is exact
           for points held together, not for one direction along which they slide apart */
        if (!c.both) {
            lua_getfield(L, 2, "normal");
            return imp_error(L, what, "option 'frame' = \"body\" is for pins (normal = \"both\"), "
                                      "got normal = %s", imp_describe(L, -1));
        }
        c.body_frame = 1;
    } else if (!lua_isnil(L, -1)
               && !(lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "world") == 0)) {
        return imp_error(L, what, "option 'frame' must be \"world\" or \"body\" (body2's frame), "
                                  "got %s", imp_describe(L, -1));
    }
    lua_pop(L, 1);
    return add_connector(L, w, what, &c);
}

/* w:add_rope{body1 =, point1 =, body2 =, point2 =, length =, rod = false} */
static int l_add_rope(lua_State *L)
{
    static const char *const keys[] = {"body1", "point1", "body2", "point2", "length", "rod", NULL};
    const char *what = "World:add_rope";
    imp_world *w = imp_lua_check_world(L, 1);
    if (w->model.def.dim == 3) {
        return imp_lua_joint3d_add_rope(L, w);
    }
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    imp_opt_check_keys(L, 2, what, keys);
    int rod = imp_opt_boolean(L, 2, what, "rod", 0);
    require_connector_strategy(L, w, what, rod);
    imp_connector2d c;
    memset(&c, 0, sizeof c);
    read_points(L, w, what, &c);
    c.kind = rod ? IMP_ROD : IMP_ROPE;
    int has_length;
    c.length = imp_opt_number(L, 2, what, "length", 0.0, IMP_POSITIVE, &has_length);
    if (!has_length) {
        return imp_error(L, what, "option 'length' is required");
    }
    return add_connector(L, w, what, &c);
}

/* the path option of add_path_joint at index t into a new path of the engine: {points =
   {{x, y}, ...}} or {fn = function(t) return x, y end, range = {t0, t1}, samples = 9000}, and
   closed = false; its index */
static int read_path(lua_State *L, imp_world *w, const char *what, int t)
{
    static const char *const keys[] = {"points", "fn", "range", "samples", "closed", NULL};
    if (!lua_istable(L, t)) {
        return imp_error(L, what, "option 'path' must be a table {points = {{x, y}, ...}} or "
                         "{fn = function(t) return x, y end, range = {t0, t1}, samples =}, got %s",
                         imp_describe(L, t));
    }
    imp_opt_check_nested_keys(L, t, what, "path", keys);
    int closed = imp_opt_boolean(L, t, what, "path.closed", 0);
    lua_getfield(L, t, "points");
    int pts = lua_gettop(L);
    lua_getfield(L, t, "fn");
    int fn = lua_gettop(L);
    if (lua_isnil(L, pts) == lua_isnil(L, fn)) {
        return imp_error(L, what, "option 'path' must give either 'points' or 'fn' (with "
                         "'range'), got %s", lua_isnil(L, pts) ? "neither" : "both");
    }
    lua_Integer n;
    double range[3] = {0, 0, 0};
    if (!lua_isnil(L, pts)) {
        if (!lua_istable(L, pts)) {
            return imp_error(L, what, "option 'path.points' must be a list of {x, y}, got %s",
                             imp_describe(L, pts));
        }
        n = (lua_Integer)lua_rawlen(L, pts);
    } else {
        if (!lua_isfunction(L, fn)) {
            return imp_error(L, what, "option 'path.fn' must be a function(t) returning x, y, "
                             "got %s", imp_describe(L, fn));
        }
        if (!imp_opt_vector(L, t, what, "path.range", 2, range)) {
            return imp_error(L, what, "option 'path.range' = {t0, t1} is required with 'fn'");
        }
        if (!(range[1] > range[0])) {
            return imp_error(L, what, "option 'path.range' must be {t0, t1} with t0 < t1, got "
                             "{%s, %s}", imp_push_g(L, range[0]), imp_push_g(L, range[1]));
        }
        n = imp_opt_integer(L, t, what, "path.samples", 9000, 3, 10000000);
    }
    if (n < 3 || n > 10000000) {
        return imp_error(L, what, "option 'path.points' must hold 3 to 10000000 points, got %d",
                         (int)n);
    }
    double *xy = lua_newuserdatauv(L, (size_t)n * 2 * sizeof *xy, 0);  /* (freed by the GC) */
    double delta = (range[1] - range[0]) / (double)(n - 1), tt = range[0];
    for (lua_Integer i = 0; i < n; i++) {
        if (!lua_isnil(L, pts)) {
            lua_rawgeti(L, pts, i + 1);
            char name[48];
            snprintf(name, sizeof name, "option 'path.points[%d]'", (int)(i + 1));
            if (!lua_istable(L, -1)) {
                return imp_error(L, what, "%s must be {x, y}, got %s", name, imp_describe(L, -1));
            }
            double v[3];
            imp_to_vector(L, -1, what, name, 2, v);
            xy[2 * i] = v[0];
            xy[2 * i + 1] = v[1];
            lua_pop(L, 1);
        } else {
            lua_pushvalue(L, fn);
            lua_pushnumber(L, i == n - 1 ? range[1] : tt);
            lua_call(L, 1, 2);
            int okx, oky;
            xy[2 * i] = lua_tonumberx(L, -2, &okx);
            xy[2 * i + 1] = lua_tonumberx(L, -1, &oky);
            if (!okx || !oky || !isfinite(xy[2 * i]) || !isfinite(xy[2 * i + 1])) {
                return imp_error(L, what, "option 'path.fn' must return two finite numbers x, y; "
                                 "at t = %s it returned %s", imp_push_g(L, tt),
                                 imp_describe(L, okx ? -1 : -2));
            }
            lua_pop(L, 2);
            tt += delta;
        }
    }
    if (closed && lua_isnil(L, pts) && n > 3
        && fabs(xy[2 * n - 2] - xy[0]) + fabs(xy[2 * n - 1] - xy[1])
               <= 1e-9 * (fabs(xy[0]) + fabs(xy[1]) + 1.0)) {
        n--;  /* a closed path's fn range ends where it starts: that sample is not repeated */
    }
    char why[200];
    int index = imp_engine2d_add_path(w, xy, (int)n, closed, why, sizeof why);
    if (index < 0) {
        return imp_error(L, what, "option 'path': %s", why);
    }
    lua_settop(L, t);
    return index;
}

/* the options both path connectors share: a 2D world whose strategy reads them, the keys,
   body1 and point1 into c (of the given kind) */
static imp_world *path_connector(lua_State *L, const char *what, const char *const keys[],
                                 imp_connector_kind kind, imp_connector2d *c)
{
    imp_world *w = imp_lua_check_world(L, 1);
    if (w->model.def.dim != 2) {
        imp_error(L, what, "path joints and ends are for 2D worlds");
    }
    require_connector_strategy(L, w, what, kind == IMP_PATH);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    imp_opt_check_keys(L, 2, what, keys);
    memset(c, 0, sizeof *c);
    c->kind = kind;
    read_points(L, w, what, c);
    return w;
}

/* w:add_path_joint{body1 =, point1 =, path =}: body1's point held on a path of the
   background (myPhysicsLab's PathJoint) */
static int l_add_path_joint(lua_State *L)
{
    static const char *const keys[] = {"body1", "point1", "path", NULL};
    const char *what = "World:add_path_joint";
    imp_connector2d c;
    imp_world *w = path_connector(L, what, keys, IMP_PATH, &c);
    lua_getfield(L, 2, "path");
    c.path = read_path(L, w, what, lua_gettop(L));
    lua_pop(L, 1);
    return add_connector(L, w, what, &c);
}

static int check_connector(lua_State *L, imp_world *w, int idx, const char *what);

/* w:add_path_end{body1 =, point1 =, joint =, at = {x, y} or limit = p, upper = true}: a
   one-sided stop of body1's point along the path of path joint `joint` (myPhysicsLab's
   PathEndPoint): its path distance p stays at most (upper) or at least the limit, given as
   a path distance or as the table point nearest to `at` */
static int l_add_path_end(lua_State *L)
{
    static const char *const keys[] = {"body1", "point1", "joint", "at", "limit", "upper", NULL};
    const char *what = "World:add_path_end";
    imp_connector2d c;
    imp_world *w = path_connector(L, what, keys, IMP_PATH_END, &c);
    lua_getfield(L, 2, "joint");
    if (lua_isnil(L, -1)) {
        return imp_error(L, what, "option 'joint' (a path joint of World:add_path_joint) is "
                         "required");
    }
    int j = check_connector(L, w, lua_gettop(L), what);
    if (w->engine2d->conn[j].kind != IMP_PATH) {
        return imp_error(L, what, "option 'joint' must be a path joint (World:add_path_joint), "
                         "got a connector of kind '%s'", connector_kinds[w->engine2d->conn[j].kind]);
    }
    lua_pop(L, 1);
    c.path = w->engine2d->conn[j].path;
    c.upper = imp_opt_boolean(L, 2, what, "upper", 1);
    double at[3];
    int has_limit;
    c.limit = imp_opt_number(L, 2, what, "limit", 0.0, IMP_ANY, &has_limit);
    int has_at = imp_opt_vector(L, 2, what, "at", 2, at);
    if (has_at == has_limit) {
        return imp_error(L, what, "give one of option 'at' = {x, y} (the path's table point "
                         "nearest to it) or option 'limit' (a path distance), got %s",
                         has_at ? "both" : "neither");
    }
    if (has_at) {
        c.limit = imp_engine2d_path_table_p(&w->engine2d->paths[c.path], at[0], at[1]);
    }
    return add_connector(L, w, what, &c);
}

static int check_connector(lua_State *L, imp_world *w, int idx, const char *what)
{
    lua_Integer index, gen;
    int ok = imp_connector_handle(L, idx, what, &index, &gen);
    imp_engine2d *e = w->engine2d;
    if (!ok || e == NULL || index < 0 || index >= e->nconn || !e->conn[index].active
        || (lua_Integer)e->conn[index].generation != gen) {
        return imp_error(L, what, "the connector was removed or does not belong to this world");
    }
    if (!imp_engine2d_connector_alive(w, &e->conn[index])) {
        return imp_error(L, what, "one of the connector's bodies was removed");
    }
    return (int)index;
}

static int l_remove_connector(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    if (w->model.def.dim == 3) {
        return imp_lua_joint3d_remove(L, w);
    }
    int i = check_connector(L, w, 2, "World:remove_connector");
    imp_engine2d_remove_connector(w, i, w->engine2d->conn[i].generation);
    return 0;
}

/* w:connector_error(c): how far the connector is from holding: joints |p1 - p2|, ropes
   max(0, distance - length), rods |distance - length|. */
static int l_connector_error(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    if (w->model.def.dim == 3) {
        return imp_lua_joint3d_error(L, w);
    }
    int i = check_connector(L, w, 2, "World:connector_error");
    const imp_connector2d *c = &w->engine2d->conn[i];
    double p1[2], p2[2];
    imp_engine2d_connector_points(w, w->data.y, c, p1, p2);
    double dist = hypot(p1[0] - p2[0], p1[1] - p2[1]), err;
    if (c->kind == IMP_PATH || c->kind == IMP_PATH_END) {
        err = imp_engine2d_path_error(w, w->data.y, c);
    } else if (c->kind == IMP_JOINT) {
        double n[2];
        imp_engine2d_joint_normal(w, w->data.y, c, 0, n);
        err = c->both ? dist : fabs(n[0] * (p1[0] - p2[0]) + n[1] * (p1[1] - p2[1]));
    } else if (c->kind == IMP_ROPE) {
        err = dist > c->length ? dist - c->length : 0.0;
    } else {
        err = fabs(dist - c->length);
    }
    lua_pushnumber(L, err);
    lua_pushnumber(L, dist);
    return 2;
}

/* w:set_pair{body1 =, body2 =, friction =, elasticity =}: coefficients of one pair of bodies
   (impulse and contact strategies), instead of the smaller of the two bodies' */
static int l_set_pair(lua_State *L)
{
    static const char *const keys[] = {"body1", "body2", "friction", "elasticity", NULL};
    const char *what = "World:set_pair";
    imp_world *w = imp_lua_check_world(L, 1);
    if (!imp_world_strategy_has(w, IMP_STRATEGY_COLLISIONS)) {
        return imp_error(L, what, "pair coefficients are used by the strategies \"impulse\" and "
                         "\"contact\"; this world's strategy is \"%s\"",
                         imp_strategy_names[w->model.def.strategy]);
    }
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    imp_opt_check_keys(L, 2, what, keys);
    lua_getfield(L, 2, "body1");
    imp_body_id a = imp_lua_check_body_of(L, -1, w, what, "option 'body1'");
    lua_getfield(L, 2, "body2");
    imp_body_id b = imp_lua_check_body_of(L, -1, w, what, "option 'body2'");
    lua_pop(L, 2);
    if (a.slot == b.slot) {
        return imp_error(L, what, "options 'body1' and 'body2' must be two different bodies");
    }
    int has_f, has_e;
    double fr = imp_opt_number(L, 2, what, "friction", -1.0, IMP_NONNEGATIVE, &has_f);
    double el = imp_opt_number(L, 2, what, "elasticity", -1.0, IMP_NONNEGATIVE, &has_e);
    if (has_e && el > 1.0) {
        return imp_error(L, what, "option 'elasticity' must be in [0, 1], got %s", imp_push_g(L, el));
    }
    if (!has_f && !has_e) {
        return imp_error(L, what, "give 'friction' or 'elasticity' (or both)");
    }
    if (w->model.def.dim == 3) {
        return imp_lua_engine3d_set_pair(L, w, a.slot, b.slot, has_f, fr, has_e, el);
    }
    const imp_pair2d *old = imp_engine2d_pair(w, a.slot, b.slot);
    if (old != NULL) {  /* keep what is not given */
        fr = has_f ? fr : old->friction;
        el = has_e ? el : old->elasticity;
    }
    if (imp_engine2d_set_pair(w, a.slot, b.slot, fr, el) != 0) {
        return imp_raise(L, "%s: out of memory", what);
    }
    return 0;
}

/* w:handle_collisions(): at the current state, the touching bodies take the collision
   impulses (myPhysicsLab's findCollisions and handleCollisions on a scene just built, before
   its first step); 2D impulse and contact strategies. Returns whether an impulse was applied. */
static int l_handle_collisions(lua_State *L)
{
    const char *what = "World:handle_collisions";
    imp_world *w = imp_lua_check_world(L, 1);
    if (w->model.def.dim != 2 || !imp_world_strategy_has(w, IMP_STRATEGY_COLLISIONS)
        || w->model.def.engine2d.contact_solver == IMP_SOLVER_SOFT) {
        return imp_error(L, what, "handles the collisions of 2D worlds under the strategies "
                         "\"impulse\" and \"contact\" (not contact_solver \"soft\"); this "
                         "world: %dD, strategy \"%s\"", w->model.def.dim,
                         imp_strategy_names[w->model.def.strategy]);
    }
    int st = imp_engine2d_handle_now(w);
    if (st < 0) {
        return imp_error(L, what, "the collision impulses could not be solved at t = %s",
                         imp_push_g(L, w->data.time));
    }
    lua_pushboolean(L, st > 0);
    return 1;
}

const luaL_Reg imp_lua_engine2d_methods[] = {{"handle_collisions", l_handle_collisions},
                                             {"set_pair", l_set_pair},{"add_joint", l_add_joint},
                                             {"add_rope", l_add_rope},
                                             {"add_path_joint", l_add_path_joint},
                                             {"add_path_end", l_add_path_end},
                                             {"remove_connector", l_remove_connector},
                                             {"connector_error", l_connector_error},
                                             {NULL, NULL}};

/* w:contacts() under the impulse and contact strategies: the touching records at the current
   state (contacts and imminent collisions of body pairs), with bodies, point, normal
   (from body1 toward body2), distance, normal velocity and, under the contact strategy, the
   normal force of the last evaluation at this state. */
int imp_lua_engine2d_contacts(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    imp_engine2d *e = imp_engine2d_get(w);
    if (e == NULL || imp_engine2d_reserve_slots(e, w->model.nslots) != 0) {
        return imp_raise(L, "World:contacts: out of memory");
    }
    double *f = NULL;
    int nrec;
    if (imp_engine2d_soft(w)) {  /* the last soft step's records and forces */
        nrec = imp_engine2d_soft_contacts(w);
        if (nrec < 0) {
            return imp_raise(L, "World:contacts: detection failed");
        }
    } else if (imp_world_strategy_has(w, IMP_STRATEGY_CONTACT_FORCES)) {
        /* the forces at this state: one evaluation of the equations of motion */
        f = lua_newuserdatauv(L, (size_t)w->model.nslots * IMP_STRIDE_2D * sizeof *f, 0);
        int fidx = lua_gettop(L);
        imp_lua_loads_begin(L, 1);  /* timed loads' functions run on this thread */
        int failed = imp_engine2d_evaluate(w, f) != 0;
        imp_lua_loads_end(L, 1);
        lua_settop(L, fidx);
        const char *load_failure = imp_lua_loads_failure(L, 1);
        if (load_failure != NULL) {
            return imp_raise(L, "World:contacts: %s", load_failure);
        }
        if (failed) {
            return imp_raise(L, "World:contacts: the contact forces could not be solved");
        }
        nrec = e->nrec;
    } else {
        nrec = imp_engine2d_detect(w, w->data.y, 0);
        if (nrec < 0) {
            return imp_raise(L, "World:contacts: detection failed");
        }
    }
    lua_createtable(L, nrec, 0);
    int k = 0;
    for (int i = 0; i < e->nrec; i++) {
        const imp_rec2d *r = &e->rec[i];
        if (r->connector >= 0 || r->kind == IMP_HIT_COLLISION) {
            continue;
        }
        int flip = r->q > r->p;
        double n[3] = {flip ? -r->normal[0] : r->normal[0], flip ? -r->normal[1] : r->normal[1], 0};
        double pt[3] = {r->point[0], r->point[1], 0};
        lua_createtable(L, 0, 8);
        imp_lua_push_body(L, 1, flip ? r->p : r->q);
        lua_setfield(L, -2, "body1");
        imp_lua_push_body(L, 1, flip ? r->q : r->p);
        lua_setfield(L, -2, "body2");
        imp_push_vector(L, pt, 2);
        lua_setfield(L, -2, "point");
        imp_push_vector(L, n, 2);
        lua_setfield(L, -2, "normal");
        lua_pushnumber(L, r->distance);
        lua_setfield(L, -2, "distance");
        lua_pushnumber(L, r->velocity);
        lua_setfield(L, -2, "normal_velocity");
        lua_pushnumber(L, r->force);
        lua_setfield(L, -2, "force");
        lua_pushnumber(L, flip ? -r->friction_force : r->friction_force);
        lua_setfield(L, -2, "friction_force");
        lua_pushstring(L, r->kind == IMP_HIT_IMMINENT ? "imminent" : "contact");
        lua_setfield(L, -2, "kind");
        lua_rawseti(L, -2, ++k);
    }
    return 1;
}
