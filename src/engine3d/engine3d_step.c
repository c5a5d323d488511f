/* engine3d_step.c: one step of the 3D engine (engine3d.h): detect, v*, the contact problem
   (serial impacts first under collision_handling "serial" / "hybrid"), positions, events.
   Stages: detect, integrate (v* and the positions), collisions (serial impacts),
   contact_solve, contacts (events). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine3d.h"
#include "engine3d_joints.h"
#include "engine3d_sleep.h"
#include "engine3d_soft.h"
#include "engine3d_soft_recycle.h"
#include "forces.h"
#include "islands.h"
#include "prefetch.h"
#include "scalar.h"
#include "quat.h"
#include "world_internal.h"
#include "resize.h"

/* Fractions of distance_tol: penetrations shallower than the slop are left alone; deeper ones
   are pushed out by BAUMGARTE of their depth beyond the slop per step. */
#define SLOP_FRACTION 0.1
#define BAUMGARTE 0.2
/* Sweeps of the split impulse's position pass. */
#define PUSH_SWEEPS 20
/* Passes over the pairs in serial handling before the last (simultaneous) pass. */
#define SERIAL_PASSES 200
/* Detection once per step: the sub-steps detect again once a body's points moved by more than
   MAX_TRAVEL distance_tol (the slop: the moved points stand for resting contacts, not for
   bodies in flight, whose features change) or it turned by more than MAX_TURN rad since */
#define MAX_TRAVEL 0.1
#define MAX_TURN 0.02

/* slot s's rotation at y: R = imp_q_to_mat3(imp_q_normalize(q of y)), or the same matrix
   taken already in rot (NULL, or 13 per slot: q, then R row-major) */
static imp_mat3 slot_rotation(const imp_world *w, const double *rot, int s)
{
    if (rot != NULL) {
        const double *m = rot + 13 * (size_t)s + 4;
        imp_mat3 r = {{{m[0], m[1], m[2]}, {m[3], m[4], m[5]}, {m[6], m[7], m[8]}}};
        return r;
    }
    const double *q = w->data.y + (size_t)s * IMP_STRIDE_3D + 3;
    return imp_q_to_mat3(imp_q_normalize(imp_q(q[0], q[1], q[2], q[3])));
}

/* whether m is k times the identity (a cube's or a ball's inertia, or its inverse): exactly,
   so that w x m w is zero and R m R^T is m for every rotation R */
static inline int isotropic(const imp_mat3 *m)
{
    double k = m->m[0][0];
    return m->m[1][1] == k && m->m[2][2] == k && m->m[0][1] == 0.0 && m->m[0][2] == 0.0 && m->m[1][0] == 0.0
           && m->m[1][2] == 0.0 && m->m[2][0] == 0.0 && m->m[2][1] == 0.0;
}

/* whether body b's inertia and its inverse are isotropic (isotropic) */
static inline int isotropic_body(const imp_body *b) { return isotropic(&b->inertia) && isotropic(&b->inv_inertia); }

/* e->iso: each slot's isotropic_body, once a step for the soft step's free velocities (five a
   step) and world inverse inertias instead of nine compares on each matrix each time; the
   mass properties do not change within a step. O(slots). */
static void take_isotropy(const imp_world *w, imp_engine3d *e)
{
    for (int s = 0; s < w->model.nslots; s++) {
        const imp_body *b = &w->model.bodies[s];
        e->iso[s] = (unsigned char)(b->active && isotropic_body(b));
    }
    e->iso_ready = 1;
}

/* body b (slot s, active) isotropic: e->iso's answer when taken this step */
static inline int isotropic_slot(const imp_engine3d *e, const imp_body *b, int s)
{
    return e->iso_ready ? e->iso[s] : isotropic_body(b);
}

/* e->inv_iw at y; with iso, an isotropic body's is its own inverse inertia k^-1 1 (R k^-1 1 R^T
   = k^-1 1: no rotation taken, the exact value where the product rounds; the soft step's); rot: NULL, or 13 per slot (q, then R row-major) holding each slot's R =
   imp_q_to_mat3(imp_q_normalize(q of y)) already (the soft step's, taken at detection: the
   same bits, not computed again) */
static void world_inverse_inertia(const imp_world *w, imp_engine3d *e, const double *rot, int iso)
{
    for (int s = 0; s < w->model.nslots; s++) {
        double *out = e->inv_iw + 9 * (size_t)s;
        const imp_body *b = &w->model.bodies[s];
        if (s == 0 || !b->active || b->fixed || imp_islands_asleep_in(w->islands, s)) {  /* (asleep: sleeping) */
            memset(out, 0, 9 * sizeof *out);
            continue;
        }
        if (iso && isotropic_slot(e, b, s)) {
            memset(out, 0, 9 * sizeof *out);
            out[0] = out[4] = out[8] = b->inv_inertia.m[0][0];
            continue;
        }
        imp_mat3 R = slot_rotation(w, rot, s);
        imp_mat3 I = imp_m3_rotate_tensor(&R, &b->inv_inertia);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                out[3 * i + j] = I.m[i][j];
            }
        }
    }
}

/* normal velocity of b relative to a at point p, with the bodies' (v, w) va, vb */
static double normal_velocity(const imp_e3_point *p, const double *va, const double *vb)
{
    /* imp_e3_frame_velocity's first component, in the same order */
    const double *ra = p->ra, *rb = p->rb, *n = p->normal;
    double d0 = vb[0] + vb[4] * rb[2] - vb[5] * rb[1];
    double d1 = vb[1] + vb[5] * rb[0] - vb[3] * rb[2];
    double d2 = vb[2] + vb[3] * rb[1] - vb[4] * rb[0];
    d0 -= va[0] + va[4] * ra[2] - va[5] * ra[1];
    d1 -= va[1] + va[5] * ra[0] - va[3] * ra[2];
    d2 -= va[2] + va[3] * ra[1] - va[4] * ra[0];
    return n[0] * d0 + n[1] * d1 + n[2] * d2;
}

/* e->vel = v* = v0 + h M^-1 F(x0, v0) from the derivative dydt (0 for bodies that do not move) */
/* A body's spin after h of its torque (world frame): first the torque-free motion by the
   implicit midpoint rule on Euler's equations in the body frame, I (x - w0) = -h m x I m with
   m = (w0 + x) / 2, then the torque's impulse, x + h I^-1 t. The rule keeps a torque-free
   body's kinetic energy and |angular momentum| (quadratic invariants), where the explicit step
   w0 + h I^-1 (t - w0 x I w0) gains energy at every step, in proportion to (h |w|)^2: a box
   spun fast about a non-principal axis (h |w| near 1/2) gained energy step after step until its
   numbers overflowed. A spin about a principal axis is its own solution (the step is then
   the explicit one). Newton's method on the 3x3 system (J = I + h/2 (skew(m) I - skew(I m))).
   r: the body's rotation (its normalised orientation's matrix), w0: its spin in the body
   frame (R^T w), gyro: w0 x I w0, dwdt: the derivative's dw/dt (world frame, with the explicit
   gyroscopic term). */
