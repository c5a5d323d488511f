/* lcp_coulomb_order.c: the order of the Newton system's unknowns (impact/coulomb.h): reverse
   Cuthill-McKee (Cuthill & McKee 1969; George 1971) on the graph of the contacts and
   bilateral rows, two nodes joined when W couples them. Contacts touching the same bodies
   end up close together, so the Newton matrix has a narrow envelope (a tower of boxes: a
   band of about one storey) and the LU of lcp_coulomb_lu.c works inside it. Each component
   is started at a node of least degree; neighbours are taken in the order W lists them. */
#include "lcp_coulomb_internal.h"

void imp_coulomb_order(const imp_coulomb_problem *p, imp_coulomb_workspace *ws)
{
    const imp_coulomb_csr *W = &p->W;
    int nc = ws->nc, nodes = ws->nc + ws->nb;
    int *seen = ws->qbuf, *order = ws->order, *deg = ws->deg;
    for (int c = 0; c < nc; c++) {
        for (int a = 0; a < 3; a++) ws->node_of[ws->crow[3 * c + a]] = c;
    }
    for (int b = 0; b < ws->nb; b++) ws->node_of[ws->brow[b]] = nc + b;
    for (int v = 0; v < nodes; v++) {
        int d = 0;
        if (v < nc) {
            for (int a = 0; a < 3; a++) {
                int row = ws->crow[3 * v + a];
                d += W->row_ptr[row + 1] - W->row_ptr[row];
            }
        } else {
            int row = ws->brow[v - nc];
            d = W->row_ptr[row + 1] - W->row_ptr[row];
        }
        deg[v] = d;
        seen[v] = 0;
    }
    int count = 0;
    while (count < nodes) {
        int start = -1;
        for (int v = 0; v < nodes; v++) {
            if (!seen[v] && (start < 0 || deg[v] < deg[start])) start = v;
        }
        seen[start] = 1;
        order[count++] = start;
        for (int head = count - 1; head < count; head++) {
            int v = order[head];
            int nr = v < nc ? 3 : 1;
            for (int a = 0; a < nr; a++) {
                int row = v < nc ? ws->crow[3 * v + a] : ws->brow[v - nc];
                for (int k = W->row_ptr[row]; k < W->row_ptr[row + 1]; k++) {
                    int u = ws->node_of[W->col[k]];
                    if (!seen[u]) {
                        seen[u] = 1;
                        order[count++] = u;
                    }
                }
            }
        }
    }
    for (int i = 0, j = nodes - 1; i < j; i++, j--) {
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}
