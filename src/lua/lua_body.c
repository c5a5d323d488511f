/* lua_body.c: the impact.Body userdata: state properties, mass properties, forces, impulses,
   energies and point transforms. A body removed from its world, or whose world was closed,
   raises a clear error when used. */
#include <string.h>

#include "islands.h"
#include "lua_world.h"
#include "quat.h"

static body_ud *to_body_ud(lua_State *L, int idx) { return luaL_checkudata(L, idx, IMP_BODY_MT); }

/* pushes the world userdata of the body at idx */
static world_ud *body_world(lua_State *L, int idx)
{
    lua_getiuservalue(L, idx, BODY_UV_WORLD);
    return lua_touserdata(L, -1);
}

const char *imp_lua_body_label(lua_State *L, int world_idx, int slot)
{
    if (slot == 0) {
        return lua_pushliteral(L, "the background");
    }
    lua_getiuservalue(L, world_idx, WORLD_UV_BODIES);
    lua_rawgeti(L, -1, slot);
    const char *name = NULL;
    if (lua_type(L, -1) == LUA_TUSERDATA) {
        lua_getiuservalue(L, -1, BODY_UV_NAME);
        name = lua_tostring(L, -1);
        lua_pop(L, 1);
    }
    const char *r = name != NULL ? lua_pushfstring(L, "'%s' (#%d)", name, slot)
                                 : lua_pushfstring(L, "#%d", slot);
    lua_replace(L, -3);
    lua_pop(L, 1);
    return r;
}

void imp_lua_push_body(lua_State *L, int world_idx, int slot)
{
    lua_getiuservalue(L, world_idx, WORLD_UV_BODIES);
    lua_rawgeti(L, -1, slot);
    lua_remove(L, -2);
}

void imp_lua_new_body(lua_State *L, int world_idx, imp_body_id id, int name_idx, int data_idx,
                      int shape_idx)
{
    world_idx = lua_absindex(L, world_idx);
    body_ud *u = lua_newuserdatauv(L, sizeof *u, BODY_NUV);
    u->id = id;
    luaL_setmetatable(L, IMP_BODY_MT);
    lua_pushvalue(L, world_idx);
    lua_setiuservalue(L, -2, BODY_UV_WORLD);
    int uv[3] = {BODY_UV_NAME, BODY_UV_DATA, BODY_UV_SHAPE};
    int src[3] = {name_idx, data_idx, shape_idx};
    for (int i = 0; i < 3; i++) {
        if (src[i] != 0) {
            lua_pushvalue(L, src[i]);
            lua_setiuservalue(L, -2, uv[i]);
        }
    }
    lua_getiuservalue(L, world_idx, WORLD_UV_BODIES);
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, id.slot);
    lua_pop(L, 1);
}

static imp_body_id check_live(lua_State *L, int idx, imp_world **w)
{
    body_ud *u = to_body_ud(L, idx);
    world_ud *wu = body_world(L, idx);
    lua_pop(L, 1);
    if (!imp_lua_world_open(wu)) {
        imp_raise(L, "this body's world is closed");
    }
    if (imp_world_body(wu->w, u->id) == NULL) {
        lua_getiuservalue(L, idx, BODY_UV_NAME);
        const char *name = lua_tostring(L, -1);
        if (name != NULL) {
            imp_raise(L, "body '%s' (#%d) was removed from its world", name, u->id.slot);
        }
        imp_raise(L, "body #%d was removed from its world", u->id.slot);
    }
    *w = wu->w;
    return u->id;
}

imp_body_id imp_lua_check_body(lua_State *L, int idx, imp_world **w) { return check_live(L, idx, w); }

imp_body_id imp_lua_check_body_of(lua_State *L, int idx, imp_world *w, const char *what,
                                  const char *name)
{
    if (luaL_testudata(L, idx, IMP_BODY_MT) == NULL) {
        imp_error(L, what, "%s must be a body, got %s", name, imp_describe(L, idx));
    }
    imp_world *bw;
    imp_body_id id = check_live(L, idx, &bw);
    if (bw != w) {
        imp_error(L, what, "%s is a body of another world", name);
    }
    return id;
}

