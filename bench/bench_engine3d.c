/* bench_engine3d.c: the 3D engine (contact strategy) on the scenes of the 3D peers' benches
   (bench3d_scenes.h: pyramid2d, pyramid3d, pile, slide, incline, as in
   ../shared/peers/bullet-ode and ../shared/peers/box3d), printing the peers' result line so
   that tools/bench3d_peers.sh can set impact beside Bullet 3.24, ODE 0.16 and Box3D in one run.

     bench_engine3d <scene> [size] [--solver lcp|pgs|soft] [--iters N] [--steps N] [--max-wall S]
                    [--handling simultaneous|serial|hybrid] [--substeps N] [--hertz H]
                    [--damping Z] [--diag K] [--column C] [--straight] [--lean L] [--profile] [--events]

   The world: dim 3, strategy "contact", time_stepping "symplectic_euler" (one velocity-level
   contact solve per step), dt = 1/60, g = 9.81 along -z, collision_handling "simultaneous"
   unless given (one contact problem per step, as the peers solve), the engine's default
   distance_tol and velocity_tol. Every body has friction mu (the pair takes the smaller of
   its two bodies', so each contact gets mu) and elasticity 0. The contact problem is solved
   exactly (--solver lcp: Siconos-style error <= 1e-10; the engine sweeps a problem of more
   than its exact solver's row cap instead, with --iters sweeps or its default) or by --iters
   projected Gauss-Seidel sweeps (pgs; 10 by default, as the peers' Bullet and ODE QuickStep),
   or by the soft step (soft: engine3d_soft.h, as Box3D's; 4 sub-steps unless --substeps, each
   --iters solve passes (1) and one relax pass; the soft contacts' stiffness frequency --hertz
   (soft.hertz, 30 Hz unless given; the engine takes at most a quarter of the sub-step rate)
   and damping ratio --damping (soft.damping_ratio, 10 unless given); the engine's soft
   defaults otherwise).

   ms_per_step times imp_world_step only (CLOCK_MONOTONIC around each call, summed, the first
   step's included, as the peers'; six decimals, for a step of a few microseconds). contacts:
   the contact points the engine held, mean per step (points within its margin, speculative
   ones included, as the peers count points up to 0.02 m apart); pen_max / pen_end: the
   deepest penetration at each step's detection. After the peers' keys come impact's own:
   residual (Siconos' error of the run's last solve, exact or swept; na when none ran),
   residual_max (its largest over the run), swept_steps (steps whose problem the lcp
   setting left to the sweeps, above the exact solver's row cap), unsolved (solves that
   stopped above the tolerance), sunk (dynamic cubes whose centre ended under the ground or
   floor, inside its extent: fell through it, not off its edge), handling, substeps and
   hertz and damping (the soft step's; 0 for lcp and pgs), first_step_ms and
   first_step_faults (the first step alone: its time, inside ms_per_step, and the process's
   minor page faults during it, getrusage's ru_minflt: the pages the step touches first, its
   heap, stack and code; a scene of a few steps pays them in its ms_per_step), peak_rss_mb, state_hash
   (the world's state hash at the run's end, imp_world_state_hash: a restructuring of the
   engine leaves it unchanged for every scene and solver). A step that fails stops the run
   (stop=error, the world's message on stderr). With no arguments it prints how it is run and exits 0 (make bench
   runs every bench binary bare; the 3D scenes are run by tools/bench3d_peers.sh).

   The pile's study (manual chapter 10, the soft step's pile of 1000): --diag K prints a line
   every K steps (cubes above z = 20 m and outside the box, kinetic energy, deepest penetration,
   contact points and pairs, the largest horizontal distance of a cube from its start, and the
   last cube's x and y offsets from the first one's start (a straight column's lean) and its
   height, and the kinetic energy's vertical and rotational parts);
   --column C keeps one column of the pile, --straight stacks the columns upright and touching,
   --lean L shifts layer k by k L along x (bench3d_scenes.h, b3_pile_variant).
   --profile prints the world's stage times (w:stats().profile's totals, impact/profile.h) to
   stderr at the end, in ms per step done: where the soft step's time goes (detect: the broad
   and narrow phase; integrate: the forces, free motion, the blocks' setup and the positions;
   contact_solve: the passes; contacts: the points' events and records, islands).
   Contact events: the world builds none (imp_world_set_contact_events(w, 0)), as Box3D's bench
   (b3DefaultShapeDef leaves enableContactEvents false) and a Lua world without a contact event
   handler; --events builds them, as a C world does by default. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <impact/shape.h>
#include <impact/world.h>

#include "bench3d_impact.h"
#include "bench3d_scenes.h"
#include "bench_util.h"
#include "strategy.h"

#define USAGE                                                                                       \
    "usage: bench_engine3d <scene> [size] [--solver lcp|pgs|soft] [--iters N] [--steps N] [--max-wall S]\n" \
    "                      [--handling simultaneous|serial|hybrid] [--substeps N] [--hertz H]\n"                       \
    "                      [--damping Z] [--diag K] [--column C] [--straight] [--lean L]  (pile studies) [--profile]\n"                         \
    "                      [--events]\n"                                                                                       \
    "scenes: pyramid2d [B=20] | pyramid3d [B=5] | pile [N=300] | slide [angle_deg=0] | incline [mu=0.3]\n"

typedef struct options {
    const char *scene;
    double size;
    int solver;      /* IMP_SOLVER_LCP, IMP_SOLVER_PGS or IMP_SOLVER_SOFT */
    int iters;
    int substeps;    /* the 3D engine's sub-steps per step (1) */
    double hertz;    /* > 0: the soft step's soft.hertz (--hertz) */
    double damping;  /* > 0: the soft step's soft.damping_ratio (--damping) */
    int steps;       /* > 0: instead of the scene's */
    double max_wall; /* > 0: stop once stepping used this many seconds */
    int handling;
    int diag;        /* > 0: a diagnostic line every diag steps */
    int column;      /* >= 0: the pile's column kept */
    int straight;
    double lean;
    int profile;     /* 1: the stage times to stderr at the end */
    int events;      /* 1: contact events built (--events) */
} options;

