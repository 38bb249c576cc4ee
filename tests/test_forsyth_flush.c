// SPDX-License-Identifier: MIT
/* Issue 33: Forsyth's order told where the target empties its cache
 * (src/optimize/forsyth_flush.c), which auto runs for a lone ati-basic or reuse target.
 *
 *  - Without a flush (no rule, or resets and warps that never come inside the mesh) it is
 *    forsyth.c's order with the same table, triangle for triangle (the independent
 *    implementation it extends), on corpus meshes stored and shuffled.
 *  - Its order is a permutation of the triangles, with degenerate triangles and a hub; so
 *    are auto's lists for ati-basic, reuse, lru:16 and direct-position:32 at efforts 0 and 1
 *    (meshoptimizer's table order, which the default scores last, refuses the hub).
 *  - Against meshopt_optimizeVertexCache: auto's --effort 1 and default orders cost
 *    ati-basic, reuse:32,16,32 and radeonsi-polaris-tess-odd fewer invocations than
 *    meshoptimizer's over the meshes (gc_analyze), and the default's is never above
 *    meshoptimizer's table order (score_table.c) nor the flushed order on any mesh: it keeps
 *    the cheaper of the two. The same for direct-position:32's default against the machine
 *    greedy's order (auto_machine_greedy.c; since issue 33's window pass the default is
 *    meshoptimizer's order with that pass, which is below the greedy's on these meshes).
 *  - ati's resets follow the list's place in the draw: effort 1 told that the list starts
 *    at index 300 gives the flushed order with its resets there (on rocker-arm, above the
 *    size under which effort 1 keeps meshoptimizer's order where cheaper: auto_noharm.c).
 *  - The machine greedy's lru and direct-position machines written out (machine_inline.h)
 *    give the order the greedy gives driving the models' own gc_sim machines, on corpus meshes
 *    stored and shuffled with degenerate triangles added, at two places in the draw.
 *  - nv-dx, nv-gl (gc_flush_batch_rule_of): the rule from the models' parameters, a
 *    permutation on the hub, batches of one triangle or three vertices giving the order with
 *    a flush after every triangle (as a reset every 3 indices does), window=0 after every
 *    second (a reset every 6), and auto's --effort 1
 *    below meshoptimizer's order on the sum over the meshes, stored and shuffled.
 *  - nv-dx, nv-gl --effort 1 runs the batch table (gc_flush_batch_scores), whose orders cost
 *    fewer invocations than auto's tuned table's on the sum over the meshes, and the default,
 *    which scores that order too, is never above it on any mesh (batch_table); the same order
 *    with its invocations counted as it is emitted (gc_opt_forsyth_flush_kerbl, auto's
 *    default) is that order, and its count gc_analyze's (on the hub too). */
#include "test_peer.h"

#include "optimize/optimize.h"

static const char* const meshes[] = {"cow.obj", "fandisk.obj", "spot.obj", "suzanne.obj", "teapot.obj"};
#define MESH_COUNT (sizeof meshes / sizeof meshes[0])

static void no_flush_is_forsyth(void** state)
{
    (void)state;
    for (corpus_rows r = corpus_rows_of(meshes, 2, 11); corpus_rows_next(&r);) {
        const size_t tc = r.tc;
        uint32_t* want = test_indices(tc);
        uint32_t* got = test_indices(tc);
        gc_error err;
        assert_int_equal(gc_opt_forsyth_scored(r.idx, tc, r.vertices, &gc_auto_tuned_scores, want, NULL, &err), GC_OK);
        /* none; resets past the list's end; warps larger than the mesh with no triangle limit;
           batches (nv-dx, nv-gl) of more vertices than the list has indices */
        const gc_flush_rule rules[] = {{0, 0, 0, 0, 0, 0},
                                       {0, 3 * (uint32_t)tc + 3, 0, 0, 0, 0},
                                       {0, 0, r.vertices + 3, r.vertices + 3, 0, 0},
                                       {0, 0, 3 * (uint32_t)tc + 3, 3 * (uint32_t)tc + 3, 0, 42}};
        for (size_t k = 0; k < sizeof rules / sizeof rules[0]; ++k) {
            assert_int_equal(gc_opt_forsyth_flush(r.idx, tc, r.vertices, &gc_auto_tuned_scores, &rules[k], got, &err),
                             GC_OK);
            assert_memory_equal(got, want, tc * sizeof *got);
        }
        free(want);
        free(got);
    }
}

