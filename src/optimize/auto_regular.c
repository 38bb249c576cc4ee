// SPDX-License-Identifier: MIT
/* Whether a mesh is a regular grid almost everywhere (issue 33): at least
 * REGULAR_SHARE_PERCENT of its used vertices in exactly 6 triangle corners, as a finely
 * subdivided surface is (each triangle cut into four at its edge midpoints: the midpoints
 * have 6). auto's tuned Forsyth table (score_table.c, gc_auto_tuned_scores) was trained on
 * the corpus, whose meshes have at most 84% of such vertices; on the corpus meshes
 * subdivided twice (98% to 99%) it orders worse than meshoptimizer's own table, for the four
 * presets together: ogre +0.65%, stanford-bunny +0.69%, igea (4.3M triangles) +0.63%
 * against meshoptimizer's order; on a plain grid with every quad cut along the same
 * diagonal, +8.7% (100 x 100 vertices) to +12.3% (1000 x 1000). `--effort 1` for several targets runs meshoptimizer's
 * table order there instead (auto_fast.c; docs/optimizers/auto.md). One pass over the
 * indices and a byte per vertex; false when that byte cannot be had (the caller then keeps
 * its usual order). */
#include "optimize.h"

#include <stdlib.h>

#define REGULAR_SHARE_PERCENT 95

bool gc_mesh_regular(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count)
{
    if (triangle_count == 0 || vertex_count == 0)
        return false;
    unsigned char* corners = gc_alloc_array(vertex_count, 1, true); /* per vertex, saturating at 255 */
    if (!corners)
        return false;
    for (size_t i = 0; i < 3 * triangle_count; ++i) {
        unsigned char* n = &corners[indices[i]];
        *n = (unsigned char)(*n + (*n < 255));
    }
    size_t used = 0, six = 0;
    for (uint32_t v = 0; v < vertex_count; ++v) {
        used += corners[v] != 0;
        six += corners[v] == 6;
    }
    free(corners);
    return six * 100 >= used * REGULAR_SHARE_PERCENT;
}
