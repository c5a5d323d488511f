/* integrate_fixed.h: fixed-step explicit methods over a state vector of n numbers. */
#ifndef IMPACT_INTEGRATE_FIXED_H
#define IMPACT_INTEGRATE_FIXED_H

#include <stddef.h>

#include "world.h"

typedef void (*imp_rhs_fn)(void *ctx, double t, const double *y, double *dydt);

/* Advances the state y of world w (n numbers) from t by h with euler, modified_euler (Heun)
   or rk4, f(w, t, y, dydt) being its equations of motion. work holds 5 n numbers.
   Right-hand-side evaluations: 1, 2, 4. A 2D world stepped by the impulse or contact
   strategy with time_stepping = "symplectic_euler" (engine2d.h) takes instead one
   semi-implicit Euler step whatever kind says (1 evaluation, imp_engine2d_symplectic_step). */
void imp_fixed_step(imp_integrator_kind kind, imp_rhs_fn f, struct imp_world *w, double t,
                    double h, double *y, size_t n, double *work);

#endif