/* A hub of HUB_FAN triangles around vertex 0, then degenerate triangles, some of one vertex
 * (HUB_TC triangles over HUB_FAN + 1 vertices). */
enum { HUB_FAN = 300, HUB_TC = HUB_FAN + 40 };
static void hub_with_degenerates(uint32_t* idx)
{
    for (uint32_t t = 0; t < HUB_FAN; ++t) {
        idx[3 * t] = 0;
        idx[3 * t + 1] = 1 + (t * 7) % HUB_FAN;
        idx[3 * t + 2] = 1 + ((t * 7) % HUB_FAN + 1) % HUB_FAN;
    }
    for (uint32_t t = HUB_FAN; t < HUB_TC; ++t) {
        idx[3 * t] = 5 + t % 9;
        idx[3 * t + 1] = t % 3 ? 5 + t % 9 : 7;
        idx[3 * t + 2] = 5 + t % 9;
    }
}

static void permutation(void** state)
{
    (void)state;
    enum { FAN = HUB_FAN, TC = HUB_TC };
    uint32_t idx[3 * TC], order[TC];
    hub_with_degenerates(idx);
    const char* const specs[] = {"ati-basic", "reuse:32,16,32", "reuse:8,0,0", "ati:lru=14,vertices=64,reset=384"};
    for (size_t s = 0; s < sizeof specs / sizeof *specs; ++s) {
        gc_model m = model_of(specs[s]);
        gc_flush_rule rule;
        assert_true(gc_flush_rule_of(&m, 0, &rule));
        gc_forsyth_scores own;
        gc_error err;
        assert_int_equal(gc_opt_forsyth_flush(idx, TC, FAN + 1, gc_flush_scores(&m, &own), &rule, order, &err), GC_OK);
        assert_is_permutation(order, TC);
    }
    /* auto's orders for these targets and lru:16, direct-position:32 (gc_opt_auto_lone at the
     * default effort: meshoptimizer's table order refuses a hub, the others take it), as
     * permutations of the triangles: the list auto gives holds every triangle once */
    const char* const lone[] = {"ati-basic", "reuse:32,16,32", "lru:16", "direct-position:32"};
    for (size_t s = 0; s < sizeof lone / sizeof *lone; ++s) {
        gc_model m = model_of(lone[s]);
        for (unsigned effort = 0; effort < 2; ++effort) {
            gc_optimize_options o = {0};
            o.targets = &m;
            o.target_count = 1;
            o.effort = effort;
            uint32_t out[3 * TC];
            gc_error err;
            if (gc_optimize(GC_OPT_AUTO, idx, 3 * TC, FAN + 1, &o, out, &err) != GC_OK)
                fail_msg("auto -m %s --effort %u: %s", lone[s], effort, err.message);
            assert_same_triangles(out, idx, TC);
        }
    }
    /* the families it does not know: no rule */
    const char* const others[] = {"lru:16", "fifo:16", "radeonsi-polaris", "nvidia-kepler", "direct-position:32"};
    for (size_t s = 0; s < sizeof others / sizeof *others; ++s) {
        gc_model m = model_of(others[s]);
        gc_flush_rule rule;
        assert_false(gc_flush_rule_of(&m, 0, &rule));
    }
}

