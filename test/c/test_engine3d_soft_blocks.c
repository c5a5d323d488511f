/* test_engine3d_soft_blocks.c: the soft step's rows in coloured blocks (engine3d_soft_blocks.c).
   Scenes: a pyramid of 4 layers of unit cubes (30) on a fixed slab, and a moving plate on the
   slab carrying 7 x 7 small cubes (49 pairs at the plate: more than the 48 colours of the
   pairs of two moving bodies, so one goes to the pairs solved one by one).
   - the colouring: no two pairs of one colour share a moving body, the pairs of two moving
     bodies take the first E3B_STATIC colours and the others the rest, and every point of the
     step is in exactly one block row or one pair solved one by one;
   - the AVX2 blocks do the portable lanes' operations in the same order: the world stepped
     either way ends in the same state bit for bit (IEEE operations are correctly rounded,
     packed or not); with spheres beside the cubes (blocks of 1 and of 4 points in a colour),
     the portable, AVX2 and AVX-512 paths (two blocks in one register, eight lanes; where the
     processor has it) leave the same state, byte for byte;
   - the solver error (w:stats().solver_error) is computed when asked, from what the step
     kept: asked at every step or only after the last, it is the same finite number and the
     run the same bit for bit, with a bouncing cube too (its restitution pass changes the
     velocities: the error is then taken at the step);
   - the blocks hold each row's contact frame: one a lane for a pair whose points share it,
     one a point otherwise (a pair given a second point with its tangents swapped), and the
     AVX2 passes match the portable lanes on such a block too;
   - the step's sums: a relax pass that adds each row's impulses to them as it solves it (and
     stores each block's rows back as it is done with it) leaves the same rows and velocities,
     bit for bit, as the pass followed by imp_e3_soft_blocks_sum and imp_e3_soft_blocks_store
     (the blocks' rows and the pair solved one by one; AVX2 and portable), and its answer to
     whether a row pushed fast (the restitution pass's question) is the rows' own;
   - statics: the pyramid stands (every cube within 5 mm of where it was set, at rest), and
     the plate's cubes rest on it (each at the plate's top plus half its size, less an
     overlap under the slop). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine3d_soft_internal.h"
#include "strategy.h"
#include "engine3d_sweep.h"
#include "world_internal.h"
#include <impact/shape.h>
#include <impact/world.h>

#define NPYR 30
#define NPLATE 49

static imp_body_id add_box(imp_world *w, double sx, double sz, const double pos[3], double mass, int fixed)
{
    imp_body_def bd = imp_body_default_def(3);
    bd.shape = imp_shape3d_box(sx, sx, sz);
    bd.mass = mass;
    bd.fixed = fixed;
    bd.friction = 0.6;
    bd.elasticity = 0.0;
    memcpy(bd.state, pos, 3 * sizeof(double));
    bd.state[3] = 1.0;
    imp_body_id id = imp_world_add_body(w, &bd);
    imp_shape_release(bd.shape);
    return id;
}

typedef struct scene {
    imp_world *w;
    imp_body_id pyr[NPYR], small[NPLATE];
    double at[NPYR][3];
} scene;

/* the pyramid (layer k: (4 - k)^2 cubes) at x = 0, the plate (6 x 6 x 0.2, 10 kg) at x = 10
   with 7 x 7 cubes of 0.5 on it */
static int build(scene *sc)
{
    imp_world_def def = imp_world_default_def(3);
    def.dt = 1.0 / 60.0;
    def.gravity[0] = def.gravity[1] = 0.0;
    def.gravity[2] = -9.81;
    def.strategy = IMP_STRATEGY_CONTACT;
    def.engine2d.contact_solver = IMP_SOLVER_SOFT;
    def.engine2d.substeps = 4;
    sc->w = imp_world_new(&def);
    if (sc->w == NULL) {
        return -1;
    }
    const double slab[3] = {5, 0, -0.5}, plate[3] = {10, 0, 0.1};
    add_box(sc->w, 30, 1, slab, 1.0, 1);
    int m = 0;
    for (int k = 0; k < 4; k++) {
        int n = 4 - k;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++, m++) {
                double p[3] = {i - 0.5 * (n - 1), j - 0.5 * (n - 1), 0.5 + k};
                memcpy(sc->at[m], p, sizeof p);
                sc->pyr[m] = add_box(sc->w, 1, 1, p, 1.0, 0);
            }
        }
    }
    add_box(sc->w, 6, 0.2, plate, 10.0, 0);
    for (int i = 0; i < 7; i++) {
        for (int j = 0; j < 7; j++) {
            double p[3] = {10 + 0.8 * (i - 3), 0.8 * (j - 3), 0.2 + 0.25};
            sc->small[7 * i + j] = add_box(sc->w, 0.5, 0.5, p, 0.5, 0);
        }
    }
    return 0;
}

