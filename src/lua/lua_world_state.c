/* lua_world_state.c: a world's model and data as Lua data, for World:save and impact.load
   (lua/impact/world_file.lua): the definition (its bytes, checked by imp_world_check_def when
   read back), every body slot's description, the state vector, time, step counters, the
   random generator, springs, no_collide pairs, materials and their pair table, the 2D
   engine's connectors and per-pair coefficients, the 3D engine's joints (with their warm
   starts) and per-pair coefficients.

   The strategies' caches that change the next results are kept by lua_world_state_cache.c
   (step sizes, warm starts, last points, contact episodes); the others (cached manifolds,
   broad phases) are rebuilt: World:save gives the saved world the state of a world loaded
   from its file (core.world_state_swap), so both continue from the same state, bit for bit.

   Importing is done into a new world of the same dimension and strategy whose body slots the
   caller (world_file.lua) has filled: a body with its shape in each slot active in the file,
   freed slots left free. */
#include <stddef.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine2d_edge_range.h"
#include "engine2d_path_joint.h"
#include "engine3d.h"
#include "engine3d_joints_rows.h"
#include "filter.h"
#include "lua_world.h"
#include "islands.h"
#include "lua_world_state.h"

#define WHAT "impact.load"

/* ---- writing ---------------------------------------------------------------------------- */

static void set_mat3(lua_State *L, const char *k, const imp_mat3 *m)
{
    double v[9];
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            v[3 * i + j] = m->m[i][j];
        }
    }
    imp_lua_set_vector(L, k, v, 9);
}

static void export_bodies(lua_State *L, const imp_world *w)
{
    lua_createtable(L, w->model.nslots, 0);
    for (int i = 1; i < w->model.nslots; i++) {
        const imp_body *b = &w->model.bodies[i];
        lua_createtable(L, 0, 24);
        imp_lua_set_integer(L, "active", b->active);
        imp_lua_set_integer(L, "generation", b->generation);
        if (b->active) {
            imp_lua_set_integer(L, "fixed", b->fixed);
            imp_lua_set_integer(L, "kinematic", b->kinematic);
            imp_lua_set_number(L, "mass", b->mass);
            imp_lua_set_number(L, "inv_mass", b->inv_mass);
            set_mat3(L, "inertia", &b->inertia);
            set_mat3(L, "inv_inertia", &b->inv_inertia);
            imp_lua_set_vector(L, "force", b->force, 3);
            imp_lua_set_vector(L, "torque", b->torque, 3);
            double damping[2] = {b->linear_damping, b->angular_damping};
            imp_lua_set_vector(L, "damping", damping, 2);
            imp_lua_set_integer(L, "material", b->material);
            imp_lua_set_integer(L, "collide", b->collide);
            imp_lua_set_number(L, "elasticity", b->elasticity);
            imp_lua_set_number(L, "friction", b->friction);
            imp_lua_set_integer(L, "has_target", b->has_target);
            imp_lua_set_vector(L, "target", b->target, 7);
            imp_lua_set_integer(L, "category", b->category);
            imp_lua_set_integer(L, "mask", b->mask);
            imp_lua_set_integer(L, "group", b->group);
            imp_lua_set_integer(L, "no_sleep", b->no_sleep);
            if (w->model.def.sleep) {  /* islands.h: asleep (its island's name), rest, asked */
                int island, asked;
                double rest;
                imp_islands_slot_state(w, i, &island, &rest, &asked);
                imp_lua_set_integer(L, "island", island);
                imp_lua_set_number(L, "rest", rest);
                imp_lua_set_integer(L, "asked", asked);
            }
            /* per-body fields other features add (sleeping: a body's sleep state) go here, in
               import_bodies below and in body_keys of lua/impact/world_file_check.lua */
        }
        lua_rawseti(L, -2, i);
    }
    lua_setfield(L, -2, "bodies");
    /* freed slots past the last body keep their generations too (stale handles stay stale) */
    lua_newtable(L);
    int k = 0;
    for (int i = w->model.nslots; i < w->model.capacity; i++) {
        if (w->model.bodies[i].generation != 0) {
            lua_Integer pair[2] = {i, w->model.bodies[i].generation};
            lua_createtable(L, 2, 0);
            for (int j = 0; j < 2; j++) {
                lua_pushinteger(L, pair[j]);
                lua_rawseti(L, -2, j + 1);
            }
            lua_rawseti(L, -2, ++k);
        }
    }
    lua_setfield(L, -2, "trailing");
}

static void export_springs(lua_State *L, const imp_world *w)
{
    lua_createtable(L, w->model.nsprings, 0);
    for (int i = 0; i < w->model.nsprings; i++) {
        const imp_spring *s = &w->model.springs[i];
        lua_createtable(L, 0, 12);
        imp_lua_set_integer(L, "active", s->active);
        imp_lua_set_integer(L, "generation", s->generation);
        imp_lua_set_integer(L, "body1", s->def.body1.slot);
        imp_lua_set_integer(L, "gen1", s->def.body1.generation);
        imp_lua_set_integer(L, "body2", s->def.body2.slot);
        imp_lua_set_integer(L, "gen2", s->def.body2.generation);
        imp_lua_set_vector(L, "point1", s->def.point1, 3);
        imp_lua_set_vector(L, "point2", s->def.point2, 3);
        imp_lua_set_number(L, "rest_length", s->def.rest_length);
        imp_lua_set_number(L, "stiffness", s->def.stiffness);
        imp_lua_set_number(L, "damping", s->def.damping);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "springs");
}

/* the loads (loads.c): only when there are any, so files of worlds without stay as they were */
static void export_loads(lua_State *L, const imp_world *w)
{
    if (w->model.nloads == 0) {
        return;
    }
    lua_createtable(L, w->model.nloads, 0);
    for (int i = 0; i < w->model.nloads; i++) {
        const imp_load *l = &w->model.loads[i];
        if (l->active && l->def.timed) {
            imp_raise(L, "World:save: load #%d has a function of time, which cannot be saved "
                      "(give it a value, or remove it, before saving)", i + 1);
        }
        lua_createtable(L, 0, 8);
        imp_lua_set_integer(L, "active", l->active);
        imp_lua_set_integer(L, "generation", l->generation);
        imp_lua_set_integer(L, "body", l->def.body.slot);
        imp_lua_set_integer(L, "gen", l->def.body.generation);
        imp_lua_set_vector(L, "force", l->def.force, 3);
        imp_lua_set_vector(L, "torque", l->def.torque, 3);
        imp_lua_set_vector(L, "point", l->def.point, 3);
        imp_lua_set_integer(L, "body_frame", l->def.body_frame);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "loads");
}

