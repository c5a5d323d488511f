/* engine2d_soft_move4.h: four body-pair records moved with their bodies and their contact rows
   shaped, one record per AVX2 lane: the operations of imp_e2_move_record (engine2d_move.h)
   and imp_e2_soft_row_shape (engine2d_soft_internal.h) in the same order, element by element
   (no fused multiply-add), so the results are theirs bit for bit. Shared by the step's end
   over the records (engine2d_soft_move.c) and over the lean records (engine2d_soft_lean.c),
   which read and write the lanes each its own way. Include only where avx2.h may be. */
#ifndef IMPACT_ENGINE2D_SOFT_MOVE4_H
#define IMPACT_ENGINE2D_SOFT_MOVE4_H

#include "avx2.h"
#include "engine2d.h"

/* the double k of each lane's slot row (stride doubles per slot), lane l at slot s[l] */
static inline AVX2 v4 imp_e2_slot_field(const double *base, const int *s, int stride, int k)
{
    return _mm256_set_pd(base[(size_t)s[3] * stride + k], base[(size_t)s[2] * stride + k],
                         base[(size_t)s[1] * stride + k], base[(size_t)s[0] * stride + k]);
}

/* a where the lane's m is set, else b */
static inline AVX2 v4 imp_e2_pick(v4 m, v4 a, v4 b) { return _mm256_blendv_pd(b, a, m); }

/* four records moved: their world points u1, u2, normal n, distance, velocity, impact point
   pt, lever arms rp, rq from their p and q to it, and their Jacobians' angular parts */
typedef struct soft_moved4 {
    v4 u1[2], u2[2], n[2], dist, vel, pt[2], rp[2], rq[2], jp2, jq2;
} soft_moved4;

/* Records of slots sp, sq moved to y (cs: the cosines and sines of the angles at y, 2 a slot)
   from their state st (u1 x, y, u2 x, y, normal x, y, distance) and body-frame copies lu (lu1
   x, y, lu2 x, y, lpoint x, y, lnormal x, y): imp_e2_move_record and imp_e2_jacobian_at. */
static inline AVX2 void imp_e2_soft_move4_lanes(const double *y, const double *cs, const int *sp_, const int *sq_,
                                                const v4 *st, const v4 *lu, soft_moved4 *o)
{
    const v4 sign = _mm256_set1_pd(-0.0);
    v4 yp0 = imp_e2_slot_field(y, sp_, IMP_STRIDE_2D, 0), yp1 = imp_e2_slot_field(y, sp_, IMP_STRIDE_2D, 1);
    v4 yq0 = imp_e2_slot_field(y, sq_, IMP_STRIDE_2D, 0), yq1 = imp_e2_slot_field(y, sq_, IMP_STRIDE_2D, 1);
    v4 cp = imp_e2_slot_field(cs, sp_, 2, 0), sp = imp_e2_slot_field(cs, sp_, 2, 1);
    v4 c = imp_e2_slot_field(cs, sq_, 2, 0), sn = imp_e2_slot_field(cs, sq_, 2, 1);
    v4 old_u1u2 = add(mul(st[4], sub(st[0], st[2])), mul(st[5], sub(st[1], st[3])));
    v4 gap0 = sub(st[6], old_u1u2);
    v4 u10 = sub(add(yp0, mul(cp, lu[0])), mul(sp, lu[1])), u11 = add(add(yp1, mul(sp, lu[0])), mul(cp, lu[1]));
    v4 u20 = sub(add(yq0, mul(c, lu[2])), mul(sn, lu[3])), u21 = add(add(yq1, mul(sn, lu[2])), mul(c, lu[3]));
    v4 m0 = sub(mul(c, lu[6]), mul(sn, lu[7])), m1 = add(mul(sn, lu[6]), mul(c, lu[7]));
    v4 along = add(mul(m0, sub(u10, u20)), mul(m1, sub(u11, u21)));
    v4 pq0 = sub(add(yq0, mul(c, lu[4])), mul(sn, lu[5])), pq1 = add(add(yq1, mul(sn, lu[4])), mul(c, lu[5]));
    v4 t0 = _mm256_xor_pd(m1, sign), t1 = m0;
    v4 slide = add(mul(t0, sub(u10, pq0)), mul(t1, sub(u11, pq1)));
    v4 pt0 = add(pq0, mul(slide, t0)), pt1 = add(pq1, mul(slide, t1));
    /* the Jacobian rows and the normal velocity (imp_e2_jacobian_at) */
    v4 rp0 = sub(pt0, yp0), rp1 = sub(pt1, yp1), rq0 = sub(pt0, yq0), rq1 = sub(pt1, yq1);
    v4 vp3 = imp_e2_slot_field(y, sp_, IMP_STRIDE_2D, 3), vp4 = imp_e2_slot_field(y, sp_, IMP_STRIDE_2D, 4);
    v4 vp5 = imp_e2_slot_field(y, sp_, IMP_STRIDE_2D, 5);
    v4 vq3 = imp_e2_slot_field(y, sq_, IMP_STRIDE_2D, 3), vq4 = imp_e2_slot_field(y, sq_, IMP_STRIDE_2D, 4);
    v4 vq5 = imp_e2_slot_field(y, sq_, IMP_STRIDE_2D, 5);
    v4 velp = add(mul(sub(vp3, mul(vp5, rp1)), m0), mul(add(vp4, mul(vp5, rp0)), m1));
    v4 velq = add(mul(sub(vq3, mul(vq5, rq1)), m0), mul(add(vq4, mul(vq5, rq0)), m1));
    o->u1[0] = u10, o->u1[1] = u11, o->u2[0] = u20, o->u2[1] = u21;
    o->n[0] = m0, o->n[1] = m1;
    o->dist = add(along, gap0);
    o->vel = sub(velp, velq);
    o->pt[0] = pt0, o->pt[1] = pt1;
    o->rp[0] = rp0, o->rp[1] = rp1, o->rq[0] = rq0, o->rq[1] = rq1;
    o->jp2 = sub(mul(rp0, m1), mul(rp1, m0));
    o->jq2 = _mm256_xor_pd(sub(mul(rq0, m1), mul(rq1, m0)), sign);
}

