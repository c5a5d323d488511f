/* scalar.h: scalar constants and helpers shared by every layer. */
#ifndef IMPACT_SCALAR_H
#define IMPACT_SCALAR_H

#include <math.h>

#define IMP_PI 3.14159265358979323846

static inline double imp_min(double a, double b) { return a < b ? a : b; }
static inline double imp_max(double a, double b) { return a > b ? a : b; }
static inline double imp_clamp(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }
static inline double imp_sq(double x) { return x * x; }

#endif
