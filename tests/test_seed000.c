// SPDX-License-Identifier: MIT
/* Every worked example of seed 000 (the probed NVIDIA rules), exactly as written there. */
#include "test_util.h"

/* Keeps every trace line so that tests can look at the cache after any primitive. */
typedef struct trace_log {
    int64_t entries[2048][40];
    size_t counts[2048];
    size_t lines;
} trace_log;

static void record(void* user, uint64_t primitive, const int64_t* entries, size_t count)
{
    trace_log* log = user;
    assert_true(primitive < 2048);
    assert_true(count <= 40);
    memcpy(log->entries[primitive], entries, count * sizeof *entries);
    log->counts[primitive] = count;
    log->lines = primitive + 1;
}

static gc_stats run_traced(const char* spec, const uint32_t* idx, size_t n, gc_topology t, trace_log* log)
{
    gc_model m = model_of(spec);
    gc_draw d = {idx, n, t, 0, 0};
    gc_analyze_options o = {0};
    o.trace = record;
    o.trace_user = log;
    gc_stats st;
    gc_error err;
    assert_int_equal(gc_analyze(&m, &d, &o, &st, &err), GC_OK);
    return st;
}

static void assert_cache(const trace_log* log, size_t primitive, const int64_t* expected, size_t count)
{
    assert_int_equal(log->counts[primitive], count);
    for (size_t i = 0; i < count; ++i)
        assert_int_equal(log->entries[primitive][i], expected[i]);
}

/* "Drawing 10 triangles (30 vertices) with the indices (0, 1, 2, ..., 29)": the GPU line
 * lists 0..29; the seed's emulated line shows the same 30 entries and two empty slots. */
static void sequential_30(void** state)
{
    (void)state;
    static trace_log log;
    uint32_t idx[30];
    int64_t expected[30];
    for (int i = 0; i < 30; ++i)
        idx[i] = (uint32_t)i, expected[i] = i;
    gc_stats st = run_traced("nvidia", idx, 30, GC_TRIANGLE_LIST, &log);
    assert_int_equal(st.invocations, 30);
    assert_cache(&log, 9, expected, 30);
}

/* "11 triangles with 33 different indices": GPU [30, 31, 32]. */
static void sequential_33(void** state)
{
    (void)state;
    static trace_log log;
    uint32_t idx[33];
    for (int i = 0; i < 33; ++i)
        idx[i] = (uint32_t)i;
    gc_stats st = run_traced("nvidia", idx, 33, GC_TRIANGLE_LIST, &log);
    static const int64_t expected[] = {30, 31, 32};
    assert_cache(&log, 10, expected, 3);
    assert_int_equal(st.invocations, 33);
    assert_int_equal(st.resets, 1);
}

/* Example 1: the cache is full and all 3 vertices of the next triangle are cached: no reset. */
static void example1_full_all_hits(void** state)
{
    (void)state;
    static trace_log log;
    uint32_t idx[33];
    for (int i = 0; i < 30; ++i)
        idx[i] = (uint32_t)i;
    /* Fill slots 30 and 31 with a triangle (30, 31, 0): 0 hits, 30 and 31 fill the cache. */
    idx[30] = 30, idx[31] = 31, idx[32] = 0;
    uint32_t more[36];
    memcpy(more, idx, sizeof idx);
    more[33] = 5, more[34] = 6, more[35] = 7; /* all cached */
    gc_stats st = run_traced("nvidia", more, 36, GC_TRIANGLE_LIST, &log);
    assert_int_equal(st.invocations, 32);
    assert_int_equal(st.resets, 0);
    assert_int_equal(log.counts[11], 32);
}

/* Example 2: one free slot left and a triangle with 2 misses: reset, all 3 vertices miss. */
static void example2_one_free_two_misses(void** state)
{
    (void)state;
    static trace_log log;
    uint32_t idx[36];
    for (int i = 0; i < 30; ++i)
        idx[i] = (uint32_t)i;
    idx[30] = 30, idx[31] = 0, idx[32] = 1; /* 31 slots used: one free */
    idx[33] = 2, idx[34] = 100, idx[35] = 101; /* 2 cached, 2 misses */
    gc_stats st = run_traced("nvidia", idx, 36, GC_TRIANGLE_LIST, &log);
    assert_int_equal(log.counts[10], 31);
    static const int64_t expected[] = {2, 100, 101};
    assert_cache(&log, 11, expected, 3);
    assert_int_equal(st.invocations, 31 + 3);
    assert_int_equal(st.resets, 1);
}

/* Example 3: the cache is full, holds 0, and (0, 0, 1) is drawn: reset; 0 and 1 miss. */
static void example3_degenerate_overflow(void** state)
{
    (void)state;
    static trace_log log;
    uint32_t idx[36];
    for (int i = 0; i < 30; ++i)
        idx[i] = (uint32_t)i;
    idx[30] = 30, idx[31] = 31, idx[32] = 2; /* full: 32 entries */
    idx[33] = 0, idx[34] = 0, idx[35] = 1000;
    gc_stats st = run_traced("nvidia", idx, 36, GC_TRIANGLE_LIST, &log);
    assert_int_equal(log.counts[10], 32);
    static const int64_t expected[] = {0, 1000};
    assert_cache(&log, 11, expected, 2);
    assert_int_equal(st.invocations, 32 + 2);
}

