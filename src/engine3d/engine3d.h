/* engine3d.h: the 3D rigid-body engine of the "impulse" and "contact" strategies in 3D worlds:
   velocity-level time stepping with exact Coulomb friction (Stewart & Trinkle 1996; Anitescu &
   Potra 1997; Moreau-Jean), one contact problem per step.

   One step of h from (x0, v0) (engine3d_step.c):
     1. detect (engine3d_detect.c): a sort-and-sweep broad phase over the bodies' boxes grown
        by what they can travel in the step, then each pair's contact manifold (manifold3d.h:
        up to four points sharing a normal, with feature keys). A pair whose bodies moved
        little relative to each other since its manifold was computed rebuilds it from the
        bodies' frames, and a pair still farther apart than its margin by its last gap is
        skipped (contact recycling, engine3d_cache.h). The points are matched by key
        with the last step's, so each starts from its last impulse (warm start) and begins and
        ends are known (events).
     2. v* = v0 + h M^-1 F(x0, v0): gravity, springs, applied and gyroscopic forces.
     3. contact_solve (engine3d_solve.c): the impulses r_c (normal, two tangents) such that
          v1 = v* + M^-1 J^T r,   u = J v1 + b,
          per point: r in the Coulomb cone |r_T| <= mu r_N (the true, circular cone, so
          friction is isotropic), u_N >= 0, r_N u_N = 0, and the friction opposes the slip
          (|r_T| < mu r_N => u_T = 0) -- Siconos' frictional contact problem with
          W = J M^-1 J^T (lcp_coulomb.h), solved exactly (contact_solver = "lcp") or by
          matrix-free projected Gauss-Seidel sweeps over the points ("pgs").
        b_N holds what the normal velocity may be: a gap d > 0 may close within the step
        (b_N = d / h: speculative contact, no tunnelling at any speed); a penetration deeper
        than a slop is pushed out at a fraction of its depth per step; an approaching contact
        faster than velocity_tol that closes within the step bounces with the restitution e
        (u_N >= -e u_N(v0), Newton's law).
     4. x1 = x0 + h v1, orientations by the exact rotation of w1 h.
   Strategies: "contact" puts every point within the margin in the problem (speculative
   points included); "impulse" the points that touch (gap <= distance_tol) or would close
   their gap within the step (u_N(v*) + b_N < 0) -- collisions by impulses, a body at rest
   held by the inelastic impulse that stops its approach each step. At velocity level the
   two differ only by that set: a point left out carries no impulse either way. collision_handling
   "simultaneous" solves all points at once; "serial" one pair at a time in a random order
   until none approaches, then a last simultaneous pass with e = 0; "hybrid" the same with
   a body's pairs together.
   time_stepping = "ode" steps instead with the world's integrator, force-level contact and
   the collision advance of the 2D engine (engine3d_ode.h); "symplectic_euler" (the 3D
   default) is what this header describes. */
#ifndef IMPACT_ENGINE3D_H
#define IMPACT_ENGINE3D_H

#include <stddef.h>

#include "broadphase3d.h"
#include "engine3d_pairlist.h"
#include "polytope_intersect.h"
#include <impact/coulomb.h>
#include <impact/status.h>

struct imp_world;

/* One contact point of a body pair. */
typedef struct imp_e3_point {
    /* laid out by who reads it: the first 64-byte line (identity, flags, gap, impulse) is
       what the passes over all points read (events, matching, the per-pair walks, the soft
       step's finish_points with acc beside it); the held test and its in-place hold
       (engine3d_soft_recycle.c) read and write bytes 0 to 208 (the line, acc's, the frame and
       the world points) and of the last 96 only mu, e and bias (written), not the solve's
       scratch and the anchors, which the soft step's prepare_row reads */
    int a, b;             /* slots, a < b (0: the background) */
    unsigned key;         /* feature key within the pair (manifold3d.h) */
    int going;            /* an impact impulse this step */
    unsigned gen_a, gen_b; /* their generations (a point of a removed body matches nothing) */
    int fresh;            /* 1 when the key was not there the step before */
    int was_touching;     /* its pair's touching test held for it in the last sub-step (detection
                             once per step, engine3d_step.c) */
    double distance;      /* signed gap along the normal at detection */
    double r[3];          /* impulse (N s) of the last solve: normal, t1, t2 */
    double acc;           /* an impact's normal impulse so far (it may take two steps: a
                             speculative one closes the gap) ... */
    double acc_u0;        /* ... and its approach velocity: one collision event when it is over */
    double u0;            /* normal velocity at v0 (< 0 approaching) */
    double normal[3];     /* unit, from a towards b */
    double t1[3], t2[3];  /* tangents: (normal, t1, t2) right-handed */
    double pa[3], pb[3];  /* world points on a and b at detection */
    int handled;          /* serial handling solved it as an impact this step */
    int active;           /* in this step's contact problem */
    double mu, e;         /* friction coefficient and restitution of the pair */
    double bias;          /* b_N */
    double ustar;         /* normal velocity at v* (the step's free motion) */
    double rimp;          /* serial handling: the normal impulses of the impacts */
    double ra[3], rb[3];  /* pa - centre of a, pb - centre of b */
} imp_e3_point;

