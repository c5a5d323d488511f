/* lua_world_state_cache.c: what the strategies carry from one step to the next that a saved
   world keeps (lua_world_state.c writes and reads the rest):
   - the adaptive integrators' step size (strategy "none": the world's; "compliant": its main
     stepper's);
   - the 2D engine's warm starts (the last solves' row states or forces by row key, and the
     exact solves' forces) and the pairs touching at the end of the last step (contact events);
   - the 3D engine's points of the last step (warm-start impulses, touching pairs for events),
     the last sub-step's length and whether the last step's bodies moved beyond their points;
   - the compliant strategy's contact episodes (each in-contact pair's frozen law and approach
     speed), so the contacts a save finds go on with their law;
   - the strategies' counters (w:stats()).
   Records of plain numbers are written as the hexadecimal bytes of their C structs (this
   build's layout: the format's version names it); their slots are checked when read. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compliant.h"
#include "engine2d.h"
#include "engine3d.h"
#include "engine3d_ode.h"
#include "lua_world.h"
#include "lua_world_state.h"
#include "ode_gsl.h"

#define WHAT "impact.load"

/* The records of `size` bytes in the hexadecimal string at key of the table at t (absent: 0
   records), at most max of them: an array in a userdata pushed on the stack (the caller pops
   it; an error leaves nothing to free) and their count in *n. */
