/* lua_util.c: option-table and vector helpers for the binding files. */
#include "lua_util.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIBRARY_SOURCE_KEY "impact.library_source"

void imp_set_library_source(lua_State *L, const char *prefix)
{
    lua_pushstring(L, prefix);
    lua_setfield(L, LUA_REGISTRYINDEX, LIBRARY_SOURCE_KEY);
}

void imp_where(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, LIBRARY_SOURCE_KEY);
    size_t nlib = 0;
    const char *lib = lua_tolstring(L, -1, &nlib);
    lua_Debug ar;
    for (int level = 1; lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0) {
            continue;  /* a C function, or a Lua one without line information */
        }
        if (lib != NULL && nlib > 0 && strncmp(ar.source, lib, nlib) == 0) {
            continue;  /* one of impact's own Lua files */
        }
        lua_pop(L, 1);
        lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
        return;
    }
    lua_pop(L, 1);
    lua_pushliteral(L, "");
}

int imp_raise(lua_State *L, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    imp_where(L);
    lua_pushvfstring(L, fmt, ap);
    va_end(ap);
    lua_concat(L, 2);
    return lua_error(L);
}

int imp_error(lua_State *L, const char *what, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    imp_where(L);
    lua_pushfstring(L, "%s: ", what);
    lua_pushvfstring(L, fmt, ap);
    va_end(ap);
    lua_concat(L, 3);
    return lua_error(L);
}

const char *imp_format_g(char *buf, size_t size, double v)
{
    if (isnan(v)) {  /* printf spells the NaN of 0/0 or inf - inf "-nan" */
        snprintf(buf, size, "nan");
    } else {
        snprintf(buf, size, "%g", v);
    }
    return buf;
}

const char *imp_format_exact(char *buf, size_t size, double v)
{
    if (isnan(v) || isinf(v)) {
        return imp_format_g(buf, size, v);
    }
    for (int digits = 6; digits < 17; digits++) {  /* the shortest that reads back as v */
        snprintf(buf, size, "%.*g", digits, v);
        if (strtod(buf, NULL) == v) {
            return buf;
        }
    }
    snprintf(buf, size, "%.17g", v);
    return buf;
}

const char *imp_push_g(lua_State *L, double v)
{
    char buf[64];
    return lua_pushstring(L, imp_format_g(buf, sizeof buf, v));
}

const char *imp_describe(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) {
            return lua_pushfstring(L, "%I", (LUAI_UACINT)lua_tointeger(L, idx));
        } else {
            char buf[64];
            return lua_pushstring(L, imp_format_exact(buf, sizeof buf, lua_tonumber(L, idx)));
        }
    case LUA_TSTRING:
        return lua_pushfstring(L, "\"%s\"", lua_tostring(L, idx));
    case LUA_TNIL:
        return lua_pushliteral(L, "nil");
    case LUA_TBOOLEAN:
        return lua_pushstring(L, lua_toboolean(L, idx) ? "true" : "false");
    default:
        return lua_pushstring(L, luaL_typename(L, idx));
    }
}

void imp_opt_check_keys(lua_State *L, int idx, const char *what, const char *const accepted[])
{
    imp_opt_check_nested_keys(L, idx, what, NULL, accepted);
}

/* whether s is a Lua name (shown bare after "parent.") */
static int is_name(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_')) {
        return 0;
    }
    for (s++; *s != '\0'; s++) {
        if (!(isalnum((unsigned char)*s) || *s == '_')) {
            return 0;
        }
    }
    return 1;
}

void imp_opt_check_nested_keys(lua_State *L, int idx, const char *what, const char *parent,
                               const char *const accepted[])
{
    idx = lua_absindex(L, idx);
    if (lua_isnil(L, idx)) {
        return;
    }
    if (!lua_istable(L, idx)) {
        imp_error(L, what, "options must be a table, got %s", imp_describe(L, idx));
    }
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
        lua_pop(L, 1);
        int known = 0;
        if (lua_type(L, -1) == LUA_TSTRING) {
            const char *k = lua_tostring(L, -1);
            for (int i = 0; accepted[i] != NULL; i++) {
                if (strcmp(k, accepted[i]) == 0) {
                    known = 1;
                    break;
                }
            }
        }
        if (!known) {
            luaL_Buffer b;
            const char *key;
            if (parent == NULL) {
                key = imp_describe(L, -1);
            } else if (lua_type(L, -1) == LUA_TSTRING && is_name(lua_tostring(L, -1))) {
                key = lua_pushfstring(L, "%s.%s", parent, lua_tostring(L, -1));
            } else {
                key = lua_pushfstring(L, "%s[%s]", parent, imp_describe(L, -1));
            }
            luaL_buffinit(L, &b);
            for (int i = 0; accepted[i] != NULL; i++) {
                if (i > 0) {
                    luaL_addstring(&b, ", ");
                }
                luaL_addstring(&b, accepted[i]);
            }
            luaL_pushresult(&b);
            imp_error(L, what, "unknown option %s (accepted: %s)", key, lua_tostring(L, -1));
        }
    }
}

