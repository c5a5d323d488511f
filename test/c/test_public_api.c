/* The public C API as a user sees it: this file includes only <impact/impact.h> (and the C
   library), so it compiles against the installed headers alone (make check-install-c builds
   it with -I<prefix>/include and libimpact.a, no -Isrc). Checks from closed forms: free fall
   in 3D and a projectile in 2D (RK4 integrates a quadratic in time exactly, so only rounding
   remains), a 2x2 LCP, and the errors a bad definition gets. */
#include <impact/impact.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

static int passed, failed, current_failed;

#define EXPECT(cond)                                                          \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "%s:%d: EXPECT(%s) failed\n", __FILE__, __LINE__, \
                    #cond);                                                   \
            current_failed = 1;                                               \
            return;                                                           \
        }                                                                     \
    } while (0)

#define EXPECT_NEAR(a, b, tol)                                                          \
    do {                                                                                \
        double a_ = (a), b_ = (b);                                                      \
        if (!(fabs(a_ - b_) <= (tol))) {                                                \
            fprintf(stderr, "%s:%d: EXPECT_NEAR(%s, %s): %.17g vs %.17g\n", __FILE__,   \
                    __LINE__, #a, #b, a_, b_);                                          \
            current_failed = 1;                                                         \
            return;                                                                     \
        }                                                                               \
    } while (0)

static void run(const char *name, void (*fn)(void))
{
    current_failed = 0;
    fn();
    if (current_failed) {
        failed++;
        printf("FAIL %s\n", name);
    } else {
        passed++;
    }
}

static const double pi = 3.14159265358979323846;

/* A sphere dropped from rest: z(t) = z0 - g t^2 / 2, v(t) = -g t; nothing else moves. */
static void sphere_falls_freely_in_3d(void)
{
    imp_world_def def = imp_world_default_def(3);
    def.gravity[0] = def.gravity[1] = 0.0;
    def.gravity[2] = -9.81;
    def.dt = 0.01;
    char why[256];
    EXPECT(imp_world_check_def(&def, why, sizeof why) == IMP_OK);
    imp_world *w = imp_world_new(&def);
    EXPECT(w != NULL);
    EXPECT(imp_world_dim(w) == 3);

    imp_body_def bd = imp_body_default_def(3);
    bd.shape = imp_shape3d_sphere(0.5);
    EXPECT(bd.shape != NULL);
    EXPECT(imp_shape_dim(bd.shape) == 3);
    EXPECT_NEAR(imp_shape_measure(bd.shape), 4.0 / 3.0 * pi * 0.125, 1e-14);
    bd.density = 1000.0;
    bd.state[0] = 1.0;
    bd.state[1] = -2.0;
    bd.state[2] = 10.0;
    imp_body_id id = imp_world_add_body(w, &bd);
    imp_shape_release(bd.shape); /* the body keeps its own reference */
    EXPECT(id.slot == 1);
    EXPECT(imp_world_body_count(w) == 1);
    const double m = 1000.0 * 4.0 / 3.0 * pi * 0.125;
    EXPECT_NEAR(imp_world_body(w, id)->mass, m, 1e-10 * m);
    EXPECT_NEAR(imp_world_body(w, id)->inertia.m[0][0], 0.4 * m * 0.25, 1e-10 * m);

    for (int i = 0; i < 100; i++) {
        EXPECT(imp_world_step(w) == IMP_OK);
    }
    const double t = imp_world_time(w);
    EXPECT_NEAR(t, 1.0, 1e-13);
    const double *y = imp_world_body_state_read(w, id);
    EXPECT(y != NULL);
    EXPECT_NEAR(y[0], 1.0, 1e-15);
    EXPECT_NEAR(y[1], -2.0, 1e-15);
    EXPECT_NEAR(y[2], 10.0 - 0.5 * 9.81 * t * t, 1e-11);
    EXPECT_NEAR(y[3], 1.0, 1e-15); /* the orientation stays the identity */
    EXPECT_NEAR(y[IMP_VEL_3D + 2], -9.81 * t, 1e-11);
    EXPECT_NEAR(y[IMP_VEL_3D + 3], 0.0, 1e-15); /* no spin */
    /* energy is conserved: kinetic gained = potential lost */
    imp_energy e = imp_world_energy(w);
    EXPECT_NEAR(e.kinetic, 0.5 * m * (9.81 * t) * (9.81 * t), 1e-9 * m);

    imp_stats st = imp_world_stats(w);
    EXPECT(st.steps == 100);
    EXPECT(st.failures == 0);
    const imp_profile *pr = imp_world_profile(w);
    EXPECT(pr->total[IMP_STAGE_STEP] >= 0.0);
    int n = -1;
    (void)imp_world_events(w, &n);
    EXPECT(n == 0);
    imp_world_free(w);
}

/* A disc thrown sideways: x = x0 + vx t, y = y0 - g t^2 / 2. */
static void disc_flies_a_parabola_in_2d(void)
{
    imp_world_def def = imp_world_default_def(2);
    def.dt = 0.02;
    imp_world *w = imp_world_new(&def);
    EXPECT(w != NULL);
    const double g = -def.gravity[1];
    EXPECT(g > 0.0);
    imp_body_def bd = imp_body_default_def(2);
    bd.shape = imp_shape2d_circle(0.25);
    EXPECT(bd.shape != NULL);
    bd.mass = 3.0;
    bd.state[1] = 5.0;
    bd.state[IMP_VEL_2D] = 2.0;
    imp_body_id id = imp_world_add_body(w, &bd);
    imp_shape_release(bd.shape);
    EXPECT(id.slot >= 1);
    for (int i = 0; i < 50; i++) {
        EXPECT(imp_world_step(w) == IMP_OK);
    }
    const double t = imp_world_time(w);
    EXPECT_NEAR(t, 1.0, 1e-13);
    const double *y = imp_world_body_state_read(w, id);
    EXPECT_NEAR(y[0], 2.0 * t, 1e-12);
    EXPECT_NEAR(y[1], 5.0 - 0.5 * g * t * t, 1e-12);
    EXPECT_NEAR(y[IMP_VEL_2D + 1], -g * t, 1e-12);
    double p[3];
    imp_world_momentum(w, p);
    EXPECT_NEAR(p[0], 3.0 * 2.0, 1e-12);
    imp_world_free(w);
}

/* Bad definitions get a status and a message naming what is wrong; nothing is created. */
static void bad_definitions_say_what_is_wrong(void)
{
    imp_world_def def = imp_world_default_def(3);
    def.dt = -1.0;
    char why[256] = "";
    EXPECT(imp_world_check_def(&def, why, sizeof why) == IMP_ERR_INVALID);
    EXPECT(strstr(why, "dt") != NULL);
    EXPECT(strstr(why, "-1") != NULL);
    EXPECT(imp_world_new(&def) == NULL);

    def = imp_world_default_def(4);
    EXPECT(imp_world_check_def(&def, why, sizeof why) == IMP_ERR_INVALID);
    EXPECT(strstr(why, "dim") != NULL);
    EXPECT(strcmp(imp_status_name(IMP_ERR_INVALID), "") != 0);

    def = imp_world_default_def(3);
    imp_world *w = imp_world_new(&def);
    EXPECT(w != NULL);
    imp_body_def bd = imp_body_default_def(3);
    bd.shape = imp_shape3d_sphere(1.0);
    bd.mass = -2.0;
    imp_body_id id = imp_world_add_body(w, &bd);
    EXPECT(id.slot == -1);
    EXPECT(strstr(imp_world_error(w), "mass") != NULL);
    EXPECT(imp_world_body_count(w) == 0);
    imp_shape_release(bd.shape);

    bd = imp_body_default_def(3);
    bd.shape = imp_shape2d_circle(1.0); /* a 2D shape in a 3D world */
    id = imp_world_add_body(w, &bd);
    EXPECT(id.slot == -1);
    EXPECT(strstr(imp_world_error(w), "2D") != NULL);
    imp_shape_release(bd.shape);

    EXPECT(imp_shape3d_sphere(-1.0) == NULL);
    EXPECT(imp_world_set_dt(w, 0.0) == IMP_ERR_INVALID);
    imp_world_free(w);
}

/* A 2x2 LCP with a positive definite A: both rows clamped, f = -A^-1 b. */
static void lcp_solves_a_small_problem(void)
{
    const double A[4] = {2.0, 1.0, 1.0, 2.0};
    const double b[2] = {-1.0, -1.0};
    imp_lcp_problem p;
    memset(&p, 0, sizeof p);
    p.n = 2;
    p.A = A;
    p.b = b;
    double f[2], a[2];
    imp_lcp_info info;
    EXPECT(imp_lcp_solve(&p, NULL, NULL, f, a, NULL, &info) == IMP_LCP_OK);
    EXPECT_NEAR(f[0], 1.0 / 3.0, 1e-14);
    EXPECT_NEAR(f[1], 1.0 / 3.0, 1e-14);
    EXPECT_NEAR(a[0], 0.0, 1e-14);
    EXPECT_NEAR(a[1], 0.0, 1e-14);
}

int main(void)
{
    run("sphere_falls_freely_in_3d", sphere_falls_freely_in_3d);
    run("disc_flies_a_parabola_in_2d", disc_flies_a_parabola_in_2d);
    run("bad_definitions_say_what_is_wrong", bad_definitions_say_what_is_wrong);
    run("lcp_solves_a_small_problem", lcp_solves_a_small_problem);
    printf("public_api: %d passed, %d failed\n", passed, failed);
    return failed > 0 ? 1 : 0;
}
