/* engine2d_step.c: the collision advance of the 2D engine (myPhysicsLab's
   CollisionAdvance.advance, see the "Advance Strategy" section of the engine2D overview).

   Over one world step: save the state and take a trial ODE step (the world's fixed-step
   method; RK4 when it is an adaptive one). A penetration found after the step (a collision
   record, or an imminent one already closer than gap/2 - accuracy) sends the state back to
   the saved one; the bodies there are detected statically and, when a pair found
   penetrating is close enough (distance < gap/2 + accuracy, approaching), the collisions are
   handled there by impulses. Otherwise the next trial step goes to the estimated moment the
   gap is gap/2, t_est = h + (gap/2 - d) / v from the penetrating record (exact for uniform
   motion), or, when no estimate is usable or after 3 back-ups in a row, to half the last
   trial step (binary search). After an accepted step, the imminent collisions and the pairs
   found penetrating before that are close enough are handled. max_backups back-ups in a row
   without progress is an error naming the time and the bodies; the caller then restores the
   state of the start of the world step.
   Cost per trial step: the ODE step, one detection, and one static detection per back-up.

   The step reads as its stages (timed into the world's profile, profile.h): per trial step
   check_progress, integrate, detect, penetrations, then back_up or accept (collisions: the
   impulses; contacts: the tracking at the step's end); after the loop joint_small_impacts.
   The collision-handling mode is an argument of imp_engine2d_handle (joints: simultaneous). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine2d.h"
#include "engine2d_move.h"
#include "engine2d_path_joint.h"
#include "engine2d_sleep.h"
#include "engine2d_soft.h"
#include "engine2d_symplectic.h"
#include "integrate_fixed.h"
#include "islands.h"
#include "world_internal.h"
#include "resize.h"

static int pending_has(const imp_engine2d *e, int p, int q)
{
    for (int i = 0; i < e->npending; i++) {
        int a = e->pending[i].p, b = e->pending[i].q;
        if ((a == p && b == q) || (a == q && b == p)) {
            return 1;
        }
    }
    return 0;
}

static int pending_key_has(const imp_engine2d *e, unsigned long long key)
{
    for (int i = 0; i < e->npending; i++) {
        if (e->pending[i].key == key) {
            return 1;
        }
    }
    return 0;
}

/* whether record r is a collision found penetrating: impact's rule, its body pair was found
   penetrating; myPhysicsLab's (conventions), the record itself was */
static int pending_record(const imp_engine2d *e, const imp_rec2d *r, int mpl)
{
    return mpl ? pending_key_has(e, r->key) : pending_has(e, r->p, r->q);
}

static int pending_add(imp_engine2d *e, const imp_rec2d *r)
{
    if (pending_key_has(e, r->key)) {
        return 0;
    }
    if (imp_grow(&e->pending, &e->pending_cap, e->npending + 1, sizeof *e->pending) != 0) {
        return -1;
    }
    e->pending[e->npending].p = r->p;
    e->pending[e->npending].q = r->q;
    e->pending[e->npending].key = r->key;
    e->npending++;
    return 0;
}

/* a record that must not be accepted at the end of a trial step: a penetration */
static int colliding(const imp_rec2d *r, double target, double acc)
{
    if (r->bilateral) {
        return 0;
    }
    if (r->connector >= 0 && r->kind != IMP_HIT_IMMINENT) {
        return r->distance < 0.0;  /* a rope stretched beyond its length */
    }
    if (r->corners) {  /* closer than the half gap is allowed: see corners_close */
        return r->kind == IMP_HIT_COLLISION;
    }
    return r->kind == IMP_HIT_COLLISION || (r->kind == IMP_HIT_IMMINENT && r->distance < target - acc);
}

/* A corner approaching a corner is handled only within the accuracy of contact (0 <= distance
   < acc), not at the half gap: the line of the corners is the collision's normal only at
   contact; earlier (a corner passing a corner at the half gap to strike the other's edge just
   beyond it, myPhysicsLab's oblique_corner_collision) it may be far from the normal of the
   edge actually struck. The advance closes in on the contact by halving its steps until this
   record is that close or the corner's vertex/edge record appears (its edge's normal, handled
   closer than the half gap: see tiny in penetrations). */
static int corners_close(const imp_rec2d *r, double acc)
{
    return r->distance >= 0.0 && r->distance < acc;
}

static void push_collision_events(imp_world *w, double t, const imp_rec2d *rec, int n)
{
    for (int i = 0; i < n; i++) {
        const imp_rec2d *r = &rec[i];
        if (r->connector >= 0 && r->bilateral) {
            continue;
        }
        if (!(r->impulse > 1e-4)) {  /* myPhysicsLab's "small impulse": resting contacts */
            continue;
        }
        imp_engine2d_push_collision(w, t, r, r->velocity, r->impulse);
    }
}

/* The records describe the state w->data.y: the next trial step's first evaluation of the contact
   forces takes them instead of detecting again at the same state. */
static void records_reusable(imp_world *w, size_t n)
{
    imp_engine2d *e = w->engine2d;
    memcpy(e->y_rec, w->data.y, n * sizeof *w->data.y);
    e->rec_reusable = 1;
    e->rec_bodies_version = w->model.bodies_version;
    e->rec_nslots = w->model.nslots;
    e->rec_conn_version = e->conn_version;
}

static int group_root(int *g, int s)
{
    while (g[s] != s) {
        g[s] = g[g[s]];
        s = g[s];
    }
    return s;
}

/* movable slot of record r for the grouping (-1: none) */
static int group_slot(const imp_world *w, int s)
{
    return s > 0 && !w->model.bodies[s].fixed ? s : -1;
}

/* Simultaneous handling: keeps only the records coupled to a collision being handled (sharing
   a movable body with it, directly or through other records), in their order; returns how
   many. A touching pair apart from every collision has nothing transmitted to it: solving it
   with elasticity 0 (as a contact) stopped a slow elastic approach (|v| < velocity_tol) that
   had not collided yet, an energy loss (elastic balls in a box lost most of their energy);
   it is handled by its own collision when it comes. O(n + slots). */
