/* lua_polyhedron.c: convex polyhedra from Lua: the validated constructor, their faces, and the
   volumetric intersection and contact of two posed polyhedra (polyhedron.h,
   polytope_intersect.h, contact_polyhedral.h). */
#include "lua_polyhedron.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact_polyhedral.h"
#include "contact_sparsify.h"
#include "lua_util.h"
#include "polyhedron.h"
#include "shape3d.h"

#define WORK_MT "impact.PolyWork"

/* a 1-based index list {i, j, k, ...} at the top of the stack, into out (0-based) */
static int read_face(lua_State *L, const char *what, int f, int nv, int *out, int cap)
{
    lua_Integer n = luaL_len(L, -1);
    if (n < 3 || n > cap) {
        imp_error(L, what, "faces[%d] must list from 3 to %d vertex indices, got %I", f, cap, (LUAI_UACINT)n);
    }
    for (lua_Integer k = 1; k <= n; k++) {
        lua_geti(L, -1, k);
        int ok;
        lua_Integer i = lua_tointegerx(L, -1, &ok);
        if (!ok || i < 1 || i > nv) {
            imp_error(L, what, "faces[%d][%I] must be a vertex index from 1 to %d, got %s", f, (LUAI_UACINT)k, nv,
                      imp_describe(L, -1));
        }
        out[k - 1] = (int)(i - 1);
        lua_pop(L, 1);
    }
    return (int)n;
}

/* polyhedron{vertices = {{x, y, z}, ...}, faces = {{i, j, k, ...}, ...}, surfaces = {...}} or
   polyhedron{points = {...}} (their convex hull) */
static int l_polyhedron(lua_State *L)
{
    static const char *const keys[] = {"vertices", "faces", "surfaces", "points", NULL};
    const char *what = "impact.shape3d.polyhedron";
    luaL_checktype(L, 1, LUA_TTABLE);
    imp_opt_check_keys(L, 1, what, keys);
    int has_points = lua_getfield(L, 1, "points") != LUA_TNIL;
    lua_pop(L, 1);
    const char *vkey = has_points ? "points" : "vertices";
    if (has_points) {
        lua_getfield(L, 1, "vertices");
        lua_getfield(L, 1, "faces");
        if (!lua_isnil(L, -1) || !lua_isnil(L, -2)) {
            imp_error(L, what, "give either 'points' (a convex hull) or 'vertices' and 'faces', not both");
        }
        lua_pop(L, 2);
    }
    if (lua_getfield(L, 1, vkey) != LUA_TTABLE) {
        imp_error(L, what, "option '%s' must be an array of at least 4 points {x, y, z}, got %s", vkey,
                  imp_describe(L, -1));
    }
    lua_Integer nv = luaL_len(L, -1);
    if (nv < 4 || nv > 100000) {
        imp_error(L, what, "option '%s' must hold from 4 to 100000 points, got %I", vkey, (LUAI_UACINT)nv);
    }
    double *v = lua_newuserdatauv(L, (size_t)nv * 3 * sizeof(double), 0); /* freed by the GC */
    for (lua_Integer i = 0; i < nv; i++) {
        lua_geti(L, -2, i + 1);
        lua_pushfstring(L, "%s[%I]", vkey, (LUAI_UACINT)(i + 1));
        imp_to_vector(L, -2, what, lua_tostring(L, -1), 3, v + 3 * i);
        lua_pop(L, 2);
    }
    if (has_points) {
        int st;
        imp_shape *s = imp_shape3d_convex(v, (int)nv, 0.0, &st);
        if (s == NULL && st == IMP_S3_EFLAT) {
            imp_error(L, what, "the points span no volume (they are coincident, collinear or coplanar)");
        } else if (s == NULL && st != IMP_S3_ENOMEM) {
            imp_error(L, what, "the points must be finite");
        }
        if (s != NULL && imp_polyhedron_faces(s) == NULL) {
            imp_shape_release(s);
            s = NULL;
        }
        imp_lua_push_solid_shape(L, s, what, "option 'points'");
        return 1;
    }
    if (lua_getfield(L, 1, "faces") != LUA_TTABLE) {
        imp_error(L, what, "option 'faces' must be an array of faces {i, j, k, ...} (1-based vertex indices, "
                           "counter-clockwise seen from outside), got %s",
                  imp_describe(L, -1));
    }
    lua_Integer nf = luaL_len(L, -1);
    if (nf < 4 || nf > 100000) {
        imp_error(L, what, "option 'faces' must hold from 4 to 100000 faces, got %I", (LUAI_UACINT)nf);
    }
    lua_Integer total = 0;
    for (lua_Integer f = 1; f <= nf; f++) {
        if (lua_geti(L, -1, f) != LUA_TTABLE) {
            imp_error(L, what, "faces[%I] must be an array of vertex indices, got %s", (LUAI_UACINT)f,
                      imp_describe(L, -1));
        }
        total += luaL_len(L, -1);
        lua_pop(L, 1);
    }
    if (total > 1000000) {
        imp_error(L, what, "option 'faces' lists too many indices (%I)", (LUAI_UACINT)total);
    }
    int *sizes = lua_newuserdatauv(L, (size_t)nf * sizeof(int), 0);
    int *idx = lua_newuserdatauv(L, (size_t)(total > 0 ? total : 1) * sizeof(int), 0);
    int *surf = NULL;
    int at = 0;
    for (lua_Integer f = 1; f <= nf; f++) {
        lua_geti(L, -3, f);
        sizes[f - 1] = read_face(L, what, (int)f, (int)nv, idx + at, (int)(total - at));
        at += sizes[f - 1];
        lua_pop(L, 1);
    }
    if (lua_getfield(L, 1, "surfaces") != LUA_TNIL) {
        if (!lua_istable(L, -1) || luaL_len(L, -1) != nf) {
            imp_error(L, what, "option 'surfaces' must be an array of one integer id per face (%I), got %s",
                      (LUAI_UACINT)nf, imp_describe(L, -1));
        }
        surf = lua_newuserdatauv(L, (size_t)nf * sizeof(int), 0);
        for (lua_Integer f = 1; f <= nf; f++) {
            lua_geti(L, -2, f);
            int ok;
            lua_Integer id = lua_tointegerx(L, -1, &ok);
            if (!ok || id < -2147483647 || id > 2147483647) {
                imp_error(L, what, "surfaces[%I] must be an integer, got %s", (LUAI_UACINT)f, imp_describe(L, -1));
            }
            surf[f - 1] = (int)id;
            lua_pop(L, 1);
        }
    }
    char msg[256];
    int st;
    imp_shape *s = imp_polyhedron_new(v, (int)nv, sizes, idx, (int)nf, surf, &st, msg, sizeof msg);
    if (s == NULL && st == IMP_POLY_EBADARG) {
        imp_error(L, what, "%s", msg);
    }
    imp_lua_push_solid_shape(L, s, what, "option 'vertices'");
    return 1;
}

