/* engine2d.h: the 2D rigid-body engine of the "impulse" and "contact" strategies, after
   myPhysicsLab's engine2D (E. Neumann, "2D Physics Engine Overview"; D. Baraff, "Fast Contact
   Force Computation for Nonpenetrating Rigid Bodies", SIGGRAPH 1994; E. Neumann, "Curved Edge
   Physics").

   - Detection (engine2d_detect.c): imp_collide2d_batch over the world's 2D bodies gives
     records (collision / contact / imminent) with the distance and normal velocity of each
     touching feature pair; connectors (joint2d.c) add their own records.
   - Collision advance (engine2d_step.c): step; on a penetration go back to the saved state
     and step to the estimated moment the gap is distance_tol / 2 (binary search when no
     estimate works); handle the collisions there with impulses; a bounded number of back-ups
     in a row is an error naming the time and the bodies.
   - Impulses (engine2d_impulse.c): one LCP over every touching record (collisions, contacts,
     joints) with A = J M^-1 J^T, simultaneous / serial / hybrid handling and a last pass.
   - Contact forces (engine2d_contact.c, "contact" strategy): at each evaluation of the
     equations of motion, the LCP of ContactSim (A matrix, b vector with the curved-edge terms
     and the extra acceleration), with Coulomb friction rows when a body has friction.

   Sign conventions of a record: the normal points out of the normal body (q) toward the
   primary body (p); distance > 0 is a gap; velocity = (v_p - v_q) . n at the contact, < 0
   approaching; an impulse or force f >= 0 acts as +f n on p and -f n on q. */
#ifndef IMPACT_ENGINE2D_H
#define IMPACT_ENGINE2D_H

#include "broadphase2d.h"
#include "collide2d.h"
#include <impact/lcp.h>
#include "pairset.h"
#include <impact/engine2d_def.h>
#include <impact/status.h>

struct imp_world;

enum { IMP_REC_JOINT = 3 };  /* record kind beside IMP_HIT_COLLISION / CONTACT / IMMINENT */

/* Penetrations shallower than this fraction of distance_tol are round-off
   of touching bodies (e.g. boxes stacked exactly touching): they count as distance 0. */
#define IMP_ENGINE2D_TINY 1e-6

/* One touching feature pair or one connector constraint. */
typedef struct imp_rec2d {
    int p, q;             /* slots of the primary and the normal body (0: background) */
    int kind;             /* IMP_HIT_COLLISION, _CONTACT, _IMMINENT or IMP_REC_JOINT */
    int bilateral;        /* joints and rods: force of any sign, kept at distance 0 */
    int connector;        /* index of the connector, -1 for a body pair */
    int curved;           /* the normal turns about a centre of curvature (ropes, arcs) */
    int fixed_normal;     /* the normal is fixed in the world (joints along world axes) */
    int swept;            /* found by a vertex's path (a fast crossing), not statically */
    int corners;          /* a corner against a corner (vertex/vertex) along a line that is no
                             face's normal: that normal holds only near contact */
    int vertex;           /* the primary's feature is a vertex against the normal body's edge */
    int feature[2];       /* the primary's vertex (its edge for edge/edge) and the normal
                             body's edge (its vertex for vertex/vertex), 0 for connectors:
                             myPhysicsLab's order of a pair's records (mpl_pair_before) */
    double u1[2], u2[2];  /* world points whose motion gives the gap's acceleration: the
                             primary's vertex or arc centre, the normal body's point or arc centre */
    double point[2];      /* impact point (on the normal body) */
    double normal[2];
    double distance, velocity;
    double target;        /* gap aimed at: distance_tol / 2, 0 for connectors */
    double elasticity;    /* the smaller of the two bodies' */
    double friction;      /* Coulomb coefficient (the smaller of the two bodies') */
    double jp[3], jq[3];  /* Jacobian rows: jp = (n, r_p x n), jq = -(n, r_q x n) */
    double impulse;       /* the last impulse applied (handling) */
    double force;         /* the last contact force */
    double friction_force; /* the last friction force along perp(normal) */
    unsigned long long key; /* identifies the feature pair (warm starts) */
    /* body-frame copies (PGS: the trial step's contacts are moved with the bodies at its
       later stages instead of detected again): u1 in p's frame, u2 and point and normal in
       q's frame, relative to the centres */
    double lu1[2], lu2[2], lpoint[2], lnormal[2];
    double path_k;        /* path joints: dn/dp . t at the path's point (the normal's turning
                             along the path), read only for them */
} imp_rec2d;

