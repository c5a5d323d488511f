/* dem_law.c: the interaction loop: per interaction, the geometry functor of its shape pair
   (Yade's Ig2_Sphere_Sphere_ScGeom, Ig2_Wall_Sphere_ScGeom, Ig2_Facet_Sphere_ScGeom), the physics functor once when it
   becomes real (Ip2_FrictMat_FrictMat_FrictPhys or _MindlinPhys) and the law
   (Law2_ScGeom_FrictPhys_CundallStrack or a Hertz-Mindlin law without viscous damping), which
   adds forces and torques to both particles or requests the erase. O(interactions).

   Linear law (Cundall & Strack 1979, as in Yade): fn = kn un; the shear force is incremental:
   carried along with the contact frame (rotation by n_old x n and by the mean spin about n),
   decreased by ks times the tangential relative displacement of the step (of the contact
   point, the middle of the overlap), capped at mu fn (Coulomb). Sliding loss of a step: the
   slip (trial - capped) / ks times the mean of the shear force before and after it (the
   trapezoid that the leapfrog's work F(n) . (x(n+1) - x(n-1)) / 2 regroups into); Yade's
   plasticDissipation takes the force after it, which is first order in dt when the force
   changes while sliding (a bounce). kn = 2 E1 R1 E2 R2 / (E1 R1 + E2 R2) (a wall counts with the sphere's radius),
   ks = ks_ratio kn, mu = tan(min friction angle).
   Hertz-Mindlin (Mindlin & Deresiewicz 1953, no slip-history correction): fn = kn0 un^1.5 with
   kn0 = 4/3 E* sqrt(R*), tangent stiffness ks = 8 G* sqrt(R* un); 1/E* = sum (1 - nu^2)/E,
   1/G* = sum (2 - nu)/G, G = E / (2 (1 + nu)), R* = R1 R2 / (R1 + R2) (a wall: R* = R).
   Viscoelastic (dem_law_viscous.c): the linear law with a normal dashpot and, while the
   contact sticks, a tangential one; both the portable law and the AVX2 one take it.

   Organisation (for speed, results bit-identical whatever the path and the thread count): the
   interactions go by blocks of BLOCK; a block is sorted by the class in the hot copy (dem.h;
   the sort is kept between steps, dem_law_sort.c) into potential ones (reach test; those in
   reach go on like the others), real sphere/sphere and wall/sphere ones under the linear or
   viscoelastic law (the AVX2 law of dem_law_avx2.c, four at a time, when the processor has it) and the rest (the
   portable law below: fresh contacts, gaps, facets, Hertz-Mindlin). Each law writes a row
   (dem_law.h); the serial pass then adds the rows to the particles in interaction order, so
   every particle's sums are made in the same order as by one interaction after the other. */
#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dem.h"
#include "dem_law.h"
#include "scalar.h"

#ifdef _OPENMP
#include <omp.h>
#endif

