/* engine2d_soft_move.c: the soft step's records moved with their bodies four at a time
   (AVX2), one record per lane: imp_e2_move_record's operations (engine2d_move.h) in the same
   order, element by element (no fused multiply-add: IEEE addition, multiplication and
   negation give the same bits packed or not), so the results are those of
   imp_engine2d_move_record bit for bit. Only straight-edged body-pair records (not curved,
   no connector): the caller moves the others one by one. */
#include "engine2d_soft_internal.h"

#include "engine2d.h"
#include "engine2d_move.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include "avx2.h"

/* the double at byte offset off of each of the four records, lane l from r[l] */
static inline AVX2 v4 field(imp_rec2d *const *r, size_t off)
{
    const char *b0 = (const char *)r[0], *b1 = (const char *)r[1];
    const char *b2 = (const char *)r[2], *b3 = (const char *)r[3];
    return _mm256_set_pd(*(const double *)(b3 + off), *(const double *)(b2 + off), *(const double *)(b1 + off),
                         *(const double *)(b0 + off));
}

/* the double k of each lane's slot row (stride doubles per slot), lane l at slot s[l] */
static inline AVX2 v4 slot_field(const double *base, const int *s, int stride, int k)
{
    return _mm256_set_pd(base[(size_t)s[3] * stride + k], base[(size_t)s[2] * stride + k],
                         base[(size_t)s[1] * stride + k], base[(size_t)s[0] * stride + k]);
}

/* stores lane l of a and b as the two consecutive doubles at byte offset off of r[l] */
static inline AVX2 void store_pair(imp_rec2d *const *r, size_t off, v4 a, v4 b)
{
    v4 lo = _mm256_unpacklo_pd(a, b), hi = _mm256_unpackhi_pd(a, b);  /* (a0 b0 a2 b2), (a1 b1 a3 b3) */
    _mm_storeu_pd((double *)((char *)r[0] + off), _mm256_castpd256_pd128(lo));
    _mm_storeu_pd((double *)((char *)r[1] + off), _mm256_castpd256_pd128(hi));
    _mm_storeu_pd((double *)((char *)r[2] + off), _mm256_extractf128_pd(lo, 1));
    _mm_storeu_pd((double *)((char *)r[3] + off), _mm256_extractf128_pd(hi, 1));
}

#define OFF(f) offsetof(imp_rec2d, f)

AVX2 void imp_e2_soft_move4(const double *y, const double *cs, imp_rec2d *const *r)
{
    const v4 sign = _mm256_set1_pd(-0.0);
    int sp_[4] = {r[0]->p, r[1]->p, r[2]->p, r[3]->p}, sq_[4] = {r[0]->q, r[1]->q, r[2]->q, r[3]->q};
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
}
#else
void imp_e2_soft_move4(const double *y, const double *cs, imp_rec2d *const *r)
{
    for (int l = 0; l < 4; l++) {
        imp_engine2d_move_record(y, cs, r[l]);
    }
}
#endif
