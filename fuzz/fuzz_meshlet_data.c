// SPDX-License-Identifier: MIT
/* Meshlet data files (docs/formats/meshlets.md) as gc_meshlet_data_decode reads them. A
 * file it accepts must pass gc_meshlets_check, encode back to the same bytes (the format
 * has one encoding: zero padding and reserved float checked or rewritten), expand into
 * its triangles, and survive the local reordering with its figures unchanged. */
#include "gpucache_private.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    gc_meshlets m;
    gc_error err;
    if (gc_meshlet_data_decode(data, size, "fuzz", &m, &err) != GC_OK) {
        if (m.meshlets || m.vertices || m.triangles || m.bounds || err.message[0] == 0)
            abort(); /* a refusal leaves nothing and says why */
        return 0;
    }
    if (gc_meshlets_check(&m, 0, "fuzz", &err) != GC_OK)
        abort();
    uint8_t* again = NULL;
    size_t again_size = 0;
    if (gc_meshlet_data_encode(&m, &again, &again_size, &err) != GC_OK || again_size != size)
        abort();
    /* the reserved float of each bound is written as 0: compare everything else */
    size_t bounds_at = m.bounds ? size - 48 * m.meshlet_count : size;
    if (memcmp(again, data, bounds_at) != 0)
        abort();
    for (size_t i = 0; i < m.meshlet_count && m.bounds; ++i)
        if (memcmp(again + bounds_at + 48 * i, data + bounds_at + 48 * i, 44) != 0)
            abort();
    free(again);
    uint32_t* out = malloc((3 * m.triangle_count + 1) * sizeof *out);
    size_t written = 0;
    if (!out || gc_meshlets_expand(&m, out, 3 * m.triangle_count, &written, &err) != GC_OK ||
        written != 3 * m.triangle_count)
        abort();
    size_t meshlets = m.meshlet_count, vertices = m.vertex_count;
    if (gc_meshlets_optimize_local(&m, &err) != GC_OK || m.meshlet_count != meshlets || m.vertex_count != vertices ||
        gc_meshlets_check(&m, 0, "fuzz", &err) != GC_OK)
        abort();
    free(out);
    gc_meshlets_free(&m);
    return 0;
}
