// SPDX-License-Identifier: MIT
/* batch[:slots=32,prims=0] — seed 004's data assembler (NVIDIA patent 8,237,725):
 *  - primitives are gathered into batches of vertex slots; a primitive's indices
 *    are looked up in the current batch and only new ones take a slot;
 *  - primitives never span batches: one that does not fit flushes the batch and
 *    starts the next; at most `prims` primitives per batch when non-zero;
 *  - a batch whose slots are all full is flushed at once (the patent's step
 *    "if all of the slots ... are full ... flushes");
 *  - a per-vertex state change (a position p in the index stream: the state changes
 *    before index p) flushes the slots unless they are empty ("that action is not
 *    repeated"); if it falls inside a primitive, the assembler enters map mode and
 *    copies into the next batch the vertices of that primitive received before the
 *    change (the anchors a strip, fan, loop or polygon still needs); the map-mode
 *    batch runs until its next flush, after which normal mode resumes.
 * Each slot written is one vertex shader invocation. The step (new corners, the flush when
 * they do not fit or the primitive limit is reached, the full batch flushed) is stated once
 * in batch_rule.h: gc_batch_fits decides below; its triangle-list form drives auto's
 * machine greedy and gc_batch_order_cost (tests/test_batch_rule.c: the same counts). */
#include "batch_rule.h"
#include "models.h"

#include <stdlib.h>

typedef struct batch_state {
    uint32_t* batch_of;   /* vertex -> number of the batch holding it (0 = none) */
    uint32_t* slot_vertex;
    uint32_t slots, prim_limit;
    uint32_t current;     /* number of the open batch, from 1 */
    uint32_t fill, prims;
    bool map_mode;
    gc_stats* out;
    uint32_t* per_vertex;
} batch_state;

static void flush(batch_state* s)
{
    if (s->fill == 0 && s->prims == 0)
        return;
    s->out->batches++;
    s->out->slots_filled += s->fill;
    s->out->map_mode_batches += s->map_mode;
    s->map_mode = false;
    s->current++;
    s->fill = 0;
    s->prims = 0;
}

static void write_slot(batch_state* s, uint32_t id)
{
    s->batch_of[id] = s->current;
    s->slot_vertex[s->fill++] = id;
    s->out->invocations++;
    if (s->per_vertex)
        s->per_vertex[id]++;
}

gc_status gc_model_batch_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err)
{
    batch_state s = {0};
    s.slots = m->p[0];
    s.prim_limit = m->p[1];
    s.current = 1;
    s.out = out;
    s.per_vertex = run->per_vertex;
    s.batch_of = gc_run_vertex_state(run, run->vertex_count, sizeof(uint32_t));
    s.slot_vertex = gc_alloc_array(s.slots, sizeof(uint32_t), false);
    int64_t* line = run->trace ? gc_alloc_array(s.slots, sizeof(int64_t), false) : NULL;
    if (!s.batch_of || !s.slot_vertex || (run->trace && !line)) {
        gc_run_vertex_state_free(run, s.batch_of);
        free(s.slot_vertex);
        free(line);
        return gc_fail(err, GC_ERR_NOMEM, "batch: out of memory for %u vertices", run->vertex_count);
    }
    const uint64_t* changes = run->state_changes;
    size_t next_change = 0;

    gc_chunker chunker;
    gc_chunk chunk;
    gc_chunker_init(&chunker, &run->draw, true);
    while (gc_chunker_next(&chunker, &chunk)) {
        for (size_t p = 0; p < chunk.count; ++p) {
            const uint32_t* v = chunk.vertices + p * chunk.arity;
            const size_t* pos = chunk.positions + p * chunk.arity;
            size_t first = pos[0], completes = pos[0];
            for (unsigned j = 1; j < chunk.arity; ++j) {
                first = pos[j] < first ? pos[j] : first;
                completes = pos[j] > completes ? pos[j] : completes;
            }
            /* State changes up to the index that completes this primitive. */
            while (next_change < run->state_change_count && changes[next_change] <= completes) {
                uint64_t at = changes[next_change++];
                if (s.fill > 0 || s.prims > 0)
                    out->state_change_flushes++;
                flush(&s);
                if (first < at) {
                    /* Map mode: carry the vertices received before the change. */
                    s.map_mode = true;
                    for (unsigned j = 0; j < chunk.arity; ++j)
                        if (pos[j] < at && s.batch_of[v[j]] != s.current)
                            write_slot(&s, v[j]);
                }
            }
            uint32_t unique[4];
            unsigned count = gc_unique_vertices(v, chunk.arity, unique);
            unsigned misses = 0;
            for (unsigned j = 0; j < count; ++j)
                misses += s.batch_of[unique[j]] != s.current;
            if (!gc_batch_fits(s.fill, s.prims, s.slots, s.prim_limit, misses))
                flush(&s);
            for (unsigned j = 0; j < count; ++j)
                if (s.batch_of[unique[j]] != s.current)
                    write_slot(&s, unique[j]);
            s.prims++;
            if (run->trace) {
                for (uint32_t i = 0; i < s.slots; ++i)
                    line[i] = i < s.fill ? (int64_t)s.slot_vertex[i] : -1;
            }
            if (s.fill == s.slots)
                flush(&s);
            if (run->trace) {
                /* Shown as the slots held this primitive, even if a full batch was just flushed. */
                gc_run_trace(run, chunk.first_primitive + p, line, s.slots);
            }
        }
    }
    /* Changes after the last primitive still flush what is pending. */
    if (next_change < run->state_change_count && (s.fill > 0 || s.prims > 0))
        out->state_change_flushes++;
    flush(&s);
    out->has_batches = 1;
    gc_run_vertex_state_free(run, s.batch_of);
    free(s.slot_vertex);
    free(line);
    return GC_OK;
}

