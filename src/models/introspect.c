// SPDX-License-Identifier: MIT
/* Seed 000's introspection, by simulation (gc_introspect): which indices are still cached
 * after a draw. The method asks, for every candidate index I, whether drawing the buffer
 * followed by `arity` copies of I costs more invocations than the buffer alone. Drawn as
 * it is, that is a draw per candidate: O(candidates x indices). Through the model's state
 * machine the draws share everything but their tail: the primitives of the probe draw that
 * use only the buffer's indices are fed once, the state is saved, and each candidate feeds
 * the few primitives that use the appended copies, then rolls back. O(indices + candidates)
 * for every model, with the counts the per-candidate draws would give (the machine is the
 * model's rule; the appended indices also count in the run's length, which llvmpipe's
 * segments depend on, as they would on a device). */
#include "models.h"

#include <stdlib.h>
#include <string.h>

/* A primitive of the probe draw's tail: which corners are the appended copies. */
typedef struct tail_primitive {
    gc_sim_primitive p;
    unsigned appended; /* bit j: corner j is a copy of the candidate */
} tail_primitive;

#define MAX_TAIL 16 /* an appended triangle adds at most 3 strip or fan primitives and a loop's close */

static int compare_u32(const void* a, const void* b)
{
    uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return (x > y) - (x < y);
}

gc_status gc_introspect(const gc_model* model, const gc_draw* draw, const uint32_t* candidates, size_t candidate_count,
                        uint32_t* cached, size_t* cached_count, gc_error* err)
{
    *cached_count = 0;
    uint64_t primitive_count = 0;
    gc_status s = gc_draw_validate(draw, "input", &primitive_count, err);
    if (s)
        return s;
    gc_stats baseline;
    if ((s = gc_analyze(model, draw, NULL, &baseline, err)))
        return s;
    const size_t n = draw->index_count;
    const unsigned arity = gc_topology_arity(draw->topology);
    /* Dense ids: the distinct values of the draw and the candidates, sorted; the machine
     * hashes the values through this table. */
    uint32_t* values = gc_alloc_array(n + candidate_count + 1, sizeof(uint32_t), false);
    uint32_t* probe = gc_alloc_array(n + arity, sizeof(uint32_t), false);
    gc_sim* sim = NULL;
    if (!values || !probe) {
        s = gc_fail(err, GC_ERR_NOMEM, "introspect: out of memory for %zu indices", n);
        goto done;
    }
    size_t distinct = 0;
    for (size_t i = 0; i < n; ++i)
        if (!(draw->restart_enabled && draw->indices[i] == draw->restart_value))
            values[distinct++] = draw->indices[i];
    memcpy(values + distinct, candidates, candidate_count * sizeof *values);
    distinct += candidate_count;
    qsort(values, distinct, sizeof *values, compare_u32);
    size_t unique = 0;
    for (size_t i = 0; i < distinct; ++i)
        if (unique == 0 || values[unique - 1] != values[i])
            values[unique++] = values[i];
    if (unique >= UINT32_MAX) {
        s = gc_fail(err, GC_ERR_LIMIT, "introspect: too many distinct indices");
        goto done;
    }
    /* the probe draw: the buffer as dense ids, then `arity` places for the candidate */
    for (size_t i = 0; i < n; ++i) {
        uint32_t v = draw->indices[i];
        if (draw->restart_enabled && v == draw->restart_value) {
            probe[i] = UINT32_MAX;
            continue;
        }
        const uint32_t* at = bsearch(&v, values, unique, sizeof *values, compare_u32);
        probe[i] = (uint32_t)(at - values);
    }
    for (unsigned k = 0; k < arity; ++k)
        probe[n + k] = 0;
    if ((s = gc_sim_create(model, (uint32_t)(unique ? unique : 1), values, &sim, err)))
        goto done;
    gc_sim_reset(sim, draw->topology);

    /* Feed the primitives that use only the buffer's indices; keep the tail's aside. */
    tail_primitive tail[MAX_TAIL];
    size_t tail_count = 0;
    uint64_t prefix = 0;
    const gc_draw probe_draw = {probe, n + arity, draw->topology, 1, UINT32_MAX};
    gc_sim_stream stream;
    gc_sim_stream_init(&stream, sim, &probe_draw);
    tail_primitive t;
    memset(&t, 0, sizeof t);
    while (gc_sim_stream_next(&stream, &t.p)) {
        t.appended = 0;
        for (unsigned j = 0; j < t.p.count; ++j)
            t.appended |= (unsigned)(t.p.positions[j] >= n) << j;
        if (!t.appended && tail_count == 0) {
            prefix += gc_sim_feed(sim, &t.p, NULL);
        } else if (tail_count < MAX_TAIL) {
            tail[tail_count++] = t;
        } else {
            s = gc_fail(err, GC_ERR_DATA, "introspect: the probe's tail has more than %d primitives", MAX_TAIL);
            goto done;
        }
    }

    /* Each candidate: the tail with its id in the appended corners, then back. */
    gc_sim_save(sim);
    for (size_t c = 0; c < candidate_count; ++c) {
        const uint32_t* at = bsearch(&candidates[c], values, unique, sizeof *values, compare_u32);
        const uint32_t id = (uint32_t)(at - values);
        uint64_t cost = prefix;
        for (size_t t = 0; t < tail_count; ++t) {
            gc_sim_primitive p = tail[t].p;
            for (unsigned j = 0; j < p.count; ++j)
                if (tail[t].appended >> j & 1)
                    p.vertices[j] = id;
            cost += gc_sim_feed(sim, &p, NULL);
        }
        if ((s = gc_sim_restore(sim, err)))
            goto done;
        if (cost == baseline.invocations)
            cached[(*cached_count)++] = candidates[c];
    }
done:
    gc_sim_destroy(sim);
    free(values);
    free(probe);
    return s;
}
