/* engine2d_contact.c: contact forces of the 2D engine's "contact" strategy, computed at every
   evaluation of the equations of motion (myPhysicsLab's ContactSim.evaluate, after Baraff 94
   "Fast Contact Force Computation for Nonpenetrating Rigid Bodies", with Neumann's "Curved
   Edge Physics" for arcs and ropes), plus Coulomb friction rows (Baraff 94, section 6), which
   myPhysicsLab does not have.

   Rows: every contact record (0 <= distance <= distance_tol, |normal velocity| <=
   velocity_tol), every joint and rod (bilateral) and every taut rope; then one tangent row per
   contact whose bodies both have friction. a = A f + b, with A = J M^-1 J^T and b the gap's
   acceleration without contact forces:
     b = n . (A_p(u1) - A_q(u2)) + curvature term + extra acceleration,
   A_B(u) = a_B + alpha_B x r - w_B^2 r the acceleration of body B's material point u
   (r = u - centre; u1, u2 the primary's vertex or arc centre and the normal body's point or
   arc centre), and the curvature term
     curved normal (arc of the normal body, rope):  |dv_t|^2 / rho, rho = n . (u1 - u2)
       (the relative speed of the centres across the normal, over the signed radius),
     straight normal turning with the normal body:  2 (w_q x n) . dv - w_q^2 n . (u1 - u2),
     normal fixed in the world (joints):            0,
   dv = v_p(u1) - v_q(u2). Extra acceleration against drift and jitter (ContactSim's
   policies, h = extra_accel_dt): v / h, or (2 v h + (d - gap)) / h^2. The distance term's
   push of a contact closer than the half gap (d - gap < 0) goes only to loaded contacts
   (see push_speed), a load at the load solve's rounding counting as none.
   Friction rows (tangent t = perp(n)), bounded |f_t| <= mu f_n, aim at stopping the slip v_t
   within h (b_t = t . (A_p - A_q) + v_t / h): a slipping contact saturates at the bound
   against the slip (Coulomb's dynamic friction), a sticking one holds with no tangential
   acceleration. (A sliding row switched by the sign of v_t chatters under RK4 when the slip
   is about to stop: the step's stages see opposite signs.)
   Cost: one static detection, O(n^2) for A, the LCP (O(n^3) without friction). */
#include <stdlib.h>
#include <string.h>

#include "engine2d.h"
#include "engine2d_move.h"
#include "engine2d_path_joint.h"
#include "engine2d_symplectic.h"
#include "world_internal.h"

/* velocity-level distance term: the fraction of the gap error closed per step (Baumgarte) */
#define IMP_ENGINE2D_BAUMGARTE 0.2
/* the time constant of pushing a loaded contact out to the half gap */
#define IMP_ENGINE2D_PUSH_TIME 0.05
/* a load at most this fraction of the load solve's largest contact load counts as none (no
   push): the exact solve's tolerance is 1e-8 of its scales */
#define IMP_ENGINE2D_LOAD_NOISE 1e-6

/* acceleration of the material point u of slot s (force array f, state y) along dir */
static double point_accel_dot(const imp_world *w, const double *y, const double *f, int s,
                              const double *u, const double *dir)
{
    const imp_body *b = &w->model.bodies[s];
    if (s == 0 || b->fixed) {
        return 0.0;
    }
    const double *ys = y + (size_t)s * IMP_STRIDE_2D;
    const double r[2] = {u[0] - ys[0], u[1] - ys[1]};
    double ax = f[6 * s] * b->inv_mass, ay = f[6 * s + 1] * b->inv_mass;
    double al = f[6 * s + 5] * b->inv_inertia.m[2][2];
    double om2 = ys[5] * ys[5];
    return (ax - al * r[1] - om2 * r[0]) * dir[0] + (ay + al * r[0] - om2 * r[1]) * dir[1];
}