/* four contact rows' shape (imp_e2_soft_row_shape, its sums aside) */
typedef struct soft_shape4 {
    v4 n0, n1, rpn, rqn, rpt, rqt, mass_n, mass_t;
} soft_shape4;

/* The rows of records moved as m shaped (flip: the lanes whose row is turned, its p the
   record's q; mp, ip, mq, iq: the rows' inverse masses and inertias; mu: the friction). */
static inline AVX2 void imp_e2_soft_shape4_lanes(const soft_moved4 *m, v4 flip, v4 mp, v4 ip, v4 mq, v4 iq, v4 mu,
                                                 soft_shape4 *o)
{
    const v4 sign = _mm256_set1_pd(-0.0), zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
    v4 sg = imp_e2_pick(flip, _mm256_set1_pd(-1.0), one);
    v4 n0 = mul(sg, m->n[0]), n1 = mul(sg, m->n[1]);
    v4 rpn = imp_e2_pick(flip, m->jq2, m->jp2);
    v4 rqn = imp_e2_pick(flip, _mm256_xor_pd(m->jp2, sign), _mm256_xor_pd(m->jq2, sign));
    v4 kn = add(add(mul(add(mp, mq), add(mul(n0, n0), mul(n1, n1))), mul(mul(ip, rpn), rpn)), mul(mul(iq, rqn), rqn));
    v4 fr = _mm256_cmp_pd(mu, zero, _CMP_GT_OQ);
    /* the row's p is the record's q when turned */
    v4 ap0 = imp_e2_pick(flip, m->rq[0], m->rp[0]), ap1 = imp_e2_pick(flip, m->rq[1], m->rp[1]);
    v4 aq0 = imp_e2_pick(flip, m->rp[0], m->rq[0]), aq1 = imp_e2_pick(flip, m->rp[1], m->rq[1]);
    v4 t0 = _mm256_xor_pd(n1, sign), t1 = n0;
    v4 rpt = sub(mul(ap0, t1), mul(ap1, t0)), rqt = sub(mul(aq0, t1), mul(aq1, t0));
    v4 kt = add(add(add(mp, mq), mul(mul(ip, rpt), rpt)), mul(mul(iq, rqt), rqt));
    o->n0 = n0, o->n1 = n1, o->rpn = rpn, o->rqn = rqn;
    o->mass_n = imp_e2_pick(_mm256_cmp_pd(kn, zero, _CMP_GT_OQ), _mm256_div_pd(one, kn), zero);
    o->mass_t = imp_e2_pick(fr, imp_e2_pick(_mm256_cmp_pd(kt, zero, _CMP_GT_OQ), _mm256_div_pd(one, kt), zero), zero);
    o->rpt = imp_e2_pick(fr, rpt, zero);
    o->rqt = imp_e2_pick(fr, rqt, zero);
}

#endif
