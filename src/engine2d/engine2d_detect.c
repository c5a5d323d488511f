/* engine2d_detect.c: the 2D engine's state and its detection: the world's 2D bodies as an
   array for imp_collide2d_batch, and the results turned into records with their Jacobian rows
   (see engine2d.h). */
#include <stdlib.h>
#include <string.h>

#include "collide2d_batch.h"
#include "engine2d.h"
#include "engine2d_edge_range.h"
#include "engine2d_move.h"
#include "engine2d_path_joint.h"
#include "engine2d_soft.h"
#include "filter.h"
#include "islands.h"
#include "lcp_baraff_order.h"
#include "world_internal.h"
#include "resize.h"

const char *const imp_collision_handling_names[] = {"simultaneous", "serial", "hybrid", NULL};
const char *const imp_extra_accel_names[] = {"none", "velocity", "velocity_and_distance",
                                             "velocity_joints", "velocity_and_distance_joints",
                                             NULL};
const char *const imp_conventions_names[] = {"impact", "myphysicslab", NULL};

imp_engine2d_def imp_engine2d_default_def(void)
{
    imp_engine2d_def d;
    memset(&d, 0, sizeof d);
    d.collision_handling = IMP_HANDLING_HYBRID;
    d.distance_tol = 0.01;
    d.velocity_tol = 0.5;
    d.collision_accuracy = 0.6;
    d.extra_accel = IMP_EXTRA_VELOCITY_AND_DISTANCE_JOINTS;
    d.extra_accel_dt = 0.0;
    d.max_backups = 30;
    d.joint_small_impacts = 0;
    d.contact_solver = IMP_SOLVER_LCP;
    d.pgs_iterations = 50;
    d.substeps = 1;
    d.soft.hertz = 35.0;  /* the 2D soft step: stiffer than Box2D v3's 30 (its 1275-box pyramid
                             sinks less; 40 would settle slower, detecting more), well within
                             the sub-step rate (the 3D one: 30, world.c) */
    d.soft.damping_ratio = 10.0;
    d.soft.push_max = 3.0;
    d.soft.joint_hertz = 60.0;
    d.soft.joint_damping_ratio = 2.0;
    d.soft.restitution_threshold = 1.0;
    d.soft.relax_iterations = 1;
    d.soft.iterations = 1;
    d.soft.precision = IMP_SOFT_FLOAT;  /* the contact passes in float, as Box2D v3's (2D only:
                                           world.c sets double for 3D) */
    return d;
}

imp_engine2d *imp_engine2d_get(imp_world *w)
{
    if (w->engine2d == NULL) {
        w->engine2d = calloc(1, sizeof *w->engine2d);
    }
    return w->engine2d;
}

void imp_engine2d_free(imp_engine2d *e)
{
    if (e == NULL) {
        return;
    }
    free(e->conn);
    imp_pairset_free(&e->exclude);
    free(e->b2);
    free(e->b2_xf);
    free(e->still);
    free(e->boxes);
    free(e->group);
    free(e->prev_pose);
    imp_bp2d_free(&e->bp);
    free(e->hits);
    free(e->rec);
    imp_lcp_workspace_destroy(e->ws);
    free(e->A);
    free(e->Asub);
    free(e->b);
    free(e->f);
    free(e->a);
    free(e->vel);
    free(e->jsum);
    free(e->fwarm);
    free(e->e);
    free(e->bil);
    free(e->fric_normal);
    free(e->perm);
    if (e->baraff != NULL) {
        imp_baraff_free(e->baraff);
        free(e->baraff);
    }
    free(e->rows);
    free(e->mu);
    free(e->sliding);
    free(e->state_in);
    free(e->state_out);
    free(e->y0);
    free(e->pairs);
    free(e->ranges);
    imp_engine2d_free_paths(e);
    free(e->frozen);
    free(e->stage_rec);
    free(e->kept_rec);
    free(e->cs);
    free(e->touch);
    free(e->touch_new);
    free(e->touch_tmp);
    free(e->touch_cnt);
    free(e->adj_start);
    free(e->adj_list);
    free(e->y_rec);
    free(e->pgs_acc);
    free(e->pgs_rows);
    free(e->warm_key);
    free(e->warm_f);
    free(e->warm_hash);
    free(e->fwarm_key);
    free(e->fwarm_f);
    free(e->fwarm_hash);
    imp_engine2d_coulomb_free(e->coulomb);
    imp_engine2d_soft_free(e->soft);
    free(e->pending);
    free(e);
}

