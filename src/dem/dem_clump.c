/* dem_clump.c: the motion of clumps in the dem strategy (Yade's Clump with its
   NewtonIntegrator branch for aspherical bodies).

   Each step the members' forces and torques are summed onto the clump about its centre of
   mass X: F = sum f_i, T = sum (t_i + (x_i - X) x f_i). Translation is the spheres' leapfrog
   with Cundall's damping per component. Rotation is a leapfrog on the angular momentum L
   (world frame, at half steps), as Yade's aspherical rotation (after Fincham, "Leapfrog
   rotational algorithms", Molecular Simulation 8 (1992) 165-178), here made time-symmetric:
     L(n + 1/2) = L(n - 1/2) + dt T_damped(n)
     w(n + 1/2) = R_m I^-1 R_m^T L(n + 1/2),  R_m the orientation at the middle of the step,
                  q_m = rot(w(n + 1/2) dt / 2) q(n): an implicit equation, solved by fixed-point
                  iteration to a relative 1e-15 (a contraction by about |w| dt per iteration)
     q(n + 1) = rot(w(n + 1/2) dt) q(n)  (the exact rotation by a constant w over the step)
   Without torque L is unchanged bit for bit, so angular momentum is conserved exactly; the
   scheme is symmetric in time, so the kinetic energy 1/2 w.L of a torque-free body does not
   drift: it oscillates by O((|w| dt)^2) (spec/dem_clump_spec.lua). The world keeps q(n + 1)
   and w(n + 1/2); L is recomputed from them (with q_m = rot(-w dt / 2) q(n + 1)) only when they
   were edited from outside, and saved with the scene, so reloading continues bit-identically.
   Cundall's damping scales each torque component by 1 - d sgn(T_k w_k), w the estimate of the
   angular velocity at t(n) (from L(n - 1/2) + dt/2 T at q(n)), as for spheres.
   Members then follow: x_i = X + R o_i, v_i = v + w x R_m o_i (R_m: the orientation in the
   middle of the step, rot(-w dt / 2) q(n + 1)), their spin w.
   Cost: O(members) per clump, plus a few 3x3 products per fixed-point iteration. */
#include <math.h>
#include <string.h>

#include "dem.h"
#include "quat.h"

static imp_quat rotation(imp_vec3 w, double tau)
{
    double l = imp_v3_len(w);
    if (!(l > 0.0)) {
        return imp_q_identity();
    }
    double h = 0.5 * l * tau, s = sin(h) / l;
    return imp_q(cos(h), s * w.x, s * w.y, s * w.z);
}

static imp_quat qload(const double *q) { return imp_q(q[0], q[1], q[2], q[3]); }

/* R I^-1 R^T L at orientation q */
static imp_vec3 omega_of(const imp_dem_clump *C, imp_quat q, imp_vec3 L)
{
    return imp_q_rotate(q, imp_m3_mulv(&C->inv_inertia, imp_q_unrotate(q, L)));
}

void imp_dem_clump_place(imp_dem *d, int c, double dt)
{
    const imp_dem_clump *C = &d->clumps[c];
    imp_quat q = qload(C->quat);
    imp_vec3 w = imp_v3_load(C->angvel);
    imp_quat qm = imp_q_mul(rotation(w, -0.5 * dt), q);
    for (int m = 0; m < C->count; m++) {
        int i = C->first + m;
        imp_vec3 r = imp_q_rotate(q, imp_v3_load(d->moff + 3 * i));
        /* the velocity of the step just made, like the spheres' leapfrog velocities: with the
           arm of the middle of the step (the arm at its end would add a centripetal term
           w x (w x r) dt / 2, which contacts would take for sliding) */
        imp_vec3 v = imp_v3_cross(w, imp_q_rotate(qm, imp_v3_load(d->moff + 3 * i)));
        for (int k = 0; k < 3; k++) {
            d->pos[3 * i + k] = C->pos[k] + imp_v3_get(r, k);
            d->vel[3 * i + k] = C->vel[k] + imp_v3_get(v, k);
            d->angvel[3 * i + k] = C->angvel[k];
        }
        memcpy(d->quat + 4 * i, C->quat, 4 * sizeof *C->quat);
    }
}

void imp_dem_clump_load(imp_dem *d, int c, const double *y, double dt)
{
    imp_dem_clump *C = &d->clumps[c];
    for (int k = 0; k < 3; k++) {
        C->pos[k] = y[k];
        C->vel[k] = y[7 + k];
        C->angvel[k] = y[10 + k];
    }
    memcpy(C->quat, y + 3, 4 * sizeof *y);
    /* L at the half step: the orientation half a step back along the last rotation */
    imp_vec3 w = imp_v3_load(C->angvel);
    imp_quat qm = imp_q_mul(rotation(w, -0.5 * dt), qload(C->quat));
    imp_v3_store(C->L, imp_q_rotate(qm, imp_m3_mulv(&C->inertia, imp_q_unrotate(qm, w))));
    imp_dem_clump_place(d, c, dt);
}

