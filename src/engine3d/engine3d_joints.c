/* engine3d_joints.c: joints, ropes and rods of the 3D engine (engine3d_joints.h): the joint
   list, each step's rows and Jacobians, their Gauss-Seidel sweeps and the position
   correction (the exact Coulomb problem with them: engine3d_joints_exact.c). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine3d_joints_rows.h"
#include "islands.h"
#include "slots.h"
#include "quat.h"
#include "world_internal.h"

const char *const imp_joint3d_kind_names[] = {"ball", "hinge", "slider", "fixed", "rope", "rod", NULL};

/* Position correction: the fraction of an equality row's error (or a violated limit's or
   rope's) removed per step by pseudo-velocities, and the sweeps that share it out. */
#define BETA 0.5
#define PUSH_SWEEPS 20
/* ---- small vector helpers ---- */

static void rot(const double R[9], const double v[3], double out[3])
{
    for (int i = 0; i < 3; i++) {
        out[i] = R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2];
    }
}

static void rott(const double R[9], const double v[3], double out[3])
{
    for (int i = 0; i < 3; i++) {
        out[i] = R[i] * v[0] + R[3 + i] * v[1] + R[6 + i] * v[2];
    }
}

/* a unit b perpendicular to the unit a, and c = a x b */
static void perpendiculars(const double a[3], double b[3], double c[3])
{
    int k = fabs(a[0]) <= fabs(a[1]) && fabs(a[0]) <= fabs(a[2]) ? 0 : (fabs(a[1]) <= fabs(a[2]) ? 1 : 2);
    double e[3] = {0, 0, 0};
    e[k] = 1.0;
    cross(a, e, b);
    double l = sqrt(dot(b, b));
    b[0] /= l, b[1] /= l, b[2] /= l;
    cross(a, b, c);
}

/* the pose of slot s: centre x and rotation R (row-major); the background's is the identity */
static void pose_of(const imp_world *w, const double *y, int s, double x[3], double R[9])
{
    if (s == 0) {
        memset(x, 0, 3 * sizeof *x);
        memset(R, 0, 9 * sizeof *R);
        R[0] = R[4] = R[8] = 1.0;
        return;
    }
    (void)w;
    const double *ys = y + (size_t)s * IMP_STRIDE_3D;
    imp_mat3 m = imp_q_to_mat3(imp_q_normalize(imp_q(ys[3], ys[4], ys[5], ys[6])));
    for (int i = 0; i < 3; i++) {
        x[i] = ys[i];
        for (int k = 0; k < 3; k++) {
            R[3 * i + k] = m.m[i][k];
        }
    }
}

/* ---- the joint list ---- */

static struct imp_e3_joints *joints_get(imp_world *w)
{
    imp_engine3d *e = imp_engine3d_get(w);
    if (e == NULL) {
        return NULL;
    }
    if (e->joints == NULL) {
        e->joints = calloc(1, sizeof *e->joints);
    }
    return e->joints;
}

static int alive(const imp_world *w, const imp_e3_joint *j)
{
    if (!j->active || j->d.body1 >= w->model.nslots || j->d.body2 >= w->model.nslots) {
        return 0;
    }
    const imp_body *b1 = &w->model.bodies[j->d.body1], *b2 = &w->model.bodies[j->d.body2];
    return b1->active && b2->active && b1->generation == j->gen1 && b2->generation == j->gen2;
}

static int finite3(const double v[3]) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

