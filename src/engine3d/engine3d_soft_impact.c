/* engine3d_soft_impact.c: the normal rows of a pair's points solved together in the sub-steps
   of an impact (issue #24). One Gauss-Seidel pass takes one corner's impulse before the
   others', and a body landing flat on four corners leaves its landing sub-step tilted by
   milliradians; solved as one block, the pair's normal impulses are the ones the passes would
   converge to (the same rule row by row: speculative rows close their gap, soft rows reach
   their soft fixed point), symmetric when the landing is, and the passes that follow change
   them by rounding only. */
#include "cholesky.h"
#include "engine3d_soft_internal.h"
#include "resize.h"
#include <math.h>
#include <string.h>

/* the largest manifold solved as a block (the blocks' lanes hold 4) */
enum { IMPACT_POINTS = 8 };

/* a relative regularisation of the block's diagonal: four coplanar points have only three
   independent normal rows (the matrix is singular); with it the solve takes the impulses of
   least norm to about 1e-9, and their part the singular direction carries moves nothing */
static const double REGULAR = 1e-9;

/* the factors kept a candidate (pairs of up to FACTOR_POINTS points) */
enum { FACTORS = 4, FACTOR_POINTS = 4 };

/* A candidate's normal rows' coupling K (np x np used), computed at its first block of the
   step, and the Cholesky factors of the systems its blocks solved this step, up to FACTORS of
   them (a pair of up to FACTOR_POINTS points; key 0: none), the next one replacing slot next.
   A system is (K + D) restricted to the rows in the active set, D_i one of two values a row
   and a step (the softness of a closed row in a solve pass, else the regularisation): its key
   is the set's bits and, above them (<< 8), the soft rows'; K and D are fixed over the step,
   so a key met again is the same matrix and its factor the same bits. */
typedef struct imp_e3_impact_cand {
    double K[IMPACT_POINTS * IMPACT_POINTS];
    double L[FACTORS][FACTOR_POINTS * FACTOR_POINTS];
    unsigned key[FACTORS];
    int next;
} imp_e3_impact_cand;

/* a candidate's cand_rest: 0, listed by its impulse (asked at each pass), REST a resting
   manifold that appears, HIT an approach faster than the threshold this step (its points' uhit
   only fall over the step: the impact pass's first question answers yes all through it), SLOW
   listed by its impulse and answered no at the step's first pass (left to the passes for the
   step: the impulse of a loaded resting contact, not an impact's; off the list after it) */
enum { REST = 1, HIT = 2, SLOW = 3 };

typedef struct row_ref {
    const imp_e3_soft_pt *q; /* the row's geometry and masses (fixed over the step) */
    double *rn, *s, *uhit, *pushed; /* its sub-step state (in a block's lane, its block's
                                      imp_e3_block_hit, or in the row) */
    unsigned char *lanes; /* a block's lane: the block's pushed bits of its point (else NULL) */
    unsigned char bit;    /* the lane's bit there */
} row_ref;

/* velocity()'s u_N alone, by the same operations */
static double normal_velocity(const double *va, const double *vb, const imp_e3_soft_pt *q)
{
    double ca[4], cb[4], d[3];
    cross4(vb + 4, q->rb, cb);
    cross4(va + 4, q->ra, ca);
    for (int k = 0; k < 3; k++) {
        d[k] = ((vb[k] - va[k]) + cb[k]) - ca[k];
    }
    return (d[0] * q->ec[0][0] + d[1] * q->ec[0][1]) + d[2] * q->ec[0][2];
}

/* K_ij = (m_a^-1 + m_b^-1) n_i . n_j + (r_ai x n_i) . I_a^-1 (r_aj x n_j) + the same for b
   (im: m_a^-1 + m_b^-1; Ia, Ib: the padded columns of s->si) into K (np x np). O(np^2). */
