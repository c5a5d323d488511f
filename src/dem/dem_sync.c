/* dem_sync.c: the dem strategy's particles as flat arrays fed from the world's bodies:
   rebuilt when bodies are added or removed (interactions renumbered), loaded when the state was
   edited between steps, stored back after a good step. */
#include "dem.h"
#include "dem_domain.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "quat.h"
#include "scalar.h"
#include "shape3d.h"
#include "world_internal.h"

#define GROW(ptr, count)                                                   \
    do {                                                                   \
        void *np_ = realloc((ptr), (size_t)(count) * sizeof *(ptr));       \
        if (np_ == NULL) {                                                 \
            return -1;                                                     \
        }                                                                  \
        (ptr) = np_;                                                       \
    } while (0)

static int reserve_particles(imp_dem *d, int n)
{
    if (n <= d->cap) {
        return 0;
    }
    int cap = n < 16 ? 16 : n;
    GROW(d->slot, cap);
    GROW(d->kind, cap);
    GROW(d->fixed, cap);
    GROW(d->pos, 3 * cap);
    GROW(d->vel, 3 * cap);
    GROW(d->angvel, 3 * cap);
    GROW(d->quat, 4 * cap);
    GROW(d->pos_prev, 3 * cap);
    GROW(d->vel_prev, 3 * cap);
    GROW(d->angvel_prev, 3 * cap);
    GROW(d->quat_prev, 4 * cap);
    GROW(d->spin_same, cap / 8 + 1);
    GROW(d->force_mark, cap / 8 + 1);
    GROW(d->force, 3 * cap);
    GROW(d->torque, 3 * cap);
    GROW(d->radius, cap);
    GROW(d->wall_n, 3 * cap);
    GROW(d->facet, cap);
    GROW(d->clump_of, cap);
    GROW(d->member, cap);
    GROW(d->moff, 3 * cap);
    GROW(d->inv_mass, cap);
    GROW(d->inv_inertia, cap);
    GROW(d->mass, cap);
    GROW(d->young, cap);
    GROW(d->lo, 3 * cap);
    GROW(d->hi, 3 * cap);
    GROW(d->xr, 4 * cap);
    d->cap = cap;
    return 0;
}

static imp_status sync_error(imp_world *w, imp_status st, const char *msg, int slot)
{
    snprintf(w->data.error, sizeof w->data.error, "dem strategy: %s (body #%d)", msg, slot);
    w->data.nerror_bodies = 0;
    if (slot > 0) {
        w->data.error_bodies[w->data.nerror_bodies++] = slot;
    }
    return st;
}

/* the wall's outward normal in the world frame */
static void wall_normal(const imp_convex3d *c, const double *q, double out[3])
{
    imp_vec3 n = imp_q_rotate(imp_q(q[0], q[1], q[2], q[3]),
                              imp_v3(c->core[0], c->core[1], c->core[2]));
    out[0] = n.x, out[1] = n.y, out[2] = n.z;
}

/* the particles of clump body s from particle i on (clump index c); returns the next index */
static int add_clump(imp_world *w, imp_dem *d, int s, int i, int c)
{
    const imp_body *b = &w->model.bodies[s];
    const double *cen, *rad;
    int k = imp_dem_clump_members(b->shape, &cen, &rad, NULL);
    imp_dem_clump *C = &d->clumps[c];
    memset(C, 0, sizeof *C);
    C->slot = s;
    C->first = i;
    C->count = k;
    C->fixed = b->fixed != 0;
    C->mass = b->mass;
    C->inv_mass = b->inv_mass;
    C->density = b->mass / b->shape->measure;
    C->inertia = b->inertia;
    C->inv_inertia = b->inv_inertia;
    double young = b->material >= 0 ? w->model.materials.items[b->material].E : d->p.young;
    for (int m = 0; m < k; m++, i++) {
        d->slot[i] = s;
        d->kind[i] = IMP_DEM_SPHERE;
        d->facet[i] = -1;
        d->clump_of[i] = c;
        d->member[i] = m;
        for (int a = 0; a < 3; a++) {
            d->moff[3 * i + a] = cen[3 * m + a] - b->shape->centroid[a];
        }
        d->fixed[i] = (unsigned char)(b->fixed != 0);
        d->radius[i] = rad[m];
        /* the clump's mass: what a contact law sees as the mass behind a member */
        d->mass[i] = b->mass;
        d->inv_mass[i] = b->inv_mass;
        d->inv_inertia[i] = 0.0;  /* members are not integrated on their own */
        d->young[i] = young;
    }
    return i;
}

