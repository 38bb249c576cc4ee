// SPDX-License-Identifier: MIT
/* lru:N: least recently used, the rule stated in lru_rule.h. Vertices are looked up one at
 * a time in primitive order.
 *
 * Implementation: N nodes in a doubly linked recency list and a per-vertex node
 * reference, so every lookup is O(1) whatever N. */
#include "models.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

typedef struct lru_state {
    uint32_t* node_of;  /* vertex -> node + 1, 0 when not cached */
    uint32_t* vertex;   /* node -> vertex */
    uint32_t* prev;     /* towards the most recent */
    uint32_t* next;     /* towards the least recent */
    uint32_t head, tail, used, capacity;
} lru_state;

static void unlink_node(lru_state* s, uint32_t node)
{
    uint32_t p = s->prev[node], n = s->next[node];
    if (p != NONE)
        s->next[p] = n;
    else
        s->head = n;
    if (n != NONE)
        s->prev[n] = p;
    else
        s->tail = p;
}

static void push_front(lru_state* s, uint32_t node)
{
    s->prev[node] = NONE;
    s->next[node] = s->head;
    if (s->head != NONE)
        s->prev[s->head] = node;
    s->head = node;
    if (s->tail == NONE)
        s->tail = node;
}

/* Returns 1 on a miss. */
static inline int lru_access(lru_state* s, uint32_t id)
{
    uint32_t ref = s->node_of[id];
    if (ref) {
        uint32_t node = ref - 1;
        if (node != s->head) {
            unlink_node(s, node);
            push_front(s, node);
        }
        return 0;
    }
    uint32_t node;
    if (s->used < s->capacity) {
        node = s->used++;
    } else {
        node = s->tail;
        s->node_of[s->vertex[node]] = 0;
        unlink_node(s, node);
    }
    s->vertex[node] = id;
    s->node_of[id] = node + 1;
    push_front(s, node);
    return 1;
}

gc_status gc_model_lru_run(const gc_model* m, const gc_run* run, gc_stats* out, gc_error* err)
{
    lru_state s = {0};
    s.capacity = m->p[0];
    s.head = s.tail = NONE;
    s.node_of = gc_run_vertex_state(run, run->vertex_count, sizeof(uint32_t));
    s.vertex = gc_alloc_array(s.capacity, sizeof(uint32_t), false);
    s.prev = gc_alloc_array(s.capacity, sizeof(uint32_t), false);
    s.next = gc_alloc_array(s.capacity, sizeof(uint32_t), false);
    int64_t* line = run->trace ? gc_alloc_array(s.capacity, sizeof(int64_t), false) : NULL;
    gc_status status = GC_OK;
    if (!s.node_of || !s.vertex || !s.prev || !s.next || (run->trace && !line)) {
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
                if (lru_access(&s, v[j])) {
                    invocations++;
                    if (run->per_vertex)
                        run->per_vertex[v[j]]++;
                }
            }
            if (run->trace) {
                /* Least recently used first, most recent last. */
                size_t k = 0;
                for (uint32_t node = s.tail; node != NONE; node = s.prev[node])
                    line[k++] = s.vertex[node];
                gc_run_trace(run, chunk.first_primitive + p, line, k);
            }
        }
    }
    out->invocations = invocations;
    out->has_batches = 0;
done:
    gc_run_vertex_state_free(run, s.node_of);
    free(s.vertex);
    free(s.prev);
    free(s.next);
    free(line);
    return status;
}

/* ------------------------------------------------------------ state machine */

/* The same rule one primitive at a time. Words: per vertex its node + 1 (0: not cached),
 * then per node its vertex, previous and next (NONE at the ends). */
typedef struct lru_sim {
    uint32_t capacity, head, tail, used;
} lru_sim;

#define SIM_VERTEX(c, node) ((c)->vertex_count + 3 * (size_t)(node))

static size_t lru_extra(const void* params)
{
    return 3 * (size_t)((const gc_model*)params)->p[0];
}

static void lru_reset(gc_sim_context* c)
{
    lru_sim* s = c->state;
    s->capacity = ((const gc_model*)c->params)->p[0];
    s->head = s->tail = NONE;
}

