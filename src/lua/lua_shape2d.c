/* lua_shape2d.c: 2D shapes in Lua (impact.shape2d.* in the Lua front): constructors, the
   polygon builder's back end, per-edge geometry, distance and detection queries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collide2d.h"
#include "distance2d.h"
#include "edge2d.h"
#include "lua_util.h"
#include "polygon2d.h"
#include "shape2d_basic.h"

/* an option holding a length: a positive finite number in [IMP_POLY2D_LENGTH_MIN,
   IMP_POLY2D_LENGTH_MAX] (so areas and polar moments stay finite and normal) */
static double opt_length(lua_State *L, int idx, const char *what, const char *key, double def)
{
    double v = imp_opt_number(L, idx, what, key, def, IMP_POSITIVE, NULL);
    if (!(v >= IMP_POLY2D_LENGTH_MIN && v <= IMP_POLY2D_LENGTH_MAX)) {
        char msg[160];
        snprintf(msg, sizeof msg, "option '%s' must be a length in [%g, %g], got %g", key,
                 IMP_POLY2D_LENGTH_MIN, IMP_POLY2D_LENGTH_MAX, v);
        imp_error(L, what, "%s", msg);
    }
    return v;
}

static double opt_spacing(lua_State *L, const char *what)
{
    return opt_length(L, 1, what, "spacing", IMP_POLY2D_DEFAULT_SPACING);
}

/* "option '<key>' must be <rel> <bound_text> = <bound>, got <v>" with %g numbers */
static void relation_error(lua_State *L, const char *what, const char *key, const char *rel,
                           double bound, double v)
{
    char msg[200];
    snprintf(msg, sizeof msg, "option '%s' must be %s = %g, got %g", key, rel, bound, v);
    imp_error(L, what, "%s", msg);
}

static void push_built(lua_State *L, const char *what, imp_shape *s, const imp_poly2d_error *err)
{
    if (s == NULL) {
        if (err->status == IMP_POLY_NO_MEMORY || err->status == IMP_POLY_OK) {
            imp_raise(L, "%s: out of memory building a shape", what);
        }
        imp_error(L, what, "%s", err->message);
    }
    imp_lua_push_shape(L, s);
}

static int l_ball(lua_State *L)
{
    /* the decorated-vertex spacing of a ball is the default (0.3); a path gives any spacing */
    static const char *const keys[] = {"radius", NULL};
    const char *what = "impact.shape2d.ball";
    luaL_checktype(L, 1, LUA_TTABLE);
    imp_opt_check_keys(L, 1, what, keys);
    double r = opt_length(L, 1, what, "radius", 0.5);
    imp_poly2d_error err = {0, ""};
    push_built(L, what, imp_shape2d_ball(r, IMP_POLY2D_DEFAULT_SPACING, &err), &err);
    return 1;
}

static int l_block(lua_State *L)
{
    static const char *const keys[] = {"width", "height", NULL};
    const char *what = "impact.shape2d.block";
    luaL_checktype(L, 1, LUA_TTABLE);
    imp_opt_check_keys(L, 1, what, keys);
    double w = opt_length(L, 1, what, "width", 1.0);
    double h = opt_length(L, 1, what, "height", 1.0);
    imp_poly2d_error err = {0, ""};
    push_built(L, what, imp_shape2d_block(w, h, &err), &err);
    return 1;
}

static int l_ngon(lua_State *L)
{
    static const char *const keys[] = {"sides", "radius", NULL};
    const char *what = "impact.shape2d.ngon";
    luaL_checktype(L, 1, LUA_TTABLE);
    imp_opt_check_keys(L, 1, what, keys);
    int n = (int)imp_opt_integer(L, 1, what, "sides", 6, 3, 100000);
    double r = opt_length(L, 1, what, "radius", 0.5);
    imp_poly2d_error err = {0, ""};
    push_built(L, what, imp_shape2d_ngon(n, r, &err), &err);
    return 1;
}

static int l_rounded_block(lua_State *L)
{
    static const char *const keys[] = {"width", "height", "corner_radius", "spacing", NULL};
    const char *what = "impact.shape2d.rounded_block";
    luaL_checktype(L, 1, LUA_TTABLE);
    imp_opt_check_keys(L, 1, what, keys);
    double w = opt_length(L, 1, what, "width", 1.0);
    double h = opt_length(L, 1, what, "height", 1.0);
    double r = opt_length(L, 1, what, "corner_radius", 0.1);
    if (r > 0.5 * (w < h ? w : h)) {
        relation_error(L, what, "corner_radius", "at most min(width, height) / 2", 0.5 * (w < h ? w : h), r);
    }
    imp_poly2d_error err = {0, ""};
    push_built(L, what, imp_shape2d_rounded_block(w, h, r, opt_spacing(L, what), &err), &err);
    return 1;
}

