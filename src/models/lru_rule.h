// SPDX-License-Identifier: MIT
/* lru:N, least recently used (seed 000's "last-use cache"; seed 002's LRU hypothesis),
 * stated once: vertices are looked up one at a time in primitive order; a hit moves the
 * vertex to the front, a miss puts it at the front and, in a full cache, evicts the entry
 * used longest ago. The model (lru.c) keeps the recency in a linked list, O(1) a lookup
 * whatever N; for a small N (at most GC_LRU_SMALL_MAX) the form below keeps it in an array,
 * so that a triangle's misses are a few reads: auto's machine greedy
 * (src/optimize/machine_inline.h) prices and feeds through it, the same prices as the
 * model's gc_sim machine (tests/test_forsyth_flush.c checks it on the corpus).
 *
 * The small form: the vertices by recency, most recent first, and each vertex's place + 1
 * (0: not cached). */
#ifndef GPUCACHE_LRU_RULE_H
#define GPUCACHE_LRU_RULE_H

#include "../internal.h"

#include <stdbool.h>
#include <stdint.h>

#define GC_LRU_SMALL_MAX 64
#define GC_LRU_NONE UINT32_MAX

typedef struct gc_lru_small {
    uint32_t size, used;
    uint32_t* place;                  /* per vertex: place + 1; 0: not cached */
    uint32_t entry[GC_LRU_SMALL_MAX]; /* the vertices by recency */
} gc_lru_small;

/* The misses of triangle tv, the state unchanged. A corner hits when its vertex repeats an
 * earlier corner, or when its place, plus the earlier corners that missed or came from
 * behind it (each pushes it back one), is below N. */
static inline uint32_t gc_lru_small_price3(const gc_lru_small* m, const uint32_t* tv)
{
    uint32_t misses = 0;
    uint32_t from[3]; /* each earlier corner's place, GC_LRU_NONE when it missed */
    for (int c = 0; c < 3; ++c) {
        const uint32_t v = tv[c];
        if ((c > 0 && v == tv[0]) || (c > 1 && v == tv[1])) {
            from[c] = 0; /* at the front: moves nothing behind it */
            continue;
        }
        const uint32_t p = m->place[v] ? m->place[v] - 1 : GC_LRU_NONE;
        uint32_t at = p;
        for (int e = 0; e < c && p != GC_LRU_NONE; ++e)
            if (!((e > 0 && tv[e] == tv[0]) || (e > 1 && tv[e] == tv[1])))
                at += from[e] == GC_LRU_NONE || from[e] > p;
        const bool hit = p != GC_LRU_NONE && at < m->size;
        from[c] = hit ? p : GC_LRU_NONE;
        misses += !hit;
    }
    return misses;
}

/* Vertex v looked up: to the front; the entries before its place (or all, on a miss) move
 * back one, the least recent evicted from a full cache. */
static inline void gc_lru_small_access(gc_lru_small* m, uint32_t v)
{
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
}

#endif
