/* Surface meshes of 3D shapes for export (mesh3d.c), against the shapes' definitions. */
#include <stdlib.h>

#include "check.h"
#include "outline.h"
#include "scalar.h"
#include "shape3d.h"

typedef struct mesh_buf {
    imp_mesh m;
    imp_mesh_kind kind;
} mesh_buf;

static mesh_buf make(const imp_shape *s)
{
    mesh_buf b;
    memset(&b, 0, sizeof b);
    imp_shape3d_mesh(s, &b.m);
    b.m.verts = malloc(3 * (size_t)b.m.nverts * sizeof *b.m.verts);
    b.m.face_sizes = malloc((size_t)b.m.nfaces * sizeof *b.m.face_sizes);
    b.m.indices = malloc((size_t)b.m.nindices * sizeof *b.m.indices);
    b.kind = imp_shape3d_mesh(s, &b.m);
    return b;
}

static void drop(mesh_buf *b)
{
    free(b->m.verts);
    free(b->m.face_sizes);
    free(b->m.indices);
}

/* the volume enclosed, by the divergence theorem over fan triangles (shape coordinates) */
static double volume(const imp_mesh *m)
{
    double v = 0.0;
    int n = 0;
    for (int f = 0; f < m->nfaces; f++) {
        const double *p0 = m->verts + 3 * m->indices[n];
        for (int k = 1; k + 1 < m->face_sizes[f]; k++) {
            const double *p1 = m->verts + 3 * m->indices[n + k], *p2 = m->verts + 3 * m->indices[n + k + 1];
            v += (p0[0] * (p1[1] * p2[2] - p1[2] * p2[1]) - p0[1] * (p1[0] * p2[2] - p1[2] * p2[0])
                  + p0[2] * (p1[0] * p2[1] - p1[1] * p2[0])) / 6.0;
        }
        n += m->face_sizes[f];
    }
    return v;
}

/* closed: every directed edge a->b has exactly one reverse b->a */
static int closed(const imp_mesh *m)
{
    int n = 0;
    for (int f = 0; f < m->nfaces; f++) {
        for (int k = 0; k < m->face_sizes[f]; k++) {
            int a = m->indices[n + k], b = m->indices[n + (k + 1) % m->face_sizes[f]];
            int reverse = 0, g = 0;
            for (int f2 = 0; f2 < m->nfaces; f2++) {
                for (int k2 = 0; k2 < m->face_sizes[f2]; k2++) {
                    int c = m->indices[g + k2], d = m->indices[g + (k2 + 1) % m->face_sizes[f2]];
                    reverse += c == b && d == a;
                }
                g += m->face_sizes[f2];
            }
            if (reverse != 1) {
                return 0;
            }
        }
        n += m->face_sizes[f];
    }
    return 1;
}

TEST(ellipsoid_vertices_on_its_surface)
{
    imp_shape *s = imp_shape3d_ellipsoid(1.0, 0.5, 0.25);
    mesh_buf b = make(s);
    CHECK(b.kind == IMP_MESH_SURFACE && b.m.nverts > 100);
    for (int i = 0; i < b.m.nverts; i++) {
        const double *p = b.m.verts + 3 * i;
        CHECK_NEAR(p[0] * p[0] + p[1] * p[1] / 0.25 + p[2] * p[2] / 0.0625, 1.0, 1e-12);
    }
    CHECK(closed(&b.m));
    double v = 4.0 / 3.0 * IMP_PI * 1.0 * 0.5 * 0.25;
    double mv = volume(&b.m);
    /* an inscribed polyhedron encloses less than the ellipsoid, and its outward faces give a
       positive volume; the 15 x 32 grid of directions keeps within 5 % here (0.969) */
    CHECK(mv > 0.95 * v && mv < v);
    drop(&b);
    imp_shape_release(s);
}

TEST(cylinder_vertices_on_its_boundary)
{
    double R = 0.5, L = 2.0;
    imp_shape *s = imp_shape3d_cylinder(R, L, 0.0);
    mesh_buf b = make(s);
    for (int i = 0; i < b.m.nverts; i++) {
        const double *p = b.m.verts + 3 * i;  /* shape coordinates: centred */
        double r = hypot(p[0], p[1]);
        CHECK(r <= R + 1e-12 && fabs(p[2]) <= L / 2 + 1e-12);
        CHECK(fabs(r - R) < 1e-12 || fabs(fabs(p[2]) - L / 2) < 1e-12);
    }
    CHECK(closed(&b.m));
    /* the rim is a 32-gon: area (32/2) R^2 sin(2 pi / 32) */
    CHECK_CLOSE(volume(&b.m), 16.0 * R * R * sin(2.0 * IMP_PI / 32.0) * L, 1e-9, 0.0);
    drop(&b);
    imp_shape_release(s);
}

TEST(hull_mesh_is_its_triangles)
{
    const double pts[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.1, 0.1, 0.1};
    int status;
    imp_shape *s = imp_shape3d_convex(pts, 5, 0.0, &status);
    CHECK(s != NULL);
    mesh_buf b = make(s);
    CHECK(b.m.nverts == 4 && b.m.nfaces == 4);
    CHECK(closed(&b.m));
    CHECK_NEAR(volume(&b.m), 1.0 / 6.0, 1e-14);
    drop(&b);
    imp_shape_release(s);
}

TEST(walls_have_no_mesh)
{
    const double n[3] = {0, 0, 1};
    imp_shape *s = imp_shape3d_wall(n);
    imp_mesh m;
    memset(&m, 0, sizeof m);
    CHECK(imp_shape3d_mesh(s, &m) == IMP_MESH_NONE);
    imp_shape_release(s);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(ellipsoid_vertices_on_its_surface);
    RUN(cylinder_vertices_on_its_boundary);
    RUN(hull_mesh_is_its_triangles);
    RUN(walls_have_no_mesh);
    return CHECK_END("mesh3d");
}