/* Connectors. */
typedef enum imp_connector_kind {
    IMP_JOINT = 0, IMP_ROPE = 1, IMP_ROD = 2,
    IMP_PATH = 3,     /* a body point held on a path (engine2d_path_joint.h) */
    IMP_PATH_END = 4  /* a one-sided stop of a body point's travel along a path */
} imp_connector_kind;

typedef struct imp_connector2d {
    imp_connector_kind kind;
    int active;
    unsigned generation;
    int body1, body2;            /* slots (body2 may be 0: the background) */
    unsigned gen1, gen2;         /* the bodies' generations when attached */
    double point1[2], point2[2]; /* body frame, relative to the centre of mass */
    int both;                    /* joint: hold along both world axes (a pin) */
    double normal[2];            /* joint with one direction: unit, world frame */
    double length;               /* rope / rod */
    int body_frame;              /* joint: its normal(s) fixed in body 2's frame, turning with
                                    it (myPhysicsLab's CoordType.BODY); 0: in the world's */
    int path;                    /* path joint and end: its path (index into the engine's paths) */
    double limit;                /* path end: the path distance p the point stops at */
    int upper;                   /* path end: 1 p <= limit, 0 p >= limit */
    int has_near;                /* path joint and end under conventions = "myphysicslab": 1
                                    when near_k, near_p hold its search's last point (0: none
                                    yet; the first search starts at the nearest table point) */
    int near_k;                  /* its table index (myPhysicsLab's PathPoint idx) */
    double near_p;               /* its path distance, continued round a closed path */
} imp_connector2d;

typedef struct imp_engine2d_stats {
    long collisions;       /* collision records handled with an impulse */
    long impulse_solves;   /* handleCollisions calls that applied an impulse */
    long backups;          /* steps undone after a penetration */
    long binary_searches;  /* trial steps chosen by halving */
    long steps;            /* ODE steps accepted */
    long lcp_solves;       /* LCP solves (impulses and forces) */
    long lcp_failures;     /* LCP solves that did not report IMP_LCP_OK */
    long max_contacts;     /* largest contact-force problem (rows) */
    long pgs_sweeps;       /* PGS sweeps done (all solves) */
    double lcp_residual;   /* largest complementarity residual of the exact contact-force
                              solves' answers (natural residual, bilateral and friction
                              violations, relative to the problem's scales) */
    long coulomb_solves;   /* contact-force solves handed to the Coulomb solver (coulomb.h)
                              after the pivoting gave up */
    long coulomb_failures; /* those that did not reach its tolerance (then PGS) */
} imp_engine2d_stats;

