/* engine3d_sweep.h: the packed rows of the 3D engine's projected Gauss-Seidel sweeps
   (engine3d_solve.c) and their AVX2 sweep (engine3d_sweep_avx2.c).

   A row is one active contact point's data in the sweep order, its diagonal block's inverse
   terms precomputed. The 3-vectors are stored as 4 doubles with a zero fourth lane so that
   the AVX2 sweep loads each in one go; E = [n t1 t2] is kept both as columns (n, t1, t2: the
   impulse's P = E dr) and as rows (e0, e1, e2 = (n_i, t1_i, t2_i): the velocity's E^T d). */
#ifndef IMPACT_ENGINE3D_SWEEP_H
#define IMPACT_ENGINE3D_SWEEP_H

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

/* Whether the sweeps take the AVX2 path (engine3d_solve.c): set 0 forces the portable one, 1
   asks for AVX2 (taken when the processor has it), -1 leaves the choice (AVX2 when there and
   IMPACT_E3_SIMD=0 is not in the environment); returns 1 when the AVX2 path is in use. */
int imp_e3_sweep_simd(int set);

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