int imp_e3_joint_add(imp_world *w, const imp_joint3d_def *d, char *why, size_t why_len)
{
    const char *kind = imp_joint3d_kind_names[d->kind];
    if (w->model.def.dim != 3) {
        snprintf(why, why_len, "3D joints are for 3D worlds");
        return -1;
    }
    if (d->body1 == d->body2) {
        snprintf(why, why_len, "a %s needs two different bodies", kind);
        return -1;
    }
    if (w->model.bodies[d->body1].fixed && (d->body2 == 0 || w->model.bodies[d->body2].fixed)) {
        snprintf(why, why_len, "a %s between two bodies that do not move does nothing", kind);
        return -1;
    }
    if (!finite3(d->point1) || !finite3(d->point2) || !isfinite(dot(d->point1, d->point1))
        || !isfinite(dot(d->point2, d->point2))) {
        snprintf(why, why_len, "a %s's points must be finite and within 1e150 of the bodies' centres "
                 "(point1 = {%g, %g, %g}, point2 = {%g, %g, %g} in the bodies' frames)", kind, d->point1[0],
                 d->point1[1], d->point1[2], d->point2[0], d->point2[1], d->point2[2]);
        return -1;
    }
    int axial = d->kind == IMP_J3_HINGE || d->kind == IMP_J3_SLIDER;
    if (axial && (!finite3(d->axis) || fabs(sqrt(dot(d->axis, d->axis)) - 1.0) > 1e-9)) {
        snprintf(why, why_len, "a %s's axis must be a finite unit vector", kind);
        return -1;
    }
    if ((d->kind == IMP_J3_ROPE || d->kind == IMP_J3_ROD) && !(d->length > 0.0 && isfinite(d->length))) {
        snprintf(why, why_len, "a %s's length must be a positive finite number, got %g", kind, d->length);
        return -1;
    }
    if (d->has_limits && !(axial && isfinite(d->lo) && isfinite(d->hi) && d->lo <= d->hi)) {
        snprintf(why, why_len, "a %s's limits must be finite with lo <= hi (hinge and slider only)", kind);
        return -1;
    }
    if (d->has_motor && !(axial && isfinite(d->speed) && isfinite(d->max_force) && d->max_force >= 0.0)) {
        snprintf(why, why_len, "a %s's motor needs a finite speed and a finite max_force >= 0 (hinge "
                 "and slider only)", kind);
        return -1;
    }
    struct imp_e3_joints *js = joints_get(w);
    if (js == NULL) {
        snprintf(why, why_len, "out of memory");
        return -1;
    }
    int index = imp_slots_take((void **)&js->j, &js->n, &js->cap, sizeof(imp_e3_joint),
                               offsetof(imp_e3_joint, active), offsetof(imp_e3_joint, generation));
    if (index < 0) {
        snprintf(why, why_len, "out of memory");
        return -1;
    }
    imp_e3_joint *j = &js->j[index];
    unsigned gen = j->generation;
    memset(j, 0, sizeof *j);
    j->generation = gen;
    j->d = *d;
    j->active = 1;
    js->exclude_dirty = 1;
    j->gen1 = w->model.bodies[d->body1].generation;
    j->gen2 = w->model.bodies[d->body2].generation;
    /* the axis (world x for a fixed joint) and its perpendiculars, carried by the bodies */
    double x1[3], R1[9], x2[3], R2[9], a[3] = {1.0, 0.0, 0.0}, b[3], c[3];
    j->s1 = d->body2;
    j->s2 = d->body1;
    memcpy(j->p1, d->point2, sizeof j->p1);
    memcpy(j->p2, d->point1, sizeof j->p2);
    pose_of(w, w->data.y, j->s1, x1, R1);
    pose_of(w, w->data.y, j->s2, x2, R2);
    if (axial) {
        memcpy(a, d->axis, sizeof a);
    }
    perpendiculars(a, b, c);
    rott(R1, a, j->ax1);
    rott(R2, a, j->ax2);
    rott(R1, b, j->b1);
    rott(R1, c, j->c1);
    rott(R2, b, j->b2);
    imp_islands_wake(w, d->body1);  /* sleeping: a new joint wakes its bodies */
    imp_islands_wake(w, d->body2);
    return index;
}

imp_status imp_e3_joint_remove(imp_world *w, int i, unsigned gen)
{
    struct imp_e3_joints *js = w->engine3d != NULL ? w->engine3d->joints : NULL;
    if (js == NULL || i < 0 || i >= js->n || !js->j[i].active || js->j[i].generation != gen) {
        return IMP_ERR_STALE;
    }
    imp_islands_wake(w, js->j[i].d.body1);  /* sleeping: so does a removed one */
    imp_islands_wake(w, js->j[i].d.body2);
    js->j[i].active = 0;
    js->j[i].generation++;
    js->exclude_dirty = 1;
    return IMP_OK;
}