static int grow(void **p, size_t elem, int n)
{
    return imp_resize(p, elem * (size_t)(n > 0 ? n : 1));
}

int imp_engine2d_reserve_matrix(imp_engine2d *e, int n)
{
    if (n <= e->mat_cap) {
        return 0;
    }
    int cap = n > 2 * e->mat_cap ? n : 2 * e->mat_cap;
    size_t nn = (size_t)cap * (size_t)cap;
    free(e->A);
    free(e->Asub);
    e->A = malloc(nn * sizeof *e->A);
    e->Asub = malloc(nn * sizeof *e->Asub);
    if (e->A == NULL || e->Asub == NULL) {
        e->mat_cap = 0;
        return -1;
    }
    if (e->ws == NULL) {
        e->ws = imp_lcp_workspace_create(cap);
        if (e->ws == NULL) {
            return -1;
        }
    } else if (imp_lcp_workspace_reserve(e->ws, cap) != 0) {
        return -1;
    }
    e->mat_cap = cap;
    return 0;
}

int imp_engine2d_reserve_lcp(imp_engine2d *e, int n)
{
    if (n <= e->lcp_cap) {
        return 0;
    }
    int cap = n > 2 * e->lcp_cap ? n : 2 * e->lcp_cap;
    if (grow((void **)&e->b, sizeof *e->b, cap) || grow((void **)&e->f, sizeof *e->f, cap)
        || grow((void **)&e->a, sizeof *e->a, cap) || grow((void **)&e->vel, sizeof *e->vel, cap)
        || grow((void **)&e->jsum, sizeof *e->jsum, cap)
        || grow((void **)&e->fwarm, sizeof *e->fwarm, cap) || grow((void **)&e->e, sizeof *e->e, cap)
        || grow((void **)&e->bil, sizeof *e->bil, cap)
        || grow((void **)&e->fric_normal, sizeof *e->fric_normal, cap)
        || grow((void **)&e->perm, sizeof *e->perm, cap)
        || grow((void **)&e->rows, sizeof *e->rows, cap) || grow((void **)&e->mu, sizeof *e->mu, cap)
        || grow((void **)&e->sliding, sizeof *e->sliding, cap)
        || grow((void **)&e->state_in, sizeof *e->state_in, 2 * cap)
        || grow((void **)&e->state_out, sizeof *e->state_out, 2 * cap)) {
        return -1;
    }
    e->lcp_cap = cap;
    return 0;
}

int imp_engine2d_reserve_slots(imp_engine2d *e, int n)
{
    if (n <= e->slot_cap) {
        return 0;
    }
    int cap = n > 2 * e->slot_cap ? n : 2 * e->slot_cap;
    if (grow((void **)&e->b2, sizeof *e->b2, cap) || grow((void **)&e->b2_xf, sizeof *e->b2_xf, cap)
        || grow((void **)&e->still, 1, cap)
        || grow((void **)&e->boxes, 4 * sizeof *e->boxes, cap)
        || grow((void **)&e->group, 2 * sizeof *e->group, cap)) {
        return -1;
    }
    double *pp = realloc(e->prev_pose, 3 * (size_t)cap * sizeof *pp);
    if (pp == NULL) {
        return -1;
    }
    e->prev_pose = pp;
    e->slot_cap = cap;
    return 0;
}

int imp_engine2d_reserve_records(imp_engine2d *e, int n)
{
    if (n <= e->rec_cap) {
        return 0;
    }
    int cap = n > 2 * e->rec_cap ? n : 2 * e->rec_cap;
    if (grow((void **)&e->rec, sizeof *e->rec, cap)) {
        return -1;
    }
    e->rec_cap = cap;
    return 0;
}

void imp_engine2d_record_jacobian(const double *y, imp_rec2d *r)
{
    const double *yp = y + (size_t)r->p * IMP_STRIDE_2D;
    const double *yq = y + (size_t)r->q * IMP_STRIDE_2D;
    const double pt[2] = {r->point[0], r->point[1]}, n[2] = {r->normal[0], r->normal[1]};
    imp_e2_jacobian_at(yp, yq, pt, n, r);
}

