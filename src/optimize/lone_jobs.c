// SPDX-License-Identifier: MIT
/* A few orders made and scored side by side (issue 33 item 3): the default effort of a lone
 * target (gc_opt_auto_lone, auto_machine_greedy.c) makes two or three orders and keeps the
 * cheapest. Each order is a job of gc_parallel_run (parallel.c) that makes the order into a
 * buffer of its own and scores it; the winner is chosen after all of them, by order number,
 * never by finish time: a forced order (the lowest such) if any, else the cheapest scored,
 * the first among equals. That is what the loop that made and scored them one after the
 * other kept, so the output is the same for every thread count. */
#include "optimize.h"

#include <stdlib.h>
#include <string.h>

typedef struct lone_run {
    gc_lone_order_fn fn;
    void* user;
    uint32_t* const* out;
    uint64_t* cost;
    int* state;
} lone_run;

static gc_status lone_job(void* user, size_t job, unsigned worker, uint64_t* units, gc_error* err)
{
    lone_run* r = user;
    *units = 1;
    r->state[job] = GC_LONE_SKIPPED;
    return r->fn(r->user, job, worker, r->out[job], &r->cost[job], &r->state[job], err);
}

gc_status gc_lone_orders(unsigned threads, size_t count, size_t triangle_count, gc_lone_order_fn fn, void* user,
                         uint32_t* order, int* chosen, gc_error* err)
{
    *chosen = -1;
    if (count == 0)
        return GC_OK;
    if (count > GC_LONE_ORDERS_MAX)
        return gc_fail(err, GC_ERR_USAGE, "auto: at most %d orders side by side", GC_LONE_ORDERS_MAX);
    uint32_t* out[GC_LONE_ORDERS_MAX] = {order};
    uint64_t cost[GC_LONE_ORDERS_MAX];
    int state[GC_LONE_ORDERS_MAX];
    gc_status s = GC_OK;
    if (threads <= 1) { /* one after the other, the orders after the first in one buffer, as before */
        uint32_t* candidate = count > 1 ? gc_alloc_array(triangle_count, sizeof(uint32_t), false) : NULL;
        if (count > 1 && !candidate)
            return gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for an order of %zu triangles", triangle_count);
        int best = -1;
        for (size_t k = 0; k < count && !s; ++k) {
            state[k] = GC_LONE_SKIPPED;
            s = fn(user, k, 0, k ? candidate : order, &cost[k], &state[k], err);
            if (s || state[k] == GC_LONE_SKIPPED || (state[k] == GC_LONE_SCORED && best >= 0 && cost[k] >= cost[best]))
                continue;
            best = (int)k;
            if (k)
                memcpy(order, candidate, triangle_count * sizeof *order);
            if (state[k] == GC_LONE_FORCED)
                break;
        }
        free(candidate);
        if (!s)
            *chosen = best;
        return s;
    }
    for (size_t k = 1; k < count && !s; ++k)
        if (!(out[k] = gc_alloc_array(triangle_count, sizeof(uint32_t), false)))
            s = gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for an order of %zu triangles", triangle_count);
    lone_run r = {fn, user, out, cost, state};
    if (!s)
        s = gc_parallel_run(threads, count, lone_job, &r, NULL, err);
    int best = -1;
    for (size_t k = 0; k < count && !s; ++k) {
        if (state[k] == GC_LONE_FORCED) {
            best = (int)k;
            break;
        }
        if (state[k] == GC_LONE_SCORED && (best < 0 || cost[k] < cost[best]))
            best = (int)k;
    }
    if (!s && best > 0)
        memcpy(order, out[best], triangle_count * sizeof *order);
    if (!s)
        *chosen = best;
    for (size_t k = 1; k < count; ++k)
        free(out[k]);
    return s;
}
