/* engine2d_soft.h: the 2D engine's soft step (contact_solver = "soft", engine2d_def.h's
   imp_soft_def): contacts found once per step, solved in sub-steps with soft rows and relax
   passes, then a restitution pass (engine2d_soft.c). */
#ifndef IMPACT_ENGINE2D_SOFT_H
#define IMPACT_ENGINE2D_SOFT_H

#include <stddef.h>

#include <impact/status.h>

struct imp_world;
struct imp_e2_soft;

/* 1 when w's 2D engine steps with the soft step. */
int imp_engine2d_soft(const struct imp_world *w);

/* Advances the world from w->data.time to t1 with one soft step (its sub-steps inside). On
   failure returns a status, writes why and names the bodies in w->data.error_bodies; the
   caller restores the state. Cost: one detection, then O(substeps (rows + bodies)). */
imp_status imp_engine2d_soft_advance(struct imp_world *w, double t1, char *why, size_t why_size);

/* The records w:contacts() lists under the soft step: those of the last step, with their
   forces (the step's impulses over its length), or, before any step or after bodies came
   or went, a fresh detection at the current state (forces 0). Returns their number, -1 when
   the detection failed. */
int imp_engine2d_soft_contacts(struct imp_world *w);

/* The soft steps of w so far that detected the contacts (the others moved the last step's:
   the contact cache); 0 before any. */
long imp_engine2d_soft_detections(const struct imp_world *w);

void imp_engine2d_soft_free(struct imp_e2_soft *s);

#endif