static void export_materials(lua_State *L, const imp_world *w)
{
    const imp_material_table *t = &w->model.materials;
    lua_createtable(L, t->n, 0);
    for (int i = 0; i < t->n; i++) {
        lua_createtable(L, 0, 4);
        lua_pushstring(L, t->items[i].name);
        lua_setfield(L, -2, "name");
        imp_lua_set_number(L, "E", t->items[i].E);
        imp_lua_set_number(L, "nu", t->items[i].nu);
        imp_lua_set_number(L, "density", t->items[i].density);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "materials");
    lua_createtable(L, t->n * t->n, 0);
    for (int i = 0; i < t->n; i++) {
        for (int j = 0; j < t->n; j++) {
            const imp_pair_material *p = &t->pairs[(size_t)i * (size_t)t->cap + (size_t)j];
            double v[6] = {p->defined, p->cor, p->mu_k, p->mu_r, p->vsmall, p->wsmall};
            imp_push_vector(L, v, 6);
            lua_rawseti(L, -2, i * t->n + j + 1);
        }
    }
    lua_setfield(L, -2, "material_pairs");
}

static void export_engine2d(lua_State *L, const imp_world *w)
{
    const imp_engine2d *e = w->engine2d;
    lua_createtable(L, 0, 3);
    imp_lua_set_integer(L, "conn_version", e->conn_version);
    imp_lua_set_integer(L, "joints_new", e->joints_new);
    lua_createtable(L, e->nconn, 0);
    for (int i = 0; i < e->nconn; i++) {
        const imp_connector2d *c = &e->conn[i];
        lua_createtable(L, 0, 12);
        imp_lua_set_integer(L, "kind", c->kind);
        imp_lua_set_integer(L, "active", c->active);
        imp_lua_set_integer(L, "generation", c->generation);
        imp_lua_set_integer(L, "body1", c->body1);
        imp_lua_set_integer(L, "body2", c->body2);
        imp_lua_set_integer(L, "gen1", c->gen1);
        imp_lua_set_integer(L, "gen2", c->gen2);
        imp_lua_set_vector(L, "point1", c->point1, 2);
        imp_lua_set_vector(L, "point2", c->point2, 2);
        imp_lua_set_integer(L, "both", c->both);
        imp_lua_set_vector(L, "normal", c->normal, 2);
        if (c->body_frame) {
            imp_lua_set_integer(L, "body_frame", 1);
        }
        imp_lua_set_number(L, "length", c->length);
        if (c->kind == IMP_PATH || c->kind == IMP_PATH_END) {
            imp_lua_set_integer(L, "path", c->path);
            imp_lua_set_number(L, "limit", c->limit);
            imp_lua_set_integer(L, "upper", c->upper);
            if (c->has_near) {  /* (conventions = "myphysicslab": its search's last point) */
                imp_lua_set_integer(L, "near_k", c->near_k);
                imp_lua_set_number(L, "near_p", c->near_p);
            }
        }
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "connectors");
    if (e->npaths > 0) {  /* (absent when there is none) the paths' points: their tables are
                             made again from them, the same bit for bit */
        lua_createtable(L, e->npaths, 0);
        for (int i = 0; i < e->npaths; i++) {
            const imp_path2d *g = &e->paths[i];
            lua_createtable(L, 0, 3);
            imp_lua_set_integer(L, "closed", g->closed);
            imp_lua_set_vector(L, "x", g->x, g->n);
            imp_lua_set_vector(L, "y", g->y, g->n);
            lua_rawseti(L, -2, i + 1);
        }
        lua_setfield(L, -2, "paths");
    }
    lua_createtable(L, e->npairs, 0);
    for (int i = 0; i < e->npairs; i++) {
        const imp_pair2d *p = &e->pairs[i];
        lua_createtable(L, 0, 6);
        imp_lua_set_integer(L, "lo", (lua_Integer)(p->key >> 32));
        imp_lua_set_integer(L, "hi", (lua_Integer)(p->key & 0xFFFFFFFFull));
        imp_lua_set_integer(L, "gen_lo", p->gen_lo);
        imp_lua_set_integer(L, "gen_hi", p->gen_hi);
        imp_lua_set_number(L, "friction", p->friction);
        imp_lua_set_number(L, "elasticity", p->elasticity);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "pairs");
    if (e->nranges > 0) {  /* (absent when there is none: the files of before are unchanged) */
        lua_createtable(L, e->nranges, 0);
        for (int i = 0; i < e->nranges; i++) {
            const imp_edge_range2d *r = &e->ranges[i];
            lua_createtable(L, 0, 6);
            imp_lua_set_integer(L, "body", r->body);
            imp_lua_set_integer(L, "other", r->other);
            imp_lua_set_integer(L, "gen_body", r->gen_body);
            imp_lua_set_integer(L, "gen_other", r->gen_other);
            imp_lua_set_integer(L, "first", r->first);
            imp_lua_set_integer(L, "last", r->last);
            lua_rawseti(L, -2, i + 1);
        }
        lua_setfield(L, -2, "edge_ranges");
    }
    lua_setfield(L, -2, "engine2d");
}

static void export_joint3d(lua_State *L, const imp_e3_joint *j)
{
    lua_createtable(L, 0, 32);
    imp_lua_set_integer(L, "kind", j->d.kind);
    imp_lua_set_integer(L, "body1", j->d.body1);
    imp_lua_set_integer(L, "body2", j->d.body2);
    imp_lua_set_vector(L, "point1", j->d.point1, 3);
    imp_lua_set_vector(L, "point2", j->d.point2, 3);
    imp_lua_set_vector(L, "axis", j->d.axis, 3);
    imp_lua_set_number(L, "length", j->d.length);
    imp_lua_set_integer(L, "has_limits", j->d.has_limits);
    imp_lua_set_number(L, "lo", j->d.lo);
    imp_lua_set_number(L, "hi", j->d.hi);
    imp_lua_set_integer(L, "has_motor", j->d.has_motor);
    imp_lua_set_number(L, "speed", j->d.speed);
    imp_lua_set_number(L, "max_force", j->d.max_force);
    imp_lua_set_integer(L, "s1", j->s1);
    imp_lua_set_integer(L, "s2", j->s2);
    imp_lua_set_vector(L, "p1", j->p1, 3);
    imp_lua_set_vector(L, "p2", j->p2, 3);
    imp_lua_set_vector(L, "ax1", j->ax1, 3);
    imp_lua_set_vector(L, "ax2", j->ax2, 3);
    imp_lua_set_vector(L, "b1", j->b1, 3);
    imp_lua_set_vector(L, "c1", j->c1, 3);
    imp_lua_set_vector(L, "b2", j->b2, 3);
    imp_lua_set_integer(L, "gen1", j->gen1);
    imp_lua_set_integer(L, "gen2", j->gen2);
    imp_lua_set_integer(L, "generation", j->generation);
    imp_lua_set_integer(L, "active", j->active);
    imp_lua_set_vector(L, "lambda", j->lambda, SLOTS);
    imp_lua_set_number(L, "h_last", j->h_last);
}

