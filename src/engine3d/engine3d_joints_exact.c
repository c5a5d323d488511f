/* engine3d_joints_exact.c: the joints' rows in the exact Coulomb problem (engine3d_joints.h):
   the contacts' problem of the velocity step with the joints' rows appended (equality rows
   bilateral, unilateral rows as frictionless contacts, motors bilateral and held at their
   bound when they would pass it), W's joint blocks through per-body lists of joints. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine3d_joints_rows.h"

/* Rounds of the exact problem for motors that reach their bound. */
#define MOTOR_ROUNDS 4

#define GROW(p, n)                                                      \
    do {                                                                \
        void *np_ = realloc((p), (size_t)((n) > 0 ? (n) : 1) * sizeof *(p)); \
        if (np_ == NULL) {                                              \
            return -1;                                                  \
        }                                                               \
        (p) = np_;                                                      \
    } while (0)

static int grow_triplets(struct imp_e3_joints *js, size_t need);

static int reserve_full(struct imp_e3_joints *js, int n, size_t nnz, int nrows)
{
    if (n > js->full_cap) {
        GROW(js->q, n);
        GROW(js->mu, n);
        GROW(js->warm, n);
        GROW(js->r, n);
        GROW(js->u, n);
        GROW(js->qr, n);
        GROW(js->wr, n);
        GROW(js->mur, n);
        GROW(js->bil, n);
        GROW(js->bilr, n);
        GROW(js->map, n);
        GROW(js->back, n);
        GROW(js->rp, n + 1);
        GROW(js->work, n);
        js->full_cap = n;
    }
    if (grow_triplets(js, nnz) != 0) {
        return -1;
    }
    if (nrows > js->base_cap) {
        GROW(js->base, nrows);
        js->base_cap = nrows;
    }
    return 0;
}

/* the per-slot lists of the joints that have rows, and each joint's rows (contiguous) */
static int joint_lists(const imp_world *w, struct imp_e3_joints *js)
{
    int ns = w->model.nslots;
    if (ns > js->slot_cap) {
        GROW(js->slot_head, ns);
        js->slot_cap = ns;
    }
    if (js->n > js->jcap) {
        GROW(js->jnext, 2 * js->n);
        GROW(js->jfirst, js->n);
        GROW(js->jcount, js->n);
        GROW(js->jmark, js->n);
        GROW(js->jmark2, js->n);
        js->jcap = js->n;
    }
    for (int s = 0; s < ns; s++) {
        js->slot_head[s] = -1;
    }
    for (int i = 0; i < js->n; i++) {
        js->jcount[i] = 0;
        js->jmark[i] = js->jmark2[i] = -1;
    }
    for (int i = 0; i < js->nrows; i++) {
        int j = js->rows[i].joint;
        if (js->jcount[j]++ == 0) {
            js->jfirst[j] = i;
        }
    }
    for (int j = js->n - 1; j >= 0; j--) {
        for (int side = 0; side < 2 && js->jcount[j] > 0; side++) {
            int s = moving(w, side == 0 ? js->j[j].s1 : js->j[j].s2);
            if (s >= 0) {
                js->jnext[2 * j + side] = js->slot_head[s];
                js->slot_head[s] = 2 * j + side;
            }
        }
    }
    return 0;
}

/* J_p M^-1 J_q^T over the moving bodies two joint rows share */
static double row_coupling(const imp_j3_row *p, const imp_j3_row *q)
{
    double v = 0.0;
    for (int sp = 0; sp < 2; sp++) {
        int s = sp == 0 ? p->a : p->b;
        if (s < 0) {
            continue;
        }
        for (int sq = 0; sq < 2; sq++) {
            if ((sq == 0 ? q->a : q->b) == s) {
                v += dot(p->J + 6 * sp, q->MJ + 6 * sq) + dot(p->J + 6 * sp + 3, q->MJ + 6 * sq + 3);
            }
        }
    }
    return v;
}

/* J_c M^-1 J_r^T for the contact row m (0 normal, 1, 2 tangents) of point p and joint row r */
static double contact_coupling(const imp_world *w, const imp_e3_point *p, int m, const imp_j3_row *r)
{
    const double *E = m == 0 ? p->normal : (m == 1 ? p->t1 : p->t2);
    double v = 0.0;
    for (int side = 0; side < 2; side++) {
        int s = moving(w, side == 0 ? p->a : p->b);
        if (s < 0) {
            continue;
        }
        double sg = side == 0 ? -1.0 : 1.0, ang[3];
        cross(side == 0 ? p->ra : p->rb, E, ang);
        for (int rs = 0; rs < 2; rs++) {
            if ((rs == 0 ? r->a : r->b) == s) {
                v += sg * (dot(E, r->MJ + 6 * rs) + dot(ang, r->MJ + 6 * rs + 3));
            }
        }
    }
    return v;
}