int imp_e3_joint_count(const imp_world *w)
{
    return w->engine3d != NULL && w->engine3d->joints != NULL ? w->engine3d->joints->n : 0;
}

const imp_joint3d_def *imp_e3_joint_def(const imp_world *w, int i, unsigned *gen, int *is_alive)
{
    if (i < 0 || i >= imp_e3_joint_count(w) || !w->engine3d->joints->j[i].active) {
        return NULL;
    }
    const imp_e3_joint *j = &w->engine3d->joints->j[i];
    *gen = j->generation;
    *is_alive = alive(w, j);
    return &j->d;
}

int imp_e3_joints_alive(const imp_world *w)
{
    int n = 0;
    for (int i = 0; i < imp_e3_joint_count(w); i++) {
        n += alive(w, &w->engine3d->joints->j[i]);
    }
    return n;
}

int imp_e3_joints_exclude(const imp_world *w, imp_engine3d *e, int a, int b)
{
    struct imp_e3_joints *js = e->joints;
    if (js == NULL || js->n == 0) {
        return 0;
    }
    if (js->exclude_dirty || js->exclude_version != w->model.bodies_version) {
        imp_pairset_clear(&js->exclude);
        int ok = 1;
        for (int i = 0; i < js->n && ok; i++) {
            ok = !alive(w, &js->j[i]) || imp_pairset_add(&js->exclude, js->j[i].s1, js->j[i].s2) >= 0;
        }
        js->exclude_dirty = !ok;
        js->exclude_version = w->model.bodies_version;
        if (!ok) {  /* out of memory: the joints one by one */
            for (int i = 0; i < js->n; i++) {
                const imp_e3_joint *j = &js->j[i];
                if (((j->s1 == a && j->s2 == b) || (j->s1 == b && j->s2 == a)) && alive(w, j)) {
                    return 1;
                }
            }
            return 0;
        }
    }
    return imp_pairset_contains(&js->exclude, a, b);
}

/* ---- geometry at a state ---- */

typedef struct geo {
    double x1[3], x2[3], r1[3], r2[3], dp[3]; /* centres, lever arms, p2 - p1 */
    double a1[3], b1[3], c1[3], a2[3], b2[3]; /* world axes */
} geo;

/* the geometry at the poses (x1, R1) of the base and (x2, R2) of the follower */
static void geometry_at(const imp_e3_joint *j, const double x1[3], const double R1[9], const double x2[3],
                        const double R2[9], geo *g)
{
    memcpy(g->x1, x1, sizeof g->x1);
    memcpy(g->x2, x2, sizeof g->x2);
    rot(R1, j->p1, g->r1);
    rot(R2, j->p2, g->r2);
    for (int k = 0; k < 3; k++) {
        g->dp[k] = g->x2[k] + g->r2[k] - g->x1[k] - g->r1[k];
    }
    rot(R1, j->ax1, g->a1);
    rot(R1, j->b1, g->b1);
    rot(R1, j->c1, g->c1);
    rot(R2, j->ax2, g->a2);
    rot(R2, j->b2, g->b2);
}

static void geometry(const imp_world *w, const double *y, const imp_e3_joint *j, geo *g)
{
    double x1[3], R1[9], x2[3], R2[9];
    pose_of(w, y, j->s1, x1, R1);
    pose_of(w, y, j->s2, x2, R2);
    geometry_at(j, x1, R1, x2, R2, g);
}

/* the velocities (v, w) of slot s at the world's state (zero for a body that does not move) */
static const double *state_velocity(const imp_world *w, int s)
{
    static const double zero[6] = {0, 0, 0, 0, 0, 0};
    if (s <= 0 || w->model.bodies[s].fixed) {
        return zero;
    }
    return w->data.y + (size_t)s * IMP_STRIDE_3D + IMP_VEL_3D;
}

/* the pose of slot s after a step of h at its velocities of the world's state (as the step
   moves it) */
