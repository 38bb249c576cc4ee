// SPDX-License-Identifier: MIT
/* meshoptimizer's variant of Forsyth's algorithm (score_table.c) told of seed 000's NVIDIA
 * rule, as forsyth_nvidia.c tells forsyth.c's: the rule followed exactly along the order, the
 * place scores given only to the vertices it still holds for the next primitive, by their rank
 * among themselves; the others score by their valence. */
#include "optimize.h"

#include <stdlib.h>
#include <string.h>

#define NEVER UINT32_MAX

static inline uint32_t span_end(uint64_t prim, uint32_t span)
{
    return span == 0 || prim + span >= NEVER ? NEVER : (uint32_t)(prim + span);
}

static float vertex_score(const gc_forsyth_scores* t, int position, uint32_t live)
{
    uint32_t clamped = live < t->live_count - 1 ? live : t->live_count - 1;
    return (position < 0 ? 0.0f : t->position[position]) + t->live[clamped];
}

gc_status gc_opt_score_table_nvidia(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                    const gc_forsyth_scores* table, const gc_model* target, uint64_t first_primitive,
                                    uint32_t* order, gc_error* err)
{
    if (triangle_count == 0)
        return GC_OK;
    enum { CACHE = 16 };
    if (table->cache_size != CACHE || table->live_count < 2 || table->live_count > GC_FORSYTH_MAX_LIVE)
        return gc_fail(err, GC_ERR_USAGE, "score table: a table of 16 cache positions is needed");
    if (target->family != GC_MODEL_NVIDIA || target->p[0] < 3)
        return gc_fail(err, GC_ERR_USAGE, "score table: the nvidia order takes an nvidia target of 3 entries or more");
    const uint32_t size = target->p[0], idle = target->p[1], life = target->p[2];
    uint32_t fill_start = 1, next_slot = 0;
    gc_adjacency adj;
    gc_status s = gc_adjacency_build(indices, triangle_count, vertex_count, &adj, err);
    if (s)
        return s;
    for (uint32_t v = 0; v < vertex_count; ++v)
        if (adj.offsets[v + 1] - adj.offsets[v] > SCORE_TABLE_MAX_VALENCE) {
            gc_adjacency_free(&adj);
            return gc_fail(err, GC_ERR_LIMIT, "score table: vertex %u has more than %d triangles", v,
                           SCORE_TABLE_MAX_VALENCE);
        }
    uint32_t* count = gc_alloc_array(vertex_count, sizeof(uint32_t), false); /* listed triangles */
    uint32_t* live = gc_alloc_array(vertex_count, sizeof(uint32_t), false);
    uint32_t* rule = gc_alloc_array(2 * (size_t)vertex_count, sizeof(uint32_t), true); /* inserted + 1, expires */
    float* vscore = gc_alloc_array(vertex_count, sizeof(float), false);
    float* tscore = gc_alloc_array(triangle_count, sizeof(float), false);
    unsigned char* emitted = gc_alloc_array(triangle_count, 1, true);
    if (!count || !live || !rule || !vscore || !tscore || !emitted) {
        s = gc_fail(err, GC_ERR_NOMEM, "score table: out of memory for %zu triangles", triangle_count);
        goto done;
    }
    for (uint32_t v = 0; v < vertex_count; ++v) {
        count[v] = live[v] = adj.offsets[v + 1] - adj.offsets[v];
        vscore[v] = vertex_score(table, -1, live[v]);
    }
    for (size_t t = 0; t < triangle_count; ++t)
        tscore[t] = vscore[indices[3 * t]] + vscore[indices[3 * t + 1]] + vscore[indices[3 * t + 2]];

    const uint32_t list_end = adj.offsets[vertex_count]; /* 3 x triangle_count */
    uint32_t cache[CACHE + 3], next[CACHE + 3];
    size_t cache_count = 0, cursor = 1, written = 0;
    uint64_t current = 0;
    while (current != UINT64_MAX) {
        const uint32_t* tv = indices + 3 * current;
        const uint64_t prim = first_primitive + written;
        order[written++] = (uint32_t)current;
        {
            uint32_t u[3], un = 0, misses = 0;
            bool hit[3];
            for (int c = 0; c < 3; ++c)
                if (!(c > 0 && tv[c] == tv[0]) && !(c > 1 && tv[c] == tv[1]))
                    u[un++] = tv[c];
            for (uint32_t k = 0; k < un; ++k) {
                hit[k] = rule[2 * u[k]] >= fill_start && prim < rule[2 * u[k] + 1];
                misses += !hit[k];
            }
            if (next_slot + misses > size) {
                fill_start = (uint32_t)(prim + 1), next_slot = 0;
                for (uint32_t k = 0; k < un; ++k)
                    hit[k] = false;
            }
            const uint32_t idle_end = span_end(prim, idle);
            for (uint32_t k = 0; k < un; ++k) {
                if (!hit[k])
                    next_slot++, rule[2 * u[k]] = (uint32_t)(prim + 1);
                const uint32_t life_end = span_end(rule[2 * u[k]] - 1, life);
                rule[2 * u[k] + 1] = idle_end < life_end ? idle_end : life_end;
            }
        }
        emitted[current] = 1;
        tscore[current] = 0.0f;
        size_t n = 0;
        next[n++] = tv[0];
        next[n++] = tv[1];
        next[n++] = tv[2];
        for (size_t i = 0; i < cache_count; ++i)
            if (cache[i] != tv[0] && cache[i] != tv[1] && cache[i] != tv[2])
                next[n++] = cache[i];
        memcpy(cache, next, n * sizeof *cache);
        cache_count = n > CACHE ? CACHE : n;
        for (int c = 0; c < 3; ++c)
            live[tv[c]]--;
        for (int c = 0; c < 3; ++c) {
            uint32_t* list = adj.triangles + adj.offsets[tv[c]];
            const uint32_t listed = count[tv[c]];
            if (listed <= 8 && adj.offsets[tv[c]] + 8 <= list_end) {
                /* a short list: its first entry for `current` found without a branch (an
                 * early exit mispredicts nearly every time), reading 8 entries whatever
                 * the length */
                uint32_t at = listed;
                for (uint32_t i = 8; i-- > 0;)
                    at = i < listed && list[i] == current ? i : at;
                if (at < listed)
                    list[at] = list[--count[tv[c]]];
                continue;
            }
            for (uint32_t i = 0; i < listed; ++i)
                if (list[i] == current) {
                    list[i] = list[--count[tv[c]]];
                    break;
                }
        }
        uint64_t best = UINT64_MAX;
        float best_score = 0.0f;
        /* The new scores first, keeping the vertices with triangles listed (and the change of
         * their score), in cache order: a finished vertex's score changes no triangle's (and
         * most of the cache is finished on an ordinary mesh), so the loop below skips them
         * without a branch per vertex. */
        uint32_t listed_vertex[CACHE + 3];
        float listed_diff[CACHE + 3];
        size_t listed_count = 0;
        int place = 0;
        for (size_t i = 0; i < n; ++i) {
            uint32_t v = cache[i];
            const bool held = i < CACHE && rule[2 * v] >= fill_start && prim + 1 < rule[2 * v + 1] && next_slot < size;
            float score = vertex_score(table, held ? place : -1, live[v]);
            place += held;
            listed_vertex[listed_count] = v;
            listed_diff[listed_count] = score - vscore[v];
            vscore[v] = score;
            listed_count += count[v] != 0;
        }
        for (size_t i = 0; i < listed_count; ++i) {
            uint32_t v = listed_vertex[i];
            float diff = listed_diff[i];
            const uint32_t* list = adj.triangles + adj.offsets[v];
            for (uint32_t k = 0; k < count[v]; ++k) {
                uint32_t t = list[k];
                float ts = tscore[t] + diff;
                if (best_score < ts) {
                    best = t;
                    best_score = ts;
                }
                tscore[t] = ts;
            }
#if defined(__GNUC__)
            /* the next triangle's corners are read first thing: ask for the best so far's
             * (scattered on a large mesh; one prefetch a vertex, no branch in the loop) */
            if (best != UINT64_MAX)
                __builtin_prefetch(indices + 3 * best);
#endif
        }
        current = best;
        if (current == UINT64_MAX) {
            while (cursor < triangle_count && emitted[cursor])
                ++cursor;
            if (cursor < triangle_count)
                current = cursor;
        }
    }
    if (written != triangle_count)
        s = gc_fail(err, GC_ERR_DATA, "score table: emitted %zu of %zu triangles", written, triangle_count);
done:
    free(count);
    free(live);
    free(rule);
    free(vscore);
    free(tscore);
    free(emitted);
    gc_adjacency_free(&adj);
    return s;
}

