/* engine3d_cache.h: contact recycling for the 3D engine's detection (engine3d_detect.c), as
   serious engines do (persistent manifolds, contact recycling): each broad-phase pair keeps
   its last manifold (manifold3d.h) in the two bodies' frames, with the pair's relative pose
   when it was computed; while B has moved little relative to A since then, the points are
   rebuilt from these anchors at the current poses instead of computing the manifold again.

   Stored: per point its key, its anchor on A (A's frame, from A's centroid) and on B (B's
   frame); the normal in the frame of the body whose face is the reference (manifold3d.h: the
   key's bit 29 for clipped points, the wall for wall points, A otherwise); the relative pose
   (x_B - x_A in A's frame, x_A - x_B in B's frame, q_A* q_B) and the margin.

   Rebuilt points (at the current poses): n = the reference body's rotation of the stored
   normal; the incident point (on the body that is not the reference) from its anchor; the
   distance d = (p_b - p_a) . n with the reference anchor; the reference point is the
   incident one moved by d along n (point_b = point_a + d n, as the manifold gives them). The
   points farther than the current margin are left out.

   When (tol = distance_tol, R_A, R_B the bounding radii about the centroids, theta the angle
   of the relative rotation since the manifold was computed, c = 2 sin(theta / 2) its chord):
     D = min(|change of x_B - x_A in A's frame| + c R_B, |change of x_A - x_B in B's frame| + c R_A)
   bounds how far any point of one body moved relative to the other. It is recycled when
     D <= 0.01 tol (1e-4 m for the default tol: a tenth of the slop 0.1 tol below which a
          penetration is left alone, and 1 % of the gap at which a point counts as touching),
     D <= 1e-3 of the smaller shape's scale and theta <= about 1e-3 rad (c <= 2e-3),
     |margin - the margin it was computed with| <= 0.25 tol,
   and recomputed otherwise. Error bound: an incident vertex against a reference face (a box
   or hull on a face: the resting stacks) gets its exact distance to the reference plane, the
   plane turning with its body; any other point (clipped edge crossings, edge pairs, curved
   shapes' witness points) is the same material point moved by at most D, so its distance is
   off by at most D (plus D times the edge's slope over the side it crosses, small for the
   nearly flat incident features that are clipped) and the normal by at most theta (+ D over
   a curved shape's radius of curvature). Points the manifold would now add were farther than
   the old margin: by the band on the margin (0.25 tol + D < tol) none of them can close
   within the step (the margin is tol plus what the bodies can travel in it), so leaving them
   out changes no impulse. Keys are kept, so warm starts and contact events go on.
   A pair found farther apart than its margin keeps its gap g instead (narrow phase, collide3d.h):
   no point of either body moved by more than D relative to the other since, so the gap is still
   at least g - D, and while g - D exceeds the margin (with 1e-9 of the shapes' scale to spare
   for the narrow phase's own tolerance) the manifold would be empty: the pair is skipped, with
   no approximation at all.
   Deterministic: the decision depends on the poses and the cache only. The "volumetric"
   contact points (not features of either body) are never recycled. */
#ifndef IMPACT_ENGINE3D_CACHE_H
#define IMPACT_ENGINE3D_CACHE_H

#include "manifold3d.h"

/* A body's pose at detection: centroid, unit quaternion {w, x, y, z}, rotation (row-major). */
typedef struct imp_e3_pose {
    double x[3];
    double q[4];
    double r[9];
} imp_e3_pose;

/* One pair's cached manifold. */
typedef struct imp_e3_cached {
    int sa, sb;              /* slots */
    unsigned gen_a, gen_b;   /* their generations */
    int count;               /* points (0: nothing to recycle) */
    double gap;              /* count 0: the gap when found apart (> margin), else -1 */
    int ref;                 /* 1: the normal turns with B, 0: with A */
    double margin;           /* margin it was computed with */
    double dab[3], dba[3];   /* x_B - x_A in A's frame, x_A - x_B in B's frame */
    double qrel[4];          /* q_A* q_B */
    double normal[3];        /* in the reference body's frame */
    unsigned key[IMP_MANIFOLD3D_MAX];
    double la[IMP_MANIFOLD3D_MAX][3], lb[IMP_MANIFOLD3D_MAX][3]; /* anchors on A, on B */
} imp_e3_cached;

/* The pose of a body from its state {x, y, z, qw, qx, qy, qz} (the quaternion normalised as
   the narrow phase does). */
void imp_e3_pose_of(const double *y, imp_e3_pose *out);

/* The reference body (1: B) of a manifold of shapes a, b (manifold3d.h's keys). */
int imp_e3_manifold_ref(const imp_manifold3d *m, const imp_shape *a, const imp_shape *b);

/* Keeps the manifold m of slots (sa, sb) computed at poses pa, pb with margin. */
void imp_e3_cache_store(imp_e3_cached *c, int sa, int sb, unsigned gen_a, unsigned gen_b,
                        const imp_manifold3d *m, int ref, const imp_e3_pose *pa, const imp_e3_pose *pb,
                        double margin);

/* 1 when c holds the pair (sa, sb) of these generations and may be recycled at poses pa, pb
   (the header's rule; rad: bounding radii, scale: the smaller shape's scale). */
int imp_e3_cache_fits(const imp_e3_cached *c, int sa, int sb, unsigned gen_a, unsigned gen_b,
                      const imp_e3_pose *pa, const imp_e3_pose *pb, double rad_a, double rad_b, double scale,
                      double margin, double tol);

/* Keeps that the pair (sa, sb) was gap (> 0) apart at poses pa, pb. */
void imp_e3_cache_store_gap(imp_e3_cached *c, int sa, int sb, unsigned gen_a, unsigned gen_b, double gap,
                            const imp_e3_pose *pa, const imp_e3_pose *pb);

/* 1 when c holds a gap of the pair (sa, sb) that still exceeds margin at poses pa, pb. */
int imp_e3_cache_apart(const imp_e3_cached *c, int sa, int sb, unsigned gen_a, unsigned gen_b,
                       const imp_e3_pose *pa, const imp_e3_pose *pb, double rad_a, double rad_b, double scale,
                       double margin);

/* The cached points rebuilt at poses pa, pb, those within margin, into out (status OK). */
void imp_e3_cache_points(const imp_e3_cached *c, const imp_e3_pose *pa, const imp_e3_pose *pb, double margin,
                         imp_manifold3d *out);

#endif