static double gap_accel(const imp_world *w, const double *y, const double *f, const imp_rec2d *r)
{
    const double *n = r->normal;
    /* the primary's point: its vertex or arc centre, or under conventions = "myphysicslab"
       (a vertex against a straight edge) the foot of the perpendicular from the vertex on the
       edge, myPhysicsLab's lever arm for both bodies (b then exceeds the gap's exact
       acceleration by d (w_p - w_q)^2, d the gap) */
    double u1[2] = {r->u1[0], r->u1[1]};
    int mpl = w->model.def.engine2d.conventions == IMP_CONVENTIONS_MYPHYSICSLAB;
    if (mpl && r->vertex && !r->curved && r->connector < 0) {
        double d = n[0] * (u1[0] - r->u2[0]) + n[1] * (u1[1] - r->u2[1]);
        u1[0] -= d * n[0];
        u1[1] -= d * n[1];
    }
    /* conventions = "myphysicslab", a corner on a corner (its CornerCornerCollision): both
       lever arms at the normal body's corner, and the normal turns about that corner with
       the gap for radius (its ballNormal with radius2 = distance): + |dv|^2 / d */
    int mpl_corners = mpl && r->corners && r->connector < 0 && r->distance > 0.0;
    if (mpl_corners) {
        u1[0] = r->u2[0];
        u1[1] = r->u2[1];
    }
    double b = point_accel_dot(w, y, f, r->p, u1, n) - point_accel_dot(w, y, f, r->q, r->u2, n);
    if (r->fixed_normal) {
        return b;
    }
    double v1[2], v2[2];
    imp_e2_point_velocity(y + (size_t)r->p * IMP_STRIDE_2D, u1, v1);
    imp_e2_point_velocity(y + (size_t)r->q * IMP_STRIDE_2D, r->u2, v2);
    const double dv[2] = {v1[0] - v2[0], v1[1] - v2[1]};
    if (mpl_corners) {
        return b + (dv[0] * dv[0] + dv[1] * dv[1]) / r->distance;
    }
    const double sep[2] = {u1[0] - r->u2[0], u1[1] - r->u2[1]};
    double along = n[0] * sep[0] + n[1] * sep[1];
    if (r->curved) {
        double vn = n[0] * dv[0] + n[1] * dv[1];
        double dv2 = dv[0] * dv[0] + dv[1] * dv[1], vt2 = dv2 - vn * vn;
        if (r->connector >= 0 && w->engine2d->conn[r->connector].kind == IMP_PATH) {
            return b + r->path_k * vt2;  /* n' . dv, n' = (dn/dp) (dv . t) (path joints) */
        }
        if (r->connector >= 0) {
            /* ropes and rods as myPhysicsLab's b (Curved Edge Physics, n' = dv / rho):
               |dv|^2 / rho with rho = -(the rope's length now, the rod's rest length) */
            double rho = r->bilateral ? -w->engine2d->conn[r->connector].length : along;
            if (fabs(rho) > 1e-12) {
                b += dv2 / rho;
            }
            return b;
        }
        if (fabs(along) > 1e-12) {  /* myPhysicsLab's: the whole |dv|^2 (Curved Edge Physics) */
            b += (mpl ? dv2 : vt2) / along;
        }
        return b;
    }
    double wq = y[(size_t)r->q * IMP_STRIDE_2D + 5];
    const double ndot[2] = {-wq * n[1], wq * n[0]};
    /* (a joint whose directions turn with body 2: without the n'' . (p1 - p2) term, -w_q^2 times
       the joint's drift, as myPhysicsLab's b for its CoordType.BODY joints; joint2d.c) */
    b += 2.0 * (ndot[0] * dv[0] + ndot[1] * dv[1]) - (r->connector >= 0 ? 0.0 : wq * wq * along);
    return b;
}

/* The friction row of contact r, written into t: tangent perp(n) through r's point, its
   Jacobians and tangential velocity, the key of r's friction. Only the fields the solve
   and the force assembly read (p, q, kind, connector, bilateral, point, normal, jp, jq,
   velocity, key) are set: no copy of the whole record, no pair lookup. O(1). */
static void tangent_row(const double *y, const imp_rec2d *r, imp_rec2d *t)
{
    const double tn[2] = {-r->normal[1], r->normal[0]};
    const double *yp = y + (size_t)r->p * IMP_STRIDE_2D, *yq = y + (size_t)r->q * IMP_STRIDE_2D;
    const double rp[2] = {r->point[0] - yp[0], r->point[1] - yp[1]};
    const double rq[2] = {r->point[0] - yq[0], r->point[1] - yq[1]};
    t->p = r->p;
    t->q = r->q;
    t->kind = r->kind;
    t->connector = -1;
    t->bilateral = 0;
    t->point[0] = r->point[0];
    t->point[1] = r->point[1];
    t->normal[0] = tn[0];
    t->normal[1] = tn[1];
    t->jp[0] = tn[0];
    t->jp[1] = tn[1];
    t->jp[2] = rp[0] * tn[1] - rp[1] * tn[0];
    t->jq[0] = -tn[0];
    t->jq[1] = -tn[1];
    t->jq[2] = -(rq[0] * tn[1] - rq[1] * tn[0]);
    /* (v + w x r) . t of each body at the point */
    t->velocity = ((yp[3] - yp[5] * rp[1]) * tn[0] + (yp[4] + yp[5] * rp[0]) * tn[1])
                  - ((yq[3] - yq[5] * rq[1]) * tn[0] + (yq[4] + yq[5] * rq[0]) * tn[1]);
    t->key = r->key ^ 0x5bd1e9955bd1e995ULL;
}

/* The velocity-and-distance extra acceleration of a row with normal velocity v0 and gap
   error x0: ContactSim's (2 v0 h + x0) / h^2, or at velocity level (semi-implicit Euler)
   v0 / h plus a Baumgarte fraction of x0 / h^2. */
