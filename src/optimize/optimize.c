// SPDX-License-Identifier: MIT
/* What every optimizer shares: input validation, the
 * dispatch, and the check that an output is a reordering of the input triangles (each
 * at most rotated, winding kept), run after every optimization. */
#include "optimize.h"

#include <stdlib.h>
#include <string.h>

static const char* const optimizer_names[GC_OPT_COUNT] = {"tipsify", "forsyth", "auto"};

const char* gc_optimizer_name(gc_optimizer algorithm)
{
    return (unsigned)algorithm < GC_OPT_COUNT ? optimizer_names[algorithm] : NULL;
}

gc_status gc_optimizer_parse(const char* name, gc_optimizer* out, gc_error* err)
{
    for (int i = 0; i < GC_OPT_COUNT; ++i)
        if (name && strcmp(name, optimizer_names[i]) == 0) {
            *out = (gc_optimizer)i;
            return GC_OK;
        }
    return gc_fail(err, GC_ERR_USAGE, "unknown optimizer '%s' (tipsify, forsyth, auto)", name ? name : "");
}

/* ------------------------------------------------------------ permutation check */

typedef struct tri_key {
    uint32_t v[3];
} tri_key;

static tri_key canonical(const uint32_t* t)
{
    tri_key k;
    gc_triangle_canonical(t, k.v);
    return k;
}

typedef struct tri_slot {
    tri_key key;
    uint32_t used : 1;   /* the slot holds a key (probing goes on past it) */
    uint32_t count : 31; /* how many of that triangle are still unmatched */
} tri_slot;

gc_status gc_check_permutation(const uint32_t* before, const uint32_t* after, size_t index_count,
                               uint32_t vertex_count, gc_error* err)
{
    (void)vertex_count;
    if (index_count % 3)
        return gc_fail(err, GC_ERR_USAGE, "permutation check: %zu indices is not whole triangles", index_count);
    size_t triangles = index_count / 3;
    size_t capacity = 16;
    while (capacity < 2 * triangles)
        capacity *= 2;
    tri_slot* table = gc_alloc_array(capacity, sizeof *table, true);
    if (!table)
        return gc_fail(err, GC_ERR_NOMEM, "permutation check: out of memory for %zu triangles", triangles);
    const size_t mask = capacity - 1;
    for (size_t t = 0; t < triangles; ++t) {
        tri_key k = canonical(before + 3 * t);
        size_t i = (size_t)gc_triangle_hash(k.v) & mask;
        while (table[i].used && memcmp(&table[i].key, &k, sizeof k) != 0)
            i = (i + 1) & mask;
        table[i].key = k;
        table[i].used = 1;
        table[i].count++;
    }
    gc_status s = GC_OK;
    for (size_t t = 0; t < triangles && !s; ++t) {
        tri_key k = canonical(after + 3 * t);
        size_t i = (size_t)gc_triangle_hash(k.v) & mask;
        while (table[i].used && memcmp(&table[i].key, &k, sizeof k) != 0)
            i = (i + 1) & mask;
        if (!table[i].used || table[i].count == 0)
            s = gc_fail(err, GC_ERR_DATA,
                        "optimizer output triangle %zu (%u, %u, %u) is not an input triangle (or appears too often): "
                        "the reordering lost or changed triangles",
                        t, after[3 * t], after[3 * t + 1], after[3 * t + 2]);
        else
            table[i].count--;
    }
    free(table);
    return s;
}

/* ------------------------------------------------------------------ dispatch */

gc_status gc_optimize(gc_optimizer algorithm, const uint32_t* indices, size_t index_count, uint32_t vertex_count,
                      const gc_optimize_options* options, uint32_t* out, gc_error* err)
{
    return gc_optimize_placed(algorithm, indices, index_count, vertex_count, options, NULL, out, err);
}

