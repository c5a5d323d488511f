/* dem.c: the dem strategy's state: particles as flat arrays fed from the world's bodies, the
   interaction container (dense array + open-addressing map keyed by the unordered pair), and
   the scene-wide queries (P-wave time step, unbalanced force, energies). */
#include "dem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quat.h"
#include "scalar.h"
#include "shape3d.h"
#include "world.h"

int imp_dem_simd_mode(atomic_int *mode, int (*available)(void))
{
    int m = atomic_load_explicit(mode, memory_order_relaxed);
    if (m < 0) {
        const char *env = getenv("IMPACT_DEM_SIMD");
        m = available() && !(env != NULL && strcmp(env, "0") == 0);
        atomic_store_explicit(mode, m, memory_order_relaxed);
    }
    return m;
}

imp_dem_params imp_dem_default_params(void)
{
    imp_dem_params p;
    memset(&p, 0, sizeof p);
    p.damping = 0.2;
    p.verlet = -0.1;
    p.interaction_radius = 1.0;
    p.geometry = IMP_DEM_GEOM_SPHERE_SPHERE | IMP_DEM_GEOM_WALL_SPHERE | IMP_DEM_GEOM_FACET_SPHERE;
    p.law = IMP_DEM_LAW_LINEAR;
    p.never_erase = 0;
    p.young = 1e9;          /* Yade's FrictMat defaults */
    p.ks_ratio = 0.25;
    p.friction_angle = 0.5;
    p.poisson = 0.3;
    p.en = 1.0;
    return p;
}

imp_dem *imp_dem_new(void)
{
    imp_dem *d = calloc(1, sizeof *d);
    if (d != NULL) {
        d->p = imp_dem_default_params();
    }
    return d;
}

static void free_particles(imp_dem *d)
{
    free(d->slot);
    free(d->kind);
    free(d->fixed);
    free(d->pos);
    free(d->vel);
    free(d->angvel);
    free(d->quat);
    free(d->force);
    free(d->torque);
    free(d->radius);
    free(d->wall_n);
    free(d->facet);
    free(d->facet_v);
    free(d->clump_of);
    free(d->member);
    free(d->moff);
    free(d->inv_mass);
    free(d->inv_inertia);
    free(d->mass);
    free(d->young);
    free(d->lo);
    free(d->hi);
    free(d->xr);
}

void imp_dem_free(imp_dem *d)
{
    if (d == NULL) {
        return;
    }
    free_particles(d);
    free(d->slot_to_particle);
    free(d->clumps);
    free(d->inter);
    free(d->hot);
    free(d->scratch);
    free(d->done);
    free(d->order);
    free(d->sorted);
    free(d->vw);
    free(d->map);
    free(d->pend);
    imp_bp3d_free(d->bp);
    free(d);
}

/* ---- the interaction map ------------------------------------------------------------------ */

static size_t pair_hash(int a, int b)
{
    unsigned lo = (unsigned)(a < b ? a : b), hi = (unsigned)(a < b ? b : a);
    unsigned long long k = ((unsigned long long)lo << 32) | hi;
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k;
}

static int same_pair(const imp_dem_inter *I, int a, int b)
{
    return (I->a == a && I->b == b) || (I->a == b && I->b == a);
}

/* the map slot holding the pair, or the empty slot where it would go */
static size_t map_probe(const imp_dem *d, int a, int b)
{
    size_t mask = (size_t)d->map_cap - 1, h = pair_hash(a, b) & mask;
    while (d->map[h] != 0 && !same_pair(&d->inter[d->map[h] - 1], a, b)) {
        h = (h + 1) & mask;
    }
    return h;
}

static int map_grow(imp_dem *d)
{
    int cap = d->map_cap ? 2 * d->map_cap : 1024;
    int *m = calloc((size_t)cap, sizeof *m);
    if (m == NULL) {
        return -1;
    }
    free(d->map);
    d->map = m;
    d->map_cap = cap;
    for (int i = 0; i < d->ninter; i++) {
        d->map[map_probe(d, d->inter[i].a, d->inter[i].b)] = i + 1;
    }
    return 0;
}

