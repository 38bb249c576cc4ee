// SPDX-License-Identifier: MIT
/* The vertex-triangle adjacency and the live-triangle lists that every optimizer
 * builds on (see optimize.h). */
#include "optimize.h"

#include <stdlib.h>
#include <string.h>

gc_status gc_adjacency_build(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                             gc_adjacency* out, gc_error* err)
{
    memset(out, 0, sizeof *out);
    out->offsets = gc_alloc_array((size_t)vertex_count + 1, sizeof(uint32_t), true);
    out->triangles = gc_alloc_array(triangle_count * 3 + 1, sizeof(uint32_t), false);
    if (!out->offsets || !out->triangles) {
        gc_adjacency_free(out);
        return gc_fail(err, GC_ERR_NOMEM, "out of memory building the vertex adjacency of %zu triangles",
                       triangle_count);
    }
    gc_adjacency_fill(indices, triangle_count, vertex_count, out->offsets, out->triangles);
    return GC_OK;
}

void gc_adjacency_fill(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count, uint32_t* offsets,
                       uint32_t* triangles)
{
    /* Count, prefix-sum to each list's end, then fill backwards: offsets[v] ends as the
     * start of v's list, and each list is in triangle order, corner by corner. */
    for (size_t i = 0; i < triangle_count * 3; ++i)
        offsets[indices[i]]++;
    uint32_t end = 0;
    for (uint32_t v = 0; v < vertex_count; ++v) {
        end += offsets[v];
        offsets[v] = end;
    }
    offsets[vertex_count] = end;
    for (size_t t = triangle_count; t-- > 0;) {
        const uint32_t* tv = indices + 3 * t;
        triangles[--offsets[tv[2]]] = (uint32_t)t;
        triangles[--offsets[tv[1]]] = (uint32_t)t;
        triangles[--offsets[tv[0]]] = (uint32_t)t;
    }
}

void gc_adjacency_free(gc_adjacency* a)
{
    free(a->offsets);
    free(a->triangles);
    a->offsets = a->triangles = NULL;
}

gc_status gc_live_triangles_init(gc_live_triangles* lt, const uint32_t* indices, size_t triangle_count,
                                 uint32_t vertex_count, gc_error* err)
{
    memset(lt, 0, sizeof *lt);
    gc_status s = gc_adjacency_build(indices, triangle_count, vertex_count, &lt->adj, err);
    if (s)
        return s;
    lt->live = gc_alloc_array((size_t)vertex_count + 1, sizeof(uint32_t), false);
    lt->slot = gc_alloc_array(triangle_count * 3 + 1, sizeof(uint32_t), false);
    if (!lt->live || !lt->slot) {
        gc_live_triangles_free(lt);
        return gc_fail(err, GC_ERR_NOMEM, "out of memory building the triangle lists of %u vertices",
                       vertex_count);
    }
    /* gc_adjacency_build fills each vertex's list in triangle order, corner by corner:
     * replaying that order, with `live` as the fill cursor, gives every corner its entry. */
    for (uint32_t v = 0; v < vertex_count; ++v)
        lt->live[v] = lt->adj.offsets[v];
    for (size_t t = 0; t < triangle_count; ++t)
        for (int c = 0; c < 3; ++c)
            lt->slot[3 * t + c] = lt->live[indices[3 * t + c]]++;
    for (uint32_t v = 0; v < vertex_count; ++v)
        lt->live[v] = lt->adj.offsets[v + 1] - lt->adj.offsets[v];
    return GC_OK;
}

gc_status gc_live_triangles_init_light(gc_live_triangles* lt, const uint32_t* indices, size_t triangle_count,
                                       uint32_t vertex_count, uint32_t light_valence, bool distinct, bool* light,
                                       gc_error* err)
{
    memset(lt, 0, sizeof *lt);
    gc_status s = gc_adjacency_build(indices, triangle_count, vertex_count, &lt->adj, err);
    if (s)
        return s;
    bool is_light = true;
    for (uint32_t v = 0; v < vertex_count && is_light; ++v)
        is_light = lt->adj.offsets[v + 1] - lt->adj.offsets[v] <= light_valence;
    for (size_t i = 0; i < triangle_count && is_light && distinct; ++i) {
        const uint32_t* tv = indices + 3 * i;
        is_light = tv[0] != tv[1] && tv[0] != tv[2] && tv[1] != tv[2];
    }
    *light = is_light;
    if (!is_light) {
        gc_adjacency_free(&lt->adj);
        return gc_live_triangles_init(lt, indices, triangle_count, vertex_count, err);
    }
    lt->live = gc_alloc_array((size_t)vertex_count + 1, sizeof(uint32_t), false);
    if (!lt->live) {
        gc_adjacency_free(&lt->adj);
        return gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the triangle lists of %u vertices", vertex_count);
    }
    for (uint32_t v = 0; v < vertex_count; ++v)
        lt->live[v] = lt->adj.offsets[v + 1] - lt->adj.offsets[v];
    return GC_OK;
}

void gc_live_triangles_remove(gc_live_triangles* lt, const uint32_t* indices, uint32_t t)
{
    for (int c = 0; c < 3; ++c) {
        uint32_t v = indices[3 * t + c];
        uint32_t at = lt->slot[3 * t + c];
        uint32_t last = lt->adj.offsets[v] + lt->live[v] - 1;
        uint32_t moved = lt->adj.triangles[last];
        lt->adj.triangles[at] = moved;
        /* Which corner of `moved` sits at `last` (a degenerate triangle has two at v). */
        for (int k = 0; k < 3; ++k)
            if (indices[3 * moved + k] == v && lt->slot[3 * moved + k] == last) {
                lt->slot[3 * moved + k] = at;
                break;
            }
        lt->live[v]--;
        /* A removed corner must never match again: the triangle's other corner at v may
         * still be moved, and this stale slot could equal the position looked for. */
        lt->slot[3 * t + c] = UINT32_MAX;
    }
}

void gc_live_triangles_free(gc_live_triangles* lt)
{
    gc_adjacency_free(&lt->adj);
    free(lt->live);
    free(lt->slot);
    lt->live = lt->slot = NULL;
}
