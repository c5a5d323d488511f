/* engine3d_soft.c: the soft step of the 3D engine (engine3d_soft.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine3d.h"
#include "engine3d_joints.h"
#include "engine3d_sleep.h"
#include "engine3d_soft.h"
#include "engine3d_soft_internal.h"
#include "resize.h"
#include "engine3d_soft_recycle.h"
#include "engine3d_sweep.h"
#include "forces.h"
#include "islands.h"
#include "quat.h"
#include "world_internal.h"


#define PI 3.14159265358979323846

imp_e3_softness imp_e3_make_soft(double hertz, double zeta, double h)
{
    imp_e3_softness s = {0.0, 1.0, 0.0};
    if (!(hertz > 0.0)) {
        return s;
    }
    double omega = 2.0 * PI * hertz, a1 = 2.0 * zeta + h * omega, a2 = h * omega * a1, a3 = 1.0 / (1.0 + a2);
    s.bias_rate = omega / a1;
    s.mass_scale = a2 * a3;
    s.impulse_scale = a3;
    return s;
}

imp_e3_recycle *imp_e3_soft_recycle(imp_engine3d *e) { return e->soft != NULL ? &e->soft->rc : NULL; }

void imp_e3_soft_free(struct imp_e3_soft *s)
{
    if (s == NULL) {
        return;
    }
    free(s->pts);
    free(s->pose0);
    free(s->delta);
    free(s->force);
    free(s->sv);
    free(s->si);
    free(s->mv);
    free(s->dq);
    free(s->rs);
    free(s->still);
    free(s->took);
    free(s->srcs);
    free(s->late);
    free(s->gs);
    free(s->ke);
    free(s->uf);
    imp_e3_recycle_free(&s->rc);
    imp_e3_soft_blocks_free(s);
    free(s);
}

/* the restitution pass's record of a point (s->rs): its step's impulses and frame velocities
   (n, t1, t2) before the pass, its group (the root slot) and its approach u_N(hit) */
enum { RS_STRIDE = 8 };

static int reserve(imp_engine3d *e, int npts, int nslots)
{
    struct imp_e3_soft *s = e->soft;
    if (s == NULL) {
        s = calloc(1, sizeof *s);
        if (s == NULL) {
            return -1;
        }
        e->soft = s;
    }
    if (npts > s->cap) {
        size_t cap = (size_t)(npts + npts / 2 + 16);
        /* the rows aligned to a cache line, five lines each (imp_e3_soft_pt); rewritten
           whole by every step's prepare, so not copied */
        free(s->pts);
        s->pts = aligned_alloc(64, cap * sizeof *s->pts);
        if (s->pts == NULL) {
            s->cap = 0;
            return -1;
        }
        if (imp_resize(&s->rs, cap * RS_STRIDE * sizeof *s->rs) != 0
            || imp_resize(&s->still, cap * sizeof *s->still) != 0
            || imp_resize(&s->took, cap * sizeof *s->took) != 0
            || imp_resize(&s->srcs, cap * sizeof *s->srcs) != 0
            || imp_resize(&s->late, cap * sizeof *s->late) != 0) {
            return -1;
        }
        s->cap = (int)cap;
    }
    if (imp_e3_soft_pairs_reserve(s, npts) != 0) {  /* (prepare's pair_first, n = 0 too) */
        return -1;
    }
    if (nslots > s->slot_cap) {
        size_t n = (size_t)nslots;
        if (imp_resize(&s->pose0, n * 7 * sizeof *s->pose0) != 0
            || imp_resize(&s->delta, n * 8 * sizeof *s->delta) != 0
            || imp_resize(&s->force, n * 6 * sizeof *s->force) != 0
            || imp_resize(&s->sv, n * 8 * sizeof *s->sv) != 0
            || imp_resize(&s->si, n * 12 * sizeof *s->si) != 0
            || imp_resize(&s->mv, n * sizeof *s->mv) != 0
            || imp_resize(&s->dq, n * sizeof *s->dq) != 0
            || imp_resize(&s->gs, n * 3 * sizeof *s->gs) != 0
            || imp_resize(&s->ke, n * sizeof *s->ke) != 0
            || imp_resize(&s->uf, n * sizeof *s->uf) != 0) {
            return -1;
        }
        s->slot_cap = nslots;
    }
    return 0;
}

int imp_e3_soft_reserve(imp_engine3d *e, int npts, int npairs, int slot_cap)
{
    if (reserve(e, npts, slot_cap) != 0) {
        return -1;
    }
    struct imp_e3_soft *s = e->soft;
    int nb = npairs / E3B_LANES + 1;  /* (the blocks of E3B_LANES pairs, one colour at least) */
    if (imp_grow(&s->colour_mask, &s->mask_cap, slot_cap, sizeof *s->colour_mask) != 0
        || imp_e3_soft_blocks_reserve(s, nb) != 0  /* (64-aligned: not imp_grow's) */
        || imp_e3_soft_impact_reserve(s, npairs, nb) != 0) {
        return -1;
    }
    return 0;
}

static int moves(const imp_world *w, int s)
{
    const imp_body *b = &w->model.bodies[s];
    return s > 0 && b->active && !b->fixed && !imp_islands_asleep_in(w->islands, s);
}

/* Point c's row (e->pts[c]) into s->pts[at]; ma, mb: whether its sides move. Its warm start:
   e->pts[c].r (engine3d_soft_recycle.h). */
static void prepare_row(const imp_world *w, imp_engine3d *e, int c, int at, int ma, int mb)
{
    struct imp_e3_soft *s = e->soft;
    double vtol = w->model.def.engine2d.velocity_tol;
    static const double zero[6] = {0, 0, 0, 0, 0, 0};
    imp_e3_point *p = &e->pts[c];
    imp_e3_soft_pt *q = &s->pts[at];
    q->src = c;
    s->srcs[at] = c;
    q->a = p->a;
    q->b = p->b;
    memcpy(q->ra, p->ra, 3 * sizeof(double));
    memcpy(q->rb, p->rb, 3 * sizeof(double));
    q->ra[3] = q->rb[3] = 0.0;
    q->ima = ma ? w->model.bodies[p->a].inv_mass : 0.0;
    q->imb = mb ? w->model.bodies[p->b].inv_mass : 0.0;
    memcpy(q->ec[0], p->normal, 3 * sizeof(double));  /* (a loop over the three: its pointers) */
    memcpy(q->ec[1], p->t1, 3 * sizeof(double));
    memcpy(q->ec[2], p->t2, 3 * sizeof(double));
    q->ec[0][3] = q->ec[1][3] = q->ec[2][3] = 0.0;
    /* its masses: engine3d_soft_blocks.c (imp_e3_soft_blocks), four lanes at once */
    q->soft_static = q->ima == 0.0 || q->imb == 0.0;
    q->sep = q->s = p->distance;
    q->mu = p->mu;
    q->e = p->e;
    const double *va = ma ? w->data.y + (size_t)p->a * IMP_STRIDE_3D + IMP_VEL_3D : zero;
    const double *vb = mb ? w->data.y + (size_t)p->b * IMP_STRIDE_3D + IMP_VEL_3D : zero;
    double u[3];
    imp_e3_frame_velocity(va, vb, p->normal, p->t1, p->t2, q->ra, q->rb, u);
    q->uhit = p->u0 = u[0];  /* (u0 kept in the point: impact_points) */
    p->ustar = p->u0;
    p->rimp = 0.0;
    p->handled = 0;
    p->active = 1;
    if (p->u0 < -vtol) {  /* an impact: no force held from the last step (a kick) */
        p->r[0] = p->r[1] = p->r[2] = 0.0;
    }
    q->rn = p->r[0];
    q->rt1 = p->r[1];
    q->rt2 = p->r[2];
    q->sum[0] = q->sum[1] = q->sum[2] = 0.0;
    q->pushed = 0.0;
    q->held = 0;
    q->fresh = (unsigned char)(p->fresh != 0);
}

