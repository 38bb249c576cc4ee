// SPDX-License-Identifier: MIT
/* How gc_mesh_optimize's output numbers its vertices (gc_mesh_optimized.numbering) and the
 * functions that number it so: gc_mesh_optimized_renumber (the report's counts, the Python
 * package's remap) and gc_mesh_optimized_write (the file). With --reorder-vertices the
 * numbering is chosen for the fetch model (gc_reorder_vertices_fetch: first use's lines
 * placed over the cache's sets, never more bytes than first use) wherever the output format
 * carries the numbering; first use where it cannot (OBJ: its reader numbers vertices by
 * first use whatever the file says; assimp's formats: their exporter's own) or where a
 * target's invocations depend on the index values (direct-value, llvmpipe), for which auto
 * chose its order on first-use numbers. docs/models/fetch.md, "The numbering". */
#include "pipeline.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Whether the output of `path` (NULL: an array) keeps the numbering it is written with. */
static int carries_numbering(const char* path)
{
    if (!path)
        return 1;
    if (gc_mesh_numbers_by_first_use(path))
        return 0;
    const char* f = gc_stdin_format(path) ? gc_stdin_format(path) : gc_mesh_format(path);
    static const char* const own[] = {"", "txt", "idx", "u16", "u32", "ply", "gltf"};
    for (size_t i = 0; i < sizeof own / sizeof *own; ++i)
        if (!strcasecmp(f, own[i]))
            return 1;
    return 0;
}

gc_status gc_mesh_numbering_choose(const char* path, const gc_mesh_optimize_options* o, gc_mesh_optimized* r,
                                   gc_error* err)
{
    r->numbering = o->reorder_vertices ? GC_NUMBER_FIRST_USE : GC_NUMBER_KEPT;
    memset(&r->fetch, 0, sizeof r->fetch);
    if (!o->reorder_vertices || !carries_numbering(path))
        return GC_OK;
    if (o->algorithm == GC_OPT_AUTO)
        for (size_t k = 0; k < o->optimize.target_count && o->optimize.targets; ++k) {
            gc_family_traits t;
            gc_model_traits(&o->optimize.targets[k], &t);
            if (t.value_keyed)
                return GC_OK; /* auto scored its order on first-use numbers */
        }
    if (o->fetch) {
        if (!o->fetch->every_reference)
            return gc_fail(err, GC_ERR_USAGE, "the vertex numbering is chosen for a meshopt:BYTES fetch spec");
        r->fetch = *o->fetch;
    } else {
        gc_status s = gc_fetch_parse("meshopt:32", &r->fetch, err);
        if (s)
            return s;
    }
    r->numbering = GC_NUMBER_FETCH;
    return GC_OK;
}

gc_status gc_mesh_optimized_renumber(const gc_mesh_optimized* r, uint32_t* indices, uint32_t vertex_count,
                                     uint32_t* remap, uint32_t* used, gc_error* err)
{
    if (!r || (r->index_count && !indices) || (vertex_count && !remap) || !used)
        return gc_fail(err, GC_ERR_USAGE, "gc_mesh_optimized_renumber: no result, indices, remap or used");
    size_t n = r->index_count;
    switch (r->numbering) {
    case GC_NUMBER_FETCH:
        return gc_reorder_vertices_fetch(indices, n, vertex_count, &r->fetch, NULL, remap, used, err);
    case GC_NUMBER_FIRST_USE:
        return gc_reorder_vertices(indices, n, vertex_count, remap, used, err);
    default:
        for (size_t i = 0; i < n; ++i)
            if (indices[i] >= vertex_count)
                return gc_fail(err, GC_ERR_DATA, "index %zu is %u, not below %u", i, indices[i], vertex_count);
        for (uint32_t v = 0; v < vertex_count; ++v)
            remap[v] = v;
        *used = vertex_count;
        return GC_OK;
    }
}

gc_status gc_mesh_optimized_write(const char* in_path, const gc_load_options* options, const gc_mesh_optimized* r,
                                  const char* out_path, uint32_t** remap, size_t* remap_count, gc_error* err)
{
    if (!r)
        return gc_fail(err, GC_ERR_USAGE, "gc_mesh_optimized_write: no result");
    return gc_mesh_write_numbered(in_path, options, r->indices, r->index_count, r->numbering != GC_NUMBER_KEPT,
                                  r->numbering == GC_NUMBER_FETCH ? &r->fetch : NULL, out_path, remap, remap_count,
                                  err);
}
