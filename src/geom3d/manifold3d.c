/* manifold3d.c: the contact manifold of two posed 3D convex shapes (the method is described in
   manifold3d.h; the support features are in manifold3d_feature.c). */
#include "manifold3d.h"

#include <math.h>
#include <string.h>

#include "manifold3d_clip.h"
#include "manifold3d_feature.h"
#include "manifold3d_reduce.h"
#include "scalar.h"
#include "support3d.h"

#define SIDE_MAX (IMP_FEAT_MAX + 4)

/* the exact support point of a disc (bits 0-13 of a key; the other codes: manifold3d_clip.h) */
#define CODE_SUPPORT 8256u

enum { KIND_CLIP = 0u, KIND_WALL = 1u, KIND_PAIR = 2u, KIND_SINGLE = 3u };

typedef struct cand {
    imp_vec3 pa, pb;
    double dist;
    unsigned key;
} cand;

typedef struct cands {
    int n;
    cand c[IMP_CLIP_MAX + 1];
} cands;

static void push(cands *cs, imp_vec3 pa, imp_vec3 pb, double dist, unsigned key)
{
    if (cs->n < IMP_CLIP_MAX + 1) {
        cand *c = &cs->c[cs->n++];
        c->pa = pa, c->pb = pb, c->dist = dist, c->key = key;
    }
}

/* ---- clipping against the reference face's side planes (manifold3d_clip.h) ---- */

/* the side planes of a reference polygon (counter-clockwise about the unit normal nf); a
   two-vertex face (a segment) gets its two faces and its two ends */
static int sides_of(const imp_feature3d *f, imp_vec3 nf, imp_clip_side *out)
{
    int m = 0;
    if (f->n == 2) {
        imp_vec3 e = imp_v3_sub(f->v[1], f->v[0]);
        double l = imp_v3_len(e);
        imp_vec3 s = imp_v3_cross(e, nf);
        double ls = imp_v3_len(s);
        if (!(l > 0.0) || !(ls > 0.0)) {
            return 0;
        }
        e = imp_v3_scale(e, 1.0 / l);
        s = imp_v3_scale(s, 1.0 / ls);
        out[0] = (imp_clip_side){s, imp_v3_dot(s, f->v[0])};
        out[1] = (imp_clip_side){e, imp_v3_dot(e, f->v[1])};
        out[2] = (imp_clip_side){imp_v3_neg(s), -imp_v3_dot(s, f->v[0])};
        out[3] = (imp_clip_side){imp_v3_neg(e), -imp_v3_dot(e, f->v[0])};
        return 4;
    }
    for (int j = 0; j < f->n; j++) {
        imp_vec3 p = f->v[j], q = f->v[(j + 1) % f->n];
        imp_vec3 s = imp_v3_cross(imp_v3_sub(q, p), nf);
        double ls = imp_v3_len(s);
        if (ls > 0.0) {
            s = imp_v3_scale(s, 1.0 / ls);
            out[m++] = (imp_clip_side){s, imp_v3_dot(s, p)};
        } else {
            out[m++] = (imp_clip_side){imp_v3_zero(), 0.0}; /* a zero edge: no constraint */
        }
    }
    return m;
}

/* Sutherland-Hodgman (manifold3d_clip.h) */
imp_clip_poly *imp_clip_polygon(imp_clip_poly *buf, const imp_clip_side *sd, int ns, double tol)
{
    imp_clip_poly *a = &buf[0], *b = &buf[1];
    for (int k = 0; k < ns && a->n > 0; k++) {
        if (imp_v3_len2(sd[k].s) == 0.0) {
            continue;
        }
        b->n = 0;
        for (int i = 0; i < a->n; i++) {
            int i1 = (i + 1) % a->n;
            double dp = imp_v3_dot(sd[k].s, a->p[i]) - sd[k].off;
            double dq = imp_v3_dot(sd[k].s, a->p[i1]) - sd[k].off;
            int inp = dp <= tol, inq = dq <= tol;
            if (inp && b->n < b->cap) {
                b->p[b->n] = a->p[i], b->code[b->n] = a->code[i];
                /* p beyond the true plane and q out: p is its own exit, its edge runs along side k */
                b->label[b->n] = !inq && dp > 0.0 ? 64u + (unsigned)k : a->label[i];
                b->n++;
            }
            /* a crossing of the true plane, unless the kept endpoint is already outside it */
            int cross = (inp && !inq && dp <= 0.0) || (!inp && inq && dq <= 0.0);
            if (cross && b->n < b->cap) {
                double t = imp_clamp(dp / (dp - dq), 0.0, 1.0);
                b->p[b->n] = imp_v3_add(a->p[i], imp_v3_scale(imp_v3_sub(a->p[i1], a->p[i]), t));
                b->code[b->n] = imp_clip_cross_code(a->label[i], (unsigned)k);
                b->label[b->n] = inp ? 64u + (unsigned)k : a->label[i];
                b->n++;
            }
        }
        imp_clip_poly *t = a;
        a = b;
        b = t;
    }
    return a;
}