/* the bits of x xor those of y (0: the same double, bit for bit) */
static inline uint64_t bits_differ(double x, double y)
{
    uint64_t a, b;
    memcpy(&a, &x, sizeof a);
    memcpy(&b, &y, sizeof b);
    return a ^ b;
}

/* whether points p and o have the same frame and friction, bit for bit */
static int same_frame(const imp_e3_point *p, const imp_e3_point *o)
{
    uint64_t d = bits_differ(p->mu, o->mu);
    for (int k = 0; k < 3; k++) {
        d |= bits_differ(p->normal[k], o->normal[k]) | bits_differ(p->t1[k], o->t1[k]) | bits_differ(p->t2[k], o->t2[k]);
    }
    return d == 0;
}

/* The step's rows from the detected points (e->pts) at the world's state: the pairs of two
   moving bodies first, then those with a side that does not move (the ground, fixed,
   kinematic or sleeping bodies), each group in e->pts's order (the blocks' colours keep that
   priority, engine3d_soft_blocks.c). The passes being Gauss-Seidel, a
   row solved later has the last word on its bodies' velocities: a still support's rows last keep
   a light body pressed by a heavy one on the support (Box3D gives its static constraints the
   same priority); with them first, a 1 kg cube under a 10 kg one rocks on the ground with a
   growing amplitude (spec/engine3d_soft_spec.lua). Whether each slot moves is taken once. */
static int prepare(const imp_world *w, imp_engine3d *e)
{
    unsigned char *mv = e->soft->mv;
    for (int s = 0; s < w->model.nslots; s++) {
        mv[s] = (unsigned char)moves(w, s);
    }
    /* the still group's points listed by the first walk, the second walking only them (a walk
       of e->pts, 304 bytes a point, reads a line of memory a point); returned: whether a point
       restitutes (e > 0) */
    int *still = e->soft->still, nstill = 0, elastic = 0;
    int at = 0, first = 0, last = -1;  /* the current pair's first row; the last row's point */
    int *pair_first = e->soft->pair_first, np = 0;  /* the pairs' runs (the blocks' build) */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0, n = pass == 0 ? e->npts : nstill; i < n; i++) {
            int c = pass == 0 ? i : still[i];
            const imp_e3_point *p = &e->pts[c];
            int ma = mv[p->a], mb = mv[p->b];
            if (pass == 0 && (!ma || !mb)) {
                still[nstill++] = c;
                continue;
            }
            elastic |= p->e > 0.0;
            prepare_row(w, e, c, at, ma, mb);
            imp_e3_soft_pt *q = &e->soft->pts[at];
            q->mixed = 0;
            if (at > 0 && q->a == q[-1].a && q->b == q[-1].b) {
                e->soft->pts[first].mixed |= !same_frame(p, &e->pts[last]);
            } else {
                first = at;
                pair_first[np++] = at;
            }
            last = c;
            at++;
        }
    }
    pair_first[np] = at;
    e->soft->npairs = np;
    return elastic;
}

/* the world inverse inertias (e->inv_iw, row-major) as padded columns */
static void inertia_columns(const imp_world *w, imp_engine3d *e)
{
    for (int s = 0; s < w->model.nslots; s++) {
        const double *I = e->inv_iw + 9 * (size_t)s;
        double *c = e->soft->si + 12 * (size_t)s;
        /* written out (-O2 kept the double loop) */
        c[0] = I[0], c[1] = I[3], c[2] = I[6], c[3] = 0.0;
        c[4] = I[1], c[5] = I[4], c[6] = I[7], c[7] = 0.0;
        c[8] = I[2], c[9] = I[5], c[10] = I[8], c[11] = 0.0;
    }
}

/* e->vel (6 per slot) to the passes' padded copy and back */
static void to_padded(const imp_world *w, imp_engine3d *e)
{
    double *sv = e->soft->sv;
    for (int s = 0; s < w->model.nslots; s++) {
        const double *v = e->vel + 6 * (size_t)s;
        double *p = sv + 8 * (size_t)s;
        p[0] = v[0], p[1] = v[1], p[2] = v[2], p[3] = 0.0;
        p[4] = v[3], p[5] = v[4], p[6] = v[5], p[7] = 0.0;
    }
}

static void from_padded(const imp_world *w, imp_engine3d *e)
{
    const double *sv = e->soft->sv;
    for (int s = 0; s < w->model.nslots; s++) {
        double *v = e->vel + 6 * (size_t)s;
        const double *p = sv + 8 * (size_t)s;
        v[0] = p[0], v[1] = p[1], v[2] = p[2];
        v[3] = p[4], v[4] = p[5], v[5] = p[6];
    }
}

void imp_e3_soft_row_warm(struct imp_e3_soft *s, const imp_e3_soft_pt *q)
{
    if (q->rn != 0.0 || q->rt1 != 0.0 || q->rt2 != 0.0) {
        apply(s->sv + 8 * (size_t)q->a, s->sv + 8 * (size_t)q->b, s->si + 12 * (size_t)q->a,
              s->si + 12 * (size_t)q->b, q, q->rn, q->rt1, q->rt2);
    }
}

/* Point q's rows in a pass, the portable way: its normal row (speculative, soft when
   use_bias, else rigid), then, in a relax pass only, its friction (both tangents at once, on
   the disc mu rn), one impulse applied. The solve passes take the normal rows alone (Box3D's
   rule): the warm start applies the last relax pass's friction, which holds a resting
   contact through the solve pass. A solve pass (use_bias) takes the point's separation from its bodies'
   motion since the step began; a relax pass, after the positions moved by hs v, that
   separation moved by hs u_N. The blocks (engine3d_soft_blocks.c) do the same lane by lane. */