static void *get_hex(lua_State *L, int t, const char *key, size_t size, int max, int *n)
{
    *n = 0;
    lua_getfield(L, t, key);
    size_t len = 0;
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
    if (!lua_isnil(L, -1) && (s == NULL || len % (2 * size) != 0 || len / (2 * size) > (size_t)max)) {
        imp_raise(L, "%s: caches.%s must be a string of hexadecimal digits, %d per record, at "
                  "most %d records (this build's layout)", WHAT, key, (int)(2 * size), max);
    }
    size_t bytes = len / 2;
    unsigned char *out = lua_newuserdatauv(L, bytes > 0 ? bytes : 1, 0);
    for (size_t i = 0; i < bytes; i++) {
        int hi = imp_lua_hex_value(s[2 * i]), lo = imp_lua_hex_value(s[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            imp_raise(L, "%s: caches.%s holds a character that is not a hexadecimal digit at %d",
                      WHAT, key, (int)(2 * i + 1));
        }
        out[i] = (unsigned char)(hi * 16 + lo);
    }
    lua_remove(L, -2);
    *n = (int)(bytes / size);
    return out;
}

static void fail_slots(lua_State *L, const char *key, int i)
{
    imp_raise(L, "%s: caches.%s: record %d names a slot outside the world's", WHAT, key, i + 1);
}

/* 1 when slot s of w exists */
static int slot_ok(const imp_world *w, long long s) { return s >= 0 && s < w->model.nslots; }

/* ---- writing ---------------------------------------------------------------------------- */

static void export_warm(lua_State *L, const char *k_keys, const char *k_f, const unsigned long long *keys,
                        const double *f, int n)
{
    imp_lua_set_hex(L, k_keys, keys, (size_t)n * sizeof *keys);
    imp_lua_set_hex(L, k_f, f, (size_t)n * sizeof *f);
}

void imp_lua_state_export_caches(lua_State *L, const imp_world *w)
{
    lua_createtable(L, 0, 12);
    if (w->scratch.ode != NULL) {
        lua_pushnumber(L, imp_ode_get_h(w->scratch.ode));
        lua_setfield(L, -2, "ode_h");
    }
    const imp_compliant *c = w->compliant;
    if (c != NULL) {
        if (c->main != NULL) {
            lua_pushnumber(L, imp_ode_get_h(c->main));
            lua_setfield(L, -2, "compliant_h");
        }
        imp_lua_set_hex(L, "compliant_last", c->last, (size_t)c->nlast * sizeof *c->last);
        imp_lua_set_hex(L, "compliant_stats", &c->stats, sizeof c->stats);
    }
    const imp_engine2d *e2 = w->engine2d;
    if (e2 != NULL) {
        export_warm(L, "warm_keys", "warm_f", e2->warm_key, e2->warm_f, e2->nwarm);
        export_warm(L, "fwarm_keys", "fwarm_f", e2->fwarm_key, e2->fwarm_f, e2->nfwarm);
        if (e2->touch_bodies_version == w->model.bodies_version) {
            imp_lua_set_hex(L, "touch2d", e2->touch, (size_t)e2->ntouch * sizeof *e2->touch);
        }
        imp_lua_set_hex(L, "stats2d", &e2->stats, sizeof e2->stats);
        double more[2] = {(double)e2->forces_evaluations, e2->max_force};
        imp_lua_set_hex(L, "stats2d_more", more, sizeof more);
    }
    const imp_engine3d *e3 = w->engine3d;
    if (e3 != NULL) {
        imp_lua_set_hex(L, "points3d", e3->prev, (size_t)e3->nprev * sizeof *e3->prev);
        lua_pushnumber(L, e3->h_last);
        lua_setfield(L, -2, "h_last3d");
        lua_pushinteger(L, e3->moving);
        lua_setfield(L, -2, "moving3d");
        imp_lua_set_hex(L, "stats3d", &e3->stats, sizeof e3->stats);
        if (e3->ode != NULL) {
            long ode[4] = {e3->ode->ode_steps, e3->ode->binary_searches, e3->ode->force_solves,
                           e3->ode->force_failures};
            imp_lua_set_hex(L, "stats3d_ode", ode, sizeof ode);
        }
    }
    lua_setfield(L, -2, "caches");
}

/* ---- reading ---------------------------------------------------------------------------- */

/* the one record of size bytes at key (absent: nothing) into out; 1 when it was there */
static int get_record(lua_State *L, int t, const char *key, void *out, size_t size)
{
    int n;
    void *p = get_hex(L, t, key, size, 1, &n);
    if (n == 1) {
        memcpy(out, p, size);
    }
    lua_pop(L, 1);
    return n == 1;
}

static double opt_number(lua_State *L, int t, const char *key, double def)
{
    lua_getfield(L, t, key);
    int ok;
    double v = lua_tonumberx(L, -1, &ok);
    int absent = lua_isnil(L, -1);
    lua_pop(L, 1);
    if (absent) {
        return def;
    }
    if (!ok || !(v > 0.0) || v == HUGE_VAL) {
        imp_raise(L, "%s: caches.%s must be a finite number > 0", WHAT, key);
    }
    return v;
}

static void import_warm(lua_State *L, imp_world *w, int t, const char *k_keys, const char *k_f,
                        int exact)
{
    int nk, nf;
    unsigned long long *keys = get_hex(L, t, k_keys, sizeof *keys, 1 << 24, &nk);
    double *f = get_hex(L, t, k_f, sizeof *f, 1 << 24, &nf);
    if (nk != nf) {
        imp_raise(L, "%s: caches.%s and caches.%s must hold as many records", WHAT, k_keys, k_f);
    }
    imp_rec2d *rec = lua_newuserdatauv(L, (size_t)(nk > 0 ? nk : 1) * sizeof *rec, 0);
    memset(rec, 0, (size_t)(nk > 0 ? nk : 1) * sizeof *rec);
    for (int i = 0; i < nk; i++) {
        rec[i].key = keys[i];
    }
    int st = nk == 0 ? 0 : exact ? imp_engine2d_fwarm_store(w->engine2d, rec, nk, f)
                                 : imp_engine2d_warm_store(w->engine2d, rec, nk, f);
    lua_pop(L, 3);
    if (st != 0) {
        imp_raise(L, "%s: out of memory", WHAT);
    }
}

static void import_engine2d(lua_State *L, imp_world *w, int t)
{
    imp_engine2d *e = imp_engine2d_get(w);
    if (e == NULL) {
        imp_raise(L, "%s: out of memory", WHAT);
        return;
    }
    import_warm(L, w, t, "warm_keys", "warm_f", 0);
    import_warm(L, w, t, "fwarm_keys", "fwarm_f", 1);
    int n;
    imp_touch2d *touch = get_hex(L, t, "touch2d", sizeof *touch, 1 << 24, &n);
    for (int i = 0; i < n; i++) {
        long long a = (long long)(touch[i].key >> 32), b = (long long)(touch[i].key & 0xFFFFFFFFull);
        if (!slot_ok(w, a) || !slot_ok(w, b) || a >= b) {
            fail_slots(L, "touch2d", i);
        }
    }
    if (n > e->touch_cap) {
        imp_touch2d *x = realloc(e->touch, (size_t)n * sizeof *x);
        if (x != NULL) {
            e->touch = x;
        }
        imp_touch2d *y = x != NULL ? realloc(e->touch_new, (size_t)n * sizeof *y) : NULL;
        if (y == NULL) {
            imp_raise(L, "%s: out of memory", WHAT);
            return;
        }
        e->touch_new = y;
        e->touch_cap = n;
    }
    if (n > 0) {
        memcpy(e->touch, touch, (size_t)n * sizeof *touch);
    }
    e->ntouch = n;
    e->touch_bodies_version = w->model.bodies_version;
    lua_pop(L, 1);
    get_record(L, t, "stats2d", &e->stats, sizeof e->stats);
    double more[2];
    if (get_record(L, t, "stats2d_more", more, sizeof more)) {
        e->forces_evaluations = (long)more[0];
        e->max_force = more[1];
    }
}

static void import_engine3d(lua_State *L, imp_world *w, int t)
{
    imp_engine3d *e = imp_engine3d_get(w);
    if (e == NULL) {
        imp_raise(L, "%s: out of memory", WHAT);
        return;
    }
    int n;
    imp_e3_point *pts = get_hex(L, t, "points3d", sizeof *pts, 1 << 24, &n);
    for (int i = 0; i < n; i++) {
        if (!slot_ok(w, pts[i].a) || !slot_ok(w, pts[i].b) || pts[i].a >= pts[i].b) {
            fail_slots(L, "points3d", i);
        }
    }
    if (n > e->prev_cap) {
        imp_e3_point *x = realloc(e->prev, (size_t)n * sizeof *x);
        if (x == NULL) {
            imp_raise(L, "%s: out of memory", WHAT);
            return;
        }
        e->prev = x;
        e->prev_cap = n;
    }
    if (n > 0) {
        memcpy(e->prev, pts, (size_t)n * sizeof *pts);
    }
    e->nprev = n;
    e->ev_valid = 0;  /* (every change of e->prev clears it, engine3d.h: the events' pair states are not these) */
    lua_pop(L, 1);
    /* w:contacts() shows these points until the next step (the broad phase is rebuilt at the
       next detection all the same: bp_built is 0) */
    e->bodies_version = w->model.bodies_version;
    lua_getfield(L, t, "h_last3d");
    e->h_last = lua_tonumber(L, -1);
    lua_getfield(L, t, "moving3d");
    e->moving = lua_tointeger(L, -1) != 0;
    lua_pop(L, 2);
    get_record(L, t, "stats3d", &e->stats, sizeof e->stats);
    long ode[4];
    if (get_record(L, t, "stats3d_ode", ode, sizeof ode)) {
        if (e->ode == NULL && (e->ode = calloc(1, sizeof *e->ode)) == NULL) {  /* as its advance makes it */
            imp_raise(L, "%s: out of memory", WHAT);
            return;
        }
        e->ode->ode_steps = ode[0];
        e->ode->binary_searches = ode[1];
        e->ode->force_solves = ode[2];
        e->ode->force_failures = ode[3];
    }
    if (!(e->h_last >= 0.0) || e->h_last == HUGE_VAL) {
        imp_raise(L, "%s: caches.h_last3d must be a finite number >= 0", WHAT);
    }
}

static void import_compliant(lua_State *L, imp_world *w, int t, size_t n_state)
{
    if (w->compliant == NULL && (w->compliant = imp_compliant_new(&w->model.def.compliant)) == NULL) {
        imp_raise(L, "%s: out of memory", WHAT);
        return;
    }
    imp_compliant *c = w->compliant;
    int n;
    imp_centry *last = get_hex(L, t, "compliant_last", sizeof *last, c->def.nz_max, &n);
    for (int i = 0; i < n; i++) {
        long long a = last[i].key >> 32, b = last[i].key & 0xFFFFFFFFll;
        if (!slot_ok(w, a) || !slot_ok(w, b) || a >= b || last[i].npatch < 0 || last[i].npatch > 4) {
            fail_slots(L, "compliant_last", i);
        }
    }
    if (n > 0) {
        memcpy(c->last, last, (size_t)n * sizeof *last);
    }
    c->nlast = n;
    lua_pop(L, 1);
    get_record(L, t, "compliant_stats", &c->stats, sizeof c->stats);
    double h = opt_number(L, t, "compliant_h", 0.0);
    if (h > 0.0) {  /* the steppers and buffers the first step would make, with the step size */
        c->main = imp_world_ode_new(w, n_state);
        c->locate = imp_world_ode_new(w, n_state);
        c->y_start = malloc(n_state * sizeof *c->y_start);
        c->y_try = malloc(n_state * sizeof *c->y_try);
        c->y_hi = malloc(n_state * sizeof *c->y_hi);
        if (!c->main || !c->locate || !c->y_start || !c->y_try || !c->y_hi) {
            imp_raise(L, "%s: out of memory", WHAT);
            return;
        }
        c->state_capacity = (int)n_state;
        imp_ode_set_h(c->main, h);
    }
}

void imp_lua_state_import_caches(lua_State *L, imp_world *w, int t)
{
    lua_getfield(L, t, "caches");
    if (!lua_istable(L, -1)) {
        imp_raise(L, "%s: caches must be a table", WHAT);
        return;
    }
    int k = lua_gettop(L);
    size_t n = (size_t)w->model.nslots * (size_t)w->model.stride;
    const imp_strategy_ops *ops = imp_world_strategy(w);
    double h = opt_number(L, k, "ode_h", 0.0);
    if (h > 0.0 && w->model.def.strategy == IMP_STRATEGY_NONE && w->model.def.integrator.kind >= IMP_RKF45) {
        if ((w->scratch.ode = imp_world_ode_new(w, n)) == NULL) {
            imp_raise(L, "%s: out of memory", WHAT);
            return;
        }
        imp_ode_set_h(w->scratch.ode, h);
    }
    if (w->model.def.strategy == IMP_STRATEGY_COMPLIANT) {
        import_compliant(L, w, k, n);
    } else if ((ops->flags & IMP_STRATEGY_COLLISIONS) != 0 && w->model.def.dim == 2) {
        import_engine2d(L, w, k);
    } else if ((ops->flags & IMP_STRATEGY_COLLISIONS) != 0) {
        import_engine3d(L, w, k);
    }
    lua_settop(L, k - 1);
}
