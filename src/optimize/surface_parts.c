// SPDX-License-Identifier: MIT
/* The largest part of a triangle list's surface: its triangles joined through shared
 * vertices (union-find over the vertices, halving the paths, the smaller set under the
 * larger). auto's lone defaults leave out some orders on large surfaces only
 * (gc_auto_lean's greedy_from and machine_from, gc_opt_auto_lone): a mesh made of many small
 * parts is served as its parts are (docs/optimizers/auto.md, "The lone defaults on large
 * surfaces"). */
#include "optimize.h"

#include <stdlib.h>

static uint32_t root_of(uint32_t* parent, uint32_t v)
{
    while (parent[v] != v) {
        parent[v] = parent[parent[v]];
        v = parent[v];
    }
    return v;
}

static void join(uint32_t* parent, uint32_t* size, uint32_t a, uint32_t b)
{
    a = root_of(parent, a), b = root_of(parent, b);
    if (a == b)
        return;
    if (size[a] < size[b]) {
        uint32_t t = a;
        a = b, b = t;
    }
    parent[b] = a;
    size[a] += size[b];
}

size_t gc_largest_surface_part(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count)
{
    if (triangle_count >= UINT32_MAX) /* (the counts below are 32-bit) */
        return triangle_count;
    uint32_t* parent = gc_alloc_array((size_t)vertex_count + 1, sizeof(uint32_t), false);
    uint32_t* size = gc_alloc_array((size_t)vertex_count + 1, sizeof(uint32_t), false);
    size_t largest = 0;
    if (!parent || !size) /* none: every order is kept */
        goto done;
    for (uint32_t v = 0; v < vertex_count; ++v)
        parent[v] = v, size[v] = 1;
    for (size_t t = 0; t < triangle_count; ++t) {
        const uint32_t* tv = indices + 3 * t;
        join(parent, size, tv[0], tv[1]);
        join(parent, size, tv[0], tv[2]);
    }
    /* the triangles of each part, counted at its root (`size` reused) */
    for (uint32_t v = 0; v < vertex_count; ++v)
        size[v] = 0;
    for (size_t t = 0; t < triangle_count; ++t) {
        const uint32_t r = root_of(parent, indices[3 * t]);
        size[r]++;
        largest = size[r] > largest ? size[r] : largest;
    }
done:
    free(parent);
    free(size);
    return largest;
}
