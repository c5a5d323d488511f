/* dem_step.c: the force resetter, Yade's NewtonIntegrator (leapfrog with gravity and Cundall's
   non-viscous damping) and the default engine list of one dem step.

   Leapfrog (velocities at half steps): v(t + dt/2) = v(t - dt/2) + dt a(t), x(t + dt) = x(t) +
   dt v(t + dt/2). Cundall's damping (Cundall & Strack 1979; Yade's NewtonIntegrator) scales each
   acceleration component by 1 - d sign(a_k (v_k + dt a_k / 2)): the force is reduced while it
   accelerates the body and increased while it brakes it, independent of the velocity's size.
   As in Yade, gravity is damped too (free fall at (1 - d) g). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dem.h"
#include "dem_newton.h"
#include "quat.h"
#include "world_internal.h"

/* Every force and torque zero: the groups' marks cleared (n / 8 bytes). The numbers of a group
   are zeroed by the first write after the reset (imp_dem_force_touch) or, with many
   interactions, by the interaction loop's pack, group after group in its pass over the
   particles (imp_dem_force_groups_zero), before the loop writes any; Newton reads neither
   numbers of a group nothing wrote (48 bytes a particle, most of them while falling). Until
   session 25 the reset zeroed every number itself with many interactions (one memset pass
   over the 48 bytes a particle, kept because the loop's scattered first writes could not be
   shown no slower, session 20): the pack's pass zeroes them as sequentially, without a pass
   of its own (10-development.md, session 25, h-newton2). */
void imp_dem_reset_forces(imp_dem *d)
{
    if (d->n <= 0) {  /* an empty dem has no arrays (memset of NULL is undefined) */
        return;
    }
    memset(d->force_mark, 0, (size_t)(d->n - 1) / 8 + 1);
}

/* groups g .. e - 1's forces and torques zeroed (one memset each) and marked */
static inline void zero_run(imp_dem *d, int g, int e)
{
    const size_t i0 = 8 * (size_t)g, n = (size_t)d->n;
    const size_t i1 = 8 * (size_t)e < n ? 8 * (size_t)e : n;
    memset(d->force + 3 * i0, 0, 3 * (i1 - i0) * sizeof *d->force);
    memset(d->torque + 3 * i0, 0, 3 * (i1 - i0) * sizeof *d->torque);
    memset(d->force_mark + g, 1, (size_t)(e - g));
}

void imp_dem_force_group_zero(imp_dem *d, int g) { zero_run(d, g, g + 1); }

void imp_dem_force_groups_zero(imp_dem *d, int g0, int g1)
{
    unsigned char *mark = d->force_mark;
    for (int g = g0; g < g1;) {
        if (mark[g]) {
            g++;
            continue;
        }
        int e = g + 1;  /* a run of unmarked groups, zeroed at once */
        while (e < g1 && !mark[e]) {
            e++;
        }
        zero_run(d, g, e);
        g = e;
    }
}

void imp_dem_swap_sets(imp_dem *d)
{
    double **cur[4] = {&d->pos, &d->vel, &d->angvel, &d->quat};
    double **prev[4] = {&d->pos_prev, &d->vel_prev, &d->angvel_prev, &d->quat_prev};
    for (int k = 0; k < 4; k++) {
        double *t = *cur[k];
        *cur[k] = *prev[k];
        *prev[k] = t;
    }
}

/* The collider's travel bound (dem.h: d->travel) after a step of Newton's kernels whose new
   velocities' largest square (as rounded) is v2 (ok = 0: clump members, ghosts or a periodic
   cell, which move otherwise: no bound). A coordinate's x + dt v, rounded, moves by at most
   |dt v| (1 + u)^2 + u |x + dt v| (u = 2^-53), so a sphere's centre by at most dt |v| (1 + u)^2
   + u |x'| with |x'| <= d->xreach + d->travel (the anchor's farthest centre, moved); |v| <=
   sqrt(v2) (1 + 2 u); the factors 1 + 2^-40 and the term 2^-52 cover these and the sum's own
   rounding. A NaN or infinity (a failing step) leaves no bound. */
static void travel(imp_dem *d, int ok, double v2, double dt)
{
    const double up = 1.0 + 0x1p-40;
    if (!ok || !(d->travel < INFINITY) || !(v2 < INFINITY)) {
        d->travel = INFINITY;
        return;
    }
    double step = dt * sqrt(v2) * up + 0x1p-52 * (d->xreach + d->travel);
    d->travel = (d->travel + step) * up;
}

/* O(n). Also books the work of gravity and the energy taken by the damping, both with the
   mean of the old and new velocities, so kinetic energy changes by exactly the work of all
   forces over the step. The particles are independent: the kernel (dem_newton.c) runs over
   chunks of them, in parallel under OpenMP except when booking energy (a sum whose rounding
   would depend on the threads; serially, the chunks run in order, so the sum is in particle
   order). Chunks of a multiple of 8 particles, the AVX2 kernel's group. */
