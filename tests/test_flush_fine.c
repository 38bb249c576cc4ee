// SPDX-License-Identifier: MIT
/* Issue 33: nv-dx and nv-gl's flushed order on a mesh of GC_FLUSH_FINE_TRIANGLES triangles
 * or more (src/optimize/forsyth_flush.c) runs the fine table and growth in place of the
 * batch table's (docs/optimizers/auto.md).
 *
 *  - The switch: on a regular grid of 1,002,528 triangles, gc_opt_forsyth_flush and
 *    gc_opt_forsyth_flush_kerbl given gc_flush_batch_scores give the order that
 *    gc_opt_forsyth_flush_grown gives with gc_flush_fine_scores and gc_flush_fine_growth
 *    (the entry point that picks nothing); on a grid of 980,000 triangles, the one it gives
 *    with the batch table and growth. Any other table is run as given.
 *  - The kerbl entry point's count is the model's count of that order (gc_kerbl_order_cost).
 *  - On the large grid, both targets: the order is a permutation. (It is not below
 *    meshopt_optimizeVertexCache's order there: 823,871 nv-dx invocations for 784,806 on
 *    the row-major grid, so the grid is no quality test.)
 *  - --effort 1 from that size (gc_opt_flush_batch_tail, and auto's order): the flushed order
 *    up to the first batch full to the index limit past seven eighths of the triangles (found
 *    here by feeding the whole flushed order to the rule's machine), then Kerbl's batch greedy
 *    on the triangles left, in increasing number, mapped back; below the size, auto's order is
 *    the flushed order. Both targets, the grid shuffled. */
#include "test_util.h"

#include "optimize/kerbl_machine.h"
#include "optimize/optimize.h"

static const char* const targets[] = {"nvidia-dx", "nvidia-gl"};

/* The order of the switch (gc_opt_forsyth_flush, then gc_opt_forsyth_flush_kerbl) and the
 * order of `want` and `growth` run as given, on a side x side grid. */
static void check_switch(uint32_t side, const gc_forsyth_scores* want, const gc_flush_growth* growth, bool large)
{
    size_t n;
    uint32_t* idx = rowmajor_grid(side, side, &n);
    const size_t tc = n / 3;
    const uint32_t vertices = index_bound(idx, n);
    assert_true(large ? tc >= GC_FLUSH_FINE_TRIANGLES : tc < GC_FLUSH_FINE_TRIANGLES);
    uint32_t* expect = test_indices(tc);
    uint32_t* got = test_indices(tc);
    for (size_t s = 0; s < sizeof targets / sizeof targets[0]; ++s) {
        const gc_model m = model_of(targets[s]);
        gc_flush_rule rule;
        gc_error err;
        assert_true(gc_flush_batch_rule_of(&m, 0, &rule));
        assert_int_equal(gc_opt_forsyth_flush_grown(idx, tc, vertices, want, &rule, growth, expect, &err), GC_OK);
        assert_int_equal(gc_opt_forsyth_flush(idx, tc, vertices, &gc_flush_batch_scores, &rule, got, &err), GC_OK);
        assert_memory_equal(got, expect, tc * sizeof *got);
        uint64_t counted = 0, model = 0;
        memset(got, 0, tc * sizeof *got);
        assert_int_equal(
            gc_opt_forsyth_flush_kerbl(idx, tc, vertices, &gc_flush_batch_scores, &rule, &m, got, &counted, &err),
            GC_OK);
        assert_memory_equal(got, expect, tc * sizeof *got);
        assert_int_equal(gc_kerbl_order_cost(idx, tc, vertices, &m, expect, &model, &err), GC_OK);
        assert_int_equal(counted, model);
        /* another table is run as given, whatever the size */
        assert_int_equal(gc_opt_forsyth_flush_grown(idx, tc, vertices, &gc_auto_tuned_scores, &rule,
                                                    &gc_flush_batch_growth, expect, &err),
                         GC_OK);
        assert_int_equal(gc_opt_forsyth_flush(idx, tc, vertices, &gc_auto_tuned_scores, &rule, got, &err), GC_OK);
        assert_memory_equal(got, expect, tc * sizeof *got);
        if (large) { /* a permutation */
            assert_int_equal(gc_opt_forsyth_flush(idx, tc, vertices, &gc_flush_batch_scores, &rule, got, &err), GC_OK);
            assert_is_permutation(got, tc);
        }
    }
    free(got);
    free(expect);
    free(idx);
}

static void large_runs_the_fine_table(void** state)
{
    (void)state;
    check_switch(708, &gc_flush_fine_scores, &gc_flush_fine_growth, true); /* 1,002,528 triangles */
}