static double extra_accel(double v0, double x0, double h, int velocity_level)
{
    return velocity_level ? (v0 * h + IMP_ENGINE2D_BAUMGARTE * x0) / (h * h)
                          : (2.0 * v0 * h + x0) / (h * h);
}

/* J M^-1 J^T of row r: the relative acceleration along it per unit force. O(1). */
static double row_diagonal(const imp_world *w, const imp_rec2d *r)
{
    double a = 0.0;
    const int s[2] = {r->p, r->q};
    const double *j[2] = {r->jp, r->jq};
    for (int u = 0; u < 2; u++) {
        const imp_body *b = &w->model.bodies[s[u]];
        if (s[u] == 0 || b->fixed) {
            continue;
        }
        a += (j[u][0] * j[u][0] + j[u][1] * j[u][1]) * b->inv_mass
             + j[u][2] * j[u][2] * b->inv_inertia.m[2][2];
    }
    return a;
}

/* The separation speed a contact closer than the half gap by -x0 > 0 is pushed out at, when
   its load (the force it carries without extra acceleration) gives its row the deceleration
   a_load: -x0 / IMP_ENGINE2D_PUSH_TIME (at velocity level the Baumgarte fraction of x0 per
   step h when slower), but no faster than the load stops within the gap, sqrt(2 a_load
   (-x0)): a contact can only push, what is left of the speed when the push runs out only the
   load takes away, so the push adds at most the load's work over the gap (f_load |x0|) to
   the kinetic energy, whatever h. The critically damped term (2 v0 h + x0) / h^2 left
   |x0| / (e h) with no regard to the load: touching balls of a cradle flew apart (0.1 J at
   dt 0.01, 1.7 J at dt 0.0025), a stack of touching boxes at dt 0.0025 leapt and bounced.
   This is a choice against myPhysicsLab's ContactSim, which pushes every such contact at once:
   its rule fails 9 of spec/engine2d_touching_spec.lua's 13 tests (the stack at dt 0.0025
   gains 18.5 J), and 7 when only approaching contacts are pushed at once; it is what remains
   between CircleStraightTest's wedged ball and myPhysicsLab's state (3.3e-5 at 3 s, 3.4e-7
   with ContactSim's rule, measured 2026-11-27). */
static double push_speed(double x0, double a_load, double h, int velocity_level)
{
    double k = 1.0 / IMP_ENGINE2D_PUSH_TIME;
    if (velocity_level && IMP_ENGINE2D_BAUMGARTE / h < k) {
        k = IMP_ENGINE2D_BAUMGARTE / h;
    }
    double v = -x0 * k, vmax = sqrt(2.0 * a_load * -x0);
    return v < vmax ? v : vmax;
}

/* keeps the body-pair contacts of the trial step's first evaluation, in body frames */
static int freeze_records(imp_world *w, const double *y)
{
    imp_engine2d *e = w->engine2d;
    if (e->nrec > e->frozen_cap) {
        imp_rec2d *p = realloc(e->frozen, (size_t)e->nrec * sizeof *p);
        if (p == NULL) {
            return -1;
        }
        e->frozen = p;
        e->frozen_cap = e->nrec;
    }
    int k = 0;
    for (int i = 0; i < e->nrec; i++) {
        if (e->rec[i].connector < 0 && e->rec[i].kind == IMP_HIT_CONTACT) {
            e->frozen[k] = e->rec[i];
            imp_engine2d_localize(w, y, &e->frozen[k]);
            k++;
        }
    }
    e->nfrozen = k;
    e->have_frozen = 1;
    return 0;
}

/* The problem of the rows in e (A, b, flags, friction arrays filled). */
static imp_lcp_problem rows_problem(const imp_engine2d *e, int n, int nf)
{
    imp_lcp_problem p;
    memset(&p, 0, sizeof p);
    p.n = n;
    p.A = e->A;
    p.b = e->b;
    p.bilateral = e->bil;
    if (nf > 0) {
        p.friction_normal = e->fric_normal;
        p.mu = e->mu;
        p.sliding = e->sliding;
    }
    return p;
}

/* Records the complementarity residual of an answer taken (stats.lcp_residual: the largest
   over the solves, relative to the problem's scales). */
static void note_residual(imp_engine2d *e, const imp_lcp_info *info)
{
    double r = fmax(info->natural_residual / (1.0 + info->scale_f),
                    fmax(info->max_bilateral / (1.0 + info->scale_a),
                         info->max_friction / (1.0 + info->scale_f)));
    if (!(r <= e->stats.lcp_residual)) {
        e->stats.lcp_residual = r;
    }
}