void imp_e3_soft_row(struct imp_e3_soft *sf, imp_e3_soft_pt *q, const imp_e3_softness *soft,
                     const imp_e3_softness *stiff, double hs, double push_max, int use_bias)
{
    double *va = sf->sv + 8 * (size_t)q->a, *vb = sf->sv + 8 * (size_t)q->b, u[4];
    velocity(va, vb, q, u);
    double vn = u[0], u1 = u[1], u2 = u[2];
    double s = use_bias ? separation(sf->delta, q) : q->s + hs * vn;
    q->s = s;
    double bias, ms, is;
    imp_e3_soft_bias(s, 1.0 / hs, use_bias, q->soft_static ? stiff : soft, push_max, &bias, &ms, &is);
    double rn = q->rn - q->mn * ms * (vn + bias) - is * q->rn;
    rn = rn > 0.0 ? rn : 0.0;
    rn = q->held ? q->rn : rn;  /* solved with its pair's points (engine3d_soft_impact.c) */
    double dn = rn - q->rn;
    if (q->pushed == 0.0 && rn > 0.0) {  /* its first push of the step */
        q->uhit = vn < q->uhit ? vn : q->uhit;
        q->pushed = rn;
    }
    q->rn = rn;
    if (use_bias) {  /* a solve pass: the normal row only (friction in the relax passes, as Box3D) */
        apply(va, vb, sf->si + 12 * (size_t)q->a, sf->si + 12 * (size_t)q->b, q, dn, 0.0, 0.0);
        return;
    }
    u1 += q->w1n * dn;  /* the tangent velocities after the normal impulse */
    u2 += q->w2n * dn;
    double r1 = q->rt1 - q->mt * u1, r2 = q->rt2 - q->mt * u2;
    double lim = q->mu * rn, len2 = r1 * r1 + r2 * r2;
    if (len2 > lim * lim) {
        double f = lim / sqrt(len2);
        r1 *= f;
        r2 *= f;
    }
    double d1 = r1 - q->rt1, d2 = r2 - q->rt2;
    q->rt1 = r1;
    q->rt2 = r2;
    apply(va, vb, sf->si + 12 * (size_t)q->a, sf->si + 12 * (size_t)q->b, q, dn, d1, d2);
}

/* After the sub-steps: Newton's law u_N = -e u_N(hit) at the points of the pairs that had an
   impact (the points of a pair are consecutive in pts): a pair had one when one of its points
   pushed at an approach faster than the threshold. Each of its points then takes part when it pushed or ends the step closed (s <= 0)
   and its approach u_N(hit) was faster than the threshold, with e = 0 too (u_N = 0: a plastic
   impact). A point's u_N(hit) is its free motion's: its normal velocity at the step's start u0
   with the forces' velocity change (sf->force over the mass) of the sub-steps up to the one in
   which its gap closes (all of them if it does not close in the step: the last relax pass saw
   it would close in the next sub-step, or the body turned onto it). Not the
   velocity the point had at its own first push: one pass over a box landing flat on its face
   takes one corner's impulse before the others', so that the corners that push later see a
   slower approach, or a faster one, and the one that never pushes none, and Newton's law point
   by point on those left the box spinning (issue #24). Box3D takes u0, at the points that
   pushed only. Into rs[RS_STRIDE c + 7] the point's u_N(hit), 1 when it takes no part, and
   the points that take part (restitutes) into sf->took; returns whether any takes part.
   O(points x sub-steps). */
static int impact_points(const imp_world *w, const imp_engine3d *e, int n, double threshold, double hs, int k)
{
    struct imp_e3_soft *sf = e->soft;
    const imp_e3_soft_pt *pts = sf->pts;
    const unsigned char *mv = sf->mv;
    double *rs = sf->rs;
    int any = 0, c0 = 0, m = 0;
    sf->ntook = 0;
    if (sf->pushed_known && !sf->pushed_fast) {
        return 0;  /* the last relax pass took it as it stored the rows: none */
    }
    while (c0 < n && !(pts[c0].uhit < -threshold && pts[c0].pushed > 0.0)) {
        c0++;  /* most steps: no impact at all */
    }
    if (c0 == n) {
        return 0;
    }
    for (int f = 0, l; f < n; f = l) {
        int pushed = 0;  /* one of its points pushed at an approach faster than the threshold */
        for (l = f; l < n && pts[l].a == pts[f].a && pts[l].b == pts[f].b; l++) {
            pushed |= pts[l].pushed > 0.0 && pts[l].uhit < -threshold;
        }
        for (int c = f; c < l; c++) {
            const imp_e3_soft_pt *q = &pts[c];
            int take = 0;
            double u = 1.0;
            if (pushed && (q->pushed > 0.0 || q->s <= 0.0) && q->mn != 0.0) {
                /* the bodies' accelerations by the forces (sf->force: 6 per slot, imp_world_forces) */
                const double *fa = sf->force + 6 * (size_t)q->a, *fb = sf->force + 6 * (size_t)q->b;
                double ia = w->model.bodies[q->a].inv_mass, ib = w->model.bodies[q->b].inv_mass;
                double dv = 0.0, gap = q->sep;
                for (int j = 0; j < 3; j++) {
                    dv += q->ec[0][j] * ((mv[q->b] ? fb[j] * ib : 0.0) - (mv[q->a] ? fa[j] * ia : 0.0));
                }
                dv *= hs;
                double u0 = e->pts[q->src].u0;  /* (prepare_row's, the step's start's) */
                u = u0 + dv * k;
                for (int i = 0; i < k; i++) {  /* the sub-step in which the free motion closes the gap */
                    double v = u0 + dv * (i + 1);
                    if (gap + hs * v < 0.0) {
                        u = v;
                        break;
                    }
                    gap += hs * v;
                }
                take = u < -threshold;
            }
            rs[RS_STRIDE * (size_t)c + 7] = take ? u : 1.0;
            if (take && u < 0.0) {  /* (restitutes) */
                sf->took[m++] = c;
            }
            any |= take;
        }
    }
    sf->ntook = m;
    return any;
}

/* A body's kinetic energy at velocity v, spin om (world) and orientation q (w, x, y, z) */
static double body_energy(const imp_body *b, const double *q, const double *v, const double *om)
{
    imp_mat3 r = imp_q_to_mat3(imp_q_normalize(imp_q(q[0], q[1], q[2], q[3])));
    imp_vec3 ob = imp_m3_tmulv(&r, imp_v3_load(om));
    return 0.5 * (b->mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + imp_v3_dot(ob, imp_m3_mulv(&b->inertia, ob)));
}

/* The union-find root of slot s (restitution_pass's groups of bodies) */
static int group_root(int *uf, int s)
{
    while (uf[s] != s) {
        uf[s] = uf[uf[s]];
        s = uf[s];
    }
    return s;
}

/* The largest a in [0, 1] with A a^2 + B a <= allow (A >= 0, allow >= 0, A + B > allow) */
static double energy_scale(double A, double B, double allow)
{
    if (!(A > 0.0)) {
        return B > 0.0 ? fmin(1.0, allow / B) : 1.0;
    }
    double r = sqrt(B * B + 4.0 * A * allow);
    double a = B > 0.0 ? 2.0 * allow / (B + r) : (r - B) / (2.0 * A);
    return fmin(fmax(a, 0.0), 1.0);
}

#if defined(IMP_E3_HAVE_AVX2)
#include "avx2.h"
/* The restitution rows' velocity and apply (engine3d_soft_internal.h's velocity and apply)
   four lanes at once: each lane does the portable function's operations in its order, no fused
   multiply-add (AVX2 alone), so the results are bit-identical */

