// SPDX-License-Identifier: MIT
/* The vendor presets (specs are parsed in families.c, from the family table); and the
 * helpers the families' fast loops share (gc_run_check_unchecked, gc_run_scattered). */
#include "models.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Presets: name, spec, and where the numbers come from (docs/models/presets.md). */
static const struct {
    const char* name;
    const char* spec;
    const char* source;
} presets[] = {
    {"intel", "fifo:128", "seed 001: Intel Haswell iterates indices in order through a 128-entry FIFO"},
    {"nvidia-kepler", "nvidia", "seed 000: NVIDIA rules found by probing (32 entries, reset on overflow, lifetimes)"},
    {"nvidia-pascal", "meshopt:32,32,32", "meshoptimizer 0.18 demo: NVidia parameters of meshopt_analyzeVertexCache"},
    {"nvidia-maxwell", "meshopt:16,32,32", "meshopt analyzer with a 16-entry window in 32-vertex warps (Maxwell)"},
    {"amd-gcn", "meshopt:14,64,128", "meshoptimizer 0.18 demo: AMD parameters of meshopt_analyzeVertexCache"},
    {"generic", "fifo:16", "a 16-entry FIFO, the usual textbook target (Forsyth, Tipsify papers)"},
    /* Kerbl, Kenzel, Ivanchenko, Schmalstieg, Steinberger, "Revisiting The Vertex Cache" (HPG
       2018): their simulator's table, GPUPeople/vertex_batch_optimization
       sceneprocessor/source/layers/BatchSimulationParameters.h (BSP), commit 46332cd. */
    {"nvidia-dx", "nv-dx",
     "Kerbl et al. HPG 2018 (BSP:20,38-46 NV_DX): NVIDIA (GTX 1080 Ti measured) under Direct3D, 96/32 batches"},
    {"nvidia-gl", "nv-gl",
     "Kerbl et al. HPG 2018 (BSP:22,47-55 NV_GL): NVIDIA under OpenGL, 96/32 batches, 42-index window"},
    /* Measured by this project (docs/models/nvidia-h100.md, data/measurements/nvidia-h100/):
       Kerbl's NV_GL rule exact on every triangle case and corpus buffer, with the cache
       emptied at each change of an index's 65536-value page, found by seed 000's probing. */
    {"nvidia-h100", "nv-gl:indices=96,vertices=32,window=42,page=16",
     "measured here (NVIDIA H100, Vulkan, driver 580.159.04): Kerbl's NV_GL batches, emptied when index >> 16 changes"},
    {"ati-basic", "ati",
     "Kerbl et al. HPG 2018 (BSP:24,56-64 ATI_BASIC): AMD GCN (R7 200 measured), LRU 15, 384-index resets"},
    {"intel-lower-bound", "batch-all",
     "Kerbl et al. HPG 2018 (BSP:26,65-73 INTEL_LOWER_BOUND): Intel, 1791/128 batches, full reuse (a bound)"},
    {"cure-warp", "batch-all:indices=96,vertices=32",
     "Kerbl et al. HPG 2018 (BSP:28,75-83 CURE warp): a software pipeline's 96/32 warps, full reuse"},
    {"cure-block", "batch-all:indices=1023,vertices=256",
     "Kerbl et al. HPG 2018 (BSP:30,85-93 CURE block): a software pipeline's 1023/256 blocks, full reuse"},
    /* Mesa radeonsi, si_state_shaders.c polaris_set_vgt_vertex_reuse() (VTX_REUSE_DEPTH 30 on
       Polaris and later GFX8/GFX9, 14 for a TES with fractional_odd spacing) and
       si_state_draw.c si_get_ia_multi_vgt_param() (primgroup_size = 128 without GS or
       tessellation: 384 indices of a triangle list) — ATI_BASIC's rule at that depth. */
    {"radeonsi-polaris", "ati:lru=30,vertices=64,reset=384",
     "Mesa radeonsi: VTX_REUSE_DEPTH 30 (Polaris..Vega), primitive groups of 128, on Kerbl's ATI rule"},
    {"radeonsi-polaris-tess-odd", "ati:lru=14,vertices=64,reset=384",
     "Mesa radeonsi: VTX_REUSE_DEPTH 14 for fractional_odd tessellation, groups of 128, Kerbl's ATI rule"},
    /* Issue 32: the rule that reproduces seed 002's AMD grid points (docs/models/validation.md):
       a FIFO of radeonsi's pre-Polaris VTX_REUSE_DEPTH 14, emptied every 256 triangles (the
       one parameter fitted on those two points; Kerbl's R7 200 resets every 128). */
    {"amd-seed002", "meshopt:14,0,256",
     "seed 002's AMD points (striped 8, 1.21; tipsify 16, 1.25): FIFO 14 (radeonsi's depth), reset each 256 triangles (fitted)"},
};

size_t gc_preset_count(void)
{
    return sizeof presets / sizeof presets[0];
}

void gc_preset_get(size_t i, const char** name, const char** spec, const char** source)
{
    if (i >= gc_preset_count()) {
        *name = *spec = *source = NULL;
        return;
    }
    *name = presets[i].name;
    *spec = presets[i].spec;
    *source = presets[i].source;
}

/* ------------------------------------------- helpers of the families' fast loops */

gc_status gc_run_check_unchecked(const gc_run* run, const uint32_t* state, size_t state_size, bool stopped,
                                 gc_error* err)
{
    for (size_t i = run->vertex_count; !stopped && i < state_size; ++i)
        stopped = state[i] != 0;
    if (!stopped)
        return GC_OK;
    for (size_t i = 0; i < run->draw.index_count; ++i)
        if (run->draw.indices[i] >= run->vertex_count)
            return gc_fail(err, GC_ERR_DATA, "index %zu is %u, not below the vertex count %u", i,
                           run->draw.indices[i], run->vertex_count);
    return gc_fail(err, GC_ERR_DATA, "an index is not below the vertex count %u", run->vertex_count);
}

bool gc_run_scattered(const gc_run* run)
{
    /* Below this many vertices the state (4 bytes each) stays in the core's own caches. */
    if (run->vertex_count < (1u << 16))
        return false;
    const gc_draw* d = &run->draw;
    const size_t samples = 256, places = 4;
    if (d->index_count < 2 * samples * places)
        return false;
    /* An index is far when it is more than 1024 ids (64 cache lines of stamps) from each of
     * the 8 before it: a grid's row above is near the previous triangle's, however wide the
     * grid, where a shuffled draw's indices are near none of the recent ones. */
    const size_t window = 8;
    size_t far = 0;
    for (size_t p = 0; p < places; ++p) {
        const uint32_t* at = d->indices + d->index_count / places * p;
        for (size_t i = window; i < samples; ++i) {
            bool near = false;
            for (size_t k = 1; k <= window; ++k) {
                uint32_t a = at[i - k], b = at[i];
                near |= (a > b ? a - b : b - a) <= 1024;
            }
            far += !near;
        }
    }
    return far * 4 > (samples - window) * places; /* more than a quarter of the steps jump */
}
