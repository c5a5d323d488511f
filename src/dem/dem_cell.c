/* dem_cell.c: the periodic cell of the dem strategy (Yade's O.periodic, O.cell): its shape H
   (hSize, base vectors as columns) and velocity gradient L, the periodic collider and Newton's
   periodic parts.

   Interactions across the faces: an interaction a-b carries the integer shift S of b's image
   (Yade's cellDist): the branch vector is x_b + H S - x_a, and the relative velocity of the two
   gets the affine part L H S (the image moves with the deforming cell). The geometry functors
   and the laws (dem_law.c) and the stress (dem_measure.c) read them from imp_dem_cell_offset.

   Homogeneous deformation: dH/dt = L H (first order per step, Yade's cell integration), and
   the particles carry the affine field: the total velocity v (what a body's velocity reads) is
   v' + L x, v' the fluctuation, which Newton integrates and damps (Cundall's damping would
   otherwise brake the imposed deformation). One step: v' = v - L x, x += dt L x (the affine
   displacement), Newton (v' += dt a, x += dt v'), H += dt L H, x wrapped into the cell,
   v = v' + L x. A particle with v' = 0 keeps its fractional coordinates H^-1 x.

   The collider: a grid of bins in fractional coordinates, rebuilt every run, each bin at least
   the largest interaction distance wide; pairs of neighbouring bins (wrapped) tested for the
   distance of the nearest image (for a sheared cell, the nearest of the 27 around the rounded
   fractional difference). One image per pair needs every interaction distance below half the
   cell's thinnest width: larger particles are refused. O(n) per run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dem.h"
#include "resize.h"

static int inverse(const double *m, double *out)
{
    double c00 = m[4] * m[8] - m[5] * m[7], c01 = m[5] * m[6] - m[3] * m[8];
    double c02 = m[3] * m[7] - m[4] * m[6];
    double det = m[0] * c00 + m[1] * c01 + m[2] * c02;
    if (!(fabs(det) > 0.0) || !isfinite(det)) {
        return -1;
    }
    double id = 1.0 / det;
    out[0] = c00 * id;
    out[1] = (m[2] * m[7] - m[1] * m[8]) * id;
    out[2] = (m[1] * m[5] - m[2] * m[4]) * id;
    out[3] = c01 * id;
    out[4] = (m[0] * m[8] - m[2] * m[6]) * id;
    out[5] = (m[2] * m[3] - m[0] * m[5]) * id;
    out[6] = c02 * id;
    out[7] = (m[1] * m[6] - m[0] * m[7]) * id;
    out[8] = (m[0] * m[4] - m[1] * m[3]) * id;
    return det > 0.0 ? 0 : -1;
}

static void mul(const double *m, const double *x, double *y)
{
    y[0] = m[0] * x[0] + m[1] * x[1] + m[2] * x[2];
    y[1] = m[3] * x[0] + m[4] * x[1] + m[5] * x[2];
    y[2] = m[6] * x[0] + m[7] * x[1] + m[8] * x[2];
}

/* the width of the cell across its faces k (the distance between the planes s_k = 0 and 1) */
static double width(const double *hinv, int k)
{
    const double *r = hinv + 3 * k;
    return 1.0 / sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
}

/* Only spheres, and none whose interaction distance 2 f r reaches half the cell's thinnest
   width (then a pair could touch through two images); their largest and smallest radii and the
   width. 0, or -1 (d->error). */
static int check(imp_dem *d, const double *hinv, double *rmax, double *rmin, double *wmin)
{
    const double f = d->p.interaction_radius;
    *rmax = 0.0, *rmin = INFINITY, *wmin = INFINITY;
    for (int i = 0; i < d->n; i++) {
        if (d->kind[i] != IMP_DEM_SPHERE || d->clump_of[i] >= 0) {
            snprintf(d->error, sizeof d->error,
                     "a periodic cell holds free spheres only (body %d is a %s)", d->slot[i],
                     d->kind[i] == IMP_DEM_WALL    ? "wall"
                     : d->kind[i] == IMP_DEM_FACET ? "facet"
                                                   : "clump");
            return -1;
        }
        *rmax = d->radius[i] > *rmax ? d->radius[i] : *rmax;
        *rmin = d->radius[i] < *rmin ? d->radius[i] : *rmin;
    }
    for (int k = 0; k < 3; k++) {
        *wmin = fmin(*wmin, width(hinv, k));
    }
    if (d->n > 0 && !(2.0 * f * *rmax < 0.5 * *wmin)) {
        snprintf(d->error, sizeof d->error,
                 "a sphere of diameter %g (interaction distance %g) is not smaller than half the "
                 "periodic cell's thinnest width %g", 2.0 * *rmax, 2.0 * f * *rmax, *wmin);
        return -1;
    }
    return 0;
}

