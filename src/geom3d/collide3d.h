/* collide3d.h: the 3D narrow phase: signed distance, normal and closest (or deepest) points
   between two posed 3D convex shapes (shape3d.h). */
#ifndef IMPACT_COLLIDE3D_H
#define IMPACT_COLLIDE3D_H

#include "shape.h"

enum {
    IMP_NP_OK = 0,          /* converged */
    IMP_NP_MAXITER = 1,     /* an iteration cap was hit: the result is the best estimate */
    IMP_NP_BADINPUT = 2,    /* not 3D convex shapes, or a non-finite pose: result zeroed */
    IMP_NP_UNSUPPORTED = 3  /* wall against wall: result zeroed */
};

/* which path answered */
enum { IMP_NP_ANALYTIC = 0, IMP_NP_GJK = 1, IMP_NP_MPR_EPA = 2, IMP_NP_FLAT = 3 };

typedef struct imp_contact3d {
    int status;
    int method;
    double distance;   /* signed: > 0 separated, < 0 penetrating (minus the true depth) */
    double normal[3];  /* unit, from A towards B: translating B by -distance * normal (when
                          penetrating) separates the shapes */
    double point_a[3]; /* world: closest point of A (separated) or deepest point of A in B */
    double point_b[3]; /* world: point_b = point_a + distance * normal */
    int iterations;    /* support calls of GJK + MPR + EPA (0 on analytic paths) */
} imp_contact3d;

/* The pair's answer through the dispatch table (analytic for sphere/sphere, sphere/capsule,
   capsule/capsule, sphere/box, anything/wall, box/box when their cores overlap
   (collide3d_box.h); GJK, MPR and EPA otherwise). Poses are
   {x, y, z, qw, qx, qy, qz} of the centroids. Returns out->status. Deterministic, no
   allocation (EPA works in a per-thread buffer). Tolerances are relative to the shapes' sizes
   s = the sum of their bounding radii: GJK stops at a duality gap of 1e-11 s, EPA when the
   support along the nearest face is within 1e-10 s of it; caps: GJK 128, MPR 128, EPA 590
   iterations (then status IMP_NP_MAXITER with the best estimate). Measured accuracy on the
   tests: 1e-12 on analytic pairs, 1e-9 on polytope cores, about 1e-9 on curved cores. */
int imp_collide3d(const imp_shape *a, const double *pose_a, const imp_shape *b, const double *pose_b,
                  imp_contact3d *out);
/* The same through the general path only (GJK, MPR + EPA), bypassing the analytic pairs. */
int imp_collide3d_general(const imp_shape *a, const double *pose_a, const imp_shape *b,
                          const double *pose_b, imp_contact3d *out);
/* MPR's own penetration estimate for the whole shapes (no EPA): distance = -(MPR depth) when
   they overlap, else the status IMP_NP_OK with distance = +0 and method IMP_NP_GJK after a GJK
   call; for comparisons and benchmarks. */
int imp_collide3d_mpr(const imp_shape *a, const double *pose_a, const imp_shape *b, const double *pose_b,
                      imp_contact3d *out);
const char *imp_collide3d_status_message(int status);

#endif
