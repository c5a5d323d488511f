/* test_collide2d_clip.c: the clipping narrow phase for convex straight-edged polygons
   (collide2d_clip.h, the soft step's): the contacts of resting boxes worked by hand (how
   many, where, along which normal, how deep), the same results as the general path
   (imp_collide2d_detect_xf: features, points, normals, distances, kinds) on random resting
   pairs of boxes, its AVX2 path (imp_collide2d_clip_xf_simd) the same bit for bit, and the
   general path kept for the shapes it does not take. */
#include "check.h"
#include "collide2d.h"
#include "collide2d_clip.h"
#include "polygon2d.h"
#include "shape2d_basic.h"
#include "xform2d.h"

static const imp_detect2d_params tol = {0.01, 0.5, 0, 0};

static unsigned long long rng_state = 0x9e3779b97f4a7c15ULL;
static double rnd(void)  /* uniform in [0, 1) (xorshift64*) */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 2685821657736338717ULL) >> 11) * 0x1.0p-53;
}

/* body id at (x, y, angle) in the frame turned by phi and moved by (ox, oy) */
static imp_body2d posed(const imp_shape *s, int id, const double *f, double x, double y, double angle)
{
    imp_body2d b = {s, id, {0, 0, 0}, {0, 0, 0}, 0, {0, 0, 0}};
    b.pose[0] = f[1] + cos(f[0]) * x - sin(f[0]) * y;
    b.pose[1] = f[2] + sin(f[0]) * x + cos(f[0]) * y;
    b.pose[2] = f[0] + angle;
    return b;
}

static int clip(const imp_body2d *a, const imp_body2d *b, imp_hit2d *h, int cap)
{
    imp_body2d_xf xa, xb;
    imp_collide2d_prepare(a, &xa);
    imp_collide2d_prepare(b, &xb);
    return imp_collide2d_clip_xf(a, &xa, b, &xb, &tol, h, cap);
}

static int general(const imp_body2d *a, const imp_body2d *b, imp_hit2d *h, int cap)
{
    imp_body2d_xf xa, xb;
    imp_collide2d_prepare(a, &xa);
    imp_collide2d_prepare(b, &xb);
    return imp_collide2d_detect_xf(a, &xa, b, &xb, &tol, h, cap);
}

/* a point of frame f in the world */
static imp_vec2 at(const double *f, double x, double y)
{
    return imp_v2_add(imp_v2(f[1], f[2]), imp_v2_rotate(imp_v2(x, y), f[0]));
}

/* one of the n hits has its point within 1e-9 of p, distance d (1e-12), the normal from
   body 1 toward body 2 along frame f's (nx, ny) (1e-12) */
static int has_hit(const imp_hit2d *h, int n, const double *f, imp_vec2 p, double d, double nx, double ny)
{
    imp_vec2 want = imp_v2_rotate(imp_v2(nx, ny), f[0]);
    for (int i = 0; i < n; i++) {
        imp_vec2 nv = imp_v2(h[i].normal[0], h[i].normal[1]);
        if (h[i].normal_body != 1) {
            nv = imp_v2_neg(nv);
        }
        if (imp_v2_dist(imp_v2(h[i].point[0], h[i].point[1]), p) < 1e-9 && fabs(h[i].distance - d) < 1e-12
            && imp_v2_dist(nv, want) < 1e-12 && h[i].type == IMP_HIT_VERTEX_EDGE) {
            return 1;
        }
    }
    return 0;
}

