/* dem_newton.h: the per-particle kernel of the dem strategy's Newton integrator (dem_step.c's
   imp_dem_newton runs it over chunks of particles, under OpenMP).

   Two implementations give the same bits: a portable one (one particle at a time) and, on x86-64
   with GCC or Clang, an AVX2 one (eight particles at a time, the same IEEE operations in the same
   order per particle; AVX2 without FMA), chosen once at run time. IMPACT_DEM_SIMD=0 in the
   environment forces the portable one; so does imp_dem_newton_set_simd(0) (tests); compiled
   with -DIMPACT_NO_SIMD, only the portable one exists. */
#ifndef IMPACT_DEM_NEWTON_H
#define IMPACT_DEM_NEWTON_H

/* What the kernel reads and writes: the dem state's arrays (dem.h) and the step's constants.
   It reads the state from pos, vel, angvel and quat and writes the new one into the *_out
   arrays (the other set: no overlap), every particle's, those it does not move copied. */
typedef struct imp_dem_newton_args {
    const unsigned char *fixed;
    const int *clump_of;
    const double *pos, *vel, *angvel, *quat;
    double *pos_out, *vel_out, *angvel_out, *quat_out;
    const double *force, *torque, *inv_mass, *inv_inertia, *mass;
    const unsigned char *force_mark; /* NULL, or per group of 8 particles (dem.h's force_mark):
                                        0 when the group's forces and torques are zero (their
                                        bytes are then not read) */
    double g[3];
    double dt, hdt, damp;  /* hdt = dt / 2 */
    int track;             /* book gravity's work in *wg and the damping's loss in *wd */
    int nt;                /* write the other set by non-temporal stores (AVX2 kernel; large n,
                              where it is not in the caches) */
    unsigned char *same;   /* NULL, or per group of 8 particles (i0 a multiple of 8): 1 when the
                              two sets hold the same spins and orientations there, the spins
                              all bits 0 and the inverse inertias finite (dem.h's spin_same);
                              such a group found still again is not written there, and the
                              kernel keeps the flags true (portable kernel: cleared) */
} imp_dem_newton_args;

/* Integrates particles i0 .. i1 - 1 (fixed ones and clump members copied) over one step;
   with a->track adds their energies to *wg and *wd in particle order; *v2 made at least the
   largest square of a new velocity (vx^2 + vy^2 + vz^2 as rounded) of the moving particles
   (the collider's travel bound, dem_step.c; non-moving ones may count too). Returns the number
   of them left with a non-finite position or velocity (or whose sum overflows; *v2 is then of
   no use). O(i1 - i0). */
int imp_dem_newton_range(const imp_dem_newton_args *a, int i0, int i1, double *wg, double *wd,
                         double *v2);

/* 1 when the AVX2 kernel runs (the CPU has it and it was not disabled), else 0. */
int imp_dem_newton_simd(void);
/* on = 0: the portable kernel from now on; on = 1: AVX2 when the CPU has it. */
void imp_dem_newton_set_simd(int on);

#endif
