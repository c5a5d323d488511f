/* test_collide2d_touch.c: detection between exactly touching, exactly aligned boxes (corner on
   corner, corner on an edge's interior, a side flush with a block's end), checked against the
   geometry worked by hand: how many contacts, where, along which normal. Each scene is also
   turned by several angles and moved far from the origin, so that rounding decides every
   tie one way or the other; the answers must not depend on it. */
#include "check.h"
#include "collide2d.h"
#include "polygon2d.h"
#include "scalar.h"
#include "shape2d_basic.h"
#include "xform2d.h"

static const imp_detect2d_params tol = {0.01, 0.5, 0, 0};

/* the scene frame: turned by phi about the origin, then moved by (ox, oy) */
typedef struct frame {
    double phi, ox, oy;
} frame;

static imp_body2d posed(const imp_shape *s, int id, frame f, double x, double y)
{
    imp_body2d b = {s, id, {0, 0, 0}, {0, 0, 0}, 0, {0, 0, 0}};
    b.pose[0] = f.ox + cos(f.phi) * x - sin(f.phi) * y;
    b.pose[1] = f.oy + sin(f.phi) * x + cos(f.phi) * y;
    b.pose[2] = f.phi;
    b.prev_pose[0] = b.pose[0], b.prev_pose[1] = b.pose[1], b.prev_pose[2] = b.pose[2];
    return b;
}

/* a scene point and direction in the world */
static imp_vec2 at(frame f, double x, double y)
{
    return imp_v2_add(imp_v2(f.ox, f.oy), imp_v2_rotate(imp_v2(x, y), f.phi));
}
static imp_vec2 dir(frame f, double x, double y) { return imp_v2_rotate(imp_v2(x, y), f.phi); }

static frame frame_k(int k)
{
    frame f = {0.0, 0.0, 0.0};
    if (k > 0) {
        f.phi = 0.37 * k - 0.9;
        f.ox = 1000.0 * (k % 3) - 731.3;
        f.oy = 17.1 * k;
    }
    return f;
}

/* The normal of hit h pointing out of body `from` toward the other. */
static imp_vec2 normal_from(const imp_hit2d *h, int from)
{
    imp_vec2 n = imp_v2(h->normal[0], h->normal[1]);
    return h->normal_body == from ? n : imp_v2_neg(n);
}

/* n hits between a (id 1) and b (id 2): each a vertex/edge hit of the given kind with the
   normal from a toward b equal to want (within ntol), its distance d (within dtol), and one
   hit at each of the points p[0..n) (within ptol), in any order. */
static int hits_are(const imp_hit2d *h, int n, int kind, imp_vec2 want, double d, double dtol,
                    const imp_vec2 *p, double ptol, double ntol)
{
    int used[8] = {0};
    for (int i = 0; i < n; i++) {
        imp_vec2 nv = normal_from(&h[i], 1);
        if (h[i].kind != kind || h[i].type != IMP_HIT_VERTEX_EDGE ||
            imp_v2_dist(nv, want) > ntol || fabs(h[i].distance - d) > dtol) {
            fprintf(stderr, "hit %d: kind %d type %d normal (%g, %g) distance %g\n", i, h[i].kind,
                    h[i].type, nv.x, nv.y, h[i].distance);
            return 0;
        }
        int found = 0;
        for (int j = 0; j < n && !found; j++) {
            if (!used[j] && imp_v2_dist(imp_v2(h[i].point[0], h[i].point[1]), p[j]) <= ptol) {
                used[j] = found = 1;
            }
        }
        if (!found) {
            fprintf(stderr, "hit %d at (%.17g, %.17g): no such point\n", i, h[i].point[0],
                    h[i].point[1]);
            return 0;
        }
    }
    return 1;
}

