// SPDX-License-Identifier: MIT
/* nv-dx and nv-gl at --effort 1 on a large, finely tessellated list (GC_FLUSH_FINE_TRIANGLES
 * triangles or more): the flushed order, then Kerbl's batch greedy on its tail (issue 33: on
 * the 4.3M-triangle igea the flushed order alone kept 66.3-66.8% of the default's gain over
 * meshoptimizer, where two thirds are asked).
 *
 * Why the tail: counted a twentieth of the list at a time, the flushed order reads 0.818
 * invocations a triangle over the first half of the 4.3M igea and 0.825-0.828 over the last
 * fifth, where the surface it has left is in pieces; the batch greedy, which starts each batch
 * where the fewest neighbours remain, reads 0.804-0.809 all along. So the flushed order runs
 * to the first batch full to the index limit past seven eighths of the triangles (so that the
 * tail opens a batch of its own, whatever the machine: a batch begun by one order and ended by
 * the other would move every later batch's bounds off those the order planned: with the
 * batch greedy at the head for a tenth of igea, a cut at a fixed count lost 0.84 points), and the
 * batch greedy orders the rest, its valences those of the tail (the vertices on its rim have
 * fewer triangles left, so it starts there), its vertices numbered afresh (its arrays by
 * vertex hold the tail's only). On the 4.3M igea stored, nv-dx: a tail of a tenth -3.85%
 * against meshoptimizer, an eighth -3.89%, a fifth -4.03%, three tenths -4.21%, for the
 * flushed order's -3.70%; the eighth keeps 69.6-70.1% of the default's gain under both
 * targets, stored and shuffled, at about 0.1 of meshoptimizer's time more (a fifth: 72%, 0.15
 * more, too near the 1.5 times on the stored order). A fifth on ogre and stanford-bunny
 * subdivided twice gained 0.28 to 0.37 points as on igea (docs/optimizers/auto.md, "The batch
 * greedy on the flushed order's tail"). */
#include "optimize.h"
#include "order_race.h"

#include <stdlib.h>
#include <string.h>

gc_status gc_opt_flush_batch_tail(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                  const gc_flush_rule* rule, const gc_model* target, uint32_t* order, gc_error* err)
{
    uint64_t invocations;
    bool gave_up;
    return gc_opt_flush_batch_tail_race(indices, triangle_count, vertex_count, rule, target, NULL, order, &invocations,
                                        &gave_up, err);
}

gc_status gc_opt_flush_batch_tail_race(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                       const gc_flush_rule* rule, const gc_model* target, gc_order_race* race,
                                       uint32_t* order, uint64_t* invocations, bool* gave_up, gc_error* err)
{
    const size_t T = triangle_count;
    const size_t head = T - T / GC_FLUSH_TAIL_PARTS;
    size_t placed = 0;
    *invocations = 0;
    gc_status s = gc_opt_forsyth_flush_kerbl_head(indices, T, vertex_count, &gc_flush_batch_scores, rule, target, race,
                                                  head, order, invocations, &placed, err);
    *gave_up = !s && placed < head;
    if (s || *gave_up || placed == T)
        return s;
    /* the tail: the triangles not placed, in increasing number (their numbers in order[placed..],
       read below while the tail's order is mapped), its vertices numbered in order of first use
       (the batch greedy's arrays by vertex then hold the tail's vertices only) */
    const size_t rest = T - placed;
    uint64_t* done = gc_alloc_array((T + 63) / 64, sizeof *done, true);
    uint32_t* list = gc_alloc_array(3 * rest, sizeof *list, false);
    uint32_t* tail = gc_alloc_array(rest, sizeof *tail, false);
    uint32_t* number = gc_alloc_array(vertex_count, sizeof *number, false);
    if (!done || !list || !tail || !number) {
        s = gc_fail(err, GC_ERR_NOMEM, "flushed order: out of memory for a tail of %zu triangles", rest);
        goto out;
    }
    memset(number, 0xff, (size_t)vertex_count * sizeof *number);
    for (size_t i = 0; i < placed; ++i)
        done[order[i] / 64] |= 1ull << (order[i] % 64);
    size_t n = 0;
    uint32_t used = 0;
    for (size_t t = 0; t < T; ++t)
        if (!(done[t / 64] >> (t % 64) & 1)) {
            for (int c = 0; c < 3; ++c) {
                const uint32_t v = indices[3 * t + (size_t)c];
                number[v] = number[v] == UINT32_MAX ? used++ : number[v];
                list[3 * n + (size_t)c] = number[v];
            }
            order[placed + n++] = (uint32_t)t;
        }
    free(done), done = NULL;
    free(number), number = NULL;
    gc_family_traits traits;
    gc_model_traits(target, &traits);
    const gc_batch_greedy_weights bw = {1024, traits.batch_reuse_weight, -1}; /* as the default's */
    uint64_t tail_invocations = 0; /* (the tail opens a batch: the two counts add up) */
    s = gc_opt_batch_greedy_kerbl(list, rest, used, target, &bw, tail, &tail_invocations, err);
    *invocations += tail_invocations;
    if (s == GC_ERR_LIMIT) { /* a hub: the whole list's flushed order */
        free(list), list = NULL;
        free(tail), tail = NULL;
        s = gc_opt_forsyth_flush_kerbl(indices, T, vertex_count, &gc_flush_batch_scores, rule, target, order,
                                       invocations, err);
        goto out;
    }
    if (!s) {
        for (size_t j = 0; j < rest; ++j)
            tail[j] = order[placed + tail[j]];
        memcpy(order + placed, tail, rest * sizeof *tail);
    }
out:
    free(number);
    free(done);
    free(list);
    free(tail);
    return s;
}