static void coupling(const row_ref *r, int np, const double *Ia, const double *Ib, double im, double *K)
{
    double ja[IMPACT_POINTS][3], jb[IMPACT_POINTS][3], ia[IMPACT_POINTS][3], ib[IMPACT_POINTS][3];
    for (int j = 0; j < np; j++) {
        const imp_e3_soft_pt *q = r[j].q;
        double ca[4], cb[4];
        cross4(q->ra, q->ec[0], ca);
        cross4(q->rb, q->ec[0], cb);
        for (int k = 0; k < 3; k++) {
            ja[j][k] = ca[k];
            jb[j][k] = cb[k];
        }
        for (int k = 0; k < 3; k++) {
            ia[j][k] = (ca[0] * Ia[k] + ca[1] * Ia[4 + k]) + ca[2] * Ia[8 + k];
            ib[j][k] = (cb[0] * Ib[k] + cb[1] * Ib[4 + k]) + cb[2] * Ib[8 + k];
        }
    }
    for (int i = 0; i < np; i++) {
        const double *ni = r[i].q->ec[0];
        for (int j = 0; j <= i; j++) {
            const double *nj = r[j].q->ec[0];
            double k = im * ((ni[0] * nj[0] + ni[1] * nj[1]) + ni[2] * nj[2]);
            k += (ja[i][0] * ia[j][0] + ja[i][1] * ia[j][1]) + ja[i][2] * ia[j][2];
            k += (jb[i][0] * ib[j][0] + jb[i][1] * ib[j][1]) + jb[i][2] * ib[j][2];
            K[i * np + j] = K[j * np + i] = k;
        }
    }
}

/* One pair's np normal rows (2 <= np <= IMPACT_POINTS) as one block when it has an impact
   (a point's approach this step faster than the threshold): the changes dx of their impulses
   with (K + D) dx = -(u_N + bias + D rn), K the rows' coupling (the normal velocity of row i
   by a unit impulse at row j), D_i = K_ii (impulse_scale / mass_scale + REGULAR) (0 + REGULAR
   for a speculative or relax row): the fixed point of imp_e3_soft_row's normal rule at every
   row, an impulse that would turn negative set to 0 and the others solved again (at most np
   times). The first push's approach recorded as the rows do (u_N before the block). 1 when
   solved (the pass is then to keep these impulses), else 0 (the pair is left to the passes).
   K is fixed over the step (the rows' geometry, masses and inertias are the step's start's):
   computed at the pair's first solve of the step into Kc (np x np; *ready then 1) and taken
   from there at the others. known: 1 to take the impact as known (a resting manifold that
   appears, or a lane lane_impact answered), else asked here first. O(np^4). */