static int steps(imp_world *w, int n)
{
    for (int i = 0; i < n; i++) {
        if (imp_world_step(w) != IMP_OK) {
            return -1;
        }
    }
    return 0;
}

TEST(colours_share_no_moving_body)
{
    scene sc;
    CHECK(build(&sc) == 0);
    CHECK(steps(sc.w, 30) == 0);
    const struct imp_e3_soft *s = sc.w->engine3d->soft;
    int nslots = sc.w->model.nslots, n = sc.w->engine3d->nprev, overflow = 0;
    int *seen = calloc((size_t)n, sizeof *seen), *mark = calloc((size_t)nslots, sizeof *mark);
    CHECK(seen != NULL && mark != NULL && s != NULL && n > 0);
    for (int c = 0; c < E3B_COLOURS; c++) {
        for (int i = 0; i < nslots; i++) {
            mark[i] = 0;
        }
        for (int bi = s->colour_first[c]; bi < s->colour_first[c + 1]; bi++) {
            const imp_e3_block *b = &s->blocks[bi];
            for (int l = 0; l < E3B_LANES; l++) {
                if (b->row[0][l] < 0) {
                    continue;
                }
                int am = b->amove >> l & 1, bm = b->bmove >> l & 1;
                CHECK((c < E3B_STATIC) == (am && bm));
                CHECK(!am || mark[b->a[l]]++ == 0);
                CHECK(!bm || mark[b->b[l]]++ == 0);
                for (int k = 0; k < E3B_POINTS; k++) {
                    int r = b->row[k][l];
                    if (r >= 0) {
                        CHECK(s->pts[r].a == b->a[l] && s->pts[r].b == b->b[l]);
                        seen[r]++;
                    }
                }
            }
        }
    }
    for (int i = 0; i < s->nover; i++) {
        int g = s->over[i];
        overflow += s->pair_first[g + 1] - s->pair_first[g] > 0;
        for (int c = s->pair_first[g]; c < s->pair_first[g + 1]; c++) {
            seen[c]++;
        }
    }
    for (int c = 0; c < n; c++) {
        CHECK(seen[c] == 1);
    }
    CHECK(overflow >= 1);  /* the plate's 49 pairs of two moving bodies */
    free(seen);
    free(mark);
    imp_world_free(sc.w);
}

/* the state hash after 60 steps, the AVX2 blocks on (1) or off (0) */
static unsigned long long run(int simd)
{
    scene sc;
    if (build(&sc) != 0) {
        return 0;
    }
    imp_e3_sweep_simd(simd);
    unsigned long long h = steps(sc.w, 60) == 0 ? imp_world_state_hash(sc.w) | 1ULL : 0;
    imp_e3_sweep_simd(-1);
    imp_world_free(sc.w);
    return h;
}

TEST(avx2_blocks_match_the_portable_lanes)
{
    unsigned long long portable = run(0), simd = run(1);
    CHECK(portable != 0);
    CHECK(simd == portable);
}

/* The scene with 6 spheres set on the slab beside the pyramid (pairs of one point in the
   colour of the cubes' four-point pairs on the slab) stepped 60 times on path 0 (the portable
   lanes), 1 (AVX2: a block's four lanes) or 2 (AVX-512: two blocks of a colour in one
   register, eight lanes); the world's state (every slot's) into y (len doubles), and in *two
   and *tail whether the last step's colours had two blocks (the eight lanes' case) and two
   blocks of unequal points side by side (the longer block's last points four lanes wide). */
