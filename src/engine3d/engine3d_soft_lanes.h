/* engine3d_soft_lanes.h: the soft blocks' pass kernels (a point's rows, the warm start, the
   lanes' velocities gathered and scattered) written once for a lane width. Only
   engine3d_soft_blocks.c includes it, twice: with LW 4 (one block, a 256-bit AVX2 register)
   and LW 8 (two blocks of one colour in a 512-bit AVX-512 register, the first block's four
   lanes low). Before each inclusion it defines, for its width W (4 or 8), the vector vW, the
   lane mask mW, the attribute KERNW and the operations below with their names ending in W:
   add sub mul div max min sqrt zero set fm (a b + c) fnm (c - a b) fms (a b - c), ld and st
   (a field's lanes of the first block and of the second: the 4-lane ones read and write the
   first only), ldf (ld's of a field in floats, each converted to double: exact), gt eq
   (masks), both (and), sel (m ? yes : no), keep (m ? x : +0), any, bits (a mask's lanes as
   bits: the first block's 0-3, the second's 4-7), lanes (the mask of the lanes whose bit is
   set in m0, the first block's, or m1, the second's),
   live (the lanes with point k), add_has (x + y in the lanes of the blocks that have point k;
   one block has it in every lane), moving (the lanes whose body moves), gather_lanes and
   scatter_lanes (4 doubles a slot into or out of components x, y, z, w).
   Each operation is the same IEEE operation in every lane whatever W, and the kernels are the
   portable lanes' (lane_point, lane_warm) in their order: every path gives the same bits.
   A 4-lane kernel is called with its block as both b0 and b1 (the second's fields unread). */

#define L_CAT2(a, b) a##b
#define L_CAT(a, b) L_CAT2(a, b)
#define L_(name) L_CAT(name, LW)

#define VT L_(v)
#define VM L_(m)
#define KERN L_(KERN)
#define vadd L_(add)
#define vsub L_(sub)
#define vmul L_(mul)
#define vdiv L_(div)
#define vmax L_(max)
#define vmin L_(min)
#define vsqrt L_(sqrt)
#define vzero L_(zero)
#define vset L_(set)
#define vfm L_(fm)
#define vfnm L_(fnm)
#define vfms L_(fms)
#define vld L_(ld)
#define vldf L_(ldf)
#define vst L_(st)
#define vgt L_(gt)
#define veq L_(eq)
#define vboth L_(both)
#define vsel L_(sel)
#define vkeep L_(keep)
#define vany L_(any)
#define vbits L_(bits)
#define vlanes L_(lanes)
#define vlive L_(live)
#define vadd_has L_(add_has)
#define vmoving L_(moving)
#define vgather L_(gather_lanes)
#define vscatter L_(scatter_lanes)

/* dot3's (x0 y0 + x1 y1) + x2 y2 fused */
KERN VT L_(dot)(const VT x[3], const VT y[3]) { return vfm(x[2], y[2], vfm(x[1], y[1], vmul(x[0], y[0]))); }

/* cross3's a x b */
KERN void L_(cross_lanes)(const VT a[3], const VT b[3], VT c[3])
{
    c[0] = vfms(a[1], b[2], vmul(a[2], b[1]));
    c[1] = vfms(a[2], b[0], vmul(a[0], b[2]));
    c[2] = vfms(a[0], b[1], vmul(a[1], b[0]));
}

/* turn3's I^-1 x from the lanes' inverse inertia (ia[j][i] = I[i][j]) */
KERN void L_(turn)(VT ia[3][3], const VT x[3], VT y[3])
{
#pragma GCC unroll 4
    for (int i = 0; i < 3; i++) {
        y[i] = vfm(ia[2][i], x[2], vfm(ia[1][i], x[1], vmul(ia[0][i], x[0])));
    }
}

/* One pass's state of the lanes: their velocities and (solve passes) motions since the step
   began, gathered from the slots, and their inverse inertias' columns (the blocks'); ga, gb,
   gc: the separation's terms of the lanes' frame (sep below) */
typedef struct L_(block) {
    VT va[4], wa[4], vb[4], wb[4], ia[3][3], ib[3][3], da[4][4], db[4][4];
    VT ga[3], gb[3], gc;
} L_(block);

