// SPDX-License-Identifier: MIT
/* One reader that takes a file (.u16, .u32, .obj, .ply, .gltf, .glb: FUZZ_EXT names it),
 * through a file as users give it; the draw it loads must then validate or fail cleanly.
 * Built once per format by fuzz/CMakeLists.txt. */
#include "fuzz_util.h"
#include "gpucache_private.h"

/* glTF: also what optimize does in memory (nothing is written): each indexed triangle list
 * the document lets be rewritten gets its triangles in reverse order (a valid
 * permutation), then the vertex sets are reordered, with notes discarded. */
static void rewrite_gltf(const char* path)
{
    gc_gltf_options go = {0};
    go.max_indices = 1u << 22;
    gc_gltf* g = NULL;
    gc_error err;
    if (gc_gltf_load(path, &go, &g, &err) != GC_OK)
        return;
    for (size_t i = 0; i < gc_gltf_primitive_count(g); ++i) {
        const gc_gltf_primitive* p = gc_gltf_primitive_at(g, i);
        if (p->topology != GC_TRIANGLE_LIST || !p->index_bits || p->indices_kept || p->shares_indices_with != SIZE_MAX)
            continue;
        uint32_t* r = malloc((p->index_count ? p->index_count : 1) * sizeof *r);
        if (!r)
            abort();
        size_t n = p->index_count;
        for (size_t t = 0; t + 2 < n; t += 3)
            for (size_t k = 0; k < 3; ++k)
                r[n - 3 - t + k] = p->indices[t + k];
        /* its own values, reordered: refusing them would be a bug */
        if (gc_gltf_set_indices(g, i, r, n, &err) != GC_OK)
            abort();
        free(r);
    }
    gc_gltf_reorder_vertices(g, &err);
    gc_gltf_free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const char* path = fuzz_file(data, size, FUZZ_EXT);
    if (!strcmp(FUZZ_EXT, "gltf") || !strcmp(FUZZ_EXT, "glb"))
        rewrite_gltf(path);
    gc_mesh m;
    gc_error err;
    gc_load_options lo = {0};
    lo.max_indices = 1u << 22; /* keep single runs short; the limit path is exercised too */
    if (gc_mesh_load(path, &lo, &m, &err) == GC_OK) {
        gc_draw d = {m.indices, m.index_count, m.topology, m.restart_enabled, m.restart_value};
        uint64_t prims;
        gc_draw_validate(&d, path, &prims, &err);
        /* the heat map's positions: one per vertex id of that mesh, so every index (restarts
         * aside) has one */
        float* xyz = NULL;
        size_t count = 0;
        if (gc_mesh_load_positions(path, &lo, &xyz, &count, &err) == GC_OK) {
            for (size_t i = 0; i < m.index_count; ++i)
                if (m.indices[i] >= count && !(m.restart_enabled && m.indices[i] == m.restart_value))
                    abort();
            free(xyz);
        }
        gc_mesh_free(&m);
    }
    return 0;
}
