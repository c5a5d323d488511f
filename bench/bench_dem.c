/* bench_dem.c: the gravity deposition of ../shared/reference/yade.md (scenario A): N
   polydisperse spheres (integer-arithmetic initial state) fall into an open box of 5 infinite
   walls; linear Cundall-Strack law, E = 1e7, ks/kn = 0.3, friction angle 0.5, damping 0.2,
   dt = 0.5 P-wave step; the default dem engine list in C (one thread), verlet distance 0.1
   min radius (DEM_VERLET=-0.5 in the environment for Yade's default).

     bench_dem                 N = 1000 (20000 steps), 10000 (5000 steps), 50000 (1000 steps)
     bench_dem N STEPS [DAMPING]   one run (N = 1000, 10000 or 50000)

   Prints per run: particle-steps per second overall and per segment, peak RSS, collider runs,
   and the physics checkpoints Yade records (mean z, contacts, coordination, max overlaps,
   unbalanced force), with Yade 2023.02a's figures from yade.md beside them. The free-fall
   checkpoint (step 500) is exact: z = z0 + a dt^2 n (n + 1) / 2, a = -(1 - d) g. */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/dem.h"
#include "../src/shape3d.h"
#include "../src/world.h"
#include "bench_util.h"

typedef struct layout {
    int n, nx, ny, nz;
} layout;

static const layout layouts[] = {{1000, 10, 10, 10}, {10000, 25, 25, 16}, {50000, 50, 50, 20}};

/* Yade 2023.02a, 1 thread, damping 0.2 (yade.md part 3): particle-steps/s overall and in the
   dense-packing segment, peak RSS MB, final mean z, real contacts, coordination */
typedef struct yade_ref {
    int n;
    long steps;
    double pss, pss_last, rss_mb, mean_z, contacts, coord;
} yade_ref;

static const yade_ref yade[] = {{1000, 20000, 2.98e6, 2.24e6, 251, 0.06411, 2241, 4.20},
                                {10000, 20000, 1.54e6, 1.19e6, 299, 0.09630, 22294, 4.31},
                                {50000, 10000, 0.94e6, 0.55e6, 515, 0.12008, 99299, 3.88}};

/* Yade's steps/s per segment (0-500, 500-1k, 1k-2k, 2k-3k, 3k-5k, 5k-7.5k, 7.5k-10k, 10k-15k,
   15k-20k), 1 thread, damping 0.2 (yade.md "Throughput by phase"); 0 = not measured */
static const double yade_seg[3][9] = {{5250, 7016, 5175, 7444, 5233, 3353, 2733, 2570, 2240},
                                      {346, 441, 274, 333, 310, 215, 142, 118, 119},
                                      {26, 37, 25, 28, 30, 19, 11, 0, 0}};

static double cpu_now(void) { return (double)clock() / CLOCKS_PER_SEC; }

static double radius(int i) { return 0.008 + 0.004 * ((i * 37) % 101) / 100.0; }

