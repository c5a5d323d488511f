/* ode_gsl.h: GSL's adaptive ODE steppers (gsl_odeiv2) over a state vector, given a
   right-hand side and its context (it knows nothing of worlds: imp_world_ode_new builds one
   over a world's equations of motion). */
#ifndef IMPACT_ODE_GSL_H
#define IMPACT_ODE_GSL_H

#include <stddef.h>

#include <impact/integrator.h>

typedef struct imp_ode imp_ode;

/* What the integrator integrates, and where it counts. */
typedef struct imp_ode_sys {
    imp_rhs_fn rhs;
    void *ctx;
    const imp_integrator_def *def;  /* read at each step (max_substeps, hmax, tolerances) */
    const double *dt;               /* the outer step (s), read at each step */
    size_t stride;                  /* numbers per body: a culprit is index / stride */
    long *substeps, *rejected;      /* accepted and rejected internal steps are added here */
} imp_ode_sys;

/* Builds the stepper, control and evolve objects for sys's integrator and a state of dim
   numbers (sys is copied); NULL when out of memory. Allocation happens here, between steps
   only. */
imp_ode *imp_ode_new(const imp_ode_sys *sys, size_t dim);
void imp_ode_free(imp_ode *o);
size_t imp_ode_dim(const imp_ode *o);
/* Forgets the stepper's history (after the state was edited). */
void imp_ode_reset(imp_ode *o);
/* Integrates y from *t to t1 with internal steps of at most hmax (0: no limit), calling
   after_substep(ctx) after each accepted internal step. Returns 0 on success; otherwise fills
   why and returns the GSL status (the caller names the culprits, imp_ode_culprits). Counts
   substeps and rejections into sys's counters. */
int imp_ode_advance(imp_ode *o, double *t, double t1, double *y, void (*after_substep)(void *ctx),
                    char *why, size_t why_len);

/* One accepted internal step from *t towards t1 (at most hmax); 0 on success, else the GSL
   status with why filled. */
int imp_ode_step(imp_ode *o, double *t, double t1, double *y, char *why, size_t why_len);
double imp_ode_get_h(const imp_ode *o);
/* Starts a world step's bookkeeping (imp_ode_advance does it itself): the count of accepted
   internal steps, the collapse check and the blame. Both imp_ode_step and imp_ode_advance
   fail (GSL_ETOL, why filled) when the step size collapses: 200 accepted internal steps in a
   row shorter than 1e-12 of max(|t|, dt). */
void imp_ode_begin_step(imp_ode *o);
/* Whether a status of imp_ode_step / imp_ode_advance says the forces became non-finite. */
int imp_ode_nonfinite(int status);
/* Accepted internal steps since imp_ode_begin_step. */
long imp_ode_step_substeps(const imp_ode *o);
/* The bodies that limit the step size, into out (slots): after 2000 internal steps in one
   world step, the one whose state most often had the largest scaled error estimate, and a
   second one when it did at least a quarter as often; before, the one with the largest scaled
   error of the last internal step (state y). Returns how many (0, 1 or 2). */
int imp_ode_culprits(const imp_ode *o, const double *y, int out[2]);
void imp_ode_set_h(imp_ode *o, double h);

#endif
