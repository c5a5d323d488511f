/* bench3d_scenes.h: the 3D contact scenes of the peers' benches (../shared/peers/bullet-ode,
   README "Scenes"; ../shared/peers/box3d runs the same), re-expressed for impact's
   bench_engine3d so that its result line can be set beside Bullet's, ODE's and Box3D's:
   the same boxes, starts, step counts, outcome figures and output line (key=value pairs in the
   peers' order, then impact's own keys).

   Conventions: SI units, g = 9.81 m/s^2 along -z, dt = 1/60 s, every body a box, quaternions
   (w, x, y, z), cubes of density 1 kg/m^3, restitution 0, friction 0.6 unless the scene sets
   it. Fixed boxes come first in a scene's list, the dynamic cubes after them.

   - pyramid2d B: a one-cube-thick wall of unit cubes in the x-z plane, row i (0 = bottom) of
     B - i cubes, each centred over the joint of the two below, neighbours exactly touching;
     500 steps. B = 20, 50, 100: 210, 1275, 5050 cubes.
   - pyramid3d B: layer k of (B - k) x (B - k) unit cubes, each on a quarter of four below;
     500 steps. B = 5, 10, 15: 55, 385, 1240 cubes.
     Figures: max_disp (largest displacement of a cube), top_dz (the top cube's z drift),
     ke_end, stands (complete and max_disp < 0.1 m).
   - pile N: N unit cubes on a 6 x 6 grid per layer, 1.5 m apart, lowest centres at z = 1, each
     tilted by qz qy qx with angles uniform in +-0.15 rad drawn in that order (x, y, z) from the
     Numerical Recipes LCG seeded 12345 (24-bit draws: the peers' starts exactly), dropped into
     a 10 m x 10 m open box with 1 m thick floor and walls 20 m high; 1000 steps. Figures:
     mean_z, max_z, ke_end, escaped (centres outside the container).
   - slide [angle]: a 2 m cube (8 kg) on the ground, mu = sqrt(0.72), fired at 20 m/s along
     (cos angle, sin angle, 0); 180 steps. Figures at t = 1 s: x1, v1 along the firing
     direction; stop_t (first time |v| < 0.01 m/s), stop_dist and stop_dir_deg at the end.
     Analytic with a = mu g: x1 = v0 - a/2, v1 = v0 - a, stop at v0/a after v0^2/(2a).
   - incline [mu]: a 1 m cube at rest on a fixed box tilted 30 deg about +y; 120 steps.
     Figures: s1, v1 along the slope at 1 s, s2 at 2 s, n2 (normal) and y2 (sideways) drift.
     Analytic: a = g (sin 30 - mu cos 30), 0 when that is negative (static friction holds). */
#ifndef IMPACT_BENCH3D_SCENES_H
#define IMPACT_BENCH3D_SCENES_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define B3_PI 3.14159265358979323846
#define B3_G 9.81
#define B3_DT (1.0 / 60.0)
#define B3_MU 0.6
#define B3_DENSITY 1.0
#define B3_STAND_TOL 0.1      /* pyramids stand when no cube moved this far (m) */
#define B3_SLIDE_MU 0.848528137423857 /* sqrt(0.9 * 0.8) */
#define B3_SLIDE_V0 20.0
#define B3_SLIDE_STOP_V 0.01
#define B3_INCLINE_DEG 30.0
#define B3_PILE_HALF_INNER 5.0

typedef enum b3_kind { B3_PYRAMID2D, B3_PYRAMID3D, B3_PILE, B3_SLIDE, B3_INCLINE } b3_kind;

typedef struct b3_box {
    double size[3];   /* full edge lengths, m */
    double pos[3];
    double q[4];      /* (w, x, y, z) */
    double vel[3];
    double mass;      /* 0: fixed */
} b3_box;

typedef struct b3_scene {
    b3_kind kind;
    const char *name;
    double size;      /* B, N, angle (deg) or mu as run */
    int steps;
    double mu;
    double dir[3];    /* slide: firing direction; incline: down the slope */
    double nrm[3];    /* incline: the plane's normal */
    b3_box *box;      /* nfixed fixed boxes, then ndyn dynamic cubes */
    int nfixed, ndyn, cap;
} b3_scene;