/* the separation's terms of the lanes' normal n from each side's motion since the step began
   (da, db: the displacement, then the rotation's columns): ga = R_a^T n - n, gb = R_b^T n - n,
   gc = n.(dx_b - dx_a), so that a point's s = sep + (gc + (gb.r_b - ga.r_a)) (the anchors
   moved with their bodies: n.((dx_b + R_b r_b - r_b) - (dx_a + R_a r_a - r_a))); once a block
   and not once a point (lane_point's operations) */
KERN void L_(sep)(VT da[4][4], VT db[4][4], const VT n[3], VT ga[3], VT gb[3], VT *gc)
{
    VT x[3];
#pragma GCC unroll 4
    for (int j = 0; j < 3; j++) {
        ga[j] = vsub(L_(dot)(da[1 + j], n), n[j]);
        gb[j] = vsub(L_(dot)(db[1 + j], n), n[j]);
        x[j] = vsub(db[0][j], da[0][j]);
    }
    *gc = L_(dot)(x, n);
}

/* the lanes' bodies kicked by the impulse P on b (-P on a) with moments xa = r_a x P,
   xb = r_b x P: v += m^-1 P, w += I^-1 x (lane_kick's operations) */
KERN void L_(kick)(const imp_e3_block *b0, const imp_e3_block *b1, const VT P[3], const VT xa[3], const VT xb[3],
                   L_(block) *g)
{
    VT A[3], B[3];
    L_(turn)(g->ia, xa, A);
    L_(turn)(g->ib, xb, B);
    VT ima = vld(b0->ima, b1->ima), imb = vld(b0->imb, b1->imb);
#pragma GCC unroll 4
    for (int i = 0; i < 3; i++) {
        g->va[i] = vfnm(ima, P[i], g->va[i]);
        g->vb[i] = vfm(imb, P[i], g->vb[i]);
        g->wa[i] = vsub(g->wa[i], A[i]);
        g->wb[i] = vadd(g->wb[i], B[i]);
    }
}

/* the rotation's columns c[1 + j] (each x, y, z, +0) of the lanes' quaternions q (w, x, y, z):
   imp_q_to_mat3's operations (imp_e3_delta_expand's), lane by lane */
KERN void L_(rotation)(const VT q[4], VT c[4][4])
{
    const VT one = vset(1.0), two = vset(2.0);
    VT xx = vmul(q[1], q[1]), yy = vmul(q[2], q[2]), zz = vmul(q[3], q[3]);
    VT xy = vmul(q[1], q[2]), xz = vmul(q[1], q[3]), yz = vmul(q[2], q[3]);
    VT wx = vmul(q[0], q[1]), wy = vmul(q[0], q[2]), wz = vmul(q[0], q[3]);
    c[1][0] = vsub(one, vmul(two, vadd(yy, zz)));
    c[1][1] = vmul(two, vadd(xy, wz));
    c[1][2] = vmul(two, vsub(xz, wy));
    c[2][0] = vmul(two, vsub(xy, wz));
    c[2][1] = vsub(one, vmul(two, vadd(xx, zz)));
    c[2][2] = vmul(two, vadd(yz, wx));
    c[3][0] = vmul(two, vadd(xz, wy));
    c[3][1] = vmul(two, vsub(yz, wx));
    c[3][2] = vsub(one, vmul(two, vadd(xx, yy)));
    c[1][3] = c[2][3] = c[3][3] = vzero();
}

/* the lanes' state gathered from the slots, their inverse inertias from the blocks (use_bias:
   a solve pass, the motions and the separation's terms too) */
KERN void L_(begin)(const struct imp_e3_soft *s, const imp_e3_block *b0, const imp_e3_block *b1, L_(block) *g,
                    int use_bias)
{
    vgather(s->sv, b0->a, b1->a, 8, 0, g->va);
    vgather(s->sv, b0->a, b1->a, 8, 4, g->wa);
    vgather(s->sv, b0->b, b1->b, 8, 0, g->vb);
    vgather(s->sv, b0->b, b1->b, 8, 4, g->wb);
#pragma GCC unroll 4
    for (int j = 0; j < 3; j++) {  /* ia[j][i] = I_a[i][j] */
#pragma GCC unroll 4
        for (int i = 0; i < 3; i++) {
            g->ia[j][i] = vldf(b0->ia[j][i], b1->ia[j][i]);
            g->ib[j][i] = vldf(b0->ib[j][i], b1->ib[j][i]);
        }
    }
    if (use_bias) {
        VT qa[4], qb[4];
        vgather(s->delta, b0->a, b1->a, 8, 0, g->da[0]);
        vgather(s->delta, b0->a, b1->a, 8, 4, qa);
        vgather(s->delta, b0->b, b1->b, 8, 0, g->db[0]);
        vgather(s->delta, b0->b, b1->b, 8, 4, qb);
        L_(rotation)(qa, g->da);
        L_(rotation)(qb, g->db);
        VT n[3];
#pragma GCC unroll 4
        for (int i = 0; i < 3; i++) {
            n[i] = vldf(b0->f.n[i], b1->f.n[i]);
        }
        L_(sep)(g->da, g->db, n, g->ga, g->gb, &g->gc);
    }
}