static imp_shape *check_poly(lua_State *L, int idx, const char *what, const char *name)
{
    imp_shape *s = imp_lua_test_shape(L, idx);
    int nv, nf;
    if (s == NULL || !imp_polytope_sizes(s, &nv, &nf)) {
        imp_error(L, what,
                  "%s must be a polyhedron (impact.shape3d.polyhedron, an unsmoothed convex hull or box), got %s",
                  name, s != NULL ? s->cls->name : imp_describe(L, idx));
    }
    return s;
}

/* faces(shape) -> {{i, j, k, ...}, ...} (1-based vertex indices into parameters().vertices),
   planes {{nx, ny, nz, d}, ...} in shape coordinates, surfaces {...} */
static int l_faces(lua_State *L)
{
    const char *what = "impact.shape3d.faces";
    imp_shape *s = check_poly(L, 1, what, "argument #1");
    const imp_polyfaces *pf = imp_polyhedron_faces(s);
    if (pf == NULL) {
        return imp_error(L, what, "argument #1 is a box: its faces are -x, +x, -y, +y, -z, +z");
    }
    lua_createtable(L, pf->nface, 0);
    lua_createtable(L, pf->nface, 0);
    lua_createtable(L, pf->nface, 0);
    for (int f = 0; f < pf->nface; f++) {
        int n = pf->first[f + 1] - pf->first[f];
        lua_createtable(L, n, 0);
        for (int k = 0; k < n; k++) {
            lua_pushinteger(L, pf->vidx[pf->first[f] + k] + 1);
            lua_rawseti(L, -2, k + 1);
        }
        lua_rawseti(L, -4, f + 1);
        imp_push_vector(L, pf->plane + 4 * f, 4);
        lua_rawseti(L, -3, f + 1);
        lua_pushinteger(L, pf->surface[f]);
        lua_rawseti(L, -2, f + 1);
    }
    return 3;
}

static int work_gc(lua_State *L)
{
    imp_poly_work *w = luaL_checkudata(L, 1, WORK_MT);
    imp_poly_work_free(w);
    return 0;
}

