/* engine2d_path_search_mpl.c: the nearest point of a path as myPhysicsLab's NumericalPath
   finds it for its PathJoint and PathEndPoint (conventions = "myphysicslab";
   engine2d_path_joint.h). Written from its documented algorithm (findNearestLocal): a search
   from the point found last, first over the table with a stride of a twentieth of the table,
   halved whenever neither neighbour is nearer, then (stride 1) over the path distance p with
   a step of two table spacings, halved the same way until it is at most 1e-6; the distances
   between table points are those of the cubic through four table points (its interp4). Its
   closed tables repeat the first point at the end; impact's do not, so here a closed table
   is read with that point added (index n: the first point at p = length). */
#include <math.h>

#include "engine2d.h"
#include "engine2d_path_joint.h"

/* the table as myPhysicsLab holds it: its length, and point i's p, x, y */
static int tab_n(const imp_path2d *g)
{
    return g->n + g->closed;
}

static double tab_p(const imp_path2d *g, int i)
{
    return i < g->n ? g->p[i] : g->length;
}

static double tab_v(const imp_path2d *g, const double *v, int i)
{
    return v[i < g->n ? i : 0];
}

/* the path's length as its table spans it */
static double tab_len(const imp_path2d *g)
{
    return tab_p(g, tab_n(g) - 1);
}

/* index k wrapped round a closed table, clamped to an open one */
static int mod_k(const imp_path2d *g, int k)
{
    int n = tab_n(g);
    if (g->closed) {
        return ((k % n) + n) % n;
    }
    return k < 0 ? 0 : k >= n ? n - 1 : k;
}

/* p taken into [0, length] on a closed path */
static double mod_p(const imp_path2d *g, double p)
{
    double len = tab_len(g);
    if (g->closed && (p < 0.0 || p > len)) {
        p -= len * floor(p / len);
    }
    return p;
}

/* the table interval holding p: i with p_i <= p < p_i+1; -1 before the first point, the
   table's length from the last on. O(log n). */
static int interval_of(const imp_path2d *g, double p)
{
    int n = tab_n(g);
    if (p < tab_p(g, 0)) {
        return -1;
    }
    if (p >= tab_p(g, n - 1)) {
        return n;
    }
    int lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if (tab_p(g, mid) <= p) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* the interval holding p, walked from interval k when p is within a twentieth of the path
   from point k (else by halving) */
static int interval_near(const imp_path2d *g, double p, int k)
{
    int n = tab_n(g), j = k > n - 2 ? n - 2 : k < 0 ? 0 : k;
    if (fabs(tab_p(g, j) - p) > tab_len(g) / 20.0) {
        return interval_of(g, p);
    }
    for (;;) {
        if (tab_p(g, j) <= p && p < tab_p(g, j + 1)) {
            break;
        }
        if (p < tab_p(g, j)) {
            if (j == 0) {
                break;
            }
            j--;
        } else {
            if (j >= n - 2) {
                break;
            }
            j++;
        }
    }
    return j;
}

/* the cubic through table points i .. i + 3 (i = k clamped into the table) of values v at p
   (Newton's divided differences) */
static double cubic4(const imp_path2d *g, const double *v, double p, int k)
{
    int n = tab_n(g), i = k > n - 4 ? n - 4 : k < 0 ? 0 : k;
    double x0 = tab_p(g, i), x1 = tab_p(g, i + 1), x2 = tab_p(g, i + 2), x3 = tab_p(g, i + 3);
    double y0 = tab_v(g, v, i), y1 = tab_v(g, v, i + 1), y2 = tab_v(g, v, i + 2);
    double y3 = tab_v(g, v, i + 3);
    double c2 = (y1 - y0) / (x1 - x0);
    double c3 = (y2 - (y0 + c2 * (x2 - x0))) / ((x2 - x0) * (x2 - x1));
    double c4 = y3 - (y0 + c2 * (x3 - x0) + c3 * (x3 - x0) * (x3 - x1));
    c4 /= (x3 - x0) * (x3 - x1) * (x3 - x2);
    return ((c4 * (p - x2) + c3) * (p - x1) + c2) * (p - x0) + y0;
}

/* squared distance from (x, y) to table point i, and to the path at p (interval k) */
static double dist2_point(const imp_path2d *g, double x, double y, int i)
{
    double dx = x - tab_v(g, g->x, i), dy = y - tab_v(g, g->y, i);
    return dx * dx + dy * dy;
}

static double dist2_at(const imp_path2d *g, double x, double y, double p, int k)
{
    double dx = x - cubic4(g, g->x, p, k - 1), dy = y - cubic4(g, g->y, p, k - 1);
    return dx * dx + dy * dy;
}

/* the path distance spanned by the two table intervals around point k */
static double spacing(const imp_path2d *g, int k)
{
    int n = tab_n(g), j = mod_k(g, k - 1);
    if (g->closed) {
        return tab_p(g, mod_k(g, j + 2)) - tab_p(g, j);
    }
    j = mod_k(g, k);
    j = j == 0 ? 0 : j == n - 1 ? n - 3 : j - 1;
    return tab_p(g, j + 2) - tab_p(g, j);
}

void imp_engine2d_path_search_mpl(const imp_path2d *g, double x, double y, int *k_io,
                                  double *p_io)
{
    int n = tab_n(g), k = mod_k(g, *k_io), dk = n / 20;
    double len = tab_len(g), d = len / 20.0, p = tab_p(g, k);
    do {
        double y0, y1, y2;
        if (dk > 1) {
            p = tab_p(g, k);
            y0 = dist2_point(g, x, y, mod_k(g, k - dk));
            y1 = dist2_point(g, x, y, k);
            y2 = dist2_point(g, x, y, mod_k(g, k + dk));
        } else {
            double p0 = mod_p(g, p - d), p2 = mod_p(g, p + d);
            y0 = dist2_at(g, x, y, p0, interval_near(g, p0, k));
            y1 = dist2_at(g, x, y, p, k);
            y2 = dist2_at(g, x, y, p2, interval_near(g, p2, k));
        }
        if (y0 < y1 && y0 < y2) {  /* a step back */
            if (dk > 1) {
                k = mod_k(g, k - dk);
                p = tab_p(g, k);
            } else {
                p = mod_p(g, p - d);
                k = interval_near(g, p, k);
            }
        } else if (y2 < y1) {  /* a step on */
            if (dk > 1) {
                k = mod_k(g, k + dk);
                p = tab_p(g, k);
            } else {
                p = mod_p(g, p + d);
                k = interval_near(g, p, k);
            }
        } else if (dk > 1) {  /* neither neighbour nearer: a shorter step */
            dk /= 2;
            if (dk == 1) {
                d = spacing(g, k);
            }
        } else {
            d /= 2.0;
        }
    } while (dk > 1 || d > 1e-6);
    if (g->closed) {  /* p continued from the last one across the closing point */
        double old = mod_p(g, *p_io);
        if (old < len / 6.0 && p > 5.0 * len / 6.0) {
            *p_io += (p - len) - old;
        } else if (p < len / 6.0 && old > 5.0 * len / 6.0) {
            *p_io += (p + len) - old;
        } else {
            *p_io += p - old;
        }
    } else {
        *p_io = p;
    }
    *k_io = k;
}

void imp_engine2d_path_nearest_mpl(const imp_path2d *g, double x, double y, int *k_io,
                                   double *p_io, imp_path2d_point *q)
{
    imp_engine2d_path_search_mpl(g, x, y, k_io, p_io);
    imp_engine2d_path_at(g, mod_p(g, *p_io), q);
    q->p = *p_io;
}
