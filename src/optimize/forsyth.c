// SPDX-License-Identifier: MIT
/* forsyth — Tom Forsyth, "Linear-Speed Vertex Cache Optimisation" (2006), with his
 * published constants: CacheDecayPower 1.5, LastTriScore 0.75, ValenceBoostScale 2.0,
 * ValenceBoostPower 0.5, and a modelled LRU cache of `cache_size` entries (his 32).
 *
 * Each vertex has a score from its position in the modelled cache and its number of
 * remaining triangles; a triangle's score is the sum of its vertices'. After emitting the
 * best triangle, the cache is updated and the next one is the best among the remaining
 * triangles of the cached vertices. Two choices keep it linear on any input:
 *  - each vertex keeps its triangles in a list from which an emitted one is dropped at
 *    once (a hub's: when the list is next scanned; forsyth_lists.h; each entry is dropped
 *    once: O(1) per triangle in all), and only the first GC_FORSYTH_SCAN (32) remaining ones
 *    are scored per step: a vertex used by 100,000 triangles costs as much as one used by 32.
 *    Every triangle of an ordinary mesh is scanned (valences are far below 32), so the order
 *    is Forsyth's there;
 *  - when no cached vertex has triangles left, the next triangle is one of the most
 *    recently emitted vertex that still has triangles (a dead-end stack, as Tipsify's),
 *    else the first remaining one in input order. Forsyth rescans every triangle for the
 *    best score there, which is quadratic on meshes with many dead ends. */
#include "optimize.h"
#include "forsyth_lists.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    if (triangle_count > UINT32_MAX / 4)
        return gc_fail(err, GC_ERR_LIMIT, "forsyth: %zu triangles is more than %u", triangle_count, UINT32_MAX / 4);
    /* Everything in one block (the adjacency's lists, the per-vertex and per-triangle state, a
     * step's candidates, in 8-byte words): a caller's next call gets it back whole from the
     * allocator instead of fresh pages (with the pieces apart, glibc gave the heap's top back
     * on every call on a large mesh: about 700 page faults a call on ogre). Zeroed: the
     * adjacency's counts and the emitted bits, and 8 entries past the lists (read by the
     * lists' steps, forsyth_lists.h, and never kept). */
#define WORDS8(n) (((n) + 1) / 2) /* n 4-byte entries */
    const size_t offsets_w = WORDS8((size_t)vertex_count + 1), e_words = (triangle_count + 63) / 64;
    const size_t list_w = WORDS8(3 * triangle_count + 8), vscore_w = WORDS8(vertex_count);
    const size_t cand_w = WORDS8((size_t)cache_size * GC_FORSYTH_SCAN + 8);
