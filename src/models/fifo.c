// SPDX-License-Identifier: MIT
/* fifo:N — a FIFO of insertions: a miss writes the next slot round-robin, a hit
 * changes nothing (seeds 000, 001, 002), the rule stated in fifo_rule.h. Vertices are
 * looked up one at a time in primitive order.
 *
 * Implementation: fifo_rule.h's per-vertex insertion stamp. `stamp` counts misses; a
 * vertex is cached while fewer than N misses happened since it was inserted. The slot
 * a vertex occupies is its stamp modulo N, so the ring is only kept for tracing. */
#include "fifo_rule.h"
#include "models.h"

#include <stdlib.h>

static void fifo_trace(const gc_run* run, uint64_t primitive, const uint32_t* ring, uint32_t n, uint32_t written,
                       int64_t* line)
{
    for (uint32_t i = 0; i < n; ++i)
        line[i] = i < written ? (int64_t)ring[i] : -1;
    gc_run_trace(run, primitive, line, n);
}

/* How many indices ahead the plain loop asks for the stamps of a scattered draw. */
#define PREFETCH_INDICES 32

/* The plain loop over one chunk: the whole chunk is one stream of lookups. Storing only
 * on a miss keeps a shared vertex's stamp out of the store buffer of its next lookup.
 * The stream is taken three lookups at a time (a triangle, for a triangle list; the
 * lookups stay in order, so any stream may be cut so), which checks three indices with
 * one test and halves the loop's own work: 10 to 20% faster on the corpus.
 * With `prefetch`, asks for the stamps PREFETCH_INDICES ahead (a scattered draw); with
 * `mask` non-zero, an index with a bit of `mask` set stops the loop and returns false (an
 * unchecked draw, see gc_run_state_size). */
static inline __attribute__((always_inline)) bool fifo_stream(const uint32_t* v, size_t total, uint32_t* stamps,
                                                              uint32_t n, uint32_t* stamp_io, bool prefetch,
                                                              uint32_t mask)
{
    uint32_t stamp = *stamp_io;
    const size_t prefetch_end = total > PREFETCH_INDICES + 3 ? total - PREFETCH_INDICES - 3 : 0;
    bool ok = true;
    size_t i = 0;
    for (; i + 3 <= total; i += 3) {
        if (prefetch && GC_LIKELY(i < prefetch_end)) {
            for (unsigned j = 0; j < 3; ++j) {
                const uint32_t ahead = v[i + PREFETCH_INDICES + j];
                __builtin_prefetch(stamps + (ahead & mask ? 0 : ahead), 1);
            }
        }
        const uint32_t a = v[i], b = v[i + 1], c = v[i + 2];
        if (mask && GC_UNLIKELY((a | b | c) & mask)) {
            ok = false;
            break;
        }
        gc_fifo_access(&stamps[a], &stamp, n);
        gc_fifo_access(&stamps[b], &stamp, n);
        gc_fifo_access(&stamps[c], &stamp, n);
    }
    for (; ok && i < total; ++i) {
        const uint32_t id = v[i];
        if (mask && GC_UNLIKELY(id & mask)) {
            ok = false;
            break;
        }
        gc_fifo_access(&stamps[id], &stamp, n);
    }
    *stamp_io = stamp;
    return ok;
}

bool gc_model_fifo_checks_indices(const gc_model* m, const gc_draw* draw)
{
    (void)m;
    /* the plain stream: a list without restarts is one contiguous run of lookups */
    return !draw->restart_enabled && (draw->topology == GC_POINT_LIST || draw->topology == GC_LINE_LIST ||
                                      draw->topology == GC_TRIANGLE_LIST);
}