/* The order of contact points by body pair, then key (qsort's comparator; engine3d_detect.c):
   the order the step's points and the last step's are kept in. */
int imp_e3_point_cmp(const void *x, const void *y);

/* Point p's impact impulse r of this step gathered into its acc for the collision event
   (engine3d_step.c's accumulate_impacts, the soft step's finish_points): impact, whether it
   had one, u0 its approach velocity. gather 0 (the world builds no contact events): what was
   gathered while they were on is dropped, none left for a later event (going is read only
   beside a nonzero acc). */
static inline void imp_e3_gather_impact(imp_e3_point *p, int gather, int impact, double u0, double r)
{
    if (!gather) {
        if (p->acc != 0.0) {
            p->acc = p->acc_u0 = 0.0;
        }
    } else if (impact) {
        if (p->acc == 0.0) {
            p->acc_u0 = u0;
        }
        p->acc += r;
        p->going = 1;
    } else {
        p->going = 0;
    }
}

/* The event point of a pair's n points from p: the mean of their midpoints 0.5 (pa + pb), summed
   in order (the contact events'; the soft step keeps it for a pair whose last points it
   overwrites in place, engine3d_soft_recycle.h) */
static inline void imp_e3_event_point(const imp_e3_point *p, int n, double c[3])
{
    c[0] = c[1] = c[2] = 0.0;
    for (int k = 0; k < n; k++) {
        for (int i = 0; i < 3; i++) {
            c[i] += 0.5 * (p[k].pa[i] + p[k].pb[i]) / n;
        }
    }
}

/* one pair's contact-event state at a step's end (imp_engine3d's ev_pairs): 20 bytes */
typedef struct imp_e3_pair_state {
    int a, b;      /* the pair's slots */
    int j, end;    /* its points' run in that step's list */
    int touching;  /* a point within distance_tol or carrying an impulse */
} imp_e3_pair_state;

typedef struct imp_e3_pair_override {
    int a, b;
    unsigned gen_a, gen_b;  /* the bodies' generations: a body later put in the slot has none */
    double friction, elasticity;
} imp_e3_pair_override;

typedef struct imp_engine3d_stats {
    long steps;
    long solves;         /* contact problems solved */
    long solve_failures; /* solves that stopped above their tolerance (the best answer used) */
    long sweeps;         /* Gauss-Seidel sweeps (pgs, or the exact solver's fallback) */
    long newton_iterations;
    long collisions;     /* impacts faster than velocity_tol */
    long backups;        /* steps split at a time of impact */
    long exact_skipped;  /* "lcp" problems too large for the exact solver, swept instead */
    int max_points;      /* most contact points in one step */
    int points;          /* contact points of the last step */
    int pairs;           /* body pairs touching in the last step */
    double last_error;   /* the exact solver's error of the last solve (Siconos') */
    double max_penetration; /* deepest penetration at the last detection (m, >= 0) */
    long manifolds;      /* narrow-phase calls: pair manifolds (manifold3d.h) and gaps (collide3d.h) */
    long recycled;       /* pair manifolds rebuilt from the last one (engine3d_cache.h) */
    long apart;          /* pairs skipped: still farther apart than the margin (engine3d_cache.h) */
} imp_engine3d_stats;

