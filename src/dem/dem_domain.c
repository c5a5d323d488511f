/* dem_domain.c: the dem strategy's domain decomposition over ranks (dem_domain.h): slabs, roles,
   ghost lists, the per-step exchange of the ghosts' state and the updates that migrate
   particles. Messages through the table of dem_comm.h. Allocation only at the decomposition and
   at updates (the per-step exchange reuses its buffers). */
#include "dem_domain.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "world_internal.h"

enum { STATE = IMP_STRIDE_3D, GHOST_VALUES = 9, RECORD = 1 + IMP_STRIDE_3D };

struct imp_dem_domain {
    imp_dem_comm comm;
    int axis;
    double *bounds;          /* size + 1: slab k is [bounds[k], bounds[k + 1]) */
    double ghost, skin;
    int nslots;              /* the world's slots at the decomposition */
    unsigned bodies_version;
    unsigned char *role;     /* per world slot */
    int dirty;
    int all;                 /* every body present (imp_dem_domain_expose), no stepping */
    double *ref_slot;        /* while exposed: ref by world slot */
    /* per particle of the dem state (pcap entries) */
    unsigned char *skip;     /* Newton's mask: fixed or ghost */
    double *weight;          /* 1 owned, 0 ghost, 2 shared (imp_dem_pair_weight) */
    double *ref;             /* the axis coordinate at the last update */
    int pcap;
    /* ghost lists: [0] the lower neighbour (rank - 1), [1] the upper one (rank + 1); particle
       indices in index order (= world slot order on both sides) */
    int *send[2], *recv[2], nsend[2], nrecv[2];
    double *sbuf, *rbuf;
    size_t sbuf_cap, rbuf_cap; /* doubles */
    imp_dem_domain_stats st;
};

static imp_status fail(imp_world *w, imp_status st, const char *msg)
{
    snprintf(w->data.error, sizeof w->data.error, "dem strategy over ranks: %s", msg);
    w->data.nerror_bodies = 0;
    return st;
}

static int grow_d(double **p, size_t *cap, size_t n)
{
    if (n <= *cap) {
        return 0;
    }
    double *q = realloc(*p, n * sizeof *q);
    if (q == NULL) {
        return -1;
    }
    *p = q;
    *cap = n;
    return 0;
}

/* the message layer, timed */
static int sendrecv(imp_dem_domain *m, int dest, const double *s, size_t ns, int src, double *r,
                    size_t nr)
{
    double t = imp_profile_now();
    int rc = m->comm.sendrecv(m->comm.ctx, dest, s, ns * sizeof *s, src, r, nr * sizeof *r);
    m->st.comm_seconds += imp_profile_now() - t;
    if (dest >= 0) {
        m->st.messages++;
        m->st.bytes_sent += (double)(ns * sizeof *s);
    }
    return rc;
}

static int allreduce(imp_dem_domain *m, double *v, int n, int op)
{
    double t = imp_profile_now();
    int rc = m->comm.allreduce(m->comm.ctx, v, n, op);
    m->st.comm_seconds += imp_profile_now() - t;
    return rc;
}

static int neighbour(const imp_dem_domain *m, int side)
{
    int r = m->comm.rank + (side == 0 ? -1 : 1);
    return r >= 0 && r < m->comm.size ? r : -1;
}

static int free_sphere(const imp_dem *d, int i)
{
    return d->kind[i] == IMP_DEM_SPHERE && !d->fixed[i] && d->clump_of[i] < 0;
}

int imp_dem_domain_present(const imp_dem_domain *m, int s)
{
    return m == NULL || m->all || s >= m->nslots || m->role[s] != IMP_DEM_AWAY;
}

int imp_dem_domain_dirty(const imp_dem_domain *m) { return m != NULL && m->dirty; }

int imp_dem_domain_role(const imp_dem *d, int s)
{
    const imp_dem_domain *m = d->domain;
    return m == NULL || s < 0 || s >= m->nslots ? IMP_DEM_SHARED : m->role[s];
}

void imp_dem_domain_free(imp_dem_domain *m)
{
    if (m == NULL) {
        return;
    }
    free(m->bounds);
    free(m->role);
    free(m->skip);
    free(m->weight);
    free(m->ref);
    for (int k = 0; k < 2; k++) {
        free(m->send[k]);
        free(m->recv[k]);
    }
    free(m->sbuf);
    free(m->rbuf);
    free(m->ref_slot);
    free(m);
}

