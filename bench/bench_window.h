/* bench_window.h: a window of a run for the DEM benches (bench_dem.c's and bench_dem_large.c's
   window modes): FROM steps, then STEPS measured, the only ones callgrind counts when the bench
   runs under valgrind --tool=callgrind --instr-atstart=no. */
#ifndef IMPACT_BENCH_WINDOW_H
#define IMPACT_BENCH_WINDOW_H

#include <time.h>

#include "world_internal.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define BENCH_CALLGRIND 1
#endif
#endif

/* `steps` steps of w with callgrind's instrumentation on (the caller took the steps before the
   window itself, and the counts it reports from); *cpu the processor seconds (clock()) they
   took. 0, or 1 when a step failed. */
static inline int bench_window_run(imp_world *w, long steps, double *cpu)
{
    int rc = 0;
    clock_t c0 = clock();
#ifdef BENCH_CALLGRIND
    CALLGRIND_START_INSTRUMENTATION;
#endif
    for (long k = 0; k < steps && rc == 0; k++) {
        rc = imp_world_step(w) != IMP_OK;
    }
#ifdef BENCH_CALLGRIND
    CALLGRIND_STOP_INSTRUMENTATION;
#endif
    *cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
    return rc;
}

#endif