typedef struct imp_engine2d {
    /* connectors (kept across strategies) */
    imp_connector2d *conn;
    int nconn, conn_cap;
    int joints_new;               /* a joint or rod added since the last step: under
                                     joint_small_impacts the next step starts with them */
    imp_pairset exclude;          /* body pairs that never collide (joined by a connector) */
    int exclude_dirty;
    unsigned exclude_bodies_version;  /* w->model.bodies_version when exclude was built */
    /* detection scratch */
    imp_body2d *b2;
    imp_body2d_xf *b2_xf;         /* their transforms, computed once per detection */
    unsigned char *still;
    double *boxes;
    int *group;                   /* 2 per slot: union-find parents, then marks (coupled bodies) */
    double *prev_pose;            /* 3 per slot: poses at the start of the trial step */
    int has_prev;
    int slot_cap;
    imp_bp2d bp;
    imp_hit2d *hits;
    int hit_cap;
    imp_rec2d *rec;               /* the records of the last detection */
    int nrec, rec_cap;
    /* solver scratch */
    imp_lcp_workspace *ws;
    /* called with each exact solve that did not report ok (its problem and options, the
       warm starts given), before PGS takes over: bench_lcp_engine's dump of the engine's
       own failing solves; NULL (the default) for none */
    void (*lcp_failed)(void *ctx, const imp_lcp_problem *p, const imp_lcp_options *o);
    void *lcp_failed_ctx;
    double *A, *b, *f, *a, *vel, *jsum, *e;
    double *fwarm;                /* the exact Coulomb solve's warm start (its own: jsum holds b
                                     across the push solve) */
    unsigned char *bil;
    int *fric_normal, *perm, *rows;
    double *mu;
    signed char *sliding;
    int lcp_cap;                  /* rows the arrays above hold */
    double *Asub;                 /* a sub-problem's matrix (serial handling), mat_cap^2 */
    int fail_bodies[8], nfail;    /* the movable bodies of the last impulse problem that could
                                     not be solved (imp_engine2d_handle), for the error */
    int mat_cap;                  /* rows A and Asub hold (allocated only for the exact LCP) */
    signed char *state_in, *state_out;  /* LCP row states: warm start in, result out; each
                                           2 cap, the second half the split problem's basis
                                           bytes (lcp.h basis, warm_basis) */
    int *adj_start, *adj_list;    /* rows per movable body (building A), nslots + 1 and 2 n */
    int adj_slots, adj_rows;
    double *y_rec;                /* the state of the last detection (reused by the first
                                     evaluation of the next step when nothing changed) */
    int rec_reusable;
    unsigned rec_bodies_version;  /* w->model.bodies_version, nslots and conn_version at that time */
    int rec_nslots;
    unsigned conn_version;        /* bumped when connectors are added or removed */
    unsigned rec_conn_version;
    /* advance */
    double *y0;                   /* state at the start of the trial step */
    int y_cap;
    struct imp_pending2d {        /* the records found penetrating, to handle: their body */
        int p, q;                 /* pair and feature key, one entry per key */
        unsigned long long key;
    } *pending;
    int npending, pending_cap;
    /* touching body pairs at the end of the last step (contact_begin / contact_end events) */
    struct imp_touch2d *touch, *touch_new;
    int ntouch, touch_cap;
    struct imp_touch2d *touch_tmp; /* the counting sort's (engine2d_events.c) and its counts */
    int *touch_cnt, touch_tmp_cap, touch_cnt_cap;
    unsigned touch_bodies_version;
    /* per-pair coefficients overriding the bodies' (engine2d_pairs.c), sorted by key */
    struct imp_pair2d *pairs;
    int npairs, pair_cap;
    /* edge ranges a body does not collide with (engine2d_edge_range.h), in the order added */
    struct imp_edge_range2d *ranges;
    int nranges, range_cap;
    /* the paths of path joints (engine2d_path_joint.h), never removed */
    struct imp_path2d *paths;
    int npaths, path_cap;
    imp_engine2d_stats stats;
    long forces_evaluations;
    int force_error;              /* a contact-force solve failed during the last step */
    int freeze;                   /* PGS: inside a trial step, reuse its first detection */
    imp_rec2d *frozen;            /* those records */
    double *cs;                   /* cos, sin of each slot's angle (2 per slot) */
    int cs_cap;
    int nfrozen, frozen_cap, have_frozen;
    /* PGS: per-slot accumulated M^-1 J^T f (3 each), warm-start table of the last solve */
    double *pgs_acc;
    int pgs_acc_cap;
    void *pgs_rows;               /* packed rows (engine2d_pgs.c) */
    int pgs_row_cap;
    unsigned long long *warm_key;
    double *warm_f;
    int nwarm, warm_cap;
    int *warm_hash;
    size_t warm_hash_size;
    /* the exact Coulomb solver's scratch (engine2d_coulomb.c) and the forces of the last
       exact solve by row key (its warm start) */
    struct imp_e2_coulomb *coulomb;
    unsigned long long *fwarm_key;
    double *fwarm_f;
    int nfwarm, fwarm_cap;
    int *fwarm_hash;
    size_t fwarm_hash_size;
    double max_force;
    double step_h;                /* s: the semi-implicit step being taken (0: none) */
    /* ContactSim's abandoned trial step (engine2d_step.c): a later stage of the trial step's
       integration whose detection finds a penetration ends the step's contact forces there */
    int stage_watch;              /* 1 while a trial step integrates (contact strategy, ODE) */
    double stage_t0;              /* the trial step's start */
    int stage_hit;                /* a stage found penetrating records */
    double stage_t;               /* that stage's time */
    imp_rec2d *stage_rec;         /* those records, localized at that stage */
    int nstage_rec, stage_rec_cap;
    imp_rec2d *kept_rec;          /* conventions = "myphysicslab": the last trial step's
                                     penetrating records, localized, that its back-up keeps */
    int nkept_rec, kept_rec_cap;
    struct imp_e2_soft *soft;     /* the soft step's rows and warm starts (engine2d_soft.c) */
    struct imp_baraff_ws *baraff; /* myPhysicsLab's ordered solver's scratch (its conventions:
                                     lcp_baraff_order.h), made at its first use */
} imp_engine2d;

