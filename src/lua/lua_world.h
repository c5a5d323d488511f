/* lua_world.h: the userdata of worlds, bodies and springs, shared by lua_world.c,
   lua_body.c and lua_spring.c.

   Lifetimes: a World userdata owns its imp_world. Its user values hold the Body and Spring
   userdata by slot, so w:bodies() and callbacks hand out the same objects. Each Body and
   Spring holds its World as user value 1, so a body keeps its world alive; cycles through
   user values are collected normally. A Body names its C body by {slot, generation}: after
   w:remove_body(b) or w:close(), using b raises a clear error instead of touching freed
   memory, whatever the order of collection. */
#ifndef IMPACT_LUA_WORLD_H
#define IMPACT_LUA_WORLD_H

#include "compliant.h"
#include "engine2d.h"
#include "lua_util.h"
#include "world_internal.h"

#define IMP_WORLD_MT "impact.World"
#define IMP_BODY_MT "impact.Body"
#define IMP_SPRING_MT "impact.Spring"
#define IMP_LOAD_MT "impact.Load"

/* WORLD_UV_MOTIONS: the kinematic bodies' motion functions by slot (lua_motion.c) */
/* WORLD_UV_LOADS: the timed loads' functions by load index + 1 (lua_load.c) */
enum { WORLD_UV_BODIES = 1, WORLD_UV_SPRINGS = 2, WORLD_UV_MOTIONS = 3, WORLD_UV_LOADS = 4,
       WORLD_NUV = 4 };
enum { BODY_UV_WORLD = 1, BODY_UV_NAME = 2, BODY_UV_DATA = 3, BODY_UV_SHAPE = 4, BODY_NUV = 4 };

/* Re-entrancy: Lua code can run inside a C method (metamethods of its arguments, finalizers
   at any allocation). Each entry point that touches the imp_world runs through
   imp_lua_guarded_call, which counts it in busy: w:close() while busy only marks the world
   closed (new calls raise "the world is closed") and the last method to finish frees it and
   raises "the world was closed while <method> was running"; an exclusive method (one that
   changes the world) refuses to start while another method of the world is running. */
typedef struct world_ud {
    imp_world *w;          /* NULL once freed */
    int closed;            /* w:close() was called; w is freed when busy drops to 0 */
    int busy;              /* guarded calls running on this world */
    const char *running;   /* the outermost of them (its name), for errors */
    lua_Integer material_version;  /* of the palette when the pair table was resolved */
    /* timed loads (lua_load.c): the thread stepping the world and the stack index of the
       functions' table while it steps, and the first failure of a function in that step */
    lua_State *load_L;
    int load_fns;
    int load_failed;
    char load_error[400];
} world_ud;

typedef struct body_ud {
    imp_body_id id;
} body_ud;

typedef struct spring_ud {
    imp_spring_id id;
} spring_ud;

/* What the value at argument 1 of a guarded function is (its world is guarded). */
enum { IMP_ON_WORLD = 0, IMP_ON_BODY = 1, IMP_ON_SPRING = 2, IMP_ON_LOAD = 3 };
/* IMP_SHARED: may run while another method of the world runs (reads nothing but the world,
   changes nothing the running method may hold); IMP_EXCLUSIVE: refuses to. */
enum { IMP_SHARED = 0, IMP_EXCLUSIVE = 1 };

/* Calls f with the values 1..n of the current frame as arguments, the world reached from
   argument 1 (see `on`) marked busy meanwhile, and returns f's results (on top of the stack).
   When argument 1 is not of the kind `on` says, calls f directly (it raises its type error).
   what names the call in errors ("World:add_body"); it must stay valid during the call. */
int imp_lua_guarded_call(lua_State *L, int n, lua_CFunction f, int on, const char *what, int mode);
/* Like luaL_setfuncs(L, l, 0) for the table on top of the stack, each function wrapped in
   imp_lua_guarded_call under the name prefix..name. */
void imp_lua_set_guarded(lua_State *L, const luaL_Reg *l, const char *prefix, int on, int mode);
/* Wraps (as exclusive) every C function of the table on top of the stack that is not wrapped
   yet; lua_core.c runs it on core.World and the dem functions after all files registered. */
void imp_lua_guard_table(lua_State *L, const char *prefix, const char *name_prefix, int on);
/* The world userdata's state: 1 when open (not closed, not freed). */
int imp_lua_world_open(const world_ud *u);

/* The open world at idx (raises when not a world or closed). */
imp_world *imp_lua_check_world(lua_State *L, int idx);
/* Pushes the Body userdata of a slot of the world at world_idx (the same object each time). */
void imp_lua_push_body(lua_State *L, int world_idx, int slot);
/* The live body at idx; fills *w with its world. what names the caller in errors. */
imp_body_id imp_lua_check_body(lua_State *L, int idx, imp_world **w);
/* The same for a body that must belong to world w (e.g. a spring end). */
imp_body_id imp_lua_check_body_of(lua_State *L, int idx, imp_world *w, const char *what,
                                  const char *name);
