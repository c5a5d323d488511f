/* collide2d_clip.c: separating axes and clipping for two strictly convex straight-edged
   polygons at rest poses (see collide2d_clip.h). World frame throughout. The separations
   along a polygon's edges may be taken four edges at a time (AVX2, max_separation_avx2): the
   same operations edge by edge, the same results bit for bit. */
#include "collide2d_clip.h"

#include <math.h>
#include <stddef.h>

#include "polygon2d.h"
#include "xform2d.h"

enum { CLIP_MAX = 16 };  /* vertices of a polygon handled here (more: the general path) */

typedef struct side {
    const imp_body2d *b;
    const imp_poly2d *g;
    imp_xf2 x;
    const imp_vec2 *v;    /* the vertices, world: own, or the prepared transform's */
    imp_vec2 own[CLIP_MAX];
} side;

typedef struct sink {
    double tol, vtol;
    imp_hit2d *out;
    int cap, n;
} sink;

static int applicable(const imp_body2d *b, const imp_body2d_xf *t)
{
    const imp_poly2d *g = t->poly;
    if (b->has_prev || !g->lines_convex || g->narcs != 0 || g->npaths != 1 || g->nedges > CLIP_MAX
        || g->nvertices != g->nedges || g->nends != g->nedges) {
        return 0;
    }
    for (int k = 0; k < g->nedges; k++) {
        if (g->edges[k].flags & IMP_EDGE_NO_COLLIDE) {
            return 0;
        }
    }
    return 1;
}

static void pose_side(side *s, const imp_body2d *b, const imp_body2d_xf *t)
{
    s->b = b;
    s->g = t->poly;
    s->x = t->now;
    if (t->clip == 1 && t->nv == s->g->nvertices) {
        s->v = t->v;
        return;
    }
    for (int i = 0; i < s->g->nvertices; i++) {
        s->own[i] = imp_xf2_apply(s->x, s->g->vertices[i].p);
    }
    s->v = s->own;
}

void imp_collide2d_clip_prepare(const imp_body2d *b, imp_body2d_xf *x)
{
    x->clip = x->valid && applicable(b, x);
    x->nv = 0;
    if (x->clip && x->poly->nvertices <= IMP_XF2D_VERTICES) {
        for (int i = 0; i < x->poly->nvertices; i++) {
            x->v[i] = imp_xf2_apply(x->now, x->poly->vertices[i].p);
        }
        x->nv = x->poly->nvertices;
    }
}

/* whether the clipping path takes the body: as prepared, or tested now */
static int takes(const imp_body2d *b, const imp_body2d_xf *t)
{
    return t->clip >= 0 ? t->clip : t->valid && applicable(b, t);
}

/* the greatest over r's edges of the least signed distance of o's vertices to the edge's
   line (> 0: separated along that edge's normal), and that edge */
