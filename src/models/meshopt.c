// SPDX-License-Identifier: MIT
/* meshopt:C,W,P — the model of meshoptimizer 0.18's meshopt_analyzeVertexCache
 * (cache size C, warp size W, primitive group size P; 0 = no limit), reproduced
 * for its exact counts, quirks included:
 *  - a vertex is cached while fewer than C vertices were transformed after it
 *    within the current warp (a FIFO of C inside the warp);
 *  - before a primitive, the warp is flushed when P primitives are already in it,
 *    or when its misses would overflow W; those misses are counted per corner, so
 *    a degenerate (a, a, b) with a and b uncached counts 3 for that check;
 *  - the stamps are 32-bit and wrap as meshoptimizer's do.
 * Lines and points go through the same rules with 1 or 2 corners. */
#include "fifo_rule.h"
#include "models.h"

#include <stdlib.h>
#include <string.h>

typedef struct meshopt_params {
    uint32_t cache, warp, group;
} meshopt_params;

/* The plain triangle list, where the rule allows any cache and warp sizes. */
static uint64_t run_triangles(const uint32_t* idx, size_t triangles, uint32_t* stamps, meshopt_params k,
                              uint64_t* warps_out, uint64_t* flushes_out)
{
    uint32_t stamp = GC_FIFO_FIRST(k.cache);
    uint32_t warp_fill = 0, group_fill = 0;
    uint64_t warps = 0, misses = 0, flushes = 0;
    for (size_t t = 0; t < triangles; ++t) {
        uint32_t a = idx[3 * t], b = idx[3 * t + 1], c = idx[3 * t + 2];
        const uint32_t corner_misses = gc_fifo_missed(stamp, stamps[a], k.cache) +
                                       gc_fifo_missed(stamp, stamps[b], k.cache) +
                                       gc_fifo_missed(stamp, stamps[c], k.cache);
        if (GC_UNLIKELY(gc_meshopt_flushes(gc_meshopt_group_full(group_fill, k.group), warp_fill, corner_misses,
                                           k.warp))) {
            warps += warp_fill > 0;
            warp_fill = 0;
            group_fill = 0;
            flushes++;
            stamp = gc_fifo_flush(stamp, k.cache);
        }
        /* One corner after the other: a degenerate corner hits its own new entry. */
        const uint32_t ma = gc_fifo_access(&stamps[a], &stamp, k.cache);
        const uint32_t mb = gc_fifo_access(&stamps[b], &stamp, k.cache);
        const uint32_t mc = gc_fifo_access(&stamps[c], &stamp, k.cache);
        warp_fill += ma + mb + mc;
        misses += ma + mb + mc;
        group_fill++;
    }
    warps += warp_fill > 0;
    *warps_out = warps;
    *flushes_out = flushes;
    return misses;
}

/* How many triangles ahead a loop asks for the stamps of a scattered draw. */
#define PREFETCH_TRIANGLES 12

/* The same rule, for the common case of a cache at least as large as the warp (every
 * preset but meshopt:14,64,128), where nothing is evicted inside a warp: a vertex is
 * cached exactly when it was inserted since the warp began. So each vertex keeps only the
 * number of the last warp that shaded it (warps count from 1; 0 is a vertex never
 * shaded), and the loop runs warp by warp, the group limit its bound. Three choices make
 * it fast (docs/PERFORMANCE.md has the measurements):
 *  - The word a corner writes is the warp's number, known before any lookup, so every
 *    corner is written without a branch, and a later lookup of the same vertex does not
 *    wait on the misses before it (a per-miss stamp, as meshoptimizer keeps, does).
 *  - A word is never above the warp's number, so "missed" is the sign of word - warp:
 *    one subtraction and a shift, no compare-and-set.
 *  - A triangle brings at most 3 misses, so while the warp holds at most W - 3 the
 *    overflow test cannot fire and is skipped (one predictable compare instead). The
 *    corners are looked up one after the other, each after the previous one's write,
 *    which counts a degenerate corner once. Near a full warp, the triangle is first
 *    tested on the words as they were before it (a degenerate corner counted twice, as
 *    meshoptimizer counts it).
 * Warp numbers stay below 2^31 (the caller's check: fewer than 2^32 - 1 indices), so the
 * sign is exact. With `prefetch`, asks for the words of a triangle PREFETCH_TRIANGLES
 * ahead (a scattered draw); with `mask` non-zero, an index with a bit of `mask` set stops
 * the loop (*stopped; an unchecked draw, see gc_run_state_size). Returns the misses. */