static int coupled_only(imp_world *w, imp_rec2d *rec, unsigned char *elastic, int n)
{
    imp_engine2d *e = w->engine2d;
    int *g = e->group;
    for (int s = 0; s < w->model.nslots; s++) {
        g[s] = s;
    }
    for (int i = 0; i < n; i++) {
        int a = group_slot(w, rec[i].p), b = group_slot(w, rec[i].q);
        if (a >= 0 && b >= 0) {
            g[group_root(g, a)] = group_root(g, b);
        }
    }
    int *mark = g + w->model.nslots;  /* groups with a collision */
    memset(mark, 0, (size_t)w->model.nslots * sizeof *mark);
    for (int i = 0; i < n; i++) {
        int a = group_slot(w, rec[i].p), b = group_slot(w, rec[i].q);
        int s = a >= 0 ? a : b;
        if (elastic[i] && s >= 0) {
            mark[group_root(g, s)] = 1;
        }
    }
    int keep = 0;
    for (int i = 0; i < n; i++) {
        int a = group_slot(w, rec[i].p), b = group_slot(w, rec[i].q);
        int s = a >= 0 ? a : b;
        if (s >= 0 && mark[group_root(g, s)]) {
            rec[keep] = rec[i];
            elastic[keep] = elastic[i];
            keep++;
        }
    }
    return keep;
}

/* myPhysicsLab's order of the records found at a state (its findCollisions:
   imp_engine2d_mpl_pair_before), before the orders below: the serial focus is drawn over
   record positions, so with impact's order (pairs as the broad phase lists them) the same
   draws struck other records (test8_0). Stable; elastic flags move with their records.
   O(n^2) (insertion sort, n small). */
static void pair_order(imp_engine2d *e, unsigned char *elastic)
{
    for (int j = 1; j < e->nrec; j++) {
        imp_rec2d r = e->rec[j];
        unsigned char el = elastic[j];
        int i = j;
        for (; i > 0 && imp_engine2d_mpl_pair_before(&r, &e->rec[i - 1]); i--) {
            e->rec[i] = e->rec[i - 1];
            elastic[i] = elastic[i - 1];
        }
        e->rec[i] = r;
        elastic[i] = el;
    }
}

/* myPhysicsLab's order of the records a back-up handles: the ones found penetrating (kept
   from the trial step, in the order they were found), then the others in the order of the
   detection at the backed-up state (its addCollision keeps a record found earlier in place of
   a similar one found later). The serial focus is drawn over this order. Stable; elastic
   flags move with their records. O(n npending). */
static void pending_first(imp_engine2d *e, unsigned char *elastic)
{
    int pos = 0;
    while (pos < e->nrec && e->rec[pos].connector >= 0) {
        pos++;  /* (after the connectors' records: its findCollisions puts them in front) */
    }
    for (int k = 0; k < e->npending; k++) {
        for (int j = pos; j < e->nrec; j++) {
            if (e->rec[j].key != e->pending[k].key || e->rec[j].bilateral) {
                continue;
            }
            imp_rec2d r = e->rec[j];
            unsigned char el = elastic[j];
            for (int i = j; i > pos; i--) {
                e->rec[i] = e->rec[i - 1];
                elastic[i] = elastic[i - 1];
            }
            e->rec[pos] = r;
            elastic[pos] = el;
            pos++;
            break;
        }
    }
}

/* myPhysicsLab's order of the records a step's end handles (no back-up): by estimated
   collision time rounded to 1e-7 (t + (target - distance) / v for v < -0.001, else none:
   last), ties in the order found (its stable sort, CollisionAdvance.do_advance_sim). The
   keys go in e->e. O(n^2) (insertion sort, n small). */
static void estimate_order(imp_engine2d *e, unsigned char *elastic, double t, double target)
{
    double *key = e->e;
    for (int i = 0; i < e->nrec; i++) {
        const imp_rec2d *r = &e->rec[i];
        key[i] = !r->bilateral && r->velocity < -0.001  /* (its joints: no estimate) */
                 ? floor(1e7 * (t + (target - r->distance) / r->velocity) + 0.5) : INFINITY;
    }
    for (int j = 1; j < e->nrec; j++) {
        imp_rec2d r = e->rec[j];
        unsigned char el = elastic[j];
        double k = key[j];
        int i = j;
        for (; i > 0 && key[i - 1] > k; i--) {
            e->rec[i] = e->rec[i - 1];
            elastic[i] = elastic[i - 1];
            key[i] = key[i - 1];
        }
        e->rec[i] = r;
        elastic[i] = el;
        key[i] = k;
    }
}

/* Whether record r is a collision to handle: an imminent one, or one found penetrating.
   myPhysicsLab's (conventions): found penetrating counts only at the back-up that found it;
   the records at the end of a kept trial step are that step's own (CollisionAdvance marks
   needsHandling afresh at every trial step), so a pair that penetrated in an earlier trial
   step and now approaches slower than velocity_tol is a contact there, stopped by the contact
   forces (and their extra acceleration), not by an elastic impulse. */
static int to_handle(const imp_engine2d *e, const imp_rec2d *r, int mpl, int after_backup)
{
    return !r->bilateral
           && (r->kind == IMP_HIT_IMMINENT || (pending_record(e, r, mpl) && (!mpl || after_backup)));
}

/* Whether record r is a collision to handle that is close enough to be handled now: within
   the accuracy of the half gap (after a back-up, or for one found penetrating, anywhere
   between contact and there: "allowTiny"); a corner on a corner within the accuracy of
   contact. Under the conventions these are what its CollisionAdvance counts as collisions
   (numClose: approaching, needing handling or no contact, closeEnough), and a record found
   penetrating that is a contact where the back-up left it (slower than velocity_tol, inside
   (0, distance_tol)) is close at any distance in that band (its closeEnough is true for a
   contact): it is handled there rather than at its estimated time. */
static int close_collision(const imp_engine2d *e, const imp_rec2d *r, int mpl, int after_backup,
                           double target, double acc, double vtol)
{
    double lo = after_backup ? 0.0 : target - acc;  /* "allowTiny" after a back-up */
    if (!to_handle(e, r, mpl, after_backup) || !(r->velocity < 0.0)) {
        return 0;
    }
    if (mpl && fabs(r->velocity) < vtol && r->distance > 0.0 && r->distance < 2.0 * target) {
        return 1;
    }
    return r->corners ? corners_close(r, acc)
                      : r->distance >= (r->kind == IMP_HIT_IMMINENT ? lo : 0.0)
                            && r->distance < target + acc;
}