gc_status gc_optimize_placed(gc_optimizer algorithm, const uint32_t* indices, size_t index_count,
                             uint32_t vertex_count, const gc_optimize_options* options,
                             const gc_optimize_placement* placement, uint32_t* out, gc_error* err)
{
    static const gc_optimize_options defaults;
    static const gc_optimize_placement alone;
    if (!options)
        options = &defaults;
    if (!placement)
        placement = &alone;
    if (index_count % 3)
        return gc_fail(err, GC_ERR_DATA, "optimize: %zu indices is not a whole number of triangles", index_count);
    if (index_count > GC_MAX_INDICES)
        return gc_fail(err, GC_ERR_LIMIT, "optimize: %zu indices is more than the %zu allowed", index_count,
                       GC_MAX_INDICES);
    /* a run of a longer draw lies inside it (a caller's runs that do not add up would
     * otherwise be read past the draw's end) */
    if (placement->stream_length &&
        (placement->stream_position > placement->stream_length ||
         index_count > placement->stream_length - placement->stream_position))
        return gc_fail(err, GC_ERR_USAGE,
                       "optimize: a run of %zu indices at index %llu lies outside the draw of %llu indices", index_count,
                       (unsigned long long)placement->stream_position, (unsigned long long)placement->stream_length);
    /* Memory follows the vertex count: a sparse buffer must be compacted first. */
    if (gc_too_sparse(vertex_count, index_count))
        return gc_fail(err, GC_ERR_LIMIT,
                       "optimize: %u vertices for %zu indices; renumber the used vertices first (gpucache optimize "
                       "does)",
                       vertex_count, index_count);
    /* the largest index first (a loop without exits vectorizes); the culprit only if needed */
    uint32_t largest = 0;
    for (size_t i = 0; i < index_count; ++i)
        largest = indices[i] > largest ? indices[i] : largest;
    if (index_count && largest >= vertex_count)
        for (size_t i = 0; i < index_count; ++i)
            if (indices[i] >= vertex_count)
                return gc_fail(err, GC_ERR_DATA, "optimize: index %zu is %u, not below the vertex count %u", i,
                               indices[i], vertex_count);
    if (options->cache_size > GC_MAX_CACHE_SIZE)
        return gc_fail(err, GC_ERR_USAGE, "optimize: cache size %u is above %u", options->cache_size,
                       GC_MAX_CACHE_SIZE);
    /* the overdraw options (NaN fails both tests) */
    if (!(options->overdraw_threshold == 0 || options->overdraw_threshold >= 1))
        return gc_fail(err, GC_ERR_USAGE, "optimize: overdraw threshold %g is below 1 (1: no overdraw pass)",
                       (double)options->overdraw_threshold);
    if (!(options->overdraw_lambda >= 0 && options->overdraw_lambda <= 3))
        return gc_fail(err, GC_ERR_USAGE, "optimize: overdraw lambda %g is outside [0, 3] (misses per triangle)",
                       (double)options->overdraw_lambda);
    if (options->positions && options->position_stride && options->position_stride < 3 * sizeof(float))
        return gc_fail(err, GC_ERR_USAGE, "optimize: a position stride of %zu bytes is less than x, y and z",
                       options->position_stride);
    size_t triangles = index_count / 3;
    if (triangles == 0)
        return GC_OK;
    if (out < indices + index_count && indices < out + index_count)
        return gc_fail(err, GC_ERR_USAGE, "optimize: the output buffer overlaps the input");
    if (algorithm == GC_OPT_FORSYTH && options->cache_size && (options->cache_size < 4 || options->cache_size > 256))
        return gc_fail(err, GC_ERR_USAGE, "forsyth: cache size %u is outside [4, 256]", options->cache_size);
    /* The algorithms write triangle ids to `order`; Tipsify and Forsyth also write the
     * triangles to `out` as they go, auto's are written out below. */
    uint32_t* order = gc_alloc_array(triangles, sizeof(uint32_t), false);
    uint64_t* seen = gc_alloc_array((triangles + 63) / 64, sizeof(uint64_t), true);
    gc_status s = GC_OK;
    if (!order || !seen)
        s = gc_fail(err, GC_ERR_NOMEM, "optimize: out of memory for the order of %zu triangles", triangles);
    else if (algorithm == GC_OPT_TIPSIFY) {
        s = gc_opt_tipsify(indices, triangles, vertex_count, options->cache_size ? options->cache_size : 16, order, out,
                           err);
        /* the paper's second half: clusters sorted for overdraw, written out below */
        if (!s && options->positions && options->overdraw_lambda > 0)
            s = gc_opt_overdraw_sort(indices, triangles, vertex_count, options->positions, options->position_stride,
                                     options->cache_size ? options->cache_size : 16, options->overdraw_lambda, 0,
                                     0, order, err);
    }
    else if (algorithm == GC_OPT_FORSYTH)
        s = gc_opt_forsyth(indices, triangles, vertex_count, options->cache_size ? options->cache_size : 32, order, out,
                           err);
    else if (algorithm == GC_OPT_AUTO)
        s = gc_opt_auto(indices, triangles, vertex_count, options, placement, order, out, err); /* out: its scratch */
    else
        s = gc_fail(err, GC_ERR_USAGE, "optimize: unknown algorithm %d", (int)algorithm);
    /* Never lose a triangle: the ids must be a permutation, whatever the algorithm did.
     * (Tipsify and Forsyth copy each triangle in the statement that records its id; on
     * failure `out` may be left partly written, as any failed call may leave it.) */
    for (size_t i = 0; i < triangles && !s; ++i) {
        uint32_t t = order[i];
        if (t >= triangles || (seen[t / 64] >> (t % 64) & 1)) {
            s = gc_fail(err, GC_ERR_DATA,
                        "%s: output triangle %zu is input triangle %u %s: the order loses or repeats triangles",
                        gc_optimizer_name(algorithm), i, t, t >= triangles ? "(out of range)" : "again");
            break;
        }
        seen[t / 64] |= 1ull << (t % 64);
        if (algorithm == GC_OPT_AUTO || (algorithm == GC_OPT_TIPSIFY && options->positions &&
                                         options->overdraw_lambda > 0)) {
            const uint32_t* src = indices + 3 * (size_t)t;
            out[3 * i] = src[0], out[3 * i + 1] = src[1], out[3 * i + 2] = src[2];
        }
    }
    free(order);
    free(seen);
    return s;
}
