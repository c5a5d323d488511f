/* engine2d_soft_move.c: the soft step's records moved with their bodies four at a time
   (AVX2), one record per lane, and their contact rows shaped for the next step: the
   operations of imp_e2_move_record (engine2d_move.h) and imp_e2_soft_row_shape
   (engine2d_soft_internal.h) in the same order, element by element (no fused multiply-add:
   IEEE addition, subtraction, multiplication, division, negation and comparisons give the
   same bits packed or not), so the results are theirs bit for bit. Only straight-edged
   body-pair records (not curved, no connector) with contact rows: the caller moves the
   others one by one. */
#include "engine2d_soft_internal.h"

#include "engine2d.h"
#include "engine2d_move.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include "avx2.h"

/* the double field at byte offset off of b (a record or a row) */
static inline double *dbl(char *b, size_t off)
{
    // cppcheck-suppress invalidPointerCast
    return (double *)(b + off);
}

/* the double at byte offset off of each of four records (or rows) b, lane l from b[l] */
static inline AVX2 v4 field(char *const *b, size_t off)
{
    return _mm256_set_pd(*dbl(b[3], off), *dbl(b[2], off), *dbl(b[1], off), *dbl(b[0], off));
}

/* the double k of each lane's slot row (stride doubles per slot), lane l at slot s[l] */
static inline AVX2 v4 slot_field(const double *base, const int *s, int stride, int k)
{
    return _mm256_set_pd(base[(size_t)s[3] * stride + k], base[(size_t)s[2] * stride + k],
                         base[(size_t)s[1] * stride + k], base[(size_t)s[0] * stride + k]);
}

/* stores lane l of a and c as the two consecutive doubles at byte offset off of b[l] */
static inline AVX2 void store_pair(char *const *b, size_t off, v4 a, v4 c)
{
    v4 lo = _mm256_unpacklo_pd(a, c), hi = _mm256_unpackhi_pd(a, c);  /* (a0 c0 a2 c2), (a1 c1 a3 c3) */
    _mm_storeu_pd(dbl(b[0], off), _mm256_castpd256_pd128(lo));
    _mm_storeu_pd(dbl(b[1], off), _mm256_castpd256_pd128(hi));
    _mm_storeu_pd(dbl(b[2], off), _mm256_extractf128_pd(lo, 1));
    _mm_storeu_pd(dbl(b[3], off), _mm256_extractf128_pd(hi, 1));
}

#define OFF(f) offsetof(imp_rec2d, f)
#define ROFF(f) offsetof(soft_row, f)

/* a where the lane's m is set, else b */
static inline AVX2 v4 pick(v4 m, v4 a, v4 b) { return _mm256_blendv_pd(b, a, m); }

/* the rows' shape (imp_e2_soft_row_shape) from their records' normal m, Jacobians' angular
   parts jp2, jq2, lever arms rp, rq (from the records' p and q to the point), distance and
   velocity */
