// SPDX-License-Identifier: MIT
/* The heat map of a mesh file (gc_heatmap_file_svg): the file loaded, then
 * src/pictures/heatmap.c's gc_heatmap_write. Part of libgpucache_io, since it reads files;
 * heatmap.c itself is the core's. */
#define _POSIX_C_SOURCE 200809L
#include "gpucache/gpucache_io.h"

#include "../internal.h"

#include <stdio.h>
#include <stdlib.h>

gc_status gc_heatmap_file_svg(const char* path, const gc_load_options* load, const char* name,
                               const gc_model* model, gc_heatmap_view view, uint32_t scale_max, char** svg,
                               size_t* size, gc_error* err)
{
    gc_mesh mesh = {0};
    float* xyz = NULL;
    size_t vertex_count = 0;
    *svg = NULL;
    *size = 0;
    gc_status status = gc_mesh_load(path, load, &mesh, err);
    if (status)
        return status;
    if ((status = gc_mesh_load_positions(path, load, &xyz, &vertex_count, err)) != GC_OK) {
        gc_mesh_free(&mesh);
        return status;
    }
    /* a glTF's triangle primitives are each their own draw, as analyze draws them */
    gc_draw whole = {mesh.indices, mesh.index_count, GC_TRIANGLE_LIST, 0, 0};
    size_t one_run = mesh.index_count / 3;
    gc_heatmap_options o = {0};
    o.view = view;
    o.scale_max = scale_max;
    o.runs = mesh.runs ? mesh.runs : &one_run;
    o.run_count = mesh.runs ? mesh.run_count : 1;
    char* text = NULL;
    size_t length = 0;
    FILE* f = open_memstream(&text, &length);
    if (!f)
        status = gc_fail(err, GC_ERR_NOMEM, "out of memory for the picture");
    else {
        status = gc_heatmap_write(f, xyz, vertex_count, name ? name : path, model, &whole, &o, err);
        if (fclose(f) != 0 && !status)
            status = gc_fail(err, GC_ERR_NOMEM, "out of memory for the picture");
        if (status)
            free(text);
        else
            *svg = text, *size = length;
    }
    free(xyz);
    gc_mesh_free(&mesh);
    return status;
}