/* Whether an answer's residuals (info from imp_lcp_check or the pivoting) are small enough
   to take: relative 1e-5, and forces no far above any the problem can ask for (the residual
   test alone is relative to them: a blown-up iterate passes it). */
static int acceptable(const imp_lcp_problem *p, const imp_lcp_info *info)
{
    return info->scale_f <= 1e3 * (1.0 + imp_lcp_force_scale(p))
           && info->natural_residual <= 1e-5 * (1.0 + info->scale_f)
           && info->max_bilateral <= 1e-5 * (1.0 + info->scale_a)
           && info->max_friction <= 1e-5 * (1.0 + info->scale_f);
}

/* The rows in e by the exact Coulomb solver (engine2d_coulomb.c), warm-started from the last
   exact solve's forces of the same feature pairs; load (the load solve, see solve_lcp):
   cold (no warm start), its answer kept out of the warm starts. 0: solved; 1: not; -1 out of memory. */
static int solve_coulomb(imp_world *w, int n, int m, int nf, int load)
{
    imp_engine2d *e = w->engine2d;
    if (!load) {
        imp_engine2d_fwarm_fetch(e, e->rec, n, e->fwarm);
    }
    imp_e2_coulomb_info ci;
    memset(&ci, 0, sizeof ci);
    ci.tolerance = 1e-10;
    ci.max_iterations = 100;
    ci.max_sweeps = 500;
    e->stats.coulomb_solves++;
    if (imp_engine2d_coulomb(w, n, m, e->f, load ? NULL : e->fwarm, &ci) != 0) {
        return -1;
    }
    imp_lcp_problem p = rows_problem(e, n, nf);
    imp_lcp_info info;
    memset(&info, 0, sizeof info);
    imp_lcp_check(&p, e->f, e->a, 1e-8, &info);
    if (!acceptable(&p, &info)) {
        e->stats.coulomb_failures++;
        return 1;
    }
    note_residual(e, &info);
    return 0;
}

void imp_engine2d_lcp_options(imp_lcp_options *o)
{
    imp_lcp_default_options(o);
    o->tolerance = 1e-8;
    /* a clamped row within 1e-6 of dependence is redundant: a weld's four joint rows
       (rank 3) drift apart by 1e-9, and a tighter test admits them with forces of 1e7
       along the nearly dependent direction (spec/myphysicslab_joint_spec.lua) */
    o->pivot_tolerance = 1e-6;
}

/* The exact LCP of the rows in e into e->f: Baraff's pivoting (contact_solver "lcp") or the
   Coulomb solver ("coulomb"); either falls back to PGS (solve_rows) when it fails. 0: solved (or a failed
   solve's last iterate that nearly solves it); 1: failed; -1 out of memory.
   load: the load solve of the contacts closer than the half gap (the rows without their
   extra acceleration, before the main solve): Baraff's pivoting solves it cold and keeps
   its answer out of the warm starts. Its answer sets the pushes (push_speed), and on
   redundant rows (a box face on a face, coincident corners of two boxes) the loads are not
   unique: warm-started from the main solve of the stage before, the steps settled on a
   split that loaded the side contacts of neighbouring boxes (up to 2 N at the second RK4
   stage of the 55-box pyramid, 25 N at the third), whose pushes then drove each row of boxes
   apart (41 m/s^2 at the row's end) and left the next stages' problems sliding at 0.17 m/s,
   problems the driver failed on (2 of 39 solves to PGS, 82 s a step). Cold, the steps end
   on the regularized problem's answer (lcp.c's A + 1e-10 diag(A)), a function of the state
   alone, in about 1000 pivots; the main solves warm-start from the main solve before.
   (With the load solve cold but loads at rounding still pushed, the third step of that
   pyramid, after a solve those pushes defeated and PGS answered, loaded 49 side rows up to
   9.5 N; with them not pushed none of the 24 solves of the 3 steps failed.)
   "coulomb" solves the loads cold too. */