static void spin_after(const imp_body *b, const imp_mat3 *rot, imp_vec3 w0, imp_vec3 gyro, imp_vec3 dwdt,
                       double h, double out[3])
{
    const imp_mat3 r = *rot;
    const imp_mat3 *I = &b->inertia;
    imp_vec3 dw = imp_m3_tmulv(&r, dwdt);
    imp_vec3 kick = imp_v3_add(dw, imp_m3_mulv(&b->inv_inertia, gyro)); /* I^-1 t */
    imp_vec3 x = w0;
    if (imp_v3_len2(gyro) > 0.0) {
        /* fixed-point iterations first, x = w0 - h I^-1 (m x I m): a contraction by about
           h |w|, so a few settle a slow spin (a resting stack's); Newton's method otherwise */
        x = imp_v3_madd(w0, -h, imp_m3_mulv(&b->inv_inertia, gyro));
        int settled = 0;
        for (int it = 0; it < 4 && !settled; it++) {
            imp_vec3 m = imp_v3_scale(imp_v3_add(w0, x), 0.5);
            imp_vec3 nx = imp_v3_madd(w0, -h, imp_m3_mulv(&b->inv_inertia, imp_v3_cross(m, imp_m3_mulv(I, m))));
            imp_vec3 dx = imp_v3_sub(nx, x);
            x = nx;
            settled = !(imp_v3_len2(dx) > 1e-30 * imp_v3_len2(x));
        }
        for (int it = 0; it < 12 && !settled; it++) {
            imp_vec3 m = imp_v3_scale(imp_v3_add(w0, x), 0.5), im = imp_m3_mulv(I, m);
            imp_vec3 g = imp_v3_add(imp_m3_mulv(I, imp_v3_sub(x, w0)), imp_v3_scale(imp_v3_cross(m, im), h));
            imp_mat3 sm = imp_m3_skew(m), sim = imp_m3_skew(im), smi = imp_m3_mul(&sm, I), jac, inv;
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    jac.m[i][j] = I->m[i][j] + 0.5 * h * (smi.m[i][j] - sim.m[i][j]);
                }
            }
            if (!imp_m3_inverse(&jac, &inv)) {
                break;
            }
            imp_vec3 dx = imp_m3_mulv(&inv, g);
            x = imp_v3_sub(x, dx);
            settled = !(imp_v3_len2(dx) > 1e-30 * imp_v3_len2(x));
        }
    }
    imp_v3_store(out, imp_m3_mulv(&r, imp_v3_madd(x, h, kick)));
}

/* whether slot s (body b) moves: the others' free velocity is zero (asleep: sleeping) */
static inline int moving_slot(const imp_world *w, const imp_body *b, int s)
{
    return !(s == 0 || !b->active || b->fixed || imp_islands_asleep_in(w->islands, s));
}

/* a moving body's spin after h (free_velocity's general case: the rotation taken; ua: its spin) */
static void free_spin(const imp_world *w, const imp_body *b, int s, const double *ua, const double *d, int forces,
                      double h, const double *rot, double *v)
{
    imp_mat3 r = slot_rotation(w, rot, s);
    imp_vec3 w0 = imp_m3_tmulv(&r, imp_v3_load(ua));
    imp_vec3 gyro = imp_v3_cross(w0, imp_m3_mulv(&b->inertia, w0));
    imp_vec3 dwdt;
    if (forces) {
        imp_vec3 tb = imp_m3_tmulv(&r, imp_v3_load(d + 3));
        dwdt = imp_m3_mulv(&r, imp_m3_mulv(&b->inv_inertia, imp_v3_sub(tb, gyro)));
    } else {
        dwdt = imp_v3_load(d + 3);
    }
    spin_after(b, &r, w0, gyro, dwdt, h, v + 3);
}

/* moving body b's (slot s, velocity ul, spin ua) free velocity into v from its derivative (forces 0: d its
   dv/dt and dw/dt) or its force and torque (forces 1: d; dv/dt and dw/dt as
   imp_world_derivative makes them, the same operations, its rotation, spin and gyroscopic
   term being spin_after's); inlined in the walks of the slots (a call a body cost more than
   the isotropic body's arithmetic) */
static inline __attribute__((always_inline)) void free_velocity(const imp_world *w, const imp_engine3d *e,
                                                                const imp_body *b, int s, const double *ul,
                                                                const double *ua, const double *d, int forces,
                                                                double h, const double *rot, double *v)
{
    const double *u = ul;  /* (written out: -O2 kept the loops over k) */
    if (forces) {
        double im = b->inv_mass;
        v[0] = u[0] + h * (d[0] * im), v[1] = u[1] + h * (d[1] * im), v[2] = u[2] + h * (d[2] * im);
    } else {
        v[0] = u[0] + h * d[0], v[1] = u[1] + h * d[1], v[2] = u[2] + h * d[2];
    }
    if (forces && isotropic_slot(e, b, s)) {
        /* I = k 1: w x I w = 0, so the implicit midpoint's torque-free spin is w itself and
           R (R^T w + h I^-1 R^T t) = w + h k^-1 t (world frame, no rotation taken) */
        double ik = b->inv_inertia.m[0][0];
        v[3] = ua[0] + h * (d[3] * ik), v[4] = ua[1] + h * (d[4] * ik), v[5] = ua[2] + h * (d[5] * ik);
        return;
    }
    free_spin(w, b, s, ua, d, forces, h, rot, v);
}

/* e->vel from the derivative (src: dydt, IMP_STRIDE_3D per slot) or from the forces (forces:
   src 6 per slot, imp_world_forces): free_velocity, zero for the slots that do not move */
static void free_velocities(const imp_world *w, imp_engine3d *e, const double *src, int forces, double h,
                            const double *rot)
{
    for (int s = 0; s < w->model.nslots; s++) {
        double *v = e->vel + 6 * (size_t)s;
        const imp_body *b = &w->model.bodies[s];
        if (!moving_slot(w, b, s)) {
            memset(v, 0, 6 * sizeof *v);
            continue;
        }
        const double *y = w->data.y + (size_t)s * IMP_STRIDE_3D;
        const double *d = forces ? src + 6 * (size_t)s : src + (size_t)s * IMP_STRIDE_3D + IMP_VEL_3D;
        free_velocity(w, e, b, s, y + IMP_VEL_3D, y + IMP_VEL_3D + 3, d, forces, h, rot, v);
    }
}

void imp_e3_free_velocities(const imp_world *w, imp_engine3d *e, const double *dydt, double h)
{
    free_velocities(w, e, dydt, 0, h, NULL);
}

void imp_e3_free_velocities_forces(const imp_world *w, imp_engine3d *e, const double *f, double h)
{
    free_velocities(w, e, f, 1, h, NULL);
}

