/* pairset.c: sorted unordered id pairs (see pairset.h). */
#include "pairset.h"
#include "resize.h"

#include <stdlib.h>
#include <string.h>

static uint64_t key_of(int a, int b)
{
    uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);
    return ((uint64_t)lo << 32) | hi;
}

/* first index whose key is >= k */
static int lower_bound(const imp_pairset *s, uint64_t k)
{
    int lo = 0, hi = s->n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (s->keys[mid] < k) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

int imp_pairset_add(imp_pairset *s, int a, int b)
{
    if (a < 0 || b < 0) {
        return -1;
    }
    uint64_t k = key_of(a, b);
    int i = lower_bound(s, k);
    if (i < s->n && s->keys[i] == k) {
        return 0;
    }
    if (imp_grow(&s->keys, &s->cap, s->n + 1, sizeof *s->keys) != 0) {
        return -1;
    }
    memmove(s->keys + i + 1, s->keys + i, (size_t)(s->n - i) * sizeof *s->keys);
    s->keys[i] = k;
    s->n++;
    return 1;
}

int imp_pairset_remove(imp_pairset *s, int a, int b)
{
    if (a < 0 || b < 0) {
        return 0;
    }
    uint64_t k = key_of(a, b);
    int i = lower_bound(s, k);
    if (i >= s->n || s->keys[i] != k) {
        return 0;
    }
    memmove(s->keys + i, s->keys + i + 1, (size_t)(s->n - i - 1) * sizeof *s->keys);
    s->n--;
    return 1;
}

int imp_pairset_contains(const imp_pairset *s, int a, int b)
{
    if (a < 0 || b < 0 || s->n == 0) {
        return 0;
    }
    uint64_t k = key_of(a, b);
    int i = lower_bound(s, k);
    return i < s->n && s->keys[i] == k;
}

int imp_pairset_remove_body(imp_pairset *s, int a)
{
    int m = 0, removed = 0;
    for (int i = 0; i < s->n; i++) {
        uint64_t k = s->keys[i];
        if ((int)(k >> 32) == a || (int)(k & 0xffffffffu) == a) {
            removed++;
        } else {
            s->keys[m++] = k;
        }
    }
    s->n = m;
    return removed;
}

void imp_pairset_clear(imp_pairset *s) { s->n = 0; }

void imp_pairset_free(imp_pairset *s)
{
    free(s->keys);
    s->keys = NULL;
    s->n = s->cap = 0;
}
