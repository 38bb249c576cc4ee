// SPDX-License-Identifier: MIT
/* The default effort for a lone llvmpipe target on two threads (issue 33 item 3): its
 * greedy's order and the polish after it as a pipeline.
 *
 * For a lone llvmpipe target the default's time is one candidate job: the greedy
 * (gc_opt_llvmpipe_greedy, auto_machine_greedy.c), then its order polished for the segments (gc_opt_earlier_first:
 * within each piece, the triangles that use a vertex of an earlier piece first) and both
 * orders scored. The polish takes the order piece by piece, front to back, and a piece
 * needs only the order up to its end, so it can run on a second thread while the greedy
 * makes the order, reading the prefix the greedy has published (gc_order_feed: a count
 * stored with release every GC_ORDER_FEED_STEP triangles, read with acquire), as
 * direct_position_pipe.c does for direct-position's pass. The polished order goes to a
 * buffer of its own (the greedy's stays as it is, for the choice), and it is counted under
 * the target as it is made: a list drawn alone, fed to the rule's list form
 * (src/models/llvmpipe_rule.h), which counts what auto's score counts (gc_analyze); the
 * greedy counts its own order the same way as it feeds its table. Each thread reads what
 * the one-thread chain reads, so the orders and the choice are the same for every thread
 * count (tests/test_llvmpipe_pipe.c). */
#include "optimize.h"
#include "../models/llvmpipe_rule.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

/* How much of the order is there: at least `need` triangles, or all the maker wrote once it
 * ended (short of the count after a failure). */
static size_t wait_for(const gc_order_feed* feed, size_t need)
{
    for (;;) {
        const size_t w = atomic_load_explicit(&feed->written, memory_order_acquire);
        if (w >= need)
            return w;
        if (atomic_load_explicit(&feed->ended, memory_order_acquire))
            return atomic_load_explicit(&feed->written, memory_order_acquire);
        sched_yield();
    }
}

gc_status gc_llvmpipe_polish_fed(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                 const gc_model* target, uint32_t piece_triangles, uint32_t first_piece,
                                 const uint32_t* in, const gc_order_feed* feed, uint32_t* out, uint64_t* cost,
                                 bool* aborted, gc_error* err)
{
    *cost = 0;
    *aborted = false;
    if (triangle_count == 0)
        return GC_OK;
    if (target->family != GC_MODEL_LLVMPIPE || target->p[1] == 0 || piece_triangles == 0)
        return gc_fail(err, GC_ERR_USAGE, "llvmpipe polish: not an llvmpipe target with pieces");
    unsigned char* used_before = gc_alloc_array(vertex_count ? vertex_count : 1, 1, true);
    uint32_t* scratch = gc_alloc_array(piece_triangles, sizeof(uint32_t), false);
    uint32_t* table = gc_alloc_array(target->p[1], sizeof(uint32_t), true);
    gc_status s = GC_OK;
    if (!used_before || !scratch || !table) {
        s = gc_fail(err, GC_ERR_NOMEM, "llvmpipe polish: out of memory for %u vertices", vertex_count);
        goto done;
    }
    uint64_t loop_lines;
    gc_llvmpipe_list m = {table, NULL, target->p[1],
                          gc_llvmpipe_per_segment(GC_TRIANGLE_LIST, 3 * (uint64_t)triangle_count, target->p[0],
                                                  &loop_lines),
                          0};
    uint64_t misses = 0;
    size_t start = 0, there = 0;
    uint32_t size = first_piece && first_piece < piece_triangles ? first_piece : piece_triangles;
    while (start < triangle_count) {
        const size_t end = start + size < triangle_count ? start + size : triangle_count;
        if (there < end && (there = wait_for(feed, end)) < end) {
            *aborted = true; /* the maker failed: its status is the one reported */
            goto done;
        }
        memcpy(out + start, in + start, (end - start) * sizeof *out);
        gc_earlier_first_piece(indices, out + start, end - start, used_before, scratch);
        /* the piece's vertices are earlier for the next ones; the piece counted */
        for (size_t i = start; i < end; ++i) {
            const uint32_t* tv = indices + 3 * (size_t)out[i];
            used_before[tv[0]] = used_before[tv[1]] = used_before[tv[2]] = 1;
            misses += gc_llvmpipe_feed3(&m, tv, i);
        }
        start = end;
        size = piece_triangles;
    }
    *cost = misses;
done:
    free(used_before);
    free(scratch);
    free(table);
    return s;
}

bool gc_table_greedy_counts(const gc_model* targets, size_t target_count, const gc_stream_place* place,
                            size_t triangle_count)
{
    if (target_count != 1 || place->numbering)
        return false;
    if (targets[0].family == GC_MODEL_DIRECT_VALUE) /* keyed by value alone, anywhere in the draw */
        return true;
    return targets[0].family == GC_MODEL_LLVMPIPE && place->position == 0 &&
           (place->length == 0 || place->length == 3 * (uint64_t)triangle_count);
}