/* Handles, at state w->data.y and time t, the touching records when one of them is a collision to
   handle (imminent, or a pair found penetrating) that is close enough. Returns 1 when
   impulses were applied, 0 when there was nothing to handle, -1 on failure; *untouched = 1
   when the records and the state were left as they were (nothing close enough). */
static int handle_close(imp_world *w, double t, int after_backup, int *untouched)
{
    imp_engine2d *e = w->engine2d;
    const imp_engine2d_def *d = &w->model.def.engine2d;
    double target = 0.5 * d->distance_tol, acc = d->collision_accuracy * target;
    int n = e->nrec, want = 0, mpl = d->conventions == IMP_CONVENTIONS_MYPHYSICSLAB;
    if (imp_engine2d_reserve_lcp(e, 2 * n + 2) != 0) {
        return -1;
    }
    for (int i = 0; i < n && (!want || mpl); i++) {
        want += close_collision(e, &e->rec[i], mpl, after_backup, target, acc, d->velocity_tol);
    }
    *untouched = !want;
    if (!want) {
        return 0;
    }
    /* serial and hybrid: every touching pair takes part, those moving apart too (myPhysicsLab's
       handling: an impulse that turns one of them into an approach is handled in the same
       pass); simultaneous: one LCP over the approaching and resting ones (with the separating
       ones too, its elastic solutions gained energy: engine2d_touching_spec) */
    if (d->collision_handling != IMP_HANDLING_SIMULTANEOUS) {
        if (imp_engine2d_add_separating(w, w->data.y) < 0
            || imp_engine2d_reserve_lcp(e, 2 * e->nrec + 2) != 0) {
            return -1;
        }
        n = e->nrec;
    }
    /* keep the touching records and the connectors; the elastic flags go in e->sliding's
       storage (n bytes), free outside contact solves */
    unsigned char *elastic = (unsigned char *)e->sliding;
    int keep = 0;
    for (int i = 0; i < n; i++) {
        const imp_rec2d *r = &e->rec[i];
        if (r->connector >= 0 || r->distance < d->distance_tol) {
            int coll = to_handle(e, r, mpl, after_backup);
            e->rec[keep] = *r;
            elastic[keep] = (unsigned char)coll;
            keep++;
        }
    }
    e->nrec = keep;
    if (mpl) {
        pair_order(e, elastic);
    }
    if (mpl && after_backup) {
        pending_first(e, elastic);
    } else if (mpl) {
        estimate_order(e, elastic, t, target);
    }
    if (d->collision_handling == IMP_HANDLING_SIMULTANEOUS) {
        e->nrec = keep = coupled_only(w, e->rec, elastic, keep);
    }
    int st = imp_engine2d_handle(w, w->data.y, e->rec, keep, elastic, w->model.def.engine2d.collision_handling);
    if (st > 0) {
        long counted = e->stats.collisions;
        push_collision_events(w, t, e->rec, keep);
        if (mpl) {  /* its CollisionTotals: the collisions close enough, one per record */
            e->stats.collisions = counted + want;
        }
        e->npending = 0;
    }
    return st;
}

/* The rate of change of a curved record's gap at state y: its centres' relative velocity
   along the normal, n . (v_p(u1) - v_q(u2)) (u1, u2 the primary's vertex or arc centre and the
   normal body's arc centre, or a rope's ends; the normal along their line). Exact for an arc
   against an arc or a vertex, and for a rope; a record moved with its bodies keeps its impact
   point where it was, off the new line of centres, and a rope's its velocity of then: neither
   is the gap's rate. */
static double centres_rate(const double *y, const imp_rec2d *r)
{
    double vp[2], vq[2];
    imp_e2_point_velocity(y + (size_t)r->p * IMP_STRIDE_2D, r->u1, vp);
    imp_e2_point_velocity(y + (size_t)r->q * IMP_STRIDE_2D, r->u2, vq);
    return r->normal[0] * (vp[0] - vq[0]) + r->normal[1] * (vp[1] - vq[1]);
}

/* The earliest s in (0, h] with d1 + v1 s + a s^2 / 2 = target, a = (v2 - v1) / h (uniform
   motion when a is negligible); NaN when there is none or the gap starts within target. */
static double reach_time(double d1, double v1, double v2, double h, double target)
{
    double a = (v2 - v1) / h, c = d1 - target;  /* a s^2 / 2 + v1 s + c = 0 */
    double s;
    if (!(c > 0.0)) {
        return NAN;  /* already within the half gap at the start */
    }
    if (fabs(a) * h < 1e-9 * fabs(v1) || fabs(a) < 1e-12) {
        s = v1 < 0.0 ? -c / v1 : NAN;
    } else {
        double disc = v1 * v1 - 2.0 * a * c;
        if (!(disc >= 0.0)) {
            return NAN;
        }
        double q = -0.5 * (v1 + copysign(sqrt(disc), v1));
        double s1 = q / (0.5 * a), s2 = c / q;
        double lo = fmin(s1, s2), hi = fmax(s1, s2);
        s = lo > 0.0 ? lo : hi;
    }
    return s > 0.0 && s <= h ? s : NAN;
}

/* conventions = "myphysicslab": its updateEstimatedTime after a back-up. A record not
   approaching at the step's start (v1 >= 0) gives INFINITY: no estimate, and none needed (its
   CollisionStats counts only the records approaching there). Else the moment it reaches
   target within the step (reach_time); when there is none, the estimate stays the one it got
   where it was found (d2, v2 at h): uniform motion back from there, h + (target - d2) / v2
   (which may lie before the step's start), when v2 < -0.001, else none (NaN). */
static double estimate_mpl(double d1, double v1, double d2, double v2, double h, double target)
{
    if (!(v1 < 0.0)) {
        return INFINITY;
    }
    double s = reach_time(d1, v1, v2, h, target);
    if (isfinite(s)) {
        return s;
    }
    return v2 < -0.001 ? h + (target - d2) / v2 : NAN;
}