typedef struct imp_touch2d {
    unsigned long long key;   /* body1 << 32 | body2, body1 < body2 */
    double point[2], normal[2]; /* normal from body1 toward body2 */
    double velocity;          /* normal velocity (< 0 approaching) */
} imp_touch2d;

/* Compares the body pairs touching in e->rec (distance < distance_tol) with those of the last
   call and queues contact_begin / contact_end events at time t. 0, or -1 out of memory.
   O(k log k) for k records. */
int imp_engine2d_track_contacts(struct imp_world *w, double t);
/* A collision event of record r at time t (body1 the lower slot, the normal from it toward
   body2), with the normal velocity before and the impulse; counts it in the statistics. */
void imp_engine2d_push_collision(struct imp_world *w, double t, const imp_rec2d *r, double velocity,
                                 double impulse);

typedef struct imp_pair2d {
    unsigned long long key;   /* slot_lo << 32 | slot_hi */
    unsigned gen_lo, gen_hi;  /* the bodies' generations when set */
    double friction;          /* < 0: the bodies' */
    double elasticity;        /* < 0: the bodies' */
} imp_pair2d;

/* Sets the friction and elasticity of a pair of bodies (negative: use the bodies' own);
   0, -1 out of memory. Lookup: imp_engine2d_pair (NULL when none). O(log pairs). */
int imp_engine2d_set_pair(struct imp_world *w, int a, int b, double friction, double elasticity);
const imp_pair2d *imp_engine2d_pair(const struct imp_world *w, int a, int b);

/* The world's engine, created on first use (NULL when out of memory). */
imp_engine2d *imp_engine2d_get(struct imp_world *w);
void imp_engine2d_free(imp_engine2d *e);

/* Advances the world from w->data.time to t1 (impulse or contact strategy). On failure returns a
   status, writes why, names the bodies in w->data.error_bodies; the caller restores the state. */
imp_status imp_engine2d_advance(struct imp_world *w, double t1, char *why, size_t why_size);
/* w:handle_collisions() (myPhysicsLab's findCollisions and handleCollisions at the current
   state, as its tests do on a scene just built): the touching records (contacts, imminent
   collisions, connectors; serial and hybrid handling with the separating ones too) take the
   impulses of the world's collision_handling, the imminent ones elastic. Nothing is counted
   as a collision. Returns 1 when an impulse was applied, 0 when none was needed, -1 when the
   impulses could not be solved or memory ran out. Cost: one static detection and one handling. */
int imp_engine2d_handle_now(struct imp_world *w);
/* conventions = "myphysicslab": whether record a comes before record b in its list of the
   records found at a state (ImpulseSim.findCollisions then the connectors): body pairs in the
   order of its loop over the bodies (i < j, by slot); within a pair the later body's vertices
   on the earlier's edges, then the earlier's on the later's, then edge/edge records; the
   connectors' records last (engine2d_impulse_mpl.c). */
