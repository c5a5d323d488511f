/* mass2d.h: exact area, first moments and polar moment of regions bounded by straight and
   circular edges, by Green's theorem edge by edge (holes, running clockwise, subtract):
     A = 1/2 \oint (x dy - y dx),  S = 1/3 \oint r (x dy - y dx),  J = 1/4 \oint |r|^2 (x dy - y dx).
   On an arc r = c + R u(theta) the integrands are trigonometric polynomials integrated in
   closed form, so arcs are exact (no flattening). */
#ifndef IMPACT_MASS2D_H
#define IMPACT_MASS2D_H

#include "polygon2d.h"

typedef struct imp_mass2d {
    double area;  /* \int dA */
    double sx, sy;  /* \int x dA, \int y dA */
    double j;     /* \int (x^2 + y^2) dA */
} imp_mass2d;

/* Adds the edge's contribution, with coordinates taken relative to ref. */
void imp_mass2d_add_edge(imp_mass2d *m, const imp_edge2d *e, imp_vec2 ref);

/* The same, free of cancellation for shallow arcs (sweep up to 1 radian, whose closed form
   above subtracts terms of order r^4 sweep to get one of order (chord)^3 depth: a slab of
   width 300 under an arc of radius 1e6 gets a negative polar moment): such an arc adds the
   straight edge between its end points and, signed by its turn, its circular segment (the
   region between chord and arc), integrated in the chord's frame by 8-point Gauss-Legendre
   quadrature of integrands computed without cancellation (exact to rounding: their Taylor
   terms beyond degree 15 are below 1e-17 of the first). Other edges as above. */
void imp_mass2d_add_edge_stable(imp_mass2d *m, const imp_edge2d *e, imp_vec2 ref);

#endif
