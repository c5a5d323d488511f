/* integrate_fixed.h: fixed-step explicit methods over a state vector of n numbers. */
#ifndef IMPACT_INTEGRATE_FIXED_H
#define IMPACT_INTEGRATE_FIXED_H

#include <stddef.h>

#include <impact/integrator.h>

/* Advances the state y (n numbers) from t by h with euler, modified_euler (Heun) or rk4,
   f(ctx, t, y, dydt) being its equations of motion. work holds 5 n numbers.
   Right-hand-side evaluations: 1, 2, 4. */
void imp_fixed_step(imp_integrator_kind kind, imp_rhs_fn f, void *ctx, double t, double h,
                    double *y, size_t n, double *work);

#endif
