/* lua_util.h: helpers shared by the Lua binding files: option tables, vectors, errors.

   Errors name the function, the option, the value and what is accepted, e.g.
     impact.world2d: option 'dt' must be a positive finite number, got -1
     impact.world2d: unknown option "gravty" (accepted: gravity, dt, ...)
     impact.world2d: unknown option integrator.rtoll (accepted: method, rtol, ...) */
#ifndef IMPACT_LUA_UTIL_H
#define IMPACT_LUA_UTIL_H

#include <lauxlib.h>
#include <lua.h>

#include "shape.h"

/* constraints on a number option */
enum { IMP_ANY = 0, IMP_POSITIVE = 1, IMP_NONNEGATIVE = 2, IMP_UNIT = 3 /* in [0, 1] */ };

/* Errors point at the user's line: imp_where pushes "chunk:line: " of the nearest Lua frame
   outside impact's own Lua files (whose sources start with the prefix given once by
   imp_set_library_source, from impact/init.lua), or "" when there is none. imp_raise is
   luaL_error with that position; imp_error prefixes "what: " to the message as well. */
void imp_set_library_source(lua_State *L, const char *prefix);
void imp_where(lua_State *L);
int imp_raise(lua_State *L, const char *fmt, ...);

/* Raises unless the value at idx is nil or a table whose keys are all strings in accepted
   (a NULL-terminated list).

   Options nested in a table are named by their path: the key passed to the imp_opt_* readers
   may be "parent.key" (the field read is the part after the last '.', the message names the
   whole path: "option 'integrator.rtol' must be ..."), and imp_opt_check_nested_keys names an
   unknown key as parent.key: "unknown option integrator.rtoll (accepted: method, rtol, ...)". */
void imp_opt_check_keys(lua_State *L, int idx, const char *what, const char *const accepted[]);
void imp_opt_check_nested_keys(lua_State *L, int idx, const char *what, const char *parent,
                               const char *const accepted[]);
/* Number option: returns def when absent; raises when not a finite number meeting the
   constraint. *present (may be NULL) says whether the key was given. */
double imp_opt_number(lua_State *L, int idx, const char *what, const char *key, double def,
                      int constraint, int *present);
/* Integer option with inclusive bounds. */
lua_Integer imp_opt_integer(lua_State *L, int idx, const char *what, const char *key,
                            lua_Integer def, lua_Integer lo, lua_Integer hi);
/* Array of n finite numbers; returns 1 and fills out when present, 0 when absent. */
int imp_opt_vector(lua_State *L, int idx, const char *what, const char *key, int n, double *out);
/* One of names (NULL-terminated); returns its index, or def when absent. */
int imp_opt_enum(lua_State *L, int idx, const char *what, const char *key,
                 const char *const names[], int def);
int imp_opt_boolean(lua_State *L, int idx, const char *what, const char *key, int def);
/* A string option; NULL when absent. The string stays valid while the table is alive. */
const char *imp_opt_string(lua_State *L, int idx, const char *what, const char *key);

/* The value at idx as an array of n finite numbers (argument checks of methods). */
void imp_check_vector(lua_State *L, int idx, const char *what, int n, double *out);
/* Same for a value already known to be on the stack, naming it `name` in the error. */
void imp_to_vector(lua_State *L, int idx, const char *what, const char *name, int n, double *out);
/* Pushes {v[0], ..., v[n-1]}. */
void imp_push_vector(lua_State *L, const double *v, int n);
/* t[k] = value for the table on top of the stack (the saved-state writers' records):
   an integer, a number, {v[0], ..., v[n-1]}, or n bytes as 2n lowercase hex digits. */
void imp_lua_set_integer(lua_State *L, const char *k, lua_Integer v);
void imp_lua_set_number(lua_State *L, const char *k, double v);
void imp_lua_set_vector(lua_State *L, const char *k, const double *v, int n);
void imp_lua_set_hex(lua_State *L, const char *k, const void *p, size_t n);
/* The value of a lowercase hex digit, or -1. */
int imp_lua_hex_value(int c);
/* Pushes a 3x3 matrix as {{...}, {...}, {...}}. */
void imp_push_mat3(lua_State *L, const imp_mat3 *m);
/* Writes a short description of the value at idx (for error messages) onto the stack. */
const char *imp_describe(lua_State *L, int idx);
/* The index and generation of the connector handle at idx (the table add_joint and add_rope
   return, 2D and 3D); raises what's error when it is not a table; returns 0 when its fields are
   not integers. */
int imp_connector_handle(lua_State *L, int idx, const char *what, lua_Integer *index,
                         lua_Integer *generation);
/* v for a message: %g, with NaN spelled "nan" (printf may write "-nan"); returns buf. */
const char *imp_format_g(char *buf, size_t size, double v);
/* v for a message when its exact value matters: the shortest %g form (at least 6 digits)
   that reads back as v ("-0.1", not "-0.10000000000000001"); NaN as "nan"; returns buf. */
const char *imp_format_exact(char *buf, size_t size, double v);
/* Pushes v formatted by imp_format_g and returns it. */
const char *imp_push_g(lua_State *L, double v);
/* Raises "<what>: <message>" with printf-style arguments (Lua's lua_pushfstring formats). */
int imp_error(lua_State *L, const char *what, const char *fmt, ...);

/* Shapes (lua_shape.c): an impact.Shape userdata owning one reference to an imp_shape. */
#define IMP_SHAPE_MT "impact.Shape"
void imp_lua_push_shape(lua_State *L, imp_shape *s); /* takes over the caller's reference */
imp_shape *imp_lua_check_shape(lua_State *L, int idx);
/* The same for a shape a body can be made of: when its volume (area) or inertia per unit
   density is not a positive finite number with a finite inverse, releases it and raises
   "<what>: <given> gives a shape whose volume is inf; ..." (given: the options, "radius = 1e+300"). */
void imp_lua_push_solid_shape(lua_State *L, imp_shape *s, const char *what, const char *given);
imp_shape *imp_lua_test_shape(lua_State *L, int idx);
/* core.shape2d_recentred(shape, x, y) (lua_shape2d.c) */
int imp_lua_shape2d_recentred(lua_State *L);

/* Registration hooks, called by luaopen_impact_core with the module table on top. */
void imp_lua_open_shape(lua_State *L);
void imp_lua_open_shape2d(lua_State *L);
void imp_lua_open_shape3d(lua_State *L);
void imp_lua_open_lcp(lua_State *L);



/* A pose option table at idx: 2D {position = {x, y}, angle = a}; 3D {position = {x, y, z},
   orientation = {w, x, y, z}} (normalized; zero raises). Absent fields keep the identity.
   Fills pose in a body's state layout (3 or 7 numbers). */
void imp_opt_pose(lua_State *L, int idx, const char *what, int dim, double *pose);
/* Scratch memory owned by a new userdata on the stack (zeroed, at least 1 byte), so an error
   raised half-way through a call leaks nothing. */
void *imp_lua_scratch(lua_State *L, size_t bytes);
/* The finite number at t[i] (popped), or an error naming name[i] (or name[row][i] when row > 0). */
double imp_number_at(lua_State *L, const char *what, int t, lua_Integer i, const char *name,
                     lua_Integer row);

#endif
