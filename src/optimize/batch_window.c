// SPDX-License-Identifier: MIT
/* A linear pass after an order for a lone batch target (seed 004's data assembler,
 * src/models/batch.c; issue 33).
 *
 * The rule: a batch holds `slots` vertex slots (and at most `prims` primitives when that is
 * non-zero); a triangle's corners are looked up in the open batch and only the new ones take a
 * slot; a triangle whose new corners do not fit (or one past the primitive limit) flushes the
 * batch and starts the next, and a batch whose slots are all full is flushed at once. Each slot
 * written is one invocation, so a triangle costs its corners not in the open batch, and a
 * vertex used again after its batch closed costs again.
 *
 * The pass walks the order with a window of the next `window` triangles not yet placed (in
 * the order's sequence) and places, each step, the one the rule prices lowest now: its new
 * corners when it fits in the open batch; when none fits, the batch closes whichever comes,
 * so the oldest goes (the lower place in the window among equals). A triangle that has waited
 * `window` steps behind its place goes next whatever it costs. The input order is simulated
 * alongside, and the new order replaces it only when it costs strictly fewer invocations, so
 * the result is never above the input order. Both start with the slots empty. */
#include "optimize.h"

#include <stdlib.h>
#include <string.h>

typedef struct bw_machine {
    uint32_t* batch_of; /* per vertex: the number of the batch holding it (0: none) */
    uint32_t slots, prim_limit, current, fill, prims;
} bw_machine;

/* The distinct corners of tv not in the open batch. */
static uint32_t bw_misses(const bw_machine* m, const uint32_t* tv)
{
    const uint32_t a = tv[0], b = tv[1], c = tv[2];
    uint32_t misses = m->batch_of[a] != m->current;
    misses += b != a && m->batch_of[b] != m->current;
    misses += c != a && c != b && m->batch_of[c] != m->current;
    return misses;
}

static bool bw_fits(const bw_machine* m, uint32_t misses)
{
    return !(m->prim_limit && m->prims == m->prim_limit) && m->fill + misses <= m->slots;
}

/* Feeds tv under the rule; its invocations. */
static uint32_t bw_feed(bw_machine* m, const uint32_t* tv)
{
    uint32_t misses = bw_misses(m, tv);
    if (!bw_fits(m, misses)) {
        if (m->fill || m->prims)
            m->current++, m->fill = 0, m->prims = 0;
        misses = bw_misses(m, tv);
    }
    for (int c = 0; c < 3; ++c)
        if (m->batch_of[tv[c]] != m->current)
            m->batch_of[tv[c]] = m->current, m->fill++;
    m->prims++;
    if (m->fill >= m->slots)
        m->current++, m->fill = 0, m->prims = 0;
    return misses;
}

gc_status gc_opt_batch_window(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                              uint32_t slots, uint32_t prims, uint32_t window, uint32_t* order, bool* changed,
                              uint64_t* counts, gc_error* err)
{
    if (changed)
        *changed = false;
    if (slots < 3 || window < 2 || triangle_count < 2)
        return GC_OK;
    if (window > GC_BATCH_WINDOW_MAX)
        window = GC_BATCH_WINDOW_MAX;
    const size_t vc = vertex_count ? vertex_count : 1;
    bw_machine a = {gc_alloc_array(vc, sizeof(uint32_t), true), slots, prims, 1, 0, 0};
    bw_machine b = {gc_alloc_array(vc, sizeof(uint32_t), true), slots, prims, 1, 0, 0};
    uint32_t* out = gc_alloc_array(triangle_count, sizeof(uint32_t), false);
    gc_status s = GC_OK;
    if (!a.batch_of || !b.batch_of || !out) {
        s = gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the batch pass over %zu triangles", triangle_count);
        goto done;
    }
    uint64_t cost_in = 0, cost_out = 0;
    uint32_t win[GC_BATCH_WINDOW_MAX]; /* places in `order` of the triangles waiting, in sequence */
    uint32_t held = 0;
    size_t next = 0; /* the next place of `order` to enter the window */
    for (size_t k = 0; k < triangle_count; ++k) {
        cost_in += bw_feed(&b, indices + 3 * (size_t)order[k]);
        while (held < window && next < triangle_count)
            win[held++] = (uint32_t)next++;
        uint32_t pick = 0;
        if (win[0] + (size_t)window > k) { /* the oldest has not waited too long: the cheapest that fits */
            uint32_t best = UINT32_MAX;
            for (uint32_t i = 0; i < held && best; ++i) { /* nothing beats a price of 0 */
                const uint32_t misses = bw_misses(&a, indices + 3 * (size_t)order[win[i]]);
                if (misses < best && bw_fits(&a, misses))
                    best = misses, pick = i;
            }
        }
        const uint32_t t = order[win[pick]];
        memmove(win + pick, win + pick + 1, (held - pick - 1) * sizeof *win);
        held--;
        cost_out += bw_feed(&a, indices + 3 * (size_t)t);
        out[k] = t;
    }
    if (counts)
        counts[0] = cost_in, counts[1] = cost_out;
    if (cost_out < cost_in) {
        memcpy(order, out, triangle_count * sizeof *order);
        if (changed)
            *changed = true;
    }
done:
    free(a.batch_of), free(b.batch_of), free(out);
    return s;
}

gc_status gc_batch_order_cost(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count, uint32_t slots,
                              uint32_t prims, const uint32_t* order, uint64_t* cost, gc_error* err)
{
    *cost = 0;
    if (slots < 3)
        return gc_fail(err, GC_ERR_USAGE, "batch: at least 3 slots for a triangle");
    bw_machine m = {gc_alloc_array(vertex_count ? vertex_count : 1, sizeof(uint32_t), true), slots, prims, 1, 0, 0};
    if (!m.batch_of)
        return gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the batch count over %u vertices", vertex_count);
    uint64_t c = 0;
    for (size_t k = 0; k < triangle_count; ++k)
        c += bw_feed(&m, indices + 3 * (size_t)order[k]);
    free(m.batch_of);
    *cost = c;
    return GC_OK;
}