/* the new index of the particle that was member m of the body at slot s, or -1 */
static int renumber(const imp_world *w, const imp_dem *d, const int *map, int s, int m)
{
    if (s >= w->model.nslots || map[s] < 0) {
        return -1;
    }
    int first = map[s];
    int c = d->clump_of[first];
    int count = c >= 0 ? d->clumps[c].count : 1;
    return m < count ? first + m : -1;
}

/* Rebuilds the particles from the world's bodies, keeping the interactions of bodies that
   remain (renumbered). O(nslots + interactions). */
static imp_status rebuild(imp_world *w, imp_dem *d)
{
    int count = 0, nclumps = 0;
    for (int s = 1; s < w->model.nslots; s++) {
        if (w->model.bodies[s].active && imp_dem_domain_present(d->domain, s)) {
            int k = imp_dem_clump_members(w->model.bodies[s].shape, NULL, NULL, NULL);
            count += k > 0 ? k : 1;
            nclumps += k > 0;
        }
    }
    /* old particle -> (slot, member): to renumber the interactions kept */
    int *old_slot = NULL;
    if (d->built && d->n > 0) {
        old_slot = malloc((size_t)d->n * 2 * sizeof *old_slot);
        if (old_slot == NULL) {
            return sync_error(w, IMP_ERR_NOMEM, "out of memory", 0);
        }
        memcpy(old_slot, d->slot, (size_t)d->n * sizeof *old_slot);
        memcpy(old_slot + d->n, d->member, (size_t)d->n * sizeof *old_slot);
    }
    if (nclumps > d->clump_cap) {
        imp_dem_clump *cl = realloc(d->clumps, (size_t)nclumps * sizeof *cl);
        if (cl == NULL) {
            free(old_slot);
            return sync_error(w, IMP_ERR_NOMEM, "out of memory", 0);
        }
        d->clumps = cl;
        d->clump_cap = nclumps;
    }
    int *map = realloc(d->slot_to_particle, (size_t)w->model.nslots * sizeof *map);
    if (reserve_particles(d, count) != 0 || map == NULL) {
        free(old_slot);
        if (map != NULL) {
            d->slot_to_particle = map;
        }
        return sync_error(w, IMP_ERR_NOMEM, "out of memory", 0);
    }
    d->slot_to_particle = map;
    d->nslot_map = w->model.nslots;
    int nfacets = 0;
    for (int s = 1; s < w->model.nslots; s++) {
        nfacets += w->model.bodies[s].active && imp_dem_is_facet(w->model.bodies[s].shape);
    }
    double *fv = realloc(d->facet_v, (size_t)(nfacets > 0 ? nfacets : 1) * 9 * sizeof *fv);
    if (fv == NULL) {
        free(old_slot);
        return sync_error(w, IMP_ERR_NOMEM, "out of memory", 0);
    }
    d->facet_v = fv;
    d->nfacets = nfacets;
    int i = 0, nf = 0, nc = 0;
    for (int s = 0; s < w->model.nslots; s++) {
        map[s] = -1;
        const imp_body *b = &w->model.bodies[s];
        if (s == 0 || !b->active || !imp_dem_domain_present(d->domain, s)) {
            continue;  /* (several ranks: a body away from this rank's slab) */
        }
        if (imp_dem_clump_members(b->shape, NULL, NULL, NULL) > 0) {
            map[s] = i;
            i = add_clump(w, d, s, i, nc++);
            continue;
        }
        const imp_convex3d *c = b->shape != NULL ? imp_shape3d_data(b->shape) : NULL;
        int facet = c != NULL && imp_dem_is_facet(b->shape);
        if (c == NULL || (c->kind != IMP_S3_SPHERE && c->kind != IMP_S3_WALL && !facet)) {
            free(old_slot);
            return sync_error(w, IMP_ERR_INVALID, "only spheres, walls and facets take part, and "
                              "clumps of spheres (impact.shape3d.sphere, impact.shape3d.wall, "
                              "impact.dem.facet, impact.dem.clump)", s);
        }
        if (c->kind != IMP_S3_SPHERE && !b->fixed) {
            free(old_slot);
            return sync_error(w, IMP_ERR_INVALID, "a wall or facet must be fixed", s);
        }
        map[s] = i;
        d->slot[i] = s;
        d->kind[i] = facet ? IMP_DEM_FACET : (c->kind == IMP_S3_WALL ? IMP_DEM_WALL : IMP_DEM_SPHERE);
        d->facet[i] = facet ? nf++ : -1;
        d->clump_of[i] = -1;
        d->member[i] = 0;
        d->fixed[i] = (unsigned char)(b->fixed != 0);
        d->radius[i] = c->kind == IMP_S3_SPHERE ? c->params[0] : 0.0;
        d->mass[i] = b->mass;
        d->inv_mass[i] = b->inv_mass;
        /* a sphere's inertia is isotropic: one number */
        d->inv_inertia[i] = b->fixed ? 0.0 : 1.0 / b->inertia.m[0][0];
        d->young[i] = b->material >= 0 ? w->model.materials.items[b->material].E : d->p.young;
        i++;
    }
    int old_n = d->n;
    d->n = count;
    d->nclumps = nc;
    /* particle indices changed: forces of this step so far are void */
    if (count > 0) {  /* an empty world has no arrays (memset of NULL is undefined) */
        imp_dem_reset_forces(d);
    }
    /* keep the interactions between bodies that remain, renumbered */
    int kept = 0;
    if (old_slot != NULL) {
        for (int k = 0; k < d->ninter; k++) {
            imp_dem_inter I = d->inter[k];
            int na = renumber(w, d, map, old_slot[I.a], old_slot[old_n + I.a]);
            int nb = renumber(w, d, map, old_slot[I.b], old_slot[old_n + I.b]);
            if (na >= 0 && nb >= 0) {
                I.a = na;
                I.b = nb;
                int *h = d->hot + 3 * kept;
                h[0] = na, h[1] = nb, h[2] = I.real ? imp_dem_hot_class(d, na) : 0;
                imp_dem_hot_touch(d, kept);
                d->inter[kept++] = I;
            }
        }
    }
    free(old_slot);
    d->ninter = kept;
    d->npending = 0;
    for (int k = 0; k < kept; k++) {
        d->npending += d->inter[k].pending;
    }
    d->pend_n = 0;
    d->pend_scan = d->npending > 0;  /* renumbered: the collider scans everything once */
    imp_dem_map_rebuild(d);
    imp_dem_bins_free(d->bp);  /* a fresh sweep: its begin events meet the kept interactions */
    d->bp = NULL;
    d->bodies_version = w->model.bodies_version;
    d->pwave_ok = 0;  /* radii, masses and moduli changed: imp_dem_check_dt computes it again */
    d->derived = 0;   /* and so may the interactions' constants (dem_law.c) */
    d->built = 1;
    return IMP_OK;
}

