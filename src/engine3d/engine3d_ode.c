/* engine3d_ode.c: the collision advance of the 3D engine's force-level ("ode") stepping
   (engine3d_ode.h), the 2D engine's (engine2d_step.c, after myPhysicsLab's
   CollisionAdvance) in 3D.

   Over one world step: save the state and take a trial step with the world's fixed-step
   method (RK4 for an adaptive one); under "contact" each evaluation adds the resting
   contacts' forces (engine3d_accel.c). Then detect at the end (gap within distance_tol). A
   point is a collision when it penetrates (d < 0; not a slow overlap shallower than the
   accuracy band under "contact", nor a pair separating faster than velocity_tol), or when it
   approaches faster than velocity_tol already closer than the half gap minus the accuracy
   (d* = distance_tol / 2, accuracy = collision_accuracy d*). Any collision sends the state
   back to the saved one, where the pairs found penetrating that are close enough
   (d < d* + accuracy, approaching) get their impulses; otherwise the next trial step goes to
   the estimated moment the gap is d* (constant normal acceleration between the two
   detections), or, with no estimate or after 3 back-ups in a row, to half the last trial
   (binary search). After an accepted step the imminent collisions close enough are handled.
   max_backups back-ups in a row is an error naming the time and the bodies.

   Impulses: the points within distance_tol of the pairs to handle, with restitution
   (u_N >= -e u_N before) on the colliding ones and none on the resting ones, solved at
   velocity level by the engine's contact problem (engine3d_solve.c): all at once
   ("simultaneous"), or pair by pair in a random order until none approaches, then a last
   inelastic simultaneous pass ("serial", "hybrid": the engine's serial impacts,
   engine3d_step.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine3d.h"
#include "engine3d_joints.h"
#include "engine3d_ode.h"
#include "engine3d_sleep.h"
#include "integrate_fixed.h"
#include "islands.h"
#include "world_internal.h"
#include "resize.h"

/* myPhysicsLab's small impulse: below it no collision event (a resting contact's nudge) */
#define SMALL_IMPULSE 1e-4
/* the 2D impulses' "small" approach (engine2d_impulse.c): slower is no collision to handle */
#define SMALL_VELOCITY 1e-5

void imp_e3_ode_free(imp_e3_ode *o)
{
    if (o == NULL) {
        return;
    }
    imp_coulomb_workspace_destroy(o->ws);
    void *arrays[] = {o->y0, o->pending, o->elastic, o->acc, o->act, o->jac, o->q, o->mu, o->r, o->u,
                      o->warm, o->row_ptr, o->col, o->val, o->dof, o->fj_rp, o->fj_col, o->fm_rp, o->fm_col,
                      o->fj_val, o->fm_val};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
        free(arrays[i]);
    }
    free(o);
}

static int moving(const imp_world *w, int s) { return s > 0 && w->model.bodies[s].active && !w->model.bodies[s].fixed; }

static const double *velocity_of(const imp_world *w, int s)
{
    return moving(w, s) ? w->data.y + (size_t)s * IMP_STRIDE_3D + IMP_VEL_3D : NULL;
}

/* normal velocity of point p at the world's state */
static double normal_velocity(const imp_world *w, const imp_e3_point *p)
{
    double u[3];
    imp_e3_frame_velocity(velocity_of(w, p->a), velocity_of(w, p->b), p->normal, p->t1, p->t2, p->ra, p->rb, u);
    return u[0];
}

static int pending_has(const imp_e3_ode *o, int a, int b)
{
    for (int i = 0; i < o->npending; i++) {
        if (o->pending[2 * i] == a && o->pending[2 * i + 1] == b) {
            return 1;
        }
    }
    return 0;
}

static int pending_add(imp_e3_ode *o, int a, int b)
{
    if (pending_has(o, a, b)) {
        return 0;
    }
    if (imp_grow(&o->pending, &o->pending_cap, o->npending + 1, 2 * sizeof *o->pending) != 0) {
        return -1;  /* two ints a pair */
    }
    o->pending[2 * o->npending] = a;
    o->pending[2 * o->npending + 1] = b;
    o->npending++;
    return 0;
}