void imp_e3_free_velocities_forces_rot(const imp_world *w, imp_engine3d *e, const double *f, double h,
                                       const double *rot)
{
    free_velocities(w, e, f, 1, h, rot);
}

/* NaN without its sign bit (printf writes "-nan" otherwise) */
static double unsigned_nan(double x) { return isnan(x) ? fabs(x) : x; }

/* whether a body's velocity v after the forces, v h, its position and orientation y and its
   position after h of v are all finite: x 0 is a zero for a finite x and NaN otherwise, so
   their sum is a zero only when every number is finite (no branch a number). Ten terms stand
   for the 22 numbers: v_k h is infinite or NaN when v_k is (h > 0; h infinite or NaN makes
   every v_k h so), and y_k + h v_k (k < 3) is when y_k or h v_k is */
static inline __attribute__((always_inline)) int finite_body(const double *y, const double *v, double h)
{
    double z = (y[0] + h * v[0]) * 0.0 + (y[1] + h * v[1]) * 0.0 + (y[2] + h * v[2]) * 0.0;
    z += (v[3] * h) * 0.0 + (v[4] * h) * 0.0 + (v[5] * h) * 0.0;
    z += y[3] * 0.0 + y[4] * 0.0 + y[5] * 0.0 + y[6] * 0.0;
    return z == 0.0;
}

/* The velocity step's failure before the contacts: a body whose velocity after the forces, or
   position after h of it, is not finite (that body, not its neighbours, is at fault): the
   error names it (slot s). */
static imp_status nonfinite(imp_world *w, const imp_engine3d *e, int s, char *why, size_t why_len)
{
    const double *y = w->data.y + (size_t)s * IMP_STRIDE_3D, *v = e->vel + 6 * (size_t)s;
    snprintf(why, why_len, "body #%d would leave the numbers: its position or velocity "
             "after the step's forces is not finite (position %g %g %g, velocity %g %g %g)", s,
             unsigned_nan(y[0]), unsigned_nan(y[1]), unsigned_nan(y[2]), unsigned_nan(v[0]),
             unsigned_nan(v[1]), unsigned_nan(v[2]));
    w->data.nerror_bodies = 0;
    w->data.error_bodies[w->data.nerror_bodies++] = s;
    return IMP_ERR_NONFINITE;
}

imp_status imp_e3_check_finite(imp_world *w, const imp_engine3d *e, double h, char *why, size_t why_len)
{
    for (int s = 1; s < w->model.nslots; s++) {
        const imp_body *b = &w->model.bodies[s];
        if (!b->active || b->fixed) {
            continue;
        }
        const double *y = w->data.y + (size_t)s * IMP_STRIDE_3D, *v = e->vel + 6 * (size_t)s;
        if (!finite_body(y, v, h)) {
            return nonfinite(w, e, s, why, why_len);
        }
    }
    return IMP_OK;
}

/* The soft step's sub-step start in one walk of the slots, the same numbers as
   imp_e3_free_velocities_forces_rot, imp_e3_check_finite and the copy of e->vel padded (8 a
   slot: v, 0, w, 0) one after another. own: the moving bodies' forces taken in the walk into
   f (imp_forces_body_3d: imp_world_forces's numbers when its other laws add nothing,
   imp_world_forces_body_only; the other slots' six, written at the step's start, are as they
   would be again: their state has not changed), else read from f (own 0; own 2: f holds the
   step start's, which are the moving bodies' own forces at any finite velocity,
   imp_forces_undamped_3d; the first body found not finite then has its own taken at its
   velocity before it is named, so that its numbers are as own 1 gives them). still: whether the bodies
   that do not move are checked (their state and zero velocity have not changed since the
   step's first sub-step checked them). The first body in slot order that fails is named, as
   imp_e3_check_finite does. from_padded: the moving bodies' velocities read from padded (the
   state's as they would be: the caller keeps them there) instead of the state. O(slots). */
static inline __attribute__((always_inline)) int padded_walk(imp_world *w, imp_engine3d *e, double *f, int own,
                                                             double h, const double *rot, double *padded,
                                                             int still, const int from_padded)
{
    const imp_forces_defaults fd = imp_forces_defaults_of(w);
    const unsigned char *mv = e->mv;  /* (moving_slot's answers, taken once a step) */
    int bad = 0;
    for (int s = 0; s < w->model.nslots; s++) {
        double *v = e->vel + 6 * (size_t)s, *p = padded + 8 * (size_t)s;
        const imp_body *b = &w->model.bodies[s];
        const double *y = w->data.y + (size_t)s * IMP_STRIDE_3D;
        if (mv != NULL ? !mv[s] : !moving_slot(w, b, s)) {
            memset(v, 0, 6 * sizeof *v);
            memset(p, 0, 8 * sizeof *p);
            if (still && bad == 0 && s > 0 && b->active && !b->fixed && !finite_body(y, v, h)) {
                bad = s;
            }
            continue;
        }
        double *fs = f + 6 * (size_t)s;
        if (own == 1) {
            imp_forces_body_3d(b, y, &fd, fs);
        }
        const double *ul = from_padded ? p : y + IMP_VEL_3D, *ua = from_padded ? p + 4 : y + IMP_VEL_3D + 3;
        free_velocity(w, e, b, s, ul, ua, fs, 1, h, rot, v);
        if (bad == 0 && !finite_body(y, v, h)) {
            bad = s;
            if (own == 2) {  /* (a velocity not finite: its forces are not the kept ones) */
                double ys[IMP_STRIDE_3D];
                memcpy(ys, y, sizeof ys);
                memcpy(ys + IMP_VEL_3D, ul, 3 * sizeof *ys);
                memcpy(ys + IMP_VEL_3D + 3, ua, 3 * sizeof *ys);
                imp_forces_body_3d(b, ys, &fd, fs);
                free_velocity(w, e, b, s, ul, ua, fs, 1, h, rot, v);
            }
        }
        p[0] = v[0], p[1] = v[1], p[2] = v[2], p[3] = 0.0;
        p[4] = v[3], p[5] = v[4], p[6] = v[5], p[7] = 0.0;
    }
    return bad;
}

imp_status imp_e3_free_velocities_padded(imp_world *w, imp_engine3d *e, double *f, int own, double h,
                                         const double *rot, double *padded, int still, int from_padded, char *why,
                                         size_t why_len)
{
    /* (two copies: a choice of the velocities' source a body cost 5 % of the walk) */
    int bad = from_padded ? padded_walk(w, e, f, own, h, rot, padded, still, 1)
                          : padded_walk(w, e, f, own, h, rot, padded, still, 0);
    return bad == 0 ? IMP_OK : nonfinite(w, e, bad, why, why_len);
}

static const double *slot_velocity(const imp_world *w, int s)
{
    static const double zero[6] = {0, 0, 0, 0, 0, 0};
    if (s == 0 || w->model.bodies[s].fixed) {
        return zero;
    }
    return w->data.y + (size_t)s * IMP_STRIDE_3D + IMP_VEL_3D;
}

