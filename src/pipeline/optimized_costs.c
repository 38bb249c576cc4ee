// SPDX-License-Identifier: MIT
/* gc_mesh_optimized_costs_of (gpucache.h): the overdraw and vertex fetch of what
 * gc_mesh_optimize read and of what it wrote, as `gpucache optimize` and `gpucache report`
 * show them. The models are stated in src/vertexpipe/ (overdraw.c, fetch.c); this file
 * only decides which lists and which vertex numbering they see. */
#include "pipeline.h"

#include <stdlib.h>
#include <string.h>

gc_status gc_mesh_optimized_costs_of(const char* path, const gc_load_options* options, const gc_mesh_optimized* r,
                                     int reorder_vertices, const gc_fetch_spec* fetch, gc_mesh_optimized_costs* out,
                                     gc_error* err)
{
    memset(out, 0, sizeof *out);
    if (!r)
        return gc_fail(err, GC_ERR_USAGE, "gc_mesh_optimized_costs_of: no result");
    size_t n = r->index_count;
    if (!r->input || n == 0)
        return GC_OK;
    uint32_t bound = 0;
    for (size_t i = 0; i < n; ++i)
        bound = r->input[i] + 1 > bound ? r->input[i] + 1 : bound;
    float* xyz = NULL;
    size_t positions = 0;
    gc_status s = GC_OK;
    /* no positions (an index buffer, standard input): no overdraw, and that is no error */
    if (path && gc_mesh_load_positions(path, options, &xyz, &positions, err) == GC_OK && positions >= bound) {
        s = gc_analyze_overdraw(r->input, n, xyz, positions, 0, &out->overdraw_before, err);
        if (!s)
            s = gc_analyze_overdraw(r->indices, n, xyz, positions, 0, &out->overdraw_after, err);
        out->has_overdraw = !s;
    }
    free(xyz);
    if (s || !fetch || r->sparse)
        return s; /* sparse values: a vertex buffer as long as the largest value is no real one */
    if (!fetch->every_reference)
        return gc_fail(err, GC_ERR_USAGE, "the fetch before and after an optimize is counted in meshopt:BYTES mode");
    uint32_t vertices = positions > bound && positions <= UINT32_MAX ? (uint32_t)positions : bound;
    uint32_t* after = gc_alloc_array(n, sizeof *after, false);
    uint32_t* remap = reorder_vertices ? gc_alloc_array(vertices ? vertices : 1, sizeof *remap, false) : NULL;
    if (!after || (reorder_vertices && !remap)) {
        free(after), free(remap);
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu indices", path ? path : "input", n);
    }
    /* the output as it will be read back: with --reorder-vertices, renumbered as it is written
     * (first use, or for the fetch model: gc_mesh_optimized_renumber) */
    memcpy(after, r->indices, n * sizeof *after);
    uint32_t used = 0;
    if (reorder_vertices)
        s = r->numbering == GC_NUMBER_KEPT ? gc_reorder_vertices(after, n, vertices, remap, &used, err)
                                           : gc_mesh_optimized_renumber(r, after, vertices, remap, &used, err);
    free(remap);
    if (!s)
        s = gc_analyze_fetch(fetch, NULL, r->input, n, vertices, NULL, 0, &out->fetch_before, err);
    if (!s)
        s = gc_analyze_fetch(fetch, NULL, after, n, vertices, NULL, 0, &out->fetch_after, err);
    free(after);
    out->has_fetch = !s;
    return s;
}
