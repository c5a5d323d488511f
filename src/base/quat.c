/* quat.c: quaternion operations that are too long to inline. */
#include "quat.h"

/* Quaternion of a proper rotation matrix (Shepperd's method: pick the largest of the four
   squared components, so no division by a small number). The result has w >= 0. */
imp_quat imp_q_from_mat3(const imp_mat3 *r)
{
    const double (*m)[3] = r->m;
    double tr = m[0][0] + m[1][1] + m[2][2];
    imp_quat q;
    if (tr >= m[0][0] && tr >= m[1][1] && tr >= m[2][2]) {
        double s = 2.0 * sqrt(1.0 + tr);
        q = imp_q(0.25 * s, (m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s);
    } else if (m[0][0] >= m[1][1] && m[0][0] >= m[2][2]) {
        double s = 2.0 * sqrt(1.0 + m[0][0] - m[1][1] - m[2][2]);
        q = imp_q((m[2][1] - m[1][2]) / s, 0.25 * s, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s);
    } else if (m[1][1] >= m[2][2]) {
        double s = 2.0 * sqrt(1.0 + m[1][1] - m[0][0] - m[2][2]);
        q = imp_q((m[0][2] - m[2][0]) / s, (m[0][1] + m[1][0]) / s, 0.25 * s, (m[1][2] + m[2][1]) / s);
    } else {
        double s = 2.0 * sqrt(1.0 + m[2][2] - m[0][0] - m[1][1]);
        q = imp_q((m[1][0] - m[0][1]) / s, (m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, 0.25 * s);
    }
    if (q.w < 0.0) {
        q = imp_q(-q.w, -q.x, -q.y, -q.z);
    }
    return imp_q_normalize(q);
}
