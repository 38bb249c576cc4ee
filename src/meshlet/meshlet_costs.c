// SPDX-License-Identifier: MIT
/* Meshlet costs of an index buffer as it is (issue 31 item 2; docs/models/meshlets.md):
 * the meshlets a scan cuts, and the vendors' presets analyze reports them under. */
#include "../internal.h"

#include <stdlib.h>
#include <string.h>

static const gc_meshlet_preset presets[] = {
    {"nvidia", 64, 126,
     "C. Kubisch, \"Introduction to Turing Mesh Shaders\", NVIDIA Technical Blog, 2018: up to 64 vertices and 126 "
     "primitives"},
};

size_t gc_meshlet_preset_count(void)
{
    return sizeof presets / sizeof presets[0];
}

const gc_meshlet_preset* gc_meshlet_preset_at(size_t i)
{
    return i < gc_meshlet_preset_count() ? &presets[i] : NULL;
}

gc_status gc_meshlet_costs_of(const uint32_t* indices, size_t index_count, uint32_t vertex_count,
                              uint32_t max_vertices, uint32_t max_triangles, gc_meshlet_costs* out, gc_error* err)
{
    if (!out || (!indices && index_count))
        return gc_fail(err, GC_ERR_USAGE, "meshlet costs: no output or indices");
    if (max_vertices < 3 || max_vertices > GC_MESHLET_MAX_VERTICES || max_triangles < 1 ||
        max_triangles > GC_MESHLET_MAX_TRIANGLES)
        return gc_fail(err, GC_ERR_USAGE, "meshlet costs: limits %u/%u out of range [3, %u] / [1, %u]", max_vertices,
                       max_triangles, GC_MESHLET_MAX_VERTICES, GC_MESHLET_MAX_TRIANGLES);
    if (index_count > GC_MAX_INDICES)
        return gc_fail(err, GC_ERR_LIMIT, "meshlet costs: %zu indices is more than %zu", index_count, GC_MAX_INDICES);
    if (index_count % 3)
        return gc_fail(err, GC_ERR_USAGE, "meshlet costs: %zu indices is not whole triangles", index_count);
    if ((uint64_t)vertex_count > 2 * (uint64_t)index_count + 65536)
        return gc_fail(err, GC_ERR_LIMIT, "meshlet costs: %u vertices for %zu indices (renumber sparse values)",
                       vertex_count, index_count);
    for (size_t i = 0; i < index_count; ++i)
        if (indices[i] >= vertex_count)
            return gc_fail(err, GC_ERR_DATA, "meshlet costs: index %zu is %u, not below the vertex count %u", i,
                           indices[i], vertex_count);
    uint32_t* slot = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof *slot, true);
    if (!slot)
        return gc_fail(err, GC_ERR_NOMEM, "meshlet costs: out of memory for %u vertices", vertex_count);
    memset(out, 0, sizeof *out);
    out->max_vertices = max_vertices;
    out->max_triangles = max_triangles;
    /* slot[v]: the meshlet number + 1 that last took v; a meshlet is closed when the next
       triangle would bring a (V+1)th vertex or a (T+1)th triangle */
    uint32_t stamp = 0, fill = 0, count = 0;
    for (size_t t = 0; t < index_count / 3; ++t) {
        const uint32_t* c = indices + 3 * t;
        unsigned fresh = 0;
        for (unsigned j = 0; j < 3; ++j)
            fresh += slot[c[j]] != stamp && (j < 1 || c[j] != c[0]) && (j < 2 || c[j] != c[1]);
        if (stamp == 0 || count == max_triangles || fill + fresh > max_vertices) {
            /* numbers wrap only after 2^32 - 1 meshlets: more than GC_MAX_INDICES allows */
            stamp++;
            out->meshlets++;
            fill = count = 0;
            fresh = 1 + (c[1] != c[0]) + (c[2] != c[0] && c[2] != c[1]);
        }
        for (unsigned j = 0; j < 3; ++j)
            slot[c[j]] = stamp;
        fill += fresh;
        count++;
        out->meshlet_vertices += fresh;
    }
    free(slot);
    out->triangles = index_count / 3;
    if (out->triangles) {
        out->vertices_per_triangle = (double)out->meshlet_vertices / (double)out->triangles;
        out->vertex_fill = (double)out->meshlet_vertices / ((double)out->meshlets * max_vertices);
        out->triangle_fill = (double)out->triangles / ((double)out->meshlets * max_triangles);
    }
    return GC_OK;
}
