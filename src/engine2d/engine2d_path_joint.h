/* engine2d_path_joint.h: path joints of the 2D engine (myPhysicsLab's PathJoint on a
   NumericalPath): a body point held on a curve given as a table of points along it. The
   table (imp_path2d) keeps each point's path distance p (the chord lengths summed), the unit
   tangent (three-point derivatives in p) and the signed curvature; between two points the
   curve is the cubic Hermite of their positions and tangents. A path joint's record is a
   bilateral row along the path's normal at the point nearest to the attach point (found
   afresh at every detection; under conventions = "myphysicslab" by its local search from the
   point found last, the search state kept in the connector), whose derivative along the path
   gives the row's turning term. */
#ifndef IMPACT_ENGINE2D_PATH_JOINT_H
#define IMPACT_ENGINE2D_PATH_JOINT_H

#include <stddef.h>

struct imp_world;
struct imp_connector2d;
struct imp_rec2d;
struct imp_engine2d;

typedef struct imp_path2d {
    int n;          /* table points (at least 3) */
    int closed;     /* 1: the last point joins the first */
    double length;  /* total path distance */
    double *x, *y, *p, *tx, *ty, *k;  /* positions, distances, unit tangents, curvatures (one
                                         allocation of 8 n doubles: these 6 n, then 2 n of
                                         scratch for the normals while the table is built) */
} imp_path2d;

/* The point of a path nearest to a world point: position, unit tangent (toward increasing p),
   unit normal (its left), curvature k (dt/dp = k n), distance p along the path. */
typedef struct imp_path2d_point {
    double x, y, tx, ty, nx, ny, k, p;
} imp_path2d_point;

/* Adds a path from n points (xy: x0, y0, x1, y1, ...; closed: the last joins the first, which
   is not repeated); its index, or -1 with why filled (fewer than 3 points, a point not
   finite, two consecutive points equal, out of memory). O(n). */
int imp_engine2d_add_path(struct imp_world *w, const double *xy, int n, int closed, char *why,
                          size_t why_size);

/* The point of path `path` nearest to (x, y): the nearest table point (a scan of the table),
   then the nearer of its two segments, the foot of the perpendicular on the chord taken to
   the Hermite curve. O(n). */
void imp_engine2d_path_nearest(const imp_path2d *g, double x, double y, imp_path2d_point *q);

/* The point of path g at path distance p (0 <= p <= its length; past an open path's ends,
   its straight extension along the end's tangent). O(log n). */
void imp_engine2d_path_at(const imp_path2d *g, double p, imp_path2d_point *q);

/* conventions = "myphysicslab" (engine2d_path_search_mpl.c): the point of path g nearest to
   (x, y) as its NumericalPath.findNearestLocal finds it, from the table index *k_io and the
   path distance *p_io found last (a search over the table, then over p halving its step down
   to 1e-6; within about 1e-6 of the exact nearest point, depending on where it starts); both
   advanced to the point found (*p_io continued across a closed path's closing point, not
   wrapped), q at it (q->p = *p_io). Its closed tables hold the first point again at the end:
   a closed path is read with it. O(n / 20 + log n) for a start near the point. */
void imp_engine2d_path_search_mpl(const imp_path2d *g, double x, double y, int *k_io,
                                  double *p_io);
void imp_engine2d_path_nearest_mpl(const imp_path2d *g, double x, double y, int *k_io,
                                   double *p_io, imp_path2d_point *q);

/* The record of path joint c (connector index i) at state y, appended to the engine's
   records; 0, -1 out of memory. */
int imp_engine2d_path_record(struct imp_world *w, const double *y, struct imp_connector2d *c,
                             int i);

/* The record of path end c (connector index i) at state y when the point is within
   distance_tol of its limit or past it (a unilateral row along the path's tangent, as
   myPhysicsLab's PathEndPoint: distance limit - p for an upper limit, p - limit for a lower
   one; caught at the half gap like a rope); 0, -1 out of memory. */
int imp_engine2d_path_end_record(struct imp_world *w, const double *y,
                                 struct imp_connector2d *c, int i);

/* Path end c's gap at state y, found there afresh (myPhysicsLab's updateCollision of a
   PathEndPoint): *d its distance (limit - p, or p - limit), *v the attach point's velocity
   along its normal (the path's tangent at the nearest point, against the travel stopped).
   A record moved back with its bodies keeps its end state's tangent and velocity; the
   estimated moment of reaching the half gap needs the gap and its rate at the start. O(n). */
void imp_engine2d_path_end_gap(const struct imp_world *w, const double *y,
                               struct imp_connector2d *c, double *d, double *v);

/* 1 when connector `connector` (an index of world w's engine, or -1: none) is a path end
   (kind IMP_PATH_END). */
int imp_engine2d_is_path_end(const struct imp_world *w, int connector);

/* The path distance p of the table point nearest to (x, y) (myPhysicsLab's
   findNearestGlobal). O(n). */
double imp_engine2d_path_table_p(const imp_path2d *g, double x, double y);

/* How far the attach point of path joint c is from its path at state y; for a path end,
   how far past its limit (0 when not). */
double imp_engine2d_path_error(const struct imp_world *w, const double *y,
                               const struct imp_connector2d *c);

/* Frees the engine's paths. */
void imp_engine2d_free_paths(struct imp_engine2d *e);

#endif
