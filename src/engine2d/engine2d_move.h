/* engine2d_move.h: a body point's velocity (the contacts, the connectors and the collision
   advance use it), a record's Jacobian rows and normal velocity, and a record moved rigidly
   with its bodies (imp_engine2d_move_record), inline: engine2d_detect.c defines the engine's
   functions with them, and the soft step (engine2d_soft.c) moves its records with them in
   the pass that shapes its rows, the same operations in the same order. */
#ifndef IMPACT_ENGINE2D_MOVE_H
#define IMPACT_ENGINE2D_MOVE_H

#include <math.h>
#include <stddef.h>

#include "engine2d.h"
#include <impact/body.h>

/* the velocity v of the world point u of the body whose state is ys (v + w x (u - x) in 2D) */
static inline void imp_e2_point_velocity(const double *ys, const double *u, double *v)
{
    v[0] = ys[3] - ys[5] * (u[1] - ys[1]);
    v[1] = ys[4] + ys[5] * (u[0] - ys[0]);
}

static inline double imp_e2_point_velocity_dot(const double *ys, const double *r, const double *n)
{
    /* (v + w x r) . n in 2D */
    return (ys[3] - ys[5] * r[1]) * n[0] + (ys[4] + ys[5] * r[0]) * n[1];
}

/* r's Jacobian rows and normal velocity at y, its bodies at yp and yq, its point pt and
   normal n (values: r's stores cannot alias them) */
static inline void imp_e2_jacobian_at(const double *yp, const double *yq, const double *pt, const double *n,
                                      imp_rec2d *r)
{
    /* lever arms to the impact point (forces act along the normal through it) */
    double rp[2] = {pt[0] - yp[0], pt[1] - yp[1]};
    double rq[2] = {pt[0] - yq[0], pt[1] - yq[1]};
    r->jp[0] = n[0];
    r->jp[1] = n[1];
    r->jp[2] = rp[0] * n[1] - rp[1] * n[0];
    r->jq[0] = -n[0];
    r->jq[1] = -n[1];
    r->jq[2] = -(rq[0] * n[1] - rq[1] * n[0]);
    if (r->connector < 0) {
        r->velocity = imp_e2_point_velocity_dot(yp, rp, n) - imp_e2_point_velocity_dot(yq, rq, n);
    }
}

/* r moved with its bodies to y (cs: 2 per slot, the cosines and sines of the angles at y):
   imp_engine2d_move_record */
static inline __attribute__((always_inline)) void imp_e2_move_record(const double *y, const double *cs,
                                                                    imp_rec2d *r)
{
    /* (in locals: the same operations in the same order, without the reloads that r's stores
       would force) */
    const double *yp = y + (size_t)r->p * IMP_STRIDE_2D, *yq = y + (size_t)r->q * IMP_STRIDE_2D;
    double cp = cs[2 * r->p], sp = cs[2 * r->p + 1], c = cs[2 * r->q], sn = cs[2 * r->q + 1];
    double n0 = r->normal[0], n1 = r->normal[1];
    double old_u1u2 = n0 * (r->u1[0] - r->u2[0]) + n1 * (r->u1[1] - r->u2[1]);
    double gap0 = r->distance - old_u1u2;  /* distance = n . (u1 - u2) + constant (radii) */
    const double u1[2] = {yp[0] + cp * r->lu1[0] - sp * r->lu1[1], yp[1] + sp * r->lu1[0] + cp * r->lu1[1]};
    const double u2[2] = {yq[0] + c * r->lu2[0] - sn * r->lu2[1], yq[1] + sn * r->lu2[0] + c * r->lu2[1]};
    double n[2] = {c * r->lnormal[0] - sn * r->lnormal[1], sn * r->lnormal[0] + c * r->lnormal[1]};
    int curved = r->curved;
    if (curved) {  /* the normal turns with the line of centres */
        double dx = u1[0] - u2[0], dy = u1[1] - u2[1], l = hypot(dx, dy);
        double sign = old_u1u2 < 0.0 ? -1.0 : 1.0;
        if (l > 1e-12) {
            n[0] = sign * dx / l;
            n[1] = sign * dy / l;
        }
    }
    double along = n[0] * (u1[0] - u2[0]) + n[1] * (u1[1] - u2[1]);
    /* the impact point: the normal body's point moved with it, slid along the surface to
       face u1 (straight edges) */
    const double pq[2] = {yq[0] + c * r->lpoint[0] - sn * r->lpoint[1],
                          yq[1] + sn * r->lpoint[0] + c * r->lpoint[1]};
    const double t[2] = {-n[1], n[0]};
    double slide = curved ? 0.0 : t[0] * (u1[0] - pq[0]) + t[1] * (u1[1] - pq[1]);
    const double pt[2] = {pq[0] + slide * t[0], pq[1] + slide * t[1]};
    r->u1[0] = u1[0], r->u1[1] = u1[1];
    r->u2[0] = u2[0], r->u2[1] = u2[1];
    r->normal[0] = n[0], r->normal[1] = n[1];
    r->distance = along + gap0;
    r->point[0] = pt[0], r->point[1] = pt[1];
    imp_e2_jacobian_at(yp, yq, pt, n, r);
}

#endif
