/* compliant_patch.h: the contact patch of a flat (non-sphere) pair in 3D under the compliant law.

   Modia3D's documents (seed 002) keep to point contact and smooth every shape, because a single
   deepest point jumps between the corners of a face lying on a face and the integrator fails on
   the jumping force. A 3D pair of which neither shape is a sphere is instead a PATCH pair:

   Points. Its contact points are the clipped manifold of the two shapes (manifold3d.h: at most 4
   points sharing one normal, the incident face clipped against the reference face; boxes, hulls
   smoothed or not, polyhedra by their planar faces, walls, cylinders, ...). A point's depth is
   minus its distance; a corner that lifts leaves the patch at depth 0, so the sum below does
   not jump as the body rocks (only the reduction of more than 4 candidates to 4 can move a
   point, on faces with more than 4 corners). Solfec's volumetric manifold
   (manifold_polyhedral.h) was tried for polyhedra and left out: where an edge lands on a face,
   its normal (the area-weighted average of the wedge's faces) tilts with the wedge's shape and
   the step size collapsed at the first touch.

   Faces against the narrow phase. The manifold prefers a reference face whose separation is
   within about 2e-3 of the shapes' size of the best axis (right for the rigid engine's stable
   stacks, wrong by up to a few tenths of a millimetre for a law whose depths are nanometres):
   where a box leans with an edge across another's edge, its face points came out 0.16 mm deep
   while the true penetration (the narrow phase's minimum translation distance) was 0.17 um,
   and the manifold switched between that face and the narrow phase's single point as the
   bodies moved, a force jumping between 0 and 500 N that the error control crept across with
   steps of 1e-9 s (the 20-box pile of bench/compliant_boxes.lua stopped at t = 0.306 s). The
   face's points therefore carry the weight of imp_compliant_patch_weight, which compares the
   deepest face point with the narrow phase's depth and goes from 1 (the face is the contact:
   resting faces, edges, corners) to 0 (the face is far deeper than the true penetration) over
   a band of that depth, continuously; the narrow phase's point carries the rest. Where the
   manifold itself switches to the narrow phase's point, the face's weight is already 0, so the
   force stays continuous in the state.

   Law per point. Each point carries the share IMP_PATCH_SHARE = 1/4 of the pair's stiffness
   and feels the law of compliant_law.h with the flat factors of imp_law_flat_geometry:
       f_i = share k_red c_res c_geo (delta_i - delta_on) (1 + d ddelta_i),   n_geo = 1,
   c_geo = 2 a, a = sqrt(A / pi) (Boussinesq's rigid flat punch of radius a on an elastic
   half-space: F = 2 a E* delta), A the patch area of the pair (imp_compliant_flat_area: the
   smaller of the two shapes' largest faces). A face resting on its 4 corners gets the full
   punch stiffness 2 a c_res, an edge half of it, a corner a quarter.

   Onset. delta_on = 2 z_eps: a contact begins (seed 000) when the distance falls below
   -2 z_eps; measuring the law's penetration from there makes the force start at 0, so no
   energy is injected at each begin (flat steel contacts rest a few nanometres deep, less than
   z_eps, and the jump k 2 z_eps threw a resting box off the plate thousands of times a second).
   The onset is a ramp (imp_law_onset_ramp, half-width IMP_PATCH_RAMP delta_on = z_eps / 2):
   the force's slope jumps at a bare onset, and corners of resting and leaning boxes, a few
   nanometres beyond it, cross it back and forth, each crossing cutting an explicit method's
   step by a factor of ten or more; with the ramp the force has a continuous second
   derivative, and it is exact from delta_on + z_eps / 2 on. A box of weight m g at rest on a
   face thus sinks (when its corners are deeper than 2.5 z_eps, as a 10 cm steel cube's are)
       delta = 2 z_eps + m g / (k_red c_res 2 a).
   Smoothing (a sweep radius) is never required; a smoothed box is still a patch pair.

   Within a step. The manifold is taken after each accepted step and at each event, with the
   points within a margin of a hundredth of the smaller bounding radius (lifted corners come
   with depth <= 0 and no force). When all its points are vertices of the incident shape (a
   face or an edge resting on a face or a wall), its weight is 1 and the bodies do not slide
   (relative speed under vsmall), they are kept as material points of each body
   with the normal turning with the body that holds the reference face, and every evaluation
   inside the next step measures them at its state: a vertex's distance to the reference plane
   is exact as the bodies move, the choice of points changes only between steps, and the
   manifold is computed once per step instead of at each of the method's stages (a resting box
   costs half as much). Otherwise (crossings of edges, which slide along the edges as the
   bodies move, the narrow phase's single point, a weight below 1) the manifold is taken anew
   at each evaluation: frozen crossings jump by the sliding distance at each step and the step size
   collapsed on sliding, tumbling boxes. */
#ifndef IMPACT_COMPLIANT_PATCH_H
#define IMPACT_COMPLIANT_PATCH_H

#include "compliant.h"
#include "manifold3d.h"
#include "shape.h"

#define IMP_PATCH_SHARE 0.25
/* the half-width of the onset ramp as a fraction of the onset 2 z_eps (z_eps / 2) */
#define IMP_PATCH_RAMP 0.25

/* The area of the largest flat face of shape s (m^2): a box's largest face, a polyhedron's or
   hull's largest planar face (coplanar triangles merged), the cap of a cylinder or cone, pi r^2
   for a capsule, pi a b (the two largest semi-axes) for an ellipsoid; INFINITY for a wall. */
double imp_compliant_flat_area(const imp_shape *s);

/* The patch of shapes a and b at their poses: the points within margin (m >= 0; count 0 when
   apart). Deterministic, no allocation. */
void imp_compliant_patch(const imp_shape *a, const double *pose_a, const imp_shape *b, const double *pose_b,
                         double margin, imp_manifold3d *out);
/* The weight of the face manifold m against the narrow phase's deepest point g (the rest,
   1 - weight, goes to g's point): 1 for a wall's, a segment pair's or the narrow phase's own
   points, 0 without points; for points clipped against a reference face, from the excess e of
   the manifold's deepest point over g's depth (the minimum translation distance), on the band
   b = max(g's depth, floor): 1 for e <= b / 1000, 0 for e >= b, a cubic (C1) in between. */
double imp_compliant_patch_weight(const imp_manifold3d *m, const imp_proximity *g, double floor);
/* Whether every point of the manifold is a vertex of the incident shape (manifold3d.h's keys:
   a wall's points, or clipped points coded below 64), which a step can follow as material
   points; crossings of edges, reference corners and narrow-phase points cannot. */
int imp_compliant_patch_material(const imp_manifold3d *m);
/* Whether the manifold's normal belongs to B's face (a clipped manifold whose reference face is
   B's, manifold3d.h's keys: kind 0 and bit 29; a wall as B), so that it turns with B. */
int imp_compliant_patch_normal_in_b(const imp_shape *b, const imp_manifold3d *m);

#endif
