// SPDX-License-Identifier: MIT
/* gc_reorder_vertices_fetch: the numbering chosen for a vertex fetch model (issue 30). */
#include "test_util.h"

/* A parsed spec; every_reference: each index reference fetches (as meshopt's), whatever
 * the spec says. */
static gc_fetch_spec spec_of(const char* spec, int every_reference)
{
    gc_fetch_spec f;
    gc_error err;
    if (gc_fetch_parse(spec, &f, &err) != GC_OK)
        fail_msg("fetch spec %s: %s", spec, err.message);
    f.every_reference |= every_reference;
    return f;
}

/* The bytes `spec` (with model, or every reference) reads for the list. */
static uint64_t bytes_of(const char* spec, const char* model, const uint32_t* idx, size_t n, uint32_t vertices)
{
    gc_fetch_spec f = spec_of(spec, !model);
    gc_error err;
    gc_model m = model_of(model ? model : "fifo:16");
    gc_fetch_stats st;
    if (gc_analyze_fetch(&f, model ? &m : NULL, idx, n, vertices, NULL, 0, &st, &err) != GC_OK)
        fail_msg("fetch %s: %s", spec, err.message);
    return st.bytes;
}

/* Checks that `after` is `before` with its vertices renumbered by remap (a one-to-one map of
 * the used vertices onto 0 .. used - 1). */
static void check_renumbering(const uint32_t* before, const uint32_t* after, size_t n, uint32_t vertices,
                              const uint32_t* remap, uint32_t used)
{
    uint8_t* taken = calloc(used ? used : 1, 1);
    assert_non_null(taken);
    uint32_t mapped = 0;
    for (uint32_t v = 0; v < vertices; ++v) {
        if (remap[v] == UINT32_MAX)
            continue;
        assert_true(remap[v] < used);
        assert_false(taken[remap[v]]);
        taken[remap[v]] = 1;
        mapped++;
    }
    assert_int_equal(mapped, used);
    for (size_t i = 0; i < n; ++i)
        assert_int_equal(after[i], remap[before[i]]);
    free(taken);
}

/* A cache of 4 direct-mapped sets of 64-byte lines, 32-byte vertices: 2 vertices a line,
 * line k in set k mod 4. Sixteen vertices, each first used in order of its number (so first
 * use is the identity), lines L0 = {0, 1} ... L7 = {14, 15}:
 *   (0 1 2) (2 3 4) (4 5 6) (6 7 8) (8 9 0) (0 1 10) (10 11 12) (12 13 14) (14 15 11)
 * L0 is read again after L4 opened. First use puts L4 in set 0 with L0: set 0 reads
 * L0, L4, L0 (3 lines), sets 1-3 two lines each: 9 line reads, 576 bytes. But when L4 opens,
 * L1 (set 1) is read no more, so L4 can go there and L0 stays; when L5 and L6 open later,
 * L2 and L0 are done. Every line is then read once: 8 lines, 512 bytes, the least any
 * numbering can read. */
static void by_hand(void** state)
{
    (void)state;
    const uint32_t idx[] = {0, 1, 2, 2, 3, 4, 4, 5, 6, 6, 7, 8, 8, 9, 0, 0, 1, 10, 10, 11, 12, 12, 13, 14, 14, 15, 11};
    const size_t n = sizeof idx / sizeof idx[0];
    const char* spec = "cache:64,256,1:32";
    gc_fetch_spec f = spec_of(spec, 1);
    gc_error err;
    uint32_t out[sizeof idx / sizeof idx[0]], remap[16], used = 0;
    memcpy(out, idx, sizeof idx);
    assert_int_equal(gc_reorder_vertices(out, n, 16, remap, &used, &err), GC_OK);
    assert_memory_equal(out, idx, sizeof idx); /* first use is the identity here */
    assert_int_equal(bytes_of(spec, NULL, out, n, 16), 576);
    memcpy(out, idx, sizeof idx);
    assert_int_equal(gc_reorder_vertices_fetch(out, n, 16, &f, NULL, remap, &used, &err), GC_OK);
    assert_int_equal(used, 16);
    check_renumbering(idx, out, n, 16, remap, used);
    assert_int_equal(bytes_of(spec, NULL, out, n, 16), 512);
    /* The vertices of a line stay together: the numbering moves whole lines. */
    for (uint32_t v = 0; v < 16; v += 2)
        assert_int_equal(remap[v] / 2, remap[v + 1] / 2);
}

