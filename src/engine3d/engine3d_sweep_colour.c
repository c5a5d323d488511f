/* engine3d_sweep_colour.c: the 3D engine's coloured sweep (engine3d_sweep.h): the rows of one
   colour share no moving body, so four of them go side by side in a block, one per lane. The
   point-order sweep is a chain (each point waits for the one before it through the bodies
   they share); a block's four rows are independent, and the AVX2 sweep
   (engine3d_sweep_avx2.c) solves them in one pass of packed instructions. This file packs the
   blocks and holds the portable sweep, which does each lane's operations in the AVX2 sweep's
   order (no branch on the data: the disc's projection scales by 1 inside it, a lane whose side
   does not move reads zeros and writes to a sink), so the two are bit-identical. */
#include <math.h>
#include <string.h>

#include "engine3d_sweep.h"

int imp_e3_blocks_count(const struct imp_e3_row *rows, int n)
{
    int count = 0;
    for (int i = 0; i < n; i += rows[i].group) {
        count += (rows[i].group + 3) / 4;
    }
    return count;
}

static void fill_lane(struct imp_e3_block *k, int l, const struct imp_e3_row *q, int row, const double *inv_iw)
{
    for (int c = 0; c < 3; c++) {
        k->n[c][l] = q->n[c];
        k->t1[c][l] = q->t1[c];
        k->t2[c][l] = q->t2[c];
        k->ra[c][l] = q->ra[c];
        k->rb[c][l] = q->rb[c];
        k->r[c][l] = q->r[c];
    }
    k->bias[l] = q->bias;
    k->inv_nn[l] = q->inv_nn;
    k->w1n[l] = q->w1n;
    k->w2n[l] = q->w2n;
    k->x11[l] = q->x11;
    k->x12[l] = q->x12;
    k->x22[l] = q->x22;
    k->mu[l] = q->mu;
    k->ima[l] = q->ima;
    k->imb[l] = q->imb;
    k->a[l] = q->a;
    k->b[l] = q->b;
    k->row[l] = row;
    for (int j = 0; j < 9; j++) {
        k->ia[j][l] = q->a >= 0 ? inv_iw[9 * (size_t)q->a + j] : 0.0;
        k->ib[j][l] = q->b >= 0 ? inv_iw[9 * (size_t)q->b + j] : 0.0;
    }
}

void imp_e3_blocks_fill(struct imp_e3_block *blocks, const struct imp_e3_row *rows, int n, const double *inv_iw)
{
    static const struct imp_e3_row pad = {.a = -1, .b = -1};
    struct imp_e3_block *k = blocks;
    for (int i = 0; i < n; i += rows[i].group) {
        for (int j = 0; j < rows[i].group; j += 4, k++) {
            for (int l = 0; l < 4; l++) {
                int row = j + l < rows[i].group ? i + j + l : -1;
                fill_lane(k, l, row >= 0 ? &rows[row] : &pad, row, inv_iw);
            }
        }
    }
}

void imp_e3_blocks_store(const struct imp_e3_block *blocks, int nblocks, struct imp_e3_row *rows)
{
    for (int i = 0; i < nblocks; i++) {
        for (int l = 0; l < 4; l++) {
            int row = blocks[i].row[l];
            if (row >= 0) {
                rows[row].r[0] = blocks[i].r[0][l];
                rows[row].r[1] = blocks[i].r[1][l];
                rows[row].r[2] = blocks[i].r[2][l];
            }
        }
    }
}

/* the AVX2 sweep's comparisons, as maxpd: a > b ? a : b */
static inline double vmax(double a, double b) { return a > b ? a : b; }