/* One world step of the collision advance. */
typedef struct advance {
    imp_world *w;
    imp_engine3d *e;
    imp_e3_ode *o;
    const imp_engine2d_def *d;
    size_t n;
    double target, acc;     /* the half gap, and the accuracy around it */
    double t, t1, h;
    int binary, binary_accepts, stuck, contact;
    long trials;
    int blame_a, blame_b;
    double blame_d, blame_u;
    char *why;
    size_t why_len;
} advance;

static void name_bodies(imp_world *w, int a, int b)
{
    w->data.nerror_bodies = 0;
    if (a > 0) {
        w->data.error_bodies[w->data.nerror_bodies++] = a;
    }
    if (b > 0) {
        w->data.error_bodies[w->data.nerror_bodies++] = b;
    }
}

static imp_status detect(advance *a)
{
    double start = imp_profile_now();
    imp_status st = imp_engine3d_detect(a->w, a->e, 0.0);
    imp_profile_add(&a->w->data.profile, IMP_STAGE_DETECT, start);
    if (st != IMP_OK) {
        snprintf(a->why, a->why_len, "out of memory in the 3D detection");
    }
    return st;
}

/* a point that must not be accepted at the end of a trial step (u: its normal velocity) */
static int colliding(const advance *a, const imp_e3_point *p, double u)
{
    const imp_engine2d_def *d = a->d;
    if (p->distance < 0.0) {
        if (u > d->velocity_tol) {
            return 0;  /* separating fast: left to move apart */
        }
        double depth = -p->distance;
        if (a->contact && fabs(u) <= d->velocity_tol
            && (depth < (d->contact_solver == IMP_SOLVER_PGS ? 2.0 * a->target : d->collision_accuracy * a->target)
                || (depth < d->distance_tol && -u * a->w->model.def.dt < depth))) {
            /* a slow overlap, shallow, or approaching too slowly for its depth to be made by a
               step (a resting contact's drift): a contact its force and extra acceleration hold
               (backing up cannot undo it), as 2D's resting overlaps */
            return 0;
        }
        return 1;
    }
    return u < -d->velocity_tol && p->distance < a->target - a->acc;
}

/* When, in the trial step of length h, point p (found at its end with gap d2 and normal
   velocity v2) was at the half gap: with its normal velocity v1 at the start (the saved
   state), a = (v2 - v1) / h constant, going back s from the end d = d2 - v2 s + a s^2 / 2;
   the smaller positive root. NaN when there is none. */
static double estimate(const advance *a, const imp_e3_point *p, double v2)
{
    double d2 = p->distance, h = a->h;
    if (!(v2 < -1e-3)) {
        return NAN;
    }
    const double *y0 = a->o->y0;
    const double *va = moving(a->w, p->a) ? y0 + (size_t)p->a * IMP_STRIDE_3D + IMP_VEL_3D : NULL;
    const double *vb = moving(a->w, p->b) ? y0 + (size_t)p->b * IMP_STRIDE_3D + IMP_VEL_3D : NULL;
    double u1[3];
    imp_e3_frame_velocity(va, vb, p->normal, p->t1, p->t2, p->ra, p->rb, u1);
    double acc = (v2 - u1[0]) / h, c = d2 - a->target, s;
    if (fabs(acc) * h < 1e-9 * fabs(v2)) {
        s = c / v2;
    } else {
        double disc = v2 * v2 - 2.0 * acc * c;
        if (!(disc >= 0.0)) {
            return h + (a->target - d2) / v2;
        }
        double qq = -0.5 * (-v2 + sqrt(disc));
        s = c / qq;
        if (!(s > 0.0)) {
            s = qq / (0.5 * acc);
        }
    }
    return s > 0.0 ? h - s : NAN;
}

static void push_collision(imp_world *w, double t, const imp_e3_point *p, int n, double u0, double impulse)
{
    imp_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = IMP_EVENT_COLLISION;
    ev.time = t;
    ev.body1 = p->a;
    ev.body2 = p->b;
    for (int k = 0; k < n; k++) {
        for (int i = 0; i < 3; i++) {
            ev.point[i] += 0.5 * (p[k].pa[i] + p[k].pb[i]) / n;
        }
    }
    memcpy(ev.normal, p->normal, sizeof ev.normal);
    ev.value = u0;
    ev.impulse = impulse;
    imp_world_push_event(w, &ev);
}

/* The collision impulses at the world's state (time a->t) when a pair is close enough to the
   half gap and approaching: 1 when applied, 0 when nothing was close, or a status < 0
   (-(status)). after_backup: the gap may be anywhere in [0, d* + accuracy), and the points
   are detected again (else they are the trial step's end, detected already). */
