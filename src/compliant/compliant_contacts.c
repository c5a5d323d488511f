/* compliant_contacts.c: the compliant strategy's pairs, contact dictionaries and forces
   (see compliant.h for the scheme, seed 000 for its origin). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broadphase3d.h"
#include "compliant_internal.h"
#include "compliant_patch.h"
#include "forces.h"
#include "quat.h"
#include "world_internal.h"

imp_compliant_def imp_compliant_default_def(void)
{
    imp_compliant_def d = {100, 1e-8, 1.0, 1000.0, 0.001, 1e-10, IMP_DAMPING_CALIBRATED, 0.0};
    return d;
}

imp_compliant *imp_compliant_new(const imp_compliant_def *def)
{
    imp_compliant *c = calloc(1, sizeof *c);
    if (c == NULL) {
        return NULL;
    }
    c->def = *def;
    size_t n = (size_t)def->nz_max;
    c->contact = calloc(n, sizeof *c->contact);
    c->last = calloc(n, sizeof *c->last);
    c->last_saved = calloc(n, sizeof *c->last_saved);
    c->no_contact = calloc(n, sizeof *c->no_contact);
    c->set = calloc(n, sizeof *c->set);
    if (!c->contact || !c->last || !c->last_saved || !c->no_contact || !c->set) {
        imp_compliant_free(c);
        return NULL;
    }
    return c;
}

void imp_compliant_free(imp_compliant *c)
{
    if (c == NULL) {
        return;
    }
    free(c->pairs);
    imp_bp3d_free(c->bp);
    free(c->bp_slot);
    free(c->box_lo);
    free(c->box_hi);
    free(c->contact);
    free(c->last);
    free(c->last_saved);
    free(c->no_contact);
    free(c->set);
    imp_ode_free(c->main);
    imp_ode_free(c->locate);
    free(c->y_start);
    free(c->y_try);
    free(c->y_hi);
    free(c);
}

void imp_compliant_invalidate(imp_compliant *c) { c->initialized = 0; }



/* ---- pairs ------------------------------------------------------------------------------- */

/* ---- measuring a pair -------------------------------------------------------------------- */

static const double *pose(const imp_world *w, const double *y, int slot)
{
    return y + (size_t)slot * (size_t)w->model.stride;
}

static void pair_geometry(const imp_world *w, const double *y, const imp_cpair *p, imp_proximity *g)
{
    if (imp_proximity_query(w->model.bodies[p->a].shape, pose(w, y, p->a), w->model.bodies[p->b].shape,
                            pose(w, y, p->b), g) != 0) {
        memset(g, 0, sizeof *g);
        g->distance = INFINITY;  /* unreachable: pairs are checked when built */
    }
}

/* Euclidean distance between the two bodies' bounding boxes (0 when they overlap) */
static double box_gap(const imp_world *w, const double *y, const imp_cpair *p)
{
    double la[3], ha[3], lb[3], hb[3];
    imp_shape_bounds(w->model.bodies[p->a].shape, pose(w, y, p->a), la, ha);
    imp_shape_bounds(w->model.bodies[p->b].shape, pose(w, y, p->b), lb, hb);
    double g2 = 0.0;
    for (int k = 0; k < w->model.def.dim; k++) {
        double g = fmax(lb[k] - ha[k], la[k] - hb[k]);
        if (g > 0.0) {
            g2 += g * g;
        }
    }
    return sqrt(g2);
}

/* distanceOrg of pair index pi at y; the geometry when the boxes overlap */
static void measure(const imp_world *w, const double *y, int pi, imp_centry *e, int force_geometry)
{
    const imp_cpair *p = &w->compliant->pairs[pi];
    e->pair = pi;
    e->key = p->key;
    double gap = force_geometry ? 0.0 : box_gap(w, y, p);
    if (gap > 0.0) {
        e->distance = gap;
        e->has_geometry = 0;
        return;
    }
    pair_geometry(w, y, p, &e->geom);
    e->distance = e->geom.distance;
    e->has_geometry = 1;
}

/* ---- the distance set -------------------------------------------------------------------- */

/* the order of seed 000's DistanceKey: contact pairs first (by key), then by distance with
   hysteresis, then by key */
