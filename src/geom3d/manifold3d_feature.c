/* manifold3d_feature.c: support features (polygon, segment, point) of posed 3D convex shapes
   for the contact manifold (manifold3d.c). */
#include "manifold3d_feature.h"

#include <math.h>

#include "polyhedron.h"
#include "scalar.h"

/* angular tolerances: incident caps, lines and segments within ~6 degrees of their flat pose
   (the clipper keeps only the points within the margin, so a loose choice costs nothing);
   edges of an edge-on-edge contact within 1e-3 rad */
#define COS_LOOSE 0.9945
#define SIN_LOOSE 0.1045
#define SIN_TIGHT 1e-3

static imp_vec3 world(const imp_support3d *s, imp_vec3 l) { return imp_v3_add(s->origin, imp_m3_mulv(&s->rot, l)); }
static imp_vec3 axis(const imp_support3d *s, int k) { return imp_v3(s->rot.m[0][k], s->rot.m[1][k], s->rot.m[2][k]); }

static void add(imp_feature3d *f, imp_vec3 p, unsigned vid)
{
    /* consecutive duplicates (a zero core extent) collapse */
    double tol = 1e-12;
    if (f->n > 0 && imp_v3_dist(f->v[f->n - 1], p) <= tol * (1.0 + imp_v3_len(p))) {
        return;
    }
    if (f->n < IMP_FEAT_MAX) {
        f->v[f->n] = p;
        f->vid[f->n] = vid;
        f->n++;
    }
}

/* closes a polygon: a last vertex equal to the first drops; the type follows the count */
static void finish(imp_feature3d *f)
{
    if (f->n > 2 && imp_v3_dist(f->v[f->n - 1], f->v[0]) <= 1e-12 * (1.0 + imp_v3_len(f->v[0]))) {
        f->n--;
    }
    f->type = f->n >= 3 ? IMP_FEAT_POLYGON : (f->n == 2 ? IMP_FEAT_SEGMENT : IMP_FEAT_POINT);
}

static void point(const imp_support3d *s, imp_vec3 d, unsigned id, imp_feature3d *f)
{
    f->type = IMP_FEAT_POINT;
    f->n = 1;
    f->v[0] = imp_support3d_core(s, d);
    f->vid[0] = 0;
    f->id = id;
    f->curved = 0;
    f->normal = d;
}

/* ---- faces ---- */

unsigned imp_feature3d_box_corners(const double *h, const double dd[3], double l[4][3], unsigned vid[4])
{
    int a = 0;
    for (int k = 1; k < 3; k++) {
        if (fabs(dd[k]) > fabs(dd[a])) {
            a = k;
        }
    }
    int sg = dd[a] >= 0.0 ? 1 : -1, b = (a + 1) % 3, c = (a + 2) % 3;
    static const int cb[4] = {-1, 1, 1, -1}, cc[4] = {-1, -1, 1, 1};
    for (int j = 0; j < 4; j++) {
        int i = sg > 0 ? j : 3 - j; /* counter-clockwise about the outward axis */
        l[j][a] = sg * h[a];
        l[j][b] = cb[i] * h[b];
        l[j][c] = cc[i] * h[c];
        vid[j] = (sg > 0 ? 1u : 0u) << a | (cb[i] > 0 ? 1u : 0u) << b | (cc[i] > 0 ? 1u : 0u) << c;
    }
    return (unsigned)(2 * a + (sg > 0));
}

static int box_face(const imp_support3d *s, imp_vec3 dl, imp_feature3d *f)
{
    const double dd[3] = {dl.x, dl.y, dl.z};
    double l[4][3];
    unsigned vid[4];
    f->id = imp_feature3d_box_corners(s->c->core, dd, l, vid);
    f->n = 0;
    for (int j = 0; j < 4; j++) {
        add(f, world(s, imp_v3(l[j][0], l[j][1], l[j][2])), vid[j]);
    }
    double nl[3] = {0.0, 0.0, 0.0};
    nl[f->id / 2] = f->id % 2 ? 1.0 : -1.0;
    f->normal = imp_m3_mulv(&s->rot, imp_v3(nl[0], nl[1], nl[2]));
    f->curved = 0;
    finish(f);
    return f->n >= 2;
}

