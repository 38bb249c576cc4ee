// SPDX-License-Identifier: MIT
/* The llvmpipe model against lavapipe itself: every draw is measured with the Vulkan
 * probe and predicted by the model; invocations and per-vertex counts must be equal,
 * and the pipeline statistics must equal the sum of the per-vertex counters.
 * Without a Vulkan device every test here is reported as skipped. */
#include "test_util.h"

#include "gpucache/gpucache_probe.h"

static gc_probe* probe;

static int open_probe(void** state)
{
    (void)state;
    gc_error err;
    gc_probe_device devices[8];
    uint32_t n = 0;
    if (gc_probe_list(devices, 8, &n, &err) != GC_OK)
        return 0;
    /* lavapipe is the device this model describes: find it among the devices. */
    for (uint32_t i = 0; i < n && i < 8; ++i)
        if (strstr(devices[i].driver, "llvmpipe") && devices[i].usable) {
            if (gc_probe_open(i, &probe, &err) != GC_OK) {
                gc_probe_close(probe);
                probe = NULL;
            }
            break;
        }
    return 0;
}

static int close_probe(void** state)
{
    (void)state;
    gc_probe_close(probe);
    return 0;
}

/* Measures and predicts one draw; fails the test on any difference. */
static void check_draw(const gc_draw* d, uint32_t outputs, const char* what)
{
    uint32_t max = 0;
    for (size_t i = 0; i < d->index_count; ++i)
        if (!(d->restart_enabled && d->indices[i] == d->restart_value) && d->indices[i] > max)
            max = d->indices[i];
    uint32_t* measured = calloc((size_t)max + 1, sizeof *measured);
    uint32_t* predicted = calloc((size_t)max + 1, sizeof *predicted);
    assert_non_null(measured);
    assert_non_null(predicted);
    gc_error err;
    gc_probe_result r;
    if (gc_probe_draw(probe, d, outputs, measured, (size_t)max + 1, &r, &err) != GC_OK)
        fail_msg("%s: probe: %s", what, err.message);
    gc_model m = model_of("llvmpipe");
    gc_per_vertex pv = {0};
    gc_analyze_options o = {0};
    o.per_vertex = &pv;
    gc_stats st;
    if (gc_analyze(&m, d, &o, &st, &err) != GC_OK)
        fail_msg("%s: analyze: %s", what, err.message);
    for (size_t i = 0; i < pv.count; ++i)
        predicted[pv.values[i]] = pv.counts[i];
    if (r.invocations != r.per_vertex_sum)
        fail_msg("%s: pipeline statistics %llu != per-vertex sum %llu", what, (unsigned long long)r.invocations,
                 (unsigned long long)r.per_vertex_sum);
    if (r.invocations != st.invocations)
        fail_msg("%s (%s, restart %d, %zu indices): lavapipe %llu invocations, model %llu", what,
                 gc_topology_name(d->topology), d->restart_enabled, d->index_count,
                 (unsigned long long)r.invocations, (unsigned long long)st.invocations);
    for (uint32_t v = 0; v <= max; ++v)
        if (measured[v] != predicted[v])
            fail_msg("%s: vertex %u: lavapipe %u, model %u", what, v, measured[v], predicted[v]);
    gc_per_vertex_free(&pv);
    free(measured);
    free(predicted);
}

static const gc_topology vulkan_topologies[] = {GC_POINT_LIST,     GC_LINE_LIST,      GC_LINE_STRIP,
                                                GC_TRIANGLE_LIST,  GC_TRIANGLE_STRIP, GC_TRIANGLE_FAN};

/* Random streams of every Vulkan topology, with and without restart, at sizes around
 * the 1024-index segment and its multiples, over small and large value ranges. */
