/* bench_util.h: wall clock, CPU time, peak memory and log-log slopes for the C benchmarks. */
#ifndef IMPACT_BENCH_UTIL_H
#define IMPACT_BENCH_UTIL_H

#include <math.h>
#include <sys/resource.h>
#include <time.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of this process (all its threads), seconds */
static inline double bench_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* peak resident set size of this process, MiB */
static inline double bench_peak_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

/* minor page faults of this process so far (first touches of its pages: fresh heap and stack,
   code read for the first time) */
static inline long bench_minor_faults(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_minflt;
}

/* least-squares slope of log(t) against log(n) */
static inline double bench_slope(const double *n, const double *t, int k)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < k; i++) {
        double x = log(n[i]), y = log(t[i]);
        sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
    return (k * sxy - sx * sy) / (k * sxx - sx * sx);
}

#endif
