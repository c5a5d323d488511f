/* manifold3d_box.c: the contact manifold of two plain boxes by their separating axes
   (manifold3d_box.h). */
#include "manifold3d_box.h"

#include <math.h>
#include <string.h>

#include "manifold3d_clip.h"
#include "manifold3d_reduce.h"

/* manifold3d.h's tolerances of the reference choice */
#define VALID_REL 0.1
#define VALID_ABS 2e-3
#define BIAS_REL 0.05
#define BIAS_ABS 1e-3
#define CLIP_TOL 1e-3 /* of the smaller scale: incident vertices this far outside a side kept */
#define EDGE_MIN 1e-6 /* edge cross products shorter than this are left out */
#define COS_FACE 0.99 /* a candidate face within about 8 degrees of the axis */
#define TOUCH_TOL 1e-6 /* |d| within this of the scale: touching, the axis unreliable */
/* the clip's points: a face's 4 corners clipped by 4 sides, each adding at most one point to a
   convex polygon (its points stay on the first one's boundary, in order): 8; twice that, and a
   clip that fills it (never seen) is left to the general path */
#define BOX_CLIP 16

int imp_manifold3d_is_plain_box(const imp_shape *s)
{
    const imp_convex3d *c = imp_shape3d_data(s);
    return c != NULL && c->kind == IMP_S3_BOX && c->sweep == 0.0;
}

static imp_vec3 col(const imp_mat3 *r, int k) { return imp_v3(r->m[0][k], r->m[1][k], r->m[2][k]); }

/* the separations along the 15 axes: sa[i] A's faces, sb[j] B's faces; the largest of all, or
   of the faces' when that exceeds margin (a lower bound of the distance already), and its axis
   (unit, either sense; faces win ties, A's first) */
static double separations(const imp_support3d *a, const imp_support3d *b, double C[3][3],
                          const double ta[3], const double tb[3], double margin, double sa[3], double sb[3],
                          imp_vec3 *axis)
{
    const double *ha = a->c->core, *hb = b->c->core;
    double ac[3][3];
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            ac[i][j] = fabs(C[i][j]);
        }
    }
    for (int i = 0; i < 3; i++) {
        sa[i] = fabs(ta[i]) - ha[i] - (hb[0] * ac[i][0] + hb[1] * ac[i][1] + hb[2] * ac[i][2]);
        sb[i] = fabs(tb[i]) - hb[i] - (ha[0] * ac[0][i] + ha[1] * ac[1][i] + ha[2] * ac[2][i]);
    }
    double best = -INFINITY;
    for (int i = 0; i < 6; i++) {
        double si = i < 3 ? sa[i] : sb[i - 3];
        if (si > best) {
            best = si;
            *axis = i < 3 ? col(&a->rot, i) : col(&b->rot, i - 3);
        }
    }
    if (best > margin) {
        return best;
    }
    imp_vec3 t = imp_v3_sub(b->origin, a->origin);
    for (int i = 0; i < 3; i++) {
        int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; j++) {
            int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            imp_vec3 l = imp_v3_cross(col(&a->rot, i), col(&b->rot, j));
            double len = imp_v3_len(l);
            if (!(len > EDGE_MIN)) {
                continue;
            }
            /* uA_i1 . (uA_i x uB_j) = -uA_i2 . uB_j, uA_i2 . (...) = uA_i1 . uB_j; alike for B */
            double rad = ha[i1] * ac[i2][j] + ha[i2] * ac[i1][j] + hb[j1] * ac[i][j2] + hb[j2] * ac[i][j1];
            double se = (fabs(imp_v3_dot(t, l)) - rad) / len;
            if (se > best) {
                best = se;
                *axis = imp_v3_scale(l, 1.0 / len);
            }
        }
    }
    return best;
}

/* the face axis of the box (rotation r) most aligned with the unit n, either sense: its
   index, and |cos| of the angle in *c */
