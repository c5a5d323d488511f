/* lcp_baraff_order.h: Baraff 94's incremental contact-force method in myPhysicsLab's order
   (its ComputeForces under the HYBRID treatment policy), used only under conventions =
   "myphysicslab" (engine2d_contact.c, engine2d_impulse.c). See lcp_baraff_order.c. */
#ifndef IMPACT_LCP_BARAFF_ORDER_H
#define IMPACT_LCP_BARAFF_ORDER_H

#include "lcg.h"

/* Scratch kept across solves (grown, never shrunk): no allocation once a world's largest
   problem has been seen, except the loop detector's list of states, grown geometrically. */
typedef struct imp_baraff_ws {
    int cap;
    double *a, *da, *df, *acc, *x, *scale;
    int *nrow, *ncol, *perm, *states;
    unsigned char *C, *NC, *R, *rerej, *zero, *taken;
    int nstates, states_cap;
} imp_baraff_ws;

void imp_baraff_free(imp_baraff_ws *ws);

/* Solves a = A f + b (A n x n row-major, symmetric positive semi-definite) with, for
   non-joints, f >= 0, a >= 0, f a = 0, and for joints a = 0, f free, drawing n numbers of g
   at every choice of the next row to treat (n >= 2; n = 1 is solved in closed form without a
   draw). f and a (n each) receive the answer. Returns 0 solved, 1 given up (f, a hold the
   last iterate: check it with imp_baraff_acceptable), -1 out of memory. */
int imp_lcp_baraff_order(imp_baraff_ws *ws, int n, const double *A, const double *b,
                         const unsigned char *joint, imp_lcg *g, double *f, double *a);

/* myPhysicsLab's acceptance of an answer: joints and loaded rows |a| <= tol, the others
   a >= -tol. */
int imp_baraff_acceptable(int n, const double *f, const double *a, const unsigned char *joint,
                          double tol);

#endif