static int solve_lcp(imp_world *w, int n, int m, int nf, int load)
{
    imp_engine2d *e = w->engine2d;
    int st = 1;
    if (w->model.def.engine2d.contact_solver == IMP_SOLVER_COULOMB) {
        st = solve_coulomb(w, n, m, nf, load);
    } else {
        imp_lcp_problem p = rows_problem(e, n, nf);
        imp_lcp_options o;
        imp_engine2d_lcp_options(&o);
        /* warm start from the last solve's row states of the same feature pairs: a contact
           set that did not change needs no pivot (the row states go through the keyed
           table) */
        imp_engine2d_warm_fetch(e, e->rec, n, e->a);
        if (load) {
            memset(e->a, 0, (size_t)n * sizeof *e->a);
        }
        /* (kept as state + 16 basis byte: the basis of Lemke's path on the split problem,
           0 unless that path gave the answer) */
        unsigned char *basis_in = (unsigned char *)e->state_in + n;
        unsigned char *basis_out = (unsigned char *)e->state_out + n;
        for (int i = 0; i < n; i++) {
            int v = (int)e->a[i];
            e->state_in[i] = (signed char)(v & 15);
            basis_in[i] = (unsigned char)(v >> 4);
        }
        o.warm_start = e->state_in;
        o.warm_basis = basis_in;
        o.basis = basis_out;
        /* and the forces (their friction bounds) for the box steps on redundant rows */
        imp_engine2d_fwarm_fetch(e, e->rec, n, e->fwarm);
        if (load) {
            memset(e->fwarm, 0, (size_t)n * sizeof *e->fwarm);
        }
        o.warm_forces = e->fwarm;
        imp_lcp_info info;
        imp_lcp_status ls = imp_lcp_solve(&p, &o, e->ws, e->f, e->a, e->state_out, &info);
        if (ls != IMP_LCP_OK && e->lcp_failed != NULL) e->lcp_failed(e->lcp_failed_ctx, &p, &o);
        for (int i = 0; i < n; i++) {
            e->a[i] = (double)(e->state_out[i] + 16 * basis_out[i]);
        }
        if (!load && imp_engine2d_warm_store(e, e->rec, n, e->a) != 0) {
            return -1;
        }
        if (ls == IMP_LCP_OK || acceptable(&p, &info)) {
            /* (a failed solve's last iterate is kept when it nearly solves the problem) */
            e->stats.lcp_failures += ls != IMP_LCP_OK;
            note_residual(e, &info);
            st = 0;
        } else {
            /* (handing these to the Coulomb solver rescued 4 of 23 on the 55-box pyramid
               under symplectic Euler at 8 s a step: left to PGS, "coulomb" is the choice) */
            e->stats.lcp_failures++;
        }
    }
    if (load) {
        return st;  /* (the load solve's answer stays out of the warm starts) */
    }
    if (st == 0 && imp_engine2d_fwarm_store(e, e->rec, n, e->f) != 0) {
        return -1;
    }
    return st;
}

/* Solves the rows in e (b set) into e->f: PGS warm-started from the last solve, or the exact
   LCP falling back to many PGS sweeps when the pivoting gives up (redundant contacts with
   friction can defeat it; counted in lcp_failures) from zero (started from the pivoting's
   last iterate instead, the 55-box pyramid failed more often), the fallback's residual
   recorded; load: the load solve before the pushes (solve_lcp). 0 or -1. */
static int solve_rows(imp_world *w, int n, int m, int nf, int pgs, int load)
{
    imp_engine2d *e = w->engine2d;
    const imp_engine2d_def *d = &w->model.def.engine2d;
    e->stats.lcp_solves++;
    if (pgs) {
        imp_engine2d_warm_fetch(e, e->rec, n, e->f);
        if (imp_engine2d_pgs(w, e->rec, n, e->b, e->bil, nf > 0 ? e->fric_normal : NULL, e->mu,
                             e->sliding, d->pgs_iterations, e->f) != 0
            || imp_engine2d_warm_store(e, e->rec, n, e->f) != 0) {
            return -1;
        }
        return 0;
    }
    int st = solve_lcp(w, n, m, nf, load);
    if (st < 0) {
        return -1;
    }
    if (st > 0) {
        memset(e->f, 0, (size_t)n * sizeof *e->f);
        int sweeps = d->pgs_iterations > 500 ? d->pgs_iterations : 500;
        if (imp_engine2d_pgs(w, e->rec, n, e->b, e->bil, nf > 0 ? e->fric_normal : NULL, e->mu,
                             e->sliding, sweeps, e->f) != 0) {
            return -1;
        }
        imp_lcp_problem p = rows_problem(e, n, nf);
        imp_lcp_info info;
        memset(&info, 0, sizeof info);
        imp_lcp_check(&p, e->f, e->a, 1e-8, &info);
        note_residual(e, &info);
    }
    return 0;
}

/* A record of a stage that abandons its trial step: a body pair found penetrating, whatever
   its normal velocity (myPhysicsLab's illegalState: ContactSim.evaluate returns any record
   with distance < 0). A contact that a stage carries past the edge and that is already moving
   apart there (CircleStraightTest's wedged ball at 1.025 s: closer to a wall than the half
   gap and approaching at 0.33 m/s, at the step's midpoint stage 0.0012 inside and leaving)
   abandons the step too, and the back-up handles the approach at the step's start, as
   myPhysicsLab does (while only approaching records abandoned it, that step went through
   with no impulse and the wedged ball ended 1.3e-3 from the state its suite asserts at 3 s;
   now 3.3e-5).
   Ropes are left to the step's end: a taut rope's stages stretch it by the chord of their
   curved path (and a rope taut at its very length, not at the half gap, would cut every
   step short). A path end past its limit abandons the step as a pair does (its PathEndPoint
   record is no joint's, so illegal when past: roller_end_point_test's first strike on the
   stop is found at the midpoint stage, and its estimate uses the half step). */
