// SPDX-License-Identifier: MIT
/* A greedy that follows nv-gl's pages (the H100, docs/models/nvidia-h100.md) with the rule
 * written into its loop (src/models/kerbl_rule.h, gc_kerbl_lookup_paged): the triangles
 * whose corners sit on different pages (paged_order.c's mixed classes), or a whole list where
 * they are most of it, at about the cost of meshoptimizer's own greedy.
 *
 * Each step looks up the remaining triangles of the last `recent_limit` vertices used (at
 * most PAGED_SCAN of a vertex's; a placed triangle leaves a vertex's list when next met
 * there) with the target's lookup, nothing written, and takes the one with the fewest
 * invocations, less PAGED_FINISH for each corner it is the last triangle of (Forsyth's
 * valence boost), plus PAGED_CUT where it would end the batch; the lower triangle number
 * among equals. Where none remains (a dead end), the next remaining triangle in list order
 * (going back to the latest vertex with triangles left, as Tipsify does, was worse on igea
 * and igea subdivided). It counts the order's invocations under the target as it goes
 * (gc_analyze's count for a list drawn alone: the same lookup and words). */
#include "paged_order.h"

#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "../models/kerbl_rule.h"

#define PAGED_FINISH 0.75f
/* At most this many remaining triangles of a vertex are looked up a step (a hub's first
 * ones), so that a step's cost is bounded whatever the valences. */
#define PAGED_SCAN 64
#define PAGED_CUT 0.5f

gc_status gc_opt_paged_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                              const gc_model* target, unsigned recent_limit, uint32_t* order, uint64_t* invocations,
                              gc_error* err)
{
    return gc_paged_greedy_of(indices, triangle_count, vertex_count, NULL, target, recent_limit, order, invocations,
                              err);
}

gc_status gc_paged_greedy_of(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                             const uint32_t* vertex_page, const gc_model* target, unsigned recent_limit,
                             uint32_t* order, uint64_t* invocations, gc_error* err)
{
    if (target->family != GC_MODEL_NV_GL || !target->p[3] || target->p[3] > 31)
        return gc_fail(err, GC_ERR_USAGE, "paged greedy: the target is not nv-gl with pages");
    if (recent_limit < 1 || recent_limit > GC_PAGED_RECENT_MAX)
        return gc_fail(err, GC_ERR_USAGE, "paged greedy: %u recent vertices", recent_limit);
    if (invocations)
        *invocations = 0;
    const size_t T = triangle_count;
    if (T == 0)
        return GC_OK;
    if (T > UINT32_MAX / 3)
        return gc_fail(err, GC_ERR_LIMIT, "paged greedy: %zu triangles", T);
    const gc_kerbl_rule rule = {GC_KERBL_GL, target->p[2], target->p[0], target->p[1], target->p[3]};
    const size_t V = vertex_count;
    /* per vertex: the words (2), its list's start, its list's length (placed triangles leave
       it as they are met) and its remaining triangles; per index the lists */
    uint32_t* words = gc_alloc_array(2 * V + 3 * V + 1, sizeof(uint32_t), true);
    uint32_t* adj = gc_alloc_array(3 * T, sizeof(uint32_t), false);
    uint8_t* placed = gc_alloc_array(T, 1, true);
    if (!words || !adj || !placed) {
        free(words), free(adj), free(placed);
        return gc_fail(err, GC_ERR_NOMEM, "paged greedy: out of memory for %zu triangles", T);
    }
    uint32_t* start = words + 2 * V; /* V + 1 */
    uint32_t* live = start + V + 1;  /* V */
    uint32_t* left = live + V;       /* V */
    for (size_t i = 0; i < 3 * T; ++i)
        live[indices[i]]++;
    {
        uint32_t at = 0;
        for (size_t v = 0; v < V; ++v)
            start[v] = at, at += live[v];
        start[V] = at;
        for (size_t v = 0; v < V; ++v)
            left[v] = live[v], live[v] = 0;
        for (size_t t = 0; t < T; ++t)
            for (unsigned c = 0; c < 3; ++c) {
                const uint32_t v = indices[3 * t + c];
                adj[start[v] + live[v]++] = (uint32_t)t;
            }
    }
    /* a corner's page: its value's, or vertex_page's for a list in numbers of its own */
#define PAGES_OF(pages, f)                                                                                             \
    for (unsigned q = 0; q < 3; ++q)                                                                                   \
        (pages)[q] = vertex_page ? vertex_page[(f)[q]] : (f)[q] >> rule.page_shift
    uint32_t recent[GC_PAGED_RECENT_MAX];
    unsigned recent_count = 0;
    uint32_t cache = 1, page = UINT32_MAX, progress = 0, cbatch = 0, cuniques = 0;
    uint64_t total = 0;
    size_t cursor = 0;
    for (size_t step = 0; step < T; ++step) {
        uint32_t best = UINT32_MAX;
        float best_score = 0;
        for (unsigned r = 0; r < recent_count; ++r) {
            const uint32_t v = recent[r];
            uint32_t* list = adj + start[v];
            for (uint32_t j = 0, seen = 0; j < live[v] && seen < PAGED_SCAN;) {
                const uint32_t t = list[j];
                if (placed[t]) { /* out of the list now: each entry once */
                    list[j] = list[--live[v]];
                    continue;
                }
                ++j, ++seen;
                const uint32_t* f = indices + 3 * (size_t)t;
                uint32_t pages[3];
                PAGES_OF(pages, f);
                uint32_t c = cache, p = page, ids[3];
                bool miss[3], cut;
                const uint32_t adds = gc_kerbl_lookup_paged(&rule, words, f, pages, 3, progress, &c, &p, cbatch,
                                                            cuniques, miss, ids, &cut);
                const unsigned finish = (left[f[0]] == 1) + (left[f[1]] == 1) + (left[f[2]] == 1);
                const float score = (float)adds + (cut ? PAGED_CUT : 0.0f) - PAGED_FINISH * (float)finish;
                if (best == UINT32_MAX || score < best_score || (score == best_score && t < best))
                    best = t, best_score = score;
            }
        }
        if (best == UINT32_MAX) { /* a dead end: the next remaining triangle in list order */
            while (placed[cursor])
                ++cursor;
            best = (uint32_t)cursor;
        }
        const uint32_t* f = indices + 3 * (size_t)best;
        uint32_t pages[3];
        PAGES_OF(pages, f);
        uint32_t ids[3];
        bool miss[3], cut;
        const uint32_t adds = gc_kerbl_lookup_paged(&rule, words, f, pages, 3, progress, &cache, &page, cbatch,
                                                    cuniques, miss, ids, &cut);
        if (cut)
            cbatch = cuniques = 0;
        for (unsigned i = 0; i < 3; ++i) {
            words[2 * (size_t)f[i]] = ids[i];
            words[2 * (size_t)f[i] + 1] = progress + i;
        }
        cuniques += adds, cbatch += 3, progress += 3, total += adds;
        order[step] = best;
        placed[best] = 1;
        /* best leaves its corners' counts (their lists when next met); its corners become the
           most recent vertices */
        for (unsigned i = 0; i < 3; ++i)
            left[f[i]]--;
        for (unsigned i = 3; i-- > 0;) {
            const uint32_t v = f[i];
            unsigned k = 0;
            while (k < recent_count && recent[k] != v)
                ++k;
            if (k == recent_count)
                k = recent_count < recent_limit ? recent_count++ : recent_limit - 1;
            memmove(recent + 1, recent, k * sizeof *recent);
            recent[0] = v;
        }
    }
    if (invocations)
        *invocations = total;
    free(words), free(adj), free(placed);
    return GC_OK;
}
