/* mpr.c: Minkowski portal refinement and the expanding polytope algorithm (see mpr.h).

   Why both: MPR's depth is the distance to the boundary of A - B across the portal hit by the
   ray from the interior point (the centre difference) to the origin; it is the true depth only
   when that portal lies on the face of minimum depth (a sphere centred on the ray, a box face
   hit squarely). Modia3D uses that estimate (and rescales it, see modia3d.md 1b); here MPR gives
   a tetrahedron that holds the origin, and EPA grows it into a polytope whose nearest face is
   the minimum-translation direction, which is the depth a contact law needs. */
#include "mpr.h"

#include <math.h>

static imp_mvert sup(const imp_mink3d *m, imp_vec3 d)
{
    imp_mvert v;
    v.w = imp_mink3d_support(m, d, &v.a, &v.b);
    return v;
}

/* a unit vector perpendicular to v (deterministic) */
static imp_vec3 perpendicular(imp_vec3 v)
{
    imp_vec3 ax = fabs(v.x) <= fabs(v.y) && fabs(v.x) <= fabs(v.z) ? imp_v3(1, 0, 0)
                  : (fabs(v.y) <= fabs(v.z) ? imp_v3(0, 1, 0) : imp_v3(0, 0, 1));
    return imp_v3_normalize(imp_v3_cross(v, ax));
}

/* barycentric point of p (on the plane of the triangle) on A and B */
static void bary(const imp_mvert *t0, const imp_mvert *t1, const imp_mvert *t2, imp_vec3 p, imp_vec3 n,
                 imp_vec3 *pa, imp_vec3 *pb)
{
    double tot = imp_v3_dot(imp_v3_cross(imp_v3_sub(t1->w, t0->w), imp_v3_sub(t2->w, t0->w)), n);
    double l0 = 1.0 / 3.0, l1 = 1.0 / 3.0;
    if (fabs(tot) > 0.0) {
        l0 = imp_v3_dot(imp_v3_cross(imp_v3_sub(t1->w, p), imp_v3_sub(t2->w, p)), n) / tot;
        l1 = imp_v3_dot(imp_v3_cross(imp_v3_sub(t2->w, p), imp_v3_sub(t0->w, p)), n) / tot;
    }
    double l2 = 1.0 - l0 - l1;
    *pa = imp_v3_add(imp_v3_add(imp_v3_scale(t0->a, l0), imp_v3_scale(t1->a, l1)), imp_v3_scale(t2->a, l2));
    *pb = imp_v3_add(imp_v3_add(imp_v3_scale(t0->b, l0), imp_v3_scale(t1->b, l1)), imp_v3_scale(t2->b, l2));
}