/* particle i's position, orientation and velocities from the world's state vector */
static void load_one(imp_world *w, imp_dem *d, int i)
{
    const double *y = w->data.y + (size_t)d->slot[i] * IMP_STRIDE_3D;
    for (int k = 0; k < 3; k++) {
        d->pos[3 * i + k] = y[k];
        d->vel[3 * i + k] = y[IMP_VEL_3D + k];
        d->angvel[3 * i + k] = y[IMP_VEL_3D + 3 + k];
    }
    for (int k = 0; k < 4; k++) {
        d->quat[4 * i + k] = y[3 + k];
    }
    if (d->kind[i] == IMP_DEM_WALL) {
        const imp_convex3d *c = imp_shape3d_data(w->model.bodies[d->slot[i]].shape);
        wall_normal(c, d->quat + 4 * i, d->wall_n + 3 * i);
    } else if (d->kind[i] == IMP_DEM_FACET) {  /* vertices: position + R (v - centroid) */
        const imp_shape *sh = w->model.bodies[d->slot[i]].shape;
        const imp_convex3d *c = imp_shape3d_data(sh);
        imp_quat q = imp_q(y[3], y[4], y[5], y[6]);
        double *out = d->facet_v + 9 * d->facet[i];
        for (int v = 0; v < 3; v++) {
            imp_vec3 p = imp_q_rotate(q, imp_v3(c->vert[3 * v] - sh->centroid[0],
                                                c->vert[3 * v + 1] - sh->centroid[1],
                                                c->vert[3 * v + 2] - sh->centroid[2]));
            out[3 * v] = y[0] + p.x, out[3 * v + 1] = y[1] + p.y, out[3 * v + 2] = y[2] + p.z;
        }
    }
}