/* ---- methods ----------------------------------------------------------------------------- */

/* an optional world point at idx (nil: the centre of mass) */
static const double *opt_point(lua_State *L, int idx, const char *what, int dim, double *buf)
{
    if (lua_isnoneornil(L, idx)) {
        return NULL;
    }
    imp_check_vector(L, idx, what, dim, buf);
    return buf;
}

static int l_apply_force(lua_State *L)
{
    imp_world *w;
    imp_body_id id = check_live(L, 1, &w);
    double f[3] = {0, 0, 0}, at[3];
    imp_check_vector(L, 2, "Body:apply_force", w->model.def.dim, f);
    imp_body_apply_force(w, id, f, opt_point(L, 3, "Body:apply_force", w->model.def.dim, at));
    return 0;
}

static int l_apply_torque(lua_State *L)
{
    imp_world *w;
    imp_body_id id = check_live(L, 1, &w);
    double t[3] = {0, 0, 0};
    if (w->model.def.dim == 2) {
        t[0] = luaL_checknumber(L, 2);
        luaL_argcheck(L, isfinite(t[0]), 2, "the torque must be finite");
    } else {
        imp_check_vector(L, 2, "Body:apply_torque", 3, t);
    }
    imp_body_apply_torque(w, id, t);
    return 0;
}

static int l_apply_impulse(lua_State *L)
{
    imp_world *w;
    imp_body_id id = check_live(L, 1, &w);
    double j[3] = {0, 0, 0}, at[3];
    imp_check_vector(L, 2, "Body:apply_impulse", w->model.def.dim, j);
    if (imp_body_apply_impulse(w, id, j, opt_point(L, 3, "Body:apply_impulse", w->model.def.dim, at)) !=
        IMP_OK) {
        return imp_error(L, "Body:apply_impulse", "the impulse would make the body's velocity "
                         "non-finite (mass %s kg); nothing was changed", imp_push_g(L, 1.0 / w->model.bodies[id.slot].inv_mass));
    }
    return 0;
}

static int l_kinetic_energy(lua_State *L)
{
    imp_world *w;
    imp_body_id id = check_live(L, 1, &w);
    lua_pushnumber(L, imp_body_kinetic_energy(w, id) + imp_body_rotational_energy(w, id));
    return 1;
}

static int l_translational_energy(lua_State *L)
{
    imp_world *w;
    imp_body_id id = check_live(L, 1, &w);
    lua_pushnumber(L, imp_body_kinetic_energy(w, id));
    return 1;
}

static int l_rotational_energy(lua_State *L)
{
    imp_world *w;
    imp_body_id id = check_live(L, 1, &w);
    lua_pushnumber(L, imp_body_rotational_energy(w, id));
    return 1;
}

static int l_momentum(lua_State *L)
{
    imp_world *w;
    imp_body_id id = check_live(L, 1, &w);
    double p[3];
    imp_body_momentum(w, id, p);
    imp_push_vector(L, p, w->model.def.dim);
    return 1;
}

static int l_angular_momentum(lua_State *L)
{
    imp_world *w;
    imp_body_id id = check_live(L, 1, &w);
    double l[3];
    imp_body_angular_momentum(w, id, l);
    if (w->model.def.dim == 2) {
        lua_pushnumber(L, l[2]);
    } else {
        imp_push_vector(L, l, 3);
    }
    return 1;
}

/* Body:to_world(p), Body:to_body(p), Body:point_velocity(p): a vector in, a vector out */
typedef void (*point_fn)(const imp_world *, imp_body_id, const double *, double *);

static int point_method(lua_State *L, const char *what, point_fn fn)
{
    imp_world *w;
    imp_body_id id = check_live(L, 1, &w);
    double p[3], q[3];
    imp_check_vector(L, 2, what, w->model.def.dim, p);
    fn(w, id, p, q);
    imp_push_vector(L, q, w->model.def.dim);
    return 1;
}