static inline __attribute__((always_inline)) uint64_t run_warps(const uint32_t* idx, size_t triangles,
                                                                uint32_t* warp_of, meshopt_params k, bool prefetch,
                                                                uint32_t mask, uint64_t* warps_out, bool* stopped)
{
#define GC_MISSED(v) ((warp_of[v] - warp) >> 31)
#define GC_PREFETCH_AHEAD()                                                                                      \
    if (prefetch && GC_LIKELY(t < prefetch_end)) {                                                               \
        const uint32_t* f = idx + 3 * (t + PREFETCH_TRIANGLES);                                                  \
        /* clamped: an index not checked yet must not make a wild address */                                    \
        const uint32_t limit = ~mask;                                                                            \
        __builtin_prefetch(warp_of + (f[0] <= limit ? f[0] : 0), 1);                                             \
        __builtin_prefetch(warp_of + (f[1] <= limit ? f[1] : 0), 1);                                             \
        __builtin_prefetch(warp_of + (f[2] <= limit ? f[2] : 0), 1);                                             \
    }
    uint32_t warp = 0;
    uint64_t misses = 0;
    const size_t prefetch_end = triangles > PREFETCH_TRIANGLES ? triangles - PREFETCH_TRIANGLES : 0;
    const uint32_t roomy = k.warp - 3; /* at or below this fill, a triangle cannot overflow */
    size_t t = 0;
    while (t < triangles) {
        warp++;
        uint32_t warp_fill = 0;
        const size_t group_end = k.group && k.group < triangles - t ? t + k.group : triangles;
        for (; t < group_end; ++t) {
            GC_PREFETCH_AHEAD()
            const uint32_t a = idx[3 * t], b = idx[3 * t + 1], c = idx[3 * t + 2];
            if (mask && GC_UNLIKELY((a | b | c) & mask)) {
                *stopped = true;
                return 0;
            }
            /* the overflow test counts corners, a degenerate corner twice (meshoptimizer's) */
            if (GC_UNLIKELY(warp_fill > roomy) && warp_fill + GC_MISSED(a) + GC_MISSED(b) + GC_MISSED(c) > k.warp)
                break; /* flush: this triangle opens the next warp */
            const uint32_t ma = GC_MISSED(a);
            warp_of[a] = warp;
            const uint32_t mb = GC_MISSED(b);
            warp_of[b] = warp;
            const uint32_t mc = GC_MISSED(c);
            warp_of[c] = warp;
            warp_fill += ma + mb + mc;
        }
        misses += warp_fill;
    }
#undef GC_MISSED
#undef GC_PREFETCH_AHEAD
    *warps_out = warp;
    return misses;
}

/* run_warps' four loops: ordered or scattered draw, checked or unchecked indices. Each is
 * its own function, so that its few live values stay in registers (inlined into the
 * driver, the loop spilled its warp fill to the stack, a store and a load on the chain
 * from one triangle to the next). */
#define GC_WARPS_LOOP(name, prefetch, masked)                                                                      \
    static __attribute__((noinline)) uint64_t name(const uint32_t* idx, size_t triangles, uint32_t* warp_of,     \
                                                   meshopt_params k, uint32_t mask, uint64_t* warps, bool* stopped) \
    {                                                                                                            \
        (void)mask;                                                                                              \
        return run_warps(idx, triangles, warp_of, k, prefetch, masked ? mask : 0, warps, stopped);               \
    }
GC_WARPS_LOOP(warps_ordered, false, false)
GC_WARPS_LOOP(warps_ordered_unchecked, false, true)
GC_WARPS_LOOP(warps_scattered, true, false)
GC_WARPS_LOOP(warps_scattered_unchecked, true, true)

static uint64_t run_warps_any(const uint32_t* idx, size_t triangles, uint32_t* warp_of, meshopt_params k,
                              bool prefetch, uint32_t mask, uint64_t* warps, bool* stopped)
{
    if (prefetch)
        return mask ? warps_scattered_unchecked(idx, triangles, warp_of, k, mask, warps, stopped)
                    : warps_scattered(idx, triangles, warp_of, k, mask, warps, stopped);
    return mask ? warps_ordered_unchecked(idx, triangles, warp_of, k, mask, warps, stopped)
                : warps_ordered(idx, triangles, warp_of, k, mask, warps, stopped);
}

