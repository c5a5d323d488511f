/* engine2d_symplectic.h: the 2D engine's semi-implicit (symplectic) Euler time stepping. */
#ifndef IMPACT_ENGINE2D_SYMPLECTIC_H
#define IMPACT_ENGINE2D_SYMPLECTIC_H

#include <stddef.h>

struct imp_world;

/* 1 when w is a 2D world stepped by the impulse or contact strategy with
   time_stepping = IMP_STEPPING_SYMPLECTIC_EULER. */
int imp_engine2d_symplectic(const struct imp_world *w);

/* One semi-implicit Euler step of length h of the 2D state y (n numbers, 6 per slot) from
   t: one evaluation f(w, t, y, dydt) (the contact problem solved once, at velocity level,
   for this h), then v += h a and x += h v with the new v. work holds n numbers. */
void imp_engine2d_symplectic_step(struct imp_world *w,
                                  void (*f)(void *ctx, double t, const double *y, double *dydt),
                                  double t, double h, double *y, size_t n, double *work);

#endif
