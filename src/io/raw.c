// SPDX-License-Identifier: MIT
/* Raw index buffers: .u16 and .u32, little-endian, exactly as a GPU reads them. */
#include "io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gc_status gc_load_raw(const char* path, int bits, const gc_load_options* o, gc_mesh* out, gc_error* err)
{
    size_t max = o && o->max_indices ? o->max_indices : GC_MAX_INDICES;
    const size_t width = (size_t)bits / 8;
    FILE* f = fopen(path, "rb");
    if (!f)
        return gc_fail(err, GC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return gc_fail(err, GC_ERR_IO, "%s: cannot seek (raw buffers must be regular files)", path);
    }
    long size = ftell(f);
    if (size < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return gc_fail(err, GC_ERR_IO, "%s: cannot determine the file size", path);
    }
    gc_status s = GC_OK;
    if (size == 0)
        s = gc_fail(err, GC_ERR_DATA, "%s: empty file (no indices)", path);
    else if ((size_t)size % width != 0)
        s = gc_fail(err, GC_ERR_DATA, "%s: byte %ld: %ld bytes is not a whole number of %d-bit indices (%zu left over)",
                    path, size - (long)((size_t)size % width), size, bits, (size_t)size % width);
    else if ((size_t)size / width > max)
        s = gc_fail(err, GC_ERR_LIMIT, "%s: %zu indices exceed the limit of %zu", path, (size_t)size / width, max);
    if (s) {
        fclose(f);
        return s;
    }
    size_t count = (size_t)size / width;
    uint32_t* indices = gc_alloc_array(count, sizeof(uint32_t), false);
    if (!indices) {
        fclose(f);
        return gc_fail(err, GC_ERR_NOMEM, "%s: out of memory for %zu indices", path, count);
    }
    unsigned char buffer[65536];
    size_t done = 0;
    while (done < count) {
        size_t want = count - done;
        if (want > sizeof buffer / width)
            want = sizeof buffer / width;
        size_t got = fread(buffer, width, want, f);
        if (got != want) {
            free(indices);
            fclose(f);
            return gc_fail(err, GC_ERR_IO, "%s: byte %zu: read failed or file shrank", path, done * width);
        }
        for (size_t i = 0; i < got; ++i) {
            const unsigned char* b = buffer + i * width;
            indices[done + i] = width == 2 ? (uint32_t)(b[0] | b[1] << 8)
                                           : (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                                                 (uint32_t)b[3] << 24;
        }
        done += got;
    }
    fclose(f);
    gc_mesh_set(out, indices, count, false, 0);
    out->index_bits = bits;
    out->restart_value = bits == 16 ? 0xFFFFu : 0xFFFFFFFFu;
    return GC_OK;
}

gc_status gc_load_raw_stdin(int bits, const gc_load_options* o, gc_mesh* out, gc_error* err)
{
    /* standard input cannot be measured first: read it whole, in chunks, stopping at the
     * index limit and at 1 GiB of input (what a pipe may ask this way is bounded) */
    const size_t width = (size_t)bits / 8;
    size_t max = o && o->max_indices ? o->max_indices : GC_MAX_INDICES;
    if (max > GC_STDIN_RAW_MAX_BYTES / width)
        max = GC_STDIN_RAW_MAX_BYTES / width;
    gc_u32_vec v = {0};
    unsigned char buffer[65536];
    size_t carry = 0; /* bytes of an index split between two reads */
    uint64_t bytes = 0;
    for (;;) {
        size_t got = fread(buffer + carry, 1, sizeof buffer - carry, stdin);
        if (got == 0)
            break;
        bytes += got;
        got += carry;
        size_t whole = got - got % width;
        for (size_t i = 0; i < whole; i += width) {
            const unsigned char* b = buffer + i;
            uint32_t value = width == 2 ? (uint32_t)(b[0] | b[1] << 8)
                                        : (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                                              (uint32_t)b[3] << 24;
            if (v.count == max) {
                free(v.data);
                return gc_fail(err, GC_ERR_LIMIT, "<stdin>: more than the limit of %zu indices (%zu bytes)", max,
                               max * width);
            }
            if (!gc_u32_vec_push(&v, value)) {
                free(v.data);
                return gc_fail(err, GC_ERR_NOMEM, "<stdin>: out of memory after %zu indices", v.count);
            }
        }
        carry = got - whole;
        memmove(buffer, buffer + whole, carry);
    }
    gc_status s = GC_OK;
    if (ferror(stdin))
        s = gc_fail(err, GC_ERR_IO, "<stdin>: read failed");
    else if (bytes == 0)
        s = gc_fail(err, GC_ERR_DATA, "<stdin>: empty input (no indices)");
    else if (carry)
        s = gc_fail(err, GC_ERR_DATA, "<stdin>: byte %llu: %llu bytes is not a whole number of %d-bit indices",
                    (unsigned long long)(bytes - carry), (unsigned long long)bytes, bits);
    if (s) {
        free(v.data);
        return s;
    }
    gc_mesh_set(out, v.data, v.count, false, 0);
    out->index_bits = bits;
    out->restart_value = bits == 16 ? 0xFFFFu : 0xFFFFFFFFu;
    return GC_OK;
}
