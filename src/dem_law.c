/* dem_law.c: the interaction loop: per interaction, the geometry functor of its shape pair
   (Yade's Ig2_Sphere_Sphere_ScGeom, Ig2_Wall_Sphere_ScGeom, Ig2_Facet_Sphere_ScGeom), the physics functor once when it
   becomes real (Ip2_FrictMat_FrictMat_FrictPhys or _MindlinPhys) and the law
   (Law2_ScGeom_FrictPhys_CundallStrack or a Hertz-Mindlin law without viscous damping), which
   adds forces and torques to both particles or requests the erase. O(interactions).

   Linear law (Cundall & Strack 1979, as in Yade): fn = kn un; the shear force is incremental:
   carried along with the contact frame (rotation by n_old x n and by the mean spin about n),
   decreased by ks times the tangential relative displacement of the step, capped at mu fn
   (Coulomb). kn = 2 E1 R1 E2 R2 / (E1 R1 + E2 R2) (a wall counts with the sphere's radius),
   ks = ks_ratio kn, mu = tan(min friction angle).
   Hertz-Mindlin (Mindlin & Deresiewicz 1953, no slip-history correction): fn = kn0 un^1.5 with
   kn0 = 4/3 E* sqrt(R*), tangent stiffness ks = 8 G* sqrt(R* un); 1/E* = sum (1 - nu^2)/E,
   1/G* = sum (2 - nu)/G, G = E / (2 (1 + nu)), R* = R1 R2 / (R1 + R2) (a wall: R* = R). */
#include <math.h>
#include <stddef.h>

#include "dem.h"
#include "scalar.h"