typedef struct imp_engine3d {
    /* broad phase over the colliding bodies */
    imp_bp3d *bp;
    int *bp_slot;         /* broad-phase id -> slot */
    int nbp;
    unsigned bodies_version;
    int bp_built;
    double *lo, *hi;      /* 3 per id */
    imp_e3_pairlist plist; /* the broad phase's pairs, each with its cached manifold */
    int *near, near_cap;  /* the step's pairs whose grown boxes touch: id a and the pair's
                             place in plist's pool, 2 each, in (a, b) order */
    int *freed, freed_cap; /* the cache entries of the pairs that ended */
    /* contact recycling (engine3d_cache.h): the pairs' last manifolds, a pool with a free list */
    struct imp_e3_cached *cache;
    int ncache, cache_cap;
    int *cache_free;
    int nfree, free_cap;
    struct imp_e3_pose *pose; /* per broad-phase id: its pose at this detection */
    double *speed;        /* per broad-phase id: the bound on its points' speed */
    double *scale;        /* per broad-phase id: its shape's scale (a wall's infinite), taken
                             at detection (the pairs' tolerances: a line of the shape's data
                             read once a body, not once a pair) */
    /* contact points of this step and of the last one, sorted by (a, b, key) */
    imp_e3_point *pts, *prev;
    int npts, nprev, pts_cap, prev_cap;
    int swapped;          /* the last step swapped pts and prev (undone by restore) */
    /* the soft step's held points updated in place (engine3d_soft_recycle.h): from the step's
       detection to its end (imp_engine3d_finish) the first points of e->prev are this step's,
       the last step's overwritten (prev_dirty: a step failing then drops the last list, as a
       step failing after the swap does). aliased: every point of the step is such, e->pts is
       e->prev's array and spare holds e->pts's own until the step's end */
    int prev_dirty, aliased;
    imp_e3_point *spare;
    int spare_cap;
    const double *ev_point; /* 3 per pair of e->prev's first nev_point: their event point
                             (imp_e3_event_point) before they were overwritten (contact_end) */
    int nev_point;
    int skip_error;       /* 1: the sweeps of this sub-step leave last_error alone (all but the
                             step's last sub-step: the step reports its last solve's error) */
    double now;           /* the time at the start of the current sub-step (events) */
    double h_last;        /* the length of the last sub-step (its impulses warm-start the next) */
    /* per slot, sized with the world's capacity */
    int slot_cap;
    double *inv_iw;       /* 9 per slot: world inverse inertia */
    double *vel;          /* 6 per slot: v, w during the solve */
    double *vel_save;     /* 6 per slot: vel before the exact solver's warm-up sweeps */
    double *pvel;         /* 6 per slot: the split impulse's pseudo-velocities */
    int nact;             /* the points of the last solve (act[0 .. nact-1]) */
    int *body_head;       /* first active point of the slot, -1 */
    int *pt_next;         /* 2 per point: next point of side a / side b */
    /* the exact solver's problem */
    int rows_cap;
    double *q, *mu, *r, *u, *warm;
    int *row_ptr;
    int *col;
    double *val;
    size_t nnz_cap;
    int *mark;            /* per point: the last row block that saw it */
    int *act;             /* the active points */
    int *rowof;           /* per point: its row block, -1 when inactive */
    int *nbr;             /* the points coupled to one point */
    struct imp_e3_push *push; /* the split impulse's points (engine3d_solve.c) */
    int pts_arrays_cap;
    double *jac;          /* per point: 2 x (E 9 + A 9 + IA 9) numbers */
    struct imp_e3_row *rows; /* the sweeps' packed rows (engine3d_sweep.h) */
    int rows_cap_pgs;
    int rows_n;           /* the rows packed by the last solve */
    imp_coulomb_workspace *ws;
    imp_coulomb_factors fac;  /* W = J Minv J^T for the exact solver's dof-space Newton steps */
    int *dof;             /* per slot: its first dof, -1 for fixed bodies */
    int *fj_rp, *fj_col, *fm_rp, *fm_col;
    double *fj_val, *fm_val;
    int fac_slots, fac_rows, fac_dofs;
    imp_poly_work poly;   /* the volumetric intersection's scratch (contact_points) */
    /* per-pair overrides of friction and elasticity, sorted by (a, b) */
    imp_e3_pair_override *pairs;
    int npairs, pairs_cap;
    imp_engine3d_stats stats;
    int failed_a, failed_b;  /* bodies named by a failed solve */
    struct imp_e3_ode *ode;  /* the force-level stepping's state (engine3d_ode.h), NULL */
    struct imp_e3_joints *joints; /* joints, ropes and rods (engine3d_joints.h), NULL */
    /* detection once per step (engine3d_step.c): per slot the motion of its last sub-step,
       12 numbers (the displacement, then the rotation row-major), and detect's speed rule */
    double *dpose;
    double *travel;       /* per slot: what the last detection's margin allows it to travel (m;
                             infinite for bodies outside the broad phase), what it travelled
                             since, by how much it turned since (rad) */
    int dpose_cap;
    int once;             /* this step detects once (dpose and travel are sized and kept) */
    int moving;           /* the last step's bodies moved beyond what its points stand for: this
                             step detects at every sub-step */
    int rows_keep;        /* 1: this solve's points are the last solve's, in the same order, moved
                             (refresh_points): the sweeps' rows keep their frames and diagonal
                             blocks, only lever arms, warm starts and b_N are taken again */
    int span_bound;       /* 1: detect bounds a body's speed by the larger of its velocity and
                             e->vel (the velocity at the end of the span h it is given) */
    const double *rot_y;  /* NULL, or 13 per slot: q normalised, then R (row-major), taken at
                             w->data.y (the soft step's, set around its detection: the poses
                             copy them, imp_e3_pose_of's bits) */
    /* the soft step's isotropic bodies (engine3d_step.c): per slot (slot_cap), 1 when the body's
       inertia and inverse inertia are k 1 exactly, taken once a step when iso_ready (set at
       the soft step's start, cleared at every step's) */
    unsigned char *iso;
    int iso_ready;
    const unsigned char *mv; /* NULL, or per slot 1 when it moves this step (the soft step's,
                             taken by its prepare, set around its sub-steps: their walk,
                             imp_e3_free_velocities_padded, reads it instead of the bodies) */
    /* sleeping (engine3d_sleep.h): the last points of the sleeping islands, kept for their waking */
    imp_e3_point *slept;
    int nslept, slept_cap;
    struct imp_e3_soft *soft; /* contact_solver = "soft": the step's rows (engine3d_soft.h), NULL */
    /* the contact events' state of the last step's pairs (engine3d_step.c's events), taken at
       the step's end, in e->prev's order: each pair's run [j, end) and whether it touched; the
       next step's events read it instead of walking e->prev's points again. Valid while
       ev_valid and e->prev is still ev_list with ev_nprev points (every change of e->prev:
       the swaps, sleeping, a reset, clears ev_valid) */
    imp_e3_pair_state *ev_pairs, *ev_next;
    int nev_pairs, nev_next, ev_pairs_cap, ev_next_cap;
    int ev_valid, ev_nprev;
    const imp_e3_point *ev_list;
} imp_engine3d;

