// SPDX-License-Identifier: MIT
/* reuse:W,F,T: seed 002's warp hypothesis, its rule stated in reuse_rule.h (a warp of at most
 * W vertices, a corner compared with the last F vertices added to it, the warp flushed before
 * a triangle whose unique misses would overflow W or after T triangles). Unlike meshopt's
 * analyzer, a degenerate triangle's repeated corner counts once in the overflow test. */
#include "models.h"
#include "reuse_rule.h"

#include <stdlib.h>

gc_status gc_model_reuse_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err)
{
    const uint32_t warp = m->p[0], window = m->p[1] ? m->p[1] : m->p[0], limit = m->p[2];
    /* A vertex is in the window while fewer than `window` vertices joined the warp
     * after it; a flush moves the stamp past every window. 64-bit stamps: flushes
     * advance them by window + 1, which 32 bits could not hold for long draws. */
    uint64_t* stamps = gc_run_vertex_state(run, run->vertex_count, sizeof(uint64_t));
    uint32_t* members = run->trace ? gc_alloc_array(warp, sizeof(uint32_t), false) : NULL;
    int64_t* line = run->trace ? gc_alloc_array(warp, sizeof(int64_t), false) : NULL;
    if (!stamps || (run->trace && (!members || !line))) {
        gc_run_vertex_state_free(run, stamps);
        free(members);
        free(line);
        return gc_fail(err, GC_ERR_NOMEM, "reuse: out of memory for %u vertices", run->vertex_count);
    }
    uint64_t stamp = (uint64_t)window + 1; /* zeroed stamps read as "never seen" */
    uint64_t invocations = 0, warps = 0, flushes = 0;
    uint32_t fill = 0, triangles = 0;
    gc_chunker chunker;
    gc_chunk chunk;
    gc_chunker_init(&chunker, &run->draw, false);
    while (gc_chunker_next(&chunker, &chunk)) {
        for (size_t p = 0; p < chunk.count; ++p) {
            uint32_t unique[4];
            bool miss[4];
            unsigned count = gc_unique_vertices(chunk.vertices + p * chunk.arity, chunk.arity, unique);
            unsigned misses = 0;
            for (unsigned j = 0; j < count; ++j) {
                miss[j] = !gc_reuse_in_window(stamp - stamps[unique[j]] - 1, window);
                misses += miss[j];
            }
            if (gc_reuse_flushes(triangles, limit, fill, misses, warp)) {
                warps += fill > 0;
                fill = 0;
                triangles = 0;
                flushes++;
                stamp += (uint64_t)window + 1;
                for (unsigned j = 0; j < count; ++j)
                    miss[j] = true;
            }
            for (unsigned j = 0; j < count; ++j) {
                if (!miss[j])
                    continue;
                stamps[unique[j]] = stamp++;
                if (members)
                    members[fill] = unique[j];
                fill++;
                invocations++;
                if (run->per_vertex)
                    run->per_vertex[unique[j]]++;
            }
            triangles++;
            if (run->trace) {
                for (uint32_t i = 0; i < warp; ++i)
                    line[i] = i < fill ? (int64_t)members[i] : -1;
                gc_run_trace(run, chunk.first_primitive + p, line, warp);
            }
        }
    }
    warps += fill > 0;
    out->invocations = invocations;
    out->has_batches = 1;
    out->batches = warps;
    out->resets = flushes;
    gc_run_vertex_state_free(run, stamps);
    free(members);
    free(line);
    return GC_OK;
}

/* ------------------------------------------------------------ state machine */

/* The same rule one primitive at a time. Words per vertex: the number of the warp it joined
 * (0: none) and its place in that warp. A vertex is in the compare window while fewer than
 * `window` vertices joined the warp after it. */
typedef struct reuse_sim {
    uint32_t warp, window, limit;
    uint32_t current, fill, triangles;
    uint64_t warps, flushes;
} reuse_sim;

static void reuse_sim_reset(gc_sim_context* c)
{
    reuse_sim* s = c->state;
    const gc_model* m = c->params;
    s->warp = m->p[0], s->window = m->p[1] ? m->p[1] : m->p[0], s->limit = m->p[2];
    s->current = 1;
}

static uint32_t reuse_feed(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    reuse_sim* s = c->state;
    unsigned corner[4], misses = 0;
    bool miss[4];
    const unsigned count = gc_sim_unique_corners(p, corner);
    for (unsigned k = 0; k < count; ++k) {
        const uint32_t* w = c->words + 2 * (size_t)p->vertices[corner[k]];
        miss[k] = !(w[0] == s->current && gc_reuse_in_window(s->fill - w[1] - 1, s->window));
        misses += miss[k];
    }
    if (gc_reuse_flushes(s->triangles, s->limit, s->fill, misses, s->warp)) {
        s->warps += s->fill > 0;
        s->fill = 0;
        s->triangles = 0;
        s->flushes++;
        s->current++;
        for (unsigned k = 0; k < count; ++k)
            miss[k] = true;
        misses = count;
    }
    for (unsigned k = 0; k < count; ++k) {
        if (!miss[k])
            continue;
        size_t at = 2 * (size_t)p->vertices[corner[k]];
        gc_sim_write(c, at, s->current);
        gc_sim_write(c, at + 1, s->fill++);
        *shaded += GC_SIM_SHADE(corner[k]);
    }
    s->triangles++;
    return misses;
}

static void reuse_stats(const gc_sim_context* c, gc_stats* out)
{
    const reuse_sim* s = c->state;
    out->has_batches = 1;
    out->batches = s->warps + (s->fill > 0);
    out->resets = s->flushes;
}

const gc_sim_rule gc_rule_reuse = {
    "reuse", sizeof(reuse_sim), 2, NULL, reuse_sim_reset, NULL, reuse_feed, NULL, reuse_stats, NULL, NULL,
};