static void against_meshopt(void** state)
{
    (void)state;
    /* direct-position: the machine greedy's order (auto_machine_greedy.c) takes the flushed
     * order's place; both efforts run meshoptimizer's table order and the window pass
     * (direct_position_window.c) */
    const char* const specs[] = {"ati-basic", "reuse:32,16,32", "radeonsi-polaris-tess-odd", "direct-position:32"};
    for (size_t s = 0; s < sizeof specs / sizeof *specs; ++s) {
        const bool flushes = s < 3;
        gc_model m = model_of(specs[s]);
        uint64_t peer_sum = 0, fast_sum = 0, default_sum = 0;
        for (corpus_rows r = corpus_rows_of(meshes, MESH_COUNT, 7); corpus_rows_next(&r);) {
            uint32_t* out = test_indices(r.n);
            uint32_t* order = test_indices(r.tc);
            const uint64_t chosen = peer_row(&m, r.idx, r.n, r.vertices, true, &peer_sum, &fast_sum, out);
            default_sum += chosen;
            assert_not_above_table(&m, r.idx, r.tc, r.vertices, chosen, order);
            gc_error err;
            gc_flush_rule rule;
            gc_forsyth_scores own;
            assert_true(gc_flush_rule_of(&m, 0, &rule) == flushes);
            if (flushes)
                assert_int_equal(
                    gc_opt_forsyth_flush(r.idx, r.tc, r.vertices, gc_flush_scores(&m, &own), &rule, order, &err), GC_OK);
            else
                assert_int_equal(
                    gc_opt_machine_greedy(r.idx, r.tc, r.vertices, &m, 0, 0, false, 1.0f, 6, order, &err), GC_OK);
            assert_true(chosen <= order_invocations(&m, r.idx, order, r.tc));
            free(out);
            free(order);
        }
        assert_true(flushes ? fast_sum < peer_sum : fast_sum <= peer_sum);
        assert_true(default_sum < peer_sum);
    }
}

static void resets_follow_the_place(void** state)
{
    (void)state;
    size_t n;
    uint32_t vertices;
    /* (rocker-arm: 20,088 triangles, above the bound under which --effort 1 also weighs
     * meshoptimizer's order, auto_noharm.c; on cow that order is 1 invocation cheaper at 300) */
    uint32_t* idx = corpus_mesh_or_skip("rocker-arm.obj", &n, &vertices);
    const size_t tc = n / 3;
    uint32_t* out = test_indices(n);
    uint32_t* at0 = test_indices(tc);
    uint32_t* at100 = test_indices(tc);
    gc_model m = model_of("ati-basic");
    gc_forsyth_scores own;
    gc_flush_rule rule;
    gc_error err;
    assert_true(gc_flush_rule_of(&m, 0, &rule));
    assert_int_equal(gc_opt_forsyth_flush(idx, tc, vertices, gc_flush_scores(&m, &own), &rule, at0, &err), GC_OK);
    /* by hand: the list's first index at 300, its resets 384 - 300 = 84 indices in, then every 384 */
    const gc_flush_rule shifted = {300, 384, 0, 0, 0, 0};
    assert_int_equal(gc_opt_forsyth_flush(idx, tc, vertices, gc_flush_scores(&m, &own), &shifted, at100, &err),
                     GC_OK);
    assert_memory_not_equal(at0, at100, tc * sizeof *at0); /* the resets fall elsewhere */
    auto_order(&m, idx, n, vertices, 1, 300, 0, out);
    for (size_t t = 0; t < tc; ++t)
        assert_memory_equal(out + 3 * t, idx + 3 * (size_t)at100[t], 3 * sizeof *out);
    free(out);
    free(at0);
    free(at100);
    free(idx);
}

