// SPDX-License-Identifier: MIT
/* The greedies of auto for a lone llvmpipe target with its machine written out (issue 33):
 * the rule's triangle-list form (src/models/llvmpipe_rule.h) instead of gc_sim's machine,
 * the same prices, so the same orders as
 *  - auto's target-aware greedy with that one target (target_sims.c, `distinct` lists, no
 *    first-use numbers: llvmpipe keeps no ages, so its age bonus is 0), the default's
 *    greedy for llvmpipe;
 *  - the machine greedy (auto_machine_greedy.c, through gc_sim), effort 1's order and the
 *    default's last candidate, with first-use numbers where the output gets them.
 * tests/test_llvmpipe_greedy.c checks both on corpus meshes and random ones.
 *
 * A step's candidates are the remaining triangles (at most SCAN each) of the recent
 * vertices, each met once; its score is the misses the table says it costs now, less beta
 * times its corners' valence bonus (1/sqrt(remaining triangles)); the lowest wins, the lower
 * triangle number among equals. A candidate is priced only when its lower bound (a corner
 * whose vertex no drawn triangle had misses) could still win. Dead ends as the other
 * greedies' (gc_greedy_take). */
#include "optimize.h"
#include "../models/llvmpipe_rule.h"

#include <stdlib.h>
#include <string.h>

/* The default effort's machine greedy for llvmpipe (auto.c's last candidate) only below this
 * many triangles. On the corpus (28 rows, and the same with first-use numbers) its order won
 * only woody stored (1,267 triangles, where without it the default would end 0.9% above
 * meshoptimizer's order); from 5,804 triangles up (12 meshes, stored and shuffled) the
 * greedy's polished order was the cheaper every time, and on the largest meshes the machine
 * greedy was a third of the default's time (docs/optimizers/auto.md, "llvmpipe's default"). */
#define GC_LLVMPIPE_MACHINE_MAX 32768

#define RECENT_MAX 16
#define SCAN 8
#define LIGHT_VALENCE 64

gc_status gc_opt_llvmpipe_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                 const gc_model* target, uint64_t stream_length, bool first_use, bool distinct,
                                 float beta, uint32_t recent_limit, uint32_t* order, gc_error* err)
{
    return gc_opt_llvmpipe_greedy_fed(indices, triangle_count, vertex_count, target, stream_length, first_use,
                                      distinct, beta, recent_limit, order, NULL, NULL, err);
}

/* The feed's end: what was written stays published (short of the count after a failure). */
static gc_status feed_end(gc_order_feed* feed, gc_status s)
{
    if (feed)
        atomic_store_explicit(&feed->ended, 1, memory_order_release);
    return s;
}