static void sim_unlink(gc_sim_context* c, lru_sim* s, uint32_t node)
{
    size_t at = SIM_VERTEX(c, node);
    uint32_t p = c->words[at + 1], n = c->words[at + 2];
    if (p != NONE)
        gc_sim_write(c, SIM_VERTEX(c, p) + 2, n);
    else
        s->head = n;
    if (n != NONE)
        gc_sim_write(c, SIM_VERTEX(c, n) + 1, p);
    else
        s->tail = p;
}

static void sim_push_front(gc_sim_context* c, lru_sim* s, uint32_t node)
{
    size_t at = SIM_VERTEX(c, node);
    gc_sim_write(c, at + 1, NONE);
    gc_sim_write(c, at + 2, s->head);
    if (s->head != NONE)
        gc_sim_write(c, SIM_VERTEX(c, s->head) + 1, node);
    s->head = node;
    if (s->tail == NONE)
        s->tail = node;
}

static uint32_t lru_feed(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    lru_sim* s = c->state;
    uint32_t misses = 0;
    for (unsigned j = 0; j < p->count; ++j) {
        uint32_t id = p->vertices[j];
        uint32_t ref = c->words[id];
        if (ref) {
            if (ref - 1 != s->head) {
                sim_unlink(c, s, ref - 1);
                sim_push_front(c, s, ref - 1);
            }
            continue;
        }
        uint32_t node;
        if (s->used < s->capacity) {
            node = s->used++;
        } else {
            node = s->tail;
            gc_sim_write(c, c->words[SIM_VERTEX(c, node)], 0);
            sim_unlink(c, s, node);
        }
        gc_sim_write(c, SIM_VERTEX(c, node), id);
        gc_sim_write(c, id, node + 1);
        sim_push_front(c, s, node);
        *shaded += GC_SIM_SHADE(j);
        misses++;
    }
    return misses;
}

/* The price of a primitive, the state left as it is. The vertices the primitive touches go
 * to the front in the order of their last touch; the victim of a miss in a full cache is the
 * least recent untouched vertex (from the tail: at most 4 misses, skipping at most 4 touched
 * ones, so 8 tail entries suffice), else the oldest touched one. */
static bool listed(const uint32_t* list, unsigned count, uint32_t v)
{
    for (unsigned i = 0; i < count; ++i)
        if (list[i] == v)
            return true;
    return false;
}

static uint32_t lru_peek(gc_sim_context* c, const gc_sim_primitive* p, unsigned* shaded)
{
    const lru_sim* s = c->state;
    uint32_t tail[8], front[4], evicted[8];
    unsigned tails = 0, fronts = 0, evictions = 0, next_tail = 0;
    for (uint32_t node = s->tail; node != NONE && tails < 8; node = c->words[SIM_VERTEX(c, node) + 1])
        tail[tails++] = c->words[SIM_VERTEX(c, node)];
    uint32_t used = s->used, misses = 0;
    for (unsigned j = 0; j < p->count; ++j) {
        uint32_t v = p->vertices[j];
        unsigned at = 0;
        while (at < fronts && front[at] != v)
            ++at;
        if (at < fronts) { /* touched already: to the end of the front */
            memmove(front + at, front + at + 1, (fronts - at - 1) * sizeof *front);
            front[fronts - 1] = v;
            continue;
        }
        if (c->words[v] && !listed(evicted, evictions, v)) { /* a hit */
            front[fronts++] = v;
            continue;
        }
        misses++;
        *shaded += GC_SIM_SHADE(j);
        if (used < s->capacity) {
            used++;
        } else {
            while (next_tail < tails && listed(front, fronts, tail[next_tail]))
                next_tail++;
            if (next_tail < tails) {
                evicted[evictions++] = tail[next_tail++];
            } else { /* only touched vertices are left: the oldest goes */
                evicted[evictions++] = front[0];
                memmove(front, front + 1, (fronts - 1) * sizeof *front);
                fronts--;
            }
        }
        front[fronts++] = v;
    }
    return misses;
}

const gc_sim_rule gc_rule_lru = {
    "lru", sizeof(lru_sim), 1, lru_extra, lru_reset, NULL, lru_feed, NULL, NULL, NULL, lru_peek,
};
