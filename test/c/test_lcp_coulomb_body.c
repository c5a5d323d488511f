/* test_lcp_coulomb_body.c: the Coulomb solver with W given by its factors J Minv J^T
   (impact/coulomb.h, imp_coulomb_factors; the dof-space Newton direction of
   src/lcp/lcp_coulomb_body.c). Scenes of boxes resting on each other and on a fixed ground
   (4 points per face pair: W rank-deficient), boxes on one corner each (W full rank), ball
   joints (bilateral rows). Checked: the Newton direction of one iteration is the same by
   the rows' path and the dof-space path (the same linear system, Woodbury's identity), both
   solves reach the tolerance, the dof-space path is taken when the dofs are fewer than the
   Newton rows and not otherwise (then the answer is bit for bit today's), a singular block
   of the Jacobian (no regularization, sticking contacts) falls back to the rows' path, and
   bad factors are rejected. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include <impact/coulomb.h>
#include "lcp_coulomb_internal.h"
#include "lcp_gen.h"

#define MAXB 64
#define MAXR 2400

typedef struct scene {
    int nb, nd, n, nc;             /* moving boxes, dofs, rows, contacts */
    double x[MAXB][3];             /* centres */
    double *J, *M, *W;             /* dense: n x nd, nd x nd, n x n */
    double q[MAXR], mu[MAXR / 3], v[6 * MAXB];
    unsigned char bil[MAXR];
    int nbil;
    /* compressed rows */
    int *jrp, *jcol, *mrp, *mcol, *wrp, *wcol;
    double *jval, *mval, *wval;
    imp_coulomb_factors f;
    imp_coulomb_problem p;         /* with factors */
    imp_coulomb_problem p0;        /* without */
} scene;

static void scene_init(scene *s, gen_rng *g, int nb, double mass_spread)
{
    memset(s, 0, sizeof *s);
    s->nb = nb;
    s->nd = 6 * nb;
    s->J = calloc((size_t)MAXR * s->nd, sizeof(double));
    s->M = calloc((size_t)s->nd * s->nd, sizeof(double));
    for (int b = 0; b < nb; b++) {
        double m = exp(mass_spread * gen_normal(g));
        double *Mb = s->M + (size_t)6 * b * s->nd + 6 * b;
        for (int k = 0; k < 3; k++) Mb[(size_t)k * s->nd + k] = 1.0 / m;
        /* rotational block R diag(1 / I) R^T, R from a random unit quaternion */
        double qa = gen_normal(g), qb = gen_normal(g), qc = gen_normal(g), qd = gen_normal(g);
        double ql = sqrt(qa * qa + qb * qb + qc * qc + qd * qd);
        qa /= ql, qb /= ql, qc /= ql, qd /= ql;
        double R[9] = {1 - 2 * (qc * qc + qd * qd), 2 * (qb * qc - qa * qd), 2 * (qb * qd + qa * qc),
                       2 * (qb * qc + qa * qd), 1 - 2 * (qb * qb + qd * qd), 2 * (qc * qd - qa * qb),
                       2 * (qb * qd - qa * qc), 2 * (qc * qd + qa * qb), 1 - 2 * (qb * qb + qc * qc)};
        double ii[3];
        for (int k = 0; k < 3; k++) ii[k] = 6.0 / (m * (0.5 + gen_uniform(g)));
        for (int a = 0; a < 3; a++) {
            for (int c = 0; c < 3; c++) {
                double t = 0.0;
                for (int k = 0; k < 3; k++) t += R[3 * a + k] * ii[k] * R[3 * c + k];
                Mb[(size_t)(3 + a) * s->nd + 3 + c] = t;
            }
        }
        for (int k = 0; k < 6; k++) s->v[6 * b + k] = 0.1 * gen_normal(g);
        s->v[6 * b + 2] -= 9.81 / 60.0; /* gravity's step */
    }
}

/* three rows (d0, d1, d2 directions) of the relative velocity of body b against body a
   (a = -1: the fixed ground) at the world point p */
