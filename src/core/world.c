/* world.c: creating a world, adding and removing bodies and springs, options. */
#include "world_internal.h"

#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "forces.h"
#include "islands.h"
#include "slots.h"
#include "ode_gsl.h"
#include "quat.h"
#include "strategy.h"

const char *const imp_integrator_names[] = {"euler", "modified_euler", "rk4", "rkf45", "rkck",
                                            "rk8pd", "msbdf", NULL};
const char *const imp_strategy_names[] = {"none", "compliant", "dem", "impulse", "contact", NULL};

imp_world_def imp_world_default_def(int dim)
{
    imp_world_def d;
    memset(&d, 0, sizeof d);
    d.dim = dim;
    d.gravity[dim == 3 ? 2 : 1] = -9.81;
    d.dt = 0.01;
    d.integrator.kind = IMP_RK4;
    d.integrator.rtol = 1e-8;
    d.integrator.atol = 1e-10;
    d.integrator.max_substeps = 100000;
    d.strategy = IMP_STRATEGY_NONE;
    d.seed = 1;
    d.compliant = imp_compliant_default_def();
    d.engine2d = imp_engine2d_default_def();
    if (dim == 3) {  /* the 3D engine steps at velocity level by default (engine3d.h; "ode": engine3d_ode.h) */
        d.engine2d.time_stepping = IMP_STEPPING_SYMPLECTIC_EULER;
        d.engine2d.soft.hertz = 30.0;  /* the 3D soft step's contact hertz: Box3D's (2D: 35) */
        d.engine2d.soft.precision = IMP_SOFT_DOUBLE;  /* the 3D soft step solves in double */
    }
    d.sleep_time = 0.5;  /* sleeping (islands.h): Box2D's time to sleep and thresholds */
    d.sleep_linear = 0.05;
    d.sleep_angular = 2.0 * 3.14159265358979323846 / 180.0;
    return d;
}

void imp_world_def_set_strategy(imp_world_def *def, imp_strategy s)
{
    def->strategy = s;
    const imp_strategy_ops *o = imp_strategy_ops_of(s, def->dim);
    if (o != NULL && (o->flags & IMP_STRATEGY_ADAPTIVE) != 0) {
        def->integrator.kind = IMP_RK8PD;
    }
}

imp_body_def imp_body_default_def(int dim)
{
    imp_body_def d;
    memset(&d, 0, sizeof d);
    d.density = 1.0;
    d.inertia = imp_m3_zero();
    if (dim == 3) {
        d.state[3] = 1.0;  /* identity orientation */
    }
    d.linear_damping = -1.0;
    d.angular_damping = -1.0;
    d.material = -1;
    d.collide = 1;
    d.elasticity = 1.0;
    return d;
}

static int all_finite(const double *v, int n)
{
    for (int i = 0; i < n; i++) {
        if (!isfinite(v[i])) {
            return 0;
        }
    }
    return 1;
}

static void set_error(imp_world *w, const char *msg)
{
    snprintf(w->data.error, sizeof w->data.error, "%s", msg);
}

static int valid_integrator(const imp_integrator_def *d)
{
    return d->kind >= 0 && d->kind < IMP_INTEGRATOR_COUNT && isfinite(d->rtol) && d->rtol >= 0.0
        && isfinite(d->atol) && d->atol >= 0.0 && (d->rtol > 0.0 || d->atol > 0.0)
        && isfinite(d->hmax) && d->hmax >= 0.0 && isfinite(d->h0) && d->h0 >= 0.0
        && d->max_substeps > 0;
}

/* Grows every per-slot array to hold cap slots. */
static int reserve(imp_world *w, int cap)
{
    if (cap <= w->model.capacity) {
        return 1;
    }
    size_t s = (size_t)w->model.stride;
    size_t n = (size_t)cap;
    imp_body *b = realloc(w->model.bodies, n * sizeof *b);
    if (b == NULL) {
        return 0;
    }
    /* new slots start at generation 0; a slot keeps its generation once used, so handles to
       a removed body stay stale when its slot is reused (even past a shrink of nslots) */
    memset(b + w->model.capacity, 0, (n - (size_t)w->model.capacity) * sizeof *b);
    w->model.bodies = b;
    double **arrays[5] = {&w->data.y, &w->scratch.y_saved, &w->scratch.y_end, &w->scratch.force, &w->scratch.work};
    const size_t sizes[5] = {n * s, n * s, n * s, n * 6, 5 * n * s};
    for (int i = 0; i < 5; i++) {
        double *p = realloc(*arrays[i], sizes[i] * sizeof *p);
        if (p == NULL) {
            return 0;  /* the arrays grown so far stay valid; capacity is unchanged */
        }
        *arrays[i] = p;
    }
    w->model.capacity = cap;
    return 1;
}