/* a segment clipped by the sides (parametric, the same tolerance rule); returns the number of
   points (0, 1, 2) */
static int clip_segment(const imp_feature3d *f, const imp_clip_side *sd, int ns, double tol, imp_vec3 *p, unsigned *code)
{
    double t0 = 0.0, t1 = 1.0;
    unsigned c0 = 0u, c1 = 1u; /* the ends' places in the feature */
    imp_vec3 a = f->v[0], e = imp_v3_sub(f->v[1], f->v[0]);
    for (int k = 0; k < ns; k++) {
        if (imp_v3_len2(sd[k].s) == 0.0) {
            continue;
        }
        double d0 = imp_v3_dot(sd[k].s, a) - sd[k].off;
        double d1 = d0 + imp_v3_dot(sd[k].s, e);
        if (d0 > tol && d1 > tol) {
            return 0;
        }
        if (d0 > tol && d1 <= 0.0) { /* entering across the true plane */
            double t = imp_clamp(d0 / (d0 - d1), 0.0, 1.0);
            if (t > t0) {
                t0 = t, c0 = imp_clip_cross_code(0u, (unsigned)k);
            }
        } else if (d0 > tol) { /* only the end b is kept, as it is */
            t0 = 1.0, c0 = c1;
        } else if (d1 > tol && d0 <= 0.0) { /* leaving */
            double t = imp_clamp(d0 / (d0 - d1), 0.0, 1.0);
            if (t < t1) {
                t1 = t, c1 = imp_clip_cross_code(0u, (unsigned)k);
            }
        } else if (d1 > tol) {
            t1 = 0.0, c1 = c0;
        }
    }
    if (t0 > t1) {
        return 0;
    }
    p[0] = imp_v3_madd(a, t0, e), code[0] = c0;
    if (t1 - t0 <= 1e-12) {
        return 1;
    }
    p[1] = imp_v3_madd(a, t1, e), code[1] = c1;
    return 2;
}

static int inside(imp_vec3 p, const imp_clip_side *sd, int ns, double tol)
{
    for (int k = 0; k < ns; k++) {
        if (imp_v3_dot(sd[k].s, p) - sd[k].off > tol) {
            return 0;
        }
    }
    return 1;
}

/* ---- the three paths ---- */

typedef struct frame {
    const imp_support3d *inc;
    int ref_is_b;
    imp_vec3 nf;     /* the reference's outward normal (towards the incident shape) */
    double plane;    /* nf.x of the reference surface (core face + sweep) */
    unsigned prefix; /* the key's bits above 14 */
    double margin;
    double clip_tol; /* incident vertices this far outside a side are kept */
} frame;

/* a core point of the incident shape (offset by its sweep towards the reference), if within the margin */
static void emit(const frame *fr, cands *cs, imp_vec3 core, unsigned code)
{
    imp_vec3 q = imp_v3_madd(core, -fr->inc->sweep, fr->nf);
    double dist = imp_v3_dot(fr->nf, q) - fr->plane;
    if (!(dist <= fr->margin)) {
        return;
    }
    imp_vec3 r = imp_v3_madd(q, -dist, fr->nf);
    unsigned key = fr->prefix | code;
    if (fr->ref_is_b) {
        push(cs, q, r, dist, key);
    } else {
        push(cs, r, q, dist, key);
    }
}