/* cross4 lane by lane: (a_y b_z - a_z b_y, a_z b_x - a_x b_z, a_x b_y - a_y b_x, a_w b_w - a_w b_w) */
static inline AVX2 v4 cross_v4(v4 a, v4 b)
{
    v4 a1 = _mm256_permute4x64_pd(a, 0xC9), b1 = _mm256_permute4x64_pd(b, 0xD2);  /* yzxw, zxyw */
    v4 a2 = _mm256_permute4x64_pd(a, 0xD2), b2 = _mm256_permute4x64_pd(b, 0xC9);
    return sub(mul(a1, b1), mul(a2, b2));
}

static AVX2 void velocity_avx2(const double *va, const double *vb, const imp_e3_soft_pt *q, double u[4])
{
    v4 cb = cross_v4(_mm256_loadu_pd(vb + 4), _mm256_loadu_pd(q->rb));
    v4 ca = cross_v4(_mm256_loadu_pd(va + 4), _mm256_loadu_pd(q->ra));
    double d[4];
    _mm256_storeu_pd(d, sub(add(sub(_mm256_loadu_pd(vb), _mm256_loadu_pd(va)), cb), ca));
    for (int k = 0; k < 3; k++) {
        u[k] = (d[0] * q->ec[k][0] + d[1] * q->ec[k][1]) + d[2] * q->ec[k][2];
    }
    u[3] = 0.0;
}

static AVX2 void apply_avx2(double *va, double *vb, const double *Ia, const double *Ib, const imp_e3_soft_pt *q,
                            double dn, double d1, double d2)
{
    v4 P = add(add(mul(_mm256_set1_pd(dn), _mm256_loadu_pd(q->ec[0])), mul(_mm256_set1_pd(d1), _mm256_loadu_pd(q->ec[1]))),
               mul(_mm256_set1_pd(d2), _mm256_loadu_pd(q->ec[2])));
    v4 ca = cross_v4(_mm256_loadu_pd(q->ra), P), cb = cross_v4(_mm256_loadu_pd(q->rb), P);
    v4 A = mul(_mm256_permute4x64_pd(ca, 0x00), _mm256_loadu_pd(Ia));
    A = add(A, mul(_mm256_permute4x64_pd(ca, 0x55), _mm256_loadu_pd(Ia + 4)));
    A = add(A, mul(_mm256_permute4x64_pd(ca, 0xAA), _mm256_loadu_pd(Ia + 8)));
    v4 B = mul(_mm256_permute4x64_pd(cb, 0x00), _mm256_loadu_pd(Ib));
    B = add(B, mul(_mm256_permute4x64_pd(cb, 0x55), _mm256_loadu_pd(Ib + 4)));
    B = add(B, mul(_mm256_permute4x64_pd(cb, 0xAA), _mm256_loadu_pd(Ib + 8)));
    /* one side stored before the other is read (as the portable loop, were a and b one) */
    _mm256_storeu_pd(va, sub(_mm256_loadu_pd(va), mul(_mm256_set1_pd(q->ima), P)));
    _mm256_storeu_pd(vb, add(_mm256_loadu_pd(vb), mul(_mm256_set1_pd(q->imb), P)));
    _mm256_storeu_pd(va + 4, sub(_mm256_loadu_pd(va + 4), A));
    _mm256_storeu_pd(vb + 4, add(_mm256_loadu_pd(vb + 4), B));
}
#endif

/* velocity or apply, AVX2 when simd (the same results) */
static void row_velocity(int simd, const double *va, const double *vb, const imp_e3_soft_pt *q, double u[4])
{
#if defined(IMP_E3_HAVE_AVX2)
    if (simd) {
        velocity_avx2(va, vb, q, u);
        return;
    }
#endif
    (void)simd;
    velocity(va, vb, q, u);
}

static void row_apply(int simd, double *va, double *vb, const double *Ia, const double *Ib, const imp_e3_soft_pt *q,
                      double dn, double d1, double d2)
{
#if defined(IMP_E3_HAVE_AVX2)
    if (simd) {
        apply_avx2(va, vb, Ia, Ib, q, dn, d1, d2);
        return;
    }
#endif
    (void)simd;
    apply(va, vb, Ia, Ib, q, dn, d1, d2);
}

/* Point q's rows in the restitution pass, on the step's impulses (sum): its normal row toward
   u_N = -e u_N(hit) (approach), then its friction on the disc mu sum_N, both tangents at once,
   one impulse applied; returns the largest change of impulse, and into *dv the largest change
   of velocity it made at the point (|dn| / mn, |d_T| / mt: the law's residual there, before the
   row: the normal velocity's distance to -e u_N(hit), or to u_N >= 0 where the impulse went to
   0; the tangent velocity of a sticking point) */
static double restitution_row(struct imp_e3_soft *sf, imp_e3_soft_pt *q, double approach, int simd, double *dv)
{
    double *va = sf->sv + 8 * (size_t)q->a, *vb = sf->sv + 8 * (size_t)q->b, u[4];
    row_velocity(simd, va, vb, q, u);
    double sn = fmax(q->sum[0] - q->mn * (u[0] + q->e * approach), 0.0), dn = sn - q->sum[0];
    double u1 = u[1] + q->w1n * dn, u2 = u[2] + q->w2n * dn;
    double r1 = q->sum[1] - q->mt * u1, r2 = q->sum[2] - q->mt * u2;
    double lim = q->mu * sn, len2 = r1 * r1 + r2 * r2;
    if (len2 > lim * lim) {
        double f = lim / sqrt(len2);
        r1 *= f;
        r2 *= f;
    }
    double d1 = r1 - q->sum[1], d2 = r2 - q->sum[2];
    q->sum[0] = sn;
    q->sum[1] = r1;
    q->sum[2] = r2;
    q->rn = fmax(q->rn + dn, 0.0);  /* the next step's warm start */
    q->rt1 += d1;
    q->rt2 += d2;
    row_apply(simd, va, vb, sf->si + 12 * (size_t)q->a, sf->si + 12 * (size_t)q->b, q, dn, d1, d2);
    double dt = fmax(fabs(d1), fabs(d2));
    *dv = fmax(fabs(dn) / q->mn, dt / q->mt);
    return fmax(fabs(dn), dt);
}

/* The restitution pass's stopping rule (issue #24 item 8): the impulses settled, or a pass
   that will not meet the law within RESTITUTION_SWEEPS. The law's residual of a sweep, dv: the
   largest change of velocity a row made at its point (restitution_row). A pass stops when
   (1) the impulses settle (a change of 1e-12 of the largest normal impulse), or (2) at every
   RATE_WINDOW-th sweep from RATE_FIRST on, when the last RATE_WINDOW sweeps' factor of
   reduction of dv, kept to the cap, would not bring it below USEFUL of the pass's fastest
   approach a: Gauss-Seidel on the pass's coupled rows is then too slow for the sweeps left to
   meet the law (the bench pile's large struck sets, about 100 points, whose corrections
   shrink by about 3 % a sweep and are still 2 to 11 cm/s at the 64th; the pile's figures are
   the same at 1 to 64 sweeps). USEFUL is what the edge landing asks of its pass (its spin
   about the other axes below 1e-6 of that about the edge, engine3d_flat_landing_spec): that
   pass converges at about 0.8 a sweep and runs on to the cap, as do the passes that settle.
   RATE_FIRST: the first sweeps' reduction is no guide (from sweep 8 on, the flat landings
   stopped with a spin of 1.6e-4 to 1.2e-3 of v / size, against 1e-12 when they settle). */