TEST(equal_boxes_corner_on_corner)
{
    /* unit boxes, b exactly on a: the corners coincide at (+-0.5, 0.5). Two contacts at the
       ends of the shared edge, vertical, distance 0; never a side face's horizontal normal,
       never a contact seen twice (once from each box) */
    imp_shape *box = imp_shape2d_rectangle(1, 1);
    const double offsets[][2] = {{0, 0},      {1e-12, 0}, {-1e-12, 0}, {0, -1e-12}, {0, 1e-12},
                                 {3e-9, -1e-13}, {-2e-7, 0}, {2e-7, 1e-13}};
    for (int k = 0; k < 6; k++) {
        frame f = frame_k(k);
        for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++) {
            double dx = offsets[o][0], dy = offsets[o][1];
            imp_body2d a = posed(box, 1, f, 0, 0), b = posed(box, 2, f, dx, 1 + dy);
            imp_hit2d h[16];
            int n = imp_collide2d_detect(&a, &b, &tol, h, 16);
            const imp_vec2 p[2] = {at(f, -0.5, 0.5), at(f, 0.5, 0.5)};
            /* where the offset is not round-off (2e-7) the points follow the corners of
               whichever box is the primary: within the offset */
            CHECK(n == 2 && hits_are(h, n, IMP_HIT_CONTACT, dir(f, 0, 1), 0, 1e-9, p, 1e-6, 1e-9));
            /* and the same with the roles of the bodies swapped */
            n = imp_collide2d_detect(&b, &a, &tol, h, 16);
            CHECK(n == 2);
        }
    }
    imp_shape_release(box);
}

TEST(box_flush_with_block_end)
{
    /* a unit box on a 10 x 1 block, its right side on the line of the block's right end: two
       contacts, at the box's corners (4, 0.5) and (5, 0.5), the second on the block's corner */
    imp_shape *box = imp_shape2d_rectangle(1, 1), *block = imp_shape2d_rectangle(10, 1);
    for (int k = 0; k < 6; k++) {
        frame f = frame_k(k);
        imp_body2d a = posed(block, 1, f, 0, 0), b = posed(box, 2, f, 4.5, 1);
        imp_hit2d h[16];
        int n = imp_collide2d_detect(&a, &b, &tol, h, 16);
        const imp_vec2 p[2] = {at(f, 4, 0.5), at(f, 5, 0.5)};
        CHECK(n == 2 && hits_are(h, n, IMP_HIT_CONTACT, dir(f, 0, 1), 0, 1e-9, p, 1e-9, 1e-9));
        /* the box hanging 1e-3 beyond the end: its corner over nothing, the block's corner
           on the box's bottom face */
        b = posed(box, 2, f, 4.501, 1);
        n = imp_collide2d_detect(&a, &b, &tol, h, 16);
        const imp_vec2 q[2] = {at(f, 4.001, 0.5), at(f, 5, 0.5)};
        CHECK(n == 2 && hits_are(h, n, IMP_HIT_CONTACT, dir(f, 0, 1), 0, 1e-9, q, 1e-9, 1e-9));
    }
    imp_shape_release(box);
    imp_shape_release(block);
}

TEST(half_offset_and_side_by_side)
{
    imp_shape *box = imp_shape2d_rectangle(1, 1);
    for (int k = 0; k < 6; k++) {
        frame f = frame_k(k);
        imp_hit2d h[16];
        /* b offset by half a width: its corner on a's top at x = 0, a's corner on b's bottom
           at x = 0.5 */
        imp_body2d a = posed(box, 1, f, 0, 0), b = posed(box, 2, f, 0.5, 1);
        int n = imp_collide2d_detect(&a, &b, &tol, h, 16);
        const imp_vec2 p[2] = {at(f, 0, 0.5), at(f, 0.5, 0.5)};
        CHECK(n == 2 && hits_are(h, n, IMP_HIT_CONTACT, dir(f, 0, 1), 0, 1e-9, p, 1e-9, 1e-9));
        /* side by side, touching along x = 0.5: two horizontal contacts */
        b = posed(box, 2, f, 1, 0);
        n = imp_collide2d_detect(&a, &b, &tol, h, 16);
        const imp_vec2 q[2] = {at(f, 0.5, -0.5), at(f, 0.5, 0.5)};
        CHECK(n == 2 && hits_are(h, n, IMP_HIT_CONTACT, dir(f, 1, 0), 0, 1e-9, q, 1e-9, 1e-9));
    }
    imp_shape_release(box);
}