int imp_dem_cell_set(imp_dem *d, const double h[9], const double L[9])
{
    double hinv[9];
    for (int k = 0; k < 9; k++) {
        if (!isfinite(h[k]) || !isfinite(L[k])) {
            snprintf(d->error, sizeof d->error, "the cell's %s has a non-finite entry",
                     isfinite(h[k]) ? "velocity gradient" : "hSize");
            return -1;
        }
    }
    if (inverse(h, hinv) != 0) {
        snprintf(d->error, sizeof d->error,
                 "the cell's hSize must have a positive determinant (base vectors right-handed)");
        return -1;
    }
    double rmax, rmin, wmin;
    if (check(d, hinv, &rmax, &rmin, &wmin) != 0) {
        return -1;
    }
    int was = d->cell.on;
    /* the fluctuation velocities v - L x are kept: the total ones take the change of the field */
    double dL[9];
    for (int k = 0; k < 9; k++) {
        dL[k] = L[k] - (was ? d->cell.L[k] : 0.0);
    }
    for (int i = 0; i < d->n; i++) {
        if (!d->fixed[i]) {
            double a[3];
            mul(dL, d->pos + 3 * i, a);
            d->vel[3 * i] += a[0], d->vel[3 * i + 1] += a[1], d->vel[3 * i + 2] += a[2];
        }
    }
    memcpy(d->cell.h, h, sizeof d->cell.h);
    memcpy(d->cell.hinv, hinv, sizeof d->cell.hinv);
    memcpy(d->cell.L, L, sizeof d->cell.L);
    if (!was) {
        memcpy(d->cell.h0, h, sizeof d->cell.h0);
    }
    d->cell.on = 1;
    for (int k = 0; k < d->ninter; k++) {
        if (!was) {
            d->inter[k].cell[0] = d->inter[k].cell[1] = d->inter[k].cell[2] = 0;
        }
    }
    if (!was) {
        d->cell.anchor_n = 0;  /* a new cell: the collider runs (a changed H: its skip test) */
    }
    return 0;
}

void imp_dem_cell_clear(imp_dem *d)
{
    d->cell.on = 0;
    for (int k = 0; k < d->ninter; k++) {
        d->inter[k].cell[0] = d->inter[k].cell[1] = d->inter[k].cell[2] = 0;
    }
    d->cell.anchor_n = 0;
    d->boxes_stale = 1;
}

void imp_dem_cell_free(imp_dem *d)
{
    free(d->cell.wrap);
    free(d->cell.bin_start);
    free(d->cell.bin_list);
    free(d->cell.anchor_u);
}

void imp_dem_cell_offset(const imp_dem *d, const imp_dem_inter *I, double o[3], double vo[3])
{
    const double s[3] = {(double)I->cell[0], (double)I->cell[1], (double)I->cell[2]};
    mul(d->cell.h, s, o);
    if (vo != NULL) {
        mul(d->cell.L, o, vo);
    }
}

static int grow(int **p, int *cap, int n) { return imp_grow(p, cap, n, sizeof **p); }

