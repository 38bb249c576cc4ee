// SPDX-License-Identifier: MIT
/* The machines of lru:N, direct-position:N and batch written out for the machine greedy
 * (auto_machine_greedy.c, issue 33): the same rules as src/models/lru.c and
 * direct_position.c, priced a triangle at a time without the rule table's overlay, so that
 * a candidate costs a few reads. Their prices are gc_sim_peek's, so the greedy's order is
 * the same either way (tests/test_forsyth_flush.c checks it on the corpus).
 *  - lru:N (3 <= N <= INLINE_MAX): the vertices by recency, most recent first, and each
 *    vertex's place + 1 (0: not cached). A corner of the triangle priced hits when its
 *    vertex repeats an earlier corner, or when its place, plus the earlier corners that
 *    missed or came from behind it (each pushes it back one), is below N.
 *  - direct-position:N (N >= 3): each slot's vertex and each vertex's slot + 1 (0: not
 *    cached); a corner misses when its vertex is not cached or an earlier corner's miss
 *    wrote over its slot (a repeated corner too), and then takes the slot of its position in
 *    the stream modulo N.
 *  - batch:slots=S,prims=P (S >= 3; seed 004's slots, src/models/batch.c without state
 *    changes): each vertex's batch number (0: none; the open one is `current`, from 1); a
 *    triangle costs its distinct corners not in the open batch, or all its distinct corners
 *    when those do not fit in the S - used free slots or the batch has its P primitives
 *    (P > 0): it flushes and starts the next; a batch whose slots are full flushes at once. */
#ifndef GPUCACHE_MACHINE_INLINE_H
#define GPUCACHE_MACHINE_INLINE_H

#include "optimize.h"

#include <stdlib.h>
#include <string.h>

#define INLINE_MAX 64
#define INLINE_NONE UINT32_MAX

typedef struct inline_machine {
    int kind; /* 0: none, 1: lru, 2: direct-position, 3: batch */
    uint32_t size, used;
    uint32_t current, prims, prim_limit; /* batch: the open batch's number (from 1), its primitives, the limit */
    uint32_t* place; /* per vertex: lru place + 1 or direct-position slot + 1; 0: not cached */
    uint32_t entry[INLINE_MAX]; /* lru: by recency; direct-position: unused (slots in `slots`) */
    uint32_t* slots; /* direct-position: per slot its vertex (INLINE_NONE: empty) */
} inline_machine;

/* The machine for a target, or kind 0 when it has none written out (nothing allocated). */
static inline gc_status inline_machine_init(inline_machine* m, const gc_model* target, uint32_t vertex_count,
                                            gc_error* err)
{
    memset(m, 0, sizeof *m);
    if (target->family == GC_MODEL_LRU && target->p[0] >= 3 && target->p[0] <= INLINE_MAX)
        m->kind = 1;
    else if (target->family == GC_MODEL_DIRECT_POSITION && target->p[0] >= 3)
        m->kind = 2;
    else if (target->family == GC_MODEL_BATCH && target->p[0] >= 3)
        m->kind = 3, m->current = 1, m->prim_limit = target->p[1];
    else
        return GC_OK;
    m->size = target->p[0];
    m->place = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof(uint32_t), true);
    if (m->kind == 2)
        m->slots = gc_alloc_array(m->size, sizeof(uint32_t), false);
    if (!m->place || (m->kind == 2 && !m->slots)) {
        free(m->place), free(m->slots);
        m->place = m->slots = NULL;
        m->kind = 0;
        return gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the machine of %u vertices", vertex_count);
    }
    for (uint32_t s = 0; m->kind == 2 && s < m->size; ++s)
        m->slots[s] = INLINE_NONE;
    return GC_OK;
}

static inline void inline_machine_free(inline_machine* m)
{
    free(m->place), free(m->slots);
}

/* The invocations triangle tv would cost now, as the number-th primitive (corner positions
 * 3 number + c). */