/* Reloads the particles whose state in the world differs from the dem's copy (edited from
   outside since the last store), all of them when all is set. O(n), streaming. */
static void load(imp_world *w, imp_dem *d, int all)
{
    int redo = all || w->model.def.dt != d->clump_dt;
    if (d->n > 0) {  /* spins and orientations may be written below: no group known still */
        memset(d->spin_same, 0, (size_t)d->n / 8 + 1);
    }
    d->clump_dt = w->model.def.dt;
    for (int c = 0; c < d->nclumps; c++) {  /* clumps: their own copy, then the members */
        imp_dem_clump *C = &d->clumps[c];
        const double *y = w->data.y + (size_t)C->slot * IMP_STRIDE_3D;
        int same = !redo;
        for (int k = 0; k < 3 && same; k++) {
            same = y[k] == C->pos[k] && y[7 + k] == C->vel[k] && y[10 + k] == C->angvel[k];
        }
        for (int k = 0; k < 4 && same; k++) {
            same = y[3 + k] == C->quat[k];
        }
        if (!same) {
            imp_dem_clump_load(d, c, y, w->model.def.dt);
        }
    }
    for (int i = 0; i < d->n; i++) {
        if (d->clump_of[i] >= 0) {
            continue;
        }
        if (all) {  /* after a rebuild the copy is not filled yet: do not compare with it */
            load_one(w, d, i);
            continue;
        }
        /* bitwise comparison of the 13 numbers, in four blocks (memcmp of a few constant
           bytes is inlined as wide loads) */
        const double *y = w->data.y + (size_t)d->slot[i] * IMP_STRIDE_3D;
        int same = memcmp(y, d->pos + 3 * i, 3 * sizeof *y) == 0
                   && memcmp(y + 3, d->quat + 4 * i, 4 * sizeof *y) == 0
                   && memcmp(y + IMP_VEL_3D, d->vel + 3 * i, 3 * sizeof *y) == 0
                   && memcmp(y + IMP_VEL_3D + 3, d->angvel + 3 * i, 3 * sizeof *y) == 0;
        if (!same) {
            load_one(w, d, i);
        }
    }
}

/* One particle's 13 numbers (position, orientation, velocity, spin: contiguous in its slot)
   into its slot's state y. With nt (x86-64 only), by non-temporal stores (SSE2, part of
   x86-64): the slots of consecutive particles are consecutive, so the write-combining buffers
   fill whole cache lines, which are written without being read first (an ordinary store reads
   each line of the state vector before writing it: at N = 100,000, where the state vector is
   not in cache, the store takes 30 % less time; below some 10,000 particles the state stays in
   cache and ordinary stores are faster). Six 16-byte stores and one of 8 bytes (first when y is
   8 bytes off a 16-byte boundary, last otherwise): the store's instructions 38 % fewer than
   with thirteen 8-byte ones (N = 10,000 falling). The loads and stores are moves: the same
   bytes. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <emmintrin.h>
static inline void put_particle_nt(double *y, const double *p, const double *q, const double *v,
                                   const double *w)
{
    long long s;
    if (((uintptr_t)(void *)y & 15) == 0) {
        _mm_stream_pd(y, _mm_loadu_pd(p));                          /* p0 p1 */
        _mm_stream_pd(y + 2, _mm_loadh_pd(_mm_load_sd(p + 2), q));  /* p2 q0 */
        _mm_stream_pd(y + 4, _mm_loadu_pd(q + 1));                  /* q1 q2 */
        _mm_stream_pd(y + 6, _mm_loadh_pd(_mm_load_sd(q + 3), v));  /* q3 v0 */
        _mm_stream_pd(y + 8, _mm_loadu_pd(v + 1));                  /* v1 v2 */
        _mm_stream_pd(y + 10, _mm_loadu_pd(w));                     /* w0 w1 */
        memcpy(&s, w + 2, sizeof s);
        _mm_stream_si64((long long *)(void *)(y + 12), s);          /* w2 */
    } else {
        memcpy(&s, p, sizeof s);
        _mm_stream_si64((long long *)(void *)y, s);                 /* p0 */
        _mm_stream_pd(y + 1, _mm_loadu_pd(p + 1));                  /* p1 p2 */
        _mm_stream_pd(y + 3, _mm_loadu_pd(q));                      /* q0 q1 */
        _mm_stream_pd(y + 5, _mm_loadu_pd(q + 2));                  /* q2 q3 */
        _mm_stream_pd(y + 7, _mm_loadu_pd(v));                      /* v0 v1 */
        _mm_stream_pd(y + 9, _mm_loadh_pd(_mm_load_sd(v + 2), w));  /* v2 w0 */
        _mm_stream_pd(y + 11, _mm_loadu_pd(w + 1));                 /* w1 w2 */
    }
}
#define STORE_FENCE() _mm_sfence()
#define HAVE_PUT_PARTICLE_NT 1
#else
#define STORE_FENCE() ((void)0)
#define HAVE_PUT_PARTICLE_NT 0
#endif

