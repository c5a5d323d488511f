/* polygon2d.h: 2D polygons whose edges are straight segments or circular arcs (convex or
   concave), with one or more closed paths (a frame has an outer and an inner path), as the
   bodies of myPhysicsLab's engine2D (E. Neumann, "2D Physics Engine Overview", Polygon).

   Orientation: every path keeps the material on its LEFT. Outer boundaries therefore run
   counter-clockwise, holes clockwise. An arc is convex when it bulges away from the material
   (it runs counter-clockwise about its centre) and concave otherwise.

   Built shapes are imp_shape objects (kind "polygon", or "circle"/"rectangle" for the two
   basic presets) whose data is an imp_poly2d. Geometry is stored in the centred frame
   (shape coordinates minus the centroid; see xform2d.h). */
#ifndef IMPACT_POLYGON2D_H
#define IMPACT_POLYGON2D_H

#include "shape.h"
#include "vec2.h"
#include "xform2d.h"

enum { IMP_EDGE_LINE = 0, IMP_EDGE_ARC = 1 };
/* edge flags */
enum { IMP_EDGE_NO_COLLIDE = 1 };

typedef struct imp_edge2d {
    int kind;          /* IMP_EDGE_LINE or IMP_EDGE_ARC */
    int path;          /* the path holding the edge */
    int v0, v1;        /* its start and end vertex (end points, indices into vertices) */
    unsigned flags;    /* IMP_EDGE_NO_COLLIDE */
    imp_vec2 a, b;     /* start and end point */
    double length;     /* arc length */
    /* straight edge */
    imp_vec2 t, n;     /* unit direction a->b; outward unit normal (right of t) */
    /* circular edge */
    imp_vec2 c;        /* centre */
    double r;          /* radius */
    int convex;        /* 1: material inside the circle (the outward normal points away from c) */
    double theta0;     /* angle of a seen from c */
    double sweep;      /* signed angle from a to b about c: > 0 counter-clockwise; |sweep| <= 2 pi */
    double depth;      /* how far the arc reaches from its chord (sagitta; r for |sweep| >= pi) */
    /* bounding circle of the edge, for pruning */
    imp_vec2 bc;
    double br;
} imp_edge2d;

typedef struct imp_vertex2d {
    imp_vec2 p;
    int edge_in;     /* the edge ending here (for a decorated vertex: the arc it lies on) */
    int edge_out;    /* the edge starting here (decorated: the same arc) */
    int corner;      /* 1: a convex corner (the boundary turns toward the material); such end
                        points take part in contact tests */
    int decorated;   /* 1: an extra vertex along an arc, used only for swept collision tests */
} imp_vertex2d;

typedef struct imp_poly2d {
    int nedges, npaths;
    int narcs;              /* how many edges are arcs (0: straight edges only) */
    int convex;             /* 1: one path, no concave arc, no reflex corner */
    int lines_convex;       /* 1: one path of straight edges whose every end point is a convex
                               corner (turns left by more than 1e-9): a strictly convex polygon */
    int nvertices;   /* end points first (nends of them), then decorated vertices */
    int nends;
    imp_edge2d *edges;      /* path by path, in order */
    imp_vertex2d *vertices;
    int *path_start;        /* npaths + 1 offsets into edges */
    imp_vec2 centroid;      /* in the user's shape coordinates */
    double radius;          /* bounding radius about the centroid */
    double spacing;         /* decorated vertex spacing along arcs (capped per turn) */
    double params[3];       /* preset parameters (circle: r; rectangle: w, h) */
    struct imp_edge2d_node *tree; /* edge tree (collide2d_tree.h), NULL for small polygons */
    int ntree;              /* its node count */
} imp_poly2d;

/* ---- Building ---------------------------------------------------------------------------- */

enum { IMP_PATH_MOVE = 0, IMP_PATH_LINE = 1, IMP_PATH_ARC = 2, IMP_PATH_CLOSE = 3 };

/* One command of a path description. MOVE starts a path at (x, y); LINE and ARC draw to
   (x, y); an ARC has centre (cx, cy) and bulges away from the material when outside != 0
   (convex) or into it (concave); CLOSE ends the path, drawing a straight edge back to its
   start unless the current point is already there. flags apply to the edge drawn. */
typedef struct imp_path2d_cmd {
    int op;
    double x, y;
    double cx, cy;
    int outside;
    unsigned flags;
} imp_path2d_cmd;

enum {
    IMP_POLY_OK = 0,
    IMP_POLY_BAD_COMMAND,  /* a line or arc before move_to, a non-finite number, bad option */
    IMP_POLY_OPEN_PATH,    /* a path not closed, or with no edges */
    IMP_POLY_ZERO_EDGE,    /* an edge of zero length */
    IMP_POLY_ARC_OFF_CIRCLE, /* an arc whose end points are not on one circle about its centre */
    IMP_POLY_CROSSING,     /* edges or paths that cross, touch or double back */
    IMP_POLY_ORIENTATION,  /* a path running the wrong way for its nesting */
    IMP_POLY_ZERO_AREA,    /* a path or a polygon without area */
    IMP_POLY_NO_MEMORY,
    IMP_POLY_TOO_BIG,      /* too many edges or vertices, or sizes out of range */
    IMP_POLY_BAD_SIZE      /* a size option or the shape's size out of the accepted range */
};

typedef struct imp_poly2d_error {
    int status;
    char message[256];
} imp_poly2d_error;

#define IMP_POLY2D_DEFAULT_SPACING 0.3
/* At most this many pieces of decorated vertices per full turn of an arc (whatever its radius
   or the spacing), and at most IMP_POLY2D_MAX_VERTICES vertices in all. */