/* the exact support point of a curved incident feature, when deeper than all its points */
static void emit_support(const frame *fr, cands *cs, const imp_feature3d *inc, const imp_clip_side *sd, int ns, double tol,
                         double scale)
{
    if (!inc->curved) {
        return;
    }
    imp_vec3 d = imp_v3_neg(fr->nf);
    imp_vec3 p = imp_support3d_core(fr->inc, d);
    double lo = INFINITY;
    for (int i = 0; i < inc->n; i++) {
        lo = imp_min(lo, imp_v3_dot(fr->nf, inc->v[i]));
    }
    if (imp_v3_dot(fr->nf, p) < lo - 1e-9 * scale && (sd == NULL || inside(p, sd, ns, tol))) {
        emit(fr, cs, p, CODE_SUPPORT);
    }
}

static void clipped(const frame *fr, const imp_feature3d *ref, cands *cs, double scale)
{
    imp_clip_side sd[SIDE_MAX];
    int ns = sides_of(ref, fr->nf, sd);
    double tol = fr->clip_tol;
    imp_feature3d inc;
    imp_feature3d_incident(fr->inc, imp_v3_neg(fr->nf), &inc);
    frame f = *fr;
    f.prefix |= (inc.id & 127u) << 14;
    if (inc.type == IMP_FEAT_POLYGON) {
        imp_clip_poly buf[2];
        imp_vec3 bp[2 * IMP_CLIP_MAX];
        unsigned bcode[2 * IMP_CLIP_MAX], blabel[2 * IMP_CLIP_MAX];
        imp_clip_buffers(buf, IMP_CLIP_MAX, bp, bcode, blabel);
        buf[0].n = inc.n;
        for (int i = 0; i < inc.n; i++) {
            buf[0].p[i] = inc.v[i], buf[0].code[i] = (unsigned)i, buf[0].label[i] = (unsigned)i;
        }
        const imp_clip_poly *r = imp_clip_polygon(buf, sd, ns, tol);
        for (int i = 0; i < r->n; i++) {
            emit(&f, cs, r->p[i], r->code[i]);
        }
    } else if (inc.type == IMP_FEAT_SEGMENT) {
        imp_vec3 p[2];
        unsigned code[2];
        int m = clip_segment(&inc, sd, ns, tol, p, code);
        for (int i = 0; i < m; i++) {
            emit(&f, cs, p[i], code[i]);
        }
    } else if (inside(inc.v[0], sd, ns, tol)) {
        emit(&f, cs, inc.v[0], 0u);
    }
    emit_support(&f, cs, &inc, sd, ns, tol, scale);
}

/* x against the wall w; x_is_a says which of the pair x is */
static void wall(const imp_support3d *x, const imp_support3d *w, int x_is_a, double margin, cands *cs,
                 imp_vec3 *normal)
{
    imp_vec3 m = imp_m3_mulv(&w->rot, imp_v3_load(w->c->core)); /* outward: from the wall to x */
    frame fr = {x, x_is_a, m, imp_v3_dot(m, w->origin), (unsigned)KIND_WALL << 30, margin, 0.0};
    imp_feature3d inc;
    imp_feature3d_incident(x, imp_v3_neg(m), &inc);
    fr.prefix |= (inc.id & 127u) << 14;
    for (int i = 0; i < inc.n; i++) {
        emit(&fr, cs, inc.v[i], (unsigned)i); /* its place in the feature (< 64) */
    }
    emit_support(&fr, cs, &inc, NULL, 0, 0.0, x->scale);
    *normal = x_is_a ? imp_v3_neg(m) : m;
}