static imp_world *build(const layout *L, double damping)
{
    const double D = 0.026, rho = 2600.0;
    imp_world_def def = imp_world_default_def(3);
    def.strategy = IMP_STRATEGY_DEM;
    def.gravity[0] = def.gravity[1] = 0.0;
    def.gravity[2] = -9.81;
    imp_world *w = imp_world_new(&def);
    if (w == NULL) {
        return NULL;
    }
    double lx = L->nx * D, ly = L->ny * D;
    const double walls[5][6] = {{0, 0, 1, 0, 0, 0}, {1, 0, 0, 0, 0, 0}, {-1, 0, 0, lx, 0, 0},
                                {0, 1, 0, 0, 0, 0}, {0, -1, 0, 0, ly, 0}};
    for (int k = 0; k < 5; k++) {
        imp_body_def bd = imp_body_default_def(3);
        bd.shape = imp_shape3d_wall(walls[k]);
        bd.fixed = 1;
        bd.mass = 1.0;
        memcpy(bd.state, walls[k] + 3, 3 * sizeof(double));
        imp_world_add_body(w, &bd);
        imp_shape_release(bd.shape);
    }
    for (int i = 0; i < L->n; i++) {
        int ix = i % L->nx, iy = (i / L->nx) % L->ny, iz = i / (L->nx * L->ny);
        double jx = 0.0008 * (((i * 53) % 17) - 8) / 8.0;
        double jy = 0.0008 * (((i * 71) % 19) - 9) / 9.0;
        imp_body_def bd = imp_body_default_def(3);
        bd.shape = imp_shape3d_sphere(radius(i));
        bd.density = rho;
        bd.state[0] = (ix + 0.5) * D + jx;
        bd.state[1] = (iy + 0.5) * D + jy;
        bd.state[2] = (iz + 1.0) * D;
        if (imp_world_add_body(w, &bd).slot < 0) {
            imp_shape_release(bd.shape);
            imp_world_free(w);
            return NULL;
        }
        imp_shape_release(bd.shape);
    }
    if (imp_dem_sync(w) != IMP_OK) {
        imp_world_free(w);
        return NULL;
    }
    imp_dem *d = w->dem;
    d->p.young = 1e7;
    d->p.ks_ratio = 0.3;
    d->p.friction_angle = 0.5;
    d->p.damping = damping;
    d->p.verlet = getenv("DEM_VERLET") ? atof(getenv("DEM_VERLET")) : -0.1;
    d->built = 0;  /* re-read the young modulus */
    imp_dem_sync(w);
    imp_world_set_dt(w, 0.5 * imp_dem_p_wave_dt(d));
    return w;
}

typedef struct measure {
    double ke, mean_z, max_z, ov_ss, ov_sw, unbalanced, coord;
    int n_ss, n_sw;
} measure;

static measure measure_now(const imp_world *w)
{
    const imp_dem *d = w->dem;
    measure m;
    memset(&m, 0, sizeof m);
    imp_dem_energy e = imp_dem_energy_now(d);
    m.ke = e.kinetic;
    int ns = 0;
    for (int i = 0; i < d->n; i++) {
        if (d->kind[i] == IMP_DEM_SPHERE) {
            m.mean_z += d->pos[3 * i + 2];
            m.max_z = fmax(m.max_z, d->pos[3 * i + 2]);
            ns++;
        }
    }
    m.mean_z /= ns;
    for (int k = 0; k < d->ninter; k++) {
        const imp_dem_inter *I = &d->inter[k];
        if (!I->real) {
            continue;
        }
        if (d->kind[I->a] != IMP_DEM_SPHERE) {
            m.n_sw++;
            m.ov_sw = fmax(m.ov_sw, I->un);
        } else {
            m.n_ss++;
            m.ov_ss = fmax(m.ov_ss, I->un);
        }
    }
    m.coord = (2.0 * m.n_ss + m.n_sw) / ns;
    m.unbalanced = imp_dem_unbalanced_force(d, w->def.gravity);
    return m;
}