static int handle_close(advance *a, int after_backup)
{
    imp_world *w = a->w;
    imp_engine3d *e = a->e;
    imp_e3_ode *o = a->o;
    const imp_engine2d_def *d = a->d;
    imp_status st = after_backup ? detect(a) : IMP_OK;
    if (st != IMP_OK) {
        return -(int)st;
    }
    double start = imp_profile_now();
    double lo = after_backup ? 0.0 : a->target - a->acc;
    int want = 0;
    if (o->elastic_cap < e->npts) {
        unsigned char *el = realloc(o->elastic, (size_t)e->npts);
        if (el == NULL) {
            snprintf(a->why, a->why_len, "out of memory");
            return -(int)IMP_ERR_NOMEM;
        }
        o->elastic = el;
        o->elastic_cap = e->npts;
    }
    for (int c = 0; c < e->npts; c++) {
        imp_e3_point *p = &e->pts[c];
        double u = normal_velocity(w, p);
        p->u0 = p->ustar = u;
        p->rimp = 0.0;
        p->handled = 0;
        int imminent = u < -d->velocity_tol && p->distance >= 0.0 && p->distance <= d->distance_tol;
        int coll = imminent || pending_has(o, p->a, p->b);
        o->elastic[c] = (unsigned char)(coll && u < -SMALL_VELOCITY);
        /* (a pair found penetrating may be so already here: backing up cannot undo that, its
           impulse stops the approach) */
        double from = imminent ? lo : -d->distance_tol;
        if (coll && u < -SMALL_VELOCITY && p->distance >= from && p->distance < a->target + a->acc) {
            want = 1;
        }
    }
    if (!want) {
        imp_profile_add(&w->data.profile, IMP_STAGE_COLLISIONS, start);
        return 0;
    }
    imp_engine3d_inverse_inertia(w, e);
    for (int s = 0; s < w->model.nslots; s++) {
        const double *v = velocity_of(w, s);
        for (int k = 0; k < 6; k++) {
            e->vel[6 * (size_t)s + k] = v != NULL ? v[k] : 0.0;
        }
    }
    char why[200];
    if (d->collision_handling != IMP_HANDLING_SIMULTANEOUS) {
        /* pair by pair (the engine's serial impacts: u_N >= -e u_N now), then the last pass */
        for (int c = 0; c < e->npts; c++) {
            e->pts[c].r[0] = e->pts[c].r[1] = e->pts[c].r[2] = 0.0;
        }
        st = imp_engine3d_serial_impacts(w, e, INFINITY, why, sizeof why);
        if (st != IMP_OK) {
            snprintf(a->why, a->why_len, "the collision impulses could not be solved at t = %.17g: %s", a->t, why);
            return -(int)st;
        }
    }
    for (int c = 0; c < e->npts; c++) {
        imp_e3_point *p = &e->pts[c];
        p->active = p->distance < d->distance_tol;
        double u = normal_velocity(w, p);
        int simultaneous = d->collision_handling == IMP_HANDLING_SIMULTANEOUS;
        p->bias = simultaneous && o->elastic[c] ? p->e * fmin(u, 0.0) : 0.0;
        p->r[0] = p->r[1] = p->r[2] = 0.0;
    }
    e->failed_a = e->failed_b = -1;
    st = imp_engine3d_solve(w, e, why, sizeof why);
    if (st != IMP_OK) {
        if (e->failed_a >= 0) {
            name_bodies(w, e->failed_a, e->failed_b);
        }
        snprintf(a->why, a->why_len, "the collision impulses could not be solved at t = %.17g: %s", a->t, why);
        return -(int)st;
    }
    for (int s = 1; s < w->model.nslots; s++) {
        if (moving(w, s)) {
            memcpy(w->data.y + (size_t)s * IMP_STRIDE_3D + IMP_VEL_3D, e->vel + 6 * (size_t)s, 6 * sizeof(double));
        }
    }
    /* one collision event per pair that took an impulse */
    for (int i = 0; i < e->npts;) {
        int j = i;
        double impulse = 0.0, u0 = 0.0;
        int coll = 0;
        while (j < e->npts && e->pts[j].a == e->pts[i].a && e->pts[j].b == e->pts[i].b) {
            const imp_e3_point *p = &e->pts[j];
            impulse += p->rimp + (p->active ? p->r[0] : 0.0);
            u0 = fmin(u0, p->u0);
            coll |= o->elastic[j];
            j++;
        }
        if (coll && impulse > SMALL_IMPULSE) {
            e->stats.collisions += d->collision_handling == IMP_HANDLING_SIMULTANEOUS;
            push_collision(w, a->t, &e->pts[i], j - i, u0, impulse);
        }
        i = j;
    }
    for (int c = 0; c < e->npts; c++) {
        e->pts[c].r[0] = e->pts[c].r[1] = e->pts[c].r[2] = 0.0;  /* impulses are no held forces */
        e->pts[c].rimp = 0.0;
    }
    o->npending = 0;
    imp_profile_add(&w->data.profile, IMP_STAGE_COLLISIONS, start);
    return 1;
}

