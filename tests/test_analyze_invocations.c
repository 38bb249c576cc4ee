// SPDX-License-Identifier: MIT
/* gc_analyze_invocations (analyze.c), auto's count of a candidate order's invocations: the
 * invocations gc_analyze gives, for every family (the ones with a loop of their own, with
 * and without the index check in the loop, and the state-machine ones), on corpus meshes
 * stored and shuffled and with the caller's vertex count above the largest index; a bad
 * index still fails, as gc_analyze does with the same vertex count.
 *
 * The families' loops for a triangle list (gc_family_def.list_run: ati.c's, its LRU in the
 * list form; kerbl_batch.c's for nv-dx, nv-gl and batch-all) against their gc_sim machines
 * (gc_analyze_sim): the same invocations, batches and hard resets, for ati LRUs of 1 to 32
 * entries, batches of 3 to 64 vertices and resets every 3 to 768 indices, and Kerbl et al.'s
 * rules with their presets' and with small limits (a batch-all hard reset too), on corpus
 * meshes stored and shuffled and with degenerate triangles appended (a repeated pair, a
 * single vertex). */
#include "test_util.h"

#include "internal.h"

static const char* const specs[] = {"fifo:16",        "intel",       "lru:16",          "direct-value:64",
                                    "direct-position:32", "nvidia-kepler", "nvidia-pascal", "nvidia-maxwell",
                                    "amd-gcn",        "reuse:32,16,32", "batch",         "llvmpipe",
                                    "nvidia-dx",      "nvidia-gl",   "ati-basic",       "intel-lower-bound"};
#define SPEC_COUNT (sizeof specs / sizeof specs[0])

static void same_as_analyze(void** state)
{
    (void)state;
    static const char* const names[] = {"woody.obj", "suzanne.obj", "cow.obj"};
    for (corpus_rows r = corpus_rows_of(names, 3, 7); corpus_rows_next(&r);) {
        for (size_t k = 0; k < SPEC_COUNT; ++k) {
            const gc_model m = model_of(specs[k]);
            const gc_draw d = {r.idx, r.n, GC_TRIANGLE_LIST, 0, 0};
            gc_stats st;
            gc_error err;
            assert_int_equal(gc_analyze(&m, &d, NULL, &st, &err), GC_OK);
            assert_true(st.invocations >= st.vertices); /* every used vertex shaded at least once */
            /* the exact vertex count, and one with 1,000 unused vertices past it */
            for (uint32_t extra = 0; extra <= 1000; extra += 1000) {
                uint64_t got = 1;
                assert_int_equal(gc_analyze_invocations(&m, &d, r.vertices + extra, &got, &err), GC_OK);
                if (got != st.invocations)
                    fail_msg("%s, %s, %u unused: %llu invocations, gc_analyze %llu", r.what, specs[k], extra,
                             (unsigned long long)got, (unsigned long long)st.invocations);
            }
        }
    }
}

static void bad_index(void** state)
{
    (void)state;
    /* vertex 9 in a draw said to have 8 vertices: refused with the index named */
    const uint32_t idx[9] = {0, 1, 2, 2, 1, 3, 4, 9, 5};
    const gc_draw d = {idx, 9, GC_TRIANGLE_LIST, 0, 0};
    for (size_t k = 0; k < SPEC_COUNT; ++k) {
        const gc_model m = model_of(specs[k]);
        uint64_t got = 1;
        gc_error err;
        memset(&err, 0, sizeof err);
        assert_int_equal(gc_analyze_invocations(&m, &d, 8, &got, &err), GC_ERR_DATA);
        assert_non_null(strstr(err.message, "9"));
        assert_int_equal(got, 0);
        /* with a vertex count above it, what gc_analyze counts */
        gc_stats st;
        assert_int_equal(gc_analyze(&m, &d, NULL, &st, &err), GC_OK);
        assert_int_equal(gc_analyze_invocations(&m, &d, 10, &got, &err), GC_OK);
        assert_int_equal(got, st.invocations);
    }
    const gc_model m = model_of("fifo:16");
    uint64_t got;
    gc_error err;
    assert_int_equal(gc_analyze_invocations(NULL, &d, 10, &got, &err), GC_ERR_USAGE);
    assert_int_equal(gc_analyze_invocations(&m, NULL, 10, &got, &err), GC_ERR_USAGE);
}

static void list_counts(const char* spec, const uint32_t* idx, size_t n, uint32_t vertices, const char* what)
{
    const gc_model m = model_of(spec);
    const gc_draw d = {idx, n, GC_TRIANGLE_LIST, 0, 0};
    gc_stats loop, machine;
    gc_error err;
    assert_int_equal(gc_analyze(&m, &d, NULL, &loop, &err), GC_OK);
    gc_sim* sim = NULL;
    assert_int_equal(gc_sim_create(&m, vertices, NULL, &sim, &err), GC_OK);
    assert_int_equal(gc_analyze_sim(sim, &d, NULL, &machine, &err), GC_OK);
    gc_sim_destroy(sim);
    if (loop.invocations != machine.invocations || loop.batches != machine.batches || loop.resets != machine.resets ||
        !loop.has_batches)
        fail_msg("%s, %s: loop %llu invocations, %llu batches, %llu resets; machine %llu, %llu, %llu", what, spec,
                 (unsigned long long)loop.invocations, (unsigned long long)loop.batches,
                 (unsigned long long)loop.resets, (unsigned long long)machine.invocations,
                 (unsigned long long)machine.batches, (unsigned long long)machine.resets);
}

static const char* const list_specs[] = {"ati-basic",
                                        "nvidia-dx",
                                        "nvidia-gl",
                                        "intel-lower-bound",
                                        "nv-dx:indices=9,vertices=4",
                                        "nv-gl:indices=12,vertices=5,window=7",
                                        "batch-all:indices=96,vertices=32,reset=96",
                                        "batch-all:indices=7,vertices=3,reset=5",
                                        "ati:lru=15,vertices=64,reset=384",
                                        "ati:lru=1,vertices=3,reset=3",
                                        "ati:lru=8,vertices=32,reset=192",
                                        "ati:lru=16,vertices=64,reset=768",
                                        "ati:lru=32,vertices=64,reset=96",
                                        "ati:lru=4,vertices=5,reset=7"};

static void list_loops_are_machines(void** state)
{
    (void)state;
    static const char* const names[] = {"woody.obj", "suzanne.obj", "teapot.obj"};
    for (corpus_rows r = corpus_rows_of(names, 3, 11); corpus_rows_next(&r);)
        for (size_t k = 0; k < sizeof list_specs / sizeof list_specs[0]; ++k)
            list_counts(list_specs[k], r.idx, r.n, r.vertices, r.what);
    size_t n = 0, tc = 0;
    uint32_t vertices = 0;
    uint32_t* idx = corpus_degenerates_or_skip("cow.obj", 7, &n, &tc, &vertices);
    for (size_t k = 0; k < sizeof list_specs / sizeof list_specs[0]; ++k)
        list_counts(list_specs[k], idx, 3 * tc, vertices, "cow with degenerates");
    free(idx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_as_analyze),
        cmocka_unit_test(bad_index),
        cmocka_unit_test(list_loops_are_machines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