static void add_rows(scene *s, int a, int b, const double p[3], const double *d0, const double *d1,
                     const double *d2, int bilateral)
{
    const double *dir[3] = {d0, d1, d2};
    for (int k = 0; k < 3; k++) {
        double *row = s->J + (size_t)s->n * s->nd;
        const double *e = dir[k];
        for (int side = 0; side < 2; side++) {
            int body = side == 0 ? b : a;
            double sg = side == 0 ? 1.0 : -1.0;
            if (body < 0) continue;
            double arm[3] = {p[0] - s->x[body][0], p[1] - s->x[body][1], p[2] - s->x[body][2]};
            double c[3] = {arm[1] * e[2] - arm[2] * e[1], arm[2] * e[0] - arm[0] * e[2], arm[0] * e[1] - arm[1] * e[0]};
            for (int j = 0; j < 3; j++) {
                row[6 * body + j] += sg * e[j];
                row[6 * body + 3 + j] += sg * c[j];
            }
        }
        s->bil[s->n] = (unsigned char)bilateral;
        s->n++;
    }
    if (bilateral) s->nbil += 3;
}

static const double EX[3] = {1, 0, 0}, EY[3] = {0, 1, 0}, EZ[3] = {0, 0, 1};

/* a contact point of normal nrm (EX, EY or EZ) from a to b */
static void add_contact(scene *s, gen_rng *g, int a, int b, const double p[3], int axis)
{
    const double *d[3][3] = {{EX, EY, EZ}, {EY, EZ, EX}, {EZ, EX, EY}};
    s->mu[s->nc++] = 0.3 + 0.7 * gen_uniform(g);
    add_rows(s, a, b, p, d[axis][0], d[axis][1], d[axis][2], 0);
}

/* the 4 corners of the rectangle [x0, x1] x [y0, y1] at height z (normal z) */
static void face_pair(scene *s, gen_rng *g, int a, int b, double x0, double x1, double y0, double y1, double z)
{
    for (int k = 0; k < 4; k++) {
        double p[3] = {k & 1 ? x1 : x0, k & 2 ? y1 : y0, z};
        add_contact(s, g, a, b, p, 2);
    }
}

/* W, q and the compressed rows; then the problems with and without factors */
static void scene_finish(scene *s)
{
    int n = s->n, nd = s->nd;
    s->W = malloc(sizeof(double) * (size_t)n * n);
    double *mj = malloc(sizeof(double) * (size_t)nd);
    for (int i = 0; i < n; i++) {
        const double *ri = s->J + (size_t)i * nd;
        double t = 0.0;
        for (int k = 0; k < nd; k++) t += ri[k] * s->v[k];
        s->q[i] = t;
        for (int k = 0; k < nd; k++) {
            double u = 0.0;
            for (int l = 0; l < nd; l++) u += s->M[(size_t)k * nd + l] * ri[l];
            mj[k] = u;
        }
        for (int j = 0; j < n; j++) {
            const double *rj = s->J + (size_t)j * nd;
            double w = 0.0;
            for (int k = 0; k < nd; k++) w += rj[k] * mj[k];
            s->W[(size_t)i * n + j] = w;
        }
    }
    free(mj);
    /* compressed rows of the dense matrices (rows x cols) */
    const double *src[3] = {s->J, s->M, s->W};
    int rows[3] = {n, nd, n}, cols[3] = {nd, nd, n};
    int **rp[3] = {&s->jrp, &s->mrp, &s->wrp}, **cl[3] = {&s->jcol, &s->mcol, &s->wcol};
    double **vl[3] = {&s->jval, &s->mval, &s->wval};
    for (int t = 0; t < 3; t++) {
        int nnz = 0;
        for (size_t k = 0; k < (size_t)rows[t] * cols[t]; k++) nnz += src[t][k] != 0.0;
        *rp[t] = malloc(sizeof(int) * (size_t)(rows[t] + 1));
        *cl[t] = malloc(sizeof(int) * (size_t)(nnz + 1));
        *vl[t] = malloc(sizeof(double) * (size_t)(nnz + 1));
        nnz = 0;
        for (int i = 0; i < rows[t]; i++) {
            (*rp[t])[i] = nnz;
            for (int j = 0; j < cols[t]; j++) {
                double val = src[t][(size_t)i * cols[t] + j];
                if (val == 0.0) continue;
                (*cl[t])[nnz] = j;
                (*vl[t])[nnz++] = val;
            }
        }
        (*rp[t])[rows[t]] = nnz;
    }
    s->f.ndof = nd;
    s->f.J = (imp_coulomb_csr){n, s->jrp, s->jcol, s->jval};
    s->f.Minv = (imp_coulomb_csr){nd, s->mrp, s->mcol, s->mval};
    s->p0 = (imp_coulomb_problem){{n, s->wrp, s->wcol, s->wval}, s->q, s->mu, s->nbil > 0 ? s->bil : NULL, NULL};
    s->p = s->p0;
    s->p.factors = &s->f;
}