/* Where the numbering cannot matter it is first use's: vertices that straddle lines
 * (12 bytes in 64-byte lines), and a mesh whose lines fit one per set. */
static void first_use_where_nothing_to_choose(void** state)
{
    (void)state;
    const uint32_t idx[] = {5, 1, 2, 2, 3, 4, 4, 0, 6, 6, 7, 8, 8, 9, 5, 5, 1, 10, 10, 11, 12, 12, 13, 14, 14, 15, 11};
    const size_t n = sizeof idx / sizeof idx[0];
    static const char* const specs[] = {"cache:64,256,1:12", "meshopt:32", "cache:64,1024,2:32"};
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; ++k) {
        gc_fetch_spec f = spec_of(specs[k], 1);
        gc_error err;
        uint32_t a[sizeof idx / sizeof idx[0]], b[sizeof idx / sizeof idx[0]], ra[16], rb[16], ua, ub;
        memcpy(a, idx, sizeof idx), memcpy(b, idx, sizeof idx);
        assert_int_equal(gc_reorder_vertices(a, n, 16, ra, &ua, &err), GC_OK);
        assert_int_equal(gc_reorder_vertices_fetch(b, n, 16, &f, NULL, rb, &ub, &err), GC_OK);
        assert_int_equal(ua, ub);
        assert_memory_equal(a, b, sizeof a);
        assert_memory_equal(ra, rb, sizeof ra);
    }
}

/* On the corpus, as stored and shuffled, and on random lists: a renumbering that never
 * reads more than first use, under meshoptimizer's model (the default, NULL), a set-associative
 * cache, and seed 003's GPU fetching a model's misses; and under meshoptimizer's model with
 * 32-byte vertices, strictly fewer bytes on the meshes whose vertices do not fit the cache. */