static void below_the_size_runs_the_batch_table(void** state)
{
    (void)state;
    check_switch(700, &gc_flush_batch_scores, &gc_flush_batch_growth, false); /* 980,000 triangles */
}

/* The tail order of idx (tc triangles) under m, built from its parts. */
static uint32_t* tail_order_by_hand(const gc_model* m, const uint32_t* idx, size_t tc, uint32_t vertices)
{
    gc_flush_rule rule;
    gc_error err;
    assert_true(gc_flush_batch_rule_of(m, 0, &rule));
    uint32_t* whole = test_indices(tc);
    uint64_t counted = 0;
    assert_int_equal(
        gc_opt_forsyth_flush_kerbl(idx, tc, vertices, &gc_flush_batch_scores, &rule, m, whole, &counted, &err), GC_OK);
    gc_kerbl_machine k = gc_kerbl_machine_of(m, calloc(2 * (size_t)vertices + 2, sizeof(uint32_t)));
    assert_non_null(k.words);
    const size_t head = tc - tc / GC_FLUSH_TAIL_PARTS;
    size_t cut = tc;
    for (size_t i = 0; i < tc && cut == tc; ++i) {
        gc_kerbl_machine_add(&k, idx + 3 * (size_t)whole[i]);
        if (i + 1 >= head && k.cbatch + 3 > k.rule.max_indices)
            cut = i + 1;
    }
    free(k.words);
    assert_true(cut < tc);
    bool* placed = calloc(tc, sizeof *placed);
    uint32_t* rest = test_indices(3 * (tc - cut));
    uint32_t* number = test_indices(tc - cut);
    for (size_t i = 0; i < cut; ++i)
        placed[whole[i]] = true;
    size_t r = 0;
    for (size_t t = 0; t < tc; ++t)
        if (!placed[t]) {
            memcpy(rest + 3 * r, idx + 3 * t, 3 * sizeof *rest);
            number[r++] = (uint32_t)t;
        }
    assert_int_equal(r, tc - cut);
    uint32_t* greedy = test_indices(r);
    gc_family_traits traits;
    gc_model_traits(m, &traits);
    const gc_batch_greedy_weights bw = {1024, traits.batch_reuse_weight, -1};
    assert_int_equal(gc_opt_batch_greedy_kerbl(rest, r, vertices, m, &bw, greedy, NULL, &err), GC_OK);
    for (size_t j = 0; j < r; ++j)
        whole[cut + j] = number[greedy[j]];
    free(greedy);
    free(number);
    free(rest);
    free(placed);
    return whole;
}

/* --effort 1's order on a shuffled side x side grid: the tail order from the size, else the flushed order. */
static void check_effort1(uint32_t side, bool large)
{
    size_t n;
    uint32_t* idx = rowmajor_grid(side, side, &n);
    gc_shuffle_triangles(idx, n, 5);
    const size_t tc = n / 3;
    const uint32_t vertices = index_bound(idx, n);
    uint32_t* got = test_indices(tc);
    uint32_t* out = test_indices(n);
    for (size_t s = 0; s < sizeof targets / sizeof targets[0]; ++s) {
        const gc_model m = model_of(targets[s]);
        gc_flush_rule rule;
        gc_error err;
        assert_true(gc_flush_batch_rule_of(&m, 0, &rule));
        uint32_t* want = NULL;
        if (large) {
            want = tail_order_by_hand(&m, idx, tc, vertices);
            assert_int_equal(gc_opt_flush_batch_tail(idx, tc, vertices, &rule, &m, got, &err), GC_OK);
            assert_memory_equal(got, want, tc * sizeof *got);
        } else {
            want = test_indices(tc);
            assert_int_equal(gc_opt_forsyth_flush(idx, tc, vertices, &gc_flush_batch_scores, &rule, want, &err), GC_OK);
        }
        assert_is_permutation(want, tc);
        auto_order(&m, idx, n, vertices, 1, 0, 0, out);
        uint32_t* list = order_list(idx, want, tc);
        if (memcmp(out, list, n * sizeof *out))
            fail_msg("%s, %zu triangles: auto --effort 1 is not the %s order", m.name, tc, large ? "tail" : "flushed");
        free(list);
        free(want);
    }
    free(out);
    free(got);
    free(idx);
}

static void effort1_large_runs_the_batch_greedy_on_the_tail(void** state)
{
    (void)state;
    check_effort1(708, true);
}

static void effort1_below_the_size_runs_the_flushed_order(void** state)
{
    (void)state;
    check_effort1(700, false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(effort1_large_runs_the_batch_greedy_on_the_tail),
        cmocka_unit_test(effort1_below_the_size_runs_the_flushed_order),
        cmocka_unit_test(large_runs_the_fine_table),
        cmocka_unit_test(below_the_size_runs_the_batch_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