/* What a run measured, filled while it runs and at its end. */
typedef struct b3_outcome {
    double contacts_sum;
    int contact_steps;
    double pen_max, pen_end;
    double x1, v1, stop_t;
    double fig[4];
    int sunk;         /* dynamic centres under the surface they started on, within its extent:
                         fell through it (not off its edge) */
} b3_outcome;

static inline b3_box *b3_push(b3_scene *s, double sx, double sy, double sz, double x, double y, double z,
                              double mass)
{
    if (s->nfixed + s->ndyn == s->cap) {
        int cap = s->cap > 0 ? 2 * s->cap : 64;
        b3_box *nb = realloc(s->box, (size_t)cap * sizeof *nb);
        if (nb == NULL) {
            fprintf(stderr, "bench3d: out of memory\n");
            exit(1);
        }
        s->box = nb;
        s->cap = cap;
    }
    b3_box *b = &s->box[s->nfixed + s->ndyn];
    memset(b, 0, sizeof *b);
    b->size[0] = sx, b->size[1] = sy, b->size[2] = sz;
    b->pos[0] = x, b->pos[1] = y, b->pos[2] = z;
    b->q[0] = 1.0;
    b->mass = mass;
    if (mass > 0.0) {
        s->ndyn++;
    } else {
        s->nfixed++;
    }
    return b;
}

static inline double b3_cube_mass(double edge) { return B3_DENSITY * edge * edge * edge; }

/* rotation by angle about a unit axis, and the product a b */
static inline void b3_q_axis(double q[4], double ax, double ay, double az, double angle)
{
    double s = sin(0.5 * angle);
    q[0] = cos(0.5 * angle), q[1] = ax * s, q[2] = ay * s, q[3] = az * s;
}

