/* manifold3d_reduce.h: the reduction of a contact manifold's candidate points to at most
   IMP_MANIFOLD3D_MAX (manifold3d.c; shared with the polyhedral manifold). */
#ifndef IMPACT_MANIFOLD3D_REDUCE_H
#define IMPACT_MANIFOLD3D_REDUCE_H

#include "manifold3d.h"
#include "vec3.h"

/* the most candidates considered (later ones are ignored) */
#define IMP_MANIFOLD3D_REDUCE_MAX 160

/* Candidates i < n with points pa[i] (on A) and signed distances dist[i], sharing the unit
   normal: coincident points (within 1e-9 scale) merge, the first staying; up to
   IMP_MANIFOLD3D_MAX are kept: all when they are few enough, else the deepest (the first in
   order within max(margin / 4, 1e-9 scale) of the deepest), the farthest from it in the contact
   plane, the largest triangle, the largest gain of area (ties within 1e-3 relative to the first
   in order). Their indices go to sel; returns their number. Deterministic, no allocation. */
int imp_manifold3d_reduce(const imp_vec3 *pa, const double *dist, int n, imp_vec3 normal, double scale,
                          double margin, int *sel);

#endif
