/* raycast.h: a segment (a ray from `from` to `to`) against one posed shape, and whether a point
   lies in one posed shape, for the world queries (query_world.h).

   The segment is p(f) = from + f (to - from), f in [0, 1]; a hit reports the first f where the
   segment enters the shape's material, the point there and the outward unit normal of the
   surface there (world frame). A segment that starts inside the material (the boundary counts
   as inside) hits at f = 0 with the point `from` and the normal -(to - from)/|to - from|
   (Box2D reports no hit there; we report it, so a ray cast from inside a body finds it).

   2D (raycast2d.c): polygons with straight and circular edges (circles and rectangles are
   such polygons): exact, O(E) for E edges. 3D (raycast3d.c): spheres, ellipsoids, walls,
   unsmoothed boxes, polyhedra and unsmoothed hulls exact (closed forms, slab clipping); every
   other convex shape (smoothed boxes, cylinders, capsules, cones, smoothed hulls) by
   conservative advancement on the distance from the ray's point to the shape's core (closed
   forms for box, segment, cylinder and cone cores; GJK on the support function for hulls)
   minus the sweep: the step is the distance itself, so the segment never passes the surface;
   it stops within 1e-10 of the shape's size of the surface (the point is then that close to
   the surface; its fraction is off by that distance over the sine of the angle between the
   segment and the surface), or reports a miss as soon as the distance stops decreasing along
   the segment (the distance to a convex set is a convex function of f), or after 10000 steps
   (a segment grazing the surface, within about 1e-8 of the size, may count as a miss). The
   normal comes from the core's closest point (a sweep away, well conditioned) or, for sharp
   cylinders and cones, from the face the point lies on. */
#ifndef IMPACT_RAYCAST_H
#define IMPACT_RAYCAST_H

#include "shape.h"

typedef struct imp_ray_hit {
    double fraction;  /* in [0, 1] */
    double point[3];  /* world (z = 0 in 2D) */
    double normal[3]; /* unit, outward (z = 0 in 2D) */
} imp_ray_hit;

/* 1 and *hit when the segment hits the posed shape, 0 when it misses, -1 when the shape has
   no ray test (not a 2D polygon / not a 3D convex shape). from != to, all finite. */
int imp_raycast2d(const imp_shape *s, const double *pose, const double from[2], const double to[2],
                  imp_ray_hit *hit);
int imp_raycast3d(const imp_shape *s, const double *pose, const double from[3], const double to[3],
                  imp_ray_hit *hit);

/* 1 when p lies in the posed shape's material (boundary: either answer within round-off), 0
   when not, -1 when the shape has no test. */
int imp_contains2d(const imp_shape *s, const double *pose, const double p[2]);
int imp_contains3d(const imp_shape *s, const double *pose, const double p[3]);

#endif
