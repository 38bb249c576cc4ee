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
        if (there < end && (there = gc_order_feed_wait(feed, end)) < end) {
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

/* auto's polish for llvmpipe's segments (limits as auto's patch_limits: triangles, first piece, vertices,
 * map): triangles swapped between neighbouring segments while their distinct vertices go
 * down (warp_refine.c, segments of at most `map` vertices, when they start with the draw's;
 * with `refine`: it takes most of the time, so only the winner gets it), then within each
 * segment the earlier vertices first, and with first-use numbering the
 * order with the fewest table conflicts (patches.c). */
gc_status gc_llvmpipe_polish_segments(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                      const uint32_t* l, const gc_stream_place* place, unsigned effort, bool refine,
                                      uint32_t* candidate, gc_error* err)
{
    gc_status s = GC_OK;
    if (refine && l[1] == l[0])
        s = gc_opt_warp_refine(indices, triangle_count, vertex_count, l[3], l[0], 2 + 2 * (effort - 1), candidate,
                               err);
    if (!s)
        s = gc_opt_earlier_first(indices, triangle_count, vertex_count, l[0], l[1], candidate, err);
    if (!s && place->numbering)
        s = gc_opt_value_keyed_pieces(indices, triangle_count, vertex_count, l[0], l[1], l[3], candidate, err);
    return s;
}

void gc_table_pipe_plan(gc_table_pipe* p, const gc_model* targets, size_t target_count,
                        const gc_stream_place* place, size_t triangle_count, bool one_greedy, const uint32_t* limits,
                        unsigned threads)
{
    memset(p, 0, sizeof *p);
    atomic_init(&p->feed.written, 0);
    atomic_init(&p->feed.ended, 0);
    p->count = one_greedy && gc_table_greedy_counts(targets, target_count, place, triangle_count);
    p->polish = p->count && targets[0].family == GC_MODEL_LLVMPIPE && limits && limits[3] && threads > 1 &&
                triangle_count >= GC_LLVMPIPE_PIPE_MIN_TRIANGLES;
    if (p->polish)
        p->piece = limits[0], p->first = limits[1];
}

gc_status gc_table_pipe_alloc(gc_table_pipe* p, size_t triangle_count, gc_error* err)
{
    if (p->polish && !(p->order = gc_alloc_array(triangle_count, sizeof(uint32_t), false)))
        return gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for an order of %zu triangles", triangle_count);
    return GC_OK;
}

gc_status gc_table_pipe_greedy(gc_table_pipe* p, const uint32_t* indices, size_t triangle_count,
                               uint32_t vertex_count, const gc_model* target, uint64_t stream_length, float beta,
                               uint32_t recent, uint32_t* candidate, uint32_t** made, uint64_t* cost, gc_error* err)
{
    *made = p->polish ? p->order : candidate;
    *cost = UINT64_MAX;
    uint64_t fed = 0;
    gc_status s = gc_opt_llvmpipe_greedy_fed(indices, triangle_count, vertex_count, target, stream_length, false, true,
                                             beta, recent, *made, p->count ? &fed : NULL,
                                             p->polish ? &p->feed : NULL, err);
    if (!s && p->count)
        *cost = fed;
    return s;
}

gc_status gc_table_pipe_polish(gc_table_pipe* p, const uint32_t* indices, size_t triangle_count,
                               uint32_t vertex_count, const gc_model* target, uint32_t* out, uint64_t* cost,
                               gc_error* err)
{
    bool aborted = false;
    gc_status s = gc_llvmpipe_polish_fed(indices, triangle_count, vertex_count, target, p->piece, p->first, p->order,
                                         &p->feed, out, cost, &aborted, err);
    if (s || aborted) /* (aborted: the greedy failed, its status the one reported) */
        *cost = UINT64_MAX;
    return s;
}
