/* impact.mpi: a small Lua binding to the system MPI (Open MPI), for impact.batch's sweeps
 * under mpirun. Strings only: send(dest, s [, tag]) and recv([source [, tag]]) -> s, source, tag.
 * recv waits by probing and sleeping (a blocking MPI_Recv spins a core at 100 %, which a rank
 * that only hands out jobs must not do on a shared machine). MPI is finalized when the Lua
 * state closes, unless finalize() was called first. Built only when mpicc is installed. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <lua.h>
#include <lauxlib.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

LUAMOD_API int luaopen_impact_mpi(lua_State *L);
int imp_mpi_dem_comm(lua_State *L); /* dem_comm.c: the dem strategy's message layer */
int imp_mpi_dem_used(void);

static int mpi_up(void)
{
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    return init && !fin;
}

static void check_up(lua_State *L)
{
    if (!mpi_up()) luaL_error(L, "impact.mpi: MPI is not running (call impact.mpi.init() first)");
}

static int l_init(lua_State *L)
{
    int init = 0, fin = 0, rank = 0, size = 1;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (fin) return luaL_error(L, "impact.mpi.init: MPI was already finalized in this process");
    if (!init && MPI_Init(NULL, NULL) != MPI_SUCCESS)
        return luaL_error(L, "impact.mpi.init: MPI_Init failed");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    lua_pushinteger(L, rank);
    lua_pushinteger(L, size);
    return 2;
}

static int l_initialized(lua_State *L)
{
    lua_pushboolean(L, mpi_up());
    return 1;
}

static int l_rank(lua_State *L)
{
    int rank = 0;
    check_up(L);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    lua_pushinteger(L, rank);
    return 1;
}

static int l_size(lua_State *L)
{
    int size = 1;
    check_up(L);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    lua_pushinteger(L, size);
    return 1;
}

static int check_peer(lua_State *L, int arg, const char *what)
{
    int size = 1;
    lua_Integer r = luaL_checkinteger(L, arg);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (r < 0 || r >= size)
        luaL_error(L, "impact.mpi.%s: rank must be in [0, %d], got %d", what, size - 1, (int)r);
    return (int)r;
}

static int check_tag(lua_State *L, int arg, const char *what)
{
    lua_Integer t = luaL_optinteger(L, arg, 0);
    if (t < 0 || t > 32767)
        luaL_error(L, "impact.mpi.%s: tag must be in [0, 32767], got %d", what, (int)t);
    return (int)t;
}

static int l_send(lua_State *L)
{
    size_t n = 0;
    int dest, tag;
    const char *s;
    check_up(L);
    dest = check_peer(L, 1, "send");
    s = luaL_checklstring(L, 2, &n);
    tag = check_tag(L, 3, "send");
    if (n > (size_t)INT_MAX) return luaL_error(L, "impact.mpi.send: message too long");
    if (MPI_Send(s, (int)n, MPI_CHAR, dest, tag, MPI_COMM_WORLD) != MPI_SUCCESS)
        return luaL_error(L, "impact.mpi.send: MPI_Send failed");
    return 0;
}

static int l_recv(lua_State *L)
{
    int src = MPI_ANY_SOURCE, tag = MPI_ANY_TAG, flag = 0, n = 0;
    long wait_ns = 20000;
    MPI_Status st;
    luaL_Buffer b;
    char *p;
    check_up(L);
    if (!lua_isnoneornil(L, 1)) src = check_peer(L, 1, "recv");
    if (!lua_isnoneornil(L, 2)) tag = check_tag(L, 2, "recv");
    for (;;) {
        if (MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS)
            return luaL_error(L, "impact.mpi.recv: MPI_Iprobe failed");
        if (flag) break;
        {
            struct timespec ts = { 0, wait_ns };
            nanosleep(&ts, NULL);
        }
        if (wait_ns < 2000000) wait_ns *= 2; /* up to 2 ms between probes */
    }
    MPI_Get_count(&st, MPI_CHAR, &n);
    p = luaL_buffinitsize(L, &b, (size_t)n);
    if (MPI_Recv(p, n, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
        != MPI_SUCCESS)
        return luaL_error(L, "impact.mpi.recv: MPI_Recv failed");
    luaL_pushresultsize(&b, (size_t)n);
    lua_pushinteger(L, st.MPI_SOURCE);
    lua_pushinteger(L, st.MPI_TAG);
    return 3;
}

static int l_wtime(lua_State *L)
{
    lua_pushnumber(L, MPI_Wtime());
    return 1;
}

/* With the dem strategy's layer in use, the ranks must all reach the end: a rank that stopped on
 * an error (its Lua state closing) would wait in MPI_Finalize for ranks that wait for its
 * messages. A barrier polled for IMPACT_MPI_FINALIZE_WAIT seconds (default 60) first, then
 * MPI_Abort, so mpirun ends instead of hanging. */
static void finish_or_abort(void)
{
    MPI_Request req;
    int done = 0, rank = 0;
    const char *env = getenv("IMPACT_MPI_FINALIZE_WAIT");
    double wait = env != NULL ? atof(env) : 60.0, t0 = MPI_Wtime();
    if (MPI_Ibarrier(MPI_COMM_WORLD, &req) != MPI_SUCCESS) return;
    while (!done && MPI_Wtime() - t0 < wait) {
        struct timespec ts = { 0, 1000000 };
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (!done) nanosleep(&ts, NULL);
    }
    if (!done) {
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        fprintf(stderr, "impact.mpi: rank %d: the other ranks did not end within %g s (did one "
                "stop on an error?): stopping every rank\n", rank, wait);
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static int l_finalize(lua_State *L)
{
    (void)L;
    if (mpi_up()) {
        if (imp_mpi_dem_used()) finish_or_abort();
        MPI_Finalize();
    }
    return 0;
}

static const luaL_Reg funcs[] = {
    { "init", l_init }, { "initialized", l_initialized }, { "rank", l_rank }, { "size", l_size },
    { "send", l_send }, { "recv", l_recv }, { "wtime", l_wtime }, { "finalize", l_finalize },
    { "dem_comm", imp_mpi_dem_comm },
    { NULL, NULL }
};

LUAMOD_API int luaopen_impact_mpi(lua_State *L)
{
    luaL_checkversion(L);
    luaL_newlib(L, funcs);
    /* a sentinel whose __gc finalizes MPI when the Lua state closes */
    if (luaL_newmetatable(L, "impact.mpi.sentinel")) {
        lua_pushcfunction(L, l_finalize);
        lua_setfield(L, -2, "__gc");
    }
    lua_pop(L, 1);
    if (lua_getfield(L, LUA_REGISTRYINDEX, "impact.mpi.guard") == LUA_TNIL) {
        lua_newuserdatauv(L, 1, 0);
        luaL_setmetatable(L, "impact.mpi.sentinel");
        lua_setfield(L, LUA_REGISTRYINDEX, "impact.mpi.guard");
    }
    lua_pop(L, 1);
    lua_pushliteral(L, "impact.mpi");
    lua_setfield(L, -2, "_NAME");
    return 1;
}
