// SPDX-License-Identifier: MIT
/* Seed 000's rule for an NVIDIA GPU (nvidia[:size=32,idle=16,life=32]), found by probing,
 * stated once: every user of the rule drives the functions below (the model, nvidia.c: its
 * simulator and its gc_sim machine; auto's nvidia greedy, auto_nvidia_greedy.c; the
 * rule-aware Forsyth orders, forsyth_flush.c and score_table.c).
 *  - slots are written in order, from slot 0 to the last;
 *  - if a primitive's misses would write past the end, the cache is cleared and
 *    all of its unique vertices become misses, placed from slot 0 (gc_nv_overflows);
 *  - a slot is invalid once `idle` primitives have passed since its last use, or
 *    `life` primitives since its insertion, whatever its use (gc_nv_expiry);
 *  - an invalid slot is neither matched nor rewritten until the next reset;
 *  - lifetimes count primitives, for points, lines and triangles alike.
 * "Passed" follows the seed's worked examples: a slot inserted by primitive p is
 * unusable for primitive p + life (the 33rd (5,5,5) misses) and a slot last used
 * by primitive p is unusable for primitive p + idle (1 and 2 by the 17th triangle).
 * See docs/models/nvidia.md.
 *
 * The state is kept in one of two ways, the same rule either way:
 *  - by slot (gc_nv_slots, the simulator's and the greedy's): each vertex remembers
 *    (epoch, slot) of its latest insertion in 32 bits; an epoch is the time between two
 *    resets. Within an epoch a slot is written once, so a lookup is O(1): the remembered
 *    slot, if of this epoch and not expired. Each slot keeps the first primitive for which
 *    it is invalid, min(last use + idle, insertion + life), so that validity is one
 *    comparison. When the 22-bit epoch wraps (every 4M resets) the tags are cleared, so an
 *    old tag can never pass for a new one.
 *  - by vertex (gc_nv_vertex and gc_nv_fill, the Forsyth orders'): each vertex keeps the
 *    primitive of its latest insertion plus one and the first primitive that cannot match
 *    it; the fill (the time since the last reset) starts at a primitive. A vertex's latest
 *    insertion is the only slot of it that can match (an earlier one expired before it was
 *    inserted again), so its validity is that slot's. */
#ifndef GPUCACHE_NVIDIA_RULE_H
#define GPUCACHE_NVIDIA_RULE_H

#include "../internal.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define GC_NV_NEVER UINT32_MAX /* primitive numbers stay below 2^31 (GC_MAX_INDICES) */
#define GC_NV_SLOT_BITS 10     /* sizes up to 1024 slots */
#define GC_NV_SLOT_MASK ((1u << GC_NV_SLOT_BITS) - 1)
#define GC_NV_EPOCH_LIMIT (1u << (32 - GC_NV_SLOT_BITS))

/* prim + span, saturating: a span of 0 means "never". */
static inline uint32_t gc_nv_end(uint64_t prim, uint32_t span)
{
    return span == 0 || prim + span >= GC_NV_NEVER ? GC_NV_NEVER : (uint32_t)(prim + span);
}

/* The first primitive that cannot match a slot inserted with `life_end` (its insertion +
 * life) and last used by primitive `prim`: idle and life expiry. */
static inline uint32_t gc_nv_expiry(uint64_t prim, uint32_t idle, uint32_t life_end)
{
    const uint32_t idle_end = gc_nv_end(prim, idle);
    return idle_end < life_end ? idle_end : life_end;
}

/* Whether a primitive with `misses` misses, `next` slots written since the last reset,
 * overflows a cache of `size` slots: then it resets and all its vertices miss. */
static inline bool gc_nv_overflows(uint32_t next, uint32_t misses, uint32_t size)
{
    return next + misses > size;
}

/* The distinct corners of triangle tv, in order (as gc_sim_unique_corners gives them); their
 * count. */
static inline unsigned gc_nv_distinct3(const uint32_t* tv, uint32_t* u)
{
    unsigned n = 0;
    u[n++] = tv[0];
    if (tv[1] != tv[0])
        u[n++] = tv[1];
    if (tv[2] != tv[0] && tv[2] != tv[1])
        u[n++] = tv[2];
    return n;
}

/* ------------------------------------------------------------ by slot */

static inline uint32_t gc_nv_tag(uint32_t epoch, uint32_t slot)
{
    return epoch << GC_NV_SLOT_BITS | slot;
}

/* The slot that tag names, if of `epoch` and valid for primitive `prim` by the slots'
 * expiries; -1 otherwise. */
static inline int32_t gc_nv_tag_lookup(uint32_t tag, uint32_t epoch, const uint32_t* expires, uint32_t prim)
{
    const uint32_t slot = tag & GC_NV_SLOT_MASK;
    return (tag >> GC_NV_SLOT_BITS) == epoch && prim < expires[slot] ? (int32_t)slot : -1;
}

/* The next epoch after a reset: 1 past the limit (the caller then clears every tag). */
static inline uint32_t gc_nv_next_epoch(uint32_t epoch, bool* wrapped)
{
    *wrapped = ++epoch == GC_NV_EPOCH_LIMIT;
    return *wrapped ? 1 : epoch;
}

typedef struct gc_nv_slots {
    uint32_t* tag;      /* per vertex: gc_nv_tag of its latest insertion (0: never) */
    uint32_t* expires;  /* per slot: the first primitive that cannot match it */
    uint32_t* life_end; /* per slot: insertion + life */
    uint32_t vertex_count, size, idle, life;
    uint32_t epoch; /* from 1 */
    uint32_t next;  /* the next slot to write */
} gc_nv_slots;

