/* dem_law.h: the interaction loop's internals shared by its portable code (dem_law.c) and its
   AVX2 code (dem_law_avx2.c), and the switch between the two (for tests and comparisons).

   The law of an interaction writes one row of IMP_DEM_ROW numbers, which the serial pass adds
   to the particles in interaction order: the force on b (on a: the opposite), the torques'
   terms la (n x F) and lb (n x F) (subtracted from a's and b's torques), the sliding loss, the
   viscous loss. Both paths do the same IEEE operations in the same order per interaction, so
   their results are bit-identical (test/c/test_dem_law_simd.c). */
#ifndef IMPACT_DEM_LAW_H
#define IMPACT_DEM_LAW_H

#include <stdint.h>
#include <string.h>

#include "dem.h"

enum {
    IMP_DEM_ROW_F = 0,        /* 3: force on b */
    IMP_DEM_ROW_TA = 3,       /* 3: la (n x F), subtracted from a's torque */
    IMP_DEM_ROW_TB = 6,       /* 3: lb (n x F), subtracted from b's torque */
    IMP_DEM_ROW_PLASTIC = 9,  /* sliding loss (0 unless the energy is tracked) */
    IMP_DEM_ROW_VISCOUS = 10, /* viscous loss */
    IMP_DEM_ROW_AB = 11,      /* the offsets 3 a and 3 b of the particles' vectors, as two
                                 uint32_t (a's first) in the double's bytes: the serial pass
                                 then reads no hot copy (rows with a force only) */
    IMP_DEM_ROW = 12          /* numbers per row (padded to a multiple of 4) */
};

/* the value of a row's IMP_DEM_ROW_AB for the particles a and b */
static inline double imp_dem_row_ab(int a, int b)
{
    uint32_t ab[2] = {3u * (uint32_t)a, 3u * (uint32_t)b};
    double v;
    memcpy(&v, ab, sizeof v);
    return v;
}

/* The eighth number of particle i's packed copy vw (dem.h): its mass, negative when it is
   fixed (the sign bit: a fixed one's mass 0 gives -0.0), what the viscoelastic law's reduced
   mass reads (dem_law.c: reduced_mass) */
static inline double imp_dem_packed_mass(const imp_dem *d, int i)
{
    return d->fixed[i] ? -d->mass[i] : d->mass[i];
}

/* The linear viscoelastic law's parts (dem_law_viscous.c; dem_law.c's physics() and law()
   call them). imp_dem_viscous_physics: the dashpots' coefficient of a new contact (its kn
   made; ms the reduced mass). imp_dem_viscous_normal: the normal dashpot force -cn vn (vn = vr . n, the relative
   normal velocity), and its loss over the last step added to *loss; before the record's un and
   fn are replaced. imp_dem_viscous_tangential: the tangential dashpot force f = -ct vt while
   the contact sticks (stick; else 0), kept in the record for the next step while the energy is
   booked (d->p.track_energy; dem.h: visc_stale), and its loss over
   the last step added to *loss; before the record's normal is replaced.
   imp_dem_viscous_release: the loss of the last step of a contact that opens (un < 0), its
   dashpot forces falling to zero. imp_dem_viscous_shear: the last tangential dashpot force
   the record keeps. imp_dem_viscous_xi2: 2 xi of the restitution en (cn0 = 2 xi sqrt(kn m*)). */
double imp_dem_viscous_xi2(double en);
void imp_dem_viscous_physics(const imp_dem *d, imp_dem_inter *I, double ms);
double imp_dem_viscous_normal(const imp_dem_inter *I, int fresh, double vn, double dt,
                              double *loss);
void imp_dem_viscous_tangential(const imp_dem *d, imp_dem_inter *I, const double vr[3],
                                const double n[3], double vn, int stick, double dt, double f[3],
                                double *loss);
double imp_dem_viscous_release(const imp_dem_inter *I, const double vr[3], const double n[3],
                               double dt);
void imp_dem_viscous_shear(const imp_dem_inter *I, double f[3]);

/* Interactions go by blocks of IMP_DEM_BLOCK (dem_law.c). */
enum { IMP_DEM_BLOCK = IMP_DEM_HOT_BLOCK };

typedef struct imp_dem_sorted imp_dem_sorted;
/* A block's sort by the class in the hot copy (potential, real sphere/sphere and wall/sphere
   ones for the AVX2 law, other real ones), kept between steps (d->sorted, dem_law_sort.c) while the block's hot
   copy is unchanged: the collider and the law change few blocks per step, and comparing 12
   bytes per interaction costs much less than sorting them again. */
