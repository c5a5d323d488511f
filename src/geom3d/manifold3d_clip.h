/* manifold3d_clip.h (internal to the manifolds: manifold3d.c, manifold3d_box.c): an incident
   polygon clipped against a reference face's side planes, with the codes of its points for the
   contact keys (manifold3d.h). */
#ifndef IMPACT_MANIFOLD3D_CLIP_H
#define IMPACT_MANIFOLD3D_CLIP_H

#include "manifold3d_feature.h"
#include "vec3.h"

/* the most points a clipped polygon holds */
#define IMP_CLIP_MAX (2 * IMP_FEAT_MAX + 8)

/* local point codes (bits 0-13 of a key): an incident vertex is its place in the face (< 64) */
#define IMP_CLIP_CODE_EDGE 64u     /* + 64 i + j: incident edge i crossing reference side j */
#define IMP_CLIP_CODE_CORNER 4160u /* + 64 j + k: reference corner (sides j < k) inside the incident face */

/* a side plane: s.x <= off inside (s the outward unit normal; a zero s constrains nothing) */
typedef struct imp_clip_side {
    imp_vec3 s;
    double off;
} imp_clip_side;

typedef struct imp_clip_poly {
    int n;
    imp_vec3 p[IMP_CLIP_MAX];
    unsigned code[IMP_CLIP_MAX];
    unsigned label[IMP_CLIP_MAX]; /* of the edge from p[i] to p[i+1]: incident edge (< 64) or 64 + side */
} imp_clip_poly;

/* the code of the crossing of the edge labelled label with side k */
static inline unsigned imp_clip_cross_code(unsigned label, unsigned k)
{
    if (label < 64u) {
        return IMP_CLIP_CODE_EDGE + 64u * label + k;
    }
    unsigned j = label - 64u;
    return IMP_CLIP_CODE_CORNER + (j < k ? 64u * j + k : 64u * k + j);
}

/* Sutherland-Hodgman: the polygon in buf[0] (its codes and labels set) clipped by the ns sides,
   ping-ponging between buf[0] and buf[1]; returns the buffer holding the result. A vertex up to
   tol outside a side is kept as it is (so that a vertex resting on a side keeps its key while it
   wanders by less than tol); crossings are on the true plane. (manifold3d.c) */
imp_clip_poly *imp_clip_polygon(imp_clip_poly *buf, const imp_clip_side *sd, int ns, double tol);

#endif
