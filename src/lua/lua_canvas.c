/* lua_canvas.c: PNG pictures through cairo (https://cairographics.org), the only file that
   talks to cairo. The Lua side (lua/impact/draw.lua) builds a display list in pixel units
   (y down) and writes SVG itself; PNG goes through here, so both show the same thing.

   core.render_png(items, width, height, file [, background]) draws items and writes file:
     { kind = "path", d = { "M", x, y, "L", x, y, "A", cx, cy, r, a0, a1, "Z", ... },
       fill = {r, g, b [, a]}, stroke = {r, g, b [, a]}, width = px, dash = {on, off},
       clip = {x, y, w, h} }
       "A" continues the path with an arc about (cx, cy): increasing angle when a1 > a0
       (clockwise on the screen, y being down), decreasing otherwise.
     { kind = "text", x =, y =, text =, size = px, color =, anchor = "start"|"middle"|"end",
       rotate = degrees, middle = true (y is the text's middle, not its baseline) }
   core.read_png(file) -> width, height, pixels: 4 bytes R, G, B, A per pixel, rows from the
     top (not premultiplied); for checking pictures.
   core.clock() -> seconds of a monotonic wall clock (progress and rates). */
#define _POSIX_C_SOURCE 200809L
#include <cairo.h>
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "lua_util.h"
#include "lua_viz.h"

#define GUARD_MT "impact.CairoGuard"
static const char *const WHAT = "impact.core.render_png";

typedef struct guard {
    cairo_surface_t *surface;
    cairo_t *cr;
} guard;

static int guard_gc(lua_State *L)
{
    guard *g = luaL_checkudata(L, 1, GUARD_MT);
    if (g->cr != NULL) {
        cairo_destroy(g->cr);
    }
    if (g->surface != NULL) {
        cairo_surface_destroy(g->surface);
    }
    g->cr = NULL;
    g->surface = NULL;
    return 0;
}

static double item_number(lua_State *L, int idx, int item, const char *key, double def)
{
    double v = def;
    if (lua_getfield(L, idx, key) != LUA_TNIL) {
        int ok = 0;
        v = lua_tonumberx(L, -1, &ok);
        if (!ok || !isfinite(v)) {
            imp_error(L, WHAT, "item %d: '%s' must be a finite number, got %s", item, key,
                      imp_describe(L, -1));
        }
    }
    lua_pop(L, 1);
    return v;
}