/* the strategy's counters of the last step, by name */
typedef struct step_stats {
    double points, pairs, penetration, error, unsolved, solves, skipped;
} step_stats;

static void take_stat(void *ctx, const char *name, double v, int count)
{
    (void)count;
    step_stats *s = ctx;
    if (strcmp(name, "contact_points") == 0) {
        s->points = v;
    } else if (strcmp(name, "contact_pairs") == 0) {
        s->pairs = v;
    } else if (strcmp(name, "max_penetration") == 0) {
        s->penetration = v;
    } else if (strcmp(name, "solver_error") == 0) {
        s->error = v;
    } else if (strcmp(name, "solve_failures") == 0) {
        s->unsolved = v;
    } else if (strcmp(name, "contact_solves") == 0) {
        s->solves = v;
    } else if (strcmp(name, "exact_skipped") == 0) {
        s->skipped = v;
    }
}

static int parse_enum(const char *v, const char *const *names, int *out)
{
    for (int i = 0; names[i] != NULL; i++) {
        if (strcmp(v, names[i]) == 0) {
            *out = i;
            return 0;
        }
    }
    return -1;
}

static int parse(int argc, char **argv, options *o)
{
    static const char *const solvers[] = {"lcp", "pgs", "", "soft", NULL};  /* IMP_SOLVER_* */
    static const char *const handlings[] = {"simultaneous", "serial", "hybrid", NULL};
    memset(o, 0, sizeof *o);
    o->solver = IMP_SOLVER_LCP;
    o->iters = 0;  /* pgs: 10 (the peers' Bullet and ODE iterations); lcp: the engine's default */
    o->handling = IMP_HANDLING_SIMULTANEOUS;
    o->column = -1;
    int size_seen = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (strcmp(a, "--solver") == 0 && v != NULL) {
            if (parse_enum(v, solvers, &o->solver) != 0 || v[0] == '\0') {
                fprintf(stderr, "bench_engine3d: --solver '%s': expected lcp, pgs or soft\n", v);
                return -1;
            }
            i++;
        } else if (strcmp(a, "--handling") == 0 && v != NULL) {
            if (parse_enum(v, handlings, &o->handling) != 0) {
                fprintf(stderr, "bench_engine3d: --handling '%s': expected simultaneous, serial or hybrid\n", v);
                return -1;
            }
            i++;
        } else if ((strcmp(a, "--iters") == 0 || strcmp(a, "--steps") == 0
                    || strcmp(a, "--substeps") == 0) && v != NULL) {
            long n = strtol(v, &end, 10);
            if (*end != '\0' || n < 1 || n > 100000000 || (a[3] == 'u' && n > 1000)) {
                fprintf(stderr, "bench_engine3d: %s '%s': expected a whole number >= 1%s\n", a, v,
                        a[3] == 'u' ? " and <= 1000" : "");
                return -1;
            }
            *(a[2] == 'i' ? &o->iters : a[3] == 'u' ? &o->substeps : &o->steps) = (int)n;
            i++;
        } else if ((strcmp(a, "--diag") == 0 || strcmp(a, "--column") == 0) && v != NULL) {
            long n = strtol(v, &end, 10);
            int col = a[2] == 'c';
            if (*end != '\0' || n < (col ? 0 : 1) || n > (col ? 35 : 100000000)) {
                fprintf(stderr, "bench_engine3d: %s '%s': expected a whole number %s\n", a, v,
                        col ? "from 0 to 35" : ">= 1");
                return -1;
            }
            *(col ? &o->column : &o->diag) = (int)n;
            i++;
        } else if (strcmp(a, "--straight") == 0) {
            o->straight = 1;
        } else if (strcmp(a, "--profile") == 0) {
            o->profile = 1;
        } else if (strcmp(a, "--events") == 0) {
            o->events = 1;
        } else if (strcmp(a, "--lean") == 0 && v != NULL) {
            o->lean = strtod(v, &end);
            if (*end != '\0' || !(fabs(o->lean) <= 1.0)) {
                fprintf(stderr, "bench_engine3d: --lean '%s': expected metres per layer within [-1, 1]\n", v);
                return -1;
            }
            i++;
        } else if ((strcmp(a, "--hertz") == 0 || strcmp(a, "--damping") == 0) && v != NULL) {
            double x = strtod(v, &end);
            if (*end != '\0' || !(x > 0.0 && x <= 1e6)) {
                fprintf(stderr, "bench_engine3d: %s '%s': expected a number in (0, 1e6]\n", a, v);
                return -1;
            }
            *(a[2] == 'h' ? &o->hertz : &o->damping) = x;
            i++;
        } else if (strcmp(a, "--max-wall") == 0 && v != NULL) {
            o->max_wall = strtod(v, &end);
            if (*end != '\0' || !(o->max_wall >= 0.0)) {
                fprintf(stderr, "bench_engine3d: --max-wall '%s': expected seconds >= 0\n", v);
                return -1;
            }
            i++;
        } else if (a[0] == '-' && !(a[1] >= '0' && a[1] <= '9')) {
            fprintf(stderr, "bench_engine3d: unknown option '%s'\n", a);
            return -1;
        } else if (o->scene == NULL) {
            o->scene = a;
        } else if (!size_seen) {
            o->size = strtod(a, &end);
            if (*end != '\0' || !isfinite(o->size)) {
                fprintf(stderr, "bench_engine3d: size '%s': expected a number\n", a);
                return -1;
            }
            size_seen = 1;
        } else {
            fprintf(stderr, "bench_engine3d: unexpected argument '%s'\n", a);
            return -1;
        }
    }
    if (o->solver == IMP_SOLVER_PGS && o->iters == 0) {
        o->iters = 10;
    }
    return o->scene != NULL ? 0 : -1;
}