gc_status gc_model_fifo_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err)
{
    const uint32_t n = m->p[0];
    const size_t state_size = gc_run_state_size(run);
    const uint32_t mask = run->unchecked ? ~(uint32_t)(state_size - 1) : 0;
    const bool prefetch = !run->per_vertex && !run->trace && gc_run_scattered(run);
    uint32_t* stamps = gc_run_vertex_state(run, state_size, sizeof(uint32_t));
    uint32_t* ring = run->trace ? gc_alloc_array(n, sizeof(uint32_t), false) : NULL;
    int64_t* line = run->trace ? gc_alloc_array(n, sizeof(int64_t), false) : NULL;
    if (!stamps || (run->trace && (!ring || !line))) {
        gc_run_vertex_state_free(run, stamps);
        free(ring);
        free(line);
        return gc_fail(err, GC_ERR_NOMEM, "fifo: out of memory for %u vertices", run->vertex_count);
    }
    /* Stamps start at n + 1 so that the zeroed array reads as "never inserted". */
    const uint32_t first = GC_FIFO_FIRST(n);
    uint32_t stamp = first;
    uint32_t* per_vertex = run->per_vertex;

    gc_chunker chunker;
    gc_chunk chunk;
    bool stopped = false;
    gc_chunker_init(&chunker, &run->draw, false);
    while (gc_chunker_next(&chunker, &chunk)) {
        const uint32_t* v = chunk.vertices;
        size_t total = chunk.count * chunk.arity;
        if (!per_vertex && !run->trace) {
            bool ok = prefetch ? (mask ? fifo_stream(v, total, stamps, n, &stamp, true, mask)
                                       : fifo_stream(v, total, stamps, n, &stamp, true, 0))
                               : (mask ? fifo_stream(v, total, stamps, n, &stamp, false, mask)
                                       : fifo_stream(v, total, stamps, n, &stamp, false, 0));
            if (!ok) {
                stopped = true;
                break;
            }
            continue;
        }
        for (size_t p = 0; p < chunk.count; ++p) {
            for (unsigned j = 0; j < chunk.arity; ++j) {
                const uint32_t id = v[p * chunk.arity + j], slot_stamp = stamp;
                if (gc_fifo_access(&stamps[id], &stamp, n)) {
                    if (ring)
                        ring[(slot_stamp - first) % n] = id;
                    if (per_vertex)
                        per_vertex[id]++;
                }
            }
            if (run->trace) {
                uint32_t written = stamp - first;
                fifo_trace(run, chunk.first_primitive + p, ring, n, written < n ? written : n, line);
            }
        }
    }
    gc_status s = run->unchecked ? gc_run_check_unchecked(run, stamps, state_size, stopped, err) : GC_OK;
    if (s) {
        gc_run_vertex_state_free(run, stamps);
        free(ring);
        free(line);
        return s;
    }
    out->invocations = stamp - first;
    out->has_batches = 0;
    gc_run_report_vertices(run, stamps);
    gc_run_vertex_state_free(run, stamps);
    free(ring);
    free(line);
    return GC_OK;
}

/* ------------------------------------------------------------ state machine */

/* The same rule one primitive at a time: one word per vertex, its insertion stamp. */
typedef struct fifo_sim {
    uint32_t size, stamp;
} fifo_sim;

static void fifo_reset(gc_sim_context* c)
{
    fifo_sim* s = c->state;
    s->size = ((const gc_model*)c->params)->p[0];
    s->stamp = GC_FIFO_FIRST(s->size);
}

/* One primitive, on the machine (`commit`) or only priced. */
static uint32_t fifo_step(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded, bool commit)
{
    fifo_sim s = *(fifo_sim*)c->state;
    gc_sim_overlay o = {{0}, {0}, 0, commit};
    uint32_t misses = 0;
    for (unsigned j = 0; j < p->count; ++j) {
        uint32_t id = p->vertices[j];
        uint32_t stamp = gc_sim_read(c, &o, id);
        if (gc_fifo_access(&stamp, &s.stamp, s.size)) {
            gc_sim_put(c, &o, id, stamp);
            *shaded += GC_SIM_SHADE(j);
            misses++;
        }
    }
    if (commit)
        *(fifo_sim*)c->state = s;
    return misses;
}

static uint32_t fifo_feed(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    return fifo_step(c, p, shaded, true);
}

static uint32_t fifo_peek(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    return fifo_step(c, p, shaded, false);
}

static float fifo_age(const gc_sim_context* c, uint32_t id)
{
    const fifo_sim* s = c->state;
    return gc_fifo_age(gc_fifo_age_form_of(s->size, false), s->stamp, c->words[id]);
}

const gc_sim_rule gc_rule_fifo = {
    "fifo", sizeof(fifo_sim), 1, NULL, fifo_reset, NULL, fifo_feed, NULL, NULL, fifo_age, fifo_peek,
};
