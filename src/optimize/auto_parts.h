// SPDX-License-Identifier: MIT
/* auto's default for a large list, part by part (auto_parts.c, partition.c; issue 33 item 3). */
#ifndef GPUCACHE_AUTO_PARTS_H
#define GPUCACHE_AUTO_PARTS_H

#include "optimize.h"

/* From this many triangles the default runs part by part (smaller lists: the whole list). */
#define GC_AUTO_PARTS_FROM 100000
/* 2 parts for each this many triangles (at least 2), at most GC_AUTO_PARTS_MAX. */
#define GC_AUTO_PARTS_EACH 524288
#define GC_AUTO_PARTS_MAX 8

/* The parts of a list of triangle_count triangles (1: the whole list), from its size alone:
 * 2 below 1,048,576 triangles (ogre, igea), 8 from 2,097,152 (igea subdivided twice). */
size_t gc_auto_parts_count(size_t triangle_count);
/* Whether auto's default runs part by part (gc_auto_llvmpipe_parts): a lone llvmpipe target
 * whose greedy counts its order (pipe->count: the list drawn alone, the numbers kept), its
 * polish's limits (auto.c's patch_limits) with segments from the list's start, no machine
 * greedy job, from GC_AUTO_PARTS_FROM triangles. */
bool gc_auto_parts_fit(const gc_table_pipe* pipe, const gc_model* targets, const uint32_t* limits,
                       size_t machine_at, size_t triangle_count);
/* A lone llvmpipe target's default part by part (auto_parts.c): the greedy with greedy[]
 * (beta, gamma, recent) for each part, the parts cut at llvmpipe's segments (limits[0]
 * triangles), one job a part on options->threads workers. The same output for
 * every thread count. *cost (if not NULL): the order's invocations under the target (the
 * parts' counts summed). With `occlusion`, the overdraw pass's occlusion pairs (options'
 * positions) are a job beside them.
 * Memory: scratch (3T entries, the caller's) holds the parts' lists and `order` their orders,
 * so beyond those, T triangles and V vertices in bytes: gc_partition_make's peak (partition.h,
 * at most 26T + 9V + 8 per component), then its walk (4T) kept, 4V + 4 x map while each
 * part's vertices are numbered afresh (parts_lists: the greedy's order unchanged), then per
 * part being made at the same time the greedy's state, about 25 x its triangles + 12 x its
 * vertices (adjacency 12 + 4, the table's counts 8, dead ends up to 12 and a byte a
 * triangle). Measured (test_auto_memory): 9.0 bytes per index on one thread and 13.2 on two
 * with 0.92 vertices a triangle. Time: the partition's (O(parts x T) at worst, partition.h),
 * O(T + parts x map) to number the parts, and the greedies'. */
gc_status gc_auto_llvmpipe_parts(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                 const gc_model* target, const float greedy[3], const uint32_t* limits,
                                 const gc_optimize_options* options, gc_occlusion_ahead* occlusion, uint32_t* scratch,
                                 uint32_t* order, uint64_t* cost, gc_error* err);

#endif
