/* joint2d.c: connectors of the 2D engine (myPhysicsLab's Joint and Rope): joints hold a point
   of one body on a point of another body (or of the background) along one direction or both
   (a pin), the directions fixed in the world or in body 2's frame (turning with it, as
   myPhysicsLab's CoordType.BODY); ropes keep two points at most a length apart, rods exactly.
   They become records (engine2d.h) solved with the contacts: joints and rods as bilateral
   rows, ropes as unilateral rows when within distance_tol of taut. */
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engine2d.h"
#include "engine2d_move.h"
#include "engine2d_path_joint.h"
#include "filter.h"
#include "islands.h"
#include "slots.h"
#include "world_internal.h"

int imp_engine2d_connector_alive(const imp_world *w, const imp_connector2d *c)
{
    if (!c->active || c->body1 >= w->model.nslots || c->body2 >= w->model.nslots) {
        return 0;
    }
    const imp_body *b1 = &w->model.bodies[c->body1], *b2 = &w->model.bodies[c->body2];
    return b1->active && b2->active && b1->generation == c->gen1 && b2->generation == c->gen2;
}

static void to_world(const double *ys, const double *pb, double *pw)
{
    double cs = cos(ys[2]), sn = sin(ys[2]);
    pw[0] = ys[0] + cs * pb[0] - sn * pb[1];
    pw[1] = ys[1] + sn * pb[0] + cs * pb[1];
}

void imp_engine2d_connector_points(const imp_world *w, const double *y, const imp_connector2d *c,
                                   double p1[2], double p2[2])
{
    (void)w;
    to_world(y + (size_t)c->body1 * IMP_STRIDE_2D, c->point1, p1);
    to_world(y + (size_t)c->body2 * IMP_STRIDE_2D, c->point2, p2);
}

int imp_engine2d_joint_normal(const imp_world *w, const double *y, const imp_connector2d *c, int k,
                              double n[2])
{
    n[0] = c->both ? (k == 0 ? 1.0 : 0.0) : c->normal[0];
    n[1] = c->both ? (k == 0 ? 0.0 : 1.0) : c->normal[1];
    if (!c->body_frame) {
        return 0;
    }
    /* myPhysicsLab's CoordType.BODY: the direction turns with body 2 (the background's frame,
       and a fixed body's, do not turn) */
    double a = y[(size_t)c->body2 * IMP_STRIDE_2D + 2], cs = cos(a), sn = sin(a);
    double m0 = n[0], m1 = n[1];
    n[0] = cs * m0 - sn * m1;
    n[1] = sn * m0 + cs * m1;
    return c->body2 != 0 && !w->model.bodies[c->body2].fixed;
}

int imp_engine2d_add_connector(imp_world *w, const imp_connector2d *c, char *why, size_t why_size)
{
    imp_engine2d *e = imp_engine2d_get(w);
    if (e == NULL) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    if (w->model.def.dim != 2) {
        snprintf(why, why_size, "joints, ropes and rods are for 2D worlds");
        return -1;
    }
    if (c->body1 == c->body2) {
        snprintf(why, why_size, "a connector needs two different bodies");
        return -1;
    }
    if (!imp_body_free(&w->model.bodies[c->body1]) && !imp_body_free(&w->model.bodies[c->body2])) {
        snprintf(why, why_size, "a connector between two fixed or kinematic bodies does nothing");
        return -1;
    }
    for (int k = 0; k < 2; k++) {
        if (!isfinite(c->point1[k]) || !isfinite(c->point2[k]) || !isfinite(c->normal[k])) {
            snprintf(why, why_size, "a connector's points and normal must be finite");
            return -1;
        }
    }
    if (c->kind == IMP_JOINT && !c->both && fabs(hypot(c->normal[0], c->normal[1]) - 1.0) > 1e-9) {
        snprintf(why, why_size, "a joint's normal must be a unit vector");
        return -1;
    }
    if ((c->kind == IMP_PATH || c->kind == IMP_PATH_END) && (c->body2 != 0 || w->engine2d == NULL || c->path < 0
                                || c->path >= w->engine2d->npaths)) {
        snprintf(why, why_size, "a path joint or end holds a body on a path of the world's "
                 "background");
        return -1;
    }
    if ((c->kind == IMP_ROPE || c->kind == IMP_ROD) && !(c->length > 0.0 && isfinite(c->length))) {
        snprintf(why, why_size, "a rope's or rod's length must be a positive finite number, got %g",
                 c->length);
        return -1;
    }
    int index = imp_slots_take((void **)&e->conn, &e->nconn, &e->conn_cap, sizeof(imp_connector2d),
                               offsetof(imp_connector2d, active),
                               offsetof(imp_connector2d, generation));
    if (index < 0) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    unsigned gen = e->conn[index].generation;
    e->conn[index] = *c;
    e->conn[index].generation = gen;
    e->conn[index].active = 1;
    e->conn[index].gen1 = w->model.bodies[c->body1].generation;
    e->conn[index].gen2 = w->model.bodies[c->body2].generation;
    e->exclude_dirty = 1;
    e->conn_version++;
    e->joints_new |= c->kind != IMP_ROPE;
    imp_islands_wake(w, c->body1);  /* sleeping: a new connector wakes its bodies */
    imp_islands_wake(w, c->body2);
    return index;
}