/* the scene's boxes in a new world; ids of the dynamic ones in dyn. NULL on failure. */
static imp_world *make_world(const b3_scene *s, const options *o, imp_body_id *dyn)
{
    imp_world_def def = imp_world_default_def(3);
    def.dt = B3_DT;
    def.gravity[0] = def.gravity[1] = 0.0;
    def.gravity[2] = -B3_G;
    def.strategy = IMP_STRATEGY_CONTACT;
    def.engine2d.time_stepping = IMP_STEPPING_SYMPLECTIC_EULER;
    def.engine2d.contact_solver = o->solver;
    if (o->iters > 0) {
        def.engine2d.pgs_iterations = o->iters;  /* lcp: the sweeps of problems it does not take */
    }
    def.engine2d.collision_handling = (imp_collision_handling)o->handling;
    def.engine2d.substeps = o->substeps > 0 ? o->substeps : 1;
    if (o->solver == IMP_SOLVER_SOFT) {  /* Box3D's: 4 sub-steps, 1 solve and 1 relax pass each */
        def.engine2d.substeps = o->substeps > 0 ? o->substeps : 4;
        def.engine2d.soft.iterations = o->iters > 0 ? o->iters : 1;
        if (o->hertz > 0.0) {
            def.engine2d.soft.hertz = o->hertz;
        }
        if (o->damping > 0.0) {
            def.engine2d.soft.damping_ratio = o->damping;
        }
    }
    imp_world *w = imp_world_new(&def);
    if (w == NULL) {
        fprintf(stderr, "bench_engine3d: the world could not be made\n");
        return NULL;
    }
    imp_world_set_contact_events(w, o->events);
    if (b3_add_boxes(w, s, dyn, "bench_engine3d") != 0) {
        imp_world_free(w);
        return NULL;
    }
    return w;
}