struct imp_dem_sorted {
    int k1, css, cws;           /* the block's end and the classes the AVX2 law took (-1: none) */
    int nr, np, nss, nws, nslow;
    int hot[3 * IMP_DEM_BLOCK];         /* the hot copy it was made from */
    int real[IMP_DEM_BLOCK];            /* the real ones */
    int pot[IMP_DEM_BLOCK];             /* the potential ones */
    int fss[IMP_DEM_BLOCK + 3], fws[IMP_DEM_BLOCK + 3]; /* for the AVX2 law, padded to a multiple of 4 */
    /* the particles a and b of pot, fss and fws (from the hot copy, which the sort is kept
       with: the AVX2 code reads no hot copy) */
    int pot_a[IMP_DEM_BLOCK], pot_b[IMP_DEM_BLOCK];
    int ss_a[IMP_DEM_BLOCK + 3], ss_b[IMP_DEM_BLOCK + 3], ws_a[IMP_DEM_BLOCK + 3], ws_b[IMP_DEM_BLOCK + 3];
    int slow[IMP_DEM_BLOCK];            /* the other real ones */
    unsigned char done[IMP_DEM_BLOCK];  /* the serial pass's flags before the laws: DONE_FORCE if real */
};

/* dem_law_sort.c. The sort of block k0..k1-1 into s: the hot copy's classes as bit masks (AVX2
   with simd), then the lists; css, cws: the classes the AVX2 law takes (-1: none). O(BLOCK). */
void imp_dem_sort_block(const int *hot, int k0, int k1, int css, int cws, int simd,
                        imp_dem_sorted *s);
/* The cached sort s brought up to date in place when the block's hot copy changed in a few
   places only; 0 when it cannot (sort again). O(BLOCK). */
int imp_dem_update_sorted(const int *hot, int k0, int simd, imp_dem_sorted *s);
/* The blocks' cached sorts (d->sorted, grown to nblocks; NULL when out of memory). */
imp_dem_sorted *imp_dem_sorted_cache(imp_dem *d, int nblocks);

/* Whether the interaction loop uses its AVX2 path (1) or the portable one (0). The AVX2 path
   is used when the processor has AVX2 and IMPACT_DEM_SIMD=0 is not in the environment;
   imp_dem_law_set_simd(0) forces the portable path, (1) asks for AVX2 (when available).
   Returns the mode now in force. Not thread-safe: call between steps. */
int imp_dem_law_simd(void);
int imp_dem_law_set_simd(int on);

/* The AVX2 law of the real interactions k = idx[0..count-1] (count a multiple of 4; their
   particles ia[j], ib[j]: the hot copy's a and b) that are sphere/sphere (wall == 0) or
   wall/sphere (wall == 1), linear or viscoelastic law (d->p.law), four at a time (idx may repeat an interaction in
   consecutive places: a copy computes and writes the same). Each group of four whose geometry
   has a lane outside the common case (a gap, un < 0, or concentric spheres) is left untouched
   and its indices (once each) appended to rest (for the portable path); the others update their
   interactions and write their rows at rows + IMP_DEM_ROW * (k - k0). Returns the count
   appended to rest. Only defined when IMP_DEM_HAVE_AVX2. */
#if defined(__x86_64__) && defined(__GNUC__)
#define IMP_DEM_HAVE_AVX2 1
int imp_dem_law_avx2(const imp_dem *d, int wall, const int *idx, const int *ia, const int *ib,
                     int count, double dt, double *rows, int k0, int *rest);
int imp_dem_law_avx2_supported(void);
/* Bit masks of the classes of the hot copy's entries hot[0 .. 3 len - 1] (len <= 64 n for
   masks of n words): bit j of mr: entry j is real (class non-zero); of mss: its class is css;
   of mws: it is cws. */
void imp_dem_class_masks_avx2(const int *hot, int len, int css, int cws, uint64_t *mr,
                              uint64_t *mss, uint64_t *mws);
/* The places i < n where x[i] != y[i], in increasing order, to at (at most max of them);
   returns their count, or max + 1 when there are more. */
int imp_dem_diff_avx2(const int *x, const int *y, int n, int *at, int max);
/* The packed copies xr and (vw != NULL) vw (dem.h) of the particles i0 .. i1 - 1 (i1 <= n - 1:
   the last particle is the caller's), the same numbers as the portable copy. */
void imp_dem_pack_avx2(const imp_dem *d, double *xr, double *vw, int i0, int i1);
/* The reach test of the potential interactions idx[0..count-1] (particles ia[j], ib[j]) four at
   a time: those whose
   first particle is a sphere and that are within reach (dem_law.c: out_of_reach) to in
   (returns their count), the groups of four with a wall or facet and the last count % 4 to
   rest (*nrest counts them) for the portable test. */
int imp_dem_reach_avx2(const imp_dem *d, const int *idx, const int *ia, const int *ib, int count,
                       double f, int *in, int *rest, int *nrest);
#endif

#endif