TEST(resting_boxes_by_hand)
{
    imp_shape *box = imp_shape2d_rectangle(1, 1), *block = imp_shape2d_rectangle(10, 1);
    for (int k = 0; k < 5; k++) {
        const double f[3] = {0.41 * k - 0.8, 300.0 * k - 512.25, -7.5 * k};
        imp_hit2d h[8];
        /* a box sunk 0.003 into a block: its two bottom corners, 0.003 deep, normal up */
        imp_body2d a = posed(block, 1, f, 0, 0, 0), b = posed(box, 2, f, 1.25, 0.997, 0);
        int n = clip(&a, &b, h, 8);
        CHECK(n == 2 && has_hit(h, n, f, at(f, 0.75, 0.5), -0.003, 0, 1)
              && has_hit(h, n, f, at(f, 1.75, 0.5), -0.003, 0, 1));
        CHECK(h[0].kind == IMP_HIT_COLLISION && h[1].kind == IMP_HIT_COLLISION);
        /* a box half over a box, 0.004 above it: its corner over the lower's top at x = 0, the
           lower's corner under its bottom at x = 0.5; contacts within distance_tol */
        a = posed(box, 1, f, 0, 0, 0), b = posed(box, 2, f, 0.5, 1.004, 0);
        n = clip(&a, &b, h, 8);
        CHECK(n == 2 && has_hit(h, n, f, at(f, 0, 0.5), 0.004, 0, 1)
              && has_hit(h, n, f, at(f, 0.5, 0.504), 0.004, 0, 1));
        CHECK(h[0].kind == IMP_HIT_CONTACT && h[1].kind == IMP_HIT_CONTACT);
        /* side by side, 0.002 apart, the right one 0.3 higher: a's corner at y = 0.5 against
           b's left face, b's corner at y = -0.2 against a's right face */
        b = posed(box, 2, f, 1.002, 0.3, 0);
        n = clip(&a, &b, h, 8);
        CHECK(n == 2 && has_hit(h, n, f, at(f, 0.502, 0.5), 0.002, 1, 0)
              && has_hit(h, n, f, at(f, 0.5, -0.2), 0.002, 1, 0));
        /* beyond distance_tol: nothing; a box standing on one corner, turned 0.1 rad: one */
        b = posed(box, 2, f, 0.2, 1.011, 0);
        CHECK(clip(&a, &b, h, 8) == 0);
        double c = cos(0.1), s = sin(0.1), low = 0.5 * (c + s);  /* its lowest corner's depth */
        b = posed(box, 2, f, 0.1, 0.5 + low - 0.001, 0.1);
        n = clip(&a, &b, h, 8);
        imp_vec2 corner = at(f, 0.1 - 0.5 * (c - s), 0.5);  /* (the corner's foot) */
        CHECK(n == 1 && has_hit(h, n, f, corner, -0.001, 0, 1));
    }
    imp_shape_release(box);
    imp_shape_release(block);
}

/* Random resting pairs of boxes (a box on a box or a block, or side by side), small gaps and
   overlaps, small tilts, anywhere: the general path's results, feature for feature. */
