/* lua_joint3d.c: the Lua side of the 3D engine's joints, ropes and rods
   (engine3d_joints.h), reached from the world methods shared with 2D worlds (lua_engine2d.c)
   when the world is 3D: w:add_joint{kind = ...}, w:add_rope{...}, w:remove_connector(j),
   w:connector_error(j). */
#include <math.h>
#include <string.h>

#include "engine3d_joints.h"
#include "lua_engine3d.h"
#include "lua_world.h"

#define PI 3.14159265358979323846

static const char *const joint_kinds[] = {"ball", "hinge", "slider", "fixed", NULL};

/* Joints act in 3D under impulse and contact, either time stepping (under "ode":
   engine3d_joints_ode.c). */
static void require_joint_strategy(lua_State *L, const imp_world *w, const char *what)
{
    if (!imp_world_strategy_has(w, IMP_STRATEGY_COLLISIONS)) {
        imp_error(L, what, "joints, ropes and rods act only under the strategies \"contact\" and "
                  "\"impulse\"; this world's strategy is \"%s\", which would ignore them: create "
                  "the world with strategy = \"contact\"", imp_strategy_names[w->model.def.strategy]);
    }
}

static void push_handle(lua_State *L, imp_world *w, int index)
{
    unsigned gen;
    int alive;
    const imp_joint3d_def *d = imp_e3_joint_def(w, index, &gen, &alive);
    lua_createtable(L, 0, 3);
    lua_pushstring(L, imp_joint3d_kind_names[d->kind]);
    lua_setfield(L, -2, "kind");
    lua_pushinteger(L, index);
    lua_setfield(L, -2, "index");
    lua_pushinteger(L, (lua_Integer)gen);
    lua_setfield(L, -2, "generation");
}

static int add(lua_State *L, imp_world *w, const char *what, const imp_joint3d_def *d)
{
    char why[200];
    int index = imp_e3_joint_add(w, d, why, sizeof why);
    if (index < 0) {
        return imp_error(L, what, "%s", why);
    }
    push_handle(L, w, index);
    return 1;
}

static void read_bodies(lua_State *L, imp_world *w, const char *what, imp_joint3d_def *d)
{
    lua_getfield(L, 2, "body1");
    if (lua_isnil(L, -1)) {
        imp_error(L, what, "option 'body1' is required");
    }
    d->body1 = imp_lua_check_body_of(L, -1, w, what, "option 'body1'").slot;
    lua_pop(L, 1);
    lua_getfield(L, 2, "body2");
    d->body2 = lua_isnil(L, -1) ? imp_world_background(w).slot
                                : imp_lua_check_body_of(L, -1, w, what, "option 'body2'").slot;
    lua_pop(L, 1);
}

/* the pose of slot s at the world's state: centre and rotation (row-major) */
static void pose(const imp_world *w, int s, double x[3], imp_mat3 *R)
{
    const double *y = w->data.y + (size_t)s * IMP_STRIDE_3D;
    double q[4] = {1.0, 0.0, 0.0, 0.0};
    memset(x, 0, 3 * sizeof *x);
    if (s > 0) {
        memcpy(x, y, 3 * sizeof *x);
        memcpy(q, y + 3, sizeof q);
    }
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    double a = q[0] / n, b = q[1] / n, c = q[2] / n, e = q[3] / n;
    const double m[3][3] = {{1 - 2 * (c * c + e * e), 2 * (b * c - a * e), 2 * (b * e + a * c)},
                            {2 * (b * c + a * e), 1 - 2 * (b * b + e * e), 2 * (c * e - a * b)},
                            {2 * (b * e - a * c), 2 * (c * e + a * b), 1 - 2 * (b * b + c * c)}};
    memcpy(R->m, m, sizeof m);
}

/* world point p -> slot s's frame, and back */
static void to_body(const imp_world *w, int s, const double p[3], double out[3])
{
    double x[3];
    imp_mat3 R;
    pose(w, s, x, &R);
    for (int i = 0; i < 3; i++) {
        out[i] = R.m[0][i] * (p[0] - x[0]) + R.m[1][i] * (p[1] - x[1]) + R.m[2][i] * (p[2] - x[2]);
    }
}

static void to_world(const imp_world *w, int s, const double p[3], double out[3])
{
    double x[3];
    imp_mat3 R;
    pose(w, s, x, &R);
    for (int i = 0; i < 3; i++) {
        out[i] = x[i] + R.m[i][0] * p[0] + R.m[i][1] * p[1] + R.m[i][2] * p[2];
    }
}