static void predicted_pose(const imp_world *w, int s, double h, double x[3], double R[9])
{
    pose_of(w, w->data.y, s, x, R);
    if (s == 0 || w->model.bodies[s].fixed) {
        return;
    }
    const double *v = state_velocity(w, s), *y = w->data.y + (size_t)s * IMP_STRIDE_3D;
    for (int k = 0; k < 3; k++) {
        x[k] += h * v[k];
    }
    double wl = sqrt(dot(v + 3, v + 3));
    if (wl > 0.0) {
        imp_quat dq = imp_q_from_axis_angle(imp_v3(v[3] / wl, v[4] / wl, v[5] / wl), wl * h);
        imp_quat q = imp_q_normalize(imp_q_mul(dq, imp_q(y[3], y[4], y[5], y[6])));
        imp_mat3 m = imp_q_to_mat3(q);
        for (int i = 0; i < 3; i++) {
            for (int k = 0; k < 3; k++) {
                R[3 * i + k] = m.m[i][k];
            }
        }
    }
}

static double hinge_angle(const geo *g)
{
    double t[3];
    cross(g->b1, g->b2, t);
    return atan2(dot(t, g->a1), dot(g->b1, g->b2));
}

void imp_e3_joint_error(const imp_world *w, int i, double *linear, double *distance, double *angular,
                        double *position)
{
    const imp_e3_joint *j = &w->engine3d->joints->j[i];
    geo g;
    geometry(w, w->data.y, j, &g);
    double dist = sqrt(dot(g.dp, g.dp)), ang = 0.0, t = 0.0;
    *distance = dist;
    *position = 0.0;
    switch (j->d.kind) {
    case IMP_J3_SLIDER:
        t = dot(g.dp, g.b1);
        ang = dot(g.dp, g.c1);
        *linear = sqrt(t * t + ang * ang);
        *position = dot(g.dp, g.a1);
        break;
    case IMP_J3_ROPE:
        *linear = dist > j->d.length ? dist - j->d.length : 0.0;
        break;
    case IMP_J3_ROD:
        *linear = fabs(dist - j->d.length);
        break;
    default:
        *linear = dist;
    }
    ang = 0.0;
    if (j->d.kind == IMP_J3_HINGE || j->d.kind == IMP_J3_SLIDER || j->d.kind == IMP_J3_FIXED) {
        double c[3];
        cross(g.a1, g.a2, c);
        ang = atan2(sqrt(dot(c, c)), dot(g.a1, g.a2));  /* the axes' misalignment */
        if (j->d.kind != IMP_J3_HINGE) {
            ang += fabs(hinge_angle(&g));  /* and the twist about them */
        } else {
            *position = hinge_angle(&g);
        }
    }
    *angular = ang;
}

/* ---- rows ---- */

static int reserve_rows(struct imp_e3_joints *js, int n)
{
    if (n <= js->rows_cap) {
        return 0;
    }
    int cap = js->rows_cap ? js->rows_cap : 32;
    while (cap < n) {
        cap *= 2;
    }
    imp_j3_row *r = realloc(js->rows, (size_t)cap * sizeof *r);
    if (r == NULL) {
        return -1;
    }
    js->rows = r;
    js->rows_cap = cap;
    return 0;
}

/* a row of joint ji at slot with Jacobian J and function value c (C, or the gap of a
   unilateral row), finished: M^-1 J^T, the effective mass, the bias (a motor's: given) */
