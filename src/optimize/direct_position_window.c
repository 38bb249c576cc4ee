// SPDX-License-Identifier: MIT
/* A linear pass after meshoptimizer's order for a lone direct-position:N target (issue 33).
 *
 * direct-position:N writes a missing vertex to slot (its index's position in the stream)
 * modulo N and evicts whatever was there; a vertex written at position p therefore stays
 * until a miss lands on a position p + kN. meshoptimizer's order knows nothing of the
 * positions, so some of its misses land on slots that hold vertices still wanted.
 *
 * The pass walks the order with a window of the next `window` triangles not yet placed (in
 * the order's sequence) and places, at each step, the one the machine prices lowest now:
 * SCALE times its misses plus the cached vertices with triangles still to come that its
 * misses would write over (the lower place in the window among equals). A triangle that has
 * waited `window` steps behind its place is placed next whatever it costs, so no triangle
 * drifts far. The machine is the rule of src/models/direct_position_rule.h (the model's, and
 * machine_inline.h's, with the list's positions from `first_position`); the input order
 * is simulated alongside, and the new order replaces it only when it costs strictly fewer
 * invocations, so the result is never above the input order. (Where the list starts in the
 * draw only renames the slots, cyclically, when it starts with the cache empty: the counts
 * do not depend on it; first_position is kept so that the slots are the model's.) */
#include "optimize.h"
#include "../models/direct_position_rule.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#define NONE GC_DP_EMPTY
#define SCALE 4
#define DP_AHEAD 16 /* places of the order prefetched ahead of the window's entry */

typedef struct dp_machine {
    uint32_t n;
    uint32_t* place; /* per vertex: slot + 1, 0: not cached */
    uint32_t* slots; /* per slot: its vertex, NONE: empty */
} dp_machine;

/* Triangle tv's price at slot `base` (its first corner's position modulo n): misses times
 * SCALE plus the live vertices written over; `live`: NULL for misses alone. */
static uint32_t dp_price(const dp_machine* m, const uint32_t* tv, uint32_t base, const uint32_t* live)
{
    uint32_t slot[3], vertex[3], lost = 0;
    const uint32_t misses = gc_dp_misses3(m->place, m->n, tv, base, slot, vertex);
    for (uint32_t e = 0; e < misses && live; ++e) {
        const uint32_t old = m->slots[slot[e]];
        /* a vertex of this triangle written over still costs (it is counted as a miss when it
         * comes after; when it came before it is cached again by then) */
        lost += old != GC_DP_EMPTY && live[old] && old != tv[0] && old != tv[1] && old != tv[2];
    }
    return misses * SCALE + lost;
}

/* Feeds tv at slot `base`; its misses. */
static uint32_t dp_feed(dp_machine* m, const uint32_t* tv, uint32_t base)
{
    uint32_t misses = 0;
    for (int c = 0; c < 3; ++c) {
        if (m->place[tv[c]])
            continue;
        uint32_t s = base + (uint32_t)c;
        s -= s >= m->n ? m->n : 0;
        gc_dp_write(m->place, m->slots, tv[c], s);
        misses++;
    }
    return misses;
}