enum { RESTITUTION_SWEEPS = 64, RATE_FIRST = 16, RATE_WINDOW = 8 };
static const double USEFUL = 1e-6;

/* whether the pass stops after sweep k (0-based) of law residual dv (dvs: the earlier sweeps',
   dvs[k] set here), change and size as in (1), a its fastest approach (> 0) */
static int restitution_stops(double *dvs, int k, double dv, double change, double size, double a)
{
    dvs[k] = dv;
    if (!(change > 1e-12 * size)) {
        return 1;
    }
    if (k + 1 < RATE_FIRST || (k + 1) % RATE_WINDOW != 0) {
        return 0;
    }
    double r = dv / dvs[k - RATE_WINDOW], at_cap = dv;
    for (int left = RESTITUTION_SWEEPS - k - 1; left >= RATE_WINDOW; left -= RATE_WINDOW) {
        at_cap *= r;
    }
    return !(r < 1.0 && at_cap <= USEFUL * a);
}

/* Newton's law with Coulomb's friction at the points impact_points took, on the step's
   impulses (an impact's impulse is the step's, the first sub-step's mostly: the last
   sub-step's alone cannot take back what one corner took before the others), in Gauss-Seidel
   sweeps until they settle, at most RESTITUTION_SWEEPS, fewer when the sweeps would not meet
   the law (restitution_stops): the velocities then meet the rows together, whatever order the
   sub-steps' one pass took them in, and a box landing flat on its face leaves it without spin
   (with the normal rows alone, friction's twist about the normal stayed). Then, when a point is
   elastic (e > 0: the free motion's energies ke were computed), no energy gain: in each group
   of moving bodies joined by restituting points, the kinetic energy after the pass is at most
   that of the bodies' free motion over the step (their velocities at the step's start with the
   forces' impulses: contacts with e <= 1 are no source of energy). Newton's law at several
   points of one body, or with friction, can break that bound (Kane's paradox; with e = 1 a
   tumbling box on an edge and a landing stack gained energy step after step until their numbers
   overflowed). The excess is removed by scaling the group's changes of impulse by the largest a
   in [0, 1] that meets the bound: the energy the pass adds is A a^2 + B a, with A = sum dp_i .
   (u_i - u0_i) / 2 and B = sum dp_i . u0_i (dp_i: point i's change of impulse, u0_i / u_i: its
   frame velocity before / after the pass), exact for impulses whatever the bodies' inertia; the
   scaled impulses stay on their friction discs (between two that are). Where the bound holds
   (a = 1) the pass is as it was. Points of e = 0 only need no bound: a row's Gauss-Seidel
   projection takes energy, never adds it. O(points x sweeps). */
static void restitution_pass(imp_world *w, imp_engine3d *e, int elastic)
{
    struct imp_e3_soft *sf = e->soft;
    imp_e3_soft_pt *pts = sf->pts;
    double *rs = sf->rs, *gs = sf->gs;
    const unsigned char *mv = sf->mv;  /* a side that does not move (the ground) joins no group */
    int *uf = sf->uf;
    const int *took = sf->took, m = sf->ntook;  /* the points impact_points took, in order */
    for (int i = 0; i < m && elastic; i++) {  /* before the pass: impulses and velocities, groups */
        int c = took[i];
        imp_e3_soft_pt *q = &pts[c];
        double u[4], *r = rs + RS_STRIDE * (size_t)c;
        velocity(sf->sv + 8 * (size_t)q->a, sf->sv + 8 * (size_t)q->b, q, u);
        for (int k = 0; k < 3; k++) {
            r[k] = q->sum[k];
            r[3 + k] = u[k];
        }
        uf[q->a] = q->a;
        uf[q->b] = q->b;
    }
    for (int i = 0; i < m && elastic; i++) {
        const imp_e3_soft_pt *q = &pts[took[i]];
        if (mv[q->a] && mv[q->b]) {
            int ra = group_root(uf, q->a), rb = group_root(uf, q->b);
            if (ra != rb) {
                uf[ra > rb ? ra : rb] = ra < rb ? ra : rb;
            }
        }
    }
    for (int i = 0; i < m && elastic; i++) {  /* each point's group: its root */
        int c = took[i];
        const imp_e3_soft_pt *q = &pts[c];
        int r = group_root(uf, mv[q->a] ? q->a : q->b);
        rs[RS_STRIDE * (size_t)c + 6] = r;
        gs[3 * (size_t)r] = gs[3 * (size_t)r + 1] = gs[3 * (size_t)r + 2] = 0.0;
    }
    for (int i = 0; i < m && elastic; i++) {  /* allowed: the free motion's energy less the present one */
        int c = took[i];
        imp_e3_soft_pt *q = &pts[c];
        double *g = gs + 3 * (size_t)rs[RS_STRIDE * (size_t)c + 6];
        for (int side = 0; side < 2; side++) {
            int b = side ? q->b : q->a;
            if (mv[b] && uf[b] >= 0) {
                const double *v = sf->sv + 8 * (size_t)b;
                g[2] += sf->ke[b] - body_energy(&w->model.bodies[b], w->data.y + (size_t)b * IMP_STRIDE_3D + 3, v, v + 4);
                uf[b] = -1;  /* counted (the roots are in rs now) */
            }
        }
    }
    int simd = imp_e3_sweep_simd(-1);
    double fastest = 0.0, dvs[RESTITUTION_SWEEPS];
    for (int i = 0; i < m; i++) {
        fastest = fmax(fastest, -rs[RS_STRIDE * (size_t)took[i] + 7]);
    }
    for (int sweep = 0; sweep < RESTITUTION_SWEEPS; sweep++) {
        double change = 0.0, size = 0.0, dv = 0.0;
        for (int i = 0; i < m; i++) {
            int c = took[i];
            double dvi;
            change = fmax(change, restitution_row(sf, &pts[c], rs[RS_STRIDE * (size_t)c + 7], simd, &dvi));
            dv = fmax(dv, dvi);
            size = fmax(size, pts[c].sum[0]);
        }
        if (restitution_stops(dvs, sweep, dv, change, size, fastest)) {
            break;
        }
    }
    for (int i = 0; i < m && elastic; i++) {  /* the energy the pass added: A and B of each group */
        int c = took[i];
        imp_e3_soft_pt *q = &pts[c];
        double u[4];
        const double *r = rs + RS_STRIDE * (size_t)c;
        velocity(sf->sv + 8 * (size_t)q->a, sf->sv + 8 * (size_t)q->b, q, u);
        double *g = gs + 3 * (size_t)r[6];
        for (int k = 0; k < 3; k++) {
            double dp = q->sum[k] - r[k];
            g[0] += 0.5 * dp * (u[k] - r[3 + k]);
            g[1] += dp * r[3 + k];
        }
    }
    for (int i = 0; i < m && elastic; i++) {  /* the excess taken back where a group gained */
        int c = took[i];
        imp_e3_soft_pt *q = &pts[c];
        const double *r = rs + RS_STRIDE * (size_t)c;
        const double *g = gs + 3 * (size_t)r[6];
        double allow = fmax(g[2], 0.0);
        if (!(g[0] + g[1] > allow + 1e-9 * (fabs(g[0]) + fabs(g[1]) + allow))) {
            continue;
        }
        double a = energy_scale(g[0], g[1], allow), back[3];
        for (int k = 0; k < 3; k++) {
            back[k] = (1.0 - a) * (q->sum[k] - r[k]);
            q->sum[k] -= back[k];
        }
        q->rn = fmax(q->rn - back[0], 0.0);
        q->rt1 -= back[1];
        q->rt2 -= back[2];
        apply(sf->sv + 8 * (size_t)q->a, sf->sv + 8 * (size_t)q->b, sf->si + 12 * (size_t)q->a,
              sf->si + 12 * (size_t)q->b, q, -back[0], -back[1], -back[2]);
    }
}

