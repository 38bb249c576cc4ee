// SPDX-License-Identifier: MIT
/* nvidia[:size=32,idle=16,life=32]: seed 000's rule for an NVIDIA GPU, stated in
 * nvidia_rule.h (with its bookkeeping, by slot, that this simulator runs); see
 * docs/models/nvidia.md. Here: the runs over a draw (chunks, traces, counters) and the
 * gc_sim machine. */
#include "models.h"
#include "nvidia_rule.h"

#include <stdlib.h>

typedef struct nvidia_state {
    gc_nv_slots rule;
    uint32_t* vertex; /* slot -> vertex (for traces) */
    uint64_t invocations, resets;
    uint32_t* per_vertex;
} nvidia_state;

/* One primitive of `count` corners v, those not `fresh` repeating earlier ones. */
static inline void primitive(nvidia_state* s, const uint32_t* v, const bool* fresh, unsigned count, uint32_t prim)
{
    int32_t inserted[4];
    s->resets += gc_nv_feed(&s->rule, v, fresh, count, prim, inserted);
    for (unsigned j = 0; j < count; ++j)
        if (inserted[j] >= 0) {
            s->vertex[inserted[j]] = v[j];
            s->invocations++;
            if (s->per_vertex)
                s->per_vertex[v[j]]++;
        }
}

/* `count` triangles in a row, numbered from `prim`, without a trace, the state in locals
 * (through `s`, every store to a slot array could alias the counters, which the compiler
 * then reloads). */
static void triangles(nvidia_state* s, const uint32_t* v, size_t count, uint32_t prim)
{
    gc_nv_slots rule = s->rule;
    uint32_t* const vertex = s->vertex;
    uint32_t* const per_vertex = s->per_vertex;
    uint64_t invocations = s->invocations, resets = s->resets;
    for (size_t p = 0; p < count; ++p, ++prim) {
        const uint32_t* tv = v + 3 * p;
        bool fresh[3];
        int32_t inserted[3];
        gc_nv_fresh3(tv, fresh);
        resets += gc_nv_feed(&rule, tv, fresh, 3, prim, inserted);
        for (unsigned k = 0; k < 3; ++k)
            if (inserted[k] >= 0) {
                vertex[inserted[k]] = tv[k];
                invocations++;
                if (per_vertex)
                    per_vertex[tv[k]]++;
            }
    }
    s->rule = rule;
    s->invocations = invocations, s->resets = resets;
}

gc_status gc_model_nvidia_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err)
{
    nvidia_state s = {0};
    gc_nv_slots* r = &s.rule;
    r->size = m->p[0];
    r->idle = m->p[1];
    r->life = m->p[2];
    s.per_vertex = run->per_vertex;
    r->vertex_count = run->vertex_count;
    r->tag = gc_run_vertex_state(run, run->vertex_count, sizeof(uint32_t));
    r->expires = gc_alloc_array(r->size, sizeof(uint32_t), true);
    r->life_end = gc_alloc_array(r->size, sizeof(uint32_t), true);
    s.vertex = gc_alloc_array(r->size, sizeof(uint32_t), true);
    int64_t* line = run->trace ? gc_alloc_array(r->size, sizeof(int64_t), false) : NULL;
    gc_status status = GC_OK;
    if (!r->tag || !r->expires || !r->life_end || !s.vertex || (run->trace && !line)) {
        status = gc_fail(err, GC_ERR_NOMEM, "nvidia: out of memory for %u vertices", run->vertex_count);
        goto done;
    }
    r->epoch = 1;
    gc_chunker chunker;
    gc_chunk chunk;
    gc_chunker_init(&chunker, &run->draw, false);
    while (gc_chunker_next(&chunker, &chunk)) {
        if (chunk.arity == 3 && !run->trace) {
            triangles(&s, chunk.vertices, chunk.count, (uint32_t)chunk.first_primitive);
            continue;
        }
        for (size_t p = 0; p < chunk.count; ++p) {
            const uint32_t prim = (uint32_t)(chunk.first_primitive + p);
            const uint32_t* v = chunk.vertices + p * chunk.arity;
            if (chunk.arity == 3) {
                bool fresh[3];
                gc_nv_fresh3(v, fresh);
                primitive(&s, v, fresh, 3, prim);
            } else {
                uint32_t unique[4];
                const bool fresh[4] = {true, true, true, true};
                primitive(&s, unique, fresh, gc_unique_vertices(v, chunk.arity, unique), prim);
            }
            if (GC_UNLIKELY(run->trace != NULL)) {
                /* What the next primitive can match, in slot order: what seed 000's probe reads back. */
                size_t k = 0;
                for (uint32_t slot = 0; slot < r->next; ++slot)
                    if (prim + 1 < r->expires[slot])
                        line[k++] = s.vertex[slot];
                gc_run_trace(run, prim, line, k);
            }
        }
    }
    out->invocations = s.invocations;
    out->resets = s.resets;
    out->has_batches = 0;
done:
    gc_run_vertex_state_free(run, r->tag);
    free(r->expires);
    free(r->life_end);
    free(s.vertex);
    free(line);
    return status;
}