static int run_path(int path, double *y, size_t len, int *two, int *tail)
{
    scene sc;
    if (build(&sc) != 0) {
        return -1;
    }
    for (int k = 0; k < 6; k++) {
        imp_body_def bd = imp_body_default_def(3);
        bd.shape = imp_shape3d_sphere(0.4);
        bd.mass = 1.0;
        bd.friction = 0.6;
        const double at[3] = {-2.5 + k, 4.0, 0.4};
        memcpy(bd.state, at, sizeof at);
        bd.state[3] = 1.0;
        bd.state[7] = 0.1 * k;  /* rolling along x */
        imp_world_add_body(sc.w, &bd);
        imp_shape_release(bd.shape);
    }
    int simd0 = imp_e3_sweep_simd(-1), wide0 = imp_e3_soft_blocks_wide(-1);
    imp_e3_sweep_simd(path > 0);
    imp_e3_soft_blocks_wide(path == 2);
    int ok = steps(sc.w, 60) == 0 && (size_t)sc.w->model.nslots * (size_t)sc.w->model.stride == len;
    imp_e3_sweep_simd(simd0);
    imp_e3_soft_blocks_wide(wide0);
    if (ok) {
        imp_world_sync(sc.w);
        memcpy(y, sc.w->data.y, len * sizeof *y);
        const struct imp_e3_soft *s = sc.w->engine3d->soft;
        *two = *tail = 0;
        for (int c = 0; c < E3B_COLOURS; c++) {
            for (int i = s->colour_first[c] + 1; i < s->colour_first[c + 1]; i++) {
                *two = 1;
                *tail |= s->blocks[i].np != s->blocks[i - 1].np;
            }
        }
    }
    imp_world_free(sc.w);
    return ok ? 0 : -1;
}

/* The three paths give the same state, byte for byte (each lane does the portable lane's
   operations in its order, packed or not); the AVX-512 one where the processor has it. */
TEST(every_path_gives_the_same_state)
{
    scene sc;
    CHECK(build(&sc) == 0);
    size_t len = (size_t)(sc.w->model.nslots + 6) * (size_t)sc.w->model.stride;
    imp_world_free(sc.w);
    int wide0 = imp_e3_soft_blocks_wide(-1);
    int paths = imp_e3_sweep_simd(-1) ? (imp_e3_soft_blocks_wide(1) ? 3 : 2) : 1;
    imp_e3_soft_blocks_wide(wide0);
    double *y[3] = {NULL, NULL, NULL};
    for (int path = 0; path < paths; path++) {
        int two = 0, tail = 0;
        y[path] = malloc(len * sizeof(double));
        CHECK(y[path] != NULL);
        CHECK(run_path(path, y[path], len, &two, &tail) == 0);
        CHECK(two && tail);  /* the scene has both cases of the eight lanes */
        CHECK(memcmp(y[path], y[0], len * sizeof(double)) == 0);
    }
    for (int path = 0; path < paths; path++) {
        free(y[path]);
    }
}

TEST(the_pyramid_stands_and_the_plate_holds_its_cubes)
{
    scene sc;
    CHECK(build(&sc) == 0);
    CHECK(steps(sc.w, 120) == 0);
    double slop = sc.w->model.def.engine2d.distance_tol;
    for (int m = 0; m < NPYR; m++) {
        const double *y = imp_world_body_state_read(sc.w, sc.pyr[m]);
        CHECK_NEAR(sc.at[m][0], y[0], 0.005);
        CHECK_NEAR(sc.at[m][1], y[1], 0.005);
        CHECK_NEAR(sc.at[m][2], y[2], 0.005);
        CHECK(sqrt(y[7] * y[7] + y[8] * y[8] + y[9] * y[9]) < 0.01);
    }
    for (int m = 0; m < NPLATE; m++) {
        const double *y = imp_world_body_state_read(sc.w, sc.small[m]);
        /* the plate's top at 0.2 less its own overlap with the slab, both under the slop */
        CHECK(y[2] < 0.45 && y[2] > 0.45 - 2 * slop);
        CHECK(sqrt(y[7] * y[7] + y[8] * y[8] + y[9] * y[9]) < 0.01);
    }
    imp_world_free(sc.w);
}

static void take_error(void *ctx, const char *name, double v, int count)
{
    (void)count;
    if (strcmp(name, "solver_error") == 0) {
        *(double *)ctx = v;
    }
}

static double solver_error(const imp_world *w)
{
    double v = NAN;
    imp_world_strategy(w)->stats(w, take_error, &v);
    return v;
}

/* the solver error after 40 steps of the scene (bounce: a cube of restitution 0.8 dropped
   on a fixed block beside it), asked at every step (each) or only at the end */