static int l_frame(lua_State *L)
{
    static const char *const keys[] = {"outer_width", "outer_height", "thickness", NULL};
    const char *what = "impact.shape2d.frame";
    luaL_checktype(L, 1, LUA_TTABLE);
    imp_opt_check_keys(L, 1, what, keys);
    double w = opt_length(L, 1, what, "outer_width", 2.0);
    double h = opt_length(L, 1, what, "outer_height", 2.0);
    double t = opt_length(L, 1, what, "thickness", 0.2);
    if (!(t < 0.5 * (w < h ? w : h))) {
        relation_error(L, what, "thickness", "less than min(outer_width, outer_height) / 2",
                       0.5 * (w < h ? w : h), t);
    }
    imp_poly2d_error err = {0, ""};
    push_built(L, what, imp_shape2d_frame(w, h, t, &err), &err);
    return 1;
}

static int arc_top(lua_State *L, int convex)
{
    static const char *const keys[] = {"width", "height", "radius", "spacing", NULL};
    const char *what = convex ? "impact.shape2d.convex_top_block" : "impact.shape2d.concave_top_block";
    luaL_checktype(L, 1, LUA_TTABLE);
    imp_opt_check_keys(L, 1, what, keys);
    double w = opt_length(L, 1, what, "width", 1.0);
    double h = opt_length(L, 1, what, "height", 1.0);
    double r = opt_length(L, 1, what, "radius", w);
    if (r < 0.5 * w) {
        relation_error(L, what, "radius", "at least width / 2", 0.5 * w, r);
    }
    imp_poly2d_error err = {0, ""};
    push_built(L, what, imp_shape2d_arc_top_block(w, h, r, convex, opt_spacing(L, what), &err), &err);
    return 1;
}

static int l_convex_top_block(lua_State *L) { return arc_top(L, 1); }
static int l_concave_top_block(lua_State *L) { return arc_top(L, 0); }

static double field_number(lua_State *L, int idx, const char *key, double def)
{
    lua_getfield(L, idx, key);
    double v = luaL_optnumber(L, -1, def);
    lua_pop(L, 1);
    return v;
}

/* shape2d_polygon(cmds, opts): cmds is the command list of the Lua path builder */
static int l_polygon(lua_State *L)
{
    static const char *const keys[] = {"spacing", NULL};
    static const char *const ops[] = {"move", "line", "arc", "close", NULL};
    const char *what = "impact.shape2d.path:build";
    luaL_checktype(L, 1, LUA_TTABLE);
    imp_opt_check_keys(L, 2, what, keys);
    double spacing = opt_length(L, 2, what, "spacing", IMP_POLY2D_DEFAULT_SPACING);
    lua_Integer n = luaL_len(L, 1);
    if (n > 10000000) {
        return imp_error(L, what, "too many path commands (%I)", (LUAI_UACINT)n);
    }
    imp_path2d_cmd *cmds = lua_newuserdatauv(L, (size_t)(n > 0 ? n : 1) * sizeof *cmds, 0);
    for (lua_Integer i = 0; i < n; i++) {
        lua_geti(L, 1, i + 1);
        int t = lua_gettop(L);
        luaL_checktype(L, t, LUA_TTABLE);
        lua_getfield(L, t, "op");
        int op = luaL_checkoption(L, -1, NULL, ops);
        lua_pop(L, 1);
        imp_path2d_cmd *c = &cmds[i];
        c->op = op;
        c->x = field_number(L, t, "x", 0.0);
        c->y = field_number(L, t, "y", 0.0);
        c->cx = field_number(L, t, "cx", 0.0);
        c->cy = field_number(L, t, "cy", 0.0);
        lua_getfield(L, t, "outside");
        c->outside = lua_isnil(L, -1) ? 1 : lua_toboolean(L, -1);
        lua_getfield(L, t, "collide");
        c->flags = (lua_isnil(L, -1) || lua_toboolean(L, -1)) ? 0u : (unsigned)IMP_EDGE_NO_COLLIDE;
        lua_pop(L, 3);
    }
    imp_poly2d_error err = {0, ""};
    imp_shape *s = imp_shape2d_polygon(cmds, (int)n, spacing, &err);
    push_built(L, what, s, &err);
    return 1;
}