static int key_less(const imp_centry *x, const imp_centry *y)
{
    if (x->contact && y->contact) {
        return x->key < y->key;
    }
    if (x->contact != y->contact) {
        return x->contact;
    }
    if (x->dist_h != y->dist_h) {
        return x->dist_h < y->dist_h;
    }
    return x->key < y->key;
}

/* Inserts e into the set of at most cap entries: 1 inserted, 0 ignored, -1 no room for a
   contact pair. */
static int set_insert(imp_compliant *c, const imp_centry *e, int cap)
{
    if (cap <= 0) {
        return e->contact ? -1 : 0;
    }
    if (c->nset == cap) {
        const imp_centry *last = &c->set[c->nset - 1];
        if (!key_less(e, last)) {
            return e->contact ? -1 : 0;
        }
        if (last->contact) {
            return -1;
        }
        c->nset--;  /* the farthest non-contact pair leaves */
    }
    int lo = 0, hi = c->nset;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (key_less(&c->set[mid], e)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    memmove(&c->set[lo + 1], &c->set[lo], (size_t)(c->nset - lo) * sizeof *c->set);
    c->set[lo] = *e;
    c->nset++;
    return 1;
}

static int by_key(const void *x, const void *y)
{
    long long a = ((const imp_centry *)x)->key, b = ((const imp_centry *)y)->key;
    return (a > b) - (a < b);
}

static const imp_centry *find_key(const imp_centry *arr, int n, long long key)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (arr[mid].key == key) {
            return &arr[mid];
        }
        if (arr[mid].key < key) {
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return NULL;
}

/* ---- the law's constants at the start of an episode -------------------------------------- */

static void point_velocity(const imp_world *w, const double *y, int slot, const double *p, double v[3])
{
    const double *s = pose(w, y, slot);
    if (w->model.def.dim == 2) {
        v[0] = s[3] - s[5] * (p[1] - s[1]);
        v[1] = s[4] + s[5] * (p[0] - s[0]);
        v[2] = 0.0;
        return;
    }
    imp_vec3 r = imp_v3_sub(imp_v3_load(p), imp_v3_load(s));
    imp_v3_store(v, imp_v3_add(imp_v3_load(s + IMP_VEL_3D), imp_v3_cross(imp_v3_load(s + 10), r)));
}

/* rate of penetration (> 0 approaching) of entry e's geometry at y */
static double penetration_rate(const imp_world *w, const double *y, const imp_cpair *p,
                               const imp_proximity *g)
{
    double va[3], vb[3];
    point_velocity(w, y, p->a, g->point_a, va);
    point_velocity(w, y, p->b, g->point_b, vb);
    double vn = 0.0;
    for (int k = 0; k < 3; k++) {
        vn += (vb[k] - va[k]) * g->normal[k];
    }
    return -vn;
}

static void make_law(const imp_world *w, const imp_cpair *p, double ddelta_minus, imp_contact_law *law)
{
    const imp_compliant_def *d = &w->compliant->def;
    const imp_material *ma = &w->model.materials.items[w->model.bodies[p->a].material];
    const imp_material *mb = &w->model.materials.items[w->model.bodies[p->b].material];
    const imp_pair_material *pm = imp_materials_pair(&w->model.materials, w->model.bodies[p->a].material,
                                                     w->model.bodies[p->b].material);
    law->c_res = imp_law_c_res(ma->E, ma->nu, mb->E, mb->nu);
    if (p->patch) {
        imp_law_flat_geometry(p->area, &law->c_geo, &law->n_geo, &law->mu_r_geo);
    } else {
        imp_law_geometry(p->kind_a, p->radius_a, p->kind_b, p->radius_b, &law->c_geo, &law->n_geo,
                         &law->mu_r_geo);
    }
    law->k_red = d->k_red;
    law->cor_reg = imp_law_cor_reg(pm->cor, d->cor_min, ddelta_minus, pm->vsmall);
    law->d = d->damping == IMP_DAMPING_FLORES
               ? imp_law_damping(law->cor_reg, ddelta_minus, pm->vsmall, d->d_max)
               : imp_law_damping_calibrated(law->cor_reg, law->n_geo, ddelta_minus, pm->vsmall,
                                            d->d_max);
    law->mu_k = pm->mu_k;
    law->mu_r = pm->mu_r;
    law->vsmall = pm->vsmall;
    law->wsmall = pm->wsmall;
}

static void push_contact_event(imp_world *w, imp_event_kind kind, double t, const imp_centry *e,
                               double overlap)
{
    const imp_cpair *p = &w->compliant->pairs[e->pair];
    imp_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.time = t;
    ev.body1 = p->a;
    ev.body2 = p->b;
    if (e->has_geometry) {
        for (int k = 0; k < 3; k++) {
            ev.point[k] = 0.5 * (e->geom.point_a[k] + e->geom.point_b[k]);
            ev.normal[k] = e->geom.normal[k];
        }
    }
    ev.value = kind == IMP_EVENT_CONTACT_BEGIN ? e->ddelta_minus : 0.0;
    ev.overlap = overlap;
    imp_world_push_event(w, &ev);
}

/* ---- actions ----------------------------------------------------------------------------- */

static imp_status too_many(imp_world *w, double t, char *why, size_t why_len)
{
    snprintf(why, why_len, "more than nz_max = %d pairs are in contact at t = %.17g; raise the "
                           "world option compliant.nz_max", w->compliant->def.nz_max, t);
    return IMP_ERR_INVALID;
}

static int patch_points(const imp_world *w, const double *y, const imp_centry *e, imp_cpoint *pts,
                        double *wts);
static void freeze_patch(const imp_world *w, const double *y, imp_centry *e);

/* The elastic energy stored in pair p at y under law (J): K delta^(n+1) / (n+1) at the deepest
   point, or the sum over a patch's points of share K (delta_i - delta_on)^2 / 2. */
static double stored_energy(const imp_world *w, const double *y, const imp_cpair *p,
                            const imp_centry *e, const imp_contact_law *law)
{
    double k = law->k_red * law->c_res * law->c_geo;
    if (!p->patch) {
        double depth = -e->distance;
        return depth > 0.0 ? k * pow(depth, law->n_geo + 1.0) / (law->n_geo + 1.0) : 0.0;
    }
    imp_cpoint pts[IMP_MANIFOLD_MAX];
    double wts[IMP_MANIFOLD_MAX];
    int n = patch_points(w, y, e, pts, wts);
    double onset = 2.0 * w->compliant->def.z_eps, energy = 0.0;
    for (int i = 0; i < n; i++) {
        energy += wts[i] * IMP_PATCH_SHARE * k
                  * imp_law_onset_ramp_energy(pts[i].depth - onset, IMP_PATCH_RAMP * onset);
    }
    return energy;
}

/* An episode that begins where no contact was located: the penetration was given, not reached.
   Its law (sphere and patch pairs) takes as approach speed the one whose kinetic energy
   (reduced mass) the stored elastic energy equals, so the bodies part with the pair's restitution rather than the
   near-zero one of a slow approach. Returns the depth when deeper than a hundredth of the
   smaller bounding radius (the warning its contact_begin carries), else 0. */
static double begin_unlocated(imp_world *w, const double *y, imp_centry *e)
{
    const imp_cpair *p = &w->compliant->pairs[e->pair];
    const imp_body *ba = &w->model.bodies[p->a], *bb = &w->model.bodies[p->b];
    double inv_m = ba->inv_mass + bb->inv_mass;
    /* 2D polygon pairs keep the slow approach's damping: their features jump along parallel
       edges and a springy release there costs ~1e4 internal steps per 0.1 ms */
    int smooth = p->patch || p->kind_a == IMP_LAW_SPHERE || p->kind_b == IMP_LAW_SPHERE;
    double energy = smooth ? stored_energy(w, y, p, e, &e->law) : 0.0;
    if (inv_m > 0.0 && energy > 0.0) {
        double v = sqrt(2.0 * energy * inv_m);
        if (v > e->ddelta_minus) {
            e->ddelta_minus = v;
            make_law(w, p, v, &e->law);
        }
    }
    double size = fmin(ba->shape->radius, bb->shape->radius);
    if (isfinite(size) && -e->distance > 0.01 * size) {
        w->compliant->stats.overlaps++;
        return -e->distance;
    }
    return 0.0;
}

imp_status imp_compliant_event_actions(imp_world *w, const double *y, double t, int located,
                                       char *why, size_t why_len)
{
    imp_compliant *c = w->compliant;
    double z_eps = c->def.z_eps;
    c->nset = 0;
    for (int i = 0; i < c->npairs; i++) {
        imp_centry e;
        memset(&e, 0, sizeof e);
        measure(w, y, i, &e, 0);
        e.contact = e.distance < -z_eps;
        e.dist_h = e.contact ? e.distance : e.distance + 2.0 * z_eps;
        if (set_insert(c, &e, c->def.nz_max) < 0) {
            return too_many(w, t, why, why_len);
        }
    }
    /* split the set: contact entries come first, already in key order */
    c->ncontact = 0;
    while (c->ncontact < c->nset && c->set[c->ncontact].contact) {
        c->contact[c->ncontact] = c->set[c->ncontact];
        c->ncontact++;
    }
    c->nno_contact = c->nset - c->ncontact;
    memcpy(c->no_contact, c->set + c->ncontact, (size_t)c->nno_contact * sizeof *c->no_contact);
    qsort(c->no_contact, (size_t)c->nno_contact, sizeof *c->no_contact, by_key);
    /* episodes: continue with the frozen law, or begin with a new one */
    for (int i = 0; i < c->ncontact; i++) {
        imp_centry *e = &c->contact[i];
        const imp_cpair *p = &c->pairs[e->pair];
        const imp_centry *old = find_key(c->last, c->nlast, e->key);
        if (old != NULL) {
            e->law = old->law;
            e->ddelta_minus = old->ddelta_minus;
            if (p->patch) {
                freeze_patch(w, y, e);
            }
            continue;
        }
        e->ddelta_minus = penetration_rate(w, y, p, &e->geom);
        make_law(w, p, e->ddelta_minus, &e->law);
        if (p->patch) {
            freeze_patch(w, y, e);
        }
        imp_centry shown = *e;  /* the event reports the measured approach speed */
        double overlap = located ? 0.0 : begin_unlocated(w, y, e);
        push_contact_event(w, IMP_EVENT_CONTACT_BEGIN, t, &shown, overlap);
        c->stats.contacts_begun++;
    }
    for (int i = 0; i < c->nlast; i++) {
        if (find_key(c->contact, c->ncontact, c->last[i].key) == NULL) {
            imp_centry ended = c->last[i];
            const imp_centry *now = find_key(c->no_contact, c->nno_contact, ended.key);
            if (now != NULL && now->has_geometry) {
                ended.geom = now->geom;
            }
            /* the pair index may have changed if bodies were added or removed */
            ended.pair = imp_compliant_find_pair(c, ended.key);
            if (ended.pair >= 0) {
                push_contact_event(w, IMP_EVENT_CONTACT_END, t, &ended, 0.0);
            }
            c->stats.contacts_ended++;
        }
    }
    memcpy(c->last, c->contact, (size_t)c->ncontact * sizeof *c->last);
    c->nlast = c->ncontact;
    return IMP_OK;
}

/* Whether pairs[i] is in the contact dictionary; *k walks the contact entries (both sorted by
   key) alongside increasing i. */
static int in_contact(const imp_compliant *c, int i, int *k)
{
    while (*k < c->ncontact && c->contact[*k].key < c->pairs[i].key) {
        (*k)++;
    }
    return *k < c->ncontact && c->contact[*k].key == c->pairs[i].key;
}

int imp_compliant_step_actions(imp_world *w, const double *y)
{
    imp_compliant *c = w->compliant;
    double z_eps = c->def.z_eps;
    int crossed = 0;
    for (int i = 0; i < c->ncontact; i++) {
        imp_centry *e = &c->contact[i];
        measure(w, y, e->pair, e, 0);
        e->dist_h = e->distance;
        crossed |= e->dist_h > 0.0;
    }
    c->nset = 0;
    int k = 0;
    for (int i = 0; i < c->npairs; i++) {
        if (in_contact(c, i, &k)) {
            continue;
        }
        imp_centry e;
        memset(&e, 0, sizeof e);
        measure(w, y, i, &e, 0);
        e.dist_h = e.distance + 2.0 * z_eps;
        crossed |= e.dist_h < 0.0;
        set_insert(c, &e, c->def.nz_max - c->ncontact);
    }
    c->nno_contact = c->nset;
    memcpy(c->no_contact, c->set, (size_t)c->nset * sizeof *c->no_contact);
    qsort(c->no_contact, (size_t)c->nno_contact, sizeof *c->no_contact, by_key);
    return crossed;
}

int imp_compliant_crossed(const imp_world *w, const double *y)
{
    const imp_compliant *c = w->compliant;
    double z_eps = c->def.z_eps;
    imp_centry e;
    for (int i = 0; i < c->ncontact; i++) {
        measure(w, y, c->contact[i].pair, &e, 0);
        if (e.distance > 0.0) {
            return 1;
        }
    }
    int k = 0;
    for (int i = 0; i < c->npairs; i++) {
        if (in_contact(c, i, &k)) {
            continue;
        }
        measure(w, y, i, &e, 0);
        if (e.distance + 2.0 * z_eps < 0.0) {
            return 1;
        }
    }
    return 0;
}

/* ---- forces ------------------------------------------------------------------------------ */

static void add_at(const imp_world *w, const double *y, double *f, int slot, const double *force,
                   const double *point, const double *torque)
{
    if (w->model.bodies[slot].fixed) {
        return;
    }
    const double *s = pose(w, y, slot);
    double *fi = f + 6 * slot;
    imp_vec3 r = imp_v3(point[0] - s[0], point[1] - s[1], w->model.def.dim == 3 ? point[2] - s[2] : 0.0);
    imp_vec3 t = imp_v3_add(imp_v3_cross(r, imp_v3_load(force)), imp_v3_load(torque));
    for (int k = 0; k < 3; k++) {
        fi[k] += force[k];
    }
    fi[3] += t.x;
    fi[4] += t.y;
    fi[5] += t.z;
}

/* the law at one contact point; returns the normal force, adds the forces when f != NULL */
static double apply_point(const imp_world *w, const double *y, const imp_cpair *p,
                          const imp_contact_law *law, const imp_cpoint *cp, double share,
                          double onset, const double *wrel, double *f)
{
    double va[3], vb[3], vrel[3], vt[3];
    point_velocity(w, y, p->a, cp->point_a, va);
    point_velocity(w, y, p->b, cp->point_b, vb);
    double vn = 0.0;
    for (int k = 0; k < 3; k++) {
        vrel[k] = vb[k] - va[k];
        vn += vrel[k] * cp->normal[k];
    }
    double u = cp->depth - onset;
    if (onset > 0.0) {  /* a patch point: the onset ramp (compliant_patch.h) */
        u = imp_law_onset_ramp(u, IMP_PATCH_RAMP * onset);
    }
    double fn = share * imp_law_normal_force(law, u, -vn);
    if (f == NULL || fn == 0.0) {
        return fn;
    }
    double vt2 = 0.0;
    for (int k = 0; k < 3; k++) {
        vt[k] = vrel[k] - vn * cp->normal[k];
        vt2 += vt[k] * vt[k];
    }
    double ft_scale = law->mu_k * fn / imp_law_reg(sqrt(vt2), law->vsmall);
    double wabs = sqrt(wrel[0] * wrel[0] + wrel[1] * wrel[1] + wrel[2] * wrel[2]);
    double tau_scale = law->mu_r * law->mu_r_geo * fn / imp_law_reg(wabs, law->wsmall);
    double fb[3], fa[3], tb[3], ta[3];
    for (int k = 0; k < 3; k++) {
        fb[k] = fn * cp->normal[k] - ft_scale * vt[k];
        fa[k] = -fb[k];
        tb[k] = -tau_scale * wrel[k];
        ta[k] = -tb[k];
    }
    add_at(w, y, f, p->b, fb, cp->point_b, tb);
    add_at(w, y, f, p->a, fa, cp->point_a, ta);
    return fn;
}

static imp_quat orientation(const double *s)
{
    return imp_q_normalize(imp_q(s[3], s[4], s[5], s[6]));
}

/* Takes entry e's patch at y (a patch pair): material points and the normal in its body's frame. */
/* whether a point of manifold m moves relative to the other body faster than vsmall */
static int sliding(const imp_world *w, const double *y, const imp_cpair *p, const imp_manifold3d *m,
                   double vsmall)
{
    for (int i = 0; i < m->count; i++) {
        double va[3], vb[3], v2 = 0.0;
        point_velocity(w, y, p->a, m->points[i].point_a, va);
        point_velocity(w, y, p->b, m->points[i].point_b, vb);
        for (int k = 0; k < 3; k++) {
            v2 += (vb[k] - va[k]) * (vb[k] - va[k]);
        }
        if (!(v2 < vsmall * vsmall)) {
            return 1;
        }
    }
    return 0;
}

static void freeze_patch(const imp_world *w, const double *y, imp_centry *e)
{
    const imp_cpair *p = &w->compliant->pairs[e->pair];
    const imp_shape *sa = w->model.bodies[p->a].shape, *sb = w->model.bodies[p->b].shape;
    const double *ya = pose(w, y, p->a), *yb = pose(w, y, p->b);
    double margin = 0.01 * fmin(sa->radius, sb->radius);
    imp_manifold3d m;
    imp_compliant_patch(sa, ya, sb, yb, isfinite(margin) ? margin : 0.0, &m);
    imp_proximity g;
    pair_geometry(w, y, p, &g);
    if (!imp_compliant_patch_material(&m) || sliding(w, y, p, &m, e->law.vsmall)
        || imp_compliant_patch_weight(&m, &g, 2.0 * w->compliant->def.z_eps) < 1.0) {
        /* crossings, a narrow-phase point, sliding, a face deeper than the narrow phase's
           depth (blended with its point): taken anew at each evaluation */
        e->npatch = -1;
        return;
    }
    imp_quat qa = orientation(ya), qb = orientation(yb);
    e->npatch = m.count < 4 ? m.count : 4;
    e->normal_in_b = imp_compliant_patch_normal_in_b(sb, &m);
    imp_v3_store(e->patch_normal, imp_q_unrotate(e->normal_in_b ? qb : qa, imp_v3_load(m.normal)));
    for (int i = 0; i < e->npatch; i++) {
        imp_v3_store(e->patch_a[i], imp_q_unrotate(qa, imp_v3_sub(imp_v3_load(m.points[i].point_a), imp_v3_load(ya))));
        imp_v3_store(e->patch_b[i], imp_q_unrotate(qb, imp_v3_sub(imp_v3_load(m.points[i].point_b), imp_v3_load(yb))));
    }
}

/* the penetrating points of a patch pair at y, taken now: the patch's points with the weight of
   imp_compliant_patch_weight, the narrow phase's deepest point with the rest */
static int live_points(const imp_world *w, const double *y, const imp_cpair *p, imp_cpoint *pts,
                       double *wts)
{
    const imp_shape *sa = w->model.bodies[p->a].shape, *sb = w->model.bodies[p->b].shape;
    imp_manifold3d m;
    imp_compliant_patch(sa, pose(w, y, p->a), sb, pose(w, y, p->b), 0.0, &m);
    imp_proximity g;
    pair_geometry(w, y, p, &g);
    double weight = imp_compliant_patch_weight(&m, &g, 2.0 * w->compliant->def.z_eps);
    int n = 0;
    for (int i = 0; weight > 0.0 && i < m.count; i++) {
        if (!(m.points[i].distance < 0.0)) {
            continue;
        }
        imp_cpoint *c = &pts[n];
        wts[n++] = weight;
        c->depth = -m.points[i].distance;
        memcpy(c->normal, m.normal, sizeof c->normal);
        memcpy(c->point_a, m.points[i].point_a, sizeof c->point_a);
        memcpy(c->point_b, m.points[i].point_b, sizeof c->point_b);
    }
    if (weight < 1.0 && g.distance < 0.0) {
        imp_cpoint *c = &pts[n];
        wts[n++] = 1.0 - weight;
        c->depth = -g.distance;
        memcpy(c->normal, g.normal, sizeof c->normal);
        memcpy(c->point_a, g.point_a, sizeof c->point_a);
        memcpy(c->point_b, g.point_b, sizeof c->point_b);
    }
    return n;
}

/* the penetrating points at y of entry e's patch: its vertices taken at the step's start, or the
   patch taken now */
static int patch_points(const imp_world *w, const double *y, const imp_centry *e, imp_cpoint *pts,
                        double *wts)
{
    const imp_cpair *p = &w->compliant->pairs[e->pair];
    if (e->npatch < 0) {
        return live_points(w, y, p, pts, wts);
    }
    const double *ya = pose(w, y, p->a), *yb = pose(w, y, p->b);
    imp_quat qa = orientation(ya), qb = orientation(yb);
    imp_vec3 n = imp_q_rotate(e->normal_in_b ? qb : qa, imp_v3_load(e->patch_normal));
    int count = 0;
    for (int i = 0; i < e->npatch; i++) {
        imp_vec3 pa = imp_v3_add(imp_v3_load(ya), imp_q_rotate(qa, imp_v3_load(e->patch_a[i])));
        imp_vec3 pb = imp_v3_add(imp_v3_load(yb), imp_q_rotate(qb, imp_v3_load(e->patch_b[i])));
        double depth = -imp_v3_dot(imp_v3_sub(pb, pa), n);
        if (!(depth > 0.0)) {
            continue;
        }
        wts[count] = 1.0;
        imp_cpoint *c = &pts[count++];
        c->depth = depth;
        imp_v3_store(c->normal, n);
        imp_v3_store(c->point_a, pa);
        imp_v3_store(c->point_b, pb);
    }
    return count;
}

void imp_compliant_freeze_patches(imp_world *w, const double *y)
{
    imp_compliant *c = w->compliant;
    for (int i = 0; i < c->ncontact; i++) {
        if (c->pairs[c->contact[i].pair].patch) {
            freeze_patch(w, y, &c->contact[i]);
        }
    }
}

/* the law over the manifold of one entry at y; returns the total normal force, adds the
   forces when f != NULL */
static double apply_law(const imp_world *w, const double *y, const imp_centry *e, double *f)
{
    const imp_cpair *p = &w->compliant->pairs[e->pair];
    imp_cpoint pts[IMP_MANIFOLD_MAX];
    double wts[IMP_MANIFOLD_MAX];
    int n;
    double share = 1.0, onset = 0.0;
    if (p->patch) {
        n = patch_points(w, y, e, pts, wts);
        share = IMP_PATCH_SHARE;
        onset = 2.0 * w->compliant->def.z_eps;
    } else {
        imp_proximity g;
        pair_geometry(w, y, p, &g);
        if (!(g.distance < 0.0)) {
            return 0.0;
        }
        n = imp_proximity_manifold(w->model.bodies[p->a].shape, pose(w, y, p->a), w->model.bodies[p->b].shape,
                                   pose(w, y, p->b), &g, pts);
    }
    /* relative angular velocity of b with respect to a */
    const double *sa = pose(w, y, p->a), *sb = pose(w, y, p->b);
    double wrel[3] = {0, 0, 0};
    if (w->model.def.dim == 2) {
        wrel[2] = sb[5] - sa[5];
    } else {
        for (int k = 0; k < 3; k++) {
            wrel[k] = sb[10 + k] - sa[10 + k];
        }
    }
    double total = 0.0;
    for (int i = 0; i < n; i++) {
        total += apply_point(w, y, p, &e->law, &pts[i], p->patch ? share * wts[i] : share, onset,
                             wrel, f);
    }
    return total;
}

void imp_compliant_forces(const imp_world *w, const double *y, double *f)
{
    const imp_compliant *c = w->compliant;
    for (int i = 0; i < c->ncontact; i++) {
        apply_law(w, y, &c->contact[i], f);
    }
}

double imp_compliant_entry_force(const imp_world *w, const double *y, const imp_centry *e)
{
    return apply_law(w, y, e, NULL);
}