static int l_to_world(lua_State *L) { return point_method(L, "Body:to_world", imp_body_to_world); }
static int l_to_body(lua_State *L) { return point_method(L, "Body:to_body", imp_body_to_body); }
static int l_point_velocity(lua_State *L)
{
    return point_method(L, "Body:point_velocity", imp_body_point_velocity);
}

/* sleeping (islands.h): b:is_awake() (false while its island sleeps), b:wake(), b:sleep() */
static int l_is_awake(lua_State *L)
{
    imp_world *w;
    imp_body_id id = check_live(L, 1, &w);
    lua_pushboolean(L, !imp_islands_asleep(w, id.slot));
    return 1;
}

static int l_wake(lua_State *L)
{
    imp_world *w;
    imp_body_id id = check_live(L, 1, &w);
    imp_islands_wake(w, id.slot);
    return 0;
}

static int l_sleep(lua_State *L)
{
    imp_world *w;
    imp_body_id id = check_live(L, 1, &w);
    imp_status st = imp_islands_ask_sleep(w, id.slot);
    if (st == IMP_ERR_INVALID) {
        return imp_error(L, "Body:sleep", "this world does not sleep (it was made without sleep = true)");
    }
    if (st != IMP_OK) {
        return imp_raise(L, "Body:sleep: out of memory");
    }
    return 0;
}

static int l_is_valid(lua_State *L)
{
    body_ud *u = to_body_ud(L, 1);
    world_ud *wu = body_world(L, 1);
    lua_pushboolean(L, imp_lua_world_open(wu) && imp_world_body(wu->w, u->id) != NULL);
    return 1;
}

/* ---- properties -------------------------------------------------------------------------- */

/* A name-to-function table (sorted by name, binary search): the getter pushes the value;
   the reader, for a settable property, reads the value at 3 into v and returns how many numbers
   go where in the body's state (*at), or raises. dims: the dimensions the property exists in. */
typedef struct {
    imp_world *w;
    imp_body_id id;
    const imp_body *b;
    const double *y;  /* the body's state */
    int dim, vo;      /* the dimension, the offset of the velocity in y */
} body_view;

typedef struct {
    const char *name;
    int plain;     /* get pushes a number or boolean without allocating: needs no guard */
    int dims;      /* bit 2: 2D, bit 3: 3D */
    int velocity;  /* a fixed body refuses it */
    void (*get)(lua_State *L, const body_view *v);
    int (*read)(lua_State *L, const char *name, int dim, double *v, int *at);
} body_prop;

enum { IN_2D = 1 << 2, IN_3D = 1 << 3, IN_ALL = IN_2D | IN_3D };

static void get_angle(lua_State *L, const body_view *v) { lua_pushnumber(L, v->y[2]); }
static void get_angular_velocity(lua_State *L, const body_view *v) { imp_push_vector(L, v->y + 10, 3); }
static void get_fixed(lua_State *L, const body_view *v) { lua_pushboolean(L, v->b->fixed); }
static void get_kinematic(lua_State *L, const body_view *v) { lua_pushboolean(L, v->b->kinematic); }
static void get_sleep(lua_State *L, const body_view *v) { lua_pushboolean(L, !v->b->no_sleep); }
static void get_filter(lua_State *L, const body_view *v) { imp_lua_push_filter(L, v->b); }

static void get_motion(lua_State *L, const body_view *v)
{
    lua_getiuservalue(L, 1, BODY_UV_WORLD);
    if (lua_getiuservalue(L, -1, WORLD_UV_MOTIONS) == LUA_TTABLE) {
        lua_rawgeti(L, -1, v->id.slot);
    } else {
        lua_pushnil(L);
    }
}
static void get_id(lua_State *L, const body_view *v) { lua_pushinteger(L, v->id.slot); }

static void get_inertia(lua_State *L, const body_view *v)
{
    if (v->dim == 2) {
        lua_pushnumber(L, v->b->inertia.m[2][2]);
    } else {
        imp_push_mat3(L, &v->b->inertia);
    }
}

static void get_is_background(lua_State *L, const body_view *v) { lua_pushboolean(L, v->id.slot == 0); }
static void get_mass(lua_State *L, const body_view *v) { lua_pushnumber(L, v->b->mass); }
static void get_orientation(lua_State *L, const body_view *v) { imp_push_vector(L, v->y + 3, 4); }
static void get_position(lua_State *L, const body_view *v) { imp_push_vector(L, v->y, v->dim); }