/* the shift S putting b's image nearest to a; its squared distance */
static double nearest(const imp_dem *d, int a, int b, int sheared, int S[3])
{
    const imp_dem_cell *c = &d->cell;
    const double *xa = d->pos + 3 * a, *xb = d->pos + 3 * b;
    double dx[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]}, u[3];
    mul(c->hinv, dx, u);
    int s0[3];
    for (int k = 0; k < 3; k++) {
        s0[k] = -(int)lround(u[k]);
    }
    double best = INFINITY;
    int lo = sheared ? -1 : 0, hi = sheared ? 1 : 0;
    for (int i = lo; i <= hi; i++) {
        for (int j = lo; j <= hi; j++) {
            for (int l = lo; l <= hi; l++) {
                double s[3] = {s0[0] + i, s0[1] + j, s0[2] + l}, o[3];
                mul(c->h, s, o);
                const double e[3] = {dx[0] + o[0], dx[1] + o[1], dx[2] + o[2]};
                double d2 = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
                if (d2 < best) {
                    best = d2;
                    S[0] = (int)s[0], S[1] = (int)s[1], S[2] = (int)s[2];
                }
            }
        }
    }
    return best;
}

/* the pair a < b found within reach this run: its interaction seen (a potential one takes the
   shift), or created potential with it */
static int found(imp_dem *d, int a, int b, const int S[3])
{
    int k = imp_dem_find(d, a, b);
    if (k < 0 && !imp_dem_filter_allows(d, a, b)) {
        return 0;  /* the collision filters forbid it (dem_filter.c) */
    }
    if (k < 0 && (k = imp_dem_add_potential(d, a, b)) < 0) {
        snprintf(d->error, sizeof d->error, "out of memory for the interactions");
        return -1;
    }
    imp_dem_inter *I = &d->inter[k];
    I->seen = 1;
    if (!I->real) {  /* the shift from a to b's image; the pair's a may be our b */
        int sg = I->a == a ? 1 : -1;
        I->cell[0] = sg * S[0], I->cell[1] = sg * S[1], I->cell[2] = sg * S[2];
    }
    return 0;
}

/* Whether the last run's pairs still hold (Yade's verletDist, LIGGGHTS' skin, for a deforming
   cell): a pair not found then was farther than f (ra + rb) + v for every image e; now each
   image's branch vector is e' = H' (H^-1 e + du_b - du_a), du a particle's move in fractional
   coordinates since the run (its wraps, whole cells, taken off), so |e'| >= |e| (1 - eps) -
   |H' du_a| - |H' du_b| with eps = |(H' - H) H^-1| (Frobenius), and it cannot reach
   f (ra + rb) while 2 max |H' du| + eps reach < v (reach = 2 f rmax + v, the largest |e| that
   matters, at most half the cell's thinnest width). The potential interactions found then keep
   their image: no other image comes within reach. Not after an edit or a reload
   (boxes_stale), nor when the particles, f or v changed. O(n). */
static int run_still_holds(const imp_dem *d, double v, double reach)
{
    const imp_dem_cell *c = &d->cell;
    if (d->boxes_stale || c->anchor_n != d->n || !(v > 0.0) || v != c->verlet_run
        || reach != c->reach_run) {
        return 0;
    }
    double dh[9], eps2 = 0.0;
    for (int r = 0; r < 3; r++) {
        for (int k = 0; k < 3; k++) {
            dh[3 * r + k] = c->h[3 * r + k] - c->h_run[3 * r + k];
        }
    }
    for (int r = 0; r < 3; r++) {
        for (int k = 0; k < 3; k++) {
            double e = dh[3 * r] * c->hinv_run[k] + dh[3 * r + 1] * c->hinv_run[3 + k]
                       + dh[3 * r + 2] * c->hinv_run[6 + k];
            eps2 += e * e;
        }
    }
    double budget = v - sqrt(eps2) * reach;  /* for 2 max |H' du| */
    if (!(budget > 0.0)) {
        return 0;
    }
    double lim2 = 0.25 * budget * budget;
    for (int i = 0; i < d->n; i++) {
        double u[3], du[3], x[3];
        mul(c->hinv, d->pos + 3 * i, u);
        for (int k = 0; k < 3; k++) {
            du[k] = u[k] - c->anchor_u[3 * i + k];
            du[k] -= floor(du[k] + 0.5);
        }
        mul(c->h, du, x);
        if (!(x[0] * x[0] + x[1] * x[1] + x[2] * x[2] < lim2)) {
            return 0;
        }
    }
    return 1;
}