/* run_warps takes the draw: a triangle list, a warp that holds a triangle, a cache that
 * holds the warp, and stamps that cannot wrap. */
static bool warps_apply(meshopt_params k, const gc_draw* d)
{
    return d->topology == GC_TRIANGLE_LIST && !d->restart_enabled && k.warp >= 3 && k.cache >= k.warp &&
           d->index_count < UINT32_MAX;
}

bool gc_model_meshopt_checks_indices(const gc_model* m, const gc_draw* draw)
{
    return warps_apply((meshopt_params){m->p[0], m->p[1], m->p[2]}, draw);
}

/* The counts into *out, the vertices reported (gc_run_report_vertices), the stamps freed. */
static gc_status meshopt_finish(const gc_run* run, uint32_t* stamps, uint64_t invocations, uint64_t warps,
                                uint64_t resets, gc_stats* out)
{
    out->invocations = invocations;
    out->has_batches = 1;
    out->batches = warps;
    out->resets = resets;
    gc_run_report_vertices(run, stamps);
    gc_run_vertex_state_free(run, stamps);
    return GC_OK;
}

gc_status gc_model_meshopt_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err)
{
    const meshopt_params k = {m->p[0], m->p[1], m->p[2]};
    const size_t state_size = gc_run_state_size(run);
    uint32_t* stamps = gc_run_vertex_state(run, state_size, sizeof(uint32_t));
    uint32_t* ring = run->trace ? gc_alloc_array(k.cache, sizeof(uint32_t), false) : NULL;
    int64_t* line = run->trace ? gc_alloc_array(k.cache, sizeof(int64_t), false) : NULL;
    if (!stamps || (run->trace && (!ring || !line))) {
        gc_run_vertex_state_free(run, stamps);
        free(ring);
        free(line);
        return gc_fail(err, GC_ERR_NOMEM, "meshopt: out of memory for %u vertices", run->vertex_count);
    }
    gc_chunker chunker;
    gc_chunk chunk;
    gc_chunker_init(&chunker, &run->draw, false);

    uint64_t invocations = 0, warps = 0, flushes = 0;
    const bool plain = !run->per_vertex && !run->trace && chunker.contiguous && run->draw.topology == GC_TRIANGLE_LIST;
    if (run->unchecked && !(plain && warps_apply(k, &run->draw))) {
        gc_run_vertex_state_free(run, stamps);
        return gc_fail(err, GC_ERR_USAGE, "meshopt: the driver handed an unchecked draw to a checked loop");
    }
    if (plain && warps_apply(k, &run->draw)) {
        const size_t triangles = run->draw.index_count / 3;
        bool stopped = false;
        const uint32_t mask = run->unchecked ? ~(uint32_t)(state_size - 1) : 0;
        invocations = run_warps_any(run->draw.indices, triangles, stamps, k, gc_run_scattered(run), mask, &warps,
                                    &stopped);
        gc_status s = run->unchecked ? gc_run_check_unchecked(run, stamps, state_size, stopped, err) : GC_OK;
        if (s) {
            gc_run_vertex_state_free(run, stamps);
            return s;
        }
        return meshopt_finish(run, stamps, invocations, warps, warps > 0 ? warps - 1 : 0, out);
    }
    if (plain) {
        invocations = run_triangles(run->draw.indices, run->draw.index_count / 3, stamps, k, &warps, &flushes);
        return meshopt_finish(run, stamps, invocations, warps, flushes, out);
    }

    uint32_t stamp = GC_FIFO_FIRST(k.cache);
    uint32_t flush_stamp = stamp; /* stamp at the last flush: ring slots count from here */
    uint32_t warp_fill = 0, group_fill = 0;
    if (ring)
        memset(ring, 0xff, k.cache * sizeof(uint32_t));
    while (gc_chunker_next(&chunker, &chunk)) {
        for (size_t p = 0; p < chunk.count; ++p) {
            const uint32_t* v = chunk.vertices + p * chunk.arity;
            uint32_t corner_misses = 0;
            for (unsigned j = 0; j < chunk.arity; ++j)
                corner_misses += gc_fifo_missed(stamp, stamps[v[j]], k.cache);
            if (gc_meshopt_flushes(gc_meshopt_group_full(group_fill, k.group), warp_fill, corner_misses, k.warp)) {
                warps += warp_fill > 0;
                warp_fill = 0;
                group_fill = 0;
                flushes++;
                stamp = gc_fifo_flush(stamp, k.cache);
                flush_stamp = stamp;
                if (ring)
                    memset(ring, 0xff, k.cache * sizeof(uint32_t));
            }
            for (unsigned j = 0; j < chunk.arity; ++j) {
                const uint32_t id = v[j], slot_stamp = stamp;
                if (gc_fifo_access(&stamps[id], &stamp, k.cache)) {
                    if (ring)
                        ring[(slot_stamp - flush_stamp) % k.cache] = id;
                    invocations++;
                    warp_fill++;
                    if (run->per_vertex)
                        run->per_vertex[id]++;
                }
            }
            group_fill++;
            if (run->trace) {
                for (uint32_t i = 0; i < k.cache; ++i)
                    line[i] = ring[i] == UINT32_MAX ? -1 : (int64_t)ring[i];
                gc_run_trace(run, chunk.first_primitive + p, line, k.cache);
            }
        }
    }
    warps += warp_fill > 0;
    free(ring);
    free(line);
    return meshopt_finish(run, stamps, invocations, warps, flushes, out);
}