/* From NEWTON_NT_MIN particles Newton writes the other set by non-temporal stores (the lines
   are not read first, and they go to memory). Below, both sets stay in the caches (at 10,000:
   2 MB), and what the next step reads would come from memory instead. Below NEWTON_NT_FALL,
   also while the cloud falls (fewer interactions than n / 8, the reset's test): its positions
   and velocities in both sets (12 MB at 131,072) stay in the L3 from step to step. At 100,000
   falling the cached stores ran 1.06x-1.76x the non-temporal ones (12 pinned alternating pairs,
   10-development.md, session 21, h-demstep); past the landings (from step 2500) they ran some
   1 % slower (seven pairs), so there the stores stay non-temporal, as from 32,768 before. */
enum { NEWTON_NT_MIN = 32768, NEWTON_NT_FALL = 131072 };

static int newton_nt(const imp_dem *d)
{
    return d->n >= NEWTON_NT_FALL || (d->n >= NEWTON_NT_MIN && (long)d->ninter * 8 >= (long)d->n);
}

void imp_dem_newton(imp_dem *d, const double gravity[3], double dt)
{
    enum { CHUNK = 128 };
    const imp_dem_newton_args a = {
        .fixed = d->newton_skip != NULL ? d->newton_skip : d->fixed, .clump_of = d->clump_of, .pos = d->pos, .vel = d->vel,
        .angvel = d->angvel, .quat = d->quat, .pos_out = d->pos_prev, .vel_out = d->vel_prev,
        .angvel_out = d->angvel_prev, .quat_out = d->quat_prev, .force = d->force, .torque = d->torque,
        .force_mark = d->force_mark,
        .inv_mass = d->inv_mass, .inv_inertia = d->inv_inertia, .mass = d->mass,
        .g = {gravity[0], gravity[1], gravity[2]}, .dt = dt, .hdt = 0.5 * dt,
        .damp = d->p.damping, .track = d->p.track_energy, .nt = newton_nt(d),
        .same = d->domain == NULL && !d->cell.on ? d->spin_same : NULL};
    const int n = d->n, nchunks = (n + CHUNK - 1) / CHUNK;
    double wg = 0.0, wd = 0.0, v2 = 0.0;  /* v2: the largest square of a new velocity */
    int bad = 0;  /* particles left with a non-finite position or velocity */
    (void)imp_dem_newton_simd();  /* decided here, not by the threads */
    if (a.same == NULL && n > 0) {  /* the groups' flags would not follow the writes below */
        memset(d->spin_same, 0, (size_t)n / 8 + 1);
    }
    if (d->cell.on) {
        imp_dem_cell_before(d, dt);
    }
#ifdef _OPENMP
    _Pragma("omp parallel for if (!a.track) reduction(+ : wg, wd, bad) reduction(max : v2) schedule(static)")
#endif
    for (int c = 0; c < nchunks; c++) {
        int i1 = c * CHUNK + CHUNK < n ? c * CHUNK + CHUNK : n;
        bad += imp_dem_newton_range(&a, c * CHUNK, i1, &wg, &wd, &v2);
    }
    imp_dem_swap_sets(d);  /* the new state in place; the old one kept until the step is good */
    travel(d, a.same != NULL && d->nclumps == 0, v2, dt);
    imp_dem_clump_newton(d, gravity, dt, &wg, &wd);
    for (int j = 0; j < d->nkin; j++) {  /* fixed bodies with a prescribed velocity (Yade's
                                           non-dynamic bodies): x += dt v */
        int i = d->kin[j];
        const double *v = d->vel + 3 * i;
        for (int k = 0; k < 3; k++) {
            d->pos[3 * i + k] += dt * v[k];
        }
        if (d->kind[i] == IMP_DEM_FACET) {
            double *fv = d->facet_v + 9 * d->facet[i];
            for (int m = 0; m < 9; m++) {
                fv[m] += dt * v[m % 3];
            }
        }
        d->boxes_stale = 1;  /* the collider makes every box again */
    }
    if (d->cell.on) {
        imp_dem_cell_after(d, dt);
    }
    d->energy.gravity_work += wg;
    d->energy.damping += wd;
    d->newton_bad = bad;
}

int imp_dem_first_nonfinite(const imp_dem *d)
{
    if (!d->newton_bad && d->nclumps == 0) {
        return -1;  /* Newton checked every moving particle; fixed ones do not change */
    }
    for (int i = 0; i < d->n; i++) {
        const double *x = d->pos + 3 * i, *v = d->vel + 3 * i, *w = d->angvel + 3 * i;
        int finite = 1;
        for (int k = 0; k < 3; k++) {
            finite &= isfinite(x[k]) && isfinite(v[k]);
        }
        /* a spin whose square overflows turns the orientation to NaN */
        if (!finite || !isfinite(w[0] * w[0] + w[1] * w[1] + w[2] * w[2])) {
            return i;
        }
    }
    return -1;
}

void imp_dem_finish_step(imp_world *w)
{
    w->data.steps_since_base++;
    w->data.time = w->data.time_base + (double)w->data.steps_since_base * w->model.def.dt;
    w->data.stats.steps++;
    w->data.stats.substeps++;
    imp_world_clear_applied(w);  /* Body:apply_force lasts one step (the engines' steps too) */
    if (w->dem != NULL) {
        w->dem->iter++;
    }
}
