/* ode_gsl.h: GSL's adaptive ODE steppers (gsl_odeiv2) over a world's state vector. */
#ifndef IMPACT_ODE_GSL_H
#define IMPACT_ODE_GSL_H

#include <stddef.h>

#include "world.h"

/* Builds the stepper, control and evolve objects for the world's integrator and a state of
   dim numbers; NULL when out of memory. Allocation happens here, between steps only. */
imp_ode *imp_ode_new(imp_world *w, size_t dim);
void imp_ode_free(imp_ode *o);
size_t imp_ode_dim(const imp_ode *o);
/* Forgets the stepper's history (after the state was edited). */
void imp_ode_reset(imp_ode *o);
/* Integrates y from *t to t1 with internal steps of at most hmax (0: no limit), calling
   after_substep(w) after each accepted internal step. Returns 0 on success; otherwise fills
   why and returns the GSL status. Counts substeps and rejections into the world's stats. */
int imp_ode_advance(imp_ode *o, double *t, double t1, double *y, void (*after_substep)(imp_world *),
                    char *why, size_t why_len);

/* One accepted internal step from *t towards t1 (at most hmax); 0 on success, else the GSL
   status with why filled. */
int imp_ode_step(imp_ode *o, double *t, double t1, double *y, char *why, size_t why_len);
double imp_ode_get_h(const imp_ode *o);
void imp_ode_set_h(imp_ode *o, double h);

#endif
