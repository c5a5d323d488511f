/* mesh3d.c: 3D surface meshes per shape kind (see outline.h). Add a kind by one branch in
   imp_shape3d_mesh. */
#include "outline.h"

#include <string.h>

#include "shape3d_basic.h"

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
    if (imp_shape3d_basic_params(s) != NULL && strcmp(kind, "box") == 0) {
        box_mesh(s, m);
        return IMP_MESH_SURFACE;
    }
    /* new 3D kinds (cylinders, cones, hulls, polyhedra, smoothed shapes) go here */
    return IMP_MESH_NONE;
}