/* When, after the start of the trial step of length h, record r (found at its end with
   distance d2 and normal velocity v2 < 0) was at distance target (myPhysicsLab's estimated
   collision time after a back-up, updateCollision): the record is moved back with its bodies
   to the saved state y0, giving the distance d1 and the normal velocity v1 there (a curved
   record's or a rope's: from its centres or ends, centres_rate, as updateCollision's); with the
   constant normal acceleration a = (v2 - v1) / h, d1 + v1 s + a s^2 / 2 = target, the
   earliest root s in (0, h]. Uniform motion gives (target - d1) / v1. NaN when there is no
   estimate. cs: 2 per slot, scratch for the cosines and sines of y0's angles; y: the state r
   describes, NULL when r's body-frame copies are set already; *d1 (when not NULL): the
   distance at y0 (NaN when v2 gives no estimate). Under conventions = "myphysicslab" its own
   rule (estimate_mpl). */
static double estimate(const imp_world *w, const imp_rec2d *r, const double *y, const double *y0,
                       double *cs, double h, double target, double *d1_out)
{
    double v2 = r->velocity;
    int mpl = w->model.def.engine2d.conventions == IMP_CONVENTIONS_MYPHYSICSLAB;
    if (d1_out != NULL) {
        *d1_out = NAN;
    }
    if (!(v2 < -1e-3) && !mpl) {
        return NAN;
    }
    imp_rec2d m = *r;
    if (y != NULL) {  /* (NULL: r is localized already) */
        imp_engine2d_localize(w, y, &m);
    }
    const int sl[2] = {m.p, m.q};
    for (int k = 0; k < 2; k++) {
        double ang = y0[(size_t)sl[k] * IMP_STRIDE_2D + 2];
        cs[2 * sl[k]] = cos(ang);
        cs[2 * sl[k] + 1] = sin(ang);
    }
    /* a curved record's gap (arcs, ropes) is its centres' distance (signed along the normal)
       plus a constant, whatever normal the detection gave it (a swept record's is the edge's
       where the vertex crossed it, not along the line of centres) */
    double side = 0.0, gap_c = 0.0;
    int curved = m.curved && !m.bilateral;
    if (curved) {
        double dx = m.u1[0] - m.u2[0], dy = m.u1[1] - m.u2[1];
        side = m.normal[0] * dx + m.normal[1] * dy < 0.0 ? -1.0 : 1.0;
        gap_c = m.distance - side * hypot(dx, dy);
    }
    imp_engine2d_relocate(w, y0, cs, &m);
    double d1 = m.distance, v1 = m.velocity;
    if (imp_engine2d_is_path_end(w, m.connector)) {  /* (its gap along the path, afresh) */
        imp_engine2d_path_end_gap(w, y0, &w->engine2d->conn[m.connector], &d1, &v1);
    }
    if (curved) {
        double ex = m.u1[0] - m.u2[0], ey = m.u1[1] - m.u2[1], len = hypot(ex, ey);
        d1 = side * len + gap_c;
        if (mpl && len > 0.0) {
            /* its updateCollision: the normal afresh along the centres' line at y0 */
            m.normal[0] = side * ex / len;
            m.normal[1] = side * ey / len;
        }
        v1 = centres_rate(y0, &m);
    }
    if (d1_out != NULL) {
        *d1_out = v2 < -1e-3 ? d1 : NAN;
    }
    if (mpl) {
        return estimate_mpl(d1, v1, r->distance, v2, h, target);
    }
    return reach_time(d1, v1, v2, h, target);
}

static void name_bodies(imp_world *w, const imp_rec2d *r)
{
    w->data.nerror_bodies = 0;
    if (r->p > 0) {
        w->data.error_bodies[w->data.nerror_bodies++] = r->p;
    }
    if (r->q > 0) {
        w->data.error_bodies[w->data.nerror_bodies++] = r->q;
    }
}

/* The bodies of the impulse problem that could not be solved (imp_engine2d_handle noted
   them), else those of the record r (may be NULL). */
static void name_failed_bodies(imp_world *w, const imp_rec2d *r)
{
    const imp_engine2d *e = w->engine2d;
    w->data.nerror_bodies = 0;
    if (e->nfail == 0) {
        if (r != NULL) {
            name_bodies(w, r);
        }
        return;
    }
    for (int i = 0; i < e->nfail; i++) {
        w->data.error_bodies[w->data.nerror_bodies++] = e->fail_bodies[i];
    }
}

/* conventions = "myphysicslab": keeps record r (found penetrating at the end of the trial
   step, or at the stage that abandoned it) for the back-up, localized (y: the state r
   describes, NULL when r is localized already). 0, or -1 out of memory. */
static int keep_penetrating(imp_world *w, const imp_rec2d *r, const double *y)
{
    imp_engine2d *e = w->engine2d;
    if (imp_grow(&e->kept_rec, &e->kept_rec_cap, e->nkept_rec + 1, sizeof *e->kept_rec) != 0) {
        return -1;
    }
    imp_rec2d *k = &e->kept_rec[e->nkept_rec++];
    *k = *r;
    if (y != NULL) {
        imp_engine2d_localize(w, y, k);
    }
    return 0;
}

/* conventions = "myphysicslab": after the static detection at the backed-up state y0, the
   records found penetrating by the trial step that no detection found again there, moved back
   with their bodies (its do_backup keeps the penetrating records, updated by updateCollision:
   a vertex against a straight edge measured to the edge's line, beyond the edge's ends too,
   where the static detection sees only the corners). Straight records only: an arc's or a
   connector's record is detected again statically (its own updateCollision measures it as
   the detection does). Appended after the detected ones (nrec of them), the detected ones of
   a kept corner dropped (imp_engine2d_mpl_drop_similar; *ndetected: the detected ones left);
   returns how many were appended, or -1 out of memory. O(kept nrec + slots). */
static int add_kept(imp_world *w, const double *y0, int *ndetected)
{
    imp_engine2d *e = w->engine2d;
    int n = e->nrec, added = 0;
    for (int k = 0; k < e->nkept_rec; k++) {
        const imp_rec2d *r = &e->kept_rec[k];
        int found = 0;
        for (int i = 0; i < n + added && !found; i++) {
            found = e->rec[i].key == r->key;
        }
        if (found || r->connector >= 0 || r->curved) {
            continue;
        }
        if (imp_engine2d_reserve_records(e, n + added + 1) != 0
            || (added == 0 && imp_engine2d_body_cs(w, y0) != 0)) {
            return -1;
        }
        imp_rec2d *m = &e->rec[n + added];
        *m = *r;
        imp_engine2d_relocate(w, y0, e->cs, m);
        added++;
    }
    e->nrec = n + added;
    *ndetected = added > 0 ? imp_engine2d_mpl_drop_similar(e, n) : n;
    return added;
}

