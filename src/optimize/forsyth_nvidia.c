// SPDX-License-Identifier: MIT
/* Forsyth's algorithm told of seed 000's NVIDIA rule (issue 33, nvidia-kepler): the tuned
 * table and linear scan of forsyth_flush.c, but the modelled cache holds only the vertices
 * the rule (src/models/nvidia_rule.h, its state by vertex) still holds for the next
 * primitive, the rule followed along the order exactly. After each triangle the LRU of the vertices used so far is kept as
 * in Forsyth's algorithm; the vertices the rule holds get the table's place scores by their
 * rank among themselves, a vertex the rule no longer holds loses its place's score (its
 * valence stays, and its remaining triangles stay candidates for the next step, so that the
 * order stays on the surface). A vertex pushed past the LRU's places keeps the score it had
 * until its next use (the rule's 32 slots may still hold it; zeroing it there, as forsyth.c
 * does, gave -1.68% against meshoptimizer on the corpus for -1.72%). The tuned table
 * (gc_auto_tuned_scores), unchanged. */
#include "optimize.h"
#include "../models/nvidia_rule.h"

#include <stdlib.h>
#include <string.h>

#define VALENCE_SCAN 32

/* A vertex: its remaining and listed triangles (as forsyth.c's), and its state under the rule.
 * One 16-byte record: the triangle's corners read both. */
typedef struct nvf_vertex {
    uint32_t live, listed;
    gc_nv_vertex rule;
} nvf_vertex;