static int run(const layout *L, long steps, double damping)
{
    double rss0 = bench_peak_mib();
    imp_world *w = build(L, damping);
    if (w == NULL) {
        fprintf(stderr, "bench_dem: could not build N = %d\n", L->n);
        return 1;
    }
    double dt = w->def.dt;
    printf("deposition N = %d (%dx%dx%d), damping %.2f, dt = %.15g s, %ld steps\n", L->n, L->nx,
           L->ny, L->nz, damping, dt, steps);
    static const long marks[] = {500, 1000, 2000, 3000, 5000, 7500, 10000, 15000, 20000};
    double wall = 0.0, cpu = 0.0, seg_pss_last = 0.0;
    int lk = L->n == 1000 ? 0 : (L->n == 10000 ? 1 : 2);
    long done = 0;
    double z0 = 0.0;
    for (int i = 0; i < L->n; i++) {
        z0 += ((i / (L->nx * L->ny)) + 1.0) * 0.026;
    }
    z0 /= L->n;
    for (int k = 0; k < 9 && done < steps; k++) {
        long to = marks[k] < steps ? marks[k] : steps;
        double t0 = bench_now(), c0 = cpu_now();
        for (; done < to; done++) {
            if (imp_world_step(w) != IMP_OK) {
                fprintf(stderr, "bench_dem: %s\n", imp_world_error(w));
                imp_world_free(w);
                return 1;
            }
        }
        double seg = bench_now() - t0, cseg = cpu_now() - c0;
        wall += seg;
        cpu += cseg;
        long nseg = to - (k > 0 ? (marks[k - 1] < steps ? marks[k - 1] : steps) : 0);
        seg_pss_last = L->n * (double)nseg / seg;
        measure m = measure_now(w);
        double ys = damping == 0.2 && to == marks[k] ? yade_seg[lk][k] : 0.0;
        printf("  step %6ld: %7.0f steps/s (CPU %7.0f; Yade %5.0f: x%.1f) | KE %.4e J, mean z "
               "%.5f, max z %.4f, contacts %d (%d+%d), coord %.2f, max overlap s-s %.2e s-w "
               "%.2e, unbalanced %.3f\n",
               to, nseg / seg, nseg / cseg, ys, ys > 0 ? nseg / seg / ys : 0.0, m.ke, m.mean_z,
               m.max_z, m.n_ss + m.n_sw, m.n_ss, m.n_sw, m.coord, m.ov_ss, m.ov_sw,
               m.unbalanced);
        if (to == 500) {
            double a = -(1.0 - damping) * 9.81;
            printf("    free-fall check: mean z %.11f, leapfrog closed form %.11f (Yade: %s)\n",
                   m.mean_z, z0 + a * dt * dt * 500.0 * 501.0 / 2.0,
                   damping == 0.2 && L->n == 1000 ? "0.13891087808" : "see yade.md");
        }
    }
    measure m = measure_now(w);
    double pss = L->n * (double)steps / wall;
    printf("  total: %.2f s wall, %.2f s CPU, %.0f steps/s, "
           "%.3e particle-steps/s (per CPU second %.3e), peak RSS %.1f MiB (%.1f before "
           "building), collider runs %ld, interactions %d (real %d)\n",
           wall, cpu, steps / wall, pss, L->n * (double)steps / cpu, bench_peak_mib(), rss0, w->dem->collider_runs, w->dem->ninter,
           imp_dem_real_count(w->dem));
    printf("  state hash %016llx (equal runs, equal hashes; also across thread counts)\n",
           imp_world_state_hash(w));
    for (size_t k = 0; k < sizeof yade / sizeof yade[0]; k++) {
        if (yade[k].n == L->n && damping == 0.2) {
            printf("  Yade 2023.02a (yade.md, 1 thread, %ld steps): %.3e particle-steps/s overall, "
                   "%.3e in the dense packing; peak RSS %.0f MB; final mean z %.5f, contacts "
                   "%.0f, coord %.2f\n",
                   yade[k].steps, yade[k].pss, yade[k].pss_last, yade[k].rss_mb, yade[k].mean_z,
                   yade[k].contacts, yade[k].coord);
            if (steps >= yade[k].steps) {
                printf("  speed ratio impact / Yade (wall): %.2f overall, %.2f in the dense "
                       "packing\n", pss / yade[k].pss, seg_pss_last / yade[k].pss_last);
            } else {
                printf("  (shorter run than Yade's: compare the segments above)\n");
            }
            if (steps >= yade[k].steps) {
                printf("  final mean z vs Yade: %+.2f %%\n",
                       100.0 * (m.mean_z - yade[k].mean_z) / yade[k].mean_z);
            }
        }
    }
    imp_world_free(w);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3) {
        int n = atoi(argv[1]);
        long steps = atol(argv[2]);
        double damping = argc >= 4 ? atof(argv[3]) : 0.2;
        for (size_t k = 0; k < sizeof layouts / sizeof layouts[0]; k++) {
            if (layouts[k].n == n && steps > 0) {
                return run(&layouts[k], steps, damping);
            }
        }
        fprintf(stderr, "usage: bench_dem [N STEPS [DAMPING]] with N = 1000, 10000 or 50000\n");
        return 2;
    }
    int rc = run(&layouts[0], 20000, 0.2);
    rc |= run(&layouts[1], 5000, 0.2);
    rc |= run(&layouts[2], 1000, 0.2);
    return rc;
}