/* Pushes "'name' (#slot)" or "#slot" for a body slot of the world at world_idx. */
const char *imp_lua_body_label(lua_State *L, int world_idx, int slot);
/* Creates a Body userdata for a new slot and registers it in the world at world_idx. */
void imp_lua_new_body(lua_State *L, int world_idx, imp_body_id id, int name_idx, int data_idx,
                      int shape_idx);

/* The world's index of the material named by the string at name_idx (copied from the palette,
   pairs resolved); raises for an unknown name. *density gets the material's density. */
int imp_lua_world_material(lua_State *L, int world_idx, int name_idx, const char *what,
                           double *density);
/* Re-reads the contact-pair materials when the palette changed since the last time. */
void imp_lua_world_sync_materials(lua_State *L, int world_idx);
extern const luaL_Reg imp_lua_contact_methods[];  /* World:_events, World:contacts */
extern const luaL_Reg imp_lua_event_flag_methods[];  /* World:_contact_events */
extern const luaL_Reg imp_lua_query_methods[];    /* World:distance */

/* The 2D engine (lua_engine2d.c): world options, connector methods (its statistics come
   from its strategy table, engine2d_strategy.c). */
void imp_lua_read_engine2d(lua_State *L, int idx, const char *what, imp_engine2d_def *d);
extern const luaL_Reg imp_lua_engine2d_methods[];
int imp_lua_engine2d_contacts(lua_State *L);  /* World:contacts under impulse / contact */

void imp_lua_open_world(lua_State *L);
void imp_lua_open_material(lua_State *L);
void imp_lua_open_body(lua_State *L);
void imp_lua_open_spring(lua_State *L);
/* core.world_state_export / _import / _swap (lua_world_state.c): World:save, impact.load. */
void imp_lua_open_world_state(lua_State *L);
/* World:add_spring and World:remove_spring (lua_spring.c). */
int imp_lua_world_add_spring(lua_State *L);
int imp_lua_world_remove_spring(lua_State *L);
/* World:add_load, World:remove_load, World:loads (lua_load.c). */
void imp_lua_open_load(lua_State *L);
int imp_lua_world_add_load(lua_State *L);
int imp_lua_world_remove_load(lua_State *L);
int imp_lua_world_loads(lua_State *L);
/* Around stepping the world at world_idx: begin lets the timed loads' functions run on L (it
   pushes their table when there are any: end pops it); after a failed step, the message of a
   function that failed in it, else NULL. */
void imp_lua_loads_begin(lua_State *L, int world_idx);
void imp_lua_loads_end(lua_State *L, int world_idx);
const char *imp_lua_loads_failure(lua_State *L, int world_idx);

/* Collision filters (lua_filter.c). Reads the filter table at idx ({category =, mask =,
   group =}; absent keys take the defaults 1, 0xFFFF, 0) into *cat, *mask, *group; errors name
   what and the table as `name` ("option 'filter'", "Body.filter"). */
void imp_lua_read_filter(lua_State *L, int idx, const char *what, const char *name, unsigned *cat,
                         unsigned *mask, int *group);
/* Pushes {category =, mask =, group =} of a body. */
void imp_lua_push_filter(lua_State *L, const imp_body *b);
/* Body methods: set_filter, no_collide, collide_with (changing), should_collide (reading). */
int imp_lua_body_set_filter(lua_State *L);
int imp_lua_body_no_collide(lua_State *L);
int imp_lua_body_collide_with(lua_State *L);
int imp_lua_body_should_collide(lua_State *L);

/* Motion functions of kinematic bodies (lua_motion.c). The pose the callable at fn_idx gives
   for time t (2D: {x, y, angle}, angle optional; 3D: {x, y, z}[, {qw, qx, qy, qz}]; what is
   left out keeps the value of current, a pose of 3 or 7 numbers) into pose; errors say what
   and label (the body). */
void imp_lua_motion_pose(lua_State *L, int fn_idx, double t, int dim, const char *what,
                         const char *label, const double *current, double *pose);
/* Before a step of the world at world_idx: each kinematic body with a motion function gets
   the pose it gives for the end of the step as its target (imp_body_set_target). */
void imp_lua_drive_motions(lua_State *L, int world_idx);
/* Sets (fn_idx > 0) or clears (0) the motion function of slot in the world at world_idx. */
void imp_lua_set_motion(lua_State *L, int world_idx, int slot, int fn_idx);

#endif