/* anchor (world) or point1 / point2 (the bodies' frames; one given: the other is where it is
   now); none: body1's centre */
static void read_anchor(lua_State *L, imp_world *w, const char *what, imp_joint3d_def *d)
{
    double anchor[3], p1[3], p2[3];
    int has_a = imp_opt_vector(L, 2, what, "anchor", 3, anchor);
    int has_1 = imp_opt_vector(L, 2, what, "point1", 3, p1);
    int has_2 = imp_opt_vector(L, 2, what, "point2", 3, p2);
    if (has_a && (has_1 || has_2)) {
        imp_error(L, what, "give either option 'anchor' (a world point) or options 'point1' and "
                  "'point2' (points in the bodies' frames), not both");
    }
    if (!has_a && !has_1 && !has_2) {
        to_world(w, d->body1, (const double[3]){0, 0, 0}, anchor);
        has_a = 1;
    }
    if (has_a) {
        to_body(w, d->body1, anchor, d->point1);
        to_body(w, d->body2, anchor, d->point2);
        return;
    }
    double at[3];
    if (has_1) {
        memcpy(d->point1, p1, sizeof p1);
        to_world(w, d->body1, p1, at);
        if (!has_2) {
            to_body(w, d->body2, at, d->point2);
        }
    }
    if (has_2) {
        memcpy(d->point2, p2, sizeof p2);
        to_world(w, d->body2, p2, at);
        if (!has_1) {
            to_body(w, d->body1, at, d->point1);
        }
    }
}

static void read_axis(lua_State *L, const char *what, imp_joint3d_def *d)
{
    int axial = d->kind == IMP_J3_HINGE || d->kind == IMP_J3_SLIDER;
    double a[3];
    int has = imp_opt_vector(L, 2, what, "axis", 3, a);
    if (!axial) {
        if (has) {
            imp_error(L, what, "option 'axis' is for the kinds \"hinge\" and \"slider\" (this joint's "
                      "kind is \"%s\")", imp_joint3d_kind_names[d->kind]);
        }
        return;
    }
    if (!has) {
        imp_error(L, what, "option 'axis' is required for a %s joint: a world direction {x, y, z}",
                  imp_joint3d_kind_names[d->kind]);
    }
    double len = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    if (!(len > 0.0) || !isfinite(len)) {
        imp_error(L, what, "option 'axis' must be a nonzero vector, got {%s, %s, %s}", imp_push_g(L, a[0]),
                  imp_push_g(L, a[1]), imp_push_g(L, a[2]));
    }
    for (int k = 0; k < 3; k++) {
        d->axis[k] = a[k] / len;
    }
}

static void read_limits_motor(lua_State *L, const char *what, imp_joint3d_def *d)
{
    int axial = d->kind == IMP_J3_HINGE || d->kind == IMP_J3_SLIDER;
    static const char *const names[] = {"limits", "motor"};
    for (int i = 0; i < 2; i++) {
        lua_getfield(L, 2, names[i]);
        int given = !lua_isnil(L, -1);
        lua_pop(L, 1);
        if (given && !axial) {
            imp_error(L, what, "option '%s' is for the kinds \"hinge\" and \"slider\" (this joint's kind "
                      "is \"%s\")", names[i], imp_joint3d_kind_names[d->kind]);
        }
    }
    double lim[3];
    if (imp_opt_vector(L, 2, what, "limits", 2, lim)) {
        if (!(lim[0] <= lim[1])) {
            imp_error(L, what, "option 'limits' must be {lo, hi} with lo <= hi, got {%s, %s}",
                      imp_push_g(L, lim[0]), imp_push_g(L, lim[1]));
        }
        if (d->kind == IMP_J3_HINGE && (lim[0] < -PI || lim[1] > PI)) {
            imp_error(L, what, "option 'limits' of a hinge are angles within [-pi, pi] (rad), got {%s, %s}",
                      imp_push_g(L, lim[0]), imp_push_g(L, lim[1]));
        }
        d->has_limits = 1;
        d->lo = lim[0];
        d->hi = lim[1];
    }
    lua_getfield(L, 2, "motor");
    if (!lua_isnil(L, -1)) {
        static const char *const keys[] = {"speed", "max_force", NULL};
        if (!lua_istable(L, -1)) {
            imp_error(L, what, "option 'motor' must be a table {speed =, max_force =}, got %s",
                      imp_describe(L, -1));
        }
        imp_opt_check_nested_keys(L, -1, what, "motor", keys);
        int has_s, has_f;
        d->speed = imp_opt_number(L, -1, what, "motor.speed", 0.0, IMP_ANY, &has_s);
        d->max_force = imp_opt_number(L, -1, what, "motor.max_force", 0.0, IMP_NONNEGATIVE, &has_f);
        if (!has_s || !has_f) {
            imp_error(L, what, "option 'motor' needs both 'speed' (%s) and 'max_force' (%s)",
                      d->kind == IMP_J3_HINGE ? "rad/s" : "m/s", d->kind == IMP_J3_HINGE ? "N m" : "N");
        }
        d->has_motor = 1;
    }
    lua_pop(L, 1);
}