gc_status gc_opt_forsyth_nvidia(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                const gc_forsyth_scores* scores, const gc_model* target, uint64_t first_primitive,
                                uint32_t* order, gc_error* err)
{
    if (triangle_count == 0)
        return GC_OK;
    const uint32_t cache_size = scores->cache_size;
    if (cache_size < 1 || cache_size > GC_FORSYTH_MAX_CACHE || scores->live_count < 2 ||
        scores->live_count > GC_FORSYTH_MAX_LIVE)
        return gc_fail(err, GC_ERR_USAGE, "forsyth: bad score tables");
    if (target->family != GC_MODEL_NVIDIA || target->p[0] < 3)
        return gc_fail(err, GC_ERR_USAGE, "forsyth: the nvidia order takes an nvidia target of 3 entries or more");
    gc_nv_fill fill = gc_nv_fill_of(target->p[0], target->p[1], target->p[2]);
    gc_adjacency adj;
    gc_status s = gc_adjacency_build(indices, triangle_count, vertex_count, &adj, err);
    if (s)
        return s;
    nvf_vertex* vert = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof *vert, true);
    float* vscore = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof *vscore, false);
    uint64_t* emitted = gc_alloc_array((triangle_count + 63) / 64, sizeof(uint64_t), true);
    uint32_t* dead_end = gc_alloc_array(triangle_count * 3, sizeof(uint32_t), false);
    if (!vert || !vscore || !emitted || !dead_end) {
        free(vert), free(vscore), free(emitted), free(dead_end);
        gc_adjacency_free(&adj);
        return gc_fail(err, GC_ERR_NOMEM, "forsyth: out of memory for %zu triangles and %u vertices", triangle_count,
                       vertex_count);
    }
    uint32_t* list = adj.triangles;
    const uint32_t* list_start = adj.offsets;
    const uint32_t live_max = scores->live_count - 1;
    for (uint32_t v = 0; v < vertex_count; ++v) {
        const uint32_t live = list_start[v + 1] - list_start[v];
        vert[v].live = vert[v].listed = live;
        vscore[v] = live == 0 ? -1.0f : scores->live[live < live_max ? live : live_max];
    }
    uint32_t cache[GC_FORSYTH_MAX_CACHE + 3], next_cache[GC_FORSYTH_MAX_CACHE + 3], scan[GC_FORSYTH_MAX_CACHE + 3];
    float position_score[GC_FORSYTH_MAX_CACHE + 4];
    for (uint32_t k = 0; k < cache_size + 4; ++k)
        position_score[k] = k < cache_size ? scores->position[k] : 0.0f;
    uint32_t cache_count = 0;
    size_t cursor = 0, written = 0, dead_top = 0;
    int64_t best = -1;
    float best_score = -1.0f;
    for (size_t t = 0; t < triangle_count; ++t) {
        float sc = vscore[indices[3 * t]] + vscore[indices[3 * t + 1]] + vscore[indices[3 * t + 2]];
        if (sc > best_score)
            best_score = sc, best = (int64_t)t;
    }
    while (best >= 0) {
        const uint32_t t = (uint32_t)best;
        const uint32_t* tv = indices + 3 * t;
        const uint64_t prim = first_primitive + written;
        emitted[t / 64] |= 1ull << (t % 64);
        order[written++] = t;
        for (int c = 0; c < 3; ++c) {
            dead_end[dead_top++] = tv[c];
            vert[tv[c]].live--;
        }
        /* the rule fed the triangle */
        uint32_t u[3];
        const unsigned n = gc_nv_distinct3(tv, u);
        gc_nv_vertex* corner[3] = {&vert[u[0]].rule, &vert[u[n > 1 ? 1 : 0]].rule, &vert[u[n > 2 ? 2 : 0]].rule};
        gc_nv_fill_feed(&fill, corner, n, prim);
        /* LRU update: the triangle's vertices first, then the old order */
        uint32_t m = 0;
        for (uint32_t k = 0; k < n; ++k)
            next_cache[m++] = u[k];
        for (uint32_t k = 0; k < cache_count; ++k) {
            const uint32_t v = cache[k];
            if (v != tv[0] && v != tv[1] && v != tv[2])
                next_cache[m++] = v;
        }
        uint32_t live_cached = 0, place = 0;
        for (uint32_t k = 0; k < m; ++k) {
            const nvf_vertex* fv = &vert[next_cache[k]];
            const uint32_t v = next_cache[k], live = fv->live;
            const bool held = gc_nv_holds(&fill, &fv->rule, prim + 1) && fill.next < fill.size;
            const float p = position_score[held ? place : cache_size]; /* 0 past the cache */
            place += held;
            vscore[v] = live == 0 ? -1.0f : p + scores->live[live < live_max ? live : live_max];
            scan[live_cached] = v;
            live_cached += live != 0 && k < cache_size;
        }
        cache_count = m < cache_size ? m : cache_size;
        memcpy(cache, next_cache, cache_count * sizeof *cache);
        /* the next triangle: the best among those vertices' remaining triangles */
        best = -1;
        best_score = -1.0f;
        uint32_t scan_start[GC_FORSYTH_MAX_CACHE + 3];
        for (uint32_t k = 0; k < live_cached; ++k) {
            scan_start[k] = list_start[scan[k]];
#if defined(__GNUC__)
            __builtin_prefetch(list + scan_start[k]);
#endif
        }
        for (uint32_t k = 0; k < live_cached; ++k) {
            nvf_vertex* fv = &vert[scan[k]];
            uint32_t* entries = list + scan_start[k];
            uint32_t scanned = 0;
            for (uint32_t a = 0; a < fv->listed && scanned < VALENCE_SCAN;) {
                const uint32_t w = entries[a];
                if (emitted[w / 64] >> (w % 64) & 1) {
                    entries[a] = entries[--fv->listed];
                    continue;
                }
                float sc = vscore[indices[3 * (size_t)w]] + vscore[indices[3 * (size_t)w + 1]] +
                           vscore[indices[3 * (size_t)w + 2]];
                if (sc > best_score)
                    best_score = sc, best = w;
                ++a, ++scanned;
            }
        }
        while (best < 0 && dead_top > 0) {
            const uint32_t d = dead_end[--dead_top];
            for (uint32_t a = 0; vert[d].live > 0 && a < vert[d].listed && best < 0;) {
                const uint32_t w = list[list_start[d] + a];
                if (emitted[w / 64] >> (w % 64) & 1)
                    list[list_start[d] + a] = list[list_start[d] + --vert[d].listed];
                else
                    best = w;
            }
        }
        if (best < 0) {
            while (cursor < triangle_count && (emitted[cursor / 64] >> (cursor % 64) & 1))
                ++cursor;
            if (cursor < triangle_count)
                best = (int64_t)cursor;
        }
    }
    free(vert), free(vscore), free(emitted), free(dead_end);
    gc_adjacency_free(&adj);
    if (written != triangle_count)
        return gc_fail(err, GC_ERR_DATA, "forsyth: emitted %zu of %zu triangles", written, triangle_count);
    return GC_OK;
}
