// SPDX-License-Identifier: MIT
/* Published-measurement files (JSON) as `gpucache validate --data FILE` reads them; what
 * loads is then predicted under a model where it is small enough to be quick (sequences of
 * at most 100,000 indices, grids of at most 400 quads over at most 16 cache sizes). */
#include "gpucache/gpucache_validate.h"
#include "fuzz_util.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const char* path = fuzz_file(data, size, "json");
    gc_published_set set;
    gc_error err;
    if (gc_published_load(path, &set, &err) == GC_OK) {
        size_t work = 0;
        for (size_t i = 0; i < set.count; ++i) {
            const gc_published* p = &set.items[i];
            work += p->is_grid ? ((uint64_t)p->width * p->height > 400 || p->cache_hi - p->cache_lo > 16 ? 1u << 30 : 0)
                               : p->index_count;
        }
        gc_model m;
        gc_prediction* out = calloc(set.count ? set.count : 1, sizeof *out);
        if (out && work < 100000 && gc_model_parse("fifo:16", &m, &err) == GC_OK)
            gc_validate(&set, &m, 0.02, out, &err);
        free(out);
    }
    gc_published_free(&set);
    return 0;
}