/* After the dem state was (re)built: the per-particle arrays, the ghost lists, and a check with
   the neighbours that each one's send list is the other's receive list (the same slots in the
   same order). The lists follow from the axis coordinates of the last update (ref): the current
   ones at an update (by_slot NULL), else the saved ones by world slot. */
static imp_status relist(imp_world *w, imp_dem_domain *m, const double *by_slot)
{
    imp_dem *d = w->dem;
    const int n = d->n, ax = m->axis;
    const double lo = m->bounds[m->comm.rank], hi = m->bounds[m->comm.rank + 1], g = m->ghost;
    if (n > m->pcap) {
        int cap = n;
        unsigned char *sk = realloc(m->skip, (size_t)cap);
        if (sk != NULL) {
            m->skip = sk;
        }
        double *wt = realloc(m->weight, (size_t)cap * sizeof *wt);
        if (wt != NULL) {
            m->weight = wt;
        }
        double *rf = realloc(m->ref, (size_t)cap * sizeof *rf);
        if (rf != NULL) {
            m->ref = rf;
        }
        int ok = sk != NULL && wt != NULL && rf != NULL;
        for (int k = 0; k < 2 && ok; k++) {
            int *s = realloc(m->send[k], (size_t)cap * sizeof *s);
            if (s != NULL) {
                m->send[k] = s;
            }
            int *r = realloc(m->recv[k], (size_t)cap * sizeof *r);
            if (r != NULL) {
                m->recv[k] = r;
            }
            ok = s != NULL && r != NULL;
        }
        if (!ok) {
            return fail(w, IMP_ERR_NOMEM, "out of memory");
        }
        m->pcap = cap;
    }
    m->nsend[0] = m->nsend[1] = m->nrecv[0] = m->nrecv[1] = 0;
    m->st.owned = m->st.ghosts = 0;
    for (int i = 0; i < n; i++) {
        int role = m->role[d->slot[i]];
        double x = by_slot != NULL ? by_slot[d->slot[i]] : d->pos[3 * i + ax];
        m->skip[i] = (unsigned char)(d->fixed[i] || role == IMP_DEM_GHOST);
        m->weight[i] = role == IMP_DEM_OWNED ? 1.0 : (role == IMP_DEM_GHOST ? 0.0 : 2.0);
        m->ref[i] = x;
        if (role == IMP_DEM_OWNED) {
            m->st.owned++;
            if (neighbour(m, 0) >= 0 && x < lo + g) {
                m->send[0][m->nsend[0]++] = i;
            }
            if (neighbour(m, 1) >= 0 && x >= hi - g) {
                m->send[1][m->nsend[1]++] = i;
            }
        } else if (role == IMP_DEM_GHOST) {
            m->st.ghosts++;
            int side = x < lo ? 0 : 1;
            m->recv[side][m->nrecv[side]++] = i;
        }
    }
    d->newton_skip = m->skip;
    d->pair_w = m->weight;
    m->dirty = 0;
    m->bodies_version = w->model.bodies_version;
    /* the lists' slots to the neighbours: up (side 1 out, side 0 in), then down */
    size_t need = (size_t)(m->nsend[0] > m->nsend[1] ? m->nsend[0] : m->nsend[1]) + 1;
    size_t needr = (size_t)(m->nrecv[0] > m->nrecv[1] ? m->nrecv[0] : m->nrecv[1]) + 1;
    if (grow_d(&m->sbuf, &m->sbuf_cap, need) != 0 || grow_d(&m->rbuf, &m->rbuf_cap, needr) != 0) {
        return fail(w, IMP_ERR_NOMEM, "out of memory");
    }
    for (int dir = 0; dir < 2; dir++) {
        int out = dir == 0 ? 1 : 0, in = 1 - out;
        double cnt = (double)m->nsend[out], got = -1.0;
        if (sendrecv(m, neighbour(m, out), &cnt, 1, neighbour(m, in), &got, 1) != 0) {
            return fail(w, IMP_ERR_INVALID, "a message to a neighbour failed");
        }
        if (neighbour(m, in) >= 0 && got != (double)m->nrecv[in]) {
            char msg[160];
            snprintf(msg, sizeof msg, "rank %d expects %d ghosts from rank %d, which sends %.0f "
                     "(the particles moved too far between updates)", m->comm.rank,
                     m->nrecv[in], neighbour(m, in), got);
            return fail(w, IMP_ERR_INVALID, msg);
        }
        for (int j = 0; j < m->nsend[out]; j++) {
            m->sbuf[j] = (double)d->slot[m->send[out][j]];
        }
        if (sendrecv(m, neighbour(m, out), m->sbuf, (size_t)m->nsend[out], neighbour(m, in),
                     m->rbuf, neighbour(m, in) >= 0 ? (size_t)m->nrecv[in] : 0) != 0) {
            return fail(w, IMP_ERR_INVALID, "a message to a neighbour failed");
        }
        for (int j = 0; neighbour(m, in) >= 0 && j < m->nrecv[in]; j++) {
            if (m->rbuf[j] != (double)d->slot[m->recv[in][j]]) {
                return fail(w, IMP_ERR_INVALID, "the ghost lists of two neighbours disagree");
            }
        }
    }
    size_t per = GHOST_VALUES * (size_t)(m->nsend[0] > m->nsend[1] ? m->nsend[0] : m->nsend[1]);
    size_t perr = GHOST_VALUES * (size_t)(m->nrecv[0] > m->nrecv[1] ? m->nrecv[0] : m->nrecv[1]);
    if (grow_d(&m->sbuf, &m->sbuf_cap, per + 1) != 0 || grow_d(&m->rbuf, &m->rbuf_cap, perr + 1) != 0) {
        return fail(w, IMP_ERR_NOMEM, "out of memory");
    }
    return IMP_OK;
}