static double error_after(int each, int bounce, unsigned long long *hash)
{
    scene sc;
    if (build(&sc) != 0) {
        return NAN;
    }
    for (int k = 0; k < 2 * bounce; k++) {  /* a fixed block and a cube falling on it */
        imp_body_def bd = imp_body_default_def(3);
        bd.shape = imp_shape3d_box(1, 1, 1);
        bd.mass = 1.0;
        bd.fixed = k == 0;
        bd.elasticity = 0.8;
        const double at[3] = {-5, 0, k == 0 ? 0.5 : 1.7};
        memcpy(bd.state, at, sizeof at);
        bd.state[3] = 1.0;
        bd.state[9] = k == 0 ? 0.0 : -3.0;
        imp_world_add_body(sc.w, &bd);
        imp_shape_release(bd.shape);
    }
    double v = NAN;
    for (int i = 0; i < 40; i++) {
        if (imp_world_step(sc.w) != IMP_OK) {
            imp_world_free(sc.w);
            return NAN;
        }
        if (each) {
            v = solver_error(sc.w);
        }
    }
    if (!each) {
        v = solver_error(sc.w);
    }
    *hash = imp_world_state_hash(sc.w);
    imp_world_free(sc.w);
    return v;
}

TEST(solver_error_when_asked)
{
    for (int bounce = 0; bounce < 2; bounce++) {
        unsigned long long h1 = 0, h2 = 1;
        double each = error_after(1, bounce, &h1), end = error_after(0, bounce, &h2);
        CHECK(isfinite(end) && end >= 0.0);
        CHECK(memcmp(&each, &end, sizeof end) == 0);
        CHECK(h1 == h2);
    }
}

/* x and y the same bits */
static int same_float(float x, float y) { return memcmp(&x, &y, sizeof x) == 0; }

/* every block row's frame and friction (the block's, or its own in s->xframes) are its row's
   rounded to float, bit for bit; *mixed: the blocks with one frame a point */
static int frames_match(const struct imp_e3_soft *s, int *mixed)
{
    int ok = 1;
    *mixed = 0;
    for (int bi = 0; bi < s->nblocks; bi++) {
        const imp_e3_block *b = &s->blocks[bi];
        *mixed += b->xf >= 0;
        for (int k = 0; k < b->np; k++) {
            const imp_e3_block_frame *f = b->xf < 0 || k == 0 ? &b->f : &s->xframes[b->xf + k - 1];
            for (int l = 0; l < E3B_LANES; l++) {
                int r = b->row[k][l];
                if (r < 0) {
                    continue;
                }
                const imp_e3_soft_pt *q = &s->pts[r];
                ok &= k < b->cnt[l] && same_float(f->mu[l], (float)q->mu);
                for (int i = 0; i < 3; i++) {
                    ok &= same_float(f->n[i][l], (float)q->ec[0][i]) && same_float(f->t1[i][l], (float)q->ec[1][i])
                          && same_float(f->t2[i][l], (float)q->ec[2][i]);
                }
            }
        }
    }
    return ok;
}

/* the blocks built and a warm start, a solve pass and a relax pass run on s's rows and
   velocities as they are (simd: AVX2 or the portable lanes), into sv */
static int passes(struct imp_e3_soft *s, int n, int nslots, int simd, double *sv)
{
    const imp_e3_softness soft = imp_e3_make_soft(15.0, 10.0, 1.0 / 240.0);
    const imp_e3_softness stiff = imp_e3_make_soft(30.0, 5.0, 1.0 / 240.0);
    if (imp_e3_soft_blocks(s, n, nslots, &soft, &stiff, simd) != 0) {
        return -1;
    }
    imp_e3_soft_blocks_warm(s, simd);
    imp_e3_soft_blocks_pass(s, &soft, &stiff, 1.0 / 240.0, 3.0, 1, 0, simd);
    imp_e3_soft_blocks_pass(s, &soft, &stiff, 1.0 / 240.0, 3.0, 0, 0, simd);
    memcpy(sv, s->sv, (size_t)nslots * 8 * sizeof *sv);
    return 0;
}

/* The blocks keep one frame a lane for a pair whose points share it (a manifold's do) and one
   a point otherwise: a pair given a second point with its tangents swapped gets its own frames,
   each row's the same as its own, and the AVX2 passes still match the portable lanes bit for
   bit. */
