/* dem_comm.c: impact.mpi.dem_comm(), the dem strategy's message layer (src/dem/dem_comm.h) over
 * MPI_COMM_WORLD, for impact.dem_mpi: a light userdata the binding hands to the core's domain
 * decomposition (dem_domain.c), which then calls these functions inside its steps. Sendrecv with
 * a tag of its own (impact.batch's messages use 0..32767 chosen by scripts: 32001 is reserved). */
#include <limits.h>
#include <stdio.h>
#include <mpi.h>
#include <lua.h>
#include <lauxlib.h>

#include "dem_comm.h"

int imp_mpi_dem_comm(lua_State *L);
int imp_mpi_dem_used(void);

enum { DEM_TAG = 32001 };

static int comm_sendrecv(void *ctx, int dest, const void *sbuf, size_t sbytes, int src, void *rbuf,
                         size_t rbytes)
{
    (void)ctx;
    if (sbytes > (size_t)INT_MAX || rbytes > (size_t)INT_MAX) return -1;
    return MPI_Sendrecv(sbuf, (int)sbytes, MPI_BYTE, dest < 0 ? MPI_PROC_NULL : dest, DEM_TAG,
                        rbuf, (int)rbytes, MPI_BYTE, src < 0 ? MPI_PROC_NULL : src, DEM_TAG,
                        MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS ? 0 : -1;
}

static int comm_allreduce(void *ctx, double *v, int n, int op)
{
    (void)ctx;
    return MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, op == IMP_DEM_COMM_MAX ? MPI_MAX : MPI_SUM,
                         MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -1;
}

static int used;

static void comm_abort(void *ctx, const char *msg)
{
    int rank = 0;
    (void)ctx;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "impact.dem_mpi: rank %d stops every rank: %s\n", rank, msg);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* whether the dem strategy's layer was handed out (lua_mpi.c's finalize then guards against a
   rank that stopped on an error while the others wait for its messages) */
int imp_mpi_dem_used(void) { return used; }

/* impact.mpi.dem_comm() -> light userdata (the table lives as long as the module) */
int imp_mpi_dem_comm(lua_State *L)
{
    static imp_dem_comm comm;
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (!init || fin) return luaL_error(L, "impact.mpi.dem_comm: MPI is not running (call impact.mpi.init() first)");
    MPI_Comm_rank(MPI_COMM_WORLD, &comm.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &comm.size);
    comm.ctx = NULL;
    comm.sendrecv = comm_sendrecv;
    comm.allreduce = comm_allreduce;
    comm.abort = comm_abort;
    used = 1;
    lua_pushlightuserdata(L, &comm);
    return 1;
}
