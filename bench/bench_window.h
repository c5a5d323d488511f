/* bench_window.h: a window of a run for the DEM benches (bench_dem.c's and bench_dem_large.c's
   window modes): FROM steps, then STEPS measured, the only ones callgrind counts when the bench
   runs under valgrind --tool=callgrind --instr-atstart=no. */
#ifndef IMPACT_BENCH_WINDOW_H
#define IMPACT_BENCH_WINDOW_H

#include <time.h>

#include "dem.h"
#include "world_internal.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define BENCH_CALLGRIND 1
#endif
#endif

/* The dem's counts at a window's start, that the caller reports the window's changes from */
typedef struct bench_window_start {
    long collider_runs;
    int real, all; /* real interactions; all of them, potential ones too */
} bench_window_start;

/* `from` steps of w, not counted, the dem's counts then into *start, then `steps` steps with
   callgrind's instrumentation on; *cpu the processor seconds (clock()) the window's steps took
   (0 when a step before it failed). 0, or 1 when a step failed. */
static inline int bench_window_run(imp_world *w, long from, long steps, bench_window_start *start, double *cpu)
{
    int rc = 0;
    for (long k = 0; k < from && rc == 0; k++) {
        rc = imp_world_step(w) != IMP_OK;
    }
    start->collider_runs = w->dem->collider_runs;
    start->real = imp_dem_real_count(w->dem);
    start->all = w->dem->ninter;
    *cpu = 0.0;
    if (rc != 0) {
        return rc;
    }
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