static int stage_illegal(const imp_world *w, const imp_rec2d *r)
{
    return r->distance < 0.0 && ((r->connector < 0 && r->kind == IMP_HIT_COLLISION)
                                 || imp_engine2d_is_path_end(w, r->connector));
}

/* A later stage of a watched trial step (engine2d_step.c) whose records e->rec (describing
   y) penetrate (stage_illegal): keeps them, localized at y, with the stage's time. 0, or -1
   out of memory. */
static int watch_stage(imp_world *w, imp_engine2d *e, const double *y)
{
    if (!e->stage_watch || e->stage_hit || !(w->scratch.rhs_time > e->stage_t0)) {
        return 0;
    }
    int n = 0;
    for (int i = 0; i < e->nrec; i++) {
        n += stage_illegal(w, &e->rec[i]);
    }
    if (n == 0) {
        return 0;
    }
    if (n > e->stage_rec_cap) {
        imp_rec2d *p = realloc(e->stage_rec, (size_t)n * sizeof *p);
        if (p == NULL) {
            return -1;
        }
        e->stage_rec = p;
        e->stage_rec_cap = n;
    }
    int k = 0;
    for (int i = 0; i < e->nrec; i++) {
        if (stage_illegal(w, &e->rec[i])) {
            e->stage_rec[k] = e->rec[i];
            imp_engine2d_localize(w, y, &e->stage_rec[k]);
            k++;
        }
    }
    e->nstage_rec = k;
    e->stage_hit = 1;
    e->stage_t = w->scratch.rhs_time;
    return 0;
}

int imp_engine2d_body_cs(imp_world *w, const double *y)
{
    imp_engine2d *e = w->engine2d;
    if (e->cs_cap < w->model.nslots) {
        double *p = realloc(e->cs, 2 * (size_t)w->model.nslots * sizeof *p);
        if (p == NULL) {
            return -1;
        }
        e->cs = p;
        e->cs_cap = w->model.nslots;
    }
    for (int i = 0; i < w->model.nslots; i++) {  /* one sin and cos per body, not per record */
        double a = y[(size_t)i * IMP_STRIDE_2D + 2];
        e->cs[2 * i] = cos(a);
        e->cs[2 * i + 1] = sin(a);
    }
    return 0;
}

