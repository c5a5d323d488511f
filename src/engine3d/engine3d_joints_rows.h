/* engine3d_joints_rows.h: the joints' records and rows (engine3d_joints.h), shared by the
   rows' code (engine3d_joints.c) and the exact problem's (engine3d_joints_exact.c). */
#ifndef IMPACT_ENGINE3D_JOINTS_ROWS_H
#define IMPACT_ENGINE3D_JOINTS_ROWS_H

#include <math.h>
#include <stddef.h>

#include "engine3d_joints.h"
#include "pairset.h"
#include "world_internal.h"

/* Row slots of a joint (warm starts): 0 the motor, 1 and 2 the limits, 3.. the equality rows. */
#define SLOTS 9

enum { ROW_EQ = 0, ROW_UNI = 1, ROW_MOTOR = 2 };

typedef struct imp_e3_joint {
    imp_joint3d_def d;
    /* inside, 1 is the base (body2, the background by default) and 2 the follower (body1):
       the hinge's angle, the slider's travel and a motor's speed are body1's relative to body2 */
    int s1, s2;            /* slots: body2, body1 */
    double p1[3], p2[3];   /* point2, point1 */
    double ax1[3], ax2[3]; /* the axis in the base's and the follower's frames */
    double b1[3], c1[3];   /* perpendiculars to it in the base's frame */
    double b2[3];          /* b1's copy in the follower's frame (the hinge's zero angle, the twist) */
    unsigned gen1, gen2, generation;
    int active;
    double lambda[SLOTS];  /* the last step's impulses: warm starts */
    double h_last;
} imp_e3_joint;

typedef struct imp_j3_row {
    int joint, slot, kind;
    int a, b;              /* moving slots, -1 for a side that does not move */
    double J[12];          /* u = J (v1, w1, v2, w2) */
    double MJ[12];         /* M^-1 J^T, per side */
    double meff;           /* 1 / (J M^-1 J^T), 0 for a row no body can follow */
    double bias, lo, hi, lambda;
    double c;              /* the row's function: C (equality rows), the gap (unilateral) */
    double err;            /* position error to correct (0: none) */
    double plambda;        /* the position pass's pseudo-impulse */
} imp_j3_row;

struct imp_e3_joints {
    imp_e3_joint *j;
    int n, cap;
    imp_j3_row *rows;
    int nrows, rows_cap;
    int armed;
    /* the pairs of bodies a joint joins (they do not collide), for bodies_version */
    imp_pairset exclude;
    int exclude_dirty;
    unsigned exclude_version;
    /* the exact path's problem: full rows (contacts, then the joints'), triplets of W */
    int full_cap;
    double *q, *mu, *warm, *r, *u, *qr, *wr, *mur;
    unsigned char *bil, *bilr;
    int *map, *back;
    size_t tcap;
    int *ti, *tj, *tri, *trj;
    double *tv, *trv;
    int *rp, *col, *work;
    double *val;
    int *base;             /* per joint row: its first full row */
    int base_cap;
    /* the joints on each moving slot (W couples rows through shared bodies) */
    int *slot_head, slot_cap;
    int *jnext, *jfirst, *jcount, *jmark, *jmark2, jcap;
    imp_coulomb_workspace *ws;
};

static inline void cross(const double a[3], const double b[3], double out[3])
{
    double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
    out[0] = x, out[1] = y, out[2] = z;
}

static inline double dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static inline int moving(const imp_world *w, int s) { return s > 0 && !w->model.bodies[s].fixed ? s : -1; }


/* u = J v with the velocities vel (6 per slot) */
static inline double row_velocity(const imp_j3_row *r, const double *vel)
{
    double u = 0.0;
    if (r->a >= 0) {
        const double *v = vel + 6 * (size_t)r->a;
        u += dot(r->J, v) + dot(r->J + 3, v + 3);
    }
    if (r->b >= 0) {
        const double *v = vel + 6 * (size_t)r->b;
        u += dot(r->J + 6, v) + dot(r->J + 9, v + 3);
    }
    return u;
}

/* vel += M^-1 J^T dl */
static inline void row_apply(const imp_j3_row *r, double *vel, double dl)
{
    for (int side = 0; side < 2; side++) {
        int s = side == 0 ? r->a : r->b;
        if (s < 0) {
            continue;
        }
        double *v = vel + 6 * (size_t)s;
        for (int k = 0; k < 6; k++) {
            v[k] += r->MJ[6 * side + k] * dl;
        }
    }
}

#endif