int imp_dem_cell_collide(imp_dem *d)
{
    imp_dem_cell *c = &d->cell;
    const int n = d->n;
    const double f = d->p.interaction_radius;
    double rmax, rmin, wmin;
    if (check(d, c->hinv, &rmax, &rmin, &wmin) != 0) {
        return -1;
    }
    double v = d->p.verlet >= 0.0 ? d->p.verlet : (n > 0 ? -d->p.verlet * rmin : 0.0);
    double reach = 2.0 * f * rmax + v;
    reach = fmin(reach, 0.5 * wmin);
    if (run_still_holds(d, v, reach)) {
        return 0;  /* pending erasures wait for the next run, which settles them */
    }
    int nb[3], nbins = 1;
    for (int k = 0; k < 3; k++) {
        double m = floor(width(c->hinv, k) / reach);
        nb[k] = m < 1.0 ? 1 : m > 64.0 ? 64 : (int)m;
        nbins *= nb[k];
    }
    /* bins: of each particle its 3 indices and its number (4 per particle, in the wrap
       scratch, which Newton overwrites later), then the particles sorted by bin */
    if (grow(&c->bin_start, &c->bin_cap, nbins + 1) != 0 || grow(&c->bin_list, &c->list_cap, n) != 0
        || grow(&c->wrap, &c->wrap_cap, 4 * n) != 0) {
        snprintf(d->error, sizeof d->error, "out of memory in the periodic collider");
        return -1;
    }
    int *bin_of = c->wrap;
    memset(c->bin_start, 0, (size_t)(nbins + 1) * sizeof *c->bin_start);
    for (int i = 0; i < n; i++) {
        double u[3];
        mul(c->hinv, d->pos + 3 * i, u);
        int *bo = bin_of + 4 * i;
        for (int k = 0; k < 3; k++) {
            double s = u[k] - floor(u[k]);
            int b = (int)(s * nb[k]);
            bo[k] = b < 0 ? 0 : b >= nb[k] ? nb[k] - 1 : b;
        }
        bo[3] = (bo[0] * nb[1] + bo[1]) * nb[2] + bo[2];
        c->bin_start[bo[3] + 1]++;
    }
    for (int b = 0; b < nbins; b++) {
        c->bin_start[b + 1] += c->bin_start[b];
    }
    for (int i = 0; i < n; i++) {  /* counting sort, in particle order within a bin */
        c->bin_list[c->bin_start[bin_of[4 * i + 3]]++] = i;
    }
    for (int b = nbins; b > 0; b--) {
        c->bin_start[b] = c->bin_start[b - 1];
    }
    c->bin_start[0] = 0;
    c->run++;
    const int sheared = c->h[1] != 0.0 || c->h[2] != 0.0 || c->h[3] != 0.0 || c->h[5] != 0.0
                        || c->h[6] != 0.0 || c->h[7] != 0.0;
    for (int i = 0; i < n; i++) {
        const int *bo = bin_of + 4 * i;
        int off[3][3], cnt[3];  /* the distinct neighbouring bins along each axis */
        for (int k = 0; k < 3; k++) {
            cnt[k] = 0;
            for (int e = -1; e <= 1; e++) {
                int b = ((bo[k] + e) % nb[k] + nb[k]) % nb[k], dup = 0;
                for (int q = 0; q < cnt[k]; q++) {
                    dup |= off[k][q] == b;
                }
                if (!dup) {
                    off[k][cnt[k]++] = b;
                }
            }
        }
        for (int p = 0; p < cnt[0]; p++) {
            for (int q = 0; q < cnt[1]; q++) {
                for (int r = 0; r < cnt[2]; r++) {
                    int b = (off[0][p] * nb[1] + off[1][q]) * nb[2] + off[2][r];
                    for (int t = c->bin_start[b]; t < c->bin_start[b + 1]; t++) {
                        int j = c->bin_list[t], S[3] = {0, 0, 0};
                        if (j <= i) {
                            continue;
                        }
                        double lim = f * (d->radius[i] + d->radius[j]) + v;
                        if (nearest(d, i, j, sheared, S) <= lim * lim && found(d, i, j, S) != 0) {
                            for (int k = 0; k < d->ninter; k++) {
                                d->inter[k].seen = 0;  /* the next run starts clear */
                            }
                            return -1;
                        }
                    }
                }
            }
        }
    }
    /* potential interactions not found (pending ones included) are erased; pending ones found
       stay potential; the others' seen flags cleared */
    for (int k = d->ninter - 1; k >= 0; k--) {
        imp_dem_inter *I = &d->inter[k];
        if (!I->seen && !I->real) {
            imp_dem_erase(d, k);  /* moves the last one, already done, to k */
            continue;
        }
        if (I->pending && !I->real) {
            I->pending = 0;
            d->npending--;
        }
        I->seen = 0;  /* for the next run */
    }
    d->pend_n = 0;
    d->pend_scan = 0;
    /* the anchor of the Verlet skip (run_still_holds); boxes_stale, set by every edit, reload
       and cell change, and by imp_dem_cell_clear for the collider without a cell */
    c->anchor_n = 0;
    if (v > 0.0 && imp_grow(&c->anchor_u, &c->anchor_cap, 3 * n, sizeof *c->anchor_u) == 0) {
        for (int i = 0; i < n; i++) {
            mul(c->hinv, d->pos + 3 * i, c->anchor_u + 3 * i);
        }
        memcpy(c->h_run, c->h, sizeof c->h_run);
        memcpy(c->hinv_run, c->hinv, sizeof c->hinv_run);
        c->reach_run = reach;
        c->verlet_run = v;
        c->anchor_n = n;
    }
    d->boxes_stale = 0;
    d->collider_runs++;
    return 0;
}

