// SPDX-License-Identifier: MIT
/* meshoptimizer's table order and direct-position's window pass as a pipeline (issue 33).
 *
 * The default effort for a lone direct-position:N target is a chain: meshoptimizer's order
 * (score_table.c), then the window pass of direct_position_window.c over it. The pass reads
 * the order front to back, at most `window` places ahead of the triangle it places, so it
 * can run on a second thread while the table order is being made, reading only the prefix
 * the maker has published (gc_order_feed: a count stored with release every
 * GC_ORDER_FEED_STEP triangles, read with acquire). Each reads what the one-thread chain
 * reads, so the order is the same for every thread count; the chain's time becomes about
 * the longer of the two instead of their sum. The two are jobs 0 and 1 of gc_parallel_run,
 * handed out in that order, so the maker always runs (with one worker, first: the pass then
 * finds the whole order there). A maker that fails (GC_ERR_LIMIT for a hub) ends the feed
 * short; the pass then stops without touching the order and the maker's status is the one
 * reported (job 0's). The table order's own count (the pass's input machine) is made on the
 * maker's thread after the order, the comparison after both. */
#include "optimize.h"

#include <stdlib.h>
#include <string.h>

/* Below this many triangles the second thread's start costs more than the overlap saves. */
#define DP_PIPE_MIN_TRIANGLES 4096

typedef struct dp_pipe {
    const uint32_t* indices;
    size_t triangle_count;
    uint32_t vertex_count, slots, window;
    uint64_t first_position;
    uint32_t* order;
    gc_order_feed feed;
    uint64_t cost_in; /* the table order's invocations (job 0, after the order) */
    gc_dp_split split; /* the pass's order and count (job 1) */
} dp_pipe;

static gc_status dp_pipe_job(void* user, size_t job, unsigned worker, uint64_t* units, gc_error* err)
{
    (void)worker;
    dp_pipe* p = user;
    *units = 1;
    if (job == 0) { /* the order, then its count under the rule (off the pass's thread) */
        gc_status s = gc_opt_score_table_fed(p->indices, p->triangle_count, p->vertex_count, &gc_meshopt_scores,
                                             p->order, &p->feed, err);
        if (!s)
            s = gc_dp_order_cost(p->indices, p->triangle_count, p->vertex_count, p->slots, p->first_position,
                                 p->order, &p->cost_in, err);
        return s;
    }
    bool aborted = false;
    return gc_opt_direct_position_window_fed(p->indices, p->triangle_count, p->vertex_count, p->slots,
                                             p->first_position, p->window, p->order, &p->feed, &aborted, &p->split,
                                             err);
}

gc_status gc_opt_direct_position_table_window(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                              uint32_t slots, uint64_t first_position, uint32_t window,
                                              unsigned threads, uint32_t* order, gc_error* err)
{
    if (threads <= 1 || triangle_count < DP_PIPE_MIN_TRIANGLES) {
        gc_status s = gc_opt_score_table(indices, triangle_count, vertex_count, &gc_meshopt_scores, order, err);
        if (!s)
            s = gc_opt_direct_position_window(indices, triangle_count, vertex_count, slots, first_position, window,
                                              order, NULL, NULL, err);
        return s;
    }
    dp_pipe p;
    memset(&p, 0, sizeof p);
    p.indices = indices, p.triangle_count = triangle_count, p.vertex_count = vertex_count;
    p.slots = slots, p.window = window, p.first_position = first_position, p.order = order;
    atomic_init(&p.feed.written, 0);
    atomic_init(&p.feed.ended, 0);
    if (!(p.split.out = gc_alloc_array(triangle_count, sizeof(uint32_t), false)))
        return gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for an order of %zu triangles", triangle_count);
    gc_status s = gc_parallel_run(2, 2, dp_pipe_job, &p, NULL, err);
    /* the pass's order where strictly cheaper, as gc_opt_direct_position_window keeps it */
    if (!s && p.split.made && p.split.cost_out < p.cost_in)
        memcpy(order, p.split.out, triangle_count * sizeof *order);
    free(p.split.out);
    return s;
}
