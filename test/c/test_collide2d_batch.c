/* test_collide2d_batch.c: the batch (broad + narrow phase) finds exactly what detecting every
   pair finds, over several steps of a random scene of mixed shapes, with exclusions. */
#include "check.h"
#include "collide2d_batch.h"
#include "polygon2d.h"
#include "scalar.h"

static unsigned long long st = 4242;
static double rnd(void)
{
    st = st * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(st >> 11) / 9007199254740992.0;
}

enum { NB = 120, CAP = 4096 };

TEST(batch_equals_all_pairs)
{
    imp_shape *shapes[4] = {imp_shape2d_ball(0.3, 0.3, NULL), imp_shape2d_block(0.6, 0.4, NULL),
                            imp_shape2d_arc_top_block(0.6, 0.3, 0.4, 1, 0.3, NULL),
                            imp_shape2d_ngon(6, 0.35, NULL)};
    static imp_body2d b[NB];
    static double vel[NB][3], boxes[4 * NB];
    static imp_hit2d out[CAP], ref[CAP];
    unsigned char still[NB];
    for (int i = 0; i < NB; i++) {
        imp_body2d x = {shapes[i % 4], 100 + i, {8 * rnd(), 8 * rnd(), 6.28 * rnd()}, {0, 0, 0}, 0, {0, 0, 0}};
        b[i] = x;
        for (int k = 0; k < 3; k++) {
            vel[i][k] = rnd() - 0.5;
        }
        still[i] = i % 10 == 0;
    }
    imp_pairset ex = IMP_PAIRSET_EMPTY;
    CHECK(imp_pairset_add(&ex, 100, 101) == 1);
    CHECK(imp_pairset_add(&ex, 105, 110) == 1);
    imp_bp2d bp = IMP_BP2D_EMPTY;
    imp_detect2d_params p = {0.05, 0.5, 0, 0};
    long long seen = 0;
    for (int step = 0; step < 8; step++) {
        for (int i = 0; i < NB; i++) {
            for (int k = 0; k < 3; k++) {
                b[i].prev_pose[k] = b[i].pose[k];
                b[i].velocity[k] = vel[i][k];
                if (!still[i]) {
                    b[i].pose[k] += 0.05 * vel[i][k];
                }
            }
            b[i].has_prev = step > 0;
        }
        int n = imp_collide2d_batch(b, NB, still, &bp, &ex, &p, boxes, out, CAP);
        CHECK(n >= 0 && n <= CAP);
        int m = 0;
        for (int i = 0; i < NB; i++) {
            for (int j = i + 1; j < NB; j++) {
                if ((still[i] && still[j]) || imp_pairset_contains(&ex, b[i].id, b[j].id)) {
                    continue;
                }
                int r = imp_collide2d_detect(&b[i], &b[j], &p, ref + m, CAP - m);
                CHECK(r >= 0 && m + r <= CAP);
                m += r;
            }
        }
        CHECK(n == m);
        /* the same results: every reference result appears in the batch output */
        for (int r = 0; r < m; r++) {
            int found = 0;
            for (int q = 0; q < n && !found; q++) {
                found = out[q].body == ref[r].body && out[q].normal_body == ref[r].normal_body &&
                        out[q].type == ref[r].type && out[q].vertex == ref[r].vertex &&
                        out[q].edge == ref[r].edge && out[q].normal_edge == ref[r].normal_edge &&
                        out[q].distance == ref[r].distance;
            }
            CHECK(found);
        }
        seen += n;
        /* too small an array: the count says how much room is needed */
        if (n > 1) {
            /* duplicates are merged only in pairs that fitted: the count is an upper bound */
            CHECK(imp_collide2d_batch(b, NB, still, &bp, &ex, &p, boxes, out, 1) >= n);
        }
    }
    CHECK(seen > 20);
    imp_bp2d_free(&bp);
    imp_pairset_free(&ex);
    for (int i = 0; i < 4; i++) {
        imp_shape_release(shapes[i]);
    }
}

int main(int argc, char **argv)
{
    CHECK_BEGIN(argc, argv);
    RUN(batch_equals_all_pairs);
    return CHECK_END("collide2d_batch");
}