static imp_vec3 vert(const imp_convex3d *c, int i) { return imp_v3_load(c->vert + 3 * i); }

/* a face given by vertex indices (counter-clockwise), decimated by a stride beyond IMP_FEAT_MAX */
static void hull_poly(const imp_support3d *s, const int *idx, int m, imp_feature3d *f)
{
    int stride = (m + IMP_FEAT_MAX - 1) / IMP_FEAT_MAX;
    f->n = 0;
    for (int j = 0; j < m; j += stride) {
        add(f, world(s, vert(s->c, idx[j])), (unsigned)idx[j]);
    }
}

static int hull_face(const imp_support3d *s, imp_vec3 dl, imp_feature3d *f)
{
    const imp_convex3d *c = s->c;
    const imp_polyfaces *pf = c->faces;
    f->curved = 0;
    if (pf != NULL) {
        int best = 0;
        double bd = -INFINITY;
        for (int k = 0; k < pf->nface; k++) {
            double e = imp_v3_dot(imp_v3_load(pf->plane + 4 * k), dl);
            if (e > bd) {
                bd = e;
                best = k;
            }
        }
        hull_poly(s, pf->vidx + pf->first[best], pf->first[best + 1] - pf->first[best], f);
        f->normal = imp_m3_mulv(&s->rot, imp_v3_load(pf->plane + 4 * best));
        f->id = (unsigned)best;
        finish(f);
        return f->n >= 2;
    }
    /* smoothed hull: the triangle most aligned with dl, merged with its coplanar neighbours */
    int best = -1;
    double bd = -INFINITY;
    imp_vec3 bn = imp_v3_zero();
    for (int t = 0; t < c->ntri; t++) {
        const int *tr = c->tri + 3 * t;
        imp_vec3 p0 = vert(c, tr[0]);
        imp_vec3 nn = imp_v3_cross(imp_v3_sub(vert(c, tr[1]), p0), imp_v3_sub(vert(c, tr[2]), p0));
        double l = imp_v3_len(nn);
        if (!(l > 0.0)) {
            continue;
        }
        nn = imp_v3_scale(nn, 1.0 / l);
        double e = imp_v3_dot(nn, dl);
        if (e > bd) {
            bd = e;
            best = t;
            bn = nn;
        }
    }
    if (best < 0) {
        return 0;
    }
    double off = imp_v3_dot(bn, vert(c, c->tri[3 * best])), tol = 1e-9 * c->scale;
    /* the face's id: the first triangle lying in the plane (stable whichever wins by rounding) */
    int first = best;
    for (int t = 0; t < best; t++) {
        const int *tr = c->tri + 3 * t;
        int in = 1;
        for (int k = 0; k < 3; k++) {
            in &= fabs(imp_v3_dot(bn, vert(c, tr[k])) - off) <= tol;
        }
        if (in) {
            first = t;
            break;
        }
    }
    /* the plane's vertices, ordered by angle about their mean (a convex polygon) */
    int idx[IMP_FEAT_MAX];
    double ang[IMP_FEAT_MAX];
    int m = 0;
    imp_vec3 mid = imp_v3_zero();
    for (int i = 0; i < c->nvert && m < IMP_FEAT_MAX; i++) {
        if (fabs(imp_v3_dot(bn, vert(c, i)) - off) <= tol) {
            idx[m++] = i;
            mid = imp_v3_add(mid, vert(c, i));
        }
    }
    mid = imp_v3_scale(mid, 1.0 / m);
    imp_vec3 e0 = imp_v3_sub(vert(c, idx[0]), mid);
    if (!(imp_v3_len(e0) > 0.0)) {
        e0 = imp_v3(1.0, 0.0, 0.0);
    }
    e0 = imp_v3_normalize(e0);
    imp_vec3 e1 = imp_v3_cross(bn, e0);
    for (int j = 0; j < m; j++) {
        imp_vec3 r = imp_v3_sub(vert(c, idx[j]), mid);
        ang[j] = atan2(imp_v3_dot(r, e1), imp_v3_dot(r, e0));
    }
    for (int j = 1; j < m; j++) { /* insertion sort by angle (m <= 64) */
        for (int k = j; k > 0 && ang[k] < ang[k - 1]; k--) {
            double ta = ang[k];
            int ti = idx[k];
            ang[k] = ang[k - 1], idx[k] = idx[k - 1];
            ang[k - 1] = ta, idx[k - 1] = ti;
        }
    }
    hull_poly(s, idx, m, f);
    f->normal = imp_m3_mulv(&s->rot, bn);
    f->id = (unsigned)first;
    finish(f);
    return f->n >= 2;
}