/* One world step of the collision advance: its state between the stages. */
typedef struct advance {
    imp_world *w;
    imp_engine2d *e;
    const imp_engine2d_def *d;
    imp_profile *prof;
    size_t n;               /* state numbers */
    double target, acc;     /* the half gap aimed at, and the accuracy around it */
    double t, t1, h;        /* now, the end of the world step, the next trial step */
    double total, advanced; /* conventions = "myphysicslab": the world step's length (dt) and
                               the time the kept trial steps took (its CollisionAdvance's
                               totalTimeStep and timeAdvanced: a trial step is at most
                               total - advanced, not t1 - t, which rounds otherwise) */
    int binary, binary_accepts, stuck, handled;
    int estimated;          /* the trial step goes to a back-up's estimated collision time */
    int tiny;               /* the last trial step ends with an imminent collision closer than
                               the half gap that it cannot reach (allowTiny): handled there */
    int nfar;               /* conventions = "myphysicslab": the penetrating records that the
                               back-up leaves farther than distance_tol (its removeDistant),
                               and the earliest of their estimated times (a trial step's
                               length; NaN when one of them has none) */
    double far_est;
    long trials;
    imp_rec2d last_blame;   /* the worst record of the last back-up */
    char *why;
    size_t why_size;
} advance;

/* the time left in the world step */
static double time_left(const advance *a)
{
    return a->d->conventions == IMP_CONVENTIONS_MYPHYSICSLAB ? a->total - a->advanced : a->t1 - a->t;
}

/* The buffers of one world step; the 2D check. */
static imp_status prepare(advance *a)
{
    imp_world *w = a->w;
    if (w->model.def.dim != 2) {
        snprintf(a->why, a->why_size, "the %s strategy is for 2D worlds",
                 imp_strategy_names[w->model.def.strategy]);
        return IMP_ERR_INVALID;
    }
    imp_engine2d *e = a->e = imp_engine2d_get(w);
    size_t n = a->n;
    if (e == NULL || imp_engine2d_reserve_slots(e, w->model.nslots) != 0 || (e->y_cap < (int)n && (free(e->y0), e->y0 = malloc(n * sizeof *e->y0)) == NULL)) {
        snprintf(a->why, a->why_size, "out of memory");
        return IMP_ERR_NOMEM;
    }
    if (e->y_cap < (int)n) {
        free(e->y_rec);
        e->y_rec = malloc(n * sizeof *e->y_rec);
        if (e->y_rec == NULL) {
            snprintf(a->why, a->why_size, "out of memory");
            return IMP_ERR_NOMEM;
        }
        e->y_cap = (int)n;
        e->rec_reusable = 0;
    }
    if (e->cs_cap < w->model.nslots) {  /* (the estimates' scratch) */
        double *p = realloc(e->cs, 2 * (size_t)w->model.nslots * sizeof *p);
        if (p == NULL) {
            snprintf(a->why, a->why_size, "out of memory");
            return IMP_ERR_NOMEM;
        }
        e->cs = p;
        e->cs_cap = w->model.nslots;
    }
    return IMP_OK;
}

/* The trial step can still be taken: within max_substeps trial steps, the time advancing. */
static imp_status check_progress(advance *a)
{
    imp_world *w = a->w;
    double t = a->t, h = a->h;
    if (++a->trials > w->model.def.integrator.max_substeps || !(t + h > t)) {
        /* collisions over and over (a huge dt, huge speeds), or a time that no longer
           advances: the step cannot end */
        name_bodies(w, &a->last_blame);
        int len = t + h > t
            ? snprintf(a->why, a->why_size, "more than %ld trial steps in one step (integrator "
                                            "option max_substeps) at t = %.17g (step %g)",
                       w->model.def.integrator.max_substeps, t, h)
            : snprintf(a->why, a->why_size, "the time no longer advances at t = %.17g (step %g)",
                       t, h);
        if (a->last_blame.p > 0 && len > 0 && (size_t)len < a->why_size) {
            snprintf(a->why + len, a->why_size - (size_t)len, "; the last back-up was for bodies "
                     "#%d and #%d", a->last_blame.q, a->last_blame.p);
        }
        return IMP_ERR_SOLVER;
    }
    return IMP_OK;
}

/* Stage "integrate": saves the state and takes a trial step of a->h from a->t. */
static imp_status integrate(advance *a)
{
    imp_world *w = a->w;
    imp_engine2d *e = a->e;
    size_t n = a->n;
    double start = imp_profile_now();
    memcpy(e->y0, w->data.y, n * sizeof *w->data.y);
    for (int i = 0; i < w->model.nslots; i++) {
        memcpy(e->prev_pose + 3 * i, w->data.y + (size_t)i * IMP_STRIDE_2D, 3 * sizeof *w->data.y);
    }
    e->has_prev = 1;
    e->freeze = 1;  /* PGS: the contacts of the step's first evaluation serve its stages */
    e->have_frozen = 0;
    e->stage_hit = 0;
    /* sleeping (engine2d_sleep.h): sleeping bodies are held */
    void (*rhs)(void *, double, const double *, double *) = imp_islands_any(w->islands) ? imp_islands_rhs : imp_world_rhs;
    if (imp_engine2d_symplectic(w)) {  /* the 2D engine's semi-implicit Euler */
        imp_engine2d_symplectic_step(w, rhs, a->t, a->h, w->data.y, n, w->scratch.work);
    } else {  /* the world's fixed-step method; RK4 for an adaptive one */
        imp_integrator_kind kind = w->model.def.integrator.kind <= IMP_RK4 ? w->model.def.integrator.kind : IMP_RK4;
        /* contact forces: a later stage that finds a penetration abandons the trial step
           there (myPhysicsLab's ContactSim), its records standing for the step's end */
        e->stage_watch = w->model.def.strategy == IMP_STRATEGY_CONTACT;
        e->stage_t0 = a->t;
        if (kind == IMP_RK4 && a->d->conventions == IMP_CONVENTIONS_MYPHYSICSLAB) {
            imp_engine2d_rk4_mpl(rhs, w, a->t, a->h, w->data.y, n, w->scratch.work);
        } else {
            imp_fixed_step(kind, rhs, w, a->t, a->h, w->data.y, n, w->scratch.work);
        }
        e->stage_watch = 0;
    }
    e->freeze = 0;
    w->data.stats.substeps++;
    imp_profile_add(a->prof, IMP_STAGE_INTEGRATE, start);
    if (e->force_error) {
        snprintf(a->why, a->why_size, "the contact forces could not be solved at t = %.17g", a->t);
        return IMP_ERR_SOLVER;
    }
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(w->data.y[i])) {
            snprintf(a->why, a->why_size, "the state became non-finite near t = %.17g", a->t);
            return IMP_ERR_NONFINITE;
        }
    }
    return IMP_OK;
}

