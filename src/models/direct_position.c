// SPDX-License-Identifier: MIT
/* direct-position:N: seed 000's second "CPU cache-ish" policy, stated in
 * direct_position_rule.h; here its runs over a draw and its gc_sim machine. */
#include "models.h"
#include "direct_position_rule.h"

#include <stdlib.h>

#define EMPTY GC_DP_EMPTY

gc_status gc_model_direct_position_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err)
{
    const uint32_t n = m->p[0];
    uint32_t* slots = gc_alloc_array(n, sizeof(uint32_t), false);
    uint32_t* slot_of = gc_run_vertex_state(run, run->vertex_count, sizeof(uint32_t)); /* slot + 1, 0 = absent */
    int64_t* line = run->trace ? gc_alloc_array(n, sizeof(int64_t), false) : NULL;
    if (!slots || !slot_of || (run->trace && !line)) {
        free(slots);
        gc_run_vertex_state_free(run, slot_of);
        free(line);
        return gc_fail(err, GC_ERR_NOMEM, "direct-position: out of memory for %u vertices", run->vertex_count);
    }
    for (uint32_t i = 0; i < n; ++i)
        slots[i] = EMPTY;
    uint64_t invocations = 0;
    gc_chunker chunker;
    gc_chunk chunk;
    gc_chunker_init(&chunker, &run->draw, true);
    while (gc_chunker_next(&chunker, &chunk)) {
        for (size_t p = 0; p < chunk.count; ++p) {
            const uint32_t* v = chunk.vertices + p * chunk.arity;
            const size_t* pos = chunk.positions + p * chunk.arity;
            for (unsigned j = 0; j < chunk.arity; ++j) {
                const uint32_t id = v[j];
                if (!gc_dp_access(slot_of, slots, n, id, pos[j]))
                    continue;
                invocations++;
                if (run->per_vertex)
                    run->per_vertex[id]++;
            }
            if (run->trace)
                gc_run_trace_slots(run, chunk.first_primitive + p, slots, n, EMPTY, line);
        }
    }
    out->invocations = invocations;
    out->has_batches = 0;
    free(slots);
    gc_run_vertex_state_free(run, slot_of);
    free(line);
    return GC_OK;
}

/* ------------------------------------------------------------ state machine */

/* The same rule one primitive at a time, written through gc_sim_write. Words: per vertex its slot + 1 (0: absent), then
 * per slot the vertex id + 1 (0: empty). */
static size_t direct_position_extra(const void* params)
{
    return ((const gc_model*)params)->p[0];
}

static uint32_t direct_position_feed(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    const uint32_t n = ((const gc_model*)c->params)->p[0];
    const size_t slots = c->vertex_count;
    uint32_t misses = 0;
    for (unsigned j = 0; j < p->count; ++j) {
        uint32_t id = p->vertices[j];
        if (c->words[id])
            continue;
        uint32_t slot = gc_dp_slot(p->positions[j], n);
        uint32_t old = c->words[slots + slot];
        if (old)
            gc_sim_write(c, old - 1, 0);
        gc_sim_write(c, slots + slot, id + 1);
        gc_sim_write(c, id, slot + 1);
        *shaded += GC_SIM_SHADE(j);
        misses++;
    }
    return misses;
}

const gc_sim_rule gc_rule_direct_position = {
    "direct-position", 0, 1, direct_position_extra, NULL, NULL, direct_position_feed, NULL, NULL, NULL, NULL,
};