static double max_separation(const side *r, const side *o, int *edge)
{
    double best = -INFINITY;
    int be = 0;
    for (int k = 0; k < r->g->nedges; k++) {
        const imp_edge2d *e = &r->g->edges[k];
        imp_vec2 n = imp_xf2_rot(r->x, e->n), a = r->v[e->v0];
        double least = INFINITY;
        for (int j = 0; j < o->g->nvertices; j++) {
            double d = imp_v2_dot(n, imp_v2_sub(o->v[j], a));
            least = d < least ? d : least;
        }
        if (least > best) {
            best = least;
            be = k;
        }
    }
    *edge = be;
    return best;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include "avx2.h"

/* max_separation with the edges four at a time, one per lane: each lane's rotation, distances
   and running least (minpd keeps the running value on ties and NaN, as d < least ? d :
   least) as the scalar code's; the edges then compared in order */
static AVX2 double max_separation_avx2(const side *r, const side *o, int *edge)
{
    double best = -INFINITY;
    int be = 0, ne = r->g->nedges;
    const v4 c = _mm256_set1_pd(r->x.c), sn = _mm256_set1_pd(r->x.s);
    for (int k0 = 0; k0 < ne; k0 += 4) {
        double nx[4], ny[4], ax[4], ay[4], least[4];
        for (int l = 0; l < 4; l++) {
            const imp_edge2d *e = &r->g->edges[k0 + l < ne ? k0 + l : ne - 1];
            nx[l] = e->n.x, ny[l] = e->n.y;
            ax[l] = r->v[e->v0].x, ay[l] = r->v[e->v0].y;
        }
        v4 ex = _mm256_loadu_pd(nx), ey = _mm256_loadu_pd(ny);
        v4 n0 = sub(mul(c, ex), mul(sn, ey)), n1 = add(mul(sn, ex), mul(c, ey));
        v4 px = _mm256_loadu_pd(ax), py = _mm256_loadu_pd(ay);
        v4 lst = _mm256_set1_pd(INFINITY);
        for (int j = 0; j < o->g->nvertices; j++) {
            v4 d = add(mul(n0, sub(_mm256_set1_pd(o->v[j].x), px)), mul(n1, sub(_mm256_set1_pd(o->v[j].y), py)));
            lst = _mm256_min_pd(d, lst);
        }
        _mm256_storeu_pd(least, lst);
        for (int l = 0; l < 4 && k0 + l < ne; l++) {
            if (least[l] > best) {
                best = least[l];
                be = k0 + l;
            }
        }
    }
    *edge = be;
    return best;
}
#define IMP_CLIP_HAVE_AVX2 1
#endif

static imp_vec2 point_velocity(const imp_body2d *b, imp_vec2 w)
{
    imp_vec2 r = imp_v2(w.x - b->pose[0], w.y - b->pose[1]);
    return imp_v2_add(imp_v2(b->velocity[0], b->velocity[1]), imp_v2_cross_sv(b->velocity[2], r));
}

/* collide2d.c's corner rule (meets, CONE_SLACK): P's corner at its vertex touches N's face
   (normal n, distance d >= 0) unless one of the corner's edges runs into the face's side of
   the line (beyond the slack) far enough to cross it before its own end */
static int corner_meets(const side *P, int vertex, imp_vec2 n, double d)
{
    const imp_vertex2d *v = &P->g->vertices[vertex];
    const imp_edge2d *e[2] = {&P->g->edges[v->edge_out], &P->g->edges[v->edge_in]};
    for (int j = 0; j < 2; j++) {
        imp_vec2 dir = imp_xf2_rot(P->x, j == 0 ? e[j]->t : imp_v2_neg(e[j]->t));
        double c = imp_v2_dot(dir, n);
        if (c < -1e-3 && -c * e[j]->length > d) {
            return 0;
        }
    }
    return 1;
}

/* a vertex/edge result: P's vertex at qp, its foot q on N's edge, N's normal n, distance d;
   decided and classified as the general path does (collide2d.c's touch_tests and emit): a
   corner within the margin of the face touches it (distance 0), and one touching it or
   near the face's ends (within distance_tol) only when it meets it */
static void emit(sink *k, const side *P, int vertex, const side *N, int edge, imp_vec2 q, imp_vec2 qp,
                 imp_vec2 n, double d)
{
    const imp_edge2d *e = &N->g->edges[edge];
    double margin = 1e-9 * (N->g->radius + k->tol), t2 = k->tol * k->tol;
    if (d >= -margin) {
        int doubt = d <= margin || imp_v2_len2(imp_v2_sub(q, N->v[e->v0])) <= t2
                    || imp_v2_len2(imp_v2_sub(q, N->v[e->v1])) <= t2;
        d = d > 0.0 ? d : 0.0;
        if (doubt && !corner_meets(P, vertex, n, d)) {
            return;
        }
    }
    double vn = imp_v2_dot(imp_v2_sub(point_velocity(P->b, q), point_velocity(N->b, q)), n);
    int kind;
    if (d < 0.0) {
        kind = IMP_HIT_COLLISION;
    } else if (d > k->tol || vn > k->vtol) {
        return;
    } else {
        kind = vn < -k->vtol ? IMP_HIT_IMMINENT : IMP_HIT_CONTACT;
    }
    if (k->n < k->cap) {
        imp_hit2d *h = &k->out[k->n];
        h->body = P->b->id;
        h->normal_body = N->b->id;
        h->kind = kind;
        h->type = IMP_HIT_VERTEX_EDGE;
        h->vertex = vertex;
        h->edge = -1;
        h->normal_edge = edge;
        h->normal_vertex = -1;
        h->decorated = h->swept = 0;
        h->point[0] = q.x, h->point[1] = q.y;
        h->point_primary[0] = qp.x, h->point_primary[1] = qp.y;
        h->normal[0] = n.x, h->normal[1] = n.y;
        h->distance = d;
        h->normal_velocity = vn;
        h->curvature = h->normal_curvature = h->cone_margin = 0.0;
    }
    k->n++;
}

/* reference edge re of R against the incident edge of I most opposed to it, clipped */
static void clip(sink *k, const side *R, int re, const side *I)
{
    const imp_edge2d *er = &R->g->edges[re];
    imp_vec2 n = imp_xf2_rot(R->x, er->n), t = imp_xf2_rot(R->x, er->t), a = R->v[er->v0];
    int ie = 0;
    double most = INFINITY;
    for (int j = 0; j < I->g->nedges; j++) {
        double c = imp_v2_dot(imp_xf2_rot(I->x, I->g->edges[j].n), n);
        if (c < most) {
            most = c;
            ie = j;
        }
    }
    const imp_edge2d *ei = &I->g->edges[ie];
    imp_vec2 ni = imp_xf2_rot(I->x, ei->n), ai = I->v[ei->v0];
    const int iv[2] = {ei->v0, ei->v1};
    double s[2], len = er->length;
    for (int j = 0; j < 2; j++) {  /* the incident vertices over the reference face */
        imp_vec2 p = I->v[iv[j]];
        s[j] = imp_v2_dot(t, imp_v2_sub(p, a));
        if (s[j] >= 0.0 && s[j] <= len) {
            double d = imp_v2_dot(n, imp_v2_sub(p, a));
            emit(k, I, iv[j], R, re, imp_v2_madd(p, -d, n), p, n, d);
        }
    }
    double lo = s[0] < s[1] ? s[0] : s[1], hi = s[0] < s[1] ? s[1] : s[0];
    const int rv[2] = {er->v0, er->v1};
    const double at[2] = {0.0, len};
    for (int j = 0; j < 2; j++) {  /* the reference face's ends over the incident edge */
        if (lo < at[j] && at[j] < hi) {
            imp_vec2 p = R->v[rv[j]];
            double d = imp_v2_dot(ni, imp_v2_sub(p, ai));
            emit(k, R, rv[j], I, ie, imp_v2_madd(p, -d, ni), p, ni, d);
        }
    }
}

int imp_collide2d_clip_xf(const imp_body2d *a, const imp_body2d_xf *ta, const imp_body2d *b,
                          const imp_body2d_xf *tb, const imp_detect2d_params *p, imp_hit2d *out,
                          int capacity)
{
    return imp_collide2d_clip_xf_simd(a, ta, b, tb, p, 0, out, capacity);
}

int imp_collide2d_clip_avx2(void)
{
#if defined(IMP_CLIP_HAVE_AVX2)
    return imp_avx2_supported();
#else
    return 0;
#endif
}

int imp_collide2d_clip_xf_simd(const imp_body2d *a, const imp_body2d_xf *ta, const imp_body2d *b,
                               const imp_body2d_xf *tb, const imp_detect2d_params *p, int simd,
                               imp_hit2d *out, int capacity)
{
    if (p == NULL || !takes(a, ta) || !takes(b, tb)) {
        return imp_collide2d_detect_xf(a, ta, b, tb, p, out, capacity);
    }
    if (!(p->distance_tol > 0.0) || !(p->velocity_tol >= 0.0) || capacity < 0 || (capacity > 0 && out == NULL)) {
        return -1;
    }
    side sa, sb;
    pose_side(&sa, a, ta);
    pose_side(&sb, b, tb);
    int ea, eb;
    double da, db;
#if defined(IMP_CLIP_HAVE_AVX2)
    if (simd) {
        da = max_separation_avx2(&sa, &sb, &ea);
        db = max_separation_avx2(&sb, &sa, &eb);
    } else
#endif
    {
        (void)simd;
        da = max_separation(&sa, &sb, &ea);
        db = max_separation(&sb, &sa, &eb);
    }
    if (da > p->distance_tol || db > p->distance_tol) {
        return 0;
    }
    sink k = {p->distance_tol, p->velocity_tol, out, capacity, 0};
    if (db > da + 0.1 * p->distance_tol) {  /* (a's face unless b's is clearly better: stable) */
        clip(&k, &sb, eb, &sa);
    } else {
        clip(&k, &sa, ea, &sb);
    }
    return k.n;
}