static void written_out_machines(void** state)
{
    (void)state;
    const char* const specs[] = {"lru:16", "lru:3", "lru:64", "direct-position:32", "direct-position:3",
                                 "direct-position:7"};
    for (size_t k = 0; k < 2; ++k) {
        size_t n, tc;
        uint32_t vertices;
        /* degenerate triangles added: one of a repeated pair per 50, one of a single vertex per 200 */
        uint32_t* idx = corpus_degenerates_or_skip(meshes[2 + k], 50, &n, &tc, &vertices);
        uint32_t* want = test_indices(tc);
        uint32_t* got = test_indices(tc);
        gc_error err;
        for (int shuffled = 0; shuffled < 2; ++shuffled) {
            if (shuffled)
                gc_shuffle_triangles(idx, 3 * tc, 5);
            for (size_t s = 0; s < sizeof specs / sizeof *specs; ++s) {
                gc_model m = model_of(specs[s]);
                const uint64_t first = shuffled ? 1001 : 0;
                assert_int_equal(
                    gc_opt_machine_greedy_sim(idx, tc, vertices, &m, first, 0, false, 1.0f, 4, want, &err), GC_OK);
                assert_int_equal(gc_opt_machine_greedy(idx, tc, vertices, &m, first, 0, false, 1.0f, 4, got, &err),
                                 GC_OK);
                for (size_t t = 0; t < tc; ++t)
                    if (got[t] != want[t])
                        fail_msg("%s, %s, shuffled %d: triangle %zu of %zu differs", specs[s], meshes[2 + k], shuffled,
                                 t, tc);
            }
        }
        free(want);
        free(got);
        free(idx);
    }
}

/* nv-dx and nv-gl (Kerbl et al.'s batches, gc_flush_batch_rule_of): the rule from the
 * models' parameters, a permutation on the hub, hand-derived flush points, and effort 1's
 * orders below meshoptimizer's over the meshes. */
