/* engine2d_soft_lane.h: the soft passes' arithmetic on one row of a lane and one block's rows,
   written once for the double blocks (engine2d_soft_blocks.c: 4 lanes, __m256d) and the float
   ones (engine2d_soft_f8.c: 8 lanes, __m256). No include guard: included once per kind after
   defining
     SL_T      the scalar type (double, float)     SL_B     the block type (fields as soft_block)
     SL_NAME   a name's suffix for this kind
   and, where the AVX2 path is compiled (SL_AVX2 1):
     SL_V      the vector type                      SL_LD, SL_ST, SL_SPLAT, SL_ZERO
     SL_ADD, SL_SUB, SL_MUL, SL_NEG, SL_PICK (a where m, else b), SL_LT, SL_GT
   The operations are the same, in the same order, on both paths and in both kinds: the AVX2
   path gives the portable path's results bit for bit (no fused multiply-add). */

#define SL_CAT2(a, b) a##_##b
#define SL_CAT(a, b) SL_CAT2(a, b)
#define SL_FN(x) SL_CAT(x, SL_NAME)

/* lane l's velocities v (p's then q's) back into vel (SOFT_SV values a slot), of the bodies
   that move */
static inline void SL_FN(lane_store)(const SL_B *b, int l, SL_T *vel, const SL_T *v)
{
    if (b->qm >> l & 1) {
        SL_T *vq = vel + SOFT_SV * b->q[l];
        vq[0] = v[3], vq[1] = v[4], vq[2] = v[5];
    }
    if (b->pm >> l & 1) {
        SL_T *vp = vel + SOFT_SV * b->p[l];
        vp[0] = v[0], vp[1] = v[1], vp[2] = v[2];
    }
}

/* The normal then the tangent row k of lane l, the portable way (the lane's velocities in
   v[0 .. 5]: p's then q's; x: p's less q's displacement, p's and q's angles; m: p's mass and
   inertia, q's; br, ms, is: its softness' bias rate, mass and impulse scales) */
static inline void SL_FN(lane_row)(SL_B *b, int l, int k, SL_T *v, const SL_T *x, const SL_T *m, SL_T br, SL_T ms_s,
                                   SL_T is_s, SL_T inv_h, int use_bias, SL_T push_max, int sum, int track)
{
    SL_T n0 = b->n0[l], n1 = b->n1[l], rpn = b->rpn[k][l], rqn = b->rqn[k][l];
    SL_T vn = n0 * (v[0] - v[3]) + n1 * (v[1] - v[4]) + rpn * v[2] - rqn * v[5];
    SL_T c = b->c0[k][l] + n0 * x[0] + n1 * x[1] + rpn * x[2] - rqn * x[3];
    SL_T bias = 0, ms = 1, is = 0;
    if (c > 0) {
        bias = c * inv_h;
    } else if (use_bias) {
        bias = br * c;
        if (bias < -push_max) {
            bias = -push_max;
        }
        ms = ms_s;
        is = is_s;
    }
    SL_T f0 = b->fn[k][l];
    SL_T f = f0 - b->mass_n[k][l] * ms * (vn + bias) - is * f0;
    if (f < 0) {
        f = 0;
    }
    SL_T df = f - f0;
    b->fn[k][l] = f;
    if (track) {
        b->fn_max[k][l] = f > b->fn_max[k][l] ? f : b->fn_max[k][l];
    }
    SL_T mp = m[0], ip = m[1], mq = m[2], iq = m[3];
    v[0] += mp * n0 * df;
    v[1] += mp * n1 * df;
    v[2] += ip * rpn * df;
    v[3] -= mq * n0 * df;
    v[4] -= mq * n1 * df;
    v[5] -= iq * rqn * df;
    SL_T rpt = b->rpt[k][l], rqt = b->rqt[k][l];
    SL_T vt = -n1 * (v[0] - v[3]) + n0 * (v[1] - v[4]) + rpt * v[2] - rqt * v[5];
    SL_T lim = b->mu[l] * f, t0 = b->ft[k][l];
    SL_T t = t0 - b->mass_t[k][l] * vt;
    t = t > lim ? lim : t < -lim ? -lim : t;
    SL_T dt = t - t0;
    b->ft[k][l] = t;
    if (sum) {
        b->fn_sum[k][l] += f;
        b->ft_sum[k][l] += t;
    }
    v[0] -= mp * n1 * dt;
    v[1] += mp * n0 * dt;
    v[2] += ip * rpt * dt;
    v[3] += mq * n1 * dt;
    v[4] -= mq * n0 * dt;
    v[5] -= iq * rqt * dt;
}

