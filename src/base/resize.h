/* resize.h: an array's storage resized in place (realloc), for the reserve functions that keep
   several arrays of one capacity: imp_resize(&p, bytes) is 0 with *p resized, -1 with *p left
   as it was when out of memory (the caller keeps its old capacity and fails). bytes > 0. */
#ifndef IMPACT_RESIZE_H
#define IMPACT_RESIZE_H

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

#endif