static imp_status bad_def(char *why, size_t why_len, const char *name, double v,
                          const char *accepted)
{
    if (why != NULL && why_len > 0) {
        snprintf(why, why_len, "world definition: %s = %g, expected %s", name, v, accepted);
    }
    return IMP_ERR_INVALID;
}

imp_status imp_world_check_def(const imp_world_def *def, char *why, size_t why_len)
{
    if (def->dim != 2 && def->dim != 3) {
        return bad_def(why, why_len, "dim", def->dim, "2 or 3");
    }
    static const char *const g_names[3] = {"gravity[0]", "gravity[1]", "gravity[2]"};
    for (int i = 0; i < 3; i++) {
        if (!isfinite(def->gravity[i])) {
            return bad_def(why, why_len, g_names[i], def->gravity[i], "a finite number");
        }
    }
    if (!(def->dt > 0.0) || !isfinite(def->dt)) {
        return bad_def(why, why_len, "dt", def->dt, "a positive finite number of seconds");
    }
    if (!valid_integrator(&def->integrator)) {
        return bad_def(why, why_len, "integrator.kind", def->integrator.kind,
                       "a known kind with finite rtol, atol >= 0 (not both 0), hmax, h0 >= 0 and "
                       "max_substeps > 0");
    }
    const struct {
        const char *name;
        double v;
    } nonneg[4] = {{"linear_damping", def->linear_damping},
                   {"angular_damping", def->angular_damping},
                   {"gravitation_g", def->gravitation_g},
                   {"gravitation_softening", def->gravitation_softening}};
    for (int i = 0; i < 4; i++) {
        if (!(nonneg[i].v >= 0.0) || !isfinite(nonneg[i].v)) {
            return bad_def(why, why_len, nonneg[i].name, nonneg[i].v, "a finite number >= 0");
        }
    }
    const struct {
        const char *name;
        double v;
    } sleeps[3] = {{"sleep_time", def->sleep_time}, {"sleep_linear", def->sleep_linear},
                   {"sleep_angular", def->sleep_angular}};
    for (int i = 0; i < 3; i++) {
        if (!(sleeps[i].v >= 0.0) || !isfinite(sleeps[i].v)) {
            return bad_def(why, why_len, sleeps[i].name, sleeps[i].v, "a finite number >= 0");
        }
    }
    if (def->sleep && def->strategy != IMP_STRATEGY_IMPULSE && def->strategy != IMP_STRATEGY_CONTACT) {
        return bad_def(why, why_len, "sleep", def->sleep, "0 unless the strategy is impulse or contact");
    }
    if (def->sleep && def->dim == 2 && def->engine2d.contact_solver == IMP_SOLVER_SOFT) {
        return bad_def(why, why_len, "sleep", def->sleep, "0 under the 2D soft step");
    }
    const imp_soft_def *soft = &def->engine2d.soft;
    const struct {
        const char *name;
        double v;
    } softs[6] = {{"engine2d.soft.hertz", soft->hertz}, {"engine2d.soft.damping_ratio", soft->damping_ratio},
                  {"engine2d.soft.push_max", soft->push_max}, {"engine2d.soft.joint_hertz", soft->joint_hertz},
                  {"engine2d.soft.joint_damping_ratio", soft->joint_damping_ratio},
                  {"engine2d.soft.restitution_threshold", soft->restitution_threshold}};
    for (int i = 0; i < 6; i++) {
        if (!(softs[i].v >= 0.0) || !isfinite(softs[i].v)) {
            return bad_def(why, why_len, softs[i].name, softs[i].v, "a finite number >= 0");
        }
    }
    if (soft->iterations < 1 || soft->relax_iterations < 0 || def->engine2d.substeps < 1) {
        return bad_def(why, why_len, "engine2d.soft.iterations", soft->iterations,
                       "soft.iterations >= 1, soft.relax_iterations >= 0 and substeps >= 1");
    }
    if (def->engine2d.contact_solver == IMP_SOLVER_SOFT
        && def->engine2d.time_stepping != IMP_STEPPING_SYMPLECTIC_EULER) {
        return bad_def(why, why_len, "engine2d.time_stepping", def->engine2d.time_stepping,
                       "symplectic_euler under contact_solver soft");
    }
    if (!imp_strategy_supports(def->strategy, def->dim)) {
        return bad_def(why, why_len, "strategy", def->strategy,
                       "an imp_strategy that runs in the world's dimension");
    }
    if (def->engine2d.conventions != IMP_CONVENTIONS_IMPACT
        && (def->engine2d.conventions != IMP_CONVENTIONS_MYPHYSICSLAB || def->dim != 2
            || (imp_strategy_ops_of(def->strategy, 2)->flags & IMP_STRATEGY_COLLISIONS) == 0
            || def->engine2d.contact_solver == IMP_SOLVER_SOFT)) {
        return bad_def(why, why_len, "engine2d.conventions", def->engine2d.conventions,
                       "0, or 1 in a 2D world under impulse or contact, not the soft step");
    }
    return IMP_OK;
}

