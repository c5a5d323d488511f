/* resize.h: an array's storage resized in place (realloc).
   imp_resize(&p, bytes): for the reserve functions that keep several arrays of one capacity;
   0 with *p resized, -1 with *p left as it was when out of memory (the caller keeps its old
   capacity and fails). bytes > 0.
   imp_grow(&p, &cap, need, size): one array of items of size bytes made to hold at least need
   of them; when it grows its capacity at least doubles (8 at the least), so that n pushes
   cost O(n) copies in all; 0, or -1 with *p and *cap as they were when out of memory. */
#ifndef IMPACT_RESIZE_H
#define IMPACT_RESIZE_H

#include <limits.h>
#include <stdlib.h>

static inline int imp_resize(void *pp, size_t bytes)
{
    void **p = (void **)pp;
    void *q = realloc(*p, bytes);
    if (q == NULL) {
        return -1;
    }
    *p = q;
    return 0;
}

static inline int imp_grow(void *pp, int *cap, int need, size_t size)
{
    if (need <= *cap) {
        return 0;
    }
    int c = *cap < 4 ? 8 : (*cap <= INT_MAX / 2 ? 2 * *cap : INT_MAX);
    if (c < need) {
        c = need;
    }
    if (imp_resize(pp, (size_t)c * size) != 0) {
        return -1;
    }
    *cap = c;
    return 0;
}

#endif