/* the velocities back into the slots of the lanes whose bodies move */
KERN void L_(end)(struct imp_e3_soft *s, const imp_e3_block *b0, const imp_e3_block *b1, const L_(block) *g)
{
    vscatter(s->sv, b0->a, b1->a, vmoving(b0->amove, b1->amove), 0, g->va);
    vscatter(s->sv, b0->a, b1->a, vmoving(b0->amove, b1->amove), 4, g->wa);
    vscatter(s->sv, b0->b, b1->b, vmoving(b0->bmove, b1->bmove), 0, g->vb);
    vscatter(s->sv, b0->b, b1->b, vmoving(b0->bmove, b1->bmove), 4, g->wb);
}

/* point k of the lanes (b0's and b1's, both having it; lane_point's operations); bs0, bs1:
   the sums the pass adds its impulses to (NULL: none) */
KERN void L_(point)(const struct imp_e3_soft *s, imp_e3_block *b0, imp_e3_block *b1, imp_e3_block_sum *bs0,
                    imp_e3_block_sum *bs1, int k, L_(block) *g, double hs, double inv_hs, double push_max,
                    int use_bias)
{
    const VT zero = vzero(), one = vset(1.0);
    VT *va = g->va, *wa = g->wa, *vb = g->vb, *wb = g->wb;
    imp_e3_block_pt *p0 = &b0->p[k], *p1 = &b1->p[k];
    const imp_e3_block_frame *f0 = frame_of(s->xframes, b0, k), *f1 = frame_of(s->xframes, b1, k);
    VT ra[3], rb[3], n[3];
#pragma GCC unroll 4
    for (int i = 0; i < 3; i++) {
        ra[i] = vldf(p0->ra[i], p1->ra[i]), rb[i] = vldf(p0->rb[i], p1->rb[i]);
        n[i] = vldf(f0->n[i], f1->n[i]);
    }
    VT vn, u1, u2, na[3], nb[3];
    if (use_bias) {  /* the normal row alone: its angular directions ja = r_a x n, jb = r_b x n,
                        na = I_a^-1 ja, nb = I_b^-1 jb first, off the chain of the points */
        VT ja[3], jb[3], dv[3];
        L_(cross_lanes)(ra, n, ja);
        L_(cross_lanes)(rb, n, jb);
        L_(turn)(g->ia, ja, na);
        L_(turn)(g->ib, jb, nb);
#pragma GCC unroll 4
        for (int i = 0; i < 3; i++) {
            dv[i] = vsub(vb[i], va[i]);
        }
        vn = vsub(vadd(L_(dot)(dv, n), L_(dot)(jb, wb)), L_(dot)(ja, wa));
        u1 = u2 = zero;
    } else {  /* the velocity of b relative to a at the point, ((v_b - v_a) + w_b x r_b) - w_a x r_a */
        VT ca[3], cb[3], d[3], t1[3], t2[3];
        L_(cross_lanes)(wb, rb, cb);
        L_(cross_lanes)(wa, ra, ca);
#pragma GCC unroll 4
        for (int i = 0; i < 3; i++) {
            d[i] = vsub(vadd(vsub(vb[i], va[i]), cb[i]), ca[i]);
            t1[i] = vldf(f0->t1[i], f1->t1[i]), t2[i] = vldf(f0->t2[i], f1->t2[i]);
        }
        vn = L_(dot)(d, n);
        u1 = L_(dot)(d, t1);
        u2 = L_(dot)(d, t2);
    }
    VT s_;
    if (use_bias) {  /* s = sep + n.(dx_b - dx_a) + (R_b^T n - n).r_b - (R_a^T n - n).r_a */
        if ((b0->xf >= 0 || b1->xf >= 0) && k > 0) {  /* a block's points with their own frames
                                                         (the other's: its frame's terms again,
                                                         the same bits) */
            L_(sep)(g->da, g->db, n, g->ga, g->gb, &g->gc);
        }
        s_ = vadd(vld(p0->sep, p1->sep), vadd(g->gc, vsub(L_(dot)(g->gb, rb), L_(dot)(g->ga, ra))));
    } else {
        s_ = vfm(vset(hs), vn, vld(p0->s, p1->s));
    }
    vst(p0->s, p1->s, s_);
    VM pos = vgt(s_, zero);
    VT spec = vmul(s_, vset(inv_hs)), bias, ms = one, is = zero;
    if (use_bias) {
        VT sb = vmax(vmul(vld(b0->br, b1->br), s_), vset(-push_max));
        bias = vsel(pos, spec, sb);
        ms = vsel(pos, one, vld(b0->ms, b1->ms));
        is = vsel(pos, zero, vld(b0->is, b1->is));
    } else {
        bias = vkeep(pos, spec);
    }
    VT r0 = vld(p0->rn, p1->rn);
    VT rn = vfnm(is, r0, vfnm(vmul(vldf(p0->mn, p1->mn), ms), vadd(vn, bias), r0));
    rn = vmax(rn, zero);
    VT dn = vsub(rn, r0);
    /* the lanes' first push of the step (rn > 0, not pushed before: once a row a step, the
       block's imp_e3_block_hit read and written only then): their approach before it (uhit =
       min(u_N, uhit), lane_point's) and impulse, their pushed bits set */
    VM first = vboth(vgt(rn, zero), vlanes(~b0->pushed[k] & 15, ~b1->pushed[k] & 15));
    if (vany(first)) {
        imp_e3_block_hit *h0 = &s->bhit[b0 - s->blocks], *h1 = &s->bhit[b1 - s->blocks];
        VT uhit = vld(h0->uhit[k], h1->uhit[k]);
        vst(h0->uhit[k], h1->uhit[k], vsel(first, vmin(vn, uhit), uhit));
        vst(h0->pushed[k], h1->pushed[k], vsel(first, rn, vld(h0->pushed[k], h1->pushed[k])));
        int bits = vbits(first);
        b0->pushed[k] |= (unsigned char)(bits & 15);
        b1->pushed[k] |= (unsigned char)(bits >> 4 & 15);
    }
    vst(p0->rn, p1->rn, rn);
    if (use_bias) {  /* a solve pass: the normal row only (friction in the relax passes, as Box3D) */
        VT dl = vkeep(vlive(b0->cnt, b1->cnt, k), dn), ima = vld(b0->ima, b1->ima), imb = vld(b0->imb, b1->imb);
#pragma GCC unroll 4
        for (int i = 0; i < 3; i++) {
            VT P = vmul(dl, n[i]);
            va[i] = vfnm(ima, P, va[i]);
            vb[i] = vfm(imb, P, vb[i]);
            wa[i] = vfnm(dl, na[i], wa[i]);
            wb[i] = vfm(dl, nb[i], wb[i]);
        }
        return;
    }
    u1 = vfm(vldf(p0->w1n, p1->w1n), dn, u1);
    u2 = vfm(vldf(p0->w2n, p1->w2n), dn, u2);
    VT q1 = vld(p0->rt1, p1->rt1), q2 = vld(p0->rt2, p1->rt2), mt = vldf(p0->mt, p1->mt);
    VT r1 = vfnm(mt, u1, q1), r2 = vfnm(mt, u2, q2);
    VT lim = vmul(vldf(f0->mu, f1->mu), rn), len2 = vfm(r2, r2, vmul(r1, r1));
    VM over = vgt(len2, vmul(lim, lim));
    if (vany(over)) {  /* a lane slides: the clamp's square root and division (off the chain of
                          the points that stick) */
        VT sc = vdiv(lim, vsqrt(len2));
        r1 = vsel(over, vmul(r1, sc), r1);
        r2 = vsel(over, vmul(r2, sc), r2);
    }
    vst(p0->rt1, p1->rt1, r1);
    vst(p0->rt2, p1->rt2, r2);
    if (bs0 != NULL) {  /* the last pass of the sub-step: its impulses added to the step's sums */
        double (*s0)[4] = bs0->sum[k], (*s1)[4] = bs1->sum[k];
        vst(s0[0], s1[0], vadd(vld(s0[0], s1[0]), rn));
        vst(s0[1], s1[1], vadd(vld(s0[1], s1[1]), r1));
        vst(s0[2], s1[2], vadd(vld(s0[2], s1[2]), r2));
    }
    /* the impulse P = dn n + d1 t1 + d2 t2 (+0 in a lane without the point) on b, -P on a (the
       tangents loaded again: kept in registers from the start, the AVX2 kernel spilled them) */
    VT d1 = vsub(r1, q1), d2 = vsub(r2, q2), P[3], xa[3], xb[3];
    VM live = vlive(b0->cnt, b1->cnt, k);
#pragma GCC unroll 4
    for (int i = 0; i < 3; i++) {
        VT e1 = vldf(f0->t1[i], f1->t1[i]), e2 = vldf(f0->t2[i], f1->t2[i]);
        P[i] = vkeep(live, vfm(d2, e2, vfm(d1, e1, vmul(dn, n[i]))));
    }
    L_(cross_lanes)(ra, P, xa);
    L_(cross_lanes)(rb, P, xb);
    L_(kick)(b0, b1, P, xa, xb, g);
}