/* intersection(a, pose_a, b, pose_b, {epsilon = }) -> table (see shape3d.lua) */
static int l_intersection(lua_State *L)
{
    static const char *const keys[] = {"epsilon", NULL};
    static const char *const names[] = {"contact", "separated", "rejected", "bad input", "out of memory"};
    const char *what = "impact.shape3d.intersection";
    imp_shape *a = check_poly(L, 1, what, "argument #1 (shape_a)");
    imp_shape *b = check_poly(L, 3, what, "argument #3 (shape_b)");
    double pa[7], pb[7];
    luaL_checktype(L, 2, LUA_TTABLE);
    luaL_checktype(L, 4, LUA_TTABLE);
    imp_opt_pose(L, 2, what, 3, pa);
    imp_opt_pose(L, 4, what, 3, pb);
    double eps = 0.0;
    if (!lua_isnoneornil(L, 5)) {
        luaL_checktype(L, 5, LUA_TTABLE);
        imp_opt_check_keys(L, 5, what, keys);
        eps = imp_opt_number(L, 5, what, "epsilon", 0.0, IMP_POSITIVE, NULL);
    }
    lua_settop(L, 5);
    /* one workspace per Lua state (the closure's upvalue), grown to the largest pair seen and
       reused: no allocation in the query itself (the query never calls back into Lua) */
    imp_poly_work *w = lua_touserdata(L, lua_upvalueindex(1));
    imp_poly_intersection s;
    imp_poly_contact c;
    int st = imp_polyhedra_contact(a, pa, b, pb, eps, w, &s, &c);
    if (st == IMP_PC_ENOMEM) {
        return imp_raise(L, "%s: out of memory", what);
    }
    lua_createtable(L, 0, 16);
    lua_pushstring(L, names[st]);
    lua_setfield(L, -2, "status");
    lua_pushboolean(L, st == IMP_PC_CONTACT);
    lua_setfield(L, -2, "contact");
    if (st == IMP_PC_REJECTED) {
        lua_pushstring(L, s.status == IMP_PI_DEGENERATE
                              ? "no valid intersection: a sanity check failed (a vertex outside the "
                                "bodies' box, or a degenerate dual hull; treated as no contact)"
                              : "the contact failed a sanity check: its point is not within epsilon of "
                                "both bodies (treated as no contact)");
        lua_setfield(L, -2, "message");
    }
    imp_lua_set_number(L, "epsilon", s.eps);
    imp_lua_set_number(L, "distance", s.distance);
    if (s.status == IMP_PI_OK) {
        imp_lua_set_number(L, "volume", s.volume);
        imp_push_vector(L, s.centroid, 3);
        lua_setfield(L, -2, "centroid");
        lua_createtable(L, s.nvert, 0);
        for (int i = 0; i < s.nvert; i++) {
            imp_push_vector(L, s.vert + 3 * i, 3);
            lua_rawseti(L, -2, i + 1);
        }
        lua_setfield(L, -2, "vertices");
        lua_createtable(L, s.npoly, 0);
        for (int f = 0; f < s.npoly; f++) {
            int n = s.poly_first[f + 1] - s.poly_first[f];
            lua_createtable(L, n, 3);
            for (int k = 0; k < n; k++) {
                lua_pushinteger(L, s.poly_vidx[s.poly_first[f] + k] + 1);
                lua_rawseti(L, -2, k + 1);
            }
            lua_pushstring(L, s.poly_body[f] == 0 ? "a" : "b");
            lua_setfield(L, -2, "body");
            lua_pushboolean(L, s.poly_shared[f] >= 0);
            lua_setfield(L, -2, "shared");
            const imp_poly_view *v = s.poly_body[f] == 0 ? &s.a : &s.b;
            lua_pushinteger(L, v->surface[s.poly_face[f]]);
            lua_setfield(L, -2, "surface");
            imp_lua_set_number(L, "area", s.poly_area[f]);
            lua_rawseti(L, -2, f + 1);
        }
        lua_setfield(L, -2, "faces");
        lua_pushinteger(L, s.ntri);
        lua_setfield(L, -2, "triangles");
    }
    if (st == IMP_PC_CONTACT) {
        imp_push_vector(L, c.point, 3);
        lua_setfield(L, -2, "point");
        imp_push_vector(L, c.normal, 3);
        lua_setfield(L, -2, "normal");
        imp_lua_set_number(L, "area", c.area);
        imp_lua_set_number(L, "gap", c.gap);
        lua_createtable(L, 2, 0);
        lua_pushinteger(L, c.surface_a);
        lua_rawseti(L, -2, 1);
        lua_pushinteger(L, c.surface_b);
        lua_rawseti(L, -2, 2);
        lua_setfield(L, -2, "surfaces");
        lua_pushboolean(L, c.normal_fallback);
        lua_setfield(L, -2, "normal_fallback");
    }
    return 1;
}

