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
 * its usual order).
 *
 * gc_mesh_regular_or_grid (issue 33, the presets' --effort 1 on teapot and the
 * once-subdivided meshes) also tells a triangulated grid with its borders: at least GRID_SHARE_PERCENT of the used
 * vertices with 6 corners (inside) or 3 (on a border, as a grid's are: teapot, 96%), fewer than
 * SPLIT_SHARE_PERCENT with 4 or 8 (the vertices of quads cut along alternating diagonals,
 * where the tuned table orders better than meshoptimizer's: ogre subdivided once, 3.9%, tuned
 * -1.16% against meshoptimizer, which the share alone would have picked on the held-out half;
 * the alternating grids of the regular-grid measurements), from GRID_MIN_TRIANGLES
 * triangles (the rows measured here have 5,068 triangles or more; smaller meshes keep the
 * tuned order as before). The share was chosen on the even half
 * of the corpus (alligator, cheburashka, fandisk, igea, rocker-arm, stanford-bunny, teapot)
 * and its once-subdivided copies, stored and shuffled: every row at 91.4% or more was above
 * meshoptimizer's order under the tuned table (+0.07% to +2.07%), every row at 88.8% or less
 * below it but one (+0.05%). On the whole corpus and its once-subdivided copies (56 rows)
 * it picks, besides the 4 that were regular already (fandisk and homer subdivided once), 10
 * rows, each above meshoptimizer's order under the tuned order (teapot +0.92%/+0.89% as
 * stored and shuffled; subdivided once: teapot +2.07%/+1.82%, spot +0.70%/+0.70%, bunny
 * +0.34%/+0.23%, igea +0.22%/+0.07%), now 0.00%, and none that was below (bench_speed, the
 * presets' --effort 1: the corpus mean -0.56% to -0.63%, subdivided once +0.14% to -0.08%). */
#include "optimize.h"

#include <stdlib.h>
#include <string.h>

#define REGULAR_SHARE_PERCENT 95
#define GRID_SHARE_PERCENT 90
#define SPLIT_SHARE_PERCENT 2
#define GRID_MIN_TRIANGLES 4096

/* The used vertices, and those with 3, 4, 6 and 8 corners; false when out of memory. */
typedef struct corner_counts {
    size_t used, three, four, six, eight;
} corner_counts;

static bool count_corners(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count, corner_counts* k)
{
    memset(k, 0, sizeof *k);
    if (triangle_count == 0 || vertex_count == 0)
        return false;
    unsigned char* corners = gc_alloc_array(vertex_count, 1, true); /* per vertex, saturating at 255 */
    if (!corners)
        return false;
    for (size_t i = 0; i < 3 * triangle_count; ++i) {
        unsigned char* n = &corners[indices[i]];
        *n = (unsigned char)(*n + (*n < 255));
    }
    for (uint32_t v = 0; v < vertex_count; ++v) {
        k->used += corners[v] != 0;
        k->three += corners[v] == 3;
        k->four += corners[v] == 4;
        k->six += corners[v] == 6;
        k->eight += corners[v] == 8;
    }
    free(corners);
    return true;
}

static bool regular(const corner_counts* k)
{
    return k->six * 100 >= k->used * REGULAR_SHARE_PERCENT;
}

bool gc_mesh_regular(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count)
{
    corner_counts k;
    return count_corners(indices, triangle_count, vertex_count, &k) && regular(&k);
}

bool gc_mesh_regular_or_grid(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count)
{
    corner_counts k;
    if (!count_corners(indices, triangle_count, vertex_count, &k))
        return false;
    const bool grid = triangle_count >= GRID_MIN_TRIANGLES &&
                      (k.three + k.six) * 100 >= k.used * GRID_SHARE_PERCENT &&
                      (k.four + k.eight) * 100 < k.used * SPLIT_SHARE_PERCENT;
    return regular(&k) || grid;
}