static void add_row(const imp_world *w, const imp_engine3d *e, struct imp_e3_joints *js, int ji, int slot, int kind,
                    const double J[12], double c, double bias, double lo, double hi, double h, double scale)
{
    const imp_e3_joint *j = &js->j[ji];
    imp_j3_row *r = &js->rows[js->nrows++];
    r->joint = ji;
    r->slot = slot;
    r->kind = kind;
    r->a = moving(w, j->s1);
    r->b = moving(w, j->s2);
    memcpy(r->J, J, sizeof r->J);
    memset(r->MJ, 0, sizeof r->MJ);
    double den = 0.0;
    for (int side = 0; side < 2; side++) {
        int s = side == 0 ? r->a : r->b;
        if (s < 0) {
            continue;
        }
        const double *Js = J + 6 * side, *I = e->inv_iw + 9 * (size_t)s;
        double *M = r->MJ + 6 * side, im = w->model.bodies[s].inv_mass;
        for (int k = 0; k < 3; k++) {
            M[k] = im * Js[k];
        }
        rot(I, Js + 3, M + 3);
        den += dot(Js, M) + dot(Js + 3, M + 3);
    }
    r->meff = den > 0.0 ? 1.0 / den : 0.0;
    r->c = c;
    if (kind == ROW_EQ) {
        r->bias = 0.0;
        r->err = c;
    } else if (kind == ROW_UNI) {  /* a gap may close within the step, no more */
        r->bias = c > 0.0 ? c / h : 0.0;
        r->err = c < 0.0 ? c : 0.0;
    } else {
        r->bias = bias;
        r->err = 0.0;
    }
    r->lo = lo;
    r->hi = hi;
    r->lambda = r->meff > 0.0 ? fmin(fmax(j->lambda[slot] * scale, lo), hi) : 0.0;
    r->plambda = 0.0;
}

/* J of a linear row along d: the anchors' relative velocity, ra the lever arm on the base */
static void linear_jac(const double d[3], const double ra[3], const double rb[3], double J[12])
{
    double t[3];
    cross(ra, d, t);
    for (int k = 0; k < 3; k++) {
        J[k] = -d[k];
        J[3 + k] = -t[k];
        J[6 + k] = d[k];
    }
    cross(rb, d, J + 9);
}

static void angular_jac(const double d[3], double J[12])
{
    for (int k = 0; k < 3; k++) {
        J[k] = J[6 + k] = 0.0;
        J[3 + k] = -d[k];
        J[9 + k] = d[k];
    }
}

static void negate(double J[12])
{
    for (int k = 0; k < 12; k++) {
        J[k] = -J[k];
    }
}

