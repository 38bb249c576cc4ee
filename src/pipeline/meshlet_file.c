// SPDX-License-Identifier: MIT
/* The meshlet data files (docs/formats/meshlets.md) by name: gc_meshlet_data_load and
 * gc_meshlet_data_save, libgpucache_io's part of the format that src/meshlet/meshlet_data.c
 * encodes and decodes in memory (the core). */
#include "../internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

gc_status gc_meshlet_data_save(const char* path, const gc_meshlets* m, gc_error* err)
{
    uint8_t* data = NULL;
    size_t size = 0;
    gc_status s = gc_meshlet_data_encode(m, &data, &size, err);
    if (s)
        return s;
    s = gc_write_file_atomic(path, data, size, err);
    free(data);
    return s;
}

gc_status gc_meshlet_data_load(const char* path, gc_meshlets* out, gc_error* err)
{
    memset(out, 0, sizeof *out);
    FILE* f = fopen(path, "rb");
    if (!f)
        return gc_fail(err, GC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    const size_t limit = (size_t)1 << 30;
    size_t cap = 65536, n = 0;
    uint8_t* buf = malloc(cap);
    gc_status s = GC_OK;
    while (buf) {
        if (n == cap) {
            if (cap >= limit) {
                s = gc_fail(err, GC_ERR_LIMIT, "%s: larger than 1 GiB", path);
                break;
            }
            uint8_t* g = realloc(buf, cap * 2);
            if (!g) {
                s = gc_fail(err, GC_ERR_NOMEM, "%s: out of memory reading it", path);
                break;
            }
            buf = g;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f))
                s = gc_fail(err, GC_ERR_IO, "%s: read error", path);
            break;
        }
    }
    fclose(f);
    if (!buf)
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory reading it", path);
    if (!s)
        s = gc_meshlet_data_decode(buf, n, path, out, err);
    free(buf);
    return s;
}