int imp_engine2d_mpl_pair_before(const imp_rec2d *a, const imp_rec2d *b);

/* Detection at state y: fills e->rec (collisions, contacts, imminent collisions of body
   pairs; connector records). use_prev: swept tests from e->prev_pose. Returns the number of
   records, -1 on failure (out of memory or bad geometry). O(n + k) broad phase + narrow phase. */
int imp_engine2d_detect(struct imp_world *w, const double *y, int use_prev);
/* Appends to the records the touching pairs at y that move apart faster than velocity_tol
   (IMP_HIT_SEPARATING), for serial and hybrid handling: myPhysicsLab's collision handling
   takes every touching pair, so an
   impulse that turns one of them into an approach is handled in the same pass (two balls in a
   frame: Erleben's infinite collisions). The records count, or -1. */
int imp_engine2d_add_separating(struct imp_world *w, const double *y);

/* The connectors' records at state y, appended to e->rec. Returns 0, -1 out of memory. */
int imp_engine2d_connector_records(struct imp_world *w, const double *y);

/* Stores r's points and normal in its bodies' frames at state y (see imp_rec2d). */
void imp_engine2d_localize(const struct imp_world *w, const double *y, imp_rec2d *r);
/* Moves r's points and normal with its bodies to state y (cs: cos, sin of every slot's angle)
   and recomputes its distance, Jacobians and velocity (rigid features: exact for straight
   edges and vertices). */
void imp_engine2d_relocate(const struct imp_world *w, const double *y, const double *cs,
                           imp_rec2d *r);
/* e->cs: each body's cos and sin of its angle at state y (2 per slot, grown to the world's
   slots), which imp_engine2d_relocate reads. 0, or -1 out of memory. O(slots). */
int imp_engine2d_body_cs(struct imp_world *w, const double *y);
/* imp_engine2d_relocate without its coefficients: r's elasticity, friction and impulses stay
   (the soft step's contact cache, while no pair coefficient is set). */
void imp_engine2d_move_record(const double *y, const double *cs, imp_rec2d *r);

/* Fills the Jacobian rows, the relative normal velocity, elasticity and friction of r from
   the state y (r->point, r->u1, r->u2 and r->normal set). */
void imp_engine2d_finish_record(const struct imp_world *w, const double *y, imp_rec2d *r);
/* Its first half: the Jacobian rows and (body pairs) the relative normal velocity. */
void imp_engine2d_record_jacobian(const double *y, imp_rec2d *r);

/* Handles collisions among the records rec[0..n) at state y (velocities change in y).
   Records whose index is flagged in elastic use their elasticity, the others 0 (contacts,
   joints) under simultaneous handling. mode: how (usually the world's collision_handling).
   Returns 1 when an impulse was applied, 0 when none was needed, -1 when the LCP failed or
   memory ran out. */
int imp_engine2d_handle(struct imp_world *w, double *y, imp_rec2d *rec, int n,
                        const unsigned char *elastic, imp_collision_handling mode);

/* The rows of the serial sub-problem around record focus (engine2d_impulse.c): the focus,
   under hybrid the approaching non-joint records sharing a body with it, and the joints
   reachable through movable bodies; written to rows, their count returned. */
int imp_engine2d_impulse_subset(struct imp_world *w, const imp_rec2d *rec, int n, int focus,
                                const double *vel, double small, int hybrid, int *rows);
/* The serial focus (engine2d_impulse.c): the first record in the order perm (n of them) that
   approaches faster than small (a joint: moves along its row faster than small), or -1. */
int imp_engine2d_first_approaching(const int *perm, int n, const unsigned char *bil,
                                   const double *vel, double small);
/* The sub-matrix As (m x m, row-major) of the n x n matrix A on the records rows[0..m). */
void imp_engine2d_sub_matrix(const double *A, int n, const int *rows, int m, double *As);