static double slop(const imp_world *w) { return SLOP_FRACTION * w->model.def.engine2d.distance_tol; }

/* b_N of a point (engine3d.h), with restitution when with_restitution */
static double bias_of(const imp_world *w, const imp_e3_point *p, double h, int with_restitution)
{
    double d = p->distance, vtol = w->model.def.engine2d.velocity_tol;
    if (with_restitution && p->e > 0.0 && p->u0 < -vtol && d <= -h * p->u0) {
        /* Newton's law at the impact, then the step's free motion (gravity over h):
           u_N >= -e u0 + (u*_N - u0) (e = 0: the gap closes, below) */
        return p->e * p->u0 - (p->ustar - p->u0);
    }
    if (d > 0.0) {
        return d / h;  /* the gap may close, not more */
    }
    return 0.0;  /* a penetration: the approach stops; push_apart moves them apart */
}

static int is_impact(const imp_world *w, const imp_e3_point *p, double h)
{
    return p->u0 < -w->model.def.engine2d.velocity_tol && p->distance <= -h * p->u0;
}

/* Serial handling: the impacts pair by pair (a body's pairs together under hybrid) in a random
   order, with restitution, until none approaches; impulses add up in r. */
static imp_status serial_impacts(imp_world *w, imp_engine3d *e, double h, char *why, size_t why_len)
{
    int hybrid = w->model.def.engine2d.collision_handling == IMP_HANDLING_HYBRID;
    for (int pass = 0; pass < SERIAL_PASSES; pass++) {
        /* the pairs (runs of points of one (a, b)) that approach now */
        int groups = 0;
        for (int c = 0; c < e->npts; c++) {
            imp_e3_point *p = &e->pts[c];
            p->active = 0;
            const double *va = e->vel + 6 * (size_t)p->a, *vb = e->vel + 6 * (size_t)p->b;
            double un = normal_velocity(p, va, vb);
            if (un < -w->model.def.engine2d.velocity_tol && p->distance <= -h * un) {
                groups++;
                p->active = 1;
            }
        }
        if (groups == 0) {
            return IMP_OK;
        }
        /* one random approaching point picks the group to handle */
        int pick = (int)imp_rng_below(&w->data.rng, (unsigned long long)groups), seen = 0, chosen = -1;
        for (int c = 0; c < e->npts && chosen < 0; c++) {
            if (e->pts[c].active && seen++ == pick) {
                chosen = c;
            }
        }
        int a = e->pts[chosen].a, b = e->pts[chosen].b;
        for (int c = 0; c < e->npts; c++) {
            imp_e3_point *p = &e->pts[c];
            int mine = p->a == a && p->b == b;
            if (hybrid && p->active) {  /* the moving bodies' other approaching pairs */
                int sa = a > 0 && !w->model.bodies[a].fixed ? a : -1, sb = !w->model.bodies[b].fixed ? b : -1;
                mine |= p->a == sa || p->b == sa || p->a == sb || p->b == sb;
            }
            double un = normal_velocity(p, e->vel + 6 * (size_t)p->a, e->vel + 6 * (size_t)p->b);
            p->active = mine && un < 0.0 && p->distance <= -h * un;
            if (p->active) {
                /* u_N >= -e (u_N now without the step's free motion) + that motion */
                double free = p->ustar - p->u0;
                p->bias = p->e * imp_fmin(un - free, 0.0) - free;
                p->r[0] = p->r[1] = p->r[2] = 0.0;
                p->handled = 1;
            }
        }
        /* solve with q = J vel + bias: vel already holds the earlier impulses */
        imp_status st = imp_engine3d_solve(w, e, why, why_len);
        if (st != IMP_OK) {
            return st;
        }
        for (int c = 0; c < e->npts; c++) {
            if (e->pts[c].active) {
                e->pts[c].rimp += e->pts[c].r[0];
            }
        }
        e->stats.collisions++;
    }
    return IMP_OK;
}

/* exchanges the arrays of this step's points and the last step's */
static void swap_lists(imp_engine3d *e)
{
    imp_e3_swap_arrays((void **)&e->prev, &e->prev_cap, (void **)&e->pts, &e->pts_cap);
    e->ev_valid = 0;  /* (the events' pair states were the old list's: ev_take) */
}

/* x1 = x0 + h (v1 + pv) (pv: the split impulse's pseudo-velocity, positions only); each
   slot's motion goes to e->dpose when it is there (refresh_points) */
static void integrate_positions(imp_world *w, imp_engine3d *e, double h)
{
    for (int s = 0; s < w->model.nslots; s++) {
        const imp_body *b = &w->model.bodies[s];
        double *m = e->once ? e->dpose + 12 * (size_t)s : NULL;
        if (m != NULL) {  /* no motion: the identity */
            memset(m, 0, 12 * sizeof *m);
            m[3] = m[7] = m[11] = 1.0;
        }
        if (s == 0 || !b->active || b->fixed || imp_islands_asleep_in(w->islands, s)) {  /* (asleep: sleeping) */
            continue;
        }
        double *y = w->data.y + (size_t)s * IMP_STRIDE_3D;
        const double *vv = e->vel + 6 * (size_t)s, *pv = e->pvel + 6 * (size_t)s;
        double v[6];
        for (int k = 0; k < 6; k++) {
            y[IMP_VEL_3D + k] = vv[k];
            v[k] = vv[k] + pv[k];
        }
        for (int k = 0; k < 3; k++) {
            y[k] += h * v[k];
            if (m != NULL) {
                m[k] = h * v[k];
            }
        }
        double wl = sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
        if (m != NULL) {  /* a bound on how far its points moved (as detect's speed bound) */
            double rad = isfinite(b->shape->radius) ? b->shape->radius : 0.0;
            e->travel[3 * (size_t)s + 1] += h * (sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + wl * rad);
            e->travel[3 * (size_t)s + 2] += h * wl;
        }
        if (wl > 0.0) {
            imp_quat dq = imp_q_from_axis_angle(imp_v3(v[3] / wl, v[4] / wl, v[5] / wl), wl * h);
            imp_quat q = imp_q_normalize(imp_q_mul(dq, imp_q(y[3], y[4], y[5], y[6])));
            y[3] = q.w, y[4] = q.x, y[5] = q.y, y[6] = q.z;
            if (m != NULL) {
                imp_mat3 r = imp_q_to_mat3(dq);
                for (int i = 0; i < 3; i++) {
                    for (int j = 0; j < 3; j++) {
                        m[3 + 3 * i + j] = r.m[i][j];
                    }
                }
            }
        }
    }
}

/* Detection once per step: this sub-step's points are the last sub-step's, moved with their
   bodies (e->dpose: each body's displacement and rotation over that sub-step). Each point's
   anchors turn and move with their bodies, its gap changes by the normal component of the
   anchors' relative motion, d += n . ((dx_b + R_b r_b - r_b) - (dx_a + R_a r_a - r_a)), the
   normal and tangents are kept (as Box2D v3's and Box3D's sub-steps do). A contact that was
   beyond the step's margin at its detection cannot close within the step (the margin covers
   what the bodies can travel in it), so none is missed. The impulses stay: warm starts. */
