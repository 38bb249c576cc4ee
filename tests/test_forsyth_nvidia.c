// SPDX-License-Identifier: MIT
/* Issue 33: Forsyth's order with the modelled cache holding what seed 000's NVIDIA rule holds
 * (src/optimize/forsyth_flush.c), which auto's default runs for a lone nvidia-kepler.
 *
 *  - With a rule that never drops a vertex (no lifetimes, more slots than the mesh has
 *    vertices) it is forsyth.c's order with the same table, triangle for triangle (the
 *    independent implementation it extends), on corpus meshes stored and shuffled.
 *    The same for meshoptimizer's variant told of the rule (score_table.c, which
 *    auto's --effort 1 runs) against score_table.c's order, with the tuned and meshoptimizer's
 *    tables.
 *  - Its order is a permutation of the triangles, with degenerate triangles and a hub, and
 *    at two places in the draw; meshoptimizer's variant refuses the hub (GC_ERR_LIMIT) and
 *    orders the rest; auto's lists for nvidia-kepler at efforts 0 and 1 hold the same
 *    triangles.
 *  - Against meshopt_optimizeVertexCache: auto's --effort 1 and default orders cost
 *    nvidia-kepler fewer invocations than meshoptimizer's over the meshes (gc_analyze), and
 *    the default's is never above meshoptimizer's table order (score_table.c) nor the
 *    rule's Forsyth order on any mesh: it keeps the cheaper of the two. */
#include "test_peer.h"

#include "optimize/optimize.h"

static const char* const meshes[] = {"cow.obj", "fandisk.obj", "spot.obj", "suzanne.obj", "teapot.obj"};
#define MESH_COUNT (sizeof meshes / sizeof meshes[0])

static void no_drop_is_forsyth(void** state)
{
    (void)state;
    for (corpus_rows r = corpus_rows_of(meshes, 2, 11); corpus_rows_next(&r);) {
        const uint32_t* idx = r.idx;
        const size_t tc = r.tc;
        const uint32_t vertices = r.vertices;
        uint32_t* want = test_indices(tc);
        uint32_t* got = test_indices(tc);
        const gc_model never = {GC_MODEL_NVIDIA, {vertices + 3, 0, 0}, "nvidia"};
        gc_error err;
        assert_int_equal(gc_opt_forsyth_scored(idx, tc, vertices, &gc_auto_tuned_scores, want, NULL, &err), GC_OK);
        assert_int_equal(gc_opt_forsyth_nvidia(idx, tc, vertices, &gc_auto_tuned_scores, &never, 0, got, &err), GC_OK);
        assert_memory_equal(got, want, tc * sizeof *got);
        /* meshoptimizer's variant likewise (score_table.c), with both tables */
        for (int table = 0; table < 2; ++table) {
            const gc_forsyth_scores* t = table ? &gc_meshopt_scores : &gc_auto_tuned_scores;
            assert_int_equal(gc_opt_score_table(idx, tc, vertices, t, want, &err), GC_OK);
            assert_int_equal(gc_opt_score_table_nvidia(idx, tc, vertices, t, &never, 0, got, &err), GC_OK);
            assert_memory_equal(got, want, tc * sizeof *got);
        }
        free(want);
        free(got);
    }
}

/* A fan of FAN triangles around vertex 0 (a hub), degenerate triangles among them. */
#define FAN 700
#define TC (FAN + 40)
static void permutation(void** state)
{
    (void)state;
    uint32_t* idx = test_indices(3 * TC);
    uint32_t* order = test_indices(TC);
    uint32_t* out = test_indices(3 * TC);
    for (uint32_t t = 0; t < FAN; ++t)
        idx[3 * t] = 0, idx[3 * t + 1] = t + 1, idx[3 * t + 2] = t + 2 <= FAN ? t + 2 : 1;
    for (uint32_t t = FAN; t < TC; ++t) /* degenerate: two or three corners alike */
        idx[3 * t] = t % 7, idx[3 * t + 1] = t % 7, idx[3 * t + 2] = t % 3 ? t % 5 : t % 7;
    const char* const specs[] = {"nvidia-kepler", "nvidia:size=16,idle=8,life=20", "nvidia:size=24,idle=0,life=0"};
    for (size_t s = 0; s < sizeof specs / sizeof *specs; ++s) {
        gc_model m = model_of(specs[s]);
        gc_error err;
        for (uint64_t at = 0; at <= 1000; at += 1000) {
            assert_int_equal(gc_opt_forsyth_nvidia(idx, TC, FAN + 1, &gc_auto_tuned_scores, &m, at, order, &err),
                             GC_OK);
            assert_is_permutation(order, TC);
            /* meshoptimizer's variant refuses the hub, as score_table.c does */
            assert_int_equal(
                gc_opt_score_table_nvidia(idx, TC, FAN + 1, &gc_auto_tuned_scores, &m, at, order, &err), GC_ERR_LIMIT);
            assert_int_equal(gc_opt_score_table_nvidia(idx + 3 * (FAN - 200), TC - FAN + 200, FAN + 1,
                                                       &gc_auto_tuned_scores, &m, at, order, &err),
                             GC_OK); /* the fan's last 200 triangles and the degenerate ones: no hub */
            assert_is_permutation(order, TC - FAN + 200);
        }
        for (unsigned effort = 0; effort < 2; ++effort) {
            auto_order(&m, idx, 3 * TC, FAN + 1, effort, 300, 0, out);
            /* the same triangles: sums of each corner's value and its square */
            uint64_t a = 0, b = 0, a2 = 0, b2 = 0;
            for (size_t i = 0; i < 3 * TC; ++i)
                a += idx[i], b += out[i], a2 += (uint64_t)idx[i] * idx[i], b2 += (uint64_t)out[i] * out[i];
            assert_true(a == b && a2 == b2);
        }
    }
    free(idx);
    free(order);
    free(out);
}

static void against_meshopt(void** state)
{
    (void)state;
    gc_model m = model_of("nvidia-kepler");
    uint64_t peer_sum = 0, fast_sum = 0, default_sum = 0;
    for (corpus_rows r = corpus_rows_of(meshes, MESH_COUNT, 7); corpus_rows_next(&r);) {
        const uint32_t* idx = r.idx;
        const size_t tc = r.tc;
        const uint32_t vertices = r.vertices;
        uint32_t* out = test_indices(r.n);
        uint32_t* order = test_indices(tc);
        const uint64_t chosen = peer_row(&m, idx, r.n, vertices, true, &peer_sum, &fast_sum, out);
        default_sum += chosen;
        assert_not_above_table(&m, idx, tc, vertices, chosen, order);
        gc_error err;
        assert_int_equal(gc_opt_forsyth_nvidia(idx, tc, vertices, &gc_auto_tuned_scores, &m, 0, order, &err), GC_OK);
        assert_is_permutation(order, tc);
        assert_true(chosen <= order_invocations(&m, idx, order, tc));
        assert_int_equal(gc_opt_score_table_nvidia(idx, tc, vertices, &gc_auto_tuned_scores, &m, 0, order, &err),
                         GC_OK);
        assert_is_permutation(order, tc);
        free(out);
        free(order);
    }
    assert_true(fast_sum < peer_sum);
    assert_true(default_sum < peer_sum);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_drop_is_forsyth),
        cmocka_unit_test(permutation),
        cmocka_unit_test(against_meshopt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