/* The ghosts' positions and velocities from their owners: up, then down. */
static imp_status exchange(imp_world *w, imp_dem_domain *m)
{
    imp_dem *d = w->dem;
    for (int dir = 0; dir < 2; dir++) {
        int out = dir == 0 ? 1 : 0, in = 1 - out;
        double *b = m->sbuf;
        for (int j = 0; j < m->nsend[out]; j++, b += GHOST_VALUES) {
            int i = m->send[out][j];
            memcpy(b, d->pos + 3 * i, 3 * sizeof *b);
            memcpy(b + 3, d->vel + 3 * i, 3 * sizeof *b);
            memcpy(b + 6, d->angvel + 3 * i, 3 * sizeof *b);
        }
        if (sendrecv(m, neighbour(m, out), m->sbuf, GHOST_VALUES * (size_t)m->nsend[out],
                     neighbour(m, in), m->rbuf, GHOST_VALUES * (size_t)m->nrecv[in]) != 0) {
            return fail(w, IMP_ERR_INVALID, "the ghosts' message failed");
        }
        const double *r = m->rbuf;
        for (int j = 0; j < m->nrecv[in]; j++, r += GHOST_VALUES) {
            int i = m->recv[in][j];
            memcpy(d->pos + 3 * i, r, 3 * sizeof *r);
            memcpy(d->vel + 3 * i, r + 3, 3 * sizeof *r);
            memcpy(d->angvel + 3 * i, r + 6, 3 * sizeof *r);
        }
    }
    return IMP_OK;
}

static int in_slab(const imp_dem_domain *m, int k, double x, double widen)
{
    return k >= 0 && k < m->comm.size && x >= m->bounds[k] - widen && x < m->bounds[k + 1] + widen;
}

/* An update: every owned sphere inside a neighbour's slab widened by the ghost width goes to that
   neighbour with its whole state (slot and the 13 numbers); then the roles from the positions,
   the dem state rebuilt (interactions between particles that stay are kept) and the lists
   made again. */
