// SPDX-License-Identifier: MIT
/* lru:N, least recently used (seed 000's "last-use cache"; seed 002's LRU hypothesis),
 * stated once: vertices are looked up one at a time in primitive order; a hit moves the
 * vertex to the front, a miss puts it at the front and, in a full cache, evicts the entry
 * used longest ago. Every user of the rule drives the functions below, in one of three
 * forms, the same rule in each:
 *  - the list form, for any N: N nodes in a doubly linked recency list and per vertex its
 *    node, so that a lookup is O(1) whatever N. The model (lru.c: its simulator, and its
 *    gc_sim machine, whose writes go through the machine's log) keeps it.
 *  - the scanned form: the recency in an array and no word per vertex, a lookup a scan
 *    (Kerbl et al.'s LRUCacheSim): ati's LRU (ati.c), the same rule between its resets.
 *  - the small form, for a small N (at most GC_LRU_SMALL_MAX): the recency in an array, so
 *    that a triangle's misses are a few reads. auto's machine greedy
 *    (src/optimize/machine_inline.h) prices and feeds through it, the same prices as the
 *    model's gc_sim machine (tests/test_forsyth_flush.c checks it on the corpus). */
#ifndef GPUCACHE_LRU_RULE_H
#define GPUCACHE_LRU_RULE_H

#include "models.h"

#include <stdbool.h>
#include <stdint.h>

#define GC_LRU_SMALL_MAX 64
#define GC_LRU_NONE UINT32_MAX

/* ------------------------------------------------------------ the list form */

/* The words: per vertex its node + 1 (0: not cached); per node its vertex, the previous
 * node (towards the most recent) and the next (towards the least recent), GC_LRU_NONE at the
 * ends. `log`: a gc_sim machine whose words these are, its writes logged (gc_sim_write);
 * NULL for plain arrays. */
typedef struct gc_lru_words {
    uint32_t* node_of;
    uint32_t *vertex, *prev, *next;
    gc_sim_context* log;
} gc_lru_words;

/* The list's ends and fill (the nodes are taken in order until all N are used). */
typedef struct gc_lru_list {
    uint32_t capacity, head, tail, used;
} gc_lru_list;

static inline gc_lru_list gc_lru_list_start(uint32_t capacity)
{
    const gc_lru_list l = {capacity, GC_LRU_NONE, GC_LRU_NONE, 0};
    return l;
}

/* The words of a list of `capacity` nodes from `words`: per vertex (vertex_count of them) its
 * node + 1, then per node its vertex, then its previous node, then its next. */
static inline gc_lru_words gc_lru_words_at(uint32_t* words, uint32_t vertex_count, uint32_t capacity,
                                           gc_sim_context* log)
{
    uint32_t* nodes = words + vertex_count;
    const gc_lru_words w = {words, nodes, nodes + capacity, nodes + 2 * (size_t)capacity, log};
    return w;
}

static inline void gc_lru_set(const gc_lru_words* w, uint32_t* word, uint32_t value)
{
    if (w->log)
        gc_sim_write(w->log, (size_t)(word - w->log->words), value);
    else
        *word = value;
}

static inline void gc_lru_list_unlink(gc_lru_list* l, const gc_lru_words* w, uint32_t node)
{
    const uint32_t p = w->prev[node], n = w->next[node];
    if (p != GC_LRU_NONE)
        gc_lru_set(w, &w->next[p], n);
    else
        l->head = n;
    if (n != GC_LRU_NONE)
        gc_lru_set(w, &w->prev[n], p);
    else
        l->tail = p;
}

static inline void gc_lru_list_push_front(gc_lru_list* l, const gc_lru_words* w, uint32_t node)
{
    gc_lru_set(w, &w->prev[node], GC_LRU_NONE);
    gc_lru_set(w, &w->next[node], l->head);
    if (l->head != GC_LRU_NONE)
        gc_lru_set(w, &w->prev[l->head], node);
    l->head = node;
    if (l->tail == GC_LRU_NONE)
        l->tail = node;
}

/* Vertex v looked up: a hit moves its node to the front; a miss takes the next unused node,
 * or in a full cache the least recent one (its vertex evicted), for v at the front. 1 on a
 * miss. */
static inline uint32_t gc_lru_list_access(gc_lru_list* l, const gc_lru_words* w, uint32_t v)
{
    const uint32_t ref = w->node_of[v];
    if (ref) {
        const uint32_t node = ref - 1;
        if (node != l->head) {
            gc_lru_list_unlink(l, w, node);
            gc_lru_list_push_front(l, w, node);
        }
        return 0;
    }
    uint32_t node;
    if (l->used < l->capacity) {
        node = l->used++;
    } else {
        node = l->tail;
        gc_lru_set(w, &w->node_of[w->vertex[node]], 0);
        gc_lru_list_unlink(l, w, node);
    }
    gc_lru_set(w, &w->vertex[node], v);
    gc_lru_set(w, &w->node_of[v], node + 1);
    gc_lru_list_push_front(l, w, node);
    return 1;
}