/* the elasticity and friction of r (the bodies' smaller, or the pair's), its impulses 0 */
static void record_coefficients(const imp_world *w, imp_rec2d *r)
{
    const imp_body *bp = &w->model.bodies[r->p], *bq = &w->model.bodies[r->q];
    double ep = r->p == 0 ? 1.0 : bp->elasticity, eq = r->q == 0 ? 1.0 : bq->elasticity;
    r->elasticity = ep < eq ? ep : eq;
    double fp = r->p == 0 ? 1e300 : bp->friction, fq = r->q == 0 ? 1e300 : bq->friction;
    r->friction = fp < fq ? fp : fq;
    if (r->friction > 1e299) {
        r->friction = 0.0;
    }
    const imp_pair2d *pair = imp_engine2d_pair(w, r->p, r->q);
    if (pair != NULL) {
        if (pair->friction >= 0.0) {
            r->friction = pair->friction;
        }
        if (pair->elasticity >= 0.0) {
            r->elasticity = pair->elasticity;
        }
    }
    r->impulse = 0.0;
    r->force = 0.0;
    r->friction_force = 0.0;
}

void imp_engine2d_finish_record(const imp_world *w, const double *y, imp_rec2d *r)
{
    imp_engine2d_record_jacobian(y, r);
    record_coefficients(w, r);
}

static unsigned long long mix64(unsigned long long h)
{
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;  /* splitmix64's finalizer */
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
    return h ^ (h >> 31);
}

unsigned long long imp_engine2d_key(int a, int b, int c, int d, int e, int f)
{
    /* the six fields packed in two words (16 bits each for the four feature numbers, which
       stay far below 2^16 in practice), then mixed: distinct feature pairs, distinct keys */
    unsigned long long w1 = (unsigned long long)(unsigned)a << 32 | (unsigned)b;
    unsigned long long w2 = (unsigned long long)((unsigned)c & 0xffffu) << 48
                            | (unsigned long long)((unsigned)d & 0xffffu) << 32
                            | (unsigned long long)((unsigned)e & 0xffffu) << 16
                            | ((unsigned)f & 0xffffu);
    return mix64(w1 ^ mix64(w2 + 0x9e3779b97f4a7c15ULL));
}

static void to_local(const double *ys, const double *pw, double *pl)
{
    double c = cos(ys[2]), sn = sin(ys[2]), dx = pw[0] - ys[0], dy = pw[1] - ys[1];
    pl[0] = c * dx + sn * dy;
    pl[1] = -sn * dx + c * dy;
}

void imp_engine2d_localize(const imp_world *w, const double *y, imp_rec2d *r)
{
    (void)w;
    const double *yp = y + (size_t)r->p * IMP_STRIDE_2D, *yq = y + (size_t)r->q * IMP_STRIDE_2D;
    to_local(yp, r->u1, r->lu1);
    to_local(yq, r->u2, r->lu2);
    to_local(yq, r->point, r->lpoint);
    double c = cos(yq[2]), sn = sin(yq[2]);
    r->lnormal[0] = c * r->normal[0] + sn * r->normal[1];
    r->lnormal[1] = -sn * r->normal[0] + c * r->normal[1];
}

void imp_engine2d_move_record(const double *y, const double *cs, imp_rec2d *r)
{
    imp_e2_move_record(y, cs, r);
}

void imp_engine2d_relocate(const imp_world *w, const double *y, const double *cs, imp_rec2d *r)
{
    imp_engine2d_move_record(y, cs, r);
    record_coefficients(w, r);
}

/* conventions = "myphysicslab": corners closer than this make no vertex/vertex record (its
   normal direction would be round-off) */
#define MPL_VERTEX_VERTEX_MIN 1e-6

/* Record from a detection result; 0 when the result makes no record: a static penetration
   (a vertex found inside, not crossing an edge during the step) whose bodies move apart
   faster than velocity_tol. Backing up cannot undo it (the pair already overlapped at the
   start of the step: a vertex that entered during the step is a swept result), and it is
   no contact: as myPhysicsLab's overview puts it, points whose relative normal velocity
   exceeds the velocity tolerance are "either separating or colliding", and a separating one
   is neither a collision nor a contact (a separating pair within distance_tol gives no
   result either). It is left to separate under its own velocity. Not under the soft step
   (imp_engine2d_soft: contact_solver = "soft"): its resting contacts overlap by design (a
   row settles where its soft bias carries the load, and pushes an overlap out at up to
   push_max), so a pair inside and moving apart is a soft contact at work; dropped, the
   stack under it falls in (a 105-box pyramid with velocity_tol = 0.01 moved boxes by 6.6 m
   in 4 s). Its row gives no impulse while the pair separates faster than the soft bias
   asks, so a pair flying apart still flies freely. */
