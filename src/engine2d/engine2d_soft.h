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

/* The clipping narrow phase's mode for the soft step's detections (collide2d_batch.h's clip):
   2, its AVX2 path, where the soft step's blocks use theirs (imp_e2_soft_simd_available), else
   1; the same results either way. */
int imp_engine2d_soft_clip(const struct imp_world *w);

/* The incremental detection's check (IMPACT_E2_DETECT_CHECK=1, engine2d_soft_check.c): out =
   steps checked, steps whose pairs came in another order than a full detection's, records of
   pairs of moved bodies not equal bit for bit to the full detection's, pairs kept from the
   cache whose feature keys differ from it; *max_distance: the largest distance difference of
   a kept record with the same keys. Zeros when unchecked. */
void imp_engine2d_soft_check_stats(const struct imp_world *w, long out[4], double *max_distance);

void imp_engine2d_soft_free(struct imp_e2_soft *s);
/* The records of the last soft step written out in full where its end left them in the lean
   records (engine2d_soft_lean.c), before anything else reads or replaces e->rec; drop: they
   are about to be replaced (the lean records no longer follow them). O(records). */
void imp_engine2d_soft_sync(struct imp_world *w, int drop);

struct imp_rec2d;

/* The soft step's incremental detection (engine2d_detect.c): imp_engine2d_detect at y (no
   previous poses) with the narrow phase run only on the pairs holding a slot flagged in
   moved; every other pair the broad phase gives takes its run of records from old (each
   pair's records contiguous; old_start, nslots + 1, and old_list: the runs, first record and
   length, by their smaller slot), none when it has no run there. The records come in the
   order of a full detection (the broad phase's pairs, then the connectors' rows). Returns
   e->nrec, or -1 (out of memory, bad shapes). */
int imp_engine2d_detect_moved(struct imp_world *w, const double *y, const unsigned char *moved,
                              const struct imp_rec2d *old, const int *old_start,
                              const int *old_list);

#endif