/* the warm start of the lanes (lane_warm's operations): their points' impulses
   P_k = (rn n + rt1 t1) + rt2 t2 summed, P and the moments r_a x P_k, r_b x P_k, then applied
   once; point k of the block that has it (a block without it: its lanes' sums left as they
   are, the other's point read in its place); a point a lane does not have adds +0 */
KERN void L_(warm)(struct imp_e3_soft *s, const imp_e3_block *b0, const imp_e3_block *b1)
{
    L_(block) g;
    L_(begin)(s, b0, b1, &g, 0);
    VT P[3], xa[3], xb[3];
#pragma GCC unroll 4
    for (int i = 0; i < 3; i++) {
        P[i] = xa[i] = xb[i] = vzero();
    }
    int most = b0->np > b1->np ? b0->np : b1->np;
    for (int k = 0; k < most; k++) {
        const imp_e3_block *c0 = k < b0->np ? b0 : b1, *c1 = k < b1->np ? b1 : b0;
        int h0 = k < b0->np, h1 = k < b1->np;
        const imp_e3_block_pt *p0 = &c0->p[k], *p1 = &c1->p[k];
        const imp_e3_block_frame *f0 = frame_of(s->xframes, c0, k), *f1 = frame_of(s->xframes, c1, k);
        VM live = vlive(b0->cnt, b1->cnt, k);
        VT rn = vld(p0->rn, p1->rn), r1 = vld(p0->rt1, p1->rt1), r2 = vld(p0->rt2, p1->rt2), Q[3], ra[3], rb[3];
#pragma GCC unroll 4
        for (int i = 0; i < 3; i++) {
            Q[i] = vkeep(live, vfm(r2, vldf(f0->t2[i], f1->t2[i]),
                                   vfm(r1, vldf(f0->t1[i], f1->t1[i]), vmul(rn, vldf(f0->n[i], f1->n[i])))));
            ra[i] = vldf(p0->ra[i], p1->ra[i]), rb[i] = vldf(p0->rb[i], p1->rb[i]);
        }
        VT ca[3], cb[3];
        L_(cross_lanes)(ra, Q, ca);
        L_(cross_lanes)(rb, Q, cb);
#pragma GCC unroll 4
        for (int i = 0; i < 3; i++) {
            xa[i] = vadd_has(xa[i], ca[i], h0, h1);
            xb[i] = vadd_has(xb[i], cb[i], h0, h1);
            P[i] = vadd_has(P[i], Q[i], h0, h1);
        }
    }
    L_(kick)(b0, b1, P, xa, xb, &g);
    L_(end)(s, b0, b1, &g);
}

#undef VT
#undef VM
#undef KERN
#undef vadd
#undef vsub
#undef vmul
#undef vdiv
#undef vmax
#undef vmin
#undef vsqrt
#undef vzero
#undef vset
#undef vfm
#undef vfnm
#undef vfms
#undef vld
#undef vldf
#undef vst
#undef vgt
#undef veq
#undef vboth
#undef vsel
#undef vkeep
#undef vany
#undef vbits
#undef vlanes
#undef vlive
#undef vadd_has
#undef vmoving
#undef vgather
#undef vscatter
#undef L_
#undef L_CAT
#undef L_CAT2