int imp_dem_find(const imp_dem *d, int a, int b)
{
    if (d->map_cap == 0) {
        return -1;
    }
    return d->map[map_probe(d, a, b)] - 1;
}

int imp_dem_add_potential(imp_dem *d, int a, int b)
{
    if (2 * (d->ninter + 1) > d->map_cap && map_grow(d) != 0) {
        return -1;
    }
    if (d->ninter == d->inter_cap) {
        int cap = d->inter_cap ? 2 * d->inter_cap : 1024;
        imp_dem_inter *p = realloc(d->inter, (size_t)cap * sizeof *p);
        if (p == NULL) {
            return -1;
        }
        d->inter = p;
        int *h = realloc(d->hot, (size_t)cap * 3 * sizeof *h);
        if (h == NULL) {
            return -1;
        }
        d->hot = h;
        double *sc = realloc(d->scratch, (size_t)cap * IMP_DEM_SCRATCH * sizeof *sc);
        if (sc == NULL) {
            return -1;
        }
        d->scratch = sc;
        unsigned char *dn = realloc(d->done, (size_t)cap);
        if (dn == NULL) {
            return -1;
        }
        d->done = dn;
        int *od = realloc(d->order, (size_t)cap * sizeof *od);
        if (od == NULL) {
            return -1;
        }
        d->order = od;
        d->inter_cap = cap;
    }
    /* a wall is always the first of a wall/sphere pair; spheres in index order */
    int kind_a = d->kind[a], kind_b = d->kind[b];
    if (kind_b != IMP_DEM_SPHERE || (kind_a == kind_b && a > b)) {
        int t = a;
        a = b;
        b = t;
    }
    imp_dem_inter *I = &d->inter[d->ninter];
    memset(I, 0, sizeof *I);
    I->a = a;
    I->b = b;
    int *h = d->hot + 3 * d->ninter;
    h[0] = a, h[1] = b, h[2] = 0;
    d->map[map_probe(d, a, b)] = ++d->ninter;
    return d->ninter - 1;
}

/* removes map slot h, shifting back the entries of its probe run (linear probing deletion) */
static void map_delete(imp_dem *d, size_t h)
{
    size_t mask = (size_t)d->map_cap - 1;
    d->map[h] = 0;
    for (size_t j = (h + 1) & mask; d->map[j] != 0; j = (j + 1) & mask) {
        const imp_dem_inter *I = &d->inter[d->map[j] - 1];
        size_t home = pair_hash(I->a, I->b) & mask;
        /* the entry at j may move to h when h lies cyclically in [home, j) */
        if (((j - home) & mask) >= ((j - h) & mask)) {
            d->map[h] = d->map[j];
            d->map[j] = 0;
            h = j;
        }
    }
}

void imp_dem_erase(imp_dem *d, int index)
{
    imp_dem_inter *I = &d->inter[index];
    d->npending -= I->pending;
    map_delete(d, map_probe(d, I->a, I->b));
    int last = d->ninter - 1;
    if (index != last) {
        d->inter[index] = d->inter[last];
        memcpy(d->hot + 3 * index, d->hot + 3 * last, 3 * sizeof *d->hot);
        d->map[map_probe(d, d->inter[index].a, d->inter[index].b)] = index + 1;
    }
    d->ninter--;
}