/* the rows of joint ji for a step of h at the geometry g */
static void joint_rows(const imp_world *w, const imp_engine3d *e, struct imp_e3_joints *js, int ji, const geo *g,
                       double h, double scale)
{
    const imp_joint3d_def *d = &js->j[ji].d;
    double J[12], ra_far[3], dir[3];
    for (int k = 0; k < 3; k++) {
        ra_far[k] = g->r1[k] + g->dp[k];  /* the base's lever arm to p2 (the slider's rows) */
    }
    const double inf = INFINITY;
    int slot = 3;
    /* motor, then limits: the hinge's angle about a1, the slider's travel along it */
    if (d->kind == IMP_J3_HINGE || d->kind == IMP_J3_SLIDER) {
        int hinge = d->kind == IMP_J3_HINGE;
        if (hinge) {
            angular_jac(g->a1, J);
        } else {
            linear_jac(g->a1, ra_far, g->r2, J);
        }
        if (d->has_motor) {
            double f = d->max_force * h;
            add_row(w, e, js, ji, 0, ROW_MOTOR, J, 0.0, -d->speed, -f, f, h, scale);
        }
        if (d->has_limits) {
            double at = hinge ? hinge_angle(g) : dot(g->dp, g->a1);
            add_row(w, e, js, ji, 1, ROW_UNI, J, at - d->lo, 0.0, 0.0, inf, h, scale);  /* at >= lo */
            negate(J);
            add_row(w, e, js, ji, 2, ROW_UNI, J, d->hi - at, 0.0, 0.0, inf, h, scale);  /* at <= hi */
        }
    }
    switch (d->kind) {
    case IMP_J3_BALL:
    case IMP_J3_HINGE:
    case IMP_J3_FIXED:
        for (int k = 0; k < 3; k++) {  /* p2 - p1 = 0 */
            double ek[3] = {0, 0, 0};
            ek[k] = 1.0;
            linear_jac(ek, g->r1, g->r2, J);
            add_row(w, e, js, ji, slot++, ROW_EQ, J, g->dp[k], 0.0, -inf, inf, h, scale);
        }
        break;
    case IMP_J3_SLIDER:  /* (p2 - p1) . b1 = (p2 - p1) . c1 = 0 */
        linear_jac(g->b1, ra_far, g->r2, J);
        add_row(w, e, js, ji, slot++, ROW_EQ, J, dot(g->dp, g->b1), 0.0, -inf, inf, h, scale);
        linear_jac(g->c1, ra_far, g->r2, J);
        add_row(w, e, js, ji, slot++, ROW_EQ, J, dot(g->dp, g->c1), 0.0, -inf, inf, h, scale);
        break;
    default: {  /* rope, rod: along p2 - p1 */
        double dist = sqrt(dot(g->dp, g->dp));
        if (!(dist > 1e-12 * d->length)) {
            return;  /* no direction: nothing to hold */
        }
        for (int k = 0; k < 3; k++) {
            dir[k] = g->dp[k] / dist;
        }
        linear_jac(dir, g->r1, g->r2, J);
        if (d->kind == IMP_J3_ROD) {
            add_row(w, e, js, ji, slot, ROW_EQ, J, dist - d->length, 0.0, -inf, inf, h, scale);
        } else {  /* length - dist >= 0 */
            negate(J);
            add_row(w, e, js, ji, slot, ROW_UNI, J, d->length - dist, 0.0, 0.0, inf, h, scale);
        }
        return;
    }
    }
    if (d->kind != IMP_J3_BALL) {  /* a2 . b1 = a2 . c1 = 0: the axes aligned */
        cross(g->a2, g->b1, dir);
        angular_jac(dir, J);
        add_row(w, e, js, ji, slot++, ROW_EQ, J, dot(g->a2, g->b1), 0.0, -inf, inf, h, scale);
        cross(g->a2, g->c1, dir);
        angular_jac(dir, J);
        add_row(w, e, js, ji, slot++, ROW_EQ, J, dot(g->a2, g->c1), 0.0, -inf, inf, h, scale);
    }
    if (d->kind == IMP_J3_SLIDER || d->kind == IMP_J3_FIXED) {  /* b2' . c1 = 0: no twist */
        cross(g->b2, g->c1, dir);
        angular_jac(dir, J);
        add_row(w, e, js, ji, slot, ROW_EQ, J, dot(g->b2, g->c1), 0.0, -inf, inf, h, scale);
    }
}

/* The rows' curvature: a row's function along a step at the state's velocities v0,
   C(x0 + h v0) - C(x0) - h J v0 (second order in h: a pendulum's chord leaving its circle), goes
   into its bias, so the step ends on the constraint where a linear row would leave it by that
   much (as SHAKE's position constraint at the step's end); the velocity then turns with the
   constraint and keeps its length, where dropping the component off the new tangent each step
   would take energy away. v0 and not the free velocity v*: v0 already holds the joints (the
   last step's answer), while the part of v* the joint takes away (an off-axis torque's) would
   bend the step by a curvature it never follows. */
static void curvature(const imp_world *w, struct imp_e3_joints *js, int ji, int n0,
                      const double *cpred, double h)
{
    const imp_e3_joint *j = &js->j[ji];
    for (int k = n0; k < js->nrows; k++) {
        imp_j3_row *r = &js->rows[k];
        if (r->kind == ROW_MOTOR) {
            continue;
        }
        double dc = cpred[k - n0] - r->c;
        if (j->d.kind == IMP_J3_HINGE && r->slot < 3) {  /* an angle: the turn, not the wrap */
            dc = remainder(dc, 2.0 * 3.14159265358979323846);
        }
        const double *va = state_velocity(w, j->s1), *vb = state_velocity(w, j->s2);
        double jv = dot(r->J, va) + dot(r->J + 3, va + 3) + dot(r->J + 6, vb) + dot(r->J + 9, vb + 3);
        double kappa = dc - h * jv;
        if (isfinite(kappa)) {
            r->bias += kappa / h;
        }
    }
}

