// SPDX-License-Identifier: MIT
/* Renumbering vertices in order of first use (gc_reorder_vertices): the writers do it
 * for --reorder-vertices, after any optimizer, so it sits below both. */
#include "internal.h"

gc_status gc_reorder_vertices(uint32_t* indices, size_t index_count, uint32_t vertex_count, uint32_t* remap,
                              uint32_t* used, gc_error* err)
{
    for (size_t i = 0; i < index_count; ++i)
        if (indices[i] >= vertex_count)
            return gc_fail(err, GC_ERR_DATA, "reorder vertices: index %zu is %u, not below %u", i, indices[i],
                           vertex_count);
    for (uint32_t v = 0; v < vertex_count; ++v)
        remap[v] = UINT32_MAX;
    uint32_t next = 0;
    for (size_t i = 0; i < index_count; ++i) {
        uint32_t v = indices[i];
        if (remap[v] == UINT32_MAX)
            remap[v] = next++;
        indices[i] = remap[v];
    }
    *used = next;
    return GC_OK;
}