static int solve_pair(struct imp_e3_soft *sf, const row_ref *r, int np, const imp_e3_softness *soft,
                       const imp_e3_softness *stiff, double hs, double push_max, double threshold,
                       int use_bias, int known, imp_e3_impact_cand *ic, unsigned char *ready)
{
    const imp_e3_soft_pt *q0 = r[0].q;
    double *va = sf->sv + 8 * (size_t)q0->a, *vb = sf->sv + 8 * (size_t)q0->b;
    const double *Ia = sf->si + 12 * (size_t)q0->a, *Ib = sf->si + 12 * (size_t)q0->b;
    double vn[IMPACT_POINTS], c[IMPACT_POINTS], kd[IMPACT_POINTS], u[4];
    /* an impact this step, or an impulse held from one that moves the point faster than the
       threshold (the step after an impact: its warm start); or a manifold that appears */
    int impact = known;
    for (int i = 0; i < np && !impact; i++) {
        impact = *r[i].uhit < -threshold;
        if (!impact && *r[i].rn > threshold * r[i].q->mn) {
            velocity(va, vb, r[i].q, u);
            impact = fabs(u[0]) > threshold;
        }
    }
    if (!impact) {
        return 0;
    }
    for (int i = 0; i < np; i++) {
        vn[i] = normal_velocity(va, vb, r[i].q);
    }
    if (!*ready) {
        coupling(r, np, Ia, Ib, q0->ima + q0->imb, ic->K);
        memset(ic->key, 0, sizeof ic->key);
        ic->next = 0;
        *ready = 1;
    }
    const double *K = ic->K;
    unsigned soft_rows = 0;
    double ma[16], mb[16];  /* (a solve pass) the pair's sides' motions since the step began */
    if (use_bias) {
        imp_e3_delta_expand(sf->delta + 8 * (size_t)q0->a, ma);
        imp_e3_delta_expand(sf->delta + 8 * (size_t)q0->b, mb);
    }
    for (int i = 0; i < np; i++) {
        const imp_e3_soft_pt *q = r[i].q;
        double s = use_bias ? separation_of(ma, mb, q) : *r[i].s;
        /* a relax row's gap is s + hs u_N, u_N its velocity then: it closes it at
           u_N = -s / (2 hs) */
        double bias, ms, is;
        imp_e3_soft_bias(s, use_bias ? 1.0 / hs : 0.5 / hs, use_bias, q->soft_static ? stiff : soft, push_max,
                         &bias, &ms, &is);
        soft_rows |= (unsigned)(is != 0.0) << i;
        double d = K[i * np + i] * (is / ms + REGULAR);
        kd[i] = K[i * np + i] + d;  /* (K + D)'s diagonal */
        c[i] = -(vn[i] + bias + d * *r[i].rn);
    }
    /* the active set: rows whose impulse would turn negative leave it (impulse 0), the rest
       solved again, at most np times */
    int on[IMPACT_POINTS];
    double dx[IMPACT_POINTS];
    for (int i = 0; i < np; i++) {
        on[i] = 1;
    }
    for (int round = 0;; round++) {
        double A[IMPACT_POINTS * IMPACT_POINTS], y[IMPACT_POINTS];
        int idx[IMPACT_POINTS], m = 0;
        unsigned key = soft_rows << 8;
        for (int i = 0; i < np; i++) {
            if (on[i]) {
                idx[m++] = i;
                key |= 1u << i;
            }
            dx[i] = on[i] ? 0.0 : -*r[i].rn;
        }
        for (int a = 0; a < m; a++) {
            double rhs = c[idx[a]];
            for (int j = 0; j < np; j++) {
                rhs -= on[j] ? 0.0 : K[idx[a] * np + j] * dx[j];
            }
            y[a] = rhs;
        }
        const double *L = NULL;
        for (int e = 0; e < FACTORS && np <= FACTOR_POINTS && m > 0; e++) {
            L = ic->key[e] == key ? ic->L[e] : L;
        }
        if (m > 0 && L == NULL) {  /* factored here, and kept (a pair of up to FACTOR_POINTS) */
            double *F = A;
            if (np <= FACTOR_POINTS) {
                F = ic->L[ic->next];
                ic->key[ic->next] = 0;
            }
            for (int a = 0; a < m; a++) {
                for (int b2 = 0; b2 < m; b2++) {
                    F[a * m + b2] = b2 == a ? kd[idx[a]] : K[idx[a] * np + idx[b2]];
                }
            }
            if (imp_cholesky_factor(F, m, m, 1e-12) != 0) {
                return 0;
            }
            if (np <= FACTOR_POINTS) {
                ic->key[ic->next] = key;
                ic->next = (ic->next + 1) % FACTORS;
            }
            L = F;
        }
        if (m > 0) {
            imp_cholesky_back(L, m, y, m);
        }
        int dropped = 0;
        for (int a = 0; a < m; a++) {
            /* (idx[a] and y[a] were set above for every a < m) */
            // cppcheck-suppress uninitvar
            dx[idx[a]] = y[a];
            if (*r[idx[a]].rn + y[a] < 0.0) {
                on[idx[a]] = 0;
                dropped++;
            }
        }
        if (dropped == 0) {
            break;
        }
        if (round == np) {
            return 0;
        }
    }
    for (int i = 0; i < np; i++) {  /* a row left at 0 must not approach: else the passes' */
        if (!on[i]) {
            double g = -c[i];
            for (int j = 0; j < np; j++) {
                g += (j == i ? kd[i] : K[i * np + j]) * dx[j];
            }
            if (g < -1e-9 * (fabs(vn[i]) + 1.0)) {
                return 0;
            }
        }
    }
    for (int i = 0; i < np; i++) {
        c[i] = dx[i];
    }
    for (int i = 0; i < np; i++) {
        double x = *r[i].rn + c[i];
        apply(va, vb, Ia, Ib, r[i].q, c[i], 0.0, 0.0);
        if (*r[i].pushed == 0.0 && x > 0.0) {  /* its first push of the step */
            *r[i].uhit = vn[i] < *r[i].uhit ? vn[i] : *r[i].uhit;
            *r[i].pushed = x;
            if (r[i].lanes != NULL) {
                *r[i].lanes |= r[i].bit;
            }
        }
        *r[i].rn = x;
    }
    return 1;
}

/* whether pair q[0 .. np) (2 <= np <= IMPACT_POINTS) appears this step resting: all its points
   new (their features not in contact the step before) and one of them touching (gap <= 0) or
   closing within the step h at its free motion's velocity at the step's end (vel, 6 per slot) */