imp_status imp_e3_joints_begin(imp_world *w, imp_engine3d *e, double h)
{
    struct imp_e3_joints *js = e->joints;
    if (js == NULL || js->n == 0) {
        return IMP_OK;
    }
    js->nrows = 0;
    if (reserve_rows(js, SLOTS * js->n + SLOTS) != 0) {
        return IMP_ERR_NOMEM;
    }
    for (int i = 0; i < js->n; i++) {
        imp_e3_joint *j = &js->j[i];
        if (!alive(w, j) || imp_islands_resting_pair(w, j->d.body1, j->d.body2)) {  /* (sleeping) */
            continue;
        }
        /* a held force's impulse scales with the step */
        double scale = j->h_last > 0.0 ? h / j->h_last : 1.0;
        /* the rows' functions after the free step, then the rows at the state */
        double x1[3], R1[9], x2[3], R2[9], cpred[SLOTS];
        geo g;
        predicted_pose(w, j->s1, h, x1, R1);
        predicted_pose(w, j->s2, h, x2, R2);
        geometry_at(j, x1, R1, x2, R2, &g);
        int n0 = js->nrows;
        joint_rows(w, e, js, i, &g, h, scale);
        int np = js->nrows - n0;
        for (int k = 0; k < np; k++) {
            cpred[k] = js->rows[n0 + k].c;
        }
        js->nrows = n0;
        geometry(w, w->data.y, j, &g);
        joint_rows(w, e, js, i, &g, h, scale);
        if (js->nrows - n0 == np) {
            curvature(w, js, i, n0, cpred, h);
        }
    }
    js->armed = js->nrows > 0;
    return IMP_OK;
}

int imp_e3_joints_armed(const imp_engine3d *e) { return e->joints != NULL && e->joints->armed; }

void imp_e3_joints_disarm(imp_engine3d *e)
{
    if (e->joints != NULL) {
        e->joints->armed = 0;
    }
}

void imp_e3_joints_warm(const imp_world *w, imp_engine3d *e)
{
    (void)w;
    struct imp_e3_joints *js = e->joints;
    for (int i = 0; i < js->nrows; i++) {
        if (js->rows[i].lambda != 0.0) {
            row_apply(&js->rows[i], e->vel, js->rows[i].lambda);
        }
    }
}

void imp_e3_joints_sweep(const imp_world *w, imp_engine3d *e, double *change, double *largest)
{
    (void)w;
    struct imp_e3_joints *js = e->joints;
    double ch = *change, lg = *largest;
    for (int i = 0; i < js->nrows; i++) {
        imp_j3_row *r = &js->rows[i];
        if (r->meff == 0.0) {
            continue;
        }
        double u = row_velocity(r, e->vel);
        double l = fmin(fmax(r->lambda - r->meff * (u + r->bias), r->lo), r->hi);
        double dl = l - r->lambda;
        if (dl != 0.0) {
            row_apply(r, e->vel, dl);
            r->lambda = l;
        }
        ch = fmax(ch, fabs(dl));
        lg = fmax(lg, fabs(l));
    }
    *change = ch;
    *largest = lg;
}

void imp_e3_joints_push(imp_world *w, imp_engine3d *e, double h)
{
    struct imp_e3_joints *js = e->joints;
    if (js == NULL || !js->armed) {
        return;
    }
    js->armed = 0;
    for (int sw = 0; sw < PUSH_SWEEPS; sw++) {
        double change = 0.0, largest = 0.0;
        for (int i = 0; i < js->nrows; i++) {
            imp_j3_row *r = &js->rows[i];
            if (r->err == 0.0 || r->meff == 0.0 || r->kind == ROW_MOTOR) {
                continue;
            }
            double u = row_velocity(r, e->pvel), target = -BETA * r->err / h;
            double l = r->plambda + r->meff * (target - u);
            if (r->kind == ROW_UNI && l < 0.0) {
                l = 0.0;
            }
            double dl = l - r->plambda;
            row_apply(r, e->pvel, dl);
            r->plambda = l;
            change = fmax(change, fabs(dl));
            largest = fmax(largest, fabs(l));
        }
        if (change <= 1e-12 * largest) {
            break;
        }
    }
    /* the impulses: next step's warm starts */
    for (int i = 0; i < js->n; i++) {
        if (alive(w, &js->j[i])) {
            memset(js->j[i].lambda, 0, sizeof js->j[i].lambda);
            js->j[i].h_last = h;
        }
    }
    for (int i = 0; i < js->nrows; i++) {
        const imp_j3_row *r = &js->rows[i];
        js->j[r->joint].lambda[r->slot] = r->lambda;
    }
}

