// SPDX-License-Identifier: MIT
/* The mesh pipeline (gc_mesh_analyze, gc_mesh_optimize) on hostile input. The first byte
 * picks the input: odd, the rest is a file (.glb: a GLB, or glTF JSON by the content),
 * analyzed and reordered in its document as `gpucache optimize` does; even, the rest is a
 * draw (topology, runs, 16-bit indices, some scaled up to make them sparse) reordered by
 * one of the optimizers. What succeeds must hold: the sums are the draws' sums, and the
 * output is a permutation of the input's triangles. */
#include "fuzz_util.h"
#include "gpucache_private.h"

static void on_file(const uint8_t* data, size_t size, int flags)
{
    const char* path = fuzz_file(data, size, "glb");
    gc_model models[2];
    gc_error err;
    if (gc_model_parse("fifo:4", &models[0], &err) || gc_model_parse("llvmpipe", &models[1], &err))
        abort();
    gc_load_options lo = {0};
    lo.max_indices = 1u << 20;
    gc_mesh_analysis a;
    if (gc_mesh_analyze(path, &lo, models, 2, 1, &a, &err) == GC_OK) {
        for (size_t m = 0; m < 2; ++m) {
            uint64_t sum = 0;
            for (size_t i = 0; i < a.draw_count; ++i)
                sum += a.draws[i].stats[m].invocations;
            if (sum != a.sums[m].invocations)
                abort();
        }
        gc_mesh_analysis_free(&a);
    }
    gc_mesh_optimize_options o = {0};
    o.algorithm = (gc_optimizer)(flags % 3);
    o.reorder_vertices = flags & 4;
    o.mesh_lists = flags & 8;
    o.load = &lo;
    o.report = models;
    o.report_count = 2;
    gc_mesh_optimized r;
    if (gc_mesh_optimize(path, NULL, NULL, 0, &o, &r, &err) == GC_OK) {
        if (r.input && r.indices && gc_check_permutation(r.input, r.indices, r.index_count, UINT32_MAX, &err))
            abort();
        gc_mesh_optimized_free(&r);
    }
}

static void on_draw(const uint8_t* data, size_t size, int flags)
{
    if (size < 2)
        return;
    gc_topology topology = (gc_topology)(data[0] % GC_TOPOLOGY_COUNT);
    size_t run_count = data[1] % 4;
    data += 2, size -= 2;
    size_t runs[3] = {0};
    for (size_t k = 0; k < run_count && size; ++k, ++data, --size)
        runs[k] = data[0] % 16;
    size_t n = size / 2;
    uint32_t* idx = malloc((n ? n : 1) * sizeof *idx);
    if (!idx)
        abort();
    for (size_t i = 0; i < n; ++i) {
        uint32_t v = (uint32_t)data[2 * i] | (uint32_t)data[2 * i + 1] << 8;
        idx[i] = v & 0x8000 ? (v & 0x7fff) * 4099u : v; /* sparse values too */
    }
    gc_draw d = {idx, n, topology, flags & 16, 0xFFFF};
    gc_model target;
    gc_error err;
    if (gc_model_parse(flags & 32 ? "llvmpipe" : "direct-value:8", &target, &err))
        abort();
    gc_mesh_optimize_options o = {0};
    o.algorithm = (gc_optimizer)(flags % 3);
    o.optimize.targets = &target;
    o.optimize.target_count = 1;
    o.reorder_vertices = flags & 4;
    o.vertex_map = flags & 8;
    o.report = &target;
    o.report_count = 1;
    gc_mesh_optimized r;
    if (gc_mesh_optimize(NULL, &d, run_count ? runs : NULL, run_count, &o, &r, &err) == GC_OK) {
        if (gc_check_permutation(r.input, r.indices, r.index_count, UINT32_MAX, &err))
            abort();
        gc_mesh_optimized_free(&r);
    }
    free(idx);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 2)
        return 0;
    if (data[0] & 1)
        on_file(data + 2, size - 2, data[1]);
    else
        on_draw(data + 2, size - 2, data[1]);
    return 0;
}