/* a regular polygon inscribed in the disc of radius r at height z (local), counter-clockwise
   seen from the side of the outward normal sign * z */
static int disc(const imp_support3d *s, double r, double z, int sign, unsigned id, imp_feature3d *f)
{
    if (!(r > 1e-12 * s->c->scale)) {
        return 0;
    }
    f->n = 0;
    for (int j = 0; j < IMP_FEAT_DISC; j++) {
        int i = sign > 0 ? j : (IMP_FEAT_DISC - j) % IMP_FEAT_DISC;
        double t = 2.0 * IMP_PI * i / IMP_FEAT_DISC;
        add(f, world(s, imp_v3(r * cos(t), r * sin(t), z)), (unsigned)i);
    }
    f->normal = imp_v3_scale(axis(s, 2), sign);
    f->id = id;
    f->curved = 1;
    finish(f);
    return f->n >= 3;
}

int imp_feature3d_face(const imp_support3d *s, imp_vec3 d, imp_feature3d *f)
{
    const imp_convex3d *c = s->c;
    imp_vec3 dl = imp_m3_tmulv(&s->rot, d);
    switch (c->kind) {
    case IMP_S3_BOX: return box_face(s, dl, f);
    case IMP_S3_CONVEX: return hull_face(s, dl, f);
    case IMP_S3_CYLINDER:
        return dl.z >= 0.0 ? disc(s, c->core[0], c->core[1], 1, 1, f) : disc(s, c->core[0], -c->core[1], -1, 0, f);
    case IMP_S3_CONE: return disc(s, c->core[0], c->core[1], -1, 0, f);
    default: return 0;
    }
}

int imp_feature3d_nplanes(const imp_support3d *s)
{
    const imp_convex3d *c = s->c;
    switch (c->kind) {
    case IMP_S3_BOX: return 6;
    case IMP_S3_CONVEX: return c->faces != NULL ? c->faces->nface : c->ntri;
    case IMP_S3_CYLINDER: return c->core[0] > 0.0 ? 2 : 0;
    case IMP_S3_CONE: return c->core[0] > 0.0 ? 1 : 0;
    default: return 0;
    }
}

imp_vec3 imp_feature3d_plane(const imp_support3d *s, int k, double *off)
{
    const imp_convex3d *c = s->c;
    imp_vec3 nl = imp_v3_zero();
    double dl = 0.0;
    switch (c->kind) {
    case IMP_S3_BOX: {
        double sg = k % 2 ? 1.0 : -1.0, nn[3] = {0.0, 0.0, 0.0};
        nn[k / 2] = sg;
        nl = imp_v3(nn[0], nn[1], nn[2]);
        dl = c->core[k / 2];
        break;
    }
    case IMP_S3_CONVEX:
        if (c->faces != NULL) {
            nl = imp_v3_load(c->faces->plane + 4 * k);
            dl = c->faces->plane[4 * k + 3];
        } else {
            const int *tr = c->tri + 3 * k;
            imp_vec3 p0 = vert(c, tr[0]);
            imp_vec3 nn = imp_v3_cross(imp_v3_sub(vert(c, tr[1]), p0), imp_v3_sub(vert(c, tr[2]), p0));
            double l = imp_v3_len(nn);
            if (l > 0.0) {
                nl = imp_v3_scale(nn, 1.0 / l);
                dl = imp_v3_dot(nl, p0);
            }
        }
        break;
    case IMP_S3_CYLINDER:
        nl = imp_v3(0.0, 0.0, k == 1 ? 1.0 : -1.0);
        dl = c->core[1];
        break;
    case IMP_S3_CONE:
        nl = imp_v3(0.0, 0.0, -1.0);
        dl = -c->core[1];
        break;
    default:
        break;
    }
    imp_vec3 n = imp_m3_mulv(&s->rot, nl);
    *off = dl + imp_v3_dot(n, s->origin);
    return n;
}

