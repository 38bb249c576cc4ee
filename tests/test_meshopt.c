// SPDX-License-Identifier: MIT
/* meshopt:C,W,P must give exactly meshopt_analyzeVertexCache's invocation and warp
 * counts (libmeshoptimizer-dev 0.18), on every corpus mesh and on random buffers with
 * heavy reuse and degenerate triangles; through the library and through the CLI's JSON. */
#include "test_util.h"

#include <meshoptimizer.h>
#include <math.h>

static const unsigned params[][3] = {{16, 0, 0}, {32, 32, 32}, {16, 32, 32}, {14, 64, 128}, {128, 0, 0},
                                     {3, 3, 0},  {3, 0, 1},    {64, 3, 7},   {7, 9, 2}};
#define PARAM_COUNT (sizeof params / sizeof params[0])

/* Compares both the fast triangle-list path and the general path (per-vertex counts on). */
static void compare(const uint32_t* idx, size_t n, const unsigned* p, const char* what)
{
    char spec[64];
    snprintf(spec, sizeof spec, "meshopt:%u,%u,%u", p[0], p[1], p[2]);
    gc_model m = model_of(spec);
    struct meshopt_VertexCacheStatistics ref =
        meshopt_analyzeVertexCache(idx, n, index_bound(idx, n), p[0], p[1], p[2]);
    gc_draw d = {idx, n, GC_TRIANGLE_LIST, 0, 0};
    gc_stats st;
    gc_error err;
    assert_int_equal(gc_analyze(&m, &d, NULL, &st, &err), GC_OK);
    if (st.invocations != ref.vertices_transformed || st.batches != ref.warps_executed)
        fail_msg("%s %s: ours %llu/%llu, meshopt %u/%zu", what, spec, (unsigned long long)st.invocations,
                 (unsigned long long)st.batches, ref.vertices_transformed, ref.warps_executed);
    /* Given the vertex count, the driver skips its pass over the indices and the warp loop
     * checks them itself (the unchecked variants). */
    gc_analyze_options counted = {0};
    counted.vertex_count = index_bound(idx, n);
    assert_int_equal(gc_analyze(&m, &d, &counted, &st, &err), GC_OK);
    if (st.invocations != ref.vertices_transformed || st.batches != ref.warps_executed)
        fail_msg("%s %s with the vertex count: ours %llu/%llu, meshopt %u/%zu", what, spec,
                 (unsigned long long)st.invocations, (unsigned long long)st.batches, ref.vertices_transformed,
                 ref.warps_executed);
    gc_per_vertex pv = {0};
    gc_analyze_options o = {0};
    o.per_vertex = &pv;
    assert_int_equal(gc_analyze(&m, &d, &o, &st, &err), GC_OK);
    assert_int_equal(st.invocations, ref.vertices_transformed);
    assert_int_equal(st.batches, ref.warps_executed);
    uint64_t sum = 0;
    for (size_t i = 0; i < pv.count; ++i)
        sum += pv.counts[i];
    assert_int_equal(sum, st.invocations);
    gc_per_vertex_free(&pv);
    /* ATVR and ACMR as meshoptimizer computes them (it uses float). */
    assert_true(fabs(st.atvr - ref.atvr) < 1e-5 * ref.atvr + 1e-9);
    assert_true(fabs(st.acmr - ref.acmr) < 1e-5 * ref.acmr + 1e-9);
}

static void random_buffers(void** state)
{
    (void)state;
    uint64_t seed = 0x1234567;
    uint32_t idx[3 * 600];
    for (int round = 0; round < 3000; ++round) {
        size_t triangles = 1 + test_random(&seed) % 600;
        /* Few vertices mean heavy reuse; a high degenerate share stresses the per-corner count. */
        uint32_t vertices = 1 + (uint32_t)(test_random(&seed) % (round % 3 == 0 ? 8 : round % 3 == 1 ? 64 : 2000));
        unsigned degenerate_pct = (unsigned)(test_random(&seed) % 60);
        for (size_t t = 0; t < triangles; ++t) {
            for (int k = 0; k < 3; ++k)
                idx[3 * t + k] = (uint32_t)(test_random(&seed) % vertices);
            if (test_random(&seed) % 100 < degenerate_pct)
                idx[3 * t + 1 + test_random(&seed) % 2] = idx[3 * t + test_random(&seed) % 2];
            /* Local windows: a strip-like walk that reuses recent vertices. */
            if (round % 5 == 4 && t > 0) {
                idx[3 * t] = idx[3 * t - 1];
                idx[3 * t + 1] = idx[3 * t - 2];
            }
        }
        for (size_t p = 0; p < PARAM_COUNT; ++p)
            compare(idx, 3 * triangles, params[p], "random");
    }
}

/* A triangle list of the mesh as a renderer draws it (a strip file expanded). */
static uint32_t* as_triangle_list(const gc_mesh* mesh, size_t* n)
{
    gc_draw d = {mesh->indices, mesh->index_count, mesh->topology, mesh->restart_enabled, mesh->restart_value};
    uint64_t prims;
    gc_error err;
    assert_int_equal(gc_draw_validate(&d, "mesh", &prims, &err), GC_OK);
    uint32_t* out = malloc(prims * 3 * sizeof *out);
    assert_int_equal(gc_draw_triangles(&d, out, prims * 3, n, &err), GC_OK);
    assert_int_equal(*n, prims * 3);
    return out;
}