/* ------------------------------------------------------------ state machine */

/* The same rule one primitive at a time: one word per vertex, its stamp. */
typedef struct meshopt_sim {
    meshopt_params k;
    uint32_t stamp, warp_fill, group_fill;
    uint64_t warps, flushes;
} meshopt_sim;

static void meshopt_sim_reset(gc_sim_context* c)
{
    meshopt_sim* s = c->state;
    const gc_model* m = c->params;
    s->k = (meshopt_params){m->p[0], m->p[1], m->p[2]};
    s->stamp = GC_FIFO_FIRST(s->k.cache);
}

/* One primitive, on the machine (`commit`) or only priced. */
static uint32_t meshopt_step(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded, bool commit)
{
    meshopt_sim s = *(meshopt_sim*)c->state;
    gc_sim_overlay o = {{0}, {0}, 0, commit};
    uint32_t corner_misses = 0;
    for (unsigned j = 0; j < p->count; ++j)
        corner_misses += gc_fifo_missed(s.stamp, c->words[p->vertices[j]], s.k.cache);
    if (gc_meshopt_flushes(gc_meshopt_group_full(s.group_fill, s.k.group), s.warp_fill, corner_misses, s.k.warp)) {
        s.warps += s.warp_fill > 0;
        s.warp_fill = 0;
        s.group_fill = 0;
        s.flushes++;
        s.stamp = gc_fifo_flush(s.stamp, s.k.cache);
    }
    uint32_t misses = 0;
    for (unsigned j = 0; j < p->count; ++j) {
        uint32_t id = p->vertices[j];
        uint32_t stamp = gc_sim_read(c, &o, id);
        if (gc_fifo_access(&stamp, &s.stamp, s.k.cache)) {
            gc_sim_put(c, &o, id, stamp);
            *shaded += GC_SIM_SHADE(j);
            misses++;
        }
    }
    s.warp_fill += misses;
    s.group_fill++;
    if (commit)
        *(meshopt_sim*)c->state = s;
    return misses;
}

static uint32_t meshopt_feed(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    return meshopt_step(c, p, shaded, true);
}

static uint32_t meshopt_peek(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    return meshopt_step(c, p, shaded, false);
}

static void meshopt_stats(const gc_sim_context* c, gc_stats* out)
{
    const meshopt_sim* s = c->state;
    out->has_batches = 1;
    out->batches = s->warps + (s->warp_fill > 0);
    out->resets = s->flushes;
}

static float meshopt_age(const gc_sim_context* c, uint32_t id)
{
    const meshopt_sim* s = c->state;
    return gc_fifo_age(gc_fifo_age_form_of(s->k.cache, true), s->stamp, c->words[id]);
}

const gc_sim_rule gc_rule_meshopt = {
    "meshopt", sizeof(meshopt_sim), 1, NULL, meshopt_sim_reset, NULL, meshopt_feed, NULL, meshopt_stats, meshopt_age,
    meshopt_peek,
};