static void refresh_points(const imp_world *w, imp_engine3d *e)
{
    int n = e->nprev;
    swap_lists(e);  /* no copy: the last sub-step's points are this one's */
    e->npts = n;
    e->nprev = 0;
    double tol = w->model.def.engine2d.distance_tol;
    double pen = 0.0;
    for (int c = 0; c < n; c++) {
        imp_e3_point *p = &e->pts[c];
        p->was_touching = p->distance <= tol || p->r[0] > 0.0;  /* touching() of the last sub-step */
        const double *ma = e->dpose + 12 * (size_t)p->a, *mb = e->dpose + 12 * (size_t)p->b;
        double ra[3], rb[3], gap = 0.0;
        for (int i = 0; i < 3; i++) {
            ra[i] = ma[3 + 3 * i] * p->ra[0] + ma[4 + 3 * i] * p->ra[1] + ma[5 + 3 * i] * p->ra[2];
            rb[i] = mb[3 + 3 * i] * p->rb[0] + mb[4 + 3 * i] * p->rb[1] + mb[5 + 3 * i] * p->rb[2];
            double da = ma[i] + ra[i] - p->ra[i], db = mb[i] + rb[i] - p->rb[i];
            gap += p->normal[i] * (db - da);
            p->pa[i] += da;
            p->pb[i] += db;
            p->ra[i] = ra[i];
            p->rb[i] = rb[i];
        }
        p->distance += gap;
        p->fresh = 0;
        pen = imp_fmax(pen, -p->distance);
    }
    e->stats.points = n;
    e->stats.max_penetration = pen;
}

/* One pair's run of points from i (i < n) read in one walk: where it ends, whether it touches
   (a point within distance_tol or carrying an impulse), and with full what its events read
   (the points' u0 and impact impulses, in the points' order: the same sums and minima as
   separate walks). O(the run's points). */
typedef struct pair_run {
    int end, touching, going, was_touching;
    double u0;      /* the smallest approach velocity (0 or less) */
    double acc;     /* the impact impulses so far ... */
    double acc_u0;  /* ... and their smallest approach velocity (0 or less) */
} pair_run;

static inline pair_run run_of(const imp_world *w, const imp_e3_point *p, int n, int i, int full)
{
    double tol = w->model.def.engine2d.distance_tol;
    pair_run r = {i, 0, 0, 0, 0.0, 0.0, 0.0};
    int a = p[i].a, b = p[i].b, k = i;
    for (; k < n && p[k].a == a && p[k].b == b; k++) {
        const imp_e3_point *q = &p[k];
        r.touching |= q->distance <= tol || q->r[0] > 0.0;
        if (full) {
            r.going |= q->going;
            r.was_touching |= q->was_touching;
            r.u0 = imp_fmin(r.u0, q->u0);
            r.acc += q->acc;
            r.acc_u0 = imp_fmin(r.acc_u0, q->acc_u0);
        }
    }
    r.end = k;
    return r;
}

/* whether last step's point q is of a body since removed (its slot's generation moved on) */
static int stale(const imp_world *w, const imp_e3_point *q)
{
    return q->gen_a != w->model.bodies[q->a].generation || q->gen_b != w->model.bodies[q->b].generation;
}

/* the event of pair point p at the event point c */
static void push_at(imp_world *w, imp_event_kind kind, const imp_e3_point *p, const double c[3], double value,
                    double impulse)
{
    imp_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.time = w->engine3d->now;
    ev.body1 = p->a;
    ev.body2 = p->b;
    memcpy(ev.point, c, sizeof ev.point);
    memcpy(ev.normal, p->normal, sizeof ev.normal);
    ev.value = value;
    ev.impulse = impulse;
    imp_world_push_event(w, &ev);
}

static void push(imp_world *w, imp_event_kind kind, const imp_e3_point *p, int n, double value, double impulse)
{
    double c[3];
    imp_e3_event_point(p, n, c);
    push_at(w, kind, p, c, value, impulse);
}

/* Collects this step's impact impulses into the points' acc (matched across steps); counts
   the simultaneous solve's impacts (not serial: serial_impacts counts its own). */
static void accumulate_impacts(const imp_world *w, imp_engine3d *e, double h, int serial)
{
    int gather = !w->data.no_contact_events;  /* (none without contact events: finish) */
    for (int c = 0; c < e->npts; c++) {
        imp_e3_point *p = &e->pts[c];
        double r = p->r[0] + p->rimp;
        int impact = is_impact(w, p, h);
        e->stats.collisions += !serial && impact && p->r[0] > 0.0;
        imp_e3_gather_impact(p, gather, impact && r > 0.0, p->u0, r);
    }
}

/* The begin and collision events of this step's pair at points i .. r->end - 1 (touching
   now, and before: in the last step). */
static void current_pair_events(imp_world *w, imp_engine3d *e, int i, const pair_run *r, int before)
{
    int end = r->end;
    if (r->touching && !before) {
        push(w, IMP_EVENT_CONTACT_BEGIN, &e->pts[i], end - i, -r->u0, 0.0);
    }
    if (r->acc > 0.0 && !r->going) {
        push(w, IMP_EVENT_COLLISION, &e->pts[i], end - i, r->acc_u0, r->acc);
        for (int k = i; k < end; k++) {
            e->pts[k].acc = e->pts[k].acc_u0 = 0.0;
        }
    }
}

/* room for n pair states in e->ev_next, emptied: 1, or 0 without memory (then none are kept
   and the next step's events walk the points) */
static int ev_reserve(imp_engine3d *e, int n)
{
    if (imp_grow(&e->ev_next, &e->ev_next_cap, n, sizeof *e->ev_next) != 0) {
        e->nev_next = -1;
        return 0;
    }
    e->nev_next = 0;
    return 1;
}

/* after the step's points became the last ones (swap_lists): the pair states events() kept
   of them are e->prev's, for the next step's events */
static void ev_take(imp_engine3d *e)
{
    if (e->nev_next < 0) {
        return;
    }
    imp_e3_swap_arrays((void **)&e->ev_pairs, &e->ev_pairs_cap, (void **)&e->ev_next, &e->ev_next_cap);
    e->nev_pairs = e->nev_next;
    e->nev_next = 0;
    e->ev_valid = 1;
    e->ev_list = e->prev;
    e->ev_nprev = e->nprev;
}

/* events() when this sub-step's points are the last one's moved (refresh_points): the same
   pairs, touching before by the points' was_touching */