/* Under conventions = "myphysicslab": the cumulative impulses jsum of the records (A their
   matrix, vel their normal velocities, updated; bil their joint flags) as its
   ImpulseSim.handleCollisions finds them, with its generator and its ordered solver
   (engine2d_impulse_mpl.c). 0, or -1 when a solve failed (rows noted) or memory ran out. */
int imp_engine2d_impulses_mpl(struct imp_world *w, const imp_rec2d *rec, int n, const double *A,
                              double *vel, const unsigned char *bil, const unsigned char *elastic,
                              imp_collision_handling mode, double *jsum);

/* Notes the movable bodies of the rows (rows NULL: the first m records) of a problem that
   could not be solved, for the step's error message (engine2d_impulse.c). */
void imp_engine2d_note_failure(struct imp_world *w, const imp_rec2d *rec, const int *rows, int m);

/* Under conventions = "myphysicslab" (no friction rows): the contact rows e->rec[0..n)
   (A, b and bil set) solved as its ContactSim does, into e->f (engine2d_contact_mpl.c).
   0, or -1 when a solve failed or memory ran out. */
int imp_engine2d_contact_solve_mpl(struct imp_world *w, int n);

/* myPhysicsLab's ordered solver's scratch (made at the first call), NULL out of memory */
struct imp_baraff_ws *imp_engine2d_baraff_ws(imp_engine2d *e);

/* One solve of m rows (As, b, joint flags sbil) by myPhysicsLab's ordered solver with the
   world's generator, into f and a, counted in the engine's stats; an answer it gave up on is
   taken when it meets its acceptance 1e-4. 0, or -1 failed or out of memory
   (engine2d_impulse_mpl.c). */
int imp_engine2d_baraff_solve(struct imp_world *w, int m, const double *As, const double *b,
                              const unsigned char *sbil, double *f, double *a);

/* Adds the contact forces at state y to f (6 per slot: force x, y, z, torque x, y, z), from
   the records of a static detection at y. Returns 0, -1 on failure. */
int imp_engine2d_contact_forces(struct imp_world *w, const double *y, double *f);

/* One evaluation of the equations of motion at the world's state into dydt (contact forces
   and records refreshed); 0, or -1 when the contact forces could not be solved. */
int imp_engine2d_evaluate(struct imp_world *w, double *dydt);
/* Grows the per-slot scratch (detection arrays, previous poses) to n slots; 0 or -1. */
int imp_engine2d_reserve_slots(imp_engine2d *e, int n);
/* Grows the record array to n records; 0 or -1. */
int imp_engine2d_reserve_records(imp_engine2d *e, int n);
/* A 64-bit key of six integers (feature pairs, connector rows). */
unsigned long long imp_engine2d_key(int a, int b, int c, int d, int e, int f);
/* Projected Gauss-Seidel on a = A f + b for the rows rec[0..n) (A = J M^-1 J^T never
   formed): unilateral rows f >= 0, bilateral rows free, friction rows (fric_normal[i] >= 0)
   bounded by mu[i] f_normal (sliding[i] != 0: f = -sliding mu f_normal). f holds the
   starting guess (warm start) and receives the result. Cost O(iterations n). 0 or -1. */
int imp_engine2d_pgs(struct imp_world *w, const imp_rec2d *rec, int n, const double *b,
                     const unsigned char *bilateral, const int *fric_normal, const double *mu,
                     const signed char *sliding, int iterations, double *f);
/* Warm start: f[i] = the force of the row with the same key in the last stored solve (0 if
   none); store saves rec's keys with f. O(n log n). */
/* The options of the 2D engine's exact LCP solve (contact_solver "lcp"): the defaults with
   tolerance 1e-8 and pivot tolerance 1e-6, no warm start. The benches and tests that pose the
   engine's problems take them from here. */
void imp_engine2d_lcp_options(imp_lcp_options *o);
void imp_engine2d_warm_fetch(const imp_engine2d *e, const imp_rec2d *rec, int n, double *f);
int imp_engine2d_warm_store(imp_engine2d *e, const imp_rec2d *rec, int n, const double *f);
/* The same for the forces of the exact solves (a table of their own: the pivoting's warm
   start keeps row states in the one above). */
