// SPDX-License-Identifier: MIT
/* Every input the gpucache tool takes, as a draw (gc_mesh_load_input, gc_mesh_load_draw):
 * a mesh file or a generated grid, its topology and restart as given, validated. */
#include "io.h"

#include <stdlib.h>
#include <string.h>

/* "WxH" with each side in [1, GC_GRID_MAX_SIDE] and W x H at most GC_GRID_MAX_QUADS. */
static bool grid_size(const char* text, uint32_t* w, uint32_t* h)
{
    const char* x = strchr(text, 'x');
    uint64_t a, b;
    if (!x || gc_parse_u64(text, (size_t)(x - text), 0, 1, GC_GRID_MAX_SIDE, &a) != GC_PARSE_OK ||
        gc_parse_u64(x + 1, strlen(x + 1), 0, 1, GC_GRID_MAX_SIDE, &b) != GC_PARSE_OK || a * b > GC_GRID_MAX_QUADS)
        return false;
    *w = (uint32_t)a;
    *h = (uint32_t)b;
    return true;
}

gc_status gc_mesh_load_input(const char* path, const gc_load_options* lo, gc_mesh* out, gc_error* err)
{
    memset(out, 0, sizeof *out);
    if (!path)
        return gc_fail(err, GC_ERR_USAGE, "gc_mesh_load_input: no path");
    if (strncmp(path, "grid:", 5) != 0)
        return gc_mesh_load(path, lo, out, err);
    uint32_t w = 0, h = 0;
    if (!grid_size(path + 5, &w, &h))
        return gc_fail(err, GC_ERR_USAGE, "%s: expected grid:WxH with W and H in [1, %u] and W x H at most %llu quads",
                       path, (unsigned)GC_GRID_MAX_SIDE, (unsigned long long)GC_GRID_MAX_QUADS);
    size_t n = gc_grid_index_count(w, h, GC_GRID_ROWMAJOR, 0);
    uint32_t* idx = malloc(n * sizeof *idx);
    if (!idx)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for the grid's %zu indices", path, n);
    size_t written;
    gc_status s = gc_grid_generate(w, h, GC_GRID_ROWMAJOR, 0, idx, &written, err);
    if (s) {
        free(idx);
        return s;
    }
    out->indices = idx;
    out->index_count = written;
    out->topology = GC_TRIANGLE_LIST;
    out->has_topology = 1;
    out->index_bits = 32;
    out->restart_value = UINT32_MAX;
    out->vertex_count = (uint64_t)(w + 1) * (h + 1);
    return GC_OK;
}

gc_status gc_mesh_load_draw(const char* path, const gc_load_options* lo, const gc_draw_options* o, gc_mesh* mesh,
                            gc_draw* draw, uint64_t* primitives, gc_error* err)
{
    gc_status s = gc_mesh_load_input(path, lo, mesh, err);
    if (s)
        return s;
    *draw = (gc_draw){mesh->indices, mesh->index_count, mesh->topology, mesh->restart_enabled, mesh->restart_value};
    if (o && o->topology) {
        if (mesh->has_topology && *o->topology != mesh->topology) {
            s = gc_fail(err, GC_ERR_USAGE, "%s: the file holds a %s; -t %s does not apply", path,
                        gc_topology_name(mesh->topology), gc_topology_name(*o->topology));
            goto fail;
        }
        draw->topology = *o->topology;
    }
    if (o && o->restart) {
        draw->restart_enabled = 1;
        draw->restart_value = o->restart_given ? o->restart_value : mesh->index_bits == 16 ? 0xFFFFu : 0xFFFFFFFFu;
    }
    if ((s = gc_draw_validate(draw, path, primitives, err)))
        goto fail;
    if (mesh->index_bits == 32 && !draw->restart_enabled) {
        /* 0xFFFFFFFF (written -1 in text) is the 32-bit restart marker: without restart it
         * is a mistake, not a vertex */
        for (size_t i = 0; i < draw->index_count; ++i)
            if (draw->indices[i] == UINT32_MAX) {
                s = gc_fail(err, GC_ERR_DATA,
                            "%s: index %zu is 4294967295 (-1), the primitive restart value; give --restart to use "
                            "it as one",
                            path, i);
                goto fail;
            }
    }
    return GC_OK;
fail:
    gc_mesh_free(mesh);
    return s;
}
