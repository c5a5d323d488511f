/* dem_collide.c: the collider engine: boxes of the particles into the dem's broad phase
   (dem_bins.h: the pairs of overlapping boxes inflated by a verlet distance, as Yade's
   InsertionSortCollider finds them, by LIGGGHTS' bins), then the collider's part of the
   interaction lifecycle (Yade's "Sanitizing contact logic"):
     1. erase the interactions whose erase was requested, unless their boxes still overlap (they
        stay potential: a run only reports pairs whose boxes begin to overlap, so erasing them
        would lose the pair until the boxes separate and meet again);
     2. update the broad phase;
     3. pairs whose boxes stopped overlapping: erase the potential interactions (a real one is
        never erased by the collider: only its law ends it);
     4. pairs whose boxes began to overlap: create potential interactions.
   Cost: O(n + pairs) per run, plus O(pending). A run in which every sphere's box still lies
   inside its inflated copy would change nothing: one pass over the spheres tells, and the
   boxes and the broad phase are then skipped. A run inflates every box again (as Yade's
   verletDist and LIGGGHTS' neighbour skin do), so the next run is due only when some sphere
   moved the verlet distance: in a settling pile, a run every 10 steps or so instead of one at
   every step (each sphere's box refreshed on its own left the boxes out of phase, so some
   sphere left its box at almost every step; 24 % fewer instructions per step at N = 10,000 in
   the contact phase). */
#include <math.h>
#include <stdio.h>

#include "dem.h"
#include "dem_bins.h"
#include "dem_law.h"

#ifdef _OPENMP
#include <omp.h>
#endif

#if defined(IMP_DEM_HAVE_AVX2) && !defined(IMPACT_NO_SIMD)
#define HAVE_BOX_AVX2 1
#include "avx2.h"
#else
#define HAVE_BOX_AVX2 0
#endif

/* The collider's boxes: a sphere's is its centre +- f r (f: the interaction-radius factor); a
   wall's the half-space behind it, bounded on one axis when its normal is along an axis, else
   all space; a facet's the triangle's. Returns the smallest sphere radius (for a verlet
   distance relative to it; INFINITY without spheres): one pass over the particles. */
static double boxes(imp_dem *d)
{
    const double f = d->p.interaction_radius;
    const int n = d->n;
    const int *kind = d->kind;
    const double *pos = d->pos, *radius = d->radius;
    double *lo_all = d->lo, *hi_all = d->hi;
    double rmin = INFINITY;
#ifdef _OPENMP /* each particle's box on its own; the smallest radius is the same in any order */
    _Pragma("omp parallel for if (n >= 8192) reduction(min : rmin) schedule(static)")
#endif
    for (int i = 0; i < n; i++) {
        double *lo = lo_all + 3 * i, *hi = hi_all + 3 * i;
        const double *x = pos + 3 * i;
        if (kind[i] == IMP_DEM_SPHERE) {
            double r0 = radius[i], r = f * r0;
            rmin = r0 < rmin ? r0 : rmin;
            double x0 = x[0], x1 = x[1], x2 = x[2];
            lo[0] = x0 - r, lo[1] = x1 - r, lo[2] = x2 - r;
            hi[0] = x0 + r, hi[1] = x1 + r, hi[2] = x2 + r;
            continue;
        }
        if (kind[i] == IMP_DEM_FACET) {  /* the triangle's box */
            const double *v = d->facet_v + 9 * d->facet[i];
            for (int k = 0; k < 3; k++) {
                lo[k] = fmin(v[k], fmin(v[3 + k], v[6 + k]));
                hi[k] = fmax(v[k], fmax(v[3 + k], v[6 + k]));
            }
            continue;
        }
        const double *nw = d->wall_n + 3 * i;
        for (int k = 0; k < 3; k++) {
            lo[k] = -INFINITY;
            hi[k] = INFINITY;
        }
        for (int k = 0; k < 3; k++) {
            int j = (k + 1) % 3, l = (k + 2) % 3;
            if (nw[j] == 0.0 && nw[l] == 0.0) {
                if (nw[k] > 0.0) {
                    hi[k] = x[k];
                } else {
                    lo[k] = x[k];
                }
            }
        }
    }
    return rmin;
}