/* color field {r, g, b [, a]} in [0, 1]; returns 0 when absent */
static int item_color(lua_State *L, int idx, int item, const char *key, double rgba[4])
{
    int type = lua_getfield(L, idx, key);
    if (type == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    int n = type == LUA_TTABLE ? (int)lua_rawlen(L, -1) : 0;
    if (n != 3 && n != 4) {
        imp_error(L, WHAT, "item %d: '%s' must be a color {r, g, b [, a]}, got %s", item, key,
                  imp_describe(L, -1));
    }
    rgba[3] = 1.0;
    for (int i = 0; i < n; i++) {
        lua_rawgeti(L, -1, i + 1);
        int ok = 0;
        rgba[i] = lua_tonumberx(L, -1, &ok);
        if (!ok || !(rgba[i] >= 0.0 && rgba[i] <= 1.0)) {
            imp_error(L, WHAT, "item %d: '%s' components must be numbers in [0, 1], got %s", item,
                      key, imp_describe(L, -1));
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return 1;
}

static double path_number(lua_State *L, int d, int item, int k)
{
    lua_rawgeti(L, d, k);
    int ok = 0;
    double v = lua_tonumberx(L, -1, &ok);
    if (!ok || !isfinite(v)) {
        imp_error(L, WHAT, "item %d: d[%d] must be a finite number, got %s", item, k,
                  imp_describe(L, -1));
    }
    lua_pop(L, 1);
    return v;
}

static void build_path(lua_State *L, cairo_t *cr, int idx, int item)
{
    if (lua_getfield(L, idx, "d") != LUA_TTABLE) {
        imp_error(L, WHAT, "item %d: a path needs 'd', a table of commands", item);
    }
    int d = lua_gettop(L);
    int n = (int)lua_rawlen(L, d);
    cairo_new_path(cr);
    for (int k = 1; k <= n;) {
        lua_rawgeti(L, d, k);
        const char *op = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
        char c = strlen(op) == 1 ? op[0] : '?';
        lua_pop(L, 1);
        int need = c == 'M' || c == 'L' ? 2 : c == 'A' ? 5 : c == 'Z' ? 0 : -1;
        if (need < 0) {
            imp_error(L, WHAT, "item %d: d[%d] must be a command \"M\", \"L\", \"A\" or \"Z\"",
                      item, k);
        }
        if (k + need > n) {
            imp_error(L, WHAT, "item %d: command '%c' at d[%d] needs %d numbers", item, c, k, need);
        }
        double v[5];
        for (int i = 0; i < need; i++) {
            v[i] = path_number(L, d, item, k + 1 + i);
        }
        if (c == 'M') {
            cairo_move_to(cr, v[0], v[1]);
        } else if (c == 'L') {
            cairo_line_to(cr, v[0], v[1]);
        } else if (c == 'A') {
            if (!(v[2] >= 0.0)) {
                imp_error(L, WHAT, "item %d: arc radius at d[%d] must be >= 0", item, k + 3);
            }
            if (v[4] >= v[3]) {
                cairo_arc(cr, v[0], v[1], v[2], v[3], v[4]);
            } else {
                cairo_arc_negative(cr, v[0], v[1], v[2], v[3], v[4]);
            }
        } else {
            cairo_close_path(cr);
        }
        k += need + 1;
    }
    lua_pop(L, 1);
}

static void draw_path(lua_State *L, cairo_t *cr, int idx, int item)
{
    double fill[4], stroke[4];
    int has_fill = item_color(L, idx, item, "fill", fill);
    int has_stroke = item_color(L, idx, item, "stroke", stroke);
    double width = item_number(L, idx, item, "width", 1.0);
    cairo_save(cr);
    if (lua_getfield(L, idx, "clip") == LUA_TTABLE) {
        double r[4];
        imp_to_vector(L, -1, WHAT, "clip", 4, r);
        cairo_rectangle(cr, r[0], r[1], r[2], r[3]);
        cairo_clip(cr);
    }
    lua_pop(L, 1);
    if (lua_getfield(L, idx, "dash") == LUA_TTABLE) {
        double dash[2];
        imp_to_vector(L, -1, WHAT, "dash", 2, dash);
        if (dash[0] > 0.0 && dash[1] >= 0.0) {
            cairo_set_dash(cr, dash, 2, 0.0);
        }
    }
    lua_pop(L, 1);
    build_path(L, cr, idx, item);
    if (has_fill) {
        cairo_set_source_rgba(cr, fill[0], fill[1], fill[2], fill[3]);
        cairo_fill_preserve(cr);
    }
    if (has_stroke && width > 0.0) {
        cairo_set_source_rgba(cr, stroke[0], stroke[1], stroke[2], stroke[3]);
        cairo_set_line_width(cr, width);
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
        cairo_stroke_preserve(cr);
    }
    cairo_new_path(cr);
    cairo_restore(cr);
}

static void draw_text(lua_State *L, cairo_t *cr, int idx, int item)
{
    double x = item_number(L, idx, item, "x", 0.0), y = item_number(L, idx, item, "y", 0.0);
    double size = item_number(L, idx, item, "size", 12.0);
    double rotate = item_number(L, idx, item, "rotate", 0.0);
    double color[4] = {0.0, 0.0, 0.0, 1.0};
    item_color(L, idx, item, "color", color);
    lua_getfield(L, idx, "text");
    const char *text = lua_tostring(L, -1);
    if (text == NULL) {
        imp_error(L, WHAT, "item %d: a text needs 'text', a string", item);
    }
    lua_getfield(L, idx, "anchor");
    const char *anchor = lua_tostring(L, -1);
    double shift = 0.0;
    if (anchor != NULL && strcmp(anchor, "middle") == 0) {
        shift = 0.5;
    } else if (anchor != NULL && strcmp(anchor, "end") == 0) {
        shift = 1.0;
    } else if (anchor != NULL && strcmp(anchor, "start") != 0) {
        imp_error(L, WHAT, "item %d: 'anchor' must be \"start\", \"middle\" or \"end\", got %s",
                  item, anchor);
    }
    lua_getfield(L, idx, "middle");
    int middle = lua_toboolean(L, -1);
    cairo_save(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size > 0.0 ? size : 12.0);
    cairo_text_extents_t ext;
    cairo_text_extents(cr, text, &ext);
    cairo_translate(cr, x, y);
    cairo_rotate(cr, rotate * 3.14159265358979323846 / 180.0);
    /* the same 0.35 em shift as the SVG writer's dy for middle-aligned text */
    cairo_move_to(cr, -shift * ext.x_advance, middle ? 0.35 * size : 0.0);
    cairo_set_source_rgba(cr, color[0], color[1], color[2], color[3]);
    cairo_show_text(cr, text);
    cairo_restore(cr);
    lua_pop(L, 3);
}

static int l_render_png(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer w = luaL_checkinteger(L, 2), h = luaL_checkinteger(L, 3);
    const char *file = luaL_checkstring(L, 4);
    if (w < 1 || h < 1 || w > 16384 || h > 16384) {
        return imp_error(L, WHAT, "width and height must be integers in [1, 16384], got %I x %I",
                         (LUAI_UACINT)w, (LUAI_UACINT)h);
    }
    double bg[4] = {1.0, 1.0, 1.0, 1.0};
    if (!lua_isnoneornil(L, 5)) {
        lua_createtable(L, 0, 1);
        lua_pushvalue(L, 5);
        lua_setfield(L, -2, "background");
        item_color(L, lua_gettop(L), 0, "background", bg);
        lua_pop(L, 1);
    }
    guard *g = lua_newuserdatauv(L, sizeof *g, 0);
    g->surface = NULL;
    g->cr = NULL;
    luaL_setmetatable(L, GUARD_MT);
    g->surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)w, (int)h);
    g->cr = cairo_create(g->surface);
    if (cairo_status(g->cr) != CAIRO_STATUS_SUCCESS) {
        return imp_error(L, WHAT, "cairo: %s", cairo_status_to_string(cairo_status(g->cr)));
    }
    cairo_set_source_rgba(g->cr, bg[0], bg[1], bg[2], bg[3]);
    cairo_paint(g->cr);
    int n = (int)lua_rawlen(L, 1);
    for (int i = 1; i <= n; i++) {
        if (lua_rawgeti(L, 1, i) != LUA_TTABLE) {
            return imp_error(L, WHAT, "item %d must be a table, got %s", i, imp_describe(L, -1));
        }
        int idx = lua_gettop(L);
        lua_getfield(L, idx, "kind");
        const char *kind = lua_tostring(L, -1);
        if (kind != NULL && strcmp(kind, "path") == 0) {
            draw_path(L, g->cr, idx, i);
        } else if (kind != NULL && strcmp(kind, "text") == 0) {
            draw_text(L, g->cr, idx, i);
        } else {
            return imp_error(L, WHAT, "item %d: 'kind' must be \"path\" or \"text\", got %s", i,
                             imp_describe(L, -1));
        }
        lua_settop(L, idx - 1);
        if (cairo_status(g->cr) != CAIRO_STATUS_SUCCESS) {
            return imp_error(L, WHAT, "item %d: cairo: %s", i,
                             cairo_status_to_string(cairo_status(g->cr)));
        }
    }
    cairo_surface_flush(g->surface);
    cairo_status_t st = cairo_surface_write_to_png(g->surface, file);
    if (st != CAIRO_STATUS_SUCCESS) {
        return imp_error(L, WHAT, "cannot write '%s': %s", file, cairo_status_to_string(st));
    }
    lua_pushstring(L, file);
    return 1;
}

static int l_read_png(lua_State *L)
{
    const char *file = luaL_checkstring(L, 1);
    guard *g = lua_newuserdatauv(L, sizeof *g, 0);
    g->surface = NULL;
    g->cr = NULL;
    luaL_setmetatable(L, GUARD_MT);
    g->surface = cairo_image_surface_create_from_png(file);
    cairo_status_t st = cairo_surface_status(g->surface);
    if (st != CAIRO_STATUS_SUCCESS) {
        return imp_error(L, "impact.core.read_png", "cannot read '%s': %s", file,
                         cairo_status_to_string(st));
    }
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32,
                                                    cairo_image_surface_get_width(g->surface),
                                                    cairo_image_surface_get_height(g->surface));
    /* paint onto an ARGB32 surface so every PNG colour type reads the same way */
    cairo_t *cr = cairo_create(s);
    cairo_set_source_surface(cr, g->surface, 0, 0);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_paint(cr);
    cairo_destroy(cr);
    cairo_surface_destroy(g->surface);
    g->surface = s;
    cairo_surface_flush(s);
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    int stride = cairo_image_surface_get_stride(s);
    const unsigned char *data = cairo_image_surface_get_data(s);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS || data == NULL) {
        return imp_error(L, "impact.core.read_png", "cannot read '%s': %s", file,
                         cairo_status_to_string(cairo_surface_status(s)));
    }
    luaL_Buffer b;
    unsigned char *out = (unsigned char *)luaL_buffinitsize(L, &b, (size_t)w * (size_t)h * 4);
    for (int y = 0; y < h; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
        for (int x = 0; x < w; x++) {
            uint32_t p = row[x];
            unsigned a = p >> 24, r = (p >> 16) & 255u, gr = (p >> 8) & 255u, bl = p & 255u;
            if (a > 0 && a < 255) { /* undo the premultiplication */
                r = (r * 255u + a / 2) / a;
                gr = (gr * 255u + a / 2) / a;
                bl = (bl * 255u + a / 2) / a;
            }
            unsigned char *o = out + ((size_t)y * (size_t)w + (size_t)x) * 4;
            o[0] = (unsigned char)r, o[1] = (unsigned char)gr, o[2] = (unsigned char)bl;
            o[3] = (unsigned char)a;
        }
    }
    luaL_pushresultsize(&b, (size_t)w * (size_t)h * 4);
    lua_pushinteger(L, w);
    lua_pushinteger(L, h);
    lua_rotate(L, -3, 2);
    return 3;
}

static int l_clock(lua_State *L)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    lua_pushnumber(L, (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec);
    return 1;
}

/* fontconfig (which cairo uses for text) keeps caches for the life of the process. Lua unloads
   this module at exit, which would unmap cairo and fontconfig with those caches, so leak checkers
   would report them lost: pinning both keeps them mapped and their caches reachable. */
static void pin_libraries(void)
{
    static const char *const names[] = {"libcairo.so.2", "libfontconfig.so.1"};
    for (int i = 0; i < 2; i++) {
        (void)dlopen(names[i], RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
    }
}

void imp_lua_open_canvas(lua_State *L)
{
    pin_libraries();
    static const luaL_Reg fns[] = {
        {"render_png", l_render_png}, {"read_png", l_read_png}, {"clock", l_clock}, {NULL, NULL}};
    if (luaL_newmetatable(L, GUARD_MT)) {
        lua_pushcfunction(L, guard_gc);
        lua_setfield(L, -2, "__gc");
    }
    lua_pop(L, 1);
    luaL_setfuncs(L, fns, 0);
}