/* edge on edge: the overlap of two parallel segments, else nothing */
static void segment_pair(const imp_support3d *a, const imp_support3d *b, imp_vec3 n, double margin, double scale,
                         cands *cs)
{
    imp_feature3d ea, eb;
    imp_feature3d_edge(a, n, &ea);
    imp_feature3d_edge(b, imp_v3_neg(n), &eb);
    if (ea.type != IMP_FEAT_SEGMENT || eb.type != IMP_FEAT_SEGMENT) {
        return;
    }
    imp_vec3 ua = imp_v3_sub(ea.v[1], ea.v[0]), eb_d = imp_v3_sub(eb.v[1], eb.v[0]);
    double la = imp_v3_len(ua), lb = imp_v3_len(eb_d);
    ua = imp_v3_scale(ua, 1.0 / la);
    if (imp_v3_len(imp_v3_cross(ua, imp_v3_scale(eb_d, 1.0 / lb))) > 1e-3) {
        return;
    }
    double tb0 = imp_v3_dot(ua, imp_v3_sub(eb.v[0], ea.v[0])), tb1 = imp_v3_dot(ua, imp_v3_sub(eb.v[1], ea.v[0]));
    double lo = imp_max(0.0, imp_min(tb0, tb1)), hi = imp_min(la, imp_max(tb0, tb1));
    if (!(hi - lo > 1e-9 * scale) || tb1 == tb0) {
        return;
    }
    unsigned prefix = (unsigned)KIND_PAIR << 30 | (ea.id & 127u) << 21 | (eb.id & 127u) << 14;
    double t[2] = {lo, hi};
    for (int i = 0; i < 2; i++) {
        imp_vec3 qa = imp_v3_madd(imp_v3_madd(ea.v[0], t[i], ua), a->sweep, n);
        imp_vec3 qb = imp_v3_madd(imp_v3_madd(eb.v[0], (t[i] - tb0) / (tb1 - tb0), eb_d), -b->sweep, n);
        double dist = imp_v3_dot(n, imp_v3_sub(qb, qa));
        if (dist <= margin) {
            push(cs, qa, imp_v3_madd(qa, dist, n), dist, prefix | (unsigned)i);
        }
    }
}

/* the reference search: the best face so far */
typedef struct refsearch {
    double distance;
    double valid; /* a face is valid when its separation is within this of the distance */
    double bias;  /* a later candidate must beat the best by this */
    double tol;   /* numerical tolerance (witness points on a face plane) */
    int side;     /* 0 none, 1 A, 2 B */
    double sep;
    int best;     /* buf[best] holds the best face, buf[1 - best] the trial */
    imp_feature3d buf[2];
} refsearch;

/* face *rs->trial of s (side 1 A, 2 B) against the other shape o */
static void consider(refsearch *rs, const imp_support3d *s, const imp_support3d *o, int side)
{
    const imp_feature3d *f = &rs->buf[1 - rs->best];
    imp_vec3 nf = f->normal;
    double sep = imp_v3_dot(nf, imp_support3d_full(o, imp_v3_neg(nf))) - imp_v3_dot(nf, f->v[0]) - s->sweep;
    if (!(sep >= rs->distance - rs->valid)) {
        return;
    }
    if (rs->side == 0 || sep > rs->sep + rs->bias) {
        rs->best = 1 - rs->best;
        rs->side = side;
        rs->sep = sep;
    }
}

/* the faces of s through its witness point p (at exact touching, where n is unreliable) */
static void faces_through(refsearch *rs, const imp_support3d *s, const imp_support3d *o, int side, imp_vec3 p)
{
    int nf = imp_feature3d_nplanes(s);
    for (int k = 0; k < nf; k++) {
        double off;
        imp_vec3 nk = imp_feature3d_plane(s, k, &off);
        if (imp_v3_len2(nk) > 0.0 && fabs(imp_v3_dot(nk, p) - off - s->sweep) <= rs->tol &&
            imp_feature3d_face(s, nk, &rs->buf[1 - rs->best])) {
            consider(rs, s, o, side);
        }
    }
}

/* the reference face: rs->side 1 A, 2 B, 0 none; the face in rs->buf[rs->best] */
static void reference(const imp_support3d *a, const imp_support3d *b, const imp_contact3d *c, double scale,
                      refsearch *rs)
{
    imp_vec3 n = imp_v3_load(c->normal);
    /* faces are preferred over the narrow phase's axis when nearly as good, and the first valid
       face (A's) over a later one unless clearly better, so that the choice does not flip while a
       resting pair rocks a little (as Gregorius's relative and absolute tolerances for boxes) */
    double d = fabs(c->distance);
    rs->distance = c->distance;
    rs->valid = 0.1 * d + 2e-3 * scale;
    rs->bias = 0.05 * d + 1e-3 * scale;
    rs->tol = 1e-6 * scale;
    rs->side = 0;
    rs->sep = 0.0;
    rs->best = 0;
    /* the faces along n, within about 8 degrees of it (n is reliable away from exact touching) */
    int touching = d <= rs->tol;
    double cmin = touching ? 0.0 : 0.99;
    imp_feature3d *t = &rs->buf[1 - rs->best];
    if (imp_feature3d_face(a, n, t) && imp_v3_dot(t->normal, n) > cmin) {
        consider(rs, a, b, 1);
    }
    t = &rs->buf[1 - rs->best];
    if (imp_feature3d_face(b, imp_v3_neg(n), t) && -imp_v3_dot(t->normal, n) > cmin) {
        consider(rs, b, a, 2);
    }
    if (touching) {
        faces_through(rs, a, b, 1, imp_v3_load(c->point_a));
        faces_through(rs, b, a, 2, imp_v3_load(c->point_b));
    }
}