void imp_mpr(const imp_mink3d *m, double tol, int max_iter, int seed_only, imp_mpr_result *out)
{
    double scale = m->a->scale + m->b->scale;
    imp_mvert v0, v1, v2, v3;
    int it = 0;
    out->iterations = 0;
    out->depth = 0.0;
    out->normal = imp_v3(0, 0, 1);
    out->pa = out->pb = imp_v3_zero();
    v0.a = m->a->centre;
    v0.b = m->b->centre;
    v0.w = imp_v3_sub(v0.a, v0.b);
    if (imp_v3_len2(v0.w) <= 1e-24 * scale * scale) { /* concentric: nudge the interior point */
        v0.a.x += 1e-9 * scale;
        v0.w = imp_v3_sub(v0.a, v0.b);
    }
    imp_vec3 n = imp_v3_neg(v0.w);
    out->normal = imp_v3_normalize(n); /* the answer of a miss: from A's centre to B's */
    v1 = sup(m, n);
    if (imp_v3_dot(v1.w, n) < 0.0) {
        out->status = IMP_MPR_MISS;
        return;
    }
    n = imp_v3_cross(v1.w, v0.w);
    if (imp_v3_len2(n) <= 1e-28 * imp_v3_len2(v1.w) * imp_v3_len2(v0.w)) {
        n = perpendicular(v0.w); /* the origin lies on the line v0 v1 */
    }
    v2 = sup(m, n);
    if (imp_v3_dot(v2.w, n) < 0.0) {
        out->status = IMP_MPR_MISS;
        return;
    }
    n = imp_v3_cross(imp_v3_sub(v1.w, v0.w), imp_v3_sub(v2.w, v0.w));
    if (imp_v3_dot(n, v0.w) > 0.0) {
        imp_mvert t = v1;
        v1 = v2;
        v2 = t;
        n = imp_v3_neg(n);
    }
    /* phase 1: a portal (v1, v2, v3) crossed by the ray from v0 through the origin */
    for (;;) {
        if (++it > max_iter) {
            out->status = IMP_MPR_MAXITER;
            out->iterations = it;
            return;
        }
        if (imp_v3_len2(n) <= 1e-30 * scale * scale * scale * scale) {
            out->status = IMP_MPR_DEGENERATE;
            out->iterations = it;
            return;
        }
        v3 = sup(m, n);
        if (imp_v3_dot(v3.w, n) < 0.0) {
            out->status = IMP_MPR_MISS;
            out->iterations = it;
            return;
        }
        if (imp_v3_dot(imp_v3_cross(v1.w, v3.w), v0.w) < 0.0) {
            v2 = v3;
            n = imp_v3_cross(imp_v3_sub(v1.w, v0.w), imp_v3_sub(v3.w, v0.w));
            continue;
        }
        if (imp_v3_dot(imp_v3_cross(v3.w, v2.w), v0.w) < 0.0) {
            v1 = v3;
            n = imp_v3_cross(imp_v3_sub(v3.w, v0.w), imp_v3_sub(v2.w, v0.w));
            continue;
        }
        break;
    }
    /* phase 2: move the portal out to the boundary */
    for (;;) {
        n = imp_v3_cross(imp_v3_sub(v2.w, v1.w), imp_v3_sub(v3.w, v1.w));
        double l = imp_v3_len(n);
        if (!(l > 1e-30 * scale * scale)) {
            out->status = IMP_MPR_DEGENERATE;
            out->iterations = it;
            return;
        }
        n = imp_v3_scale(n, 1.0 / l);
        imp_mvert v4 = sup(m, n);
        int inside = imp_v3_dot(n, v1.w) >= 0.0;
        if (!inside && imp_v3_dot(v4.w, n) < 0.0) {
            out->normal = n;
            out->status = IMP_MPR_MISS;
            out->iterations = it;
            return;
        }
        if ((seed_only && inside) || imp_v3_dot(imp_v3_sub(v4.w, v1.w), n) <= tol || ++it > max_iter) {
            out->status = it > max_iter ? IMP_MPR_MAXITER : (inside ? IMP_MPR_HIT : IMP_MPR_MISS);
            break;
        }
        imp_vec3 t = imp_v3_cross(v4.w, v0.w);
        if (imp_v3_dot(v1.w, t) > 0.0) {
            if (imp_v3_dot(v2.w, t) > 0.0) {
                v1 = v4;
            } else {
                v3 = v4;
            }
        } else {
            if (imp_v3_dot(v3.w, t) > 0.0) {
                v2 = v4;
            } else {
                v1 = v4;
            }
        }
    }
    out->iterations = it;
    out->normal = n;
    out->depth = imp_v3_dot(n, v1.w);
    bary(&v1, &v2, &v3, imp_v3_scale(n, out->depth), n, &out->pa, &out->pb);
    out->tet[0] = v0, out->tet[1] = v1, out->tet[2] = v2, out->tet[3] = v3;
}

typedef struct efa {
    int v[3];
    imp_vec3 n;
    double d;
    int alive;
} efa;

typedef struct epa_ctx {
    imp_mvert vert[IMP_EPA_MAX_VERTS];
    efa face[IMP_EPA_MAX_FACES];
    int nv, nf;
    int free_slot[IMP_EPA_MAX_FACES]; /* stack of dead face slots */
    int nfree;
    int edge[3 * IMP_EPA_MAX_FACES][2];
} epa_ctx;

/* a face (i, j, k) in a free slot; -1 when full or degenerate */
static int add_face(epa_ctx *e, int i, int j, int k)
{
    int slot = e->nfree > 0 ? e->free_slot[--e->nfree] : -1;
    if (slot < 0) {
        if (e->nf == IMP_EPA_MAX_FACES) {
            return -1;
        }
        slot = e->nf++;
    }
    efa *f = &e->face[slot];
    imp_vec3 a = e->vert[i].w;
    imp_vec3 n = imp_v3_cross(imp_v3_sub(e->vert[j].w, a), imp_v3_sub(e->vert[k].w, a));
    double l = imp_v3_len(n);
    if (!(l > 0.0)) {
        f->alive = 0;
        e->free_slot[e->nfree++] = slot;
        return -2;
    }
    f->v[0] = i, f->v[1] = j, f->v[2] = k;
    f->n = imp_v3_scale(n, 1.0 / l);
    f->d = imp_v3_dot(f->n, a);
    f->alive = 1;
    return slot;
}