/* 1 when every sphere of [i0, i1) lies inside its inflated box (boxes_unchanged's test) */
static int box_block_inside(double f, const int *kind, const double *pos, const double *radius,
                            const double *ilo, const double *ihi, int i0, int i1)
{
    int inside = 1;
    for (int i = i0; i < i1; i++) {
        const double *x = pos + 3 * i, *l = ilo + 3 * i, *h = ihi + 3 * i;
        double r = f * radius[i];
        inside &= (kind[i] != IMP_DEM_SPHERE)
                  | ((x[0] - r >= l[0]) & (x[1] - r >= l[1]) & (x[2] - r >= l[2])
                     & (x[0] + r <= h[0]) & (x[1] + r <= h[1]) & (x[2] + r <= h[2]));
    }
    return inside;
}

/* The anchor's margin (boxes_unchanged): a sphere's slack is t (1 - 2^-40) - sqrt(q), t = R - f r
   and q = |x - c|^2 as imp_dem_ball_inside rounds them; a sphere inside then moved by at most
   its slack is still inside by that test: |x - c| <= sqrt(q) (1 + 5u) (u = 2^-53: the
   differences, squares, sums and square root rounded), so the distance after the move is at
   most t (1 - 2^-40 + 8u) <= t (1 - 3u), whose square as the test rounds it stays below t t
   as rounded. */
#define ANCHOR_SHRINK (1.0 - 0x1p-40)

/* 1 when every sphere of [i0, i1) lies inside its inflated ball (the bins' test when they pair
   the spheres by distance, dem_bins.h: centres c and reaches R of the last run); the spheres'
   smallest slack (above) into *slack and largest |x|^2 into *x2 (their values there kept when
   smaller, larger; of use only when every sphere is inside) */
static int ball_block_inside(double f, const int *kind, const double *pos, const double *radius,
                             const double *c, const double *R, int i0, int i1, double *slack,
                             double *x2)
{
    int inside = 1;
    double s = *slack, m = *x2;
    for (int i = i0; i < i1; i++) {
        if (kind[i] != IMP_DEM_SPHERE) {
            continue;
        }
        const double *x = pos + 3 * i, *ci = c + 3 * i;
        double t = R[i] - f * radius[i], d0 = x[0] - ci[0], d1 = x[1] - ci[1], d2 = x[2] - ci[2];
        double q = d0 * d0 + d1 * d1 + d2 * d2, si = t * ANCHOR_SHRINK - sqrt(q);
        double xx = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
        inside &= imp_dem_ball_inside(x, f * radius[i], ci, R[i]);
        s = si < s ? si : s;
        m = xx > m ? xx : m;
    }
    *slack = s;
    *x2 = m;
    return inside;
}

#if HAVE_BOX_AVX2
/* box_block_inside four spheres at a time: their 12 coordinates as three vectors, each lane
   with its sphere's f r and kind (the same subtraction, addition and ordered comparisons per
   coordinate, so the same answer, NaN included); the last i1 - i0 mod 4 by the portable test */
static AVX2 int box_block_inside_avx2(double f, const int *kind, const double *pos,
                                      const double *radius, const double *ilo,
                                      const double *ihi, int i0, int i1)
{
    const v4 vf = _mm256_set1_pd(f);
    const __m128i sphere = _mm_set1_epi32(IMP_DEM_SPHERE);
    v4 fail = _mm256_setzero_pd();
    int i = i0;
    for (; i + 4 <= i1; i += 4) {
        const v4 r = mul(vf, _mm256_loadu_pd(radius + i));
        const v4 s = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(
            _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(const void *)(kind + i)), sphere)));
        /* lanes: {x0 y0 z0 x1}, {y1 z1 x2 y2}, {z2 x3 y3 z3} */
        const v4 rk[3] = {_mm256_permute4x64_pd(r, 0x40), _mm256_permute4x64_pd(r, 0xa5),
                          _mm256_permute4x64_pd(r, 0xfe)};
        const v4 sk[3] = {_mm256_permute4x64_pd(s, 0x40), _mm256_permute4x64_pd(s, 0xa5),
                          _mm256_permute4x64_pd(s, 0xfe)};
        for (int k = 0; k < 3; k++) {
            const size_t o = 3 * (size_t)i + 4 * (size_t)k;
            const v4 x = _mm256_loadu_pd(pos + o);
            const v4 ok = _mm256_and_pd(
                _mm256_cmp_pd(sub(x, rk[k]), _mm256_loadu_pd(ilo + o), _CMP_GE_OQ),
                _mm256_cmp_pd(add(x, rk[k]), _mm256_loadu_pd(ihi + o), _CMP_LE_OQ));
            fail = _mm256_or_pd(fail, _mm256_andnot_pd(ok, sk[k]));
        }
    }
    return _mm256_movemask_pd(fail) == 0
           && box_block_inside(f, kind, pos, radius, ilo, ihi, i, i1);
}