static void get_shape(lua_State *L, const body_view *v)
{
    (void)v;
    lua_getiuservalue(L, 1, BODY_UV_SHAPE);
}

static void get_spin(lua_State *L, const body_view *v) { lua_pushnumber(L, v->y[5]); }
static void get_velocity(lua_State *L, const body_view *v) { imp_push_vector(L, v->y + v->vo, v->dim); }

static void get_world_inertia(lua_State *L, const body_view *v)
{
    imp_mat3 i = imp_body_world_inertia(v->w, v->id);
    imp_push_mat3(L, &i);
}

static int read_number(lua_State *L, const char *name, double *v)
{
    v[0] = lua_tonumber(L, 3);
    if (lua_type(L, 3) != LUA_TNUMBER || !isfinite(v[0])) {
        return imp_raise(L, "%s must be a finite number, got %s", name, imp_describe(L, 3));
    }
    return 1;
}

static int read_angle(lua_State *L, const char *name, int dim, double *v, int *at)
{
    (void)dim;
    *at = 2;
    return read_number(L, name, v);
}

static int read_spin(lua_State *L, const char *name, int dim, double *v, int *at)
{
    (void)dim;
    *at = 5;
    return read_number(L, name, v);
}

static int read_position(lua_State *L, const char *name, int dim, double *v, int *at)
{
    imp_to_vector(L, 3, "Body", name, dim, v);
    *at = 0;
    return dim;
}

static int read_velocity(lua_State *L, const char *name, int dim, double *v, int *at)
{
    imp_to_vector(L, 3, "Body", name, dim, v);
    *at = dim == 2 ? IMP_VEL_2D : IMP_VEL_3D;
    return dim;
}

static int read_orientation(lua_State *L, const char *name, int dim, double *v, int *at)
{
    (void)dim;
    imp_to_vector(L, 3, "Body", name, 4, v);
    imp_quat u = imp_q(v[0], v[1], v[2], v[3]);
    double norm = imp_q_norm(u);
    if (!(norm > 0.0) || !isfinite(norm)) {
        return imp_raise(L, "%s must be a nonzero quaternion {w, x, y, z} of finite norm, "
                             "got one of norm %s", name, imp_push_g(L, norm));
    }
    u = imp_q_normalize(u);
    v[0] = u.w, v[1] = u.x, v[2] = u.y, v[3] = u.z;
    *at = 3;
    return 4;
}

static int read_angular_velocity(lua_State *L, const char *name, int dim, double *v, int *at)
{
    (void)dim;
    imp_to_vector(L, 3, "Body", name, 3, v);
    *at = 10;
    return 3;
}

/* sorted by name (strcmp order) */
static const body_prop body_props[] = {
    {"angle", 1, IN_2D, 0, get_angle, read_angle},
    {"angular_velocity", 0, IN_3D, 1, get_angular_velocity, read_angular_velocity},
    {"filter", 0, IN_ALL, 0, get_filter, NULL},
    {"fixed", 1, IN_ALL, 0, get_fixed, NULL},
    {"id", 1, IN_ALL, 0, get_id, NULL},
    {"inertia", 0, IN_ALL, 0, get_inertia, NULL},
    {"is_background", 1, IN_ALL, 0, get_is_background, NULL},
    {"kinematic", 1, IN_ALL, 0, get_kinematic, NULL},
    {"mass", 1, IN_ALL, 0, get_mass, NULL},
    {"motion", 0, IN_ALL, 0, get_motion, NULL},
    {"orientation", 0, IN_3D, 0, get_orientation, read_orientation},
    {"position", 0, IN_ALL, 0, get_position, read_position},
    {"shape", 0, IN_ALL, 0, get_shape, NULL},
    {"sleep_enabled", 1, IN_ALL, 0, get_sleep, NULL},
    {"spin", 1, IN_2D, 1, get_spin, read_spin},
    {"velocity", 0, IN_ALL, 1, get_velocity, read_velocity},
    {"world_inertia", 0, IN_3D, 0, get_world_inertia, NULL},
};