static void events_same(imp_world *w, imp_engine3d *e)
{
    int record = ev_reserve(e, e->npts);
    for (int i = 0; i < e->npts;) {
        pair_run r = run_of(w, e->pts, e->npts, i, 1);
        if (record) {
            e->ev_next[e->nev_next++] = (imp_e3_pair_state){e->pts[i].a, e->pts[i].b, i, r.end, r.touching};
        }
        current_pair_events(w, e, i, &r, r.was_touching);
        if (r.was_touching && !r.touching) {
            push(w, IMP_EVENT_CONTACT_END, &e->pts[i], r.end - i, 0.0, 0.0);
        }
        i = r.end;
    }
}

/* contact_begin / contact_end by comparing the touching pairs of this step and the last
   (both sorted by (a, b)); one collision per impact of a pair, when its impulses are over
   (the step after the last one, or the pair's end). Each pair's points are walked once in
   each list (run_of). */
/* points ahead of the events' walk whose first fields (a .. u0, the first 88 bytes: what
   the walk reads) are asked of the cache: both lists are megabytes by the step's
   end, read at a 304-byte stride, and the walk waited on them (run_of's loads) */
enum { EVENTS_AHEAD = 48 };

static void events(imp_world *w, imp_engine3d *e)
{
    /* the last step's pairs from the states kept at its end (ev_take) when they are still
       e->prev's: its points are then read only for a pair gone or ending */
    int kept = e->ev_valid && e->ev_list == e->prev && e->ev_nprev == e->nprev;
    int nlast = kept ? e->nev_pairs : e->nprev, record = ev_reserve(e, e->npts);
    int i = 0, j = 0, s = 0, fi = 0, fj = 0;
    while (i < e->npts || s < nlast) {
        for (; fi < e->npts && fi < i + EVENTS_AHEAD; fi++) {
            imp_prefetch_bytes(&e->pts[fi], offsetof(imp_e3_point, normal), 0);
        }
        for (; !kept && fj < e->nprev && fj < j + EVENTS_AHEAD; fj++) {
            imp_prefetch_bytes(&e->prev[fj], offsetof(imp_e3_point, normal), 0);
        }
        int cmp;
        if (i >= e->npts) {
            cmp = 1;
        } else if (s >= nlast) {
            cmp = -1;
        } else {
            const imp_e3_point *p = &e->pts[i];
            int qa = kept ? e->ev_pairs[s].a : e->prev[j].a, qb = kept ? e->ev_pairs[s].b : e->prev[j].b;
            cmp = p->a != qa ? (p->a < qa ? -1 : 1) : (p->b != qb ? (p->b < qb ? -1 : 1) : 0);
        }
        pair_run now = {i, 0, 0, 0, 0.0, 0.0, 0.0}, before = {j, 0, 0, 0, 0.0, 0.0, 0.0};
        if (cmp <= 0) {
            now = run_of(w, e->pts, e->npts, i, 1);
        }
        if (cmp >= 0 && kept) {
            const imp_e3_pair_state *q = &e->ev_pairs[s++];
            j = q->j;
            before.end = q->end;
            before.touching = q->touching;
        }
        if (cmp > 0 || (cmp == 0 && !kept)) {  /* (the impulses only of a pair gone) */
            before = run_of(w, e->prev, e->nprev, j, cmp > 0);
        }
        if (cmp <= 0 && record) {
            e->ev_next[e->nev_next++] = (imp_e3_pair_state){e->pts[i].a, e->pts[i].b, i, now.end, now.touching};
        }
        /* (the last step's pair's generations, on a line of its own, read only when asked) */
        if (cmp <= 0) {
            current_pair_events(w, e, i, &now, before.touching);
        } else if (!stale(w, &e->prev[j])) {  /* the pair is gone: an impact still open ends here */
            if (before.acc > 0.0) {
                push(w, IMP_EVENT_COLLISION, &e->prev[j], before.end - j, before.acc_u0, before.acc);
            }
        }
        if (before.touching && !now.touching && !stale(w, &e->prev[j])) {
            if (cmp == 0 && kept && s - 1 < e->nev_point) {  /* its last points overwritten in place */
                push_at(w, IMP_EVENT_CONTACT_END, &e->prev[j], e->ev_point + 3 * (size_t)(s - 1), 0.0, 0.0);
            } else {
                push(w, IMP_EVENT_CONTACT_END, &e->prev[j], before.end - j, 0.0, 0.0);
            }
        }
        i = now.end;
        j = before.end;
        if (!kept) {
            s = j;  /* (walking e->prev's points: the last step's pairs are its runs) */
        }
    }
}

/* the step's contact events: events(), or events_same() when this sub-step's points are the
   last one's moved (same). Without contact events (imp_world_set_contact_events) the walk is
   skipped and no pair states are kept (ev_take keeps none, ev_valid stays 0): the next step's
   events, when wanted again, walk the last step's points, which are kept either way (their
   touching test is the points', not the events') */
static void step_events(imp_world *w, imp_engine3d *e, int same)
{
    if (w->data.no_contact_events) {
        e->nev_next = -1;
    } else if (same) {
        events_same(w, e);
    } else {
        events(w, e);
    }
}

/* The earliest estimated time of impact within h of a point approaching faster than
   velocity_tol whose gap exceeds collision_accuracy * distance_tol / 2 (the 2D engine's
   tolerance on its half gap); h when none. The gap of a free step of length tau is
   d + tau (u0 + a tau) under symplectic Euler (a: the normal acceleration of the free motion,
   (u*_N - u0) / h), zero at tau = 2 d / (-u0 + sqrt(u0^2 - 4 a d)). Per point: first is the
   earliest so far, returned or replaced.
   Under simultaneous handling a plastic point (e = 0) cuts no step: its speculative bound
   (b_N = d / h) stops it exactly at contact, together with every other point closing within
   the step, as one simultaneous impact. A cut at the first point's time of impact would make
   the step's impacts sequential (one corner of a tilted face, then the others), which is
   serial handling; the cut stays where it is needed: restitution (Newton's law at the impact
   velocity) and the serial and hybrid orders. */
static double impact_time(const imp_engine2d_def *d, const imp_e3_point *p, double h, double near, double first)
{
    if (p->e == 0.0 && d->collision_handling == IMP_HANDLING_SIMULTANEOUS) {
        return first;  /* plastic: stopped at contact by its speculative bound, with the others */
    }
    if (p->u0 < -d->velocity_tol && p->distance > near && p->distance + h * p->ustar < 0.0) {
        double a = (p->ustar - p->u0) / h, disc = p->u0 * p->u0 - 4.0 * a * p->distance;
        if (disc >= 0.0) {
            first = imp_fmin(first, 2.0 * p->distance / (-p->u0 + sqrt(disc)));
        }
    }
    return first;
}

/* A point's b_N and whether it is in the step's problem (engine3d.h), for a step of h whose
   free motion e->vel holds. */
