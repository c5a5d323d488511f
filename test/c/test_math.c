/* Unit tests of the math layer: vec2, vec3, quat, mat3. */
#include "check.h"
#include "mat3.h"
#include "quat.h"
#include "scalar.h"
#include "vec2.h"

TEST(vec2_rotate_and_cross)
{
    imp_vec2 a = imp_v2_rotate(imp_v2(1, 0), IMP_PI / 2);
    CHECK_NEAR(a.x, 0.0, 1e-15);
    CHECK_NEAR(a.y, 1.0, 1e-15);
    CHECK(imp_v2_cross(imp_v2(1, 0), imp_v2(0, 1)) == 1.0);
    imp_vec2 v = imp_v2_cross_sv(2.0, imp_v2(1, 0)); /* w x r = (0, 2) */
    CHECK(v.x == 0.0 && v.y == 2.0);
}

TEST(quat_rotation_matches_matrix)
{
    imp_quat q = imp_q_from_axis_angle(imp_v3(1, 2, 3), 0.7);
    imp_mat3 r = imp_q_to_mat3(q);
    imp_vec3 v = imp_v3(0.3, -1.2, 2.5);
    imp_vec3 a = imp_q_rotate(q, v), b = imp_m3_mulv(&r, v);
    CHECK_NEAR(a.x, b.x, 1e-14);
    CHECK_NEAR(a.y, b.y, 1e-14);
    CHECK_NEAR(a.z, b.z, 1e-14);
    imp_vec3 back = imp_q_unrotate(q, a);
    CHECK_NEAR(back.x, v.x, 1e-14);
    CHECK_NEAR(back.z, v.z, 1e-14);
    /* rotation about z by 90 degrees takes x to y */
    imp_vec3 y = imp_q_rotate(imp_q_from_axis_angle(imp_v3(0, 0, 1), IMP_PI / 2), imp_v3(1, 0, 0));
    CHECK_NEAR(y.x, 0.0, 1e-15);
    CHECK_NEAR(y.y, 1.0, 1e-15);
}

TEST(quat_from_matrix_round_trip)
{
    const double angles[] = {0.0, 0.1, 1.5, 3.0, 3.14159};
    for (int i = 0; i < 5; i++) {
        imp_quat q = imp_q_from_axis_angle(imp_v3(-1, 0.5, 2), angles[i]);
        imp_mat3 r = imp_q_to_mat3(q);
        imp_quat p = imp_q_from_mat3(&r);
        double dot = q.w * p.w + q.x * p.x + q.y * p.y + q.z * p.z;
        CHECK_NEAR(fabs(dot), 1.0, 1e-14);
    }
}

TEST(quat_derivative_is_rotation_rate)
{
    /* d/dt of exp(t w/2) at t = 0 applied to identity is (0, w/2) */
    imp_quat d = imp_q_derivative(imp_q_identity(), imp_v3(0, 0, 2));
    CHECK(d.w == 0.0 && d.x == 0.0 && d.y == 0.0 && d.z == 1.0);
}

TEST(mat3_inverse_and_singular)
{
    imp_mat3 a = {{{4, 1, 0}, {1, 3, 1}, {0, 1, 2}}};
    imp_mat3 inv;
    CHECK(imp_m3_inverse(&a, &inv));
    imp_mat3 p = imp_m3_mul(&a, &inv);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            CHECK_NEAR(p.m[i][j], i == j ? 1.0 : 0.0, 1e-15);
        }
    }
    imp_mat3 s = {{{1, 2, 3}, {2, 4, 6}, {0, 1, 1}}};
    CHECK(!imp_m3_inverse(&s, &inv));
}

TEST(mat3_symmetric_eigen)
{
    /* R diag(1, 2, 5) R^T has eigenvalues 1, 2, 5 and eigenvectors the columns of R */
    imp_mat3 r = imp_q_to_mat3(imp_q_from_axis_angle(imp_v3(0.3, -0.4, 1), 0.9));
    imp_mat3 d = imp_m3_diag(1, 2, 5);
    imp_mat3 a = imp_m3_rotate_tensor(&r, &d);
    double e[3];
    imp_mat3 v;
    imp_m3_sym_eigen(&a, e, &v);
    CHECK_NEAR(e[0], 1.0, 1e-13);
    CHECK_NEAR(e[1], 2.0, 1e-13);
    CHECK_NEAR(e[2], 5.0, 1e-13);
    CHECK_NEAR(imp_m3_det(&v), 1.0, 1e-13);
    for (int j = 0; j < 3; j++) { /* |v_j . r_j| = 1 */
        double dot = v.m[0][j] * r.m[0][j] + v.m[1][j] * r.m[1][j] + v.m[2][j] * r.m[2][j];
        CHECK_NEAR(fabs(dot), 1.0, 1e-12);
    }
}

TEST(mat3_steiner_matches_point_mass)
{
    /* a point mass 2 at (0, 3, 0): Ixx = Izz = 2 * 9, Iyy = 0 */
    imp_mat3 s = imp_m3_steiner(2.0, imp_v3(0, 3, 0));
    CHECK(s.m[0][0] == 18.0 && s.m[1][1] == 0.0 && s.m[2][2] == 18.0 && s.m[0][1] == 0.0);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(vec2_rotate_and_cross);
    RUN(quat_rotation_matches_matrix);
    RUN(quat_from_matrix_round_trip);
    RUN(quat_derivative_is_rotation_rate);
    RUN(mat3_inverse_and_singular);
    RUN(mat3_symmetric_eigen);
    RUN(mat3_steiner_matches_point_mass);
    return CHECK_END("math");
}