static void scene_free(scene *s)
{
    free(s->J), free(s->M), free(s->W);
    free(s->jrp), free(s->jcol), free(s->jval);
    free(s->mrp), free(s->mcol), free(s->mval);
    free(s->wrp), free(s->wcol), free(s->wval);
}

/* a column of k boxes (half sizes 0.3 .. 0.6, offsets up to 0.2) on the ground, and extra
   bodies touching nothing (their dofs in Minv, no row of J on them) */
static void stack_scene(scene *s, gen_rng *g, int k, int extra)
{
    scene_init(s, g, k + extra, 0.5);
    for (int b = k; b < k + extra; b++) s->x[b][0] = 10.0 * b;
    double z = 0.0, hx0 = 0, hy0 = 0, cx0 = 0, cy0 = 0;
    for (int b = 0; b < k; b++) {
        double hx = 0.3 + 0.3 * gen_uniform(g), hy = 0.3 + 0.3 * gen_uniform(g), hz = 0.2 + 0.3 * gen_uniform(g);
        double cx = b == 0 ? 0.0 : cx0 + 0.2 * (2 * gen_uniform(g) - 1), cy = b == 0 ? 0.0 : cy0 + 0.2 * (2 * gen_uniform(g) - 1);
        s->x[b][0] = cx, s->x[b][1] = cy, s->x[b][2] = z + hz;
        if (b == 0) {
            face_pair(s, g, -1, 0, cx - hx, cx + hx, cy - hy, cy + hy, z);
        } else {
            face_pair(s, g, b - 1, b, fmax(cx - hx, cx0 - hx0), fmin(cx + hx, cx0 + hx0), fmax(cy - hy, cy0 - hy0),
                      fmin(cy + hy, cy0 + hy0), z);
        }
        z += 2 * hz;
        hx0 = hx, hy0 = hy, cx0 = cx, cy0 = cy;
    }
}

/* the pyramid of unit cubes of the engine's benchmark: K layers, (K - l)^2 cubes in layer
   l, each on the ground or on the cubes below it, side faces in contact within a layer */
static void pyramid_scene(scene *s, gen_rng *g, int K)
{
    int nb = 0;
    for (int l = 0; l < K; l++) nb += (K - l) * (K - l);
    scene_init(s, g, nb, 0.0);
    int first[16], b = 0;
    for (int l = 0; l < K; l++) {
        int m = K - l;
        first[l] = b;
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++, b++) {
                s->x[b][0] = i - (m - 1) / 2.0, s->x[b][1] = j - (m - 1) / 2.0, s->x[b][2] = 0.5 + l;
            }
        }
    }
    for (int l = 0; l < K; l++) {
        int m = K - l;
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                int bb = first[l] + i * m + j;
                double cx = s->x[bb][0], cy = s->x[bb][1];
                if (l == 0) {
                    face_pair(s, g, -1, bb, cx - 0.5, cx + 0.5, cy - 0.5, cy + 0.5, 0.0);
                } else {
                    for (int di = 0; di < 2; di++) {
                        for (int dj = 0; dj < 2; dj++) {
                            int a = first[l - 1] + (i + di) * (m + 1) + j + dj;
                            double ax = s->x[a][0], ay = s->x[a][1];
                            face_pair(s, g, a, bb, fmax(cx, ax) - 0.5, fmin(cx, ax) + 0.5, fmax(cy, ay) - 0.5,
                                      fmin(cy, ay) + 0.5, (double)l);
                        }
                    }
                }
                /* side faces: +x and +y neighbours */
                if (i + 1 < m) {
                    int o = bb + m;
                    for (int k = 0; k < 4; k++) {
                        double p[3] = {cx + 0.5, cy + (k & 1 ? 0.5 : -0.5), l + (k & 2 ? 1.0 : 0.0)};
                        add_contact(s, g, bb, o, p, 0);
                    }
                }
                if (j + 1 < m) {
                    int o = bb + 1;
                    for (int k = 0; k < 4; k++) {
                        double p[3] = {cx + (k & 1 ? 0.5 : -0.5), cy + 0.5, l + (k & 2 ? 1.0 : 0.0)};
                        add_contact(s, g, bb, o, p, 1);
                    }
                }
            }
        }
    }
}

