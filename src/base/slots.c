/* slots.c: see slots.h. */
#include "slots.h"

#include <stdlib.h>
#include <string.h>

int imp_slots_take(void **items, int *count, int *capacity, size_t size, size_t active_offset,
                   size_t generation_offset)
{
    char *a = *items;
    for (int i = 0; i < *count; i++) {
        int active;
        memcpy(&active, a + (size_t)i * size + active_offset, sizeof active);
        if (!active) {
            return i;
        }
    }
    if (*count == *capacity) {
        int cap = *capacity ? 2 * *capacity : 8;
        char *p = realloc(a, (size_t)cap * size);
        if (p == NULL) {
            return -1;
        }
        *items = a = p;
        *capacity = cap;
    }
    int index = (*count)++;
    unsigned generation = 0;
    memcpy(a + (size_t)index * size + generation_offset, &generation, sizeof generation);
    return index;
}