_Static_assert(IMP_STRIDE_3D == 13 && IMP_VEL_3D == 7, "a slot: x, q, v, w in 13 numbers");

static inline void store_range(double *state, const imp_dem *d, int i0, int i1, int nt)
{
    (void)nt;
    const int *slot = d->slot, *clump_of = d->clump_of;
    const unsigned char *fixed = d->fixed;
    const double *pos = d->pos, *quat = d->quat, *vel = d->vel, *angvel = d->angvel;
    for (int i = i0; i < i1; i++) {
        if (fixed[i] | (clump_of[i] >= 0)) {
            continue;
        }
        double *y = state + (size_t)slot[i] * IMP_STRIDE_3D;
#if HAVE_PUT_PARTICLE_NT
        if (nt) {
            put_particle_nt(y, pos + 3 * i, quat + 4 * i, vel + 3 * i, angvel + 3 * i);
            continue;
        }
#endif
        memcpy(y, pos + 3 * i, 3 * sizeof *y);
        memcpy(y + 3, quat + 4 * i, 4 * sizeof *y);
        memcpy(y + IMP_VEL_3D, vel + 3 * i, 3 * sizeof *y);
        memcpy(y + IMP_VEL_3D + 3, angvel + 3 * i, 3 * sizeof *y);
    }
}

/* The particles' state (not the clumps') into the world's: the lazy store (the world's
   data.stale). O(n). The arrays in locals: the stores into the state vector could alias d's
   fields, which would then be reloaded for every particle. Each particle has its own slot: over
   the threads when there are many (the same bytes either way). */
static void store_particles(imp_world *w)
{
    imp_dem *d = w->dem;
    const int n = d->n, *slot = d->slot;
    const double *pos = d->pos;
    double *state = w->data.y;
    enum { CHUNK = 4096 };
    const int nchunks = (n + CHUNK - 1) / CHUNK;
    if (n < 8192) {
        store_range(state, d, 0, n, 0);
    } else {
#ifdef _OPENMP
        _Pragma("omp parallel for schedule(static)")
#endif
        for (int c = 0; c < nchunks; c++) {
            store_range(state, d, c * CHUNK, c * CHUNK + CHUNK < n ? c * CHUNK + CHUNK : n, 1);
            STORE_FENCE();  /* this thread's non-temporal stores done before any later access */
        }
    }
    for (int j = 0; j < d->nkin; j++) {  /* moving fixed bodies: their positions */
        int i = d->kin[j];
        memcpy(state + (size_t)slot[i] * IMP_STRIDE_3D, pos + 3 * i, 3 * sizeof *state);
    }
}

/* The clumps' state into the world's (after each good step: a failing step changes the clumps'
   own copies in place, and the world's is the last good one). O(clumps). */