/* Stage "detect": the records at w->data.y (use_prev: swept from the poses before the trial
   step). */
static imp_status detect(advance *a, int use_prev, const char *what)
{
    double start = imp_profile_now();
    int st = imp_engine2d_detect(a->w, a->w->data.y, use_prev);
    imp_profile_add(a->prof, IMP_STAGE_DETECT, start);
    if (st < 0) {
        snprintf(a->why, a->why_size, "%s", what);
        return IMP_ERR_NOMEM;
    }
    return IMP_OK;
}

/* Part of stage "detect": the penetrating records after a trial step (*ncol of them, the
   deepest *worst), remembered as pending; *est the estimated moment the gap is half the
   tolerance (a->h when none is earlier), *have_estimate 0 when a record gives none. */
static imp_status penetrations(advance *a, int *ncol, int *worst, double *est, int *have_estimate)
{
    imp_engine2d *e = a->e;
    double start = imp_profile_now();
    imp_status st = IMP_OK;
    *ncol = 0, *worst = -1, *est = a->h, *have_estimate = 1;
    /* an abandoned trial step: the records of the stage that found them, at its time */
    const imp_rec2d *rec = e->stage_hit ? e->stage_rec : e->rec;
    int nrec = e->stage_hit ? e->nstage_rec : e->nrec;
    double h = e->stage_hit ? e->stage_t - a->t : a->h;
    const double *y = e->stage_hit ? NULL : a->w->data.y;
    int mpl = a->d->conventions == IMP_CONVENTIONS_MYPHYSICSLAB;
    a->tiny = 0;
    a->nfar = 0;
    a->far_est = INFINITY;
    e->nkept_rec = 0;
    for (int i = 0; i < nrec; i++) {
        const imp_rec2d *r = &rec[i];
        if (!colliding(r, a->target, a->acc)) {
            continue;
        }
        if (!e->stage_hit && a->binary && r->kind == IMP_HIT_IMMINENT && r->distance >= 0.0
            && -r->velocity * a->h < a->acc) {
            /* myPhysicsLab's allowTiny: the binary search has narrowed the step below the
               accuracy's worth of approach and the record is still closer than the half gap
               (it appeared there: a corner passing a corner onto the edge beyond it), so no
               back-up reaches the half gap: the step is kept and the collision handled there */
            a->tiny = 1;
            continue;
        }
        (*ncol)++;
        if (*worst < 0 || r->distance < rec[*worst].distance) {
            *worst = i;
        }
        if (pending_add(e, r) != 0 || (mpl && keep_penetrating(a->w, r, y) != 0)) {
            snprintf(a->why, a->why_size, "out of memory");
            st = IMP_ERR_NOMEM;
            break;
        }
        double d1;
        double te = estimate(a->w, r, y, e->y0, e->cs, h, a->target, &d1);
        if (mpl && te == INFINITY) {
            continue;  /* (receding at the start: no part in the estimate) */
        }
        if (isfinite(te)) {
            *est = te < *est ? te : *est;
        } else {
            *have_estimate = 0;
        }
        if (mpl && !r->bilateral && d1 >= a->d->distance_tol) {  /* (NaN d1: not known) */
            a->nfar++;
            if (!isfinite(te)) {
                a->far_est = NAN;  /* (stays NaN: its CollisionStats' estTime) */
            } else if (te < a->far_est) {
                a->far_est = te;
            }
        }
    }
    imp_profile_add(a->prof, IMP_STAGE_DETECT, start);
    return st;
}

/* Stage "collisions": handle_close timed. */
static int collisions(advance *a, int after_backup, int *untouched)
{
    double start = imp_profile_now();
    int st = handle_close(a->w, a->t, after_backup, untouched);
    imp_profile_add(a->prof, IMP_STAGE_COLLISIONS, start);
    return st;
}

/* A trial step found penetrations: back to its start, handle the collisions close enough
   there, else choose a shorter trial step (the estimate, or half). */
static imp_status back_up(advance *a, int worst, double est, int have_estimate)
{
    imp_world *w = a->w;
    imp_engine2d *e = a->e;
    imp_rec2d blame = e->stage_hit ? e->stage_rec[worst] : e->rec[worst];
    a->last_blame = blame;
    memcpy(w->data.y, e->y0, a->n * sizeof *w->data.y);
    e->has_prev = 0;
    e->stats.backups++;
    a->stuck++;
    if (a->stuck >= a->d->max_backups) {
        name_bodies(w, &blame);
        snprintf(a->why, a->why_size,
                 "a collision between bodies #%d and #%d was not resolved after %d "
                 "back-ups at t = %.17g (distance %g, normal velocity %g)",
                 blame.q, blame.p, a->stuck, a->t, blame.distance, blame.velocity);
        return IMP_ERR_SOLVER;
    }
    imp_status s = detect(a, 0, "collision detection failed");
    if (s != IMP_OK) {
        return s;
    }
    int ndetected = e->nrec, nfound = e->nrec;
    if (a->d->conventions == IMP_CONVENTIONS_MYPHYSICSLAB && add_kept(w, e->y0, &ndetected) < 0) {
        snprintf(a->why, a->why_size, "out of memory");
        return IMP_ERR_NOMEM;
    }
    int untouched;
    int st = collisions(a, 1, &untouched);
    if (st < 0) {
        name_failed_bodies(w, &blame);
        snprintf(a->why, a->why_size, "the collision impulses could not be solved at t = %.17g", a->t);
        return IMP_ERR_SOLVER;
    }
    if (st > 0) {
        a->handled = 1;
        a->binary = 0;
        a->estimated = 0;
        if (a->nfar > 0) {
            /* myPhysicsLab's next trial step after a handling at the back-up
               (CollisionAdvance.calc_next_step with the statistics of the records it removed
               as distant before handling): to the earliest of their estimated times, else,
               one without an estimate, the binary search from half the trial step */
            if (isfinite(a->far_est)) {
                a->h = fmin(a->far_est, time_left(a));
                a->estimated = 1;
            } else {
                a->binary = 1;
                a->binary_accepts = 0;
                a->h = fmin(0.5 * a->h, time_left(a));
                e->stats.binary_searches++;
            }
            return IMP_OK;
        }
        a->h = time_left(a);
        return IMP_OK;
    }
    if (untouched) {  /* a static detection at y0, as the next step's first evaluation */
        e->nrec = ndetected;  /* (without the kept records: handle_close left the order) */
        if (ndetected == nfound) {  /* (none dropped: the detection as found) */
            records_reusable(w, a->n);
        }
    }
    if (a->stuck >= 3) {
        a->binary = 1;
    }
    a->estimated = 0;
    if (!a->binary && have_estimate && est > 1e-12 && est < a->h) {
        a->h = est;
        a->estimated = 1;
    } else {
        a->binary = 1;
        a->binary_accepts = 0;
        a->h *= 0.5;
        e->stats.binary_searches++;
    }
    return IMP_OK;
}