static imp_status update(imp_world *w, imp_dem_domain *m)
{
    imp_dem *d = w->dem;
    const int me = m->comm.rank, ax = m->axis;
    const double g = m->ghost;
    unsigned char *role = m->role;
    /* the new roles: first what this rank keeps of its own */
    for (int i = 0; i < d->n; i++) {
        int s = d->slot[i];
        if (role[s] != IMP_DEM_OWNED) {
            continue;
        }
        double x = d->pos[3 * i + ax];
        if (!in_slab(m, me, x, 0.0) && !in_slab(m, me - 1, x, 0.0) && !in_slab(m, me + 1, x, 0.0)) {
            char msg[200];
            snprintf(msg, sizeof msg, "body #%d moved across a whole slab between two updates "
                     "(x[%d] = %g; this rank's slab [%g, %g)); use fewer ranks or a larger skin",
                     s, ax, x, m->bounds[me], m->bounds[me + 1]);
            return fail(w, IMP_ERR_INVALID, msg);
        }
    }
    long sent_total = 0;
    for (int dir = 0; dir < 2; dir++) {
        int out = dir == 0 ? 1 : 0, in = 1 - out, nb = neighbour(m, out);
        size_t count = 0;
        for (int i = 0; nb >= 0 && i < d->n; i++) {
            if (role[d->slot[i]] == IMP_DEM_OWNED && in_slab(m, nb, d->pos[3 * i + ax], g)) {
                count++;
            }
        }
        if (grow_d(&m->sbuf, &m->sbuf_cap, RECORD * count + 1) != 0) {
            return fail(w, IMP_ERR_NOMEM, "out of memory");
        }
        double *b = m->sbuf;
        for (int i = 0; nb >= 0 && i < d->n; i++) {
            if (role[d->slot[i]] == IMP_DEM_OWNED && in_slab(m, nb, d->pos[3 * i + ax], g)) {
                b[0] = (double)d->slot[i];
                memcpy(b + 1, d->pos + 3 * i, 3 * sizeof *b);
                memcpy(b + 4, d->quat + 4 * i, 4 * sizeof *b);
                memcpy(b + 8, d->vel + 3 * i, 3 * sizeof *b);
                memcpy(b + 11, d->angvel + 3 * i, 3 * sizeof *b);
                b += RECORD;
            }
        }
        double cnt = (double)count, got = 0.0;
        if (sendrecv(m, nb, &cnt, 1, neighbour(m, in), &got, 1) != 0) {
            return fail(w, IMP_ERR_INVALID, "a message to a neighbour failed");
        }
        size_t ngot = neighbour(m, in) >= 0 ? (size_t)got : 0;
        if (grow_d(&m->rbuf, &m->rbuf_cap, RECORD * ngot + 1) != 0) {
            return fail(w, IMP_ERR_NOMEM, "out of memory");
        }
        if (sendrecv(m, nb, m->sbuf, RECORD * count, neighbour(m, in), m->rbuf, RECORD * ngot) != 0) {
            return fail(w, IMP_ERR_INVALID, "a message to a neighbour failed");
        }
        sent_total += (long)count;
        /* the received ones: state into the world, role from the position */
        for (size_t j = 0; j < ngot; j++) {
            const double *r = m->rbuf + RECORD * j;
            int s = (int)r[0];
            if (!(r[0] >= 1.0) || s >= m->nslots || role[s] == IMP_DEM_OWNED || role[s] == IMP_DEM_SHARED) {
                return fail(w, IMP_ERR_INVALID, "a neighbour sent a body this rank cannot take");
            }
            double *y = w->data.y + (size_t)s * IMP_STRIDE_3D;
            memcpy(y, r + 1, STATE * sizeof *y);
            int mine = in_slab(m, me, r[1 + ax], 0.0);
            m->st.migrated += mine && role[s] != IMP_DEM_OWNED;
            role[s] = mine ? IMP_DEM_OWNED + 8 : IMP_DEM_GHOST + 8;  /* + 8: decided */
        }
    }
    (void)sent_total;
    /* this rank's own, and the ghosts not sent again (now away) */
    for (int i = 0; i < d->n; i++) {
        int s = d->slot[i];
        if (role[s] == IMP_DEM_OWNED) {
            double x = d->pos[3 * i + ax];
            role[s] = in_slab(m, me, x, 0.0) ? IMP_DEM_OWNED + 8
                      : (in_slab(m, me, x, g) ? IMP_DEM_GHOST + 8 : IMP_DEM_AWAY);
        } else if (role[s] == IMP_DEM_GHOST) {
            role[s] = IMP_DEM_AWAY;
        }
    }
    for (int s = 0; s < m->nslots; s++) {
        role[s] = (unsigned char)(role[s] >= 8 ? role[s] - 8 : role[s]);
    }
    m->dirty = 1;
    m->st.updates++;
    imp_status st = imp_dem_sync(w);
    if (st != IMP_OK) {
        return st;
    }
    return relist(w, m, NULL);
}