/* k boxes each touching the ground at one corner (3 rows per 6 dofs: W of full rank) */
static void corner_scene(scene *s, gen_rng *g, int k)
{
    scene_init(s, g, k, 1.0);
    for (int b = 0; b < k; b++) {
        s->x[b][0] = 3.0 * b, s->x[b][1] = 0.0, s->x[b][2] = 0.5;
        double p[3] = {3.0 * b + 0.3 * gen_normal(g), 0.3 * gen_normal(g), 0.0};
        add_contact(s, g, -1, b, p, 2);
    }
}

/* a ball joint (three bilateral rows) between bodies a and b at p */
static void ball_joint(scene *s, int a, int b, const double p[3])
{
    add_rows(s, a, b, p, EX, EY, EZ, 1);
}

/* a starting point: r_N in [-0.2, 1] s, r_T up to 1.5 mu r_N (open, sticking and sliding
   contacts at r and W r + q), bilateral rows random */
static void random_r(const scene *s, gen_rng *g, double scale, double *r)
{
    int c = 0;
    for (int i = 0; i < s->n;) {
        if (s->bil[i]) {
            r[i++] = scale * gen_normal(g);
            continue;
        }
        double rn = scale * (1.2 * gen_uniform(g) - 0.2), a = 6.283185307179586 * gen_uniform(g);
        double rt = 1.5 * s->mu[c] * fabs(rn) * gen_uniform(g);
        r[i] = rn, r[i + 1] = rt * cos(a), r[i + 2] = rt * sin(a);
        i += 3, c++;
    }
}

/* |a - b|_inf <= tol |b|_inf */
static int close_inf(int n, const double *a, const double *b, double tol, double *rel)
{
    double d = 0.0, s = 0.0;
    for (int i = 0; i < n; i++) {
        d = fmax(d, fabs(a[i] - b[i]));
        s = fmax(s, fabs(b[i]));
    }
    *rel = s > 0.0 ? d / s : d;
    return d <= tol * s;
}

/* the direction at random points and at a point along a solve, both paths */
static void compare_directions(scene *s, gen_rng *g, int *count)
{
    int n = s->n;
    double *r = malloc(sizeof(double) * (size_t)n), *d1 = malloc(sizeof(double) * (size_t)n),
           *d2 = malloc(sizeof(double) * (size_t)n), *u = malloc(sizeof(double) * (size_t)n);
    static const double deltas[] = {1.0, 0.1, 1e-3};
    for (int t = 0; t < 4; t++) {
        if (t < 3) {
            random_r(s, g, 0.2, r);
        } else {
            /* a few iterations into a solve from 0 */
            imp_coulomb_options o;
            imp_coulomb_default_options(&o);
            o.method = IMP_COULOMB_NEWTON;
            o.max_iterations = 3;
            imp_coulomb_info info;
            (void)imp_coulomb_solve(&s->p0, &o, NULL, r, u, &info);
        }
        for (int k = 0; k < 3; k++) {
            int a = imp_coulomb_test_direction(&s->p, r, deltas[k], 1, d1);
            int b = imp_coulomb_test_direction(&s->p, r, deltas[k], 2, d2);
            CHECK(a == 0);
            CHECK(b == 1);
            double rel;
            if (!close_inf(n, d2, d1, 1e-8, &rel)) {
                CHECK_FAIL_AT("%d rows, %d dofs, delta %g, point %d: the directions differ by %g (relative)", n,
                              s->nd, deltas[k], t, rel);
                return;
            }
            (*count)++;
        }
    }
    free(r), free(d1), free(d2), free(u);
}

TEST(directions_agree_stacks)
{
    gen_rng g;
    gen_seed(&g, 71);
    int count = 0;
    for (int k = 1; k <= 6 && !check_current_failed; k++) {
        scene s;
        stack_scene(&s, &g, k, 0);
        scene_finish(&s);
        compare_directions(&s, &g, &count);
        scene_free(&s);
    }
    CHECK(count == 6 * 12);
}