TEST(blocks_hold_each_rows_frame)
{
    scene sc;
    CHECK(build(&sc) == 0);
    CHECK(steps(sc.w, 30) == 0);
    struct imp_e3_soft *s = sc.w->engine3d->soft;
    int n = sc.w->engine3d->nprev, nslots = sc.w->model.nslots, mixed = -1;
    CHECK(frames_match(s, &mixed));
    CHECK(mixed == 0);  /* boxes: every pair's points share their frame */
    int g = 0;
    while (g < s->npairs && (s->pair_col[g] < 0 || s->pair_first[g + 1] - s->pair_first[g] < 2)) {
        g++;
    }
    CHECK(g < s->npairs);
    imp_e3_soft_pt *q = &s->pts[s->pair_first[g] + 1];
    for (int i = 0; i < 4; i++) {
        double t = q->ec[1][i];
        q->ec[1][i] = q->ec[2][i];
        q->ec[2][i] = t;
    }
    s->pts[s->pair_first[g]].mixed = 1;
    imp_e3_soft_pt *rows = malloc((size_t)n * sizeof *rows);
    double *v0 = malloc((size_t)nslots * 8 * sizeof *v0), *v1 = malloc((size_t)nslots * 8 * sizeof *v1);
    double *v2 = malloc((size_t)nslots * 8 * sizeof *v2);
    CHECK(rows != NULL && v0 != NULL && v1 != NULL && v2 != NULL);
    memcpy(rows, s->pts, (size_t)n * sizeof *rows);
    memcpy(v0, s->sv, (size_t)nslots * 8 * sizeof *v0);
    CHECK(passes(s, n, nslots, 1, v1) == 0);
    CHECK(frames_match(s, &mixed));
    CHECK(mixed == 1);
    memcpy(s->pts, rows, (size_t)n * sizeof *rows);
    memcpy(s->sv, v0, (size_t)nslots * 8 * sizeof *v0);
    CHECK(passes(s, n, nslots, 0, v2) == 0);
    CHECK(memcmp(v1, v2, (size_t)nslots * 8 * sizeof *v1) == 0);
    memcpy(s->pts, rows, (size_t)n * sizeof *rows);  /* AVX2 alone (v1: eight lanes where there) */
    memcpy(s->sv, v0, (size_t)nslots * 8 * sizeof *v0);
    int wide0 = imp_e3_soft_blocks_wide(-1);
    imp_e3_soft_blocks_wide(0);
    CHECK(passes(s, n, nslots, 1, v2) == 0);
    imp_e3_soft_blocks_wide(wide0);
    CHECK(memcmp(v1, v2, (size_t)nslots * 8 * sizeof *v1) == 0);
    CHECK(memcmp(v0, v1, (size_t)nslots * 8 * sizeof *v1) != 0);  /* the passes did something */
    free(rows);
    free(v0);
    free(v1);
    free(v2);
    imp_world_free(sc.w);
}

enum { ROW_OUT = 9 };

/* the rows' step sums, impulses, separations and first pushes after a warm start, a solve pass
   and a relax pass on s's rows and velocities as they are, the relax pass adding the sums
   (fused 1: then imp_e3_soft_blocks_store; 2: storing the rows too) or imp_e3_soft_blocks_sum
   and imp_e3_soft_blocks_store after it (0); ROW_OUT doubles a row into out, the velocities
   into sv */
static int sums_after(struct imp_e3_soft *s, int n, int nslots, int simd, int fused, double *out, double *sv)
{
    const imp_e3_softness soft = imp_e3_make_soft(15.0, 10.0, 1.0 / 240.0);
    const imp_e3_softness stiff = imp_e3_make_soft(30.0, 5.0, 1.0 / 240.0);
    if (imp_e3_soft_blocks(s, n, nslots, &soft, &stiff, simd) != 0) {
        return -1;
    }
    imp_e3_soft_blocks_warm(s, simd);
    imp_e3_soft_blocks_pass(s, &soft, &stiff, 1.0 / 240.0, 3.0, 1, 1, simd);  /* (a solve pass adds none) */
    imp_e3_soft_blocks_pass(s, &soft, &stiff, 1.0 / 240.0, 3.0, 0, fused, simd);
    if (!fused) {
        imp_e3_soft_blocks_sum(s);
    }
    if (fused < 2) {
        imp_e3_soft_blocks_store(s);
    } else {  /* its question for the restitution pass: the rows' own answer */
        int fast = 0;
        for (int c = 0; c < n; c++) {
            fast |= s->pts[c].uhit < -s->impact_threshold && s->pts[c].pushed > 0.0;
        }
        if (!s->pushed_known || s->pushed_fast != fast) {
            return -1;
        }
    }
    for (int c = 0; c < n; c++) {
        const imp_e3_soft_pt *q = &s->pts[c];
        const double row[ROW_OUT] = {q->sum[0], q->sum[1], q->sum[2], q->rn, q->rt1, q->rt2, q->s, q->uhit, q->pushed};
        memcpy(out + ROW_OUT * (size_t)c, row, sizeof row);
    }
    memcpy(sv, s->sv, (size_t)nslots * 8 * sizeof *sv);
    return 0;
}