void imp_dem_cell_before(imp_dem *d, double dt)
{
    const double *L = d->cell.L;
    for (int i = 0; i < d->n; i++) {
        if (d->fixed[i]) {
            continue;
        }
        double *x = d->pos + 3 * i, *v = d->vel + 3 * i, a[3];
        mul(L, x, a);
        for (int k = 0; k < 3; k++) {
            v[k] -= a[k];
            x[k] += dt * a[k];
        }
    }
}

void imp_dem_cell_after(imp_dem *d, double dt)
{
    imp_dem_cell *c = &d->cell;
    double h[9], hinv[9];
    for (int r = 0; r < 3; r++) {
        for (int k = 0; k < 3; k++) {
            const double *l = c->L + 3 * r;
            h[3 * r + k] = c->h[3 * r + k]
                           + dt * (l[0] * c->h[k] + l[1] * c->h[3 + k] + l[2] * c->h[6 + k]);
        }
    }
    if (inverse(h, hinv) == 0) {  /* else the cell collapsed: kept (the collider reports) */
        memcpy(c->h, h, sizeof h);
        memcpy(c->hinv, hinv, sizeof hinv);
    }
    int wrapped = grow(&c->wrap, &c->wrap_cap, 4 * d->n) == 0;  /* else no wrap this step */
    int any = 0;
    for (int i = 0; i < d->n; i++) {
        double *x = d->pos + 3 * i, *v = d->vel + 3 * i;
        if (wrapped) {
            int *wr = c->wrap + 3 * i;
            double u[3];
            if (d->fixed[i]) {  /* stays where the world has it */
                wr[0] = wr[1] = wr[2] = 0;
                continue;
            }
            mul(c->hinv, x, u);
            double s[3];
            for (int k = 0; k < 3; k++) {
                double fl = floor(u[k]);
                wr[k] = isfinite(fl) && fabs(fl) < 1e9 ? (int)fl : 0;
                s[k] = (double)wr[k];
                any |= wr[k];
            }
            if (wr[0] | wr[1] | wr[2]) {
                double o[3];
                mul(c->h, s, o);
                x[0] -= o[0], x[1] -= o[1], x[2] -= o[2];
            }
        }
        if (!d->fixed[i]) {
            double a[3];
            mul(c->L, x, a);
            v[0] += a[0], v[1] += a[1], v[2] += a[2];
        }
    }
    if (any && wrapped) {  /* b's image stays where it was: S += wrap_b - wrap_a */
        for (int k = 0; k < d->ninter; k++) {
            imp_dem_inter *I = &d->inter[k];
            const int *wa = c->wrap + 3 * I->a, *wb = c->wrap + 3 * I->b;
            for (int j = 0; j < 3; j++) {
                I->cell[j] += wb[j] - wa[j];
            }
        }
    }
}
