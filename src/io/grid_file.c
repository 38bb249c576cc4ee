// SPDX-License-Identifier: MIT
/* `gpucache grid`'s file (gpucache_private.h): a generated grid's index buffer as text,
 * raw 16- or 32-bit indices, or an OBJ or ASCII PLY with the grid's positions. */
#include "../internal.h"
#include "gpucache_private.h"

#include <stdlib.h>
#include <string.h>

gc_status gc_grid_file_write(FILE* f, const char* format, uint32_t w, uint32_t h, gc_grid_layout layout,
                             const char* layout_name, uint32_t cache, size_t* triangles, gc_error* err)
{
    size_t n = gc_grid_index_count(w, h, layout, cache), written = 0;
    uint32_t* idx = malloc(n * sizeof *idx);
    if (!idx)
        return gc_fail(err, GC_ERR_NOMEM, "out of memory for the grid's %zu indices", n);
    gc_status s = gc_grid_generate(w, h, layout, cache, idx, &written, err);
    const char* header = !strcmp(format, "ply") ? "ply\nformat ascii 1.0\ncomment " : "# ";
    int mesh = !strcmp(format, "obj") || !strcmp(format, "ply"), ply = format[0] == 'p', base = format[0] == 'o';
    if (!s && mesh) {
        fprintf(f, "%sgpucache grid %u %u --layout %s --cache %u\n", header, w, h, layout_name, cache);
        if (ply)
            fprintf(f, "element vertex %llu\nproperty float x\nproperty float y\nproperty float z\n"
                       "element face %zu\nproperty list uchar int vertex_indices\nend_header\n",
                    (unsigned long long)(w + 1) * (h + 1), written / 3);
        for (uint32_t y = 0; y <= h; ++y)
            for (uint32_t x = 0; x <= w; ++x)
                fprintf(f, ply ? "%u %u 0\n" : "v %u %u 0\n", x, y);
    }
    for (size_t i = 0; !s && i < written; i += 3) {
        if (mesh || !strcmp(format, "txt")) {
            fprintf(f, ply ? "3 %u %u %u\n" : base ? "f %u %u %u\n" : "%u %u %u\n", idx[i] + base, idx[i + 1] + base,
                    idx[i + 2] + base);
            continue;
        }
        for (size_t k = i; k < i + 3; ++k) {
            unsigned char b[4] = {(unsigned char)idx[k], (unsigned char)(idx[k] >> 8), (unsigned char)(idx[k] >> 16),
                                  (unsigned char)(idx[k] >> 24)};
            fwrite(b, 1, strcmp(format, "u16") ? 4 : 2, f);
        }
    }
    free(idx);
    *triangles = written / 3;
    return s;
}