TEST(relax_pass_adds_the_same_sums)
{
    scene sc;
    CHECK(build(&sc) == 0);
    CHECK(steps(sc.w, 30) == 0);
    struct imp_e3_soft *s = sc.w->engine3d->soft;
    int n = sc.w->engine3d->nprev, nslots = sc.w->model.nslots;
    CHECK(s->nover > 0);  /* the plate's 49th pair: solved one by one */
    imp_e3_soft_pt *rows = malloc((size_t)n * sizeof *rows);
    double *v0 = malloc((size_t)nslots * 8 * sizeof *v0), *sv[3], *sums[3];
    CHECK(rows != NULL && v0 != NULL);
    memcpy(rows, s->pts, (size_t)n * sizeof *rows);
    memcpy(v0, s->sv, (size_t)nslots * 8 * sizeof *v0);
    for (int simd = 0; simd <= imp_e3_sweep_simd(-1); simd++) {
        for (int fused = 0; fused < 3; fused++) {
            sv[fused] = malloc((size_t)nslots * 8 * sizeof(double));
            sums[fused] = malloc((size_t)n * ROW_OUT * sizeof(double));
            CHECK(sv[fused] != NULL && sums[fused] != NULL);
            memcpy(s->pts, rows, (size_t)n * sizeof *rows);
            memcpy(s->sv, v0, (size_t)nslots * 8 * sizeof *v0);
            CHECK(sums_after(s, n, nslots, simd, fused, sums[fused], sv[fused]) == 0);
        }
        for (int fused = 1; fused < 3; fused++) {
            CHECK(memcmp(sums[0], sums[fused], (size_t)n * ROW_OUT * sizeof(double)) == 0);
            CHECK(memcmp(sv[0], sv[fused], (size_t)nslots * 8 * sizeof(double)) == 0);
        }
        double total = 0.0;
        for (int c = 0; c < n; c++) {
            total += sums[2][ROW_OUT * (size_t)c];
        }
        CHECK(total > 0.0);  /* the cubes' weights: the sums hold something */
        for (int fused = 0; fused < 3; fused++) {
            free(sv[fused]);
            free(sums[fused]);
        }
    }
    free(rows);
    free(v0);
    imp_world_free(sc.w);
}

/* the blocks are 64-byte aligned (imp_e3_block: the warm start reads 3 of a point's lines)
   however their array was made: as the bodies were added (imp_e3_soft_reserve), by the first
   step's build, and as it grows; one box on a slab (an array made at the bodies' creation and
   big enough for the step, which an imp_grow made 16-aligned) and the scene of pyramid and plate */
TEST(blocks_stay_aligned)
{
    imp_world_def def = imp_world_default_def(3);
    def.strategy = IMP_STRATEGY_CONTACT;
    def.engine2d.contact_solver = IMP_SOLVER_SOFT;
    imp_world *w = imp_world_new(&def);
    CHECK(w != NULL);
    const double slab[3] = {0, 0, -0.5}, box[3] = {0, 0, 0.5};
    add_box(w, 30, 1, slab, 1.0, 1);
    add_box(w, 1, 1, box, 1.0, 0);
    CHECK(w->engine3d != NULL && w->engine3d->soft != NULL && w->engine3d->soft->blocks != NULL);
    CHECK(((uintptr_t)w->engine3d->soft->blocks & 63) == 0);
    CHECK(steps(w, 3) == 0);
    CHECK(w->engine3d->soft->nblocks > 0);
    CHECK(((uintptr_t)w->engine3d->soft->blocks & 63) == 0);
    imp_world_free(w);
    scene sc;
    CHECK(build(&sc) == 0);
    CHECK(((uintptr_t)sc.w->engine3d->soft->blocks & 63) == 0);
    CHECK(steps(sc.w, 5) == 0);
    CHECK(((uintptr_t)sc.w->engine3d->soft->blocks & 63) == 0);
    imp_world_free(sc.w);
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(colours_share_no_moving_body);
    RUN(avx2_blocks_match_the_portable_lanes);
    RUN(every_path_gives_the_same_state);
    RUN(the_pyramid_stands_and_the_plate_holds_its_cubes);
    RUN(solver_error_when_asked);
    RUN(blocks_hold_each_rows_frame);
    RUN(relax_pass_adds_the_same_sums);
    RUN(blocks_stay_aligned);
    return CHECK_END("engine3d_soft_blocks");
}
