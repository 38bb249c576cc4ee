// SPDX-License-Identifier: MIT
/* Seed 002's observations that concern the models: the degenerate-triangle check under every
 * preset, and the warp-reuse hypothesis. */
#include "test_util.h"

/* "0 1 1 2 3 4 5 5 5 ... we'd expect 6 vertex shader invocations - and indeed this is what we
 * get on all three GPUs": every preset agrees. */
static void degenerates_every_preset(void** state)
{
    (void)state;
    static const uint32_t idx[] = {0, 1, 1, 2, 3, 4, 5, 5, 5};
    assert_true(gc_preset_count() >= 6);
    for (size_t i = 0; i < gc_preset_count(); ++i) {
        const char *name, *spec, *source;
        gc_preset_get(i, &name, &spec, &source);
        assert_int_equal(invocations_of(name, idx, 9, GC_TRIANGLE_LIST), 6);
        assert_non_null(source);
    }
}

/* "(0 1 2)+ ... each subsequent batch of 32 triangles increases the vertex shader invocation
 * count by 3, suggesting a buffer of 32 triangles": reuse:32,16,32 does exactly that. */
static void repeated_triangle_batches(void** state)
{
    (void)state;
    uint32_t idx[3 * 100];
    for (int i = 0; i < 100; ++i)
        idx[3 * i] = 0, idx[3 * i + 1] = 1, idx[3 * i + 2] = 2;
    for (size_t t = 1; t <= 100; ++t) {
        uint64_t expected = 3 * ((t + 31) / 32);
        assert_int_equal(invocations_of("reuse:32,16,32", idx, 3 * t, GC_TRIANGLE_LIST), expected);
    }
    gc_model m = model_of("reuse:32,16,32");
    gc_draw d = {idx, 300, GC_TRIANGLE_LIST, 0, 0};
    gc_stats st;
    gc_error err;
    assert_int_equal(gc_analyze(&m, &d, NULL, &st, &err), GC_OK);
    assert_int_equal(st.batches, 4);
}

/* "we only compared to the last 16": a vertex further back in the same warp is a miss. */
static void compare_window(void** state)
{
    (void)state;
    static const uint32_t idx[] = {0, 1, 2, 3, 4, 5, 0, 6, 7};
    assert_int_equal(invocations_of("reuse:32,2,32", idx, 9, GC_TRIANGLE_LIST), 9);
    /* 0 was followed by five vertices: it is the 6th from the end of the warp. */
    assert_int_equal(invocations_of("reuse:32,5,32", idx, 9, GC_TRIANGLE_LIST), 9);
    assert_int_equal(invocations_of("reuse:32,6,32", idx, 9, GC_TRIANGLE_LIST), 8);
    assert_int_equal(invocations_of("reuse:32,0,32", idx, 9, GC_TRIANGLE_LIST), 8); /* whole warp */
    /* A warp of 6 vertices cannot take (0,6,7)'s two misses after 6: it is dispatched, 0 misses. */
    assert_int_equal(invocations_of("reuse:6,0,0", idx, 9, GC_TRIANGLE_LIST), 9);
}

/* The one place reuse and meshoptimizer's analyzer differ: a degenerate corner in the overflow
 * test. A warp of 4 holding 3 vertices and the triangle (5, 5, 1): one unique miss fits
 * (reuse), three corner misses do not (meshopt). */
static void overflow_counts_unique_misses(void** state)
{
    (void)state;
    static const uint32_t idx[] = {0, 1, 2, 5, 5, 1};
    assert_int_equal(invocations_of("reuse:4,0,0", idx, 6, GC_TRIANGLE_LIST), 4);
    assert_int_equal(invocations_of("meshopt:16,4,0", idx, 6, GC_TRIANGLE_LIST), 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(degenerates_every_preset),
        cmocka_unit_test(repeated_triangle_batches),
        cmocka_unit_test(compare_window),
        cmocka_unit_test(overflow_counts_unique_misses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