static double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* two doubles (GCC's generic vectors: SSE2 on x86-64, pairs of scalars elsewhere) */
typedef double v2 __attribute__((vector_size(16)));
static inline v2 ld2(const double *p)
{
    v2 v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline void st2(double *p, v2 v) { memcpy(p, &v, sizeof v); }

/* Geometry: overlap and unit normal (a to b). Returns 0 when the pair has no functor or (for
   a potential interaction) is out of reach. *ra, *rb: the radii for physics and arms. */
static inline int geometry(const imp_dem *d, const imp_dem_inter *I, int a, int b, int real,
                           const double *prev_n, double *un, double n[3], double *ra, double *rb)
{
    double f = d->p.interaction_radius;
    const double *xa = d->pos + 3 * a, *xb = d->pos + 3 * b;
    *rb = d->radius[b];
    if (d->kind[a] == IMP_DEM_SPHERE) {
        if (!(d->p.geometry & IMP_DEM_GEOM_SPHERE_SPHERE)) {
            return 0;
        }
        *ra = d->radius[a];
        double dx[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
        if (d->cell.on) {  /* b's image (dem_cell.c) */
            double o[3];
            imp_dem_cell_offset(d, I, o, NULL);
            dx[0] += o[0], dx[1] += o[1], dx[2] += o[2];
        }
        double d2 = dot(dx, dx), reach = f * (*ra + *rb);
        if (!real && d2 > reach * reach) {
            return 0;
        }
        double dist = sqrt(d2);
        if (dist > 0.0) {
            double inv = 1.0 / dist;
            for (int k = 0; k < 3; k++) {
                n[k] = dx[k] * inv;
            }
        } else {  /* concentric: any direction is a normal; keep the previous one, else z */
            double l = sqrt(dot(prev_n, prev_n));
            n[0] = l > 0.0 ? prev_n[0] / l : 0.0;
            n[1] = l > 0.0 ? prev_n[1] / l : 0.0;
            n[2] = l > 0.0 ? prev_n[2] / l : 1.0;
        }
        *un = *ra + *rb - dist;
        return 1;
    }
    *ra = *rb;
    if (d->kind[a] == IMP_DEM_FACET) {
        if (!(d->p.geometry & IMP_DEM_GEOM_FACET_SPHERE)) {
            return 0;
        }
        return imp_dem_facet_sphere(d->facet_v + 9 * d->facet[a], xb, *rb, real ? -1.0 : f * *rb,
                                    prev_n, un, n);
    }
    if (!(d->p.geometry & IMP_DEM_GEOM_WALL_SPHERE)) {
        return 0;
    }
    const double *nw = d->wall_n + 3 * a;
    double dx[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
    double dist = dot(nw, dx);  /* signed distance of the centre from the plane */
    if (!real && dist > f * *rb) {
        return 0;
    }
    n[0] = nw[0], n[1] = nw[1], n[2] = nw[2];
    *un = *rb - dist;
    return 1;
}

/* the linear law's kn of particles of moduli ea, eb and radii ra, rb (a wall: rb twice) */
static inline double derived_kn(double ea, double ra, double eb, double rb)
{
    return 2.0 * ea * ra * eb * rb / (ea * ra + eb * rb);
}

/* the reduced mass of an interaction's particles (against a fixed one: the other's own) */
static double reduced_mass(const imp_dem *d, const imp_dem_inter *I)
{
    if (d->fixed[I->a]) {
        return d->mass[I->b];
    }
    if (d->fixed[I->b]) {
        return d->mass[I->a];
    }
    return d->mass[I->a] * d->mass[I->b] / (d->mass[I->a] + d->mass[I->b]);
}

static void physics(const imp_dem *d, imp_dem_inter *I, double ra, double rb)
{
    double ea = d->young[I->a], eb = d->young[I->b];
    double phi = d->p.friction_angle;
    if (d->kind[I->a] != IMP_DEM_SPHERE && d->p.wall_friction_angle >= 0.0
        && d->p.wall_friction_angle < phi) {
        phi = d->p.wall_friction_angle;
    }
    double mu = tan(phi);
    I->mu = mu;
    if (d->p.law == IMP_DEM_LAW_HERTZ) {
        double nu = d->p.poisson;
        double estar = 1.0 / ((1.0 - nu * nu) / ea + (1.0 - nu * nu) / eb);
        double ga = ea / (2.0 * (1.0 + nu)), gb = eb / (2.0 * (1.0 + nu));
        double gstar = 1.0 / ((2.0 - nu) / ga + (2.0 - nu) / gb);
        double rstar = d->kind[I->a] != IMP_DEM_SPHERE ? rb : ra * rb / (ra + rb);
        I->kn0 = 4.0 / 3.0 * estar * sqrt(rstar);
        I->ks0 = 8.0 * gstar * sqrt(rstar);
        /* Tsuji's damping: c = -2 sqrt(5/6) beta sqrt(Sn m*), Sn = 2 E* sqrt(R* un),
           beta = ln en / sqrt(ln^2 en + pi^2) */
        double en = d->p.en, ms = reduced_mass(d, I);
        double beta = en < 1.0 && en > 0.0 ? log(en) / sqrt(log(en) * log(en) + IMP_PI * IMP_PI) : 0.0;
        I->cn0 = -2.0 * sqrt(5.0 / 6.0) * beta * sqrt(2.0 * estar * sqrt(rstar) * ms);
        I->kn = I->ks = 0.0;
        return;
    }
    I->kn = derived_kn(ea, ra, eb, rb);
    I->ks = d->p.ks_ratio * I->kn;
    if (d->p.law == IMP_DEM_LAW_VISCOUS) {
        imp_dem_viscous_physics(d, I, reduced_mass(d, I));
    }
}

/* The AVX2 law's kn, ks and mu made from the particles instead of read from the record
   (d->derived, dem.h): physics()'s operations (imp_dem_law_avx2 does them four at a time, so
   it reads only the record's first cache line). Whether they give every real interaction the
   AVX2 law may take the bits of its record is checked, bit for bit, when not known: at the first
   loop, after a change of the params physics() reads, a rebuild or a load, and (when it did not
   hold: a contact made before the friction angle changed keeps its mu) after each collider run,
   which may have removed the interactions that did not match. O(1) a loop, O(interactions) a
   check. */
static void derived_update(imp_dem *d)
{
    const int visco = d->p.law == IMP_DEM_LAW_VISCOUS;
    const double p[6] = {d->p.young, d->p.ks_ratio, d->p.friction_angle,
                         d->p.wall_friction_angle, (double)d->p.law, visco ? d->p.en : 0.0};
    if (d->derived != 0 && memcmp(p, d->derived_p, sizeof p) != 0) {
        d->derived = 0;
    }
    if (d->derived < 0 && d->collider_runs != d->derived_runs) {
        d->derived = 0;
    }
    if (d->derived != 0) {
        return;
    }
    memcpy(d->derived_p, p, sizeof p);
    d->derived_runs = d->collider_runs;
    /* physics()'s friction angles of a sphere/sphere and of a wall/sphere interaction */
    double phi = d->p.friction_angle, phi_w = phi;
    if (d->p.wall_friction_angle >= 0.0 && d->p.wall_friction_angle < phi) {
        phi_w = d->p.wall_friction_angle;
    }
    d->derived_mu[0] = tan(phi);
    d->derived_mu[1] = tan(phi_w);
    d->derived_xi2 = imp_dem_viscous_xi2(d->p.en);
    int ok = d->p.law == IMP_DEM_LAW_LINEAR || visco;
    for (int k = 0; k < d->ninter && ok; k++) {
        const int *h = d->hot + 3 * k, c = h[2] - IMP_DEM_HOT_REAL;
        if (h[2] == 0 || (c != IMP_DEM_SPHERE && c != IMP_DEM_WALL)) {
            continue;
        }
        const imp_dem_inter *I = &d->inter[k];
        const double rb = d->radius[h[1]], ra = c == IMP_DEM_SPHERE ? d->radius[h[0]] : rb;
        const double kn = derived_kn(d->young[h[0]], ra, d->young[h[1]], rb);
        const double ks = d->p.ks_ratio * kn, mu = d->derived_mu[c == IMP_DEM_WALL];
        ok = memcmp(&kn, &I->kn, sizeof kn) == 0 && memcmp(&ks, &I->ks, sizeof ks) == 0
             && memcmp(&mu, &I->mu, sizeof mu) == 0;
        if (visco && ok) {  /* imp_dem_viscous_physics's cn0 */
            const double cn0 = d->derived_xi2 * sqrt(kn * reduced_mass(d, I));
            ok = memcmp(&cn0, &I->cn0, sizeof cn0) == 0;
        }
    }
    d->derived = ok ? 1 : -1;
}

/* The viscoelastic law's kept tangential dashpot forces (kn0, ks0; dem.h: visc_stale), read
   by the energy book only, so written only while it is on: when it is on now but was off in
   the last loop, they are stale and zeroed (as a new contact's: the first booked step's loss
   takes the mean of 0 and its force). O(1) a loop, O(interactions) when it is turned on. */
static void visc_kept_update(imp_dem *d)
{
    if (d->p.law == IMP_DEM_LAW_VISCOUS && d->p.track_energy && d->visc_stale) {
        for (int k = 0; k < d->ninter; k++) {
            if (d->inter[k].real) {
                d->inter[k].kn0 = d->inter[k].ks0 = 0.0;
            }
        }
    }
    d->visc_stale = !d->p.track_energy;
}

/* 1 for a sphere, 0 for a wall or facet (they do not spin) */
static inline double ra_spin(const imp_dem *d, int a) { return d->kind[a] == IMP_DEM_SPHERE ? 1.0 : 0.0; }

/* DONE_FORCE must be 1 (run_block); DONE_LOSS: the row's losses alone are to be booked */
enum { DONE_FORCE = 1, DONE_ERASE = 2, DONE_UNPEND = 4, DONE_LOSS = 8, DONE_BREAK = 16,
       DONE_BOND = 32 };
_Static_assert((int)IMP_DEM_SCRATCH == (int)IMP_DEM_ROW, "dem.h: the scratch holds one row per interaction");

/* A potential interaction out of reach (the geometry functors' test, on the hot copy h)? The
   common case, a sphere/sphere pair, reads the packed copy xr (one 32-byte run per particle);
   the arithmetic is geometry()'s. */
static inline int out_of_reach(const imp_dem *d, const int *h, double f, int ss, int ws)
{
    const int a = h[0], b = h[1];
    const double *xa = d->xr + 4 * a, *xb = d->xr + 4 * b;
    const double ra = xa[3], rb = xb[3];
    if (d->kind[a] == IMP_DEM_SPHERE) {
        const v2 dx01 = ld2(xb) - ld2(xa), sq = dx01 * dx01;
        const double dx2 = xb[2] - xa[2], reach = f * (ra + rb);
        return !ss || (sq[0] + sq[1]) + dx2 * dx2 > reach * reach;
    }
    double dx[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
    return d->kind[a] == IMP_DEM_WALL && (!ws || dot(d->wall_n + 3 * a, dx) > f * rb);
}

/* out_of_reach in a periodic cell (spheres only): with b's image */
static int out_of_reach_cell(const imp_dem *d, int k, double f, int ss)
{
    const imp_dem_inter *I = &d->inter[k];
    const double *xa = d->pos + 3 * I->a, *xb = d->pos + 3 * I->b;
    double o[3];
    imp_dem_cell_offset(d, I, o, NULL);
    double dx[3] = {xb[0] - xa[0] + o[0], xb[1] - xa[1] + o[1], xb[2] - xa[2] + o[2]};
    double reach = f * (d->radius[I->a] + d->radius[I->b]);
    return !ss || dot(dx, dx) > reach * reach;
}

/* particle i's packed copies (pack's layout; vw may be NULL) */
static inline void pack_one(const imp_dem *d, int i, double *xr, double *vw)
{
    const size_t i3 = 3 * (size_t)i;
    const double *pos = d->pos, *vel = d->vel, *angvel = d->angvel;
    st2(xr + 4 * i, ld2(pos + i3));
    xr[4 * i + 2] = pos[i3 + 2];
    xr[4 * i + 3] = d->radius[i];
    if (vw != NULL) {
        double *o = vw + 8 * (size_t)i;
        st2(o, ld2(vel + i3));
        o[2] = vel[i3 + 2], o[3] = angvel[i3];
        o[4] = angvel[i3 + 1], o[5] = angvel[i3 + 2];
        o[6] = d->young[i], o[7] = imp_dem_packed_mass(d, i);
    }
}

/* The packed copies of positions and radii (xr) and, for the AVX2 law (simd), of velocities
   and angular velocities (vw, grown here when the particles outnumber it). Only the law reads
   them, and only for the particles of its interactions: with few interactions (a falling
   cloud), only those particles' copies are made (the same values), else all, chunk by chunk,
   each chunk's unmarked groups of forces and torques zeroed and marked after its copies (the
   force reset's zeroing in this pass, dem_step.c: the loop then finds the lines in cache and
   touches no group). O(particles) or O(interactions). Returns simd, or 0 when vw is out of
   memory (then the portable path, which gives the same results). */
static int pack(imp_dem *d, int simd)
{
    double *vw = NULL;
    if (simd && d->n > d->vw_cap) {
        int cap = d->n + d->n / 4 + 16;
        double *p = aligned_alloc(64, (size_t)cap * 8 * sizeof *p);
        if (p == NULL) {
            simd = 0;
        } else {
            free(d->vw);
            d->vw = p;
            d->vw_cap = cap;
        }
    }
    if (simd) {
        vw = d->vw;
    }
    double *xr = d->xr;
    if ((long)d->ninter * 8 < (long)d->n) {  /* both ends of each (some twice: the same bytes) */
        for (int k = 0; k < d->ninter; k++) {
            pack_one(d, d->inter[k].a, xr, vw);
            pack_one(d, d->inter[k].b, xr, vw);
        }
        return simd;
    }
    enum { CHUNK = 64 };  /* particles, a multiple of the marks' groups of 8: some 12 KB */
    const int n = d->n;
#ifdef IMP_DEM_HAVE_AVX2
    const int avx2 = imp_dem_law_simd();
#endif
    for (int i0 = 0; i0 < n; i0 += CHUNK) {
        const int i1 = i0 + CHUNK < n ? i0 + CHUNK : n;
        int i = i0;
#ifdef IMP_DEM_HAVE_AVX2
        if (avx2) {  /* all but the last particle */
            i = i1 < n ? i1 : n - 1;
            imp_dem_pack_avx2(d, xr, vw, i0, i);
        }
#endif
        for (; i < i1; i++) {
            pack_one(d, i, xr, vw);
        }
        imp_dem_force_groups_zero(d, i0 / 8, (i1 - 1) / 8 + 1);
    }
    return simd;
}

/* The geometry of one interaction of a block (pass 1): index, whether the functor found it
   (a real one without: its functor was removed from the list, the contact ends) and its
   results. */
typedef struct geo {
    int k, ok;
    double un, n[3], ra, rb;
} geo;

enum { BLOCK = IMP_DEM_BLOCK };

/* The start of the shear update of a real interaction with the geometry (un, n, ra, rb) of this
   step: its shear force carried with the contact frame (p) and the relative velocity vr of the
   two bodies' material points at the contact point, whose arms are *la, *lb (see law()). */
#if defined(__GNUC__)
__attribute__((always_inline))  /* two callers: law() must not pay a call */
#endif
static inline void carry(const imp_dem *d, const imp_dem_inter *I, const double *n, double un,
                         double ra, double rb, double dt, double p[3], double vr[3], double *la,
                         double *lb)
{
    int a = I->a, b = I->b;
    /* everything in locals: the stores into I and out cannot then force reloads */
    const double n0 = n[0], n1 = n[1], n2 = n[2];
    const double o0 = I->n[0], o1 = I->n[1], o2 = I->n[2];
    double s0 = I->fs[0], s1 = I->fs[1], s2 = I->fs[2];
    const double *pwa = d->angvel + 3 * a, *pwb = d->angvel + 3 * b;
    const double *pva = d->vel + 3 * a, *pvb = d->vel + 3 * b;
    /* walls and facets do not spin */
    const double wa0 = ra_spin(d, a) * pwa[0], wa1 = ra_spin(d, a) * pwa[1], wa2 = ra_spin(d, a) * pwa[2];
    const double wb0 = pwb[0], wb1 = pwb[1], wb2 = pwb[2];
    /* carry the shear force with the contact frame (Yade's ScGeom::rotate): fs -= fs x (n_old x
       n), then fs -= fs x (spin n) with spin the mean rotation about n over the half step */
    double x0 = o1 * n2 - o2 * n1, x1 = o2 * n0 - o0 * n2, x2 = o0 * n1 - o1 * n0;
    double c0 = s1 * x2 - s2 * x1, c1 = s2 * x0 - s0 * x2, c2 = s0 * x1 - s1 * x0;
    s0 -= c0, s1 -= c1, s2 -= c2;
    double spin = 0.5 * dt * ((n0 * wa0 + n1 * wa1 + n2 * wa2) + (n0 * wb0 + n1 * wb1 + n2 * wb2));
    x0 = spin * n0, x1 = spin * n1, x2 = spin * n2;
    c0 = s1 * x2 - s2 * x1, c1 = s2 * x0 - s0 * x2, c2 = s0 * x1 - s1 * x0;
    p[0] = s0 - c0, p[1] = s1 - c1, p[2] = s2 - c2;
    /* relative velocity of the two bodies' material points at the contact point, the middle
       of the overlap (arms la = ra - un/2, lb = rb - un/2, the torques' arms in law()):
       vb + wb x (-lb n) - va - wa x (la n) = (vb - va) - (la wa + lb wb) x n. This is Yade's
       form with avoidGranularRatcheting = False. Yade's default instead measures the slip with
       the arms ra, rb and the translation scaled by (ra + rb) / distance but applies the
       torques with la, lb: the shear spring then moves by something else than the points its
       force works on, and its energy no longer balances the work done on the bodies (an error
       of order un / r of the shear work, which showed as a gap of 0.3 % of the energy of a
       sphere spinning at 200 rad/s on a wall however small the step). With one contact point
       for both, the force's work equals the spring's elastic change plus the slip loss booked
       in law(), and angular momentum is conserved (both forces act at the same point). */
    const double l_a = ra - 0.5 * un, l_b = rb - 0.5 * un;
    double m0 = l_a * wa0 + l_b * wb0, m1 = l_a * wa1 + l_b * wb1, m2 = l_a * wa2 + l_b * wb2;
    vr[0] = (pvb[0] - pva[0]) - (m1 * n2 - m2 * n1);
    vr[1] = (pvb[1] - pva[1]) - (m2 * n0 - m0 * n2);
    vr[2] = (pvb[2] - pva[2]) - (m0 * n1 - m1 * n0);
    if (d->cell.on) {  /* b's image moves with the cell: + L H S */
        double o[3], vo[3];
        imp_dem_cell_offset(d, I, o, vo);
        vr[0] += vo[0], vr[1] += vo[1], vr[2] += vo[2];
    }
    *la = l_a, *lb = l_b;
}

/* The trial shear force t of the step: the carried force p moved on by ks dt times the
   tangential part of the relative velocity vr, then kept tangent (the rotation in carry() is
   first order). kdt = ks dt. */
static inline void trial(const double p[3], const double vr[3], const double n[3], double kdt,
                         double t[3])
{
    double vn = vr[0] * n[0] + vr[1] * n[1] + vr[2] * n[2];
    t[0] = p[0] - kdt * (vr[0] - vn * n[0]);
    t[1] = p[1] - kdt * (vr[1] - vn * n[1]);
    t[2] = p[2] - kdt * (vr[2] - vn * n[2]);
    double tn = t[0] * n[0] + t[1] * n[1] + t[2] * n[2];
    t[0] -= tn * n[0], t[1] -= tn * n[1], t[2] -= tn * n[2];
}

/* The sliding loss of a loaded contact that opens (un < 0: the geometry of this step): its
   Coulomb limit mu fn fell to zero with the normal force, so its shear spring slips free. The
   slip is the whole trial force (carried and moved on by this step's displacement, as in law())
   over ks, worked by the mean of the force before it (p) and after it (zero): p . t / (2 ks)
   for the trial t, law()'s sliding loss with a zero cap. Without it the spring's energy would
   vanish from the books (with mu = 14, contacts that stick until they open: 42 % of gravity's
   work in a deposition, spec/dem_energy_spec.lua). Hertz-Mindlin: with the last step's
   tangent stiffness. */
static double release(const imp_dem *d, const imp_dem_inter *I, const geo *e, double dt)
{
    double ks = I->ks;
    if (!(ks > 0.0) || (I->fs[0] == 0.0 && I->fs[1] == 0.0 && I->fs[2] == 0.0)) {
        return 0.0;
    }
    double p[3], vr[3], la, lb;
    const double *n = e->n;
    carry(d, I, n, e->un, e->ra, e->rb, dt, p, vr, &la, &lb);
    double t[3];
    trial(p, vr, n, ks * dt, t);
    return dot(p, t) / (2.0 * ks);
}

/* The viscoelastic law's loss over the last step of a contact that opens (as release()) */
static double viscous_release(const imp_dem *d, const imp_dem_inter *I, const geo *e, double dt)
{
    double p[3], vr[3], la, lb;
    carry(d, I, e->n, e->un, e->ra, e->rb, dt, p, vr, &la, &lb);
    return imp_dem_viscous_release(I, vr, e->n, dt);
}

/* Rolling resistance (the idea of Yade's rolling-resistance laws, e.g.
   Law2_ScGeom6D_CohFrictPhys_CohesionMoment): an elastic-plastic rolling moment M on b (on a:
   -M) against the relative rolling rotation, the relative angular velocity w_b - w_a without
   its twist part along n: M -= kr dt w_roll, kept tangent (M . n = 0), capped at
   eta_r min(ra, rb) fn; kr = 2 ks ra rb (Yade's alphaKr = 2). A sphere rolling on a plane under
   its weight then decelerates at eta_r g / (1 + I / (m r^2)) (spec/dem_rolling_spec.lua). Into
   the row's torque terms (subtracted: a's gets +M, b's -M, giving -M on a and +M on b). The
   work of the moment is not booked in the energy. */
static void rolling(const imp_dem *d, imp_dem_inter *I, const double *n, double ra, double rb,
                    double fn, double dt, double *out)
{
    const double *wa = d->angvel + 3 * I->a, *wb = d->angvel + 3 * I->b;
    const double sa = ra_spin(d, I->a);
    double w[3] = {wb[0] - sa * wa[0], wb[1] - sa * wa[1], wb[2] - sa * wa[2]};
    double wn = dot(w, n), kr = 2.0 * I->ks * ra * rb, *m = I->mr;
    for (int k = 0; k < 3; k++) {
        m[k] -= kr * dt * (w[k] - wn * n[k]);
    }
    double mn = dot(m, n);
    for (int k = 0; k < 3; k++) {
        m[k] -= mn * n[k];
    }
    double m2 = dot(m, m), cap = d->p.rolling * (ra < rb ? ra : rb) * (fn > 0.0 ? fn : 0.0);
    if (!I->bonded && m2 > cap * cap) {  /* a bond's moment is elastic */
        double s = cap / sqrt(m2);
        m[0] *= s, m[1] *= s, m[2] *= s;
    }
    for (int k = 0; k < 3; k++) {
        out[IMP_DEM_ROW_TA + k] += m[k];
        out[IMP_DEM_ROW_TB + k] -= m[k];
    }
}

/* Twisting resistance (the idea of Yade's CohesionMoment law, twist part): an elastic-plastic
   moment mt n on b (on a: -mt n) against the relative spin about the normal, (w_b - w_a) . n:
   mt -= kt dt (w_b - w_a) . n, kt = 2 ks ra rb (Yade's alphaKtw = 2), capped at
   eta_t min(ra, rb) fn (a bond's is elastic). A sphere spinning about the normal of its contact
   then decelerates at eta_t r fn / I once it slides (spec/dem_cohesion_spec.lua). Its work is
   not booked in the energy. */
static void twisting(const imp_dem *d, imp_dem_inter *I, const double *n, double ra, double rb,
                     double fn, double dt, double *out)
{
    const double *wa = d->angvel + 3 * I->a, *wb = d->angvel + 3 * I->b;
    const double sa = ra_spin(d, I->a);
    double w[3] = {wb[0] - sa * wa[0], wb[1] - sa * wa[1], wb[2] - sa * wa[2]};
    double m = I->mt - 2.0 * I->ks * ra * rb * dt * dot(w, n);
    double cap = d->p.twisting * (ra < rb ? ra : rb) * (fn > 0.0 ? fn : 0.0);
    if (!I->bonded && fabs(m) > cap) {
        m = m > 0.0 ? cap : -cap;
    }
    I->mt = m;
    for (int k = 0; k < 3; k++) {
        out[IMP_DEM_ROW_TA + k] += m * n[k];
        out[IMP_DEM_ROW_TB + k] -= m * n[k];
    }
}

/* Pass 2 for one interaction with its geometry e: physics when it becomes real, the law.
   Writes only the interaction, its hot copy and its row out (dem_law.h), so interactions can
   be processed in parallel; returns DONE_* flags for the serial pass. */
static inline int law(const imp_dem *d, imp_dem_inter *I, int *hot, double dt, const geo *e,
                      double *out)
{
    if (!e->ok) {
        return DONE_ERASE;
    }
    const double un = e->un, *n = e->n, ra = e->ra, rb = e->rb;
    int flags = 0, fresh = !I->real;
    if (!I->real) {
        physics(d, I, ra, rb);
        I->real = 1;
        hot[2] = imp_dem_hot_class(d, I->a);
        flags |= I->pending ? DONE_UNPEND : 0;
        I->pending = 0;
        I->created = d->iter;
        I->fs[0] = I->fs[1] = I->fs[2] = 0.0;
        I->mr[0] = I->mr[1] = I->mr[2] = 0.0;
        I->mt = 0.0;
        I->n[0] = n[0], I->n[1] = n[1], I->n[2] = n[2];
    }
    if (d->p.cohesion_now && !I->bonded && d->p.law == IMP_DEM_LAW_LINEAR) {
        double rmin = ra < rb ? ra : rb, area = IMP_PI * rmin * rmin;
        I->adh_n = d->p.cohesion_n * area;
        I->adh_s = d->p.cohesion_s * area;
        I->bonded = 1;
        flags |= DONE_BOND;
    }
    /* a bond (linear law) whose tension kn |un| exceeds its normal adhesion breaks */
    if (I->bonded && un < 0.0 && (d->p.law != IMP_DEM_LAW_LINEAR || -(I->kn * un) > I->adh_n)) {
        I->bonded = 0;
        flags |= DONE_BREAK;
    }
    if (un < 0.0 && !I->bonded) {  /* a gap: the linear and Hertz laws have no attraction */
        if (!fresh && d->p.track_energy) {
            out[IMP_DEM_ROW_PLASTIC] = release(d, I, e, dt);
            out[IMP_DEM_ROW_VISCOUS] = d->p.law == IMP_DEM_LAW_VISCOUS ? viscous_release(d, I, e, dt)
                                                                      : 0.0;
            flags |= DONE_LOSS;
        }
        if (!d->p.never_erase) {
            return flags | DONE_ERASE;
        }
        I->un = un;
        I->fn = 0.0;
        I->fs[0] = I->fs[1] = I->fs[2] = 0.0;
        I->n[0] = n[0], I->n[1] = n[1], I->n[2] = n[2];
        if (d->p.law == IMP_DEM_LAW_VISCOUS) {  /* no dashpot force either */
            I->kn0 = I->ks0 = 0.0;
        }
        return flags;
    }
    const double n0 = n[0], n1 = n[1], n2 = n[2];
    double pc[3], vrc[3], la, lb;
    carry(d, I, n, un, ra, rb, dt, pc, vrc, &la, &lb);
    const double p0 = pc[0], p1 = pc[1], p2 = pc[2];
    double fn, ks, viscous = 0.0;
    if (d->p.law == IMP_DEM_LAW_HERTZ) {
        double s = sqrt(un);
        fn = I->kn0 * un * s;
        I->kn = 1.5 * I->kn0 * s;
        I->ks = I->ks0 * s;
        if (I->cn0 > 0.0) {  /* viscous normal damping against the normal relative velocity */
            const double *pva = d->vel + 3 * I->a, *pvb = d->vel + 3 * I->b;
            double vsep = (pvb[0] - pva[0]) * n0 + (pvb[1] - pva[1]) * n1 + (pvb[2] - pva[2]) * n2;
            if (d->cell.on) {
                double o[3], vo[3];
                imp_dem_cell_offset(d, I, o, vo);
                vsep += vo[0] * n0 + vo[1] * n1 + vo[2] * n2;
            }
            double fv = -I->cn0 * sqrt(s) * vsep;
            /* its loss over the step's normal displacement -vsep dt, with the mean of the
               viscous force before (the last total minus its elastic part) and now */
            double fv_old = fresh || !(I->un > 0.0) ? 0.0 : I->fn - I->kn0 * I->un * sqrt(I->un);
            viscous = -0.5 * (fv_old + fv) * vsep * dt;
            fn += fv;
        }
    } else {
        fn = I->kn * un;
    }
    const int visco = d->p.law == IMP_DEM_LAW_VISCOUS;
    const double vn = visco ? vrc[0] * n0 + vrc[1] * n1 + vrc[2] * n2 : 0.0;
    if (visco) {  /* the normal dashpot (dem_law_viscous.c) */
        fn += imp_dem_viscous_normal(I, fresh, vn, dt, &viscous);
    }
    ks = I->ks;
    double tr[3];
    trial(pc, vrc, n, ks * dt, tr);
    double s0 = tr[0], s1 = tr[1], s2 = tr[2];
    double fs2 = s0 * s0 + s1 * s1 + s2 * s2, cap = I->mu * (fn > 0.0 ? fn : 0.0);
    double plastic = 0.0;
    if (I->bonded) {  /* a bond holds shear up to its adhesion plus friction (Yade: fragile) */
        double bcap = I->adh_s + I->mu * fn;
        bcap = bcap > 0.0 ? bcap : 0.0;
        if (fs2 > bcap * bcap) {  /* broken: frictional from now on, no tension */
            I->bonded = 0;
            flags |= DONE_BREAK;
            fn = fn > 0.0 ? fn : 0.0;
        } else {
            cap = bcap;
        }
    }
    double ft[3] = {0.0, 0.0, 0.0};
    if (visco) {  /* the tangential dashpot while it sticks (dem_law_viscous.c) */
        imp_dem_viscous_tangential(d, I, vrc, n, vn, !(fs2 > cap * cap), dt, ft, &viscous);
    }
    if (fs2 > cap * cap) {  /* Coulomb: slide; the work of the cut force is dissipated */
        double l = sqrt(fs2), scale = cap / l;
        /* slip (l - cap) / ks along the trial t, worked by the mean of the force before it
           (p, carried with the frame) and after it (cap along t): the spring's energy change
           plus this loss is exactly the trapezoid work (p + fs) / 2 . slip */
        if (ks > 0.0 && d->p.track_energy) {  /* read only when booked */
            plastic = (l - cap) * (cap + (p0 * s0 + p1 * s1 + p2 * s2) / l) / (2.0 * ks);
        }
        s0 *= scale, s1 *= scale, s2 *= scale;
    }
    I->un = un;
    I->fn = fn;
    I->n[0] = n0, I->n[1] = n1, I->n[2] = n2;
    I->fs[0] = s0, I->fs[1] = s1, I->fs[2] = s2;
    if (visco) {  /* the record keeps the spring's force, the row has the dashpot's too */
        s0 += ft[0], s1 += ft[1], s2 += ft[2];
    }
    /* force on b: F = fn n + fs; on a: the opposite; torques about each centre from the
       contact point (the middle of the overlap), with n x F = n x fs */
    out[IMP_DEM_ROW_F] = fn * n0 + s0;
    out[IMP_DEM_ROW_F + 1] = fn * n1 + s1;
    out[IMP_DEM_ROW_F + 2] = fn * n2 + s2;
    const double t0 = n1 * s2 - n2 * s1, t1 = n2 * s0 - n0 * s2, t2 = n0 * s1 - n1 * s0;
    out[IMP_DEM_ROW_TA] = la * t0;
    out[IMP_DEM_ROW_TA + 1] = la * t1;
    out[IMP_DEM_ROW_TA + 2] = la * t2;
    out[IMP_DEM_ROW_TB] = lb * t0;
    out[IMP_DEM_ROW_TB + 1] = lb * t1;
    out[IMP_DEM_ROW_TB + 2] = lb * t2;
    if (d->p.rolling > 0.0 || I->bonded) {
        rolling(d, I, n, ra, rb, fn, dt, out);
    }
    if (d->p.twisting > 0.0 || I->bonded) {
        twisting(d, I, n, ra, rb, fn, dt, out);
    }
    out[IMP_DEM_ROW_PLASTIC] = plastic;
    out[IMP_DEM_ROW_VISCOUS] = viscous;
    out[IMP_DEM_ROW_AB] = imp_dem_row_ab(I->a, I->b);
    return flags | DONE_FORCE;
}

/* The serial pass's work for interaction k with flags and row o: the erase request, or the
   force and torque sums on both particles. */
static void apply(imp_dem *d, int k, int flags, const double *o, double *loss)
{
    d->npending -= (flags & DONE_UNPEND) != 0;
    d->nbonds -= (flags & DONE_BREAK) != 0;
    d->nbonds += (flags & DONE_BOND) != 0;
    /* several ranks: this rank's share of the losses (x 1.0 exactly on one) */
    const double wk = d->pair_w != NULL ? imp_dem_pair_weight(d->pair_w, d->hot[3 * k], d->hot[3 * k + 1]) : 1.0;
    if (flags & DONE_LOSS) {
        loss[0] += wk * o[IMP_DEM_ROW_PLASTIC];
        loss[1] += wk * o[IMP_DEM_ROW_VISCOUS];
    }
    if (flags & DONE_ERASE) {
        imp_dem_request_erase(d, k);
        return;
    }
    if (!(flags & DONE_FORCE)) {
        return;
    }
    int a = d->hot[3 * k], b = d->hot[3 * k + 1];
    imp_dem_force_touch(d, a);
    imp_dem_force_touch(d, b);
    double *fa = d->force + 3 * a, *fb = d->force + 3 * b;
    double *ta = d->torque + 3 * a, *tb = d->torque + 3 * b;
    const double *F = o + IMP_DEM_ROW_F, *TA = o + IMP_DEM_ROW_TA, *TB = o + IMP_DEM_ROW_TB;
    fb[0] += F[0], fb[1] += F[1], fb[2] += F[2];
    fa[0] -= F[0], fa[1] -= F[1], fa[2] -= F[2];
    tb[0] -= TB[0], tb[1] -= TB[1], tb[2] -= TB[2];   /* (-lb n) x F */
    ta[0] -= TA[0], ta[1] -= TA[1], ta[2] -= TA[2];   /* (la n) x (-F) */
    loss[0] += wk * o[IMP_DEM_ROW_PLASTIC];
    loss[1] += wk * o[IMP_DEM_ROW_VISCOUS];
}

/* the serial pass's run of a in registers back to a's force and torque (cur: 3 a, UINT32_MAX
   when there is none) */
static inline void put_a(double *force, double *torque, uint32_t cur, v2 fa01, double fa2, v2 ta01,
                         double ta2)
{
    if (cur != UINT32_MAX) {
        st2(force + cur, fa01), force[cur + 2] = fa2;
        st2(torque + cur, ta01), torque[cur + 2] = ta2;
    }
}

/* imp_dem_force_touch of the particle whose index times 3 is i3 (a row's IMP_DEM_ROW_AB) */
static inline void touch3(imp_dem *d, const unsigned char *mark, uint32_t i3)
{
    if (!mark[i3 / 24]) {
        imp_dem_force_group_zero(d, (int)(i3 / 24));
    }
}

/* The serial pass over the interactions order[0..n-1] (increasing; their flags at done[k - k0],
   their rows at rows + IMP_DEM_ROW (k - k0)): apply() with the common case (a force, nothing
   else) inlined, its particles from the row (IMP_DEM_ROW_AB), the arrays' pointers and the
   losses in locals (no store to d per interaction: it would chain every interaction to the one
   before through memory); the losses only when they are booked. The interactions are kept in
   (a, b) order (dem_order.c), so consecutive ones mostly share a: a's force and torque stay in
   registers over such a run and are stored when a changes, before an apply() and at the end.
   The same subtractions in the same order (no other interaction of the run writes a's: each
   has b != a), so the same bits as one load-subtract-store per interaction, without the chain
   of a store and the next interaction's load of the same numbers. Each particle's group is
   touched (imp_dem_force_touch) before its numbers are read: a's when its run starts. */
#if defined(__GNUC__)
__attribute__((always_inline))  /* track a constant in each of apply_list's two calls */
#endif
static inline void apply_list_t(imp_dem *d, const int *order, int n, const unsigned char *done,
                                const double *rows, int k0, double *loss, const int track)
{
    double *force = d->force, *torque = d->torque;
    const unsigned char *mark = d->force_mark;
    double l[2] = {loss[0], loss[1]};
    uint32_t cur = UINT32_MAX;  /* 3 a of the run in registers (none: UINT32_MAX) */
    v2 fa01 = {0.0, 0.0}, ta01 = {0.0, 0.0};
    double fa2 = 0.0, ta2 = 0.0;
    for (int j = 0; j < n; j++) {
        const int k = order[j], flags = done[k - k0];
        const double *o = rows + IMP_DEM_ROW * (size_t)(k - k0);
        if (flags != DONE_FORCE) {
            if (flags != 0) {
                put_a(force, torque, cur, fa01, fa2, ta01, ta2);  /* apply() may write a's */
                cur = UINT32_MAX;
                apply(d, k, flags, o, l);
            }
            continue;
        }
        uint32_t ab[2];
        memcpy(ab, o + IMP_DEM_ROW_AB, sizeof ab);
        if (ab[0] != cur) {
            put_a(force, torque, cur, fa01, fa2, ta01, ta2);
            cur = ab[0];
            touch3(d, mark, cur);
            fa01 = ld2(force + cur), fa2 = force[cur + 2];
            ta01 = ld2(torque + cur), ta2 = torque[cur + 2];
        }
        touch3(d, mark, ab[1]);
        double *fb = force + ab[1], *tb = torque + ab[1];
        const double *F = o + IMP_DEM_ROW_F, *TA = o + IMP_DEM_ROW_TA, *TB = o + IMP_DEM_ROW_TB;
        /* apply()'s sums, components 0 and 1 as pairs (the same operations per component) */
        const v2 f01 = ld2(F);
        st2(fb, ld2(fb) + f01), fb[2] += F[2];
        fa01 -= f01, fa2 -= F[2];
        st2(tb, ld2(tb) - ld2(TB)), tb[2] -= TB[2];
        ta01 -= ld2(TA), ta2 -= TA[2];
        if (track && d->pair_w != NULL) {  /* several ranks: this rank's share */
            const double wk = imp_dem_pair_weight(d->pair_w, (int)(ab[0] / 3), (int)(ab[1] / 3));
            l[0] += wk * o[IMP_DEM_ROW_PLASTIC];
            l[1] += wk * o[IMP_DEM_ROW_VISCOUS];
        } else if (track) {
            l[0] += o[IMP_DEM_ROW_PLASTIC];
            l[1] += o[IMP_DEM_ROW_VISCOUS];
        }
    }
    put_a(force, torque, cur, fa01, fa2, ta01, ta2);
    loss[0] = l[0], loss[1] = l[1];
}

static void apply_list(imp_dem *d, const int *order, int n, const unsigned char *done,
                       const double *rows, int k0, double *loss)
{
    if (d->p.track_energy) {
        apply_list_t(d, order, n, done, rows, k0, loss, 1);
    } else {
        apply_list_t(d, order, n, done, rows, k0, loss, 0);
    }
}

/* The law of the interactions k = idx[0..count-1] on the portable path: first their geometry
   (short independent iterations, so the memory loads, square roots and divisions of successive
   interactions overlap instead of stalling the law), then their laws. Potential ones the
   geometry does not find are dropped. */
static int portable(imp_dem *d, const int *idx, int count, double dt, unsigned char *done,
                    double *rows, int k0)
{
    int touched = 0;  /* a hot copy changed (an interaction became real) */
    geo g[BLOCK];
    int c = 0;
    for (int j = 0; j < count; j++) {
        int k = idx[j];
        const int *h = d->hot + 3 * k;
        geo *e = g + c;
        e->k = k;
        e->ok = geometry(d, &d->inter[k], h[0], h[1], h[2], d->inter[k].n, &e->un, e->n, &e->ra,
                         &e->rb);
        c += e->ok || h[2];
    }
    for (int j = 0; j < c; j++) {
        int k = g[j].k, was = d->hot[3 * k + 2];
        done[k - k0] = (unsigned char)law(d, &d->inter[k], d->hot + 3 * k, dt, g + j,
                                          rows + IMP_DEM_ROW * (size_t)(k - k0));
        touched |= d->hot[3 * k + 2] != was;
    }
    return touched;
}

/* Interactions k0..k1-1: their flags to done[k - k0] and their rows to rows + IMP_DEM_ROW (k -
   k0), for the serial pass; the indices that may have something for it to do, in interaction
   order, to *order (real when they are the real ones, else merged; returns their count). The
   block's sort by class (dem_law_sort.c; s: its cached copy when valid, else its place, or scratch
   space of the caller's when there is no cache); potential ones out of reach are dropped (12
   bytes and two positions read); with simd, the real ones of the common case (linear law) go to
   the AVX2 law four at a time, the others (and the groups of four it gives back) to the
   portable one. dirty: the block's mark in d->hot_dirty when s is its cached sort (NULL
   otherwise): the hot copy is compared with s's only when the mark is set (a clean block's is
   the same), and the mark is set again when a law here changes a hot copy. Writes only these
   interactions, their hot copies, s, *dirty, done, rows, real and merged (BLOCK entries each),
   so blocks can run in parallel. */
static int run_block(imp_dem *d, int k0, int k1, double dt, double f, int ss, int ws, int simd,
                     imp_dem_sorted *s, unsigned char *dirty, unsigned char *done, double *rows,
                     int *merged, const int **order)
{
    int slow[BLOCK];
    const int *hot = d->hot;
    /* the AVX2 law takes the linear and viscoelastic laws; rolling, twisting and bonds: every
       interaction on the portable law (the AVX2 one has neither moments nor bonds), so both
       paths give the same bits */
    const int fast = simd && (d->p.law == IMP_DEM_LAW_LINEAR || d->p.law == IMP_DEM_LAW_VISCOUS)
                     && !(d->p.rolling > 0.0) && !(d->p.twisting > 0.0) && d->nbonds == 0
                     && !d->p.cohesion_now;
    /* the classes the AVX2 law takes (-1: none) */
    const int css = fast && ss ? IMP_DEM_HOT_REAL + IMP_DEM_SPHERE : -1;
    const int cws = fast && ws ? IMP_DEM_HOT_REAL + IMP_DEM_WALL : -1;
    if (s->k1 != k1 || s->css != css || s->cws != cws
        || ((dirty == NULL || *dirty)
            && memcmp(s->hot, hot + 3 * k0, 3 * (size_t)(k1 - k0) * sizeof *hot) != 0
            && !imp_dem_update_sorted(hot, k0, simd, s))) {
        imp_dem_sort_block(hot, k0, k1, css, cws, simd, s);
    }
    if (dirty != NULL) {
        *dirty = 0;  /* s is the sort of the block's hot copy as it is */
    }
    memcpy(done, s->done, (size_t)(k1 - k0));
    const int nr = s->nr, nslow_real = s->nslow;
    const int *real = s->real;
    memcpy(slow, s->slow, (size_t)nslow_real * sizeof *slow);
    int nslow = nslow_real, np = s->np;
    const int *test = s->pot;
#ifdef IMP_DEM_HAVE_AVX2
    int rest[BLOCK];
    if (simd && ss && !d->cell.on) {  /* sphere/sphere ones four at a time, the others below
                                         (in a periodic cell all below: the images) */
        int nrest = 0;
        nslow += imp_dem_reach_avx2(d, s->pot, s->pot_a, s->pot_b, np, f, slow + nslow, rest,
                                    &nrest);
        test = rest;
        np = nrest;
    }
#endif
    for (int j = 0; j < np; j++) {
        if (d->cell.on ? !out_of_reach_cell(d, test[j], f, ss)
                       : !out_of_reach(d, hot + 3 * test[j], f, ss, ws)) {
            slow[nslow++] = test[j];
        }
    }
    for (int j = nslow_real + 1; j < nslow; j++) {  /* in interaction order (few) */
        int k = slow[j], i = j;
        for (; i > nslow_real && slow[i - 1] > k; i--) {
            slow[i] = slow[i - 1];
        }
        slow[i] = k;
    }
    int n = nr;
    *order = real;
    if (nslow > nslow_real) {  /* potential ones in reach (few): merged into the order */
        const int *in = slow + nslow_real;
        int nin = nslow - nslow_real, w = 0;
        n = 0;
        for (int i = 0; i < nr; i++) {
            while (w < nin && in[w] < real[i]) {
                merged[n++] = in[w++];
            }
            merged[n++] = real[i];
        }
        while (w < nin) {
            merged[n++] = in[w++];
        }
        *order = merged;
    }
#ifdef IMP_DEM_HAVE_AVX2
    if (fast) {
        nslow += imp_dem_law_avx2(d, 0, s->fss, s->ss_a, s->ss_b, (s->nss + 3) & ~3, dt, rows, k0,
                                  slow + nslow);
        nslow += imp_dem_law_avx2(d, 1, s->fws, s->ws_a, s->ws_b, (s->nws + 3) & ~3, dt, rows, k0,
                                  slow + nslow);
    }
#endif
    if (portable(d, slow, nslow, dt, done, rows, k0) && dirty != NULL) {
        *dirty = 1;
    }
    return n;
}

/* -1: not chosen yet; 0: portable; 1: AVX2. Atomic: worlds may step in several threads. */
static atomic_int simd_mode = -1;

static int simd_available(void)
{
#ifdef IMP_DEM_HAVE_AVX2
    return imp_dem_law_avx2_supported();
#else
    return 0;
#endif
}

int imp_dem_law_simd(void) { return imp_dem_simd_mode(&simd_mode, simd_available); }

int imp_dem_law_set_simd(int on)
{
    int m = on && simd_available();
    atomic_store_explicit(&simd_mode, m, memory_order_relaxed);
    return m;
}

/* Every interaction on its own (blocks of BLOCK), then, in interaction order, the erase
   requests and the sums of forces and torques on the particles, so the result does not depend
   on the number of threads nor on the path (AVX2 or portable). With several threads the
   blocks run in parallel into d->done and d->scratch, then one serial pass; with one, each
   block's serial pass follows it (its rows still in cache, on the stack). O(interactions). */
int imp_dem_interactions(imp_dem *d, double dt)
{
    const double f = d->p.interaction_radius;
    const int ss = (d->p.geometry & IMP_DEM_GEOM_SPHERE_SPHERE) != 0;
    const int ws = (d->p.geometry & IMP_DEM_GEOM_WALL_SPHERE) != 0;
    const int simd = pack(d, imp_dem_law_simd());
    if (simd && (d->p.law == IMP_DEM_LAW_LINEAR || d->p.law == IMP_DEM_LAW_VISCOUS)) {
        derived_update(d);
    }
    visc_kept_update(d);
    const int m = d->ninter, nblocks = (m + BLOCK - 1) / BLOCK;
    imp_dem_sorted *cache = imp_dem_sorted_cache(d, nblocks);
    double loss[2] = {0.0, 0.0};  /* sliding, viscous */
#ifdef _OPENMP
    if (omp_get_max_threads() > 1 && !omp_in_parallel()) {
        unsigned char *done = d->done;
        double *scratch = d->scratch;
        _Pragma("omp parallel for schedule(static, 2)")
        for (int blk = 0; blk < nblocks; blk++) {
            int k0 = blk * BLOCK, k1 = k0 + BLOCK < m ? k0 + BLOCK : m;
            int merged[BLOCK];
            const int *order;
            imp_dem_sorted own;  /* without the cache (out of memory) */
            own.k1 = -1;
            run_block(d, k0, k1, dt, f, ss, ws, simd, cache != NULL ? cache + blk : &own,
                      cache != NULL ? d->hot_dirty + blk : NULL, done + k0,
                      scratch + IMP_DEM_ROW * (size_t)k0, merged, &order);
        }
        int *order = d->order;
        int n = 0;
        for (int k = 0; k < m; k++) {
            order[n] = k;
            n += done[k] != 0;
        }
        apply_list(d, order, n, done, scratch, 0, loss);
        if (d->p.track_energy) {
            d->energy.plastic += loss[0];
            d->energy.viscous += loss[1];
        }
        return 0;
    }
#endif
    unsigned char done[BLOCK];
    double rows[BLOCK * IMP_DEM_ROW];
    int merged[BLOCK];
    imp_dem_sorted own;  /* without the cache (out of memory) */
    for (int blk = 0; blk < nblocks; blk++) {
        int k0 = blk * BLOCK, k1 = k0 + BLOCK < m ? k0 + BLOCK : m;
        const int *order;
        own.k1 = -1;
        int n = run_block(d, k0, k1, dt, f, ss, ws, simd, cache != NULL ? cache + blk : &own,
                          cache != NULL ? d->hot_dirty + blk : NULL, done, rows, merged, &order);
        apply_list(d, order, n, done, rows, k0, loss);
    }
    if (d->p.track_energy) {
        d->energy.plastic += loss[0];
        d->energy.viscous += loss[1];
    }
    return 0;
}

int imp_dem_bond_all(imp_dem *d, double cn, double cs)
{
    if (d->p.law != IMP_DEM_LAW_LINEAR) {
        snprintf(d->error, sizeof d->error,
                 "cohesive bonds need the linear law (\"cundall_strack\" with dem.frict)");
        return -1;
    }
    if (!(cn >= 0.0) || !(cs >= 0.0) || !isfinite(cn) || !isfinite(cs)) {
        snprintf(d->error, sizeof d->error,
                 "the cohesion must be finite numbers >= 0, got normal %g, shear %g", cn, cs);
        return -1;
    }
    int made = 0;
    for (int k = 0; k < d->ninter; k++) {
        imp_dem_inter *I = &d->inter[k];
        if (!I->real) {
            continue;
        }
        double rb = d->radius[I->b], ra = d->kind[I->a] == IMP_DEM_SPHERE ? d->radius[I->a] : rb;
        double r = ra < rb ? ra : rb, area = IMP_PI * r * r;
        I->adh_n = cn * area;
        I->adh_s = cs * area;
        made += !I->bonded;
        I->bonded = 1;
    }
    d->nbonds += made;
    return made;
}

int imp_dem_bond_count(const imp_dem *d)
{
    int n = 0;
    for (int k = 0; k < d->ninter; k++) {
        n += d->inter[k].bonded;
    }
    return n;
}

void imp_dem_particle_load(const imp_dem *d, int i, double f[3], double t[3], double *kn_sum)
{
    f[0] = f[1] = f[2] = t[0] = t[1] = t[2] = 0.0;
    *kn_sum = 0.0;
    if (i < 0 || i >= d->n) {
        return;
    }
    for (int k = 0; k < 3 && imp_dem_force_written(d, i); k++) {
        f[k] = d->force[3 * i + k];
        t[k] = d->torque[3 * i + k];
    }
    for (int k = 0; k < d->ninter; k++) {
        const imp_dem_inter *I = &d->inter[k];
        if (I->real && (I->a == i || I->b == i) && I->un >= 0.0) {
            *kn_sum += I->kn;
        }
    }
}
