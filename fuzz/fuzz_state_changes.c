// SPDX-License-Identifier: MIT
/* The state-change file of the batch model. */
#include "fuzz_util.h"
#include "gpucache_private.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const char* path = fuzz_file(data, size, "txt");
    uint64_t* changes = NULL;
    size_t count = 0;
    gc_error err;
    if (gc_state_changes_load(path, 4096, &changes, &count, &err) == GC_OK) {
        uint32_t idx[4096];
        for (uint32_t i = 0; i < 4096; ++i)
            idx[i] = i % 97;
        gc_draw d = {idx, 4096, GC_TRIANGLE_STRIP, 0, 0};
        gc_model m;
        gc_model_parse("batch", &m, &err);
        gc_analyze_options o = {0};
        o.state_changes = changes;
        o.state_change_count = count;
        gc_stats st;
        gc_analyze(&m, &d, &o, &st, &err);
        free(changes);
    }
    return 0;
}
