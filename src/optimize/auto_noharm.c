// SPDX-License-Identifier: MIT
/* "Do no harm" (issue 33): at --effort 1 on a mesh of fewer than NOHARM_MAX_TRIANGLES
 * triangles, and at every effort on a grid (below NOHARM_GRID_MAX_TRIANGLES),
 * meshoptimizer's own order (its table, gc_opt_score_table with gc_meshopt_scores) is
 * computed too and counted under the targets, and kept where it costs less than the order
 * auto chose (that order among equals). So auto is never above meshoptimizer's order there,
 * under the targets' exact rules at the list's place.
 *
 * Where: the four presets together (the tuned Forsyth order, auto_fast.c) were above
 * meshoptimizer's order on spot (+0.21% / +0.26%, stored / shuffled), suzanne shuffled
 * (+0.83%) and on meshes subdivided once (suzanne, woody, cow, cheburashka: +0.03% to
 * +0.73%); no cheap trait of those meshes told them from the rows the tuned order wins
 * (docs/optimizers/auto.md, "Forsyth's lists at meshoptimizer's speed"). Lone targets
 * whose --effort 1 order was above it on small corpus meshes (teapot, suzanne) get it too
 * (no_harm_wanted). The size bound keeps the time of the largest meshes as it was
 * (the corpus' time is theirs, mostly): below it the extra order and the two counts cost
 * about once more meshoptimizer's time. docs/optimizers/auto.md, "Do no harm at --effort 1". */
#include "optimize.h"

#include <stdlib.h>
#include <string.h>

#define NOHARM_MAX_TRIANGLES 65536
#define NOHARM_LONE_SMALL_TRIANGLES 16384
/* Grids (a regular mesh or a triangulated grid with its borders, auto_regular.c), at every
 * effort and for every target, below this size: on a plain 300 x 300 grid (178,802
 * triangles) auto was above meshoptimizer's order at the default under direct-value:64
 * (+35.2% as stored, +4.5% shuffled), llvmpipe (+11.5% / +0.3%), amd-gcn (+3.6% / +0.7%) and
 * nvidia-pascal (+0.7% as stored), and at --effort 1 under 11 of the 17 bench targets (up
 * to +7.3%, ati-basic); nv-dx's --effort 1 on a 1M-triangle grid +5%. The extra order and
 * the counts cost about once more meshoptimizer's time; the bound keeps the largest lists'
 * time (the 4.3M-triangle igea, subdivided twice, is regular: none of its rows was above
 * meshoptimizer's order). */
#define NOHARM_GRID_MAX_TRIANGLES (1u << 22)

/* Whether the order auto chose for these targets at this effort is weighed against
 * meshoptimizer's: on a grid (above) below NOHARM_GRID_MAX_TRIANGLES; at --effort 1 also
 * below NOHARM_MAX_TRIANGLES for several targets, and for a lone target below
 * NOHARM_LONE_SMALL_TRIANGLES, unless its order already starts from meshoptimizer's and
 * keeps only what is cheaper under it (direct-position's window pass, batch's own pair,
 * nvidia-pascal's swaps between warps), or it has Kerbl et al.'s batches (nvidia-dx,
 * nvidia-gl: none of their 56 rows of the corpus and its once-subdivided copies was above
 * meshoptimizer's order, and their --effort 1 is the dearest: the pair took their corpus
 * mean from 1.08 to 1.23 times meshoptimizer's). */
static bool no_harm_wanted(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                           const gc_model* targets, size_t target_count, unsigned effort)
{
    if (triangle_count >= NOHARM_GRID_MAX_TRIANGLES || triangle_count < 2)
        return false;
    if (effort == 1 && triangle_count < NOHARM_MAX_TRIANGLES) {
        if (target_count > 1)
            return true;
        gc_family_traits t;
        gc_model_traits(&targets[0], &t);
        const bool starts_from_meshopt =
            targets[0].family == GC_MODEL_DIRECT_POSITION || targets[0].family == GC_MODEL_BATCH ||
            (t.warp_sum && t.piece_vertices >= 3) || targets[0].family == GC_MODEL_NV_DX ||
            targets[0].family == GC_MODEL_NV_GL;
        if (!starts_from_meshopt && triangle_count < NOHARM_LONE_SMALL_TRIANGLES)
            return true;
    }
    return gc_mesh_regular_or_grid(indices, triangle_count, vertex_count);
}

gc_status gc_auto_no_harm(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                          const gc_model* targets, size_t target_count, const gc_optimize_placement* placement,
                          unsigned effort, uint32_t* expanded, uint32_t* order, gc_error* err)
{
    if (!no_harm_wanted(indices, triangle_count, vertex_count, targets, target_count, effort))
        return GC_OK;
    uint32_t* other = gc_alloc_array(triangle_count, sizeof(uint32_t), false);
    if (!other)
        return gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for an order of %zu triangles", triangle_count);
    gc_status s = gc_opt_score_table(indices, triangle_count, vertex_count, &gc_meshopt_scores, other, err);
    if (s == GC_ERR_LIMIT || (!s && !memcmp(other, order, triangle_count * sizeof *order))) {
        /* a hub (meshoptimizer's order is not restated then), or the same order */
        free(other);
        return GC_OK;
    }
    gc_stream_place place = {placement->stream_position, placement->stream_length, NULL};
    bool value_keyed = false;
    for (size_t i = 0; i < target_count; ++i) {
        gc_family_traits t;
        gc_model_traits(&targets[i], &t);
        value_keyed |= t.value_keyed != 0;
    }
    if (!s && placement->first_use_numbering && value_keyed &&
        !(place.numbering = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof(uint32_t), false)))
        s = gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the numbering of %u vertices", vertex_count);
    uint64_t cost = UINT64_MAX;
    if (!s) {
        for (size_t t = 0; t < triangle_count; ++t)
            memcpy(expanded + 3 * t, indices + 3 * (size_t)order[t], 3 * sizeof *expanded);
        s = gc_auto_order_cost(expanded, 3 * triangle_count, vertex_count, targets, target_count, &place, &cost, NULL,
                               NULL, err);
    }
    if (!s)
        s = gc_auto_keep_if_better(indices, triangle_count, vertex_count, other, expanded, targets, target_count,
                                   &place, &cost, order, NULL, NULL, err);
    free(place.numbering);
    free(other);
    return s;
}