int imp_engine2d_contact_forces(imp_world *w, const double *y, double *f)
{
    imp_engine2d *e = w->engine2d;
    if (e == NULL || w->model.def.engine2d.contact_solver == IMP_SOLVER_SOFT) {
        return 0;  /* (the soft step solves its own rows: engine2d_soft.c) */
    }
    if (e->stage_watch && e->stage_hit) {
        return 0;  /* the trial step is abandoned: its later stages need no contact forces */
    }
    e->forces_evaluations++;
    int reuse = e->rec_reusable && e->rec_bodies_version == w->model.bodies_version
                && e->rec_nslots == w->model.nslots && e->rec_conn_version == e->conn_version
                && memcmp(y, e->y_rec, (size_t)w->model.nslots * IMP_STRIDE_2D * sizeof *y) == 0;
    e->rec_reusable = 0;  /* the records are compacted below */
    /* (a semi-implicit step has one evaluation: nothing to keep for later stages) */
    int pgs_freeze = e->freeze && w->model.def.engine2d.contact_solver == IMP_SOLVER_PGS
                     && !(e->step_h > 0.0);
    if (pgs_freeze && e->have_frozen) {
        /* a later stage of the trial step: its contacts moved with the bodies */
        if (imp_engine2d_reserve_records(e, e->nfrozen) != 0) {
            e->force_error = 1;
            return -1;
        }
        if (imp_engine2d_body_cs(w, y) != 0) {
            e->force_error = 1;
            return -1;
        }
        if (e->nfrozen > 0) {  /* (frozen is NULL until a first stage had contacts) */
            memcpy(e->rec, e->frozen, (size_t)e->nfrozen * sizeof *e->rec);
        }
        e->nrec = e->nfrozen;
        for (int i = 0; i < e->nrec; i++) {
            imp_engine2d_relocate(w, y, e->cs, &e->rec[i]);
        }
        if (imp_engine2d_connector_records(w, y) != 0) {
            e->force_error = 1;
            return -1;
        }
    } else {
        /* a watched trial step's later stages detect the paths from its start (ContactSim's
           detection with the bodies' old coordinates): an edge crossed within a stage counts */
        int swept = e->stage_watch && w->scratch.rhs_time > e->stage_t0;
        if (!reuse && imp_engine2d_detect(w, y, swept) < 0) {
            e->force_error = 1;
            return -1;
        }
        if (pgs_freeze && freeze_records(w, y) != 0) {
            e->force_error = 1;
            return -1;
        }
    }
    if (watch_stage(w, e, y) != 0) {
        e->force_error = 1;
        return -1;
    }
    if (e->stage_watch && e->stage_hit) {  /* this stage abandons the trial step */
        return 0;
    }
    const imp_engine2d_def *d = &w->model.def.engine2d;
    /* keep the contacts and connectors, then add the friction rows; under semi-implicit
       Euler also the inelastic (elasticity 0) imminent collisions: the velocity-level
       problem stops them within the step (Stewart & Trinkle), no impulse needed */
    int velocity_level = e->step_h > 0.0;
    int m = 0, nf = 0;
    for (int i = 0; i < e->nrec; i++) {
        const imp_rec2d *r = &e->rec[i];
        /* a taut rope is a contact while its ends move apart or together slower than
           velocity_tol (myPhysicsLab's contact test); a faster one is slackening (left
           free) or jerking taut (a collision) */
        int rope_contact = r->connector >= 0 && !r->bilateral
                           && fabs(r->velocity) < w->model.def.engine2d.velocity_tol;
        if ((r->connector >= 0 && r->bilateral) || rope_contact || r->kind == IMP_HIT_CONTACT
            || (velocity_level && r->kind == IMP_HIT_IMMINENT && r->elasticity == 0.0)) {
            nf += r->connector < 0 && r->friction > 0.0;
            if (m != i) {
                e->rec[m] = *r;
            }
            m++;
        }
    }
    e->nrec = m;  /* the rows kept; friction rows go after them */
    if (m == 0) {
        return 0;
    }
    int n = m + nf;
    if (imp_engine2d_reserve_records(e, n) != 0 || imp_engine2d_reserve_lcp(e, n) != 0) {
        e->force_error = 1;
        return -1;
    }
    int k = m;
    for (int i = 0; i < m; i++) {
        e->fric_normal[i] = -1;
        e->mu[i] = 0.0;
        e->sliding[i] = 0;
        imp_rec2d *r = &e->rec[i];
        if (r->connector >= 0 || !(r->friction > 0.0)) {
            continue;
        }
        tangent_row(y, r, &e->rec[k]);
        e->fric_normal[k] = i;
        e->mu[k] = r->friction;
        e->sliding[k] = 0;  /* bounded rows aiming at no slip within h (see the b vector) */
        k++;
    }
    int pgs = d->contact_solver == IMP_SOLVER_PGS;
    if (!pgs) {
        if (imp_engine2d_reserve_matrix(e, n) != 0 || imp_engine2d_build_A(w, e->rec, n, e->A) != 0) {
            e->force_error = 1;
            return -1;
        }
    }
    /* under semi-implicit Euler (engine2d_symplectic.c) the rows are posed at velocity level
       over the step being taken: v_n / h asks v_n = 0 at its end, and the distance term
       (d - gap) / h^2 closes the gap error in one step (the ODE form (2 v h + x) / h^2 would
       make that map unstable: its eigenvalues are (-1 +- sqrt 5) / 2) */
    double h = d->extra_accel_dt > 0.0 ? d->extra_accel_dt : velocity_level ? e->step_h : w->model.def.dt;
    imp_extra_accel pol = d->extra_accel;
    int joints_too = pol == IMP_EXTRA_VELOCITY_JOINTS || pol == IMP_EXTRA_VELOCITY_AND_DISTANCE_JOINTS;
    int with_distance = pol == IMP_EXTRA_VELOCITY_AND_DISTANCE
                        || pol == IMP_EXTRA_VELOCITY_AND_DISTANCE_JOINTS;
    /* myPhysicsLab's conventions: every contact closer than the half gap pushed at once by
       (2 v h + x0) / h^2, as ContactSim, whatever its load (see push_speed) */
    int mpl = d->conventions == IMP_CONVENTIONS_MYPHYSICSLAB;
    /* the gap error x0 of a contact closer than the half gap (by more than round-off), in
       e->e (NaN: none): its push waits for its load; e->vel: each row's b without any extra
       acceleration (the load solve) */
    double *push = e->e, *bare = e->vel, tiny = IMP_ENGINE2D_TINY * d->distance_tol;
    int npush = 0;
    for (int i = 0; i < n; i++) {
        const imp_rec2d *r = &e->rec[i];
        e->bil[i] = (unsigned char)(r->bilateral != 0);
        push[i] = NAN;
        if (i >= m) {
            /* tangent row: the relative tangential acceleration at the contact point, plus
               v_t / h so that the friction force stops the slip within h when the bound
               mu f_n allows; a sliding contact saturates at the bound, against the slip */
            bare[i] = point_accel_dot(w, y, f, r->p, r->point, r->normal)
                      - point_accel_dot(w, y, f, r->q, r->point, r->normal);
            e->b[i] = bare[i] + r->velocity / h;
            continue;
        }
        double b = bare[i] = gap_accel(w, y, f, r);
        if (r->kind == IMP_HIT_IMMINENT) {  /* (a rope jerking taut too) */
            /* an inelastic approach (velocity level): do not cross the half gap within the
               step, v_n >= -max(d - gap, 0) / h (a speculative contact), never pulled */
            double x0 = r->distance - r->target;
            b += r->velocity / h + (x0 > 0.0 ? x0 : 0.0) / (h * h);
        } else if (pol != IMP_EXTRA_NONE && (!r->bilateral || joints_too)) {
            /* contacts and ropes; joints and rods under the *_joints policies */
            double v0 = r->velocity, x0 = r->distance - r->target;
            if (with_distance && r->connector < 0 && x0 < -tiny && !mpl) {
                push[i] = x0;
                npush++;
                b += velocity_level ? v0 / h : 2.0 * v0 / h;  /* (x0 = 0 in extra_accel) */
            } else {
                b += with_distance ? extra_accel(v0, x0, h, velocity_level) : v0 / h;
            }
        }
        e->b[i] = b;
    }
    if (n > e->stats.max_contacts) {
        e->stats.max_contacts = n;
    }
    if (npush > 0) {
        /* The loads of the contacts closer than the half gap (their forces with no extra
           acceleration): each is pushed out no faster than its load stops (push_speed); an
           unloaded one is held where it is. */
        double *keep = e->jsum;
        memcpy(keep, e->b, (size_t)n * sizeof *keep);
        memcpy(e->b, bare, (size_t)n * sizeof *e->b);
        if (solve_rows(w, n, m, nf, pgs, 1) != 0) {
            e->force_error = 1;
            return -1;
        }
        memcpy(e->b, keep, (size_t)n * sizeof *e->b);
        /* A load at the solve's rounding (IMP_ENGINE2D_LOAD_NOISE of its largest contact
           load) counts as none. On redundant rows such loads are an arbitrary split: at the
           55-box pyramid's second RK4 step one of the two side rows of each pair of
           neighbouring boxes carried 1e-8 N (the largest load about 30 N), and the pushes
           from them, 2e-5 m/s sideways on 45 of the 90 side rows, made a problem no method
           of the driver answered (56 s, then PGS at residual 0.35); with those pushes left
           out the box steps answer it in 0.2 to 0.4 s. O(m). */
        double fmax = 0.0;
        for (int i = 0; i < m; i++) {
            if (!e->bil[i] && e->f[i] > fmax) {
                fmax = e->f[i];
            }
        }
        for (int i = 0; i < m; i++) {
            if (!isnan(push[i]) && e->f[i] > IMP_ENGINE2D_LOAD_NOISE * fmax) {
                double v = push_speed(push[i], e->f[i] * row_diagonal(w, &e->rec[i]), h,
                                      velocity_level);
                e->b[i] -= (velocity_level ? 1.0 : 2.0) * v / h;
            }
        }
    }
    /* (myPhysicsLab's solve and order: engine2d_contact_mpl.c) */
    if ((mpl && !pgs && nf == 0 ? imp_engine2d_contact_solve_mpl(w, n) : solve_rows(w, n, m, nf, pgs, 0)) != 0) {
        e->force_error = 1;
        return -1;
    }
    for (int i = 0; i < n; i++) {
        imp_rec2d *r = &e->rec[i];
        double fi = e->f[i];
        if (!isfinite(fi)) {
            e->force_error = 1;
            return -1;
        }
        r->force = fi;
        if (i >= m) {
            e->rec[e->fric_normal[i]].friction_force = fi;
        }
        if (fabs(fi) > e->max_force) {
            e->max_force = fabs(fi);
        }
        const int s[2] = {r->p, r->q};
        const double *jr[2] = {r->jp, r->jq};
        for (int u = 0; u < 2; u++) {
            if (s[u] == 0 || w->model.bodies[s[u]].fixed) {
                continue;
            }
            f[6 * s[u]] += jr[u][0] * fi;
            f[6 * s[u] + 1] += jr[u][1] * fi;
            f[6 * s[u] + 5] += jr[u][2] * fi;
        }
    }
    return 0;
}

int imp_engine2d_evaluate(imp_world *w, double *dydt)
{
    if (w->engine2d == NULL) {
        return 0;
    }
    imp_engine2d *e = w->engine2d;
    e->force_error = 0;
    /* under semi-implicit Euler the forces are those a step of dt from here would use */
    e->step_h = imp_engine2d_symplectic(w) ? w->model.def.dt : 0.0;
    imp_world_derivative(w, w->data.time, w->data.y, dydt);
    e->step_h = 0.0;
    return e->force_error ? -1 : 0;
}
