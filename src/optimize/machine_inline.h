// SPDX-License-Identifier: MIT
/* The machines of lru:N, direct-position:N, batch, llvmpipe and direct-value:N written out for
 * the machine greedy (auto_machine_greedy.c, issue 33), priced a triangle at a time without
 * the rule table's overlay, so that a candidate costs a few reads. The rules and their steps
 * are the models' own, stated next to them: src/models/lru_rule.h (lru:N, 3 <= N <=
 * GC_LRU_SMALL_MAX), src/models/direct_position_rule.h (direct-position:N, N >= 3),
 * src/models/batch_rule.h (batch:slots=S,prims=P, S >= 3; its triangle-list form, no state
 * changes) and src/models/llvmpipe_rule.h (llvmpipe's table cleared at each segment, its
 * triangle-list form; direct-value:N is that table of N entries without segments). Their
 * prices are gc_sim_peek's, so the greedy's order is the same either way
 * (tests/test_forsyth_flush.c checks it on the corpus; tests/test_batch_rule.c for batch,
 * tests/test_llvmpipe_greedy.c and tests/test_llvmpipe_pipe.c for the tables). */
#ifndef GPUCACHE_MACHINE_INLINE_H
#define GPUCACHE_MACHINE_INLINE_H

#include "optimize.h"
#include "../models/batch_rule.h"
#include "../models/direct_position_rule.h"
#include "../models/llvmpipe_rule.h"
#include "../models/lru_rule.h"

#include <stdlib.h>
#include <string.h>

typedef struct inline_machine {
    int kind; /* 0: none, 1: lru, 2: direct-position, 3: batch, 4: a value-keyed table (llvmpipe, direct-value) */
    gc_lru_small lru; /* lru: its state; direct-position: size and place (per vertex slot + 1);
                         batch: place (per vertex its batch number, 0: none) */
    uint32_t* slots;  /* direct-position: per slot its vertex (GC_DP_EMPTY: empty) */
    gc_batch_open batch; /* batch: the open batch */
    gc_llvmpipe_list table; /* the table: its state (the list's primitives numbered from 0) */
    uint64_t first;         /* the table: the number of the list's first primitive */
    bool fresh;             /* the table: the step's primitive starts a segment (inline_machine_step) */
} inline_machine;

/* The machine for a target, or kind 0 when it has none written out (nothing allocated).
 * values: the table's keys (NULL: the vertices' numbers; the other kinds take none: kind 0);
 * first_number: the list's first primitive's number; stream_length: the draw's indices (0:
 * the list alone). */
static inline gc_status inline_machine_init(inline_machine* m, const gc_model* target, uint32_t vertex_count,
                                            const uint32_t* values, uint64_t first_number, uint64_t stream_length,
                                            uint64_t triangle_count, gc_error* err)
{
    memset(m, 0, sizeof *m);
    const bool llvmpipe = target->family == GC_MODEL_LLVMPIPE;
    if (llvmpipe || target->family == GC_MODEL_DIRECT_VALUE) {
        /* llvmpipe: its table of p[1] entries, cleared at each segment of p[0] indices (the
           segments counted from the list's start, as llvmpipe's own greedy did); direct-value:N
           a table of N entries keyed alike, never cleared */
        const uint32_t map = llvmpipe ? target->p[1] : target->p[0];
        if (map == 0)
            return GC_OK;
        uint64_t loop_lines;
        m->table = (gc_llvmpipe_list){NULL, values, map,
                                      llvmpipe ? gc_llvmpipe_per_segment(GC_TRIANGLE_LIST,
                                                                         stream_length ? stream_length
                                                                                       : 3 * triangle_count,
                                                                         target->p[0], &loop_lines)
                                               : 0,
                                      0};
        m->first = first_number;
        if (!(m->table.table = gc_alloc_array(map, sizeof(uint32_t), true)))
            return gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for a table of %u entries", map);
        m->kind = 4;
        return GC_OK;
    }
    if (values)
        return GC_OK;
    if (target->family == GC_MODEL_LRU && target->p[0] >= 3 && target->p[0] <= GC_LRU_SMALL_MAX)
        m->kind = 1;
    else if (target->family == GC_MODEL_DIRECT_POSITION && target->p[0] >= 3)
        m->kind = 2;
    else if (target->family == GC_MODEL_BATCH && target->p[0] >= 3)
        m->kind = 3, m->batch = gc_batch_start(target->p[0], target->p[1]);
    else
        return GC_OK;
    m->lru.size = target->p[0];
    m->lru.place = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof(uint32_t), true);
    if (m->kind == 2)
        m->slots = gc_alloc_array(m->lru.size, sizeof(uint32_t), false);
    if (!m->lru.place || (m->kind == 2 && !m->slots)) {
        free(m->lru.place), free(m->slots);
        m->lru.place = m->slots = NULL;
        m->kind = 0;
        return gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the machine of %u vertices", vertex_count);
    }
    for (uint32_t s = 0; m->kind == 2 && s < m->lru.size; ++s)
        m->slots[s] = GC_DP_EMPTY;
    return GC_OK;
}

static inline void inline_machine_free(inline_machine* m)
{
    free(m->lru.place), free(m->slots), free(m->table.table);
}

/* Before the number-th primitive's candidates are priced (the table: whether it starts a
 * segment, once a step). */
static inline void inline_machine_step(inline_machine* m, uint64_t number)
{
    if (m->kind == 4)
        m->fresh = gc_llvmpipe_list_fresh(&m->table, number - m->first);
}

/* The invocations triangle tv would cost now, as the number-th primitive (corner positions
 * 3 number + c). */
static inline uint32_t inline_machine_peek(const inline_machine* m, const uint32_t* tv, uint64_t number)
{
    if (m->kind == 4)
        return gc_llvmpipe_price3(&m->table, tv, m->fresh);
    if (m->kind == 3)
        return gc_batch_price3(&m->batch, m->lru.place, tv);
    if (m->kind == 1)
        return gc_lru_small_price3(&m->lru, tv);
    return gc_dp_price3(m->lru.place, m->lru.size, tv, number);
}

/* Feeds triangle tv, the number-th primitive, to the machine; the table's misses (the other
 * kinds: 0, not counted). */
static inline uint32_t inline_machine_feed(inline_machine* m, const uint32_t* tv, uint64_t number)
{
    if (m->kind == 4)
        return gc_llvmpipe_feed3(&m->table, tv, number - m->first);
    if (m->kind == 3) {
        gc_batch_feed3(&m->batch, m->lru.place, tv);
        return 0;
    }
    for (int c = 0; c < 3; ++c) {
        if (m->kind == 1)
            gc_lru_small_access(&m->lru, tv[c]);
        else
            gc_dp_access(m->lru.place, m->slots, m->lru.size, tv[c], 3 * number + (uint64_t)c);
    }
    return 0;
}

#endif