/* The velocity of b relative to a at a contact point, in the point's frame (normal, t1, t2):
   u = E^T (v_b + w_b x r_b - v_a - w_a x r_a); va, vb: the bodies' (v, w), NULL for a side
   that does not move. */
static inline void imp_e3_frame_velocity(const double *va, const double *vb, const double n[3],
                                         const double t1[3], const double t2[3], const double ra[3],
                                         const double rb[3], double u[3])
{
    double d[3] = {0.0, 0.0, 0.0};
    if (vb != NULL) {
        d[0] = vb[0] + vb[4] * rb[2] - vb[5] * rb[1];
        d[1] = vb[1] + vb[5] * rb[0] - vb[3] * rb[2];
        d[2] = vb[2] + vb[3] * rb[1] - vb[4] * rb[0];
    }
    if (va != NULL) {
        d[0] -= va[0] + va[4] * ra[2] - va[5] * ra[1];
        d[1] -= va[1] + va[5] * ra[0] - va[3] * ra[2];
        d[2] -= va[2] + va[3] * ra[1] - va[4] * ra[0];
    }
    u[0] = n[0] * d[0] + n[1] * d[1] + n[2] * d[2];
    u[1] = t1[0] * d[0] + t1[1] * d[1] + t1[2] * d[2];
    u[2] = t2[0] * d[0] + t2[1] * d[1] + t2[2] * d[2];
}

/* The world's 3D engine, made on first use; NULL when out of memory. */
imp_engine3d *imp_engine3d_get(struct imp_world *w);
void imp_engine3d_free(imp_engine3d *e);

/* The strategy's advance (strategy.h): steps of the world's dt to t1. */
imp_status imp_engine3d_advance(struct imp_world *w, double t1, char *why, size_t why_len);
/* Undoes the last step's swap of the contact lists (after the shell rolled a step back). */
void imp_engine3d_restore(struct imp_world *w);

/* Detection at the world's state (engine3d_detect.c): fills e->pts for step h (the margin
   grows with what bodies can travel in h; h = 0: distance_tol only; with e->span_bound the
   speed bound also takes e->vel, the free velocity at the end of h). 0 or a status. */
imp_status imp_engine3d_detect(struct imp_world *w, imp_engine3d *e, double h);

/* The contact problem of the active points at velocities e->vel (engine3d_solve.c): on
   return e->vel holds v1 and each point its impulse r. 0 or IMP_ERR_NOMEM / IMP_ERR_SOLVER
   (why filled). */