imp_world *imp_world_new(const imp_world_def *def)
{
    if (imp_world_check_def(def, NULL, 0) != IMP_OK) {
        return NULL;
    }
    imp_world *w = calloc(1, sizeof *w);
    if (w == NULL) {
        return NULL;
    }
    w->model.def = *def;
    w->model.stride = def->dim == 2 ? IMP_STRIDE_2D : IMP_STRIDE_3D;
    if (!reserve(w, 16)) {
        imp_world_free(w);
        return NULL;
    }
    /* slot 0: the fixed background, at the origin with no shape and no mass */
    imp_body *bg = &w->model.bodies[0];
    memset(bg, 0, sizeof *bg);
    bg->active = 1;
    bg->fixed = 1;
    bg->inertia = bg->inv_inertia = imp_m3_zero();
    bg->linear_damping = bg->angular_damping = -1.0;
    bg->material = -1;
    bg->category = 1u;
    bg->mask = IMP_FILTER_BITS;
    memset(w->data.y, 0, (size_t)w->model.stride * sizeof *w->data.y);
    if (def->dim == 3) {
        w->data.y[3] = 1.0;
    }
    w->model.nslots = 1;
    w->model.free_from = 1;
    imp_rng_seed(&w->data.rng, def->seed);
    imp_lcg_seed(&w->data.lcg, def->seed);
    return w;
}

void imp_world_free(imp_world *w)
{
    if (w == NULL) {
        return;
    }
    for (int i = 0; i < w->model.nslots; i++) {
        if (w->model.bodies[i].active) {
            imp_shape_release(w->model.bodies[i].shape);
        }
    }
    imp_ode_free(w->scratch.ode);
    for (int s = 0; s < IMP_STRATEGY_COUNT; s++) {
        for (int dim = 2; dim <= 3; dim++) {
            const imp_strategy_ops *o = imp_strategy_ops_of(s, dim);
            if (o->destroy != NULL) {
                o->destroy(w);
            }
        }
    }
    imp_islands_free(w->islands);
    imp_materials_free(&w->model.materials);
    free(w->data.events);
    free(w->model.bodies);
    free(w->data.y);
    free(w->scratch.y_saved);
    free(w->scratch.y_end);
    free(w->scratch.force);
    free(w->scratch.work);
    free(w->model.springs);
    free(w->model.loads);
    free(w->model.no_collide);
    free(w);
}

const char *imp_world_error(const imp_world *w) { return w->data.error; }

imp_body_id imp_world_background(const imp_world *w)
{
    imp_body_id id = {0, w->model.bodies[0].generation};
    return id;
}