static void point_problem(const imp_world *w, const imp_engine3d *e, imp_e3_point *p, double h, int serial,
                          int strategy_contact)
{
    p->bias = bias_of(w, p, h, !serial);
    if (p->handled) {  /* its impacts' impulses are in vel already; the others keep their
                          warm start */
        p->r[0] = p->r[1] = p->r[2] = 0.0;
    }
    if (strategy_contact) {
        p->active = 1;
    } else {
        double un = normal_velocity(p, e->vel + 6 * (size_t)p->a, e->vel + 6 * (size_t)p->b);
        p->active = un + p->bias < 0.0 || p->distance <= w->model.def.engine2d.distance_tol;
    }
}

/* One velocity-level step of at most h_max from the world's state at time now (engine3d.h):
   shortened to the first time of impact when may_split; *h_used says how long it was. */
/* 1 when a body travelled farther since the last detection than its margin allowed for or
   than MAX_TRAVEL distance_tol, or turned by more than MAX_TURN (its points' normals and
   features are the detection's) */
static int travelled_beyond(const imp_world *w, const imp_engine3d *e)
{
    double most = MAX_TRAVEL * w->model.def.engine2d.distance_tol;
    for (int s = 1; s < w->model.nslots; s++) {
        const double *t = e->travel + 3 * (size_t)s;
        if (t[1] > t[0] || t[1] > most || t[2] > MAX_TURN) {
            return 1;
        }
    }
    return 0;
}

/* detect: 0 moves the last sub-step's points (refresh_points), else the detection covers
   span (>= h_max: the rest of the step when the later sub-steps reuse its points). */
static imp_status substep(imp_world *w, imp_engine3d *e, double now, double h_max, int may_split, int detect,
                          double span, double *h_used, char *why, size_t why_len)
{
    double h = h_max;
    e->now = now;
    double t = imp_profile_now();
    /* a = M^-1 F(x0, v0); v* = v0 + h a once h is known */
    double *dydt = w->scratch.work;
    imp_world_derivative(w, now, w->data.y, dydt);
    imp_e3_free_velocities(w, e, dydt, h);
    imp_status fin = imp_e3_check_finite(w, e, h, why, why_len);
    if (fin != IMP_OK) {
        return fin;
    }
    imp_status st;
    for (int k = 0; k < w->model.nslots && detect && e->once; k++) {  /* (detect sets the budgets) */
        e->travel[3 * (size_t)k] = INFINITY;
        e->travel[3 * (size_t)k + 1] = e->travel[3 * (size_t)k + 2] = 0.0;
    }
    if (!detect) {
        refresh_points(w, e);
        st = IMP_OK;
    } else {
        /* sleeping: a detection that wakes an island is done again with it awake */
        for (int woke = 1; woke;) {
            woke = 0;
            if (span > h_max) {  /* the margin covers the step's motion: v* at its end too */
                imp_e3_free_velocities(w, e, dydt, span);
                e->span_bound = 1;
                st = imp_engine3d_detect(w, e, span);
                e->span_bound = 0;
                imp_e3_free_velocities(w, e, dydt, h);
            } else {
                st = imp_engine3d_detect(w, e, h);
            }
            if (st == IMP_OK && imp_e3_sleep_any(w)) {  /* sleeping */
                st = imp_e3_sleep_detected(w, e, &woke);
                if (woke) {
                    imp_e3_free_velocities(w, e, dydt, h);
                }
            }
        }
    }
    t = imp_profile_add(&w->data.profile, IMP_STAGE_DETECT, t);
    if (st != IMP_OK) {
        snprintf(why, why_len, "out of memory in the 3D detection");
        return st;
    }
    world_inverse_inertia(w, e, NULL, 0);
    int strategy_contact = imp_world_strategy_has(w, IMP_STRATEGY_CONTACT_FORCES);
    int serial = w->model.def.engine2d.collision_handling != IMP_HANDLING_SIMULTANEOUS;
    const imp_engine2d_def *def = &w->model.def.engine2d;
    double near = def->collision_accuracy * 0.5 * def->distance_tol, toi = h_max;
    /* one pass over the points: their velocities, the first time of impact and (simultaneous
       handling, for the step of h_max: done again below if the step is cut) their problem */
    for (int c = 0; c < e->npts; c++) {
        imp_e3_point *p = &e->pts[c];
        p->rimp = 0.0;
        p->handled = 0;
        p->u0 = normal_velocity(p, slot_velocity(w, p->a), slot_velocity(w, p->b));
        p->ustar = normal_velocity(p, e->vel + 6 * (size_t)p->a, e->vel + 6 * (size_t)p->b);
        if (p->u0 < -def->velocity_tol) {
            /* an impact: its impulse is no force held from the last step (a warm start from
               an earlier impact would be a kick) */
            p->r[0] = p->r[1] = p->r[2] = 0.0;
        }
        if (may_split) {
            toi = impact_time(def, p, h_max, near, toi);
        }
        if (!serial) {
            point_problem(w, e, p, h_max, serial, strategy_contact);
        }
    }
    int cut = 0;
    if (may_split) {  /* back up to the first impact: the step ends there */
        if (toi < h_max * (1.0 - 1e-9) && toi > h_max * 1e-9) {
            h = toi;
            cut = 1;
            e->stats.backups++;
            imp_e3_free_velocities(w, e, dydt, h);
        }
    }
    *h_used = h;
    if (e->h_last > 0.0 && h < e->h_last) {
        /* warm starts into a shorter sub-step: a held force's impulse shrinks with the step;
           never scaled up (an impulse that stopped a motion does not grow with the step) */
        double scale = h / e->h_last;
        for (int c = 0; c < e->npts; c++) {
            for (int k = 0; k < 3; k++) {
                e->pts[c].r[k] *= scale;
            }
        }
    }
    e->h_last = h;
    t = imp_profile_add(&w->data.profile, IMP_STAGE_INTEGRATE, t);
    for (int c = 0; c < e->npts && cut; c++) {  /* v* of the shorter step */
        imp_e3_point *p = &e->pts[c];
        p->ustar = normal_velocity(p, e->vel + 6 * (size_t)p->a, e->vel + 6 * (size_t)p->b);
    }
    if (serial) {
        st = serial_impacts(w, e, h, why, why_len);
        t = imp_profile_add(&w->data.profile, IMP_STAGE_COLLISIONS, t);
        if (st != IMP_OK) {
            return st;
        }
    }
    for (int c = 0; c < e->npts && (serial || cut); c++) {
        point_problem(w, e, &e->pts[c], h, serial, strategy_contact);
    }
    e->rows_keep = !detect && strategy_contact;  /* every point active, as in the last solve */
    if (imp_e3_joints_begin(w, e, h) != IMP_OK) {  /* joints: rows of this solve (engine3d_joints.h) */
        snprintf(why, why_len, "out of memory for the 3D joints");
        return IMP_ERR_NOMEM;
    }
    st = imp_engine3d_solve(w, e, why, why_len);
    e->rows_keep = 0;
    t = imp_profile_add(&w->data.profile, IMP_STAGE_CONTACT_SOLVE, t);
    if (st != IMP_OK) {
        if (e->failed_a >= 0 && w->data.nerror_bodies < 8) {
            w->data.error_bodies[w->data.nerror_bodies++] = e->failed_a;
            w->data.error_bodies[w->data.nerror_bodies++] = e->failed_b;
        }
        return st;
    }
    imp_engine3d_push_apart(w, e, h, slop(w), BAUMGARTE, PUSH_SWEEPS);
    imp_e3_joints_push(w, e, h);  /* joints: their drift corrected, their impulses kept */
    integrate_positions(w, e, h);
    t = imp_profile_add(&w->data.profile, IMP_STAGE_INTEGRATE, t);
    accumulate_impacts(w, e, h, serial);
    step_events(w, e, !detect);
    /* this step's points become the last ones */
    int n = e->npts;
    swap_lists(e);
    e->nprev = n;
    e->npts = 0;
    e->swapped = 1;
    ev_take(e);
    imp_profile_add(&w->data.profile, IMP_STAGE_CONTACTS, t);
    return IMP_OK;
}