/* pushes the option named key ("name" or "parent.name": the field after the last '.') */
static int get_field(lua_State *L, int idx, const char *key)
{
    if (lua_isnil(L, idx)) {
        lua_pushnil(L);
        return LUA_TNIL;
    }
    const char *dot = strrchr(key, '.');
    return lua_getfield(L, idx, dot != NULL ? dot + 1 : key);
}

static const char *const constraint_text[] = {"a finite number", "a positive finite number",
                                              "a finite number >= 0", "a number in [0, 1]"};

static int meets(double v, int constraint)
{
    if (!isfinite(v)) {
        return 0;
    }
    switch (constraint) {
    case IMP_POSITIVE:
        return v > 0.0;
    case IMP_NONNEGATIVE:
        return v >= 0.0;
    case IMP_UNIT:
        return v >= 0.0 && v <= 1.0;
    default:
        return 1;
    }
}

double imp_opt_number(lua_State *L, int idx, const char *what, const char *key, double def,
                      int constraint, int *present)
{
    idx = lua_absindex(L, idx);
    int t = get_field(L, idx, key);
    if (present != NULL) {
        *present = t != LUA_TNIL;
    }
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return def;
    }
    double v = lua_tonumber(L, -1);
    if (t != LUA_TNUMBER || !meets(v, constraint)) {
        imp_error(L, what, "option '%s' must be %s, got %s", key, constraint_text[constraint],
                  imp_describe(L, -1));
    }
    lua_pop(L, 1);
    return v;
}

lua_Integer imp_opt_integer(lua_State *L, int idx, const char *what, const char *key,
                            lua_Integer def, lua_Integer lo, lua_Integer hi)
{
    idx = lua_absindex(L, idx);
    if (get_field(L, idx, key) == LUA_TNIL) {
        lua_pop(L, 1);
        return def;
    }
    int ok = 0;
    lua_Integer v = 0;
    if (lua_type(L, -1) == LUA_TNUMBER) {
        v = lua_tointegerx(L, -1, &ok);
    }
    if (!ok || v < lo || v > hi) {
        imp_error(L, what, "option '%s' must be an integer from %I to %I, got %s", key,
                  (LUAI_UACINT)lo, (LUAI_UACINT)hi, imp_describe(L, -1));
    }
    lua_pop(L, 1);
    return v;
}

void imp_to_vector(lua_State *L, int idx, const char *what, const char *name, int n, double *out)
{
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx)) {
        imp_error(L, what, "%s must be an array of %d numbers, got %s", name, n, imp_describe(L, idx));
    }
    lua_Integer len = luaL_len(L, idx);
    if (len != n) {
        imp_error(L, what, "%s must be an array of %d numbers, got %I", name, n, (LUAI_UACINT)len);
    }
    for (int i = 0; i < n; i++) {
        int t = lua_geti(L, idx, i + 1);
        double v = lua_tonumber(L, -1);
        if (t != LUA_TNUMBER || !isfinite(v)) {
            imp_error(L, what, "%s must be an array of %d finite numbers, element %d is %s", name,
                      n, i + 1, imp_describe(L, -1));
        }
        out[i] = v;
        lua_pop(L, 1);
    }
}

