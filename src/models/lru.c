// SPDX-License-Identifier: MIT
/* lru:N: least recently used, the rule stated in lru_rule.h and run in its list form (a
 * lookup is O(1) whatever N). Vertices are looked up one at a time in primitive order. */
#include "lru_rule.h"
#include "models.h"

#include <stdlib.h>
#include <string.h>

gc_status gc_model_lru_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err)
{
    gc_lru_list l = gc_lru_list_start(m->p[0]);
    uint32_t* node_of = gc_run_vertex_state(run, run->vertex_count, sizeof(uint32_t));
    uint32_t* nodes = gc_alloc_array(l.capacity, 3 * sizeof(uint32_t), false);
    const gc_lru_words w = {node_of, nodes, nodes + l.capacity, nodes + 2 * (size_t)l.capacity, NULL};
    int64_t* line = run->trace ? gc_alloc_array(l.capacity, sizeof(int64_t), false) : NULL;
    gc_status status = GC_OK;
    if (!node_of || !nodes || (run->trace && !line)) {
        status = gc_fail(err, GC_ERR_NOMEM, "lru: out of memory for %u vertices", run->vertex_count);
        goto done;
    }
    uint64_t invocations = 0;
    gc_chunker chunker;
    gc_chunk chunk;
    gc_chunker_init(&chunker, &run->draw, false);
    while (gc_chunker_next(&chunker, &chunk)) {
        for (size_t p = 0; p < chunk.count; ++p) {
            const uint32_t* v = chunk.vertices + p * chunk.arity;
            for (unsigned j = 0; j < chunk.arity; ++j) {
                if (gc_lru_list_access(&l, &w, v[j])) {
                    invocations++;
                    if (run->per_vertex)
                        run->per_vertex[v[j]]++;
                }
            }
            if (run->trace) {
                /* Least recently used first, most recent last. */
                size_t k = 0;
                for (uint32_t node = l.tail; node != GC_LRU_NONE; node = w.prev[node])
                    line[k++] = w.vertex[node];
                gc_run_trace(run, chunk.first_primitive + p, line, k);
            }
        }
    }
    out->invocations = invocations;
    out->has_batches = 0;
done:
    gc_run_vertex_state_free(run, node_of);
    free(nodes);
    free(line);
    return status;
}

/* ------------------------------------------------------------ state machine */

/* The same rule one primitive at a time. Words: per vertex its node + 1, then the nodes'
 * vertices, previous and next nodes (lru_rule.h's list form, gc_lru_words_at); the writes
 * logged through the machine. */
static size_t lru_extra(const void* params)
{
    return 3 * (size_t)((const gc_model*)params)->p[0];
}

static void lru_reset(gc_sim_context* c)
{
    *(gc_lru_list*)c->state = gc_lru_list_start(((const gc_model*)c->params)->p[0]);
}

static gc_lru_words lru_words(gc_sim_context* c)
{
    return gc_lru_words_at(c->words, c->vertex_count, ((const gc_lru_list*)c->state)->capacity, c);
}

static uint32_t lru_feed(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    gc_lru_list* l = c->state;
    const gc_lru_words w = lru_words(c);
    uint32_t misses = 0;
    for (unsigned j = 0; j < p->count; ++j) {
        if (gc_lru_list_access(l, &w, p->vertices[j])) {
            *shaded += GC_SIM_SHADE(j);
            misses++;
        }
    }
    return misses;
}

static uint32_t lru_peek(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    const gc_lru_words w = lru_words(c);
    return gc_lru_list_price(c->state, &w, p->vertices, p->count, shaded);
}

const gc_sim_rule gc_rule_lru = {
    "lru", sizeof(gc_lru_list), 1, lru_extra, lru_reset, NULL, lru_feed, NULL, NULL, NULL, lru_peek,
};