static void store_clumps(imp_world *w)
{
    const imp_dem *d = w->dem;
    for (int c = 0; c < d->nclumps; c++) {
        const imp_dem_clump *C = &d->clumps[c];
        if (C->fixed) {
            continue;
        }
        double *y = w->data.y + (size_t)C->slot * IMP_STRIDE_3D;
        for (int k = 0; k < 3; k++) {
            y[k] = C->pos[k];
            y[IMP_VEL_3D + k] = C->vel[k];
            y[IMP_VEL_3D + 3 + k] = C->angvel[k];
        }
        for (int k = 0; k < 4; k++) {
            y[3 + k] = C->quat[k];
        }
    }
}

void imp_dem_store(imp_world *w)
{
    w->data.stale = NULL;
    store_particles(w);
    store_clumps(w);
}

void imp_dem_step_good(imp_world *w)
{
    const imp_dem *d = w->dem;
    if (d->domain != NULL || d->cell.on) {  /* their own passes read and edit the world's state
                                               between steps: kept as before */
        imp_dem_store(w);
        return;
    }
    store_clumps(w);
    w->data.stale = store_particles;
}

void imp_dem_step_failed(imp_world *w)
{
    imp_dem *d = w->dem;
    imp_dem_swap_sets(d);  /* the state before Newton, which was the last good step's */
    imp_world_sync(w);     /* a store still owed: that state's, now back in place */
    d->built = 0;  /* reload the world's (last good) state at the next step */
}

/* The fixed particles (not clump members) whose velocity is not zero: moved by Newton with it.
   0, or -1 when out of memory. O(n), after a load. */
static int kinematic_list(imp_dem *d)
{
    if (d->kin_cap < d->n) {
        int *k = realloc(d->kin, (size_t)d->n * sizeof *k);
        if (k == NULL) {
            return -1;
        }
        d->kin = k;
        d->kin_cap = d->n;
    }
    d->nkin = 0;
    for (int i = 0; i < d->n; i++) {
        const double *v = d->vel + 3 * i;
        if (d->fixed[i] && d->clump_of[i] < 0 && (v[0] != 0.0 || v[1] != 0.0 || v[2] != 0.0)) {
            d->kin[d->nkin++] = i;
        }
    }
    return 0;
}

/* the intact bonds, counted again (after a rebuild dropped interactions) */
static void count_bonds(imp_dem *d)
{
    d->nbonds = 0;
    for (int k = 0; k < d->ninter; k++) {
        d->nbonds += d->inter[k].bonded;
    }
}

static imp_status sync(imp_world *w, int edits)
{
    if (w->model.def.dim != 3) {
        return sync_error(w, IMP_ERR_INVALID, "the dem strategy needs a 3D world", 0);
    }
    if (w->dem == NULL && (w->dem = imp_dem_new()) == NULL) {
        return sync_error(w, IMP_ERR_NOMEM, "out of memory", 0);
    }
    imp_dem *d = w->dem;
    d->world = w;  /* the collision filters (dem_filter.c) */
    int fresh = 0;
    if (!d->built || d->bodies_version != w->model.bodies_version
        || imp_dem_domain_dirty(d->domain)) {
        imp_world_sync(w);  /* (the world's setters sync already: a guard) */
        imp_status st = rebuild(w, d);
        if (st != IMP_OK) {
            d->built = 0;
            return st;
        }
        fresh = 1;
        count_bonds(d);
    }
    /* reload what was edited since the last store (everything after a rebuild); only when
       something may have been edited (the world's state version moved) or dt changed (the
       clumps' angular momenta refer to the half step) */
    if (fresh || (edits && (w->data.state_version != d->state_version || w->model.def.dt != d->clump_dt))) {
        imp_world_sync(w);  /* load compares the world's state with the copy */
        load(w, d, fresh);
        d->state_version = w->data.state_version;
        d->boxes_stale = 1;  /* walls and facets may have moved too */
        if (kinematic_list(d) != 0) {
            return sync_error(w, IMP_ERR_NOMEM, "out of memory", 0);
        }
    }
    return IMP_OK;
}

imp_status imp_dem_sync(imp_world *w) { return sync(w, 1); }
imp_status imp_dem_sync_bodies(imp_world *w) { return sync(w, 0); }