typedef struct state_ctx {
    const imp_world *w;
    const imp_body_id *dyn;
} state_ctx;

static const double *state_of(void *ctx, int i)
{
    const state_ctx *c = ctx;
    return imp_world_body_state_read(c->w, c->dyn[i]);
}

/* --diag: one line of the run's state after step */
static void print_diag(const b3_scene *s, const imp_world *w, const imp_body_id *dyn, int step, const step_stats *ss)
{
    int above = 0, out = 0;
    double ke = 0.0, ke_rot = 0.0, ke_z = 0.0, lateral = 0.0;
    for (int i = 0; i < s->ndyn; i++) {
        const double *y = imp_world_body_state_read(w, dyn[i]), *v = y + 7, *om = y + 10;
        const b3_box *b = b3_dyn(s, i);
        double inertia = b->mass * b->size[0] * b->size[0] / 6.0;
        ke += 0.5 * b->mass * b3_dot(v, v) + 0.5 * inertia * b3_dot(om, om);
        ke_rot += 0.5 * inertia * b3_dot(om, om);
        ke_z += 0.5 * b->mass * v[2] * v[2];
        above += y[2] > 20.0;
        out += fabs(y[0]) > B3_PILE_HALF_INNER || fabs(y[1]) > B3_PILE_HALF_INNER || y[2] < 0.0;
        lateral = fmax(lateral, hypot(y[0] - b->pos[0], y[1] - b->pos[1]));
    }
    /* the last cube's horizontal offset from the first one's start (a straight column's lean) */
    const double *top = imp_world_body_state_read(w, dyn[s->ndyn - 1]);
    printf("diag step=%d above20=%d out=%d ke=%.4g pen=%.4f points=%.0f pairs=%.0f max_lateral=%.4f top_x=%.4f "
           "top_y=%.4f top_z=%.4f ke_z=%.4g ke_rot=%.4g\n",
           step, above, out, ke, ss->penetration, ss->points, ss->pairs, lateral, top[0] - b3_dyn(s, 0)->pos[0],
           top[1] - b3_dyn(s, 0)->pos[1], top[2], ke_z, ke_rot);
}