/* ------------------------------------------------------------ state machine */

/* The same rule (nvidia_rule.h) one primitive at a time, its state by slot in the machine's
 * words, written through gc_sim_write: per vertex its tag (epoch, slot), then per slot the
 * first primitive that cannot match it and its insertion + life. */
typedef struct nvidia_sim {
    uint32_t size, idle, life, epoch, next;
    uint64_t resets;
} nvidia_sim;

static size_t nvidia_extra(const void* params)
{
    return 2 * (size_t)((const gc_model*)params)->p[0];
}

static void nvidia_sim_reset(gc_sim_context* c)
{
    nvidia_sim* s = c->state;
    const gc_model* m = c->params;
    s->size = m->p[0], s->idle = m->p[1], s->life = m->p[2];
    s->epoch = 1;
}

static uint32_t nvidia_feed(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    nvidia_sim* s = c->state;
    const uint32_t* expires = c->words + c->vertex_count;
    const size_t life_end = c->vertex_count + s->size;
    const uint32_t prim = (uint32_t)p->number;
    int32_t hit[4];
    unsigned corner[4], misses = 0;
    const unsigned count = gc_sim_unique_corners(p, corner);
    for (unsigned k = 0; k < count; ++k) {
        hit[k] = gc_nv_tag_lookup(c->words[p->vertices[corner[k]]], s->epoch, expires, prim);
        misses += hit[k] < 0;
    }
    if (gc_nv_overflows(s->next, misses, s->size)) {
        bool wrapped;
        s->epoch = gc_nv_next_epoch(s->epoch, &wrapped);
        for (uint32_t i = 0; wrapped && i < c->vertex_count; ++i)
            gc_sim_write(c, i, 0);
        s->next = 0;
        s->resets++;
        for (unsigned k = 0; k < count; ++k)
            hit[k] = -1;
        misses = count;
    }
    for (unsigned k = 0; k < count; ++k) {
        uint32_t slot = (uint32_t)hit[k];
        if (hit[k] < 0) {
            slot = s->next++;
            gc_sim_write(c, p->vertices[corner[k]], gc_nv_tag(s->epoch, slot));
            gc_sim_write(c, life_end + slot, gc_nv_end(prim, s->life));
            *shaded += GC_SIM_SHADE(corner[k]);
        }
        gc_sim_write(c, c->vertex_count + slot, gc_nv_expiry(prim, s->idle, c->words[life_end + slot]));
    }
    return misses;
}

static void nvidia_stats(const gc_sim_context* c, gc_stats* out)
{
    out->resets = ((const nvidia_sim*)c->state)->resets;
}

const gc_sim_rule gc_rule_nvidia = {
    "nvidia", sizeof(nvidia_sim), 1, nvidia_extra, nvidia_sim_reset, NULL, nvidia_feed, NULL, nvidia_stats, NULL, NULL,
};
