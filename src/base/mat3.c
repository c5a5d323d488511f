/* mat3.c: 3x3 matrix operations that are too long to inline. */
#include "mat3.h"

#include <float.h>

imp_mat3 imp_m3_mul(const imp_mat3 *a, const imp_mat3 *b)
{
    imp_mat3 r;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] + a->m[i][2] * b->m[2][j];
        }
    }
    return r;
}

imp_mat3 imp_m3_transpose(const imp_mat3 *a)
{
    imp_mat3 r;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            r.m[i][j] = a->m[j][i];
        }
    }
    return r;
}

imp_mat3 imp_m3_add(const imp_mat3 *a, const imp_mat3 *b)
{
    imp_mat3 r;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            r.m[i][j] = a->m[i][j] + b->m[i][j];
        }
    }
    return r;
}

imp_mat3 imp_m3_scale(const imp_mat3 *a, double s)
{
    imp_mat3 r;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            r.m[i][j] = a->m[i][j] * s;
        }
    }
    return r;
}

double imp_m3_det(const imp_mat3 *a)
{
    const double (*m)[3] = a->m;
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
         - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
         + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

int imp_m3_inverse(const imp_mat3 *a, imp_mat3 *out)
{
    const double (*m)[3] = a->m;
    double scale = 0.0;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            double v = fabs(m[i][j]);
            scale = v > scale ? v : scale;
        }
    }
    double det = imp_m3_det(a);
    if (!(scale > 0.0) || !isfinite(det) || fabs(det) <= 64.0 * DBL_EPSILON * scale * scale * scale) {
        return 0;
    }
    double inv = 1.0 / det;
    imp_mat3 r;
    r.m[0][0] = (m[1][1] * m[2][2] - m[1][2] * m[2][1]) * inv;
    r.m[0][1] = (m[0][2] * m[2][1] - m[0][1] * m[2][2]) * inv;
    r.m[0][2] = (m[0][1] * m[1][2] - m[0][2] * m[1][1]) * inv;
    r.m[1][0] = (m[1][2] * m[2][0] - m[1][0] * m[2][2]) * inv;
    r.m[1][1] = (m[0][0] * m[2][2] - m[0][2] * m[2][0]) * inv;
    r.m[1][2] = (m[0][2] * m[1][0] - m[0][0] * m[1][2]) * inv;
    r.m[2][0] = (m[1][0] * m[2][1] - m[1][1] * m[2][0]) * inv;
    r.m[2][1] = (m[0][1] * m[2][0] - m[0][0] * m[2][1]) * inv;
    r.m[2][2] = (m[0][0] * m[1][1] - m[0][1] * m[1][0]) * inv;
    *out = r;
    return 1;
}

/* r a r^T: (r a) then its product with r's rows as columns, the sums in imp_m3_mul's order
   (the same numbers as imp_m3_mul(imp_m3_mul(r, a), transpose(r))), without the transpose's
   copy and the calls: 54 products and 36 sums */
imp_mat3 imp_m3_rotate_tensor(const imp_mat3 *r, const imp_mat3 *a)
{
    imp_mat3 ra, out;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            ra.m[i][j] = r->m[i][0] * a->m[0][j] + r->m[i][1] * a->m[1][j] + r->m[i][2] * a->m[2][j];
        }
    }
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            out.m[i][j] = ra.m[i][0] * r->m[j][0] + ra.m[i][1] * r->m[j][1] + ra.m[i][2] * r->m[j][2];
        }
    }
    return out;
}

void imp_m3_sym_eigen(const imp_mat3 *a, double e[3], imp_mat3 *v)
{
    imp_mat3 s = *a;
    imp_mat3 q = imp_m3_identity();
    for (int sweep = 0; sweep < 64; sweep++) {
        double off = fabs(s.m[0][1]) + fabs(s.m[0][2]) + fabs(s.m[1][2]);
        double diag = fabs(s.m[0][0]) + fabs(s.m[1][1]) + fabs(s.m[2][2]);
        if (off <= 1e-300 || off <= DBL_EPSILON * 1e-3 * diag) {
            break;
        }
        for (int p = 0; p < 2; p++) {
            for (int r = p + 1; r < 3; r++) {
                double apr = s.m[p][r];
                if (apr == 0.0) {
                    continue;
                }
                /* rotation angle zeroing s[p][r] (Golub & Van Loan, symmetric Schur) */
                double theta = (s.m[r][r] - s.m[p][p]) / (2.0 * apr);
                double t = (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
                double c = 1.0 / sqrt(t * t + 1.0);
                double sn = t * c;
                for (int k = 0; k < 3; k++) {  /* S <- S J */
                    double skp = s.m[k][p], skr = s.m[k][r];
                    s.m[k][p] = c * skp - sn * skr;
                    s.m[k][r] = sn * skp + c * skr;
                }
                for (int k = 0; k < 3; k++) {  /* S <- J^T S */
                    double spk = s.m[p][k], srk = s.m[r][k];
                    s.m[p][k] = c * spk - sn * srk;
                    s.m[r][k] = sn * spk + c * srk;
                }
                for (int k = 0; k < 3; k++) {  /* Q <- Q J */
                    double qkp = q.m[k][p], qkr = q.m[k][r];
                    q.m[k][p] = c * qkp - sn * qkr;
                    q.m[k][r] = sn * qkp + c * qkr;
                }
            }
        }
    }
    /* sort ascending (stable, deterministic) */
    int idx[3] = {0, 1, 2};
    for (int i = 0; i < 3; i++) {
        for (int j = i + 1; j < 3; j++) {
            if (s.m[idx[j]][idx[j]] < s.m[idx[i]][idx[i]]) {
                int t = idx[i];
                idx[i] = idx[j];
                idx[j] = t;
            }
        }
    }
    imp_mat3 out;
    for (int j = 0; j < 3; j++) {
        e[j] = s.m[idx[j]][idx[j]];
        for (int k = 0; k < 3; k++) {
            out.m[k][j] = q.m[k][idx[j]];
        }
    }
    if (imp_m3_det(&out) < 0.0) {  /* keep a proper rotation */
        for (int k = 0; k < 3; k++) {
            out.m[k][2] = -out.m[k][2];
        }
    }
    *v = out;
}

imp_mat3 imp_m3_steiner(double m, imp_vec3 d)
{
    double d2 = imp_v3_dot(d, d);
    imp_mat3 r = {{{m * (d2 - d.x * d.x), -m * d.x * d.y, -m * d.x * d.z},
                   {-m * d.y * d.x, m * (d2 - d.y * d.y), -m * d.y * d.z},
                   {-m * d.z * d.x, -m * d.z * d.y, m * (d2 - d.z * d.z)}}};
    return r;
}

int imp_m3_isfinite(const imp_mat3 *a)
{
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            if (!isfinite(a->m[i][j])) {
                return 0;
            }
        }
    }
    return 1;
}