/* ---- geometry queries ---------------------------------------------------------------------- */

static const imp_poly2d *check_poly(lua_State *L, int idx, const char *what)
{
    imp_shape *s = imp_lua_test_shape(L, idx);
    const imp_poly2d *g = s != NULL ? imp_shape2d_poly(s) : NULL;
    if (g == NULL) {
        imp_error(L, what, "argument #%d must be a 2D shape, got %s", idx,
                  s != NULL ? s->cls->name : imp_describe(L, idx));
    }
    return g;
}

static void push_v2(lua_State *L, imp_vec2 v)
{
    double a[2] = {v.x, v.y};
    imp_push_vector(L, a, 2);
}

static void set_v2(lua_State *L, const char *key, imp_vec2 v)
{
    push_v2(L, v);
    lua_setfield(L, -2, key);
}

/* shape2d_edges(shape): the edges in shape coordinates */
static int l_edges(lua_State *L)
{
    const imp_poly2d *g = check_poly(L, 1, "impact.shape2d.edges");
    lua_createtable(L, g->nedges, 0);
    for (int i = 0; i < g->nedges; i++) {
        const imp_edge2d *e = &g->edges[i];
        lua_createtable(L, 0, 12);
        lua_pushstring(L, e->kind == IMP_EDGE_LINE ? "line" : "arc");
        lua_setfield(L, -2, "kind");
        lua_pushinteger(L, e->path + 1);
        lua_setfield(L, -2, "path");
        set_v2(L, "from", imp_v2_add(e->a, g->centroid));
        set_v2(L, "to", imp_v2_add(e->b, g->centroid));
        imp_lua_set_number(L, "length", e->length);
        imp_lua_set_number(L, "curvature", imp_edge2d_curvature(e));
        lua_pushboolean(L, !(e->flags & IMP_EDGE_NO_COLLIDE));
        lua_setfield(L, -2, "collide");
        if (e->kind == IMP_EDGE_LINE) {
            set_v2(L, "normal", e->n);
        } else {
            set_v2(L, "center", imp_v2_add(e->c, g->centroid));
            imp_lua_set_number(L, "radius", e->r);
            imp_lua_set_number(L, "sweep", e->sweep);
            lua_pushboolean(L, e->convex);
            lua_setfield(L, -2, "convex");
        }
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* shape2d_vertices(shape, decorated): {point, corner, decorated, edge} in shape coordinates */
static int l_vertices(lua_State *L)
{
    const imp_poly2d *g = check_poly(L, 1, "impact.shape2d.vertices");
    int with_dec = lua_toboolean(L, 2);
    int n = with_dec ? g->nvertices : g->nends;
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        const imp_vertex2d *v = &g->vertices[i];
        lua_createtable(L, 0, 4);
        set_v2(L, "point", imp_v2_add(v->p, g->centroid));
        lua_pushboolean(L, v->corner);
        lua_setfield(L, -2, "corner");
        lua_pushboolean(L, v->decorated);
        lua_setfield(L, -2, "decorated");
        lua_pushinteger(L, v->edge_out + 1);
        lua_setfield(L, -2, "edge");
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static imp_vec2 check_point(lua_State *L, int idx, const char *what, const char *name)
{
    double p[2];
    imp_to_vector(L, idx, what, name, 2, p);
    return imp_v2(p[0], p[1]);
}

/* shape2d_edge_distance(shape, i, point): signed distance, closest point, outward normal there,
   signed curvature; shape coordinates */
static int l_edge_distance(lua_State *L)
{
    const char *what = "impact.shape2d.edge_distance";
    const imp_poly2d *g = check_poly(L, 1, what);
    lua_Integer i = luaL_checkinteger(L, 2);
    if (i < 1 || i > g->nedges) {
        return imp_error(L, what, "edge index must be from 1 to %d, got %I", g->nedges, (LUAI_UACINT)i);
    }
    const imp_edge2d *e = &g->edges[i - 1];
    imp_vec2 p = imp_v2_sub(check_point(L, 3, what, "point"), g->centroid), q;
    int interior;
    imp_edge2d_closest(e, p, &q, &interior);
    lua_pushnumber(L, imp_edge2d_signed_distance(e, p));
    push_v2(L, imp_v2_add(q, g->centroid));
    push_v2(L, imp_edge2d_normal_at(e, q));
    lua_pushnumber(L, imp_edge2d_curvature(e));
    return 4;
}

static int l_contains(lua_State *L)
{
    const char *what = "impact.shape2d.contains";
    check_poly(L, 1, what);
    lua_pushboolean(L, imp_shape2d_contains(imp_lua_check_shape(L, 1), check_point(L, 2, what, "point")));
    return 1;
}

static int l_to_world(lua_State *L)
{
    const char *what = "impact.shape2d.to_world";
    check_poly(L, 1, what);
    double pose[7];
    imp_opt_pose(L, 2, what, 2, pose);
    push_v2(L, imp_shape2d_to_world(imp_lua_check_shape(L, 1), pose, check_point(L, 3, what, "point")));
    return 1;
}

static int l_to_body(lua_State *L)
{
    const char *what = "impact.shape2d.to_body";
    check_poly(L, 1, what);
    double pose[7];
    imp_opt_pose(L, 2, what, 2, pose);
    push_v2(L, imp_shape2d_to_body(imp_lua_check_shape(L, 1), pose, check_point(L, 3, what, "point")));
    return 1;
}

/* shape2d_distance(shape_a, pose_a, shape_b, pose_b): distance, normal, point_a, point_b, exact */
static int l_distance(lua_State *L)
{
    const char *what = "impact.shape2d.distance";
    check_poly(L, 1, what);
    check_poly(L, 3, what);
    double pa[7], pb[7];
    imp_opt_pose(L, 2, what, 2, pa);
    imp_opt_pose(L, 4, what, 2, pb);
    imp_distance2d r;
    imp_collide2d_distance(imp_lua_check_shape(L, 1), pa, imp_lua_check_shape(L, 3), pb, &r);
    lua_pushnumber(L, r.distance);
    imp_push_vector(L, r.normal, 2);
    imp_push_vector(L, r.point_a, 2);
    imp_push_vector(L, r.point_b, 2);
    lua_pushboolean(L, r.exact);
    return 5;
}

/* a body table of detect: {shape, position, angle, previous = {position, angle}, velocity, spin, id} */
static void check_body(lua_State *L, int idx, const char *what, imp_body2d *b, int def_id)
{
    static const char *const keys[] = {"shape", "position", "angle", "previous", "velocity", "spin",
                                       "id", NULL};
    luaL_checktype(L, idx, LUA_TTABLE);
    imp_opt_check_keys(L, idx, what, keys);
    lua_getfield(L, idx, "shape");
    imp_shape *s = imp_lua_test_shape(L, -1);
    if (s == NULL || imp_shape2d_poly(s) == NULL) {
        imp_error(L, what, "option 'shape' must be a 2D shape, got %s", imp_describe(L, -1));
    }
    lua_pop(L, 1);
    memset(b, 0, sizeof *b);
    b->shape = s;
    b->id = (int)imp_opt_integer(L, idx, what, "id", def_id, 0, 0x7fffffff);
    imp_opt_vector(L, idx, what, "position", 2, b->pose);
    b->pose[2] = imp_opt_number(L, idx, what, "angle", 0.0, IMP_ANY, NULL);
    imp_opt_vector(L, idx, what, "velocity", 2, b->velocity);
    b->velocity[2] = imp_opt_number(L, idx, what, "spin", 0.0, IMP_ANY, NULL);
    lua_getfield(L, idx, "previous");
    if (!lua_isnil(L, -1)) {
        double pose[7];
        imp_opt_pose(L, -1, what, 2, pose);
        memcpy(b->prev_pose, pose, 3 * sizeof(double));
        b->has_prev = 1;
    } else {
        memcpy(b->prev_pose, b->pose, 3 * sizeof(double));
    }
    lua_pop(L, 1);
}

static void set_index(lua_State *L, const char *key, int i)
{
    if (i >= 0) {
        lua_pushinteger(L, i + 1);
        lua_setfield(L, -2, key);
    }
}

/* shape2d_detect(body_a, body_b, opts): list of result tables */
static int l_detect(lua_State *L)
{
    static const char *const keys[] = {"distance_tol", "velocity_tol", NULL};
    static const char *const kinds[] = {"collision", "contact", "imminent"};
    static const char *const types[] = {"vertex_edge", "edge_edge", "vertex_vertex"};
    const char *what = "impact.shape2d.detect";
    imp_body2d a, b;
    check_body(L, 1, what, &a, 1);
    check_body(L, 2, what, &b, 2);
    imp_opt_check_keys(L, 3, what, keys);
    imp_detect2d_params p = {0.0, 0.0, 0, 0};
    p.distance_tol = imp_opt_number(L, 3, what, "distance_tol", 0.01, IMP_POSITIVE, NULL);
    p.velocity_tol = imp_opt_number(L, 3, what, "velocity_tol", 0.5, IMP_NONNEGATIVE, NULL);
    int n = imp_collide2d_detect(&a, &b, &p, NULL, 0);
    imp_hit2d *hits = lua_newuserdatauv(L, (size_t)(n > 0 ? n : 1) * sizeof *hits, 0);
    n = imp_collide2d_detect(&a, &b, &p, hits, n);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        const imp_hit2d *h = &hits[i];
        lua_createtable(L, 0, 18);
        lua_pushstring(L, kinds[h->kind]);
        lua_setfield(L, -2, "kind");
        lua_pushstring(L, types[h->type]);
        lua_setfield(L, -2, "type");
        lua_pushinteger(L, h->body);
        lua_setfield(L, -2, "body");
        lua_pushinteger(L, h->normal_body);
        lua_setfield(L, -2, "normal_body");
        set_index(L, "vertex", h->vertex);
        set_index(L, "edge", h->edge);
        set_index(L, "normal_edge", h->normal_edge);
        set_index(L, "normal_vertex", h->normal_vertex);
        lua_pushboolean(L, h->decorated);
        lua_setfield(L, -2, "decorated");
        lua_pushboolean(L, h->swept);
        lua_setfield(L, -2, "swept");
        imp_push_vector(L, h->point, 2);
        lua_setfield(L, -2, "point");
        imp_push_vector(L, h->point_primary, 2);
        lua_setfield(L, -2, "point_primary");
        imp_push_vector(L, h->normal, 2);
        lua_setfield(L, -2, "normal");
        imp_lua_set_number(L, "distance", h->distance);
        imp_lua_set_number(L, "normal_velocity", h->normal_velocity);
        imp_lua_set_number(L, "curvature", h->curvature);
        imp_lua_set_number(L, "normal_curvature", h->normal_curvature);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* core.shape2d_recentred(shape, x, y): a copy of the 2D shape whose reference point (a body's
   centre of mass) is (x, y) in its coordinates (World:add_body's center_of_mass) */
int imp_lua_shape2d_recentred(lua_State *L)
{
    const char *what = "World:add_body";
    imp_shape *s = imp_lua_test_shape(L, 1);
    if (s == NULL || s->dim != 2) {
        return imp_error(L, what, "option 'center_of_mass' needs a 2D shape, got %s",
                         imp_describe(L, 1));
    }
    double x = luaL_checknumber(L, 2), y = luaL_checknumber(L, 3);
    imp_poly2d_error err = {0, ""};
    imp_shape *moved = imp_shape2d_recentred(s, x, y, &err);
    if (moved == NULL) {
        if (err.status == IMP_POLY_NO_MEMORY) {
            imp_raise(L, "%s: out of memory building a shape", what);
        }
        return imp_error(L, what, "option 'center_of_mass': %s", err.message);
    }
    imp_lua_push_shape(L, moved);
    return 1;
}

void imp_lua_open_shape2d(lua_State *L)
{
    static const luaL_Reg fns[] = {{"shape2d_ball", l_ball},
                                   {"shape2d_block", l_block},
                                   {"shape2d_ngon", l_ngon},
                                   {"shape2d_rounded_block", l_rounded_block},
                                   {"shape2d_frame", l_frame},
                                   {"shape2d_convex_top_block", l_convex_top_block},
                                   {"shape2d_concave_top_block", l_concave_top_block},
                                   {"shape2d_polygon", l_polygon},
                                   {"shape2d_recentred", imp_lua_shape2d_recentred},
                                   {"shape2d_edges", l_edges},
                                   {"shape2d_vertices", l_vertices},
                                   {"shape2d_edge_distance", l_edge_distance},
                                   {"shape2d_contains", l_contains},
                                   {"shape2d_to_world", l_to_world},
                                   {"shape2d_to_body", l_to_body},
                                   {"shape2d_distance", l_distance},
                                   {"shape2d_detect", l_detect},
                                   {NULL, NULL}};
    luaL_setfuncs(L, fns, 0);
}