/* the entry named k, by binary search; NULL when there is none */
static const body_prop *find_body_prop(const char *k)
{
    size_t lo = 0, hi = sizeof body_props / sizeof body_props[0];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(k, body_props[mid].name);
        if (c == 0) {
            return &body_props[mid];
        }
        if (c < 0) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return NULL;
}

/* the property p of a body; L's argument 1 is the body */
static int push_body_prop(lua_State *L, const body_prop *p)
{
    body_view v;
    v.id = check_live(L, 1, &v.w);
    v.dim = v.w->model.def.dim;
    if (p == NULL || !(p->dims & (1 << v.dim))) {
        return 0;
    }
    v.b = imp_world_body(v.w, v.id);
    v.y = imp_world_body_state_read(v.w, v.id);
    v.vo = v.dim == 2 ? IMP_VEL_2D : IMP_VEL_3D;
    p->get(L, &v);
    return 1;
}

/* the property k of a body (under the guard) */
static int body_property(lua_State *L)
{
    return push_body_prop(L, find_body_prop(lua_tostring(L, 2)));
}

static int l_body_index(lua_State *L)
{
    const char *k = luaL_checkstring(L, 2);
    lua_getfield(L, lua_upvalueindex(1), k);  /* methods */
    if (!lua_isnil(L, -1)) {
        return 1;
    }
    lua_pop(L, 1);
    if (strcmp(k, "name") == 0 || strcmp(k, "data") == 0) {
        lua_getiuservalue(L, 1, k[0] == 'n' ? BODY_UV_NAME : BODY_UV_DATA);
        return 1;
    }
    if (strcmp(k, "world") == 0) {
        body_world(L, 1);
        return 1;
    }
    const body_prop *p = find_body_prop(k);
    if (p != NULL && p->plain) {
        return push_body_prop(L, p);
    }
    const char *what = lua_pushfstring(L, "Body.%s", k);
    return imp_lua_guarded_call(L, 2, body_property, IMP_ON_BODY, what, IMP_SHARED);
}

/* sets the property k of a body (under the guard): the value is read whole before the body
   changes, so an error leaves the body as it was */
static int body_set(lua_State *L)
{
    const char *k = lua_tostring(L, 2);
    const body_prop *p = find_body_prop(k);
    imp_world *w;
    imp_body_id id = check_live(L, 1, &w);
    const imp_body *b = imp_world_body(w, id);
    int dim = w->model.def.dim;
    if (strcmp(k, "filter") == 0) {
        unsigned cat, mask;
        int group;
        imp_lua_read_filter(L, 3, "Body.filter", "Body.filter", &cat, &mask, &group);
        if (imp_body_set_filter(w, id, cat, mask, group) != IMP_OK) {
            return imp_raise(L, "Body.filter: %s", imp_world_error(w));
        }
        return 0;
    }
    if (strcmp(k, "motion") == 0) {
        int given = !lua_isnil(L, 3);
        if (!b->kinematic) {
            return imp_raise(L, "Body.motion: only a kinematic body (kinematic = true) follows "
                                "a motion");
        }
        lua_getiuservalue(L, 1, BODY_UV_WORLD);
        int world_idx = lua_gettop(L);
        if (given) {
            lua_pushvalue(L, 3);
            int fn = lua_gettop(L);
            if (!lua_isfunction(L, fn) && luaL_getmetafield(L, fn, "__call") == LUA_TNIL) {
                return imp_raise(L, "Body.motion must be a function of time or nil, got %s",
                                 imp_describe(L, 3));
            }
            lua_settop(L, fn);
            imp_lua_set_motion(L, world_idx, id.slot, fn);
        } else {
            imp_lua_set_motion(L, world_idx, id.slot, 0);
        }
        return 0;
    }
    if (p != NULL && p->velocity && b->fixed) {
        return imp_raise(L, "Body.%s: a fixed body does not move", k);
    }
    if (id.slot == 0) {
        return imp_raise(L, "Body.%s: the background cannot be moved", k);
    }
    if (p == NULL || p->read == NULL || !(p->dims & (1 << dim))) {
        return imp_raise(L, "Body: '%s' cannot be set (settable: position, velocity, %s, name, "
                             "data, filter, motion)", k, dim == 2 ? "angle, spin" : "orientation, angular_velocity");
    }
    const char *name = lua_pushfstring(L, "Body.%s", k);
    double v[4];
    int at = 0;
    int n = p->read(L, name, dim, v, &at);
    double *y = imp_world_body_state(w, id);  /* counts as an edit */
    memcpy(y + at, v, (size_t)n * sizeof *v);
    return 0;
}