gc_status gc_opt_llvmpipe_greedy_fed(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                     const gc_model* target, uint64_t stream_length, bool first_use, bool distinct,
                                     float beta, uint32_t recent_limit, uint32_t* order, uint64_t* fed,
                                     gc_order_feed* feed, gc_error* err)
{
    uint64_t invocations = 0; /* the table's misses as the order is fed to it */
    if (fed)
        *fed = 0;
    if (triangle_count == 0)
        return feed_end(feed, GC_OK);
    /* llvmpipe: its table of p[1] entries, cleared at each segment of p[0] indices;
       direct-value:N: a table of N entries keyed alike, never cleared (one segment) */
    const bool llvmpipe = target->family == GC_MODEL_LLVMPIPE;
    const uint32_t map = llvmpipe ? target->p[1] : target->p[0];
    if ((!llvmpipe && target->family != GC_MODEL_DIRECT_VALUE) || map == 0)
        return feed_end(feed, gc_fail(err, GC_ERR_USAGE, "llvmpipe greedy: not an llvmpipe or direct-value target"));
    recent_limit = recent_limit == 0 ? 1 : recent_limit > RECENT_MAX ? RECENT_MAX : recent_limit;
    gc_live_triangles lists;
    bool light;
    gc_status s = gc_live_triangles_init_light(&lists, indices, triangle_count, vertex_count, LIGHT_VALENCE, distinct,
                                               &light, err);
    if (s)
        return feed_end(feed, s);
    uint32_t* dead_end = gc_alloc_array(triangle_count * 3, sizeof(uint32_t), false);
    unsigned char* emitted = gc_alloc_array(triangle_count, 1, true);
    uint32_t* table = gc_alloc_array(map, sizeof(uint32_t), true);
    /* first_use: the machine keyed by the numbers the vertices will have in order of first
     * use: below `next` those of the vertices drawn, from `next` on those a priced triangle
     * would give its new vertices (UINT32_MAX: none yet) */
    uint32_t* values = first_use ? gc_alloc_array(vertex_count ? vertex_count : 1, sizeof(uint32_t), false) : NULL;
    uint32_t next = 0;
    if (!dead_end || !emitted || !table || (first_use && !values)) {
        s = gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the state of %zu triangles and %u vertices",
                    triangle_count, vertex_count);
        goto done;
    }
    for (uint32_t v = 0; values && v < vertex_count; ++v)
        values[v] = UINT32_MAX;
    uint64_t loop_lines;
    gc_llvmpipe_list m = {table, values, map,
                          llvmpipe ? gc_llvmpipe_per_segment(GC_TRIANGLE_LIST,
                                                             stream_length ? stream_length
                                                                           : 3 * (uint64_t)triangle_count,
                                                             target->p[0], &loop_lines)
                                   : 0,
                          0};
    const uint32_t* live = lists.live;
    const uint32_t* first = lists.adj.offsets;
    const uint32_t* adjacent = lists.adj.triangles;
    float boost[64];
    gc_greedy_boost_table(boost);
    uint32_t recent[RECENT_MAX];
    uint32_t recent_count = 0;
    uint32_t seen_tri[GC_GREEDY_SEEN_SLOTS], seen_step[GC_GREEDY_SEEN_SLOTS];
    memset(seen_step, 0, sizeof seen_step);
    uint32_t candidates[RECENT_MAX * SCAN];
    size_t dead_top = 0, input_cursor = 0;
    for (size_t step = 0; step < triangle_count; ++step) {
        int64_t best = -1;
        float best_score = 0.0f;
        const bool fresh_segment = gc_llvmpipe_list_fresh(&m, step);
        const uint32_t count = gc_greedy_step_candidates(recent, recent_count, live, first, adjacent, indices, SCAN,
                                                         (uint32_t)step + 1, seen_tri, seen_step, candidates);
        for (uint32_t i = 0; i < count; ++i) {
            const uint32_t tri = candidates[i];
            const uint32_t* tv = indices + 3 * (size_t)tri;
            float valence;
            const float bound = gc_greedy_fresh_bound(tv, live, first, boost, beta, &valence); /* fresh: in no slot */
            if (best >= 0 && (bound > best_score || (bound == best_score && tri > (uint32_t)best)))
                continue; /* it cannot win: not priced */
            if (values)
                gc_number_new_corners(values, next, tv);
            const float score = (float)gc_llvmpipe_price3(&m, tv, fresh_segment) - beta * valence;
            if (values) /* priced only: its new vertices unnumbered again */
                gc_number_forget_new(values, next, tv);
            if (gc_greedy_beats(score, tri, best, best_score)) {
                best = tri;
                best_score = score;
            }
        }
        const uint32_t tri = gc_greedy_take(best, &lists, dead_end, &dead_top, emitted, &input_cursor);
        const uint32_t* tv = indices + 3 * (size_t)tri;
        if (values)
            next = gc_number_new_corners(values, next, tv);
        invocations += gc_llvmpipe_feed3(&m, tv, step);
        order[step] = tri;
        if (feed && (step + 1) % GC_ORDER_FEED_STEP == 0)
            atomic_store_explicit(&feed->written, step + 1, memory_order_release);
        gc_live_triangles_drop(&lists, light, indices, tri);
        for (int c = 0; c < 3; ++c)
            dead_end[dead_top++] = tv[c];
        gc_recent_after(recent, &recent_count, recent_limit, tv, live);
    }
    if (fed)
        *fed = invocations;
    if (feed)
        atomic_store_explicit(&feed->written, triangle_count, memory_order_release);
done:
    free(values);
    free(table);
    free(dead_end);
    free(emitted);
    gc_live_triangles_free(&lists);
    return feed_end(feed, s);
}

bool gc_machine_greedy_default(const gc_model* target, size_t triangle_count)
{
    return target->family != GC_MODEL_LLVMPIPE || triangle_count < GC_LLVMPIPE_MACHINE_MAX;
}
