/* slots.h: arrays of entries that carry an `int active` flag and an `unsigned generation`
   (springs, loads, 2D connectors, 3D joints): a removed entry stays in place, inactive, and the
   next addition takes it again; its generation, bumped at removal, tells stale handles apart. */
#ifndef IMPACT_SLOTS_H
#define IMPACT_SLOTS_H

#include <stddef.h>

/* The index of the first inactive entry of *items (*count entries of size bytes, the flag at
   active_offset), else of a new entry at the end, the array grown (doubling, from 8) when
   full, whose generation (at generation_offset) is set to 0. The caller fills the entry and
   sets it active. -1 when out of memory (nothing changed). O(count). */
int imp_slots_take(void **items, int *count, int *capacity, size_t size, size_t active_offset,
                   size_t generation_offset);

#endif