static imp_status check_progress(advance *a)
{
    imp_world *w = a->w;
    if (++a->trials > w->model.def.integrator.max_substeps || !(a->t + a->h > a->t)) {
        name_bodies(w, a->blame_a, a->blame_b);
        int len = a->t + a->h > a->t
            ? snprintf(a->why, a->why_len, "more than %ld trial steps in one step (integrator option "
                       "max_substeps) at t = %.17g (step %g)", w->model.def.integrator.max_substeps, a->t, a->h)
            : snprintf(a->why, a->why_len, "the time no longer advances at t = %.17g (step %g)", a->t, a->h);
        if (a->blame_b > 0 && len > 0 && (size_t)len < a->why_len) {
            snprintf(a->why + len, a->why_len - (size_t)len, "; the last back-up was for bodies #%d and #%d",
                     a->blame_a, a->blame_b);
        }
        return IMP_ERR_SOLVER;
    }
    return IMP_OK;
}

/* The equations of motion the trial steps integrate: the world's (sleeping bodies held,
   islands.h), then the joints' forces (engine3d_joints_ode.c). */
static void rhs(void *ctx, double t, const double *y, double *dydt)
{
    imp_world *w = ctx;
    if (imp_islands_any(w->islands)) {
        imp_islands_rhs(ctx, t, y, dydt);
    } else {
        imp_world_rhs(ctx, t, y, dydt);
    }
    imp_engine3d *e = w->engine3d;
    if (e->joints != NULL && imp_e3_joints_ode_accel(w, e, y, dydt) != IMP_OK) {
        e->ode->joint_error = 1;
    }
}

/* Stage "integrate": saves the state and takes a trial step of a->h from a->t. */
static imp_status integrate(advance *a)
{
    imp_world *w = a->w;
    imp_e3_ode *o = a->o;
    double start = imp_profile_now();
    memcpy(o->y0, w->data.y, a->n * sizeof *w->data.y);
    imp_integrator_kind kind = w->model.def.integrator.kind <= IMP_RK4 ? w->model.def.integrator.kind : IMP_RK4;
    o->in_step = a->contact;
    o->force_error = 0;
    o->joint_error = 0;
    imp_fixed_step(kind, rhs, w, a->t, a->h, w->data.y, a->n, w->scratch.work);
    o->in_step = 0;
    if (o->joint_error) {
        snprintf(a->why, a->why_len, "out of memory for the joints' forces at t = %.17g", a->t);
        return IMP_ERR_NOMEM;
    }
    w->data.stats.substeps++;
    imp_profile_add(&w->data.profile, IMP_STAGE_INTEGRATE, start);
    if (o->force_error) {
        name_bodies(w, o->err_a, o->err_b);
        snprintf(a->why, a->why_len, "the contact forces could not be solved at t = %.17g", a->t);
        return IMP_ERR_SOLVER;
    }
    for (size_t i = 0; i < a->n; i++) {
        if (!isfinite(w->data.y[i])) {
            snprintf(a->why, a->why_len, "the state became non-finite near t = %.17g", a->t);
            return IMP_ERR_NONFINITE;
        }
    }
    return IMP_OK;
}

/* A trial step found collisions (the deepest: point worst): back to its start, handle the
   collisions close enough there, else a shorter trial step. */
