// SPDX-License-Identifier: MIT
/* direct-value:N — seed 000's first "CPU cache-ish" policy: the slot of a vertex
 * is its index value modulo N; a lookup compares that one slot. */
#include "models.h"

#include <stdlib.h>

#define EMPTY UINT32_MAX

gc_status gc_model_direct_value_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err)
{
    const uint32_t n = m->p[0];
    uint32_t* slots = gc_alloc_array(n, sizeof(uint32_t), false);
    int64_t* line = run->trace ? gc_alloc_array(n, sizeof(int64_t), false) : NULL;
    if (!slots || (run->trace && !line)) {
        free(slots);
        free(line);
        return gc_fail(err, GC_ERR_NOMEM, "direct-value: out of memory for %u slots", n);
    }
    for (uint32_t i = 0; i < n; ++i)
        slots[i] = EMPTY;
    uint64_t invocations = 0;
    gc_chunker chunker;
    gc_chunk chunk;
    gc_chunker_init(&chunker, &run->draw, false);
    while (gc_chunker_next(&chunker, &chunk)) {
        for (size_t p = 0; p < chunk.count; ++p) {
            const uint32_t* v = chunk.vertices + p * chunk.arity;
            for (unsigned j = 0; j < chunk.arity; ++j) {
                /* The slot follows the index value the application wrote, not our dense id. */
                uint32_t slot = gc_run_value(run, v[j]) % n;
                if (slots[slot] != v[j]) {
                    slots[slot] = v[j];
                    invocations++;
                    if (run->per_vertex)
                        run->per_vertex[v[j]]++;
                }
            }
            if (run->trace)
                gc_run_trace_slots(run, chunk.first_primitive + p, slots, n, EMPTY, line);
        }
    }
    out->invocations = invocations;
    out->has_batches = 0;
    free(slots);
    free(line);
    return GC_OK;
}

/* ------------------------------------------------------------ state machine */

/* The same rule one primitive at a time. Words: per slot, the vertex id + 1 (0: empty). */
static size_t direct_value_extra(const void* params)
{
    return ((const gc_model*)params)->p[0];
}

/* One primitive, on the machine (`commit`) or only priced (gc_sim_peek: an overlay instead
 * of the writes, which later corners of the primitive see). */
static uint32_t direct_value_step(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded, bool commit)
{
    const uint32_t n = ((const gc_model*)c->params)->p[0];
    gc_sim_overlay o; /* only its first `count` entries are read */
    o.count = 0, o.commit = commit;
    uint32_t misses = 0;
    for (unsigned j = 0; j < p->count; ++j) {
        uint32_t id = p->vertices[j];
        uint32_t value = gc_sim_value(c, id);
        uint32_t slot = n & (n - 1) ? value % n : value & (n - 1); /* the same slot, without a division */
        if (gc_sim_read(c, &o, slot) != id + 1) {
            gc_sim_put(c, &o, slot, id + 1);
            *shaded += GC_SIM_SHADE(j);
            misses++;
        }
    }
    return misses;
}

static uint32_t direct_value_feed(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    return direct_value_step(c, p, shaded, true);
}

static uint32_t direct_value_peek(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    return direct_value_step(c, p, shaded, false);
}

const gc_sim_rule gc_rule_direct_value = {
    "direct-value", 0, 0, direct_value_extra, NULL, NULL, direct_value_feed, NULL, NULL, NULL, direct_value_peek,
};
