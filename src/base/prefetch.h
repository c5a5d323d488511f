/* prefetch.h: hints to the cache that memory will be read or written soon (GCC's and Clang's
   __builtin_prefetch, nothing elsewhere). A hint changes no result: it only lets a walk
   through arrays larger than the caches (the 3D engine's contact points, 304 bytes each)
   overlap its loads with the work before them. */
#ifndef IMPACT_BASE_PREFETCH_H
#define IMPACT_BASE_PREFETCH_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define IMP_PREFETCH(addr, rw) __builtin_prefetch((addr), (rw), 3)
#else
#define IMP_PREFETCH(addr, rw) ((void)(addr), (void)(rw))
#endif

/* the bytes [p, p + bytes) will be read (rw 0) or written (rw 1): a hint for each 64-byte
   line they touch, once, four a turn of the loop (one a turn, its test and step cost three
   times the hint: the held test's walk asks for about 27 lines a pair). O(bytes / 64). */
static inline void imp_prefetch_bytes(const void *p, size_t bytes, int rw)
{
    if (bytes == 0) {
        return;
    }
    uintptr_t at = (uintptr_t)p & ~(uintptr_t)63;  /* (whole lines) */
    size_t lines = ((uintptr_t)p + bytes - at + 63) / 64;
    for (; lines >= 4; lines -= 4, at += 256) {
        IMP_PREFETCH((const void *)at, rw);
        IMP_PREFETCH((const void *)(at + 64), rw);
        IMP_PREFETCH((const void *)(at + 128), rw);
        IMP_PREFETCH((const void *)(at + 192), rw);
    }
    for (; lines > 0; lines--, at += 64) {
        IMP_PREFETCH((const void *)at, rw);
    }
}

#endif