/* ---- reduction ---- */

static imp_vec3 flat(imp_vec3 p, imp_vec3 n) { return imp_v3_madd(p, -imp_v3_dot(p, n), n); }

static double tri_area(imp_vec3 a, imp_vec3 b, imp_vec3 c, imp_vec3 n)
{
    return 0.5 * imp_v3_dot(imp_v3_cross(imp_v3_sub(b, a), imp_v3_sub(c, a)), n);
}

static int index_of(const int *keep, int nk, int i)
{
    for (int j = 0; j < nk; j++) {
        if (keep[j] == i) {
            return j;
        }
    }
    return 0;
}

/* the first of the kept candidates whose value is at least best - tol (ties to the lower index,
   with a tolerance so that rounding does not flip the choice) */
static int first_within(const int *keep, const double *val, int nk, double best, double tol)
{
    for (int j = 0; j < nk; j++) {
        if (val[j] >= best - tol) {
            return keep[j];
        }
    }
    return keep[0];
}

int imp_manifold3d_reduce(const imp_vec3 *pa, const double *dist, int n, imp_vec3 nrm, double scale,
                          double margin, int *sel)
{
    double lt = 1e-9 * scale, at = 1e-9 * scale * scale;
    /* drop coincident duplicates (the first stays) */
    int keep[IMP_MANIFOLD3D_REDUCE_MAX], nk = 0;
    n = n < IMP_MANIFOLD3D_REDUCE_MAX ? n : IMP_MANIFOLD3D_REDUCE_MAX;
    for (int i = 0; i < n; i++) {
        int dup = 0;
        for (int j = 0; j < nk && !dup; j++) {
            double d2 = imp_v3_len2(imp_v3_sub(pa[i], pa[keep[j]]));
            dup = !(d2 > 4.0 * lt * lt) && sqrt(d2) <= lt; /* (the root only near the bound) */
        }
        if (!dup) {
            keep[nk++] = i;
        }
    }
    if (nk <= IMP_MANIFOLD3D_MAX) {
        for (int j = 0; j < nk; j++) {
            sel[j] = keep[j];
        }
        return nk;
    }
    double val[IMP_MANIFOLD3D_REDUCE_MAX], best = -INFINITY;
    imp_vec3 q[IMP_MANIFOLD3D_REDUCE_MAX];
    for (int j = 0; j < nk; j++) {
        q[j] = flat(pa[keep[j]], nrm);
        val[j] = -dist[keep[j]];
        best = imp_max(best, val[j]);
    }
    /* 1. the deepest: the first within a quarter of the margin of the deepest (a resting
       polygon's depths differ by its rocking, which must not move the choice) */
    int m = 0;
    sel[m++] = first_within(keep, val, nk, best, imp_max(0.25 * margin, lt));
    imp_vec3 p1 = q[index_of(keep, nk, sel[0])];
    /* 2. the farthest from it in the contact plane (relative ties within 1e-3) */
    best = 0.0;
    for (int j = 0; j < nk; j++) {
        val[j] = imp_v3_dist(q[j], p1);
        best = imp_max(best, val[j]);
    }
    if (!(best > lt)) {
        return m;
    }
    sel[m++] = first_within(keep, val, nk, best, 1e-3 * best);
    imp_vec3 p2 = q[index_of(keep, nk, sel[1])];
    /* 3. the largest triangle */
    best = 0.0;
    for (int j = 0; j < nk; j++) {
        val[j] = fabs(tri_area(p1, p2, q[j], nrm));
        best = imp_max(best, val[j]);
    }
    if (!(best > at)) {
        return m;
    }
    sel[m++] = first_within(keep, val, nk, best, 1e-3 * best);
    imp_vec3 p3 = q[index_of(keep, nk, sel[2])];
    /* 4. the largest gain of area: the sum of the areas q adds beyond the triangle's edges */
    double sg = tri_area(p1, p2, p3, nrm) > 0.0 ? 1.0 : -1.0;
    imp_vec3 t[3] = {p1, p2, p3};
    best = 0.0;
    for (int j = 0; j < nk; j++) {
        double g = 0.0;
        for (int e = 0; e < 3; e++) {
            g += imp_max(0.0, -sg * tri_area(t[e], t[(e + 1) % 3], q[j], nrm));
        }
        val[j] = g;
        best = imp_max(best, g);
    }
    if (!(best > at)) {
        return m;
    }
    sel[m++] = first_within(keep, val, nk, best, 1e-3 * best);
    return m;
}