static void export_engine3d(lua_State *L, const imp_world *w)
{
    const imp_engine3d *e = w->engine3d;
    lua_createtable(L, 0, 2);
    int nj = e->joints != NULL ? e->joints->n : 0;
    lua_createtable(L, nj, 0);
    for (int i = 0; i < nj; i++) {
        export_joint3d(L, &e->joints->j[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "joints");
    lua_createtable(L, e->npairs, 0);
    for (int i = 0; i < e->npairs; i++) {
        const imp_e3_pair_override *p = &e->pairs[i];
        lua_createtable(L, 0, 6);
        imp_lua_set_integer(L, "a", p->a);
        imp_lua_set_integer(L, "b", p->b);
        imp_lua_set_integer(L, "gen_a", p->gen_a);
        imp_lua_set_integer(L, "gen_b", p->gen_b);
        imp_lua_set_number(L, "friction", p->friction);
        imp_lua_set_number(L, "elasticity", p->elasticity);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "pairs");
    lua_setfield(L, -2, "engine3d");
}

/* the sizes of the structs whose bytes a file holds (lua_world_state_cache.c too), and
   where a 3D point's frame and anchors are (its fields were reordered at the same size): a
   file of another build's layout is refused */
static int little_endian(void)
{
    const unsigned one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 1;
}

static const char *layout(char *buf, size_t n)
{
    snprintf(buf, n, "def %d, e2stats %d, touch2d %d, e3point %d/%d/%d, e3stats %d, centry %d, "
             "cstats %d, %s-endian", (int)sizeof(imp_world_def), (int)sizeof(imp_engine2d_stats),
             (int)sizeof(imp_touch2d), (int)sizeof(imp_e3_point), (int)offsetof(imp_e3_point, normal),
             (int)offsetof(imp_e3_point, ra), (int)sizeof(imp_engine3d_stats),
             (int)sizeof(imp_centry), (int)sizeof(imp_compliant_stats),
             little_endian() ? "little" : "big");
    return buf;
}

/* core.world_state_export(w) */
static int l_export(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    imp_world_sync(w);
    lua_createtable(L, 0, 24);
    imp_lua_set_integer(L, "dim", w->model.def.dim);
    lua_pushstring(L, imp_strategy_names[w->model.def.strategy]);
    lua_setfield(L, -2, "strategy");
    imp_lua_set_hex(L, "def", &w->model.def, sizeof w->model.def);
    char buf[160];
    lua_pushstring(L, layout(buf, sizeof buf));
    lua_setfield(L, -2, "layout");
    imp_lua_set_integer(L, "nslots", w->model.nslots);
    imp_lua_set_number(L, "time", w->data.time);
    imp_lua_set_number(L, "time_base", w->data.time_base);
    imp_lua_set_integer(L, "steps_since_base", w->data.steps_since_base);
    lua_createtable(L, 4, 0);
    for (int i = 0; i < 4; i++) {
        lua_pushinteger(L, (lua_Integer)w->data.rng.s[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "rng");
    imp_lua_set_integer(L, "lcg", (lua_Integer)w->data.lcg.x);  /* myPhysicsLab's generator */
    double stats[5] = {(double)w->data.stats.steps, (double)w->data.stats.substeps,
                       (double)w->data.stats.rejected, (double)w->data.stats.rhs_evaluations,
                       (double)w->data.stats.failures};
    lua_createtable(L, 5, 0);
    for (int i = 0; i < 5; i++) {
        lua_pushinteger(L, (lua_Integer)stats[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "stats");
    imp_lua_set_vector(L, "y", w->data.y, w->model.nslots * w->model.stride);
    export_bodies(L, w);
    imp_lua_set_integer(L, "islands", imp_islands_count(w));
    export_springs(L, w);
    export_loads(L, w);
    lua_createtable(L, w->model.nno_collide, 0);
    for (int i = 0; i < w->model.nno_collide; i++) {
        lua_pushinteger(L, (lua_Integer)w->model.no_collide[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "no_collide");
    export_materials(L, w);
    if (w->engine2d != NULL) {
        export_engine2d(L, w);
    }
    if (w->engine3d != NULL) {
        export_engine3d(L, w);
    }
    imp_lua_state_export_caches(L, w);
    return 1;
}

/* ---- reading ---------------------------------------------------------------------------- */

/* the numbers of the list at key of the table at idx (exactly n of them) into out */
static void get_vec(lua_State *L, int idx, const char *where, const char *key, int n, double *out)
{
    lua_getfield(L, idx, key);
    if (!lua_istable(L, -1) || luaL_len(L, -1) != n) {
        imp_raise(L, "%s: %s.%s must be a list of %d numbers", WHAT, where, key, n);
    }
    for (int i = 0; i < n; i++) {
        lua_geti(L, -1, i + 1);
        int ok;
        out[i] = lua_tonumberx(L, -1, &ok);
        if (!ok) {
            imp_raise(L, "%s: %s.%s[%d] must be a number", WHAT, where, key, i + 1);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

static double get_num(lua_State *L, int idx, const char *where, const char *key)
{
    lua_getfield(L, idx, key);
    int ok;
    double v = lua_tonumberx(L, -1, &ok);
    if (!ok) {
        imp_raise(L, "%s: %s.%s must be a number", WHAT, where, key);
    }
    lua_pop(L, 1);
    return v;
}

static lua_Integer get_int(lua_State *L, int idx, const char *where, const char *key, lua_Integer lo,
                           lua_Integer hi)
{
    lua_getfield(L, idx, key);
    int ok;
    lua_Integer v = lua_tointegerx(L, -1, &ok);
    if (!ok || v < lo || v > hi) {
        imp_raise(L, "%s: %s.%s must be an integer in [%I, %I]", WHAT, where, key, (LUAI_UACINT)lo,
                  (LUAI_UACINT)hi);
    }
    lua_pop(L, 1);
    return v;
}

static void get_mat3(lua_State *L, int idx, const char *where, const char *key, imp_mat3 *m)
{
    double v[9];
    get_vec(L, idx, where, key, 9, v);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            m->m[i][j] = v[3 * i + j];
        }
    }
}

/* the list at key of the table at idx pushed; its length */
static lua_Integer push_list(lua_State *L, int idx, const char *key)
{
    lua_getfield(L, idx, key);
    if (!lua_istable(L, -1)) {
        imp_raise(L, "%s: %s must be a list", WHAT, key);
    }
    return luaL_len(L, -1);
}

static void import_def(lua_State *L, imp_world *w, int t)
{
    lua_getfield(L, t, "def");
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    imp_world_def def;
    if (s == NULL || len != 2 * sizeof def) {
        imp_raise(L, "%s: def must be a string of %d hexadecimal digits (this build's world "
                  "definition)", WHAT, (int)(2 * sizeof def));
    }
    unsigned char *c = (unsigned char *)&def;
    for (size_t i = 0; i < sizeof def; i++) {
        int hi = imp_lua_hex_value(s[2 * i]), lo = imp_lua_hex_value(s[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            imp_raise(L, "%s: def holds a character that is not a hexadecimal digit at %d", WHAT,
                      (int)(2 * i + 1));
        }
        c[i] = (unsigned char)(hi * 16 + lo);
    }
    lua_pop(L, 1);
    char why[256];
    if (def.dim != w->model.def.dim || def.strategy != w->model.def.strategy) {
        imp_raise(L, "%s: def does not match the file's dim and strategy", WHAT);
    }
    if (imp_world_check_def(&def, why, sizeof why) != IMP_OK) {
        imp_raise(L, "%s: def: %s", WHAT, why);
    }
    w->model.def = def;
}

static void import_bodies(lua_State *L, imp_world *w, int t)
{
    lua_Integer n = push_list(L, t, "bodies");
    int list = lua_gettop(L);
    if (n != w->model.nslots - 1) {
        imp_raise(L, "%s: bodies must hold %d slots, got %d", WHAT, w->model.nslots - 1, (int)n);
    }
    char where[48];
    int nkin = 0;
    for (int i = 1; i < w->model.nslots; i++) {
        snprintf(where, sizeof where, "bodies[%d]", i);
        lua_rawgeti(L, list, i);
        int e = lua_gettop(L);
        if (!lua_istable(L, e)) {
            imp_raise(L, "%s: %s must be a table", WHAT, where);
        }
        imp_body *b = &w->model.bodies[i];
        int active = (int)get_int(L, e, where, "active", 0, 1);
        if (active != b->active) {
            imp_raise(L, "%s: %s: the slot's use does not match the bodies built", WHAT, where);
        }
        b->generation = (unsigned)get_int(L, e, where, "generation", 0, UINT32_MAX);
        if (active) {
            /* the Body userdata the caller made names the slot by its new generation */
            lua_getiuservalue(L, 1, WORLD_UV_BODIES);
            lua_rawgeti(L, -1, i);
            body_ud *bu = luaL_testudata(L, -1, IMP_BODY_MT);
            if (bu == NULL) {
                imp_raise(L, "%s: %s: no body was built in the slot", WHAT, where);
                return;
            }
            bu->id.generation = b->generation;
            lua_settop(L, e);
            b->fixed = (int)get_int(L, e, where, "fixed", 0, 1);
            b->kinematic = (int)get_int(L, e, where, "kinematic", 0, 1);
            b->mass = get_num(L, e, where, "mass");
            b->inv_mass = get_num(L, e, where, "inv_mass");
            get_mat3(L, e, where, "inertia", &b->inertia);
            get_mat3(L, e, where, "inv_inertia", &b->inv_inertia);
            get_vec(L, e, where, "force", 3, b->force);
            get_vec(L, e, where, "torque", 3, b->torque);
            w->data.applied = 1;  /* (the file's held forces, cleared after the next step) */
            double damping[2];
            get_vec(L, e, where, "damping", 2, damping);
            b->linear_damping = damping[0];
            b->angular_damping = damping[1];
            b->material = (int)get_int(L, e, where, "material", -1, w->model.materials.n - 1);
            b->collide = (int)get_int(L, e, where, "collide", 0, 1);
            b->elasticity = get_num(L, e, where, "elasticity");
            b->friction = get_num(L, e, where, "friction");
            b->has_target = (int)get_int(L, e, where, "has_target", 0, 1);
            get_vec(L, e, where, "target", 7, b->target);
            b->category = (unsigned)get_int(L, e, where, "category", 0, IMP_FILTER_BITS);
            b->mask = (unsigned)get_int(L, e, where, "mask", 0, IMP_FILTER_BITS);
            b->group = (int)get_int(L, e, where, "group", IMP_FILTER_GROUP_MIN, IMP_FILTER_GROUP_MAX);
            b->no_sleep = (int)get_int(L, e, where, "no_sleep", 0, 1);
            if (w->model.def.sleep) {
                int island = (int)get_int(L, e, where, "island", -1, w->model.nslots - 1);
                double rest = get_num(L, e, where, "rest");
                int asked = (int)get_int(L, e, where, "asked", 0, 1);
                if (imp_islands_restore_slot(w, i, island, rest, asked) != IMP_OK) {
                    imp_raise(L, "%s: %s: its sleep state cannot be restored", WHAT, where);
                }
            }
            nkin += b->kinematic;
        }
        lua_settop(L, list);
    }
    lua_pop(L, 1);
    lua_Integer nt = push_list(L, t, "trailing");
    for (lua_Integer k = 1; k <= nt; k++) {
        lua_rawgeti(L, -1, k);
        int e = lua_gettop(L);
        if (!lua_istable(L, e)) {
            imp_raise(L, "%s: trailing[%d] must be a list {slot, generation}", WHAT, (int)k);
        }
        lua_rawgeti(L, e, 1);
        lua_rawgeti(L, e, 2);
        int ok1, ok2;
        lua_Integer slot = lua_tointegerx(L, -2, &ok1), gen = lua_tointegerx(L, -1, &ok2);
        if (!ok1 || !ok2 || slot < w->model.nslots || slot >= w->model.capacity || gen < 0
            || gen > UINT32_MAX) {
            imp_raise(L, "%s: trailing[%d] must name a freed slot past the last body (%d to %d) "
                      "and its generation", WHAT, (int)k, w->model.nslots, w->model.capacity - 1);
        }
        w->model.bodies[slot].generation = (unsigned)gen;
        lua_settop(L, e - 1);
    }
    lua_pop(L, 1);
    w->model.nkinematic = nkin;
    w->model.bodies_version++;
    w->model.filter_version++;
}

static void import_springs(lua_State *L, imp_world *w, int t, int widx)
{
    lua_Integer n = push_list(L, t, "springs");
    int list = lua_gettop(L);
    if (n > 1000000) {
        imp_raise(L, "%s: springs: too many (%d)", WHAT, (int)n);
    }
    if (n > w->model.spring_capacity) {
        imp_spring *s = realloc(w->model.springs, (size_t)n * sizeof *s);
        if (s == NULL) {
            imp_raise(L, "%s: out of memory", WHAT);
        }
        w->model.springs = s;
        w->model.spring_capacity = (int)n;
    }
    char where[48];
    for (int i = 0; i < n; i++) {
        snprintf(where, sizeof where, "springs[%d]", i + 1);
        lua_rawgeti(L, list, i + 1);
        int e = lua_gettop(L);
        if (!lua_istable(L, e)) {
            imp_raise(L, "%s: %s must be a table", WHAT, where);
        }
        imp_spring *s = &w->model.springs[i];
        memset(s, 0, sizeof *s);
        s->active = (int)get_int(L, e, where, "active", 0, 1);
        s->generation = (unsigned)get_int(L, e, where, "generation", 0, UINT32_MAX);
        s->def.body1.slot = (int)get_int(L, e, where, "body1", 0, w->model.nslots - 1);
        s->def.body1.generation = (unsigned)get_int(L, e, where, "gen1", 0, UINT32_MAX);
        s->def.body2.slot = (int)get_int(L, e, where, "body2", 0, w->model.nslots - 1);
        s->def.body2.generation = (unsigned)get_int(L, e, where, "gen2", 0, UINT32_MAX);
        get_vec(L, e, where, "point1", 3, s->def.point1);
        get_vec(L, e, where, "point2", 3, s->def.point2);
        s->def.rest_length = get_num(L, e, where, "rest_length");
        s->def.stiffness = get_num(L, e, where, "stiffness");
        s->def.damping = get_num(L, e, where, "damping");
        if (s->active && (imp_world_body(w, s->def.body1) == NULL || imp_world_body(w, s->def.body2) == NULL)) {
            imp_raise(L, "%s: %s joins a body that is not in the file", WHAT, where);
        }
        lua_settop(L, list);
    }
    w->model.nsprings = (int)n;
    lua_pop(L, 1);
    /* their userdata, as World:add_spring makes them */
    lua_getiuservalue(L, widx, WORLD_UV_SPRINGS);
    for (int i = 0; i < n; i++) {
        if (!w->model.springs[i].active) {
            continue;
        }
        spring_ud *u = lua_newuserdatauv(L, sizeof *u, 1);
        u->id.index = i;
        u->id.generation = w->model.springs[i].generation;
        luaL_setmetatable(L, IMP_SPRING_MT);
        lua_pushvalue(L, widx);
        lua_setiuservalue(L, -2, 1);
        lua_rawseti(L, -2, i);
    }
    lua_pop(L, 1);
}

/* the loads, when the file has any (export_loads); each body's count of them rebuilt */
static void import_loads(lua_State *L, imp_world *w, int t)
{
    lua_getfield(L, t, "loads");
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    lua_pop(L, 1);
    lua_Integer n = push_list(L, t, "loads");
    int list = lua_gettop(L);
    if (n > 1000000) {
        imp_raise(L, "%s: loads: too many (%d)", WHAT, (int)n);
    }
    if (n > w->model.load_capacity) {
        imp_load *l = realloc(w->model.loads, (size_t)n * sizeof *l);
        if (l == NULL) {
            imp_raise(L, "%s: out of memory", WHAT);
        }
        w->model.loads = l;
        w->model.load_capacity = (int)n;
    }
    char where[48];
    for (int i = 0; i < n; i++) {
        snprintf(where, sizeof where, "loads[%d]", i + 1);
        lua_rawgeti(L, list, i + 1);
        int e = lua_gettop(L);
        if (!lua_istable(L, e)) {
            imp_raise(L, "%s: %s must be a table", WHAT, where);
        }
        imp_load *l = &w->model.loads[i];
        memset(l, 0, sizeof *l);
        l->active = (int)get_int(L, e, where, "active", 0, 1);
        l->generation = (unsigned)get_int(L, e, where, "generation", 0, UINT32_MAX);
        l->def.body.slot = (int)get_int(L, e, where, "body", 0, w->model.nslots - 1);
        l->def.body.generation = (unsigned)get_int(L, e, where, "gen", 0, UINT32_MAX);
        get_vec(L, e, where, "force", 3, l->def.force);
        get_vec(L, e, where, "torque", 3, l->def.torque);
        get_vec(L, e, where, "point", 3, l->def.point);
        l->def.body_frame = (int)get_int(L, e, where, "body_frame", 0, 1);
        if (l->active && imp_world_body(w, l->def.body) == NULL) {
            imp_raise(L, "%s: %s loads a body that is not in the file", WHAT, where);
        }
        lua_settop(L, list);
    }
    w->model.nloads = (int)n;
    lua_pop(L, 1);
    for (int i = 0; i < w->model.nslots; i++) {
        w->model.bodies[i].nloads = 0;
    }
    for (int i = 0; i < w->model.nloads; i++) {
        if (w->model.loads[i].active) {
            w->model.bodies[w->model.loads[i].def.body.slot].nloads++;
        }
    }
}

static void import_materials(lua_State *L, imp_world *w, int t)
{
    imp_material_table *m = &w->model.materials;
    lua_Integer n = push_list(L, t, "materials");
    int list = lua_gettop(L);
    if (m->n != 0 || n > 10000) {
        imp_raise(L, "%s: materials: %d in the file, at most 10000 into a new world", WHAT, (int)n);
    }
    char where[48];
    for (int i = 0; i < n; i++) {
        snprintf(where, sizeof where, "materials[%d]", i + 1);
        lua_rawgeti(L, list, i + 1);
        int e = lua_gettop(L);
        if (!lua_istable(L, e)) {
            imp_raise(L, "%s: %s must be a table", WHAT, where);
        }
        /* by name from the palette, in the file's order (so the indices are the file's) */
        lua_getfield(L, e, "name");
        if (lua_type(L, -1) != LUA_TSTRING) {
            imp_raise(L, "%s: %s.name must be a string", WHAT, where);
        }
        double density;
        if (imp_lua_world_material(L, 1, lua_gettop(L), WHAT, &density) != i) {
            imp_raise(L, "%s: %s: the material %s appears twice", WHAT, where, lua_tostring(L, -1));
        }
        m->items[i].E = get_num(L, e, where, "E");
        m->items[i].nu = get_num(L, e, where, "nu");
        m->items[i].density = get_num(L, e, where, "density");
        lua_settop(L, list);
    }
    lua_pop(L, 1);
    n = push_list(L, t, "material_pairs");
    list = lua_gettop(L);
    if (n != (lua_Integer)m->n * m->n) {
        imp_raise(L, "%s: material_pairs must hold %d entries, got %d", WHAT, m->n * m->n, (int)n);
    }
    for (int i = 0; i < m->n; i++) {
        for (int j = 0; j < m->n; j++) {
            lua_rawgeti(L, list, i * m->n + j + 1);
            snprintf(where, sizeof where, "material_pairs[%d]", i * m->n + j + 1);
            lua_newtable(L);
            lua_insert(L, -2);
            lua_setfield(L, -2, "v");
            double v[6];
            get_vec(L, lua_gettop(L), where, "v", 6, v);
            imp_pair_material p = {(int)v[0], v[1], v[2], v[3], v[4], v[5]};
            m->pairs[(size_t)i * (size_t)m->cap + (size_t)j] = p;
            lua_settop(L, list);
        }
    }
    lua_pop(L, 1);
}

/* engine2d.paths (absent: none), made again from their points */
static void import_paths(lua_State *L, imp_world *w, int e2)
{
    imp_engine2d *e = w->engine2d;
    imp_engine2d_free_paths(e);
    lua_getfield(L, e2, "paths");
    int absent = lua_isnil(L, -1);
    lua_pop(L, 1);
    if (absent) {
        return;
    }
    lua_Integer n = push_list(L, e2, "paths");
    int list = lua_gettop(L);
    char where[64];
    for (int i = 0; i < n; i++) {
        snprintf(where, sizeof where, "engine2d.paths[%d]", i + 1);
        lua_rawgeti(L, list, i + 1);
        int k = lua_gettop(L);
        if (!lua_istable(L, k)) {
            imp_raise(L, "%s: %s must be a table", WHAT, where);
        }
        int closed = (int)get_int(L, k, where, "closed", 0, 1);
        lua_getfield(L, k, "x");
        lua_Integer np = lua_istable(L, -1) ? luaL_len(L, -1) : 0;
        lua_pop(L, 1);
        if (np < 3 || np > 10000000) {
            imp_raise(L, "%s: %s.x must be a list of 3 to 10000000 numbers", WHAT, where);
        }
        double *xy = lua_newuserdatauv(L, (size_t)np * 4 * sizeof *xy, 0);
        get_vec(L, k, where, "x", (int)np, xy + 2 * np);
        get_vec(L, k, where, "y", (int)np, xy + 3 * np);
        for (lua_Integer j = 0; j < np; j++) {
            xy[2 * j] = xy[2 * np + j];
            xy[2 * j + 1] = xy[3 * np + j];
        }
        char why[200];
        if (imp_engine2d_add_path(w, xy, (int)np, closed, why, sizeof why) < 0) {
            imp_raise(L, "%s: %s: %s", WHAT, where, why);
        }
        lua_settop(L, list);
    }
    lua_pop(L, 1);
}

/* engine2d.edge_ranges (absent: none) */
static void import_edge_ranges(lua_State *L, imp_world *w, int e2)
{
    imp_engine2d *e = w->engine2d;
    e->nranges = 0;
    lua_getfield(L, e2, "edge_ranges");
    int absent = lua_isnil(L, -1);
    lua_pop(L, 1);
    if (absent) {
        return;
    }
    unsigned version = e->conn_version;  /* the saved one: adding a range bumps it */
    lua_Integer n = push_list(L, e2, "edge_ranges");
    int list = lua_gettop(L);
    char where[64];
    for (int i = 0; i < n; i++) {
        snprintf(where, sizeof where, "engine2d.edge_ranges[%d]", i + 1);
        lua_rawgeti(L, list, i + 1);
        int k = lua_gettop(L);
        if (!lua_istable(L, k)) {
            imp_raise(L, "%s: %s must be a table", WHAT, where);
        }
        int body = (int)get_int(L, k, where, "body", 1, w->model.nslots - 1);
        int other = (int)get_int(L, k, where, "other", 1, w->model.nslots - 1);
        int first = (int)get_int(L, k, where, "first", 0, INT32_MAX);
        int last = (int)get_int(L, k, where, "last", first, INT32_MAX);
        if (imp_engine2d_add_edge_range(w, body, other, first, last) != 0) {
            imp_raise(L, "%s: out of memory", WHAT);
        }
        imp_edge_range2d *r = &e->ranges[e->nranges - 1];
        r->gen_body = (unsigned)get_int(L, k, where, "gen_body", 0, UINT32_MAX);
        r->gen_other = (unsigned)get_int(L, k, where, "gen_other", 0, UINT32_MAX);
        lua_settop(L, list);
    }
    e->conn_version = version;
}

static void import_engine2d(lua_State *L, imp_world *w, int t)
{
    lua_getfield(L, t, "engine2d");
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    int e2 = lua_gettop(L);
    imp_engine2d *e = imp_engine2d_get(w);
    if (e == NULL) {
        imp_raise(L, "%s: out of memory", WHAT);
        return;
    }
    import_paths(L, w, e2);
    e->conn_version = (unsigned)get_int(L, e2, "engine2d", "conn_version", 0, UINT32_MAX);
    e->joints_new = (int)get_int(L, e2, "engine2d", "joints_new", 0, 1);
    lua_Integer n = push_list(L, e2, "connectors");
    int list = lua_gettop(L);
    if (n > 1000000) {
        imp_raise(L, "%s: engine2d.connectors: too many", WHAT);
    }
    if (n > e->conn_cap) {
        imp_connector2d *c = realloc(e->conn, (size_t)n * sizeof *c);
        if (c == NULL) {
            imp_raise(L, "%s: out of memory", WHAT);
        }
        e->conn = c;
        e->conn_cap = (int)n;
    }
    char where[64];
    for (int i = 0; i < n; i++) {
        snprintf(where, sizeof where, "engine2d.connectors[%d]", i + 1);
        lua_rawgeti(L, list, i + 1);
        int k = lua_gettop(L);
        if (!lua_istable(L, k)) {
            imp_raise(L, "%s: %s must be a table", WHAT, where);
        }
        imp_connector2d *c = &e->conn[i];
        memset(c, 0, sizeof *c);
        c->kind = (imp_connector_kind)get_int(L, k, where, "kind", 0, IMP_PATH_END);
        c->active = (int)get_int(L, k, where, "active", 0, 1);
        c->generation = (unsigned)get_int(L, k, where, "generation", 0, UINT32_MAX);
        c->body1 = (int)get_int(L, k, where, "body1", 0, w->model.nslots - 1);
        c->body2 = (int)get_int(L, k, where, "body2", 0, w->model.nslots - 1);
        c->gen1 = (unsigned)get_int(L, k, where, "gen1", 0, UINT32_MAX);
        c->gen2 = (unsigned)get_int(L, k, where, "gen2", 0, UINT32_MAX);
        get_vec(L, k, where, "point1", 2, c->point1);
        get_vec(L, k, where, "point2", 2, c->point2);
        c->both = (int)get_int(L, k, where, "both", 0, 1);
        get_vec(L, k, where, "normal", 2, c->normal);
        lua_getfield(L, k, "body_frame");  /* (absent in files from before the option) */
        int has_frame = !lua_isnil(L, -1);
        lua_pop(L, 1);
        c->body_frame = has_frame ? (int)get_int(L, k, where, "body_frame", 0, 1) : 0;
        c->length = get_num(L, k, where, "length");
        if (c->kind == IMP_PATH || c->kind == IMP_PATH_END) {
            c->path = (int)get_int(L, k, where, "path", 0, e->npaths - 1);
            c->limit = get_num(L, k, where, "limit");
            c->upper = (int)get_int(L, k, where, "upper", 0, 1);
            lua_getfield(L, k, "near_k");  /* (absent: no search made yet, or impact's rule) */
            c->has_near = !lua_isnil(L, -1);
            lua_pop(L, 1);
            if (c->has_near) {
                const imp_path2d *g = &e->paths[c->path];
                c->near_k = (int)get_int(L, k, where, "near_k", -1, g->n + g->closed);
                c->near_p = get_num(L, k, where, "near_p");
            }
        }
        lua_settop(L, list);
    }
    e->nconn = (int)n;
    e->exclude_dirty = 1;
    lua_pop(L, 1);
    n = push_list(L, e2, "pairs");
    list = lua_gettop(L);
    for (int i = 0; i < n; i++) {
        snprintf(where, sizeof where, "engine2d.pairs[%d]", i + 1);
        lua_rawgeti(L, list, i + 1);
        int k = lua_gettop(L);
        if (!lua_istable(L, k)) {
            imp_raise(L, "%s: %s must be a table", WHAT, where);
        }
        int lo = (int)get_int(L, k, where, "lo", 0, w->model.nslots - 1);
        int hi = (int)get_int(L, k, where, "hi", lo + 1, w->model.nslots - 1);
        double fr = get_num(L, k, where, "friction"), el = get_num(L, k, where, "elasticity");
        if (imp_engine2d_set_pair(w, lo, hi, fr, el) != 0) {
            imp_raise(L, "%s: out of memory", WHAT);
        }
        imp_pair2d *p = (imp_pair2d *)imp_engine2d_pair(w, lo, hi);
        if (p != NULL) {
            p->gen_lo = (unsigned)get_int(L, k, where, "gen_lo", 0, UINT32_MAX);
            p->gen_hi = (unsigned)get_int(L, k, where, "gen_hi", 0, UINT32_MAX);
        }
        lua_settop(L, list);
    }
    lua_settop(L, e2);
    import_edge_ranges(L, w, e2);
    lua_settop(L, e2 - 1);
}

static void import_joint3d(lua_State *L, imp_world *w, int k, const char *where, imp_e3_joint *j)
{
    memset(j, 0, sizeof *j);
    int last = w->model.nslots - 1;
    j->d.kind = (imp_joint3d_kind)get_int(L, k, where, "kind", 0, IMP_J3_ROD);
    j->d.body1 = (int)get_int(L, k, where, "body1", 0, last);
    j->d.body2 = (int)get_int(L, k, where, "body2", 0, last);
    get_vec(L, k, where, "point1", 3, j->d.point1);
    get_vec(L, k, where, "point2", 3, j->d.point2);
    get_vec(L, k, where, "axis", 3, j->d.axis);
    j->d.length = get_num(L, k, where, "length");
    j->d.has_limits = (int)get_int(L, k, where, "has_limits", 0, 1);
    j->d.lo = get_num(L, k, where, "lo");
    j->d.hi = get_num(L, k, where, "hi");
    j->d.has_motor = (int)get_int(L, k, where, "has_motor", 0, 1);
    j->d.speed = get_num(L, k, where, "speed");
    j->d.max_force = get_num(L, k, where, "max_force");
    j->s1 = (int)get_int(L, k, where, "s1", 0, last);
    j->s2 = (int)get_int(L, k, where, "s2", 0, last);
    get_vec(L, k, where, "p1", 3, j->p1);
    get_vec(L, k, where, "p2", 3, j->p2);
    get_vec(L, k, where, "ax1", 3, j->ax1);
    get_vec(L, k, where, "ax2", 3, j->ax2);
    get_vec(L, k, where, "b1", 3, j->b1);
    get_vec(L, k, where, "c1", 3, j->c1);
    get_vec(L, k, where, "b2", 3, j->b2);
    j->gen1 = (unsigned)get_int(L, k, where, "gen1", 0, UINT32_MAX);
    j->gen2 = (unsigned)get_int(L, k, where, "gen2", 0, UINT32_MAX);
    j->generation = (unsigned)get_int(L, k, where, "generation", 0, UINT32_MAX);
    j->active = (int)get_int(L, k, where, "active", 0, 1);
    get_vec(L, k, where, "lambda", SLOTS, j->lambda);
    j->h_last = get_num(L, k, where, "h_last");
}

static void import_engine3d(lua_State *L, imp_world *w, int t)
{
    lua_getfield(L, t, "engine3d");
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    int e3 = lua_gettop(L);
    imp_engine3d *e = imp_engine3d_get(w);
    if (e == NULL) {
        imp_raise(L, "%s: out of memory", WHAT);
        return;
    }
    lua_Integer n = push_list(L, e3, "joints");
    int list = lua_gettop(L);
    if (n > 1000000) {
        imp_raise(L, "%s: engine3d.joints: too many", WHAT);
    }
    if (n > 0) {
        if (e->joints == NULL && (e->joints = calloc(1, sizeof *e->joints)) == NULL) {
            imp_raise(L, "%s: out of memory", WHAT);
            return;
        }
        struct imp_e3_joints *js = e->joints;
        if (n > js->cap) {
            imp_e3_joint *a = realloc(js->j, (size_t)n * sizeof *a);
            if (a == NULL) {
                imp_raise(L, "%s: out of memory", WHAT);
            }
            js->j = a;
            js->cap = (int)n;
        }
        char where[64];
        for (int i = 0; i < n; i++) {
            snprintf(where, sizeof where, "engine3d.joints[%d]", i + 1);
            lua_rawgeti(L, list, i + 1);
            if (!lua_istable(L, -1)) {
                imp_raise(L, "%s: %s must be a table", WHAT, where);
            }
            import_joint3d(L, w, lua_gettop(L), where, &js->j[i]);
            lua_settop(L, list);
        }
        js->n = (int)n;
        js->exclude_dirty = 1;
    }
    lua_pop(L, 1);
    n = push_list(L, e3, "pairs");
    list = lua_gettop(L);
    char where[64];
    for (int i = 0; i < n; i++) {
        snprintf(where, sizeof where, "engine3d.pairs[%d]", i + 1);
        lua_rawgeti(L, list, i + 1);
        int k = lua_gettop(L);
        if (!lua_istable(L, k)) {
            imp_raise(L, "%s: %s must be a table", WHAT, where);
        }
        int a = (int)get_int(L, k, where, "a", 0, w->model.nslots - 1);
        int b = (int)get_int(L, k, where, "b", 0, w->model.nslots - 1);
        if (a == b) {
            imp_raise(L, "%s: %s: a pair of one body", WHAT, where);
        }
        double fr = get_num(L, k, where, "friction"), el = get_num(L, k, where, "elasticity");
        if (imp_engine3d_set_pair(w, a, b, fr, el) != 0) {
            imp_raise(L, "%s: out of memory", WHAT);
        }
        imp_e3_pair_override *p = (imp_e3_pair_override *)imp_engine3d_pair(w, a, b);
        if (p != NULL) {
            p->gen_a = (unsigned)get_int(L, k, where, "gen_a", 0, UINT32_MAX);
            p->gen_b = (unsigned)get_int(L, k, where, "gen_b", 0, UINT32_MAX);
        }
        lua_settop(L, list);
    }
    lua_settop(L, e3 - 1);
}

/* core.world_state_import(w, saved): the file's model and data into the new world w */
static int l_import(lua_State *L)
{
    imp_world *w = imp_lua_check_world(L, 1);
    imp_world_sync(w);  /* no late store over the imported state */
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    char buf[160];
    lua_getfield(L, 2, "layout");
    const char *lay = lua_tostring(L, -1);
    if (lay == NULL || strcmp(lay, layout(buf, sizeof buf)) != 0) {
        return imp_raise(L, "%s: the file was written by a build of impact whose saved records "
                         "differ from this one's (layout \"%s\"; this build: \"%s\")", WHAT,
                         lay != NULL ? lay : "none", buf);
    }
    lua_pop(L, 1);
    if (get_int(L, 2, "the world", "nslots", 1, INT32_MAX) != w->model.nslots) {
        return imp_raise(L, "%s: nslots does not match the bodies built", WHAT);
    }
    import_def(L, w, 2);
    import_materials(L, w, 2);
    import_bodies(L, w, 2);
    if (w->model.def.sleep
        && imp_islands_restored(w, (int)get_int(L, 2, "the world", "islands", 0, INT32_MAX)) != IMP_OK) {
        return imp_raise(L, "%s: out of memory", WHAT);
    }
    size_t n = (size_t)w->model.nslots * (size_t)w->model.stride;
    double *y = malloc(n * sizeof *y);
    if (y == NULL) {
        return imp_raise(L, "%s: out of memory", WHAT);
    }
    lua_getfield(L, 2, "y");
    int ok = lua_istable(L, -1) && luaL_len(L, -1) == (lua_Integer)n;
    for (size_t i = 0; ok && i < n; i++) {
        lua_geti(L, -1, (lua_Integer)i + 1);
        y[i] = lua_tonumberx(L, -1, &ok);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    if (!ok) {
        free(y);
        return imp_raise(L, "%s: y must be a list of %d numbers", WHAT, (int)n);
    }
    memcpy(w->data.y, y, n * sizeof *y);
    memcpy(w->scratch.y_saved, y, n * sizeof *y);
    memcpy(w->scratch.y_end, y, n * sizeof *y);
    free(y);
    w->data.state_version++;
    import_springs(L, w, 2, 1);
    import_loads(L, w, 2);
    lua_Integer nc = push_list(L, 2, "no_collide");
    if (nc > 0) {
        unsigned long long *keys = realloc(w->model.no_collide, (size_t)nc * sizeof *keys);
        if (keys == NULL) {
            return imp_raise(L, "%s: out of memory", WHAT);
        }
        w->model.no_collide = keys;
        w->model.no_collide_cap = (int)nc;
        for (lua_Integer i = 0; i < nc; i++) {
            lua_geti(L, -1, i + 1);
            lua_Integer k = lua_tointegerx(L, -1, &ok);
            if (!ok || (i > 0 && (unsigned long long)k <= keys[i - 1])) {
                return imp_raise(L, "%s: no_collide[%d] must be an integer above the one before",
                                 WHAT, (int)i + 1);
            }
            keys[i] = (unsigned long long)k;
            lua_pop(L, 1);
        }
    }
    w->model.nno_collide = (int)nc;
    lua_pop(L, 1);
    import_engine2d(L, w, 2);
    import_engine3d(L, w, 2);
    w->data.time = get_num(L, 2, "the world", "time");
    w->data.time_base = get_num(L, 2, "the world", "time_base");
    w->data.steps_since_base = (long)get_int(L, 2, "the world", "steps_since_base", 0, LONG_MAX);
    lua_getfield(L, 2, "rng");
    for (int i = 0; i < 4; i++) {
        lua_geti(L, -1, i + 1);
        w->data.rng.s[i] = (uint64_t)lua_tointeger(L, -1);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    if (lua_getfield(L, 2, "lcg") == LUA_TNUMBER) {  /* (absent from files saved before it) */
        w->data.lcg.x = (uint32_t)lua_tointeger(L, -1);
    }
    lua_pop(L, 1);
    lua_getfield(L, 2, "stats");
    long st[5];
    for (int i = 0; i < 5; i++) {
        lua_geti(L, -1, i + 1);
        st[i] = (long)lua_tointeger(L, -1);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    w->data.stats.steps = st[0];
    w->data.stats.substeps = st[1];
    w->data.stats.rejected = st[2];
    w->data.stats.rhs_evaluations = st[3];
    w->data.stats.failures = st[4];
    imp_lua_state_import_caches(L, w, 2);
    return 0;
}

/* core.world_state_swap(a, b): the two world userdata exchange their worlds (bodies, springs
   and connectors are named by slot and generation, which the two share) */
static int l_swap(lua_State *L)
{
    imp_lua_check_world(L, 1);
    imp_lua_check_world(L, 2);
    world_ud *a = luaL_checkudata(L, 1, IMP_WORLD_MT), *b = luaL_checkudata(L, 2, IMP_WORLD_MT);
    if (a->busy != 0 || b->busy != 0) {
        return imp_raise(L, "World:save: the world is busy (%s)", a->running ? a->running : "a method");
    }
    imp_world *w = a->w;
    a->w = b->w;
    b->w = w;
    /* the world a holds now counts as edited for what was cached about the one it had (the
       queries' box hierarchy, lua_query.c, compares state versions) */
    a->w->data.state_version = w->data.state_version + 1;
    lua_Integer v = a->material_version;
    a->material_version = b->material_version;
    b->material_version = v;
    return 0;
}

void imp_lua_open_world_state(lua_State *L)
{
    static const luaL_Reg fns[] = {{"world_state_export", l_export},
                                   {"world_state_import", l_import},
                                   {"world_state_swap", l_swap},
                                   {NULL, NULL}};
    luaL_setfuncs(L, fns, 0);
}
