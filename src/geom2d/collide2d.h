/* collide2d.h: collision and contact detection between two posed polygons (polygon2d.h),
   after myPhysicsLab's engine2D (E. Neumann, "2D Physics Engine Overview": Collision
   Detection, Vertex/Edge with swept vertices, Edge/Edge, Decorated Vertexes; and "Curved Edge
   Physics" for circle/straight and circle/circle distances).

   Each result names a primary body (its vertex or edge meets the other) and a normal body
   (whose edge gives the normal). The normal points out of the normal body toward the primary;
   distance > 0 is a gap, < 0 a penetration; normal_velocity = (v_primary - v_normal) . normal
   at the point, < 0 when approaching.

   Kinds, from the caller's tolerances (myPhysicsLab defaults distance_tol 0.01,
   velocity_tol 0.5):
     collision: a penetration (distance < 0) or a vertex whose path since the previous pose
                crossed an edge inward (swept test: catches fast, thin cases);
     contact:   0 <= distance <= distance_tol and |normal_velocity| <= velocity_tol;
     imminent:  0 <= distance <= distance_tol and normal_velocity < -velocity_tol.
   Separating pairs within distance_tol (normal_velocity > velocity_tol) give nothing.

   Features tested:
     vertex/edge (any edge): every vertex's straight path old -> new in the normal body's
       frame against its edges (end points and decorated vertices); when no path crosses,
       convex corners only: a contact with every edge whose foot is inside it and within
       distance_tol, a collision with the nearest edge when the corner is inside the other
       body, or a vertex/vertex contact with a nearby corner;
     touching and coinciding corners (exactly aligned boxes, a side flush with a block's
       end): within a margin of 1e-9 (radii + distance_tol) of the boundary a corner touches
       (distance 0, never a collision); a corner within 1e-3 distance_tol of a corner of the
       other body, or near the end of the face it faces, meets only the faces its own edges
       do not run into (the contact normal lies in one body's normal cone and the opposite
       of the other's): equal boxes stacked exactly get one contact per coinciding corner
       pair, vertical, never a side face's; a corner sunk into an aligned box penetrates the
       top face, not the side line it lies on; a vertex/vertex normal must be one both
       corners bear. A path that ends on the surface, or runs inside a convex body for no
       more than the margin (leaving a coinciding corner along a side line), is not a
       crossing: the static tests classify it;
     straight/straight: by the vertex/edge tests (the nearest points of two segments include
       an end point);
     convex arc/straight: the arc's deepest point toward the line (centre must stay outside
       the line);
     convex/convex arcs: along the line of centres, each centre in the other's span, depth
       less than the larger arc depth (sagitta);
     concave/convex arcs: concave radius larger, along the line of centres;
       concave/straight and concave/concave never meet first (corners do).
   Decorated-vertex results (and swept results of smooth end points) yield to an edge/edge
   result between the same two edges. Static vertex results describing one touching point
   (faces meeting end to end are seen from both bodies; one corner on the smooth joint of two
   edges), and swept results of one crossing seen from both bodies, are merged: impact
   points within distance_tol and normals within |cos| >= 0.9 (myPhysicsLab's nearness rule
   for straight edges); vertex/edge is kept over vertex/vertex. */
#ifndef IMPACT_COLLIDE2D_H
#define IMPACT_COLLIDE2D_H

#include "shape.h"
#include "xform2d.h"

typedef struct imp_body2d {
    const imp_shape *shape;  /* a 2D shape built by polygon2d (every impact 2D shape) */
    int id;                  /* the caller's body id, copied into results */
    double pose[3];          /* {x, y, angle}, (x, y) = centroid */
    double prev_pose[3];     /* pose at the previous step, for swept tests */
    int has_prev;            /* 0: prev_pose unknown (e.g. after a back-up); static tests only
                                unless the other body has one (this one then counts as still) */
    double velocity[3];      /* {vx, vy, spin} */
} imp_body2d;

struct imp_poly2d;

/* What detection needs of a body beside its pose, computed once per detection pass by
   imp_collide2d_prepare and shared by every pair the body takes part in: its rigid
   transforms (cosine and sine of its angle) now at pose and prev at prev_pose (at pose when
   has_prev is 0), its polygon, and whether the body was checked valid (a 2D polygon with a
   finite pose, velocity and previous pose); for the clipping path (collide2d_clip.h), whether
   it applies to the body (clip: -1 not known, as imp_collide2d_prepare leaves it; 0 or 1 from
   imp_collide2d_clip_prepare, which then also holds the polygon's vertices at now in v when
   it has at most IMP_XF2D_VERTICES of them, else nv 0). */
enum { IMP_XF2D_VERTICES = 8 };
typedef struct imp_body2d_xf {
    imp_xf2 now, prev;
    const struct imp_poly2d *poly;
    int valid;
    int clip, nv;
    imp_vec2 v[IMP_XF2D_VERTICES];
} imp_body2d_xf;