imp_status imp_engine3d_advance(imp_world *w, double t1, char *why, size_t why_len)
{
    imp_engine3d *e = imp_engine3d_get(w);
    if (e == NULL || imp_engine3d_reserve_slots(e, w->model.nslots) != 0
        || imp_e3_sleep_begin(w, e) != IMP_OK) {  /* (sleeping: the edited islands wake) */
        snprintf(why, why_len, "out of memory for the 3D engine");
        return IMP_ERR_NOMEM;
    }
    e->swapped = 0;
    e->failed_a = e->failed_b = -1;
    imp_e3_joints_disarm(e);  /* joints: no rows left from a step that failed */
    e->iso_ready = 0;
    if (w->model.def.engine2d.contact_solver == IMP_SOLVER_SOFT) {  /* the soft step (engine3d_soft.h) */
        take_isotropy(w, e);
        imp_status st = imp_e3_soft_advance(w, e, t1, why, why_len);
        e->iso_ready = 0;
        return st;
    }
    double t0 = w->data.time, h = t1 - t0;
    int backups = 0, max_backups = w->model.def.engine2d.max_backups;
    int k = w->model.def.engine2d.substeps > 1 ? w->model.def.engine2d.substeps : 1;
    /* the swept problem in sub-steps under simultaneous handling detects once per step, the
       later sub-steps moving its points (refresh_points); the exact solver, serial and hybrid
       handling and single steps detect at every sub-step */
    const imp_engine2d_def *def = &w->model.def.engine2d;
    int once = k > 1 && def->contact_solver == IMP_SOLVER_PGS && def->collision_handling == IMP_HANDLING_SIMULTANEOUS;
    if (once && e->dpose_cap < w->model.nslots) {
        double *m = realloc(e->dpose, (size_t)w->model.nslots * 12 * sizeof *m);
        if (m != NULL) {
            e->dpose = m;
            m = realloc(e->travel, (size_t)w->model.nslots * 3 * sizeof *m);
        }
        if (m == NULL) {
            snprintf(why, why_len, "out of memory for the 3D engine");
            return IMP_ERR_NOMEM;
        }
        e->travel = m;
        e->dpose_cap = w->model.nslots;
    }
    e->once = once;
    /* the first sub-step detects, and the one after a cut or a body's move; a step after one
       whose bodies moved detects at every sub-step (its margin its own: recycling holds) */
    int redetect = 1, reuse = once && !e->moving, moved = 0;
    for (int i = 0; i < k; i++) {  /* the sub-steps of equal length, each cut at impacts */
        double start = t0 + h * i / k, len = i == k - 1 ? t1 - start : h / k, done = 0.0;
        e->skip_error = i < k - 1;
        while (done < len) {
            double left = len - done, used;
            double span = reuse ? t1 - (start + done) : left;
            imp_status st = substep(w, e, start + done, left, backups < max_backups, !reuse || redetect, span, &used,
                                    why, why_len);
            if (st != IMP_OK) {
                e->once = 0;
                return st;
            }
            /* again after a cut, or once a body went farther than the margin allowed for
               (an impact's momentum passed on within the step): no contact is missed */
            int beyond = once && travelled_beyond(w, e);
            moved |= beyond;
            redetect = used < left || beyond;
            if (used < left) {
                backups++;
                done += used;
            } else {
                done = len;
            }
        }
    }
    e->skip_error = 0;
    e->once = 0;
    e->moving = moved;
    e->stats.steps++;
    if (imp_e3_sleep_end(w, e, h) != IMP_OK) {  /* sleeping: the islands at rest fall asleep */
        snprintf(why, why_len, "out of memory for the 3D engine's islands");
        return IMP_ERR_NOMEM;
    }
    return IMP_OK;
}

/* the soft step's held points updated in place no longer in e->prev's array alone: e->pts its
   own again (the step's end or a failure) */
static void unalias(imp_engine3d *e)
{
    if (e->aliased) {
        e->pts = e->spare;
        e->pts_cap = e->spare_cap;
        e->spare = NULL;
        e->spare_cap = 0;
        e->aliased = 0;
    }
    e->prev_dirty = 0;
    e->nev_point = 0;
}

void imp_engine3d_restore(imp_world *w)
{
    imp_engine3d *e = w->engine3d;
    if (e != NULL && !e->swapped && e->prev_dirty) {
        /* the step failed after its held points were updated in place in e->prev's array
           (engine3d_soft_recycle.h): the last list is gone, as when a step fails after the
           swap below: warm starts restart */
        unalias(e);
        e->npts = 0;
        e->nprev = 0;
        e->ev_valid = 0;
    }
    if (e == NULL || !e->swapped) {
        return;
    }
    int n = e->nprev;
    swap_lists(e);
    e->npts = n;
    e->nprev = 0;  /* the list before the failed step is gone: warm starts restart */
    e->swapped = 0;
}

/* The force-level stepping's uses of this file (engine3d_ode.c). */
void imp_engine3d_inverse_inertia(imp_world *w, imp_engine3d *e) { world_inverse_inertia(w, e, NULL, 0); }

void imp_engine3d_inverse_inertia_rot(imp_world *w, imp_engine3d *e, const double *rot)
{
    world_inverse_inertia(w, e, rot, 1);
}

imp_status imp_engine3d_serial_impacts(imp_world *w, imp_engine3d *e, double h, char *why, size_t why_len)
{
    return serial_impacts(w, e, h, why, why_len);
}

void imp_engine3d_finish(imp_world *w, imp_engine3d *e)
{
    step_events(w, e, 0);
    int n = e->npts;
    int aliased = e->aliased;
    unalias(e);
    if (aliased) {  /* the step's points were e->prev's array already: e->pts took its own back */
        e->ev_valid = 0;  /* (swap_lists') */
    } else {
        swap_lists(e);
    }
    e->nprev = n;
    e->npts = 0;
    e->swapped = 1;
    ev_take(e);
}
