/* dem_law_viscous.c: the linear viscoelastic law (Yade's Ip2_ViscElMat_ViscElMat_ViscElPhys
   with Law2_ScGeom_ViscElPhys_Basic; LIGGGHTS' pair gran hooke with tangential history): the
   linear law of dem_law.c (kn, ks, mu as Ip2_FrictMat_FrictMat_FrictPhys makes them, the
   incremental shear spring capped at mu fn) with two dashpots:
     normal      fn = kn un - cn vn          (vn = vr . n, the relative normal velocity);
     tangential  fs = fs_spring - ct vt      (vt = vr - vn n), only while the contact sticks
                                             (|fs_spring| <= mu fn; sliding: the capped spring
                                             alone, as LIGGGHTS' history model);
   cn = ct = 2 xi sqrt(kn m*), xi = -ln en / sqrt(ln^2 en + pi^2), m* the reduced mass
   ma mb / (ma + mb) (against a wall, a facet or a fixed sphere: the moving sphere's own mass).
   A head-on collision is then a damped oscillator of damping ratio xi, which ends when the
   overlap returns to zero with the separation speed en times the approach speed (the normal
   force is attractive over the last part of the contact, as in LIGGGHTS without limitForce and
   in Yade: it is not clipped at zero; the Coulomb cap takes max(fn, 0), as the other laws, where
   LIGGGHTS' history model takes mu |fn|: the two differ only while the force pulls).
   The energy book (dem.h: viscous): each dashpot's loss over a step is its force's trapezoid
   work, the mean of the last step's dashpot force and this step's times the relative
   displacement vr dt, which is what the leapfrog's work regroups into (dem_law.c: the sliding
   loss is booked the same way). The normal dashpot's last force is the record's total normal
   force minus its elastic part; the tangential one's is kept in the record's kn0 and ks0, which
   the linear law does not use, as two of its three components: those other than the normal's
   largest (the third follows from f . n = 0), while the energy is booked only (nothing else
   reads them; dem.h: visc_stale). The dashpots' coefficient cn0 = 2 xi sqrt(kn m*) is made from
   the particles (kn, their masses and whether they are fixed) and the params (en), so the AVX2
   law makes it as it makes kn (dem_law.c: derived_update) and reads a record's first line only
   when the energy is not booked. */
#include <math.h>

#include "dem.h"
#include "dem_law.h"
#include "scalar.h"

double imp_dem_viscous_xi2(double en)
{
    double xi = 0.0;
    if (en > 0.0 && en < 1.0) {
        double le = log(en);
        xi = -le / sqrt(le * le + IMP_PI * IMP_PI);
    }
    return 2.0 * xi;
}

void imp_dem_viscous_physics(const imp_dem *d, imp_dem_inter *I, double ms)
{
    I->cn0 = imp_dem_viscous_xi2(d->p.en) * sqrt(I->kn * ms);
    I->kn0 = I->ks0 = 0.0;  /* no tangential dashpot force yet */
}

/* the place of the largest component of the unit vector n (the first of equals) */
static int largest(const double n[3])
{
    double a0 = fabs(n[0]), a1 = fabs(n[1]), a2 = fabs(n[2]);
    if (a0 >= a1 && a0 >= a2) {
        return 0;
    }
    return a1 >= a2 ? 1 : 2;
}

void imp_dem_viscous_shear(const imp_dem_inter *I, double f[3])
{
    const double *n = I->n;
    int j = largest(n), j1 = (j + 1) % 3, j2 = (j + 2) % 3;
    f[j1] = I->kn0;
    f[j2] = I->ks0;
    f[j] = n[j] != 0.0 ? -(f[j1] * n[j1] + f[j2] * n[j2]) / n[j] : 0.0;
}

/* the record's last normal dashpot force (0 after a gap or when new) */
static double normal_last(const imp_dem_inter *I, int fresh)
{
    return fresh || I->un < 0.0 ? 0.0 : I->fn - I->kn * I->un;
}

double imp_dem_viscous_normal(const imp_dem_inter *I, int fresh, double vn, double dt,
                              double *loss)
{
    double f = -I->cn0 * vn;
    *loss += -0.5 * (normal_last(I, fresh) + f) * vn * dt;
    return f;
}

void imp_dem_viscous_tangential(const imp_dem *d, imp_dem_inter *I, const double vr[3],
                                const double n[3], double vn, int stick, double dt, double f[3],
                                double *loss)
{
    double last[3];
    imp_dem_viscous_shear(I, last);  /* with the record's normal: the last step's */
    f[0] = f[1] = f[2] = 0.0;
    if (stick && d->p.tangential_damping) {
        const double c = I->cn0;
        f[0] = -c * (vr[0] - vn * n[0]);
        f[1] = -c * (vr[1] - vn * n[1]);
        f[2] = -c * (vr[2] - vn * n[2]);
    }
    *loss += -0.5 * ((last[0] + f[0]) * vr[0] + (last[1] + f[1]) * vr[1]
                     + (last[2] + f[2]) * vr[2]) * dt;
    if (d->p.track_energy) {  /* kept for the book only (dem.h: visc_stale) */
        int j = largest(n);
        I->kn0 = f[(j + 1) % 3];
        I->ks0 = f[(j + 2) % 3];
    }
}

double imp_dem_viscous_release(const imp_dem_inter *I, const double vr[3], const double n[3],
                               double dt)
{
    double last[3];
    imp_dem_viscous_shear(I, last);
    double vn = vr[0] * n[0] + vr[1] * n[1] + vr[2] * n[2];
    return -0.5 * (normal_last(I, 0) * vn + (last[0] * vr[0] + last[1] * vr[1] + last[2] * vr[2]))
           * dt;
}