#undef WORDS8
    uint64_t* block = gc_alloc_array(offsets_w + e_words + 2 * list_w + vertex_count + vscore_w + cand_w,
                                     sizeof(uint64_t), false);
    if (!block)
        return gc_fail(err, GC_ERR_NOMEM, "forsyth: out of memory for %zu triangles and %u vertices", triangle_count,
                       vertex_count);
    memset(block, 0, (offsets_w + e_words) * sizeof *block);
    uint32_t* list_start = (uint32_t*)(void*)block;
    uint64_t* emitted = block + offsets_w; /* bits */
    uint32_t* list = (uint32_t*)(void*)(emitted + e_words);
    memset(list + 3 * triangle_count, 0, 8 * sizeof *list);
    uint32_t* dead_end = (uint32_t*)(void*)(emitted + e_words + list_w);
    /* per vertex, its remaining triangles and its list's mark (gc_forsyth_vertex); its score
       in an array of its own (the triangle sums read only that: denser in the cache); its
       place in the modelled cache is only needed when the score is made (the cache's order) */
    char* records = (char*)(emitted + e_words + 2 * list_w);
    float* vscore = (float*)(void*)(emitted + e_words + 2 * list_w + vertex_count);
    uint32_t* cand = (uint32_t*)(void*)(emitted + e_words + 2 * list_w + vertex_count + vscore_w);
    const size_t stride = sizeof(gc_forsyth_vertex);
    gc_forsyth_vertex* vert = (gc_forsyth_vertex*)(void*)records;
    gc_adjacency_fill(indices, triangle_count, vertex_count, list_start, list);
    for (uint32_t v = 0; v < vertex_count; ++v) {
        const uint32_t count = list_start[v + 1] - list_start[v];
        vert[v].live = count;
        vert[v].listed = gc_forsyth_listed(count, cache_size);
        vscore[v] = score_of(scores, -1, count);
    }

    uint32_t caches[2][GC_FORSYTH_MAX_CACHE + 3], scan[GC_FORSYTH_MAX_CACHE + 3];
    uint32_t *cache = caches[0], *next_cache = caches[1];
    /* score_of's terms by place in next_cache: a vertex pushed past the cache adds 0 */
    float position_score[GC_FORSYTH_MAX_CACHE + 3];
    for (uint32_t k = 0; k < cache_size + 3; ++k)
        position_score[k] = k < cache_size ? scores->position[k] : 0.0f;
    const uint32_t live_max = scores->live_count - 1;
    uint32_t cache_count = 0;
    size_t cursor = 0, written = 0, dead_top = 0;
    /* The first triangle: the best score overall (one linear scan). */
    int64_t best = gc_forsyth_first(indices, triangle_count, vscore);
    while (best >= 0) {
        const uint32_t t = (uint32_t)best;
        const uint32_t* tv = indices + 3 * (size_t)t;
        const uint32_t a = tv[0], b = tv[1], c = tv[2];
        emitted[t / 64] |= 1ull << (t % 64);
        if (out)
            memcpy(out + 3 * written, tv, 3 * sizeof *out);
        order[written++] = t;
        dead_end[dead_top] = a, dead_end[dead_top + 1] = b, dead_end[dead_top + 2] = c;
        dead_top += 3;
        gc_forsyth_emit(list, list_start, records, stride, tv, t);
        /* LRU update: the triangle's vertices first, then the old order (without branches:
         * which entries go is hard to foresee). */
        uint32_t n = 0;
        next_cache[n++] = a;
        next_cache[n] = b, n += b != a;
        next_cache[n] = c, n += (c != a) & (c != b);
        for (uint32_t k = 0; k < cache_count; ++k) {
            const uint32_t v = cache[k];
            next_cache[n] = v;
            n += (v != a) & (v != b) & (v != c);
        }
        /* New scores (score_of's sums, with position_score's 0 past the cache), and the
         * cached vertices with triangles left, in cache order: the only ones scanned below
         * (a finished vertex keeps its place in the cache but has nothing to score; most
         * cached vertices are finished on an ordinary mesh). */
        uint32_t live_cached = 0;
        for (uint32_t k = 0; k < n; ++k) {
            const uint32_t v = next_cache[k], live = vert[v].live;
            const float sc = position_score[k] + scores->live[live < live_max ? live : live_max];
            vscore[v] = gc_forsyth_score_live(sc, live);
            scan[live_cached] = v;
            live_cached += (live != 0) & (k < cache_size);
        }
        cache_count = n < cache_size ? n : cache_size;
        uint32_t* swap = cache;
        cache = next_cache, next_cache = swap;
        /* The next triangle: the best among the cached vertices' remaining triangles, else
         * a dead end's, else the first remaining one in input order. */
        uint32_t scan_start[GC_FORSYTH_MAX_CACHE + 3];
        gc_forsyth_scan_starts(scan, live_cached, list_start, list, scan_start);
        const uint32_t count =
            gc_forsyth_candidates(scan, live_cached, scan_start, list, records, stride, emitted, cand);
        best = gc_forsyth_best(cand, count, indices, vscore, -1.0f);
        if (best < 0)
            best = gc_forsyth_dead_end(dead_end, &dead_top, list, list_start, records, stride, emitted);
        if (best < 0) {
            while (cursor < triangle_count && gc_forsyth_emitted(emitted, cursor))
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