static inline int32_t gc_nv_lookup(const gc_nv_slots* s, uint32_t v, uint32_t prim)
{
    return gc_nv_tag_lookup(s->tag[v], s->epoch, s->expires, prim);
}

static inline void gc_nv_reset(gc_nv_slots* s)
{
    bool wrapped;
    s->epoch = gc_nv_next_epoch(s->epoch, &wrapped);
    if (GC_UNLIKELY(wrapped))
        memset(s->tag, 0, s->vertex_count * sizeof *s->tag);
    s->next = 0;
}

static inline void gc_nv_use(gc_nv_slots* s, uint32_t slot, uint32_t prim)
{
    s->expires[slot] = gc_nv_expiry(prim, s->idle, s->life_end[slot]);
}

/* Vertex v into the next slot; that slot. */
static inline uint32_t gc_nv_insert(gc_nv_slots* s, uint32_t v, uint32_t prim)
{
    const uint32_t slot = s->next++;
    s->tag[v] = gc_nv_tag(s->epoch, slot);
    s->life_end[slot] = gc_nv_end(prim, s->life);
    gc_nv_use(s, slot, prim);
    return slot;
}

/* Which corners of triangle tv are the first of their vertex: the distinct vertices, as
 * gc_sim_unique_corners gives them. */
static inline void gc_nv_fresh3(const uint32_t* tv, bool* fresh)
{
    fresh[0] = true;
    fresh[1] = tv[1] != tv[0];
    fresh[2] = tv[2] != tv[0] && tv[2] != tv[1];
}

/* The invocations of the primitive of the `count` corners v (count <= 4; a corner not
 * `fresh` repeats an earlier one and is not counted) as primitive `prim`, the state
 * unchanged. */
static inline uint32_t gc_nv_price(const gc_nv_slots* s, const uint32_t* v, const bool* fresh, unsigned count,
                                   uint32_t prim)
{
    uint32_t misses = 0, distinct = 0;
    for (unsigned k = 0; k < count; ++k) {
        misses += fresh[k] && gc_nv_lookup(s, v[k], prim) < 0;
        distinct += fresh[k];
    }
    return gc_nv_overflows(s->next, misses, s->size) ? distinct : misses;
}

/* Feeds the primitive of the `count` corners v (as gc_nv_price) as primitive `prim`:
 * inserted[k] is the slot v[k] was inserted into, -1 when it hit or is not fresh; true when
 * it reset the cache. */
static inline bool gc_nv_feed(gc_nv_slots* s, const uint32_t* v, const bool* fresh, unsigned count, uint32_t prim,
                              int32_t* inserted)
{
    int32_t hit[4];
    uint32_t misses = 0;
    for (unsigned k = 0; k < count; ++k) {
        hit[k] = gc_nv_lookup(s, v[k], prim);
        misses += fresh[k] && hit[k] < 0;
    }
    const bool reset = gc_nv_overflows(s->next, misses, s->size);
    if (GC_UNLIKELY(reset)) {
        gc_nv_reset(s);
        for (unsigned k = 0; k < count; ++k)
            hit[k] = -1;
    }
    for (unsigned k = 0; k < count; ++k) {
        inserted[k] = -1;
        if (!fresh[k])
            continue;
        if (hit[k] >= 0)
            gc_nv_use(s, (uint32_t)hit[k], prim);
        else
            inserted[k] = (int32_t)gc_nv_insert(s, v[k], prim);
    }
    return reset;
}

/* ------------------------------------------------------------ by vertex */

typedef struct gc_nv_vertex {
    uint32_t inserted; /* the primitive of its latest insertion + 1 (0: never) */
    uint32_t expires;  /* the first primitive that cannot match it */
} gc_nv_vertex;

typedef struct gc_nv_fill {
    uint32_t size, idle, life;
    uint32_t start; /* the first primitive of the fill (since the last reset) + 1 */
    uint32_t next;  /* slots written in the fill */
} gc_nv_fill;

static inline gc_nv_fill gc_nv_fill_of(uint32_t size, uint32_t idle, uint32_t life)
{
    return (gc_nv_fill){size, idle, life, 1, 0};
}

/* Whether the cache holds vertex v for primitive `prim`. */
static inline bool gc_nv_holds(const gc_nv_fill* f, const gc_nv_vertex* v, uint64_t prim)
{
    return v->inserted >= f->start && prim < v->expires;
}

/* Feeds the primitive of the n distinct vertices whose states are corner[0..n-1] (n <= 3) as
 * primitive `prim`. */
static inline void gc_nv_fill_feed(gc_nv_fill* f, gc_nv_vertex* const* corner, unsigned n, uint64_t prim)
{
    bool hit[3];
    uint32_t misses = 0;
    for (unsigned k = 0; k < n; ++k) {
        hit[k] = gc_nv_holds(f, corner[k], prim);
        misses += !hit[k];
    }
    if (gc_nv_overflows(f->next, misses, f->size)) {
        f->start = (uint32_t)(prim + 1), f->next = 0;
        for (unsigned k = 0; k < n; ++k)
            hit[k] = false;
    }
    for (unsigned k = 0; k < n; ++k) {
        gc_nv_vertex* v = corner[k];
        if (!hit[k]) {
            f->next++;
            v->inserted = (uint32_t)(prim + 1);
        }
        v->expires = gc_nv_expiry(prim, f->idle, gc_nv_end(v->inserted - 1, f->life));
    }
}

#endif