/* whether id names a live body (not stale, not out of range) */
static int live(const imp_world *w, imp_body_id id)
{
    if (id.slot < 0 || id.slot >= w->model.nslots) {
        return 0;
    }
    const imp_body *b = &w->model.bodies[id.slot];
    return b->active && b->generation == id.generation;
}

imp_body *imp_world_body(imp_world *w, imp_body_id id)
{
    return live(w, id) ? &w->model.bodies[id.slot] : NULL;
}

double *imp_world_body_state(imp_world *w, imp_body_id id)
{
    if (!live(w, id)) {
        return NULL;
    }
    imp_world_sync(w);  /* the caller may write it: up to date first */
    w->data.state_version++;
    return w->data.y + (size_t)id.slot * (size_t)w->model.stride;
}

const double *imp_world_body_state_read(const imp_world *w, imp_body_id id)
{
    if (!live(w, id)) {
        return NULL;
    }
    imp_world_sync(w);
    return w->data.y + (size_t)id.slot * (size_t)w->model.stride;
}

/* A physical inertia tensor: symmetric, positive definite, and each principal moment at most
   the sum of the other two (a rigid mass distribution has I1 + I2 >= I3). */
static const char *check_inertia(int dim, const imp_mat3 *in)
{
    if (!imp_m3_isfinite(in)) {
        return "the inertia is not finite";
    }
    if (dim == 2) {
        return in->m[2][2] > 0.0 && isfinite(1.0 / in->m[2][2])
                   ? NULL
                   : "the inertia must be a positive finite number whose inverse is finite";
    }
    double scale = 0.0;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            scale = fmax(scale, fabs(in->m[i][j]));
        }
    }
    for (int i = 0; i < 3; i++) {
        for (int j = i + 1; j < 3; j++) {
            if (fabs(in->m[i][j] - in->m[j][i]) > 1e-12 * scale) {
                return "the inertia tensor must be symmetric";
            }
        }
    }
    double e[3];
    imp_mat3 v;
    imp_m3_sym_eigen(in, e, &v);
    if (!(e[0] > 0.0)) {
        return "the inertia tensor must be positive definite";
    }
    if (!isfinite(1.0 / e[0])) {
        return "the inertia tensor's smallest principal moment is too small (its inverse is not "
               "finite)";
    }
    if (e[2] > (e[0] + e[1]) * (1.0 + 1e-9)) {
        return "the inertia tensor is not physical (a principal moment exceeds the sum of the "
               "other two)";
    }
    return NULL;
}