static void batches(void** state)
{
    (void)state;
    gc_flush_rule rule;
    /* nv-dx: 96 indices (32 triangles), 32 vertices, the window taken as 42 indices */
    gc_model m = model_of("nv-dx");
    assert_true(gc_flush_batch_rule_of(&m, 0, &rule));
    assert_int_equal(rule.warp, 32);
    assert_int_equal(rule.warp_triangles, 32);
    assert_int_equal(rule.window_indices, 42);
    assert_int_equal(rule.reset_indices, 0);
    assert_false(gc_flush_rule_of(&m, 0, &rule)); /* the default's lone path is not taken */
    m = model_of("nv-gl:indices=60,vertices=20,window=30");
    assert_true(gc_flush_batch_rule_of(&m, 0, &rule));
    assert_int_equal(rule.warp, 20);
    assert_int_equal(rule.warp_triangles, 20);
    assert_int_equal(rule.window_indices, 30);
    const char* const none[] = {"batch", "batch-all", "lru:16", "ati-basic", "reuse:32,16,32"};
    for (size_t s = 0; s < sizeof none / sizeof *none; ++s) {
        m = model_of(none[s]);
        assert_false(gc_flush_batch_rule_of(&m, 0, &rule));
    }

    /* the hub with degenerate triangles: a permutation, directly and as auto's --effort 1 list */
    enum { FAN = HUB_FAN, TC = HUB_TC };
    uint32_t hub[3 * TC], horder[TC];
    hub_with_degenerates(hub);
    const char* const specs[] = {"nv-dx", "nv-gl", "nv-gl:indices=6,vertices=3,window=3", "nv-gl:window=0"};
    for (size_t s = 0; s < sizeof specs / sizeof *specs; ++s) {
        m = model_of(specs[s]);
        gc_error err;
        assert_true(gc_flush_batch_rule_of(&m, 0, &rule));
        assert_int_equal(gc_opt_forsyth_flush(hub, TC, FAN + 1, &gc_auto_tuned_scores, &rule, horder, &err), GC_OK);
        assert_is_permutation(horder, TC);
        uint32_t out[3 * TC];
        auto_order(&m, hub, 3 * TC, FAN + 1, 1, 0, 0, out);
        assert_same_triangles(out, hub, TC);
    }

    /* by hand: batches of one triangle (indices=3), or of 3 vertices (a triangle fills 3, and
     * 3 + 2 > 3), end after every triangle: the order with the cache emptied after each one,
     * which a reset every 3 indices (ati's rule) also gives */
    size_t n;
    uint32_t vertices;
    uint32_t* idx = corpus_mesh_or_skip("cow.obj", &n, &vertices);
    const size_t tc = n / 3;
    uint32_t* want = test_indices(tc);
    uint32_t* got = test_indices(tc);
    uint32_t* out = test_indices(n);
    gc_error err;
    const gc_flush_rule every = {0, 3, 0, 0, 0, 0};
    assert_int_equal(gc_opt_forsyth_flush(idx, tc, vertices, &gc_auto_tuned_scores, &every, want, &err), GC_OK);
    const char* const one[] = {"nv-gl:indices=3,vertices=3,window=42", "nv-gl:indices=96,vertices=3,window=42",
                               "nv-dx:indices=3,vertices=32"};
    for (size_t s = 0; s < sizeof one / sizeof *one; ++s) {
        m = model_of(one[s]);
        assert_true(gc_flush_batch_rule_of(&m, 0, &rule));
        assert_int_equal(gc_opt_forsyth_flush(idx, tc, vertices, &gc_auto_tuned_scores, &rule, got, &err), GC_OK);
        assert_memory_equal(got, want, tc * sizeof *got);
    }
    /* by hand: nv-gl:window=0 holds nothing, so batches of 6 vertices hold two triangles
     * (3 + 3 misses, then 6 + 2 > 6): the cache emptied after every second triangle, as a
     * reset every 6 indices does; a window of 42 holds the shared vertices: another order */
    const gc_flush_rule every2 = {0, 6, 0, 0, 0, 0};
    assert_int_equal(gc_opt_forsyth_flush(idx, tc, vertices, &gc_auto_tuned_scores, &every2, want, &err), GC_OK);
    m = model_of("nv-gl:indices=96,vertices=6,window=0");
    assert_true(gc_flush_batch_rule_of(&m, 0, &rule));
    assert_int_equal(gc_opt_forsyth_flush(idx, tc, vertices, &gc_auto_tuned_scores, &rule, got, &err), GC_OK);
    assert_memory_equal(got, want, tc * sizeof *got);
    m = model_of("nv-gl:indices=96,vertices=6,window=42");
    assert_true(gc_flush_batch_rule_of(&m, 0, &rule));
    assert_int_equal(gc_opt_forsyth_flush(idx, tc, vertices, &gc_auto_tuned_scores, &rule, got, &err), GC_OK);
    assert_memory_not_equal(got, want, tc * sizeof *got);
    /* and batches that do end inside the mesh give another order than none */
    m = model_of("nv-dx");
    assert_true(gc_flush_batch_rule_of(&m, 0, &rule));
    assert_int_equal(gc_opt_forsyth_flush(idx, tc, vertices, &gc_auto_tuned_scores, &rule, got, &err), GC_OK);
    assert_int_equal(gc_opt_forsyth_scored(idx, tc, vertices, &gc_auto_tuned_scores, want, NULL, &err), GC_OK);
    assert_memory_not_equal(got, want, tc * sizeof *got);
    free(idx);

    /* against meshopt_optimizeVertexCache: effort 1 below it on the sum over the meshes */
    const char* const targets[] = {"nv-dx", "nv-gl"};
    for (size_t s = 0; s < sizeof targets / sizeof *targets; ++s) {
        m = model_of(targets[s]);
        uint64_t peer_sum = 0, fast_sum = 0;
        for (corpus_rows r = corpus_rows_of(meshes, MESH_COUNT, 7); corpus_rows_next(&r);) {
            uint32_t* o = test_indices(r.n);
            peer_row(&m, r.idx, r.n, r.vertices, false, &peer_sum, &fast_sum, o);
            free(o);
        }
        if (fast_sum >= peer_sum)
            fail_msg("%s: effort 1 %llu invocations, meshoptimizer %llu", targets[s], (unsigned long long)fast_sum,
                     (unsigned long long)peer_sum);
    }
    free(want);
    free(got);
    free(out);
}

/* nv-dx, nv-gl at --effort 1: the flushed order with the batch table (gc_flush_batch_scores,
 * tuned on half the corpus). auto's list is that order; on these meshes (cow and teapot from
 * the held-out half, fandisk, spot and suzanne from the half it was tuned on), stored and
 * shuffled, the sum of its invocations (gc_analyze) is below the order with auto's tuned table
 * for both targets; a permutation on the hub with degenerate triangles. */