/* the warm start of lane l: its rows' impulses applied again (v and m as in lane_row) */
static inline void SL_FN(lane_warm)(const SL_B *b, int l, SL_T *v, const SL_T *m)
{
    SL_T n0 = b->n0[l], n1 = b->n1[l], mp = m[0], ip = m[1], mq = m[2], iq = m[3];
    for (int k = 0; k < 2; k++) {
        SL_T fn = b->fn[k][l], ft = b->ft[k][l];
        SL_T px = n0 * fn - n1 * ft, py = n1 * fn + n0 * ft;
        v[0] += mp * px;
        v[1] += mp * py;
        v[2] += ip * (b->rpn[k][l] * fn + b->rpt[k][l] * ft);
        v[3] -= mq * px;
        v[4] -= mq * py;
        v[5] -= iq * (b->rqn[k][l] * fn + b->rqt[k][l] * ft);
    }
}

#if SL_AVX2
/* row k's separation in the lanes, x their displacements (x[0], x[1]: p's less q's; x[2],
   x[3]: p's and q's angles) */
static inline __attribute__((always_inline)) AVX2 SL_V SL_FN(block_gap)(const SL_B *b, int k, const SL_V *x)
{
    SL_V n0 = SL_LD(b->n0), n1 = SL_LD(b->n1), rpn = SL_LD(b->rpn[k]), rqn = SL_LD(b->rqn[k]);
    return SL_SUB(SL_ADD(SL_ADD(SL_ADD(SL_LD(b->c0[k]), SL_MUL(n0, x[0])), SL_MUL(n1, x[1])), SL_MUL(rpn, x[2])),
                  SL_MUL(rqn, x[3]));
}

/* lane_row over the lanes at once, v[0 .. 5] the lanes' velocities, c the row's separation
   (block_gap), m the lanes' masses, so their softness (bias rate, mass and impulse scales) */