TEST(agrees_with_the_general_path)
{
    imp_shape *shapes[3] = {imp_shape2d_rectangle(1, 1), imp_shape2d_rectangle(10, 1),
                            imp_shape2d_rectangle(0.6, 1.4)};
    int compared = 0;
    for (int trial = 0; trial < 3000; trial++) {
        const double f[3] = {6.283 * rnd(), 2000.0 * rnd() - 1000.0, 2000.0 * rnd() - 1000.0};
        const imp_shape *sa = shapes[trial % 3], *sb = shapes[(trial / 3) % 3 == 1 ? 0 : (trial / 3) % 3];
        const imp_poly2d *ga = imp_shape2d_poly(sa), *gb = imp_shape2d_poly(sb);
        double wa = ga->params[0], ha = ga->params[1], wb = gb->params[0], hb = gb->params[1];
        double gap = 0.012 * rnd() - 0.004, tilt = 0.008 * rnd() - 0.004;
        imp_body2d a = posed(sa, 1, f, 0, 0, 0.004 * rnd() - 0.002), b;
        if (trial % 2 == 0) {  /* on top, overlapping by some of the narrower width */
            double reach = 0.5 * (wa + wb) - 0.05;
            b = posed(sb, 2, f, (2.0 * rnd() - 1.0) * reach, 0.5 * (ha + hb) + gap, tilt);
        } else {  /* side by side */
            double reach = 0.5 * (ha + hb) - 0.05;
            b = posed(sb, 2, f, 0.5 * (wa + wb) + gap, (2.0 * rnd() - 1.0) * reach, tilt);
        }
        imp_hit2d hc[8], hg[16], hs[8];
        int nc = clip(&a, &b, hc, 8), ng = general(&a, &b, hg, 16);
        if (imp_collide2d_clip_avx2()) {  /* the separating axes four edges at a time */
            imp_body2d_xf xa, xb;
            imp_collide2d_prepare(&a, &xa);
            imp_collide2d_prepare(&b, &xb);
            int ns = imp_collide2d_clip_xf_simd(&a, &xa, &b, &xb, &tol, 1, hs, 8);
            CHECK(ns == nc && memcmp(hs, hc, (size_t)nc * sizeof *hc) == 0);
        }
        {  /* prepared for clipping (its test and world vertices once per body): the same */
            imp_body2d_xf xa, xb;
            imp_collide2d_prepare(&a, &xa);
            imp_collide2d_prepare(&b, &xb);
            imp_collide2d_clip_prepare(&a, &xa);
            imp_collide2d_clip_prepare(&b, &xb);
            CHECK(xa.clip == 1 && xb.clip == 1 && xa.nv == 4 && xb.nv == 4);
            for (int simd = 0; simd <= imp_collide2d_clip_avx2(); simd++) {
                int np = imp_collide2d_clip_xf_simd(&a, &xa, &b, &xb, &tol, simd, hs, 8);
                CHECK(np == nc && memcmp(hs, hc, (size_t)nc * sizeof *hc) == 0);
            }
        }
        if (nc != ng) {
            fprintf(stderr, "trial %d: %d results by clipping, %d by the general path:\n", trial, nc, ng);
            for (int j = 0; j < ng; j++) {
                fprintf(stderr, "  general: body %d vertex %d on %d edge %d (type %d kind %d) d %.6g at (%.6f, %.6f)\n",
                        hg[j].body, hg[j].vertex, hg[j].normal_body, hg[j].normal_edge, hg[j].type, hg[j].kind,
                        hg[j].distance, hg[j].point[0], hg[j].point[1]);
            }
            for (int j = 0; j < nc; j++) {
                fprintf(stderr, "  clip: body %d vertex %d on %d edge %d (kind %d) d %.6g at (%.6f, %.6f)\n",
                        hc[j].body, hc[j].vertex, hc[j].normal_body, hc[j].normal_edge, hc[j].kind,
                        hc[j].distance, hc[j].point[0], hc[j].point[1]);
            }
        }
        CHECK(nc == ng && nc <= 2);
        for (int i = 0; i < nc; i++) {
            int found = 0;
            for (int j = 0; j < ng && !found; j++) {
                const imp_hit2d *c = &hc[i], *g = &hg[j];
                found = c->body == g->body && c->normal_body == g->normal_body && c->vertex == g->vertex
                        && c->normal_edge == g->normal_edge && c->type == g->type && c->kind == g->kind
                        && hypot(c->point[0] - g->point[0], c->point[1] - g->point[1]) < 1e-9
                        && hypot(c->normal[0] - g->normal[0], c->normal[1] - g->normal[1]) < 1e-12
                        && fabs(c->distance - g->distance) < 1e-12;
            }
            if (!found) {
                fprintf(stderr, "trial %d: clip hit %d (vertex %d of %d, edge %d of %d, d %g) not in the "
                        "general path's %d\n", trial, i, hc[i].vertex, hc[i].body, hc[i].normal_edge,
                        hc[i].normal_body, hc[i].distance, ng);
            }
            CHECK(found);
        }
        compared += nc;
    }
    CHECK(compared > 3000);  /* (mostly two contacts a pair) */
    for (int k = 0; k < 3; k++) {
        imp_shape_release(shapes[k]);
    }
}

TEST(other_shapes_take_the_general_path)
{
    /* a circle on a box, and a box with a previous pose (swept tests): the general results */
    imp_shape *box = imp_shape2d_rectangle(1, 1), *disc = imp_shape2d_circle(0.5);
    const double f[3] = {0.3, 5, -2};
    imp_body2d pairs[2][2] = {{posed(box, 1, f, 0, 0, 0), posed(disc, 2, f, 0.1, 1.002, 0)},
                              {posed(box, 1, f, 0, 0, 0), posed(box, 2, f, 0.3, 0.999, 0.001)}};
    pairs[1][1].has_prev = 1;
    memcpy(pairs[1][1].prev_pose, pairs[1][1].pose, sizeof pairs[1][1].pose);
    for (int k = 0; k < 2; k++) {
        imp_hit2d hc[16], hg[16];
        int nc = clip(&pairs[k][0], &pairs[k][1], hc, 16), ng = general(&pairs[k][0], &pairs[k][1], hg, 16);
        CHECK(nc > 0 && nc == ng && memcmp(hc, hg, (size_t)nc * sizeof *hc) == 0);
    }
    imp_shape_release(box);
    imp_shape_release(disc);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(resting_boxes_by_hand);
    RUN(agrees_with_the_general_path);
    RUN(other_shapes_take_the_general_path);
    return CHECK_END("collide2d_clip");
}