static int record_from_hit(const imp_world *w, const double *y, const imp_hit2d *h,
                           double target, imp_rec2d *r)
{
    if (h->kind == IMP_HIT_COLLISION && !h->swept && h->distance < 0.0
        && h->normal_velocity > w->model.def.engine2d.velocity_tol
        && !imp_engine2d_soft(w)) {  /* (the lookup last) */
        return 0;
    }
    if (h->type == IMP_HIT_VERTEX_VERTEX
        && w->model.def.engine2d.conventions == IMP_CONVENTIONS_MYPHYSICSLAB
        && !(fabs(h->normal_velocity) < w->model.def.engine2d.velocity_tol
             && h->distance >= MPL_VERTEX_VERTEX_MIN)) {
        /* myPhysicsLab's corner on corner (its checkVertexVertex): a contact only (slower
           than velocity_tol, at least 1e-6 apart); two corners meeting faster are left to
           the corner-on-edge records found when one crosses the other's edge */
        return 0;
    }
    memset(r, 0, sizeof *r);
    r->p = h->body;
    r->q = h->normal_body;
    r->kind = h->kind;
    r->connector = -1;
    r->normal[0] = h->normal[0];
    r->normal[1] = h->normal[1];
    r->point[0] = h->point[0];
    r->point[1] = h->point[1];
    r->distance = h->distance;
    r->target = target;
    r->swept = h->swept;
    r->corners = h->type == IMP_HIT_VERTEX_VERTEX && h->cone_margin > IMP_COLLIDE2D_CONE_SLACK;
    r->vertex = h->type == IMP_HIT_VERTEX_EDGE && h->curvature == 0.0;
    r->feature[0] = h->vertex >= 0 ? h->vertex : h->edge;
    r->feature[1] = h->normal_edge >= 0 ? h->normal_edge : h->normal_vertex;
    const imp_engine2d_def *d = &w->model.def.engine2d;
    double depth = -h->distance, speed = fabs(h->normal_velocity);
    if (h->kind == IMP_HIT_COLLISION && h->distance <= 0.0
        && h->distance > -IMP_ENGINE2D_TINY * 2.0 * target
        && !(h->distance < 0.0 && d->conventions == IMP_CONVENTIONS_MYPHYSICSLAB)) {
        /* round-off of touching bodies: a contact (or an imminent collision) at distance 0
           (not under conventions = "myphysicslab": any overlap is a collision there, its
           illegalState, which abandons the trial step at that stage) */
        r->distance = 0.0;
        r->kind = h->normal_velocity < -d->velocity_tol ? IMP_HIT_IMMINENT : IMP_HIT_CONTACT;
    } else if (h->kind == IMP_HIT_COLLISION && d->contact_solver == IMP_SOLVER_PGS
               && depth < 2.0 * target && speed <= d->velocity_tol
               && imp_world_strategy_has(w, IMP_STRATEGY_CONTACT_FORCES)) {  /* (the lookup last) */
        /* PGS leaves residuals: a slow shallow penetration (less than distance_tol) stays a
           contact, pushed back to the half gap by the extra acceleration's distance term */
        r->kind = IMP_HIT_CONTACT;
    } else if (h->kind == IMP_HIT_COLLISION && !h->swept
               && depth < d->collision_accuracy * target
               && h->normal_velocity <= d->velocity_tol
               && -h->normal_velocity * w->model.def.dt < depth
               && imp_world_strategy_has(w, IMP_STRATEGY_CONTACT_FORCES)) {
        /* A resting overlap, not a collision: a static penetration (the vertex was inside at
           the start of the step; one entering during it is a swept result) that moves apart
           slowly, or approaches too slowly for its depth to be reached within a step
           (|v| dt < depth: it was not made by this step's motion, but by the drift of a
           resting contact, round-off that the solver's tolerance lets accumulate), and is
           shallower than the accuracy band of the collision advance (collision_accuracy *
           distance_tol / 2: the advance places a collision no closer than that to its
           target, so backing up cannot undo a smaller overlap; 30 back-ups would end in an
           error). It is a contact: its force keeps it from deepening, the distance term of
           the extra acceleration (when on) brings it back to the half gap. Deeper overlaps
           stay collisions (an error names the bodies when backing up cannot resolve them). */
        r->kind = IMP_HIT_CONTACT;
    }
    /* centres of curvature (Curved Edge Physics): the primary's arc centre is at its feature
       point + r_p n, the normal body's at its point - r_q n (signed radii, concave < 0) */
    r->u1[0] = h->point_primary[0];
    r->u1[1] = h->point_primary[1];
    if (h->curvature != 0.0) {
        r->u1[0] += h->normal[0] / h->curvature;
        r->u1[1] += h->normal[1] / h->curvature;
    }
    r->u2[0] = h->point[0];
    r->u2[1] = h->point[1];
    if (h->normal_curvature != 0.0) {
        r->curved = 1;
        r->u2[0] -= h->normal[0] / h->normal_curvature;
        r->u2[1] -= h->normal[1] / h->normal_curvature;
    }
    imp_engine2d_finish_record(w, y, r);
    r->velocity = h->normal_velocity;
    r->key = imp_engine2d_key(h->body, h->normal_body, h->vertex, h->edge, h->normal_edge,
                              h->normal_vertex * 4 + h->type);
    return 1;
}

