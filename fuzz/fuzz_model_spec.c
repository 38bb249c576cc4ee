// SPDX-License-Identifier: MIT
/* Model specifications (-m) and topology names. */
#include "fuzz_util.h"
#include "gpucache_private.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    char* s = fuzz_string(data, size);
    gc_model m;
    gc_error err;
    if (gc_model_parse(s, &m, &err) == GC_OK) {
        /* a parsed model runs on a small draw */
        static const uint32_t idx[] = {0, 1, 2, 2, 1, 3, 0, 0, 0};
        gc_draw d = {idx, 9, GC_TRIANGLE_LIST, 0, 0};
        gc_stats st;
        gc_analyze(&m, &d, NULL, &st, &err);
    }
    gc_topology t;
    gc_topology_parse(s, &t, &err);
    free(s);
    return 0;
}