/* below it, a half angle's cos and sin by their series to x^6 and x^7: the terms left out,
   x^8 / 8! and x^9 / 9! at most, are under half an ulp of the sums (0.03^8 / 8! = 1.6e-17) */
#define SMALL_HALF 0.03

/* the rotation by angle |om| h about om (om != 0) as a unit quaternion (w, x, y, z): cos(a / 2)
   and om sin(a / 2) / |om|, a = |om| h; for a half angle below SMALL_HALF by the series in
   (a / 2)^2, without the square root, the division and sincos (the last bits may differ from
   sincos's) */
static imp_quat rotation_of(const double om[3], double h)
{
    double w2 = om[0] * om[0] + om[1] * om[1] + om[2] * om[2];
    double x2 = 0.25 * h * h * w2, c, sw;  /* (a / 2)^2; sw = sin(a / 2) / |om| */
    if (x2 < SMALL_HALF * SMALL_HALF) {
        c = 1.0 - 0.5 * x2 * (1.0 - x2 / 12.0 * (1.0 - x2 / 30.0));
        sw = 0.5 * h * (1.0 - x2 / 6.0 * (1.0 - x2 / 20.0 * (1.0 - x2 / 42.0)));
    } else {
        double wl = sqrt(w2), half = 0.5 * h * wl;
        c = cos(half);
        sw = sin(half) / wl;
    }
    return imp_q(c, om[0] * sw, om[1] * sw, om[2] * sw);
}

/* x += h v (v: the padded velocities), orientations by the rotation of w h (rotation_of); each
   moving body's motion since the step began into delta (the state's velocities: after the
   relax passes, store_velocities; nothing between reads them, the passes work on sv). No body
   at rest is skipped: the moving ones (mv) are the awake ones, which are rarely at rest to
   the bit, and each still needs its delta. A body without spin (w = 0 to the bit: most of a
   falling pile's) keeps its orientation: its delta's rotation, once taken this step (dq), is
   not taken again (the same product of the same numbers). O(moving bodies). */
static void integrate_positions(imp_world *w, imp_engine3d *e, double h)
{
    struct imp_e3_soft *sf = e->soft;
    const unsigned char *mv = sf->mv;  /* (moves, taken once a step by prepare) */
    for (int s = 1; s < w->model.nslots; s++) {
        if (!mv[s]) {
            continue;
        }
        /* written out, the velocities in registers (y and sv may alias for the compiler): the
           loops over k and the copy through an array cost more than their arithmetic */
        double *y = w->data.y + (size_t)s * IMP_STRIDE_3D;
        const double *p = sf->sv + 8 * (size_t)s;
        const double v0 = p[0], v1 = p[1], v2 = p[2], om[3] = {p[4], p[5], p[6]};
        const double x0 = y[0] + h * v0, x1 = y[1] + h * v1, x2 = y[2] + h * v2;
        y[0] = x0, y[1] = x1, y[2] = x2;
        if (om[0] != 0.0 || om[1] != 0.0 || om[2] != 0.0) {
            imp_quat dq = rotation_of(om, h);
            imp_quat q = imp_q_normalize(imp_q_mul(dq, imp_q(y[3], y[4], y[5], y[6])));
            y[3] = q.w, y[4] = q.x, y[5] = q.y, y[6] = q.z;
            sf->dq[s] = 0;
        }
        const double *p0 = sf->pose0 + 7 * (size_t)s;
        double *m = sf->delta + 8 * (size_t)s;
        m[0] = x0 - p0[0], m[1] = x1 - p0[1], m[2] = x2 - p0[2];
        if (sf->dq[s]) {
            continue;
        }
        sf->dq[s] = 1;
        /* the rotation as its quaternion: the readers take the matrix (imp_q_to_mat3) */
        imp_quat qd = imp_q_mul(imp_q(y[3], y[4], y[5], y[6]), imp_q_conj(imp_q(p0[3], p0[4], p0[5], p0[6])));
        m[4] = qd.w, m[5] = qd.x, m[6] = qd.y, m[7] = qd.z;
    }
}

/* slot s's state velocity = its padded velocity */
static void store_velocity(imp_world *w, const double *sv, int s)
{
    const double *p = sv + 8 * (size_t)s;
    double *y = w->data.y + (size_t)s * IMP_STRIDE_3D + IMP_VEL_3D;
    y[0] = p[0], y[1] = p[1], y[2] = p[2], y[3] = p[4], y[4] = p[5], y[5] = p[6];
}

/* the state's velocities = the padded velocities (after the relax passes), the moving slots' */
static void store_velocities(imp_world *w, const imp_engine3d *e)
{
    const unsigned char *mv = e->soft->mv;  /* (moves, taken once a step by prepare) */
    for (int s = 1; s < w->model.nslots; s++) {
        if (mv[s]) {
            store_velocity(w, e->soft->sv, s);
        }
    }
}

/* after the restitution pass: the velocities it changed, those of the moving sides of the
   points it took (the others' are as the last sub-step stored them); O(points taken) */
static void store_took_velocities(imp_world *w, const imp_engine3d *e)
{
    const struct imp_e3_soft *sf = e->soft;
    for (int i = 0; i < sf->ntook; i++) {
        const imp_e3_soft_pt *q = &sf->pts[sf->took[i]];
        if (sf->mv[q->a]) {
            store_velocity(w, sf->sv, q->a);
        }
        if (sf->mv[q->b]) {
            store_velocity(w, sf->sv, q->b);
        }
    }
}

