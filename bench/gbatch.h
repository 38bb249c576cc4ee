// SPDX-License-Identifier: MIT
/* gbatch: Kerbl et al.'s batch-aware greedy optimizer (HPG 2018), rewritten for the
 * benchmarks from its description and its published code and weights
 * (GPUPeople/vertex_batch_optimization, sceneprocessor/source/layers/GBatchOptimizer.cpp,
 * weights in SceneProcessor.cpp:122-139). A comparison point only: not part of the
 * library (bench/gbatch.c). */
#ifndef GPUCACHE_BENCH_GBATCH_H
#define GPUCACHE_BENCH_GBATCH_H

#include <stddef.h>
#include <stdint.h>

/* Which of their batch simulations the optimizer plans with (BatchSimulationParameters.h). */
typedef enum gbatch_rule { GBATCH_NV_DX, GBATCH_NV_GL, GBATCH_ALL, GBATCH_ATI } gbatch_rule;

typedef struct gbatch_params {
    gbatch_rule rule;
    uint32_t max_indices;  /* BatchIndices (ATI: also its HardReset) */
    uint32_t max_vertices; /* BatchVertices */
    uint32_t window;       /* NV_GL's window */
    uint32_t lru;          /* ATI's LRU entries (at most 64 here) */
    /* the score weights, GBatchOptimizer(..., CacheWeight, ValenceWeight, DistanceWeight,
       BatchNeighborWeight, FinPointMultiplier) */
    int32_t cache_w, valence_w, distance_w, neighbor_w, finpoint_w;
} gbatch_params;

/* The parameters of SceneProcessor.cpp's "gbatch" (NV_DX), "gbatch.intel" and "gbatch.amd"
 * for a gpucache spec of the matching family (nv-dx, nv-gl, batch-all, ati); 0 if the spec
 * is of another family. */
int gbatch_params_for(const char* family, const uint32_t* p, gbatch_params* out);

/* Writes the reordered triangle list (n indices, a triangle list of ids below `vertices`)
 * to out. Returns 0, or -1 when out of memory. */
int gbatch_order(const uint32_t* idx, size_t n, uint32_t vertices, const gbatch_params* params, uint32_t* out);

#endif