static int grow_triplets(struct imp_e3_joints *js, size_t need)
{
    if (need <= js->tcap) {
        return 0;
    }
    size_t cap = js->tcap > 0 ? js->tcap : 1024;
    while (cap < need) {
        cap *= 2;
    }
    GROW(js->ti, cap);
    GROW(js->tj, cap);
    GROW(js->tv, cap);
    GROW(js->tri, cap);
    GROW(js->trj, cap);
    GROW(js->trv, cap);
    GROW(js->col, cap);
    GROW(js->val, cap);
    js->tcap = cap;
    return 0;
}

static int push_triplet(struct imp_e3_joints *js, size_t *k, int i, int j, double v)
{
    if (v == 0.0) {
        return 0;
    }
    if (*k >= js->tcap && grow_triplets(js, *k + 1) != 0) {
        return -1;
    }
    js->ti[*k] = i;
    js->tj[*k] = j;
    js->tv[*k] = v;
    (*k)++;
    return 0;
}

imp_coulomb_status imp_e3_joints_solve_exact(imp_world *w, imp_engine3d *e, int nact, const imp_coulomb_problem *contacts,
                                             const imp_coulomb_options *opt, imp_coulomb_info *info)
{
    struct imp_e3_joints *js = e->joints;
    int nc = 3 * nact, n = nc;
    for (int i = 0; i < js->nrows; i++) {
        n += js->rows[i].kind == ROW_UNI ? 3 : 1;
    }
    size_t cnnz = (size_t)contacts->W.row_ptr[nc];
    size_t nnz = cnnz + 2 * (size_t)n + 36 * (size_t)js->nrows;  /* grown if need be */
    if (reserve_full(js, n, nnz, js->nrows) != 0 || joint_lists(w, js) != 0) {
        return IMP_COULOMB_NO_MEMORY;
    }
    /* the full problem: contacts, then per joint row one row (three for a unilateral one) */
    size_t k = 0;
    for (int i = 0; i < nc; i++) {
        for (int t = contacts->W.row_ptr[i]; t < contacts->W.row_ptr[i + 1]; t++) {
            js->ti[k] = i;
            js->tj[k] = contacts->W.col[t];
            js->tv[k++] = contacts->W.val[t];
        }
        js->q[i] = contacts->q[i];
        js->warm[i] = opt->warm_start != NULL ? opt->warm_start[i] : 0.0;
        js->bil[i] = 0;
        js->mu[i / 3] = contacts->mu[i / 3];
    }
    int row = nc, ncontacts = nact;
    for (int i = 0; i < js->nrows; i++) {
        const imp_j3_row *r = &js->rows[i];
        js->base[i] = row;
        js->q[row] = row_velocity(r, e->vel) + r->bias;
        js->warm[row] = r->lambda;
        if (r->kind == ROW_UNI) {  /* a frictionless contact: its tangents decoupled */
            js->bil[row] = js->bil[row + 1] = js->bil[row + 2] = 0;
            js->mu[ncontacts++] = 0.0;
            for (int t = 1; t < 3; t++) {
                js->q[row + t] = js->warm[row + t] = 0.0;
                if (push_triplet(js, &k, row + t, row + t, 1.0) != 0) {
                    return IMP_COULOMB_NO_MEMORY;
                }
            }
            row += 3;
        } else {
            js->bil[row++] = 1;
        }
    }
    /* W's joint blocks: a contact and a joint row share a moving body, two joint rows too */
    for (int c = 0; c < nact; c++) {
        const imp_e3_point *p = &e->pts[e->act[c]];
        for (int side = 0; side < 2; side++) {
            int s = moving(w, side == 0 ? p->a : p->b);
            for (int it = s >= 0 ? js->slot_head[s] : -1; it >= 0; it = js->jnext[it]) {
                int j = it / 2;
                if (js->jmark[j] == c) {
                    continue;
                }
                js->jmark[j] = c;
                for (int i = js->jfirst[j]; i < js->jfirst[j] + js->jcount[j]; i++) {
                    for (int m = 0; m < 3; m++) {
                        double v = contact_coupling(w, p, m, &js->rows[i]);
                        if (push_triplet(js, &k, js->base[i], 3 * c + m, v) != 0
                            || push_triplet(js, &k, 3 * c + m, js->base[i], v) != 0) {
                            return IMP_COULOMB_NO_MEMORY;
                        }
                    }
                }
            }
        }
    }
    for (int j = 0; j < js->n; j++) {
        for (int side = 0; side < 2 && js->jcount[j] > 0; side++) {
            int s = moving(w, side == 0 ? js->j[j].s1 : js->j[j].s2);
            for (int it = s >= 0 ? js->slot_head[s] : -1; it >= 0; it = js->jnext[it]) {
                int l = it / 2;
                if (js->jmark2[l] == j) {
                    continue;
                }
                js->jmark2[l] = j;
                for (int i = js->jfirst[j]; i < js->jfirst[j] + js->jcount[j]; i++) {
                    for (int m = js->jfirst[l]; m < js->jfirst[l] + js->jcount[l]; m++) {
                        double v = row_coupling(&js->rows[i], &js->rows[m]);
                        if (m == i && !(v > 0.0)) {
                            v = 1.0;  /* a row no body can follow: decoupled, its impulse 0 */
                        }
                        if (push_triplet(js, &k, js->base[i], js->base[m], v) != 0) {
                            return IMP_COULOMB_NO_MEMORY;
                        }
                    }
                }
            }
        }
    }
    size_t full_nnz = k;
    /* rounds: a motor at its bound is held there (its impulse given) and the rest solved again */
    for (int i = 0; i < js->nrows; i++) {
        js->map[js->base[i]] = 0;  /* 0: in the problem, 1: given */
    }
    for (int i = 0; i < nc; i++) {
        js->map[i] = 0;
    }
    for (int i = 0; i < js->nrows; i++) {
        if (js->rows[i].kind == ROW_UNI) {
            js->map[js->base[i] + 1] = js->map[js->base[i] + 2] = 0;
        }
    }
    imp_coulomb_status st = IMP_COULOMB_OK;
    for (int round = 0; round < MOTOR_ROUNDS; round++) {
        int nr = 0;
        for (int i = 0; i < n; i++) {
            js->back[i] = js->map[i] ? -1 : nr;
            if (!js->map[i]) {
                js->qr[nr] = js->q[i];
                js->wr[nr] = js->warm[i];
                js->bilr[nr] = js->bil[i];
                nr++;
            }
        }
        size_t kr = 0;
        for (size_t t = 0; t < full_nnz; t++) {
            int i = js->back[js->ti[t]], j = js->back[js->tj[t]];
            if (i >= 0 && j < 0) {  /* a given impulse: into q */
                js->qr[i] += js->tv[t] * js->r[js->tj[t]];
            } else if (i >= 0) {
                js->tri[kr] = i;
                js->trj[kr] = j;
                js->trv[kr++] = js->tv[t];
            }
        }
        if (imp_coulomb_csr_from_triplets(nr, (int)kr, js->tri, js->trj, js->trv, js->work, js->rp, js->col,
                                          js->val) < 0) {
            return IMP_COULOMB_BAD_INPUT;
        }
        if (js->ws == NULL && (js->ws = imp_coulomb_workspace_create(nr)) == NULL) {
            return IMP_COULOMB_NO_MEMORY;
        }
        if (imp_coulomb_workspace_reserve(js->ws, nr) != IMP_OK) {
            return IMP_COULOMB_NO_MEMORY;
        }
        imp_coulomb_problem prob = {.W = {.n = nr, .row_ptr = js->rp, .col = js->col, .val = js->val},
                                    .q = js->qr, .mu = js->mu, .bilateral = js->bilr, .factors = NULL};
        imp_coulomb_options o = *opt;
        o.warm_start = js->wr;
        double *rr = js->u;  /* the reduced answer, then spread to the full rows */
        st = imp_coulomb_solve(&prob, &o, js->ws, rr, js->mur, info);
        if (st == IMP_COULOMB_NO_MEMORY || st == IMP_COULOMB_BAD_INPUT) {
            return st;
        }
        for (int i = n - 1; i >= 0; i--) {
            if (js->back[i] >= 0) {
                js->r[i] = rr[js->back[i]];
            }
        }
        int again = 0;
        for (int i = 0; i < js->nrows; i++) {
            const imp_j3_row *r = &js->rows[i];
            int ri = js->base[i];
            if (r->kind == ROW_MOTOR && !js->map[ri] && (js->r[ri] > r->hi || js->r[ri] < r->lo)) {
                js->r[ri] = fmin(fmax(js->r[ri], r->lo), r->hi);
                js->map[ri] = 1;
                again = 1;
            }
        }
        if (!again) {
            break;
        }
        for (int i = 0; i < n; i++) {  /* warm start the next round from this one */
            js->warm[i] = js->r[i];
        }
    }
    if (nc > 0) {
        memcpy(e->r, js->r, (size_t)nc * sizeof *e->r);
    }
    for (int i = 0; i < js->nrows; i++) {
        imp_j3_row *r = &js->rows[i];
        double l = js->r[js->base[i]];
        if (r->kind == ROW_MOTOR) {
            l = fmin(fmax(l, r->lo), r->hi);
        }
        r->lambda = r->meff > 0.0 ? l : 0.0;
        row_apply(r, e->vel, r->lambda);
    }
    return st;
}