imp_status imp_dem_domain_step(imp_world *w)
{
    imp_dem *d = w->dem;
    imp_dem_domain *m = d->domain;
    if (m == NULL) {
        return IMP_OK;
    }
    if (w->model.bodies_version != m->bodies_version || m->dirty || m->all) {
        return fail(w, IMP_ERR_INVALID, "bodies were added, removed or changed after the scene "
                    "was decomposed (impact.dem_mpi.decompose): build the whole scene first");
    }
    double t0 = imp_profile_now(), c0 = m->st.comm_seconds;
    m->st.steps++;
    double moved = 0.0;
    for (int i = 0; i < d->n; i++) {
        if (m->weight[i] == 1.0) {
            double dx = fabs(d->pos[3 * i + m->axis] - m->ref[i]);
            moved = dx > moved || dx != dx ? dx : moved;  /* a NaN forces an update (and its error) */
        }
    }
    if (allreduce(m, &moved, 1, IMP_DEM_COMM_MAX) != 0) {
        return fail(w, IMP_ERR_INVALID, "the ranks' maximum failed");
    }
    imp_status st = !(moved <= 0.5 * m->skin) ? update(w, m) : exchange(w, m);
    m->st.domain_seconds += imp_profile_now() - t0 - (m->st.comm_seconds - c0);
    if (st != IMP_OK && m->comm.abort != NULL) {
        m->comm.abort(m->comm.ctx, w->data.error);  /* the other ranks wait for this one */
    }
    return st;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

imp_status imp_dem_domain_attach(imp_world *w, const imp_dem_comm *comm, int axis, double skin)
{
    imp_status st = imp_dem_sync(w);
    if (st != IMP_OK) {
        return st;
    }
    imp_dem *d = w->dem;
    if (d->domain != NULL) {
        return fail(w, IMP_ERR_INVALID, "the scene is already decomposed");
    }
    if (comm == NULL || comm->size < 1 || comm->rank < 0 || comm->rank >= comm->size
        || comm->sendrecv == NULL || comm->allreduce == NULL) {
        return fail(w, IMP_ERR_INVALID, "no message layer (impact.mpi)");
    }
    if (d->nclumps > 0 || d->cell.on) {
        return fail(w, IMP_ERR_INVALID, "clumps and periodic cells are not decomposed (one rank "
                    "only)");
    }
    if (axis < -1 || axis > 2 || !(skin < 0.0 || isfinite(skin))) {
        return fail(w, IMP_ERR_INVALID, "axis must be 0, 1, 2 or -1 (longest), skin a finite "
                    "number");
    }
    int nfree = 0;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    double rmax = 0.0, rmin = INFINITY;
    for (int i = 0; i < d->n; i++) {
        if (!free_sphere(d, i)) {
            continue;
        }
        nfree++;
        rmax = fmax(rmax, d->radius[i]);
        rmin = fmin(rmin, d->radius[i]);
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], d->pos[3 * i + k]);
            hi[k] = fmax(hi[k], d->pos[3 * i + k]);
        }
    }
    if (axis < 0) {
        axis = 0;
        for (int k = 1; k < 3; k++) {
            axis = hi[k] - lo[k] > hi[axis] - lo[axis] ? k : axis;
        }
    }
    imp_dem_domain *m = calloc(1, sizeof *m);
    double *c = malloc((size_t)(nfree > 0 ? nfree : 1) * sizeof *c);
    if (m == NULL || c == NULL
        || (m->bounds = malloc((size_t)(comm->size + 1) * sizeof *m->bounds)) == NULL
        || (m->role = malloc((size_t)w->model.nslots)) == NULL) {
        free(c);
        imp_dem_domain_free(m);
        return fail(w, IMP_ERR_NOMEM, "out of memory");
    }
    m->comm = *comm;
    m->axis = axis;
    double verlet = d->p.verlet >= 0.0 ? d->p.verlet : (isfinite(rmin) ? -d->p.verlet * rmin : 0.0);
    m->skin = skin >= 0.0 ? skin : rmax;
    m->ghost = 2.0 * d->p.interaction_radius * rmax + m->skin + verlet;
    /* slabs of equal counts: cut at the quantiles of the free spheres' coordinates */
    int nc = 0;
    for (int i = 0; i < d->n; i++) {
        if (free_sphere(d, i)) {
            c[nc++] = d->pos[3 * i + axis];
        }
    }
    qsort(c, (size_t)nc, sizeof *c, cmp_double);
    m->bounds[0] = -INFINITY;
    m->bounds[comm->size] = INFINITY;
    for (int k = 1; k < comm->size; k++) {
        int j = (int)((long)k * nc / comm->size);
        m->bounds[k] = j > 0 && j < nc ? 0.5 * (c[j - 1] + c[j]) : (nc > 0 ? c[nc - 1] : 0.0);
    }
    free(c);
    for (int k = 1; k + 1 < comm->size; k++) {
        if (!(m->bounds[k + 1] - m->bounds[k] >= 2.0 * m->ghost)) {
            char msg[240];
            snprintf(msg, sizeof msg, "%d ranks cut the scene into slabs %g m thick along axis %d, "
                     "thinner than twice the ghost width %g m (2 f r_max + skin + verlet): use "
                     "fewer ranks", comm->size, m->bounds[k + 1] - m->bounds[k], axis, m->ghost);
            imp_dem_domain_free(m);
            return fail(w, IMP_ERR_INVALID, msg);
        }
    }
    m->nslots = w->model.nslots;
    memset(m->role, IMP_DEM_SHARED, (size_t)m->nslots);
    for (int i = 0; i < d->n; i++) {
        if (free_sphere(d, i)) {
            double x = d->pos[3 * i + axis];
            m->role[d->slot[i]] = in_slab(m, comm->rank, x, 0.0) ? IMP_DEM_OWNED
                                  : (in_slab(m, comm->rank, x, m->ghost) ? IMP_DEM_GHOST : IMP_DEM_AWAY);
        }
    }
    m->st.rank = comm->rank;
    m->st.size = comm->size;
    m->st.axis = axis;
    m->st.lo = m->bounds[comm->rank];
    m->st.hi = m->bounds[comm->rank + 1];
    m->st.ghost = m->ghost;
    m->st.skin = m->skin;
    m->st.updates = 1;
    m->dirty = 1;
    d->domain = m;
    st = imp_dem_sync(w);
    if (st == IMP_OK) {
        st = relist(w, m, NULL);
    }
    return st;
}

