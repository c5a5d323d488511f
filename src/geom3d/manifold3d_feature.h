/* manifold3d_feature.h (internal to manifold3d.c): the support FEATURES of a posed 3D convex
   shape along a direction: the piece of its core (a polygon, a segment or a point) that touches
   the support plane, in world coordinates, with stable indices for the contact keys. */
#ifndef IMPACT_MANIFOLD3D_FEATURE_H
#define IMPACT_MANIFOLD3D_FEATURE_H

#include "support3d.h"

/* the most vertices a feature polygon keeps (hull faces with more are decimated by a stride) */
#define IMP_FEAT_MAX 64
/* a cylinder's or cone's flat cap (a disc) is approximated by this regular polygon */
#define IMP_FEAT_DISC 8

enum { IMP_FEAT_POINT = 0, IMP_FEAT_SEGMENT = 1, IMP_FEAT_POLYGON = 2 };

typedef struct imp_feature3d {
    int type;            /* IMP_FEAT_* */
    int n;               /* points: 1, 2 or the polygon's vertex count */
    imp_vec3 v[IMP_FEAT_MAX]; /* world core points; a polygon counter-clockwise seen from outside */
    unsigned vid[IMP_FEAT_MAX]; /* each point's index in the shape (corner, hull vertex, disc vertex) */
    imp_vec3 normal;     /* polygon: the outward unit face normal (world) */
    unsigned id;         /* which face / segment / point of the shape (< 128 for the keys) */
    int curved;          /* a disc polygon, or a segment of a curved surface (its support point
                            may lie between the feature's points) */
} imp_feature3d;

/* The face of the shape whose outward normal is most aligned with d (unit, world): box and hull
   faces, a cylinder's cap on d's side, a cone's base. Returns 0 when the shape has no flat face
   (sphere, ellipsoid, capsule, a fully rounded core) or the face is degenerate (fewer than two
   distinct vertices). */
int imp_feature3d_face(const imp_support3d *s, imp_vec3 d, imp_feature3d *f);

/* A box's (half extents h) face whose outward normal is most aligned with dd (its frame; ties
   to the lower axis): its four corners in its frame, counter-clockwise seen from outside, their
   indices in the box (bit k: the corner's side along axis k) and the face's id (2 axis + 1 on
   the positive side) as returned. */
unsigned imp_feature3d_box_corners(const double *h, const double dd[3], double l[4][3], unsigned vid[4]);

/* The shape's flat faces one by one (for a search when the narrow phase's normal is unreliable,
   at exact touching): their number (box 6, hull its faces or, smoothed, its triangles, cylinder 2,
   cone 1, 0 otherwise), and face k's world outward unit normal with the offset n.x of its core
   plane (a zero normal for a degenerate triangle). */
int imp_feature3d_nplanes(const imp_support3d *s);
imp_vec3 imp_feature3d_plane(const imp_support3d *s, int k, double *off);

/* The feature used as the INCIDENT side along d (unit, world: towards the other shape): the face
   most aligned with d for boxes and hulls (a caller clips it and keeps the points within the
   margin); a cylinder's cap when its axis is within about 6 degrees of d, its side line when the
   axis is within 6 degrees of perpendicular; a capsule's segment when it lies within 6 degrees of
   flat; a cone's base or slant line likewise; else the core's support point. */
void imp_feature3d_incident(const imp_support3d *s, imp_vec3 d, imp_feature3d *f);

/* The feature along d for an edge-on-edge contact (no face is the reference): a segment when
   the shape's support is a straight edge within 1e-3 rad (box or hull edge, capsule segment,
   cylinder side line, cone slant line), else the support point. */
void imp_feature3d_edge(const imp_support3d *s, imp_vec3 d, imp_feature3d *f);

#endif