static void cross(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Geometry: overlap and unit normal (a to b). Returns 0 when the pair has no functor or (for a
   potential interaction) is out of reach. *ra_out, *rb_out: the radii for physics and arms. */
static int geometry(const imp_dem *d, const imp_dem_inter *I, double *un, double n[3],
                    double *ra, double *rb)
{
    int a = I->a, b = I->b;
    double f = d->p.interaction_radius;
    const double *xa = d->pos + 3 * a, *xb = d->pos + 3 * b;
    *rb = d->radius[b];
    if (d->kind[a] == IMP_DEM_SPHERE) {
        if (!(d->p.geometry & IMP_DEM_GEOM_SPHERE_SPHERE)) {
            return 0;
        }
        *ra = d->radius[a];
        double dx[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
        double d2 = dot(dx, dx), reach = f * (*ra + *rb);
        if (!I->real && d2 > reach * reach) {
            return 0;
        }
        double dist = sqrt(d2);
        if (dist > 0.0) {
            double inv = 1.0 / dist;
            for (int k = 0; k < 3; k++) {
                n[k] = dx[k] * inv;
            }
        } else {  /* concentric: any direction is a normal; keep the previous one, else z */
            double l = sqrt(dot(I->n, I->n));
            n[0] = l > 0.0 ? I->n[0] / l : 0.0;
            n[1] = l > 0.0 ? I->n[1] / l : 0.0;
            n[2] = l > 0.0 ? I->n[2] / l : 1.0;
        }
        *un = *ra + *rb - dist;
        return 1;
    }
    *ra = *rb;
    if (d->kind[a] == IMP_DEM_FACET) {
        if (!(d->p.geometry & IMP_DEM_GEOM_FACET_SPHERE)) {
            return 0;
        }
        return imp_dem_facet_sphere(d->facet_v + 9 * d->facet[a], xb, *rb, I->real ? -1.0 : f * *rb,
                                    I->n, un, n);
    }
    if (!(d->p.geometry & IMP_DEM_GEOM_WALL_SPHERE)) {
        return 0;
    }
    const double *nw = d->wall_n + 3 * a;
    double dx[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
    double dist = dot(nw, dx);  /* signed distance of the centre from the plane */
    if (!I->real && dist > f * *rb) {
        return 0;
    }
    n[0] = nw[0], n[1] = nw[1], n[2] = nw[2];
    *un = *rb - dist;
    return 1;
}

static void physics(const imp_dem *d, imp_dem_inter *I, double ra, double rb)
{
    double ea = d->young[I->a], eb = d->young[I->b];
    double mu = tan(d->p.friction_angle);
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
        double en = d->p.en, ms;
        if (d->fixed[I->a]) {
            ms = d->mass[I->b];
        } else if (d->fixed[I->b]) {
            ms = d->mass[I->a];
        } else {
            ms = d->mass[I->a] * d->mass[I->b] / (d->mass[I->a] + d->mass[I->b]);
        }
        double beta = en < 1.0 && en > 0.0 ? log(en) / sqrt(log(en) * log(en) + IMP_PI * IMP_PI) : 0.0;
        I->cn0 = -2.0 * sqrt(5.0 / 6.0) * beta * sqrt(2.0 * estar * sqrt(rstar) * ms);
        I->kn = I->ks = 0.0;
        return;
    }
    I->kn = 2.0 * ea * ra * eb * rb / (ea * ra + eb * rb);
    I->ks = d->p.ks_ratio * I->kn;
}

enum { DONE_FORCE = 1, DONE_ERASE = 2, DONE_UNPEND = 4, SCRATCH = 9 };

/* One interaction: geometry, physics when it becomes real, the law. Writes only the
   interaction, its hot copy and out (force on b, n x force, the two arms, plastic work), so
   interactions can be processed in parallel; returns DONE_* flags for the serial pass. */
static int one(const imp_dem *d, imp_dem_inter *I, int *hot, double dt, double *out)
{
    double un, n[3], ra, rb;
    if (!geometry(d, I, &un, n, &ra, &rb)) {
        /* real: the functor was removed from the list, the contact ends */
        return I->real ? DONE_ERASE : 0;
    }
    int flags = 0;
    if (!I->real) {
        physics(d, I, ra, rb);
        I->real = 1;
        hot[2] = 1;
        flags |= I->pending ? DONE_UNPEND : 0;
        I->pending = 0;
        I->created = d->iter;
        I->fs[0] = I->fs[1] = I->fs[2] = 0.0;
        I->n[0] = n[0], I->n[1] = n[1], I->n[2] = n[2];
    }
    int a = I->a, b = I->b;
    if (un < 0.0) {  /* a gap: the linear and Hertz laws have no attraction */
        if (!d->p.never_erase) {
            return flags | DONE_ERASE;
        }
        I->un = un;
        I->fn = 0.0;
        I->fs[0] = I->fs[1] = I->fs[2] = 0.0;
        I->n[0] = n[0], I->n[1] = n[1], I->n[2] = n[2];
        return flags;
    }
    const double *wa = d->angvel + 3 * a, *wb = d->angvel + 3 * b;
    /* carry the shear force with the contact frame (Yade's ScGeom::rotate) */
    double *fs = I->fs, axis[3], c[3];
    cross(I->n, n, axis);
    cross(fs, axis, c);
    for (int j = 0; j < 3; j++) {
        fs[j] -= c[j];
    }
    double spin = 0.5 * dt * (dot(n, wa) + dot(n, wb));
    double twist[3] = {spin * n[0], spin * n[1], spin * n[2]};
    cross(fs, twist, c);
    for (int j = 0; j < 3; j++) {
        fs[j] -= c[j];
    }
    /* relative velocity at the contact (Yade's form that avoids granular ratcheting) */
    const double *va = d->vel + 3 * a, *vb = d->vel + 3 * b;
    double gap = ra + rb - un;  /* the centres' distance; 0 for concentric spheres */
    double alpha = d->kind[a] == IMP_DEM_SPHERE && gap > 0.0 ? (ra + rb) / gap : 1.0;
    double arm_a[3] = {ra * n[0], ra * n[1], ra * n[2]};
    double arm_b[3] = {-rb * n[0], -rb * n[1], -rb * n[2]};
    double ca[3], cb[3], vr[3];
    cross(wa, arm_a, ca);
    cross(wb, arm_b, cb);
    if (d->kind[a] != IMP_DEM_SPHERE) {
        ca[0] = ca[1] = ca[2] = 0.0;  /* walls and facets do not spin */
    }
    for (int j = 0; j < 3; j++) {
        vr[j] = (vb[j] - va[j]) * alpha + cb[j] - ca[j];
    }
    double vn = dot(vr, n);
    double fn;
    if (d->p.law == IMP_DEM_LAW_HERTZ) {
        double s = sqrt(un);
        fn = I->kn0 * un * s;
        I->kn = 1.5 * I->kn0 * s;
        I->ks = I->ks0 * s;
        if (I->cn0 > 0.0) {  /* viscous normal damping against the normal relative velocity */
            double dv[3] = {vb[0] - va[0], vb[1] - va[1], vb[2] - va[2]};
            fn -= I->cn0 * sqrt(s) * dot(dv, n);
        }
    } else {
        fn = I->kn * un;
    }
    for (int j = 0; j < 3; j++) {
        fs[j] -= I->ks * (vr[j] - vn * n[j]) * dt;
    }
    /* keep the shear force tangent (the rotation above is first order) */
    double fsn = dot(fs, n);
    for (int j = 0; j < 3; j++) {
        fs[j] -= fsn * n[j];
    }
    double fs2 = dot(fs, fs), cap = I->mu * (fn > 0.0 ? fn : 0.0);
    out[8] = 0.0;
    if (fs2 > cap * cap) {  /* Coulomb: slide; the work of the cut force is dissipated */
        double l = sqrt(fs2), scale = cap / l;
        if (I->ks > 0.0) {
            out[8] = (l - cap) * cap / I->ks;
        }
        for (int j = 0; j < 3; j++) {
            fs[j] *= scale;
        }
    }
    I->un = un;
    I->fn = fn;
    I->n[0] = n[0], I->n[1] = n[1], I->n[2] = n[2];
    /* force on b: fn n + fs; on a: the opposite; torques about each centre from the
       contact point (the middle of the overlap) */
    double *F = out, *nf = out + 3;
    for (int j = 0; j < 3; j++) {
        F[j] = fn * n[j] + fs[j];
    }
    cross(n, F, nf);
    out[6] = ra - 0.5 * un;
    out[7] = rb - 0.5 * un;
    return flags | DONE_FORCE;
}

/* Two passes: every interaction on its own (in parallel under OpenMP), then, in interaction
   order, the erase requests and the sums of forces and torques on the particles, so the
   result does not depend on the number of threads. O(interactions). */
int imp_dem_interactions(imp_dem *d, double dt)
{
    const double f = d->p.interaction_radius;
    const int ss = d->p.geometry & IMP_DEM_GEOM_SPHERE_SPHERE;
    const int ws = d->p.geometry & IMP_DEM_GEOM_WALL_SPHERE;
    const int m = d->ninter;
    unsigned char *done = d->done;
    double *scratch = d->scratch;
#ifdef _OPENMP
    _Pragma("omp parallel for schedule(static, 256)")
#endif
    for (int k = 0; k < m; k++) {
        int *h = d->hot + 3 * k;
        done[k] = 0;
        if (!h[2]) {  /* potential: out of reach? (the geometry functors' test, on the hot copy) */
            int a = h[0], b = h[1];
            const double *xa = d->pos + 3 * a, *xb = d->pos + 3 * b;
            double dx[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
            if (d->kind[a] == IMP_DEM_SPHERE) {
                double reach = f * (d->radius[a] + d->radius[b]);
                if (!ss || dot(dx, dx) > reach * reach) {
                    continue;
                }
            } else if (d->kind[a] == IMP_DEM_WALL
                       && (!ws || dot(d->wall_n + 3 * a, dx) > f * d->radius[b])) {
                continue;
            }
        }
        done[k] = (unsigned char)one(d, &d->inter[k], h, dt, scratch + SCRATCH * (size_t)k);
    }
    double plastic = 0.0;
    for (int k = 0; k < m; k++) {
        int flags = done[k];
        if (flags == 0) {
            continue;
        }
        d->npending -= (flags & DONE_UNPEND) != 0;
        if (flags & DONE_ERASE) {
            imp_dem_request_erase(d, k);
            continue;
        }
        if (!(flags & DONE_FORCE)) {
            continue;
        }
        const double *o = scratch + SCRATCH * (size_t)k;
        int a = d->inter[k].a, b = d->inter[k].b;
        double la = o[6], lb = o[7];
        for (int j = 0; j < 3; j++) {
            d->force[3 * b + j] += o[j];
            d->force[3 * a + j] -= o[j];
            d->torque[3 * b + j] -= lb * o[3 + j];   /* (-lb n) x F */
            d->torque[3 * a + j] -= la * o[3 + j];   /* (la n) x (-F) */
        }
        plastic += o[8];
    }
    if (d->p.track_energy) {
        d->energy.plastic += plastic;
    }
    return 0;
}