/* Siconos' measure of the last sub-step's answer (engine3d_solve.c's sweeps_error): u = J v +
   the speculative bound, sqrt(sum |r - P_K(r - u - mu |u_T| e_N)|^2) / max(|r|, |u|); the
   blocks' rows four lanes at once (engine3d_soft_blocks.c), then the pairs solved one by one */
static double residual(const imp_engine3d *e, double inv_hs)
{
    const struct imp_e3_soft *sf = e->soft;
    double acc[3] = {0.0, 0.0, 0.0};  /* num, r2, u2 */
    imp_e3_soft_blocks_residual(sf, inv_hs, imp_e3_sweep_simd(-1), acc);
    for (int i = 0; i < sf->nover; i++) {
        int g = sf->over[i];
        for (int c = sf->pair_first[g]; c < sf->pair_first[g + 1]; c++) {
            const imp_e3_soft_pt *q = &sf->pts[c];
            if (q->mn == 0.0) {
                continue;
            }
            double u[4];
            velocity(sf->sv + 8 * (size_t)q->a, sf->sv + 8 * (size_t)q->b, q, u);
            imp_e3_soft_residual_terms(u[0], u[1], u[2], q->s, q->rn, q->rt1, q->rt2, q->mu, inv_hs, acc);
        }
    }
    double den = sqrt(fmax(acc[1], acc[2]));
    return den > 1e-300 ? sqrt(acc[0]) / den : sqrt(acc[0]);
}

double imp_e3_soft_error(const imp_engine3d *e)
{
    const struct imp_e3_soft *s = e->soft;
    int pending = s != NULL && s->error_pending && s->error_step == e->stats.steps;  /* no step since */
    return pending ? residual(e, s->error_inv_hs) : e->stats.last_error;
}

/* the step's impulses into the points (w:contacts(), events, the next step's warm starts) and
   the impacts' impulses into their acc (engine3d_step.c's accumulate_impacts, for the
   collision events); the last sub-step's impulses over its length into the points' records
   (the next step's warm starts, engine3d_soft_recycle.h), in the same walk of the rows
   (imp_e3_soft_finish_row). The step's last store did it for the block rows of the pairs
   without a fast push (fin_pts, engine3d_soft_internal.h): here the rows it listed (late) and
   the pairs solved one by one, after the restitution pass, which changes only theirs. The
   points being independent, the order is not the rows' (the same bits). */
static void finish_points(imp_engine3d *e)
{
    struct imp_e3_soft *sf = e->soft;
    const imp_e3_soft_pt *pts = sf->pts;
    for (int i = 0; i < sf->nlate; i++) {
        const imp_e3_soft_pt *q = &pts[sf->late[i]];
        imp_e3_soft_finish_row(sf, q->src, q->rn, q->rt1, q->rt2, q->sum[0], q->sum[1], q->sum[2], q->uhit, q->pushed);
    }
    for (int i = 0; i < sf->nover; i++) {
        int g = sf->over[i];
        for (int c = sf->pair_first[g]; c < sf->pair_first[g + 1]; c++) {
            const imp_e3_soft_pt *q = &pts[c];
            imp_e3_soft_finish_row(sf, q->src, q->rn, q->rt1, q->rt2, q->sum[0], q->sum[1], q->sum[2], q->uhit,
                                   q->pushed);
        }
    }
    e->stats.collisions += sf->fin_collisions;
    sf->fin_pts = NULL;
    sf->nlate = 0;
    sf->fin_collisions = 0;
}

/* detection once for the step, its margin covering the step's motion (the free velocity at
   its end too); sleeping islands an awake body reaches wake and the detection runs again */
static imp_status detect(imp_world *w, imp_engine3d *e, const double *force, double h)
{
    imp_status st = IMP_OK;
    for (int woke = 1; woke;) {
        woke = 0;
        const double *rot = imp_e3_recycle_rotations(w, &e->soft->rc);  /* (at y, shared) */
        if (rot == NULL) {
            return IMP_ERR_NOMEM;
        }
        imp_e3_free_velocities_forces_rot(w, e, force, h, rot);
        e->span_bound = 1;
        e->rot_y = rot;
        st = imp_engine3d_detect(w, e, h);
        e->rot_y = NULL;
        e->span_bound = 0;
        if (st == IMP_OK && imp_e3_sleep_any(w)) {
            st = imp_e3_sleep_detected(w, e, &woke);
        }
    }
    return st;
}

