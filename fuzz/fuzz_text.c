// SPDX-License-Identifier: MIT
/* Text index lists (.txt/.idx and standard input). */
#include "gpucache_private.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    gc_mesh m;
    gc_error err;
    if (gc_mesh_parse_text((const char*)data, size, "fuzz.txt", &m, &err) == GC_OK)
        gc_mesh_free(&m);
    return 0;
}
