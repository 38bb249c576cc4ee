// SPDX-License-Identifier: MIT
/* Every model and every optimizer on arbitrary index buffers and topologies, checking the
 * invariants: each model's invocations are at least the distinct vertices its primitives
 * reference and equal to its per-vertex sum, and equal, with the per-vertex counts and the
 * batches and resets, to what the model's state machine (gc_analyze_sim) counts; each
 * optimizer's output is a reordering of its input triangles (checked here again,
 * independently of the library's own check), auto's for a lone target of any family too. */
#include "gpucache_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Small and odd parameters of the built-in families, besides every family's example from
 * the family table (spec_at), so that a family added to the table is fuzzed too. */
static const char* const specs[] = {
    "fifo:1",      "fifo:16",      "lru:3",          "lru:16",         "direct-value:7", "direct-position:5",
    "nvidia",      "nvidia:size=3,idle=1,life=2",    "meshopt:3,0,0",  "meshopt:16,32,32", "meshopt:14,64,128",
    "reuse:3,1,1", "reuse:32,16,32", "batch",        "batch:slots=4,prims=2", "llvmpipe", "llvmpipe:segment=8,map=3",
};

#define SPEC_COUNT (sizeof specs / sizeof specs[0])

/* Spec i of SPEC_COUNT + gc_family_count(): the list above, then each family's example. */
static const char* spec_at(size_t i)
{
    return i < SPEC_COUNT ? specs[i] : gc_family_get(i - SPEC_COUNT)->example;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 2)
        return 0;
    gc_topology topology = (gc_topology)(data[0] % GC_TOPOLOGY_COUNT);
    int restart = data[1] & 1;
    uint32_t range = 1u + (data[1] >> 1) * 4u; /* small value ranges give reuse */
    size_t n = (size - 2) / 2;
    if (n > 4096)
        n = 4096;
    uint32_t* idx = malloc((n ? n : 1) * sizeof *idx);
    for (size_t i = 0; i < n; ++i) {
        uint16_t v = (uint16_t)(data[2 + 2 * i] | data[3 + 2 * i] << 8);
        idx[i] = (restart && v == 0xFFFF) ? UINT32_MAX : (v == 0xFFFE ? 4000000000u : v % range);
    }
    gc_draw d = {idx, n, topology, restart, UINT32_MAX};
    gc_error err;
    uint64_t prims;
    if (gc_draw_validate(&d, "fuzz", &prims, &err) != GC_OK) {
        free(idx);
        return 0;
    }
    const size_t spec_count = SPEC_COUNT + gc_family_count();
    for (size_t s = 0; s < spec_count; ++s) {
        gc_model m;
        if (gc_model_parse(spec_at(s), &m, &err) != GC_OK)
            abort();
        gc_per_vertex pv = {0};
        gc_analyze_options o = {0};
        o.per_vertex = &pv;
        gc_stats st;
        if (gc_analyze(&m, &d, &o, &st, &err) != GC_OK)
            continue; /* e.g. a warp smaller than a primitive */
        uint64_t sum = 0;
        for (size_t i = 0; i < pv.count; ++i)
            sum += pv.counts[i];
        if (sum != st.invocations || st.invocations < st.vertices)
            abort();
        /* the fast loop against the state machine, where the values are dense enough */
        uint32_t largest = 0;
        for (size_t i = 0; i < n; ++i)
            if (!(restart && idx[i] == UINT32_MAX))
                largest = idx[i] > largest ? idx[i] : largest;
        gc_sim* sim = NULL;
        if (largest < 1u << 16 && gc_sim_create(&m, largest + 1, NULL, &sim, &err) == GC_OK) {
            gc_per_vertex spv = {0};
            gc_analyze_options so = {0};
            so.per_vertex = &spv;
            gc_stats sst;
            if (gc_analyze_sim(sim, &d, &so, &sst, &err) != GC_OK)
                abort();
            if (sst.invocations != st.invocations || sst.batches != st.batches || sst.resets != st.resets ||
                spv.count != pv.count)
                abort();
            for (size_t i = 0; i < pv.count; ++i)
                if (spv.values[i] != pv.values[i] || spv.counts[i] != pv.counts[i])
                    abort();
            gc_per_vertex_free(&spv);
            gc_sim_destroy(sim);
        }
        gc_per_vertex_free(&pv);
    }
    /* optimizers on the triangles the draw makes */
    if (topology != GC_POINT_LIST && topology != GC_LINE_LIST && topology != GC_LINE_STRIP &&
        topology != GC_LINE_LOOP) {
        size_t cap = (size_t)prims * 6 + 1, tn = 0;
        uint32_t* tri = malloc(cap * sizeof *tri);
        uint32_t* out = malloc(cap * sizeof *out);
        if (gc_draw_triangles(&d, tri, cap, &tn, &err) == GC_OK && tn) {
            uint32_t vertices = 0;
            for (size_t i = 0; i < tn; ++i)
                vertices = tri[i] + 1 > vertices ? tri[i] + 1 : vertices;
            if (vertices <= 1u << 20)
                for (int a = 0; a < GC_OPT_COUNT; ++a) {
                    gc_optimize_options oo = {0};
                    oo.cache_size = 4 + data[0] % 60;
                    oo.effort = 1 + (data[1] >> 7); /* half the inputs take auto's local search */
                    if (gc_optimize((gc_optimizer)a, tri, tn, vertices, &oo, out, &err) != GC_OK)
                        abort(); /* valid triangles must always optimize */
                    if (gc_check_permutation(tri, out, tn, vertices, &err) != GC_OK)
                        abort();
                }
            /* auto for a lone target of any family (patches, llvmpipe's polish, numbering), at the
             * default effort or effort 1 */
            if (vertices <= 1u << 20) {
                gc_model target;
                if (gc_model_parse(spec_at(data[0] % spec_count), &target, &err) != GC_OK)
                    abort();
                gc_optimize_options oo = {0};
                oo.targets = &target;
                oo.target_count = 1;
                oo.effort = (data[1] >> 3) & 1; /* half at --effort 1 (its greedy driving the machine) */
                gc_optimize_placement place = {0};
                place.first_use_numbering = data[1] & 2;
                place.stream_position = 3 * (size_t)(data[1] % 5);
                place.stream_length = place.stream_position + tn + 3 * (size_t)(data[0] % 3);
                gc_status r = gc_optimize_placed(GC_OPT_AUTO, tri, tn, vertices, &oo, &place, out, &err);
                if (r != GC_OK && r != GC_ERR_USAGE) /* usage: a warp smaller than a triangle */
                    abort();
                if (r == GC_OK && gc_check_permutation(tri, out, tn, vertices, &err) != GC_OK)
                    abort();
            }
            /* auto for one warp model whose cache holds the warp: its swaps between warps */
            if (vertices <= 1u << 20) {
                char spec[64];
                unsigned warp = 3 + data[0] % 40;
                snprintf(spec, sizeof spec, "meshopt:%u,%u,%u", warp + data[1] % 8, warp, 1 + data[1] % 40);
                gc_model target;
                if (gc_model_parse(spec, &target, &err) != GC_OK)
                    abort();
                gc_optimize_options oo = {0};
                oo.targets = &target;
                oo.target_count = 1;
                if (gc_optimize(GC_OPT_AUTO, tri, tn, vertices, &oo, out, &err) != GC_OK)
                    abort();
                if (gc_check_permutation(tri, out, tn, vertices, &err) != GC_OK)
                    abort();
            }
        }
        free(tri);
        free(out);
    }
    free(idx);
    return 0;
}