imp_status imp_e3_soft_advance(imp_world *w, imp_engine3d *e, double t1, char *why, size_t why_len)
{
    const imp_engine2d_def *def = &w->model.def.engine2d;
    const imp_soft_def *sd = &def->soft;
    double t0 = w->data.time, h = t1 - t0;
    int k = def->substeps > 1 ? def->substeps : 1, ns = w->model.nslots;
    double hs = h / k, inv_hs = 1.0 / hs;
    e->now = t0;
    e->once = 0;
    if (e->soft != NULL) {
        e->soft->error_pending = 0;
    }
    if (reserve(e, 0, ns) != 0) {
        snprintf(why, why_len, "out of memory for the 3D engine's soft step");
        return IMP_ERR_NOMEM;
    }
    struct imp_e3_soft *sf = e->soft;
    double *force = sf->force, t = imp_profile_now();
    imp_world_forces(w, t0, w->data.y, force);
    sf->rc.hs = hs;  /* the held points' warm starts, at detection */
    imp_status st = detect(w, e, force, h);
    t = imp_profile_add(&w->data.profile, IMP_STAGE_DETECT, t);
    if (st != IMP_OK) {
        snprintf(why, why_len, "out of memory in the 3D detection");
        return st;
    }
    if (imp_e3_recycle_begin(w, e, &sf->rc, e->h_last > 0.0 ? e->h_last : h) != 0) {
        snprintf(why, why_len, "out of memory for the 3D engine's soft step");
        return IMP_ERR_NOMEM;
    }
    int n = e->npts;
    if (reserve(e, n, ns) != 0) {
        snprintf(why, why_len, "out of memory for the 3D engine's soft step");
        return IMP_ERR_NOMEM;
    }
    imp_engine3d_inverse_inertia_rot(w, e, sf->rc.rot);  /* (the rotations detection took at y) */
    inertia_columns(w, e);
    for (int s = 0; s < ns; s++) {  /* the step's start pose; no motion yet */
        memcpy(sf->pose0 + 7 * (size_t)s, w->data.y + (size_t)s * IMP_STRIDE_3D, 7 * sizeof(double));
        double *m = sf->delta + 8 * (size_t)s;
        memset(m, 0, 8 * sizeof *m);
        m[4] = 1.0;  /* (the quaternion (1, 0, 0, 0): the identity, imp_e3_delta_expand) */
        sf->dq[s] = 0;  /* (the identity is not the product at the pose: its bits may differ) */
    }
    int elastic = prepare(w, e);  /* whether a point may restitute: only then restitution_pass reads ke */
    for (int b = 1; b < ns && elastic; b++) {  /* the free motion's energy */
        if (moves(w, b)) {
            const double *y = w->data.y + (size_t)b * IMP_STRIDE_3D, *v = e->vel + 6 * (size_t)b;
            sf->ke[b] = body_energy(&w->model.bodies[b], y + 3, v, v + 3);
        }
    }
    /* contacts at most a quarter of the sub-step rate (Box2D), against a still body twice the
       frequency at half the damping ratio (Box3D's static softness) */
    double hz = fmin(sd->hertz, 0.25 * inv_hs);
    imp_e3_softness soft = imp_e3_make_soft(hz, sd->damping_ratio, hs);
    imp_e3_softness stiff = imp_e3_make_soft(2.0 * hz, 0.5 * sd->damping_ratio, hs);
    imp_e3_softness jsoft = imp_e3_make_soft(fmin(sd->joint_hertz, 0.25 * inv_hs), sd->joint_damping_ratio, hs);
    int simd = imp_e3_sweep_simd(-1);
    if (imp_e3_soft_blocks(sf, n, ns, &soft, &stiff, simd) != 0) {
        snprintf(why, why_len, "out of memory for the 3D engine's soft step");
        return IMP_ERR_NOMEM;
    }
    imp_e3_soft_impact_list(sf, sd->restitution_threshold, e->vel, h);
    sf->impact_threshold = sd->restitution_threshold;  /* (impact_points' first question) */
    sf->pushed_known = 0;
    t = imp_profile_add(&w->data.profile, IMP_STAGE_INTEGRATE, t);
    /* the world's forces the bodies' own (gravity, applied, damping): each sub-step's taken in
       the walk of the free velocities (the 3D strategies' forces, imp_engine3d_ode_forces, act
       only inside the ode advance's integrator, never here) */
    int own = imp_world_forces_body_only(w);
    /* no damping: the bodies' own forces are the step start's in every sub-step while their
       velocities are finite (the walk's own 2: it takes a body's own that is not) */
    int same = own && imp_forces_undamped_3d(w);
    /* and then, without joints (their rows read the state's velocities), nothing but the walk
       reads the moving bodies' velocities between sub-steps: the walk reads them from sv, which
       the state's would copy, and they are stored once, after the last sub-step */
    int lazy = same && imp_e3_joint_count(w) == 0;
    e->mv = sf->mv;  /* (the sub-steps' walk: whether each slot moves, as prepare took it) */
    sf->fin_pts = e->pts;  /* (the step's last store finishes what it can: finish_points) */
    sf->fin_vtol = def->velocity_tol;
    sf->fin_inv_hs = inv_hs;
    sf->fin_gather = !w->data.no_contact_events;
    sf->fin_collisions = 0;
    sf->nlate = 0;
    for (int i = 0; i < k; i++) {
        double now = t0 + hs * i;
        if (i > 0 && own) {
            imp_world_forces_taken(w, now);
        } else if (i > 0) {
            imp_world_forces(w, now, w->data.y, force);
        }
        /* the first sub-step's at the step's start pose: the rotations detection took; the
           velocities padded (sv) for the passes; the still bodies checked once a step */
        st = imp_e3_free_velocities_padded(w, e, force, i > 0 && own ? (same ? 2 : 1) : 0, hs,
                                           i == 0 ? sf->rc.rot : NULL, sf->sv, i == 0, i > 0 && lazy, why, why_len);
        if (st != IMP_OK) {
            e->mv = NULL;
            sf->fin_pts = NULL;
            return st;
        }
        if (imp_e3_joints_begin(w, e, hs) != IMP_OK) {
            e->mv = NULL;
            sf->fin_pts = NULL;
            snprintf(why, why_len, "out of memory for the 3D joints");
            return IMP_ERR_NOMEM;
        }
        t = imp_profile_add(&w->data.profile, IMP_STAGE_INTEGRATE, t);
        int joints = imp_e3_joints_armed(e);
        if (joints) {  /* the joints' rows work on e->vel: copied there and back around them */
            imp_e3_joints_warm(w, e);
            to_padded(w, e);
        }
        imp_e3_soft_blocks_warm(sf, simd);
        for (int it = 0; it < sd->iterations; it++) {
            imp_e3_soft_impact_pass(sf, &soft, &stiff, hs, sd->push_max, sd->restitution_threshold, 1, simd);
            imp_e3_soft_blocks_pass(sf, &soft, &stiff, hs, sd->push_max, 1, 0, simd);
            imp_e3_soft_impact_release(sf, &soft, &stiff);
            if (joints) {
                from_padded(w, e);
                imp_e3_soft_joints_pass(w, e, &jsoft, hs, 1);
                to_padded(w, e);
            }
        }
        t = imp_profile_add(&w->data.profile, IMP_STAGE_CONTACT_SOLVE, t);
        integrate_positions(w, e, hs);
        t = imp_profile_add(&w->data.profile, IMP_STAGE_INTEGRATE, t);
        for (int it = 0; it < sd->relax_iterations; it++) {
            /* the last adds the sub-step's sums, and in the last sub-step stores the rows */
            int sum = it < sd->relax_iterations - 1 ? 0 : i < k - 1 ? 1 : 2;
            imp_e3_soft_impact_pass(sf, &soft, &stiff, hs, sd->push_max, sd->restitution_threshold, 0, simd);
            imp_e3_soft_blocks_pass(sf, &soft, &stiff, hs, sd->push_max, 0, sum, simd);
            imp_e3_soft_impact_release(sf, &soft, &stiff);
            if (joints) {
                from_padded(w, e);
                imp_e3_soft_joints_pass(w, e, &jsoft, hs, 0);
                to_padded(w, e);
            }
        }
        imp_e3_soft_joints_store(e, hs);
        if (!lazy || i == k - 1) {
            store_velocities(w, e);
        }
        if (sd->relax_iterations <= 0) {
            imp_e3_soft_blocks_sum(sf);
        }
        e->stats.sweeps += sd->iterations + sd->relax_iterations;
        t = imp_profile_add(&w->data.profile, IMP_STAGE_CONTACT_SOLVE, t);
    }
    e->mv = NULL;
    if (sd->relax_iterations <= 0) {
        imp_e3_soft_blocks_store(sf);
    }
    /* the residual when asked (imp_e3_soft_error), from the rows and velocities as they are
       now, unless the restitution pass changes them: then now */
    sf->error_pending = 1;
    sf->error_inv_hs = inv_hs;
    if (impact_points(w, e, n, sd->restitution_threshold, hs, k)) {
        e->stats.last_error = residual(e, inv_hs);
        sf->error_pending = 0;
        restitution_pass(w, e, elastic);
        store_took_velocities(w, e);
    }
    e->stats.solves++;
    finish_points(e);
    imp_e3_recycle_end(&sf->rc);
    e->h_last = h;
    e->now = t0;
    imp_engine3d_finish(w, e);  /* events; this step's points become the last ones */
    imp_profile_add(&w->data.profile, IMP_STAGE_CONTACTS, t);
    e->stats.steps++;
    sf->error_step = e->stats.steps;
    if (imp_e3_sleep_end(w, e, h) != IMP_OK) {
        snprintf(why, why_len, "out of memory for the 3D engine's islands");
        return IMP_ERR_NOMEM;
    }
    return IMP_OK;
}