/* the x, y and z of four points stored x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3 (lane moves only) */
static inline AVX2 void deinterleave(v4 a, v4 b, v4 c, v4 *x, v4 *y, v4 *z)
{
    *x = _mm256_permute4x64_pd(_mm256_blend_pd(_mm256_blend_pd(a, c, 0x2), b, 0x4), 0x6c);
    *y = _mm256_permute_pd(_mm256_blend_pd(_mm256_blend_pd(a, b, 0x9), c, 0x4), 0x5);
    *z = _mm256_permute4x64_pd(_mm256_blend_pd(_mm256_blend_pd(a, b, 0x2), c, 0x9), 0xc6);
}

/* ball_block_inside four spheres at a time: the differences and their squares in the stored
   layout, the squares' sum per sphere after a deinterleave, the same operations in the same
   order as imp_dem_ball_inside (so the same answer, NaN included), the slack and |x|^2 as the
   portable code rounds them; the last i1 - i0 mod 4 by the portable test */
static AVX2 int ball_block_inside_avx2(double f, const int *kind, const double *pos,
                                       const double *radius, const double *c, const double *R,
                                       int i0, int i1, double *slack, double *x2)
{
    const v4 vf = _mm256_set1_pd(f);
    const __m128i sphere = _mm_set1_epi32(IMP_DEM_SPHERE);
    v4 fail = _mm256_setzero_pd();
    v4 smin = _mm256_set1_pd(*slack), xmax = _mm256_set1_pd(*x2);
    int i = i0;
    for (; i + 4 <= i1; i += 4) {
        const v4 t = sub(_mm256_loadu_pd(R + i), mul(vf, _mm256_loadu_pd(radius + i)));
        const v4 s = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(
            _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(const void *)(kind + i)), sphere)));
        const size_t o = 3 * (size_t)i;
        v4 sq[3], pp[3], x, y, z;
        for (int k = 0; k < 3; k++) {
            const v4 pk = _mm256_loadu_pd(pos + o + 4 * k);
            const v4 dk = sub(pk, _mm256_loadu_pd(c + o + 4 * k));
            sq[k] = mul(dk, dk);
            pp[k] = mul(pk, pk);
        }
        deinterleave(sq[0], sq[1], sq[2], &x, &y, &z);
        const v4 q = add(add(x, y), z);
        const v4 ok = _mm256_and_pd(_mm256_cmp_pd(t, _mm256_setzero_pd(), _CMP_GE_OQ),
                                    _mm256_cmp_pd(q, mul(t, t), _CMP_LE_OQ));
        fail = _mm256_or_pd(fail, _mm256_andnot_pd(ok, s));
        /* the other lanes (walls, facets) count as +inf slack and 0 reach */
        const v4 si = sub(mul(t, _mm256_set1_pd(ANCHOR_SHRINK)), _mm256_sqrt_pd(q));
        smin = _mm256_min_pd(smin, _mm256_blendv_pd(_mm256_set1_pd(INFINITY), si, s));
        deinterleave(pp[0], pp[1], pp[2], &x, &y, &z);
        xmax = _mm256_max_pd(xmax, _mm256_and_pd(add(add(x, y), z), s));
    }
    double sl[4], xl[4];
    _mm256_storeu_pd(sl, smin);
    _mm256_storeu_pd(xl, xmax);
    for (int k = 0; k < 4; k++) {
        *slack = sl[k] < *slack ? sl[k] : *slack;
        *x2 = xl[k] > *x2 ? xl[k] : *x2;
    }
    return _mm256_movemask_pd(fail) == 0
           && ball_block_inside(f, kind, pos, radius, c, R, i, i1, slack, x2);
}
#endif

/* box_block_inside, with AVX2 when simd (the law's choice, dem_law.c); ball_block_inside when
   balls, with the centres and reaches of the last run in place of ilo and ihi (and its slack
   and |x|^2) */