#define IMP_POLY2D_ARC_PIECES 1024
#define IMP_POLY2D_MAX_VERTICES (1 << 26)
#define IMP_POLY2D_MAX_PATHS 10000
/* Accepted lengths (sizes, radii, spacing, coordinates): their squares and fourth powers (areas
   and polar moments) stay far from overflow and underflow. */
#define IMP_POLY2D_LENGTH_MIN 1e-60
#define IMP_POLY2D_LENGTH_MAX 1e60

/* Builds a polygon from ncmds commands; spacing (> 0) is the greatest distance between
   decorated vertices along arcs (there is also one at least every 45 degrees, and at most
   IMP_POLY2D_ARC_PIECES pieces per full turn, so an arc's vertex count is bounded by its
   angle alone). kind_name is
   the shape kind ("polygon" when NULL; "circle" or "rectangle" for the basic presets).
   Returns NULL with err filled (status and a message naming the path and edge) on bad input.
   Cost: O(E^2) for the crossing checks, E the number of edges. */
imp_shape *imp_shape2d_polygon(const imp_path2d_cmd *cmds, int ncmds, double spacing,
                               imp_poly2d_error *err);

/* For the presets: the same with the shape kind (IMP_POLY_KIND_*) and, when symmetry fixes it,
   the exact centroid in shape coordinates (NULL: computed). */
enum { IMP_POLY_KIND_POLYGON = 0, IMP_POLY_KIND_CIRCLE = 1, IMP_POLY_KIND_RECTANGLE = 2 };
imp_shape *imp_shape2d_polygon_kind(int kind, const imp_path2d_cmd *cmds, int ncmds, double spacing,
                                    const imp_vec2 *centroid, imp_poly2d_error *err);
/* A copy of 2D shape s whose reference point (the origin of its body frame, the body's centre
   of mass) is (cx, cy) in s's shape coordinates instead of its centroid: the same outline, the
   same area, and the same polar moment per unit area about the true centroid (the moment of a
   body given a centre of mass off its centroid is its own, as myPhysicsLab's
   setCenterOfMass keeps it; give the body an inertia for another). Its centroid field holds
   (cx, cy). NULL with err filled when s is not a 2D shape, the point is not finite, or out of
   memory. O(E + V). */
imp_shape *imp_shape2d_recentred(const imp_shape *s, double cx, double cy, imp_poly2d_error *err);
/* 1 when an area and a polar moment of area are positive, finite and normal. */
int imp_poly2d_mass_ok(double area, double polar);
/* Fills err (may be NULL) with status and a message formatted with one number; returns status. */
int imp_poly2d_fail(imp_poly2d_error *err, int status, const char *fmt, double value);

/* The polygon of a 2D shape built here (every 2D shape of impact); NULL for other shapes. */
const imp_poly2d *imp_shape2d_poly(const imp_shape *s);

/* ---- Presets (all centred on their centroid except where said) --------------------------- */
/* Each returns NULL with err filled when a parameter is out of range (err may be NULL). */
imp_shape *imp_shape2d_ball(double radius, double spacing, imp_poly2d_error *err);
imp_shape *imp_shape2d_block(double width, double height, imp_poly2d_error *err);
/* A regular polygon with the given circumradius and a horizontal bottom edge. */
imp_shape *imp_shape2d_ngon(int sides, double radius, imp_poly2d_error *err);
/* A rectangle with convex quarter-circle corners, corner_radius <= min(width, height) / 2. */
imp_shape *imp_shape2d_rounded_block(double width, double height, double corner_radius,
                                     double spacing, imp_poly2d_error *err);
/* A rectangular frame: the outer rectangle less the inner one, 0 < thickness < min / 2. */
imp_shape *imp_shape2d_frame(double outer_width, double outer_height, double thickness,
                             imp_poly2d_error *err);
/* A block [-w/2, w/2] x [0, height] (shape coordinates: not centred) whose top edge is a
   circular arc of the given radius (>= w/2) through the top corners, bulging up (convex) or
   dipping down (concave; its depth must stay below height). */
imp_shape *imp_shape2d_arc_top_block(double width, double height, double radius, int convex,
                                     double spacing, imp_poly2d_error *err);

/* ---- Per-point geometry, in shape coordinates and world coordinates ---------------------- */

/* body (shape coordinates) <-> world at a pose {x, y, angle} */
imp_vec2 imp_shape2d_to_world(const imp_shape *s, const double *pose, imp_vec2 p);
imp_vec2 imp_shape2d_to_body(const imp_shape *s, const double *pose, imp_vec2 w);
/* 1 when the shape-coordinates point lies inside the material (boundary counts as inside).
   O(E) for small polygons, the edges near the ray through the edge tree for large ones. */
int imp_shape2d_contains(const imp_shape *s, imp_vec2 p);

/* Broad-phase box {lo_x, lo_y, hi_x, hi_y} of a 2D shape: its exact bounds at pose, merged
   with those at prev_pose (NULL: none) so a swept vertex test between the two finds its
   partner, grown by margin (e.g. the world's distance tolerance) on every side. O(E). */
void imp_shape2d_swept_bounds(const imp_shape *s, const double *pose, const double *prev_pose,
                              double margin, double box[4]);

/* The same box from the polygon and its transforms at pose and previous pose (prev NULL:
   none), e.g. cached by imp_collide2d_prepare. O(E), no trigonometry for straight edges. */
void imp_poly2d_swept_bounds_xf(const imp_poly2d *g, imp_xf2 now, const imp_xf2 *prev,
                                double margin, double box[4]);

/* crossing-number point-in-region test in the centred frame (boundary: either answer) */
int imp_poly2d_contains_centred(const imp_poly2d *g, imp_vec2 q);

#endif