/* conventions = "myphysicslab": after a trial step kept without a collision to handle, its
   next trial step (CollisionAdvance.calc_next_step): the records approaching that are no
   contact (imminent: |v| >= velocity_tol, or outside (0, distance_tol)) each give the moment
   they reach the half gap, t + (target - d) / v (none when v >= -0.001: then no estimate at
   all); the next trial step ends at the earliest, within the world step, or, when that is
   past, the binary search starts from a trial step of the length just taken. O(records). */
static void next_estimate(advance *a, double taken)
{
    const imp_engine2d *e = a->e;
    double vtol = a->d->velocity_tol, dtol = a->d->distance_tol, est = INFINITY;
    int any = 0;
    for (int i = 0; i < e->nrec; i++) {
        const imp_rec2d *r = &e->rec[i];
        int contact = fabs(r->velocity) < vtol && r->distance > 0.0 && r->distance < dtol;
        if (r->bilateral || contact || !(r->velocity < 0.0)) {
            continue;
        }
        if (!(r->velocity < -0.001)) {
            return;  /* an approach without an estimate: no estimate */
        }
        double te = a->t + (a->target - r->distance) / r->velocity;
        est = te < est ? te : est;
        any = 1;
    }
    if (!any) {
        return;
    }
    if (est < a->t) {
        a->binary = 1;
        a->binary_accepts = 0;
        a->h = taken;  /* (cut to the world step's end by the advance loop) */
        return;
    }
    if (est - a->t < a->h) {
        a->h = est - a->t;
        a->estimated = 1;
    }
}

/* A trial step without penetration: keep it; at the step's end track the contacts (stage
   "contacts"); handle the collisions close enough; choose the next trial step. */
static imp_status accept(advance *a, double slack)
{
    imp_world *w = a->w;
    imp_engine2d *e = a->e;
    double taken = a->h;
    a->t += a->h;
    a->advanced += a->h;
    e->stats.steps++;
    if (a->h > 1e-7) {
        a->stuck = 0;
    }
    if (!(a->t1 - a->t > slack)) {  /* the step's last state: the pairs touching */
        double start = imp_profile_now();
        int st = imp_engine2d_track_contacts(w, a->t);
        imp_profile_add(a->prof, IMP_STAGE_CONTACTS, start);
        if (st != 0) {
            snprintf(a->why, a->why_size, "out of memory");
            return IMP_ERR_NOMEM;
        }
    }
    int untouched;
    int st = collisions(a, a->tiny, &untouched);
    if (st < 0) {
        name_failed_bodies(w, NULL);
        snprintf(a->why, a->why_size, "the collision impulses could not be solved at t = %.17g", a->t);
        return IMP_ERR_SOLVER;
    }
    if (st == 0) {  /* the records describe w->data.y: the next step's first evaluation uses them */
        records_reusable(w, a->n);
    }
    if (st > 0) {
        a->handled = 1;
        a->binary = 0;
    }
    if (a->binary && ++a->binary_accepts >= 2) {
        a->binary = 0;
    } else if (a->estimated && st == 0 && a->d->conventions == IMP_CONVENTIONS_MYPHYSICSLAB) {
        /* myPhysicsLab's "estimate failed": the estimated time came without a collision, so
           the search goes on by halving from a trial step of the same length */
        a->binary = 1;
        a->binary_accepts = 0;
    }
    a->estimated = 0;
    if (!a->binary) {
        a->h = time_left(a);
        if (st == 0 && a->d->conventions == IMP_CONVENTIONS_MYPHYSICSLAB) {
            next_estimate(a, taken);
        }
    }
    return IMP_OK;
}

/* Stage "joints": after a step without collisions, small impacts on joints: zero their
   velocity errors (myPhysicsLab's setJointSmallImpacts); contacts take part so the joints do
   not push into them. One simultaneous solve with elasticity 0 (not the serial ricochets);
   under conventions = "myphysicslab" the world's own handling, as its do_small_impacts calls
   handleCollisions: a contact approaching then is struck with its elasticity (serial: with
   its random draws). */
static imp_status joint_small_impacts(advance *a)
{
    imp_world *w = a->w;
    imp_engine2d *e = a->e;
    imp_status s = detect(a, 0, "collision detection failed");
    if (s != IMP_OK) {
        return s;
    }
    double start = imp_profile_now();
    int joints = 0, keep = 0;
    for (int i = 0; i < e->nrec; i++) {
        if (e->rec[i].connector >= 0 || e->rec[i].distance < a->d->distance_tol) {
            joints += e->rec[i].bilateral;
            e->rec[keep++] = e->rec[i];
        }
    }
    imp_collision_handling mode = a->d->conventions == IMP_CONVENTIONS_MYPHYSICSLAB
                                  ? a->d->collision_handling : IMP_HANDLING_SIMULTANEOUS;
    if (joints > 0 && mode != IMP_HANDLING_SIMULTANEOUS) {
        /* its collisions_ list, in the order its step's end sorted it (the serial focus is
           drawn over record positions) */
        if (imp_engine2d_reserve_lcp(e, 2 * keep + 2) != 0) {
            return IMP_ERR_NOMEM;
        }
        unsigned char *scratch = (unsigned char *)e->sliding;  /* (as in handle_close) */
        memset(scratch, 0, (size_t)keep);
        e->nrec = keep;
        pair_order(e, scratch);
        estimate_order(e, scratch, a->t, 0.5 * a->d->distance_tol);
    }
    int st = joints > 0 ? imp_engine2d_handle(w, w->data.y, e->rec, keep, NULL, mode) : 0;
    imp_profile_add(a->prof, IMP_STAGE_JOINTS, start);
    if (st < 0) {
        snprintf(a->why, a->why_size, "the joint impulses could not be solved at t = %.17g", a->t);
        return IMP_ERR_SOLVER;
    }
    return IMP_OK;
}