/* ---- lines of curved surfaces ---- */

/* the unit component of d perpendicular to the unit axis a; 0 when d is (nearly) along a */
static int perp(imp_vec3 d, imp_vec3 a, imp_vec3 *u)
{
    imp_vec3 p = imp_v3_madd(d, -imp_v3_dot(d, a), a);
    double l = imp_v3_len(p);
    if (!(l > 1e-9)) {
        return 0;
    }
    *u = imp_v3_scale(p, 1.0 / l);
    return 1;
}

static void segment(imp_feature3d *f, imp_vec3 p, imp_vec3 q, unsigned id, int curved)
{
    f->n = 0;
    add(f, p, 0);
    add(f, q, 1);
    f->id = id;
    f->curved = curved;
    finish(f);
}

/* the side line of a cylinder (world) on d's side */
static int cyl_line(const imp_support3d *s, imp_vec3 d, imp_feature3d *f)
{
    const imp_convex3d *c = s->c;
    imp_vec3 a = axis(s, 2), u;
    if (!(c->core[1] > 0.0) || !perp(d, a, &u)) {
        return 0;
    }
    imp_vec3 m = world(s, imp_v3_zero());
    imp_vec3 r = imp_v3_madd(m, c->core[0], u);
    segment(f, imp_v3_madd(r, -c->core[1], a), imp_v3_madd(r, c->core[1], a), 2, 1);
    return f->n == 2;
}

/* the slant line of a cone from its rim point on d's side to its apex; *dot = the cosine of its
   angle with d */
static int cone_line(const imp_support3d *s, imp_vec3 d, imp_feature3d *f, double *dot)
{
    const imp_convex3d *c = s->c;
    imp_vec3 a = axis(s, 2), u;
    if (!(c->core[0] > 0.0) || !(c->core[2] > c->core[1]) || !perp(d, a, &u)) {
        return 0;
    }
    imp_vec3 rim = imp_v3_madd(world(s, imp_v3(0.0, 0.0, c->core[1])), c->core[0], u);
    imp_vec3 apex = world(s, imp_v3(0.0, 0.0, c->core[2]));
    *dot = imp_v3_dot(imp_v3_normalize(imp_v3_sub(apex, rim)), d);
    segment(f, rim, apex, 1, 1);
    return f->n == 2;
}

static int capsule_line(const imp_support3d *s, imp_feature3d *f)
{
    double h = s->c->core[2];
    if (!(h > 0.0)) {
        return 0;
    }
    segment(f, world(s, imp_v3(0.0, 0.0, -h)), world(s, imp_v3(0.0, 0.0, h)), 0, 0);
    return f->n == 2;
}