static void never_more_than_first_use(void** state)
{
    (void)state;
    static const char* const specs[][2] = {
        {"meshopt:32", NULL}, {"meshopt:16", NULL}, {"cache:64,16K,4:32", NULL}, {"cache:64,64K,1:32", "intel"},
        {"gcn:32", "amd-gcn"}};
    size_t tested = 0;
    for (size_t c = 0; c < CORPUS_MESH_COUNT; ++c) {
        char path[4096];
        if (corpus_path(path, sizeof path, corpus_meshes_list[c]) != 0)
            continue;
        uint32_t* idx;
        size_t n;
        gc_error err;
        assert_int_equal(gc_mesh_load_triangles(path, NULL, &idx, &n, NULL, &err), GC_OK);
        uint32_t vertices = 0;
        for (size_t i = 0; i < n; ++i)
            vertices = idx[i] >= vertices ? idx[i] + 1 : vertices;
        uint32_t* a = malloc(n * sizeof *a);
        uint32_t* b = malloc(n * sizeof *b);
        uint32_t* ra = malloc(vertices * sizeof *ra);
        uint32_t* rb = malloc(vertices * sizeof *rb);
        assert_true(a && b && ra && rb);
        for (int shuffled = 0; shuffled < 2; ++shuffled) {
            if (shuffled)
                gc_shuffle_triangles(idx, n, 7 + c);
            for (size_t k = 0; k < sizeof specs / sizeof specs[0]; ++k) {
                gc_fetch_spec f = spec_of(specs[k][0], !specs[k][1]);
                gc_model m = model_of(specs[k][1] ? specs[k][1] : "fifo:16");
                uint32_t ua, ub;
                memcpy(a, idx, n * sizeof *a), memcpy(b, idx, n * sizeof *b);
                assert_int_equal(gc_reorder_vertices(a, n, vertices, ra, &ua, &err), GC_OK);
                assert_int_equal(gc_reorder_vertices_fetch(b, n, vertices, k ? &f : NULL, specs[k][1] ? &m : NULL,
                                                           rb, &ub, &err),
                                 GC_OK);
                assert_int_equal(ua, ub);
                check_renumbering(idx, b, n, vertices, rb, ub);
                uint64_t first = bytes_of(specs[k][0], specs[k][1], a, n, ua);
                uint64_t chosen = bytes_of(specs[k][0], specs[k][1], b, n, ub);
                if (chosen > first)
                    fail_msg("%s%s, %s: %llu bytes, first use %llu", corpus_meshes_list[c],
                             shuffled ? " shuffled" : "", specs[k][0], (unsigned long long)chosen,
                             (unsigned long long)first);
                /* more than 4096 vertices of 32 bytes: first use's sets wrap, and the shuffled
                 * orders re-read lines long after */
                if (k == 0 && shuffled && ua > 4096 && chosen >= first)
                    fail_msg("%s shuffled: no fewer bytes than first use (%llu)", corpus_meshes_list[c],
                             (unsigned long long)first);
            }
        }
        free(idx), free(a), free(b), free(ra), free(rb);
        tested++;
    }
    print_message("fetch numbering: %zu corpus meshes\n", tested);
    uint64_t s = 99;
    for (int round = 0; round < 10; ++round) {
        uint32_t vertices = 1 + (uint32_t)(test_random(&s) % 20000);
        size_t n = 3 * (size_t)(1 + test_random(&s) % 20000);
        uint32_t* idx = malloc(n * sizeof *idx);
        uint32_t* a = malloc(n * sizeof *a);
        uint32_t* b = malloc(n * sizeof *b);
        uint32_t* ra = malloc(vertices * sizeof *ra);
        uint32_t* rb = malloc(vertices * sizeof *rb);
        assert_true(idx && a && b && ra && rb);
        for (size_t i = 0; i < n; ++i)
            idx[i] = (uint32_t)(test_random(&s) % vertices);
        gc_error err;
        uint32_t ua, ub;
        memcpy(a, idx, n * sizeof *a), memcpy(b, idx, n * sizeof *b);
        assert_int_equal(gc_reorder_vertices(a, n, vertices, ra, &ua, &err), GC_OK);
        assert_int_equal(gc_reorder_vertices_fetch(b, n, vertices, NULL, NULL, rb, &ub, &err), GC_OK);
        check_renumbering(idx, b, n, vertices, rb, ub);
        assert_true(bytes_of("meshopt:32", NULL, b, n, ub) <= bytes_of("meshopt:32", NULL, a, n, ua));
        free(idx), free(a), free(b), free(ra), free(rb);
    }
}

/* Bad input: an index past the vertices, as gc_reorder_vertices; a spec that fetches a
 * model's misses without the model. */
static void bad_input(void** state)
{
    (void)state;
    uint32_t idx[] = {0, 1, 7}, remap[4], used;
    gc_error err;
    assert_int_equal(gc_reorder_vertices_fetch(idx, 3, 4, NULL, NULL, remap, &used, &err), GC_ERR_DATA);
    gc_fetch_spec gcn;
    assert_int_equal(gc_fetch_parse("gcn:32", &gcn, &err), GC_OK);
    uint32_t ok[] = {0, 1, 2};
    assert_int_equal(gc_reorder_vertices_fetch(ok, 3, 4, &gcn, NULL, remap, &used, &err), GC_ERR_USAGE);
    assert_non_null(strstr(err.message, "model"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(by_hand),
        cmocka_unit_test(first_use_where_nothing_to_choose),
        cmocka_unit_test(never_more_than_first_use),
        cmocka_unit_test(bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
