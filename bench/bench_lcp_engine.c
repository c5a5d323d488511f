/* bench_lcp_engine.c: the exact LCP (contact_solver = "lcp", the default) inside the 2D
   engine on the 55-box pyramid with friction 0.6 (peers-2d.md scene 1 with base 10: unit
   boxes, dt 1/60, the 2D engine's default extra acceleration), where each box pair reports
   coincident contact points and every evaluation is a frictional LCP of 450-800 rows. For
   RK4 (four evaluations per step, more when the engine backs up) and optionally symplectic
   Euler (one): wall ms per step, LCP solves, how many did not report ok (the engine then
   falls back to projected Gauss-Seidel), and the largest tilt; for contact_solver "lcp"
   (Baraff's pivoting) and "coulomb" (coulomb.h's Newton, engine2d_coulomb.c). A few steps
   only: the exact solves are dense. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_scenes2d.h"
#include "bench_util.h"
#include "engine2d.h"
#include "polygon2d.h"
#include "world_internal.h"

static void run(int base, int steps, imp_time_stepping stepping, int solver)
{
    imp_world_def def = imp_world_default_def(2);
    def.integrator.kind = IMP_RK4;
    def.strategy = IMP_STRATEGY_CONTACT;
    def.dt = 1.0 / 60.0;
    def.gravity[1] = -10.0;
    def.engine2d.time_stepping = stepping;
    def.engine2d.contact_solver = solver;
    imp_world *w = imp_world_new(&def);
    bench_add_block(w, 200, 2, 0, -1, 0, 1, 1, 0, 0.6);
    const double h = 0.5;
    int nb = base * (base + 1) / 2;
    for (int i = 0; i < base; i++) {
        for (int j = i; j < base; j++) {
            bench_add_block(w, 1, 1, (i + 1) * h + 2 * (j - i) * h - h * base, (2 * i + 1) * h, 0, 0, 1,
                            0, 0.6);
        }
    }
    double t0 = bench_now();
    int done = 0;
    for (int s = 0; s < steps; s++) {
        if (imp_world_step(w) != IMP_OK) {
            printf("  step %d failed: %s\n", s + 1, imp_world_error(w));
            break;
        }
        done++;
    }
    double wall = bench_now() - t0;
    double maxang = 0.0;
    for (int k = 1; k <= nb; k++) maxang = fmax(maxang, fabs(w->data.y[(size_t)k * IMP_STRIDE_2D + 2]));
    const imp_engine2d_stats *st = &w->engine2d->stats;
    long fallbacks = solver == IMP_SOLVER_COULOMB ? st->coulomb_failures
                     : st->lcp_failures - st->coulomb_solves + st->coulomb_failures;
    printf("  pyramid base %d (%d boxes), %s, contact_solver %s: %.1f ms/step over %d steps (%.1f "
           "ms per solve); %ld solves, %ld pivoting not ok, %ld to the Coulomb solver, %ld of "
           "them not ok, %ld to PGS; largest problem %ld rows; largest complementarity residual "
           "%.1e (relative); max angle %.1e rad\n",
           base, nb, stepping == IMP_STEPPING_SYMPLECTIC_EULER ? "symplectic_euler" : "rk4",
           imp_contact_solver_names[solver], 1e3 * wall / (done > 0 ? done : 1), done,
           1e3 * wall / (st->lcp_solves > 0 ? (double)st->lcp_solves : 1.0), st->lcp_solves,
           solver == IMP_SOLVER_COULOMB ? 0 : st->lcp_failures, st->coulomb_solves,
           st->coulomb_failures, fallbacks, st->max_contacts, st->lcp_residual, maxang);
    fflush(stdout);
    imp_world_free(w);
}

/* usage: bench_lcp_engine [rk4 steps (1)] [symplectic Euler steps (0)] [solver: lcp,
   coulomb or both (both)] [base (10)] */
int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : 1, se = argc > 2 ? atoi(argv[2]) : 0;
    const char *which = argc > 3 ? argv[3] : "both";
    int base = argc > 4 ? atoi(argv[4]) : 10;
    printf("bench_lcp_engine: the exact frictional LCP in the 2D engine\n");
    for (int solver = IMP_SOLVER_LCP; solver <= IMP_SOLVER_COULOMB; solver++) {
        if (solver == IMP_SOLVER_PGS || (strcmp(which, "both") != 0
                                         && strcmp(which, imp_contact_solver_names[solver]) != 0)) {
            continue;
        }
        if (steps > 0) run(base, steps, IMP_STEPPING_ODE, solver);
        if (se > 0) run(base, se, IMP_STEPPING_SYMPLECTIC_EULER, solver);
    }
    return 0;
}