int imp_opt_vector(lua_State *L, int idx, const char *what, const char *key, int n, double *out)
{
    idx = lua_absindex(L, idx);
    if (get_field(L, idx, key) == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    lua_pushfstring(L, "option '%s'", key);
    imp_to_vector(L, -2, what, lua_tostring(L, -1), n, out);
    lua_pop(L, 2);
    return 1;
}

void imp_check_vector(lua_State *L, int idx, const char *what, int n, double *out)
{
    lua_pushfstring(L, "argument #%d", idx - 1);  /* methods: self is not counted */
    imp_to_vector(L, idx, what, lua_tostring(L, -1), n, out);
    lua_pop(L, 1);
}

int imp_opt_enum(lua_State *L, int idx, const char *what, const char *key,
                 const char *const names[], int def)
{
    idx = lua_absindex(L, idx);
    if (get_field(L, idx, key) == LUA_TNIL) {
        lua_pop(L, 1);
        return def;
    }
    if (lua_type(L, -1) == LUA_TSTRING) {
        const char *s = lua_tostring(L, -1);
        for (int i = 0; names[i] != NULL; i++) {
            if (strcmp(s, names[i]) == 0) {
                lua_pop(L, 1);
                return i;
            }
        }
    }
    luaL_Buffer b;
    const char *got = imp_describe(L, -1);
    luaL_buffinit(L, &b);
    for (int i = 0; names[i] != NULL; i++) {
        if (i > 0) {
            luaL_addstring(&b, ", ");
        }
        luaL_addchar(&b, '"');
        luaL_addstring(&b, names[i]);
        luaL_addchar(&b, '"');
    }
    luaL_pushresult(&b);
    return imp_error(L, what, "option '%s' must be one of %s, got %s", key, lua_tostring(L, -1), got);
}

int imp_opt_boolean(lua_State *L, int idx, const char *what, const char *key, int def)
{
    idx = lua_absindex(L, idx);
    int t = get_field(L, idx, key);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return def;
    }
    if (t != LUA_TBOOLEAN) {
        imp_error(L, what, "option '%s' must be true or false, got %s", key, imp_describe(L, -1));
    }
    int v = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

const char *imp_opt_string(lua_State *L, int idx, const char *what, const char *key)
{
    idx = lua_absindex(L, idx);
    int t = get_field(L, idx, key);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return NULL;
    }
    if (t != LUA_TSTRING) {
        imp_error(L, what, "option '%s' must be a string, got %s", key, imp_describe(L, -1));
    }
    const char *s = lua_tostring(L, -1);
    lua_pop(L, 1);  /* the string is anchored by the options table */
    return s;
}

void imp_push_vector(lua_State *L, const double *v, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushnumber(L, v[i]);
        lua_rawseti(L, -2, i + 1);
    }
}

void imp_lua_set_integer(lua_State *L, const char *k, lua_Integer v)
{
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}

void imp_lua_set_number(lua_State *L, const char *k, double v)
{
    lua_pushnumber(L, v);
    lua_setfield(L, -2, k);
}

void imp_lua_set_vector(lua_State *L, const char *k, const double *v, int n)
{
    imp_push_vector(L, v, n);
    lua_setfield(L, -2, k);
}

void imp_lua_set_hex(lua_State *L, const char *k, const void *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) {
        luaL_addchar(&b, digits[c[i] >> 4]);
        luaL_addchar(&b, digits[c[i] & 15]);
    }
    luaL_pushresult(&b);
    lua_setfield(L, -2, k);
}

int imp_lua_hex_value(int c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    return -1;
}

void imp_push_mat3(lua_State *L, const imp_mat3 *m)
{
    lua_createtable(L, 3, 0);
    for (int i = 0; i < 3; i++) {
        imp_push_vector(L, m->m[i], 3);
        lua_rawseti(L, -2, i + 1);
    }
}

void *imp_lua_scratch(lua_State *L, size_t bytes)
{
    void *p = lua_newuserdatauv(L, bytes > 0 ? bytes : 1, 0);
    memset(p, 0, bytes > 0 ? bytes : 1);
    return p;
}

double imp_number_at(lua_State *L, const char *what, int t, lua_Integer i, const char *name,
                     lua_Integer row)
{
    lua_geti(L, t, i);
    int isnum = 0;
    double v = lua_tonumberx(L, -1, &isnum);
    if (!isnum || v != v || v - v != 0.0) {
        const char *d = imp_describe(L, -1);
        if (row > 0) {
            imp_error(L, what, "%s[%I][%I] must be a finite number, got %s", name, (LUAI_UACINT)row,
                      (LUAI_UACINT)i, d);
        }
        imp_error(L, what, "%s[%I] must be a finite number, got %s", name, (LUAI_UACINT)i, d);
    }
    lua_pop(L, 1);
    return v;
}

int imp_connector_handle(lua_State *L, int idx, const char *what, lua_Integer *index,
                         lua_Integer *generation)
{
    if (!lua_istable(L, idx)) {
        return imp_error(L, what, "argument #1 must be a connector (from add_joint or add_rope), "
                                  "got %s", imp_describe(L, idx));
    }
    lua_getfield(L, idx, "index");
    lua_getfield(L, idx, "generation");
    int ok = lua_isinteger(L, -2) && lua_isinteger(L, -1);
    *index = lua_tointeger(L, -2);
    *generation = lua_tointeger(L, -1);
    lua_pop(L, 2);
    return ok;
}