static inline void b3_q_mul(double out[4], const double a[4], const double b[4])
{
    double r[4] = {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
                   a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
                   a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
                   a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
    memcpy(out, r, sizeof r);
}

/* The Numerical Recipes linear congruential generator; 24-bit uniform draws in [lo, hi). */
static inline double b3_uniform(uint32_t *state, double lo, double hi)
{
    *state = *state * 1664525u + 1013904223u;
    return lo + (hi - lo) * (double)(*state >> 8) / 16777216.0;
}

static inline void b3_pyramid(b3_scene *s, int base, int layers3d)
{
    s->steps = 500;
    double ext = base + 10.0;  /* the ground reaches 5 m beyond the base on each side */
    b3_push(s, ext, layers3d ? ext : 10.0, 1.0, 0.0, 0.0, -0.5, 0.0);
    for (int k = 0; k < base; k++) {
        int n = base - k;
        double off = 0.5 * (n - 1), z = 0.5 + k;
        for (int a = 0; a < n; a++) {
            if (!layers3d) {
                b3_push(s, 1, 1, 1, a - off, 0.0, z, b3_cube_mass(1.0));
                continue;
            }
            for (int b = 0; b < n; b++) {
                b3_push(s, 1, 1, 1, a - off, b - off, z, b3_cube_mass(1.0));
            }
        }
    }
}

static inline void b3_pile(b3_scene *s, int n)
{
    const double hi = B3_PILE_HALF_INNER, t = 1.0, wall = 20.0;
    s->steps = 1000;
    b3_push(s, 2 * (hi + t), 2 * (hi + t), t, 0.0, 0.0, -0.5 * t, 0.0);
    for (int side = -1; side <= 1; side += 2) {
        b3_push(s, t, 2 * (hi + t), wall, side * (hi + 0.5 * t), 0.0, 0.5 * wall, 0.0);
    }
    for (int side = -1; side <= 1; side += 2) {
        b3_push(s, 2 * (hi + t), t, wall, 0.0, side * (hi + 0.5 * t), 0.5 * wall, 0.0);
    }
    uint32_t seed = 12345u;
    for (int i = 0; i < n; i++) {
        int layer = i / 36, row = (i / 6) % 6, col = i % 6;
        b3_box *b = b3_push(s, 1, 1, 1, 1.5 * (col - 2.5), 1.5 * (row - 2.5), 1.0 + 1.5 * layer,
                            b3_cube_mass(1.0));
        double ang[3], qx[4], qy[4], qz[4];
        for (int k = 0; k < 3; k++) {
            ang[k] = b3_uniform(&seed, -0.15, 0.15);
        }
        b3_q_axis(qx, 1, 0, 0, ang[0]);
        b3_q_axis(qy, 0, 1, 0, ang[1]);
        b3_q_axis(qz, 0, 0, 1, ang[2]);
        b3_q_mul(b->q, qy, qx);
        b3_q_mul(b->q, qz, b->q);
    }
}

/* Builds scene name at size (<= 0: its default); 0, or -1 for an unknown name. */
static inline int b3_build(b3_scene *s, const char *name, double size)
{
    memset(s, 0, sizeof *s);
    s->name = name;
    s->mu = B3_MU;
    if (strcmp(name, "pyramid2d") == 0 || strcmp(name, "pyramid3d") == 0) {
        int d3 = name[7] == '3';
        s->kind = d3 ? B3_PYRAMID3D : B3_PYRAMID2D;
        s->size = size > 0 ? (int)size : (d3 ? 5 : 20);
        b3_pyramid(s, (int)s->size, d3);
    } else if (strcmp(name, "pile") == 0) {
        s->kind = B3_PILE;
        s->size = size > 0 ? (int)size : 300;
        b3_pile(s, (int)s->size);
    } else if (strcmp(name, "slide") == 0) {
        s->kind = B3_SLIDE;
        s->size = size > 0 ? size : 0.0;
        s->steps = 180;
        s->mu = B3_SLIDE_MU;
        double a = s->size * B3_PI / 180.0;
        s->dir[0] = cos(a), s->dir[1] = sin(a);
        b3_push(s, 80, 80, 1, 0.0, 0.0, -0.5, 0.0);
        b3_box *b = b3_push(s, 2, 2, 2, 0.0, 0.0, 1.0, b3_cube_mass(2.0));
        b->vel[0] = B3_SLIDE_V0 * s->dir[0], b->vel[1] = B3_SLIDE_V0 * s->dir[1];
    } else if (strcmp(name, "incline") == 0) {
        s->kind = B3_INCLINE;
        s->size = size > 0 ? size : 0.3;
        s->mu = s->size;
        s->steps = 120;
        double a = B3_INCLINE_DEG * B3_PI / 180.0, q[4];
        s->dir[0] = cos(a), s->dir[2] = -sin(a);
        s->nrm[0] = sin(a), s->nrm[2] = cos(a);
        b3_q_axis(q, 0, 1, 0, a);
        /* the plane box's top face passes through the origin; the cube rests on it there */
        b3_box *p = b3_push(s, 40, 10, 1, -0.5 * s->nrm[0], 0.0, -0.5 * s->nrm[2], 0.0);
        memcpy(p->q, q, sizeof q);
        b3_box *c = b3_push(s, 1, 1, 1, 0.5 * s->nrm[0], 0.0, 0.5 * s->nrm[2], b3_cube_mass(1.0));
        memcpy(c->q, q, sizeof q);
    } else {
        return -1;
    }
    return 0;
}

/* The pile's study variants (bench_engine3d --column, --straight, --lean): column >= 0 keeps
   only the cubes of that column (0 to 35, i % 36: the same starts); straight sets every cube
   upright and stacks each column's cubes touching (centres at z = 0.5 + layer) instead of 1.5 m
   apart; lean shifts layer k by k lean along x. */
static inline void b3_pile_variant(b3_scene *s, int column, int straight, double lean)
{
    int kept = 0;
    for (int i = 0; i < s->ndyn; i++) {
        b3_box b = s->box[s->nfixed + i];
        int layer = i / 36;
        if (column >= 0 && i % 36 != column) {
            continue;
        }
        if (straight) {
            b.q[0] = 1.0, b.q[1] = b.q[2] = b.q[3] = 0.0;
            b.pos[2] = 0.5 + layer;
        }
        b.pos[0] += layer * lean;
        s->box[s->nfixed + kept++] = b;
    }
    s->ndyn = kept;
}

static inline const b3_box *b3_dyn(const b3_scene *s, int i) { return &s->box[s->nfixed + i]; }

static inline double b3_dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static inline void b3_outcome_init(b3_outcome *o)
{
    memset(o, 0, sizeof *o);
    o->x1 = o->v1 = NAN;
    o->stop_t = -1.0;
}

/* After each step: the contact points held and the deepest penetration among them (m). */
static inline void b3_contacts(b3_outcome *o, double points, double deepest)
{
    o->contacts_sum += points;
    o->contact_steps++;
    o->pen_end = deepest;
    o->pen_max = fmax(o->pen_max, deepest);
}

/* Whether the scene reads the state after step (1-based) during the run. */
static inline int b3_wants_state(const b3_scene *s, int step)
{
    return s->kind == B3_SLIDE || (s->kind == B3_INCLINE && step == 60);
}

/* During the run, the first dynamic body's position and velocity after step. */
static inline void b3_observe(const b3_scene *s, b3_outcome *o, int step, const double *pos, const double *vel)
{
    const b3_box *b = b3_dyn(s, 0);
    if (step == 60) {
        double d[3] = {pos[0] - b->pos[0], pos[1] - b->pos[1], pos[2] - b->pos[2]};
        o->x1 = b3_dot(d, s->dir);
        o->v1 = b3_dot(vel, s->dir);
    }
    if (s->kind == B3_SLIDE && o->stop_t < 0.0 && sqrt(b3_dot(vel, vel)) < B3_SLIDE_STOP_V) {
        o->stop_t = step * B3_DT;
    }
}

/* At the end: state(i) gives dynamic body i's 13 numbers (x, q, v, w). */
typedef const double *(*b3_state_fn)(void *ctx, int i);

static inline void b3_final(const b3_scene *s, b3_outcome *o, b3_state_fn state, void *ctx)
{
    int n = s->ndyn;
    double ke = 0.0;
    o->sunk = 0;
    for (int i = 0; i < n; i++) {
        const double *y = state(ctx, i), *v = y + 7, *w = y + 10;
        const b3_box *b = b3_dyn(s, i);
        double inertia = b->mass * b->size[0] * b->size[0] / 6.0;  /* a cube: m a^2 / 6 */
        ke += 0.5 * b->mass * b3_dot(v, v) + 0.5 * inertia * b3_dot(w, w);
        /* the ground's and the floor's top (box 0) is z = 0; the incline's surface passes
           through 0 */
        const b3_box *g = &s->box[0];
        if (s->kind == B3_INCLINE) {
            o->sunk += b3_dot(y, s->nrm) < 0.0;
        } else {
            o->sunk += y[2] < 0.0 && fabs(y[0] - g->pos[0]) <= 0.5 * g->size[0] &&
                       fabs(y[1] - g->pos[1]) <= 0.5 * g->size[1];
        }
    }
    if (s->kind == B3_PYRAMID2D || s->kind == B3_PYRAMID3D) {
        double dmax = 0.0;
        for (int i = 0; i < n; i++) {
            const double *y = state(ctx, i);
            const b3_box *b = b3_dyn(s, i);
            double d[3] = {y[0] - b->pos[0], y[1] - b->pos[1], y[2] - b->pos[2]};
            dmax = fmax(dmax, sqrt(b3_dot(d, d)));
        }
        o->fig[0] = dmax;
        o->fig[1] = state(ctx, n - 1)[2] - b3_dyn(s, n - 1)->pos[2];
        o->fig[2] = ke;
    } else if (s->kind == B3_PILE) {
        double zsum = 0.0, zmax = -HUGE_VAL;
        int out = 0;
        for (int i = 0; i < n; i++) {
            const double *y = state(ctx, i);
            zsum += y[2];
            zmax = fmax(zmax, y[2]);
            out += fabs(y[0]) > B3_PILE_HALF_INNER || fabs(y[1]) > B3_PILE_HALF_INNER || y[2] < 0.0;
        }
        o->fig[0] = zsum / n;
        o->fig[1] = zmax;
        o->fig[2] = ke;
        o->fig[3] = out;
    } else {
        const double *y = state(ctx, 0);
        const b3_box *b = b3_dyn(s, 0);
        double d[3] = {y[0] - b->pos[0], y[1] - b->pos[1], y[2] - b->pos[2]};
        if (s->kind == B3_SLIDE) {
            o->fig[0] = hypot(d[0], d[1]);
            o->fig[1] = atan2(d[1], d[0]) * 180.0 / B3_PI;
        } else {
            o->fig[0] = b3_dot(d, s->dir);
            o->fig[1] = b3_dot(d, s->nrm);
            o->fig[2] = d[1];
        }
    }
}

/* The peers' result line (no newline): engine, solver, iterations, the steps done of
   s->steps, seconds spent stepping, why the run stopped ("-" when complete) and the scene's
   figures. With no step done, the figures are nan. */
static inline void b3_print(const b3_scene *s, const b3_outcome *o, const char *engine, const char *solver, int iters,
                     int done, double seconds, const char *stop)
{
    b3_outcome none;
    if (done == 0) {
        none = *o;
        none.pen_max = none.pen_end = NAN;
        for (int k = 0; k < 4; k++) {
            none.fig[k] = NAN;
        }
        o = &none;
    }
    printf("engine=%s solver=%s iters=%d scene=%s size=%g bodies=%d steps=%d dt=%.6f ms_per_step=%.6f "
           "contacts=%.1f pen_max=%.5f pen_end=%.5f complete=%d stop=%s msgs=0",
           engine, solver, iters, s->name, s->size, s->ndyn, done, B3_DT, done > 0 ? 1e3 * seconds / done : NAN,
           o->contact_steps > 0 ? o->contacts_sum / o->contact_steps : NAN, o->pen_max, o->pen_end,
           done == s->steps, stop);
    switch (s->kind) {
    case B3_PYRAMID2D:
    case B3_PYRAMID3D:
        printf(" max_disp=%.5f top_dz=%.5f ke_end=%.4g stands=%s", o->fig[0], o->fig[1], o->fig[2],
               o->fig[0] >= B3_STAND_TOL ? "0" : done == s->steps ? "1" : "na");
        break;
    case B3_PILE:
        printf(" mean_z=%.4f max_z=%.4f ke_end=%.4g escaped=%d", o->fig[0], o->fig[1], o->fig[2],
               (int)o->fig[3]);
        break;
    case B3_SLIDE: {
        double a = s->mu * B3_G, v0 = B3_SLIDE_V0;
        printf(" mu=%.6f x1=%.4f v1=%.4f stop_t=%.4f stop_dist=%.4f stop_dir_deg=%.2f exp_x1=%.4f "
               "exp_v1=%.4f exp_stop_t=%.4f exp_stop_dist=%.4f",
               s->mu, o->x1, o->v1, o->stop_t, o->fig[0], o->fig[1], v0 - 0.5 * a, v0 - a, v0 / a,
               v0 * v0 / (2.0 * a));
        break;
    }
    case B3_INCLINE: {
        double th = B3_INCLINE_DEG * B3_PI / 180.0, a = fmax(0.0, B3_G * (sin(th) - s->mu * cos(th)));
        printf(" mu=%.3f s1=%.5f v1=%.5f s2=%.5f n2=%.5f y2=%.5f exp_s1=%.5f exp_v1=%.5f exp_s2=%.5f", s->mu,
               o->x1, o->v1, o->fig[0], o->fig[1], o->fig[2], 0.5 * a, a, 2.0 * a);
        break;
    }
    }
}

#endif