void imp_dem_clump_wrench(const imp_dem *d, int c, double f[3], double t[3])
{
    const imp_dem_clump *C = &d->clumps[c];
    imp_vec3 F = imp_v3_zero(), T = imp_v3_zero();
    for (int m = 0; m < C->count; m++) {
        int i = C->first + m;
        const int written = imp_dem_force_written(d, i);  /* else both zero */
        imp_vec3 fi = written ? imp_v3_load(d->force + 3 * i) : imp_v3_zero();
        imp_vec3 ti = written ? imp_v3_load(d->torque + 3 * i) : imp_v3_zero();
        imp_vec3 arm = imp_v3_sub(imp_v3_load(d->pos + 3 * i), imp_v3_load(C->pos));
        F = imp_v3_add(F, fi);
        T = imp_v3_add(T, imp_v3_add(ti, imp_v3_cross(arm, fi)));
    }
    imp_v3_store(f, F);
    imp_v3_store(t, T);
}

static double sgn(double x) { return (double)((x > 0.0) - (x < 0.0)); }

/* one clump over one step; returns gravity's work and the damping's loss in e[2] */
static void step_one(imp_dem *d, int c, const double g[3], double dt, double e[2])
{
    imp_dem_clump *C = &d->clumps[c];
    e[0] = e[1] = 0.0;
    if (C->fixed) {
        return;
    }
    double F[3], T[3];
    imp_dem_clump_wrench(d, c, F, T);
    const double damp = d->p.damping, hdt = 0.5 * dt;
    /* translation: the spheres' leapfrog */
    for (int k = 0; k < 3; k++) {
        double a = F[k] * C->inv_mass + g[k];
        double xs = C->vel[k] + hdt * a;
        double ad = a - damp * fabs(a) * sgn(xs);
        double vm = C->vel[k] + hdt * ad;
        e[0] += C->mass * g[k] * vm * dt;
        e[1] -= C->mass * (ad - a) * vm * dt;
        C->vel[k] += dt * ad;
        C->pos[k] += dt * C->vel[k];
    }
    /* rotation */
    imp_quat q = qload(C->quat);
    imp_vec3 L = imp_v3_load(C->L), Tv = imp_v3_load(T);
    imp_vec3 wn = omega_of(C, q, imp_v3_madd(L, hdt, Tv));  /* w(n), for the damping's sign */
    double Td[3];
    for (int k = 0; k < 3; k++) {
        Td[k] = T[k] - damp * fabs(T[k]) * sgn(imp_v3_get(wn, k));
    }
    imp_vec3 Ln = imp_v3_madd(L, dt, imp_v3_load(Td));
    imp_vec3 w = wn;
    for (int it = 0; it < 50; it++) {
        imp_quat qm = imp_q_mul(rotation(w, hdt), q);
        imp_vec3 w2 = omega_of(C, qm, Ln);
        double diff = fmax(fabs(w2.x - w.x), fmax(fabs(w2.y - w.y), fabs(w2.z - w.z)));
        double size = fmax(fabs(w2.x), fmax(fabs(w2.y), fabs(w2.z)));
        w = w2;
        if (diff <= 1e-15 * size) {
            break;
        }
    }
    imp_vec3 wold = imp_v3_load(C->angvel);
    for (int k = 0; k < 3; k++) {
        double wm = 0.5 * (imp_v3_get(wold, k) + imp_v3_get(w, k));
        e[1] -= (Td[k] - T[k]) * wm * dt;
    }
    imp_quat qn = imp_q_normalize(imp_q_mul(rotation(w, dt), q));
    C->quat[0] = qn.w, C->quat[1] = qn.x, C->quat[2] = qn.y, C->quat[3] = qn.z;
    imp_v3_store(C->angvel, w);
    imp_v3_store(C->L, Ln);
    imp_dem_clump_place(d, c, dt);
}

void imp_dem_clump_newton(imp_dem *d, const double gravity[3], double dt, double *wg, double *wd)
{
    const int nc = d->nclumps, track = d->p.track_energy;
    double sg = 0.0, sd = 0.0;
    /* clumps are independent: parallel under OpenMP, except when booking energy (a sum whose
       rounding would depend on the threads) */
#ifdef _OPENMP
    _Pragma("omp parallel for if (!track && nc > 64) reduction(+ : sg, sd) schedule(static)")
#endif
    for (int c = 0; c < nc; c++) {
        double e[2];
        step_one(d, c, gravity, dt, e);
        sg += e[0];
        sd += e[1];
    }
    if (track) {
        *wg += sg;
        *wd += sd;
    }
}