static int l_body_newindex(lua_State *L)
{
    const char *k = luaL_checkstring(L, 2);
    if (strcmp(k, "name") == 0 || strcmp(k, "data") == 0) {
        if (k[0] == 'n' && !lua_isnil(L, 3) && lua_type(L, 3) != LUA_TSTRING) {
            return imp_raise(L, "Body.name must be a string, got %s", imp_describe(L, 3));
        }
        lua_settop(L, 3);
        lua_setiuservalue(L, 1, k[0] == 'n' ? BODY_UV_NAME : BODY_UV_DATA);
        return 0;
    }
    lua_settop(L, 3);
    const char *what = lua_pushfstring(L, "Body.%s", k);
    return imp_lua_guarded_call(L, 3, body_set, IMP_ON_BODY, what, IMP_EXCLUSIVE);
}

static int l_body_tostring(lua_State *L)
{
    body_ud *u = to_body_ud(L, 1);
    lua_getiuservalue(L, 1, BODY_UV_NAME);
    const char *name = lua_tostring(L, -1);
    if (u->id.slot == 0) {
        lua_pushliteral(L, "impact.Body(background)");
    } else if (name != NULL) {
        lua_pushfstring(L, "impact.Body('%s', #%d)", name, u->id.slot);
    } else {
        lua_pushfstring(L, "impact.Body(#%d)", u->id.slot);
    }
    return 1;
}

void imp_lua_open_body(lua_State *L)
{
    static const luaL_Reg changing[] = {
        {"apply_force", l_apply_force},
        {"apply_torque", l_apply_torque},
        {"apply_impulse", l_apply_impulse},
        {"set_filter", imp_lua_body_set_filter},
        {"no_collide", imp_lua_body_no_collide},
        {"collide_with", imp_lua_body_collide_with},
        {"wake", l_wake},
        {"sleep", l_sleep},
        {NULL, NULL}};
    static const luaL_Reg reading[] = {
        {"kinetic_energy", l_kinetic_energy},
        {"translational_energy", l_translational_energy},
        {"rotational_energy", l_rotational_energy},
        {"momentum", l_momentum},
        {"angular_momentum", l_angular_momentum},
        {"to_world", l_to_world},
        {"to_body", l_to_body},
        {"point_velocity", l_point_velocity},
        {"should_collide", imp_lua_body_should_collide},
        {"is_awake", l_is_awake},
        {NULL, NULL}};
    if (luaL_newmetatable(L, IMP_BODY_MT)) {
        lua_pushcfunction(L, l_body_tostring);
        lua_setfield(L, -2, "__tostring");
        lua_pushcfunction(L, l_body_newindex);
        lua_setfield(L, -2, "__newindex");
        lua_newtable(L);
        imp_lua_set_guarded(L, changing, "Body:", IMP_ON_BODY, IMP_EXCLUSIVE);
        imp_lua_set_guarded(L, reading, "Body:", IMP_ON_BODY, IMP_SHARED);
        lua_pushcfunction(L, l_is_valid);  /* false, not an error, once the world is closed */
        lua_setfield(L, -2, "is_valid");
        lua_pushvalue(L, -1);
        lua_setfield(L, -4, "Body");
        lua_pushcclosure(L, l_body_index, 1);
        lua_setfield(L, -2, "__index");
    } else {
        lua_getfield(L, -1, "__index");
        lua_getupvalue(L, -1, 1);
        lua_setfield(L, -4, "Body");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}