static inline AVX2 void shape4(char *const *r, soft_row *const *o, v4 m0, v4 m1, v4 jp2, v4 jq2, const v4 *rp,
                               const v4 *rq, v4 dist, v4 vel)
{
    const v4 sign = _mm256_set1_pd(-0.0), zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
    v4 flip = _mm256_castsi256_pd(_mm256_set_epi64x(-(long long)(o[3]->flip != 0), -(long long)(o[2]->flip != 0),
                                                    -(long long)(o[1]->flip != 0), -(long long)(o[0]->flip != 0)));
    char *const ob[4] = {(char *)o[0], (char *)o[1], (char *)o[2], (char *)o[3]};
    v4 sg = pick(flip, _mm256_set1_pd(-1.0), one);
    v4 n0 = mul(sg, m0), n1 = mul(sg, m1);
    v4 rpn = pick(flip, jq2, jp2), rqn = pick(flip, _mm256_xor_pd(jp2, sign), _mm256_xor_pd(jq2, sign));
    v4 mp = field(ob, ROFF(mp)), mq = field(ob, ROFF(mq));
    v4 ip = field(ob, ROFF(ip)), iq = field(ob, ROFF(iq));
    v4 kn = add(add(mul(add(mp, mq), add(mul(n0, n0), mul(n1, n1))), mul(mul(ip, rpn), rpn)), mul(mul(iq, rqn), rqn));
    v4 mass_n = pick(_mm256_cmp_pd(kn, zero, _CMP_GT_OQ), _mm256_div_pd(one, kn), zero);
    v4 mu = field(r, OFF(friction));
    v4 fr = _mm256_cmp_pd(mu, zero, _CMP_GT_OQ);
    /* the row's p is the record's q when turned */
    v4 ap0 = pick(flip, rq[0], rp[0]), ap1 = pick(flip, rq[1], rp[1]);
    v4 aq0 = pick(flip, rp[0], rq[0]), aq1 = pick(flip, rp[1], rq[1]);
    v4 t0 = _mm256_xor_pd(n1, sign), t1 = n0;
    v4 rpt = sub(mul(ap0, t1), mul(ap1, t0)), rqt = sub(mul(aq0, t1), mul(aq1, t0));
    v4 kt = add(add(add(mp, mq), mul(mul(ip, rpt), rpt)), mul(mul(iq, rqt), rqt));
    v4 mass_t = pick(fr, pick(_mm256_cmp_pd(kt, zero, _CMP_GT_OQ), _mm256_div_pd(one, kt), zero), zero);
    rpt = pick(fr, rpt, zero);
    rqt = pick(fr, rqt, zero);
    store_pair(ob, ROFF(n0), n0, n1);
    store_pair(ob, ROFF(rpn), rpn, rqn);
    store_pair(ob, ROFF(rpt), rpt, rqt);
    store_pair(ob, ROFF(mass_n), mass_n, mass_t);
    store_pair(ob, ROFF(c0), dist, vel);
    store_pair(ob, ROFF(mu), mu, field(r, OFF(elasticity)));
    store_pair(ob, ROFF(fn_sum), zero, zero);
    for (int l = 0; l < 4; l++) {
        o[l]->fn_max = 0.0;
    }
}

