/* tipsify — Sander, Nehab, Barczak, "Fast Triangle Reordering for Vertex Locality and
 * Reduced Overdraw", SIGGRAPH 2007 (the vertex-locality part, Algorithm 2 of the paper).
 *
 * It "fans" around one vertex at a time: all the vertex's remaining triangles are emitted,
 * then the next fanning vertex is chosen among the vertices just touched: the one that will
 * still be in a FIFO of k entries after its remaining triangles are emitted (s - C[v] +
 * 2 L[v] <= k), preferring the oldest such (largest s - C[v]); failing that, the most recent
 * vertex on the dead-end stack that has triangles left; failing that, the next vertex in
 * input order. Linear time: each triangle is emitted once, each vertex of an emitted
 * triangle is pushed once and inspected a bounded number of times. */
#include "internal.h"

#include <stdlib.h>

gc_status gc_opt_tipsify(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count, uint32_t cache_size,
                         uint32_t* order, gc_error* err)
{
    if (triangle_count == 0)
        return GC_OK;
    gc_adjacency adj;
    gc_status s = gc_adjacency_build(indices, triangle_count, vertex_count, &adj, err);
    if (s)
        return s;
    uint32_t* live = gc_alloc_array(vertex_count, sizeof(uint32_t), false);      /* L: triangles left */
    uint32_t* stamp = gc_alloc_array(vertex_count, sizeof(uint32_t), true);      /* C: cache time */
    uint32_t* dead_end = gc_alloc_array(triangle_count * 3, sizeof(uint32_t), false); /* D */
    unsigned char* emitted = gc_alloc_array(triangle_count, 1, true);
    if (!live || !stamp || !dead_end || !emitted) {
        free(live), free(stamp), free(dead_end), free(emitted);
        gc_adjacency_free(&adj);
        return gc_fail(err, GC_ERR_NOMEM, "tipsify: out of memory");
    }
    for (uint32_t v = 0; v < vertex_count; ++v)
        live[v] = adj.offsets[v + 1] - adj.offsets[v];
    const uint64_t k = cache_size;
    uint64_t time = k + 1; /* s: every vertex starts out of the cache */
    size_t dead_top = 0, written = 0;
    uint32_t cursor = 0; /* i: the input-order fallback */
    while (cursor < vertex_count && live[cursor] == 0)
        ++cursor;
    int64_t fanning = cursor < vertex_count ? (int64_t)cursor : -1;
    while (fanning >= 0) {
        uint32_t f = (uint32_t)fanning;
        size_t touched_from = dead_top; /* N: the vertices pushed while fanning around f */
        for (uint32_t a = adj.offsets[f]; a < adj.offsets[f + 1]; ++a) {
            uint32_t t = adj.triangles[a];
            if (emitted[t])
                continue;
            emitted[t] = 1;
            order[written++] = t;
            for (int c = 0; c < 3; ++c) {
                uint32_t v = indices[3 * t + c];
                dead_end[dead_top++] = v;
                live[v]--;
                if (time - stamp[v] > k) {
                    stamp[v] = (uint32_t)time; /* a miss: v enters the FIFO */
                    time++;
                }
            }
        }
        /* Get-Next-Vertex over N. Stamps are 32-bit; `time` stays below 2^32 + k since it
         * grows by at most one per index. */
        int64_t next = -1;
        int64_t best = -1;
        for (size_t i = touched_from; i < dead_top; ++i) {
            uint32_t v = dead_end[i];
            if (live[v] == 0)
                continue;
            int64_t priority = 0;
            if ((time - stamp[v]) + 2 * (uint64_t)live[v] <= k)
                priority = (int64_t)(time - stamp[v]);
            if (priority > best) {
                best = priority;
                next = v;
            }
        }
        if (next < 0) {
            /* Skip-Dead-End: the most recent vertex with work left, else input order. */
            while (dead_top > 0 && next < 0) {
                uint32_t d = dead_end[--dead_top];
                if (live[d] > 0)
                    next = d;
            }
            while (next < 0 && cursor < vertex_count) {
                if (live[cursor] > 0)
                    next = cursor;
                else
                    ++cursor;
            }
        }
        fanning = next;
    }
    free(live), free(stamp), free(dead_end), free(emitted);
    gc_adjacency_free(&adj);
    if (written != triangle_count)
        return gc_fail(err, GC_ERR_DATA, "tipsify: emitted %zu of %zu triangles", written, triangle_count);
    return GC_OK;
}
