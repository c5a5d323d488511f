/* ode_gsl.c: a right-hand side (ode_gsl.h) driven by gsl_odeiv2 (rkf45, rkck, rk8pd,
   msbdf). GSL's error handler is switched off by the Lua module; here every status is
   checked and turned into a message. */
#include "ode_gsl.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct imp_ode {
    imp_ode_sys p;     /* the right-hand side, settings and counters */
    size_t dim;
    gsl_odeiv2_system sys;
    gsl_odeiv2_driver *driver;
    double h;          /* the last step size, kept between world steps */
    double *jac_y;     /* msbdf Jacobian scratch: perturbed state and two derivatives */
    double *jac_f0, *jac_f1;
    /* the current world step (imp_ode_begin_step): accepted internal steps, the run of
       collapsed ones, and per slot how often its state held the largest scaled error */
    long step_substeps;
    long collapsed_run;
    double window_t;   /* t at the start of the current window of WINDOW accepted steps */
    long *blame;
    int nblame;
};

/* Internal steps of one world step after which each accepted one records which body limits
   the step size (an O(bodies) scan, small beside the step's evaluations; most steps of valid
   scenes take fewer, and the blame changes no result), so that a step failing at the first
   pace check (WINDOW) can name the body. */
enum { BLAME_AFTER = 100 };
/* The step size has collapsed when COLLAPSE_RUN accepted internal steps in a row are shorter
   than HMIN_REL times the larger of |t| and the world step: the step then cannot end within
   any reasonable budget (GSL would go on to max_substeps). A restart after an event takes a
   few short steps, which grow fivefold per step. */
#define HMIN_REL 1e-12
enum { COLLAPSE_RUN = 200 };
/* Every WINDOW accepted internal steps of one world step, the progress over them is
   extrapolated: when the rest of the step would need more than HOPELESS times max_substeps
   internal steps at that pace, the step fails then rather than after max_substeps of them.
   Valid scenes need at most about 1500 steps in all, not thousands of such short ones; a
   window of 250 keeps a hopeless step of an expensive scene (rk8pd on two cones in contact:
   1.8 ms an internal step) under a second. */
enum { WINDOW = 250, HOPELESS = 100 };

static int ode_rhs(double t, const double y[], double dydt[], void *params)
{
    imp_ode *o = params;
    o->p.rhs(o->p.ctx, t, y, dydt);
    for (size_t i = 0; i < o->dim; i++) {
        if (!isfinite(dydt[i])) {
            return GSL_EBADFUNC;
        }
    }
    return GSL_SUCCESS;
}

/* Jacobian by forward differences, column by column: dim + 1 evaluations. The forces do not
   depend on time explicitly within a step, so df/dt = 0. */
static int ode_jacobian(double t, const double y[], double *dfdy, double dfdt[], void *params)
{
    imp_ode *o = params;
    size_t n = o->dim;
    memcpy(o->jac_y, y, n * sizeof *y);
    o->p.rhs(o->p.ctx, t, y, o->jac_f0);
    for (size_t j = 0; j < n; j++) {
        double yj = y[j];
        double h = 1.4901161193847656e-08 * fmax(fabs(yj), 1.0);  /* sqrt(DBL_EPSILON) */
        o->jac_y[j] = yj + h;
        h = o->jac_y[j] - yj;  /* the step actually represented */
        o->p.rhs(o->p.ctx, t, o->jac_y, o->jac_f1);
        o->jac_y[j] = yj;
        for (size_t i = 0; i < n; i++) {
            dfdy[i * n + j] = (o->jac_f1[i] - o->jac_f0[i]) / h;
        }
    }
    for (size_t i = 0; i < n; i++) {
        dfdt[i] = 0.0;
        if (!isfinite(o->jac_f0[i])) {
            return GSL_EBADFUNC;
        }
    }
    return GSL_SUCCESS;
}

static const gsl_odeiv2_step_type *step_type(imp_integrator_kind k)
{
    switch (k) {
    case IMP_RKF45: return gsl_odeiv2_step_rkf45;
    case IMP_RKCK: return gsl_odeiv2_step_rkck;
    case IMP_RK8PD: return gsl_odeiv2_step_rk8pd;
    case IMP_MSBDF: return gsl_odeiv2_step_msbdf;
    default: return NULL;
    }
}