AVX2 void imp_e2_soft_move4(const double *y, const double *cs, imp_rec2d *const *rec, soft_row *const *o)
{
    imp_rec2d *const *rr = rec;
    char *const r[4] = {(char *)rec[0], (char *)rec[1], (char *)rec[2], (char *)rec[3]};
    const v4 sign = _mm256_set1_pd(-0.0);
    int sp_[4] = {rr[0]->p, rr[1]->p, rr[2]->p, rr[3]->p}, sq_[4] = {rr[0]->q, rr[1]->q, rr[2]->q, rr[3]->q};
    v4 yp0 = slot_field(y, sp_, IMP_STRIDE_2D, 0), yp1 = slot_field(y, sp_, IMP_STRIDE_2D, 1);
    v4 yq0 = slot_field(y, sq_, IMP_STRIDE_2D, 0), yq1 = slot_field(y, sq_, IMP_STRIDE_2D, 1);
    v4 cp = slot_field(cs, sp_, 2, 0), sp = slot_field(cs, sp_, 2, 1);
    v4 c = slot_field(cs, sq_, 2, 0), sn = slot_field(cs, sq_, 2, 1);
    v4 n0 = field(r, OFF(normal[0])), n1 = field(r, OFF(normal[1]));
    v4 old_u1u2 = add(mul(n0, sub(field(r, OFF(u1[0])), field(r, OFF(u2[0])))),
                      mul(n1, sub(field(r, OFF(u1[1])), field(r, OFF(u2[1])))));
    v4 gap0 = sub(field(r, OFF(distance)), old_u1u2);
    v4 lu10 = field(r, OFF(lu1[0])), lu11 = field(r, OFF(lu1[1]));
    v4 lu20 = field(r, OFF(lu2[0])), lu21 = field(r, OFF(lu2[1]));
    v4 u10 = sub(add(yp0, mul(cp, lu10)), mul(sp, lu11)), u11 = add(add(yp1, mul(sp, lu10)), mul(cp, lu11));
    v4 u20 = sub(add(yq0, mul(c, lu20)), mul(sn, lu21)), u21 = add(add(yq1, mul(sn, lu20)), mul(c, lu21));
    v4 ln0 = field(r, OFF(lnormal[0])), ln1 = field(r, OFF(lnormal[1]));
    v4 m0 = sub(mul(c, ln0), mul(sn, ln1)), m1 = add(mul(sn, ln0), mul(c, ln1));
    v4 along = add(mul(m0, sub(u10, u20)), mul(m1, sub(u11, u21)));
    v4 lp0 = field(r, OFF(lpoint[0])), lp1 = field(r, OFF(lpoint[1]));
    v4 pq0 = sub(add(yq0, mul(c, lp0)), mul(sn, lp1)), pq1 = add(add(yq1, mul(sn, lp0)), mul(c, lp1));
    v4 t0 = _mm256_xor_pd(m1, sign), t1 = m0;
    v4 slide = add(mul(t0, sub(u10, pq0)), mul(t1, sub(u11, pq1)));
    v4 pt0 = add(pq0, mul(slide, t0)), pt1 = add(pq1, mul(slide, t1));
    /* the Jacobian rows and the normal velocity (imp_e2_jacobian_at) */
    v4 rp0 = sub(pt0, yp0), rp1 = sub(pt1, yp1), rq0 = sub(pt0, yq0), rq1 = sub(pt1, yq1);
    v4 jp2 = sub(mul(rp0, m1), mul(rp1, m0));
    v4 jq2 = _mm256_xor_pd(sub(mul(rq0, m1), mul(rq1, m0)), sign);
    v4 vp3 = slot_field(y, sp_, IMP_STRIDE_2D, 3), vp4 = slot_field(y, sp_, IMP_STRIDE_2D, 4);
    v4 vp5 = slot_field(y, sp_, IMP_STRIDE_2D, 5);
    v4 vq3 = slot_field(y, sq_, IMP_STRIDE_2D, 3), vq4 = slot_field(y, sq_, IMP_STRIDE_2D, 4);
    v4 vq5 = slot_field(y, sq_, IMP_STRIDE_2D, 5);
    v4 velp = add(mul(sub(vp3, mul(vp5, rp1)), m0), mul(add(vp4, mul(vp5, rp0)), m1));
    v4 velq = add(mul(sub(vq3, mul(vq5, rq1)), m0), mul(add(vq4, mul(vq5, rq0)), m1));
    store_pair(r, OFF(u1), u10, u11);
    store_pair(r, OFF(u2), u20, u21);
    store_pair(r, OFF(normal), m0, m1);
    store_pair(r, OFF(distance), add(along, gap0), sub(velp, velq)); /* (distance, velocity) */
    store_pair(r, OFF(point), pt0, pt1);
    store_pair(r, OFF(jp[0]), m0, m1);
    store_pair(r, OFF(jp[2]), jp2, _mm256_xor_pd(m0, sign)); /* (jp[2], jq[0]) */
    store_pair(r, OFF(jq[1]), _mm256_xor_pd(m1, sign), jq2);
    if (o != NULL) {
        const v4 rp[2] = {rp0, rp1}, rq[2] = {rq0, rq1};
        shape4(r, o, m0, m1, jp2, jq2, rp, rq, add(along, gap0), sub(velp, velq));
    }
}
#else
void imp_e2_soft_move4(const double *y, const double *cs, imp_rec2d *const *r, soft_row *const *o)
{
    for (int l = 0; l < 4; l++) {
        imp_engine2d_move_record(y, cs, r[l]);
        if (o != NULL) {
            imp_e2_soft_row_shape(o[l], r[l], y);
        }
    }
}
#endif