imp_body_id imp_world_add_body(imp_world *w, const imp_body_def *def)
{
    imp_body_id fail = {-1, 0};
    int dim = w->model.def.dim;
    const imp_shape *s = def->shape;
    imp_world_sync(w);  /* a freed slot reused: no late store over the new body's state */
    if (s != NULL && s->dim != dim) {
        snprintf(w->data.error, sizeof w->data.error, "a %dD shape (%s) cannot go into a %dD world", s->dim,
                 s->cls->name, dim);
        return fail;
    }
    double state[IMP_STRIDE_3D];
    memcpy(state, def->state, sizeof state);
    if (!all_finite(state, w->model.stride)) {
        set_error(w, "the initial state (position, orientation or velocity) is not finite");
        return fail;
    }
    if (dim == 3) {
        imp_quat q = imp_q(state[3], state[4], state[5], state[6]);
        if (!(imp_q_norm(q) > 0.0)) {
            set_error(w, "the orientation must be a nonzero quaternion");
            return fail;
        }
        q = imp_q_normalize(q);
        state[3] = q.w, state[4] = q.x, state[5] = q.y, state[6] = q.z;
    }
    if (def->fixed && def->kinematic) {
        set_error(w, "a body is fixed or kinematic, not both");
        return fail;
    }
    unsigned category = def->has_filter ? def->category : 1u;
    unsigned mask = def->has_filter ? def->mask : (unsigned)IMP_FILTER_BITS;
    int group = def->has_filter ? def->group : 0;
    if (category > IMP_FILTER_BITS || mask > IMP_FILTER_BITS || group < IMP_FILTER_GROUP_MIN
        || group > IMP_FILTER_GROUP_MAX) {
        set_error(w, "a filter's category and mask are in 0 .. 0xFFFF and its group in -32768 .. 32767");
        return fail;
    }
    int still = def->fixed || def->kinematic;  /* infinite mass */
    /* mass properties */
    double mass = 0.0;
    imp_mat3 inertia = imp_m3_zero();
    if (!(def->mass >= 0.0) || !isfinite(def->mass)) {
        set_error(w, "the mass must be a positive finite number");
        return fail;
    }
    if (def->mass > 0.0) {
        mass = def->mass;
        if (s != NULL) {
            inertia = imp_m3_scale(&s->inertia, mass / s->measure);
        }
    } else if (s != NULL) {
        if (!(def->density > 0.0) || !isfinite(def->density)) {
            set_error(w, "the density must be a positive finite number");
            return fail;
        }
        mass = def->density * s->measure;
        inertia = imp_m3_scale(&s->inertia, def->density);
    } else if (!still) {
        set_error(w, "a body without a shape needs a mass and an inertia");
        return fail;
    }
    if (def->has_inertia) {
        inertia = def->inertia;
    } else if (s == NULL && !still) {
        set_error(w, "a body without a shape needs an inertia");
        return fail;
    }
    if (!still && !(mass > 0.0 && isfinite(mass) && isfinite(1.0 / mass))) {
        snprintf(w->data.error, sizeof w->data.error, "the mass (%g) must be a positive finite number "
                 "whose inverse is finite", mass);
        return fail;
    }
    if (!still || def->has_inertia) {
        const char *why = check_inertia(dim, &inertia);
        if (why != NULL) {
            set_error(w, why);
            return fail;
        }
    }
    if (!(def->linear_damping < 0.0 || isfinite(def->linear_damping))
        || !(def->angular_damping < 0.0 || isfinite(def->angular_damping))) {
        set_error(w, "the damping must be finite");
        return fail;
    }
    if (!(def->elasticity >= 0.0 && def->elasticity <= 1.0) || !(def->friction >= 0.0)
        || !isfinite(def->friction)) {
        set_error(w, "the elasticity must be in [0, 1] and the friction a finite number >= 0");
        return fail;
    }
    /* a freed slot, lowest first (deterministic), else a new one; the slots below free_from
       are all active, so the search starts there */
    int slot = -1;
    for (int i = w->model.free_from > 1 ? w->model.free_from : 1; i < w->model.nslots; i++) {
        if (!w->model.bodies[i].active) {
            slot = i;
            break;
        }
    }
    if (slot < 0) {
        if (w->model.nslots == w->model.capacity && !reserve(w, 2 * w->model.capacity)) {
            set_error(w, "out of memory");
            return fail;
        }
        slot = w->model.nslots++;
    }
    w->model.free_from = slot + 1;
    imp_body *b = &w->model.bodies[slot];
    unsigned gen = b->generation;
    memset(b, 0, sizeof *b);
    b->generation = gen;
    b->active = 1;
    b->fixed = def->fixed;
    b->mass = mass;
    b->inertia = inertia;
    b->inv_mass = still ? 0.0 : 1.0 / mass;
    b->inv_inertia = imp_m3_zero();
    if (!still) {
        if (dim == 2) {
            b->inv_inertia.m[2][2] = 1.0 / inertia.m[2][2];
        } else {
            imp_m3_inverse(&inertia, &b->inv_inertia);
        }
    }
    b->shape = def->shape;
    if (b->shape != NULL) {
        imp_shape_retain(b->shape);
    }
    b->linear_damping = def->linear_damping;
    b->angular_damping = def->angular_damping;
    b->material = def->material >= 0 && def->material < w->model.materials.n ? def->material : -1;
    b->collide = def->collide;
    b->elasticity = def->elasticity;
    b->friction = def->friction;
    b->kinematic = def->kinematic != 0;
    b->no_sleep = def->no_sleep != 0;
    b->category = category;
    b->mask = mask;
    b->group = group;
    w->model.nkinematic += b->kinematic;
    w->model.bodies_version++;
    double *y = w->data.y + (size_t)slot * (size_t)w->model.stride;
    memcpy(y, state, (size_t)w->model.stride * sizeof *y);
    if (def->fixed) {  /* fixed bodies do not move */
        int v = dim == 2 ? IMP_VEL_2D : IMP_VEL_3D;
        for (int i = v; i < w->model.stride; i++) {
            y[i] = 0.0;
        }
    }
    w->model.nbodies++;
    const imp_strategy_ops *ops = imp_world_strategy(w);
    if (ops != NULL && ops->reserve != NULL) {
        ops->reserve(w);
    }
    imp_body_id id = {slot, b->generation};
    return id;
}

