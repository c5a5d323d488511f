/* bench3d_impact.h: a peers' 3D scene (bench3d_scenes.h) added to an impact world, for the
   benches that run those scenes on impact (bench_engine3d, bench_sleep3d). */
#ifndef IMPACT_BENCH3D_IMPACT_H
#define IMPACT_BENCH3D_IMPACT_H

#include <stdio.h>
#include <string.h>

#include <impact/shape.h>
#include <impact/world.h>

#include "bench3d_scenes.h"

/* Scene s's boxes into w (fixed ones first, as the scene lists them), each a box shape of
   density B3_DENSITY, friction s->mu, restitution 0, at its position, orientation and velocity;
   the dynamic ones' ids in dyn[0 .. s->ndyn). 0, or -1 with a message on stderr naming who. */
static inline int b3_add_boxes(imp_world *w, const b3_scene *s, imp_body_id *dyn, const char *who)
{
    for (int i = 0; i < s->nfixed + s->ndyn; i++) {
        const b3_box *b = &s->box[i];
        imp_body_def bd = imp_body_default_def(3);
        bd.shape = imp_shape3d_box(b->size[0], b->size[1], b->size[2]);
        if (bd.shape == NULL) {
            fprintf(stderr, "%s: out of memory for a box\n", who);
            return -1;
        }
        bd.density = B3_DENSITY;
        bd.fixed = b->mass <= 0.0;
        bd.friction = s->mu;
        bd.elasticity = 0.0;
        memcpy(bd.state, b->pos, 3 * sizeof(double));
        memcpy(bd.state + 3, b->q, 4 * sizeof(double));
        memcpy(bd.state + 7, b->vel, 3 * sizeof(double));
        imp_body_id id = imp_world_add_body(w, &bd);
        imp_shape_release(bd.shape);
        if (id.slot < 0) {
            fprintf(stderr, "%s: box %d not added: %s\n", who, i, imp_world_error(w));
            return -1;
        }
        if (i >= s->nfixed) {
            dyn[i - s->nfixed] = id;
        }
    }
    return 0;
}

#endif