static inline __attribute__((always_inline)) AVX2 void SL_FN(block_row)(SL_B *b, int k, SL_V *v, SL_V c, const SL_V *m,
                                                                        const SL_V *so, SL_V inv_h, int use_bias,
                                                                        SL_V push_max, int sum, int track)
{
    const SL_V zero = SL_ZERO();
    SL_V n0 = SL_LD(b->n0), n1 = SL_LD(b->n1), rpn = SL_LD(b->rpn[k]), rqn = SL_LD(b->rqn[k]);
    SL_V vn = SL_SUB(SL_ADD(SL_ADD(SL_MUL(n0, SL_SUB(v[0], v[3])), SL_MUL(n1, SL_SUB(v[1], v[4]))), SL_MUL(rpn, v[2])),
                     SL_MUL(rqn, v[5]));
    SL_V spec = SL_GT(c, zero);
    SL_V bias, ms, is;
    if (use_bias) {
        SL_V soft = SL_MUL(so[0], c);
        soft = SL_PICK(SL_LT(soft, SL_NEG(push_max)), SL_NEG(push_max), soft);
        bias = SL_PICK(spec, SL_MUL(c, inv_h), soft);
        ms = SL_PICK(spec, SL_SPLAT(1), so[1]);
        is = SL_PICK(spec, zero, so[2]);
    } else {
        bias = SL_PICK(spec, SL_MUL(c, inv_h), zero);
        ms = SL_SPLAT(1);
        is = zero;
    }
    SL_V f0 = SL_LD(b->fn[k]);
    SL_V f = SL_SUB(SL_SUB(f0, SL_MUL(SL_MUL(SL_LD(b->mass_n[k]), ms), SL_ADD(vn, bias))), SL_MUL(is, f0));
    f = SL_PICK(SL_LT(f, zero), zero, f);
    SL_V df = SL_SUB(f, f0);
    SL_ST(b->fn[k], f);
    if (track) {
        SL_V fmax = SL_LD(b->fn_max[k]);
        SL_ST(b->fn_max[k], SL_PICK(SL_GT(f, fmax), f, fmax));
    }
    SL_V mp = m[0], ip = m[1], mq = m[2], iq = m[3];
    v[0] = SL_ADD(v[0], SL_MUL(SL_MUL(mp, n0), df));
    v[1] = SL_ADD(v[1], SL_MUL(SL_MUL(mp, n1), df));
    v[2] = SL_ADD(v[2], SL_MUL(SL_MUL(ip, rpn), df));
    v[3] = SL_SUB(v[3], SL_MUL(SL_MUL(mq, n0), df));
    v[4] = SL_SUB(v[4], SL_MUL(SL_MUL(mq, n1), df));
    v[5] = SL_SUB(v[5], SL_MUL(SL_MUL(iq, rqn), df));
    SL_V rpt = SL_LD(b->rpt[k]), rqt = SL_LD(b->rqt[k]);
    SL_V vt = SL_SUB(
        SL_ADD(SL_ADD(SL_MUL(SL_NEG(n1), SL_SUB(v[0], v[3])), SL_MUL(n0, SL_SUB(v[1], v[4]))), SL_MUL(rpt, v[2])),
        SL_MUL(rqt, v[5]));
    SL_V lim = SL_MUL(SL_LD(b->mu), f), t0 = SL_LD(b->ft[k]);
    SL_V t = SL_SUB(t0, SL_MUL(SL_LD(b->mass_t[k]), vt));
    t = SL_PICK(SL_GT(t, lim), lim, SL_PICK(SL_LT(t, SL_NEG(lim)), SL_NEG(lim), t));
    SL_V dt = SL_SUB(t, t0);
    SL_ST(b->ft[k], t);
    if (sum) {
        SL_ST(b->fn_sum[k], SL_ADD(SL_LD(b->fn_sum[k]), f));
        SL_ST(b->ft_sum[k], SL_ADD(SL_LD(b->ft_sum[k]), t));
    }
    v[0] = SL_SUB(v[0], SL_MUL(SL_MUL(mp, n1), dt));
    v[1] = SL_ADD(v[1], SL_MUL(SL_MUL(mp, n0), dt));
    v[2] = SL_ADD(v[2], SL_MUL(SL_MUL(ip, rpt), dt));
    v[3] = SL_ADD(v[3], SL_MUL(SL_MUL(mq, n1), dt));
    v[4] = SL_SUB(v[4], SL_MUL(SL_MUL(mq, n0), dt));
    v[5] = SL_SUB(v[5], SL_MUL(SL_MUL(iq, rqt), dt));
}

/* lane_warm over the lanes at once */
static inline __attribute__((always_inline)) AVX2 void SL_FN(block_warm)(const SL_B *b, SL_V *v, const SL_V *m)
{
    SL_V n0 = SL_LD(b->n0), n1 = SL_LD(b->n1), mp = m[0], ip = m[1], mq = m[2], iq = m[3];
    for (int k = 0; k < 2; k++) {
        SL_V fn = SL_LD(b->fn[k]), ft = SL_LD(b->ft[k]);
        SL_V px = SL_SUB(SL_MUL(n0, fn), SL_MUL(n1, ft)), py = SL_ADD(SL_MUL(n1, fn), SL_MUL(n0, ft));
        v[0] = SL_ADD(v[0], SL_MUL(mp, px));
        v[1] = SL_ADD(v[1], SL_MUL(mp, py));
        v[2] = SL_ADD(v[2], SL_MUL(ip, SL_ADD(SL_MUL(SL_LD(b->rpn[k]), fn), SL_MUL(SL_LD(b->rpt[k]), ft))));
        v[3] = SL_SUB(v[3], SL_MUL(mq, px));
        v[4] = SL_SUB(v[4], SL_MUL(mq, py));
        v[5] = SL_SUB(v[5], SL_MUL(iq, SL_ADD(SL_MUL(SL_LD(b->rqn[k]), fn), SL_MUL(SL_LD(b->rqt[k]), ft))));
    }
}
#endif

#undef SL_FN
#undef SL_CAT
#undef SL_CAT2