void imp_dem_request_erase(imp_dem *d, int index)
{
    imp_dem_inter *I = &d->inter[index];
    if (!I->pending) {
        if (d->pend_n == d->pend_cap) {
            int cap = d->pend_cap ? 2 * d->pend_cap : 256;
            int *p = realloc(d->pend, (size_t)cap * 2 * sizeof *p);
            if (p != NULL) {
                d->pend = p;
                d->pend_cap = cap;
            }
        }
        if (d->pend_n < d->pend_cap) {
            d->pend[2 * d->pend_n] = I->a;
            d->pend[2 * d->pend_n + 1] = I->b;
            d->pend_n++;
        } else {
            d->pend_scan = 1;  /* out of memory: the collider scans everything */
        }
    }
    d->npending += !I->pending;
    I->real = 0;
    d->hot[3 * index + 2] = 0;
    I->pending = 1;
    I->un = 0.0;
    I->fn = 0.0;
    I->kn = I->ks = I->mu = 0.0;
    I->fs[0] = I->fs[1] = I->fs[2] = 0.0;
}

/* ---- particles from the world ------------------------------------------------------------- */

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
    snprintf(w->error, sizeof w->error, "dem strategy: %s (body #%d)", msg, slot);
    w->nerror_bodies = 0;
    if (slot > 0) {
        w->error_bodies[w->nerror_bodies++] = slot;
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
    const imp_body *b = &w->bodies[s];
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
    double young = b->material >= 0 ? w->materials.items[b->material].E : d->p.young;
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
    if (s >= w->nslots || map[s] < 0) {
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
    for (int s = 1; s < w->nslots; s++) {
        if (w->bodies[s].active) {
            int k = imp_dem_clump_members(w->bodies[s].shape, NULL, NULL, NULL);
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
    int *map = realloc(d->slot_to_particle, (size_t)w->nslots * sizeof *map);
    if (reserve_particles(d, count) != 0 || map == NULL) {
        free(old_slot);
        if (map != NULL) {
            d->slot_to_particle = map;
        }
        return sync_error(w, IMP_ERR_NOMEM, "out of memory", 0);
    }
    d->slot_to_particle = map;
    d->nslot_map = w->nslots;
    int nfacets = 0;
    for (int s = 1; s < w->nslots; s++) {
        nfacets += w->bodies[s].active && imp_dem_is_facet(w->bodies[s].shape);
    }
    double *fv = realloc(d->facet_v, (size_t)(nfacets > 0 ? nfacets : 1) * 9 * sizeof *fv);
    if (fv == NULL) {
        free(old_slot);
        return sync_error(w, IMP_ERR_NOMEM, "out of memory", 0);
    }
    d->facet_v = fv;
    d->nfacets = nfacets;
    int i = 0, nf = 0, nc = 0;
    for (int s = 0; s < w->nslots; s++) {
        map[s] = -1;
        const imp_body *b = &w->bodies[s];
        if (s == 0 || !b->active) {
            continue;
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
        d->young[i] = b->material >= 0 ? w->materials.items[b->material].E : d->p.young;
        i++;
    }
    int old_n = d->n;
    d->n = count;
    d->nclumps = nc;
    /* particle indices changed: forces of this step so far are void */
    if (count > 0) {  /* an empty world has no arrays (memset of NULL is undefined) */
        memset(d->force, 0, (size_t)count * 3 * sizeof *d->force);
        memset(d->torque, 0, (size_t)count * 3 * sizeof *d->torque);
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
    if (d->map_cap > 0) {
        memset(d->map, 0, (size_t)d->map_cap * sizeof *d->map);
        for (int k = 0; k < kept; k++) {
            d->map[map_probe(d, d->inter[k].a, d->inter[k].b)] = k + 1;
        }
    }
    imp_bp3d_free(d->bp);  /* a fresh sweep: its begin events meet the kept interactions */
    d->bp = NULL;
    d->bodies_version = w->bodies_version;
    d->built = 1;
    return IMP_OK;
}

/* particle i's position, orientation and velocities from the world's state vector */
static void load_one(imp_world *w, imp_dem *d, int i)
{
    const double *y = w->y + (size_t)d->slot[i] * IMP_STRIDE_3D;
    for (int k = 0; k < 3; k++) {
        d->pos[3 * i + k] = y[k];
        d->vel[3 * i + k] = y[IMP_VEL_3D + k];
        d->angvel[3 * i + k] = y[IMP_VEL_3D + 3 + k];
    }
    for (int k = 0; k < 4; k++) {
        d->quat[4 * i + k] = y[3 + k];
    }
    if (d->kind[i] == IMP_DEM_WALL) {
        const imp_convex3d *c = imp_shape3d_data(w->bodies[d->slot[i]].shape);
        wall_normal(c, d->quat + 4 * i, d->wall_n + 3 * i);
    } else if (d->kind[i] == IMP_DEM_FACET) {  /* vertices: position + R (v - centroid) */
        const imp_shape *sh = w->bodies[d->slot[i]].shape;
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
    int redo = all || w->def.dt != d->clump_dt;
    d->clump_dt = w->def.dt;
    for (int c = 0; c < d->nclumps; c++) {  /* clumps: their own copy, then the members */
        imp_dem_clump *C = &d->clumps[c];
        const double *y = w->y + (size_t)C->slot * IMP_STRIDE_3D;
        int same = !redo;
        for (int k = 0; k < 3 && same; k++) {
            same = y[k] == C->pos[k] && y[7 + k] == C->vel[k] && y[10 + k] == C->angvel[k];
        }
        for (int k = 0; k < 4 && same; k++) {
            same = y[3 + k] == C->quat[k];
        }
        if (!same) {
            imp_dem_clump_load(d, c, y, w->def.dt);
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
        const double *y = w->y + (size_t)d->slot[i] * IMP_STRIDE_3D;
        int same = memcmp(y, d->pos + 3 * i, 3 * sizeof *y) == 0
                   && memcmp(y + 3, d->quat + 4 * i, 4 * sizeof *y) == 0
                   && memcmp(y + IMP_VEL_3D, d->vel + 3 * i, 3 * sizeof *y) == 0
                   && memcmp(y + IMP_VEL_3D + 3, d->angvel + 3 * i, 3 * sizeof *y) == 0;
        if (!same) {
            load_one(w, d, i);
        }
    }
}

/* O(n). The arrays in locals: the stores into the state vector could alias d's fields, which
   would then be reloaded for every particle. */
void imp_dem_store(imp_world *w)
{
    imp_dem *d = w->dem;
    const int n = d->n, *slot = d->slot, *clump_of = d->clump_of;
    const unsigned char *fixed = d->fixed;
    const double *pos = d->pos, *quat = d->quat, *vel = d->vel, *angvel = d->angvel;
    double *state = w->y;
    for (int i = 0; i < n; i++) {
        if (fixed[i] | (clump_of[i] >= 0)) {
            continue;
        }
        double *y = state + (size_t)slot[i] * IMP_STRIDE_3D;
        memcpy(y, pos + 3 * i, 3 * sizeof *y);
        memcpy(y + 3, quat + 4 * i, 4 * sizeof *y);
        memcpy(y + IMP_VEL_3D, vel + 3 * i, 3 * sizeof *y);
        memcpy(y + IMP_VEL_3D + 3, angvel + 3 * i, 3 * sizeof *y);
    }
    for (int c = 0; c < d->nclumps; c++) {
        const imp_dem_clump *C = &d->clumps[c];
        if (C->fixed) {
            continue;
        }
        double *y = w->y + (size_t)C->slot * IMP_STRIDE_3D;
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

static imp_status sync(imp_world *w, int edits)
{
    if (w->def.dim != 3) {
        return sync_error(w, IMP_ERR_INVALID, "the dem strategy needs a 3D world", 0);
    }
    if (w->dem == NULL && (w->dem = imp_dem_new()) == NULL) {
        return sync_error(w, IMP_ERR_NOMEM, "out of memory", 0);
    }
    imp_dem *d = w->dem;
    int fresh = 0;
    if (!d->built || d->bodies_version != w->bodies_version) {
        imp_status st = rebuild(w, d);
        if (st != IMP_OK) {
            d->built = 0;
            return st;
        }
        fresh = 1;
    }
    /* reload what was edited since the last store (everything after a rebuild); only when
       something may have been edited (the world's state version moved) or dt changed (the
       clumps' angular momenta refer to the half step) */
    if (fresh || (edits && (w->state_version != d->state_version || w->def.dt != d->clump_dt))) {
        load(w, d, fresh);
        d->state_version = w->state_version;
        d->boxes_stale = 1;  /* walls and facets may have moved too */
    }
    return IMP_OK;
}

imp_status imp_dem_sync(imp_world *w) { return sync(w, 1); }
imp_status imp_dem_sync_bodies(imp_world *w) { return sync(w, 0); }

/* ---- queries ------------------------------------------------------------------------------ */

/* the P-wave step of particle i when it is a free sphere, else +inf */
static double p_wave_of(const imp_dem *d, int i)
{
    if (d->kind[i] != IMP_DEM_SPHERE || d->fixed[i]) {
        return INFINITY;  /* fixed spheres do not vibrate */
    }
    double r = d->radius[i];
    double rho = d->clump_of[i] >= 0 ? d->clumps[d->clump_of[i]].density
                                     : d->mass[i] / (4.0 / 3.0 * IMP_PI * r * r * r);
    return r / sqrt(d->young[i] / rho);
}

double imp_dem_p_wave_dt(const imp_dem *d)
{
    double best = INFINITY;
    for (int i = 0; i < d->n; i++) {
        double dt = p_wave_of(d, i);
        best = dt < best ? dt : best;
    }
    return isfinite(best) ? best : 0.0;
}

int imp_dem_check_dt(const imp_dem *d, double dt, char *msg, size_t len)
{
    double est = imp_dem_p_wave_dt(d);
    if (!(est > 0.0) || dt <= IMP_DEM_DT_FACTOR * est) {
        return -1;  /* no free sphere, or within the bound for all of them */
    }
    for (int k = 0; k < d->ninter; k++) {
        const imp_dem_inter *I = &d->inter[k];
        if (!I->real) {
            continue;
        }
        for (int j = 0; j < 2; j++) {
            int i = j == 0 ? I->a : I->b;
            double own = p_wave_of(d, i);
            if (dt > IMP_DEM_DT_FACTOR * own) {
                snprintf(msg, len, "dt = %g s is %.3g times the P-wave estimate %g s of a sphere "
                         "in contact (above %g times it the contacts are unstable: the state "
                         "would become non-finite or meaningless); use dt <= %g s, e.g. w.dt = "
                         "0.5 * w:p_wave_dt() (= %g s)", dt, dt / own, own, IMP_DEM_DT_FACTOR,
                         IMP_DEM_DT_FACTOR * own, 0.5 * est);
                return i;
            }
        }
    }
    return -1;
}

int imp_dem_real_count(const imp_dem *d)
{
    int c = 0;
    for (int k = 0; k < d->ninter; k++) {
        c += d->inter[k].real;
    }
    return c;
}

double imp_dem_unbalanced_force(const imp_dem *d, const double gravity[3])
{
    double sum_body = 0.0, sum_contact = 0.0;
    int nb = 0, nc = 0;
    for (int i = 0; i < d->n; i++) {
        if (d->fixed[i] || d->clump_of[i] >= 0) {
            continue;
        }
        double f[3];
        for (int k = 0; k < 3; k++) {
            f[k] = d->force[3 * i + k] + d->mass[i] * gravity[k];
        }
        sum_body += sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
        nb++;
    }
    for (int c = 0; c < d->nclumps; c++) {  /* a clump: the sum over its members */
        const imp_dem_clump *C = &d->clumps[c];
        if (C->fixed) {
            continue;
        }
        double f[3], t[3];
        imp_dem_clump_wrench(d, c, f, t);
        for (int k = 0; k < 3; k++) {
            f[k] += C->mass * gravity[k];
        }
        sum_body += sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
        nb++;
    }
    for (int k = 0; k < d->ninter; k++) {
        const imp_dem_inter *I = &d->inter[k];
        if (!I->real) {
            continue;
        }
        double f[3];
        for (int j = 0; j < 3; j++) {
            f[j] = I->fn * I->n[j] + I->fs[j];
        }
        sum_contact += sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
        nc++;
    }
    if (nb == 0 || nc == 0 || !(sum_contact > 0.0)) {
        return NAN;
    }
    return (sum_body / nb) / (sum_contact / nc);
}

imp_dem_energy imp_dem_energy_now(const imp_dem *d, double dt)
{
    imp_dem_energy e = d->energy;
    e.kinetic = 0.0;
    e.elastic = 0.0;
    for (int c = 0; c < d->nclumps; c++) {  /* 1/2 m v^2 + 1/2 w.L, both of the half step */
        const imp_dem_clump *C = &d->clumps[c];
        if (C->fixed) {
            continue;
        }
        const double *v = C->vel, *om = C->angvel;
        e.kinetic += 0.5 * C->mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        e.kinetic += 0.5 * (om[0] * C->L[0] + om[1] * C->L[1] + om[2] * C->L[2]);
    }
    for (int i = 0; i < d->n; i++) {
        if (d->fixed[i] || d->clump_of[i] >= 0) {
            continue;
        }
        const double *v = d->vel + 3 * i, *om = d->angvel + 3 * i;
        e.kinetic += 0.5 * d->mass[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        e.kinetic += 0.5 / d->inv_inertia[i] * (om[0] * om[0] + om[1] * om[1] + om[2] * om[2]);
    }
    /* The springs as the last interaction loop left them (time t), moved on to t + dt/2, where
       the kinetic energy (leapfrog velocities) and the books are: minus the work their forces
       F do over the first half of the step just integrated, F . vr dt / 2, vr the relative
       velocity of the contact points (as in dem_law.c). Without it the sum would be off by
       that work, which is of order dt while contacts are loaded and moving. */
    double half_work = 0.0;
    for (int k = 0; k < d->ninter; k++) {
        const imp_dem_inter *I = &d->inter[k];
        if (!I->real || I->un <= 0.0) {
            continue;
        }
        double fs2 = I->fs[0] * I->fs[0] + I->fs[1] * I->fs[1] + I->fs[2] * I->fs[2];
        if (d->p.law == IMP_DEM_LAW_HERTZ) {  /* int kn0 u^1.5 du = 2/5 kn0 un^2.5 */
            e.elastic += 0.4 * I->kn0 * I->un * I->un * sqrt(I->un);
        } else {
            e.elastic += 0.5 * I->kn * I->un * I->un;
        }
        if (I->ks > 0.0) {
            e.elastic += 0.5 * fs2 / I->ks;
        }
        int a = I->a, b = I->b;
        const double *n = I->n, *va = d->vel + 3 * a, *vb = d->vel + 3 * b;
        const double *wa = d->angvel + 3 * a, *wb = d->angvel + 3 * b;
        double lb = d->radius[b] - 0.5 * I->un;
        double la = d->kind[a] == IMP_DEM_SPHERE ? d->radius[a] - 0.5 * I->un : 0.0;
        double m[3], vr[3];
        for (int j = 0; j < 3; j++) {
            m[j] = la * wa[j] + lb * wb[j];
        }
        vr[0] = vb[0] - va[0] - (m[1] * n[2] - m[2] * n[1]);
        vr[1] = vb[1] - va[1] - (m[2] * n[0] - m[0] * n[2]);
        vr[2] = vb[2] - va[2] - (m[0] * n[1] - m[1] * n[0]);
        for (int j = 0; j < 3; j++) {
            half_work += (I->fn * n[j] + I->fs[j]) * vr[j];
        }
    }
    e.elastic -= 0.5 * dt * half_work;
    return e;
}