int imp_manifold3d_compute(const imp_shape *a, const double *pose_a, const imp_shape *b, const double *pose_b,
                           double margin, imp_manifold3d *out)
{
    imp_contact3d c;
    memset(out, 0, sizeof *out);
    int st = imp_collide3d(a, pose_a, b, pose_b, &c);
    out->status = st;
    memcpy(out->normal, c.normal, sizeof out->normal);
    if (st == IMP_NP_BADINPUT || st == IMP_NP_UNSUPPORTED) {
        return st;
    }
    if (!(margin >= 0.0)) {
        margin = 0.0;
    }
    if (!(c.distance <= margin)) {
        return st;
    }
    imp_support3d sa, sb;
    imp_support3d_init(&sa, a, pose_a);
    imp_support3d_init(&sb, b, pose_b);
    imp_vec3 n = imp_v3_load(c.normal);
    cands cs;
    refsearch rs;
    cs.n = 0;
    double scale;
    if (sa.c->kind == IMP_S3_WALL || sb.c->kind == IMP_S3_WALL) {
        int a_wall = sa.c->kind == IMP_S3_WALL;
        scale = a_wall ? sb.scale : sa.scale;
        wall(a_wall ? &sb : &sa, a_wall ? &sa : &sb, !a_wall, margin, &cs, &n);
    } else {
        scale = sa.scale + sb.scale;
        reference(&sa, &sb, &c, scale, &rs);
        int r = rs.side;
        if (r != 0) {
            const imp_feature3d *rf = &rs.buf[rs.best];
            const imp_support3d *ref = r == 1 ? &sa : &sb;
            frame fr = {r == 1 ? &sb : &sa, r == 2, rf->normal,
                        imp_v3_dot(rf->normal, rf->v[0]) + ref->sweep,
                        (r == 2 ? 1u : 0u) << 29 /* kind KIND_CLIP = 0 */ | (rf->id & 255u) << 21, margin,
                        1e-3 * imp_min(sa.scale, sb.scale)};
            clipped(&fr, rf, &cs, scale);
            if (cs.n > 0) {
                n = r == 1 ? rf->normal : imp_v3_neg(rf->normal);
            }
        }
        if (cs.n == 0) {
            segment_pair(&sa, &sb, n, margin, scale, &cs);
        }
    }
    if (cs.n == 0) {
        n = imp_v3_load(c.normal);
        push(&cs, imp_v3_load(c.point_a), imp_v3_load(c.point_b), c.distance, (unsigned)KIND_SINGLE << 30);
    }
    int sel[IMP_MANIFOLD3D_MAX];
    imp_vec3 pa[IMP_CLIP_MAX + 1];
    double dist[IMP_CLIP_MAX + 1];
    for (int i = 0; i < cs.n; i++) {
        pa[i] = cs.c[i].pa;
        dist[i] = cs.c[i].dist;
    }
    int m = imp_manifold3d_reduce(pa, dist, cs.n, n, scale, margin, sel);
    imp_v3_store(out->normal, n);
    for (int i = 0; i < m; i++) {
        const cand *k = &cs.c[sel[i]];
        imp_v3_store(out->points[i].point_a, k->pa);
        imp_v3_store(out->points[i].point_b, k->pb);
        out->points[i].distance = k->dist;
        out->points[i].key = k->key;
    }
    out->count = m;
    return st;
}