TEST(aligned_overlap_and_swept_touch)
{
    imp_shape *box = imp_shape2d_rectangle(1, 1);
    for (int k = 0; k < 6; k++) {
        frame f = frame_k(k);
        imp_hit2d h[16];
        /* b sunk 1e-6 into a, exactly aligned: its corners lie on a's side lines (distance 0)
           but the penetrated face is a's top: two vertical collisions, 1e-6 deep */
        imp_body2d a = posed(box, 1, f, 0, 0), b = posed(box, 2, f, 0, 1 - 1e-6);
        int n = imp_collide2d_detect(&a, &b, &tol, h, 16);
        const imp_vec2 p[2] = {at(f, -0.5, 0.5), at(f, 0.5, 0.5)};
        CHECK(n == 2 && hits_are(h, n, IMP_HIT_COLLISION, dir(f, 0, 1), -1e-6, 1e-9, p, 2e-6, 1e-9));
        /* b coming down at 0.1 m/s from 1e-3 above to exactly touching: its corners' paths end
           on a's top, so they touch (approaching: contacts, |v| < velocity_tol), two */
        b = posed(box, 2, f, 0, 1);
        imp_vec2 v = dir(f, 0, -0.1);
        imp_vec2 up = at(f, 0, 1.001);
        b.prev_pose[0] = up.x, b.prev_pose[1] = up.y;
        b.velocity[0] = v.x, b.velocity[1] = v.y;
        b.has_prev = 1;
        n = imp_collide2d_detect(&a, &b, &tol, h, 16);
        CHECK(n == 2 && hits_are(h, n, IMP_HIT_CONTACT, dir(f, 0, 1), 0, 1e-9, p, 1e-9, 1e-9));
        CHECK(n == 2 && fabs(h[0].normal_velocity + 0.1) < 1e-12);
        /* b leaving upward from touching, turned by round-off (1e-12 rad): its corners' paths
           graze a's side lines; no crossing, no result beyond the gap's contacts */
        b = posed(box, 2, f, 0, 1.003);
        b.pose[2] += 1e-12;
        imp_vec2 lo = at(f, 0, 1);
        b.prev_pose[0] = lo.x, b.prev_pose[1] = lo.y, b.prev_pose[2] = f.phi;
        v = dir(f, 0, 0.3);
        b.velocity[0] = v.x, b.velocity[1] = v.y;
        b.has_prev = 1;
        n = imp_collide2d_detect(&a, &b, &tol, h, 16);
        /* vertex/vertex contacts: the point on either corner of the pair */
        CHECK(n == 2 && hits_are(h, n, IMP_HIT_CONTACT, dir(f, 0, 1), 0.003, 1e-9, p, 0.0031, 1e-9));
        /* b sinking 1e-6 into a from touching while turning by -2e-6 rad: its corners enter
           through a's corners, where the top and side faces tie; the penetrated face is the
           top (and a's corner cutting b's corner tip is no crossing): vertical results only,
           one per corner */
        b = posed(box, 2, f, 0, 1 - 1e-6);
        b.pose[2] -= 2e-6;
        lo = at(f, 0, 1);
        b.prev_pose[0] = lo.x, b.prev_pose[1] = lo.y, b.prev_pose[2] = f.phi;
        v = dir(f, 0, -1e-4);
        b.velocity[0] = v.x, b.velocity[1] = v.y;
        b.has_prev = 1;
        n = imp_collide2d_detect(&a, &b, &tol, h, 16);
        CHECK(n == 2);
        for (int i = 0; i < n; i++) {
            CHECK(imp_v2_dist(normal_from(&h[i], 1), dir(f, 0, 1)) < 1e-5);
            /* the right corners 2e-6 deep, the left ones touching (turned up by 1e-6) */
            CHECK(h[i].distance < 1e-9 && h[i].distance > -2.1e-6);
        }
    }
    imp_shape_release(box);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(equal_boxes_corner_on_corner);
    RUN(box_flush_with_block_end);
    RUN(half_offset_and_side_by_side);
    RUN(aligned_overlap_and_swept_touch);
    return CHECK_END("collide2d_touch");
}