imp_status imp_engine2d_remove_connector(imp_world *w, int index, unsigned generation)
{
    imp_engine2d *e = w->engine2d;
    if (e == NULL || index < 0 || index >= e->nconn || !e->conn[index].active
        || e->conn[index].generation != generation) {
        return IMP_ERR_STALE;
    }
    e->conn[index].active = 0;
    e->conn[index].generation++;
    imp_islands_wake(w, e->conn[index].body1);  /* sleeping: so does a removed one */
    imp_islands_wake(w, e->conn[index].body2);
    e->exclude_dirty = 1;
    e->conn_version++;
    return IMP_OK;
}

static imp_rec2d *new_record(imp_engine2d *e)
{
    if (imp_engine2d_reserve_records(e, e->nrec + 1) != 0) {
        return NULL;
    }
    imp_rec2d *r = &e->rec[e->nrec++];
    memset(r, 0, sizeof *r);
    return r;
}

int imp_engine2d_connector_records(imp_world *w, const double *y)
{
    imp_engine2d *e = w->engine2d;
    double dtol = w->model.def.engine2d.distance_tol;
    for (int i = 0; i < e->nconn; i++) {
        const imp_connector2d *c = &e->conn[i];
        if (!imp_engine2d_connector_alive(w, c) || imp_islands_resting_pair(w, c->body1, c->body2)) {  /* (sleeping) */
            continue;
        }
        if (c->kind == IMP_PATH || c->kind == IMP_PATH_END) {
            if ((c->kind == IMP_PATH ? imp_engine2d_path_record(w, y, &e->conn[i], i)
                                     : imp_engine2d_path_end_record(w, y, &e->conn[i], i)) != 0) {
                return -1;
            }
            continue;
        }
        double p1[2], p2[2], v1[2], v2[2];
        imp_engine2d_connector_points(w, y, c, p1, p2);
        imp_e2_point_velocity(y + (size_t)c->body1 * IMP_STRIDE_2D, p1, v1);
        imp_e2_point_velocity(y + (size_t)c->body2 * IMP_STRIDE_2D, p2, v2);
        const double dv[2] = {v1[0] - v2[0], v1[1] - v2[1]};
        if (c->kind == IMP_JOINT) {
            int nrows = c->both ? 2 : 1;
            for (int k = 0; k < nrows; k++) {
                double n[2];
                int turning = imp_engine2d_joint_normal(w, y, c, k, n);
                imp_rec2d *r = new_record(e);
                if (r == NULL) {
                    return -1;
                }
                r->p = c->body1;
                r->q = c->body2;
                r->kind = IMP_REC_JOINT;
                r->bilateral = 1;
                r->connector = i;
                r->fixed_normal = !turning;
                r->normal[0] = n[0];
                r->normal[1] = n[1];
                /* the impact point is the body-2 attach point; body 1's lever arm goes to
                   its own attach point (the constraint is n . (p1 - p2) = 0) */
                memcpy(r->point, p2, sizeof r->point);
                memcpy(r->u1, p1, sizeof r->u1);
                memcpy(r->u2, p2, sizeof r->u2);
                r->distance = n[0] * (p1[0] - p2[0]) + n[1] * (p1[1] - p2[1]);
                imp_engine2d_finish_record(w, y, r);
                r->velocity = n[0] * dv[0] + n[1] * dv[1];
                r->friction = 0.0;
                r->key = imp_engine2d_key(-1, i, k, 0, 0, 0);
                const double *yp = y + (size_t)r->p * IMP_STRIDE_2D;
                r->jp[2] = (p1[0] - yp[0]) * n[1] - (p1[1] - yp[1]) * n[0];
            }
            continue;
        }
        double d[2] = {p2[0] - p1[0], p2[1] - p1[1]};
        double len = hypot(d[0], d[1]);
        double gap = c->length - len;
        if (c->kind == IMP_ROPE && gap >= dtol) {
            continue;  /* slack */
        }
        if (!(len > 1e-12)) {
            continue;  /* no direction: a rope of positive length cannot be taut here */
        }
        imp_rec2d *r = new_record(e);
        if (r == NULL) {
            return -1;
        }
        /* the normal points from p1 toward p2: +f n on body 1 pulls it toward body 2; the gap
           is the slack, length - |p2 - p1|; the normal turns about p2 with radius -len
           (a concave edge, Curved Edge Physics) */
        r->p = c->body1;
        r->q = c->body2;
        r->kind = IMP_REC_JOINT;
        r->bilateral = c->kind == IMP_ROD;
        r->connector = i;
        r->curved = 1;
        r->normal[0] = d[0] / len;
        r->normal[1] = d[1] / len;
        memcpy(r->u1, p1, sizeof r->u1);
        memcpy(r->u2, p2, sizeof r->u2);
        /* lever arms: body 1's to p1 (from finish_record), body 2's to p2 (below) */
        memcpy(r->point, p1, sizeof r->point);
        r->distance = gap;
        r->target = c->kind == IMP_ROPE ? 0.5 * dtol : 0.0;  /* a rope is caught at the half gap */
        imp_engine2d_finish_record(w, y, r);
        r->velocity = r->normal[0] * dv[0] + r->normal[1] * dv[1];
        if (c->kind == IMP_ROPE && r->velocity < -w->model.def.engine2d.velocity_tol) {
            r->kind = IMP_HIT_IMMINENT;  /* jerking taut: a collision when it reaches the half gap */
        }
        r->friction = 0.0;
        r->key = imp_engine2d_key(-1, i, 2, 0, 0, 0);
        const double *yq = y + (size_t)r->q * IMP_STRIDE_2D;
        const double rq[2] = {p2[0] - yq[0], p2[1] - yq[1]};
        r->jq[2] = -(rq[0] * r->normal[1] - rq[1] * r->normal[0]);
    }
    return 0;
}