static inline bool gc_lru_listed(const uint32_t* list, unsigned count, uint32_t v)
{
    for (unsigned i = 0; i < count; ++i)
        if (list[i] == v)
            return true;
    return false;
}

/* The misses of a primitive's `count` (at most 4) corners through an LRU of `capacity`
 * entries, `used` of them filled, the state unchanged; the shaded corners (GC_SIM_SHADE) added
 * to *shaded. Given, of the state, what the price reads: tail[], its `tails` least recent
 * vertices, least recent first (8, or all it holds when fewer: at most 4 misses, skipping at
 * most 4 touched ones, reach no further), and cached(state, v), whether vertex v is in it
 * (read as needed: with a constant function it compiles to the form's own test).
 * The vertices the primitive touches go to the front in the order of their last touch; the
 * victim of a miss in a full cache is the least recent untouched vertex, else the oldest
 * touched one. Any form of the state can give it (gc_lru_list_price; ati.c's scanned list). */
static inline __attribute__((always_inline)) uint32_t
gc_lru_price(const uint32_t* tail, unsigned tails, uint32_t used, uint32_t capacity, const uint32_t* vertices,
             unsigned count, bool (*cached)(const void* state, uint32_t v), const void* state, unsigned* shaded)
{
    uint32_t front[4], evicted[8];
    unsigned fronts = 0, evictions = 0, next_tail = 0;
    uint32_t misses = 0;
    for (unsigned j = 0; j < count; ++j) {
        const uint32_t v = vertices[j];
        unsigned at = 0;
        while (at < fronts && front[at] != v)
            ++at;
        if (at < fronts) { /* touched already: to the end of the front */
            for (; at + 1 < fronts; ++at)
                front[at] = front[at + 1];
            front[fronts - 1] = v;
            continue;
        }
        if (cached(state, v) && !gc_lru_listed(evicted, evictions, v)) { /* a hit */
            front[fronts++] = v;
            continue;
        }
        misses++;
        *shaded += GC_SIM_SHADE(j);
        if (used < capacity) {
            used++;
        } else {
            while (next_tail < tails && gc_lru_listed(front, fronts, tail[next_tail]))
                next_tail++;
            if (next_tail < tails) {
                evicted[evictions++] = tail[next_tail++];
            } else { /* only touched vertices are left: the oldest goes */
                evicted[evictions++] = front[0];
                for (unsigned k = 1; k < fronts; ++k)
                    front[k - 1] = front[k];
                fronts--;
            }
        }
        front[fronts++] = v;
    }
    return misses;
}

static inline bool gc_lru_list_cached(const void* node_of, uint32_t v)
{
    return ((const uint32_t*)node_of)[v] != 0;
}

/* gc_lru_price on the list form. */
static inline uint32_t gc_lru_list_price(const gc_lru_list* l, const gc_lru_words* w, const uint32_t* vertices,
                                         unsigned count, unsigned* shaded)
{
    uint32_t tail[8];
    unsigned tails = 0;
    for (uint32_t node = l->tail; node != GC_LRU_NONE && tails < 8; node = w->prev[node])
        tail[tails++] = w->vertex[node];
    return gc_lru_price(tail, tails, l->used, l->capacity, vertices, count, gc_lru_list_cached, w->node_of, shaded);
}

/* ------------------------------------------------------------ the scanned form */

/* The recency in the first `count` extra words of a gc_sim machine, least recent first, and
 * no word per vertex: a lookup scans (Kerbl et al.'s LRUCacheSim, which ati.c follows). Where
 * v is, or count when it is not there (from the most recent end, where a reused vertex
 * usually is; the entries are distinct). */
static inline uint32_t gc_lru_scan_find(const uint32_t* list, uint32_t count, uint32_t v)
{
    for (uint32_t i = count; i-- > 0;)
        if (list[i] == v)
            return i;
    return count;
}

/* v, found at `loc` (*count: not there), goes to the most recent end; a new one that finds
 * the `size` entries full drops the least recent. */
static inline void gc_lru_scan_insert(gc_sim_context* c, uint32_t* count, uint32_t v, uint32_t loc, uint32_t size)
{
    if (loc == *count) {
        if (*count == size)
            loc = 0; /* the least recent goes */
        else
            ++*count;
    }
    gc_sim_shift_down(c, loc, *count);
    gc_sim_write(c, *count - 1, v);
}

/* ------------------------------------------------------------ the small form */

/* The vertices by recency, most recent first, and each vertex's place + 1 (0: not cached). */
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
