/* lcp_pyr.h: lcp_gen.h's 2D pyramid with friction 0.6 as a frictional LCP with its buffers
   (test_lcp_reg.c, test_lcp_newton.c, test_lcp_prox.c). */
#ifndef IMPACT_TEST_LCP_PYR_H
#define IMPACT_TEST_LCP_PYR_H

#include <math.h>
#include <stdlib.h>

#include <impact/lcp.h>
#include "lcp_gen.h"

typedef struct pyr {
    gen_sys s;
    int n, nb, *fn;
    double *mu, *f, *a;
    signed char *st;
    imp_lcp_problem p;
} pyr;

/* the pyramid of `base` boxes, box k pushed by push_g[k] g, or (push_g NULL) by scale
   times lcp_gen.h's +-0.1 g alternating */
static inline void pyr_make(pyr *y, int base, double scale, const double *push_g)
{
    y->nb = base * (base + 1) / 2;
    int cap = 2 * (2 * base + 10 * y->nb);
    double *push = malloc(sizeof(double) * (size_t)y->nb);
    for (int k = 0; k < y->nb; k++)
        push[k] = 9.81 * (push_g != NULL ? push_g[k] : scale * 0.1 * (k % 2 ? -1.0 : 1.0));
    y->fn = malloc(sizeof(int) * (size_t)cap);
    y->mu = malloc(sizeof(double) * (size_t)cap);
    y->n = gen_pyramid2d_friction(&y->s, base, 0.6, push, y->fn, y->mu);
    free(push);
    y->f = calloc((size_t)y->n, sizeof(double));
    y->a = calloc((size_t)y->n, sizeof(double));
    y->st = calloc((size_t)y->n, 1);
    imp_lcp_problem p = {y->n, y->s.A, y->s.b, NULL, y->fn, y->mu, NULL};
    y->p = p;
}

static inline void pyr_free(pyr *y)
{
    gen_sys_free(&y->s);
    free(y->fn), free(y->mu), free(y->f), free(y->a), free(y->st);
}

/* The statics of f for y (pushes below mu g: the boxes can stay at rest): the ground's
   vertical forces less the weight, its horizontal ones plus the pushes, and the largest
   body acceleration M^-1 (F_ext + J^T f) */
static inline void pyr_statics(const pyr *y, const double *f, double *dy, double *dx,
                               double *acc)
{
    double fy = 0.0, fx = 0.0, push = 0.0;
    for (int k = 0; k < y->nb; k++) push += y->s.fext[3 * k];
    for (int i = 0; i < y->n; i += 2) {
        if (y->s.body[2 * i + 1] >= 0) continue; /* not a ground contact */
        fy += f[i];
        fx -= f[i + 1]; /* tangent (-n_y, n_x) = (-1, 0) for the normal (0, 1) */
    }
    *dy = fy - 9.81 * y->nb;
    *dx = fx + push;
    *acc = gen_max_body_acc(&y->s, f);
}

/* Coulomb's conditions (from A f + b, gen_coulomb_ok, independent of the solver) and the
   statics of f for y at 1e-8 (of the weight, of g); 1 when they hold */
static inline int pyr_ok(const pyr *y, const double *f)
{
    if (!gen_coulomb_ok(y->n, y->s.A, y->s.b, y->fn, y->mu, f, 1e-8)) return 0;
    double dy, dx, acc, w = 9.81 * y->nb;
    pyr_statics(y, f, &dy, &dx, &acc);
    return fabs(dy) <= 1e-8 * w && fabs(dx) <= 1e-8 * w && acc <= 1e-8 * 9.81;
}

#endif