TEST(directions_agree_pyramid_and_corners)
{
    gen_rng g;
    gen_seed(&g, 72);
    int count = 0;
    scene s;
    pyramid_scene(&s, &g, 3);
    scene_finish(&s);
    CHECK(s.nb == 14 && s.n > 500);
    compare_directions(&s, &g, &count);
    scene_free(&s);
    /* full rank: more dofs than rows (the dof-space path forced through the hook) */
    corner_scene(&s, &g, 5);
    scene_finish(&s);
    compare_directions(&s, &g, &count);
    scene_free(&s);
    CHECK(count == 24);
}

TEST(directions_agree_bilateral)
{
    gen_rng g;
    gen_seed(&g, 73);
    int count = 0;
    for (int k = 2; k <= 4 && !check_current_failed; k++) {
        scene s;
        stack_scene(&s, &g, k, 0);
        /* box 0 to box k-1 by a joint at box 1's centre, and box k-1 pinned to the world */
        ball_joint(&s, 0, k - 1, s.x[1]);
        double top[3] = {s.x[k - 1][0] + 0.1, s.x[k - 1][1], s.x[k - 1][2] + 0.2};
        ball_joint(&s, -1, k - 1, top);
        scene_finish(&s);
        compare_directions(&s, &g, &count);
        scene_free(&s);
    }
    CHECK(count == 3 * 12);
}

TEST(singular_block_falls_back)
{
    /* no regularization: a sticking contact's block A + delta B D is 0 (and a bilateral
       row's is delta = 0): the rows' path gives the direction, bit for bit */
    gen_rng g;
    gen_seed(&g, 74);
    scene s;
    stack_scene(&s, &g, 3, 0);
    ball_joint(&s, 0, 2, s.x[1]);
    scene_finish(&s);
    int n = s.n;
    double *r = malloc(sizeof(double) * (size_t)n), *d1 = malloc(sizeof(double) * (size_t)n),
           *d2 = malloc(sizeof(double) * (size_t)n);
    random_r(&s, &g, 0.2, r);
    CHECK(imp_coulomb_test_direction(&s.p, r, 0.0, 1, d1) == 0);
    CHECK(imp_coulomb_test_direction(&s.p, r, 0.0, 2, d2) == 0);
    CHECK(memcmp(d1, d2, sizeof(double) * (size_t)n) == 0);
    /* a regularization below the limit on |Dw^-1| (1e13): the same */
    CHECK(imp_coulomb_test_direction(&s.p, r, 1e-15, 2, d2) == 0);
    CHECK(memcmp(d1, d2, sizeof(double) * (size_t)n) != 0);
    CHECK(imp_coulomb_test_direction(&s.p, r, 1e-15, 1, d1) == 0);
    CHECK(memcmp(d1, d2, sizeof(double) * (size_t)n) == 0);
    free(r), free(d1), free(d2);
    scene_free(&s);
}

TEST(no_dofs)
{
    /* a contact between fixed bodies: W = 0, J = 0 with no columns; the dof-space path
       solves Dw dr = -phi alone, as the rows' path does */
    int rp[4] = {0, 0, 0, 0}, mrp[1] = {0}, col[1] = {0};
    double val[1] = {0.0}, q[3] = {-1.0, 0.5, -0.2}, mu = 0.5, r[3] = {1.0, 0.1, 0.0}, d1[3], d2[3];
    imp_coulomb_factors f = {0, {3, rp, col, val}, {0, mrp, col, val}};
    imp_coulomb_problem p = {{3, rp, col, val}, q, &mu, NULL, &f};
    for (int k = 0; k < 2; k++) {
        double delta = k == 0 ? 0.5 : 1e-3;
        CHECK(imp_coulomb_test_direction(&p, r, delta, 1, d1) == 0);
        CHECK(imp_coulomb_test_direction(&p, r, delta, 2, d2) == 1);
        for (int i = 0; i < 3; i++) CHECK_CLOSE(d2[i], d1[i], 1e-14, 1e-300);
    }
}

/* solves with and without factors: both at the tolerance, same status; the dof-space path
   used when (and only when) the dofs are fewer than the Newton rows */