void imp_dem_domain_stats_of(const imp_dem *d, imp_dem_domain_stats *out)
{
    if (d->domain == NULL) {
        memset(out, 0, sizeof *out);
        out->size = 1;
        out->lo = -INFINITY;
        out->hi = INFINITY;
        for (int i = 0; i < d->n; i++) {
            out->owned += free_sphere(d, i);
        }
        return;
    }
    *out = d->domain->st;
}

int imp_dem_domain_allreduce(const imp_dem *d, double *v, int n, int op)
{
    if (d->domain == NULL) {
        return 0;
    }
    return allreduce(d->domain, v, n, op);
}

imp_dem_energy imp_dem_domain_energy(const imp_dem *d, double dt)
{
    imp_dem_energy e = imp_dem_energy_now(d, dt);
    const imp_dem_domain *m = d->domain;
    if (m == NULL) {
        return e;
    }
    /* imp_dem_energy_now counted every particle and interaction: again with the shares */
    e.kinetic = 0.0;
    for (int i = 0; i < d->n; i++) {
        if (m->weight[i] != 1.0 || d->fixed[i]) {
            continue;
        }
        const double *v = d->vel + 3 * i, *om = d->angvel + 3 * i;
        e.kinetic += 0.5 * d->mass[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        e.kinetic += 0.5 / d->inv_inertia[i] * (om[0] * om[0] + om[1] * om[1] + om[2] * om[2]);
    }
    e.elastic = imp_dem_springs_energy(d, m->weight, dt);
    return e;
}

int imp_dem_domain_saved_of(const imp_dem *d, imp_dem_domain_saved *out)
{
    const imp_dem_domain *m = d->domain;
    if (m == NULL) {
        return -1;
    }
    memset(out, 0, sizeof *out);
    out->axis = m->axis;
    out->size = m->comm.size;
    out->rank = m->comm.rank;
    out->skin = m->skin;
    out->ghost = m->ghost;
    out->bounds = m->bounds;
    out->roles = m->role;
    out->nroles = m->nslots;
    out->refs = m->ref;
    out->nrefs = d->n;
    out->updates = m->st.updates;
    out->migrated = m->st.migrated;
    out->steps = m->st.steps;
    return 0;
}

imp_status imp_dem_domain_restore(imp_world *w, const imp_dem_comm *comm,
                                  const imp_dem_domain_saved *s)
{
    imp_status st = imp_dem_sync(w);
    if (st != IMP_OK) {
        return st;
    }
    imp_dem *d = w->dem;
    if (d->domain != NULL) {
        return fail(w, IMP_ERR_INVALID, "the scene is already decomposed");
    }
    if (comm == NULL || comm->size != s->size || comm->rank != s->rank) {
        char msg[200];
        snprintf(msg, sizeof msg, "the scene was saved by rank %d of %d, loaded by rank %d of %d "
                 "(load it on as many ranks as saved it)", s->rank, s->size,
                 comm != NULL ? comm->rank : 0, comm != NULL ? comm->size : 1);
        return fail(w, IMP_ERR_INVALID, msg);
    }
    if (s->nroles != w->model.nslots || s->axis < 0 || s->axis > 2 || !(s->skin >= 0.0)
        || !(s->ghost > 0.0)) {
        return fail(w, IMP_ERR_INVALID, "the saved decomposition does not fit the scene");
    }
    imp_dem_domain *m = calloc(1, sizeof *m);
    if (m == NULL || (m->bounds = malloc((size_t)(s->size + 1) * sizeof *m->bounds)) == NULL
        || (m->role = malloc((size_t)s->nroles)) == NULL) {
        imp_dem_domain_free(m);
        return fail(w, IMP_ERR_NOMEM, "out of memory");
    }
    m->comm = *comm;
    m->axis = s->axis;
    m->skin = s->skin;
    m->ghost = s->ghost;
    m->nslots = s->nroles;
    memcpy(m->bounds, s->bounds, (size_t)(s->size + 1) * sizeof *m->bounds);
    for (int k = 0; k < s->nroles; k++) {
        if (s->roles[k] > IMP_DEM_SHARED) {
            imp_dem_domain_free(m);
            return fail(w, IMP_ERR_INVALID, "the saved decomposition has a bad role");
        }
        m->role[k] = s->roles[k];
    }
    m->st.rank = comm->rank;
    m->st.size = comm->size;
    m->st.axis = s->axis;
    m->st.lo = m->bounds[comm->rank];
    m->st.hi = m->bounds[comm->rank + 1];
    m->st.ghost = m->ghost;
    m->st.skin = m->skin;
    m->st.updates = s->updates;
    m->st.migrated = s->migrated;
    m->st.steps = s->steps;
    m->dirty = 1;
    d->domain = m;
    st = imp_dem_sync(w);
    if (st != IMP_OK) {
        return st;
    }
    if (s->nrefs != d->n) {
        return fail(w, IMP_ERR_INVALID, "the saved decomposition does not fit the scene");
    }
    if ((m->ref_slot = malloc((size_t)m->nslots * sizeof *m->ref_slot)) == NULL) {
        return fail(w, IMP_ERR_NOMEM, "out of memory");
    }
    for (int i = 0; i < d->n; i++) {
        m->ref_slot[d->slot[i]] = s->refs[i];
    }
    return relist(w, m, m->ref_slot);
}

imp_status imp_dem_domain_expose(imp_world *w, int all)
{
    imp_dem *d = w->dem;
    imp_dem_domain *m = d != NULL ? d->domain : NULL;
    if (m == NULL || (all != 0) == m->all) {
        return IMP_OK;
    }
    if (all) {
        if (m->ref_slot == NULL && (m->ref_slot = malloc((size_t)m->nslots * sizeof *m->ref_slot)) == NULL) {
            return fail(w, IMP_ERR_NOMEM, "out of memory");
        }
        for (int i = 0; i < d->n; i++) {
            m->ref_slot[d->slot[i]] = m->ref[i];
        }
        m->all = 1;
        m->dirty = 1;
        d->newton_skip = NULL;
        d->pair_w = NULL;
        return imp_dem_sync(w);
    }
    m->all = 0;
    m->dirty = 1;
    imp_status st = imp_dem_sync(w);
    st = st == IMP_OK ? relist(w, m, m->ref_slot) : st;
    if (st != IMP_OK && m->comm.abort != NULL) {
        m->comm.abort(m->comm.ctx, w->data.error);
    }
    return st;
}