static gc_status dp_window(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count, uint32_t slots,
                           uint64_t first_position, uint32_t window, uint32_t* order, const gc_order_feed* feed,
                           bool* aborted, bool* changed, uint64_t* counts, gc_dp_split* split, gc_error* err)
{
    if (changed)
        *changed = false;
    if (aborted)
        *aborted = false;
    if (slots < 3 || window < 2 || triangle_count < 2)
        return GC_OK;
    if (window > GC_DP_WINDOW_MAX)
        window = GC_DP_WINDOW_MAX;
    const size_t vc = vertex_count ? vertex_count : 1;
    dp_machine a = {slots, gc_alloc_array(vc, sizeof(uint32_t), true), gc_alloc_array(slots, sizeof(uint32_t), false)};
    dp_machine b = {slots, NULL, NULL}; /* the input order's machine (split: the caller's count) */
    if (!split)
        b.place = gc_alloc_array(vc, sizeof(uint32_t), true), b.slots = gc_alloc_array(slots, sizeof(uint32_t), false);
    uint32_t* live = gc_alloc_array(vc, sizeof(uint32_t), true);
    uint32_t* out = split ? split->out : gc_alloc_array(triangle_count, sizeof(uint32_t), false);
    gc_status s = GC_OK;
    if (!a.place || !a.slots || (!split && (!b.place || !b.slots)) || !live || !out) {
        s = gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the direct-position pass over %zu triangles",
                    triangle_count);
        goto done;
    }
    for (uint32_t i = 0; i < slots; ++i)
        a.slots[i] = NONE;
    for (uint32_t i = 0; i < slots && b.slots; ++i)
        b.slots[i] = NONE;
    for (size_t i = 0; i < 3 * triangle_count; ++i)
        live[indices[i]]++;
    uint64_t cost_in = 0, cost_out = 0;
    /* the triangles waiting, in sequence: their places in `order` and their corners (copied
     * in once, not looked up through the order at every step) */
    struct {
        uint32_t place, v[3];
    } win[GC_DP_WINDOW_MAX];
    uint32_t held = 0;
    size_t next = 0; /* the next place of `order` to enter the window */
    uint32_t base = (uint32_t)(first_position % slots);
    size_t ready = 0; /* the places of `order` written (feed) */
    for (size_t k = 0; k < triangle_count; ++k) {
        const size_t want = next + (window - held) < triangle_count ? next + (window - held) : triangle_count;
        if (ready < want && (ready = feed ? gc_order_feed_wait(feed, want) : triangle_count) < want) {
            if (aborted) /* the maker failed: its status is the caller's */
                *aborted = true;
            goto done;
        }
        if (!split)
            cost_in += dp_feed(&b, indices + 3 * (size_t)order[k], base);
        while (held < window && next < triangle_count) {
#if defined(__GNUC__)
            /* the triangles entering later, asked for ahead (scattered on a large mesh): the
             * corners DP_AHEAD places on, the slots of those half as far */
            if (next + DP_AHEAD < ready)
                __builtin_prefetch(indices + 3 * (size_t)order[next + DP_AHEAD]);
            if (next + DP_AHEAD / 2 < ready) {
                const uint32_t* pv = indices + 3 * (size_t)order[next + DP_AHEAD / 2];
                __builtin_prefetch(a.place + pv[0]), __builtin_prefetch(a.place + pv[1]);
                __builtin_prefetch(a.place + pv[2]);
            }
#endif
            memcpy(win[held].v, indices + 3 * (size_t)order[next], sizeof win[held].v);
            win[held++].place = (uint32_t)next++;
        }
        uint32_t pick = 0;
        if (win[0].place + (size_t)window > k) { /* the oldest has not waited too long: the cheapest */
            uint32_t best = UINT32_MAX;
            for (uint32_t i = 0; i < held && best; ++i) { /* nothing beats a price of 0 */
                const uint32_t p = dp_price(&a, win[i].v, base, live);
                if (p < best)
                    best = p, pick = i;
            }
        }
        const uint32_t t = order[win[pick].place];
        memmove(win + pick, win + pick + 1, (held - pick - 1) * sizeof *win);
        held--;
        const uint32_t* tv = indices + 3 * (size_t)t;
        cost_out += dp_feed(&a, tv, base);
        live[tv[0]]--, live[tv[1]]--, live[tv[2]]--;
        out[k] = t;
        base = (uint32_t)((base + 3) % slots);
    }
    if (counts)
        counts[0] = cost_in, counts[1] = cost_out;
    if (split) { /* the caller compares */
        split->cost_out = cost_out, split->made = true;
    } else if (cost_out < cost_in) {
        memcpy(order, out, triangle_count * sizeof *order);
        if (changed)
            *changed = true;
    }
done:
    free(a.place), free(a.slots), free(b.place), free(b.slots), free(live);
    if (!split)
        free(out);
    return s;
}

gc_status gc_opt_direct_position_window(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                        uint32_t slots, uint64_t first_position, uint32_t window, uint32_t* order,
                                        bool* changed, uint64_t* counts, gc_error* err)
{
    return dp_window(indices, triangle_count, vertex_count, slots, first_position, window, order, NULL, NULL, changed,
                     counts, NULL, err);
}

gc_status gc_opt_direct_position_window_fed(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                            uint32_t slots, uint64_t first_position, uint32_t window,
                                            uint32_t* order, const gc_order_feed* feed, bool* aborted,
                                            gc_dp_split* split, gc_error* err)
{
    return dp_window(indices, triangle_count, vertex_count, slots, first_position, window, order, feed, aborted, NULL,
                     NULL, split, err);
}

gc_status gc_dp_order_cost(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count, uint32_t slots,
                           uint64_t first_position, const uint32_t* order, uint64_t* cost, gc_error* err)
{
    *cost = 0;
    if (slots < 3)
        return GC_OK;
    dp_machine b = {slots, gc_alloc_array(vertex_count ? vertex_count : 1, sizeof(uint32_t), true),
                    gc_alloc_array(slots, sizeof(uint32_t), false)};
    gc_status s = GC_OK;
    if (!b.place || !b.slots)
        s = gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the direct-position pass over %zu triangles",
                    triangle_count);
    for (uint32_t i = 0; !s && i < slots; ++i)
        b.slots[i] = NONE;
    uint32_t base = (uint32_t)(first_position % slots);
    for (size_t k = 0; !s && k < triangle_count; ++k) { /* as the pass's input machine */
        *cost += dp_feed(&b, indices + 3 * (size_t)order[k], base);
        base = (uint32_t)((base + 3) % slots);
    }
    free(b.place), free(b.slots);
    return s;
}
