/* scalar.h: scalar constants and helpers shared by every layer. */
#ifndef IMPACT_SCALAR_H
#define IMPACT_SCALAR_H

#include <math.h>

#define IMP_PI 3.14159265358979323846

static inline double imp_min(double a, double b) { return a < b ? a : b; }
static inline double imp_max(double a, double b) { return a > b ? a : b; }
static inline double imp_clamp(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }
static inline double imp_sq(double x) { return x * x; }
/* fmin and fmax as the C library takes them here (x86-64 glibc: minsd / maxsd, y when the two
   compare equal, the number when one is NaN), inline where the call cost more than the answer:
   the same bits as fmin(x, y) and fmax(x, y) */
static inline double imp_fmin(double x, double y) { return (y <= x || x != x) ? y : x; }
static inline double imp_fmax(double x, double y) { return (y >= x || x != x) ? y : x; }

#endif