static inline uint32_t inline_machine_peek(const inline_machine* m, const uint32_t* tv, uint64_t number)
{
    uint32_t misses = 0;
    if (m->kind == 3) {
        /* batch (batch_window.c's rule): the distinct corners not in the open batch, or all
           of them when they do not fit (or the primitive limit is reached): a new batch */
        const uint32_t a = tv[0], b = tv[1], c = tv[2], cur = m->current;
        const uint32_t distinct = 1u + (b != a) + (c != a && c != b);
        misses = (m->place[a] != cur) + (b != a && m->place[b] != cur) + (c != a && c != b && m->place[c] != cur);
        return (m->prim_limit && m->prims == m->prim_limit) || m->used + misses > m->size ? distinct : misses;
    }
    if (m->kind == 1) {
        uint32_t from[3]; /* each earlier corner's place, INLINE_NONE when it missed */
        for (int c = 0; c < 3; ++c) {
            const uint32_t v = tv[c];
            if ((c > 0 && v == tv[0]) || (c > 1 && v == tv[1])) {
                from[c] = 0; /* at the front: moves nothing behind it */
                continue;
            }
            const uint32_t p = m->place[v] ? m->place[v] - 1 : INLINE_NONE;
            uint32_t at = p;
            for (int e = 0; e < c && p != INLINE_NONE; ++e)
                if (!((e > 0 && tv[e] == tv[0]) || (e > 1 && tv[e] == tv[1])))
                    at += from[e] == INLINE_NONE || from[e] > p;
            const bool hit = p != INLINE_NONE && at < m->size;
            from[c] = hit ? p : INLINE_NONE;
            misses += !hit;
        }
        return misses;
    }
    /* the slots the earlier corners' misses wrote, and their vertices: the three slots differ
     * (N >= 3), so a vertex written in this triangle stays; one cached before stays unless its
     * slot was written (a repeated corner too: the corner between may have written its slot) */
    uint32_t slot[3], vertex[3], count = 0;
    for (int c = 0; c < 3; ++c) {
        const uint32_t v = tv[c];
        bool hit = m->place[v] != 0, written = false;
        for (uint32_t e = 0; e < count; ++e) {
            written |= vertex[e] == v;
            hit &= slot[e] != m->place[v] - 1;
        }
        if (!hit && !written) {
            slot[count] = (uint32_t)((3 * number + (uint64_t)c) % m->size);
            vertex[count++] = v;
            misses++;
        }
    }
    return misses;
}

/* Feeds triangle tv, the number-th primitive, to the machine. */
static inline void inline_machine_feed(inline_machine* m, const uint32_t* tv, uint64_t number)
{
    if (m->kind == 3) {
        const uint32_t misses = inline_machine_peek(m, tv, number);
        const uint32_t a = tv[0], b = tv[1], c = tv[2];
        if ((m->prim_limit && m->prims == m->prim_limit) ||
            m->used + ((m->place[a] != m->current) + (b != a && m->place[b] != m->current) +
                       (c != a && c != b && m->place[c] != m->current)) > m->size)
            m->current++, m->used = 0, m->prims = 0; /* the batch flushes (it holds something) */
        m->place[a] = m->place[b] = m->place[c] = m->current;
        m->used += misses;
        m->prims++;
        if (m->used >= m->size)
            m->current++, m->used = 0, m->prims = 0;
        return;
    }
    for (int c = 0; c < 3; ++c) {
        const uint32_t v = tv[c];
        if (m->kind == 1) {
            /* to the front: the entries before its place (or all, on a miss) move back one */
            uint32_t p;
            if (m->place[v]) {
                p = m->place[v] - 1;
            } else if (m->used < m->size) {
                p = m->used++;
            } else {
                p = m->size - 1;
                m->place[m->entry[p]] = 0; /* the least recent: evicted */
            }
            for (; p > 0; --p) {
                m->entry[p] = m->entry[p - 1];
                m->place[m->entry[p]] = p + 1;
            }
            m->entry[0] = v;
            m->place[v] = 1;
        } else if (!m->place[v]) {
            const uint32_t slot = (uint32_t)((3 * number + (uint64_t)c) % m->size);
            if (m->slots[slot] != INLINE_NONE)
                m->place[m->slots[slot]] = 0;
            m->slots[slot] = v;
            m->place[v] = slot + 1;
        }
    }
}

#endif
