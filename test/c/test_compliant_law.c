/* The formulas of the compliant contact law (seed 002), against their definitions. */
#include "check.h"
#include "compliant_law.h"
#include "compliant_patch.h"
#include "shape3d.h"

TEST(reg_is_smooth_at_vsmall_with_minimum_vsmall_over_3)
{
    double vs = 0.01, h = 1e-7;
    CHECK_NEAR(imp_law_reg(0.0, vs), vs / 3.0, 1e-18);
    CHECK_NEAR(imp_law_reg(vs, vs), vs, 1e-18);
    CHECK(imp_law_reg(0.5, vs) == 0.5);
    /* first and second derivatives continuous at vs: 1 and 0 */
    double left = (imp_law_reg(vs, vs) - imp_law_reg(vs - h, vs)) / h;
    CHECK_NEAR(left, 1.0, 1e-4);
    double second = (imp_law_reg(vs, vs) - 2.0 * imp_law_reg(vs - h, vs) + imp_law_reg(vs - 2 * h, vs)) / (h * h);
    CHECK_NEAR(second, 0.0, 1e-2 / vs);
    CHECK(imp_law_reg(0.3 * vs, vs) > vs / 3.0);  /* the minimum is at 0 */
}

TEST(c_res_combines_like_springs_in_series)
{
    double c1 = 2e11 / (1 - 0.09), c2 = 1e9 / (1 - 0.25);
    CHECK_CLOSE(imp_law_c_res(2e11, 0.3, 1e9, 0.5), 1.0 / (1.0 / c1 + 1.0 / c2), 1e-15, 0.0);
    CHECK_CLOSE(imp_law_c_res(2e11, 0.3, 2e11, 0.3), c1 / 2.0, 1e-15, 0.0);
}

TEST(geometry_table_of_seed_002)
{
    double c, n, m;
    imp_law_geometry(IMP_LAW_SPHERE, 0.1, IMP_LAW_SPHERE, 0.3, &c, &n, &m);
    double r = 1.0 / (1.0 / 0.1 + 1.0 / 0.3);
    CHECK_CLOSE(c, 4.0 / 3.0 * sqrt(r), 1e-15, 0.0);
    CHECK(n == 1.5);
    CHECK_CLOSE(m, r, 1e-15, 0.0);
    imp_law_geometry(IMP_LAW_OTHER, 0.0, IMP_LAW_SPHERE, 0.2, &c, &n, &m);
    CHECK_CLOSE(c, 4.0 / 3.0 * sqrt(0.2), 1e-15, 0.0);
    CHECK(n == 1.5 && m == 0.2);
    imp_law_geometry(IMP_LAW_OTHER, 0.0, IMP_LAW_OTHER, 0.0, &c, &n, &m);
    CHECK(c == 1.0 && n == 1.0 && m == 1.0);
}

TEST(cor_regularization_limits)
{
    /* far above vsmall: cor; at rest: cor_min; never below cor_min */
    CHECK_NEAR(imp_law_cor_reg(0.7, 0.001, 1.0, 0.01), 0.7, 1e-15);
    CHECK_NEAR(imp_law_cor_reg(0.7, 0.001, 0.0, 0.01), 0.001, 1e-15);
    CHECK_NEAR(imp_law_cor_reg(0.0, 0.001, 2.0, 0.01), 0.001, 1e-15);
    /* at |v| = vsmall: cor + (cor_min - cor) * 0.01 */
    CHECK_NEAR(imp_law_cor_reg(0.7, 0.001, 0.01, 0.01), 0.7 + (0.001 - 0.7) * 0.01, 1e-15);
}

TEST(flores_damping_and_its_cap)
{
    double d = imp_law_damping(0.5, 2.0, 0.01, 1000.0);
    CHECK_CLOSE(d, 8.0 * 0.5 / (5.0 * 0.5 * 2.0), 1e-15, 0.0);
    CHECK(imp_law_damping(0.001, 0.0, 0.01, 1000.0) == 1000.0);
    CHECK(imp_law_damping(1.0, 1.0, 0.01, 1000.0) == 0.0);
}