/* adjacency given as sorted (body, lo, hi) triples */
typedef struct adj_set {
    const int *t;
    int n;
} adj_set;

static int adj_lookup(void *ud, int body, int o1, int o2)
{
    const adj_set *a = ud;
    int lo = o1 < o2 ? o1 : o2, hi = o1 < o2 ? o2 : o1;
    for (int i = 0; i < a->n; i++) { /* small lists: linear */
        if (a->t[3 * i] == body && a->t[3 * i + 1] == lo && a->t[3 * i + 2] == hi) {
            return 1;
        }
    }
    return 0;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* the index of id in the sorted ids[0..m), or -1 */
static int dense_index(const int *ids, int m, int id)
{
    const int *p = bsearch(&id, ids, (size_t)m, sizeof *ids, cmp_int);
    return p != NULL ? (int)(p - ids) : -1;
}

static int int_field(lua_State *L, int idx, int k, const char *what, const char *name, int i)
{
    lua_geti(L, idx, k);
    int ok;
    lua_Integer v = lua_tointegerx(L, -1, &ok);
    if (!ok || v < 0 || v > 2147483646) {
        imp_error(L, what, "%s[%d][%d] must be an integer >= 0, got %s", name, i, k, imp_describe(L, -1));
    }
    lua_pop(L, 1);
    return (int)v;
}

/* sparsify(contacts, {threshold = 0.01, minarea = 0, mindist = 1e-6, adjacent = {{body, o1, o2}, ...}})
   contacts[i] = {point = {x, y, z}, area = a, bodies = {b1, b2}, objects = {o1, o2}, new = true}
   -> {true/false per contact: kept} */
static int l_sparsify(lua_State *L)
{
    static const char *const keys[] = {"threshold", "minarea", "mindist", "adjacent", NULL};
    const char *what = "impact.shape3d.sparsify";
    luaL_checktype(L, 1, LUA_TTABLE);
    if (lua_isnoneornil(L, 2)) {
        lua_settop(L, 1);
        lua_newtable(L);
    }
    luaL_checktype(L, 2, LUA_TTABLE);
    imp_opt_check_keys(L, 2, what, keys);
    imp_sparsify_opts o;
    o.threshold = imp_opt_number(L, 2, what, "threshold", 0.01, IMP_UNIT, NULL);
    o.minarea = imp_opt_number(L, 2, what, "minarea", 0.0, IMP_NONNEGATIVE, NULL);
    o.mindist = imp_opt_number(L, 2, what, "mindist", 1e-6, IMP_NONNEGATIVE, NULL);
    lua_Integer n = luaL_len(L, 1);
    if (n < 0 || n > 10000000) {
        imp_error(L, what, "the number of contacts must be from 0 to 10000000, got %I", (LUAI_UACINT)n);
    }
    imp_sparse_contact *c = lua_newuserdatauv(L, (size_t)(n > 0 ? n : 1) * sizeof *c, 0);
    unsigned char *keep = lua_newuserdatauv(L, (size_t)(n > 0 ? n : 1), 0);
    int *ids = lua_newuserdatauv(L, (size_t)(n > 0 ? 2 * n : 1) * sizeof *ids, 0);
    for (lua_Integer i = 1; i <= n; i++) {
        if (lua_geti(L, 1, i) != LUA_TTABLE) {
            imp_error(L, what, "contacts[%I] must be a table, got %s", (LUAI_UACINT)i, imp_describe(L, -1));
        }
        int t = lua_gettop(L);
        imp_sparse_contact *ci = &c[i - 1];
        lua_getfield(L, t, "point");
        lua_pushfstring(L, "contacts[%I].point", (LUAI_UACINT)i);
        imp_to_vector(L, -2, what, lua_tostring(L, -1), 3, ci->point);
        lua_pop(L, 2);
        lua_getfield(L, t, "area");
        int ok;
        ci->area = lua_tonumberx(L, -1, &ok);
        if (!ok || !(ci->area >= 0.0) || !isfinite(ci->area)) {
            imp_error(L, what, "contacts[%I].area must be a finite number >= 0, got %s", (LUAI_UACINT)i,
                      imp_describe(L, -1));
        }
        lua_pop(L, 1);
        const char *names[2] = {"bodies", "objects"};
        for (int f = 0; f < 2; f++) {
            if (lua_getfield(L, t, names[f]) != LUA_TTABLE) {
                imp_error(L, what, "contacts[%I].%s must be a pair {i, j} of integers >= 0, got %s", (LUAI_UACINT)i,
                          names[f], imp_describe(L, -1));
            }
            int *dst = f == 0 ? ci->body : ci->object;
            for (int k = 0; k < 2; k++) {
                dst[k] = int_field(L, -1, k + 1, what, names[f], (int)i);
            }
            lua_pop(L, 1);
        }
        lua_getfield(L, t, "new");
        ci->is_new = lua_isnil(L, -1) ? 1 : lua_toboolean(L, -1);
        lua_pop(L, 2);
    }
    /* the body ids numbered densely in their order (any id up to 2^31 - 2 without a table of
       that size); the adjacency triples follow */
    int nb = 0;
    for (lua_Integer i = 0; i < n; i++) {
        ids[2 * i] = c[i].body[0];
        ids[2 * i + 1] = c[i].body[1];
    }
    if (n > 0) {
        qsort(ids, (size_t)(2 * n), sizeof *ids, cmp_int);
        for (lua_Integer i = 0; i < 2 * n; i++) {
            if (i == 0 || ids[i] != ids[nb - 1]) {
                ids[nb++] = ids[i];
            }
        }
    }
    for (lua_Integer i = 0; i < n; i++) {
        c[i].body[0] = dense_index(ids, nb, c[i].body[0]);
        c[i].body[1] = dense_index(ids, nb, c[i].body[1]);
    }
    adj_set adj = {NULL, 0};
    if (lua_getfield(L, 2, "adjacent") != LUA_TNIL) {
        if (!lua_istable(L, -1)) {
            imp_error(L, what, "option 'adjacent' must be a list of {body, object, object}, got %s", imp_describe(L, -1));
        }
        lua_Integer na = luaL_len(L, -1);
        if (na < 0 || na > 10000000) {
            imp_error(L, what, "option 'adjacent' must hold from 0 to 10000000 entries, got %I",
                      (LUAI_UACINT)na);
        }
        int *tr = lua_newuserdatauv(L, (size_t)(na > 0 ? na : 1) * 3 * sizeof(int), 0);
        for (lua_Integer i = 1; i <= na; i++) {
            if (lua_geti(L, -2, i) != LUA_TTABLE) {
                imp_error(L, what, "adjacent[%I] must be {body, object, object}, got %s", (LUAI_UACINT)i,
                          imp_describe(L, -1));
            }
            int b = int_field(L, -1, 1, what, "adjacent", (int)i), o1 = int_field(L, -1, 2, what, "adjacent", (int)i),
                o2 = int_field(L, -1, 3, what, "adjacent", (int)i);
            tr[3 * (i - 1)] = dense_index(ids, nb, b), tr[3 * (i - 1) + 1] = o1 < o2 ? o1 : o2, tr[3 * (i - 1) + 2] = o1 < o2 ? o2 : o1;
            lua_pop(L, 1);
        }
        adj.t = tr;
        adj.n = (int)na;
    }
    int st = imp_contact_sparsify(c, (int)n, nb, &o, adj_lookup, &adj, keep);
    if (st == IMP_SPARSIFY_ENOMEM) {
        return imp_raise(L, "%s: out of memory", what);
    }
    lua_createtable(L, (int)n, 0);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_pushboolean(L, keep[i - 1]);
        lua_rawseti(L, -2, i);
    }
    return 1;
}

void imp_lua_open_polyhedron(lua_State *L)
{
    static const luaL_Reg fns[] = {{"shape3d_polyhedron", l_polyhedron},
                                   {"shape3d_faces", l_faces},
                                   {"shape3d_sparsify", l_sparsify},
                                   {NULL, NULL}};
    if (luaL_newmetatable(L, WORK_MT)) {
        lua_pushcfunction(L, work_gc);
        lua_setfield(L, -2, "__gc");
    }
    lua_pop(L, 1);
    luaL_setfuncs(L, fns, 0);
    imp_poly_work *w = lua_newuserdatauv(L, sizeof *w, 0);
    memset(w, 0, sizeof *w);
    luaL_setmetatable(L, WORK_MT);
    lua_pushcclosure(L, l_intersection, 1);
    lua_setfield(L, -2, "shape3d_intersection");
}