int main(int argc, char **argv)
{
    if (argc == 1) {
        printf("bench_engine3d: the 3D contact scenes beside Bullet, ODE and Box3D are run by "
               "tools/bench3d_peers.sh (make bench runs it)\n%s",
               USAGE);
        return 0;
    }
    options o;
    if (parse(argc, argv, &o) != 0) {
        fputs(USAGE, stderr);
        return 2;
    }
    double most = strcmp(o.scene, "pyramid2d") == 0 ? 1000 : strcmp(o.scene, "pyramid3d") == 0 ? 100 : 1e6;
    if (o.size > most) {
        fprintf(stderr, "bench_engine3d: %s size %g: expected at most %g\n", o.scene, o.size, most);
        return 2;
    }
    b3_scene s;
    if (b3_build(&s, o.scene, o.size) != 0) {
        fprintf(stderr, "bench_engine3d: unknown scene '%s'\n%s", o.scene, USAGE);
        return 2;
    }
    if (o.column >= 0 || o.straight || o.lean != 0.0) {
        if (s.kind != B3_PILE) {
            fprintf(stderr, "bench_engine3d: --column, --straight and --lean are the pile's\n");
            free(s.box);
            return 2;
        }
        b3_pile_variant(&s, o.column, o.straight, o.lean);
        if (s.ndyn == 0) {
            fprintf(stderr, "bench_engine3d: --column %d: the pile of %g has no cube in it\n", o.column, s.size);
            free(s.box);
            return 2;
        }
    }
    if (o.steps > 0) {
        s.steps = o.steps;
    }
    imp_body_id *dyn = malloc((size_t)s.ndyn * sizeof *dyn);
    imp_world *w = dyn != NULL ? make_world(&s, &o, dyn) : NULL;
    if (w == NULL) {
        free(dyn);
        free(s.box);
        return 1;
    }
    const imp_strategy_ops *ops = imp_world_strategy(w);
    b3_outcome out;
    b3_outcome_init(&out);
    double seconds = 0.0, first_ms = NAN, residual = NAN, residual_max = NAN, unsolved = 0.0, solves = 0.0, skipped = 0.0;
    long skipped_steps = 0, first_faults = -1;
    int done = 0;
    const char *stop = "-";
    for (int step = 1; step <= s.steps; step++) {
        if (o.max_wall > 0.0 && seconds >= o.max_wall) {
            stop = "wall";
            break;
        }
        long f0 = step == 1 ? bench_minor_faults() : 0;
        double t0 = bench_now();
        imp_status st = imp_world_step(w);
        double dt = bench_now() - t0;
        seconds += dt;
        if (step == 1) {
            first_ms = 1e3 * dt;
            first_faults = bench_minor_faults() - f0;
        }
        if (st != IMP_OK) {
            fprintf(stderr, "bench_engine3d: %s %g: step %d failed: %s\n", s.name, s.size, step,
                    imp_world_error(w));
            stop = "error";
            break;
        }
        done = step;
        step_stats ss = {0, 0, 0, NAN, 0, 0, 0};
        if (ops->stats != NULL) {
            ops->stats(w, take_stat, &ss);
        }
        b3_contacts(&out, ss.points, ss.penetration);
        unsolved = ss.unsolved;
        /* the error of the step's last solve (exact, or the sweeps' measured the same way) */
        if (ss.solves > solves) {
            residual = ss.error;
            residual_max = isnan(residual_max) ? ss.error : fmax(residual_max, ss.error);
        }
        skipped_steps += ss.skipped > skipped;
        solves = ss.solves;
        skipped = ss.skipped;
        if (o.diag > 0 && step % o.diag == 0) {
            print_diag(&s, w, dyn, step, &ss);
        }
        if (b3_wants_state(&s, step)) {
            const double *y = imp_world_body_state_read(w, dyn[0]);
            b3_observe(&s, &out, step, y, y + 7);
        }
    }
    if (done > 0) {
        state_ctx c = {w, dyn};
        b3_final(&s, &out, state_of, &c);
    }
    char engine[32];
    snprintf(engine, sizeof engine, "impact-%s", ops->name);
    int pgs = o.solver == IMP_SOLVER_PGS, soft = o.solver == IMP_SOLVER_SOFT;
    int sweeps = o.iters > 0 ? o.iters : imp_world_get_def(w)->engine2d.pgs_iterations;
    if (soft) {  /* passes per step: solve and relax in each sub-step */
        const imp_engine2d_def *d = &imp_world_get_def(w)->engine2d;
        sweeps = d->substeps * (d->soft.iterations + d->soft.relax_iterations);
    }
    b3_print(&s, &out, engine, pgs ? "pgs" : soft ? "soft" : "lcp", pgs || soft ? sweeps : 0, done, seconds, stop);
    if (isnan(residual)) {
        printf(" residual=na residual_max=na");
    } else {
        printf(" residual=%.3g residual_max=%.3g", residual, residual_max);
    }
    printf(" swept_steps=%ld first_step_ms=%.6f first_step_faults=%ld", pgs || soft ? 0 : skipped_steps, first_ms,
           first_faults);
    const imp_engine2d_def *ed = &imp_world_get_def(w)->engine2d;
    printf(" unsolved=%.0f sunk=%d handling=%s substeps=%d hertz=%g damping=%g peak_rss_mb=%.1f state_hash=%016llx\n", unsolved,
           done > 0 ? out.sunk : 0, imp_collision_handling_names[o.handling], ed->substeps,
           soft ? ed->soft.hertz : 0.0, soft ? ed->soft.damping_ratio : 0.0, bench_peak_mib(), imp_world_state_hash(w));
    if (o.profile && done > 0) {
        const imp_profile *pr = imp_world_profile(w);
        fprintf(stderr, "profile ms/step:");
        for (int i = 0; i < IMP_STAGE_COUNT; i++) {
            if (pr->total[i] > 0.0) {
                fprintf(stderr, " %s=%.4f", imp_stage_names[i], 1e3 * pr->total[i] / done);
            }
        }
        fprintf(stderr, "\n");
    }
    imp_world_free(w);
    free(dyn);
    free(s.box);
    return 0;
}
