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
#include "engine2d_soft_move4.h"

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

/* the rows o shaped from their records r moved as m */
static inline AVX2 void shape4(char *const *r, soft_row *const *o, const soft_moved4 *m)
{
    const v4 zero = _mm256_setzero_pd();
    v4 flip = _mm256_castsi256_pd(_mm256_set_epi64x(-(long long)(o[3]->flip != 0), -(long long)(o[2]->flip != 0),
                                                    -(long long)(o[1]->flip != 0), -(long long)(o[0]->flip != 0)));
    char *const ob[4] = {(char *)o[0], (char *)o[1], (char *)o[2], (char *)o[3]};
    v4 mu = field(r, OFF(friction));
    soft_shape4 sh;
    imp_e2_soft_shape4_lanes(m, flip, field(ob, ROFF(mp)), field(ob, ROFF(ip)), field(ob, ROFF(mq)),
                             field(ob, ROFF(iq)), mu, &sh);
    store_pair(ob, ROFF(n0), sh.n0, sh.n1);
    store_pair(ob, ROFF(rpn), sh.rpn, sh.rqn);
    store_pair(ob, ROFF(rpt), sh.rpt, sh.rqt);
    store_pair(ob, ROFF(mass_n), sh.mass_n, sh.mass_t);
    store_pair(ob, ROFF(c0), m->dist, m->vel);
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
    const v4 st[7] = {field(r, OFF(u1[0])), field(r, OFF(u1[1])), field(r, OFF(u2[0])), field(r, OFF(u2[1])),
                      field(r, OFF(normal[0])), field(r, OFF(normal[1])), field(r, OFF(distance))};
    const v4 lu[8] = {field(r, OFF(lu1[0])), field(r, OFF(lu1[1])), field(r, OFF(lu2[0])), field(r, OFF(lu2[1])),
                      field(r, OFF(lpoint[0])), field(r, OFF(lpoint[1])), field(r, OFF(lnormal[0])),
                      field(r, OFF(lnormal[1]))};
    soft_moved4 m;
    imp_e2_soft_move4_lanes(y, cs, sp_, sq_, st, lu, &m);
    store_pair(r, OFF(u1), m.u1[0], m.u1[1]);
    store_pair(r, OFF(u2), m.u2[0], m.u2[1]);
    store_pair(r, OFF(normal), m.n[0], m.n[1]);
    store_pair(r, OFF(distance), m.dist, m.vel); /* (distance, velocity) */
    store_pair(r, OFF(point), m.pt[0], m.pt[1]);
    store_pair(r, OFF(jp[0]), m.n[0], m.n[1]);
    store_pair(r, OFF(jp[2]), m.jp2, _mm256_xor_pd(m.n[0], sign)); /* (jp[2], jq[0]) */
    store_pair(r, OFF(jq[1]), _mm256_xor_pd(m.n[1], sign), m.jq2);
    if (o != NULL) {
        shape4(r, o, &m);
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