/* w:add_joint{kind =, body1 =, body2 = (background), anchor = | point1 =, point2 =, axis =,
   limits = {lo, hi}, motor = {speed =, max_force =}} in a 3D world */
int imp_lua_joint3d_add_joint(lua_State *L, imp_world *w)
{
    static const char *const keys[] = {"kind", "body1", "body2", "anchor", "point1", "point2",
                                       "axis", "limits", "motor", NULL};
    const char *what = "World:add_joint";
    require_joint_strategy(L, w, what);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    imp_opt_check_keys(L, 2, what, keys);
    imp_joint3d_def d;
    memset(&d, 0, sizeof d);
    lua_getfield(L, 2, "kind");
    if (lua_isnil(L, -1)) {
        imp_error(L, what, "option 'kind' is required in a 3D world: \"ball\", \"hinge\", \"slider\" "
                  "or \"fixed\"");
    }
    lua_pop(L, 1);
    d.kind = (imp_joint3d_kind)imp_opt_enum(L, 2, what, "kind", joint_kinds, 0);
    read_bodies(L, w, what, &d);
    read_anchor(L, w, what, &d);
    read_axis(L, what, &d);
    read_limits_motor(L, what, &d);
    return add(L, w, what, &d);
}

/* w:add_rope{body1 =, point1 =, body2 =, point2 =, length =, rod = false} in a 3D world */
int imp_lua_joint3d_add_rope(lua_State *L, imp_world *w)
{
    static const char *const keys[] = {"body1", "point1", "body2", "point2", "length", "rod", NULL};
    const char *what = "World:add_rope";
    require_joint_strategy(L, w, what);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    imp_opt_check_keys(L, 2, what, keys);
    imp_joint3d_def d;
    memset(&d, 0, sizeof d);
    d.kind = imp_opt_boolean(L, 2, what, "rod", 0) ? IMP_J3_ROD : IMP_J3_ROPE;
    read_bodies(L, w, what, &d);
    imp_opt_vector(L, 2, what, "point1", 3, d.point1);
    imp_opt_vector(L, 2, what, "point2", 3, d.point2);
    int has_length;
    d.length = imp_opt_number(L, 2, what, "length", 0.0, IMP_POSITIVE, &has_length);
    if (!has_length) {
        return imp_error(L, what, "option 'length' is required");
    }
    return add(L, w, what, &d);
}

static int check_joint(lua_State *L, imp_world *w, int idx, const char *what)
{
    lua_Integer index, gen;
    int ok = imp_connector_handle(L, idx, what, &index, &gen);
    unsigned g = 0;
    int alive = 0;
    if (!ok || index < 0 || index >= imp_e3_joint_count(w) || imp_e3_joint_def(w, (int)index, &g, &alive) == NULL
        || (lua_Integer)g != gen) {
        return imp_error(L, what, "the connector was removed or does not belong to this world");
    }
    if (!alive) {
        return imp_error(L, what, "one of the connector's bodies was removed (a connector goes with its "
                         "bodies)");
    }
    return (int)index;
}

int imp_lua_joint3d_remove(lua_State *L, imp_world *w)
{
    int i = check_joint(L, w, 2, "World:remove_connector");
    unsigned g;
    int alive;
    imp_e3_joint_def(w, i, &g, &alive);
    imp_e3_joint_remove(w, i, g);
    return 0;
}

/* w:connector_error(j) in 3D: linear error (m), distance |p2 - p1|, angular error (rad), and
   the hinge's angle or the slider's travel */
int imp_lua_joint3d_error(lua_State *L, imp_world *w)
{
    int i = check_joint(L, w, 2, "World:connector_error");
    double lin, dist, ang, at;
    imp_e3_joint_error(w, i, &lin, &dist, &ang, &at);
    lua_pushnumber(L, lin);
    lua_pushnumber(L, dist);
    lua_pushnumber(L, ang);
    lua_pushnumber(L, at);
    return 4;
}