void imp_e3_joints_free(struct imp_e3_joints *js)
{
    if (js == NULL) {
        return;
    }
    imp_coulomb_workspace_destroy(js->ws);
    imp_pairset_free(&js->exclude);
    void *arrays[] = {js->j, js->rows, js->q, js->mu, js->warm, js->r, js->u, js->qr, js->wr, js->mur, js->bil,
                      js->bilr, js->map, js->back, js->ti, js->tj, js->tri, js->trj, js->tv, js->trv, js->rp,
                      js->col, js->work, js->val, js->base, js->slot_head, js->jnext, js->jfirst,
                      js->jcount, js->jmark, js->jmark2};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
        free(arrays[i]);
    }
    free(js);
}

/* ---- the force-level ("ode") stepping's rows (engine3d_joints_ode.c) ---- */

/* the pose of slot s at y moved by dt at y's velocities (a rotation about the fixed axis w) */
static void moved_pose(const imp_world *w, const double *y, int s, double dt, double x[3], double R[9])
{
    pose_of(w, y, s, x, R);
    if (s == 0 || w->model.bodies[s].fixed) {
        return;
    }
    const double *ys = y + (size_t)s * IMP_STRIDE_3D, *v = ys + IMP_VEL_3D;
    for (int k = 0; k < 3; k++) {
        x[k] += dt * v[k];
    }
    double wl = sqrt(dot(v + 3, v + 3));
    if (wl > 0.0) {
        imp_quat dq = imp_q_from_axis_angle(imp_v3(v[3] / wl, v[4] / wl, v[5] / wl), wl * dt);
        imp_mat3 m = imp_q_to_mat3(imp_q_normalize(imp_q_mul(dq, imp_q(ys[3], ys[4], ys[5], ys[6]))));
        for (int i = 0; i < 3; i++) {
            for (int k = 0; k < 3; k++) {
                R[3 * i + k] = m.m[i][k];
            }
        }
    }
}

imp_status imp_e3_joints_ode_reserve(imp_world *w, imp_engine3d *e)
{
    (void)w;
    struct imp_e3_joints *js = e->joints;
    if (js == NULL) {
        return IMP_OK;
    }
    js->nrows = 0;
    js->armed = 0;
    return reserve_rows(js, SLOTS * js->n + SLOTS) != 0 ? IMP_ERR_NOMEM : IMP_OK;
}

int imp_e3_joint_rows_at(imp_world *w, imp_engine3d *e, int i, const double *y, double eps, double h,
                         double *cm, double *cp)
{
    struct imp_e3_joints *js = e->joints;
    const imp_e3_joint *j = &js->j[i];
    if (!alive(w, j) || imp_islands_resting_pair(w, j->d.body1, j->d.body2)) {
        return 0;
    }
    double x1[3], R1[9], x2[3], R2[9];
    geo g;
    int n0 = js->nrows, count[2];
    for (int side = 0; side < 2; side++) {  /* the functions at y moved by -eps, +eps */
        double *c = side == 0 ? cm : cp, dt = side == 0 ? -eps : eps;
        moved_pose(w, y, j->s1, dt, x1, R1);
        moved_pose(w, y, j->s2, dt, x2, R2);
        geometry_at(j, x1, R1, x2, R2, &g);
        joint_rows(w, e, js, i, &g, h, 0.0);
        count[side] = js->nrows - n0;
        for (int k = 0; k < count[side]; k++) {
            c[k] = js->rows[n0 + k].c;
        }
        js->nrows = n0;
    }
    geometry(w, y, j, &g);
    joint_rows(w, e, js, i, &g, h, 0.0);
    int n = js->nrows - n0;
    if (count[0] != n || count[1] != n) {  /* a rope or rod without direction on one side */
        js->nrows = n0;
        return -1;
    }
    return n;
}