void imp_feature3d_incident(const imp_support3d *s, imp_vec3 d, imp_feature3d *f)
{
    const imp_convex3d *c = s->c;
    imp_vec3 a = axis(s, 2);
    double ca = imp_v3_dot(a, d), dot;
    switch (c->kind) {
    case IMP_S3_BOX:
    case IMP_S3_CONVEX:
        if (imp_feature3d_face(s, d, f)) {
            return;
        }
        break;
    case IMP_S3_CYLINDER:
        if (fabs(ca) >= COS_LOOSE && imp_feature3d_face(s, d, f)) {
            return;
        }
        if (fabs(ca) <= SIN_LOOSE && cyl_line(s, d, f)) {
            return;
        }
        point(s, d, 3, f);
        return;
    case IMP_S3_CAPSULE:
        if (fabs(ca) <= SIN_LOOSE && capsule_line(s, f)) {
            return;
        }
        point(s, d, 1, f);
        return;
    case IMP_S3_CONE:
        if (-ca >= COS_LOOSE && imp_feature3d_face(s, d, f)) {
            return;
        }
        if (cone_line(s, d, f, &dot) && fabs(dot) <= SIN_LOOSE) {
            return;
        }
        point(s, d, 2, f);
        return;
    default:
        break;
    }
    point(s, d, 0, f);
}

/* ---- edges ---- */

static int box_edge(const imp_support3d *s, imp_vec3 dl, imp_feature3d *f)
{
    const double *h = s->c->core, dd[3] = {dl.x, dl.y, dl.z};
    int free_axis = -1, nfree = 0;
    for (int k = 0; k < 3; k++) {
        if (fabs(dd[k]) <= SIN_TIGHT && h[k] > 0.0) {
            free_axis = k;
            nfree++;
        }
    }
    if (nfree != 1) {
        return 0;
    }
    double l[3];
    unsigned bits = 0;
    for (int k = 0; k < 3; k++) {
        l[k] = dd[k] >= 0.0 ? h[k] : -h[k];
        bits |= (dd[k] >= 0.0 ? 1u : 0u) << k;
    }
    l[free_axis] = -h[free_axis];
    imp_vec3 p = world(s, imp_v3(l[0], l[1], l[2]));
    l[free_axis] = h[free_axis];
    imp_vec3 q = world(s, imp_v3(l[0], l[1], l[2]));
    bits &= ~(1u << free_axis);
    segment(f, p, q, 8u + 8u * (unsigned)free_axis + bits, 0);
    f->vid[0] = bits, f->vid[1] = bits | 1u << free_axis;
    return f->n == 2;
}

static int hull_edge(const imp_support3d *s, imp_vec3 dl, imp_feature3d *f)
{
    const imp_convex3d *c = s->c;
    double mx = -INFINITY, tol = SIN_TIGHT * c->scale;
    for (int i = 0; i < c->nvert; i++) {
        mx = imp_max(mx, imp_v3_dot(vert(c, i), dl));
    }
    int idx[2], m = 0;
    for (int i = 0; i < c->nvert; i++) {
        if (imp_v3_dot(vert(c, i), dl) >= mx - tol) {
            if (m == 2) {
                return 0;
            }
            idx[m++] = i;
        }
    }
    if (m != 2) {
        return 0;
    }
    segment(f, world(s, vert(c, idx[0])), world(s, vert(c, idx[1])), (unsigned)(idx[0] & 127), 0);
    f->vid[0] = (unsigned)idx[0], f->vid[1] = (unsigned)idx[1];
    return f->n == 2;
}

void imp_feature3d_edge(const imp_support3d *s, imp_vec3 d, imp_feature3d *f)
{
    const imp_convex3d *c = s->c;
    imp_vec3 a = axis(s, 2), dl = imp_m3_tmulv(&s->rot, d);
    double ca = imp_v3_dot(a, d), dot;
    switch (c->kind) {
    case IMP_S3_BOX:
        if (box_edge(s, dl, f)) {
            return;
        }
        break;
    case IMP_S3_CONVEX:
        if (hull_edge(s, dl, f)) {
            return;
        }
        break;
    case IMP_S3_CYLINDER:
        if (fabs(ca) <= SIN_TIGHT && cyl_line(s, d, f)) {
            return;
        }
        break;
    case IMP_S3_CAPSULE:
        if (fabs(ca) <= SIN_TIGHT && capsule_line(s, f)) {
            return;
        }
        break;
    case IMP_S3_CONE:
        if (cone_line(s, d, f, &dot) && fabs(dot) <= SIN_TIGHT) {
            return;
        }
        break;
    default:
        break;
    }
    point(s, d, 127, f);
}