static void batch_table(void** state)
{
    (void)state;
    enum { FAN = 200, TC = FAN + 30 };
    uint32_t hub[3 * TC], horder[TC];
    for (uint32_t t = 0; t < FAN; ++t) {
        hub[3 * t] = 0;
        hub[3 * t + 1] = 1 + (t * 11) % FAN;
        hub[3 * t + 2] = 1 + ((t * 11) % FAN + 1) % FAN;
    }
    for (uint32_t t = FAN; t < TC; ++t) {
        hub[3 * t] = 3 + t % 7;
        hub[3 * t + 1] = t % 2 ? 3 + t % 7 : 4;
        hub[3 * t + 2] = 3 + t % 5;
    }
    const char* const targets[] = {"nv-dx", "nv-gl"};
    for (size_t s = 0; s < sizeof targets / sizeof *targets; ++s) {
        const gc_model m = model_of(targets[s]);
        gc_flush_rule rule;
        gc_error err;
        assert_true(gc_flush_batch_rule_of(&m, 0, &rule));
        assert_int_equal(gc_opt_forsyth_flush(hub, TC, FAN + 1, &gc_flush_batch_scores, &rule, horder, &err), GC_OK);
        assert_is_permutation(horder, TC);
        uint32_t hcounted[TC];
        uint64_t hinv = 0;
        assert_int_equal(
            gc_opt_forsyth_flush_kerbl(hub, TC, FAN + 1, &gc_flush_batch_scores, &rule, &m, hcounted, &hinv, &err), GC_OK);
        assert_memory_equal(hcounted, horder, sizeof horder);
        assert_int_equal(hinv, order_invocations(&m, hub, horder, TC));
        uint64_t batch_sum = 0, tuned_sum = 0;
        for (corpus_rows r = corpus_rows_of(meshes, MESH_COUNT, 11); corpus_rows_next(&r);) {
            const uint32_t* mesh = r.idx;
            const size_t n = r.n, tc = r.tc;
            const uint32_t mv = r.vertices;
            uint32_t* order = test_indices(tc);
            uint32_t* out = test_indices(n);
            assert_int_equal(gc_opt_forsyth_flush(mesh, tc, mv, &gc_flush_batch_scores, &rule, order, &err), GC_OK);
            assert_is_permutation(order, tc);
            batch_sum += order_invocations(&m, mesh, order, tc);
            /* the same order with its invocations counted as it is emitted: gc_analyze's */
            uint32_t* counted_order = test_indices(tc);
            uint64_t counted = 0;
            assert_int_equal(
                gc_opt_forsyth_flush_kerbl(mesh, tc, mv, &gc_flush_batch_scores, &rule, &m, counted_order, &counted, &err),
                GC_OK);
            assert_memory_equal(counted_order, order, tc * sizeof *order);
            assert_int_equal(counted, order_invocations(&m, mesh, order, tc));
            free(counted_order);
            uint32_t* list = order_list(mesh, order, tc);
            auto_order(&m, mesh, n, mv, 1, 0, 0, out);
            assert_memory_equal(out, list, n * sizeof *out);
            /* the default scores effort 1's order and keeps the cheaper: never above it */
            const uint64_t fast = list_cost(&m, list, n);
            auto_order(&m, mesh, n, mv, 0, 0, 0, out);
            assert_true(list_cost(&m, out, n) <= fast);
            assert_int_equal(gc_opt_forsyth_flush(mesh, tc, mv, &gc_auto_tuned_scores, &rule, order, &err), GC_OK);
            tuned_sum += order_invocations(&m, mesh, order, tc);
            free(order);
            free(list);
            free(out);
        }
        if (batch_sum >= tuned_sum)
            fail_msg("%s: the batch table %llu invocations, the tuned table %llu", targets[s],
                     (unsigned long long)batch_sum, (unsigned long long)tuned_sum);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_flush_is_forsyth),
        cmocka_unit_test(permutation),
        cmocka_unit_test(against_meshopt),
        cmocka_unit_test(resets_follow_the_place),
        cmocka_unit_test(written_out_machines),
        cmocka_unit_test(batches),
        cmocka_unit_test(batch_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