/* one lane of block k (the AVX2 sweep's operations on its lane l, in the same order) */
static void sweep_lane(double *vel, struct imp_e3_block *k, int l, double *change, double *largest)
{
    static const double zero[6] = {0, 0, 0, 0, 0, 0};
    double sink[6];
    int a = k->a[l], b = k->b[l];
    const double *va = a >= 0 ? vel + 6 * (size_t)a : zero, *vb = b >= 0 ? vel + 6 * (size_t)b : zero;
    double *oa = a >= 0 ? vel + 6 * (size_t)a : sink, *ob = b >= 0 ? vel + 6 * (size_t)b : sink;
    double ra[3] = {k->ra[0][l], k->ra[1][l], k->ra[2][l]}, rb[3] = {k->rb[0][l], k->rb[1][l], k->rb[2][l]};
    double d0 = vb[0] + vb[4] * rb[2] - vb[5] * rb[1];
    double d1 = vb[1] + vb[5] * rb[0] - vb[3] * rb[2];
    double d2 = vb[2] + vb[3] * rb[1] - vb[4] * rb[0];
    d0 = d0 - (va[0] + va[4] * ra[2] - va[5] * ra[1]);
    d1 = d1 - (va[1] + va[5] * ra[0] - va[3] * ra[2]);
    d2 = d2 - (va[2] + va[3] * ra[1] - va[4] * ra[0]);
    double u0 = k->n[0][l] * d0 + k->n[1][l] * d1 + k->n[2][l] * d2;
    double u1 = k->t1[0][l] * d0 + k->t1[1][l] * d1 + k->t1[2][l] * d2;
    double u2 = k->t2[0][l] * d0 + k->t2[1][l] * d1 + k->t2[2][l] * d2;
    const double old0 = k->r[0][l], old1 = k->r[1][l], old2 = k->r[2][l];
    double rn = vmax(old0 - (u0 + k->bias[l]) * k->inv_nn[l], 0.0);
    double dn = rn - old0;
    double ut1 = u1 + k->w1n[l] * dn, ut2 = u2 + k->w2n[l] * dn;
    double rt1 = old1 - (k->x11[l] * ut1 + k->x12[l] * ut2);
    double rt2 = old2 - (k->x12[l] * ut1 + k->x22[l] * ut2);
    double lim = k->mu[l] * rn, len = sqrt(rt1 * rt1 + rt2 * rt2);
    double sc = len > lim ? lim / vmax(1e-300, len) : 1.0;
    rt1 = rt1 * sc;
    rt2 = rt2 * sc;
    const double dr0 = rn - old0, dr1 = rt1 - old1, dr2 = rt2 - old2;
    k->r[0][l] = rn;
    k->r[1][l] = rt1;
    k->r[2][l] = rt2;
    double P[3];
    for (int c = 0; c < 3; c++) {
        P[c] = k->n[c][l] * dr0 + k->t1[c][l] * dr1 + k->t2[c][l] * dr2;
    }
    double im = -1.0 * k->ima[l];
    double t[3] = {-1.0 * (ra[1] * P[2] - ra[2] * P[1]), -1.0 * (ra[2] * P[0] - ra[0] * P[2]),
                   -1.0 * (ra[0] * P[1] - ra[1] * P[0])};
    double out[6];
    for (int c = 0; c < 3; c++) {
        out[c] = va[c] + im * P[c];
        out[3 + c] = va[3 + c] + (k->ia[3 * c][l] * t[0] + k->ia[3 * c + 1][l] * t[1] + k->ia[3 * c + 2][l] * t[2]);
    }
    memcpy(oa, out, sizeof out);
    im = k->imb[l];
    t[0] = rb[1] * P[2] - rb[2] * P[1];
    t[1] = rb[2] * P[0] - rb[0] * P[2];
    t[2] = rb[0] * P[1] - rb[1] * P[0];
    for (int c = 0; c < 3; c++) {
        out[c] = vb[c] + im * P[c];
        out[3 + c] = vb[3 + c] + (k->ib[3 * c][l] * t[0] + k->ib[3 * c + 1][l] * t[1] + k->ib[3 * c + 2][l] * t[2]);
    }
    memcpy(ob, out, sizeof out);
    change[l] = vmax(fabs(dr0) + fabs(dr1) + fabs(dr2), change[l]);
    largest[l] = vmax(rn, largest[l]);
}

void imp_e3_blocks_sweep(double *vel, struct imp_e3_block *blocks, int nblocks, double *change_io, double *largest_io)
{
    double change[4] = {0, 0, 0, 0}, largest[4] = {0, 0, 0, 0};
    for (int i = 0; i < nblocks; i++) {
        for (int l = 0; l < 4; l++) {
            sweep_lane(vel, &blocks[i], l, change, largest);
        }
    }
    for (int l = 0; l < 4; l++) {
        *change_io = vmax(change[l], *change_io);
        *largest_io = vmax(largest[l], *largest_io);
    }
}