imp_status imp_world_remove_body(imp_world *w, imp_body_id id)
{
    imp_world_sync(w);
    imp_body *b = imp_world_body(w, id);
    if (b == NULL) {
        set_error(w, "a stale body handle (its body was removed)");
        return IMP_ERR_STALE;
    }
    if (id.slot == 0) {
        set_error(w, "the background cannot be removed");
        return IMP_ERR_INVALID;
    }
    /* springs attached to the body go with it */
    for (int i = 0; i < w->model.nsprings; i++) {
        imp_spring *sp = &w->model.springs[i];
        if (sp->active && (sp->def.body1.slot == id.slot || sp->def.body2.slot == id.slot)) {
            sp->active = 0;
            sp->generation++;
        }
    }
    imp_loads_forget_body(w, id.slot);
    imp_filter_forget_slot(w, id.slot);
    w->model.nkinematic -= b->kinematic;
    imp_shape_release(b->shape);
    b->shape = NULL;
    b->active = 0;
    b->generation++;
    if (id.slot < w->model.free_from) {
        w->model.free_from = id.slot;
    }
    w->model.bodies_version++;
    memset(w->data.y + (size_t)id.slot * (size_t)w->model.stride, 0, (size_t)w->model.stride * sizeof *w->data.y);
    w->model.nbodies--;
    /* drop trailing freed slots so the state vector shrinks */
    while (w->model.nslots > 1 && !w->model.bodies[w->model.nslots - 1].active) {
        w->model.nslots--;
    }
    return IMP_OK;
}

imp_spring_id imp_world_add_spring(imp_world *w, const imp_spring_def *def)
{
    imp_spring_id fail = {-1, 0};
    if (imp_world_body(w, def->body1) == NULL || imp_world_body(w, def->body2) == NULL) {
        set_error(w, "a spring's bodies must be bodies of this world");
        return fail;
    }
    if (def->body1.slot == def->body2.slot) {
        set_error(w, "a spring needs two different bodies");
        return fail;
    }
    if (!all_finite(def->point1, 3) || !all_finite(def->point2, 3)) {
        set_error(w, "a spring's points must be finite");
        return fail;
    }
    if (!(def->rest_length >= 0.0) || !(def->stiffness >= 0.0) || !(def->damping >= 0.0)
        || !isfinite(def->rest_length) || !isfinite(def->stiffness) || !isfinite(def->damping)) {
        set_error(w, "a spring's rest length, stiffness and damping must be finite and >= 0");
        return fail;
    }
    int index = imp_slots_take((void **)&w->model.springs, &w->model.nsprings,
                               &w->model.spring_capacity, sizeof(imp_spring),
                               offsetof(imp_spring, active), offsetof(imp_spring, generation));
    if (index < 0) {
        set_error(w, "out of memory");
        return fail;
    }
    imp_spring *sp = &w->model.springs[index];
    sp->def = *def;
    sp->active = 1;
    imp_islands_wake(w, def->body1.slot);  /* sleeping: a new spring wakes its bodies */
    imp_islands_wake(w, def->body2.slot);
    imp_spring_id id = {index, sp->generation};
    return id;
}

imp_spring *imp_world_spring(imp_world *w, imp_spring_id id)
{
    if (id.index < 0 || id.index >= w->model.nsprings) {
        return NULL;
    }
    imp_spring *sp = &w->model.springs[id.index];
    return (sp->active && sp->generation == id.generation) ? sp : NULL;
}

imp_status imp_world_remove_spring(imp_world *w, imp_spring_id id)
{
    imp_spring *sp = imp_world_spring(w, id);
    if (sp == NULL) {
        set_error(w, "a stale spring handle (its spring was removed)");
        return IMP_ERR_STALE;
    }
    imp_islands_wake(w, sp->def.body1.slot);  /* sleeping: so does a removed one */
    imp_islands_wake(w, sp->def.body2.slot);
    sp->active = 0;
    sp->generation++;
    return IMP_OK;
}