/* the live face nearest the origin (lowest d; the first of equals), or -1 when no face is
   alive. O(nf). */
static int closest_face(const epa_ctx *e)
{
    int best = -1;
    for (int f = 0; f < e->nf; f++) {
        if (e->face[f].alive && (best < 0 || e->face[f].d < e->face[best].d)) {
            best = f;
        }
    }
    return best;
}

void imp_epa(const imp_mink3d *m, const imp_mvert tet[4], double tol, int max_iter,
             imp_epa_result *out)
{
    /* ~140 kB: per thread, not on the stack, never allocated */
    static _Thread_local epa_ctx ctx;
    epa_ctx *ep = &ctx;
    ep->nv = 4;
    ep->nf = 0;
    ep->nfree = 0;
    for (int i = 0; i < 4; i++) {
        ep->vert[i] = tet[i];
    }
    static const int tf[4][4] = {{0, 1, 2, 3}, {0, 3, 1, 2}, {0, 2, 3, 1}, {1, 3, 2, 0}};
    out->iterations = 0;
    out->depth = 0.0;
    out->normal = imp_v3(0, 0, 1);
    out->pa = out->pb = imp_v3_zero();
    for (int f = 0; f < 4; f++) {
        int i = tf[f][0], j = tf[f][1], k = tf[f][2];
        imp_vec3 a = ep->vert[i].w;
        imp_vec3 n = imp_v3_cross(imp_v3_sub(ep->vert[j].w, a), imp_v3_sub(ep->vert[k].w, a));
        if (imp_v3_dot(n, imp_v3_sub(ep->vert[tf[f][3]].w, a)) > 0.0) {
            int t = j;
            j = k;
            k = t;
        }
        if (add_face(ep, i, j, k) < 0) {
            out->status = IMP_MPR_DEGENERATE;
            return;
        }
    }
    /* A closed convex polytope always keeps a face that does not see a new point, but every
       face is removed (and, the horizon being empty, none added) when the support point is
       not finite or tol is NaN or negative enough: then no face is left (best < 0). */
    int best = -1, it;
    out->status = IMP_MPR_MAXITER;
    for (it = 0; it < max_iter; it++) {
        best = closest_face(ep);
        if (best < 0) {
            break;
        }
        const efa *bf = &ep->face[best];
        imp_mvert w = sup(m, bf->n);
        if (imp_v3_dot(w.w, bf->n) - bf->d <= tol) {
            out->status = IMP_MPR_HIT;
            break;
        }
        if (ep->nv == IMP_EPA_MAX_VERTS) {
            break;
        }
        int nw = ep->nv++;
        ep->vert[nw] = w;
        /* remove the faces that see w; their unshared edges form the horizon */
        int ne = 0;
        for (int f = 0; f < ep->nf; f++) {
            efa *fc = &ep->face[f];
            if (!fc->alive || imp_v3_dot(fc->n, imp_v3_sub(w.w, ep->vert[fc->v[0]].w)) <= 0.1 * tol) {
                continue;
            }
            fc->alive = 0;
            ep->free_slot[ep->nfree++] = f;
            for (int k = 0; k < 3; k++) {
                int a = fc->v[k], b = fc->v[(k + 1) % 3], found = -1;
                for (int q = 0; q < ne; q++) {
                    if (ep->edge[q][0] == b && ep->edge[q][1] == a) {
                        found = q;
                        break;
                    }
                }
                if (found >= 0) {
                    ep->edge[found][0] = ep->edge[ne - 1][0];
                    ep->edge[found][1] = ep->edge[ne - 1][1];
                    ne--;
                } else {
                    ep->edge[ne][0] = a;
                    ep->edge[ne][1] = b;
                    ne++;
                }
            }
        }
        int failed = 0;
        for (int q = 0; q < ne && !failed; q++) {
            failed = add_face(ep, ep->edge[q][0], ep->edge[q][1], nw) == -1;
        }
        if (failed) {
            break; /* out of room: keep the best face found */
        }
    }
    if (out->status != IMP_MPR_HIT) {
        best = closest_face(ep); /* the closest live face after the last expansion */
    }
    out->iterations = it + 1;
    if (best < 0) {
        out->status = IMP_MPR_DEGENERATE; /* no polytope left: keep the defaults set above */
        return;
    }
    const efa *bf = &ep->face[best];
    out->normal = bf->n;
    out->depth = bf->d;
    bary(&ep->vert[bf->v[0]], &ep->vert[bf->v[1]], &ep->vert[bf->v[2]], imp_v3_scale(bf->n, bf->d), bf->n,
         &out->pa, &out->pb);
}
