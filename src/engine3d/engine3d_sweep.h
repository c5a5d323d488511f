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
    int group;                              /* coloured sweeps: at a colour's first row its
                                               rows (no two share a moving body), else 0 */
};

/* The coloured sweep's rows, four to a block, one per lane (structure of arrays: x[k][lane]):
   the four rows of a block share no moving body (they are of one colour, engine3d_solve.c),
   so they are solved side by side, as the AVX2 lanes do. A lane whose side does not move
   reads zero velocity and inertia and writes to a sink; a padding lane (row -1) has zero
   data and changes nothing. The inverse inertia is copied in (it is fixed over a solve). */
struct imp_e3_block {
    double n[3][4], t1[3][4], t2[3][4];     /* the frame's columns, component k at [k] */
    double ra[3][4], rb[3][4];
    double r[3][4];
    double bias[4], inv_nn[4], w1n[4], w2n[4], x11[4], x12[4], x22[4], mu[4], ima[4], imb[4];
    double ia[9][4], ib[9][4];              /* the bodies' world inverse inertia, row-major */
    int a[4], b[4];                         /* slots; -1: the side does not move */
    int row[4];                             /* the lane's row; -1: padding */
};

/* The blocks of the n rows in colours (rows[i].group at each colour's first row): a colour of
   m rows takes ceil(m / 4) blocks in row order. imp_e3_blocks_count says how many;
   imp_e3_blocks_fill writes them (inv_iw: 9 per slot); imp_e3_blocks_store copies the
   lanes' impulses back to their rows. */
int imp_e3_blocks_count(const struct imp_e3_row *rows, int n);
void imp_e3_blocks_fill(struct imp_e3_block *blocks, const struct imp_e3_row *rows, int n, const double *inv_iw);
void imp_e3_blocks_store(const struct imp_e3_block *blocks, int nblocks, struct imp_e3_row *rows);
/* One sweep over the blocks in order, each lane a row's normal then tangent pair against the
   current velocities (vel: 6 per slot), the friction projected on the disc, with no branch on
   the data; change and largest as the point-order sweep updates them. The AVX2 one
   (engine3d_sweep_avx2.c, when IMP_E3_HAVE_AVX2) does the same operations lane by lane, so the
   two are bit-identical. */
void imp_e3_blocks_sweep(double *vel, struct imp_e3_block *blocks, int nblocks, double *change, double *largest);

/* Whether the sweeps take the AVX2 path (engine3d_solve.c): set 0 forces the portable one, 1
   asks for AVX2 (taken when the processor has it), -1 leaves the choice (AVX2 when there and
   IMPACT_E3_SIMD=0 is not in the environment); returns 1 when the AVX2 path is in use. */
int imp_e3_sweep_simd(int set);

/* Whether the swept problem ("pgs") goes in colours of points that share no moving body
   (engine3d_solve.c; the default) rather than in point order: set 0 for point order, 1 for
   colours, -1 leaves it (colours unless IMPACT_E3_COLOUR=0 is in the environment); returns
   1 when the sweeps are coloured. */
int imp_e3_sweep_colour(int set);

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
void imp_e3_blocks_sweep_avx2(double *vel, struct imp_e3_block *blocks, int nblocks, double *change,
                              double *largest);
#endif

#endif