static const char* const corpus[] = {"alligator.obj", "beetle-alt.obj", "cheburashka.obj", "cow.obj",
                                     "fandisk.obj",   "homer.obj",      "igea.ply",        "ogre.obj",
                                     "rocker-arm.obj", "spot.obj",      "stanford-bunny.obj", "suzanne.obj",
                                     "teapot.obj",    "woody.obj"};

static void corpus_meshes(void** state)
{
    (void)state;
    char path[1024];
    if (corpus_path(path, sizeof path, "cow.obj") != 0)
        skip();
    for (size_t i = 0; i < sizeof corpus / sizeof corpus[0]; ++i) {
        assert_int_equal(corpus_path(path, sizeof path, corpus[i]), 0);
        gc_mesh mesh;
        gc_error err;
        if (gc_mesh_load(path, NULL, &mesh, &err) != GC_OK)
            fail_msg("%s", err.message);
        size_t n;
        uint32_t* list = as_triangle_list(&mesh, &n);
        for (size_t p = 0; p < PARAM_COUNT; ++p)
            compare(list, n, params[p], corpus[i]);
        /* Shuffled as well: far more misses and flushes. */
        gc_shuffle_triangles(list, n, 7);
        for (size_t p = 0; p < PARAM_COUNT; ++p)
            compare(list, n, params[p], corpus[i]);
        free(list);
        gc_mesh_free(&mesh);
    }
}

/* fifo:N is meshopt:N,0,0: one stream of lookups, no warps. */
static void fifo_is_meshopt_without_warps(void** state)
{
    (void)state;
    uint64_t seed = 99;
    uint32_t idx[3 * 300];
    for (int round = 0; round < 200; ++round) {
        size_t n = 3 * (1 + test_random(&seed) % 300);
        for (size_t i = 0; i < n; ++i)
            idx[i] = (uint32_t)(test_random(&seed) % 50);
        for (unsigned c = 3; c < 40; c += 5) {
            char a[32], b[32];
            snprintf(a, sizeof a, "fifo:%u", c);
            snprintf(b, sizeof b, "meshopt:%u,0,0", c);
            assert_int_equal(invocations_of(a, idx, n, GC_TRIANGLE_LIST), invocations_of(b, idx, n, GC_TRIANGLE_LIST));
        }
    }
}

/* Reads a number after "key": in the n-th model object of the CLI's JSON. */
static long long json_field(const char* json, int model, const char* key)
{
    const char* p = strstr(json, "\"models\"");
    assert_non_null(p);
    for (int i = 0; i <= model; ++i) {
        p = strstr(p + 1, "{\"model\"");
        assert_non_null(p);
    }
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\": ", key);
    p = strstr(p, pattern);
    assert_non_null(p);
    return strtoll(p + strlen(pattern), NULL, 10);
}

/* The acceptance item: `gpucache analyze --json -m meshopt:32,32,32 X` equals meshoptimizer. */
static void cli_json_equals_meshopt(void** state)
{
    (void)state;
    char path[1024];
    if (corpus_path(path, sizeof path, "cow.obj") != 0)
        skip();
    for (size_t i = 0; i < sizeof corpus / sizeof corpus[0]; ++i) {
        assert_int_equal(corpus_path(path, sizeof path, corpus[i]), 0);
        char cmd[2048];
        snprintf(cmd, sizeof cmd, "'%s' analyze --json -m meshopt:32,32,32 -m meshopt:14,64,128 '%s'", GPUCACHE_CLI,
                 path);
        FILE* f = popen(cmd, "r");
        assert_non_null(f);
        static char json[1 << 16];
        size_t len = fread(json, 1, sizeof json - 1, f);
        json[len] = 0;
        assert_int_equal(pclose(f), 0);
        gc_mesh mesh;
        gc_error err;
        assert_int_equal(gc_mesh_load(path, NULL, &mesh, &err), GC_OK);
        size_t n;
        uint32_t* list = as_triangle_list(&mesh, &n);
        struct meshopt_VertexCacheStatistics a = meshopt_analyzeVertexCache(list, n, index_bound(list, n), 32, 32, 32);
        struct meshopt_VertexCacheStatistics b =
            meshopt_analyzeVertexCache(list, n, index_bound(list, n), 14, 64, 128);
        assert_int_equal(json_field(json, 0, "invocations"), a.vertices_transformed);
        assert_int_equal(json_field(json, 0, "batches"), a.warps_executed);
        assert_int_equal(json_field(json, 1, "invocations"), b.vertices_transformed);
        assert_int_equal(json_field(json, 1, "batches"), b.warps_executed);
        free(list);
        gc_mesh_free(&mesh);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_buffers),
        cmocka_unit_test(fifo_is_meshopt_without_warps),
        cmocka_unit_test(corpus_meshes),
        cmocka_unit_test(cli_json_equals_meshopt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
