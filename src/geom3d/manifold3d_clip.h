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

/* a polygon's n points in its caller's arrays of cap (IMP_CLIP_MAX for any face; a box's,
   whose clip by a box face's four sides has at most 8 points, fewer: its frame 17.6 -> 2 KB,
   the stack pages of a first step, h-first3d) */
typedef struct imp_clip_poly {
    int n, cap;
    imp_vec3 *p;
    unsigned *code;
    unsigned *label; /* of the edge from p[i] to p[i+1]: incident edge (< 64) or 64 + side */
} imp_clip_poly;

/* the clip's two buffers of cap points each in the caller's arrays of 2 cap */
static inline void imp_clip_buffers(imp_clip_poly buf[2], int cap, imp_vec3 *p, unsigned *code, unsigned *label)
{
    for (int k = 0; k < 2; k++) {
        buf[k] = (imp_clip_poly){0, cap, p + k * cap, code + k * cap, label + k * cap};
    }
}

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
   ping-ponging between buf[0] and buf[1] (of one cap: points beyond it are dropped); returns
   the buffer holding the result. A vertex up to
   tol outside a side is kept as it is (so that a vertex resting on a side keeps its key while it
   wanders by less than tol); crossings are on the true plane. (manifold3d.c) */
imp_clip_poly *imp_clip_polygon(imp_clip_poly *buf, const imp_clip_side *sd, int ns, double tol);

#endif
