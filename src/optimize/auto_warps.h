// SPDX-License-Identifier: MIT
/* auto's swaps between warps (auto_cost.c): which targets they serve, and a pass kept where
 * the exact count falls. */
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

#endif
