/* mesh3d.c: 3D surface meshes per shape kind (see outline.h). Add a kind by one branch in
   imp_shape3d_mesh. */
#include "outline.h"

#include <math.h>
#include <string.h>

#include "scalar.h"
#include "shape3d.h"
#include "shape3d_basic.h"
#include "support3d.h"

/* A box as 8 corners and 6 quadrilaterals, each counter-clockwise seen from outside.
   Corner i has coordinates (+-hx, +-hy, +-hz) with bit 0 of i the x sign, bit 1 y, bit 2 z. */
static void box_mesh(const imp_shape *s, imp_mesh *m)
{
    static const int faces[6][4] = {
        {0, 2, 3, 1}, /* z- */ {4, 5, 7, 6}, /* z+ */ {0, 1, 5, 4}, /* y- */
        {2, 6, 7, 3}, /* y+ */ {0, 4, 6, 2}, /* x- */ {1, 3, 7, 5}  /* x+ */
    };
    const double *p = imp_shape3d_basic_params(s);
    m->nverts = 8;
    m->nfaces = 6;
    m->nindices = 24;
    if (m->verts != NULL) {
        for (int i = 0; i < 8; i++) {
            m->verts[3 * i + 0] = s->centroid[0] + ((i & 1) ? 0.5 : -0.5) * p[0];
            m->verts[3 * i + 1] = s->centroid[1] + ((i & 2) ? 0.5 : -0.5) * p[1];
            m->verts[3 * i + 2] = s->centroid[2] + ((i & 4) ? 0.5 : -0.5) * p[2];
        }
    }
    for (int f = 0; f < 6; f++) {
        if (m->face_sizes != NULL) {
            m->face_sizes[f] = 4;
        }
        if (m->indices != NULL) {
            memcpy(m->indices + 4 * f, faces[f], sizeof faces[f]);
        }
    }
}

/* Any convex shape, rounded ones included, through its support function: the support points
   over a latitude-longitude grid of directions, NLAT rings between the poles of NLON points
   each; triangles at the poles, quadrilaterals between rings, counter-clockwise seen from
   outside (the support point moves with its direction, so the grid's orientation carries
   over). Flat faces and sharp edges come out as degenerate (zero-area) faces: fine for
   pictures. Vertices in shape coordinates. */
enum { NLAT = 15, NLON = 32 };

static void support_mesh(const imp_shape *s, imp_mesh *m)
{
    m->nverts = 2 + NLAT * NLON;
    m->nfaces = 2 * NLON + (NLAT - 1) * NLON;
    m->nindices = 2 * 3 * NLON + 4 * (NLAT - 1) * NLON;
    if (m->verts != NULL) {
        /* at the pose {centroid, identity} world coordinates are shape coordinates */
        double pose[7] = {s->centroid[0], s->centroid[1], s->centroid[2], 1, 0, 0, 0};
        imp_support3d sup;
        imp_support3d_init(&sup, s, pose);
        int k = 0;
        imp_vec3 p = imp_support3d_full(&sup, imp_v3(0, 0, 1));
        imp_v3_store(m->verts + 3 * k++, p);
        for (int i = 1; i <= NLAT; i++) {
            double th = IMP_PI * i / (NLAT + 1);
            for (int j = 0; j < NLON; j++) {
                double ph = 2.0 * IMP_PI * j / NLON;
                imp_vec3 d = imp_v3(sin(th) * cos(ph), sin(th) * sin(ph), cos(th));
                imp_v3_store(m->verts + 3 * k++, imp_support3d_full(&sup, d));
            }
        }
        imp_v3_store(m->verts + 3 * k, imp_support3d_full(&sup, imp_v3(0, 0, -1)));
    }
    int south = 1 + NLAT * NLON, f = 0, n = 0;
    for (int j = 0; j < NLON; j++) {  /* north cap: pole, ring 1 j, ring 1 j+1 */
        if (m->face_sizes != NULL) {
            m->face_sizes[f] = 3;
        }
        if (m->indices != NULL) {
            m->indices[n] = 0;
            m->indices[n + 1] = 1 + j;
            m->indices[n + 2] = 1 + (j + 1) % NLON;
        }
        f++, n += 3;
    }
    for (int i = 0; i < NLAT - 1; i++) {
        for (int j = 0; j < NLON; j++) {
            int a = 1 + i * NLON + j, b = 1 + i * NLON + (j + 1) % NLON;
            if (m->face_sizes != NULL) {
                m->face_sizes[f] = 4;
            }
            if (m->indices != NULL) {
                m->indices[n] = a;
                m->indices[n + 1] = a + NLON;
                m->indices[n + 2] = b + NLON;
                m->indices[n + 3] = b;
            }
            f++, n += 4;
        }
    }
    for (int j = 0; j < NLON; j++) {  /* south cap */
        int a = 1 + (NLAT - 1) * NLON + j, b = 1 + (NLAT - 1) * NLON + (j + 1) % NLON;
        if (m->face_sizes != NULL) {
            m->face_sizes[f] = 3;
        }
        if (m->indices != NULL) {
            m->indices[n] = a;
            m->indices[n + 1] = south;
            m->indices[n + 2] = b;
        }
        f++, n += 3;
    }
}

/* An unsmoothed convex hull (or polyhedron): its own triangles, outward. */
static void hull_mesh(const imp_convex3d *c, imp_mesh *m)
{
    m->nverts = c->nvert;
    m->nfaces = c->ntri;
    m->nindices = 3 * c->ntri;
    if (m->verts != NULL) {
        memcpy(m->verts, c->vert, 3 * (size_t)c->nvert * sizeof *m->verts);
    }
    for (int t = 0; t < c->ntri; t++) {
        if (m->face_sizes != NULL) {
            m->face_sizes[t] = 3;
        }
        if (m->indices != NULL) {
            memcpy(m->indices + 3 * t, c->tri + 3 * t, 3 * sizeof *m->indices);
        }
    }
}

imp_mesh_kind imp_shape3d_mesh(const imp_shape *s, imp_mesh *m)
{
    m->nverts = m->nfaces = m->nindices = 0;
    m->radius = 0.0;
    if (s == NULL || s->dim != 3) {
        return IMP_MESH_NONE;
    }
    const char *kind = s->cls->name;
    if (imp_shape3d_basic_params(s) != NULL && strcmp(kind, "sphere") == 0) {
        m->radius = imp_shape3d_basic_params(s)[0];
        return IMP_MESH_POINT;
    }
    const imp_convex3d *c = imp_shape3d_data(s);
    if (c == NULL || c->kind == IMP_S3_WALL) {
        return IMP_MESH_NONE;  /* not a 3D convex shape, or an infinite half-space */
    }
    if (c->kind == IMP_S3_BOX && c->sweep == 0.0 && strcmp(kind, "box") == 0) {
        box_mesh(s, m);
        return IMP_MESH_SURFACE;
    }
    if (c->kind == IMP_S3_CONVEX && c->sweep == 0.0 && c->ntri > 0) {
        hull_mesh(c, m);
        return IMP_MESH_SURFACE;
    }
    support_mesh(s, m);  /* ellipsoids, cylinders, capsules, cones, rounded shapes */
    return IMP_MESH_SURFACE;
}
