/* test_outline.c: 2D outlines and 3D meshes against the shapes' definitions: corners and radii,
   enclosed area and volume by the divergence theorem, outward faces. */
#include "check.h"
#include "outline.h"
#include "scalar.h"
#include "shape2d_basic.h"
#include "shape3d_basic.h"

TEST(circle_outline_is_one_full_arc)
{
    imp_shape *s = imp_shape2d_circle(0.7);
    imp_path_cmd c[8];
    int n = imp_shape2d_outline(s, c, 8);
    CHECK(n == 3);
    CHECK(c[0].op == IMP_PATH_MOVE && c[1].op == IMP_PATH_ARC && c[2].op == IMP_PATH_CLOSE);
    CHECK_NEAR(c[0].x, 0.7, 0.0);
    CHECK_NEAR(c[1].r, 0.7, 0.0);
    CHECK_NEAR(c[1].a1 - c[1].a0, 2.0 * IMP_PI, 1e-15);
    imp_shape_release(s);
}

TEST(rectangle_outline_encloses_its_area_counter_clockwise)
{
    imp_shape *s = imp_shape2d_rectangle(3.0, 0.5);
    CHECK(imp_shape2d_outline(s, NULL, 0) == 5);
    imp_path_cmd c[5];
    CHECK(imp_shape2d_outline(s, c, 5) == 5);
    /* shoelace over the four corners: positive = counter-clockwise */
    double area = 0.0;
    for (int i = 0; i < 4; i++) {
        const imp_path_cmd *a = &c[i], *b = &c[(i + 1) % 4];
        area += 0.5 * (a->x * b->y - b->x * a->y);
        CHECK_NEAR(fabs(a->x), 1.5, 0.0);
        CHECK_NEAR(fabs(a->y), 0.25, 0.0);
    }
    CHECK_NEAR(area, 1.5, 1e-15);
    imp_shape_release(s);
}

TEST(outline_with_a_short_buffer_writes_what_fits)
{
    imp_shape *s = imp_shape2d_rectangle(1.0, 1.0);
    imp_path_cmd c[2] = {{IMP_PATH_CLOSE, 9, 9, 9, 9, 9, 9, 9}, {IMP_PATH_CLOSE, 9, 9, 9, 9, 9, 9, 9}};
    CHECK(imp_shape2d_outline(s, c, 1) == 5);
    CHECK(c[0].op == IMP_PATH_MOVE);
    CHECK(c[1].op == IMP_PATH_CLOSE && c[1].x == 9.0); /* untouched */
    imp_shape *sphere = imp_shape3d_sphere(1.0);
    CHECK(imp_shape2d_outline(sphere, NULL, 0) == -1);
    CHECK(imp_shape2d_outline(NULL, NULL, 0) == -1);
    imp_shape_release(sphere);
    imp_shape_release(s);
}

TEST(sphere_is_a_point_with_its_radius)
{
    imp_shape *s = imp_shape3d_sphere(0.25);
    imp_mesh m = {0, 0, 0, NULL, NULL, NULL, 0.0};
    CHECK(imp_shape3d_mesh(s, &m) == IMP_MESH_POINT);
    CHECK_NEAR(m.radius, 0.25, 0.0);
    imp_shape *c = imp_shape2d_circle(1.0);
    CHECK(imp_shape3d_mesh(c, &m) == IMP_MESH_NONE);
    imp_shape_release(c);
    imp_shape_release(s);
}

TEST(box_mesh_is_closed_outward_and_of_the_right_volume)
{
    double sx = 1.0, sy = 2.0, sz = 3.0;
    imp_shape *s = imp_shape3d_box(sx, sy, sz);
    imp_mesh m = {0, 0, 0, NULL, NULL, NULL, 0.0};
    CHECK(imp_shape3d_mesh(s, &m) == IMP_MESH_SURFACE);
    CHECK(m.nverts == 8 && m.nfaces == 6 && m.nindices == 24);
    double verts[24];
    int sizes[6], idx[24];
    m.verts = verts, m.face_sizes = sizes, m.indices = idx;
    CHECK(imp_shape3d_mesh(s, &m) == IMP_MESH_SURFACE);
    /* divergence theorem: V = sum over faces of (centre . n A) / 3, with n A from Newell's
       formula; each face's normal must point away from the centre */
    double volume = 0.0;
    int uses[8] = {0};
    for (int f = 0, k = 0; f < 6; f++, k += 4) {
        CHECK(sizes[f] == 4);
        double n[3] = {0, 0, 0}, c[3] = {0, 0, 0};
        for (int i = 0; i < 4; i++) {
            const double *a = verts + 3 * idx[k + i], *b = verts + 3 * idx[k + (i + 1) % 4];
            n[0] += (a[1] - b[1]) * (a[2] + b[2]);
            n[1] += (a[2] - b[2]) * (a[0] + b[0]);
            n[2] += (a[0] - b[0]) * (a[1] + b[1]);
            for (int j = 0; j < 3; j++) {
                c[j] += 0.25 * a[j];
            }
            uses[idx[k + i]]++;
        }
        n[0] *= 0.5, n[1] *= 0.5, n[2] *= 0.5; /* area vector */
        double dot = c[0] * n[0] + c[1] * n[1] + c[2] * n[2];
        CHECK(dot > 0.0);
        volume += dot / 3.0;
    }
    for (int i = 0; i < 8; i++) {
        CHECK(uses[i] == 3); /* every corner on three faces */
        CHECK_NEAR(fabs(verts[3 * i + 0]), 0.5 * sx, 0.0);
        CHECK_NEAR(fabs(verts[3 * i + 1]), 0.5 * sy, 0.0);
        CHECK_NEAR(fabs(verts[3 * i + 2]), 0.5 * sz, 0.0);
    }
    CHECK_NEAR(volume, sx * sy * sz, 1e-14);
    imp_shape_release(s);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(circle_outline_is_one_full_arc);
    RUN(rectangle_outline_encloses_its_area_counter_clockwise);
    RUN(outline_with_a_short_buffer_writes_what_fits);
    RUN(sphere_is_a_point_with_its_radius);
    RUN(box_mesh_is_closed_outward_and_of_the_right_volume);
    return CHECK_END("outline");
}
