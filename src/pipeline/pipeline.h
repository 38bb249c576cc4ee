// SPDX-License-Identifier: MIT
/* The mesh pipeline's internal pieces (mesh_analyze.c, mesh_optimize.c). Not installed. */
#ifndef GPUCACHE_PIPELINE_H
#define GPUCACHE_PIPELINE_H

#include "../internal.h"

/* gc_mesh_analyze on a document in memory: each primitive a draw (errors name `path`). */
gc_status gc_pipeline_analyze_gltf(const gc_gltf* doc, const char* path, const gc_model* models, size_t count,
                                   unsigned threads, gc_mesh_analysis* out, gc_error* err);

/* Whether index values up to `largest` in `count` indices are too sparse for tables
 * indexed by value (the density rule, gc_too_sparse). */
static inline int gc_pipeline_sparse(uint64_t largest, size_t count)
{
    return gc_too_sparse(largest + 1, count);
}

/* gc_mesh_optimize's numbering of the output (mesh_numbering.c): r->numbering and r->fetch
 * from options (reorder_vertices, fetch, the targets) and the format of `path` (NULL: an
 * array). A fetch spec that follows a model: GC_ERR_USAGE. */
gc_status gc_mesh_numbering_choose(const char* path, const gc_mesh_optimize_options* o, gc_mesh_optimized* r,
                                   gc_error* err);

#endif
