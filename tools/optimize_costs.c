/* optimize's overdraw and vertex fetch before and after (optimize_costs.h): the library's
 * models (gc_analyze_overdraw, gc_analyze_fetch) on the input and the output lists. */
#include "optimize_costs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gc_status optimize_costs_of(const char* path, const gc_load_options* lo, const gc_mesh_optimized* r, int reorder,
                            const char* spec_text, const gc_fetch_spec* spec, optimize_costs* out, gc_error* err)
{
    memset(out, 0, sizeof *out);
    size_t n = r->index_count;
    if (!r->input || n == 0)
        return GC_OK;
    uint32_t bound = 0;
    for (size_t i = 0; i < n; ++i)
        bound = r->input[i] + 1 > bound ? r->input[i] + 1 : bound;
    float* xyz = NULL;
    size_t positions = 0;
    gc_status s = GC_OK;
    if (path && gc_mesh_load_positions(path, lo, &xyz, &positions, err) == GC_OK && positions >= bound) {
        s = gc_analyze_overdraw(r->input, n, xyz, positions, 0, &out->overdraw_before, err);
        if (!s)
            s = gc_analyze_overdraw(r->indices, n, xyz, positions, 0, &out->overdraw_after, err);
        out->has_overdraw = !s;
    }
    free(xyz);
    if (s || !spec || r->sparse)
        return s; /* sparse values: a vertex buffer as long as the largest value is no real one */
    uint32_t vertices = positions > bound && positions <= UINT32_MAX ? (uint32_t)positions : bound;
    uint32_t* after = malloc(n * sizeof *after + 1);
    uint32_t* remap = reorder ? malloc((size_t)vertices * sizeof *remap + 1) : NULL;
    if (!after || (reorder && !remap)) {
        free(after), free(remap);
        snprintf(err->message, sizeof err->message, "%s: out of memory for %zu indices", path ? path : "input", n);
        err->code = GC_ERR_NOMEM;
        return GC_ERR_NOMEM;
    }
    memcpy(after, r->indices, n * sizeof *after);
    uint32_t used = 0;
    if (reorder)
        s = gc_reorder_vertices(after, n, vertices, remap, &used, err);
    free(remap);
    if (!s)
        s = gc_analyze_fetch(spec, NULL, r->input, n, vertices, NULL, 0, &out->fetch_before, err);
    if (!s)
        s = gc_analyze_fetch(spec, NULL, after, n, vertices, NULL, 0, &out->fetch_after, err);
    free(after);
    if (!s)
        out->fetch_spec = spec_text;
    return s;
}