typedef struct imp_detect2d_params {
    double distance_tol;  /* > 0 */
    double velocity_tol;  /* >= 0 */
    int keep_separating;  /* 1: also touching pairs moving apart faster than velocity_tol
                             (IMP_HIT_SEPARATING: the collision handling's records); 0: not */
    int corner_overlap;   /* 1: myPhysicsLab's corner tests: a corner that meets the end of
                             an edge past its line is a collision (its depth kept), and a
                             corner within distance_tol of a face, its foot inside the face,
                             touches that face whatever the corner's shape (its
                             findVertexContact); 0: such a corner on a corner touches (depth
                             0), and near a face's ends only a corner that meets the face (no
                             edge of its own running into it first) touches it. 1 also:
                             convex arcs meet however deep one lies in the other (no check
                             that the pair's middle is inside both), a swept mid-arc corner does
                             not yield to an edge/edge result, and a swept corner that ends
                             outside the edge it crossed keeps its distance there (a static
                             result, dropped beyond distance_tol), as myPhysicsLab's
                             CircleCircle and makeCollision */
} imp_detect2d_params;

enum { IMP_HIT_COLLISION = 0, IMP_HIT_CONTACT = 1, IMP_HIT_IMMINENT = 2, IMP_HIT_SEPARATING = 3 };
enum { IMP_HIT_VERTEX_EDGE = 0, IMP_HIT_EDGE_EDGE = 1, IMP_HIT_VERTEX_VERTEX = 2 };

/* the slack of a corner's normal cone: a normal within 1e-3 (cosine) of a corner's edge counts
   as that edge's */
#define IMP_COLLIDE2D_CONE_SLACK 1e-3

typedef struct imp_hit2d {
    int body;             /* id of the primary body */
    int normal_body;      /* id of the normal body */
    int kind;             /* IMP_HIT_COLLISION, _CONTACT, _IMMINENT */
    int type;             /* IMP_HIT_VERTEX_EDGE, _EDGE_EDGE, _VERTEX_VERTEX */
    int vertex;           /* primary's vertex (vertex/edge, vertex/vertex), else -1 */
    int edge;             /* primary's edge (edge/edge), else -1 */
    int normal_edge;      /* normal body's edge (vertex/edge, edge/edge), else -1 */
    int normal_vertex;    /* normal body's vertex (vertex/vertex), else -1 */
    int decorated;        /* 1: the vertex is a decorated (mid-arc) vertex */
    int swept;            /* 1: found by the swept vertex path */
    double point[2];      /* impact point, world, on the normal body's surface */
    double point_primary[2]; /* the primary's feature point (vertex, or deepest arc point) */
    double normal[2];     /* unit, world */
    double distance;      /* signed, < 0 penetration */
    double normal_velocity;
    double cone_margin;   /* vertex/vertex: how far inside both corners' normal cones the line
                             of the corners is (the smaller cosine from its edges; above
                             IMP_COLLIDE2D_CONE_SLACK: no face of either lies along it, not
                             coinciding corners of aligned faces); 0 for the other types */
    double curvature;     /* signed curvature of the primary's edge (0: vertex or straight) */
    double normal_curvature; /* of the normal body's edge (+1/r convex, -1/r concave, 0) */
} imp_hit2d;

/* Detects between bodies a and b. Writes at most capacity results into out and returns how
   many were found (more than capacity means out was too small: call again with room for the
   returned count; the duplicate merging runs only when everything fitted, so the second call
   may return fewer). Returns -1 when a shape is not a 2D polygon, the tolerances are bad or a
   pose or velocity is not finite.
   Cost: for small polygons O(Ea Eb) edge pairs (pruned by bounding circles) + O(Va Eb + Vb Ea)
   vertex tests after a bounding-circle rejection; polygons of more than IMP_EDGE_TREE_MIN
   edges look up the edges near each feature in their edge tree (collide2d_tree.h: about
   O((Va + Vb + arcs) log E) for ordinary outlines, the same results bit for bit). No
   allocation, except a hash grid for merging duplicates among more than 64 results. */
int imp_collide2d_detect(const imp_body2d *a, const imp_body2d *b, const imp_detect2d_params *p,
                         imp_hit2d *out, int capacity);

/* Fills x for body b (two cos/sin pairs at most); 0, or -1 when b is not valid (x->valid 0).
   O(1). */
int imp_collide2d_prepare(const imp_body2d *b, imp_body2d_xf *x);

/* imp_collide2d_detect with the bodies' data from imp_collide2d_prepare (on the bodies as
   they are: the caller keeps them in step): the same results, bit for bit, without the
   trigonometry and checks of every pair. -1 also when a body was not valid. */
int imp_collide2d_detect_xf(const imp_body2d *a, const imp_body2d_xf *xa, const imp_body2d *b,
                            const imp_body2d_xf *xb, const imp_detect2d_params *p, imp_hit2d *out,
                            int capacity);

/* Every touching or penetrating feature pair of two posed shapes, statically and at any depth
   (distance <= 0; no tolerances, velocities or previous poses): the vertex/edge, arc/line and
   arc/arc rules above without depth limits. Body ids are 0 for a and 1 for b. Returns the
   count (more than capacity: call again), -1 for a shape that is not a 2D polygon. */
int imp_collide2d_penetrations(const imp_shape *a, const double *pose_a, const imp_shape *b,
                               const double *pose_b, imp_hit2d *out, int capacity);

#endif