/* the world's collision filter (filter.h) over two slots */
static int keep_pair(const void *ctx, int a, int b) { return imp_filter_pair(ctx, a, b); }

/* The detection's bodies at y into e->b2 and e->still (their number, or -1), the excluded
   pairs (connectors) brought up to date. */
static int gather_bodies(imp_world *w, const double *y, int use_prev)
{
    imp_engine2d *e = w->engine2d;
    if (imp_engine2d_reserve_slots(e, w->model.nslots) != 0) {
        return -1;
    }
    if (e->exclude_dirty || e->exclude_bodies_version != w->model.bodies_version) {
        /* rebuilt when connectors or bodies change (a freed slot may be reused) */
        e->exclude_bodies_version = w->model.bodies_version;
        imp_pairset_clear(&e->exclude);
        for (int i = 0; i < e->nconn; i++) {
            const imp_connector2d *c = &e->conn[i];
            if (imp_engine2d_connector_alive(w, c) && c->body2 != 0
                && imp_pairset_add(&e->exclude, c->body1, c->body2) < 0) {
                return -1;
            }
        }
        e->exclude_dirty = 0;
    }
    int nb = 0;
    for (int i = 1; i < w->model.nslots; i++) {
        const imp_body *b = &w->model.bodies[i];
        if (!b->active || !b->collide || b->shape == NULL) {
            continue;
        }
        const double *yi = y + (size_t)i * IMP_STRIDE_2D;
        imp_body2d *d = &e->b2[nb];
        d->shape = b->shape;
        d->id = i;
        memcpy(d->pose, yi, 3 * sizeof *yi);
        memcpy(d->velocity, yi + 3, 3 * sizeof *yi);
        d->has_prev = use_prev && e->has_prev;
        if (d->has_prev) {
            memcpy(d->prev_pose, e->prev_pose + 3 * i, 3 * sizeof *yi);
        }
        e->still[nb] = (unsigned char)(b->fixed != 0 || imp_islands_asleep_in(w->islands, i));  /* (sleeping) */
        nb++;
    }
    return nb;
}

/* The narrow phase's hits at y into e->hits (their number, or -1), the touching pairs moving
   apart included when keep_separating. */