/* 100 identical (5, 5, 5): 5 is re-placed every 32 triangles: 4 invocations; the 1025th
 * triangle finds every slot invalid and resets the cache, placing 5 in slot 0 again. */
static void degenerate_5_lifetime(void** state)
{
    (void)state;
    uint32_t* idx = malloc(1100 * 3 * sizeof *idx);
    for (int i = 0; i < 1100 * 3; ++i)
        idx[i] = 5;
    assert_int_equal(invocations_of("nvidia", idx, 300, GC_TRIANGLE_LIST), 4);
    gc_model m = model_of("nvidia");
    gc_stats st;
    gc_error err;
    gc_draw d1024 = {idx, 1024 * 3, GC_TRIANGLE_LIST, 0, 0};
    assert_int_equal(gc_analyze(&m, &d1024, NULL, &st, &err), GC_OK);
    assert_int_equal(st.invocations, 32); /* slots 0..31, one every 32 triangles */
    assert_int_equal(st.resets, 0);
    gc_draw d1025 = {idx, 1025 * 3, GC_TRIANGLE_LIST, 0, 0};
    assert_int_equal(gc_analyze(&m, &d1025, NULL, &st, &err), GC_OK);
    assert_int_equal(st.invocations, 33);
    assert_int_equal(st.resets, 1);
    free(idx);
}

/* (0, 1, 2) then (0, 0, 0) repeated: 1 and 2 are gone by the 17th triangle (16 unused),
 * 0 expires 32 triangles after its insertion although it is used every time. */
static void idle_and_life(void** state)
{
    (void)state;
    static trace_log log;
    uint32_t idx[40 * 3];
    idx[0] = 0, idx[1] = 1, idx[2] = 2;
    for (int i = 3; i < 40 * 3; ++i)
        idx[i] = 0;
    gc_stats st = run_traced("nvidia", idx, 40 * 3, GC_TRIANGLE_LIST, &log);
    static const int64_t all[] = {0, 1, 2}, zero[] = {0};
    /* The trace after primitive p is what primitive p + 1 can match. */
    assert_cache(&log, 14, all, 3);  /* the 16th triangle still sees 1 and 2 */
    assert_cache(&log, 15, zero, 1); /* the 17th does not */
    assert_cache(&log, 30, zero, 1); /* the 32nd triangle still matches 0 */
    assert_cache(&log, 31, NULL, 0); /* after 32 triangles slot 0 is invalid */
    assert_cache(&log, 32, zero, 1); /* 0 was placed again (slot 3) */
    assert_int_equal(st.invocations, 4);
}

/* "When a cache entry becomes invalid, it is not possible to write a new vertex to it until
 * the entire cache is reset": after (0,1,2) and 32 (0,0,0), slots 0-2 are dead and 0 sits in
 * slot 3, so 27 new vertices fill slots 4-30 and a triangle with 2 more misses resets. */
static void invalid_slots_not_rewritten(void** state)
{
    (void)state;
    uint32_t idx[3 * 43];
    size_t n = 0;
    idx[n++] = 0, idx[n++] = 1, idx[n++] = 2;
    for (int i = 0; i < 32; ++i)
        idx[n++] = 0, idx[n++] = 0, idx[n++] = 0;
    for (uint32_t v = 100; v < 127; ++v)
        idx[n++] = v;
    size_t before_last = n;
    idx[n++] = 500, idx[n++] = 0, idx[n++] = 0; /* one miss: slot 31, no reset */
    gc_model m = model_of("nvidia");
    gc_stats st;
    gc_error err;
    gc_draw d = {idx, n, GC_TRIANGLE_LIST, 0, 0};
    assert_int_equal(gc_analyze(&m, &d, NULL, &st, &err), GC_OK);
    assert_int_equal(st.resets, 0);
    assert_int_equal(st.invocations, 3 + 1 + 27 + 1);
    idx[before_last] = 500, idx[before_last + 1] = 501; /* two misses: 31 + 2 > 32 */
    assert_int_equal(gc_analyze(&m, &d, NULL, &st, &err), GC_OK);
    assert_int_equal(st.resets, 1);
    assert_int_equal(st.invocations, 3 + 1 + 27 + 3);
}