static void test_random_draws(void** state)
{
    (void)state;
    if (!probe)
        skip();
    static const size_t sizes[] = {1, 2, 3, 7, 100, 1021, 1022, 1023, 1024, 1025, 1026, 1027,
                                   2045, 2046, 2047, 2048, 2049, 2050, 3071, 3072, 3073, 5000};
    static const uint32_t ranges[] = {4, 40, 300, 2000, 70000};
    uint64_t seed = 0x11ed;
    uint32_t* idx = malloc(6000 * sizeof *idx);
    assert_non_null(idx);
    for (size_t t = 0; t < sizeof vulkan_topologies / sizeof vulkan_topologies[0]; ++t) {
        gc_topology topo = vulkan_topologies[t];
        unsigned arity = gc_topology_arity(topo);
        for (int restart = 0; restart < 2; ++restart)
            for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si)
                for (size_t ri = 0; ri < sizeof ranges / sizeof ranges[0]; ++ri) {
                    size_t n = sizes[si];
                    int list = topo == GC_POINT_LIST || topo == GC_LINE_LIST || topo == GC_TRIANGLE_LIST;
                    if (list && !restart)
                        n -= n % arity; /* a list takes whole primitives */
                    if (n == 0)
                        continue;
                    size_t k = 0;
                    while (k < n) {
                        if (restart && k > 0 && test_random(&seed) % 97 == 0) {
                            idx[k++] = UINT32_MAX;
                            continue;
                        }
                        /* a list segment between restarts is written whole */
                        unsigned group = list && restart ? arity : 1;
                        if (k + group > n)
                            break;
                        for (unsigned g = 0; g < group; ++g)
                            idx[k++] = (uint32_t)(test_random(&seed) % ranges[ri]);
                    }
                    gc_draw d = {idx, k, topo, restart, UINT32_MAX};
                    char what[128];
                    snprintf(what, sizeof what, "random %s n=%zu range=%u", gc_topology_name(topo), k,
                             ranges[ri]);
                    check_draw(&d, 1, what);
                }
    }
    free(idx);
}

/* Long fans, strips and lists with heavy reuse: the segment splitting and the fan's
 * re-read first index must come out exactly. */
static void test_long_structured(void** state)
{
    (void)state;
    if (!probe)
        skip();
    const size_t n = 9000;
    uint32_t* idx = malloc(n * sizeof *idx);
    assert_non_null(idx);
    for (size_t t = 0; t < sizeof vulkan_topologies / sizeof vulkan_topologies[0]; ++t) {
        for (int pattern = 0; pattern < 3; ++pattern) {
            for (size_t i = 0; i < n; ++i)
                idx[i] = pattern == 0 ? (uint32_t)i : pattern == 1 ? (uint32_t)(i % 255) : (uint32_t)(i % 257);
            size_t k = n - n % gc_topology_arity(vulkan_topologies[t]);
            gc_draw d = {idx, k, vulkan_topologies[t], 0, 0};
            check_draw(&d, 1, pattern == 0 ? "sequential" : pattern == 1 ? "i mod 255" : "i mod 257");
        }
    }
    free(idx);
}

/* The output count does not change lavapipe's segments (its fetch table is keyed by
 * index, not sized by bytes): the model has no output parameter and must still hold. */
static void test_outputs(void** state)
{
    (void)state;
    if (!probe)
        skip();
    size_t n = gc_grid_index_count(60, 60, GC_GRID_ROWMAJOR, 0);
    uint32_t* idx = malloc(n * sizeof *idx);
    size_t written;
    gc_error err;
    assert_int_equal(gc_grid_generate(60, 60, GC_GRID_ROWMAJOR, 0, idx, &written, &err), GC_OK);
    gc_draw d = {idx, written, GC_TRIANGLE_LIST, 0, 0};
    check_draw(&d, 1, "grid, 1 output");
    check_draw(&d, gc_probe_info(probe)->max_outputs, "grid, max outputs");
    free(idx);
}

/* Every corpus mesh: as the triangle list it is (igea: the strip with restarts it is),
 * and its index stream read as points and as a triangle strip. */
static void test_corpus(void** state)
{
    (void)state;
    if (!probe)
        skip();
    const char* const* names = corpus_meshes_list;
    int found = 0;
    for (size_t i = 0; i < CORPUS_MESH_COUNT; ++i) {
        char path[1024];
        if (corpus_path(path, sizeof path, names[i]) != 0)
            continue;
        found++;
        gc_mesh mesh;
        gc_error err;
        gc_load_options lo = {0};
        if (gc_mesh_load(path, &lo, &mesh, &err) != GC_OK)
            fail_msg("%s", err.message);
        gc_draw d = {mesh.indices, mesh.index_count, mesh.topology, mesh.restart_enabled, mesh.restart_value};
        check_draw(&d, 1, names[i]);
        if (!mesh.restart_enabled) {
            d.topology = GC_POINT_LIST;
            check_draw(&d, 1, names[i]);
            d.topology = GC_TRIANGLE_STRIP;
            check_draw(&d, 1, names[i]);
        }
        gc_mesh_free(&mesh);
    }
    if (!found)
        skip();
}

int main(void)
{
    /* No device: the whole test reports skipped (CTest SKIP_RETURN_CODE 77), never passed. */
    open_probe(NULL);
    if (!probe) {
        printf("SKIPPED: no lavapipe Vulkan device (install mesa-vulkan-drivers)\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_draws),
        cmocka_unit_test(test_long_structured),
        cmocka_unit_test(test_outputs),
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, close_probe);
}