static int gather_hits(imp_world *w, const double *y, int use_prev, int keep_separating)
{
    imp_engine2d *e = w->engine2d;
    int nb = gather_bodies(w, y, use_prev);
    if (nb < 0) {
        return -1;
    }
    imp_detect2d_params par = {w->model.def.engine2d.distance_tol, w->model.def.engine2d.velocity_tol,
                               keep_separating,
                               w->model.def.engine2d.conventions == IMP_CONVENTIONS_MYPHYSICSLAB};
    /* the soft step: convex boxes and polygons by clipping (collide2d_clip.h), static tests */
    int clip = w->model.def.engine2d.contact_solver == IMP_SOLVER_SOFT && !use_prev && !keep_separating
                   ? imp_engine2d_soft_clip(w)
                   : 0;
    int m;
    for (;;) {
        m = imp_collide2d_batch_keep(e->b2, nb, e->still, &e->bp, &e->exclude, keep_pair, w,
                                     &par, e->boxes, e->b2_xf, clip, e->hits, e->hit_cap);
        if (m < 0) {
            return -1;
        }
        if (m <= e->hit_cap) {
            break;
        }
        if (grow((void **)&e->hits, sizeof *e->hits, m)) {
            return -1;
        }
        e->hit_cap = m;
    }
    m = imp_engine2d_drop_range_hits(w, e->hits, m);  /* (none: no cost) */
    if (w->model.def.engine2d.conventions == IMP_CONVENTIONS_MYPHYSICSLAB) {
        m = imp_engine2d_similar_mpl(w, e->hits, m);
    }
    return m;
}

int imp_engine2d_detect(imp_world *w, const double *y, int use_prev)
{
    imp_engine2d *e = w->engine2d;
    e->rec_reusable = 0;
    imp_engine2d_soft_sync(w, 1);  /* (the records replaced below) */
    int m = gather_hits(w, y, use_prev, 0);
    if (m < 0 || imp_engine2d_reserve_records(e, m) != 0) {
        return -1;
    }
    double target = 0.5 * w->model.def.engine2d.distance_tol;
    int nr = 0;
    for (int k = 0; k < m; k++) {
        nr += record_from_hit(w, y, &e->hits[k], target, &e->rec[nr]);
    }
    e->nrec = nr;
    if (imp_engine2d_connector_records(w, y) != 0) {
        return -1;
    }
    return e->nrec;
}

/* The run of old records of the pair of slots a and b (its length; its first in *first), 0
   when there is none: old_start / old_list list the runs (first, length) by their smaller
   slot. */
static int old_run(const imp_rec2d *old, const int *old_start, const int *old_list, int a, int b,
                   int *first)
{
    int lo = a < b ? a : b, hi = a < b ? b : a;
    for (int x = old_start[lo]; x < old_start[lo + 1]; x++) {
        const imp_rec2d *r = &old[old_list[2 * x]];
        if (r->p == hi || r->q == hi) {
            *first = old_list[2 * x];
            return old_list[2 * x + 1];
        }
    }
    return 0;
}

int imp_engine2d_detect_moved(imp_world *w, const double *y, const unsigned char *moved,
                              const imp_rec2d *old, const int *old_start, const int *old_list)
{
    imp_engine2d *e = w->engine2d;
    e->rec_reusable = 0;
    int nb = gather_bodies(w, y, 0);
    if (nb < 0) {
        return -1;
    }
    const imp_engine2d_def *d = &w->model.def.engine2d;
    imp_detect2d_params par = {d->distance_tol, d->velocity_tol, 0, 0};
    int np = imp_collide2d_batch_boxes(e->b2, nb, &e->bp, &par, e->boxes, e->b2_xf);
    if (np < 0) {
        return -1;
    }
    double target = 0.5 * d->distance_tol;
    int nr = 0, clip = imp_engine2d_soft_clip(w);
    for (int k = 0; k < np; k++) {
        int i = e->bp.pairs[2 * k], j = e->bp.pairs[2 * k + 1];
        if (imp_collide2d_batch_skip(e->b2, i, j, e->still, &e->exclude, keep_pair, w)) {
            continue;
        }
        int a = e->b2[i].id, b = e->b2[j].id;
        if (!moved[a] && !moved[b]) {  /* the old records, moved with their bodies */
            int first = 0, m = old_run(old, old_start, old_list, a, b, &first);
            if (m > 0) {
                if (imp_engine2d_reserve_records(e, nr + m) != 0) {
                    return -1;
                }
                for (int x = 0; x < m; x++) {  /* (a run is short: no memcpy call) */
                    e->rec[nr++] = old[first + x];
                }
            }
            continue;
        }
        int m = imp_collide2d_batch_pair(e->b2, e->b2_xf, clip, &par, i, j, e->hits, e->hit_cap);
        if (m > e->hit_cap) {
            if (grow((void **)&e->hits, sizeof *e->hits, m)) {
                return -1;
            }
            e->hit_cap = m;
            m = imp_collide2d_batch_pair(e->b2, e->b2_xf, clip, &par, i, j, e->hits, e->hit_cap);
        }
        m = imp_engine2d_drop_range_hits(w, e->hits, m);
        if (m < 0 || imp_engine2d_reserve_records(e, nr + m) != 0) {
            return -1;
        }
        for (int h = 0; h < m; h++) {
            nr += record_from_hit(w, y, &e->hits[h], target, &e->rec[nr]);
        }
    }
    e->nrec = nr;
    if (imp_engine2d_connector_records(w, y) != 0) {
        return -1;
    }
    return e->nrec;
}