static int box_inside(int simd, int balls, double f, const int *kind, const double *pos,
                      const double *radius, const double *ilo, const double *ihi, int i0, int i1,
                      double *slack, double *x2)
{
#if HAVE_BOX_AVX2
    if (simd) {
        if (balls) {
            return ball_block_inside_avx2(f, kind, pos, radius, ilo, ihi, i0, i1, slack, x2);
        }
        return box_block_inside_avx2(f, kind, pos, radius, ilo, ihi, i0, i1);
    }
#else
    (void)simd;
#endif
    if (balls) {
        return ball_block_inside(f, kind, pos, radius, ilo, ihi, i0, i1, slack, x2);
    }
    return box_block_inside(f, kind, pos, radius, ilo, ihi, i0, i1);
}

/* Whether a run would change nothing: no reload or rebuild since the boxes were last made, the
   same interaction-radius factor, and every sphere's box, made as boxes() makes it, inside its
   inflated copy, or, when the bins pair the spheres by distance, every sphere inside its
   inflated ball (the broad phase's own test; a NaN fails it). Walls and facets are fixed: only
   a reload moves them. O(n), in blocks without a branch per sphere; O(1) with balls while the
   travel bound (dem.h) stays within the last anchor's slack: every sphere is then inside (the
   test would pass, ANCHOR_SHRINK). A passing test with balls is the new anchor. */
static int boxes_unchanged(imp_dem *d)
{
    const double *ilo, *ihi;
    const double f = d->p.interaction_radius;
    if (d->boxes_stale || d->bp == NULL || f != d->box_f
        || imp_dem_bins_inflated(d->bp, &ilo, &ihi) != d->n) {
        return 0;
    }
    const int n = d->n, *kind = d->kind;
    const double *pos = d->pos, *radius = d->radius;
    const double *centre, *reach;
    const int simd = HAVE_BOX_AVX2 && imp_dem_law_simd();
    const int balls = imp_dem_bins_balls(d->bp, &centre, &reach);
    if (balls) {
        if (d->travel <= d->slack) {
            return 1;
        }
        ilo = centre, ihi = reach;
    }
    double slack = INFINITY, x2 = 0.0;  /* over the spheres: the smallest slack, largest |x|^2 */
    int all = 1;
#ifdef _OPENMP
    if (n >= 8192 && omp_get_max_threads() > 1 && !omp_in_parallel()) {
        /* over the threads, every block (no early exit): an and of integers, a min and a max,
           in any order */
        const int nblocks = (n + 63) / 64;
        _Pragma("omp parallel for reduction(& : all) reduction(min : slack) reduction(max : x2) schedule(static)")
        for (int b = 0; b < nblocks; b++) {
            int i0 = 64 * b, i1 = i0 + 64 < n ? i0 + 64 : n;
            all &= box_inside(simd, balls, f, kind, pos, radius, ilo, ihi, i0, i1, &slack, &x2);
        }
    } else
#endif
    {
        for (int i0 = 0; i0 < n && all; i0 += 64) {
            all = box_inside(simd, balls, f, kind, pos, radius, ilo, ihi, i0,
                             i0 + 64 < n ? i0 + 64 : n, &slack, &x2);
        }
    }
    if (all && balls) {  /* the anchor (a slack so small that t t could underflow: none) */
        d->slack = slack >= 0x1p-500 ? slack : -1.0;
        d->xreach = sqrt(x2) * (1.0 + 0x1p-40);
        d->travel = 0.0;
    }
    return all;
}

static double verlet_distance(const imp_dem *d, double rmin)
{
    return d->p.verlet >= 0.0 ? d->p.verlet : (isfinite(rmin) ? -d->p.verlet * rmin : 0.0);
}

/* a pending interaction: erased (left as a hole when holes: the run's merge drops it), or
   kept potential while the boxes still overlap */
static void settle_pending(imp_dem *d, int k, int have_sweep, int holes)
{
    imp_dem_inter *I = &d->inter[k];
    int a = I->a < I->b ? I->a : I->b, b = I->a < I->b ? I->b : I->a;
    if (have_sweep && imp_dem_bins_has_pair(d->bp, a, b)) {
        I->pending = 0;  /* stays potential */
        d->npending--;
    } else if (holes) {
        imp_dem_erase_hole(d, k);
    } else {
        imp_dem_erase(d, k);
    }
}