static int appears(const imp_e3_soft_pt *const *q, int np, const double *vel, double h)
{
    for (int k = 0; k < np; k++) {
        if (!q[k]->fresh) {
            return 0;
        }
    }
    for (int k = 0; k < np; k++) {
        const double *va = q[k]->ima != 0.0 ? vel + 6 * (size_t)q[k]->a : NULL;
        const double *vb = q[k]->imb != 0.0 ? vel + 6 * (size_t)q[k]->b : NULL;
        double u[3];
        imp_e3_frame_velocity(va, vb, q[k]->ec[0], q[k]->ec[1], q[k]->ec[2], q[k]->ra, q[k]->rb, u);
        if (q[k]->sep <= 0.0 || q[k]->sep + h * u[0] <= 0.0) {
            return 1;
        }
    }
    return 0;
}

int imp_e3_soft_impact_reserve(struct imp_e3_soft *sf, int npairs, int ncand)
{
    if (imp_grow(&sf->held, &sf->held_cap, npairs, sizeof *sf->held) != 0
        || imp_grow(&sf->cand, &sf->cand_cap, npairs, sizeof *sf->cand) != 0
        || imp_grow(&sf->cand_rest, &sf->cand_rest_cap, npairs, sizeof *sf->cand_rest) != 0
        || imp_grow(&sf->cand_ready, &sf->cand_ready_cap, npairs, sizeof *sf->cand_ready) != 0
        || imp_grow(&sf->kc, &sf->kc_cap, ncand, sizeof *sf->kc) != 0) {
        return -1;
    }
    return 0;
}

void imp_e3_soft_impact_list(struct imp_e3_soft *sf, double threshold, const double *vel, double h)
{
    const imp_e3_soft_pt *q[IMPACT_POINTS];
    sf->ncand = sf->nheld = 0;
    sf->cand_first = 1;
    if (imp_e3_soft_impact_reserve(sf, sf->npairs, 0) != 0) {
        return;  /* out of memory: the passes alone, as without this */
    }
    for (int i = 0; i < sf->nblocks; i++) {
        const imp_e3_block *b = &sf->blocks[i];
        for (int l = 0; l < E3B_LANES; l++) {
            int np = (int)b->cnt[l], cand = 0, hit = 0;
            for (int k = 0; k < np && np >= 2 && !cand; k++) {  /* solve_pair's first test, cheaply */
                const imp_e3_block_pt *p = &b->p[k];
                hit = sf->bhit[i].uhit[k][l] < -threshold;
                cand = hit || p->rn[l] > threshold * p->mn[l];
            }
            int rest = hit ? HIT : 0;
            if (!cand && np >= 2 && sf->pts[b->row[0][l]].fresh) {
                for (int k = 0; k < np; k++) {
                    q[k] = &sf->pts[b->row[k][l]];
                }
                rest = appears(q, np, vel, h) ? REST : 0;
            }
            if (cand || rest) {
                sf->cand_rest[sf->ncand] = (unsigned char)rest;
                sf->cand_ready[sf->ncand] = 0;
                sf->cand[sf->ncand++] = E3B_LANES * i + l;
            }
        }
    }
    for (int i = 0; i < sf->nover; i++) {
        int g = sf->over[i], c0 = sf->pair_first[g], np = sf->pair_first[g + 1] - c0, cand = 0;
        if (np < 2 || np > IMPACT_POINTS) {
            continue;
        }
        int hit = 0;
        for (int k = 0; k < np && !cand; k++) {
            const imp_e3_soft_pt *p = &sf->pts[c0 + k];
            hit = p->uhit < -threshold;
            cand = hit || p->rn > threshold * p->mn;
        }
        int rest = hit ? HIT : 0;
        if (!cand && sf->pts[c0].fresh) {
            for (int k = 0; k < np; k++) {
                q[k] = &sf->pts[c0 + k];
            }
            rest = appears(q, np, vel, h) ? REST : 0;
        }
        if (cand || rest) {
            sf->cand_rest[sf->ncand] = (unsigned char)rest;
            sf->cand_ready[sf->ncand] = 0;
            sf->cand[sf->ncand++] = -1 - g;
        }
    }
    if (imp_grow(&sf->kc, &sf->kc_cap, sf->ncand, sizeof *sf->kc) != 0) {
        sf->ncand = 0;  /* out of memory: the passes alone */
    }
}

