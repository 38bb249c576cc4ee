/* The vertex positions optimize hands to the overdraw pass (docs/optimizers/tipsify.md):
 * read from the mesh file, and picked for the optimizer's dense vertex ids where the
 * index values were compacted. */
#include "cli.h"
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int optimize_positions(const char* path, const gc_load_options* lo, const uint32_t* values, uint32_t vertex_count,
                       int required, float** out)
{
    *out = NULL;
    float* xyz = NULL;
    size_t count = 0;
    gc_error err = {0};
    gc_status s = gc_mesh_load_positions(path, lo, &xyz, &count, &err);
    if (!s && vertex_count && (values ? values[vertex_count - 1] : vertex_count - 1) >= count) {
        free(xyz);
        if (!required)
            return 0;
        fprintf(stderr, "gpucache: %s: %zu vertex positions for index values up to %u\n", path, count,
                values ? values[vertex_count - 1] : vertex_count - 1);
        return EXIT_DATA;
    }
    if (s) {
        if (!required)
            return 0; /* no positions (index buffers): no overdraw pass, as before */
        fprintf(stderr, "gpucache: %s: the overdraw pass needs vertex positions: %s\n", path, err.message);
        return EXIT_USAGE;
    }
    if (values) { /* ascending (compact_indices): values[v] >= v, each read before it is overwritten */
        for (uint32_t v = 0; v < vertex_count; ++v)
            memmove(xyz + 3 * (size_t)v, xyz + 3 * (size_t)values[v], 3 * sizeof *xyz);
    }
    *out = xyz;
    return 0;
}