imp_ode *imp_ode_new(const imp_ode_sys *sys, size_t dim)
{
    /* GSL's default error handler aborts the process; the core checks every status instead,
       also when it is used from C without the Lua module. */
    gsl_set_error_handler_off();
    const imp_integrator_def *d = sys->def;
    const gsl_odeiv2_step_type *type = step_type(d->kind);
    if (type == NULL || dim == 0) {
        return NULL;
    }
    imp_ode *o = calloc(1, sizeof *o);
    if (o == NULL) {
        return NULL;
    }
    o->p = *sys;
    o->dim = dim;
    o->sys.function = ode_rhs;
    o->sys.jacobian = d->kind == IMP_MSBDF ? ode_jacobian : NULL;
    o->sys.dimension = dim;
    o->sys.params = o;
    o->h = d->h0 > 0.0 ? d->h0 : *sys->dt / 100.0;
    if (d->kind == IMP_MSBDF) {
        o->jac_y = malloc(3 * dim * sizeof *o->jac_y);
        if (o->jac_y == NULL) {
            free(o);
            return NULL;
        }
        o->jac_f0 = o->jac_y + dim;
        o->jac_f1 = o->jac_y + 2 * dim;
    }
    o->nblame = (int)(dim / sys->stride);
    o->blame = calloc((size_t)o->nblame, sizeof *o->blame);
    if (o->blame == NULL) {
        imp_ode_free(o);
        return NULL;
    }
    o->driver = gsl_odeiv2_driver_alloc_y_new(&o->sys, type, o->h, d->atol, d->rtol);
    if (o->driver == NULL) {
        imp_ode_free(o);
        return NULL;
    }
    return o;
}

void imp_ode_free(imp_ode *o)
{
    if (o == NULL) {
        return;
    }
    if (o->driver != NULL) {
        gsl_odeiv2_driver_free(o->driver);
    }
    free(o->jac_y);
    free(o->blame);
    free(o);
}

size_t imp_ode_dim(const imp_ode *o) { return o->dim; }

void imp_ode_reset(imp_ode *o)
{
    gsl_odeiv2_evolve_reset(o->driver->e);
    gsl_odeiv2_step_reset(o->driver->s);
}

double imp_ode_get_h(const imp_ode *o) { return o->h; }
void imp_ode_set_h(imp_ode *o, double h) { o->h = h; }

void imp_ode_begin_step(imp_ode *o)
{
    if (o->step_substeps > BLAME_AFTER) {
        memset(o->blame, 0, (size_t)o->nblame * sizeof *o->blame);
    }
    o->step_substeps = 0;
    o->collapsed_run = 0;
    o->window_t = NAN;
}

long imp_ode_step_substeps(const imp_ode *o) { return o->step_substeps; }

int imp_ode_nonfinite(int status) { return status == GSL_EBADFUNC; }

/* The slot whose state component has the largest error estimate of the last internal step,
   scaled as GSL's control scales it (atol + rtol |y|); 0 when there is none. */
static int worst_slot(const imp_ode *o, const double *y)
{
    const imp_integrator_def *d = o->p.def;
    const double *yerr = o->driver->e->yerr;
    double worst = -1.0;
    size_t at = 0;
    for (size_t i = 0; i < o->dim; i++) {
        double r = fabs(yerr[i]) / (d->atol + d->rtol * fabs(y[i]));
        if (r > worst) {  /* NaN never wins */
            worst = r;
            at = i;
        }
    }
    return worst > 0.0 ? (int)(at / o->p.stride) : 0;
}

int imp_ode_culprits(const imp_ode *o, const double *y, int out[2])
{
    int best = 0, second = 0;
    for (int i = 1; i < o->nblame; i++) {
        if (o->blame[i] > o->blame[best]) {
            best = i;
        }
    }
    for (int i = 1; i < o->nblame; i++) {
        if (i != best && o->blame[i] > o->blame[second]) {
            second = i;
        }
    }
    if (o->blame[best] == 0) {
        out[0] = worst_slot(o, y);
        return out[0] > 0;
    }
    out[0] = best;
    /* a partner that limits the step nearly as often (two light bodies on a stiff spring) */
    if (second > 0 && 4 * o->blame[second] >= o->blame[best]) {
        out[1] = second;
        return 2;
    }
    return 1;
}

/* Bookkeeping after an accepted internal step from t0 to t (towards t1): blame, and the
   collapse of the step size. Returns 0, or GSL_ETOL with why filled. */