static imp_status back_up(advance *a, int worst, double est, int have_estimate)
{
    imp_world *w = a->w;
    imp_engine3d *e = a->e;
    const imp_e3_point *p = &e->pts[worst];
    a->blame_a = p->a;
    a->blame_b = p->b;
    a->blame_d = p->distance;
    a->blame_u = normal_velocity(w, p);
    memcpy(w->data.y, a->o->y0, a->n * sizeof *w->data.y);
    e->stats.backups++;
    if (++a->stuck >= a->d->max_backups) {
        name_bodies(w, a->blame_a, a->blame_b);
        snprintf(a->why, a->why_len, "a collision between bodies #%d and #%d was not resolved after %d back-ups "
                 "at t = %.17g (distance %g, normal velocity %g)", a->blame_a, a->blame_b, a->stuck, a->t,
                 a->blame_d, a->blame_u);
        return IMP_ERR_SOLVER;
    }
    int st = handle_close(a, 1);
    if (st < 0) {
        return (imp_status)-st;
    }
    if (st > 0) {
        a->binary = 0;
        a->h = a->t1 - a->t;
        return IMP_OK;
    }
    if (a->stuck >= 3) {
        a->binary = 1;
    }
    if (!a->binary && have_estimate && est > 1e-12 && est < a->h) {
        a->h = est;
    } else {
        a->binary = 1;
        a->binary_accepts = 0;
        a->h *= 0.5;
        a->o->binary_searches++;
    }
    return IMP_OK;
}

static imp_status accept(advance *a)
{
    a->t += a->h;
    a->o->ode_steps++;
    if (a->h > 1e-7) {
        a->stuck = 0;
    }
    int st = handle_close(a, 0);
    if (st < 0) {
        return (imp_status)-st;
    }
    if (st > 0) {
        a->binary = 0;
    }
    if (a->binary && ++a->binary_accepts >= 2) {
        a->binary = 0;
    }
    if (!a->binary) {
        a->h = a->t1 - a->t;
    }
    return IMP_OK;
}

/* The trial step just taken: its collisions (count), the deepest, the earliest estimate. */
static imp_status penetrations(advance *a, int *ncol, int *worst, double *est, int *have_estimate)
{
    imp_engine3d *e = a->e;
    *ncol = 0, *worst = -1, *est = a->h, *have_estimate = 1;
    for (int c = 0; c < e->npts; c++) {
        const imp_e3_point *p = &e->pts[c];
        double u = normal_velocity(a->w, p);
        if (!colliding(a, p, u)) {
            continue;
        }
        (*ncol)++;
        if (*worst < 0 || p->distance < e->pts[*worst].distance) {
            *worst = c;
        }
        if (pending_add(a->o, p->a, p->b) != 0) {
            snprintf(a->why, a->why_len, "out of memory");
            return IMP_ERR_NOMEM;
        }
        double te = estimate(a, p, u);
        if (isfinite(te)) {
            *est = fmin(*est, te);
        } else {
            *have_estimate = 0;
        }
    }
    return IMP_OK;
}

/* The step's end: the contacts and their forces at the final state, the events. */
static imp_status finish(advance *a)
{
    imp_world *w = a->w;
    imp_engine3d *e = a->e;
    imp_e3_ode *o = a->o;
    double start = imp_profile_now();
    if (a->contact) {  /* one evaluation: its detection and forces */
        o->in_step = 1;
        o->force_error = 0;
        imp_world_derivative(w, a->t1, w->data.y, w->scratch.work);
        o->in_step = 0;
        if (o->force_error) {
            name_bodies(w, o->err_a, o->err_b);
            snprintf(a->why, a->why_len, "the contact forces could not be solved at t = %.17g", a->t1);
            return IMP_ERR_SOLVER;
        }
    } else {
        imp_status st = detect(a);
        if (st != IMP_OK) {
            return st;
        }
        for (int c = 0; c < e->npts; c++) {
            imp_e3_point *p = &e->pts[c];
            p->r[0] = p->r[1] = p->r[2] = p->rimp = 0.0;
            p->u0 = p->ustar = normal_velocity(w, p);
        }
    }
    for (int c = 0; c < e->npts; c++) {
        e->pts[c].acc = e->pts[c].acc_u0 = 0.0;
        e->pts[c].going = 0;
    }
    e->now = a->t1;
    imp_engine3d_finish(w, e);
    imp_profile_add(&w->data.profile, IMP_STAGE_CONTACTS, start);
    return IMP_OK;
}

