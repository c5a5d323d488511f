/* engine2d_edge_range.h: edge ranges a body does not collide with (myPhysicsLab's EdgeRange
   and Polygon.setNonCollideEdge): body `body` ignores the edges first..last (0-based,
   inclusive) of body `other`, in both directions (the other body's vertices on those edges'
   ends and those edges against the body's features). The narrow phase's hits are filtered
   after it runs (imp_engine2d_drop_range_hits), under every engine2d strategy. */
#ifndef IMPACT_ENGINE2D_EDGE_RANGE_H
#define IMPACT_ENGINE2D_EDGE_RANGE_H

#include "collide2d.h"

struct imp_world;

typedef struct imp_edge_range2d {
    int body, other;              /* slots: body ignores edges [first, last] of other */
    unsigned gen_body, gen_other; /* their generations when set (later ones: ignored) */
    int first, last;
} imp_edge_range2d;

/* Adds the range (kept in the order added; a range already there is not added twice); 0, -1
   out of memory. The caller checks the slots and the edge indices. O(ranges). */
int imp_engine2d_add_edge_range(struct imp_world *w, int body, int other, int first, int last);

/* Removes every range between the two bodies, in either direction; how many it removed.
   O(ranges). */
int imp_engine2d_clear_edge_ranges(struct imp_world *w, int a, int b);

/* Whether the live range list says that `body` ignores edge k of `other`. O(ranges). */
int imp_engine2d_ignores_edge(const struct imp_world *w, int body, int other, int k);

/* Removes from hits[0..m) those that a range excludes (a hit is excluded when one body
   ignores the other's edge it names, or both edges meeting at the other's vertex it names),
   keeping the others in order; returns how many are left. m when there is no range (no
   cost then). O(m ranges). */
int imp_engine2d_drop_range_hits(const struct imp_world *w, imp_hit2d *hits, int m);

#endif
