/* impact/integrator.h: the integration methods, their settings and the form of a right-hand
   side, shared by the world and the integrators (integrate_fixed.h, ode_gsl.h), which know
   nothing of worlds. */
#ifndef IMPACT_PUBLIC_INTEGRATOR_H
#define IMPACT_PUBLIC_INTEGRATOR_H

typedef enum imp_integrator_kind {
    IMP_EULER = 0,           /* explicit Euler, fixed step (for comparison only) */
    IMP_MODIFIED_EULER,      /* Heun's method, fixed step, 2 evaluations */
    IMP_RK4,                 /* classical Runge-Kutta, fixed step, 4 evaluations */
    IMP_RKF45,               /* GSL adaptive: Runge-Kutta-Fehlberg 4(5) */
    IMP_RKCK,                /* GSL adaptive: Runge-Kutta Cash-Karp 4(5) */
    IMP_RK8PD,               /* GSL adaptive: Runge-Kutta Prince-Dormand 8(9) */
    IMP_MSBDF,               /* GSL adaptive: multistep BDF for stiff problems (Jacobian by
                                finite differences of the right-hand side) */
    IMP_INTEGRATOR_COUNT
} imp_integrator_kind;

extern const char *const imp_integrator_names[]; /* indexed by imp_integrator_kind, NULL-ended */

typedef struct imp_integrator_def {
    imp_integrator_kind kind;
    double rtol, atol;   /* adaptive methods: per-component error bound atol + rtol |y| */
    double hmax;         /* adaptive: largest internal step (s); 0 = dt */
    double h0;           /* adaptive: first internal step (s); 0 = dt / 100 */
    long max_substeps;   /* adaptive: internal steps allowed in one world step */
} imp_integrator_def;

/* dy/dt at (t, y) into dydt; ctx is the caller's (the world). */
typedef void (*imp_rhs_fn)(void *ctx, double t, const double *y, double *dydt);

#endif