TEST(normal_force_clamped_and_reduced)
{
    imp_contact_law law = {1e10, 0.2, 1.5, 0.1, 0.5, 2.0, 0.7, 0, 0, 0.01, 0.01};
    double delta = 1e-6;
    CHECK_CLOSE(imp_law_normal_force(&law, delta, 0.1),
                0.5 * 1e10 * 0.2 * pow(delta, 1.5) * (1.0 + 2.0 * 0.1), 1e-14, 0.0);
    CHECK(imp_law_normal_force(&law, -1e-6, 1.0) == 0.0);   /* apart: no force */
    CHECK(imp_law_normal_force(&law, delta, -0.6) == 0.0);  /* 1 + d ddelta < 0: no pull */
}

TEST(restitution_function_ends_and_inverse)
{
    /* no damping: elastic (to the RK4 step's error where the last step straddles x = 0) */
    CHECK_NEAR(imp_law_restitution(0.0, 1.5), 1.0, 1e-6);
    CHECK_NEAR(imp_law_restitution(0.0, 1.0), 1.0, 1e-6);
    /* heavy damping: the clamp releases at a separation speed of 1/chi */
    CHECK_CLOSE(imp_law_restitution(200.0, 1.5), 1.0 / 200.0, 1e-3, 0.0);
    for (double e = 0.05; e < 1.0; e += 0.1) {
        CHECK_CLOSE(imp_law_restitution(imp_law_chi_for(e, 1.5), 1.5), e, 1e-4, 0.0);
        CHECK_CLOSE(imp_law_restitution(imp_law_chi_for(e, 1.0), 1.0), e, 1e-4, 0.0);
    }
    /* the calibrated damping meets cor where Flores' formula falls short */
    CHECK(imp_law_restitution(8.0 * 0.7 / (5.0 * 0.3), 1.5) < 0.27);
}

TEST(flat_punch_factors_and_patch_areas)
{
    double c, n, m, pi = 3.14159265358979323846;
    /* Boussinesq's flat punch: F = 2 a E* delta, a = sqrt(A / pi) */
    imp_law_flat_geometry(pi * 0.04, &c, &n, &m);
    CHECK_CLOSE(c, 0.4, 1e-15, 0.0);
    CHECK(n == 1.0);
    CHECK_CLOSE(m, 0.2, 1e-15, 0.0);
    /* the largest flat face: a 0.1 x 0.2 x 0.3 box has 0.06; its rounded twin the core's face */
    imp_shape *box = imp_shape3d_box(0.1, 0.2, 0.3);
    imp_shape *rounded = imp_shape3d_box_smoothed(0.1, 0.2, 0.3, 0.01);
    CHECK(box != NULL && rounded != NULL);
    CHECK_CLOSE(imp_compliant_flat_area(box), 0.2 * 0.3, 1e-14, 0.0);
    CHECK_CLOSE(imp_compliant_flat_area(rounded), 0.18 * 0.28, 1e-14, 0.0);
    /* a hull of a 0.1 x 0.2 x 0.3 box's corners: its largest face from merged triangles */
    double pts[24];
    int status = 0;
    for (int i = 0; i < 8; i++) {
        pts[3 * i] = (i & 1) ? 0.05 : -0.05;
        pts[3 * i + 1] = (i & 2) ? 0.1 : -0.1;
        pts[3 * i + 2] = (i & 4) ? 0.15 : -0.15;
    }
    imp_shape *hull = imp_shape3d_convex(pts, 8, 0.0, &status);
    imp_shape *smooth = imp_shape3d_convex(pts, 8, 0.005, &status);
    CHECK(hull != NULL && smooth != NULL);
    CHECK_CLOSE(imp_compliant_flat_area(hull), 0.2 * 0.3, 1e-12, 0.0);
    CHECK_CLOSE(imp_compliant_flat_area(smooth), 0.2 * 0.3, 1e-12, 0.0);
    imp_shape_release(box);
    imp_shape_release(rounded);
    imp_shape_release(hull);
    imp_shape_release(smooth);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(reg_is_smooth_at_vsmall_with_minimum_vsmall_over_3);
    RUN(c_res_combines_like_springs_in_series);
    RUN(geometry_table_of_seed_002);
    RUN(cor_regularization_limits);
    RUN(flores_damping_and_its_cap);
    RUN(normal_force_clamped_and_reduced);
    RUN(restitution_function_ends_and_inverse);
    RUN(flat_punch_factors_and_patch_areas);
    return CHECK_END("compliant_law");
}