static int after_accepted(imp_ode *o, double t0, double t, double t1, const double *y, char *why,
                          size_t why_len)
{
    double h = t - t0;
    if (++o->step_substeps > BLAME_AFTER) {
        o->blame[worst_slot(o, y)]++;
    }
    if (o->step_substeps == 1 || isnan(o->window_t)) {
        o->window_t = t0;
    }
    if (o->step_substeps % WINDOW == 0 && t < t1) {
        double pace = (t - o->window_t) / WINDOW;  /* mean accepted step of the window */
        double need = (t1 - t) / pace;
        o->window_t = t;
        if (!(need <= (double)HOPELESS * (double)o->p.def->max_substeps)) {
            snprintf(why, why_len, "the step size collapsed: the last %d internal steps took "
                                   "%g s on average, the rest of the step (%g s from t = %.17g) "
                                   "would take about %g more, over %d times max_substeps = %ld",
                     WINDOW, pace, t1 - t, t, need, HOPELESS, o->p.def->max_substeps);
            return GSL_ETOL;
        }
    }
    double hmin = HMIN_REL * fmax(fabs(t), *o->p.dt);
    if (h > hmin || t >= t1) {
        o->collapsed_run = 0;
        return GSL_SUCCESS;
    }
    if (++o->collapsed_run < COLLAPSE_RUN && h > 0.0) {
        return GSL_SUCCESS;
    }
    snprintf(why, why_len, "the step size collapsed: %ld internal steps in a row shorter than "
                           "%g s (1e-12 of max(|t|, dt)), the last %g s at t = %.17g",
             o->collapsed_run, hmin, h, t);
    return GSL_ETOL;
}

static void gsl_failure(int status, char *why, size_t why_len)
{
    snprintf(why, why_len, "%s (GSL status %d: %s)",
             status == GSL_EBADFUNC ? "the forces became non-finite"
                                    : "the adaptive integrator failed",
             status, gsl_strerror(status));
}

int imp_ode_step(imp_ode *o, double *t, double t1, double *y, char *why, size_t why_len)
{
    const imp_integrator_def *d = o->p.def;
    gsl_odeiv2_evolve *e = o->driver->e;
    unsigned long count0 = e->count, failed0 = e->failed_steps;
    if (d->hmax > 0.0 && o->h > d->hmax) {
        o->h = d->hmax;
    }
    double t0 = *t;
    int status = gsl_odeiv2_evolve_apply(e, o->driver->c, o->driver->s, &o->sys, t, t1, &o->h, y);
    if (status != GSL_SUCCESS) {
        gsl_failure(status, why, why_len);
    } else {
        status = after_accepted(o, t0, *t, t1, y, why, why_len);
    }
    *o->p.substeps += (long)(e->count - count0);
    *o->p.rejected += (long)(e->failed_steps - failed0);
    return status;
}

int imp_ode_advance(imp_ode *o, double *t, double t1, double *y, void (*after_substep)(void *ctx),
                    char *why, size_t why_len)
{
    const imp_integrator_def *d = o->p.def;
    gsl_odeiv2_evolve *e = o->driver->e;
    unsigned long count0 = e->count, failed0 = e->failed_steps;
    long substeps = 0;
    int status = GSL_SUCCESS;
    imp_ode_begin_step(o);
    while (*t < t1) {
        if (d->hmax > 0.0 && o->h > d->hmax) {
            o->h = d->hmax;
        }
        double t0 = *t;
        status = gsl_odeiv2_evolve_apply(e, o->driver->c, o->driver->s, &o->sys, t, t1, &o->h, y);
        if (status != GSL_SUCCESS) {
            gsl_failure(status, why, why_len);
            break;
        }
        if ((status = after_accepted(o, t0, *t, t1, y, why, why_len)) != GSL_SUCCESS) {
            break;
        }
        if (++substeps > d->max_substeps) {
            snprintf(why, why_len, "more than %ld internal steps in one step (step size %g at "
                                   "t = %.17g); raise the integrator option max_substeps or "
                                   "lower dt if the scene is meant to be this stiff",
                     d->max_substeps, o->h, *t);
            status = GSL_EMAXITER;
            break;
        }
        after_substep(o->p.ctx);
    }
    *o->p.substeps += (long)(e->count - count0);
    *o->p.rejected += (long)(e->failed_steps - failed0);
    return status;
}