int imp_engine2d_add_separating(imp_world *w, const double *y)
{
    imp_engine2d *e = w->engine2d;
    e->rec_reusable = 0;
    int m = gather_hits(w, y, 0, 1);
    if (m < 0 || imp_engine2d_reserve_records(e, e->nrec + m) != 0) {
        return -1;
    }
    double target = 0.5 * w->model.def.engine2d.distance_tol;
    for (int k = 0; k < m; k++) {
        if (e->hits[k].kind == IMP_HIT_SEPARATING) {
            e->nrec += record_from_hit(w, y, &e->hits[k], target, &e->rec[e->nrec]);
        }
    }
    return e->nrec;
}

int imp_engine2d_build_A(imp_world *w, const imp_rec2d *rec, int n, double *A)
{
    /* A_ik = sum over the bodies B shared by records i and k of J_iB M_B^-1 J_kB^T
       (Baraff 94; myPhysicsLab's sign rule is the sign of the Jacobian rows). Rows are
       listed per movable body, so only rows sharing a body are visited. */
    imp_engine2d *e = w->engine2d;
    if (e->adj_slots < w->model.nslots + 1) {
        int *p = realloc(e->adj_start, ((size_t)w->model.nslots + 1) * sizeof *p);
        if (p == NULL) {
            return -1;
        }
        e->adj_start = p;
        e->adj_slots = w->model.nslots + 1;
    }
    if (e->adj_rows < 2 * n) {
        int *p = realloc(e->adj_list, 2 * (size_t)n * sizeof *p);
        if (p == NULL) {
            return -1;
        }
        e->adj_list = p;
        e->adj_rows = 2 * n;
    }
    int *start = e->adj_start, *list = e->adj_list;
    memset(start, 0, ((size_t)w->model.nslots + 1) * sizeof *start);
    for (int i = 0; i < n; i++) {
        const int s[2] = {rec[i].p, rec[i].q};
        for (int u = 0; u < 2; u++) {
            if (s[u] != 0 && !w->model.bodies[s[u]].fixed && (u == 0 || s[1] != s[0])) {
                start[s[u] + 1]++;
            }
        }
    }
    for (int b = 0; b < w->model.nslots; b++) {
        start[b + 1] += start[b];
    }
    for (int i = 0; i < n; i++) {  /* fill (start[b] advances; restored below) */
        const int s[2] = {rec[i].p, rec[i].q};
        for (int u = 0; u < 2; u++) {
            if (s[u] != 0 && !w->model.bodies[s[u]].fixed && (u == 0 || s[1] != s[0])) {
                list[start[s[u]]++] = 2 * i + u;  /* row and which side */
            }
        }
    }
    for (int b = w->model.nslots; b > 0; b--) {
        start[b] = start[b - 1];
    }
    start[0] = 0;
    memset(A, 0, (size_t)n * (size_t)n * sizeof *A);
    for (int b = 1; b < w->model.nslots; b++) {
        const imp_body *bd = &w->model.bodies[b];
        double im = bd->inv_mass, ii = bd->inv_inertia.m[2][2];
        for (int x = start[b]; x < start[b + 1]; x++) {
            int i = list[x] >> 1;
            const double *ji = (list[x] & 1) ? rec[i].jq : rec[i].jp;
            for (int z = x; z < start[b + 1]; z++) {
                int k = list[z] >> 1;
                const double *jk = (list[z] & 1) ? rec[k].jq : rec[k].jp;
                double v = im * (ji[0] * jk[0] + ji[1] * jk[1]) + ii * ji[2] * jk[2];
                A[(size_t)i * (size_t)n + (size_t)k] += v;
                if (k != i) {
                    A[(size_t)k * (size_t)n + (size_t)i] += v;
                }
            }
        }
    }
    return 0;
}
