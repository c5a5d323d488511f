/* engine3d_sweep.h: the packed rows of the 3D engine's projected Gauss-Seidel sweeps
   (engine3d_solve.c) and their AVX2 sweep (engine3d_sweep_avx2.c).

   A row is one active contact point's data in the sweep order, its diagonal block's inverse
   terms precomputed. The 3-vectors are stored as 4 doubles with a zero fourth lane so that
   the AVX2 sweep loads each in one go; E = [n t1 t2] is kept both as columns (n, t1, t2: the
   impulse's P = E dr) and as rows (e0, e1, e2 = (n_i, t1_i, t2_i): the velocity's E^T d). */
#ifndef IMPACT_ENGINE3D_SWEEP_H
#define IMPACT_ENGINE3D_SWEEP_H

#include <math.h>

struct imp_e3_row {
    double n[4], t1[4], t2[4];              /* the frame's columns (lane 3: 0) */
    double e0[4], e1[4], e2[4];             /* its rows (lane 3: 0) */
    double ra[4], rb[4];                    /* lever arms (lane 3: 0) */
    double r[3], bias, mu;
    double wnn, inv_nn, w1n, w2n;           /* W_nn, 1/W_nn; W_t1n, W_t2n */
    double x11, x12, x22;                   /* the tangent block's inverse */
    double ima, imb;                        /* 1/m of a and b (0: fixed) */
    int a, b;                               /* slots; -1 for a fixed side */
    int run;                                /* at a pair's first row: its rows (the pair's
                                               points are consecutive), else 0 */
};

/* One row's projected Gauss-Seidel update from its relative velocity u = E^T (v_b - v_a) (u0
   normal, u1 u2 tangent): the normal impulse projected on r_n >= 0, then the tangent pair by
   the tangent block's inverse against u_T with the normal's change, scaled back into the disc
   |r_T| <= mu r_n. q->r is updated and its change returned in dr; 0 when the row is apart and
   carries nothing (no change), 1 otherwise. The portable and the AVX2 sweeps both call it, so
   their results are the same bit for bit. */
static inline int imp_e3_row_update(struct imp_e3_row *q, double u0, double u1, double u2, double dr[3])
{
    const double old0 = q->r[0], old1 = q->r[1], old2 = q->r[2];
    double rn = old0 - (u0 + q->bias) * q->inv_nn;
    rn = rn > 0.0 ? rn : 0.0;
    if (rn == 0.0 && old0 == 0.0 && old1 == 0.0 && old2 == 0.0) {
        return 0;  /* apart and carrying nothing: no friction either (|r_T| <= mu 0), no change */
    }
    double dn = rn - old0;
    double ut1 = u1 + q->w1n * dn, ut2 = u2 + q->w2n * dn;
    double rt1 = old1 - (q->x11 * ut1 + q->x12 * ut2);
    double rt2 = old2 - (q->x12 * ut1 + q->x22 * ut2);
    double lim = q->mu * rn, len = sqrt(rt1 * rt1 + rt2 * rt2);
    if (len > lim) {
        double sc = len > 0.0 ? lim / len : 0.0;
        rt1 *= sc;
        rt2 *= sc;
    }
    dr[0] = rn - old0;
    dr[1] = rt1 - old1;
    dr[2] = rt2 - old2;
    q->r[0] = rn;
    q->r[1] = rt1;
    q->r[2] = rt2;
    return 1;
}

/* Whether the sweeps take the AVX2 path (engine3d_solve.c): set 0 forces the portable one, 1
   asks for AVX2 (taken when the processor has it), -1 leaves the choice (AVX2 when there and
   IMPACT_E3_SIMD=0 is not in the environment); returns 1 when the AVX2 path is in use. */
int imp_e3_sweep_simd(int set);

/* IMPACT_E3_SIMD as the SIMD paths read it: 0 (the portable path), 2 (AVX2, not AVX-512),
   -1 (unset or any other value: the widest the processor has) */
int imp_e3_simd_env(void);

/* One sweep over the n rows (in runs, rows[i].run) with the AVX2 instructions: each lane does
   the portable sweep's operations (engine3d_solve.c's sweep_run) in the same order, so the
   results are bit-identical. vel: 6 per slot (v, w), inv_iw: 9 per slot (row-major). change
   and largest are updated as the portable sweep does. Only defined when IMP_E3_HAVE_AVX2. */
#if defined(__x86_64__) && defined(__GNUC__)
#define IMP_E3_HAVE_AVX2 1
void imp_e3_sweep_avx2(double *vel, const double *inv_iw, struct imp_e3_row *rows, int n, double *change,
                       double *largest);
/* The warm start with the AVX2 instructions: each row's impulse r applied to its bodies, as
   the portable warm start (engine3d_solve.c's warm_run) does, bit for bit. */
void imp_e3_warm_avx2(double *vel, const double *inv_iw, const struct imp_e3_row *rows, int n);
int imp_e3_avx2_supported(void);
#endif

#endif