/* Sleeping (islands.h): after a trial step's detection, the sleeping islands an awake body
   touches or approaches wake (*woke: the trial step is taken again); else the points of
   sleeping bodies are dropped. */
static imp_status sleep_detected(advance *a, int *woke)
{
    imp_world *w = a->w;
    imp_engine3d *e = a->e;
    *woke = 0;
    if (!imp_e3_sleep_any(w)) {
        return IMP_OK;
    }
    for (int s = 0; s < w->model.nslots; s++) {  /* the velocities the wake test reads */
        const double *v = velocity_of(w, s);
        for (int k = 0; k < 6; k++) {
            e->vel[6 * (size_t)s + k] = v != NULL ? v[k] : 0.0;
        }
    }
    imp_status st = imp_e3_sleep_detected(w, e, woke);
    if (st != IMP_OK) {
        snprintf(a->why, a->why_len, "out of memory in the 3D engine's sleeping");
    } else if (*woke) {
        memcpy(w->data.y, a->o->y0, a->n * sizeof *w->data.y);
    }
    return st;
}

static imp_status prepare(advance *a)
{
    imp_world *w = a->w;
    imp_engine3d *e = a->e = imp_engine3d_get(w);
    if (e == NULL || imp_engine3d_reserve_slots(e, w->model.nslots) != 0
        || (e->ode == NULL && (e->ode = calloc(1, sizeof *e->ode)) == NULL)) {
        snprintf(a->why, a->why_len, "out of memory for the 3D engine");
        return IMP_ERR_NOMEM;
    }
    imp_e3_ode *o = a->o = e->ode;
    if (o->y_cap < a->n) {
        double *y0 = realloc(o->y0, a->n * sizeof *y0);
        if (y0 == NULL) {
            snprintf(a->why, a->why_len, "out of memory for the 3D engine");
            return IMP_ERR_NOMEM;
        }
        o->y0 = y0;
        o->y_cap = a->n;
    }
    e->swapped = 0;
    e->failed_a = e->failed_b = -1;
    o->npending = 0;
    o->in_step = 0;
    if (imp_e3_sleep_begin(w, e) != IMP_OK) {  /* sleeping: the edited islands wake */
        snprintf(a->why, a->why_len, "out of memory for the 3D engine");
        return IMP_ERR_NOMEM;
    }
    return IMP_OK;
}

imp_status imp_engine3d_ode_advance(imp_world *w, double t1, char *why, size_t why_len)
{
    advance a = {.w = w, .d = &w->model.def.engine2d, .n = (size_t)w->model.nslots * IMP_STRIDE_3D,
                 .t = w->data.time, .t1 = t1, .why = why, .why_len = why_len};
    imp_status st = prepare(&a);
    if (st != IMP_OK) {
        return st;
    }
    a.contact = imp_world_strategy_has(w, IMP_STRATEGY_CONTACT_FORCES);
    a.target = 0.5 * a.d->distance_tol;
    a.acc = a.d->collision_accuracy * a.target;
    a.h = t1 - a.t;
    double slack = fmin(1e-12 * fmax(1.0, fabs(t1)), 0.5 * a.h);
    while (t1 - a.t > slack) {
        if (a.h > t1 - a.t || !(a.h > 0.0)) {
            a.h = t1 - a.t;
        }
        if ((st = check_progress(&a)) != IMP_OK || (st = integrate(&a)) != IMP_OK || (st = detect(&a)) != IMP_OK) {
            return st;
        }
        int woke;
        if ((st = sleep_detected(&a, &woke)) != IMP_OK) {
            return st;
        }
        if (woke) {
            continue;
        }
        int ncol, worst, have_estimate;
        double est;
        if ((st = penetrations(&a, &ncol, &worst, &est, &have_estimate)) != IMP_OK) {
            return st;
        }
        st = ncol > 0 ? back_up(&a, worst, est, have_estimate) : accept(&a);
        if (st != IMP_OK) {
            return st;
        }
    }
    if ((st = finish(&a)) != IMP_OK) {
        return st;
    }
    a.e->stats.steps++;
    if (imp_e3_sleep_end(w, a.e, t1 - w->data.time) != IMP_OK) {  /* sleeping: the islands at rest fall asleep */
        snprintf(why, why_len, "out of memory for the 3D engine");
        return IMP_ERR_NOMEM;
    }
    return IMP_OK;
}