void imp_engine2d_fwarm_fetch(const imp_engine2d *e, const imp_rec2d *rec, int n, double *f);
int imp_engine2d_fwarm_store(imp_engine2d *e, const imp_rec2d *rec, int n, const double *f);

/* The rows in e (A, b, bil, fric_normal, mu set; rows 0..m normal or bilateral, m..n
   friction rows, all static) solved by the exact Coulomb solver (engine2d_coulomb.c), from
   warm (n forces, or NULL: zero); f receives the best answer found. 0, or -1 out of memory /
   bad input. */
typedef struct imp_e2_coulomb_info {
    double tolerance;   /* in: on coulomb.h's error (<= 0: 1e-10) */
    int max_iterations, max_sweeps; /* in: caps (<= 0: coulomb.h's) */
    int no_factors;     /* in: nonzero: W alone (no dof-space path) */
    int ok;             /* out: the error reached the tolerance */
    double error;
    int iterations, sweeps;
} imp_e2_coulomb_info;
int imp_engine2d_coulomb(struct imp_world *w, int n, int m, double *f, const double *warm,
                         imp_e2_coulomb_info *info);
void imp_engine2d_coulomb_free(struct imp_e2_coulomb *c);

/* Grows the solver's vectors to n rows; 0 or -1. */
int imp_engine2d_reserve_lcp(imp_engine2d *e, int n);
/* Grows the dense matrices A, Asub (and the LCP workspace) to n rows; 0 or -1. */
int imp_engine2d_reserve_matrix(imp_engine2d *e, int n);

/* A[i][k] = J_i M^-1 J_k^T for records rec (n rows), written into A (row-major). O(n^2) to
   clear A, then O(sum over bodies of rows^2). 0, or -1 out of memory. */
int imp_engine2d_build_A(struct imp_world *w, const imp_rec2d *rec, int n, double *A);
/* conventions = "myphysicslab": drops, of two corner results of a pair that its similarTo
   takes for one collision seen from both bodies, the shallower (engine2d_similar_mpl.c); h
   holds m results, each pair's together. Returns the new count. */
int imp_engine2d_similar_mpl(const struct imp_world *w, struct imp_hit2d *h, int m);
/* conventions = "myphysicslab", at a back-up: e->rec holds nstatic records of the static
   detection, then the kept penetrating ones; drops the static records of a kept corner
   (another edge or a corner of the same pair), as its addCollision refuses them after the
   kept ones (engine2d_similar_mpl.c). Returns the static records left. O(nstatic kept). */
int imp_engine2d_mpl_drop_similar(imp_engine2d *e, int nstatic);
/* conventions = "myphysicslab": RK4 with its RungeKutta's floating operations
   (engine2d_rk4_mpl.c). work holds 5 n numbers; 4 evaluations of f. */
void imp_engine2d_rk4_mpl(void (*f)(void *, double, const double *, double *), void *ctx,
                          double t, double h, double *y, size_t n, double *work);

/* Connectors. Points are in the bodies' frames relative to their centres. Return the index,
   -1 with a message in why. */
/* Direction k (0 or 1: x then y of a pin) of joint c at state y, in the world: the joint's own
   (a world direction), or turned by body 2's angle under body_frame. Returns 1 when it turns
   with a moving body 2 (the gap's acceleration then has the normal's rate), else 0. */
int imp_engine2d_joint_normal(const struct imp_world *w, const double *y, const imp_connector2d *c,
                              int k, double n[2]);
int imp_engine2d_add_connector(struct imp_world *w, const imp_connector2d *c, char *why,
                               size_t why_size);
imp_status imp_engine2d_remove_connector(struct imp_world *w, int index, unsigned generation);
/* 1 when the connector is active and both bodies are still the ones attached. */
int imp_engine2d_connector_alive(const struct imp_world *w, const imp_connector2d *c);
/* The world points of a connector's two attach points at state y. */
void imp_engine2d_connector_points(const struct imp_world *w, const double *y,
                                   const imp_connector2d *c, double p1[2], double p2[2]);

#endif
