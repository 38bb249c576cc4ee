// SPDX-License-Identifier: MIT
/* Helpers of the fuzz targets: inputs that must go through a file are written to a
 * per-process temporary one. */
#ifndef GPUCACHE_FUZZ_UTIL_H
#define GPUCACHE_FUZZ_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline const char* fuzz_file(const uint8_t* data, size_t size, const char* ext)
{
    static char path[256];
    snprintf(path, sizeof path, "/tmp/gpucache-fuzz-%ld.%s", (long)getpid(), ext);
    FILE* f = fopen(path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
    return path;
}

/* A NUL-terminated copy (free it). */
static inline char* fuzz_string(const uint8_t* data, size_t size)
{
    char* s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = 0;
    return s;
}

#endif