/* Lifetimes count primitives: for points 16/32 points, for lines 16/32 lines. */
static void point_and_line_lifetimes(void** state)
{
    (void)state;
    /* Points: 7, then 7 again after 15 other points (hit), then after 16 (miss). */
    uint32_t pts[64];
    size_t n = 0;
    pts[n++] = 7;
    for (int i = 0; i < 15; ++i)
        pts[n++] = 100 + (uint32_t)i;
    pts[n++] = 7; /* point 16: 16 - 0 < 16? no: 16 points passed since its last use at 0 */
    assert_int_equal(invocations_of("nvidia", pts, 16, GC_POINT_LIST), 16);
    /* At point 15, 15 points passed: still valid. */
    uint32_t pts15[16];
    pts15[0] = 7;
    for (int i = 0; i < 14; ++i)
        pts15[1 + i] = 200 + (uint32_t)i;
    pts15[15] = 7;
    assert_int_equal(invocations_of("nvidia", pts15, 16, GC_POINT_LIST), 15);
    assert_int_equal(invocations_of("nvidia", pts, 17, GC_POINT_LIST), 16 + 1);
    /* Life: a point used every time expires after 32 points. */
    uint32_t same[40];
    for (int i = 0; i < 40; ++i)
        same[i] = 9;
    assert_int_equal(invocations_of("nvidia", same, 32, GC_POINT_LIST), 1);
    assert_int_equal(invocations_of("nvidia", same, 33, GC_POINT_LIST), 2);
    /* Lines: (0, 1) then 16 lines (0, 2+i): vertex 1 idles out after 16 lines, 0 lives 32. */
    uint32_t lines[2 * 40];
    lines[0] = 0, lines[1] = 1;
    for (int i = 1; i < 40; ++i)
        lines[2 * i] = 0, lines[2 * i + 1] = 0;
    assert_int_equal(invocations_of("nvidia", lines, 2 * 32, GC_LINE_LIST), 2);
    assert_int_equal(invocations_of("nvidia", lines, 2 * 33, GC_LINE_LIST), 3);
    lines[2 * 15 + 1] = 1; /* line 15: 15 lines after its last use: still cached */
    assert_int_equal(invocations_of("nvidia", lines, 2 * 16, GC_LINE_LIST), 2);
    lines[2 * 15 + 1] = 0;
    lines[2 * 16 + 1] = 1; /* line 16: 16 lines passed: gone */
    assert_int_equal(invocations_of("nvidia", lines, 2 * 17, GC_LINE_LIST), 3);
}

/* Parameters scale the rules: a 4-entry cache overflows on the second triangle of new vertices. */
static void parameters(void** state)
{
    (void)state;
    uint32_t idx[] = {0, 1, 2, 3, 4, 5, 0, 1, 2};
    assert_int_equal(invocations_of("nvidia:size=4", idx, 9, GC_TRIANGLE_LIST), 9);
    assert_int_equal(invocations_of("nvidia:size=6", idx, 9, GC_TRIANGLE_LIST), 6);
    assert_int_equal(invocations_of("nvidia:size=32,idle=1,life=32", idx, 9, GC_TRIANGLE_LIST), 9);
    /* Primitive 2 is 2 primitives past the insertion at 0: life=2 has expired it, life=3 not. */
    assert_int_equal(invocations_of("nvidia:size=32,idle=2,life=2", idx, 9, GC_TRIANGLE_LIST), 9);
    assert_int_equal(invocations_of("nvidia:size=32,idle=3,life=3", idx, 9, GC_TRIANGLE_LIST), 6);
}

/* An implementation check: the model's 22-bit epoch starts at 1 and wraps back to 1 after
 * 2^22 - 1 resets; a vertex cached in the first epoch must not match in the reused one.
 * With 3 slots every triangle of 3 new vertices resets. */
static void epoch_wrap(void** state)
{
    (void)state;
    const size_t resets = ((size_t)1 << 22) - 1;
    size_t n = 3 * (resets + 2);
    uint32_t* idx = malloc(n * sizeof *idx);
    idx[0] = 0, idx[1] = 1, idx[2] = 2;
    for (size_t t = 1; t <= resets; ++t)
        for (int k = 0; k < 3; ++k)
            idx[3 * t + k] = 3 + (uint32_t)((3 * t + (size_t)k) % 3000);
    idx[n - 3] = 0, idx[n - 2] = 1, idx[n - 1] = 2;
    gc_model m = model_of("nvidia:size=3,idle=0,life=0");
    gc_draw d = {idx, n, GC_TRIANGLE_LIST, 0, 0};
    gc_stats st;
    gc_error err;
    assert_int_equal(gc_analyze(&m, &d, NULL, &st, &err), GC_OK);
    assert_int_equal(st.invocations, n);
    assert_int_equal(st.resets, resets + 1);
    free(idx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sequential_30),
        cmocka_unit_test(sequential_33),
        cmocka_unit_test(example1_full_all_hits),
        cmocka_unit_test(example2_one_free_two_misses),
        cmocka_unit_test(example3_degenerate_overflow),
        cmocka_unit_test(degenerate_5_lifetime),
        cmocka_unit_test(idle_and_life),
        cmocka_unit_test(invalid_slots_not_rewritten),
        cmocka_unit_test(point_and_line_lifetimes),
        cmocka_unit_test(parameters),
        cmocka_unit_test(epoch_wrap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