imp_status imp_engine3d_solve(struct imp_world *w, imp_engine3d *e, char *why, size_t why_len);

/* Pushes the points of the last solve that penetrate deeper than slop apart by beta of that
   depth over the step, on pseudo-velocities (e->pvel) that move positions only. */
void imp_engine3d_push_apart(struct imp_world *w, imp_engine3d *e, double h, double slop, double beta,
                             int sweeps);

/* Per-pair friction and elasticity overriding the bodies' (a != b slots); 0, -1 without
   memory. The lookup gives NULL when none. */
int imp_engine3d_set_pair(struct imp_world *w, int a, int b, double friction, double elasticity);
const imp_e3_pair_override *imp_engine3d_pair(const struct imp_world *w, int a, int b);
/* The pair's friction and elasticity: its override, else the smaller of its bodies'. */
/* M^-1 in CSR over the moving bodies' dofs (dof[s]: body s's first of 6, -1 when it does not
   move; nd of them): 1/m on the linear dofs, the world inverse inertia on the angular ones
   (for imp_coulomb_factors; the velocity step's exact path and the ode path's force solve). */
void imp_e3_minv_csr(const struct imp_world *w, const imp_engine3d *e, const int *dof, int ns, int nd,
                     int *rp, int *col, double *val);
void imp_engine3d_pair_material(const struct imp_world *w, int a, int b, double *mu, double *el);

/* For the force-level stepping (engine3d_ode.h), from engine3d_step.c: e->inv_iw at the
   world's state; the serial impacts of collision_handling "serial" / "hybrid" (points
   approaching faster than velocity_tol with gap <= -h u_N, u_N >= -e u_N; impulses in rimp,
   velocities in e->vel); the events of this step's points against the last step's, then
   this step's points become the last ones. */
void imp_engine3d_inverse_inertia(struct imp_world *w, imp_engine3d *e);
/* the same from the slots' rotations already taken at y: 13 doubles per slot, q then R
   (row-major) from the normalised quaternion of y (imp_e3_recycle's rot); the soft step's:
   an isotropic body's (I = k 1) is k^-1 1 exactly, no rotation taken */
void imp_engine3d_inverse_inertia_rot(struct imp_world *w, imp_engine3d *e, const double *rot);
imp_status imp_engine3d_serial_impacts(struct imp_world *w, imp_engine3d *e, double h, char *why, size_t why_len);
/* engine3d_step.c, shared with the soft step (engine3d_soft.c): e->vel = v + h M^-1 F from the
   derivative dydt (0 for bodies that do not move or sleep); the failure when a body's velocity
   or position after h is not finite (IMP_ERR_NONFINITE, naming it). */
void imp_e3_free_velocities(const struct imp_world *w, imp_engine3d *e, const double *dydt, double h);
/* The same from the forces (nslots x 6, imp_world_forces) instead of the derivative, bit for
   bit (the rotation, spin and gyroscopic term taken once for both) except for an isotropic body
   (I = k 1: a cube, a ball), whose spin is w + h k^-1 t in the world frame (w x I w = 0: the
   exact value of the same rule, no rotation taken). O(slots). */
void imp_e3_free_velocities_forces(const struct imp_world *w, imp_engine3d *e, const double *f, double h);
/* the same with the slots' rotations already taken at y (imp_engine3d_inverse_inertia_rot's rot) */
void imp_e3_free_velocities_forces_rot(const struct imp_world *w, imp_engine3d *e, const double *f, double h,
                                       const double *rot);
imp_status imp_e3_check_finite(struct imp_world *w, const imp_engine3d *e, double h, char *why, size_t why_len);
/* the soft step's sub-step start (engine3d_step.c): the free velocities from the forces f (own:
   the moving bodies' own forces taken into f first), the finite check (still: of the bodies
   that do not move too) and e->vel's padded copy (8 per slot) in one walk of the slots (from_padded:
   the moving bodies' velocities read there, the state's as they would be, not in the state) */
imp_status imp_e3_free_velocities_padded(struct imp_world *w, imp_engine3d *e, double *f, int own, double h,
                                         const double *rot, double *padded, int still, int from_padded, char *why,
                                         size_t why_len);
void imp_engine3d_finish(struct imp_world *w, imp_engine3d *e);

/* Makes sure the per-slot arrays hold the world's capacity; 0 or -1. */
int imp_engine3d_reserve_slots(imp_engine3d *e, int slots);

#endif