void imp_e3_soft_impact_pass(struct imp_e3_soft *sf, const imp_e3_softness *soft, const imp_e3_softness *stiff,
                             double hs, double push_max, double threshold, int use_bias, int simd)
{
    row_ref r[IMPACT_POINTS];
    int block = -1;
    unsigned lanes = 0;
    sf->nheld = 0;
    for (int c = 0; c < sf->ncand; c++) {
        int x = sf->cand[c];
        if (x < 0) {  /* a pair solved one by one */
            int g = -1 - x, c0 = sf->pair_first[g], np = sf->pair_first[g + 1] - c0;
            for (int k = 0; k < np; k++) {
                imp_e3_soft_pt *q = &sf->pts[c0 + k];
                r[k] = (row_ref){q, &q->rn, &q->s, &q->uhit, &q->pushed, NULL, 0};
            }
            if (solve_pair(sf, r, np, soft, stiff, hs, push_max, threshold, use_bias, sf->cand_rest[c] != 0,
                           &sf->kc[c], &sf->cand_ready[c])) {
                for (int k = 0; k < np; k++) {
                    sf->pts[c0 + k].held = 1;
                }
                sf->held[sf->nheld++] = x;
            }
            continue;
        }
        int bi = (int)((unsigned)x / E3B_LANES), l = (int)((unsigned)x % E3B_LANES);
        imp_e3_block *b = &sf->blocks[bi];
        if (!sf->cand_rest[c]) {
            /* the block's lanes asked at once (listed in block order), at its first lane listed
               by its impulse: the lanes solved before it share no moving body with the others,
               so that the answers are the ones asked before them */
            if (bi != block) {
                block = bi;
                lanes = imp_e3_block_impact_lanes(sf, b, threshold, simd);
            }
            if (!(lanes >> l & 1)) {  /* solve_pair would answer 0 at its first question */
                sf->cand_rest[c] = sf->cand_first ? SLOW : 0;
                continue;
            }
        }
        int np = (int)b->cnt[l];
        for (int k = 0; k < np; k++) {
            imp_e3_block_pt *p = &b->p[k];
            imp_e3_block_hit *h = &sf->bhit[bi];
            r[k] = (row_ref){&sf->pts[b->row[k][l]], &p->rn[l], &p->s[l], &h->uhit[k][l], &h->pushed[k][l],
                             &b->pushed[k], (unsigned char)(1u << l)};
        }
        if (solve_pair(sf, r, np, soft, stiff, hs, push_max, threshold, use_bias, 1,
                       &sf->kc[c], &sf->cand_ready[c])) {
            /* the lane's rows keep rn: rn - 0 (u_N + bias) - 0 rn */
            for (int k = 0; k < np; k++) {
                b->p[k].mn[l] = 0.0;
            }
            b->is[l] = 0.0;
            sf->held[sf->nheld++] = x;
        }
    }
    if (sf->cand_first) {  /* the pairs left to the passes off the list, the others in order */
        int n = 0;
        for (int c = 0; c < sf->ncand; c++) {
            if (sf->cand_rest[c] != SLOW) {
                if (sf->cand_ready[c] && n != c) {
                    sf->kc[n] = sf->kc[c];
                }
                sf->cand[n] = sf->cand[c];
                sf->cand_rest[n] = sf->cand_rest[c];
                sf->cand_ready[n++] = sf->cand_ready[c];
            }
        }
        sf->ncand = n;
        sf->cand_first = 0;
    }
}

void imp_e3_soft_impact_release(struct imp_e3_soft *sf, const imp_e3_softness *soft, const imp_e3_softness *stiff)
{
    for (int h = 0; h < sf->nheld; h++) {
        int x = sf->held[h];
        if (x < 0) {
            for (int c = sf->pair_first[-1 - x]; c < sf->pair_first[-x]; c++) {
                sf->pts[c].held = 0;
            }
            continue;
        }
        imp_e3_block *b = &sf->blocks[x / E3B_LANES];
        int l = x % E3B_LANES;
        for (int k = 0; k < b->cnt[l]; k++) {
            b->p[k].mn[l] = (float)sf->pts[b->row[k][l]].mn;  /* (a float: exact) */
        }
        const imp_e3_soft_pt *q0 = &sf->pts[b->row[0][l]];
        b->is[l] = (q0->soft_static ? stiff : soft)->impulse_scale;
    }
    sf->nheld = 0;
}