int imp_dem_collide(imp_dem *d)
{
    imp_dem_filter_update(d);
    if (d->cell.on) {
        return imp_dem_cell_collide(d);
    }
    int skip = boxes_unchanged(d) && verlet_distance(d, d->box_rmin) == d->bp_verlet;
    double rmin = skip ? d->box_rmin : boxes(d);
    double v = verlet_distance(d, rmin);
    if (d->bp != NULL && v != d->bp_verlet) {
        imp_dem_bins_free(d->bp);
        d->bp = NULL;
    }
    if (d->bp == NULL) {
        if ((d->bp = imp_dem_bins_new(v)) == NULL) {
            snprintf(d->error, sizeof d->error, "out of memory in the collider");
            return -1;
        }
        d->bp_verlet = v;
    }
    /* 1. pending erasures: from the list of requested pairs (O(requests)), or by a scan of
       every interaction when the list is incomplete; backwards, since erasing moves the last
       interaction into k. A run that sweeps leaves holes instead, which step 5 drops: the
       interactions then keep their order, and the new ones are merged into it; one that skips
       moves the last one into the hole, as before (its order is the law's next one) */
    int have_sweep = imp_dem_bins_pair_count(d->bp) > 0;
    if (d->pend_scan) {
        for (int k = d->ninter - 1; k >= 0; k--) {
            if (d->inter[k].pending) {
                settle_pending(d, k, have_sweep, !skip);
            }
        }
        d->pend_scan = 0;
    } else {
        for (int e = 0; e < d->pend_n; e++) {
            int k = imp_dem_find(d, d->pend[2 * e], d->pend[2 * e + 1]);
            if (k >= 0 && d->inter[k].pending) {
                settle_pending(d, k, have_sweep, !skip);
            }
        }
    }
    d->pend_n = 0;
    if (skip) {
        return 0;  /* the sweep would have no events */
    }
    /* 2. the sweep (the travel bound's anchor is the next passing test's) */
    d->travel = INFINITY;
    const imp_dem_balls balls = {d->pos, d->radius, d->p.interaction_radius, d->kind, IMP_DEM_SPHERE,
                                 HAVE_BOX_AVX2 && imp_dem_law_simd()};
    if (imp_dem_bins_update_balls(d->bp, d->n, d->lo, d->hi, &balls) != 0) {
        snprintf(d->error, sizeof d->error, "the collider failed (out of memory or a NaN box)");
        (void)imp_dem_order_merge(d, d->ninter);  /* the holes dropped, whatever it returns */
        return -1;
    }
    d->boxes_stale = 0;
    d->box_f = d->p.interaction_radius;
    d->box_rmin = rmin;
    d->collider_runs++;
    /* 3. ended pairs */
    int count = 0;
    const int *ends = imp_dem_bins_ends(d->bp, &count);
    for (int e = 0; e < count; e++) {
        int k = imp_dem_find(d, ends[2 * e], ends[2 * e + 1]);
        if (k >= 0 && !d->inter[k].real) {
            imp_dem_erase_hole(d, k);
        }
    }
    const int m0 = d->ninter;  /* the interactions before this run's new ones (and holes) */
    /* 4. begun pairs */
    const int *begins = imp_dem_bins_begins(d->bp, &count);
    for (int e = 0; e < count; e++) {
        int a = begins[2 * e], b = begins[2 * e + 1];
        if ((d->kind[a] != IMP_DEM_SPHERE && d->kind[b] != IMP_DEM_SPHERE)
            || imp_dem_same_clump(d, a, b) || !imp_dem_filter_allows(d, a, b)) {
            continue;  /* walls and facets do not interact, nor members of one clump */
        }
        if (imp_dem_find(d, a, b) < 0 && imp_dem_add_potential(d, a, b) < 0) {
            snprintf(d->error, sizeof d->error, "out of memory for the interactions");
            (void)imp_dem_order_merge(d, d->ninter);
            return -1;
        }
    }
    /* 5. the interactions in the order of their particles, the holes dropped (dem_order.c) */
    if (imp_dem_order_merge(d, m0) < 0) {
        snprintf(d->error, sizeof d->error, "out of memory for the interactions' order");
        return -1;
    }
    return 0;
}
