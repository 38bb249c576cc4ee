// SPDX-License-Identifier: MIT
/* auto's swaps between warps (auto_cost.c): which targets they serve, a pass kept where the
 * exact count falls, and nvidia-pascal's greedy with its swaps as a pipeline (auto_fast.c's
 * fed greedy, warp_refine.c's passes following it). */
#ifndef GPUCACHE_AUTO_WARPS_H
#define GPUCACHE_AUTO_WARPS_H

#include "optimize.h"

/* Whether every target's cost is a sum over warps of their distinct vertices (meshoptimizer's
 * warp model with a cache at least as large as the warp: gc_family_traits.warp_sum), all with
 * the same warp limits, within what gc_opt_warp_refine supports (3 to 256 vertices, 1 to 256
 * triangles). */
bool gc_auto_warp_set_targets(const gc_model* targets, size_t target_count);

/* gc_opt_warp_refine_threads (`passes`, `flags`, `threads`) on a copy of `order` in
 * `candidate`, kept in `order` where it costs less than *best_cost (gc_auto_keep_if_better,
 * `expanded` its scratch of 3 x triangle_count indices). */
gc_status gc_auto_refine_warps(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                               const gc_model* targets, size_t target_count, const gc_stream_place* place,
                               unsigned passes, unsigned flags, unsigned threads, uint32_t* candidate,
                               uint32_t* expanded, uint64_t* best_cost, uint32_t* order, gc_error* err);

/* gc_opt_fifo_greedy with the order published to `feed` as it is made (the same order), the
 * feed ended whatever the outcome. */
gc_status gc_opt_fifo_greedy_fed(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                 const gc_fifo_machine* m, float beta, float gamma, uint32_t recent_limit,
                                 uint32_t* order, gc_order_feed* feed, gc_error* err);
/* An order's maker for gc_opt_warp_refine_made: writes `order` (triangle_count entries),
 * publishing it to `feed` as it goes and ending the feed whatever the outcome. */
typedef gc_status (*gc_order_make_fn)(void* user, uint32_t* order, gc_order_feed* feed, gc_error* err);
/* The order `make` writes into `made`, and in `refined` that order after two passes of the
 * swaps between each warp and the next `reach` (2 to 16): what gc_opt_warp_refine_ex with
 * passes 2 and GC_WARP_REFINE_NEXT(reach) makes of it, the same for every thread count. Two
 * jobs on up to `threads` threads: the maker, and the two passes following the order as it is
 * published (the warps formed as they arrive, the second pass a few warps behind the first).
 * The maker's failure is the one reported. Memory: gc_opt_warp_refine_ex's, with the warps'
 * arrays sized by the triangles. */
gc_status gc_opt_warp_refine_made(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                  uint32_t max_vertices, uint32_t max_triangles, uint32_t reach, unsigned threads,
                                  gc_order_make_fn make, void* make_user, uint32_t* made, uint32_t* refined,
                                  gc_error* err);
/* A lone target with meshoptimizer's warps, C >= W (nvidia-pascal), at the default effort on
 * several threads: the greedy's order (gc_opt_fifo_greedy, `weights`: beta, gamma, recent
 * vertices) and the two passes of the swaps between each warp and the next 3 made as a
 * pipeline (gc_opt_warp_refine_made): the greedy's order in `order` and its cost in *best_cost
 * (the only candidate), then the swapped one (made in `candidate`) kept where it costs less:
 * what the candidate job and gc_auto_refine_warps give one after the other, the passes in the
 * time the greedy leaves the second thread. */
#define GC_WARP_PIPE_MIN_TRIANGLES 8192 /* below, the second thread's start costs more than it saves */
gc_status gc_auto_warp_greedy_refined(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                      const gc_model* target, const gc_stream_place* place, const float weights[3],
                                      unsigned threads, uint32_t* candidate, uint32_t* expanded, uint64_t* best_cost,
                                      uint32_t* order, gc_error* err);

#endif
