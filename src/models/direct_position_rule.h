// SPDX-License-Identifier: MIT
/* direct-position:N, seed 000's second "CPU cache-ish" policy, stated once: a missing vertex
 * is written to slot (position of the index in the stream) modulo N (gc_dp_slot), evicting
 * that slot's vertex; a lookup searches every slot (a vertex hits while it holds a slot).
 * For strips and fans the position is that of the index the primitive takes the vertex
 * from. The model (direct_position.c: its simulator and its gc_sim machine) and auto's
 * machine greedy (src/optimize/machine_inline.h) and the window pass over
 * meshoptimizer's order (src/optimize/direct_position_window.c) drive the functions below. The state: per
 * vertex its slot + 1 (0: not cached), per slot its vertex (GC_DP_EMPTY: empty). */
#ifndef GPUCACHE_DIRECT_POSITION_RULE_H
#define GPUCACHE_DIRECT_POSITION_RULE_H

#include "../internal.h"

#include <stdbool.h>
#include <stdint.h>

#define GC_DP_EMPTY UINT32_MAX

/* The slot a vertex missing at stream position `position` is written to. */
static inline uint32_t gc_dp_slot(uint64_t position, uint32_t n)
{
    return (uint32_t)(position % n);
}

/* A miss of v written to `slot`, evicting that slot's vertex. */
static inline void gc_dp_write(uint32_t* slot_of, uint32_t* slots, uint32_t v, uint32_t slot)
{
    if (slots[slot] != GC_DP_EMPTY)
        slot_of[slots[slot]] = 0;
    slots[slot] = v;
    slot_of[v] = slot + 1;
}

/* Vertex v at stream position `position` through a cache of n slots: true on a miss (v then
 * written to its slot). */
static inline bool gc_dp_access(uint32_t* slot_of, uint32_t* slots, uint32_t n, uint32_t v, uint64_t position)
{
    if (slot_of[v])
        return false;
    gc_dp_write(slot_of, slots, v, gc_dp_slot(position, n));
    return true;
}

/* The corners of triangle tv that miss, its first corner at slot `first_slot` (its stream
 * position modulo n; the next corners take the next slots), through a cache of n >= 3 slots,
 * the state unchanged: the slots the earlier corners' misses wrote, and their vertices, in
 * slot[] and vertex[]; the three slots differ (n >= 3), so a vertex written in this triangle
 * stays; one cached before stays unless its slot was written (a repeated corner too: the
 * corner between may have written its slot). The count. */
static inline uint32_t gc_dp_misses3(const uint32_t* slot_of, uint32_t n, const uint32_t* tv, uint32_t first_slot,
                                     uint32_t slot[3], uint32_t vertex[3])
{
    uint32_t count = 0;
    for (int c = 0; c < 3; ++c) {
        const uint32_t v = tv[c];
        bool hit = slot_of[v] != 0, written = false;
        for (uint32_t e = 0; e < count; ++e) {
            written |= vertex[e] == v;
            hit &= slot[e] != slot_of[v] - 1;
        }
        if (!hit && !written) {
            uint32_t at = first_slot + (uint32_t)c;
            at -= at >= n ? n : 0;
            slot[count] = at;
            vertex[count++] = v;
        }
    }
    return count;
}

/* The misses of triangle tv, its corners at stream positions 3 number + c (gc_dp_misses3). */
static inline uint32_t gc_dp_price3(const uint32_t* slot_of, uint32_t n, const uint32_t* tv, uint64_t number)
{
    uint32_t slot[3], vertex[3];
    return gc_dp_misses3(slot_of, n, tv, gc_dp_slot(3 * number, n), slot, vertex);
}

#endif
