/* lcp_chol.h: an incrementally updated Cholesky factor L L^T of the clamped block A_CC of
   Baraff's method (Baraff 1994, section 4.5: "each linear system A_11 x = v_1 will differ
   from the previous system only by a single row and column ... it is more efficient to use
   an incremental approach"). Appending a row/column costs one triangular solve, O(m^2);
   removing the k-th costs O((m - k) m) by a rank-one update of the trailing block
   (Gill, Golub, Murray, Saunders 1974, "Methods for modifying matrix factorizations").
   L is lower triangular, row-major with leading dimension ld (row i holds L[i*ld + 0..i]). */
#ifndef IMPACT_LCP_CHOL_H
#define IMPACT_LCP_CHOL_H

typedef struct imp_chol {
    double *L;  /* ld*ld buffer owned by the caller */
    int *first; /* ld: row i's entries before first[i] are zero (the profile; banded A_CC,
                   e.g. a stack, gives a banded L and cheap solves) */
    int ld;     /* capacity (rows) */
    int m;      /* current order */
} imp_chol;

/* y := L^-1 y (y has m entries). O(m^2), less for a sparse y or a narrow profile. */
void imp_chol_forward(const imp_chol *c, double *y);
/* x := L^-T x. O(m^2). */
void imp_chol_backward(const imp_chol *c, double *x);
/* Appends a row and column whose off-diagonal part r satisfies y = L^-1 r (y given, m
   entries) and whose Schur complement is s = diag - y.y (given). Needs s > 0 and m < ld;
   returns 0, or -1 (nothing changed) when s <= 0 or the factor is full. O(m). */
int imp_chol_append(imp_chol *c, const double *y, double s);
/* Removes row and column k (0 <= k < m) keeping L L^T equal to the remaining block.
   work: 2*m doubles. O((m - k) m). */
void imp_chol_remove(imp_chol *c, int k, double *work);

/* The clamped set in factor order: cset[k] is the row at factor position k, pos[row] its
   position (-1 outside). Appends row (as imp_chol_append with y and s) and records it;
   returns 0, or -1 (nothing changed). O(m). */
int imp_chol_add_row(imp_chol *c, int *cset, int *pos, int row, const double *y, double s);
/* Removes row from the factor and the set (imp_chol_remove; work: 2*m doubles).
   O((m - k) m) for its position k. */
void imp_chol_remove_row(imp_chol *c, int *cset, int *pos, int row, double *work);

#endif
