/* contact_sparsify.c: order-independent sparsification of new contacts (contact_sparsify.h). */
#include "contact_sparsify.h"

#include <math.h>
#include <stdlib.h>

/* canonical order of contacts: bodies, objects (both as given with the smaller body first),
   area, point; -1, 0, 1 */
static int canon_cmp(const imp_sparse_contact *x, const imp_sparse_contact *y)
{
    int sx = x->body[0] > x->body[1], sy = y->body[0] > y->body[1];
    const int kx[4] = {x->body[sx], x->body[1 - sx], x->object[sx], x->object[1 - sx]};
    const int ky[4] = {y->body[sy], y->body[1 - sy], y->object[sy], y->object[1 - sy]};
    for (int i = 0; i < 4; i++) {
        if (kx[i] != ky[i]) {
            return kx[i] < ky[i] ? -1 : 1;
        }
    }
    if (x->area != y->area) {
        return x->area < y->area ? -1 : 1;
    }
    for (int i = 0; i < 3; i++) {
        if (x->point[i] != y->point[i]) {
            return x->point[i] < y->point[i] ? -1 : 1;
        }
    }
    return 0;
}

static int near_obj(imp_adjacent_fn adj, void *ud, int body, int o1, int o2)
{
    return o1 == o2 || (adj != NULL && adj(ud, body, o1, o2));
}

/* C and D join the same two bodies with objects equal-or-adjacent on both sides, not equal on both */
static int topo_adjacent(const imp_sparse_contact *c, const imp_sparse_contact *d, imp_adjacent_fn adj, void *ud)
{
    int flip;
    if (c->body[0] == d->body[0] && c->body[1] == d->body[1]) {
        flip = 0;
    } else if (c->body[0] == d->body[1] && c->body[1] == d->body[0]) {
        flip = 1;
    } else {
        return 0;
    }
    int d0 = d->object[flip], d1 = d->object[1 - flip];
    if (c->object[0] == d0 && c->object[1] == d1) {
        return 0; /* the same pair of objects: not a neighbour */
    }
    return near_obj(adj, ud, c->body[0], c->object[0], d0) && near_obj(adj, ud, c->body[1], c->object[1], d1);
}

int imp_contact_sparsify_ws(const imp_sparse_contact *c, int n, int nbodies, const imp_sparsify_opts *o,
                            imp_adjacent_fn adjacent, void *ud, unsigned char *keep, int *work)
{
    if (n < 0 || nbodies < 0 || !(o->threshold >= 0.0 && o->threshold <= 1.0) || !(o->minarea >= 0.0) ||
        !(o->mindist >= 0.0)) {
        return IMP_SPARSIFY_EBADARG;
    }
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 2; k++) {
            if (c[i].body[k] < 0 || c[i].body[k] >= nbodies) {
                return IMP_SPARSIFY_EBADARG;
            }
        }
    }
    /* contacts by body (CSR); a contact within one body is listed once */
    int *start = work, *fill = work + nbodies + 1, *list = work + 2 * (nbodies + 1);
    for (int b = 0; b <= nbodies; b++) {
        start[b] = 0;
    }
    for (int i = 0; i < n; i++) {
        start[c[i].body[0] + 1]++;
        if (c[i].body[1] != c[i].body[0]) {
            start[c[i].body[1] + 1]++;
        }
    }
    for (int b = 0; b < nbodies; b++) {
        start[b + 1] += start[b];
    }
    for (int b = 0; b < nbodies; b++) {
        fill[b] = start[b];
    }
    for (int i = 0; i < n; i++) {
        list[fill[c[i].body[0]]++] = i;
        if (c[i].body[1] != c[i].body[0]) {
            list[fill[c[i].body[1]]++] = i;
        }
    }
    for (int i = 0; i < n; i++) {
        const imp_sparse_contact *ci = &c[i];
        int del = 0;
        if (ci->is_new && ci->area < o->minarea) {
            del = 1;
        }
        for (int side = 0; side < 2 && ci->is_new && !del; side++) {
            int b = ci->body[side];
            if (side == 1 && b == ci->body[0]) {
                break;
            }
            for (int e = start[b]; e < start[b + 1] && !del; e++) {
                int j = list[e];
                if (j == i) {
                    continue;
                }
                const imp_sparse_contact *d = &c[j];
                if (ci->area < o->threshold * d->area) {
                    del = topo_adjacent(ci, d, adjacent, ud);
                } else {
                    double dm = fmax(fabs(ci->point[0] - d->point[0]),
                                     fmax(fabs(ci->point[1] - d->point[1]), fabs(ci->point[2] - d->point[2])));
                    if (dm < 2.0 * o->mindist) {
                        int cmp = canon_cmp(d, ci);
                        del = !d->is_new || cmp < 0 || (cmp == 0 && j < i);
                    }
                }
            }
        }
        keep[i] = (unsigned char)!del;
    }
    return IMP_SPARSIFY_OK;
}

int imp_contact_sparsify(const imp_sparse_contact *c, int n, int nbodies, const imp_sparsify_opts *o,
                         imp_adjacent_fn adjacent, void *ud, unsigned char *keep)
{
    if (n < 0 || nbodies < 0) {
        return IMP_SPARSIFY_EBADARG;
    }
    int *work = malloc(IMP_SPARSIFY_WORK(n, nbodies) * sizeof(int));
    if (work == NULL) {
        return IMP_SPARSIFY_ENOMEM;
    }
    int st = imp_contact_sparsify_ws(c, n, nbodies, o, adjacent, ud, keep, work);
    free(work);
    return st;
}
