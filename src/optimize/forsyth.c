// SPDX-License-Identifier: MIT
/* forsyth — Tom Forsyth, "Linear-Speed Vertex Cache Optimisation" (2006), with his
 * published constants: CacheDecayPower 1.5, LastTriScore 0.75, ValenceBoostScale 2.0,
 * ValenceBoostPower 0.5, and a modelled LRU cache of `cache_size` entries (his 32).
 *
 * Each vertex has a score from its position in the modelled cache and its number of
 * remaining triangles; a triangle's score is the sum of its vertices'. After emitting the
 * best triangle, the cache is updated and the next one is the best among the remaining
 * triangles of the cached vertices. Two choices keep it linear on any input:
 *  - each vertex keeps its triangles in a list from which emitted ones are dropped when
 *    the list is next scanned (each entry is dropped once: O(1) per triangle in all), and
 *    only the first VALENCE_SCAN (32) remaining ones are scored per step: a vertex used by
 *    100,000 triangles costs as much as one used by 32. Every triangle of an ordinary mesh
 *    is scanned (valences are far below 32), so the order is Forsyth's there;
 *  - when no cached vertex has triangles left, the next triangle is one of the most
 *    recently emitted vertex that still has triangles (a dead-end stack, as Tipsify's),
 *    else the first remaining one in input order. Forsyth rescans every triangle for the
 *    best score there, which is quadratic on meshes with many dead ends. */
#include "optimize.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define VALENCE_SCAN 32

/* Per vertex, side by side: its remaining triangles and the length of its triangle list,
 * which may still hold emitted triangles (removed when next scanned). Its score is in an
 * array of its own (the triangle sums read only that: denser in the cache); its place in
 * the modelled cache is only needed when the score is made (the cache's own order). */
typedef struct forsyth_vertex {
    uint32_t live, listed;
} forsyth_vertex;

static bool is_emitted(const uint64_t* emitted, size_t t)
{
    return emitted[t / 64] >> (t % 64) & 1;
}

/* The score of a vertex with `live` triangles left, at cache position `position` (-1: not
 * cached): -1 once it has none. */
static float score_of(const gc_forsyth_scores* sc, int32_t position, uint32_t live)
{
    if (live == 0)
        return -1.0f;
    return (position < 0 ? 0.0f : sc->position[position]) + sc->live[live < sc->live_count ? live : sc->live_count - 1];
}

gc_status gc_opt_forsyth(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count, uint32_t cache_size,
                         uint32_t* order, uint32_t* out, gc_error* err)
{
    if (cache_size < 4 || cache_size > GC_FORSYTH_MAX_CACHE)
        return gc_fail(err, GC_ERR_USAGE, "forsyth: cache size %u is outside [4, %u]", cache_size,
                       GC_FORSYTH_MAX_CACHE);
    /* Forsyth's published curves. Valences past the table (a fan's hub) score as its last
     * entry, 2 / sqrt(63): they differ from his formula by less than 0.25 and only where a
     * vertex has 63 triangles or more left. */
    gc_forsyth_scores sc;
    memset(&sc, 0, sizeof sc);
    sc.cache_size = cache_size;
    for (uint32_t p = 0; p < cache_size; ++p)
        sc.position[p] = p < 3 ? 0.75f /* LastTriScore: the triangle just drawn */
                               : powf(1.0f - (float)(p - 3) / (float)(cache_size - 3), 1.5f);
    sc.live_count = GC_FORSYTH_MAX_LIVE;
    for (uint32_t n = 1; n < GC_FORSYTH_MAX_LIVE; ++n)
        sc.live[n] = 2.0f * powf((float)n, -0.5f); /* ValenceBoostScale * n^-ValenceBoostPower */
    return gc_opt_forsyth_scored(indices, triangle_count, vertex_count, &sc, order, out, err);
}

