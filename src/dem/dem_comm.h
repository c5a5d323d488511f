/* dem_comm.h: what the dem strategy's domain decomposition (dem_domain.c) needs of a message
   layer, as a table of functions: the core stays free of MPI; src/mpi/dem_comm.c fills the table
   with Open MPI's calls (built only with mpicc). Plain C types only, so the MPI module includes
   this header and nothing else of the core. */
#ifndef IMPACT_DEM_COMM_H
#define IMPACT_DEM_COMM_H

#include <stddef.h>

enum { IMP_DEM_COMM_SUM = 0, IMP_DEM_COMM_MAX = 1 };

typedef struct imp_dem_comm {
    void *ctx;
    int rank, size;
    /* Sends sbytes from sbuf to rank dest and receives exactly rbytes into rbuf from rank src,
       together (no deadlock whatever the order of the ranks' calls); dest or src -1: none. 0, or
       -1 on failure. */
    int (*sendrecv)(void *ctx, int dest, const void *sbuf, size_t sbytes, int src, void *rbuf,
                    size_t rbytes);
    /* v[0..n-1] reduced over every rank in place (IMP_DEM_COMM_SUM or _MAX); 0 or -1. */
    int (*allreduce)(void *ctx, double *v, int n, int op);
    /* Stops every rank after an error of this one inside a step (the others would wait for its
       messages forever): says msg and does not return. NULL: none. */
    void (*abort)(void *ctx, const char *msg);
} imp_dem_comm;

#endif