int imp_engine2d_handle_now(imp_world *w)
{
    imp_engine2d *e = imp_engine2d_get(w);
    const imp_engine2d_def *d = &w->model.def.engine2d;
    if (e == NULL || imp_engine2d_reserve_slots(e, w->model.nslots) != 0
        || imp_engine2d_detect(w, w->data.y, 0) < 0
        || (d->collision_handling != IMP_HANDLING_SIMULTANEOUS
            && imp_engine2d_add_separating(w, w->data.y) < 0)
        || imp_engine2d_reserve_lcp(e, 2 * e->nrec + 2) != 0) {
        return -1;
    }
    unsigned char *elastic = (unsigned char *)e->sliding;  /* (as in handle_close) */
    int keep = 0;
    for (int i = 0; i < e->nrec; i++) {
        const imp_rec2d *r = &e->rec[i];
        if (r->connector >= 0 || r->distance < d->distance_tol) {
            elastic[keep] = (unsigned char)(!r->bilateral && r->kind == IMP_HIT_IMMINENT);
            e->rec[keep++] = *r;
        }
    }
    e->nrec = keep;
    if (d->conventions == IMP_CONVENTIONS_MYPHYSICSLAB) {
        pair_order(e, elastic);  /* its findCollisions' order: the focus is drawn over it */
    }
    w->data.state_version++;
    return imp_engine2d_handle(w, w->data.y, e->rec, keep, elastic, d->collision_handling);
}

imp_status imp_engine2d_advance(imp_world *w, double t1, char *why, size_t why_size)
{
    if (w->model.def.dim == 2 && w->model.def.integrator.kind > IMP_RK4) {
        /* (before, the step took RK4 in its place without a word) */
        snprintf(why, why_size, "the 2D impulse and contact strategies step with a fixed-step "
                 "method (euler, modified_euler or rk4: the collision advance backs a step up to "
                 "a collision's time), not %s: set w.integrator = \"rk4\"",
                 imp_integrator_names[w->model.def.integrator.kind]);
        return IMP_ERR_INVALID;
    }
    if (w->model.def.dim == 2 && imp_engine2d_soft(w)) {  /* contact_solver = "soft" */
        return imp_engine2d_soft_advance(w, t1, why, why_size);
    }
    advance a = {.w = w, .d = &w->model.def.engine2d, .prof = &w->data.profile,
                 .n = (size_t)w->model.nslots * IMP_STRIDE_2D, .t = w->data.time, .t1 = t1,
                 .why = why, .why_size = why_size};
    imp_status st = prepare(&a);
    if (st != IMP_OK) {
        return st;
    }
    imp_engine2d *e = a.e;
    a.target = 0.5 * a.d->distance_tol;
    a.acc = a.d->collision_accuracy * a.target;
    a.h = t1 - a.t;
    a.total = a.h;
    if (a.d->conventions == IMP_CONVENTIONS_MYPHYSICSLAB
        && fabs(a.h - w->model.def.dt) <= 1e-12 * fmax(1.0, fabs(t1))) {
        a.total = a.h = w->model.def.dt;  /* its advance(timeStep) */
    }
    /* the end is reached within slack, which is less than the step (else a tiny dt would
       not move the bodies at all) */
    double slack = fmin(1e-12 * fmax(1.0, fabs(t1)), 0.5 * a.h);
    a.last_blame.p = a.last_blame.q = 0;
    e->npending = 0;
    e->force_error = 0;
    if (imp_e2_sleep_begin(w) != IMP_OK) {  /* sleeping: the edited islands wake */
        snprintf(why, why_size, "out of memory");
        return IMP_ERR_NOMEM;
    }
    if (e->joints_new && a.d->joint_small_impacts) {
        /* joints added since the last step whose bodies move apart at them start held: one
           plastic impulse (myPhysicsLab's handleCollisions after building a scene; not under
           its conventions, where its tests call it themselves, w:handle_collisions(), and its
           random draws are theirs) */
        e->joints_new = 0;
        if (a.d->conventions != IMP_CONVENTIONS_MYPHYSICSLAB
            && (st = joint_small_impacts(&a)) != IMP_OK) {
            return st;
        }
    }
    int mpl = a.d->conventions == IMP_CONVENTIONS_MYPHYSICSLAB;
    while (mpl ? a.total - a.advanced > 1e-16 : t1 - a.t > slack) {  /* (its 1e-16) */
        if (a.h > time_left(&a) || !(a.h > 0.0)) {
            a.h = time_left(&a);
        }
        if ((st = check_progress(&a)) != IMP_OK || (st = integrate(&a)) != IMP_OK
            || (st = detect(&a, 1, "collision detection failed (out of memory or bad shapes)"))
                   != IMP_OK) {
            return st;
        }
        if (imp_e2_sleep_detected(w, e)) {  /* sleeping: an island woke, the trial step again */
            memcpy(w->data.y, e->y0, a.n * sizeof *w->data.y);
            e->has_prev = 0;
            continue;
        }
        int ncol, worst, have_estimate;
        double est;
        if ((st = penetrations(&a, &ncol, &worst, &est, &have_estimate)) != IMP_OK) {
            return st;
        }
        st = ncol > 0 ? back_up(&a, worst, est, have_estimate) : accept(&a, slack);
        if (st != IMP_OK) {
            return st;
        }
    }
    if (!a.handled && a.d->joint_small_impacts && (st = joint_small_impacts(&a)) != IMP_OK) {
        return st;
    }
    imp_e2_sleep_end(w, e, t1 - w->data.time);  /* sleeping: the islands at rest fall asleep */
    return IMP_OK;
}