static void solve_both(scene *s, int expect_body, int *bodies)
{
    int n = s->n;
    double *r0 = malloc(sizeof(double) * (size_t)n), *u0 = malloc(sizeof(double) * (size_t)n),
           *r1 = malloc(sizeof(double) * (size_t)n), *u1 = malloc(sizeof(double) * (size_t)n);
    imp_coulomb_workspace *ws = imp_coulomb_workspace_create(n);
    imp_coulomb_info i0, i1;
    imp_coulomb_status s0 = imp_coulomb_solve(&s->p0, NULL, ws, r0, u0, &i0);
    CHECK(ws->body_steps == 0);
    imp_coulomb_status s1 = imp_coulomb_solve(&s->p, NULL, ws, r1, u1, &i1);
    CHECK(s0 == IMP_COULOMB_OK);
    CHECK(s1 == s0);
    CHECK(i0.error <= 1e-10 && i1.error <= 1e-10);
    if (expect_body) {
        CHECK(ws->body_steps > 0);
        (*bodies)++;
    } else {
        CHECK(ws->body_steps == 0);
        CHECK(memcmp(r0, r1, sizeof(double) * (size_t)n) == 0);
        CHECK(i0.iterations == i1.iterations && i0.sweeps == i1.sweeps);
    }
    imp_coulomb_workspace_destroy(ws);
    free(r0), free(u0), free(r1), free(u1);
}

TEST(solves_with_and_without_factors)
{
    gen_rng g;
    gen_seed(&g, 75);
    int bodies = 0;
    for (int k = 2; k <= 8 && !check_current_failed; k++) {
        scene s;
        stack_scene(&s, &g, k, 0);
        if (k % 3 == 0) ball_joint(&s, 0, 1, s.x[0]);
        scene_finish(&s);
        solve_both(&s, 1, &bodies);
        scene_free(&s);
    }
    scene s;
    pyramid_scene(&s, &g, 3);
    scene_finish(&s);
    solve_both(&s, 1, &bodies);
    scene_free(&s);
    /* more dofs than rows, but the rows touch fewer */
    stack_scene(&s, &g, 4, 12);
    scene_finish(&s);
    CHECK(s.nd > s.n);
    solve_both(&s, 1, &bodies);
    int count = 0;
    compare_directions(&s, &g, &count);
    CHECK(count == 12);
    scene_free(&s);
    CHECK(bodies == 9);
    corner_scene(&s, &g, 6);
    scene_finish(&s);
    solve_both(&s, 0, &bodies);
    scene_free(&s);
}

TEST(bad_factors)
{
    gen_rng g;
    gen_seed(&g, 76);
    scene s;
    stack_scene(&s, &g, 2, 0);
    scene_finish(&s);
    double r[64], u[64];
    imp_coulomb_info info;
    s.f.J.n = s.n - 1;
    CHECK(imp_coulomb_solve(&s.p, NULL, NULL, r, u, &info) == IMP_COULOMB_BAD_INPUT);
    CHECK(strstr(info.message, "factors.J.n") != NULL);
    s.f.J.n = s.n;
    s.f.ndof = s.nd - 1;
    CHECK(imp_coulomb_solve(&s.p, NULL, NULL, r, u, &info) == IMP_COULOMB_BAD_INPUT);
    CHECK(strstr(info.message, "factors.Minv.n") != NULL);
    s.f.Minv.n = s.nd - 1;
    CHECK(imp_coulomb_solve(&s.p, NULL, NULL, r, u, &info) == IMP_COULOMB_BAD_INPUT);
    CHECK(strstr(info.message, "factors.J has a column index out of range") != NULL);
    s.f.ndof = s.f.Minv.n = s.nd;
    double keep = s.jval[3];
    s.jval[3] = NAN;
    CHECK(imp_coulomb_solve(&s.p, NULL, NULL, r, u, &info) == IMP_COULOMB_BAD_INPUT);
    CHECK(strstr(info.message, "factors.J has a NaN") != NULL);
    s.jval[3] = keep;
    CHECK(imp_coulomb_solve(&s.p, NULL, NULL, r, u, &info) == IMP_COULOMB_OK);
    scene_free(&s);
}

#ifndef BODY_TEST_NO_MAIN
int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(directions_agree_stacks);
    RUN(directions_agree_pyramid_and_corners);
    RUN(directions_agree_bilateral);
    RUN(singular_block_falls_back);
    RUN(no_dofs);
    RUN(solves_with_and_without_factors);
    RUN(bad_factors);
    return CHECK_END("lcp_coulomb_body");
}
#endif
