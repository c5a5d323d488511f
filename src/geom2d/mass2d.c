/* mass2d.c: per-edge Green's theorem integrals (see mass2d.h). */
#include "mass2d.h"

#include <math.h>

void imp_mass2d_add_edge(imp_mass2d *m, const imp_edge2d *e, imp_vec2 ref)
{
    if (e->kind == IMP_EDGE_LINE) {
        /* x dy - y dx = a x b dt along p = a + t (b - a) */
        imp_vec2 a = imp_v2_sub(e->a, ref), b = imp_v2_sub(e->b, ref);
        double cr = imp_v2_cross(a, b);
        m->area += 0.5 * cr;
        m->sx += cr * (a.x + b.x) / 6.0;
        m->sy += cr * (a.y + b.y) / 6.0;
        m->j += cr * (imp_v2_dot(a, a) + imp_v2_dot(a, b) + imp_v2_dot(b, b)) / 12.0;
        return;
    }
    /* p = c + r u(theta), theta from t0 to t1 = t0 + D: x dy - y dx = (r^2 + r c.u) dtheta */
    imp_vec2 c = imp_v2_sub(e->c, ref);
    double r = e->r, D = e->sweep;
    imp_vec2 u0 = imp_v2_normalize(imp_v2_sub(e->a, e->c));
    imp_vec2 u1 = imp_v2_normalize(imp_v2_sub(e->b, e->c));
    double c0 = u0.x, s0 = u0.y, c1 = u1.x, s1 = u1.y;
    /* U = \int u dtheta;  M = \int u u^T dtheta */
    imp_vec2 U = imp_v2(s1 - s0, c0 - c1);
    double ds2 = 2.0 * (s1 * c1 - s0 * c0); /* sin 2t1 - sin 2t0 */
    double mxx = 0.5 * D + 0.25 * ds2, myy = 0.5 * D - 0.25 * ds2;
    double mxy = 0.5 * (s1 * s1 - s0 * s0);
    double cU = imp_v2_dot(c, U), cc = imp_v2_dot(c, c);
    imp_vec2 Mc = imp_v2(mxx * c.x + mxy * c.y, mxy * c.x + myy * c.y);
    m->area += 0.5 * (r * r * D + r * cU);
    m->sx += (c.x * r * r * D + r * c.x * cU + r * r * r * U.x + r * r * Mc.x) / 3.0;
    m->sy += (c.y * r * r * D + r * c.y * cU + r * r * r * U.y + r * r * Mc.y) / 3.0;
    m->j += ((cc + r * r) * r * r * D + ((cc + r * r) * r + 2.0 * r * r * r) * cU +
             2.0 * r * r * imp_v2_dot(c, Mc)) / 4.0;
}

void imp_mass2d_add_edge_stable(imp_mass2d *m, const imp_edge2d *e, imp_vec2 ref)
{
    double D = e->sweep;
    if (e->kind == IMP_EDGE_LINE || !(fabs(D) <= 1.0)) {
        imp_mass2d_add_edge(m, e, ref);
        return;
    }
    imp_edge2d chord = *e;  /* the line formula reads a and b only */
    chord.kind = IMP_EDGE_LINE;
    imp_mass2d_add_edge(m, &chord, ref);
    /* segment: chord midpoint M, bulge direction n (centre -> arc middle); in the frame
       x along the chord, y along n: y(phi) = r (cos phi - cos al), x = r sin phi, |phi| <= al */
    static const double node[4] = {0.1834346424956498, 0.5255324099163290, 0.7966664774136267,
                                   0.9602898564975363};
    static const double weight[4] = {0.3626837833783620, 0.3137066458778873, 0.2223810344533745,
                                     0.1012285362903763};
    double r = e->r, al = 0.5 * fabs(D);
    imp_vec2 u0 = imp_v2_normalize(imp_v2_sub(e->a, e->c));
    imp_vec2 u1 = imp_v2_normalize(imp_v2_sub(e->b, e->c));
    imp_vec2 n = imp_v2_normalize(imp_v2_add(u0, u1));
    imp_vec2 M = imp_v2_sub(imp_v2_scale(imp_v2_add(e->a, e->b), 0.5), ref);
    double ia = 0.0, isy = 0.0, ixx = 0.0, iyy = 0.0;
    for (int k = 0; k < 4; k++) {
        for (int sg = -1; sg <= 1; sg += 2) {
            double phi = sg * al * node[k];
            double cphi = cos(phi), sphi = sin(phi);
            double y = 2.0 * sin(0.5 * (al + phi)) * sin(0.5 * (al - phi)); /* cos phi - cos al */
            double w = weight[k] * cphi;
            ia += w * y;
            isy += w * y * y;
            ixx += w * sphi * sphi * y;
            iyy += w * y * y * y;
        }
    }
    /* dx = r cos phi dphi = r al cos(phi) du */
    double A = r * r * al * ia;
    double Sy = 0.5 * r * r * r * al * isy;
    double J = r * r * r * r * al * (ixx + iyy / 3.0);
    double sgn = D > 0.0 ? 1.0 : -1.0;
    m->area += sgn * A;
    m->sx += sgn * (A * M.x + Sy * n.x);
    m->sy += sgn * (A * M.y + Sy * n.y);
    m->j += sgn * (A * imp_v2_dot(M, M) + 2.0 * Sy * imp_v2_dot(M, n) + J);
}
