// SPDX-License-Identifier: MIT
/* Index buffers of regular grids in the layouts seed 002 compares, and a
 * deterministic triangle shuffle. Vertices are numbered row by row:
 * vertex (x, y) is y * (width + 1) + x. */
#include "internal.h"

#include <string.h>

/* Quads per vertical strip: a strip row of (cache - 1) vertices, "just under the
 * cache size" (seed 002: cache 66 gives strips of 65 vertices). */
static uint32_t strip_width(uint32_t width, uint32_t cache)
{
    uint32_t w = cache > 2 ? cache - 2 : 1;
    return w < width ? w : width;
}

/* The optimal layout prefetches a strip's first row only when two rows of the
 * strip do not fit the cache together; otherwise plain rows already hit. */
static bool needs_prefetch(uint32_t strip, uint32_t cache)
{
    return 2 * ((uint64_t)strip + 1) > cache;
}

size_t gc_grid_index_count(uint32_t width, uint32_t height, gc_grid_layout layout, uint32_t cache)
{
    size_t quads = (size_t)width * height * 6;
    if (layout != GC_GRID_OPTIMAL || width == 0 || height == 0)
        return quads;
    size_t extra = 0;
    uint32_t sw = strip_width(width, cache);
    for (uint32_t x0 = 0; x0 < width; x0 += sw) {
        uint32_t w = width - x0 < sw ? width - x0 : sw;
        if (needs_prefetch(w, cache))
            extra += 3 * (size_t)w;
    }
    return quads + extra;
}

static uint32_t* emit_quad(uint32_t* out, uint32_t width, uint32_t x, uint32_t y)
{
    uint32_t stride = width + 1;
    uint32_t v00 = y * stride + x, v10 = v00 + 1, v01 = v00 + stride, v11 = v01 + 1;
    out[0] = v00, out[1] = v10, out[2] = v01;
    out[3] = v10, out[4] = v11, out[5] = v01;
    return out + 6;
}

gc_status gc_grid_generate(uint32_t width, uint32_t height, gc_grid_layout layout, uint32_t cache, uint32_t* out,
                           size_t* written, gc_error* err)
{
    if (width == 0 || height == 0)
        return gc_fail(err, GC_ERR_USAGE, "grid %ux%u: width and height must be at least 1", width, height);
    if ((uint64_t)(width + 1ull) * (height + 1ull) > UINT32_MAX ||
        (uint64_t)width * height * 6 > GC_MAX_INDICES / 2)
        return gc_fail(err, GC_ERR_LIMIT, "grid %ux%u: too large", width, height);
    if (layout != GC_GRID_ROWMAJOR && (cache < 3 || cache > GC_MAX_CACHE_SIZE))
        return gc_fail(err, GC_ERR_USAGE, "grid: cache size %u out of range [3, %u]", cache, GC_MAX_CACHE_SIZE);
    uint32_t* p = out;
    if (layout == GC_GRID_ROWMAJOR) {
        for (uint32_t y = 0; y < height; ++y)
            for (uint32_t x = 0; x < width; ++x)
                p = emit_quad(p, width, x, y);
    } else {
        uint32_t sw = strip_width(width, cache);
        for (uint32_t x0 = 0; x0 < width; x0 += sw) {
            uint32_t x1 = width - x0 < sw ? width : x0 + sw;
            if (layout == GC_GRID_OPTIMAL && needs_prefetch(x1 - x0, cache)) {
                /* Degenerate triangles (x, x, x+1) bring the strip's first row into the cache in order. */
                for (uint32_t x = x0; x < x1; ++x) {
                    *p++ = x;
                    *p++ = x;
                    *p++ = x + 1;
                }
            }
            for (uint32_t y = 0; y < height; ++y)
                for (uint32_t x = x0; x < x1; ++x)
                    p = emit_quad(p, width, x, y);
        }
    }
    *written = (size_t)(p - out);
    return GC_OK;
}

/* splitmix64: small, fast, and the same on every platform. */
static uint64_t next_random(uint64_t* state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void gc_shuffle_triangles(uint32_t* indices, size_t index_count, uint64_t seed)
{
    size_t n = index_count / 3;
    uint64_t state = seed;
    for (size_t i = n; i > 1; --i) {
        size_t j = (size_t)(next_random(&state) % i);
        uint32_t t[3];
        memcpy(t, indices + 3 * (i - 1), sizeof t);
        memcpy(indices + 3 * (i - 1), indices + 3 * j, sizeof t);
        memcpy(indices + 3 * j, t, sizeof t);
    }
}
