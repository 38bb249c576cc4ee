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
 *    the row-major grid, so the grid is no quality test.) */
#include "test_util.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(large_runs_the_fine_table),
        cmocka_unit_test(below_the_size_runs_the_batch_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