static int aligned(const imp_mat3 *r, imp_vec3 n, double *c)
{
    int k = 0;
    double best = -1.0;
    for (int i = 0; i < 3; i++) {
        double x = fabs(imp_v3_dot(col(r, i), n));
        if (x > best) {
            best = x;
            k = i;
        }
    }
    *c = best;
    return k;
}

/* the reference face's four side planes in its box's frame (axis ar, outward sign sr), in the
   order of manifold3d_feature.c's face polygon (counter-clockwise about the outward normal) */
static void sides(const double *h, int ar, int sr, imp_clip_side sd[4])
{
    int b = (ar + 1) % 3, c = (ar + 2) % 3;
    const int axis[4] = {c, b, c, b};
    const int sign[4] = {-sr, 1, sr, -1};
    for (int k = 0; k < 4; k++) {
        double s[3] = {0.0, 0.0, 0.0};
        s[axis[k]] = sign[k];
        sd[k].s = imp_v3_load(s);
        sd[k].off = h[axis[k]];
    }
}

/* the incident box's face most aligned with d (its frame: manifold3d_feature.h's box face),
   its four corners mapped by x = M l + o into the reference frame; returns the face's id */
static unsigned incident(const double *h, const double d[3], double M[3][3], const double o[3], imp_clip_poly *p)
{
    double l[4][3];
    unsigned vid[4];
    unsigned id = imp_feature3d_box_corners(h, d, l, vid);
    p->n = 4;
    for (int j = 0; j < 4; j++) {
        double x[3];
        for (int r = 0; r < 3; r++) {
            x[r] = M[r][0] * l[j][0] + M[r][1] * l[j][1] + M[r][2] * l[j][2] + o[r];
        }
        p->p[j] = imp_v3_load(x);
        p->code[j] = (unsigned)j;
        p->label[j] = (unsigned)j;
    }
    return id;
}