gc_status gc_opt_forsyth_scored(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                const gc_forsyth_scores* scores, uint32_t* order, uint32_t* out, gc_error* err)
{
    if (triangle_count == 0)
        return GC_OK;
    const uint32_t cache_size = scores->cache_size;
    if (gc_forsyth_scores_check(scores, err))
        return GC_ERR_USAGE;
    /* Everything in one block (the adjacency's lists, the per-vertex and per-triangle
     * state, in 8-byte words): a caller's next call gets it back whole from the allocator
     * instead of fresh pages (with the pieces apart, glibc gave the heap's top back on every
     * call on a large mesh: about 700 page faults a call on ogre). Zeroed: the adjacency's
     * counts and the emitted bits. */
    const size_t v_pairs = ((size_t)vertex_count + 2) / 2; /* vertex_count + 1 words, in pairs */
    const size_t t_pairs = (3 * triangle_count + 1) / 2, e_words = (triangle_count + 63) / 64;
    uint64_t* block = gc_alloc_array(v_pairs + t_pairs + (size_t)vertex_count + v_pairs + e_words + t_pairs,
                                     sizeof(uint64_t), false);
    if (!block)
        return gc_fail(err, GC_ERR_NOMEM, "forsyth: out of memory for %zu triangles and %u vertices", triangle_count,
                       vertex_count);
    gc_adjacency adj = {(uint32_t*)(void*)block, (uint32_t*)(void*)(block + v_pairs)};
    forsyth_vertex* vert = (forsyth_vertex*)(void*)(block + v_pairs + t_pairs);
    float* vscore = (float*)(void*)(block + v_pairs + t_pairs + vertex_count); /* each vertex's score */
    uint64_t* emitted = block + 2 * v_pairs + t_pairs + vertex_count;        /* bits */
    uint32_t* dead_end = (uint32_t*)(void*)(emitted + e_words);
    memset(adj.offsets, 0, ((size_t)vertex_count + 1) * sizeof *adj.offsets);
    memset(emitted, 0, e_words * sizeof *emitted);
    gc_adjacency_fill(indices, triangle_count, vertex_count, adj.offsets, adj.triangles);
    uint32_t* list = adj.triangles;
    const uint32_t* list_start = adj.offsets;
    for (uint32_t v = 0; v < vertex_count; ++v) {
        vert[v].live = vert[v].listed = list_start[v + 1] - list_start[v];
        vscore[v] = score_of(scores, -1, vert[v].live);
    }

    uint32_t cache[GC_FORSYTH_MAX_CACHE + 3], next_cache[GC_FORSYTH_MAX_CACHE + 3], scan[GC_FORSYTH_MAX_CACHE + 3];
    /* score_of's terms by place in next_cache: a vertex pushed past the cache adds 0 */
    float position_score[GC_FORSYTH_MAX_CACHE + 3];
    for (uint32_t k = 0; k < cache_size + 3; ++k)
        position_score[k] = k < cache_size ? scores->position[k] : 0.0f;
    const uint32_t live_max = scores->live_count - 1;
    uint32_t cache_count = 0;
    size_t cursor = 0, written = 0, dead_top = 0;
    /* The first triangle: the best score overall (one linear scan). */
    int64_t best = gc_forsyth_first(indices, triangle_count, vscore);
    float best_score = -1.0f; /* set again before each later step */
    while (best >= 0) {
        uint32_t t = (uint32_t)best;
        const uint32_t* tv = indices + 3 * t;
        emitted[t / 64] |= 1ull << (t % 64);
        if (out)
            memcpy(out + 3 * written, tv, 3 * sizeof *out);
        order[written++] = t;
        for (int c = 0; c < 3; ++c) {
            dead_end[dead_top++] = tv[c];
            vert[tv[c]].live--; /* its list entry goes when the list is next scanned */
        }
        /* LRU update: the triangle's vertices first, then the old order. */
        uint32_t n = 0;
        for (int c = 0; c < 3; ++c) {
            bool dup = false;
            for (uint32_t k = 0; k < n; ++k)
                dup |= next_cache[k] == tv[c];
            if (!dup)
                next_cache[n++] = tv[c];
        }
        for (uint32_t k = 0; k < cache_count; ++k) {
            uint32_t v = cache[k];
            if (v != tv[0] && v != tv[1] && v != tv[2])
                next_cache[n++] = v;
        }
        /* New scores (score_of's sums, with position_score's 0 past the cache), and the
         * cached vertices with triangles left, in cache order: the only ones scanned below
         * (a finished vertex keeps its place in the cache but has nothing to score; most
         * cached vertices are finished on an ordinary mesh). */
        uint32_t live_cached = 0;
        for (uint32_t k = 0; k < n; ++k) {
            const uint32_t v = next_cache[k], live = vert[v].live;
            vscore[v] = live == 0 ? -1.0f : position_score[k] + scores->live[live < live_max ? live : live_max];
            scan[live_cached] = v;
            live_cached += live != 0 && k < cache_size;
        }
        cache_count = n < cache_size ? n : cache_size;
        memcpy(cache, next_cache, cache_count * sizeof *cache);
        /* The next triangle: the best among the cached vertices' remaining triangles. */
        best = -1;
        best_score = -1.0f;
        uint32_t scan_start[GC_FORSYTH_MAX_CACHE + 3];
        gc_forsyth_scan_starts(scan, live_cached, list_start, list, scan_start);
        for (uint32_t k = 0; k < live_cached; ++k) {
            uint32_t v = scan[k];
            forsyth_vertex* fv = &vert[v];
            uint32_t* entries = list + scan_start[k];
            uint32_t scanned = 0;
            for (uint32_t a = 0; a < fv->listed && scanned < VALENCE_SCAN;) {
                uint32_t u = entries[a];
                if (is_emitted(emitted, u)) {
                    /* an emitted triangle: drop it (the last entry takes its place) */
                    entries[a] = entries[--fv->listed];
                    continue;
                }
                float sc = vscore[indices[3 * u]] + vscore[indices[3 * u + 1]] + vscore[indices[3 * u + 2]];
                if (sc > best_score) {
                    best_score = sc;
                    best = u;
                }
                ++a, ++scanned;
            }
        }
        while (best < 0 && dead_top > 0) {
            uint32_t d = dead_end[--dead_top];
            for (uint32_t a = 0; vert[d].live > 0 && a < vert[d].listed && best < 0;)
                if (is_emitted(emitted, list[list_start[d] + a]))
                    list[list_start[d] + a] = list[list_start[d] + --vert[d].listed];
                else
                    best = list[list_start[d] + a];
        }
        if (best < 0) {
            while (cursor < triangle_count && is_emitted(emitted, cursor))
                ++cursor;
            if (cursor < triangle_count)
                best = (int64_t)cursor;
        }
    }
    free(block);
    if (written != triangle_count)
        return gc_fail(err, GC_ERR_DATA, "forsyth: emitted %zu of %zu triangles", written, triangle_count);
    return GC_OK;
}
