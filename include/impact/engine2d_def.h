/* impact/engine2d_def.h: the options of the 2D engine's strategies (impulse, contact), plain data
   the world's definition holds (impact/world.h); the engine itself is src/engine2d/engine2d.h. */
#ifndef IMPACT_PUBLIC_ENGINE2D_DEF_H
#define IMPACT_PUBLIC_ENGINE2D_DEF_H

typedef enum imp_collision_handling {
    IMP_HANDLING_SIMULTANEOUS = 0,  /* one LCP over all collisions */
    IMP_HANDLING_SERIAL = 1,        /* one collision at a time, random order, then a last pass */
    IMP_HANDLING_HYBRID = 2         /* serial, but a body's simultaneous collisions together */
} imp_collision_handling;

extern const char *const imp_collision_handling_names[];

typedef enum imp_extra_accel {
    IMP_EXTRA_NONE = 0,
    IMP_EXTRA_VELOCITY = 1,                  /* e = v / h at contacts */
    IMP_EXTRA_VELOCITY_AND_DISTANCE = 2,     /* e = (2 v h + (d - gap)) / h^2 at contacts */
    IMP_EXTRA_VELOCITY_JOINTS = 3,           /* the same, joints included */
    IMP_EXTRA_VELOCITY_AND_DISTANCE_JOINTS = 4
} imp_extra_accel;

extern const char *const imp_extra_accel_names[];

/* The soft step (contact_solver = "soft"), as Box2D v3 and Box3D step: each step is cut into
   `substeps` equal sub-steps; in each, the contacts and joints are solved once with soft rows
   (a spring of stiffness frequency hertz and damping ratio damping_ratio pulls overlaps out, at
   most push_max m/s), then relaxed once without the spring (relax_iterations passes); then one
   restitution pass for approaches faster than restitution_threshold. Joints use their own
   joint_hertz and joint_damping_ratio. Defaults are Box2D v3's. precision IMP_SOFT_FLOAT (the
   2D default) solves the contact pairs' rows in float (as Box2D v3 does; positions and the
   step's end stay double): faster on large scenes, at float's round-off (a box at rest creeps
   about 1e-9 m in 2 s where IMP_SOFT_DOUBLE gives none measurable; the 3D soft step solves in
   double). */
typedef enum { IMP_SOFT_DOUBLE = 0, IMP_SOFT_FLOAT = 1 } imp_soft_precision;
extern const char *const imp_soft_precision_names[];
typedef struct imp_soft_def {
    double hertz;                 /* Hz: contact stiffness frequency (30) */
    double damping_ratio;         /* contact damping ratio (10) */
    double push_max;              /* m/s: fastest push-out of an overlap (3) */
    double joint_hertz;           /* Hz: joint stiffness frequency (60) */
    double joint_damping_ratio;   /* joint damping ratio (2) */
    double restitution_threshold; /* m/s: slower approaches do not bounce (1) */
    int relax_iterations;         /* relax passes per sub-step (1) */
    int iterations;               /* solve passes per sub-step (1) */
    imp_soft_precision precision; /* the contact passes' arithmetic (2D: IMP_SOFT_FLOAT) */
} imp_soft_def;

typedef struct imp_engine2d_def {
    imp_collision_handling collision_handling;
    double distance_tol;        /* m: touching below this gap (myPhysicsLab 0.01) */
    double velocity_tol;        /* m/s: contacts move slower than this along the normal (0.5) */
    double collision_accuracy;  /* in (0, 1]: handle within accuracy * gap/2 of gap/2 (0.6) */
    imp_extra_accel extra_accel;
    double extra_accel_dt;      /* s: h of the extra acceleration (0: the world's dt) */
    int max_backups;            /* back-ups in a row before the step fails (30) */
    int joint_small_impacts;    /* after a step without collisions, zero the joints' velocity */
    int contact_solver;         /* IMP_SOLVER_LCP (exact pivoting), IMP_SOLVER_PGS,
                                   IMP_SOLVER_COULOMB (2D: coulomb.h's Newton, the 3D engine
                                   treats it as "lcp") or IMP_SOLVER_SOFT (the soft step) */
    int pgs_iterations;         /* PGS sweeps per solve (warm-started) */
    int time_stepping;          /* IMP_STEPPING_ODE or IMP_STEPPING_SYMPLECTIC_EULER */
    int contact_points;         /* 3D: IMP_POINTS_CLIPPING or IMP_POINTS_VOLUMETRIC */
    int substeps;               /* 3D, and 2D under "soft": equal sub-steps per step, each with
                                   its own contact problem (1, and 4 under "soft"; as Box3D's
                                   sub-stepping: tall stacks settle with fewer sweeps) */
    imp_soft_def soft;          /* contact_solver = "soft" */
    int conventions;            /* IMP_CONVENTIONS_IMPACT, or _MYPHYSICSLAB: its approximations */
} imp_engine2d_def;

/* Whose formulas the 2D engine's collision advance uses where myPhysicsLab approximates
   (conventions = "impact" | "myphysicslab"): impact's exact gap accelerations and handling, or
   myPhysicsLab's three choices, so that its scenes come out as its own test suite asserts:
   a vertex contact's lever arms at the foot of the perpendicular on the edge, the curvature
   term of an arc contact with the whole relative velocity, and after a back-up only the
   records that penetrated or approach faster than velocity_tol handled as collisions. */
enum { IMP_CONVENTIONS_IMPACT = 0, IMP_CONVENTIONS_MYPHYSICSLAB = 1 };
extern const char *const imp_conventions_names[];

/* How a trial step advances the bodies (engine2d_symplectic.c): with the world's integrator,
   the contact forces solved at each of its evaluations (ODE), or by one semi-implicit Euler
   step with one velocity-level contact solve. */
typedef enum imp_time_stepping {
    IMP_STEPPING_ODE = 0,
    IMP_STEPPING_SYMPLECTIC_EULER = 1
} imp_time_stepping;

extern const char *const imp_time_stepping_names[];

/* How the 3D engine finds the contact points of a pair: by clipping the touching features
   (manifold3d.h, every pair), or, for pairs of polyhedra (polyhedra, unsmoothed hulls and
   boxes), from their volumetric intersection as Solfec does (manifold_polyhedral.h). */
typedef enum imp_contact_points {
    IMP_POINTS_CLIPPING = 0,
    IMP_POINTS_VOLUMETRIC = 1
} imp_contact_points;

extern const char *const imp_contact_points_names[];

/* How the contact and impulse LCPs are solved: exactly by Baraff's pivoting (lcp.h; O(n^3)
   per solve, dense), or approximately by projected Gauss-Seidel over the Jacobian rows
   (O(rows) per sweep, warm-started from the last solve's forces of the same feature pairs;
   for large scenes such as pyramids of hundreds of boxes). PGS leaves residuals, so under it
   the contact strategy keeps slow (|v| <= velocity_tol) penetrations shallower than
   distance_tol as contacts that the extra acceleration pushes back to the half gap, instead
   of backing up; and a trial step's later RK4 stages reuse the contacts found at its first
   stage, moved rigidly with the bodies (exact for vertices and straight edges), instead of
   detecting again. */
enum { IMP_SOLVER_LCP = 0, IMP_SOLVER_PGS = 1, IMP_SOLVER_COULOMB = 2, IMP_SOLVER_SOFT = 3 };
extern const char *const imp_contact_solver_names[];

imp_engine2d_def imp_engine2d_default_def(void);

#endif