/* ------------------------------------------------------------ state machine */

/* The same rule one primitive at a time: one word per vertex, the number of the batch
 * holding it. */
typedef struct batch_sim {
    uint32_t slots, prim_limit, current, fill, prims;
    bool map_mode;
    uint64_t batches, slots_filled, map_mode_batches, state_change_flushes;
} batch_sim;

static void batch_sim_reset(gc_sim_context* c)
{
    batch_sim* s = c->state;
    const gc_model* m = c->params;
    s->slots = m->p[0], s->prim_limit = m->p[1];
    s->current = 1;
}

static void batch_sim_flush(batch_sim* s)
{
    if (s->fill == 0 && s->prims == 0)
        return;
    s->batches++;
    s->slots_filled += s->fill;
    s->map_mode_batches += s->map_mode;
    s->map_mode = false;
    s->current++;
    s->fill = 0;
    s->prims = 0;
}

static uint32_t batch_write(gc_sim_context* c, batch_sim* s, const gc_sim_primitive* p, unsigned j, unsigned* shaded)
{
    gc_sim_write(c, p->vertices[j], s->current);
    s->fill++;
    *shaded += GC_SIM_SHADE(j);
    return 1;
}

static uint32_t batch_feed(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    batch_sim* s = c->state;
    uint64_t first = p->positions[0];
    for (unsigned j = 1; j < p->count; ++j)
        first = p->positions[j] < first ? p->positions[j] : first;
    uint32_t written = 0;
    for (size_t i = 0; i < p->state_change_count; ++i) {
        uint64_t at = p->state_changes[i];
        if (s->fill > 0 || s->prims > 0)
            s->state_change_flushes++;
        batch_sim_flush(s);
        if (first < at) {
            s->map_mode = true;
            for (unsigned j = 0; j < p->count; ++j)
                if (p->positions[j] < at && c->words[p->vertices[j]] != s->current)
                    written += batch_write(c, s, p, j, shaded);
        }
    }
    unsigned corner[4], misses = 0;
    const unsigned count = gc_sim_unique_corners(p, corner);
    for (unsigned k = 0; k < count; ++k)
        misses += c->words[p->vertices[corner[k]]] != s->current;
    if (!gc_batch_fits(s->fill, s->prims, s->slots, s->prim_limit, misses))
        batch_sim_flush(s);
    for (unsigned k = 0; k < count; ++k)
        if (c->words[p->vertices[corner[k]]] != s->current)
            written += batch_write(c, s, p, corner[k], shaded);
    s->prims++;
    if (s->fill == s->slots)
        batch_sim_flush(s);
    return written;
}

static void batch_finish(gc_sim_context* c, size_t pending)
{
    batch_sim* s = c->state;
    if (pending && (s->fill > 0 || s->prims > 0))
        s->state_change_flushes++;
    batch_sim_flush(s);
}

static void batch_stats(const gc_sim_context* c, gc_stats* out)
{
    const batch_sim* s = c->state;
    out->has_batches = 1;
    out->batches = s->batches;
    out->slots_filled = s->slots_filled;
    out->map_mode_batches = s->map_mode_batches;
    out->state_change_flushes = s->state_change_flushes;
}

const gc_sim_rule gc_rule_batch = {
    "batch", sizeof(batch_sim), 1, NULL, batch_sim_reset, NULL, batch_feed, batch_finish, batch_stats, NULL, NULL,
};