imp_status imp_world_set_integrator(imp_world *w, const imp_integrator_def *def)
{
    if (!valid_integrator(def)) {
        set_error(w, "invalid integrator settings");
        return IMP_ERR_INVALID;
    }
    w->model.def.integrator = *def;
    imp_ode_free(w->scratch.ode);  /* rebuilt at the next step */
    w->scratch.ode = NULL;
    return IMP_OK;
}

imp_status imp_world_set_strategy(imp_world *w, imp_strategy st)
{
    imp_world_sync(w);  /* the next strategy reads y */
    if (st < 0 || st >= IMP_STRATEGY_COUNT) {
        set_error(w, "unknown strategy");
        return IMP_ERR_INVALID;
    }
    if (!imp_strategy_supports(st, w->model.def.dim)) {
        char msg[160];
        snprintf(msg, sizeof msg, "the %s strategy is for %s worlds", imp_strategy_names[st],
                 imp_strategy_dims_name(st));
        set_error(w, msg);
        return IMP_ERR_INVALID;
    }
    if (w->model.def.sleep && st != IMP_STRATEGY_IMPULSE && st != IMP_STRATEGY_CONTACT) {
        char msg[200];  /* sleeping (islands.h): only the impulse and contact strategies sleep */
        snprintf(msg, sizeof msg, "the %s strategy cannot honour the world's option sleep = true "
                 "(only the impulse and contact strategies put islands to sleep)", imp_strategy_names[st]);
        set_error(w, msg);
        return IMP_ERR_INVALID;
    }
    if (w->model.def.engine2d.conventions != IMP_CONVENTIONS_IMPACT
        && (imp_strategy_ops_of(st, w->model.def.dim)->flags & IMP_STRATEGY_COLLISIONS) == 0) {
        char msg[200];
        snprintf(msg, sizeof msg, "the %s strategy cannot honour the world's option conventions = "
                 "\"%s\" (the impulse and contact strategies' collision advance)",
                 imp_strategy_names[st], imp_conventions_names[w->model.def.engine2d.conventions]);
        set_error(w, msg);
        return IMP_ERR_INVALID;
    }
    imp_islands_wake_all(w);
    w->model.def.strategy = st;
    for (int s = 0; s < IMP_STRATEGY_COUNT; s++) {  /* caches about the state */
        const imp_strategy_ops *o = imp_strategy_ops_of(s, w->model.def.dim);
        if (o->invalidate != NULL) {
            o->invalidate(w);
        }
    }
    return IMP_OK;
}

int imp_world_push_event(imp_world *w, const imp_event *e)
{
    if (w->data.nevents == w->data.event_capacity) {
        /* grows only when a step produces more events than any step before */
        int cap = w->data.event_capacity ? 2 * w->data.event_capacity : 64;
        imp_event *p = realloc(w->data.events, (size_t)cap * sizeof *p);
        if (p == NULL) {
            return 0;
        }
        w->data.events = p;
        w->data.event_capacity = cap;
    }
    w->data.events[w->data.nevents++] = *e;
    return 1;
}

imp_status imp_world_set_dt(imp_world *w, double dt)
{
    imp_world_sync(w);
    if (!(dt > 0.0) || !isfinite(dt)) {
        set_error(w, "dt must be a positive finite number");
        return IMP_ERR_INVALID;
    }
    w->data.time_base = w->data.time;
    w->data.steps_since_base = 0;
    w->model.def.dt = dt;
    return IMP_OK;
}

unsigned long long imp_world_state_hash(const imp_world *w)
{
    unsigned long long h = 1469598103934665603ULL;
    imp_world_sync(w);
    const unsigned char *p = (const unsigned char *)w->data.y;
    size_t n = (size_t)w->model.nslots * (size_t)w->model.stride * sizeof *w->data.y;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ p[i]) * 1099511628211ULL;
    }
    p = (const unsigned char *)&w->data.time;
    for (size_t i = 0; i < sizeof w->data.time; i++) {
        h = (h ^ p[i]) * 1099511628211ULL;
    }
    return h;
}
