/* forsyth — Tom Forsyth, "Linear-Speed Vertex Cache Optimisation" (2006), with his
 * published constants: CacheDecayPower 1.5, LastTriScore 0.75, ValenceBoostScale 2.0,
 * ValenceBoostPower 0.5, and a modelled LRU cache of `cache_size` entries (his 32).
 *
 * Each vertex has a score from its position in the modelled cache and its number of
 * remaining triangles; a triangle's score is the sum of its vertices'. After emitting the
 * best triangle, the cache is updated and the next one is the best among the remaining
 * triangles of the cached vertices. Two choices keep it linear on any input:
 *  - each vertex keeps its remaining triangles in a compact list (emitted ones are removed
 *    in O(1)), and only the first VALENCE_SCAN (32) of them are scored per step: a vertex
 *    used by 100,000 triangles costs as much as one used by 32. Every triangle of an
 *    ordinary mesh is scanned (valences are far below 32), so the order is Forsyth's there;
 *  - when no cached vertex has triangles left, the next triangle is one of the most
 *    recently emitted vertex that still has triangles (a dead-end stack, as Tipsify's),
 *    else the first remaining one in input order. Forsyth rescans every triangle for the
 *    best score there, which is quadratic on meshes with many dead ends. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define VALENCE_SCAN 32

typedef struct forsyth {
    const uint32_t* indices;
    const gc_forsyth_scores* scores;
    const uint32_t* live;       /* remaining triangles per vertex (lists.live) */
    int32_t* position;          /* cache position, -1 when not cached */
    float* vertex_score;
    const uint32_t* list_start; /* remaining triangles of v at list[list_start[v] ..] (lists.adj) */
    const uint32_t* list;
} forsyth;

static float score_of(const forsyth* f, uint32_t v)
{
    uint32_t n = f->live[v];
    if (n == 0)
        return -1.0f;
    int32_t p = f->position[v];
    const gc_forsyth_scores* sc = f->scores;
    return (p < 0 ? 0.0f : sc->position[p]) + sc->live[n < sc->live_count ? n : sc->live_count - 1];
}

gc_status gc_opt_forsyth(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count, uint32_t cache_size,
                         uint32_t* order, gc_error* err)
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
    return gc_opt_forsyth_scored(indices, triangle_count, vertex_count, &sc, order, err);
}

gc_status gc_opt_forsyth_scored(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                const gc_forsyth_scores* scores, uint32_t* order, gc_error* err)
{
    if (triangle_count == 0)
        return GC_OK;
    const uint32_t cache_size = scores->cache_size;
    if (cache_size < 1 || cache_size > GC_FORSYTH_MAX_CACHE || scores->live_count < 2 ||
        scores->live_count > GC_FORSYTH_MAX_LIVE)
        return gc_fail(err, GC_ERR_USAGE, "forsyth: bad score tables");
    gc_live_triangles lists;
    gc_status s = gc_live_triangles_init(&lists, indices, triangle_count, vertex_count, err);
    if (s)
        return s;
    forsyth f;
    memset(&f, 0, sizeof f);
    f.indices = indices;
    f.scores = scores;
    f.live = lists.live;
    f.list_start = lists.adj.offsets;
    f.list = lists.adj.triangles;
    f.position = gc_alloc_array(vertex_count, sizeof(int32_t), false);
    f.vertex_score = gc_alloc_array(vertex_count, sizeof(float), false);
    unsigned char* emitted = gc_alloc_array(triangle_count, 1, true);
    uint32_t* dead_end = gc_alloc_array(triangle_count * 3, sizeof(uint32_t), false);
    if (!f.position || !f.vertex_score || !emitted || !dead_end) {
        free(f.position), free(f.vertex_score), free(emitted), free(dead_end);
        gc_live_triangles_free(&lists);
        return gc_fail(err, GC_ERR_NOMEM, "forsyth: out of memory");
    }
    for (uint32_t v = 0; v < vertex_count; ++v)
        f.position[v] = -1;
    for (uint32_t v = 0; v < vertex_count; ++v)
        f.vertex_score[v] = score_of(&f, v);

    uint32_t cache[GC_FORSYTH_MAX_CACHE + 3], next_cache[GC_FORSYTH_MAX_CACHE + 3];
    uint32_t cache_count = 0;
    size_t cursor = 0, written = 0, dead_top = 0;
    int64_t best = -1;
    /* The first triangle: the best score overall (one linear scan). */
    float best_score = -1.0f;
    for (size_t t = 0; t < triangle_count; ++t) {
        float sc = f.vertex_score[indices[3 * t]] + f.vertex_score[indices[3 * t + 1]] +
                   f.vertex_score[indices[3 * t + 2]];
        if (sc > best_score) {
            best_score = sc;
            best = (int64_t)t;
        }
    }
    while (best >= 0) {
        uint32_t t = (uint32_t)best;
        const uint32_t* tv = indices + 3 * t;
        emitted[t] = 1;
        order[written++] = t;
        gc_live_triangles_remove(&lists, indices, t);
        for (int c = 0; c < 3; ++c)
            dead_end[dead_top++] = tv[c];
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
        for (uint32_t k = 0; k < n; ++k) {
            uint32_t v = next_cache[k];
            f.position[v] = k < cache_size ? (int32_t)k : -1;
            f.vertex_score[v] = score_of(&f, v);
        }
        cache_count = n < cache_size ? n : cache_size;
        memcpy(cache, next_cache, cache_count * sizeof *cache);
        /* The next triangle: the best among the cached vertices' remaining triangles. */
        best = -1;
        best_score = -1.0f;
        for (uint32_t k = 0; k < cache_count; ++k) {
            uint32_t v = cache[k];
            uint32_t scan = f.live[v] < VALENCE_SCAN ? f.live[v] : VALENCE_SCAN;
            for (uint32_t a = f.list_start[v]; a < f.list_start[v] + scan; ++a) {
                uint32_t u = f.list[a];
                float sc = f.vertex_score[indices[3 * u]] + f.vertex_score[indices[3 * u + 1]] +
                           f.vertex_score[indices[3 * u + 2]];
                if (sc > best_score) {
                    best_score = sc;
                    best = u;
                }
            }
        }
        while (best < 0 && dead_top > 0) {
            uint32_t d = dead_end[--dead_top];
            if (f.live[d] > 0)
                best = f.list[f.list_start[d]];
        }
        if (best < 0) {
            while (cursor < triangle_count && emitted[cursor])
                ++cursor;
            if (cursor < triangle_count)
                best = (int64_t)cursor;
        }
    }
    free(f.position), free(f.vertex_score), free(emitted), free(dead_end);
    gc_live_triangles_free(&lists);
    if (written != triangle_count)
        return gc_fail(err, GC_ERR_DATA, "forsyth: emitted %zu of %zu triangles", written, triangle_count);
    return GC_OK;
}
