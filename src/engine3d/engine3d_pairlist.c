/* engine3d_pairlist.c: the detection's pair list kept from begin and end events (see
   engine3d_pairlist.h). */
#include "engine3d_pairlist.h"
#include "resize.h"

#include <stdlib.h>
#include <string.h>

int imp_e3_pairlist_reset(imp_e3_pairlist *pl, int n)
{
    if (imp_grow(&pl->run, &pl->run_cap, n > 0 ? n : 1, sizeof *pl->run) != 0) {
        return -1;
    }
    memset(pl->run, 0, (size_t)(n > 0 ? n : 1) * sizeof *pl->run);
    pl->n = n;
    pl->used = 0;
    pl->npairs = 0;
    return 0;
}

/* id a's run moved to the pool's end with room for at least need links (at least twice its
   room: the rooms it leaves behind add up to less than its room); 0 or -1 */
static int make_room(imp_e3_pairlist *pl, int a, int need)
{
    imp_e3_run *r = &pl->run[a];
    int room = 2 * r->room;
    if (room < need + need / 2) {
        room = need + need / 2;
    }
    if (room < 4) {
        room = 4;
    }
    if (imp_grow(&pl->pool, &pl->pool_cap, pl->used + room, sizeof *pl->pool) != 0) {
        return -1;
    }
    memcpy(pl->pool + pl->used, pl->pool + r->start, (size_t)r->count * sizeof *pl->pool);
    r->start = pl->used;
    r->room = room;
    pl->used += room;
    return 0;
}

int imp_e3_pairlist_end(imp_e3_pairlist *pl, const int *ends, int ne, int *freed)
{
    int nfreed = 0;
    for (int i = 0; i < ne;) {
        int a = ends[2 * i], j = i;
        while (j < ne && ends[2 * j] == a) {
            j++;
        }
        if (a < 0 || a >= pl->n || pl->run[a].count == 0) {  /* (an empty run may have no pool yet) */
            i = j;
            continue;
        }
        imp_e3_run *r = &pl->run[a];
        imp_e3_link *l = pl->pool + r->start;
        int m = 0, q = i;
        for (int k = 0; k < r->count; k++) {
            while (q < j && ends[2 * q + 1] < l[k].b) {
                q++;
            }
            if (q < j && ends[2 * q + 1] == l[k].b) {
                if (l[k].entry >= 0) {
                    freed[nfreed++] = l[k].entry;
                }
                continue;
            }
            l[m++] = l[k];
        }
        pl->npairs -= r->count - m;
        r->count = m;
        i = j;
    }
    return nfreed;
}

int imp_e3_pairlist_begin(imp_e3_pairlist *pl, const int *begins, int nb)
{
    for (int i = 0; i < nb;) {
        int a = begins[2 * i], j = i;
        while (j < nb && begins[2 * j] == a) {
            j++;
        }
        if (a < 0 || a >= pl->n) {
            i = j;
            continue;
        }
        /* the new partners (not listed already, nor repeated among the begins) */
        int fresh = 0;
        {
            const imp_e3_run *r = &pl->run[a];
            const imp_e3_link *l = r->count > 0 ? pl->pool + r->start : NULL;
            int k = 0;
            for (int q = i; q < j; q++) {
                int b = begins[2 * q + 1];
                if (q > i && begins[2 * q - 1] == b) {
                    continue;
                }
                while (k < r->count && l[k].b < b) {
                    k++;
                }
                fresh += k == r->count || l[k].b != b;
            }
        }
        if (fresh == 0) {
            i = j;
            continue;
        }
        if (pl->run[a].count + fresh > pl->run[a].room && make_room(pl, a, pl->run[a].count + fresh) != 0) {
            return -1;
        }
        /* merged from the back, in place */
        imp_e3_run *r = &pl->run[a];
        imp_e3_link *l = pl->pool + r->start;
        int w = r->count + fresh - 1, x = r->count - 1;
        for (int y = j - 1; y >= i; y--) {
            int b = begins[2 * y + 1];
            if (y > i && begins[2 * y - 1] == b) {
                continue;
            }
            while (x >= 0 && l[x].b > b) {
                l[w--] = l[x--];
            }
            if (x >= 0 && l[x].b == b) {
                continue;
            }
            l[w].b = b;
            l[w].entry = -1;
            w--;
        }
        r->count += fresh;
        pl->npairs += fresh;
        i = j;
    }
    return 0;
}

void imp_e3_pairlist_free(imp_e3_pairlist *pl)
{
    free(pl->run);
    free(pl->pool);
    memset(pl, 0, sizeof *pl);
}