int imp_manifold3d_box(const imp_support3d *a, const imp_support3d *b, double margin, imp_manifold3d *out,
                       double *gap)
{
    if (!(margin >= 0.0)) {
        margin = 0.0;
    }
    double C[3][3], ta[3], tb[3], sa[3], sb[3];
    imp_vec3 t = imp_v3_sub(b->origin, a->origin);
    for (int i = 0; i < 3; i++) {
        imp_vec3 ui = col(&a->rot, i);
        for (int j = 0; j < 3; j++) {
            C[i][j] = imp_v3_dot(ui, col(&b->rot, j));
        }
        ta[i] = imp_v3_dot(ui, t);
        tb[i] = imp_v3_dot(col(&b->rot, i), t);
    }
    memset(out, 0, sizeof *out);
    out->status = IMP_NP_OK;
    *gap = NAN;
    if (!isfinite(ta[0] + ta[1] + ta[2] + tb[0] + tb[1] + tb[2] + C[0][0] + C[1][1] + C[2][2])) {
        return 0;  /* poses beyond the doubles' range: the general path says so */
    }
    imp_vec3 axis = imp_v3(0, 0, 1);
    double d = separations(a, b, C, ta, tb, margin, sa, sb, &axis);
    *gap = d;
    if (d > margin) {
        return 1;
    }
    /* the candidate faces as manifold3d.h's: each box's face most aligned with the axis, within
       about 8 degrees of it (any at exact touching, where the axis is not reliable: then each
       box's face of the largest separation) */
    double scale = a->scale + b->scale, valid = VALID_REL * fabs(d) + VALID_ABS * scale;
    double bias = BIAS_REL * fabs(d) + BIAS_ABS * scale, ca, cb;
    int touching = fabs(d) <= TOUCH_TOL * scale;
    int ia = aligned(&a->rot, axis, &ca), jb = aligned(&b->rot, axis, &cb);
    if (touching) {
        ia = jb = 0;
        ca = cb = 1.0;
        for (int k = 1; k < 3; k++) {
            ia = sa[k] > sa[ia] ? k : ia;
            jb = sb[k] > sb[jb] ? k : jb;
        }
    }
    int side = 0;
    if (ca > COS_FACE && sa[ia] >= d - valid) {
        side = 1;
    }
    if (cb > COS_FACE && sb[jb] >= d - valid && (side == 0 || sb[jb] > sa[ia] + bias)) {
        side = 2;
    }
    if (side == 0) {
        return 0;  /* an edge on an edge: the general path */
    }
    /* the reference box R (frame: its axes), the incident I mapped into it by x = M l + o */
    const imp_support3d *ref = side == 1 ? a : b, *inc = side == 1 ? b : a;
    int ar = side == 1 ? ia : jb;
    int sr = (side == 1 ? ta[ia] : -tb[jb]) >= 0.0 ? 1 : -1;  /* towards the incident box */
    double M[3][3], o[3], dI[3];
    for (int r = 0; r < 3; r++) {
        for (int k = 0; k < 3; k++) {
            M[r][k] = side == 1 ? C[r][k] : C[k][r];
        }
        o[r] = side == 1 ? ta[r] : -tb[r];
        dI[r] = -sr * (side == 1 ? C[ar][r] : C[r][ar]);  /* -nf in I's frame */
    }
    imp_clip_poly buf[2];
    imp_vec3 bp[2 * BOX_CLIP];
    unsigned bcode[2 * BOX_CLIP], blabel[2 * BOX_CLIP];
    imp_clip_buffers(buf, BOX_CLIP, bp, bcode, blabel);
    unsigned inc_id = incident(inc->c->core, dI, M, o, &buf[0]);
    imp_clip_side sd[4];
    const double *hr = ref->c->core;
    sides(hr, ar, sr, sd);
    const imp_clip_poly *cp = imp_clip_polygon(buf, sd, 4, CLIP_TOL * fmin(a->scale, b->scale));
    if (cp->n >= BOX_CLIP) {
        return 0;
    }
    imp_vec3 nf = imp_v3_scale(col(&ref->rot, ar), (double)sr);
    unsigned prefix = (side == 2 ? 1u : 0u) << 29 | ((unsigned)(2 * ar + (sr > 0)) & 255u) << 21 | (inc_id & 127u) << 14;
    imp_vec3 pa[BOX_CLIP], pb[BOX_CLIP];
    double dist[BOX_CLIP];
    unsigned key[BOX_CLIP];
    int n = 0;
    for (int i = 0; i < cp->n; i++) {
        imp_vec3 x = cp->p[i];
        double dx = sr * (ar == 0 ? x.x : (ar == 1 ? x.y : x.z)) - hr[ar];
        if (!(dx <= margin)) {
            continue;
        }
        imp_vec3 q = imp_v3_add(ref->origin, imp_m3_mulv(&ref->rot, x));
        imp_vec3 r = imp_v3_madd(q, -dx, nf);
        pa[n] = side == 2 ? q : r;
        pb[n] = side == 2 ? r : q;
        dist[n] = dx;
        key[n] = prefix | cp->code[i];
        n++;
    }
    if (n == 0) {
        return 0;  /* nothing within the margin after clipping: the general path decides */
    }
    imp_vec3 nrm = side == 1 ? nf : imp_v3_neg(nf);
    int sel[IMP_MANIFOLD3D_MAX];
    int m = imp_manifold3d_reduce(pa, dist, n, nrm, scale, margin, sel);
    imp_v3_store(out->normal, nrm);
    for (int i = 0; i < m; i++) {
        imp_v3_store(out->points[i].point_a, pa[sel[i]]);
        imp_v3_store(out->points[i].point_b, pb[sel[i]]);
        out->points[i].distance = dist[sel[i]];
        out->points[i].key = key[sel[i]];
    }
    out->count = m;
    return 1;
}
