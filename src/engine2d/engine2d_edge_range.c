/* engine2d_edge_range.c: the edge ranges a body does not collide with
   (engine2d_edge_range.h). A short list searched linearly: scenes hold a few ranges. */
#include <stdlib.h>

#include "engine2d.h"
#include "engine2d_edge_range.h"
#include "polygon2d.h"
#include "world_internal.h"
#include "resize.h"

static int alive(const imp_world *w, const imp_edge_range2d *r)
{
    return r->body < w->model.nslots && r->other < w->model.nslots
           && w->model.bodies[r->body].active && w->model.bodies[r->other].active
           && w->model.bodies[r->body].generation == r->gen_body
           && w->model.bodies[r->other].generation == r->gen_other;
}

int imp_engine2d_add_edge_range(imp_world *w, int body, int other, int first, int last)
{
    imp_engine2d *e = imp_engine2d_get(w);
    if (e == NULL) {
        return -1;
    }
    imp_edge_range2d r = {body, other, w->model.bodies[body].generation,
                          w->model.bodies[other].generation, first, last};
    for (int i = 0; i < e->nranges; i++) {
        const imp_edge_range2d *q = &e->ranges[i];
        if (q->body == body && q->other == other && q->first == first && q->last == last
            && alive(w, q)) {
            return 0;
        }
    }
    if (imp_grow(&e->ranges, &e->range_cap, e->nranges + 1, sizeof *e->ranges) != 0) {
        return -1;
    }
    e->ranges[e->nranges++] = r;
    e->conn_version++;  /* the last detection's records are not reused */
    return 0;
}

int imp_engine2d_clear_edge_ranges(imp_world *w, int a, int b)
{
    imp_engine2d *e = w->engine2d;
    if (e == NULL) {
        return 0;
    }
    int kept = 0;
    for (int i = 0; i < e->nranges; i++) {
        const imp_edge_range2d *q = &e->ranges[i];
        int between = (q->body == a && q->other == b) || (q->body == b && q->other == a);
        if (!between && alive(w, q)) {  /* (ranges of removed bodies go too) */
            e->ranges[kept++] = *q;
        }
    }
    int removed = e->nranges - kept;
    e->nranges = kept;
    if (removed > 0) {
        e->conn_version++;
    }
    return removed;
}

int imp_engine2d_ignores_edge(const imp_world *w, int body, int other, int k)
{
    const imp_engine2d *e = w->engine2d;
    if (k < 0) {
        return 0;
    }
    for (int i = 0; i < e->nranges; i++) {
        const imp_edge_range2d *q = &e->ranges[i];
        if (q->body == body && q->other == other && k >= q->first && k <= q->last
            && alive(w, q)) {
            return 1;
        }
    }
    return 0;
}

/* whether `body` ignores both edges meeting at vertex v of `other` (for a decorated vertex
   both are the arc it lies on) */
static int ignores_vertex(const imp_world *w, int body, int other, int v)
{
    if (v < 0) {
        return 0;
    }
    const imp_poly2d *g = imp_shape2d_poly(w->model.bodies[other].shape);
    if (g == NULL || v >= g->nvertices) {
        return 0;
    }
    const imp_vertex2d *x = &g->vertices[v];
    return imp_engine2d_ignores_edge(w, body, other, x->edge_in)
           && imp_engine2d_ignores_edge(w, body, other, x->edge_out);
}

static int excluded(const imp_world *w, const imp_hit2d *h)
{
    int p = h->body, n = h->normal_body;
    return imp_engine2d_ignores_edge(w, p, n, h->normal_edge)
           || imp_engine2d_ignores_edge(w, n, p, h->edge)
           || ignores_vertex(w, n, p, h->vertex)
           || ignores_vertex(w, p, n, h->normal_vertex);
}

int imp_engine2d_drop_range_hits(const imp_world *w, imp_hit2d *hits, int m)
{
    const imp_engine2d *e = w->engine2d;
    if (e == NULL || e->nranges == 0 || m <= 0) {
        return m;
    }
    int kept = 0;
    for (int k = 0; k < m; k++) {
        if (!excluded(w, &hits[k])) {
            if (kept != k) {
                hits[kept] = hits[k];
            }
            kept++;
        }
    }
    return kept;
}
